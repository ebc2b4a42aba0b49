"""The full-screen interface, driven by keys and clicks through Textual's headless pilot."""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import pytest
from textual.widgets import OptionList, Static

from pinsetter.storage import Storage
from pinsetter.ui.tui import GameScreen, Launcher, PinsetterApp

GOLDEN = Path(__file__).parent / "golden"
GAMES = ["bowling-dice", "bowling-solitaire", "rolling-pins", "tenpins"]  # the launcher's order
SIZE = (150, 46)


def screen_text(app: PinsetterApp) -> str:
    """The characters on screen, line by line, from Textual's SVG screenshot."""
    svg = app.export_screenshot()
    rows: dict[float, list[tuple[float, str]]] = {}
    for m in re.finditer(r'<text[^>]*?x="([\d.]+)"[^>]*?y="([\d.]+)"[^>]*>(.*?)</text>', svg, re.S):
        content = html.unescape(re.sub(r"<[^>]+>", "", m.group(3))).replace("\xa0", " ")
        rows.setdefault(float(m.group(2)), []).append((float(m.group(1)), content))
    lines = []
    for y in sorted(rows):
        line = ""
        for x, content in sorted(rows[y]):
            line = line.ljust(round(x / 12.2)) + content
        lines.append(line.rstrip())
    return "\n".join(lines)


async def type_into(pilot: object, selector: str, text: str) -> None:
    p = pilot  # the Textual pilot
    await p.click(selector)  # type: ignore[attr-defined]
    await p.press("end", *["backspace"] * 12, *list(text))  # type: ignore[attr-defined]


async def highlight_game(pilot: object, app: PinsetterApp, game: str) -> None:
    """Highlight a game in the launcher's list with the arrow keys (its options appear)."""
    app.screen.query_one("#games", OptionList).focus()
    while app.screen.game_id != game:  # type: ignore[attr-defined]
        await pilot.press("down")  # type: ignore[attr-defined]
    await pilot.pause(0.05)  # type: ignore[attr-defined]


async def choose_game(pilot: object, app: PinsetterApp, game: str) -> None:
    """Highlight a game and press Enter to start it."""
    await highlight_game(pilot, app, game)
    app.screen.query_one("#games", OptionList).focus()
    await pilot.press("enter")  # type: ignore[attr-defined]
    await pilot.pause(0.1)  # type: ignore[attr-defined]


async def finish(pilot: object, app: PinsetterApp, limit: int = 3000) -> GameScreen:
    """Keep choosing the first listed action (or rolling) until the game is over."""
    screen = app.screen
    assert isinstance(screen, GameScreen)
    for _ in range(limit):
        if screen.match.state.is_terminal():
            break
        await first_action(pilot, screen)
    await settle(pilot, screen)
    assert screen.match.state.is_terminal()
    return screen


async def settle(pilot: object, screen: GameScreen) -> None:
    """Wait until the automatic steps are done: a human must act, or the game is over."""
    for _ in range(400):
        state = screen.match.state
        if state.is_terminal() or screen.human_to_act():
            break
        if state.is_chance_node() and not state.game.has_decisions and screen.match.players[state.turn()].is_human:
            break  # a human's roll in a dice game waits for the space bar
        await pilot.pause(0.02)  # type: ignore[attr-defined]
    await pilot.pause(0.05)  # type: ignore[attr-defined]


async def first_action(pilot: object, screen: GameScreen) -> None:
    """Wait for the automatic steps, then choose the first listed action with Enter."""
    await settle(pilot, screen)
    screen.query_one("#actions", OptionList).focus()
    await pilot.press("enter")  # type: ignore[attr-defined]


def check_golden(name: str, text: str, svg: str) -> None:
    """Compare the screen's text with the golden file; UPDATE_GOLDEN=1 rewrites it and its SVG."""
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text + "\n")
        (GOLDEN / f"{name}.svg").write_text(svg)
    assert text + "\n" == path.read_text(), f"screen differs from {path} (UPDATE_GOLDEN=1 to accept)"


@pytest.fixture
def app(tmp_path: Path) -> PinsetterApp:
    return PinsetterApp(storage=Storage(f"sqlite:///{tmp_path / 'tui.sqlite'}"), speed=0)


@pytest.mark.parametrize("game", GAMES)
async def test_play_every_game_from_the_launcher(app: PinsetterApp, game: str) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await type_into(pilot, "#seed", "7")
        await choose_game(pilot, app, game)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await settle(pilot, screen)
        check_golden(game, screen_text(app), app.export_screenshot())
        screen = await finish(pilot, app)
        state = screen.match.state
        text = screen_text(app)
        assert "Game over" in text
        total = state.scores()[0]
        assert f"{total:>6} " in text  # the sheet's total box
        for frame in state.scoresheet(0).frames[:9]:
            assert frame.total is not None and str(frame.total) in text
        stored = app.storage.history()
        assert stored and stored[0].finished


async def test_humans_and_bots_mixed(app: PinsetterApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await type_into(pilot, "#player-name", "robo")
        await pilot.click("#player-kind")
        await pilot.pause(0.1)
        await pilot.press("down", "down", "enter")  # past "human" to the first bot (tenpins: random)
        await pilot.pause(0.1)
        await pilot.click("#add-player")
        await type_into(pilot, "#player-name", "cy")
        await pilot.click("#add-player")
        launcher = app.screen
        assert isinstance(launcher, Launcher)
        assert [(s.name, s.kind) for s in launcher.seats] == [("you", "human"), ("robo", "random"), ("cy", "human")]
        launcher.query_one("#players").index = 2
        await pilot.click("#up-player")  # cy moves up to seat 2
        assert [s.name for s in launcher.seats] == ["you", "cy", "robo"]
        launcher.query_one("#players").index = 0
        await pilot.click("#remove-player")  # "you" leaves
        assert [s.name for s in launcher.seats] == ["cy", "robo"]
        await choose_game(pilot, app, "tenpins")
        screen = await finish(pilot, app)
        assert screen.match.state.num_players == len(launcher.seats)
        assert any(not p.is_human for p in screen.match.players)
        assert "Winner" in screen_text(app) or "Tie" in screen_text(app)


async def test_rolling_pins_pins_by_keys_and_a_refused_set(app: PinsetterApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await type_into(pilot, "#seed", "3")
        await choose_game(pilot, app, "rolling-pins")
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await first_action(pilot, screen)  # dice 1
        await settle(pilot, screen)
        state = screen.match.state
        rolled = sum(state.players[0].dice)  # type: ignore[attr-defined]
        # Select pins that sum to far more than any token can reach, then try to cross them.
        await pilot.press("8", "9", "0")
        assert "selected 8+9+10 = 27" in screen_text(app)
        await pilot.press("enter")
        assert "not legal" in screen.query_one("#status", Static).render().plain  # type: ignore[union-attr]
        assert screen.match.state.players[0].standing == 1023  # type: ignore[attr-defined]
        # Toggle them off and cross the rolled total with its own pin.
        await pilot.press("8", "9", "0", str(rolled % 10))
        await pilot.press("enter")
        assert not screen.match.state.players[0].standing & (1 << (rolled - 1))  # type: ignore[attr-defined]


async def test_resume_after_quitting(app: PinsetterApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await type_into(pilot, "#seed", "11")
        await choose_game(pilot, app, "rolling-pins")
        screen = app.screen
        assert isinstance(screen, GameScreen)
        for _ in range(6):
            await first_action(pilot, screen)
        steps = len(screen.match.record.steps)
        await pilot.press("q")
        await pilot.pause(0.1)
        assert isinstance(app.screen, Launcher)
        resume = app.screen.query_one("#resume", OptionList)
        assert resume.option_count == 1
        resume.focus()
        await pilot.press("enter")
        await pilot.pause(0.2)
        again = app.screen
        assert isinstance(again, GameScreen)
        assert len(again.match.record.steps) >= steps
        assert again.match.record.steps[:steps] == screen.match.record.steps[:steps]


async def test_undo_hint_and_help(app: PinsetterApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await type_into(pilot, "#seed", "5")
        await choose_game(pilot, app, "rolling-pins")
        screen = app.screen
        assert isinstance(screen, GameScreen)
        screen.query_one("#actions", OptionList).focus()
        await settle(pilot, screen)
        await pilot.press("h")
        assert "expected final score" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot, screen)
        before = len(screen.match.record.steps)
        await pilot.press("u")
        assert len(screen.match.record.steps) < before
        assert screen.match.record.undo_used
        await pilot.press("question_mark")
        await pilot.pause(0.1)
        assert "Rolling Pins" in screen_text(app)
        await pilot.press("escape")


async def test_options_have_their_own_widgets_and_bad_values_are_shown(app: PinsetterApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await type_into(pilot, "#opt-frames", "0")
        await choose_game(pilot, app, "tenpins")
        assert isinstance(app.screen, Launcher)
        assert "option frames" in screen_text(app)
        await highlight_game(pilot, app, "rolling-pins")
        await pilot.click("#opt-advanced")  # a switch
        await type_into(pilot, "#opt-frames", "2")
        await choose_game(pilot, app, "rolling-pins")
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.match.game.options["advanced"] is True
        assert screen.match.game.lane.frames == 2


async def test_undo_is_off_with_others_by_default(app: PinsetterApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        launcher = app.screen
        assert isinstance(launcher, Launcher)
        await type_into(pilot, "#player-name", "cy")
        await pilot.click("#add-player")
        await choose_game(pilot, app, "rolling-pins")
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await first_action(pilot, screen)
        await settle(pilot, screen)
        steps = len(screen.match.record.steps)
        await pilot.press("u")
        assert len(screen.match.record.steps) == steps and not screen.match.record.undo_used
        assert "undo is off" in screen_text(app)
