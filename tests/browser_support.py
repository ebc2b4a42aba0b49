"""What the browser test modules share: the system Chromium, the app served in a thread, waits, artifacts.

`require_browser()` skips the calling module with a one-line reason when
chromium, chromedriver or selenium is missing, except under `CI=true`, where
the browser tests must run and it fails loudly instead.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("PINSETTER_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("PINSETTER_CHROMEDRIVER", "/usr/bin/chromedriver")
WAIT = 60  # seconds: generous, so a loaded machine slows the tests down instead of failing them


def missing() -> str | None:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (Path(path).is_file() or shutil.which(path)):
            return f"{path} is not installed"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed"
    return None


def require_browser() -> None:
    """Call at module level, before importing selenium."""
    why = missing()
    if why is None:
        return
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"browser tests must run under CI=true, but {why}")
    pytest.skip(f"browser tests skipped: {why}", allow_module_level=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def served(db: Path) -> Iterator[str]:
    """The app under uvicorn (as `pinsetter serve` runs it) in a background thread over `db`; yields its base URL."""
    import uvicorn

    from pinsetter.web.app import create_app
    from pinsetter.web.server import server_config

    port = free_port()
    server = uvicorn.Server(server_config(create_app(str(db)), "127.0.0.1", port))  # as `pinsetter serve` runs it
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    ready = threading.Event()
    deadline = time.monotonic() + WAIT  # a ceiling, not a pace: a loaded machine starts it in seconds
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        ready.wait(0.05)
    assert server.started, "the server did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def artifacts_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: `PINSETTER_ARTIFACTS`, else a temporary folder (printed)."""
    folder = Path(os.environ.get("PINSETTER_ARTIFACTS") or tmp_path_factory.mktemp("artifacts"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"screenshots in {folder}")
    return folder


def chrome() -> Any:
    """A headless Chromium session with a profile of its own (its own localStorage)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


@contextmanager
def chrome_sessions(count: int) -> Iterator[list[Any]]:
    """`count` Chromium sessions, each with its own profile (and so its own tokens), all quit afterwards."""
    sessions: list[Any] = []
    try:
        for _ in range(count):
            sessions.append(chrome())
        yield sessions
    finally:
        for session in sessions:
            session.quit()


def wait(driver: Any, condition: Any, message: str = "") -> Any:
    """Wait for `condition` (a ceiling, never a measurement), ignoring elements redrawn meanwhile."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    ignored = (StaleElementReferenceException,)
    return WebDriverWait(driver, WAIT, poll_frequency=0.05, ignored_exceptions=ignored).until(condition, message)


def open_more_options(driver: Any) -> None:
    """Open the front page's "More options" (players, options, seed, games to resume, upload) if it is closed."""
    from selenium.webdriver.common.by import By

    details = wait(driver, lambda d: d.find_element(By.ID, "more-options"), "no More options on the front page")
    if details.get_attribute("open") is None:
        driver.find_element(By.ID, "more-summary").click()
    wait(driver, lambda d: d.find_element(By.ID, "start").is_displayed(), "More options did not open")


def full_screenshot(driver: Any, path: Path) -> None:
    """The whole page from its top at the window's width (at most 4000 px tall), the window then as it was."""
    width, height = driver.get_window_size()["width"], driver.get_window_size()["height"]
    driver.execute_script("window.scrollTo(0, 0)")
    full = int(driver.execute_script("return document.documentElement.scrollHeight"))
    driver.set_window_size(width, min(max(full, height), 4000))
    driver.save_screenshot(str(path))
    driver.set_window_size(width, height)


def set_theme(driver: Any, theme: str) -> None:
    """Light or dark, as the header's toggle remembers it; the page is reloaded to draw it."""
    driver.execute_script("localStorage.setItem('pinsetter.theme', arguments[0])", theme)
    driver.refresh()


def game_state(driver: Any) -> dict[str, str]:
    """The game page's state as its data attributes say it: busy, who acts next, steps played, the error shown."""
    state: dict[str, str] = driver.execute_script(
        "const g = document.getElementById('game');"
        "return g ? {busy: g.dataset.busy || '', next: g.dataset.next || '', steps: g.dataset.steps || '',"
        " error: (document.getElementById('game-error') || {}).textContent || ''} : {busy: '1'};"
    )
    return state


def settle(driver: Any) -> dict[str, str]:
    """Wait until the game page waits for a human (or the game is over)."""

    def idle(d: Any) -> dict[str, str] | None:
        state = game_state(d)
        return state if state.get("busy") == "0" and state.get("next") in ("decision", "roll", "over") else None

    result: dict[str, str] = wait(driver, idle, "the game page did not settle")
    return result


def lobby_form(driver: Any, base: str, game: str) -> None:
    """The front page reloaded, More options open and `game` chosen: the lobby form, ready to fill in."""
    from selenium.webdriver.common.by import By

    driver.get(base + "/#/")
    driver.refresh()
    open_more_options(driver)
    driver.find_element(By.CSS_SELECTOR, f"input[name=game][value='{game}']").click()


def table_form(driver: Any, base: str, game: str, frames: int) -> None:
    """The lobby form for a table of two human seats of `game`, `frames` long, its table options open."""
    from selenium.webdriver.common.by import By

    lobby_form(driver, base, game)
    field = driver.find_element(By.ID, "opt-frames")
    field.clear()
    field.send_keys(str(frames))
    driver.find_element(By.ID, "add-human").click()
    driver.find_element(By.CSS_SELECTOR, "#table-options summary").click()


def pictures_at_both_widths(driver: Any, folder: Path, name: str, ready: Any) -> None:
    """`name`-{1280,390}-{light,dark}.png of the whole page, redrawn per theme; then 1280 px, light, redrawn."""
    for width in (1280, 390):
        driver.set_window_size(width, 900)
        for theme in ("light", "dark"):
            set_theme(driver, theme)
            wait(driver, ready, f"the page never drew again in the {theme} theme")
            full_screenshot(driver, folder / f"{name}-{width}-{theme}.png")
    driver.set_window_size(1280, 900)
    set_theme(driver, "light")
    wait(driver, ready, "the page never drew again in the light theme")
