"""A corpus of bad inputs, kept so that every one found by fuzzing stays a clear one-line error.

Each case runs the real command line in this process (`pinsetter.cli.app.main`)
and asserts: exit status 2, exactly one line on stderr, no traceback. The
corpus holds command lines (bad numbers, paths, names, options, notations)
and mutated records of every game (wrong types, missing or extra fields,
forged chance, wrong results, hostile names, files named inside options,
deep nesting, oversized values), each replayed, imported and resumed.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pinsetter.cli.app import main
from pinsetter.records import PlayerSpec
from pinsetter.session import Match

GAMES = ("tenpins", "bowling-dice", "rolling-pins", "bowling-solitaire")

COMMAND_LINES: list[list[str]] = [
    # numbers: not ASCII whole numbers, or out of range
    ["play", "tenpins", "--seed", "1.5"],
    ["play", "tenpins", "--seed", "-1"],
    ["play", "tenpins", "--seed", "1e3"],
    ["play", "tenpins", "--seed", "\N{ARABIC-INDIC DIGIT THREE}"],
    ["play", "tenpins", "--seed", "9" * 30],
    ["play", "tenpins", "--seed", str(2**64)],
    ["play", "tenpins", "--seed", ""],
    ["show", "1e3"],
    ["show", "0"],
    ["show", "-5"],
    ["show", "abc"],
    ["play", "--resume", str(2**63)],  # a game id no database row can have
    ["history", "--game", "chess"],
    ["stats", "--game", "chess"],
    ["serve", "--origin", "bowl.example"],  # an origin has a scheme
    ["serve", "--origin", "https://bowl.example/lobby"],  # and no path
    ["serve", "--origin", "https://bowl.example#top"],  # nothing a browser's Origin never has
    ["serve", "--origin", "https://ann@bowl.example"],
    ["play", "tenpins", "-p", "bot:random", "-o", "frames=1", "-o", "frames=2"],  # which one?
    ["analyze", "bowling-dice", "--dice", "a.json", "--option", "dice=X--PPP"],  # which dice?
    ["perft", "bowling-solitaire", "--deal", "pins=+6,10,9,8,1,9,6,2,2,5;piles=3,4,3,10,4|8,5,1|7,7"],
    [
        "perft",
        "bowling-solitaire",
        "--deal",
        "pins=\N{FULLWIDTH DIGIT SIX},10,9,8,1,9,6,2,2,5;piles=3,4,3,10,4|8,5,1|7,7",
    ],
    ["perft", "bowling-solitaire", "--deal", "pins=6_0,10,9,8,1,9,6,2,2,5;piles=3,4,3,10,4|8,5,1|7,7"],
    ["play", "--resume", "9" * 30],
    ["simulate", "tenpins", "--workers", "0"],
    ["simulate", "tenpins", "--workers", "-2"],
    ["simulate", "tenpins", "--games", "0"],
    ["simulate", "tenpins", "--games", "1e20"],
    ["simulate", "tenpins", "--games", str(10**20)],
    ["simulate", "tenpins", "--games", "1_000"],
    ["simulate", "tenpins", "--seed", "x"],
    ["history", "--limit", "-1"],
    ["history", "--limit", "0"],
    ["history", "--limit", "ten"],
    ["analyze", "tenpins", "--players", "0"],
    ["analyze", "tenpins", "--players", "\N{FULLWIDTH DIGIT TWO}"],
    # scoring notation
    ["score", "10", "7", "3", "9", "0", "11"],
    ["score", "100"],
    ["score", ""],
    ["score", "\N{SUPERSCRIPT TWO}"],
    ["score", "\N{FULLWIDTH DIGIT ONE}\N{FULLWIDTH DIGIT ZERO}"],
    ["score", "X", "X", "X", "X", "X", "X", "X", "X", "X", "X", "X", "X", "X"],
    ["score", "7", "5"],
    ["score", "/"],
    ["score", "X", "10", "X"],
    ["score", "9" * 40],
    ["score", "\x1b[2J"],
    ["score", "XXXX"],  # a token is one frame (docs/cli.md)
    ["score", "7/X"],
    ["score", "81X"],
    ["score", "X", "7", "2"],  # and one frame is one token
    ["score", "X", "X", "X", "X", "X", "X", "X", "X", "X", "X", "X", "X"],  # the tenth is XXX
    # games, players, options
    ["play", ""],
    ["play", "chess"],
    ["rules", "chess"],
    ["rules", ""],
    ["play", "tenpins", "--players", ""],
    ["play", "tenpins", "--players", "ann,ann"],
    ["play", "tenpins", "--players", "bot:"],
    ["play", "tenpins", "--players", "ann,,bob"],
    ["play", "tenpins", "--players", "\x1b[2Jann"],
    ["play", "tenpins", "--players", "bell\x07"],
    ["play", "tenpins", "--players", "x" * 41],
    ["play", "tenpins", "--players", "\u202eevil"],
    ["play", "tenpins", "--players", "bot:nosuchbot"],
    ["play", "tenpins", "--players", "\u3164"],  # names that show as a blank, or nothing
    ["play", "tenpins", "--players", "\u2800"],
    ["play", "tenpins", "--players", "ann,\u115f\u1160"],
    ["play", "tenpins", "--players", "\uffa0"],
    ["play", "tenpins", "--players", "\u3000"],
    ["play", "tenpins", "--players", "\u200d"],
    ["play", "tenpins", "--players", "ann,ann\ufe0f"],  # one name, as names compare
    ["play", "tenpins", "--players", "Ann,ann"],
    ["play", "tenpins", "--players", "ann,\uff21\uff2e\uff2e"],
    ["play", "tenpins", "--option", "colour=red"],
    ["play", "tenpins", "--option", "frames"],
    ["play", "tenpins", "--option", "frames=0"],
    ["play", "tenpins", "--option", "frames=\N{ARABIC-INDIC DIGIT THREE}"],
    ["play", "tenpins", "--option", "frames=1.0"],
    ["play", "tenpins", "--option", "frames=99999999999999999999"],
    ["play", "rolling-pins", "--option", "advanced=maybe"],
    ["play", "rolling-pins", "--option", "sheet=/nonexistent/sheet.json"],
    ["play", "rolling-pins", "--option", "sheet={}"],
    ["play", "rolling-pins", "--option", "sheet=[[[[[[[[[["],
    ["play", "rolling-pins", "--option", "tokens=2"],
    ["play", "rolling-pins", "--option", "pins=0"],
    ["play", "rolling-pins", "--players", ",".join(f"p{i}" for i in range(13))],
    ["play", "bowling-dice", "--option", "dice={}"],
    ["play", "bowling-dice", "--option", "dice=[{}]"],
    ["play", "bowling-dice", "--option", "dice=XXXXXX"],
    ["play", "bowling-dice", "--option", "dice=/nonexistent/dice.toml"],
    ["play", "bowling-solitaire", "--players", "ann,bob"],
    ["play", "bowling-solitaire", "--deal", "pins=1,2,3"],
    ["play", "bowling-solitaire", "--deal", ""],
    ["play", "bowling-solitaire", "--deal", "pins=9,10,6,8,3,10,9,6,3,5;piles=4,1,7,1,2|8,7,2|5,99"],
    ["play", "tenpins", "--deal", "pins=1"],
    ["play", "tenpins", "--resume", "/nonexistent/record.json"],
    ["play", "tenpins", "--resume", "12345"],
    ["simulate", "tenpins", "--players", "ann"],
    ["simulate", "bowling-solitaire", "--players", "bot:random,bot:random"],
    ["simulate", "nosuchgame"],
    ["analyze", "rolling-pins"],
    ["analyze", "nosuchgame"],
    ["analyze", "bowling-dice", "--dice", "/nonexistent/dice.json"],
    ["solve", "tenpins"],
    ["solve", "nosuchgame"],
    ["solve", "rolling-pins", "--option", "frames=x"],
    ["perft", "tenpins", "--deal", "pins=1"],
    ["perft", "bowling-solitaire", "--deal", "nonsense"],
    ["perft", "bowling-solitaire", "--deal", "pins=1,2,3,4,5,6,7,8,9,10;piles=1,1,1,1,1|1,1,1|1,1"],
    ["perft", "bowling-solitaire", "--groups", "all", "--deal", "x"],
    ["hint", "bowling-solitaire", "--deal", "x"],
    ["hint", "bowling-solitaire", "--objective", "fun", "--deal", "x"],
    ["hint", "tenpins"],
    ["hint", "tenpins", "--deal", "x"],
    ["hint", "chess", "--record", "x.json"],
    ["hint", "rolling-pins", "--record", "/nonexistent.json"],
    ["replay", "/nonexistent/record.json"],
    ["replay", "/"],
    ["import", "/nonexistent.jsonl"],
    ["import", "/"],
    ["export", "--format", "xml"],
    ["export", "--out", "/nonexistent/folder/x.jsonl"],
    ["stats", "--reset"],
    # files and history locations (issue 27; every special file is in tests/test_files.py)
    ["replay", "/dev/null"],  # a device is not read
    ["import", "/dev/zero"],
    ["hint", "tenpins", "--record", "/dev/null"],
    ["analyze", "bowling-dice", "--dice", "/dev/null"],
    ["play", "rolling-pins", "--option", "sheet=/dev/zero"],
    ["export", "--out", "/proc/version"],  # nothing is written into /proc
    ["simulate", "tenpins", "--games", "5", "--out", "/proc/pinsetter.csv"],
    ["play", "rolling-pins", "--option", "sheet=[" + "1," * 300 + "1]"],  # inline JSON longer than a file name
    ["play", "bowling-dice", "--option", "dice={" + "x" * 600 + "}"],
    ["history", "--db", ""],
    ["history", "--db", "/nonexistent/\udcff.sqlite"],  # the byte 0xff, as Python decodes argv
    ["stats", "--player", "a\udcffb"],
    ["history", "--player", "a\udcffb"],
    ["simulate", "tenpins", "--games", "5", "--db", "nosuch://x"],
    ["serve", "--origin", "http://\x1b[2J"],
    ["serve", "--origin", "http://[::1"],
    ["nosuchcommand"],
    ["play", "--nosuchoption"],
    ["score", "--json", "--nosuch"],
]


def _output_cases(tmp: Path) -> list[list[str]]:
    """Output paths that cannot be written, refused before any work is done."""
    return [
        ["simulate", "tenpins", "--games", "5", "--out", str(tmp)],
        ["simulate", "tenpins", "--games", "5", "--out", str(tmp / "missing" / "x.csv")],
        ["analyze", "tenpins", "--plot", str(tmp / "p.txt")],
        ["analyze", "tenpins", "--plot", str(tmp / "missing" / "p.png")],
        ["analyze", "tenpins", "--plot", str(tmp)],
        ["stats", "--plot", str(tmp / "s.gif")],
        ["play", "tenpins", "--record", str(tmp)],
        ["play", "tenpins", "--record", str(tmp / "missing" / "r.json")],
        ["export", "--out", str(tmp)],
    ]


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_one_line_error(args: list[str], code: int, err: str) -> None:
    lines = err.splitlines()
    assert code == 2, f"{args}: exit {code}, stderr {err!r}"
    assert len(lines) == 1, f"{args}: stderr has {len(lines)} lines: {err!r}"
    assert "Traceback" not in err and "\x1b" not in err and "\x07" not in err, f"{args}: {err!r}"
    assert lines[0].startswith("pinsetter"), f"{args}: {err!r}"


def test_bad_command_lines_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    cases = COMMAND_LINES + _output_cases(tmp_path)
    for args in cases:
        code, _out, err = run_cli(args, capsys)
        assert_one_line_error(args, code, err)
    assert not list(tmp_path.glob("*.csv")) and not list(tmp_path.glob("*.png")), "no work was done"
    assert len(cases) >= 100


# --- mutated records ------------------------------------------------------------------------


def finished_record(game: str, seed: int) -> dict[str, Any]:
    players = [PlayerSpec("ann", "random")] if game == "bowling-solitaire" else [PlayerSpec("ann", "random")] * 1
    if game != "bowling-solitaire":
        players = [PlayerSpec("ann", "random"), PlayerSpec("bob", "random")]
    match = Match.new(game, players, seed=seed, options={"frames": "3"})
    match.run_bots()
    data: dict[str, Any] = match.record.to_json()
    return data


Mutation = Callable[[dict[str, Any]], object]


def _set(path: tuple[object, ...], value: object) -> Mutation:
    def mutate(data: dict[str, Any]) -> object:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return data

    return mutate


def _drop(key: str) -> Mutation:
    def mutate(data: dict[str, Any]) -> object:
        del data[key]
        return data

    return mutate


def _first_chance(data: dict[str, Any]) -> int:
    return next(i for i, s in enumerate(data["steps"]) if s["actor"] == "chance")


def _forge_chance(data: dict[str, Any]) -> object:
    """Replace the first chance step by another legal-looking outcome the seed did not draw."""
    index = _first_chance(data)
    original = data["steps"][index]["step"]
    candidates = ["5+5", "X", "1+1", "3+4", "6", "5", "pins=1,2,3,4,5,6,7,8,9,10", "1", "2"]
    data["steps"][index]["step"] = next(c for c in candidates if c != original)
    data.pop("result", None)
    return data


def _swap_actor(data: dict[str, Any]) -> object:
    step = next(s for s in data["steps"] if s["actor"] == "chance")
    step["actor"] = 0
    return data


def _append_step(data: dict[str, Any]) -> object:
    data["steps"].append(copy.deepcopy(data["steps"][0]))
    data.pop("result", None)
    return data


def _drop_result_player(data: dict[str, Any]) -> object:
    data["result"]["players"] = data["result"]["players"][:-1] or [{**data["result"]["players"][0], "name": "someone"}]
    return data


def _extra_result_player(data: dict[str, Any]) -> object:
    data["result"]["players"].append(copy.deepcopy(data["result"]["players"][0]))
    return data


def _rename_result_player(data: dict[str, Any]) -> object:
    data["result"]["players"][0]["name"] = "mallory"
    return data


def _inflate_total(data: dict[str, Any]) -> object:
    data["result"]["players"][0]["total"] = 300
    return data


def _timer_bot_named_nowhere(data: dict[str, Any]) -> object:
    """A human seat whose decision the turn timer's bot made, the bot being none of the game's."""
    data["players"][0] = {"name": data["players"][0]["name"], "kind": "human"}
    decision = next((s for s in data["steps"] if s["actor"] == 0), data["steps"][0])
    decision["by"] = "nosuchbot"
    return data


def _twice(key: str, first: str) -> Mutation:
    """The record's text with `key` given twice in one object, `first` the value before the record's own:
    a reader that kept the first value would see another record."""

    def mutate(data: dict[str, Any]) -> object:
        return json.dumps(data).replace(f'"{key}": ', f'"{key}": {first}, "{key}": ', 1)

    return mutate


def _deep(data: dict[str, Any]) -> object:
    data["extra"] = {"x": json.loads("[" * 50 + "]" * 50)}
    return data


MUTATIONS: dict[str, Mutation] = {
    "format": _set(("format",), "other"),
    "version": _set(("version",), 2),
    "version as text": _set(("version",), "1"),
    "game unknown": _set(("game",), "chess"),
    "game not text": _set(("game",), 7),
    "options not object": _set(("options",), []),
    "option unknown": _set(("options", "colour"), "red"),
    "option names a file": _set(("options", "frames"), "/etc/passwd"),
    "frames wrong type": _set(("options", "frames"), [3]),
    "players empty": _set(("players",), []),
    "player name missing": _set(("players", 0), {"kind": "human"}),
    "player name not text": _set(("players", 0, "name"), 5),
    "player name escape": _set(("players", 0, "name"), "\x1b[2Jann"),
    "player name osc": _set(("players", 0, "name"), "\x1b]0;owned\x07"),
    "player name too long": _set(("players", 0, "name"), "n" * 300),
    "player extra key": _set(("players", 0, "admin"), True),
    "player kind names no bot": _set(("players", 0, "kind"), "nosuchbot"),
    "player kind holds escapes": _set(("players", 0, "kind"), "\x1b[2Jrandom\x07"),
    "seat handed to no bot": _set(
        ("players", 0), {"name": "ann", "kind": "human", "replaced_by": "nosuchbot", "from_step": 0}
    ),
    "timer bot names no bot": _timer_bot_named_nowhere,
    "extra claims a table": _set(("extra",), {"table": 1}),
    "option as text": _set(("options", "frames"), "3"),
    "key given twice": _twice("seed", "0"),
    "seat kind given twice": _twice("kind", '"nosuchbot"'),
    "seed text": _set(("seed",), "7"),
    "seed float": _set(("seed",), 7.5),
    "seed negative": _set(("seed",), -1),
    "seed beyond 64 bits": _set(("seed",), 2**70),
    "seed bool": _set(("seed",), True),
    "seed changed": lambda d: _set(("seed",), d["seed"] + 1)(d),
    "steps not list": _set(("steps",), {}),
    "step not object": _set(("steps", 0), "5+5"),
    "step text not text": _set(("steps", 0, "step"), 55),
    "step actor unknown": _set(("steps", 0, "actor"), "dealer"),
    "step actor out of range": _set(("steps", 0, "actor"), 9),
    "step actor negative": _set(("steps", 0, "actor"), -1),
    "chance forged": _forge_chance,
    "chance step by a player": _swap_actor,
    "step after the end": _append_step,
    "result player missing": _drop_result_player,
    "result player extra": _extra_result_player,
    "result player renamed": _rename_result_player,
    "result total inflated": _inflate_total,
    "result complete false": _set(("result", "complete"), False),
    "result complete text": _set(("result", "complete"), "yes"),
    "result pinfalls text": _set(("result", "players", 0, "pinfalls"), "X X X"),
    "result not object": _set(("result",), [1, 2]),
    "undo not bool": _set(("undo_used",), "no"),
    "chance source unknown": _set(("chance",), "dealt"),
    "unknown top-level field": _set(("owner",), "root"),
    "deep nesting": _deep,
    "no steps key": _drop("steps"),
    "no seed key": _drop("seed"),
}

RAW_RECORDS: dict[str, bytes] = {
    "empty": b"",
    "not json": b"not json",
    "truncated": b'{"format": "pinsetter-record", "version": 1, "game": "tenpins", "steps": [',
    "array": b"[]",
    "number": b"12",
    "nested 100000": b"[" * 100_000 + b"]" * 100_000,
    "not utf-8": b'{"format": "\xff\xfe"}',
    "huge number": b'{"format": "pinsetter-record", "version": 1, "seed": 1' + b"0" * 5000 + b"}",
}


def _record_cases(tmp: Path) -> list[tuple[str, str, Path]]:
    cases: list[tuple[str, str, Path]] = []
    for number, game in enumerate(GAMES):
        base = finished_record(game, seed=40 + number)
        for name, mutate in MUTATIONS.items():
            data = copy.deepcopy(base)
            mutated = mutate(data)
            path = tmp / f"{game}-{len(cases)}.json"
            path.write_text(mutated if isinstance(mutated, str) else json.dumps(mutated))
            cases.append((game, name, path))
    for name, raw in RAW_RECORDS.items():
        path = tmp / f"raw-{len(cases)}.json"
        path.write_bytes(raw)
        cases.append(("tenpins", name, path))
    return cases


def test_mutated_records_of_every_game_are_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No reader takes a record another refuses: replay, import, hint, resume and the web's upload."""
    from fastapi.testclient import TestClient

    from pinsetter.web.app import create_app

    cases = _record_cases(tmp_path)
    assert len(cases) >= 180
    db = str(tmp_path / "h.sqlite")
    web = TestClient(create_app(str(tmp_path / "web.sqlite")))
    for game, name, path in cases:
        uploaded = web.post("/api/records", content=path.read_bytes())
        assert uploaded.status_code in (413, 422), f"upload {name}: {uploaded.status_code} {uploaded.text}"
        assert "\n" not in uploaded.json()["error"], name
        for args in (
            ["replay", str(path)],
            ["import", str(path), "--db", db],
            ["hint", game, "--record", str(path)],
            ["play", "--resume", str(path), "--db", db],  # resuming checks what replaying checks
        ):
            if args[0] == "hint" and name in ("result total inflated", "result player renamed"):
                continue  # a hint reads the position only, not the stated result
            code, _out, err = run_cli(args, capsys)
            assert_one_line_error([*args, name], code, err)
    code, out, _err = run_cli(["history", "--db", db, "--json"], capsys)
    assert code == 0 and json.loads(out) == [], "no refused record reached the history"
    assert web.get("/api/history").json() == [], "nor the web's"


def test_a_forged_perfect_game_is_refused_everywhere(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's example: a tenpins record with seed 1 and twelve `5+5` steps."""
    steps = [{"actor": "chance", "step": "5+5"} for _ in range(12)]
    record = {
        "format": "pinsetter-record",
        "version": 1,
        "game": "tenpins",
        "options": {"frames": 10},
        "players": [{"name": "ann", "kind": "human"}],
        "seed": 1,
        "steps": steps,
        "result": {
            "complete": True,
            "players": [{"name": "ann", "pinfalls": [10] * 12, "marks": [["X"]] * 9 + [["X", "X", "X"]], "total": 300}],
        },
    }
    path = tmp_path / "perfect.json"
    path.write_text(json.dumps(record))
    db = str(tmp_path / "h.sqlite")
    for args in (["replay", str(path)], ["import", str(path), "--db", db], ["play", "--resume", str(path), "--db", db]):
        code, _out, err = run_cli(args, capsys)
        assert_one_line_error(args, code, err)
        assert "step 1" in err and "seed 1" in err
    code, out, _err = run_cli(["stats", "--db", db, "--json"], capsys)
    assert code == 0 and json.loads(out)["games"] == 0


def test_an_invalid_deal_leaves_no_game_and_no_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "h.sqlite")
    record = tmp_path / "r.json"
    args = ["play", "bowling-solitaire", "--deal", "pins=1,2,3", "--record", str(record), "--db", db]
    code, _out, err = run_cli(args, capsys)
    assert_one_line_error(args, code, err)
    assert not record.exists()
    code, out, _err = run_cli(["history", "--db", db, "--json"], capsys)
    assert code == 0 and json.loads(out) == []
