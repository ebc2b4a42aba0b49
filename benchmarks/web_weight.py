"""The web page's weight and first draw in headless Chromium (issue 25): a benchmark, not a test.

Run: `.venv/bin/python benchmarks/web_weight.py [--loads 5]`. It starts `pinsetter serve` on a free
loopback port over a temporary history, starts one game of each kind (played a few steps in), and
loads the front page and each game page in Debian's headless Chromium (`/usr/bin/chromium` through
selenium, as the browser tests drive it), in English and in Japanese. For each page it prints:

- first load: bytes transferred with an empty cache (the Performance API's `transferSize`: headers
  and the body as sent, gzipped), the bodies as sent (`encodedBodySize`) and unpacked
  (`decodedBodySize`), the number of requests, and what the language catalog took of it;
- again: bytes transferred when the same page is opened again with the cache kept (the versioned
  modules come from the cache; the page and the API answers are asked for anew);
- drawn: on a game page, milliseconds from navigation start to its first table drawn (the
  `pinsetter:drawn` mark in js/game.js; on the review page of a whole game of basic Rolling Pins,
  its charts drawn, js/review.js): with an empty cache, and the median of `--loads` warm loads.

The budget (docs/web.md): a first load under 150 kB transferred, language catalog included; the
board drawn under 200 ms.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from serving import server

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
BUDGET_BYTES = 150_000
BUDGET_DRAW_MS = 200
GAMES = {  # a game of each kind, a few steps in: (options, players, steps to play)
    "tenpins": ({"frames": 10}, [("Ann", "human"), ("Robo", "bot:random")], 6),
    "rolling-pins": ({"advanced": True}, [("Ann", "human"), ("Robo", "bot:greedy")], 8),
    "bowling-dice": ({}, [("Ann", "human"), ("Robo", "bot:random")], 6),
    "bowling-solitaire": ({}, [("Ann", "human")], 6),
}
# The review page (js/review.js, loaded on first use) of a whole game of basic Rolling Pins, Ann
# playing the first legal move against the greedy bot: its modules and the review's JSON.
REVIEWED = ({}, [("Ann", "human"), ("Robo", "bot:greedy")])

# Every response of this page load (the page itself first), from the Performance API.
ENTRIES = """
const nav = performance.getEntriesByType('navigation').map((e) => ({name: e.name, kind: 'page',
  transfer: e.transferSize, encoded: e.encodedBodySize, decoded: e.decodedBodySize}));
const rest = performance.getEntriesByType('resource').map((e) => ({name: e.name, kind: e.initiatorType,
  transfer: e.transferSize, encoded: e.encodedBodySize, decoded: e.decodedBodySize}));
return nav.concat(rest);
"""
DRAWN = "return (performance.getEntriesByName('pinsetter:drawn')[0] || {}).startTime"


@dataclass
class Load:
    page: str
    language: str
    transfer: int
    encoded: int
    decoded: int
    requests: int
    catalog: int
    again: int
    drawn_cold: float | None
    drawn_warm: float | None


def start_games(base: str) -> dict[str, int]:
    """One game of each kind, played a few steps in (the first legal decision, chance and bots advanced)."""
    ids: dict[str, int] = {}
    with httpx.Client(base_url=base, timeout=30) as client:
        for game, (options, players, steps) in GAMES.items():
            seats = [{"name": name, "kind": kind} for name, kind in players]
            view = client.post("/api/games", json={"game": game, "options": options, "players": seats, "seed": 7})
            view.raise_for_status()
            data = view.json()
            for _ in range(steps):
                if data["next"] == "over":
                    break
                if data["next"] == "decision":
                    answer = client.post(f"/api/games/{data['id']}/actions", json={"action": data["legal_actions"][0]})
                else:
                    answer = client.post(f"/api/games/{data['id']}/advance", json={"until": "human"})
                answer.raise_for_status()
                data = answer.json()
            ids[game] = int(data["id"])
    return ids


def reviewed_game(base: str) -> int:
    """A whole game of basic Rolling Pins, reviewed once so that the page reads the server's kept review."""
    options, players = REVIEWED
    with httpx.Client(base_url=base, timeout=600) as client:
        seats = [{"name": name, "kind": kind} for name, kind in players]
        view = client.post("/api/games", json={"game": "rolling-pins", "options": options, "players": seats, "seed": 7})
        view.raise_for_status()
        data = view.json()
        while data["next"] != "over":
            if data["next"] == "decision":
                answer = client.post(f"/api/games/{data['id']}/actions", json={"action": data["legal_actions"][0]})
            else:
                answer = client.post(f"/api/games/{data['id']}/advance", json={"until": "human"})
            answer.raise_for_status()
            data = answer.json()
        for language in ("en", "ja"):  # a review is kept per language: both made before the page is timed
            client.get(f"/api/games/{data['id']}/review", headers={"accept-language": language}).raise_for_status()
        return int(data["id"])


def browser() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.add_argument("--window-size=1280,900")
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def settled(driver: Any, ready: str) -> list[dict[str, Any]]:
    """The page's responses once `ready` (a CSS selector) is drawn and no request has come for 300 ms."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 30, poll_frequency=0.02).until(
        lambda d: d.execute_script(f"return !!document.querySelector({ready!r})")
    )
    count, quiet_since = -1, time.monotonic()
    while time.monotonic() - quiet_since < 0.3:  # a benchmark may wait for quiet; the tests never sleep
        entries: list[dict[str, Any]] = driver.execute_script(ENTRIES)
        if len(entries) != count:
            count, quiet_since = len(entries), time.monotonic()
        time.sleep(0.05)
    return entries


def measure(driver: Any, base: str, page: str, language: str, ready: str, loads: int) -> Load:
    driver.get("about:blank")
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    driver.get(base + "/#/rules")  # the origin, to set the language before the measured load
    driver.execute_script(f"localStorage.setItem('pinsetter.lang', {language!r})")
    driver.execute_script("localStorage.setItem('pinsetter.pace', '0')")  # bots at once: nothing moves meanwhile
    driver.delete_all_cookies()
    driver.get("about:blank")
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    driver.get(base + page)
    first = settled(driver, ready)
    cold = driver.execute_script(DRAWN)
    catalog = sum(e["transfer"] for e in first if "/api/i18n/" in e["name"])
    warm: list[float] = []
    again = 0
    for number in range(loads):
        driver.get("about:blank")
        driver.get(base + page)
        entries = settled(driver, ready)
        if number == 0:
            again = sum(e["transfer"] for e in entries)
        drawn = driver.execute_script(DRAWN)
        if drawn is not None:
            warm.append(float(drawn))
    return Load(
        page=page,
        language=language,
        transfer=sum(e["transfer"] for e in first),
        encoded=sum(e["encoded"] for e in first),
        decoded=sum(e["decoded"] for e in first),
        requests=len(first),
        catalog=catalog,
        again=again,
        drawn_cold=None if cold is None else float(cold),
        drawn_warm=statistics.median(warm) if warm else None,
    )


def table(rows: list[Load]) -> str:
    head = ("page", "lang", "requests", "transferred", "sent bodies", "unpacked", "catalog", "again")
    head += ("drawn cold", "drawn warm")
    lines = [head]
    for row in rows:
        lines.append(
            (
                row.page,
                row.language,
                str(row.requests),
                f"{row.transfer / 1000:.1f} kB",
                f"{row.encoded / 1000:.1f} kB",
                f"{row.decoded / 1000:.1f} kB",
                f"{row.catalog / 1000:.1f} kB",
                f"{row.again / 1000:.1f} kB",
                "" if row.drawn_cold is None else f"{row.drawn_cold:.0f} ms",
                "" if row.drawn_warm is None else f"{row.drawn_warm:.0f} ms",
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    out = ["| " + " | ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)) + " |" for line in lines]
    out.insert(1, "|" + "|".join("-" * (width + 2) for width in widths) + "|")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--loads", type=int, default=5, help="warm loads of each page for the median draw time")
    args = parser.parse_args()
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        raise SystemExit(f"needs {CHROMIUM} and {CHROMEDRIVER}: apt-get install chromium chromium-driver")
    with server() as base:
        games = start_games(base)
        review = reviewed_game(base)
        pages = [("/#/", "#app h1, #app h2")] + [(f"/#/game/{gid}", "#game .game-grid") for gid in games.values()]
        pages.append((f"/#/review/{review}", "#review[data-ready='1']"))
        driver = browser()
        try:
            rows = [
                measure(driver, base, page, language, ready, args.loads)
                for language in ("en", "ja")
                for page, ready in pages
            ]
        finally:
            driver.quit()
    names = {f"/#/game/{gid}": f"game: {game}" for game, gid in games.items()} | {"/#/": "front page"}
    names[f"/#/review/{review}"] = "review: rolling-pins"
    for row in rows:
        row.page = names[row.page]
    print(table(rows))
    heaviest = max(row.transfer for row in rows)
    slowest = max((row.drawn_warm or 0.0) for row in rows)
    print(
        f"heaviest first load {heaviest / 1000:.1f} kB (budget {BUDGET_BYTES / 1000:.0f} kB, catalog included); "
        f"slowest warm draw {slowest:.0f} ms (budget {BUDGET_DRAW_MS} ms)"
    )


if __name__ == "__main__":
    main()
