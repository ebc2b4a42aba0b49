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

from pinsetter.core.game import CHANCE, TERMINAL, Game, OptionError, OptionSpec, State, Step
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
            num_distinct_actions=max(1, len(facts.index.actions)),
            max_chance_outcomes=len(facts.index.outcomes),
            num_players=facts.players,
            min_utility=0.0,
            max_utility=float(facts.game.max_score),
            utility_sum=None,
            max_game_length=max(1, facts.game.max_decisions(facts.players)),
        )
        super().__init__(_GAME_TYPES[self.game_id], info, params or {})

    @property
    def facts(self) -> _Facts:
        """Looked up from the parameters (pyspiel copies games without calling __init__)."""
        params = {k: v for k, v in self.get_parameters().items()}
        return _facts(self.game_id, tuple(sorted(params.items())))

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


class PinsetterState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state that forwards to a pinsetter `State`."""

    def __init__(self, game: PinsetterGame) -> None:
        super().__init__(game)
        self.facts = game.facts
        self.state: State = self.facts.game.new_state(self.facts.players)
        self.steps: list[str] = []  # text of every step so far (the information state)

    def __deepcopy__(self, memo: dict[int, Any]) -> PinsetterState:
        """`copy.deepcopy` of the state: the engine's cheap clone.

        (pyspiel's own `clone()` deep-copies each attribute instead; the engine state's
        `__deepcopy__` shares its game there, and `_Facts` is shared as it is.)
        """
        new = PinsetterState.__new__(PinsetterState)
        pyspiel.State.__init__(new, self.get_game())
        new.facts = self.facts
        new.state = self.state.clone()
        new.steps = list(self.steps)
        return new

    def current_player(self) -> int:
        player = self.state.current_player()
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.state.current_player():
            return []
        return self.facts.index.legal_ids(self.state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        index = self.facts.index
        return sorted((index.outcome_id(o), float(p)) for o, p in self.state.chance_outcomes())

    def _step(self, player: int, action: int) -> Step:
        index = self.facts.index
        return index.outcomes[action] if player == pyspiel.PlayerId.CHANCE else index.actions[action]

    def _apply_action(self, action: int) -> None:
        step = self._step(self.current_player(), action)
        self.state.apply(step)
        self.steps.append(str(step))

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self._step(player, action))

    def is_terminal(self) -> bool:
        return self.state.is_terminal()

    def returns(self) -> list[float]:
        if not self.state.is_terminal():
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
            return f"p{player} " + " ".join(state.steps)
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
