"""An asynchronous table in real browsers, continued after both pages closed and reopened (issue 31, part 6).

Two headless Chromium sessions are Ann and Bob, each signed up in their own browser (two accounts in
all: each sign-up costs a real argon2 hash). Ann hosts a listed Ten Pins table of two frames with a
turn timer in hours from the lobby form; Bob finds it under "Open tables" and joins; each plays a
roll. Then both browsers are quit, and new ones started with only their session cookies (no seat
token in their storage): each comes back by the front page, finds the table under "Your turn" when
it is theirs, clicks it and plays, until the game is over. The totals both pages show are the
server's. The front page with an open table listed and a "Your turn" entry is kept as screenshots at
1280 and 390 px, light and dark, in `/tmp/async-shots/` (else `PINSETTER_ARTIFACTS`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from api_support import api_get, api_post
from browser_support import chrome, pictures_at_both_widths, require_browser, table_form, wait

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

from test_accounts_browser import header, sign_up, take_seat  # noqa: E402
from test_web_tables_browser import live_at, page  # noqa: E402

SHOTS = Path(os.environ.get("PINSETTER_ARTIFACTS") or "/tmp/async-shots")
NAMES = ("Ann", "Bob")
HOURS = 24
TOKENS = "return Object.keys(localStorage).filter(k => k.startsWith('pinsetter.table.'))"  # a table's tokens kept


def host_async_table(ann: WebDriver, base: str) -> int:
    """Ann hosts a listed Ten Pins table of two frames, two human seats, 24 hours a turn: its id."""
    table_form(ann, base, "tenpins", frames=2)
    ann.find_element(By.ID, "turn-hours").send_keys(str(HOURS))
    ann.find_element(By.ID, "host-listed").click()
    ann.find_element(By.ID, "host-table").click()
    wait(ann, lambda d: "#/table/" in d.current_url, "no table page")
    wait(ann, lambda d: d.find_elements(By.ID, "join-link"), "the table page never drew its join link")
    return int(ann.current_url.rsplit("/", 1)[1])


def server_game(base: str, table_id: int) -> dict[str, Any]:
    """The server's view of the table's game (GET /api/games/{id}): whose turn, what comes next, the sheets."""
    game_id = api_get(f"{base}/api/tables/{table_id}").json()["game_id"]
    view: dict[str, Any] = api_get(f"{base}/api/games/{game_id}").json()
    return view


def roll(driver: WebDriver) -> None:
    """Press Roll on the table page, and wait for the step to come back drawn."""
    before = live_at(driver, next="roll")["steps"]
    driver.find_element(By.ID, "roll").click()
    wait(driver, lambda d: page(d).get("steps") not in ("", before), "the roll never came back")


def play_my_turn(driver: WebDriver, base: str, table_id: int, seat: int, most: int | None = None) -> int:
    """Roll while it is `seat`'s turn (at most `most` times): the rolls made."""
    rolls = 0
    while most is None or rolls < most:
        view = server_game(base, table_id)
        if view["next"] == "over" or view["turn"] != seat:
            break
        roll(driver)
        rolls += 1
    return rolls


def reopened(driver: WebDriver, base: str) -> WebDriver:
    """The browser quit, and a new one started with only its cookies: no seat token in its storage."""
    cookies = driver.get_cookies()
    driver.quit()
    fresh: WebDriver = chrome()
    fresh.get(base + "/api/session")  # on the site (a guest there), to be given its cookies, without the app
    for cookie in cookies:  # host-only, as the server set it: Chromium refuses a domain that is an address
        fresh.add_cookie({key: value for key, value in cookie.items() if key != "domain"})
    return fresh


def your_turn_link(driver: WebDriver, table_id: int) -> Any:
    """The front page's "Your turn" entry for the table, once the page has listed it."""
    css = f"#your-turns-list li[data-table='{table_id}'] a"
    links = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, css), "the table never showed under Your turn")
    return links[0]


def nothing_waits(driver: WebDriver, base: str) -> str:
    """The front page's "Your turn" panel for a player whose turn it is nowhere: its one line."""
    driver.get(base + "/#/")
    css = "#your-turns-list li.muted"
    said = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, css), "no Your turn panel for a signed-in player")
    text: str = said[0].text
    return text


def list_a_table_for_the_pictures(base: str) -> int:
    """A guest's listed Rolling Pins table with Cleo seated: an open table for the front page to show."""
    body = {"game": "rolling-pins", "options": {"frames": 1}, "seats": [{"kind": "human"}] * 3, "listed": True}
    made = api_post(f"{base}/api/tables", json=body | {"turn_hours": 8})
    assert made.status_code == 201, made.text
    table_id: int = made.json()["id"]
    sat = api_post(f"{base}/api/tables/{table_id}/seats/0", json={"name": "Cleo"})
    assert sat.status_code == 200, sat.text
    return table_id


def pictures(driver: WebDriver, base: str, table_id: int) -> None:
    """The front page with an open table listed and a "Your turn" entry, at both widths, light and dark."""
    listed = list_a_table_for_the_pictures(base)
    SHOTS.mkdir(parents=True, exist_ok=True)

    def ready(d: WebDriver) -> bool:
        turns = d.find_elements(By.CSS_SELECTOR, f"#your-turns-list li[data-table='{table_id}']")
        return bool(turns and d.find_elements(By.CSS_SELECTOR, f"#open-tables-list li[data-table='{listed}']"))

    wait(driver, ready, "the front page never showed both panels")
    pictures_at_both_widths(driver, SHOTS, "front-async", ready)


def shown_totals(driver: WebDriver) -> list[int]:
    """Every player's total as the table page's player cards say it ("total 37"), in seat order."""
    texts = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#all-boards .player-card .player-total")]
    totals = [re.fullmatch(r"total (\d+)", text) for text in texts]
    assert all(totals), texts  # the game over: no frame left to name
    return [int(m.group(1)) for m in totals if m]


def test_an_asynchronous_table_goes_on_after_both_pages_closed_and_reopened(base: str) -> None:
    drivers: dict[str, WebDriver] = {}
    try:
        for name in NAMES:
            drivers[name] = chrome()
            sign_up(drivers[name], base, name)
        ann, bob = drivers["Ann"], drivers["Bob"]

        # Ann hosts from the lobby form and sits; Bob finds the table under "Open tables" and joins.
        table_id = host_async_table(ann, base)
        take_seat(ann, "Ann", 0)
        live_at(ann, seat="0")
        bob.get(base + "/#/")
        entry = f"#open-tables-list li[data-table='{table_id}']"
        listed = wait(bob, lambda d: d.find_elements(By.CSS_SELECTOR, entry), "the table was never listed")[0]
        assert f"{HOURS} hours per turn" in listed.text and "hosted by Ann" in listed.text
        assert "seated: Ann" in listed.text and "tenpins" not in listed.text  # words, never the game's key
        listed.find_element(By.TAG_NAME, "button").click()
        take_seat(bob, "Bob", 1)
        wait(bob, lambda d: f"#/table/{table_id}" in d.current_url, "Bob's seat did not open the table")
        live_at(bob, seat="1")
        wait(ann, lambda d: d.find_element(By.ID, "start-table").is_enabled(), "Ann never saw Bob sit")
        ann.find_element(By.ID, "start-table").click()
        for driver in (ann, bob):
            live_at(driver, status="playing")

        # Each plays: Ann her first frame, Bob his first roll.
        assert play_my_turn(ann, base, table_id, 0) >= 1
        assert play_my_turn(bob, base, table_id, 1, most=1) == 1
        assert server_game(base, table_id)["next"] != "over"

        # Both browsers are closed; the table waits with nobody there, then each comes back with its cookies only.
        for name in NAMES:
            drivers[name] = reopened(drivers.pop(name), base)
        assert api_get(f"{base}/api/tables/{table_id}").json()["status"] == "playing"
        pictures_taken = False
        seats_taken: set[str] = set()
        for _ in range(20):
            view = server_game(base, table_id)
            if view["next"] == "over":
                break
            turn: int = view["turn"]
            mover, other = drivers[NAMES[turn]], drivers[NAMES[1 - turn]]
            mover.get(base + "/#/")
            assert header(mover) == NAMES[turn]  # signed in by the cookie alone
            link = your_turn_link(mover, table_id)
            code = api_get(f"{base}/api/tables/{table_id}").json()["join_code"]  # the code players know it by
            assert link.text == f"Ten Pins (dice), 2 frames, table {code}"
            if not pictures_taken:
                # The other player's front page has no table waiting for them.
                assert nothing_waits(other, base) == "No table waits for you."
                pictures(mover, base, table_id)
                link = your_turn_link(mover, table_id)
                pictures_taken = True
            link.click()
            wait(mover, lambda d: d.current_url.endswith(f"#/table/{table_id}"), "the entry did not open the table")
            live_at(mover, seat=str(turn), status="playing")  # the account's seat, with no token in this browser
            assert not mover.execute_script(TOKENS)
            seats_taken.add(NAMES[turn])
            assert play_my_turn(mover, base, table_id, turn) >= 1
        else:
            raise AssertionError("the game did not end")
        assert seats_taken == set(NAMES)  # both came back by "Your turn"

        # Both pages show the end and the server's totals.
        view = server_game(base, table_id)
        expected = [int(sheet["total"]) for sheet in view["sheets"]]
        for name in NAMES:
            driver = drivers[name]
            driver.get(base + "/#/")
            driver.get(base + f"/#/table/{table_id}")
            live_at(driver, next="over", seat=str(NAMES.index(name)))
            wait(driver, lambda d: d.find_elements(By.ID, "ending"), "no end screen")
            assert shown_totals(driver) == expected, name
        assert [sheet["name"] for sheet in view["sheets"]] == list(NAMES)
    finally:
        for driver in drivers.values():
            driver.quit()
