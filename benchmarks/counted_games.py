"""Instructions per game, counted by callgrind for the games alone (issue 30, part 3).

Run:

    PYTHONPATH=src valgrind --tool=callgrind --toggle-collect=starmap_next \\
        .venv/bin/python benchmarks/counted_games.py rolling-pins optimal 100 --warm-up 100

`make bench`'s games (`simulate.play_one`, seeds `game_seed(1, i)`, one seat): the warm-up games
(0 to WARM_UP) are played first, uncounted, then GAMES games inside one C call
(`itertools.starmap`), so that `--toggle-collect=starmap_next` counts those games and nothing
else (no start-up, no imports, no warm-up). The total callgrind prints over GAMES is a game's
count. Instruction counts do not move with the machine's load, unlike its times
(docs/performance.md, "Measuring on this machine").
"""

from __future__ import annotations

import argparse
import collections
import itertools

from pinsetter.records import PlayerSpec
from pinsetter.simulate import game_seed, play_one


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("bot")
    parser.add_argument("games", type=int)
    parser.add_argument("--warm-up", type=int, default=0, help="games played first, not counted (memos fill)")
    args = parser.parse_args()
    options: dict[str, object] = {}
    players = [PlayerSpec("bot", args.bot)]
    for index in range(args.warm_up + 1):  # game 0 at least: loads the policy, compiles (or loads) compiled code
        play_one(args.game, options, players, game_seed(1, index), index)
    first = args.warm_up + 1
    counted = [(args.game, options, players, game_seed(1, i), i) for i in range(first, first + args.games)]
    collections.deque(itertools.starmap(play_one, counted), maxlen=0)


if __name__ == "__main__":
    main()
