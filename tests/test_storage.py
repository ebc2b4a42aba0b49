"""The game history on real SQLite files: writers at once, migrations, interrupted writes, imports."""

from __future__ import annotations

import csv
import io
import json
import multiprocessing
import os
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from pinsetter.cli.app import app
from pinsetter.core.seeds import SEED_MAX
from pinsetter.records import PlayerSpec, Record, replay
from pinsetter.session import Match
from pinsetter.storage import Storage, StorageError, normalise_url, transfer
from pinsetter.storage import db as dbmod
from pinsetter.storage.stats import player_stats
from pinsetter.storage.transfer import csv_cell, export_csv, export_jsonl, import_file, import_records

runner = CliRunner()
# Real processes, started from a fork server that imported the heavy modules once (not forks of
# the test runner): see tests/test_storage_concurrency.py.
processes = multiprocessing.get_context("forkserver")
processes.set_forkserver_preload(
    ["pytest", "sqlalchemy", "alembic.command", "psycopg", "pinsetter.session", "pinsetter.storage.transfer"]
)


def finished(seed: int, game: str = "tenpins", names: tuple[str, ...] = ("ann", "bob")) -> Record:
    match = Match.new(game, [PlayerSpec(n, "random") for n in names], seed=seed)
    match.run_bots()
    match.record.created = f"2026-01-01T00:00:{seed % 60:02d}+00:00"
    return match.record


def as_humans(record: Record) -> Record:
    """The record with every seat a human's (bots play it through; statistics count humans by default)."""
    record.players = [PlayerSpec(p.name, "human") for p in record.players]
    return record


def url(path: Path) -> str:
    return f"sqlite:///{path}"


def extreme_records() -> list[Record]:
    """Valid records at the edges of the format: every game, the largest seed, 40-character
    names, a 200-character bot kind and free-text start time with a NUL and non-ASCII text.

    No record from outside names a bot that does not exist (docs/records.md): such kinds are in
    histories written before that rule, which the storage still keeps and reads."""
    records = []
    for number, game in enumerate(("tenpins", "bowling-dice", "rolling-pins", "bowling-solitaire")):
        match = Match.new(game, [PlayerSpec(chr(0x4E00 + number) * 40, "random")], seed=SEED_MAX)
        match.run_bots()
        record = match.record
        record.players = [PlayerSpec(record.players[0].name, "k\x00" + "é" * 198)]
        record.created = "2026\x00" + "ü" * 195
        replay(record)
        records.append(Record.loads_stored(json.dumps(record.to_json())))
    return records


def test_save_is_an_upsert_and_history_filters(tmp_path: Path) -> None:
    storage = Storage(url(tmp_path / "h.sqlite"))
    a, b = finished(1), finished(2, names=("ann",))
    first = storage.save(a)
    assert storage.save(a) == first
    storage.save(b)
    assert len(storage.history()) == 2
    assert len(storage.history(player="bob")) == 1
    assert len(storage.history(game="rolling-pins")) == 0
    assert len(storage.history(limit=1)) == 1
    summary = storage.get(first).summary()  # type: ignore[union-attr]
    assert summary["finished"] and summary["scores"] == [p["total"] for p in a.result["players"]]  # type: ignore[index]


def _writer(path: str, start: int) -> None:
    storage = Storage(path)
    for seed in range(start, start + 8):
        storage.save(finished(seed))


def test_concurrent_writers_lose_nothing(tmp_path: Path) -> None:
    path = url(tmp_path / "c.sqlite")
    Storage(path)  # create the schema first
    workers = [processes.Process(target=_writer, args=(path, 100 * i)) for i in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(120)
        assert w.exitcode == 0
    storage = Storage(path)
    assert len(storage.all_games()) == 32
    assert len(storage.results_for("ann")) == 32


def _crash_mid_write(path: str) -> None:
    storage = Storage(path)
    with storage.transaction() as connection:
        connection.execute(dbmod.games.insert().values(
            uid="x", game="tenpins", options="{}", players="[]", seed=1, created="c", updated="u",
            finished=False, steps=0, record="{}",
        ))  # fmt: skip
        os._exit(1)  # the process dies before the transaction commits


def test_an_interrupted_write_leaves_the_history_intact(tmp_path: Path) -> None:
    path = url(tmp_path / "i.sqlite")
    Storage(path).save(finished(7))
    process = processes.Process(target=_crash_mid_write, args=(path,))
    process.start()
    process.join(60)
    assert process.exitcode == 1
    storage = Storage(path)
    assert [g.record.seed for g in storage.all_games()] == [7]


def test_a_failed_save_is_rolled_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    storage = Storage(url(tmp_path / "r.sqlite"))

    def broken(*_args: object) -> list[dict[str, object]]:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(dbmod, "result_rows", broken)
    with pytest.raises(RuntimeError):
        storage.save(finished(3))
    assert storage.all_games() == []


def test_migration_from_the_first_schema_keeps_games_and_fills_results(tmp_path: Path) -> None:
    path = url(tmp_path / "m.sqlite")
    old = Storage(path, revision="0001")
    record = finished(5)
    with old.transaction() as connection:
        assert "results" not in sa.inspect(connection).get_table_names()
        connection.execute(sa.text(
            "INSERT INTO games (uid, game, options, players, seed, created, updated, finished, steps, record) "
            "VALUES ('u1', 'tenpins', '{}', '[]', 5, :created, :created, 1, :steps, :record)"
        ), {"created": record.created, "steps": len(record.steps), "record": json.dumps(record.to_json())})  # fmt: skip
    new = Storage(path)
    assert [g.record.seed for g in new.all_games()] == [5]
    scores = [r["score"] for r in new.results_for()]
    assert scores == [p["total"] for p in record.result["players"]]  # type: ignore[index]
    with new.transaction() as connection:
        version = connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
    assert version == head_revision()


def test_import_reports_bad_lines_and_keeps_the_rest(tmp_path: Path) -> None:
    storage = Storage(url(tmp_path / "x.sqlite"))
    good, other = finished(1), finished(2)
    illegal = good.to_json()
    illegal["steps"][0]["step"] = "9+9"
    lying = other.to_json()
    lying["result"]["players"][0]["total"] += 1
    lines = [
        json.dumps(good.to_json()),
        "{not json",
        json.dumps(illegal),
        json.dumps(lying),
        json.dumps(good.to_json()),
        json.dumps(other.to_json()),
    ]
    report = import_records(storage, "\n".join(lines))
    assert (report.imported, report.duplicates) == (2, 1)
    assert [line for line, _ in report.rejected] == [2, 3, 4]
    assert "not JSON" in report.rejected[0][1]
    assert "step 1" in report.rejected[1][1]
    assert "stated total" in report.rejected[2][1]


def test_export_then_import_gives_the_same_history(tmp_path: Path) -> None:
    source = Storage(url(tmp_path / "a.sqlite"))
    for seed in range(6):
        source.save(finished(seed, game="bowling-dice" if seed % 2 else "tenpins"))
    unfinished = Match.new("tenpins", [PlayerSpec("cy", "random")], seed=9)
    for _ in range(5):
        unfinished.advance()
    source.save(unfinished.record)
    target = Storage(url(tmp_path / "b.sqlite"))
    report = import_records(target, export_jsonl(source))
    assert report.imported == 7 and not report.rejected

    def view(storage: Storage) -> list[dict[str, object]]:
        return [{k: v for k, v in g.summary().items() if k != "id"} for g in storage.history()]

    assert view(target) == view(source)
    assert export_jsonl(target) == export_jsonl(source)


def test_stats_and_reset(tmp_path: Path) -> None:
    storage = Storage(url(tmp_path / "s.sqlite"))
    records = [as_humans(finished(seed)) for seed in range(5)]
    for r in records:
        storage.save(r)
    data = player_stats(storage, "ann", "tenpins")["series"][0]
    expected = [r.result["players"][0]["total"] for r in records]  # type: ignore[index]
    assert data["games"] == 5 and data["scores"] == expected
    assert data["best"] == max(expected) and data["worst"] == min(expected)
    assert data["ci95"][0] <= data["average"] <= data["ci95"][1]
    assert 0 <= data["benchmark"]["average_beats"] <= 1
    storage.reset_stats("ann")
    assert player_stats(storage, "ann")["games"] == 0
    assert player_stats(storage, "bob")["games"] == 5
    assert len(storage.history(player="ann")) == 5  # the games stay


def test_everyone_s_statistics_count_games_not_seats_and_options_pick_the_odds(tmp_path: Path) -> None:
    storage = Storage(url(tmp_path / "s.sqlite"))
    three = Match.new("bowling-dice", [PlayerSpec(n, "random") for n in ("ann", "bob", "cy")], seed=3)
    three.run_bots()
    storage.save(as_humans(three.record))
    everyone = player_stats(storage, None, "bowling-dice")["series"][0]
    assert everyone["games"] == 1 and everyone["results"] == 3 and len(everyone["scores"]) == 3
    assert everyone["trend_per_game"] is None  # three players' scores in one game are no trend
    assert isinstance(player_stats(storage, "ann", "bowling-dice")["series"][0]["trend_per_game"], float)

    def played(frames: int, seed: int) -> None:
        match = Match.new("tenpins", [PlayerSpec("ann", "random")], seed=seed, options={"frames": frames})
        match.run_bots()
        storage.save(as_humans(match.record))

    played(2, 1)
    (short,) = player_stats(storage, "ann", "tenpins")["series"]
    assert 0 < short["benchmark"]["exact_mean"] < 20  # two frames' odds, not a whole game's 74.48
    played(10, 2)
    # Another length is another series, each against its own odds.
    means = sorted(s["benchmark"]["exact_mean"] for s in player_stats(storage, "ann", "tenpins")["series"])
    assert means[0] < 20 and means[1] == pytest.approx(74.479166666666667)

    # The same options written two ways ({} from an older or imported record, every default named) agree.
    alike = Storage(url(tmp_path / "alike.sqlite"))
    for seed, named in ((4, True), (5, False)):
        match = Match.new("tenpins", [PlayerSpec("ann", "random")], seed=seed)
        match.run_bots()
        alike.save(as_humans(match.record if named else replace(match.record, options={})))
    (both,) = player_stats(alike, "ann", "tenpins")["series"]
    assert both["games"] == 2 and both["benchmark"]["exact_mean"] == pytest.approx(74.479166666666667)


def test_cli_history_show_stats_resume(tmp_path: Path) -> None:
    db = url(tmp_path / "cli.sqlite")
    result = runner.invoke(
        app, ["play", "tenpins", "-p", "ann,bot:random", "--seed", "2", "--db", db], input="\nquit\n"
    )
    assert result.exit_code == 0, result.output
    listing = json.loads(runner.invoke(app, ["history", "--db", db, "--json"]).output)
    assert len(listing) == 1 and listing[0]["finished"] is False
    game_id = listing[0]["id"]
    assert "unfinished" in runner.invoke(app, ["show", str(game_id), "--db", db]).output
    resumed = runner.invoke(app, ["play", "--resume", str(game_id), "--db", db], input="\n" * 30)
    assert resumed.exit_code == 0, resumed.output
    listing = json.loads(runner.invoke(app, ["history", "--db", db, "--json"]).output)
    assert len(listing) == 1 and listing[0]["finished"] is True
    stats = json.loads(runner.invoke(app, ["stats", "--player", "ann", "--db", db, "--json"]).output)
    assert stats["games"] == 1
    plot = tmp_path / "s.png"
    assert (
        runner.invoke(app, ["stats", "--player", "ann", "--game", "tenpins", "--db", db, "--plot", str(plot)]).exit_code
        == 0
    )
    assert plot.read_bytes()[:4] == b"\x89PNG"
    refused = runner.invoke(app, ["stats", "--reset", "--player", "ann", "--db", db], input="n\n")
    assert refused.exit_code == 1
    assert json.loads(runner.invoke(app, ["stats", "--player", "ann", "--db", db, "--json"]).output)["games"] == 1
    assert runner.invoke(app, ["stats", "--reset", "--player", "ann", "--db", db, "--yes"]).exit_code == 0
    assert json.loads(runner.invoke(app, ["stats", "--player", "ann", "--db", db, "--json"]).output)["games"] == 0


def test_cli_export_import(tmp_path: Path) -> None:
    db = url(tmp_path / "e.sqlite")
    Storage(db).save(finished(1))
    out = tmp_path / "all.jsonl"
    assert runner.invoke(app, ["export", "--db", db, "--out", str(out)]).exit_code == 0
    csv_text = runner.invoke(app, ["export", "--db", db, "--format", "csv"]).output
    assert csv_text.splitlines()[0].startswith('"id","date","game"')
    out.write_text(out.read_text() + "garbage\n")
    result = runner.invoke(app, ["import", str(out), "--db", url(tmp_path / "f.sqlite")])
    assert result.exit_code == 2
    assert "all.jsonl:2: rejected" in result.output and "imported 1" in result.output


def test_a_game_plays_on_when_the_history_cannot_be_opened(tmp_path: Path) -> None:
    bad = f"sqlite:///{tmp_path / 'missing-dir' / 'x.sqlite'}"
    record = tmp_path / "g.json"
    args = ["play", "tenpins", "-p", "bot:random", "--seed", "1", "--db", bad, "--record", str(record)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "not kept in the history" in result.output
    assert json.loads(record.read_text())["result"]["complete"] is True


# --- where the history is -------------------------------------------------------------------


def test_a_plain_path_is_a_sqlite_file_and_its_folder_is_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "new" / "deeper" / "games.sqlite"
    assert normalise_url(str(path)).startswith("sqlite:///")
    Storage(str(path)).save(finished(1))
    assert path.is_file()
    assert [g.record.seed for g in Storage(url(path)).all_games()] == [1]  # the same file by its URL
    odd = tmp_path / "a?b#c d%20" / "h.sqlite"  # URL-special characters in a path are a file name
    Storage(str(odd)).save(finished(2))
    assert odd.is_file()
    monkeypatch.setenv("PINSETTER_DB", str(tmp_path / "env" / "e.sqlite"))
    Storage().save(finished(3))
    assert (tmp_path / "env" / "e.sqlite").is_file()


def test_a_history_that_cannot_be_opened_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    cases = [
        str(tmp_path),  # a folder
        str(tmp_path / "file" / "below" / "h.sqlite"),  # its folder cannot be made
        "nosuchdriver://x",
        "postgresql+psycopg://u:secret@/x?host=/no/such/socket",
        f"sqlite:///{tmp_path / 'missing-dir' / 'x.sqlite'}",  # a URL is taken as it is
    ]
    for location in cases:
        with pytest.raises(StorageError) as caught:
            Storage(location)
        message = str(caught.value)
        assert message and "\n" not in message and "secret" not in message, location


def test_a_history_from_a_newer_pinsetter_is_refused_in_one_line(tmp_path: Path) -> None:
    storage = Storage(url(tmp_path / "n.sqlite"))
    with storage.transaction() as connection:
        connection.execute(sa.text("UPDATE alembic_version SET version_num = '0999'"))
    with pytest.raises(StorageError, match="revision 0999, made by a newer pinsetter"):
        Storage(url(tmp_path / "n.sqlite"))


def test_a_half_made_schema_left_by_an_older_version_is_completed(tmp_path: Path) -> None:
    """Older versions ran DDL outside a transaction: a kill could leave tables but no version stamp."""
    path = tmp_path / "half.sqlite"
    record = finished(4)
    with sqlite3.connect(path) as connection:
        connection.execute(
            "CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, uid VARCHAR(64) NOT NULL UNIQUE, "
            "game VARCHAR(40) NOT NULL, options TEXT NOT NULL, players TEXT NOT NULL, seed BIGINT NOT NULL, "
            "created VARCHAR(40) NOT NULL, updated VARCHAR(40) NOT NULL, finished BOOLEAN NOT NULL, "
            "steps INTEGER NOT NULL, record TEXT NOT NULL)"
        )
        connection.execute(
            "INSERT INTO games (uid, game, options, players, seed, created, updated, finished, steps, record) "
            "VALUES ('u', 'tenpins', '{}', '[]', 4, ?, ?, 1, ?, ?)",
            (record.created, record.created, len(record.steps), json.dumps(record.to_json())),
        )
        connection.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL PRIMARY KEY)")
    storage = Storage(str(path))
    assert storage.revision() == head_revision()
    assert [g.record.seed for g in storage.all_games()] == [4]
    assert len(storage.results_for("ann")) == 1


# --- chance entered by hand ------------------------------------------------------------------


def entered(seed: int) -> Record:
    """A finished game whose chance steps are not the seed's: the record says it was entered."""
    record = finished(seed)
    record.seed = seed + 1000
    record.chance = "entered"
    replay(record)
    return record


def test_entered_chance_is_stored_marked_and_left_out_of_stats_unless_asked(tmp_path: Path) -> None:
    storage = Storage(url(tmp_path / "e.sqlite"))
    storage.save(finished(1))
    game_id = storage.save(entered(2))
    assert storage.get(game_id).summary()["chance"] == "entered"  # type: ignore[union-attr]
    assert [g.summary()["chance"] for g in storage.history()] == ["entered", "seeded"]
    plain = player_stats(storage, "ann", "tenpins", include_bots=True)
    assert (plain["games"], plain["entered_left_out"]) == (1, 1)
    every = player_stats(storage, "ann", "tenpins", include_entered=True, include_bots=True)
    assert (every["games"], every["entered_left_out"]) == (2, 0)
    assert len(storage.results_for("ann")) == 1 and len(storage.results_for("ann", include_entered=True)) == 2


def test_migration_0003_marks_stored_games_whose_chance_was_entered(tmp_path: Path) -> None:
    path = url(tmp_path / "m3.sqlite")
    old = Storage(path, revision="0002")
    with old.transaction() as connection:
        for uid, record in (("s", finished(1)), ("e", entered(2))):
            connection.execute(sa.text(
                "INSERT INTO games (uid, game, options, players, seed, created, updated, finished, steps, record) "
                "VALUES (:uid, 'tenpins', '{}', '[]', 1, :created, :created, 1, :steps, :record)"
            ), {"uid": uid, "created": record.created, "steps": len(record.steps),
                "record": json.dumps(record.to_json())})  # fmt: skip
    new = Storage(path)
    assert sorted(g.chance for g in new.all_games()) == ["entered", "seeded"]


# --- import: never a silent replacement, never a crash ------------------------------------------


def prefix(record: Record, steps: int) -> Record:
    """The same game seen earlier: its first `steps` steps, no stated result."""
    return replace(record, steps=record.steps[:steps], result=None)


def test_import_updates_a_game_it_extends_and_refuses_a_different_game_with_the_same_identity(
    tmp_path: Path,
) -> None:
    storage = Storage(url(tmp_path / "x.sqlite"))
    game = finished(1)
    other = replace(finished(2), seed=game.seed, created=game.created, chance="entered")
    replay(other)
    assert dbmod.game_uid(other) == dbmod.game_uid(game)  # the same identity, a different game
    lines = [prefix(game, 6), game, prefix(game, 3), other, game]
    report = import_records(storage, "\n".join(json.dumps(r.to_json()) for r in lines))
    assert (report.imported, report.updated, report.duplicates, report.rejected) == (1, 1, 2, [])
    assert [line for line, _ in report.conflicts] == [4]
    assert "different steps from step" in report.conflicts[0][1] and "not replaced" in report.conflicts[0][1]
    assert [g.record.to_json() for g in storage.all_games()] == [game.to_json()]


def test_import_never_raises_on_hostile_input(tmp_path: Path) -> None:
    storage = Storage(url(tmp_path / "h.sqlite"))
    good, fifth, sixth, seventh = (json.dumps(finished(n).to_json()).encode() for n in (1, 5, 6, 7))
    huge_seed = good.replace(b'"seed": 1,', b'"seed": 1' + b"0" * 5000 + b",")
    cases: dict[str, tuple[bytes, int]] = {  # input, how many records it should store
        "deep array": (b"[" * 100_000 + b"]" * 100_000, 0),
        "deep object": (b'{"a":' * 100_000 + b"1" + b"}" * 100_000, 0),
        "deep line": (b"\n".join([good, b"[" * 50_000]), 1),
        "huge number": (huge_seed + b"\n" + b'{"x": 1e999999}', 0),
        "huge number in an array": (b"[" + huge_seed + b"]", 0),
        "not UTF-8": (b"\xff\xfe\x00\x80garbage\n" + fifth.replace(b"ann", b"a\xe9n") + b"\n" + fifth, 1),
        "array of non-objects": (b'[1, "x", null, [], {}, true]', 0),
        "array of records": (b"[" + sixth + b", " + seventh + b"]", 2),
        "one indented record": (finished(3).dumps().encode(), 1),
        "byte order mark": (b"\xef\xbb\xbf" + json.dumps(finished(4).to_json()).encode(), 1),
        "empty": (b"", 0),
    }
    before = 0
    for name, (data, stored) in cases.items():
        report = import_records(storage, data)
        after = len(storage.all_games())
        assert after - before == stored, name
        assert report.imported + report.updated + report.duplicates + len(report.rejected) >= 1 or not data, name
        assert all("\n" not in reason for _, reason in report.rejected), name
        before = after
    array = import_records(Storage(url(tmp_path / "a.sqlite")), cases["array of non-objects"][0])
    assert [n for n, _ in array.rejected] == [1, 2, 3, 4, 5, 6]
    assert "a record is a JSON object, not int" in array.rejected[0][1]
    assert import_records(storage, "text with a lone surrogate \ud800").rejected


def test_a_key_given_twice_is_refused_in_lines_and_in_arrays(tmp_path: Path) -> None:
    """`import` reads every record as `replay` does (`read_json`): the line, or the array, that gives
    a key twice is refused, whichever value a reader would keep."""
    storage = Storage(url(tmp_path / "twice.sqlite"))
    good, other = json.dumps(finished(1).to_json()), json.dumps(finished(2).to_json())
    twice = other.replace('"seed": ', '"seed": 99, "seed": ', 1)
    report = import_records(storage, f"{good}\n{twice}\n")
    assert report.imported == 1 and report.rejected == [(2, "the key 'seed' is given twice in one object")]
    kinds_twice = other.replace('"kind": ', '"kind": "nosuchbot", "kind": ', 1)
    report = import_records(storage, "[" + kinds_twice + "]")
    assert report.imported == 0 and "the key 'kind' is given twice" in report.rejected[0][1]
    assert len(storage.all_games()) == 1


def test_import_file_reads_bytes_up_to_a_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    storage = Storage(url(tmp_path / "f.sqlite"))
    source = tmp_path / "in.jsonl"
    source.write_bytes(json.dumps(finished(1).to_json()).encode() + b"\n\xff\n")
    report = import_file(storage, source)
    assert report.imported == 1 and [n for n, _ in report.rejected] == [2]
    monkeypatch.setattr(transfer, "MAX_IMPORT_BYTES", 100)
    with pytest.raises(StorageError, match="larger than 100 bytes"):
        import_file(storage, source)
    with pytest.raises(StorageError, match="cannot read"):
        import_file(storage, tmp_path / "missing.jsonl")


# --- CSV export and odd but valid records ---------------------------------------------------------


def test_csv_export_defuses_formulas_in_names(tmp_path: Path) -> None:
    storage = Storage(url(tmp_path / "c.sqlite"))
    names = ('=HYPERLINK("http://x","y")', "@SUM(A1)", "+1", "-2", "ann")
    storage.save(finished(1, names=names))
    storage.save(finished(2, names=("=1+1",)))
    rows = list(csv.reader(io.StringIO(export_csv(storage))))
    assert rows[0][-1] == "chance"
    cells = [cell for row in rows[1:] for cell in row]
    assert not any(cell.startswith(transfer.FORMULA_START) for cell in cells)
    assert rows[1][4].split(";") == ["'" + n if n[0] in "=@+-" else n for n in names]
    assert rows[2][6] == "'=1+1"  # the winner
    assert csv_cell("a=b") == "a=b" and csv_cell("-") == "'-" and csv_cell("\x1b[31m") == "\\x1b[31m"


def test_save_never_crashes_on_a_record_that_replays(tmp_path: Path) -> None:
    storage = Storage(url(tmp_path / "big.sqlite"))
    for record in extreme_records():
        game_id = storage.save(record)
        stored = storage.get(game_id)
        assert stored is not None and stored.record.to_json() == record.to_json()
    assert len(storage.results_for(include_entered=True)) == 4


def test_a_record_that_could_not_be_read_back_is_refused_not_stored(tmp_path: Path) -> None:
    """A lone surrogate (a non-UTF-8 byte in a command-line argument) is not valid JSON text.

    PlayerSpec refuses such a name on entry; the storage guards the history on its own too.
    """
    storage = Storage(url(tmp_path / "s.sqlite"))
    record = finished(1)
    with pytest.raises(ValueError, match="U\\+DCFF"):
        PlayerSpec("a\udcff", "random")
    forged = object.__new__(PlayerSpec)
    object.__setattr__(forged, "name", "a\udcff")
    object.__setattr__(forged, "kind", "random")
    record.players[0] = forged
    with pytest.raises(StorageError, match="cannot be kept in the history"):
        storage.save(record)
    assert storage.all_games() == [] and storage.history() == []


def head_revision() -> str:
    """The newest migration, as Alembic finds it (tests need not change with each new migration)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from pinsetter.storage.db import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


@pytest.mark.parametrize(
    ("before", "added"),
    [
        ("0006", {"accounts", "sessions"}),
        ("0007", {"ratings", "rating_changes"}),
        ("0008", {"daily_secret", "daily_games"}),
        ("0009", {"daily_odds"}),
    ],
    ids=["0007-accounts", "0008-ratings", "0009-daily", "0010-daily-odds"],
)
def test_a_migration_adds_its_tables_and_runs_again_harmlessly(tmp_path: Path, before: str, added: set[str]) -> None:
    path = f"sqlite:///{tmp_path / 'm.sqlite'}"
    with Storage(path, revision=before).engine.begin() as connection:
        assert not added & set(sa.inspect(connection).get_table_names())
    new = Storage(path)
    with new.transaction() as connection:
        assert added <= set(sa.inspect(connection).get_table_names())
        connection.execute(sa.text(f"UPDATE alembic_version SET version_num = '{before}'"))  # as if half made
    again = Storage(path)  # the tables exist: kept, and the revision moves on
    assert again.revision() == new.revision() == head_revision()
