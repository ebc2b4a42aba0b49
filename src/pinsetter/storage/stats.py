"""Statistics over stored results, one series per game and rules, and where they stand against the exact odds.

A series is the results of one game played with the same options in play (`Game.options_in_play`:
frames, pins, basic or advanced, dice set, pin groups, shared dice, tokens...): scores of a
5-frame and a 10-frame game, or of the basic and the advanced game, are never averaged together.
Every number of a series (games, average, interval, best, worst, rates) is of the same scores.
"""

from __future__ import annotations

import json
from collections import defaultdict
from functools import lru_cache
from typing import Any

from pinsetter.catalog import describe_variant
from pinsetter.core.estimates import mean_interval
from pinsetter.i18n import _
from pinsetter.records import game_played
from pinsetter.solvers.reference import percent, reference
from pinsetter.storage.db import Storage

__all__ = ["FEWEST_FOR_INTERVAL", "HUMAN", "player_stats", "too_few_for_range"]

HUMAN = "human"  # a result's seat kind; any other kind is a bot's
BEST_GAMES = 5
# Scores a series needs for its interval (docs/history.md, "Interval"): with two to four the range is
# wider than one game's own spread (two scores: the mean +- 9 standard deviations) and says nothing.
FEWEST_FOR_INTERVAL = 5


def too_few_for_range() -> str:
    """What a series shows in place of its interval below FEWEST_FOR_INTERVAL scores, in the current
    language: the one wording of the `stats` command and the terminal's Statistics screen."""
    return _("too few games for a range: {count} needed").format(count=FEWEST_FOR_INTERVAL)


def _benchmark(game: str, options: dict[str, object], average: float) -> dict[str, Any] | None:
    """An average against the exact distribution or optimal player of the game with these options."""
    ref = reference(game, options)
    if ref is None or not ref.exact:
        return None
    if ref.distribution is not None:
        share = ref.beats(average)
        assert share is not None  # a distribution beats or not
        return {
            "against": ref.against,
            "exact_mean": ref.mean,
            "average_beats": share,
            "text": _("an average of {average} beats {share} of games (exact mean {mean})").format(
                average=f"{average:.1f}", share=percent(share), mean=f"{ref.mean:.2f}"
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
    storage: Storage,
    player: str | None = None,
    game: str | None = None,
    include_entered: bool = False,
    include_bots: bool = False,
) -> dict[str, Any]:
    """A player's (or everyone's) statistics: one block in `series` per game and options in play.

    Games whose chance was entered by hand count only with `include_entered`, bots' results
    only with `include_bots`; `entered_left_out` and `bots_left_out` say how many results were
    left out for each reason (entered first). `games` counts games, `results` scores (a game of
    three players: one game, three results), over all series.
    """
    every = storage.results_for(player, game, include_entered=True)
    seeded = every if include_entered else [r for r in every if r["chance"] != "entered"]
    rows = seeded if include_bots else [r for r in seeded if r["kind"] == HUMAN]
    by_series: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_series[row["game"], _in_play(row["game"], row["options"])].append(row)
    series = [_series(gid, json.loads(options), chunk, player) for (gid, options), chunk in by_series.items()]
    series.sort(key=lambda s: (s["game"], -s["results"], s["title"]))
    return {
        "player": player,
        "game": game,
        "include_entered": include_entered,
        "include_bots": include_bots,
        "games": len({r["game_id"] for r in rows}),  # a game of three players is one game, three results
        "results": len(rows),
        "entered_left_out": len(every) - len(seeded),
        "bots_left_out": len(seeded) - len(rows),
        "series": series,
    }


def _series(game: str, options: dict[str, object], rows: list[dict[str, Any]], player: str | None) -> dict[str, Any]:
    """One series' statistics; every figure is over the same rows (oldest first)."""
    scores = [r["score"] for r in rows]
    n = len(scores)
    mean = sum(scores) / n
    top = game_played(game, options).max_score
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
    # Never outside the scores a game can have; none from too few scores to say anything.
    interval = mean_interval(scores, low=0, high=top) if n >= FEWEST_FOR_INTERVAL else None
    best = sorted(rows, key=lambda r: (-r["score"], str(r["created"]), r["game_id"]))[:BEST_GAMES]
    data: dict[str, Any] = {
        "game": game,
        "options": options,
        "title": describe_variant(game, options),
        "games": len({r["game_id"] for r in rows}),
        "results": n,
        "max_score": top,
        "average": mean,
        # Student's t, clipped to [0, max_score]; null below FEWEST_FOR_INTERVAL scores.
        "ci95": list(interval) if interval is not None else None,
        "best": max(scores),
        "worst": min(scores),
        "strike_rate": sum(r["strikes"] for r in rows) / frames if frames else 0.0,
        "spare_rate": sum(r["spares"] for r in rows) / frames if frames else 0.0,
        "perfect_games": sum(1 for s in scores if s == top),
        "last_scores": scores[-10:],
        # One player's scores in time; everyone's together would read the gaps between the
        # players of one game as a trend.
        "trend_per_game": slope if player else None,
        "scores": scores,
        "best_games": [
            {"score": r["score"], "name": r["name"], "date": str(r["created"])[:10], "game_id": r["game_id"]}
            for r in best
        ],
    }
    bench = _benchmark(game, options, mean)  # the odds of these very options: 2 frames against 2 frames
    if bench is not None:
        data["benchmark"] = bench
    return data


@lru_cache(maxsize=256)
def _in_play(game_id: str, options_json: str) -> str:
    """A stored game's options in play (`Game.options_in_play`, defaults filled in) as JSON with sorted
    keys: equal text, one series (`{}` and `{"frames": 10}` are the same game)."""
    return json.dumps(game_played(game_id, json.loads(options_json)).options_in_play(), sort_keys=True)
