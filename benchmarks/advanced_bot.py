"""The advanced optimal bot's mean score against the solved optimum (docs/rolling-pins.md).

Game g is played through the engine from `random.Random(seed * 100_000 + g)`, the bot
choosing every move by the exact values (`rolling_pins_advanced.Evaluator`). Each line
holds the game's score and the running mean with its 95% interval (Student's t); the
last line says whether the solved value lies in it. The game must be solved already
(benchmarks/advanced_solve.py, or `pinsetter solve`), unless it has three frames or
fewer (solved at once). Usage:
python benchmarks/advanced_bot.py [games] [seed] [--auto-strike next|held] [--frames N]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from pinsetter.bots.rolling_pins import OptimalBot
from pinsetter.core.estimates import mean_interval
from pinsetter.games.registry import get_game
from pinsetter.games.rolling_pins import RollingPins
from pinsetter.solvers import rolling_pins_advanced as advanced


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("games", type=int, nargs="?", default=100)
    parser.add_argument("seed", type=int, nargs="?", default=28)
    parser.add_argument("--auto-strike", choices=("next", "held"), default="next")
    parser.add_argument("--frames", type=int, default=10)
    args = parser.parse_args()
    options = {"advanced": "true", "auto_strike": args.auto_strike, "frames": str(args.frames)}
    game = get_game("rolling-pins", options)
    assert isinstance(game, RollingPins)
    variant = advanced.Variant.of_game(game)
    solution = advanced.cached(variant)
    if solution is None and args.frames > 3:
        sys.exit("solve the game first: python benchmarks/advanced_solve.py")
    bot = OptimalBot(game)
    assert bot.exact is not None
    solved = bot.exact.solution.expected_score
    print(f"solved value {solved!r}", flush=True)
    scores: list[int] = []
    start = time.perf_counter()
    for g in range(args.games):
        rng = random.Random(args.seed * 100_000 + g)
        state = game.new_state(1)
        while not state.is_terminal():
            state.apply(state.sample_chance(rng) if state.is_chance_node() else bot.choose(state, rng))
        scores.append(state.scores()[0])
        mean = sum(scores) / len(scores)
        interval = mean_interval(scores)
        shown = f"[{interval[0]:.2f}, {interval[1]:.2f}]" if interval else "-"
        elapsed = time.perf_counter() - start
        print(f"game {len(scores)}: {scores[-1]}  mean {mean:.2f}  95% {shown}  ({elapsed:.0f} s)", flush=True)
    interval = mean_interval(scores)
    if interval is not None:
        inside = interval[0] <= solved <= interval[1]
        print(f"solved value {solved:.4f} {'inside' if inside else 'OUTSIDE'} the 95% interval {interval}")


if __name__ == "__main__":
    main()
