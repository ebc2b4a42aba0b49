"""The shortcuts taken for speed (issue 15) give exactly what the plain computations give.

Each memo or incremental path is checked against the computation it replaces, on positions
reached by seeded random play: legal actions kept per sheet, Solitaire plays kept per table,
ball contexts from the frame alone, lazily seeded generators, the optimal bot's kept terms.
"""

from __future__ import annotations

import random

import pytest

from pinsetter.bots.base import make_bot
from pinsetter.bots.rolling_pins import OptimalBot
from pinsetter.core.game import State
from pinsetter.core.scoring import Lane, following_ball, next_ball
from pinsetter.core.seeds import lazy_step_rng, step_rng
from pinsetter.games.bowling_solitaire import SolitaireState
from pinsetter.games.registry import get_game
from pinsetter.games.rolling_pins import RollingPinsState


def positions(game_id: str, options: dict[str, object], players: int, games: int, seed: int) -> list[State]:
    """Copies of every decision position of some seeded random games."""
    game = get_game(game_id, options)
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        state = game.new_state(players)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
            else:
                found.append(state.clone())
                state.apply(rng.choice(state.legal_actions()))
    return found


RP_OPTIONS = [
    {},
    {"advanced": "true"},
    {"advanced": "true", "auto_strike": "held"},
    {"frames": "3", "pins": "4"},
    {"shared_dice": "true", "advanced": "true"},
]


@pytest.mark.parametrize("options", RP_OPTIONS, ids=str)
def test_kept_legal_actions_are_the_engines(options: dict[str, object]) -> None:
    players = 2 if options.get("shared_dice") else 1
    for state in positions("rolling-pins", options, players, 4, 15):
        assert isinstance(state, RollingPinsState)
        player = state.players[state.turn()]
        fresh = sorted(state._actions(player))
        assert state.legal_actions() == fresh
        assert state.legal_actions() == fresh  # asked again: from the memo


@pytest.mark.parametrize("rule", ["connected", "mutual"])
def test_kept_solitaire_plays_are_the_rules(rule: str) -> None:
    for state in positions("bowling-solitaire", {"groups": rule, "frames": "4"}, 1, 6, 3):
        assert isinstance(state, SolitaireState)
        table = state.table
        fresh = table._plays(rule)
        assert fresh == sorted(fresh)
        assert table.plays(rule) == fresh
        table.standing &= ~(table.standing & -table.standing)  # a pin taken by hand: the memo must see it
        assert table.plays(rule) == table._plays(rule)


def test_ball_contexts_from_the_frame_alone() -> None:
    rng = random.Random(4)
    for pins, frames in ((1, 1), (3, 2), (10, 10), (4, 3)):
        lane = Lane(pins, frames)
        for _ in range(300):
            balls: list[int] = []
            ctx = next_ball(balls, lane)
            while ctx is not None:
                balls.append(rng.choice([0, ctx.standing, rng.randint(0, ctx.standing)]))
                ctx_after = following_ball(ctx, balls[len(balls) - ctx.ball :], lane)
                assert ctx_after == next_ball(balls, lane)
                ctx = ctx_after


def test_lazy_generators_draw_what_step_rng_draws() -> None:
    for seed, index, stream in ((0, 0, 0), (7, 31, 1), (2**63 - 1, 500, 1)):
        eager, lazy = step_rng(seed, index, stream), lazy_step_rng(seed, index, stream)

        def draws(rng: random.Random) -> list[object]:
            return [rng.choice(range(50)), rng.random(), rng.randint(1, 6), rng.choices("abc", [1, 2, 3])[0]]

        assert draws(lazy) == draws(eager)
        assert type(lazy) is random.Random and lazy.getstate() == eager.getstate()


def test_optimal_bot_kept_terms_choose_what_evaluate_ranks_first() -> None:
    game = get_game("rolling-pins", {"frames": "4"})
    bot = make_bot("optimal", game)
    assert isinstance(bot, OptimalBot)
    for state in positions("rolling-pins", {"frames": "4"}, 1, 6, 8) * 2:  # twice: the second time from the memo
        values = bot.evaluate(state)
        assert values is not None
        assert bot.choose(state, random.Random(0)) == values[0][0]
