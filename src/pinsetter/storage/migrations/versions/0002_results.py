"""Per-player results for statistics, filled from the stored records; statistics resets.

Revision ID: 0002
Revises: 0001

Idempotent: tables that exist are kept, and the results are recomputed from the
records (they are derived data until this revision is stamped).
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    bind = op.get_bind()
    inspector = sa.inspect(bind)
    if not inspector.has_table("results"):
        op.create_table(
            "results",
            sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("name", sa.String(80), nullable=False),
            sa.Column("kind", sa.String(40), nullable=False),
            sa.Column("score", sa.Integer, nullable=False),
            sa.Column("strikes", sa.Integer, nullable=False),
            sa.Column("spares", sa.Integer, nullable=False),
            sa.Column("frames", sa.Integer, nullable=False),
        )
    if "ix_results_name" not in {i["name"] for i in sa.inspect(bind).get_indexes("results")}:
        op.create_index("ix_results_name", "results", ["name"])
    if not inspector.has_table("stats_since"):
        op.create_table(
            "stats_since",
            sa.Column("name", sa.String(80), primary_key=True),
            sa.Column("since", sa.String(40), nullable=False),
        )
    # Existing games keep their place in the statistics: fill results from their records.
    from pinsetter.storage.db import result_rows

    results = sa.table(
        "results",
        *(sa.column(c) for c in ("game_id", "seat", "name", "kind", "score", "strikes", "spares", "frames")),
    )
    bind.execute(sa.text("DELETE FROM results"))
    rows = []
    for game_id, record in bind.execute(sa.text("SELECT id, record FROM games")):
        rows.extend(result_rows(game_id, json.loads(record)))
    if rows:
        op.bulk_insert(results, rows)


def downgrade() -> None:
    op.drop_table("stats_since")
    op.drop_table("results")
