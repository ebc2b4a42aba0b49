"""Game engines, one module per game; importing this package registers them all."""

from pinsetter.games import bowling_dice, bowling_solitaire, rolling_pins, tenpins
from pinsetter.games.registry import GAMES, game_class, get_game

__all__ = ["GAMES", "bowling_dice", "bowling_solitaire", "game_class", "get_game", "rolling_pins", "tenpins"]
