"""MaskablePPO baselines on the batched games, measured against the exact optimum and the expectimax bot.

    .venv/bin/python examples/maskable_ppo.py rolling-pins --frames 2 --steps 6000000 --out runs/rp2
    .venv/bin/python examples/maskable_ppo.py bowling-solitaire --frames 1 --steps 4000000 --out runs/sol1

sb3-contrib's `MaskablePPO` (the `rl` extra; CPU only, one torch thread) trains on
`RollingPinsVectorEnv` or `BowlingSolitaireVectorEnv` (`pinsetter.integrations.vector`)
through `BatchVecEnv`, a small Stable-Baselines3 `VecEnv` over the batch: SB3 takes its own
vector environments, not Gymnasium's, and resets a finished game in the step that ends it
(the final observation in `infos[i]["terminal_observation"]`), which the batch does with
`restart`. Masks reach the policy through `env_method("action_masks")`, as sb3-contrib asks.
Rewards are the running score's increases, undiscounted (gamma = 1), scaled by
`--reward-scale` for the value network only.

Every `--eval-every` steps the deterministic policy (the most probable legal id) plays a
fixed evaluation set: `--eval-games` games in one batch reset with `--eval-seed`, so every
evaluation sees the same dice (or deals) stream; the mean final score and its 95% interval
(1.96 standard errors) go to `curve.csv` with the steps, wall and CPU seconds. `curve.png`
sets the curve against the exact optimum of Rolling Pins (`pinsetter.solvers.rolling_pins`,
the solver's expected score, which is also what the optimal bot plays) or, for Bowling
Solitaire, against the expectimax bot's mean over `--expectimax-games` seeded games (the
bot searches each deal exactly; it is near-optimal, and no exact optimum of the game is
known). Needs the `rl` extra and matplotlib.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import signal
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

from pinsetter.integrations.vector import BatchedEnv, BowlingSolitaireVectorEnv, RollingPinsVectorEnv

GAMES = ("rolling-pins", "bowling-solitaire")


def make_batch(game: str, num_envs: int, frames: int, pins: int | None = None) -> BatchedEnv:
    """A batch of `num_envs` games of `game` with these options (copies out: SB3 keeps the arrays)."""
    if game == "rolling-pins":
        options: dict[str, Any] = {"frames": frames} if pins is None else {"frames": frames, "pins": pins}
        return RollingPinsVectorEnv(num_envs, **options)
    return BowlingSolitaireVectorEnv(num_envs, frames=frames)


class BatchVecEnv(VecEnv):
    """A Stable-Baselines3 `VecEnv` over a batched game, resetting finished games in the same step.

    The step that ends a game returns the next game's first observation and mask, the final
    observation in `infos[i]["terminal_observation"]`, and `infos[i]["episode"]` (`r`: the final
    score, unscaled; `l`: the game's steps), as SB3's `Monitor` would. Rewards are multiplied by
    `reward_scale`. `action_masks()` are the batch's (those of the observations just returned).
    """

    def __init__(self, batch: BatchedEnv, reward_scale: float = 1.0) -> None:
        self.batch = batch
        self.reward_scale = reward_scale
        self.render_mode = None
        super().__init__(batch.num_envs, batch.single_observation_space, batch.single_action_space)
        self._actions: np.ndarray[Any, Any] = np.zeros(batch.num_envs, np.int64)
        self._lengths = np.zeros(batch.num_envs, np.int64)
        self.scores: list[int] = []  # final scores of the games finished, in order

    def reset(self) -> np.ndarray[Any, Any]:
        seed = self._seeds[0]
        obs, _ = self.batch.reset(seed=seed)
        self._reset_seeds()
        self._lengths[:] = 0
        return obs

    def step_async(self, actions: np.ndarray[Any, Any]) -> None:
        self._actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, terminated, truncated, info = self.batch.step(self._actions)
        self._lengths += 1
        done = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if done.any():
            ended = np.flatnonzero(done)
            scores = info["score"]
            for g in ended:
                score = int(scores[g])
                self.scores.append(score)
                infos[g] = {
                    "terminal_observation": obs[g].copy(),
                    "TimeLimit.truncated": bool(truncated[g] and not terminated[g]),
                    "episode": {"r": score, "l": int(self._lengths[g])},
                }
            obs, _ = self.batch.restart(ended)
            self._lengths[ended] = 0
        return obs, rewards * self.reward_scale, done, infos

    def action_masks(self) -> np.ndarray[Any, Any]:
        return self.batch.action_masks()

    def close(self) -> None:
        self.batch.close()

    def _count(self, indices: VecEnvIndices) -> int:
        return len(list(self._get_indices(indices)))

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        value = getattr(self, attr_name) if hasattr(self, attr_name) else getattr(self.batch, attr_name)
        return [value] * self._count(indices)

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        raise AttributeError(f"the batch's games share their attributes: cannot set {attr_name} per game")

    def env_method(self, method_name: str, *args: Any, indices: VecEnvIndices = None, **kwargs: Any) -> list[Any]:
        """`action_masks` as sb3-contrib asks for it: one row a game (the whole batch at once)."""
        if method_name != "action_masks":
            raise AttributeError(f"the batch has no per-game method {method_name}")
        rows = self.action_masks()
        return list(rows[list(self._get_indices(indices))])

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False] * self._count(indices)


def evaluate(model: MaskablePPO, batch: BatchedEnv, seed: int) -> tuple[float, float, list[bool]]:
    """The deterministic policy's mean final score over the batch's games (one each) and its standard error.

    Returns also whether every id played was legal. The batch is reset with `seed`, so
    every call plays the same dice (or deals) stream; a slot's later games are ignored.
    """
    obs, info = batch.reset(seed=seed)
    n = batch.num_envs
    finals = np.zeros(n, np.float64)
    open_ = np.ones(n, np.bool_)
    legal_only = [True]
    while open_.any():
        masks = batch.action_masks()
        masks[~open_] = True  # finished slots: their next action is ignored (a new game starts)
        actions, _ = model.predict(obs, deterministic=True, action_masks=masks)
        legal_only[0] &= bool(masks[np.arange(n), actions].all())
        obs, _, terminated, truncated, info = batch.step(actions)
        ended = open_ & (terminated | truncated)
        finals[ended] = info["score"][ended]
        open_ &= ~ended
    return float(finals.mean()), float(finals.std(ddof=1) / math.sqrt(n)), legal_only


class Evaluations(BaseCallback):
    """Evaluates every `every` steps (and at the start and end); writes the CSV rows as they come."""

    def __init__(
        self, batch: BatchedEnv, seed: int, every: int, out: Path, reference: float, report: Callable[[str], None]
    ) -> None:
        super().__init__()
        self.batch, self.seed, self.every, self.out, self.reference = batch, seed, every, out, reference
        self.report = report
        self.rows: list[dict[str, float]] = []
        self.legal_only = True
        self.started_wall = time.monotonic()
        self.started_cpu = time.process_time()
        self.next_at = 0
        self.cpu_budget = self.wall_budget = math.inf  # seconds; training stops at the first evaluation past either
        self.checkpoints = False  # keep the model of every evaluation beside `out`
        self.entropy: Callable[[float], float] | None = None  # the entropy coefficient by progress remaining
        self.total_steps = 1  # the steps `learn` was given: progress remaining is 1 - steps / total_steps
        self.stop_now = False  # set by SIGTERM: training stops, evaluates once more and writes its files

    def measure(self) -> None:
        mean, error = evaluate(self.model, self.batch, self.seed)[:2]  # type: ignore[arg-type]
        row = {
            "steps": self.num_timesteps,
            "wall_seconds": round(time.monotonic() - self.started_wall, 1),
            "cpu_seconds": round(time.process_time() - self.started_cpu, 1),
            "mean_score": round(mean, 4),
            "ci95_low": round(mean - 1.96 * error, 4),
            "ci95_high": round(mean + 1.96 * error, 4),
            "percent_of_reference": round(100 * mean / self.reference, 2),
        }
        self.rows.append(row)
        if self.checkpoints:
            self.model.save(self.out.parent / f"model-{self.num_timesteps}.zip")
        with self.out.open("a", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(row))
            if f.tell() == 0:
                writer.writeheader()
            writer.writerow(row)
        self.report(
            f"{row['steps']:>10} steps {row['wall_seconds']:>7.0f} s wall {row['cpu_seconds']:>7.0f} s CPU: "
            f"{mean:.3f} [{row['ci95_low']:.3f}, {row['ci95_high']:.3f}] = {row['percent_of_reference']:.1f}%"
        )

    def _on_training_start(self) -> None:
        self.started_wall, self.started_cpu = time.monotonic(), time.process_time()
        self.next_at = self.every
        self.measure()

    def _on_rollout_start(self) -> None:
        if self.entropy is not None:
            # The progress SB3 gives its learning-rate schedule at this point, computed here rather
            # than read from SB3's private attribute.
            self.model.ent_coef = self.entropy(1.0 - self.num_timesteps / self.total_steps)

    def _on_step(self) -> bool:
        if self.stop_now:
            self.report("stopped (SIGTERM): training stops here")
            return False
        if self.num_timesteps >= self.next_at:
            self.next_at += self.every
            self.measure()
            last = self.rows[-1]
            if last["cpu_seconds"] > self.cpu_budget or last["wall_seconds"] > self.wall_budget:
                self.report("budget spent: training stops here")
                return False
        return True

    def _on_training_end(self) -> None:
        if not self.rows or self.rows[-1]["steps"] != self.num_timesteps:
            self.measure()


def linear(start: float, final: float) -> Callable[[float], float]:
    """A value lowered (or raised) linearly from `start` to `final`, by SB3's progress remaining (1 -> 0)."""
    return lambda remaining: final + (start - final) * remaining


def rolling_pins_optimum(frames: int, pins: int) -> float:
    """The exact optimal expected score (the solver's; the optimal bot plays this policy)."""
    from pinsetter.solvers.rolling_pins import policy_for

    return float(policy_for(pins, frames, 1).expected_score)


def expectimax_mean(frames: int, games: int, seed: int) -> tuple[float, float]:
    """The expectimax bot's mean Solitaire score over `games` seeded games and its standard error."""
    from pinsetter.records import PlayerSpec
    from pinsetter.simulate import simulate

    summary = simulate("bowling-solitaire", {"frames": frames}, PlayerSpec.parse_list("bot:expectimax"), games, seed)
    scores = [float(s) for s in summary.players[0].scores]
    return statistics.fmean(scores), statistics.stdev(scores) / math.sqrt(len(scores))


def plot(path: Path, rows: Sequence[dict[str, float]], lines: Sequence[tuple[float, str, str]], title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    steps = [r["steps"] / 1e6 for r in rows]
    ax.fill_between(steps, [r["ci95_low"] for r in rows], [r["ci95_high"] for r in rows], alpha=0.3)
    ax.plot(steps, [r["mean_score"] for r in rows], marker=".", label="MaskablePPO, deterministic policy (95%)")
    for value, style, label in lines:
        ax.axhline(value, color="black" if style == "--" else "grey", linestyle=style, label=label)
    ax.set_xlabel("training steps (millions)")
    ax.set_ylabel("mean final score")
    ax.set_title(title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=GAMES)
    parser.add_argument("--frames", type=int, default=2)
    parser.add_argument("--pins", type=int, default=10, help="Rolling Pins only")
    parser.add_argument("--steps", type=int, default=4_000_000, help="total training steps (all games)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-envs", type=int, default=256, help="games in the training batch")
    parser.add_argument("--n-steps", type=int, default=64, help="steps per game between updates")
    parser.add_argument("--batch-size", type=int, default=4096)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--lr-final", type=float, help="lowered linearly from --lr to this over --steps")
    parser.add_argument("--gamma", type=float, default=1.0)
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--ent-coef", type=float, default=0.005)
    parser.add_argument("--ent-final", type=float, help="lowered linearly from --ent-coef to this over --steps")
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--net", default="128,128", help="hidden layers of the policy and value networks")
    parser.add_argument("--reward-scale", type=float, default=0.1)
    parser.add_argument("--eval-every", type=int, default=250_000)
    parser.add_argument("--eval-games", type=int, default=8192)
    parser.add_argument("--eval-seed", type=int, default=10**6, help="never the training batch's seed")
    parser.add_argument("--expectimax-games", type=int, default=4000, help="Solitaire's reference games")
    parser.add_argument("--expectimax-seed", type=int, default=11)
    parser.add_argument(
        "--expectimax", type=float, nargs=3, metavar=("MEAN", "LOW", "HIGH"), help="the bot's mean, measured before"
    )
    parser.add_argument("--cpu-minutes", type=float, default=math.inf, help="stop at the first evaluation past it")
    parser.add_argument("--wall-minutes", type=float, default=math.inf, help="stop at the first evaluation past it")
    parser.add_argument("--no-plot", action="store_true", help="the CSV and summary only")
    parser.add_argument("--save", action="store_true", help="keep the trained model as model.zip in --out")
    parser.add_argument(
        "--checkpoints", action="store_true", help="keep the model of every evaluation as model-STEPS.zip in --out"
    )
    parser.add_argument("--out", type=Path, default=Path("maskable_ppo_run"), help="directory of the CSV and PNG")
    return parser.parse_args(argv)


def train(args: argparse.Namespace, report: Callable[[str], None] = print) -> tuple[MaskablePPO, Evaluations]:
    """Train and evaluate; writes `curve.csv`, `summary.json` and `curve.png` in `args.out`."""
    torch.set_num_threads(1)
    torch.distributions.Distribution.set_default_validate_args(False)  # a tenth of the time went to checks
    args.out.mkdir(parents=True, exist_ok=True)
    lines: list[tuple[float, str, str]] = []
    if args.game == "rolling-pins":
        reference = rolling_pins_optimum(args.frames, args.pins)
        lines.append((reference, "--", f"exact optimum (solver, optimal bot) {reference:.2f}"))
        title = f"Rolling Pins, {args.frames} frames, {args.pins} pins"
        reference_text = f"exact optimum {reference:.4f}"
    else:
        if args.expectimax:  # measured before, e.g. by `pinsetter simulate ... --players bot:expectimax --json`
            reference, error = args.expectimax[0], (args.expectimax[2] - args.expectimax[1]) / 2 / 1.96
        else:
            reference, error = expectimax_mean(args.frames, args.expectimax_games, args.expectimax_seed)
        lines.append(
            (reference, "--", f"expectimax bot {reference:.2f} ± {1.96 * error:.2f} ({args.expectimax_games} games)")
        )
        title = f"Bowling Solitaire, {args.frames} frame{'s' if args.frames > 1 else ''}"
        reference_text = f"expectimax bot {reference:.4f} ± {1.96 * error:.4f} (95%, {args.expectimax_games} games)"
    report(reference_text)
    csv_path = args.out / "curve.csv"
    csv_path.unlink(missing_ok=True)
    pins = args.pins if args.game == "rolling-pins" else None
    env = BatchVecEnv(make_batch(args.game, args.n_envs, args.frames, pins), args.reward_scale)
    evaluations = Evaluations(
        make_batch(args.game, args.eval_games, args.frames, pins),
        args.eval_seed,
        args.eval_every,
        csv_path,
        reference,
        report,
    )
    evaluations.cpu_budget, evaluations.wall_budget = 60 * args.cpu_minutes, 60 * args.wall_minutes
    evaluations.checkpoints = args.checkpoints
    evaluations.total_steps = args.steps
    if args.ent_final is not None:
        evaluations.entropy = linear(args.ent_coef, args.ent_final)
    signal.signal(signal.SIGTERM, lambda *_: setattr(evaluations, "stop_now", True))
    net = [int(width) for width in args.net.split(",")]
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.epochs,
        learning_rate=args.lr if args.lr_final is None else linear(args.lr, args.lr_final),
        gamma=args.gamma,
        gae_lambda=args.gae_lambda,
        ent_coef=args.ent_coef,
        clip_range=args.clip,
        policy_kwargs={"net_arch": net},
        seed=args.seed,
        device="cpu",
    )
    model.learn(args.steps, callback=evaluations)
    rows = evaluations.rows
    best = max(rows, key=lambda r: r["mean_score"])
    summary = {
        "args": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
        "reference": reference,
        "reference_text": reference_text,
        "final": rows[-1],
        "best": best,
        "training_games": len(env.scores),
    }
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    if args.save:
        model.save(args.out / "model.zip")
    if not args.no_plot:
        plot(args.out / "curve.png", rows, lines, title)
    return model, evaluations


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    _, evaluations = train(args, lambda line: print(line, flush=True))
    final = evaluations.rows[-1]
    print(
        f"final: {final['mean_score']:.3f} [{final['ci95_low']:.3f}, {final['ci95_high']:.3f}] = "
        f"{final['percent_of_reference']:.1f}% of the reference after {final['steps']} steps, "
        f"{final['wall_seconds']:.0f} s wall, {final['cpu_seconds']:.0f} s CPU; written to {args.out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
