"""The game database: every game with its full record, and per-player results for statistics.

SQLite in the user's data directory by default; `--db` or `PINSETTER_DB` take a
SQLAlchemy URL or a plain file path (a SQLite file). The schema is versioned by
Alembic migrations that run on open, so an upgrade never loses data.

Concurrency and crashes: every write is one transaction (`BEGIN IMMEDIATE` on
SQLite, so a read-then-write never races another process). Migrations run in
one exclusive transaction with the revision re-checked inside it (SQLite:
`BEGIN IMMEDIATE` with the DDL inside, which SQLite makes transactional;
PostgreSQL: `pg_advisory_xact_lock`), so processes opening a new database at
once migrate it exactly once, and a process killed mid-migration leaves the
database as it was. The migrations are also idempotent, which repairs a schema
half made by older versions.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import PoolProxiedConnection
from sqlalchemy.sql.compiler import SQLCompiler

from pinsetter.core.game import GameError
from pinsetter.core.scoring import STANDARD, Lane, score
from pinsetter.i18n import _
from pinsetter.records import (
    MAX_RECORD_BYTES,
    MAX_STEPS,
    TABLE_MARK,
    PlayerDocument,
    Record,
    RecordError,
    StatedResult,
    StepDocument,
    game_played,
)
from pinsetter.usertext import visible

__all__ = [
    "Ending",
    "Guard",
    "LocationError",
    "Merge",
    "PreparedAppend",
    "Storage",
    "StorageError",
    "StoredGame",
    "default_url",
    "game_uid",
    "is_row_id",
    "normalise_url",
    "result_rows",
]

ENV = "PINSETTER_DB"
MIGRATIONS = Path(__file__).parent / "migrations"
# pg_advisory_xact_lock key for migrations: any constant, the same in every process.
MIGRATION_LOCK = 0x70696E7365747472  # "pinsettr"
CHECKED_PLAYERS = 4096  # games whose players save_if remembers as validated
ROW_ID_MAX = 2**63 - 1  # the largest id a row can have (SQLite's and PostgreSQL's 64-bit integers)
FREE_TEXT = 200  # games.created and results.kind: free text in a record, up to 200 characters

metadata = sa.MetaData()
games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("uid", sa.String(64), nullable=False, unique=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("players", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("created", sa.String(FREE_TEXT), nullable=False),
    sa.Column("updated", sa.String(40), nullable=False),
    sa.Column("finished", sa.Boolean, nullable=False),
    sa.Column("steps", sa.Integer, nullable=False),
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("chance", sa.String(16), nullable=False, server_default="seeded"),
)
results = sa.Table(
    "results",
    metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("kind", sa.String(FREE_TEXT), nullable=False),
    sa.Column("score", sa.Integer, nullable=False),
    sa.Column("strikes", sa.Integer, nullable=False),
    sa.Column("spares", sa.Integer, nullable=False),
    sa.Column("frames", sa.Integer, nullable=False),
)
stats_since = sa.Table(
    "stats_since",
    metadata,
    sa.Column("name", sa.String(80), primary_key=True),
    sa.Column("since", sa.String(40), nullable=False),
)


# The online tables' columns that deleting a game looks at (the table itself: storage/tables.py).
_online_tables = sa.table("tables", sa.column("game_id", sa.Integer), sa.column("status", sa.String))


class StorageError(Exception):
    """The history cannot be opened or used; the message is one line, fit for the user."""


class LocationError(StorageError):
    """The history's location itself is wrong (empty, not a database URL, not UTF-8, a folder).

    A user error for every command, where a history that merely cannot be opened now lets a
    game or a run go on with a warning.
    """


def one_line(exc: BaseException) -> str:
    """The gist of a driver or migration error, in one line (no SQL, no links)."""
    if isinstance(exc, sa.exc.StatementError) and exc.orig is not None:
        exc = exc.orig
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return visible(text)


def normalise_url(text: str, create: bool = True) -> str:
    """A SQLAlchemy URL as given; a value without `://` is a SQLite file path (its folder is made if `create`).

    LocationError (one line) for a location that can name no database; StorageError when the
    folder cannot be made.
    """
    text = text.strip()
    if not text:
        raise LocationError(_("the history location is empty (give a file path or a database URL)"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # undecodable bytes on the command line: no database can be named by them
        message = _("the history location {text} is not valid UTF-8")
        raise LocationError(message.format(text=repr(visible(text)))) from None
    if "://" in text:
        try:
            sa.make_url(text).get_dialect()
        except sa.exc.NoSuchModuleError:
            url = sa.make_url(text)
            message = _("{text}: no database kind {kind} (e.g. sqlite:///games.sqlite or postgresql://...)")
            shown = url.render_as_string(hide_password=True)
            raise LocationError(message.format(text=repr(visible(shown)), kind=repr(visible(url.drivername)))) from None
        except sa.exc.ArgumentError:
            message = _("{text} is not a database URL (e.g. sqlite:///games.sqlite)")
            raise LocationError(message.format(text=repr(visible(text)))) from None
        return text
    path = Path(text).expanduser()
    if path.is_dir():
        raise LocationError(_("{path} is a folder; give a file path for the history").format(path=visible(str(path))))
    if create:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            message = _("cannot create the folder {folder}: {error}")
            raise StorageError(message.format(folder=visible(str(path.parent)), error=exc.strerror)) from None
    return sa.URL.create("sqlite", database=str(path.resolve())).render_as_string(hide_password=False)


def default_url(create: bool = True) -> str:
    """`PINSETTER_DB` (a URL or a file path), or SQLite in the user's data directory."""
    if os.environ.get(ENV):
        return normalise_url(os.environ[ENV], create)
    from platformdirs import user_data_dir

    return normalise_url(str(Path(user_data_dir("pinsetter")) / "games.sqlite"), create)


def _missing_sqlite_file(url: str) -> bool:
    """Whether `url` names a SQLite file that does not exist (connecting would create it)."""
    parsed = sa.make_url(url)
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:" or database.startswith("file:"):
        return False
    return not Path(database).exists()


def game_uid(record: Record) -> str:
    """A game's identity, stable while it grows: game, options, players, seed and start time.

    A game played at an online table names its table too (`extra.table`): two tables may
    start the same game for the same names and seed in the same second.
    """
    ident: dict[str, Any] = {
        "game": record.game,
        "options": record.options,
        "players": [[p.name, p.kind] for p in record.players],
        "seed": record.seed,
        "created": record.created,
    }
    if TABLE_MARK in record.extra:
        ident["table"] = record.extra[TABLE_MARK]
    return hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()


def column_text(text: str, limit: int = FREE_TEXT) -> str:
    """Free text for a plain column: control characters spelled out (PostgreSQL refuses NUL), cut to fit.

    The record itself (games.record) keeps the original text.
    """
    return visible(text)[:limit]


def _lane_of(record: dict[str, Any]) -> Lane:
    """The lane a record's game was played on: its frames and its pins (a 4-pin rack strikes at 4)."""
    options = record.get("options") or {}
    try:
        return game_played(str(record.get("game")), options).lane
    except (GameError, ValueError):  # a game or option this version no longer knows: its frames at least
        return Lane(frames=int(options.get("frames", STANDARD.frames)))


def result_rows(game_id: int, record: dict[str, Any]) -> list[dict[str, Any]]:
    """Per-player rows of a finished game's stated result (none for an unfinished game)."""
    result = record.get("result") or {}
    if not result.get("complete"):
        return []
    lane = _lane_of(record)
    rows = []
    for seat, (player, stated) in enumerate(zip(record["players"], result.get("players") or [], strict=False)):
        sheet = score(stated["pinfalls"], lane)
        middle = sheet.frames[:-1]
        rows.append(
            {
                "game_id": game_id,
                "seat": seat,
                "name": player["name"],
                "kind": column_text(str(player.get("kind", "human"))),
                "score": sheet.total,
                "strikes": sum(1 for f in middle if f.marks[0] == "X"),
                "spares": sum(1 for f in middle if len(f.marks) > 1 and f.marks[1] == "/"),
                "frames": len(middle),
            }
        )
    return rows


@dataclass(frozen=True)
class StoredGame:
    id: int
    game: str
    created: str
    updated: str
    finished: bool
    steps: int
    record: Record
    chance: str = "seeded"  # "entered": the chance steps did not come from the seed

    def not_begun(self) -> bool:
        """Unfinished with no pin down and every player still in frame 1 (`0 in frame 1`): nothing to keep."""
        if self.finished:
            return False
        entries = (self.record.result or {}).get("players") or []
        return all(sum(e.get("pinfalls") or []) == 0 and len(e.get("pinfalls") or []) < 2 for e in entries)

    def summary(self) -> dict[str, Any]:
        result = self.record.result or {}
        scores = [p.get("total") for p in result.get("players") or []]
        names = [p.name for p in self.record.players]
        winner = None
        if self.finished and scores:
            top = max(s for s in scores if s is not None)
            leaders = [n for n, s in zip(names, scores, strict=False) if s == top]
            winner = leaders[0] if len(leaders) == 1 else "tie: " + ", ".join(leaders)
        return {
            "id": self.id,
            "date": self.created,
            "game": self.game,
            "options": self.record.options,
            "players": [{"name": p.name, "kind": p.kind} for p in self.record.players],
            "scores": scores,
            "winner": winner,
            "finished": self.finished,
            "chance": self.chance,
        }


@dataclass(frozen=True)
class Merge:
    """What `Storage.merge` did with a record."""

    outcome: Literal["imported", "updated", "duplicate", "conflict"]
    game_id: int
    reason: str = ""  # for a conflict: why the record was not stored, one line


# A further condition for `Storage.save_if`: a clause built once (it is the key of a cached
# statement) with bind parameters, and their values for this write.
Guard = tuple[sa.ColumnElement[bool], dict[str, Any]]
# Further writes, made in the transaction of an append that ends a game (its table finished, its ratings).
Ending = Callable[[Connection], None]


class Storage:
    """One database. Opening it brings its schema up to date (StorageError, one line, if it cannot)."""

    def __init__(self, url: str | None = None, revision: str = "head", read_only: bool = False) -> None:
        """`read_only`, for commands that only read: a SQLite file that does not exist is read as an
        empty history, and nothing is made for it (no folder, no file)."""
        self.url = normalise_url(url, not read_only) if url is not None else default_url(not read_only)
        if read_only and _missing_sqlite_file(self.url):
            self.url = "sqlite://"  # in memory: the schema and no games, nothing on disk
        self._appends: dict[int, sa.Update] = {}  # save_if's statements, by their further condition
        self._raw_appends: dict[int, SQLCompiler] = {}  # the same, compiled for this database
        self._players_checked: dict[int, str] = {}  # game -> its players' JSON as last validated here
        # Appends run one at a time, on one connection kept out of the pool (a checkout cost as much
        # as the write; the server batches its appends anyway). SQLite takes one writer at a time:
        # this process's appends queue here instead of in its busy handler, whose growing sleeps
        # (up to 100 ms each) made the slowest steps slow.
        self._append_guard = threading.Lock()
        self._append_connection: PoolProxiedConnection | None = None
        try:
            self.engine = make_engine(self.url)
        except (sa.exc.SQLAlchemyError, ImportError) as exc:
            raise StorageError(_("cannot use {url}: {error}").format(url=self.safe_url, error=one_line(exc))) from None
        try:
            self.upgrade(revision)
        except StorageError:
            self.engine.dispose()
            raise
        except Exception as exc:  # driver, file system or migration failure
            self.engine.dispose()
            raise StorageError(one_line(exc)) from None

    @property
    def safe_url(self) -> str:
        """The URL without its password, for messages."""
        try:
            return sa.make_url(self.url).render_as_string(hide_password=True)
        except sa.exc.ArgumentError:
            return "the history"

    # --- schema ------------------------------------------------------------------------
    def revision(self) -> str | None:
        """The database's schema revision (None for an empty database)."""
        from alembic.runtime.migration import MigrationContext

        with self.engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()

    def upgrade(self, revision: str = "head") -> None:
        """Migrate to `revision` once: an exclusive transaction, the revision re-checked inside it.

        A process killed part way leaves the database as it was (the DDL is in the transaction).
        """
        from alembic import command
        from alembic.config import Config
        from alembic.runtime.migration import MigrationContext
        from alembic.script import ScriptDirectory

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        script = ScriptDirectory.from_config(config)
        target = script.get_current_head() if revision == "head" else revision
        known = {s.revision for s in script.walk_revisions()}
        current = self.revision()  # the common case, without a lock: already up to date
        if current == target:
            return
        if current is not None and current not in known:
            message = _(
                "the history is at schema revision {current}, made by a newer pinsetter "
                "(this one knows up to {head}); upgrade pinsetter"
            )
            raise StorageError(message.format(current=current, head=script.get_current_head()))
        with self._exclusive() as connection:
            if MigrationContext.configure(connection).get_current_revision() == target:
                return  # another process migrated it while this one waited for the lock
            config.attributes["connection"] = connection
            command.upgrade(config, revision)

    @contextmanager
    def _exclusive(self) -> Iterator[Connection]:
        """One transaction that no other process's migration or write can interleave with."""
        dialect = self.engine.dialect.name
        with self.engine.connect() as connection:
            if dialect == "sqlite":
                connection = connection.execution_options(pinsetter_begin="EXCLUSIVE")
            with connection.begin():
                if dialect == "postgresql":
                    connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
                yield connection

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A write transaction (SQLite: `BEGIN IMMEDIATE`, so its reads and writes are not interleaved)."""
        with self.engine.connect() as connection:
            if self.engine.dialect.name == "sqlite":
                connection = connection.execution_options(pinsetter_begin="IMMEDIATE")
            with connection.begin():
                yield connection

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self.engine.begin() as connection:
            yield connection

    # --- writing ----------------------------------------------------------------------
    def save(self, record: Record) -> int:
        """Insert or replace a game (by its identity) in one transaction; returns its id.

        This is the game being played, so it is replaced even when shorter (an undo).
        """
        uid = game_uid(record)
        for attempt in range(3):
            try:
                with self.transaction() as connection:
                    row = connection.execute(sa.select(games.c.id).where(games.c.uid == uid)).first()
                    return self._write(connection, uid, record, None if row is None else int(row[0]))
            except sa.exc.IntegrityError:
                if attempt == 2:
                    raise  # another writer inserted the same game at the same moment: retry as an update
        raise AssertionError("unreachable")

    def save_if(self, record: Record, game_id: int, steps_before: int, also: Guard | None = None) -> bool:
        """Write a game that has grown from `steps_before` steps, unless another writer changed it first.

        A compare-and-set on the stored step count, in one UPDATE: two server processes
        acting on one online table can never both append a step (the loser re-reads and
        tries again), and a finished game never grows. `also` is a further condition of
        that UPDATE, with its parameters (e.g. `TableStore.unchanged`: the table the game
        is played at has not changed). Only what an append can change is validated and
        written (the new steps, the players (a seat handed to a bot), the result, the
        limits): the rest of the record was validated when it was first stored, and the
        step count proves the stored row is the one this record grew from.
        """
        return self.run_append(self.prepare_append(record, game_id, steps_before, also))

    def prepare_append(
        self,
        record: Record,
        game_id: int,
        steps_before: int,
        also: Guard | None = None,
        notify: tuple[str, str] | None = None,
        ending: Ending | None = None,
    ) -> PreparedAppend:
        """`save_if` up to the database: the record checked and encoded (StorageError if it cannot be kept).

        A server can do this part where it applied the step, and hand only `run_append` to a thread.
        `notify`: (channel, payload) of a PostgreSQL NOTIFY sent in the same transaction if the
        append is made (so the other server processes hear of it exactly when it is committed).
        `ending`: a statement run in the same transaction if the append is made and ends the game
        (`TableStore.finishing`: its table is marked finished with it, never one without the other).
        """
        text = record.to_text()
        player_data = [p.to_json() for p in record.players]
        players = json.dumps(player_data)
        try:
            known = self._players_checked.get(game_id) == players
            _check_append(record, text, steps_before, None if known else player_data)
        except RecordError as exc:
            raise StorageError(f"this game cannot be kept in the history: {exc}") from None
        if len(self._players_checked) >= CHECKED_PLAYERS:
            self._players_checked.clear()
        self._players_checked[game_id] = players
        clause, parameters = also if also is not None else (None, {})
        key = id(clause)
        statement = self._appends.get(key)
        if statement is None:
            statement = self._appends[key] = _append_statement(clause)
        finished = bool((record.result or {}).get("complete"))
        values = {
            **parameters,
            "append_id": game_id,
            "append_before": steps_before,
            "append_updated": datetime.now(UTC).isoformat(timespec="seconds"),
            "append_players": players,
            "append_finished": finished,
            "append_steps": len(record.steps),
            "append_record": text,
        }
        rows = result_rows(game_id, record.to_json()) if finished else []
        if self.engine.dialect.name != "postgresql":
            notify = None
        return PreparedAppend(key, statement, values, finished, rows, notify, ending if finished else None)

    def run_append(self, prepared: PreparedAppend) -> bool:
        """`save_if`'s write of a prepared append: whether the compare-and-set succeeded (then committed)."""
        return self.run_appends([prepared])[0]

    def run_appends(self, prepared: list[PreparedAppend]) -> list[bool]:
        """Several prepared appends (of different games), each its own compare-and-set: whether each was made.

        The appends that do not end a game share one transaction, so a server that queues
        its steps writes them with one commit (a group commit); an append that ends one
        also inserts its results, in a transaction of its own.
        """
        done: dict[int, bool] = {}
        plain = [(i, p) for i, p in enumerate(prepared) if not p.finished]
        if plain:
            made = self._append_raw([(*self._raw_statement(p), p.notify) for _, p in plain])
            done.update((i, ok) for (i, _), ok in zip(plain, made, strict=True))
        for i, p in enumerate(prepared):
            if p.finished:
                with self.transaction() as connection:
                    done[i] = connection.execute(p.statement, p.values).rowcount == 1
                    if done[i] and p.result_rows:
                        connection.execute(results.insert(), p.result_rows)
                    if done[i] and p.ending is not None:
                        p.ending(connection)
                    if done[i] and p.notify is not None:
                        connection.execute(sa.select(sa.func.pg_notify(*p.notify)))
        return [done[i] for i in range(len(prepared))]

    def _raw_statement(self, prepared: PreparedAppend) -> tuple[str, Any]:
        """An append's UPDATE for the driver (compiled once per kind of further condition) and its parameters."""
        compiled = self._raw_appends.get(prepared.key)
        if compiled is None:
            made = prepared.statement.compile(dialect=self.engine.dialect)
            assert isinstance(made, SQLCompiler)
            compiled = self._raw_appends[prepared.key] = made
        params = compiled.construct_params(prepared.values) or {}
        arguments: Any = tuple(params[name] for name in compiled.positiontup or ()) if compiled.positional else params
        return compiled.string, arguments

    def _append_raw(self, statements: list[tuple[str, Any, tuple[str, str] | None]]) -> list[bool]:
        """Appends' UPDATEs in one transaction on a DBAPI connection (SQLite: `BEGIN IMMEDIATE`).

        The same statements and transaction as through a SQLAlchemy Connection, without its
        per-transaction bookkeeping (most of a step's write).
        """
        with self._append_guard:
            if self._append_connection is None:
                self._append_connection = self.engine.raw_connection()
            try:
                return _append_on(self._append_connection, statements, sqlite=self.engine.dialect.name == "sqlite")
            except BaseException:
                self._append_connection.invalidate()  # a connection in an unknown state is not used again
                self._append_connection = None
                raise

    def steps_of(self, game_id: int) -> int | None:
        """How many steps the stored game has (None if there is no such game)."""
        if not is_row_id(game_id):
            return None
        with self._read() as connection:
            row = connection.execute(sa.select(games.c.steps).where(games.c.id == game_id)).first()
        return None if row is None else int(row[0])

    def merge(self, record: Record) -> Merge:
        """Store a record unless a different game is stored under its identity; atomic.

        New: imported. Stored, and this record extends its steps: updated. Stored with these
        steps or more: duplicate. Stored with steps this record does not extend: conflict,
        nothing changes. The check and the write are one transaction.
        """
        uid = game_uid(record)
        steps = [s.to_json() for s in record.steps]
        for attempt in range(3):
            try:
                with self.transaction() as connection:
                    query = sa.select(games.c.id, games.c.record).where(games.c.uid == uid).with_for_update()
                    row = connection.execute(query).first()
                    if row is None:
                        return Merge("imported", self._write(connection, uid, record, None))
                    game_id = int(row[0])
                    stored = json.loads(row[1])
                    old = list(stored.get("steps") or [])
                    if steps[: len(old)] == old:
                        if len(steps) > len(old) or (stored.get("result") is None and record.result is not None):
                            return Merge("updated", self._write(connection, uid, record, game_id))
                        return Merge("duplicate", game_id)
                    if old[: len(steps)] == steps:
                        return Merge("duplicate", game_id)  # an earlier moment of the stored game
                    part = next(i for i, (a, b) in enumerate(zip(old, steps, strict=False), start=1) if a != b)
                    message = _(
                        "stored game {id} has the same identity (game, options, players, seed, start) "
                        "but different steps from step {step}; it was not replaced"
                    )
                    return Merge("conflict", game_id, message.format(id=game_id, step=part))
            except sa.exc.IntegrityError:
                if attempt == 2:
                    raise  # another process inserted it first: decide again against its row
        raise AssertionError("unreachable")

    def _write(self, connection: Connection, uid: str, record: Record, game_id: int | None) -> int:
        data = record.to_json()
        text = json.dumps(data)
        try:  # never store what could not be read back: one such row would break every history listing
            Record.loads_stored(text)
        except RecordError as exc:
            raise StorageError(_("this game cannot be kept in the history: {error}").format(error=exc)) from None
        values = {
            "game": record.game,
            "options": json.dumps(record.options, sort_keys=True),
            "players": json.dumps(data["players"]),
            "seed": record.seed,
            "created": column_text(record.created),
            "updated": datetime.now(UTC).isoformat(timespec="seconds"),
            "finished": bool((record.result or {}).get("complete")),
            "steps": len(record.steps),
            "record": text,
            "chance": record.chance,
        }
        if game_id is None:
            inserted = connection.execute(games.insert().values(uid=uid, **values))
            game_id = int(inserted.inserted_primary_key[0])  # type: ignore[index]
        else:
            connection.execute(games.update().where(games.c.id == game_id).values(**values))
        connection.execute(results.delete().where(results.c.game_id == game_id))
        rows = result_rows(game_id, data)
        if rows:
            connection.execute(results.insert(), rows)
        return game_id

    def contains(self, record: Record) -> StoredGame | None:
        with self._read() as connection:
            row = connection.execute(sa.select(games).where(games.c.uid == game_uid(record))).first()
        return _stored(row) if row else None

    def reset_stats(self, name: str) -> None:
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self.transaction() as connection:
            connection.execute(stats_since.delete().where(stats_since.c.name == name))
            connection.execute(stats_since.insert().values(name=name, since=now))

    def delete(self, game_ids: list[int]) -> list[int]:
        """Remove games from the history with their results (their scores leave the statistics), in one
        transaction; returns the ids that were there. A game at an online table still open or being
        played is refused (StorageError), and then nothing is deleted: its players are still at it."""
        wanted = sorted({g for g in game_ids if is_row_id(g)})
        if not wanted:
            return []
        with self.transaction() as connection:
            live = connection.execute(
                sa.select(_online_tables.c.game_id)
                .where(_online_tables.c.game_id.in_(wanted), _online_tables.c.status.in_(("open", "playing")))
                .order_by(_online_tables.c.game_id)
            ).first()
            if live is not None:
                message = _("game {id} is being played at an online table; it can be deleted once the table is over")
                raise StorageError(message.format(id=live[0]))
            found = [int(r[0]) for r in connection.execute(sa.select(games.c.id).where(games.c.id.in_(wanted)))]
            connection.execute(results.delete().where(results.c.game_id.in_(found)))
            connection.execute(_online_tables.update().where(_online_tables.c.game_id.in_(found)).values(game_id=None))
            connection.execute(games.delete().where(games.c.id.in_(found)))
        return sorted(found)

    # --- reading -----------------------------------------------------------------------
    def get(self, game_id: int) -> StoredGame | None:
        if not is_row_id(game_id):
            return None  # no such game: the database's integers could not even hold the id
        with self._read() as connection:
            row = connection.execute(sa.select(games).where(games.c.id == game_id)).first()
        return _stored(row) if row else None

    def history(self, game: str | None = None, player: str | None = None, limit: int | None = None) -> list[StoredGame]:
        """Games newest first, optionally of one game id and/or with one player."""
        query = sa.select(games).order_by(games.c.created.desc(), games.c.id.desc())
        if game:
            query = query.where(games.c.game == game)
        if player:  # a cheap SQL filter; the exact seat match is checked below
            query = query.where(games.c.players.contains(json.dumps(player)))
        with self._read() as connection:
            rows = connection.execute(query).fetchall()
        stored = [_stored(r) for r in rows]
        if player:
            stored = [g for g in stored if any(p.name == player for p in g.record.players)]
        return stored[:limit] if limit else stored

    def all_games(self) -> list[StoredGame]:
        with self._read() as connection:
            rows = connection.execute(sa.select(games).order_by(games.c.id)).fetchall()
        return [_stored(r) for r in rows]

    def results_for(
        self, player: str | None = None, game: str | None = None, include_entered: bool = False
    ) -> list[dict[str, Any]]:
        """Finished results oldest first, after the player's statistics reset if any.

        Games whose chance was entered (not drawn from the seed) are left out unless asked for;
        each row carries its game's `chance`.
        """
        query = (
            sa.select(results, games.c.game, games.c.created, games.c.chance, games.c.options)
            .join(games, games.c.id == results.c.game_id)
            .outerjoin(stats_since, stats_since.c.name == results.c.name)
            .where(sa.or_(stats_since.c.since.is_(None), games.c.created > stats_since.c.since))
            .order_by(games.c.created, games.c.id)
        )
        if player:
            query = query.where(results.c.name == player)
        if game:
            query = query.where(games.c.game == game)
        if not include_entered:
            query = query.where(games.c.chance != "entered")
        with self._read() as connection:
            return [dict(r._mapping) for r in connection.execute(query)]


NOTIFY_PARAMETERS = "%(notify_channel)s, %(notify_payload)s"  # psycopg's named parameters


def _append_on(
    connection: PoolProxiedConnection, statements: list[tuple[str, Any, tuple[str, str] | None]], sqlite: bool
) -> list[bool]:
    """Run appends' UPDATEs (and each one's NOTIFY if it is made) in one transaction; whether each changed its row.

    Committed if any did. On PostgreSQL they are sent together (psycopg's pipeline mode):
    one round trip to the server for the whole batch instead of one per step.
    """
    try:
        if sqlite:
            cursor = connection.cursor()
            try:
                cursor.execute("BEGIN IMMEDIATE")
                done = []
                for sql, arguments, _notify in statements:
                    cursor.execute(sql, arguments)
                    done.append(cursor.rowcount == 1)
            finally:
                cursor.close()
        else:
            driver = connection.driver_connection
            with driver.pipeline():  # type: ignore[union-attr]
                cursors = [driver.execute(*_with_notify(*statement)) for statement in statements]  # type: ignore[union-attr]
            done = [c.rowcount == 1 for c in cursors]
        if any(done):
            connection.commit()
        else:
            connection.rollback()
    except BaseException:
        with suppress(Exception):
            connection.rollback()
        raise
    return done


def _with_notify(sql: str, arguments: Any, notify: tuple[str, str] | None) -> tuple[str, Any]:
    """PostgreSQL: the append's UPDATE, and its NOTIFY only if the UPDATE was made, as one statement."""
    if notify is None:
        return sql, arguments
    sql = f"WITH appended AS ({sql} RETURNING 1) SELECT pg_notify({NOTIFY_PARAMETERS}) FROM appended"
    return sql, {**arguments, "notify_channel": notify[0], "notify_payload": notify[1]}


def _append_statement(also: sa.ColumnElement[bool] | None) -> sa.Update:
    """`Storage.save_if`'s UPDATE, built once per kind of further condition (its values are parameters)."""
    where = [
        games.c.id == sa.bindparam("append_id"),
        games.c.steps == sa.bindparam("append_before"),
        games.c.finished == sa.false(),
    ]
    if also is not None:
        where.append(also)
    return (
        games.update()
        .where(*where)
        .values(
            updated=sa.bindparam("append_updated"),
            players=sa.bindparam("append_players"),
            finished=sa.bindparam("append_finished"),
            steps=sa.bindparam("append_steps"),
            record=sa.bindparam("append_record"),
        )
    )


def _check_append(record: Record, text: str, validated: int, players: list[dict[str, Any]] | None) -> None:
    """What `Record.loads` would refuse in `record` (as `text`) whose first `validated` steps were read back before.

    The new steps and the stated result go through the record format's own models; the
    limits on the whole record are checked here. RecordError like `Record.loads`.
    `players`: the players as JSON, None when they are the very ones validated before.
    """
    from pydantic import ValidationError

    from pinsetter.records import describe_validation_error

    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"a record is at most {MAX_RECORD_BYTES} bytes, this one is {len(text)}")
    steps = record.steps
    if len(steps) > MAX_STEPS:
        raise RecordError(f"steps: a record has at most {MAX_STEPS} steps")
    try:
        for player in players or []:  # a seat handed to a bot changes its entry
            PlayerDocument.model_validate(player)
        for index in range(validated, len(steps)):
            step = StepDocument.model_validate(steps[index].to_json())
            if step.actor != "chance" and step.actor >= len(record.players):
                raise RecordError(f"actor {step.actor!r} is neither 'chance' nor a player index", index + 1)
        if record.result is not None:
            StatedResult.model_validate(record.result)
    except ValidationError as exc:
        raise RecordError(describe_validation_error(exc)) from None


SQLITE_BUSY_SECONDS = 60  # how long a SQLite connection waits for another process's lock


def _use_wal(cursor: sqlite3.Cursor) -> None:
    """`PRAGMA journal_mode=WAL`, waiting for other processes as long as the busy timeout would.

    Switching a file to WAL reads its header, then writes it: SQLite refuses that upgrade at once,
    without its busy handler (a rule against deadlocks), while another connection holds the write
    lock, as when several processes open a brand-new database together. Once the file is in WAL
    mode (it stays so) the pragma changes nothing and takes no lock.
    """
    deadline = time.monotonic() + SQLITE_BUSY_SECONDS
    pause = 0.001
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY or time.monotonic() >= deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


def make_engine(url: str) -> Engine:
    if sa.make_url(url).get_backend_name() == "sqlite":
        engine = sa.create_engine(url, connect_args={"timeout": SQLITE_BUSY_SECONDS})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            # pysqlite's own BEGIN handling commits before DDL; transactions are begun below instead.
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_SECONDS * 1000}")
            _use_wal(cursor)
            # In WAL mode: a commit survives the process (a crash, a restart) without waiting for the
            # disk; only an operating-system crash or power loss can roll back the last commits, and
            # never corrupts the file. FULL waits for an fsync per commit, which caps an online
            # table server at a few hundred steps a second on an ordinary disk (docs/tables.md, Load).
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        @sa.event.listens_for(engine, "begin")
        def _begin(connection: Connection) -> None:
            mode = connection.get_execution_options().get("pinsetter_begin", "DEFERRED")
            connection.connection.driver_connection.execute(f"BEGIN {mode}")  # type: ignore[union-attr]

        return engine
    return sa.create_engine(url)


def _stored(row: sa.Row[Any]) -> StoredGame:
    m = row._mapping
    return StoredGame(
        id=m["id"],
        game=m["game"],
        created=m["created"],
        updated=m["updated"],
        finished=bool(m["finished"]),
        steps=m["steps"],
        record=Record.loads_stored(m["record"]),
        chance=m["chance"],
    )


@dataclass(frozen=True)
class PreparedAppend:
    """One `Storage.save_if` write, checked and encoded, ready to run."""

    key: int  # which further condition (`also`) the UPDATE has
    statement: sa.Update
    values: dict[str, Any]
    finished: bool  # the game ends with it: its results are inserted in the same transaction
    result_rows: list[dict[str, Any]]
    notify: tuple[str, str] | None = None  # PostgreSQL: a NOTIFY (channel, payload) sent if it is made
    ending: Ending | None = None  # a further write made with it when it ends the game (`prepare_append`)


def is_row_id(value: int) -> bool:
    """Whether a number can be a row's id: the ids users type are looked up only when the database can hold them."""
    return 1 <= value <= ROW_ID_MAX
