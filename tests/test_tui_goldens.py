"""Golden screens of the full-screen terminal at the sizes people use, in English and Japanese.

For each of 60x20, 80x24, 120x40 and 200x60: the launcher (with a game to resume), every game
mid-game with its hint panel open (the games without decisions have no hints: their table and
roll), and the end of a game. The text of each screen is kept in `tests/golden/screens/`
(`UPDATE_GOLDEN=1` rewrites it after an intended change); the SVG goes to the artifacts folder
(`PINSETTER_ARTIFACTS`) to be looked at. Each screen is read only once it has settled (`quiet`).
Beside the text, each is checked for what must hold at every size: nothing wider than the
terminal, the footer's help and back keys, every hint line on the panel or reachable by scrolling.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from textual.containers import VerticalScroll
from textual.geometry import Region
from textual.widgets import Static

from pinsetter.records import PlayerSpec
from pinsetter.session import Match
from pinsetter.storage import Storage
from pinsetter.ui import tui_launcher
from pinsetter.ui.tui import PinsetterApp
from pinsetter.ui.tui_game import GameScreen
from test_tui import screen_text
from test_tui_sizes import open_game, seeded_match
from tui_support import SIZES, quiet, size_id, until

SCREENS = Path(__file__).parent / "golden" / "screens"
GAMES = ["bowling-dice", "bowling-solitaire", "rolling-pins", "tenpins"]


def check_screen(name: str, text: str, svg: str) -> None:
    """The screen's text against its golden file (UPDATE_GOLDEN=1 rewrites it); the SVG to the artifacts."""
    path = SCREENS / f"{name}.txt"
    artifacts = os.environ.get("PINSETTER_ARTIFACTS")
    if artifacts:
        folder = Path(artifacts) / "tui"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.svg").write_text(svg)
    if os.environ.get("UPDATE_GOLDEN"):
        SCREENS.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n")
    assert path.exists(), f"no golden screen {path} (UPDATE_GOLDEN=1 writes it)"
    assert text + "\n" == path.read_text(), f"screen differs from {path} (UPDATE_GOLDEN=1 to accept)"


def fits(text: str, width: int, height: int) -> None:
    lines = text.split("\n")
    assert len(lines) <= height and max(len(line) for line in lines) <= width, text


@pytest.mark.parametrize("size", SIZES, ids=size_id)
async def test_the_launcher(
    tmp_path: Path, language: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tui_launcher, "draw_seed", lambda: 4242)
    storage = Storage(f"sqlite:///{tmp_path / 'h.sqlite'}")
    unfinished = Match.new("rolling-pins", [PlayerSpec("ann"), PlayerSpec("bob")], seed=2)
    unfinished.storage = storage
    unfinished.store()
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: bool(app.screen.query("FooterKey")), "the footer's keys")
        text = screen_text(app)
        check_screen(f"launcher-{language}-{size_id(size)}", text, app.export_screenshot())
        fits(text, *size)
        assert "#1 " in text  # the game to resume, in view at every size


async def mid_game(app: PinsetterApp, pilot: Any, game: str) -> GameScreen:
    """The game at its test position with the hint panel open (where the game has decisions)."""
    screen = await open_game(app, pilot, seeded_match(game))
    if screen.match.game.has_decisions:
        await pilot.press("h")
        await until(pilot, lambda: screen.match.steps_done in screen.hints, "the hints")
    return screen


@pytest.mark.parametrize("size", SIZES, ids=size_id)
@pytest.mark.parametrize("game", GAMES)
async def test_each_game_mid_game_with_its_hints(language: str, game: str, size: tuple[int, int]) -> None:
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=size) as pilot:
        screen = await mid_game(app, pilot, game)
        text = screen_text(app)
        check_screen(f"{game}-{language}-{size_id(size)}", text, app.export_screenshot())
        fits(text, *size)
        footer = str(screen.query_one("Footer").render()) + text.split("\n")[-1]
        assert "?" in footer and " q " in footer + " "  # help and back keep their place at every width
        if not screen.match.game.has_decisions:
            return
        # Every hint line is on the panel, or the panel scrolls to it (Tab reaches it; End goes down). At 60x20
        # the actions keep their rows and the panel may be its rule and the best option's line.
        box = screen.query_one("#hint-box", VerticalScroll)
        assert box.region.height >= (2 if size == (60, 20) else 3)
        while app.focused is not box:
            await pilot.press("tab")
        await pilot.press("end")
        await quiet(pilot)
        hint = screen.query_one("#hint", Static)
        shown = [strip.text.rstrip() for strip in hint.render_lines(Region(0, 0, *hint.size))]
        last = [line for line in shown if line.strip()][-1]
        assert box.scroll_offset.y == box.max_scroll_y and last.strip() in screen_text(app)  # the panel's end


@pytest.mark.parametrize("size", SIZES, ids=size_id)
async def test_the_end_of_a_game(language: str, size: tuple[int, int]) -> None:
    match = seeded_match("rolling-pins")
    while not match.state.is_terminal():
        match.apply(match.draw_chance() if match.state.is_chance_node() else match.state.legal_actions()[0])
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=size) as pilot:
        screen = await open_game(app, pilot, match)
        text = screen_text(app)
        check_screen(f"end-{language}-{size_id(size)}", text, app.export_screenshot())
        fits(text, *size)
        offered = [str(option.prompt) for option in screen.query_one("#actions").options]  # type: ignore[attr-defined]
        assert len(offered) == 3  # play again, review, back
        footer = screen.query_one("Footer")
        keys = {active.binding.key for active in screen.active_bindings.values() if active.binding.show}
        assert {"r", "v", "q"} <= keys and not {"u", "h", "space"} & keys, keys
        assert footer.display


def test_the_docs_show_the_80x24_screen_as_it_is() -> None:
    """docs/tui.md's 80x24 example is the golden screen itself, so the docs show what a player sees now
    (it showed the list's old notation, "Cross out 5  cross 5", long after the list spoke words only)."""
    docs = (Path(__file__).parent.parent / "docs" / "tui.md").read_text()
    section = docs.split("### An advanced Rolling Pins game for two at 80x24", 1)[1]
    example = section.split("```\n", 2)[1]
    assert example == (SCREENS / "rolling-pins-en-80x24.txt").read_text()
