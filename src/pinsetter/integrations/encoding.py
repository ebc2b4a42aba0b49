"""Stable integer ids for steps and fixed-size observation vectors, shared by every adapter.

Toolkits (OpenSpiel, Gymnasium, PettingZoo) speak integers and arrays; pinsetter
speaks `Step` values with text forms. This module is the one translation:

* `StepIndex` takes, once per game and options, every action and chance
  outcome the game says it can produce and numbers them in the game's own
  sort order. An id is an
  index into that tuple, so sorted ids are sorted actions, and the id of a step
  never depends on the position. Legality stays with the engine: the index only
  names steps, the state says which are legal. One id follows the game's
  actions: `end`, the only legal action of an episode whose game chance ended
  before its first decision (`StepIndex.end_id`), so that no toolkit loop
  meets a first position with nothing to choose.
* `Observer` turns `State.view(player)` (what that player may see) into a
  vector of floats in [0, 1] with a name for every entry. Reading only the view
  means the vectors hide exactly what the game hides.

No rule and no game is written here: each game describes its own action and
chance-outcome spaces (`Game.action_space`, `Game.chance_space`) and its part
of the observation (`Game.observation_features`); which steps are legal is
asked of the state. A new game needs no edit in this module.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import numpy.typing as npt

from pinsetter.core.game import Game, State, Step

__all__ = ["END", "Observer", "StepIndex", "step_index"]

# The text of `StepIndex.end_id` (no game has an action of that name).
END = "end"

FloatArray = npt.NDArray[np.float32]


# Pinfall lists whose common entries an observer keeps (a few hundred bytes each).
KEPT_LIMIT = 20_000

# Sets of legal ids whose mask an index keeps (one byte an id: 2 kB each for Rolling Pins).
MASKS_KEPT = 4_096

# Outcome sets larger than this (an exotic Bowling Dice set) are refused rather than enumerated.
MAX_CHANCE_OUTCOMES = 200_000


def _ordered(steps: Iterable[Step]) -> tuple[Step, ...]:
    """Distinct steps in the game's own order (every game's steps are ordered dataclasses or named tuples)."""
    unique = set(steps)
    try:
        return tuple(sorted(unique))  # type: ignore[type-var]
    except TypeError:
        return tuple(sorted(unique, key=str))


@dataclass(frozen=True)
class StepIndex:
    """Stable integer ids of one game's actions and chance outcomes (for its options)."""

    game_id: str
    actions: tuple[Step, ...]
    outcomes: tuple[Step, ...]
    _action_ids: dict[Step, int] = field(repr=False, compare=False)
    _outcome_ids: dict[Step, int] = field(repr=False, compare=False)
    # `shared_mask`'s arrays (read-only) by the tuple of legal ids: a game's positions share few sets.
    _masks: dict[tuple[int, ...], npt.NDArray[np.int8]] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def build(cls, game: Game) -> StepIndex:
        """Number the game's own action and chance spaces, each sorted in the game's order."""
        actions = _ordered(game.action_space())
        outcomes: list[Step] = []
        for outcome in game.chance_space():
            outcomes.append(outcome)
            if len(outcomes) > MAX_CHANCE_OUTCOMES:
                raise ValueError(f"{game.id}: more than {MAX_CHANCE_OUTCOMES} chance outcomes to number")
        ordered = _ordered(outcomes)
        return cls(
            game.id,
            actions,
            ordered,
            {a: i for i, a in enumerate(actions)},
            {o: i for i, o in enumerate(ordered)},
        )

    def action_id(self, action: Step) -> int:
        try:
            return self._action_ids[action]
        except KeyError:
            raise KeyError(f"{self.game_id}: action {action} has no id (extend its Game.action_space)") from None

    def outcome_id(self, outcome: Step) -> int:
        try:
            return self._outcome_ids[outcome]
        except KeyError:
            raise KeyError(
                f"{self.game_id}: chance outcome {outcome} has no id (extend its Game.chance_space)"
            ) from None

    @property
    def end_id(self) -> int:
        """The id after every action's: `end`, which changes nothing in the game.

        Chance alone can end a game before anyone decides (one Solitaire deal in
        about 2 000 has no play in either ball; a Ten Pins game never has a
        decision). Toolkit loops assume an episode starts with something to
        choose, and dealing again would bias the score distribution; so such an
        episode gets exactly one decision, `end`, and then ends with the game's
        true score.
        """
        return len(self.actions)

    @property
    def size(self) -> int:
        """How many action ids there are: the game's actions and `end`."""
        return len(self.actions) + 1

    def text(self, action_id: int) -> str:
        """The text of an action id (`end` for `end_id`)."""
        return END if action_id == self.end_id else str(self.actions[action_id])

    @staticmethod
    def must_end(state: State, decided: bool) -> bool:
        """Whether `end` is the only legal action: the game is over and the episode has had no decision."""
        return not decided and state.is_terminal()

    @staticmethod
    def episode_over(state: State, decided: bool) -> bool:
        """Whether the episode has ended: the game is over and its `end`, if it needed one, was played."""
        return decided and state.is_terminal()

    def legal_ids(self, state: State, decided: bool = True) -> list[int]:
        """The legal actions of the player to move, as sorted ids.

        `decided` says whether the episode has had a decision yet; if not and the
        game is already over, `end` is the one legal id.
        """
        return sorted(self._ids(state, decided))

    def _ids(self, state: State, decided: bool) -> list[int]:
        """`legal_ids` in the engine's order (a mask needs no sorting)."""
        if self.must_end(state, decided):
            return [self.end_id]
        try:
            return list(map(self._action_ids.__getitem__, state.legal_actions()))  # C-level: masks are every step
        except KeyError:
            return [self.action_id(a) for a in state.legal_actions()]  # raises, naming the action

    def mask(self, state: State, decided: bool = True) -> npt.NDArray[np.int8]:
        """1 for every legal id of `legal_ids`, 0 elsewhere (all 0 at chance nodes and once the episode is over)."""
        return self.shared_mask(state, decided).copy()

    def shared_mask(self, state: State, decided: bool = True) -> npt.NDArray[np.int8]:
        """`mask`, read-only and shared by every position with the same legal ids (made once per set of ids).

        An environment's step reads a mask and hands out a copy; making it anew (zeros, then
        setting the ids) cost more than finding it.
        """
        ids = tuple(self._ids(state, decided))
        mask = self._masks.get(ids)
        if mask is None:
            if len(self._masks) >= MASKS_KEPT:
                self._masks.clear()
            mask = np.zeros(self.size, dtype=np.int8)
            mask[list(ids)] = 1
            mask.flags.writeable = False
            self._masks[ids] = mask
        return mask


def _options_key(game: Game) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, str(v)) for k, v in game.options_text().items()))


@cache
def _index_for(game_id: str, options: tuple[tuple[str, str], ...]) -> StepIndex:
    from pinsetter.games.registry import get_game

    return StepIndex.build(get_game(game_id, dict(options)))


def step_index(game: Game) -> StepIndex:
    """The index of `game` (built once per game id and options)."""
    return _index_for(game.id, _options_key(game))


# --- observations ---------------------------------------------------------------------


class Observer:
    """A fixed-size vector in [0, 1] for `State.view(player)`, with a name per entry.

    Common to every game, per player (seat order): the pinfalls so far (one slot
    per possible ball: a bit that it was bowled and pins / rack size), the
    running score / maximum, and the next ball (frame, ball 1-3, pins standing).
    Then one-hot entries for the observing player and the player whose frame it
    is. Then the game's own entries, read from the same view
    (`Game.observation_features`: Rolling Pins' standing pins, tokens, phase,
    dice, grey pins, marks and abilities; Solitaire's face-up pin values, pile
    tops and sizes, and the cards seen). Nothing else is read, so nothing the
    view hides can leak.

    Built every step, so kept cheap: each player's common entries are kept by
    pinfalls (they change once a ball), the games give only the values of their
    part (`Game.observation_values`: the nonzero entries set at positions found
    once, Solitaire's read from the table without making the view, both tested
    equal to `observation_features` of the view), and the values pass to numpy
    in one array.
    """

    def __init__(self, game: Game, players: int) -> None:
        self.game = game
        self.players = players
        self._kept: dict[tuple[int, ...], list[float]] = {}  # `_player_values` by pinfalls
        start = game.new_state(players)
        own = [name for name, _ in game.observation_features(start.view(0))]
        self.names: tuple[str, ...] = (*self._common_names(), *own)
        self.size = len(self.names)
        if len(self.vector(start, 0)) != self.size:
            raise AssertionError(f"{game.id}: observation names and values differ in length")

    def vector(self, state: State, player: int) -> FloatArray:
        values = self._common_values(state, player)
        values += self.game.observation_values(state, player)  # `observation_features` of the view, values only
        # `fromiter` with the type and length given: `np.array` first works out a type for the mixed
        # floats and bools, which took longer than the conversion itself.
        vector = np.fromiter(values, np.float32, len(values))
        return vector.clip(0.0, 1.0, out=vector)  # the method: `np.clip` without its array-function dispatch

    # The common part twice, names (once per observer) and values (every step, kept cheap): same order.
    def _common_names(self) -> list[str]:
        names: list[str] = []
        for p in range(self.players):
            for b in range(1, 2 * self.game.lane.frames + 2):
                names += [f"p{p}.ball{b}.bowled", f"p{p}.ball{b}.pins"]
            names += [f"p{p}.score", f"p{p}.frame", f"p{p}.next_ball1", f"p{p}.next_ball2", f"p{p}.next_ball3"]
            names.append(f"p{p}.standing")
        names += [f"observer{p}" for p in range(self.players)]
        names += [f"turn{p}" for p in range(self.players)]
        return names

    def _player_values(self, state: State, p: int) -> list[float]:
        """Player p's common entries, kept by pinfalls: the steps of a ball (and games that begin alike) share them.

        They read only the pinfalls: the running score and the next ball are the scoring
        engine's functions of them (`State.scoresheet`, `State.ball_context`).
        """
        falls = state.pinfalls[p]
        key = tuple(falls)
        found = self._kept.get(key)
        if found is None:
            if len(self._kept) >= KEPT_LIMIT:
                self._kept.clear()
            lane = self.game.lane
            found = [0.0] * (2 * (2 * lane.frames + 1))
            for b, fall in enumerate(falls):
                found[2 * b], found[2 * b + 1] = 1.0, fall / lane.pins
            found.append(state.scoresheet(p).total / self.game.max_score)
            ctx = state.ball_context(p)
            if ctx is None:
                found += [0.0] * 5
            else:
                found += [ctx.frame / lane.frames, ctx.ball == 1, ctx.ball == 2, ctx.ball == 3]
                found.append(ctx.standing / lane.pins)
            self._kept[key] = found
        return found

    def _common_values(self, state: State, player: int) -> list[float]:
        values: list[float] = []
        for p in range(self.players):
            values += self._player_values(state, p)
        turn = state.turn()
        values += [float(p == player) for p in range(self.players)]
        values += [float(p == turn) for p in range(self.players)]
        return values
