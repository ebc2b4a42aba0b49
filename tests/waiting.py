"""Waiting on a condition in a test, never on a fixed sleep (issue 32).

A loaded machine (two test workers, a browser, a CPU-heavy neighbour) can take
seconds for what usually takes milliseconds, so each wait polls a condition
under a ceiling far past any real wait; the ceiling is there so that a broken
condition fails instead of hanging, never as a measurement.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

CEILING = 30.0  # seconds


def until(check: Callable[[], Any], what: str, ceiling: float = CEILING) -> Any:
    """Poll `check()` until it gives something true, and return that."""
    end = time.monotonic() + ceiling
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > end:
            raise AssertionError(f"never saw {what}")
        time.sleep(0.02)


async def until_async(
    check: Callable[[], Any], what: str, ceiling: float = CEILING, between: Callable[[], Awaitable[Any]] | None = None
) -> Any:
    """`until` inside an event loop: `between()` (if given) runs before each look, e.g. to publish again."""
    end = time.monotonic() + ceiling
    while True:
        if between is not None:
            await between()
        found = check()
        if found:
            return found
        if time.monotonic() > end:
            raise AssertionError(f"never saw {what}")
        await asyncio.sleep(0.05)
