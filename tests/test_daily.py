"""The daily challenge (issue 31, part 3; docs/daily.md) through the API and the command line.

One app over a temporary SQLite history serves the module: two accounts (a real argon2 hash
each, about a second) play the day's short Ten Pins and Rolling Pins challenges once, and
the tests read what that left, moving the app's clock past the day where they need to. The
PostgreSQL variant (the `postgres` fixture) checks the shared secret and the one attempt.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from pinsetter.cli.app import app as cli
from pinsetter.games.pure_chance import PureChanceGame
from pinsetter.games.registry import get_game
from pinsetter.records import PlayerSpec, result_of
from pinsetter.session import Match
from pinsetter.solvers.distribution import analyze
from pinsetter.solvers.rolling_pins import RULES_VERSION, policy_for
from pinsetter.solvers.rolling_pins_win import ball_key, final_distribution
from pinsetter.storage import Storage
from pinsetter.storage.accounts import accounts
from pinsetter.storage.daily import DAILY_OPTIONS, DailyStore, daily_options, day_seed, today
from pinsetter.usertext import name_key
from pinsetter.web import daily as daily_web
from pinsetter.web.app import create_app
from pinsetter.web.daily import score_odds
from test_rolling_pins_win import final_scores
from waiting import CEILING, until

PASSWORD = "correct horse battery staple"
DAY = date(2026, 11, 20)  # a day long over for the command line, which reads the real clock
NOON = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
OPTIONS: dict[str, dict[str, object]] = {"tenpins": {"frames": 2}, "rolling-pins": {"pins": 4, "frames": 2}}


def error_of(answer: Any, status: int) -> str:
    """The one-line error of a refused request."""
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert list(body) == ["error"] and "\n" not in body["error"] and body["error"]
    return str(body["error"])


def quick_account(storage: Storage, name: str) -> int:
    """An account row without a password anyone could sign in with (no argon2 hash to wait for)."""
    made = {"name": name, "name_key": name_key(name), "password_hash": "-", "created": NOON.isoformat()}
    with storage.transaction() as connection:
        key = connection.execute(accounts.insert().values(made)).inserted_primary_key
    assert key is not None
    return int(key[0])


@dataclass
class Board:
    app: FastAPI
    db: str
    ann: TestClient
    bob: TestClient
    guest: TestClient
    ann_csrf: dict[str, str]
    bob_csrf: dict[str, str]
    games: dict[str, int]  # "ann:tenpins" -> game id
    answers: list[str]  # every answer's text while the day lasted, to look for the seed in

    @property
    def store(self) -> DailyStore:
        store: DailyStore = self.app.state.daily.store
        return store

    def at(self, moment: datetime) -> None:
        self.app.state.daily.clock = lambda: moment


def sign_up(client: TestClient, name: str) -> dict[str, str]:
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return {"X-CSRF-Token": answer.json()["csrf_token"]}


def play_to_end(client: TestClient, view: dict[str, Any], headers: dict[str, str], seen: list[str]) -> dict[str, Any]:
    """Roll, and take the last legal decision, until the game ends (every answer kept in `seen`)."""
    gid = view["id"]
    while view["next"] != "over":
        if view["next"] == "decision":
            answer = client.post(
                f"/api/games/{gid}/actions", json={"action": view["legal_actions"][-1]}, headers=headers
            )
        else:
            answer = client.post(f"/api/games/{gid}/advance", json={"until": "step"}, headers=headers)
        assert answer.status_code == 200, answer.text
        seen.append(answer.text)
        view = answer.json()
    return view


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Board]:
    db = str(tmp_path_factory.mktemp("daily") / "h.sqlite")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("pinsetter.storage.daily.DAILY_OPTIONS", {**DAILY_OPTIONS, **OPTIONS})
        made = create_app(db)
        with TestClient(made) as ann:
            bob, guest = TestClient(made), TestClient(made)
            found = Board(made, db, ann, bob, guest, sign_up(ann, "Ann"), sign_up(bob, "Bob"), {}, [])
            found.at(NOON)
            plays = [("ann", ann, found.ann_csrf, "tenpins"), ("bob", bob, found.bob_csrf, "tenpins")]
            plays.append(("ann", ann, found.ann_csrf, "rolling-pins"))
            for who, client, headers, game in plays:
                started = client.post(f"/api/daily/{game}/start", headers=headers)
                assert started.status_code == 201, started.text
                again = client.post(f"/api/daily/{game}/start", headers=headers)  # unfinished: the same game
                assert again.status_code == 200 and again.json()["id"] == started.json()["id"]
                found.answers += [started.text, again.text]
                play_to_end(client, started.json(), headers, found.answers)
                found.games[f"{who}:{game}"] = started.json()["id"]
            left = bob.post("/api/daily/bowling-dice/start", headers=found.bob_csrf)  # one roll, then left
            assert left.status_code == 201, left.text
            found.games["bob:bowling-dice"] = left.json()["id"]
            rolled = bob.post(f"/api/games/{left.json()['id']}/advance", json={"until": "step"}, headers=found.bob_csrf)
            assert rolled.status_code == 200 and rolled.json()["next"] != "over"
            found.answers += [left.text, rolled.text]
            yield found


def test_the_seed_needs_the_server_secret() -> None:
    first, second = "a" * 64, "b" * 64
    seed = day_seed(first, DAY, "tenpins")
    assert seed == day_seed(first, DAY, "tenpins") and 0 <= seed < 2**63
    assert seed != day_seed(second, DAY, "tenpins")  # another secret: another seed
    assert seed != day_seed(first, DAY + timedelta(days=1), "tenpins") != day_seed(first, DAY, "bowling-dice")
    assert today(datetime(2026, 11, 20, 23, 30, tzinfo=UTC)) == DAY  # the day is UTC's, wherever the player is


def test_the_secret_is_made_once_and_shared_through_the_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'h.sqlite'}"
    one, two = DailyStore(Storage(url)), DailyStore(Storage(url))  # two server processes
    assert len(one.secret()) == 64 and one.secret() == two.secret()
    assert one.seed(DAY, "tenpins") == two.seed(DAY, "tenpins")
    other = DailyStore(Storage(f"sqlite:///{tmp_path / 'other.sqlite'}"))
    assert other.seed(DAY, "tenpins") != one.seed(DAY, "tenpins")


def test_two_accounts_get_the_same_dice_and_one_attempt(board: Board) -> None:
    storage = Storage(board.db)
    ann, bob = (storage.get(board.games[f"{who}:tenpins"]) for who in ("ann", "bob"))
    assert ann is not None and bob is not None
    assert ann.record.seed == bob.record.seed == board.store.seed(DAY, "tenpins")
    assert ann.record.options == bob.record.options == OPTIONS["tenpins"]
    assert [s.text for s in ann.record.steps] == [s.text for s in bob.record.steps] and ann.record.steps
    assert "one attempt a day" in error_of(board.ann.post("/api/daily/tenpins/start", headers=board.ann_csrf), 409)
    assert "sign in" in error_of(board.guest.post("/api/daily/tenpins/start"), 401)
    mine = board.ann.get("/api/daily/tenpins").json()["yours"]
    assert mine == {
        "game_id": board.games["ann:tenpins"],
        "finished": True,
        "score": (ann.record.result or {})["players"][0]["total"],
    }


def test_todays_seed_is_shown_nowhere_while_the_day_lasts(board: Board) -> None:
    seed = str(board.store.seed(DAY, "tenpins"))
    gid, other = board.games["ann:tenpins"], board.games["ann:rolling-pins"]
    seen = list(board.answers)
    for path in (f"/api/games/{gid}", f"/api/games/{gid}/steps/0", f"/api/games/{gid}/steps/2", f"/api/games/{other}"):
        answer = board.ann.get(path)  # the player's own game: seen, its seed left out
        assert answer.status_code == 200 and answer.json()["seed"] is None, answer.text
        seen.append(answer.text)
    for tail in ("record", "review", "hint"):  # nobody gets these, the player included
        seen.append(error_of(board.ann.get(f"/api/games/{other}/{tail}"), 409))
    for client in (board.bob, board.guest):  # another player's game is closed until the day ends
        assert "another player's daily challenge" in error_of(client.get(f"/api/games/{gid}"), 403)
        seen.append(error_of(client.get(f"/api/games/{gid}/steps/1"), 403))
        seen.append(error_of(client.post(f"/api/games/{other}/undo", headers=board.bob_csrf), 403))
    for path in ("/api/daily", "/api/daily/tenpins", "/api/daily/tenpins/leaderboard", "/api/history"):
        for client in (board.ann, board.bob, board.guest):
            answer = client.get(path)
            assert answer.status_code == 200, answer.text
            seen.append(answer.text)
    assert board.ann.get("/api/daily/tenpins").json()["seed"] is None
    assert set(board.games.values()) <= {g.id for g in Storage(board.db).history()}  # kept, and yet
    for client in (board.ann, board.bob, board.guest):  # the history does not list today's attempts
        listed = {entry["id"] for entry in client.get("/api/history").json()}
        assert not listed & set(board.games.values())
    for text in seen:
        assert seed not in text and board.store.secret() not in text
    rows = board.bob.get("/api/daily/tenpins/leaderboard").json()
    assert {row["name"]: row["game_id"] for row in rows} == {"Ann": None, "Bob": board.games["bob:tenpins"]}


def test_a_past_days_seed_is_published_and_replays_offline(board: Board) -> None:
    board.at(NOON + timedelta(days=1))
    try:
        seed = board.store.seed(DAY, "tenpins")
        published = board.guest.get("/api/daily/tenpins", params={"date": DAY.isoformat()}).json()
        assert published["seed"] == str(seed) and published["start"] is None and not published["today"]
        assert board.guest.get("/api/daily/tenpins").json()["seed"] is None  # the new day's: not yet
        gid = board.games["ann:tenpins"]
        record = board.bob.get(f"/api/games/{gid}/record")
        assert record.status_code == 200 and record.json()["seed"] == seed
        assert board.guest.get(f"/api/games/{gid}").json()["seed"] == str(seed)
        offline = Match.new("tenpins", [PlayerSpec("Zoe")], int(published["seed"]), dict(published["options"]))
        while not offline.state.is_terminal():
            offline.apply(offline.draw_chance())
        assert [s.text for s in offline.record.steps] == [s["step"] for s in record.json()["steps"]]
        # The review of the day's Rolling Pins game: the best play on those very dice.
        review = board.guest.get(f"/api/games/{board.games['ann:rolling-pins']}/review")
        assert review.status_code == 200, review.text
        (ann,) = review.json()["players"]
        assert ann["name"] == "Ann" and ann["decisions"] and review.json()["exact"]
        listed = {entry["id"] for entry in board.guest.get("/api/history").json()}
        assert set(board.games.values()) <= listed  # the history lists them again
        left = board.games["bob:bowling-dice"]  # an attempt left unfinished is not played on with the seed out
        for tail in ("advance", "undo"):
            refused = error_of(board.bob.post(f"/api/games/{left}/{tail}", headers=board.bob_csrf), 409)
            assert "is over" in refused
        assert board.bob.get(f"/api/games/{left}").json()["seed"] == str(board.store.seed(DAY, "bowling-dice"))
        rows = board.guest.get("/api/daily/tenpins/leaderboard", params={"date": DAY.isoformat()}).json()
        assert {row["game_id"] for row in rows} == {gid, board.games["bob:tenpins"]}  # out, now the day is over
    finally:
        board.at(NOON)


def test_the_board_is_ranked_with_the_exact_odds(board: Board) -> None:
    """A third attempt, played on other dice (as if the seed had been another), ranks apart from the two ties."""
    cy = quick_account(board.store.storage, "Cy")
    scores = {}
    for seed in range(1, 200):  # a seed whose game scores otherwise than the day's
        match = Match.new("tenpins", [PlayerSpec("Cy")], seed, daily_options("tenpins") | OPTIONS["tenpins"])
        while not match.state.is_terminal():
            match.apply(match.draw_chance())
        scores[seed] = match.state.scoresheet(0).total
        day_score = board.ann.get("/api/daily/tenpins").json()["yours"]["score"]
        if scores[seed] != day_score:
            break
    match.record.result = result_of(match.state, match.players)
    board.store.start(DAY, "tenpins", cy, match.record)
    rows = board.guest.get("/api/daily/tenpins/leaderboard").json()
    assert [row["score"] for row in rows] == sorted((row["score"] for row in rows), reverse=True)
    assert sorted(row["name"] for row in rows) == ["Ann", "Bob", "Cy"]
    ties = [row for row in rows if row["name"] in ("Ann", "Bob")]
    assert ties[0]["rank"] == ties[1]["rank"] and ties[0]["score"] == ties[1]["score"]
    game = get_game("tenpins", OPTIONS["tenpins"])
    assert isinstance(game, PureChanceGame)
    exact = analyze(game).exact
    for row in rows:
        assert row["rank"] == 1 + sum(other["score"] > row["score"] for other in rows)
        assert Fraction(row["odds_exact"]) == sum(exact[row["score"] :], Fraction(0))
        assert row["odds"] == pytest.approx(float(Fraction(row["odds_exact"])))
    assert all(row["odds_pending"] is False for row in rows)
    challenge = board.guest.get("/api/daily/tenpins").json()
    assert challenge["has_odds"] and challenge["odds_kind"] == "exact" and not challenge["odds_pending"]


def optimal_play(options: dict[str, object]) -> dict[int, float]:
    """P(final score = s) of the optimal bot from the start, by playing every roll out through the engine
    (tests/test_rolling_pins_win.py's walk): independent of the solver's score tables."""
    return final_scores(get_game("rolling-pins", options).new_state(1), 0)


@pytest.mark.parametrize("options", [{"pins": 4, "frames": 1}, {"pins": 3, "frames": 2}], ids=["1-frame", "2-frames"])
def test_rolling_pins_odds_equal_the_optimal_bots_play(options: dict[str, object]) -> None:
    """The odds of a short game against every roll played out by the engine and the optimal bot (small
    games: the walk takes a second; the day's own game is checked against the solver below)."""
    dist = optimal_play(options)
    assert sum(dist.values()) == pytest.approx(1.0, abs=1e-12)
    until(lambda: score_odds("rolling-pins", options, 0) is not None, "the odds worked out in their thread")
    for score in range(max(dist) + 3):
        at_least = sum(chance for s, chance in dist.items() if s >= score)
        assert score_odds("rolling-pins", options, score) == pytest.approx(at_least, abs=1e-9)


def test_the_days_rolling_pins_board_has_an_optimal_players_odds(board: Board) -> None:
    """The day's basic Rolling Pins board: the chance that the optimal player scores at least as much."""
    rows = until(
        lambda: [r for r in board.guest.get("/api/daily/rolling-pins/leaderboard").json() if not r["odds_pending"]],
        "the Rolling Pins odds worked out",
    )
    (rolled,) = rows
    challenge = board.guest.get("/api/daily/rolling-pins").json()
    assert challenge["has_odds"] and challenge["odds_kind"] == "optimal" and not challenge["odds_pending"]
    assert rolled["name"] == "Ann" and rolled["odds_exact"] is None  # a float, not a fraction
    policy = policy_for(4, 2, 1)  # OPTIONS["rolling-pins"], tokens on
    solver = final_distribution(policy, ball_key(2, 1, 1, False, 0, 0), 0, 0b1111, 1)
    assert rolled["odds"] == pytest.approx(float(solver[rolled["score"] :].sum()), abs=1e-9)
    odds = [score_odds("rolling-pins", OPTIONS["rolling-pins"], s) for s in range(len(solver) + 2)]
    assert odds[0] == pytest.approx(1.0, abs=1e-12) and odds[-1] == odds[-2] == 0.0
    # The mean of a score is the sum of P(score >= s) over s >= 1: the policy's expected score.
    assert sum(chance or 0.0 for chance in odds[1:]) == pytest.approx(policy.expected_score, abs=1e-9)


def asked_while_held(board: Board) -> None:
    """The board and the challenge while the odds are being worked out: pending, asked twice, worked out once."""
    (listed,) = [c for c in board.guest.get("/api/daily").json() if c["game"] == "rolling-pins"]
    assert listed["has_odds"] and listed["odds_pending"] and not daily_web.ODDS.working  # the list starts nothing
    (pending,) = board.guest.get("/api/daily/rolling-pins/leaderboard").json()
    assert pending["odds"] is None and pending["odds_exact"] is None and pending["odds_pending"] is True
    challenge = board.guest.get("/api/daily/rolling-pins").json()
    assert challenge["has_odds"] and challenge["odds_pending"] is True
    assert len(daily_web.ODDS.working) == 1  # asked twice, worked out once


def test_the_board_answers_pending_then_the_odds_and_keeps_them(board: Board, monkeypatch: pytest.MonkeyPatch) -> None:
    """Worked out in a thread (held here until the board has answered pending): the board never waits on it."""
    released = threading.Event()
    real = daily_web._optimal_odds

    def held(game: str, options_json: str) -> tuple[float, ...]:
        assert released.wait(CEILING), "the test never let the odds be worked out"
        return real(game, options_json)

    with board.store.storage.transaction() as connection:
        connection.execute(sa.text("DELETE FROM daily_odds"))  # nothing kept by an earlier test
    monkeypatch.setattr(daily_web, "ODDS", daily_web.OddsBook())  # nothing worked out in this process yet
    monkeypatch.setattr(daily_web, "_optimal_odds", held)
    try:
        asked_while_held(board)
    finally:
        released.set()
    (row,) = until(
        lambda: [r for r in board.guest.get("/api/daily/rolling-pins/leaderboard").json() if r["odds"] is not None],
        "the odds after their work",
    )
    assert row["odds_pending"] is False and not daily_web.ODDS.working
    options_json = json.dumps(OPTIONS["rolling-pins"], sort_keys=True)
    worked_out = real("rolling-pins", options_json)
    assert row["odds"] == worked_out[row["score"]]
    assert board.guest.get("/api/daily/rolling-pins").json()["odds_pending"] is False
    # Kept in the database (the same doubles), so another process or a restart reads them instead.
    assert DailyStore(Storage(board.db)).kept_odds(RULES_VERSION, "rolling-pins", options_json) == worked_out

    def never(game: str, options_json: str) -> tuple[float, ...]:
        raise AssertionError("the odds were worked out again")

    monkeypatch.setattr(daily_web, "ODDS", daily_web.OddsBook())  # as if the server had restarted
    monkeypatch.setattr(daily_web, "_optimal_odds", never)
    (again,) = board.guest.get("/api/daily/rolling-pins/leaderboard").json()
    assert again["odds_pending"] is False and again["odds"] == worked_out[again["score"]]
    assert not daily_web.ODDS.working


def test_odds_only_where_a_solver_gives_a_distribution(board: Board) -> None:
    cases: tuple[tuple[str, dict[str, object]], ...] = (("bowling-solitaire", {}), ("rolling-pins", {"advanced": True}))
    for game, options in cases:
        assert daily_web.ODDS.odds(game, options) == daily_web.Odds(None)
        assert score_odds(game, options, 0) is None
    (solitaire,) = [c for c in board.guest.get("/api/daily").json() if c["game"] == "bowling-solitaire"]
    assert solitaire["has_odds"] is False and solitaire["odds_kind"] is None and solitaire["odds_pending"] is False


def test_refusals_name_what_was_wrong(board: Board) -> None:
    assert "YYYY-MM-DD" in error_of(board.guest.get("/api/daily/tenpins", params={"date": "20/11/2026"}), 422)
    later = (DAY + timedelta(days=1)).isoformat()
    assert "has not come yet" in error_of(board.guest.get("/api/daily/tenpins", params={"date": later}), 422)
    assert "has not come yet" in error_of(
        board.guest.get("/api/daily/tenpins/leaderboard", params={"date": later}), 422
    )
    assert "nosuch" in error_of(board.guest.get("/api/daily/nosuch"), 404)
    assert "sign in" in error_of(board.guest.post("/api/daily/bowling-dice/start"), 401)


runner = CliRunner()


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["--daily", "{today}", "tenpins", "--seed", "1"], "not over yet"),
        (["--daily", "{tomorrow}", "tenpins", "--seed", "1"], "not over yet"),
        (["--daily", "2026-13-01", "tenpins", "--seed", "1"], "YYYY-MM-DD"),
        (["--daily", "{yesterday}", "tenpins"], "add --seed N"),
        (["--daily", "{yesterday}", "tenpins", "--seed", "1", "-o", "frames=1"], "no --option"),
        (["--daily", "{yesterday}", "--seed", "1"], "needs the game"),
    ],
    ids=["today", "tomorrow", "bad-date", "no-seed", "options", "no-game"],
)
def test_play_daily_refuses_in_one_line(arguments: list[str], words: str) -> None:
    now = today()
    days = {"{today}": now, "{tomorrow}": now + timedelta(days=1), "{yesterday}": now - timedelta(days=1)}
    given = [days[a].isoformat() if a in days else a for a in arguments]
    result = runner.invoke(cli, ["play", *given])
    assert result.exit_code == 2, result.output
    (line,) = result.output.strip().split("\n")
    assert line.startswith("pinsetter: ") and words in line


def test_play_daily_replays_the_published_challenge(board: Board, private_history: Path) -> None:
    seed = board.store.seed(DAY, "tenpins")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("pinsetter.storage.daily.DAILY_OPTIONS", OPTIONS)
        result = runner.invoke(
            cli, ["play", "--daily", DAY.isoformat(), "tenpins", "--seed", str(seed)], input="\n" * 20
        )
    assert result.exit_code == 0, result.output
    (replayed,) = Storage(f"sqlite:///{private_history}").history()
    played = Storage(board.db).get(board.games["ann:tenpins"])
    assert played is not None and replayed.finished
    assert replayed.record.seed == seed and replayed.record.options == played.record.options
    assert [s.text for s in replayed.record.steps] == [s.text for s in played.record.steps]


def test_postgresql_shares_the_secret_and_keeps_one_attempt(postgres: str) -> None:
    one, two = DailyStore(Storage(postgres)), DailyStore(Storage(postgres))
    assert one.secret() == two.secret() and one.seed(DAY, "tenpins") == two.seed(DAY, "tenpins")
    ann = quick_account(one.storage, "Ann")
    match = Match.new("tenpins", [PlayerSpec("Ann")], one.seed(DAY, "tenpins"), {"frames": 1})
    match.record.result = result_of(match.state, match.players)
    game_id, new = one.start(DAY, "tenpins", ann, match.record)
    again = Match.new("tenpins", [PlayerSpec("Ann")], one.seed(DAY, "tenpins"), {"frames": 1})
    again.record.result = result_of(again.state, again.players)
    assert new and two.start(DAY, "tenpins", ann, again.record) == (game_id, False)
    assert two.of_game(game_id) == (DAY, ann) and [e.game_id for e in two.board(DAY, "tenpins")] == [game_id]
    with one.storage.engine.begin() as connection:
        assert connection.execute(sa.text("SELECT count(*) FROM daily_games")).scalar_one() == 1
    one.keep_odds("rules", "rolling-pins", "{}", (1.0, 0.1 + 0.2))
    two.keep_odds("rules", "rolling-pins", "{}", (1.0, 0.5))  # the first kept stays
    assert two.kept_odds("rules", "rolling-pins", "{}") == (1.0, 0.1 + 0.2)
    assert one.kept_odds("other rules", "rolling-pins", "{}") is None


def start_at_once(url: str) -> None:
    """Two server processes (two stores over one database) start one account's attempt at the same moment."""
    import threading

    stores = [DailyStore(Storage(url)) for _ in range(2)]
    ann = quick_account(stores[0].storage, "Ann")
    gate = threading.Barrier(2)
    made: list[tuple[int, bool]] = []

    def start(store: DailyStore) -> None:
        match = Match.new("tenpins", [PlayerSpec("Ann")], store.seed(DAY, "tenpins"), {"frames": 1})
        match.record.result = result_of(match.state, match.players)
        gate.wait()
        made.append(store.start(DAY, "tenpins", ann, match.record))

    threads = [threading.Thread(target=start, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({game_id for game_id, _new in made}) == 1 and sorted(new for _id, new in made) == [False, True]
    assert [e.game_id for e in stores[1].board(DAY, "tenpins")] == [made[0][0]]
    assert len(stores[0].storage.history()) == 1  # the second start's game went with its refused row


def test_two_starts_at_once_make_one_attempt(tmp_path: Path) -> None:
    start_at_once(f"sqlite:///{tmp_path / 'h.sqlite'}")


def test_two_starts_at_once_make_one_attempt_on_postgresql(postgres: str) -> None:
    start_at_once(postgres)
