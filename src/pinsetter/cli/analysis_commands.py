"""Commands about numbers: scoring a line, exact odds, simulation, tournaments, solving, perft."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pinsetter.cli.common import (
    MAX_GAMES,
    DbOpt,
    GameArg,
    JsonOpt,
    OptionOpt,
    app,
    emit_json,
    fail,
    one_line,
    open_storage,
    output_path,
    parse_options,
    plot_path,
    try_storage,
    whole_number,
    write_file,
)
from pinsetter.core.game import Game, GameError
from pinsetter.core.scoring import ScoringError, parse_line, score
from pinsetter.core.seeds import SEED_MAX
from pinsetter.games.registry import get_game
from pinsetter.i18n import N_, _
from pinsetter.ui.sheet import render_sheets
from pinsetter.usertext import visible

if TYPE_CHECKING:  # imported where used: `score` needs neither runs nor records (pydantic)
    from pinsetter.experiments.plan import Plan, Row


@app.command("score", context_settings={"ignore_unknown_options": True})
def score_cmd(
    balls: Annotated[list[str], typer.Argument(help=N_("pinfalls: X 7/ 9- ... or whole numbers 10 7 3 ..."))],
    as_json: JsonOpt = False,
) -> None:
    """Score a pinfall sequence and print the scoresheet.

    A line of whole numbers gives one ball per number (`10 7 3`); in a line with
    marks each token is one frame, one character per ball (`X 7/ 9- 81`, the
    last frame `XXX`).
    """
    line = " ".join(balls)
    if not line.strip():
        fail(_("score: no balls given (e.g. pinsetter score X 7/ 9-)"))
    try:
        sheet = score(parse_line(line))
    except ScoringError as exc:
        fail(str(exc))
    if as_json:
        emit_json(sheet.to_dict())
    else:
        typer.echo(render_sheets([_("score")], [sheet]))


@app.command()
def analyze(
    game: GameArg,
    players: Annotated[
        int, typer.Option("--players", "-n", help=N_("players, for win/tie odds"), parser=whole_number(1, 100))
    ] = 1,
    dice: Annotated[Path | None, typer.Option(help=N_("bowling-dice: a dice-set file (JSON or TOML)"))] = None,
    option: OptionOpt = None,
    as_json: JsonOpt = False,
    plot: Annotated[Path | None, typer.Option(help=N_("draw the distribution (.png, .svg or .pdf)"))] = None,
    exact: Annotated[
        bool, typer.Option("--exact", help=N_('also give every figure as an exact fraction (JSON: under "exact")'))
    ] = False,
) -> None:
    """Exact final-score distribution of a pure-chance game (no simulation)."""
    from pinsetter.games.pure_chance import PureChanceGame
    from pinsetter.solvers.distribution import analyze as exact_distribution

    plot_path(plot)
    pairs = list(option or [])
    if dice is not None:
        if any(pair.split("=", 1)[0].strip() == "dice" for pair in pairs):
            fail(_("give the dice set once: --dice FILE or --option dice=..."))
        pairs.append(f"dice={dice}")
    try:
        instance = get_game(game, parse_options(game, pairs))
    except GameError as exc:
        fail(str(exc))
    if not isinstance(instance, PureChanceGame):
        fail(_("{game} has decisions; use `pinsetter solve {game}` or `simulate`").format(game=game))
    dist = exact_distribution(instance)
    data = dist.to_dict(players, exact=exact)
    from pinsetter.catalog import describe_variant

    title = describe_variant(game, instance.options_in_play())
    if plot is not None:
        from pinsetter.ui.plots import plot_distribution

        plot_distribution(dist, plot, title)
    if as_json:
        emit_json(data)
        return
    from pinsetter.ui.text import distribution_report

    typer.echo(distribution_report(dist, title, players, exact=exact))
    if plot is not None:
        typer.echo(_("plot written to {file}").format(file=visible(str(plot))))


ClusterOpt = Annotated[
    str | None,
    typer.Option(
        "--cluster",
        help=N_(
            "play on Dask: local:K (K local worker processes) or tcp://HOST:PORT (a scheduler); "
            "needs pip install 'pinsetter[cluster]'"
        ),
    ),
]
WorkersOpt = Annotated[int, typer.Option(help=N_("worker processes on this machine"), parser=whole_number(1, 256))]
ResumeOpt = Annotated[
    str | None,
    typer.Option(
        "--resume",
        help=N_("continue an interrupted run: its id, or 'last' (the latest unfinished with these parameters)"),
    ),
]
ChunkOpt = Annotated[
    int | None,
    typer.Option(
        "--chunk", help=N_("games per chunk (default: about 100 chunks of 10 to 500)"), parser=whole_number(1, 100_000)
    ),
]


def _interrupt_on_sigterm() -> None:
    """SIGTERM stops a run as Ctrl-C does: the finished chunks stay stored, and the run id is shown."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)


def run_plan(
    plan: Plan, workers: int, cluster: str | None, resume: str | None, db: str | None, quiet: bool
) -> list[Row]:
    """Play a plan on the backend asked for, stored as a run (resumable), with a progress bar on a terminal."""
    from pinsetter.experiments.backends import ClusterError, make_backend, parse_cluster
    from pinsetter.experiments.runner import execute
    from pinsetter.experiments.runs import RunError, RunStore, StoredRun
    from pinsetter.storage import Storage

    try:
        spec = parse_cluster(cluster) if cluster is not None else None
    except ValueError as exc:
        fail(str(exc))
    run: StoredRun | None = None
    storage: Storage | None
    if resume is not None:
        storage = open_storage(db)
    else:  # the run plays on without a history, but cannot be resumed
        storage = try_storage(db, _("pinsetter: warning: this run cannot be resumed ({reason})"))
    if storage is not None:
        store = RunStore(storage)
        try:
            run = store.resume(resume, plan) if resume is not None else store.start(plan)
        except RunError as exc:
            fail(str(exc))
        if sys.stderr.isatty():  # scripts are not told: an interrupted run names itself, and --resume last finds it
            shown = _("pinsetter: run {run} (if it stops, continue it with --resume {run})").format(run=run.id)
            typer.echo(shown, err=True)
    try:
        backend = make_backend(workers, spec)
    except ClusterError as exc:
        fail(str(exc))
    _interrupt_on_sigterm()
    try:
        with backend:
            if quiet or not sys.stderr.isatty():
                return execute(plan, backend, run)
            from pinsetter.cli.progress import progress_bar

            unit = _("games") if plan.kind == "simulate" else _("deals")
            with progress_bar() as bar:
                task = bar.add_task(f"{plan.game}: {plan.games} {unit}", total=plan.games)
                return execute(plan, backend, run, progress=lambda n: bar.advance(task, n))
    except ClusterError as exc:  # the cluster failed during the run: what finished is kept
        resume_hint = _("; continue with --resume {run}").format(run=run.id) if run is not None else ""
        typer.echo(f"pinsetter: {one_line(str(exc))}{resume_hint}", err=True)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        if run is not None:
            typer.echo(_("pinsetter: interrupted; continue with --resume {run}").format(run=run.id), err=True)
        else:
            typer.echo(_("pinsetter: interrupted"), err=True)
        raise typer.Exit(130) from None


@app.command()
def simulate(
    game: GameArg,
    games: Annotated[
        int, typer.Option("--games", "-g", help=N_("how many games"), parser=whole_number(1, MAX_GAMES))
    ] = 1000,
    seed: Annotated[int, typer.Option(help=N_("seed of the whole run"), parser=whole_number(0, SEED_MAX))] = 0,
    players: Annotated[
        str, typer.Option("--players", "-p", help=N_("bots, e.g. bot:random,bot:greedy"))
    ] = "bot:random",
    workers: WorkersOpt = 1,
    cluster: ClusterOpt = None,
    resume: ResumeOpt = None,
    chunk: ChunkOpt = None,
    option: OptionOpt = None,
    as_json: JsonOpt = False,
    out: Annotated[Path | None, typer.Option(help=N_("CSV with one row per game"))] = None,
    db: DbOpt = None,
) -> None:
    """Play many complete games through the engine and summarise the scores.

    The results are the same with any --workers or --cluster; an interrupted run
    continues with --resume (docs/cluster.md).
    """
    from pinsetter.bots.base import make_bot
    from pinsetter.records import PlayerSpec
    from pinsetter.simulate import simulation_plan, summarise

    output_path(out, "--out")
    try:
        options = parse_options(game, option)
        specs = PlayerSpec.parse_list(players)
        if any(p.is_human for p in specs):
            fail(_("simulate needs bots only: --players bot:NAME,..."))
        instance = get_game(game, options)
        instance.check_players(len(specs))
        for spec in specs:
            make_bot(spec.kind, instance)  # an unknown bot is reported before any game is played
        plan = simulation_plan(game, options, specs, games, seed, chunk)
    except (GameError, ValueError) as exc:
        fail(str(exc))
    summary = summarise(plan, run_plan(plan, workers, cluster, resume, db, as_json))
    if out is not None:
        import csv
        import io

        table = io.StringIO(newline="")
        writer = csv.writer(table)
        writer.writerow(["game", "seed", *[p.name for p in specs]])
        for r in summary.results:
            writer.writerow([r.index, r.seed, *r.scores])
        write_file(out, table.getvalue(), "--out")
    if as_json:
        emit_json(summary.to_dict())
        return
    from pinsetter.catalog import describe_variant
    from pinsetter.ui.text import simulation_report

    typer.echo(simulation_report(summary, describe_variant(game, plan.options)))


@app.command()
def tournament(
    game: GameArg,
    bots: Annotated[str, typer.Option("--bots", "-b", help=N_("the bots, e.g. greedy,random (see `pinsetter games`)"))],
    games: Annotated[
        int, typer.Option("--games", "-g", help=N_("how many deals every bot plays"), parser=whole_number(1, MAX_GAMES))
    ] = 1000,
    seed: Annotated[int, typer.Option(help=N_("seed of the whole tournament"), parser=whole_number(0, SEED_MAX))] = 0,
    seats: Annotated[
        int,
        typer.Option(
            help=N_("1: each bot alone on every deal; the number of bots: all at one table"), parser=whole_number(1, 64)
        ),
    ] = 1,
    workers: WorkersOpt = 1,
    cluster: ClusterOpt = None,
    resume: ResumeOpt = None,
    chunk: ChunkOpt = None,
    option: OptionOpt = None,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Bots play the same deals (the same dice per frame and roll, the same cards): paired comparisons.

    Reports each bot's mean with its confidence interval, every paired
    difference with its interval (both at 95 per cent), and who scored more
    than whom (docs/cluster.md).
    """
    from pinsetter.bots.base import make_bot
    from pinsetter.experiments.tournament import summarise, tournament_plan
    from pinsetter.records import PlayerSpec

    try:
        options = parse_options(game, option)
        names = [item.strip() for item in bots.split(",")]
        specs = PlayerSpec.parse_list(",".join(n if n.startswith("bot:") else f"bot:{n}" for n in names))
        instance = get_game(game, options)
        for spec in specs:
            make_bot(spec.kind, instance)
        if seats not in (1, len(specs)):
            fail(
                _("--seats {seats}: give 1 (every bot alone on each deal) or the number of bots ({count})").format(
                    seats=seats, count=len(specs)
                )
            )
        instance.check_players(seats)
        plan = tournament_plan(game, options, specs, games, seed, seats, chunk)
    except (GameError, ValueError) as exc:
        fail(str(exc))
    data = summarise(plan, run_plan(plan, workers, cluster, resume, db, as_json))
    if as_json:
        emit_json(data)
        return
    from pinsetter.catalog import describe_variant

    typer.echo(tournament_report(data, describe_variant(game, plan.options)))


def tournament_report(data: dict[str, object], title: str) -> str:
    """The tournament as text, headed by the game's `title`: means, paired differences, the win matrix."""
    bots = data["bots"]
    differences = data["differences"]
    wins = data["wins"]
    assert isinstance(bots, list) and isinstance(differences, list) and isinstance(wins, dict)
    from rich.cells import cell_len

    def padded(name: str, cells: int) -> str:
        """A name padded to `cells` terminal cells (a kanji takes two)."""
        shown = visible(name)
        return shown + " " * max(0, cells - cell_len(shown))

    width = max(cell_len(visible(b["name"])) for b in bots) + 2
    lines = [
        _("{game}: {deals} deals, every bot on the same chance").format(game=title, deals=data["deals"])
        + (_(", {seats} seats per table").format(seats=data["seats"]) if data["seats"] != 1 else "")
    ]
    for b in bots:
        lines.append(
            "  "
            + _("{name} mean {mean:.2f} (95% CI {lo:.2f} to {hi:.2f}), {low} to {high}").format(
                name=padded(b["name"], width),
                mean=b["mean"],
                lo=b["ci95"][0],
                hi=b["ci95"][1],
                low=b["min"],
                high=b["max"],
            )
        )
    if differences:
        lines.append(_("paired differences (same deals):"))
        for d in differences:
            lines.append(
                "  "
                + _("{a} - {b}: {mean:+.2f} (95% CI {lo:+.2f} to {hi:+.2f})").format(
                    a=visible(d["a"]), b=visible(d["b"]), mean=d["mean"], lo=d["ci95"][0], hi=d["ci95"][1]
                )
            )
        where = _("at the same table") if data["wins_compare"] == "table" else _("on the same deal")
        lines.append(_("share of games where the row scored more than the column ({where}):").format(where=where))
        names = [b["name"] for b in bots]
        lines.append(" " * (width + 2) + "".join(visible(n)[:10].rjust(11) for n in names))
        for a in names:
            cells = "".join(("-" if a == b else f"{wins[a][b]:.3f}").rjust(11) for b in names)
            lines.append("  " + padded(a, width) + cells)
    return "\n".join(lines)


@app.command()
def solve(
    game: GameArg,
    no_cache: Annotated[bool, typer.Option("--no-cache", help=N_("recompute instead of using the disk cache"))] = False,
    option: OptionOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Solve a game with decisions: the optimal expected score (Rolling Pins)."""
    if game != "rolling-pins":
        fail(
            _(
                "no exact whole-game solver for {game}: rolling-pins is solved exactly; see `analyze` for "
                "the dice games and `hint bowling-solitaire` for the Solitaire expectimax"
            ).format(game=repr(game))
        )
    from pinsetter.solvers import rolling_pins as solver

    options = parse_options(game, option)
    try:
        instance = get_game(game, options)
    except GameError as exc:
        fail(str(exc))
    refused = solver.refusal(instance.options, options)
    if refused is not None:
        fail(refused)
    if instance.options.get("advanced"):
        solve_advanced(instance, no_cache, as_json)
        return
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
    message = _("{game}: optimal expected score {score} ({without} without tokens); {states} states, {seconds} s")
    typer.echo(
        message.format(
            game=game,
            score=f"{data['expected_score']:.10f}",
            without=f"{data['expected_score_no_tokens']:.10f}",
            states=data["states"],
            seconds=f"{data['seconds']:.3f}",
        )
    )


def solve_advanced(game: Game, no_cache: bool, as_json: bool) -> None:
    """The advanced game's optimum: from the cache, or solved with a progress bar on a terminal."""
    from pinsetter.games.rolling_pins import RollingPins
    from pinsetter.solvers import rolling_pins_advanced as advanced

    assert isinstance(game, RollingPins)
    variant = advanced.Variant.of_game(game)
    start = time.perf_counter()
    if as_json or not sys.stderr.isatty():
        solution = advanced.solution_for(variant, use_cache=not no_cache)
    else:
        from pinsetter.cli.progress import progress_bar

        with progress_bar() as bar:
            task = bar.add_task(_("solving the advanced game"), total=1.0)
            solution = advanced.solution_for(
                variant, use_cache=not no_cache, progress=lambda part: bar.advance(task, part)
            )
    data = {
        "game": game.id,
        "advanced": True,
        "auto_strike": "held" if variant.auto_held else "next",
        "sheet": str(game.sheet),
        "expected_score": solution.expected_score,
        "states": advanced.solved_states(variant),
        "solve_seconds": solution.seconds,
        "seconds": time.perf_counter() - start,
    }
    if as_json:
        emit_json(data)
        return
    message = _(
        "{game} (advanced): optimal expected score {score}; {states} states, solved in {solve} s ({seconds} s now)"
    )
    typer.echo(
        message.format(
            game=game.id,
            score=f"{data['expected_score']:.10f}",
            states=data["states"],
            solve=f"{solution.seconds:.0f}",
            seconds=f"{data['seconds']:.1f}",
        )
    )


@app.command()
def perft(
    game: GameArg,
    deal: Annotated[str | None, typer.Option(help="pins=v1,...,v10;piles=a,b,c,d,e|f,g,h|i,j")] = None,
    groups: Annotated[str, typer.Option(help=N_("connected or mutual"))] = "connected",
    as_json: JsonOpt = False,
) -> None:
    """Count a Bowling Solitaire deal's legal play sequences (exact move generation)."""
    from pinsetter.games.bowling_solitaire import GROUP_RULES, Deal
    from pinsetter.solvers.solitaire_perft import perft as count

    if game != "bowling-solitaire":
        fail(_("perft counts Bowling Solitaire deals (game bowling-solitaire)"))
    if deal is None:
        fail(_("give the deal to count: --deal 'pins=v1,...,v10;piles=a,b,c,d,e|f,g,h|i,j'"))
    if groups not in GROUP_RULES:
        fail(_("--groups must be connected or mutual, not {value}").format(value=repr(visible(groups))))
    try:
        result = count(Deal.parse(deal), groups)
    except GameError as exc:
        fail(_("--deal: {error}").format(error=exc))
    if as_json:
        emit_json(result.to_dict())
        return
    for key, value in result.to_dict().items():
        typer.echo(f"{key:>16}: {value}")
