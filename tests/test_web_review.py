"""GET /api/games/{id}/review: a game's review as JSON, under the access rules of its record.

404 for no such game or player, 409 for a game that cannot be reviewed (no decisions, advanced
Rolling Pins not solved yet) or one still played at an online table; words in the request's language.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from pinsetter.i18n import DEFAULT_LANGUAGE, using_language
from pinsetter.review import review
from pinsetter.storage import Storage

SMALL = {"pins": 4, "frames": 2}


def error_of(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert list(body) == ["error"] and body["error"] and "\n" not in body["error"]
    return str(body["error"])


def new_game(client: TestClient, game: str, players: list[tuple[str, str]], **extra: Any) -> dict[str, Any]:
    body = {"game": game, "players": [{"name": n, "kind": k} for n, k in players], "seed": 3, **extra}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def play_out(client: TestClient, view: dict[str, Any]) -> dict[str, Any]:
    """To the end: chance and bots advance, a human takes the last legal move (often not the best)."""
    gid = view["id"]
    while view["next"] != "over":
        if view["next"] == "decision":
            response = client.post(f"/api/games/{gid}/actions", json={"action": view["legal_actions"][-1]})
        else:
            response = client.post(f"/api/games/{gid}/advance", json={"until": "human"})
        assert response.status_code == 200, response.text
        view = response.json()
    return view


def test_a_finished_game_is_reviewed_for_its_human(client: TestClient, db: str) -> None:
    seats = [("Ann", "human"), ("Robo", "bot:optimal")]
    view = play_out(client, new_game(client, "rolling-pins", seats, options=SMALL))
    response = client.get(f"/api/games/{view['id']}/review")
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["game"] == "rolling-pins" and data["complete"] and data["exact"]
    (ann,) = data["players"]
    assert ann["name"] == "Ann" and ann["finished"] and ann["end"] == pytest.approx(ann["score"])
    record = Storage(db).get(view["id"])
    assert record is not None
    assert [d["step"] for d in ann["decisions"]] == [i + 1 for i, s in enumerate(record.record.steps) if s.actor == 0]
    with using_language(DEFAULT_LANGUAGE):  # the request's language: none asked for
        assert data == review(record.record).to_json()  # the core's review, as it is
    robo = client.get(f"/api/games/{view['id']}/review", params={"player": "robo"}).json()["players"]
    assert [p["name"] for p in robo] == ["Robo"] and robo[0]["total_loss"] <= 1e-9


def test_a_short_advanced_game_is_reviewed_exactly(client: TestClient) -> None:
    """Advanced Rolling Pins of two frames: solved on first need, its human's losses against the exact best."""
    options = {"advanced": True, "frames": 2}
    view = play_out(client, new_game(client, "rolling-pins", [("Ann", "human")], options=options))
    data = client.get(f"/api/games/{view['id']}/review").json()
    assert data["exact"] and data["complete"]
    (ann,) = data["players"]
    assert ann["decisions"] and all(d["loss"] >= 0 for d in ann["decisions"])
    assert ann["end"] == pytest.approx(ann["score"]) and ann["end"] - ann["start"] == pytest.approx(
        ann["luck"] - ann["total_loss"], abs=1e-9
    )


def test_an_unfinished_game_is_reviewed_so_far(client: TestClient) -> None:
    view = new_game(client, "bowling-solitaire", [("Ann", "human")], options={"frames": 1})
    fresh = client.get(f"/api/games/{view['id']}/review").json()
    assert not fresh["complete"] and fresh["players"][0]["decisions"] == []
    view = client.post(f"/api/games/{view['id']}/advance", json={"until": "human"}).json()
    if view["next"] == "decision":
        client.post(f"/api/games/{view['id']}/actions", json={"action": view["legal_actions"][0]})
        data = client.get(f"/api/games/{view['id']}/review").json()
        assert len(data["players"][0]["decisions"]) == 1 and data["exact"] is False


def test_refusals(client: TestClient) -> None:
    assert "no game 999" in error_of(client.get("/api/games/999/review"), 404)
    error_of(client.get("/api/games/01/review"), 422)
    tenpins = new_game(client, "tenpins", [("Ann", "human")])
    assert "no decisions" in error_of(client.get(f"/api/games/{tenpins['id']}/review"), 409)
    advanced = new_game(client, "rolling-pins", [("Ann", "human")], options={"advanced": True})
    not_solved = error_of(client.get(f"/api/games/{advanced['id']}/review"), 409)
    assert "reviewed once this server has solved it" in not_solved  # the web's players cannot run the solve:
    assert "pinsetter" not in not_solved and "--option" not in not_solved  # no command for them to type
    small = new_game(client, "rolling-pins", [("Ann", "human")], options=SMALL)
    hostile = "<img src=x onerror=alert(1)>"
    message = error_of(client.get(f"/api/games/{small['id']}/review", params={"player": hostile}), 404)
    assert hostile in message  # as data: the page shows it with textContent


def test_a_table_game_is_reviewed_once_its_record_is_out(client: TestClient) -> None:
    body = {"game": "rolling-pins", "options": SMALL, "seats": [{"kind": "human"}, {"kind": "bot:greedy"}]}
    table = client.post("/api/tables", json=body).json()
    client.post(f"/api/tables/{table['id']}/seats/0", json={"name": "Ann"})
    started = client.post(f"/api/tables/{table['id']}/start", json={"host_token": table["host_token"]})
    game_id = started.json()["game_id"]
    assert "online table" in error_of(client.get(f"/api/games/{game_id}/review"), 409)
    client.post(f"/api/tables/{table['id']}/close", json={"host_token": table["host_token"]})
    response = client.get(f"/api/games/{game_id}/review")
    assert response.status_code == 200, response.text
    assert [p["name"] for p in response.json()["players"]] == ["Ann"]


def test_the_words_follow_the_request_language(client: TestClient) -> None:
    view = play_out(client, new_game(client, "rolling-pins", [("Ann", "human")], options=SMALL))
    english = client.get(f"/api/games/{view['id']}/review").json()
    japanese = client.get(f"/api/games/{view['id']}/review", headers={"accept-language": "ja"}).json()
    assert english["meaning"] != japanese["meaning"]
    assert english["players"][0]["total_loss"] == japanese["players"][0]["total_loss"]
