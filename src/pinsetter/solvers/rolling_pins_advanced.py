"""The exact optimal policy of advanced Rolling Pins (RULES.md section 2, "Advanced game").

The basic solver's model (ball problems with a multiplier m, values "expected
future points", frames solved last to first) carries over; what the advanced
game adds is the player's *kit*: the ability track's marks (T) and the one-use
abilities held (H: Reroll, Flip, Extra Pin, Extra Dice and Auto Strike, each
at most the number of its areas completed; Ten Pin is a flag of T). In a ball
the state is (standing S, tokens t, kit, Extra Dice active x); at a frame start
it is (kit, tokens, pending bonus). docs/rolling-pins.md ("Advanced game:
solving it") counts these states and explains the solve order:

- kits are numbered by marks on the track, then track, then held abilities in
  mixed radix, so that *using* an ability always leads to an earlier kit and a
  *mark* to a later one, and the kits of frame k (at most 2 marks a frame) are
  a prefix of the numbering;
- a ball problem is solved level by level (the number of standing pins, as the
  basic solver), every track's kits at once in a compiled loop (numba), over
  whatever set of kits is asked: all of a frame's for the whole game, or only
  those a player can reach from their own kit, for a hint.

Values are exact expected points; marks are valued by the best choice of boxes
(the operator M below), the abilities by trying every legal use.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from pinsetter.games.rolling_pins import DEFAULT_SHEET, Area

__all__ = ["HELD_ABILITIES", "Kits", "Variant"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

# The one-use abilities a kit holds, in the order of the held-count digits.
HELD_ABILITIES = ("reroll", "flip", "extra-pin", "extra-dice", "auto-strike")
REROLL, FLIP, EXTRA_PIN, EXTRA_DICE, AUTO_STRIKE = range(5)


@dataclass(frozen=True)
class Variant:
    """The game being solved: the default one, or a smaller one for brute-force checks.

    `grey[k]` are the grey pins of frame k+1 (any number, usually two); `areas` the
    ability track (the lower row opens once every upper box is marked; a track with
    no lower area is allowed here, though the engine's sheets have five of each).
    """

    pins: int = 10
    frames: int = 10
    grey: tuple[tuple[int, ...], ...] = DEFAULT_SHEET.grey
    areas: tuple[Area, ...] = DEFAULT_SHEET.areas
    auto_held: bool = False  # Auto Strike's reading: False "next" (the rules), True "held" (the variant)
    token_gain: int = 1

    def __post_init__(self) -> None:
        if len(self.grey) < self.frames:
            raise ValueError("a grey pin set is needed for every frame")
        if any(not 1 <= p <= self.pins for g in self.grey for p in g):
            raise ValueError("grey pins must be pins of the rack")

    def grey_mask(self, frame: int) -> int:
        return sum(1 << (p - 1) for p in set(self.grey[frame - 1]))

    @cached_property
    def kits(self) -> Kits:
        return Kits.of(self.areas)


@dataclass(frozen=True)
class Kits:
    """Every kit (track marks, held abilities) of one track, numbered as the module docstring says.

    Per kit: its track, the held counts, the kit after using one of each held ability
    (`use`, -1 when none is held), the kits after one mark in each open area (`succ`,
    -1 padded; a kit with no open area has none, and a mark earned there is dropped).
    """

    areas: tuple[Area, ...]
    tracks: tuple[tuple[int, ...], ...]  # marks per area, ordered by total marks then marks
    track_marks: IntArray
    track_start: IntArray  # kits of track i are track_start[i] .. track_start[i+1]-1
    completed: IntArray  # per track: areas completed of each held ability (HELD_ABILITIES order)
    ten_pin: BoolArray  # per track: a Ten Pin area is complete
    kit_track: IntArray
    held: IntArray  # per kit, HELD_ABILITIES order
    use: IntArray  # per kit and ability
    succ: IntArray  # per kit, up to one per area
    has_open: BoolArray  # per kit: some area is open (else marks are dropped)
    extra_dice_used: BoolArray  # per kit: an Extra Dice of the track was used (it may be active)
    _index: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = field(repr=False, compare=False)

    @property
    def count(self) -> int:
        return len(self.kit_track)

    @classmethod
    def of(cls, areas: tuple[Area, ...]) -> Kits:
        boxes = [a.boxes for a in areas]
        upper = [i for i, a in enumerate(areas) if not a.lower]
        lower = [i for i, a in enumerate(areas) if a.lower]
        tracks = []
        for marks in itertools.product(*(range(b + 1) for b in boxes)):
            upper_full = all(marks[i] == boxes[i] for i in upper)
            if upper_full or not any(marks[i] for i in lower):
                tracks.append(marks)
        tracks.sort(key=lambda m: (sum(m), m))
        completed = np.zeros((len(tracks), len(HELD_ABILITIES)), dtype=np.int64)
        ten = np.zeros(len(tracks), dtype=np.bool_)
        for t, marks in enumerate(tracks):
            for i, a in enumerate(areas):
                if marks[i] == a.boxes:
                    if a.ability == "ten-pin":
                        ten[t] = True
                    else:
                        completed[t, HELD_ABILITIES.index(a.ability)] += 1
        starts = [0]
        kit_track: list[int] = []
        held: list[tuple[int, ...]] = []
        index: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
        for t, marks in enumerate(tracks):
            # Mixed radix, first ability the fastest digit: one use less is an earlier kit.
            ranges = [range(c + 1) for c in completed[t]]
            for digits in itertools.product(*reversed(ranges)):
                h = tuple(reversed(digits))
                index[(marks, h)] = len(kit_track)
                kit_track.append(t)
                held.append(h)
            starts.append(len(kit_track))
        count = len(kit_track)
        use = np.full((count, len(HELD_ABILITIES)), -1, dtype=np.int64)
        succ = np.full((count, len(areas)), -1, dtype=np.int64)
        has_open = np.zeros(count, dtype=np.bool_)
        used_dice = np.zeros(count, dtype=np.bool_)
        for k in range(count):
            marks, h = tracks[kit_track[k]], held[k]
            for ab in range(len(HELD_ABILITIES)):
                if h[ab]:
                    use[k, ab] = index[(marks, (*h[:ab], h[ab] - 1, *h[ab + 1 :]))]
            used_dice[k] = completed[kit_track[k], EXTRA_DICE] > h[EXTRA_DICE]
            upper_full = all(marks[i] == boxes[i] for i in upper)
            n = 0
            for i, a in enumerate(areas):
                if marks[i] < a.boxes and (upper_full or not a.lower):
                    after = (*marks[:i], marks[i] + 1, *marks[i + 1 :])
                    gained = list(h)
                    if after[i] == a.boxes and a.ability != "ten-pin":
                        gained[HELD_ABILITIES.index(a.ability)] += 1
                    succ[k, n] = index[(after, tuple(gained))]
                    n += 1
            has_open[k] = n > 0
        return cls(
            areas=areas,
            tracks=tuple(tracks),
            track_marks=np.array([sum(m) for m in tracks], dtype=np.int64),
            track_start=np.array(starts, dtype=np.int64),
            completed=completed,
            ten_pin=ten,
            kit_track=np.array(kit_track, dtype=np.int64),
            held=np.array(held, dtype=np.int64).reshape(count, len(HELD_ABILITIES)),
            use=use,
            succ=succ,
            has_open=has_open,
            extra_dice_used=used_dice,
            _index=index,
        )

    def index(self, marks: Sequence[int], held: Sequence[int]) -> int:
        """The kit of these marks per area and held counts (HELD_ABILITIES order)."""
        return self._index[(tuple(marks), tuple(held))]

    def marks(self, kit: int) -> int:
        return int(self.track_marks[self.kit_track[kit]])

    def prefix(self, marks: int) -> int:
        """How many kits have at most `marks` marks (they come first)."""
        return int(self.track_start[int(np.searchsorted(self.track_marks, marks, side="right"))])

    def closure(self, roots: Iterable[int], marks: int) -> IntArray:
        """The kits reachable from `roots` by up to `marks` marks and any uses, sorted."""
        seen = set(roots)
        frontier = set(seen)
        for _ in range(marks):
            frontier = {int(s) for k in frontier for s in self.succ[k] if s >= 0} - seen
            seen |= frontier
        stack = list(seen)
        while stack:
            k = stack.pop()
            for u in self.use[k]:
                if u >= 0 and int(u) not in seen:
                    seen.add(int(u))
                    stack.append(int(u))
        return np.array(sorted(seen), dtype=np.int64)


# --- counting the states -------------------------------------------------------------


def frame_start_kits(variant: Variant) -> list[BoolArray]:
    """The kits a player can hold at the start of each frame (after its marks are made).

    A frame before the last gives at most two marks (a strike: one, or two when Extra
    Pin's last pin is grey; otherwise one per grey pin crossed after ball 1), and any
    held ability can be used in it, the ones just earned included. With the rules'
    Auto Strike ("next") a held Auto Strike is used at once: that frame is a strike
    with one mark and nothing else is used; one earned in a frame is still held when
    the next starts. `frames` masks over the kits, frame 1 first.
    """
    kits = variant.kits
    reach = np.zeros(kits.count, dtype=np.bool_)
    reach[kits.index((0,) * len(kits.areas), (0,) * len(HELD_ABILITIES))] = True
    result = [reach]
    for _frame in range(1, variant.frames):
        nxt = np.zeros(kits.count, dtype=np.bool_)
        for k in np.flatnonzero(reach):
            if not variant.auto_held and kits.held[k, AUTO_STRIKE]:
                used = int(kits.use[k, AUTO_STRIKE])
                after = [int(s) for s in kits.succ[used] if s >= 0] or [used]
                nxt[after] = True
                continue
            nxt[_frame_closure(kits, int(k), 2, variant.auto_held)] = True
        reach = nxt
        result.append(reach)
    return result


def _frame_closure(kits: Kits, kit: int, marks: int, auto_usable: bool) -> list[int]:
    """Kits after up to `marks` marks and any uses (Auto Strike's only if `auto_usable`)."""
    seen = {kit}
    stack = [(kit, 0)]
    found = {(kit, 0)}
    while stack:
        k, made = stack.pop()
        steps = [(int(u), made) for a, u in enumerate(kits.use[k]) if u >= 0 and (a != AUTO_STRIKE or auto_usable)]
        if made < marks:
            steps += [(int(s), made + 1) for s in kits.succ[k] if s >= 0]
        for step in steps:
            if step not in found:
                found.add(step)
                seen.add(step[0])
                stack.append(step)
    return sorted(seen)


@dataclass(frozen=True)
class FrameCount:
    """The states of one frame (see `state_counts`)."""

    frame: int
    kits: int  # kits held at the frame start
    frame_starts: int  # (kit, tokens, pending bonus)
    ball_kits: int  # kits held at some point of the frame's balls
    ball_one: int  # (standing, tokens, kit, Extra Dice active, pending bonus) of ball 1
    ball_two: int  # (standing, tokens, kit, Extra Dice active, multiplier) of ball 2 (and bonus balls)


def pending_bonuses(frame: int) -> int:
    """How many pending (w1, w2) bonus pairs can open frame k: (0,0); then (1,0), (1,1); then (2,1)."""
    return 1 if frame == 1 else 3 if frame == 2 else 4


def state_counts(variant: Variant) -> list[FrameCount]:
    """Reachable states per frame: at its start, and the decision points of its balls.

    In a ball a decision point before a roll is (standing pins, tokens, kit, Extra Dice
    active); the dice of a roll are not counted (they are summed over at once). Tokens
    in frame k are 0..k (one gained per frame); every set of standing pins can occur.
    The last frame's balls include its bonus balls (three ball problems of their own).
    """
    kits = variant.kits
    size = 1 << variant.pins
    counts = []
    starts = frame_start_kits(variant)
    for frame, reach in enumerate(starts, start=1):
        ids = np.flatnonzero(reach)
        extra = int(kits.extra_dice_used[ids].sum())
        last = frame == variant.frames
        in_frame = kits.closure((int(k) for k in ids), 4 if last else 2)
        extra_in = int(kits.extra_dice_used[in_frame].sum())
        tokens = frame * variant.token_gain + 1
        pending = pending_bonuses(frame)
        multipliers = 1 if frame == 1 else 2  # ball 2 counts once or twice (after a strike)
        problems = 2 * multipliers + 2 if last else multipliers  # last frame: + bonus balls
        counts.append(
            FrameCount(
                frame=frame,
                kits=len(ids),
                frame_starts=len(ids) * (tokens - variant.token_gain) * pending,
                ball_kits=len(in_frame),
                ball_one=size * tokens * (len(ids) + extra) * pending,
                ball_two=size * tokens * (len(in_frame) + extra_in) * problems,
            )
        )
    return counts


# --- tables of dice and of pins ------------------------------------------------------

MAX_MULTISETS = 56  # three dice


@dataclass(frozen=True)
class DiceTables:
    """The rolls of one, two and three dice by their faces sorted (index [k] = k dice).

    prob: the share of the 6**k rolls that give it; total: its sum; flip: the rolls after
    turning one die of each distinct face (-1 padded); keep: the rolls of k-1 dice kept
    (Extra Dice), as indices into the k-1 dice table; cost and double_five: Ten Pin's
    tokens for a pair and whether it is 5+5.
    """

    faces: tuple[tuple[tuple[int, ...], ...], ...]
    count: IntArray
    prob: FloatArray
    total: IntArray
    flip: IntArray
    keep: IntArray
    cost: IntArray
    double_five: BoolArray


def dice_tables() -> DiceTables:
    faces: list[tuple[tuple[int, ...], ...]] = [()]
    for k in (1, 2, 3):
        faces.append(tuple(sorted({tuple(sorted(d)) for d in itertools.product(range(1, 7), repeat=k)})))
    count = np.array([len(f) for f in faces], dtype=np.int64)
    prob = np.zeros((4, MAX_MULTISETS))
    total = np.zeros((4, MAX_MULTISETS), dtype=np.int64)
    flip = np.full((4, MAX_MULTISETS, 3), -1, dtype=np.int64)
    keep = np.full((4, MAX_MULTISETS, 3), -1, dtype=np.int64)
    cost = np.zeros(MAX_MULTISETS, dtype=np.int64)
    double_five = np.zeros(MAX_MULTISETS, dtype=np.bool_)
    for k in (1, 2, 3):
        where = {f: i for i, f in enumerate(faces[k])}
        for d in itertools.product(range(1, 7), repeat=k):
            prob[k, where[tuple(sorted(d))]] += 6.0**-k
        for i, f in enumerate(faces[k]):
            total[k, i] = sum(f)
            for j, face in enumerate(sorted(set(f))):
                turned = list(f)
                turned[turned.index(face)] = 7 - face
                flip[k, i, j] = where[tuple(sorted(turned))]
            if k > 1:
                kept = sorted({tuple(sorted(c)) for c in itertools.combinations(f, k - 1)})
                below = {g: x for x, g in enumerate(faces[k - 1])}
                for j, c in enumerate(kept):
                    keep[k, i, j] = below[c]
            if k == 2:
                cost[i] = abs(f[0] - 5) + abs(f[1] - 5)
                double_five[i] = f == (5, 5)
    return DiceTables(tuple(faces), count, prob, total, flip, keep, cost, double_five)


DICE = dice_tables()


@dataclass(frozen=True)
class PinTables:
    """For every set S of standing pins: its non-empty subsets by increasing sum (CSR), popcounts."""

    pins: int
    sub_start: IntArray
    sub_mask: IntArray
    sub_sum: IntArray
    popcount: IntArray
    sums: IntArray
    levels: tuple[IntArray, ...]  # the sets with 1, 2, ... pins standing


_PIN_TABLES: dict[int, PinTables] = {}


def pin_tables(pins: int) -> PinTables:
    found = _PIN_TABLES.get(pins)
    if found is not None:
        return found
    size = 1 << pins
    sums = np.array([sum(i + 1 for i in range(pins) if s >> i & 1) for s in range(size)], dtype=np.int64)
    popcount = np.array([bin(s).count("1") for s in range(size)], dtype=np.int64)
    start = [0]
    masks: list[int] = []
    for s in range(size):
        subs = []
        sub = s
        while sub:
            subs.append(sub)
            sub = (sub - 1) & s
        subs.sort(key=lambda a: (sums[a], a))
        masks += subs
        start.append(len(masks))
    mask_array = np.array(masks, dtype=np.int64)
    levels = tuple(np.flatnonzero(popcount == p).astype(np.int64) for p in range(1, pins + 1))
    found = _PIN_TABLES[pins] = PinTables(
        pins, np.array(start, dtype=np.int64), mask_array, sums[mask_array], popcount, sums, levels
    )
    return found


# --- the compiled ball solver --------------------------------------------------------
#
# A ball problem over a set of kits ("domain", numbered locally 0..L-1) fills
# U[row, S, t] = V - m|S|, V the expected points still to come (this ball's pins
# included) at a decision before a roll with S standing and t tokens; row is the
# kit (Extra Dice not active) or L + i for the i-th kit that may have it active
# (`xrow`). U[row, 0, t] is the value of clearing the rack. End values come in:
#   CM[j, l, t]   the next position after a clear, j more marks to make (the strike's
#                 included: a fresh rack's clear makes one);
#   MM0/MM1[mm_row[l], S * mm_s, t] + mm_add * |S|   the next position after a miss
#                 with S standing, with 0 or 1 more marks (Extra Pin on a grey pin).
# Crossing a set A with g grey pins (ball 2) leads to M_g U, the best g marks:
# M1/M2, made level by level (`_mark_level`) as soon as a level is done.

NEG = -1e18


@njit(cache=True, fastmath=True)
def _state(
    s_set: int,
    kit: int,
    x: int,
    first: int,
    full: int,
    pins: int,
    fresh: bool,
    auto_next: bool,
    pin_grey: int,
    m: float,
    use: IntArray,
    held: IntArray,
    ten: BoolArray,
    xrow: IntArray,
    sub_start: IntArray,
    sub_mask: IntArray,
    sub_sum: IntArray,
    grey_count: IntArray,
    popcount: IntArray,
    cm: FloatArray,
    mm0: FloatArray,
    mm1: FloatArray,
    mm_row: IntArray,
    mm_s: int,
    mm_add: float,
    u: FloatArray,
    m1: FloatArray,
    m2: FloatArray,
    d_count: IntArray,
    d_prob: FloatArray,
    d_total: IntArray,
    d_flip: IntArray,
    d_keep: IntArray,
    d_cost: IntArray,
    d_five: BoolArray,
    g: FloatArray,
    up: FloatArray,
    dn1: FloatArray,
    dn2: FloatArray,
    a1: FloatArray,
    a2: FloatArray,
    miss: FloatArray,
    aft: FloatArray,
    nfl: FloatArray,
    roll: FloatArray,
    acc: FloatArray,
) -> None:
    """U at one (standing, kit, Extra Dice) for every token count; `first` is the kit's track's first kit."""
    tt = u.shape[2]
    top = 12 + tt - 1  # the largest sum a roll can reach: two sixes and every token
    row = kit if x == 0 else xrow[kit]
    lg = kit - first
    # g[s, t]: the best crossing of pins summing to s, leaving t tokens (U of what is left).
    for s in range(top + 1):
        for t in range(tt):
            g[s, t] = NEG
    for j in range(sub_start[s_set], sub_start[s_set + 1]):
        total = sub_sum[j]
        if total > top:
            break
        a = sub_mask[j]
        rest = s_set ^ a
        marks = grey_count[a]
        if marks == 0:
            for t in range(tt):
                v = u[row, rest, t]
                if v > g[total, t]:
                    g[total, t] = v
        elif marks == 1:
            for t in range(tt):
                v = m1[row, rest, t]
                if v > g[total, t]:
                    g[total, t] = v
        else:
            for t in range(tt):
                v = m2[row, rest, t]
                if v > g[total, t]:
                    g[total, t] = v
    # The miss: end the ball, or Extra Pin one standing pin (it counts for this ball).
    standing = popcount[s_set]
    here = mm_row[kit]
    for t in range(tt):
        miss[t] = mm0[here, s_set * mm_s, t] + mm_add * standing
    if held[kit, 2] > 0:
        spent = use[kit, 2]
        there = mm_row[spent]
        for p in range(pins):
            if s_set >> p & 1:
                rest = s_set & ~(1 << p)
                grey = (pin_grey >> p) & 1
                for t in range(tt):
                    if rest == 0:
                        v = m + cm[(1 if fresh else 0) + grey, spent, t]
                    elif grey == 0:
                        v = m + mm0[there, rest * mm_s, t] + mm_add * (standing - 1)
                    else:
                        v = m + mm1[there, rest * mm_s, t] + mm_add * (standing - 1)
                    if v > miss[t]:
                        miss[t] = v
    for t in range(tt):
        miss[t] -= m * standing
    # Answers to a kept total r with t tokens: sums r-d..r+d for d tokens (a die never below 1).
    for t in range(tt):
        up[top + 1, t] = NEG
        dn1[0, t] = NEG
        dn2[0, t] = NEG
        dn2[1, t] = NEG
    for s in range(top, 0, -1):
        up[s, 0] = g[s, 0]
        for t in range(1, tt):
            v = up[s + 1, t - 1]
            up[s, t] = v if v > g[s, t] else g[s, t]
    for s in range(1, top + 1):
        dn1[s, 0] = g[s, 0]
        for t in range(1, tt):
            v = dn1[s - 1, t - 1]
            dn1[s, t] = v if v > g[s, t] else g[s, t]
    for s in range(2, top + 1):
        dn2[s, 0] = g[s, 0]
        for t in range(1, tt):
            v = dn2[s - 1, t - 1]
            dn2[s, t] = v if v > g[s, t] else g[s, t]
    for r in range(1, 7):
        for t in range(tt):
            v = miss[t]
            if up[r, t] > v:
                v = up[r, t]
            if dn1[r, t] > v:
                v = dn1[r, t]
            a1[r, t] = v
    for r in range(2, 13):
        for t in range(tt):
            v = miss[t]
            if up[r, t] > v:
                v = up[r, t]
            if dn2[r, t] > v:
                v = dn2[r, t]
            a2[r, t] = v
    # aft[0]: one kept die; aft[1]: a kept pair, Ten Pin included (a double five is a strike, nothing else).
    for i in range(6):
        for t in range(tt):
            aft[0, i, t] = a1[i + 1, t]
    ten_pin = fresh and s_set == full and ten[kit]
    for i in range(d_count[2]):
        r = d_total[2, i]
        for t in range(tt):
            v = a2[r, t]
            if ten_pin and t >= d_cost[i]:
                strike = cm[1, kit, t - d_cost[i]]
                if d_five[i] or strike > v:
                    v = strike
            aft[1, i, t] = v
    flips = held[kit, 1] > 0
    flipped_kit = use[kit, 1] - first
    rerolls = held[kit, 0] > 0
    rerolled_kit = use[kit, 0] - first
    for c in range(2):
        k = c + 1 + x  # dice rolled
        for i in range(d_count[k]):
            for t in range(tt):
                if x == 0:
                    v = aft[c, i, t]
                else:
                    v = NEG
                    for j in range(3):
                        kept = d_keep[k, i, j]
                        if kept < 0:
                            break
                        if aft[c, kept, t] > v:
                            v = aft[c, kept, t]
                if flips:
                    for j in range(3):
                        turned = d_flip[k, i, j]
                        if turned < 0:
                            break
                        w = nfl[flipped_kit, x, c, turned, t]
                        if w > v:
                            v = w
                nfl[lg, x, c, i, t] = v
        for t in range(tt):
            acc[t] = 0.0
        for i in range(d_count[k]):
            p = d_prob[k, i]
            for t in range(tt):
                v = nfl[lg, x, c, i, t]
                if rerolls:
                    w = roll[rerolled_kit, x, c, t]
                    if w > v:
                        v = w
                acc[t] += p * v
        for t in range(tt):
            roll[lg, x, c, t] = acc[t]
    # Before the roll: one die or two, Extra Dice first, or an Auto Strike on a fresh rack.
    auto = fresh and s_set == full and held[kit, 4] > 0
    for t in range(tt):
        v = roll[lg, x, 0, t]
        if roll[lg, x, 1, t] > v:
            v = roll[lg, x, 1, t]
        if x == 0 and held[kit, 3] > 0:
            w = u[xrow[use[kit, 3]], s_set, t]
            if w > v:
                v = w
        if auto:
            w = cm[1, use[kit, 4], t]
            if auto_next or w > v:
                v = w
        u[row, s_set, t] = v


@njit(cache=True, parallel=True)
def _solve_level(
    states: IntArray,
    items: IntArray,
    group_start: IntArray,
    hmax: int,
    full: int,
    pins: int,
    fresh: bool,
    auto_next: bool,
    pin_grey: int,
    m: float,
    use: IntArray,
    held: IntArray,
    ten: BoolArray,
    xrow: IntArray,
    sub_start: IntArray,
    sub_mask: IntArray,
    sub_sum: IntArray,
    grey_count: IntArray,
    popcount: IntArray,
    cm: FloatArray,
    mm0: FloatArray,
    mm1: FloatArray,
    mm_row: IntArray,
    mm_s: int,
    mm_add: float,
    u: FloatArray,
    m1: FloatArray,
    m2: FloatArray,
    d_count: IntArray,
    d_prob: FloatArray,
    d_total: IntArray,
    d_flip: IntArray,
    d_keep: IntArray,
    d_cost: IntArray,
    d_five: BoolArray,
    workers: int,
) -> None:
    """One level (number of standing pins) of a ball problem: every track's kits, workers in parallel."""
    tt = u.shape[2]
    top = 12 + tt - 1
    for w in prange(workers):
        g = np.empty((top + 2, tt))
        up = np.empty((top + 2, tt))
        dn1 = np.empty((top + 2, tt))
        dn2 = np.empty((top + 2, tt))
        a1 = np.empty((7, tt))
        a2 = np.empty((13, tt))
        miss = np.empty(tt)
        aft = np.empty((2, MAX_MULTISETS, tt))
        nfl = np.empty((hmax, 2, 2, MAX_MULTISETS, tt))
        roll = np.empty((hmax, 2, 2, tt))
        acc = np.empty(tt)
        for item in range(w, len(items), workers):
            group = items[item]
            first = group_start[group]
            for s_set in states:
                for kit in range(first, group_start[group + 1]):
                    for x in (1, 0):
                        if x == 1 and xrow[kit] < 0:
                            continue
                        _state(
                            s_set, kit, x, first, full, pins, fresh, auto_next, pin_grey, m,
                            use, held, ten, xrow, sub_start, sub_mask, sub_sum, grey_count, popcount,
                            cm, mm0, mm1, mm_row, mm_s, mm_add, u, m1, m2,
                            d_count, d_prob, d_total, d_flip, d_keep, d_cost, d_five,
                            g, up, dn1, dn2, a1, a2, miss, aft, nfl, roll, acc,
                        )  # fmt: skip


@njit(cache=True, parallel=True)
def _mark_level(
    states: IntArray, succ: IntArray, has_open: BoolArray, xrow: IntArray, src: FloatArray, dst: FloatArray
) -> None:
    """dst = M src at these sets of standing pins: the best box for one more mark (none open: as it is)."""
    kits = succ.shape[0]
    tt = src.shape[2]
    for index in prange(kits):
        kit = np.int64(index)
        for x in range(2):
            row = kit if x == 0 else xrow[kit]
            if row < 0:
                continue
            for s_set in states:
                for t in range(tt):
                    if not has_open[kit]:
                        dst[row, s_set, t] = src[row, s_set, t]
                        continue
                    best = NEG
                    for j in range(succ.shape[1]):
                        nxt = succ[kit, j]
                        if nxt < 0:
                            continue
                        r = nxt if x == 0 else xrow[nxt]
                        if src[r, s_set, t] > best:
                            best = src[r, s_set, t]
                    dst[row, s_set, t] = best


# --- domains: the kits a ball problem is solved for -------------------------------------


@dataclass(frozen=True)
class Domain:
    """A set of kits closed under using abilities, numbered locally (tracks stay together).

    `ids` are the kits' global numbers (or, for the last ball's signatures, their own);
    `succ` is local, -1 where a mark leaves the domain (a position the domain's ball
    never reaches). Rows of U: one per kit, then one per kit whose Extra Dice may be active.
    """

    ids: IntArray
    use: IntArray
    held: IntArray
    ten: BoolArray
    xrow: IntArray
    succ: IntArray
    has_open: BoolArray
    group_start: IntArray

    @property
    def size(self) -> int:
        return len(self.ids)

    @property
    def rows(self) -> int:
        return int(max(self.size, int(self.xrow.max(initial=-1)) + 1))

    @property
    def hmax(self) -> int:
        return int(np.diff(self.group_start).max(initial=1))

    @classmethod
    def of(cls, kits: Kits, ids: IntArray) -> Domain:
        ids = np.asarray(ids, dtype=np.int64)
        local = np.full(kits.count, -1, dtype=np.int64)
        local[ids] = np.arange(len(ids))
        use = np.where(kits.use[ids] >= 0, local[np.maximum(kits.use[ids], 0)], -1)
        if ((kits.use[ids] >= 0) & (use < 0)).any():
            raise ValueError("a domain must hold the kits its abilities lead to")
        succ = np.where(kits.succ[ids] >= 0, local[np.maximum(kits.succ[ids], 0)], -1)
        tracks = kits.kit_track[ids]
        starts = np.flatnonzero(np.r_[True, tracks[1:] != tracks[:-1]])
        xrow = np.full(len(ids), -1, dtype=np.int64)
        active = np.flatnonzero(kits.extra_dice_used[ids])
        xrow[active] = len(ids) + np.arange(len(active))
        return cls(
            ids=ids,
            use=use,
            held=kits.held[ids],
            ten=kits.ten_pin[tracks],
            xrow=xrow,
            succ=succ,
            has_open=kits.has_open[ids],
            group_start=np.r_[starts, len(ids)].astype(np.int64),
        )


@dataclass(frozen=True)
class Signatures:
    """The last ball's view of a kit: only the abilities held and Ten Pin matter then.

    Nothing marked in the game's last ball can be used, so its values depend on the
    kit's held counts and Ten Pin flag alone: a few hundred signatures instead of
    thousands of kits.
    """

    domain: Domain
    of_kit: IntArray  # the signature of every kit

    @classmethod
    def of(cls, kits: Kits) -> Signatures:
        radix = kits.completed.max(axis=0) + 1
        combos = int(np.prod(radix))
        stride = np.cumprod(np.r_[1, radix[:-1]]).astype(np.int64)
        held = np.zeros((2 * combos, len(HELD_ABILITIES)), dtype=np.int64)
        for index in range(combos):
            held[index] = held[combos + index] = (index // stride) % radix
        base = np.arange(2 * combos, dtype=np.int64)
        use = np.where(held > 0, base[:, None] - stride[None, :], -1)
        domain = Domain(
            ids=base,
            use=use,
            held=held,
            ten=np.r_[np.zeros(combos, dtype=np.bool_), np.ones(combos, dtype=np.bool_)],
            xrow=base + 2 * combos,
            succ=np.full((2 * combos, 1), -1, dtype=np.int64),
            has_open=np.zeros(2 * combos, dtype=np.bool_),
            group_start=np.array([0, combos, 2 * combos], dtype=np.int64),
        )
        of_kit = kits.ten_pin[kits.kit_track] * combos + kits.held @ stride
        return cls(domain, of_kit.astype(np.int64))


@dataclass(frozen=True)
class Ball:
    """One ball problem: its rack, grey pins, multiplier and end values (see `_state`)."""

    fresh: bool
    cross_grey: int  # grey pins that mark when crossed by a roll (ball 2 of frames 1-10)
    pin_grey: int  # grey pins that mark when crossed by Extra Pin (any ball of frames 1-10)
    multiplier: int
    cm: FloatArray  # (3, kits, tokens)
    mm0: FloatArray  # (rows, 1 or 2**pins, tokens)
    mm1: FloatArray
    mm_row: IntArray
    mm_s: int
    mm_add: float


def solve_ball(
    variant: Variant, domain: Domain, ball: Ball, tokens: int, progress: Callable[[float], None] | None = None
) -> tuple[FloatArray, FloatArray | None]:
    """U of one ball problem over a domain (and M1 U when crossing grey pins marks), level by level."""
    import numba

    pins = pin_tables(variant.pins)
    size = 1 << variant.pins
    full = size - 1
    tt = tokens + 1
    rows = domain.rows
    u = np.empty((rows, size, tt))
    marking = ball.cross_grey != 0
    m1 = np.empty((rows, size, tt)) if marking else np.empty((1, 1, 1))
    m2 = np.empty((rows, size, tt)) if marking else np.empty((1, 1, 1))
    for x in range(2):
        kits = np.arange(domain.size) if x == 0 else np.flatnonzero(domain.xrow >= 0)
        rows_x = kits if x == 0 else domain.xrow[kits]
        u[rows_x, 0, :] = ball.cm[0 if not ball.fresh else 1, kits, :]
        if marking:
            m1[rows_x, 0, :] = ball.cm[1, kits, :]
            m2[rows_x, 0, :] = ball.cm[2, kits, :]
    grey_count = pins.popcount[np.arange(size) & ball.cross_grey]
    sizes = np.diff(domain.group_start)
    items = np.argsort(-sizes, kind="stable").astype(np.int64)
    workers = numba.get_num_threads()
    weights = [len(level) << p for p, level in enumerate(pins.levels, start=1)]
    done = 0
    for level, weight in zip(pins.levels, weights, strict=True):
        _solve_level(
            level, items, domain.group_start, domain.hmax, full, variant.pins, ball.fresh,
            not variant.auto_held, ball.pin_grey, float(ball.multiplier),
            domain.use, domain.held, domain.ten, domain.xrow,
            pins.sub_start, pins.sub_mask, pins.sub_sum, grey_count, pins.popcount,
            ball.cm, ball.mm0, ball.mm1, ball.mm_row, ball.mm_s, ball.mm_add, u, m1, m2,
            DICE.count, DICE.prob, DICE.total, DICE.flip, DICE.keep, DICE.cost, DICE.double_five, workers,
        )  # fmt: skip
        if marking:
            _mark_level(level, domain.succ, domain.has_open, domain.xrow, u, m1)
            _mark_level(level, domain.succ, domain.has_open, domain.xrow, m1, m2)
        done += weight
        if progress is not None:
            progress(weight / sum(weights))
    return u, (m1 if marking else None)


# --- the whole game, frame by frame --------------------------------------------------------

PENDING = ((0, 0), (1, 0), (1, 1), (2, 1))


def pendings(frame: int) -> tuple[tuple[int, int], ...]:
    """The (w1, w2) bonus pairs that can open frame k (see `pending_bonuses`)."""
    return PENDING[: pending_bonuses(frame)]


def mark_max(kits: Kits, values: FloatArray, times: int) -> FloatArray:
    """M^times over the last axis (kits): the best boxes for `times` more marks, one by one."""
    for _ in range(times):
        gathered = np.where(kits.succ >= 0, values[..., np.maximum(kits.succ, 0)], NEG)
        values = np.where(kits.has_open, gathered.max(axis=-1), values)
    return values


def clear_values(kits: Kits, next_clear: FloatArray, domain: Domain) -> FloatArray:
    """CM[j, kit, t]: the next position's value (tokens by kit) after 0, 1 or 2 more marks."""
    return np.stack([mark_max(kits, next_clear, j)[:, domain.ids].T for j in range(3)]).copy()


def by_kit(kits: Kits, domain: Domain, values: FloatArray) -> FloatArray:
    """(tokens, every kit) from (domain kits, tokens); NEG for kits outside the domain."""
    result = np.full((values.shape[1], kits.count), NEG)
    result[:, domain.ids] = values.T
    return result


@dataclass
class Solution:
    """Frame-start values: frame_values[(k, w1, w2)][tokens before the frame's token, kit].

    `first_frame` is 1 once the whole game is solved (a suffix k..frames otherwise).
    """

    variant: Variant
    frame_values: dict[tuple[int, int, int], FloatArray] = field(default_factory=dict)
    first_frame: int = 0
    seconds: float = 0.0

    @property
    def expected_score(self) -> float:
        """The optimal expected final score of a whole game."""
        if self.first_frame != 1:
            raise ValueError(f"only frames {self.first_frame} to {self.variant.frames} are solved")
        return float(self.frame_values[(1, 0, 0)][0, 0])


def ball_work(variant: Variant, frame: int) -> float:
    """A rough cost of a frame's ball problems (kits x tokens x problems), for progress bars."""
    kits = variant.kits
    tokens = frame * variant.token_gain + 1
    if frame == variant.frames:
        top = kits.prefix(2 * frame)
        later = 2 * (1 if frame == 1 else 2) * top
        return tokens * (later + len(pendings(frame)) * kits.prefix(2 * frame - 2))
    later = (1 if frame == 1 else 2) * kits.prefix(2 * frame)
    return tokens * (later + len(pendings(frame)) * kits.prefix(2 * frame - 2))


def solve(variant: Variant, progress: Callable[[float], None] | None = None, down_to: int = 1) -> Solution:
    """Solve frames `variant.frames` down to `down_to` (1: the whole game), last frame first."""
    start = time.perf_counter()
    kits = variant.kits
    n, gain = variant.pins, variant.token_gain
    size = 1 << n
    full = size - 1
    solution = Solution(variant)
    total_work = sum(ball_work(variant, k) for k in range(down_to, variant.frames + 1))

    def tick(share: float, frame: int, problems: float) -> Callable[[float], None] | None:
        if progress is None:
            return None
        weight = ball_work(variant, frame) / total_work / problems
        return lambda part: progress(part * weight * share)

    f = variant.frames
    tokens = f * gain
    sig = Signatures.of(kits)
    rows = sig.domain.size
    last_problems = 2 * (1 if f == 1 else 2) + len(pendings(f))
    zeros_cm = np.zeros((3, rows, tokens + 1))
    zeros_mm = np.zeros((1, 1, tokens + 1))
    none = np.zeros(rows, dtype=np.int64)
    # The game's last ball: a fresh bonus rack, or what the first bonus ball left.
    last = Ball(True, 0, 0, 1, zeros_cm, zeros_mm, zeros_mm, none, 0, 0.0)
    u_last, _ = solve_ball(variant, sig.domain, last, tokens, None)
    bonus_start = (n + u_last[: sig.domain.size, full, :])[sig.of_kit].T.copy()  # (tokens, kit)
    last = Ball(False, 0, 0, 1, zeros_cm, zeros_mm, zeros_mm, none, 0, 0.0)
    u_last3, _ = solve_ball(variant, sig.domain, last, tokens, None)
    grey = variant.grey_mask(f)
    top = Domain.of(kits, np.arange(kits.prefix(2 * f)))
    before = Domain.of(kits, np.arange(kits.prefix(2 * f - 2)))
    clear_after_strike: dict[int, FloatArray] = {}
    second: dict[int, tuple[FloatArray, FloatArray]] = {}
    for w2 in sorted({w2 for _, w2 in pendings(f)}):
        cm = clear_values(kits, bonus_start, top)
        ball = Ball(True, 0, 0, 1 + w2, cm, u_last3, u_last3, sig.of_kit[top.ids], 1, 1.0)
        u, _ = solve_ball(variant, top, ball, tokens, tick(1 / last_problems, f, 1))
        clear_after_strike[w2] = by_kit(kits, top, (1 + w2) * n + u[: top.size, full, :])
        del u
        nothing = np.zeros((1, 1, tokens + 1))
        ball = Ball(False, grey, grey, 1 + w2, cm, nothing, nothing, np.zeros(top.size, dtype=np.int64), 0, 0.0)
        u, m1 = solve_ball(variant, top, ball, tokens, tick(1 / last_problems, f, 1))
        assert m1 is not None
        second[w2] = (u[: top.size].copy(), m1[: top.size].copy())
        del u, m1
    for w1, w2 in pendings(f):
        cm = clear_values(kits, clear_after_strike[w2], before)
        u2, m12 = second[w2]
        ball = Ball(True, 0, grey, 1 + w1, cm, u2, m12, np.arange(before.size), 1, float(1 + w2))
        u, _ = solve_ball(variant, before, ball, tokens, tick(1 / last_problems, f, 1))
        solution.frame_values[(f, w1, w2)] = by_kit(kits, before, (1 + w1) * n + u[: before.size, full, gain:])
        del u
    del second
    # Frames before the last, backwards.
    for frame in range(f - 1, down_to - 1, -1):
        tokens = frame * gain
        grey = variant.grey_mask(frame)
        after = Domain.of(kits, np.arange(kits.prefix(2 * frame)))
        before = Domain.of(kits, np.arange(kits.prefix(2 * frame - 2)))
        values = solution.frame_values
        problems = (1 if frame == 1 else 2) + len(pendings(frame))
        open_end = values[(frame + 1, 0, 0)]
        mm = [mark_max(kits, open_end, j)[:, after.ids].T[:, None, :].copy() for j in range(2)]
        cm = clear_values(kits, values[(frame + 1, 1, 0)], after)
        second = {}
        for m2 in (1,) if frame == 1 else (1, 2):
            ball = Ball(False, grey, grey, m2, cm, mm[0], mm[1], np.arange(after.size), 0, 0.0)
            u, m1 = solve_ball(variant, after, ball, tokens, tick(1 / problems, frame, 1))
            assert m1 is not None
            second[m2 - 1] = (u[: after.size].copy(), m1[: after.size].copy())
            del u, m1
        for w1, w2 in pendings(frame):
            cm1 = clear_values(kits, values[(frame + 1, w2 + 1, 1)], before)
            u2, m12 = second[w2]
            ball = Ball(True, 0, grey, 1 + w1, cm1, u2, m12, np.arange(before.size), 1, float(1 + w2))
            u, _ = solve_ball(variant, before, ball, tokens, tick(1 / problems, frame, 1))
            values[(frame, w1, w2)] = by_kit(kits, before, (1 + w1) * n + u[: before.size, full, gain:])
            del u
        del second
    solution.first_frame = down_to
    solution.seconds = time.perf_counter() - start
    return solution
