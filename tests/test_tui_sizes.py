"""The full-screen interface at the sizes people use: 80x24 and below, and without colour.

Games are set up through `Match` and shown with `GameScreen` directly (the launcher is
covered in test_tui.py), so that each screen is a known position of a seeded game.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, OptionList
from textual.widgets._footer import FooterKey

from pinsetter.records import PlayerSpec
from pinsetter.session import Match
from pinsetter.storage import Storage
from pinsetter.ui import tui, tui_common, tui_game
from pinsetter.ui.tui import PinsetterApp
from pinsetter.ui.tui_game import GameScreen
from pinsetter.ui.tui_launcher import Launcher
from test_tui import screen_text, status_line
from tui_support import quiet, until

# (game, options, players, steps played first): a position where the player has a decision or a roll.
POSITIONS: dict[str, tuple[dict[str, object], list[str], int]] = {
    "tenpins": ({}, ["ann", "bob"], 6),
    "bowling-dice": ({}, ["ann"], 3),
    "rolling-pins": ({"advanced": "true"}, ["ann", "bob"], 40),
    "bowling-solitaire": ({}, ["ann"], 14),
}


def seeded_match(game: str, seed: int = 7) -> Match:
    """The game at its test position: every decision so far is the first legal one."""
    options, names, steps = POSITIONS[game]
    match = Match.new(game, [PlayerSpec(n) for n in names], seed=seed, options=options)
    for _ in range(steps):
        match.apply(match.draw_chance() if match.state.is_chance_node() else match.state.legal_actions()[0])
    return match


async def open_game(app: PinsetterApp, pilot: Any, match: Match) -> GameScreen:
    screen = GameScreen(match, speed=0)
    app.push_screen(screen)
    # The footer lists the keys once the focus has settled; the log scrolls to its end after a refresh.
    await until(pilot, lambda: bool(screen.query("FooterKey")), "the footer's keys")
    return screen


@pytest.mark.parametrize("game", sorted(POSITIONS))
async def test_every_game_at_80x24(game: str) -> None:
    """The sheet, the table, the status, the actions, the typing box and the log all show at 80x24."""
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, seeded_match(game))
        text = screen_text(app)  # its golden screen: tests/test_tui_goldens.py
        lines = text.split("\n")
        assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
        assert "total" in lines[0]  # the sheet's header, at the top
        assert "or type an action" in text  # the typing box
        actions = screen.query_one("#actions", OptionList)
        assert actions.region.height >= min(actions.option_count, 3)
        assert "frame" in text and "Back" in text and "Help" in text


async def test_advanced_rolling_pins_names_every_ability() -> None:
    """The track as on paper (areas numbered as `mark N`), and `mark N` choices naming the ability."""
    app = PinsetterApp(storage=None, speed=0)
    match = seeded_match("rolling-pins")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, match)
        text = screen_text(app)
        for title in ("1 Reroll", "2 Flip", "3 Extra Pin", "4 Extra Dice", "5 Ten Pin", "10 Auto Strike"):
            assert title in text
        assert "upper: open" in text and "lower: closed" in text
        assert "◆" in text  # grey pins by a symbol, not only by colour
        await pilot.press("a")
        await quiet(pilot)
        assert "Flip: turn one die" in screen.query_one("#table").source.plain  # type: ignore[attr-defined]
        labels = [str(o.prompt) for o in screen.query_one("#actions", OptionList).options]
        actions = [str(a) for a in match.state.legal_actions()]
        # Each choice in words alone (`Cross out 5`), never its typed form (`cross 5`).
        said = {c.action: c.label for c in match.game.table(match.state, ["ann", "bob"]).choices}
        assert labels and all(
            label == (said.get(action) or match.game.action_words(match.state, action)) and action not in label
            for label, action in zip(labels, actions, strict=True)
        )
    # A box to mark: every choice names its ability and its row (played on to the first such choice).
    marks: list[str] = []
    while not marks and not match.state.is_terminal():
        view = match.game.table(match.state, ["ann", "bob"])
        marks = [c.label for c in view.choices if c.action.startswith("mark")]
        match.apply(match.draw_chance() if match.state.is_chance_node() else match.state.legal_actions()[0])
    assert marks and all(m.startswith("Mark a box: ") and m.endswith((", upper row", ", lower row")) for m in marks)


async def test_below_80x24_the_screen_degrades_without_garbage() -> None:
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(60, 20)) as pilot:
        await open_game(app, pilot, seeded_match("rolling-pins"))
        text = screen_text(app)  # its golden screen: tests/test_tui_goldens.py
        lines = text.split("\n")
        assert max(len(line) for line in lines) <= 60
        assert lines[0].rstrip().endswith("total")  # the compact sheet in one piece: no wrapped rows
        # Below 22 rows the sheet loses its rules (two lines a player); it and every choice stay in view.
        assert lines[1].startswith("ann ▶  │") and lines[3].startswith("bob    │") and "┌" not in text
        assert "Cross out 5" in text and "Miss (end the ball)" in text and "or type an action" in text
        assert "cross 5" not in text  # the list in words: the typed form is said where the player types


async def test_the_log_keeps_its_newest_lines_and_every_character_after_a_resize() -> None:
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_game(app, pilot, seeded_match("tenpins"))
        long = "word " * 30 + "THE-END"
        for number in range(60):
            screen.log_line(f"line {number}")
        screen.log_line(long)
        await pilot.resize_terminal(80, 24)
        await quiet(pilot)
        text = screen_text(app)
        assert "THE-END" in text and "line 0\n" not in text
        flat = " ".join(screen.query_one("#log-text").render().plain.split())  # type: ignore[attr-defined]
        assert long.strip() in flat  # wrapped, not cut


async def test_solitaire_keys_selection_pile_and_cards_seen() -> None:
    app = PinsetterApp(storage=None, speed=0)
    match = seeded_match("bowling-solitaire")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, match)
        text = screen_text(app)
        # The key before each card in brackets, said in words (no `key:card` notation); the cards not seen yet.
        triangle = screen.query_one("#table").source.plain.split("\n")[:4]  # type: ignore[attr-defined]
        assert "The number before a [card] is its key." in text and not any(":" in row for row in triangle)
        assert triangle[0].startswith("7 [10]  8 [10]")  # key 7, a 10: apart without colour
        assert "seen this frame:" in text and "not seen yet: 1 1 2 5 8 9" in text
        view = screen.table_view()
        choice = next(c for c in view.choices if c.by_selection)
        assert choice.pile is not None
        while screen.pile != choice.pile:
            await pilot.press("p")
        for pin in choice.pins:
            await pilot.press(str(pin % 10))
        values = [view.pin(p).value for p in choice.pins]  # type: ignore[union-attr]
        total = sum(v or 0 for v in values)
        await quiet(pilot)
        table = " ".join(screen.query_one("#table").source.plain.split())  # type: ignore[attr-defined]
        cards = " + ".join(f"{view.pin(p).label} (pin {p})" for p in choice.pins)  # type: ignore[union-attr]
        assert f"Picked {cards}: sum {total}, last digit {total % 10} · target {total % 10}" in table
        steps = match.steps_done
        await pilot.press("enter")
        await quiet(pilot)
        assert match.record.steps[steps].text == choice.action
        if any(p.number == choice.pile and p.top for p in screen.table_view().piles):
            assert screen.pile == choice.pile  # the chosen pile stays chosen
            assert f"▶pile {choice.pile}" in screen_text(app)


async def test_the_first_hint_says_it_is_thinking(monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()

    def slow(state: Any) -> Any:
        release.wait(10)
        return ("bot", "expected final score if you play on optimally", [("stop", 1.5)])

    monkeypatch.setattr(tui_game, "option_values", slow)
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, seeded_match("bowling-solitaire"))
        await pilot.press("h")
        await quiet(pilot, workers=False)  # the worker waits for `release`
        assert "thinking" in screen_text(app)
        release.set()
        await until(pilot, lambda: screen.match.steps_done in screen.hints, "the hints")
        assert "Stop this ball: 1.5 (best)" in screen_text(app) and "thinking" not in screen_text(app)


async def test_a_forty_character_name_is_cut_so_the_sheet_keeps_its_lines_at_80x24() -> None:
    long = "Maximilian Alexander Featherstonehaugh-X"
    assert len(long) == 40  # the longest name there is
    match = Match.new("tenpins", [PlayerSpec(long), PlayerSpec("bob")], seed=7)
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(app, pilot, match)
        lines = screen_text(app).split("\n")
        assert lines[0].rstrip().endswith("total")  # the header in one piece
        assert lines[2].startswith("Maximilian Alexander") and "… ▶ │" in lines[2]  # cut, marked, one line
        assert lines[3].lstrip().startswith("│") and lines[5].startswith("bob")  # no row wrapped


async def test_hints_show_at_80x24_however_many_actions_there_are(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hint panel takes the log's room at 80x24 (it comes back when the panel closes) and the actions give
    it some: the best options are on screen, the others a scroll away."""
    values = [(f"option-{n}", 150.0 - n) for n in range(30)]
    monkeypatch.setattr(tui_game, "option_values", lambda state: ("optimal", "expected final score", values))
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        match = Match.new("rolling-pins", [PlayerSpec("ann"), PlayerSpec("bob")], seed=7, options={"advanced": "true"})
        while match.state.is_chance_node() or len(match.state.legal_actions()) <= 8:
            match.apply(match.draw_chance() if match.state.is_chance_node() else match.state.legal_actions()[0])
        screen = await open_game(app, pilot, match)
        assert len(screen.query_one("#actions", OptionList).options) > 8  # more than the list shows at once
        await pilot.press("h")
        await until(pilot, lambda: screen.match.steps_done in screen.hints, "the hints")
        text = screen_text(app)
        assert "Option-0: estimated final score" in text and "150.0 (best)" in text and "Option-1:" in text, text
        assert screen.hints[screen.match.steps_done].plain.count("Option-") == 30  # every option, not a dozen
        await pilot.press("h")  # hidden again
        await quiet(pilot)
        assert "150.0" not in screen_text(app) and not screen.query_one("#hint-box").display
        assert screen.query_one("#log").size.height >= 2  # the newest log lines in view again


async def test_the_typing_box_takes_the_line_games_words_and_escape_leaves_it() -> None:
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, seeded_match("rolling-pins"))
        box = screen.query_one("#command", Input)
        box.focus()
        await pilot.press(*"rules", "enter")
        await quiet(pilot)
        assert "Rolling Pins" in screen_text(app) and not isinstance(app.screen, GameScreen)
        await pilot.press("escape")
        await quiet(pilot)
        box.focus()
        await pilot.press(*"undo", "enter")
        await quiet(pilot)
        assert "cannot undo" in screen_text(app) or screen.match.record.undo_used
        await pilot.press("escape")
        assert isinstance(screen.focused, OptionList)
        box.focus()
        await pilot.press(*"quit", "enter")
        await quiet(pilot)
        assert isinstance(app.screen, Launcher)


async def test_a_resumed_game_shows_its_log_so_far() -> None:
    match = seeded_match("rolling-pins")
    resumed = Match.resume(match.record)
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_game(app, pilot, resumed)
        log = screen.query_one("#log-text").render().plain  # type: ignore[attr-defined]
        assert "resumed" in log and "ann takes one die" in log and "ann rolls " in log


async def test_without_colour_every_state_has_a_symbol(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = PinsetterApp(storage=None, speed=0)
    assert app.no_color
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(app, pilot, seeded_match("rolling-pins"))
        await pilot.press("1")
        await quiet(pilot)
        text = screen_text(app)
        assert "ann ▶" in text and "▶ ann" in text  # the player up, on the sheet and in the status
        assert "◆" in text and "x down" in text
        assert "✓" in text or "not" in text  # a picked pin (or the reason it cannot be picked)
        await pilot.press("ctrl+t")
        assert app.theme == tui.HIGH_CONTRAST.name


async def test_the_launcher_fits_80x24(tmp_path: Path) -> None:
    app = PinsetterApp(storage=Storage(f"sqlite:///{tmp_path / 'h.sqlite'}"), speed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        text = screen_text(app)
        assert "Seed" in text and "Undo" in text and "Play" in text
        launcher = app.screen
        assert isinstance(launcher, Launcher)
        await pilot.click("#games", offset=(4, 5))  # one click selects a game, and does not start it
        await quiet(pilot)
        assert isinstance(app.screen, Launcher)
        await pilot.click("#play")
        await quiet(pilot)
        assert isinstance(app.screen, GameScreen)


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (200, 60)], ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("game", ["rolling-pins", "bowling-solitaire"])
async def test_with_the_hints_open_the_rack_and_the_dice_stay_in_view(game: str, size: tuple[int, int]) -> None:
    """The hint panel takes the room left (and scrolls): the pins and the dice, or the piles, stay on screen."""
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=size) as pilot:
        screen = await open_game(app, pilot, seeded_match(game))
        await pilot.press("h")
        await until(pilot, lambda: screen.match.steps_done in screen.hints, "the hints")
        text = screen_text(app)
        view = screen.table_view()
        standing = [p.label for p in view.pins if not p.down]
        rack = [line for line in text.split("\n") if sum(f" {n} " in f" {line} " for n in standing) >= 2]
        assert rack, text  # the pins' rows
        if view.dice:
            assert "dice: " in text
        else:
            assert all(f"pile {pile.number}: " in text for pile in view.piles if pile.top is not None), text
        # And the hints beside or under them: at 60x20 the best option's line at least, the actions keeping theirs.
        assert screen.query_one("#hint-box").region.height >= (2 if size == (60, 20) else 3)
        assert "best)" in text


def footer_text(screen: GameScreen) -> str:
    """The footer's keys as shown, in order: `? Help  q Back ...`."""
    return "  ".join(f"{key.key_display} {key.description}" for key in screen.query("FooterKey").results(FooterKey))


async def test_the_footer_offers_c_all_game_long_where_chances_are_offered() -> None:
    """Basic Rolling Pins with others: c in the footer at the player's decisions and between them (a bot's
    turn, a roll); not in the advanced game, not once the game is over."""
    match = Match.new(
        "rolling-pins", [PlayerSpec("ann"), PlayerSpec("bob", "optimal")], seed=5, options={"frames": "1"}
    )
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = GameScreen(match, speed=0)
        screen.schedule = lambda: None  # type: ignore[method-assign]  # each step is played here, and looked at
        app.push_screen(screen)
        await until(pilot, lambda: bool(screen.query("FooterKey")), "the footer's keys")
        seen = {"decision": False, "between": False}
        while not match.state.is_terminal():
            await quiet(pilot)
            seen["decision" if screen.human_to_act() else "between"] = True
            assert "c Chances" in footer_text(screen).split("u Undo")[0]  # before Undo, after Hint
            assert footer_text(screen).index("h Hint") < footer_text(screen).index("c Chances")
            match.apply(match.draw_chance() if match.state.is_chance_node() else match.state.legal_actions()[0])
            screen.refresh_all()
        await quiet(pilot)
        assert seen == {"decision": True, "between": True}
        assert "Chances" not in footer_text(screen)
    advanced = PinsetterApp(storage=None, speed=0)
    async with advanced.run_test(size=(120, 40)) as pilot:
        screen = await open_game(advanced, pilot, seeded_match("rolling-pins"))
        assert "h Hint" in footer_text(screen) and "Chances" not in footer_text(screen)


async def test_the_hint_panel_gives_its_room_back_when_the_game_is_over() -> None:
    """Hints open as the game ends: nothing is left to hint, so the panel goes and the end's actions show at 60x20."""
    match = seeded_match("rolling-pins")
    while not match.state.is_terminal():
        match.apply(match.draw_chance() if match.state.is_chance_node() else match.state.legal_actions()[0])
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await open_game(app, pilot, match)
        screen.show_hint = True  # as left open through the last move
        screen.refresh_all()
        await quiet(pilot)
        text = screen_text(app)
        assert not screen.query_one("#hint-box").display and not screen.has_class("hinting")
        assert "(no decision now)" not in text and "Back to the launcher" in text


async def test_c_adds_each_options_chance_to_finish_ahead_to_the_hints() -> None:
    """Basic Rolling Pins against another player: the hints offer the chances under the values, and c gives
    them beside each option; where nobody can be finished ahead of, c says so in the status line."""
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(100, 30)) as pilot:
        match = Match.new(
            "rolling-pins", [PlayerSpec("ann"), PlayerSpec("bob", "optimal")], seed=5, options={"frames": "1"}
        )
        while match.state.is_chance_node():
            match.apply(match.draw_chance())
        screen = await open_game(app, pilot, match)
        assert "c Chances" in footer_text(screen)  # beside h Hint, where the game offers them
        await pilot.press("h")
        await until(pilot, lambda: screen.match.steps_done in screen.hints, "the hints")
        hint_lines = screen.hints[screen.match.steps_done].plain.split("\n")
        # The best option first (a short window's panel may show one line), the offer of the chances under it.
        assert hint_lines[0].endswith("(best)") and hint_lines[1] == "c: each option's chance to finish ahead too"
        await pilot.press("c")
        await until(pilot, lambda: screen.match.steps_done in screen.chance_hints, "the chances")
        shown = screen.chance_hints[screen.match.steps_done].plain
        assert "Chances: the chance to finish ahead of every other player" in shown
        options = [line for line in shown.split("\n") if ": expected final score" in line]
        assert options and all(", chance to finish ahead " in line and "%" in line for line in options)
        assert "chance to finish ahead" in screen_text(app)
    alone = PinsetterApp(storage=None, speed=0)
    async with alone.run_test(size=(100, 30)) as pilot:
        single = Match.new("rolling-pins", [PlayerSpec("ann")], seed=5, options={"frames": "1"})
        while single.state.is_chance_node():
            single.apply(single.draw_chance())
        screen = await open_game(alone, pilot, single)
        assert "h Hint" in footer_text(screen) and "Chances" not in footer_text(screen)
        await pilot.press("c")
        await quiet(pilot)
        assert screen.message.startswith("chances to finish ahead are for")
        assert "! chances to finish ahead are for basic Rolling Pins" in screen_text(alone)  # wrapped after
        assert not screen.show_chances


def many_choices() -> Match:
    """Advanced Rolling Pins for two at a roll with more ways to cross out pins than a short list shows."""
    match = Match.new("rolling-pins", [PlayerSpec("ann"), PlayerSpec("bob")], seed=7, options={"advanced": "true"})
    while match.state.is_chance_node() or len(match.state.legal_actions()) <= 8:
        match.apply(match.draw_chance() if match.state.is_chance_node() else match.state.legal_actions()[0])
    return match


@pytest.mark.parametrize("position", ["rolling-pins", "bowling-solitaire", "many-choices"])
async def test_at_60x20_the_hints_leave_the_actions_their_rows(position: str) -> None:
    """Opening the hints at 60x20 shrinks the hint panel, never the action list: the list keeps the rows it has
    with the panel closed (every action, or four and a scroll), and the best option's hint shows under it."""
    match = many_choices() if position == "many-choices" else seeded_match(position)
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await open_game(app, pilot, match)
        actions = screen.query_one("#actions", OptionList)
        closed = actions.region.height
        assert closed == min(actions.option_count, 4)
        await pilot.press("h")
        await until(pilot, lambda: screen.match.steps_done in screen.hints, "the hints")
        text = screen_text(app)
        assert actions.region.height == closed and screen.can_view_entire(actions), text
        labels = [str(actions.get_option_at_index(i).prompt) for i in range(closed)]
        assert all(label[:40] in text for label in labels), text  # "Miss (end the ball)" among them
        box = screen.query_one("#hint-box")
        assert box.display and box.region.height >= 2 and screen.can_view_partial(box), text
        best = screen.hints[screen.match.steps_done].plain.split("\n")[0]
        assert best[:40] in text and "no room" not in text
        assert len(text.split("\n")) <= 20 and max(len(line) for line in text.split("\n")) <= 60


async def test_at_60x20_with_no_room_left_the_hints_wait_for_a_taller_window() -> None:
    """Four players' sheets leave no row for a hint at 60x20: the actions keep theirs, the status says why no
    hint shows, and a taller window shows them (h still closes them)."""
    match = Match.new("rolling-pins", [PlayerSpec(name) for name in ("ann", "bob", "cy", "di")], seed=7)
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await open_game(app, pilot, match)
        closed = screen.query_one("#actions", OptionList).region.height
        await pilot.press("h")
        await quiet(pilot)
        assert screen.query_one("#actions", OptionList).region.height == closed == 2
        assert not screen.hint_shown() and not screen.query_one("#hint-box").display
        assert not screen.has_class("hinting")
        assert screen.query_one("#left").styles.inline.max_height is None  # the table keeps no room for them
        assert "no room for the hints in this window: a taller one shows them" in status_line(screen)
        await pilot.resize_terminal(60, 30)
        await until(pilot, lambda: screen.match.steps_done in screen.hints, "the hints")
        assert screen.query_one("#hint-box").display and "no room" not in status_line(screen)
        await pilot.press("h")
        await quiet(pilot)
        assert not screen.show_hint and not screen.query_one("#hint-box").display


@pytest.mark.parametrize("size", [(120, 40), (200, 60)], ids=lambda size: f"{size[0]}x{size[1]}")
async def test_the_table_and_its_log_grow_with_the_window(size: tuple[int, int]) -> None:
    """A wide window gives the table half its width (the log under it gets the same), a huge one a third
    (table, play and log side by side): Bowling Dice's roll and log lines stop folding at 40 columns."""
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=size) as pilot:
        screen = await open_game(app, pilot, seeded_match("bowling-dice"))
        width = size[0]
        share = width // 2 if width < tui_common.HUGE else width // 3
        table, log = screen.query_one("#table-box"), screen.query_one("#log")
        assert table.region.width >= share - 1, table.region
        assert log.region.width >= share - 1, log.region  # under the table, or a column of its own
        text = screen_text(app)
        if width >= tui_common.HUGE:
            assert "[-] [-] [▮] [/] [-] [▮] [-] [-] [▮] [▮]" in text, text  # the ten dice on one line
        assert "ann rolls 10 dice: 3 blanks, 7 pins standing — ball 1:" in text, text  # a line of the log, whole


@pytest.mark.parametrize("width", [110, 119, 120, 121, 160, 200])
async def test_bowling_dices_last_roll_takes_one_row_from_110_columns(width: int, language: str) -> None:
    """Whose roll it is and its ten dice on one row wherever the table's column is a share of a wide
    screen (at 120 columns half of it left one cell short, the scroll bar's), nothing of the table cut."""
    from pinsetter.i18n import _

    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(width, 40)) as pilot:
        screen = await open_game(app, pilot, seeded_match("bowling-dice"))
        text = screen_text(app)
        label = _("last roll ({name}): ").format(name="ann")
        assert f"{label}[-] [-] [▮] [/] [-] [▮] [-] [-] [▮] [▮]" in text, text
        table = screen.query_one("#table", tui_common.WrappedText)
        assert all(line.rstrip() in text for line in table.source.plain.split("\n")), text  # every line whole
        assert screen.query_one("#right").region.width >= tui_game.PLAY_COLUMN  # the play column keeps its least
