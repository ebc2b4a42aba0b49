"""Benchmarks (run with `make bench`); figures go into the issue notes, never into assertions.

The game benchmarks measure what `simulate` does per game (`simulate.play_one`: `Match.new`
then `run_bots`), one game per call, each call the next game of a simulation with seed 1 (never
the same game twice: memos must earn their keep on new games, as in a long run).
Targets of issues 15 and 30 and the before/after figures are in docs/performance.md.
"""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from collections.abc import Callable
from typing import Any

from pinsetter.core.scoring import score
from pinsetter.games.registry import get_game
from pinsetter.records import PlayerSpec
from pinsetter.simulate import game_seed, play_one
from pinsetter.solvers.distribution import analyze

HINT_DEAL = "pins=6,10,9,8,1,9,6,2,2,5;piles=3,4,3,10,4|8,5,1|7,7"


def games_of(game_id: str, bot: str, options: dict[str, object] | None = None) -> Callable[[], object]:
    """One whole game per call, each with the next of the seeds."""
    players = [PlayerSpec("bot", bot)]
    indices = itertools.count()

    def one() -> object:
        index = next(indices)
        return play_one(game_id, options or {}, players, game_seed(1, index), index)

    one()  # warm up: solve (or load) a policy, compile (or load) compiled code
    return one


def test_score_a_full_game(benchmark: Any) -> None:
    benchmark(score, [10, 7, 3, 9, 0, 10, 0, 8, 8, 2, 0, 6, 10, 10, 10, 8, 1])


def test_exact_distribution_tenpins(benchmark: Any) -> None:
    benchmark(lambda: analyze(get_game("tenpins")))  # type: ignore[arg-type]


def test_exact_distribution_bowling_dice(benchmark: Any) -> None:
    benchmark(lambda: analyze(get_game("bowling-dice")))  # type: ignore[arg-type]


def test_engine_game_tenpins(benchmark: Any) -> None:
    """Target: under 0.2 ms a game (0.66 ms before issue 15, 0.29 ms before issue 30)."""
    benchmark(games_of("tenpins", "random"))


def test_engine_game_bowling_dice(benchmark: Any) -> None:
    """Target: under 0.3 ms a game (1.43 ms before issue 15, 0.38 ms before issue 30)."""
    benchmark(games_of("bowling-dice", "random"))


def test_rolling_pins_cold_solve(benchmark: Any) -> None:
    from pinsetter.solvers.rolling_pins import solve

    benchmark.pedantic(solve, rounds=3, iterations=1)


def test_rolling_pins_optimal_game(benchmark: Any) -> None:
    """Target: under 4 ms a game (19 ms before issue 15, 5.8 ms before issue 30)."""
    benchmark(games_of("rolling-pins", "optimal"))


def test_rolling_pins_greedy_game(benchmark: Any) -> None:
    """Target: under 2 ms a game (issue 30)."""
    benchmark(games_of("rolling-pins", "greedy"))


def test_solitaire_greedy_game(benchmark: Any) -> None:
    """Target: under 2 ms a game (2.7 ms before issue 30)."""
    benchmark(games_of("bowling-solitaire", "greedy"))


def test_solitaire_expectimax_fresh_deal(benchmark: Any) -> None:
    """A fresh deal searched whole (its exact value), as `benchmarks/solitaire_expectimax.py` times it.

    40 seeded deals, one per round; the median is the figure (target: 2x faster than before).
    """
    from pinsetter.games.bowling_solitaire import BowlingSolitaire, Deal, SolitaireState, deal_script
    from pinsetter.solvers.solitaire import PINS_OBJECTIVE, Evaluator, Position

    game = BowlingSolitaire({"groups": "connected"})

    def dealt(seed: int) -> SolitaireState:
        state = game.new_state()
        script = deal_script(Deal.random(random.Random(seed)))
        while state.is_chance_node():
            step = script(state)
            assert step is not None
            state.apply(step)
        return state

    deals = [state for state in map(dealt, range(60)) if not state.pinfalls[0]][:41]
    first = deals.pop()
    Evaluator(tuple(first.table.pins), "connected", PINS_OBJECTIVE).value(Position.from_table(first.table))  # compile
    states = iter(deals)

    def setup() -> tuple[tuple[SolitaireState], dict[str, Any]]:
        return (next(states),), {}

    def search(state: SolitaireState) -> float:
        return Evaluator(tuple(state.table.pins), "connected", PINS_OBJECTIVE).value(Position.from_table(state.table))

    benchmark.pedantic(search, setup=setup, rounds=40, iterations=1)


def test_startup_hint_command(benchmark: Any) -> None:
    """`pinsetter hint bowling-solitaire --deal ...` as a whole command: Python start, imports, search.

    Target: under 0.5 s on an idle machine (about 0.9 s before issue 15).
    """
    command = [sys.executable, "-m", "pinsetter.cli.app", "hint", "bowling-solitaire", "--deal", HINT_DEAL]
    subprocess.run(command, check=True, capture_output=True)  # compiled code into the cache first
    benchmark.pedantic(lambda: subprocess.run(command, check=True, capture_output=True), rounds=7, iterations=1)
