"""The MaskablePPO baselines example (examples/maskable_ppo.py): its SB3 adapter over the batch, its loop.

A few hundred steps of `MaskablePPO` through `BatchVecEnv` over the batched games: every id
played is legal by the mask of the position it answers, games finished in a step are
restarted in that step (their final observation and score in the infos, as SB3's own vector
environments give them), the scores add up, and the deterministic evaluation plays legal ids
only. `BatchedEnv.restart` is checked on its own: the games restarted start anew, the others
are untouched. Skipped only when the `rl` extra is missing outside CI.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

if os.environ.get("CI") != "true":
    pytest.importorskip("gymnasium")
    pytest.importorskip("sb3_contrib")

from pinsetter.integrations.vector import BowlingSolitaireVectorEnv, RollingPinsVectorEnv


def _example() -> types.ModuleType:
    path = Path(__file__).parent.parent / "examples" / "maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("maskable_ppo", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


example = _example()


class Checked(example.BatchVecEnv):  # type: ignore[name-defined,misc]
    """Checks every action against the mask the agent was given, and every restart."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.legal = self.illegal = self.finished = 0
        self.returns = np.zeros(self.num_envs)

    def step_async(self, actions: np.ndarray[Any, Any]) -> None:
        ok = self.batch.action_masks()[np.arange(self.num_envs), np.asarray(actions).reshape(-1)]
        self.legal += int(ok.sum())
        self.illegal += int((~ok).sum())
        super().step_async(actions)

    def step_wait(self) -> Any:
        obs, rewards, dones, infos = super().step_wait()
        self.returns += rewards / self.reward_scale
        for g in np.flatnonzero(dones):
            final = infos[g]["terminal_observation"]
            assert not np.array_equal(final, obs[g])  # the next game's first observation
            assert infos[g]["episode"]["r"] == pytest.approx(self.returns[g])  # rewards sum to the score
            self.returns[g] = 0.0
            self.finished += 1
        assert self.batch.action_masks().any(axis=1).all()  # every game, restarted ones too, has a legal id
        return obs, rewards, dones, infos


@pytest.mark.parametrize(("game", "frames"), [("rolling-pins", 1), ("bowling-solitaire", 1)])
def test_maskable_ppo_on_the_batch_plays_legal_ids_only(game: str, frames: int, tmp_path: Path) -> None:
    small = ["--n-envs", "16", "--n-steps", "16", "--batch-size", "64", "--epochs", "1", "--net", "16"]
    evaluating = ["--eval-games", "32", "--eval-every", "256", "--expectimax", "18", "17", "19"]
    args = example.parse_args(
        [game, "--frames", str(frames), *small, *evaluating, "--steps", "512", "--no-plot", "--out", str(tmp_path)]
    )
    pins = 3 if game == "rolling-pins" else None
    env = Checked(example.make_batch(game, 16, frames, pins), 0.1)
    model = example.MaskablePPO(
        "MlpPolicy", env, n_steps=16, batch_size=64, n_epochs=1, gamma=1.0, policy_kwargs={"net_arch": [16]}, seed=0
    )
    model.learn(512)
    assert env.legal >= 512 and env.illegal == 0
    assert env.finished >= 16 and len(env.scores) == env.finished
    mean, error, legal_only = example.evaluate(model, example.make_batch(game, 64, frames, pins), 5)
    assert legal_only == [True] and mean > 0 and error > 0
    if game == "bowling-solitaire":
        return  # the script's own loop, once: it writes its curve
    _, evaluations = example.train(args, lambda _: None)
    assert [row["steps"] for row in evaluations.rows][:2] == [0, 256]
    assert (tmp_path / "curve.csv").read_text().count("\n") == len(evaluations.rows) + 1
    assert not (tmp_path / "curve.png").exists()  # --no-plot: matplotlib's import is a second of CPU


def test_restart_starts_the_games_given_and_leaves_the_others() -> None:
    for batch in (RollingPinsVectorEnv(6, frames=2), BowlingSolitaireVectorEnv(6, frames=1)):
        fresh, _ = batch.reset(seed=3)
        rng = np.random.default_rng(0)
        for _ in range(3):
            batch.step(batch.sample_legal(rng))
        before = batch.step(batch.sample_legal(rng))[0]
        scores = batch.scores()
        obs, infos = batch.restart([1, 4])
        kept = [0, 2, 3, 5]
        assert np.array_equal(obs[kept], before[kept]) and np.array_equal(batch.scores()[kept], scores[kept])
        assert (batch.scores()[[1, 4]] == 0).all()
        assert np.array_equal(infos["action_mask"].astype(bool), batch.action_masks())
        if isinstance(batch, RollingPinsVectorEnv):  # no chance before the first decision: the same start
            assert np.array_equal(obs[[1, 4]], fresh[[1, 4]])


def test_schedules_lower_the_rate_and_entropy_and_checkpoints_are_kept(tmp_path: Path) -> None:
    small = ["--n-envs", "16", "--n-steps", "16", "--batch-size", "64", "--epochs", "1", "--net", "16"]
    schedules = ["--lr", "1e-3", "--lr-final", "0", "--ent-coef", "0.2", "--ent-final", "0"]
    evaluating = ["--eval-games", "32", "--eval-every", "256"]
    keeping = ["--checkpoints", "--save", "--no-plot", "--out", str(tmp_path)]
    args = example.parse_args(
        ["rolling-pins", "--frames", "1", "--pins", "3", *small, *schedules, *evaluating, "--steps", "1024", *keeping]
    )
    model, evaluations = example.train(args, lambda _: None)
    assert model.lr_schedule(1.0) == pytest.approx(1e-3) and model.lr_schedule(0.0) == 0.0
    assert model.lr_schedule(0.25) == pytest.approx(2.5e-4)
    # The last rollout began with 256 of 1 024 steps left: its entropy coefficient is a quarter of the start's.
    assert model.ent_coef == pytest.approx(0.05)
    kept = sorted(path.name for path in tmp_path.glob("model*.zip"))
    assert kept == sorted(["model.zip", *(f"model-{row['steps']}.zip" for row in evaluations.rows)])
    again = example.MaskablePPO.load(tmp_path / "model.zip", device="cpu")
    assert again.num_timesteps == model.num_timesteps == 1024
