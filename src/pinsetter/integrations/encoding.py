"""Stable integer ids for steps and fixed-size observation vectors, shared by every adapter.

Toolkits (OpenSpiel, Gymnasium, PettingZoo) speak integers and arrays; pinsetter
speaks `Step` values with text forms. This module is the one translation:

* `StepIndex` enumerates, once per game and options, every action text the
  game's grammar can produce (and every chance outcome), parses each with the
  game's own parser and numbers them in the game's own sort order. An id is an
  index into that tuple, so sorted ids are sorted actions, and the id of a step
  never depends on the position. Legality stays with the engine: the index only
  names steps, the state says which are legal.
* `Observer` turns `State.view(player)` (what that player may see) into a
  vector of floats in [0, 1] with a name for every entry. Reading only the view
  means the vectors hide exactly what the game hides.

No rule is written here: the grammars below bound the *text* of steps (pins
1..n, dice faces 1..6, piles 1..3); which of them are legal is asked of the state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations, product
from typing import Any

import numpy as np
import numpy.typing as npt

from pinsetter.core.dice import DiceRoll
from pinsetter.core.game import Game, State, Step
from pinsetter.core.scoring import BallContext

__all__ = ["Observer", "StepIndex", "max_decisions", "step_index"]

FloatArray = npt.NDArray[np.float32]


def _subsets(items: Sequence[int], sizes: Iterable[int]) -> Iterator[tuple[int, ...]]:
    for size in sizes:
        yield from combinations(items, size)


def _plus(items: Iterable[int]) -> str:
    return "+".join(str(i) for i in items)


# --- the action grammars, per game ------------------------------------------------------


def _rolling_pins_actions(game: Game) -> Iterator[str]:
    from pinsetter.games.rolling_pins import TOKEN_LIMIT, RollingPins

    assert isinstance(game, RollingPins)
    pins = range(1, game.lane.pins + 1)
    yield from ("dice 1", "dice 2", "extra-dice", "auto-strike", "reroll", "ten-pin", "miss", "pass")
    yield from (f"flip {die}" for die in (1, 2, 3))  # at most three dice are rolled
    yield from (f"keep {_plus(kept)}" for kept in _subsets((1, 2, 3), (1, 2)))
    yield from (f"extra-pin {pin}" for pin in pins)
    yield from (f"mark {area}" for area in range(1, len(game.sheet.areas) + 1))
    for crossed in _subsets(tuple(pins), range(1, len(pins) + 1)):
        for tokens in range(-TOKEN_LIMIT, TOKEN_LIMIT + 1):
            yield f"cross {_plus(crossed)}" + (f" tokens {tokens:+d}" if tokens else "")


def _solitaire_actions(game: Game) -> Iterator[str]:
    from pinsetter.games.bowling_solitaire import PILE_SIZES, POSITIONS

    yield "stop"
    for pile in range(1, len(PILE_SIZES) + 1):
        yield from (f"{pile}:{_plus(group)}" for group in _subsets(POSITIONS, (1, 2, 3)))


def _dice_outcomes(most: int) -> Callable[[Game], Iterator[Step]]:
    def outcomes(game: Game) -> Iterator[Step]:
        for count in range(1, most + 1):
            yield from (DiceRoll(faces) for faces in product(range(1, 7), repeat=count))

    return outcomes


def _solitaire_outcomes(game: Game) -> Iterator[Step]:
    from pinsetter.games.bowling_solitaire import VALUES, Card

    yield from (Card(value) for value in VALUES)


def _bowling_dice_outcomes(game: Game) -> Iterator[Step]:
    """Every roll the game's own ball model can produce, over every set of dice left to roll."""
    from pinsetter.games.bowling_dice import BowlingDice

    assert isinstance(game, BowlingDice)
    model = game.ball_model()
    ctx = BallContext(frame=1, ball=1, standing=game.lane.pins, fresh_rack=True)  # the model ignores it
    for rack in product(*(range(count + 1) for _, count in model.kinds)):
        yield from (outcome for outcome, _ in model.outcomes(tuple(rack), ctx))


ACTION_GRAMMARS: dict[str, Callable[[Game], Iterator[str]]] = {
    "rolling-pins": _rolling_pins_actions,
    "bowling-solitaire": _solitaire_actions,
}
CHANCE_GRAMMARS: dict[str, Callable[[Game], Iterator[Step]]] = {
    "tenpins": _dice_outcomes(2),
    "rolling-pins": _dice_outcomes(3),
    "bowling-dice": _bowling_dice_outcomes,
    "bowling-solitaire": _solitaire_outcomes,
}
# Outcome sets larger than this (an exotic Bowling Dice set) are refused rather than enumerated.
MAX_CHANCE_OUTCOMES = 200_000


def _ordered(steps: Iterable[Step]) -> tuple[Step, ...]:
    """Distinct steps in the game's own order (every game's steps are ordered dataclasses)."""
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

    @classmethod
    def build(cls, game: Game) -> StepIndex:
        grammar = ACTION_GRAMMARS.get(game.id)
        chance = CHANCE_GRAMMARS.get(game.id)
        if chance is None or (game.has_decisions and grammar is None):
            raise NotImplementedError(f"no step grammar for {game.id}: add one in pinsetter.integrations.encoding")
        actions = _ordered(game.parse_action(text) for text in grammar(game)) if grammar else ()
        outcomes: list[Step] = []
        for outcome in chance(game):
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
            raise KeyError(f"{self.game_id}: action {action} has no id (extend its grammar)") from None

    def outcome_id(self, outcome: Step) -> int:
        try:
            return self._outcome_ids[outcome]
        except KeyError:
            raise KeyError(f"{self.game_id}: chance outcome {outcome} has no id (extend its grammar)") from None

    def legal_ids(self, state: State) -> list[int]:
        """The legal actions of the player to move, as sorted ids."""
        return sorted(self.action_id(a) for a in state.legal_actions())

    def mask(self, state: State) -> npt.NDArray[np.int8]:
        """1 for every legal action id, 0 elsewhere (all 0 at chance and terminal nodes)."""
        mask = np.zeros(len(self.actions), dtype=np.int8)
        mask[self.legal_ids(state)] = 1
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


def max_decisions(game: Game, players: int) -> int:
    """A bound on the decisions of one game, for toolkits that ask for a maximum length.

    A game has at most 2 * frames + 1 balls per player. Rolling Pins: each roll
    takes at most a dice choice, an extra-dice, a reroll, a flip, a keep and a
    cross or miss, a ball has at most pins + 1 rolls (each but the last crosses a
    pin) and ends with at most one extra-pin or pass; the ability track adds at
    most one mark per box. Solitaire: a ball takes at most ten plays and a stop.
    The bound is loose on purpose; the OpenSpiel conformance test checks it.
    """
    balls = 2 * game.lane.frames + 1
    if game.id == "rolling-pins":
        from pinsetter.games.rolling_pins import RollingPins

        assert isinstance(game, RollingPins)
        boxes = sum(area.boxes for area in game.sheet.areas)
        per_ball = 6 * (game.lane.pins + 1) + 1
        return players * (balls * per_ball + 2 * boxes)
    if game.id == "bowling-solitaire":
        return players * balls * 11
    return 0 if not game.has_decisions else players * balls * 64


# --- observations ---------------------------------------------------------------------


Put = Callable[[str, float], None]


class Observer:
    """A fixed-size vector in [0, 1] for `State.view(player)`, with a name per entry.

    Common to every game, per player (seat order): the pinfalls so far (one slot
    per possible ball: a bit that it was bowled and pins / rack size), the
    running score / maximum, and the next ball (frame, ball 1-3, pins standing).
    Then one-hot entries for the observing player and the player whose frame it
    is. Then what the game's view adds: Rolling Pins' standing pins, tokens,
    phase, dice, grey pins, marks and abilities; Solitaire's face-up pin values,
    pile tops and sizes, and the cards seen. Nothing else is read, so nothing
    the view hides can leak.
    """

    def __init__(self, game: Game, players: int) -> None:
        self.game = game
        self.players = players
        names: list[str] = []
        self._fill(game.new_state(players), 0, lambda name, _: names.append(name))
        self.names: tuple[str, ...] = tuple(names)
        self.size = len(self.names)

    def vector(self, state: State, player: int) -> FloatArray:
        values: list[float] = []
        self._fill(state, player, lambda _, value: values.append(min(1.0, max(0.0, float(value)))))
        return np.asarray(values, dtype=np.float32)

    def _fill(self, state: State, player: int, put: Put) -> None:
        lane = self.game.lane
        scores = state.scores()
        for p in range(self.players):
            falls = state.pinfalls[p]
            for b in range(2 * lane.frames + 1):
                put(f"p{p}.ball{b + 1}.bowled", b < len(falls))
                put(f"p{p}.ball{b + 1}.pins", falls[b] / lane.pins if b < len(falls) else 0.0)
            put(f"p{p}.score", scores[p] / self.game.max_score)
            ctx = state.ball_context(p)
            put(f"p{p}.frame", ctx.frame / lane.frames if ctx else 0.0)
            for ball in (1, 2, 3):
                put(f"p{p}.next_ball{ball}", bool(ctx and ctx.ball == ball))
            put(f"p{p}.standing", ctx.standing / lane.pins if ctx else 0.0)
        turn = state.turn()
        for p in range(self.players):
            put(f"observer{p}", p == player)
        for p in range(self.players):
            put(f"turn{p}", p == turn)
        view = state.view(player)
        if self.game.id == "rolling-pins":
            _rolling_pins_part(self.game, view, put)
        elif self.game.id == "bowling-solitaire":
            _solitaire_part(view, put)


PHASES = ("choose", "rolling", "rolled", "extra-pin")
ABILITY_NAMES = ("reroll", "flip", "extra-pin", "extra-dice", "ten-pin", "auto-strike")


def _rolling_pins_part(game: Game, view: dict[str, Any], put: Put) -> None:
    from pinsetter.games.rolling_pins import TOKEN_LIMIT, RollingPins

    assert isinstance(game, RollingPins)
    pins = game.lane.pins
    for p, entry in enumerate(view["players"]):
        standing = set(entry["standing"])
        for pin in range(1, pins + 1):
            put(f"p{p}.pin{pin}.standing", pin in standing)
        put(f"p{p}.tokens", entry["tokens"] / TOKEN_LIMIT)
        for phase in PHASES:
            put(f"p{p}.phase.{phase}", entry["phase"] == phase)
        dice = entry["dice"]
        for die in range(3):
            for face in range(1, 7):
                put(f"p{p}.die{die + 1}.face{face}", die < len(dice) and dice[die] == face)
        if game.advanced:
            grey = set(entry["grey"])
            for pin in range(1, pins + 1):
                put(f"p{p}.pin{pin}.grey", pin in grey)
            for area, (marks, spec) in enumerate(zip(entry["marks"], game.sheet.areas, strict=True)):
                put(f"p{p}.area{area + 1}.marked", marks / spec.boxes)
            for ability in ABILITY_NAMES:
                put(f"p{p}.ability.{ability}", entry["abilities"].get(ability, 0) / 2)
            put(f"p{p}.extra_dice_active", entry["extra_dice_active"])
            put(f"p{p}.pending_marks", entry["pending_marks"] / 3)


def _solitaire_part(view: dict[str, Any], put: Put) -> None:
    for position in range(1, 11):
        value = view["pins"][str(position)]
        put(f"pin{position}.standing", value is not None)
        for card in range(1, 11):
            put(f"pin{position}.value{card}", value == card)
    for pile, entry in enumerate(view["piles"], start=1):
        for card in range(1, 11):
            put(f"pile{pile}.top{card}", entry["top"] == card)
        put(f"pile{pile}.cards", entry["cards"] / 5)
    seen = view["seen"]
    for card in range(1, 11):
        put(f"seen{card}", seen.count(card) / 2)
