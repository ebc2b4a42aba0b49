"""The daily page (#/daily, #/daily/GAME) in Chromium: a guest is told to sign in, two accounts start today's
one-frame Ten Pins from the page, and both stand on the day's board with the odds as a percentage.

The games are rolled by clicking the game page's Roll button: a signed-in page's changes carry the
session's CSRF token (js/api.js), so the test also proves a daily game plays from its page.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from api_support import api_client
from browser_support import chrome_sessions, require_browser, served, settle, wait

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402

from test_web_browser import after_click  # noqa: E402

PASSWORD = "correct horse battery staple"

SIGN_UP = """
const [name, password, done] = arguments;
fetch("/api/accounts", {method: "POST", headers: {"content-type": "application/json"},
                        body: JSON.stringify({name, password})})
  .then((r) => done(r.status));
"""


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app served over a history of its own, its Ten Pins challenge one frame long (quick to play)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("pinsetter.storage.daily.DAILY_OPTIONS", {"tenpins": {"frames": 1}})
        with served(Path(tmp_path_factory.mktemp("daily_browser")) / "h.sqlite") as url:
            yield url


def play_today(browser: Any, base: str, name: str) -> int:
    """Sign up in this browser, start today's Ten Pins from the page, roll it out; the score."""
    browser.get(base + "/#/daily/tenpins")
    told = wait(browser, lambda d: d.find_elements(By.ID, "daily-sign-in"), "a guest is not told to sign in")[0]
    assert "Sign in" in told.text
    assert told.find_element(By.CSS_SELECTOR, "a[href='#/signin']").text == "Sign in"
    assert "Nobody finished this challenge." in browser.find_element(By.ID, "daily-yesterday").text
    assert browser.execute_async_script(SIGN_UP, name, PASSWORD) == 201
    browser.refresh()
    start = wait(browser, lambda d: d.find_elements(By.ID, "daily-start"), "no Start button for a signed-in player")[0]
    assert "primary" in (start.get_attribute("class") or "").split()  # the page's main button
    start.click()
    wait(browser, lambda d: "#/game/" in d.current_url, "Start did not open the game")
    game_id = int(browser.current_url.rsplit("/", 1)[1])
    state = settle(browser)
    assert not browser.find_elements(By.ID, "pace")  # no bot at a daily challenge: no bots' pace to set
    while state["next"] != "over":
        assert state["next"] == "roll" and not state["error"], state
        state = after_click(browser, browser.find_element(By.ID, "roll"))
    assert not state["error"], state["error"]

    cookies = {c["name"]: c["value"] for c in browser.get_cookies()}
    with api_client(base, cookies=cookies) as api:
        view = api.get(f"/api/games/{game_id}").json()
    assert view["sealed"] is True and view["seed"] is None
    score = int(view["sheets"][0]["total"])
    # The day lasts: the end offers the score and the day's board, never a review or a record that would be refused.
    ending = wait(browser, lambda d: d.find_elements(By.ID, "daily-ending"), "no daily line at the end")[0]
    assert f"Your score in today's challenge: {score}." in ending.text
    board = ending.find_element(By.ID, "daily-board-link")
    assert board.get_attribute("href").endswith("#/daily/tenpins")
    assert not browser.find_elements(By.ID, "review")
    links = browser.find_element(By.ID, "game-links").text
    assert "Replay this game" not in links and "Download the record" not in links
    board.click()
    wait(browser, lambda d: d.find_elements(By.ID, "daily-board"), "the link did not open the day's board")
    return score


def test_two_accounts_play_the_day_and_stand_on_its_board(base: str) -> None:
    with chrome_sessions(2) as (ann, bob):
        scores = {"Ann": play_today(ann, base, "Ann"), "Bob": play_today(bob, base, "Bob")}
        assert scores["Ann"] == scores["Bob"]  # the same dice: one frame of Ten Pins has no decision in it
        with api_client(base) as api:
            odds = Fraction(api.get("/api/daily/tenpins/leaderboard").json()[0]["odds_exact"])
        ann.get(base + "/#/daily")
        listed = "#daily-games li[data-game='tenpins'] a"
        link = wait(ann, lambda d: d.find_elements(By.CSS_SELECTOR, listed), "no list of the day's challenges")
        assert link[0].text == "Ten Pins (dice), 1 frame"  # words, never an option's key
        link[0].click()
        wait(ann, lambda d: d.find_elements(By.CSS_SELECTOR, "#daily-board tbody tr"), "no board")
        wait(ann, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#daily-board tbody tr")) == 2, "not both ranked")
        rows = ann.find_elements(By.CSS_SELECTOR, "#daily-board tbody tr")  # drawn once, both there
        cells = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")][:4] for row in rows]
        percent = ann.execute_script(
            "return new Intl.NumberFormat('en', {style: 'percent', maximumSignificantDigits: 3}).format(arguments[0])",
            float(1 - odds),  # the share of games beaten, as a game's end says it
        )
        assert sorted(cells) == [["1", "Ann", str(scores["Ann"]), percent], ["1", "Bob", str(scores["Bob"]), percent]]
        assert ann.find_element(By.ID, "daily-done").text.startswith("You played today's challenge")
