"""The review page `#/review/ID` in real Chromium (issue 28 part 2): the endpoint's numbers, in words.

A two-frame game of Rolling Pins is played through the API by two humans: Ann plays the first
legal move every time (a weak player), Bea the move the hint puts first (the optimal bot's). The
page must show what GET /api/games/{id}/review says: each player's figures, the three costliest
decisions with the move played and the best one in words (never the record's notation), a chart
with one mark per point of the expected-score path (the decisions that lost points as triangles)
and the same numbers as a table, every decision folded away. A game that cannot be reviewed shows
the endpoint's one-line reason. The review is reached from the end screen, the history and the
step-through page; a game that cannot be reviewed keeps the step-through there.

Screenshots `review-<width>-<theme>.png` (1280 and 390 px, light and dark),
`review-decisions-1280-light.png` (every decision unfolded) and `review-390-light-ja.png` (in
Japanese) go to `$PINSETTER_ARTIFACTS`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from api_support import api_client
from browser_support import full_screenshot, require_browser, set_theme, wait

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402

# The record's notation for Rolling Pins' moves ("dice 2", "cross 1+2 tokens -1", "miss"): never on the page.
NOTATION = re.compile(r"\bdice [12]\b|\bcross \d|\btokens [+-]\d|\bmiss\b")


def new_game(api: httpx.Client, game: str, options: dict[str, Any], players: list[tuple[str, str]]) -> dict[str, Any]:
    seats = [{"name": name, "kind": kind} for name, kind in players]
    answer = api.post("/api/games", json={"game": game, "options": options, "players": seats, "seed": 28})
    assert answer.status_code == 201, answer.text
    view: dict[str, Any] = answer.json()
    return view


def play_out(api: httpx.Client, view: dict[str, Any]) -> dict[str, Any]:
    """To the end: seat 0 plays the first legal move, seat 1 the hint's best, chance and bots as they come."""
    game_id = view["id"]
    while view["next"] != "over":
        if view["next"] == "decision" and view["turn"] == 1:
            hint = api.get(f"/api/games/{game_id}/hint")
            assert hint.status_code == 200, hint.text
            action = hint.json()["options"][0]["action"]
            answer = api.post(f"/api/games/{game_id}/actions", json={"action": action})
        elif view["next"] == "decision":
            answer = api.post(f"/api/games/{game_id}/actions", json={"action": view["legal_actions"][0]})
        else:
            answer = api.post(f"/api/games/{game_id}/advance", json={"until": "step"})
        assert answer.status_code == 200, answer.text
        view = answer.json()
    return view


@pytest.fixture(scope="module")
def played(base: str) -> dict[str, Any]:
    """The reviewed game (its id and the endpoint's review) and a Ten Pins game, which has nothing to review."""
    with api_client(base, timeout=300) as api:
        view = play_out(api, new_game(api, "rolling-pins", {"frames": 2}, [("Ann", "human"), ("Bea", "human")]))
        review = api.get(f"/api/games/{view['id']}/review")
        assert review.status_code == 200, review.text
        tenpins = play_out(api, new_game(api, "tenpins", {"frames": 1}, [("Ann", "human")]))
        refused = api.get(f"/api/games/{tenpins['id']}/review")
        assert refused.status_code == 409, refused.text
        return {"id": view["id"], "review": review.json(), "tenpins": tenpins["id"], "refusal": refused.json()["error"]}


def open_review(driver: WebDriver, base: str, game_id: int) -> WebElement:
    driver.get(base + "/#/rules")  # away first: the same address again would not draw the page anew
    driver.get(f"{base}/#/review/{game_id}")
    ready = "const r = document.getElementById('review'); return !!r && r.dataset.ready === '1';"
    wait(driver, lambda d: d.execute_script(ready), "the review page did not draw")
    element: WebElement = driver.find_element(By.ID, "review")
    return element


MINUS = "\N{MINUS SIGN}"  # the page's minus in signed figures, not a hyphen


def signed(x: float) -> str:
    text = f"{abs(x):.2f}"
    return text if text == "0.00" else ("+" if x > 0 else MINUS) + text


def texts(elements: list[WebElement]) -> list[str]:
    return [str(e.get_attribute("textContent")) for e in elements]


def test_the_page_shows_the_endpoints_review_in_words(driver: WebDriver, base: str, played: dict[str, Any]) -> None:
    review = played["review"]
    root = open_review(driver, base, played["id"])
    assert driver.find_element(By.ID, "review-title").text == review["title"]
    assert review["meaning"] in root.text
    ann, bea = review["players"]
    assert (ann["name"], bea["name"]) == ("Ann", "Bea")
    assert ann["total_loss"] > 1 and len(ann["costliest"]) == 3  # the first legal move is seldom the best
    assert bea["total_loss"] <= 1e-9 and bea["accuracy"] == 100 and not bea["costliest"]
    for player in review["players"]:
        section = root.find_element(By.CSS_SELECTOR, f"section.review-player[data-seat='{player['seat']}']")
        assert section.find_element(By.TAG_NAME, "h2").text == player["name"]
        shown = {dd.get_attribute("data-figure"): dd.text for dd in section.find_elements(By.CSS_SELECTOR, "dd")}
        accuracy = f"{player['accuracy']:.1f}% ({player['best_choices']} of {player['counted']})"
        assert shown == {
            "score": str(round(player["score"])),
            "accuracy": accuracy,
            "total_loss": f"{player['total_loss']:.2f}",
            "luck": signed(player["luck"]),
            "start": f"{player['start']:.2f}",
            "end": f"{player['end']:.2f}",
        }

        # The costliest decisions: the move played and the best one, in the server's words.
        items = section.find_elements(By.CSS_SELECTOR, "ol.costliest > li")
        assert [int(str(li.get_attribute("data-step"))) for li in items] == [d["step"] for d in player["costliest"]]
        for li, decision in zip(items, player["costliest"], strict=True):
            assert li.find_element(By.CSS_SELECTOR, ".played").text == decision["words"]
            assert li.find_element(By.CSS_SELECTOR, ".best-move").text == decision["best_words"]
            assert f"Lost {decision['loss']:.2f} points" in li.text and decision["situation"] in li.text
            assert decision["words"] != decision["best_words"]
        if not player["costliest"]:
            assert "every choice was the best" in section.find_element(By.CSS_SELECTOR, ".review-none").text

        # The chart: one mark per point of the path, in order; the decisions that lost points are triangles.
        chart = section.find_element(By.CSS_SELECTOR, "svg.review-chart")
        path = player["path"]
        marks = chart.find_elements(By.CSS_SELECTOR, ".point")
        assert int(str(chart.get_attribute("data-points"))) == len(path) == len(marks)
        assert sorted(int(str(m.get_attribute("data-index"))) for m in marks) == list(range(len(path)))
        assert sorted(int(str(m.get_attribute("data-step"))) for m in marks) == [p["step"] for p in path]
        lost = {d["step"] for d in player["decisions"] if not d["best"]}
        triangles = chart.find_elements(By.CSS_SELECTOR, "path.point.lost")
        assert sorted(int(str(m.get_attribute("data-step"))) for m in triangles) == sorted(lost)
        frames = sorted({p["frame"] for p in path})
        assert sorted(int(t) for t in texts(chart.find_elements(By.CSS_SELECTOR, ".frame-label"))) == frames
        assert chart.get_attribute("role") == "img" and player["name"] in str(chart.get_attribute("aria-label"))

        # The same numbers as a table, and every decision, both folded away at first.
        details = section.find_elements(By.TAG_NAME, "details")
        assert len(details) == 2 and all(d.get_attribute("open") is None for d in details)
        rows = section.find_elements(By.CSS_SELECTOR, "table.path-table tbody tr")
        assert [r.find_elements(By.TAG_NAME, "td")[3].get_attribute("textContent") for r in rows] == [
            f"{p['value']:.2f}" for p in path
        ]
        rows = section.find_elements(By.CSS_SELECTOR, "table.decisions tbody tr")
        assert [int(str(r.get_attribute("data-step"))) for r in rows] == [d["step"] for d in player["decisions"]]
        marked = [int(str(r.get_attribute("data-step"))) for r in rows if "lost" in str(r.get_attribute("class"))]
        assert sorted(marked) == sorted(lost)
        for row, decision in zip(rows, player["decisions"], strict=True):
            cells = texts(row.find_elements(By.TAG_NAME, "td"))
            assert cells[2] == decision["words"] and cells[4].endswith(f"{decision['loss']:.2f}")

    # Words only: not one move in the record's notation, anywhere in the page (folded parts included).
    everything = str(root.get_attribute("textContent"))
    assert not NOTATION.findall(everything), NOTATION.findall(everything)[:5]


def test_the_chart_fits_a_phone_and_a_laptop_in_both_themes(
    driver: WebDriver, base: str, played: dict[str, Any], artifacts: Path
) -> None:
    for theme in ("light", "dark"):
        set_theme(driver, theme)
        for width in (1280, 390):
            driver.set_window_size(width, 900)
            root = open_review(driver, base, played["id"])
            inner = int(driver.execute_script("return document.documentElement.clientWidth"))
            assert int(driver.execute_script("return document.documentElement.scrollWidth")) <= inner
            for chart in root.find_elements(By.CSS_SELECTOR, "svg.review-chart"):
                drawn = float(driver.execute_script("return arguments[0].getBoundingClientRect().width", chart))
                holder = float(driver.execute_script("return arguments[0].parentElement.clientWidth", chart))
                # Drawn at the width shown (not scaled down): its 12 px words stay 12 px.
                assert drawn == pytest.approx(holder, abs=1) and int(str(chart.get_attribute("width"))) == int(holder)
                font = driver.execute_script(
                    "return getComputedStyle(arguments[0].querySelector('text')).fontSize", chart
                )
                assert font == "12px"
            full_screenshot(driver, artifacts / f"review-{width}-{theme}.png")
    driver.set_window_size(1280, 900)
    set_theme(driver, "light")
    root = open_review(driver, base, played["id"])
    for summary in root.find_elements(By.CSS_SELECTOR, "details > summary"):
        summary.click()
    full_screenshot(driver, artifacts / "review-decisions-1280-light.png")

    # In Japanese on a phone: the page's words from the page catalog, the moves from the server.
    driver.set_window_size(390, 900)
    driver.execute_script("localStorage.setItem('pinsetter.lang', 'ja')")
    try:
        root = open_review(driver, base, played["id"])
        driver.refresh()
        root = open_review(driver, base, played["id"])
        assert root.find_element(By.TAG_NAME, "h1").text == f"ゲーム {played['id']} の振り返り"
        assert "正確度" in root.text and "Accuracy" not in root.text
        assert int(driver.execute_script("return document.documentElement.scrollWidth")) <= 390
        full_screenshot(driver, artifacts / "review-390-light-ja.png")
    finally:
        driver.execute_script("localStorage.setItem('pinsetter.lang', 'en')")  # (the cookie would keep Japanese)
        driver.set_window_size(1280, 900)
        driver.refresh()


def test_a_game_that_cannot_be_reviewed_says_why_in_one_line(
    driver: WebDriver, base: str, played: dict[str, Any]
) -> None:
    root = open_review(driver, base, played["tenpins"])
    error = root.find_element(By.ID, "review-error")
    assert error.text.endswith(played["refusal"]) and "\n" not in error.text
    assert not root.find_elements(By.CSS_SELECTOR, "svg.review-chart")


def test_the_end_screen_the_history_and_the_step_through_lead_to_the_review(
    driver: WebDriver, base: str, played: dict[str, Any]
) -> None:
    game_id, tenpins = played["id"], played["tenpins"]
    # Only the hash changes between these pages: each wait names the page's game, not the one before it,
    # and reads the link inside it (a redraw meanwhile replaces the element).
    end = f"#game[data-game-id='{game_id}'] #review"
    driver.get(f"{base}/#/game/{game_id}")
    href = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, end).get_attribute("href"), "no end screen")
    assert href.endswith(f"#/review/{game_id}")
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, end).click() is None, "no end screen")
    open_review(driver, base, game_id)  # (and it drew)
    driver.get(f"{base}/#/game/{tenpins}")  # nothing to review: the step-through
    end = f"#game[data-game-id='{tenpins}'] #review"
    href = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, end).get_attribute("href"), "no end screen")
    assert href.endswith(f"#/history/{tenpins}")

    driver.get(f"{base}/#/history")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#history-results tr[data-game-id]"), "no history")
    links = {
        str(row.get_attribute("data-game-id")): [
            a.get_attribute("href") for a in row.find_elements(By.CSS_SELECTOR, "a.review-link")
        ]
        for row in driver.find_elements(By.CSS_SELECTOR, "#history-results tr[data-game-id]")
    }
    assert [str(h).rsplit("#", 1)[1] for h in links[str(game_id)]] == [f"/review/{game_id}"]
    assert links[str(tenpins)] == []

    driver.get(f"{base}/#/history/{game_id}")
    link = f"#replay[data-game-id='{game_id}'] #review-link a"
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, link).click() is None, "no review link")
    wait(driver, lambda d: d.current_url.endswith(f"#/review/{game_id}"), "not the review")
    driver.get(f"{base}/#/history/{tenpins}")
    replay = f"#replay[data-game-id='{tenpins}']"
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, replay).get_attribute("data-step"), "no step drawn")
    assert driver.find_element(By.ID, "review-link").text == ""
