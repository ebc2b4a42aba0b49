"""The rules pages in a real browser (issue 24 item 5): each game's rules drawn as headings, paragraphs and
lists from the server's blocks, in English and in Japanese, with text nodes only.

Screenshots go to the artifacts folder (`PINSETTER_ARTIFACTS`, else a temporary folder):
`web-rules-GAME-LANG.png`; docs/images holds copies of the ones checked by eye.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from browser_support import artifacts_folder, chrome, require_browser, wait
from test_rules_text import GAME_IDS, LANGS, check_players_words

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402


@pytest.fixture(scope="module")
def driver(base: str) -> Iterator[WebDriver]:
    browser: WebDriver = chrome()
    browser.set_window_size(1100, 1300)
    yield browser
    browser.quit()


@pytest.mark.parametrize("lang", LANGS)
def test_rules_pages_draw_the_blocks(
    driver: WebDriver, base: str, client: TestClient, lang: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = artifacts_folder(tmp_path_factory)
    driver.get(base + "/#/")
    driver.execute_script("localStorage.setItem('pinsetter.lang', arguments[0])", lang)
    for game_id in GAME_IDS:
        blocks = client.get(f"/api/rules/{game_id}", headers={"cookie": f"pinsetter_lang={lang}"}).json()["blocks"]
        driver.get(f"{base}/#/rules/{game_id}")
        driver.refresh()  # the stored language applies from the page's start
        wait(driver, lambda d: d.execute_script("return document.documentElement.lang") == lang, "the language")

        def drawn_rules(d: WebDriver) -> tuple[list[Any], str] | None:
            """The rules' elements and text, read together once drawn (all at once; a redraw: read again)."""
            article = d.find_element(By.ID, "rules-text")
            drawn = d.execute_script(
                "return Array.from(arguments[0].children, (el) => [el.tagName, el.tagName === 'UL' ?"
                " Array.from(el.children, (li) => li.textContent) : el.textContent, el.children.length])",
                article,
            )
            return (drawn, article.text) if drawn else None

        drawn, text = wait(driver, drawn_rules, "the rules' blocks")
        tags = {"heading": "H2", "paragraph": "P", "list": "UL"}
        expected = [
            [tags[b["kind"]], b["items"] if b["kind"] == "list" else b["text"], len(b["items"])] for b in blocks
        ]
        assert drawn == expected  # one element per block, its text as sent, no element made from the text
        check_players_words(text, lang)
        assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")
        shot = folder / f"web-rules-{game_id}-{lang}.png"
        driver.save_screenshot(str(shot))
        assert shot.stat().st_size > 10_000
