"""The web pages in a real browser (issue 12): each of the four games played to its end by clicking.

A uvicorn server runs the app in a background thread on a free port over a
temporary history; one headless Chromium session (Selenium, `/usr/bin/chromium`
with `/usr/bin/chromedriver`) serves the whole module. The page decides
nothing: the tests read the server's view only to know which pins make a legal
pick, then click them as a player would.

Screenshots of each game page are written to the folder named by the
environment variable `PINSETTER_ARTIFACTS`, or else to a temporary folder
(printed in the test output): `<game>.png`.

When chromium or chromedriver is missing the module is skipped with a one-line
reason, except under `CI=true`, where it fails loudly instead.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from browser_support import full_screenshot as screenshot
from browser_support import game_state, lobby_form, open_more_options, require_browser, settle, wait
from pinsetter.core.narration import pins_list
from pinsetter.records import Record, replay

HOSTILE = "<img src=x onerror=alert(1)>"


require_browser()

from selenium.common.exceptions import NoAlertPresentException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

# --- helpers ----------------------------------------------------------------------------------------------


def after_click(driver: WebDriver, element: WebElement) -> dict[str, str]:
    """Click, then wait for the server's answer to be drawn (a new step, or an error line)."""
    before = game_state(driver)["steps"]
    element.click()

    def moved(d: WebDriver) -> dict[str, str] | None:
        state = game_state(d)
        if state.get("busy") != "0":
            return None
        return state if state["steps"] != before or state["error"] else None

    wait(driver, moved, "no answer to the click")
    return settle(driver)


def start_game(driver: WebDriver, base: str, game: str, players: list[tuple[str, str]], **options: Any) -> int:
    """Fill in the lobby and start: players are (name, 'human' or 'bot:NAME')."""
    lobby_form(driver, base, game)
    for name, value in options.items():
        field = driver.find_element(By.ID, f"opt-{name}")
        if field.get_attribute("type") == "checkbox":
            if field.is_selected() != bool(value):
                field.click()
        else:
            field.clear()
            field.send_keys(str(value))
    for _ in players[1:]:
        driver.find_element(By.ID, "add-human").click()
    rows = driver.find_elements(By.CSS_SELECTOR, "#players .player-row")
    assert len(rows) == len(players)
    for row, (name, kind) in zip(rows, players, strict=True):
        field = row.find_element(By.CSS_SELECTOR, "input[type=text]")
        field.clear()
        field.send_keys(name)
        Select(row.find_element(By.TAG_NAME, "select")).select_by_value(kind)
    driver.find_element(By.ID, "start").click()
    wait(driver, lambda d: "#/game/" in d.current_url, "the game did not start")
    game_id = int(driver.current_url.rsplit("/", 1)[1])
    settle(driver)
    return game_id


def server_view(api: httpx.Client, game_id: int) -> dict[str, Any]:
    view: dict[str, Any] = api.get(f"/api/games/{game_id}").json()
    return view


def pick(driver: WebDriver, pins: list[int], pile: int | None = None) -> None:
    if pile is not None:
        driver.find_element(By.CSS_SELECTOR, f"button[data-pile='{pile}']").click()
    for number in pins:
        driver.find_element(By.CSS_SELECTOR, f"button[data-pin='{number}']").click()


def play_by_clicking(driver: WebDriver, api: httpx.Client, game_id: int) -> None:
    """Play on to the end: Roll, picks of pins (the first legal one), or the first choice button."""
    for _ in range(400):
        state = settle(driver)
        if state["next"] == "over":
            return
        if state["next"] == "roll":
            after_click(driver, driver.find_element(By.ID, "roll"))
            continue
        table = server_view(api, game_id)["view"]
        picks = [c for c in table["choices"] if c["by_selection"]]
        if picks:
            pick(driver, picks[0]["pins"], picks[0]["pile"])
            after_click(driver, driver.find_element(By.ID, "play-selection"))
        else:
            after_click(driver, driver.find_elements(By.CSS_SELECTOR, "#choices button")[0])
    raise AssertionError("the game did not end")


def finish(driver: WebDriver, api: httpx.Client, game_id: int, artifacts: Path, name: str) -> list[str]:
    """The end screen's lines; the record verifies; a screenshot of the page is kept."""
    wait(driver, lambda d: d.find_elements(By.ID, "ending"), "no end screen")
    lines = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#ending li")]
    assert any(line.startswith("1. ") for line in lines)
    record = Record.loads(api.get(f"/api/games/{game_id}/record").text)
    assert replay(record).is_terminal()
    screenshot(driver, artifacts / f"{name}.png")
    return lines


def no_alert(driver: WebDriver) -> bool:
    try:
        _ = driver.switch_to.alert
    except NoAlertPresentException:
        return True
    return False


# --- the games ---------------------------------------------------------------------------------------------


def test_tenpins_with_hostile_names_and_a_bot(driver: WebDriver, base: str, api: httpx.Client, artifacts: Path) -> None:
    players = [(HOSTILE, "human"), ("[bold]x", "human"), ("Robo", "bot:random")]
    game_id = start_game(driver, base, "tenpins", players, frames=2)
    captions = [c.text for c in driver.find_elements(By.CSS_SELECTOR, ".sheet caption")]
    assert captions[0].startswith(HOSTILE) and captions[1].startswith("[bold]x")
    assert driver.find_elements(By.CSS_SELECTOR, "#app img") == []
    assert HOSTILE in driver.find_element(By.ID, "status").text
    hint = driver.find_element(By.ID, "hint-button")
    assert not hint.is_enabled()  # no decisions in this game, and it says so
    assert hint.get_attribute("title") == "no hints: this game has no decisions, every ball is the dice's"
    assert driver.find_element(By.ID, "pace").is_displayed()  # a bot plays: its pace can be set
    play_by_clicking(driver, api, game_id)
    lines = finish(driver, api, game_id, artifacts, "tenpins")
    assert any(HOSTILE in line for line in lines)
    assert driver.find_elements(By.CSS_SELECTOR, "#app img") == []
    assert no_alert(driver)


def test_a_whole_scoresheet_is_in_view_on_a_laptop_and_a_phone(driver: WebDriver, base: str, api: httpx.Client) -> None:
    """Ten frames and the total, without scrolling sideways, from a phone's width to a laptop's."""
    players = [{"name": "Wilhelmina Featherstonehaugh", "kind": "human"}, {"name": "Robo", "kind": "bot:random"}]
    game_id = api.post("/api/games", json={"game": "bowling-dice", "players": players, "seed": 4}).json()["id"]
    while api.post(f"/api/games/{game_id}/advance", json={"until": "step"}).json()["next"] != "over":
        pass
    size = driver.get_window_size()
    try:
        for width in (1280, 1000, 390):
            driver.set_window_size(width, 900)
            driver.get(f"{base}/#/game/{game_id}")
            wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".sheet")) == 2, "no sheets")
            overflow = driver.execute_script(
                "return [...document.querySelectorAll('.sheet')]"
                ".map(t => t.parentElement.scrollWidth - t.parentElement.clientWidth)"
            )
            assert overflow == [0, 0], (width, overflow)
    finally:
        driver.set_window_size(size["width"], size["height"])


def test_bowling_dice_by_keyboard(driver: WebDriver, base: str, api: httpx.Client, artifacts: Path) -> None:
    game_id = start_game(driver, base, "bowling-dice", [("Ann", "human"), ("Robo", "bot:random")], frames=2)
    assert "10 pins standing" in driver.find_element(By.ID, "standing").text
    for _ in range(100):
        state = settle(driver)
        if state["next"] == "over":
            break
        assert state["next"] == "roll"
        before = state["steps"]
        driver.find_element(By.TAG_NAME, "body").send_keys("r")
        wait(driver, lambda d, b=before: game_state(d)["steps"] != b)
    dice = driver.find_elements(By.CSS_SELECTOR, ".die[role=img]")
    assert dice and all(d.get_attribute("aria-label") for d in dice)
    finish(driver, api, game_id, artifacts, "bowling-dice")


def test_rolling_pins_refusal_hint_undo_and_reload(
    driver: WebDriver, base: str, api: httpx.Client, artifacts: Path
) -> None:
    game_id = start_game(driver, base, "rolling-pins", [("Ann", "human"), ("Robo", "bot:greedy")], frames=2)
    assert driver.find_elements(By.CSS_SELECTOR, ".pin .number") == []  # numbered pins say their number once
    after_click(driver, driver.find_element(By.CSS_SELECTOR, "#choices button[data-action='dice 2']"))
    view = server_view(api, game_id)
    assert view["next"] == "decision" and view["view"]["dice"]
    table = view["view"]
    legal = [c for c in table["choices"] if c["by_selection"]]
    crossable = sorted(p["number"] for p in table["pins"] if p["selectable"])
    assert legal and frozenset(crossable) not in {frozenset(c["pins"]) for c in legal}

    # A refused pick: every pin that some pick could use, all at once.
    pick(driver, crossable)
    total = sum(crossable)
    assert f"sum {total}" in driver.find_element(By.ID, "selection-sum").text
    assert f"target {table['selection']['target']}" in driver.find_element(By.ID, "selection-sum").text
    state = after_click(driver, driver.find_element(By.ID, "play-selection"))
    assert pins_list(crossable) in state["error"]
    assert driver.find_element(By.ID, "game-error").is_displayed()

    # Tokens move the dice total first, as on paper: one button press per token held, no more.
    target, held = table["selection"]["target"], table["selection"]["tokens"]
    for _ in range(held):
        driver.find_element(By.ID, "token-plus").click()
    assert driver.find_element(By.ID, "token-plan").text.endswith(f"= {target + held}")
    assert f"target {target + held}" in driver.find_element(By.ID, "selection-sum").text  # what the pins must make
    assert not driver.find_element(By.ID, "token-plus").is_enabled()
    driver.find_element(By.ID, "clear-selection").click()

    # A hint, in words.
    driver.find_element(By.ID, "hint-button").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#hint .hint-words li"), "no hint shown")
    assert "best" in driver.find_element(By.CSS_SELECTOR, "#hint .hint-words li").text
    # Against another player, the chance to finish ahead of them, when asked for.
    driver.find_element(By.CSS_SELECTOR, "#hint button[data-key='chances']").click()
    wait(driver, lambda d: d.find_elements(By.ID, "chance-meaning"), "no chances shown")
    assert driver.find_element(By.ID, "chance-meaning").text.startswith("Chances: the chance to finish ahead")
    lines = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#hint .hint-words li")]
    assert all(", chance to finish ahead " in line and "%" in line for line in lines)
    assert sum("best chance)" in line for line in lines) >= 1 and "(best score" in lines[0]
    hide = driver.find_element(By.CSS_SELECTOR, "#hint button[data-key='chances']")
    assert hide.text == "Hide the chances"
    driver.save_screenshot(str(artifacts / "rolling-pins-hint-chances.png"))
    # A switch of the page's language reloads it: the panel stays open, the chances shown, in the new words.
    english = lines
    Select(driver.find_element(By.ID, "lang-switch")).select_by_value("ja")
    wait(
        driver, lambda d: d.execute_script("return document.documentElement.lang") == "ja", "Japanese after the switch"
    )
    wait(driver, lambda d: d.find_elements(By.ID, "chance-meaning"), "no chances shown after the switch")
    settle(driver)
    assert driver.find_element(By.ID, "hint-h").text == "ヒント"
    assert driver.find_element(By.ID, "chance-meaning").text.startswith("上で終わる確率: ")
    shown = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#hint .hint-words li")]
    assert len(shown) == len(english) and shown != english and all("%" in line for line in shown)
    assert driver.find_element(By.CSS_SELECTOR, "#hint button[data-key='chances']").text == "確率を隠す"
    Select(driver.find_element(By.ID, "lang-switch")).select_by_value("en")
    wait(driver, lambda d: d.execute_script("return document.documentElement.lang") == "en", "English again")
    wait(driver, lambda d: d.find_elements(By.ID, "chance-meaning"), "no chances shown back in English")
    settle(driver)
    assert [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#hint .hint-words li")] == english
    hide = driver.find_element(By.CSS_SELECTOR, "#hint button[data-key='chances']")
    hide.click()
    wait(driver, lambda d: not d.find_elements(By.ID, "chance-meaning"), "the chances still shown")
    assert ", chance to finish ahead " not in driver.find_element(By.CSS_SELECTOR, "#hint .hint-words li").text

    # A legal pick, taken back with Undo.
    choice = legal[0]
    pick(driver, choice["pins"])
    if sum(choice["pins"]) == target:  # a pick that makes the roll needs no token, and says so
        assert driver.find_element(By.ID, "selection-tokens").text.endswith("this pick needs no token")
    label = driver.find_element(By.CSS_SELECTOR, f"button[data-pin='{choice['pins'][0]}']").get_attribute("aria-label")
    assert label is not None and label.startswith(f"pin {choice['pins'][0]}, value ") and label.endswith("picked")
    after_click(driver, driver.find_element(By.ID, "play-selection"))
    crossed = driver.find_element(By.CSS_SELECTOR, f"button[data-pin='{choice['pins'][0]}']")
    assert "down" in (crossed.get_attribute("aria-label") or "")
    undo = driver.find_element(By.ID, "undo")
    assert undo.is_enabled()
    undo.click()
    wait(
        driver,
        lambda d: (
            "standing"
            in (
                d.find_element(By.CSS_SELECTOR, f"button[data-pin='{choice['pins'][0]}']").get_attribute("aria-label")
                or ""
            )
        ),
    )
    settle(driver)
    assert not driver.find_element(By.ID, "undo").is_enabled()  # the roll is revealed: no undo past it
    assert driver.find_element(By.ID, "undo-reason").text

    # A reload in the middle continues the same game.
    steps = settle(driver)["steps"]
    driver.refresh()
    after = settle(driver)
    assert after["steps"] == steps and f"game {game_id}" in driver.find_element(By.TAG_NAME, "h1").text
    play_by_clicking(driver, api, game_id)
    finish(driver, api, game_id, artifacts, "rolling-pins")


def test_solitaire_left_and_resumed(driver: WebDriver, base: str, api: httpx.Client, artifacts: Path) -> None:
    game_id = start_game(driver, base, "bowling-solitaire", [("Ann", "human")], frames=2)
    assert len(driver.find_elements(By.CSS_SELECTOR, "button.pile")) == 3
    # Cards on pins: every pin shows its position too (a 3 on pin 3 included), as plays and hints name positions.
    positions = [e.get_attribute("textContent") for e in driver.find_elements(By.CSS_SELECTOR, ".pin .number")]
    assert sorted(positions, key=lambda text: int(text[1:])) == [f"#{n}" for n in range(1, 11)]
    table = server_view(api, game_id)["view"]
    choice = next(c for c in table["choices"] if c["by_selection"])
    pick(driver, choice["pins"], choice["pile"])
    after_click(driver, driver.find_element(By.ID, "play-selection"))
    steps = settle(driver)["steps"]

    # Leave for the lobby, then resume it from the list of unfinished games.
    driver.find_element(By.CSS_SELECTOR, ".top nav a[href='#/']").click()
    link = wait(
        driver,
        lambda d: d.find_elements(By.CSS_SELECTOR, f"#resume-list a[href='#/game/{game_id}']"),
        "the game is not offered for resuming",
    )
    assert "1 unfinished" in driver.find_element(By.ID, "more-summary").text  # said before More options opens
    open_more_options(driver)
    link[0].click()
    assert settle(driver)["steps"] == steps
    play_by_clicking(driver, api, game_id)
    finish(driver, api, game_id, artifacts, "bowling-solitaire")


# --- the other pages --------------------------------------------------------------------------------------


def player_cards(driver: WebDriver) -> list[tuple[str, str, bool]]:
    """Every player's card as drawn, in seat order: (player, state, whether theirs is the large board)."""
    cards: list[list[Any]] = driver.execute_script(
        "return [...document.querySelectorAll('#all-boards .player-card')]"
        ".map(c => [c.dataset.player, c.dataset.state, c.classList.contains('large')])"
    )
    return [(str(p), str(s), bool(large)) for p, s, large in cards]


def board_owner(driver: WebDriver) -> tuple[str, str]:
    """Whose board is drawn large, and the words above it ("▶ Ann to play")."""
    owner = driver.find_element(By.ID, "board-owner")
    return owner.get_attribute("data-player") or "", owner.text


def screenshots_in_both_themes(driver: WebDriver, artifacts: Path, name: str, ready: Any) -> None:
    """`name`-{light,dark}-{1280,390}.png of the page as it stands, the theme set as the toggle keeps it."""
    size = driver.get_window_size()
    before = driver.execute_script("return localStorage.getItem('pinsetter.theme')")
    try:
        for theme in ("light", "dark"):
            driver.execute_script(f"localStorage.setItem('pinsetter.theme', '{theme}')")
            driver.refresh()
            wait(driver, ready, f"the page never drew again in the {theme} theme")
            for width in (1280, 390):
                driver.set_window_size(width, 900)
                screenshot(driver, artifacts / f"{name}-{theme}-{width}.png")
    finally:
        driver.set_window_size(size["width"], size["height"])
        keep = f"localStorage.setItem('pinsetter.theme', '{before}')"
        driver.execute_script("localStorage.removeItem('pinsetter.theme')" if before is None else keep)


def test_a_two_player_game_shows_both_boards_the_one_to_play_large(
    driver: WebDriver, base: str, api: httpx.Client, artifacts: Path
) -> None:
    """Two players at one screen: both boards, the player to play's large and named in words; it moves on."""
    game_id = start_game(driver, base, "rolling-pins", [("Ann", "human"), ("Bob", "human")], frames=2, advanced=True)
    assert board_owner(driver) == ("0", "▶ Ann to play")
    assert player_cards(driver) == [("0", "turn", True), ("1", "waiting", False)]
    assert "active" in (driver.find_element(By.ID, "table").get_attribute("class") or "")  # outlined too
    bob = driver.find_element(By.CSS_SELECTOR, ".player-card[data-player='1']")
    assert bob.find_element(By.CLASS_NAME, "player-state").text == "waiting"  # the card is headed with his name
    assert len(bob.find_elements(By.CSS_SELECTOR, ".mini-board .pin")) == 10  # Bob's own sheet, drawn small
    assert bob.find_elements(By.CSS_SELECTOR, ".mini-board .area")  # with his ability track
    assert not bob.find_elements(By.CSS_SELECTOR, "button, [id]")  # read only, and no id of the large board twice
    assert driver.find_element(By.CSS_SELECTOR, ".player-card.turn .marker").text == "▶"

    # Ann plays her frame (two dice, misses); when the turn passes, Bob's board is the large one.
    for _ in range(20):
        state = settle(driver)
        if board_owner(driver)[0] == "1":
            break
        if state["next"] == "roll":
            after_click(driver, driver.find_element(By.ID, "roll"))
        else:
            offered = driver.find_elements(By.CSS_SELECTOR, "#choices button[data-action='miss']")
            offered = offered or driver.find_elements(By.CSS_SELECTOR, "#choices button")
            after_click(driver, offered[0])
    assert board_owner(driver) == ("1", "▶ Bob to play")
    assert player_cards(driver) == [("0", "waiting", False), ("1", "turn", True)]
    ann = driver.find_element(By.CSS_SELECTOR, ".player-card[data-player='0']")
    assert ann.find_element(By.CLASS_NAME, "player-total").text.startswith("total 0 · frame 2")
    assert ann.find_element(By.CLASS_NAME, "player-frame").text == "last frame - -"  # her two misses
    shown = [e.get_attribute("aria-label") for e in ann.find_elements(By.CSS_SELECTOR, ".mini-board .pin")]
    board = server_view(api, game_id)["boards"][0]
    assert len(shown) == len(board["pins"]) == 10
    assert all(("down" in (label or "")) == pin["down"] for label, pin in zip(shown, board["pins"], strict=True))
    screenshots_in_both_themes(
        driver, artifacts, "boards-local", lambda d: d.find_elements(By.CSS_SELECTOR, "#all-boards .player-card.turn")
    )
    assert board_owner(driver) == ("1", "▶ Bob to play")


def test_lobby_shows_the_engines_refusal(driver: WebDriver, base: str) -> None:
    lobby_form(driver, base, "tenpins")
    frames = driver.find_element(By.ID, "opt-frames")
    frames.clear()
    frames.send_keys("11")
    driver.find_element(By.ID, "start").click()
    error = wait(driver, lambda d: d.find_element(By.ID, "lobby-error").text, "no error shown")
    assert "frames" in error
    assert "#/game/" not in driver.current_url


def test_the_lobby_offers_no_seat_a_game_does_not_have(driver: WebDriver, base: str) -> None:
    lobby_form(driver, base, "bowling-solitaire")
    while len(driver.find_elements(By.CSS_SELECTOR, ".player-row")) > 1:  # one seat: Solitaire's only one
        driver.find_element(By.CSS_SELECTOR, ".player-row button[aria-label^='Remove']").click()

    def full(d: WebDriver) -> bool:
        """Solitaire's one seat taken: no seat to add, and the page says so."""
        return (
            not d.find_element(By.ID, "add-human").is_enabled()
            and d.find_element(By.ID, "seats-full").text == "1 player"
        )

    wait(driver, full, "the add button still offers a second seat to Solitaire")
    driver.find_element(By.CSS_SELECTOR, "input[name=game][value='rolling-pins']").click()
    assert wait(driver, lambda d: d.find_element(By.ID, "add-human").is_enabled(), "a seat to add")


def test_history_step_through_upload_stats_rules_and_theme(
    driver: WebDriver, base: str, api: httpx.Client, tmp_path: Path
) -> None:
    finished = [g for g in api.get("/api/history").json() if g["finished"]]
    assert finished, "the games above are in the history"
    driver.get(base + "/#/history")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#history-results tr[data-game-id]"))
    target = finished[0]["id"]
    driver.find_element(By.CSS_SELECTOR, f"#history-results a[href='#/history/{target}']").click()
    caption = wait(driver, lambda d: d.find_element(By.ID, "step-caption").text, "no stepper")
    total = len(api.get(f"/api/games/{target}/record").json()["steps"])
    assert caption.startswith(f"Step 0 of {total}")  # a replay starts at the start
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#replay #ending"))
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.HOME)
    wait(driver, lambda d: d.find_element(By.ID, "step-caption").text.startswith(f"Step 0 of {total}"))
    driver.find_element(By.CSS_SELECTOR, "[aria-label='Next step']").click()
    wait(driver, lambda d: d.find_element(By.ID, "replay").get_attribute("data-step") == "1")

    # Upload a record from a file: it opens in the history.
    record = tmp_path / "game.json"
    record.write_text(json.dumps(api.get(f"/api/games/{target}/record").json()))
    driver.get(base + "/#/")
    wait(driver, lambda d: d.find_elements(By.ID, "record-file"))
    driver.find_element(By.ID, "record-file").send_keys(str(record))
    driver.find_element(By.ID, "upload").click()
    wait(driver, lambda d: d.current_url.endswith(f"#/history/{target}"), "the upload did not open")

    driver.get(base + "/#/stats")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#chart .point"))
    assert "scores" in (driver.find_element(By.ID, "chart").get_attribute("aria-label") or "")
    # Each block is headed by the game's name and options in words, never an id or key=value.
    names = {g["name"] for g in api.get("/api/catalog").json()}
    headings = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#stats-results section:has(.stats-grid) > h2")]
    assert headings and all(h.split(", ")[0] in names and "=" not in h for h in headings), headings
    # The bots' scores are counted once the box is ticked.
    driver.find_element(By.ID, "stats-bots").click()
    driver.find_element(By.CSS_SELECTOR, "#app form[role=search] button[type=submit]").click()
    counted = str(api.get("/api/stats", params={"bots": "true"}).json()["series"][0]["results"])
    first = "#stats-results .stats-grid div:nth-child(2) dd"  # "Scores counted" of the first series
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, first).text == counted, "the bots' scores")

    driver.get(base + "/#/rules/rolling-pins")
    text = wait(driver, lambda d: d.find_element(By.ID, "rules-text").text)
    assert "token" in text.lower()

    before = driver.execute_script("return document.documentElement.dataset.theme || ''")
    driver.find_element(By.ID, "theme-toggle").click()
    chosen = driver.execute_script("return document.documentElement.dataset.theme")
    assert chosen in ("light", "dark") and chosen != before
    driver.refresh()
    assert driver.execute_script("return document.documentElement.dataset.theme") == chosen
