"""Seeds stay exact in the browser (issue 25): a seed past 2^53 survives the lobby, the game page and the
step-through page, digit for digit, and starts the game of that very seed.

JavaScript's numbers are exact only to 2^53: 4339359763893902901 read as a number is 4339359763893903000.
The API carries seeds as decimal strings to the page, and the page sends the digits it was given.
"""

from __future__ import annotations

from api_support import api_client
from browser_support import lobby_form, require_browser, wait
from pinsetter.records import Record

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

SEED = "4339359763893902901"  # over 2^53: a JavaScript number would show it as 4339359763893903000


def test_a_seed_typed_in_the_lobby_is_the_games_seed_to_the_last_digit(driver: WebDriver, base: str) -> None:
    lobby_form(driver, base, "tenpins")
    frames = driver.find_element(By.ID, "opt-frames")
    frames.clear()
    frames.send_keys("1")
    seed = driver.find_element(By.ID, "seed")
    seed.clear()
    seed.send_keys(SEED)
    driver.find_element(By.ID, "start").click()
    wait(driver, lambda d: "#/game/" in d.current_url, "the game did not start")
    game_id = int(driver.current_url.rsplit("/", 1)[1])

    # Texts read inside the waits: a redraw of the page meanwhile replaces the elements.
    shown = wait(
        driver, lambda d: [e.text for e in d.find_elements(By.ID, "seed-shown")], "the game page shows no seed"
    )
    assert shown[0] == f"seed {SEED}"
    with api_client(base) as api:
        record = Record.loads(api.get(f"/api/games/{game_id}/record").text)
        assert record.seed == int(SEED)
        assert api.get(f"/api/games/{game_id}").json()["seed"] == SEED

    driver.get(f"{base}/#/history/{game_id}")
    replay = f"#replay[data-game-id='{game_id}'] #replay-about"
    about = wait(
        driver, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, replay) if e.text], "no replay line"
    )
    assert f"seed {SEED} ·" in about[0] and "4339359763893903000" not in about[0]


def test_the_api_answer_the_page_reads_carries_the_seed_as_text(driver: WebDriver, base: str) -> None:
    """What the page's own fetch gets: a string, so no rounding can happen in JSON.parse either."""
    driver.get(base + "/#/")
    wait(driver, lambda d: d.find_elements(By.ID, "seed"), "no lobby")
    body = {"game": "tenpins", "options": {"frames": 1}, "players": [{"name": "a", "kind": "human"}], "seed": SEED}
    script = (
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/games', {method: 'POST', headers: {'content-type': 'application/json'},"
        " body: JSON.stringify(arguments[0])}).then((r) => r.json()).then((v) => done([typeof v.seed, v.seed]));"
    )
    kind, value = driver.execute_async_script(script, body)
    assert (kind, value) == ("string", SEED)
