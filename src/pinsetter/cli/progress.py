"""The progress bar of a long run (`simulate`, `tournament`, the advanced solve): how far it is, and
about how long it has left, in words.

The estimate is Rich's: the pace of the last half-minute's advances, the first one left out (so the
chunks a resumed run finds already played do not count as speed). Every backend (one process,
`--workers`, a Dask `--cluster`) reports each chunk as it finishes, so the estimate is the same on
all of them. Imported by the commands that show a bar, when they show one (Rich's progress module
is not needed to start a command).
"""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, Progress, ProgressColumn, Task, TaskProgressColumn, TextColumn
from rich.text import Text

from pinsetter.i18n import _

__all__ = ["TimeLeftColumn", "clock", "progress_bar"]


def clock(seconds: float) -> str:
    """`0:07`, `12:30`, `1:05:00`: minutes and seconds, hours when there are any."""
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class TimeLeftColumn(ProgressColumn):
    """`about 1:20 left`, or `estimating the time left` until the run has a pace."""

    def render(self, task: Task) -> Text:
        if task.finished:
            return Text("")
        left = task.time_remaining
        if left is None:
            return Text(_("estimating the time left"), style="progress.remaining")
        return Text(_("about {time} left").format(time=clock(left)), style="progress.remaining")


def progress_bar() -> Progress:
    """A bar on stderr that goes when the run ends: what runs, the bar, the share done, the time left."""
    return Progress(
        TextColumn("{task.description}", style="progress.description", markup=False),
        BarColumn(),
        TaskProgressColumn(),
        TimeLeftColumn(),
        console=Console(stderr=True),
        transient=True,
    )
