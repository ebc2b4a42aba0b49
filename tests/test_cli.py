"""The command line, run as a user would run it."""

from __future__ import annotations

import contextlib
import json
import re
import signal
import socket
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from pinsetter.cli.app import app
from pinsetter.i18n import using_language
from waiting import until

runner = CliRunner()


def test_score_json_matches_the_documented_shape() -> None:
    result = runner.invoke(app, ["score", "X", "7/", "9-", "X", "X", "8/", "9-", "X", "7/", "XXX", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["frames"][0] == {"frame": 1, "pinfalls": [10], "marks": ["X"], "score": 20, "total": 20}
    assert data["total"] == 194 and data["complete"] is True


def test_score_plain_integers_and_partial_games() -> None:
    result = runner.invoke(app, ["score", "10", "7", "3", "--json"])
    data = json.loads(result.output)
    assert data["frames"][0]["score"] == 20
    assert data["frames"][1]["score"] is None and data["total"] == 20
    assert data["complete"] is False


def test_score_sheet_and_error() -> None:
    result = runner.invoke(app, ["score", "X", "X", "7/"])
    assert "│" in result.output and "27" in result.output
    result = runner.invoke(app, ["score", "7", "5"])
    assert result.exit_code == 2
    assert "ball 2" in result.output


def test_games_and_rules() -> None:
    result = runner.invoke(app, ["games", "--json"])
    ids = {g["id"] for g in json.loads(result.output)}
    assert {"tenpins", "bowling-dice"} <= ids
    assert "Double five is a strike" in runner.invoke(app, ["rules", "tenpins"]).output
    bad = runner.invoke(app, ["rules", "chess"])
    assert bad.exit_code == 2 and "unknown game" in bad.output


def test_the_command_list_shows_each_summary_whole(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pinsetter --help` lists every command with its first paragraph whole, folded, never cut with "..."."""
    from pinsetter.cli.app import main

    monkeypatch.setenv("COLUMNS", "80")
    assert main(["--help"]) == 0
    listed = capsys.readouterr().out.split("Commands:", 1)[1]
    assert "..." not in listed
    text = " ".join(listed.split())
    assert "Replay a game record, verify every step, the seed's draws and the stated results, print the sheets." in text
    assert "rules Print a game's rules for players, in the current language. replay" in text  # first paragraph only
    assert max(len(line) for line in listed.splitlines()) <= 80


def test_play_bots_then_replay(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = runner.invoke(
        app, ["play", "tenpins", "--players", "bot:random,bot:random", "--seed", "4", "--record", str(path)]
    )
    assert result.exit_code == 0, result.output
    assert "Winner" in result.output or "Tie" in result.output
    replayed = runner.invoke(app, ["replay", str(path), "--json"])
    assert replayed.exit_code == 0
    assert json.loads(replayed.output)["complete"] is True
    data = json.loads(path.read_text())
    data["steps"][0]["step"] = "7+7"
    path.write_text(json.dumps(data))
    broken = runner.invoke(app, ["replay", str(path)])
    assert broken.exit_code == 2
    assert "step 1" in broken.output


def test_play_human_quits_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    result = runner.invoke(app, ["play", "tenpins", "--seed", "1", "--record", str(path)], input="\n\n\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Stopped: " in result.output
    steps = len(json.loads(path.read_text())["steps"])
    assert steps >= 1
    before = path.read_bytes()
    again = runner.invoke(app, ["play", "tenpins", "-p", "bot:random", "--record", str(path)])
    assert again.exit_code == 2 and "--resume" in again.output  # a new game never overwrites a kept one
    assert path.read_bytes() == before
    result = runner.invoke(app, ["play", "--resume", str(path)], input="\n" * 40)
    assert result.exit_code == 0, result.output
    assert json.loads(path.read_text())["result"]["complete"] is True


def test_bad_options_are_named() -> None:
    result = runner.invoke(app, ["play", "tenpins", "--option", "colour=red", "--players", "bot:random"])
    assert result.exit_code == 2 and "colour" in result.output
    result = runner.invoke(app, ["play", "tenpins", "--option", "frames=0", "--players", "bot:random"])
    assert result.exit_code == 2 and "frames" in result.output


def test_analyze_json_shape_and_players() -> None:
    result = runner.invoke(app, ["analyze", "tenpins", "--json", "--players", "3"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == "tenpins"
    assert set(data["percentiles"]) == {"10", "25", "75", "90"}
    assert abs(sum(data["distribution"].values()) - 1) < 1e-12
    assert len(data["distribution"]) == 301
    assert abs(data["strike_rate"] - 1 / 36) < 1e-15
    assert 0 < data["win_probability"] < 1 / 3 and 0 < data["tie_probability"] < 1
    assert "exact" not in data


def test_analyze_exact_gives_fractions_that_round_to_the_floats() -> None:
    result = runner.invoke(app, ["analyze", "tenpins", "--json", "--exact", "--players", "3"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    exact = {key: Fraction(value) for key, value in data["exact"].items() if key != "distribution"}
    assert exact["strike_rate"] == Fraction(1, 36) and exact["spare_rate"] == Fraction(2, 9)
    assert 3 * exact["win_probability"] + exact["tie_probability"] == 1
    for key in ("mean", "p300", "strike_rate", "spare_rate", "win_probability", "tie_probability"):
        assert data[key] == float(exact[key]), key  # the float is the fraction rounded once
    distribution = {s: Fraction(v) for s, v in data["exact"]["distribution"].items()}
    assert sum(distribution.values()) == 1
    assert all(data["distribution"][s] == float(v) for s, v in distribution.items())
    text = runner.invoke(app, ["analyze", "tenpins", "--exact", "--players", "3"]).output
    assert "mean = " + data["exact"]["mean"] in text and "strike rate = 1/36" in text
    assert "digits over" in text  # a three-player win probability is too long to print whole


def test_analyze_text_plot_and_dice_file(tmp_path: Path) -> None:
    plot = tmp_path / "d.png"
    result = runner.invoke(app, ["analyze", "bowling-dice", "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert "mean 147.74" in result.output and "█" in result.output
    assert plot.read_bytes()[:4] == b"\x89PNG"
    dice = tmp_path / "d.json"
    dice.write_text(json.dumps({"dice": [["blank"] * 6] * 10}))
    result = runner.invoke(app, ["analyze", "bowling-dice", "--dice", str(dice), "--json"])
    assert json.loads(result.output)["p300"] == 1.0  # every first ball knocks all ten down
    result = runner.invoke(app, ["analyze", "bowling-dice", "--dice", str(tmp_path / "no.json")])
    assert result.exit_code == 2 and "cannot read dice file" in result.output


def test_simulate_is_independent_of_workers(tmp_path: Path) -> None:
    args = [
        "simulate",
        "bowling-dice",
        "--games",
        "300",
        "--seed",
        "9",
        "--json",
        "-p",
        "bot:random,bot:random",
    ]
    one = runner.invoke(app, args)
    assert one.exit_code == 0, one.output
    csv_path = tmp_path / "games.csv"
    two = runner.invoke(app, [*args, "--workers", "2", "--out", str(csv_path)])
    assert json.loads(one.output) == json.loads(two.output)
    data = json.loads(one.output)
    assert data["games"] == 300 and len(data["players"]) == 2
    p = data["players"][0]
    assert p["ci95"][0] < p["mean"] < p["ci95"][1]
    assert abs(sum(q["win_share"] for q in data["players"]) - 1) < 1e-9
    rows = csv_path.read_text().splitlines()
    assert rows[0] == "game,seed,Rookie bot,Rookie bot 2" and len(rows) == 301  # bots named as players are


def test_simulate_leaves_the_rates_of_a_one_frame_game_uncounted() -> None:
    """Rates count frames 1..n-1; a one-frame game has none, so they are null, not a 0 that reads as "never"."""
    one = runner.invoke(app, ["simulate", "tenpins", "-o", "frames=1", "--games", "40", "--seed", "3", "--json"])
    assert one.exit_code == 0, one.output
    player = json.loads(one.output)["players"][0]
    assert player["strike_rate"] is None and player["spare_rate"] is None
    text = runner.invoke(app, ["simulate", "tenpins", "-o", "frames=1", "--games", "40", "--seed", "3"])
    assert "strikes not counted  spares not counted" in text.output
    two = runner.invoke(app, ["simulate", "tenpins", "-o", "frames=2", "--games", "40", "--seed", "3", "--json"])
    rates = json.loads(two.output)["players"][0]
    assert 0 <= rates["strike_rate"] <= 1 and 0 <= rates["spare_rate"] <= 1


def test_reports_are_headed_by_the_games_name_and_options_not_its_id() -> None:
    """Players read words: a report names the game as the catalog does, with the options that differ."""
    analysis = runner.invoke(app, ["analyze", "tenpins", "-o", "frames=3"])
    assert analysis.output.startswith("Ten Pins (dice), 3 frames: exact final-score distribution"), analysis.output
    simulation = runner.invoke(app, ["simulate", "rolling-pins", "-o", "frames=1", "--games", "4"])
    assert simulation.output.startswith("Rolling Pins, 1 frame: 4 games"), simulation.output
    bots = ["tournament", "rolling-pins", "-o", "frames=1", "--bots", "greedy,random", "--games", "2"]
    assert runner.invoke(app, bots).output.startswith("Rolling Pins, 1 frame: 2 deals")
    with using_language("ja"):
        japanese = runner.invoke(app, ["simulate", "rolling-pins", "-o", "frames=1", "--games", "4"])
    assert japanese.output.startswith("ローリングピンズ、1 フレーム: 4 ゲーム"), japanese.output
    assert not any("rolling-pins" in r.output for r in (simulation, japanese))


def test_simulate_refuses_humans() -> None:
    result = runner.invoke(app, ["simulate", "tenpins", "--players", "ann"])
    assert result.exit_code == 2 and "bots only" in result.output


DEAL_0 = "pins=6,10,9,8,1,9,6,2,2,5;piles=3,4,3,10,4|8,5,1|7,7"


def test_perft_command() -> None:
    result = runner.invoke(app, ["perft", "bowling-solitaire", "--deal", DEAL_0, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"first_plays": 7, "sequences": 837, "max_pins": 10, "strike_possible": False}
    mutual = runner.invoke(app, ["perft", "bowling-solitaire", "--deal", DEAL_0, "--groups", "mutual", "--json"])
    assert json.loads(mutual.output)["first_plays"] == 3
    bad = runner.invoke(app, ["perft", "bowling-solitaire", "--deal", DEAL_0.replace("7,7", "7,7,7")])
    assert bad.exit_code == 2 and "5, 3 and 2" in bad.output


def test_solitaire_hint_command() -> None:
    result = runner.invoke(app, ["hint", "bowling-solitaire", "--deal", DEAL_0, "--objective", "pins", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    values = [o["value"] for o in data["options"]]
    assert values == sorted(values, reverse=True) and data["value"] == values[0]
    assert {o["action"] for o in data["options"]} == {
        "2:4", "2:2+4", "2:3+6", "2:2+3+6", "2:3+4+5", "3:1+2+5", "3:2+3+4", "stop"
    }  # fmt: skip
    assert 0 < data["value"] <= 10
    strike = json.loads(
        runner.invoke(app, ["hint", "bowling-solitaire", "--deal", DEAL_0, "--objective", "strike", "--json"]).output
    )
    assert 0 <= strike["value"] <= 1
    plain = runner.invoke(app, ["hint", "bowling-solitaire", "--deal", DEAL_0, "--objective", "pins"]).output
    assert {row.split(None, 1)[1] for row in plain.splitlines()[1:]} == {o["words"] for o in data["options"]}
    assert re.search(r"\d:\d", plain) is None, plain
    bad = runner.invoke(app, ["hint", "bowling-solitaire", "--deal", DEAL_0, "--objective", "fun"])
    assert bad.exit_code == 2


def test_solitaire_play_from_a_deal(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    result = runner.invoke(
        app,
        [
            "play",
            "bowling-solitaire",
            "--deal",
            DEAL_0,
            "--players",
            "bot:greedy",
            "--seed",
            "1",
            "--record",
            str(path),
        ],
    )
    assert result.exit_code == 0, result.output
    steps = json.loads(path.read_text())["steps"]
    assert [s["step"] for s in steps[:13]] == ["6", "10", "9", "8", "1", "9", "6", "2", "2", "5", "3", "8", "7"]
    replayed = runner.invoke(app, ["replay", str(path)])
    assert replayed.exit_code == 0
    said = " ".join(replayed.output.split())
    assert f"Bowling Solitaire: {len(steps)} steps verified, chance entered by hand" in said  # its name, not its id


def test_rolling_pins_solve_and_hint(tmp_path: Path) -> None:
    result = runner.invoke(app, ["solve", "rolling-pins", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert abs(data["expected_score"] - 145.14355201492685) < 1e-9
    assert abs(data["expected_score_no_tokens"] - 89.01846055915482) < 1e-9
    assert data["states"] > 400_000
    path = tmp_path / "rp.json"
    played = runner.invoke(
        app, ["play", "rolling-pins", "--seed", "3", "--record", str(path)], input="dice 2\nhint\nquit\n"
    )
    assert "expected final score if you play on optimally" in played.output
    hint = runner.invoke(app, ["hint", "rolling-pins", "--record", str(path), "--json"])
    assert hint.exit_code == 0, hint.output
    options = json.loads(hint.output)["options"]
    assert options[0]["value"] >= options[-1]["value"]
    assert any(o["action"] == "miss" for o in options)
    # A player reads the plain output: the position and every option in words, never the record's notation.
    plain = runner.invoke(app, ["hint", "rolling-pins", "--record", str(path)])
    assert plain.exit_code == 0, plain.output
    assert plain.output.startswith("frame 1 ball 1: all pins standing, 1 token, rolled ")
    assert "Miss" in plain.output and "Values: expected final score" in plain.output
    assert re.search(r"\bmiss\b|cross \d|tokens [+-]|\d\+\d|standing \d", plain.output) is None, plain.output


def test_a_rolling_pins_hint_gives_the_chance_to_finish_ahead_on_request(tmp_path: Path) -> None:
    path = tmp_path / "two.json"
    played = runner.invoke(
        app,
        ["play", "rolling-pins", "-p", "Ann,bot:optimal", "--option", "frames=2", "--seed", "5", "--record", str(path)],
        input="dice 2\nquit\n",
    )
    assert played.exit_code == 0, played.output
    asked = runner.invoke(app, ["hint", "rolling-pins", "--record", str(path), "--chances", "--json"])
    assert asked.exit_code == 0, asked.output
    data = json.loads(asked.output)
    assert data["chance_meaning"].startswith("the chance to finish ahead of every other player")
    from pinsetter.bots.base import make_bot
    from pinsetter.records import Record, replay

    state = replay(Record.load(path), check_result=False)
    expected = dict(make_bot("win", state.game).win_values(state) or [])  # type: ignore[attr-defined]
    assert {o["action"]: o["chance"] for o in data["options"]} == {str(a): v for a, v in expected.items()}
    plain = runner.invoke(app, ["hint", "rolling-pins", "--record", str(path), "--chances"])
    assert plain.exit_code == 0, plain.output
    assert "Chances: the chance to finish ahead" in plain.output
    assert re.search(r"^\s+score\s+chance ahead\s+move$", plain.output, re.MULTILINE), plain.output
    assert "(best score" in plain.output and "best chance)" in plain.output
    assert re.search(r"^\s+\d+\.\d{4}\s+\d+\.\d%\s+Cross out", plain.output, re.MULTILINE), plain.output
    # At the prompt of `play`, the word `chances`.
    again = runner.invoke(app, ["play", "--resume", str(path)], input="chances\nquit\n")
    said_once = " ".join(again.output.split())  # lines wrapped at the terminal's width, read as one text
    assert "Chances: the chance to finish ahead" in said_once
    assert said_once.count(", chance to finish ahead ") == len(data["options"])
    # Where there are no chances to give, one line says why (exit 2).
    alone = tmp_path / "alone.json"
    runner.invoke(app, ["play", "rolling-pins", "--seed", "3", "--record", str(alone)], input="dice 2\nquit\n")
    said = runner.invoke(app, ["play", "--resume", str(alone)], input="chances\nquit\n")
    assert "chances to finish ahead are for basic Rolling Pins with other players" in said.output
    refused = runner.invoke(app, ["hint", "rolling-pins", "--record", str(alone), "--chances"])
    assert refused.exit_code == 2 and refused.output.count("\n") == 1 and "other players" in refused.output
    other = runner.invoke(app, ["hint", "bowling-solitaire", "--record", str(alone), "--chances"])
    assert other.exit_code == 2 and "--chances is for Rolling Pins" in other.output


def test_serve_on_a_port_in_use_or_an_unknown_host_says_why_in_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert result.output.strip() == f"pinsetter: cannot serve on 127.0.0.1:{port}: Address already in use"
    unknown = runner.invoke(app, ["serve", "--host", "nosuch.invalid"])
    assert unknown.exit_code == 2 and "serving" not in unknown.output
    assert unknown.output.startswith("pinsetter: cannot serve on nosuch.invalid:8000: no such address")


def test_analyze_exact_writes_fractions_longer_than_python_writes_by_default() -> None:
    """Fifty players' odds are over D^50: thousands of digits, past Python's 4,300 for int-to-text."""
    result = runner.invoke(app, ["analyze", "bowling-dice", "--json", "--exact", "--players", "50"])
    assert result.exit_code == 0, result.output
    win = json.loads(result.output)["exact"]["win_probability"]
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # reading them back in Python needs the same
    try:
        assert len(win) > 4300 and float(Fraction(win)) == json.loads(result.output)["win_probability"]
    finally:
        sys.set_int_max_str_digits(limit)


def test_serve_stops_on_ctrl_c_with_status_0(tmp_path: Path) -> None:
    """Ctrl+C is how a server is stopped: a normal end, not an error status."""
    script = Path(sys.executable).with_name("pinsetter")  # the installed command, as a user runs it
    command = [str(script), "serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'h.db'}"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert "serving on http://127.0.0.1:" in line  # bound, with the port chosen
        url = line.split("serving on ", 1)[1].split()[0]

        def answers() -> bool:
            with contextlib.suppress(httpx.HTTPError):
                return httpx.get(url + "api/catalog", timeout=1, trust_env=False).status_code == 200
            return False

        until(answers, "the server answering")  # serving for real before the Ctrl+C, as a user's would come
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=30) == 0
    finally:
        server.kill()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["hint", "tenpins"], "Ten Pins (dice) has no decisions: chance decides every ball, so there is no hint"),
        (["hint", "bowling-dice", "--record", "any.json"], "Bowling Dice has no decisions"),
        (["perft", "tenpins"], "perft counts Bowling Solitaire deals (game bowling-solitaire)"),
        (["perft", "bowling-solitaire"], "give the deal to count: --deal"),
    ],
)
def test_a_command_that_cannot_apply_to_the_game_says_so_first(args: list[str], words: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert words in " ".join(result.output.split())
    assert "Missing option" not in result.output and "--record FILE" not in result.output


def test_a_game_id_that_is_not_one_says_where_ids_come_from() -> None:
    for command in (["show", "abc"], ["show", "0"], ["delete", "x", "--yes"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2
        said = " ".join(result.output.split())
        assert "is not the id of a game: `pinsetter history` lists them" in said, said
        assert "9223372036854775807" not in said and "game_id" not in said
