"""The web pages in Japanese in a real browser (issue 16): chosen by Accept-Language, switched and remembered.

One headless Chromium (as test_web_browser.py, through browser_support) whose
preferred language is Japanese: the lobby and a game page show Japanese text,
the page fits the window, and a screenshot of the game page is written to the
artifacts folder (`PINSETTER_ARTIFACTS`, else a temporary folder): `game-ja.png`.
The language switch then chooses English, which is remembered over reloads.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import CHROMEDRIVER, CHROMIUM, artifacts_folder, open_more_options, require_browser, wait

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def japanese_chrome() -> Any:
    """Headless Chromium whose user prefers Japanese (its Accept-Language is `ja`)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(arg)
    options.add_argument("--lang=ja")
    options.add_experimental_option("prefs", {"intl.accept_languages": "ja,en"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


@pytest.fixture(scope="module")
def driver(base: str) -> Iterator[WebDriver]:
    browser: WebDriver = japanese_chrome()
    browser.get(base + "/#/")
    browser.execute_script("localStorage.setItem('pinsetter.pace', '0')")
    yield browser
    browser.quit()


def text_of(driver: WebDriver, selector: str) -> str:
    return str(wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, selector).text.strip() or None, selector))


def test_a_game_page_in_japanese(driver: WebDriver, base: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    driver.get(base + "/#/")
    open_more_options(driver)
    assert text_of(driver, "#start") == "ゲームを始める"
    assert driver.execute_script("return document.documentElement.lang") == "ja"
    assert Select(driver.find_element(By.ID, "lang-switch")).first_selected_option.text == "日本語"
    assert driver.find_element(By.ID, "nav-play").text == "プレイ"
    driver.find_element(By.CSS_SELECTOR, "input[name=game][value=rolling-pins]").click()
    assert "ローリングピンズ" in driver.find_element(By.ID, "game-info").text + driver.find_element(By.ID, "app").text
    driver.find_element(By.ID, "start").click()
    wait(driver, lambda d: "#/game/" in d.current_url, "the game page opens")
    status = text_of(driver, "#status")
    assert JAPANESE.search(status), status
    assert text_of(driver, "#sheets-h") == "スコアシート"
    assert text_of(driver, "#log-h") == "ログ"
    choices = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#choices button"), "the dice choices")
    labels = [c.text for c in choices]
    assert "サイコロを1個振る" in labels, labels
    assert [c.get_attribute("data-action") for c in choices][:2] == ["dice 1", "dice 2"]  # notation stays as it is
    choices[1].click()  # two dice: the roll follows, then pins to cross out
    wait(driver, lambda d: d.find_elements(By.ID, "dice-caption"), "the roll")
    assert text_of(driver, "#dice-caption").startswith("出目")
    sheets = text_of(driver, "section[aria-labelledby=sheets-h]")
    assert "Player 1" in sheets and "プレイヤー" not in sheets  # a default name is a name: the same in every language
    assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")
    shot = artifacts_folder(tmp_path_factory) / "game-ja.png"
    driver.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000


def test_the_language_switch_is_remembered(driver: WebDriver, base: str) -> None:
    driver.get(base + "/#/rules/tenpins")
    assert text_of(driver, "h1") == "ルール: テンピンズ（サイコロ）"  # noqa: RUF001
    Select(driver.find_element(By.ID, "lang-switch")).select_by_value("en")
    wait(driver, lambda d: d.execute_script("return document.documentElement.lang") == "en", "English after the switch")
    assert text_of(driver, "h1") == "Rules: Ten Pins (dice)"
    assert driver.execute_script("return localStorage.getItem('pinsetter.lang')") == "en"
    driver.refresh()  # the browser still prefers Japanese: the choice wins
    wait(driver, lambda d: d.find_element(By.ID, "rules-text").text.startswith("Ten Pins (dice)"), "still English")
    assert driver.find_element(By.ID, "nav-play").text == "Play"
    Select(driver.find_element(By.ID, "lang-switch")).select_by_value("ja")
    wait(driver, lambda d: d.execute_script("return document.documentElement.lang") == "ja", "Japanese again")
    assert text_of(driver, "#rules-text").startswith("テンピンズ")


def test_api_errors_on_the_page_are_japanese(driver: WebDriver, base: str) -> None:
    driver.get(base + "/#/game/999999")
    error = text_of(driver, "#app .error")
    assert error == "ゲーム 999999 はありません"
