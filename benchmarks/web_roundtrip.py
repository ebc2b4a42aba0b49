"""Web app figures: action round trip through uvicorn, first render in headless Chromium, asset size.

Run: `.venv/bin/python benchmarks/web_roundtrip.py [--actions 300]`. It starts
`pinsetter serve` on a free loopback port with a temporary history, plays
Rolling Pins actions with a real HTTP client (httpx, one connection) and
reports p50/p95 of the round trip; then loads a game page in Debian's
headless Chromium (if installed) and reports the time to the first drawn
table; and sums the bytes of the static assets the page loads.
"""

from __future__ import annotations

import argparse
import statistics
import time
from importlib.resources import files
from pathlib import Path

import httpx
from serving import server


def round_trips(base: str, count: int) -> list[float]:
    """Seconds per POST of a human decision (and the advance after it), over one keep-alive connection."""
    timings: list[float] = []
    with httpx.Client(base_url=base, timeout=10) as client:
        game_id = None
        while len(timings) < count:
            if game_id is None:
                created = client.post(
                    "/api/games",
                    json={"game": "rolling-pins", "players": [{"name": "ann", "kind": "human"}], "seed": len(timings)},
                )
                game_id = created.json()["id"]
                view = created.json()
            if view["next"] == "over":
                game_id = None
                continue
            if view["next"] == "decision":
                action = view["legal_actions"][0]
                start = time.perf_counter()
                response = client.post(f"/api/games/{game_id}/actions", json={"action": action})
                timings.append(time.perf_counter() - start)
            else:
                start = time.perf_counter()
                response = client.post(f"/api/games/{game_id}/advance", json={"until": "step"})
                timings.append(time.perf_counter() - start)
            response.raise_for_status()
            view = response.json()
    return timings


DRAWN = "return (performance.getEntriesByName('pinsetter:drawn')[0] || {}).startTime"


def first_render(base: str, game_id: int) -> float | None:
    """Milliseconds from navigation start to the game page's first table drawn (its performance mark)."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.support.ui import WebDriverWait
    except ImportError:
        return None
    if not Path("/usr/bin/chromium").exists():
        return None
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,800"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        samples = []
        for _ in range(5):
            driver.get("about:blank")
            driver.get(f"{base}/#/game/{game_id}")
            WebDriverWait(driver, 10).until(lambda d: d.execute_script(DRAWN) is not None)
            samples.append(driver.execute_script(DRAWN))  # ms from navigation start to the table drawn
        return float(statistics.median(samples))
    finally:
        driver.quit()


def asset_bytes() -> dict[str, int]:
    """Bytes of the page's own files by kind (the ES modules under js/ included; vendored files apart)."""
    static = Path(str(files("pinsetter.web") / "static"))
    sizes: dict[str, int] = {}
    for path in static.rglob("*"):
        if path.is_file():
            kind = path.suffix.lstrip(".") or path.name
            sizes[kind] = sizes.get(kind, 0) + path.stat().st_size
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=300)
    args = parser.parse_args()
    with server() as base:
        timings = round_trips(base, args.actions)
        ms = sorted(t * 1000 for t in timings)
        p50 = ms[len(ms) // 2]
        p95 = ms[int(len(ms) * 0.95) - 1]
        print(f"round trip over {len(ms)} requests: p50 {p50:.2f} ms, p95 {p95:.2f} ms, max {ms[-1]:.2f} ms")
        game = httpx.post(
            base + "/api/games",
            json={"game": "rolling-pins", "players": [{"name": "ann", "kind": "human"}], "seed": 1},
        ).json()["id"]
        render = first_render(base, game)
        print("first render:", "chromium not available" if render is None else f"{render:.0f} ms (median of 5)")
    sizes = asset_bytes()
    kinds = ", ".join(f"{kind} {size}" for kind, size in sorted(sizes.items()))
    print(f"static files: {sum(sizes.values())} bytes, not compressed ({kinds})")


if __name__ == "__main__":
    main()
