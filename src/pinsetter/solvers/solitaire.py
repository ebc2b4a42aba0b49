"""No-peeking expectimax for Bowling Solitaire, compiled with numba.

Within a deal the player knows the ten pin values, the face-up tops, how many
cards each pile holds and which pile cards have been seen; every arrangement of
the unseen cards is equally likely, so a card turned up is drawn uniformly from
the unseen ones. The information state packs into one 64-bit key:

    standing (10 bits) | deal ball (1) | pile sizes (3+2+2) | tops (3 x 4) | seen pile cards (10 x 2)

and the expectimax memoises on it. The objective of a frame is linear:
m1 * (pins in ball 1) + m2 * (pins in ball 2) + the continuation value of
ending it as a strike, a spare or open (see `Objective`).

The rules in the search (`solitaire_search`, compiled) are a copy of the
engine's (`games/bowling_solitaire.py`, whose tables it reads); tests hold the
two together by comparing this search with a plain expectimax through the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from types import ModuleType

import numpy as np
import numpy.typing as npt

from pinsetter.core.pins import pins_of
from pinsetter.core.scoring import Lane, bonus_weights, next_ball
from pinsetter.games.bowling_solitaire import (
    COPIES,
    FULL,
    POSITIONS,
    STOP,
    VALUES,
    Action,
    Table,
    first_play_allowed,
    groups,
    reach,
)
from pinsetter.solvers.solitaire_layout import DECIDE, EMPTY, REVEAL, VALUE_BITS

__all__ = ["Evaluator", "Objective", "Position", "deal_objective", "score_objective"]

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Objective:
    """What a frame is worth: pins of each ball times its weight, plus how the frame ends."""

    ball1: float = 1.0
    ball2: float = 1.0
    strike: float = 0.0
    spare: float = 0.0
    open: float = 0.0

    def as_array(self) -> npt.NDArray[np.float64]:
        return np.array([self.ball1, self.ball2, self.strike, self.spare, self.open])


PINS_OBJECTIVE = Objective()
STRIKE_OBJECTIVE = Objective(0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Position:
    """The player's information within a deal."""

    pins: tuple[int, ...]  # values at positions 1-10 (all dealt face up)
    standing: int
    ball: int
    remaining: tuple[int, int, int]
    tops: tuple[int, int, int]
    seen: tuple[int, ...]  # pile cards seen so far, per value 1-10 (index 0 unused)

    @classmethod
    def from_table(cls, table: Table) -> Position:
        pin_counts = [0] * 11
        for v in table.pins:
            pin_counts[v] += 1
        seen = tuple(table.seen[v] - pin_counts[v] if v else 0 for v in range(11))
        return cls(
            tuple(table.pins),
            table.standing,
            table.ball,
            (table.remaining[0], table.remaining[1], table.remaining[2]),
            (table.tops[0], table.tops[1], table.tops[2]),
            seen,
        )

    def seen_code(self) -> int:
        return sum(self.seen[v] << (2 * (v - 1)) for v in range(1, 11))


@cache
def _rule_tables(rule: str) -> tuple[IntArray, ...]:
    """What a group rule fixes for every deal: each group's mask, size, first-play permission,
    neighbours and positions (padded with 0), and which of the 1024 standing sets hold it."""
    masks = groups(rule)
    assert len(masks) <= 64, "the search keeps a set of groups in 64 bits"
    size = np.array([len(pins_of(g)) for g in masks], dtype=np.int64)
    first_ok = np.array([first_play_allowed(g) for g in masks], dtype=np.int64)
    neigh = np.array([reach(g) for g in masks], dtype=np.int64)
    where = np.array([[*pins_of(g), 0, 0][:3] for g in masks], dtype=np.int64)
    mask_array = np.array(masks, dtype=np.int64)
    inside = (mask_array[None, :] & ~np.arange(1024, dtype=np.int64)[:, None]) == 0
    return mask_array, size, first_ok, neigh, where, inside


def _group_tables(rule: str, pins: tuple[int, ...]) -> tuple[IntArray, ...]:
    """The deal's tables for the search: the rule's groups; as sets of groups (bit i: group i), the
    groups each ball value can take (`takes`) and per standing set the groups a play may take
    (`playable`: standing, and touching a fallen pin or allowed first); per standing set the values
    still live (`live`, see `_merged_key`) and the values whose card takes every standing pin in
    one play (`clearing`); and per set of live values the copies of all the other values that the
    piles hold (`dead_copies`)."""
    masks, size, first_ok, neigh, where, inside = _rule_tables(rule)
    values = np.array((0, *pins), dtype=np.int64)[where]  # a padding position reads 0
    balls = np.arange(1, 11, dtype=np.int64)
    single = values[:, :1] == balls[None, :]
    summed = (values.sum(axis=1) % 10)[:, None] == balls[None, :] % 10
    match = np.where((size == 1)[:, None], single, summed)  # `matches`, group x ball value
    pin_counts = np.bincount(np.array(pins, dtype=np.int64), minlength=11)
    bits = np.uint64(1) << np.arange(len(masks), dtype=np.uint64)  # the search walks them in group order
    takes = np.zeros(11, dtype=np.uint64)
    takes[1:] = np.bitwise_or.reduce(np.where(match, bits[:, None], np.uint64(0)), axis=0)
    standing = np.arange(1024, dtype=np.int64)
    touching = (neigh[None, :] & ~standing[:, None] & 1023) != 0
    allowed = np.where(standing[:, None] == 1023, first_ok[None, :] != 0, touching) & inside
    playable = np.bitwise_or.reduce(np.where(allowed, bits[None, :], np.uint64(0)), axis=1)
    match_bits = (match.astype(np.int64) << (balls - 1)[None, :]).sum(axis=1)
    live = np.bitwise_or.reduce(np.where(inside, match_bits[None, :], 0), axis=1)
    dead_copies = (~VALUE_BITS).astype(np.int64) @ (COPIES - pin_counts[1:])
    clearing = np.zeros(1024, dtype=np.int64)
    legal_alone = (neigh & ~masks & 1023) != 0  # with only the group standing, the chain rule holds
    np.bitwise_or.at(clearing, masks[legal_alone], match_bits[legal_alone])
    return masks, size, takes.view(np.int64), playable.view(np.int64), pin_counts, live, dead_copies, clearing


@cache
def compiled_search() -> ModuleType:
    """The compiled search (`search`, `rehash`): built ahead of time from the current source if it
    was (no numba to start: `ahead_of_time`), else `solitaire_search` under numba's JIT."""
    from pinsetter.solvers.ahead_of_time import SOLITAIRE, load

    built = load(SOLITAIRE)
    if built is not None:
        return built
    from pinsetter.solvers import solitaire_search

    return solitaire_search


# 32k entries (512 kB), doubled when 85% full: a median deal (about 70,000 merged states) grows it
# twice. A small, dense memo is a fast one (the probes are a good part of the search's time and a
# smaller table keeps more of them in cache): this beat starting at 1, 2 or 4 MB, 70% full, or
# keeping the largest memo a game needed, by 3-20% (issue 30).
MEMO_BITS = 15

Memo = tuple[IntArray, npt.NDArray[np.float64], IntArray]


def _new_memo(bits: int = MEMO_BITS) -> Memo:
    slots = np.full((1 << bits, 2), EMPTY, dtype=np.int64)
    return slots, slots.view(np.float64), np.zeros(2, dtype=np.int64)


def _grown(memo: Memo) -> Memo:
    """A memo twice as large holding every entry of `memo`."""
    larger = _new_memo((len(memo[0]) * 2).bit_length() - 1)
    compiled_search().rehash(*memo[:2], *larger)
    return larger


def _emptied(memo: Memo) -> Memo:
    """A memo with no entry for a new deal's evaluator: the last deal's memory emptied, unless that
    memo grew (then a new one of the starting size, see MEMO_BITS)."""
    if len(memo[0]) > 1 << MEMO_BITS:
        return _new_memo()
    memo[0][:, 0] = EMPTY
    memo[2][:] = 0
    return memo


def _frame_bounds(objective: Objective) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Per ball (rows) and pins standing (columns): the most the rest of the frame can earn, less
    4 ulps (a decision whose best option reaches it looks no further), and what a play taking
    every standing pin earns, summed as the search sums it."""
    p = objective
    most = np.zeros((2, 11))
    clear = np.zeros((2, 11))
    for k in range(1, 11):
        ball2 = [p.ball2 * x + (p.spare if x == k else p.open) for x in range(k + 1)]
        ball1 = [
            p.ball1 * x1 + p.ball2 * x2 + (p.spare if x1 + x2 == k else p.open)
            for x1 in range(k)
            for x2 in range(k - x1 + 1)
        ]
        most[:, k] = max(p.ball1 * k + p.strike, *ball1), max(ball2)
        clear[:, k] = p.ball1 * k + p.strike, p.ball2 * k + p.spare
    return most - 4 * np.spacing(np.abs(most)), clear


class Evaluator:
    """Expectimax for one deal's pins under one group rule and objective, with a shared memo.

    `merge` (the default) memoises equivalent information states under one key (`_merged_key`)
    and takes the exact shortcuts of `_search`; without it the search memoises every information
    state apart, as before issue 30, and is kept to check the merged one against (the same values
    within rounding: the dead cards are summed in one term). `memo`: the memo of an evaluator no
    longer used, emptied and taken over.
    """

    def __init__(
        self, pins: tuple[int, ...], rule: str, objective: Objective, merge: bool = True, memo: Memo | None = None
    ) -> None:
        if len(pins) != len(POSITIONS) or any(v not in VALUES or pins.count(v) > COPIES for v in pins):
            # The search counts the unseen copies of a value as two less those showing: with more
            # showing the count goes negative and never reaches 0, so the search keeps turning up
            # cards that do not exist (its 2-bit counts overflowing into the next value's) and runs
            # through millions of positions to a meaningless value.
            raise ValueError(f"no deal has the pins {pins}: ten values 1-10, at most {COPIES} of each")
        self.pins = pins
        self.rule = rule
        self.group_masks = groups(rule)
        self.tables = _group_tables(rule, pins)
        self.par = objective.as_array()
        self.ceiling, self.clear = _frame_bounds(objective)
        self.merge = merge
        self.memo = _new_memo() if memo is None else _emptied(memo)

    def check(self, p: Position) -> None:
        """Refuse a position this deal cannot reach: other pins, or more copies of a value seen than exist."""
        if p.pins != self.pins:
            raise ValueError(f"the position's pins {p.pins} are not this evaluator's {self.pins}")
        for v in VALUES:
            if self.pins.count(v) + p.seen[v] > COPIES:
                raise ValueError(f"the position has seen {p.seen[v]} pile cards of value {v}: too many")

    def value(self, p: Position) -> float:
        """Value to go at a decision position."""
        self.check(p)
        return self._search(DECIDE, p.standing, p.ball, list(p.remaining), list(p.tops), p.seen_code())

    def _search(self, kind: int, standing: int, ball: int, r: list[int], t: list[int], seen: int) -> float:
        while True:
            value: float = compiled_search().search(
                self.tables, self.merge, self.par, self.ceiling, self.clear, self.memo,
                kind, standing, ball, r[0], r[1], r[2], t[0], t[1], t[2], seen,
            )  # fmt: skip
            if not self.memo[2][1]:
                return float(value)
            self.memo = _grown(self.memo)  # full: again, with what was found kept

    def option_values(self, p: Position, actions: list[Action]) -> list[tuple[Action, float]]:
        """Each action's value to go, best first."""
        self.check(p)
        result = []
        seen = p.seen_code()
        for action in actions:
            if action == STOP:
                if p.ball == 2:
                    value = self.par[4]
                else:
                    r = [max(x - 1, 0) for x in p.remaining]
                    value = self._search(REVEAL, p.standing, 2, r, [0, 0, 0], seen)
            else:
                group = sum(1 << (q - 1) for q in action.pins)
                rest = p.standing & ~group
                value = (self.par[0] if p.ball == 1 else self.par[1]) * len(action.pins)
                if rest == 0:
                    value += self.par[2] if p.ball == 1 else self.par[3]
                else:
                    r, t = list(p.remaining), list(p.tops)
                    r[action.pile - 1] -= 1
                    t[action.pile - 1] = 0
                    value += self._search(REVEAL, rest, p.ball, r, t, seen)
            result.append((action, float(value)))
        result.sort(key=lambda av: -av[1])
        return result


assert FULL == 1023 and len(POSITIONS) == 10  # the compiled code spells these out


# --- the score objective ---------------------------------------------------------------------
# Continuation values: what ending a frame as a strike or a spare is worth in later balls.
# With E1 the expected pins of a fresh deal's first ball, and E2 the expected pins of the
# ball after it (the second ball, or the next deal's first after a strike), a strike owes
# (w2 + 1) * E1 + E2 and a spare E1 more than an open frame; the 10th frame's bonus balls
# are worth the same. E1 and E2 are a fixed point: the expectations of the score player that
# uses them, iterated by `benchmarks/solitaire_continuation.py` over 1,200 seeded deals
# (groups=connected) until the last round moved them by 0.004; 95% sampling error +-0.15 and
# +-0.18 (docs/solitaire.md). Before issue 10 they were 7.7265 and 4.7819, measured with a
# search that undervalued every option leading to a chance node.
FIRST_BALL_PINS = 8.0333
SECOND_BALL_PINS = 5.0669


def score_objective(w1: int, w2: int, first: float = FIRST_BALL_PINS, second: float = SECOND_BALL_PINS) -> Objective:
    """The frame objective under pending bonus weights (w1, w2) on its first two balls.

    `first` and `second` are the continuation values E1 and E2 (the module's by default; the
    continuation benchmark passes its own while it iterates them to a fixed point).
    """
    strike = (w2 + 1) * first + second
    return Objective(1.0 + w1, 1.0 + w2, strike, first, 0.0)


def deal_objective(pinfalls: list[int], deal_ball: int, lane: Lane) -> Objective:
    """The score objective of the deal being played, from the player's pinfalls so far.

    Frames 1-10 use `score_objective`. The 10th frame's bonus deals count only their
    bonus balls: after a 10th-frame strike the first bonus deal's balls weigh 1 + w2
    and 1 (a strike there earns one more fresh deal's first ball); the last bonus
    deal (after X X or a spare) counts its first ball once.
    """
    ctx = next_ball(pinfalls, lane)
    assert ctx is not None, "the game is over"
    _, w1, w2, _ = bonus_weights(pinfalls, lane)
    deal_start = ctx.ball - deal_ball  # the ball of the frame that this deal began with, from 0
    if ctx.frame < lane.frames or deal_start == 0:
        return score_objective(w1, w2)
    if deal_start == 1:
        return Objective(1.0 + w2, 1.0, FIRST_BALL_PINS, 0.0, 0.0)
    return Objective(1.0, 0.0, 0.0, 0.0, 0.0)
