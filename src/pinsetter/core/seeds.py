"""Seeded chance: every random draw of a game comes from (seed, step number, stream).

A match draws chance outcome number i from `step_rng(seed, i, CHANCE_STREAM)`,
so a resumed game continues exactly as it would have, and a record's chance
steps can be checked against its seed (a forged roll is refused).
"""

from __future__ import annotations

import _random
import random
from typing import Any, Final

__all__ = ["BOT_STREAM", "CHANCE_STREAM", "SEED_MAX", "check_seed", "lazy_step_rng", "step_rng"]

CHANCE_STREAM: Final = 0
BOT_STREAM: Final = 1
# Seeds are stored as signed 64-bit integers in the history database.
SEED_MAX: Final = 2**63 - 1


def check_seed(seed: int) -> int:
    """`seed` if it is in 0..SEED_MAX; ValueError naming the range otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        raise ValueError(f"a seed is a whole number from 0 to {SEED_MAX}, not {seed!r}")
    return seed


def step_rng(seed: int, index: int, stream: int) -> random.Random:
    """The generator for step `index` (0-based) of a game with `seed` (independent per stream).

    It is `random.Random(hash((seed, index, stream)))`, built without the Python-level
    `__init__` and `seed` wrappers, which add nothing for an integer seed (a game makes
    one per chance step).
    """
    rng = _new_random(random.Random)
    _seed_random(rng, hash((seed, index, stream)))
    rng.gauss_next = None
    return rng


_new_random = random.Random.__new__
_seed_random = _random.Random.seed


def lazy_step_rng(seed: int, index: int, stream: int) -> random.Random:
    """`step_rng(seed, index, stream)`, seeded only when first used.

    Seeding a Mersenne Twister costs a few microseconds, more than a whole decision of most
    bots; a bot that never draws (greedy, optimal, expectimax) should not pay for it. The
    generator draws exactly what `step_rng` draws.
    """
    return _LazyRandom(hash((seed, index, stream)))


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

    def __reduce__(self) -> tuple[Any, ...]:
        _LazyRandom._wake(self)
        return random.Random.__reduce__(self)

    def seed(self, a: Any = None, version: int = 2) -> None:
        if type(self) is _LazyRandom:
            self.__class__ = random.Random  # type: ignore[assignment]
            del self._value
        random.Random.seed(self, a, version)
