"""Sets of pins as bit masks: bit i-1 stands for pin (or position) i, for engines and solvers alike."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["bit", "mask_of", "pins_of"]


def bit(pin: int) -> int:
    return 1 << (pin - 1)


def _listed(mask: int) -> tuple[int, ...]:
    return tuple(i + 1 for i in range(mask.bit_length()) if mask >> i & 1)


# Every set of ten pins, listed once (engines and bots list them all the time).
_PINS_OF = tuple(_listed(mask) for mask in range(1 << 10))


def pins_of(mask: int) -> tuple[int, ...]:
    """The pins in a mask, in increasing order."""
    if 0 <= mask < 1024:
        return _PINS_OF[mask]
    return _listed(mask)


def mask_of(pins: Iterable[int]) -> int:
    mask = 0
    for pin in pins:
        mask |= 1 << (pin - 1)
    return mask
