"""What a Bowling Solitaire frame not yet dealt is worth to the Expert bot, for the game review's path.

A review's path (`pinsetter.review`) says, after each step, the expected final score: the points
certain, the deal being played as the expectimax values it (its strike or spare bonus from later
frames estimated by the continuation values), and every frame not yet dealt at this value: the
mean over N seeded fresh deals (deal i is `Deal.random(random.Random(i))`, first frame, no bonus
pending) of the expectimax's value of the deal once it lies face up. Where ball 1 has no legal
play the deal goes on as dealt until a decision (or its end), so each deal's figure is an
unbiased estimate of its value. Printed with its 95% half-width.

Usage: python benchmarks/solitaire_frame_value.py [N] [groups] (defaults: 1000 connected). One process.
"""

from __future__ import annotations

import math
import random
import sys
import time

from pinsetter.bots.solitaire import ExpectimaxBot
from pinsetter.core.scoring import bonus_weights
from pinsetter.games.bowling_solitaire import BowlingSolitaire, Deal, SolitaireState, deal_script


def deal_value(deal: Deal, game: BowlingSolitaire, bot: ExpectimaxBot) -> float:
    """The expectimax's value of the first frame dealt from `deal`, once there is a decision (or the deal's end)."""
    state = game.new_state()
    assert isinstance(state, SolitaireState)
    script = deal_script(deal)
    while state.deals == 1 and not state.is_terminal():
        if state.is_chance_node():
            step = script(state)
            assert step is not None
            state.apply(step)
            continue
        values = bot.evaluate(state)
        assert values
        return values[0][1]
    return float(bonus_weights(state.pinfalls[0], game.lane)[0])  # no decision in the whole deal: its pins


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rule = sys.argv[2] if len(sys.argv) > 2 else "connected"
    game = BowlingSolitaire({"groups": rule, "frames": 2})
    bot = ExpectimaxBot(game)
    start = time.perf_counter()
    values = [deal_value(Deal.random(random.Random(i)), game, bot) for i in range(count)]
    mean = sum(values) / count
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (count - 1))
    half = 1.96 * sd / math.sqrt(count)
    seconds = time.perf_counter() - start
    print(f"{rule}: {count} deals, frame value {mean:.4f} +- {half:.4f} (sd {sd:.3f}), {seconds:.0f} s")


if __name__ == "__main__":
    main()
