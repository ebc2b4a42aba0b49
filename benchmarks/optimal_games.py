"""CPU per game of the Rolling Pins optimal bot, the games `make bench` plays (issue 30, part 3).

Run: `PYTHONPATH=src .venv/bin/python benchmarks/optimal_games.py [GAMES]`. One warm-up game, then
GAMES games (`simulate.play_one`, seeds `game_seed(1, i)`), each timed with `time.process_time`;
it prints the median and mean in ms and the load average. For instruction counts, run it under
`valgrind --tool=callgrind` with 10 and with 60 games: the difference over 50 is a game's count,
without the start-up (docs/performance.md).
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from pinsetter.records import PlayerSpec
from pinsetter.simulate import game_seed, play_one


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    players = [PlayerSpec("bot", "optimal")]
    play_one("rolling-pins", {}, players, game_seed(1, 0), 0)  # loads the policy
    times = []
    for index in range(1, games + 1):
        start = time.process_time()
        play_one("rolling-pins", {}, players, game_seed(1, index), index)
        times.append(time.process_time() - start)
    median, mean = statistics.median(times) * 1e3, statistics.mean(times) * 1e3
    print(f"{games} games: median {median:.3f} ms, mean {mean:.3f} ms CPU; load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
