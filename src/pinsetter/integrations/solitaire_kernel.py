"""A compiled step of many Bowling Solitaire games at once (issue 29, part 3).

A second implementation of the game's turn (plays from the piles, stop, the second ball's
burned tops, a ball with no play ending by itself, new deals for each frame and the 10th
frame's bonus balls, the running score), over arrays of shape (batch, ...). Each play id's
pile, pins, whether it may open a frame, the positions it touches, and which pin sums match
which card are tables that `pinsetter.integrations.vector` builds from the action index and
the engine's own rule functions; tests/test_rl_batched.py plays seeded games through the
engine and this kernel with the same deals and compares every step.

A deal is twenty cards: the pins at positions 1-10, then piles 1-3 top card first (5, 3 and 2
cards). Every card turned up is the deal's card for its slot, as `Match` turns up its seeded
deals; the kernel shuffles its own deals (a per-game xorshift generator) or takes them given.
Only numba and numpy here.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from pinsetter.integrations.rolling_pins_kernel import (
    F_BALL,
    F_BALLS,
    F_CROSSED,
    F_ELAPSED,
    F_FRAME,
    F_OVER,
    F_RACK,
    F_RESET,
    F_SCORE,
    F_STANDING,
    L_FRAME,
    L_NEXT_BALL1,
    L_OBSERVER,
    L_RACK,
    L_SCORE,
    L_TURN,
    FloatArray,
    IntArray,
    _next_ball,
)
from pinsetter.solvers.compiled import njit

__all__ = [
    "FIELDS",
    "KIND_END",
    "KIND_NONE",
    "KIND_PLAY",
    "KIND_STOP",
    "TABLE",
    "Tables",
    "reset_games",
    "step_games",
]

PINS = 10
FULL = (1 << PINS) - 1
PILE_START = (10, 15, 18)  # where each pile's cards are in a deal
PILE_SIZES = (5, 3, 2)

# Each game's state: `state[g, F_...]`, its pinfalls `falls[g]`, its table `table[g, T_...]`, its deal.
# Fields 0-10 (standing pins to the autoreset flag) are the lane's, as `rolling_pins_kernel` numbers them.
F_DECIDED = 11  # the episode has had a decision (`end` is the one legal id of a game over before any)
F_DEALS = 12  # deals so far in this game (deal n of a game is its n-th)
FIELDS = 13

T_PINS = 0  # 10 pin values by position - 1
T_REMAINING = 10  # 3: cards left in each pile, its face-up top included
T_TOPS = 13  # 3: face-up tops (0: none)
T_REVEALED = 16  # 3: cards turned up from each pile
T_PENDING = 19  # 3: the pile's next card is to turn up
T_SEEN = 22  # 11: copies seen of each value (index 1-10)
TABLE = 33

KIND_NONE = 0
KIND_PLAY = 1
KIND_STOP = 2
KIND_END = 3

# `config` entries.
C_FRAMES = 0
C_STEP_LIMIT = 1
C_STOP = 2  # the id of `stop`
C_END = 3  # the id of `end`
C_GIVEN = 4  # 1: deals come from the `given` array (deal n of the game is given[g, n - 1])
CONFIG = 5

# `layout` entries: the lane's, `rolling_pins_kernel.L_SCORE` to `L_TURN` (the per-ball, per-pin,
# per-pile and per-value entries have arrays of their own).
LAYOUT = 8


class Tables(NamedTuple):
    """The kernel's constant tables, built once per environment (`vector.solitaire_tables`).

    Passed as one plain tuple, `tuple(tables)`, as `rolling_pins_kernel.Tables` are (and for their
    reasons): the functions called for each game take the plays' tables (`tables[2:10]`, the rules)
    or the observation's (`tables[10:]`, the looks) as one tuple each.
    """

    config: IntArray
    kinds: IntArray  # by id: KIND_*
    plays: IntArray  # the play ids
    play_pile: IntArray  # by id: its pile, 1-3
    play_group: IntArray  # by id: its pins as a mask
    play_count: IntArray  # by id: how many pins
    play_opens: IntArray  # by id: `first_play_allowed`
    play_reach: IntArray  # by id: `reach`, the positions next to its pins
    play_at: IntArray  # by id: its positions - 1 (-1 past its pins)
    matches: Any  # booleans by pins, sum of their values, card: `matches`
    layout: IntArray
    ball_at: IntArray
    pin_standing_at: IntArray  # by position - 1
    pin_value_at: IntArray  # by position - 1, value
    top_at: IntArray  # by pile - 1, value
    cards_at: IntArray  # by pile - 1
    seen_at: IntArray  # by value
    fractions: FloatArray  # k / n, n by row: pins, frames, maximum score, largest pile, copies of a value


@njit(cache=True)
def _random(rng: Any, g: int) -> float:
    """A uniform float in [0, 1) from game g's xorshift64* generator."""
    x = rng[g]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[g] = x
    return float((x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(11)) / 9007199254740992.0


@njit(cache=True)
def _new_deal(g: int, s: Any, t: Any, deal: Any, config: Any, given: Any, rng: Any) -> None:
    """Deal the next twenty cards and turn up the pins and the piles' tops (a fresh table)."""
    s[F_DEALS] += 1
    if config[C_GIVEN]:
        deal[:] = given[g, s[F_DEALS] - 1]
    else:
        for i in range(20):
            deal[i] = i // 2 + 1
        for i in range(19, 0, -1):  # Fisher-Yates
            j = int(_random(rng, g) * (i + 1))
            deal[i], deal[j] = deal[j], deal[i]
    t[:] = 0
    for p in range(PINS):
        t[T_PINS + p] = deal[p]
        t[T_SEEN + deal[p]] += 1
    for k in range(3):
        t[T_REMAINING + k] = PILE_SIZES[k]
        top = deal[PILE_START[k]]
        t[T_TOPS + k] = top
        t[T_REVEALED + k] = 1
        t[T_SEEN + top] += 1
    s[F_STANDING] = FULL


@njit(cache=True)
def _use_top(t: Any, k: int) -> None:
    """Pile k's top is spent (played or burned); its next card, if any, is to turn up."""
    t[T_TOPS + k] = 0
    t[T_REMAINING + k] -= 1
    if t[T_REMAINING + k] > 0:
        t[T_PENDING + k] = 1


@njit(cache=True)
def _turn_up(t: Any, deal: Any) -> None:
    """Turn up every pile's next card that is due (each is the deal's card for its slot)."""
    for k in range(3):
        if t[T_PENDING + k]:
            card = deal[PILE_START[k] + t[T_REVEALED + k]]
            t[T_TOPS + k] = card
            t[T_REVEALED + k] += 1
            t[T_SEEN + card] += 1
            t[T_PENDING + k] = 0


@njit(cache=True)
def _end_ball(g: int, s: Any, f: Any, t: Any, deal: Any, config: Any, given: Any, rng: Any) -> None:
    """Record the ball; then a fresh deal for a fresh rack, or the tops burned for the frame's next ball."""
    fresh = _next_ball(s, f, PINS, config[C_FRAMES])  # a bonus rack or a new frame: a new deal
    if s[F_OVER]:
        return
    if fresh:
        _new_deal(g, s, t, deal, config, given, rng)
    else:
        for k in range(3):
            if t[T_REMAINING + k] > 0:
                _use_top(t, k)


@njit(cache=True)
def _legal(s: Any, t: Any, mask: Any, legal: Any, config: Any, rules: tuple[Any, ...]) -> int:
    """Write the legal ids into `mask` and `legal`; return how many plays there are (`stop` not counted).

    A play is legal if its pile has a face-up card, its pins stand, it may open the frame (on a
    full rack) or touches a cleared position (otherwise), and its pins' values match the card
    (`matches[pins, sum of values, card]`, the engine's `matches`).
    """
    plays, play_pile, play_group, _, play_opens, play_reach, play_at, matches = rules
    mask[:] = 0
    if s[F_OVER]:
        if s[F_DECIDED]:
            return 0
        mask[config[C_END]] = 1
        legal[0] = config[C_END]
        return 0
    standing = s[F_STANDING]
    cleared = FULL & ~standing
    first = standing == FULL
    count = 0
    for i in plays:
        top = t[T_TOPS + play_pile[i] - 1]
        if top == 0 or play_group[i] & ~standing:
            continue
        if first:
            if not play_opens[i]:
                continue
        elif play_reach[i] & cleared == 0:
            continue
        n = 0
        total = 0
        for j in range(3):
            at = play_at[i, j]
            if at >= 0:
                total += t[T_PINS + at]
                n += 1
        if matches[n, total, top]:
            mask[i] = 1
            legal[count] = i
            count += 1
    mask[config[C_STOP]] = 1
    legal[count] = config[C_STOP]
    return count


@njit(cache=True)
def _settle(
    g: int, s: Any, f: Any, t: Any, deal: Any, mask: Any, legal: Any, config: Any, given: Any, rng: Any, rules: Any
) -> int:
    """Turn up what is due; end every ball that has no play; write the mask. Return the legal ids' count."""
    while True:
        if not s[F_OVER]:
            _turn_up(t, deal)
        plays_now = _legal(s, t, mask, legal, config, rules)
        if s[F_OVER]:
            return 0 if s[F_DECIDED] else 1
        if plays_now > 0:
            return plays_now + 1
        _end_ball(g, s, f, t, deal, config, given, rng)


@njit(cache=True)
def _observe(s: Any, f: Any, t: Any, row: Any, looks: tuple[Any, ...]) -> None:
    """Write the game's observation (`encoding.Observer(game, 1).vector`) into `row`.

    `looks` are the tables' `layout` to `fractions`; `fractions` holds k / n as the observer rounds
    them, n by row: 10 pins, frames, the maximum score, the largest pile, copies of a value.
    """
    layout, ball_at, pin_standing_at, pin_value_at, top_at, cards_at, seen_at, fractions = looks
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
    for p in range(PINS):
        if standing >> p & 1:
            row[pin_standing_at[p]] = 1.0
            row[pin_value_at[p, t[T_PINS + p]]] = 1.0
    for k in range(3):
        top = t[T_TOPS + k]
        if top:
            row[top_at[k, top]] = 1.0
        row[cards_at[k]] = fractions[3, t[T_REMAINING + k]]
    for v in range(1, 11):
        if t[T_SEEN + v]:
            row[seen_at[v]] = fractions[4, t[T_SEEN + v]]


@njit(cache=True)
def _start(
    g: int, s: Any, f: Any, t: Any, deal: Any, mask: Any, legal: Any, config: Any, given: Any, rng: Any, rules: Any
) -> int:
    """A new game in slot g, up to its first decision (or its end, if chance alone ends it)."""
    s[:] = 0
    f[:] = 0
    s[F_FRAME] = 1
    s[F_BALL] = 1
    s[F_RACK] = PINS
    _new_deal(g, s, t, deal, config, given, rng)
    return _settle(g, s, f, t, deal, mask, legal, config, given, rng, rules)


@njit(cache=True)
def reset_games(
    games: Any, arrays: tuple[Any, ...], given: Any, outputs: tuple[Any, ...], tables: tuple[Any, ...]
) -> None:
    """Start a new game in each listed slot, writing its observation and mask.

    `arrays` are the games' own (state, pinfalls, table, deal, generator); `outputs` and `tables`
    are `tuple(rolling_pins_kernel.Outputs(...))` and `tuple(Tables(...))`. Each is made once per batch.
    """
    state, falls, table, deals, rng = arrays
    obs, masks, legal, counts = outputs[:4]
    config, rules, looks = tables[0], tables[2:10], tables[10:]
    for g in games:
        s, f, t = state[g], falls[g], table[g]
        counts[g] = _start(g, s, f, t, deals[g], masks[g], legal[g], config, given, rng, rules)
        _observe(s, f, t, obs[g], looks)


@njit(cache=True)
def step_games(
    actions: Any, arrays: tuple[Any, ...], given: Any, outputs: tuple[Any, ...], tables: tuple[Any, ...]
) -> int:
    """Step every game with its action id; return the game steps played (starts of new games not counted).

    As `rolling_pins_kernel.step_games`: next-step autoreset, an illegal id changes nothing
    (reward 0, `illegal[g]`, counted toward the step limit), unchanged rows are kept.
    """
    state, falls, table, deals, rng = arrays
    obs, masks, legal, counts, rewards, terminated, truncated, illegal = outputs
    config, kinds, rules, looks = tables[0], tables[1], tables[2:10], tables[10:]
    play_pile, play_group, play_count = tables[3], tables[4], tables[5]
    played = 0
    limit = config[C_STEP_LIMIT]
    for g in range(actions.shape[0]):
        s = state[g]
        f = falls[g]
        t = table[g]
        deal = deals[g]
        rewards[g] = 0.0
        terminated[g] = False
        truncated[g] = False
        illegal[g] = False
        if s[F_RESET]:
            counts[g] = _start(g, s, f, t, deal, masks[g], legal[g], config, given, rng, rules)
        else:
            played += 1
            s[F_ELAPSED] += 1
            a = actions[g]
            if a < 0 or a >= masks.shape[1] or masks[g, a] == 0:
                illegal[g] = True
            else:
                before = s[F_SCORE]
                s[F_DECIDED] = 1
                kind = kinds[a]
                if kind == KIND_STOP:
                    _end_ball(g, s, f, t, deal, config, given, rng)
                elif kind == KIND_PLAY:
                    s[F_STANDING] &= ~play_group[a]
                    s[F_CROSSED] += play_count[a]
                    _use_top(t, play_pile[a] - 1)
                    if s[F_STANDING] == 0:
                        _end_ball(g, s, f, t, deal, config, given, rng)
                counts[g] = _settle(g, s, f, t, deal, masks[g], legal[g], config, given, rng, rules)
                rewards[g] = s[F_SCORE] - before
                terminated[g] = s[F_OVER] == 1
            truncated[g] = limit > 0 and s[F_ELAPSED] >= limit
            if terminated[g] or truncated[g]:
                s[F_RESET] = 1
            if illegal[g]:
                continue
        _observe(s, f, t, obs[g], looks)
    return played
