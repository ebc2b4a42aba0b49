"""The account, leaderboard and profile pages in real browsers (issue 31, parts 1, 2 and 6).

Two headless Chromium sessions (each its own cookies and storage) are Ann and Bob. Ann signs up,
out and in again (a wrong password shows the API's one line, nothing typed is lost) and plays a
local game signed in: every change she makes carries her session's CSRF token. Then Ann hosts a
rated Ten Pins table of one frame, Bob (signed up in his browser) takes the other seat, they play
it out, and both ratings move: the leaderboard and profile pages show them (with the game's link); those pages and the
sign-in page pass axe and are kept as screenshots at 1280 and 390 px, light and dark, in
`/tmp/pages-shots/` (else `PINSETTER_ARTIFACTS`). Last, Bob deletes his account from his profile.

The tests run in order and share the two sessions: each sign-up costs a real argon2 hash (about a
second on a loaded machine), so there are two accounts in all.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from api_support import api_get
from browser_support import (
    chrome_sessions,
    full_screenshot,
    pictures_at_both_widths,
    require_browser,
    settle,
    table_form,
    wait,
)
from pinsetter.records import Record

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

from test_accessibility_browser import run_axe  # noqa: E402
from test_web_browser import after_click  # noqa: E402
from test_web_tables_browser import live_at  # noqa: E402

PASSWORD = "bowling-night-42"
SHOTS = Path(os.environ.get("PINSETTER_ARTIFACTS") or "/tmp/pages-shots")


@pytest.fixture(scope="module")
def browsers(base: str) -> Iterator[list[WebDriver]]:
    """Ann's and Bob's browsers, bots moving at once."""
    with chrome_sessions(2) as sessions:
        for driver in sessions:
            driver.get(base + "/#/")
            driver.execute_script("localStorage.setItem('pinsetter.pace', '0')")
        yield sessions


def header(driver: WebDriver) -> str:
    """Who the header says is signed in: their name, or "" for a guest (once the header has drawn)."""

    def drawn(d: WebDriver) -> list[str] | None:  # in a list: a guest's "" is an answer, not "not yet"
        me = d.find_elements(By.ID, "nav-me")
        if me:
            return [str(me[0].text).lstrip("● ").strip()]
        return [""] if d.find_elements(By.ID, "nav-signin") else None

    found: list[str] = wait(driver, drawn, "the header never said who is signed in")
    return found[0]


def fill(driver: WebDriver, form: str, name: str, password: str) -> None:
    """Type into the sign-in page's form `form` (signin or signup) and send it."""
    wait(driver, lambda d: d.find_elements(By.ID, f"{form}-name"), f"no {form} form")
    for field, text in (("name", name), ("password", password)):
        element = driver.find_element(By.ID, f"{form}-{field}")
        element.clear()
        element.send_keys(text)
    driver.find_element(By.ID, f"{form}-submit").click()


def error_line(driver: WebDriver, form: str) -> str:
    text: str = wait(driver, lambda d: d.find_element(By.ID, f"{form}-error").text, f"no error line by the {form} form")
    return text


def sign_up(driver: WebDriver, base: str, name: str) -> None:
    """Sign up from the header's "Sign in", and come back to the page one was on."""
    driver.get(base + "/#/stats")
    header(driver)
    driver.find_element(By.ID, "nav-signin").click()
    fill(driver, "signup", name, PASSWORD)
    wait(driver, lambda d: d.current_url.endswith("#/stats"), "the sign-up did not go back to the page")
    assert header(driver) == name


def sign_out(driver: WebDriver) -> None:
    """Sign out from the header, and wait for the header to offer "Sign in" again."""
    driver.find_element(By.ID, "sign-out").click()
    wait(driver, lambda d: d.find_elements(By.ID, "nav-signin"), "the header never showed the sign-out")
    assert header(driver) == ""


def test_sign_up_out_and_in_and_play_a_local_game_signed_in(browsers: list[WebDriver], base: str) -> None:
    ann = browsers[0]
    ann.get(base + "/#/stats")
    assert header(ann) == ""
    ann.find_element(By.ID, "nav-signin").click()
    wait(ann, lambda d: d.current_url.endswith("#/signin"))
    assert "8 to 256 characters" in ann.find_element(By.ID, "signup-password-help").text

    # A password too short, a name of spaces: said in words by the page (no field key), nothing typed lost.
    fill(ann, "signup", "Ann", "short")
    assert error_line(ann, "signup") == "The password must have 8 to 256 characters."
    assert ann.find_element(By.ID, "signup-name").get_attribute("value") == "Ann"
    assert ann.switch_to.active_element == ann.find_element(By.ID, "signup-password")
    fill(ann, "signup", "   ", PASSWORD)
    assert error_line(ann, "signup") == "Type a name of 1 to 40 characters."
    fill(ann, "signin", "Ann", "short")
    assert error_line(ann, "signin") == "The password must have 8 to 256 characters."
    assert header(ann) == ""
    fill(ann, "signup", "Ann", PASSWORD)
    wait(ann, lambda d: d.current_url.endswith("#/stats"), "the sign-up did not go back to where Ann was")
    assert header(ann) == "Ann"
    assert str(ann.find_element(By.ID, "nav-me").get_attribute("href")).endswith("#/player/Ann")

    sign_out(ann)
    assert api_get(f"{base}/api/session").json()["name"] is None  # (a separate client: a guest, as always)

    # A wrong password: the one line, the name kept; then the right one.
    ann.get(base + "/#/leaderboard")
    ann.find_element(By.ID, "nav-signin").click()
    fill(ann, "signin", "Ann", "not-the-password")
    assert error_line(ann, "signin") == "wrong name or password"
    assert ann.find_element(By.ID, "signin-name").get_attribute("value") == "Ann"
    fill(ann, "signin", "Ann", PASSWORD)
    wait(ann, lambda d: d.current_url.endswith("#/leaderboard"), "the sign-in did not go back to where Ann was")
    assert header(ann) == "Ann"

    # Signed in, every change carries the CSRF token: a local game starts (under Ann's name) and is played.
    ann.get(base + "/#/")
    assert header(ann) == "Ann"
    wait(ann, lambda d: d.find_elements(By.ID, "play-tenpins"), "no Play now")
    ann.find_element(By.ID, "play-tenpins").click()
    wait(ann, lambda d: "#/game/" in d.current_url, "Play now did not start a game")
    game_id = int(ann.current_url.rsplit("/", 1)[1])
    state = settle(ann)
    assert state["next"] == "roll" and not state["error"]
    state = after_click(ann, ann.find_element(By.ID, "roll"))
    assert not state["error"], state["error"]
    record = Record.loads(api_get(f"{base}/api/games/{game_id}/record").text)
    assert record.players[0].name == "Ann" and len(record.steps) >= 1


def table_state(driver: WebDriver) -> dict[str, str]:
    script = "return Object.assign({}, document.getElementById('table-page').dataset);"
    state: dict[str, str] = driver.execute_script(script)
    return state


def host_rated_table(ann: WebDriver, base: str) -> str:
    """Ann hosts a rated Ten Pins table of one frame with two human seats from the lobby form: its join link."""
    table_form(ann, base, "tenpins", frames=1)
    assert "Only signed-in players" in ann.find_element(By.ID, "rated-help").text
    # Rated is for a hosted table: while it is ticked, Start (a game played here) is off and says why.
    start, why = ann.find_element(By.ID, "start"), ann.find_element(By.ID, "start-why")
    assert start.is_enabled() and not why.is_displayed()
    ann.find_element(By.ID, "rated").click()
    wait(ann, lambda d: not start.is_enabled(), "Start stayed on with Rated game ticked")
    assert why.is_displayed() and "Host a table for friends" in why.text
    assert start.get_attribute("aria-describedby") == "start-why"
    ann.find_element(By.ID, "rated").click()
    wait(ann, lambda d: start.is_enabled() and not why.is_displayed(), "Start stayed off with Rated game unticked")
    ann.find_element(By.ID, "rated").click()
    ann.find_element(By.ID, "host-table").click()
    wait(ann, lambda d: "#/table/" in d.current_url, "no table page")
    wait(ann, lambda d: d.find_elements(By.ID, "join-link"), "the table page never drew its join link")
    assert "Rated game" in ann.find_element(By.ID, "rated-note").text
    return str(ann.find_element(By.ID, "join-link").get_attribute("value"))


def take_seat(driver: WebDriver, name: str, seat: int) -> None:
    """Signed in, a seat is taken with one click: the form says the account's name, with no field to type it."""
    wait(driver, lambda d: d.find_elements(By.ID, "sit-as"), "no seat form for a signed-in player")
    assert name in driver.find_element(By.ID, "sit-as").text
    assert not driver.find_elements(By.ID, "sit-name")
    driver.find_element(By.CSS_SELECTOR, f"#sit button[data-seat='{seat}']").click()


def test_a_rated_table_game_rates_both_accounts_and_the_pages_show_it(browsers: list[WebDriver], base: str) -> None:
    ann, bob = browsers
    assert header(ann) == "Ann"  # signed in by the test before
    link = host_rated_table(ann, base)
    take_seat(ann, "Ann", 0)
    live_at(ann, seat="0")

    # A guest may not sit at a rated table: the join page says so and offers to sign in.
    bob.get(link)
    wait(bob, lambda d: d.find_elements(By.ID, "sit-rated"), "a guest was offered a seat at a rated table")
    assert not bob.find_elements(By.CSS_SELECTOR, "#sit button")
    SHOTS.mkdir(parents=True, exist_ok=True)
    full_screenshot(bob, SHOTS / "join-rated-guest.png")
    sign_up(bob, base, "Bob")
    bob.get(link)
    take_seat(bob, "Bob", 1)
    wait(bob, lambda d: "#/table/" in d.current_url)
    live_at(bob, seat="1")
    wait(ann, lambda d: d.find_element(By.ID, "start-table").is_enabled(), "Ann never saw Bob sit")
    # Every seat taken: the status says only the host's Start is awaited, to each in their words.
    status = "return document.getElementById('status')?.textContent"
    wait(ann, lambda d: d.execute_script(status) == "All seats taken: start the game when you are ready.", "host")
    wait(bob, lambda d: d.execute_script(status) == "All seats taken: waiting for the host to start.", "Bob's line")
    for width in (1280, 390):
        ann.set_window_size(width, 900)
        full_screenshot(ann, SHOTS / f"table-rated-host-{width}.png")
    ann.set_window_size(1280, 900)
    ann.find_element(By.ID, "start-table").click()

    players = {0: ann, 1: bob}
    for _ in range(20):
        state = live_at(ann)
        if state["next"] == "over":
            break
        if state["status"] != "playing" or not state["turn"]:
            continue
        mover = players[int(state["turn"])]
        live_at(mover, next="roll", steps=state["steps"])
        mover.find_element(By.ID, "roll").click()
        wait(ann, lambda d, before=state["steps"]: table_state(d).get("steps") != before, "no live step")
    else:
        raise AssertionError("the rated game did not end")
    live_at(bob, next="over")

    ratings = {name: api_get(f"{base}/api/players/{name}").json()["ratings"] for name in ("Ann", "Bob")}
    for name, found in ratings.items():
        assert [(r["game"], r["mode"], r["games"]) for r in found] == [("tenpins", "standard", 1)], name

    # The table's end says each account's change, as the API's history has it: "Ann: 1000 → 1012 (+12)".
    changes = "return document.getElementById('rating-changes')?.innerText || ''"
    for name in ("Ann", "Bob"):
        change = api_get(f"{base}/api/players/{name}").json()["history"][-1]
        delta = change["delta"]
        sign = f"+{delta}" if delta > 0 else f"\N{MINUS SIGN}{-delta}" if delta < 0 else "±0"
        line = f"{name}: {change['rating'] - delta} → {change['rating']} ({sign})"
        wait(ann, lambda d, line=line: line in d.execute_script(changes), f"no line {line!r} at the table's end")
    assert "changed as it ended" in ann.find_element(By.ID, "rated-note").text
    assert ann.find_element(By.ID, "rating-changes-h").text == "Rating changes"  # inside the Game over panel
    for width in (1280, 390):
        ann.set_window_size(width, 900)
        full_screenshot(ann, SHOTS / f"table-rated-over-{width}.png")
    ann.set_window_size(1280, 900)

    # The leaderboard: picked by the game's name in words, both players ranked, each a link to a profile.
    ann.get(base + "/#/leaderboard")
    wait(ann, lambda d: d.find_elements(By.CSS_SELECTOR, ".board-picker a"), "no boards to pick")
    titles = [a.text for a in ann.find_elements(By.CSS_SELECTOR, ".board-picker a")]
    assert "Rolling Pins, advanced" in titles and "Ten Pins (dice)" in titles and "tenpins" not in titles
    assert titles.index("Rolling Pins, basic") < titles.index("Bowling Solitaire") < titles.index("Ten Pins (dice)")
    assert titles.index("Ten Pins (dice)") < titles.index("Bowling Dice")  # the front page's order, not the alphabet's
    # A bare #/leaderboard opens on the board of Ann's most recent rated game: Ten Pins.
    heading = wait(ann, lambda d: d.find_elements(By.ID, "board-h"), "no board shown")[0]
    assert heading.text == "Ten Pins (dice)"
    current = ann.find_element(By.CSS_SELECTOR, ".board-picker a[aria-current='page']")
    assert current.get_attribute("data-game") == "tenpins"
    ann.find_element(By.CSS_SELECTOR, ".board-picker a[data-game='tenpins']").click()
    wait(ann, lambda d: d.current_url.endswith("#/leaderboard/tenpins/standard"))
    wait(ann, lambda d: d.find_elements(By.CSS_SELECTOR, "#leaders tbody tr"), "the leaderboard shows nobody")
    rows = ann.find_elements(By.CSS_SELECTOR, "#leaders tbody tr")
    shown = {row.get_attribute("data-name"): row.find_element(By.CSS_SELECTOR, ".rating").text for row in rows}
    assert shown == {name: str(found[0]["rating"]) for name, found in ratings.items()}
    assert ann.find_element(By.CSS_SELECTOR, "#leaders tr.me").get_attribute("data-name") == "Ann"
    board_ready = "return document.getElementById('board')?.dataset.ready === '1'"
    check_page(ann, "leaderboard", lambda d: d.execute_script(board_ready))

    # Bob's profile, from the leaderboard: his rating, a chart point per game (and the start), his best game's review.
    ann.find_element(By.CSS_SELECTOR, "#leaders tr[data-name='Bob'] a").click()
    wait(ann, lambda d: d.current_url.endswith("#/player/Bob"))
    profile_ready = "return document.getElementById('profile')?.dataset.ready === '1'"
    wait(ann, lambda d: d.execute_script(profile_ready), "the profile never drew")
    card = ann.find_element(By.CSS_SELECTOR, ".rating-card[data-game='tenpins']")
    assert str(ratings["Bob"][0]["rating"]) in card.text and "Ten Pins (dice)" in card.text
    assert len(ann.find_elements(By.CSS_SELECTOR, "#rating-chart-0 circle")) == 2
    # The chart follows the window's width: narrowed after drawing (a turned phone), the page scrolls not sideways.
    ann.set_window_size(390, 900)
    fits = "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    wait(ann, lambda d: d.execute_script(fits), "the profile scrolls sideways once the window narrowed")
    assert len(ann.find_elements(By.CSS_SELECTOR, "#rating-chart-0 circle")) == 2  # drawn again, whole
    ann.set_window_size(1280, 900)
    game_id = api_get(f"{base}/api/players/Bob").json()["best"][0]["game_id"]
    link = str(ann.find_element(By.CSS_SELECTOR, "#best-games a").get_attribute("href"))
    assert link.endswith(f"#/history/{game_id}")  # Ten Pins has no decisions to review: stepped through instead
    assert not ann.find_elements(By.ID, "account")  # somebody else's profile has no account section
    bob.get(base + "/#/player/Bob")
    wait(bob, lambda d: d.find_elements(By.ID, "delete-account"), "Bob's own profile has no account section")
    check_page(bob, "profile", lambda d: d.execute_script(profile_ready))

    # The sign-in page, as a guest sees it (Bob signs out, then in again).
    sign_out(bob)
    bob.get(base + "/#/signin")
    check_page(bob, "signin", lambda d: d.find_elements(By.ID, "signup-name"))
    fill(bob, "signin", "Bob", PASSWORD)
    wait(bob, lambda d: d.find_elements(By.ID, "nav-me"), "Bob could not sign in again")
    assert header(bob) == "Bob"


def check_page(driver: WebDriver, name: str, ready: object) -> None:
    """The page passes axe (nothing serious or critical) in both themes, kept as screenshots at both widths."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    wait(driver, ready, f"the {name} page never drew")
    pictures_at_both_widths(driver, SHOTS, name, ready)
    for theme in ("dark", "light"):
        driver.execute_script("localStorage.setItem('pinsetter.theme', arguments[0])", theme)
        driver.refresh()
        wait(driver, ready, f"the {name} page never drew in the {theme} theme")
        failing = [v for v in run_axe(driver) if v["impact"] in ("serious", "critical")]
        assert not failing, f"{name} ({theme}): {failing}"


def test_a_player_deletes_the_account_from_the_profile(browsers: list[WebDriver], base: str) -> None:
    bob = browsers[1]
    bob.get(base + "/#/player/Bob")
    assert header(bob) == "Bob"  # signed in again by the test before
    wait(bob, lambda d: d.find_elements(By.ID, "delete-account"), "no account section")
    bob.find_element(By.ID, "delete-account").click()
    words = bob.find_element(By.ID, "delete-words").text
    assert "deleted player" in words and "cannot be undone" in words
    bob.find_element(By.ID, "delete-no").click()  # kept: nothing happens
    assert api_get(f"{base}/api/players/Bob").status_code == 200
    bob.find_element(By.ID, "delete-account").click()
    bob.find_element(By.ID, "delete-yes").click()
    said = wait(bob, lambda d: d.find_element(By.ID, "deleted").text, "the page never said the account is gone")
    assert "deleted player" in said
    assert header(bob) == ""
    assert api_get(f"{base}/api/players/Bob").status_code == 404

    # A name with no account: a clear line, not an error page.
    bob.get(base + "/#/leaderboard")  # away first: the same address again would not draw the page anew
    bob.get(base + "/#/player/Bob")
    line = wait(bob, lambda d: d.find_element(By.ID, "no-account").text, "no line for a name without an account")
    assert "Bob has no account" in line
    assert not bob.find_elements(By.CSS_SELECTOR, "#app .error")
