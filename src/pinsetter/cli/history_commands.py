"""Commands about the game history: list, show, statistics, export and import."""

from __future__ import annotations

import shutil
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from pinsetter.cli.common import (
    DbOpt,
    JsonOpt,
    app,
    emit_json,
    fail,
    known_game,
    open_storage,
    output_path,
    plot_path,
    utf8_text,
    whole_number,
    write_file,
)
from pinsetter.i18n import N_, _, ngettext
from pinsetter.ui.sheet import render_sheets
from pinsetter.usertext import visible


def history_id(text: str | int) -> int:
    """A game's id as `pinsetter history` lists it (the refusal names where ids come from, not 2**63)."""
    if isinstance(text, int):  # a default value
        return text
    try:
        return whole_number(1, 2**63 - 1)(text)
    except typer.BadParameter:
        message = _("{text} is not the id of a game: `pinsetter history` lists them (1, 2, ...)")
        raise typer.BadParameter(message.format(text=repr(visible(str(text))))) from None


GameIdArg = Annotated[
    int, typer.Argument(help=N_("id from `pinsetter history`"), parser=history_id, metavar="ID", show_default=False)
]


@app.command()
def history(
    game: Annotated[str | None, typer.Option(help=N_("only this game id"), parser=known_game)] = None,
    player: Annotated[str | None, typer.Option(help=N_("only games with this player"), parser=utf8_text)] = None,
    limit: Annotated[
        int | None, typer.Option(help=N_("at most this many, newest first"), parser=whole_number(1, 10**9))
    ] = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The games played: date, game, options, players, scores, winner, finished or not."""
    rows = [g.summary() for g in open_storage(db, read_only=True).history(game, player, limit)]
    if as_json:
        emit_json(rows)
        return
    if not rows:
        typer.echo(_("no games yet"))
        return
    this_year = datetime.now().strftime("%Y")
    table = [[visible(c) for c in history_row(r, this_year)] for r in rows]
    typer.echo(fitted_table(history_headers(), table, terminal_width()))


def history_headers() -> list[str]:
    return [_("id"), _("date"), _("game"), _("players and scores"), _("result")]


def history_row(r: dict[str, Any], this_year: str) -> list[str]:
    """A stored game's summary as the history's columns: id, short date, game in words, players, result."""
    from pinsetter.catalog import game_title

    entered = _(" (entered)") if r.get("chance") == "entered" else ""
    scores = list(r["scores"]) + [None] * len(r["players"])
    seats = [
        _("{name} {score}").format(name=p["name"], score="-" if s is None else s)
        for p, s in zip(r["players"], scores, strict=False)
    ]
    return [
        str(r["id"]),
        short_date(r["date"], this_year),
        game_title(r["game"], r["options"]) + entered,  # the game and its options in words
        _(", ").join(seats),
        _winner_words(r["winner"] or "") if r["finished"] else _("unfinished"),
    ]


def terminal_width() -> int:
    """The terminal's width less one (a full line wraps early in some terminals); 79 when not a terminal."""
    return max(40, shutil.get_terminal_size((80, 24)).columns - 1)


GAP = "  "


def fitted_table(headers: list[str], rows: list[list[str]], width: int) -> str:
    """A table in `width` cells: the first two columns whole, the others wrapped on words (Japanese too).

    Rich's tables cut every column to a few characters with an ellipsis when a long one does not
    fit; here the last three share what the first two leave, each at most as wide as it needs.
    """
    from rich.cells import cell_len

    from pinsetter.ui.wrap import wrap_lines

    columns = len(headers)

    def longest_word(text: str) -> int:
        return max((cell_len(word) for word in text.split()), default=0)

    natural = [max(cell_len(c) for c in [headers[i]] + [r[i] for r in rows]) for i in range(columns)]
    least = [max(longest_word(c) for c in [headers[i]] + [r[i] for r in rows]) for i in range(columns)]
    fixed = natural[:2]
    room = width - cell_len(GAP) * (columns - 1) - sum(fixed)
    flexible = fitted_widths(natural[2:], least[2:], [3, 4, 2], room)
    sizes = fixed + flexible

    def cell_lines(text: str, size: int) -> list[str]:
        return wrap_lines(text, size) or [""]

    def block(cells: list[str]) -> list[str]:
        parts = [cell_lines(c, size) for c, size in zip(cells, sizes, strict=True)]
        height = max(len(p) for p in parts)
        lines = []
        for n in range(height):
            pieces = []
            for i, part in enumerate(parts):
                text = part[n] if n < len(part) else ""
                pad = " " * (sizes[i] - cell_len(text))
                pieces.append(pad + text if i == 0 else text + pad)  # ids to the right
            lines.append(GAP.join(pieces).rstrip())
        return lines

    out = block(headers)
    out.append(GAP.join("─" * size for size in sizes))
    for row in rows:
        out += block(row)
    return "\n".join(out)


def fitted_widths(natural: list[int], least: list[int], shares: list[int], room: int) -> list[int]:
    """Column widths in `room` cells: each at least its longest word where they all fit, at most its
    natural width, the rest shared out by `shares`; too little room folds words (shares of it all)."""
    if sum(natural) <= room:
        return natural
    if sum(least) > room:
        return [max(4, room * share // sum(shares)) for share in shares]
    widths = list(least)
    left = room - sum(widths)
    while left > 0:
        growing = [i for i in range(len(widths)) if widths[i] < natural[i]]
        if not growing:
            break
        total = sum(shares[i] for i in growing)
        given = 0
        for i in growing:
            more = min(natural[i] - widths[i], max(1, left * shares[i] // total), left - given)
            widths[i] += more
            given += more
        left -= given
        if not given:
            break
    return widths


@app.command()
def delete(
    game_ids: Annotated[
        list[int] | None,
        typer.Argument(help=N_("ids from `pinsetter history`"), parser=history_id, metavar="ID..."),
    ] = None,
    empty: Annotated[
        bool, typer.Option("--not-begun", help=N_("every unfinished game with no pin down yet (0 in frame 1)"))
    ] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help=N_("do not ask first"))] = False,
    db: DbOpt = None,
) -> None:
    """Delete games from the history (asks first); a finished game's scores leave the statistics too.

    Give ids from `pinsetter history`, or --not-begun for every game started and left before a
    pin fell. A game at an online table still being played is not deleted.
    """
    from pinsetter.storage import StorageError

    if not game_ids and not empty:
        fail(_("name the games to delete: their ids from `pinsetter history`, or --not-begun"))
    storage = open_storage(db, read_only=True)  # nothing is made for a history that is not there
    chosen = []
    for game_id in game_ids or []:
        stored = storage.get(game_id)
        if stored is None:
            fail(_("no game {id} in the history").format(id=game_id))
        chosen.append(stored)
    if empty:
        known = {g.id for g in chosen}
        chosen += [g for g in storage.history() if g.not_begun() and g.id not in known]
    if not chosen:
        typer.echo(_("no game was started and left before a pin fell: nothing to delete"))
        return
    rows = [history_row(g.summary(), datetime.now().strftime("%Y")) for g in chosen]
    typer.echo(fitted_table(history_headers(), [[visible(c) for c in row] for row in rows], terminal_width()))
    if not yes:
        finished = sum(g.finished for g in chosen)
        question = ngettext(
            "Delete this game from the history?", "Delete these {count} games from the history?", len(chosen)
        )
        if finished:
            question += " " + ngettext(
                "The finished one's scores leave the statistics.",
                "The {count} finished ones' scores leave the statistics.",
                finished,
            ).format(count=finished)
        try:
            confirmed = typer.confirm(question.format(count=len(chosen)))
        except typer.Abort:
            fail(_("delete: no answer was given (add --yes to delete without asking)"))
        if not confirmed:
            typer.echo(_("nothing deleted"))
            raise typer.Exit(1)
    try:
        deleted = open_storage(db).delete([g.id for g in chosen])
    except StorageError as exc:
        fail(str(exc))
    typer.echo(
        ngettext("{count} game deleted ({ids})", "{count} games deleted ({ids})", len(deleted)).format(
            count=len(deleted), ids=", ".join(f"#{i}" for i in deleted)
        )
    )


def short_date(stamp: str, this_year: str) -> str:
    """`12-01 10:02` for this year's games, `2025-12-01` for older ones: the history fits 80 columns."""
    day, _t, time = stamp[:16].partition("T")
    if not day.startswith(this_year + "-"):
        return day
    return f"{day[5:]} {time}".strip()


def _winner_words(winner: str) -> str:
    """The summary's winner in the reader's language (`tie: ann, bob` is data, in English, in JSON)."""
    return _("tie: {names}").format(names=winner.removeprefix("tie: ")) if winner.startswith("tie: ") else winner


@app.command()
def show(game_id: GameIdArg, db: DbOpt = None) -> None:
    """Print one stored game's scoresheet."""
    from pinsetter.catalog import game_title
    from pinsetter.records import RecordError, replay

    stored = open_storage(db, read_only=True).get(game_id)
    if stored is None:
        fail(_("no game {id} in the history").format(id=game_id))
    try:
        state = replay(stored.record, check_result=False)
    except RecordError as exc:
        fail(_("game {id}: {error}").format(id=game_id, error=exc))
    names = [p.name for p in stored.record.players]
    if stored.record.chance == "entered":
        heading = _("game {id}: {game}, {date}, seed {seed}, chance entered by hand")
    else:
        heading = _("game {id}: {game}, {date}, seed {seed}")
    date = stored.created[:16].replace("T", " ")
    game = game_title(stored.game, stored.record.options)
    typer.echo(heading.format(id=game_id, game=game, date=date, seed=stored.record.seed))
    sheets = [state.scoresheet(p) for p in range(state.num_players)]
    typer.echo(render_sheets(names, sheets, state.game.lane.frames))
    if not stored.finished:
        typer.echo(_("unfinished: pinsetter play --resume {id}").format(id=game_id))


@app.command()
def stats(
    player: Annotated[str | None, typer.Option(help=N_("one player's statistics"), parser=utf8_text)] = None,
    game: Annotated[str | None, typer.Option(help=N_("one game id"), parser=known_game)] = None,
    reset: Annotated[bool, typer.Option("--reset", help=N_("clear a player's statistics (asks first)"))] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help=N_("do not ask before --reset"))] = False,
    include_entered: Annotated[
        bool, typer.Option("--include-entered", help=N_("count games whose chance was entered by hand, not seeded"))
    ] = False,
    bots: Annotated[bool, typer.Option("--bots", help=N_("count the bots' scores too"))] = False,
    plot: Annotated[
        Path | None, typer.Option(help=N_("draw scores over time and the histogram (.png/.svg/.pdf)"))
    ] = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Games, average with 95% CI, best, worst, strike/spare rates, perfect games, trend, against the odds.

    One block per game and options in play (a 5-frame game is not averaged with a whole one).
    """
    from pinsetter.storage.stats import player_stats, too_few_for_range

    plot_path(plot)
    storage = open_storage(db, read_only=not reset)
    who = visible(player) if player else _("everyone")
    if reset:
        if not player:
            fail(_("--reset needs --player NAME"))
        if not yes:
            try:
                confirmed = typer.confirm(
                    _("Clear the statistics of {who}? (games stay in the history)").format(who=who)
                )
            except typer.Abort:
                fail(_("--reset: no answer was given (add --yes to clear without asking)"))
            if not confirmed:
                raise typer.Exit(1)
        storage.reset_stats(player)
        typer.echo(_("statistics of {who} cleared; the games stay in the history").format(who=who))
        return
    data = player_stats(storage, player, game, include_entered=include_entered, include_bots=bots)
    series = data["series"]
    if plot is not None and series:
        from pinsetter.ui.plots import plot_stats

        targets = _plot_files(plot, series)
        for target in targets:  # each one checked before any is drawn
            output_path(target, "--plot")
        for block, target in zip(series, targets, strict=True):
            plot_stats(block, target)
            if not as_json:
                typer.echo(_("plot of {what} written to {file}").format(what=block["title"], file=visible(str(target))))
    if as_json:
        emit_json(data)
        return
    if not series:
        typer.echo(_("no finished games for {who}").format(who=who))
        if data["bots_left_out"]:
            typer.echo(
                ngettext(
                    "({count} bot's score left out: --bots counts them)",
                    "({count} bots' scores left out: --bots counts them)",
                    data["bots_left_out"],
                ).format(count=data["bots_left_out"])
            )
        return
    lines = []
    for block in series:
        count = ngettext("{count} game", "{count} games", block["games"]).format(count=block["games"])
        if block["results"] != block["games"]:  # everyone's: the figures are of every seat's score
            count = ngettext("{count} score in {games}", "{count} scores in {games}", block["results"]).format(
                count=block["results"], games=count
            )
        lines.append(_("{who} at {game}: {count}").format(who=who, game=block["title"], count=count))
        if block["ci95"] is None:
            interval = too_few_for_range()
        else:
            lo, hi = block["ci95"]
            interval = _("95% CI {low}-{high}").format(low=f"{lo:.2f}", high=f"{hi:.2f}")
        last_scores = _(", ").join(str(score) for score in block["last_scores"])
        lines += [
            _("  average {average} ({interval}), best {best}, worst {worst}").format(
                average=f"{block['average']:.2f}", interval=interval, best=block["best"], worst=block["worst"]
            ),
            _("  strikes {strikes}, spares {spares}, perfect games {perfect}").format(
                strikes=f"{block['strike_rate']:.1%}",
                spares=f"{block['spare_rate']:.1%}",
                perfect=block["perfect_games"],
            ),
            _("  last games {scores}, trend {trend} points per game").format(
                scores=last_scores, trend=f"{block['trend_per_game']:+.2f}"
            )
            if block["trend_per_game"] is not None
            else _("  last scores {scores}").format(scores=last_scores),
        ]
        if "benchmark" in block:
            lines.append(f"  {block['benchmark']['text']}")
    typer.echo("\n".join(lines))


def _plot_files(plot: Path, series: list[dict[str, Any]]) -> list[Path]:
    """One file per series: the name given for one; else `NAME-GAME` (`NAME-GAME-2` for a game's further series)."""
    if len(series) == 1:
        return [plot]
    seen: dict[str, int] = {}
    files = []
    for block in series:
        seen[block["game"]] = seen.get(block["game"], 0) + 1
        tail = "" if seen[block["game"]] == 1 else f"-{seen[block['game']]}"
        files.append(plot.with_name(f"{plot.stem}-{block['game']}{tail}{plot.suffix}"))
    return files


@app.command("export")
def export_cmd(
    fmt: Annotated[str, typer.Option("--format", help=N_("jsonl (records, re-importable) or csv (a table)"))] = "jsonl",
    out: Annotated[Path | None, typer.Option(help=N_("file to write (default: standard output)"))] = None,
    db: DbOpt = None,
) -> None:
    """Export every stored game."""
    from pinsetter.storage.transfer import export_csv, export_jsonl

    if fmt not in ("jsonl", "csv"):
        fail(_("--format must be jsonl or csv, not {value}").format(value=repr(visible(fmt))))
    output_path(out, "--out")
    text = (export_jsonl if fmt == "jsonl" else export_csv)(open_storage(db, read_only=True))
    if out is None:
        typer.echo(text, nl=False)
    else:
        write_file(out, text, "--out")


@app.command("import")
def import_cmd(
    source: Annotated[Path, typer.Argument(help=N_("JSON lines of records, or one record"))],
    db: DbOpt = None,
) -> None:
    """Import records, each verified by replay; bad lines are reported and skipped."""
    from pinsetter.storage import StorageError
    from pinsetter.storage.transfer import import_records, read_import

    shown = visible(str(source))
    try:
        data = read_import(source)  # before the history is opened: a bad file makes no history
        report = import_records(open_storage(db), data)
    except StorageError as exc:
        fail(str(exc))
    if not (report.imported or report.updated or report.duplicates or report.rejected or report.conflicts):
        fail(_("{file}: holds no records").format(file=shown))
    for line, reason in report.rejected:
        typer.echo(
            _("pinsetter: {file}:{line}: rejected: {reason}").format(file=shown, line=line, reason=visible(reason)),
            err=True,
        )
    for line, reason in report.conflicts:
        typer.echo(
            _("pinsetter: {file}:{line}: conflict: {reason}").format(file=shown, line=line, reason=visible(reason)),
            err=True,
        )
    summary = _(
        "imported {imported}, updated {updated}, duplicates {duplicates}, conflicts {conflicts}, rejected {rejected}"
    )
    typer.echo(
        summary.format(
            imported=report.imported,
            updated=report.updated,
            duplicates=report.duplicates,
            conflicts=len(report.conflicts),
            rejected=len(report.rejected),
        )
    )
    if report.rejected or report.conflicts:
        raise typer.Exit(2)
