"""Continuation values of the Bowling Solitaire score objective, iterated to a fixed point.

The score objective (`solvers/solitaire.py`) values a strike at (w2 + 1) x E1 + E2 and a spare
at E1: E1 the expected pins of a fresh deal's first ball, E2 of the ball after it (the second
ball, or the next deal's first after a strike). Those expectations belong to the player that
uses them, so this plays N seeded deals (deal i is `Deal.random(random.Random(i))`, first frame,
no pending bonus) with the expectimax for the score objective under (E1, E2), measures E1 and E2
from the pins it knocks down, and repeats with the measured pair until it stops moving. The same
deals serve every round (common random numbers), so a round changes only where a decision
changed; the sampling error (95% half-widths from the N deals) is printed with each round.

Usage: python benchmarks/solitaire_continuation.py [N] [groups] [rounds] [E1 E2]
(defaults: 2000 connected 4, starting from the module's constants). One process.
"""

from __future__ import annotations

import math
import random
import sys
import time

from pinsetter.games.bowling_solitaire import STOP, Action, BowlingSolitaire, Deal, deal_script
from pinsetter.solvers.solitaire import (
    FIRST_BALL_PINS,
    SECOND_BALL_PINS,
    Evaluator,
    Objective,
    Position,
    score_objective,
)


def play_frame(deal: Deal, rule: str, objective: Objective) -> tuple[int, int]:
    """(ball 1, ball 2) of the first frame played from `deal`; ball 2 is -1 after a strike."""
    game = BowlingSolitaire({"groups": rule, "frames": 2})
    state = game.new_state()
    script = deal_script(deal)
    evaluator: Evaluator | None = None
    while state.deals == 1 and not state.is_terminal():
        if state.is_chance_node():
            step = script(state)
            assert step is not None
            state.apply(step)
            continue
        if evaluator is None:
            evaluator = Evaluator(tuple(state.table.pins), rule, objective)
        actions = [a for a in state.legal_actions() if isinstance(a, Action)]
        best = evaluator.option_values(Position.from_table(state.table), actions)[0][0] if actions else STOP
        state.apply(best)
    balls = state.pinfalls[0]
    return balls[0], (balls[1] if balls[0] < 10 else -1)


def mean_and_half_width(xs: list[float]) -> tuple[float, float]:
    """The mean and its 95% half-width (normal approximation)."""
    m = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    return m, 1.96 * sd / math.sqrt(len(xs))


def measure(frames: list[tuple[int, int]]) -> tuple[float, float, float, float, list[float]]:
    """E1, P(strike), E[ball 2 | no strike], E2, and the per-deal samples of E2."""
    firsts = [float(f) for f, _ in frames]
    e1 = sum(firsts) / len(firsts)
    p_strike = sum(1 for f, _ in frames if f == 10) / len(frames)
    seconds = [float(s) for _, s in frames if s >= 0]
    e2_open = sum(seconds) / len(seconds)
    # The ball after ball 1: ball 2, or (after a strike) the next deal's first ball, worth E1.
    after = [float(s) if s >= 0 else e1 for _, s in frames]
    return e1, p_strike, e2_open, p_strike * e1 + (1 - p_strike) * e2_open, after


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    rule = sys.argv[2] if len(sys.argv) > 2 else "connected"
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    e1, e2 = (float(sys.argv[4]), float(sys.argv[5])) if len(sys.argv) > 5 else (FIRST_BALL_PINS, SECOND_BALL_PINS)
    deals = [Deal.random(random.Random(seed)) for seed in range(n)]
    print(f"deals {n} groups {rule}; start E1 = {e1:.4f} E2 = {e2:.4f}", flush=True)
    previous: list[tuple[int, int]] | None = None
    for k in range(1, rounds + 1):
        start = time.perf_counter()
        objective = score_objective(0, 0, e1, e2)
        frames = [play_frame(deal, rule, objective) for deal in deals]
        new_e1, p_strike, e2_open, new_e2, after = measure(frames)
        _, h1 = mean_and_half_width([float(f) for f, _ in frames])
        _, h2 = mean_and_half_width(after)
        hp = 1.96 * math.sqrt(p_strike * (1 - p_strike) / n)
        changed = n if previous is None else sum(1 for a, b in zip(frames, previous, strict=True) if a != b)
        print(
            f"round {k}: E1 = {new_e1:.4f} +- {h1:.4f}  E2 = {new_e2:.4f} +- {h2:.4f}  "
            f"P(strike) = {p_strike:.4f} +- {hp:.4f}  E[ball 2 | no strike] = {e2_open:.4f}  "
            f"(moved {new_e1 - e1:+.4f}, {new_e2 - e2:+.4f}; {changed} deals played differently; "
            f"{time.perf_counter() - start:.0f} s)",
            flush=True,
        )
        if previous is not None and changed == 0:
            print("fixed point: no deal was played differently", flush=True)
            break
        previous, e1, e2 = frames, new_e1, new_e2


if __name__ == "__main__":
    main()
