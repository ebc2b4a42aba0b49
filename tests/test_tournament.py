"""Chance drawn by position (the same dice and deals for every bot), tournaments, and resumable runs.

No Dask here (tests/test_cluster.py has the cluster tests): the runs play in
this process or in a local process pool, and are stored in the test's own
history database.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pinsetter.cli.app import app
from pinsetter.experiments.backends import SerialBackend
from pinsetter.experiments.plan import game_seed
from pinsetter.experiments.runner import execute
from pinsetter.experiments.runs import RunError, RunStore
from pinsetter.experiments.tournament import summarise, tournament_plan
from pinsetter.games.bowling_solitaire import SolitaireState
from pinsetter.games.registry import get_game
from pinsetter.records import PlayerSpec, Record, RecordError, replay
from pinsetter.session import Match
from pinsetter.simulate import simulation_plan
from pinsetter.storage import Storage

runner = CliRunner()
STEP_RECORDS = Path(__file__).parent / "data" / "step-records"
SRC = Path(__file__).resolve().parents[1] / "src"


def chance_by_position(match: Match) -> dict[tuple[int, ...], str]:
    """Play a match to the end; each chance outcome by (player, frame, n-th draw in that frame)."""
    seen: dict[tuple[int, ...], str] = {}
    counts: dict[tuple[int, ...], int] = {}
    while not match.state.is_terminal():
        if match.state.is_chance_node():
            where = match.state.chance_position()
            n = counts.get(where, 0)
            counts[where] = n + 1
            step = match.draw_chance()
            seen[(*where, n)] = str(step)
            match.apply(step)
        else:
            match.apply(match.bot_action())
    return seen


def test_two_bots_see_the_same_dice_per_frame_and_roll_in_rolling_pins() -> None:
    common = 0
    for seed in (1, 2, 3):
        greedy = chance_by_position(Match.new("rolling-pins", [PlayerSpec("a", "greedy")], seed=seed))
        random_ = chance_by_position(Match.new("rolling-pins", [PlayerSpec("b", "random")], seed=seed))
        assert greedy != random_  # they played differently ...
        for where in greedy.keys() & random_.keys():
            mine, theirs = greedy[where].split("+"), random_[where].split("+")
            shared = min(len(mine), len(theirs))  # one die or two: the dice both rolled are equal
            assert mine[:shared] == theirs[:shared], (seed, where)
            common += 1
    assert common > 60  # ... on the same dice: every frame's first rolls at least


def test_every_seat_and_bot_sees_the_same_dice_per_ball_in_the_dice_games() -> None:
    for game in ("tenpins", "bowling-dice"):
        one = chance_by_position(Match.new(game, [PlayerSpec("a", "random")], seed=5))
        two = chance_by_position(Match.new(game, [PlayerSpec("a", "random"), PlayerSpec("b", "random")], seed=5))
        assert all(two[where] == outcome for where, outcome in one.items())  # seat 1 alone or with company
        seat_two = {where[1:]: text for where, text in two.items() if where[0] == 1}
        assert seat_two != {where[1:]: text for where, text in one.items()}  # another seat, other dice


def deals_seen(bot: str, seed: int) -> dict[tuple[int, str, int, int], int]:
    """Every card turned up in a Solitaire game: by (deal, slot kind, slot, cards turned there before)."""
    match = Match.new("bowling-solitaire", [PlayerSpec("s", bot)], seed=seed)
    cards: dict[tuple[int, str, int, int], int] = {}
    while not match.state.is_terminal():
        state = match.state
        assert isinstance(state, SolitaireState)
        if state.is_chance_node():
            slot = state.next_slot()
            assert slot is not None
            kind, where = slot
            turned = state.table.revealed[where - 1] if kind == "pile" else 0
            step = match.draw_chance()
            cards[(state.deals, kind, where, turned)] = int(str(step))
            match.apply(step)
        else:
            match.apply(match.bot_action())
    return cards


def test_two_bots_get_the_same_solitaire_deals() -> None:
    for seed in (11, 12):
        greedy, random_ = deals_seen("greedy", seed), deals_seen("random", seed)
        assert greedy != random_
        both = greedy.keys() & random_.keys()
        pins = [k for k in both if k[1] == "pin"]
        assert len(pins) >= 100  # ten pins of each of the ten (or more) deals
        assert all(greedy[k] == random_[k] for k in both)
        for deal in {k[0] for k in greedy}:  # each deal uses each card value at most twice
            values = [v for k, v in greedy.items() if k[0] == deal]
            assert all(values.count(v) <= 2 for v in values)


def test_records_say_their_draw_scheme_and_replay_checks_it() -> None:
    match = Match.new("rolling-pins", [PlayerSpec("g", "greedy"), PlayerSpec("r", "random")], seed=8)
    match.run_bots()
    data = match.record.to_json()
    assert data["draws"] == "position"
    assert replay(Record.from_json(data)).scores() == match.state.scores()
    forged = json.loads(json.dumps(data))
    first = next(i for i, s in enumerate(forged["steps"]) if s["actor"] == "chance")
    forged["steps"][first]["step"] = "6+6" if data["steps"][first]["step"] != "6+6" else "1+1"
    with pytest.raises(RecordError, match=r"not what seed 8 draws here"):
        replay(Record.from_json(forged))
    relabelled = dict(data, draws="step")  # the same dice claimed under the other scheme
    with pytest.raises(RecordError, match=r"draws here"):
        replay(Record.from_json(relabelled))
    with pytest.raises(RecordError, match=r"draws"):
        Record.from_json(dict(data, draws="shuffled"))


@pytest.mark.parametrize("path", sorted(STEP_RECORDS.glob("*.json")), ids=lambda p: p.stem)
def test_records_written_before_the_draws_field_still_replay_and_are_checked(path: Path) -> None:
    data = json.loads(path.read_text())
    assert "draws" not in data
    record = Record.from_json(data)
    assert record.draws == "step"
    state = replay(record)
    assert state.is_terminal() and state.scores() == [p["total"] for p in data["result"]["players"]]
    assert Record.from_json(data).to_json().get("draws") is None  # written back as it was
    steps = data["steps"]
    index = next(i for i, s in enumerate(steps) if s["actor"] == "chance" and i > 3)
    game = get_game(data["game"], data["options"])
    probe = game.new_state(len(data["players"]))
    for s in steps[:index]:
        probe.apply_text(s["step"])
    other = next(str(o) for o, _ in probe.chance_outcomes() if str(o) != steps[index]["step"])
    steps[index]["step"] = other
    with pytest.raises(RecordError, match=rf"step {index + 1}: chance step"):
        replay(Record.from_json(data))


@pytest.mark.parametrize("scheme", ["step", "position"])
def test_a_resumed_match_continues_as_the_uninterrupted_one(scheme: str) -> None:
    players = [PlayerSpec("g", "greedy"), PlayerSpec("r", "random")]
    whole = Match(get_game("rolling-pins", {"advanced": "true"}), players, 21, draws=scheme)  # type: ignore[arg-type]
    whole.run_bots()
    for cut in (7, 60, 151):
        part = Record.from_json(whole.record.to_json())
        part.steps = part.steps[:cut]
        part.result = None
        resumed = Match.resume(part)
        resumed.run_bots()
        assert [s.text for s in resumed.record.steps] == [s.text for s in whole.record.steps]


def invoke(args: list[str]) -> dict[str, object]:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    ("game", "bots", "seats"),
    [
        ("tenpins", "random", 1),
        ("bowling-dice", "random,random", 2),
        ("rolling-pins", "greedy,random", 1),
        ("rolling-pins", "greedy,random,random", 3),
        ("bowling-solitaire", "greedy,random", 1),
    ],
)
def test_tournaments_of_every_game_report_means_pairs_and_wins(game: str, bots: str, seats: int) -> None:
    deals = 6
    data = invoke(
        ["tournament", game, "--bots", bots, "--games", str(deals), "--seed", "4", "--seats", str(seats), "--json"]
    )
    names = [b["name"] for b in data["bots"]]  # type: ignore[index]
    assert len(names) == len(bots.split(",")) and data["deals"] == deals
    # Each bot's mean, recomputed game by game through the engine: deal i is game_seed(4, i).
    specs = [PlayerSpec(n, b["bot"]) for n, b in zip(names, data["bots"], strict=True)]  # type: ignore[arg-type]
    rotations = [[(s + t) % len(specs) for s in range(len(specs))] for t in range(len(specs))] if seats > 1 else None
    per_deal: list[list[float]] = [[] for _ in specs]
    compared: list[list[int]] = []  # each bot's score in one game at a table, or (seats 1) on one deal
    for deal in range(deals):
        seed = game_seed(4, deal)
        if rotations is None:
            scores = []
            for bot, spec in enumerate(specs):
                match = Match.new(game, [spec], seed=seed)
                match.run_bots()
                scores.append(match.state.scores()[0])
                per_deal[bot].append(scores[-1])
            compared.append(scores)
        else:
            totals = [0.0] * len(specs)
            for seating in rotations:
                match = Match.new(game, [specs[b] for b in seating], seed=seed)
                match.run_bots()
                by_bot = [0] * len(specs)
                for seat, bot in enumerate(seating):
                    by_bot[bot] = match.state.scores()[seat]
                    totals[bot] += by_bot[bot]
                compared.append(by_bot)
            for bot in range(len(specs)):
                per_deal[bot].append(totals[bot] / len(rotations))
    for bot, entry in enumerate(data["bots"]):  # type: ignore[arg-type]
        assert entry["mean"] == pytest.approx(sum(per_deal[bot]) / deals)
        assert entry["ci95"][0] <= entry["mean"] <= entry["ci95"][1]
    pairs = {(d["a"], d["b"]): d for d in data["differences"]}  # type: ignore[union-attr]
    assert len(pairs) == len(names) * (len(names) - 1) // 2
    for (a, b), d in pairs.items():
        ia, ib = names.index(a), names.index(b)
        assert d["mean"] == pytest.approx(sum(per_deal[ia]) / deals - sum(per_deal[ib]) / deals)
        if specs[ia].kind == specs[ib].kind == "random" and seats == 1:
            assert d["ci95"] == [0.0, 0.0]  # no decisions: the same chance gives the same scores
    wins = data["wins"]
    assert isinstance(wins, dict)
    for ia, a in enumerate(names):
        for ib, b in enumerate(names):
            if a != b:
                above = sum(1 for scores in compared if scores[ia] > scores[ib])
                assert wins[a][b] == pytest.approx(above / len(compared))
    text = runner.invoke(app, ["tournament", game, "--bots", bots, "--games", "3", "--seats", str(seats)])
    assert text.exit_code == 0 and "95% CI" in text.output


def test_tournament_rows_do_not_depend_on_the_chunks(tmp_path: Path) -> None:
    bots = PlayerSpec.parse_list("bot:greedy,bot:random")
    one = tournament_plan("bowling-solitaire", {}, bots, 9, 2, chunk=9)
    three = tournament_plan("bowling-solitaire", {}, bots, 9, 2, chunk=2)
    rows = execute(one, SerialBackend())
    assert execute(three, SerialBackend()) == rows
    assert summarise(one, rows) == summarise(three, rows)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tournament", "tenpins", "--bots", "random,greedy"], "no bot 'greedy' for tenpins"),
        (["tournament", "rolling-pins", "--bots", "greedy,random", "--seats", "3"], "--seats 3"),
        (["tournament", "bowling-solitaire", "--bots", "greedy,random", "--seats", "2"], "takes 1 player"),
        (["tournament", "tenpins", "--bots", "random", "--cluster", "nowhere"], "--cluster takes local:K"),
        (["tournament", "tenpins", "--bots", "random", "--resume", "Bad Id"], "run id"),
        (["simulate", "tenpins", "--resume", "0000abcd"], "no such run"),
        (["simulate", "tenpins", "--resume", "last"], "no unfinished run"),
    ],
)
def test_bad_tournament_and_run_arguments_are_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in result.output and len(result.output.strip().splitlines()) == 1


def stored_chunks(db: Path) -> int:
    try:
        with sqlite3.connect(db) as connection:
            return int(connection.execute("SELECT count(*) FROM run_chunks").fetchone()[0])
    except sqlite3.OperationalError:  # the tables are not made yet
        return 0


# `pinsetter` as a terminal starts it in the foreground, Ctrl+C at its default. A shell without job
# control starts a background job (`make test &`, nohup) with Ctrl+C ignored, its children inherit
# that, and Python then never turns Ctrl+C into KeyboardInterrupt: the run went on to its end.
# Ctrl+C comes as soon as the first chunk is stored, sent by the process to itself (the signal a
# terminal sends): a test that watched the history for it and sent it from outside could be held up
# on a loaded machine until the whole run had finished (it then exited 0).
INTERRUPTED_AFTER_FIRST_CHUNK = """
import os, runpy, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
from pinsetter.experiments.runs import StoredRun
save = StoredRun.save_chunks
def save_then_interrupt(run, chunks):
    save(run, chunks)
    if chunks:
        os.kill(os.getpid(), signal.SIGINT)
StoredRun.save_chunks = save_then_interrupt
sys.argv[0] = "pinsetter"
runpy.run_module("pinsetter.cli.app", run_name="__main__")
"""


def test_an_interrupted_run_resumes_to_the_uninterrupted_result(tmp_path: Path, private_history: Path) -> None:
    # 1,000 chunks: the interrupt lands after the first one is stored, far from the end.
    args = ["simulate", "tenpins", "-p", "bot:random,bot:random", "--games", "2000", "--chunk", "2", "--seed", "6"]
    env = dict(os.environ, PYTHONPATH=str(SRC), PINSETTER_DB=f"sqlite:///{private_history}")
    process = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED_AFTER_FIRST_CHUNK, *args, "--json"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, err
    assert out == "" and "interrupted; continue with --resume" in err
    run_id = err.split("--resume")[-1].split()[0]
    done = stored_chunks(private_history)
    assert 1 <= done < 1000  # interrupted part way
    resumed = runner.invoke(app, [*args, "--resume", run_id, "--json", "--workers", "2"])
    assert resumed.exit_code == 0, resumed.output
    again = runner.invoke(app, [*args, "--resume", "last", "--json"])  # finished: not "last" any more
    assert again.exit_code == 2 and "no unfinished run" in again.output
    whole = runner.invoke(app, [*args, "--json"], env={"PINSETTER_DB": f"sqlite:///{tmp_path / 'other.sqlite'}"})
    assert whole.exit_code == 0, whole.output
    assert json.loads(resumed.stdout) == json.loads(whole.stdout)
    assert resumed.stdout == whole.stdout
    assert stored_chunks(private_history) == 1000


def test_a_resume_with_other_parameters_is_refused(private_history: Path) -> None:
    storage = Storage()
    store = RunStore(storage)
    bots = PlayerSpec.parse_list("bot:random")  # as the command line names its bot seats
    plan = simulation_plan("tenpins", {}, bots, 50, 1, chunk=10)
    run = store.start(plan)
    run.save_chunk(0, execute(plan, SerialBackend())[:10])
    base = ["simulate", "tenpins", "--games", "50", "--seed", "1", "--chunk", "10", "--resume", run.id]
    for change, named in (
        (["--games", "60"], "--games 50, not 60"),
        (["--seed", "2"], "--seed 1, not 2"),
        (["--chunk", "5"], "--chunk 10, not 5"),
        (["--option", "frames=5"], "--option"),
        (["-p", "bot:random,bot:random"], "--players/--bots"),
    ):
        args = list(base)
        for i in range(0, len(change), 2):
            if change[i] in args:
                args[args.index(change[i]) + 1] = change[i + 1]
            else:
                args += change[i : i + 2]
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert named in result.output and len(result.output.strip().splitlines()) == 1
    tournament = runner.invoke(app, ["tournament", "tenpins", "--bots", "random", "--games", "50", "--resume", run.id])
    assert tournament.exit_code == 2 and "the command" in tournament.output
    last = runner.invoke(
        app, ["simulate", "tenpins", "--games", "50", "--seed", "1", "--chunk", "10", "--resume", "last", "--json"]
    )
    assert last.exit_code == 0, last.output
    fresh = runner.invoke(app, ["simulate", "tenpins", "--games", "50", "--seed", "1", "--chunk", "10", "--json"])
    assert last.stdout == fresh.stdout


def test_runs_are_kept_on_postgresql(postgres: str) -> None:
    storage = Storage(postgres)
    store = RunStore(storage)
    plan = tournament_plan("tenpins", {}, [PlayerSpec("random", "random")], 30, 3, chunk=10)
    run = store.start(plan)
    rows = execute(plan, SerialBackend())
    run.save_chunk(1, rows[10:20])
    run.save_chunk(1, rows[10:20])  # twice: kept once
    again = store.resume(run.id, plan)
    assert again.finished_chunks() == {1: rows[10:20]}
    assert execute(plan, SerialBackend(), again) == rows
    with pytest.raises(RunError, match="no unfinished run"):
        store.resume("last", plan)  # finished now
    other = tournament_plan("tenpins", {}, [PlayerSpec("random", "random")], 31, 3, chunk=10)
    with pytest.raises(RunError, match="--games 30, not 31"):
        store.resume(run.id, other)
    storage.engine.dispose()
