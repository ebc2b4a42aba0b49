"""Online tables: seats held by token hashes, a join code, the game being played.

Revision ID: 0004
Revises: 0003

Idempotent: a table that exists is kept.
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("tables"):
        return
    op.create_table(
        "tables",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(16), nullable=False, unique=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("host_hash", sa.String(64), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="SET NULL"), nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tables")
