"""Seeded Gymnasium episodes stay the same episodes while the environments are made faster (issue 29).

Each digest hashes everything a few seeded episodes return, step by step:
observations (their float32 bytes), rewards, terminated/truncated, the
`action_mask`, `score` and `illegal_action` of every info, `action_masks()`,
and at each episode's end the text of the match's record. The digests were
computed on main at 79c04a9, before the environment's steps were made
cheaper; a change of the seeded draws, of an observation entry or of a mask
changes them. Illegal ids are played now and then, and later episodes are
reset without a seed (the environment's own generator picks the game's seed);
seed 534 with one frame deals, at its second reset, a game over before its first
decision (`test_rl_loops`). The PettingZoo digests hash every agent's observation
and mask at every step (the observer serves both adapters).
"""

from __future__ import annotations

import hashlib
import os
import random

import numpy as np
import pytest

if os.environ.get("CI") != "true":
    pytest.importorskip("gymnasium")

import gymnasium

import pinsetter.integrations.gymnasium  # noqa: F401  (registers the environments)

EPISODES = 6
ILLEGAL_EVERY = 17  # every 17th step plays an illegal id, when the mask has one


def _episodes_digest(env_id: str, options: dict[str, object], seed: int) -> str:
    """sha256 of what `EPISODES` episodes return (the first reset seeded, the others not)."""
    env = gymnasium.make(env_id, **options)
    digest = hashlib.sha256()
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    episodes, steps = 0, 0
    while episodes < EPISODES:
        digest.update(obs.tobytes())
        digest.update(info["action_mask"].tobytes())
        digest.update(np.asarray(env.unwrapped.action_masks()).tobytes())
        digest.update(repr((info["score"], info.get("illegal_action"))).encode())
        steps += 1
        mask = info["action_mask"]
        illegal = np.flatnonzero(mask == 0)
        if steps % ILLEGAL_EVERY == 0 and len(illegal):
            action = int(illegal[rng.randrange(len(illegal))])
        else:
            legal = np.flatnonzero(mask)
            action = int(legal[rng.randrange(len(legal))])
        obs, reward, terminated, truncated, info = env.step(action)
        digest.update(repr((action, reward, terminated, truncated)).encode())
        if terminated or truncated:
            record = env.unwrapped.match.record
            digest.update(repr([(s.actor, s.text) for s in record.steps]).encode())
            digest.update(repr((record.seed, record.result)).encode())
            digest.update(obs.tobytes())
            digest.update(info["action_mask"].tobytes())
            digest.update(repr((sorted(info), info["score"], info["illegal_action"])).encode())
            episodes += 1
            obs, info = env.reset()
    return digest.hexdigest()


@pytest.mark.parametrize(
    ("env_id", "options", "seed", "expected"),
    [
        (
            "pinsetter/RollingPins-v0",
            {},
            3,
            "3779a49080aee30679253e7ad1a8d59a0c7a87c682f4f277750d92566861262e",
        ),
        (
            "pinsetter/RollingPins-v0",
            {"frames": 3, "advanced": True},
            8,
            "d4516fdaef73c36d43af50d66f4b6054f8ec6ec5a713a91fa07616237329f11d",
        ),
        (
            "pinsetter/BowlingSolitaire-v0",
            {},
            5,
            "67305a9caba4105e76276fee3c544bc63814b0d3edfd089fa0cd010b60c181dd",
        ),
        (
            "pinsetter/BowlingSolitaire-v0",
            {"frames": 3, "groups": "mutual"},
            21,
            "873adb3db8fb472cad4f3a01f74b9bb001fd03587689914e753c44102cae30e2",
        ),
        (
            "pinsetter/BowlingSolitaire-v0",
            {"frames": 1},
            534,
            "72092afecd9721d680e5c23263c00933e9531e7d1fe649ca5b5441c69bd68f2d",
        ),
    ],
)
def test_seeded_episodes_are_the_episodes_of_main(
    env_id: str, options: dict[str, object], seed: int, expected: str
) -> None:
    assert _episodes_digest(env_id, options, seed) == expected


def _pettingzoo_digest(game: str, players: int, options: dict[str, object], seed: int) -> str:
    """sha256 of every agent's observation and mask at each step of a few seeded PettingZoo games."""
    from pinsetter.integrations.pettingzoo import env as pz_env

    aec = pz_env(game=game, players=players, **options)
    digest = hashlib.sha256()
    rng = random.Random(seed)
    for episode in range(3):
        aec.reset(seed=seed + episode)
        for agent in aec.agent_iter():
            for name in aec.possible_agents:
                seen = aec.observe(name)
                digest.update(seen["observation"].tobytes())
                digest.update(seen["action_mask"].tobytes())
            _, reward, terminated, truncated, _ = aec.last()
            digest.update(repr((agent, reward, terminated, truncated)).encode())
            if terminated or truncated:
                aec.step(None)
            else:
                legal = np.flatnonzero(aec.observe(agent)["action_mask"])
                aec.step(int(legal[rng.randrange(len(legal))]))
    return digest.hexdigest()


@pytest.mark.parametrize(
    ("game", "players", "options", "seed", "expected"),
    [
        (
            "rolling-pins",
            2,
            {"frames": 3},
            4,
            "e811bd556196a65d051df554d05554150586d3179cd627ea6ccca27db6d229c1",
        ),
        (
            "rolling-pins",
            2,
            {"frames": 2, "shared_dice": True, "advanced": True},
            9,
            "45de88c75291929677c0a31146c0de67e63f266bce92cd4d0d16c171a27b4a9f",
        ),
        (
            "bowling-solitaire",
            1,
            {"frames": 3},
            13,
            "5fdac9d3b706693bb8647be2c7de4a4879d70144f1fa00ebd6c7c0996038b91d",
        ),
    ],
)
def test_seeded_pettingzoo_games_are_the_games_of_main(
    game: str, players: int, options: dict[str, object], seed: int, expected: str
) -> None:
    pytest.importorskip("pettingzoo")
    assert _pettingzoo_digest(game, players, options, seed) == expected
