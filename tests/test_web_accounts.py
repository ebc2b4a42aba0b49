"""Accounts (issue 31, parts 1 and 5) through the API: sign up, in, out, delete; cookies, CSRF, rate limits.

The app runs in-process under `TestClient` over a temporary SQLite history; the
PostgreSQL variant uses the `postgres` fixture (skipped without a server, unless
CI=true). Every password is hashed with argon2id's real parameters (about a
second per hash on a loaded two-core machine), so the tests sign up sparingly.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from pinsetter.records import Record, replay
from pinsetter.storage.accounts import ABSENT
from pinsetter.web.accounts import SESSION_COOKIE, SignInLimits
from pinsetter.web.app import create_app
from test_web_api import new_game
from test_web_api import play_out as play_local
from test_web_tables import error_of, host, settle, start, steps

PASSWORD = "correct horse battery staple"


def sign_up(client: TestClient, name: str, password: str = PASSWORD) -> dict[str, str]:
    """Sign up (and so in); the headers a change made with the session carries."""
    answer = client.post("/api/accounts", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text
    return {"X-CSRF-Token": answer.json()["csrf_token"]}


def cookie_header(answer: Any) -> str:
    cookies = [v for k, v in answer.headers.multi_items() if k == "set-cookie" and v.startswith(SESSION_COOKIE)]
    assert len(cookies) == 1, answer.headers
    return str(cookies[0])


def play_table_game(client: TestClient, token: str, table_id: int) -> None:
    """Seat 0 (a human) rolls whenever it is its turn, until the game at the table ends."""
    with client.websocket_connect(f"/ws/tables/{table_id}?token={token}") as ws:
        state = settle(ws, {0})
        while not state["view"]["terminal"]:
            before = steps(state)
            ws.send_json({"action": "roll"})
            state = settle(ws, {0}, before)


def test_sign_up_in_and_out_with_the_session_cookie(client: TestClient) -> None:
    answer = client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
    assert answer.status_code == 201 and answer.json()["name"] == "Ann"
    made = cookie_header(answer)
    assert "HttpOnly" in made and "SameSite=lax" in made and "Path=/" in made and "Max-Age=2592000" in made
    assert "Secure" not in made  # plain http (a LAN, localhost): a Secure cookie would never come back
    csrf = {"X-CSRF-Token": answer.json()["csrf_token"]}
    assert client.get("/api/session").json() == {"name": "Ann", "csrf_token": csrf["X-CSRF-Token"]}
    session = client.cookies[SESSION_COOKIE]

    assert client.delete("/api/session", headers=csrf).json()["status"] == "signed out"
    assert client.get("/api/session").json() == {"name": None, "csrf_token": None}
    client.cookies.set(SESSION_COOKIE, session)  # the old cookie, kept by somebody: the session is over
    assert client.get("/api/session").json()["name"] is None
    assert client.delete("/api/accounts/me", headers=csrf).status_code == 401
    client.cookies.clear()

    answer = client.post("/api/session", json={"name": "ann", "password": PASSWORD})  # as names compare
    assert answer.status_code == 200 and answer.json()["name"] == "Ann"
    assert client.cookies[SESSION_COOKIE] != session  # a new session each time
    assert "HttpOnly" in cookie_header(answer)
    first = client.cookies[SESSION_COOKIE]
    assert client.post("/api/session", json={"name": "Ann", "password": PASSWORD}).status_code == 200
    client.cookies.clear()
    client.cookies.set(SESSION_COOKIE, first)
    assert client.get("/api/session").json()["name"] is None  # signing in again ended the browser's session


def test_the_cookie_is_secure_over_https(db: str) -> None:
    with TestClient(create_app(db), base_url="https://testserver") as client:
        answer = client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
        made = cookie_header(answer)
        assert "Secure" in made and "HttpOnly" in made and "SameSite=lax" in made
        signed_out = client.delete("/api/session", headers={"X-CSRF-Token": answer.json()["csrf_token"]})
        assert "Max-Age=0" in cookie_header(signed_out) and "Secure" in cookie_header(signed_out)


def test_a_wrong_password_and_an_unknown_name_get_the_same_401(client: TestClient) -> None:
    sign_up(client, "Ann")
    client.cookies.clear()
    wrong = client.post("/api/session", json={"name": "Ann", "password": "not the password"})
    nobody = client.post("/api/session", json={"name": "Nobody", "password": "not the password"})
    assert error_of(wrong, 401) == error_of(nobody, 401) == "wrong name or password"
    assert SESSION_COOKIE not in client.cookies
    assert PasswordHasher().check_needs_rehash(ABSENT) is False  # an unknown name costs a real check


def test_names_follow_the_name_rules_and_are_unique_as_names_compare(client: TestClient) -> None:
    sign_up(client, "Ann")
    for same in ("ann", "\uff21nn", "Ann\ufe0f", " ANN "):
        answer = client.post("/api/accounts", json={"name": same, "password": PASSWORD})
        assert "has an account already" in error_of(answer, 409)
    for bad, words in (("\x1b[31mAnn", "control character"), ("\u3164", "blank"), ("deleted player", "deleted")):
        assert words in error_of(client.post("/api/accounts", json={"name": bad, "password": PASSWORD}), 422)
    assert "8" in error_of(client.post("/api/accounts", json={"name": "Bob", "password": "short"}), 422)
    error_of(client.post("/api/accounts", json={"name": "Bob", "password": "x" * 257}), 422)
    error_of(client.post("/api/accounts", json={"name": "Bob", "password": PASSWORD, "admin": True}), 422)
    for escaped, status in (("a\\u0000b", 401), ("\\ud800", 422)):  # a NUL is no account's name; a lone
        raw = f'{{"name": "{escaped}", "password": "{PASSWORD}"}}'  # surrogate, no string: never sent to the database
        answer = client.post("/api/session", content=raw, headers={"content-type": "application/json"})
        assert status == 422 or error_of(answer, 401) == "wrong name or password"
        error_of(answer, status)
        error_of(client.post("/api/accounts", content=raw, headers={"content-type": "application/json"}), 422)


def test_every_change_with_the_session_cookie_needs_its_csrf_token(client: TestClient) -> None:
    csrf = sign_up(client, "Ann")
    table = host(TestClient(client.app), ["human", "human"])  # a guest hosts
    at = f"/api/tables/{table['id']}"
    for wrong in ({}, {"X-CSRF-Token": "0" * 64}, {"X-CSRF-Token": ""}):
        assert "X-CSRF-Token" in error_of(client.delete("/api/session", headers=wrong), 403)
        assert "X-CSRF-Token" in error_of(client.delete("/api/accounts/me", headers=wrong), 403)
        error_of(client.post(f"{at}/seats/0", json={}, headers=wrong), 403)
        error_of(client.post("/api/tables", json={"game": "tenpins", "seats": [{"kind": "human"}]}, headers=wrong), 403)
    assert client.get("/api/session").json()["name"] == "Ann"  # nothing happened
    assert client.post(f"{at}/seats/0", json={}, headers=csrf).status_code == 200

    # Signing in takes JSON only: a form another site's page could post is refused.
    answer = client.post(
        "/api/session", content=f"name=Ann&password={PASSWORD}", headers={"content-type": "text/plain"}
    )
    error_of(answer, 422)
    # A cookie whose session is over makes a guest: not refused, and not signed in either.
    assert client.delete("/api/session", headers=csrf).status_code == 200
    client.cookies.set(SESSION_COOKIE, "ended-or-made-up")
    assert client.post(f"{at}/seats/1", json={"name": "Bob"}).status_code == 200


def test_sign_in_attempts_are_limited_per_name_and_per_address(client: TestClient) -> None:
    sign_up(client, "Ann")
    client.cookies.clear()
    for _ in range(5):
        error_of(client.post("/api/session", json={"name": "ann", "password": "guess guess"}), 401)
    limited = client.post("/api/session", json={"name": "ANN", "password": PASSWORD})  # even the right one
    assert "too many sign-in attempts" in error_of(limited, 429)
    assert 1 <= int(limited.headers["retry-after"]) <= 15 * 60
    assert SESSION_COOKIE not in client.cookies
    error_of(client.post("/api/session", json={"name": "Bob", "password": "guess guess"}), 401)  # another name

    limits: SignInLimits = client.app.state.sign_in_limits  # type: ignore[attr-defined]
    limits.address_attempts = 8  # 7 made from this address so far: the sign-up, 6 sign-ins (a 429 is not counted)
    error_of(client.post("/api/session", json={"name": "Cy", "password": "guess guess"}), 401)
    error_of(client.post("/api/session", json={"name": "Dee", "password": "guess guess"}), 429)
    error_of(client.post("/api/accounts", json={"name": "Eve", "password": PASSWORD}), 429)


def test_the_limits_slide_and_a_right_password_clears_the_name() -> None:
    now = [1000.0]
    limits = SignInLimits(clock=lambda: now[0])
    assert (limits.name_failures, limits.address_attempts, limits.window) == (5, 60, 900)  # docs/accounts.md
    for _ in range(4):
        limits.attempted("Ann", "a", failed=True)
    assert limits.wait("ann", "b") == 0
    limits.attempted("Ann", "b", failed=True)
    assert limits.wait("\uff21NN", "c") == 900  # the name, from any address
    now[0] += 899
    assert limits.wait("ann", "c") == 1
    now[0] += 1
    assert limits.wait("ann", "c") == 0  # the oldest failure left the window
    limits.attempted("ann", "c", failed=False)
    for _ in range(4):
        limits.attempted("ann", "c", failed=True)
    assert limits.wait("ann", "d") == 0  # the right password cleared the failures before it


def test_the_password_is_never_stored_nor_logged(db: str, caplog: pytest.LogCaptureFixture) -> None:
    secret = "Zebra-Quartz-7731-Plover"
    caplog.set_level(logging.DEBUG)
    with TestClient(create_app(db)) as client:
        csrf = sign_up(client, "Ann", secret)
        session = client.cookies[SESSION_COOKIE]
        client.delete("/api/session", headers=csrf)
        client.post("/api/session", json={"name": "Ann", "password": secret + "!"})
        client.post("/api/accounts", json={"name": "Bob", "password": secret * 20})  # too long: 422
    stored = b"".join(path.read_bytes() for path in Path(db).parent.glob(Path(db).name + "*"))
    assert b"$argon2id$" in stored  # the hash is there ...
    for clear in (secret, session):  # ... never the password nor the session's token
        assert clear.encode() not in stored and clear not in caplog.text
        assert clear[:12] not in caplog.text


def test_a_signed_in_player_sits_under_the_account_name_and_guests_play_as_before(client: TestClient) -> None:
    csrf = sign_up(client, "Ann")
    guest = TestClient(client.app)
    table = host(guest, ["human", "human", "human"])
    at = f"/api/tables/{table['id']}"
    assert "signed in as 'Ann'" in error_of(client.post(f"{at}/seats/0", json={"name": "Bob"}, headers=csrf), 422)
    taken = client.post(f"{at}/seats/0", json={"name": "ann"}, headers=csrf)  # the same name, as names compare
    assert taken.status_code == 200 and taken.json()["table"]["seats"][0]["name"] == "Ann"
    assert "account" not in taken.text  # the account's id is never shown

    for name in ("Ann", "ANN", "Ann\ufe0f"):
        assert "belongs to an account" in error_of(guest.post(f"{at}/seats/1", json={"name": name}), 409)
    assert "give a name" in error_of(guest.post(f"{at}/seats/1", json={}), 422)
    for escaped in ("\\ud800", "a\\u0000b"):
        raw = f'{{"name": "{escaped}"}}'
        error_of(guest.post(f"{at}/seats/1", content=raw, headers={"content-type": "application/json"}), 422)
    assert guest.post(f"{at}/seats/1", json={"name": "Bob"}).json()["table"]["seats"][1]["name"] == "Bob"
    played = guest.post("/api/games", json={"game": "tenpins", "players": [{"name": "Ann", "kind": "human"}]})
    assert played.status_code == 201  # a guest's own game: names are as free as ever


@dataclass
class Club:
    client: TestClient
    csrf: dict[str, str]
    tables: list[int]  # Ann's: one played to the end, one closed before its game


@pytest.fixture
def club(client: TestClient) -> Club:
    """Ann's games before she deletes her account: a finished table game, a closed table, a local game shared
    with a guest who typed "deleted player" already; and a game of somebody else."""
    csrf = sign_up(client, "Ann")
    guest = TestClient(client.app)  # hosts, and plays local games: nobody's session, as before
    table = host(guest, ["human", "bot:random"], frames=1, seed=5)
    token = client.post(f"/api/tables/{table['id']}/seats/0", json={}, headers=csrf).json()["token"]
    start(guest, table)
    play_table_game(client, token, table["id"])
    closed = host(guest, ["human", "human"])
    client.post(f"/api/tables/{closed['id']}/seats/0", json={}, headers=csrf)
    assert f"table {closed['id']}" in error_of(client.delete("/api/accounts/me", headers=csrf), 409)  # not yet
    guest.post(f"/api/tables/{closed['id']}/close", json={"host_token": closed["host_token"]})
    play_local(
        guest, new_game(guest, "tenpins", [("deleted player", "human"), ("ann", "human")], options={"frames": 1})
    )
    new_game(guest, "tenpins", [("Cy", "human")])
    return Club(client, csrf, [table["id"], closed["id"]])


def test_deleting_an_account_renames_it_in_every_stored_game_and_the_records_verify(club: Club) -> None:
    client = club.client
    before = {g["id"]: g for g in client.get("/api/history").json()}
    assert sum(1 for g in before.values() if any(p["name"] in ("Ann", "ann") for p in g["players"])) == 2
    assert client.get("/api/stats", params={"player": "Ann"}).json()["games"] == 1
    answer = client.delete("/api/accounts/me", headers=club.csrf)
    assert answer.status_code == 200 and answer.json() == {"status": "deleted", "games_renamed": 2}
    assert "Max-Age=0" in cookie_header(answer)

    after = {g["id"]: g for g in client.get("/api/history").json()}
    assert set(after) == set(before)
    for gid, game in after.items():
        was = [p["name"] for p in before[gid]["players"]]
        now = [p["name"] for p in game["players"]]
        if was == ["deleted player", "ann"]:
            assert now == ["deleted player", "deleted player 2"]
        else:
            assert now == ["deleted player" if name == "Ann" else name for name in was]
        assert game["scores"] == before[gid]["scores"]  # the same games, the same scores
        if game["status"] == "finished":
            record = Record.loads(client.get(f"/api/games/{gid}/record").text)
            assert replay(record).is_terminal()  # still verifies: the result names the renamed seats
            assert [e["name"] for e in (record.result or {})["players"]] == now
    assert client.get("/api/history", params={"player": "Ann"}).json() == []
    assert client.get("/api/stats", params={"player": "Ann"}).json()["games"] == 0
    assert client.get("/api/stats", params={"player": "deleted player"}).json()["games"] == 2  # and the guest's
    seats = [client.get(f"/api/tables/{t}").json()["seats"][0]["name"] for t in club.tables]
    assert seats == ["deleted player", "deleted player"]

    assert client.get("/api/session").json()["name"] is None
    error_of(client.post("/api/session", json={"name": "Ann", "password": PASSWORD}), 401)
    sign_up(client, "Ann")  # the name is free again, and the new Ann has no past
    assert client.get("/api/history", params={"player": "Ann"}).json() == []


def test_accounts_on_postgresql(postgres: str) -> None:
    with TestClient(create_app(postgres)) as client:
        csrf = sign_up(client, "Ann")
        error_of(client.post("/api/accounts", json={"name": "ANN", "password": PASSWORD}), 409)
        error_of(client.delete("/api/session"), 403)
        players = [{"name": "Ann", "kind": "human"}]
        error_of(client.post("/api/games", json={"game": "tenpins", "players": players}), 403)
        game = client.post("/api/games", json={"game": "tenpins", "players": players}, headers=csrf)
        assert game.status_code == 201
        assert client.delete("/api/session", headers=csrf).status_code == 200
        error_of(client.post("/api/session", json={"name": "Ann", "password": "not the password"}), 401)
        csrf = {
            "X-CSRF-Token": client.post("/api/session", json={"name": "ann", "password": PASSWORD}).json()["csrf_token"]
        }
        assert client.delete("/api/accounts/me", headers=csrf).json() == {"status": "deleted", "games_renamed": 1}
        shown = client.get(f"/api/games/{game.json()['id']}").json()
        assert [s["name"] for s in shown["sheets"]] == ["deleted player"]
