"""The Rolling Pins bot that plays to win, against brute force through the engine on small games."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from pinsetter.bots.base import make_bot
from pinsetter.bots.rolling_pins_win import WinBot
from pinsetter.core.game import State, Step
from pinsetter.experiments.plan import play_scores
from pinsetter.games.registry import get_game
from pinsetter.games.rolling_pins import RollingPinsState
from pinsetter.records import PlayerSpec
from pinsetter.solvers import rolling_pins as solver
from pinsetter.solvers import rolling_pins_win as win

RNG = random.Random(0)


def final_scores(state: State, player: int) -> dict[int, float]:
    """P(final score) of one player of a solo game, every decision the optimal bot's, through the engine."""
    bot = make_bot("optimal", state.game)
    memo: dict[object, dict[int, float]] = {}

    def dist(s: State) -> dict[int, float]:
        if s.is_terminal():
            return {s.scores()[player]: 1.0}
        key = s.key()
        if key not in memo:
            out: dict[int, float] = {}
            if s.is_chance_node():
                for outcome, p in s.chance_classes():
                    for score, q in dist(s.child(outcome)).items():
                        out[score] = out.get(score, 0.0) + float(p) * q
            else:
                out = dist(s.child(bot.choose(s, RNG)))
            memo[key] = out
        return memo[key]

    return dist(state)


def win_chance(state: State, me: int, mine: Callable[[State], Step] | None) -> float:
    """P(player `me` finishes strictly ahead), the others playing the optimal bot, through the engine.

    `mine` plays player `me`'s decisions; None: the best decisions knowing everything seen (the exact optimum).
    """
    optimal = make_bot("optimal", state.game)
    memo: dict[object, float] = {}

    def value(s: State) -> float:
        if s.is_terminal():
            scores = s.scores()
            return float(all(scores[me] > score for other, score in enumerate(scores) if other != me))
        key = s.key()
        if key not in memo:
            if s.is_chance_node():
                memo[key] = sum(float(p) * value(s.child(o)) for o, p in s.chance_classes())
            elif s.turn() != me:
                memo[key] = value(s.child(optimal.choose(s, RNG)))
            elif mine is None:
                memo[key] = max(value(s.child(a)) for a in s.legal_actions())
            else:
                memo[key] = value(s.child(mine(s)))
        return memo[key]

    return value(state)


def first_values(bot: WinBot, state: State) -> float:
    values = bot.evaluate(state)
    assert values is not None
    return values[0][1]


@pytest.mark.parametrize(("pins", "frames"), [(3, 1), (3, 2), (2, 3), (10, 1)])
def test_opponent_distribution_equals_the_optimal_bot_through_the_engine(pins: int, frames: int) -> None:
    game = get_game("rolling-pins", {"pins": pins, "frames": frames})
    exact = final_scores(game.new_state(1), 0) if pins < 10 else None
    policy = solver.policy_for(pins, frames, 1)
    dist = win.final_distribution(policy, win.ball_key(frames, 1, 1, False, 0, 0), 0, (1 << pins) - 1, 1)
    assert dist.sum() == pytest.approx(1.0, abs=1e-12)
    assert dist @ np.arange(len(dist)) == pytest.approx(policy.expected_score, abs=1e-9)
    if exact is not None:
        assert {s: p for s, p in enumerate(dist) if p > 1e-15} == pytest.approx(exact, abs=1e-12)


@pytest.mark.parametrize(("pins", "frames", "gain"), [(3, 3, 1), (4, 2, 0), (2, 4, 1)])
def test_every_positions_distribution_is_the_one_of_a_pass_keeping_every_table(
    pins: int, frames: int, gain: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The opponents' distributions come from every frame's start values and, inside a frame, that frame's
    ball problems worked out from the next frame's start (two frames kept): the same figures, position by
    position, as one pass over the whole game keeping every table."""
    monkeypatch.setattr(win, "_FRAME_STARTS", {})
    monkeypatch.setattr(win, "_FRAME_BALLS", type(win._FRAME_BALLS)())
    policy = solver.policy_for(pins, frames, gain)
    whole = win.score_tables(policy, 1, win._top_reached(policy), follow=True).balls
    order = sorted(whole, key=lambda key: (-(frames if key[0] in win._LAST_FRAME_BALLS else key[1]), str(key)))  # type: ignore[operator]
    for key in [*order, *reversed(order)]:  # frames asked in and out of order: some worked out again
        start = whole[key].start
        for standing in range(start.shape[0]):
            for tokens in range(start.shape[1]):
                expected = start[standing, tokens, ::-1]
                assert np.allclose(win._at_least(policy, key, standing, tokens), expected, rtol=0, atol=1e-15)
    assert len(win._FRAME_BALLS) == win.FRAMES_KEPT


@pytest.mark.parametrize(("pins", "frames", "gain"), [(3, 1, 1), (3, 2, 0), (2, 3, 1), (4, 3, 1), (10, 1, 1)])
def test_the_start_distribution_is_the_first_balls_without_every_table_kept(pins: int, frames: int, gain: int) -> None:
    """What the daily odds show (`start_distribution`, tables dropped frame by frame) is, to the last bit,
    `final_distribution` at the game's first ball (every position's tables kept)."""
    policy = solver.policy_for(pins, frames, gain)
    kept = win.final_distribution(policy, win.ball_key(frames, 1, 1, False, 0, 0), 0, (1 << pins) - 1, gain)
    assert np.array_equal(win.start_distribution(policy), kept)
    assert kept @ np.arange(len(kept)) == pytest.approx(policy.expected_score, abs=1e-9)


@pytest.mark.parametrize(("pins", "tokens", "seat"), [(2, True, 0), (2, False, 0), (3, True, 1), (3, False, 1)])
def test_one_frame_the_win_bot_is_exact(pins: int, tokens: bool, seat: int) -> None:
    # With one frame, neither player sees anything of the other before its own game ends (the
    # second sees a finished game): the plan is the exact optimum, and the bot plays it.
    game = get_game("rolling-pins", {"pins": pins, "frames": 1, "tokens": tokens})
    state = game.new_state(2)
    if seat == 1:  # the opponent's frame first
        optimal = make_bot("optimal", game)
        while state.turn() != 1:
            state = state.child(state.sample_chance(RNG) if state.is_chance_node() else optimal.choose(state, RNG))
    bot = make_bot("win", game)
    assert isinstance(bot, WinBot)
    exact = win_chance(state, seat, None)
    assert first_values(bot, state) == pytest.approx(exact, abs=1e-5)
    assert win_chance(state, seat, lambda s: bot.choose(s, RNG)) == pytest.approx(exact, abs=1e-5)


def test_the_plan_is_worth_at_least_playing_for_expected_score() -> None:
    # Two players who both play for expected score are independent and alike: the first finishes
    # ahead with P(X > Y). Playing for expected score is one of the plans the win bot weighs, and
    # against the same opponent its plan is worth more (brute force of two players' games through
    # the engine takes minutes beyond one frame: the one-frame checks above are the exact ones).
    game = get_game("rolling-pins", {"frames": 2})
    policy = solver.policy_for(10, 2, 1)
    alike = win.final_distribution(policy, win.ball_key(2, 1, 1, False, 0, 0), 0, 1023, 1)
    expected_play, tie = win.win_chance(alike, alike)
    assert expected_play == pytest.approx((1 - tie) / 2, abs=1e-12)
    bot = make_bot("win", game)
    assert isinstance(bot, WinBot)
    planned = first_values(bot, game.new_state(2))
    assert planned > expected_play + 1e-3


def test_the_horizon_values_later_frames_by_expected_score_play() -> None:
    # A plan of one frame values the frames after it as the optimal bot plays them: with the
    # final score itself as the thing to maximise, every plan is worth the optimal expected score.
    policy = solver.policy_for(4, 3, 1)
    identity = np.arange(3 * 4 * 3 + 1, dtype=float)
    for horizon in (1, 2, 3):
        tables = win.plan(policy, 1, (0, 0), 0, identity, horizon, 1)
        assert tables.frames[(1, 0, 0)][1, 0] == pytest.approx(policy.expected_score, abs=1e-4)


def test_a_win_bot_behind_takes_risks_the_optimal_bot_does_not() -> None:
    # Against an opponent with a fixed final score, the win bot's plan is worth its chance to
    # reach it, which is at least the optimal bot's (and a game it cannot lose it plays for score).
    game = get_game("rolling-pins", {"frames": 1})
    scores, _, _ = play_scores(game, [PlayerSpec("a", "optimal"), PlayerSpec("b", "win")], 3)
    assert scores[0] >= 0 and scores[1] >= 0
    state = game.new_state(2)
    optimal = make_bot("optimal", game)
    while state.turn() != 1:
        state = state.child(state.sample_chance(RNG) if state.is_chance_node() else optimal.choose(state, RNG))
    bot = make_bot("win", game)
    assert isinstance(bot, WinBot)
    assert isinstance(state, RollingPinsState)
    theirs = bot.opponent_distribution(state, 0)
    assert theirs.max() == 1.0  # finished: a point mass
    policy = solver.policy_for(10, 1, 1)
    mine = win.final_distribution(policy, win.ball_key(1, 1, 1, False, 0, 0), 0, 1023, 1)
    expected_play, _ = win.win_chance(mine, theirs)
    assert first_values(bot, state) >= expected_play - 1e-6


def test_registered_for_rolling_pins() -> None:
    game = get_game("rolling-pins", {"frames": 1})
    assert isinstance(make_bot("win", game), WinBot)


def test_the_frame_start_values_are_kept_on_disk_and_a_damaged_file_is_worked_out_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The opponents' frame-start chances take tens of seconds for ten frames: a later process reads them
    from the solver's cache (PINSETTER_CACHE_DIR, a temporary folder in tests); a bad file costs a pass."""
    monkeypatch.setattr(win, "_FRAME_STARTS", {})
    policy = solver.policy_for(3, 3, 1)
    path = win.starts_path(policy)
    path.unlink(missing_ok=True)
    made = win.frame_starts(policy)
    assert path.exists()

    def no_pass(*args: object, **kwargs: object) -> None:
        raise AssertionError("worked out again although the cache holds them")

    monkeypatch.setattr(win, "_FRAME_STARTS", {})
    with monkeypatch.context() as patched:
        patched.setattr(win, "score_tables", no_pass)
        read = win.frame_starts(policy)
    assert read.keys() == made.keys() and all(np.array_equal(read[k], made[k]) for k in made)
    for damage in (b"not a zip file", path.read_bytes()[:200]):
        path.write_bytes(damage)
        monkeypatch.setattr(win, "_FRAME_STARTS", {})
        again = win.frame_starts(policy)
        assert all(np.array_equal(again[k], made[k]) for k in made)
        assert win._load_starts(path, policy) is not None  # rewritten whole
    other = solver.policy_for(3, 2, 1)  # another game's file under this one's name is refused
    win.frame_starts(other)
    path.write_bytes(win.starts_path(other).read_bytes())
    assert win._load_starts(path, policy) is None
