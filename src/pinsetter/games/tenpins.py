"""Ten Pins, the two-dice game (RULES.md section 1; seed 000).

A fresh rack is bowled with two dice: double five is a strike, any six is off
the alley (0), otherwise the sum. A rack with pins left is bowled with one die:
a six is 0, otherwise the face, and reaching what stands is a spare (the ball
is recorded as the pins that were standing).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

from pinsetter.core.dice import DiceRoll, roll_faces
from pinsetter.core.game import Step
from pinsetter.core.scoring import BallContext
from pinsetter.games.pure_chance import BallModel, PureChanceGame, frames_option
from pinsetter.games.registry import register
from pinsetter.i18n import N_

if TYPE_CHECKING:
    from pinsetter.core.game import State
    from pinsetter.core.table import TableView

SIX_SIDED = range(1, 7)


Dice = DiceRoll  # a roll of two dice on a fresh rack, one die otherwise


def ball_pinfall(faces: tuple[int, ...], standing: int) -> int:
    """The pinfall of a roll against `standing` pins (the whole of the game's rules)."""
    if len(faces) == 2:
        if faces == (5, 5):
            return 10
        if 6 in faces:
            return 0
        return faces[0] + faces[1]
    (face,) = faces
    return 0 if face == 6 else min(face, standing)


# Every roll once, by its faces (a roll of one die on a rack with pins left, two on a fresh rack).
_ROLL_OF: dict[tuple[int, ...], Dice] = {
    faces: Dice(faces) for faces in [*((a,) for a in SIX_SIDED), *((a, b) for a in SIX_SIDED for b in SIX_SIDED)]
}


@cache
def _rolls(dice: int) -> list[tuple[Step, Fraction]]:
    p = Fraction(1, 6**dice)
    return [(roll, p) for faces, roll in _ROLL_OF.items() if len(faces) == dice]


@cache
def _roll_set(dice: int) -> frozenset[Step]:
    return frozenset(outcome for outcome, _ in _rolls(dice))


class TenPinsModel(BallModel[None]):
    def fresh(self) -> None:
        return None

    def outcomes(self, rack: None, ctx: BallContext) -> list[tuple[Step, Fraction]]:
        return _rolls(2 if ctx.fresh_rack else 1)

    def resolve(self, rack: None, ctx: BallContext, outcome: Step) -> tuple[int, None]:
        assert isinstance(outcome, Dice)
        return ball_pinfall(outcome.faces, ctx.standing), None

    def outcome_set(self, rack: None, ctx: BallContext) -> frozenset[Step]:
        return _roll_set(2 if ctx.fresh_rack else 1)

    def sample(self, rack: None, ctx: BallContext, rng: random.Random) -> Step:
        return _ROLL_OF[roll_faces(rng, 2 if ctx.fresh_rack else 1)]  # left to right: the first die first


_MODEL = TenPinsModel()


# The rules for players (core/rules_text.py's format; `Game.rules` fills the braces).
RULES_TEXT = N_("""\
{name} is ten-pin bowling with two ordinary dice, for {players}. There is
nothing to decide: the dice do all the bowling.

# What you need
Two six-sided dice and a scoresheet of ten frames for each player.

# How a frame goes
Players take turns, one frame each. For the first ball, roll both dice:
- Double five is a strike: all ten pins fall and the frame is over.
- If either die shows a six, the ball is off the alley: no pins fall.
- Otherwise the two dice added together (2 to 9) are the pins knocked down.

For the second ball, roll one die: a six knocks down nothing, any other face
that many pins. If the two balls together make 10 or more, the frame is a
spare, and the second ball counts just the pins that were still standing.

# The 10th frame
A strike in the 10th frame earns two more balls, a spare one more. A ball at
a full rack of ten pins rolls two dice; a ball at the pins left over rolls one
die.

{scoring}

The highest total at the end of the game wins.

# Options
{frames_option}
""")


@register
class TenPins(PureChanceGame):
    id = "tenpins"
    name = N_("Ten Pins (dice)")
    summary = N_("Two dice: double five is a strike, a six is off the alley.")
    rules_text = RULES_TEXT
    max_players = 12  # RULES.md: 1 to 12 (the seed says 2 or more)
    option_specs = (frames_option(),)
    conformance_options = ({}, {"frames": "3"})

    def ball_model(self) -> TenPinsModel:
        return _MODEL

    def parse_outcome(self, text: str) -> Step:
        return DiceRoll.parse(text, most=2)

    def table(self, state: State, names: Sequence[str] | None = None, last_chance: str = "") -> TableView:
        from pinsetter.games.pure_chance_table import dice_table, pip_dice, ten_pins_words

        return dice_table(state, list(names) if names else None, last_chance, draw=pip_dice, words=ten_pins_words)

    def step_words(self, before: State, step: str, after: State, names: Sequence[str], actor: int | None) -> str:
        from pinsetter.games.pure_chance_table import ten_pins_step

        return ten_pins_step(before, step, names)

    def chance_space(self) -> Iterator[Step]:
        """Every roll: two dice on a fresh rack, one die on the pins left."""
        return (outcome for dice in (1, 2) for outcome, _probability in _rolls(dice))
