"""Accounts and their sign-in sessions (docs/accounts.md).

Revision ID: 0007
Revises: 0006

`accounts.name_key` is the name as names compare (`usertext.name_key`), unique: one
account per name. A session is stored as the SHA-256 of its cookie, never the cookie.
Idempotent: tables that exist are kept.
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if not inspector.has_table("accounts"):
        op.create_table(
            "accounts",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("name", sa.String(80), nullable=False),
            sa.Column("name_key", sa.String(160), nullable=False, unique=True),
            sa.Column("password_hash", sa.String(200), nullable=False),
            sa.Column("created", sa.String(40), nullable=False),
        )
    if not inspector.has_table("sessions"):
        op.create_table(
            "sessions",
            sa.Column("token_hash", sa.String(64), primary_key=True),
            sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
            sa.Column("created", sa.String(40), nullable=False),
            sa.Column("expires", sa.String(40), nullable=False),
            sa.Index("sessions_account", "account_id"),
        )


def downgrade() -> None:
    op.drop_table("sessions")
    op.drop_table("accounts")
