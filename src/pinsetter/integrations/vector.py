"""Batched Gymnasium `VectorEnv`s of Rolling Pins and Bowling Solitaire (issue 29, part 3; the `rl` extra).

    from pinsetter.integrations.vector import RollingPinsVectorEnv
    envs = RollingPinsVectorEnv(1024, frames=10)
    obs, infos = envs.reset(seed=7)
    obs, rewards, terminations, truncations, infos = envs.step(envs.sample_legal())

Every game of the batch steps in one compiled call (`rolling_pins_kernel`, `solitaire_kernel`):
about 1.9 million game steps a CPU second for 1,024 Rolling Pins games and 600 000 for
Solitaire, where `PinsetterEnv` makes thousands to tens of thousands. They speak the single
environment's language: the action ids of `encoding.step_index(game)`, the vector of
`encoding.Observer(game, 1)`, the running score's increase as reward, `info["action_mask"]`
(int8) and `action_masks()` (booleans), an illegal id changing nothing (reward 0,
`infos["illegal_action"]`), `end` for a deal over before its first decision, and the single
environment's step limit (`STEP_LIMITS`) as truncation.

* Each kernel is a second implementation of its game's turn. Its tables (a cross's pins, count,
  token cost and roll, each roll's token range; a play's pile, pins, whether it may open a
  frame, the positions it touches, which pin sums match which card; where each observation
  entry is) are built here from the index and by asking the reference engine or its rule
  functions, never from the rule text; tests/test_rl_batched.py plays seeded games through
  `PinsetterEnv` and the batch with the same chance and actions and compares every step.
* Chance: the batch draws its own (Rolling Pins' dice from `self.np_random`; Solitaire's deals
  shuffled in the kernel by a generator per game seeded from it), not `Match`'s per-position
  draws, so a seed does not replay `pinsetter play --seed`. `step_with_dice` and
  `step_with_deals` take the chance instead (the differential test's way in).
* Autoreset: Gymnasium's next-step mode (`metadata["autoreset_mode"]`): the step after a game
  ends (terminated or truncated) starts a new game in its slot and ignores its action (reward
  0, not terminated). A finished game's mask is all zeros until then, as the single env's.
* Rolling Pins: only the basic game with one player (`advanced`, `shared_dice` or more players
  raise ValueError); `frames`, `pins` and `tokens` as the single environment takes them.
  Solitaire: `frames` and `groups`.
"""

from __future__ import annotations

from itertools import product
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from pinsetter.core.dice import DiceRoll
from pinsetter.core.game import Game
from pinsetter.core.pins import mask_of
from pinsetter.games.bowling_solitaire import COPIES, BowlingSolitaire, first_play_allowed, matches, reach
from pinsetter.games.bowling_solitaire import PILE_SIZES as SOLITAIRE_PILES
from pinsetter.games.bowling_solitaire import VALUES as SOLITAIRE_VALUES
from pinsetter.games.bowling_solitaire import Action as SolitaireAction
from pinsetter.games.registry import get_game
from pinsetter.games.rolling_pins import TOKEN_LIMIT, Action, RollingPins, RollingPinsState, token_range
from pinsetter.games.rolling_pins_spaces import PHASES, most_tokens
from pinsetter.integrations import rolling_pins_kernel as kernel
from pinsetter.integrations import solitaire_kernel as sk
from pinsetter.integrations.encoding import Observer, StepIndex, step_index
from pinsetter.integrations.gymnasium import STEP_LIMITS

__all__ = [
    "BATCHED_ENV_ID",
    "SOLITAIRE_BATCHED_ENV_ID",
    "BatchedEnv",
    "BowlingSolitaireVectorEnv",
    "KernelTables",
    "RollingPinsVectorEnv",
    "SolitaireTables",
    "kernel_tables",
    "solitaire_tables",
]

BATCHED_ENV_ID = "pinsetter/RollingPinsBatched-v0"
SOLITAIRE_BATCHED_ENV_ID = "pinsetter/BowlingSolitaireBatched-v0"

I32 = npt.NDArray[np.int32]
F32 = npt.NDArray[np.float32]
I8 = npt.NDArray[np.int8]
Bools = npt.NDArray[np.bool_]

REFUSED = (
    "the batched Rolling Pins plays the basic game with one player: "
    "advanced=True, shared_dice=True and more players are not supported (use PinsetterEnv)"
)


KernelTables = kernel.Tables  # what the kernel knows of the game, every entry read from the action index or the engine


def _probe_cross(game: RollingPins, action: Action, tokens: int) -> tuple[int, int, int]:
    """(pins knocked down, how many, tokens spent) of a cross, by applying it in the engine.

    The cross answers the roll sum(pins) - its token change (the id's meaning, docs/integrations.md);
    it is played on a full rack, holding the most tokens a player can, after a roll of that total
    (one die if it can be one die, so that the token range is widest).
    """
    roll = sum(action.args) - action.tokens
    faces = (roll,) if roll <= 6 else (roll - roll // 2, roll // 2)
    state = game.new_state(1)
    assert isinstance(state, RollingPinsState)
    player = state.players[0]
    player.tokens = tokens
    state.apply(Action("dice", (len(faces),)))
    state.apply(DiceRoll(faces))
    if action not in state.legal_actions():
        raise ValueError(f"{action}: the engine does not offer it after a roll of {roll} (the index changed?)")
    standing, before, balls = player.standing, player.tokens, len(state.pinfalls[0])
    ctx = state.ball_context(0)
    state.apply(action)
    if len(state.pinfalls[0]) > balls:  # the rack is cleared: the ball ended (and maybe the frame)
        after = state.ball_context(0)
        new_frame = ctx is not None and after is not None and after.frame != ctx.frame
        gained = int(bool(game.options["tokens"])) if new_frame else 0
        return standing, state.pinfalls[0][-1], before - (player.tokens - gained)
    return standing & ~player.standing, player.crossed, before - player.tokens


def _lane_entries(game: Game, observer: Observer, size: int, *more: int) -> tuple[dict[str, int], I32, I32, F32]:
    """The observation entries both kernels write alike (their `_observe`), found by name.

    Returns the entries by name, a `layout` of `size` with the lane's single entries set, each
    ball slot's (bowled, pins) entries, and the `fractions` k / n as the observer rounds them,
    n by row: pins, frames, the maximum score, then the `more` denominators of the game.
    """
    at = {name: i for i, name in enumerate(observer.names)}
    layout = np.zeros(size, np.int32)
    for slot, name in (
        (kernel.L_SCORE, "p0.score"),
        (kernel.L_FRAME, "p0.frame"),
        (kernel.L_NEXT_BALL1, "p0.next_ball1"),
        (kernel.L_RACK, "p0.standing"),
        (kernel.L_OBSERVER, "observer0"),
        (kernel.L_TURN, "turn0"),
    ):
        layout[slot] = at[name]
    if [at[f"p0.next_ball{b}"] for b in (1, 2, 3)] != [at["p0.next_ball1"] + k for k in range(3)]:
        raise ValueError("the observer's next-ball entries are no longer consecutive")
    balls = 2 * game.lane.frames + 1
    ball_at = np.array([(at[f"p0.ball{b}.bowled"], at[f"p0.ball{b}.pins"]) for b in range(1, balls + 1)], np.int32)
    denominators = (game.lane.pins, game.lane.frames, game.max_score, *more)
    fractions = np.zeros((len(denominators), max(denominators) + 1), np.float32)
    for row, n in enumerate(denominators):
        fractions[row, : n + 1] = np.array([k / n for k in range(n + 1)], np.float32)  # as the observer rounds
    return at, layout, ball_at, fractions


def kernel_tables(game: RollingPins, index: StepIndex, observer: Observer) -> kernel.Tables:
    """The kernel's tables for these options, from the index's actions and the engine's answers."""
    lane = game.lane
    size = index.size
    kinds, args = np.zeros(size, np.int32), np.zeros(size, np.int32)
    pins, down, cost, change = (np.zeros(size, np.int32) for _ in range(4))
    rolls: dict[int, list[int]] = {r: [] for r in range(13)}
    tokens = most_tokens(game)
    for i, action in enumerate(index.actions):
        assert isinstance(action, Action)
        if action.kind == "dice":
            kinds[i], args[i] = kernel.KIND_DICE, action.args[0]
        elif action.kind == "miss":
            kinds[i] = kernel.KIND_MISS
        elif action.kind == "cross":
            kinds[i] = kernel.KIND_CROSS
            pins[i], down[i], cost[i] = _probe_cross(game, action, tokens)
            change[i] = action.tokens
            rolls[sum(action.args) - action.tokens].append(i)
        else:
            raise ValueError(f"{action}: not an action of the basic game")
    start = np.zeros(14, np.int32)
    for r in range(13):
        start[r + 1] = start[r] + len(rolls[r])
    by_roll = np.array([i for r in range(13) for i in rolls[r]], np.int32)
    low, high = np.zeros((3, 13, TOKEN_LIMIT + 1), np.int32), np.zeros((3, 13, TOKEN_LIMIT + 1), np.int32)
    for count in (1, 2):
        for total in range(count, 6 * count + 1):
            faces = (total,) if count == 1 else (total - total // 2, total // 2)
            for held in range(TOKEN_LIMIT + 1):
                low[count, total, held], high[count, total, held] = token_range(faces, held)

    def ids_of(text: str) -> int:
        return index.action_id(game.parse_action(text))

    config = np.zeros(kernel.CONFIG, np.int32)
    config[kernel.C_PINS], config[kernel.C_FRAMES], config[kernel.C_FULL] = lane.pins, lane.frames, game.full
    config[kernel.C_TOKENS] = int(bool(game.options["tokens"]))
    config[kernel.C_MISS], config[kernel.C_DICE1], config[kernel.C_DICE2] = (
        ids_of("miss"),
        ids_of("dice 1"),
        ids_of("dice 2"),
    )

    at, layout, ball_at, fractions = _lane_entries(game, observer, kernel.LAYOUT, TOKEN_LIMIT)
    layout[kernel.L_TOKENS] = at["p0.tokens"]
    layout[kernel.L_PHASE] = at[f"p0.phase.{PHASES[0]}"]
    if [at[f"p0.phase.{phase}"] for phase in PHASES] != [layout[kernel.L_PHASE] + k for k in range(len(PHASES))]:
        raise ValueError("the observer's phase entries are no longer consecutive")
    if (PHASES.index("choose"), PHASES.index("rolled")) != (kernel.CHOOSE, kernel.ROLLED):
        raise ValueError("the engine's phases are no longer numbered as the kernel's")
    pin_at = np.array([0, *(at[f"p0.pin{p}.standing"] for p in range(1, lane.pins + 1))], np.int32)
    die_at = np.array([[0, *(at[f"p0.die{d}.face{f}"] for f in range(1, 7))] for d in (1, 2, 3)], np.int32)
    return kernel.Tables(
        config,
        kinds,
        args,
        pins,
        down,
        cost,
        change,
        start,
        by_roll,
        low,
        high,
        layout,
        ball_at,
        pin_at,
        die_at,
        fractions,
    )


ObsArray = np.ndarray[Any, np.dtype[np.float32]]


class BatchedEnv(VectorEnv[ObsArray, Any, Any]):
    """What the batched games share: spaces, output arrays, infos, masks and sampling."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012  (Gymnasium's)
    _score_field = 0  # the kernel's field of the running score

    def _setup(self, game: Game, num_envs: int, copy: bool, max_legal: int) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        self.game = game
        self.index = step_index(game)
        self.observer = Observer(game, 1)
        self.feature_names = self.observer.names
        self.num_envs = num_envs
        self.copy = copy
        self.single_observation_space = spaces.Box(0.0, 1.0, (self.observer.size,), np.float32)
        self.single_action_space = spaces.Discrete(self.index.size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._falls = np.zeros((num_envs, 2 * game.lane.frames + 1), np.int32)
        self._obs = np.zeros((num_envs, self.observer.size), np.float32)
        self._masks = np.zeros((num_envs, self.index.size), np.int8)
        self._legal = np.zeros((num_envs, max_legal), np.int32)
        self._counts = np.zeros(num_envs, np.int32)
        self._rewards = np.zeros(num_envs, np.float32)
        self._terminated = np.zeros(num_envs, np.bool_)
        self._truncated = np.zeros(num_envs, np.bool_)
        self._illegal = np.zeros(num_envs, np.bool_)
        self._everyone = np.ones(num_envs, np.bool_)
        self._outputs = tuple(
            kernel.Outputs(
                self._obs,
                self._masks,
                self._legal,
                self._counts,
                self._rewards,
                self._terminated,
                self._truncated,
                self._illegal,
            )
        )  # the kernels' one argument for them, made once (a plain tuple: `kernel.Tables` says why)
        self._state = np.zeros((num_envs, 1), np.int32)  # each game's kernel state (set by the subclass)
        self._started = False
        self.game_steps = 0  # game steps played (starts of new games not counted)

    def _check_started(self, actions: Any) -> npt.NDArray[np.int64]:
        if not self._started:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        return np.asarray(actions, np.int64).reshape(self.num_envs)

    def _results(self) -> tuple[ObsArray, F32, Bools, Bools, dict[str, Any]]:
        out = self._out
        return out(self._obs), out(self._rewards), out(self._terminated), out(self._truncated), self._infos()

    def _out(self, array: Any) -> Any:
        return array.copy() if self.copy else array

    def _infos(self) -> dict[str, Any]:
        everyone = self._everyone
        return {
            "action_mask": self._out(self._masks),
            "score": self.scores(),
            "illegal_action": self._out(self._illegal),
            "_action_mask": everyone,
            "_score": everyone,
            "_illegal_action": everyone,
        }

    def restart(self, games: Any) -> tuple[ObsArray, dict[str, Any]]:
        """Start the games in slots `games` anew now, leaving the others as they are; returns `reset`'s pair.

        For loops that reset a finished game in the step that ends it (Stable-Baselines3's
        vector environments) instead of in the next step: call it with the slots a step
        ended, after keeping that step's final observations. The dice or deals are the
        batch's own.
        """
        if not self._started:
            raise gymnasium.error.ResetNeeded("call reset() before restart()")
        self._restart(np.asarray(games, np.int64).reshape(-1))
        return self._out(self._obs), self._infos()

    def _restart(self, games: npt.NDArray[np.int64]) -> None:
        raise NotImplementedError

    def scores(self) -> I32:
        """Every game's running score (`info["score"]` of the single environment)."""
        return self._state[:, self._score_field].copy()

    def action_masks(self) -> Bools:
        """The legal ids of every game as booleans (batch x ids), as the last step's `infos["action_mask"]`."""
        return self._masks.astype(np.bool_)

    def sample_legal(self, rng: np.random.Generator | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal id of every game, from the kernel's lists of legal ids (0 where none)."""
        uniforms = (rng or self.np_random).random(self.num_envs)
        out = np.zeros(self.num_envs, np.int64)
        kernel.sample_legal(self._legal, self._counts, uniforms, out)
        return out


class RollingPinsVectorEnv(BatchedEnv):
    """`num_envs` one-player basic Rolling Pins games, stepped together by a compiled kernel."""

    _score_field = kernel.F_SCORE

    def __init__(
        self,
        num_envs: int = 1024,
        *,
        players: int = 1,
        max_episode_steps: int | None = STEP_LIMITS["rolling-pins"],
        copy: bool = True,
        **options: Any,
    ) -> None:
        game = get_game("rolling-pins", options)
        assert isinstance(game, RollingPins)
        if players != 1 or game.advanced or game.shared_dice:
            raise ValueError(REFUSED)
        index, observer = step_index(game), Observer(game, 1)
        self.tables = kernel_tables(game, index, observer)
        self.tables.config[kernel.C_STEP_LIMIT] = max_episode_steps or 0
        self._tables = tuple(self.tables)  # the kernel's one argument for them (the same arrays)
        most = int(np.diff(self.tables.by_roll_start).max()) + 1  # the crosses of one roll, and miss
        self._setup(game, num_envs, copy, most)
        self._state = np.zeros((num_envs, kernel.FIELDS), np.int32)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsArray, dict[str, Any]]:
        """Start every game anew; an int seed seeds the batch's dice generator (`self.np_random`)."""
        if isinstance(seed, list):
            raise ValueError("the batch draws its dice from one generator: give one int seed, not one per game")
        super().reset(seed=seed)
        self._restart(np.arange(self.num_envs))
        self._started = True
        self._illegal[:] = False
        return self._out(self._obs), self._infos()

    def _restart(self, games: npt.NDArray[np.int64]) -> None:
        kernel.reset_games(games, self._state, self._falls, self._outputs, self._tables)

    def step(self, actions: Any) -> tuple[ObsArray, F32, Bools, Bools, dict[str, Any]]:
        """Step every game with its action id (the batch draws the dice)."""
        dice = self.np_random.integers(1, 7, size=(self.num_envs, 2), dtype=np.int32)
        return self.step_with_dice(actions, dice)

    def step_with_dice(self, actions: Any, dice: Any) -> tuple[ObsArray, F32, Bools, Bools, dict[str, Any]]:
        """`step` with the dice given: `dice[g]` is what game g rolls if it chooses dice (one die: the first)."""
        actions = self._check_started(actions)
        dice = np.asarray(dice, np.int32).reshape(self.num_envs, 2)
        if dice.min() < 1 or dice.max() > 6:  # the kernel indexes its tables by face, unchecked
            raise ValueError("dice faces must be 1 to 6")
        self.game_steps += kernel.step_games(actions, dice, self._state, self._falls, self._outputs, self._tables)
        return self._results()


# --- Bowling Solitaire --------------------------------------------------------------------


SolitaireTables = sk.Tables  # what the Solitaire kernel knows of the game, from the index and the engine's rules


def solitaire_tables(game: BowlingSolitaire, index: StepIndex, observer: Observer) -> sk.Tables:
    """The Solitaire kernel's tables for these options, from the index's actions and the engine's rules."""
    size = index.size
    kinds = np.zeros(size, np.int32)
    pile, group, count, opens, near = (np.zeros(size, np.int32) for _ in range(5))
    at_ = np.full((size, 3), -1, np.int32)
    plays = []
    for i, action in enumerate(index.actions):
        assert isinstance(action, SolitaireAction)
        if action.kind == "stop":
            kinds[i] = sk.KIND_STOP
            continue
        kinds[i] = sk.KIND_PLAY
        plays.append(i)
        mask = mask_of(action.pins)
        pile[i], group[i], count[i] = action.pile, mask, len(action.pins)
        opens[i], near[i] = first_play_allowed(mask), reach(mask)
        at_[i, : len(action.pins)] = [p - 1 for p in action.pins]
    kinds[index.end_id] = sk.KIND_END
    matching = np.zeros((4, 31, 11), np.bool_)
    told: dict[tuple[int, int, int], bool] = {}
    for n in (1, 2, 3):
        for values in product(SOLITAIRE_VALUES, repeat=n):
            for card in SOLITAIRE_VALUES:
                answer = matches(list(values), card)
                key = (n, sum(values), card)
                if told.setdefault(key, answer) != answer:
                    raise ValueError(
                        "`matches` no longer depends on the pins' sum alone: the kernel's table cannot hold it"
                    )
                matching[key] = answer
    config = np.zeros(sk.CONFIG, np.int32)
    config[sk.C_FRAMES] = game.lane.frames
    config[sk.C_STOP] = index.action_id(game.parse_action("stop"))
    config[sk.C_END] = index.end_id

    at, layout, ball_at, fractions = _lane_entries(game, observer, sk.LAYOUT, max(SOLITAIRE_PILES), COPIES)
    positions = range(1, 11)
    piles = range(1, len(SOLITAIRE_PILES) + 1)
    pin_standing_at = np.array([at[f"pin{p}.standing"] for p in positions], np.int32)
    pin_value_at = np.array([[0, *(at[f"pin{p}.value{v}"] for v in SOLITAIRE_VALUES)] for p in positions], np.int32)
    top_at = np.array([[0, *(at[f"pile{k}.top{v}"] for v in SOLITAIRE_VALUES)] for k in piles], np.int32)
    cards_at = np.array([at[f"pile{k}.cards"] for k in piles], np.int32)
    seen_at = np.array([0, *(at[f"seen{v}"] for v in SOLITAIRE_VALUES)], np.int32)
    return sk.Tables(
        config,
        kinds,
        np.array(plays, np.int32),
        pile,
        group,
        count,
        opens,
        near,
        at_,
        matching,
        layout,
        ball_at,
        pin_standing_at,
        pin_value_at,
        top_at,
        cards_at,
        seen_at,
        fractions,
    )


class BowlingSolitaireVectorEnv(BatchedEnv):
    """`num_envs` Bowling Solitaire games, stepped together by a compiled kernel.

    As `RollingPinsVectorEnv`; the deals are the batch's own (shuffled in the kernel by a
    generator per game, seeded from `self.np_random`), or given: `reset(options={"deals": d})`
    and `step_with_deals(actions, d)`, where `d[g, n - 1]` is deal n of the game slot g plays
    (twenty cards: pins 1-10, then piles 1-3 top first), as `Match` deals `seeded_deal(seed, n)`.
    A deal over before its first decision has `end` as its one legal id, as the single env.
    """

    _score_field = kernel.F_SCORE  # the lane's fields are numbered alike in both kernels

    def __init__(
        self,
        num_envs: int = 1024,
        *,
        players: int = 1,
        max_episode_steps: int | None = STEP_LIMITS["bowling-solitaire"],
        copy: bool = True,
        **options: Any,
    ) -> None:
        if players != 1:
            raise ValueError("Bowling Solitaire is a one-player game")
        game = get_game("bowling-solitaire", options)
        assert isinstance(game, BowlingSolitaire)
        index, observer = step_index(game), Observer(game, 1)
        self.tables = solitaire_tables(game, index, observer)
        self.tables.config[sk.C_STEP_LIMIT] = max_episode_steps or 0
        self._tables = tuple(self.tables)  # the kernel's one argument for them (the same arrays)
        self._setup(game, num_envs, copy, len(self.tables.plays) + 1)
        self._state = np.zeros((num_envs, sk.FIELDS), np.int32)
        self._table = np.zeros((num_envs, sk.TABLE), np.int32)
        self._deals = np.zeros((num_envs, 20), np.int32)
        self._rng = np.ones(num_envs, np.uint64)
        self.max_deals = game.lane.frames + 2  # a deal a frame, and two for the 10th frame's bonus balls
        self._no_deals = np.zeros((1, 1, 20), np.int32)
        self._arrays = (self._state, self._falls, self._table, self._deals, self._rng)  # the games' own, for the kernel

    def _given(self, deals: Any) -> npt.NDArray[np.int32]:
        """Deals as the kernel reads them, checked: every one a shuffle of the twenty cards."""
        given = np.asarray(deals, np.int32).reshape(self.num_envs, self.max_deals, 20)
        if not (np.sort(given, axis=2) == np.repeat(np.arange(1, 11), 2)).all():
            raise ValueError("every deal is the twenty cards, two of each value 1-10, in some order")
        self.tables.config[sk.C_GIVEN] = 1
        return given

    def _own(self) -> npt.NDArray[np.int32]:
        self.tables.config[sk.C_GIVEN] = 0
        return self._no_deals

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsArray, dict[str, Any]]:
        """Start every game anew; an int seed seeds the batch's generators; `options["deals"]` gives the deals."""
        if isinstance(seed, list):
            raise ValueError("the batch draws its deals from one generator: give one int seed, not one per game")
        super().reset(seed=seed)
        self._rng[:] = self.np_random.integers(1, 2**63, size=self.num_envs, dtype=np.uint64)
        given = self._given(options["deals"]) if options and "deals" in options else self._own()
        self._restart(np.arange(self.num_envs), given)
        self._started = True
        self._illegal[:] = False
        return self._out(self._obs), self._infos()

    def _restart(self, games: npt.NDArray[np.int64], given: Any = None) -> None:
        given = self._own() if given is None else given
        sk.reset_games(games, self._arrays, given, self._outputs, self._tables)

    def step(self, actions: Any) -> tuple[ObsArray, F32, Bools, Bools, dict[str, Any]]:
        """Step every game with its action id (the batch shuffles its own deals)."""
        return self._step(self._check_started(actions), self._own())

    def step_with_deals(self, actions: Any, deals: Any) -> tuple[ObsArray, F32, Bools, Bools, dict[str, Any]]:
        """`step` with the deals given: `deals[g, n - 1]` is deal n of the game slot g plays in this step."""
        return self._step(self._check_started(actions), self._given(deals))

    def _step(self, actions: npt.NDArray[np.int64], given: Any) -> tuple[ObsArray, F32, Bools, Bools, dict[str, Any]]:
        self.game_steps += sk.step_games(actions, self._arrays, given, self._outputs, self._tables)
        return self._results()


def _register() -> None:
    """`gymnasium.make_vec(BATCHED_ENV_ID, num_envs=1024, frames=3)` builds a batch (and the Solitaire id)."""
    for env_id, env, game_id in (
        (BATCHED_ENV_ID, RollingPinsVectorEnv, "rolling-pins"),
        (SOLITAIRE_BATCHED_ENV_ID, BowlingSolitaireVectorEnv, "bowling-solitaire"),
    ):
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, vector_entry_point=env, max_episode_steps=STEP_LIMITS[game_id])


_register()
