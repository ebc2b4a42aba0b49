"""No-peeking expectimax for Bowling Solitaire, compiled with numba.

Within a deal the player knows the ten pin values, the face-up tops, how many
cards each pile holds and which pile cards have been seen; every arrangement of
the unseen cards is equally likely, so a card turned up is drawn uniformly from
the unseen ones. The information state packs into one 64-bit key:

    standing (10 bits) | deal ball (1) | pile sizes (3+2+2) | tops (3 x 4) | seen pile cards (10 x 2)

and the expectimax memoises on it. The objective of a frame is linear:
m1 * (pins in ball 1) + m2 * (pins in ball 2) + the continuation value of
ending it as a strike, a spare or open (see `Objective`).

The rules here are a compiled copy of the engine's (`games/bowling_solitaire.py`,
whose tables it reads); tests hold the two together by comparing this search
with a plain expectimax through the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

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
from pinsetter.solvers.compiled import njit

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
    size = np.array([len(pins_of(g)) for g in masks], dtype=np.int64)
    first_ok = np.array([first_play_allowed(g) for g in masks], dtype=np.int64)
    neigh = np.array([reach(g) for g in masks], dtype=np.int64)
    where = np.array([[*pins_of(g), 0, 0][:3] for g in masks], dtype=np.int64)
    mask_array = np.array(masks, dtype=np.int64)
    inside = (mask_array[None, :] & ~np.arange(1024, dtype=np.int64)[:, None]) == 0
    return mask_array, size, first_ok, neigh, where, inside


def _group_tables(rule: str, pins: tuple[int, ...]) -> tuple[IntArray, ...]:
    """The deal's tables for the search: the rule's groups, the groups each ball value can take
    (`flat`, listed by value from `starts`), per standing set the values still live (`live`, see
    `_merged_key`) and the values whose card takes every standing pin in one play (`clearing`),
    and per set of live values the copies of all the other values that the piles hold
    (`dead_copies`)."""
    masks, size, first_ok, neigh, where, inside = _rule_tables(rule)
    values = np.array((0, *pins), dtype=np.int64)[where]  # a padding position reads 0
    balls = np.arange(1, 11, dtype=np.int64)
    single = values[:, :1] == balls[None, :]
    summed = (values.sum(axis=1) % 10)[:, None] == balls[None, :] % 10
    match = np.where((size == 1)[:, None], single, summed)  # `matches`, group x ball value
    pin_counts = np.bincount(np.array(pins, dtype=np.int64), minlength=11)
    starts = np.zeros(12, dtype=np.int64)
    starts[2:] = np.cumsum(match.sum(axis=0))
    flat = np.nonzero(match.T)[1].astype(np.int64)  # by ball value, then in group order
    match_bits = (match.astype(np.int64) << (balls - 1)[None, :]).sum(axis=1)
    live = np.bitwise_or.reduce(np.where(inside, match_bits[None, :], 0), axis=1)
    dead_copies = (~VALUE_BITS).astype(np.int64) @ (COPIES - pin_counts[1:])
    clearing = np.zeros(1024, dtype=np.int64)
    legal_alone = (neigh & ~masks & 1023) != 0  # with only the group standing, the chain rule holds
    np.bitwise_or.at(clearing, masks[legal_alone], match_bits[legal_alone])
    return masks, size, first_ok, neigh, pin_counts, starts, flat, live, dead_copies, clearing


# --- the compiled search ------------------------------------------------------------------
# A memo is an open-addressing hash table of (key, value) pairs side by side (a probe reads one
# cache line): `slots` (capacity x 2 int64: the key, -1 = empty, then the value's bits), `values`
# (the same memory seen as float64) and `meta` = [count, full]. A node claims its slot when it is
# opened (value NaN until solved: no value of any objective is NaN) and writes its value there when
# solved. When the memo is 85% full it takes no more and says so (`meta[1]`): the search stops, the
# memo is doubled (solved entries only) and the search resumed.
#
# The hot loop touches arrays only by index: an array view (a stack row) or an array taken out of
# a tuple costs two atomic reference-count operations in numba, and those were a third of the time.

EMPTY = -1
REVEAL_FLAG = 1 << 62  # marks a chance node's key (the state before cards are turned up)


@njit(cache=True)
def _home(key, mask):  # type: ignore[no-untyped-def]
    """Where the probe for `key` starts; it goes on slot by slot to the key or an empty slot."""
    h = key ^ (key >> 29)
    h = h * -4658895280553007687
    h = h ^ (h >> 32)
    return h & mask


@njit(cache=True)
def _rehash(old_slots, old_values, new_slots, new_values, new_meta):  # type: ignore[no-untyped-def]
    """Every solved entry of the old memo into the empty, larger one."""
    for index in range(len(old_slots)):
        key = old_slots[index, 0]
        if key != EMPTY and not np.isnan(old_values[index, 1]):
            slot = _probe(new_slots, key, len(new_slots) - 1)
            new_slots[slot, 0] = key
            new_values[slot, 1] = old_values[index, 1]
            new_meta[0] += 1


# --- equivalent information states share a key ------------------------------------------------
# Pins only fall, so a card value that no group of the standing pins matches (`live[standing]`
# lacks it) can never be played again in the deal: it is *dead*. Positions that differ only in
# dead cards have the same future, so the key (`merge`) records:
# - per live value the pile copies seen (two bits, as before); of the dead values only how many
#   copies are still unseen, together (a card turned up is dead with that weight, whichever);
# - a dead top as "dead" in ball 1 (it is burned at the stop like any top) and, in ball 2, as an
#   empty pile (nothing will ever take it, and the stop ends the frame);
# - a pile's size at most the plays left plus the stop's burn (each play takes a pin): cards
#   beyond that are never turned up;
# - the three piles as a sorted set: which pile holds what does not matter;
# - no unseen cards at all when no pile has a card left to turn up.
# The plain key (`merge` off, the search before issue 30) keeps the information state as it is.

DEAD_TOP = 15
VALUE_BITS = (np.arange(1024)[:, None] >> np.arange(10)[None, :]) & 1 == 1  # value set x value
FIELDS = (VALUE_BITS * (3 << (2 * np.arange(10)))).sum(axis=1)  # a value set's seen-count fields
FIELD_SUMS = ((np.arange(1024)[:, None] >> (2 * np.arange(5))[None, :]) & 3).sum(axis=1)
POPCOUNT = VALUE_BITS.sum(axis=1)


@njit(cache=True)
def _pile_code(live_values, ball, most, remaining, top):  # type: ignore[no-untyped-def]
    """A pile as the merged key sees it: its size (at most `most`) and its top, dead or not."""
    if top != 0 and (live_values >> (top - 1)) & 1 == 0:
        if ball == 2:
            return 0
        top = DEAD_TOP
    return (min(remaining, most) << 4) | top


@njit(cache=True)
def _merged_key(live_values, dead_copies, standing, ball, r1, r2, r3, t1, t2, t3, seen):  # type: ignore[no-untyped-def]
    """The key of an information state shared by all those it is equivalent to (see above)."""
    most = POPCOUNT[standing] + (ball == 1)
    a = _pile_code(live_values, ball, most, r1, t1)
    b = _pile_code(live_values, ball, most, r2, t2)
    c = _pile_code(live_values, ball, most, r3, t3)
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    key = standing | ((ball - 1) << 10) | (a << 11) | (b << 18) | (c << 25)
    if _face_down(a) + _face_down(b) + _face_down(c) == 0:
        return key  # no card will be turned up any more: what is unseen no longer matters
    fields = FIELDS[live_values]
    dead_seen = seen & ~fields
    dead_unseen = dead_copies - FIELD_SUMS[dead_seen & 1023] - FIELD_SUMS[dead_seen >> 10]
    return key | ((seen & fields) << 32) | (dead_unseen << 52)


@njit(cache=True)
def _face_down(code):  # type: ignore[no-untyped-def]
    """The cards of a pile (as `_pile_code` gives it) that may still be turned up."""
    return (code >> 4) - ((code & 15) != 0)


@njit(cache=True)
def _node_key(merge, live_values, dead_copies, kind, standing, ball, r1, r2, r3, t1, t2, t3, seen):  # type: ignore[no-untyped-def]
    """A node's memo key, and the pile whose top it turns up if it is a chance node (else -1).

    A chance node turns up the first pile with cards but no top; with none it is the decision.
    """
    pile = -1
    if kind == REVEAL:
        if r1 > 0 and t1 == 0:
            pile = 0
        elif r2 > 0 and t2 == 0:
            pile = 1
        elif r3 > 0 and t3 == 0:
            pile = 2
    if merge:
        key = _merged_key(live_values, dead_copies, standing, ball, r1, r2, r3, t1, t2, t3, seen)
    else:
        key = _plain_key(standing, ball, r1, r2, r3, t1, t2, t3, seen)
    return key | (REVEAL_FLAG if pile >= 0 else 0), pile


@njit(cache=True)
def _plain_key(standing, ball, r1, r2, r3, t1, t2, t3, seen):  # type: ignore[no-untyped-def]
    """The key of the information state as it is."""
    return (
        standing | ((ball - 1) << 10) | (r1 << 11) | (r2 << 14) | (r3 << 16)
        | (t1 << 18) | (t2 << 22) | (t3 << 26) | (seen << 30)
    )  # fmt: skip


DECIDE, REVEAL = 0, 1
MAX_DEPTH = 128
DEAD_CARDS = 11  # a chance node's cursor after value 10: the dead values' turn, together
# Fields of a stack frame.
TYPE, STANDING, BALL, R1, R2, R3, T1, T2, T3, SEEN, SLOT, PILE, CURSOR = range(13)
BEST, PENDING = 0, 1  # float fields: best (or expected) so far, the pending child's weight/offset


@njit(cache=True)
def _search(g, merge, par, ceiling, clear, memo, kind, standing, ball, r1, r2, r3, t1, t2, t3, seen):  # type: ignore[no-untyped-def]
    """Expectimax value of a node (a decision, or a chance node turning up cards), iteratively.

    A node on top of the stack goes through its options (or cards) in one pass, taking every
    child's memoised value as it comes, until a child must be searched: that child is pushed.
    """
    masks, size, first_ok, neigh, pin_counts, starts, flat, live, dead_copies, clearing = g
    slots, values, meta = memo
    mask = len(slots) - 1
    stack = np.zeros((MAX_DEPTH, 13), dtype=np.int64)
    acc = np.zeros((MAX_DEPTH, 2))
    live_values = live[standing] if merge else 1023
    key, pile = _node_key(
        merge, live_values, dead_copies[live_values], kind, standing, ball, r1, r2, r3, t1, t2, t3, seen
    )
    index = _probe(slots, key, mask)
    if slots[index, 0] == key and not np.isnan(values[index, 1]):
        return values[index, 1]
    depth = 0
    while True:
        if index >= 0:
            # Push the child (kind, ..., seen) found missing at `index`, claiming its slot there: its
            # value goes straight in when it is solved.
            if slots[index, 0] != key:
                if meta[0] * 20 >= len(slots) * 17:
                    meta[1] = 1  # full: stop at the next node solved, to resume with a larger memo
                else:
                    slots[index, 0] = key
                    meta[0] += 1
            values[index, 1] = np.nan
            stack[depth, TYPE] = DECIDE if pile < 0 else REVEAL
            stack[depth, STANDING] = standing
            stack[depth, BALL] = ball
            stack[depth, R1] = r1
            stack[depth, R2] = r2
            stack[depth, R3] = r3
            stack[depth, T1] = t1
            stack[depth, T2] = t2
            stack[depth, T3] = t3
            stack[depth, SEEN] = seen
            stack[depth, SLOT] = index
            stack[depth, PILE] = pile  # DECIDE: -1 until the stop option is done
            stack[depth, CURSOR] = -1 if pile < 0 else 1  # REVEAL: next card value to try
            # A decision keeps a maximum (from -inf, so that no value is ruled out); a chance node a
            # weighted sum (from 0). Issue 10: starting every node at -1.0 made a search from a chance
            # node come out 1/(unseen cards) too low.
            acc[depth, BEST] = -np.inf if pile < 0 else 0.0
            acc[depth, PENDING] = 0.0
            depth += 1
        d = depth - 1
        index = -1  # no child to push, unless one is found missing below
        solved = False
        standing = stack[d, STANDING]
        ball = stack[d, BALL]
        r1, r2, r3 = stack[d, R1], stack[d, R2], stack[d, R3]
        t1, t2, t3 = stack[d, T1], stack[d, T2], stack[d, T3]
        seen = stack[d, SEEN]
        live_values = live[standing] if merge else 1023
        if stack[d, TYPE] == DECIDE:
            k = POPCOUNT[standing]
            best = acc[d, BEST]
            if stack[d, PILE] == -1:
                # The first option: stop the ball (merged: unless a play takes every pin for the most
                # the frame can still earn; then that is the decision's value).
                stack[d, PILE] = 0
                tops = (1 << t1 >> 1) | (1 << t2 >> 1) | (1 << t3 >> 1)
                if merge and k <= 3 and ceiling[ball - 1, k] <= clear[ball - 1, k] and clearing[standing] & tops:
                    best = clear[ball - 1, k]
                    stack[d, PILE] = 3
                elif ball == 2:
                    best = par[4]
                else:
                    key, pile = _node_key(
                        merge, live_values, dead_copies[live_values], REVEAL, standing, 2,
                        max(r1 - 1, 0), max(r2 - 1, 0), max(r3 - 1, 0), 0, 0, 0, seen,
                    )  # fmt: skip
                    index = _probe(slots, key, mask)
                    if slots[index, 0] == key and not np.isnan(values[index, 1]):
                        best = values[index, 1]
                        index = -1
                    else:
                        acc[d, PENDING] = 0.0
                        ball, r1, r2, r3, t1, t2, t3 = 2, max(r1 - 1, 0), max(r2 - 1, 0), max(r3 - 1, 0), 0, 0, 0
            # Then every play, pile by pile.
            cleared = 1023 & ~standing
            while index < 0 and stack[d, PILE] < 3:
                if merge and best >= ceiling[ball - 1, k]:
                    break  # the best option so far earns the most the frame can: none can beat it
                pile = stack[d, PILE]
                top = stack[d, T1 + pile]
                if top == 0 or (live_values >> (top - 1)) & 1 == 0:  # no card, or one nothing matches
                    stack[d, PILE] += 1
                    stack[d, CURSOR] = -1
                    continue
                cursor = stack[d, CURSOR]
                if cursor < 0:
                    cursor = starts[top]
                while cursor < starts[top + 1]:
                    candidate = flat[cursor]
                    cursor += 1
                    if masks[candidate] & ~standing:
                        continue
                    if standing == 1023:
                        if first_ok[candidate] == 0:
                            continue
                    elif neigh[candidate] & cleared == 0:
                        continue
                    immediate = (par[0] if ball == 1 else par[1]) * size[candidate]
                    rest = standing & ~masks[candidate]
                    if rest == 0:
                        value = immediate + (par[2] if ball == 1 else par[3])
                    else:
                        c1, c2, c3 = r1 - (pile == 0), r2 - (pile == 1), r3 - (pile == 2)
                        u1, u2, u3 = t1 * (pile != 0), t2 * (pile != 1), t3 * (pile != 2)
                        rest_live = live[rest] if merge else 1023
                        key, child_pile = _node_key(
                            merge, rest_live, dead_copies[rest_live], REVEAL, rest, ball, c1, c2, c3, u1, u2, u3, seen
                        )
                        index = _probe(slots, key, mask)
                        if slots[index, 0] == key and not np.isnan(values[index, 1]):
                            value = immediate + values[index, 1]
                            index = -1
                        else:
                            acc[d, PENDING] = immediate
                            standing, r1, r2, r3, t1, t2, t3, pile = rest, c1, c2, c3, u1, u2, u3, child_pile
                            break
                    if value > best:
                        best = value
                        if merge and best >= ceiling[ball - 1, k]:
                            break
                stack[d, CURSOR] = cursor
                if index < 0 and cursor >= starts[top + 1]:
                    stack[d, PILE] += 1
                    stack[d, CURSOR] = -1
            acc[d, BEST] = best
            solved = index < 0
        else:
            # A chance node: the next card of pile PILE, live value by live value, then (merged)
            # the dead values together, turning up the first of them.
            pile = stack[d, PILE]
            dead = dead_copies[live_values]
            expected = acc[d, BEST]
            v = stack[d, CURSOR]
            while v <= DEAD_CARDS:
                card = v
                weight = 0
                if v < DEAD_CARDS:
                    if (live_values >> (v - 1)) & 1:
                        weight = _unseen(pin_counts[v], seen, v)
                else:
                    card = 0
                    for w in range(1, 11):
                        copies = _unseen(pin_counts[w], seen, w)
                        if (live_values >> (w - 1)) & 1 == 0 and copies > 0:
                            weight += copies
                            card = w if card == 0 else card
                v += 1
                if weight == 0:
                    continue
                u1, u2, u3 = (card if pile == 0 else t1), (card if pile == 1 else t2), (card if pile == 2 else t3)
                after = seen + (1 << (2 * (card - 1)))
                key, child_pile = _node_key(
                    merge, live_values, dead, REVEAL, standing, ball, r1, r2, r3, u1, u2, u3, after
                )
                index = _probe(slots, key, mask)
                if slots[index, 0] == key and not np.isnan(values[index, 1]):
                    expected += weight * values[index, 1]
                    index = -1
                else:
                    acc[d, PENDING] = weight
                    t1, t2, t3, seen, pile = u1, u2, u3, after, child_pile
                    break
            stack[d, CURSOR] = v
            acc[d, BEST] = expected
            if index < 0:  # every card tried: the expectation is complete
                total = 0
                for w in range(1, 11):
                    total += _unseen(pin_counts[w], seen, w)
                acc[d, BEST] /= total
                solved = True
        while solved:
            # Memoise the node in its slot, pop it and hand its value to its parent.
            result = acc[d, BEST]
            if meta[1]:
                return result  # full: stop (the caller grows the memo and searches again)
            values[stack[d, SLOT], 1] = result
            depth -= 1
            if depth == 0:
                return result
            d -= 1
            if stack[d, TYPE] == DECIDE:
                value = acc[d, PENDING] + result
                if value > acc[d, BEST]:
                    acc[d, BEST] = value
            else:
                acc[d, BEST] += acc[d, PENDING] * result
            solved = False  # the parent goes on with its next option or card in the next pass


@njit(cache=True)
def _probe(slots, key, mask):  # type: ignore[no-untyped-def]
    """The slot holding `key`, or the empty slot where it belongs."""
    index = _home(key, mask)
    while slots[index, 0] != EMPTY and slots[index, 0] != key:
        index = (index + 1) & mask
    return index


@njit(cache=True)
def _unseen(showing, seen, value):  # type: ignore[no-untyped-def]
    """Copies of a card value not yet seen: two, less those `showing` on pins and the pile cards seen."""
    return 2 - showing - ((seen >> (2 * (value - 1))) & 3)


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
    _rehash(*memo[:2], *larger)
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
            value: float = _search(
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
