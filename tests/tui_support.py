"""Waiting for a Textual screen to be ready: conditions, never a fixed sleep.

A golden or an assertion may read the screen only when the app has nothing left
to do: every message handled, no worker running, no animation scheduled, no
layout, scroll or repaint pending, no callback waiting for the next refresh, and
no automatic step or hint the screen itself has scheduled. A fixed pause (or "the
same screenshot twice, 50 ms apart") only guesses at that: on a loaded machine the
refresh timer can miss both looks, and the screenshot is then an old frame
(issue 32: the Japanese golden at 120x40 caught the log before it scrolled).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

SIZES = [(60, 20), (80, 24), (120, 40), (200, 60)]  # the terminal sizes every screen is checked at


def size_id(size: tuple[int, int]) -> str:
    """A size's test id: "80x24"."""
    return f"{size[0]}x{size[1]}"


SETTLE_TIMEOUT = 300.0  # seconds: far past any real wait (a whole bots-only game under load), so a hang fails


def pending_work(app: Any, workers: bool = True) -> list[str]:
    """What the app still has to do before its screen is final (empty when ready).

    `workers=False` leaves running workers out: for a test that holds a worker back on purpose.
    """
    screen = app.screen
    pending = [
        flag
        for flag in ("_layout_required", "_scroll_required", "_repaint_required", "_recompose_required")
        if getattr(screen, flag, False)
    ]
    if screen._dirty_widgets:
        pending.append("dirty widgets")
    if screen._callbacks:
        pending.append("callbacks after refresh")
    if workers and any(worker.is_running for worker in app.workers):
        pending.append("a worker")
    if getattr(screen, "tick_pending", False):
        pending.append("an automatic step")  # GameScreen's timer for the next bot or chance step
    for node in [app, *screen.walk_children(with_self=True)]:
        if node._message_queue.qsize():
            pending.append(f"messages for {type(node).__name__}")
            break
    return pending


async def quiet(pilot: Any, timeout: float = SETTLE_TIMEOUT, workers: bool = True) -> None:
    """Wait until `pending_work` is empty twice in a row, each after every queued message was handled."""
    app = pilot.app
    deadline = time.monotonic() + timeout
    calm = 0
    while calm < 2:
        await pilot.pause(0)  # every message queued so far is handled (Textual's own wait), then one loop turn
        if workers:
            await app.workers.wait_for_complete()
        await pilot.wait_for_scheduled_animations()
        pending = pending_work(app, workers)
        if pending:
            calm = 0
            if time.monotonic() > deadline:
                raise AssertionError(f"the screen never settled: {', '.join(pending)}")
            await asyncio.sleep(0.005)  # let the refresh timer run
        else:
            calm += 1
    return None


async def until(pilot: Any, condition: Callable[[], object], what: str = "", timeout: float = SETTLE_TIMEOUT) -> None:
    """Wait until `condition()` holds on a quiet screen (it is checked only once the app has settled)."""
    deadline = time.monotonic() + timeout
    while True:
        await quiet(pilot, timeout)
        if condition():
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}")
        await asyncio.sleep(0.01)
