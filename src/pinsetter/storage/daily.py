"""The daily challenge's store: the server secret, the day's seeds and each player's one attempt (docs/daily.md).

The day is the UTC date. Its seed for a game is HMAC-SHA-256(secret, "YYYY-MM-DD|game"),
its first 8 bytes read as a whole number and cut to the seed range (63 bits): nobody without
the secret can work it out, and every server process sharing the database derives the same
one, since the secret lives in that database (made once, by whichever process needs it first).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
from dataclasses import dataclass
from datetime import UTC, date, datetime

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from pinsetter.core.seeds import SEED_MAX
from pinsetter.i18n import _
from pinsetter.records import Record
from pinsetter.storage.accounts import accounts
from pinsetter.storage.db import Storage, game_uid, games, metadata

__all__ = [
    "DAILY_OPTIONS",
    "DailyEntry",
    "DailyStore",
    "daily_options",
    "day_seed",
    "parse_day",
    "today",
]

# Every game's daily challenge is played with its standard options (the defaults `pinsetter games` lists),
# the same every day: one game, one board. A game named here is played with these instead.
DAILY_OPTIONS: dict[str, dict[str, object]] = {}

daily_secret = sa.Table(
    "daily_secret",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("secret", sa.String(64), nullable=False),
    sa.Column("created", sa.String(40), nullable=False),
)
daily_games = sa.Table(
    "daily_games",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("day", sa.String(10), nullable=False),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("account_id", sa.Integer, sa.ForeignKey(accounts.c.id, ondelete="SET NULL"), nullable=True),
    sa.Column("game_id", sa.Integer, sa.ForeignKey(games.c.id, ondelete="CASCADE"), nullable=False),
    sa.Column("started", sa.String(40), nullable=False),
    sa.UniqueConstraint("day", "game", "account_id", name="daily_games_once"),
    sa.UniqueConstraint("game_id", name="daily_games_game"),
)
# Odds worked out in the background (`pinsetter.web.daily.OddsBook`), by a SHA-256 of rules, game and options.
daily_odds = sa.Table(
    "daily_odds",
    metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("odds", sa.Text, nullable=False),
    sa.Column("created", sa.String(40), nullable=False),
)


def daily_options(game: str) -> dict[str, object]:
    """The options of `game`'s daily challenge (every day the same)."""
    return dict(DAILY_OPTIONS.get(game, {}))


def today(now: datetime | None = None) -> date:
    """The challenge's day: the UTC date (one day for every player, wherever they are)."""
    return (now or datetime.now(UTC)).astimezone(UTC).date()


def parse_day(text: str) -> date:
    """A day written YYYY-MM-DD; ValueError with one line otherwise."""
    try:
        if len(text) != 10:
            raise ValueError
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError(_("a day is written YYYY-MM-DD, not {text}").format(text=repr(text[:40]))) from None


def _odds_key(rules: str, game: str, options_json: str) -> str:
    return hashlib.sha256(f"{rules}|{game}|{options_json}".encode()).hexdigest()


def day_seed(secret: str, day: date, game: str) -> int:
    """The day's seed for `game`: HMAC-SHA-256 keyed by the server secret, in the seed range."""
    digest = hmac.new(secret.encode(), f"{day.isoformat()}|{game}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") & SEED_MAX


@dataclass(frozen=True)
class DailyEntry:
    """One attempt: its game, the account that plays it (None once deleted) and the game's state."""

    game_id: int
    account_id: int | None
    finished: bool
    record: Record
    updated: str


class DailyStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._secret: str | None = None
        self._guard = threading.Lock()

    def secret(self) -> str:
        """The server secret: read from the database, made there first if nobody has (two processes agree)."""
        with self._guard:
            if self._secret is None:
                with self.storage.transaction() as connection:
                    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
                    made = {"id": 1, "secret": secrets.token_hex(32), "created": datetime.now(UTC).isoformat()}
                    connection.execute(dialect.insert(daily_secret).values(made).on_conflict_do_nothing())
                    found = connection.execute(sa.select(daily_secret.c.secret).where(daily_secret.c.id == 1))
                    self._secret = str(found.scalar_one())
            return self._secret

    def seed(self, day: date, game: str) -> int:
        return day_seed(self.secret(), day, game)

    def attempt(self, day: date, game: str, account_id: int) -> DailyEntry | None:
        """The account's attempt at the day's challenge of `game`, if it has started one."""
        found = self._entries(
            (daily_games.c.day == day.isoformat())
            & (daily_games.c.game == game)
            & (daily_games.c.account_id == account_id)
        )
        return found[0] if found else None

    def start(self, day: date, game: str, account_id: int, record: Record) -> tuple[int, bool]:
        """Keep `record` as the account's attempt, or find the one it has: (game id, whether new).

        The game and its attempt row are written in one transaction, so no moment exists when the
        game is stored but not yet sealed; a second start racing this one finds the first's game.
        """
        for _attempt in range(3):
            existing = self.attempt(day, game, account_id)
            if existing is not None:
                return existing.game_id, False
            try:
                with self.storage.transaction() as connection:
                    game_id = self.storage._write(connection, game_uid(record), record, None)  # same transaction
                    connection.execute(
                        daily_games.insert().values(
                            day=day.isoformat(),
                            game=game,
                            account_id=account_id,
                            game_id=game_id,
                            started=datetime.now(UTC).isoformat(timespec="seconds"),
                        )
                    )
                return game_id, True
            except sa.exc.IntegrityError:
                continue  # another request started it meanwhile: take that one
        raise AssertionError("unreachable")

    def of_game(self, game_id: int) -> tuple[date, int | None] | None:
        """The day and account of a daily game; None for any other game."""
        with self.storage.engine.begin() as connection:
            row = connection.execute(
                sa.select(daily_games.c.day, daily_games.c.account_id).where(daily_games.c.game_id == game_id)
            ).first()
        return None if row is None else (date.fromisoformat(row[0]), row[1])

    def from_day(self, game_ids: list[int], day: date) -> set[int]:
        """Which of `game_ids` are daily games of `day` or later (still sealed on `day`)."""
        if not game_ids:
            return set()
        query = sa.select(daily_games.c.game_id).where(
            daily_games.c.game_id.in_(game_ids), daily_games.c.day >= day.isoformat()
        )
        with self.storage.engine.begin() as connection:
            return {int(row[0]) for row in connection.execute(query)}

    def board(self, day: date, game: str) -> list[DailyEntry]:
        """Every attempt at the day's challenge of `game`, finished or not."""
        return self._entries((daily_games.c.day == day.isoformat()) & (daily_games.c.game == game))

    def kept_odds(self, rules: str, game: str, options_json: str) -> tuple[float, ...] | None:
        """Odds another process (or this one, before a restart) worked out and kept: P(score >= s) by s."""
        query = sa.select(daily_odds.c.odds).where(daily_odds.c.key == _odds_key(rules, game, options_json))
        with self.storage.engine.begin() as connection:
            found = connection.execute(query).scalar_one_or_none()
        return None if found is None else tuple(float(chance) for chance in json.loads(found))

    def keep_odds(self, rules: str, game: str, options_json: str, odds: tuple[float, ...]) -> None:
        """Keep worked-out odds for every process; a row already there (another process's) stays."""
        made = {
            "key": _odds_key(rules, game, options_json),
            "game": game,
            "options": options_json,
            "odds": json.dumps(list(odds)),  # a float's repr reads back as the same double
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        with self.storage.transaction() as connection:
            dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
            connection.execute(dialect.insert(daily_odds).values(made).on_conflict_do_nothing())

    def _entries(self, where: sa.ColumnElement[bool]) -> list[DailyEntry]:
        query = (
            sa.select(
                daily_games.c.game_id, daily_games.c.account_id, games.c.finished, games.c.record, games.c.updated
            )
            .join(games, games.c.id == daily_games.c.game_id)
            .where(where)
            .order_by(daily_games.c.id)
        )
        with self.storage.engine.begin() as connection:
            rows = connection.execute(query).all()
        return [DailyEntry(int(r[0]), r[1], bool(r[2]), Record.loads_stored(r[3]), str(r[4])) for r in rows]
