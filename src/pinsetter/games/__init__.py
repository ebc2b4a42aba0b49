"""Game engines, one module per game; the registry imports a game's module when it is first looked up."""

from pinsetter.games.registry import GAMES, all_games, game_class, get_game

__all__ = ["GAMES", "all_games", "game_class", "get_game"]
