"""Single-player Gymnasium environments (needs the `rl` extra: gymnasium).

Importing this module registers an environment for every registered game
with decisions that one player can play (`pinsetter/RollingPins-v0`,
`pinsetter/BowlingSolitaire-v0`); game options are keyword arguments:

    import gymnasium, pinsetter.integrations.gymnasium
    env = gymnasium.make("pinsetter/RollingPins-v0", frames=3, advanced=True)

* Observation: `Box(0, 1, (n,), float32)`, the vector of `encoding.Observer`
  (its entry names are `env.unwrapped.feature_names`).
* Action: `Discrete(len(actions))`, ids of `encoding.StepIndex`;
  `info["action_mask"]` (int8) marks the legal ones. An illegal id changes
  nothing, gives reward 0 and `info["illegal_action"] = True`.
* Reward: the increase of the running score, so the return is the final score.
* Chance (dice, cards) is drawn inside, as `pinsetter.session.Match` draws it:
  step i from the generator seeded by (seed, i), so a seed replays a game of
  `pinsetter play --seed`. The record is `env.unwrapped.match.record`.
* `render_mode="ansi"`: the position as the line interface describes it;
  `"rgb_array"`: a 180 x 320 x 3 uint8 picture of the game's table view
  (`picture.table_picture`: pins, dice, piles, tokens, pinfall and score).

Games without decisions (Ten Pins, Bowling Dice) are not registered: there
is nothing to choose (their exact score distributions are in `pinsetter analyze`).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from pinsetter.core.game import Game
from pinsetter.core.seeds import SEED_MAX
from pinsetter.games.registry import all_games, get_game
from pinsetter.integrations.encoding import Observer, StepIndex, step_index
from pinsetter.integrations.picture import table_picture
from pinsetter.records import PlayerSpec
from pinsetter.session import Match

__all__ = ["ENV_IDS", "PinsetterEnv", "env_id"]


def env_id(game_id: str) -> str:
    """`rolling-pins` -> `pinsetter/RollingPins-v0`."""
    return "pinsetter/" + "".join(word.title() for word in game_id.split("-")) + "-v0"


# Every registered game a single player can play and that has decisions to make.
ENV_IDS = {gid: env_id(gid) for gid, cls in all_games().items() if cls.has_decisions and cls.min_players == 1}

ObsType = np.ndarray[Any, np.dtype[np.float32]]
ImageArray = np.ndarray[Any, np.dtype[np.uint8]]


class PinsetterEnv(gymnasium.Env[ObsType, np.int64]):
    """One player against the dice or cards of a pinsetter game with decisions."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012  (Gymnasium declares it)

    def __init__(self, game: str = "rolling-pins", render_mode: str | None = None, **options: Any) -> None:
        self.game: Game = get_game(game, options)
        if not self.game.has_decisions:
            raise ValueError(f"{game} has no decisions: there is nothing for an agent to choose")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.index: StepIndex = step_index(self.game)
        self.observer = Observer(self.game, 1)
        self.feature_names = self.observer.names
        self.observation_space = spaces.Box(0.0, 1.0, (self.observer.size,), np.float32)
        self.action_space = spaces.Discrete(len(self.index.actions))
        self.match: Match | None = None
        self._mask = np.zeros(len(self.index.actions), np.int8)  # of the position last observed
        self._score = 0

    def _match(self) -> Match:
        if self.match is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        return self.match

    def _observe(self) -> tuple[ObsType, dict[str, Any]]:
        state = self._match().state
        self._mask = self.index.mask(state)
        self._score = state.scores()[0]
        return self.observer.vector(state, 0), {"action_mask": self._mask.copy(), "score": self._score}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(SEED_MAX)) if seed is None else seed % (SEED_MAX + 1)
        self.match = Match(self.game, [PlayerSpec("agent")], game_seed)
        self.match.run_bots()  # chance up to the first decision
        return self._observe()

    def step(self, action: Any) -> tuple[ObsType, float, bool, bool, dict[str, Any]]:
        match = self._match()
        if match.state.is_terminal():
            raise gymnasium.error.ResetNeeded("the game is over: call reset()")
        before = self._score
        illegal = not (0 <= int(action) < len(self._mask) and self._mask[int(action)])  # the position is unchanged
        if not illegal:
            match.apply(self.index.actions[int(action)])
            match.run_bots()
        obs, info = self._observe()
        info["illegal_action"] = illegal
        return obs, float(self._score - before), match.state.is_terminal(), False, info

    def render(self) -> str | ImageArray | None:
        """ "ansi": the pinfalls, score and position as text; "rgb_array": `picture.table_picture` of the table."""
        state = self._match().state
        if self.render_mode == "rgb_array":
            lane = self.game.lane
            view = self.game.table(state, ["agent"])
            balls = 2 * lane.frames + 1
            return table_picture(view, state.pinfalls[0], lane.pins, self._score, self.game.max_score, balls)
        if self.render_mode != "ansi":
            return None
        falls = " ".join(str(p) for p in state.pinfalls[0])
        status = "game over" if state.is_terminal() else state.describe()
        return f"{falls or '-'}  (score {state.scoresheet(0).total})\n{status}\n"

    def sample_legal(self, rng: random.Random) -> int:
        """A uniformly random legal action id (for baselines and tests)."""
        return rng.choice(self.index.legal_ids(self._match().state))


def _register() -> None:
    for game_id, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=PinsetterEnv, kwargs={"game": game_id})


_register()
