"""Sets of pins as bit masks: bit i-1 stands for pin (or position) i, for engines and solvers alike."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["bit", "mask_of", "pins_of"]


def bit(pin: int) -> int:
    return 1 << (pin - 1)


def pins_of(mask: int) -> tuple[int, ...]:
    """The pins in a mask, in increasing order."""
    return tuple(i + 1 for i in range(mask.bit_length()) if mask >> i & 1)


def mask_of(pins: Iterable[int]) -> int:
    mask = 0
    for pin in pins:
        mask |= bit(pin)
    return mask
