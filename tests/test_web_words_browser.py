"""The page's words, as a newcomer read them in Chromium (session 22, web page items 1, 6, 7 and 8).

- Learn mode names the hint only in a game that has one (Ten Pins and Bowling Dice have no decisions).
- A player's card says what "the large board" is; the end says "Game over" once; a table closed before
  its game started says so and invites nobody to a seat.
- "Replay" steps through a game (`#/history/N`), "Review" weighs its decisions (`#/review/N`): every link
  of the game's end, the history, the replay, the review and a table's end is named for what it opens.
- The statistics say "Likely range of the average" (its exact meaning in a note), never "95% CI", and the
  strike and spare rates say which frames they count.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from browser_support import require_browser, settle, wait

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

ANN = {"name": "Ann", "kind": "human"}
BOB = {"name": "Bob", "kind": "human"}


def new_game(api: httpx.Client, game: str, players: list[dict[str, str]], seed: int, **options: Any) -> int:
    body = {"game": game, "options": options, "players": players, "seed": seed}
    answer = api.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    game_id: int = answer.json()["id"]
    return game_id


def play_to_the_end(api: httpx.Client, game_id: int) -> None:
    """Chance by the server, every decision the hint's best."""
    for _ in range(2000):
        view = api.get(f"/api/games/{game_id}").json()
        if view["next"] == "over":
            return
        if view["next"] == "decision":
            best = api.get(f"/api/games/{game_id}/hint").json()["options"][0]["action"]
            api.post(f"/api/games/{game_id}/actions", json={"action": best}).raise_for_status()
        else:
            api.post(f"/api/games/{game_id}/advance", json={"until": "step"}).raise_for_status()
    raise AssertionError("the game never ended")


def open_game(driver: WebDriver, base: str, game_id: int) -> None:
    driver.get(f"{base}/#/game/{game_id}")
    driver.refresh()
    settle(driver)


def links(driver: WebDriver, css: str) -> list[tuple[str, str]]:
    """Every link under `css` as (its words, the page it opens)."""
    found: list[list[str]] = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0] + ' a')].map(a => [a.textContent, a.getAttribute('href')])",
        css,
    )
    return [(text, href) for text, href in found]


def assert_named_for_where_they_go(found: list[tuple[str, str]]) -> None:
    """Replay opens the step-through page, Review the review: the two words never swap."""
    for text, href in found:
        if text.startswith("Replay"):
            assert href.startswith("#/history/"), (text, href)
        if text.startswith("Review"):
            assert href.startswith("#/review/"), (text, href)
        if href.startswith("#/history/") and href != "#/history":
            assert text.startswith("Replay") or text[0].isdigit(), (text, href)  # or the history's game title
        if href.startswith("#/review/"):
            assert text.startswith("Review"), (text, href)


# --- item 1: learn mode names the hint only where there is one ----------------------------------------------


@pytest.mark.parametrize("game", ["tenpins", "bowling-dice"])
def test_a_quiet_turn_of_a_game_without_decisions_says_nothing_of_a_hint(
    driver: WebDriver, base: str, api: httpx.Client, game: str
) -> None:
    body = {"game": game, "options": {"frames": 3}, "players": [ANN], "learn": True, "seed": 3}
    game_id = api.post("/api/games", json=body).json()["id"]
    for _ in range(60):  # on to a turn with nothing new to tell
        view = api.get(f"/api/games/{game_id}").json()
        if not view["lesson"] and not view["terminal"]:
            break
        api.post(f"/api/games/{game_id}/advance", json={"until": "step"}).raise_for_status()
    else:
        raise AssertionError("no quiet turn")
    assert not view["has_decisions"]
    open_game(driver, base, game_id)
    quiet = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#lesson .lesson-quiet"), "no quiet line")
    assert quiet[0].text == "Nothing new this turn: play on."
    assert "hint" not in driver.find_element(By.ID, "lesson").text.lower()


# --- item 6: the large board, the end, a table closed before it started ----------------------------------------


def test_the_card_of_the_large_board_says_what_it_means_and_the_end_says_game_over_once(
    driver: WebDriver, base: str, api: httpx.Client
) -> None:
    game_id = new_game(api, "tenpins", [ANN, BOB], seed=2, frames=1)
    open_game(driver, base, game_id)
    large = driver.find_element(By.CSS_SELECTOR, "#all-boards .player-card.large")
    assert large.find_element(By.CLASS_NAME, "help").text == "their board is the large one"
    assert "board shown large" not in driver.find_element(By.ID, "game").text

    play_to_the_end(api, game_id)
    open_game(driver, base, game_id)
    assert driver.find_element(By.ID, "ending-h").text == "Game over"
    # The status line ("game over") is kept for screen readers, not shown under the panel's heading.
    status = driver.execute_script(
        "const r = document.getElementById('status').getBoundingClientRect(); return [r.width, r.height];"
    )
    assert status[0] <= 1 and status[1] <= 1, status
    shown = driver.execute_script(
        "return [...document.querySelectorAll('#game *')].filter(e => e.children.length === 0"
        " && e.getBoundingClientRect().width > 1).map(e => e.textContent.trim().toLowerCase())"
    )
    assert shown.count("game over") == 1, [s for s in shown if "game over" in s]


def test_a_table_closed_before_its_game_started_says_so_and_offers_no_seat(
    driver: WebDriver, base: str, api: httpx.Client
) -> None:
    made = api.post("/api/tables", json={"game": "tenpins", "seats": [{"kind": "human"}] * 2}).json()
    api.post(f"/api/tables/{made['id']}/close", json={"host_token": made["host_token"]}).raise_for_status()
    driver.get(base + "/#/")
    driver.execute_script(
        "localStorage.setItem(arguments[0], arguments[1])", f"pinsetter.table.{made['id']}.host", made["host_token"]
    )
    driver.get(f"{base}/#/table/{made['id']}")
    driver.refresh()
    wait(
        driver,
        lambda d: d.find_elements(By.CSS_SELECTOR, "#table-page[data-status='closed'] #seats"),
        "no closed table",
    )
    page = driver.find_element(By.ID, "table-page").text
    assert driver.find_element(By.ID, "connection").text == "closed before the game started"
    assert driver.find_element(By.ID, "whoami").text == "You hosted this table."
    assert driver.find_element(By.ID, "status").text == "The host closed this table before the game started."
    assert "take a free seat" not in page and "stays as it ended" not in page
    assert [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#seats li")] == ["Seat 1: empty", "Seat 2: empty"]
    assert not driver.find_elements(By.ID, "sit") and not driver.find_elements(By.ID, "start-table")

    driver.get(f"{base}/#/join/{made['join_code']}")
    said = wait(driver, lambda d: d.find_elements(By.ID, "join-closed"), "no join page")
    assert said[0].text == "The host closed this table before the game started."
    assert not driver.find_elements(By.ID, "watch") and not driver.find_elements(By.ID, "sit")


# --- item 7: Replay and Review ------------------------------------------------------------------------------------


def test_replay_steps_through_a_game_and_review_weighs_its_decisions_everywhere(
    driver: WebDriver, base: str, api: httpx.Client
) -> None:
    dice = new_game(api, "tenpins", [ANN], seed=4, frames=1)  # no decisions: nothing to review
    play_to_the_end(api, dice)
    pins = new_game(api, "rolling-pins", [ANN], seed=4, frames=1)  # basic Rolling Pins: reviewable
    play_to_the_end(api, pins)

    open_game(driver, base, dice)
    end = driver.find_element(By.ID, "review")
    assert (end.text.split("\n")[0], end.get_attribute("href").split("/#")[-1]) == (
        "Replay this game",
        f"/history/{dice}",
    )
    assert_named_for_where_they_go(links(driver, "#game"))

    open_game(driver, base, pins)
    end = driver.find_element(By.ID, "review")
    assert (end.text.split("\n")[0], end.get_attribute("href").split("/#")[-1]) == (
        "Review this game",
        f"/review/{pins}",
    )
    assert ("Replay this game", f"#/history/{pins}") in links(driver, "#game-links")
    assert_named_for_where_they_go(links(driver, "#game"))

    driver.get(base + "/#/history")
    wait(
        driver, lambda d: d.find_elements(By.CSS_SELECTOR, f"#history-results tr[data-game-id='{pins}']"), "no history"
    )
    row = links(driver, f"#history-results tr[data-game-id='{pins}']")
    assert ("Replay", f"#/history/{pins}") in row and ("Review", f"#/review/{pins}") in row
    assert [text for text, _ in links(driver, f"#history-results tr[data-game-id='{dice}']")].count("Review") == 0
    assert_named_for_where_they_go(links(driver, "#history-results"))

    driver.get(f"{base}/#/history/{pins}")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#review-link a"), "no replay page")
    assert driver.find_element(By.CSS_SELECTOR, "#replay h1").text.startswith(f"Replay of game {pins}")
    assert_named_for_where_they_go(links(driver, "#replay"))

    driver.get(f"{base}/#/review/{pins}")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#review[data-ready='1']"), "no review page")
    assert ("Replay this game", f"#/history/{pins}") in links(driver, ".review-links")
    assert_named_for_where_they_go(links(driver, "#review"))


# --- item 8: the statistics in words --------------------------------------------------------------------------------


def figures(driver: WebDriver) -> dict[str, str]:
    """The first series' figures as shown: {label: value}."""
    pairs: list[list[str]] = driver.execute_script(
        "return [...document.querySelector('#stats-results .stats-grid').children]"
        ".map(d => [d.querySelector('dt').textContent, d.querySelector('dd').textContent])"
    )
    return dict(pairs)


def test_the_statistics_say_the_range_and_the_rates_in_words(driver: WebDriver, base: str, api: httpx.Client) -> None:
    def show() -> dict[str, str]:
        """Cy's statistics (the other tests' games are Ann's and Bob's): one series, Bowling Dice."""
        driver.get(base + "/#/stats")
        driver.refresh()
        field = wait(driver, lambda d: d.find_elements(By.ID, "stats-player"), "no statistics page")[0]
        field.clear()
        field.send_keys("Cy")
        driver.find_element(By.CSS_SELECTOR, "#app form button[type=submit]").click()

        def cys(d: WebDriver) -> bool:
            titles = [e.text for e in d.find_elements(By.CSS_SELECTOR, "#stats-results .panel > h2:not([id])")]
            return len(titles) == 1 and titles[0].startswith("Bowling Dice")

        wait(driver, cys, "Cy's statistics never showed")
        return figures(driver)

    for seed in range(10, 12):
        play_to_the_end(api, new_game(api, "bowling-dice", [{"name": "Cy", "kind": "human"}], seed=seed, frames=2))
    shown = show()
    page = driver.find_element(By.ID, "stats-results").text
    assert "95% CI" not in page and "CI" not in page.split()
    assert shown["Likely range of the average"] == "too few games for a range: 5 needed"
    assert "Strike rate (every frame but the last)" in shown and "Spare rate (every frame but the last)" in shown
    note = driver.find_element(By.CSS_SELECTOR, "[data-stat='range'] dd").get_attribute("aria-describedby")
    meaning = driver.find_element(By.ID, note).text
    assert "confidence interval of 95%" in meaning and "19 ranges in 20" in meaning
    assert "every frame but the last" in driver.find_element(By.ID, "stats-notes").text

    for seed in range(12, 15):  # five scores: a range
        play_to_the_end(api, new_game(api, "bowling-dice", [{"name": "Cy", "kind": "human"}], seed=seed, frames=2))
    low, high = api.get("/api/stats", params={"player": "Cy"}).json()["series"][0]["ci95"]
    assert show()["Likely range of the average"] == f"{low:.1f} \N{EN DASH} {high:.1f}"
