"""Mean game score of a Bowling Solitaire bot, printed game by game so that a run can stop early.

Game g is played from `random.Random(seed * 100_000 + g)` (10 frames, groups as given). Each
line holds the game's score and the running mean with its 95% half-width; strike and spare
rates are per frame among frames 1-9. Usage:
python benchmarks/solitaire_bots.py [games] [bot] [groups] [seed]   (one process)
"""

from __future__ import annotations

import math
import random
import sys

from pinsetter.bots.base import make_bot
from pinsetter.games.bowling_solitaire import BowlingSolitaire


def marks(balls: list[int]) -> tuple[int, int]:
    """Strikes and spares among frames 1-9 of a pinfall sequence."""
    strikes = spares = 0
    i = 0
    for _ in range(9):
        if balls[i] == 10:
            strikes += 1
            i += 1
        else:
            spares += balls[i] + balls[i + 1] == 10
            i += 2
    return strikes, spares


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    name = sys.argv[2] if len(sys.argv) > 2 else "expectimax"
    rule = sys.argv[3] if len(sys.argv) > 3 else "connected"
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 11
    game = BowlingSolitaire({"groups": rule})
    bot = make_bot(name, game)
    scores: list[int] = []
    strikes = spares = 0
    for g in range(games):
        rng = random.Random(seed * 100_000 + g)
        state = game.new_state()
        while not state.is_terminal():
            state.apply(state.sample_chance(rng) if state.is_chance_node() else bot.choose(state, rng))
        scores.append(state.scores()[0])
        s, p = marks(state.pinfalls[0])
        strikes, spares = strikes + s, spares + p
        n = len(scores)
        mean = sum(scores) / n
        half = 1.96 * math.sqrt(sum((x - mean) ** 2 for x in scores) / (n - 1) / n) if n > 1 else math.inf
        print(
            f"game {n}: {scores[-1]}  mean {mean:.2f} +- {half:.2f}  "
            f"strikes {strikes / (9 * n):.1%} spares {spares / (9 * n):.1%}",
            flush=True,
        )


if __name__ == "__main__":
    main()
