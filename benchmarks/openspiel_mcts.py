"""OpenSpiel's MCTS (random rollouts) on pinsetter games, against the exact optimum and pinsetter's bots.

    .venv/bin/python benchmarks/openspiel_mcts.py [--quick] [--games 10] [--deals 10] [--budgets 25,100,400]

Rolling Pins, basic rules, short games (`--frames`, `--pins`; 2 frames of 10
pins by default) so that Python MCTS on a Python game runs in seconds: the
exact optimal expected score of the same options comes from the solver
(`policy_for`), the `optimal` bot plays that policy, and the full game's
optimum (10 frames, 10 pins) is printed for reference. Every player meets the
same chance stream (`Match`'s: draw i from the generator seeded by (seed, i)).

Bowling Solitaire, one frame, deal by deal: each deal's exact value is the
no-peek expectimax value at its root (the first decision, with the ten pins and
three tops face up; `ExpectimaxBot.evaluate`, the solver in
solvers/solitaire.py; a strike's or spare's bonus balls are valued by the
solver's continuation constants), next to what the `expectimax` bot and MCTS
score on that deal (the deal's cards are turned up as dealt; bonus balls come
from fresh seeded deals). MCTS samples chance from the engine's
probabilities, so it never peeks at the deal either.

Prints Markdown tables (mean ± standard error, seconds per game). `--quick`:
budgets 25 and 100, three games and three deals.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import pinsetter.integrations.openspiel  # noqa: F401  (registers the games)
from pinsetter.bots.base import make_bot
from pinsetter.bots.solitaire import ExpectimaxBot
from pinsetter.core.game import State, Step
from pinsetter.core.seeds import BOT_STREAM, CHANCE_STREAM, step_rng
from pinsetter.games.bowling_solitaire import Deal, SolitaireState, deal_script
from pinsetter.solvers.rolling_pins import policy_for

Chooser = Callable[[pyspiel.State, int], int]
Script = Callable[[State], Step | None]


def play(game: pyspiel.Game, choose: Chooser, seed: int, script: Script | None = None) -> float:
    """One game through OpenSpiel; chance from `script` where it says, else drawn as `Match` draws it."""
    state = game.new_initial_state()
    step = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcome = script(state.state) if script else None
            if outcome is None:
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


def mean_error(scores: list[float]) -> str:
    mean = statistics.fmean(scores)
    error = statistics.stdev(scores) / len(scores) ** 0.5 if len(scores) > 1 else 0.0
    return f"{mean:.2f} ± {error:.2f}"


def rolling_pins(args: argparse.Namespace, budgets: list[int]) -> None:
    params = {"frames": args.frames, "pins": args.pins}
    game = pyspiel.load_game("pinsetter_rolling_pins", params)
    optimum = policy_for(args.pins, args.frames, 1).expected_score
    seeds = range(1, args.games + 1)
    print(f"\n### Rolling Pins basic, {args.frames} frames of {args.pins} pins ({args.games} games, same seeds)\n")
    print("| player | mean score | % of optimum | seconds per game |\n|---|---|---|---|")
    print(f"| exact optimum (solver) | {optimum:.4f} | 100 | - |")
    players: list[tuple[str, Callable[[int], Chooser]]] = [
        ("pinsetter `optimal` bot", lambda s: bot_chooser(game, "optimal", s))
    ]
    players += [(f"OpenSpiel MCTS, {b} simulations", lambda s, b=b: mcts_chooser(game, b, s)) for b in budgets]
    players.append(("random legal actions", lambda s: bot_chooser(game, "random", s)))
    for label, make in players:
        started = time.monotonic()
        scores = [play(game, make(seed), seed) for seed in seeds]
        seconds = (time.monotonic() - started) / len(scores)
        share = 100 * statistics.fmean(scores) / optimum
        print(f"| {label} | {mean_error(scores)} | {share:.0f} | {seconds:.2f} |", flush=True)
    print(f"\n(The full game, 10 frames of 10 pins: exact optimum {policy_for(10, 10, 1).expected_score:.4f}.)")


def deal_value(game: pyspiel.Game, deal: Deal) -> float:
    """The expectimax value of `deal` at its first decision (nothing played yet)."""
    state = game.new_initial_state().state
    script = deal_script(deal)
    while state.is_chance_node():
        outcome = script(state)
        assert outcome is not None
        state.apply(outcome)
    assert isinstance(state, SolitaireState)
    values = ExpectimaxBot(state.game).evaluate(state)
    assert values
    return max(value for _, value in values)


def solitaire(args: argparse.Namespace, budgets: list[int]) -> None:
    game = pyspiel.load_game("pinsetter_bowling_solitaire", {"frames": 1})
    deals = [(seed, Deal.random(random.Random(seed))) for seed in range(1, args.deals + 1)]
    players: list[tuple[str, Callable[[int], Chooser]]] = [
        ("`expectimax` bot", lambda s: bot_chooser(game, "expectimax", s))
    ]
    players += [(f"MCTS {b}", lambda s, b=b: mcts_chooser(game, b, s)) for b in budgets]
    players.append(("random", lambda s: bot_chooser(game, "random", s)))
    print(f"\n### Bowling Solitaire, 1 frame, deal by deal ({args.deals} deals)\n")
    print("| seed: deal | exact value (expectimax at the root) | " + " | ".join(label for label, _ in players) + " |")
    print("|---" * (len(players) + 2) + "|")
    values: list[float] = []
    scores: dict[str, list[float]] = {label: [] for label, _ in players}
    seconds: dict[str, float] = dict.fromkeys(scores, 0.0)
    for seed, deal in deals:
        values.append(deal_value(game, deal))
        row = []
        for label, make in players:
            started = time.monotonic()
            score = play(game, make(seed), seed, deal_script(deal))
            seconds[label] += time.monotonic() - started
            scores[label].append(score)
            row.append(f"{score:.0f}")
        shown = str(deal).replace("|", "/")  # piles are separated by | in a deal's text
        print(f"| {seed}: `{shown}` | {values[-1]:.2f} | " + " | ".join(row) + " |", flush=True)
    means = " | ".join(mean_error(s) for s in scores.values())
    print(f"| **mean** | {mean_error(values)} | {means} |")
    per_game = " | ".join(f"{seconds[label] / len(deals):.2f}" for label in scores)
    print(f"| seconds per game | - | {per_game} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="budgets 25,100; 3 games; 3 deals")
    parser.add_argument("--games", type=int, default=10, help="Rolling Pins games per player")
    parser.add_argument("--deals", type=int, default=10, help="Solitaire deals")
    parser.add_argument("--budgets", default="25,100,400", help="MCTS simulations per decision")
    parser.add_argument("--frames", type=int, default=2)
    parser.add_argument("--pins", type=int, default=10)
    parser.add_argument("--only", choices=("rolling-pins", "bowling-solitaire"), default=None)
    args = parser.parse_args()
    if args.quick:
        args.games, args.deals, args.budgets = 3, 3, "25,100"
    budgets = [int(b) for b in args.budgets.split(",")]
    if args.only != "bowling-solitaire":
        rolling_pins(args, budgets)
    if args.only != "rolling-pins":
        solitaire(args, budgets)


if __name__ == "__main__":
    main()
