"""Long names and a phone's first screen, in Chromium (session 22, web page items 4 and 5).

At 390x844 (a phone) and 1366x800 (a laptop), the page as big as the window's inside:
- the header's pages stay on one line (never one page alone on a line) and, on the phone, the header is short;
- a 40-character name never breaks inside a word on a player's card (one line, cut with "…", the whole name
  in its tooltip), nothing runs past a card's or the board's edge, and the lines that name the player to play
  (the turn line, "You play seat 1 as ...", the board's heading) take one or two lines, not three;
- on the phone, the Roll button and the whole lane of pins are in the first screen, on the game page and at a table.

Screenshots (`$PINSETTER_ARTIFACTS`): `long-names-<page>-<width>.png` of the first screen.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from browser_support import chrome, require_browser, settle, wait

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

LONG = "Bartholomew Maximilian Featherstonehaugh"  # 40 characters: the longest name there is
SIZES = [(390, 844), (1366, 800)]


@pytest.fixture(scope="module")
def driver(base: str) -> Iterator[WebDriver]:
    browser = chrome()
    yield browser
    browser.quit()


def inside(driver: WebDriver, width: int, height: int) -> None:
    """The window sized so that the page itself (innerWidth x innerHeight) is width x height."""
    driver.set_window_size(width, height)
    inner = driver.execute_script("return [innerWidth, innerHeight]")
    driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])
    wait(
        driver,
        lambda d: d.execute_script("return innerWidth === arguments[0] && innerHeight === arguments[1]", width, height),
    )


def header_facts(driver: WebDriver) -> dict[str, Any]:
    facts: dict[str, Any] = driver.execute_script(
        "const tops = [...document.querySelectorAll('.top nav a')].map(a => Math.round(a.getBoundingClientRect().top));"
        "return {height: document.querySelector('header.top').getBoundingClientRect().height, tops};"
    )
    return facts


# What runs past the edge of a player's card or of the large board, and how each line naming a player is laid out.
LAYOUT = """
const out = {past: [], lines: {}, cards: []};
for (const box of document.querySelectorAll('.player-card, #table')) {
  const edge = box.getBoundingClientRect();
  for (const el of box.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    const past = r.right > edge.right + 0.5 || r.left < edge.left - 0.5;
    if (r.width && past) out.past.push((el.textContent || el.tagName).slice(0, 50));
  }
}
const lines = (el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight));
for (const id of ['turn', 'whoami', 'board-owner']) {
  const el = document.getElementById(id);
  if (el) out.lines[id] = lines(el);
}
for (const card of document.querySelectorAll('#all-boards .player-card')) {
  const name = card.querySelector('.player-name');
  const span = name.querySelector('.name');
  out.cards.push({lines: lines(name), title: span ? span.title : null, text: name.textContent});
}
const bottom = (css) => { const e = document.querySelector(css); return e ? e.getBoundingClientRect().bottom : null; };
out.roll = bottom('#roll');
out.lane = bottom('#table .lane');
return out;
"""


def check_layout(driver: WebDriver, width: int, first_screen: bool) -> dict[str, Any]:
    facts: dict[str, Any] = driver.execute_script(LAYOUT)
    assert facts["past"] == [], (width, facts["past"])
    for card in facts["cards"]:
        assert card["lines"] == 1, (width, card)  # never "Featherstonehau / gh"
    assert LONG in [card["title"] for card in facts["cards"]]  # the whole name in the tooltip
    for line, count in facts["lines"].items():
        assert count <= 2, (width, line, count)
    if first_screen:
        assert facts["roll"] is not None and facts["roll"] <= 844, (width, facts["roll"])
        assert facts["lane"] is not None and facts["lane"] <= 844, (width, facts["lane"])
    return facts


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_headers_pages_stay_on_one_line_and_a_phones_header_is_short(
    driver: WebDriver, base: str, width: int, height: int
) -> None:
    inside(driver, width, height)
    driver.get(base + "/#/")
    driver.refresh()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#game-cards .game-card"), "no front page")
    facts = header_facts(driver)
    assert len(set(facts["tops"])) == 1, facts  # "Daily" never on a line of its own
    if width < 560:
        assert facts["height"] <= 100, facts  # two short rows, not three (it was 169 px)


def test_a_long_name_on_the_game_page(driver: WebDriver, base: str, api: httpx.Client, artifacts: Path) -> None:
    players = [{"name": LONG, "kind": "human"}, {"name": "Ann", "kind": "human"}]
    game_id = api.post(
        "/api/games", json={"game": "tenpins", "options": {"frames": 3}, "players": players, "seed": 5}
    ).json()["id"]
    api.post(f"/api/games/{game_id}/advance", json={"until": "step"}).raise_for_status()  # his first roll shown
    for width, height in SIZES:
        inside(driver, width, height)
        driver.get(f"{base}/#/game/{game_id}")
        driver.refresh()
        settle(driver)
        driver.save_screenshot(str(artifacts / f"long-names-game-{width}.png"))
        check_layout(driver, width, first_screen=width < 560)
    # Ann to play: his last roll, named with his whole name, on her board and his card.
    while api.get(f"/api/games/{game_id}").json()["turn"] == 0:
        api.post(f"/api/games/{game_id}/advance", json={"until": "step"}).raise_for_status()
    for width, height in SIZES:
        inside(driver, width, height)
        driver.get(f"{base}/#/game/{game_id}")
        driver.refresh()
        settle(driver)
        check_layout(driver, width, first_screen=False)


def test_a_long_name_at_a_table(driver: WebDriver, base: str, api: httpx.Client, artifacts: Path) -> None:
    made = api.post(
        "/api/tables", json={"game": "tenpins", "options": {"frames": 2}, "seats": [{"kind": "human"}] * 2}
    ).json()
    seat = api.post(f"/api/tables/{made['id']}/seats/0", json={"name": LONG}).json()
    api.post(f"/api/tables/{made['id']}/seats/1", json={"name": "Ann"}).raise_for_status()
    api.post(f"/api/tables/{made['id']}/start", json={"host_token": made["host_token"]}).raise_for_status()
    driver.get(base + "/#/")
    driver.execute_script(
        "localStorage.setItem(arguments[0], JSON.stringify({seat: 0, token: arguments[1]}))",
        f"pinsetter.table.{made['id']}.seat",
        seat["token"],
    )
    for width, height in SIZES:
        inside(driver, width, height)
        driver.get(f"{base}/#/table/{made['id']}")
        driver.refresh()
        wait(
            driver,
            lambda d: d.find_elements(By.CSS_SELECTOR, "#table-page[data-live='1'][data-next='roll'] #roll"),
            "no Roll",
        )
        driver.save_screenshot(str(artifacts / f"long-names-table-{width}.png"))
        check_layout(driver, width, first_screen=width < 560)
