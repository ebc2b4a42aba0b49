"""The terminal speaks words (issue 24): whole games through the full-screen game and `pinsetter play`.

Every game (and advanced and shared-dice Rolling Pins) is played to its end in English and in
Japanese, through the Textual pilot (set up in the launcher, as a player would) and through
`pinsetter play` with its input scripted. In the full-screen terminal the Japanese games are
three frames long (set in the launcher): the first frame, one between and the last with its
bonus balls say everything ten frames say, at a third of the cost (a ten-frame Japanese game
took two to three minutes of a loaded machine; the English ones stay ten frames long).

What a player reads (the log, the status line, the actions, the end screen, the launcher's
options and players, the history list, the decision headers and moves of `pinsetter play`)
carries no notation and no game id, after the shortcut beside each action and the typed-input
help are taken away: those are notation by design.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.text import Text
from textual.widgets import Input, Label, OptionList, Select, Static, Switch
from typer.testing import CliRunner

from pinsetter.cli.app import app as cli
from pinsetter.games.registry import get_game
from pinsetter.i18n import DEFAULT_LANGUAGE, set_language
from pinsetter.i18n import _ as translated
from pinsetter.records import PlayerSpec
from pinsetter.session import Match
from pinsetter.storage import Storage
from pinsetter.ui.tui import PinsetterApp
from pinsetter.ui.tui_game import GameScreen
from pinsetter.ui.tui_history import HistoryScreen
from pinsetter.ui.tui_launcher import Launcher
from test_narration import syntax_in
from test_tui import choose_game, highlight_game, past_guard, screen_text, settle
from tui_support import quiet, until

# (game, options set in the launcher's switches, a bot seat beside the human): the games of issue 24.
VARIANTS = [
    ("tenpins", {}, True),
    ("bowling-dice", {}, False),
    ("rolling-pins", {}, False),
    ("rolling-pins", {"advanced": True}, True),
    ("rolling-pins", {"advanced": True, "shared_dice": True}, True),
    ("bowling-solitaire", {}, False),
]
IDS = ["tenpins", "bowling-dice", "rolling-pins", "advanced", "shared-dice", "bowling-solitaire"]
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
DATE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d")  # a stored game's date and time in the history list
SEED = 7
JAPANESE_FRAMES = 3  # the full-screen Japanese games: first, middle and last frame (module docstring)


def check_words(where: str, texts: list[str], names: list[str]) -> None:
    """No notation or id in any of `texts`, read with the players' names taken out (`Greedy bot: 136`
    is a name and a score, not `bot: greedy`) and dates (a history's `10:02`)."""
    for text in texts:
        for name in sorted(names, key=len, reverse=True):
            text = text.replace(name, "NAME")
        found = syntax_in(DATE.sub("", text))
        assert not found, f"{where}: {text!r} reads as notation ({found})"


def check_japanese_log(lines: list[str]) -> None:
    for line in lines:
        if JAPANESE.search(line):
            assert "(" not in line and ")" not in line, f"ASCII parentheses in a Japanese log line: {line!r}"


def plain(widget: Static) -> str:
    """A widget's text as written (a `WrappedText`, such as the status, shows it wrapped at its width)."""
    source = getattr(widget, "source", None)
    return source.plain if isinstance(source, Text) else widget.render().plain  # type: ignore[union-attr]


def action_words(actions: OptionList) -> list[str]:
    """The actions offered, each in words alone: no typed form beside them (the typing box says it)."""
    words = []
    for option in actions.options:
        label = str(option.prompt)
        if option.id and option.id != "roll":
            assert option.id not in label, label  # the notation is not in the list
            assert label, f"{option.id!r} is offered without words"
        words.append(label)
    return words


@pytest.mark.parametrize(("game", "switches", "bot"), VARIANTS, ids=IDS)
async def test_a_whole_game_in_the_full_screen_terminal_speaks_words(
    tmp_path: Path, language: str, game: str, switches: dict[str, bool], bot: bool
) -> None:
    app = PinsetterApp(storage=Storage(f"sqlite:///{tmp_path / 'words.sqlite'}"), speed=0)
    async with app.run_test(size=(120, 40)) as pilot:
        launcher = app.screen
        assert isinstance(launcher, Launcher)
        launcher.query_one("#seed", Input).value = str(SEED)
        await highlight_game(pilot, app, game)
        for name, value in switches.items():
            launcher.query_one(f"#opt-{name}", Switch).value = value
        chosen: dict[str, object] = dict(switches)
        if language == "ja":
            launcher.query_one("#opt-frames", Input).value = str(JAPANESE_FRAMES)
            chosen["frames"] = JAPANESE_FRAMES
        if bot:
            kinds = launcher.query_one("#player-kind", Select)
            kinds.value = "greedy" if "greedy" in [value for _label, value in kinds._options] else "random"
            await quiet(pilot)
            launcher.query_one("#add-player").press()  # type: ignore[attr-defined]
            await until(pilot, lambda: len(launcher.seats) == 2, "the bot's seat")
        await quiet(pilot)
        # The launcher: options by label and help in words, shown only when they apply; the seats.
        shown = [row for row in launcher.query(".option") if row.display]
        options = [plain(label) for row in shown for label in row.query(Label)]
        for select in launcher.query("#game-options Select").results(Select):
            options += [str(prompt) for prompt, _value in select._options]
        options += [plain(label) for label in launcher.query("#players Label").results(Label)]
        names = [seat.name for seat in launcher.seats]
        check_words("launcher", [*options, screen_text(app)], names)
        if game == "rolling-pins" and not switches:  # Advanced off: its sheet and Auto Strike are hidden
            assert {row.id for row in shown} == {"option-advanced", "option-shared_dice", "option-tokens"} | {
                "option-frames",
                "option-pins",
            }
        await choose_game(pilot, app, game)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.match.game.options_in_play() == get_game(game, chosen).options_in_play()
        # The game: at each decision or roll of the human, the status and the actions offered.
        read: list[str] = []
        for _ in range(3000):
            await settle(pilot, screen)
            if screen.match.state.is_terminal():
                break
            actions = screen.query_one("#actions", OptionList)
            status = plain(screen.query_one("#status", Static))
            assert "your move" in status or "あなたの手" in status  # what is pending, said every time
            read += [status, *action_words(actions)]
            actions.focus()
            await past_guard(pilot, screen)
            await pilot.press("enter")
        assert screen.match.state.is_terminal()
        await quiet(pilot)
        end = plain(screen.query_one("#status", Static))
        log = plain(screen.query_one("#log-text", Static)).split("\n")
        assert log[-len(screen.match.log_words()[-5:]) :] == screen.match.log_words()[-5:]
        check_words("the game", [*read, end, *log, *screen.match.log_words()], names)
        assert end.split("\n")[1:] == screen.match.ending_lines()
        if language == "ja":
            check_japanese_log(screen.match.log_words())
        # The history: the game by its name and options, never its id.
        await pilot.press("q")
        await quiet(pilot)
        await pilot.press("f2")
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen), "the history")
        listing = app.screen.query_one("#history-list", OptionList)
        await until(pilot, lambda: listing.option_count == 1, "the game listed")
        entry = str(listing.get_option_at_index(0).prompt)
        check_words("history", [entry, screen_text(app)], names)
        assert f" {translated(get_game(game).name)}" in entry  # by the game's name, in the player's language


def scripted_input(game: str, options: dict[str, str], players: list[PlayerSpec]) -> str:
    """What a player types for a whole game: the first move offered at each decision, Enter at each own roll.

    The same seed and the same decisions give the same game (chance is drawn by position), so a
    match played here answers every prompt `pinsetter play` will ask.
    """
    match = Match.new(game, players, seed=SEED, options=options)
    lines = []
    while not match.state.is_terminal():
        state = match.state
        human = match.players[state.turn()].is_human
        if state.is_chance_node():
            if human and not state.game.has_decisions:
                lines.append("")
            match.apply(match.draw_chance())
        elif match.is_bot_turn():
            match.apply(match.bot_action())
        else:
            action = state.legal_actions()[0]
            lines.append(str(action))
            match.apply(action)
    return "\n".join(lines) + "\n"


# A move's typed form beside its words (`[type: cross 4+6]`, in Japanese in full-width brackets): notation by design.
SHORTCUT = re.compile(r"\s*(\[type: [^\]]*\]|\uff3b[^\uff3d]*\uff3d)")


@pytest.mark.parametrize(("game", "switches", "bot"), VARIANTS, ids=IDS)
def test_a_whole_game_of_pinsetter_play_speaks_words(
    tmp_path: Path, language: str, game: str, switches: dict[str, bool], bot: bool
) -> None:
    options = {name: "true" if value else "false" for name, value in switches.items()}
    kind = "greedy" if game != "tenpins" else "random"
    players = [PlayerSpec("Ann")] + ([PlayerSpec(kind, kind)] if bot else [])  # the scripted match's seats
    db = f"sqlite:///{tmp_path / 'p.db'}"
    given = "Ann" + (f",bot:{kind}" if bot else "")
    args = ["--lang", language, "play", game, "--seed", str(SEED), "-p", given, "--db", db]
    for name, value in options.items():
        args += ["--option", f"{name}={value}"]
    result = CliRunner().invoke(cli, args, input=scripted_input(game, options, players))
    assert result.exit_code == 0, result.output
    out = result.output.split("\n")
    stored = Storage(db).history()[0].record
    told = Match.resume(stored).log_words()
    assert Match.resume(stored).state.is_terminal()
    # Every step in the game's words; a long line is wrapped on words to the terminal's width.
    said = "".join(result.output.split())
    assert all("".join(line.split()) in said for line in told)
    headers = [line for line in out if line.startswith("== ")]
    moves = [SHORTCUT.sub("", line) for line in out if SHORTCUT.search(line)]
    ending = Match.resume(stored).ending_lines()
    assert all("".join(line.split()) in said for line in ending)
    if get_game(game, options).has_decisions:
        assert headers and moves
        assert all(line.count(": ") >= 1 and not line.endswith(": ") for line in headers)  # what is pending
    names = [p.name for p in stored.players]
    check_words("pinsetter play", [*headers, *moves, *told, *ending, out[0]], names)
    if language == "ja":
        check_japanese_log(told)
        assert all(JAPANESE.search(line) for line in headers)


def test_ranks_are_said_only_for_the_whole_game_they_were_set_for(language: str) -> None:
    """A 2-frame game ended with "15 (Pinhead)": ranks are set for 10 frames of 10 pins only."""
    for options, ranked in (({}, True), ({"frames": "2"}, False), ({"pins": "4"}, False)):
        match = Match.new("rolling-pins", [PlayerSpec("Ann", "greedy")], seed=SEED, options=options)
        match.run_bots()
        score = match.state.scores()[0]
        rank = match.game.rank(score)  # type: ignore[attr-defined]
        assert (rank is not None) == ranked
        lines = match.ending_lines()
        assert lines[0].startswith("1. Ann") and str(score) in lines[0] and (rank is None or rank in lines[0])
        assert not any(line.startswith("Ranking") for line in lines)  # the rank is said once, beside the score
        assert (
            any(rank in line for line in lines)
            if ranked
            else not any(
                match.game.ranking(score) in line  # type: ignore[attr-defined]
                for line in lines
            )
        )
        two = Match.new(
            "rolling-pins", [PlayerSpec("Ann", "greedy"), PlayerSpec("Bob", "greedy")], seed=SEED, options=options
        )
        two.run_bots()
        names = {two.game.ranking(s) for s in two.state.scores()}  # type: ignore[attr-defined]
        assert any(name in line for line in two.ending_lines()[1:] for name in names) == ranked


def test_the_status_says_a_box_is_to_be_marked_when_only_marks_are_offered(language: str) -> None:
    """Advanced Rolling Pins after a strike (or a grey pin): the status said "choose one or two dice"."""
    match = Match.new("rolling-pins", [PlayerSpec("Ann", "greedy")], seed=SEED, options={"advanced": "true"})
    seen = 0
    while not match.state.is_terminal():
        state = match.state
        if not state.is_chance_node():
            actions = [str(a) for a in state.legal_actions()]
            status = match.game.table(state, ["Ann"]).status
            marking = all(a.startswith("mark ") for a in actions)
            assert status.endswith(translated("mark a box on the ability track")) == marking, (status, actions)
            seen += marking
        match.advance()
    assert seen  # the seed's game marks boxes


async def test_hints_are_worked_out_in_the_language_of_the_screen() -> None:
    """The hints' worker thread starts in the default language: Japanese hints were in English."""
    set_language("ja")
    try:
        app = PinsetterApp(storage=None, speed=0)
        async with app.run_test(size=(120, 40)) as pilot:
            match = Match.new("rolling-pins", [PlayerSpec("Ann")], seed=SEED)
            screen = GameScreen(match, speed=0)
            app.push_screen(screen)
            await until(pilot, lambda: bool(screen.query("FooterKey")), "the footer's keys")
            await pilot.press("h")
            await until(pilot, lambda: match.steps_done in screen.hints, "the hints")
            hint = plain(screen.query_one("#hint", Static))
            assert translated("Roll two dice") in hint and "Roll two dice" not in hint, hint
            assert JAPANESE.search(hint.split("\n")[1]), hint
    finally:
        set_language(DEFAULT_LANGUAGE)
