"""Statistics over stored results, and where they stand against the exact odds."""

from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Any

from pinsetter.i18n import _
from pinsetter.records import settled_options
from pinsetter.solvers.reference import reference
from pinsetter.storage.db import Storage

__all__ = ["player_stats"]

Z95 = 1.959963984540054


def _benchmark(game: str, options: dict[str, object], average: float) -> dict[str, Any] | None:
    """An average against the exact distribution or optimal player of the game with these options."""
    ref = reference(game, options)
    if ref is None or not ref.exact:
        return None
    if ref.distribution is not None:
        share = ref.beats(average)
        return {
            "against": ref.against,
            "exact_mean": ref.mean,
            "average_beats": share,
            "text": _("an average of {average} beats {share} of games (exact mean {mean})").format(
                average=f"{average:.1f}", share=f"{share:.0%}", mean=f"{ref.mean:.2f}"
            ),
        }
    return {
        "against": ref.against,
        "optimal_mean": ref.mean,
        "share_of_optimal": average / ref.mean,
        "text": _("{share} of the optimal player's {mean} (basic game)").format(
            share=f"{average / ref.mean:.0%}", mean=f"{ref.mean:.2f}"
        ),
    }


def player_stats(
    storage: Storage, player: str | None = None, game: str | None = None, include_entered: bool = False
) -> dict[str, Any]:
    """A player's statistics; games whose chance was entered by hand count only with `include_entered`.

    Without `game`, a player of several games gets `by_game` (one block per game) and no
    overall average: different games' scores are never averaged together. `games` counts games,
    `results` scores (a game of three players: one game, three results); the trend is one
    player's only, and the odds are those of the options every result was played with (none
    where they differ).

    `entered_left_out` is how many finished results were left out for that reason (0 when included).
    """
    every = storage.results_for(player, game, include_entered=True)
    rows = every if include_entered else [r for r in every if r["chance"] != "entered"]
    games_played = sorted({r["game"] for r in rows})
    if game is None and len(games_played) > 1:
        # Scores of different games do not add up to one average: one block of statistics per game.
        by_game = {gid: player_stats(storage, player, gid, include_entered) for gid in games_played}
        return {
            "player": player,
            "game": None,
            "games": len({r["game_id"] for r in rows}),
            "results": len(rows),
            "include_entered": include_entered,
            "entered_left_out": len(every) - len(rows),
            "by_game": by_game,
        }
    scores = [r["score"] for r in rows]
    data: dict[str, Any] = {
        "player": player,
        "game": game or (games_played[0] if games_played else None),  # the one game these results are of
        "games": len({r["game_id"] for r in rows}),  # a game of three players is one game, three results
        "results": len(scores),
        "include_entered": include_entered,
        "entered_left_out": len(every) - len(rows),
    }
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
        # One game has no spread to measure: no interval rather than a zero-width one.
        "ci95": [mean - Z95 * sd / math.sqrt(n), mean + Z95 * sd / math.sqrt(n)] if n > 1 else None,
        "best": max(scores),
        "worst": min(scores),
        "strike_rate": sum(r["strikes"] for r in rows) / frames if frames else 0.0,
        "spare_rate": sum(r["spares"] for r in rows) / frames if frames else 0.0,
        "perfect_games": sum(1 for s in scores if s == 300),
        "last_scores": scores[-10:],
        # One player's scores in time; everyone's together would read the gaps between the
        # players of one game as a trend.
        "trend_per_game": slope if player else None,
        "scores": scores,
    }
    games = {r["game"] for r in rows}
    if len(games) == 1:
        gid = games.pop()
        played_with = {_settled(gid, r["options"]) for r in rows}
        if len(played_with) == 1:  # a 2-frame game is not measured against 10-frame odds
            bench = _benchmark(gid, json.loads(played_with.pop()), mean)
            if bench is not None:
                data["benchmark"] = bench
    return data


@lru_cache(maxsize=256)
def _settled(game_id: str, options_json: str) -> str:
    """A stored game's options, every one named, as JSON with sorted keys: equal text, the same game."""
    return json.dumps(settled_options(game_id, json.loads(options_json)), sort_keys=True)
