"""The adapters for OpenSpiel, Gymnasium and PettingZoo, checked by those projects' own tests.

Skipped only when the `rl` extra is missing outside CI; with CI=true they must run.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import random
import sys
import types
from pathlib import Path

import numpy as np
import pytest

if os.environ.get("CI") != "true":
    pytest.importorskip("pyspiel")
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")

import gymnasium
import pyspiel
from gymnasium.utils.env_checker import check_env
from open_spiel.python.algorithms import mcts
from open_spiel.python.algorithms.minimax import expectiminimax
from pettingzoo.test import api_test, seed_test

import pinsetter.integrations.gymnasium
import pinsetter.integrations.openspiel  # noqa: F401  (registers the games)
from pinsetter.core.game import IllegalActionError, OptionError
from pinsetter.games.registry import GAMES, get_game
from pinsetter.integrations.encoding import step_index
from pinsetter.integrations.pettingzoo import env as pz_env
from pinsetter.records import PlayerSpec
from pinsetter.session import Match
from pinsetter.solvers.rolling_pins import policy_for

SIM_CASES = [
    ("pinsetter_tenpins", {}),
    ("pinsetter_tenpins", {"players": 3, "frames": 3}),
    ("pinsetter_bowling_dice", {"players": 2, "frames": 2}),
    ("pinsetter_bowling_dice", {"frames": 2, "dice": "XXXXXX;/PPPPP;" + ";".join(["-PPPPP"] * 8)}),
    ("pinsetter_rolling_pins", {"frames": 2}),
    ("pinsetter_rolling_pins", {"players": 2, "frames": 2, "advanced": True}),
    ("pinsetter_rolling_pins", {"players": 2, "frames": 2, "shared_dice": True, "advanced": True}),
    ("pinsetter_rolling_pins", {"frames": 3, "pins": 4, "tokens": False}),
    ("pinsetter_bowling_solitaire", {"frames": 2}),
    ("pinsetter_bowling_solitaire", {"groups": "mutual", "frames": 3}),
]


@pytest.mark.parametrize(("name", "params"), SIM_CASES)
def test_openspiel_random_sim_test(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_every_registered_game_is_in_openspiel_with_its_options() -> None:
    names = {g.short_name for g in pyspiel.registered_games()}
    for game_id, cls in GAMES.items():
        short = "pinsetter_" + game_id.replace("-", "_")
        assert short in names
        game = pyspiel.load_game(short)
        params = game.get_parameters()
        assert {o.name for o in cls.option_specs} | {"players"} == set(params)
    game = pyspiel.load_game("pinsetter_rolling_pins", {"players": 2, "advanced": True})
    assert game.num_players() == 2
    assert game.max_utility() == 300.0
    with pytest.raises(OptionError, match="1 to 12 players"):
        pyspiel.load_game("pinsetter_rolling_pins", {"players": 13})


def test_openspiel_chance_is_exact_and_steps_keep_their_text() -> None:
    game = pyspiel.load_game("pinsetter_bowling_solitaire", {"frames": 1})
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert [(state.action_to_string(pyspiel.PlayerId.CHANCE, a), p) for a, p in state.chance_outcomes()] == [
        (str(v), 0.1) for v in range(1, 11)
    ]
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    texts = [state.action_to_string(a) for a in state.legal_actions()]
    assert texts[-1] == "stop"
    # The information state is the history of step texts; the observation hides nothing extra.
    assert state.information_state_string(0).startswith("p0 1 1 2 2 3 3")
    assert len(state.observation_tensor(0)) == len(state.information_state_tensor(0))
    clone = game.deserialize_state(state.serialize())
    assert str(clone) == str(state) and clone.history() == state.history()


def test_action_ids_cover_every_step_seen_in_play() -> None:
    for game_id, cls in sorted(GAMES.items()):
        for options in cls.conformance_options:
            game = get_game(game_id, options)
            index = step_index(game)
            assert [str(a) for a in index.actions] == [str(a) for a in sorted(index.actions)]  # type: ignore[type-var]
            match = Match(game, [PlayerSpec("p0", "random")], seed=5)
            while not match.state.is_terminal():
                state = match.state
                if state.is_chance_node():
                    for outcome, _ in state.chance_outcomes()[:50]:
                        assert index.outcomes[index.outcome_id(outcome)] == outcome
                else:
                    for action in state.legal_actions():
                        assert index.actions[index.action_id(action)] == action
                match.advance()


def test_openspiel_expectiminimax_finds_the_solver_optimum() -> None:
    """One pin, one frame, no tokens: after `dice 1` (the only way to hit pin 1) the value is the optimum."""
    game = pyspiel.load_game("pinsetter_rolling_pins", {"frames": 1, "pins": 1, "tokens": False})
    state = game.new_initial_state()
    state.apply_action(next(a for a in state.legal_actions() if state.action_to_string(a) == "dice 1"))
    value, _ = expectiminimax(state, 100, None, 0)
    assert value == pytest.approx(policy_for(1, 1, 0).expected_score, abs=1e-9)


def test_openspiel_mcts_plays_a_short_game() -> None:
    game = pyspiel.load_game("pinsetter_rolling_pins", {"frames": 1, "pins": 3})
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, 3.0, 20, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bot.step(state))
    assert 0 <= state.returns()[0] <= game.max_utility()


@pytest.mark.parametrize(
    ("env_id", "options"),
    [
        ("pinsetter/RollingPins-v0", {"frames": 2}),
        ("pinsetter/RollingPins-v0", {"frames": 2, "advanced": True}),
        ("pinsetter/BowlingSolitaire-v0", {"frames": 2}),
    ],
)
def test_gymnasium_env_checker_and_return_is_the_final_score(env_id: str, options: dict[str, object]) -> None:
    env = gymnasium.make(env_id, render_mode="ansi", **options)
    check_env(env.unwrapped, skip_render_check=False)
    obs, info = env.reset(seed=11)
    assert env.observation_space.contains(obs)
    rng = random.Random(0)
    total, done = 0.0, False
    while not done:
        action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        obs, reward, done, truncated, info = env.step(action)
        assert not truncated and not info["illegal_action"]
        total += reward
    match = env.unwrapped.match
    assert total == match.state.scores()[0] == info["score"]
    assert "game over" in env.render()
    # The environment's chance is the session's: the record replays from its seed.
    assert match.record.seed == 11


def test_gymnasium_illegal_action_changes_nothing() -> None:
    env = gymnasium.make("pinsetter/BowlingSolitaire-v0", frames=1)
    obs, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    after, reward, done, _, info = env.step(illegal)
    assert info["illegal_action"] and reward == 0.0 and not done
    assert np.array_equal(obs, after)


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("rolling-pins", 3, {"frames": 2}),
        ("rolling-pins", 2, {"frames": 2, "shared_dice": True, "advanced": True}),
        ("tenpins", 2, {"frames": 2}),
        ("bowling-dice", 1, {"frames": 2}),
        ("bowling-solitaire", 1, {"frames": 2}),
    ],
)
def test_pettingzoo_api_and_seed_tests(game: str, players: int, options: dict[str, object]) -> None:
    api_test(pz_env(game=game, players=players, **options), num_cycles=100)
    seed_test(lambda: pz_env(game=game, players=players, **options), num_cycles=30)


def test_pettingzoo_returns_are_final_scores() -> None:
    aec = pz_env(game="tenpins", players=2, frames=2)
    aec.reset(seed=4)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        _, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        aec.step(None if terminated or truncated else 0)
    assert aec.match is not None and aec.match.state.is_terminal()
    assert totals == {name: float(s) for name, s in zip(aec.possible_agents, aec.match.state.scores(), strict=True)}


def test_gymnasium_rgb_array_is_a_picture_that_follows_the_game() -> None:
    for env_id, options in (
        ("pinsetter/RollingPins-v0", {"frames": 2}),
        ("pinsetter/BowlingSolitaire-v0", {"frames": 1}),
    ):
        env = gymnasium.make(env_id, render_mode="rgb_array", **options)
        check_env(env.unwrapped, skip_render_check=False)
        _, info = env.reset(seed=4)
        first = env.render()
        assert isinstance(first, np.ndarray) and first.dtype == np.uint8
        assert first.ndim == 3 and first.shape[2] == 3 and first.shape[0] > 0 and first.shape[1] > 0
        pictures = [first]
        rng = random.Random(4)
        done = False
        while not done:
            _, _, done, _, info = env.step(rng.choice(np.flatnonzero(info["action_mask"]).tolist()))
            pictures.append(env.render())
        assert all(p.shape == first.shape for p in pictures)  # a fixed size: frames of a video
        changed = sum(not np.array_equal(a, b) for a, b in itertools.pairwise(pictures))
        assert changed >= len(pictures) // 3  # most steps move pins, dice, cards or the score
        # The same position gives the same picture.
        env.reset(seed=4)
        assert np.array_equal(env.render(), first)


def _example() -> types.ModuleType:
    path = Path(__file__).parent.parent / "examples" / "q_learning_rolling_pins.py"
    spec = importlib.util.spec_from_file_location("q_learning_rolling_pins", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_example_learns_in_a_few_seconds(tmp_path: Path) -> None:
    """One frame of three pins, 1,000 games: the greedy policy beats random play by far, measured exactly."""
    example = _example()
    out = tmp_path / "curve.png"
    argv = ["--frames", "1", "--pins", "3", "--episodes", "1000", "--block", "500", "--check-games", "150"]
    lines: list[str] = []
    args = example.parse_args([*argv, "--out", str(out)])
    result = example.train(args, lines.append)
    assert result.optimum == pytest.approx(policy_for(3, 1, 1).expected_score)
    assert [episodes for episodes, _ in result.curve] == [0, 500, 1000]
    values = [v for table in result.learner.q.values() for v in table.values()]
    assert values and all(np.isfinite(values))
    learned = result.curve[-1][1]
    assert result.random_mean + 1.0 < learned <= result.optimum + 1e-9  # no policy beats the optimum
    assert result.check[0] > result.random_mean  # and on seeds it never trained on
    example.plot(str(out), result.curve, result.optimum, result.random_mean, "smoke test")
    assert out.read_bytes().startswith(b"\x89PNG")


def test_openspiel_refuses_an_id_outside_the_space_and_the_engine_an_illegal_one() -> None:
    game = pyspiel.load_game("pinsetter_rolling_pins", {"frames": 1})
    state = game.new_initial_state()
    for outside in (-5, game.num_distinct_actions()):
        with pytest.raises(ValueError, match="is no id here"):
            state.apply_action(outside)
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(IllegalActionError):
        state.apply_action(illegal)
    assert state.history() == []  # nothing refused was played
