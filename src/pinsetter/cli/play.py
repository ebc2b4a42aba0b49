"""The line-by-line game loop: prompts list the legal actions, bots play themselves."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer
from rich.cells import cell_len

from pinsetter.cli.common import echo_rules, fail
from pinsetter.core.game import GameError
from pinsetter.core.table import TableView
from pinsetter.games.registry import GAMES, game_class
from pinsetter.i18n import N_, _, ngettext
from pinsetter.records import PlayerSpec
from pinsetter.session import Match
from pinsetter.ui.sheet import render_sheets
from pinsetter.ui.table_text import draw_table
from pinsetter.usertext import visible

if TYPE_CHECKING:
    from pinsetter.storage import Storage

HELP = N_("""\
Type an action as listed, or:
  hint     the value of every option (where a solver knows it)
  sheet    show the scoresheets
  rules    show the rules of this game
  quit     stop here (the record keeps the game for --resume)""")


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
    match = Match.new(game_id, [PlayerSpec("you")])
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


def show_hint(match: Match) -> None:
    from pinsetter.bots.hints import hint_lines

    typer.echo(hint_lines(match.state))


def columns(items: list[str], width: int = 78, gap: int = 3) -> str:
    """Items in aligned columns, read down each column; never an item cut between two lines."""
    if not items:
        return ""
    widest = max(cell_len(i) for i in items) + gap  # terminal cells: a Japanese character takes two
    per_line = max(1, min(len(items), width // widest))
    rows = -(-len(items) // per_line)
    lines = []
    for row in range(rows):
        cells = [items[i] for i in range(row, len(items), rows)]
        lines.append("".join(c + " " * (widest - cell_len(c)) for c in cells).rstrip())
    return "\n".join(lines)


def table_view(match: Match) -> TableView:
    last = next((s.text for s in reversed(match.record.steps) if s.actor is None), "")
    return match.game.table(match.state, [p.name for p in match.players], last)


def play_lines(match: Match) -> None:
    state = match.state
    typer.echo(_("{game}, seed {seed}").format(game=_(state.game.name), seed=match.seed))
    last_frames: dict[int, int] = {}
    while not state.is_terminal():
        player = state.turn()
        ctx = state.ball_context(player)
        if ctx and last_frames.get(player) != ctx.frame and ctx.ball == 1:
            last_frames[player] = ctx.frame
            typer.echo(
                "-- " + _("{player}: frame {frame}").format(player=visible(match.players[player].name), frame=ctx.frame)
            )
        if state.is_chance_node():
            human = match.players[player].is_human
            if human and not state.game.has_decisions:
                try:
                    answer = str(
                        typer.prompt("  " + _("[Enter] to roll, or sheet/quit"), default="", show_default=False)
                    )
                except typer.Abort:
                    return _quit(match)
                if answer.strip() == "quit":
                    return _quit(match)
                if answer.strip() == "sheet":
                    show_sheets(match)
                    continue
            match.apply(match.draw_chance())
            typer.echo(f"  {visible(match.log_words()[-1])}")
            continue
        if match.is_bot_turn():
            match.apply(match.bot_action())
            typer.echo(f"  {visible(match.log_words()[-1])}")
            continue
        if not _human_turn(match):
            return _quit(match)
        typer.echo(f"  {visible(match.log_words()[-1])}")
    show_sheets(match)
    for line in match.ending_lines():  # the same end screen as the full-screen and web games
        typer.echo(visible(line))


def _quit(match: Match) -> None:
    stopped = ngettext("Stopped after {count} step.", "Stopped after {count} steps.", match.steps_done)
    line = stopped.format(count=match.steps_done)
    if match.record_path:
        line += " " + _("Resume with: pinsetter play --resume {file}").format(file=match.record_path)
    typer.echo(line)


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


def _human_turn(match: Match) -> bool:
    state = match.state
    view = table_view(match)
    typer.echo(f"== {visible(decision_header(match, view))}")
    picture = draw_table(view).plain.rstrip()
    if picture:
        typer.echo("\n".join("  " + line for line in picture.split("\n")))
    labels = {c.action: c.label for c in view.choices}
    items = []
    for action in (str(a) for a in state.legal_actions()):
        label = labels.get(action) or state.game.action_words(state, action)
        items.append(_("{move}  [type: {shortcut}]").format(move=label, shortcut=action))
    typer.echo("  " + _("your moves (type the shortcut in brackets):"))
    typer.echo("\n".join("    " + line for line in columns(items, 74).split("\n")))
    while True:
        try:
            text = str(typer.prompt("  " + _("your move"))).strip()
        except typer.Abort:
            return False
        if text in {"quit", "q"}:
            return False
        if text in {"help", "?"}:
            typer.echo(_(HELP))
            continue
        if text == "sheet":
            show_sheets(match)
            continue
        if text == "rules":
            echo_rules(state.game.rules())
            continue
        if text == "hint":
            show_hint(match)
            continue
        try:
            step = state.game.parse_action(text)
            match.apply(step)
            return True
        except GameError as exc:
            typer.echo(f"  {exc}")
