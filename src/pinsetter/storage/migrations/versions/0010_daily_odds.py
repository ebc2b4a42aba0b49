"""The daily board's odds worked out in the background, kept for every server process (docs/daily.md).

Revision ID: 0010
Revises: 0009

`daily_odds` holds one row per game, options and solver rules (`key`, a SHA-256 of the three):
P(final score >= s) for every s, as a JSON list of floats. Basic Rolling Pins' take about a minute
of CPU: kept here, another process or a restart reads them instead of working them out again.
Written with an insert that does nothing when the row is there (two processes may finish both).
Idempotent: a table that exists is kept.
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"


def upgrade() -> None:
    if not sa.inspect(op.get_bind()).has_table("daily_odds"):
        op.create_table(
            "daily_odds",
            sa.Column("key", sa.String(64), primary_key=True),
            sa.Column("game", sa.String(40), nullable=False),
            sa.Column("options", sa.Text, nullable=False),
            sa.Column("odds", sa.Text, nullable=False),
            sa.Column("created", sa.String(40), nullable=False),
        )


def downgrade() -> None:
    op.drop_table("daily_odds")
