"""The ratings endpoints: a leaderboard per game and mode, a player's ratings and their history (docs/accounts.md)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from pinsetter.core.game import OptionError
from pinsetter.games.registry import all_games, game_class
from pinsetter.i18n import N_, _
from pinsetter.storage import Storage
from pinsetter.storage.ratings import MODES, STANDARD, RatingStore
from pinsetter.web.service import NotFound, Refused

# A mode in words, after the game's name ("Rolling Pins, advanced"); the one mode of other games says nothing.
MODE_WORDS = {"basic": N_("basic"), "advanced": N_("advanced")}


def boards() -> list[dict[str, str]]:
    """Every leaderboard there is (a game and mode), titled in words: the pages name boards, never ids."""
    found = []
    for game, cls in all_games().items():
        for mode in MODES.get(game, (STANDARD,)):
            words = [_(cls.name)] + ([_(MODE_WORDS[mode])] if mode in MODE_WORDS else [])
            title = _(", ").join(words)  # as a game's options are listed (catalog.describe_variant)
            found.append({"game": game, "mode": mode, "title": title})
    return found


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

    @app.get("/api/leaderboards", tags=["ratings"])
    def get_boards() -> list[dict[str, str]]:
        """Every leaderboard: its game, mode and title in words (Rolling Pins' basic and advanced apart)."""
        return boards()

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
