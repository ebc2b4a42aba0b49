"""The registry's conformance playouts again, through every adapter (issue 14, point 5).

For every registered game (`registry.all_games()`, so a new game is covered
without an edit here) with each of its conformance option sets: one seeded
random game through OpenSpiel, one through PettingZoo and, for games with
decisions that one player can play, one through Gymnasium. Each game's steps
are then replayed through the engine alone, and the scores the adapter
reported (OpenSpiel's returns, the summed rewards of PettingZoo and
Gymnasium) must equal the engine's, and OpenSpiel's history must stay within
the game's bounds on decisions and chance steps. Skipped only when the `rl` extra is
missing outside CI; with CI=true they must run.
"""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

if os.environ.get("CI") != "true":
    pytest.importorskip("pyspiel")
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")

import gymnasium
import pyspiel

import pinsetter.integrations.gymnasium as gym_adapter
from pinsetter.games.registry import all_games, get_game
from pinsetter.integrations.encoding import END
from pinsetter.integrations.openspiel import parameters, short_name
from pinsetter.integrations.pettingzoo import env as pettingzoo_env
from pinsetter.records import replay

CASES = [
    pytest.param(game_id, options, players, id=f"{game_id}-{index}-{players}p")
    for game_id, cls in all_games().items()
    for index, options in enumerate(cls.conformance_options)
    for players in sorted({cls.min_players, min(3, cls.max_players)})
]


@pytest.mark.parametrize(("game_id", "options", "players"), CASES)
def test_openspiel_games_replay_through_the_engine(game_id: str, options: dict[str, object], players: int) -> None:
    game = get_game(game_id, options)
    spiel = pyspiel.load_game(short_name(game_id), parameters(game, players))
    state = spiel.new_initial_state()
    rng = random.Random(1)
    texts: list[str] = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(outcomes, weights=weights)[0]
        else:
            action = rng.choice(state.legal_actions())
        texts.append(state.action_to_string(state.current_player(), action))
        state.apply_action(action)
    assert len([t for t in texts if t]) == len(texts)
    engine = game.new_state(players)
    for text in texts:
        if text != END:  # the adapter's `end` (a game over before any decision) is no step of the game
            engine.apply_text(text)
    assert engine.is_terminal()
    assert state.returns() == [float(s) for s in engine.scores()]
    # The game's bounds hold: OpenSpiel counts decisions (`max_game_length`) and chance apart.
    chance = sum(p.player == pyspiel.PlayerId.CHANCE for p in state.full_history())
    assert len(texts) - chance <= spiel.max_game_length()
    assert chance <= spiel.max_chance_nodes_in_history()
    assert len(state.history()) <= spiel.max_history_length()


@pytest.mark.parametrize(("game_id", "options", "players"), CASES)
def test_pettingzoo_games_replay_through_the_engine(game_id: str, options: dict[str, object], players: int) -> None:
    aec = pettingzoo_env(game=game_id, players=players, **options)
    aec.reset(seed=3)
    rng = random.Random(3)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        aec.step(None if terminated or truncated else rng.choice(legal))
    assert aec.match is not None
    replayed = replay(aec.match.record)
    assert replayed.is_terminal()
    assert list(totals.values()) == [float(s) for s in replayed.scores()]


GYM_CASES = [case for case in CASES if case.values[0] in gym_adapter.ENV_IDS and case.values[2] == 1]


def test_every_game_with_decisions_for_one_player_has_an_environment() -> None:
    expected = {gid for gid, cls in all_games().items() if cls.has_decisions and cls.min_players == 1}
    assert set(gym_adapter.ENV_IDS) == expected
    assert all(env_id in gymnasium.registry for env_id in gym_adapter.ENV_IDS.values())


@pytest.mark.parametrize(("game_id", "options", "players"), GYM_CASES)
def test_gymnasium_games_replay_through_the_engine(game_id: str, options: dict[str, object], players: int) -> None:
    env = gymnasium.make(gym_adapter.ENV_IDS[game_id], **options)
    _, info = env.reset(seed=5)
    rng = random.Random(5)
    total, done = 0.0, False
    while not done:
        _, reward, done, truncated, info = env.step(rng.choice(np.flatnonzero(info["action_mask"]).tolist()))
        assert not truncated and not info["illegal_action"]
        total += float(reward)
    replayed = replay(env.unwrapped.match.record)
    assert replayed.is_terminal()
    assert total == float(replayed.scores()[0])
