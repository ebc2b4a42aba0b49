"""What a player reads in the browser is words (issue 24): whole games through the web API, the lobby's
catalog, tables, history and statistics, in English and Japanese, and the rendered pages.

The notation (`dice 2`, `cross 2+5`, `3:4+5+8`) stays in the API's action strings and the records;
no text meant for a player carries it, nor an option's `key=value` or a game's id.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api_support import api_client
from pinsetter.games.registry import all_games
from pinsetter.records import Record, replay
from pinsetter.web.app import create_app
from test_narration import SYNTAX, VARIANTS

LANGUAGES = ["en", "ja"]


# SYNTAX's `bot:` would catch a bot seat's score ("Rookie bot: 64"): the kind's notation is `bot:NAME`.
PATTERNS = [re.compile(r"\bbot:[a-z]") if pattern.pattern == "bot:" else pattern for pattern in SYNTAX]


def technical(text: str) -> list[str]:
    """The notation patterns (and game ids, in SYNTAX) that `text` carries."""
    return [pattern.pattern for pattern in PATTERNS if pattern.search(text)]


def assert_words(texts: list[str], where: str) -> None:
    found = {text: technical(text) for text in texts if text and technical(text)}
    assert not found, f"{where}: notation a player reads: {found}"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return create_app(str(tmp_path_factory.mktemp("words") / "history.sqlite"))


@pytest.fixture(params=LANGUAGES)
def client(app: Any, request: pytest.FixtureRequest) -> Iterator[TestClient]:
    with TestClient(app, headers={"accept-language": request.param}) as client:
        client.lang = request.param  # type: ignore[attr-defined]
        yield client


def read(view: dict[str, Any]) -> list[str]:
    """Every text of a game view that the game page shows a player."""
    table = view["view"]
    texts = [view["title"], view["variant"], table["status"], table["roll_label"] or "", view["undo"] or ""]
    texts += [entry["words"] for entry in view["log"]] + [entry["note"] for entry in view["log"]]
    texts += [choice["label"] for choice in table["choices"]] + list(table["notes"]) + view["ending"]
    texts.append(table["chance_words"] or table["dice_caption"])  # the page's caption under the dice
    return texts


def play_in_words(
    client: TestClient, game: str, options: dict[str, str]
) -> tuple[dict[str, Any], list[str], list[str]]:
    """A whole game with a human (two with shared dice) and a bot, every decision after a hint:
    what the player read along the way, and the API's action strings (notation)."""
    humans = 2 if options.get("shared_dice") else 1
    cls = all_games()[game]
    seats = [{"name": f"Ann {n}", "kind": "human"} for n in range(humans)]
    if cls.max_players > humans:
        seats.append({"name": "Rookie bot", "kind": "bot:random"})
    response = client.post("/api/games", json={"game": game, "options": options, "players": seats, "seed": 24})
    assert response.status_code == 201, response.text
    view = response.json()
    actions: list[str] = []
    read_along: list[str] = read(view)
    turn = 0
    for _ in range(5000):
        if view["next"] == "over":
            break
        if view["next"] != "decision":
            response = client.post(f"/api/games/{view['id']}/advance", json={"until": "step"})
        else:
            hint = client.get(f"/api/games/{view['id']}/hint").json()
            read_along += [hint["meaning"], *hint["words"]]
            table = view["view"]
            actions += view["legal_actions"] + [choice["action"] for choice in table["choices"]]
            turn += 1
            action = view["legal_actions"][(turn * 7) % len(view["legal_actions"])]  # all sorts of moves
            response = client.post(f"/api/games/{view['id']}/actions", json={"action": action})
        assert response.status_code == 200, response.text
        view = response.json()
        read_along += read(view)
    assert view["terminal"] and view["ending"]
    return view, read_along, actions


@pytest.mark.parametrize(("game", "options"), VARIANTS, ids=[f"{g}-{'-'.join(o) or 'basic'}" for g, o in VARIANTS])
def test_a_whole_game_reads_in_words_and_the_api_keeps_its_notation(
    client: TestClient, game: str, options: dict[str, str]
) -> None:
    view, texts, actions = play_in_words(client, game, options)
    assert_words(texts, f"{game} {options} in {client.lang}")  # type: ignore[attr-defined]
    if client.lang == "ja":  # type: ignore[attr-defined]
        assert any("を" in text or "が" in text for text in texts)  # it is Japanese, not English
    # The API's actions and the record keep the notation: old records still replay.
    record = Record.loads(client.get(f"/api/games/{view['id']}/record").text)
    replay(record)
    steps = [step.text for step in record.steps]
    if game == "rolling-pins":
        assert {"dice 1", "dice 2"} <= set(actions) and any(a.startswith("cross ") for a in actions)
        assert any(text.startswith("cross ") for text in steps) and any("+" in text for text in steps)
    if game == "bowling-solitaire":
        assert any(":" in a for a in actions) and any(":" in text for text in steps)


def test_the_catalog_speaks_of_options_and_bots_in_words(client: TestClient) -> None:
    games = client.get("/api/catalog").json()
    texts: list[str] = []
    for game in games:
        texts += [game["name"], game["summary"], game["players_text"]]
        texts += [b["title"] for b in game["bot_info"]] + [b["description"] for b in game["bot_info"]]
        for option in game["options"]:
            assert option["label"] != option["name"]  # a label, not the key
            texts += [option["label"], option["help"], *option["choice_labels"]]
            texts += [p["label"] for p in option["presets"]] + [p["words"] for p in option["presets"]]
    assert_words(texts, "the catalog")
    for text in texts:
        for how_to_load in ("JSON/TOML", "command line", "false:", "'next'", "inline"):
            assert how_to_load not in text, text  # how to load a file is for the CLI's help and docs
    options = {g["id"]: {o["name"]: o for o in g["options"]} for g in games}
    rolling = options["rolling-pins"]
    assert rolling["sheet"]["shown_when"] == {"advanced": True} == rolling["auto_strike"]["shown_when"]
    assert rolling["advanced"]["shown_when"] == {} and rolling["shared_dice"]["multiplayer"]
    dice = options["bowling-dice"]["dice"]["presets"]
    assert [p["value"] for p in dice] == ["default"] and "X--PPP" not in dice[0]["words"]
    bots = {b["name"]: b["title"] for g in games for b in g["bot_info"]}
    if client.lang == "en":  # type: ignore[attr-defined]
        assert dice[0]["label"] == "Standard dice"
        assert dice[0]["words"].startswith("3 dice: 1 strike face, 2 blanks, 3 pins; 3 dice: 1 spare face")
        assert bots["optimal"] == "Optimal bot" and bots["expectimax"] == "Expert bot"
        assert rolling["auto_strike"]["choice_labels"] == ["Auto Strike on the next frame", "Auto Strike held"]
    else:
        assert dice[0]["label"] == "標準のサイコロ" and bots["optimal"] == "最適ボット"


def test_an_own_dice_set_is_checked_and_told_in_words(client: TestClient) -> None:
    faces = [["X", "blank", "blank", "pin", "pin", "pin"]] * 10
    url = "/api/catalog/bowling-dice/options/dice/file"
    loaded = client.post(f"{url}?file_name=strikes.json", content=json.dumps({"dice": faces})).json()
    assert loaded["label"] == "strikes" and not technical(loaded["words"])
    body = {"game": "bowling-dice", "options": {"dice": loaded["value"]}, "players": [{"name": "Ann", "kind": "human"}]}
    game = client.post("/api/games", json=body)
    assert game.status_code == 201 and "X--PPP" not in game.json()["variant"]
    toml = client.post(f"{url}?file_name=mine.toml", content="dice = " + json.dumps(faces)).json()
    assert toml["value"] == loaded["value"]
    refused = client.post(f"{url}?file_name=bad.json", content=json.dumps({"dice": faces[:3]}))
    assert refused.status_code == 422 and refused.json()["error"].startswith("bad.json: ")
    assert client.post("/api/catalog/tenpins/options/frames/file", content="{}").status_code == 422


def test_tables_name_bot_seats_as_players_and_say_their_options_in_a_sentence(client: TestClient) -> None:
    body = {
        "game": "rolling-pins",
        "options": {"advanced": True, "shared_dice": True, "frames": 5},
        "seats": [{"kind": "human"}, {"kind": "bot:optimal"}, {"kind": "bot:optimal"}, {"kind": "bot:greedy"}],
    }
    table = client.post("/api/tables", json=body).json()["table"]
    names = [seat["name"] for seat in table["seats"][1:]]
    if client.lang == "en":  # type: ignore[attr-defined]
        assert names == ["Optimal bot", "Optimal bot 2", "Greedy bot"]
        assert table["title"] == "Rolling Pins, advanced, shared dice, 5 frames"
    assert_words([table["title"], *names], "a table")
    host = client.post("/api/tables", json={**body, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    seat = client.post(
        f"/api/tables/{host['id']}/seats/1/bot", json={"host_token": host["host_token"], "bot": "greedy"}
    ).json()["seats"][1]
    titles = {b["name"]: b["title"] for g in client.get("/api/catalog").json() for b in g["bot_info"]}
    assert seat["name"] == titles["greedy"]  # "Greedy bot", not greedy-2


def test_history_and_statistics_are_headed_by_names_and_options(client: TestClient) -> None:
    view, _texts, _actions = play_in_words(client, "rolling-pins", {"frames": "2", "advanced": "true"})
    history = client.get("/api/history").json()
    titles = [entry["title"] for entry in history]
    assert_words(titles, "the history")
    entry = next(e for e in history if e["id"] == view["id"])
    if client.lang == "en":  # type: ignore[attr-defined]
        assert entry["title"] == "Rolling Pins, advanced, 2 frames" == view["variant"]
    stats = client.get("/api/stats").json()
    assert stats["series"] and not any(technical(block["title"]) for block in stats["series"])


# --- the rendered pages --------------------------------------------------------------------------------


# The game page of this game, drawn and idle, with its log: what the page shows is this game's.
DRAWN = (
    "const g = document.getElementById('game');"
    "return g !== null && g.dataset.gameId === arguments[0] && g.dataset.busy === '0'"
    " && document.querySelector('#log li') !== null"
)


def test_the_rendered_pages_have_no_notation(tmp_path: Path) -> None:
    from browser_support import chrome, open_more_options, require_browser, served, wait

    require_browser()

    with served(tmp_path / "history.sqlite") as base:
        client = api_client(base)

        def start(game: str, options: dict[str, Any], humans: int = 1) -> dict[str, Any]:
            seats = [{"name": f"Ann {n}", "kind": "human"} for n in range(humans)]
            if game != "bowling-solitaire":
                seats.append({"name": "Rookie bot", "kind": "bot:random"})
            answer = client.post("/api/games", json={"game": game, "options": options, "players": seats, "seed": 7})
            data: dict[str, Any] = answer.json()
            return data

        def advance(view: dict[str, Any], decisions: int) -> dict[str, Any]:
            made = 0
            while view["next"] != "over" and (view["next"] != "decision" or made < decisions):
                if view["next"] == "decision":
                    action = view["legal_actions"][-1]  # the last: tokens, a miss, the second die...
                    view = client.post(f"/api/games/{view['id']}/actions", json={"action": action}).json()
                    made += 1
                else:
                    view = client.post(f"/api/games/{view['id']}/advance", json={"until": "step"}).json()
            return view

        finished = advance(start("tenpins", {"frames": 2}), 0)
        running = advance(start("rolling-pins", {"advanced": True}), 12)
        assert finished["terminal"] and running["next"] == "decision"
        driver = chrome()
        try:
            for lang in LANGUAGES:
                driver.get(f"{base}/?lang={lang}")
                driver.execute_script(f"localStorage.setItem('pinsetter.lang', '{lang}')")
                for view in (finished, running):
                    driver.get(f"{base}/#/game/{view['id']}")
                    # Only the hash changes: until this game is drawn, the page still shows the one before it.
                    game = str(view["id"])
                    wait(driver, lambda d, game=game: d.execute_script(DRAWN, game), f"game {game} not drawn")
                    if not view["terminal"]:
                        # A click on a button that a redraw replaced meanwhile did not happen: once more.
                        wait(driver, lambda d: d.find_element("id", "hint-button").click() is None, "no hint button")
                        wait(driver, lambda d: d.execute_script("return document.querySelector('#hint li') !== null"))
                    text = driver.execute_script("return document.body.innerText")
                    assert_words([text], f"the page of game {view['id']} in {lang}")
                    assert "(bot " not in text and not re.search(r"\bbot:[a-z]", text)  # kinds are titles
            # The lobby: the advanced game's options only while Advanced is on, bots by their titles.
            driver.get(f"{base}/#/")
            open_more_options(driver)
            driver.find_element("css selector", "input[value='rolling-pins']").click()
            shown = "return [...document.querySelectorAll('#options [data-option]')].map(e => e.dataset.option)"
            assert driver.execute_script(shown) == [
                "advanced",
                "tokens",
                "frames",
                "pins",
            ]  # one player: no shared dice
            driver.find_element("id", "opt-advanced").click()
            driver.find_element("id", "add-bot").click()
            assert driver.execute_script(shown) == [
                "advanced",
                "sheet",
                "auto_strike",
                "shared_dice",
                "tokens",
                "frames",
                "pins",
            ]
            form = driver.execute_script("return document.getElementById('new-game-form').innerText")  # not the dates
            kind = "return document.querySelector('[data-key=player-kind-1]').selectedOptions[0].text"
            assert driver.execute_script(kind) == "欲ばりボット"  # the page is in Japanese (the last language)
            assert (
                driver.find_element("css selector", "[data-key=player-name-1]").get_attribute("value") == "欲ばりボット"
            )
            assert "bot:" not in form and not technical(form)
        finally:
            driver.quit()
