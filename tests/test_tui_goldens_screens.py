"""Golden screens of the terminal outside a game: Learn, the history, a replay, the statistics, and the
question asked before a game is resumed.

The same sizes, languages and format as `test_tui_goldens.py` (`<screen>-<lang>-<W>x<H>.txt` in
`tests/golden/screens/`, `UPDATE_GOLDEN=1` rewrites them, the SVGs go to `PINSETTER_ARTIFACTS`).
The history is a temporary database of seeded games with fixed dates, so that every screen is the
same from run to run. Beside the text, what holds at every size: nothing wider or taller than the
terminal, the footer's way back, and what each screen is for in view (the lesson and the actions
in Learn, a game in the history, the step and the hint in a replay, the averages in the statistics).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.containers import VerticalScroll
from textual.widgets import OptionList, Select

from pinsetter.bots.base import make_bot
from pinsetter.core.seeds import step_rng
from pinsetter.records import PlayerSpec, player_name
from pinsetter.session import Match
from pinsetter.storage import Storage
from pinsetter.ui import tui_launcher
from pinsetter.ui.tui import PinsetterApp
from pinsetter.ui.tui_common import WrappedText
from pinsetter.ui.tui_history import HistoryScreen, ReplayScreen, StatsScreen
from pinsetter.ui.tui_launcher import ResumeConfirm
from pinsetter.ui.tui_learn import LearnScreen
from test_tui import screen_text
from test_tui_goldens import check_screen, fits
from tui_support import SIZES, quiet, size_id, until

MAY = "2026-05-{day:02d}T1{hour}:{minute:02d}:00+00:00"


def kept(storage: Storage, match: Match, day: int) -> Match:
    """`match` in the history, created on day `day` of May 2026 (a date the golden can keep)."""
    match.record.created = MAY.format(day=day, hour=day % 10, minute=day * 2)
    match.storage = storage
    match.store()
    return match


def play_out(match: Match, upto: int | None = None) -> Match:
    """Bots play their seats; the humans' moves are the greedy bot's (the same every run)."""
    bot = make_bot("greedy", match.game) if match.game.has_decisions else None
    while not match.state.is_terminal() and (upto is None or match.steps_done < upto):
        if not match.advance():
            assert bot is not None
            match.apply(bot.choose(match.state, step_rng(1, match.steps_done, 1)))
    match.store()
    return match


def history(tmp_path: Path) -> Storage:
    """A history a player has after a week: Ten Pins alone, Rolling Pins against a bot, one unfinished
    Solitaire, one game left before a pin fell."""
    storage = Storage(f"sqlite:///{tmp_path / 'golden.sqlite'}")
    for day, seed in ((1, 11), (2, 12), (3, 13)):
        play_out(kept(storage, Match.new("tenpins", [PlayerSpec("ann")], seed=seed), day))
    rolling = Match.new("rolling-pins", [PlayerSpec("ann"), PlayerSpec("Greedy bot", "greedy")], seed=4)
    play_out(kept(storage, rolling, 4))
    play_out(kept(storage, Match.new("tenpins", [PlayerSpec("ann")], seed=15), 5))
    solitaire = Match.new("bowling-solitaire", [PlayerSpec("ann")], seed=6, options={"frames": "5"})
    play_out(kept(storage, solitaire, 6), upto=30)
    kept(storage, Match.new("bowling-dice", [PlayerSpec("ann"), PlayerSpec("bob")], seed=7), 7)
    return storage


def footer_has_back(app: PinsetterApp) -> bool:
    keys = {active.binding.key for active in app.screen.active_bindings.values() if active.binding.show}
    return any("escape" in key or key == "q" for key in keys)


@pytest.mark.parametrize("size", SIZES, ids=size_id)
async def test_the_resume_question(
    tmp_path: Path, language: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The question before a game is resumed: the game, where each player stands, the sheets, the buttons."""
    monkeypatch.setattr(tui_launcher, "draw_seed", lambda: 4242)
    storage = Storage(f"sqlite:///{tmp_path / 'resume.sqlite'}")
    match = Match.new("rolling-pins", [PlayerSpec("ann"), PlayerSpec("bob")], seed=2)
    play_out(kept(storage, match, 8), upto=30)
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: bool(app.screen.query("FooterKey")), "the launcher")
        stored = storage.get(match.game_id or 0)
        assert stored is not None
        app.push_screen(ResumeConfirm(Match.resume(stored.record)))
        await until(pilot, lambda: isinstance(app.screen, ResumeConfirm), "the question")
        screen = app.screen
        text = screen_text(app)
        check_screen(f"resume-{language}-{size_id(size)}", text, app.export_screenshot())
        fits(text, *size)
        for control in ("#resume-game", "#resume-yes", "#resume-no"):  # the game and both answers, whole
            assert screen.can_view_entire(screen.query_one(control)), control
        sheet = screen.query_one("#resume-game", WrappedText).source.plain.split("\n")
        assert all(line.rstrip() in text for line in sheet), "the sheet is folded"


@pytest.mark.parametrize("size", SIZES, ids=size_id)
async def test_learn(language: str, size: tuple[int, int]) -> None:
    """Learn Rolling Pins at the first roll to match: the lesson, the table and the actions at once."""
    match = Match.new("rolling-pins", [PlayerSpec(player_name(1))], seed=2)  # as the launcher seats it
    match.undo_allowed = True
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=size) as pilot:
        screen = LearnScreen(match, speed=0)
        app.push_screen(screen)
        await until(pilot, lambda: bool(screen.query("FooterKey")) and screen.lessons_seen, "the lesson")
        screen.play_text("dice 2")  # the learner's first choice; the dice are rolled at once
        await until(pilot, screen.human_to_act, "the roll to match")
        text = screen_text(app)
        check_screen(f"learn-{language}-{size_id(size)}", text, app.export_screenshot())
        fits(text, *size)
        lesson = screen.query_one("#lesson")
        actions = screen.query_one("#actions", OptionList)
        assert lesson.region.height >= 4 and screen.can_view_partial(lesson)
        assert actions.region.height >= 2 and screen.can_view_partial(actions)
        table = screen.query_one("#table-box")
        assert screen.can_view_entire(table)  # the lesson never grows over the table, however short the window
        assert not table.region.overlaps(lesson.region) and not actions.region.overlaps(lesson.region)
        assert footer_has_back(app)


@pytest.mark.parametrize("size", SIZES, ids=size_id)
async def test_history(tmp_path: Path, language: str, size: tuple[int, int]) -> None:
    app = PinsetterApp(storage=history(tmp_path), speed=0)
    async with app.run_test(size=size) as pilot:
        await pilot.press("f2")
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen), "the history")
        screen = app.screen
        await until(pilot, lambda: bool(screen.query("FooterKey")), "the footer's keys")
        text = screen_text(app)
        check_screen(f"history-{language}-{size_id(size)}", text, app.export_screenshot())
        fits(text, *size)
        listing = screen.query_one("#history-list", OptionList)
        assert listing.option_count == 7 and listing.region.height >= 3
        assert "#7 " in text  # the newest game, in view
        assert footer_has_back(app)


async def open_replay(app: PinsetterApp, pilot: Any, storage: Storage) -> ReplayScreen:
    """The Rolling Pins game against the bot, at ann's first decision of frame 4, its hint worked out."""
    stored = next(g for g in storage.history() if g.game == "rolling-pins")
    screen = ReplayScreen(stored)
    app.push_screen(screen)
    await until(pilot, lambda: bool(screen.query("FooterKey")), "the footer's keys")
    screen.action_go(0)
    for _ in range(3):
        screen.action_frame(1)
    screen.action_decision(1)
    await until(pilot, lambda: screen.at in screen.hints, "the hint")
    await quiet(pilot)
    return screen


@pytest.mark.parametrize("size", SIZES, ids=size_id)
async def test_replay(tmp_path: Path, language: str, size: tuple[int, int]) -> None:
    storage = history(tmp_path)
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=size) as pilot:
        screen = await open_replay(app, pilot, storage)
        text = screen_text(app)
        check_screen(f"replay-{language}-{size_id(size)}", text, app.export_screenshot())
        fits(text, *size)
        box = screen.query_one("#replay-hint-box", VerticalScroll)
        assert box.display and screen.can_view_partial(box) and box.region.height >= 3
        chose = screen.hints[screen.at].plain.split("\n")[0]
        assert chose.split()[0] in text  # "ann chose: ...": whose decision, in view
        assert screen.can_view_partial(screen.query_one("#replay-status"))
        assert footer_has_back(app)
        # The hint's last line is in view, or the panel scrolls to it from the keyboard (Tab, then down).
        while app.focused is not box and box.max_scroll_y:
            await pilot.press("tab")
        for _ in range(box.max_scroll_y):
            await pilot.press("down")
        await quiet(pilot)
        last = screen.hints[screen.at].plain.rstrip()[-4:]  # the end of what the values are
        assert box.scroll_offset.y == box.max_scroll_y and last in screen_text(app)


@pytest.mark.parametrize("size", SIZES, ids=size_id)
async def test_statistics(tmp_path: Path, language: str, size: tuple[int, int]) -> None:
    app = PinsetterApp(storage=history(tmp_path), speed=0)
    async with app.run_test(size=size) as pilot:
        await pilot.press("f3")  # from the launcher: the highlighted game, Ten Pins
        await until(pilot, lambda: isinstance(app.screen, StatsScreen), "the statistics")
        screen = app.screen
        await until(pilot, lambda: bool(screen.query("FooterKey")), "the footer's keys")
        screen.query_one("#stats-player", Select).value = "ann"  # one player's: her trend too
        await quiet(pilot)
        text = screen_text(app)
        check_screen(f"statistics-{language}-{size_id(size)}", text, app.export_screenshot())
        fits(text, *size)
        assert screen.can_view_partial(screen.query_one("#stats-text"))
        assert "2026-05-03" in text  # ann's best game, among her personal bests
        for control in ("#stats-game", "#stats-player", "#stats-bots"):  # every filter whole on screen
            region = screen.query_one(control).region
            assert region.width and region.right <= size[0] and screen.can_view_entire(screen.query_one(control))
        assert footer_has_back(app)
