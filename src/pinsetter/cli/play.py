"""The line-by-line game loop: prompts list the legal actions, bots play themselves.

Every line typed is either applied or answered: the words below (help, hint, sheet, rules, undo,
quit) work at every prompt, a refused move says why, and text is wrapped on words to the
terminal's width (never cut mid-word at 80 columns).
"""

from __future__ import annotations

import shlex
import shutil
import sys
from enum import Enum
from typing import TYPE_CHECKING

import typer
from rich.cells import cell_len

from pinsetter.cli.common import echo_rules, fail
from pinsetter.core.game import GameError, IllegalActionError
from pinsetter.core.table import TableView
from pinsetter.games.registry import GAMES, game_class
from pinsetter.i18n import N_, _, ngettext
from pinsetter.records import PlayerSpec, player_name
from pinsetter.session import Match
from pinsetter.ui.sheet import render_sheets
from pinsetter.ui.table_text import draw_table
from pinsetter.ui.wrap import wrap_lines
from pinsetter.usertext import visible

if TYPE_CHECKING:
    from pinsetter.storage import Storage

HELP = N_("""\
Type a move as listed (the shortcut in brackets), or:
  hint     the value of every option (where a solver knows it)
  chances  the hint with each option's chance to finish ahead (Rolling Pins against others)
  undo     take back your last move (not once a roll or a card was seen since)
  sheet    show the scoresheets
  rules    show the rules of this game
  quit     stop here (the game is kept: pinsetter play --resume)""")
ROLL_HELP = N_("""\
Press Enter to roll, or type:
  sheet    show the scoresheets
  rules    show the rules of this game
  quit     stop here (the game is kept: pinsetter play --resume)""")
QUIT_WORDS = frozenset({"quit", "q", "exit"})
HELP_WORDS = frozenset({"help", "?", "h"})
NBSP = "\u00a0"
KEPT = "\ue000"  # stands for a non-breaking space while a line is wrapped
MAX_WIDTH = 100  # wider terminals still read best in lines of about this length
LONGEST_MOVE = 80  # characters: the longest move typed is about 25 (`cross 1+2+3+4 tokens +2`)


class Turn(Enum):
    """How a human's turn at the prompt ended."""

    PLAYED = "played"
    UNDONE = "undone"
    QUIT = "quit"


def line_width() -> int:
    """The width to wrap to: the terminal's, less one (a full line wraps early in some terminals)."""
    return max(30, min(shutil.get_terminal_size((80, 24)).columns, MAX_WIDTH) - 1)


def say(text: str, indent: int = 0, hang: int | None = None) -> None:
    """`text` wrapped on words to the terminal: the first line indented by `indent`, the rest by `hang`."""
    hang = indent + 2 if hang is None else hang
    lines = wrap_whole(text, line_width() - max(indent, hang)) or [""]
    typer.echo("\n".join(" " * (indent if i == 0 else hang) + line for i, line in enumerate(lines)))


def pick_game() -> str:
    """The game to play, listed by name; its number, its name or its id (as commands take it) chooses it."""
    game_class("tenpins")
    ids = sorted(GAMES)
    names = {_(GAMES[gid].name).casefold(): gid for gid in ids}
    for number, gid in enumerate(ids, start=1):
        typer.echo(f"  {number}. {_(GAMES[gid].name)} - {_(GAMES[gid].summary)}")
    while True:
        try:
            answer = str(typer.prompt(_("Which game? (its number)"))).strip()
        except typer.Abort:
            fail(_("no game given: name one (`pinsetter games` lists them)"))
        if answer in GAMES or answer.casefold() in names:
            return answer if answer in GAMES else names[answer.casefold()]
        if answer.isdigit() and 1 <= int(answer) <= len(ids):
            return ids[int(answer) - 1]
        typer.echo("  " + _("no game {name}").format(name=repr(visible(answer))))


def interactive_start(storage: Storage | None) -> None:
    """`pinsetter` alone: choose a game and play it (kept in the history when it can be opened)."""
    game_id = pick_game()
    match = Match.new(game_id, [PlayerSpec(player_name(1))])
    match.storage = storage
    match.store()
    play_lines(match)


def show_sheets(match: Match) -> None:
    state = match.state
    current = [ctx.frame if (ctx := state.ball_context(p)) else None for p in range(state.num_players)]
    typer.echo(
        render_sheets(
            [p.name for p in match.players],
            [state.scoresheet(p) for p in range(state.num_players)],
            state.game.lane.frames,
            current,
        )
    )


def show_hint(match: Match, chances: bool = False) -> None:
    """The value of every option, best first, each wrapped on words under the one before; with `chances`,
    each option's chance to finish ahead of the other players too."""
    from pinsetter.bots.hints import chance_line, hint_words, no_hint_words, option_values, win_chances

    found = option_values(match.state)
    if found is None:
        say(no_hint_words(match.state), 2)
        return
    name, label, values = found
    chance_of = win_chances(match.state) if chances else None
    say(label, 2)
    if chance_of is not None:
        say(chance_line(), 2, 4)
    for line in hint_words(match.state, name, values, chance_of):
        say(line, 4, 6)


def say_help(text: str) -> None:
    """A help block (`  word     what it does`): each line wrapped under its description."""
    for line in text.split("\n"):
        indent = len(line) - len(line.lstrip())
        word, gap, rest = line.strip().partition("  ")
        hang = indent + len(word) + len(gap) + len(rest) - len(rest.lstrip()) if gap else indent + 2
        say(line.strip(), indent, hang)


def wrap_whole(text: str, width: int) -> list[str]:
    """`wrap_lines`, never breaking at a non-breaking space (a shortcut like `cross 2+5` stays on one line)."""
    kept = text.replace(NBSP, KEPT)  # a one-cell character that is no space: no line breaks there
    return [line.replace(KEPT, " ") for line in wrap_lines(kept, width)]


def columns(items: list[str], width: int = 78, gap: int = 3) -> str:
    """Items in aligned columns, read down each column; one a line, wrapped on words, when one is too wide."""
    if not items:
        return ""
    widest = max(cell_len(i) for i in items) + gap  # terminal cells: a Japanese character takes two
    if widest - gap > width:  # one a line; a line that is still too long breaks between words
        return "\n".join("\n  ".join(wrap_whole(item, width - 2)) for item in items)
    per_line = max(1, min(len(items), width // widest))
    rows = -(-len(items) // per_line)
    lines = []
    for row in range(rows):
        cells = [items[i] for i in range(row, len(items), rows)]
        lines.append("".join(c + " " * (widest - cell_len(c)) for c in cells).rstrip().replace(NBSP, " "))
    return "\n".join(lines)


def table_view(match: Match) -> TableView:
    last = next((s.text for s in reversed(match.record.steps) if s.actor is None), "")
    return match.game.table(match.state, [p.name for p in match.players], last)


def play_lines(match: Match, db: str | None = None) -> None:
    """Play `match` at the prompt to its end or until the player stops (`db`: the history named on the command line).

    Ctrl+C stops as `quit` does (the game is kept and how to resume it is said), then exits with 130.
    """
    try:
        _play_lines(match, db)
    except _Interrupted:
        raise typer.Exit(130) from None


class _Interrupted(Exception):
    """Ctrl+C at a prompt: the game was kept and the resume line said."""


def _stopped(match: Match, db: str | None) -> None:
    """The player stopped (quit, the input ended, Ctrl+C): the game kept and how to resume it said."""
    interrupted = _interrupted_prompt()
    if interrupted:
        typer.echo("")  # the prompt's line ends with the ^C the terminal echoed
    _quit(match, db)
    if interrupted:
        raise _Interrupted


def _interrupted_prompt() -> bool:
    """Whether the prompt that just ended was ended by Ctrl+C (click turns it and end of input into one Abort)."""
    error = sys.exc_info()[1]
    return error is not None and isinstance(error.__context__, KeyboardInterrupt)


def _play_lines(match: Match, db: str | None) -> None:
    typer.echo(_("{game}, seed {seed}").format(game=_(match.game.name), seed=match.seed))
    last_frames: dict[int, int] = {}
    while not match.state.is_terminal():
        state = match.state  # a new state after an undo
        player = state.turn()
        ctx = state.ball_context(player)
        if ctx and last_frames.get(player) != ctx.frame:  # a new frame, or the first seen (a resumed game too)
            last_frames[player] = ctx.frame
            typer.echo(
                "-- "
                + (_("{player}: frame {frame}") if ctx.ball == 1 else _("{player}: frame {frame}, ball {ball}")).format(
                    player=visible(match.players[player].name), frame=ctx.frame, ball=ctx.ball
                )
            )
        if state.is_chance_node():
            human = match.players[player].is_human
            if human and not state.game.has_decisions and not _roll_prompt(match, db):
                return
            match.apply(match.draw_chance())
            say(visible(match.log_words()[-1]), 2, 4)
            continue
        if match.is_bot_turn():
            match.apply(match.bot_action())
            say(visible(match.log_words()[-1]), 2, 4)
            continue
        turn = _human_turn(match, db)
        if turn is Turn.QUIT:
            return
        if turn is Turn.PLAYED:
            say(visible(match.log_words()[-1]), 2, 4)
    show_sheets(match)
    for line in match.ending_lines():  # the same end screen as the full-screen and web games
        say(visible(line), 0, 2)


def _roll_prompt(match: Match, db: str | None) -> bool:
    """A human's roll in a game of chance alone: Enter rolls, a word is answered; False once stopped."""
    while True:
        try:
            answer = str(typer.prompt("  " + _("Enter rolls (or help, sheet, quit)"), default="", show_default=False))
        except typer.Abort:
            _stopped(match, db)
            return False
        text = answer.strip()
        if not text or text.casefold() == "roll":
            return True
        if text.casefold() in QUIT_WORDS:
            _stopped(match, db)
            return False
        if text.casefold() in HELP_WORDS:
            say_help(_(ROLL_HELP))
        elif not _common_word(match, text):
            say(
                _("{text} is not a word this prompt knows: press Enter to roll, or type help").format(
                    text=repr(visible(text))
                ),
                2,
            )


def _common_word(match: Match, text: str) -> bool:
    """Answer a word every prompt takes (sheet, rules, hint, undo); False if `text` is none of them."""
    word = text.casefold()
    if word == "sheet":
        show_sheets(match)
    elif word == "rules":
        echo_rules(match.game.rules())
    elif word == "hint":
        if match.game.has_decisions:
            show_hint(match)
        else:
            from pinsetter.bots.hints import no_decisions_words

            say(no_decisions_words(match.game), 2)
    elif word in ("chances", "hint chances"):
        from pinsetter.bots.hints import CHANCES_WAIT, NO_CHANCES, chances_take_a_while, offers_chances

        if offers_chances(match.state) and not match.is_bot_turn():
            if chances_take_a_while(match.state):
                say(_(CHANCES_WAIT), 2)
            show_hint(match, chances=True)
        elif match.state.is_chance_node() or match.is_bot_turn():
            say(_("no hints for this position"), 2)
        else:
            say(_(NO_CHANCES), 2)
    elif word == "undo":
        try:
            taken = match.undo()
        except GameError as exc:
            say(_("undo: {reason}").format(reason=exc), 2)
            return True
        say(ngettext("undo: {count} step taken back", "undo: {count} steps taken back", taken).format(count=taken), 2)
    else:
        return False
    return True


def _quit(match: Match, db: str | None) -> None:
    """Where the game stands and the command that resumes it (its record file, written now, or its id in `db`)."""
    from pinsetter.records import result_of
    from pinsetter.ui.standing import resume_summary

    match.record.result = result_of(match.state, match.players)  # as every step's save states it
    line = _("Stopped: {where}.").format(where=resume_summary(match.record))
    if match.record_path:
        line += " " + _("Resume with: pinsetter play --resume {file}").format(file=shlex.quote(str(match.record_path)))
    elif match.game_id is not None:
        resume = str(match.game_id) if db is None else f"{match.game_id} --db {shlex.quote(db)}"
        line += " " + _("Resume with: pinsetter play --resume {file}").format(file=resume)
    say(visible(line), 0, 2)


def decision_header(match: Match, view: TableView) -> str:
    """`ann to play - frame 3, ball 2: cross out pins ...`: whose decision it is, named first.

    In a shared-dice game every player answers the same roll in turn, so the header names the
    player the engine asks (`current_player`), not the one whose roll it was.
    """
    state = match.state
    player = state.current_player()
    ctx = state.ball_context(player)
    doing = view.status.split(": ", 1)[1] if ": " in view.status else view.status
    where = _("frame {frame}, ball {ball}").format(frame=ctx.frame, ball=ctx.ball) if ctx else ""
    return _("{name} to play - {where}: {doing}").format(name=match.players[player].name, where=where, doing=doing)


def _human_turn(match: Match, db: str | None) -> Turn:
    state = match.state
    view = table_view(match)
    say(f"== {visible(decision_header(match, view))}", 0, 3)
    picture = draw_table(view).plain.rstrip()
    if picture:
        typer.echo("\n".join("  " + line for line in picture.split("\n")))
    labels = {c.action: c.label for c in view.choices}
    items = []
    for action in (str(a) for a in state.legal_actions()):
        label = labels.get(action) or state.game.action_words(state, action)
        items.append(move_item(label, action))
    say(_("your moves (type the shortcut in brackets; help lists the other words):"), 2, 4)
    typer.echo("\n".join("    " + line for line in columns(items, line_width() - 4).split("\n")))
    while True:
        try:
            text = str(typer.prompt("  " + _("your move"))).strip()
        except typer.Abort:
            _stopped(match, db)
            return Turn.QUIT
        if text.casefold() in QUIT_WORDS:
            _stopped(match, db)
            return Turn.QUIT
        if text.casefold() in HELP_WORDS:
            say_help(_(HELP))
            continue
        if len(text) > LONGEST_MOVE:  # not echoed back: a pasted page would fill the screen
            say(_("that is not a move: the line is {count} characters long").format(count=len(text)), 2)
            continue
        steps = match.steps_done
        if _common_word(match, text):
            if match.steps_done < steps:
                return Turn.UNDONE  # the position is shown again as it now is
            continue
        try:
            match.apply(state.game.parse_action(text))
            return Turn.PLAYED
        except GameError as exc:
            say(refusal(match, view, exc), 2)


def move_item(label: str, shortcut: str) -> str:
    """`Cross out 4 and 6  [type: cross 4+6]`: the bracket after the words is never broken between lines."""
    pattern = _("{move}  [type: {shortcut}]")
    before, found, after = pattern.partition("{move}")
    if not found or "{shortcut}" not in after:  # a translation that orders the two otherwise
        return pattern.format(move=label, shortcut=shortcut.replace(" ", NBSP))
    gap = after[: len(after) - len(after.lstrip())]
    bracket = after.lstrip().replace(" ", NBSP).format(shortcut=shortcut.replace(" ", NBSP))
    return before + label + gap + bracket


def refusal(match: Match, view: TableView, exc: GameError) -> str:
    """Why a typed move is refused: the game's reason, or else what this moment of the game is for."""
    if not isinstance(exc, IllegalActionError) or exc.reason:
        return str(exc)
    doing = view.status.split(": ", 1)[1] if ": " in view.status else view.status
    legal = [str(a).replace(" ", NBSP) for a in match.state.legal_actions()]  # each kept on one line
    if len(legal) <= 4:
        moves = _(" or ").join(legal)
    else:
        moves = ngettext(
            "one of the {count} move listed above", "one of the {count} moves listed above", len(legal)
        ).format(count=len(legal))
    return _("{error}: now you {doing}; type {moves}").format(error=exc, doing=doing, moves=moves)
