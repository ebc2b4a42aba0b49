"""Names where they are typed, in Chromium (session 22, web page items 2 and 3).

- Hosting from the New game form carries the host's name (the first human seat's) into the table page's
  "Your name", and the seats' kinds (a bot's seat is the bot's); Sit at the first seat is the page's primary button.
- A name is never cut: a field counts the characters near the limit (the server's, 40) and past it says how many
  too many; Start, Sit and Make an account refuse a name too long with one line, and nothing is sent.
"""

from __future__ import annotations

import httpx

from browser_support import lobby_form, require_browser, wait
from pinsetter.usertext import MAX_NAME

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

LONG = "Bartholomew Maximilian Featherstonehaugh-Worthington III"  # 56 characters
assert len(LONG) == 56 and MAX_NAME == 40


def name_field(driver: WebDriver, index: int) -> WebElement:
    return driver.find_element(By.CSS_SELECTOR, f"#players [data-key='player-name-{index}']")


def type_into(field: WebElement, text: str) -> None:
    field.clear()
    field.send_keys(text)


def test_hosting_from_the_form_carries_the_hosts_name_and_the_seats(
    driver: WebDriver, base: str, api: httpx.Client
) -> None:
    driver.get(base + "/#/")
    driver.execute_script("localStorage.clear()")  # no name remembered from before
    lobby_form(driver, base, "tenpins")
    driver.find_element(By.ID, "add-human").click()
    driver.find_element(By.ID, "add-bot").click()
    type_into(name_field(driver, 0), "Bea")
    type_into(name_field(driver, 1), "Cy")
    rows = driver.find_elements(By.CSS_SELECTOR, "#players .player-row")
    assert (
        Select(rows[2].find_element(By.TAG_NAME, "select")).first_selected_option.get_attribute("value") == "bot:random"
    )
    driver.find_element(By.ID, "host-table").click()
    field = wait(driver, lambda d: d.find_elements(By.ID, "sit-name"), "no seat offered on the table page")[0]
    table_id = int(driver.current_url.rsplit("/", 1)[1])
    assert field.get_attribute("value") == "Bea"
    seats = api.get(f"/api/tables/{table_id}").json()["seats"]
    assert [(s["kind"], s["free"]) for s in seats] == [("human", True), ("human", True), ("bot:random", False)]
    first = driver.find_element(By.CSS_SELECTOR, "#sit button[data-seat='0']")
    assert "primary" in (first.get_attribute("class") or "")
    assert "primary" not in (
        driver.find_element(By.CSS_SELECTOR, "#sit button[data-seat='1']").get_attribute("class") or ""
    )
    first.click()
    wait(driver, lambda d: d.find_element(By.ID, "table-page").get_attribute("data-seat") == "0", "the host never sat")
    assert api.get(f"/api/tables/{table_id}").json()["seats"][0]["name"] == "Bea"
    assert driver.find_element(By.ID, "whoami").text == "You play seat 1 as Bea."


def test_a_name_too_long_is_counted_and_refused_never_cut(driver: WebDriver, base: str, api: httpx.Client) -> None:
    lobby_form(driver, base, "tenpins")
    driver.find_element(By.ID, "add-human").click()
    field = name_field(driver, 1)
    type_into(field, "x" * (MAX_NAME - 15))
    count = driver.find_element(By.ID, "player-name-1-count")
    assert count.text == ""  # short: nothing to count
    type_into(field, "x" * (MAX_NAME - 5))
    assert count.text == "35 of 40 characters"
    type_into(field, LONG)
    assert field.get_attribute("value") == LONG  # nothing cut
    assert count.text == "56 characters: 16 too many (a name holds at most 40)"
    assert field.get_attribute("aria-invalid") == "true"
    assert "player-name-1-count" in (field.get_attribute("aria-describedby") or "")
    before = len(api.get("/api/history").json())
    driver.find_element(By.ID, "start").click()
    said = wait(driver, lambda d: d.find_element(By.ID, "lobby-error").text, "no refusal")
    assert said == "Player 2's name has 56 characters: a name holds at most 40."
    assert driver.switch_to.active_element == field and "#/game/" not in driver.current_url
    assert len(api.get("/api/history").json()) == before  # nothing was sent

    made = api.post("/api/tables", json={"game": "tenpins", "seats": [{"kind": "human"}] * 2}).json()
    driver.get(f"{base}/#/join/{made['join_code']}")
    sit = wait(driver, lambda d: d.find_elements(By.ID, "sit-name"), "no join page")[0]
    type_into(sit, LONG)
    assert sit.get_attribute("value") == LONG
    assert driver.find_element(By.ID, "sit-name-count").text.startswith("56 characters: 16 too many")
    driver.find_element(By.CSS_SELECTOR, "#sit button[data-seat='0']").click()
    said = wait(driver, lambda d: d.find_element(By.ID, "sit-error").text, "no refusal at the table")
    assert said == "Your name has 56 characters: a name holds at most 40."
    assert api.get(f"/api/tables/{made['id']}").json()["seats"][0]["free"]  # not taken under a cut name

    driver.get(base + "/#/signin")
    account = wait(driver, lambda d: d.find_elements(By.ID, "signup-name"), "no sign-up form")[0]
    type_into(account, LONG)
    assert account.get_attribute("value") == LONG
    assert driver.find_element(By.ID, "signup-name-count").text.startswith("56 characters")
