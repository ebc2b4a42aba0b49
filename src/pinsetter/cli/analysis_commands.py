"""Commands about numbers: scoring a line, exact odds, simulation, solving, perft."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from pinsetter.cli.common import (
    MAX_GAMES,
    GameArg,
    JsonOpt,
    OptionOpt,
    app,
    emit_json,
    fail,
    output_path,
    parse_options,
    whole_number,
)
from pinsetter.core.game import GameError
from pinsetter.core.scoring import ScoringError, parse_line, score
from pinsetter.core.seeds import SEED_MAX
from pinsetter.games.registry import get_game
from pinsetter.i18n import N_, _
from pinsetter.records import PlayerSpec
from pinsetter.ui.sheet import render_sheets
from pinsetter.usertext import visible

PLOT_SUFFIXES = (".png", ".svg", ".pdf")


@app.command("score", context_settings={"ignore_unknown_options": True})
def score_cmd(
    balls: Annotated[list[str], typer.Argument(help=N_("pinfalls: X 7/ 9- ... or whole numbers 10 7 3 ..."))],
    as_json: JsonOpt = False,
) -> None:
    """Score a pinfall sequence and print the scoresheet.

    A line of whole numbers gives one ball per number (`10 7 3`); a line with
    marks gives one ball per character in each frame (`X 7/ 9- 81`).
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
) -> None:
    """Exact final-score distribution of a pure-chance game (no simulation)."""
    from pinsetter.games.pure_chance import PureChanceGame
    from pinsetter.solvers.distribution import analyze as exact

    output_path(plot, "--plot", PLOT_SUFFIXES)
    pairs = list(option or [])
    if dice is not None:
        pairs.append(f"dice={dice}")
    try:
        instance = get_game(game, parse_options(game, pairs))
    except GameError as exc:
        fail(str(exc))
    if not isinstance(instance, PureChanceGame):
        fail(_("{game} has decisions; use `pinsetter solve {game}` or `simulate`").format(game=game))
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
        typer.echo(_("plot written to {file}").format(file=visible(str(plot))))


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
    workers: Annotated[int, typer.Option(help=N_("worker processes"), parser=whole_number(1, 256))] = 1,
    option: OptionOpt = None,
    as_json: JsonOpt = False,
    out: Annotated[Path | None, typer.Option(help=N_("CSV with one row per game"))] = None,
) -> None:
    """Play many complete games through the engine and summarise the scores."""
    from pinsetter.bots.base import make_bot
    from pinsetter.simulate import simulate as run

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
    except (GameError, ValueError) as exc:
        fail(str(exc))
    if as_json or not sys.stderr.isatty():
        summary = run(game, options, specs, games, seed, workers)
    else:
        from rich.progress import Progress

        with Progress(transient=True) as progress:
            task = progress.add_task(_("{game}: {count} games").format(game=game, count=games), total=games)
            summary = run(game, options, specs, games, seed, workers, progress=lambda n: progress.advance(task, n))
    if out is not None:
        import csv

        try:
            with out.open("w", newline="", encoding="utf-8") as handle:
                writer = csv.writer(handle)
                writer.writerow(["game", "seed", *[p.name for p in specs]])
                for r in summary.results:
                    writer.writerow([r.index, r.seed, *r.scores])
        except OSError as exc:
            fail(f"--out {visible(str(out))}: {exc.strerror}")
    if as_json:
        emit_json(summary.to_dict())
        return
    from pinsetter.ui.text import simulation_report

    typer.echo(simulation_report(summary))


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

    try:
        instance = get_game(game, parse_options(game, option))
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


@app.command()
def perft(
    game: GameArg,
    deal: Annotated[str, typer.Option(help="pins=v1,...,v10;piles=a,b,c,d,e|f,g,h|i,j")],
    groups: Annotated[str, typer.Option(help=N_("connected or mutual"))] = "connected",
    as_json: JsonOpt = False,
) -> None:
    """Count a Bowling Solitaire deal's legal play sequences (exact move generation)."""
    from pinsetter.games.bowling_solitaire import GROUP_RULES, Deal
    from pinsetter.solvers.solitaire_perft import perft as count

    if game != "bowling-solitaire":
        fail(_("perft counts Bowling Solitaire deals (game bowling-solitaire)"))
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
