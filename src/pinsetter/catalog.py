"""The games as every interface lists them: players, options with help texts and choices, bots."""

from __future__ import annotations

from typing import Any

from pinsetter.bots.base import bot_names
from pinsetter.games.registry import all_games
from pinsetter.i18n import _

__all__ = ["catalog"]


def _option_type(default: object) -> str:
    """How an interface asks for an option: a switch, a number or text (choices come separately)."""
    if isinstance(default, bool):
        return "bool"
    return "int" if isinstance(default, int) else "text"


def catalog() -> list[dict[str, Any]]:
    """One entry per registered game, sorted by id (`pinsetter games --json`, the web lobby)."""
    return [
        {
            "id": gid,
            "name": _(cls.name),
            "summary": _(cls.summary),
            "players": [cls.min_players, cls.max_players],
            "players_text": cls.players_text(),
            "decisions": cls.has_decisions,
            "bots": bot_names(gid),
            "options": [
                {
                    "name": o.name,
                    "label": o.title,
                    "default": o.default if isinstance(o.default, bool | int | str) else str(o.default),
                    "help": _(o.help),
                    "choices": list(o.choices),
                    "type": _option_type(o.default),
                }
                for o in cls.option_specs
            ],
        }
        for gid, cls in all_games().items()
    ]
