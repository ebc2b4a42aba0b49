"""The history under real concurrent processes and kill -9 (issue 10): first opens, crashes, imports.

Every test here runs separate OS processes (multiprocessing with spawn, or subprocess);
nothing is timed: processes meet at a barrier, and a kill lands either at a chosen SQL
statement of the first open (every one in turn) or after a random delay.

The PostgreSQL variants use `PINSETTER_TEST_POSTGRES` (default: a local server) in a
fresh schema of their own; they are skipped when no server answers, unless `CI=true`.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
import sqlite3
import threading
import time
from multiprocessing.synchronize import Barrier, Event
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from pinsetter.records import PlayerSpec, Record
from pinsetter.session import Match
from pinsetter.storage import Storage
from pinsetter.storage.transfer import export_jsonl, import_records

# Real OS processes from a fork server that imported the heavy modules once (a clean process,
# not a fork of the test runner): each child starts in milliseconds, not seconds as with processes.
forkserver = multiprocessing.get_context("forkserver")
forkserver.set_forkserver_preload(
    ["pytest", "sqlalchemy", "alembic.command", "psycopg", "pinsetter.session", "pinsetter.storage.transfer"]
)


def finished(seed: int) -> Record:
    match = Match.new("tenpins", [PlayerSpec("ann", "random"), PlayerSpec("bob", "random")], seed=seed)
    match.run_bots()
    match.record.created = f"2026-02-01T00:{seed // 60 % 60:02d}:{seed % 60:02d}+00:00"
    return match.record


def head() -> str:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from pinsetter.storage.db import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return str(ScriptDirectory.from_config(config).get_current_head())


@pytest.fixture(params=["sqlite", "postgresql"])
def any_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "new" / "games.sqlite")  # a plain path: the folder is made on open
    return str(request.getfixturevalue("postgres"))


# --- six processes open a brand-new database at once --------------------------------------


def _open_and_save(url: str, barrier: Barrier, records: list[str]) -> None:
    barrier.wait()
    storage = Storage(url)
    for text in records:
        storage.save(Record.loads(text))


def test_processes_opening_a_new_database_at_once_all_succeed(any_url: str) -> None:
    workers = 6
    records = [[finished(10 * w + i).dumps() for i in range(2)] for w in range(workers)]
    barrier = forkserver.Barrier(workers)
    processes = [forkserver.Process(target=_open_and_save, args=(any_url, barrier, records[w])) for w in range(workers)]
    for p in processes:
        p.start()
    for p in processes:
        p.join(120)
    assert [p.exitcode for p in processes] == [0] * workers
    storage = Storage(any_url)
    assert storage.revision() == head()
    stored = sorted(g.record.seed for g in storage.all_games())
    assert stored == sorted(10 * w + i for w in range(workers) for i in range(2))
    assert len(storage.results_for("ann")) == 2 * workers


def test_opening_a_new_database_waits_for_another_writer_instead_of_failing(tmp_path: Path) -> None:
    """Switching a new file to WAL upgrades a read to a write, which SQLite refuses at once (no busy
    handler) while another connection holds the write lock: the open must wait, as any write does.
    Six processes opening a new database together failed this way about once in thirty runs."""
    path = tmp_path / "games.sqlite"
    blocker = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    blocker.execute("BEGIN IMMEDIATE")  # another process's write lock on the still empty file
    failures: list[BaseException] = []
    opened: list[Storage] = []

    def open_it() -> None:
        try:
            opened.append(Storage(str(path)))
        except BaseException as exc:  # reported below
            failures.append(exc)

    opener = threading.Thread(target=open_it)
    opener.start()
    opener.join(1.0)
    assert failures == [] and opened == [], "the open ended while another connection held the write lock"
    blocker.execute("COMMIT")
    blocker.close()
    opener.join(60)
    assert failures == []
    assert opened[0].revision() == head()
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone() == ("wal",)


# --- kill -9 during the first open ----------------------------------------------------------


def _first_open(path: str, kill_at: int, ready: Event, counted: Any) -> None:
    """Open a brand-new database; SIGKILL this process right after its `kill_at`-th SQL statement.

    With kill_at=0 it only counts the statements of a whole first open and reports the count.
    """
    count = 0

    def after(*_args: object) -> None:
        nonlocal count
        count += 1
        if count == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    sa.event.listen(sa.engine.Engine, "after_cursor_execute", after)
    ready.set()
    Storage(path)
    counted.put(count)


def _usable(path: Path) -> None:
    """A later open works, the schema is whole, and a game can be stored and read back."""
    storage = Storage(str(path))
    assert storage.revision() == head()
    storage.save(finished(1))
    assert [g.record.seed for g in storage.all_games()] == [1]
    assert len(storage.results_for("ann")) == 1
    with storage.transaction() as connection:
        assert connection.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
    storage.engine.dispose()


def test_a_kill_at_any_statement_of_the_first_open_leaves_a_usable_database(tmp_path: Path) -> None:
    # (The queue and event stay referenced here: a child unpickles them after start() returns.)
    counted, ready = forkserver.Queue(), forkserver.Event()
    counter = forkserver.Process(target=_first_open, args=(str(tmp_path / "count.sqlite"), 0, ready, counted))
    counter.start()
    statements = counted.get(timeout=120)
    counter.join(120)
    assert statements > 5
    # Kill points over the whole open: connect pragmas, BEGIN, every CREATE, the stamp, COMMIT.
    points = sorted({*range(1, statements + 1, 3), statements})
    children = {
        k: forkserver.Process(target=_first_open, args=(str(tmp_path / f"k{k}.sqlite"), k, ready, counted))
        for k in points
    }
    for child in children.values():
        child.start()
    for k, child in children.items():
        child.join(120)
        assert child.exitcode == -signal.SIGKILL, f"statement {k} of {statements}"
    for k in points:
        _usable(tmp_path / f"k{k}.sqlite")


def test_a_kill_after_a_random_delay_in_the_first_open_leaves_a_usable_database(tmp_path: Path) -> None:
    rng = random.Random(10)
    counted = forkserver.Queue()
    for n in range(6):
        ready = forkserver.Event()
        child = forkserver.Process(target=_first_open, args=(str(tmp_path / f"r{n}.sqlite"), -1, ready, counted))
        child.start()
        assert ready.wait(120)
        time.sleep(rng.uniform(0.0, 0.25))  # not an assertion: only where the kill lands varies
        child.kill()  # SIGKILL; nothing happens if the open already finished
        child.join(120)
        _usable(tmp_path / f"r{n}.sqlite")


# --- two processes import the same file at once ---------------------------------------------


def _import(url: str, data: str, barrier: Barrier, queue: Any) -> None:
    storage = Storage(url)
    barrier.wait()
    report = import_records(storage, data)
    queue.put(
        {
            "imported": report.imported,
            "updated": report.updated,
            "duplicates": report.duplicates,
            "rejected": report.rejected,
            "conflicts": report.conflicts,
        }
    )


def test_concurrent_imports_count_each_game_once(any_url: str, tmp_path: Path) -> None:
    source = Storage(str(tmp_path / "source.sqlite"))
    for seed in range(8):
        source.save(finished(seed))
    data = export_jsonl(source)
    Storage(any_url)  # the schema exists; what races is the import itself
    barrier, queue = forkserver.Barrier(2), forkserver.Queue()
    processes = [forkserver.Process(target=_import, args=(any_url, data, barrier, queue)) for _ in range(2)]
    for p in processes:
        p.start()
    reports = [queue.get(timeout=120) for _ in processes]
    for p in processes:
        p.join(120)
    assert [p.exitcode for p in processes] == [0, 0]
    assert sum(r["imported"] for r in reports) == 8
    assert sum(r["duplicates"] for r in reports) == 8
    assert all(r["updated"] == 0 and not r["rejected"] and not r["conflicts"] for r in reports)
    target = Storage(any_url)
    assert sorted(g.record.seed for g in target.all_games()) == list(range(8))
    assert json.loads(export_jsonl(target).splitlines()[0])["format"] == "pinsetter-record"


# --- PostgreSQL enforces what SQLite does not -------------------------------------------------


def test_save_never_crashes_on_a_record_that_replays_on_postgresql(postgres: str) -> None:
    from test_storage import extreme_records

    storage = Storage(postgres)
    for record in extreme_records():
        stored = storage.get(storage.save(record))
        assert stored is not None and stored.record.to_json() == record.to_json()
    assert len(storage.results_for(include_entered=True)) == 4
    storage.engine.dispose()
