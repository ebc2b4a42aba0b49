"""Online tables' settings: the host's turn timer and the bot that plays a timed-out decision.

Revision ID: 0005
Revises: 0004

`tables.settings` is a JSON object (`{}` for tables made before it: no timer).
Idempotent: a column that exists is kept.
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    if "settings" not in {c["name"] for c in sa.inspect(op.get_bind()).get_columns("tables")}:
        op.add_column("tables", sa.Column("settings", sa.Text, nullable=False, server_default="{}"))


def downgrade() -> None:
    op.drop_column("tables", "settings")
