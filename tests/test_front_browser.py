"""The front page, the end of a game and the keyboard on the game page, in real Chromium (issue 25, items 4, 6, 7).

- Play now starts each game in one click, against a bot where the game has one; Learn starts a lesson;
  Host a table and the join box take a player to a table; More options holds the whole form.
- At the end: the score explained, Play again (same players and options, new seed), Review, the front page.
- Focus: after every action of a whole game (by keys, and by clicks) it is on a control of the game,
  never the page body; every action has a key, shown on its button.

Screenshots of the front page and an end screen at 1280 and 390 px, light and dark, go to
`$PINSETTER_ARTIFACTS` (or a temporary folder): `front-<width>-<theme>.png`, `end-<width>-<theme>.png`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from browser_support import (
    full_screenshot,
    open_more_options,
    pictures_at_both_widths,
    require_browser,
    set_theme,
    wait,
)

require_browser()

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

from test_web_browser import after_click, game_state, pick, settle  # noqa: E402


def front(driver: WebDriver, base: str) -> None:
    driver.get(base + "/#/")
    driver.refresh()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#game-cards .game-card"), "no game cards")


def opened_game(driver: WebDriver) -> int:
    wait(driver, lambda d: "#/game/" in d.current_url, "no game page")
    settle(driver)
    return int(driver.current_url.rsplit("/", 1)[1])


def focus(driver: WebDriver) -> dict[str, Any]:
    """What has the keyboard focus: its tag, id, key, whether it is a usable control of the game page."""
    found: dict[str, Any] = driver.execute_script(
        "const e = document.activeElement;"
        "return {tag: e.tagName, id: e.id, key: (e.dataset || {}).key || '', disabled: !!e.disabled,"
        " inGame: !!e.closest('#game'), text: (e.textContent || '').slice(0, 40)};"
    )
    return found


def assert_focus_on_the_game(driver: WebDriver, after: str) -> None:
    where = focus(driver)
    assert where["tag"] != "BODY", f"focus fell to the page body after {after}"
    assert where["inGame"] and not where["disabled"], (after, where)


# --- the front page --------------------------------------------------------------------------------------


def test_play_now_starts_each_game_in_one_click_against_a_bot_where_there_is_one(
    driver: WebDriver, base: str, api: httpx.Client
) -> None:
    catalog = api.get("/api/catalog").json()
    for game in catalog:
        front(driver, base)
        card = driver.find_element(By.CSS_SELECTOR, f".game-card[data-game='{game['id']}']")
        assert card.find_element(By.CSS_SELECTOR, "svg.game-picture")  # a picture, drawn inline
        assert card.find_element(By.TAG_NAME, "h2").text == game["name"]
        assert game["summary"] in card.text
        assert not driver.find_element(By.ID, "start").is_displayed()  # the long form waits under More options
        driver.find_element(By.ID, f"play-{game['id']}").click()
        game_id = opened_game(driver)
        view = api.get(f"/api/games/{game_id}").json()
        kinds = [p["kind"] for p in view["players"]]
        bots = [b for b in game["bots"] if b != "random"] + game["bots"]  # a bot that plays, where there is one
        assert kinds[0] == "human" and view["players"][0]["name"] == "Player 1"
        assert kinds[1:] == (bots[:1] if game["bots"] and game["players"][1] >= 2 else [])
        assert view["game"] == game["id"] and not view["learn"]


def test_learn_starts_a_lesson_and_the_join_box_and_host_button_lead_to_tables(
    driver: WebDriver, base: str, api: httpx.Client
) -> None:
    front(driver, base)
    driver.find_element(By.ID, "learn-tenpins").click()
    game_id = opened_game(driver)
    assert api.get(f"/api/games/{game_id}").json()["learn"]
    assert "Two dice" in wait(driver, lambda d: d.find_element(By.ID, "lesson").text, "no lesson")

    # Join: an empty box says what is missing; a code opens the join page of its table.
    table = api.post("/api/tables", json={"game": "tenpins", "seats": [{"kind": "human"}]}).json()
    code = api.get(f"/api/tables/{table['id']}").json()["join_code"]
    front(driver, base)
    driver.find_element(By.ID, "join-button").click()
    assert wait(driver, lambda d: d.find_element(By.ID, "join-error").text) == "type the table's code first"
    driver.find_element(By.ID, "join-code-input").send_keys(code)
    driver.find_element(By.ID, "join-button").click()
    wait(driver, lambda d: d.current_url.endswith(f"#/join/{code}"), "not the join page")
    assert wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#join h1").text) == f"Join table {code}"

    # Host: one click hosts the chosen game with two open seats.
    front(driver, base)
    driver.find_element(By.CSS_SELECTOR, "#host-game option[value='rolling-pins']").click()
    driver.find_element(By.ID, "host-quick").click()
    wait(driver, lambda d: "#/table/" in d.current_url, "no table page")
    hosted = api.get(f"/api/tables/{driver.current_url.rsplit('/', 1)[1]}").json()
    assert hosted["game"] == "rolling-pins" and [s["kind"] for s in hosted["seats"]] == ["human", "human"]


def test_more_options_holds_the_whole_form_and_a_start_from_it_works(
    driver: WebDriver, base: str, api: httpx.Client, artifacts: Path
) -> None:
    for width in (1280, 390):
        driver.set_window_size(width, 900)
        for theme in ("light", "dark"):
            front(driver, base)
            set_theme(driver, theme)
            wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#game-cards .game-card"))
            # No sideways scrolling on a phone; the first Play now is in the first screen.
            assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
            first = "return document.querySelector('#game-cards button.primary').getBoundingClientRect().bottom"
            top = driver.execute_script(first)
            assert top < 900, top
            full_screenshot(driver, artifacts / f"front-{width}-{theme}.png")
    driver.set_window_size(1280, 900)
    set_theme(driver, "light")
    front(driver, base)
    open_more_options(driver)
    for shown in ("opt-frames", "players", "seed", "resume-list", "record-file", "host-table", "table-options"):
        assert driver.find_element(By.ID, shown), shown
    driver.find_element(By.CSS_SELECTOR, "input[name=game][value='bowling-dice']").click()
    frames = driver.find_element(By.ID, "opt-frames")
    frames.clear()
    frames.send_keys("2")
    driver.find_element(By.ID, "seed").send_keys("99")
    driver.find_element(By.ID, "start").click()
    view = api.get(f"/api/games/{opened_game(driver)}").json()
    # Seeds travel as digits (JavaScript would round a large one).
    assert (view["game"], view["options"]["frames"], view["seed"]) == ("bowling-dice", 2, "99")


# --- the end of a game -------------------------------------------------------------------------------------


def test_the_end_explains_the_score_and_offers_play_again_review_and_the_front_page(
    driver: WebDriver, base: str, api: httpx.Client, artifacts: Path
) -> None:
    body = {
        "game": "rolling-pins",
        "options": {"frames": 1},
        "players": [{"name": "Ann", "kind": "human"}, {"name": "Greedy bot", "kind": "bot:greedy"}],
        "seed": 11,
    }
    first = api.post("/api/games", json=body).json()
    driver.get(f"{base}/#/game/{first['id']}")
    driver.refresh()
    play_by_keys(driver, api, first["id"])

    def end_screen(d: WebDriver) -> tuple[list[str], str] | None:
        """The ranking's lines and the notes, read together once both are drawn (a redraw meanwhile: again)."""
        lines = [line.text for line in d.find_elements(By.CSS_SELECTOR, "#ending li")]
        notes = d.find_elements(By.ID, "ending-notes")
        return (lines, notes[0].text) if lines and notes and notes[0].text else None

    lines, notes = wait(driver, end_screen, "no end screen")
    assert "Rolling Pins over 1 frame: the best possible score is 30." in notes
    assert "a shorter game has none" in notes  # the sheet's ranks are for a whole game
    assert any(line.startswith("1. ") for line in lines)
    assert focus(driver)["id"] == "play-again"  # the next likely action
    for button, key in (("play-again", "N"), ("review", "V"), ("front-page", "B")):
        element = driver.find_element(By.ID, button)
        assert element.get_attribute("aria-keyshortcuts") == key and element.get_attribute("data-keyhint") == key
    pictures_at_both_widths(driver, artifacts, "end", lambda d: d.find_elements(By.ID, "play-again"))

    driver.find_element(By.ID, "review").click()  # basic Rolling Pins is reviewed: its review page
    wait(driver, lambda d: d.current_url.endswith(f"#/review/{first['id']}"), "not the review page")
    ready = "const r = document.getElementById('review'); return !!r && r.dataset.ready === '1';"
    wait(driver, lambda d: d.execute_script(ready), "the review page did not draw")
    driver.back()
    wait(driver, lambda d: d.find_elements(By.ID, "play-again"))
    driver.find_element(By.ID, "front-page").click()
    wait(driver, lambda d: d.find_elements(By.ID, "game-cards"), "not the front page")
    driver.back()
    wait(driver, lambda d: d.find_elements(By.ID, "play-again"))
    ActionChains(driver).send_keys("n").perform()  # Play again, by its key
    wait(driver, lambda d: d.current_url.rsplit("/", 1)[1] != str(first["id"]), "no new game")
    again = api.get(f"/api/games/{opened_game(driver)}").json()
    assert again["players"] == first["players"] and again["options"] == first["options"]
    assert again["game"] == first["game"] and again["seed"] != first["seed"]


# --- keys and focus ----------------------------------------------------------------------------------------


def key_of(driver: WebDriver, selector: str) -> str:
    element = driver.find_element(By.CSS_SELECTOR, selector)
    key = element.get_attribute("data-keyhint") or ""
    assert key and element.get_attribute("aria-keyshortcuts") == key, selector
    return key


def press(driver: WebDriver, keys: str) -> dict[str, str]:
    """Press keys (an action at the last one) and wait for the page to take the step and settle."""
    before = game_state(driver)["steps"]
    ActionChains(driver).send_keys(keys).perform()

    def moved(d: WebDriver) -> bool:
        state = game_state(d)
        return state.get("busy") == "0" and (state["steps"] != before or bool(state["error"]))

    wait(driver, moved, f"no answer to the keys {keys!r}")
    return settle(driver)


def play_by_keys(driver: WebDriver, api: httpx.Client, game_id: int) -> int:
    """Play a game to its end with the keyboard only: R, the pins' digits and P, a choice's shown key.

    After every action the focus is on a usable control of the game; the number of actions is returned.
    """
    wait(driver, lambda d: d.find_elements(By.ID, "status"))
    for actions in range(600):
        state = settle(driver)
        if state["next"] == "over":
            return actions
        if state["next"] == "roll":
            press(driver, "r")
        else:
            table = api.get(f"/api/games/{game_id}").json()["view"]
            picks = [c for c in table["choices"] if c["by_selection"]]
            if picks:
                digits = "".join(str(n % 10) for n in picks[0]["pins"])
                ActionChains(driver).send_keys(digits).perform()
                assert_focus_on_the_game(driver, f"picking {digits}")
                press(driver, "p")
            else:
                press(driver, key_of(driver, "#choices button").lower())
        assert_focus_on_the_game(driver, f"action {actions + 1}")
    raise AssertionError("the game did not end")


def test_focus_follows_every_action_of_a_whole_game_played_by_keys(
    driver: WebDriver, base: str, api: httpx.Client
) -> None:
    body = {
        "game": "rolling-pins",
        "options": {"frames": 3, "advanced": True},
        "players": [{"name": "Ann", "kind": "human"}, {"name": "Greedy bot", "kind": "bot:greedy"}],
        "seed": 5,
    }
    game = api.post("/api/games", json=body).json()
    driver.get(f"{base}/#/game/{game['id']}")
    driver.refresh()
    assert play_by_keys(driver, api, game["id"]) > 20
    assert focus(driver)["id"] == "play-again"


def test_focus_follows_every_click_of_a_whole_solitaire_game(driver: WebDriver, base: str, api: httpx.Client) -> None:
    ann = [{"name": "Ann", "kind": "human"}]
    body = {"game": "bowling-solitaire", "options": {"frames": 2}, "players": ann, "seed": 3}
    game = api.post("/api/games", json=body).json()
    driver.get(f"{base}/#/game/{game['id']}")
    driver.refresh()
    actions = 0
    for _ in range(300):
        state = settle(driver)
        if state["next"] == "over":
            break
        table = api.get(f"/api/games/{game['id']}").json()["view"]
        # Every pile and choice that can be used shows its key; one that cannot shows none.
        for element in driver.find_elements(By.CSS_SELECTOR, "#table [data-pile], #choices button"):
            hint = element.get_attribute("data-keyhint")
            assert bool(hint) == element.is_enabled(), element.get_attribute("outerHTML")[:80]
        picks = [c for c in table["choices"] if c["by_selection"]]
        if picks:
            pick(driver, picks[0]["pins"], picks[0]["pile"])
            assert_focus_on_the_game(driver, "a pick")
            after_click(driver, driver.find_element(By.ID, "play-selection"))
        else:
            after_click(driver, driver.find_elements(By.CSS_SELECTOR, "#choices button")[0])
        actions += 1
        assert_focus_on_the_game(driver, f"click {actions}")
    assert actions > 5 and focus(driver)["id"] == "play-again"
