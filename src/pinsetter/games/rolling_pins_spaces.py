"""Rolling Pins as toolkits see it: every action and roll it can produce, and its observation entries.

`RollingPins.action_space`, `chance_space`, `max_decisions` and
`observation_features` (see `pinsetter.core.game.Game`) delegate here, the way
`table` delegates to rolling_pins_table. The action space is every action a
game with these options can ever offer: the crosses come from the engine's own
`_crosses` for every roll with the most tokens a player can hold (1 979 with
ten frames of ten pins, 66 with two frames and no tokens, not the 21 483 of
every set of pins with every token count), the abilities and marks only in
the advanced game. Which of them is legal is always asked of the state.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from itertools import combinations, product
from typing import TYPE_CHECKING, Any, NamedTuple

from pinsetter.core.dice import DiceRoll
from pinsetter.core.game import FeatureLayout, Step
from pinsetter.games.rolling_pins import (
    ABILITIES,
    CHOOSE,
    EXTRA_PIN,
    ROLLED,
    ROLLING,
    TOKEN_LIMIT,
    Action,
    _crosses,
    token_range,
)

if TYPE_CHECKING:
    from pinsetter.games.rolling_pins import RollingPins

__all__ = ["action_space", "chance_space", "max_decisions", "observation_features", "observation_values"]

PHASES = (CHOOSE, ROLLING, ROLLED, EXTRA_PIN)
MOST_DICE = 3  # two chosen and one more with Extra Dice, or the three shared dice


def _subsets(items: Sequence[int], sizes: Iterable[int]) -> Iterator[tuple[int, ...]]:
    for size in sizes:
        yield from combinations(items, size)


def _plus(items: Iterable[int]) -> str:
    return "+".join(str(i) for i in items)


def most_tokens(game: RollingPins) -> int:
    """The most tokens a player can hold: one gained a frame (`_start_frame`), none in bonus frames."""
    return min(game.lane.frames, TOKEN_LIMIT) if game.options["tokens"] else 0


def crosses(game: RollingPins) -> Iterator[Action]:
    """Every cross a game with these options can ever offer, asked of the engine's own `_crosses`.

    A cross depends on the standing pins, the roll's number of dice and total, and the tokens
    held; the full rack and the most tokens allow the most, so the union over every roll of
    one or two kept dice with the most tokens is every cross that can ever be legal.
    """
    tokens = most_tokens(game)
    for count in (1, 2):
        for total in range(count, 6 * count + 1):
            dice = (total,) if count == 1 else (total - total // 2, total // 2)  # any roll of that total alike
            yield from _crosses(game.full, *token_range(dice, tokens), total)


def action_texts(game: RollingPins) -> Iterator[str]:
    """The text of every action a game with these options can ever offer (a superset of the legal ones).

    The basic game chooses dice, crosses and misses; the advanced game's abilities (reroll, flip,
    Extra Dice's keep, Extra Pin and its pass, Ten Pin, Auto Strike) and marks come only with it.
    """
    yield from ("dice 1", "dice 2", "miss")
    if game.advanced:
        yield from ("extra-dice", "auto-strike", "reroll", "ten-pin", "pass")
        yield from (f"flip {die}" for die in range(1, MOST_DICE + 1))
        yield from (f"keep {_plus(kept)}" for kept in _subsets(range(1, MOST_DICE + 1), (1, 2)))
        yield from (f"extra-pin {pin}" for pin in range(1, game.lane.pins + 1))
        yield from (f"mark {area}" for area in range(1, len(game.sheet.areas) + 1))
    yield from (str(cross) for cross in crosses(game))


def action_space(game: RollingPins) -> Iterator[Step]:
    """`action_texts` read back with the game's own parser (so each action is the engine's value)."""
    return (game.parse_action(text) for text in action_texts(game))


def chance_space(game: RollingPins) -> Iterator[Step]:
    """Every roll of one to three dice, die by die."""
    for count in range(1, MOST_DICE + 1):
        yield from (DiceRoll(faces) for faces in product(range(1, 7), repeat=count))


def max_decisions(game: RollingPins, players: int) -> int:
    """A loose bound on one game's decisions.

    A game has at most 2 * frames + 1 balls per player. Each roll takes at most
    a dice choice, an extra-dice, a reroll, a flip, a keep and a cross or miss;
    a ball has at most pins + 1 rolls (each but the last crosses a pin) and ends
    with at most one extra-pin or pass; the ability track adds at most one mark
    per box (and as many again for strikes). OpenSpiel's simulation test checks it.
    """
    balls = 2 * game.lane.frames + 1
    boxes = sum(area.boxes for area in game.sheet.areas)
    per_ball = 6 * (game.lane.pins + 1) + 1
    return players * (balls * per_ball + 2 * boxes)


def observation_features(game: RollingPins, view: dict[str, Any]) -> Iterator[tuple[str, float]]:
    """Per player: standing pins, tokens / TOKEN_LIMIT, phase, the dice (one-hot per die); advanced: more.

    The advanced game adds the frame's grey pins, marks per area, abilities held
    (/ 2), Extra Dice active and boxes waiting to be marked (/ 3).
    """
    players = len(view["players"])
    layout = _feature_layout(game.lane.pins, game.advanced, len(game.sheet.areas), players)
    return layout.pairs(observation_values(game, view))


def observation_values(game: RollingPins, view: dict[str, Any]) -> list[float]:
    """The values of `observation_features`, in order (what the observer reads every step)."""
    players = view["players"]
    areas = game.sheet.areas
    index = _feature_index(game.lane.pins, game.advanced, len(areas), len(players))
    values = [0.0] * index.size
    for entry, at in zip(players, index.players, strict=True):
        standing_at = at.standing
        for pin in entry["standing"]:
            values[standing_at[pin]] = 1.0
        values[at.tokens] = entry["tokens"] / TOKEN_LIMIT
        phase = at.phase.get(entry["phase"])
        if phase is not None:
            values[phase] = 1.0
        for die_at, face in zip(at.dice, entry["dice"][:MOST_DICE], strict=False):
            values[die_at[face]] = 1.0
        if not game.advanced:
            continue
        for pin in entry["grey"]:
            values[at.grey[pin]] = 1.0
        for area_at, marks, spec in zip(at.marked, entry["marks"], areas, strict=True):
            values[area_at] = marks / spec.boxes
        for ability, held in entry["abilities"].items():
            ability_at = at.abilities.get(ability)
            if ability_at is not None:
                values[ability_at] = held / 2
        values[at.extra_dice_active] = float(entry["extra_dice_active"])
        values[at.pending_marks] = entry["pending_marks"] / 3
    return values


class _PlayerIndex(NamedTuple):
    """Where one player's entries of `_feature_layout` are (no name is built per step)."""

    standing: tuple[int, ...]  # by pin (index 0 unused)
    tokens: int
    phase: dict[str, int]
    dice: tuple[tuple[int, ...], ...]  # by die - 1, then face (index 0 unused)
    grey: tuple[int, ...]  # by pin (index 0 unused); advanced only, as the rest
    marked: tuple[int, ...]  # by area - 1
    abilities: dict[str, int]
    extra_dice_active: int
    pending_marks: int


class _FeatureIndex(NamedTuple):
    size: int
    players: tuple[_PlayerIndex, ...]


@cache
def _feature_index(pins: int, advanced: bool, areas: int, players: int) -> _FeatureIndex:
    """`_feature_layout`'s entries by player, pin, die and face (-1: no such entry)."""
    at = _feature_layout(pins, advanced, areas, players).at
    unused = -1

    def find(name: str) -> int:
        return at.get(name, unused) if not advanced else at[name]

    entries = []
    for p in range(players):
        entries.append(
            _PlayerIndex(
                (unused, *(at[f"p{p}.pin{pin}.standing"] for pin in range(1, pins + 1))),
                at[f"p{p}.tokens"],
                {phase: at[f"p{p}.phase.{phase}"] for phase in PHASES},
                tuple(
                    (unused, *(at[f"p{p}.die{die}.face{face}"] for face in range(1, 7)))
                    for die in range(1, MOST_DICE + 1)
                ),
                (unused, *(find(f"p{p}.pin{pin}.grey") for pin in range(1, pins + 1))),
                tuple(find(f"p{p}.area{area}.marked") for area in range(1, areas + 1)),
                {ability: at[f"p{p}.ability.{ability}"] for ability in ABILITIES} if advanced else {},
                find(f"p{p}.extra_dice_active"),
                find(f"p{p}.pending_marks"),
            )
        )
    return _FeatureIndex(len(at), tuple(entries))


@cache
def _feature_layout(pins: int, advanced: bool, areas: int, players: int) -> FeatureLayout:
    """The names of `observation_features`, in order, for these options and players."""
    names: list[str] = []
    for p in range(players):
        names += [f"p{p}.pin{pin}.standing" for pin in range(1, pins + 1)]
        names.append(f"p{p}.tokens")
        names += [f"p{p}.phase.{phase}" for phase in PHASES]
        names += [f"p{p}.die{die}.face{face}" for die in range(1, MOST_DICE + 1) for face in range(1, 7)]
        if not advanced:
            continue
        names += [f"p{p}.pin{pin}.grey" for pin in range(1, pins + 1)]
        names += [f"p{p}.area{area}.marked" for area in range(1, areas + 1)]
        names += [f"p{p}.ability.{ability}" for ability in ABILITIES]
        names += [f"p{p}.extra_dice_active", f"p{p}.pending_marks"]
    return FeatureLayout(names)
