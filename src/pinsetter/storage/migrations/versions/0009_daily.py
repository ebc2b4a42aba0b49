"""The daily challenge: its server secret and each player's one attempt a day (docs/daily.md).

Revision ID: 0009
Revises: 0008

`daily_secret` holds the one random secret the day's seeds are derived from (made once, by
whichever process needs it first; every process sharing the database reads the same one).
`daily_games` holds one row per attempt, unique on (day, game, account): one attempt per
signed-in player per game per day; `game_id` is unique (a game is one attempt). An attempt
outlives its account (`account_id` set to NULL) so that the game stays sealed until the day
ends. Idempotent: tables that exist are kept.
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if not inspector.has_table("daily_secret"):
        op.create_table(
            "daily_secret",
            sa.Column("id", sa.Integer, primary_key=True),
            sa.Column("secret", sa.String(64), nullable=False),
            sa.Column("created", sa.String(40), nullable=False),
        )
    if not inspector.has_table("daily_games"):
        op.create_table(
            "daily_games",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("day", sa.String(10), nullable=False),
            sa.Column("game", sa.String(40), nullable=False),
            sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
            sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
            sa.Column("started", sa.String(40), nullable=False),
            sa.UniqueConstraint("day", "game", "account_id", name="daily_games_once"),
            sa.UniqueConstraint("game_id", name="daily_games_game"),
        )


def downgrade() -> None:
    op.drop_table("daily_games")
    op.drop_table("daily_secret")
