"""A compiled step of many one-player basic Rolling Pins games at once (issue 29, part 3).

This is a second implementation of the basic game's turn (choose dice, cross or miss, the
frames and bonus racks, the running score), written for speed over arrays of shape
(batch, ...): one call steps every game of a batch. It knows no action by its text: every
action id's meaning (which pins a cross knocks, its roll and its token change), the token
range of a roll and where each observation entry sits are tables that
`pinsetter.integrations.vector` builds from the action index and the reference engine. The
differential test (tests/test_rl_batched.py) plays many seeded games through both, step by
step, and compares observations, masks, rewards, terminations and scores.

Only numba and numpy here: the kernel must compile on its own.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from pinsetter.solvers.compiled import njit

__all__ = [
    "CHOOSE",
    "FIELDS",
    "KIND_CROSS",
    "KIND_DICE",
    "KIND_MISS",
    "KIND_NONE",
    "ROLLED",
    "Outputs",
    "Tables",
    "reset_games",
    "sample_legal",
    "step_games",
]

# Each game's state: one row of int32 fields (`state[g, F_...]`) and its pinfalls (`falls[g, ball]`).
# Fields 0-10 are the lane's, numbered alike in `solitaire_kernel` (which takes them from here), so
# that one `_next_ball` serves both kernels.
F_STANDING = 0  # standing pins, bit i-1 for pin i
F_CROSSED = 1  # pins crossed in the current ball
F_BALLS = 2  # balls bowled
F_FRAME = 3  # the frame of the next ball, 1-based
F_FRAME_START = 4  # index in falls of the frame's first ball
F_BALL = 5  # the next ball's number in its frame, 1-3
F_RACK = 6  # pins standing when the ball began (a count)
F_OVER = 7  # the game is over
F_SCORE = 8  # the running score (frames whose score is determined)
F_ELAPSED = 9  # steps of this episode (illegal ids included), for the step limit
F_RESET = 10  # the episode ended at the last step: the next step starts a new game
F_TOKENS = 11
F_PHASE = 12  # CHOOSE or ROLLED (a roll is drawn in the step that chooses the dice)
F_NDICE = 13  # dice shown (0: none; the last roll stays shown after a cross)
F_DIE1 = 14
F_DIE2 = 15
FIELDS = 16

# What `_next_ball` found: the rack goes on, a fresh rack in the last frame (a bonus rack), a new frame.
RACK_ON = 0
BONUS_RACK = 1
NEW_FRAME = 2

# Phases, numbered as the engine's phases are in the observation (`rolling_pins_spaces.PHASES`).
CHOOSE = 0
ROLLED = 2

# Kinds of action id.
KIND_NONE = 0  # never legal here (`end`: a basic Rolling Pins game always begins with a decision)
KIND_DICE = 1  # choose one or two dice (`arg`: how many)
KIND_MISS = 2
KIND_CROSS = 3

# `config` entries.
C_PINS = 0
C_FRAMES = 1
C_FULL = 2
C_TOKENS = 3  # tokens gained at the start of a frame (1, or 0 without tokens)
C_STEP_LIMIT = 4  # truncate an episode after this many steps (0: never)
C_MISS = 5  # the id of `miss`
C_DICE1 = 6
C_DICE2 = 7
CONFIG = 8

# `layout` entries: where the observation's single entries are (the per-ball, per-pin and
# per-die entries have arrays of their own).
L_SCORE = 0
L_FRAME = 1
L_NEXT_BALL1 = 2  # then ball 2 and ball 3
L_RACK = 5
L_OBSERVER = 6
L_TURN = 7
L_TOKENS = 8
L_PHASE = 9  # the first phase's entry; phase p is at layout[L_PHASE] + p
LAYOUT = 10

IntArray = np.ndarray[Any, np.dtype[np.int32]]
FloatArray = np.ndarray[Any, np.dtype[np.float32]]


class Tables(NamedTuple):
    """The kernel's constant tables, built once per environment (`vector.kernel_tables`).

    The entry points take them as one plain tuple, `tuple(tables)`, unpacked once a call: numba
    types a NamedTuple argument about a microsecond slower a call, and the functions called for
    each game take the few arrays they read, since every array handed to a compiled call costs
    its reference counting (handing them the whole tuple made a step of 1,024 games twice as slow).
    """

    config: IntArray
    kinds: IntArray  # by id: KIND_*
    args: IntArray  # by id: the dice a `dice` id chooses
    cross_pins: IntArray  # by id: the pins a cross knocks down, as a mask
    cross_down: IntArray  # by id: how many pins that is
    cross_cost: IntArray  # by id: tokens spent
    cross_tokens: IntArray  # by id: its token change (sum of pins - roll)
    by_roll_start: IntArray  # the cross ids answering roll r are by_roll[by_roll_start[r]:by_roll_start[r + 1]]
    by_roll: IntArray
    token_low: IntArray  # by dice, roll total, tokens held: `token_range`
    token_high: IntArray
    layout: IntArray  # L_*: single observation entries
    ball_at: IntArray  # by ball slot: (bowled, pins) entries
    pin_at: IntArray  # by pin: its standing entry
    die_at: IntArray  # by die, face: its entry
    fractions: FloatArray  # k / n as float32, n by row: pins, frames, maximum score, token limit


class Outputs(NamedTuple):
    """A batch's outputs by game slot, made by `vector.BatchedEnv` and passed as one plain tuple, as `Tables` are."""

    obs: FloatArray  # by game: the observation
    masks: Any  # by game, id: int8 1 where legal
    legal: IntArray  # by game: the legal ids, `counts[g]` of them
    counts: IntArray
    rewards: FloatArray
    terminated: Any  # booleans
    truncated: Any
    illegal: Any


@njit(cache=True)
def _frame_next(falls: Any, start: int, end: int, last: bool, pins: int) -> tuple[int, int]:
    """Pins standing and whether the rack is fresh for the frame's next ball; (-1, 0) if the frame is over.

    The frame's balls are falls[start:end] (`scoring.frame_next`).
    """
    n = end - start
    if n == 0:
        return pins, 1
    first = falls[start]
    if not last:
        if n == 1 and first < pins:
            return pins - first, 0
        return -1, 0
    if n == 1:
        return (pins, 1) if first == pins else (pins - first, 0)
    if n == 2:
        second = falls[start + 1]
        if first == pins:
            return (pins, 1) if second == pins else (pins - second, 0)
        if first + second == pins:
            return pins, 1
    return -1, 0


@njit(cache=True)
def _running_score(falls: Any, balls: int, over: bool, pins: int, frames: int) -> int:
    """The running score: the frames whose score is determined, up to the first that is not (`scoring.score`)."""
    total = 0
    i = 0
    for frame in range(1, frames + 1):
        if i >= balls:
            break
        if frame == frames:  # the last frame counts once it is over, which is the game's end
            if over:
                for b in range(i, balls):
                    total += falls[b]
            break
        first = falls[i]
        if first == pins:
            own, need = 1, 2
        elif i + 1 < balls:
            own = 2
            need = 1 if first + falls[i + 1] == pins else 0
        else:
            break  # the frame's second ball is to come
        if i + own + need > balls:
            break  # its bonus balls are to come
        for b in range(i, i + own + need):
            total += falls[b]
        i += own
    return total


@njit(cache=True)
def _next_ball(s: Any, f: Any, pins: int, frames: int) -> int:
    """Record the ball's pinfall, set up the frame's next ball or the next frame, score; return RACK_ON etc.

    The lane's part of the engine's `_end_ball`, the same in both kernels: what the game does with
    a fresh rack (stand the pins, deal the cards, gain a token) is left to the caller.
    """
    f[s[F_BALLS]] = s[F_CROSSED]
    s[F_BALLS] += 1
    s[F_CROSSED] = 0
    last = s[F_FRAME] == frames
    rack, fresh = _frame_next(f, s[F_FRAME_START], s[F_BALLS], last, pins)
    found = RACK_ON
    if rack >= 0:  # the frame goes on
        s[F_BALL] += 1
        s[F_RACK] = rack
        if fresh:  # a bonus rack of the last frame
            found = BONUS_RACK
    elif last:
        s[F_OVER] = 1
    else:
        s[F_FRAME] += 1
        s[F_FRAME_START] = s[F_BALLS]
        s[F_BALL] = 1
        s[F_RACK] = pins
        found = NEW_FRAME
    s[F_SCORE] = _running_score(f, s[F_BALLS], s[F_OVER] == 1, pins, frames)
    return found


@njit(cache=True)
def _new_game(s: Any, f: Any, config: Any) -> None:
    """A fresh game: frame 1 with its token, all pins standing, no dice."""
    s[:] = 0
    f[:] = 0
    s[F_STANDING] = config[C_FULL]
    s[F_TOKENS] = config[C_TOKENS]
    s[F_PHASE] = CHOOSE
    s[F_FRAME] = 1
    s[F_BALL] = 1
    s[F_RACK] = config[C_PINS]


@njit(cache=True)
def _end_ball(s: Any, f: Any, config: Any) -> None:
    """Record the ball's pinfall, then set up the next ball, frame or bonus rack (the engine's `_end_ball`)."""
    s[F_PHASE] = CHOOSE
    s[F_NDICE] = 0
    s[F_DIE1] = 0
    s[F_DIE2] = 0
    found = _next_ball(s, f, config[C_PINS], config[C_FRAMES])
    if found != RACK_ON:  # a bonus rack of the last frame has no token
        s[F_STANDING] = config[C_FULL]
    if found == NEW_FRAME:
        s[F_TOKENS] += config[C_TOKENS]


@njit(cache=True)
def _observe(
    s: Any, f: Any, row: Any, config: Any, layout: Any, ball_at: Any, pin_at: Any, die_at: Any, fractions: Any
) -> None:
    """Write the game's observation (`encoding.Observer(game, 1).vector`) into `row`.

    `ball_at[b]` is (bowled, pins) of ball slot b, `pin_at[p]` pin p's standing entry, `die_at[d, face]`
    die d's face entry; `fractions` holds the values k / n as the observer rounds them, by (n, k):
    row 0 pins, 1 frames, 2 the maximum score, 3 the token limit. The lane's entries are written
    as in `solitaire_kernel._observe`, not by a shared function: that call cost a fifth of a step.
    """
    row[:] = 0.0
    for b in range(s[F_BALLS]):
        row[ball_at[b, 0]] = 1.0
        row[ball_at[b, 1]] = fractions[0, f[b]]
    row[layout[L_SCORE]] = fractions[2, s[F_SCORE]]
    row[layout[L_OBSERVER]] = 1.0
    if s[F_OVER] == 0:
        row[layout[L_FRAME]] = fractions[1, s[F_FRAME]]
        row[layout[L_NEXT_BALL1] + s[F_BALL] - 1] = 1.0
        row[layout[L_RACK]] = fractions[0, s[F_RACK]]
        row[layout[L_TURN]] = 1.0
    standing = s[F_STANDING]
    for pin in range(1, config[C_PINS] + 1):
        if standing >> (pin - 1) & 1:
            row[pin_at[pin]] = 1.0
    row[layout[L_TOKENS]] = fractions[3, s[F_TOKENS]]
    row[layout[L_PHASE] + s[F_PHASE]] = 1.0
    if s[F_NDICE] >= 1:
        row[die_at[0, s[F_DIE1]]] = 1.0
    if s[F_NDICE] >= 2:
        row[die_at[1, s[F_DIE2]]] = 1.0


@njit(cache=True)
def _legal(
    s: Any,
    mask: Any,
    legal: Any,
    config: Any,
    cross_pins: Any,
    cross_tokens: Any,
    by_roll_start: Any,
    by_roll: Any,
    token_low: Any,
    token_high: Any,
) -> int:
    """Write the legal ids into `mask` (1s) and `legal` (a list); return how many.

    Crosses are listed by the roll they answer (`by_roll[by_roll_start[r]:by_roll_start[r + 1]]`);
    one is legal if its pins stand and its token change is within the roll's range
    (`token_low` / `token_high` by dice, roll and tokens: the engine's `token_range`).
    """
    mask[:] = 0
    if s[F_OVER]:
        return 0
    if s[F_PHASE] == CHOOSE:
        mask[config[C_DICE1]] = 1
        mask[config[C_DICE2]] = 1
        legal[0] = config[C_DICE1]
        legal[1] = config[C_DICE2]
        return 2
    mask[config[C_MISS]] = 1
    legal[0] = config[C_MISS]
    count = 1
    dice, tokens = s[F_NDICE], s[F_TOKENS]
    roll = s[F_DIE1] + s[F_DIE2]
    low = token_low[dice, roll, tokens] - roll
    high = token_high[dice, roll, tokens] - roll
    fallen = ~s[F_STANDING]
    for k in range(by_roll_start[roll], by_roll_start[roll + 1]):
        i = by_roll[k]
        change = cross_tokens[i]
        if cross_pins[i] & fallen == 0 and low <= change <= high:
            mask[i] = 1
            legal[count] = i
            count += 1
    return count


@njit(cache=True)
def reset_games(games: Any, state: Any, falls: Any, outputs: tuple[Any, ...], tables: tuple[Any, ...]) -> None:
    """Start a new game in each listed game slot, writing its observation and mask.

    `outputs` and `tables` are `tuple(Outputs(...))` and `tuple(Tables(...))`, made once per batch.
    """
    obs, masks, legal, counts = outputs[:4]
    config, cross_pins = tables[0], tables[3]
    cross_tokens, by_roll_start, by_roll, token_low, token_high, layout, ball_at, pin_at, die_at, fractions = tables[6:]
    for g in games:
        s = state[g]
        _new_game(s, falls[g], config)
        _observe(s, falls[g], obs[g], config, layout, ball_at, pin_at, die_at, fractions)
        counts[g] = _legal(
            s, masks[g], legal[g], config, cross_pins, cross_tokens, by_roll_start, by_roll, token_low, token_high
        )


@njit(cache=True)
def step_games(
    actions: Any, dice: Any, state: Any, falls: Any, outputs: tuple[Any, ...], tables: tuple[Any, ...]
) -> int:
    """Step every game with its action id; return how many game steps were played (resets not counted).

    `dice[g]` are the faces a roll of game g shows if its action chooses dice (the first, or both).
    A game whose episode ended at the previous step starts anew instead (its action is ignored:
    Gymnasium's next-step autoreset). An illegal id changes nothing: reward 0, `illegal[g]`, and the
    step counts toward the step limit. The observation and mask rows of unchanged games are kept.
    """
    obs, masks, legal, counts, rewards, terminated, truncated, illegal = outputs
    config, kinds, args, cross_pins, cross_down, cross_cost, cross_tokens, by_roll_start, by_roll = tables[:9]
    token_low, token_high, layout, ball_at, pin_at, die_at, fractions = tables[9:]
    played = 0
    limit = config[C_STEP_LIMIT]
    for g in range(actions.shape[0]):
        s = state[g]
        f = falls[g]
        rewards[g] = 0.0
        terminated[g] = False
        truncated[g] = False
        illegal[g] = False
        if s[F_RESET]:
            _new_game(s, f, config)
        else:
            played += 1
            s[F_ELAPSED] += 1
            a = actions[g]
            if a < 0 or a >= masks.shape[1] or masks[g, a] == 0:
                illegal[g] = True
            else:
                before = s[F_SCORE]
                kind = kinds[a]
                if kind == KIND_DICE:
                    s[F_NDICE] = args[a]
                    s[F_DIE1] = dice[g, 0]
                    s[F_DIE2] = dice[g, 1] if args[a] == 2 else 0
                    s[F_PHASE] = ROLLED
                elif kind == KIND_MISS:
                    _end_ball(s, f, config)
                else:  # a cross (only crosses and dice remain legal in the basic game)
                    s[F_TOKENS] -= cross_cost[a]
                    s[F_STANDING] &= ~cross_pins[a]
                    s[F_CROSSED] += cross_down[a]
                    if s[F_STANDING] == 0:
                        _end_ball(s, f, config)
                    else:
                        s[F_PHASE] = CHOOSE
                rewards[g] = s[F_SCORE] - before
                terminated[g] = s[F_OVER] == 1
            truncated[g] = limit > 0 and s[F_ELAPSED] >= limit
            if terminated[g] or truncated[g]:
                s[F_RESET] = 1
            if illegal[g]:
                continue
        _observe(s, f, obs[g], config, layout, ball_at, pin_at, die_at, fractions)
        counts[g] = _legal(
            s, masks[g], legal[g], config, cross_pins, cross_tokens, by_roll_start, by_roll, token_low, token_high
        )
    return played


@njit(cache=True)
def sample_legal(legal: Any, counts: Any, uniforms: Any, out: Any) -> None:
    """A uniformly random legal id of every game (`legal[g, :counts[g]]`), from uniforms in [0, 1); 0 if none."""
    for g in range(counts.shape[0]):
        n = counts[g]
        out[g] = legal[g, min(int(uniforms[g] * n), n - 1)] if n > 0 else 0
