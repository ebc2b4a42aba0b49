"""The fast Solitaire expectimax (issue 30) against the plain one: the same values, the same choices.

`Evaluator(..., merge=False)` searches every information state apart, as the search did before
issue 30; `tests/test_solitaire_values.py` and `tests/test_solitaire.py` hold it (and the default
search) to plain expectimax through the engine. The default search memoises equivalent states
under one key, sums the dead cards of a chance node together and stops a decision whose best
option reaches the most the frame can earn (solvers/solitaire.py). Here it must give every
option the plain search's value within 1e-12, and its best option must be one of the plain
search's best (a tie, where rounding may order two equal options either way).
"""

from __future__ import annotations

import random

import pytest

from pinsetter.bots.solitaire import ExpectimaxBot, objective_for
from pinsetter.games.bowling_solitaire import Action, BowlingSolitaire, SolitaireState
from pinsetter.solvers.solitaire import (
    PINS_OBJECTIVE,
    STRIKE_OBJECTIVE,
    Evaluator,
    Objective,
    Position,
    _new_memo,
    score_objective,
)
from test_solitaire_values import RULES, fresh, seeded_deals

TOLERANCE = 1e-12
OBJECTIVES = (
    PINS_OBJECTIVE,
    STRIKE_OBJECTIVE,  # ball 2 is worth nothing: every decision of ball 2 stops at its ceiling
    score_objective(0, 0),
    score_objective(2, 1),
    Objective(2.0, 1.0, 9.5, 7.7, 0.5),
    # An open frame worth more than a spare: a play taking the last pins is not the most the frame
    # can earn, so the search must not take it for the decision's value.
    Objective(1.0, 1.0, 0.0, 0.0, 5.0),
)
DEALS = seeded_deals(30, 12)


def options(state: SolitaireState) -> list[Action]:
    return [a for a in state.legal_actions() if isinstance(a, Action)]


def assert_same(state: SolitaireState, merged: Evaluator, plain: Evaluator) -> None:
    """Every option valued alike, and the merged search's first choice among the plain one's best."""
    position = Position.from_table(state.table)
    fast = merged.option_values(position, options(state))
    slow = dict(plain.option_values(position, options(state)))
    assert {a for a, _ in fast} == set(slow)
    for action, value in fast:
        assert value == pytest.approx(slow[action], abs=TOLERANCE), (str(state.table.pins), action)
    assert slow[fast[0][0]] >= max(slow.values()) - TOLERANCE


@pytest.mark.parametrize("index", range(len(DEALS)))
def test_every_root_option_of_a_fresh_deal(index: int) -> None:
    """Deal i under rule i % 2 and objective i % 6: each objective meets both rules."""
    rule = RULES[index % 2]
    objective = OBJECTIVES[index % len(OBJECTIVES)]
    state = fresh(DEALS[index], rule)
    assert state is not None
    pins = tuple(state.table.pins)
    assert_same(state, Evaluator(pins, rule, objective), Evaluator(pins, rule, objective, merge=False))


@pytest.mark.parametrize("rule", RULES)
def test_every_decision_of_played_games(rule: str) -> None:
    """Games played by the bot (which hands each deal's memo on to the next deal's evaluator): at
    every decision, the bot's values are the plain search's and its choice one of the best."""
    game = BowlingSolitaire({"groups": rule, "frames": 4})
    bot = ExpectimaxBot(game, "score")
    for seed in (1, 2):
        rng = random.Random(seed)
        state = game.new_state()
        assert isinstance(state, SolitaireState)
        plain: dict[object, Evaluator] = {}
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            objective = objective_for(state, "score")
            deal = (state.deals, objective)
            if deal not in plain:
                plain = {deal: Evaluator(tuple(state.table.pins), rule, objective, merge=False)}
            assert_same(state, bot.evaluator(state), plain[deal])
            state.apply(bot.choose(state, rng))


def test_a_memo_taken_over_or_grown_gives_the_same_values() -> None:
    """An evaluator on the memo of another deal (emptied), or on a memo too small for the deal (it
    grows mid-search, keeping what was solved), values every option exactly as a new one does."""
    first, second = (fresh(deal, "connected") for deal in DEALS[:2])
    assert first is not None and second is not None
    objective = score_objective(1, 0)
    spent = Evaluator(tuple(first.table.pins), "connected", objective)
    spent.option_values(Position.from_table(first.table), options(first))
    pins = tuple(second.table.pins)
    position = Position.from_table(second.table)
    new = Evaluator(pins, "connected", objective).option_values(position, options(second))
    taken_over = Evaluator(pins, "connected", objective, memo=spent.memo)
    grown = Evaluator(pins, "connected", objective, memo=_new_memo(6))
    assert taken_over.option_values(position, options(second)) == new
    assert grown.option_values(position, options(second)) == new
    assert len(grown.memo[0]) > 64
