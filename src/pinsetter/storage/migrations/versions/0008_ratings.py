"""Ratings per account, game and mode, and the history of their changes (docs/accounts.md, "Ratings").

Revision ID: 0008
Revises: 0007

`ratings` holds each account's current rating (openskill's mu and sigma) per game and mode;
`rating_changes` one row per account per rated table game, unique on (table, account): a
table's game is rated once, whichever server process ends it. Idempotent: tables that exist are kept.
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if not inspector.has_table("ratings"):
        op.create_table(
            "ratings",
            sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
            sa.Column("game", sa.String(40), primary_key=True),
            sa.Column("mode", sa.String(20), primary_key=True),
            sa.Column("mu", sa.Float, nullable=False),
            sa.Column("sigma", sa.Float, nullable=False),
            sa.Column("games", sa.Integer, nullable=False),
            sa.Column("updated", sa.String(40), nullable=False),
            sa.Index("ratings_board", "game", "mode"),
        )
    if not inspector.has_table("rating_changes"):
        op.create_table(
            "rating_changes",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
            sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="SET NULL"), nullable=True),
            sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
            sa.Column("game", sa.String(40), nullable=False),
            sa.Column("mode", sa.String(20), nullable=False),
            sa.Column("rank", sa.Integer, nullable=False),
            sa.Column("players", sa.Integer, nullable=False),
            sa.Column("mu", sa.Float, nullable=False),
            sa.Column("sigma", sa.Float, nullable=False),
            sa.Column("delta", sa.Float, nullable=False),
            sa.Column("at", sa.String(40), nullable=False),
            sa.UniqueConstraint("table_id", "account_id", name="rating_changes_once"),
            sa.Index("rating_changes_account", "account_id"),
        )


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("ratings")
