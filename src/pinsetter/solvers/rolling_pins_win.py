"""Playing basic Rolling Pins to win against an opponent of known policy (issue 29, part 5).

Expected score is not what a player wants against an opponent: behind late in the game a
long shot is worth more than a safe frame, ahead the reverse. This module values a player's
options by the chance of finishing strictly ahead of an opponent who plays the expected-score
optimal policy (`rolling_pins.solve`).

Why not exactly. The exact two-player problem has, in every ball, both players' positions
and the score difference as its state: (standing 1,024 x tokens 11 x ball problem) for the
player, (tokens 11 x pending bonuses 4) for the opponent, and a difference of about 600
values: some 10^10 states and 10^12 transitions for ten frames, hours of work on two cores.

What is computed instead (documented in docs/rolling-pins.md):

1. The opponent's final-score distribution from its position under its known policy: the
   expected-score solver's ball problems evaluated with a score axis (every decision the
   optimal bot's own choice, ties as it breaks them), exact.
2. The player's own tables with the score as a state dimension: in every ball problem the
   value of a position is P(opponent's final score < mine), maximised decision by decision,
   for the next `horizon` frames; frames beyond it are valued by the player's own
   final-score distribution under the expected-score policy.

The player re-plans at the start of each of its frames with what it then knows of the
opponent. The approximation: within a plan the player does not count on seeing more of the
opponent's game before its own ends (it will, and re-plans), and with shared dice the two
players' rolls are taken as independent (they are not: one roll serves both).

The score axis. Inside a ball with multiplier m, z = points so far + m * |standing| is the
same before and after every cross (a cross of A adds m * |A| and removes |A| pins), so
the ball problem's table is the expected-score solver's, with one more axis z that no
cross moves: misses read their end value at z - m * |standing|.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pinsetter.core.files import write_atomically
from pinsetter.games.rolling_pins import _PINS_RANK
from pinsetter.solvers import rolling_pins as solver
from pinsetter.solvers.rolling_pins import DIE_TOTALS, NEG, PENDING, BallTable, Policy, levels

__all__ = ["ScoredTables", "final_distribution", "plan", "score_tables", "start_distribution", "win_chance"]

FloatArray = npt.NDArray[np.floating[Any]]  # single precision for the win tables, double for distributions
IntArray = npt.NDArray[np.int64]
BIG = 1 << 20

# Each set of pins by its place in the order the engine lists crosses (`_PINS_RANK`): ties between
# equally good crosses go to the first listed, as the optimal bot breaks them.
_MASK_OF_RANK = np.argsort(np.array(_PINS_RANK))
_RANK = np.array(_PINS_RANK)


def _counts(pins: int) -> IntArray:
    return np.array([bin(s).count("1") for s in range(1 << pins)])


def solve_ball_scored(
    pins: int, tokens: int, m: int, clear: FloatArray, miss: FloatArray, follow: BallTable | None, dice: bool = True
) -> tuple[FloatArray, FloatArray | None]:
    """One ball problem with a score axis: the value of starting to roll on S with T tokens and y points.

    `clear` (T, y) and `miss` (S, T, y) are the values of ending the ball with y points gained in all.
    With `follow`, every decision is that expected-score table's (the optimal bot's policy, whose
    values are then expectations of any function of the final score); without it, each decision
    maximises the value, score by score. Returns the start values (S, T, y), and those of
    rolling one die [0] or two [1] next (2, S, T, y; None unless `dice`: they are twice the memory).
    """
    tt = tokens + 1
    size = 1 << pins
    ys = clear.shape[-1]
    zs = ys + m * pins  # z = y + m * |S|
    counts = _counts(pins)
    z_index = np.arange(zs)
    # Chances to win are compared, not summed over many steps: single precision halves the memory traffic.
    dtype = np.float64 if follow is not None else np.float32
    u = np.empty((size, tt, zs), dtype=dtype)
    u[0] = clear[:, np.minimum(z_index, ys - 1)]
    by_dice = np.empty((2, size, tt, zs), dtype=dtype) if dice else None
    if by_dice is not None:
        by_dice[:, 0] = u[0]
    pad = tokens
    width = 13 + 2 * pad
    for level in levels(pins, 12 + tokens):
        n = len(level.states)
        size_here = bin(int(level.states[0])).count("1")
        at_end = np.clip(z_index - m * size_here, 0, ys - 1)  # y when the ball ends with this many standing
        m_val: FloatArray = miss[level.states][:, :, at_end].astype(dtype, copy=False)  # (n, tt, zs)
        if follow is None:
            one, two = _best_level(level, u, m_val, n, width, pad, tokens, tt, zs)
            u[level.states] = np.maximum(one, two)
        else:
            one, two, one_die = _follow_level(level, u, m_val, follow, m, size_here, width, pad, tokens, tt)
            u[level.states] = np.where(one_die[..., None], one, two)
        if by_dice is not None:
            by_dice[0, level.states] = one
            by_dice[1, level.states] = two
    start = np.empty((size, tt, ys), dtype=dtype)
    dice_start = np.empty((2, size, tt, ys), dtype=dtype) if by_dice is not None else None
    for count in range(pins + 1):
        rows = np.flatnonzero(counts == count)
        start[rows] = u[rows][:, :, m * count : m * count + ys]
        if dice_start is not None and by_dice is not None:
            dice_start[:, rows] = by_dice[:, rows][:, :, :, m * count : m * count + ys]
    return start, dice_start


def _best_level(
    level: solver.Level, u: FloatArray, m_val: FloatArray, n: int, width: int, pad: int, tokens: int, tt: int, zs: int
) -> tuple[FloatArray, FloatArray]:
    """A level of `solve_ball` with a score axis, the best play score by score: rolling one die, two dice."""
    g = np.full((n, width, tt, zs), NEG, dtype=u.dtype)
    if len(level.children):
        g[level.group_state, level.group_total + pad] = np.maximum.reduceat(u[level.children], level.starts, axis=0)
    # Only pin 1 alone sums to 1, and two dice never make less than 2: that target is one die's only.
    pin_one = g[:, pad + 1].copy()
    g[:, pad + 1] = NEG
    reach = _token_reach(g, tokens)
    two = reach[:, pad + 2 : pad + 13]
    one = reach[:, pad + 1 : pad + 7].copy()
    for face in range(1, 7):
        cost = face - 1  # down to 1 from this face
        if cost <= tokens:
            np.maximum(one[:, face - 1, cost:], pin_one[:, : tt - cost], out=one[:, face - 1, cost:])
    values = []
    for dice, reached in ((1, one), (2, two)):
        np.maximum(reached, m_val[:, None], out=reached)
        values.append(np.einsum("r,nrtz->ntz", DIE_TOTALS[dice][dice : 6 * dice + 1].astype(u.dtype), reached))
    return values[0], values[1]


def _token_reach(grid: FloatArray, tokens: int) -> FloatArray:
    """max over d of grid[:, j + d, t - |d|]: the best target a roll of j reaches with t tokens (grid is reused).

    Spending d tokens up from j is spending d - 1 from j + 1 with one token fewer, so the
    maxima up and down build on each other token by token (instead of one pass per d).
    """
    up = grid
    down = grid.copy()
    for t in range(1, tokens + 1):
        np.maximum(up[:, :-1, t], up[:, 1:, t - 1], out=up[:, :-1, t])
        np.maximum(down[:, 1:, t], down[:, :-1, t - 1], out=down[:, 1:, t])
    return np.maximum(up, down, out=up)


def _follow_level(
    level: solver.Level,
    u: FloatArray,
    m_val: FloatArray,
    follow: BallTable,
    m: int,
    size_here: int,
    width: int,
    pad: int,
    tokens: int,
    tt: int,
) -> tuple[FloatArray, FloatArray, npt.NDArray[np.bool_]]:
    """A level of `solve_ball` with a score axis, every decision the expected-score table's: one die, two, the choice.

    The optimal bot takes the first best of its legal actions, in the engine's order: crosses
    by their pins, then miss; one die before two. Values are compared as it adds them up.
    """
    states = level.states
    n = len(states)
    # The best cross of every (S, sum) group, per token count: highest value, then first by pins.
    gv = np.full((n, width, tt), NEG)
    gchild = np.zeros((n, width, tt), dtype=np.int64)
    grank = np.full((n, width, tt), BIG, dtype=np.int64)
    if len(level.children):
        pair_value = follow.u[level.children]  # (pairs, tt)
        group_max = np.maximum.reduceat(pair_value, level.starts, axis=0)
        lengths = np.diff(np.append(level.starts, len(level.children)))
        pair_s = np.repeat(states[level.group_state], lengths)
        pair_rank = _RANK[pair_s ^ level.children][:, None]
        ranked = np.where(pair_value == np.repeat(group_max, lengths, axis=0), pair_rank, BIG)
        first = np.minimum.reduceat(ranked, level.starts, axis=0)  # (groups, tt)
        gv[level.group_state, level.group_total + pad] = group_max
        grank[level.group_state, level.group_total + pad] = first
        chosen = _MASK_OF_RANK[np.minimum(first, len(_MASK_OF_RANK) - 1)]
        gchild[level.group_state, level.group_total + pad] = states[level.group_state][:, None] ^ chosen
    whole = m * size_here
    miss_scalar = follow.miss[states]  # (n, tt)
    rows = np.arange(n)[:, None, None]
    t_index = np.arange(tt)[None, None, :]
    values = []
    for dice in (1, 2):
        low, high = dice, 6 * dice
        rolls = high - low + 1
        hv = np.full((n, rolls, tt), NEG)
        hrank = np.full((n, rolls, tt), BIG, dtype=np.int64)
        hchild = np.zeros((n, rolls, tt), dtype=np.int64)
        hcost = np.zeros((n, rolls, tt), dtype=np.int64)
        for delta in range(-tokens, tokens + 1):
            cost = abs(delta)
            lo = pad + delta + low
            # Two dice never total less than 2.
            lo_ok = np.arange(lo, lo + rolls) >= pad + 2 if dice == 2 else np.ones(rolls, dtype=bool)
            cv = gv[:, lo : lo + rolls, : tt - cost]
            cr = grank[:, lo : lo + rolls, : tt - cost]
            better = ((cv > hv[:, :, cost:]) | ((cv == hv[:, :, cost:]) & (cr < hrank[:, :, cost:]))) & (cv > NEG)
            better &= lo_ok[None, :, None]
            hv[:, :, cost:] = np.where(better, cv, hv[:, :, cost:])
            hrank[:, :, cost:] = np.where(better, cr, hrank[:, :, cost:])
            hchild[:, :, cost:] = np.where(better, gchild[:, lo : lo + rolls, : tt - cost], hchild[:, :, cost:])
            hcost[:, :, cost:] = np.where(better, cost, hcost[:, :, cost:])
        crosses = hv > NEG
        cross_value = np.where(crosses, whole + hv, NEG)
        missing = ~crosses | (miss_scalar[:, None, :] > cross_value)
        q = np.where(
            missing[..., None],
            m_val[rows, t_index],
            u[hchild, t_index - hcost],
        )
        values.append(np.einsum("r,nrtz->ntz", DIE_TOTALS[dice][low : high + 1], q))
    one_die = (whole + follow.by_dice[0][states]) >= (whole + follow.by_dice[1][states])
    return values[0], values[1], one_die


@dataclass
class ScoredBall:
    """One ball problem with a score axis: the values of starting a roll, of rolling 1 or 2 dice, of a miss."""

    multiplier: int
    start: FloatArray  # (S, T, y)
    by_dice: FloatArray | None  # (2, S, T, y); None in tables that follow the expected-score policy
    miss: FloatArray  # (S, T, y): the value of ending the ball with S standing


@dataclass
class ScoredTables:
    """The ball problems of one plan (by the expected-score solver's keys) and the frame-start values.

    y is the points gained since the plan's start; `frames[(frame, w1, w2)][T, y]` is the value of
    starting that frame holding T tokens (its own token included).
    """

    first_frame: int
    balls: dict[tuple[object, ...], ScoredBall]
    frames: dict[tuple[int, int, int], FloatArray]


def score_tables(
    policy: Policy,
    first_frame: int,
    terminal: FloatArray,
    follow: bool,
    last_frame: int | None = None,
    after: dict[tuple[int, int], FloatArray] | None = None,
    pending: tuple[int, int] | None = None,
    held: int | None = None,
    keep: bool = True,
) -> ScoredTables:
    """Ball problems from `first_frame` to `last_frame` (the game's last by default) with a score axis.

    `terminal[y]`: the value of ending the game with y points gained (y past the end reads the last
    entry). With `follow`, decisions are the expected-score policy's; otherwise each maximises the
    value. With `last_frame` before the game's last, `after[(w1, w2)][T, y]` values starting the
    next frame with T tokens before its token is gained. `pending`: the bonuses the first frame
    owes (only its ball problems are solved), all by default. `held`: the tokens held in the
    first frame (the token axis then stops at what can be held), every count by default. Without
    `keep`, each frame's ball problems are dropped once the frame before it no longer needs them
    (only `frames` is returned): a few hundred MB at most instead of gigabytes for ten frames.
    """
    pins, frames, gain = policy.pins, policy.frames, policy.token_gain
    last = frames if last_frame is None else last_frame
    size = 1 << pins
    full = size - 1
    ys = len(terminal)
    balls: dict[tuple[object, ...], ScoredBall] = {}
    frame_values: dict[tuple[int, int, int], FloatArray] = {}

    def ball(key: tuple[object, ...], tokens: int, m: int, clear: FloatArray, miss: FloatArray) -> FloatArray:
        start, by_dice = solve_ball_scored(
            pins, tokens, m, clear, miss, policy.tables[key] if follow else None, dice=not follow
        )
        balls[key] = ScoredBall(m, start, by_dice, miss)
        return start

    def most(frame: int) -> int:
        """The most tokens a player can hold in this frame."""
        every = gain * frame
        return every if held is None else min(every, held + gain * (frame - first_frame))

    def owed(frame: int) -> tuple[tuple[int, int], ...]:
        return (pending,) if pending is not None and frame == first_frame else PENDING

    if last == frames:
        tmax = most(frames)
        end_st = np.ascontiguousarray(np.broadcast_to(terminal, (size, tmax + 1, ys)))
        bonus = ball(("BONUS",), tmax, 1, end_st[0], end_st)
        for w1, w2 in owed(frames):
            if ("BB1", w2) not in balls:
                ball(("BB1", w2), tmax, 1 + w2, bonus[full], bonus)
                ball(("B2L", 1 + w2), tmax, 1 + w2, bonus[full], end_st)
            start = ball(("B1L", w1, w2), tmax, 1 + w1, balls[("BB1", w2)].start[full], balls[("B2L", 1 + w2)].start)
            frame_values[(frames, w1, w2)] = start[full] if keep else start[full].copy()
        if not keep:
            balls.clear()
    for frame in range(min(last, frames - 1), first_frame - 1, -1):
        tokens = most(frame)
        if frame == last:
            assert after is not None, "a plan that stops before the last frame needs the values after it"
            nxt = {p: after[p][: tokens + 1] for p in PENDING}
        else:
            nxt = {p: frame_values[(frame + 1, *p)][gain : gain + tokens + 1] for p in PENDING}
        open_end = np.ascontiguousarray(np.broadcast_to(nxt[(0, 0)], (size, tokens + 1, ys)))
        for w1, w2 in owed(frame):
            if ("B2", frame, 1 + w2) not in balls:
                ball(("B2", frame, 1 + w2), tokens, 1 + w2, nxt[(1, 0)], open_end)
            second = balls[("B2", frame, 1 + w2)].start
            start = ball(("B1", frame, w1, w2), tokens, 1 + w1, nxt[(w2 + 1, 1)], second)
            frame_values[(frame, w1, w2)] = start[full] if keep else start[full].copy()
        if not keep:
            balls.clear()
            del open_end, second, start
    return ScoredTables(first_frame, balls, frame_values)


# The expected-score policy's final-score distributions (how the opponents are modelled). Evaluated
# with the terminal value 1 at y = C (the largest score), and y past C read as C, a position's value
# at y is P(points still to come >= C - y): one pass gives every position's. A process keeps every
# frame's start values (about a megabyte for ten frames of ten pins); a position inside a frame reads
# its frame's ball problems, worked out from the next frame's start values when first asked, and the
# last two frames asked are kept (every position's tables at once took 1.3 GB for ten frames).
_FRAME_STARTS: dict[tuple[int, int, int], dict[tuple[int, int, int], FloatArray]] = {}
_FRAME_BALLS: OrderedDict[tuple[int, int, int, int], dict[tuple[object, ...], FloatArray]] = OrderedDict()
FRAMES_KEPT = 2
_LAST_FRAME_BALLS = ("B1L", "BB1", "B2L", "BONUS")


def _policy_key(policy: Policy) -> tuple[int, int, int]:
    return policy.pins, policy.frames, policy.token_gain


def _top_reached(policy: Policy) -> FloatArray:
    top = 3 * policy.pins * policy.frames
    terminal = np.zeros(top + 1)
    terminal[top] = 1.0
    return terminal


def frame_starts(policy: Policy) -> dict[tuple[int, int, int], FloatArray]:
    """`[(frame, w1, w2)][T, y]`: P(points still to come >= C - y) of the expected-score policy
    starting that frame holding T tokens (its own included), every frame's, from one pass.

    Kept in memory and in the solver's disk cache beside the policy (a megabyte for ten frames of ten
    pins, where the pass takes tens of seconds): a later process reads them.
    """
    key = _policy_key(policy)
    if key not in _FRAME_STARTS:
        path = starts_path(policy)
        starts = _load_starts(path, policy)
        if starts is None:  # no cache, or a bad one
            starts = score_tables(policy, 1, _top_reached(policy), follow=True, keep=False).frames
            with contextlib.suppress(OSError):  # a read-only cache only costs the pass next time
                buffer = io.BytesIO()
                arrays: dict[str, Any] = {"_".join(map(str, k)): v for k, v in starts.items()}
                np.savez(buffer, **arrays)
                write_atomically(path, buffer.getvalue())
        _FRAME_STARTS[key] = starts
    return _FRAME_STARTS[key]


def frame_starts_at_hand(policy: Policy) -> bool:
    """Whether `frame_starts` has its answer in memory or in the disk cache (else a pass of tens of seconds);
    what the cache holds is read into memory, so that `frame_starts` does not read it again."""
    key = _policy_key(policy)
    if key not in _FRAME_STARTS:
        starts = _load_starts(starts_path(policy), policy)
        if starts is None:
            return False
        _FRAME_STARTS[key] = starts
    return True


# Changes whenever what `frame_starts` computes changes, so that an older cache is never read.
STARTS_VERSION = 1


def starts_path(policy: Policy) -> Path:
    tag = f"{solver.RULES_VERSION}:{STARTS_VERSION}:{policy.pins}:{policy.frames}:{policy.token_gain}"
    return solver.cache_dir() / f"rolling-pins-chances-{hashlib.sha256(tag.encode()).hexdigest()[:16]}.npz"


def _load_starts(path: Path, policy: Policy) -> dict[tuple[int, int, int], FloatArray] | None:
    """The cached start values, or None when the file is missing, damaged or not this game's."""
    scores = len(_top_reached(policy))
    expected = {
        (frame, w1, w2): (policy.token_gain * frame + 1, scores)
        for frame in range(1, policy.frames + 1)
        for w1, w2 in PENDING
    }
    try:
        with np.load(path, allow_pickle=False) as data:
            starts = {tuple(int(x) for x in name.split("_")): data[name] for name in data.files}
    except Exception:  # zip, zlib, numpy and parsing errors all mean a bad cache
        return None
    shapes = {k: v.shape for k, v in starts.items()}
    return starts if shapes == expected and all(v.dtype == np.float64 for v in starts.values()) else None  # type: ignore[return-value]


def frame_balls(policy: Policy, frame: int) -> dict[tuple[object, ...], FloatArray]:
    """The start values (S, T, y) of every ball problem of one frame, as `frame_starts` has them at its start."""
    key = (*_policy_key(policy), frame)
    if key in _FRAME_BALLS:
        _FRAME_BALLS.move_to_end(key)
        return _FRAME_BALLS[key]
    terminal = _top_reached(policy)
    if frame == policy.frames:
        tables = score_tables(policy, frame, terminal, follow=True)
    else:
        starts, gain = frame_starts(policy), policy.token_gain
        after = {pending: starts[(frame + 1, *pending)][gain:] for pending in PENDING}
        tables = score_tables(policy, frame, terminal, follow=True, last_frame=frame, after=after)
    while len(_FRAME_BALLS) >= FRAMES_KEPT:
        _FRAME_BALLS.popitem(last=False)
    _FRAME_BALLS[key] = {ball_key: ball.start for ball_key, ball in tables.balls.items()}
    return _FRAME_BALLS[key]


def _at_least(policy: Policy, key: tuple[object, ...], standing: int, tokens: int) -> FloatArray:
    """P(points still to come >= f), f = 0..C, of the expected-score policy about to roll on `standing`."""
    last = key[0] in _LAST_FRAME_BALLS
    frame = policy.frames if last else int(key[1])  # type: ignore[call-overload]
    if standing == (1 << policy.pins) - 1 and key[0] in ("B1", "B1L"):  # a frame's first roll: kept for all
        w1, w2 = int(key[-2]), int(key[-1])  # type: ignore[call-overload]
        row: FloatArray = frame_starts(policy)[(frame, w1, w2)][tokens, ::-1]
        return row
    inside: FloatArray = frame_balls(policy, frame)[key][standing, tokens, ::-1]
    return inside


def start_distribution(policy: Policy) -> FloatArray:
    """P(final score = s), s = 0..max, of the expected-score policy from the start of a game.

    `final_distribution` at the first ball of the game, from `frame_starts` alone: what a page
    showing the odds of a new game needs.
    """
    at_least = frame_starts(policy)[(1, 0, 0)][policy.token_gain, ::-1]
    chance: FloatArray = np.clip(at_least - np.append(at_least[1:], 0.0), 0.0, None)
    return chance


def future_points(policy: Policy, key: tuple[object, ...], standing: int, tokens: int) -> FloatArray:
    """P(points still to come = f), f = 0..C, of the expected-score policy about to roll on `standing`."""
    at_least = _at_least(policy, key, standing, tokens)
    chance: FloatArray = np.clip(at_least - np.append(at_least[1:], 0.0), 0.0, None)
    return chance


def final_distribution(policy: Policy, key: tuple[object, ...], banked: int, standing: int, tokens: int) -> FloatArray:
    """P(final score = s), s = 0..max, of an expected-score optimal player about to roll, `banked` points certain."""
    future = future_points(policy, key, standing, tokens)
    dist = np.zeros(len(future))
    dist[banked:] = future[: len(future) - banked]
    return dist


def ahead_of(distributions: list[FloatArray]) -> FloatArray:
    """P(a score s is strictly above every one of these independent final scores), for each s."""
    top = len(distributions[0]) - 1 if distributions else 0
    chance = np.ones(top + 1)
    for dist in distributions:
        chance *= np.concatenate(([0.0], np.cumsum(dist)[:-1]))
    return chance


def win_chance(mine: FloatArray, theirs: FloatArray) -> tuple[float, float]:
    """(P(mine > theirs), P(tie)) of two independent final-score distributions."""
    return float(mine @ ahead_of([theirs])), float(mine @ theirs)


def ball_key(frames: int, frame: int, ball: int, first_was_strike: bool, w1: int, w2: int) -> tuple[object, ...]:
    """The solver's key of the ball problem a player faces (`Policy.table_for`'s choice, as a key)."""
    if frame < frames:
        return ("B1", frame, w1, w2) if ball == 1 else ("B2", frame, 1 + w2)
    if ball == 1:
        return ("B1L", w1, w2)
    if ball == 2:
        return ("BB1", w2) if first_was_strike else ("B2L", 1 + w2)
    return ("BONUS",)


def plan(
    policy: Policy, frame: int, pending: tuple[int, int], earned: int, ahead: FloatArray, horizon: int, held: int
) -> ScoredTables:
    """The win tables of a player starting `frame` with `earned` points certain, for `horizon` frames.

    `ahead[s]`: P(finishing ahead with a final score s). y runs over the points the plan's frames
    can add (30 a frame of ten pins, 60 the last with its bonus balls). After the plan's frames,
    the player is valued as playing the expected-score policy (`future_points`). `held`: the
    tokens held at the start of `frame`.
    """
    pins, frames, gain = policy.pins, policy.frames, policy.token_gain
    top = len(ahead) - 1
    last = min(frames, frame + horizon - 1)
    span = 3 * pins * (last - frame + 1) + (3 * pins if last == frames else 0)
    ys = min(span, top - earned) + 1
    reach = np.minimum(earned + np.arange(ys), top)
    if last == frames:
        return score_tables(policy, frame, ahead[reach], follow=False, pending=pending, held=held)
    after: dict[tuple[int, int], FloatArray] = {}
    scores = np.minimum(reach[:, None] + np.arange(top + 1)[None, :], top)  # (y, f) -> final score
    for w1, w2 in PENDING:
        key = ball_key(frames, last + 1, 1, False, w1, w2)
        rows = []
        for tokens in range(min(gain * last, held + gain * (last - frame)) + 1):
            future = future_points(policy, key, (1 << pins) - 1, tokens + gain)
            rows.append(ahead[scores] @ future)
        after[(w1, w2)] = np.array(rows)
    return score_tables(
        policy, frame, ahead[reach], follow=False, last_frame=last, after=after, pending=pending, held=held
    )
