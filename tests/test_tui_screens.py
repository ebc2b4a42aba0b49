"""The terminal interface's other screens: learn mode, history, replay, statistics; keyboard reach.

Each test drives the real app with Textual's pilot on a temporary database; games are played
by the engine (seeded `Match`es, bots), never faked.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from textual.widget import Widget
from textual.widgets import Checkbox, Input, OptionList, Select, Static

from pinsetter.bots.base import make_bot
from pinsetter.core.seeds import step_rng
from pinsetter.i18n import DEFAULT_LANGUAGE, set_language
from pinsetter.records import PlayerSpec
from pinsetter.session import Match
from pinsetter.storage import Storage
from pinsetter.storage.stats import player_stats
from pinsetter.ui import tui_common
from pinsetter.ui.tui import PinsetterApp
from pinsetter.ui.tui_common import WrappedText
from pinsetter.ui.tui_history import HistoryScreen, ReplayScreen, StatsScreen
from pinsetter.ui.tui_launcher import Launcher, ResumeConfirm
from pinsetter.ui.tui_learn import LearnScreen
from test_tui import highlight_game, past_guard, screen_text, settle, status_line, type_into
from test_tui_sizes import open_game
from tui_support import quiet, until

SIZE = (120, 40)


async def wait_for(pilot: Any, app: PinsetterApp, kind: type) -> Any:
    await until(pilot, lambda: isinstance(app.screen, kind), kind.__name__)
    assert isinstance(app.screen, kind), app.screen
    return app.screen


# --- learn mode --------------------------------------------------------------------------------

# (game, options set in the launcher, seed, words the lessons of its first frame must use)
# Seeds whose first frame shows each lesson (chance drawn by position, docs/records.md "draws").
LESSONS = [
    ("tenpins", {}, 5, ["press space", "Pins standing", "open frame"]),
    ("bowling-dice", {}, 6, ["press space", "Dice faces", "Spare (/)"]),
    ("bowling-solitaire", {}, 7, ["Choose a pile (p)", "Group rules, first play", "Pin groups are chains"]),
    (
        "rolling-pins",
        {"advanced": True},
        2,
        ["You rolled", "Tokens (●)", "Grey pins (◆)", "You earned a mark", "You hold Reroll"],
    ),
]


async def learn_first_frame(pilot: Any, app: PinsetterApp) -> LearnScreen:
    """Play the learner's first frame through the screen: a greedy bot's choice typed in, space to roll."""
    screen = await wait_for(pilot, app, LearnScreen)
    state = screen.match.state
    bot = make_bot("greedy", screen.match.game) if state.game.has_decisions else None
    box = screen.query_one("#command", Input)
    for _ in range(80):
        await settle(pilot, screen)
        ctx = screen.match.state.ball_context(0)
        if screen.match.state.is_terminal() or ctx is None or ctx.frame > 1:
            break
        await past_guard(pilot, screen)
        if screen.human_to_act():
            assert bot is not None
            action = bot.choose(screen.match.state, step_rng(1, screen.match.steps_done, 1))
            box.value = str(action)
            box.focus()
            await pilot.press("enter")
        else:
            screen.query_one("#actions", OptionList).focus()
            await pilot.press("space")
    await settle(pilot, screen)
    return screen


async def test_learn_mode_walks_through_the_first_frame_of_every_game(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'learn.sqlite'}")
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=SIZE) as pilot:
        for game, options, seed, words in LESSONS:
            await highlight_game(pilot, app, game)
            for name in options:
                await pilot.click(f"#opt-{name}")
            await type_into(pilot, "#seed", str(seed))
            await pilot.press("f4")
            screen = await learn_first_frame(pilot, app)
            assert screen.match.seed == seed and [p.name for p in screen.match.players] == ["Player 1"]
            read = "\n".join(screen.lessons_seen)
            for word in words:
                assert word in read, (game, word)
            # Each lesson is about the position it was shown for: the last one ends the first frame.
            first = screen.match.state.scoresheet(0).frames[0]
            assert f"That was your first frame, marked {' '.join(first.marks)}" in screen.lessons_seen[-1]
            assert "That was your first frame" in screen_text(app)  # on screen, in the lesson panel
            if game == "rolling-pins":
                held = [a.title for a in screen.table_view().abilities]
                assert held == ["Reroll"]  # area 1 (one box) filled by the grey pin crossed in ball 2
                assert all(f"You hold {title}" in screen.lessons_seen[-1] for title in held)
            screen.query_one("#actions", OptionList).focus()  # out of the typing box
            await pilot.press("q")
            await wait_for(pilot, app, Launcher)
            assert app.screen.query_one("#seed", Input).value != str(seed)  # the game played next has new dice
        assert storage.history() == []  # lessons are not kept in the history


async def open_learn(app: PinsetterApp, pilot: Any, game: str, seed: int = 2) -> LearnScreen:
    """Learn `game` as the launcher opens it (Player 1, undo on), its first lesson shown."""
    match = Match.new(game, [PlayerSpec("Player 1")], seed=seed)
    match.undo_allowed = True
    screen = LearnScreen(match, speed=0)
    app.push_screen(screen)
    await until(pilot, lambda: bool(screen.query("FooterKey")) and screen.lessons_seen, "the lesson")
    await past_guard(pilot, screen)
    return screen


@pytest.mark.parametrize("size", [(60, 20), (80, 24)])
async def test_a_short_window_teaches_the_step_not_the_introduction_again(size: tuple[int, int]) -> None:
    """The launcher said the game's introduction (its summary, under the list of games): in a short
    window the panel opens on the step in front of the learner, one die or two, not on that again."""
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=size) as pilot:
        screen = await open_learn(app, pilot, "rolling-pins")
        summary = screen.match.game.summary
        assert summary not in screen.lessons_seen[-1]
        text = " ".join(screen_text(app).split())  # the panel's lines run together
        assert "One die or two: Choose how many dice to roll." in text
        assert summary.split(":")[0] not in text


def test_a_short_window_keeps_the_introduction_while_it_is_all_there_is_to_say() -> None:
    """Solitaire's deal: no lesson of its own yet, so the introduction, not an empty panel."""
    from pinsetter.ui.tui_learn import lesson

    match = Match.new("bowling-solitaire", [PlayerSpec("Player 1")], seed=2)
    view = match.game.table(match.state, ["Player 1"], "")
    assert match.state.is_chance_node() and match.game.summary in lesson(match, view, short=True).plain
    while match.state.is_chance_node():
        match.apply(match.draw_chance())
    view = match.game.table(match.state, ["Player 1"], "")
    told = lesson(match, view, short=True).plain
    assert "Cards as pins, piles as balls" in told and match.game.summary not in told


async def test_a_tall_window_keeps_the_introduction() -> None:
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_learn(app, pilot, "rolling-pins")
        summary = screen.match.game.summary
        assert summary in screen.lessons_seen[-1] and "One die or two" in screen.lessons_seen[-1]
        text = screen_text(app)
        assert summary.split(":")[0] in text and "One die or two: Choose how many dice" in text


async def test_h_in_learn_at_60x20_shows_the_hint_in_the_lessons_room() -> None:
    """Stacked in a short window there is room for the lesson or the hints: h shows the hints (the
    best option first) and says how to have the lesson back; h again brings the lesson back."""
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await open_learn(app, pilot, "rolling-pins")
        hints, lesson = screen.query_one("#hint-box"), screen.query_one("#lesson")
        await pilot.press("h")
        await until(pilot, lambda: "(best)" in screen_text(app), "the hint")
        text = screen_text(app)
        assert screen.can_view_partial(hints) and hints.region.height >= 3
        assert "Roll two dice: expected final score" in text and "(best)" in text
        assert "hints (h: the lesson again)" in text
        assert "One die or two" not in text and not lesson.display
        await pilot.press("h")
        await quiet(pilot)
        text = screen_text(app)
        assert "One die or two" in text and "(best)" not in text and screen.can_view_partial(lesson)


async def test_the_hints_title_in_learn_at_60x20_speaks_the_screens_language() -> None:
    """Set in the app's context, not in the hint worker's (which starts in English)."""
    set_language("ja")
    try:
        app = PinsetterApp(storage=None, speed=0)
        async with app.run_test(size=(60, 20)) as pilot:
            await open_learn(app, pilot, "rolling-pins")
            await pilot.press("h")
            await until(pilot, lambda: "（最善）" in screen_text(app), "the hint")  # noqa: RUF001
            text = screen_text(app)
            assert "ヒント（h: レッスンに戻る）" in text and "lesson again" not in text, text  # noqa: RUF001
    finally:
        set_language(DEFAULT_LANGUAGE)


async def test_h_where_chance_decides_every_ball_says_why_there_is_no_hint() -> None:
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await open_learn(app, pilot, "tenpins")
        await pilot.press("h")
        await quiet(pilot)
        text = " ".join(screen_text(app).split())
        assert "! Ten Pins (dice) has no decisions: chance decides every ball, so there is no hint to give" in text
        assert not screen.show_hint
        # and the lesson does not promise one
        assert "h shows hints" not in "\n".join(screen.lessons_seen)


async def test_h_once_the_game_is_over_says_so() -> None:
    match = Match.new("rolling-pins", [PlayerSpec("ann", "greedy")], seed=3, options={"frames": "1"})
    match.run_bots()
    assert match.state.is_terminal()
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, match)
        await pilot.press("h")
        await quiet(pilot)
        assert "! the game is over: there is nothing left to hint" in status_line(screen)
        assert screen.can_view_entire(screen.query_one("#status"))
        assert not screen.hint_asked()


# --- history, replay and statistics --------------------------------------------------------------


def stored_games(storage: Storage) -> list[Match]:
    """Finished games of two games by two players, as the launcher would keep them."""
    played = []
    for seed, game, names in [
        (1, "tenpins", ["ann", "bob"]),
        (2, "tenpins", ["ann"]),
        (3, "tenpins", ["ann"]),
        (4, "bowling-dice", ["ann"]),
    ]:
        match = Match.new(game, [PlayerSpec(n, "random") for n in names], seed=seed)
        match.storage = storage
        match.store()
        match.run_bots()
        played.append(match)
    return played


async def test_history_replay_and_statistics(tmp_path: Path) -> None:
    from pinsetter.storage.db import games

    storage = Storage(f"sqlite:///{tmp_path / 'h.sqlite'}")
    played = stored_games(storage)
    # One stored record that no longer validates (a name with a terminal escape, as an old version wrote).
    broken = Match.new("tenpins", [PlayerSpec("zed")], seed=9)
    broken.storage = storage
    broken.advance()
    with storage.engine.begin() as connection:
        row = connection.execute(games.select().where(games.c.id == broken.game_id)).first()
        text = row._mapping["record"].replace('"zed"', '"\\u001b[2J"')  # type: ignore[union-attr]
        connection.execute(games.update().where(games.c.id == broken.game_id).values(record=text))
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f2")
        history = await wait_for(pilot, app, HistoryScreen)
        listing = history.query_one("#history-list", OptionList)
        assert listing.option_count == len(played)  # every readable game; the broken one skipped
        notes = history.query_one("#history-notes", Static).render().plain  # type: ignore[union-attr]
        assert f"game #{broken.game_id} skipped" in notes and "control character" in notes
        assert "\x1b" not in screen_text(app)
        # Filter by game, then by player.
        history.query_one("#history-game", Select).value = "bowling-dice"
        await quiet(pilot)
        assert listing.option_count == 1 and "Bowling Dice: " in str(listing.get_option_at_index(0).prompt)
        history.query_one("#history-game", Select).value = "tenpins"
        await quiet(pilot)
        assert listing.option_count == 3
        await type_into(pilot, "#history-player", "bob")
        await quiet(pilot)
        assert listing.option_count == 1
        label = str(listing.get_option_at_index(0).prompt)
        first = played[0]
        scores = first.state.scores()
        assert f"ann {scores[0]}, bob {scores[1]} (finished)" in label
        # Open it: the sheet of the game as it ended, then step through it.
        listing.focus()
        await past_guard(pilot, history)
        await pilot.press("enter")
        replay = await wait_for(pilot, app, ReplayScreen)
        steps = len(first.record.steps)
        assert replay.at == steps and f"step {steps} of {steps}" in screen_text(app)
        assert f"{scores[0]:>6} " in screen_text(app)  # the final total on the sheet
        await pilot.press("home")
        await quiet(pilot)
        assert replay.at == 0 and "step 0 of" in screen_text(app)
        await pilot.press("right", "right")
        assert replay.at == 2
        assert str(replay.states[2].scoresheet(0).frames[0].marks[0]) in screen_text(app)
        log = replay.query_one("#replay-log", Static).render().plain  # type: ignore[union-attr]
        assert log.count("\n") == 1 and "ann rolls " in log  # the two steps so far, in the game's words
        await pilot.press("left")
        assert replay.at == 1
        await pilot.press("end")
        await quiet(pilot)
        assert replay.at == steps and "game over" in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, app, HistoryScreen)
        # Statistics: one game at a time, for one player or everyone.
        await pilot.press("f3")
        stats = await wait_for(pilot, app, StatsScreen)
        assert stats.game == "tenpins" and stats.player == "bob"
        # These games were played by bots: their scores count only once the switch says so.
        text = stats.query_one("#stats-text", Static).render().plain  # type: ignore[union-attr]
        assert "(1 bot score left out)" in text and "0 finished games" in text
        assert "Ten Pins (dice)" in text and "tenpins" not in text  # the game's name, not its id
        stats.query_one("#stats-bots", Checkbox).value = True
        await quiet(pilot)
        stats.query_one("#stats-player", Select).value = "ann"
        await quiet(pilot)
        text = stats.query_one("#stats-text", Static).render().plain  # type: ignore[union-attr]
        data = player_stats(storage, "ann", "tenpins", include_bots=True)["series"][0]
        assert data["games"] == 3 and "3 finished games" in text
        assert data["ci95"] is None  # three games: too few for a range (docs/history.md)
        assert f"average {data['average']:.1f} (too few games for a range: 5 needed)" in text
        assert f"best game {data['best']}, worst {data['worst']}" in text
        assert f"strikes in {data['strike_rate']:.0%} of frames, spares in {data['spare_rate']:.0%}" in text
        assert f"trend {data['trend_per_game']:+.1f} points a game" in text
        assert "against the odds:" in text and "personal bests" in text
        assert f"1. {data['best']:>3}  ann" in text
        # Another game: its own numbers only, never averaged with the first.
        stats.query_one("#stats-game", Select).value = "bowling-dice"
        await quiet(pilot)
        text = stats.query_one("#stats-text", Static).render().plain  # type: ignore[union-attr]
        dice = played[3].state.scores()[0]
        assert "1 finished game" in text and f"average {dice:.1f} (too few games for a range: 5 needed)" in text


# --- the launcher and the keyboard -----------------------------------------------------------------


def reading_order_ok(widgets: list[Widget]) -> bool:
    """Each control comes after the one before it in reading order: further down, or in a column to the right."""
    for before, after in itertools.pairwise(widgets):
        up = after.region.y < before.region.y
        if up and after.region.x <= before.region.x:
            return False
    return True


async def tab_through(pilot: Any, app: PinsetterApp) -> None:
    """Tab from the first control round to it again: every focusable control, once, in reading order."""
    screen = app.screen
    chain = list(screen.focus_chain)
    assert chain
    chain[0].focus()
    await quiet(pilot)
    reached = [app.focused]
    for _ in range(len(chain) + 5):
        await pilot.press("tab")
        if app.focused is chain[0]:
            break
        reached.append(app.focused)
    assert reached == chain, f"{type(screen).__name__}: Tab reached {reached}, expected {chain}"
    assert reading_order_ok(chain), [(w, w.region) for w in chain]


async def test_tab_reaches_every_control_in_reading_order(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 't.sqlite'}")
    stored_games(storage)
    unfinished = Match.new("rolling-pins", [PlayerSpec("ann")], seed=2)
    unfinished.storage = storage
    unfinished.apply(unfinished.state.legal_actions()[0])
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=SIZE) as pilot:
        await highlight_game(pilot, app, "rolling-pins")  # a game with a switch among its options
        await tab_through(pilot, app)
        launcher = app.screen
        names = {w.id for w in launcher.focus_chain}
        for control in ("games", "resume", "history", "statistics", "players", "player-name", "player-kind"):
            assert control in names
        for control in ("add-player", "remove-player", "up-player", "opt-advanced", "seed", "undo", "play", "learn"):
            assert control in names
        launcher.query_one("#resume", OptionList).focus()
        await past_guard(pilot, launcher)
        await pilot.press("enter")
        await wait_for(pilot, app, ResumeConfirm)
        await tab_through(pilot, app)
        await pilot.press("escape")
        await wait_for(pilot, app, Launcher)
        for key, kind in (("f2", HistoryScreen), ("f3", StatsScreen)):
            await pilot.press(key)
            await wait_for(pilot, app, kind)
            await tab_through(pilot, app)
            await pilot.press("escape")
            await wait_for(pilot, app, Launcher)
        app.push_screen(ReplayScreen(storage.history()[0]))
        await wait_for(pilot, app, ReplayScreen)
        await tab_through(pilot, app)
        await pilot.press("escape")
        await pilot.press("f4")
        await wait_for(pilot, app, LearnScreen)
        await tab_through(pilot, app)


async def test_an_enter_just_after_a_game_opens_is_not_a_move(monkeypatch: pytest.MonkeyPatch) -> None:
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        match = Match.new("rolling-pins", [PlayerSpec("ann")], seed=4)
        # The guard is ENTER_GUARD seconds; lengthened here so that a loaded machine cannot outlast it.
        monkeypatch.setattr(tui_common, "ENTER_GUARD", 60.0)
        screen = await open_game(app, pilot, match)
        assert screen.human_to_act()
        await pilot.press("enter")  # e.g. the Enter that started the game, repeated
        await quiet(pilot)
        assert match.steps_done == 0
        screen.opened_at -= 120.0  # the guard is over: Enter plays the highlighted action
        await pilot.press("enter")
        await quiet(pilot)
        assert match.steps_done >= 1 and match.record.steps[0].actor == 0


# --- undo against a bot --------------------------------------------------------------------------


async def test_undo_against_a_bot_takes_back_its_answers_but_never_a_revealed_roll() -> None:
    """Shared dice: the bot answers the same roll right after the human, before any die is rolled again."""
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=SIZE) as pilot:
        players = [PlayerSpec("you"), PlayerSpec("robo", "greedy")]
        match = Match.new("rolling-pins", players, seed=3, options={"shared_dice": "true"})
        screen = await open_game(app, pilot, match)
        box = screen.query_one("#command", Input)

        async def play(text: str) -> None:
            await settle(pilot, screen)
            await past_guard(pilot, screen)
            box.value = text
            box.focus()
            await pilot.press("enter")
            await settle(pilot, screen)
            screen.query_one("#actions", OptionList).focus()  # keys are commands again, not text

        await play("dice 1")  # the human's dice; the bot's too; then the shared roll is revealed
        assert any(step.actor is None for step in match.record.steps)
        rolled = list(match.record.steps)
        await pilot.press("u")
        assert match.record.steps == rolled and "rolled after your last decision" in status_line(screen)
        await play(str(match.state.legal_actions()[0]))  # the human answers the roll; the bot answers after
        answered = list(match.record.steps)
        assert screen.human_to_act() and answered[-1].actor == 1 and answered[-2].actor == 0
        await pilot.press("u")
        assert match.record.steps == rolled and match.record.undo_used  # the bot's answer went with it
        assert "undo: 2 steps taken back" in screen_text(app)
        assert screen.human_to_act()


# --- words ---------------------------------------------------------------------------------------


async def test_words_a_player_understands() -> None:
    """Bots' marks name their ability in the log; the end ranks every player with its solo rank and
    compares with the odds once; the rules list the track; advanced hints say they are estimates."""
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=SIZE) as pilot:
        bots = [PlayerSpec("ann", "greedy"), PlayerSpec("bob", "greedy")]
        match = Match.new("rolling-pins", bots, seed=3, options={"advanced": "true", "frames": "2"})
        screen = await open_game(app, pilot, match)
        await settle(pilot, screen)
        assert match.state.is_terminal()
        log = screen.query_one("#log-text", Static).render().plain  # type: ignore[union-attr]
        marks = [s for s in match.record.steps if s.text.startswith("mark")]
        assert marks and log.count("ann marks a box: Reroll, upper row") == len(marks)
        end = status_line(screen)
        for name, score in zip(["ann", "bob"], match.state.scores(), strict=True):
            # Ranks are the whole game's: a 2-frame score gets none (15 is no Pinhead's score).
            assert f"{name}: {score}\n" in end + "\n"
        await pilot.press("question_mark")
        await quiet(pilot)
        rules = app.screen.query_one("#rules-text", Static).render().plain  # type: ignore[union-attr]
        assert "• Flip: 2 boxes" in rules  # the track of this sheet, in the rules
        await pilot.press("escape")
        await quiet(pilot)

        dice = Match.new(
            "tenpins", [PlayerSpec("ann", "random"), PlayerSpec("bob", "random")], seed=1, options={"frames": "1"}
        )
        screen = await open_game(app, pilot, dice)
        await settle(pilot, screen)
        end = status_line(screen)
        assert end.count("better than") == 2 and end.count("exact odds") == 1

        learner = Match.new("rolling-pins", [PlayerSpec("ann")], seed=3, options={"advanced": "true"})
        screen = await open_game(app, pilot, learner)
        await pilot.press("h")
        await until(pilot, lambda: learner.steps_done in screen.hints, "the hints")
        hint = screen.query_one("#hint", WrappedText).source.plain
        assert "estimated final score" in hint and "an estimate" in hint
