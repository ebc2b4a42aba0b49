"""Benchmarks (run with `make bench`); figures go into the issue notes, never into assertions."""

from __future__ import annotations

from typing import Any

from pinsetter.core.scoring import score
from pinsetter.games.registry import get_game
from pinsetter.records import PlayerSpec
from pinsetter.simulate import play_one
from pinsetter.solvers.distribution import analyze


def test_score_a_full_game(benchmark: Any) -> None:
    benchmark(score, [10, 7, 3, 9, 0, 10, 0, 8, 8, 2, 0, 6, 10, 10, 10, 8, 1])


def test_exact_distribution_tenpins(benchmark: Any) -> None:
    benchmark(lambda: analyze(get_game("tenpins")))  # type: ignore[arg-type]


def test_exact_distribution_bowling_dice(benchmark: Any) -> None:
    benchmark(lambda: analyze(get_game("bowling-dice")))  # type: ignore[arg-type]


def test_engine_game_tenpins(benchmark: Any) -> None:
    players = [PlayerSpec("bot", "random")]
    benchmark(lambda: play_one("tenpins", {}, players, 1, 0))


def test_engine_game_bowling_dice(benchmark: Any) -> None:
    players = [PlayerSpec("bot", "random")]
    benchmark(lambda: play_one("bowling-dice", {}, players, 1, 0))


def test_rolling_pins_cold_solve(benchmark: Any) -> None:
    from pinsetter.solvers.rolling_pins import solve

    benchmark.pedantic(solve, rounds=3, iterations=1)


def test_rolling_pins_optimal_game(benchmark: Any) -> None:
    players = [PlayerSpec("bot", "optimal")]
    play_one("rolling-pins", {}, players, 1, 0)  # solve (or load) the policy first
    benchmark(lambda: play_one("rolling-pins", {}, players, 1, 0))
