"""A roll of six-sided dice, die by die: the chance outcome of the dice games."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import Any

from pinsetter.core.game import ParseError, parse_int
from pinsetter.i18n import _

__all__ = ["DiceRoll", "roll_faces"]


@dataclass(frozen=True, order=True)
class DiceRoll:
    """The faces of one roll in order, e.g. `3+4` (the order matters for flips and kept dice)."""

    faces: tuple[int, ...]

    def __str__(self) -> str:
        return _text(self.faces)

    def to_dict(self) -> dict[str, Any]:
        return {"dice": list(self.faces)}

    @classmethod
    def parse(cls, text: str, most: int) -> DiceRoll:
        """Read `3+4`; a game allows one to `most` dice."""
        try:
            faces = tuple(parse_int(p) for p in text.strip().split("+"))
        except ValueError:
            raise ParseError(_("{text} is not a roll like '3+4' or '5'").format(text=repr(text))) from None
        if not 1 <= len(faces) <= most or any(not 1 <= f <= 6 for f in faces):
            raise ParseError(
                _("{text} is not a roll of one to {most} six-sided dice").format(text=repr(text), most=most)
            )
        return cls(faces)


def roll_faces(rng: random.Random, count: int) -> tuple[int, ...]:
    """`count` six-sided dice, each `rng.randint(1, 6)` drawn as CPython draws it.

    `randint(1, 6)` is 1 plus three random bits, drawn again while they make 6 or more;
    its argument handling costs more than that, and the dice games roll every die so.
    A test holds this to `randint` die for die.
    """
    getrandbits = rng.getrandbits
    faces = []
    for _die in range(count):
        value = getrandbits(3)
        while value >= 6:
            value = getrandbits(3)
        faces.append(value + 1)
    return tuple(faces)


@cache
def _text(faces: tuple[int, ...]) -> str:
    return "+".join(str(f) for f in faces)
