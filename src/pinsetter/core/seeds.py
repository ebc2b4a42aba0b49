"""Seeded chance: every random draw of a game comes from its seed and where it falls.

Two draw schemes exist (a record's `draws` field, docs/records.md):

* `step` (records without the field): chance outcome number i is drawn from
  `step_rng(seed, *state.chance_key(i))`, that is (seed, i, CHANCE_STREAM) but for
  a player's own roll while others decide (its own stream). A game's dice then
  depend on how many decisions came before them, so two bots given one seed see
  different dice.
* `position` (new games): a chance outcome is drawn from `position_rng(seed, key)`
  where the key says where it falls in the game (player, frame, the n-th draw
  there; `pinsetter.core.draws`), so every bot given one seed sees the same dice
  for the same frame and roll and the same Solitaire deals.

Either way a resumed game continues exactly as it would have, and a record's
chance steps can be checked against its seed (a forged roll is refused).
Seeds are derived from Python's hash of tuples of ints, which is the same in
every process and on every 64-bit machine (only str/bytes hashes are salted).
"""

from __future__ import annotations

import random
from typing import Final, Literal

from pinsetter.i18n import _

__all__ = [
    "BOT_STREAM",
    "CHANCE_STREAM",
    "DRAW_SCHEMES",
    "PLAYER_STREAM",
    "POSITION_STREAM",
    "SEED_MAX",
    "DrawScheme",
    "check_seed",
    "position_rng",
    "step_rng",
]

CHANCE_STREAM: Final = 0
BOT_STREAM: Final = 1
# 2 is taken by the per-game seeds of a simulation (pinsetter.experiments.plan.game_seed).
POSITION_STREAM: Final = 3
# Step scheme: a player's own chance while others decide at once (a Reroll with shared dice):
# stream 16 + the seat (`State.chance_key`).
PLAYER_STREAM: Final = 16
# Seeds are stored as signed 64-bit integers in the history database.
SEED_MAX: Final = 2**63 - 1

DrawScheme = Literal["step", "position"]
DRAW_SCHEMES: Final[tuple[DrawScheme, ...]] = ("step", "position")


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


def position_rng(seed: int, key: tuple[int, ...]) -> random.Random:
    """The generator for the chance draw at `key` (whole numbers saying where it falls) of a game."""
    return random.Random(hash((seed, POSITION_STREAM, *key)))
