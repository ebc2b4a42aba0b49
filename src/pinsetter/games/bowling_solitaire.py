"""Sid Sackson's Bowling Solitaire (RULES.md section 4; seed 003).

Each frame deals twenty cards (two of each value 1-10): ten pins at positions
1-10 and three ball piles of 5, 3 and 2 cards with their tops face up. A play
takes a pile's face-up card and removes one pin of the same value, or two or
three touching pins whose sum ends in the card's digit.

Cards are chance outcomes drawn when they are turned face up: every unseen
card is equally likely, exactly as in a shuffled deck, and the state never
holds a face-down card, so no view or bot can peek. A fixed deal (`Deal`) is a
script of those outcomes.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Collection, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from itertools import accumulate, combinations
from operator import itemgetter
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from pinsetter.core.frozen import unchecked
from pinsetter.core.game import (
    CHANCE,
    TERMINAL,
    FeatureLayout,
    Game,
    IllegalActionError,
    OptionSpec,
    ParseError,
    State,
    Step,
)
from pinsetter.core.narration import pins_list
from pinsetter.core.pins import bit, mask_of, pins_of
from pinsetter.games.pure_chance import frames_option
from pinsetter.games.registry import register
from pinsetter.i18n import N_, _

if TYPE_CHECKING:
    from pinsetter.core.table import TableView

POSITIONS = tuple(range(1, 11))
VALUES = tuple(range(1, 11))
COPIES = 2
PILE_SIZES = (5, 3, 2)
FULL = (1 << 10) - 1
ADJACENT: dict[int, tuple[int, ...]] = {
    1: (2, 3),
    2: (1, 3, 4, 5),
    3: (1, 2, 5, 6),
    4: (2, 5, 7, 8),
    5: (2, 3, 4, 6, 8, 9),
    6: (3, 5, 9, 10),
    7: (4, 8),
    8: (4, 5, 7, 9),
    9: (5, 6, 8, 10),
    10: (6, 9),
}
BACK_ROW = frozenset((7, 8, 9, 10))
ROW_TWO = frozenset((2, 3))
CENTRE = 5
GROUP_RULES = ("connected", "mutual")


NEIGHBOURS = {p: mask_of(list(ADJACENT[p])) for p in POSITIONS}


@cache
def groups(rule: str) -> tuple[int, ...]:
    """Every removable group as a mask: single pins, touching pairs, and triples
    that are connected (`connected`) or all touching each other (`mutual`)."""
    result = [bit(p) for p in POSITIONS]
    for a, b in combinations(POSITIONS, 2):
        if b in ADJACENT[a]:
            result.append(bit(a) | bit(b))
    for trio in combinations(POSITIONS, 3):
        touching = sum(1 for a, b in combinations(trio, 2) if b in ADJACENT[a])
        if touching == 3 or (rule == "connected" and touching == 2):
            result.append(mask_of(list(trio)))
    return tuple(result)


def first_play_allowed(group: int) -> bool:
    """No back-row pin on a frame's first play; the centre pin only with a row-two pin."""
    if group & mask_of(list(BACK_ROW)):
        return False
    return not (group & bit(CENTRE)) or bool(group & mask_of(list(ROW_TWO)))


@cache
def reach(group: int) -> int:
    """The positions next to some pin of the group."""
    return mask_of([q for p in pins_of(group) for q in ADJACENT[p]])


def touches(group: int, cleared: int) -> bool:
    """The chain rule: some pin of the group is adjacent to a cleared position."""
    return bool(reach(group) & cleared)


def matches(values: list[int], ball: int) -> bool:
    """One pin of the ball's value, or a sum ending in the ball's digit (10 counts 0)."""
    if len(values) == 1:
        return values[0] == ball
    return sum(values) % 10 == ball % 10


# --- deals -------------------------------------------------------------------------


class DealError(ParseError):
    """A deal that is malformed or impossible."""


@dataclass(frozen=True)
class Deal:
    """A whole deal: pin values at positions 1-10 and the three piles, top card first."""

    pins: tuple[int, ...]
    piles: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        if len(self.pins) != 10:
            raise DealError(_("a deal has 10 pins, this one has {count}").format(count=len(self.pins)))
        if tuple(len(p) for p in self.piles) != PILE_SIZES:
            sizes = ",".join(str(len(p)) for p in self.piles)
            raise DealError(_("piles must hold 5, 3 and 2 cards, these hold {sizes}").format(sizes=sizes))
        for card in (*self.pins, *(c for p in self.piles for c in p)):
            if card not in VALUES:
                raise DealError(_("card {card} is not a value 1-10").format(card=card))
        cards = [*self.pins, *(c for p in self.piles for c in p)]
        for value in VALUES:
            if cards.count(value) > COPIES:
                message = _("value {value} is used {count} times (there are two of each)")
                raise DealError(message.format(value=value, count=cards.count(value)))

    def __str__(self) -> str:
        pins = ",".join(str(v) for v in self.pins)
        piles = "|".join(",".join(str(c) for c in pile) for pile in self.piles)
        return f"pins={pins};piles={piles}"

    @classmethod
    def parse(cls, text: str) -> Deal:
        parts = dict(part.split("=", 1) for part in text.strip().split(";") if "=" in part)
        if set(parts) != {"pins", "piles"}:
            raise DealError(_("{text}: a deal reads pins=v1,...,v10;piles=a,b,c,d,e|f,g,h|i,j").format(text=repr(text)))
        try:
            pins = tuple(_number(v) for v in parts["pins"].split(","))
            piles = tuple(tuple(_number(v) for v in pile.split(",")) for pile in parts["piles"].split("|"))
        except ValueError:
            raise DealError(_("{text}: card values must be numbers 1-10").format(text=repr(text))) from None
        return cls(pins, piles)

    @classmethod
    def random(cls, rng: random.Random) -> Deal:
        cards = [v for v in VALUES for _ in range(COPIES)]
        rng.shuffle(cards)
        # The whole deck shuffled is a deal: made without `__post_init__`'s checks (every game deals ten).
        piles = (tuple(cards[10:15]), tuple(cards[15:18]), tuple(cards[18:20]))
        return unchecked(cls, pins=tuple(cards[:10]), piles=piles)


def _number(text: str) -> int:
    """A card value, pile or pin as typed: ASCII digits (int() would take a full-width 6, `+6` and `6_0` too)."""
    text = text.strip()
    if not (text.isascii() and text.isdigit()):
        raise ValueError(text)
    return int(text)


# --- steps -------------------------------------------------------------------------


class Action(NamedTuple):
    """`3:4+5+8` (pile 3 takes pins 4, 5 and 8) or `stop` (end the ball).

    A named tuple, so comparing and hashing plays (legality checks) runs in C; plays order
    by kind, then pile, then pins.
    """

    kind: str
    pile: int = 0
    pins: tuple[int, ...] = ()

    def __str__(self) -> str:
        return _action_text(*self)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "pile": self.pile, "pins": list(self.pins)}

    @classmethod
    def parse(cls, text: str) -> Action:
        text = text.strip().lower()
        if text == "stop":
            return cls("stop")
        pile_text, _colon, pins_text = text.partition(":")
        try:
            pile = _number(pile_text)
            # 0 is pin 10, as the board's keys show it (one key a pin); plays are written with 10.
            pins = tuple(sorted(_number(p) or 10 for p in pins_text.split("+")))
        except ValueError:
            raise ParseError(_("{text} is not a play like '3:4+5+8' or 'stop'").format(text=repr(text))) from None
        if pile not in (1, 2, 3) or not 1 <= len(pins) <= 3 or len(set(pins)) != len(pins):
            raise ParseError(_("{text}: a play is a pile 1-3 and one to three different pins").format(text=repr(text)))
        if any(p not in POSITIONS for p in pins):
            raise ParseError(_("{text}: pins are positions 1-10").format(text=repr(text)))
        return cls("play", pile, pins)


STOP = Action("stop")


@lru_cache(maxsize=4096)
def _action_text(kind: str, pile: int, pins: tuple[int, ...]) -> str:
    """An action's text form (every step of a record is written out: the texts are kept)."""
    if kind == "stop":
        return "stop"
    return f"{pile}:" + "+".join(str(p) for p in pins)


@dataclass(frozen=True, order=True)
class Card:
    """A card turned face up (dealt to a pin or revealed on a pile)."""

    value: int

    def __str__(self) -> str:
        return str(self.value)

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.value}

    @classmethod
    def parse(cls, text: str) -> Card:
        try:
            value = _number(text)
        except ValueError:
            raise ParseError(_("{text} is not a card value 1-10").format(text=repr(text))) from None
        if value not in VALUES:
            raise ParseError(_("{text} is not a card value 1-10").format(text=repr(text)))
        return cls(value)


@lru_cache(maxsize=16384)
def _unseen(seen: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], tuple[Step, ...], tuple[int, ...]]:
    """`Table.unseen` of these counts seen, and what a draw needs: the cards and the running totals."""
    unseen = tuple((v, COPIES - seen[v]) for v in VALUES if seen[v] < COPIES)
    return unseen, tuple(CARDS[v] for v, _ in unseen), tuple(accumulate(c for _, c in unseen))


# Every card value once (cards are values).
CARDS = {value: Card(value) for value in VALUES}


# --- the frame being played ----------------------------------------------------------


@dataclass
class Table:
    """One deal on the table, as the player sees it."""

    pins: list[int]  # value at positions 1-10 (0 until dealt)
    standing: int  # mask of pins still standing (dealt pins only)
    remaining: list[int]  # cards left in each pile, the face-up top included
    tops: list[int]  # face-up top of each pile (0: none, or not yet turned up)
    revealed: list[int]  # cards turned up so far from each pile
    seen: list[int]  # how many of each value (index 1-10) are face up or gone
    queue: list[tuple[str, int]]  # slots still to turn face up: ("pin", position) or ("pile", pile)
    ball: int = 1  # ball of this deal (2 after the tops were burned)
    # `plays()` with what it was computed from (not part of the position).
    known_plays: tuple[Hashable, list[Action]] | None = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    def fresh(cls) -> Table:
        queue = [("pin", p) for p in POSITIONS] + [("pile", p) for p in (1, 2, 3)]
        return cls([0] * 10, 0, list(PILE_SIZES), [0, 0, 0], [0, 0, 0], [0] * 11, queue)

    def key(self) -> Hashable:
        """Everything the position's future depends on. The cards seen so far belong in it: they
        decide which cards can still turn up (two deals with equal tops but different burned
        cards are different positions)."""
        return (
            tuple(self.pins),
            self.standing,
            tuple(self.remaining),
            tuple(self.tops),
            tuple(self.revealed),
            tuple(self.seen),
            tuple(self.queue),
            self.ball,
        )

    def unseen(self) -> list[tuple[int, int]]:
        """(value, copies not yet seen) for every value with copies left."""
        return list(_unseen(tuple(self.seen))[0])

    def turn_up(self, value: int) -> None:
        kind, where = self.queue.pop(0)
        self.seen[value] += 1
        if kind == "pin":
            self.pins[where - 1] = value
            self.standing |= bit(where)
        else:
            self.tops[where - 1] = value
            self.revealed[where - 1] += 1

    def use_top(self, pile: int) -> None:
        """The pile's top card is spent (played or burned); the next one is turned up."""
        self.tops[pile - 1] = 0
        self.remaining[pile - 1] -= 1
        if self.remaining[pile - 1]:
            self.queue.append(("pile", pile))

    def plays(self, rule: str) -> list[Action]:
        """Every legal play on this table (sorted: by pile, then by pins)."""
        # A decision asks several times (the ball's end, the player, the legality check): the
        # answer is kept with everything it depends on.
        key = (rule, self.standing, tuple(self.tops), tuple(self.pins))
        if self.known_plays is not None and self.known_plays[0] == key:
            return list(self.known_plays[1])
        result = self._plays(rule)
        self.known_plays = (key, result)
        return list(result)

    def _plays(self, rule: str) -> list[Action]:
        standing = self.standing
        first = standing == FULL
        cleared = FULL & ~standing
        by_value = _candidates(rule, tuple(self.pins))
        result = []
        for pile in (0, 1, 2):
            ball = self.tops[pile]
            if not ball:
                continue
            for group, first_ok, neighbours, actions in by_value[ball]:
                if group & ~standing:
                    continue
                if first:
                    if not first_ok:
                        continue
                elif not neighbours & cleared:  # `touches`, with the group's neighbours precomputed
                    continue
                result.append(actions[pile])
        return result


# A candidate play of a deal: (group, first play allowed, `reach` of the group, its play from piles 1-3).
Candidate = tuple[int, bool, int, tuple[Action, Action, Action]]


@cache
def _group_facts(rule: str) -> tuple[tuple[Callable[[Sequence[int]], Any], ...], tuple[Candidate, ...]]:
    """Per group of the rule, in the order of the pins it takes: how to read its pin values, and its facts."""
    readers, facts = [], []
    for group in sorted(groups(rule), key=pins_of):
        where = pins_of(group)
        readers.append(itemgetter(*(p - 1 for p in where)))  # a tuple of values, or one value for a single pin
        actions = (Action("play", 1, where), Action("play", 2, where), Action("play", 3, where))
        facts.append((group, first_play_allowed(group), reach(group), actions))
    return tuple(readers), tuple(facts)


@cache
def _matching_balls(values: int | tuple[int, ...]) -> tuple[int, ...]:
    """The ball values that `matches` pins of these values (one value: a single pin)."""
    listed = [values] if isinstance(values, int) else list(values)
    return tuple(ball for ball in VALUES if matches(listed, ball))


@lru_cache(maxsize=256)
def _candidates(rule: str, pins: tuple[int, ...]) -> tuple[tuple[Candidate, ...], ...]:
    """For each ball value 0-10, the groups of these dealt pins it matches, in the order of their pins.

    The rules' own functions decide everything here, once per deal (and per tuple of values)
    instead of once per play considered.
    """
    readers, facts = _group_facts(rule)
    by_value: list[list[Candidate]] = [[] for _ in range(11)]
    for balls, candidate in zip(map(_matching_balls, [read(pins) for read in readers]), facts, strict=True):
        for ball in balls:
            by_value[ball].append(candidate)
    return tuple(map(tuple, by_value))


# The rules for players (core/rules_text.py's format; `Game.rules` fills the braces).
RULES_TEXT = N_("""\
{name} is Sid Sackson's card game for one player: twenty cards bowl a game
of ten-pin bowling, and every play is your choice.

# What you need
Twenty cards: two of each value from 1 (the ace) to 10.

# Setting up a frame
For every frame, shuffle all twenty cards. Deal ten face up in a triangle:
they are the pins. Pin 1 is at the front, then pins 2 and 3, then 4, 5 and 6
(pin 5 is the centre pin), and the back row is 7, 8, 9 and 10. Deal the other
ten face down into three ball piles of five, three and two cards, and turn up
the top card of each pile.

# Knocking down pins
Take the face-up card of any pile and remove with it either:
- one standing pin of exactly the same value (a 10 takes a 10), or
- two or three pins that touch, whose values add up to a number ending in the
  card's value; a 10 counts as 0 here. A 7 takes a 3 and a 4 that touch, or
  an 8 and a 9 (17).
Pins touch when their cards are side by side or diagonal in the triangle;
three pins make a group when they are joined one to the next, like 4, 5 and
6. Then turn up the next card of that pile, if it has one.

Two restrictions hold:
- The first play of a frame takes no pin of the back row, and takes the
  centre pin only together with pin 2 or 3.
- Every later play must take at least one pin next to a place already
  cleared in this frame.

# How a frame goes
The first ball lasts as long as you want to play and can. Clearing all ten
pins in the first ball is a strike, and the frame is over. When the first
ball ends, because you stop or because no play is left, discard the face-up
card of every pile, turn up the next card of each, and bowl the second ball
the same way. Clearing the rest in the second ball is a spare. Each ball
counts the pins it removed.

# The 10th frame
A strike in the 10th frame earns two more balls, a spare one more; they are
bowled on new deals of the twenty cards.

{scoring}

Aim for the highest score you can.

# Options
- "{groups}": the stricter reading of the original rules, where the three
  pins of a group must all touch one another: only the small triangles count.
{frames_option}
""")


@register
class BowlingSolitaire(Game):
    id = "bowling-solitaire"
    name = N_("Bowling Solitaire")
    summary = N_("Sid Sackson's card game: pins and ball piles from 20 cards.")
    rules_text = RULES_TEXT
    has_decisions = True
    chance_runs = True  # a deal is one seeded shuffle: its cards turn up a run at a time
    undo_stops = N_("a card was turned up after your last decision; undo cannot go back past it")
    min_players = 1
    max_players = 1
    option_specs = (
        OptionSpec(
            "groups",
            "connected",
            N_("which two or three pins may fall together: a chain of touching pins, or pins all touching each other"),
            choices=GROUP_RULES,
            label=N_("Pin groups"),
        ),
        frames_option(),
    )
    conformance_options: ClassVar[tuple[dict[str, object], ...]] = ({}, {"groups": "mutual", "frames": "3"})

    @property
    def rule(self) -> str:
        return str(self.options["groups"])

    def new_state(self, players: int = 1) -> SolitaireState:
        return SolitaireState(self, players)

    def parse_action(self, text: str) -> Step:
        return Action.parse(text)

    def parse_outcome(self, text: str) -> Step:
        return Card.parse(text)

    def scripted_chance(self, extra: Mapping[str, object]) -> Callable[[State], Step | None] | None:
        """A record made from a fixed `--deal` keeps its deal in `extra`."""
        if "deal" not in extra:
            return None
        return deal_script(Deal.parse(str(extra["deal"])))

    def draw_chance(self, state: State, seed: int, key: tuple[int, ...], into: random.Random | None = None) -> Step:
        """Deal n of every game with this seed is one seeded shuffle of the twenty cards.

        A card turning up is the shuffle's card for its slot, so every player (every bot
        of a tournament) gets the same deals whatever they play; each card is still
        equally likely to be any unseen one. (`into` goes unused: a deal's shuffle is kept, not redrawn.)
        """
        assert isinstance(state, SolitaireState) and state.table.queue, "a card turns up only at a chance node"
        table = state.table
        return _slot_card(seeded_deal(seed, state.deals), table, table.queue[0])

    def play_chance_run(self, state: State, seed: int) -> list[Step]:
        """Every card up to the next decision, each the one `draw_chance` gives, turned up in one call.

        A run ends at a decision or the end; a ball that then has no play ends by itself
        (`_settle`), and the next ball's (or deal's) cards turn up in the same run.
        """
        assert isinstance(state, SolitaireState)
        cards: list[Step] = []
        while state.table.queue and not state.is_terminal():
            cards += state.turn_up_all(seeded_deal(seed, state.deals))
        return cards

    def table(self, state: State, names: Sequence[str] | None = None, last_chance: str = "") -> TableView:
        from pinsetter.games.bowling_solitaire_table import solitaire_table

        return solitaire_table(state, list(names) if names else None, last_chance)

    def step_words(self, before: State, step: str, after: State, names: Sequence[str], actor: int | None) -> str:
        from pinsetter.games.bowling_solitaire_table import step_sentence

        return step_sentence(before, step, after, names, actor)

    def action_words(self, state: State, action: str) -> str:
        from pinsetter.games.bowling_solitaire_table import play_words

        return play_words(state.view(0), action)

    def selection_action(self, state: State, pins: frozenset[int], pile: int | None) -> str:
        from pinsetter.games.bowling_solitaire_table import selection_action

        return selection_action(state, pins, pile)

    # --- for toolkits (pinsetter.integrations) ---------------------------------------------
    def action_space(self) -> Iterator[Step]:
        """`stop` and every pile 1-3 with every group the rule can take (`groups`): the state says which are legal."""
        yield STOP
        removable = [tuple(pins_of(group)) for group in groups(self.rule)]
        for pile in range(1, len(PILE_SIZES) + 1):
            yield from (Action("play", pile, pins) for pins in removable)

    def chance_space(self) -> Iterator[Step]:
        """A card turned up: any value."""
        return (Card(value) for value in VALUES)

    def max_decisions(self, players: int) -> int:
        """A ball takes at most ten plays (one a pin) and a stop."""
        return players * (2 * self.lane.frames + 1) * 11

    def max_chance_steps(self, players: int) -> int:
        """At most the twenty cards of a deal turn up; a deal a frame, and two more for the 10th's bonus balls."""
        return players * (self.lane.frames + 2) * COPIES * len(VALUES)

    def observation_features(self, view: dict[str, Any]) -> Iterator[tuple[str, float]]:
        """Per position its face-up value (one-hot, all 0 when down); per pile its top and cards / 5; cards seen / 2."""
        pins = view["pins"]
        piles = view["piles"]
        seen = [0] * (len(VALUES) + 1)
        for card in view["seen"]:
            seen[card] += 1
        values = _feature_values(
            [pins[str(position)] or 0 for position in POSITIONS],
            [entry["top"] or 0 for entry in piles],
            [entry["cards"] for entry in piles],
            seen,
        )
        return _feature_layout().pairs(values)

    def observation_values(self, state: State, player: int) -> list[float]:
        """`observation_features` of the view, read from the table without making the view (every step of a loop)."""
        assert isinstance(state, SolitaireState)
        t = state.table
        standing = t.standing
        pins = [value if standing >> index & 1 else 0 for index, value in enumerate(t.pins)]
        return _feature_values(pins, t.tops, t.remaining, t.seen)


@cache
def _feature_layout() -> FeatureLayout:
    """The names of `BowlingSolitaire.observation_features`, in order."""
    names: list[str] = []
    for position in POSITIONS:
        names += [f"pin{position}.standing", *(f"pin{position}.value{card}" for card in VALUES)]
    for pile in range(1, len(PILE_SIZES) + 1):
        names += [*(f"pile{pile}.top{card}" for card in VALUES), f"pile{pile}.cards"]
    names += [f"seen{card}" for card in VALUES]
    return FeatureLayout(names)


class _FeatureIndex(NamedTuple):
    """Where each entry of `_feature_layout` is, by position, pile and value (no name built per step)."""

    size: int
    pin_standing: tuple[int, ...]  # by position - 1
    pin_value: tuple[tuple[int, ...], ...]  # by position - 1, then value (index 0 unused)
    pile_top: tuple[tuple[int, ...], ...]  # by pile - 1, then value (index 0 unused)
    pile_cards: tuple[int, ...]  # by pile - 1
    seen: tuple[int, ...]  # by value (index 0 unused)


@cache
def _feature_index() -> _FeatureIndex:
    at = _feature_layout().at
    unused = -1
    return _FeatureIndex(
        len(at),
        tuple(at[f"pin{p}.standing"] for p in POSITIONS),
        tuple((unused, *(at[f"pin{p}.value{v}"] for v in VALUES)) for p in POSITIONS),
        tuple((unused, *(at[f"pile{pile}.top{v}"] for v in VALUES)) for pile in range(1, len(PILE_SIZES) + 1)),
        tuple(at[f"pile{pile}.cards"] for pile in range(1, len(PILE_SIZES) + 1)),
        (unused, *(at[f"seen{v}"] for v in VALUES)),
    )


def _feature_values(pins: Sequence[int], tops: Sequence[int], cards: Sequence[int], seen: Sequence[int]) -> list[float]:
    """The game's observation entries, in layout order: the one encoding of both the view and the table.

    `pins`: the value of each position's face-up pin (0: none standing); `tops`: each pile's
    face-up card (0: none); `cards`: each pile's cards left; `seen`: copies seen by value (index 1-10).
    """
    index = _feature_index()
    values = [0.0] * index.size
    for position, value in enumerate(pins):
        if value:
            values[index.pin_standing[position]] = 1.0
            values[index.pin_value[position][value]] = 1.0
    most = max(PILE_SIZES)
    for pile, top in enumerate(tops):
        if top:
            values[index.pile_top[pile][top]] = 1.0
        values[index.pile_cards[pile]] = cards[pile] / most
    seen_at = index.seen
    for value in VALUES:
        if seen[value]:
            values[seen_at[value]] = seen[value] / COPIES
    return values


class SolitaireState(State):
    game: BowlingSolitaire

    def __init__(self, game: BowlingSolitaire, players: int = 1) -> None:
        super().__init__(game, players)
        self.table = Table.fresh()
        self.crossed = 0  # pins removed in the current ball
        self.deals = 1  # deals so far (derived from the pinfalls; kept for scripted deals)

    def clone(self) -> SolitaireState:
        new = copy.copy(self)
        new.pinfalls = [list(p) for p in self.pinfalls]
        new._contexts = list(self._contexts)
        t = self.table
        new.table = Table(
            list(t.pins),
            t.standing,
            list(t.remaining),
            list(t.tops),
            list(t.revealed),
            list(t.seen),
            list(t.queue),
            t.ball,
        )
        return new

    def is_terminal(self) -> bool:
        """`State.is_terminal`, reading the turn while it is known (asked several times a step: one call less)."""
        turn = self._turn
        return (State.turn(self) if turn is None else turn) == TERMINAL

    def is_chance_node(self) -> bool:
        return bool(self.table.queue) and not self.is_terminal()

    def current_player(self) -> int:
        """`State.current_player`, with the turn asked once."""
        if self.is_terminal():
            return TERMINAL
        return CHANCE if self.table.queue else 0

    def next_slot(self) -> tuple[str, int] | None:
        """The slot the next chance card turns up in (for scripted deals)."""
        return self.table.queue[0] if self.is_chance_node() else None

    def chance_outcomes(self) -> list[tuple[Step, Fraction]]:
        if not self.is_chance_node():
            return []
        unseen = self.table.unseen()
        total = sum(c for _, c in unseen)
        return [(CARDS[v], Fraction(c, total)) for v, c in unseen]

    def possible_outcomes(self) -> Collection[Step]:
        if not self.is_chance_node():
            return ()
        return _unseen(tuple(self.table.seen))[1]

    def sample_chance(self, rng: random.Random) -> Step:
        _, cards, totals = _unseen(tuple(self.table.seen))
        # `choices` with the running totals of the copies left: the draw `weights=` makes.
        return rng.choices(cards, cum_weights=totals)[0]

    def legal_actions(self) -> list[Step]:
        if self.is_terminal() or self.table.queue:  # over, or a card to turn up
            return []
        return [*self.table.plays(self.game.rule), STOP]

    def apply(self, step: Step) -> None:
        if isinstance(step, Action) and step.kind == "play" and not self.is_terminal() and not self.table.queue:
            if step not in self.table.plays(self.game.rule):
                why = self._why_not(step)
                raise IllegalActionError(_("{step} is not legal here: {reason}").format(step=step, reason=why), why)
            self._apply(step)
            return
        super().apply(step)

    def _why_not(self, action: Action) -> str:
        table = self.table
        ball = table.tops[action.pile - 1]
        group = mask_of(list(action.pins))
        if not ball:
            return _("pile {pile} has no face-up card").format(pile=action.pile)
        if group & ~table.standing:
            pin = next(p for p in action.pins if not group & table.standing & bit(p))
            return _("pin {pin} is not standing").format(pin=pin)
        if group not in groups(self.game.rule):
            if self.game.rule == "mutual":
                return _("pins {pins} are not a mutual group").format(pins=pins_list(action.pins))
            return _("pins {pins} are not a connected group").format(pins=pins_list(action.pins))
        if table.standing == FULL and not first_play_allowed(group):
            return _("the first play may not take a back-row pin, nor the centre pin without pin 2 or 3")
        if table.standing != FULL and not touches(group, FULL & ~table.standing):
            return _("every later play must touch a cleared position")
        values = [table.pins[p - 1] for p in action.pins]
        return _("the pins' values {values} do not match a {card}").format(
            values=" + ".join(map(str, values)), card=ball
        )

    def _apply(self, step: Step) -> None:
        table = self.table
        if isinstance(step, Card):
            table.turn_up(step.value)
        else:
            assert isinstance(step, Action)
            if step.kind == "stop":
                self._end_ball()
            else:
                table.standing &= ~mask_of(list(step.pins))
                self.crossed += len(step.pins)
                table.use_top(step.pile)
                if not table.standing:
                    self._end_ball()
        self._settle()

    def turn_up_all(self, deal: Deal) -> list[Card]:
        """Turn up every card the table waits for from `deal`, as applying them one by one would, then settle."""
        table = self.table
        turned = []
        while table.queue:
            card = _slot_card(deal, table, table.queue[0])
            table.turn_up(card.value)
            turned.append(card)
        self._settle()
        return turned

    def _settle(self) -> None:
        """A ball with no legal play ends by itself (it is not a decision)."""
        while not self.table.queue and not self.is_terminal() and not self.table.plays(self.game.rule):
            self._end_ball()

    def _end_ball(self) -> None:
        ctx = self.ball_context(0)
        assert ctx is not None
        self.record_ball(0, self.crossed)
        self.crossed = 0
        after = self.ball_context(0)
        if after is None:
            return
        if after.fresh_rack:
            self.table = Table.fresh()
            self.deals += 1
            return
        # Ball 2 of the same deal: burn every face-up top, turn up the next cards.
        self.table.ball = 2
        for pile in (1, 2, 3):
            if self.table.remaining[pile - 1]:
                self.table.use_top(pile)

    def view(self, player: int) -> dict[str, Any]:
        t = self.table
        ctx = self.ball_context(0)
        return {
            "player": player,
            "pinfalls": list(self.pinfalls[0]),
            "frame": ctx.frame if ctx else None,
            "ball": ctx.ball if ctx else None,
            "pins": {str(p): t.pins[p - 1] if t.standing & bit(p) else None for p in POSITIONS},
            "piles": [{"top": t.tops[i] or None, "cards": t.remaining[i]} for i in range(3)],
            "seen": [v for v in VALUES for _ in range(t.seen[v])],
        }

    def key(self) -> Hashable:
        return (tuple(self.pinfalls[0]), self.crossed, self.table.key())

    def describe(self) -> str:
        t = self.table
        ctx = self.ball_context(0)
        assert ctx is not None
        rows = ((7, 8, 9, 10), (4, 5, 6), (2, 3), (1,))
        lines = []
        for row in rows:
            cells = [f"{t.pins[p - 1]:>2}" if t.standing & bit(p) else " ." for p in row]
            lines.append("   " * (4 - len(row)) + "    ".join(cells))
        piles = "  ".join(
            _("pile {number}: {top} ({count} cards)").format(number=i + 1, top=t.tops[i] or "-", count=t.remaining[i])
            for i in range(3)
        )
        heading = _("frame {frame} ball {ball}").format(frame=ctx.frame, ball=ctx.ball)
        return heading + "\n" + "\n".join(lines) + f"\n  {piles}"


def slot_card(deal: Deal, state: SolitaireState) -> Card | None:
    """The card of `deal` that turns up in the state's next slot (None if nothing turns up)."""
    slot = state.next_slot()
    if slot is None:
        return None
    return _slot_card(deal, state.table, slot)


def _slot_card(deal: Deal, table: Table, slot: tuple[str, int]) -> Card:
    """The card of `deal` for `slot` of the table's queue: a pin's, or a pile's next card."""
    kind, where = slot
    if kind == "pin":
        return CARDS[deal.pins[where - 1]]
    return CARDS[deal.piles[where - 1][table.revealed[where - 1]]]


@lru_cache(maxsize=64)
def seeded_deal(seed: int, number: int) -> Deal:
    """Deal `number` (1-based) of a game with `seed` under draws keyed by position."""
    from pinsetter.core.seeds import position_rng

    return Deal.random(position_rng(seed, (0, number)))


def deal_script(deal: Deal) -> Callable[[State], Step | None]:
    """A chance script that turns up the cards of a fixed deal (the first deal of a game)."""

    def script(state: State) -> Step | None:
        assert isinstance(state, SolitaireState)
        if state.deals > 1:
            return None  # only the first deal is fixed
        return slot_card(deal, state)

    return script
