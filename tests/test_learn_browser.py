"""Learn mode in real Chromium (issue 25, item 5): each game's seeded lesson game played by clicking.

At every turn of the learner the lesson panel shows exactly the lessons the server sends (the words of
`pinsetter.lessons`, shared with the terminal), each situation listed in `test_lessons.LEARNED` shows up
in it at some turn, and at every decision the hint is shown without being asked for.

Screenshots (`$PINSETTER_ARTIFACTS`): `learn-<game>-<width>-<theme>.png` at the first turn with a lesson
about the game's own situations.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from api_support import api_client
from browser_support import pictures_at_both_widths, require_browser, wait
from test_lessons import LEARNED

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

from test_web_browser import after_click, pick, settle  # noqa: E402

# The turn to take pictures of: a situation of the game's own.
PICTURED = {
    "tenpins": "tenpins-ball-2",
    "bowling-dice": "faces",
    "bowling-solitaire": "first-play",
    "rolling-pins": "mark",
}


def shown_lesson(driver: WebDriver) -> tuple[list[str], str]:
    """The topics the lesson panel says it shows, and its text."""

    def read(d: WebDriver) -> tuple[list[str], str]:
        panel = d.find_element(By.ID, "lesson")  # read at once: a redraw meanwhile is read again
        return (panel.get_attribute("data-topics") or "").split(), panel.text

    return wait(driver, read, "no lesson panel")


def click_move(driver: WebDriver, api: httpx.Client, view: dict[str, Any], how: str) -> None:
    """The learner's decision by clicking: `how` as in test_lessons.LEARNED."""
    choices = view["view"]["choices"]
    if how == "hint":
        action = api.get(f"/api/games/{view['id']}/hint").json()["options"][0]["action"]
        chosen = next(c for c in choices if c["action"] == action)
    else:
        picks = [c for c in choices if c["by_selection"]]
        buttons = [c for c in choices if not c["by_selection"]]
        chosen = picks[0] if picks else next((c for c in buttons if c["action"] == "dice 2"), buttons[0])
    if chosen["by_selection"]:
        pick(driver, list(chosen["pins"]), chosen["pile"])
        after_click(driver, driver.find_element(By.ID, "play-selection"))
    else:
        button = driver.find_element(By.CSS_SELECTOR, f"#choices button[data-action='{chosen['action']}']")
        after_click(driver, button)


@pytest.mark.parametrize(("game", "options", "seed", "how", "wanted"), LEARNED, ids=[f"{g[0]}-{g[2]}" for g in LEARNED])
def test_the_lesson_panel_tells_each_situation_at_its_turn(
    driver: WebDriver,
    base: str,
    artifacts: Path,
    game: str,
    options: dict[str, Any],
    seed: int,
    how: str,
    wanted: list[str],
) -> None:
    with api_client(base) as api:
        body = {"game": game, "options": options, "players": [{"name": "Ann", "kind": "human"}], "learn": True}
        created = api.post("/api/games", json={**body, "seed": seed}).json()
        driver.get(f"{base}/#/game/{created['id']}")
        driver.refresh()
        seen: list[str] = []
        pictured = False
        for _ in range(400):
            state = settle(driver)
            view = api.get(f"/api/games/{created['id']}").json()
            topics, text = shown_lesson(driver)
            assert topics == [lesson["topic"] for lesson in view["lesson"]]
            for lesson in view["lesson"]:
                assert lesson["title"] in text and lesson["text"] in text, lesson["topic"]
            seen += [topic for topic in topics if topic not in seen]
            if state["next"] == "decision":
                shown = "learn mode shows the hint by itself"
                assert wait(driver, lambda d: [h.text for h in d.find_elements(By.ID, "hint") if h.text], shown)
            if not pictured and PICTURED[game] in topics:
                pictured = True
                pictures_at_both_widths(driver, artifacts, f"learn-{game}", lambda d: d.find_elements(By.ID, "lesson"))
                settle(driver)
            if set(wanted) <= set(seen) or state["next"] == "over":
                break
            if state["next"] == "roll":
                after_click(driver, driver.find_element(By.ID, "roll"))
            else:
                click_move(driver, api, view, how)
        assert set(wanted) <= set(seen), sorted(set(wanted) - set(seen))
