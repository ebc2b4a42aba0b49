"""The optimal bot and the hints of advanced Rolling Pins, through the engine.

A game of up to three frames is solved at once, so these tests use one- and two-frame
games (10 pins, as the advanced game is played). Every option's value must be what the
position it leads to is worth, one step on through the engine: the best option's value
there, or over a roll the average of the best answers to every outcome. The values
themselves are the reference's on small games (test_solver_advanced.py).
"""

from __future__ import annotations

import random

import pytest

from pinsetter.bots.base import make_bot
from pinsetter.bots.hints import is_estimate, option_values
from pinsetter.bots.rolling_pins import OptimalBot
from pinsetter.core.game import State
from pinsetter.games.registry import get_game
from pinsetter.games.rolling_pins import Action, RollingPins, RollingPinsState
from pinsetter.solvers.rolling_pins_advanced import Variant, solution_for

UPPER_FULL = [1, 2, 2, 2, 3, 0, 1, 1, 1, 2]  # the lower row open, each lower area one mark from done
EVERY_UPPER = {"reroll": 1, "flip": 1, "extra-pin": 1, "extra-dice": 1}  # the upper row's abilities


def advanced_game(**options: str) -> RollingPins:
    game = get_game("rolling-pins", {"advanced": "true", **options})
    assert isinstance(game, RollingPins)
    return game


def best(bot: OptimalBot, state: State) -> float:
    """What a position is worth: its best option, or the final score."""
    if state.is_terminal():
        return float(state.scores()[0])
    values = bot.evaluate(state)
    assert values is not None
    return values[0][1]


def check(bot: OptimalBot, state: State, rolls: bool) -> list[tuple[object, float]]:
    """Every option's value is its next position's worth (over a roll: on average, if `rolls`)."""
    values = bot.evaluate(state)
    assert values is not None and bot.is_exact(state)
    for action, value in values:
        after = state.child(action)
        if after.is_chance_node():
            if rolls:
                worth = sum(float(p) * best(bot, after.child(o)) for o, p in after.chance_outcomes())
                assert value == pytest.approx(worth, abs=1e-9), (str(action), state.describe())
        else:
            assert value == pytest.approx(best(bot, after), abs=1e-9), (str(action), state.describe())
    return list(values)


def walk(bot: OptimalBot, state: RollingPinsState, rng: random.Random, every: int) -> set[str]:
    """A random game from `state`, checking each decision (the rolls at every `every`-th); the kinds met."""
    kinds: set[str] = set()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        values = check(bot, state, rolls=decisions % every == 0)
        decisions += 1
        actions = [a for a, _ in values if isinstance(a, Action)]
        kinds |= {a.kind for a in actions}
        special = [a for a in actions if a.kind not in ("cross", "miss", "dice", "pass")]
        state.apply(rng.choice(special) if special and rng.random() < 0.6 else rng.choice(actions))
    return kinds


def test_the_bot_starts_from_the_solved_value() -> None:
    game = advanced_game(frames="2")
    bot = make_bot("optimal", game)
    assert isinstance(bot, OptimalBot) and bot.exact is not None
    values = bot.evaluate(game.new_state(1))
    assert values is not None
    assert values[0][1] == pytest.approx(solution_for(Variant.of_game(game)).expected_score, abs=1e-12)


@pytest.mark.parametrize(("seed", "auto_strike"), [(1, "next"), (2, "held")])
def test_every_option_is_worth_its_next_position(seed: int, auto_strike: str) -> None:
    # A one-frame game (the last frame, with its bonus balls) needs no frame after it, so any
    # sheet can be valued: half the games start with the upper row full and every ability held.
    game = advanced_game(frames="1", auto_strike=auto_strike)
    bot = OptimalBot(game)
    rng = random.Random(seed)
    kinds: set[str] = set()
    for stocked in (False, True):
        state = game.new_state(1)
        assert isinstance(state, RollingPinsState)
        if stocked:
            player = state.players[0]
            player.marks, player.held, player.ten_pin = list(UPPER_FULL), dict(EVERY_UPPER), True
        kinds |= walk(bot, state, rng, every=6)
    assert {"dice", "cross", "miss"} <= kinds
    assert kinds & {"reroll", "flip", "keep", "extra-pin", "ten-pin", "auto-strike"}
    # Boxes to mark: grey pin 7 crossed in ball 2 (ball 1 crossed nothing).
    state = game.new_state(1)
    for text in ("dice 2", "6+6", "miss", "dice 2", "3+4", "cross 7"):
        state.apply_text(text)
    values = check(bot, state, rolls=False)
    assert {str(a) for a, _ in values} == {f"mark {area}" for area in range(1, 6)}


def test_the_bot_plays_its_best_option() -> None:
    game = advanced_game(frames="2")
    bot = OptimalBot(game)
    rng = random.Random(5)
    state = game.new_state(1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        values = bot.evaluate(state)
        assert values is not None
        chosen = bot.choose(state, rng)
        assert dict(values)[chosen] == values[0][1]
        state.apply(chosen)


def test_hints_are_exact_once_the_game_is_solved() -> None:
    small = advanced_game(frames="2").new_state(1)
    found = option_values(small)
    assert found is not None and not is_estimate(small)
    name, label, values = found
    assert name == "optimal" and "estimate" not in label
    assert values[0][1] == pytest.approx(solution_for(Variant.of_game(small.game)).expected_score, abs=1e-12)
    # The whole game is not solved in a test's empty cache: its hints say they are estimates.
    whole = advanced_game().new_state(1)
    assert is_estimate(whole)
    found = option_values(whole)
    assert found is not None and "estimate" in found[1]


def test_a_sheet_no_track_can_give_is_left_to_the_estimates() -> None:
    # Abilities set by hand, with no area completed: no kit of the solver holds them.
    state = advanced_game(frames="1").new_state(1)
    assert isinstance(state, RollingPinsState)
    state.players[0].held = {"reroll": 1}
    assert is_estimate(state)
    assert not OptimalBot(state.game).is_exact(state)
