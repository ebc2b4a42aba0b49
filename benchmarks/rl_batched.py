"""Game steps per CPU second of the batched Rolling Pins and Bowling Solitaire (issue 29, part 3).

Run: `.venv/bin/python benchmarks/rl_batched.py [--game rolling-pins] [--steps 1000000] [--runs 3] [--frames 10]`.
For batch sizes 1, 64 and 1,024, `RollingPinsVectorEnv` (one-player basic Rolling Pins,
ten frames of ten pins with tokens by default) or `BowlingSolitaireVectorEnv` (`--game
bowling-solitaire`, ten frames) steps every game with a uniformly random
legal id (`sample_legal`, from the kernel's lists of legal ids) until about `--steps` game
steps are played; a run reports game steps (the starts of new games not counted) per CPU
second of this process, which is single-threaded. The median of the runs is printed with
the load average. The time includes drawing the dice and the actions, copying the outputs
(`copy=True`, the default) and the infos; `--no-copy` hands out the batch's own arrays.
The target (issue 29) is 200 000 game steps a second at 1,024 on one core.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

import numpy as np

from pinsetter.integrations.vector import BatchedEnv, BowlingSolitaireVectorEnv, RollingPinsVectorEnv

BATCHES = (1, 64, 1024)
ENVS: dict[str, Callable[..., BatchedEnv]] = {
    "rolling-pins": RollingPinsVectorEnv,
    "bowling-solitaire": BowlingSolitaireVectorEnv,
}


def run(envs: BatchedEnv, steps: int, seed: int) -> float:
    """Game steps per CPU second of about `steps` random legal game steps from a reset with `seed`."""
    rng = np.random.default_rng(seed)
    envs.reset(seed=seed)
    envs.game_steps = 0
    start = time.process_time()
    while envs.game_steps < steps:
        envs.step(envs.sample_legal(rng))
    return envs.game_steps / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=1_000_000, help="game steps a run (at most 20 000 a game slot)")
    parser.add_argument("--game", choices=sorted(ENVS), default="rolling-pins")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--no-copy", action="store_true", help="hand out the batch's own arrays (copy=False)")
    args = parser.parse_args()
    for batch in BATCHES:
        envs = ENVS[args.game](batch, frames=args.frames, copy=not args.no_copy)
        steps = min(args.steps, 20_000 * batch)
        run(envs, min(steps, 5_000), 0)  # warm up: compile or load the kernel
        rates = [run(envs, steps, seed) for seed in range(1, args.runs + 1)]
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(
            f"{args.game} batch {batch:>5}: median {statistics.median(rates):>11,.0f} game steps/s "
            f"(runs {min(rates):,.0f}-{max(rates):,.0f}, {steps:,} steps each); load average {load}",
            flush=True,
        )


if __name__ == "__main__":
    main()
