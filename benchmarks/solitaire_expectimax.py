"""Time the Bowling Solitaire expectimax: exact evaluation of fresh deals, and every decision of
played frames (later decisions of a deal reuse its memo). Usage:
python benchmarks/solitaire_expectimax.py [deals]"""

from __future__ import annotations

import random
import sys
import time

from solitaire_expectimax_games import spread

from pinsetter.bots.solitaire import ExpectimaxBot
from pinsetter.games.bowling_solitaire import BowlingSolitaire, Deal, deal_script
from pinsetter.solvers.solitaire import PINS_OBJECTIVE, Evaluator, Position


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    # Compile (or load the compiled cache) before timing: numba compiles on the first search, so the
    # warm-up searches a real deal (seed -1, never timed below). Constructing an Evaluator compiles
    # nothing, and pins no deck can deal, as (1,) * 10 once was, are refused (the search ran away).
    warm = Deal.random(random.Random(-1))
    warm_game = BowlingSolitaire({"groups": "connected", "frames": 2})
    warm_state = warm_game.new_state()
    warm_script = deal_script(warm)
    while warm_state.is_chance_node():
        step = warm_script(warm_state)
        assert step is not None
        warm_state.apply(step)
    Evaluator(tuple(warm_state.table.pins), "connected", PINS_OBJECTIVE).value(Position.from_table(warm_state.table))
    for rule in ("connected", "mutual"):
        fresh: list[float] = []
        decisions: list[float] = []
        game = BowlingSolitaire({"groups": rule, "frames": 2})
        for seed in range(deals):
            deal = Deal.random(random.Random(seed))
            state = game.new_state()
            script = deal_script(deal)
            bot = ExpectimaxBot(game, "score")
            first = True
            while state.deals == 1 and not state.is_terminal():
                if state.is_chance_node():
                    step = script(state)
                    assert step is not None
                    state.apply(step)
                    continue
                if first:
                    start = time.perf_counter()
                    Evaluator(tuple(state.table.pins), rule, PINS_OBJECTIVE).value(Position.from_table(state.table))
                    fresh.append(time.perf_counter() - start)
                    first = False
                start = time.perf_counter()
                action = bot.choose(state, random.Random(0))
                decisions.append(time.perf_counter() - start)
                state.apply(action)
        print(spread(f"{rule}: exact value of a fresh deal", fresh))
        print(spread(f"{rule}: a decision in play (score objective)", decisions))


if __name__ == "__main__":
    main()
