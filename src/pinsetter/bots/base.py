"""The one interface every bot shares, and the registry of bots by name."""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection

from pinsetter.core.game import Game, OptionError, State, Step
from pinsetter.i18n import N_, _

__all__ = ["BOTS", "Bot", "OptionValue", "make_bot", "register_bot"]

OptionValue = tuple[Step, float]


class Bot(ABC):
    """Chooses actions for one player from what that player may see.

    Bots are given the state, which never holds hidden information (face-down
    cards are drawn only when revealed), so a bot cannot peek.
    """

    name: str = "bot"
    value_label: str = N_("value")  # what `evaluate` values mean, for hints

    def __init__(self, game: Game) -> None:
        self.game = game

    @abstractmethod
    def choose(self, state: State, rng: random.Random) -> Step:
        """An action for the player to move in `state`."""

    def evaluate(self, state: State) -> list[OptionValue] | None:
        """Every legal action with its value, best first, where the bot can say."""
        return None


BotFactory = Callable[[Game], Bot]
# (bot name, game id or "*") -> factory
BOTS: dict[tuple[str, str], BotFactory] = {}
# Where each bot is defined: its module registers the factory when imported (`register_bot`).
# Listing the bots imports none; making one imports its module only (start-up time: `pinsetter
# games` needs no solver, a Rolling Pins hint no Solitaire search). tests/test_cli_startup.py
# checks it against the bots the modules register.
BOT_MODULES: dict[tuple[str, str], str] = {
    ("random", "*"): "pinsetter.bots.random_bot",
    ("greedy", "rolling-pins"): "pinsetter.bots.rolling_pins",
    ("optimal", "rolling-pins"): "pinsetter.bots.rolling_pins",
    ("win", "rolling-pins"): "pinsetter.bots.rolling_pins_win",
    ("greedy", "bowling-solitaire"): "pinsetter.bots.solitaire",
    ("expectimax", "bowling-solitaire"): "pinsetter.bots.solitaire",
}


def register_bot(name: str, game_id: str = "*") -> Callable[[BotFactory], BotFactory]:
    def decorate(factory: BotFactory) -> BotFactory:
        BOTS[(name, game_id)] = factory
        return factory

    return decorate


# Bots as players see them: a name like a player's, and what it does in a line (the algorithm is said there only).
BOT_TITLES = {
    "random": N_("Rookie bot"),
    "greedy": N_("Greedy bot"),
    "optimal": N_("Optimal bot"),
    "expectimax": N_("Expert bot"),
    "win": N_("Winning bot"),
}
BOT_DESCRIPTIONS = {
    "random": N_("plays any legal move, at random"),
    "greedy": N_("takes whatever scores most right now"),
    "optimal": N_("plays perfectly: the exact solution of the game (it maximises the expected final score)"),
    "expectimax": N_("plans each frame over every order the unseen cards can come in (expectimax search)"),
    "win": N_("plays to finish ahead of its opponents rather than for the highest expected score"),
}


def bot_title(kind: str) -> str:
    """A bot's name as a player reads it: `Optimal bot` (a bot this table does not know keeps its kind)."""
    return _(BOT_TITLES[kind]) if kind in BOT_TITLES else kind


def bot_description(kind: str) -> str:
    return _(BOT_DESCRIPTIONS[kind]) if kind in BOT_DESCRIPTIONS else ""


def bot_seat_name(kind: str, taken: Collection[str]) -> str:
    """A new bot seat's name, told apart from the names taken: `Greedy bot`, then `Greedy bot 2`."""
    from pinsetter.usertext import name_key

    title = bot_title(kind)
    name, number, keys = title, 2, {name_key(t) for t in taken}
    while name_key(name) in keys:  # told apart as names are compared (case, width, variation selectors)
        name = _("{bot} {number}").format(bot=title, number=number)
        number += 1
    return name


def bot_names(game_id: str) -> list[str]:
    return sorted({name for name, gid in BOT_MODULES.keys() | BOTS.keys() if gid in (game_id, "*")})


def make_bot(name: str, game: Game) -> Bot:
    """The bot called `name` for `game` (a game's own bot wins over a generic one)."""
    for key in ((name, game.id), (name, "*")):
        if key not in BOTS and key in BOT_MODULES:
            importlib.import_module(BOT_MODULES[key])
        if key in BOTS:
            return BOTS[key](game)
    known = ", ".join(bot_names(game.id))
    raise OptionError(_("no bot {name} for {game} (bots: {known})").format(name=repr(name), game=game.id, known=known))
