"""Commands about the game history: list, show, statistics, export and import."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pinsetter.cli.common import (
    DbOpt,
    JsonOpt,
    app,
    emit_json,
    fail,
    open_storage,
    output_path,
    whole_number,
    write_text,
)
from pinsetter.records import RecordError, replay
from pinsetter.ui.sheet import render_sheets
from pinsetter.usertext import visible

GameIdArg = Annotated[int, typer.Argument(help="id from `pinsetter history`", parser=whole_number(1, 2**63 - 1))]


@app.command()
def history(
    game: Annotated[str | None, typer.Option(help="only this game id")] = None,
    player: Annotated[str | None, typer.Option(help="only games with this player")] = None,
    limit: Annotated[
        int | None, typer.Option(help="at most this many, newest first", parser=whole_number(1, 10**9))
    ] = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The games played: date, game, options, players, scores, winner, finished or not."""
    rows = [g.summary() for g in open_storage(db).history(game, player, limit)]
    if as_json:
        emit_json(rows)
        return
    if not rows:
        typer.echo("no games yet")
        return
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table("id", "date", "game", "options", "players", "scores", "winner", "finished")
    for r in rows:
        options = ",".join(f"{k}={v}" for k, v in sorted(r["options"].items()) if k != "frames" or v != 10)
        entered = " (entered)" if r.get("chance") == "entered" else ""
        cells = [
            str(r["id"]),
            r["date"][:16].replace("T", " "),
            r["game"] + entered,
            options,
            ", ".join(p["name"] for p in r["players"]),
            ", ".join("-" if s is None else str(s) for s in r["scores"]),
            r["winner"] or "",
            "yes" if r["finished"] else "no",
        ]
        table.add_row(*(Text(visible(str(c))) for c in cells))  # user text is never markup
    Console().print(table)


@app.command()
def show(game_id: GameIdArg, db: DbOpt = None) -> None:
    """Print one stored game's scoresheet."""
    stored = open_storage(db).get(game_id)
    if stored is None:
        fail(f"no game {game_id} in the history")
    try:
        state = replay(stored.record, check_result=False)
    except RecordError as exc:
        fail(f"game {game_id}: {exc}")
    names = [p.name for p in stored.record.players]
    entered = ", chance entered by hand" if stored.record.chance == "entered" else ""
    typer.echo(
        f"game {game_id}: {stored.game}, {stored.created[:16].replace('T', ' ')}, seed {stored.record.seed}{entered}"
    )
    sheets = [state.scoresheet(p) for p in range(state.num_players)]
    typer.echo(render_sheets(names, sheets, state.game.lane.frames))
    if not stored.finished:
        typer.echo(f"unfinished: pinsetter play --resume {game_id}")


@app.command()
def stats(
    player: Annotated[str | None, typer.Option(help="one player's statistics")] = None,
    game: Annotated[str | None, typer.Option(help="one game id")] = None,
    reset: Annotated[bool, typer.Option("--reset", help="clear a player's statistics (asks first)")] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="do not ask before --reset")] = False,
    include_entered: Annotated[
        bool, typer.Option("--include-entered", help="count games whose chance was entered by hand, not seeded")
    ] = False,
    plot: Annotated[Path | None, typer.Option(help="draw scores over time and the histogram (.png/.svg/.pdf)")] = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Games, average with 95% CI, best, worst, strike/spare rates, 300s, trend, against the odds."""
    from pinsetter.storage.stats import player_stats

    output_path(plot, "--plot", (".png", ".svg", ".pdf"))
    storage = open_storage(db)
    who = visible(player) if player else "everyone"
    if reset:
        if not player:
            fail("--reset needs --player NAME")
        if not yes:
            try:
                confirmed = typer.confirm(f"Clear the statistics of {who}? (games stay in the history)")
            except typer.Abort:
                fail("--reset: no answer was given (add --yes to clear without asking)")
            if not confirmed:
                raise typer.Exit(1)
        storage.reset_stats(player)
        typer.echo(f"statistics of {who} cleared; the games stay in the history")
        return
    data = player_stats(storage, player, game, include_entered=include_entered)
    blocks = data.get("by_game") or ({data["game"] or "": data} if data["games"] else {})
    if plot is not None and blocks:
        from pinsetter.ui.plots import plot_stats

        for gid, block in blocks.items():
            target = plot if len(blocks) == 1 else plot.with_name(f"{plot.stem}-{gid}{plot.suffix}")
            plot_stats(block, target)
            if not as_json:
                typer.echo(f"plot of {gid or 'the scores'} written to {visible(str(target))}")
    if as_json:
        emit_json(data)
        return
    if not data["games"]:
        typer.echo(f"no finished games for {who}")
        return
    lines = []
    for gid, block in blocks.items():
        name = gid or game or ""
        lines.append(f"{who}{' at ' + visible(name) if name else ''}: {block['games']} games")
        if block["ci95"] is None:
            interval = "one game: no confidence interval yet"
        else:
            lo, hi = block["ci95"]
            interval = f"95% CI {lo:.2f}-{hi:.2f}"
        lines += [
            f"  average {block['average']:.2f} ({interval}), best {block['best']}, worst {block['worst']}",
            f"  strikes {block['strike_rate']:.1%}, spares {block['spare_rate']:.1%}, 300s {block['perfect_games']}",
            f"  last games {block['last_scores']}, trend {block['trend_per_game']:+.2f} points per game",
        ]
        if "benchmark" in block:
            lines.append(f"  {block['benchmark']['text']}")
    typer.echo("\n".join(lines))


@app.command("export")
def export_cmd(
    fmt: Annotated[str, typer.Option("--format", help="jsonl (records, re-importable) or csv (a table)")] = "jsonl",
    out: Annotated[Path | None, typer.Option(help="file to write (default: standard output)")] = None,
    db: DbOpt = None,
) -> None:
    """Export every stored game."""
    from pinsetter.storage.transfer import export_csv, export_jsonl

    if fmt not in ("jsonl", "csv"):
        fail(f"--format must be jsonl or csv, not {visible(fmt)!r}")
    output_path(out, "--out")
    text = (export_jsonl if fmt == "jsonl" else export_csv)(open_storage(db))
    if out is None:
        typer.echo(text, nl=False)
    else:
        write_text(out, text, "--out")


@app.command("import")
def import_cmd(
    source: Annotated[Path, typer.Argument(help="JSON lines of records, or one record")],
    db: DbOpt = None,
) -> None:
    """Import records, each verified by replay; bad lines are reported and skipped."""
    from pinsetter.storage import StorageError
    from pinsetter.storage.transfer import import_file

    shown = visible(str(source))
    if source.is_dir():
        fail(f"cannot read {shown}: it is a folder")
    storage = open_storage(db)
    try:
        report = import_file(storage, source)
    except StorageError as exc:
        fail(str(exc))
    if not (report.imported or report.updated or report.duplicates or report.rejected or report.conflicts):
        fail(f"{shown}: holds no records")
    for line, reason in report.rejected:
        typer.echo(f"pinsetter: {shown}:{line}: rejected: {visible(reason)}", err=True)
    for line, reason in report.conflicts:
        typer.echo(f"pinsetter: {shown}:{line}: conflict: {visible(reason)}", err=True)
    typer.echo(
        f"imported {report.imported}, updated {report.updated}, duplicates {report.duplicates}, "
        f"conflicts {len(report.conflicts)}, rejected {len(report.rejected)}"
    )
    if report.rejected or report.conflicts:
        raise typer.Exit(2)
