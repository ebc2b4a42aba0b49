"""Online tables in the history database: seats, their token hashes, the game being played.

A seat's token is never stored, only its SHA-256, so a copy of the database
does not let anyone act for a player. Every change is a compare-and-set on the
row's `version`, so two server processes can never both take one seat or both
start one table.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from pinsetter.storage.db import Ending, Guard, Storage, StoredGame, games, is_row_id, metadata

__all__ = ["CODE_ALPHABET", "LIVE", "Seat", "StoredTable", "TableStore", "copy_table", "game_status", "token_hash"]

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", sa.String(16), nullable=False, unique=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("seats", sa.Text, nullable=False),
    sa.Column("host_hash", sa.String(64), nullable=False),
    sa.Column("status", sa.String(12), nullable=False),
    sa.Column("game_id", sa.Integer, sa.ForeignKey(games.c.id, ondelete="SET NULL"), nullable=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("created", sa.String(40), nullable=False),
    sa.Column("settings", sa.Text, nullable=False, server_default="{}"),
)
UNCHANGED = sa.exists().where(
    tables.c.id == sa.bindparam("unchanged_id"), tables.c.version == sa.bindparam("unchanged_version")
)
FINISHING = (
    tables.update()
    .where(tables.c.id == sa.bindparam("finish_id"), tables.c.version == sa.bindparam("finish_version"))
    .values(status="finished", version=tables.c.version + 1)
)
# A table is open (seats being taken), playing, finished (its game ended) or closed (by its host;
# a game not over then is abandoned). Only an open or playing table keeps its game's seed secret.
LIVE = ("open", "playing")
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud and typed safely
CODE_LENGTH = 6


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    """An unguessable seat or host token (192 bits)."""
    return secrets.token_urlsafe(24)


@dataclass
class Seat:
    kind: str  # "human" or "bot:NAME"
    name: str | None = None  # taken by this name (humans), or the bot's name
    token_hash: str | None = None
    account: int | None = None  # the account that took the seat (a signed-in player), never shown

    @property
    def free(self) -> bool:
        return self.kind == "human" and self.token_hash is None


@dataclass
class StoredTable:
    id: int
    code: str
    game: str
    options: dict[str, Any]
    seed: int
    seats: list[Seat]
    host_hash: str
    status: str  # open, playing, finished, closed (LIVE)
    game_id: int | None
    version: int
    created: str = field(default="")
    # Fixed when the table is made: {"turn_seconds": N | "turn_hours": N, "fallback_bot": NAME, "rated": true,
    # "listed": true, "host": ACCOUNT NAME} (no timer, not listed, no host's name when absent).
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def turn_hours(self) -> int | None:
        """An asynchronous table's hours per decision: its deadlines count from the stored time of a step."""
        hours = self.settings.get("turn_hours")
        return hours if isinstance(hours, int) else None

    @property
    def turn_seconds(self) -> int | None:
        """Seconds per decision, with either timer (an asynchronous table's hours in seconds)."""
        seconds = self.settings.get("turn_seconds")
        if isinstance(seconds, int):
            return seconds
        hours = self.turn_hours
        return None if hours is None else hours * 3600

    @property
    def listed(self) -> bool:
        """Whether the host lets the table appear in the open tables (`GET /api/tables?open=true`)."""
        return self.settings.get("listed") is True

    @property
    def rated(self) -> bool:
        """Whether the game's end rates its signed-in players (set by the host; only they may sit)."""
        return self.settings.get("rated") is True

    @property
    def has_bots(self) -> bool:
        """Whether a bot plays a seat (from the start, or handed one during the game)."""
        return any(seat.kind != "human" for seat in self.seats)

    def seat_of(self, token: str | None) -> int | None:
        """The seat this token holds, or None (a spectator)."""
        if not token:
            return None
        wanted = token_hash(token)
        for index, seat in enumerate(self.seats):
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, wanted):
                return index
        return None

    def seat_of_account(self, account: int | None) -> int | None:
        """The human seat this account took (signed in), or None: its session plays it from any browser."""
        if account is None:
            return None
        return next((i for i, s in enumerate(self.seats) if s.account == account and s.kind == "human"), None)

    def is_host(self, token: str | None) -> bool:
        return bool(token) and secrets.compare_digest(self.host_hash, token_hash(token or ""))

    def public(self) -> dict[str, Any]:
        """What anyone may see: never a token or its hash."""
        from pinsetter.catalog import game_title

        return {
            "id": self.id,
            "join_code": self.code,
            "game": self.game,
            "options": self.options,
            "title": game_title(self.game, self.options),  # the game and its options in words
            "status": self.status,
            "game_id": self.game_id,
            "turn_seconds": self.turn_seconds,
            "turn_hours": self.turn_hours,
            "listed": self.listed,
            "fallback_bot": self.settings.get("fallback_bot"),
            "rated": self.rated,
            "seats": [{"seat": i, "kind": s.kind, "name": s.name, "free": s.free} for i, s in enumerate(self.seats)],
        }


class TableStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def create(
        self, game: str, options: dict[str, Any], seed: int, seats: list[Seat], settings: dict[str, Any] | None = None
    ) -> tuple[StoredTable, str]:
        """A new open table and its host token (returned once, stored only as a hash)."""
        host = new_token()
        now = datetime.now(UTC).isoformat(timespec="seconds")
        for _attempt in range(10):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                with self.storage.transaction() as connection:
                    inserted = connection.execute(
                        tables.insert().values(
                            code=code,
                            game=game,
                            options=json.dumps(options, sort_keys=True),
                            seed=seed,
                            seats=_seats_json(seats),
                            host_hash=token_hash(host),
                            status="open",
                            game_id=None,
                            version=0,
                            created=now,
                            settings=json.dumps(settings or {}, sort_keys=True),
                        )
                    )
                    table_id = int(inserted.inserted_primary_key[0])  # type: ignore[index]
                found = self.get(table_id)
                assert found is not None
                return found, host
            except sa.exc.IntegrityError:
                continue  # the code was taken: draw another
        raise RuntimeError("no free join code")

    def get(self, table_id: int) -> StoredTable | None:
        if not is_row_id(table_id):
            return None
        with self.storage.engine.begin() as connection:
            row = connection.execute(sa.select(tables).where(tables.c.id == table_id)).first()
        return _table(row) if row else None

    def by_code(self, code: str) -> StoredTable | None:
        with self.storage.engine.begin() as connection:
            row = connection.execute(sa.select(tables).where(tables.c.code == code.strip().upper())).first()
        return _table(row) if row else None

    def table_of_game(self, game_id: int) -> tuple[int, str] | None:
        """The table a game is played at, if any, and its status."""
        if not is_row_id(game_id):
            return None
        return self.tables_of_games([game_id]).get(game_id)

    def tables_of_games(self, game_ids: list[int]) -> dict[int, tuple[int, str]]:
        """The table each of these games is played at (those played at one), and its status: one query."""
        query = sa.select(tables.c.game_id, tables.c.id, tables.c.status).where(tables.c.game_id.in_(game_ids))
        with self.storage.engine.begin() as connection:
            return {int(row[0]): (int(row[1]), str(row[2])) for row in connection.execute(query)}

    def finishing(self, table: StoredTable, result: dict[str, Any] | None) -> Ending:
        """The writes that mark a playing table finished (and rate a rated one), to run with the step that
        ends its game.

        They follow the step's own condition that the table is unchanged (`unchanged`), in the same
        transaction: a table is finished exactly when its game is, and its version moves on; a rated
        table's players are rated exactly once, by whichever writer stored the last step.
        """
        values = {"finish_id": table.id, "finish_version": table.version}

        def finish(connection: Connection) -> None:
            connection.execute(FINISHING, values)
            if table.rated and result is not None:
                from pinsetter.storage.ratings import rate_table

                rate_table(connection, table, result)

        return finish

    def unchanged(self, table: StoredTable) -> Guard:
        """A condition for `Storage.save_if`: the table's row is still at the version `table` was read at.

        Lets a server act on a table row it keeps in memory: a step is written only if
        nobody (another process included) has changed the table since (a close, a seat
        handed to a bot), whatever the notifications between processes say.
        """
        return UNCHANGED, {"unchanged_id": table.id, "unchanged_version": table.version}

    def timed_and_playing(self) -> list[int]:
        """Tables being played with a turn timer and a game not over (their clocks start again with a server)."""
        return self._playing_where(
            sa.or_(tables.c.settings.like('%"turn_seconds"%'), tables.c.settings.like('%"turn_hours"%'))
        )

    def listed_open(self, limit: int) -> list[StoredTable]:
        """The open tables their hosts listed, newest first, at most `limit` (one query).

        A listed table is always open when read: the filter on the status comes first, so the
        settings of the few open tables are the only ones looked at.
        """
        query = (
            sa.select(tables)
            .where(tables.c.status == "open", tables.c.settings.like('%"listed": true%'))
            .order_by(tables.c.id.desc())
            .limit(limit)
        )
        with self.storage.engine.begin() as connection:
            found = [_table(row) for row in connection.execute(query)]
        return [table for table in found if table.listed]

    def played_by(self, account: int, limit: int) -> list[StoredTable]:
        """The tables being played where this account holds a seat, newest first, at most `limit`."""
        query = (
            sa.select(tables)
            .where(tables.c.status == "playing", tables.c.seats.like(f'%"account": {int(account)}%'))
            .order_by(tables.c.id.desc())
        )
        mine: list[StoredTable] = []
        with self.storage.engine.begin() as connection:
            for row in connection.execute(query):
                table = _table(row)
                if any(seat.account == account and seat.kind == "human" for seat in table.seats):
                    mine.append(table)
                    if len(mine) == limit:
                        break
        return mine

    def step_time(self, game_id: int) -> tuple[int, float] | None:
        """The stored game's step count and when its last step was stored (seconds since the epoch)."""
        query = sa.select(games.c.steps, games.c.updated).where(games.c.id == game_id)
        with self.storage.engine.begin() as connection:
            row = connection.execute(query).first()
        if row is None:
            return None
        return int(row[0]), datetime.fromisoformat(str(row[1])).timestamp()

    def bots_and_playing(self) -> list[int]:
        """Tables being played with a bot seat and a game not over (their bots may be due when a server starts)."""
        return self._playing_where(tables.c.seats.like('%"bot:%'))

    def _playing_where(self, condition: sa.ColumnElement[bool]) -> list[int]:
        """The tables being played, their game not over, that meet `condition`."""
        query = (
            sa.select(tables.c.id)
            .join(games, games.c.id == tables.c.game_id)
            .where(tables.c.status == "playing", condition, games.c.finished == sa.false())
        )
        with self.storage.engine.begin() as connection:
            return [int(row[0]) for row in connection.execute(query)]

    def stamps(self, table_ids: list[int]) -> dict[int, tuple[int, int | None]]:
        """Each table's (version, its game's steps; None before a game), as stored now: one query for all."""
        query = (
            sa.select(tables.c.id, tables.c.version, games.c.steps)
            .select_from(tables.outerjoin(games, games.c.id == tables.c.game_id))
            .where(tables.c.id.in_(table_ids))
        )
        with self.storage.engine.begin() as connection:
            rows = connection.execute(query).all()
        return {int(row[0]): (int(row[1]), None if row[2] is None else int(row[2])) for row in rows}

    def update(self, table: StoredTable) -> bool:
        """Write `table` if nobody changed it since it was read (its version); bumps the version."""
        with self.storage.transaction() as connection:
            done = connection.execute(
                tables.update()
                .where(tables.c.id == table.id, tables.c.version == table.version)
                .values(
                    seats=_seats_json(table.seats),
                    status=table.status,
                    game_id=table.game_id,
                    version=table.version + 1,
                )
            )
        if done.rowcount == 1:
            table.version += 1
            return True
        return False


def copy_table(table: StoredTable) -> StoredTable:
    """A copy that changes to the original (its seats, its options) do not reach."""
    return replace(
        table, options=dict(table.options), seats=[replace(seat) for seat in table.seats], settings=dict(table.settings)
    )


def _seats_json(seats: list[Seat]) -> str:
    return json.dumps([_seat_json(s) for s in seats])


def _seat_json(seat: Seat) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": seat.kind, "name": seat.name, "token_hash": seat.token_hash}
    if seat.account is not None:
        data["account"] = seat.account
    return data


def _table(row: sa.Row[Any]) -> StoredTable:
    m = row._mapping
    return StoredTable(
        id=int(m["id"]),
        code=m["code"],
        game=m["game"],
        options=json.loads(m["options"]),
        seed=int(m["seed"]),
        seats=[Seat(**s) for s in json.loads(m["seats"])],
        host_hash=m["host_hash"],
        status=m["status"],
        game_id=m["game_id"],
        version=int(m["version"]),
        created=m["created"],
        settings=json.loads(m["settings"] or "{}"),
    )


def game_status(game: StoredGame, table: tuple[int, str] | None) -> str:
    """What became of a game: finished; abandoned (its table was closed before the end); played at a
    table (`table`, not to be resumed anywhere else); or unfinished (to be resumed)."""
    if game.finished:
        return "finished"
    if table is None:
        return "unfinished"
    return "table" if table[1] in LIVE else "abandoned"
