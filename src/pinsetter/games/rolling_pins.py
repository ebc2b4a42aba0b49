"""Rolling Pins, the roll-and-write game (RULES.md section 2; seed 001).

Each ball is a run of rolls: choose one or two dice, roll, then cross out a
set of standing pins whose numbers add up to the roll (moved by +/-1 per
token spent), or miss, which ends the ball. The advanced game adds grey pins,
an ability track and six abilities. Pins are held as bit masks (bit i-1 is
pin i) so that solvers and bots can share the engine's tables.
"""

from __future__ import annotations

import copy
import json
import random
from bisect import bisect_left
from collections import Counter
from collections.abc import Collection, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property, lru_cache
from itertools import combinations, product, repeat
from operator import sub
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from pinsetter.core.dice import DiceRoll, roll_faces
from pinsetter.core.game import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    OptionError,
    OptionSpec,
    ParseError,
    State,
    Step,
    int_in,
    parse_bool,
    parse_int,
    quoted,
)
from pinsetter.core.pins import mask_of, pins_of
from pinsetter.core.scoring import STANDARD
from pinsetter.core.seeds import PLAYER_STREAM
from pinsetter.games.pure_chance import frames_option
from pinsetter.games.registry import register
from pinsetter.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from pinsetter.core.table import TableView

PINS = 10
FULL = (1 << PINS) - 1
TOKEN_LIMIT = 10  # one token per frame 1-10: no player can ever hold more

ABILITIES = ("reroll", "flip", "extra-pin", "extra-dice", "ten-pin", "auto-strike")
# Auto Strike: the frame after the one it is earned in is a strike (RULES.md), or
# the earlier reading, kept as a variant, where the player chooses the frame.
AUTO_STRIKE_RULES = ("next", "held")


@cache
def subsets_by_sum(standing: int) -> dict[int, tuple[int, ...]]:
    """Every non-empty set of standing pins, grouped by the sum of its numbers."""
    groups: dict[int, list[int]] = {}
    sub = standing
    while sub:  # every subset, from the largest mask down
        groups.setdefault(_SUMS[sub], []).append(sub)
        sub = (sub - 1) & standing
    return {total: tuple(reversed(masks)) for total, masks in groups.items()}  # each group in increasing order


def token_range(dice: tuple[int, ...], tokens: int) -> tuple[int, int]:
    """The lowest and highest total the tokens can make of these dice (a die never below 1)."""
    total = sum(dice)
    down = min(tokens, total - len(dice))
    return total - down, total + tokens


# --- the sheet (advanced game data) ----------------------------------------------------


@dataclass(frozen=True)
class Area:
    ability: str
    boxes: int
    lower: bool


@dataclass(frozen=True)
class Sheet:
    """The printed sheet of the advanced game: grey pins per frame and the ability track."""

    grey: tuple[tuple[int, int], ...]
    areas: tuple[Area, ...]
    name: str = "default"

    def __str__(self) -> str:
        return self.name if self.name != "inline" else json.dumps(self.to_json())

    @property
    def upper_boxes(self) -> int:
        return sum(a.boxes for a in self.areas if not a.lower)

    def to_json(self) -> dict[str, Any]:
        return {
            "grey": [list(g) for g in self.grey],
            "areas": [
                {"ability": a.ability, "boxes": a.boxes, "row": "lower" if a.lower else "upper"} for a in self.areas
            ],
        }

    @classmethod
    def parse(cls, text: str) -> Sheet:
        """`default` or the sheet as inline JSON (as records store it); never a file.

        A file is read once by the command line (`--option sheet=FILE`, see
        `pinsetter.core.datafile.resolve_option_files`), so a record that names
        a path is refused instead of opening it.
        """
        text = text.strip()
        if text == "default":
            return DEFAULT_SHEET
        if not text.startswith(("{", "[")):
            raise OptionError(
                _(
                    "expected 'default' or a sheet as inline JSON, got {value}"
                    " (a file is read only from the command line: --option sheet=FILE)"
                ).format(value=quoted(text))
            )
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise OptionError(_("not valid JSON: {error}").format(error=exc)) from None
        return cls.from_json(data, "inline")

    @classmethod
    def from_json(cls, data: Any, name: str) -> Sheet:
        """Check and build a sheet from parsed JSON/TOML; errors name the frame or area."""
        if not isinstance(data, dict):
            raise OptionError(_("a sheet is an object with 'grey' and 'areas'"))
        grey = data.get("grey")
        if not isinstance(grey, list) or len(grey) != 10:
            raise OptionError(_("'grey' needs 10 frames of two grey pins"))
        pairs = []
        for frame, pair in enumerate(grey, start=1):
            ok = isinstance(pair, list) and len(pair) == 2 and all(_is_int(p) and 1 <= p <= PINS for p in pair)
            if not ok or pair[0] == pair[1]:
                message = _("frame {frame}: grey pins must be two different pins 1-10, got {value}")
                raise OptionError(message.format(frame=frame, value=quoted(pair)))
            pairs.append((min(pair), max(pair)))
        raw_areas = data.get("areas")
        if not isinstance(raw_areas, list) or len(raw_areas) != 10:
            raise OptionError(_("'areas' needs 10 areas (five upper, five lower)"))
        areas = []
        for number, area in enumerate(raw_areas, start=1):
            if not isinstance(area, dict):
                raise OptionError(_("area {number}: needs ability, boxes and row").format(number=number))
            ability, boxes, row = area.get("ability"), area.get("boxes"), area.get("row")
            if not isinstance(ability, str) or ability not in ABILITIES:
                message = _("area {number}: ability {value} is not one of {choices}")
                raise OptionError(message.format(number=number, value=quoted(ability), choices=", ".join(ABILITIES)))
            if not _is_int(boxes) or boxes not in (1, 2, 3):
                raise OptionError(
                    _("area {number}: boxes must be 1, 2 or 3, got {value}").format(number=number, value=quoted(boxes))
                )
            if not isinstance(row, str) or row not in ("upper", "lower"):
                raise OptionError(
                    _("area {number}: row must be 'upper' or 'lower', got {value}").format(
                        number=number, value=quoted(row)
                    )
                )
            areas.append(Area(ability, boxes, row == "lower"))
        if sum(1 for a in areas if not a.lower) != 5:
            raise OptionError(_("the track needs five upper and five lower areas"))
        return cls(tuple(pairs), tuple(areas), name)


def _is_int(value: object) -> bool:
    """A JSON whole number: an int, but not a bool (True == 1) nor a float (2.0 == 2)."""
    return type(value) is int


DEFAULT_SHEET = Sheet(
    grey=((7, 10), (4, 6), (8, 9), (2, 3), (7, 9), (8, 10), (4, 5), (5, 6), (1, 5), (7, 10)),
    areas=(
        Area("reroll", 1, False),
        Area("flip", 2, False),
        Area("extra-pin", 2, False),
        Area("extra-dice", 2, False),
        Area("ten-pin", 3, False),
        Area("reroll", 1, True),
        Area("flip", 2, True),
        Area("extra-pin", 2, True),
        Area("extra-dice", 2, True),
        Area("auto-strike", 3, True),
    ),
)


# --- steps ---------------------------------------------------------------------------

KINDS = (
    "auto-strike",
    "cross",
    "dice",
    "extra-dice",
    "extra-pin",
    "flip",
    "keep",
    "mark",
    "miss",
    "pass",
    "reroll",
    "ten-pin",
)


class Action(NamedTuple):
    """A decision. `args` are the pins (cross, extra-pin), dice (keep, flip), a count or an area.

    A named tuple, so comparing and hashing actions (legality checks, memo keys) runs in C;
    actions order by kind, then arguments, then tokens.
    """

    kind: str
    args: tuple[int, ...] = ()
    tokens: int = 0

    def __str__(self) -> str:
        return _action_text(*self)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "args": list(self.args), "tokens": self.tokens}

    @classmethod
    def parse(cls, text: str) -> Action:
        words = text.strip().lower().split()
        if not words or words[0] not in KINDS:
            message = _("{text} is not a Rolling Pins action (e.g. 'dice 2', 'cross 2+5 tokens +1', 'miss')")
            raise ParseError(message.format(text=repr(text)))
        kind, rest = words[0], words[1:]
        try:
            if kind == "cross":
                if not rest:
                    raise ValueError
                pins = tuple(sorted(parse_int(p) for p in rest[0].split("+")))
                tokens = 0
                if len(rest) == 3 and rest[1] == "tokens":
                    tokens = parse_int(rest[2])
                elif len(rest) != 1:
                    raise ValueError
                _check_pins(text, pins)
                return cls(kind, pins, tokens)
            if kind == "keep":
                if len(rest) != 1:
                    raise ValueError
                return cls(kind, tuple(sorted(parse_int(d) for d in rest[0].split("+"))))
            if kind in ("dice", "flip", "extra-pin", "mark"):
                if len(rest) != 1:
                    raise ValueError
                if kind == "extra-pin":
                    _check_pins(text, (parse_int(rest[0]),))
                return cls(kind, (parse_int(rest[0]),))
            if rest:
                raise ValueError
            return cls(kind)
        except ParseError:
            raise  # it says which pin is wrong
        except ValueError:
            raise ParseError(
                _("{text}: cannot read the arguments of {kind}").format(text=repr(text), kind=repr(kind))
            ) from None


def _check_pins(text: str, pins: tuple[int, ...]) -> None:
    """Pins as typed name each of the ten pins at most once: a ParseError saying which pin is wrong."""
    wrong = next((p for p in pins if not 1 <= p <= PINS), None)
    if wrong is not None:
        raise ParseError(_("{text}: there is no pin {pin}; the pins are 1 to 10").format(text=repr(text), pin=wrong))
    twice = next((p for p in pins if pins.count(p) > 1), None)
    if twice is not None:
        raise ParseError(_("{text}: pin {pin} is named twice").format(text=repr(text), pin=twice))


@lru_cache(maxsize=1 << 16)
def _action_text(kind: str, args: tuple[int, ...], tokens: int) -> str:
    """An action's text form (every step of a record is written out: the texts are kept)."""
    if kind == "cross":
        text = "cross " + "+".join(str(p) for p in args)
        return text + (f" tokens {tokens:+d}" if tokens else "")
    if kind == "keep":
        return "keep " + "+".join(str(d) for d in args)
    if args:
        return f"{kind} {args[0]}"
    return kind


Roll = DiceRoll  # the dice of one roll, die by die (one to three dice)


@cache
def _rolls(count: int) -> list[tuple[Step, Fraction]]:
    p = Fraction(1, 6**count)
    return [(_ROLL_OF[faces], p) for faces in product(range(1, 7), repeat=count)]


@cache
def _unordered_rolls(count: int) -> tuple[tuple[Step, Fraction], ...]:
    """Every roll of `count` dice up to order: its sorted faces, with the chance of any order."""
    ways = Counter(tuple(sorted(faces)) for faces in product(range(1, 7), repeat=count))
    return tuple((_ROLL_OF[faces], Fraction(n, 6**count)) for faces, n in sorted(ways.items()))


@cache
def _roll_set(count: int) -> frozenset[Step]:
    return frozenset(outcome for outcome, _ in _rolls(count))


# Every roll of one to three dice once, by its faces (rolls are values).
_ROLL_OF = {faces: Roll(faces) for count in (1, 2, 3) for faces in product(range(1, 7), repeat=count)}


@lru_cache(maxsize=1 << 16)
def _crosses(standing: int, low: int, high: int, roll: int) -> tuple[Action, ...]:
    """Every cross of standing pins summing to `low`..`high`, answering a roll of `roll` (in action order)."""
    by_sum = subsets_by_sum(standing)
    masks = [mask for total in range(low, high + 1) for mask in by_sum.get(total, ())]
    masks.sort(key=_PINS_RANK.__getitem__)  # crosses differ in their pins: the pins order them
    return tuple(map(_cross, masks, map(sub, map(_SUMS.__getitem__, masks), repeat(roll))))  # _cross(mask, sum - roll)


_SUMS = tuple(sum(pins_of(mask)) for mask in range(1 << PINS))


def _pins_ranks() -> tuple[int, ...]:
    """Each set of pins' place in the order of their lists of pins (`pins_of`), to sort masks by it in C."""
    ranks = [0] * (1 << PINS)
    for place, mask in enumerate(sorted(range(1 << PINS), key=pins_of)):
        ranks[mask] = place
    return tuple(ranks)


_PINS_RANK = _pins_ranks()


@lru_cache(maxsize=4096)
def _pins_mask(pins: tuple[int, ...]) -> int:
    """`mask_of` a cross's pins, kept (every cross is checked, then applied)."""
    return mask_of(pins)


@cache
def _cross(mask: int, tokens: int) -> Action:
    """Each cross once (actions are values)."""
    return Action("cross", pins_of(mask), tokens)


# Actions every basic game lists (actions are values: one instance of each will do).
_ONE_DIE, _TWO_DICE, _MISS = Action("dice", (1,)), Action("dice", (2,)), Action("miss")

# Legal actions kept per rules (see `RollingPins.actions_memo`), each memo cleared when full.
_ACTIONS_MEMOS: dict[Hashable, dict[Hashable, tuple[Action, ...]]] = {}
ACTIONS_MEMO_LIMIT = 100_000


# --- the per-player sheet state ----------------------------------------------------------

# Phases of a player's ball.
CHOOSE = "choose"  # before a roll: choose one or two dice (or use an ability)
ROLLING = "rolling"  # the dice are in the air: chance acts
ROLLED = "rolled"  # after a roll: reroll/flip/keep, then cross or miss
EXTRA_PIN = "extra-pin"  # after a miss, while holding Extra Pin: use it or pass


@dataclass
class Player:
    tokens: int = 0
    standing: int = FULL
    crossed: int = 0  # pins crossed in the current ball
    rolls_on_rack: int = 0  # rolls made on this rack (Ten Pin / Auto Strike need 0)
    phase: str = CHOOSE
    dice_count: int = 2  # dice chosen for the current roll
    dice: tuple[int, ...] = ()
    kept: bool = True  # Extra Dice: the kept dice have been chosen
    flipped: bool = False  # a Flip was used on this roll (Reroll must come first)
    bonus_rack: bool = False  # the rack is one of the bonus frames (no grey pins)
    # Advanced game.
    marks: list[int] = field(default_factory=list)  # marked boxes per area
    held: dict[str, int] = field(default_factory=dict)  # one-use abilities held
    ten_pin: bool = False
    extra_dice: bool = False  # active for the rest of the current ball
    pending_marks: int = 0
    private_roll: bool = False  # shared dice: this player's own reroll is in the air

    def key(self) -> Hashable:
        return (
            self.tokens,
            self.standing,
            self.crossed,
            self.rolls_on_rack,
            self.phase,
            self.dice_count,
            self.dice,
            self.kept,
            self.flipped,
            self.bonus_rack,
            tuple(self.marks),
            tuple(sorted(self.held.items())),
            self.ten_pin,
            self.extra_dice,
            self.pending_marks,
            self.private_roll,
        )


# The rules for players (core/rules_text.py's format; `Game.rules` fills the braces, `rules` adds
# `{ranks}` and `{track}`).
RULES_TEXT = N_("""\
{name} is a roll-and-write bowling game for {players}: you roll dice and
cross out pins on your own sheet, and every choice is yours.

# What you need
A game sheet for each player, three six-sided dice and a pen. The pins on the
sheet are numbered 1 to 10: pin 1 at the front, then 2 and 3, then 4, 5 and
6, and 7, 8, 9 and 10 at the back.

# How a frame goes
A game has ten frames of two balls each. A ball is a run of rolls:
- Choose to roll one die or two, and roll.
- Cross out standing pins whose numbers add up to exactly the roll, then roll
  again. A 7 can cross out pin 7, or pins 2 and 5, or pins 3 and 4, or pins
  1, 2 and 4.
- When no standing pins add up to the roll, it is a miss and the ball ends.
  You may also miss on purpose after any roll, to keep pins for the second
  ball.
- Crossing out the last standing pin ends the ball at once.
Two dice make at least 2, so pin 1 alone needs a roll of one die.

The second ball plays the same way on the pins the first ball left, until a
miss. Crossing out all ten pins in the first ball is a strike; all ten by the
end of the second ball is a spare. Each ball counts the pins it crossed out.

# Bowling-ball tokens
At the start of each frame you gain a token, a bowling ball on the sheet.
Tokens you do not use are kept for later frames, as many as you like. After a
roll, before crossing out, you may spend tokens: each one moves one die up or
down by 1, and a die never goes below 1. With three tokens, a roll of 7 can
become a 10.

# The 10th frame
A strike or a spare in the 10th frame is completed on the sheet's two bonus
frames, each starting with all ten pins: a strike earns two bonus balls, a
spare one. Bonus frames give no token and have no grey pins, but you may
still spend the tokens you hold.

{scoring}

# Ranks
In a game of ten frames, your total gives your rank:
{ranks}

# Several players
Each player plays their own game on their own sheet, and the highest total
wins. Players take their frames in turn, each with their own rolls.

With "{shared_dice}" on, everybody plays the same frame together: one roll
serves every player still in it, and each answers it on their own sheet. The
roll uses two dice, one of them coloured: a player who chose one die uses
only the coloured die, the others use both. A third die serves a player using
Extra Dice.

# The advanced game
Turning on "{advanced}" adds grey pins and an ability track. Each frame has
two grey pins printed on the sheet. Mark one box on the ability track for every
strike, and for every grey pin you cross out after the first ball of its
frame has ended; grey pins crossed out in the first ball mark nothing.

The track has ten areas of one to three boxes, each tied to an ability, and
you choose which open box to mark. The lower row opens only once every box of
the upper row is marked. Completing an area gives you its ability at once.
Each ability is used once, except Ten Pin, which lasts for the rest of the
game:
- Ten Pin: from then on, when the first roll of a frame is made with two dice
  and both show 5, the frame is a strike at once. Tokens, Reroll and Flip may
  help make the two fives.
- Reroll: roll all the dice of the current roll again.
- Flip: turn one die of the current roll to its opposite face: 1 and 6, 2
  and 5, 3 and 4 are opposite.
- Extra Dice: for the rest of the current ball, roll one die more than you
  chose and keep as many as you chose: roll three and keep two, or roll two
  and keep one.
- Extra Pin: right after a miss, cross out any one standing pin. It counts
  for the ball that just ended, and may complete a strike or a spare.
- Auto Strike: the next frame is a strike at once, with no roll; you still
  gain its token. The option "{auto_strike}" can let you keep it instead, for
  a frame of your choice.
A strike from Ten Pin or Auto Strike marks a box like any other strike.

After a roll, things happen in this order: Reroll, Flip, choosing the dice to
keep, tokens, Ten Pin, and last crossing out or missing.

# The ability track
{track}

"{sheet}" chooses another sheet you have added, with other grey pins and
another track.

# Other options
- "{tokens}": turned off, nobody gains bowling-ball tokens.
{frames_option}
- "{pins}": a practice game of the basic rules with fewer pins, numbered from
  1.
""")


@register
class RollingPins(Game):
    id = "rolling-pins"
    name = N_("Rolling Pins")
    summary = N_("Roll and write: cross out pins that sum to your roll; tokens, grey pins, abilities.")
    rules_text = RULES_TEXT
    has_decisions = True
    max_players = 12  # RULES.md: 1 to 12, as the online edition
    option_specs = (
        OptionSpec(
            "advanced",
            False,
            N_("grey pins, an ability track and the abilities it gives"),
            parse=parse_bool,
            label=N_("Advanced game"),
        ),
        OptionSpec(
            "sheet",
            DEFAULT_SHEET,
            N_("the advanced game's sheet (its grey pins and ability track): the usual one, or one you have added"),
            parse=Sheet.parse,
            reads_file=True,
            label=N_("Advanced sheet"),
        ),
        OptionSpec(
            "auto_strike",
            "next",
            N_("when you earn Auto Strike: the next frame is a strike at once, or you keep it for a frame you choose"),
            choices=AUTO_STRIKE_RULES,
            label=N_("Auto Strike"),
        ),
        OptionSpec(
            "shared_dice",
            False,
            N_("several players: one roll serves everybody (a coloured die, a white one, and a third for Extra Dice)"),
            parse=parse_bool,
            label=N_("Shared dice"),
        ),
        OptionSpec(
            "tokens",
            True,
            N_("gain a bowling-ball token each frame, to move a die up or down by one"),
            parse=parse_bool,
            label=N_("Tokens"),
        ),
        frames_option(),
        OptionSpec(
            "pins",
            10,
            N_("pins in a rack, 1 to 10 (fewer: a practice game, basic rules)"),
            parse=int_in(1, 10),
            label=N_("Pins in a rack"),
        ),
    )
    conformance_options: ClassVar[tuple[dict[str, object], ...]] = (
        {},
        {"advanced": "true"},
        {"advanced": "true", "auto_strike": "held"},
        {"frames": "2", "tokens": "false"},
        {"frames": "2", "pins": "4"},
        {"shared_dice": "true", "advanced": "true"},
    )

    def __init__(self, options: Mapping[str, object] | None = None) -> None:
        super().__init__(options)
        if self.advanced and self.lane.pins != PINS:
            raise OptionError(_("option pins: the advanced game is played with 10 pins"))
        self.full = (1 << self.lane.pins) - 1
        self.shared_dice = bool(self.options["shared_dice"])
        # Legal actions by player sheet, shared by the games with the rules `_actions` reads.
        rules = (self.advanced, self.auto_strike_held, self.full, self.sheet)
        self.actions_memo: dict[Hashable, tuple[Action, ...]] = _ACTIONS_MEMOS.setdefault(rules, {})

    @cached_property
    def advanced(self) -> bool:
        """Kept once read (the options of a game are fixed): legal actions ask at every decision."""
        return bool(self.options["advanced"])

    def options_in_play(self) -> dict[str, object]:
        """The sheet and Auto Strike's rule are the advanced game's: a basic game does not depend on them."""
        played = self.options_text()
        if not self.advanced:
            del played["sheet"], played["auto_strike"]
        return played

    @property
    def simultaneous(self) -> bool:
        return bool(self.options["shared_dice"])

    @cached_property
    def auto_strike_held(self) -> bool:
        """The variant where Auto Strike is kept until the player chooses to use it."""
        return self.options["auto_strike"] == "held"

    @cached_property
    def sheet(self) -> Sheet:
        sheet = self.options["sheet"]
        assert isinstance(sheet, Sheet)
        return sheet

    def new_state(self, players: int = 1) -> RollingPinsState:
        return RollingPinsState(self, players)

    def parse_action(self, text: str) -> Step:
        return Action.parse(text)

    def parse_outcome(self, text: str) -> Step:
        return DiceRoll.parse(text, most=3)

    def rules(self) -> str:
        """The rules for players, with the solo ranks and this sheet's ability track written out."""
        from pinsetter.games.rolling_pins_table import ability_title

        def row(lower: bool) -> list[str]:
            return [
                "- "
                + _("{ability}: {boxes}").format(
                    ability=ability_title(a.ability),
                    boxes=ngettext("{n} box", "{n} boxes", a.boxes).format(n=a.boxes),
                )
                for a in self.sheet.areas
                if a.lower == lower
            ]

        track = [_("Upper row:"), *row(False), _("Lower row, open once the upper row is full:"), *row(True)]
        text = _(RULES_TEXT).replace("{ranks}", "\n".join(self.rank_lines())).replace("{track}", "\n".join(track))
        return self.fill_rules(text)

    @classmethod
    def rank_lines(cls) -> list[str]:
        """The solo ranks as list lines of the rules, read off `ranking` itself so they are written once."""
        bands: list[tuple[int, int, str]] = []
        for score in range(STANDARD.max_score + 1):
            rank = cls.ranking(score)
            if bands and bands[-1][2] == rank:
                bands[-1] = (bands[-1][0], score, rank)
            else:
                bands.append((score, score, rank))
        lines = []
        for index, (low, high, rank) in enumerate(bands):
            if index == 0:
                band = _("{high} or less").format(high=high)
            elif index == len(bands) - 1:
                band = _("{low} or more").format(low=low)
            else:
                band = _("{low} to {high}").format(low=low, high=high)
            lines.append("- " + _("{band}: {rank}").format(band=band, rank=rank))
        return lines

    @staticmethod
    def ranking(score: int) -> str:
        """The solo ranking printed on the sheet (the seed's ピンヘッド, 初級, 中級, 上級, マスター)."""
        if score <= 99:
            return _("Pinhead")
        if score <= 134:
            return _("Beginner")
        if score <= 169:
            return _("Intermediate")
        if score <= 199:
            return _("Advanced")
        return _("Master")

    def rank(self, score: int) -> str | None:
        """The sheet's rank for this game's score, or None: the ranks are set for a whole game
        (10 frames of 10 pins), so a shorter game or a smaller rack has none (15 is no Pinhead's score)."""
        if self.lane != STANDARD:
            return None
        return self.ranking(score)

    def table(self, state: State, names: Sequence[str] | None = None, last_chance: str = "") -> TableView:
        from pinsetter.games.rolling_pins_table import rolling_pins_table

        return rolling_pins_table(state, list(names) if names else None, last_chance)

    def board(
        self,
        state: State,
        player: int,
        names: Sequence[str] | None = None,
        last_chance: str = "",
        drawn: TableView | None = None,
    ) -> TableView:
        """Every player's own sheet: pins, tokens and ability track, public as on paper.

        Drawn without working out the player's choices (a board offers none): with a dozen
        players deciding a shared roll, their choices' labels cost more than the rest (so
        `drawn`, a table with its choices, is not used).
        """
        from pinsetter.games.rolling_pins_table import rolling_pins_table

        listed = list(names) if names else None
        if state.is_up(player):
            return rolling_pins_table(state.seen_by(player), listed, last_chance, seat=player).as_board(player)
        return self._waiting_sheet(state, player, listed, self.waiting_status(state, player, names))

    def board_data(
        self, state: State, player: int, names: Sequence[str] | None, last_chance: str, table: dict[str, Any]
    ) -> dict[str, Any] | None:
        """The board of the player up made from their table's data (`Game.board_data`); None for any other board.

        Their board is their table drawn without its choices (`board`): the same but that the track
        offers no action and the dice, if any, are said to be their last roll.
        """
        from pinsetter.core.table import as_board_data
        from pinsetter.games.rolling_pins_table import up_board_data

        if state.is_terminal() or player != state.turn() or state.seen_by(player) is not state:
            return None
        return up_board_data(as_board_data(table, player), player, list(names) if names else None)

    def _waiting_sheet(self, state: State, player: int, names: list[str] | None, status: str) -> TableView:
        """A waiting player's board, drawn again only when what it shows changed (one shared, frozen view).

        It shows only their own sheet (no choices, no dice of the roll being decided) and their
        status: with a dozen players every step drew eleven unchanged sheets, most of a 12-seat
        table's step (docs/tables.md, Load). The key is all that the drawing reads; one board is
        kept per player and language (a sheet once changed never comes back).
        """
        from pinsetter.games.rolling_pins_table import rolling_pins_table
        from pinsetter.i18n import current_language

        assert isinstance(state, RollingPinsState)
        language = current_language()
        key = (
            state.players[player].key(),
            tuple(state.pinfalls[player]),
            state.ball_context(player),
            state.is_terminal(),
            None if names is None else tuple(names),
            status,
        )
        kept = self._waiting_sheets.get((player, language))
        if kept is not None and kept[0] == key:
            return kept[1]
        sheet = rolling_pins_table(state, names, seat=player).as_board(player, status)
        self._waiting_sheets[(player, language)] = (key, sheet)
        return sheet

    @cached_property
    def _waiting_sheets(self) -> dict[tuple[int, str], tuple[Hashable, TableView]]:
        """(player, language) -> the key and the board `_waiting_sheet` drew last."""
        return {}

    def step_words(self, before: State, step: str, after: State, names: Sequence[str], actor: int | None) -> str:
        from pinsetter.games.rolling_pins_table import step_sentence

        return step_sentence(before, step, names, actor)

    def action_words(self, state: State, action: str) -> str:
        from pinsetter.games.rolling_pins_table import action_label

        return action_label(state, action)

    def selection_action(self, state: State, pins: frozenset[int], pile: int | None) -> str:
        from pinsetter.games.rolling_pins_table import selection_action

        return selection_action(state, pins, pile)

    # --- for toolkits (pinsetter.integrations): see rolling_pins_spaces ---------------------
    def action_space(self) -> Iterator[Step]:
        from pinsetter.games.rolling_pins_spaces import action_space

        return action_space(self)

    def chance_space(self) -> Iterator[Step]:
        from pinsetter.games.rolling_pins_spaces import chance_space

        return chance_space(self)

    def max_decisions(self, players: int) -> int:
        from pinsetter.games.rolling_pins_spaces import max_decisions

        return max_decisions(self, players)

    def max_chance_steps(self, players: int) -> int:
        """Every roll answers a decision (`dice` or `reroll`), so the bound on decisions bounds the rolls."""
        return self.max_decisions(players)

    def observation_features(self, view: dict[str, Any]) -> Iterator[tuple[str, float]]:
        from pinsetter.games.rolling_pins_spaces import observation_features

        return observation_features(self, view)

    def observation_values(self, state: State, player: int) -> list[float]:
        from pinsetter.games.rolling_pins_spaces import observation_values

        return observation_values(self, state.view(player))


class RollingPinsState(State):
    game: RollingPins

    def __init__(self, game: RollingPins, players: int) -> None:
        super().__init__(game, players)
        self.shared = game.shared_dice  # asked at every turn
        # No marks to make (the basic game) and no shared roll: whole frames in turn, as `State.turn`.
        self._frames_in_turn = not game.advanced and not game.shared_dice
        self.players = [Player() for _ in range(players)]
        for player in self.players:
            player.marks = [0] * len(game.sheet.areas)
            self._start_frame(player)

    def clone(self) -> RollingPinsState:
        new = copy.copy(self)
        new.pinfalls = [list(p) for p in self.pinfalls]
        new._contexts = list(self._contexts)
        new.players = []
        for p in self.players:
            # `copy.copy(p)` without the copy protocol's detour (a state is cloned per step and player).
            q = object.__new__(Player)
            q.__dict__.update(p.__dict__)
            q.marks = list(p.marks)
            q.held = dict(p.held)
            new.players.append(q)
        return new

    # --- turn structure -----------------------------------------------------------
    _forced: int | None = None  # shared dice: the decider whose answer is being applied (as_decider)

    def turn(self) -> int:
        if self._forced is not None:
            return self._forced
        if self._frames_in_turn:
            return self._turn if self._turn is not None else State.turn(self)
        if self.shared:  # a player's own reroll is in the air: it lands at once, whoever else decides
            for index, player in enumerate(self.players):
                if player.private_roll:
                    return index
        for index, player in enumerate(self.players):
            if player.pending_marks:
                return index
        if not self.shared:
            return State.turn(self)
        in_play = self._in_play()
        if not in_play:
            return TERMINAL
        # Answers to the roll, then choices for the next roll (in seat order when asked in turn).
        for phases in ((ROLLED, EXTRA_PIN), (CHOOSE,)):
            for index in in_play:
                if self.players[index].phase in phases:
                    return index
        return in_play[0]

    def _in_play(self) -> list[int]:
        """Shared dice: the players still playing the earliest unfinished frame."""
        frames = [ctx.frame if (ctx := self.ball_context(i)) else None for i in range(self.num_players)]
        live = [f for f in frames if f is not None]
        if not live:
            return []
        return [i for i, f in enumerate(frames) if f == min(live)]

    # --- simultaneous decisions (shared dice) -----------------------------------------
    def deciders(self) -> list[int]:
        """Shared dice: everyone with an answer pending before the next shared roll (marks included)."""
        if not self.shared or self._forced is not None:
            return super().deciders()
        if self.is_terminal() or self.is_chance_node():
            return []
        in_play = self._in_play()
        return [i for i, p in enumerate(self.players) if p.pending_marks or (i in in_play and p.phase != ROLLING)]

    def as_decider(self, player: int) -> RollingPinsState:
        if player not in self.deciders():
            raise IllegalActionError(_("player {n} has no decision to make now").format(n=player + 1))
        new = self.clone()
        new._forced = player
        return new

    def seen_by(self, player: int) -> RollingPinsState:
        if not self.shared or self.is_terminal():
            return self
        new = self.clone()
        new._forced = player
        return new

    def _apply_for(self, player: int, step: Step) -> None:
        # Each answer touches only the player's own sheet, so it may come before the others'.
        self._forced = player
        try:
            self.apply(step)
        finally:
            self._forced = None

    def chance_key(self, index: int) -> tuple[int, int]:
        """A Reroll with shared dice is the player's own: their n-th such roll is draw n of their stream."""
        if self.shared and self._forced is None and not self.is_terminal():
            me, player = self._me()
            if player.private_roll:
                areas = self.game.sheet.areas
                earned = sum(1 for i, a in enumerate(areas) if a.ability == "reroll" and player.marks[i] == a.boxes)
                return earned - player.held.get("reroll", 0) - 1, PLAYER_STREAM + me
        return super().chance_key(index)

    def _me(self) -> tuple[int, Player]:
        index = self.turn()
        return index, self.players[index]

    def is_chance_node(self) -> bool:
        index = self.turn()
        return index != TERMINAL and self._rolling(index)

    def _rolling(self, index: int) -> bool:
        """The dice of player `index`, whose turn it is, are in the air: chance acts."""
        player = self.players[index]
        return player.phase == ROLLING and not player.pending_marks

    def current_player(self) -> int:
        index = self.turn()  # `State.current_player`, asking for the turn once
        return index if index == TERMINAL or not self._rolling(index) else CHANCE

    def _roll_size(self) -> int:
        """Dice in the air: the player's own, or the shared coloured, white and third die."""
        return self._roll_size_of(self.turn())

    def _roll_size_of(self, index: int) -> int:
        player = self.players[index]
        if self.shared and not player.private_roll:
            return 3
        return self._dice_rolled(player)

    def chance_outcomes(self) -> list[tuple[Step, Fraction]]:
        if not self.is_chance_node():
            return []
        return _rolls(self._roll_size())

    def chance_classes(self) -> list[tuple[Step, Fraction]]:
        """Rolls up to the order of their dice: a player's own dice are interchangeable.

        Flip and keep name dice by place, alike for every place, so a roll and its permutations
        lead to positions of equal value (21 classes for two dice, 56 for three). The coloured
        and white dice of a shared roll are not interchangeable (a one-die player takes the
        coloured one): that roll stays ordered.
        """
        if not self.is_chance_node():
            return []
        index = self.turn()
        if self.shared and not self.players[index].private_roll:
            return self.chance_outcomes()
        return list(_unordered_rolls(self._roll_size()))

    def possible_outcomes(self) -> Collection[Step]:
        if not self.is_chance_node():
            return ()
        return _roll_set(self._roll_size())

    def sample_chance(self, rng: random.Random) -> Step:
        return _ROLL_OF[roll_faces(rng, self._roll_size())]

    @staticmethod
    def _shared_faces(player: Player, faces: tuple[int, ...]) -> tuple[int, ...]:
        """What a shared roll (coloured, white, third) gives a player: one die is the coloured one."""
        coloured, white, third = faces
        mine = (coloured,) if player.dice_count == 1 else (coloured, white)
        return (*mine, third) if player.extra_dice else mine

    @staticmethod
    def _dice_rolled(player: Player) -> int:
        return player.dice_count + (1 if player.extra_dice else 0)

    # --- legal actions --------------------------------------------------------------
    def legal_actions(self) -> list[Step]:
        index = self.turn()
        if index == TERMINAL:
            return []
        player = self.players[index]
        if player.phase == ROLLING and not player.pending_marks:
            return []  # the dice are in the air
        actions: list[Step] = list(self._sorted_actions(player))
        return actions

    def _sorted_actions(self, player: Player) -> tuple[Action, ...]:
        """`_actions` in order, kept per rules and `_actions_key` (simulations meet the same sheets often)."""
        memo = self.game.actions_memo
        key = self._actions_key(player)
        found = memo.get(key)
        if found is None:
            if len(memo) >= ACTIONS_MEMO_LIMIT:
                memo.clear()
            found = memo[key] = self._in_order(player)
        return found

    def _in_order(self, player: Player) -> tuple[Action, ...]:
        """`_actions` sorted. The crosses come in order and share one kind: only the others are
        sorted, and the crosses go in as one block, where their kind sorts among the others'."""
        others, crosses = self._options(player)
        others.sort()
        if not crosses:
            return tuple(others)
        at = bisect_left(others, crosses[0])
        return (*others[:at], *crosses, *others[at:])

    def _actions_key(self, player: Player) -> Hashable:
        """Everything of the player's sheet that `_actions` reads (keep the two together).

        The advanced game reads much of the sheet: all of it (`Player.key`). The basic game reads
        the phase, the standing pins, the tokens, the roll's number of dice and total (the token
        range and the crosses depend on nothing else), whether the dice are kept and how many
        are chosen, and the pending marks; before a roll (one die or two, whatever the sheet)
        only the phase and the pending marks.
        """
        if self.game.advanced:
            return player.key()
        if player.phase == CHOOSE:
            return player.pending_marks, CHOOSE
        dice = player.dice
        return (
            player.pending_marks,
            player.phase,
            player.standing,
            player.tokens,
            len(dice),
            sum(dice),
            player.kept,
            player.dice_count,
        )

    def _actions(self, player: Player) -> Iterator[Action]:
        """Every legal action of the player to move (`_sorted_actions` puts them in order)."""
        others, crosses = self._options(player)
        yield from others
        yield from crosses

    def _options(self, player: Player) -> tuple[list[Action], tuple[Action, ...]]:
        """The legal actions: the others, and apart from them the crosses, in order (`_crosses`)."""
        advanced = self.game.advanced
        if player.pending_marks:
            return [Action("mark", (area + 1,)) for area in self._open_areas(player)], ()
        if player.phase == CHOOSE:
            auto_strike = advanced and player.held.get("auto-strike") and self._first_roll_of_rack(player)
            if auto_strike and not self.game.auto_strike_held:
                return [Action("auto-strike")], ()  # earned in the frame before: this frame is a strike
            others = [_ONE_DIE, _TWO_DICE]
            if advanced and player.held.get("extra-dice") and not player.extra_dice:
                others.append(Action("extra-dice"))
            if auto_strike:
                others.append(Action("auto-strike"))
            return others, ()
        if player.phase == EXTRA_PIN:
            return [Action("pass"), *(Action("extra-pin", (pin,)) for pin in pins_of(player.standing))], ()
        # ROLLED: reroll, then flip, then keep (Extra Dice), then tokens and the cross.
        others = []
        before_keep = not (player.extra_dice and player.kept)
        if advanced and player.held.get("reroll") and not player.flipped and before_keep:
            others.append(Action("reroll"))
        if advanced and player.held.get("flip") and before_keep:
            others.extend(Action("flip", (die,)) for die in range(1, len(player.dice) + 1))
        if not player.kept:
            dice = range(1, len(player.dice) + 1)
            others.extend(Action("keep", kept) for kept in combinations(dice, player.dice_count))
            return others, ()
        if self._ten_pin_cost(player) is not None:
            others.append(Action("ten-pin"))
            if sorted(player.dice) == [5, 5]:
                return others, ()  # both dice show five: the strike is immediate
        others.append(_MISS)
        low, high = token_range(player.dice, player.tokens)
        return others, _crosses(player.standing, low, high, sum(player.dice))

    def _first_roll_of_rack(self, player: Player) -> bool:
        return player.standing == self.game.full and player.rolls_on_rack == 0 and player.crossed == 0

    def _ten_pin_cost(self, player: Player) -> int | None:
        """Tokens needed to turn this first roll of a rack into double five, if Ten Pin applies."""
        if not (self.game.advanced and player.ten_pin and player.kept and len(player.dice) == 2):
            return None
        if not (player.rolls_on_rack == 1 and player.standing == self.game.full):
            return None
        cost = sum(abs(d - 5) for d in player.dice)
        return cost if cost <= player.tokens else None

    def _open_areas(self, player: Player) -> list[int]:
        areas = self.game.sheet.areas
        upper_full = all(player.marks[i] == a.boxes for i, a in enumerate(areas) if not a.lower)
        return [i for i, a in enumerate(areas) if player.marks[i] < a.boxes and (upper_full or not a.lower)]

    def is_legal(self, action: Action, player: Player) -> bool:
        if action.kind == "cross" and not player.pending_marks and player.phase == ROLLED and player.kept:
            mask = _pins_mask(action.args)
            if not action.args or mask & ~player.standing:
                return False
            if self._ten_pin_cost(player) is not None and sorted(player.dice) == [5, 5]:
                return False
            low, high = token_range(player.dice, player.tokens)
            total = sum(action.args)
            return low <= total <= high and action.tokens == total - sum(player.dice)
        return action.kind != "cross" and action in self._sorted_actions(player)  # crosses: only as above

    def apply(self, step: Step) -> None:
        # Cross actions are checked directly (listing every set would be slow).
        index = self.turn()
        if isinstance(step, Action):
            if index != TERMINAL and not self._rolling(index):
                player = self.players[index]
                if not self.is_legal(step, player):
                    why = self._why_not(step, player)
                    message = _("{step} is not legal here: {reason}") if why else _("{step} is not legal here")
                    raise IllegalActionError(message.format(step=step, reason=why), reason=why)
                self._apply_at(index, step)
                return
        elif index != TERMINAL and self._rolling(index) and step in _roll_set(self._roll_size_of(index)):
            self._apply_at(index, step)  # a possible roll (`possible_outcomes`, with the turn looked up once)
            return
        super().apply(step)  # the generic checks, and their errors

    def _why_not(self, action: Action, player: Player) -> str:
        """Why a well-formed action is not legal, where the game can say more than what the moment is for."""
        if action.kind == "mark" and player.pending_marks:
            return self._why_not_mark(action.args[0], player)
        if action.kind == "extra-pin" and player.phase == EXTRA_PIN and not mask_of(action.args) & player.standing:
            return _("pin {pin} is already crossed out").format(pin=action.args[0])
        if action.kind != "cross" or player.phase != ROLLED:
            return ""
        if mask_of(action.args) & ~player.standing:
            down = sorted(set(action.args) - set(pins_of(player.standing)))
            return _("pin {pin} is already crossed out").format(pin=down[0])
        total, roll = sum(action.args), sum(player.dice)
        low, high = token_range(player.dice, player.tokens)
        if not low <= total <= high:
            return ngettext(
                "the pins sum to {total}, the roll makes {low} to {high} with {tokens} token",
                "the pins sum to {total}, the roll makes {low} to {high} with {tokens} tokens",
                player.tokens,
            ).format(total=total, low=low, high=high, tokens=player.tokens)
        meant = str(Action("cross", action.args, total - roll))  # what to type instead
        if total == roll:
            return _("the pins sum to the roll, {roll}: no token is needed ({action})").format(roll=roll, action=meant)
        return ngettext(
            "crossing {total} on a roll of {roll} takes {count} token ({action})",
            "crossing {total} on a roll of {roll} takes {count} tokens ({action})",
            abs(total - roll),
        ).format(total=total, roll=roll, count=abs(total - roll), action=meant)

    def _why_not_mark(self, area: int, player: Player) -> str:
        """Why a box cannot be marked in area `area` (1-based) of the ability track."""
        areas = self.game.sheet.areas
        if not 1 <= area <= len(areas):
            return _("the ability track has areas 1 to {count}").format(count=len(areas))
        if player.marks[area - 1] >= areas[area - 1].boxes:
            return _("every box of that area is marked already")
        if areas[area - 1].lower:
            return _("the lower row opens once every box of the upper row is marked")
        return ""

    # --- applying -------------------------------------------------------------------
    def _apply(self, step: Step) -> None:
        self._apply_at(self.turn(), step)

    def _apply_at(self, index: int, step: Step) -> None:
        """`_apply`, the player to move (`index`) already known."""
        player = self.players[index]
        if isinstance(step, Roll):
            if self.shared and not player.private_roll:
                for other in self._in_play():
                    if self.players[other].phase == ROLLING:
                        self._receive(self.players[other], self._shared_faces(self.players[other], step.faces))
            else:
                self._receive(player, step.faces)
            return
        assert isinstance(step, Action)
        kind = step.kind
        if kind == "cross":  # the most frequent decisions first
            player.tokens -= abs(step.tokens)
            self._cross(player, _pins_mask(step.args), index)
            if player.standing == 0:
                self._end_ball(index, player)
            else:
                player.phase = CHOOSE
        elif kind == "mark":
            self._mark(player, step.args[0] - 1)
        elif kind == "dice":
            player.dice_count = step.args[0]
            player.phase = ROLLING
        elif kind == "extra-dice":
            self._use(player, "extra-dice")
            player.extra_dice = True
        elif kind == "auto-strike":
            self._use(player, "auto-strike")
            player.crossed += bin(player.standing).count("1")
            player.standing = 0
            self._end_ball(index, player)
        elif kind == "reroll":
            self._use(player, "reroll")
            player.phase = ROLLING
            player.private_roll = True  # with shared dice, a reroll is the player's own
            player.rolls_on_rack -= 1  # the reroll replaces the roll
        elif kind == "flip":
            self._use(player, "flip")
            dice = list(player.dice)
            dice[step.args[0] - 1] = 7 - dice[step.args[0] - 1]
            player.dice = tuple(dice)
            player.flipped = True
        elif kind == "keep":
            player.dice = tuple(player.dice[d - 1] for d in step.args)
            player.kept = True
        elif kind == "ten-pin":
            cost = self._ten_pin_cost(player)
            assert cost is not None
            player.tokens -= cost
            player.crossed += bin(player.standing).count("1")
            player.standing = 0
            self._end_ball(index, player)
        elif kind == "miss":
            if self.game.advanced and player.held.get("extra-pin") and player.standing:
                player.phase = EXTRA_PIN
            else:
                self._end_ball(index, player)
        elif kind == "extra-pin":
            self._use(player, "extra-pin")
            self._cross(player, mask_of(step.args), index, after_ball=True)
            self._end_ball(index, player)
        elif kind == "pass":
            self._end_ball(index, player)

    @staticmethod
    def _receive(player: Player, faces: tuple[int, ...]) -> None:
        player.dice = faces
        player.phase = ROLLED
        player.kept = not player.extra_dice
        player.flipped = False
        player.private_roll = False
        player.rolls_on_rack += 1

    def _use(self, player: Player, ability: str) -> None:
        player.held[ability] -= 1
        if not player.held[ability]:
            del player.held[ability]

    def _cross(self, player: Player, mask: int, index: int, after_ball: bool = False) -> None:
        player.standing &= ~mask
        player.crossed += bin(mask).count("1")
        if not self.game.advanced or player.bonus_rack:
            return
        ctx = self.ball_context(index)
        assert ctx is not None
        if ctx.ball >= 2 or after_ball:
            grey = self.game.sheet.grey[ctx.frame - 1]
            self._earn_marks(player, sum(1 for pin in grey if mask >> (pin - 1) & 1))

    def _earn_marks(self, player: Player, count: int) -> None:
        if count and self._open_areas(player):
            player.pending_marks += count

    def _mark(self, player: Player, area: int) -> None:
        player.marks[area] += 1
        player.pending_marks -= 1
        spec = self.game.sheet.areas[area]
        if player.marks[area] == spec.boxes:
            if spec.ability == "ten-pin":
                player.ten_pin = True
            else:
                player.held[spec.ability] = player.held.get(spec.ability, 0) + 1
        if not self._open_areas(player):
            player.pending_marks = 0

    def _end_ball(self, index: int, player: Player) -> None:
        ctx = self.ball_context(index)
        assert ctx is not None
        strike = ctx.fresh_rack and player.standing == 0
        self.record_ball(index, player.crossed)
        if strike and self.game.advanced:
            self._earn_marks(player, 1)
        player.crossed = 0
        player.extra_dice = False
        player.phase = CHOOSE
        player.dice = ()
        after = self.ball_context(index)
        if after is None:
            return
        if after.frame != ctx.frame:
            self._start_frame(player)
        elif after.fresh_rack:  # a bonus frame after a 10th-frame strike or spare
            player.standing = self.game.full
            player.rolls_on_rack = 0
            player.bonus_rack = True

    def _start_frame(self, player: Player) -> None:
        player.standing = self.game.full
        player.rolls_on_rack = 0
        player.bonus_rack = False
        if self.game.options["tokens"]:
            player.tokens += 1

    # --- views ------------------------------------------------------------------------
    def view(self, player: int) -> dict[str, Any]:
        return {"player": player, "turn": self.turn(), "players": [self.sheet_view(i) for i in range(self.num_players)]}

    def sheet_view(self, index: int) -> dict[str, Any]:
        """Player `index`'s entry of `view` (every sheet is public), alone: a board draws one sheet."""
        p = self.players[index]
        ctx = self.ball_context(index)
        entry: dict[str, Any] = {
            "pinfalls": list(self.pinfalls[index]),
            "frame": ctx.frame if ctx else None,
            "ball": ctx.ball if ctx else None,
            "standing": list(pins_of(p.standing)),
            "tokens": p.tokens,
            "phase": p.phase,
            "dice": list(p.dice),
        }
        if self.game.advanced:
            grey = self.game.sheet.grey[ctx.frame - 1] if ctx and not p.bonus_rack else ()
            entry |= {
                "grey": list(grey),
                "marks": list(p.marks),
                "abilities": dict(p.held) | ({"ten-pin": 1} if p.ten_pin else {}),
                "extra_dice_active": p.extra_dice,
                "pending_marks": p.pending_marks,
            }
        return entry

    def key(self) -> Hashable:
        return (tuple(tuple(p) for p in self.pinfalls), tuple(p.key() for p in self.players))

    def describe(self) -> str:
        """The position in words: `frame 2 ball 1: pins 4, 5 and 7 standing, 1 token, rolled 3 and 4 (7)`."""
        from pinsetter.core.narration import pins_list
        from pinsetter.games.rolling_pins_table import ability_title

        index, p = self._me()
        ctx = self.ball_context(index)
        assert ctx is not None
        standing = pins_of(p.standing)
        if p.standing == self.game.full:
            pins = _("all pins standing")
        elif standing:
            pins = ngettext("pin {pins} standing", "pins {pins} standing", len(standing))
            pins = pins.format(pins=pins_list(standing))
        else:
            pins = _("no pin standing")
        parts = [pins, ngettext("{count} token", "{count} tokens", p.tokens).format(count=p.tokens)]
        if p.phase == ROLLED:
            dice = p.dice
            rolled = _("rolled {dice} ({total})") if len(dice) > 1 else _("rolled {total}")
            parts.append(rolled.format(dice=pins_list(dice), total=sum(dice)))
        if self.game.advanced:
            several = _("{ability} ({count})")
            held = [
                several.format(ability=ability_title(name), count=count) if count > 1 else ability_title(name)
                for name, count in sorted(p.held.items())
            ]
            if p.ten_pin:
                held.append(ability_title("ten-pin"))
            parts.append(_("abilities: {held}").format(held=pins_list(held) if held else _("none")))
            if p.pending_marks:
                parts.append(
                    ngettext("{count} box to mark", "{count} boxes to mark", p.pending_marks).format(
                        count=p.pending_marks
                    )
                )
        place = _("frame {frame} ball {ball}").format(frame=ctx.frame, ball=ctx.ball)
        return _("{place}: {details}").format(place=place, details=_(", ").join(parts))
