"""The games as every interface lists them: players, options with help texts and choices, bots,
and a game with its options as players read it (`describe_variant`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pinsetter.bots.base import bot_names
from pinsetter.core.game import GameError, OptionSpec
from pinsetter.games.registry import all_games, game_class, get_game
from pinsetter.i18n import N_, _, ngettext
from pinsetter.usertext import visible

__all__ = ["catalog", "describe_played", "describe_variant", "option_words"]

# Option values in words, where the option's label and value would not read as a phrase.
OPTION_WORDS: dict[tuple[str, object], str] = {
    ("advanced", True): N_("advanced"),
    ("advanced", False): N_("basic"),
    ("auto_strike", "next"): N_("Auto Strike on the next frame"),
    ("auto_strike", "held"): N_("Auto Strike held"),
    ("shared_dice", True): N_("shared dice"),
    ("shared_dice", False): N_("dice of one's own"),
    ("tokens", True): N_("with tokens"),
    ("tokens", False): N_("no tokens"),
    ("groups", "connected"): N_("connected pin groups"),
    ("groups", "mutual"): N_("mutual pin groups"),
}
LONGEST_VALUE = 80  # a longer text value (an inline sheet's JSON) is called "custom", not printed


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


def option_words(spec: OptionSpec, value: object) -> str:
    """One option's value as a phrase: "5 frames", "advanced", "Dice set: 3 dice with ...", "Advanced sheet: custom"."""
    if spec.name in ("frames", "pins") and isinstance(value, int):
        if spec.name == "frames":
            return ngettext("{count} frame", "{count} frames", value).format(count=value)
        return ngettext("{count} pin", "{count} pins", value).format(count=value)
    words = OPTION_WORDS.get((spec.name, value))
    if words is not None:
        return _(words)
    if isinstance(value, bool):
        return _("{option}: on").format(option=spec.title) if value else _("{option}: off").format(option=spec.title)
    described = getattr(spec.read(value), "words", None) if spec.reads_file else None
    if described is not None:  # a set of data in the player's words (a dice set's faces), not as typed
        return _("{option}: {value}").format(option=spec.title, value=described())
    text = str(value)
    if len(text) > LONGEST_VALUE:
        return _("{option}: custom").format(option=spec.title)
    return _("{option}: {value}").format(option=spec.title, value=visible(text))


def describe_variant(game_id: str, options: Mapping[str, object]) -> str:
    """A game and its options as one phrase for players: "Rolling Pins, advanced, shared dice, 5 frames".

    The game's name, then each option that differs from its default, in the game's order of
    options, in words (never an id or `key=value`). Options that change nothing under the
    others (a basic game's sheet, `Game.options_in_play`) are left out. `options` are what a
    new game takes (a missing one is at today's default; a stored record's, which may predate
    an option, are settled first: `records.settled_options`); an invalid one raises `OptionError`.
    """
    game = get_game(game_id, options)
    specs = {spec.name: spec for spec in game.option_specs}
    parts = [_(game.name)]
    for name, value in game.options_in_play().items():
        spec = specs[name]
        default = spec.default if isinstance(spec.default, bool | int | float | str) else str(spec.default)
        if value != default or type(value) is not type(default):
            parts.append(option_words(spec, value))
    return _(", ").join(parts)


def describe_played(game_id: str, options: Mapping[str, object]) -> str:
    """A stored game's game and options as `describe_variant` says them (the record's options settled
    first: an older record is the older rules); a record no game reads any more is called by its game's name."""
    from pinsetter.records import settled_options

    try:
        return describe_variant(game_id, settled_options(game_id, options))
    except (GameError, ValueError):
        return _(game_class(game_id).name) if game_id in all_games() else visible(game_id)
