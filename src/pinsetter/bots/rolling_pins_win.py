"""A Rolling Pins bot that plays to win: the most likely to finish ahead, not the highest expected score.

Its opponents are taken to play the expected-score optimal policy (the `optimal` bot); see
`pinsetter.solvers.rolling_pins_win` for what is computed and what is approximated.
"""

from __future__ import annotations

import random
from collections.abc import Hashable

import numpy as np

from pinsetter.bots.base import OptionValue, register_bot
from pinsetter.bots.rolling_pins import OptimalBot, _split
from pinsetter.core.game import Game, State, Step
from pinsetter.core.pins import mask_of
from pinsetter.core.scoring import bonus_weights
from pinsetter.games.rolling_pins import Action, RollingPinsState
from pinsetter.i18n import N_
from pinsetter.solvers import rolling_pins_win as win

# Frames planned with the score as a state (from the current one); later frames are valued as
# played for expected score. Ten covers a whole game; one keeps a plan to seconds (the last frame's
# plan covers the rest of the game: it is the whole approximation there).
HORIZON = 1
# Chances closer than this are equal (the tables are single precision): the expected score decides.
TIE = 1e-6


class WinBot(OptimalBot):
    """Maximises the chance of finishing strictly ahead of every opponent (basic game).

    Opponents are modelled as the expected-score optimal bot, each independent of the others.
    The bot plans at the start of each of its frames, from every opponent's position then;
    between equally likely wins (a game already won or lost) it plays for expected score.
    The advanced game, and a game with no opponent, are played as the optimal bot plays them.
    """

    name = "win"
    value_label = N_("chance to finish ahead of every opponent")

    def __init__(self, game: Game, horizon: int = HORIZON) -> None:
        super().__init__(game)
        self.horizon = horizon
        self._plan: tuple[Hashable, win.ScoredTables, int] | None = None

    def choose(self, state: State, rng: random.Random) -> Step:
        values = self.win_values(state)
        if values is None:
            return super().choose(state, rng)
        best = max(value for _, value in values)
        close = [action for action, value in values if value >= best - TIE]
        if len(close) == 1:
            return close[0]
        expected = super().evaluate(state)
        assert expected is not None
        return next(action for action, _ in expected if action in close)

    def evaluate(self, state: State) -> list[OptionValue] | None:
        """Every option with its chance to finish ahead, best first (expected score breaks ties)."""
        values = self.win_values(state)
        if values is None:
            return super().evaluate(state)
        expected = dict(super().evaluate(state) or [])
        values.sort(key=lambda av: (-round(av[1] / TIE), -expected.get(av[0], 0.0)))
        return values

    def expected_values(self, state: State) -> list[OptionValue] | None:
        """Every option's expected final score (the optimal bot's values), for hints that show both."""
        return super().evaluate(state)

    # --- the plan ------------------------------------------------------------------------
    def win_values(self, state: State) -> list[OptionValue] | None:
        """Each legal action's chance to win, in the order of the legal actions (None: not this bot's to value)."""
        rp, index, player = _split(state)
        if rp.game.advanced or rp.num_players < 2 or player.pending_marks:
            return None
        ctx = rp.ball_context(index)
        if ctx is None:
            return None
        tables, earned_at_plan = self._tables(rp, index)
        earned, w1, w2, first_strike = bonus_weights(rp.pinfalls[index], rp.game.lane)
        key = win.ball_key(self.policy.frames, ctx.frame, ctx.ball, first_strike, w1, w2)
        ball = tables.balls[key]
        top = ball.start.shape[-1] - 1
        y = earned + ball.multiplier * player.crossed - earned_at_plan
        standing, tokens = player.standing, player.tokens
        values: list[OptionValue] = []
        for action in state.legal_actions():
            assert isinstance(action, Action)
            if action.kind == "dice":
                assert ball.by_dice is not None  # a plan's own tables keep them
                value = ball.by_dice[action.args[0] - 1, standing, tokens, min(y, top)]
            elif action.kind == "cross":
                mask = mask_of(action.args)
                gained = y + ball.multiplier * bin(mask).count("1")
                value = ball.start[standing & ~mask, tokens - abs(action.tokens), min(gained, top)]
            elif action.kind == "miss":
                value = ball.miss[standing, tokens, min(y, top)]
            else:
                raise AssertionError(f"{action.kind} in the basic game")
            values.append((action, float(value)))
        return values

    def _tables(self, state: RollingPinsState, index: int) -> tuple[win.ScoredTables, int]:
        """The plan for this frame (made at its start, from the opponents' positions then)."""
        ctx = state.ball_context(index)
        assert ctx is not None
        # A plan serves the frame it was made for, against the opponents as they then stood (with shared
        # dice they play the same frame: what they had before it).
        shared = state.game.shared_dice
        seen = tuple(
            tuple(state.pinfalls[other][: self._frame_start(state, other)] if shared else state.pinfalls[other])
            for other in self._opponents(state, index)
        )
        frame_key = (index, ctx.frame, tuple(state.pinfalls[index][: self._frame_start(state, index)]), seen)
        if self._plan is not None and self._plan[0] == frame_key:
            return self._plan[1], self._plan[2]
        start_earned, pending = self._frame_start_score(state, index)
        ahead = win.ahead_of([self.opponent_distribution(state, other) for other in self._opponents(state, index)])
        # From here on the player never holds more tokens than now plus what later frames give.
        held = state.players[index].tokens
        tables = win.plan(self.policy, ctx.frame, pending, start_earned, ahead, self.horizon, held)
        self._plan = (frame_key, tables, start_earned)
        return tables, start_earned

    @staticmethod
    def _frame_start(state: RollingPinsState, index: int) -> int:
        """How many of the player's balls came before the frame being played."""
        ctx = state.ball_context(index)
        assert ctx is not None
        balls = state.pinfalls[index]
        lane = state.game.lane
        count, frame = 0, 1
        while frame < ctx.frame:
            count += 1 if balls[count] == lane.pins else 2
            frame += 1
        return count

    def _frame_start_score(self, state: RollingPinsState, index: int) -> tuple[int, tuple[int, int]]:
        """Points certain and bonuses owed at the start of the frame being played."""
        before = state.pinfalls[index][: self._frame_start(state, index)]
        earned, w1, w2, _ = bonus_weights(before, state.game.lane)
        return earned, (w1, w2)

    @staticmethod
    def _opponents(state: RollingPinsState, index: int) -> list[int]:
        return [other for other in range(state.num_players) if other != index]

    def opponent_distribution(self, state: RollingPinsState, other: int) -> win.FloatArray:
        """P(final score = s) of another player, taken to play the expected-score policy from where it is.

        Before its roll (or with its dice in the air) this is exact; after a roll with shared dice,
        its answer is not known yet: it is valued as before the roll (an approximation).
        """
        top = state.game.lane.max_score
        ctx = state.ball_context(other)
        if ctx is None:
            final = np.zeros(top + 1)
            final[state.scores()[other]] = 1.0
            return final
        player = state.players[other]
        earned, w1, w2, first_strike = bonus_weights(state.pinfalls[other], state.game.lane)
        key = win.ball_key(self.policy.frames, ctx.frame, ctx.ball, first_strike, w1, w2)
        multiplier = {1: 1 + w1, 2: 1 + w2}.get(ctx.ball, 1)
        banked = earned + multiplier * player.crossed
        return win.final_distribution(self.policy, key, banked, player.standing, player.tokens)


@register_bot("win", "rolling-pins")
def _win(game: Game) -> WinBot:
    return WinBot(game)
