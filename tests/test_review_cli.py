"""`pinsetter review RECORD|ID [--json] [--player NAME]`: a record file or a game of the history.

Plain output says the accuracy, the points lost and the costliest decisions in words; bad input
(no such file or game, a game that cannot be reviewed, an unknown player) is one line, exit 2.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pinsetter.cli.app import app, main
from pinsetter.i18n import DEFAULT_LANGUAGE, set_language
from pinsetter.records import PlayerSpec, Record
from pinsetter.session import Match
from pinsetter.storage import Storage

runner = CliRunner()


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """`main(["--lang", "ja", ...])` sets the process's language: English again for whatever runs next."""
    yield
    set_language(DEFAULT_LANGUAGE)


NOTATION = re.compile(r"\b(cross \d|dice \d|tokens [+-])")


def played(game: str, options: dict[str, object], kinds: list[str], seed: int) -> Record:
    players = [PlayerSpec(f"Seat {i + 1}", kind) for i, kind in enumerate(kinds)]
    match = Match.new(game, players, seed, options)
    match.run_bots()
    return match.record


@pytest.fixture
def greedy_file(tmp_path: Path) -> Path:
    """A short Rolling Pins game of the greedy bot, its seat said to be Ann's (a person's)."""
    record = played("rolling-pins", {"pins": 4, "frames": 3}, ["greedy", "optimal"], 2)
    record = replace(record, players=[PlayerSpec("Ann"), record.players[1]])
    path = tmp_path / "game.json"
    record.save(path)
    return path


def one_line_error(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run the command as `pinsetter` does: exit status 2 and one line on stderr."""
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pinsetter: ")
    return lines[0]


def test_plain_review_of_a_record(greedy_file: Path) -> None:
    result = runner.invoke(app, ["review", str(greedy_file)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Ann: accuracy " in out and "%" in out
    assert "points lost to the best moves: " in out
    assert "The costliest decisions:" in out and "you chose: " in out and "best: " in out
    assert "Seat 2" not in out  # the bot's decisions are not reviewed where a human plays
    assert NOTATION.search(out) is None, out


def test_json_review_of_a_record(greedy_file: Path) -> None:
    result = runner.invoke(app, ["review", str(greedy_file), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == "rolling-pins" and data["exact"] is True
    (ann,) = data["players"]
    assert ann["name"] == "Ann" and ann["total_loss"] > 0
    assert 1 <= len(ann["costliest"]) <= 3
    assert all(row["loss"] >= 0 for row in ann["decisions"])


def test_a_named_player(greedy_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = runner.invoke(app, ["review", str(greedy_file), "--player", "Seat 2", "--json"])
    (seat,) = json.loads(result.output)["players"]
    assert seat["name"] == "Seat 2" and seat["total_loss"] <= 1e-9  # the optimal bot
    line = one_line_error(["review", str(greedy_file), "--player", "Bob"], capsys)
    assert "no player 'Bob'" in line and "Ann" in line


def test_a_game_of_the_history_by_its_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "history.sqlite")
    record = played("bowling-solitaire", {"frames": 1}, ["greedy"], 4)
    game_id = Storage(db).save(record)
    result = runner.invoke(app, ["review", str(game_id), "--db", db])
    assert result.exit_code == 0, result.output
    assert f"Review of game {game_id}: Bowling Solitaire" in result.output
    assert "estimated final score" in result.output  # the Solitaire values are said to be estimates
    line = one_line_error(["review", "99", "--db", db], capsys)
    assert line == "pinsetter: no game 99 in the history"


def test_a_missing_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = one_line_error(["review", str(tmp_path / "nothing.json")], capsys)
    assert line == f"pinsetter: {tmp_path / 'nothing.json'}: cannot read the record: No such file or directory"


def test_games_that_cannot_be_reviewed_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tenpins = tmp_path / "tenpins.json"
    played("tenpins", {}, ["random"], 1).save(tenpins)
    assert "Ten Pins (dice) has no decisions" in one_line_error(["review", str(tenpins)], capsys)
    advanced = tmp_path / "advanced.json"
    played("rolling-pins", {"advanced": True}, ["random"], 1).save(advanced)
    assert "advanced Rolling Pins is reviewed once it is solved" in one_line_error(["review", str(advanced)], capsys)


def test_a_record_that_does_not_replay_names_the_file_and_step(
    greedy_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(greedy_file.read_text())
    data["steps"][1]["step"] = "6+6" if data["steps"][1]["step"] != "6+6" else "1+1"
    data.pop("result")
    greedy_file.write_text(json.dumps(data))
    line = one_line_error(["review", str(greedy_file)], capsys)
    assert "game.json" in line and "step 2" in line


def test_the_review_in_japanese(greedy_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "ja", "review", str(greedy_file)]) == 0
    out = capsys.readouterr().out
    assert "Ann" in out and "accuracy" not in out
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", out)
