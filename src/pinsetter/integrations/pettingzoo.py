"""Every pinsetter game as a PettingZoo AEC environment (needs the `rl` extra: pettingzoo).

    from pinsetter.integrations.pettingzoo import env
    aec = env(game="rolling-pins", players=3, frames=3)

Agents are `player_0` ... `player_{n-1}`, in seat order. Each observation is a
dict: `observation` (the `encoding.Observer` vector, as that player sees the
table) and `action_mask` (int8 over the `encoding.StepIndex` action ids, the
last of which is `end`). Chance is resolved inside the environment with the
seeded generator of `pinsetter.session.Match` (step i drawn from (seed, i)):
after an action the dice and cards fall until the next decision. A game that
chance ends before its first decision (a rare Solitaire deal) leaves `end` as
the only legal action of `player_0`; it ends the episode with the true scores.
Ten Pins and Bowling Dice have no decisions: their agents have one action,
0 = "roll", which bowls one ball of their frame. Rewards are increases of each
player's running score, so each agent's return is its final score. Illegal
actions raise ValueError.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from pinsetter.core.game import Game
from pinsetter.core.seeds import SEED_MAX
from pinsetter.games.registry import get_game
from pinsetter.integrations.encoding import Observer, StepIndex, step_index
from pinsetter.records import PlayerSpec
from pinsetter.session import Match

__all__ = ["PinsetterAEC", "env"]

ROLL = 0  # the one action of a game without decisions


def env(game: str = "rolling-pins", players: int = 1, render_mode: str | None = None, **options: Any) -> PinsetterAEC:
    """An AEC environment for `game` with `players` players and the game's options."""
    return PinsetterAEC(game, players, render_mode, **options)


class PinsetterAEC(AECEnv[str, dict[str, Any], int | None]):  # type: ignore[misc]
    """Players take their turns as the game says; chance happens between them."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "pinsetter_v0", "is_parallelizable": False}

    def __init__(self, game: str, players: int, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self.game: Game = get_game(game, options)
        self.game.check_players(players)
        self.render_mode = render_mode
        self.index: StepIndex = step_index(self.game)
        self.observer = Observer(self.game, players)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        count = self.index.size if self.game.has_decisions else 1
        self._action_space = spaces.Discrete(count)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.observer.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (count,), np.int8),
            }
        )
        self.action_spaces = {a: spaces.Discrete(count) for a in self.possible_agents}
        self.observation_spaces = {a: self._observation_space for a in self.possible_agents}
        self.match: Match | None = None
        self._np_random = np.random.default_rng()
        self._rewarded = [0] * players  # each seat's score paid out as rewards so far in this episode
        self._decided = False  # whether this episode has had a decision (a roll or `end` included)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _mask(self, agent: str) -> np.ndarray[Any, np.dtype[np.int8]]:
        assert self.match is not None
        if self._over() or agent != self._up():
            return np.zeros(self._action_space.n, np.int8)
        if not self.game.has_decisions:
            return np.ones(1, np.int8)
        return self.index.mask(self.match.state, self._decided)

    def _over(self) -> bool:
        assert self.match is not None
        return self.index.episode_over(self.match.state, self._decided)

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.match is not None
        return {
            "observation": self.observer.vector(self.match.state, self._seat(agent)),
            "action_mask": self._mask(agent),
        }

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        game_seed = seed % (SEED_MAX + 1) if seed is not None else int(self._np_random.integers(SEED_MAX))
        specs = [PlayerSpec(agent) for agent in self.possible_agents]
        self.match = Match(self.game, specs, game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._rewarded = [0] * len(self.agents)
        self._decided = False
        self._settle()
        self.agent_selection = self._up()

    def _settle(self) -> None:
        """Resolve chance up to the next decision (games without decisions wait for a roll)."""
        assert self.match is not None
        if self.game.has_decisions:
            self.match.run_bots()

    def _up(self) -> str:
        assert self.match is not None
        state = self.match.state
        return self.possible_agents[state.turn()] if not state.is_terminal() else self.agents[0]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.match is not None and action is not None
        mask, chosen = self._mask(agent), int(action)
        if not (0 <= chosen < len(mask) and mask[chosen]):
            raise ValueError(f"action {action} is not legal for {agent} now")
        self._decided = True
        if not self.game.has_decisions:
            self.match.advance()  # one ball: the dice of the player whose frame it is
        elif chosen != self.index.end_id:
            self.match.apply(self.index.actions[chosen])
        self._settle()
        scores = self.match.state.scores()
        self._cumulative_rewards[agent] = 0.0
        for seat, name in enumerate(self.possible_agents):
            self.rewards[name] = float(scores[seat] - self._rewarded[seat])
        self._rewarded = scores
        if self._over():
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._up()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.match is None:
            return None
        state = self.match.state
        lines = [
            f"{name}: {' '.join(map(str, state.pinfalls[i])) or '-'} = {s}"
            for i, (name, s) in enumerate(zip(self.possible_agents, state.scores(), strict=True))
        ]
        lines.append("game over" if state.is_terminal() else state.describe())
        return "\n".join(lines) + "\n"

    def close(self) -> None:
        pass
