"""A bot that picks uniformly among the legal actions: plays any game."""

from __future__ import annotations

import random

from pinsetter.bots.base import Bot, register_bot
from pinsetter.core.game import Game, State, Step


class RandomBot(Bot):
    name = "random"

    def choose(self, state: State, rng: random.Random) -> Step:
        return rng.choice(state.legal_actions())


@register_bot("random")
def _make(game: Game) -> Bot:
    return RandomBot(game)
