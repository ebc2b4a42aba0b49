"""Online tables, continued: simultaneous decisions, the turn timer, and seats handed to a bot mid-game.

Shared-dice Rolling Pins: one roll serves everybody, every seat in the frame
answers it at once and in any order (each sees only its own choices), bots
answer their part in the background, and the game moves on when all have answered. A
turn timer lets the table's fallback bot decide for a seat whose time ran out
(the log says so), also after a restart. The host gives an idle player's seat
to a bot: the record keeps the human and says from which step the bot plays.
"""

from __future__ import annotations

import itertools
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from pinsetter.records import Record, RecordError, replay
from pinsetter.web.app import create_app
from test_web_tables import error_of, host, receive, settle, sit, start, steps
from waiting import until

SHARED = {"shared_dice": True, "frames": 2}


def record_of(client: TestClient, game_id: int) -> Record:
    """The record as the server stores it (the API serves a table's record only once the game ends)."""
    stored = client.app.state.service.storage.get(game_id)  # type: ignore[attr-defined]
    assert stored is not None
    record: Record = stored.record
    return record


def play_to_the_end(socket: Any, state: dict[str, Any]) -> dict[str, Any]:
    """The only seat still played by a human plays on (a miss where it may) until the game ends."""
    mine = [state["seat"]]
    for _ in range(200):
        if state["view"]["terminal"]:
            break
        legal = state["view"]["legal_actions"]
        socket.send_json({"action": "miss" if "miss" in legal else legal[-1]})
        state = settle(socket, mine, steps(state))  # the bots' frames pass by meanwhile
    return state


# --- simultaneous decisions --------------------------------------------------------------------------------


def test_three_seats_answer_one_shared_roll_at_once_in_any_order(client: TestClient) -> None:
    table = host(client, ["human", "human", "bot:greedy", "human"], game="rolling-pins", **SHARED)
    tokens = {seat: sit(client, table["id"], seat, name) for seat, name in ((0, "Ann"), (1, "Bob"), (3, "Cy"))}
    game_id = start(client, table)
    url = f"/ws/tables/{table['id']}"
    with (
        client.websocket_connect(f"{url}?token={tokens[0]}") as wa,
        client.websocket_connect(f"{url}?token={tokens[1]}") as wb,
        client.websocket_connect(f"{url}?token={tokens[3]}") as wc,
        client.websocket_connect(url) as spectator,
    ):
        sockets = {0: wa, 1: wb, 3: wc}
        latest = {seat: settle(ws, sockets) for seat, ws in sockets.items()}
        watched = settle(spectator, sockets)
        # The bot chose its dice (in the background); the three humans all decide now, each with their own choices.
        assert watched["view"]["deciders"] == [0, 1, 3] and watched["view"]["legal_actions"] == []
        for state in latest.values():
            assert state["view"]["next"] == "decision" and state["view"]["deciders"] == [0, 1, 3]
            assert state["view"]["legal_actions"] == ["dice 1", "dice 2"]
            assert [c["action"] for c in state["view"]["view"]["choices"]] == ["dice 1", "dice 2"]
        before = steps(watched)

        def everyone(after: int) -> dict[int, dict[str, Any]]:
            """Every connection's state past step `after` once the bots have answered their parts."""
            seen = {seat: settle(ws, sockets, after) for seat, ws in sockets.items()}
            settle(spectator, sockets, after)
            assert len({steps(m) for m in seen.values()}) == 1
            return seen

        wc.send_json({"action": "dice 1"})  # the last seat first: nobody waits for seat order
        latest = everyone(before)
        assert latest[3]["view"]["legal_actions"] == [] and latest[3]["view"]["deciders"] == [0, 1]
        waiting = latest[3]["view"]["view"]  # seat 3 watches its own sheet meanwhile
        assert waiting["player"] == 3 and waiting["status"] == "Cy: waiting for Ann, Bob" and waiting["choices"] == []
        wc.send_json({"action": "dice 2"})
        assert "turn" in receive(wc)["error"]  # seat 3 has answered this roll
        wa.send_json({"action": "dice 2"})
        latest = everyone(steps(latest[3]))
        wb.send_json({"action": "dice 2"})  # the last answer: the shared roll comes, the bot answers it
        latest = everyone(steps(latest[3]))
        record = record_of(client, game_id)
        answers = [(s.actor, s.text) for s in record.steps[before:]]
        assert answers[:3] == [(3, "dice 1"), (0, "dice 2"), (1, "dice 2")]
        assert answers[3][0] is None and answers[4][0] == 2  # one roll for all, then the bot's answer
        roll = [int(d) for d in answers[3][1].split("+")]
        for seat in (0, 1, 3):
            mine = latest[seat]["view"]
            assert seat in mine["deciders"] and 2 not in mine["deciders"]
            dice = [int(d["face"]) for d in mine["view"]["dice"]]
            assert dice == (roll[:1] if seat == 3 else roll[:2])  # each on their own sheet: coloured (+ white)
            assert mine["legal_actions"] and "miss" in mine["legal_actions"]

        # Play to the end: each time, the highest seat with something to decide answers.
        for _ in range(400):
            deciding = [seat for seat in sockets if latest[seat]["view"]["legal_actions"]]
            if not deciding:
                break
            seat = max(deciding)
            legal = latest[seat]["view"]["legal_actions"]
            sockets[seat].send_json({"action": "miss" if "miss" in legal else legal[-1]})
            latest = everyone(steps(latest[seat]))
        assert all(state["view"]["terminal"] for state in latest.values())
    record = record_of(client, game_id)
    assert replay(record).is_terminal()
    actors = [s.actor for s in record.steps if s.actor is not None]
    assert any(b < a for a, b in itertools.pairwise(actors))  # answers came out of seat order


def test_twelve_players_at_one_shared_dice_table(client: TestClient) -> None:
    table = host(client, ["human"] * 2 + ["bot:random"] * 10, game="rolling-pins", shared_dice=True, frames=1)
    ann, bob = sit(client, table["id"], 0, "Ann"), sit(client, table["id"], 1, "Bob")
    start(client, table)
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={bob}") as wb:
        state = settle(wb, (0, 1))  # the ten bots answer the first roll one after the other
        assert state["view"]["deciders"] == [0, 1] and state["view"]["legal_actions"]
        assert len(state["view"]["sheets"]) == 12
    assert ann


# --- the turn timer ----------------------------------------------------------------------------------------


def test_the_turn_timer_is_validated(client: TestClient) -> None:
    seats = [{"kind": "human"}]
    for seconds in (0, -5, 3601, "30", 1.5, True):
        body = {"game": "rolling-pins", "seats": seats, "turn_seconds": seconds}
        assert "turn_seconds" in error_of(client.post("/api/tables", json=body), 422)
    body = {"game": "rolling-pins", "seats": seats, "turn_seconds": 30, "fallback_bot": "nobody"}
    assert "nobody" in error_of(client.post("/api/tables", json=body), 422)
    made = client.post("/api/tables", json={"game": "rolling-pins", "seats": seats, "turn_seconds": 30})
    assert made.status_code == 201
    assert made.json()["table"]["turn_seconds"] == 30 and made.json()["table"]["fallback_bot"] == "greedy"
    untimed = host(client, ["human"], game="tenpins")
    assert untimed["table"]["turn_seconds"] is None


def test_a_timed_out_seat_is_played_by_the_fallback_bot_and_the_log_says_so(client: TestClient) -> None:
    answer = client.post(
        "/api/tables",
        json={
            "game": "rolling-pins",
            "options": {"shared_dice": True, "frames": 1},
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "turn_seconds": 1,
            "fallback_bot": "random",
        },
    )
    table = answer.json()
    ann, bob = sit(client, table["id"], 0, "Ann"), sit(client, table["id"], 1, "Bob")
    game_id = start(client, table)
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={ann}") as wa:
        first = receive(wa)
        assert set(first["view"]["time_left"]) == {"0", "1"}  # each waiting seat has its own clock
        assert all(0 < left <= 1 for left in first["view"]["time_left"].values())
        wa.send_json({"action": "dice 2"})  # Ann answers; Bob never does
        receive(wa)

        def bob_timed_out() -> Record | None:
            record = record_of(client, game_id)
            return record if any(s.by for s in record.steps) else None

        record = until(bob_timed_out, "Bob's decision played by the bot")
        late = next(s for s in record.steps if s.by)
        assert late.actor == 1 and late.by == "random" and late.text in ("dice 1", "dice 2")
        assert all(s.by is None for s in record.steps if s.actor == 0)  # Ann answered in time
        while True:  # the push after the timeout reaches Ann with the note in the log
            state = receive(wa)
            notes = [e["note"] for e in state["view"]["log"] if e["note"]]
            if notes:
                break
        assert notes[0] == "Bob ran out of time: a bot decided for them"
    assert replay(record_of(client, game_id))
    assert bob  # Bob's seat is still his: only that decision was the bot's


def test_the_turn_timer_goes_on_after_a_restart(db: str) -> None:
    with TestClient(create_app(db)) as client:
        answer = client.post(
            "/api/tables",
            json={"game": "rolling-pins", "options": {"frames": 1}, "seats": [{"kind": "human"}], "turn_seconds": 3600},
        )
        table = answer.json()
        sit(client, table["id"], 0, "Ann")
        game_id = start(client, table)
    # Nobody reconnects: the new server finds the timed table and plays the waiting decision when it is due.
    import pinsetter.web.tables as tables_module

    clock = {"now": time.monotonic()}
    original = tables_module.time
    tables_module.time = type("Clock", (), {"monotonic": staticmethod(lambda: clock["now"])})  # type: ignore[assignment]
    try:
        with TestClient(create_app(db)) as again:
            assert not any(s.by for s in record_of(again, game_id).steps)
            tables = again.app.state.tables  # type: ignore[attr-defined]
            until(lambda: tables.deadlines.get(table["id"]), "the restarted server's clock for Ann's decision")
            clock["now"] += 3601  # an hour later
            hub = again.app.state.hub  # type: ignore[attr-defined]
            for event in list(hub.wakes.values()):
                again.portal.call(event.set)  # type: ignore[union-attr]
            record = until(lambda: (r := record_of(again, game_id)) and any(s.by for s in r.steps) and r, "a timeout")
    finally:
        tables_module.time = original
    assert record.steps[0].actor == 0 and record.steps[0].by == "greedy"


# --- a seat handed to a bot mid-game ----------------------------------------------------------------------


def test_the_host_hands_an_idle_players_seat_to_a_bot_mid_game(client: TestClient) -> None:
    table = host(client, ["human", "human"], game="rolling-pins", frames=2)
    ann, bob = sit(client, table["id"], 0, "Ann"), sit(client, table["id"], 1, "Bob")
    game_id = start(client, table)
    at = f"/api/tables/{table['id']}"
    url = f"/ws/tables/{table['id']}"
    with client.websocket_connect(f"{url}?token={ann}") as wa, client.websocket_connect(f"{url}?token={bob}") as wb:
        state = receive(wa)
        receive(wb)
        for _ in range(100):  # Ann plays her first frame; then it is Bob's turn, and Bob is idle
            if state["view"]["turn"] == 1:
                break
            legal = state["view"]["legal_actions"]
            wa.send_json({"action": "miss" if "miss" in legal else legal[-1]})
            state = receive(wa)
            receive(wb)
        assert state["view"]["turn"] == 1
        moved = steps(state)
        error_of(client.post(f"{at}/seats/1/bot", json={"host_token": ann, "bot": "greedy"}), 422)  # hosts only
        error_of(client.post(f"{at}/seats/1/bot", json={"host_token": table["host_token"], "bot": "nobody"}), 422)
        error_of(client.post(f"{at}/seats/5/bot", json={"host_token": table["host_token"], "bot": "greedy"}), 404)
        answer = client.post(f"{at}/seats/1/bot", json={"host_token": table["host_token"], "bot": "greedy"})
        assert answer.status_code == 200 and answer.json()["seats"][1] == {
            "seat": 1,
            "kind": "bot:greedy",
            "name": "Bob",
            "free": False,
        }
        state = settle(wa, [0], moved)  # the bot played Bob's frame, each step pushed as it came
        assert state["table"]["seats"][1]["kind"] == "bot:greedy" and steps(state) > moved
        wb.send_json({"action": "miss"})  # Bob's old connection can no longer act
        message = receive(wb)
        while message["type"] == "state":
            message = receive(wb)
        assert message["error"] == "your seat is played by a bot now"
        again = client.post(f"{at}/seats/1/bot", json={"host_token": table["host_token"], "bot": "random"})
        assert "bot already" in error_of(again, 409)
        state = play_to_the_end(wa, state)
        assert state["view"]["terminal"]
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(f"{url}?token={bob}") as ws:
        receive(ws)  # Bob's token no longer holds a seat
    assert closed.value.code == 1008
    record = record_of(client, game_id)
    assert replay(record).is_terminal()
    bob_spec = record.players[1]
    assert (bob_spec.name, bob_spec.kind, bob_spec.replaced_by, bob_spec.from_step) == ("Bob", "human", "greedy", moved)
    assert record.to_json()["players"][1] == {
        "name": "Bob",
        "kind": "human",
        "replaced_by": "greedy",
        "from_step": moved,
    }
    assert all(s.actor != 1 for s in record.steps[:moved]) and any(s.actor == 1 for s in record.steps[moved:])


def test_records_check_the_replacement_marker() -> None:
    base = {
        "format": "pinsetter-record",
        "version": 1,
        "game": "rolling-pins",
        "options": {"frames": 1},
        "seed": 1,
        "steps": [{"actor": 0, "step": "dice 2"}],
    }

    def refused(players: list[dict[str, Any]], **more: Any) -> str:
        with pytest.raises(RecordError) as error:
            Record.from_json({**base, "players": players, **more})
        return str(error.value)

    assert "go together" in refused([{"name": "a", "replaced_by": "greedy"}])
    assert "go together" in refused([{"name": "a", "from_step": 0}])
    assert "human" in refused([{"name": "a", "kind": "random", "replaced_by": "greedy", "from_step": 0}])
    assert "past the last step" in refused([{"name": "a", "replaced_by": "greedy", "from_step": 2}])
    chance_by = [{"actor": "chance", "step": "1+2", "by": "greedy"}]
    assert "chance" in refused([{"name": "a"}], steps=chance_by)
    fine = Record.from_json({**base, "players": [{"name": "a", "replaced_by": "greedy", "from_step": 1}]})
    assert fine.players[0].bot == "greedy" and not fine.players[0].is_human
    bot_by = Record.from_json({**base, "players": [{"name": "r", "kind": "random"}]})
    bot_by.steps = [type(bot_by.steps[0])(0, "dice 2", "greedy")]
    with pytest.raises(RecordError, match="only a human seat"):
        replay(bot_by)


def test_a_tables_seed_stays_secret_until_the_game_ends(client: TestClient) -> None:
    """The seed tells every roll to come: no player may read it during the game."""
    table = host(client, ["human"], game="rolling-pins", frames=1)
    ann = sit(client, table["id"], 0, "Ann")
    game_id = start(client, table)
    at = f"/api/games/{game_id}"
    assert client.get(at).json()["seed"] is None and client.get(f"{at}/steps/0").json()["seed"] is None
    assert "when it ends" in error_of(client.get(f"{at}/record"), 409)
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={ann}") as wa:
        state = receive(wa)
        assert state["view"]["seed"] is None
        state = play_to_the_end(wa, state)
        assert state["view"]["terminal"] and isinstance(state["view"]["seed"], str)
    assert client.get(at).json()["seed"] == state["view"]["seed"] == str(record_of(client, game_id).seed)
    solo = client.post("/api/games", json={"game": "rolling-pins", "players": [{"name": "a", "kind": "human"}]})
    assert solo.json()["seed"].isdigit()  # a game of one's own shows its seed (as digits) as before


def test_simultaneous_answers_a_timer_and_a_replacement_on_postgresql(postgres: str) -> None:
    """The same features on PostgreSQL (the table's settings column comes from its migration)."""
    with TestClient(create_app(postgres)) as client:
        body = {
            "game": "rolling-pins",
            "options": {"shared_dice": True, "frames": 1},
            "seats": [{"kind": "human"}] * 3,
            "turn_seconds": 600,
        }
        table = client.post("/api/tables", json=body).json()
        tokens = [sit(client, table["id"], seat, name) for seat, name in enumerate(("Ann", "Bob", "Cy"))]
        game_id = start(client, table)
        hosting = {"host_token": table["host_token"], "bot": "random"}
        url = f"/ws/tables/{table['id']}"
        with (
            client.websocket_connect(f"{url}?token={tokens[0]}") as wa,
            client.websocket_connect(f"{url}?token={tokens[1]}") as wb,
        ):
            latest = {0: receive(wa), 1: receive(wb)}
            assert latest[0]["view"]["deciders"] == [0, 1, 2] and latest[0]["table"]["turn_seconds"] == 600
            assert client.post(f"/api/tables/{table['id']}/seats/2/bot", json=hosting).status_code == 200
            before = steps(latest[0])
            latest = {0: settle(wa, (0, 1), before), 1: settle(wb, (0, 1), before)}  # Cy's bot has answered
            assert latest[0]["view"]["deciders"] == [0, 1]
            sockets = {0: wa, 1: wb}
            for _ in range(200):
                deciding = [seat for seat in (1, 0) if latest[seat]["view"]["legal_actions"]]
                if not deciding:
                    break
                legal = latest[deciding[0]]["view"]["legal_actions"]
                sockets[deciding[0]].send_json({"action": "miss" if "miss" in legal else legal[-1]})
                before = steps(latest[0])
                latest = {0: settle(wa, (0, 1), before), 1: settle(wb, (0, 1), before)}  # through LISTEN/NOTIFY
            assert latest[0]["view"]["terminal"]
        record = record_of(client, game_id)
        assert replay(record).is_terminal()
        assert record.players[2].replaced_by == "random" and record.players[2].from_step == 0
