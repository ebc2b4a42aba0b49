"""Game review: every decision of a game against the best one, as chess players get from an engine.

A review walks a game record (a file, an upload or a game of the history) step by step. At each
decision of a reviewed seat it asks the game's evaluator for the value of every legal option,
and keeps the chosen option's value, the best one's and the loss (best - chosen, never below 0).
After every step that concerns a seat it keeps that seat's expected final score: the *path*, which
a chart draws. The path and the losses agree exactly:

- at a decision the path goes from the best option's value to the chosen one's: it drops by the loss;
- at a chance step (dice, cards) it moves by the luck: the value after the outcome less the value
  before it (the expectation over the outcomes);
- so `end - start = luck - loss`, summed over the seat's steps (docs/review.md).

Values are on the scale of the final score:

- basic Rolling Pins: exact, the expected final score under optimal play from there on
  (`solvers/rolling_pins.py`, the `optimal` bot's values);
- advanced Rolling Pins: exact likewise, marks and abilities included (`solvers/rolling_pins_advanced.py`),
  once its solution is at hand: a game of a few frames is solved on first need (seconds), a longer one
  only by `pinsetter solve` (minutes, once; kept on disk);
- Bowling Solitaire: the points certain so far, plus the deal being played as the Expert bot's
  expectimax values it (its strike or spare bonus from later frames estimated by the solver's
  continuation values), plus every frame not yet dealt at `FRAME_VALUE`, the Expert bot's mean
  value of a fresh frame. A deal's cards are dealt in one point: the path moves when the deal lies
  face up, by the deal's luck and the estimate's error together.

Advanced Rolling Pins not solved yet and the games without decisions are refused with one line
(`ReviewError`). The review is pure: no I/O, words in the current language (`to_json`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pinsetter.bots.base import OptionValue
from pinsetter.bots.hints import PLAIN_LABELS
from pinsetter.core.game import Game, GameError, State, Step
from pinsetter.core.narration import pins_list
from pinsetter.core.scoring import bonus_weights
from pinsetter.i18n import N_, _, ngettext
from pinsetter.records import Record, game_played, new_state_for, replay
from pinsetter.usertext import name_key

__all__ = [
    "COSTLIEST",
    "FRAME_VALUE",
    "NEAR_BEST",
    "Decision",
    "NotSolvedYet",
    "PathPoint",
    "PlayerReview",
    "Review",
    "ReviewError",
    "review",
    "reviewable",
    "seat_named",
]

# A choice within this many points of the best counts as the best (values are shown to 0.01).
NEAR_BEST = 0.01
# Options whose values differ by no more than this are equally good (the same value added up another way).
TIE = 1e-9
# How many of the costliest decisions a review names.
COSTLIEST = 3
# Bowling Solitaire: the Expert bot's (expectimax) mean value of a fresh frame with no bonus pending,
# its strike or spare bonus counted at the continuation values: over 1,000 seeded deals each,
# `python benchmarks/solitaire_frame_value.py 1000 RULE` (95% half-widths in docs/review.md).
FRAME_VALUE = {"connected": 18.0888, "mutual": 14.8224}

SOLITAIRE_MEANING = N_(
    "estimated final score if you play on as the Expert bot does: the points you have, this frame "
    "as the bot values it (bonus from later frames estimated), and each frame still to come at the "
    "bot's average"
)


NOT_SOLVED_YET = N_("advanced Rolling Pins is reviewed once it is solved: run {command} (about 10-25 minutes, once)")
SOLVE_COMMAND = "pinsetter solve rolling-pins --option advanced=true"  # the same in every language


class ReviewError(GameError):
    """A game that cannot be reviewed (no decisions, no exact values) or a seat that is not in it."""


class NotSolvedYet(ReviewError):
    """Advanced Rolling Pins before its long solve: the message names the command, for the terminal;
    the web, whose players cannot run it, words it for them (web.service)."""


# --- what a review holds ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """One decision of a reviewed seat: the option chosen against the best, in the player's words.

    `action` and `best_action` are the record's notation, for programs; players read `words` and
    `best_words`. `own` is False for a decision a bot made for the seat (its time ran out, or the
    seat was handed to a bot): shown, but not counted in the seat's loss and accuracy.
    """

    step: int  # the decision's place in the record, from 1
    frame: int
    ball: int
    situation: str
    action: str
    words: str
    best_action: str
    best_words: str
    value: float
    best_value: float
    loss: float
    options: int  # legal options at the decision
    spread: float  # the best option's value less the worst one's
    own: bool = True
    by: str | None = None  # the bot that decided, where one did

    @property
    def best(self) -> bool:
        """The chosen option is the best, or within NEAR_BEST of it."""
        return self.loss < NEAR_BEST

    @property
    def mattered(self) -> bool:
        """A real choice: some option was NEAR_BEST or more below the best (forced moves do not count)."""
        return self.spread >= NEAR_BEST

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "frame": self.frame,
            "ball": self.ball,
            "situation": self.situation,
            "action": self.action,
            "words": self.words,
            "best_action": self.best_action,
            "best_words": self.best_words,
            "value": float(self.value),
            "best_value": float(self.best_value),
            "loss": float(self.loss),
            "options": self.options,
            "mattered": self.mattered,
            "best": self.best,
            "own": self.own,
            "by": self.by,
        }


@dataclass(frozen=True)
class PathPoint:
    """The seat's expected final score after `step` steps of the record (0: the start)."""

    step: int
    kind: str  # "start", "decision" or "chance"
    frame: int
    value: float

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "kind": self.kind, "frame": self.frame, "value": float(self.value)}


@dataclass(frozen=True)
class PlayerReview:
    """One seat's decisions, its path and the figures drawn from them."""

    seat: int
    name: str
    kind: str
    score: int  # the seat's total so far (its final score when the game is complete)
    finished: bool
    decisions: tuple[Decision, ...]
    path: tuple[PathPoint, ...]

    @property
    def counted(self) -> list[Decision]:
        """The seat's own decisions that were real choices: what accuracy is the share of."""
        return [d for d in self.decisions if d.own and d.mattered]

    @property
    def best_choices(self) -> int:
        return sum(1 for d in self.counted if d.best)

    @property
    def accuracy(self) -> float | None:
        """Per cent of the real choices where the best option (within NEAR_BEST) was chosen; None without any."""
        counted = self.counted
        return 100.0 * self.best_choices / len(counted) if counted else None

    @property
    def total_loss(self) -> float:
        """Expected points the seat's own choices gave away."""
        return sum(d.loss for d in self.decisions if d.own)

    @property
    def start(self) -> float:
        return self.path[0].value

    @property
    def end(self) -> float:
        return self.path[-1].value

    @property
    def luck(self) -> float:
        """What chance gave (or took): the path's moves at chance steps, `end - start + every loss`."""
        return self.end - self.start + sum(d.loss for d in self.decisions)

    @property
    def costliest(self) -> list[Decision]:
        """The seat's own decisions that cost the most (NEAR_BEST or more), costliest first, at most COSTLIEST."""
        lost = [d for d in self.decisions if d.own and not d.best]
        return sorted(lost, key=lambda d: (-d.loss, d.step))[:COSTLIEST]

    def accuracy_words(self, name: str) -> str:
        """`ann: accuracy 82% (the best move in 97 of 119 real choices)`, `name` as the caller shows it."""
        accuracy = self.accuracy
        if accuracy is None:
            return _("{name}: no decision changed the expected score").format(name=name)
        counted = len(self.counted)
        return ngettext(
            "{name}: accuracy {accuracy} (the best move in {best} of {count} real choice)",
            "{name}: accuracy {accuracy} (the best move in {best} of {count} real choices)",
            counted,
        ).format(name=name, accuracy=f"{accuracy:.0f}%", best=self.best_choices, count=counted)

    def to_json(self) -> dict[str, Any]:
        accuracy = self.accuracy
        return {
            "seat": self.seat,
            "name": self.name,
            "kind": self.kind,
            "score": float(self.score),
            "finished": self.finished,
            "start": float(self.start),
            "end": float(self.end),
            "total_loss": float(self.total_loss),
            "luck": float(self.luck),
            "accuracy": None if accuracy is None else float(accuracy),
            "counted": len(self.counted),
            "best_choices": self.best_choices,
            "decisions": [d.to_json() for d in self.decisions],
            "costliest": [d.to_json() for d in self.costliest],
            "path": [p.to_json() for p in self.path],
        }


@dataclass(frozen=True)
class Review:
    """A game's review: what its values mean, and each reviewed seat's."""

    game: str
    title: str  # the game and its options in words
    complete: bool
    exact: bool  # the values are exact (Rolling Pins), or estimates (Bowling Solitaire)
    meaning: str  # what a value is, in words
    steps: int
    players: tuple[PlayerReview, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON with stable keys: numbers as floats (counts and places as whole numbers), words translated."""
        return {
            "game": self.game,
            "title": self.title,
            "complete": self.complete,
            "exact": self.exact,
            "meaning": self.meaning,
            "near_best": NEAR_BEST,
            "steps": self.steps,
            "players": [p.to_json() for p in self.players],
        }


# --- the evaluators, on the final score's scale -------------------------------------------------------


class Valuer(ABC):
    """A game's values on the path's scale (expected final score), from the evaluator hints use."""

    exact: bool
    meaning: str

    @abstractmethod
    def options(self, state: State, seat: int) -> list[OptionValue]:
        """Every legal option of `seat` (one of the deciders) with its value, best first."""

    @abstractmethod
    def value(self, state: State, seat: int) -> float | None:
        """The seat's expected final score here, or None where the evaluator cannot say (the path holds)."""

    def start(self, state: State, seat: int) -> float:
        """The seat's expected final score before the first step."""
        value = self.value(state, seat)
        assert value is not None
        return value

    def situation(self, state: State, seat: int) -> str:
        """The position of a decision in words."""
        ctx = state.ball_context(seat)
        assert ctx is not None
        return _("frame {frame} ball {ball}").format(frame=ctx.frame, ball=ctx.ball)


class RollingPinsValuer(Valuer):
    """Basic Rolling Pins: the exact policy's values (the optimal bot's), anywhere in the game."""

    exact = True
    meaning = PLAIN_LABELS["optimal"]

    def __init__(self, game: Game) -> None:
        from pinsetter.bots.rolling_pins import OptimalBot

        self.bot = OptimalBot(game)

    def options(self, state: State, seat: int) -> list[OptionValue]:
        values = self.bot.evaluate(_as_seat(state, seat))
        assert values is not None  # the basic game has no marks, the only decisions it cannot value
        return values

    def value(self, state: State, seat: int) -> float | None:
        from pinsetter.games.rolling_pins import CHOOSE, ROLLING, RollingPinsState
        from pinsetter.solvers import rolling_pins as solver

        assert isinstance(state, RollingPinsState)
        ctx = state.ball_context(seat)
        if ctx is None:
            return float(state.scoresheet(seat).total)
        if seat in state.deciders():
            return self.options(state, seat)[0][1]
        player = state.players[seat]
        s = solver.situation(
            self.bot.policy, state.pinfalls[seat], ctx.frame, ctx.ball, player.crossed, player.standing, player.tokens
        )
        if player.phase == ROLLING:  # the dice are in the air: the expectation over the roll
            return solver.roll_value(s, player.dice_count)
        if player.phase == CHOOSE:  # waiting for the turn: the better of one die and two, as the decision will be
            return max(solver.roll_value(s, 1), solver.roll_value(s, 2))
        return None  # pragma: no cover  (a player between rolls is always deciding)

    def situation(self, state: State, seat: int) -> str:
        return _as_seat(state, seat).describe()  # in words (the engine's own description of a position)


class AdvancedRollingPinsValuer(Valuer):
    """Advanced Rolling Pins: the exact solver's values (the optimal bot's), marks and abilities included."""

    exact = True
    meaning = PLAIN_LABELS["optimal"]

    def __init__(self, game: Game) -> None:
        from pinsetter.bots.rolling_pins import OptimalBot

        self.bot = OptimalBot(game)
        evaluator = self.bot.exact
        if evaluator is None or evaluator.solution.first_frame > 1:  # not solved, or a solve cut short
            raise NotSolvedYet(_not_solved_yet())
        self.evaluator = evaluator

    def options(self, state: State, seat: int) -> list[OptionValue]:
        position = _as_seat(state, seat)
        values = self.bot.evaluate(position)
        # Exact everywhere (the game over, boxes still to mark, changes nothing: the final score).
        assert values is not None and (state.ball_context(seat) is None or self.bot.is_exact(position))
        return values

    def value(self, state: State, seat: int) -> float | None:
        from dataclasses import replace

        from pinsetter.bots.rolling_pins import advanced_position
        from pinsetter.games.rolling_pins import CHOOSE, ROLLING, RollingPinsState

        assert isinstance(state, RollingPinsState)
        if state.ball_context(seat) is None:
            return float(state.scoresheet(seat).total)
        if seat in state.deciders():
            return self.options(state, seat)[0][1]
        found = advanced_position(state, seat, self.evaluator.kits)
        if found is None:  # pragma: no cover  (a sheet no kit of the solver is like: refused by the bot's values)
            raise NotSolvedYet(_not_solved_yet())
        position, banked = found
        if position.phase == ROLLING:  # the dice are in the air: the roll's value as the dice choice had it
            before = replace(position, phase=CHOOSE, dice=())
            return banked + self.evaluator.values(before, [("dice", (position.dice_count,), 0)])[0]
        if position.phase == CHOOSE:  # waiting for the turn: the best choice, as the decision will be
            return banked + self.evaluator.position_value(position)
        return None  # pragma: no cover  (a player between rolls is always deciding)

    def situation(self, state: State, seat: int) -> str:
        if state.ball_context(seat) is None:  # the engine describes positions of balls still to bowl
            return _("after the last ball, boxes still to mark")
        return _as_seat(state, seat).describe()


class SolitaireValuer(Valuer):
    """Bowling Solitaire: the Expert bot's deal values, with the points certain and the frames to come added."""

    exact = False
    meaning = SOLITAIRE_MEANING

    def __init__(self, game: Game) -> None:
        from pinsetter.bots.solitaire import ExpectimaxBot

        self.bot = ExpectimaxBot(game)
        self.frame_value = FRAME_VALUE[str(game.options["groups"])]

    def _base(self, state: State) -> float:
        """Points certain at the start of the deal, and the frames not dealt yet at the bot's mean."""
        from pinsetter.games.bowling_solitaire import SolitaireState

        assert isinstance(state, SolitaireState)
        balls = state.pinfalls[0]
        lane = state.game.lane
        before_deal = balls[: len(balls) - (state.table.ball - 1)]  # in a deal's ball 2, its ball 1 is the deal's
        earned = bonus_weights(before_deal, lane)[0]
        ctx = state.ball_context(0)
        assert ctx is not None
        return earned + self.frame_value * (lane.frames - ctx.frame)

    def options(self, state: State, seat: int) -> list[OptionValue]:
        from pinsetter.games.bowling_solitaire import SolitaireState

        assert isinstance(state, SolitaireState)
        values = self.bot.evaluate(state)  # the whole deal's value, its pins already down included
        assert values  # at a decision there is a play, and stop
        base = self._base(state)
        return [(action, base + value) for action, value in values]

    def start(self, state: State, seat: int) -> float:
        """Before the first card: every frame at the bot's mean."""
        return self.frame_value * state.game.lane.frames

    def value(self, state: State, seat: int) -> float | None:
        if state.is_terminal():
            return float(state.scoresheet(seat).total)
        if state.is_chance_node():
            return None  # cards still to turn up: known once they lie face up
        return self.options(state, seat)[0][1]

    def situation(self, state: State, seat: int) -> str:
        from pinsetter.games.bowling_solitaire import SolitaireState

        assert isinstance(state, SolitaireState)
        tops = [str(top) for top in state.table.tops if top]
        place = super().situation(state, seat)
        return _("{place}; cards showing: {cards}").format(place=place, cards=pins_list(tops) or _("none"))


def _as_seat(state: State, seat: int) -> State:
    """The position with `seat` to move (it is one of the deciders)."""
    return state if seat == state.turn() else state.as_decider(seat)


def reviewable(game: Game) -> str | None:
    """Why a game with these options cannot be reviewed, in one line (None when it can)."""
    refusal = _refusal(game)
    return None if refusal is None else str(refusal)


def _refusal(game: Game) -> ReviewError | None:
    if not game.has_decisions:
        return ReviewError(
            _("{game} has no decisions: chance decides every ball, so there is nothing to review").format(
                game=_(game.name)
            )
        )
    if game.id == "rolling-pins":
        if game.options.get("advanced") and not _advanced_solved(game):
            return NotSolvedYet(_not_solved_yet())
        return None
    if game.id == "bowling-solitaire":
        return None
    return ReviewError(_("no solver values the decisions of {game}").format(game=_(game.name)))


def _not_solved_yet() -> str:
    return _(NOT_SOLVED_YET).format(command=SOLVE_COMMAND)


def _advanced_solved(game: Game) -> bool:
    """Whether an advanced game's solution is at hand without a long solve: a short game, or one on disk.

    Cheap (a file's existence, no load): it is asked for every game a history lists.
    """
    from pinsetter.bots.rolling_pins import SOLVE_AT_ONCE_FRAMES
    from pinsetter.games.rolling_pins import RollingPins
    from pinsetter.solvers import rolling_pins_advanced as advanced

    assert isinstance(game, RollingPins)
    if game.lane.frames <= SOLVE_AT_ONCE_FRAMES:
        return True
    return advanced.cache_path(advanced.Variant.of_game(game)).exists()


def _valuer(game: Game) -> Valuer:
    if game.id == "rolling-pins":
        return AdvancedRollingPinsValuer(game) if game.options.get("advanced") else RollingPinsValuer(game)
    return SolitaireValuer(game)


# --- reviewing a record -----------------------------------------------------------------------------


def seat_named(record: Record, name: str) -> int:
    """The seat of the player called `name` (names compare as the game compares them); ReviewError if none."""
    for seat, spec in enumerate(record.players):
        if name_key(spec.name) == name_key(name):
            return seat
    names = ", ".join(spec.name for spec in record.players)
    raise ReviewError(_("no player {name} in this game (players: {names})").format(name=repr(name), names=names))


def _default_seats(record: Record) -> list[int]:
    """The seats humans sit at (a seat handed to a bot mid-game included); every seat of a game of bots only."""
    humans = [seat for seat, spec in enumerate(record.players) if spec.kind == "human"]
    return humans or list(range(len(record.players)))


def _decider_bot(record: Record, seat: int, index: int, by: str | None) -> str | None:
    """The bot that made the seat's decision at step `index` (0-based), or None for the player's own."""
    spec = record.players[seat]
    if by is not None:
        return by
    if spec.kind != "human":
        return spec.kind
    if spec.replaced_by is not None and spec.from_step is not None and index >= spec.from_step:
        return spec.replaced_by
    return None


def review(record: Record, seats: Sequence[int] | None = None) -> Review:
    """Review the decisions of `seats` (default: the humans' seats, or every seat of a game of bots).

    The record is verified first (as `replay` does: legality, the seed's draws; its stated result
    is not needed). ReviewError (one line) for a game that cannot be reviewed; RecordError for a
    record that does not replay.
    """
    from pinsetter.catalog import game_title

    game = game_played(record.game, record.options)
    refused = _refusal(game)
    if refused is not None:
        raise refused
    replay(record, check_result=False)
    chosen = sorted(set(seats)) if seats is not None else _default_seats(record)
    for seat in chosen:
        if not 0 <= seat < len(record.players):
            raise ReviewError(_("no seat {seat} in this game").format(seat=seat + 1))
    valuer = _valuer(game)
    state = new_state_for(record)
    decisions: dict[int, list[Decision]] = {seat: [] for seat in chosen}
    paths: dict[int, list[PathPoint]] = {}
    for seat in chosen:
        paths[seat] = [PathPoint(0, "start", _frame(state, seat), valuer.start(state, seat))]
    for index, step in enumerate(record.steps):
        actor = step.actor
        if actor is not None and actor in decisions:
            last = decisions[actor][-1] if decisions[actor] else None
            decision, after = _decide(valuer, state, record, index, actor, last)
            decisions[actor].append(decision)
            state.apply_by(actor, step.text)
            paths[actor].append(PathPoint(index + 1, "decision", _frame(state, actor), after))
            continue
        turn = None if state.is_terminal() else state.turn()
        state.apply_by(actor, step.text)
        if actor is not None:
            continue  # another seat's decision: nothing of a reviewed seat's changes
        for seat in chosen:
            value = valuer.value(state, seat)
            if value is None:
                continue  # not known yet: the path holds until it is
            if seat == turn or value != paths[seat][-1].value:
                paths[seat].append(PathPoint(index + 1, "chance", _frame(state, seat), value))
    players = []
    for seat in chosen:
        spec = record.players[seat]
        players.append(
            PlayerReview(
                seat=seat,
                name=spec.name,
                kind=spec.kind,
                score=state.scoresheet(seat).total,
                finished=state.ball_context(seat) is None,
                decisions=tuple(decisions[seat]),
                path=tuple(paths[seat]),
            )
        )
    return Review(
        game=game.id,
        title=game_title(record.game, record.options),
        complete=state.is_terminal(),
        exact=valuer.exact,
        meaning=_(valuer.meaning),
        steps=len(record.steps),
        players=tuple(players),
    )


def _frame(state: State, seat: int) -> int:
    """The frame the seat plays next (its last one once its game is over)."""
    ctx = state.ball_context(seat)
    return ctx.frame if ctx is not None else state.game.lane.frames


def _decide(
    valuer: Valuer, state: State, record: Record, index: int, seat: int, last: Decision | None = None
) -> tuple[Decision, float]:
    """The seat's decision at step `index` (0-based) reviewed, and the path's value after it (the chosen option's)."""
    step = record.steps[index]
    position = _as_seat(state, seat)
    options = valuer.options(state, seat)
    taken: Step = state.game.parse_action(step.text)
    value = next((v for action, v in options if action == taken), None)
    if value is None:  # the same action written another way
        value = next(v for action, v in options if str(action) == str(taken))
    best_action, best_value = options[0]
    if best_value - value <= TIE:
        best_action = taken  # as good as the first listed: the chosen one is the best
    ctx = state.ball_context(seat)
    # Boxes marked after the last ball (advanced game) belong to that ball.
    frame, ball = (ctx.frame, ctx.ball) if ctx is not None else (_frame(state, seat), last.ball if last else 1)
    words = state.game.action_words(position, str(taken))
    decision = Decision(
        step=index + 1,
        frame=frame,
        ball=ball,
        situation=valuer.situation(state, seat),
        action=str(taken),
        words=words,
        best_action=str(best_action),
        best_words=state.game.action_words(position, str(best_action)),
        value=value,
        best_value=best_value,
        loss=max(0.0, best_value - value),
        options=len(options),
        spread=best_value - options[-1][1],
        own=_decider_bot(record, seat, index, step.by) is None or record.players[seat].kind != "human",
        by=_decider_bot(record, seat, index, step.by),
    )
    return decision, value
