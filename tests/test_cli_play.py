"""`pinsetter play`, `history`, `games` and `delete` as a player meets them at 80 columns (issue 26).

Every line typed in the line game is applied or answered (undo too); a refused move says why;
text is wrapped on words to the terminal, never cut mid-word; the history table fits 80 columns
with its dates and names whole; the games list says its defaults in words. Games are real seeded
games through the command line (Typer's CliRunner), on a history of the test's own.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from pinsetter.cli.app import app
from pinsetter.records import PlayerSpec
from pinsetter.session import Match
from pinsetter.storage import Storage, StorageError

runner = CliRunner()
AT_80 = {"COLUMNS": "80"}


def widest(text: str) -> int:
    return max((cell_len(line) for line in text.split("\n")), default=0)


def test_undo_takes_back_a_move_and_says_why_it_cannot_past_a_roll(tmp_path: Path) -> None:
    record = tmp_path / "rp.json"
    typed = ["dice 2", "undo", "cross 10", "undo", "quit"]  # seed 3: the first roll is 4 and 6
    result = runner.invoke(
        app, ["play", "rolling-pins", "--seed", "3", "--record", str(record)], input="\n".join(typed) + "\n", env=AT_80
    )
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    # After the roll: the dice were seen, so the choice of dice stays, and the player is told why.
    assert "undo: the dice were rolled after your last decision; undo cannot go back past them" in out
    # After the cross: taken back, and the same decision is asked again.
    assert "undo: 1 step taken back" in out
    assert out.count("cross out pins that add up to the roll, or miss") == 2
    steps = [s["step"] for s in json.loads(record.read_text())["steps"]]
    assert steps == ["dice 2", "4+6"]  # the cross is gone from the record
    assert json.loads(record.read_text())["undo_used"] is True


def test_a_refused_move_says_what_this_moment_is_for() -> None:
    result = runner.invoke(app, ["play", "rolling-pins", "--seed", "3"], input="miss\nquit\n", env=AT_80)
    out = " ".join(result.output.split())
    assert "miss is not legal here: now you choose one or two dice; type dice 1 or dice 2" in out
    unknown = runner.invoke(app, ["play", "rolling-pins", "--seed", "3"], input="bowl\nquit\n", env=AT_80)
    assert "'bowl' is not a Rolling Pins action" in " ".join(unknown.output.split())


def test_every_line_fits_80_columns_and_breaks_between_words() -> None:
    typed = ["dice 2", "help", "hint", "quit"]
    result = runner.invoke(
        app, ["play", "rolling-pins", "--seed", "3", "--players", "Ann"], input="\n".join(typed) + "\n", env=AT_80
    )
    assert result.exit_code == 0, result.output
    lines = result.output.split("\n")
    assert widest(result.output) <= 79
    # The header of the second decision is 81 characters long: it goes on over two lines, on a word.
    header = next(i for i, line in enumerate(lines) if line.startswith("== ") and "cross out" in line)
    assert lines[header] == "== Ann to play - frame 1, ball 1: cross out pins that add up to the roll, or"
    assert lines[header + 1] == "   miss"
    # A move too long for one line keeps its shortcut whole on the next.
    long_move = lines.index("    Cross out 1, 2, 3 and 5 (1 token: 10 becomes 11)")
    assert lines[long_move + 1] == "      [type: cross 1+2+3+5 tokens +1]"


def test_ten_pins_answers_words_at_the_roll_and_rolls_only_on_enter(tmp_path: Path) -> None:
    record = tmp_path / "t.json"
    typed = ["hint", "help", "undo", "sheet", "roll please", "", "quit"]
    result = runner.invoke(
        app, ["play", "tenpins", "--seed", "3", "--record", str(record)], input="\n".join(typed) + "\n", env=AT_80
    )
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "Ten Pins (dice) has no decisions: chance decides every ball, so there is no hint to give" in out
    assert "Press Enter to roll, or type:" in out
    assert "undo: there is no decision to take back" in out
    assert "'roll please' is not a word this prompt knows: press Enter to roll, or type help" in out
    assert "total" in out  # the sheet
    # Only the Enter rolled: one ball (two dice) in the record.
    assert len(json.loads(record.read_text())["steps"]) == 1
    assert "Stopped: Player 1 0 in frame 1. Resume with: pinsetter play --resume" in out  # its words, not steps


def stored_history() -> list[Match]:
    """Games of every kind in the test's history: long names, options, a finished game, games not begun."""
    storage = Storage()
    played = []
    for game, names, options, finish in [
        ("tenpins", ["Annabelle Lee", "Bartholomew Higginbotham"], {}, True),
        ("rolling-pins", ["ann", "bob", "Cornelius"], {"advanced": "true", "shared_dice": "true"}, False),
        ("bowling-dice", ["ann"], {}, False),
        ("rolling-pins", ["ann"], {}, False),
    ]:
        specs = [PlayerSpec(n, "random") if finish else PlayerSpec(n) for n in names]
        match = Match.new(game, specs, seed=5, options=options)
        match.storage = storage
        match.store()
        if finish:
            match.run_bots()
        played.append(match)
    return played


def table_cells(text: str) -> list[list[str]]:
    """The rows of `pinsetter history` as cells, each cell's wrapped lines joined with a space.

    The columns are where the rule under the headers has its runs of `─`; a row begins where its
    first column (the id) is not blank.
    """
    lines = text.rstrip("\n").split("\n")
    rule = next(i for i, line in enumerate(lines) if line.startswith("─"))
    spans = [m.span() for m in re.finditer("─+", lines[rule])]
    rows: list[list[list[str]]] = []
    for line in [*lines[:rule], None, *lines[rule + 1 :]]:
        if line is None:
            rows.append([])  # the header ends: the games begin
            continue
        cells = [line[a : b if i < len(spans) - 1 else None].strip() for i, (a, b) in enumerate(spans)]
        if cells[0] or not rows or not rows[-1]:
            rows.append([[c] for c in cells])
        else:
            for parts, cell in zip(rows[-1], cells, strict=True):
                parts.append(cell)
    return [[" ".join(p for p in parts if p) for parts in row] for row in rows if row]


def test_history_fits_80_columns_with_whole_dates_and_names() -> None:
    played = stored_history()
    for columns in (80, 60):
        result = runner.invoke(app, ["history"], env={"COLUMNS": str(columns)})
        assert result.exit_code == 0, result.output
        assert widest(result.output) <= columns - 1 and "…" not in result.output
        header, *rows = table_cells(result.output)
        assert header == ["id", "date", "game", "players and scores", "result"]
        by_id = {int(row[0]): row for row in rows}
        finished = by_id[played[0].game_id or 0]
        date = played[0].record.created[5:16].replace("T", " ")  # this year's games: month-day and time
        scores = played[0].state.scores()
        names = f"Annabelle Lee {scores[0]}, Bartholomew Higginbotham {scores[1]}"
        winner = "Annabelle Lee" if scores[0] > scores[1] else "Bartholomew Higginbotham"
        assert finished[1:] == [date, "Ten Pins (dice)", names, winner if scores[0] != scores[1] else finished[4]]
        advanced = by_id[played[1].game_id or 0]
        assert advanced[2:] == ["Rolling Pins, advanced, shared dice", "ann 0, bob 0, Cornelius 0", "unfinished"]


def test_games_wraps_its_options_and_says_defaults_in_words() -> None:
    result = runner.invoke(app, ["games"], env=AT_80)
    assert result.exit_code == 0
    text = result.output
    assert widest(text) <= 79
    assert "False" not in text and "True" not in text and "X--PPP" not in text
    flat = " ".join(text.split())
    assert "--option advanced=true|false grey pins, an ability track and the abilities it gives (default: off)" in flat
    assert "(default: on)" in flat  # tokens
    assert "(default: Standard dice)" in flat and "(default: connected pin groups)" in flat


def test_delete_asks_first_and_removes_games_with_their_statistics() -> None:
    played = stored_history()
    finished, *unfinished = played
    storage = Storage()
    assert storage.results_for()  # the finished game's scores count
    missing = runner.invoke(app, ["delete"])
    assert missing.exit_code == 2 and "--not-begun" in missing.output
    unknown = runner.invoke(app, ["delete", "999"])
    assert unknown.exit_code == 2 and "no game 999 in the history" in unknown.output
    refused = runner.invoke(app, ["delete", str(finished.game_id)], input="n\n", env=AT_80)
    assert refused.exit_code == 1 and "nothing deleted" in refused.output
    assert "The finished one's scores leave the statistics." in refused.output
    no_answer = runner.invoke(app, ["delete", str(finished.game_id)], input="")
    assert no_answer.exit_code == 2 and "no answer was given" in no_answer.output
    assert storage.get(finished.game_id) is not None
    done = runner.invoke(app, ["delete", str(finished.game_id)], input="y\n", env=AT_80)
    assert done.exit_code == 0, done.output
    assert f"1 game deleted (#{finished.game_id})" in done.output
    assert storage.get(finished.game_id) is None and storage.results_for() == []
    # Every game left before a pin fell, at once, without asking.
    gone = runner.invoke(app, ["delete", "--not-begun", "--yes"], env=AT_80)
    assert gone.exit_code == 0, gone.output
    assert f"{len(unfinished)} games deleted" in gone.output
    assert storage.history() == []
    again = runner.invoke(app, ["delete", "--not-begun"])
    assert again.exit_code == 0 and "nothing to delete" in again.output


def test_a_game_with_a_pin_down_is_begun_and_stays() -> None:
    storage = Storage()
    match = Match.new("tenpins", [PlayerSpec("ann")], seed=1)
    match.storage = storage
    match.apply(match.draw_chance())
    while not sum((match.record.result or {})["players"][0]["pinfalls"]):  # rolled until a pin falls
        match.apply(match.draw_chance())
    stored = storage.get(match.game_id or 0)
    assert stored is not None and not stored.not_begun()
    result = runner.invoke(app, ["delete", "--not-begun", "--yes"])
    assert "nothing to delete" in result.output and storage.get(match.game_id or 0) is not None


def test_a_game_at_a_live_online_table_is_not_deleted() -> None:
    from pinsetter.storage.tables import Seat, TableStore

    storage = Storage()
    tables = TableStore(storage)
    table, _host = tables.create("tenpins", {}, 7, [Seat("human", "ann"), Seat("human", "bob")])
    match = Match.new("tenpins", [PlayerSpec("ann"), PlayerSpec("bob")], seed=7)
    match.storage = storage
    match.store()
    table.game_id, table.status = match.game_id, "playing"
    assert tables.update(table)
    with pytest.raises(StorageError, match="online table"):
        storage.delete([match.game_id or 0])
    assert storage.get(match.game_id or 0) is not None
    result = runner.invoke(app, ["delete", str(match.game_id), "--yes"])
    assert result.exit_code == 2 and "online table" in result.output


def test_a_plot_without_matplotlib_is_refused_before_any_work(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    result = runner.invoke(app, ["analyze", "tenpins", "--plot", str(tmp_path / "d.png")])
    assert result.exit_code == 2
    assert "needs matplotlib, which is not installed: pip install 'pinsetter[plot]'" in result.output
    assert not (tmp_path / "d.png").exists()


def test_quitting_names_the_game_to_resume() -> None:
    result = runner.invoke(app, ["play", "rolling-pins", "--seed", "3"], input="quit\n")
    found = re.search(r"Resume with: pinsetter play --resume (\d+)", result.output)
    assert found is not None
    resumed = runner.invoke(app, ["play", "--resume", found.group(1)], input="quit\n")
    assert resumed.exit_code == 0 and "Stopped: Player 1 0 in frame 1." in resumed.output


@pytest.fixture
def unwrapped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines as wide as they come: a temporary folder's path is longer than a terminal line."""
    monkeypatch.setattr("pinsetter.cli.play.line_width", lambda: 10_000)


@pytest.mark.usefixtures("unwrapped")
def test_the_resume_line_names_the_history_given_on_the_command_line(tmp_path: Path) -> None:
    db = tmp_path / "other history.sqlite"
    result = runner.invoke(app, ["play", "bowling-dice", "--seed", "3", "--db", str(db)], input="quit\n")
    found = re.search(r"Resume with: pinsetter play --resume (\d+) --db '([^']+)'", " ".join(result.output.split()))
    assert found is not None, result.output
    assert found.group(2) == str(db)
    # Another game in the default history has the same id: without --db the line would resume that one.
    runner.invoke(app, ["play", "tenpins", "--seed", "1"], input="quit\n")
    resumed = runner.invoke(app, ["play", "--resume", found.group(1), "--db", found.group(2)], input="quit\n")
    assert resumed.exit_code == 0 and "Bowling Dice, seed 3" in resumed.output


@pytest.mark.usefixtures("unwrapped")
def test_a_record_named_on_resume_is_written_even_if_nothing_is_played(tmp_path: Path) -> None:
    first = runner.invoke(app, ["play", "rolling-pins", "--seed", "3"], input="quit\n")
    game_id = re.search(r"--resume (\d+)", first.output)
    assert game_id is not None
    record = tmp_path / "new.json"
    result = runner.invoke(app, ["play", "--resume", game_id.group(1), "--record", str(record)], input="quit\n")
    assert result.exit_code == 0, result.output
    assert f"Resume with: pinsetter play --resume {record}" in " ".join(result.output.split())
    again = runner.invoke(app, ["play", "--resume", str(record)], input="quit\n")
    assert again.exit_code == 0 and "Rolling Pins, seed 3" in again.output


@pytest.mark.parametrize("given", [["--players", "zed,bob"], ["--seed", "99"]])
def test_resume_refuses_what_it_cannot_change(given: list[str]) -> None:
    first = runner.invoke(app, ["play", "rolling-pins", "--seed", "3"], input="quit\n")
    game_id = re.search(r"--resume (\d+)", first.output)
    assert game_id is not None
    result = runner.invoke(app, ["play", "--resume", game_id.group(1), *given], input="quit\n")
    assert result.exit_code == 2
    assert "give no game, --players, --seed, --option or --deal with it" in result.output
    assert "seed 3" not in result.output  # refused before the game is shown


@pytest.mark.parametrize("game", ["rolling-pins", "tenpins"])
def test_ctrl_c_at_a_prompt_keeps_the_game_and_exits_130(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import typer

    def interrupted(*_args: object, **_kwargs: object) -> str:
        try:  # as click's prompt meets Ctrl+C (CliRunner replaces its input function, so not patched there)
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise typer.Abort() from None

    with monkeypatch.context() as patched:
        patched.setattr(typer, "prompt", interrupted)
        result = runner.invoke(app, ["play", game, "--seed", "3"])
    assert result.exit_code == 130, result.output
    found = re.search(r"Resume with: pinsetter play --resume (\d+)", result.output)
    assert found is not None, result.output
    resumed = runner.invoke(app, ["play", "--resume", found.group(1)], input="quit\n")
    assert resumed.exit_code == 0 and "seed 3" in resumed.output


def test_a_resumed_game_says_where_it_goes_on() -> None:
    first = runner.invoke(app, ["play", "tenpins", "--seed", "3"], input="\n\n\nquit\n")  # frame 1, then ball 1 of 2
    game_id = re.search(r"--resume (\d+)", first.output)
    assert game_id is not None
    resumed = runner.invoke(app, ["play", "--resume", game_id.group(1)], input="quit\n")
    assert "-- Player 1: frame 2, ball 2" in resumed.output


def test_a_pasted_page_is_refused_without_being_echoed() -> None:
    junk = "cross " + "1+" * 2500
    result = runner.invoke(app, ["play", "rolling-pins", "--seed", "3"], input=f"dice 2\n{junk}\nquit\n", env=AT_80)
    assert result.exit_code == 0
    assert f"that is not a move: the line is {len(junk)} characters long" in " ".join(result.output.split())
    assert result.output.count(junk) == 1  # the runner's echo of what was typed, not an answer
