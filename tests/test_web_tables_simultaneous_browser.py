"""Shared-dice Rolling Pins in three real browsers (issue 13): three players decide the same roll at once.

A uvicorn server runs the app in a background thread; three headless Chromium
sessions (each with its own storage) join one table by its link. Every roll
serves all three: each page offers only its own player's choices (Cy rolls one
die, Ann and Bob two), the three answer in an order that changes every round,
nobody waits for seat order, and the roll comes only when all three have
answered. They play the whole (two-frame) game; the record replays.
Screenshots go to `PINSETTER_ARTIFACTS` (else a temporary folder): `shared-*.png`.

Skipped with a one-line reason when chromium or chromedriver is missing, except
under `CI=true`, where it fails loudly instead.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest
from websockets.sync.client import connect as connect_at_once

from api_support import OPEN_TIMEOUT, api_get, api_post
from browser_support import artifacts_folder, chrome_sessions, require_browser, wait
from pinsetter.records import Record, replay

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402

from test_web_browser import player_cards, screenshots_in_both_themes  # noqa: E402
from test_web_tables_browser import live_at, page, screenshot, sit  # noqa: E402

connect = partial(connect_at_once, open_timeout=OPEN_TIMEOUT)
NAMES = ("Ann", "Bob", "Cy")


@pytest.fixture(scope="module")
def browsers() -> Iterator[list[WebDriver]]:
    with chrome_sessions(3) as sessions:
        yield sessions


def choices(driver: WebDriver) -> list[str]:
    """The actions this page offers as buttons (its own seat's choices only)."""
    return [b.get_attribute("data-action") or "" for b in driver.find_elements(By.CSS_SELECTOR, "#choices button")]


def dice_on(driver: WebDriver) -> int:
    return len(driver.find_elements(By.CSS_SELECTOR, "#table .dice .die"))


def settled(drivers: list[WebDriver], after: int) -> list[dict[str, str]]:
    """Every page live, idle and showing the same step, later than `after`."""

    def same(_: WebDriver) -> list[dict[str, str]] | None:
        states = [page(d) for d in drivers]
        ok = all(s.get("live") == "1" and s.get("busy") == "0" for s in states)
        counts = {s.get("steps") for s in states}
        return states if ok and len(counts) == 1 and int(counts.pop() or -1) > after else None

    result: list[dict[str, str]] = wait(drivers[0], same, f"the pages never all showed a step after {after}")
    return result


def own_pin(driver: WebDriver) -> WebElement | None:
    """The standing pin whose number is the roll (the pick's line says 'target N'), if the page offers it."""
    line = driver.find_elements(By.ID, "selection-sum")
    found = re.search(r"target (\d+)", line[0].text) if line else None
    if found is None:
        return None
    pins = driver.find_elements(By.CSS_SELECTOR, f"button[data-pin='{found.group(1)}']:not(:disabled)")
    return pins[0] if pins else None


def chance_steps(base: str, game_id: int) -> list[int]:
    """The (0-based) positions of the chance steps among the game's latest 40 (the log every client gets)."""
    log = api_get(f"{base}/api/games/{game_id}").json()["log"]
    return [entry["step"] - 1 for entry in log if entry["actor"] == "chance"]


def test_three_players_decide_each_shared_roll_at_once(
    browsers: list[WebDriver], base: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    artifacts = artifacts_folder(tmp_path_factory)
    body = {
        "game": "rolling-pins",
        "options": {"shared_dice": True, "frames": 2},
        "seats": [{"kind": "human"}] * 3,
        "seed": 2026,
    }
    table = api_post(f"{base}/api/tables", json=body).json()
    link = f"{base}/#/join/{table['join_code']}"
    for seat, (driver, name) in enumerate(zip(browsers, NAMES, strict=True)):
        driver.get(link)
        sit(driver, name, seat)
        live_at(driver, seat=str(seat))
    game_id = api_post(f"{base}/api/tables/{table['id']}/start", json={"host_token": table["host_token"]}).json()[
        "game_id"
    ]
    ann, bob, cy = browsers
    states = [live_at(d, status="playing") for d in browsers]

    # The first roll: all three decide at once, each with their own choices; Cy answers first, then Ann, then Bob.
    assert {s["deciders"] for s in states} == {"0,1,2"} and {s["next"] for s in states} == {"decision"}
    assert all(choices(d) == ["dice 1", "dice 2"] for d in browsers)
    assert "also deciding: Bob, Cy" in ann.find_element(By.ID, "turn").text
    screenshot(ann, artifacts / "shared-deciding.png")
    steps = int(states[0]["steps"])
    for driver, action, still in ((cy, "dice 1", "0,1"), (ann, "dice 2", "1")):
        driver.find_element(By.CSS_SELECTOR, f"#choices button[data-action='{action}']").click()
        states = settled(browsers, steps)
        steps = int(states[0]["steps"])
        assert {s["deciders"] for s in states} == {still}  # the others still decide: no roll yet
        assert choices(driver) == [] and page(driver)["next"] == "wait"
        assert chance_steps(base, game_id) == []
    assert choices(bob) == ["dice 1", "dice 2"]
    assert "You have decided; waiting for Bob." in cy.find_element(By.ID, "turn").text
    assert cy.find_element(By.ID, "status").text == "Cy: waiting for Bob"  # Cy sees his own sheet meanwhile
    bob.find_element(By.CSS_SELECTOR, "#choices button[data-action='dice 2']").click()
    states = settled(browsers, steps)
    steps = int(states[0]["steps"])
    assert chance_steps(base, game_id) == [3]  # the one roll came after the three answers
    assert {s["deciders"] for s in states} == {"0,1,2"}
    assert [dice_on(d) for d in browsers] == [2, 2, 1]  # one roll, each on their own sheet (Cy: the coloured die)
    screenshot(cy, artifacts / "shared-answering.png")

    # Play on to the end: each round the answering order turns; Cy crosses the pin his die shows when he can.
    rounds, last_roll = 0, 3
    for _ in range(120):
        if states[0]["next"] == "over":
            break
        order = browsers[rounds % 3 :] + browsers[: rounds % 3]
        mover = next((d for d in order if choices(d)), None)
        assert mover is not None, "somebody must have a decision"
        offered = choices(mover)
        if "dice 1" in offered:
            dice = "dice 1" if mover is cy else "dice 2"
            mover.find_element(By.CSS_SELECTOR, f"#choices button[data-action='{dice}']").click()
        elif mover is cy and (pin := own_pin(cy)) is not None:
            pin.click()
            wait(mover, lambda d: d.find_element(By.ID, "play-selection").is_enabled(), "no pick to play")
            mover.find_element(By.ID, "play-selection").click()
        else:
            mover.find_element(By.CSS_SELECTOR, "#choices button[data-action='miss']").click()
        states = settled(browsers, steps)
        if max(chance_steps(base, game_id), default=-1) > last_roll:
            rounds += 1
            last_roll = max(chance_steps(base, game_id))
        steps = int(states[0]["steps"])
    else:
        raise AssertionError("the game did not end")
    for driver in browsers:
        live_at(driver, next="over")
        assert driver.find_elements(By.ID, "ending")
    screenshot(ann, artifacts / "shared-over.png")

    record = Record.loads(api_get(f"{base}/api/games/{game_id}/record").text)
    assert replay(record).is_terminal()
    actors = [s.actor for s in record.steps]
    rolls = [i for i, s in enumerate(record.steps) if s.actor is None]  # the record is open once the game is over
    between = [actors[a + 1 : b] for a, b in itertools.pairwise(rolls)]
    assert any(run and run != sorted(run) for run in between)  # answers came out of seat order
    assert any(s.actor == 2 and s.text.startswith("cross") for s in record.steps)  # Cy crossed by picking a pin


def answer(base: str, table_id: int, token: str, action: str) -> dict[str, Any]:
    """A seat's decision over its own WebSocket, as its page would send it: the state it led to."""
    url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}?token={token}"
    with connect(url, origin=base) as socket:
        before = len(json.loads(socket.recv())["view"]["log"])
        socket.send(json.dumps({"action": action}))
        for _ in range(20):
            message: dict[str, Any] = json.loads(socket.recv())
            assert message["type"] == "state", message
            if len(message["view"]["log"]) > before:  # a game this short keeps its whole log
                return message
    raise AssertionError(f"{action} was never played")


def test_a_spectator_sees_every_players_board_and_who_still_decides(
    browsers: list[WebDriver], base: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    artifacts = artifacts_folder(tmp_path_factory)
    body = {
        "game": "rolling-pins",
        "options": {"shared_dice": True, "advanced": True, "frames": 2},
        "seats": [{"kind": "human"}] * 3,
        "seed": 7,
    }
    table = api_post(f"{base}/api/tables", json=body).json()
    tokens = [
        api_post(f"{base}/api/tables/{table['id']}/seats/{seat}", json={"name": name}).json()["token"]
        for seat, name in enumerate(NAMES)
    ]
    api_post(f"{base}/api/tables/{table['id']}/start", json={"host_token": table["host_token"]})
    watcher = browsers[0]  # it holds no seat at this table: it watches
    watcher.get(f"{base}/#/table/{table['id']}")
    live_at(watcher, status="playing", seat="", deciders="0,1,2")

    def cards() -> list[tuple[str, str]]:
        return [(player, state) for player, state, _large in player_cards(watcher)]

    def states_are(expected: list[tuple[str, str]]) -> Any:
        return wait(watcher, lambda _d: cards() == expected or None, f"the cards never showed {expected}")

    # Three boards, every player deciding the first roll; Ann's board is the large one.
    states_are([("0", "deciding"), ("1", "deciding"), ("2", "deciding")])
    words = [e.text for e in watcher.find_elements(By.CSS_SELECTOR, "#all-boards .player-state")]
    assert words == ["still to decide"] * 3  # each card is headed with its player's name
    assert watcher.find_element(By.ID, "board-owner").text == "✎ Ann still to decide"
    assert len(watcher.find_elements(By.CSS_SELECTOR, "#all-boards .mini-board")) == 2  # Bob's and Cy's, small

    # Ann and Bob answer from their own connections; Ann then waits for the roll and Cy still decides.
    answer(base, table["id"], tokens[0], "dice 2")
    states_are([("0", "done"), ("1", "deciding"), ("2", "deciding")])
    answer(base, table["id"], tokens[1], "dice 1")
    states_are([("0", "done"), ("1", "done"), ("2", "deciding")])
    words = [e.text for e in watcher.find_elements(By.CSS_SELECTOR, "#all-boards .player-state")]
    assert words == ["done for this roll", "done for this roll", "still to decide"]
    assert watcher.find_element(By.CSS_SELECTOR, ".player-card[data-player='2'] .marker").text == "✎"
    assert "Still to decide this roll: Cy." in watcher.find_element(By.ID, "turn").text
    screenshots_in_both_themes(
        watcher, artifacts, "boards-spectator", lambda d: len(d.find_elements(By.CSS_SELECTOR, ".player-card")) == 3
    )
    states_are([("0", "done"), ("1", "done"), ("2", "deciding")])
