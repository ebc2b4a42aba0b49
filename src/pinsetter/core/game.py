"""The common game API: every engine, bot, solver and interface speaks it.

Modelled on OpenSpiel: a `Game` holds the rules and options, a `State` is one
position. Chance is explicit: at a chance node `chance_outcomes()` lists every
outcome with its exact probability, and the caller (a driver, a solver) picks
one. Actions and outcomes are small immutable values with text forms that
round-trip through `Game.parse_action` / `Game.parse_outcome`.
"""

from __future__ import annotations

import copy
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Final, Protocol

from pinsetter.core.rules_text import FRAMES_OPTION_RULE, SCORING_RULES
from pinsetter.core.scoring import STANDARD, BallContext, Lane, Scoresheet, following_ball, next_ball, score
from pinsetter.core.seeds import CHANCE_STREAM, position_rng
from pinsetter.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from pinsetter.core.table import TableView

__all__ = [
    "CHANCE",
    "TERMINAL",
    "FeatureLayout",
    "Game",
    "GameError",
    "GameOverError",
    "IllegalActionError",
    "OptionError",
    "OptionSpec",
    "ParseError",
    "State",
    "Step",
    "int_in",
    "parse_bool",
    "parse_int",
    "quoted",
]

CHANCE: Final = -1
TERMINAL: Final = -2


class GameError(Exception):
    """Base of every error a user's input can cause in a game."""


class ParseError(GameError, ValueError):
    """The text is not an action or outcome of this game at all."""


class IllegalActionError(GameError):
    """The action is well formed but not allowed in this position.

    `reason` says why without naming the action ("" when the message says no more): an
    interface that made the action from a pick of pins says the pins instead.
    """

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason


class GameOverError(GameError):
    """The game is over: nothing more can be applied."""


class OptionError(GameError, ValueError):
    """A game option is unknown or has a bad value."""


class Step(Protocol):
    """An action or a chance outcome: hashable, ordered, with a text form."""

    def __str__(self) -> str: ...

    def __hash__(self) -> int: ...

    def to_dict(self) -> dict[str, Any]: ...


_INTEGER = re.compile(r"[+-]?[0-9]+")


def parse_int(text: str) -> int:
    """A whole number in ASCII digits with an optional sign.

    Python's int() also takes other scripts' digits (`٣`), underscores and
    surrounding whitespace; user input and records must be plain ASCII.
    """
    if not _INTEGER.fullmatch(text):
        raise ValueError(_("expected a whole number, got {value}").format(value=quoted(text)))
    return int(text)


def int_in(low: int, high: int) -> Callable[[str], int]:
    """A parser of whole numbers from `low` to `high`."""

    def parse(text: str) -> int:
        value = parse_int(text.strip())
        if not low <= value <= high:
            message = _("expected a whole number from {low} to {high}, got {value}")
            raise ValueError(message.format(low=low, high=high, value=quoted(text.strip())))
        return value

    return parse


def parse_bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise ValueError(_("expected true or false, got {value}").format(value=quoted(text)))


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its name, default, help text and how to read it from text.

    `parse` reads inline text only and never opens a file: a record's options
    are data. An option with `reads_file` may be given as a file on the command
    line; `pinsetter.core.datafile.resolve_option_files` turns it into inline
    text once, before the game is built.
    """

    name: str
    default: object
    help: str
    parse: Callable[[str], object] = str
    choices: tuple[str, ...] = ()
    reads_file: bool = False
    label: str = ""  # what a form calls it (translated); the name is what commands and records use

    @property
    def title(self) -> str:
        """The label in the current language, or the name where there is none."""
        return _(self.label) if self.label else self.name

    def read(self, value: object) -> object:
        """Validate a value given as text (from the CLI) or as a typed value (from JSON).

        A JSON bool or int must have the default's exact type (a bool is not an
        int, 1 is not true) and passes the same checks as its text form.
        """
        if isinstance(value, type(self.default)) and not isinstance(self.default, bool | int | float | str):
            return value  # an already parsed value (a Sheet, a DiceSet)
        if isinstance(self.default, bool | int) and type(value) is type(self.default):
            value = str(value).lower()
        elif not isinstance(value, str):
            expected = type(self.default).__name__ if isinstance(self.default, bool | int | float) else _("text")
            message = _("option {name}: expected {expected}, got {value}")
            raise OptionError(message.format(name=self.name, expected=expected, value=quoted(value)))
        if self.choices and value not in self.choices:
            message = _("option {name}: {value} is not one of {choices}")
            raise OptionError(message.format(name=self.name, value=quoted(value), choices=", ".join(self.choices)))
        try:
            return self.parse(value)
        except (ValueError, RecursionError) as exc:  # OptionError is a ValueError
            raise OptionError(_("option {name}: {error}").format(name=self.name, error=exc)) from None


def quoted(value: object, limit: int = 60) -> str:
    """A value as an error message quotes it: repr (so one line), cut short."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Game(ABC):
    """Static facts and options of a game. Subclasses register in `pinsetter.games`."""

    id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 8
    has_decisions: ClassVar[bool]
    rules_text: ClassVar[str] = ""  # the rules for players (`N_`, the format of core/rules_text.py); see `rules`
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    # Option sets the registry-wide conformance test plays (documented examples).
    conformance_options: ClassVar[tuple[dict[str, object], ...]] = ({},)
    # Whether `play_chance_run` turns up a run of chance outcomes at once (see there).
    chance_runs: ClassVar[bool] = False
    # Why undo stops at a chance step, in the game's words (`N_`): what chance shows in this game.
    undo_stops: ClassVar[str] = N_("the dice were rolled after your last decision; undo cannot go back past them")
    lane: Lane = STANDARD

    def __init__(self, options: Mapping[str, object] | None = None) -> None:
        given = dict(options or {})
        specs = {spec.name: spec for spec in self.option_specs}
        unknown = sorted(set(given) - set(specs))
        if unknown:
            known = ", ".join(specs) or _("none")
            message = _("unknown option {name} for {game} (options: {known})")
            raise OptionError(message.format(name=repr(unknown[0]), game=self.id, known=known))
        self.options: dict[str, object] = {}
        for name, spec in specs.items():
            self.options[name] = spec.read(given[name]) if name in given else spec.default
        frames = self.options.get("frames", STANDARD.frames)
        pins = self.options.get("pins", STANDARD.pins)
        assert isinstance(frames, int) and isinstance(pins, int)
        try:
            self.lane = Lane(pins=pins, frames=frames)
        except ValueError as exc:
            name = "pins" if not 1 <= pins <= 10 else "frames"
            raise OptionError(_("option {name}: {error}").format(name=name, error=exc)) from exc

    @property
    def simultaneous(self) -> bool:
        """Whether several players may decide at once (`State.deciders`); interfaces say who still decides."""
        return False

    @property
    def max_score(self) -> int:
        return self.lane.max_score

    @classmethod
    def players_text(cls) -> str:
        """The player range as the rules text and the game list show it."""
        if cls.min_players == cls.max_players:
            return ngettext("{count} player", "{count} players", cls.min_players).format(count=cls.min_players)
        return _("{low} to {high} players").format(low=cls.min_players, high=cls.max_players)

    @classmethod
    def players_refusal(cls, count: int) -> str | None:
        """Why `count` players cannot play this game and what to do, in words (None: they can): one
        sentence for every interface, so that the launcher, the web and the engine refuse alike."""
        if count > cls.max_players:
            said = _("{game} takes {players}: remove a player first")
        elif count < cls.min_players:
            said = _("{game} takes {players}: add a player first")
        else:
            return None
        return said.format(game=_(cls.name), players=cls.players_text())

    def check_players(self, count: int) -> None:
        refusal = self.players_refusal(count)
        if refusal is not None:
            raise OptionError(refusal)

    def options_text(self) -> dict[str, object]:
        """Options as JSON-friendly values (what a record stores)."""
        return {k: v if isinstance(v, bool | int | float | str) else str(v) for k, v in self.options.items()}

    def options_in_play(self) -> dict[str, object]:
        """`options_text` without the options that change nothing under the others (a basic game's
        advanced sheet): what tells two games' rules apart, for statistics' series and for descriptions."""
        return self.options_text()

    @abstractmethod
    def new_state(self, players: int = 1) -> State:
        """The position before the first step of a game for `players` players."""

    @abstractmethod
    def parse_action(self, text: str) -> Step:
        """Parse an action's text form; raises ParseError."""

    @abstractmethod
    def parse_outcome(self, text: str) -> Step:
        """Parse a chance outcome's text form; raises ParseError."""

    def rules(self) -> str:
        """The rules for players in the current language, in the light format of `core.rules_text`.

        A game writes them once as `rules_text`, whose placeholders are filled here: `{name}`,
        `{players}`, `{scoring}` (the ten-pin scoring every game shares), `{frames_option}`, and an
        option's name in braces for its label as the lobby shows it (never its key or a value to type).
        """
        if not self.rules_text:
            return _(self.summary)
        return self.fill_rules(_(self.rules_text))

    def fill_rules(self, text: str) -> str:
        """`text` with the placeholders of `rules` filled in the current language."""
        values = {"scoring": _(SCORING_RULES), "frames_option": _(FRAMES_OPTION_RULE)}  # first: they hold more
        values |= {spec.name: spec.title for spec in self.option_specs}
        values |= {"name": _(self.name), "players": self.players_text()}
        for key, value in values.items():
            text = text.replace("{" + key + "}", value)
        return text

    def draw_chance(self, state: State, seed: int, key: tuple[int, ...], into: random.Random | None = None) -> Step:
        """The seeded chance outcome at `state` under draws keyed by position (`pinsetter.core.draws`).

        `key` is `state.chance_position()` with the number of earlier draws at that key appended, so
        the same place in any game with this seed gets the same draw whatever was decided
        before. A game whose chance is not a draw per position (a shuffled deck) overrides this.
        `into`: a generator the caller is done with, seeded again for this draw (`position_rng`).
        """
        return state.sample_chance(position_rng(seed, key, into))

    def play_chance_run(self, state: State, seed: int) -> list[Step]:
        """Every seeded chance step from the chance node `state` to the next decision (or the end), applied.

        For a game with `chance_runs`, whose draws do not depend on the count of draws at a key
        (its `draw_chance` ignores `key`): it turns up a run of outcomes in one call instead of a
        call per outcome, applying exactly what `draw_chance` and `State.apply_drawn` would,
        outcome by outcome, and returns the outcomes in order. Other games draw one at a time.
        """
        raise NotImplementedError(f"{self.id} draws its chance one outcome at a time")

    def scripted_chance(self, extra: Mapping[str, object]) -> Callable[[State], Step | None] | None:
        """The chance script a record's `extra` data fixes (e.g. a Solitaire deal), or None for seeded chance."""
        return None

    # --- presentation: what every interface draws (core/table.py) -----------------------
    def table(self, state: State, names: Sequence[str] | None = None, last_chance: str = "") -> TableView:
        """The renderer-neutral picture of `state` for the player up; games draw their own table.

        This default shows the status and every legal action as a button, so a new
        game is playable in every interface before it has a presentation.
        """
        from pinsetter.core.table import Choice, TableView

        player = None if state.is_terminal() else state.turn()
        legal = [] if state.is_chance_node() or state.is_terminal() else [str(a) for a in state.legal_actions()]
        return TableView(
            game=self.id,
            title=_(self.name),
            player=player,
            status=_("game over")
            if player is None
            else state.describe() or _("player {number} to play").format(number=player + 1),
            choices=tuple(Choice(action=t, label=t) for t in legal),
            roll_label=_("Next"),
        )

    def board(
        self,
        state: State,
        player: int,
        names: Sequence[str] | None = None,
        last_chance: str = "",
        drawn: TableView | None = None,
    ) -> TableView:
        """`player`'s own board as everybody at the table may see it, read only (the web draws every player's).

        The player up, or one of the deciders, has their table; a player waiting has by default
        only a status line (`Bob: waiting`), as Ten Pins' and Bowling Dice's pins are the bowler's.
        A game where every player keeps a sheet of their own draws it (Rolling Pins).
        `drawn`: `table(state, names, last_chance)` if the caller has drawn it already (a view
        drawn once is not drawn again for the board of the player it shows).
        """
        if state.num_players == 1 or state.is_up(player):
            seen = state.seen_by(player)
            if drawn is None or seen is not state:
                drawn = self.table(seen, names, last_chance)
            return drawn.as_board(player)
        return _waiting_board(self.id, _(self.name), player, self.waiting_status(state, player, names))

    def board_data(
        self, state: State, player: int, names: Sequence[str] | None, last_chance: str, table: dict[str, Any]
    ) -> dict[str, Any] | None:
        """`board(state, player, names, last_chance).model_dump(mode="json")` made from `table`, the dumped
        `table(state, names, last_chance)`, where the board is that table without its choices; else None.

        The web draws every player's board at every step: the board of the player up need not be
        drawn again. A game that draws its boards otherwise says here what it can make (or None).
        """
        from pinsetter.core.table import as_board_data

        if type(self).board is not Game.board:
            return None  # another drawing: only the game knows what it is
        up = state.num_players == 1 or state.is_up(player)
        return as_board_data(table, player) if up and state.seen_by(player) is state else None

    @staticmethod
    def waiting_status(state: State, player: int, names: Sequence[str] | None) -> str:
        """The status line of a player who is not up: `Bob: waiting`, or `Bob: finished` once the game is over."""
        who = names[player] if names and player < len(names) else _("player {number}").format(number=player + 1)
        if state.is_terminal():
            return _("{who}: finished").format(who=who)
        return _("{who}: waiting").format(who=who)

    def step_words(self, before: State, step: str, after: State, names: Sequence[str], actor: int | None) -> str:
        """A step as a player says it, naming who did it (chance: whose roll or deal it was).

        `before` and `after` are the positions around the step; `actor` the seat that
        decided (None for chance). What a finished ball meant is added by
        `pinsetter.core.narration.narrate`, not here. This default names the actor and
        the action's words, so a new game narrates before it has a presentation.
        """
        from pinsetter.core.narration import who

        if actor is None:
            return _("{name}: chance").format(name=who(names, None if before.is_terminal() else before.turn()))
        return _("{name}: {action}").format(name=who(names, actor), action=self.action_words(before, step))

    def action_words(self, state: State, action: str) -> str:
        """A legal action as a move a player would make ("Cross out 4 and 6"): buttons, lists and hints."""
        return action

    def selection_action(self, state: State, pins: frozenset[int], pile: int | None) -> str:
        """The action a selection of pins (and a pile) makes, in text form; the engine then judges it."""
        raise IllegalActionError(_("{game} has no pins to pick").format(game=_(self.name)))

    # --- step spaces and observations, for toolkits (pinsetter.integrations) ------------------
    def action_space(self) -> Iterable[Step]:
        """Every action this game (with these options) can offer in any position, each once.

        Toolkits number actions (`pinsetter.integrations.encoding.StepIndex` sorts
        this space in the game's order); legality stays with the state. A superset
        of what is ever legal is fine. Games without decisions have no actions.
        """
        if self.has_decisions:
            raise NotImplementedError(f"{self.id} does not describe its actions (Game.action_space)")
        return ()

    def chance_space(self) -> Iterable[Step]:
        """Every chance outcome this game (with these options) can produce in any position, each once."""
        raise NotImplementedError(f"{self.id} does not describe its chance outcomes (Game.chance_space)")

    def max_decisions(self, players: int) -> int:
        """A loose upper bound on the decisions of one game (toolkits ask for a maximum length).

        This default allows 64 decisions a ball; games with long turns say more.
        """
        return players * (2 * self.lane.frames + 1) * 64 if self.has_decisions else 0

    def max_chance_steps(self, players: int) -> int:
        """An upper bound on the chance steps of one game (OpenSpiel asks for a maximum history length)."""
        raise NotImplementedError(f"{self.id} does not bound its chance steps (Game.max_chance_steps)")

    def observation_features(self, view: dict[str, Any]) -> Iterator[tuple[str, float]]:
        """The game's own entries of a fixed-size observation vector, read from a `State.view`.

        (name, value in [0, 1]) pairs; every view of the same game, options and
        player count gives the same names in the same order. The pinfalls, scores
        and whose turn it is are common to all games and not repeated here. It runs
        at every step of a training loop: a `FeatureLayout` keeps it cheap.
        """
        return iter(())

    def observation_values(self, state: State, player: int) -> list[float]:
        """The values of `observation_features(state.view(player))`, in order: what the observer reads every step.

        A game may make them without building the view (a dict, then read back), if they are
        exactly those values: tests compare the two in every position of seeded games.
        """
        return [value for _name, value in self.observation_features(state.view(player))]


class FeatureLayout:
    """The names of a game's observation entries, made once; an observation sets its values by name.

    `Game.observation_features` starts from `zeros()` and sets only the entries a view makes
    nonzero (a one-hot sets one of its ten), then returns `pairs(values)`: so an observation
    costs the few entries set, not a Python step per entry, and each entry's name is written
    in one place (a value set under a name the layout lacks raises KeyError).
    """

    def __init__(self, names: Iterable[str]) -> None:
        self.names = tuple(names)
        self.at = {name: i for i, name in enumerate(self.names)}
        if len(self.at) != len(self.names):
            raise ValueError("observation entries need distinct names")

    def zeros(self) -> list[float]:
        return [0.0] * len(self.names)

    def pairs(self, values: list[float]) -> Iterator[tuple[str, float]]:
        """(name, value) in layout order (a C-level zip: the observer reads it without a Python loop)."""
        return zip(self.names, values, strict=True)


class State(ABC):
    """One position of a game. Mutable, cheap to `clone()`; `key()` identifies it."""

    def __init__(self, game: Game, players: int) -> None:
        game.check_players(players)
        self.game = game
        self.num_players = players
        self.pinfalls: list[list[int]] = [[] for _ in range(players)]
        self._contexts: list[BallContext | None] = [next_ball([], game.lane) for _ in range(players)]
        self._turn: int | None = None  # `State.turn`, known until the next ball is recorded

    # --- whose move -------------------------------------------------------
    def ball_context(self, player: int) -> BallContext | None:
        """The frame/ball `player` faces next (None when their game is over)."""
        return self._contexts[player]

    def record_ball(self, player: int, pins: int) -> None:
        """Append a finished ball's pinfall; the scoring engine validates it."""
        self._turn = None
        balls = self.pinfalls[player]
        balls.append(pins)
        ctx = self._contexts[player]
        if ctx is not None and type(pins) is int and 0 <= pins <= ctx.standing:
            # A valid ball: only its frame decides what comes next (no rescoring of the whole game).
            self._contexts[player] = following_ball(ctx, balls[len(balls) - ctx.ball :], self.game.lane)
        else:
            self._contexts[player] = next_ball(balls, self.game.lane)  # raises ScoringError naming the ball

    def turn(self) -> int:
        """The player whose frame is being played, or TERMINAL.

        Players take whole frames in turn: the first player with the lowest
        unfinished frame number is up.
        """
        if self._turn is not None:
            return self._turn
        best, best_frame = TERMINAL, self.game.lane.frames + 1
        for player, ctx in enumerate(self._contexts):
            if ctx is not None and ctx.frame < best_frame:
                best, best_frame = player, ctx.frame
        self._turn = best
        return best

    def current_player(self) -> int:
        """The player to decide, CHANCE, or TERMINAL."""
        if self.is_terminal():
            return TERMINAL
        return CHANCE if self.is_chance_node() else self.turn()

    def is_terminal(self) -> bool:
        return self.turn() == TERMINAL

    # --- simultaneous decisions ---------------------------------------------
    def deciders(self) -> list[int]:
        """The players who must decide before the game moves on, in seat order.

        Turn-based games have one: the player to move. A game where several
        players answer the same chance outcome at once (shared-dice Rolling
        Pins) lists them all; their answers are independent, so any order of
        them gives the same game. Empty at chance and terminal nodes.
        """
        if self.is_terminal() or self.is_chance_node():
            return []
        return [self.turn()]

    def is_up(self, player: int) -> bool:
        """Whether `player` is up: the player to move or one of the deciders (never once the game is over).

        Their board is their table; a waiting player's is what the game shows of them (`Game.board`).
        """
        return not self.is_terminal() and (player == self.turn() or player in self.deciders())

    def as_decider(self, player: int) -> State:
        """A copy of this position where `player`, one of the deciders, is the one to move.

        Bots and the table's views ask `legal_actions()` of it; games with
        simultaneous decisions override this (a forced turn).
        """
        if player not in self.deciders():
            raise IllegalActionError(_("player {n} has no decision to make now").format(n=player + 1))
        return self.clone()

    def seen_by(self, player: int) -> State:
        """This position drawn from `player`'s own sheet, for a view only (never to decide on).

        Turn-based games draw the player to move for everybody; a game with
        simultaneous decisions shows each waiting player their own sheet.
        """
        return self

    def legal_actions_for(self, player: int) -> list[Step]:
        """`player`'s legal actions now: empty unless they are one of the deciders."""
        if player not in self.deciders():
            return []
        if player == self.turn():
            return self.legal_actions()
        return self.as_decider(player).legal_actions()

    def apply_for(self, player: int, step: Step) -> None:
        """Apply a decision of `player`, one of the deciders, whatever the order of the others'."""
        if player not in self.deciders():
            raise IllegalActionError(_("player {n} has no decision to make now").format(n=player + 1))
        if player == self.turn():
            self.apply(step)
        else:
            self._apply_for(player, step)

    def _apply_for(self, player: int, step: Step) -> None:
        """Apply a decider's step out of the turn order (games with simultaneous decisions)."""
        raise IllegalActionError(_("player {n} has no decision to make now").format(n=player + 1))

    def chance_key(self, index: int) -> tuple[int, int]:
        """Which seeded draw serves the chance node reached after `index` steps: (number, stream).

        The step number on the chance stream, by default. A game with
        simultaneous decisions keys a player's own roll (made while others
        decide) to that player, so the order of their answers cannot change it.
        """
        return index, CHANCE_STREAM

    @abstractmethod
    def is_chance_node(self) -> bool: ...

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[Step, Fraction]]:
        """Every outcome at a chance node with its exact probability (summing to 1)."""

    def chance_classes(self) -> list[tuple[Step, Fraction]]:
        """`chance_outcomes` with the outcomes that lead to positions of equal value merged.

        One outcome of each class stands for it, with the class's total probability, so that
        tree search branches less (OpenSpiel's chance nodes list these). By default nothing merges.
        """
        return self.chance_outcomes()

    @abstractmethod
    def legal_actions(self) -> list[Step]:
        """Sorted legal actions of the player to move (empty at chance/terminal nodes)."""

    @abstractmethod
    def _apply(self, step: Step) -> None:
        """Apply a step already checked to be legal."""

    # --- applying steps -----------------------------------------------------
    def apply(self, step: Step) -> None:
        """Apply an action or outcome, checking it is legal here."""
        if self.is_terminal():
            raise GameOverError(_("the game is over; cannot apply {step}").format(step=step))
        if self.is_chance_node():
            if step not in self.possible_outcomes():
                raise IllegalActionError(_("{step} is not a possible outcome here").format(step=step))
        elif step not in self.legal_actions():
            raise IllegalActionError(_("{step} is not legal here").format(step=step))
        self._apply(step)

    def apply_drawn(self, outcome: Step) -> None:
        """Apply a chance outcome this node drew itself (`sample_chance`, `Game.draw_chance`).

        Such an outcome is possible by construction, so `apply`'s checks are skipped: the
        seeded chance of every simulated game comes this way. Outcomes from anywhere else (a
        record, a script, a player) go through `apply`.
        """
        self._apply(outcome)

    def apply_text(self, text: str) -> Step:
        """Parse `text` as the kind of step this node expects and apply it."""
        if self.is_terminal():
            raise GameOverError(_("the game is over; cannot apply {step}").format(step=repr(text)))
        parse = self.game.parse_outcome if self.is_chance_node() else self.game.parse_action
        step = parse(text)
        self.apply(step)
        return step

    def apply_by(self, actor: int | None, text: str) -> None:
        """Apply a recorded step as its actor made it: chance (None), or a decision of one of the deciders."""
        if actor is None:
            self.apply(self.game.parse_outcome(text))
        elif actor == self.turn():
            self.apply(self.game.parse_action(text))  # the player to move (the engine refuses a chance node)
        else:
            self.apply_for(actor, self.game.parse_action(text))

    def possible_outcomes(self) -> Collection[Step]:
        """The outcomes of `chance_outcomes`, for membership tests (games may cache them)."""
        return {outcome for outcome, _probability in self.chance_outcomes()}

    def chance_position(self) -> tuple[int, ...]:
        """Where this chance node falls in the game: the player whose frame it is, and the frame.

        Draws keyed by position number the draws made at one key (the first ball or roll of
        the frame is draw 0, the next draw 1, ...), so a key need not be unique by itself.
        """
        player = self.turn()
        ctx = self._contexts[player]
        return (player, ctx.frame if ctx is not None else 0)

    def sample_chance(self, rng: random.Random) -> Step:
        """Draw a chance outcome with its exact probability (games may override for speed)."""
        outcomes = self.chance_outcomes()
        weights = [float(p) for _, p in outcomes]
        return rng.choices([o for o, _ in outcomes], weights=weights)[0]

    def child(self, step: Step) -> State:
        new = self.clone()
        new.apply(step)
        return new

    def clone(self) -> State:
        return copy.deepcopy(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        """A copy of the position that shares its game: the rules, and the memos they grow in play.

        `copy.deepcopy` of a state (OpenSpiel's clone of a Python state copies each attribute
        so) used to copy the game too, with every memo in it: after a tournament had filled
        Rolling Pins' memo of actions, one copy took milliseconds.
        """
        memo.setdefault(id(self.game), self.game)  # unless a larger copy copied the game already
        new = object.__new__(type(self))
        memo[id(self)] = new
        for name, value in self.__dict__.items():
            new.__dict__[name] = copy.deepcopy(value, memo)
        return new

    # --- results -----------------------------------------------------------
    def scoresheet(self, player: int) -> Scoresheet:
        # Sheets are immutable values: the same balls are scored once (a game's end reads them often).
        return _score(tuple(self.pinfalls[player]), self.game.lane)

    def scores(self) -> list[int]:
        """Each player's running total (final totals at a terminal state)."""
        return [self.scoresheet(p).total for p in range(self.num_players)]

    def returns(self) -> list[float]:
        """Final scores (OpenSpiel's name); meaningful at terminal states."""
        return [float(s) for s in self.scores()]

    @abstractmethod
    def view(self, player: int) -> dict[str, Any]:
        """What `player` may see, as JSON-friendly data (no hidden information)."""

    @abstractmethod
    def key(self) -> Hashable:
        """A hashable identity of this position, for memoisation."""

    def describe(self) -> str:
        """A short human description of the position (for line interfaces)."""
        return ""


@lru_cache(maxsize=1024)
def _waiting_board(game: str, title: str, player: int, status: str) -> TableView:
    """A waiting player's status-only board, one shared (frozen) instance of each: the web draws every
    player's board at every step, and keeps the JSON of a board it drew before (`web.service`)."""
    from pinsetter.core.table import TableView

    return TableView(game=game, title=title, player=player, status=status)


@lru_cache(maxsize=1024)
def _score(pinfalls: tuple[int, ...], lane: Lane) -> Scoresheet:
    return score(pinfalls, lane)
