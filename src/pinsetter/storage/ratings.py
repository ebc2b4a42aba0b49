"""Ratings of signed-in players per game and mode, updated once when a rated table's game ends (docs/accounts.md).

openskill's Plackett-Luce model rates a free-for-all of 1 to 12 seats with ties (equal
totals share a rank). Bots are fixed anchors (`ANCHORS`): they take part in every update
but their own ratings never move, so a lone player can be rated against them and nobody
can farm a bot's rating up or down. The update runs in the transaction of the step that
ends the game (`TableStore.finishing`), which only one writer can make (a compare-and-set
on the game's steps); `rating_changes` is unique on (table, account) besides.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from pinsetter.storage.accounts import accounts
from pinsetter.storage.db import Storage, games, metadata
from pinsetter.storage.tables import StoredTable, tables
from pinsetter.usertext import name_key, name_problem

__all__ = ["ANCHORS", "MODES", "RatingStore", "display", "mode_of", "rate_table"]

# A bot's fixed (mu, sigma): priors from how each plays, not yet fitted to bot-against-bot games.
# A new account starts at openskill's (25, 25/3). A small sigma (1) makes a bot a firm anchor.
ANCHORS: dict[str, tuple[float, float]] = {
    "random": (15.0, 1.0),  # any legal decision at random: below a new player
    "greedy": (22.0, 1.0),  # the best score of the next roll only (Rolling Pins, Bowling Solitaire)
    "expectimax": (30.0, 1.0),  # Bowling Solitaire's solver looking ahead
    "optimal": (30.0, 1.0),  # Rolling Pins' solver: the best expected score
    "win": (30.0, 1.0),  # the same solver playing to finish ahead: no measurable gain over `optimal` yet
}
# The modes of a game rated apart: Rolling Pins' basic and advanced sheets; one mode for the others.
MODES: dict[str, tuple[str, ...]] = {"rolling-pins": ("basic", "advanced")}
STANDARD = "standard"
SCALE, BASE = 24.0, 1000.0  # the rating shown: BASE + SCALE * (mu - 3 sigma); a new account shows 1000
MODEL = PlackettLuce()
LEADERS = 100  # a leaderboard's length

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey(accounts.c.id, ondelete="CASCADE"), primary_key=True),
    sa.Column("game", sa.String(40), primary_key=True),
    sa.Column("mode", sa.String(20), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated", sa.String(40), nullable=False),
)
rating_changes = sa.Table(
    "rating_changes",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.Integer, sa.ForeignKey(tables.c.id, ondelete="CASCADE"), nullable=False),
    sa.Column("game_id", sa.Integer, sa.ForeignKey(games.c.id, ondelete="SET NULL"), nullable=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey(accounts.c.id, ondelete="CASCADE"), nullable=False),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("mode", sa.String(20), nullable=False),
    sa.Column("rank", sa.Integer, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("delta", sa.Float, nullable=False),
    sa.Column("at", sa.String(40), nullable=False),
    sa.UniqueConstraint("table_id", "account_id", name="rating_changes_once"),
)

MOVE = (
    ratings.update()
    .where(
        ratings.c.account_id == sa.bindparam("who"),
        ratings.c.game == sa.bindparam("board_game"),
        ratings.c.mode == sa.bindparam("board_mode"),
    )
    .values(mu=sa.bindparam("new_mu"), sigma=sa.bindparam("new_sigma"), games=sa.bindparam("played"))
)


def mode_of(game: str, options: dict[str, Any]) -> str:
    """The mode a game's options are rated in: Rolling Pins' basic and advanced apart."""
    if game in MODES:
        return "advanced" if options.get("advanced") else "basic"
    return STANDARD


def display(mu: float, sigma: float) -> int:
    """The rating shown: openskill's conservative ordinal (mu - 3 sigma) on a familiar scale."""
    return round(BASE + SCALE * (mu - 3 * sigma))


def ranks_of(result: dict[str, Any]) -> list[int]:
    """Each seat's rank by total (1 is first); equal totals share a rank."""
    totals = [int(entry["total"]) for entry in result["players"]]
    return [1 + sum(other > total for other in totals) for total in totals]


def rate_table(connection: Connection, table: StoredTable, result: dict[str, Any]) -> None:
    """Rate every account seated at a rated table whose game has just ended, in the caller's transaction.

    A seat handed to a bot during the game still rates its account (leaving does not dodge a loss);
    a bot's seat is its fixed anchor. Nothing happens if the table has been rated already.
    """
    seated = [seat.account for seat in table.seats]
    ids = sorted({account for account in seated if account is not None})
    done = sa.select(rating_changes.c.id).where(rating_changes.c.table_id == table.id).limit(1)
    if not ids or connection.execute(done).first() is not None:
        return
    mode = mode_of(table.game, table.options)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    start = {"game": table.game, "mode": mode, "mu": MODEL.mu, "sigma": MODEL.sigma, "games": 0, "updated": now}
    fresh = [{"account_id": account, **start} for account in ids]
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    connection.execute(dialect.insert(ratings).values(fresh).on_conflict_do_nothing())
    query = (
        sa.select(ratings.c.account_id, ratings.c.mu, ratings.c.sigma, ratings.c.games)
        .where(ratings.c.account_id.in_(ids), ratings.c.game == table.game, ratings.c.mode == mode)
        .order_by(ratings.c.account_id)
        .with_for_update()  # PostgreSQL: another table's ending waits; SQLite's writes are one at a time
    )
    current = {int(row[0]): (float(row[1]), float(row[2]), int(row[3])) for row in connection.execute(query)}
    if connection.execute(done).first() is not None:
        return  # rated meanwhile by a transaction that held these rows first (PostgreSQL reads anew after the lock)
    teams: list[list[PlackettLuceRating]] = []
    for seat, account in zip(table.seats, seated, strict=True):
        mu, sigma = current[account][:2] if account is not None else ANCHORS[seat.kind.removeprefix("bot:")]
        teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    ranks = ranks_of(result)
    rated = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    moved: list[dict[str, Any]] = []
    changes: list[dict[str, Any]] = []
    for index, account in enumerate(seated):
        if account is None or account in seated[:index]:
            continue
        mu, sigma, played = current[account]
        after = rated[index][0]
        board = {"board_game": table.game, "board_mode": mode}
        moved.append({"who": account, **board, "new_mu": after.mu, "new_sigma": after.sigma, "played": played + 1})
        changes.append(
            {
                "table_id": table.id,
                "game_id": table.game_id,
                "account_id": account,
                "game": table.game,
                "mode": mode,
                "rank": ranks[index],
                "players": len(seated),
                "mu": after.mu,
                "sigma": after.sigma,
                "delta": display(after.mu, after.sigma) - display(mu, sigma),
                "at": now,
            }
        )
    connection.execute(MOVE.values(updated=now), moved)  # one statement for every account (executemany)
    connection.execute(rating_changes.insert(), changes)


@dataclass(frozen=True)
class Leader:
    name: str
    rating: int
    games: int


class RatingStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def leaderboard(self, game: str, mode: str) -> list[Leader]:
        """The best rated accounts of a game and mode, best first (ties by name)."""
        query = (
            sa.select(accounts.c.name, ratings.c.mu, ratings.c.sigma, ratings.c.games)
            .join(accounts, accounts.c.id == ratings.c.account_id)
            .where(ratings.c.game == game, ratings.c.mode == mode)
            .order_by((ratings.c.mu - 3 * ratings.c.sigma).desc(), accounts.c.name_key)
            .limit(LEADERS)
        )
        with self.storage.engine.begin() as connection:
            return [Leader(str(r[0]), display(r[1], r[2]), int(r[3])) for r in connection.execute(query)]

    def player(self, name: str) -> dict[str, Any] | None:
        """An account's rated games, current ratings and every change (oldest first); None without an account."""
        if name_problem(name) is not None:
            return None
        with self.storage.engine.begin() as connection:
            found = connection.execute(
                sa.select(accounts.c.id, accounts.c.name).where(accounts.c.name_key == name_key(name))
            ).first()
            if found is None:
                return None
            account = int(found[0])
            current = connection.execute(
                sa.select(ratings.c.game, ratings.c.mode, ratings.c.mu, ratings.c.sigma, ratings.c.games)
                .where(ratings.c.account_id == account)
                .order_by(ratings.c.game, ratings.c.mode)
            ).all()
            changes = connection.execute(
                sa.select(rating_changes).where(rating_changes.c.account_id == account).order_by(rating_changes.c.id)
            ).all()
        history = [
            {
                "game": c.game,
                "mode": c.mode,
                "table_id": c.table_id,
                "game_id": c.game_id,
                "rank": c.rank,
                "players": c.players,
                "rating": display(c.mu, c.sigma),
                "delta": round(c.delta),
                "at": c.at,
            }
            for c in changes
        ]
        return {
            "name": str(found[1]),
            "games": len(history),
            "ratings": [
                {"game": r.game, "mode": r.mode, "rating": display(r.mu, r.sigma), "games": r.games} for r in current
            ],
            "history": history,
            "best": sorted(history, key=lambda h: (h["rank"], -h["delta"], -h["table_id"]))[:5],
        }
