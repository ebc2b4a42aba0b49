"""The registry of games: every front end, bot, solver and test reads it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from pinsetter.core.game import Game, OptionError
from pinsetter.i18n import _

__all__ = ["GAMES", "all_games", "game_class", "get_game", "register"]

GAMES: dict[str, type[Game]] = {}

G = TypeVar("G", bound=type[Game])


def register(cls: G) -> G:
    """Class decorator: make a game known by its id."""
    if cls.id in GAMES:
        raise ValueError(f"game id {cls.id!r} registered twice")
    GAMES[cls.id] = cls
    return cls


def game_class(game_id: str) -> type[Game]:
    _load_all()
    try:
        return GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise OptionError(_("unknown game {game} (games: {known})").format(game=repr(game_id), known=known)) from None


def all_games() -> dict[str, type[Game]]:
    """Every registered game by id, sorted by id."""
    _load_all()
    return dict(sorted(GAMES.items()))


def get_game(game_id: str, options: Mapping[str, object] | None = None) -> Game:
    """An instance of a registered game with validated options."""
    return game_class(game_id)(options)


def _load_all() -> None:
    import pinsetter.games  # noqa: F401  (importing the package registers every game)
