"""pinsetter's games as OpenSpiel Python games (needs the `rl` extra: open_spiel).

Importing this module registers `pinsetter_tenpins`, `pinsetter_bowling_dice`,
`pinsetter_rolling_pins` and `pinsetter_bowling_solitaire`; the game's options
and `players` are game parameters:

    import pyspiel, pinsetter.integrations.openspiel
    game = pyspiel.load_game("pinsetter_rolling_pins", {"players": 2, "advanced": True})

The wrapper holds a pinsetter `State` and forwards every call to it: chance
nodes list the engine's exact outcomes (as floats), actions and outcomes are
numbered by `encoding.StepIndex`, returns are the final scores (terminal reward
model: 0 before the end), and observations come from `State.view`. Everything a
player could see is public (face-down cards are never in a state: they are
drawn when turned up), so the games are perfect-information games with
explicit chance. Details in docs/integrations.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import pyspiel

from pinsetter.core.game import CHANCE, TERMINAL, Game, OptionError, OptionSpec, State
from pinsetter.games.registry import GAMES, game_class
from pinsetter.integrations.encoding import Observer, StepIndex, step_index

__all__ = ["PinsetterGame", "PinsetterState", "parameters", "short_name"]

PREFIX = "pinsetter_"


def short_name(game_id: str) -> str:
    """`rolling-pins` -> `pinsetter_rolling_pins` (OpenSpiel names have no dashes)."""
    return PREFIX + game_id.replace("-", "_")


def _parameter_default(option: OptionSpec) -> bool | int | float | str:
    """An option's default as an OpenSpiel parameter: data-valued options (a dice set, a sheet) as "default"."""
    if isinstance(option.default, bool | int | float | str):
        return option.default
    try:
        if option.read("default") == option.default:
            return "default"
    except OptionError:
        pass
    return _to_parameter(str(option.default))


def _to_parameter(text: str) -> str:
    """OpenSpiel's game strings split parameters at commas: a text parameter writes ';' for ','."""
    return text.replace(",", ";")


def parameters(game: Game, players: int = 1) -> dict[str, Any]:
    """The OpenSpiel parameters of a pinsetter game: `players` and every option not at its default."""
    params: dict[str, Any] = {"players": players}
    for spec in game.option_specs:
        value = game.options[spec.name]
        if value != spec.default:
            params[spec.name] = value if isinstance(value, bool | int | float) else _to_parameter(str(value))
    return params


def _from_parameter(value: object) -> object:
    return value.replace(";", ",") if isinstance(value, str) else value


def _game_type(cls: type[Game]) -> pyspiel.GameType:
    spec: dict[str, Any] = {"players": cls.min_players}
    spec |= {o.name: _parameter_default(o) for o in cls.option_specs}
    return pyspiel.GameType(
        short_name=short_name(cls.id),
        long_name=f"pinsetter {cls.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )


@dataclass(frozen=True)
class _Facts:
    """The pinsetter side of an OpenSpiel game: built from its parameters, shared by its copies."""

    key: tuple[str, tuple[tuple[str, object], ...]]
    game: Game
    players: int
    index: StepIndex
    observer: Observer

    def __deepcopy__(self, memo: dict[int, Any]) -> _Facts:
        return self  # immutable and shared

    def __reduce__(self) -> tuple[Any, ...]:
        return (_facts, self.key)  # pickled as its parameters, rebuilt once per process


@cache
def _facts(game_id: str, params: tuple[tuple[str, object], ...]) -> _Facts:
    cls = game_class(game_id)
    given = dict(params)
    players = int(given.pop("players", cls.min_players))  # type: ignore[call-overload]
    game = cls({k: _from_parameter(v) for k, v in given.items()})  # pinsetter validates every option
    game.check_players(players)
    return _Facts((game_id, params), game, players, step_index(game), Observer(game, players))


class PinsetterGame(pyspiel.Game):  # type: ignore[misc]
    """One pinsetter game with fixed options and player count."""

    game_id: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        facts = _facts(self.game_id, tuple(sorted((params or {}).items())))
        info = pyspiel.GameInfo(
            num_distinct_actions=facts.index.size,  # the game's actions and `end`
            max_chance_outcomes=len(facts.index.outcomes),
            num_players=facts.players,
            min_utility=0.0,
            max_utility=float(facts.game.max_score),
            utility_sum=None,
            # Decisions only (OpenSpiel counts chance apart): `end` is the one decision of a game that has none.
            max_game_length=max(1, facts.game.max_decisions(facts.players)),
        )
        super().__init__(_GAME_TYPES[self.game_id], info, params or {})
        self._facts: _Facts | None = facts

    def max_chance_nodes_in_history(self) -> int:
        """The game's bound on chance steps (OpenSpiel's maximum history length adds `max_game_length`)."""
        facts = self.facts
        return facts.game.max_chance_steps(facts.players)

    @property
    def facts(self) -> _Facts:
        """Kept from `__init__`, else looked up from the parameters (pyspiel copies games without calling it)."""
        facts: _Facts | None = getattr(self, "_facts", None)
        if facts is None:
            facts = self._facts = _facts(self.game_id, tuple(sorted(self.get_parameters().items())))
        return facts

    @property
    def pinsetter_game(self) -> Game:
        return self.facts.game

    def new_initial_state(self) -> PinsetterState:
        return PinsetterState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> PinsetterObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return PinsetterObserver(self.facts.observer, perfect_recall)


class _Position:
    """The Python side of an OpenSpiel state: the engine state and the ids played to reach it.

    pyspiel copies a Python state attribute by attribute (`copy.deepcopy`) and
    serialises it as its pickled attributes, so this one attribute copies as the
    engine's cheap clone and pickles as the game's parameters and the ids played
    (not the engine state with its game and the memos the game grows in play).
    Ids: a decision's action id (`end` included), a chance outcome's id as -1 - id.
    """

    __slots__ = ("_state", "codes", "decided", "facts")

    def __init__(self, facts: _Facts, state: State | None, codes: list[int], decided: bool) -> None:
        self.facts = facts
        self._state = state
        self.codes = codes
        self.decided = decided  # whether a decision was played (`end` included)

    @classmethod
    def start(cls, facts: _Facts) -> _Position:
        """The initial position; its engine state is made when first asked for (a clone replaces it unseen)."""
        return cls(facts, None, [], False)

    @property
    def state(self) -> State:
        if self._state is None:
            self._state = self.facts.game.new_state(self.facts.players)
        return self._state

    def must_end(self) -> bool:
        return self.facts.index.must_end(self.state, self.decided)

    def apply(self, code: int) -> None:
        """Play one step: an action id (from a player), or a chance outcome's -1 - id."""
        index = self.facts.index
        if code < 0:
            self.state.apply(index.outcomes[-1 - code])
        else:
            self.decided = True
            if code != index.end_id:
                self.state.apply(index.actions[code])
        self.codes.append(code)

    def text(self, code: int) -> str:
        """The text of a step's id (as in `apply`)."""
        index = self.facts.index
        return str(index.outcomes[-1 - code]) if code < 0 else index.text(code)

    def texts(self) -> list[str]:
        """The text of every step so far."""
        return [self.text(code) for code in self.codes]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        return _Position(self.facts, self.state.clone(), list(self.codes), self.decided)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_replay, (self.facts, self.codes))


def _code(player: int, action: int) -> int:
    """A step's id in `_Position`: a chance outcome's id as -1 - id, an action's as it is."""
    return -1 - action if player == pyspiel.PlayerId.CHANCE else action


def _replay(facts: _Facts, codes: list[int]) -> _Position:
    """The position the ids lead to (how a serialised state is read back)."""
    position = _Position.start(facts)
    for code in codes:
        position.apply(code)
    return position


class PinsetterState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state that forwards to a pinsetter `State`.

    Its one Python attribute is a `_Position`, so pyspiel's `clone()` (and
    `copy.deepcopy`, which calls it) copies the engine state cheaply and keeps
    OpenSpiel's history, and `serialize()` stays small.
    """

    def __init__(self, game: PinsetterGame) -> None:
        super().__init__(game)
        self.position = _Position.start(game.facts)

    def __deepcopy__(self, memo: dict[int, Any]) -> PinsetterState:
        """`copy.deepcopy` is `clone()`: OpenSpiel's history and move number come along."""
        return self.clone()  # type: ignore[no-any-return]

    @property
    def facts(self) -> _Facts:
        return self.position.facts

    @property
    def state(self) -> State:
        """The engine's state (once the game is over, `end` may still be owed: see `StepIndex.end_id`)."""
        return self.position.state

    def current_player(self) -> int:
        player = self.state.current_player()
        if player == TERMINAL:
            return 0 if self.position.must_end() else int(pyspiel.PlayerId.TERMINAL)
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return self.facts.index.legal_ids(self.state, self.position.decided)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        index = self.facts.index
        return sorted((index.outcome_id(o), float(p)) for o, p in self.state.chance_classes())

    def _apply_action(self, action: int) -> None:
        """An id out of range is refused here; an illegal one in range, by the engine (`IllegalActionError`)."""
        player = self.current_player()
        index = self.facts.index
        if not 0 <= action < (len(index.outcomes) if player == pyspiel.PlayerId.CHANCE else index.size):
            outcomes = len(index.outcomes)
            raise ValueError(f"{action} is no id here: actions are 0 to {index.size - 1}, outcomes 0 to {outcomes - 1}")
        self.position.apply(_code(player, action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.position.text(_code(player, action))

    def is_terminal(self) -> bool:
        return self.facts.index.episode_over(self.state, self.position.decided)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.state.num_players
        return self.state.returns()

    def __str__(self) -> str:
        sheets = "\n".join(
            f"p{p}: {' '.join(str(x) for x in self.state.pinfalls[p])} = {s}" for p, s in enumerate(self.state.scores())
        )
        status = "game over" if self.state.is_terminal() else self.state.describe()
        return f"{sheets}\n{status}"


class PinsetterObserver:
    """OpenSpiel's PyObserver interface over `encoding.Observer`.

    Observation and information state share the tensor: every player sees the
    whole table (all information is public) and the table is Markov. The
    information-state string adds the history: every step's text so far.
    """

    def __init__(self, spec: Observer, perfect_recall: bool) -> None:
        self.spec = spec
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(self.spec.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: PinsetterState, player: int) -> None:
        self.tensor[:] = self.spec.vector(state.state, player)

    def string_from(self, state: PinsetterState, player: int) -> str:
        view = json.dumps(state.state.view(player), sort_keys=True, separators=(",", ":"))
        if self.perfect_recall:
            return f"p{player} " + " ".join(state.position.texts())
        return view


def _register() -> dict[str, pyspiel.GameType]:
    game_class("tenpins")  # load the registry
    types: dict[str, pyspiel.GameType] = {}
    registered = set(pyspiel.registered_names())
    for game_id, cls in sorted(GAMES.items()):
        types[game_id] = _game_type(cls)
        name = "".join(word.title() for word in game_id.split("-")) + "Game"
        subclass = type(name, (PinsetterGame,), {"game_id": game_id, "__module__": __name__})
        globals()[name] = subclass  # importable by name, so games pickle
        if short_name(game_id) not in registered:
            pyspiel.register_game(types[game_id], subclass)
    return types


_GAME_TYPES = _register()
