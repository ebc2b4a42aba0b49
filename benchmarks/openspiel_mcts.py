"""OpenSpiel's MCTS (random rollouts) on pinsetter games against the exact optimum and pinsetter's bots.

    .venv/bin/python benchmarks/openspiel_mcts.py [--games 20] [--budgets 25,100,400]

Rolling Pins: short games (2 frames, 10 pins) so that MCTS runs in seconds; the
exact optimum of the same options comes from the solver (`policy_for`) and the
`optimal` bot plays it. Solitaire: a few deals (1 frame, fixed first deal) played
by MCTS and by the `expectimax` bot. Every game uses the same seeds for chance
(`Match`'s seeded stream), so players face the same dice and cards. Prints a
Markdown table of mean scores with standard errors.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import pinsetter.integrations.openspiel  # noqa: F401  (registers the games)
from pinsetter.bots.base import make_bot
from pinsetter.core.seeds import BOT_STREAM, CHANCE_STREAM, step_rng
from pinsetter.solvers.rolling_pins import policy_for

Chooser = Callable[[pyspiel.State, int], int]


def play(game: pyspiel.Game, choose: Chooser, seed: int) -> float:
    """One game; chance outcome i drawn as `pinsetter.session.Match` draws it."""
    state = game.new_initial_state()
    step = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcome = state.state.sample_chance(step_rng(seed, step, CHANCE_STREAM))
            state.apply_action(state.facts.index.outcome_id(outcome))
        else:
            state.apply_action(choose(state, step))
        step += 1
    return float(state.returns()[0])


def mcts_chooser(game: pyspiel.Game, budget: int, seed: int) -> Chooser:
    rng = np.random.RandomState(seed)
    # UCT's exploration constant in points: a quarter of the possible score.
    bot = mcts.MCTSBot(game, game.max_utility() / 4, budget, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    return lambda state, _: int(bot.step(state))


def bot_chooser(game: pyspiel.Game, name: str, seed: int) -> Chooser:
    bot = make_bot(name, game.new_initial_state().facts.game)

    def choose(state: pyspiel.State, step: int) -> int:
        action = bot.choose(state.state, step_rng(seed, step, BOT_STREAM))
        return int(state.facts.index.action_id(action))

    return choose


def row(label: str, scores: list[float], seconds: float) -> str:
    mean = statistics.fmean(scores)
    error = statistics.stdev(scores) / len(scores) ** 0.5 if len(scores) > 1 else 0.0
    return f"| {label} | {mean:.2f} ± {error:.2f} | {seconds / len(scores):.2f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--budgets", default="25,100,400")
    parser.add_argument("--frames", type=int, default=2)
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    seeds = range(1, args.games + 1)

    def run(game: pyspiel.Game, label: str, make: Callable[[int], Chooser]) -> str:
        started = time.monotonic()
        scores = [play(game, make(seed), seed) for seed in seeds]
        return row(label, scores, time.monotonic() - started)

    frames = args.frames
    rolling = pyspiel.load_game("pinsetter_rolling_pins", {"frames": frames})
    optimum = policy_for(10, frames, 1).expected_score
    print(f"\n### Rolling Pins basic, {frames} frames ({args.games} games, same seeds)\n")
    print("| player | mean score | seconds per game |\n|---|---|---|")
    print(f"| exact optimum (solver) | {optimum:.4f} | - |")
    print(run(rolling, "pinsetter `optimal` bot", lambda s: bot_chooser(rolling, "optimal", s)))
    for budget in budgets:
        print(run(rolling, f"OpenSpiel MCTS, {budget} simulations", lambda s, b=budget: mcts_chooser(rolling, b, s)))
    print(run(rolling, "random legal actions", lambda s: bot_chooser(rolling, "random", s)))
    print(f"\n(10 frames: exact optimum {policy_for(10, 10, 1).expected_score:.4f})")

    solitaire = pyspiel.load_game("pinsetter_bowling_solitaire", {"frames": 1})
    print(f"\n### Bowling Solitaire, 1 frame ({args.games} deals, same seeds)\n")
    print("| player | mean score | seconds per game |\n|---|---|---|")
    print(run(solitaire, "pinsetter `expectimax` bot", lambda s: bot_chooser(solitaire, "expectimax", s)))
    for budget in budgets:
        print(
            run(solitaire, f"OpenSpiel MCTS, {budget} simulations", lambda s, b=budget: mcts_chooser(solitaire, b, s))
        )
    print(run(solitaire, "random legal actions", lambda s: bot_chooser(solitaire, "random", s)))


if __name__ == "__main__":
    main()
