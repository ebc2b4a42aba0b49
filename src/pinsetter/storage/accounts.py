"""Accounts in the history database: names, argon2 password hashes, sign-in sessions (docs/accounts.md).

A password is hashed with argon2id (argon2-cffi's defaults, RFC 9106's second
recommended set) and never stored, logged or returned; a session is a random
token of 256 bits kept by the browser in a cookie and stored here only as its
SHA-256, so a copy of the database signs nobody in. Deleting an account
removes its name from every stored game (it becomes "deleted player"), with
the records still verifying.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.engine import Connection

from pinsetter.records import Record
from pinsetter.storage.db import Storage, game_uid, games, metadata, results, stats_since
from pinsetter.storage.tables import LIVE, tables, token_hash
from pinsetter.usertext import name_key, name_problem

__all__ = [
    "ABSENT",
    "DELETED_PLAYER",
    "SESSION_DAYS",
    "Account",
    "AccountStore",
    "NameTaken",
    "SeatedAtLiveTable",
    "is_kept_name",
]

DELETED_PLAYER = "deleted player"  # stored data, in English like every name in a record
KEPT_NAME = re.compile(r"^deleted player( \d+)?$")  # as names compare: nobody signs up as one
# Checked when a name has no account, so that a refusal takes as long either way: the hash, with argon2-cffi's
# default parameters (a test keeps them equal), of 32 random bytes nobody kept, so no password matches it.
ABSENT = "$argon2id$v=19$m=65536,t=3,p=4$7/p+On4n1R+6AMG+3UmU1g$b9R1jNfeDQSoIJG0QYQoHpPliwZejbQ1HPd+Mts2558"
SESSION_DAYS = 30  # a session (its cookie) lasts this long from sign-in; signing out ends it at once

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("name_key", sa.String(160), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(200), nullable=False),
    sa.Column("created", sa.String(40), nullable=False),
)
sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey(accounts.c.id, ondelete="CASCADE"), nullable=False),
    sa.Column("created", sa.String(40), nullable=False),
    sa.Column("expires", sa.String(40), nullable=False),
)


class NameTaken(Exception):
    """Another account has this name (as names compare)."""


class SeatedAtLiveTable(Exception):
    """The account holds a seat at a table still open or being played (its id is `args[0]`)."""


@dataclass(frozen=True)
class Account:
    id: int
    name: str


def is_kept_name(name: str) -> bool:
    """Whether `name` is one that deleted accounts leave behind ("deleted player", "deleted player 2")."""
    return KEPT_NAME.match(name_key(name)) is not None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _secret(password: str) -> bytes:
    """The password's bytes for argon2: JSON may carry lone surrogates, which plain UTF-8 cannot encode."""
    return password.encode("utf-8", "surrogatepass")


class AccountStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.hasher = PasswordHasher()

    # --- accounts ------------------------------------------------------------------------
    def create(self, name: str, password: str) -> Account:
        """A new account (NameTaken if the name, as names compare, has one). The name is checked by the caller."""
        hashed = self.hasher.hash(_secret(password))  # before the look-up: a taken name costs the same time
        try:
            with self.storage.transaction() as connection:
                inserted = connection.execute(
                    accounts.insert().values(name=name, name_key=name_key(name), password_hash=hashed, created=_now())
                )
                account_id = int(inserted.inserted_primary_key[0])  # type: ignore[index]
        except sa.exc.IntegrityError:
            raise NameTaken(name) from None
        return Account(account_id, name)

    def check_password(self, name: str, password: str) -> Account | None:
        """The account if `password` is its password; None otherwise, after the same work whether the name exists."""
        row = self._row(name)
        stored = ABSENT if row is None else row[2]
        try:
            self.hasher.verify(stored, _secret(password))
        except (VerificationError, InvalidHashError):
            return None
        if row is None:
            return None  # not reached: no password matches ABSENT
        account = Account(row[0], row[1])
        if self.hasher.check_needs_rehash(stored):  # argon2-cffi's parameters grew since this hash was made
            with self.storage.transaction() as connection:
                connection.execute(
                    accounts.update()
                    .where(accounts.c.id == account.id)
                    .values(password_hash=self.hasher.hash(_secret(password)))
                )
        return account

    def owner_of(self, name: str) -> Account | None:
        """The account that has this name (as names compare), if any."""
        row = self._row(name)
        return None if row is None else Account(row[0], row[1])

    def _row(self, name: str) -> tuple[int, str, str] | None:
        """The account row (id, name, password hash) of `name`, as names compare; none for a name no account can
        have (a control character, a lone surrogate: neither is sent to the database, which may refuse them)."""
        if name_problem(name) is not None:
            return None
        query = sa.select(accounts.c.id, accounts.c.name, accounts.c.password_hash)
        with self.storage.engine.begin() as connection:
            row = connection.execute(query.where(accounts.c.name_key == name_key(name))).first()
        return None if row is None else (int(row[0]), str(row[1]), str(row[2]))

    # --- sessions ------------------------------------------------------------------------
    def open_session(self, account: Account) -> str:
        """A new session's token (for the cookie; only its hash is stored). Expired sessions of the account go."""
        token = secrets.token_urlsafe(32)
        now = datetime.now(UTC)
        with self.storage.transaction() as connection:
            connection.execute(
                sessions.delete().where(sessions.c.account_id == account.id, sessions.c.expires <= _now())
            )
            connection.execute(
                sessions.insert().values(
                    token_hash=token_hash(token),
                    account_id=account.id,
                    created=now.isoformat(timespec="seconds"),
                    expires=(now + timedelta(days=SESSION_DAYS)).isoformat(timespec="seconds"),
                )
            )
        return token

    def session_account(self, token: str | None) -> Account | None:
        """Who a session token signs in, if it is current."""
        if not token:
            return None
        query = (
            sa.select(accounts.c.id, accounts.c.name)
            .join(sessions, sessions.c.account_id == accounts.c.id)
            .where(sessions.c.token_hash == token_hash(token), sessions.c.expires > _now())
        )
        with self.storage.engine.begin() as connection:
            row = connection.execute(query).first()
        return None if row is None else Account(int(row[0]), str(row[1]))

    def close_session(self, token: str) -> None:
        with self.storage.transaction() as connection:
            connection.execute(sessions.delete().where(sessions.c.token_hash == token_hash(token)))

    # --- deleting ------------------------------------------------------------------------
    def delete(self, account: Account) -> list[int]:
        """Delete the account, its sessions, and its name from every stored game and finished table, in one
        transaction; returns the games renamed. SeatedAtLiveTable while it holds a seat at a live table.

        The account's games are those with a human seat of its name (as names compare), except games
        at a live table (a guest there took the name before the account existed). Each such seat
        becomes "deleted player" ("deleted player 2" where the game has one already), in the record's
        players and result alike, so the record still replays and verifies; the game's identity
        (`game_uid`) is worked out again from the renamed record.
        """
        key = name_key(account.name)
        with self.storage.transaction() as connection:
            live: dict[int, int | None] = {}
            for table_id, seats, game_id in connection.execute(
                sa.select(tables.c.id, tables.c.seats, tables.c.game_id).where(tables.c.status.in_(LIVE))
            ):
                if any(seat.get("account") == account.id for seat in json.loads(seats)):
                    raise SeatedAtLiveTable(int(table_id))
                live[int(table_id)] = game_id
            skipped = {g for g in live.values() if g is not None}
            renamed = self._rename_games(connection, key, skipped)
            self._rename_seats(connection, account.id, key, renamed, set(live))
            connection.execute(sessions.delete().where(sessions.c.account_id == account.id))
            connection.execute(accounts.delete().where(accounts.c.id == account.id))
        return sorted(renamed)

    def _rename_games(self, connection: Connection, key: str, skipped: set[int]) -> dict[int, list[str]]:
        """Rename the name's seats in every stored game but `skipped`; each renamed game's new names by seat."""
        renamed: dict[int, list[str]] = {}
        old_names: set[str] = set()
        for game_id, players in connection.execute(sa.select(games.c.id, games.c.players)).all():
            if int(game_id) in skipped or not any(_theirs(p, key) for p in json.loads(players)):
                continue
            data: dict[str, Any] = json.loads(
                connection.execute(sa.select(games.c.record).where(games.c.id == game_id)).scalar_one()
            )
            theirs = [_theirs(p, key) for p in data["players"]]
            names = _new_names([str(p["name"]) for p in data["players"]], theirs)
            old_names.update(str(p["name"]) for p, mine in zip(data["players"], theirs, strict=True) if mine)
            for player, name in zip(data["players"], names, strict=True):
                player["name"] = name
            for entry, name in zip((data.get("result") or {}).get("players") or [], names, strict=False):
                entry["name"] = name
            text = json.dumps(data)
            record = Record.loads_stored(text)  # it still reads back (and replays: a test sees to that)
            connection.execute(
                games.update()
                .where(games.c.id == game_id)
                .values(uid=game_uid(record), players=json.dumps(data["players"]), record=text)
            )
            for seat, name in enumerate(names):
                if theirs[seat]:
                    connection.execute(
                        results.update().where(results.c.game_id == game_id, results.c.seat == seat).values(name=name)
                    )
            renamed[int(game_id)] = names
        if old_names:
            connection.execute(stats_since.delete().where(stats_since.c.name.in_(sorted(old_names))))
        return renamed

    def _rename_seats(
        self, connection: Connection, account_id: int, key: str, renamed: dict[int, list[str]], live: set[int]
    ) -> None:
        """The name leaves the seats of every table that is over (a live one keeps its guests' names)."""
        query = sa.select(tables.c.id, tables.c.seats, tables.c.game_id, tables.c.version)
        for table_id, seats_text, game_id, version in connection.execute(query).all():
            if int(table_id) in live:
                continue
            seats = json.loads(seats_text)
            theirs = [seat.get("account") == account_id or _theirs(seat, key) for seat in seats]
            if not any(theirs):
                continue
            names = renamed.get(game_id) if game_id is not None else None
            for index, seat in enumerate(seats):
                if theirs[index]:
                    seat["name"] = names[index] if names and index < len(names) else DELETED_PLAYER
                    seat.pop("account", None)
            connection.execute(
                tables.update().where(tables.c.id == table_id).values(seats=json.dumps(seats), version=version + 1)
            )


def _theirs(player: dict[str, Any], key: str) -> bool:
    """A human seat (of a record or a table) under the name whose key is `key`."""
    name = player.get("name")
    return str(player.get("kind", "human")) == "human" and isinstance(name, str) and name_key(name) == key


def _new_names(names: list[str], theirs: list[bool]) -> list[str]:
    """`names` with the seats in `theirs` named "deleted player", numbered where one is taken in the game."""
    taken = {name_key(name) for name, mine in zip(names, theirs, strict=True) if not mine}
    new: list[str] = []
    for name, mine in zip(names, theirs, strict=True):
        if not mine:
            new.append(name)
            continue
        number = 1
        while (candidate := DELETED_PLAYER if number == 1 else f"{DELETED_PLAYER} {number}") in taken:
            number += 1
        taken.add(candidate)
        new.append(candidate)
    return new
