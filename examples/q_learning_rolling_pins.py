"""Tabular Q-learning on a short Rolling Pins, measured against the exact optimum.

    .venv/bin/python examples/q_learning_rolling_pins.py --frames 2 --pins 3 --episodes 40000 --out curve.png

The agent plays `pinsetter/RollingPins-v0` (Gymnasium) with tabular
Q-learning (`Learner`: no discount, averaged targets, learning each game
backwards, exploration that fades per state). Its table is keyed by
`TableKey`, read from the environment's observation: everything that decides
the rest of the game and nothing else. It sees only what the environment
gives (observations, action masks, rewards); the engine is used only to
measure it.

Every `--block` episodes the greedy policy (in a position where the agent has
tried nothing, any legal action alike: before training it is the random
player) is measured *exactly*: the game tree is walked with the engine's exact chance probabilities, the agent choosing
from the same observation the environment gives it (`exact_value`). The plot
sets that curve against the exact optimal expected score of the same options
from pinsetter's solver (`pinsetter.solvers.rolling_pins.policy_for`) and
against a uniformly random player, and the script ends with a sampled check on
seeds never used in training. Needs the `rl` extra (gymnasium) and matplotlib.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np

import pinsetter.integrations.gymnasium  # noqa: F401  (registers the environments)
from pinsetter.core.game import State
from pinsetter.core.scoring import bonus_weights
from pinsetter.games.rolling_pins import TOKEN_LIMIT
from pinsetter.solvers.rolling_pins import policy_for

Key = tuple[Hashable, ...]
QTable = dict[Key, dict[int, float]]


class TableKey:
    """The Q-table's key: what decides the rest of the game, read from the observation by name.

    Rewards are score increments and a strike or spare is scored only when its
    bonus balls have fallen, so the points still to come depend on the bonuses
    owed (w1, w2: how many extra times the next two balls count), on the points
    won but not yet on the score, on the ball being played (frame, ball, pins
    standing when it began, so the pins crossed in it) and on the position
    (standing pins, tokens, phase, and the dice just rolled). The pinfall
    history itself is dropped: positions that differ only in the past recur,
    which a table needs in order to learn. The stale dice of the previous roll,
    which the observation still shows while the next roll is chosen, are dropped
    too. Bonus weights and the points won come from the scoring engine
    (`bonus_weights`), never from a second copy of the scoring rules.
    """

    def __init__(self, env: gymnasium.Env[Any, Any]) -> None:
        names = env.unwrapped.feature_names  # type: ignore[attr-defined]
        game = env.unwrapped.game  # type: ignore[attr-defined]
        self.lane = game.lane
        self.max_score = game.max_score
        at = {name: i for i, name in enumerate(names)}
        balls = range(1, 2 * self.lane.frames + 2)
        self.bowled = np.array([at[f"p0.ball{b}.bowled"] for b in balls])
        self.pins = np.array([at[f"p0.ball{b}.pins"] for b in balls])
        self.score = at["p0.score"]
        self.frame = at["p0.frame"]
        self.ball = np.array([at[f"p0.next_ball{b}"] for b in (1, 2, 3)])
        self.ball_start = at["p0.standing"]
        self.standing = np.array([at[f"p0.pin{p}.standing"] for p in range(1, self.lane.pins + 1)])
        self.tokens = at["p0.tokens"]
        self.rolled = at["p0.phase.rolled"]
        self.faces = np.array([[at[f"p0.die{d}.face{f}"] for f in range(1, 7)] for d in (1, 2, 3)])

    def __call__(self, obs: np.ndarray[Any, Any]) -> Key:
        pins = self.lane.pins
        bowled = int(obs[self.bowled].sum())
        pinfalls = [round(float(x) * pins) for x in obs[self.pins[:bowled]]]
        earned, w1, w2, first_strike = bonus_weights(pinfalls, self.lane)
        on_sheet = round(float(obs[self.score]) * self.max_score)
        rolled = obs[self.rolled] > 0.5
        # The dice just rolled, in order of value: in the basic game which die shows what does not matter.
        dice = tuple(sorted(int(np.argmax(row)) + 1 for row in obs[self.faces] if row.any())) if rolled else ()
        return (
            round(float(obs[self.frame]) * self.lane.frames),
            int(np.argmax(obs[self.ball])),
            round(float(obs[self.ball_start]) * pins),
            obs[self.standing].astype(bool).tobytes(),
            round(float(obs[self.tokens]) * TOKEN_LIMIT),
            bool(rolled),
            dice,
            w1,
            w2,
            first_strike,
            earned - on_sheet,
        )


def legal(info: dict[str, Any]) -> list[int]:
    return np.flatnonzero(info["action_mask"]).tolist()  # type: ignore[no-any-return]


def greedy(values: dict[int, float], actions: list[int]) -> int:
    """The best of the actions tried so far (ties to the lowest id); some must have been tried."""
    return max((a for a in actions if a in values), key=lambda a: (values[a], -a))


class Learner:
    """Tabular Q-learning with averaged targets, undiscounted, learning backwards after each game.

    Q(s, a) is the average, over every time a was played in s, of the
    Q-learning target r + max_a' Q(s', a') (0 after the last step). Plain
    Q-learning with step size 1/n computes the same average, but of targets
    frozen at the time they were seen: early ones, taken while Q(s', .) knew
    nothing, linger for thousands of games. Here each (s, a) keeps the counts
    of the (reward, next state) pairs that followed it, and its average is
    recomputed with today's values of the next states whenever it is played.

    * Backward: a game's steps are learned from the last to the first, so the
      final score reaches the first decision in one game. Going backwards,
      the next state's action has just been learned, so the max is always
      over actions tried, and no made-up initial value enters any estimate.
    * Exploration: an action never tried in a state is tried first, and with
      probability c / (c + n) (n = visits of the state) a random one is played.
    """

    def __init__(self, explore: float, rng: random.Random) -> None:
        self.q: QTable = defaultdict(dict)
        self.outcomes: dict[tuple[Key, int], Counter[tuple[float, Key | None]]] = defaultdict(Counter)
        self.state_visits: dict[Key, int] = defaultdict(int)
        self.explore, self.rng = explore, rng

    def act(self, key: Key, actions: list[int]) -> int:
        self.state_visits[key] += 1
        values = self.q[key]
        if self.rng.random() < self.explore / (self.explore + self.state_visits[key]):
            return self.rng.choice(actions)
        untried = [a for a in actions if a not in values]
        return self.rng.choice(untried) if untried else greedy(values, actions)

    def update(self, key: Key, action: int, reward: float, after: Key | None) -> None:
        seen = self.outcomes[key, action]
        seen[reward, after] += 1
        total = sum(
            count * (r + (max(self.q[nxt].values()) if nxt is not None else 0.0)) for (r, nxt), count in seen.items()
        )
        self.q[key][action] = total / sum(seen.values())

    def episode(self, env: gymnasium.Env[Any, Any], key_of: TableKey, seed: int) -> float:
        """Play one game exploring, then learn from it backwards; returns its score."""
        obs, info = env.reset(seed=seed)
        key, done, total = key_of(obs), False, 0.0
        steps: list[tuple[Key, int, float, Key | None]] = []
        while not done:
            action = self.act(key, legal(info))
            obs, reward, done, _, info = env.step(action)
            after = None if done else key_of(obs)
            steps.append((key, action, float(reward), after))
            total += float(reward)
            if after is not None:
                key = after
        for step in reversed(steps):
            self.update(*step)
        return total


Chooser = Callable[[np.ndarray[Any, Any], list[int]], list[int]]


def exact_value(env: gymnasium.Env[Any, Any], choose: Chooser) -> float:
    """The exact expected final score of a policy, by walking the game tree through the engine.

    `choose(observation, legal ids)` returns the ids the policy plays, each with
    equal probability (one id for a greedy policy, all of them for a random
    one). The observation is the environment's own (`observer.vector`), and
    positions are memoised by the engine's `State.key()`.
    """
    unwrapped = env.unwrapped
    game, index, observer = unwrapped.game, unwrapped.index, unwrapped.observer  # type: ignore[attr-defined]
    memo: dict[Hashable, float] = {}

    def value(state: State) -> float:
        if state.is_terminal():
            return float(state.scores()[0])
        key = state.key()
        if key in memo:
            return memo[key]
        if state.is_chance_node():
            pairs = [(float(p), state.child(o)) for o, p in state.chance_outcomes()]
            result = sum(p * value(child) for p, child in pairs)
        else:
            played = choose(observer.vector(state, 0), index.legal_ids(state))
            result = statistics.fmean(value(state.child(index.actions[a])) for a in played)
        memo[key] = result
        return result

    return value(game.new_state(1))


def sampled_mean(env: gymnasium.Env[Any, Any], choose: Chooser, seeds: range) -> tuple[float, float]:
    """Mean final score and its standard error over `seeds` (chance drawn as `pinsetter play --seed`).

    `choose` returns the ids the policy plays with equal probability; one is drawn.
    """
    rng = random.Random(0)
    scores = []
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        done, total = False, 0.0
        while not done:
            obs, reward, done, _, info = env.step(rng.choice(choose(obs, legal(info))))
            total += float(reward)
        scores.append(total)
    return statistics.fmean(scores), statistics.stdev(scores) / len(scores) ** 0.5


def uniform(_: np.ndarray[Any, Any], actions: list[int]) -> list[int]:
    """The uniformly random player: every legal action."""
    return actions


@dataclass
class Result:
    """What a run measured: the greedy policy's exact value after each block, and the yardsticks."""

    optimum: float
    random_mean: float
    curve: list[tuple[int, float]]
    learner: Learner
    check: tuple[float, float]
    seconds: float


def train(args: argparse.Namespace, report: Callable[[str], None] = print) -> Result:
    """Train on the Gymnasium environment; measure the greedy policy exactly every `args.block` episodes."""
    started = time.monotonic()
    optimum = policy_for(args.pins, args.frames, 1).expected_score
    env = gymnasium.make("pinsetter/RollingPins-v0", frames=args.frames, pins=args.pins)
    key_of = TableKey(env)
    learner = Learner(args.explore, random.Random(args.seed))

    def policy(obs: np.ndarray[Any, Any], actions: list[int]) -> list[int]:
        """Greedy where the agent has tried something; where it knows nothing, any legal action alike."""
        values = learner.q.get(key_of(obs), {})
        return [greedy(values, actions)] if any(a in values for a in actions) else actions

    check_seeds = range(10**9, 10**9 + args.check_games)  # never used in training
    random_mean, _ = sampled_mean(env, uniform, check_seeds)
    report(f"exact optimum {optimum:.4f}; random legal actions {random_mean:.2f} (sampled)")
    curve: list[tuple[int, float]] = [(0, exact_value(env, policy))]
    report(f"episode 0: greedy policy's exact expected score {curve[0][1]:.4f}")
    block = max(1, min(args.block, args.episodes))
    for episode in range(1, args.episodes + 1):
        learner.episode(env, key_of, args.seed * 10**7 + episode)
        if episode % block == 0 or episode == args.episodes:
            curve.append((episode, exact_value(env, policy)))
            report(f"episode {episode}: greedy policy's exact expected score {curve[-1][1]:.4f}")
    check = sampled_mean(env, policy, check_seeds)
    return Result(optimum, random_mean, curve, learner, check, time.monotonic() - started)


def plot(path: str, curve: list[tuple[int, float]], optimum: float, random_value: float, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot([e for e, _ in curve], [s for _, s in curve], marker="o", label="Q-learning, greedy policy (exact value)")
    ax.axhline(optimum, color="black", linestyle="--", label=f"exact optimum (solver) {optimum:.2f}")
    ax.axhline(random_value, color="grey", linestyle=":", label=f"random legal actions {random_value:.2f} (sampled)")
    ax.set_xlabel("training episodes")
    ax.set_ylabel("expected final score")
    ax.set_title(title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=2)
    parser.add_argument("--pins", type=int, default=3)
    parser.add_argument("--episodes", type=int, default=40_000)
    parser.add_argument("--block", type=int, default=5_000, help="episodes between exact evaluations")
    parser.add_argument("--check-games", type=int, default=2_000, help="sampled games of the final check")
    parser.add_argument("--explore", type=float, default=10.0, help="c in epsilon = c / (c + visits of the state)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="q_learning_rolling_pins.png", help="where the plot is written")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    result = train(args, lambda line: print(line, flush=True))
    final = result.curve[-1][1]
    mean, error = result.check
    print(
        f"optimum {result.optimum:.4f}; learned {final:.4f} ({100 * final / result.optimum:.1f}% of the optimum); "
        f"sampled check {mean:.2f} ± {error:.2f} over {args.check_games} new seeds; "
        f"{len(result.learner.q)} states; {result.seconds:.0f} s"
    )
    title = f"Rolling Pins, {args.frames} frames, {args.pins} pins"
    plot(args.out, result.curve, result.optimum, result.random_mean, title)
    print(f"plot written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
