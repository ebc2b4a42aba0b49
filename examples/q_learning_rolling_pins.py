"""Tabular Q-learning on a short Rolling Pins, measured against the exact optimum.

    .venv/bin/python examples/q_learning_rolling_pins.py --frames 2 --episodes 20000 --out curve.png

The agent plays `pinsetter/RollingPins-v0` (Gymnasium) with epsilon-greedy
Q-learning (no discount) over a compact key of the environment's observation
(exact table lookup, see `compact_key`) and its action mask. Every `--block`
episodes it plays greedily on a fixed set of seeds and records the mean score.
The plot sets that curve against the exact optimal expected score of the same options, from pinsetter's solver
(`pinsetter.solvers.rolling_pins.policy_for`): the gap is what the agent has
still to learn. Needs the `rl` extra (gymnasium) and matplotlib.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable

import gymnasium
import numpy as np

import pinsetter.integrations.gymnasium  # noqa: F401  (registers the environments)
from pinsetter.solvers.rolling_pins import policy_for


def compact_key(env: gymnasium.Env) -> Callable[[np.ndarray], bytes]:  # type: ignore[type-arg]
    """The table's key: the observation without the score and the past balls.

    What is left (frame, ball, standing pins, tokens, phase, dice) decides what
    can still be scored, apart from pending strike and spare bonuses; dropping
    the history makes positions recur, which a table needs in order to learn.
    """
    names = env.unwrapped.feature_names  # type: ignore[attr-defined]
    keep = np.array([not (".ball" in n or n.endswith(".score")) for n in names])
    return lambda obs: obs[keep].tobytes()


def legal(info: dict[str, object]) -> list[int]:
    mask = info["action_mask"]
    assert isinstance(mask, np.ndarray)
    return np.flatnonzero(mask).tolist()


def greedy(q: dict[bytes, dict[int, float]], key: bytes, actions: list[int], rng: random.Random, init: float) -> int:
    values = q.get(key, {})
    best = max(values.get(a, init) for a in actions)
    return rng.choice([a for a in actions if values.get(a, init) == best])


def evaluate(env: gymnasium.Env, q: dict[bytes, dict[int, float]], seeds: range, init: float) -> float:  # type: ignore[type-arg]
    rng = random.Random(0)
    key_of = compact_key(env)
    total = 0.0
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            obs, reward, done, _, info = env.step(greedy(q, key_of(obs), legal(info), rng, init))
            total += float(reward)
    return total / len(seeds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=2)
    parser.add_argument("--pins", type=int, default=10)
    parser.add_argument("--episodes", type=int, default=20_000)
    parser.add_argument("--block", type=int, default=1_000, help="episodes between greedy evaluations")
    parser.add_argument("--eval-games", type=int, default=300)
    parser.add_argument("--alpha", type=float, default=0.02, help="the smallest step size")
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-optimistic", dest="optimistic", action="store_false", help="start Q at 0")
    parser.add_argument("--out", default="q_learning_rolling_pins.png")
    args = parser.parse_args(argv)

    optimum = policy_for(args.pins, args.frames, 1).expected_score
    env = gymnasium.make("pinsetter/RollingPins-v0", frames=args.frames, pins=args.pins)
    rng = random.Random(args.seed)
    # Optimistic start: an untried action is worth the whole optimum, so each gets tried.
    init = optimum if args.optimistic else 0.0
    q: dict[bytes, dict[int, float]] = defaultdict(dict)
    visits: dict[tuple[bytes, int], int] = defaultdict(int)
    key_of = compact_key(env)
    eval_seeds = range(10**9, 10**9 + args.eval_games)  # never used in training
    curve: list[tuple[int, float]] = []
    block = min(args.block, args.episodes)
    started = time.monotonic()
    for episode in range(1, args.episodes + 1):
        obs, info = env.reset(seed=args.seed * 10**7 + episode)
        key, done = key_of(obs), False
        while not done:
            actions = legal(info)
            action = rng.choice(actions) if rng.random() < args.epsilon else greedy(q, key, actions, rng, init)
            obs, reward, done, _, info = env.step(action)
            after = key_of(obs)
            future = 0.0 if done else max(q[after].get(a, init) for a in legal(info))
            old = q[key].get(action, init)
            visits[key, action] += 1  # step size 1/n, never below --alpha: early updates count fully
            step = max(args.alpha, 1.0 / visits[key, action])
            q[key][action] = old + step * (float(reward) + future - old)
            key = after
        if episode % block == 0 or episode == args.episodes:
            score = evaluate(env, q, eval_seeds, init)
            curve.append((episode, score))
            print(f"episode {episode}: greedy mean {score:.2f} over {args.eval_games} games", flush=True)
    print(
        f"optimum {optimum:.4f}; final greedy mean {curve[-1][1]:.2f}; {len(q)} states; "
        f"{time.monotonic() - started:.0f} s"
    )

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot([e for e, _ in curve], [s for _, s in curve], marker="o", label="Q-learning (greedy policy)")
    ax.axhline(optimum, color="black", linestyle="--", label=f"exact optimum {optimum:.2f}")
    ax.set_xlabel("training episodes")
    ax.set_ylabel(f"mean score over {args.eval_games} games")
    ax.set_title(f"Rolling Pins, {args.frames} frames, {args.pins} pins")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"plot written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
