"""sb3-contrib's MaskablePPO trains in its own loop on the Gymnasium environments (issue 29).

Its loop: `learn` over a vector environment that resets each episode as it ends
(Stable-Baselines3's `DummyVecEnv` of `gymnasium.make` environments: SB3 takes
its own vector environments, not `gymnasium.vector`'s), masks asked of every
environment through `action_masks()` after every step and reset. A wrapper
counts every id the agent plays against the mask it was given, so the test
proves that only legal ids were played, deals over at once included (their one
legal id is `end`). Skipped only when the `rl` extra is missing outside CI;
with CI=true it must run.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

if os.environ.get("CI") != "true":
    pytest.importorskip("gymnasium")
    pytest.importorskip("sb3_contrib")

import gymnasium
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

import pinsetter.integrations.gymnasium  # noqa: F401  (registers the environments)

OVER_AT_ONCE = 676  # a one-frame Solitaire seed whose deal has no play (tests/test_rl_loops.py)
NEXT_RESET_OVER = 534  # reset with this seed, and the next (unseeded) reset deals such a game

# A policy this small is quickest on one thread: on the shared 2-core machine torch's default
# threads made each tiny matrix product wait (7.3 s for the Rolling Pins run below, 0.75 s on one).
torch.set_num_threads(1)


class Counted(gymnasium.Wrapper[Any, Any, Any, Any]):
    """Counts the ids played, legal or not by the mask of the position they answer; the first reset's seed is fixed."""

    def __init__(self, env: gymnasium.Env[Any, Any], first_seed: int) -> None:
        super().__init__(env)
        self.first_seed: int | None = first_seed
        self.legal = self.illegal = self.episodes = self.over_at_once = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        if self.first_seed is not None:
            seed, self.first_seed = self.first_seed, None
        obs, info = self.env.reset(seed=seed, options=options)
        mask = info["action_mask"]
        self.over_at_once += int(np.flatnonzero(mask).tolist() == [len(mask) - 1])
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        legal = bool(self.env.get_wrapper_attr("action_masks")()[int(action)])
        self.legal += legal
        self.illegal += not legal
        obs, reward, terminated, truncated, info = self.env.step(action)
        assert info["illegal_action"] == (not legal)
        self.episodes += terminated or truncated
        return obs, float(reward), terminated, truncated, info


def _train(env_id: str, options: dict[str, object], seeds: list[int], steps: int) -> list[Counted]:
    envs = [Counted(gymnasium.make(env_id, **options), seed) for seed in seeds]
    vec = DummyVecEnv([lambda env=env: env for env in envs])  # type: ignore[misc]
    model = MaskablePPO(
        "MlpPolicy", vec, n_steps=64, batch_size=64, n_epochs=2, policy_kwargs={"net_arch": [32]}, seed=0, device="cpu"
    )
    model.learn(steps)
    return envs


def test_maskable_ppo_trains_on_rolling_pins_with_legal_ids_only() -> None:
    envs = _train("pinsetter/RollingPins-v0", {"frames": 2}, [1, 2], 384)
    assert sum(e.legal for e in envs) >= 384 and sum(e.illegal for e in envs) == 0
    assert sum(e.episodes for e in envs) >= 2  # whole games, each ended by the game


def test_maskable_ppo_trains_on_one_frame_solitaire_through_deals_over_at_once() -> None:
    envs = _train("pinsetter/BowlingSolitaire-v0", {"frames": 1}, [OVER_AT_ONCE, NEXT_RESET_OVER], 256)
    assert sum(e.legal for e in envs) >= 256 and sum(e.illegal for e in envs) == 0
    assert sum(e.over_at_once for e in envs) >= 2  # seed 676's deal, and the deal after seed 534's
    assert sum(e.episodes for e in envs) >= 20
