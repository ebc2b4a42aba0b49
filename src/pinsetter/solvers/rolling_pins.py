"""The exact optimal policy of basic Rolling Pins (RULES.md section 6).

The game is a finite MDP. Inside a ball the state is (standing pins, tokens);
between balls the frame, the ball and the pending bonus weights pick which
"ball problem" is being played. A ball problem has a multiplier m (how many
times each pin crossed in it counts: 1 + the bonuses it pays) and the values
of ending it (a clear, or a miss with S standing). Its table

    U(S, T) = max over play of E[end value - m * |S_end|]

is computed bottom-up over the popcount of S, vectorised with numpy: every
set of standing pins and every token count at once per level. The value of a
ball that starts on S is m * |S| + U(S, T).

Tokens are unbounded in the rules, but one is gained per frame 1-10 and none
after, so a player never holds more than the number of frames: the token axis
0..frames is exact, not a cap.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import io
import os
import time
from array import array
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pinsetter.core.files import write_atomically
from pinsetter.core.pins import mask_of, pins_of
from pinsetter.core.scoring import Lane, bonus_weights
from pinsetter.i18n import _

__all__ = ["RULES_VERSION", "BallTable", "Policy", "solve"]

RULES_VERSION = "rolling-pins-basic-2"
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
PENDING = ((0, 0), (1, 0), (1, 1), (2, 1))
NEG = -1e18

# Distribution of the total of one die (1..6) and of two dice (2..12), indexed by total 0..12.
DIE_TOTALS = {1: np.zeros(13), 2: np.zeros(13)}
for _a in range(1, 7):
    DIE_TOTALS[1][_a] += 1 / 6
    for _b in range(1, 7):
        DIE_TOTALS[2][_a + _b] += 1 / 36


@dataclass(frozen=True)
class Level:
    """Precomputed structure of all standing sets with the same number of pins."""

    states: IntArray  # the sets S of this level
    children: IntArray  # S minus A, for every (S, A) pair with A a non-empty subset of S
    starts: IntArray  # first pair of every (S, sum(A)) group, pairs sorted by group
    group_state: IntArray  # row of the group's S in `states`
    group_total: IntArray  # sum(A) of the group


@cache
def levels(pins: int, max_total: int) -> tuple[Level, ...]:
    """Group every (S, A) pair by level of S; sums above `max_total` can never be rolled."""
    sums = np.array([sum(i + 1 for i in range(pins) if m >> i & 1) for m in range(1 << pins)])
    result = []
    for size in range(1, pins + 1):
        states = [s for s in range(1 << pins) if bin(s).count("1") == size]
        pair_s, pair_child, pair_t = [], [], []
        for row, s in enumerate(states):
            sub = s
            while sub:
                if sums[sub] <= max_total:
                    pair_s.append(row)
                    pair_child.append(s ^ sub)
                    pair_t.append(int(sums[sub]))
                sub = (sub - 1) & s
        order = np.lexsort((pair_t, pair_s))
        ps, pc, pt = np.array(pair_s)[order], np.array(pair_child)[order], np.array(pair_t)[order]
        boundary = np.ones(len(ps), dtype=bool)
        boundary[1:] = (ps[1:] != ps[:-1]) | (pt[1:] != pt[:-1])
        starts = np.flatnonzero(boundary)
        result.append(Level(np.array(states), pc, starts, ps[starts], pt[starts]))
    return tuple(result)


@dataclass
class BallTable:
    """One ball problem, solved: multiplier, end values and U over (standing, tokens)."""

    multiplier: int
    clear: FloatArray  # value of ending the ball with every pin crossed, by tokens
    miss: FloatArray  # value of ending it with S standing, by (S, tokens)
    u: FloatArray  # U(S, T)
    by_dice: FloatArray  # U(S, T) when rolling one die [0] or two dice [1] next

    def start_value(self, standing: int, tokens: int) -> float:
        return float(self.multiplier * bin(standing).count("1") + self.u[standing, tokens])

    @cached_property
    def flat(self) -> array[float]:
        """U, the value of rolling one die, of two and of a miss, as one array of plain doubles
        (`flat_index` says where each is): a bot reads every option of a position with one C call
        (`operator.itemgetter`). The same floats, copied as bytes; unlike a list of floats, it gives
        the garbage collector nothing to walk."""
        sections = np.stack((self.u, self.by_dice[0], self.by_dice[1], self.miss))  # (section, standing, tokens)
        flat = array("d")
        flat.frombytes(np.ascontiguousarray(sections.transpose(2, 0, 1), dtype=np.float64).tobytes())
        return flat


# Sections of `BallTable.flat`: U after a cross, rolling one die, two dice, ending the ball.
U, ONE_DIE, TWO_DICE, MISS = range(4)


def flat_index(section: int, standing: int, tokens: int, size: int) -> int:
    """Where `BallTable.flat` holds a section's value at (standing, tokens), with `size` sets of pins.

    Token counts come first: the place does not depend on how many a table holds.
    """
    return (tokens * 4 + section) * size + standing


def solve_ball(pins: int, tokens: int, m: int, clear: FloatArray, miss: FloatArray) -> BallTable:
    """U(S, T) for every S and T of one ball problem."""
    tt = tokens + 1
    size = 1 << pins
    counts = np.array([bin(s).count("1") for s in range(size)])
    u = np.empty((size, tt))
    u[0] = clear
    by_dice = np.empty((2, size, tt))
    by_dice[:, 0] = clear
    pad = tokens
    width = 13 + 2 * pad  # totals -pad .. 12 + pad
    for level in levels(pins, 12 + tokens):
        n = len(level.states)
        g = np.full((n, width, tt), NEG)
        if len(level.children):
            group_max = np.maximum.reduceat(u[level.children], level.starts, axis=0)
            g[level.group_state, level.group_total + pad] = group_max
        g_two = g.copy()
        g_two[:, : pad + 2] = NEG  # two dice never total less than 2
        m_val = miss[level.states] - m * counts[level.states][:, None]  # (n, tt)
        best = None
        for dice, grid in ((1, g), (2, g_two)):
            low, high = dice, 6 * dice  # the totals this many dice can roll
            rolls = high - low + 1
            h = np.full((n, rolls, tt), NEG)
            for delta in range(-tokens, tokens + 1):
                cost = abs(delta)
                shifted = grid[:, pad + delta + low : pad + delta + high + 1, : tt - cost]
                np.maximum(h[:, :, cost:], shifted, out=h[:, :, cost:])
            q = np.maximum(h, m_val[:, None, :])
            value = np.einsum("r,nrt->nt", DIE_TOTALS[dice][low : high + 1], q)
            by_dice[dice - 1, level.states] = value
            best = value if best is None else np.maximum(best, value)
        assert best is not None
        u[level.states] = best
    return BallTable(m, clear, miss, u, by_dice)


@dataclass
class Policy:
    """Every ball table of the game, and the expected scores they imply."""

    pins: int
    frames: int
    token_gain: int
    tables: dict[tuple[Any, ...], BallTable] = field(default_factory=dict)
    frame_values: dict[tuple[int, int, int], FloatArray] = field(default_factory=dict)
    seconds: float = 0.0
    # What bots found for positions of this game (their own keys): a memo, not part of the policy.
    memo: dict[Hashable, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def max_tokens(self) -> int:
        return self.token_gain * self.frames

    @property
    def expected_score(self) -> float:
        """Optimal expected final score of a whole game."""
        return float(self.frame_values[(1, 0, 0)][0])

    @property
    def states(self) -> int:
        """(ball problem, standing pins, tokens) states in the tables."""
        return sum(table.u.size for table in self.tables.values())

    def table_for(self, frame: int, ball: int, first_was_strike: bool, w1: int, w2: int) -> BallTable:
        """The ball problem a player faces (ball numbers as the scoring engine counts them)."""
        if frame < self.frames:
            return self.tables[("B1", frame, w1, w2)] if ball == 1 else self.tables[("B2", frame, 1 + w2)]
        if ball == 1:
            return self.tables[("B1L", w1, w2)]
        if ball == 2:
            return self.tables[("BB1", w2)] if first_was_strike else self.tables[("B2L", 1 + w2)]
        return self.tables[("BONUS",)]


def solve(pins: int = 10, frames: int = 10, token_gain: int = 1) -> Policy:
    """Solve the basic game exactly, last frame first.

    During frame k a player holds at most token_gain * k tokens, so each frame's
    tables cover exactly that many (the last frame's cover its bonus balls too).
    """
    start = time.perf_counter()
    policy = Policy(pins, frames, token_gain)
    size = 1 << pins
    full = size - 1
    counts = np.array([bin(s).count("1") for s in range(size)], dtype=np.float64)
    tables = policy.tables

    def start_values(table: BallTable) -> FloatArray:
        return table.multiplier * counts[:, None] + table.u

    # The last frame and its bonus balls.
    tmax = token_gain * frames
    zeros_t, zeros_st = np.zeros(tmax + 1), np.zeros((size, tmax + 1))
    bonus = tables[("BONUS",)] = solve_ball(pins, tmax, 1, zeros_t, zeros_st)
    bonus_start = start_values(bonus)
    for w2 in (0, 1):
        tables[("BB1", w2)] = solve_ball(pins, tmax, 1 + w2, bonus_start[full], bonus_start)
        tables[("B2L", 1 + w2)] = solve_ball(pins, tmax, 1 + w2, bonus_start[full], zeros_st)
    for w1, w2 in PENDING:
        second = start_values(tables[("B2L", 1 + w2)])
        clear = start_values(tables[("BB1", w2)])[full]
        table = tables[("B1L", w1, w2)] = solve_ball(pins, tmax, 1 + w1, clear, second)
        # Indexed by the tokens held before the frame's token is gained.
        policy.frame_values[(frames, w1, w2)] = start_values(table)[full][token_gain:]
    # Frames before the last, backwards.
    for frame in range(frames - 1, 0, -1):
        tokens = token_gain * frame
        nxt = {(w1, w2): policy.frame_values[(frame + 1, w1, w2)] for w1, w2 in PENDING}
        open_end = np.ascontiguousarray(np.broadcast_to(nxt[(0, 0)], (size, tokens + 1)))
        for m2 in (1, 2):
            tables[("B2", frame, m2)] = solve_ball(pins, tokens, m2, nxt[(1, 0)], open_end)
        for w1, w2 in PENDING:
            second = start_values(tables[("B2", frame, 1 + w2)])
            table = tables[("B1", frame, w1, w2)] = solve_ball(pins, tokens, 1 + w1, nxt[(w2 + 1, 1)], second)
            policy.frame_values[(frame, w1, w2)] = start_values(table)[full][token_gain:]
    policy.seconds = time.perf_counter() - start
    return policy


# --- the on-disk cache -----------------------------------------------------------------

CACHE_ENV = "PINSETTER_CACHE_DIR"


def cache_dir() -> Path:
    """`PINSETTER_CACHE_DIR`, or the user's cache directory (platformdirs)."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("pinsetter"))


def cache_path(pins: int, frames: int, token_gain: int) -> Path:
    tag = hashlib.sha256(f"{RULES_VERSION}:{pins}:{frames}:{token_gain}".encode()).hexdigest()[:16]
    return cache_dir() / f"rolling-pins-{tag}.npz"


def save(policy: Policy, path: Path) -> None:
    """Write atomically: a temporary file in the same folder, then a rename.

    Readers (another process solving the same game) see the old file or the new
    one, never half of one; a write that fails leaves no temporary file.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = {}
    for index, (key, table) in enumerate(policy.tables.items()):
        arrays[f"u{index}"] = table.u
        arrays[f"c{index}"] = table.clear
        arrays[f"m{index}"] = table.miss
        arrays[f"d{index}"] = table.by_dice
        arrays[f"k{index}"] = np.array([repr(key), str(table.multiplier)])
    for key, values in policy.frame_values.items():
        arrays["f" + "_".join(map(str, key))] = values
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    write_atomically(path, buffer.getvalue())  # several workers may write it: no stale clean-up


def expected_keys(frames: int) -> set[tuple[Any, ...]]:
    """The ball problems `solve` builds for a game of `frames` frames."""
    keys: set[tuple[Any, ...]] = {("BONUS",), ("BB1", 0), ("BB1", 1), ("B2L", 1), ("B2L", 2)}
    keys |= {("B1L", w1, w2) for w1, w2 in PENDING}
    for frame in range(1, frames):
        keys |= {("B2", frame, 1), ("B2", frame, 2)} | {("B1", frame, w1, w2) for w1, w2 in PENDING}
    return keys


def load(path: Path, pins: int, frames: int, token_gain: int) -> Policy | None:
    """The cached policy, or None when the file is missing, truncated, corrupt or of another game.

    A cache is only ever a shortcut: anything wrong with it means "solve again".
    """
    try:
        with np.load(path, allow_pickle=False) as data:
            policy = _read_policy(data, pins, frames, token_gain)
    except Exception:  # zip, zlib, numpy and parsing errors all mean a bad cache
        return None
    return policy if _complete(policy) else None


def _read_policy(data: Any, pins: int, frames: int, token_gain: int) -> Policy:
    policy = Policy(pins, frames, token_gain)
    for name in data.files:
        if name.startswith("k"):
            index = name[1:]
            key_text, multiplier = data[name]
            key = ast.literal_eval(str(key_text))
            policy.tables[key] = BallTable(
                int(multiplier), data[f"c{index}"], data[f"m{index}"], data[f"u{index}"], data[f"d{index}"]
            )
        elif name.startswith("f"):
            frame, w1, w2 = (int(x) for x in name[1:].split("_"))
            policy.frame_values[(frame, w1, w2)] = data[name]
    return policy


def _complete(policy: Policy) -> bool:
    """Every table and frame value a solve makes is there, with the shapes it makes."""
    if set(policy.tables) != expected_keys(policy.frames):
        return False
    if set(policy.frame_values) != {(f, w1, w2) for f in range(1, policy.frames + 1) for w1, w2 in PENDING}:
        return False
    size = 1 << policy.pins
    for table in policy.tables.values():
        shape = table.u.shape
        if len(shape) != 2 or shape[0] != size or table.miss.shape != shape or table.clear.shape != shape[1:]:
            return False
        if table.by_dice.shape != (2, *shape) or not np.isfinite(table.u).all():
            return False
    return all(v.ndim == 1 and np.isfinite(v).all() for v in policy.frame_values.values())


# The options the exact solvers value, and why the others are refused rather than ignored:
# this module solves the basic game (frames, pins, tokens); `rolling_pins_advanced` the
# advanced game (its sheet and Auto Strike reading too). With shared dice each player still
# faces the same dice and decides alone, so a player's optimum is the solo one.
SOLVED_OPTIONS = frozenset({"frames", "pins", "tokens", "shared_dice"})
ADVANCED_OPTIONS = frozenset({"advanced", "sheet", "auto_strike"})


def refusal(options: Mapping[str, object], given: Iterable[str]) -> str | None:
    """Why the exact solvers cannot value this game (None when they can): one line for the player.

    An option that changes only the advanced game is refused in a basic game: it would be ignored.
    """
    if options.get("advanced"):
        return None
    unused = sorted(set(given) - SOLVED_OPTIONS - {"advanced"})
    if unused:
        return _("option {key} changes only the advanced game, and this game is the basic one").format(key=unused[0])
    return None


_MEMORY: dict[tuple[int, int, int], Policy] = {}


def policy_for(pins: int = 10, frames: int = 10, token_gain: int = 1, use_cache: bool = True) -> Policy:
    """The solved policy: from memory, the disk cache, or a fresh solve (then cached)."""
    key = (pins, frames, token_gain)
    if use_cache and key in _MEMORY:
        return _MEMORY[key]
    path = cache_path(*key)
    policy = load(path, *key) if use_cache else None
    if policy is None:  # no cache, or a bad one: solve and (re)write it
        policy = solve(*key)
        with contextlib.suppress(OSError):  # a read-only cache only costs a re-solve next time
            save(policy, path)
    _MEMORY[key] = policy
    return policy


# --- evaluating positions ----------------------------------------------------------------


@dataclass(frozen=True)
class Situation:
    """Where a player stands, in the policy's terms."""

    table: BallTable
    earned: int  # points already certain from finished balls, bonuses included
    crossed: int  # pins crossed so far in the current ball
    standing: int
    tokens: int

    def banked(self) -> float:
        return self.earned + self.table.multiplier * self.crossed


def situation(
    policy: Policy, pinfalls: list[int], frame: int, ball: int, crossed: int, standing: int, tokens: int
) -> Situation:
    # The current ball is not in the pinfalls yet.
    earned, w1, w2, first_strike = bonus_weights(pinfalls, Lane(policy.pins, policy.frames))
    table = policy.table_for(frame, ball, first_strike, w1, w2)
    if tokens >= table.u.shape[1]:
        raise ValueError(f"{tokens} tokens cannot occur in frame {frame}")
    return Situation(table, earned, crossed, standing, tokens)


# An option's value is `s.banked() + whole + part`: points certain, a whole number that depends on
# the option (not on the points already banked), and the table's expectation. Bots keep where the
# terms of the options they see often are read; adding them up the same way gives the very same float.
Terms = tuple[int, float]

# A basic game's option as the bots see it: (kind, pins or dice, tokens), as `Action` holds it.
Move = tuple[str, tuple[int, ...], int]

_MASK_OF = cache(mask_of)


def option_reads(
    size: int, standing: int, tokens: int, moves: Iterable[Move]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Where each move's part is in `BallTable.flat`, and its whole: the pins standing (1) or none (0).

    A cross (U after it, its tokens spent either way), a roll of one or two dice, a miss. The
    same for every table with `size` sets of standing pins.
    """
    reads, wholes = [], []
    for kind, args, spent in moves:
        if kind == "cross":
            reads.append(flat_index(U, standing & ~_MASK_OF(args), tokens - abs(spent), size))
            wholes.append(1)
        elif kind == "dice":
            reads.append(flat_index(ONE_DIE + args[0] - 1, standing, tokens, size))
            wholes.append(1)
        elif kind == "miss":
            reads.append(flat_index(MISS, standing, tokens, size))
            wholes.append(0)
        else:
            raise ValueError(f"{kind} in the basic game")
    return tuple(reads), tuple(wholes)


def option_terms(s: Situation, moves: Iterable[Move]) -> tuple[Terms, ...]:
    """The terms of each move from one position (`option_reads`, read in the table)."""
    table = s.table
    reads, wholes = option_reads(len(table.u), s.standing, s.tokens, moves)
    whole = table.multiplier * bin(s.standing).count("1")
    flat = table.flat
    return tuple((whole if counted else 0, flat[at]) for at, counted in zip(reads, wholes, strict=True))


def cross_terms(s: Situation, mask: int, cost: int) -> Terms:
    return option_terms(s, (("cross", pins_of(mask), cost),))[0]


def miss_terms(s: Situation) -> Terms:
    return option_terms(s, (("miss", (), 0),))[0]


def roll_terms(s: Situation, dice_count: int) -> Terms:
    return option_terms(s, (("dice", (dice_count,), 0),))[0]


def cross_value(s: Situation, mask: int, cost: int) -> float:
    """Expected final score after crossing `mask` with `cost` tokens, then playing optimally."""
    whole, part = cross_terms(s, mask, cost)
    return s.banked() + whole + part


def miss_value(s: Situation) -> float:
    """Expected final score after ending the ball now."""
    whole, part = miss_terms(s)
    return s.banked() + whole + part


def best_after_roll(s: Situation, dice: tuple[int, ...], subsets: dict[int, tuple[int, ...]]) -> tuple[float, int, int]:
    """(value, set crossed, tokens spent) of the best answer to a roll; set 0 means miss."""
    best = (miss_value(s), 0, 0)
    total = sum(dice)
    low, high = max(len(dice), total - s.tokens), total + s.tokens
    for t, masks in subsets.items():
        if low <= t <= high:
            cost = abs(t - total)
            for mask in masks:
                value = cross_value(s, mask, cost)
                if value > best[0] + 1e-12:
                    best = (value, mask, t - total)
    return best


def roll_value(s: Situation, dice_count: int) -> float:
    """Expected final score of rolling `dice_count` dice now and answering optimally."""
    whole, part = roll_terms(s, dice_count)
    return s.banked() + whole + part
