"""Online tables in real browsers (issue 13): two players at one table from their own sessions, and a spectator.

A uvicorn server runs the app in a background thread on a free port over a
temporary history; three headless Chromium sessions (Selenium, `/usr/bin/chromium`
with `/usr/bin/chromedriver`), each with its own storage, are the host (who also
plays), a friend who joins by the link, and a spectator. Screenshots go to the
folder named by `PINSETTER_ARTIFACTS` (else a temporary folder): `table-*.png`.

When chromium or chromedriver is missing the module is skipped with a one-line
reason, except under `CI=true`, where it fails loudly instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from api_support import api_get
from browser_support import chrome_sessions, open_more_options, require_browser, wait
from browser_support import full_screenshot as screenshot
from pinsetter.records import Record, replay

HOSTILE = "<img src=x onerror=alert(1)>"


require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

from test_web_browser import board_owner, player_cards  # noqa: E402


@pytest.fixture(scope="module")
def browsers(base: str) -> Iterator[list[WebDriver]]:
    """Three sessions, each with its own profile (and so its own localStorage of tokens)."""
    with chrome_sessions(3) as sessions:
        yield sessions


def page(driver: WebDriver) -> dict[str, str]:
    """The table page's state as it draws it: live, status, seat, turn, next (roll / decision / wait / over), steps."""
    state: dict[str, str] = driver.execute_script(
        "const t = document.getElementById('table-page');"
        "return t ? Object.assign({error: (document.getElementById('table-error') || {}).textContent || ''},"
        " t.dataset) : {};"
    )
    return state


def live_at(driver: WebDriver, **expected: str) -> dict[str, str]:
    def ready(d: WebDriver) -> dict[str, str] | None:
        state = page(d)
        ok = state.get("live") == "1" and state.get("busy") == "0"
        return state if ok and all(state.get(k) == v for k, v in expected.items()) else None

    result: dict[str, str] = wait(driver, ready, f"the table page never showed {expected}")
    return result


def sit(driver: WebDriver, name: str, seat: int) -> None:
    wait(driver, lambda d: d.find_elements(By.ID, "sit-name"), "no seat to take")
    field = driver.find_element(By.ID, "sit-name")
    field.clear()
    field.send_keys(name)
    driver.find_element(By.CSS_SELECTOR, f"#sit button[data-seat='{seat}']").click()


def host_tenpins_table(host: WebDriver, base: str, more_humans: int) -> int:
    """The host picks Ten Pins of 2 frames in the lobby, adds human seats and hosts a table: its id.

    The lobby keeps the seats a session added before: an earlier test's are still there.
    """
    host.get(base + "/#/")
    open_more_options(host)
    host.find_element(By.CSS_SELECTOR, "input[name=game][value='tenpins']").click()
    frames = host.find_element(By.ID, "opt-frames")
    frames.clear()
    frames.send_keys("2")
    for _ in range(more_humans):
        host.find_element(By.ID, "add-human").click()
    host.find_element(By.ID, "host-table").click()
    wait(host, lambda d: "#/table/" in d.current_url, "no table page")
    wait(host, lambda d: d.find_elements(By.ID, "join-link"), "the table page never drew its join link")
    return int(host.current_url.rsplit("/", 1)[1])


def test_two_players_and_a_spectator_play_a_table_with_a_reload(
    browsers: list[WebDriver], base: str, artifacts: Path
) -> None:
    host, friend, watcher = browsers
    # The host fills in the lobby: Ten Pins, 2 frames, two human seats; then hosts a table.
    table_id = host_tenpins_table(host, base, more_humans=1)
    live_at(host, status="open", seat="")
    assert host.find_element(By.ID, "whoami").text.startswith("You host this table")  # not "You are watching"
    code = host.find_element(By.ID, "join-code").text
    link = host.find_element(By.ID, "join-link").get_attribute("value")
    assert link == f"{base}/#/join/{code}"
    sit(host, "Ann", 0)
    live_at(host, seat="0")
    assert not host.find_element(By.ID, "start-table").is_enabled()  # seat 2 is still free

    # A friend opens the link and sits by name; a third browser only watches.
    friend.get(link)
    sit(friend, HOSTILE, 1)
    wait(friend, lambda d: f"#/table/{table_id}" in d.current_url)
    live_at(friend, seat="1")
    watcher.get(link)
    wait(watcher, lambda d: d.find_elements(By.ID, "watch"))
    watcher.find_element(By.ID, "watch").click()
    live_at(watcher, seat="", status="open")
    assert not watcher.find_elements(By.ID, "start-table")  # only the host may start

    # The friend's seat shows up on the host's page at once; the host starts.
    wait(host, lambda d: d.find_element(By.ID, "start-table").is_enabled(), "the host never saw the seat taken")
    seats = [li.text for li in host.find_elements(By.CSS_SELECTOR, "#seats li")]
    assert any(HOSTILE in text for text in seats)
    screenshot(host, artifacts / "table-open.png")
    host.find_element(By.ID, "start-table").click()
    for driver in browsers:
        live_at(driver, status="playing")

    players = {0: host, 1: friend}
    reloaded = False
    rolls = 0
    for _ in range(60):
        state = live_at(watcher)
        if state["next"] == "over":
            break
        turn = int(state["turn"])
        mover = players[turn]
        other = players[1 - turn]
        live_at(mover, next="roll", steps=state["steps"])
        live_at(other, next="wait", steps=state["steps"])  # everyone sees whose turn it is
        assert not other.find_elements(By.ID, "roll") and not watcher.find_elements(By.ID, "roll")
        assert mover.find_element(By.ID, "turn").text.startswith("Your turn")
        assert watcher.find_element(By.ID, "turn").text.startswith("Turn: ")
        # Every page shows both players' boards, the one to play large and marked in words.
        marked = [(str(seat), "turn" if seat == turn else "waiting", seat == turn) for seat in (0, 1)]
        for driver in browsers:
            assert player_cards(driver) == marked
            mine = " · your board" if driver is mover else ""
            assert board_owner(driver) == (str(turn), f"▶ {('Ann', HOSTILE)[turn]} to play{mine}")
        assert mover.find_element(By.CSS_SELECTOR, f".player-card[data-player='{turn}'] h3").text.endswith("(you)")
        if rolls == 0:
            screenshot(mover, artifacts / "table-playing.png")
        mover.find_element(By.ID, "roll").click()
        rolls += 1
        for driver in browsers:  # every page draws the new step live
            wait(driver, lambda d, before=state["steps"]: page(d).get("steps") not in ("", before), "no live step")
        if rolls == 3 and not reloaded:  # the friend reloads mid-game and plays on
            friend.refresh()
            live_at(friend, seat="1", status="playing")
            reloaded = True
    else:
        raise AssertionError("the game did not end")
    assert reloaded and rolls >= 4

    for name, driver in (("host", host), ("guest", friend), ("spectator", watcher)):
        live_at(driver, next="over")
        wait(driver, lambda d: d.find_elements(By.ID, "ending"), "no end screen")
        lines = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#ending li")]
        assert any(line.startswith("1. ") for line in lines)
        assert driver.find_elements(By.CSS_SELECTOR, "#app img") == []  # the hostile name stayed text
        screenshot(driver, artifacts / f"table-{name}.png")
    captions = [c.text for c in watcher.find_elements(By.CSS_SELECTOR, ".sheet caption")]
    assert captions[0].startswith("Ann") and captions[1].startswith(HOSTILE)

    game_id = api_get(f"{base}/api/tables/{table_id}").json()["game_id"]
    record = Record.loads(api_get(f"{base}/api/games/{game_id}/record").text)
    assert replay(record).is_terminal()
    assert [p.name for p in record.players] == ["Ann", HOSTILE]

    # The game's end finished the table: nobody's page says "live" any more, and there is nothing to close.
    for driver in browsers:
        wait(driver, lambda d: d.find_element(By.ID, "connection").text.startswith("finished"), "still live")
    assert not host.find_elements(By.ID, "close-table")


def test_the_host_gives_a_free_seat_and_then_an_idle_players_seat_to_bots(browsers: list[WebDriver], base: str) -> None:
    """Before the game a free seat goes to a bot at once; during it an idle player's seat, after a confirmation."""
    host, friend, _watcher = browsers
    table_id = host_tenpins_table(host, base, more_humans=2)
    link = host.find_element(By.ID, "join-link").get_attribute("value")
    assert link is not None
    sit(host, "Ann", 0)
    live_at(host, seat="0")

    def seat_kind(seat: int) -> str:
        kind: str = api_get(f"{base}/api/tables/{table_id}").json()["seats"][seat]["kind"]
        return kind

    seats = len(api_get(f"{base}/api/tables/{table_id}").json()["seats"])  # an earlier test's seats may be kept
    assert seats >= 3
    for seat in range(2, seats):  # every seat but Ann's and Bob's goes to a bot, with no question before the game
        button = f"button[data-key='bot-{seat}']"
        wait(host, lambda d, button=button: d.find_elements(By.CSS_SELECTOR, button), "no bot button on a free seat")
        host.find_element(By.CSS_SELECTOR, button).click()
        wait(host, lambda _d, seat=seat: seat_kind(seat).startswith("bot:"), "the free seat never went to a bot")

    friend.get(link)
    sit(friend, "Bob", 1)
    live_at(friend, seat="1")
    wait(host, lambda d: d.find_element(By.ID, "start-table").is_enabled(), "the host never saw Bob sit")
    host.find_element(By.ID, "start-table").click()
    live_at(host, status="playing")

    wait(host, lambda d: d.find_elements(By.CSS_SELECTOR, "button[data-key='bot-1']"), "no hand-over button")
    host.find_element(By.CSS_SELECTOR, "button[data-key='bot-1']").click()
    host.switch_to.alert.dismiss()  # asked first: dismissed, nothing changes
    assert seat_kind(1) == "human"
    host.find_element(By.CSS_SELECTOR, "button[data-key='bot-1']").click()
    host.switch_to.alert.accept()
    wait(host, lambda _d: seat_kind(1).startswith("bot:"), "Bob's seat never went to a bot")
    friend.refresh()  # Bob's token holds no seat now: the server says so as it closes, and his page watches
    wait(friend, lambda d: "not valid at this table" in page(d).get("error", ""), "Bob's page never learned it")
    live_at(friend, seat="")

    for _ in range(60):  # Ann plays on alone; the bots play their seats
        state = live_at(host)
        if state["next"] == "over":
            break
        if state["next"] == "roll":
            host.find_element(By.ID, "roll").click()
            wait(host, lambda d, before=state["steps"]: page(d).get("steps") != before, "no live step")
    else:
        raise AssertionError("the game did not end")
    game_id = api_get(f"{base}/api/tables/{table_id}").json()["game_id"]
    record = Record.loads(api_get(f"{base}/api/games/{game_id}/record").text)
    assert replay(record).is_terminal()
    assert record.players[1].name == "Bob" and record.players[1].replaced_by is not None
    assert all(player.kind != "human" for player in record.players[2:])
