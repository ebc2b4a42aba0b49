"""The full-screen interface, driven by keys and clicks through Textual's headless pilot."""

from __future__ import annotations

import html
import os
import re
import time
from pathlib import Path

import pytest
from rich.cells import cell_len
from textual import events
from textual.widgets import Button, Input, OptionList, Static

from pinsetter.records import PlayerSpec
from pinsetter.session import Match
from pinsetter.storage import Storage
from pinsetter.ui import tui_common, tui_launcher
from pinsetter.ui.tui import PinsetterApp
from pinsetter.ui.tui_common import WrappedText
from pinsetter.ui.tui_game import GameScreen
from pinsetter.ui.tui_launcher import Launcher, ResumeConfirm
from tui_support import quiet, until

GOLDEN = Path(__file__).parent / "golden"
GAMES = ["bowling-dice", "bowling-solitaire", "rolling-pins", "tenpins"]  # the launcher's order
SIZE = (120, 40)  # the goldens of every game at this size; tests/test_tui_sizes.py holds 80x24 and 60x20


CELL = 12.2  # the SVG screenshot's width of one terminal cell


def screen_text(app: PinsetterApp) -> str:
    """The characters on screen, line by line, from Textual's SVG screenshot.

    Each text is placed at its terminal cell, a wide character (a kanji) taking two, as a terminal shows it.
    """
    svg = app.export_screenshot()
    rows: dict[float, list[tuple[float, str]]] = {}
    for m in re.finditer(r'<text([^>]*?)x="([\d.]+)"[^>]*?y="([\d.]+)"[^>]*>(.*?)</text>', svg, re.S):
        if "-title" in m.group(1):
            continue  # the SVG window's title, not the screen
        content = html.unescape(re.sub(r"<[^>]+>", "", m.group(4))).replace("\xa0", " ")
        rows.setdefault(float(m.group(3)), []).append((float(m.group(2)), content))
    lines = []
    for y in sorted(rows):
        line = ""
        for x, content in sorted(rows[y]):
            line += " " * max(0, round(x / CELL) - cell_len(line)) + content
        lines.append(line.rstrip())
    return "\n".join(lines)


async def type_into(pilot: object, selector: str, text: str) -> None:
    p = pilot  # the Textual pilot
    await p.click(selector)  # type: ignore[attr-defined]
    await p.press("end", *["backspace"] * 12, *list(text))  # type: ignore[attr-defined]


async def past_guard(pilot: object, screen: object) -> None:
    """Wait out the Enter guard of a screen just opened (an Enter right after it opens is ignored)."""
    left = getattr(screen, "opened_at", 0.0) + tui_common.ENTER_GUARD - time.monotonic()
    if left > 0:
        await pilot.pause(left + 0.02)  # type: ignore[attr-defined]


async def highlight_game(pilot: object, app: PinsetterApp, game: str) -> None:
    """Highlight a game in the launcher's list with the arrow keys (its options appear)."""
    app.screen.query_one("#games", OptionList).focus()
    while app.screen.game_id != game:  # type: ignore[attr-defined]
        await pilot.press("down")  # type: ignore[attr-defined]
    await quiet(pilot)


async def choose_game(pilot: object, app: PinsetterApp, game: str) -> None:
    """Highlight a game and press Enter to start it."""
    await highlight_game(pilot, app, game)
    app.screen.query_one("#games", OptionList).focus()
    await past_guard(pilot, app.screen)
    await pilot.press("enter")  # type: ignore[attr-defined]
    await quiet(pilot)


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

    def waiting_for_a_human() -> bool:
        state = screen.match.state
        if state.is_terminal() or screen.human_to_act():
            return True
        # a human's roll in a dice game waits for the space bar
        return state.is_chance_node() and not state.game.has_decisions and screen.match.players[state.turn()].is_human

    await until(pilot, waiting_for_a_human, "a human to act")


async def first_action(pilot: object, screen: GameScreen) -> None:
    """Wait for the automatic steps, then choose the first listed action with Enter.

    Nothing is pressed when those steps ended the game: an Enter then would reach the end screen
    once its guard is past (a loaded machine) and start a new game (issue 32: seen in a loaded run).
    """
    await settle(pilot, screen)
    if screen.match.state.is_terminal():
        return
    screen.query_one("#actions", OptionList).focus()
    await past_guard(pilot, screen)
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
        check_golden(f"{game}-120x40", screen_text(app), app.export_screenshot())
        screen = await finish(pilot, app)
        state = screen.match.state
        text = screen_text(app)
        assert "Game over" in text
        status = status_line(screen)
        assert status.split("\n")[1:] == screen.match.ending_lines()  # a line each, never run together
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
        await quiet(pilot)
        await pilot.press("down", "down", "enter")  # past "human" to the first bot (tenpins: random)
        await quiet(pilot)
        await pilot.click("#add-player")
        await type_into(pilot, "#player-name", "cy")
        await pilot.click("#add-player")
        launcher = app.screen
        assert isinstance(launcher, Launcher)
        seats = [(s.name, s.kind) for s in launcher.seats]
        assert seats == [("Player 1", "human"), ("robo", "random"), ("cy", "human")]
        launcher.query_one("#players").index = 2
        await pilot.click("#up-player")  # cy moves up to seat 2
        assert [s.name for s in launcher.seats] == ["Player 1", "cy", "robo"]
        launcher.query_one("#players").index = 0
        await pilot.click("#remove-player")  # "Player 1" leaves
        assert [s.name for s in launcher.seats] == ["cy", "robo"]
        await choose_game(pilot, app, "tenpins")
        screen = await finish(pilot, app)
        assert screen.match.state.num_players == len(launcher.seats)
        assert any(not p.is_human for p in screen.match.players)
        assert "Winner" in screen_text(app) or "Tie" in screen_text(app)


async def test_a_kind_chosen_just_after_add_is_the_added_seats(app: PinsetterApp) -> None:
    """Add, then a bot in the list next to the name: the seat just added (highlighted) becomes that bot,
    and its label says so; the first seat, and a seat added with a name, keep their kind."""
    async with app.run_test(size=SIZE) as pilot:
        launcher = app.screen
        assert isinstance(launcher, Launcher)
        await highlight_game(pilot, app, "rolling-pins")
        await pilot.click("#add-player")
        await quiet(pilot)
        assert "Player 2 (human)" in screen_text(app)
        await pilot.click("#player-kind")
        await quiet(pilot)
        await pilot.press("down", "down", "enter")  # past "human" to a bot
        await quiet(pilot)
        first, second = launcher.seats
        assert (first.name, first.kind) == ("Player 1", "human")
        assert second.kind != "human" and second.name.endswith("bot")
        text = screen_text(app)
        assert "Player 2 (human)" not in text and f"▶ {second.name}" in text
        assert f"Player 2 is now {second.name}" in text
        await type_into(pilot, "#player-name", "cy")
        await pilot.click("#player-kind")
        await quiet(pilot)
        await pilot.press("down", "enter")
        await quiet(pilot)
        assert launcher.seats[1] == second  # a name is being typed: the kind is for the next seat


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
        await quiet(pilot)
        table = " ".join(screen.query_one("#table").source.plain.split())  # type: ignore[attr-defined]
        assert "Picked pins 8 + 9 + 10: sum 27 · target" in table  # in words, as the web page says it
        await pilot.press("enter")
        await quiet(pilot)
        status = status_line(screen)
        refused = [line for line in status.splitlines() if "8, 9 and 10" in line]
        assert refused == ["! pins 8, 9 and 10: the pins sum to 27, the roll makes 3 to 5 with 1 token"]  # not "cross"
        assert screen.match.state.players[0].standing == 1023  # type: ignore[attr-defined]
        # Toggle them off and cross the rolled total with its own pin.
        await pilot.press("8", "9", "0", str(rolled % 10))
        await pilot.press("enter")
        assert not screen.match.state.players[0].standing & (1 << (rolled - 1))  # type: ignore[attr-defined]


async def test_resume_after_quitting(app: PinsetterApp, monkeypatch: pytest.MonkeyPatch) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await type_into(pilot, "#seed", "11")
        await choose_game(pilot, app, "rolling-pins")
        screen = app.screen
        assert isinstance(screen, GameScreen)
        for _ in range(6):
            await first_action(pilot, screen)
        steps = len(screen.match.record.steps)
        await pilot.press("q")
        await quiet(pilot)
        assert isinstance(app.screen, Launcher)
        resume = app.screen.query_one("#resume", OptionList)
        assert resume.option_count == 1
        resume.focus()
        await past_guard(pilot, app.screen)
        await pilot.press("enter")
        await quiet(pilot)
        confirm = app.screen
        assert isinstance(confirm, ResumeConfirm)
        # An Enter just after the question opens is taken for the one that opened it (a guard of
        # ENTER_GUARD seconds, lengthened here so that a loaded machine cannot outlast it).
        monkeypatch.setattr(tui_common, "ENTER_GUARD", 60.0)
        await pilot.press("enter")
        await quiet(pilot)
        assert app.screen is confirm
        confirm.opened_at -= 120.0  # the guard is over
        # The saved game is shown (each player's score and frame, the sheets) and resuming is asked for.
        assert tui_common.resume_summary(confirm.match.record) in screen_text(app)  # "you 4 in frame 2"
        assert "total" in screen_text(app)  # its sheet
        assert "Resume this game?" in screen_text(app) and "steps)" not in screen_text(app)
        await past_guard(pilot, confirm)
        await pilot.press("enter")
        await quiet(pilot)
        again = app.screen
        assert isinstance(again, GameScreen)
        assert len(again.match.record.steps) >= steps
        assert again.match.record.steps[:steps] == screen.match.record.steps[:steps]


async def wait_for_hint(pilot: object, screen: GameScreen) -> None:
    """Hints are worked out in a thread: wait until the panel has them."""
    await until(pilot, lambda: screen.match.steps_done in screen.hints, "the hints")


def status_line(screen: GameScreen) -> str:
    """The status as written (the widget shows it wrapped at its width)."""
    return screen.query_one("#status", WrappedText).source.plain


async def test_undo_hint_and_help(app: PinsetterApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await type_into(pilot, "#seed", "5")
        await choose_game(pilot, app, "rolling-pins")
        screen = app.screen
        assert isinstance(screen, GameScreen)
        screen.query_one("#actions", OptionList).focus()
        await settle(pilot, screen)
        await pilot.press("h")
        await wait_for_hint(pilot, screen)
        assert "expected final score" in screen_text(app)
        await pilot.press("enter")  # how many dice: then the dice are rolled and seen
        await settle(pilot, screen)
        rolled = len(screen.match.record.steps)
        await pilot.press("u")
        await quiet(pilot)
        assert len(screen.match.record.steps) == rolled and not screen.match.record.undo_used
        assert "rolled after your last decision" in status_line(screen)
        await first_action(pilot, screen)  # cross (or miss): the next decision follows with nothing revealed
        await settle(pilot, screen)
        decided = list(screen.match.record.steps)
        assert len(decided) == rolled + 1 and screen.human_to_act()
        await pilot.press("u")
        await quiet(pilot)  # the screen shows the undo once it has settled
        assert screen.match.record.steps == decided[:-1]
        assert screen.match.record.undo_used
        assert "undo: 1 step taken back" in screen_text(app)
        await pilot.press("question_mark")
        await quiet(pilot)
        assert "Rolling Pins" in screen_text(app)
        await pilot.press("escape")


@pytest.mark.parametrize("focus", ["#actions", "#hint-box", "#table-box"])
async def test_enter_plays_the_picked_pins_not_the_highlighted_action(focus: str) -> None:
    """Pins picked, the list's highlight moved to another action, the focus anywhere but the typing box:
    Enter crosses the picked pins."""
    match = Match.new("rolling-pins", [PlayerSpec("ann"), PlayerSpec("bob", "optimal")], seed=5, options={})
    while match.state.is_chance_node():
        match.apply(match.draw_chance())
    match.apply(match.state.game.parse_action("dice 1"))
    while match.state.is_chance_node():
        match.apply(match.draw_chance())
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = GameScreen(match, speed=0)
        app.push_screen(screen)
        await until(pilot, lambda: bool(screen.query("FooterKey")), "the footer's keys")
        await past_guard(pilot, screen)
        await pilot.press("h", "down", "down")  # the hints open; the list highlights its third action
        await quiet(pilot)
        actions = screen.query_one("#actions", OptionList)
        highlighted = actions.get_option_at_index(actions.highlighted or 0).id
        legal = [str(a) for a in match.state.legal_actions()]
        single = sorted(a for a in legal if a.startswith("cross ") and "+" not in a and a != highlighted)[0]
        pin = int(single.split()[1])
        screen.query_one(focus).focus()
        steps = len(match.record.steps)
        await pilot.press(str(pin % 10))
        await quiet(pilot)
        assert screen.selected == {pin}
        await pilot.press("enter")
        await quiet(pilot)
        assert match.record.steps[steps].text == single, (highlighted, single)


async def test_the_list_speaks_words_and_the_typing_box_says_what_to_type(app: PinsetterApp) -> None:
    """The actions list shows each action in words alone; with the focus, the empty typing box shows how
    the highlighted action is typed, and that line can be typed and played."""
    match = Match.new("rolling-pins", [PlayerSpec("ann")], seed=5, options={})
    while match.state.is_chance_node():
        match.apply(match.draw_chance())
    async with app.run_test(size=SIZE) as pilot:
        screen = GameScreen(match, speed=0)
        app.push_screen(screen)
        await until(pilot, lambda: bool(screen.query("FooterKey")), "the footer's keys")
        prompts = [str(o.prompt) for o in screen.query_one("#actions", OptionList).options]
        assert prompts == ["Roll one die", "Roll two dice"]  # not "Roll one die  dice 1"
        assert "dice 1" not in screen_text(app) and "or type an action (Tab)" in screen_text(app)
        await pilot.press("down", "tab")
        await quiet(pilot)
        assert screen.typing()
        assert "e.g. dice 2 (the highlighted action)" in screen_text(app)
        assert "dice 1" not in screen_text(app)
        await pilot.press(*"dice 2", "enter")
        await quiet(pilot)
        assert match.record.steps[0].text == "dice 2"


async def test_u_says_what_it_did_or_why_not_in_the_status_line(app: PinsetterApp) -> None:
    """The undo's words in the status line (the log may be hidden under the hints), and a reason where
    the footer offers no Undo: a game without decisions, a game over."""
    match = Match.new("rolling-pins", [PlayerSpec("ann")], seed=5, options={"frames": "1"})
    while match.state.is_chance_node():
        match.apply(match.draw_chance())
    async with app.run_test(size=(60, 20)) as pilot:
        screen = GameScreen(match, speed=0)
        app.push_screen(screen)
        await until(pilot, lambda: bool(screen.query("FooterKey")), "the footer's keys")
        await pilot.press("u")
        await quiet(pilot)
        assert status_line(screen).endswith("! cannot undo: there is no decision to take back")
        await first_action(pilot, screen)  # one die: then the roll, then a decision with nothing revealed after
        await settle(pilot, screen)
        await first_action(pilot, screen)
        await settle(pilot, screen)
        await pilot.press("h")
        await pilot.press("u")
        await quiet(pilot)
        assert "undo: 1 step taken back" in status_line(screen)
        assert "undo: 1 step taken back" in screen_text(app)  # at 60x20 under the hints: no log in sight
    dice = Match.new("tenpins", [PlayerSpec("ann")], seed=5)
    other = PinsetterApp(storage=None, speed=0)
    async with other.run_test(size=SIZE) as pilot:
        screen = GameScreen(dice, speed=0)
        other.push_screen(screen)
        await until(pilot, lambda: bool(screen.query("FooterKey")), "the footer's keys")
        await pilot.press("u")
        await quiet(pilot)
        assert "! cannot undo: there is no decision to take back" in status_line(screen)


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


async def test_each_game_from_the_launcher_gets_a_new_seed(app: PinsetterApp, monkeypatch: pytest.MonkeyPatch) -> None:
    seeds = iter(range(101, 1000, 101))
    monkeypatch.setattr(tui_launcher, "draw_seed", lambda: next(seeds))
    async with app.run_test(size=SIZE) as pilot:
        launcher = app.screen
        assert isinstance(launcher, Launcher)
        seed_field = launcher.query_one("#seed", Input)
        assert seed_field.value == "101"
        await type_into(pilot, "#seed", "7")  # a seed typed in plays that game once
        played = []
        for _ in range(2):
            await choose_game(pilot, app, "tenpins")
            screen = app.screen
            assert isinstance(screen, GameScreen)
            played.append(screen.match.seed)
            await pilot.press("q")
            await quiet(pilot)
        assert played == [7, 202]
        assert seed_field.value == "303"  # shown in advance, so that the next game can be noted or replayed


async def test_an_unopenable_history_warns_and_the_game_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("PINSETTER_DB", f"sqlite:///{tmp_path / 'file' / 'history.sqlite'}")
    app = PinsetterApp.open(speed=0)
    assert app.storage is None and "not kept in the history" in app.storage_warning
    async with app.run_test(size=SIZE) as pilot:
        assert "warning: games are not kept in the history" in screen_text(app)
        await type_into(pilot, "#opt-frames", "1")
        await choose_game(pilot, app, "tenpins")
        screen = await finish(pilot, app)
        assert "Game over" in screen_text(app)
        log = " ".join(line.plain for line in screen.log_lines)
        assert "warning: games are not kept in the history" in log  # in the game's log
        assert screen.match.storage is None
        await pilot.press("q")
        await quiet(pilot)
        assert isinstance(app.screen, Launcher)


HOSTILE = ["[/]", "[bold blink red]ann", "<script>alert(1)</script>"]


async def test_names_are_shown_as_written_everywhere(app: PinsetterApp) -> None:
    """Markup-looking names are text: in the launcher, the resume list, the sheets, the log, the end screen."""
    async with app.run_test(size=SIZE) as pilot:
        launcher = app.screen
        assert isinstance(launcher, Launcher)
        for name in HOSTILE:
            before = len(launcher.seats)
            launcher.query_one("#player-name", Input).value = name
            await quiet(pilot)
            launcher.query_one("#add-player", Button).press()  # a click can be lost on a loaded machine
            await until(pilot, lambda: len(launcher.seats) > before, "the seat added")  # noqa: B023
        assert [s.name for s in launcher.seats] == ["Player 1", *HOSTILE]
        await quiet(pilot)  # the seat list is drawn after the seats change
        text = screen_text(app)
        for name in HOSTILE:
            assert f"{name} (human)" in text
        await type_into(pilot, "#opt-frames", "1")
        await choose_game(pilot, app, "tenpins")
        screen = app.screen
        assert isinstance(screen, GameScreen)
        while screen.match.players[screen.match.state.turn()].name != HOSTILE[1]:
            await first_action(pilot, screen)
        await settle(pilot, screen)
        text = screen_text(app)
        lines = text.split("\n")
        for name in HOSTILE:
            assert any(line.startswith(f"{name} ") for line in lines)  # the seat's row of the sheet
        assert f"{HOSTILE[0]} rolls " in text  # the log
        assert f"{HOSTILE[1]} - frame 1" in text  # whose turn
        await pilot.press("q")
        await quiet(pilot)
        assert isinstance(app.screen, Launcher)
        assert "Ten Pins (dice), 1 frame - Player 1 " in screen_text(app)  # the game in words
        assert all(f"{name} " in screen_text(app) for name in HOSTILE)
        app.screen.query_one("#resume", OptionList).focus()
        await past_guard(pilot, app.screen)
        await pilot.press("enter")
        await quiet(pilot)
        assert isinstance(app.screen, ResumeConfirm)
        await pilot.click("#resume-yes")
        await quiet(pilot)
        screen = await finish(pilot, app)
        text = screen_text(app)
        scores = screen.match.state.scores()
        top = max(scores)
        leaders = [n for n, score in zip(["Player 1", *HOSTILE], scores, strict=True) if score == top]
        assert ", ".join(leaders) in text.replace("\n", "")  # the end screen names the winners as written


async def test_a_name_with_control_characters_is_refused_with_one_message(app: PinsetterApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        launcher = app.screen
        assert isinstance(launcher, Launcher)
        field = launcher.query_one("#player-name", Input)
        message = launcher.query_one("#launch-message", Static)
        for name in ("eve\x1b[2J", "eve\x1b]0;pwned\x07"):
            # Pasted (or typed) into the field: not entered, and said so.
            field.focus()
            field.post_message(events.Paste(name))
            await quiet(pilot)
            assert field.value == ""
            assert "cannot hold control characters" in message.render().plain  # type: ignore[union-attr]
            # Put there some other way, it is refused when the player is added.
            field.value = name
            await pilot.click("#add-player")
            assert [s.name for s in launcher.seats] == ["Player 1"]
            assert "contains the control character" in message.render().plain  # type: ignore[union-attr]
            assert "not added" in message.render().plain  # type: ignore[union-attr]
            assert field.value == ""
            assert "\x1b" not in screen_text(app)
        await type_into(pilot, "#player-name", "eve")
        await pilot.click("#add-player")
        assert [s.name for s in launcher.seats] == ["Player 1", "eve"]
        assert "control character" not in screen_text(app)


async def test_a_blank_name_is_refused_and_one_name_is_never_seated_twice(app: PinsetterApp) -> None:
    """docs/records.md, Names: the launcher applies the rules of names typed in, as the command line does."""
    async with app.run_test(size=SIZE) as pilot:
        launcher = app.screen
        assert isinstance(launcher, Launcher)
        field = launcher.query_one("#player-name", Input)
        message = launcher.query_one("#launch-message", Static)

        async def add(name: str) -> None:
            field.value = name
            await quiet(pilot)
            launcher.query_one("#add-player", Button).press()  # a click can be lost on a loaded machine
            await quiet(pilot)

        await add("\u3164")
        assert [s.name for s in launcher.seats] == ["Player 1"]
        assert "shows as a blank" in message.render().plain  # type: ignore[union-attr]
        await add("PLAYER 1\ufe0f")  # the same name as "Player 1", as names compare: refused, and said
        assert [s.name for s in launcher.seats] == ["Player 1"]
        assert "is playing already" in message.render().plain  # type: ignore[union-attr]


async def test_a_stored_game_the_records_now_refuse_does_not_break_the_launcher(tmp_path: Path) -> None:
    """A history written before names were checked may hold one with terminal escapes."""
    from pinsetter.records import PlayerSpec
    from pinsetter.session import Match
    from pinsetter.storage.db import games

    storage = Storage(f"sqlite:///{tmp_path / 'old.sqlite'}")
    match = Match.new("tenpins", [PlayerSpec("ann")], seed=3)
    match.storage = storage
    match.advance()
    kept = Match.new("tenpins", [PlayerSpec("bob")], seed=4)  # a readable unfinished game beside it
    kept.storage = storage
    kept.advance()
    with storage.engine.begin() as connection:
        record = connection.execute(games.select().where(games.c.id == match.game_id)).first()._mapping["record"]  # type: ignore[union-attr]
        connection.execute(
            games.update().where(games.c.id == match.game_id).values(record=record.replace('"ann"', '"\\u001b[2J"'))
        )
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, Launcher)
        text = screen_text(app)
        said = " ".join(app.screen.query_one("#resume-message", Static).render().plain.split())  # type: ignore[union-attr]
        assert "cannot resume from the history" in said and "control character" in said
        assert f"game #{match.game_id} skipped" in said
        assert "\x1b" not in text
        assert app.screen.query_one("#resume", OptionList).option_count == 1  # bob's game is still listed
        assert "bob " in text
        await choose_game(pilot, app, "tenpins")  # new games still play
        assert isinstance(app.screen, GameScreen)


async def test_the_launcher_keeps_seats_the_highlighted_game_can_play(app: PinsetterApp) -> None:
    """A bot another game does not have becomes that game's bot; a seat past the game's last is not added."""
    async with app.run_test(size=SIZE) as pilot:
        launcher = app.screen
        assert isinstance(launcher, Launcher)
        await highlight_game(pilot, app, "rolling-pins")
        launcher.seats.append(PlayerSpec("robo", "optimal"))
        await highlight_game(pilot, app, "bowling-dice")
        assert [(s.name, s.kind) for s in launcher.seats] == [("Player 1", "human"), ("robo", "random")]
        await highlight_game(pilot, app, "bowling-solitaire")
        launcher.action_play()  # two seats for a game of one: the game's name and what to do, not its id
        await quiet(pilot)
        assert "Bowling Solitaire takes 1 player: remove a player first" in screen_text(app)
        assert isinstance(app.screen, Launcher) and "bowling-solitaire" not in screen_text(app)
        launcher.seats[1:] = []
        launcher.query_one("#player-name", Input).value = "cy"
        launcher.query_one("#add-player", Button).press()
        await quiet(pilot)
        assert [s.name for s in launcher.seats] == ["Player 1"]
        assert "Bowling Solitaire takes 1 player" in screen_text(app)


async def test_a_bot_the_next_game_lacks_is_replaced_with_a_word(app: PinsetterApp) -> None:
    """Highlighting a game without a seat's bot seats the game's own bot and says so, in one line of words."""
    async with app.run_test(size=SIZE) as pilot:
        launcher = app.screen
        assert isinstance(launcher, Launcher)
        await highlight_game(pilot, app, "rolling-pins")
        launcher.seats.append(PlayerSpec("bob", "optimal"))
        launcher.seats.append(PlayerSpec("Greedy bot", "greedy"))  # named after its bot: renamed with it
        await highlight_game(pilot, app, "tenpins")
        said = str(launcher.query_one("#launch-message", Static).render())
        assert said == (
            "bob plays as the Rookie bot in Ten Pins (dice): it has no Optimal bot; "
            "Greedy bot is now Rookie bot: Ten Pins (dice) has no Greedy bot"
        )
        assert [(s.name, s.kind) for s in launcher.seats][1:] == [("bob", "random"), ("Rookie bot", "random")]
        assert "\n" not in said and "optimal" not in said  # one line, the bots by their names, never their ids


async def test_the_resume_list_says_not_begun_as_the_history_does(tmp_path: Path) -> None:
    """A game left before a pin fell reads "ann, bob (not begun)" in Resume and its question, as in History."""
    from pinsetter.ui.tui_history import history_label

    storage = Storage(f"sqlite:///{tmp_path / 'h.sqlite'}")
    match = Match.new("tenpins", [PlayerSpec("ann"), PlayerSpec("bob")], seed=4)
    match.storage = storage
    match.store()
    stored = storage.get(match.game_id or 0)
    assert stored is not None and stored.not_begun()
    history_words = history_label(stored).plain.rsplit(": ", 1)[1]
    assert history_words == "ann, bob (not begun)"
    app = PinsetterApp(storage=storage, speed=0)
    async with app.run_test(size=SIZE) as pilot:
        resume = app.screen.query_one("#resume", OptionList)
        label = str(resume.get_option_at_index(0).prompt)
        assert label.endswith(f" - {history_words}") and "in frame" not in label, label
        resume.focus()
        await past_guard(pilot, app.screen)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ResumeConfirm), "the question")
        assert history_words in screen_text(app) and "0 in frame 1" not in screen_text(app)


def test_a_stored_game_says_the_frame_each_player_plays_next(tmp_path: Path) -> None:
    """After five whole frames a player is in frame 6 (the summary said 5: frames begun, not the next)."""
    storage = Storage(f"sqlite:///{tmp_path / 'h.sqlite'}")
    match = Match.new("tenpins", [PlayerSpec("ann"), PlayerSpec("bob")], seed=7)
    match.storage = storage
    match.store()
    while match.state.turn() != 1 or match.state.ball_context(1).frame < 6:  # type: ignore[union-attr]
        match.advance()
    stored = storage.get(match.game_id)  # type: ignore[arg-type]
    assert stored is not None
    ann, bob = (match.state.ball_context(p) for p in (0, 1))
    assert ann is not None and bob is not None and (ann.frame, ann.ball, bob.frame, bob.ball) == (7, 1, 6, 1)
    summary = tui_common.resume_summary(stored.record)
    assert "ann" in summary and "in frame 7" in summary and summary.endswith("in frame 6")
