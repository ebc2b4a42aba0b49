"""The Bowling Solitaire expectimax's compiled search, with numba (see `solitaire` for what it computes).

Every function here is compiled: `search` and `rehash` are the entry points the evaluator calls.
They are compiled on first use in a process (numba's JIT, cached on disk), or built ahead of time
into an extension that needs only numpy to run (`ahead_of_time`), which a hint loads instead of
starting numba when it is built from this source.
"""

# mypy: disable-error-code="no-untyped-def"

from __future__ import annotations

import numpy as np

from pinsetter.solvers.compiled import njit
from pinsetter.solvers.solitaire_layout import (
    BALL,
    BEST,
    BIT_INDEX,
    CURSOR,
    CUT,
    DE_BRUIJN,
    DEAD_CARDS,
    DEAD_TOP,
    DECIDE,
    EMPTY,
    FIELD_SUMS,
    FIELDS,
    MAX_DEPTH,
    PENDING,
    PILE,
    POPCOUNT,
    R1,
    R2,
    R3,
    REVEAL,
    REVEAL_FLAG,
    SEEN,
    SLOT,
    STANDING,
    SUMMED,
    T1,
    T2,
    T3,
    TYPE,
)

__all__ = ["rehash", "search"]

# The hot loop touches arrays only by index: an array view (a stack row) or an array taken out of
# a tuple costs two atomic reference-count operations in numba, and those were a third of the time.


@njit(cache=True)
def _home(key, mask):
    """Where the probe for `key` starts; it goes on slot by slot to the key or an empty slot."""
    h = key ^ (key >> 29)
    h = h * -4658895280553007687
    h = h ^ (h >> 32)
    return h & mask


@njit(cache=True)
def rehash(old_slots, old_values, new_slots, new_values, new_meta):
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


@njit(cache=True)
def _pile_code(live_values, ball, most, remaining, top):
    """A pile as the merged key sees it: its size (at most `most`) and its top, dead or not."""
    if top != 0 and (live_values >> (top - 1)) & 1 == 0:
        if ball == 2:
            return 0
        top = DEAD_TOP
    return (min(remaining, most) << 4) | top


@njit(cache=True)
def _merged_key(live_values, dead_copies, standing, ball, r1, r2, r3, t1, t2, t3, seen):
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
def _face_down(code):
    """The cards of a pile (as `_pile_code` gives it) that may still be turned up."""
    return (code >> 4) - ((code & 15) != 0)


@njit(cache=True)
def _node_key(merge, live_values, dead_copies, kind, standing, ball, r1, r2, r3, t1, t2, t3, seen):
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
def _plain_key(standing, ball, r1, r2, r3, t1, t2, t3, seen):
    """The key of the information state as it is."""
    return (
        standing | ((ball - 1) << 10) | (r1 << 11) | (r2 << 14) | (r3 << 16)
        | (t1 << 18) | (t2 << 22) | (t3 << 26) | (seen << 30)
    )  # fmt: skip


@njit(cache=True)
def search(g, merge, par, ceiling, clear, memo, kind, standing, ball, r1, r2, r3, t1, t2, t3, seen):
    """Expectimax value of a node (a decision, or a chance node turning up cards), iteratively.

    A node on top of the stack goes through its options (or cards) in one pass, taking every
    child's memoised value as it comes, until a child must be searched: that child is pushed.
    """
    masks, size, takes, playable, pin_counts, live, dead_copies, clearing = g
    slots, values, meta = memo
    mask = len(slots) - 1
    stack = np.zeros((MAX_DEPTH, 13), dtype=np.int64)
    acc = np.zeros((MAX_DEPTH, 4))
    cut = -np.inf  # the root's exact value is wanted
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
            acc[depth, CUT] = cut
            acc[depth, SUMMED] = 0.0
            depth += 1
        d = depth - 1
        index = -1  # no child to push, unless one is found missing below
        solved = False
        pruned = False
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
                # Merged: a play taking every pin for the most the frame can still earn is the
                # decision's value. Else stopping ball 2 (worth an open frame) comes first, and
                # stopping ball 1 last (PILE 3), with the best play known: it may be cut off.
                stack[d, PILE] = 0
                tops = (1 << t1 >> 1) | (1 << t2 >> 1) | (1 << t3 >> 1)
                if merge and k <= 3 and ceiling[ball - 1, k] <= clear[ball - 1, k] and clearing[standing] & tops:
                    best = clear[ball - 1, k]
                    stack[d, PILE] = 4
                elif ball == 2:
                    best = par[4]
            # Then every play, pile by pile: the groups the top takes, walked as a set (CURSOR: those
            # left, -1 before the pile's first).
            while index < 0 and stack[d, PILE] < 3:
                if merge and best >= ceiling[ball - 1, k]:
                    break  # the best option so far earns the most the frame can: none can beat it
                pile = stack[d, PILE]
                top = stack[d, T1 + pile]
                if top == 0 or (live_values >> (top - 1)) & 1 == 0:  # no card, or one nothing matches
                    stack[d, PILE] += 1
                    stack[d, CURSOR] = -1
                    continue
                left = stack[d, CURSOR]
                if left == -1:  # never a set left: some group was taken out of it
                    left = takes[top] & playable[standing]
                while left != 0:
                    lowest = left & -left
                    left ^= lowest
                    candidate = BIT_INDEX[((lowest * DE_BRUIJN) >> 58) & 63]
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
                            cut = best - immediate
                            standing, r1, r2, r3, t1, t2, t3, pile = rest, c1, c2, c3, u1, u2, u3, child_pile
                            break
                    if value > best:
                        best = value
                        if merge and best >= ceiling[ball - 1, k]:
                            break
                stack[d, CURSOR] = left
                if index < 0 and left == 0:
                    stack[d, PILE] += 1
                    stack[d, CURSOR] = -1
            if index < 0 and ball == 1 and stack[d, PILE] < 4:
                stack[d, PILE] = 4
                if not (merge and best >= ceiling[0, k]):
                    key, pile = _node_key(
                        merge, live_values, dead_copies[live_values], REVEAL, standing, 2,
                        max(r1 - 1, 0), max(r2 - 1, 0), max(r3 - 1, 0), 0, 0, 0, seen,
                    )  # fmt: skip
                    index = _probe(slots, key, mask)
                    if slots[index, 0] == key and not np.isnan(values[index, 1]):
                        if values[index, 1] > best:
                            best = values[index, 1]
                        index = -1
                    else:
                        acc[d, PENDING] = 0.0
                        cut = best
                        ball, r1, r2, r3, t1, t2, t3 = 2, max(r1 - 1, 0), max(r2 - 1, 0), max(r3 - 1, 0), 0, 0, 0
            acc[d, BEST] = best
            solved = index < 0
        else:
            # A chance node: the next card of pile PILE, live value by live value, then (merged)
            # the dead values together, turning up the first of them.
            pile = stack[d, PILE]
            dead = dead_copies[live_values]
            expected = acc[d, BEST]
            v = stack[d, CURSOR]
            summed = acc[d, SUMMED]
            total = 10 - FIELD_SUMS[seen & 1023] - FIELD_SUMS[seen >> 10]  # the cards unseen
            cut_here = acc[d, CUT]
            most = ceiling[ball - 1, POPCOUNT[standing]]
            margin = 1e-9 * (abs(cut_here) + abs(most) + 1.0)
            if merge:
                # Every card's child key shares all but the turned-up pile's code and the seen counts:
                # the rest of `_merged_key` is worked out once for the node.
                plays = POPCOUNT[standing] + (ball == 1)
                if pile == 0:
                    turned, ra, ta, rb, tb = r1, r2, t2, r3, t3
                elif pile == 1:
                    turned, ra, ta, rb, tb = r2, r1, t1, r3, t3
                else:
                    turned, ra, ta, rb, tb = r3, r1, t1, r2, t2
                other1 = _pile_code(live_values, ball, plays, ra, ta)
                other2 = _pile_code(live_values, ball, plays, rb, tb)
                if other1 > other2:
                    other1, other2 = other2, other1
                next_pile = -1  # the child's pile to turn up: the next one with cards but no top
                if pile < 1 and r2 > 0 and t2 == 0:
                    next_pile = 1
                elif pile < 2 and r3 > 0 and t3 == 0:
                    next_pile = 2
                base = standing | ((ball - 1) << 10) | (REVEAL_FLAG if next_pile >= 0 else 0)
                fields = FIELDS[live_values]
                live_seen = seen & fields
                dead_seen = seen & ~fields
                dead_unseen = dead - FIELD_SUMS[dead_seen & 1023] - FIELD_SUMS[dead_seen >> 10]
            while v <= DEAD_CARDS:
                if expected + (total - summed) * most < (cut_here - margin) * total:
                    pruned = True  # even if every card left earned the most, the parent's best stays
                    break
                card = v
                weight = 0
                if v < DEAD_CARDS:
                    if (live_values >> (v - 1)) & 1:
                        weight = _unseen(pin_counts[v], seen, v)
                elif merge:
                    weight = dead_unseen
                    if weight > 0:
                        card = 1
                        while (live_values >> (card - 1)) & 1 or _unseen(pin_counts[card], seen, card) == 0:
                            card += 1
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
                if merge:
                    code = _pile_code(live_values, ball, plays, turned, card)
                    a, b, c = other1, other2, code
                    if b > c:
                        b, c = c, b
                        if a > b:
                            a, b = b, a
                    key = base | (a << 11) | (b << 18) | (c << 25)
                    if _face_down(a) + _face_down(b) + _face_down(c) != 0:
                        if v <= DEAD_CARDS:  # a live card (v is past it)
                            key |= ((live_seen + (1 << (2 * (card - 1)))) << 32) | (dead_unseen << 52)
                        else:
                            key |= (live_seen << 32) | ((dead_unseen - 1) << 52)
                    child_pile = next_pile
                else:
                    key, child_pile = _node_key(
                        merge, live_values, dead, REVEAL, standing, ball, r1, r2, r3, u1, u2, u3, after
                    )
                index = _probe(slots, key, mask)
                if slots[index, 0] == key and not np.isnan(values[index, 1]):
                    expected += weight * values[index, 1]
                    summed += weight
                    index = -1
                else:
                    acc[d, PENDING] = weight
                    # A decision's exact value is wanted; a chance node is cut off below what would
                    # cut this one off (even with the cards after it earning the most).
                    cut = -np.inf
                    if child_pile >= 0:
                        cut = ((cut_here - margin) * total - expected - (total - summed - weight) * most) / weight
                    t1, t2, t3, seen, pile = u1, u2, u3, after, child_pile
                    break
            stack[d, CURSOR] = v
            acc[d, BEST] = expected
            acc[d, SUMMED] = summed
            if index < 0:  # every card tried: the expectation is complete
                acc[d, BEST] /= total
                solved = True
        while solved:
            # Memoise the node in its slot, pop it and hand its value to its parent.
            result = acc[d, BEST]
            if meta[1]:
                return result  # full: stop (the caller grows the memo and searches again)
            depth -= 1
            if pruned:
                # No value: the slot stays unsolved (NaN), searched again if it is wanted. Its parent
                # is a decision whose best the option cannot beat, or a chance node cut off with it
                # (popped in the next round).
                d -= 1
                if stack[d, TYPE] == DECIDE:
                    pruned = False
                    solved = False
                continue
            values[stack[d, SLOT], 1] = result
            if depth == 0:
                return result
            d -= 1
            if stack[d, TYPE] == DECIDE:
                value = acc[d, PENDING] + result
                if value > acc[d, BEST]:
                    acc[d, BEST] = value
            else:
                acc[d, BEST] += acc[d, PENDING] * result
                acc[d, SUMMED] += acc[d, PENDING]
            solved = False  # the parent goes on with its next option or card in the next pass


@njit(cache=True)
def _probe(slots, key, mask):
    """The slot holding `key`, or the empty slot where it belongs."""
    index = _home(key, mask)
    while slots[index, 0] != EMPTY and slots[index, 0] != key:
        index = (index + 1) & mask
    return index


@njit(cache=True)
def _unseen(showing, seen, value):
    """Copies of a card value not yet seen: two, less those `showing` on pins and the pile cards seen."""
    return 2 - showing - ((seen >> (2 * (value - 1))) & 3)
