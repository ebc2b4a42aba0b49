"""Everything from the keyboard, at every size: each control, each action, each screen.

At 60x20, 80x24, 120x40 and 200x60: Tab reaches every control of the launcher and each is then in
view; F2, F3, F4, Enter on a game to resume, ctrl+r open their screens and Escape or `q` come
back (at 60x20: keys do not change with the size, and each screen's fit at every size is its
golden's claim, tests/test_tui_goldens_screens.py); in the history, the replay, the statistics and
Learn Tab reaches every control, each then in view, and every key of the replay moves it; in every
game each legal action is reached with the arrows and is in view when highlighted, the hint panel
and the log are reached with Tab and scroll, `?` opens the help; at the end of a game `v` reviews
it, `r` plays it again and `q` goes back. Every key is followed by `quiet` before
the screen is read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Input, OptionList

from pinsetter.records import PlayerSpec
from pinsetter.session import Match
from pinsetter.storage import Storage
from pinsetter.ui.tui import PinsetterApp
from pinsetter.ui.tui_game import GameScreen, HelpScreen
from pinsetter.ui.tui_history import ConfirmDelete, HistoryScreen, ReplayScreen, StatsScreen
from pinsetter.ui.tui_launcher import Launcher, ResumeConfirm
from pinsetter.ui.tui_learn import LearnScreen
from pinsetter.ui.tui_review import ReviewScreen
from test_tui import past_guard
from test_tui_goldens import GAMES
from test_tui_sizes import open_game, seeded_match
from tui_support import SIZES, quiet, size_id, until


async def wait_for(pilot: Any, app: PinsetterApp, kind: type) -> Any:
    await until(pilot, lambda: isinstance(app.screen, kind), kind.__name__)
    return app.screen


async def press(pilot: Any, *keys: str) -> None:
    await pilot.press(*keys)
    await quiet(pilot)


def in_view(app: PinsetterApp, widget: Widget) -> bool:
    return app.screen.can_view_partial(widget)


async def tab_to(pilot: Any, app: PinsetterApp, widget: Widget) -> None:
    """Tab forward until `widget` has the focus (at most once round the screen)."""
    for _ in range(len(list(app.screen.focus_chain)) + 1):
        if app.focused is widget:
            return
        await press(pilot, "tab")
    assert app.focused is widget, f"Tab never reached {widget}"


def stored(storage: Storage) -> None:
    """A finished game (for the history and its replay) and one to resume."""
    done = Match.new("tenpins", [PlayerSpec("ann")], seed=1, options={"frames": "1"})
    done.storage = storage
    while not done.state.is_terminal():
        done.apply(done.draw_chance())
    unfinished = Match.new("rolling-pins", [PlayerSpec("ann")], seed=2)
    unfinished.storage = storage
    unfinished.apply(unfinished.state.legal_actions()[0])


@pytest.mark.parametrize("size", SIZES, ids=size_id)
async def test_every_launcher_control_in_view_from_the_keyboard(tmp_path: Path, size: tuple[int, int]) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'k.sqlite'}")
    stored(storage)
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=size) as pilot:
        launcher = await wait_for(pilot, app, Launcher)
        await quiet(pilot)
        await press(pilot, "down", "down")  # Rolling Pins: a game with switches among its options
        chain = list(launcher.focus_chain)
        for control in ("games", "resume", "history", "statistics", "players", "player-name", "player-kind"):
            assert control in {w.id for w in chain}
        for widget in chain:  # each control, by Tab, in view when it has the focus
            await tab_to(pilot, app, widget)
            assert in_view(app, widget), (widget, size)


async def test_the_launcher_opens_its_screens_from_the_keyboard(tmp_path: Path) -> None:
    """At the smallest size only: the keys do not depend on it, each screen's fit is its golden's claim."""
    storage = Storage(f"sqlite:///{tmp_path / 'k.sqlite'}")
    stored(storage)
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=SIZES[0]) as pilot:
        launcher = await wait_for(pilot, app, Launcher)
        await quiet(pilot)
        await press(pilot, "down", "down")  # Rolling Pins, as in the walk above
        last = list(launcher.focus_chain)[-1]
        last.focus()  # where the walk above leaves the focus (each control is reached by Tab there)
        await quiet(pilot)
        assert app.focused is last
        for key, kind in (("f2", HistoryScreen), ("f3", StatsScreen), ("f4", LearnScreen)):
            await press(pilot, key)
            await wait_for(pilot, app, kind)
            await press(pilot, "q" if kind is LearnScreen else "escape")
            await wait_for(pilot, app, Launcher)
        resume = launcher.query_one("#resume", OptionList)
        await tab_to(pilot, app, resume)
        await past_guard(pilot, launcher)
        await press(pilot, "enter")
        await wait_for(pilot, app, ResumeConfirm)
        await press(pilot, "escape")
        await wait_for(pilot, app, Launcher)
        assert app.focused is launcher.query_one("#games")  # back on the list of games, whatever was used last
        await press(pilot, "ctrl+r")
        screen = await wait_for(pilot, app, GameScreen)
        await press(pilot, "question_mark")
        await wait_for(pilot, app, HelpScreen)
        await press(pilot, "escape")
        await wait_for(pilot, app, GameScreen)
        await press(pilot, "q")
        await wait_for(pilot, app, Launcher)
        assert screen.match.steps_done >= 0


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("game", GAMES)
async def test_every_action_hint_and_log_line_from_the_keyboard(game: str, size: tuple[int, int]) -> None:
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=size) as pilot:
        screen = await open_game(app, pilot, seeded_match(game))
        await quiet(pilot)
        actions = screen.query_one("#actions", OptionList)
        assert app.focused is actions and actions.option_count >= 1
        for index in range(actions.option_count):  # each legal action, by the arrows, in view
            assert actions.highlighted == index
            line = actions.get_option_at_index(index)
            assert in_view(app, actions) and actions.scrollable_content_region.height >= 1
            top = actions.scroll_offset.y
            assert top <= actions._index_to_line[index] < top + actions.scrollable_content_region.height, line
            await press(pilot, "down")
        if screen.match.game.has_decisions:
            await press(pilot, "h")
            await until(pilot, lambda: screen.match.steps_done in screen.hints, "the hints")
            box = screen.query_one("#hint-box", VerticalScroll)
            await tab_to(pilot, app, box)
            assert in_view(app, box)
            await press(pilot, "end")
            assert box.scroll_offset.y == box.max_scroll_y
            await press(pilot, "h")
        log = screen.query_one("#log", VerticalScroll)
        await tab_to(pilot, app, log)
        assert in_view(app, log)
        await press(pilot, "home")
        assert log.scroll_offset.y == 0
        box = screen.query_one("#command", Input)
        await tab_to(pilot, app, box)
        assert in_view(app, box) and "typing" in screen.query_one("#status").source.plain  # type: ignore[attr-defined]
        footer = {b.binding.key for b in screen.active_bindings.values() if b.binding.show}
        assert "escape" in footer  # the way back to the keys is in the footer while typing
        await press(pilot, "escape")
        assert app.focused is actions


@pytest.mark.parametrize("size", SIZES, ids=size_id)
async def test_the_end_of_a_game_offers_review_play_again_and_back(tmp_path: Path, size: tuple[int, int]) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'e.sqlite'}")
    match = Match.new("bowling-solitaire", [PlayerSpec("ann")], seed=3, options={"frames": "1"})
    match.storage = storage
    while not match.state.is_terminal():
        match.apply(match.draw_chance() if match.state.is_chance_node() else match.state.legal_actions()[0])
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=size) as pilot:
        screen = await open_game(app, pilot, match)
        await press(pilot, "v")  # a Solitaire game: its review (tests/test_tui_review.py), and from it the replay
        await wait_for(pilot, app, ReviewScreen)
        await press(pilot, "s")
        await wait_for(pilot, app, ReplayScreen)
        await press(pilot, "escape")
        await wait_for(pilot, app, ReviewScreen)
        await press(pilot, "escape")
        await wait_for(pilot, app, GameScreen)
        await past_guard(pilot, screen)
        await press(pilot, "r")
        again = await wait_for(pilot, app, GameScreen)
        assert (again is not screen and again.match.seed != match.seed) or again.match.record is not match.record
        assert again.match.game.options_text() == match.game.options_text() and again.match.players == match.players
        assert len(storage.history()) == 2  # the new game is kept from its start
        await press(pilot, "q")
        await wait_for(pilot, app, Launcher)


def rolling_game(storage: Storage) -> Match:
    """A finished two-frame Rolling Pins game of ann's (her moves the first legal ones): a replay with decisions."""
    match = Match.new("rolling-pins", [PlayerSpec("ann")], seed=3, options={"frames": "2"})
    match.storage = storage
    while not match.state.is_terminal():
        match.apply(match.draw_chance() if match.state.is_chance_node() else match.state.legal_actions()[0])
    return match


async def every_control_in_view(pilot: Any, app: PinsetterApp) -> list[Widget]:
    """Tab to each control of the screen on top; each is in view once it has the focus."""
    chain = list(app.screen.focus_chain)
    assert chain, type(app.screen).__name__
    for widget in chain:
        await tab_to(pilot, app, widget)
        assert in_view(app, widget), (type(app.screen).__name__, widget)
    return chain


@pytest.mark.parametrize("size", SIZES, ids=size_id)
async def test_history_replay_and_statistics_from_the_keyboard(tmp_path: Path, size: tuple[int, int]) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'h.sqlite'}")
    stored(storage)
    game = rolling_game(storage)
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, app, Launcher)
        await press(pilot, "f2")
        history = await wait_for(pilot, app, HistoryScreen)
        chain = {w.id for w in await every_control_in_view(pilot, app)}
        assert {"history-game", "history-player", "history-list", "history-delete", "history-back"} <= chain
        # Delete asks first; n answers no, and nothing is deleted.
        listing = history.query_one("#history-list", OptionList)
        await tab_to(pilot, app, listing)
        await press(pilot, "d")
        await wait_for(pilot, app, ConfirmDelete)
        await every_control_in_view(pilot, app)
        await press(pilot, "n")
        await wait_for(pilot, app, HistoryScreen)
        assert len(storage.history()) == 3
        # The Rolling Pins game, by the arrows and Enter: its replay.
        await press(pilot, "home")
        while history.highlighted_game().id != game.game_id:
            await press(pilot, "down")
        await past_guard(pilot, history)
        await press(pilot, "enter")
        replay = await wait_for(pilot, app, ReplayScreen)
        await every_control_in_view(pilot, app)
        last = len(replay.states) - 1
        decisions = [d for d in replay.decisions if d > 0]  # the first decision after the start
        for keys, where in (
            (("home",), 0),
            (("right",), 1),
            (("left",), 0),
            (("right_square_bracket",), replay.frames[1]),
            (("left_square_bracket",), 0),
            (("full_stop",), decisions[0]),
            (("full_stop", "comma"), decisions[0]),
            (("end",), last),
        ):
            await press(pilot, *keys)
            assert replay.at == where, (keys, size)
        await press(pilot, "home", "full_stop")  # at a decision: its hint, in view, hidden and shown with h
        box = replay.query_one("#replay-hint-box", VerticalScroll)
        await until(pilot, lambda: replay.at in replay.hints, "the hint")
        assert box.display and in_view(app, box)
        await press(pilot, "h")
        assert not box.display
        await press(pilot, "h")
        assert box.display
        await pilot.press("a")  # not `press`: its wait would last until the replay has played itself out
        assert replay.autoplay_timer is not None
        await pilot.press("a")  # stopped again before it ends
        assert replay.autoplay_timer is None
        await press(pilot, "escape")
        await wait_for(pilot, app, HistoryScreen)
        # Statistics: each control in view, the player chosen and the bots counted from the keyboard.
        await press(pilot, "f3")
        stats = await wait_for(pilot, app, StatsScreen)
        assert {"stats-game", "stats-player", "stats-bots", "stats-back"} <= {
            w.id for w in await every_control_in_view(pilot, app)
        }
        assert stats.game == "rolling-pins"  # the game highlighted in the history (it showed every game)
        await tab_to(pilot, app, stats.query_one("#stats-game"))
        await press(pilot, "enter")  # the list of games opens on the one chosen
        await press(pilot, "down", "enter")
        assert stats.game == "tenpins"
        await tab_to(pilot, app, stats.query_one("#stats-bots"))
        await press(pilot, "space")
        assert stats.bots
        await tab_to(pilot, app, stats.query_one("#stats-player"))
        await press(pilot, "enter")
        await press(pilot, "down", "enter")
        assert stats.player == "ann"
        await press(pilot, "escape")
        await wait_for(pilot, app, HistoryScreen)
        await press(pilot, "escape")
        await wait_for(pilot, app, Launcher)


@pytest.mark.parametrize("size", SIZES, ids=size_id)
async def test_learn_from_the_keyboard(size: tuple[int, int]) -> None:
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=size) as pilot:
        launcher = await wait_for(pilot, app, Launcher)
        await quiet(pilot)
        await press(pilot, "up")  # from Ten Pins to Rolling Pins: the game with the most to teach
        assert launcher.game_id == "rolling-pins"
        await press(pilot, "f4")
        screen = await wait_for(pilot, app, LearnScreen)
        await every_control_in_view(pilot, app)
        lesson = screen.query_one("#lesson", VerticalScroll)
        assert in_view(app, lesson)
        if lesson.max_scroll_y:  # a lesson longer than its panel: Tab reaches it, End shows its end
            await tab_to(pilot, app, lesson)
            await press(pilot, "end")
            assert lesson.scroll_offset.y == lesson.max_scroll_y
        actions = screen.query_one("#actions", OptionList)
        await tab_to(pilot, app, actions)
        for index in range(actions.option_count):  # each choice, by the arrows, in view
            top = actions.scroll_offset.y
            assert top <= actions._index_to_line[index] < top + actions.scrollable_content_region.height
            await press(pilot, "down")
        await press(pilot, "q")
        await wait_for(pilot, app, Launcher)
