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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

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
