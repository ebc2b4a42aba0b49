"""Game records: written as the game goes, replayed, verified, resumed."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest

from pinsetter.records import PlayerSpec, Record, RecordError, RecordStep, replay
from pinsetter.session import Match


def finished_record(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    match = Match.new("tenpins", [PlayerSpec("ann", "random"), PlayerSpec("bob", "random")], seed=5, record_path=path)
    match.run_bots()
    return path


def test_record_is_written_after_every_step(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    match = Match.new("tenpins", [PlayerSpec("ann", "random")], seed=3, record_path=path)
    for expected in range(1, 6):
        match.advance()
        assert len(Record.load(path).steps) == expected
    assert not list(tmp_path.glob(".g.json.*")), "no temporary files are left behind"


def test_replay_verifies_a_finished_game(tmp_path: Path) -> None:
    path = finished_record(tmp_path)
    record = Record.load(path)
    state = replay(record)
    assert state.is_terminal()
    assert record.result is not None
    assert [p["total"] for p in record.result["players"]] == state.scores()


def test_a_byte_order_mark_is_read_past_and_an_oversized_file_says_its_size(tmp_path: Path) -> None:
    path = finished_record(tmp_path)
    marked = tmp_path / "marked.json"
    marked.write_bytes(codecs.BOM_UTF8 + path.read_bytes())  # as some editors save it
    assert Record.load(marked) == Record.load(path)
    assert Record.loads("\ufeff" + path.read_text()) == Record.load(path)
    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * 3_000_000)
    with pytest.raises(RecordError, match=r"this one is 3000000$"):
        Record.load(huge)


def test_resume_refuses_a_record_whose_stated_result_is_not_its_game(tmp_path: Path) -> None:
    path = finished_record(tmp_path)

    def lie(data: dict) -> None:  # type: ignore[type-arg]
        data["result"]["players"][0]["total"] += 1

    with pytest.raises(RecordError, match="stated total"):
        Match.resume(edit(path, lie))


def edit(path: Path, change: object) -> Record:
    data = json.loads(path.read_text())
    change(data)  # type: ignore[operator]
    return Record.from_json(data)


def test_replay_names_the_first_illegal_step(tmp_path: Path) -> None:
    path = finished_record(tmp_path)

    def corrupt(data: dict) -> None:  # type: ignore[type-arg]
        data["steps"][1]["step"] = "3+4"  # ann's second ball rolls one die, not two

    with pytest.raises(RecordError) as info:
        replay(edit(path, corrupt))
    assert info.value.step == 2


def test_replay_rejects_wrong_stated_results(tmp_path: Path) -> None:
    path = finished_record(tmp_path)

    def lie(data: dict) -> None:  # type: ignore[type-arg]
        data["result"]["players"][1]["total"] += 1

    with pytest.raises(RecordError, match="player 2 \\(bob\\): stated total"):
        replay(edit(path, lie))


def test_replay_rejects_wrong_actor_and_steps_after_the_end(tmp_path: Path) -> None:
    path = finished_record(tmp_path)

    def wrong_actor(data: dict) -> None:  # type: ignore[type-arg]
        data["steps"][0]["actor"] = 1

    with pytest.raises(RecordError) as info:
        replay(edit(path, wrong_actor))
    assert info.value.step == 1

    def extra(data: dict) -> None:  # type: ignore[type-arg]
        data["steps"].append({"actor": "chance", "step": "1+1"})
        data.pop("result")

    with pytest.raises(RecordError, match="after the game is over") as info:
        replay(edit(path, extra))
    assert info.value.step == len(Record.load(path).steps) + 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not JSON"),
        ("[]", "JSON object"),
        ('{"format": "x"}', "format"),
        ('{"format": "pinsetter-record", "version": 99}', "version"),
        (
            '{"format": "pinsetter-record", "version": 1, "game": "tenpins", "options": {}, '
            '"players": [{"name": "a"}], "steps": [], "seed": "x"}',
            "seed",
        ),
        (
            '{"format": "pinsetter-record", "version": 1, "game": "nope", "options": {}, '
            '"players": [{"name": "a"}], "steps": [], "seed": 1}',
            "unknown game",
        ),
    ],
)
def test_malformed_records(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        replay(Record.loads(text))


def test_resume_continues_exactly_as_uninterrupted(tmp_path: Path) -> None:
    players = [PlayerSpec("ann", "random"), PlayerSpec("bob", "random")]
    whole = Match.new("bowling-dice", players, seed=11)
    whole.run_bots()
    path = tmp_path / "r.json"
    part = Match.new("bowling-dice", players, seed=11, record_path=path)
    for _ in range(17):
        part.advance()
    resumed = Match.resume(Record.load(path), path)
    resumed.run_bots()
    assert [s.text for s in resumed.record.steps] == [s.text for s in whole.record.steps]
    assert replay(Record.load(path)).scores() == whole.state.scores()


def test_player_lists() -> None:
    specs = PlayerSpec.parse_list("ann, bob,bot:random,bot:random")
    assert [(s.name, s.kind) for s in specs] == [
        ("ann", "human"),
        ("bob", "human"),
        ("Rookie bot", "random"),  # bots are named as players are
        ("Rookie bot 2", "random"),
    ]
    with pytest.raises(ValueError, match="twice"):
        PlayerSpec.parse_list("ann,ann")
    with pytest.raises(ValueError, match="names no bot"):
        PlayerSpec.parse_list("bot:")


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"extra": {"note": "a <b> \u00e9", "n": 2, "flag": True}},
        {"result": {"complete": False, "players": []}, "chance": "entered"},
        {"draws": "position", "extra": {"x": 1}, "result": {"complete": True, "players": []}, "undo_used": True},
    ],
)
def test_record_text_is_the_json_of_the_record(changes: dict[str, object]) -> None:
    """`to_text` (steps encoded once each, for the live tables' writes) is exactly `json.dumps(to_json())`."""
    import dataclasses

    match = Match.new("tenpins", [PlayerSpec("ann"), PlayerSpec('b"ob\\', "random")], seed=3)
    for _ in range(7):
        match.apply(match.draw_chance())
    record = dataclasses.replace(match.record, **changes)  # type: ignore[arg-type]
    assert record.to_text() == json.dumps(record.to_json())
    assert Record.loads(record.to_text()) == record
    empty = dataclasses.replace(record, steps=[])
    assert empty.to_text() == json.dumps(empty.to_json())


def test_record_text_kept_between_writes_follows_every_change_of_the_steps() -> None:
    """`to_text` keeps the text of the steps it made and adds only new ones: the same text after each step,
    after an undo (steps taken back and others made) and after the steps are replaced."""
    match = Match.new("rolling-pins", [PlayerSpec("ann")], seed=4, options={"frames": 3})
    record = match.record
    undone = 0
    for moment in range(200):
        state = match.state
        if state.is_terminal():
            break
        if state.is_chance_node():
            match.apply(match.draw_chance())
        else:
            match.apply(list(state.legal_actions())[moment % len(state.legal_actions())])
            if moment % 3 == 0 and match.can_undo() is None:
                match.undo()
                undone += 1
        assert match.record is record
        assert record.to_text() == json.dumps(record.to_json())
        if moment % 13 == 6:
            record.steps[:] = [RecordStep(s.actor, s.text) for s in record.steps]  # equal, not the same objects
            assert record.to_text() == json.dumps(record.to_json())
    assert undone > 0
