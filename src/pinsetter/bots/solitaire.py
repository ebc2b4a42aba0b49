"""Bowling Solitaire bots: greedy, and a no-peeking expectimax player."""

from __future__ import annotations

import random

from pinsetter.bots.base import Bot, OptionValue, register_bot
from pinsetter.core.game import Game, State, Step
from pinsetter.games.bowling_solitaire import STOP, Action, SolitaireState
from pinsetter.i18n import N_
from pinsetter.solvers.solitaire import (
    PINS_OBJECTIVE,
    STRIKE_OBJECTIVE,
    Evaluator,
    Objective,
    Position,
    deal_objective,
)

OBJECTIVES = ("score", "pins", "strike")


class GreedyBot(Bot):
    """The play removing most pins (lowest pile first on ties); never stops while it can play."""

    name = "greedy"

    def choose(self, state: State, rng: random.Random) -> Step:
        plays = [a for a in state.legal_actions() if isinstance(a, Action) and a.kind == "play"]
        if not plays:
            return STOP
        return max(plays, key=lambda a: (len(a.pins), -a.pile))


def objective_for(state: SolitaireState, objective: str) -> Objective:
    if objective == "pins":
        return PINS_OBJECTIVE
    if objective == "strike":
        return STRIKE_OBJECTIVE
    return deal_objective(state.pinfalls[0], state.table.ball, state.game.lane)


class ExpectimaxBot(Bot):
    """Exact expectimax over the unseen cards within each deal, for a frame objective.

    One search serves a whole deal: its memo holds every later decision of the deal.
    """

    name = "expectimax"
    value_label = N_("expected value of this deal: bonus-weighted pins plus the strike/spare continuation")

    def __init__(self, game: Game, objective: str = "score") -> None:
        super().__init__(game)
        self.objective = objective
        self._cache: tuple[object, Evaluator] | None = None

    def evaluator(self, state: SolitaireState) -> Evaluator:
        objective = objective_for(state, self.objective)
        ident = (state.deals, tuple(state.table.pins), objective, state.game.rule)
        if self._cache is None or self._cache[0] != ident:
            spent = None if self._cache is None else self._cache[1].memo  # the last deal's memo, reused
            self._cache = (ident, Evaluator(tuple(state.table.pins), state.game.rule, objective, memo=spent))
        return self._cache[1]

    def evaluate(self, state: State) -> list[OptionValue] | None:
        assert isinstance(state, SolitaireState)
        actions = [a for a in state.legal_actions() if isinstance(a, Action)]
        if not actions:
            return None
        values = self.evaluator(state).option_values(Position.from_table(state.table), actions)
        offset = self.offset(state)
        return [(a, v + offset) for a, v in values]

    def offset(self, state: SolitaireState) -> float:
        """What the deal has already earned, so that values are the whole deal's."""
        objective = objective_for(state, self.objective)
        first_ball = objective.ball1 * state.pinfalls[0][-1] if state.table.ball == 2 else 0.0
        weight = objective.ball1 if state.table.ball == 1 else objective.ball2
        return float(first_ball + weight * state.crossed)

    def choose(self, state: State, rng: random.Random) -> Step:
        values = self.evaluate(state)
        assert values
        return values[0][0]


@register_bot("greedy", "bowling-solitaire")
def _greedy(game: Game) -> Bot:
    return GreedyBot(game)


@register_bot("expectimax", "bowling-solitaire")
def _expectimax(game: Game) -> Bot:
    return ExpectimaxBot(game)
