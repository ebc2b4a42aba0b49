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

import contextlib
import hashlib
import io
import itertools
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pinsetter.core.files import write_atomically
from pinsetter.games.rolling_pins import DEFAULT_SHEET, Area
from pinsetter.solvers.compiled import njit, prange

if TYPE_CHECKING:
    from pinsetter.games.rolling_pins import RollingPins

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

    @classmethod
    def of_game(cls, game: RollingPins) -> Variant:
        """The advanced game a RollingPins game plays: its sheet, frames, Auto Strike and tokens."""
        sheet = game.sheet
        frames = game.lane.frames
        return cls(
            pins=game.lane.pins,
            frames=frames,
            grey=sheet.grey[:frames],
            areas=sheet.areas,
            auto_held=game.auto_strike_held,
            token_gain=1 if game.options["tokens"] else 0,
        )

    def grey_mask(self, frame: int) -> int:
        return sum(1 << (p - 1) for p in set(self.grey[frame - 1]))

    @property
    def kits(self) -> Kits:
        return _kits(self.areas)


@lru_cache(maxsize=8)
def _kits(areas: tuple[Area, ...]) -> Kits:
    """The kits of a track, made once (a bot, a hint and a solve of the same sheet share them)."""
    return Kits.of(areas)


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

    def after_mark(self, kit: int, area: int) -> int:
        """The kit after marking a box of `area` (completing it grants its ability)."""
        marks = list(self.tracks[self.kit_track[kit]])
        held = list(self.held[kit])
        marks[area] += 1
        spec = self.areas[area]
        if marks[area] == spec.boxes and spec.ability != "ten-pin":
            held[HELD_ABILITIES.index(spec.ability)] += 1
        return self.index(marks, held)

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
    row = kit if x == 0 else xrow[kit]
    lg = kit - first
    # The largest sum a roll can reach (two sixes and every token), or the standing pins' sum.
    top = 0
    for p in range(pins):
        if s_set >> p & 1:
            top += p + 1
    if top > 12 + tt - 1:
        top = 12 + tt - 1
    rows = top if top > 12 else 12
    # g[s, t]: the best crossing of pins summing to s, leaving t tokens (U of what is left).
    for s in range(rows + 1):
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
    # Answers to a kept total r (1..12) with t tokens: sums r-d..r+d for d tokens, a die never
    # below 1 (two dice never make 1). up: sums r+d; dn: sums r-d, 2 and above; sum 1 apart.
    for t in range(tt):
        up[top + 1, t] = NEG
        dn2[1, t] = NEG
    for s in range(top, 0, -1):
        up[s, 0] = g[s, 0]
        for t in range(1, tt):
            v = up[s + 1, t - 1]
            up[s, t] = v if v > g[s, t] else g[s, t]
    for s in range(top + 2, 13):
        for t in range(tt):
            up[s, t] = NEG
    for s in range(2, 13):
        dn2[s, 0] = g[s, 0]
        for t in range(1, tt):
            v = dn2[s - 1, t - 1]
            dn2[s, t] = v if v > g[s, t] else g[s, t]
    for r in range(1, 7):
        for t in range(tt):
            v = miss[t]
            if up[r, t] > v:
                v = up[r, t]
            if r >= 2 and dn2[r, t] > v:
                v = dn2[r, t]
            if t >= r - 1 and g[1, t - r + 1] > v:
                v = g[1, t - r + 1]
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
                            g, up, dn2, a1, a2, miss, aft, nfl, roll, acc,
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


@njit(cache=True)
def _point(
    s_set: int,
    target: int,
    x_target: int,
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
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """The parts of one decision point's value, for hints: (aft, nfl, roll, miss) as `_state` makes them.

    Its track's kits up to `target` are gone through at this set of standing pins (the
    target last, with `x_target`), so that the kits a Flip or Reroll leads to are ready;
    U is rewritten with the values it holds.
    """
    tt = u.shape[2]
    top = 12 + tt - 1
    hmax = target - first + 1
    g = np.empty((top + 2, tt))
    up = np.empty((top + 2, tt))
    dn2 = np.empty((top + 2, tt))
    a1 = np.empty((7, tt))
    a2 = np.empty((13, tt))
    miss = np.empty(tt)
    aft = np.empty((2, MAX_MULTISETS, tt))
    nfl = np.empty((hmax, 2, 2, MAX_MULTISETS, tt))
    roll = np.empty((hmax, 2, 2, tt))
    acc = np.empty(tt)
    for kit in range(first, target + 1):
        for step in range(2):
            x = 1 - step
            if kit == target:
                x = 1 - x_target if step == 0 else x_target
            if x == 1 and xrow[kit] < 0:
                continue
            _state(
                s_set, kit, x, first, full, pins, fresh, auto_next, pin_grey, m,
                use, held, ten, xrow, sub_start, sub_mask, sub_sum, grey_count, popcount,
                cm, mm0, mm1, mm_row, mm_s, mm_add, u, m1, m2,
                d_count, d_prob, d_total, d_flip, d_keep, d_cost, d_five,
                g, up, dn2, a1, a2, miss, aft, nfl, roll, acc,
            )  # fmt: skip
    return aft, nfl, roll, miss


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
        """The domain of these kits (global numbers, sorted)."""
        return cls.build(
            np.asarray(ids, dtype=np.int64),
            kits.use,
            kits.succ,
            kits.held,
            kits.ten_pin[kits.kit_track],
            kits.extra_dice_used,
            kits.has_open,
            kits.kit_track,
        )

    @classmethod
    def build(
        cls,
        ids: IntArray,
        use: IntArray,
        succ: IntArray,
        held: IntArray,
        ten: BoolArray,
        extra_dice_used: BoolArray,
        has_open: BoolArray,
        group: IntArray,
    ) -> Domain:
        """A domain from a system of kits (arrays by global number): local numbers, rows, groups."""
        local = np.full(len(use), -1, dtype=np.int64)
        local[ids] = np.arange(len(ids))
        use_here = np.where(use[ids] >= 0, local[np.maximum(use[ids], 0)], -1)
        if ((use[ids] >= 0) & (use_here < 0)).any():
            raise ValueError("a domain must hold the kits its abilities lead to")
        succ_here = np.where(succ[ids] >= 0, local[np.maximum(succ[ids], 0)], -1)
        groups = group[ids]
        starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
        xrow = np.full(len(ids), -1, dtype=np.int64)
        active = np.flatnonzero(extra_dice_used[ids])
        xrow[active] = len(ids) + np.arange(len(active))
        return cls(
            ids=ids,
            use=use_here,
            held=held[ids],
            ten=ten[ids],
            xrow=xrow,
            succ=succ_here,
            has_open=has_open[ids],
            group_start=np.r_[starts, len(ids)].astype(np.int64),
        )

    def local(self, count: int) -> IntArray:
        """Local numbers by global number (-1 outside), for a system of `count` kits."""
        result = np.full(count, -1, dtype=np.int64)
        result[self.ids] = np.arange(self.size)
        return result


@dataclass(frozen=True)
class Signatures:
    """The last ball's view of a kit: only the abilities held and Ten Pin matter then.

    Nothing marked in the game's last ball can be used, so its values depend on the
    kit's held counts and Ten Pin flag alone: a few hundred signatures instead of
    thousands of kits. Signatures form a system of kits of their own (no marks; any
    of them may have Extra Dice active), numbered Ten Pin first, then held counts.
    """

    of_kit: IntArray  # the signature of every kit
    use: IntArray
    held: IntArray
    ten: BoolArray

    @property
    def count(self) -> int:
        return len(self.use)

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
        ten = np.r_[np.zeros(combos, dtype=np.bool_), np.ones(combos, dtype=np.bool_)]
        of_kit = kits.ten_pin[kits.kit_track] * combos + kits.held @ stride
        return cls(of_kit.astype(np.int64), use, held, ten)

    def domain(self, ids: IntArray | None = None) -> Domain:
        """The signatures `ids` (all by default) and those their abilities lead to."""
        if ids is None:
            chosen = np.arange(self.count, dtype=np.int64)
        else:
            seen = set(int(i) for i in ids)
            stack = list(seen)
            while stack:
                for u in self.use[stack.pop()]:
                    if u >= 0 and int(u) not in seen:
                        seen.add(int(u))
                        stack.append(int(u))
            chosen = np.array(sorted(seen), dtype=np.int64)
        count = self.count
        return Domain.build(
            chosen,
            self.use,
            np.full((count, 1), -1, dtype=np.int64),
            self.held,
            self.ten,
            np.ones(count, dtype=np.bool_),
            np.zeros(count, dtype=np.bool_),
            self.ten.astype(np.int64),
        )


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


def mark_max_at(kits: Kits, values: FloatArray, ids: IntArray, times: int) -> FloatArray:
    """M^times of values (tokens, kits) at the kits `ids`: the best boxes for `times` more marks.

    One by one: a kit with an open area takes the best of its marks' kits; one with none
    loses the marks. Only the kits those marks reach are looked at.
    """
    if times == 0:
        return values[:, ids]
    succ = kits.succ[ids]
    reached = np.unique(succ[succ >= 0])
    if not len(reached):  # no box open anywhere: marks are lost
        return mark_max_at(kits, values, ids, times - 1)
    after = mark_max_at(kits, values, reached, times - 1)
    where = np.searchsorted(reached, np.maximum(succ, 0))
    gathered = np.where(succ[None, :, :] >= 0, after[:, where], NEG)
    return np.where(kits.has_open[ids][None, :], gathered.max(axis=-1), mark_max_at(kits, values, ids, times - 1))


def clear_values(kits: Kits, next_clear: FloatArray, domain: Domain) -> FloatArray:
    """CM[j, kit, t]: the next position's value (tokens by kit) after 0, 1 or 2 more marks."""
    return np.stack([mark_max_at(kits, next_clear, domain.ids, j).T for j in range(3)]).copy()


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


def solved_states(variant: Variant) -> int:
    """The values a whole solve fills in: (kit and Extra Dice) x standing pins x tokens, every ball problem."""
    kits = variant.kits
    size = 1 << variant.pins
    f, gain = variant.frames, variant.token_gain

    def rows(marks: int) -> int:
        count = kits.prefix(marks)
        return count + int(kits.extra_dice_used[:count].sum())

    tokens = f * gain + 1
    total = 2 * 2 * Signatures.of(kits).count * size * tokens  # the last ball, fresh or not
    total += 2 * len({w2 for _, w2 in pendings(f)}) * rows(2 * f) * size * tokens
    total += len(pendings(f)) * rows(2 * f - 2) * size * tokens
    for frame in range(1, f):
        tokens = frame * gain + 1
        total += (1 if frame == 1 else 2) * rows(2 * frame) * size * tokens
        total += len(pendings(frame)) * rows(2 * frame - 2) * size * tokens
    return total


def solve(
    variant: Variant,
    progress: Callable[[float], None] | None = None,
    down_to: int = 1,
    resume: Solution | None = None,
    checkpoint: Callable[[Solution], None] | None = None,
    every_kit: bool = False,
) -> Solution:
    """Solve frames `variant.frames` down to `down_to` (1: the whole game), last frame first.

    `resume`: a suffix already solved (frames k..last), to go on from; `checkpoint` is
    called with the suffix solved so far after each frame (to keep it on disk). Each frame
    is solved for the kits a player can hold in it (at most two marks a frame), or for
    `every_kit` (positions no game reaches, such as a sheet filled in advance: for tests).
    """
    start = time.perf_counter()
    solution = resume if resume is not None else Solution(variant)
    top_frame = resume.first_frame - 1 if resume is not None else variant.frames
    total_work = sum(ball_work(variant, k) for k in range(down_to, top_frame + 1)) or 1.0

    def tick(share: float, frame: int, problems: float) -> Callable[[float], None] | None:
        if progress is None:
            return None
        weight = ball_work(variant, frame) / total_work / problems
        return lambda part: progress(part * weight * share)

    f = variant.frames
    if top_frame == f:
        _solve_last_frame(variant, solution, tick, every_kit)
        solution.first_frame = f
        solution.seconds += time.perf_counter() - start
        start = time.perf_counter()
        if checkpoint is not None:
            checkpoint(solution)
    # Frames before the last, backwards.
    for frame in range(min(top_frame, f - 1), down_to - 1, -1):
        _solve_frame(variant, solution, frame, tick, every_kit)
        solution.first_frame = frame
        solution.seconds += time.perf_counter() - start
        start = time.perf_counter()
        if checkpoint is not None:
            checkpoint(solution)
    return solution


Tick = Callable[[float, int, float], "Callable[[float], None] | None"]


def _reach(kits: Kits, marks: int, every_kit: bool) -> Domain:
    """The kits with at most `marks` marks (or every kit): a domain of the full solve."""
    return Domain.of(kits, np.arange(kits.count if every_kit else kits.prefix(marks)))


def _solve_last_frame(variant: Variant, solution: Solution, tick: Tick, every_kit: bool) -> None:
    """The last frame and its bonus balls: frame_values of the last frame."""
    kits = variant.kits
    n, gain = variant.pins, variant.token_gain
    full = (1 << n) - 1
    f = variant.frames
    tokens = f * gain
    sig = Signatures.of(kits)
    last_domain = sig.domain()
    rows = last_domain.size
    last_problems = 2 * (1 if f == 1 else 2) + len(pendings(f))
    zeros_cm = np.zeros((3, rows, tokens + 1))
    zeros_mm = np.zeros((1, 1, tokens + 1))
    none = np.zeros(rows, dtype=np.int64)
    # The game's last ball: a fresh bonus rack, or what the first bonus ball left.
    last = Ball(True, 0, 0, 1, zeros_cm, zeros_mm, zeros_mm, none, 0, 0.0)
    u_last, _ = solve_ball(variant, last_domain, last, tokens, None)
    bonus_start = (n + u_last[:rows, full, :])[sig.of_kit].T.copy()  # (tokens, kit)
    last = Ball(False, 0, 0, 1, zeros_cm, zeros_mm, zeros_mm, none, 0, 0.0)
    u_last3, _ = solve_ball(variant, last_domain, last, tokens, None)
    grey = variant.grey_mask(f)
    top = _reach(kits, 2 * f, every_kit)
    before = _reach(kits, 2 * f - 2, every_kit)
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


def _solve_frame(variant: Variant, solution: Solution, frame: int, tick: Tick, every_kit: bool) -> None:
    """A frame before the last, from the next frame's values: its ball 2 problems, then ball 1."""
    kits = variant.kits
    n, gain = variant.pins, variant.token_gain
    full = (1 << n) - 1
    tokens = frame * gain
    grey = variant.grey_mask(frame)
    after = _reach(kits, 2 * frame, every_kit)
    before = _reach(kits, 2 * frame - 2, every_kit)
    values = solution.frame_values
    problems = (1 if frame == 1 else 2) + len(pendings(frame))
    open_end = values[(frame + 1, 0, 0)]
    mm = [mark_max_at(kits, open_end, after.ids, j).T[:, None, :].copy() for j in range(2)]
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


# --- the on-disk cache -----------------------------------------------------------------------

RULES_VERSION = "rolling-pins-advanced-1"


def cache_key(variant: Variant) -> str:
    """The rules version and everything solved: pins, frames, grey pins, track, Auto Strike, tokens."""
    areas = ";".join(f"{a.ability}/{a.boxes}/{'lower' if a.lower else 'upper'}" for a in variant.areas)
    grey = ";".join(",".join(map(str, g)) for g in variant.grey[: variant.frames])
    held = "held" if variant.auto_held else "next"
    return f"{RULES_VERSION}:{variant.pins}:{variant.frames}:{grey}:{areas}:{held}:{variant.token_gain}"


def cache_path(variant: Variant) -> Path:
    from pinsetter.solvers.rolling_pins import cache_dir

    tag = hashlib.sha256(cache_key(variant).encode()).hexdigest()[:16]
    return cache_dir() / f"rolling-pins-advanced-{tag}.npz"


def save(solution: Solution, path: Path) -> None:
    """Write atomically (a temporary file, then a rename): readers see a whole file or none."""
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = {
        "key": np.array(cache_key(solution.variant)),
        "first_frame": np.array(solution.first_frame),
        "seconds": np.array(solution.seconds),
    }
    for (frame, w1, w2), values in solution.frame_values.items():
        arrays[f"f{frame}_{w1}_{w2}"] = values
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    write_atomically(path, buffer.getvalue())


def load(path: Path, variant: Variant) -> Solution | None:
    """The cached solution (maybe of the last frames only), or None when missing, damaged or another game's."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if str(data["key"]) != cache_key(variant):
                return None
            solution = Solution(variant, first_frame=int(data["first_frame"]), seconds=float(data["seconds"]))
            for name in data.files:
                if name.startswith("f") and name != "first_frame":
                    frame, w1, w2 = (int(x) for x in name[1:].split("_"))
                    solution.frame_values[(frame, w1, w2)] = data[name]
    except Exception:  # zip, zlib, numpy and parsing errors all mean a bad cache
        return None
    return solution if _complete(solution) else None


def _complete(solution: Solution) -> bool:
    """The frames it claims are all there, with the shapes a solve makes."""
    variant = solution.variant
    if not 1 <= solution.first_frame <= variant.frames:
        return False
    wanted = {(k, w1, w2) for k in range(solution.first_frame, variant.frames + 1) for w1, w2 in pendings(k)}
    if set(solution.frame_values) != wanted:
        return False
    for (frame, _, _), values in solution.frame_values.items():
        shape = ((frame - 1) * variant.token_gain + 1, variant.kits.count)
        if values.shape != shape or np.isnan(values).any():
            return False
    return True


_MEMORY: dict[str, Solution] = {}


def cached(variant: Variant) -> Solution | None:
    """The solution if it is at hand (in memory or in the disk cache), maybe of the last frames only."""
    key = cache_key(variant)
    found = _MEMORY.get(key)
    if found is None:
        found = load(cache_path(variant), variant)
        if found is not None:
            _MEMORY[key] = found
    return found


def solution_for(
    variant: Variant, use_cache: bool = True, progress: Callable[[float], None] | None = None, down_to: int = 1
) -> Solution:
    """The solution from memory, the disk cache, or a solve (kept on disk frame by frame).

    A cache holding only the last frames (an interrupted solve) is taken up where it stopped.
    """
    key = cache_key(variant)
    found = _MEMORY.get(key) if use_cache else None
    if found is not None and found.first_frame <= down_to:
        return found
    path = cache_path(variant)
    found = load(path, variant) if use_cache else None
    if found is None or found.first_frame > down_to:

        def keep(partial: Solution) -> None:
            with contextlib.suppress(OSError):  # a read-only cache only costs a solve next time
                save(partial, path)

        found = solve(variant, progress, down_to, resume=found, checkpoint=keep)
    _MEMORY[key] = found
    return found


# --- values of positions: hints and the optimal bot ------------------------------------------
#
# Only frame-start values are kept. To value a position, the ball problems of its frame are
# solved again over the kits the player can still reach in the frame (a few hundred at most,
# a second or two), and kept for the rest of the frame.

Move = tuple[str, tuple[int, ...], int]  # an action's kind, arguments and tokens (the engine's Action)


@dataclass(frozen=True)
class Position:
    """A player's position in the solver's terms (the engine's is read by `bots.rolling_pins`)."""

    frame: int
    ball: int
    fresh: bool  # the ball began on a fresh rack
    first_strike: bool  # the last frame's first ball was a strike (its ball 2 is a bonus rack)
    w1: int  # bonuses owed to the frame's first ball ...
    w2: int  # ... and to its second
    standing: int
    tokens: int
    kit: int
    extra_dice: bool
    pending: int  # boxes to mark before anything else
    phase: str  # "choose", "rolled" or "extra-pin"
    dice_count: int = 0
    dice: tuple[int, ...] = ()
    kept: bool = True


@dataclass
class Solved:
    """One ball problem solved over a domain, with what valuing its positions needs."""

    frame: int
    key: tuple[int | str, ...]
    domain: Domain
    local: IntArray  # local numbers by global number (of kits, or of signatures)
    signatures: bool
    ball: Ball
    u: FloatArray
    m1: FloatArray | None
    m2: FloatArray | None


def problem_of(variant: Variant, pos: Position) -> tuple[int | str, ...]:
    """The ball problem a position belongs to."""
    if pos.frame < variant.frames:
        return ("B1", pos.w1, pos.w2) if pos.ball == 1 else ("B2", 1 + pos.w2)
    if pos.ball == 1:
        return ("B1L", pos.w1, pos.w2)
    if pos.ball == 2:
        return ("BB1", pos.w2) if pos.first_strike else ("B2L", pos.w2)
    return ("LAST",) if pos.fresh else ("LAST3",)


class Evaluator:
    """Exact values of every option at advanced positions, from a solution's frame values."""

    def __init__(self, solution: Solution, keep: int = 40, threads: int = 1) -> None:
        self.solution = solution
        self.threads = threads  # small problems: a second thread costs more than it gives
        self.variant = solution.variant
        self.kits = solution.variant.kits
        self.signatures = Signatures.of(self.kits)
        self.keep = keep
        self.solved: list[Solved] = []  # most recently used last
        self.last: dict[tuple[int | str, ...], Solved] = {}  # the last ball's, for every signature

    def covers(self, frame: int) -> bool:
        """Whether positions of this frame can be valued (the frames after it are solved)."""
        return frame == self.variant.frames or self.solution.first_frame <= frame + 1

    # --- ball problems over the kits a position can reach -------------------------------------
    def problem(self, frame: int, key: tuple[int | str, ...], kits: IntArray, marks: int = -1) -> Solved:
        """`key` of `frame` solved over (at least) these kits and what `marks` more marks reach."""
        if key[0] in ("LAST", "LAST3"):  # every signature at once: a few hundred, met by every game
            found = self.last.get(key)
            if found is None:
                found = self.last[key] = self._solve(frame, key, self.signatures.domain(), True)
            return found
        if marks < 0:
            marks = 2 if key[0] in ("B2", "B2L") else 0
        needed = self.kits.closure((int(k) for k in kits), marks)
        for index, found in enumerate(self.solved):
            if found.frame == frame and found.key == key and (found.local[needed] >= 0).all():
                self.solved.append(self.solved.pop(index))
                return found
        solved = self._solve(frame, key, Domain.of(self.kits, needed), False)
        self.solved.append(solved)
        del self.solved[: -self.keep]
        return solved

    def _solve(self, frame: int, key: tuple[int | str, ...], domain: Domain, signatures: bool) -> Solved:
        variant, kits = self.variant, self.kits
        n, gain, f = variant.pins, variant.token_gain, variant.frames
        full = (1 << n) - 1
        tokens = frame * gain
        grey = variant.grey_mask(frame)
        values = self.solution.frame_values
        ids = domain.ids
        kind = key[0]
        nothing = np.zeros((1, 1, tokens + 1))
        zeros = np.zeros(domain.size, dtype=np.int64)
        if kind in ("LAST", "LAST3"):
            cm = np.zeros((3, domain.size, tokens + 1))
            ball = Ball(kind == "LAST", 0, 0, 1, cm, nothing, nothing, zeros, 0, 0.0)
        elif kind == "B2":
            cm = clear_values(kits, values[(frame + 1, 1, 0)], domain)
            open_end = values[(frame + 1, 0, 0)]
            mm = [mark_max_at(kits, open_end, ids, j).T[:, None, :].copy() for j in range(2)]
            ball = Ball(False, grey, grey, int(key[1]), cm, mm[0], mm[1], np.arange(domain.size), 0, 0.0)
        elif kind == "B1":
            w1, w2 = int(key[1]), int(key[2])
            cm = clear_values(kits, values[(frame + 1, w2 + 1, 1)], domain)
            second = self.problem(frame, ("B2", 1 + w2), ids)
            assert second.m1 is not None
            mm_row = second.local[ids]
            ball = Ball(True, 0, grey, 1 + w1, cm, second.u, second.m1, mm_row, 1, float(1 + w2))
        elif kind in ("BB1", "B2L"):
            w2 = int(key[1])
            last = self.problem(frame, ("LAST",), kits.closure((int(k) for k in ids), 2))
            start = np.full((tokens + 1, kits.count), NEG)
            sig = self.signatures.of_kit
            inside = last.local[sig] >= 0
            start[:, inside] = (n + last.u[last.local[sig[inside]], full, :]).T
            cm = clear_values(kits, start, domain)
            if kind == "BB1":
                rest = self.problem(frame, ("LAST3",), ids)
                mm_row = rest.local[sig[ids]]
                ball = Ball(True, 0, 0, 1 + w2, cm, rest.u, rest.u, mm_row, 1, 1.0)
            else:
                ball = Ball(False, grey, grey, 1 + w2, cm, nothing, nothing, zeros, 0, 0.0)
        elif kind == "B1L":
            w1, w2 = int(key[1]), int(key[2])
            strike = self.problem(frame, ("BB1", w2), kits.closure((int(k) for k in ids), 2))
            start = np.full((tokens + 1, kits.count), NEG)
            start[:, strike.domain.ids] = ((1 + w2) * n + strike.u[: strike.domain.size, full, :]).T
            cm = clear_values(kits, start, domain)
            second = self.problem(frame, ("B2L", w2), ids)
            assert second.m1 is not None
            ball = Ball(True, 0, grey, 1 + w1, cm, second.u, second.m1, second.local[ids], 1, float(1 + w2))
        else:
            raise ValueError(f"no ball problem {key}")
        assert frame <= f
        with _threads(self.threads):
            u, m1, m2 = _solve_with_marks(variant, domain, ball, tokens)
        count = self.signatures.count if signatures else kits.count
        return Solved(frame, key, domain, domain.local(count), signatures, ball, u, m1, m2)

    # --- option values ---------------------------------------------------------------------------
    def values(self, pos: Position, moves: Sequence[Move]) -> list[float]:
        """The expected points still to come (this ball's included) after each move, played on optimally.

        A decision before marking the pending boxes is valued for each box; a roll's answers
        (Reroll, Flip, keep, Ten Pin, miss, crossing) and the choices before a roll (dice, Extra
        Dice, Auto Strike) and after a miss (Extra Pin, pass) as the solver sees them.
        """
        kits = self.kits
        start = self._frame_start(pos) if pos.pending else None
        if start is not None:
            result = []
            for kind, args, _ in moves:
                assert kind == "mark"
                after = kits.after_mark(pos.kit, args[0] - 1)
                result.append(float(mark_max_at(kits, start, np.array([after]), pos.pending - 1)[0, 0]))
            return result
        solved = self._problem_at(pos)
        if pos.pending:
            result = []
            for kind, args, _ in moves:
                assert kind == "mark"
                after = kits.after_mark(pos.kit, args[0] - 1)
                result.append(self._marked(solved, pos, after, pos.pending - 1))
            return result
        return [self._move(solved, pos, move) for move in moves]

    def position_value(self, pos: Position) -> float:
        """The expected points still to come at a decision before a roll (marks made first)."""
        start = self._frame_start(pos)
        if start is not None:
            return float(mark_max_at(self.kits, start, np.array([pos.kit]), pos.pending)[0, 0])
        return self._marked(self._problem_at(pos), pos, pos.kit, pos.pending)

    def _frame_start(self, pos: Position) -> FloatArray | None:
        """At a frame's start (before its first roll), the solution's frame values: (1 token, kits)."""
        full = (1 << self.variant.pins) - 1
        if not (pos.ball == 1 and pos.standing == full and pos.phase == "choose" and not pos.extra_dice):
            return None
        values = self.solution.frame_values.get((pos.frame, pos.w1, pos.w2))
        if values is None:
            return None
        start: FloatArray = values[pos.tokens - self.variant.token_gain][None, :]
        return start

    def _problem_at(self, pos: Position) -> Solved:
        """The position's ball problem, over the kits the rest of its ball can reach.

        Boxes still to mark, and in ball 2 one more for each grey pin standing.
        """
        key = problem_of(self.variant, pos)
        marks = pos.pending
        if key[0] in ("B2", "B2L"):
            marks += bin(pos.standing & self.variant.grey_mask(pos.frame)).count("1")
        return self.problem(pos.frame, key, np.array([pos.kit]), marks)

    def _row(self, solved: Solved, kit: int, x: bool) -> int:
        local = int(solved.local[self.signatures.of_kit[kit] if solved.signatures else kit])
        assert local >= 0, "a kit outside the solved domain"
        return int(solved.domain.xrow[local]) if x else local

    def _marked(self, solved: Solved, pos: Position, kit: int, marks: int) -> float:
        """Value before a roll at `kit` with `marks` boxes still to mark: the best boxes."""
        kits = self.kits
        if marks and kits.has_open[kit]:
            return max(self._marked(solved, pos, int(s), marks - 1) for s in kits.succ[kit] if s >= 0)
        standing = bin(pos.standing).count("1")
        row = self._row(solved, kit, pos.extra_dice)
        return float(solved.ball.multiplier * standing + solved.u[row, pos.standing, pos.tokens])

    def _move(self, solved: Solved, pos: Position, move: Move) -> float:
        kind, args, tokens = move
        ball = solved.ball
        m = ball.multiplier
        s_set, t = pos.standing, pos.tokens
        here = m * bin(s_set).count("1")
        local = int(solved.local[self.signatures.of_kit[pos.kit] if solved.signatures else pos.kit])
        dom = solved.domain
        x = 1 if pos.extra_dice else 0
        if kind == "extra-dice":
            return float(here + solved.u[dom.xrow[dom.use[local, EXTRA_DICE]], s_set, t])
        if kind == "auto-strike":
            return float(here + ball.cm[1, dom.use[local, AUTO_STRIKE], t])
        if kind in ("pass", "extra-pin"):
            return self._after_miss(solved, pos, local, args[0] if kind == "extra-pin" else 0)
        if kind == "cross":
            crossed = sum(1 << (p - 1) for p in args)
            grey = bin(crossed & ball.cross_grey).count("1")
            table = solved.u if grey == 0 else solved.m1 if grey == 1 else solved.m2
            assert table is not None
            row = local if x == 0 else int(dom.xrow[local])
            return float(here + table[row, s_set & ~crossed, t - abs(tokens)])
        if kind == "ten-pin":
            cost = sum(abs(d - 5) for d in pos.dice)
            return float(here + ball.cm[1, local, t - cost])
        aft, nfl, roll, miss = self._point(solved, pos, local)
        first = int(dom.group_start[np.searchsorted(dom.group_start, local, side="right") - 1])
        if kind == "dice":
            return float(here + roll[local - first, x, args[0] - 1, t])
        if kind == "miss":
            return float(here + miss[t])
        count = pos.dice_count
        if kind == "reroll":
            return float(here + roll[int(dom.use[local, REROLL]) - first, x, count - 1, t])
        if kind == "flip":
            dice = list(pos.dice)
            dice[args[0] - 1] = 7 - dice[args[0] - 1]
            index = DICE.faces[len(dice)].index(tuple(sorted(dice)))
            return float(here + nfl[int(dom.use[local, FLIP]) - first, x, count - 1, index, t])
        if kind == "keep":
            kept = tuple(sorted(pos.dice[i - 1] for i in args))
            return float(here + aft[count - 1, DICE.faces[count].index(kept), t])
        raise ValueError(f"no value for {kind}")

    def _after_miss(self, solved: Solved, pos: Position, local: int, pin: int) -> float:
        """After a miss: pass (the ball ends) or Extra Pin on `pin` (it counts for this ball)."""
        ball = solved.ball
        s_set, t = pos.standing, pos.tokens
        standing = bin(s_set).count("1")
        dom = solved.domain
        if not pin:
            return float(ball.mm0[ball.mm_row[local], s_set * ball.mm_s, t] + ball.mm_add * standing)
        spent = int(dom.use[local, EXTRA_PIN])
        bit = 1 << (pin - 1)
        rest = s_set & ~bit
        grey = 1 if ball.pin_grey & bit else 0
        if rest == 0:
            return float(ball.multiplier + ball.cm[(1 if ball.fresh else 0) + grey, spent, t])
        table = ball.mm1 if grey else ball.mm0
        return float(ball.multiplier + table[ball.mm_row[spent], rest * ball.mm_s, t] + ball.mm_add * (standing - 1))

    def _point(self, solved: Solved, pos: Position, local: int) -> tuple[FloatArray, ...]:
        variant = self.variant
        pins = pin_tables(variant.pins)
        dom, ball = solved.domain, solved.ball
        first = int(dom.group_start[np.searchsorted(dom.group_start, local, side="right") - 1])
        size = 1 << variant.pins
        empty = np.empty((1, 1, 1))
        m1 = solved.m1 if solved.m1 is not None else empty
        m2 = solved.m2 if solved.m2 is not None else empty
        return _point(
            pos.standing, local, 1 if pos.extra_dice else 0, first, size - 1, variant.pins, ball.fresh,
            not variant.auto_held, ball.pin_grey, float(ball.multiplier),
            dom.use, dom.held, dom.ten, dom.xrow,
            pins.sub_start, pins.sub_mask, pins.sub_sum, pins.popcount[np.arange(size) & ball.cross_grey],
            pins.popcount, ball.cm, ball.mm0, ball.mm1, ball.mm_row, ball.mm_s, ball.mm_add, solved.u, m1, m2,
            DICE.count, DICE.prob, DICE.total, DICE.flip, DICE.keep, DICE.cost, DICE.double_five,
        )  # fmt: skip


@contextlib.contextmanager
def _threads(count: int) -> Iterator[None]:
    """Numba's threads for this thread, `count` at most, for a while."""
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(min(count, before))
    try:
        yield
    finally:
        numba.set_num_threads(before)


def _solve_with_marks(
    variant: Variant, domain: Domain, ball: Ball, tokens: int
) -> tuple[FloatArray, FloatArray | None, FloatArray | None]:
    """`solve_ball`, keeping M2 too (the value of crossing both grey pins at once)."""
    u, m1 = solve_ball(variant, domain, ball, tokens)
    if m1 is None:
        return u, None, None
    m2 = np.empty_like(m1)
    size = 1 << variant.pins
    m2[:, 0, :] = m1[:, 0, :]
    for x in range(2):
        kits = np.arange(domain.size) if x == 0 else np.flatnonzero(domain.xrow >= 0)
        rows = kits if x == 0 else domain.xrow[kits]
        m2[rows, 0, :] = ball.cm[2, kits, :]
    _mark_level(np.arange(1, size, dtype=np.int64), domain.succ, domain.has_open, domain.xrow, m1, m2)
    return u, m1, m2
