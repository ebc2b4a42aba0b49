"""The progress bar of `simulate` and `tournament` (issue 30, part 5): how far, and about how long is left.

The estimate is Rich's (the pace of the last half-minute); what is checked here is that it is shown
in words, in the current language, on every backend, and that the resumed part of a run is not
taken for speed.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.progress import Progress

import pinsetter.cli.progress
from pinsetter.cli.analysis_commands import run_plan
from pinsetter.cli.progress import TimeLeftColumn, clock
from pinsetter.experiments.tournament import tournament_plan
from pinsetter.i18n import using_language
from pinsetter.records import PlayerSpec
from pinsetter.simulate import simulation_plan


@pytest.mark.parametrize(("seconds", "shown"), [(0, "0:00"), (7.9, "0:07"), (750, "12:30"), (3900, "1:05:00")])
def test_clock(seconds: float, shown: str) -> None:
    assert clock(seconds) == shown


def fake_clock_bar() -> tuple[Progress, list[float]]:
    now = [0.0]
    return Progress(get_time=lambda: now[0], auto_refresh=False, disable=True), now


def test_the_time_left_is_said_in_words_once_the_run_has_a_pace() -> None:
    bar, now = fake_clock_bar()
    task_id = bar.add_task("tenpins: 1000 games", total=1000)
    task = bar.tasks[0]
    column = TimeLeftColumn()
    assert column.render(task).plain == "estimating the time left"
    for _ in range(3):  # 100 games every 2 s: 700 left at 50 a second
        now[0] += 2.0
        bar.advance(task_id, 100)
    assert column.render(task).plain == "about 0:14 left"
    with using_language("ja"):
        words = column.render(task).plain
    assert "0:14" in words and "left" not in words
    bar.advance(task_id, 700)
    assert column.render(task).plain == ""  # done: the bar goes


def test_the_chunks_a_resumed_run_had_played_are_not_taken_for_speed() -> None:
    bar, now = fake_clock_bar()
    task_id = bar.add_task("tenpins: 1000 games", total=1000)
    bar.advance(task_id, 500)  # found finished when the run resumes
    for _ in range(2):
        now[0] += 5.0
        bar.advance(task_id, 50)  # 10 games a second from here
    assert TimeLeftColumn().render(bar.tasks[0]).plain == "about 0:40 left"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def bars_shown(monkeypatch: pytest.MonkeyPatch, plan: Any, workers: int = 1, cluster: str | None = None) -> list[Any]:
    """The progress bars `run_plan` shows while it plays `plan` for a terminal."""
    made: list[Progress] = []
    real = pinsetter.cli.progress.progress_bar

    def recorded() -> Progress:
        made.append(real())
        return made[-1]

    monkeypatch.setattr(pinsetter.cli.progress, "progress_bar", recorded)
    monkeypatch.setattr(sys, "stderr", Terminal())
    rows = run_plan(plan, workers, cluster, None, None, quiet=False)
    assert len(rows) == plan.games
    return made


def bots(text: str) -> list[PlayerSpec]:
    return PlayerSpec.parse_list(text)


@pytest.fixture(autouse=True)
def no_history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PINSETTER_DB", str(tmp_path / "history.sqlite"))


@pytest.mark.parametrize(
    "plan",
    [
        simulation_plan("tenpins", {}, bots("bot:random"), 40, 1, 4),
        tournament_plan("bowling-dice", {}, bots("bot:random,bot:random"), 12, 1, 1, 3),
    ],
    ids=["simulate", "tournament"],
)
def test_simulate_and_tournament_show_the_time_left(monkeypatch: pytest.MonkeyPatch, plan: Any) -> None:
    (bar,) = bars_shown(monkeypatch, plan)
    assert any(isinstance(column, TimeLeftColumn) for column in bar.columns)
    assert bar.tasks[0].completed == bar.tasks[0].total == plan.games


def test_a_run_on_dask_shows_the_time_left(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed", reason="the [cluster] extra (Dask) is not installed")
    plan = simulation_plan("tenpins", {}, bots("bot:random"), 40, 1, 4)
    (bar,) = bars_shown(monkeypatch, plan, cluster="local:1")
    assert any(isinstance(column, TimeLeftColumn) for column in bar.columns)
    assert bar.tasks[0].completed == plan.games
