"""Ratings (issue 31, part 2): rated tables rate their signed-in players once when the game ends.

The app runs in-process under `TestClient` over a temporary SQLite history (PostgreSQL under
the `postgres` fixture, as the other tests). Each sign-up costs an argon2id hash (about a
second on a loaded machine), so accounts are few and reused within a test.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from pinsetter.bots.base import bot_names
from pinsetter.games.registry import all_games
from pinsetter.storage import Storage
from pinsetter.storage.accounts import AccountStore
from pinsetter.storage.ratings import ANCHORS, RatingStore, ranks_of, rate_table, rating_changes
from pinsetter.storage.tables import Seat, StoredTable, TableStore
from pinsetter.web.app import create_app
from test_web_accounts import sign_up
from test_web_tables import assert_replays, error_of, play_alone, play_out, receive, start


def host_rated(
    client: TestClient, seats: list[str], game: str = "tenpins", rated: bool = True, **options: Any
) -> dict[str, Any]:
    body = {"game": game, "options": options, "seats": [{"kind": k} for k in seats], "seed": 5, "rated": rated}
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    assert made["table"]["rated"] is rated
    return made


def sit_signed_in(client: TestClient, table_id: int, seat: int, csrf: dict[str, str]) -> str:
    answer = client.post(f"/api/tables/{table_id}/seats/{seat}", json={}, headers=csrf)
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


def play_two(client: TestClient, table: dict[str, Any], tokens: dict[int, str]) -> list[int]:
    """Start the table, play it out with its two human seats; each seat's total."""
    game_id = start(client, table)
    url = f"/ws/tables/{table['id']}"
    with (
        client.websocket_connect(f"{url}?token={tokens[0]}") as w0,
        client.websocket_connect(f"{url}?token={tokens[1]}") as w1,
    ):
        play_out({0: w0, 1: w1}, [], {0: receive(w0), 1: receive(w1)})
    result = assert_replays(client, game_id).result
    assert result is not None
    return [int(p["total"]) for p in result["players"]]


def board(client: TestClient, game: str = "tenpins", mode: str | None = None) -> list[dict[str, Any]]:
    answer = client.get(f"/api/leaderboard/{game}", params={} if mode is None else {"mode": mode})
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()
    return found


def rated_game_between_two_accounts(client: TestClient) -> None:
    """Ann and Bob play a rated table (a guest may not sit there), then an unrated one that changes nothing."""
    ann = sign_up(client, "Ann")
    client.headers.update(ann)  # every change made with the session carries its CSRF token
    table = host_rated(client, ["human", "human"], frames=1)
    session = dict(client.cookies)
    client.cookies.clear()  # a guest may not sit at a rated table
    assert "rated" in error_of(client.post(f"/api/tables/{table['id']}/seats/1", json={"name": "Guest"}), 422)
    client.cookies.update(session)
    tokens = {0: sit_signed_in(client, table["id"], 0, ann)}
    bob = sign_up(client, "Bob")  # the browser's session is Bob's now
    client.headers.update(bob)
    tokens[1] = sit_signed_in(client, table["id"], 1, bob)
    assert board(client) == []
    totals = play_two(client, table, tokens)

    leaders = board(client)
    assert sorted(leader["name"] for leader in leaders) == ["Ann", "Bob"] and all(e["games"] == 1 for e in leaders)
    rating = {leader["name"]: leader["rating"] for leader in leaders}
    if totals[0] == totals[1]:
        assert rating["Ann"] == rating["Bob"]
    else:
        winner, loser = ("Ann", "Bob") if totals[0] > totals[1] else ("Bob", "Ann")
        assert rating[winner] > rating[loser] and leaders[0]["name"] == winner
    profile = client.get("/api/players/ann").json()
    assert profile["name"] == "Ann" and profile["games"] == 1
    assert profile["ratings"] == [{"game": "tenpins", "mode": "standard", "rating": rating["Ann"], "games": 1}]
    (point,) = profile["history"]
    assert point["table_id"] == table["id"] and point["rating"] == rating["Ann"] and point["players"] == 2
    assert point["rank"] == (1 if totals[0] >= totals[1] else 2) and point["game_id"] is not None

    unrated = host_rated(client, ["human", "human"], rated=False, frames=1)
    others = {1: sit_signed_in(client, unrated["id"], 1, bob)}
    client.cookies.clear()  # a guest sits at an unrated table
    others[0] = client.post(f"/api/tables/{unrated['id']}/seats/0", json={"name": "Guest"}).json()["token"]
    play_two(client, unrated, others)
    assert board(client) == leaders
    assert client.get("/api/players/Bob").json()["games"] == 1


def test_a_rated_game_between_two_accounts_rates_both_and_an_unrated_one_does_not(client: TestClient) -> None:
    rated_game_between_two_accounts(client)


def test_rated_games_on_postgresql(postgres: str) -> None:
    with TestClient(create_app(postgres)) as client:
        rated_game_between_two_accounts(client)


def wait_finished(client: TestClient, table_id: int) -> None:
    for _ in range(3000):
        if client.get(f"/api/tables/{table_id}").json()["status"] == "finished":
            return
        time.sleep(0.01)
    raise AssertionError("the table's game never ended")


def test_a_lone_player_is_rated_against_a_bot_and_rolling_pins_modes_apart(client: TestClient) -> None:
    ann = sign_up(client, "Ann")
    client.headers.update(ann)
    table = host_rated(client, ["human", "bot:random"], frames=1)
    token = sit_signed_in(client, table["id"], 0, ann)
    start(client, table)
    play_alone(client, table["id"], token)
    (leader,) = board(client)
    assert leader["name"] == "Ann" and leader["games"] == 1  # bots are anchors, never on a board

    advanced = host_rated(client, ["human", "bot:greedy"], game="rolling-pins", advanced=True, frames=1)
    sit_signed_in(client, advanced["id"], 0, ann)
    start(client, advanced)
    handed = client.post(
        f"/api/tables/{advanced['id']}/seats/0/bot", json={"host_token": advanced["host_token"], "bot": "random"}
    )
    assert handed.status_code == 200, handed.text  # Ann leaves; her seat, played by a bot, still rates her
    wait_finished(client, advanced["id"])
    assert [e["name"] for e in board(client, "rolling-pins", "advanced")] == ["Ann"]
    assert board(client, "rolling-pins", "basic") == board(client, "rolling-pins") == []
    modes = [(r["game"], r["mode"]) for r in client.get("/api/players/Ann").json()["ratings"]]
    assert modes == [("rolling-pins", "advanced"), ("tenpins", "standard")]


def test_refused_rated_tables_and_unknown_boards(client: TestClient) -> None:
    for seats in (["human"], ["bot:random", "bot:random"]):
        body = {"game": "tenpins", "seats": [{"kind": k} for k in seats], "rated": True}
        assert "rated" in error_of(client.post("/api/tables", json=body), 422)
    error_of(client.get("/api/leaderboard/chess"), 404)
    assert "basic, advanced" in error_of(client.get("/api/leaderboard/rolling-pins?mode=expert"), 422)
    error_of(client.get("/api/leaderboard/tenpins?mode=advanced"), 422)
    error_of(client.get("/api/players/Nobody"), 404)


def test_ties_share_a_rank() -> None:
    assert ranks_of({"players": [{"total": 10}, {"total": 20}, {"total": 20}, {"total": 5}]}) == [3, 1, 1, 4]


def test_every_bot_has_a_fixed_anchor() -> None:
    for game in all_games():
        assert set(bot_names(game)) <= set(ANCHORS), game


def two_accounts_and_a_bot(storage: Storage) -> tuple[AccountStore, TableStore, StoredTable]:
    """Ann and Bob (accounts) and a random bot at a rated table."""
    people = AccountStore(storage)
    ann, bob = people.create("Ann", "correct horse"), people.create("Bob", "correct horse")
    seats = [Seat("human", "Ann", "a" * 64, ann.id), Seat("human", "Bob", "b" * 64, bob.id), Seat("bot:random", "R")]
    store = TableStore(storage)
    table, _host = store.create("tenpins", {"frames": 1}, 1, seats, {"rated": True})
    return people, store, table


def test_two_processes_ending_one_table_at_once_rate_it_once_on_postgresql(postgres: str) -> None:
    """Beyond the compare-and-set that lets one writer end a game: the rating's own check holds under a race."""
    storage = Storage(postgres)
    _people, _store, table = two_accounts_and_a_bot(storage)
    result = {"players": [{"total": 30}, {"total": 20}, {"total": 10}]}
    barrier = threading.Barrier(2)
    failures: list[BaseException] = []

    def end() -> None:
        try:
            with Storage(postgres).transaction() as connection:
                barrier.wait()  # both past the first look before either commits
                rate_table(connection, table, result)
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=end) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []  # the later one finds the table rated, and the step that ended the game stands
    leaders = RatingStore(storage).leaderboard("tenpins", "standard")
    assert [(e.name, e.games) for e in leaders] == [("Ann", 1), ("Bob", 1)]
    with storage.engine.begin() as connection:
        assert connection.execute(sa.select(sa.func.count()).select_from(rating_changes)).scalar_one() == 2


def test_a_tie_moves_both_alike_and_a_table_is_rated_once(tmp_path: Any) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'r.sqlite'}")
    people, store, table = two_accounts_and_a_bot(storage)
    ann = people.owner_of("Ann")
    assert ann is not None
    tie = {"players": [{"total": 30}, {"total": 30}, {"total": 10}]}
    for _attempt in range(2):  # the second time (another process seeing the end): nothing changes
        with storage.transaction() as connection:
            rate_table(connection, table, tie)
    leaders = RatingStore(storage).leaderboard("tenpins", "standard")
    assert [(e.rating, e.games) for e in leaders] == [(leaders[0].rating, 1)] * 2
    assert leaders[0].rating > 1000  # above a new account: both beat the anchor, and they grew surer
    with pytest.raises(sa.exc.IntegrityError), storage.transaction() as connection:  # the database refuses a second
        row = {"table_id": table.id, "account_id": ann.id, "game": "tenpins", "mode": "standard", "rank": 1}
        connection.execute(rating_changes.insert().values(**row, players=3, mu=1, sigma=1, delta=0, at="now"))
    table.status = "finished"
    assert store.update(table)
    people.delete(ann)  # her ratings and their history go with the account
    assert [e.name for e in RatingStore(storage).leaderboard("tenpins", "standard")] == ["Bob"]
    with storage.engine.begin() as connection:
        assert connection.execute(sa.select(sa.func.count()).select_from(rating_changes)).scalar_one() == 1


def test_the_boards_are_listed_with_titles_in_words(client: TestClient) -> None:
    """The pages name a board by its title, never its ids: Rolling Pins' two modes apart, one board per other game."""
    answer = client.get("/api/leaderboards")
    assert answer.status_code == 200, answer.text
    found = {(b["game"], b["mode"]): b["title"] for b in answer.json()}
    assert found[("rolling-pins", "basic")] == "Rolling Pins, basic"
    assert found[("rolling-pins", "advanced")] == "Rolling Pins, advanced"
    assert found[("tenpins", "standard")] == all_games()["tenpins"].name  # its name, as the catalog gives it
    assert len(found) == len(all_games()) + 1
    for game, mode in found:  # every board listed answers
        assert client.get(f"/api/leaderboard/{game}", params={"mode": mode}).status_code == 200
    japanese = client.get("/api/leaderboards", headers={"accept-language": "ja"}).json()
    assert all(b["title"] != found[(b["game"], b["mode"])] for b in japanese if b["game"] == "rolling-pins")
