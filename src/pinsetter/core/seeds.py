"""Seeded chance: every random draw of a game comes from (seed, step number, stream).

A match draws chance outcome number i from `step_rng(seed, i, CHANCE_STREAM)`,
so a resumed game continues exactly as it would have, and a record's chance
steps can be checked against its seed (a forged roll is refused).
"""

from __future__ import annotations

import random
from typing import Final

from pinsetter.i18n import _

__all__ = ["BOT_STREAM", "CHANCE_STREAM", "PLAYER_STREAM", "SEED_MAX", "check_seed", "step_rng"]

CHANCE_STREAM: Final = 0
BOT_STREAM: Final = 1
# A player's own chance while others decide at once (a Reroll with shared dice): stream 16 + the seat.
PLAYER_STREAM: Final = 16
# Seeds are stored as signed 64-bit integers in the history database.
SEED_MAX: Final = 2**63 - 1


def check_seed(seed: int) -> int:
    """`seed` if it is in 0..SEED_MAX; ValueError naming the range otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        raise ValueError(
            _("a seed is a whole number from 0 to {most}, not {seed}").format(most=SEED_MAX, seed=repr(seed))
        )
    return seed


def step_rng(seed: int, index: int, stream: int) -> random.Random:
    """The generator for step `index` (0-based) of a game with `seed` (independent per stream)."""
    return random.Random(hash((seed, index, stream)))
