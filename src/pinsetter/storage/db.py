"""The game database: every game with its full record, and per-player results for statistics.

SQLite in the user's data directory by default; `--db URL` or `PINSETTER_DB`
take any SQLAlchemy URL. The schema is versioned by Alembic migrations that run
on open, so an upgrade never loses data. Every write is one transaction.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from pinsetter.core.scoring import STANDARD, Lane, score
from pinsetter.records import Record

__all__ = ["Storage", "StoredGame", "default_url", "game_uid", "result_rows"]

ENV = "PINSETTER_DB"
MIGRATIONS = Path(__file__).parent / "migrations"

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
    sa.Column("created", sa.String(40), nullable=False),
    sa.Column("updated", sa.String(40), nullable=False),
    sa.Column("finished", sa.Boolean, nullable=False),
    sa.Column("steps", sa.Integer, nullable=False),
    sa.Column("record", sa.Text, nullable=False),
)
results = sa.Table(
    "results",
    metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("kind", sa.String(40), nullable=False),
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


def default_url() -> str:
    """`PINSETTER_DB`, or SQLite in the user's data directory."""
    if os.environ.get(ENV):
        return os.environ[ENV]
    from platformdirs import user_data_dir

    path = Path(user_data_dir("pinsetter")) / "games.sqlite"
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


def game_uid(record: Record) -> str:
    """A game's identity, stable while it grows: game, options, players, seed and start time."""
    ident = {
        "game": record.game,
        "options": record.options,
        "players": [[p.name, p.kind] for p in record.players],
        "seed": record.seed,
        "created": record.created,
    }
    return hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()


def result_rows(game_id: int, record: dict[str, Any]) -> list[dict[str, Any]]:
    """Per-player rows of a finished game's stated result (none for an unfinished game)."""
    result = record.get("result") or {}
    if not result.get("complete"):
        return []
    frames = int((record.get("options") or {}).get("frames", STANDARD.frames))
    lane = Lane(frames=frames)
    rows = []
    for seat, (player, stated) in enumerate(zip(record["players"], result.get("players") or [], strict=False)):
        sheet = score(stated["pinfalls"], lane)
        middle = sheet.frames[:-1]
        rows.append(
            {
                "game_id": game_id,
                "seat": seat,
                "name": player["name"],
                "kind": player.get("kind", "human"),
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
        }


class Storage:
    """One database. Opening it brings its schema up to date."""

    def __init__(self, url: str | None = None, revision: str = "head") -> None:
        self.url = url or default_url()
        self.engine = make_engine(self.url)
        self.upgrade(revision)

    def upgrade(self, revision: str = "head") -> None:
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, revision)

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        with self.engine.begin() as connection:
            yield connection

    # --- writing ----------------------------------------------------------------------
    def save(self, record: Record) -> int:
        """Insert or update a game (by its identity) in one transaction; returns its id."""
        uid = game_uid(record)
        data = record.to_json()
        now = datetime.now(UTC).isoformat(timespec="seconds")
        finished = bool((record.result or {}).get("complete"))
        values = {
            "game": record.game,
            "options": json.dumps(record.options, sort_keys=True),
            "players": json.dumps(data["players"]),
            "seed": record.seed,
            "created": record.created,
            "updated": now,
            "finished": finished,
            "steps": len(record.steps),
            "record": json.dumps(data),
        }
        for attempt in range(3):
            try:
                with self.transaction() as connection:
                    row = connection.execute(sa.select(games.c.id).where(games.c.uid == uid)).first()
                    if row is None:
                        inserted = connection.execute(games.insert().values(uid=uid, **values))
                        game_id = int(inserted.inserted_primary_key[0])  # type: ignore[index]
                    else:
                        game_id = int(row[0])
                        connection.execute(games.update().where(games.c.id == game_id).values(**values))
                    connection.execute(results.delete().where(results.c.game_id == game_id))
                    rows = result_rows(game_id, data)
                    if rows:
                        connection.execute(results.insert(), rows)
                    return game_id
            except sa.exc.IntegrityError:
                if attempt == 2:
                    raise  # another writer inserted the same game at the same moment: retry as an update
        raise AssertionError("unreachable")

    def contains(self, record: Record) -> StoredGame | None:
        with self.transaction() as connection:
            row = connection.execute(sa.select(games).where(games.c.uid == game_uid(record))).first()
        return _stored(row) if row else None

    def reset_stats(self, name: str) -> None:
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self.transaction() as connection:
            connection.execute(stats_since.delete().where(stats_since.c.name == name))
            connection.execute(stats_since.insert().values(name=name, since=now))

    # --- reading -----------------------------------------------------------------------
    def get(self, game_id: int) -> StoredGame | None:
        with self.transaction() as connection:
            row = connection.execute(sa.select(games).where(games.c.id == game_id)).first()
        return _stored(row) if row else None

    def history(self, game: str | None = None, player: str | None = None, limit: int | None = None) -> list[StoredGame]:
        """Games newest first, optionally of one game id and/or with one player."""
        query = sa.select(games).order_by(games.c.created.desc(), games.c.id.desc())
        if game:
            query = query.where(games.c.game == game)
        if player:  # a cheap SQL filter; the exact seat match is checked below
            query = query.where(games.c.players.contains(json.dumps(player)))
        with self.transaction() as connection:
            rows = connection.execute(query).fetchall()
        stored = [_stored(r) for r in rows]
        if player:
            stored = [g for g in stored if any(p.name == player for p in g.record.players)]
        return stored[:limit] if limit else stored

    def all_games(self) -> list[StoredGame]:
        with self.transaction() as connection:
            rows = connection.execute(sa.select(games).order_by(games.c.id)).fetchall()
        return [_stored(r) for r in rows]

    def results_for(self, player: str | None = None, game: str | None = None) -> list[dict[str, Any]]:
        """Finished results oldest first, after the player's statistics reset if any."""
        query = (
            sa.select(results, games.c.game, games.c.created)
            .join(games, games.c.id == results.c.game_id)
            .outerjoin(stats_since, stats_since.c.name == results.c.name)
            .where(sa.or_(stats_since.c.since.is_(None), games.c.created > stats_since.c.since))
            .order_by(games.c.created, games.c.id)
        )
        if player:
            query = query.where(results.c.name == player)
        if game:
            query = query.where(games.c.game == game)
        with self.transaction() as connection:
            return [dict(r._mapping) for r in connection.execute(query)]


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"timeout": 60})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=60000")
            cursor.close()

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
        record=Record.loads(m["record"]),
    )
