"""The game screen answers every key: the pace keys say the pace, an old refusal goes when the pick
changes, the dice say whose roll they show, the log shows its newest line after an undo, and Enter
back in the launcher never presses the control used last."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import OptionList

from pinsetter.records import PlayerSpec
from pinsetter.session import Match
from pinsetter.storage import Storage
from pinsetter.ui.tui import PinsetterApp
from pinsetter.ui.tui_game import GameScreen
from pinsetter.ui.tui_launcher import Launcher
from test_tui import past_guard, screen_text, status_line
from test_tui_sizes import open_game, seeded_match
from tui_support import quiet, until


async def test_the_pace_keys_say_the_pace() -> None:
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, seeded_match("rolling-pins"))
        await pilot.press("right_square_bracket")
        await quiet(pilot)
        assert "pace: automatic steps at once (the fastest)" in status_line(screen)
        await pilot.press("left_square_bracket", "left_square_bracket")
        await quiet(pilot)
        assert "pace: 0.4 s between automatic steps" in status_line(screen)


async def test_a_refusal_goes_when_the_pick_changes() -> None:
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, seeded_match("rolling-pins"))
        await past_guard(pilot, screen)
        await pilot.press("8", "9", "enter")
        await quiet(pilot)
        assert "! pins 8 and 9" in status_line(screen)
        await pilot.press("9")
        await quiet(pilot)
        assert "!" not in status_line(screen)
        await pilot.press("9", "enter")  # refused again; then another action highlighted
        await quiet(pilot)
        assert "! " in status_line(screen)
        await pilot.press("down")
        await quiet(pilot)
        assert "!" not in status_line(screen)


async def test_keys_typed_back_to_back_are_handled_in_the_order_typed() -> None:
    """Pins picked and Enter arriving in one burst (a fast typist, a paste): Enter plays the whole pick.

    Enter is bound with priority (the guard), so it is handled as it arrives; the pin keys were
    handled only after passing the focused list, and an Enter close behind them played (or was
    refused for) the pick as it stood before them (found by a newcomer's walkthrough in tmux).
    """
    from textual import events

    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, seeded_match("rolling-pins"))
        await past_guard(pilot, screen)
        driver = app._driver
        assert driver is not None
        for key, char in (("8", "8"), ("9", "9"), ("enter", "\r")):
            driver.send_message(events.Key(key, char))  # as the terminal's reader sends them: no wait between
        await quiet(pilot)
        assert "! pins 8 and 9" in status_line(screen)
        assert screen.selected == {8, 9}


async def test_the_dice_say_whose_roll_they_show() -> None:
    """Ten Pins for two: after ann's roll, bob is up and the table shows ann's dice, saying so."""
    match = Match.new("tenpins", [PlayerSpec("ann"), PlayerSpec("bob")], seed=7)
    while match.state.turn() == 0 or not match.state.is_chance_node() or not match.record.steps:
        match.apply(match.draw_chance())
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(app, pilot, match)
        text = screen_text(app)
        assert "▶ bob" in text and "last roll (ann):" in text


async def test_after_an_undo_the_log_shows_its_newest_line_at_80x24() -> None:
    match = Match.new("rolling-pins", [PlayerSpec("ann")], seed=5)
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, match)
        for _ in range(12):  # a few decisions, so that the log is longer than its box
            await until(pilot, screen.human_to_act, "a decision")
            await past_guard(pilot, screen)
            screen.query_one("#actions", OptionList).focus()
            await pilot.press("enter")
        await until(pilot, screen.human_to_act, "a decision")
        await pilot.press("u")
        await quiet(pilot)
        newest = screen.log_lines[-1].plain
        assert newest.startswith(("undo:", "refused", "cannot")) or "cannot undo" in status_line(screen)
        lines = screen_text(app).split("\n")
        assert any(newest[:30] in line for line in lines[-4:]), lines[-6:]  # the newest line, at the log's end


async def test_enter_back_in_the_launcher_never_presses_the_control_used_last(tmp_path: Path) -> None:
    app = PinsetterApp(storage=Storage(f"sqlite:///{tmp_path / 'l.sqlite'}"), speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        launcher = app.screen
        assert isinstance(launcher, Launcher)
        await pilot.click("#add-player")  # the control used last: it adds a seat
        await quiet(pilot)
        seats = len(launcher.seats)
        await pilot.press("ctrl+r")
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, Launcher), "the launcher")
        await past_guard(pilot, launcher)
        assert app.focused is launcher.query_one("#games")
        await pilot.press("enter")  # starts the highlighted game again: no seat added
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game again")
        assert len(launcher.seats) == seats


async def test_the_pace_note_goes_when_the_game_ends() -> None:
    """The pace is a word about the automatic steps: once the last step is played there are none, and the
    status line says the end alone (it kept "pace: ..." under the winner)."""
    played = Match.new("tenpins", [PlayerSpec("ann")], seed=7)
    while not played.state.is_terminal():
        played.apply(played.draw_chance())
    match = Match.new("tenpins", [PlayerSpec("ann")], seed=7)
    for step in played.record.steps[:-1]:  # up to ann's last roll, which waits for the space bar
        match.apply(match.state.game.parse_outcome(step.text))
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, match)
        await pilot.press("right_square_bracket")
        await quiet(pilot)
        assert "pace: automatic steps at once" in status_line(screen)
        await pilot.press("space")
        await until(pilot, match.state.is_terminal, "the end of the game")
        assert "Game over." in status_line(screen) and "pace" not in status_line(screen)
