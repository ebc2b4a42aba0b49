"""Export and import of the game history; imports are verified by replay."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field

from pinsetter.records import Record, RecordError, replay
from pinsetter.storage.db import Storage

__all__ = ["ImportReport", "export_csv", "export_jsonl", "import_records"]


def export_jsonl(storage: Storage) -> str:
    """One full record per line, oldest first: `pinsetter import` reads it back."""
    return "".join(json.dumps(g.record.to_json(), sort_keys=True) + "\n" for g in storage.all_games())


def export_csv(storage: Storage) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["id", "date", "game", "options", "players", "scores", "winner", "finished"])
    for stored in storage.all_games():
        s = stored.summary()
        writer.writerow(
            [
                s["id"],
                s["date"],
                s["game"],
                json.dumps(s["options"], sort_keys=True),
                ";".join(p["name"] for p in s["players"]),
                ";".join("" if x is None else str(x) for x in s["scores"]),
                s["winner"] or "",
                s["finished"],
            ]
        )
    return out.getvalue()


@dataclass
class ImportReport:
    imported: int = 0
    updated: int = 0
    duplicates: int = 0
    rejected: list[tuple[int, str]] = field(default_factory=list)


def import_records(storage: Storage, text: str) -> ImportReport:
    """Store every record that replays; a game already stored is a duplicate unless this one is longer."""
    report = ImportReport()
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, dict):  # a single (possibly indented) record file
        lines = [(1, text)]
    elif isinstance(whole, list):  # a JSON array of records: numbered by position
        lines = [(n, json.dumps(item)) for n, item in enumerate(whole, start=1)]
    else:
        lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    for number, line in lines:
        try:
            record = Record.loads(line)
            replay(record)
        except RecordError as exc:
            report.rejected.append((number, str(exc)))
            continue
        known = storage.contains(record)
        if known is not None and known.steps >= len(record.steps):
            report.duplicates += 1
            continue
        storage.save(record)
        if known is None:
            report.imported += 1
        else:
            report.updated += 1
    return report
