"""Bots: clients of the game API that choose actions; importing registers them all."""

from pinsetter.bots import random_bot, rolling_pins, solitaire
from pinsetter.bots.base import BOTS, Bot, bot_names, make_bot

__all__ = ["BOTS", "Bot", "bot_names", "make_bot", "random_bot", "rolling_pins", "solitaire"]
