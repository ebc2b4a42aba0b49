"""Bot tournaments: every bot plays the same deals, so bots are compared with paired samples.

Deal i of a tournament with seed S is played by every bot with the seed of
game i, and chance is drawn by position (`pinsetter.core.draws`): the same dice
for the same frame and roll, the same Solitaire deals. The difference between
two bots on one deal is therefore free of most of the luck, and its mean over
the deals has a much narrower confidence interval than the difference of two
independent means. With `seats` equal to the number of bots, each deal is
played at one table once per rotation of the seats; a bot's score on a deal is
then its mean over those games, and the win matrix counts, for every pair,
how often one finished above the other at the table.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from pinsetter.experiments.plan import Plan, Row, default_chunk
from pinsetter.records import PlayerSpec
from pinsetter.simulate import mean_ci95

__all__ = ["summarise", "tournament_plan"]


def tournament_plan(
    game_id: str,
    options: dict[str, object],
    bots: list[PlayerSpec],
    games: int,
    seed: int,
    seats: int = 1,
    chunk: int | None = None,
) -> Plan:
    from pinsetter.games.registry import get_game

    options = get_game(game_id, options).options_text()
    return Plan("tournament", game_id, options, tuple(bots), games, seed, chunk or default_chunk(games), seats)


def summarise(plan: Plan, rows: list[Row]) -> dict[str, Any]:
    """Each bot's mean with its 95% CI, every paired difference with its CI, and the win matrix."""
    names = [p.name for p in plan.players]
    count = len(names)
    per_deal: list[list[float]] = [[] for _ in range(count)]
    every: list[list[int]] = [[] for _ in range(count)]
    wins = [[0] * count for _ in range(count)]
    tables = 0
    for _deal, _seed, games in rows:
        for scores in games:
            tables += 1
            for a in range(count):
                every[a].append(scores[a])
                for b in range(count):
                    if scores[a] > scores[b]:
                        wins[a][b] += 1
        for bot in range(count):
            per_deal[bot].append(sum(scores[bot] for scores in games) / len(games))
    bots = []
    for bot, spec in enumerate(plan.players):
        mean, lo, hi = mean_ci95(per_deal[bot])
        bots.append(
            {
                "name": spec.name,
                "bot": spec.kind,
                "mean": mean,
                "ci95": [lo, hi],
                "min": min(every[bot]),
                "max": max(every[bot]),
            }
        )
    differences = []
    for a, b in combinations(range(count), 2):
        paired = [x - y for x, y in zip(per_deal[a], per_deal[b], strict=True)]
        mean, lo, hi = mean_ci95(paired)
        differences.append({"a": names[a], "b": names[b], "mean": mean, "ci95": [lo, hi]})
    return {
        "game": plan.game,
        "options": plan.params()["options"],
        "deals": len(rows),
        "seats": plan.seats,
        "games_played": tables if plan.seats > 1 else tables * count,
        "bots": bots,
        "differences": differences,
        # wins[a][b]: the share of games at one table (seats > 1), or of deals (seats 1), where a scored more than b.
        "wins_compare": "table" if plan.seats > 1 else "deal",
        "wins": {names[a]: {names[b]: wins[a][b] / tables for b in range(count) if b != a} for a in range(count)},
    }
