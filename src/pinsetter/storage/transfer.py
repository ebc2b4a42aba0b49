"""Export and import of the game history; imports are verified by replay.

Import never raises on the file's content: each line (or array item) is parsed
by the record schema (`pinsetter.records.parse_document`, which limits size and
depth), and a bad one is reported with its line number. Each record is stored
by `Storage.merge`, one atomic check-and-write, so concurrent imports of the
same file count every game as imported exactly once, and a different game
under a stored game's identity is reported as a conflict instead of replacing it.

CSV export: names are user text. Records already refuse control characters in
names; every text cell also goes through `visible` (escapes spelled out), and a
name or cell that starts with `=`, `+`, `-` or `@` gets a leading `'` so a
spreadsheet shows it as text rather than running it as a formula (OWASP CSV
injection). Text cells are quoted.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pydantic_core

from pinsetter.core.files import open_to_read
from pinsetter.i18n import _
from pinsetter.records import Record, RecordError, read_json, replay
from pinsetter.storage.db import Storage, StorageError
from pinsetter.usertext import visible

__all__ = [
    "MAX_IMPORT_BYTES",
    "ImportReport",
    "csv_cell",
    "export_csv",
    "export_jsonl",
    "import_file",
    "import_records",
    "read_import",
]

# An import file is read up to this size (a game's record is a few kB: this is tens of thousands).
MAX_IMPORT_BYTES = 200_000_000
FORMULA_START = ("=", "+", "-", "@")


def export_jsonl(storage: Storage) -> str:
    """One full record per line, oldest first: `pinsetter import` reads it back."""
    return "".join(json.dumps(g.record.outside_json(), sort_keys=True) + "\n" for g in storage.all_games())


def csv_cell(text: str) -> str:
    """User text made safe for a spreadsheet: control characters spelled out, formulas defused."""
    text = visible(text)
    return "'" + text if text.startswith(FORMULA_START) else text


def export_csv(storage: Storage) -> str:
    """A table, one game a line; `chance` is `seeded` or `entered` (chance not drawn from the seed)."""
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow(["id", "date", "game", "options", "players", "scores", "winner", "finished", "chance"])
    for stored in storage.all_games():
        s = stored.summary()
        names = [csv_cell(p["name"]) for p in s["players"]]
        winner = s["winner"] or ""
        if winner.startswith("tie: "):
            winner = "tie: " + ", ".join(csv_cell(n) for n in winner[5:].split(", "))
        writer.writerow(
            [
                s["id"],
                csv_cell(s["date"]),
                csv_cell(s["game"]),
                csv_cell(json.dumps(s["options"], sort_keys=True)),
                ";".join(names),
                ";".join("" if x is None else str(x) for x in s["scores"]),
                csv_cell(winner),
                s["finished"],
                s["chance"],
            ]
        )
    return out.getvalue()


@dataclass
class ImportReport:
    imported: int = 0
    updated: int = 0  # stored games this import extended (a longer record of the same game)
    duplicates: int = 0
    rejected: list[tuple[int, str]] = field(default_factory=list)  # (line, reason): not a valid record
    conflicts: list[tuple[int, str]] = field(default_factory=list)  # (line, reason): a different stored game


def import_file(storage: Storage, path: Path) -> ImportReport:
    """Import a file of records (see `read_import`)."""
    return import_records(storage, read_import(path))


def read_import(path: Path) -> bytes:
    """A file of records as bytes (at most MAX_IMPORT_BYTES, a regular file); StorageError, one line, if not."""
    shown = visible(str(path))
    try:
        with open_to_read(path) as handle:  # a regular file only: a FIFO or device is refused, not waited on
            data = handle.read(MAX_IMPORT_BYTES + 1)
    except OSError as exc:
        raise StorageError(_("cannot read {file}: {error}").format(file=shown, error=exc.strerror)) from None
    if len(data) > MAX_IMPORT_BYTES:
        message = _("{file} is larger than {most} bytes; split it to import it")
        raise StorageError(message.format(file=shown, most=MAX_IMPORT_BYTES))
    return data


def _entries(data: bytes) -> list[tuple[int, bytes | Any]]:
    """(number, entry): a JSON array's items, one whole (indented) record, or the non-empty lines."""
    data = data.removeprefix(b"\xef\xbb\xbf")
    head = data.lstrip()[:1]
    if head == b"[":  # an array (lines of JSON never start with one): read as every record is (`read_json`)
        try:
            whole = read_json(data)
        except RecordError as exc:  # the file is one bad value
            raise RecordError(_("not a JSON array of records: {error}").format(error=exc)) from None
        if isinstance(whole, list):  # numbered by position
            return list(enumerate(whole, start=1))
    if head == b"{":
        try:
            whole = pydantic_core.from_json(data)  # depth- and number-limited; ValueError when not one JSON value
        except ValueError:
            whole = None
        if isinstance(whole, dict):  # a single record, possibly indented over many lines (read by `Record.loads`)
            return [(1, data)]
    return [(n, line) for n, line in enumerate(data.splitlines(), start=1) if line.strip()]


def _parse(entry: bytes | Any) -> Record:
    if isinstance(entry, bytes):
        return Record.loads(entry)
    if not isinstance(entry, dict):
        kind = type(entry).__name__ if entry is not None else "null"
        raise RecordError(_("a record is a JSON object, not {kind}").format(kind=kind))
    return Record.from_json(entry)


def import_records(storage: Storage, data: str | bytes) -> ImportReport:
    """Store every record that replays; see `Storage.merge` for what happens to a known game."""
    report = ImportReport()
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if len(raw) > MAX_IMPORT_BYTES:
        report.rejected.append((1, f"the import is larger than {MAX_IMPORT_BYTES} bytes; split it"))
        return report
    try:
        entries = _entries(raw)
    except RecordError as exc:
        report.rejected.append((1, str(exc)))
        return report
    for number, entry in entries:
        try:
            record = _parse(entry)
            replay(record)
        except RecordError as exc:
            report.rejected.append((number, str(exc)))
            continue
        except (ValueError, TypeError, RecursionError, OverflowError) as exc:  # never let a bad line stop the rest
            report.rejected.append((number, f"not a valid record: {type(exc).__name__}"))
            continue
        merged = storage.merge(record)
        if merged.outcome == "imported":
            report.imported += 1
        elif merged.outcome == "updated":
            report.updated += 1
        elif merged.outcome == "duplicate":
            report.duplicates += 1
        else:
            report.conflicts.append((number, merged.reason))
    return report
