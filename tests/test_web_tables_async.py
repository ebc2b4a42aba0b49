"""Open tables anyone can find, and asynchronous tables whose turn timer counts in hours (issue 31, part 4).

A host lists a table (`"listed": true`) and it appears in `GET /api/tables?open=true`
until it starts, newest first, with what a stranger needs to join and never a token.
An asynchronous table (`"turn_hours": N`) counts each decision's time from the stored
time of the game's last step: its deadlines survive every player leaving and a
restart, and the fallback bot plays a decision whose time ran out, with nobody
connected. A signed-in player finds the tables where it is their turn in
`GET /api/tables?mine=true`.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from pinsetter.storage import Storage
from pinsetter.storage.db import games
from pinsetter.web.accounts import SESSION_COOKIE
from pinsetter.web.app import create_app
from test_web_tables import error_of, receive, sit, start, steps
from waiting import until

PASSWORD = "correct horse battery staple"
KEYS = {"id", "join_code", "game", "options", "title", "rated", "turn_seconds", "turn_hours", "host"}
KEYS |= {"seats", "free_seats", "players", "created"}


def sign_up(client: TestClient, name: str) -> dict[str, str]:
    """Sign up (and so in): the headers a change made with the session carries."""
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return {"X-CSRF-Token": answer.json()["csrf_token"]}


def sign_in(client: TestClient, name: str) -> dict[str, str]:
    answer = client.post("/api/session", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return {"X-CSRF-Token": answer.json()["csrf_token"]}


def new_table(client: TestClient, headers: dict[str, str] | None = None, **body: Any) -> dict[str, Any]:
    body.setdefault("seats", [{"kind": "human"}, {"kind": "human"}])
    answer = client.post("/api/tables", json={"game": "tenpins", "options": {"frames": 1}, **body}, headers=headers)
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def open_tables(client: TestClient) -> list[dict[str, Any]]:
    answer = client.get("/api/tables?open=true")
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()
    return found


def to_play(client: TestClient) -> list[dict[str, Any]]:
    answer = client.get("/api/tables?mine=true")
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()
    return found


def set_last_step_time(db: str, game_id: int, ago: timedelta) -> None:
    """Pretend the game's last step was stored `ago` (as if the server had stood still that long)."""
    storage = Storage(db)
    when = (datetime.now(UTC) - ago).isoformat(timespec="seconds")
    with storage.transaction() as connection:
        connection.execute(sa.update(games).where(games.c.id == game_id).values(updated=when))


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, db: str) -> str:
    """The history on SQLite, then on PostgreSQL (the `postgres` fixture: skipped without a server, unless CI)."""
    if request.param == "sqlite":
        return db
    url: str = request.getfixturevalue("postgres")
    return url


# --- open tables ----------------------------------------------------------------------------------------


def test_only_listed_open_tables_are_listed_newest_first_and_never_a_token(database: str) -> None:
    with TestClient(create_app(database)) as client:
        csrf = sign_up(client, "Ann")
        first = new_table(client, csrf, listed=True)  # a signed-in host: the list names her
        unlisted = new_table(client, csrf)
        client.delete("/api/session", headers=csrf)
        rolling = new_table(
            client,
            game="rolling-pins",
            options={"frames": 2},
            seats=[{"kind": "human"}, {"kind": "bot:greedy"}],
            listed=True,
            turn_hours=24,
        )
        assert first["table"]["listed"] is True and unlisted["table"]["listed"] is False
        listed = open_tables(client)
        assert [t["id"] for t in listed] == [rolling["id"], first["id"]]
        newest, older = listed
        assert newest["game"] == "rolling-pins" and newest["options"] == rolling["table"]["options"]
        assert newest["title"] == rolling["table"]["title"] and newest["turn_hours"] == 24 and newest["host"] is None
        assert (newest["seats"], newest["free_seats"], newest["players"]) == (2, 1, ["Greedy bot"])
        assert older["host"] == "Ann" and older["join_code"] == first["join_code"] and older["rated"] is False
        text = client.get("/api/tables?open=true").text
        for secret in (first["host_token"], rolling["host_token"], unlisted["join_code"]):
            assert secret not in text
        assert "token_hash" not in text and "host_token" not in text
        assert all(set(t) == KEYS for t in listed)
        # A seat taken shows at once; a started table leaves the list.
        token = sit(client, first["id"], 0, "Bob")
        assert token not in client.get("/api/tables?open=true").text
        assert [(t["free_seats"], t["players"]) for t in open_tables(client) if t["id"] == first["id"]] == [
            (1, ["Bob"])
        ]
        sit(client, first["id"], 1, "Cy")
        start(client, first)
        assert [t["id"] for t in open_tables(client)] == [rolling["id"]]


def test_the_list_is_asked_for_in_one_way_and_mine_needs_a_sign_in(client: TestClient) -> None:
    assert "open=true or mine=true" in error_of(client.get("/api/tables"), 422)
    assert "open=true or mine=true" in error_of(client.get("/api/tables?open=true&mine=true"), 422)
    error_of(client.get("/api/tables?open=maybe"), 422)
    assert "sign in" in error_of(client.get("/api/tables?mine=true"), 401)


def test_turn_hours_are_checked(client: TestClient) -> None:
    for hours in (0, 73, "a day", 1.5, True):
        error_of(
            client.post("/api/tables", json={"game": "tenpins", "seats": [{"kind": "human"}], "turn_hours": hours}), 422
        )
    both = {"game": "tenpins", "seats": [{"kind": "human"}], "turn_hours": 1, "turn_seconds": 30}
    assert "not both" in error_of(client.post("/api/tables", json=both), 422)
    made = new_table(client, turn_hours=72)
    assert (made["table"]["turn_hours"], made["table"]["turn_seconds"]) == (72, 72 * 3600)


# --- asynchronous tables -----------------------------------------------------------------------------------


def decide(socket: Any, seat: int) -> dict[str, Any]:
    """Wait for this seat's decision, make the first legal one, and return the state that shows it."""
    state = receive(socket)
    while state["view"] is None or seat not in state["view"]["deciders"] or not state["view"]["legal_actions"]:
        state = receive(socket)
    before = steps(state)
    socket.send_json({"action": state["view"]["legal_actions"][0]})
    while steps(state) <= before:
        state = receive(socket)
    return state


def test_an_asynchronous_table_goes_on_after_everyone_left_and_a_restart(database: str) -> None:
    """Deadlines are stored: the same time left after a restart, and a decision whose time ran out is played by
    the fallback bot with nobody connected; then the players come back and play on."""
    db = database
    with TestClient(create_app(db)) as client:
        sign_up(client, "Bob")
        csrf = sign_up(client, "Ann")
        table = new_table(client, csrf, game="rolling-pins", options={"frames": 1}, turn_hours=2)
        ann = client.post(f"/api/tables/{table['id']}/seats/0", json={}, headers=csrf).json()["token"]
        bob_csrf = sign_in(client, "Bob")
        bob = client.post(f"/api/tables/{table['id']}/seats/1", json={}, headers=bob_csrf).json()["token"]
        answer = client.post(
            f"/api/tables/{table['id']}/start", json={"host_token": table["host_token"]}, headers=bob_csrf
        )
        game_id = answer.json()["game_id"]
        url = f"/ws/tables/{table['id']}"
        with client.websocket_connect(f"{url}?token={bob}") as wb, client.websocket_connect(f"{url}?token={ann}") as wa:
            seen = receive(wb)
            assert seen["view"]["deciders"] == [0] and 7190 <= seen["view"]["time_left"]["0"] <= 7200
            assert to_play(client) == []  # Bob's list: not his turn
            after = decide(wa, 0)
        seat = after["view"]["deciders"][0]
        sign_in(client, ["Ann", "Bob"][seat])
        waiting = to_play(client)
        assert [(t["id"], t["seat"]) for t in waiting] == [(table["id"], seat)]
    # Everybody left and the server stopped. Its next start, 100 minutes later, finds the same deadline.
    set_last_step_time(db, game_id, timedelta(minutes=100))
    storage = Storage(db)
    with TestClient(create_app(db)) as again:
        with again.websocket_connect(url) as watcher:
            state = receive(watcher)
            assert state["view"]["deciders"] == [seat]
            assert 1190 <= state["view"]["time_left"][str(seat)] <= 1200  # 20 minutes left, not 2 hours anew
        sign_in(again, ["Ann", "Bob"][seat])
        listed = to_play(again)
        assert [(t["id"], t["seat"], t["turn_hours"]) for t in listed] == [(table["id"], seat, 2)]
        assert 1190 <= listed[0]["time_left"] <= 1200
        stored = storage.get(game_id)
        assert stored is not None and not any(step.by for step in stored.record.steps)
    # Stopped again; the next start is past the deadline: its clock lets the fallback bot play, nobody connected.
    set_last_step_time(db, game_id, timedelta(hours=3))
    with TestClient(create_app(db)) as third:
        found = until(
            lambda: (g := storage.get(game_id)) and any(step.by for step in g.record.steps) and g,
            "the fallback bot's decision for the seat whose time ran out",
        )
        timed_out = [step for step in found.record.steps if step.by]
        assert [step.by for step in timed_out] == ["greedy"] and timed_out[0].actor == seat
        # The players come back with their seats' tokens and play on to the end.
        with third.websocket_connect(f"{url}?token={ann}") as wa, third.websocket_connect(f"{url}?token={bob}") as wb:
            sockets = {0: wa, 1: wb}
            latest = {0: receive(wa), 1: receive(wb)}
            assert not latest[0]["view"]["terminal"]
            for _ in range(200):
                if latest[0]["view"]["terminal"]:
                    break
                deciding = latest[0]["view"]["deciders"][0]
                before = steps(latest[0])
                sockets[deciding].send_json({"action": latest[deciding]["view"]["legal_actions"][0]})
                for s, ws in sockets.items():  # every seat sees the step
                    while steps(latest[s]) <= before:
                        latest[s] = receive(ws)
            assert latest[0]["view"]["terminal"] and latest[1]["view"]["terminal"]
        assert third.get(f"/api/tables/{table['id']}").json()["status"] == "finished"


def test_a_deadline_passed_is_played_when_the_players_list_touches_the_table(
    client: TestClient, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock sleeps until the deadline it computed; a player's list of turns that finds a decision past its
    deadline first lets the fallback bot play it, and never offers a turn that is gone."""
    import time

    import pinsetter.web.tables as tables_module

    csrf = sign_up(client, "Ann")
    table = new_table(client, csrf, game="rolling-pins", options={"frames": 1}, seats=[{"kind": "human"}], turn_hours=1)
    client.post(f"/api/tables/{table['id']}/seats/0", json={}, headers=csrf)
    game_id = client.post(f"/api/tables/{table['id']}/start", json={"host_token": table["host_token"]}, headers=csrf)
    game_id = game_id.json()["game_id"]
    [waiting] = to_play(client)
    assert waiting["seat"] == 0 and 3590 <= waiting["time_left"] <= 3600
    storage = Storage(db)
    stored = storage.get(game_id)
    assert stored is not None and not any(step.by for step in stored.record.steps)
    monkeypatch.setattr(tables_module, "wall_clock", lambda: time.time() + 2 * 3600)  # two hours on
    to_play(client)
    stored = storage.get(game_id)
    assert stored is not None and [step.by for step in stored.record.steps if step.by][:1] == ["greedy"]


def test_a_signed_in_players_session_plays_their_seat_from_any_browser(client: TestClient) -> None:
    """Your turn leads to the table's page, which may be in another browser than the one that sat: the session
    holds the account's seat there. A connection without it (or of another account) watches."""
    csrf = sign_up(client, "Ann")
    table = new_table(client, csrf)
    client.post(f"/api/tables/{table['id']}/seats/0", json={}, headers=csrf)  # the token is left behind
    cookie = {"cookie": f"{SESSION_COOKIE}={client.cookies[SESSION_COOKIE]}"}
    client.cookies.clear()  # Ann's session goes on elsewhere (another browser); this one is a guest's
    sit(client, table["id"], 1, "Bob")
    start(client, table)
    url = f"/ws/tables/{table['id']}"
    with client.websocket_connect(url, headers=cookie) as ann, client.websocket_connect(url) as guest:
        assert receive(ann)["seat"] == 0 and receive(guest)["seat"] is None
        ann.send_json({"action": "roll"})
        moved = receive(ann)
        assert moved["seat"] == 0 and steps(moved) == 1
    sign_up(client, "Cy")  # another account's session watches
    other = {"cookie": f"{SESSION_COOKIE}={client.cookies[SESSION_COOKIE]}"}
    with client.websocket_connect(url, headers=other) as cy:
        assert receive(cy)["seat"] is None


def test_a_players_list_replays_a_game_not_kept_here_only_when_it_moved(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`GET /api/tables?mine=true` is polled every few seconds: a game this process does not keep (played
    by another process, or before a restart) is replayed once per stored step, not on every poll."""
    replays: list[int] = []

    with TestClient(create_app(db)) as playing, TestClient(create_app(db)) as listing:
        sign_up(playing, "Bob")
        csrf = sign_up(playing, "Ann")
        table = new_table(playing, csrf, game="rolling-pins", options={"frames": 1}, turn_hours=2)
        ann = playing.post(f"/api/tables/{table['id']}/seats/0", json={}, headers=csrf).json()["token"]
        bob_csrf = sign_in(playing, "Bob")
        playing.post(f"/api/tables/{table['id']}/seats/1", json={}, headers=bob_csrf)
        playing.post(f"/api/tables/{table['id']}/start", json={"host_token": table["host_token"]}, headers=bob_csrf)
        sign_in(listing, "Ann")
        service = listing.app.state.service  # the listing process's games (the playing one replays its own)
        replay = service.match

        def counted(game_id: int, keep: bool = True) -> Any:
            replays.append(game_id)
            return replay(game_id, keep)

        monkeypatch.setattr(service, "match", counted)
        first = to_play(listing)
        assert [(t["id"], t["seat"]) for t in first] == [(table["id"], 0)] and 7190 <= first[0]["time_left"] <= 7200
        for _ in range(3):
            again = to_play(listing)
            assert [{**t, "time_left": None} for t in again] == [{**t, "time_left": None} for t in first]
            assert first[0]["time_left"] - 5 <= again[0]["time_left"] <= first[0]["time_left"]  # the clock runs
        assert len(replays) == 1
        with playing.websocket_connect(f"/ws/tables/{table['id']}?token={ann}") as socket:
            after = decide(socket, 0)
        replays.clear()
        expected = [(table["id"], 0)] if 0 in after["view"]["deciders"] else []
        assert [(t["id"], t["seat"]) for t in to_play(listing)] == expected
        assert [(t["id"], t["seat"]) for t in to_play(listing)] == expected
        assert len(replays) == 1  # the step moved the stored count: one replay, then none
