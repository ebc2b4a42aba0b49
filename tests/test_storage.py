"""The game history on real SQLite files: writers at once, migrations, interrupted writes, imports."""

from __future__ import annotations

import json
import multiprocessing
import os
from pathlib import Path

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from pinsetter.cli.app import app
from pinsetter.records import PlayerSpec, Record
from pinsetter.session import Match
from pinsetter.storage import Storage
from pinsetter.storage import db as dbmod
from pinsetter.storage.stats import player_stats
from pinsetter.storage.transfer import export_jsonl, import_records

runner = CliRunner()


def finished(seed: int, game: str = "tenpins", names: tuple[str, ...] = ("ann", "bob")) -> Record:
    match = Match.new(game, [PlayerSpec(n, "random") for n in names], seed=seed)
    match.run_bots()
    match.record.created = f"2026-01-01T00:00:{seed % 60:02d}+00:00"
    return match.record


def url(path: Path) -> str:
    return f"sqlite:///{path}"


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
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_writer, args=(path, 100 * i)) for i in range(4)]
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
    process = multiprocessing.get_context("spawn").Process(target=_crash_mid_write, args=(path,))
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
    assert version == "0002"


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
    records = [finished(seed) for seed in range(5)]
    for r in records:
        storage.save(r)
    data = player_stats(storage, "ann", "tenpins")
    expected = [r.result["players"][0]["total"] for r in records]  # type: ignore[index]
    assert data["games"] == 5 and data["scores"] == expected
    assert data["best"] == max(expected) and data["worst"] == min(expected)
    assert data["ci95"][0] <= data["average"] <= data["ci95"][1]
    assert 0 <= data["benchmark"]["average_beats"] <= 1
    storage.reset_stats("ann")
    assert player_stats(storage, "ann")["games"] == 0
    assert player_stats(storage, "bob")["games"] == 5
    assert len(storage.history(player="ann")) == 5  # the games stay


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
    assert csv_text.splitlines()[0].startswith("id,date,game")
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
