"""Frozen dataclasses made without their `__init__`, where many values known to be good are made at once.

A frozen dataclass's `__init__` sets each field through `object.__setattr__` (and runs any
`__post_init__` checks): three times the cost of writing the fields straight into the new
instance, which is what `unchecked` does. The instance is the same value, equal and hashed alike.
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["unchecked"]

T = TypeVar("T")


def unchecked(cls: type[T], **fields: object) -> T:
    """An instance of the frozen dataclass `cls` with these fields (all of them), no `__post_init__` run."""
    value = object.__new__(cls)
    value.__dict__.update(fields)
    return value
