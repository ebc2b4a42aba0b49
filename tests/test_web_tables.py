"""Online tables (issue 13) through the API and the WebSocket: seats, tokens, turns, limits, restarts.

The app runs in-process under `TestClient` over a temporary SQLite history.
The PostgreSQL variants use `PINSETTER_TEST_POSTGRES` (default: a local server)
in a fresh schema of their own; they are skipped with a one-line reason when no
server answers, unless `CI=true`. The last test runs two real `pinsetter serve`
processes on one PostgreSQL database, kills one mid-game and finishes the game
on the other.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import socket
import subprocess
import sys
import time
import types
from collections.abc import Collection, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import pinsetter.web.tables as tables_module
from api_support import OPEN_TIMEOUT, api_get, api_post
from pinsetter.records import Record, replay
from pinsetter.web.app import create_app
from waiting import until

HOSTILE = ["<script>alert(1)</script>", "[bold]x[/bold]", "<img src=x onerror=alert(1)>"]
Socket = Any  # starlette's WebSocketTestSession


# --- helpers ----------------------------------------------------------------------------------------------


def host(
    client: TestClient, seats: list[str], game: str = "tenpins", seed: int | None = None, **options: Any
) -> dict[str, Any]:
    body = {"game": game, "options": options, "seats": [{"kind": k} for k in seats], "seed": seed}
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def sit(client: TestClient, table_id: int, seat: int, name: str) -> str:
    answer = client.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": name})
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


def start(client: TestClient, table: dict[str, Any]) -> int:
    answer = client.post(f"/api/tables/{table['id']}/start", json={"host_token": table["host_token"]})
    assert answer.status_code == 200, answer.text
    game_id: int = answer.json()["game_id"]
    return game_id


def error_of(answer: httpx.Response, status: int) -> str:
    """The one-line error of a refused request."""
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert list(body) == ["error"] and "\n" not in body["error"] and body["error"]
    message: str = body["error"]
    return message


def steps(message: dict[str, Any]) -> int:
    view = message["view"]
    if view is None or not view["log"]:
        return 0
    last: int = view["log"][-1]["step"]
    return last


def receive(ws: Socket) -> dict[str, Any]:
    message: dict[str, Any] = ws.receive_json()
    return message


def settled(message: dict[str, Any], humans: Collection[int]) -> bool:
    """No bot is left to play: the game is over (or not started), or only the `humans` are to act."""
    view = message["view"]
    if view is None or view["terminal"]:
        return True
    return all(seat in humans for seat in view["deciders"] or [view["turn"]])


def settle(ws: Socket, humans: Collection[int], after: int = -1) -> dict[str, Any]:
    """The first state past step `after` with no bot left to play.

    The bots play in the background, each of their steps pushed on its own: the states on the way
    are passed over, and so is a state pushed twice (a push may show a step another push shows too).
    """
    for _ in range(1000):
        message = receive(ws)
        assert message["type"] == "state", message
        if steps(message) > after and settled(message, humans):
            return message
    raise AssertionError("the bots never let a human act")


def play_out(sockets: dict[int, Socket], watchers: list[Socket], first: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """Every seat rolls when the state says it is its turn; every connection sees every step. Returns the last state."""
    state = next(iter(first.values()))
    for _ in range(200):
        view = state["view"]
        if view["terminal"]:
            return state
        turn = view["turn"]
        before = steps(state)
        sockets[turn].send_json({"action": "roll"})
        seen = [settle(ws, sockets, before) for ws in [*sockets.values(), *watchers]]
        assert all(m["type"] == "state" for m in seen), seen
        assert len({steps(m) for m in seen}) == 1 and steps(seen[0]) > before  # everybody, the same step
        for m in seen:  # each seat sees its own seat; watchers none
            assert m["seat"] in (*sockets, None)
        state = seen[0]
    raise AssertionError("the game did not end")


def assert_replays(client: TestClient, game_id: int) -> Record:
    record = Record.loads(client.get(f"/api/games/{game_id}/record").text)
    assert replay(record).is_terminal()
    return record


# --- hosting and sitting ----------------------------------------------------------------------------------


def test_host_sit_start_close_and_their_errors(client: TestClient) -> None:
    table = host(client, ["human", "human", "bot:random"], frames=2)
    table_id, code = table["id"], table["join_code"]
    assert len(table["host_token"]) >= 32 and len(code) == 6
    assert table["table"]["status"] == "open" and table["table"]["game_id"] is None
    assert [s["free"] for s in table["table"]["seats"]] == [True, True, False]
    public = client.get(f"/api/tables/{table_id}").json()
    assert public == client.get(f"/api/tables/code/{code.lower()}").json() == table["table"]
    error_of(client.get("/api/tables/999"), 404)
    error_of(client.get("/api/tables/code/NOPE99"), 404)
    # A code typed with a slash is not found as a code, not as an address ("nothing here: /api/...").
    assert error_of(client.get("/api/tables/code/a%2Fb"), 404) == "no table with the code 'a/b'"

    at = f"/api/tables/{table_id}"
    hosting = {"host_token": table["host_token"]}
    ann = sit(client, table_id, 0, "Ann")
    assert "this seat is taken" in error_of(client.post(f"{at}/seats/0", json={"name": "Bob"}), 409)
    assert "taken" in error_of(client.post(f"{at}/seats/1", json={"name": "Ann"}), 409)
    assert "taken" in error_of(client.post(f"{at}/seats/2", json={"name": "Cy"}), 409)  # a bot's
    for same in ("ann", "Ann\ufe0f", "\uff21nn"):  # one name as names compare (docs/records.md, Names)
        assert "is taken at this table" in error_of(client.post(f"{at}/seats/1", json={"name": same}), 409)
    for blank in ("\u3164", "\u2800", "Bob\u3164"):
        assert "shows as a blank" in error_of(client.post(f"{at}/seats/1", json={"name": blank}), 422)
    assert "seats 0 to 2" in error_of(client.post(f"{at}/seats/7", json={"name": "Bob"}), 404)
    error_of(client.post("/api/tables/999/seats/0", json={"name": "Bob"}), 404)
    error_of(client.post(f"{at}/seats/1", json={"name": ""}), 422)
    error_of(client.post(f"{at}/seats/1", json={"name": "x" * 41}), 422)

    assert "every human seat" in error_of(client.post(f"{at}/start", json=hosting), 409)
    assert "host" in error_of(client.post(f"{at}/start", json={"host_token": ann}), 422)  # a seat is no host
    error_of(client.post(f"{at}/seats/1/bot", json={"host_token": ann, "bot": "random"}), 422)
    error_of(client.post(f"{at}/seats/1/bot", json={**hosting, "bot": "nobody"}), 422)
    error_of(client.post("/api/tables/999/start", json=hosting), 404)

    bob = sit(client, table_id, 1, "Bob")
    assert len({ann, bob, table["host_token"]}) == 3
    game_id = start(client, table)
    assert client.get(at).json()["status"] == "playing"
    assert client.get(at).json()["game_id"] == game_id
    error_of(client.post(f"{at}/start", json=hosting), 409)
    assert "started" in error_of(client.post(f"{at}/seats/1", json={"name": "Dee"}), 409)
    assert "bot already" in error_of(client.post(f"{at}/seats/2/bot", json={**hosting, "bot": "random"}), 409)
    assert "seats 0 to 2" in error_of(client.post(f"{at}/seats/9/bot", json={**hosting, "bot": "random"}), 404)

    error_of(client.post(f"{at}/close", json={"host_token": bob}), 422)
    assert client.post(f"{at}/close", json=hosting).json() == {"status": "closed"}
    assert client.get(at).json()["status"] == "closed"
    with client.websocket_connect(f"/ws/tables/{table_id}?token={ann}") as ws:
        assert receive(ws)["table"]["status"] == "closed"
        ws.send_json({"action": "roll"})
        assert receive(ws) == {"type": "error", "error": "the table is closed"}


def test_the_host_hands_a_free_seat_to_a_bot_and_everyone_sees_seats_fill(client: TestClient) -> None:
    table = host(client, ["human", "human"], frames=1)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as watcher:
        assert [s["free"] for s in receive(watcher)["table"]["seats"]] == [True, True]
        sit(client, table["id"], 0, "Ann")
        assert receive(watcher)["table"]["seats"][0]["name"] == "Ann"  # pushed at once, no polling
        hosting = {"host_token": table["host_token"], "bot": "random"}
        taken = client.post(f"/api/tables/{table['id']}/seats/0/bot", json=hosting)  # Ann's: not the host's to give
        assert "this seat is taken" in error_of(taken, 409)
        answer = client.post(f"/api/tables/{table['id']}/seats/1/bot", json=hosting)
        assert answer.status_code == 200 and answer.json()["seats"][1]["kind"] == "bot:random"
        assert receive(watcher)["table"]["seats"][1]["free"] is False
        game_id = start(client, table)
        started = receive(watcher)
        assert started["table"]["game_id"] == game_id and started["view"]["turn"] == 0


def test_refused_tables(client: TestClient) -> None:
    def refused(body: dict[str, Any]) -> str:
        return error_of(client.post("/api/tables", json=body), 422)

    refused({"game": "chess", "seats": [{"kind": "human"}]})
    assert "kind" in refused({"game": "tenpins", "seats": [{"kind": "admin"}]})
    refused({"game": "tenpins", "seats": [{"kind": "bot:nobody"}]})
    refused({"game": "tenpins", "seats": []})
    refused({"game": "tenpins", "seats": [{"kind": "human"}], "seed": "abc"})
    refused({"game": "tenpins", "seats": [{"kind": "human"}], "options": {"frames": 0}})
    refused({"game": "tenpins", "seats": [{"kind": "human"}] * 13})
    assert error_of(client.post("/api/tables", content=b"{" + b" " * 70_000 + b"}"), 413)


def test_hostile_names_round_trip_as_data_and_terminal_escapes_are_refused(client: TestClient) -> None:
    table = host(client, ["human", "human", "human"], frames=1)
    tokens = [sit(client, table["id"], i, name) for i, name in enumerate(HOSTILE)]
    assert [s["name"] for s in client.get(f"/api/tables/{table['id']}").json()["seats"]] == HOSTILE
    for name in ("\x1b[2J\x1b[31mred", "a\u202eb", "tab\there", "   "):
        other = host(client, ["human"])
        error_of(client.post(f"/api/tables/{other['id']}/seats/0", json={"name": name}), 422)
    game_id = start(client, table)
    view = client.get(f"/api/games/{game_id}").json()
    assert [s["name"] for s in view["sheets"]] == HOSTILE
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={tokens[0]}") as ws:
        state = receive(ws)
        assert [s["name"] for s in state["table"]["seats"]] == HOSTILE
        assert state["view"]["sheets"][0]["name"] == HOSTILE[0]


def test_tokens_appear_only_in_their_holders_answers(client: TestClient) -> None:
    table = host(client, ["human", "human"], frames=1)
    ann_answer = client.post(f"/api/tables/{table['id']}/seats/0", json={"name": "Ann"})
    bob_answer = client.post(f"/api/tables/{table['id']}/seats/1", json={"name": "Bob"})
    ann, bob = ann_answer.json()["token"], bob_answer.json()["token"]
    secret = [table["host_token"], ann, bob]
    assert table["host_token"] not in ann_answer.text + bob_answer.text
    assert bob not in ann_answer.text and ann not in bob_answer.text
    texts = [client.get(f"/api/tables/{table['id']}").text, client.get(f"/api/tables/code/{table['join_code']}").text]
    start_answer = client.post(f"/api/tables/{table['id']}/start", json={"host_token": table["host_token"]})
    texts += [start_answer.text, client.get(f"/api/games/{start_answer.json()['game_id']}").text]
    texts += [client.get(f"/api/games/{start_answer.json()['game_id']}/record").text, client.get("/api/history").text]
    for token in (ann, bob, None):
        query = f"?token={token}" if token else ""
        with client.websocket_connect(f"/ws/tables/{table['id']}{query}") as ws:
            texts.append(json.dumps(receive(ws)))
    for text in texts:
        assert not any(s in text for s in secret)
        assert "token_hash" not in text and "host_hash" not in text


# --- acting -------------------------------------------------------------------------------------------------


def test_only_the_seat_to_play_acts(client: TestClient) -> None:
    table = host(client, ["human", "human"], frames=1)
    ann, bob = sit(client, table["id"], 0, "Ann"), sit(client, table["id"], 1, "Bob")
    start(client, table)
    url = f"/ws/tables/{table['id']}"
    with (
        client.websocket_connect(f"{url}?token={ann}") as wa,
        client.websocket_connect(f"{url}?token={bob}") as wb,
        client.websocket_connect(url) as spectator,
        client.websocket_connect(f"{url}?token={table['host_token']}") as host_socket,
    ):
        states = [receive(ws) for ws in (wa, wb, spectator, host_socket)]
        assert [s["seat"] for s in states] == [0, 1, None, None]
        assert states[0]["view"]["turn"] == 0
        wb.send_json({"action": "roll"})
        assert receive(wb) == {"type": "error", "error": "it is not your turn"}
        spectator.send_json({"action": "roll"})
        assert receive(spectator) == {"type": "error", "error": "spectators cannot act"}
        host_socket.send_json({"action": "roll"})
        assert receive(host_socket)["error"] == "spectators cannot act"
        wa.send_json({"action": "strike"})  # a decision where the seat must roll
        assert "roll" in receive(wa)["error"]
        wa.send_json({"action": "roll"})
        after = [receive(ws) for ws in (wa, wb, spectator, host_socket)]  # the refusals moved nothing
        assert {steps(s) for s in after} == {1}


def test_choices_go_only_to_the_seat_whose_decision_it_is(client: TestClient) -> None:
    table = host(client, ["human", "human"], game="rolling-pins", seed=7, frames=1)
    ann, bob = sit(client, table["id"], 0, "Ann"), sit(client, table["id"], 1, "Bob")
    start(client, table)
    url = f"/ws/tables/{table['id']}"
    with client.websocket_connect(f"{url}?token={ann}") as wa, client.websocket_connect(f"{url}?token={bob}") as wb:
        mine, theirs = receive(wa), receive(wb)
        assert mine["view"]["next"] == "decision" and mine["view"]["turn"] == 0
        assert mine["view"]["legal_actions"] and mine["view"]["view"]["choices"]
        assert theirs["view"]["legal_actions"] == [] and theirs["view"]["view"]["choices"] == []
        assert theirs["view"]["view"]["selection"] is None
        action = mine["view"]["legal_actions"][0]
        wb.send_json({"action": action})  # Ann's legal move, from Bob's seat
        assert receive(wb)["error"] == "it is not your turn"
        wa.send_json({"action": "no such move"})
        assert receive(wa)["type"] == "error"
        wa.send_json({"pins": [1, 2]})
        assert receive(wa)["error"] == "pins cannot be picked now: choose one of the actions offered"
        wa.send_json({"pins": [1], "pile": 2})  # a pile is Bowling Solitaire's
        assert receive(wa)["error"] == "Rolling Pins has no piles: pick pins alone"
        wa.send_json({"action": action})
        rolled, seen = receive(wa), receive(wb)
        assert steps(rolled) > steps(mine) and steps(seen) > steps(theirs)
        assert rolled["view"]["turn"] == 0 and rolled["view"]["next"] == "decision"  # Ann crosses her roll
        wa.send_json({"pins": list(range(10, 0, -1))})  # every pin: far more than the roll
        refused = receive(wa)["error"]  # the pins picked, and why: not the action they made ("cross ... +51")
        assert refused.startswith("pins 1, 2, 3, 4, 5, 6, 7, 8, 9 and 10: the pins sum to 55, the roll makes "), refused


def test_forged_tokens_bad_origins_and_unknown_tables_are_refused(db: str) -> None:
    with TestClient(create_app(db, origins=("https://friends.example",))) as client:
        table = host(client, ["human"], frames=1)
        url = f"/ws/tables/{table['id']}"
        refusals = [
            (f"{url}?token=forged-{'x' * 32}", {}),
            (f"{url}?token={table['host_token']}x", {}),
            ("/ws/tables/999", {}),
            (url, {"origin": "https://evil.example"}),
            (url, {"origin": "http://testserver.evil.example"}),
        ]
        for address, headers in refusals:
            with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(address, headers=headers) as ws:
                receive(ws)
            assert closed.value.code == 1008
        for origin in ("http://testserver", "https://friends.example"):
            with client.websocket_connect(url, headers={"origin": origin}) as ws:
                assert receive(ws)["type"] == "state"


def test_oversize_malformed_and_too_fast_messages_are_answered_with_errors(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The clock stands still: the token bucket never refills, so the limit shows without timing.
    monkeypatch.setattr(tables_module, "time", types.SimpleNamespace(monotonic=lambda: 1000.0))
    table = host(client, ["human"], frames=1)
    token = sit(client, table["id"], 0, "Ann")
    start(client, table)
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
        receive(ws)
        ws.send_text(json.dumps({"action": "x" * 5000}))
        assert receive(ws) == {"type": "error", "error": "a message is at most 4096 bytes"}
        for raw in ("not json", "[1, 2]", '{"action": 5}', '{"pins": ["1"]}', "[" * 3000 + "]" * 1000):
            ws.send_text(raw)
            answer = receive(ws)
            assert answer["type"] == "error" and "\n" not in answer["error"]
        ws.send_bytes(b'{"action": "roll"}')  # the protocol is text frames: a binary one is answered, not a crash
        assert receive(ws) == {"type": "error", "error": "a message is a text frame of JSON, not binary"}
        answers = []
        for _ in range(19):
            ws.send_text("[]")
            answers.append(receive(ws)["error"])
        # 20 in a burst, the oversize and binary ones counted too: 7 were answered, 13 more pass, then the limit
        shapes = 'a message is a JSON object: {"action": "one of legal_actions"} or {"pins": [1, 5]}'
        assert answers[:13] == [shapes] * 13
        assert answers[13:] == ["too many messages: slow down"] * 6
        ws.send_json({"action": "roll"})
        assert receive(ws)["error"] == "too many messages: slow down"


def test_a_message_nested_a_thousand_deep_is_refused_and_logged_in_one_short_line(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    """JSON nested past Python's recursion limit (still under 4 KiB) is refused; its log line is cut short."""
    caplog.set_level(logging.INFO, logger="pinsetter")
    table = host(client, ["human"], frames=1)
    token = sit(client, table["id"], 0, "Ann")
    start(client, table)
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
        receive(ws)
        ws.send_text('{"action": ' + "[" * 1015 + "]" * 1015 + "}")
        assert receive(ws) == {"type": "error", "error": "'action' must be text"}
        ws.send_json({"action": "roll"})  # the connection lives on
        assert receive(ws)["type"] == "state"
    refused = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(refused) == 1 and len(refused[0]) < 200


def test_the_open_game_api_refuses_a_tables_game(client: TestClient) -> None:
    table = host(client, ["human"], frames=1)
    sit(client, table["id"], 0, "Ann")
    game_id = start(client, table)
    assert "table" in error_of(client.post(f"/api/games/{game_id}/advance", json={"until": "step"}), 409)
    error_of(client.post(f"/api/games/{game_id}/actions", json={"action": "roll"}), 409)
    error_of(client.post(f"/api/games/{game_id}/undo"), 409)
    assert "table" in error_of(client.get(f"/api/games/{game_id}/hint"), 409)  # no solver's advice at a table
    assert client.get(f"/api/games/{game_id}").status_code == 200  # reading is open to all


# --- whole games ----------------------------------------------------------------------------------------------


def test_a_complete_tenpins_table_with_two_humans_a_bot_and_a_spectator(client: TestClient) -> None:
    table = host(client, ["human", "bot:random", "human"], frames=2)
    ann, bob = sit(client, table["id"], 0, "Ann"), sit(client, table["id"], 2, "Bob")
    game_id = start(client, table)
    url = f"/ws/tables/{table['id']}"
    with (
        client.websocket_connect(f"{url}?token={ann}") as wa,
        client.websocket_connect(f"{url}?token={bob}") as wb,
        client.websocket_connect(url) as spectator,
    ):
        first = {0: receive(wa), 2: receive(wb)}
        assert receive(spectator)["seat"] is None
        last = play_out({0: wa, 2: wb}, [spectator], first)
    assert last["view"]["terminal"] and last["view"]["ending"]
    # Once everybody has left, the server keeps no entry for the table's connections or the game's lock.
    hub, games = client.app.state.hub, client.app.state.service  # type: ignore[attr-defined]
    until(lambda: table["id"] not in hub.connections, "the table's connections released")
    assert table["id"] not in hub.connections and table["id"] not in hub._push_locks
    gc.collect()
    assert game_id not in games._locks
    record = assert_replays(client, game_id)
    assert [p.name for p in record.players] == ["Ann", "Rookie bot", "Bob"]  # a bot seat is named as players are
    assert len(record.steps) == steps(last)
    actors = {s.actor for s in record.steps if s.actor is not None}
    assert actors <= {0, 1, 2}


def test_a_restarted_server_continues_the_table(db: str) -> None:
    with TestClient(create_app(db)) as client:
        table = host(client, ["human", "human"], frames=2)
        ann, bob = sit(client, table["id"], 0, "Ann"), sit(client, table["id"], 1, "Bob")
        game_id = start(client, table)
        with client.websocket_connect(f"/ws/tables/{table['id']}?token={ann}") as wa:
            receive(wa)
            wa.send_json({"action": "roll"})
            moved = steps(receive(wa))
    with TestClient(create_app(db)) as again:  # a new process on the same database
        url = f"/ws/tables/{table['id']}"
        with again.websocket_connect(f"{url}?token={ann}") as wa, again.websocket_connect(f"{url}?token={bob}") as wb:
            first = {0: receive(wa), 1: receive(wb)}
            assert steps(first[0]) == moved and first[1]["seat"] == 1
            play_out({0: wa, 1: wb}, [], first)
        record = assert_replays(again, game_id)
        assert len(record.steps) >= moved


def test_bots_due_when_a_server_stopped_play_on_when_one_starts(db: str) -> None:
    """A server that stored a start (or a move) and stopped before its bots played: the next one to start plays
    them, with nobody connected, so no game stalls for good."""
    from pinsetter.storage import Storage
    from pinsetter.web.service import GameService
    from pinsetter.web.tables import TableService

    storage = Storage(db)
    stopped = TableService(storage, GameService(storage))
    stopped.bots_to_play = lambda _table_id: None  # it stops before its bots play
    made = stopped.create("tenpins", {"frames": 1}, ["bot:random", "bot:random"], seed=2)
    game_id = stopped.start(made["id"], made["host_token"])
    stored = storage.get(game_id)
    assert stored is not None and not stored.record.steps
    with TestClient(create_app(db)) as client:
        until(lambda: (found := storage.get(game_id)) and found.finished, "the bots' game played by the new server")
        assert client.get(f"/api/tables/{made['id']}").json()["status"] == "finished"
    final = storage.get(game_id)
    assert final is not None and replay(final.record).is_terminal()


def test_a_tables_record_is_handed_out_without_the_tables_mark(client: TestClient, tmp_path: Path) -> None:
    """Only the tables say a game was played at one: the history keeps the mark (part of the game's
    identity), no record from outside may carry it, and the record handed out leaves it out, so
    every reader takes it (replay, an upload to another server, `pinsetter import`)."""
    from pinsetter.cli.app import main
    from pinsetter.storage.transfer import export_jsonl

    table = host(client, ["bot:random", "bot:random"], frames=1)
    game_id = start(client, table)
    service = client.app.state.service  # type: ignore[attr-defined]
    stored = until(lambda: (found := service.storage.get(game_id)) and found.finished and found, "the bots' game over")
    assert stored.record.extra == {"table": table["id"]}
    text = client.get(f"/api/games/{game_id}/record").text
    assert "extra" not in json.loads(text)
    assert_replays(client, game_id)
    assert "extra" not in json.loads(export_jsonl(service.storage))
    with TestClient(create_app(str(tmp_path / "other.sqlite"))) as other:
        assert other.post("/api/records", content=text.encode()).status_code == 201
        marked = json.loads(text) | {"extra": {"table": table["id"]}}
        refused = error_of(other.post("/api/records", content=json.dumps(marked).encode()), 422)
        assert refused.startswith("extra.table: ")
    path = tmp_path / "table.json"
    path.write_text(text)
    assert main(["import", str(path), "--db", str(tmp_path / "third.sqlite")]) == 0


# --- PostgreSQL ----------------------------------------------------------------------------------------------


def test_a_complete_table_on_postgresql(postgres: str) -> None:
    with TestClient(create_app(postgres)) as client:
        table = host(client, ["human", "human", "bot:random"], frames=2)
        ann, bob = sit(client, table["id"], 0, "Ann"), sit(client, table["id"], 1, "Bob")
        game_id = start(client, table)
        url = f"/ws/tables/{table['id']}"
        with (
            client.websocket_connect(f"{url}?token={ann}") as wa,
            client.websocket_connect(f"{url}?token={bob}") as wb,
            client.websocket_connect(url) as spectator,
        ):
            first = {0: receive(wa), 1: receive(wb)}
            receive(spectator)
            last = play_out({0: wa, 1: wb}, [spectator], first)  # pushed through LISTEN/NOTIFY
        record = assert_replays(client, game_id)
        assert len(record.steps) == steps(last)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _serve(url: str, tmp: Path, name: str) -> tuple[subprocess.Popen[bytes], str]:
    """A real `pinsetter serve` process, once it answers."""
    port = _free_port()
    log = (tmp / f"{name}.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-c", "from pinsetter.cli.app import run; run()", "serve", "--db", url, "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        if process.poll() is not None:
            raise AssertionError(f"{name} stopped: {(tmp / f'{name}.log').read_text()}")
        try:
            if httpx.get(f"{base}/api/catalog", timeout=2).status_code == 200:
                return process, base
        except httpx.TransportError:
            pass
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(0.1)
    raise AssertionError(f"{name} did not answer")


def test_two_server_processes_share_a_table_and_one_dies_mid_game(postgres: str, tmp_path: Path) -> None:
    from websockets.asyncio.client import ClientConnection
    from websockets.asyncio.client import connect as connect_at_once
    from websockets.exceptions import ConnectionClosed, InvalidStatus
    from websockets.typing import Origin

    connect = partial(connect_at_once, open_timeout=OPEN_TIMEOUT)

    one, one_base = _serve(postgres, tmp_path, "one")
    two, two_base = _serve(postgres, tmp_path, "two")
    try:
        table = api_post(
            f"{one_base}/api/tables",
            json={"game": "tenpins", "options": {"frames": 2}, "seats": [{"kind": "human"}, {"kind": "human"}]},
        ).json()
        tokens = [
            api_post(f"{base}/api/tables/{table['id']}/seats/{seat}", json={"name": name}).json()["token"]
            for seat, (base, name) in enumerate([(one_base, "Ann"), (two_base, "Bob")])
        ]
        hosting = {"host_token": table["host_token"]}
        game_id = api_post(f"{two_base}/api/tables/{table['id']}/start", json=hosting).json()["game_id"]

        def ws_url(base: str, token: str | None) -> str:
            return base.replace("http://", "ws://") + f"/ws/tables/{table['id']}" + (f"?token={token}" if token else "")

        async def next_state(ws: ClientConnection, after: int) -> dict[str, Any]:
            """The first state past step `after` (each process pushes every change to its own connections)."""
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 60))
                assert message["type"] == "state", message
                if steps(message) > after:
                    return dict(message)

        async def play() -> tuple[int, int]:
            # A real server refuses another origin's page at the handshake, and tells a page why it closes
            # its socket at once (an unknown token: the page then watches).
            with pytest.raises(InvalidStatus) as refused:
                await connect(ws_url(one_base, None), origin=Origin("http://evil.example"))
            assert refused.value.response.status_code == 403
            for address in (ws_url(one_base, "forged-" + "x" * 32), one_base.replace("http", "ws") + "/ws/tables/999"):
                async with connect(address) as forged:
                    with pytest.raises(ConnectionClosed) as closed:
                        await forged.recv()
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
                assert closed.value.rcvd.reason in ("unknown token", "no such table")
            ann = await connect(ws_url(one_base, tokens[0]))  # on process one
            bob = await connect(ws_url(two_base, tokens[1]))  # on process two
            assert ann.response is not None and "sec-websocket-extensions" not in ann.response.headers  # no deflate
            watcher = await connect(ws_url(two_base, None))
            seats = {0: ann, 1: bob}
            state = json.loads(await ann.recv())
            await bob.recv(), await watcher.recv()
            rolls, killed = 0, False
            while not state["view"]["terminal"]:
                before = steps(state)
                await seats[state["view"]["turn"]].send(json.dumps({"action": "roll"}))
                rolls += 1
                seen = [await next_state(ws, before) for ws in seats.values()] + [await next_state(watcher, before)]
                assert len({steps(m) for m in seen}) == 1  # both processes' clients saw the same step live
                state = seen[0]
                if rolls == 4 and not killed:  # kill process one: Ann reconnects to process two
                    one.kill()
                    one.wait()
                    killed = True
                    with pytest.raises(Exception):  # noqa: B017 - the connection is gone, however it says so
                        await asyncio.wait_for(ann.recv(), 60)
                    ann = seats[0] = await connect(ws_url(two_base, tokens[0]))
                    again = json.loads(await ann.recv())
                    assert again["seat"] == 0 and steps(again) == steps(state)  # nothing lost
            for ws in (*seats.values(), watcher):
                await ws.close()
            assert killed
            return rolls, steps(state)

        rolls, last_step = asyncio.run(play())
        record = Record.loads(api_get(f"{two_base}/api/games/{game_id}/record").text)
        assert replay(record).is_terminal()
        assert len(record.steps) == last_step  # every step once: none lost, none doubled
        assert sum(1 for s in record.steps if s.actor is None) >= rolls
    finally:
        for process in (one, two):
            if process.poll() is None:
                process.terminate()
                process.wait(10)


@contextlib.contextmanager
def two_processes_at_a_table(postgres: str) -> Iterator[tuple[TestClient, TestClient, Socket, Socket]]:
    """Two servers on one database, and a started Ten Pins table: Ann on the first, Bob on the second."""
    with TestClient(create_app(postgres)) as one, TestClient(create_app(postgres)) as two:
        table = host(one, ["human", "human"], frames=2)
        ann, bob = sit(one, table["id"], 0, "Ann"), sit(two, table["id"], 1, "Bob")
        start(one, table)
        url = f"/ws/tables/{table['id']}"
        with one.websocket_connect(f"{url}?token={ann}") as wa, two.websocket_connect(f"{url}?token={bob}") as wb:
            assert steps(receive(wa)) == steps(receive(wb)) == 0
            yield one, two, wa, wb


def receive_within(ws: Socket, seconds: float) -> dict[str, Any]:
    """The next message, or TimeoutError (a receive still waiting ends when the socket closes)."""
    import concurrent.futures

    pool = concurrent.futures.ThreadPoolExecutor(1)
    try:
        return pool.submit(receive, ws).result(timeout=seconds)
    finally:
        pool.shutdown(wait=False)


def receive_step(ws: Socket, step: int, seconds: float = 30) -> dict[str, Any]:
    """The first state showing step `step` or later, or TimeoutError after `seconds`.

    A process may push a step twice (a look that finds it not yet shown here, then its
    notification), so the message after an action need not be that action's: read on past
    the states before it rather than take the next message for the new step.
    """
    deadline = time.monotonic() + seconds
    while True:
        message = receive_within(ws, max(deadline - time.monotonic(), 0.001))
        assert message["type"] == "state", message
        if steps(message) >= step:
            return message


def test_a_process_that_stopped_listening_shows_the_steps_it_missed(
    postgres: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL drops the notifications of a listener that is gone: listening again, a process pushes anew."""
    import psycopg
    import sqlalchemy as sa

    monkeypatch.setattr(tables_module, "RECONNECT_FIRST", 2.0)  # a gap in which the other process takes a step
    monkeypatch.setattr(tables_module, "WATCH_SECONDS", 3600.0)  # only the push anew can show it
    with two_processes_at_a_table(postgres) as (_one, two, wa, wb):
        listener = two.app.state.hub.broker.listener.info.backend_pid  # type: ignore[attr-defined]
        dsn = sa.make_url(postgres).set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(dsn, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (listener,))
        time.sleep(0.5)  # process two has seen its connection go, and waits to listen again
        wa.send_json({"action": "roll"})
        assert steps(receive_step(wa, 1)) == 1
        assert steps(receive_step(wb, 1)) == 1  # never, without the push anew


def test_a_notification_that_never_arrives_still_reaches_the_players_within_seconds(
    postgres: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process looks every few seconds for table changes it was not told of, so a lost one stalls no table."""
    monkeypatch.setattr(tables_module, "WATCH_SECONDS", 0.3)
    with two_processes_at_a_table(postgres) as (_one, two, wa, wb):
        deaf = two.app.state.hub.broker  # type: ignore[attr-defined]
        monkeypatch.setattr(deaf, "_note", lambda payload: None)  # every notification to process two is lost
        wa.send_json({"action": "roll"})
        assert steps(receive_step(wa, 1)) == 1
        assert steps(receive_step(wb, 1)) == 1  # never, without the look


def test_a_notification_later_than_the_look_shows_the_step_again_never_an_older_one(
    postgres: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The look pushes a step it finds not shown; the late notification pushes it again (clients pass over a
    repeat, as `receive_step` does): what matters is that no push shows a step older than one shown before."""
    monkeypatch.setattr(tables_module, "WATCH_SECONDS", 0.3)
    with two_processes_at_a_table(postgres) as (_one, two, wa, wb):
        broker = two.app.state.hub.broker  # type: ignore[attr-defined]
        heard = broker._note
        late = lambda payload: asyncio.get_running_loop().call_later(1.5, heard, payload)  # noqa: E731
        monkeypatch.setattr(broker, "_note", late)
        shown: list[int] = []
        turn = 0
        for step in (1, 2):
            (wa, wb)[turn].send_json({"action": "roll"})
            mine = receive_step(wa, step)
            assert steps(mine) == step
            turn = mine["view"]["turn"]
            shown.append(steps(receive_step(wb, step)))
        with contextlib.suppress(TimeoutError):
            while True:  # the repeats still on their way
                shown.append(steps(receive_within(wb, 2.5)))
    assert len(shown) > 2  # the repeats came (else this test shows nothing): a push shows the newest state
    assert shown == sorted(shown) and shown[-1] == 2


def test_a_process_plays_the_bots_another_process_left_due(postgres: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Process one stores the move that leaves a bot to play and never plays it (it died mid-step, say): process
    two, where a spectator watches, finds the table still for a few looks and plays the bot on."""
    monkeypatch.setattr(tables_module, "WATCH_SECONDS", 0.3)
    with TestClient(create_app(postgres)) as one, TestClient(create_app(postgres)) as two:
        one.app.state.tables.bots_to_play = lambda _table_id: None  # type: ignore[attr-defined]
        table = host(one, ["human", "bot:random"], frames=1)
        ann = sit(one, table["id"], 0, "Ann")
        start(one, table)
        url = f"/ws/tables/{table['id']}"
        with one.websocket_connect(f"{url}?token={ann}") as wa, two.websocket_connect(url) as spectator:
            state = receive(wa)
            receive(spectator)
            while state["view"]["turn"] == 0:  # Ann's frame, through process one
                wa.send_json({"action": "roll"})
                state = receive(wa)
            assert state["view"]["turn"] == 1  # the bot's frame: process one does not play it
            watched = receive_within(spectator, 30)  # never, without process two's look
            while not watched["view"]["terminal"]:  # process two plays it, each step pushed to both processes
                watched = receive_within(spectator, 30)
            assert settle(wa, [0], steps(state))["view"]["terminal"]
    assert two.app.state.tables.games.kept(watched["view"]["id"]) is None  # type: ignore[attr-defined]


def test_a_process_keeps_nothing_for_a_table_nobody_watches_there(postgres: str) -> None:
    """Every process hears every table's steps; one with no connection to the table keeps no entry for it."""
    with TestClient(create_app(postgres)) as one, TestClient(create_app(postgres)) as two:
        table = host(one, ["human"], frames=1)
        ann = sit(one, table["id"], 0, "Ann")
        start(one, table)
        with one.websocket_connect(f"/ws/tables/{table['id']}?token={ann}") as wa:
            state = receive(wa)
            while not state["view"]["terminal"]:
                wa.send_json({"action": "roll"})
                state = receive(wa)
        time.sleep(1.0)  # the notifications have reached process two
        hub = two.app.state.hub  # type: ignore[attr-defined]
        assert steps(state) >= 2
        assert table["id"] not in hub.connections and table["id"] not in hub._push_locks
        assert table["id"] not in hub.tables._shown


# --- what becomes of a table's game (issue 27, item 6) ----------------------------------------------------


def play_alone(client: TestClient, table_id: int, token: str) -> dict[str, Any]:
    """One seat rolls until its game ends (the bots play the other seats); the last state."""
    with client.websocket_connect(f"/ws/tables/{table_id}?token={token}") as ws:
        state = receive(ws)
        mine = [state["seat"]]
        if not settled(state, mine):  # a bot is playing its turn
            state = settle(ws, mine, steps(state))
        while not state["view"]["terminal"]:
            ws.send_json({"action": "roll"})
            state = settle(ws, mine, steps(state))
    return state


def history_of(client: TestClient, game_id: int) -> dict[str, Any]:
    row: dict[str, Any] = next(r for r in client.get("/api/history").json() if r["id"] == game_id)
    return row


def test_a_table_whose_game_ended_is_finished_and_released_from_memory(client: TestClient) -> None:
    body = {"game": "tenpins", "options": {"frames": 1}, "seats": [{"kind": "human"}], "turn_seconds": 60}
    table = client.post("/api/tables", json=body).json()
    token = sit(client, table["id"], 0, "Ann")
    game_id = start(client, table)
    at = f"/api/tables/{table['id']}"
    last = play_alone(client, table["id"], token)
    assert last["table"]["status"] == "finished"  # the very push of the last step says so
    assert client.get(at).json()["status"] == "finished"
    row = history_of(client, game_id)
    assert row["status"] == "finished" and row["finished"] and row["table"] == table["id"]
    assert "over" in error_of(client.post(f"{at}/close", json={"host_token": table["host_token"]}), 409)
    assert "over" in error_of(client.post(f"{at}/seats/0/bot", json={"host_token": table["host_token"]}), 409)
    tables, hub = client.app.state.tables, client.app.state.hub  # type: ignore[attr-defined]
    for _ in range(500):  # the turn timer's task ends by itself
        if table["id"] not in hub.clocks:
            break
        time.sleep(0.01)
    kept = [tables._playing, tables._game_of, tables._timed, tables.deadlines, hub.clocks]
    assert all(table["id"] not in entries for entries in kept), kept
    assert tables.games.kept(game_id) is None
    with client.websocket_connect(f"/ws/tables/{table['id']}") as late:  # a late spectator still sees the end
        seen = receive(late)
        assert seen["view"]["terminal"] and seen["table"]["status"] == "finished" and seen["view"]["seed"] is not None
    assert table["id"] not in tables._playing and tables.games.kept(game_id) is None


def test_a_table_of_bots_starts_at_once_and_every_client_sees_every_bot_step(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start returns while the first bot still thinks; then the bots play in the background, each step
    stored and pushed on its own, until the game ends and finishes its table."""
    import threading

    from pinsetter.bots.random_bot import RandomBot

    thinking, go_on = threading.Event(), threading.Event()
    choose = RandomBot.choose

    def slow_choose(self: RandomBot, state: Any, rng: Any) -> Any:
        thinking.set()
        assert go_on.wait(30)
        return choose(self, state, rng)

    monkeypatch.setattr(RandomBot, "choose", slow_choose)
    table = host(client, ["bot:random"] * 3, game="rolling-pins", frames=1)
    at, url = f"/api/tables/{table['id']}", f"/ws/tables/{table['id']}"
    with client.websocket_connect(url) as one, client.websocket_connect(url) as two:
        assert receive(one)["view"] is None and receive(two)["view"] is None  # not started yet
        game_id = start(client, table)
        until(thinking.is_set, "the first bot thinking")
        assert client.get(at).json()["status"] == "playing"  # the start has returned, the game goes on
        assert not client.app.state.service.storage.get(game_id).record.steps  # type: ignore[attr-defined]
        go_on.set()
        seen = {0: [receive(one)], 1: [receive(two)]}
        for index, ws in enumerate((one, two)):
            while not seen[index][-1]["view"]["terminal"]:
                seen[index].append(receive(ws))
    record = assert_replays(client, game_id)
    assert {s.actor for s in record.steps} == {None, 0, 1, 2}
    for states in seen.values():
        counts = [steps(m) for m in states]
        assert counts[0] == 0 and counts[-1] == len(record.steps)  # from the start's state to the end
        assert counts == sorted(set(counts))  # each state once, in order
        told = {entry["step"] for m in states for entry in m["view"]["log"]}
        assert told == set(range(1, len(record.steps) + 1))  # every step reached every client
        assert len(states) > 10  # a push per bot step, not one for the whole game
        assert states[-1]["table"]["status"] == "finished"
    assert client.get(at).json()["status"] == "finished"
    assert history_of(client, game_id)["status"] == "finished"


def test_a_closed_tables_game_is_abandoned_and_its_record_and_seed_become_readable(client: TestClient) -> None:
    table = host(client, ["human", "human"], frames=2)
    ann, _bob = sit(client, table["id"], 0, "Ann"), sit(client, table["id"], 1, "Bob")
    game_id = start(client, table)
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={ann}") as ws:
        receive(ws)
        ws.send_json({"action": "roll"})
        assert steps(receive(ws)) >= 1
    assert history_of(client, game_id)["status"] == "table"  # being played: resumed at the table, nowhere else
    assert "ends" in error_of(client.get(f"/api/games/{game_id}/record"), 409)
    assert client.get(f"/api/games/{game_id}").json()["seed"] is None
    assert client.get(f"/api/games/{game_id}/steps/1").json()["seed"] is None

    assert client.post(f"/api/tables/{table['id']}/close", json={"host_token": table["host_token"]}).status_code == 200
    row = history_of(client, game_id)
    assert row["status"] == "abandoned" and not row["finished"]  # not "unfinished": nobody can resume it
    record = Record.loads(client.get(f"/api/games/{game_id}/record").text)
    assert not replay(record).is_terminal() and len(record.steps) >= 1  # readable, and it replays
    assert client.get(f"/api/games/{game_id}").json()["seed"] == str(record.seed)  # digits: exact in JavaScript
    assert client.get(f"/api/games/{game_id}/steps/1").json()["seed"] == str(record.seed)
    assert "table" in error_of(client.post(f"/api/games/{game_id}/advance", json={"until": "step"}), 409)
    uploaded = client.post("/api/records", content=record.to_text())  # the download carries no table mark:
    assert uploaded.status_code == 201 and uploaded.json()["id"] != game_id  # another game, never the table's
    tables = client.app.state.tables  # type: ignore[attr-defined]
    assert table["id"] not in tables._playing and table["id"] not in tables._game_of


def test_two_tables_started_in_the_same_second_with_the_same_seed_and_names_are_two_games(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import datetime as real

    import pinsetter.records as records_module

    class Frozen(real.datetime):
        @classmethod
        def now(cls, tz: real.tzinfo | None = None) -> Frozen:
            return cls(2026, 1, 2, 3, 4, 5, tzinfo=tz)

    monkeypatch.setattr(records_module, "datetime", Frozen)  # both games start in one second
    made = []
    for _ in range(2):
        table = host(client, ["human", "bot:random"], seed=7, frames=1)
        made.append((table, sit(client, table["id"], 0, "Ann"), start(client, table)))
    (first, ann1, game1), (second, ann2, game2) = made
    assert game1 != game2
    play_alone(client, first["id"], ann1)
    assert client.get(f"/api/tables/{second['id']}").json()["status"] == "playing"  # untouched by the first's end
    play_alone(client, second["id"], ann2)
    records = [Record.loads(client.get(f"/api/games/{g}/record").text) for g in (game1, game2)]
    assert records[0].created == records[1].created and records[0].seed == records[1].seed == 7
    storage = client.app.state.service.storage  # type: ignore[attr-defined]
    stored = [storage.get(g).record for g in (game1, game2)]  # the download leaves the table's mark out
    assert [r.extra["table"] for r in stored] == [first["id"], second["id"]]
    assert {row["id"] for row in client.get("/api/history").json()} == {game1, game2}


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        ("http://testserver", True),  # the page's own origin: a ws:// socket is opened by an http:// page
        ("http://TestServer:80", True),  # the same origin, written otherwise
        ("https://testserver", False),  # another scheme: another origin
        ("http://testserver:8080", False),  # another port
        ("ftp://testserver", False),
        ("http://testserver.evil.example", False),
        ("http://evil.example/testserver", False),
        ("null", False),  # a sandboxed page or a file
        ("https://friends.example", True),  # given to `serve --origin`
        ("https://friends.example:443", True),
        ("http://friends.example", False),
        ("https://friends.example:8443", False),
        ("https://friends.example.evil.example", False),
    ],
)
def test_the_origin_check_compares_scheme_host_and_port(db: str, origin: str, allowed: bool) -> None:
    with TestClient(create_app(db, origins=("https://friends.example",))) as client:
        table = host(client, ["human"], frames=1)
        url = f"/ws/tables/{table['id']}"
        if allowed:
            with client.websocket_connect(url, headers={"origin": origin}) as ws:
                assert receive(ws)["type"] == "state"
        else:
            with (
                pytest.raises(WebSocketDisconnect) as closed,
                client.websocket_connect(url, headers={"origin": origin}) as ws,
            ):
                receive(ws)
            assert closed.value.code == 1008


def test_a_websocket_upgrade_with_an_overlong_address_or_header_is_refused_at_once(tmp_path: Path) -> None:
    """uvicorn once never answered what `websockets` refused before reading it: the client waited forever.

    Since uvicorn 0.55 it answers in text/plain; the API answers in its one-line JSON, as everywhere.
    A hang fails through the socket's timeout (far past any real wait), not a timed assertion.
    """
    from browser_support import served

    def handshake(port: int, path: str, extra: str = "") -> bytes:
        request = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n"
        )
        with socket.create_connection(("127.0.0.1", port), timeout=120) as sock:
            sock.sendall(request.encode())
            answer = b""
            while chunk := sock.recv(65536):  # the server closes the connection once it has answered
                answer += chunk
                if answer.startswith(b"HTTP/1.1 101"):
                    break
        return answer

    with served(tmp_path / "history.sqlite") as base:
        port = int(base.rsplit(":", 1)[1])
        for path, extra, status in (
            ("/ws/tables/1?token=" + "a" * 9000, "", b"414"),
            ("/ws/tables/1?token=" + "a" * 1_000_000, "", b"414"),
            ("/ws/tables/1", "X-Pad: " + "b" * 9000 + "\r\n", b"431"),
            ("/ws/tables/1", "".join(f"X-{i}: {i}\r\n" for i in range(200)), b"431"),
        ):
            answer = handshake(port, path, extra)
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 " + status), head
            error = json.loads(body)["error"]
            assert list(json.loads(body)) == ["error"] and "\n" not in error and error
        assert handshake(port, "/ws/tables/1?token=" + "a" * 4000).startswith(b"HTTP/1.1 101")  # the limit is 8 KiB


def test_a_table_game_finished_by_one_process_is_released_by_the_other(postgres: str) -> None:
    with two_processes_at_a_table(postgres) as (_one, two, wa, wb):
        seats = {0: wa, 1: wb}
        turn, done, shown = 0, False, 0
        last: dict[str, Any] = {}
        while not done:
            seats[turn].send_json({"action": "roll"})
            mine = receive_step(wa, shown + 1)
            shown = steps(mine)
            last = receive_step(wb, shown)  # process two shows the same step
            assert steps(last) == shown
            done = mine["view"]["terminal"]
            assert mine["view"]["terminal"] == last["view"]["terminal"]
            turn = mine["view"]["turn"] if not done else 0
        assert last["table"]["status"] == "finished"  # process two's seat saw the table finished
        tables = two.app.state.tables  # type: ignore[attr-defined]
        table_id = last["table"]["id"]
        assert table_id not in tables._playing and table_id not in tables._game_of
        assert tables.games.kept(last["table"]["game_id"]) is None
