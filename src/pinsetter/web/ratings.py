"""The ratings endpoints: a leaderboard per game and mode, a player's ratings and their history (docs/accounts.md)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from pinsetter.core.game import OptionError
from pinsetter.games.registry import game_class
from pinsetter.i18n import _
from pinsetter.storage import Storage
from pinsetter.storage.ratings import MODES, STANDARD, RatingStore
from pinsetter.web.service import NotFound, Refused


def checked_mode(game: str, mode: str | None) -> str:
    """The mode asked for, or the game's first; NotFound for an unknown game, Refused for a mode it has not."""
    try:
        game_class(game if len(game) <= 40 else game[:40] + "...")  # a long address is named cut short
    except OptionError as exc:
        raise NotFound(str(exc)) from None  # the registry's own line: the game and the games there are
    modes = MODES.get(game, (STANDARD,))
    if mode is None:
        return modes[0]
    if mode not in modes:
        known = ", ".join(modes)
        raise Refused(_("{game} is rated in these modes: {known}").format(game=game, known=known))
    return mode


def add_rating_api(app: FastAPI, storage: Storage, errors: dict[int | str, dict[str, Any]]) -> RatingStore:
    """The rating endpoints; returns their store."""
    store = RatingStore(storage)

    @app.get("/api/leaderboard/{game}", tags=["ratings"], responses=errors)
    def get_leaderboard(game: str, mode: str | None = None) -> list[dict[str, Any]]:
        """The best rated players of a game, best first; `mode`: Rolling Pins' basic or advanced (basic if omitted)."""
        leaders = store.leaderboard(game, checked_mode(game, mode))
        return [{"name": r.name, "rating": r.rating, "games": r.games} for r in leaders]

    @app.get("/api/players/{name}", tags=["ratings"], responses=errors)
    def get_player(name: str) -> dict[str, Any]:
        """A signed-up player's rated games, current rating per game and mode, and every change (oldest first)."""
        found = store.player(name[:80])
        if found is None:
            raise NotFound(_("no player {name} has an account").format(name=repr(name[:80])))
        return found

    return store
