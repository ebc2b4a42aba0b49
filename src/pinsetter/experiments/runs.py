"""Runs kept in the history database, so that an interrupted run resumes (`--resume RUN`).

A run is stored under a short id with its plan's parameters (`Plan.params`),
and every chunk as it finishes (its rows as JSON, in one transaction each).
`--resume RUN` reloads the finished chunks and plays only the others; it is
refused, with one line naming the first difference, when the command line
does not give the run's parameters. Tables `runs` and `run_chunks` (migration
0006), on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

import json
import re
import secrets
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from pinsetter.experiments.plan import Plan, Row
from pinsetter.i18n import _
from pinsetter.storage import Storage
from pinsetter.usertext import visible

__all__ = ["RunError", "RunStore", "StoredRun", "check_run_id"]

metadata = sa.MetaData()
runs = sa.Table(
    "runs",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("params", sa.Text, nullable=False),
    sa.Column("chunks", sa.Integer, nullable=False),
    sa.Column("created", sa.String(40), nullable=False),
    sa.Column("updated", sa.String(40), nullable=False),
    sa.Column("finished", sa.Boolean, nullable=False),
)
run_chunks = sa.Table(
    "run_chunks",
    metadata,
    sa.Column("run_id", sa.String(40), sa.ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("chunk", sa.Integer, primary_key=True),
    sa.Column("rows", sa.Text, nullable=False),
)

LAST = "last"  # --resume last: the latest unfinished run with the same parameters
_RUN_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
# How a differing parameter is named to the user.
OPTION_NAMES = {
    "kind": "the command",
    "game": "GAME",
    "options": "--option",
    "players": "--players/--bots",
    "games": "--games",
    "seed": "--seed",
    "chunk": "--chunk",
    "seats": "--seats",
    "version": "the pinsetter version",
}


class RunError(Exception):
    """A run cannot be started or resumed; the message is one line, fit for the user."""


def check_run_id(text: str) -> str:
    """A run id as `--resume` takes it: lower-case letters, digits and dashes, up to 40."""
    if not _RUN_ID.fullmatch(text):
        raise RunError(_("--resume {run!r}: a run id is letters a-z, digits and dashes").format(run=visible(text)))
    return text


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return visible(text if len(text) <= 60 else text[:57] + "...")


class StoredRun:
    """One run in the store: its finished chunks, and where new ones go."""

    def __init__(self, store: RunStore, run_id: str, plan: Plan) -> None:
        self.store = store
        self.id = run_id
        self.plan = plan

    def finished_chunks(self) -> dict[int, list[Row]]:
        """The chunks finished so far, by index."""
        with self.store.storage.engine.begin() as connection:
            rows = connection.execute(
                sa.select(run_chunks.c.chunk, run_chunks.c.rows).where(run_chunks.c.run_id == self.id)
            ).all()
        return {int(chunk): json.loads(text) for chunk, text in rows}

    def save_chunk(self, index: int, rows: list[Row]) -> None:
        self.save_chunks({index: rows})

    def save_chunks(self, chunks: dict[int, list[Row]]) -> None:
        """Keep finished chunks in one transaction (a chunk saved again, by a resumed run racing
        another, is kept once)."""
        if not chunks:
            return
        with self.store.storage.transaction() as connection:
            present = {
                int(row[0])
                for row in connection.execute(
                    sa.select(run_chunks.c.chunk).where(
                        run_chunks.c.run_id == self.id, run_chunks.c.chunk.in_(list(chunks))
                    )
                )
            }
            new = [
                {"run_id": self.id, "chunk": index, "rows": json.dumps(rows)}
                for index, rows in sorted(chunks.items())
                if index not in present
            ]
            if new:
                connection.execute(sa.insert(run_chunks), new)
            connection.execute(sa.update(runs).where(runs.c.id == self.id).values(updated=_now()))

    def finish(self) -> None:
        with self.store.storage.transaction() as connection:
            connection.execute(sa.update(runs).where(runs.c.id == self.id).values(finished=True, updated=_now()))


class RunStore:
    """The runs of one history database."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def start(self, plan: Plan) -> StoredRun:
        """A new run under a fresh id."""
        params = json.dumps(plan.params(), sort_keys=True)
        for _attempt in range(5):
            run_id = secrets.token_hex(4)
            with self.storage.transaction() as connection:
                if connection.execute(sa.select(runs.c.id).where(runs.c.id == run_id)).first() is not None:
                    continue
                now = _now()
                connection.execute(
                    sa.insert(runs).values(
                        id=run_id,
                        kind=plan.kind,
                        params=params,
                        chunks=plan.chunks,
                        created=now,
                        updated=now,
                        finished=False,
                    )
                )
                return StoredRun(self, run_id, plan)
        raise RunError(_("no free run id; try again"))

    def resume(self, run_id: str, plan: Plan) -> StoredRun:
        """The stored run `run_id`, if `plan` is the plan it was started with; RunError (one line) if not."""
        if run_id == LAST:
            run_id = self._last(plan)
        check_run_id(run_id)
        with self.storage.engine.begin() as connection:
            row = connection.execute(sa.select(runs.c.kind, runs.c.params).where(runs.c.id == run_id)).first()
        if row is None:
            raise RunError(
                _("--resume {run}: there is no such run in {db}").format(run=run_id, db=self.storage.safe_url)
            )
        stored = json.loads(row.params)
        wanted = plan.params()
        for key in OPTION_NAMES:
            if stored.get(key) != wanted.get(key):
                raise RunError(
                    _(
                        "--resume {run}: that run was started with {option} {stored}, not {given}; give the same ones"
                    ).format(
                        run=run_id,
                        option=OPTION_NAMES[key],
                        stored=_shown(stored.get(key)),
                        given=_shown(wanted.get(key)),
                    )
                )
        return StoredRun(self, run_id, plan)

    def _last(self, plan: Plan) -> str:
        """The most recently updated unfinished run with exactly this plan."""
        wanted = plan.params()
        with self.storage.engine.begin() as connection:
            rows = connection.execute(
                sa.select(runs.c.id, runs.c.params)
                .where(runs.c.kind == plan.kind, runs.c.finished.is_(False))
                .order_by(runs.c.updated.desc(), runs.c.created.desc())
            ).all()
        for run_id, params in rows:
            if json.loads(params) == wanted:
                return str(run_id)
        raise RunError(
            _("--resume last: no unfinished run with these parameters in {db}").format(db=self.storage.safe_url)
        )
