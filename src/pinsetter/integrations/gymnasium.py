"""Single-player Gymnasium environments (needs the `rl` extra: gymnasium).

Importing this module registers an environment for every registered game
with decisions that one player can play (`pinsetter/RollingPins-v0`,
`pinsetter/BowlingSolitaire-v0`); game options are keyword arguments:

    import gymnasium, pinsetter.integrations.gymnasium
    env = gymnasium.make("pinsetter/RollingPins-v0", frames=3, advanced=True)

* Observation: `Box(0, 1, (n,), float32)`, the vector of `encoding.Observer`
  (its entry names are `env.unwrapped.feature_names`).
* Action: `Discrete(len(actions) + 1)`, ids of `encoding.StepIndex`; the
  last id is `end`. `info["action_mask"]` (int8) marks the legal ids and
  `env.action_masks()` gives the same as booleans (sb3-contrib's MaskablePPO
  calls it). An illegal id changes nothing, gives reward 0 and
  `info["illegal_action"] = True`; it still counts as a step of the time limit.
* A deal that chance ends before the first decision (one Solitaire deal in
  about 2 000 with one frame) is still an episode: `reset` returns its final
  position with `end` as the only legal id, and `end` ends the episode with
  the game's score as reward. No deal is skipped, so the scores are the game's.
* Reward: the increase of the running score, so the return is the final score.
* Time limit: `gymnasium.make` wraps the environment in `TimeLimit` at twice
  the game's bound on decisions (`STEP_LIMITS`); legal play never reaches it.
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

__all__ = ["ENV_IDS", "STEP_LIMITS", "PinsetterEnv", "env_id"]


def env_id(game_id: str) -> str:
    """`rolling-pins` -> `pinsetter/RollingPins-v0`."""
    return "pinsetter/" + "".join(word.title() for word in game_id.split("-")) + "-v0"


# Every registered game a single player can play and that has decisions to make.
ENV_IDS = {gid: env_id(gid) for gid, cls in all_games().items() if cls.has_decisions and cls.min_players == 1}


def _step_limit(game_id: str) -> int:
    """Twice the game's bound on a legal episode (its decisions and `end`) with the default options.

    Frames and pins default to their maxima, so other options change the bound by little (a
    Rolling Pins sheet adds at most two decisions a box): legal play never meets the limit,
    while an agent that repeats illegal ids (which change nothing) is cut off.
    """
    return 2 * (get_game(game_id).max_decisions(1) + 1)


STEP_LIMITS = {gid: _step_limit(gid) for gid in ENV_IDS}

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
        self.action_space = spaces.Discrete(self.index.size)
        self.match: Match | None = None
        self._mask = np.zeros(self.index.size, np.int8)  # of the position last observed
        self._rewarded = 0  # the score paid out as rewards so far in this episode
        self._decided = False  # whether this episode has had a decision (`end` included)

    def _match(self) -> Match:
        if self.match is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        return self.match

    def _observe(self) -> tuple[ObsType, dict[str, Any]]:
        state = self._match().state
        self._mask = self.index.shared_mask(state, self._decided)
        return self.observer.vector(state, 0), {"action_mask": self._mask.copy(), "score": state.scoresheet(0).total}

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal ids of the position last observed, as booleans (`info["action_mask"]`; sb3-contrib asks this)."""
        return self._mask.astype(bool)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(SEED_MAX)) if seed is None else seed % (SEED_MAX + 1)
        self.match = Match(self.game, [PlayerSpec("agent")], game_seed)
        self.match.run_bots()  # chance up to the first decision (or, rarely, to the end: see `end`)
        self._rewarded, self._decided = 0, False
        return self._observe()

    def step(self, action: Any) -> tuple[ObsType, float, bool, bool, dict[str, Any]]:
        match = self._match()
        if self._over():
            raise gymnasium.error.ResetNeeded("the game is over: call reset()")
        chosen = int(action)
        illegal = not (0 <= chosen < len(self._mask) and self._mask[chosen])  # the position is unchanged
        if not illegal:
            self._decided = True
            if chosen != self.index.end_id:
                match.apply(self.index.actions[chosen])
                match.run_bots()
        obs, info = self._observe()
        info["illegal_action"] = illegal
        score = info["score"]
        reward, self._rewarded = score - self._rewarded, score
        return obs, float(reward), self._over(), False, info

    def _over(self) -> bool:
        return self.index.episode_over(self._match().state, self._decided)

    def render(self) -> str | ImageArray | None:
        """ "ansi": the pinfalls, score and position as text; "rgb_array": `picture.table_picture` of the table."""
        state = self._match().state
        if self.render_mode == "rgb_array":
            lane = self.game.lane
            view = self.game.table(state, ["agent"])
            balls = 2 * lane.frames + 1
            score = state.scores()[0]
            return table_picture(view, state.pinfalls[0], lane.pins, score, self.game.max_score, balls)
        if self.render_mode != "ansi":
            return None
        falls = " ".join(str(p) for p in state.pinfalls[0])
        status = "game over" if state.is_terminal() else state.describe()
        return f"{falls or '-'}  (score {state.scoresheet(0).total})\n{status}\n"

    def sample_legal(self, rng: random.Random) -> int:
        """A uniformly random legal action id (for baselines and tests)."""
        return rng.choice(np.flatnonzero(self._mask).tolist())


def _register() -> None:
    for game_id, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point=PinsetterEnv,
                kwargs={"game": game_id},
                max_episode_steps=STEP_LIMITS[game_id],
            )


_register()
