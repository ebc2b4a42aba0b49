"""The games as every interface lists them: players, options with help texts and choices, bots,
and a game with its options as players read it (`describe_variant`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache, lru_cache
from pathlib import PurePath
from typing import Any

from pinsetter.bots.base import bot_description, bot_names, bot_title
from pinsetter.core.game import GameError, OptionError, OptionSpec
from pinsetter.games.registry import all_games, game_class, get_game
from pinsetter.i18n import N_, _, ngettext
from pinsetter.usertext import visible

__all__ = ["catalog", "describe_variant", "game_title", "option_words", "read_option_file"]

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
# An option given as data (a dice set, a sheet) is chosen by name: its default's name.
PRESET_NAMES: dict[str, str] = {"dice": N_("Standard dice"), "sheet": N_("Standard sheet")}
# Options that mean something only with several players (a form hides them for one).
MULTIPLAYER_ONLY = frozenset({"shared_dice"})
LONGEST_VALUE = 80  # a longer text value (an inline sheet's JSON) is called "custom", not printed


def _option_type(default: object) -> str:
    """How an interface asks for an option: a switch, a number or text (choices come separately)."""
    if isinstance(default, bool):
        return "bool"
    return "int" if isinstance(default, int) else "text"


def catalog() -> list[dict[str, Any]]:
    """One entry per registered game, sorted by id (`pinsetter games --json`, the web lobby).

    Each option has its label, help and choices (`choice_labels` in words), when it applies
    (`shown_when`: the switches it needs, e.g. the advanced game's; `multiplayer`), and for an
    option given as data, the `presets` a player picks by name (with the value in words).
    """
    return [
        {
            "id": gid,
            "name": _(cls.name),
            "summary": _(cls.summary),
            "players": [cls.min_players, cls.max_players],
            "players_text": cls.players_text(),
            "decisions": cls.has_decisions,
            "bots": bot_names(gid),
            "bot_info": [
                {"name": bot, "title": bot_title(bot), "description": bot_description(bot)} for bot in bot_names(gid)
            ],
            "options": [
                {
                    "name": o.name,
                    "label": o.title,
                    "default": o.default if isinstance(o.default, bool | int | str) else str(o.default),
                    "help": _(o.help),
                    "choices": list(o.choices),
                    "choice_labels": [_(OPTION_WORDS.get((o.name, c), c)) for c in o.choices],
                    "type": _option_type(o.default),
                    "shown_when": _needs(gid).get(o.name, {}),
                    "multiplayer": o.name in MULTIPLAYER_ONLY,
                    "presets": _presets(o),
                }
                for o in cls.option_specs
            ],
        }
        for gid, cls in all_games().items()
    ]


@cache
def _needs(game_id: str) -> dict[str, dict[str, bool]]:
    """The options that change nothing until a switch is flipped from its default (the advanced game's sheet).

    Read from the game itself (`Game.options_in_play`), so no form repeats which option needs which.
    """
    in_play = set(get_game(game_id).options_in_play())
    needs: dict[str, dict[str, bool]] = {}
    for spec in game_class(game_id).option_specs:
        if isinstance(spec.default, bool):
            flipped = get_game(game_id, {spec.name: not spec.default}).options_in_play()
            for name in set(flipped) - in_play:
                needs.setdefault(name, {})[spec.name] = not spec.default
    return needs


def _presets(spec: OptionSpec) -> list[dict[str, str]]:
    """An option given as data, chosen by name: its default (the standard dice), with the value in words."""
    if not spec.reads_file:
        return []
    label = _(PRESET_NAMES.get(spec.name, "default"))
    return [{"value": "default", "label": label, "words": _value_words(spec.default)}]


def _value_words(value: object) -> str:
    """What a data option's value says, in words (a dice set's faces), where it can say it."""
    words = getattr(value, "words", None)
    return str(words()) if callable(words) else ""


def read_option_file(game_id: str, name: str, raw: bytes, file_name: str) -> dict[str, str]:
    """A player's file for an option given as data (a dice set), checked: its inline value, a name, its words.

    The file is JSON, or TOML by its name's suffix, as on the command line; errors name the file.
    """
    from pinsetter.core.datafile import parse_data

    spec = next((o for o in game_class(game_id).option_specs if o.name == name and o.reads_file), None)
    if spec is None:
        raise OptionError(_("option {name}: not read from a file").format(name=name))
    where = PurePath(file_name).name or name
    data = parse_data(raw, "toml" if where.lower().endswith(".toml") else "json", where)
    text = json.dumps(data, separators=(",", ":"), default=str)
    try:
        value = spec.read(text)
    except OptionError as exc:
        raise OptionError(f"{where}: {exc}") from None
    return {"value": text, "label": visible(PurePath(where).stem or where), "words": _value_words(value)}


def option_words(spec: OptionSpec, value: object) -> str:
    """One option's value as a phrase: "5 frames", "advanced", "Dice set: X--PPP,...", "Advanced sheet: custom"."""
    if spec.name in ("frames", "pins") and isinstance(value, int):
        if spec.name == "frames":
            return ngettext("{count} frame", "{count} frames", value).format(count=value)
        return ngettext("{count} pin", "{count} pins", value).format(count=value)
    words = OPTION_WORDS.get((spec.name, value))
    if words is not None:
        return _(words)
    if isinstance(value, bool):
        return _("{option}: on").format(option=spec.title) if value else _("{option}: off").format(option=spec.title)
    text = str(value)
    if spec.reads_file:  # data (a dice set's faces) is not words: its faces counted, where it can say
        counted = getattr(spec.read(text), "faces_words", None)
        if callable(counted):
            return _("{option}: {value}").format(option=spec.title, value=counted())
        return _("{option}: custom").format(option=spec.title)
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


def game_title(game_id: str, record_options: Mapping[str, object]) -> str:
    """A stored game's heading (history, resume lists, tables): `describe_variant` of its options as played.

    A record's options may predate an option (`records.settled_options` fills in the older rules).
    Kept per language and options: a table's page asks for it with every step pushed.
    """
    from pinsetter.i18n import current_language

    key = json.dumps(dict(record_options), sort_keys=True, default=str)
    return _game_title(game_id, key, current_language())


@lru_cache(maxsize=256)
def _game_title(game_id: str, options_json: str, _language: str) -> str:
    from pinsetter.records import settled_options

    try:
        return describe_variant(game_id, settled_options(game_id, json.loads(options_json)))
    except (GameError, ValueError):  # an option this version does not read; or a game it does not know
        return _(game_class(game_id).name) if game_id in all_games() else visible(game_id)
