"""The terminal's review screen (issue 28 part 2): a game's decisions against the best moves, and a chart.

Short real games (Rolling Pins with two frames, Bowling Solitaire with two) are played by the greedy
bot for a human seat, kept in a history, and opened from the history screen (its key and its button)
and from the end of the game, in the real app (Textual's pilot), waiting on conditions, never pauses.
What the screen shows is read as text and compared with `review()`'s own numbers and words; at
every size from 60x20 to 200x60, in English and Japanese, the accuracy and the costliest decisions
are on screen, whole. A game no solver values shows the review's one-line reason. Goldens of the
review at the four sizes, in both languages, are kept beside the other screens' (tests/golden/screens).
"""

from __future__ import annotations

import re
import types
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Button, OptionList

from pinsetter.bots.base import make_bot
from pinsetter.core.seeds import step_rng
from pinsetter.i18n import using_language
from pinsetter.records import PlayerSpec, RecordStep, game_played
from pinsetter.review import PlayerReview, Review, review, reviewable
from pinsetter.session import Match
from pinsetter.storage import Storage
from pinsetter.ui.tui import PinsetterApp
from pinsetter.ui.tui_game import GameScreen
from pinsetter.ui.tui_history import HistoryScreen, ReplayScreen
from pinsetter.ui.tui_launcher import Launcher
from pinsetter.ui.tui_review import BLOCKS, DecisionList, ReviewScreen, chart_range, frame_starts, path_chart
from test_tui import screen_text
from test_tui_goldens import check_screen, fits
from test_tui_screens import tab_through
from tui_support import SIZES, quiet, size_id, until

SHORT = {"rolling-pins": {"frames": 2}, "bowling-solitaire": {"frames": 2}, "tenpins": {"frames": 2}}


def greedy_game(storage: Storage | None, game: str, names: list[str], seed: int = 3) -> Match:
    """A short game whose seats are all people (`names`), every move the greedy bot's; kept in `storage`."""
    match = Match.new(game, [PlayerSpec(n) for n in names], seed=seed, options=SHORT[game])
    match.storage = storage
    if storage is not None:
        match.store()
    bot = make_bot("greedy" if game != "tenpins" else "random", match.game)
    while not match.state.is_terminal():
        if not match.advance():
            match.apply(bot.choose(match.state, step_rng(1, match.steps_done, 1)))
    match.store()
    return match


def history(tmp_path: Path) -> Storage:
    return Storage(f"sqlite:///{tmp_path / 'h.sqlite'}")


def flat(text: str) -> str:
    return " ".join(text.split())


def bare(text: str) -> str:
    """Without any white space: Japanese wraps anywhere, so a line break adds no space to compare."""
    return "".join(text.split())


def shown(text: str, language: str = "en") -> str:
    return bare(text) if language == "ja" else flat(text)


def cut(line: str, start: int, end: int) -> str:
    """The cells `start` to `end` of a screen line (a wide character takes two cells)."""
    out, used = "", 0
    for char in line:
        if start <= used < end:
            out += char
        used += cell_len(char)
    return out


def region_text(app: PinsetterApp, widget: Any, columns: Any = None) -> str:
    """What the screen shows inside `widget`'s region (or only in `columns`' columns), line by line."""
    rows, across = widget.region, (columns or widget).region
    lines = screen_text(app).split("\n")
    return "\n".join(cut(line, across.x, across.right) for line in lines[rows.y : rows.bottom])


def left_text(app: PinsetterApp, screen: ReviewScreen) -> str:
    """The summary's pane as shown, without its scroll bar."""
    return region_text(app, screen.query_one("#review-left"), screen.query_one("#review-summary"))


async def opened_review(pilot: Any, app: PinsetterApp) -> ReviewScreen:
    await until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review screen")
    screen = app.screen
    assert isinstance(screen, ReviewScreen)
    await until(pilot, lambda: screen.result is not None or bool(screen.refusal), "the review worked out")
    return screen


def summary_lines(seat: PlayerReview) -> list[str]:
    """The figures and the costliest decisions as `review()` has them, in the words the screen must show."""
    assert seat.accuracy is not None
    counted = len(seat.counted)
    lines = [
        f"{seat.name}: accuracy {seat.accuracy:.0f}% (the best move in {seat.best_choices} of {counted} real choices)",
        f"points lost to the best moves: {seat.total_loss:.2f}",
        f"expected score {seat.start:.1f} at the start; final score {seat.score}; luck {seat.luck:+.1f}",
    ]
    for rank, d in enumerate(seat.costliest, start=1):
        lines += [
            f"{rank}. {d.situation}",
            f"you chose: {d.words}",
            f"best: {d.best_words}, worth {d.loss:.2f} points more",
        ]
    return lines


def check_the_decisions(screen: ReviewScreen, seat: PlayerReview) -> None:
    """Every decision listed, in order; the ones that lost points say so in words and in red."""
    listing = screen.query_one("#review-decisions", DecisionList)
    assert listing.option_count == len(seat.decisions)
    for index, d in enumerate(seat.decisions):
        prompt = listing.get_option_at_index(index).prompt
        text = flat(prompt.plain)  # type: ignore[union-attr]
        assert text.startswith(flat(d.situation)) and f"you chose: {flat(d.words)}" in text
        if d.best:
            assert "lost" not in text and ("✓ the best move" in text or "no real choice" in text)
        else:
            said = flat(f"✗ lost {d.loss:.2f} points; best: {d.best_words}")
            assert said in text
            start = prompt.plain.index("✗")  # type: ignore[union-attr]
            styles = [str(span.style) for span in prompt.spans if span.start <= start < span.end]  # type: ignore[union-attr]
            assert any("red" in style for style in styles), styles


def check_the_chart(screen: ReviewScreen, seat: PlayerReview) -> None:
    """The chart's y range holds the whole path, both ends labelled; each frame has its tick."""
    chart = screen.query_one("#review-chart").render().plain  # type: ignore[attr-defined]
    rows = [line for line in chart.split("\n") if "┤" in line or "│" in line]
    low, high = min(p.value for p in seat.path), max(p.value for p in seat.path)
    bottom, top = chart_range([p.value for p in seat.path], len(rows))
    assert bottom <= low and high <= top
    assert rows[0].split("┤")[0].strip() == f"{top:.0f}" and rows[-1].split("┤")[0].strip() == f"{bottom:.0f}"
    frames = max(p.frame for p in seat.path)
    assert chart.split("\n")[-1].split() == ["frame", *[str(f) for f in range(1, frames + 1)]]


async def test_a_rolling_pins_review_from_the_history_shows_reviews_numbers(tmp_path: Path) -> None:
    storage = history(tmp_path)
    match = greedy_game(storage, "rolling-pins", ["ann", "bob"])
    stored = storage.get(match.game_id or 0)
    assert stored is not None
    expected = review(stored.record)
    assert len(expected.players) == 2 and all(seat.costliest for seat in expected.players)
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, Launcher), "the launcher")
        await pilot.press("f2")
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen), "the history")
        assert "v Review" in screen_text(app)  # the key, in the footer
        await pilot.press("v")
        screen = await opened_review(pilot, app)
        for number, seat in enumerate(expected.players):
            await quiet(pilot)
            left = flat(left_text(app, screen))
            for line in summary_lines(seat):
                assert flat(line) in left, line
            check_the_chart(screen, seat)
            check_the_decisions(screen, seat)
            assert f"player {number + 1} of the 2 reviewed" in left
            await pilot.press("p")  # the next reviewed player
        # Below 110 columns the decisions take the summary's place: d, and d again.
        text = screen_text(app)
        assert "d Decisions" in text and "p Next player" in text and "s Step through" in text
        await pilot.press("d")
        await quiet(pilot)
        listing = screen.query_one("#review-decisions", DecisionList)
        assert listing.region.width >= 60 and not screen.query_one("#review-left").display
        assert "d Summary" in screen_text(app) and app.focused is listing
        # s: the replay at the highlighted decision (here the third); Escape comes back, Escape again leaves.
        listing.highlighted = 2
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.at == expected.players[0].decisions[2].step - 1
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "back to the review")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen), "back to the history")


async def test_a_solitaire_review_from_the_history_button_and_a_decision_to_the_replay(tmp_path: Path) -> None:
    storage = history(tmp_path)
    match = greedy_game(storage, "bowling-solitaire", ["ann"])
    stored = storage.get(match.game_id or 0)
    assert stored is not None
    expected = review(stored.record)
    (seat,) = expected.players
    assert not expected.exact and len(seat.costliest) == 3
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(HistoryScreen(storage))
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen), "the history")
        app.screen.query_one("#history-review", Button).press()
        screen = await opened_review(pilot, app)
        await quiet(pilot)
        left = flat(left_text(app, screen))
        for line in summary_lines(seat):
            assert flat(line) in left, line
        assert flat(f"Values: {expected.meaning}") in left  # the Expert bot's estimates, said so
        check_the_chart(screen, seat)
        check_the_decisions(screen, seat)
        right = flat(region_text(app, screen.query_one("#review-right")))
        lost = sum(1 for d in seat.decisions if d.own and not d.best)
        # The real choices, as the summary's accuracy counts them (the list has the forced moves too).
        assert f"{len(seat.decisions)} decisions, {len(seat.counted)} real choices, {lost} with points lost" in right
        # Beside the summary from 110 columns; Enter on a decision that lost points opens the replay there.
        listing = screen.query_one("#review-decisions", DecisionList)
        assert app.focused is listing
        await tab_through(pilot, app)  # the summary, the decisions, the buttons: each once, in reading order
        listing.focus()
        worst = seat.costliest[0]
        listing.highlighted = seat.decisions.index(worst)
        screen.opened_at -= 120.0  # past the Enter guard (an Enter just after a screen opens is ignored)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.at == worst.step - 1
        assert replay.steps[replay.at].actor == 0  # the position the decision was made in
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "back to the review")
        screen.query_one("#review-back", Button).press()
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen), "back to the history")


@pytest.mark.parametrize("game", ["rolling-pins", "bowling-solitaire"])
async def test_the_end_of_a_game_opens_its_review(tmp_path: Path, game: str) -> None:
    storage = history(tmp_path)
    match = greedy_game(storage, game, ["ann"])
    expected = review(match.record)
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        end = GameScreen(match, speed=0)
        app.push_screen(end)
        await until(pilot, lambda: bool(end.query("FooterKey")), "the end of the game")
        offered = [str(o.prompt) for o in end.query_one("#actions", OptionList).options]
        assert "Review this game: each decision against the best move" in offered
        await pilot.press("v")
        screen = await opened_review(pilot, app)
        assert screen.result is not None and screen.result.to_json() == expected.to_json()
        await quiet(pilot)
        left = flat(left_text(app, screen))
        for line in summary_lines(expected.players[0])[:3]:
            assert flat(line) in left, line
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is end, "back to the end of the game")


async def test_a_game_no_solver_values_shows_the_reason_and_its_end_steps_through(tmp_path: Path) -> None:
    storage = history(tmp_path)
    match = greedy_game(storage, "tenpins", ["ann"])
    reason = reviewable(match.game)
    assert reason == "Ten Pins (dice) has no decisions: chance decides every ball, so there is nothing to review"
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        history_screen = HistoryScreen(storage)
        app.push_screen(history_screen)
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen), "the history")
        await pilot.press("v")
        screen = await opened_review(pilot, app)
        assert screen.result is None and screen.refusal == reason
        await quiet(pilot)
        text = flat(screen_text(app))
        assert reason in text and "accuracy" not in text
        assert not screen.query_one("#review-decisions-button").display and "d Decisions" not in text
        await pilot.press("s")  # the game step by step is still there
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "back to the reason")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is history_screen, "back to the history")
        # Its end: Review is the step-through, said so.
        end = GameScreen(match, speed=0)
        app.push_screen(end)
        await until(pilot, lambda: bool(end.query("FooterKey")), "the end of the game")
        offered = [str(o.prompt) for o in end.query_one("#actions", OptionList).options]
        assert "Review this game step by step" in offered
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")


async def test_without_a_history_the_end_of_a_game_reviews_the_game_in_memory() -> None:
    match = greedy_game(None, "rolling-pins", ["ann"])
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        end = GameScreen(match, speed=0)
        app.push_screen(end)
        await until(pilot, lambda: bool(end.query("FooterKey")), "the end of the game")
        await pilot.press("v")
        screen = await opened_review(pilot, app)
        assert screen.result is not None and screen.result.to_json() == review(match.record).to_json()
        await quiet(pilot)
        assert "Review of this game: Rolling Pins, 2 frames" in flat(screen_text(app))
        await pilot.press("s")  # the replay of a game kept nowhere
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")


async def test_a_record_that_does_not_replay_and_a_game_not_begun() -> None:
    """A record whose dice are not the seed's: the step named in one line. A game with no decision yet: said so."""
    record = greedy_game(None, "rolling-pins", ["ann"]).record
    steps = list(record.steps)
    steps[1] = RecordStep(None, "6+6" if steps[1].text != "6+6" else "1+1")
    broken = types.SimpleNamespace(id=7, game=record.game, record=replace(record, steps=steps))
    fresh = Match.new("rolling-pins", [PlayerSpec("ann")], seed=4, options=SHORT["rolling-pins"])
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ReviewScreen(broken))
        screen = await opened_review(pilot, app)
        await quiet(pilot)
        assert screen.result is None and screen.refusal.startswith("game 7: ") and "step 2" in screen.refusal
        assert "\n" not in screen.refusal and flat(screen.refusal) in flat(screen_text(app))
        await pilot.press("escape")
        app.push_screen(ReviewScreen(types.SimpleNamespace(id=0, game="rolling-pins", record=fresh.record)))
        screen = await opened_review(pilot, app)
        await quiet(pilot)
        text = flat(screen_text(app))
        assert "Review of this game: Rolling Pins, 2 frames (unfinished)" in text and "ann: no decisions yet" in text
        assert not screen.query_one("#review-chart").display


# --- every size, both languages ----------------------------------------------------------------------

PLAYED: dict[str, tuple[Storage, int]] = {}


def kept_game(tmp_path_factory: pytest.TempPathFactory, game: str) -> tuple[Storage, int]:
    """One history per game for the module's size tests (a Solitaire review is worked out once a language)."""
    if game not in PLAYED:
        storage = Storage(f"sqlite:///{tmp_path_factory.mktemp('sizes') / 'h.sqlite'}")
        match = greedy_game(storage, game, ["ann", "bob"] if game == "rolling-pins" else ["ann"])
        PLAYED[game] = (storage, match.game_id or 0)
    return PLAYED[game]


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("game", ["rolling-pins", "bowling-solitaire"])
async def test_every_size_shows_the_accuracy_and_the_costliest_decisions_whole(
    tmp_path_factory: pytest.TempPathFactory, language: str, game: str, size: tuple[int, int]
) -> None:
    storage, game_id = kept_game(tmp_path_factory, game)
    stored = storage.get(game_id)
    assert stored is not None
    with using_language(language):
        expected: Review = review(stored.record)
    seat = expected.players[0]
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=size) as pilot:
        app.push_screen(ReviewScreen(stored))
        screen = await opened_review(pilot, app)
        await quiet(pilot)
        text = screen_text(app)
        fits(text, *size)
        left = shown(left_text(app, screen), language)
        accuracy = f"{seat.accuracy:.0f}%"
        assert accuracy in left
        summary = screen.query_one("#review-summary").render().plain  # type: ignore[attr-defined]
        assert shown(summary, language) in left  # the whole summary in view, the last costliest decision's end too
        for d in seat.costliest:  # each whole: its place, the move played, the best move and its cost
            for words in (d.situation, d.words, d.best_words, f"{d.loss:.2f}"):
                assert shown(words, language) in left, words
        if game == "rolling-pins":
            check_screen(f"review-{language}-{size_id(size)}", text, app.export_screenshot())
        chart = screen.query_one("#review-chart")
        assert chart.region.right <= size[0]
        if size[1] >= 24:  # the chart begins in view (below 24 rows the costliest decisions fill the window)
            assert chart.region.y < size[1] - 1
        scroll = screen.query_one("#review-left", VerticalScroll)
        assert scroll.max_scroll_x == 0  # nothing wider than its pane
        footer = text.split("\n")[-1]  # every key the screen offers, its words whole
        offered = [a.binding.description for a in screen.active_bindings.values() if a.binding.show]
        assert len(set(offered)) == 3 + (len(expected.players) > 1)  # back, decisions, step through, next player
        assert all(words in footer for words in offered), (offered, footer)


# --- the chart on its own ------------------------------------------------------------------------------


def bars(chart: Text, rows: int) -> list[int]:
    """Each column's height in eighths of a row, read back from the chart's text."""
    body = [re.split("[┤│]", line, maxsplit=1)[1] for line in chart.plain.split("\n")[:rows]]
    assert all(re.fullmatch(r"[ ▁▂▃▄▅▆▇█]+", line) and len(line) == len(body[0]) for line in body)
    return [sum(BLOCKS.index(line[column]) for line in body) for column in range(len(body[0]))]


def test_the_chart_fits_every_width_with_its_range_and_frames_labelled() -> None:
    match = greedy_game(None, "rolling-pins", ["ann", "bob"])
    steps = len(match.record.steps)
    for seat in review(match.record).players:
        starts = frame_starts(match.record, seat.seat)
        # Each frame begins at the seat's first step in it: here its first decision (roll one die or two).
        assert starts == {f: min(d.step for d in seat.decisions if d.frame == f) - 1 for f in (1, 2)}
        values = [p.value for p in seat.path]
        for width in range(24, 201, 11):
            for rows in (2, 5, 12):
                chart = path_chart(seat, steps, width, rows, starts)
                lines = chart.plain.split("\n")
                assert len(lines) == rows + 2 and max(cell_len(line) for line in lines) <= width
                bottom, top = chart_range(values, rows)
                assert bottom <= min(values) <= max(values) <= top
                assert lines[0].split("┤")[0].strip() == f"{top:.0f}"
                assert lines[rows - 1].split("┤")[0].strip() == f"{bottom:.0f}"
                assert lines[-1].split() == ["frame", "1", "2"]  # the x axis: the frames
                assert [lines[rows].count(str(rank)) for rank in range(1, len(seat.costliest) + 1)] == [1] * len(
                    seat.costliest
                )  # the costliest decisions, numbered on the axis
        # Wide enough for a column per step: a red column is a decision that lost points, where the bar
        # drops by its loss; frame 2's tick and number stand where the seat's frame 2 begins.
        rows = 12
        chart = path_chart(seat, steps, 200, rows, starts)
        bottom, top = chart_range(values, rows)
        heights = bars(chart, rows)
        gutter = chart.plain.split("\n")[0].index("┤") + 1
        red = sorted({span.start - gutter for span in chart.spans if span.style == "red" and span.start < 200})
        lost = [d for d in seat.decisions if not d.best]
        assert len(red) == len(lost)
        for column, d in zip(red, lost, strict=True):
            assert heights[column - 1] - heights[column] == pytest.approx(d.loss / (top - bottom) * rows * 8, abs=1)
        axis, numbers = chart.plain.split("\n")[rows], chart.plain.split("\n")[-1]
        columns = len(heights)
        tick = gutter + starts[2] * columns // steps
        assert numbers[tick] == "2" and axis[tick] in "┬123"
        # The last column stands at the seat's final score.
        assert heights[-1] == round((seat.end - bottom) / (top - bottom) * rows * 8) and seat.end == seat.score


def test_unreviewable_labels_follow_the_game() -> None:
    from pinsetter.ui.tui_review import review_label

    assert review_label(game_played("rolling-pins", {})) == "Review this game: each decision against the best move"
    assert review_label(game_played("rolling-pins", {"advanced": True})) == "Review this game step by step"
    short = game_played("rolling-pins", {"advanced": True, "frames": 2})
    assert review_label(short) == "Review this game: each decision against the best move"
    assert review_label(game_played("bowling-dice", {})) == "Review this game step by step"
