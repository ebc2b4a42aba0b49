"""Where each game's chance came from ("seeded" or "entered"), and room for long free-text fields.

Revision ID: 0003
Revises: 0002

`games.chance` defaults to 'seeded' and is filled from the stored records.
`games.created` and `results.kind` are free text in a record (up to 200
characters), so they widen to 200 (SQLite does not enforce lengths).
Idempotent: a column that exists is kept.
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    bind = op.get_bind()
    if "chance" not in {c["name"] for c in sa.inspect(bind).get_columns("games")}:
        op.add_column("games", sa.Column("chance", sa.String(16), nullable=False, server_default="seeded"))
    if bind.dialect.name != "sqlite":
        op.alter_column("games", "created", type_=sa.String(200), existing_type=sa.String(40), existing_nullable=False)
        op.alter_column("results", "kind", type_=sa.String(200), existing_type=sa.String(40), existing_nullable=False)
    entered = [
        game_id
        for game_id, record in bind.execute(sa.text("SELECT id, record FROM games WHERE record LIKE '%\"chance\"%'"))
        if json.loads(record).get("chance") == "entered"
    ]
    for game_id in entered:
        bind.execute(sa.text("UPDATE games SET chance = 'entered' WHERE id = :id"), {"id": game_id})


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        op.alter_column("results", "kind", type_=sa.String(40), existing_type=sa.String(200), existing_nullable=False)
        op.alter_column("games", "created", type_=sa.String(40), existing_type=sa.String(200), existing_nullable=False)
    op.drop_column("games", "chance")  # SQLite 3.35+ drops a column in place (no table copy)
