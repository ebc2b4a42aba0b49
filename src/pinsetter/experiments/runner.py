"""Play a plan's chunks on a backend, keep each finished chunk, and give the rows back in order."""

from __future__ import annotations

import time
from collections.abc import Callable

from pinsetter.experiments.backends import Backend
from pinsetter.experiments.plan import Plan, Row
from pinsetter.experiments.runs import StoredRun

__all__ = ["SAVE_SECONDS", "execute"]

# Finished chunks are written at most this often (one transaction for all of them; the first
# at once), and at the end or an interrupt: a run killed outright loses at most this much work.
SAVE_SECONDS = 1.0


def execute(
    plan: Plan,
    backend: Backend,
    run: StoredRun | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Row]:
    """Every row of `plan` in game order; chunks already in `run` are not played again.

    `progress` is told how many games (deals) each finished chunk held, the resumed
    ones first. The rows depend on the plan alone, never on the backend or the order
    in which the chunks finished.
    """
    done = run.finished_chunks() if run is not None else {}
    done = {index: rows for index, rows in done.items() if 0 <= index < plan.chunks}
    if progress is not None and done:
        progress(sum(len(rows) for rows in done.values()))
    pending = [index for index in range(plan.chunks) if index not in done]
    unsaved: dict[int, list[Row]] = {}
    last_save = -SAVE_SECONDS  # the first chunk to finish is saved at once
    try:
        for index, rows in backend.run(plan, pending) if pending else iter(()):
            done[index] = rows
            unsaved[index] = rows
            if run is not None and time.monotonic() - last_save >= SAVE_SECONDS:
                run.save_chunks(unsaved)
                unsaved, last_save = {}, time.monotonic()
            if progress is not None:
                progress(len(rows))
    finally:  # on an interrupt too: what finished is kept
        if run is not None:
            run.save_chunks(unsaved)
    if run is not None:
        run.finish()
    return [row for index in range(plan.chunks) for row in done[index]]
