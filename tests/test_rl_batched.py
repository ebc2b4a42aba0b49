"""The batched Rolling Pins (integrations/vector.py) against the reference engine, step by step.

The batch's kernel is a second implementation of the basic game, so every seeded game here is
played through `PinsetterEnv` (the engine, with `Match`'s seeded dice) and through the batch
with the same dice and the same actions: observations (exact float32), masks, rewards,
terminations, scores and the illegal-action flag must agree at every step, across the
next-step autoreset. Skipped only when the `rl` extra is missing outside CI.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

if os.environ.get("CI") != "true":
    pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.wrappers.vector import RecordEpisodeStatistics

from pinsetter.games.bowling_solitaire import seeded_deal
from pinsetter.integrations.gymnasium import PinsetterEnv
from pinsetter.integrations.vector import (
    BATCHED_ENV_ID,
    SOLITAIRE_BATCHED_ENV_ID,
    BatchedEnv,
    BowlingSolitaireVectorEnv,
    RollingPinsVectorEnv,
)

# (options, games played side by side, batch steps): 1, 3 and 10 frames, no tokens, fewer pins.
CASES = (
    ({"frames": 1}, 24, 240),
    ({"frames": 3}, 24, 300),
    ({"frames": 2, "tokens": False}, 16, 200),
    ({"frames": 3, "pins": 4}, 16, 200),
    ({"frames": 2, "pins": 1, "tokens": False}, 8, 60),
    ({"frames": 10, "pins": 6}, 8, 400),
    ({}, 16, 700),
)


class _Chance:
    """How `_side_by_side` hands the batch the chance `Match` drew; each hook is called where its name says."""

    def __init__(self, rng: random.Random, games: int) -> None:
        self.rng, self.games = rng, games

    def reset(self, batch: BatchedEnv, refs: list[PinsetterEnv], seed: int) -> tuple[np.ndarray, dict[str, Any]]:
        return batch.reset(seed=seed)

    def draw(self) -> None:
        """Before each step's actions are chosen."""

    def restarted(self, g: int, ref: PinsetterEnv) -> None:
        """After reference game g is reset for a new episode."""

    def played(self, g: int, ref: PinsetterEnv, action: int, info: dict[str, Any]) -> None:
        """After reference game g has stepped with `action`."""

    def step(self, batch: BatchedEnv, actions: np.ndarray) -> tuple[Any, ...]:
        raise NotImplementedError


class _Dice(_Chance):
    """Rolling Pins: each step's dice, what `Match` rolled where a game rolls (random elsewhere, unused)."""

    def draw(self) -> None:
        self.dice = np.array([(self.rng.randint(1, 6), self.rng.randint(1, 6)) for _ in range(self.games)], np.int32)

    def played(self, g: int, ref: PinsetterEnv, action: int, info: dict[str, Any]) -> None:
        text = ref.index.text(action) if 0 <= action < ref.index.size else ""
        if text.startswith("dice") and not info["illegal_action"]:
            faces = ref.match.state.players[0].dice  # the roll Match drew for this position
            self.dice[g, : len(faces)] = faces

    def step(self, batch: BatchedEnv, actions: np.ndarray) -> tuple[Any, ...]:
        assert isinstance(batch, RollingPinsVectorEnv)
        return batch.step_with_dice(actions, self.dice)


def _side_by_side(
    game_id: str,
    batch: BatchedEnv,
    options: dict[str, object],
    steps: int,
    rng: random.Random,
    first_seed: int,
    batch_seed: int,
    chance: _Chance,
) -> tuple[int, int]:
    """Play one reference game per slot of `batch` beside it for `steps` steps, the chance given by `chance`.

    The reference games are seeded from `first_seed` on (each new game the next seed), the actions
    drawn from `rng`. Returns the episodes finished and the `end` ids played.
    """
    games = batch.num_envs
    refs = [PinsetterEnv(game_id, **options) for _ in range(games)]
    size = batch.index.size
    assert batch.single_action_space.n == refs[0].action_space.n == size
    assert batch.feature_names == refs[0].feature_names
    next_seed = first_seed
    infos = []
    for ref in refs:
        infos.append(ref.reset(seed=next_seed)[1])
        next_seed += 1
    obs, binfo = chance.reset(batch, refs, batch_seed)
    for g, ref in enumerate(refs):
        assert ref.match is not None
        assert np.array_equal(obs[g], ref.observer.vector(ref.match.state, 0))
        assert np.array_equal(binfo["action_mask"][g], infos[g]["action_mask"])
    ended = [False] * games
    episodes = ends = 0
    for _ in range(steps):
        actions = np.zeros(games, np.int64)
        chance.draw()
        expected = []
        for g, ref in enumerate(refs):
            if ended[g]:  # the batch starts this game anew and ignores the action
                actions[g] = rng.randrange(-1, size + 1)
                ref_obs, info = ref.reset(seed=next_seed)
                next_seed += 1
                chance.restarted(g, ref)
                expected.append((ref_obs, 0.0, False, info, False))
                continue
            mask = infos[g]["action_mask"]
            if rng.random() < 0.05:  # an illegal id now and then: outside the space or masked out
                masked = np.flatnonzero(mask == 0).tolist()
                actions[g] = rng.choice([-1, size, *rng.sample(masked, min(3, len(masked)))])
            else:
                actions[g] = rng.choice(np.flatnonzero(mask).tolist())
                ends += int(actions[g] == batch.index.end_id)
            ref_obs, reward, terminated, truncated, info = ref.step(int(actions[g]))
            assert not truncated
            chance.played(g, ref, int(actions[g]), info)
            expected.append((ref_obs, reward, terminated, info, info["illegal_action"]))
        obs, rewards, terminations, truncations, binfo = chance.step(batch, actions)
        assert not truncations.any()
        for g, (ref_obs, reward, terminated, info, illegal) in enumerate(expected):
            where = f"{options} game {g}: {ref_obs!r}"
            assert np.array_equal(obs[g], ref_obs), where
            assert obs[g].dtype == ref_obs.dtype == np.float32
            assert np.array_equal(binfo["action_mask"][g], info["action_mask"]), where
            assert rewards[g] == reward, where
            assert bool(terminations[g]) == terminated, where
            assert binfo["score"][g] == info["score"], where
            assert bool(binfo["illegal_action"][g]) == illegal, where
            infos[g] = info
            episodes += int(terminated)
            ended[g] = terminated
        assert np.array_equal(batch.action_masks(), binfo["action_mask"].astype(bool))
        assert np.array_equal(batch._counts, binfo["action_mask"].sum(axis=1))
        sampled = batch.sample_legal(np.random.default_rng(0))
        live = batch._counts > 0
        assert binfo["action_mask"][live, sampled[live]].all()
    return episodes, ends


def _differential(options: dict[str, object], games: int, steps: int, seed: int) -> int:
    """Play `games` reference games beside one batch for `steps` steps; return the episodes finished."""
    rng = random.Random(seed)
    batch = RollingPinsVectorEnv(games, **options)
    episodes, _ = _side_by_side("rolling-pins", batch, options, steps, rng, seed * 10_000, seed, _Dice(rng, games))
    return episodes


def _own_chance_runs(make: Callable[[], BatchedEnv], steps: int) -> list[tuple[np.ndarray, list[float]]]:
    """Two runs of random legal play from the same seeds: each its observations and its finished games' returns."""
    runs = []
    for _ in range(2):
        batch = make()
        batch.reset(seed=5)
        rng = np.random.default_rng(1)
        trace, returns, finished = [], np.zeros(batch.num_envs), []
        for _ in range(steps):
            obs, rewards, terminations, _, _ = batch.step(batch.sample_legal(rng))
            returns += rewards
            trace.append(obs)
            for g in np.flatnonzero(terminations):
                finished.append(returns[g])
                returns[g] = 0
        runs.append((np.array(trace), finished))
    return runs


@pytest.mark.parametrize(("options", "games", "steps"), CASES, ids=[str(c[0]) for c in CASES])
def test_batch_matches_the_engine_step_by_step(options: dict[str, object], games: int, steps: int) -> None:
    episodes = _differential(options, games, steps, seed=len(str(options)) + games)
    assert episodes >= games  # every slot finished a game (most several), so autoreset was crossed


def test_refuses_what_the_kernel_does_not_play() -> None:
    for bad in ({"advanced": True}, {"shared_dice": True}, {"players": 2}):
        with pytest.raises(ValueError, match="basic game with one player"):
            RollingPinsVectorEnv(4, **bad)


def test_own_dice_are_seeded_and_games_end() -> None:
    """Its own dice: the same seed and actions give the same games; every game ends with a valid score."""
    runs = _own_chance_runs(lambda: RollingPinsVectorEnv(64, frames=3), 200)
    assert np.array_equal(runs[0][0], runs[1][0])
    assert len(runs[0][1]) >= 64
    assert all(0 <= score <= 3 * 10 * 3 for score in runs[0][1])


def test_step_limit_truncates_and_restarts() -> None:
    batch = RollingPinsVectorEnv(2, frames=1, max_episode_steps=3)
    _, infos = batch.reset(seed=0)
    bad = np.array([batch.index.size, -1])  # illegal: nothing changes, but the steps count
    for step in range(3):
        _, rewards, terminations, truncations, infos = batch.step(bad)
        assert infos["illegal_action"].all() and not terminations.any() and not rewards.any()
        assert truncations.all() == (step == 2)
    _, _, _, truncations, infos = batch.step(bad)  # the next step starts new games
    assert not truncations.any() and not infos["illegal_action"].any()
    assert batch.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP


@pytest.mark.parametrize("env_id", [BATCHED_ENV_ID, SOLITAIRE_BATCHED_ENV_ID])
def test_make_vec(env_id: str) -> None:
    envs = gymnasium.make_vec(env_id, num_envs=8, frames=2)
    obs, infos = envs.reset(seed=3)
    assert obs.shape == (8, envs.single_observation_space.shape[0])
    assert infos["action_mask"].shape == (8, envs.single_action_space.n)
    envs.step(envs.unwrapped.sample_legal())
    recorded = RecordEpisodeStatistics(envs)  # Gymnasium's vector wrappers take next-step autoreset
    recorded.reset(seed=4)
    for _ in range(60):
        recorded.step(envs.unwrapped.sample_legal())
    assert len(recorded.return_queue) >= 8


# --- Bowling Solitaire -------------------------------------------------------------------

# (options, games side by side, batch steps, first seed): one frame (from seed 670: seed 676's
# deal has no play in either ball, so its episode is the single `end`), 3 and 10 frames, mutual groups.
SOLITAIRE_CASES = (
    ({"frames": 1}, 16, 160, 670),
    ({"frames": 3}, 16, 200, 1),
    ({"frames": 2, "groups": "mutual"}, 16, 150, 100),
    ({}, 12, 400, 1000),
)


def _deals(ref: PinsetterEnv, count: int) -> np.ndarray:
    """The deals `Match` deals this reference game, deal n at n - 1: pins 1-10, then piles 1-3 top first."""
    assert ref.match is not None
    cards = []
    for n in range(1, count + 1):
        deal = seeded_deal(ref.match.seed, n)
        cards.append([*deal.pins, *(card for pile in deal.piles for card in pile)])
    return np.array(cards, np.int32)


class _Deals(_Chance):
    """Bowling Solitaire: `Match`'s deals of each reference game."""

    def reset(self, batch: BatchedEnv, refs: list[PinsetterEnv], seed: int) -> tuple[np.ndarray, dict[str, Any]]:
        assert isinstance(batch, BowlingSolitaireVectorEnv)
        self.max_deals = batch.max_deals
        self.deals = np.array([_deals(ref, batch.max_deals) for ref in refs])
        return batch.reset(seed=seed, options={"deals": self.deals})

    def restarted(self, g: int, ref: PinsetterEnv) -> None:
        self.deals[g] = _deals(ref, self.max_deals)

    def step(self, batch: BatchedEnv, actions: np.ndarray) -> tuple[Any, ...]:
        assert isinstance(batch, BowlingSolitaireVectorEnv)
        return batch.step_with_deals(actions, self.deals)


def _solitaire_differential(options: dict[str, object], games: int, steps: int, first_seed: int) -> tuple[int, int]:
    """As `_differential` for Bowling Solitaire, with `Match`'s deals given to the batch; (episodes, ends)."""
    rng = random.Random(first_seed)
    batch = BowlingSolitaireVectorEnv(games, **options)
    return _side_by_side("bowling-solitaire", batch, options, steps, rng, first_seed, 0, _Deals(rng, games))


@pytest.mark.parametrize(
    ("options", "games", "steps", "first_seed"), SOLITAIRE_CASES, ids=[str(c[0]) for c in SOLITAIRE_CASES]
)
def test_solitaire_batch_matches_the_engine_step_by_step(
    options: dict[str, object], games: int, steps: int, first_seed: int
) -> None:
    episodes, ends = _solitaire_differential(options, games, steps, first_seed)
    assert episodes >= games
    if options == {"frames": 1}:
        assert ends >= 1  # seed 676: a deal over before its first decision, ended by `end`


def test_solitaire_own_deals_are_seeded_and_games_end() -> None:
    runs = _own_chance_runs(lambda: BowlingSolitaireVectorEnv(64, frames=2), 150)
    assert np.array_equal(runs[0][0], runs[1][0])
    assert len(runs[0][1]) >= 64
    assert all(0 <= score <= 60 for score in runs[0][1])
    batch = BowlingSolitaireVectorEnv(64, frames=2)
    batch.reset(seed=5)
    with pytest.raises(ValueError, match="twenty cards"):
        batch.step_with_deals(np.zeros(64), np.ones((64, batch.max_deals, 20)))


def _random_play_scores(envs: RollingPinsVectorEnv | BowlingSolitaireVectorEnv, games: int) -> list[float]:
    """Final scores of `games` games of uniformly random legal play with the batch's own chance."""
    envs.reset(seed=11)
    rng = np.random.default_rng(12)
    returns, finished = np.zeros(envs.num_envs), []
    while len(finished) < games:
        _, rewards, terminations, _, _ = envs.step(envs.sample_legal(rng))
        returns += rewards
        for g in np.flatnonzero(terminations):
            finished.append(float(returns[g]))
            returns[g] = 0
    return finished[:games]


def _reference_scores(game_id: str, options: dict[str, object], games: int) -> list[float]:
    """The same random play through `PinsetterEnv`, with `Match`'s seeded chance."""
    rng = random.Random(13)
    ref = PinsetterEnv(game_id, **options)
    scores = []
    for seed in range(games):
        _, info = ref.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            _, reward, done, _, info = ref.step(rng.choice(np.flatnonzero(info["action_mask"]).tolist()))
            total += reward
        scores.append(total)
    return scores


@pytest.mark.parametrize(
    ("game_id", "env"), [("rolling-pins", RollingPinsVectorEnv), ("bowling-solitaire", BowlingSolitaireVectorEnv)]
)
def test_own_chance_scores_as_match_does(game_id: str, env: type[RollingPinsVectorEnv]) -> None:
    """The batch's own dice and deals against `Match`'s: random play's mean score agrees (4.5 standard errors)."""
    options: dict[str, object] = {"frames": 1}
    ours = _random_play_scores(env(256, **options), 4000)
    theirs = _reference_scores(game_id, options, 800)
    error = np.sqrt(np.var(ours) / len(ours) + np.var(theirs) / len(theirs))
    assert abs(np.mean(ours) - np.mean(theirs)) < 4.5 * error, (np.mean(ours), np.mean(theirs), error)


def test_own_deals_are_uniform() -> None:
    """Every slot of the kernel's shuffled deals shows each value about equally often."""
    envs = BowlingSolitaireVectorEnv(5000, frames=1)
    envs.reset(seed=3)
    for slot in range(20):
        counts = np.bincount(envs._deals[:, slot], minlength=11)[1:]
        assert (abs(counts - 500) < 100).all(), (slot, counts)  # 500 expected, sd about 21
