"""Measure the continuation values of the Bowling Solitaire score objective.

Plays N seeded single frames with the expectimax player maximising pins and
reports E1 (pins of ball 1), E[ball 2 | no strike], P(strike) and E2 (pins of
the ball after ball 1: the second ball, or the next deal's first after a
strike). Usage: python benchmarks/solitaire_continuation.py [N] [groups]
"""

from __future__ import annotations

import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor

from pinsetter.bots.solitaire import ExpectimaxBot
from pinsetter.games.bowling_solitaire import BowlingSolitaire, Deal, deal_script


def one_frame(args: tuple[int, str]) -> tuple[int, int]:
    seed, rule = args
    game = BowlingSolitaire({"groups": rule, "frames": 2})
    bot = ExpectimaxBot(game, objective="pins")
    state = game.new_state()
    script = deal_script(Deal.random(random.Random(seed)))
    while len(state.pinfalls[0]) < 2 and not (state.pinfalls[0] and state.pinfalls[0][0] == 10):
        if state.is_chance_node():
            step = script(state)
            assert step is not None
            state.apply(step)
        else:
            state.apply(bot.choose(state, random.Random(0)))
    first = state.pinfalls[0][0]
    return first, (state.pinfalls[0][1] if first < 10 else -1)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    rule = sys.argv[2] if len(sys.argv) > 2 else "connected"
    with ProcessPoolExecutor(2) as pool:
        frames = list(pool.map(one_frame, [(seed, rule) for seed in range(n)], chunksize=20))
    firsts = [f for f, _ in frames]
    seconds = [s for _, s in frames if s >= 0]
    e1 = sum(firsts) / n
    p_strike = sum(1 for f in firsts if f == 10) / n
    e2_open = sum(seconds) / len(seconds)
    e2 = p_strike * e1 + (1 - p_strike) * e2_open
    sd = math.sqrt(sum((f - e1) ** 2 for f in firsts) / (n - 1))
    print(f"deals {n} groups {rule}")
    print(f"E1 = {e1:.4f} (se {sd / math.sqrt(n):.4f})  P(strike) = {p_strike:.4f}")
    print(f"E[ball 2 | no strike] = {e2_open:.4f}  E2 = {e2:.4f}")


if __name__ == "__main__":
    main()
