"""Games with their full records.

Revision ID: 0001

Idempotent (as every migration here): a table or index that already exists is
left alone, so a schema half made by an older pinsetter killed mid-migration is
completed rather than failing every later open.
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if not inspector.has_table("games"):
        op.create_table(
            "games",
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
    if "ix_games_game" not in {i["name"] for i in sa.inspect(op.get_bind()).get_indexes("games")}:
        op.create_index("ix_games_game", "games", ["game"])


def downgrade() -> None:
    op.drop_table("games")
