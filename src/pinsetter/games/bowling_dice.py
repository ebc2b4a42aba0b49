"""Bowling Dice, ten custom dice (RULES.md section 3; seed 002).

Faces are `X` (strike), `/` (spare), `pin` (a standing pin) and `blank` (a pin
down). The face mix of the retail dice is not known for certain, so the dice
set is data: a default from RULES.md, or one the user gives inline (the
command line may read it from a JSON/TOML file, once, when a game starts).

Chance outcomes are grouped: dice with the same faces form a kind, and an
outcome lists, kind by kind, the faces the rolled dice show in a canonical
order. That keeps a roll of ten dice to a few hundred outcomes (not 6^10) while
still showing every die.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property, lru_cache
from itertools import product
from math import factorial
from typing import TYPE_CHECKING, Any

from pinsetter.core.dice import roll_faces
from pinsetter.core.game import OptionError, OptionSpec, ParseError, Step, quoted
from pinsetter.core.scoring import BallContext
from pinsetter.games.pure_chance import BallModel, PureChanceGame, frames_option
from pinsetter.games.registry import register
from pinsetter.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from pinsetter.core.game import State
    from pinsetter.core.table import TableView

# Face symbols in their canonical order; the names used in dice files.
FACES = "X/-P"
FACE_NAMES = {"X": "X", "/": "/", "blank": "-", "pin": "P"}
SYMBOL_NAMES = {v: k for k, v in FACE_NAMES.items()}
DICE = 10
SIDES = 6


class DiceSetError(OptionError):
    """A dice-set definition that is wrong; the message names the die and face."""


@dataclass(frozen=True)
class DiceSet:
    """Ten dice of six faces; each die is a string of face symbols (X, /, -, P)."""

    dice: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(self.dice) != DICE:
            raise DiceSetError(
                _("a dice set has {dice} dice, this one has {count}").format(dice=DICE, count=len(self.dice))
            )
        for number, die in enumerate(self.dice, start=1):
            if len(die) != SIDES:
                raise DiceSetError(
                    _("die {number}: has {count} faces, needs {sides}").format(
                        number=number, count=len(die), sides=SIDES
                    )
                )
            for side, face in enumerate(die, start=1):
                if face not in FACES:
                    raise DiceSetError(
                        _("die {number}, face {side}: unknown face {face}").format(
                            number=number, side=side, face=repr(face)
                        )
                    )

    def __str__(self) -> str:
        return ",".join(self.dice)

    def words(self) -> str:
        """The set as players read it, kind by kind: "3 dice: 1 strike face, 2 blanks, 3 pins; ..."."""
        return _("; ").join(
            ngettext("{count} die: {faces}", "{count} dice: {faces}", count).format(count=count, faces=_faces(die))
            for die, count in self.kinds
        )

    def faces_words(self) -> str:
        """Every face of the set counted, a short phrase to tell sets apart: "3 strike faces, 27 blanks, ..."."""
        return _faces("".join(self.dice))

    @property
    def kinds(self) -> tuple[tuple[str, int], ...]:
        """Distinct dice (faces sorted) with how many of each, in order of first appearance."""
        return _kinds(self.dice)

    @classmethod
    def parse(cls, text: str) -> DiceSet:
        """`default`, inline faces `X--PPP,X--PPP,...` (ten dice) or the set as inline JSON; never a file.

        A file is read once by the command line (`--option dice=FILE`, see
        `pinsetter.core.datafile.resolve_option_files`), so a record that names
        a path is refused instead of opening it.
        """
        text = text.strip()
        if text == "default":
            return DEFAULT_DICE
        if text.startswith(("{", "[")):
            try:
                data = json.loads(text)
            except ValueError as exc:
                raise DiceSetError(_("not valid JSON: {error}").format(error=exc)) from None
            return cls.from_json(data)
        if "," not in text and not set(text) <= set(FACES):
            raise DiceSetError(
                _(
                    "expected 'default', ten dice like X--PPP,... or a dice set as inline JSON, got {value}"
                    " (a file is read only from the command line: --option dice=FILE)"
                ).format(value=quoted(text))
            )
        return cls(tuple(d.strip() for d in text.split(",")))

    @classmethod
    def from_json(cls, data: Any) -> DiceSet:
        """From parsed JSON/TOML `{"dice": [[six face names], ...]}` (ten dice); errors name the die and face."""
        dice = data.get("dice") if isinstance(data, dict) else None
        if not isinstance(dice, list):
            raise DiceSetError(_("needs a list 'dice' of {dice} dice").format(dice=DICE))
        if len(dice) != DICE:
            raise DiceSetError(_("a dice set has {dice} dice, this one has {count}").format(dice=DICE, count=len(dice)))
        symbols: list[str] = []
        for number, die in enumerate(dice, start=1):
            if not isinstance(die, list) or len(die) != SIDES:
                raise DiceSetError(
                    _("die {number}: needs a list of {sides} faces, got {value}").format(
                        number=number, sides=SIDES, value=quoted(die)
                    )
                )
            faces = ""
            for side, face in enumerate(die, start=1):
                if not isinstance(face, str) or face not in FACE_NAMES:
                    names = ", ".join(FACE_NAMES)
                    message = _("die {number}, face {side}: {value} is not one of {names}")
                    raise DiceSetError(message.format(number=number, side=side, value=quoted(face), names=names))
                faces += FACE_NAMES[face]
            symbols.append(faces)
        return cls(tuple(symbols))

    def to_names(self) -> list[list[str]]:
        return [[SYMBOL_NAMES[f] for f in die] for die in self.dice]


def _faces(faces: str) -> str:
    """Faces counted in words: `X--PPP` -> "1 strike face, 2 blanks, 3 pins"."""
    said = [
        ngettext("{count} strike face", "{count} strike faces", faces.count("X")),
        ngettext("{count} spare face", "{count} spare faces", faces.count("/")),
        ngettext("{count} blank", "{count} blanks", faces.count("-")),
        ngettext("{count} pin", "{count} pins", faces.count("P")),
    ]
    shown = [text.format(count=faces.count(face)) for text, face in zip(said, FACES, strict=True) if face in faces]
    return _(", ").join(shown)


@cache
def _kinds(dice: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    counts: dict[str, int] = {}
    for die in dice:
        canonical = _canonical(die)
        counts[canonical] = counts.get(canonical, 0) + 1
    return tuple(counts.items())


@cache
def _canonical(faces: str) -> str:
    """Faces in the canonical order (X, /, -, P)."""
    return "".join(sorted(faces, key=FACES.index))


DEFAULT_DICE = DiceSet(("X--PPP",) * 3 + ("/--PPP",) * 3 + ("---PPP",) * 4)


@dataclass(frozen=True, order=True)
class Roll:
    """A roll's faces kind by kind (canonical order within a kind), e.g. `X-P|/PP|--PP`."""

    groups: tuple[str, ...]

    def __str__(self) -> str:
        return "|".join(self.groups)

    def to_dict(self) -> dict[str, Any]:
        return {"dice": [[SYMBOL_NAMES[f] for f in g] for g in self.groups]}

    @staticmethod
    @cache
    def of(groups: tuple[str, ...]) -> Roll:
        """The roll of these groups, one shared instance per roll (rolls are values)."""
        return Roll(groups)

    @classmethod
    def parse(cls, text: str) -> Roll:
        groups = tuple(text.strip().split("|"))
        for group in groups:
            for face in group:
                if face not in FACES:
                    raise ParseError(
                        _("{text}: {face} is not a face (use X, /, -, P)").format(text=repr(text), face=repr(face))
                    )
        return cls(groups)

    def count(self, face: str) -> int:
        return sum(g.count(face) for g in self.groups)


# The rack a bowling-dice ball faces: how many dice of each kind are rolled.
Rack = tuple[int, ...]


@cache
def _kind_outcomes(faces: str, count: int) -> tuple[tuple[str, Fraction], ...]:
    """Every canonical face string of `count` dice of one kind, with its probability."""
    distinct = sorted(set(faces), key=FACES.index)
    p = {f: Fraction(faces.count(f), SIDES) for f in distinct}
    result = []

    def compositions(left: int, index: int) -> list[list[int]]:
        if index == len(distinct) - 1:
            return [[left]]
        return [[k, *rest] for k in range(left + 1) for rest in compositions(left - k, index + 1)]

    for counts in compositions(count, 0):
        prob = Fraction(factorial(count))
        text = ""
        for face, k in zip(distinct, counts, strict=True):
            prob = prob / factorial(k) * p[face] ** k
            text += face * k
        result.append((text, prob))
    return tuple(result)


class BowlingDiceModel(BallModel[Rack]):
    def __init__(self, dice: DiceSet) -> None:
        self.dice = dice
        self.kinds = dice.kinds

    def fresh(self) -> Rack:
        return self.full

    @cached_property
    def full(self) -> Rack:
        """Every die of every kind: the rack of ten pins."""
        return tuple(count for _, count in self.kinds)

    def outcomes(self, rack: Rack, ctx: BallContext) -> list[tuple[Step, Fraction]]:
        return list(_outcomes(self.kinds, rack))

    def resolve(self, rack: Rack, ctx: BallContext, outcome: Step) -> tuple[int, Rack]:
        assert isinstance(outcome, Roll)
        return _resolve(outcome.groups, ctx.fresh_rack, ctx.standing, len(rack))

    def outcome_set(self, rack: Rack, ctx: BallContext) -> frozenset[Step]:
        return _outcome_set(self.kinds, rack)

    def sample(self, rack: Rack, ctx: BallContext, rng: random.Random) -> Step:
        rolled = roll_faces(rng, sum(rack))  # kind by kind, die by die
        groups, start = [], 0
        for (faces, _weight), count in zip(self.kinds, rack, strict=True):
            groups.append(_shown(faces, rolled[start : start + count]))
            start += count
        return Roll.of(tuple(groups))


@lru_cache(maxsize=8192)
def _shown(faces: str, sides: tuple[int, ...]) -> str:
    """What dice of one kind (`faces`) show when they land on these sides (1 to 6), in canonical order."""
    return _canonical("".join([faces[side - 1] for side in sides]))


@lru_cache(maxsize=4096)
def _resolve(groups: tuple[str, ...], fresh_rack: bool, standing: int, kinds: int) -> tuple[int, Rack]:
    """The pinfall of a roll (by its groups: a tuple hashes faster than a Roll) and the rack left.

    A roll's meaning depends on nothing else.
    """
    outcome = Roll.of(groups)
    mark, down = ("X", "/-") if fresh_rack else ("/", "X-")
    if outcome.count(mark):
        return standing, tuple(0 for _ in range(kinds))
    pins = sum(outcome.count(face) for face in down)
    return pins, tuple(group.count("P") for group in outcome.groups)


@lru_cache(maxsize=256)
def _outcome_set(kinds: tuple[tuple[str, int], ...], rack: Rack) -> frozenset[Step]:
    return frozenset(outcome for outcome, _probability in _outcomes(kinds, rack))


@cache
def _outcomes(kinds: tuple[tuple[str, int], ...], rack: Rack) -> tuple[tuple[Step, Fraction], ...]:
    per_kind = [_kind_outcomes(faces, n) for (faces, _), n in zip(kinds, rack, strict=True)]
    result: list[tuple[Step, Fraction]] = []
    for combo in product(*per_kind):
        prob = Fraction(1)
        for _text, p in combo:
            prob *= p
        result.append((Roll.of(tuple(text for text, _ in combo)), prob))
    return tuple(result)


# The rules for players (core/rules_text.py's format; `Game.rules` fills the braces).
RULES_TEXT = N_("""\
{name} is ten-pin bowling with ten special dice, for {players}. There is
nothing to decide: the dice do all the bowling.

# What you need
Ten bowling dice and a scoresheet of ten frames for each player. Each face of
a bowling die shows one of four things:
- X, a strike;
- /, a spare;
- a standing pin;
- a blank: a pin knocked down.

# How a frame goes
Players take turns, one frame each. For the first ball, roll all ten dice. If
any die shows X, the ball is a strike and the frame is over. Otherwise every
blank and every / is a pin knocked down; ten of them make a strike too.

For the second ball, roll again only the dice that showed a standing pin. If
any of them shows /, the ball is a spare: all the pins left fall. Otherwise
every blank and every X is a pin knocked down; if they are all down, it is a
spare too.

# The 10th frame
A strike or a spare in the 10th frame sets up all ten pins again: the next
ball rolls all ten dice. After a strike and then a ball that is not a strike,
the third ball rolls only the dice that still show a standing pin.

{scoring}

The highest total at the end of the game wins.

# The dice
The faces of the dice in the box are not known for certain. The usual set,
played unless you choose another, has three strike dice (one X, two blanks,
three pins), three spare dice (one /, two blanks, three pins) and four plain
dice (three blanks, three pins).

# Options
- "{dice}": play with another set of dice that you have added.
{frames_option}
""")


@register
class BowlingDice(PureChanceGame):
    id = "bowling-dice"
    name = N_("Bowling Dice")
    summary = N_("Ten custom dice with strike, spare, pin and blank faces.")
    rules_text = RULES_TEXT
    max_players = 8  # RULES.md: 1 or more; the box says 1 to 8
    option_specs = (
        OptionSpec(
            "dice",
            DEFAULT_DICE,
            N_("the ten dice to roll: the usual set, or another set you have added"),
            parse=DiceSet.parse,
            reads_file=True,
            label=N_("Dice set"),
        ),
        frames_option(),
    )
    conformance_options = ({}, {"frames": "2"}, {"dice": "XXXXXX,/PPPPP," + ",".join(["-PPPPP"] * 8)})

    def ball_model(self) -> BowlingDiceModel:
        return self._ball_model

    @cached_property
    def _ball_model(self) -> BowlingDiceModel:
        """One model per game (its options are fixed): every new state asks for it."""
        dice = self.options["dice"]
        assert isinstance(dice, DiceSet)
        return BowlingDiceModel(dice)

    def parse_outcome(self, text: str) -> Step:
        return Roll.parse(text)

    def table(self, state: State, names: Sequence[str] | None = None, last_chance: str = "") -> TableView:
        from pinsetter.games.pure_chance_table import bowling_dice, bowling_words, dice_table

        return dice_table(state, list(names) if names else None, last_chance, draw=bowling_dice, words=bowling_words)

    def step_words(self, before: State, step: str, after: State, names: Sequence[str], actor: int | None) -> str:
        from pinsetter.games.pure_chance_table import bowling_dice_step

        return bowling_dice_step(before, step, names)

    def chance_space(self) -> Iterator[Step]:
        """Every roll the ball model can make, over every number of dice of each kind left to roll."""
        model = self.ball_model()
        for rack in product(*(range(count + 1) for _faces, count in model.kinds)):
            yield from (outcome for outcome, _probability in _outcomes(model.kinds, rack))
