"""The `pinsetter` command line: every command is a thin client of the core."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from pinsetter.core.game import GameError
from pinsetter.core.scoring import ScoringError, parse_line, score
from pinsetter.games.registry import GAMES, game_class, get_game
from pinsetter.records import PlayerSpec, Record, RecordError, replay
from pinsetter.ui.sheet import render_sheets

if TYPE_CHECKING:
    from pinsetter.storage import Storage

app = typer.Typer(
    help="Play and solve four bowling-themed tabletop games.",
    no_args_is_help=False,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def fail(message: str) -> NoReturn:
    """A user error: one line on stderr, exit status 2."""
    typer.echo(f"pinsetter: {message}", err=True)
    raise typer.Exit(2)


def parse_options(pairs: list[str] | None) -> dict[str, object]:
    options: dict[str, object] = {}
    for pair in pairs or []:
        if "=" not in pair:
            fail(f"--option {pair!r}: expected key=value")
        key, value = pair.split("=", 1)
        options[key.strip()] = value.strip()
    return options


def emit_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2))


GameArg = Annotated[str, typer.Argument(help="game id (see `pinsetter games`)")]
DbOpt = Annotated[
    str | None, typer.Option("--db", help="SQLAlchemy URL of the game history (default: PINSETTER_DB or SQLite)")
]
OptionOpt = Annotated[list[str] | None, typer.Option("--option", "-o", help="game option key=value (repeatable)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON")]


@app.callback(invoke_without_command=True)
def main(ctx: typer.Context) -> None:
    """Without a command: the full-screen game in a terminal, a line-based one otherwise."""
    if ctx.invoked_subcommand is None:
        if sys.stdin.isatty() and sys.stdout.isatty():
            from pinsetter.ui.tui import run_tui

            run_tui()
            return
        from pinsetter.cli.play import interactive_start

        interactive_start()


@app.command()
def games(as_json: JsonOpt = False) -> None:
    """List the games with their players and options."""
    game_class("tenpins")  # loads the registry
    rows: list[dict[str, Any]] = []
    for gid, cls in sorted(GAMES.items()):
        rows.append(
            {
                "id": gid,
                "name": cls.name,
                "summary": cls.summary,
                "players": [cls.min_players, cls.max_players],
                "decisions": cls.has_decisions,
                "options": [{"name": o.name, "default": str(o.default), "help": o.help} for o in cls.option_specs],
            }
        )
    if as_json:
        emit_json(rows)
        return
    for row in rows:
        lo, hi = row["players"]
        typer.echo(f"{row['id']:<18} {row['name']} - {row['summary']} ({lo}-{hi} players)")
        for o in row["options"]:
            typer.echo(f"{'':<20}--option {o['name']}=...  {o['help']} (default: {o['default']})")


@app.command()
def rules(game: GameArg) -> None:
    """Print a readable summary of a game's rules."""
    try:
        typer.echo(get_game(game).rules())
    except GameError as exc:
        fail(str(exc))


@app.command("score")
def score_cmd(
    balls: Annotated[list[str], typer.Argument(help="pinfalls: X 7/ 9- ... or 10 7 3 ...")],
    as_json: JsonOpt = False,
) -> None:
    """Score a pinfall sequence and print the scoresheet."""
    try:
        pinfalls = parse_line(" ".join(balls))
        sheet = score(pinfalls)
    except ScoringError as exc:
        fail(str(exc))
    if as_json:
        emit_json(sheet.to_dict())
    else:
        typer.echo(render_sheets(["score"], [sheet]))


@app.command("replay")
def replay_cmd(
    record_file: Annotated[Path, typer.Argument(help="a game record (JSON)")],
    as_json: JsonOpt = False,
) -> None:
    """Replay a game record, verify every step and the stated results, print the sheets."""
    try:
        record = Record.load(record_file)
        state = replay(record)
    except RecordError as exc:
        fail(f"{record_file}: {exc}")
    sheets = [state.scoresheet(p) for p in range(state.num_players)]
    if as_json:
        emit_json(
            {
                "game": record.game,
                "complete": state.is_terminal(),
                "steps": len(record.steps),
                "players": [
                    {"name": spec.name, **sheet.to_dict()} for spec, sheet in zip(record.players, sheets, strict=True)
                ],
            }
        )
        return
    typer.echo(render_sheets([p.name for p in record.players], sheets, state.game.lane.frames))
    status = "complete" if state.is_terminal() else "unfinished (resume with `pinsetter play --resume`)"
    typer.echo(f"{record.game}: {len(record.steps)} steps verified, game {status}")


@app.command()
def play(
    game: Annotated[str | None, typer.Argument(help="game id; asked for when omitted")] = None,
    players: Annotated[str, typer.Option("--players", "-p", help="comma separated: names, or bot:NAME")] = "you",
    seed: Annotated[int | None, typer.Option(help="seed for a reproducible game")] = None,
    option: OptionOpt = None,
    record: Annotated[Path | None, typer.Option(help="write the record here, after every step")] = None,
    resume: Annotated[Path | None, typer.Option(help="resume the game in this record")] = None,
    deal: Annotated[str | None, typer.Option(help="bowling-solitaire: play the first frame from this deal")] = None,
    db: DbOpt = None,
) -> None:
    """Play a game line by line (bots-only games run to the end without input).

    Every game is kept in the history database after every step; --resume takes a
    record file or a game id from `pinsetter history`.
    """
    from pinsetter.cli.play import pick_game, play_lines
    from pinsetter.session import Match

    storage = try_storage(db)
    try:
        if resume is not None:
            match = Match.resume(load_game(resume, storage), record or (resume if resume.exists() else None))
        else:
            game_id = game or pick_game()
            specs = PlayerSpec.parse_list(players)
            match = Match.new(game_id, specs, seed, parse_options(option), record)
            if deal is not None:
                if game_id != "bowling-solitaire":
                    fail("--deal is for bowling-solitaire")
                match.record.extra["deal"] = deal
            if record is not None:
                match.record.save(record)
        match.storage = storage
        match.store()
        if "deal" in match.record.extra:
            from pinsetter.games.bowling_solitaire import Deal, deal_script

            match.chance_script = deal_script(Deal.parse(str(match.record.extra["deal"])))
    except (GameError, ValueError) as exc:
        fail(str(exc))
    play_lines(match)


@app.command()
def analyze(
    game: GameArg,
    players: Annotated[int, typer.Option("--players", "-n", help="players, for win/tie odds")] = 1,
    dice: Annotated[Path | None, typer.Option(help="bowling-dice: a dice-set file")] = None,
    option: OptionOpt = None,
    as_json: JsonOpt = False,
    plot: Annotated[Path | None, typer.Option(help="draw the distribution (.png or .svg)")] = None,
) -> None:
    """Exact final-score distribution of a pure-chance game (no simulation)."""
    from pinsetter.games.pure_chance import PureChanceGame
    from pinsetter.solvers.distribution import analyze as exact

    options = parse_options(option)
    if dice is not None:
        options["dice"] = str(dice)
    try:
        instance = get_game(game, options)
    except GameError as exc:
        fail(str(exc))
    if not isinstance(instance, PureChanceGame):
        fail(f"{game} has decisions; use `pinsetter solve {game}` or `simulate`")
    if players < 1:
        fail("--players must be at least 1")
    dist = exact(instance)
    data = dist.to_dict(players)
    if plot is not None:
        from pinsetter.ui.plots import plot_distribution

        plot_distribution(dist, plot)
    if as_json:
        emit_json(data)
        return
    from pinsetter.ui.text import distribution_report

    typer.echo(distribution_report(dist, players))
    if plot is not None:
        typer.echo(f"plot written to {plot}")


@app.command()
def simulate(
    game: GameArg,
    games: Annotated[int, typer.Option("--games", "-g", help="how many games")] = 1000,
    seed: Annotated[int, typer.Option(help="seed of the whole run")] = 0,
    players: Annotated[str, typer.Option("--players", "-p", help="bots, e.g. bot:random,bot:greedy")] = "bot:random",
    workers: Annotated[int, typer.Option(help="worker processes")] = 1,
    option: OptionOpt = None,
    as_json: JsonOpt = False,
    out: Annotated[Path | None, typer.Option(help="CSV with one row per game")] = None,
) -> None:
    """Play many complete games through the engine and summarise the scores."""
    from pinsetter.bots.base import make_bot
    from pinsetter.simulate import simulate as run

    try:
        specs = PlayerSpec.parse_list(players)
        if any(p.is_human for p in specs):
            fail("simulate needs bots only: --players bot:NAME,...")
        instance = get_game(game, parse_options(option))
        instance.check_players(len(specs))
        for spec in specs:
            make_bot(spec.kind, instance)  # an unknown bot is reported before any game is played
    except (GameError, ValueError) as exc:
        fail(str(exc))
    if games < 1:
        fail("--games must be at least 1")
    if as_json or not sys.stderr.isatty():
        summary = run(game, parse_options(option), specs, games, seed, workers)
    else:
        from rich.progress import Progress

        with Progress(transient=True) as progress:
            task = progress.add_task(f"{game}: {games} games", total=games)
            summary = run(
                game,
                parse_options(option),
                specs,
                games,
                seed,
                workers,
                progress=lambda n: progress.advance(task, n),
            )
    if out is not None:
        import csv

        with out.open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["game", "seed", *[p.name for p in specs]])
            for r in summary.results:
                writer.writerow([r.index, r.seed, *r.scores])
    if as_json:
        emit_json(summary.to_dict())
        return
    from pinsetter.ui.text import simulation_report

    typer.echo(simulation_report(summary))


@app.command()
def solve(
    game: GameArg,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="recompute instead of using the disk cache")] = False,
    option: OptionOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Solve a game with decisions: the optimal expected score (Rolling Pins)."""
    import time

    if game != "rolling-pins":
        fail(
            f"no exact whole-game solver for {game!r}: rolling-pins is solved exactly; see `analyze` for "
            "the dice games and `hint bowling-solitaire` for the Solitaire expectimax"
        )
    from pinsetter.solvers import rolling_pins as solver

    try:
        instance = get_game(game, parse_options(option))
    except GameError as exc:
        fail(str(exc))
    lane = instance.lane
    gain = 1 if instance.options["tokens"] else 0
    start = time.perf_counter()
    policy = solver.policy_for(lane.pins, lane.frames, gain, use_cache=not no_cache)
    without = solver.policy_for(lane.pins, lane.frames, 0, use_cache=not no_cache)
    data = {
        "game": game,
        "expected_score": policy.expected_score,
        "expected_score_no_tokens": without.expected_score,
        "states": policy.states,
        "seconds": time.perf_counter() - start,
    }
    if as_json:
        emit_json(data)
        return
    typer.echo(
        f"{game}: optimal expected score {data['expected_score']:.10f} "
        f"({data['expected_score_no_tokens']:.10f} without tokens); "
        f"{data['states']} states, {data['seconds']:.3f} s"
    )


@app.command()
def perft(
    game: GameArg,
    deal: Annotated[str, typer.Option(help="pins=v1,...,v10;piles=a,b,c,d,e|f,g,h|i,j")],
    groups: Annotated[str, typer.Option(help="connected or mutual")] = "connected",
    as_json: JsonOpt = False,
) -> None:
    """Count a Bowling Solitaire deal's legal play sequences (exact move generation)."""
    from pinsetter.games.bowling_solitaire import GROUP_RULES, Deal
    from pinsetter.solvers.solitaire_perft import perft as count

    if game != "bowling-solitaire":
        fail("perft counts Bowling Solitaire deals (game bowling-solitaire)")
    if groups not in GROUP_RULES:
        fail(f"--groups must be connected or mutual, not {groups!r}")
    try:
        result = count(Deal.parse(deal), groups)
    except GameError as exc:
        fail(f"--deal: {exc}")
    if as_json:
        emit_json(result.to_dict())
        return
    for key, value in result.to_dict().items():
        typer.echo(f"{key:>16}: {value}")


def _solitaire_hint(deal_text: str, groups: str, objective: str) -> dict[str, Any]:
    """Options at the start of a deal, from the player's view (face-down cards unknown)."""
    from pinsetter.bots.solitaire import OBJECTIVES, ExpectimaxBot
    from pinsetter.games.bowling_solitaire import GROUP_RULES, BowlingSolitaire, Deal, deal_script

    if groups not in GROUP_RULES:
        fail(f"--groups must be connected or mutual, not {groups!r}")
    if objective not in OBJECTIVES:
        fail(f"--objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
    try:
        deal = Deal.parse(deal_text)
    except GameError as exc:
        fail(f"--deal: {exc}")
    game = BowlingSolitaire({"groups": groups})
    state = game.new_state()
    script = deal_script(deal)
    while state.is_chance_node():  # deals the pins and turns up the three tops only
        step = script(state)
        assert step is not None
        state.apply(step)
    if state.pinfalls[0]:
        return {"value": 0.0, "options": [], "note": "no legal play: ball 1 ends at once"}
    values = ExpectimaxBot(game, objective).evaluate(state) or []
    return {"value": values[0][1], "options": [{"action": str(a), "value": v} for a, v in values]}


@app.command()
def hint(
    game: GameArg,
    record: Annotated[Path | None, typer.Option(help="the position at the end of this record")] = None,
    deal: Annotated[str | None, typer.Option(help="bowling-solitaire: the start of this deal")] = None,
    groups: Annotated[str, typer.Option(help="bowling-solitaire: connected or mutual")] = "connected",
    objective: Annotated[str, typer.Option(help="bowling-solitaire: score, pins or strike")] = "score",
    as_json: JsonOpt = False,
) -> None:
    """The value of every option at a decision, from the solvers."""
    from pinsetter.bots.hints import option_values

    if deal is not None:
        if game != "bowling-solitaire":
            fail("--deal is for bowling-solitaire")
        result = _solitaire_hint(deal, groups, objective)
        if as_json:
            emit_json(result)
        else:
            typer.echo(f"value ({objective}): {result['value']:.6f}")
            for row in result["options"]:
                typer.echo(f"  {row['value']:10.6f}  {row['action']}")
        return
    if record is None:
        fail("give the position: --record FILE (or --deal for bowling-solitaire)")
    try:
        loaded = Record.load(record)
        if loaded.game != game:
            fail(f"{record} is a {loaded.game} record, not {game}")
        state = replay(loaded, check_result=False)
    except RecordError as exc:
        fail(f"{record}: {exc}")
    if state.is_terminal() or state.is_chance_node():
        fail(f"{record}: no decision to make at the end of this record (game over or dice to roll)")
    found = option_values(state)
    if found is None:
        fail(f"no bot can value the options of {game} here")
    bot, label, values = found
    estimate = bool(state.game.options.get("advanced"))
    data: dict[str, Any] = {
        "player": state.current_player(),
        "bot": bot,
        "estimate": estimate,
        "meaning": label,
        "value": values[0][1],
        "options": [{"action": str(a), "value": v} for a, v in values],
    }
    if as_json:
        emit_json(data)
        return
    typer.echo(state.describe())
    note = " (estimate from the basic policy)" if estimate else ""
    typer.echo(f"{bot}: {label}{note}")
    for option_row in data["options"]:
        typer.echo(f"  {option_row['value']:9.4f}  {option_row['action']}")


def open_storage(url: str | None) -> Storage:
    from pinsetter.storage import Storage

    try:
        return Storage(url)
    except Exception as exc:  # any driver or migration failure, reported in one line
        fail(f"cannot open the game history {url or ''}: {exc}".replace("  ", " "))


def try_storage(url: str | None) -> Storage | None:
    """The history for a game being played; without one the game still plays (with a warning)."""
    from pinsetter.storage import Storage

    try:
        return Storage(url)
    except Exception as exc:  # any driver or migration failure
        typer.echo(f"pinsetter: warning: this game is not kept in the history ({exc})", err=True)
        return None


def load_game(resume: Path, storage: Storage | None) -> Record:
    """A record file, or a stored game by its id."""
    if not resume.exists() and str(resume).isdigit():
        if storage is None:
            fail(f"no file {resume}, and the game history cannot be opened")
        stored = storage.get(int(str(resume)))
        if stored is None:
            fail(f"no game {resume} in the history")
        return stored.record
    return Record.load(resume)


@app.command()
def history(
    game: Annotated[str | None, typer.Option(help="only this game id")] = None,
    player: Annotated[str | None, typer.Option(help="only games with this player")] = None,
    limit: Annotated[int | None, typer.Option(help="at most this many, newest first")] = None,
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

    table = Table("id", "date", "game", "options", "players", "scores", "winner", "finished")
    for r in rows:
        options = ",".join(f"{k}={v}" for k, v in sorted(r["options"].items()) if k != "frames" or v != 10)
        table.add_row(
            str(r["id"]),
            r["date"][:16].replace("T", " "),
            r["game"],
            options,
            ", ".join(p["name"] for p in r["players"]),
            ", ".join("-" if s is None else str(s) for s in r["scores"]),
            r["winner"] or "",
            "yes" if r["finished"] else "no",
        )
    Console().print(table)


@app.command()
def show(game_id: Annotated[int, typer.Argument(help="id from `pinsetter history`")], db: DbOpt = None) -> None:
    """Print one stored game's scoresheet."""
    stored = open_storage(db).get(game_id)
    if stored is None:
        fail(f"no game {game_id} in the history")
    try:
        state = replay(stored.record, check_result=False)
    except RecordError as exc:
        fail(f"game {game_id}: {exc}")
    names = [p.name for p in stored.record.players]
    typer.echo(f"game {game_id}: {stored.game}, {stored.created[:16].replace('T', ' ')}, seed {stored.record.seed}")
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
    plot: Annotated[Path | None, typer.Option(help="draw scores over time and the histogram (.png/.svg)")] = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Games, average with 95% CI, best, worst, strike/spare rates, 300s, trend, against the odds."""
    from pinsetter.storage.stats import player_stats

    storage = open_storage(db)
    if reset:
        if not player:
            fail("--reset needs --player NAME")
        if not yes and not typer.confirm(f"Clear the statistics of {player}? (games stay in the history)"):
            raise typer.Exit(1)
        storage.reset_stats(player)
        typer.echo(f"statistics of {player} cleared; the games stay in the history")
        return
    data = player_stats(storage, player, game)
    if plot is not None and data["games"]:
        from pinsetter.ui.plots import plot_stats

        plot_stats(data, plot)
    if as_json:
        emit_json(data)
        return
    who = player or "everyone"
    if not data["games"]:
        typer.echo(f"no finished games for {who}")
        return
    lo, hi = data["ci95"]
    lines = [
        f"{who}{' at ' + game if game else ''}: {data['games']} games",
        f"  average {data['average']:.2f} (95% CI {lo:.2f}-{hi:.2f}), best {data['best']}, worst {data['worst']}",
        f"  strikes {data['strike_rate']:.1%}, spares {data['spare_rate']:.1%}, 300s {data['perfect_games']}",
        f"  last games {data['last_scores']}, trend {data['trend_per_game']:+.2f} points per game",
    ]
    if "benchmark" in data:
        lines.append(f"  {data['benchmark']['text']}")
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
        fail(f"--format must be jsonl or csv, not {fmt!r}")
    text = (export_jsonl if fmt == "jsonl" else export_csv)(open_storage(db))
    if out is None:
        typer.echo(text, nl=False)
    else:
        out.write_text(text)


@app.command("import")
def import_cmd(
    source: Annotated[Path, typer.Argument(help="JSON lines of records, or one record")],
    db: DbOpt = None,
) -> None:
    """Import records, each verified by replay; bad lines are reported and skipped."""
    from pinsetter.storage.transfer import import_records

    try:
        text = source.read_text(encoding="utf-8")
    except OSError as exc:
        fail(f"cannot read {source}: {exc.strerror}")
    report = import_records(open_storage(db), text)
    for line, reason in report.rejected:
        typer.echo(f"{source}:{line}: rejected: {reason}", err=True)
    typer.echo(
        f"imported {report.imported}, updated {report.updated}, duplicates {report.duplicates}, "
        f"rejected {len(report.rejected)}"
    )
    if report.rejected:
        raise typer.Exit(2)


def run() -> None:
    app()


if __name__ == "__main__":
    run()
