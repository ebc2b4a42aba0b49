"""Resumable runs: a simulation's or tournament's parameters and its finished chunks.

Revision ID: 0006
Revises: 0005

Idempotent: tables that exist are kept.
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if not inspector.has_table("runs"):
        op.create_table(
            "runs",
            sa.Column("id", sa.String(40), primary_key=True),
            sa.Column("kind", sa.String(16), nullable=False),
            sa.Column("params", sa.Text, nullable=False),
            sa.Column("chunks", sa.Integer, nullable=False),
            sa.Column("created", sa.String(40), nullable=False),
            sa.Column("updated", sa.String(40), nullable=False),
            sa.Column("finished", sa.Boolean, nullable=False),
        )
    if not inspector.has_table("run_chunks"):
        op.create_table(
            "run_chunks",
            sa.Column("run_id", sa.String(40), sa.ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
            sa.Column("chunk", sa.Integer, primary_key=True),
            sa.Column("rows", sa.Text, nullable=False),
        )


def downgrade() -> None:
    op.drop_table("run_chunks")
    op.drop_table("runs")
