"""Rolling Pins as toolkits see it: every action and roll it can produce, and its observation entries.

`RollingPins.action_space`, `chance_space`, `max_decisions` and
`observation_features` (see `pinsetter.core.game.Game`) delegate here, the way
`table` delegates to rolling_pins_table. The action space is the *text grammar*
of actions, read back with the game's own parser: pins 1..pins, dice 1-3, the
ability track's areas, tokens within what a player can hold. Which of them is
legal is always asked of the state.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations, product
from typing import TYPE_CHECKING, Any

from pinsetter.core.dice import DiceRoll
from pinsetter.core.game import Step
from pinsetter.games.rolling_pins import ABILITIES, CHOOSE, EXTRA_PIN, ROLLED, ROLLING, TOKEN_LIMIT

if TYPE_CHECKING:
    from pinsetter.games.rolling_pins import RollingPins

__all__ = ["action_space", "chance_space", "max_decisions", "observation_features"]

PHASES = (CHOOSE, ROLLING, ROLLED, EXTRA_PIN)
MOST_DICE = 3  # two chosen and one more with Extra Dice, or the three shared dice


def _subsets(items: Sequence[int], sizes: Iterable[int]) -> Iterator[tuple[int, ...]]:
    for size in sizes:
        yield from combinations(items, size)


def _plus(items: Iterable[int]) -> str:
    return "+".join(str(i) for i in items)


def action_texts(game: RollingPins) -> Iterator[str]:
    """The text of every action the grammar allows with these options."""
    pins = tuple(range(1, game.lane.pins + 1))
    yield from ("dice 1", "dice 2", "extra-dice", "auto-strike", "reroll", "ten-pin", "miss", "pass")
    yield from (f"flip {die}" for die in range(1, MOST_DICE + 1))
    yield from (f"keep {_plus(kept)}" for kept in _subsets(range(1, MOST_DICE + 1), (1, 2)))
    yield from (f"extra-pin {pin}" for pin in pins)
    yield from (f"mark {area}" for area in range(1, len(game.sheet.areas) + 1))
    for crossed in _subsets(pins, range(1, len(pins) + 1)):
        for tokens in range(-TOKEN_LIMIT, TOKEN_LIMIT + 1):
            yield f"cross {_plus(crossed)}" + (f" tokens {tokens:+d}" if tokens else "")


def action_space(game: RollingPins) -> Iterator[Step]:
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
    pins = range(1, game.lane.pins + 1)
    for p, entry in enumerate(view["players"]):
        standing = set(entry["standing"])
        yield from ((f"p{p}.pin{pin}.standing", float(pin in standing)) for pin in pins)
        yield f"p{p}.tokens", entry["tokens"] / TOKEN_LIMIT
        yield from ((f"p{p}.phase.{phase}", float(entry["phase"] == phase)) for phase in PHASES)
        dice = entry["dice"]
        for die in range(MOST_DICE):
            for face in range(1, 7):
                yield f"p{p}.die{die + 1}.face{face}", float(die < len(dice) and dice[die] == face)
        if not game.advanced:
            continue
        grey = set(entry["grey"])
        yield from ((f"p{p}.pin{pin}.grey", float(pin in grey)) for pin in pins)
        for area, (marks, spec) in enumerate(zip(entry["marks"], game.sheet.areas, strict=True), start=1):
            yield f"p{p}.area{area}.marked", marks / spec.boxes
        for ability in ABILITIES:
            yield f"p{p}.ability.{ability}", entry["abilities"].get(ability, 0) / 2
        yield f"p{p}.extra_dice_active", float(entry["extra_dice_active"])
        yield f"p{p}.pending_marks", entry["pending_marks"] / 3
