"""Per-player results for statistics, filled from the stored records; statistics resets.

Revision ID: 0002
Revises: 0001
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    results = op.create_table(
        "results",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(80), nullable=False, index=True),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("strikes", sa.Integer, nullable=False),
        sa.Column("spares", sa.Integer, nullable=False),
        sa.Column("frames", sa.Integer, nullable=False),
    )
    op.create_table(
        "stats_since",
        sa.Column("name", sa.String(80), primary_key=True),
        sa.Column("since", sa.String(40), nullable=False),
    )
    # Existing games keep their place in the statistics: fill results from their records.
    from pinsetter.storage.db import result_rows

    connection = op.get_bind()
    rows = []
    for game_id, record in connection.execute(sa.text("SELECT id, record FROM games")):
        rows.extend(result_rows(game_id, json.loads(record)))
    if rows:
        op.bulk_insert(results, rows)


def downgrade() -> None:
    op.drop_table("stats_since")
    op.drop_table("results")
