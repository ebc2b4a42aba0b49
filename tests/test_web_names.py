"""One limit for a player's name, the server's, and the statistics' range threshold from the API (session 22, web page).

The page counts a name as it is typed against `MAX_NAME` in `static/js/names.js`; it must be the server's
(`pinsetter.usertext.MAX_NAME`), which the API's request bodies take too. The statistics page reads how many
scores a range needs from `GET /api/stats` rather than a number of its own.
"""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

import pinsetter.web
from pinsetter.storage.stats import FEWEST_FOR_INTERVAL
from pinsetter.usertext import MAX_NAME

NAMES_JS = Path(pinsetter.web.__file__).parent / "static" / "js" / "names.js"


def test_the_page_counts_names_to_the_servers_limit() -> None:
    found = re.search(r"^export const MAX_NAME = (\d+);", NAMES_JS.read_text(encoding="utf-8"), re.MULTILINE)
    assert found is not None, "names.js says no MAX_NAME"
    assert int(found.group(1)) == MAX_NAME


def test_the_api_takes_a_name_of_the_limit_and_refuses_one_character_more(client: TestClient) -> None:
    def game(name: str) -> int:
        players = [{"name": name, "kind": "human"}]
        return client.post("/api/games", json={"game": "tenpins", "players": players}).status_code

    # Counted as the page counts them: code points, so that an emoji is one character, not two.
    assert game("é" * (MAX_NAME - 1) + "🎳") == 201
    assert game("a" * (MAX_NAME + 1)) == 422
    table = client.post("/api/tables", json={"game": "tenpins", "seats": [{"kind": "human"}] * 2}).json()
    assert client.post(f"/api/tables/{table['id']}/seats/0", json={"name": "b" * (MAX_NAME + 1)}).status_code == 422
    assert client.post(f"/api/tables/{table['id']}/seats/0", json={"name": "b" * MAX_NAME}).status_code == 200


def test_the_statistics_say_how_many_scores_a_range_needs(client: TestClient) -> None:
    assert client.get("/api/stats").json()["fewest_for_interval"] == FEWEST_FOR_INTERVAL
