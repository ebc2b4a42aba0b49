"""The `win` bot against the expected-score `optimal` bot in two-player Rolling Pins, paired deals.

Deal d is played four times with the same seed (chance drawn by position: the same dice for the
same player, frame and roll): the win bot in seat 1 then seat 2 against the optimal bot, and the
optimal bot against itself (the control) with the same seats. The control's games differ from
the win bot's only where the win bot chose otherwise, so the paired difference of win rates
(win bot minus control, deal by deal, both seats averaged) is free of most of the luck.

A "win" is finishing strictly ahead; a tie is neither. Each line: the deal, the win bot's wins
so far with their rate and 95% interval, the control's, and the paired difference with its 95%
interval; the mean scores last. Keep runs short on a shared machine: a few hundred deals.
Usage: python benchmarks/rolling_pins_win.py [deals] [seed] [shared]   (shared: 0 turn-based, 1 shared dice)
"""

from __future__ import annotations

import os
import sys
import time

from pinsetter.core.estimates import mean_interval
from pinsetter.experiments.plan import game_seed, play_scores
from pinsetter.games.registry import get_game
from pinsetter.records import PlayerSpec

WIN = PlayerSpec("Win", "win")
OPTIMAL = PlayerSpec("Optimal", "optimal")
CONTROL = PlayerSpec("Optimal 2", "optimal")


def interval(values: list[float], low: float = 0.0) -> str:
    """The mean and its 95% interval, as percentages (clipped to what a rate, or a difference, can be)."""
    mean = sum(values) / len(values)
    found = mean_interval(values, low=low, high=1.0)
    low, high = found if found is not None else (mean, mean)
    return f"{mean:.1%} [{low:.1%}, {high:.1%}]"


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 29
    shared = len(sys.argv) > 3 and sys.argv[3] == "1"
    game = get_game("rolling-pins", {"shared_dice": shared})
    print(f"load {os.getloadavg()[0]:.2f}, {deals} deals, seed {seed}, shared dice {shared}", flush=True)
    start = time.perf_counter()
    mine: list[float] = []
    control: list[float] = []
    paired: list[float] = []
    ties = [0, 0]
    scores: list[tuple[int, int]] = []
    for deal in range(deals):
        deal_seed = game_seed(seed, deal)
        per_deal = []
        for seat in (0, 1):
            other = 1 - seat
            played = play_scores(game, [WIN, OPTIMAL] if seat == 0 else [OPTIMAL, WIN], deal_seed)[0]
            base = play_scores(game, [CONTROL, OPTIMAL] if seat == 0 else [OPTIMAL, CONTROL], deal_seed)[0]
            won, won_before = float(played[seat] > played[other]), float(base[seat] > base[other])
            ties[0] += played[seat] == played[other]
            ties[1] += base[seat] == base[other]
            mine.append(won)
            control.append(won_before)
            per_deal.append(won - won_before)
            scores.append((played[seat], base[seat]))
        paired.append(sum(per_deal) / 2)
        if len(paired) > 1:
            print(
                f"deal {deal + 1}: win bot {int(sum(mine))}/{len(mine)} {interval(mine)}"
                f"  control {int(sum(control))}/{len(control)} {interval(control)}"
                f"  difference {interval(paired, low=-1.0)}",
                flush=True,
            )
    n = len(scores)
    print(
        f"mean score: win bot {sum(s for s, _ in scores) / n:.2f}, control {sum(c for _, c in scores) / n:.2f};"
        f" ties {ties[0]} and {ties[1]} of {n}; {time.perf_counter() - start:.0f} s, load {os.getloadavg()[0]:.2f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
