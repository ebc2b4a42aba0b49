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

import _random
import random
from typing import Any, Final, Literal

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
    "lazy_step_rng",
    "position_rng",
    "spare_rng",
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


def step_rng(seed: int, index: int, stream: int, into: random.Random | None = None) -> random.Random:
    """The generator for step `index` (0-based) of a game with `seed` (independent per stream).

    It is `random.Random(hash((seed, index, stream)))`, built without the Python-level
    `__init__` and `seed` wrappers, which add nothing for an integer seed (a game makes
    one per chance step). `into`: see `_seeded`.
    """
    return _seeded(hash((seed, index, stream)), into)


def _seeded(value: int, into: random.Random | None = None) -> random.Random:
    """`random.Random(value)` for an integer `value` (same state), without the Python-level wrappers.

    `into`, a plain generator its owner is done with (`spare_rng`), is seeded again and returned
    instead of a new one: seeding sets the whole state, and a `random.Random` is a 2.5 kB object
    zeroed when made and freed after its one draw, which cost a tenth as much as its seeding.
    """
    rng = _new_random(random.Random) if into is None else into
    _seed_random(rng, value)
    rng.gauss_next = None  # type: ignore[attr-defined]
    return rng


def spare_rng() -> random.Random:
    """An unseeded generator to pass as `into` (`position_rng`, `step_rng`): seeded there before any draw."""
    return _new_random(random.Random)


_new_random = random.Random.__new__
_seed_random = _random.Random.seed


def lazy_step_rng(seed: int, index: int, stream: int, spare: random.Random | None = None) -> random.Random:
    """`step_rng(seed, index, stream)`, seeded only when first used.

    Seeding a Mersenne Twister costs a few microseconds, more than a whole decision of most
    bots; a bot that never draws (greedy, optimal, expectimax) should not pay for it. The
    generator draws exactly what `step_rng` draws.

    `spare`, a generator made here earlier and no longer used by anyone, is made this one if it
    was never drawn from (it holds no state yet): a simulation's bots then share one object
    instead of making one a step.
    """
    value = hash((seed, index, stream))
    if type(spare) is _LazyRandom:
        spare._value = value
        return spare
    return _LazyRandom(value)


class _LazyRandom(random.Random):
    """A `random.Random(value)` whose seeding waits for the first draw, then becomes that generator.

    Every draw of `random.Random` goes through `random()` or `getrandbits()`; both, and the
    state methods, seed first and turn the object into a plain `random.Random` (same state as
    `random.Random(value)`), so later draws run at full speed.
    """

    def __init__(self, value: int) -> None:  # deliberately no seeding here
        self._value = value
        self.gauss_next = None

    def _wake(self) -> None:
        """Seed now, and be a plain `random.Random` from here on (a no-op once awake)."""
        if type(self) is _LazyRandom:
            self.__class__ = random.Random  # type: ignore[assignment]
            random.Random.seed(self, self.__dict__.pop("_value"))

    # Callers may hold these bound methods (`choices` does) past the wake: they stay correct.
    def random(self) -> float:
        _LazyRandom._wake(self)
        return random.Random.random(self)

    def getrandbits(self, k: int, /) -> int:
        _LazyRandom._wake(self)
        return random.Random.getrandbits(self, k)

    def getstate(self) -> tuple[Any, ...]:
        _LazyRandom._wake(self)
        return random.Random.getstate(self)

    def setstate(self, state: tuple[Any, ...]) -> None:
        _LazyRandom._wake(self)
        random.Random.setstate(self, state)

    def __reduce__(self) -> str | tuple[Any, ...]:
        _LazyRandom._wake(self)
        return random.Random.__reduce__(self)

    def seed(self, a: Any = None, version: int = 2) -> None:
        if type(self) is _LazyRandom:
            self.__class__ = random.Random  # type: ignore[assignment]
            del self._value
        random.Random.seed(self, a, version)


def position_rng(seed: int, key: tuple[int, ...], into: random.Random | None = None) -> random.Random:
    """The generator for the chance draw at `key` (whole numbers saying where it falls) of a game.

    `random.Random(hash((seed, POSITION_STREAM, *key)))`, made as `step_rng` makes its own: every
    chance step of a game needs one (`into`: see `_seeded`).
    """
    return _seeded(hash((seed, POSITION_STREAM, *key)), into)
