"""The registry of games: every front end, bot, solver and test reads it.

A game's module registers its class when imported (`register`). The registry imports a game's
module the first time that game is looked up, so a command about one game imports that game
only, and one about none (`score`, `--help`) imports none (start-up time, docs/performance.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import TypeVar

from pinsetter.core.game import Game, OptionError
from pinsetter.i18n import _

__all__ = ["GAMES", "GAME_MODULES", "all_games", "game_class", "get_game", "register"]

# Where each game is defined, by id (sorted). tests/test_cli_startup.py checks it against the
# games the modules register.
GAME_MODULES: dict[str, str] = {
    "bowling-dice": "pinsetter.games.bowling_dice",
    "bowling-solitaire": "pinsetter.games.bowling_solitaire",
    "rolling-pins": "pinsetter.games.rolling_pins",
    "tenpins": "pinsetter.games.tenpins",
}


class _Registry(Mapping[str, type[Game]]):
    """Every game's class by id, its module imported when the game is first looked up.

    Listing the ids (`sorted(GAMES)`, `gid in GAMES`) imports nothing.
    """

    def __init__(self) -> None:
        self._classes: dict[str, type[Game]] = {}

    def __getitem__(self, game_id: str) -> type[Game]:
        if game_id not in self._classes and game_id in GAME_MODULES:
            importlib.import_module(GAME_MODULES[game_id])
        return self._classes[game_id]

    def __contains__(self, game_id: object) -> bool:
        return game_id in GAME_MODULES or game_id in self._classes

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(GAME_MODULES.keys() | self._classes.keys()))

    def __len__(self) -> int:
        return len(GAME_MODULES.keys() | self._classes.keys())

    def add(self, cls: type[Game]) -> None:
        if cls.id in self._classes:
            raise ValueError(f"game id {cls.id!r} registered twice")
        self._classes[cls.id] = cls


_registry = _Registry()
GAMES: Mapping[str, type[Game]] = _registry  # read-only for every reader: games come in by `register`

G = TypeVar("G", bound=type[Game])


def register(cls: G) -> G:
    """Class decorator: make a game known by its id."""
    _registry.add(cls)
    return cls


def game_class(game_id: str) -> type[Game]:
    try:
        return GAMES[game_id]
    except KeyError:
        known = ", ".join(GAMES)
        raise OptionError(_("unknown game {game} (games: {known})").format(game=repr(game_id), known=known)) from None


def all_games() -> dict[str, type[Game]]:
    """Every registered game by id, sorted by id."""
    return {game_id: GAMES[game_id] for game_id in GAMES}


def get_game(game_id: str, options: Mapping[str, object] | None = None) -> Game:
    """An instance of a registered game with validated options."""
    return game_class(game_id)(options)
