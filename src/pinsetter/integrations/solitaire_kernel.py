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

from typing import Any

import numpy as np

from pinsetter.integrations.rolling_pins_kernel import _frame_next, _running_score
from pinsetter.solvers.compiled import njit

__all__ = ["FIELDS", "KIND_END", "KIND_NONE", "KIND_PLAY", "KIND_STOP", "TABLE", "reset_games", "step_games"]

PINS = 10
FULL = (1 << PINS) - 1
PILE_START = (10, 15, 18)  # where each pile's cards are in a deal
PILE_SIZES = (5, 3, 2)

# Each game's state: `state[g, F_...]`, its pinfalls `falls[g]`, its table `table[g, T_...]`, its deal.
F_STANDING = 0
F_CROSSED = 1
F_BALLS = 2
F_FRAME = 3
F_FRAME_START = 4
F_BALL = 5
F_RACK = 6
F_OVER = 7
F_SCORE = 8
F_ELAPSED = 9
F_RESET = 10
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

# `layout` entries (the per-ball, per-pin, per-pile and per-value entries have arrays of their own).
L_SCORE = 0
L_FRAME = 1
L_NEXT_BALL1 = 2
L_RACK = 5
L_OBSERVER = 6
L_TURN = 7
LAYOUT = 8


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
    frames = config[C_FRAMES]
    f[s[F_BALLS]] = s[F_CROSSED]
    s[F_BALLS] += 1
    s[F_CROSSED] = 0
    last = s[F_FRAME] == frames
    rack, fresh = _frame_next(f, s[F_FRAME_START], s[F_BALLS], last, PINS)
    if rack >= 0:
        s[F_BALL] += 1
        s[F_RACK] = rack
    elif last:
        s[F_OVER] = 1
    else:
        s[F_FRAME] += 1
        s[F_FRAME_START] = s[F_BALLS]
        s[F_BALL] = 1
        s[F_RACK] = PINS
        fresh = 1
    s[F_SCORE] = _running_score(f, s[F_BALLS], s[F_OVER] == 1, PINS, frames)
    if s[F_OVER]:
        return
    if fresh:
        _new_deal(g, s, t, deal, config, given, rng)
    else:
        for k in range(3):
            if t[T_REMAINING + k] > 0:
                _use_top(t, k)


@njit(cache=True)
def _legal(
    s: Any,
    t: Any,
    mask: Any,
    legal: Any,
    config: Any,
    plays: Any,
    play_pile: Any,
    play_group: Any,
    play_opens: Any,
    play_reach: Any,
    play_at: Any,
    matches: Any,
) -> int:
    """Write the legal ids into `mask` and `legal`; return how many plays there are (`stop` not counted).

    A play is legal if its pile has a face-up card, its pins stand, it may open the frame (on a
    full rack) or touches a cleared position (otherwise), and its pins' values match the card
    (`matches[pins, sum of values, card]`, the engine's `matches`).
    """
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
    g: int,
    s: Any,
    f: Any,
    t: Any,
    deal: Any,
    mask: Any,
    legal: Any,
    config: Any,
    given: Any,
    rng: Any,
    plays: Any,
    play_pile: Any,
    play_group: Any,
    play_opens: Any,
    play_reach: Any,
    play_at: Any,
    matches: Any,
) -> int:
    """Turn up what is due; end every ball that has no play; write the mask. Return the legal ids' count."""
    while True:
        if not s[F_OVER]:
            _turn_up(t, deal)
        plays_now = _legal(
            s, t, mask, legal, config, plays, play_pile, play_group, play_opens, play_reach, play_at, matches
        )
        if s[F_OVER]:
            return 0 if s[F_DECIDED] else 1
        if plays_now > 0:
            return plays_now + 1
        _end_ball(g, s, f, t, deal, config, given, rng)


@njit(cache=True)
def _observe(
    s: Any,
    f: Any,
    t: Any,
    row: Any,
    layout: Any,
    ball_at: Any,
    pin_standing_at: Any,
    pin_value_at: Any,
    top_at: Any,
    cards_at: Any,
    seen_at: Any,
    fractions: Any,
) -> None:
    """Write the game's observation (`encoding.Observer(game, 1).vector`) into `row`.

    `fractions` holds k / n as the observer rounds them, n by row: 10 pins, frames, the maximum
    score, the largest pile, copies of a value.
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
    g: int,
    s: Any,
    f: Any,
    t: Any,
    deal: Any,
    mask: Any,
    legal: Any,
    config: Any,
    given: Any,
    rng: Any,
    plays: Any,
    play_pile: Any,
    play_group: Any,
    play_opens: Any,
    play_reach: Any,
    play_at: Any,
    matches: Any,
) -> int:
    """A new game in slot g, up to its first decision (or its end, if chance alone ends it)."""
    s[:] = 0
    f[:] = 0
    s[F_FRAME] = 1
    s[F_BALL] = 1
    s[F_RACK] = PINS
    _new_deal(g, s, t, deal, config, given, rng)
    return _settle(
        g,
        s,
        f,
        t,
        deal,
        mask,
        legal,
        config,
        given,
        rng,
        plays,
        play_pile,
        play_group,
        play_opens,
        play_reach,
        play_at,
        matches,
    )


@njit(cache=True)
def reset_games(
    games: Any,
    state: Any,
    falls: Any,
    table: Any,
    deals: Any,
    obs: Any,
    masks: Any,
    legal: Any,
    counts: Any,
    config: Any,
    given: Any,
    rng: Any,
    plays: Any,
    play_pile: Any,
    play_group: Any,
    play_opens: Any,
    play_reach: Any,
    play_at: Any,
    matches: Any,
    layout: Any,
    ball_at: Any,
    pin_standing_at: Any,
    pin_value_at: Any,
    top_at: Any,
    cards_at: Any,
    seen_at: Any,
    fractions: Any,
) -> None:
    """Start a new game in each listed slot, writing its observation and mask."""
    for g in games:
        counts[g] = _start(
            g,
            state[g],
            falls[g],
            table[g],
            deals[g],
            masks[g],
            legal[g],
            config,
            given,
            rng,
            plays,
            play_pile,
            play_group,
            play_opens,
            play_reach,
            play_at,
            matches,
        )
        _observe(
            state[g],
            falls[g],
            table[g],
            obs[g],
            layout,
            ball_at,
            pin_standing_at,
            pin_value_at,
            top_at,
            cards_at,
            seen_at,
            fractions,
        )


@njit(cache=True)
def step_games(
    actions: Any,
    state: Any,
    falls: Any,
    table: Any,
    deals: Any,
    obs: Any,
    masks: Any,
    legal: Any,
    counts: Any,
    rewards: Any,
    terminated: Any,
    truncated: Any,
    illegal: Any,
    config: Any,
    given: Any,
    rng: Any,
    kinds: Any,
    plays: Any,
    play_pile: Any,
    play_group: Any,
    play_count: Any,
    play_opens: Any,
    play_reach: Any,
    play_at: Any,
    matches: Any,
    layout: Any,
    ball_at: Any,
    pin_standing_at: Any,
    pin_value_at: Any,
    top_at: Any,
    cards_at: Any,
    seen_at: Any,
    fractions: Any,
) -> int:
    """Step every game with its action id; return the game steps played (starts of new games not counted).

    As `rolling_pins_kernel.step_games`: next-step autoreset, an illegal id changes nothing
    (reward 0, `illegal[g]`, counted toward the step limit), unchanged rows are kept.
    """
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
            counts[g] = _start(
                g,
                s,
                f,
                t,
                deal,
                masks[g],
                legal[g],
                config,
                given,
                rng,
                plays,
                play_pile,
                play_group,
                play_opens,
                play_reach,
                play_at,
                matches,
            )
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
                counts[g] = _settle(
                    g,
                    s,
                    f,
                    t,
                    deal,
                    masks[g],
                    legal[g],
                    config,
                    given,
                    rng,
                    plays,
                    play_pile,
                    play_group,
                    play_opens,
                    play_reach,
                    play_at,
                    matches,
                )
                rewards[g] = s[F_SCORE] - before
                terminated[g] = s[F_OVER] == 1
            truncated[g] = limit > 0 and s[F_ELAPSED] >= limit
            if terminated[g] or truncated[g]:
                s[F_RESET] = 1
            if illegal[g]:
                continue
        _observe(s, f, t, obs[g], layout, ball_at, pin_standing_at, pin_value_at, top_at, cards_at, seen_at, fractions)
    return played
