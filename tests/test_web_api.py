"""The web API (issue 12): every endpoint, its errors, and complete games of all four games through it.

Errors are 4xx JSON bodies `{"error": one line}`; games go through the engine
only (a pick of pins becomes an action the engine judges); every finished
game's record verifies with `pinsetter.records.replay`; user text travels as
data.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import pinsetter.web
from pinsetter.core.narration import pins_list
from pinsetter.records import Record, replay
from pinsetter.web.app import MAX_BODY, create_app

HOSTILE = "<img src=x onerror=alert(1)>"


def error_of(response: Any, status: int) -> str:
    """The one-line error of a refused request."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    assert isinstance(body["error"], str) and body["error"]
    assert "\n" not in body["error"]
    return str(body["error"])


def new_game(client: TestClient, game: str, players: list[tuple[str, str]], **extra: Any) -> dict[str, Any]:
    body = {"game": game, "players": [{"name": n, "kind": k} for n, k in players], **extra}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def play_out(client: TestClient, view: dict[str, Any], by_pick: bool = True) -> dict[str, Any]:
    """Play a game to its end: chance and bots by `advance`, humans by picks of pins or the first choice."""
    gid = view["id"]
    for _ in range(5000):
        if view["next"] == "over":
            return view
        if view["next"] in ("roll", "bot"):
            response = client.post(f"/api/games/{gid}/advance", json={"until": "step"})
        else:
            table = view["view"]
            picks = [c for c in table["choices"] if c["by_selection"]]
            if by_pick and picks:
                choice = picks[0]
                body: dict[str, Any] = {"pins": choice["pins"]}
                if choice["pile"] is not None:
                    body["pile"] = choice["pile"]
            else:
                body = {"action": view["legal_actions"][0]}
            response = client.post(f"/api/games/{gid}/actions", json=body)
        assert response.status_code == 200, response.text
        view = response.json()
    raise AssertionError("the game did not end")


def verify_record(client: TestClient, gid: int) -> Record:
    response = client.get(f"/api/games/{gid}/record")
    assert response.status_code == 200
    assert f"pinsetter-{gid}.json" in response.headers["content-disposition"]
    record = Record.loads(response.text)
    state = replay(record)
    assert state.is_terminal()
    return record


# --- catalog and rules ------------------------------------------------------------------------------


def test_catalog_lists_the_four_games_with_options_and_bots(client: TestClient) -> None:
    catalog = client.get("/api/catalog").json()
    ids = {g["id"] for g in catalog}
    assert ids == {"tenpins", "bowling-dice", "rolling-pins", "bowling-solitaire"}
    for game in catalog:
        assert game["bots"], game["id"]
        assert any(o["name"] == "frames" for o in game["options"])
        for option in game["options"]:
            assert option["help"] and option["type"] in ("bool", "int", "text")


def test_rules_of_each_game_and_an_unknown_one(client: TestClient) -> None:
    for gid in ("tenpins", "bowling-dice", "rolling-pins", "bowling-solitaire"):
        body = client.get(f"/api/rules/{gid}").json()
        assert body["game"] == gid and len(body["rules"]) > 100
    assert "chess" in error_of(client.get("/api/rules/chess"), 404)


def test_the_pages_are_served_offline(client: TestClient) -> None:
    index = client.get("/")
    assert index.status_code == 200 and re.search(r'src="/static/v/[0-9a-f]{12}/app\.js"', index.text)
    static = Path(pinsetter.web.__file__).parent / "static"
    modules = sorted(str(path.relative_to(static)) for path in static.rglob("*.js"))
    assert "app.js" in modules and "js/board.js" in modules
    for name in (*modules, "style.css", "players.css", "index.html"):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200, name
        assert "http://" not in response.text.replace("http://www.w3.org/2000/svg", ""), name
        assert "https://" not in response.text, name
        if name.endswith(".js"):
            script = response.text
            assert "innerHTML" not in script and "insertAdjacentHTML" not in script and "outerHTML" not in script, name


# --- complete games -----------------------------------------------------------------------------------


def test_a_complete_tenpins_game_with_a_human_and_a_bot(client: TestClient) -> None:
    view = new_game(client, "tenpins", [("ann", "human"), ("robo", "bot:random")], options={"frames": 3}, seed=11)
    assert view["next"] == "roll" and not view["has_decisions"]
    end = play_out(client, view)
    assert end["terminal"] and end["result"]["complete"]
    assert [s["name"] for s in end["sheets"]] == ["ann", "robo"]
    assert all(len(s["frames"]) == 3 for s in end["sheets"])
    assert end["ending"][0].startswith(("Winner: ", "Tie: ")) and end["ending"][1].startswith("1. ")
    record = verify_record(client, end["id"])
    assert [p.name for p in record.players] == ["ann", "robo"]


def test_a_complete_bowling_dice_game(client: TestClient) -> None:
    view = new_game(client, "bowling-dice", [("ann", "human"), ("robo", "bot:random")], options={"frames": 2}, seed=3)
    assert view["view"]["standing"] == 10
    end = play_out(client, view)
    assert end["terminal"] and end["view"]["dice"]
    assert all(d["kind"] == "bowling" and d["face"] in "X/P-" for d in end["view"]["dice"])
    verify_record(client, end["id"])


def test_a_complete_rolling_pins_game_by_picks_of_pins(client: TestClient) -> None:
    view = new_game(
        client, "rolling-pins", [("ann", "human"), ("robo", "bot:greedy")], options={"frames": 2, "advanced": True}
    )
    assert view["next"] == "decision" and view["view"]["track"]
    end = play_out(client, view)
    assert end["terminal"] and end["result"]["complete"]
    verify_record(client, end["id"])


def test_a_complete_solitaire_game_by_human_and_by_bot(client: TestClient) -> None:
    view = new_game(client, "bowling-solitaire", [("ann", "human")], options={"frames": 2}, seed=5)
    end = play_out(client, view)
    assert end["terminal"]
    verify_record(client, end["id"])
    bot = new_game(client, "bowling-solitaire", [("robo", "bot:greedy")], options={"frames": 2}, seed=5)
    done = client.post(f"/api/games/{bot['id']}/advance", json={"until": "human"}).json()
    assert done["next"] == "over"  # a bot-only game runs to its end in one advance
    verify_record(client, bot["id"])


# --- the game's steps: picks, refusals, undo, hints -------------------------------------------------


def rolled(client: TestClient, seed: int = 4) -> dict[str, Any]:
    """A solo Rolling Pins game just after its first roll."""
    view = new_game(client, "rolling-pins", [("ann", "human")], options={"frames": 2}, seed=seed)
    gid = view["id"]
    view = client.post(f"/api/games/{gid}/actions", json={"action": "dice 2"}).json()
    assert view["next"] == "roll"
    after: dict[str, Any] = client.post(f"/api/games/{gid}/advance", json={"until": "step"}).json()
    assert after["next"] == "decision" and after["view"]["selection"]["target"] is not None
    return after


def test_a_refused_pick_names_the_pick_and_the_reason(client: TestClient) -> None:
    view = rolled(client)
    gid = view["id"]
    table = view["view"]
    legal = {frozenset(c["pins"]) for c in table["choices"] if c["by_selection"]}
    standing = [p["number"] for p in table["pins"] if not p["down"]]
    assert frozenset(standing) not in legal
    message = error_of(client.post(f"/api/games/{gid}/actions", json={"pins": standing}), 422)
    # the pick and why, not the action it was made into ("cross 1+2+... tokens +40 is not legal here")
    assert message.startswith(f"pins {pins_list(sorted(standing))}: the pins sum to "), message
    assert "cross" not in message
    with_pile = error_of(client.post(f"/api/games/{gid}/actions", json={"pins": standing[:1], "pile": 1}), 422)
    assert with_pile == "Rolling Pins has no piles: pick pins alone"
    assert error_of(client.post(f"/api/games/{gid}/actions", json={"action": "fly away"}), 422)
    assert "pins" in error_of(client.post(f"/api/games/{gid}/actions", json={}), 422)
    # nothing changed
    assert client.get(f"/api/games/{gid}").json()["log"] == view["log"]


def test_a_refused_pick_says_its_pins_then_why() -> None:
    from pinsetter.core.game import IllegalActionError
    from pinsetter.games.table_common import refusal_line

    summed = IllegalActionError(
        "cross 7 tokens +5 is not legal here: the pins sum to 7, ...", reason="the pins sum to 7"
    )
    assert refusal_line("cross 7 tokens +5", summed, [7]) == "pins 7: the pins sum to 7"
    valued = IllegalActionError("play 2 on 1 is not legal here: ...", reason="the pins' values 9 do not match a 2")
    assert refusal_line("play 2 on 1", valued, [2, 2]) == "pins 2: the pins' values 9 do not match a 2"
    assert refusal_line("play 2 on 1", valued) == str(valued)  # typed, not picked: the action and why


def test_undo_takes_back_a_decision_but_not_past_a_roll(client: TestClient) -> None:
    view = rolled(client)
    gid = view["id"]
    reason = view["undo"]
    assert isinstance(reason, str) and reason
    assert error_of(client.post(f"/api/games/{gid}/undo"), 409) == reason
    choice = next(c for c in view["view"]["choices"] if c["by_selection"])
    after = client.post(f"/api/games/{gid}/actions", json={"pins": choice["pins"]}).json()
    assert after["undo"] is None
    down = {p["number"] for p in after["view"]["pins"] if p["down"]}
    assert set(choice["pins"]) <= down
    back = client.post(f"/api/games/{gid}/undo").json()
    assert back["log"] == view["log"]
    assert [p["down"] for p in back["view"]["pins"]] == [p["down"] for p in view["view"]["pins"]]


def test_hints_are_for_decisions(client: TestClient) -> None:
    view = rolled(client)
    hint = client.get(f"/api/games/{view['id']}/hint")
    assert hint.status_code == 200
    body = hint.json()
    assert set(body) == {"bot", "meaning", "options", "words", "chances_offered", "chance_meaning"}
    assert body["words"] and body["words"][0].endswith("(best)")
    assert body["chances_offered"] is False and body["chance_meaning"] is None  # one player: nobody to be ahead of
    assert "other players" in error_of(client.get(f"/api/games/{view['id']}/hint?chances=true"), 409)
    dice = new_game(client, "tenpins", [("ann", "human")], options={"frames": 1})
    error_of(client.get(f"/api/games/{dice['id']}/hint"), 409)


def test_a_hint_gives_each_options_chance_to_finish_ahead_on_request(client: TestClient) -> None:
    """Basic Rolling Pins against another player: the hint offers the chances, and gives them when asked
    (the `win` bot's values, the other player taken to play for the best expected score)."""
    view = new_game(client, "rolling-pins", [("ann", "human"), ("bob", "bot:optimal")], options={"frames": 2}, seed=5)
    gid = view["id"]
    while view["next"] != "decision":
        view = client.post(f"/api/games/{gid}/advance", json={"until": "step"}).json()
    plain = client.get(f"/api/games/{gid}/hint").json()
    assert plain["chances_offered"] is True and plain["chance_meaning"] is None
    assert all("chance" not in option for option in plain["options"])
    asked = client.get(f"/api/games/{gid}/hint?chances=true").json()
    assert asked["chance_meaning"].startswith("the chance to finish ahead of every other player, assuming")
    assert [o["value"] for o in asked["options"]] == [o["value"] for o in plain["options"]]  # still by expected score
    chances = [o["chance"] for o in asked["options"]]
    assert all(0 < c < 1 for c in chances) and len(set(chances)) > 1
    likeliest = max(chances)
    for option, words in zip(asked["options"], asked["words"], strict=True):
        assert ", chance to finish ahead " in words and "%" in words
        assert ("best chance)" in words) == (option["chance"] >= likeliest - 1e-6)
        assert ("(best score" in words) == (option is asked["options"][0])
    error_of(client.get(f"/api/games/{gid}/hint?chances=maybe"), 422)


def test_advance_until_human_plays_the_bots_and_stops_at_a_human(client: TestClient) -> None:
    view = new_game(client, "tenpins", [("robo", "bot:random"), ("ann", "human")], options={"frames": 2}, seed=2)
    assert view["next"] == "bot"
    after = client.post(f"/api/games/{view['id']}/advance", json={"until": "human"}).json()
    assert after["next"] == "roll" and after["turn"] == 1
    error_of(client.post(f"/api/games/{view['id']}/advance", json={"until": "forever"}), 422)


def test_conflicts_over_a_finished_game_and_a_decision_not_taken(client: TestClient) -> None:
    view = rolled(client)
    gid = view["id"]
    assert "decide" in error_of(client.post(f"/api/games/{gid}/advance", json={}), 409)
    tenpins = new_game(client, "tenpins", [("ann", "human")], options={"frames": 1}, seed=1)
    error_of(client.post(f"/api/games/{tenpins['id']}/actions", json={"action": "x"}), 409)
    end = play_out(client, tenpins)
    assert "over" in error_of(client.post(f"/api/games/{end['id']}/advance", json={}), 409)
    assert "over" in error_of(client.post(f"/api/games/{end['id']}/actions", json={"action": "x"}), 409)


def test_unknown_games_are_404(client: TestClient) -> None:
    for method, path in (
        ("GET", "/api/games/999"),
        ("POST", "/api/games/999/advance"),
        ("POST", "/api/games/999/undo"),
        ("GET", "/api/games/999/hint"),
        ("GET", "/api/games/999/record"),
        ("GET", "/api/games/999/steps/0"),
        ("GET", "/api/nothing-here"),
    ):
        response = client.request(method, path, json={} if method == "POST" else None)
        assert "999" in error_of(response, 404) or path.endswith("here")


@pytest.mark.parametrize("number", [str(2**63), "9" * 30])
def test_ids_no_database_can_hold_are_404_not_500(client: TestClient, number: str) -> None:
    """SQLite's and PostgreSQL's integers stop at 2^63 - 1: a larger id is looked up nowhere, and found nowhere."""
    for method, path, body in (
        ("GET", f"/api/games/{number}", None),
        ("POST", f"/api/games/{number}/actions", {"action": "roll"}),
        ("POST", f"/api/games/{number}/advance", {}),
        ("POST", f"/api/games/{number}/undo", None),
        ("GET", f"/api/games/{number}/hint", None),
        ("GET", f"/api/games/{number}/record", None),
        ("GET", f"/api/games/{number}/steps/1", None),
        ("GET", f"/api/tables/{number}", None),
        ("POST", f"/api/tables/{number}/seats/0", {"name": "ann"}),
        ("POST", f"/api/tables/{number}/start", {"host_token": "x"}),
        ("POST", f"/api/tables/{number}/seats/0/bot", {"host_token": "x"}),
        ("POST", f"/api/tables/{number}/close", {"host_token": "x"}),
    ):
        assert number in error_of(client.request(method, path, json=body), 404), path
    with client.websocket_connect(f"/ws/tables/{number}", headers={"origin": "http://testserver"}) as socket:
        closed = socket.receive()
    assert closed["type"] == "websocket.close" and closed["code"] == 1008


# --- starting games: what is refused ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess", "players": [{"name": "a", "kind": "human"}]}, "chess"),
        ({"game": "tenpins", "players": []}, "players"),
        ({"game": "tenpins", "players": [{"name": "a", "kind": "wizard"}]}, "kind"),
        ({"game": "tenpins", "players": [{"name": "a", "kind": "bot:nobody"}]}, "nobody"),
        ({"game": "tenpins", "players": [{"name": "a", "kind": "human"}, {"name": "a", "kind": "human"}]}, "twice"),
        (
            {"game": "tenpins", "players": [{"name": "ann", "kind": "human"}, {"name": "Ann\ufe0f", "kind": "human"}]},
            "are one name",
        ),
        ({"game": "tenpins", "players": [{"name": "\u3164", "kind": "human"}]}, "shows as a blank"),
        ({"game": "tenpins", "players": [{"name": "\u2800", "kind": "human"}]}, "shows as a blank"),
        ({"game": "tenpins", "players": [{"name": "\u0301", "kind": "human"}]}, "shows nothing"),
        (
            {"game": "bowling-solitaire", "players": [{"name": "a", "kind": "human"}, {"name": "b", "kind": "human"}]},
            "",
        ),
        ({"game": "tenpins", "options": {"frames": 11}, "players": [{"name": "a", "kind": "human"}]}, "frames"),
        ({"game": "tenpins", "options": {"colour": "red"}, "players": [{"name": "a", "kind": "human"}]}, "colour"),
        ({"game": "tenpins", "seed": -1, "players": [{"name": "a", "kind": "human"}]}, "seed"),
        ({"game": "tenpins", "players": [{"name": "a", "kind": "human"}], "extra": 1}, "extra"),
    ],
)
def test_new_games_refused_with_a_reason(client: TestClient, body: dict[str, Any], words: str) -> None:
    message = error_of(client.post("/api/games", json=body), 422)
    assert words.lower() in message.lower()


@pytest.mark.parametrize("sent", [2**63 - 1, str(2**63 - 1), "4339359763893902901", "0"])
def test_seeds_travel_as_exact_digits(client: TestClient, sent: int | str) -> None:
    """A seed above 2^53 comes back as the same digits (a string) and stays an exact int in the record."""
    body = {"game": "tenpins", "options": {"frames": 1}, "players": [{"name": "a", "kind": "human"}], "seed": sent}
    created = client.post("/api/games", json=body)
    assert created.status_code == 201, created.text
    digits = str(sent)
    assert created.json()["seed"] == digits
    game_id = created.json()["id"]
    assert client.get(f"/api/games/{game_id}").json()["seed"] == digits
    assert client.get(f"/api/games/{game_id}/steps/0").json()["seed"] == digits
    # The raw response text holds the digits themselves, as a JSON string (no number to round).
    assert f'"seed":"{digits}"' in client.get(f"/api/games/{game_id}").text
    record = client.get(f"/api/games/{game_id}/record")
    assert record.json()["seed"] == int(digits) and Record.loads(record.text).seed == int(digits)


def test_a_seed_given_as_digits_plays_the_game_of_that_number(client: TestClient) -> None:
    as_text = play_out(client, new_game(client, "tenpins", [("a", "human")], options={"frames": 2}, seed="99"))
    as_number = play_out(client, new_game(client, "tenpins", [("a", "human")], options={"frames": 2}, seed=99))
    assert as_text["sheets"][0]["frames"] == as_number["sheets"][0]["frames"]


def test_a_game_is_reproducible_from_its_seed(client: TestClient) -> None:
    first = play_out(client, new_game(client, "tenpins", [("a", "human")], options={"frames": 2}, seed=99))
    second = play_out(client, new_game(client, "tenpins", [("a", "human")], options={"frames": 2}, seed=99))
    assert first["sheets"][0]["frames"] == second["sheets"][0]["frames"]


def test_bodies_over_the_limit_are_413(client: TestClient) -> None:
    big = json.dumps({"game": "tenpins", "players": [{"name": "a", "kind": "human"}], "pad": "x" * MAX_BODY})
    response = client.post("/api/games", content=big, headers={"content-type": "application/json"})
    assert "bytes" in error_of(response, 413)
    error_of(client.post("/api/records", content=b"x" * 2_000_001), 413)


# --- records, history, steps, stats -----------------------------------------------------------------


def test_upload_a_record_and_step_through_it(client: TestClient, tmp_path: Path) -> None:
    end = play_out(client, new_game(client, "tenpins", [("ann", "human")], options={"frames": 2}, seed=8))
    text = client.get(f"/api/games/{end['id']}/record").text
    assert client.post("/api/records", content=text.encode()).json()["id"] == end["id"]  # already kept
    with TestClient(create_app(str(tmp_path / "other.sqlite"))) as other:
        uploaded = other.post("/api/records", content=text.encode())
        assert uploaded.status_code == 201
        assert other.get("/api/history").json()[0]["id"] == uploaded.json()["id"]
    client = other  # step through the uploaded game on the other server
    new_id = uploaded.json()["id"]
    steps = len(json.loads(text)["steps"])
    start = client.get(f"/api/games/{new_id}/steps/0").json()
    assert all(f == [] for f in (s["frames"] for s in start["sheets"]))
    last = client.get(f"/api/games/{new_id}/steps/{steps}").json()
    assert last["terminal"] and last["sheets"] == end["sheets"]
    assert str(steps) in error_of(client.get(f"/api/games/{new_id}/steps/{steps + 1}"), 404)


def test_upload_refuses_a_tampered_record_naming_the_step(client: TestClient) -> None:
    end = play_out(client, new_game(client, "tenpins", [("ann", "human")], options={"frames": 2}, seed=8))
    data = client.get(f"/api/games/{end['id']}/record").json()
    data["result"]["players"][0]["total"] += 1
    error_of(client.post("/api/records", content=json.dumps(data).encode()), 422)
    error_of(client.post("/api/records", content=b"not json"), 422)
    error_of(client.post("/api/records", content=b"\xff\xfe"), 422)


def test_upload_refuses_a_record_no_other_reader_takes(client: TestClient, tmp_path: Path) -> None:
    """Seats played by no bot, a claim to a table, an option in its command-line form, a key given
    twice: each refused in one line naming its place, as `replay` refuses it; nothing is stored."""
    from pinsetter.cli.app import main

    view = new_game(client, "tenpins", [("ann", "human"), ("random", "bot:random")], options={"frames": 1}, seed=3)
    text = client.get(f"/api/games/{play_out(client, view)['id']}/record").text
    data = json.loads(text)
    human = {"name": "ann", "kind": "human"}
    cases = {
        "players[1].kind: 'nosuchbot' names no bot": {
            **data,
            "players": [human, {"name": "random", "kind": "nosuchbot"}],
        },
        "players[1].kind: '\\x1b[2J' names no bot": {**data, "players": [human, {"name": "random", "kind": "\x1b[2J"}]},
        "players[0].replaced_by: 'nosuchbot'": {
            **data,
            "players": [human | {"replaced_by": "nosuchbot", "from_step": 0}, data["players"][1]],
        },
        "extra.table: only the online tables": {**data, "extra": {"table": 1}},
        "options.frames: expected a whole number, got '1'": {**data, "options": {"frames": "1"}},
        "the key 'seed' is given twice": json.dumps(data).replace('"seed": ', '"seed": 0, "seed": '),
    }
    with TestClient(create_app(str(tmp_path / "other.sqlite"))) as other:
        for words, case in cases.items():
            body = case if isinstance(case, str) else json.dumps(case)
            assert error_of(other.post("/api/records", content=body.encode()), 422).startswith(words), words
            path = tmp_path / "case.json"
            path.write_text(body)
            assert main(["replay", str(path)]) == 2, words
        assert other.get("/api/history").json() == []


def test_history_filters_and_unfinished_games(client: TestClient) -> None:
    end = play_out(client, new_game(client, "tenpins", [("ann", "human")], options={"frames": 1}, seed=1))
    open_game = new_game(client, "rolling-pins", [("bob", "human")], options={"frames": 1})
    rows = client.get("/api/history").json()
    assert [r["id"] for r in rows] == [open_game["id"], end["id"]]
    assert [r["finished"] for r in rows] == [False, True]
    assert [r["id"] for r in client.get("/api/history?game=tenpins").json()] == [end["id"]]
    assert [r["id"] for r in client.get("/api/history?player=bob").json()] == [open_game["id"]]
    assert client.get("/api/history?game=&player=").json() == rows


def test_the_view_and_the_history_say_which_games_can_be_reviewed(client: TestClient) -> None:
    """The pages link to a review only where GET /api/games/{id}/review can make one (pinsetter.review)."""
    games = [
        ("rolling-pins", {"frames": 1}, True),
        ("rolling-pins", {"frames": 1, "advanced": True}, True),  # solved at once when needed
        ("rolling-pins", {"advanced": True}, False),  # not solved yet (the session's fresh cache)
        ("bowling-solitaire", {"frames": 1}, True),
        ("tenpins", {"frames": 1}, False),  # no decisions
        ("bowling-dice", {"frames": 1}, False),
    ]
    for game, options, expected in games:
        view = new_game(client, game, [("ann", "human")], options=options, seed=1)
        assert view["reviewable"] is expected, (game, options)
        row = next(r for r in client.get("/api/history").json() if r["id"] == view["id"])
        assert row["reviewable"] is expected, (game, options)
        review = client.get(f"/api/games/{view['id']}/review")
        assert review.status_code == (200 if expected else 409), (game, options, review.text)


def test_stats_over_finished_games(client: TestClient) -> None:
    scores = []
    for seed in (1, 2, 3, 4, 5):  # five games: the fewest with a range (docs/history.md)
        end = play_out(client, new_game(client, "tenpins", [("ann", "human")], options={"frames": 2}, seed=seed))
        scores.append(end["sheets"][0]["total"])
    answer = client.get("/api/stats?player=ann&game=tenpins").json()
    (stats,) = answer["series"]
    assert answer["games"] == stats["games"] == 5 and stats["title"] == "Ten Pins (dice), 2 frames"
    assert sorted(stats["scores"]) == sorted(scores)
    assert stats["best"] == max(scores) and stats["worst"] == min(scores)
    assert 0 <= stats["ci95"][0] <= stats["ci95"][1] <= stats["max_score"] == 60
    assert client.get("/api/stats?player=nobody").json()["games"] == 0


# --- user text is data ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", [HOSTILE, "[bold]x", "Zoë &amp; <b>", "a\"b'c&d"])
def test_hostile_names_round_trip_as_data(client: TestClient, name: str) -> None:
    view = new_game(client, "tenpins", [(name, "human"), ("robo", "bot:random")], options={"frames": 1}, seed=4)
    shown = view["players"][0]["name"]
    assert shown == name.strip()
    assert view["sheets"][0]["name"] == shown
    end = play_out(client, view)
    assert any(line.startswith(("1. ", "2. ")) and shown in line for line in end["ending"])
    assert client.get("/api/history").json()[0]["players"][0]["name"] == shown
    assert verify_record(client, end["id"]).players[0].name == shown


@pytest.mark.parametrize("name", ["a\x1b[2J", "evil\u202eexe"])
def test_control_characters_in_names_are_refused(client: TestClient, name: str) -> None:
    body = {"game": "tenpins", "players": [{"name": name, "kind": "human"}]}
    assert "control character" in error_of(client.post("/api/games", json=body), 422)


@pytest.mark.parametrize("name", ["zero\u200bwidth", "line\u2028break"])
def test_invisible_characters_in_new_names_are_refused(client: TestClient, name: str) -> None:
    body = {"game": "tenpins", "players": [{"name": name, "kind": "human"}]}
    assert "invisible character" in error_of(client.post("/api/games", json=body), 422)


# --- the corpus of bad requests (issue 27, item 7) ----------------------------------------------------------

NEW_GAME = {"game": "tenpins", "players": [{"name": "a", "kind": "human"}]}
NEW_TABLE = {"game": "tenpins", "seats": [{"kind": "human"}]}


def _nested(depth: int) -> bytes:
    """A new game whose options nest `depth` levels deep in all (the body's own braces included)."""
    inner = "[" * (depth - 2) + "]" * (depth - 2)
    return ('{"game": "tenpins", "options": {"x": ' + inner + "}}").encode()


def _chunks(size: int) -> Any:
    """A body sent in chunks, with no Content-Length (httpx sends a generator chunked)."""
    for _ in range(size // 1000):
        yield b" " * 1000


# (method, path, request arguments, status, words the one-line error holds)
BAD_REQUESTS: list[tuple[str, str, dict[str, Any], int, str]] = [
    # bodies: not UTF-8, nested too deep, too large however they are sent
    ("POST", "/api/games", {"content": b'{"game": "tenpins\xff"}'}, 422, "not UTF-8 text (byte 17)"),
    ("POST", "/api/games", {"content": b"\xfe\xff" + json.dumps(NEW_GAME).encode("utf-16-be")}, 422, "UTF-8"),
    ("POST", "/api/games", {"content": b'{"game": "\xed\xa0\x80"}'}, 422, "UTF-8"),  # an encoded surrogate
    ("POST", "/api/records", {"content": b"\xc3"}, 422, "not UTF-8 text (byte 0)"),
    ("POST", "/api/tables", {"content": b"[" * 5000 + b"]" * 5000}, 422, "5000 levels deep: at most 32"),
    ("POST", "/api/games", {"content": _nested(33)}, 422, "33 levels deep: at most 32"),
    ("POST", "/api/records", {"content": b'{"a": "[[[[", "b": ' + b"{}" * 10 + b"[" * 40}, 422, "41 levels"),
    ("POST", "/api/games", {"content": _chunks(70_000)}, 413, "over 65536 bytes"),
    ("POST", "/api/records", {"content": _chunks(2_001_000)}, 413, "over 2000000 bytes"),
    ("POST", "/api/games", {"content": b"{}", "headers": {"content-length": "+2"}}, 413, "bytes"),
    # strict types: no number as text, no true as 1, no float as a whole number
    # a seed: a whole number or its digits as text (JavaScript's numbers round past 2^53), nothing else
    ("POST", "/api/games", {"json": {**NEW_GAME, "seed": "+7"}}, 422, "seed: a seed is a whole number from 0"),
    ("POST", "/api/games", {"json": {**NEW_GAME, "seed": "07"}}, 422, "in digits, not '07'"),
    ("POST", "/api/games", {"json": {**NEW_GAME, "seed": "7.0"}}, 422, "in digits, not '7.0'"),
    ("POST", "/api/games", {"json": {**NEW_GAME, "seed": ""}}, 422, "in digits, not ''"),
    ("POST", "/api/games", {"json": {**NEW_GAME, "seed": True}}, 422, "seed: a seed is a whole number or its digits"),
    ("POST", "/api/games", {"json": {**NEW_GAME, "seed": 7.0}}, 422, "as text, not 7.0"),
    ("POST", "/api/games", {"json": {**NEW_GAME, "seed": [7]}}, 422, "as text, not [7]"),
    ("POST", "/api/games", {"json": {**NEW_GAME, "seed": str(2**63)}}, 422, "seed: Input should be less than or equal"),
    ("POST", "/api/games", {"json": {**NEW_GAME, "seed": 2**63}}, 422, "seed: Input should be less than or equal"),
    ("POST", "/api/tables", {"json": {**NEW_TABLE, "seed": "7 "}}, 422, "seed: a seed is a whole number from 0"),
    ("POST", "/api/tables", {"json": {**NEW_TABLE, "seed": True}}, 422, "seed: a seed is a whole number or its digits"),
    ("POST", "/api/tables", {"json": {**NEW_TABLE, "turn_seconds": "30"}}, 422, "turn_seconds"),
    ("POST", "/api/games/1/actions", {"json": {"pins": [1, True]}}, 422, "pins.1: Input should be a valid integer"),
    ("POST", "/api/games/1/actions", {"json": {"pile": "2"}}, 422, "pile: Input should be a valid integer"),
    ("POST", "/api/games", {"json": {**NEW_GAME, "players": [{"name": 5, "kind": "human"}]}}, 422, "players.0.name"),
    # unknown keys, in every body and every nested object
    ("POST", "/api/tables", {"json": {**NEW_TABLE, "seats": [{"kind": "human", "name": "ann"}]}}, 422, "seats.0.name"),
    ("POST", "/api/tables", {"json": {**NEW_TABLE, "admin": True}}, 422, "admin: Extra inputs are not permitted"),
    ("POST", "/api/tables", {"json": {**NEW_TABLE, "seats": [{}]}}, 422, "seats.0.kind: Field required"),
    ("POST", "/api/tables", {"json": {**NEW_TABLE, "seats": [{"kind": "admin"}]}}, 422, "seats.0.kind"),
    # numbers in paths: digits only, no sign, no leading zero (one game, one address)
    ("GET", "/api/games/+1", {}, 422, "path.game_id: a whole number in digits, without a sign or leading zeros"),
    ("GET", "/api/games/00001", {}, 422, "not '00001'"),
    ("GET", "/api/games/-1", {}, 422, "not '-1'"),
    ("GET", "/api/games/1_0", {}, 422, "not '1_0'"),
    ("GET", "/api/games/%201", {}, 422, "not ' 1'"),
    ("GET", "/api/games/\N{ARABIC-INDIC DIGIT ONE}", {}, 422, "path.game_id"),
    ("GET", "/api/games/1/steps/01", {}, 422, "path.step"),
    ("GET", "/api/tables/+1", {}, 422, "path.table_id"),
    ("POST", "/api/tables/1/seats/+0", {"json": {"name": "ann"}}, 422, "path.seat"),
    ("GET", "/api/games/0", {}, 404, "no game 0"),
    # methods an address does not take
    ("DELETE", "/api/games/1", {}, 405, "DELETE is not allowed here: use GET"),
    ("GET", "/api/games", {}, 405, "GET is not allowed here: use POST"),
    ("PUT", "/api/tables/1/close", {}, 405, "use POST"),
    ("POST", "/api/catalog", {}, 405, "use GET"),
    ("POST", "/static/app.js", {}, 405, "use GET, HEAD"),
    ("GET", "/api/nothing-here", {}, 404, "nothing here: /api/nothing-here"),
]


@pytest.mark.parametrize(("method", "path", "arguments", "status", "words"), BAD_REQUESTS)
def test_bad_requests_are_one_line_errors(
    client: TestClient, method: str, path: str, arguments: dict[str, Any], status: int, words: str
) -> None:
    arguments = {**arguments, "headers": {"content-type": "application/json", **arguments.get("headers", {})}}
    response = client.request(method, path, **arguments)
    assert words in error_of(response, status)
    if status == 405:
        allowed = words.rsplit("use ", 1)[1]
        assert response.headers["allow"] == allowed


def test_refused_bodies_and_methods_speak_the_requests_language(client: TestClient) -> None:
    requests: list[tuple[str, str, Callable[[], dict[str, Any]], int]] = [
        ("POST", "/api/games", lambda: {"content": b"\xff"}, 422),
        ("POST", "/api/games", lambda: {"content": _nested(40)}, 422),
        ("POST", "/api/games", lambda: {"content": _chunks(70_000)}, 413),
        ("DELETE", "/api/games/1", dict, 405),
        ("GET", "/api/games/+1", dict, 422),
        ("GET", "/api/nothing-here", dict, 404),
    ]
    for method, path, arguments, status in requests:
        english = error_of(client.request(method, path, **arguments()), status)
        japanese = error_of(client.request(method, path, headers={"accept-language": "ja"}, **arguments()), status)
        assert japanese != english and not japanese.isascii(), (english, japanese)


def test_a_body_32_levels_deep_is_read_and_brackets_in_text_are_not_nesting(client: TestClient) -> None:
    """The limit counts arrays and objects only: brackets inside strings (names, records) are text."""
    headers = {"content-type": "application/json"}
    message = error_of(client.post("/api/games", content=_nested(32), headers=headers), 422)
    assert "levels" not in message and "options" in message  # parsed: the game refuses the option instead
    name = "[{" * 20
    view = new_game(client, "tenpins", [(name, "human")], options={"frames": 1})
    assert view["players"][0]["name"] == name


def test_the_openapi_documents_the_errors_of_a_body(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    for path, method in (("/api/games", "post"), ("/api/tables", "post"), ("/api/records", "post")):
        responses = spec["paths"][path][method]["responses"]
        for status in ("413", "422"):
            assert responses[status]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorBody")
        assert "UTF-8" in responses["422"]["description"] and "32 levels" in responses["422"]["description"]
        assert "chunked" in responses["413"]["description"]
    table = spec["components"]["schemas"]["NewTable"]
    assert table["additionalProperties"] is False
    seat = spec["components"]["schemas"]["TableSeat"]
    assert seat["additionalProperties"] is False and seat["required"] == ["kind"]
