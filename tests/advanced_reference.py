"""A slow, literal reference for advanced Rolling Pins: memoised expectimax over every position.

Written from RULES.md ("Advanced game") and the engine's documented choices, for a
generic small game (any number of pins and frames, grey pins per frame, a track of
any areas with or without a lower row, either reading of Auto Strike, tokens on or
off), and sharing no code with the fast solver (`pinsetter.solvers.rolling_pins_advanced`).
A position is a `Pos`: the frame and ball, the rack, the roll in progress and the
sheet. `actions`, `apply` and `land` (a roll) are the rules; `Reference.value` is the
optimal expected number of points still to come. tests/test_solver_advanced.py ties
these rules to the engine move by move and value by value, and the fast solver to
this value on small games.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from itertools import combinations, product
from typing import NamedTuple

ABILITY_NAMES = ("reroll", "flip", "extra-pin", "extra-dice", "auto-strike")
RR, FL, EP, ED, AS = range(5)

# Phases of a ball, as the engine names them.
CHOOSE, ROLLING, ROLLED, EXTRA_PIN = "choose", "rolling", "rolled", "extra-pin"

Move = tuple[str, tuple[int, ...], int]  # (kind, args, tokens): the engine's Action fields


@dataclass(frozen=True)
class Rules:
    """The game: pins, frames, grey pins by frame, the track (ability, boxes, lower row)."""

    pins: int
    frames: int
    grey: tuple[tuple[int, ...], ...]
    areas: tuple[tuple[str, int, bool], ...]
    auto_held: bool = False
    tokens: bool = True

    @property
    def full(self) -> int:
        return (1 << self.pins) - 1


class Pos(NamedTuple):
    frame: int
    ball: int  # 1, 2, or 3 (the last frame's bonus)
    fresh: bool  # the ball began on a fresh rack (a strike is possible)
    bonus: bool  # the rack is a bonus rack of the last frame (no grey pins)
    w1: int  # strike/spare bonuses owed to this frame's first ball
    w2: int  # ... and to its second ball
    standing: int
    first: bool  # the next (or current) roll is the rack's first: Ten Pin and Auto Strike need it
    phase: str
    count: int  # dice chosen for this roll (0 when no roll is under way)
    dice: tuple[int, ...]
    kept: bool  # the dice to keep are chosen (always, unless Extra Dice is active)
    flipped: bool  # a Flip was used on this roll
    tokens: int
    marks: tuple[int, ...]
    held: tuple[int, ...]  # per ABILITY_NAMES
    ten: bool
    extra_dice: bool  # active for the rest of this ball
    pending: int  # boxes to mark now


def pins_of(mask: int) -> list[int]:
    return [i + 1 for i in range(mask.bit_length()) if mask >> i & 1]


def bit(pin: int) -> int:
    return 1 << (pin - 1)


@cache
def crosses(standing: int, low: int, high: int) -> tuple[tuple[int, ...], ...]:
    """Every set of standing pins whose numbers sum to `low`..`high`."""
    pins = pins_of(standing)
    return tuple(
        chosen for size in range(1, len(pins) + 1) for chosen in combinations(pins, size) if low <= sum(chosen) <= high
    )


@cache
def sorted_rolls(n: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The rolls of n dice with their faces sorted, and how many of the 6**n rolls give each."""
    return tuple(Counter(tuple(sorted(d)) for d in product(range(1, 7), repeat=n)).items())


class Reference:
    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.memo: dict[Pos, float] = {}
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))

    # --- the sheet ------------------------------------------------------------------
    def open_areas(self, marks: tuple[int, ...]) -> list[int]:
        areas = self.rules.areas
        upper_full = all(marks[i] == boxes for i, (_, boxes, lower) in enumerate(areas) if not lower)
        return [i for i, (_, boxes, lower) in enumerate(areas) if marks[i] < boxes and (upper_full or not lower)]

    def earn(self, p: Pos, count: int) -> Pos:
        """Marks earned: boxes to mark, unless no box is open (then they are lost)."""
        if count and self.open_areas(p.marks):
            return p._replace(pending=p.pending + count)
        return p

    def start(self) -> Pos:
        r = self.rules
        return Pos(
            frame=1,
            ball=1,
            fresh=True,
            bonus=False,
            w1=0,
            w2=0,
            standing=r.full,
            first=True,
            phase=CHOOSE,
            count=0,
            dice=(),
            kept=True,
            flipped=False,
            tokens=1 if r.tokens else 0,
            marks=(0,) * len(r.areas),
            held=(0,) * len(ABILITY_NAMES),
            ten=False,
            extra_dice=False,
            pending=0,
        )

    def multiplier(self, p: Pos) -> int:
        """How many times a pin of this ball counts: once, plus the bonuses it pays."""
        return {1: 1 + p.w1, 2: 1 + p.w2}.get(p.ball, 1)

    # --- what a player may do -------------------------------------------------------------
    def actions(self, p: Pos) -> list[Move]:
        if p.pending:
            return [("mark", (a + 1,), 0) for a in self.open_areas(p.marks)]
        if p.phase == CHOOSE:
            if p.held[AS] and p.first and not self.rules.auto_held:
                return [("auto-strike", (), 0)]  # this rack is a strike at once
            moves: list[Move] = [("dice", (1,), 0), ("dice", (2,), 0)]
            if p.held[ED] and not p.extra_dice:
                moves.append(("extra-dice", (), 0))
            if p.held[AS] and p.first:
                moves.append(("auto-strike", (), 0))
            return moves
        if p.phase == EXTRA_PIN:
            return [("pass", (), 0)] + [("extra-pin", (pin,), 0) for pin in pins_of(p.standing)]
        assert p.phase == ROLLED
        moves = []
        before_keep = p.kept is False or not p.extra_dice
        if p.held[RR] and not p.flipped and before_keep:
            moves.append(("reroll", (), 0))
        if p.held[FL] and before_keep:
            moves += [("flip", (i + 1,), 0) for i in range(len(p.dice))]
        if not p.kept:
            return moves + [
                ("keep", tuple(i + 1 for i in kept), 0) for kept in combinations(range(len(p.dice)), p.count)
            ]
        cost = self.ten_pin_cost(p)
        if cost is not None:
            moves.append(("ten-pin", (), 0))
            if sorted(p.dice) == [5, 5]:
                return moves  # a double five with Ten Pin is a strike, nothing else
        moves.append(("miss", (), 0))
        total = sum(p.dice)
        low, high = total - min(p.tokens, total - len(p.dice)), total + p.tokens
        moves += [("cross", chosen, sum(chosen) - total) for chosen in crosses(p.standing, low, high)]
        return moves

    def ten_pin_cost(self, p: Pos) -> int | None:
        """Tokens that turn the rack's first roll of two kept dice into two fives (Ten Pin)."""
        if not (p.ten and p.kept and len(p.dice) == 2 and p.first and p.standing == self.rules.full):
            return None
        cost = abs(p.dice[0] - 5) + abs(p.dice[1] - 5)
        return cost if cost <= p.tokens else None

    # --- what happens ------------------------------------------------------------------
    def apply(self, p: Pos, move: Move) -> tuple[int, Pos | None]:
        """(points scored now, the position after; None when the game is over)."""
        kind, args, tokens = move
        held = list(p.held)
        if kind == "mark":
            area = args[0] - 1
            ability, boxes, _ = self.rules.areas[area]
            marks = list(p.marks)
            marks[area] += 1
            ten = p.ten
            if marks[area] == boxes:
                if ability == "ten-pin":
                    ten = True
                else:
                    held[ABILITY_NAMES.index(ability)] += 1
            pending = p.pending - 1 if self.open_areas(tuple(marks)) else 0
            return 0, p._replace(marks=tuple(marks), held=tuple(held), ten=ten, pending=pending)
        if kind == "dice":
            return 0, p._replace(phase=ROLLING, count=args[0])
        if kind == "extra-dice":
            held[ED] -= 1
            return 0, p._replace(held=tuple(held), extra_dice=True)
        if kind == "reroll":
            held[RR] -= 1
            return 0, p._replace(held=tuple(held), phase=ROLLING, dice=(), kept=True, flipped=False)
        if kind == "flip":
            held[FL] -= 1
            dice = list(p.dice)
            dice[args[0] - 1] = 7 - dice[args[0] - 1]
            return 0, p._replace(held=tuple(held), dice=tuple(dice), flipped=True)
        if kind == "keep":
            return 0, p._replace(dice=tuple(p.dice[i - 1] for i in args), kept=True)
        m = self.multiplier(p)
        if kind in ("auto-strike", "ten-pin"):
            if kind == "auto-strike":
                held[AS] -= 1
                spent = 0
            else:
                spent = self.ten_pin_cost(p) or 0
            points = m * bin(p.standing).count("1")
            return points, self.end_ball(p._replace(held=tuple(held), tokens=p.tokens - spent, standing=0))
        if kind == "cross":
            crossed = sum(bit(pin) for pin in args)
            after = p._replace(tokens=p.tokens - abs(tokens), standing=p.standing & ~crossed, first=False)
            if not p.bonus and p.ball >= 2:
                after = self.earn(after, sum(1 for pin in set(self.grey(p)) if pin in args))
            if after.standing == 0:
                return m * len(args), self.end_ball(after)
            return m * len(args), after._replace(phase=CHOOSE, count=0, dice=(), kept=True, flipped=False)
        if kind == "miss":
            if p.held[EP] and p.standing:
                return 0, p._replace(phase=EXTRA_PIN, count=0, dice=(), kept=True, flipped=False, first=False)
            return 0, self.end_ball(p)
        if kind == "extra-pin":
            held[EP] -= 1
            after = p._replace(held=tuple(held), standing=p.standing & ~bit(args[0]))
            if not p.bonus:  # after ball 1 too: it counts as crossed after the ball
                after = self.earn(after, 1 if args[0] in self.grey(p) else 0)
            return m, self.end_ball(after)
        if kind == "pass":
            return 0, self.end_ball(p)
        raise AssertionError(kind)

    def grey(self, p: Pos) -> tuple[int, ...]:
        return self.rules.grey[p.frame - 1]

    def land(self, p: Pos, dice: tuple[int, ...]) -> Pos:
        """The dice land: answer them (and keep some first, with Extra Dice active)."""
        return p._replace(phase=ROLLED, dice=dice, kept=not p.extra_dice, flipped=False)

    def dice_in_air(self, p: Pos) -> int:
        return p.count + (1 if p.extra_dice else 0)

    def end_ball(self, p: Pos) -> Pos | None:
        """The ball is over: a strike marks a box; then the next ball, frame or the end."""
        r = self.rules
        if p.fresh and p.standing == 0:
            p = self.earn(p, 1)
        p = p._replace(phase=CHOOSE, count=0, dice=(), kept=True, flipped=False, extra_dice=False, first=False)
        fresh_rack = {"fresh": True, "standing": r.full, "first": True}
        if p.frame < r.frames:
            if p.ball == 1 and p.standing:
                return p._replace(ball=2, fresh=False)
            if p.ball == 1:
                w1, w2 = p.w2 + 1, 1  # a strike: the next two balls pay it
            else:
                w1, w2 = (1, 0) if p.standing == 0 else (0, 0)
            gain = 1 if r.tokens else 0
            tokens = p.tokens + gain
            return p._replace(frame=p.frame + 1, ball=1, bonus=False, w1=w1, w2=w2, tokens=tokens, **fresh_rack)
        # The last frame: a strike or a spare earns the bonus balls, each on a fresh rack once cleared.
        if p.ball == 1:
            if p.standing == 0:
                return p._replace(ball=2, bonus=True, **fresh_rack)
            return p._replace(ball=2, fresh=False)
        if p.ball == 2:
            if p.standing == 0:
                return p._replace(ball=3, bonus=True, **fresh_rack)
            if p.fresh:  # ball 2 began a bonus rack: ball 3 plays on what it left
                return p._replace(ball=3, fresh=False)
            return None
        return None

    # --- the value -----------------------------------------------------------------------
    def value(self, p: Pos | None) -> float:
        """The best expected points still to come from `p` (0 once the game is over)."""
        if p is None:
            return 0.0
        key = p._replace(dice=tuple(sorted(p.dice))) if p.phase == ROLLED else p  # the order of dice is no matter
        if key.ball == 3 and not key.pending:  # the last ball: a box marked now could never be used
            key = key._replace(marks=(0,) * len(key.marks))
        found = self.memo.get(key)
        if found is not None:
            return found
        if p.phase == ROLLING and not p.pending:
            n = self.dice_in_air(p)  # each roll once by its faces in order, weighted by how many orders give it
            value = sum(ways * self.value(self.land(p, dice)) for dice, ways in sorted_rolls(n)) / 6**n
        else:
            best = -1.0
            for move in self.actions(p):
                points, after = self.apply(p, move)
                best = max(best, points + self.value(after))
            value = best
        self.memo[key] = value
        return value

    def outcomes(self, p: Pos) -> list[tuple[tuple[int, ...], Fraction]]:
        n = self.dice_in_air(p)
        return [(dice, Fraction(1, 6**n)) for dice in product(range(1, 7), repeat=n)]


def with_tokens(rules: Rules, tokens: bool) -> Rules:
    return replace(rules, tokens=tokens)
