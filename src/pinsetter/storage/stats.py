"""Statistics over stored results, and where they stand against the exact odds."""

from __future__ import annotations

import math
from typing import Any

from pinsetter.storage.db import Storage

__all__ = ["player_stats"]

Z95 = 1.959963984540054


def _benchmark(game: str, average: float) -> dict[str, Any] | None:
    """The exact distribution or the optimal player of a game, against an average score."""
    from pinsetter.games.pure_chance import PureChanceGame
    from pinsetter.games.registry import get_game

    instance = get_game(game)
    if isinstance(instance, PureChanceGame):
        from pinsetter.solvers.distribution import analyze

        dist = analyze(instance)
        share = dist.cdf(math.ceil(average) - 1)  # P(a game scores less than the average)
        return {
            "against": "exact distribution",
            "exact_mean": dist.mean,
            "average_beats": share,
            "text": f"an average of {average:.1f} beats {share:.0%} of games (exact mean {dist.mean:.2f})",
        }
    if game == "rolling-pins":
        from pinsetter.solvers.rolling_pins import policy_for

        optimal = policy_for().expected_score
        return {
            "against": "optimal player",
            "optimal_mean": optimal,
            "share_of_optimal": average / optimal,
            "text": f"{average / optimal:.0%} of the optimal player's {optimal:.2f} (basic game)",
        }
    return None


def player_stats(storage: Storage, player: str | None = None, game: str | None = None) -> dict[str, Any]:
    rows = storage.results_for(player, game)
    scores = [r["score"] for r in rows]
    data: dict[str, Any] = {"player": player, "game": game, "games": len(scores)}
    if not scores:
        return data
    n = len(scores)
    mean = sum(scores) / n
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1)) if n > 1 else 0.0
    frames = sum(r["frames"] for r in rows)
    recent = scores[-20:]
    slope = 0.0
    if len(recent) > 1:
        xs = range(len(recent))
        x_mean = (len(recent) - 1) / 2
        y_mean = sum(recent) / len(recent)
        slope = sum((x - x_mean) * (y - y_mean) for x, y in zip(xs, recent, strict=True)) / sum(
            (x - x_mean) ** 2 for x in xs
        )
    data |= {
        "average": mean,
        "ci95": [mean - Z95 * sd / math.sqrt(n), mean + Z95 * sd / math.sqrt(n)],
        "best": max(scores),
        "worst": min(scores),
        "strike_rate": sum(r["strikes"] for r in rows) / frames if frames else 0.0,
        "spare_rate": sum(r["spares"] for r in rows) / frames if frames else 0.0,
        "perfect_games": sum(1 for s in scores if s == 300),
        "last_scores": scores[-10:],
        "trend_per_game": slope,
        "scores": scores,
    }
    games = {r["game"] for r in rows}
    if len(games) == 1:
        bench = _benchmark(games.pop(), mean)
        if bench is not None:
            data["benchmark"] = bench
    return data
