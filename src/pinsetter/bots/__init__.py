"""Bots: clients of the game API that choose actions; `make_bot` imports a bot's module when it is first made."""

from pinsetter.bots.base import BOTS, Bot, bot_names, make_bot

__all__ = ["BOTS", "Bot", "bot_names", "make_bot"]
