"""Open tables and your turns on the front page, in real Chromium (issue 31, part 4).

The front page lists the open tables their hosts listed, asked for again every few
seconds: a table listed after the page was drawn appears by itself, a seat taken
shows, a started table leaves, and Join opens the table's join page. A signed-in
player whose turn it is at an asynchronous table finds it under *Your turn*; a
guest sees no such list.

When chromium or chromedriver is missing the module is skipped with a one-line
reason, except under `CI=true`, where it fails loudly instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from browser_support import full_screenshot, lobby_form, require_browser, wait

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

HOSTILE = "<img src=x onerror=alert(1)>"


def front(driver: WebDriver, base: str) -> None:
    driver.get(base + "/#/")
    driver.refresh()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#open-tables-list li"), "no open tables list")


def listed_item(driver: WebDriver, table_id: int) -> Any:
    found = driver.find_elements(By.CSS_SELECTOR, f"#open-tables-list li[data-table='{table_id}']")
    return found[0] if found else None


def listed_text(driver: WebDriver, table_id: int) -> str:
    """The table's entry in the open tables as read now ("" when not listed); the list is redrawn as it changes."""
    return " ".join(
        e.text for e in driver.find_elements(By.CSS_SELECTOR, f"#open-tables-list li[data-table='{table_id}']")
    )


def fetch(driver: WebDriver, method: str, path: str, body: Any = None) -> Any:
    """A request made by the page (with its cookie and, for a change, its CSRF token): the JSON answer."""
    return driver.execute_async_script(
        """
        const [method, path, body, done] = arguments;
        const headers = {"content-type": "application/json"};
        const session = await (await fetch("/api/session")).json();
        if (session.csrf_token) headers["X-CSRF-Token"] = session.csrf_token;
        const answer = await fetch(path, {method, headers, body: body === null ? undefined : JSON.stringify(body)});
        done(await answer.json());
        """,
        method,
        path,
        body,
    )


def test_the_front_page_lists_open_tables_live_and_joins_one(
    driver: WebDriver, base: str, api: httpx.Client, artifacts: Path
) -> None:
    front(driver, base)
    assert driver.find_element(By.ID, "your-turns").get_attribute("hidden") is not None  # a guest
    body = {"game": "tenpins", "options": {"frames": 1}, "seats": [{"kind": "human"}, {"kind": "human"}]}
    hidden = api.post("/api/tables", json=body).json()
    table = api.post("/api/tables", json={**body, "listed": True}).json()
    # Listed after the page was drawn: it appears by itself, newest first, in words.
    text = wait(driver, lambda d: listed_text(d, table["id"]), "the listed table never appeared")
    assert "Ten Pins (dice), 1 frame" in text and "2 free seats of 2" in text
    assert listed_item(driver, hidden["id"]) is None
    api.post(f"/api/tables/{table['id']}/seats/0", json={"name": HOSTILE})
    text = wait(driver, lambda d: "1 free seat of 2" in (t := listed_text(d, table["id"])) and t, "no seat taken shown")
    assert HOSTILE in text  # text, never markup
    assert not driver.find_elements(By.CSS_SELECTOR, "#open-tables-list img")
    full_screenshot(driver, artifacts / "open-tables.png")
    listed_item(driver, table["id"]).find_element(By.TAG_NAME, "button").click()
    code = table["join_code"]
    wait(driver, lambda d: d.current_url.endswith(f"#/join/{code}"), "not the join page")
    # Started: the table leaves the list.
    api.post(f"/api/tables/{table['id']}/seats/1", json={"name": "Bob"})
    api.post(f"/api/tables/{table['id']}/start", json={"host_token": table["host_token"]})
    front(driver, base)
    wait(driver, lambda d: listed_item(d, table["id"]) is None, "a started table stayed listed")


def test_a_signed_in_player_finds_the_tables_where_it_is_their_turn(
    driver: WebDriver, base: str, artifacts: Path
) -> None:
    front(driver, base)
    assert fetch(driver, "POST", "/api/accounts", {"name": "Ann", "password": "correct horse battery staple"})["name"]
    body = {"game": "rolling-pins", "options": {"frames": 1}, "seats": [{"kind": "human"}], "turn_hours": 12}
    table = fetch(driver, "POST", "/api/tables", body)
    fetch(driver, "POST", f"/api/tables/{table['id']}/seats/0", {})
    fetch(driver, "POST", f"/api/tables/{table['id']}/start", {"host_token": table["host_token"]})
    front(driver, base)
    item = f"#your-turns-list li[data-table='{table['id']}']"
    entry = wait(driver, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, item)], "not listed")[0]
    assert driver.find_element(By.ID, "your-turns").get_attribute("hidden") is None
    assert f"Rolling Pins, 1 frame, table {table['join_code']}" in entry and "11 hours left" in entry
    full_screenshot(driver, artifacts / "your-turn.png")
    driver.find_element(By.CSS_SELECTOR, f"{item} a").click()
    wait(driver, lambda d: d.current_url.endswith(f"#/table/{table['id']}"), "not the table page")
    # Read inside the wait: a state pushed meanwhile redraws the seats.
    timer = wait(driver, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, "[data-timer='0']")], "no timer")
    # Hours, not 43,000 s; "12 h 0 min" when the page reads it within a second of the start.
    assert timer[0].startswith(("(11 h ", "(12 h 0 min")) and timer[0].endswith(" min left)")
    # This browser never kept the seat's token (it sat through fetch): the session holds Ann's seat.
    seated = "const t = document.getElementById('table-page'); return t ? t.dataset.seat : null"
    wait(driver, lambda d: d.execute_script(seated) == "0", "the session did not seat Ann")
    fetch(driver, "DELETE", "/api/session")


def test_the_table_form_checks_its_turn_timers_in_words(driver: WebDriver, base: str, artifacts: Path) -> None:
    """One timer at most, each a whole number in its range: said in words before asking, never the API's field names."""
    lobby_form(driver, base, "tenpins")
    driver.find_element(By.CSS_SELECTOR, "#table-options summary").click()
    assert "one turn timer at most" in driver.find_element(By.ID, "turn-one-help").text
    seconds, hours = driver.find_element(By.ID, "turn-seconds"), driver.find_element(By.ID, "turn-hours")
    error = driver.find_element(By.ID, "lobby-error")
    start = driver.find_element(By.ID, "start")
    for typed, field, words in (
        ("100", hours, "a whole number of hours from 1 to 72"),
        ("1.5", hours, "a whole number of hours from 1 to 72"),
        ("0", seconds, "a whole number of seconds from 1 to 3600"),
    ):
        field.clear()
        field.send_keys(typed)
        assert not start.is_enabled()  # a timer is a table's: the game is not started here with it
        driver.find_element(By.ID, "host-table").click()
        assert words in error.text and "turn_" not in error.text  # checked in the page, at the click
        assert driver.switch_to.active_element == field
        field.clear()
    hours.send_keys("2")
    seconds.send_keys("30")
    driver.find_element(By.ID, "host-table").click()
    assert error.text == "Give one turn timer only: in seconds or in hours, not both."
    full_screenshot(driver, artifacts / "table-form-timers.png")
    seconds.clear()
    wait(driver, lambda d: d.find_element(By.ID, "start-why").is_displayed(), "Start did not say why it is off")
    driver.find_element(By.ID, "host-table").click()
    wait(driver, lambda d: "#/table/" in d.current_url, "a table with a timer of 2 hours was not hosted")
