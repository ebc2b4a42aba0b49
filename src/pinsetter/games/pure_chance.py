"""The shared engine of games without decisions (Ten Pins, Bowling Dice).

Such a game is fully described by a `BallModel`: given the rack a ball faces,
which chance outcomes can happen, with what probability, and what pinfall each
gives. The state machine (turns, frames, bonus balls) comes from the scoring
engine, so the exact analyser and the playable state share one set of rules.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Collection, Hashable
from fractions import Fraction
from typing import Any, Generic, TypeVar

from pinsetter.core.game import CHANCE, TERMINAL, Game, OptionSpec, State, Step, int_in
from pinsetter.core.scoring import BallContext, Lane, frame_next
from pinsetter.i18n import N_, _

__all__ = ["BallModel", "PureChanceGame", "PureChanceState", "frame_distribution", "frames_option"]

Rack = TypeVar("Rack", bound=Hashable)


class BallModel(ABC, Generic[Rack]):
    """How one ball's pinfall comes about; `Rack` is what the ball faces beyond the pin count."""

    @abstractmethod
    def fresh(self) -> Rack:
        """The rack state of a fresh rack of ten pins."""

    @abstractmethod
    def outcomes(self, rack: Rack, ctx: BallContext) -> list[tuple[Step, Fraction]]:
        """Every outcome of the ball with its exact probability."""

    @abstractmethod
    def resolve(self, rack: Rack, ctx: BallContext, outcome: Step) -> tuple[int, Rack]:
        """The pinfall of an outcome and the rack the next ball of the frame faces."""

    def outcome_set(self, rack: Rack, ctx: BallContext) -> Collection[Step]:
        """The outcomes of `outcomes`, for legality checks (models with cached outcomes cache this too)."""
        return {outcome for outcome, _ in self.outcomes(rack, ctx)}

    def sample(self, rack: Rack, ctx: BallContext, rng: random.Random) -> Step:
        outcomes = self.outcomes(rack, ctx)
        return rng.choices([o for o, _ in outcomes], weights=[float(p) for _, p in outcomes])[0]


def frames_option(default: int = 10) -> OptionSpec:
    return OptionSpec(
        "frames",
        default,
        N_("frames in a game, 1 to 10 (fewer for a short game)"),
        parse=int_in(1, 10),
        label=N_("Frames"),
    )


class PureChanceGame(Game):
    """A game whose every ball is decided by dice alone."""

    has_decisions = False

    @abstractmethod
    def ball_model(self) -> BallModel[Any]: ...

    def new_state(self, players: int = 1) -> PureChanceState:
        return PureChanceState(self, players)

    def max_chance_steps(self, players: int) -> int:
        """One roll a ball, and at most 2 * frames + 1 balls a player."""
        return players * (2 * self.lane.frames + 1)

    def parse_action(self, text: str) -> Step:
        from pinsetter.core.game import ParseError

        raise ParseError(
            _("{game} has no player decisions; {text} is not an action").format(game=self.id, text=repr(text))
        )


class PureChanceState(State):
    game: PureChanceGame

    def __init__(self, game: PureChanceGame, players: int) -> None:
        super().__init__(game, players)
        self.model = game.ball_model()
        self.racks: list[Any] = [self.model.fresh() for _ in range(players)]

    def clone(self) -> PureChanceState:
        """A copy that shares what never changes in place (racks are hashable values, ball contexts frozen).

        `copy.deepcopy` walked every value: the log of a game at an online table clones a state per
        step, and that walk was the largest part of a step's CPU on the server (docs/tables.md, Load).
        """
        new = copy.copy(self)
        new.pinfalls = [list(balls) for balls in self.pinfalls]
        new._contexts = list(self._contexts)
        new.racks = list(self.racks)
        return new

    def is_chance_node(self) -> bool:
        return not self.is_terminal()

    def current_player(self) -> int:
        """Chance until the game is over (`State.current_player`, with the turn asked once)."""
        return TERMINAL if self.turn() == TERMINAL else CHANCE

    def _context(self) -> tuple[int, BallContext]:
        player = self.turn()
        ctx = self._contexts[player]
        assert ctx is not None
        return player, ctx

    def chance_outcomes(self) -> list[tuple[Step, Fraction]]:
        if self.is_terminal():
            return []
        player, ctx = self._context()
        return self.model.outcomes(self.racks[player], ctx)

    def possible_outcomes(self) -> Collection[Step]:
        if self.is_terminal():
            return ()
        player, ctx = self._context()
        return self.model.outcome_set(self.racks[player], ctx)

    def sample_chance(self, rng: random.Random) -> Step:
        player = self.turn()  # `_context`, inline: every chance step of a simulation comes here and to `_apply`
        ctx = self._contexts[player]
        assert ctx is not None
        return self.model.sample(self.racks[player], ctx, rng)

    def legal_actions(self) -> list[Step]:
        return []

    def _apply(self, step: Step) -> None:
        player = self.turn()
        ctx = self._contexts[player]
        assert ctx is not None
        pins, rack = self.model.resolve(self.racks[player], ctx, step)
        self.record_ball(player, pins)
        after = self._contexts[player]
        self.racks[player] = self.model.fresh() if after is None or after.fresh_rack else rack

    def view(self, player: int) -> dict[str, Any]:
        ctx = self.ball_context(player)
        return {
            "player": player,
            "turn": self.turn(),
            "pinfalls": [list(p) for p in self.pinfalls],
            "frame": ctx.frame if ctx else None,
            "ball": ctx.ball if ctx else None,
            "standing": ctx.standing if ctx else None,
        }

    def key(self) -> Hashable:
        return (tuple(tuple(p) for p in self.pinfalls), tuple(self.racks))

    def describe(self) -> str:
        if self.is_terminal():
            return _("game over")
        player, ctx = self._context()
        message = _("player {number}, frame {frame}, ball {ball}, {standing} pins standing")
        return message.format(number=player + 1, frame=ctx.frame, ball=ctx.ball, standing=ctx.standing)


def frame_distribution(model: BallModel[Any], frame: int, lane: Lane) -> dict[tuple[int, ...], Fraction]:
    """Exact distribution of one frame's pinfall tuple (frames are independent)."""
    last = frame == lane.frames
    result: dict[tuple[int, ...], Fraction] = {}
    # Work list of (balls so far, rack, probability); identical branches are merged per ball.
    layer: dict[tuple[tuple[int, ...], Any], Fraction] = {((), model.fresh()): Fraction(1)}
    while layer:
        next_layer: dict[tuple[tuple[int, ...], Any], Fraction] = {}
        for (balls, rack), prob in layer.items():
            nxt = frame_next(balls, last, lane)
            if nxt is None:
                result[balls] = result.get(balls, Fraction(0)) + prob
                continue
            standing, fresh = nxt
            if fresh:
                rack = model.fresh()
            ctx = BallContext(frame, len(balls) + 1, standing, fresh)
            for outcome, p in model.outcomes(rack, ctx):
                pins, rack_after = model.resolve(rack, ctx, outcome)
                key = ((*balls, pins), rack_after)
                next_layer[key] = next_layer.get(key, Fraction(0)) + prob * p
        layer = next_layer
    return result
