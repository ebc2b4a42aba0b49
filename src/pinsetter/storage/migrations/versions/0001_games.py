"""Games with their full records.

Revision ID: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("uid", sa.String(64), nullable=False, unique=True),
        sa.Column("game", sa.String(40), nullable=False, index=True),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("updated", sa.String(40), nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("steps", sa.Integer, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("games")
