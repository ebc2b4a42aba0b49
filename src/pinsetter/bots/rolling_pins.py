"""Rolling Pins bots: greedy, and optimal (the exact policy of the basic game, and of the
advanced game once it is solved; until then documented heuristics for its abilities and marks)."""

from __future__ import annotations

import random
from operator import add, attrgetter, itemgetter
from typing import TYPE_CHECKING, cast

from pinsetter.bots.base import Bot, OptionValue, register_bot
from pinsetter.core.game import Game, State, Step
from pinsetter.core.pins import mask_of, pins_of
from pinsetter.core.scoring import bonus_weights
from pinsetter.games.rolling_pins import (
    CHOOSE,
    EXTRA_PIN,
    ROLLED,
    Action,
    Player,
    RollingPins,
    RollingPinsState,
    subsets_by_sum,
)
from pinsetter.i18n import N_
from pinsetter.solvers import rolling_pins as solver

if TYPE_CHECKING:  # imported by the advanced game's functions: the basic game's bots and hints need no numba
    from pinsetter.solvers import rolling_pins_advanced as advanced

# Positions whose option reads the policy keeps (a bounded memo: cleared when full).
MEMO_LIMIT = 50_000

# An advanced game of at most this many frames is solved the first time a bot or a hint needs
# it (seconds); a longer one (the whole game: minutes) only by `pinsetter solve`, which keeps it
# on disk. Until then its optimal bot plays the heuristics below and its hints say they are estimates.
SOLVE_AT_ONCE_FRAMES = 3

# Marks: areas closest to completion first, then this order of abilities.
MARK_PREFERENCE = ("ten-pin", "extra-dice", "reroll", "flip", "extra-pin", "auto-strike")


def _split(state: State) -> tuple[RollingPinsState, int, Player]:
    assert isinstance(state, RollingPinsState)
    index = state.turn()
    return state, index, state.players[index]


def _best_mark(state: RollingPinsState, actions: list[Step]) -> Step:
    areas = state.game.sheet.areas
    _, _index, player = _split(state)

    def rank(action: Step) -> tuple[int, int]:
        assert isinstance(action, Action)
        area = action.args[0] - 1
        return (areas[area].boxes - player.marks[area], MARK_PREFERENCE.index(areas[area].ability))

    return min(actions, key=rank)


class GreedyBot(Bot):
    """Two dice, no tokens, no miss on purpose; the most pins, high pins first on ties.

    Strikes the abilities give (Ten Pin, Auto Strike) are taken at once.
    """

    name = "greedy"

    def choose(self, state: State, rng: random.Random) -> Step:
        rp, _, player = _split(state)
        actions = cast(list[Action], state.legal_actions())  # a Rolling Pins state's actions are all Actions
        kinds = set(map(_KIND, actions))
        if "mark" in kinds:
            return _best_mark(rp, list(actions))
        if "auto-strike" in kinds:
            return Action("auto-strike")  # forced in the standard rules, and a free strike when held
        if player.phase == CHOOSE:
            return Action("dice", (2,))
        if player.phase == EXTRA_PIN:
            return Action("pass")
        if "ten-pin" in kinds:
            return Action("ten-pin")
        if "keep" in kinds:
            return next(a for a in actions if a.kind == "keep")
        crosses = [a for a in actions if a.kind == "cross" and a.tokens == 0]
        if not crosses:
            return Action("miss")
        return max(crosses, key=_most_pins_high_first)


_KIND = attrgetter("kind")


def _most_pins_high_first(cross: Action) -> tuple[int, tuple[int, ...]]:
    """Greedy's order of crosses: more pins, then higher pins (a cross lists its pins in ascending order)."""
    return len(cross.args), cross.args[::-1]


def advanced_solution(game: RollingPins) -> advanced.Evaluator | None:
    """Exact values for an advanced game, if it is solved (or small enough to solve now)."""
    from pinsetter.solvers import rolling_pins_advanced as advanced

    variant = advanced.Variant.of_game(game)
    solution = advanced.cached(variant)
    if solution is None and game.lane.frames <= SOLVE_AT_ONCE_FRAMES:
        solution = advanced.solution_for(variant)
    return advanced.Evaluator(solution) if solution is not None else None


def advanced_position(state: RollingPinsState, index: int, kits: advanced.Kits) -> tuple[advanced.Position, int] | None:
    """A player's position in the advanced solver's terms, and the points certain so far.

    None when the game is over, or when the sheet holds abilities its track never gave
    (a sheet set up by hand: no kit of the solver is like it).
    """
    from pinsetter.solvers import rolling_pins_advanced as advanced

    ctx = state.ball_context(index)
    if ctx is None:
        return None
    player = state.players[index]
    try:
        kit = kits.index(player.marks, [player.held.get(a, 0) for a in advanced.HELD_ABILITIES])
    except KeyError:
        return None
    if player.ten_pin != bool(kits.ten_pin[kits.kit_track[kit]]):
        return None
    earned, w1, w2, first_strike = bonus_weights(state.pinfalls[index], state.game.lane)
    multiplier = {1: 1 + w1, 2: 1 + w2}.get(ctx.ball, 1)
    position = advanced.Position(
        frame=ctx.frame,
        ball=ctx.ball,
        fresh=ctx.fresh_rack,
        first_strike=first_strike,
        w1=w1,
        w2=w2,
        standing=player.standing,
        tokens=player.tokens,
        kit=kit,
        extra_dice=player.extra_dice,
        pending=player.pending_marks,
        phase=player.phase,
        dice_count=player.dice_count,
        dice=player.dice,
        kept=player.kept,
    )
    return position, earned + multiplier * player.crossed


class OptimalBot(Bot):
    """Plays the exact optimal policy.

    The basic game's policy is solved in a second. The advanced game's is exact once
    solved (`pinsetter solve`, or at once for a game of a few frames): every decision,
    marks and abilities included, is valued by `rolling_pins_advanced.Evaluator`.
    Until then the basic values guide every roll, and abilities follow documented
    heuristics (docs/rolling-pins.md): Ten Pin and Auto Strike are taken at once,
    Reroll when a fresh roll is worth more than the best answer, Flip and keep when
    they improve the best answer, Extra Dice on the first ball of a frame, Extra Pin
    when it completes the rack or the game is ending.
    """

    name = "optimal"
    value_label = N_("expected final score with optimal play from here")

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        assert isinstance(game, RollingPins)
        self.rp = game
        lane = game.lane
        self.policy = solver.policy_for(lane.pins, lane.frames, 1 if game.options["tokens"] else 0)
        # The ball problem of the last pinfalls seen: (pinfalls, table, points earned, token columns).
        self._where: tuple[list[int], solver.BallTable, int, int] | None = None
        self.exact = advanced_solution(game) if game.advanced else None

    def is_exact(self, state: State) -> bool:
        """Whether this position's values are the exact optimum (always so in the basic game)."""
        return not self.rp.advanced or self._exact_position(state) is not None

    def _exact_position(self, state: State) -> tuple[advanced.Position, int] | None:
        if self.exact is None:
            return None
        rp, index, _ = _split(state)
        found = advanced_position(rp, index, self.exact.kits)
        if found is None or not self.exact.covers(found[0].frame):
            return None
        return found

    def _exact_values(self, state: State) -> list[OptionValue] | None:
        """Every option's exact expected final score in the advanced game, best first."""
        rp, index, _ = _split(state)
        actions = state.legal_actions()
        if rp.ball_context(index) is None:  # the game is over, boxes still to mark: nothing changes now
            final = float(rp.scores()[index])
            return [(action, final) for action in actions]
        found = self._exact_position(state)
        if found is None or self.exact is None:
            return None
        position, banked = found
        moves = []
        for action in actions:
            assert isinstance(action, Action)
            moves.append((action.kind, action.args, action.tokens))
        exact = self.exact.values(position, moves)
        values = [(action, banked + value) for action, value in zip(actions, exact, strict=True)]
        values.sort(key=lambda av: -av[1])
        return values

    def _situation(self, state: RollingPinsState, index: int, player: Player) -> solver.Situation:
        ctx = state.ball_context(index)
        assert ctx is not None
        return solver.situation(
            self.policy, state.pinfalls[index], ctx.frame, ctx.ball, player.crossed, player.standing, player.tokens
        )

    def evaluate(self, state: State) -> list[OptionValue] | None:
        if self.rp.advanced:
            exact = self._exact_values(state)
            if exact is not None:
                return exact
        rp, index, player = _split(state)
        actions = state.legal_actions()
        if player.pending_marks:
            return None  # the basic policy cannot value marks
        s = self._situation(rp, index, player)
        subsets = subsets_by_sum(player.standing)
        values: list[OptionValue] = []
        for action in actions:
            assert isinstance(action, Action)
            values.append((action, self._value(rp, player, s, subsets, action)))
        values.sort(key=lambda av: -av[1])
        return values

    def _value(
        self,
        state: RollingPinsState,
        player: Player,
        s: solver.Situation,
        subsets: dict[int, tuple[int, ...]],
        action: Action,
    ) -> float:
        kind = action.kind
        if kind == "dice":
            return solver.roll_value(s, action.args[0])
        if kind == "cross":
            return solver.cross_value(s, mask_of(action.args), abs(action.tokens))
        if kind == "miss" or kind == "pass":
            return solver.miss_value(s)
        if kind in ("ten-pin", "auto-strike"):
            cost = sum(abs(d - 5) for d in player.dice) if kind == "ten-pin" else 0
            return solver.cross_value(s, player.standing, cost)
        if kind == "extra-pin":
            rest = player.standing & ~mask_of(action.args)
            end = solver.Situation(s.table, s.earned, s.crossed + 1, rest, s.tokens)
            if rest == 0:
                return end.banked() + float(s.table.clear[s.tokens])
            return solver.miss_value(end)
        if kind == "reroll":
            return solver.roll_value(s, player.dice_count)
        if kind == "flip":
            dice = list(player.dice)
            dice[action.args[0] - 1] = 7 - dice[action.args[0] - 1]
            return self._answer(player, s, subsets, tuple(dice))
        if kind == "keep":
            return self._answer(player, s, subsets, tuple(player.dice[d - 1] for d in action.args))
        if kind == "extra-dice":
            return max(solver.roll_value(s, d) for d in (1, 2))
        raise AssertionError(kind)

    def _answer(
        self, player: Player, s: solver.Situation, subsets: dict[int, tuple[int, ...]], dice: tuple[int, ...]
    ) -> float:
        """Best answer to these dice (a kept pair of all fives is worth a strike with Ten Pin)."""
        if len(dice) > player.dice_count:  # still to keep: the best kept choice
            from itertools import combinations

            return max(self._answer(player, s, subsets, kept) for kept in combinations(dice, player.dice_count))
        return solver.best_after_roll(s, dice, subsets)[0]

    def choose(self, state: State, rng: random.Random) -> Step:
        rp, index, player = _split(state)
        actions = state.legal_actions()
        if not rp.game.advanced:
            return self._best_basic(rp, index, player, actions)
        exact = self._exact_values(state)
        if exact:
            return exact[0][0]
        if player.pending_marks:
            return _best_mark(rp, actions)
        kinds = {a.kind for a in actions if isinstance(a, Action)}
        for always in ("ten-pin", "auto-strike"):
            if always in kinds:
                return Action(always)
        ctx = rp.ball_context(index)
        assert ctx is not None
        if "extra-dice" in kinds and ctx.ball == 1 and player.standing == rp.game.full:
            return Action("extra-dice")
        if player.phase == EXTRA_PIN:
            last_ball = rp.game.lane.frames == ctx.frame and self._last_ball(rp, index)
            best = None
            for pin in pins_of(player.standing):
                if player.standing == mask_of((pin,)) or last_ball:
                    best = Action("extra-pin", (pin,))
                    break
            if best is not None:
                return best
            return Action("pass")
        values = self.evaluate(state)
        assert values is not None
        if player.phase == ROLLED and values:
            # Abilities only when they beat the best plain answer.
            plain = [(a, v) for a, v in values if isinstance(a, Action) and a.kind in ("cross", "miss")]
            if plain and values[0][0] not in {a for a, _ in plain} and values[0][1] <= plain[0][1] + 1e-9:
                return plain[0][0]
        return values[0][0]

    # --- the basic game, fast: what `evaluate` and `choose` give, with the table lookups kept ---------
    def _best_basic(self, state: RollingPinsState, index: int, player: Player, actions: list[Step]) -> Step:
        """The first of the best-valued actions (as `evaluate`'s stable sort puts first).

        Every value is added up exactly as `evaluate` adds it (points banked, then the option's
        whole and part), so the choice is the same. Where each option's part is read in the table
        and what its whole is do not depend on the table's values (`solver.option_reads`): they
        are kept for the next time the position comes up, in any ball of any game, and the parts
        are then read in one C call.
        """
        table, earned = self._ball_problem(state, index, player)
        listed = tuple(actions)
        if len(listed) == 1:
            return listed[0]
        standing = player.standing
        # The options depend on the roll's total and number of dice, not on its faces.
        key = (player.phase, standing, player.tokens, sum(player.dice), len(player.dice))
        memo = self.policy.memo
        found = memo.get(key)
        if found is None or found[0] != listed:
            moves = cast(tuple[Action, ...], listed)  # a basic game's actions are all Actions
            reads, wholes = solver.option_reads(1 << self.policy.pins, standing, player.tokens, moves)
            found = (listed, itemgetter(*reads), wholes)
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            memo[key] = found
        banked = earned + table.multiplier * player.crossed
        bases = (banked, banked + table.multiplier * bin(standing).count("1"))  # banked + whole
        values = list(map(add, map(bases.__getitem__, found[2]), found[1](table.flat)))
        return listed[values.index(max(values))]  # the first of the best, as max() finds it

    def _ball_problem(self, state: RollingPinsState, index: int, player: Player) -> tuple[solver.BallTable, int]:
        """The table and points earned of the player's current ball (`solver.situation`'s, kept while
        the pinfalls, which decide both, stay the same)."""
        pinfalls = state.pinfalls[index]
        if self._where is None or self._where[0] != pinfalls:
            s = self._situation(state, index, player)
            self._where = (list(pinfalls), s.table, s.earned, s.table.u.shape[1])
        _, table, earned, token_columns = self._where
        if player.tokens >= token_columns:
            self._situation(state, index, player)  # raises, naming the impossible token count
        return table, earned

    @staticmethod
    def _last_ball(state: RollingPinsState, index: int) -> bool:
        """Whether the ball ending now is this player's last of the game."""
        probe = [*list(state.pinfalls[index]), state.players[index].crossed]
        from pinsetter.core.scoring import next_ball

        try:
            return next_ball(probe, state.game.lane) is None
        except ValueError:
            return False


@register_bot("greedy", "rolling-pins")
def _greedy(game: Game) -> Bot:
    return GreedyBot(game)


@register_bot("optimal", "rolling-pins")
def _optimal(game: Game) -> Bot:
    return OptimalBot(game)
