"""Steps per second of one Gymnasium environment, random legal actions from its mask (issue 29, part 2).

Run: `.venv/bin/python benchmarks/rl_steps.py [--steps 20000] [--runs 5] [--profile FILE]`.
For Rolling Pins and Bowling Solitaire with their default options (ten frames), as
`gymnasium.make` gives them (with its wrappers), one environment steps with a uniformly
random legal id of `info["action_mask"]`, resetting as episodes end, for `--steps` steps;
each run reports steps per CPU second of this process (the environment is single-threaded,
so other work on the machine slows the CPU time less than the clock). The median of the runs
is printed with the load average beside it. The script uses only the public interface, so
the same file measures any checkout: `PYTHONPATH=<checkout>/src python benchmarks/rl_steps.py`.
`--profile FILE` writes a cProfile of one more run per environment (read with pstats).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import random
import statistics
import time
from typing import Any

import gymnasium
import numpy as np

import pinsetter.integrations.gymnasium  # noqa: F401  (registers the environments)

ENVS = ("pinsetter/RollingPins-v0", "pinsetter/BowlingSolitaire-v0")


def run(env: gymnasium.Env[Any, Any], steps: int, seed: int) -> float:
    """Steps per CPU second of `steps` random legal steps from a reset with `seed`."""
    rng = random.Random(seed)
    _, info = env.reset(seed=seed)
    start = time.process_time()
    for _ in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
        if terminated or truncated:
            _, info = env.reset()
    return steps / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profile", default=None, help="write a cProfile of one more run per environment here")
    args = parser.parse_args()
    for env_id in ENVS:
        env = gymnasium.make(env_id)
        assert isinstance(env.action_space, gymnasium.spaces.Discrete)
        ids = int(env.action_space.n)
        run(env, 500, 0)  # warm up: first-call caches, imports
        rates = [run(env, args.steps, seed) for seed in range(1, args.runs + 1)]
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        low, high = min(rates), max(rates)
        print(
            f"{env_id}: median {statistics.median(rates):,.0f} steps/s (runs {low:,.0f}-{high:,.0f}, "
            f"{args.runs} x {args.steps} steps, {ids} ids)  load average {load}"
        )
        if args.profile:
            profile = cProfile.Profile(time.process_time)
            profile.runcall(run, env, args.steps, 0)
            name = env_id.split("/")[1].split("-")[0]
            profile.dump_stats(f"{args.profile}.{name}")
            print(f"  profile: {args.profile}.{name}")


if __name__ == "__main__":
    main()
