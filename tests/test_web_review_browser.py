"""What a newcomer's review of the web pages found (session 23), checked in Chromium.

1. A 40-letter name without spaces (the longest the form takes) never widens a page on a phone (390x844 CSS px):
   the game page, its end, the replay and the history wrap or cut it.
2. A banner cheering another player's ball (a bot's strike) never sits on the lane of the player now up.
3. The history on a phone: no sideways scrolling, and every game's links (Resume, Replay, Review) on the screen.
4. The table page at 1280 does not cut a short name.
5. A replay starts at its first step unless the address names one; the game's name is said once at the top.
6. Advanced Rolling Pins lists the abilities held in words, a count only where more than one is held.

Screenshots (`$PINSETTER_ARTIFACTS`): `review-<what>-<lang>-<width>.png`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from browser_support import require_browser, settle, wait

require_browser()

from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

from test_web_layout_browser import inside  # noqa: E402
from test_web_walkthrough_browser import human_move  # noqa: E402

View = dict[str, Any]
LONG = "W" * 40  # the longest name the form takes, without a space to break it at
PHONE, LAPTOP = (390, 844), (1280, 800)


@pytest.fixture(autouse=True)
def english_afterwards(driver: WebDriver, base: str) -> Any:
    yield
    driver.get(base + "/#/")
    driver.execute_script("localStorage.setItem('pinsetter.lang', 'en'); sessionStorage.clear()")


def open_page(driver: WebDriver, base: str, address: str, lang: str, size: tuple[int, int]) -> None:
    """`address` (a hash route) in `lang`, the page itself `size` CSS px, opened once (a game page plays its
    bots' moves as it opens)."""
    inside(driver, *size)
    driver.get(base + "/#/")
    driver.execute_script("localStorage.setItem('pinsetter.lang', arguments[0])", lang)
    driver.refresh()
    wait(driver, lambda d: d.execute_script("return document.documentElement.lang") == lang, f"the page in {lang}")
    driver.get(f"{base}/{address}")
    wait(driver, lambda d: d.execute_script("return document.documentElement.lang") == lang, f"the page in {lang}")


def page_width(driver: WebDriver) -> int:
    width: int = driver.execute_script("return document.documentElement.scrollWidth")
    return width


def new_game(api: httpx.Client, body: View, steps: int = 0) -> View:
    answer = api.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    view: View = answer.json()
    for _ in range(steps):
        if view["next"] == "over":
            break
        answer = api.post(f"/api/games/{view['id']}/advance", json={"until": "step"})
        answer.raise_for_status()
        view = answer.json()
    return view


def long_name_game(api: httpx.Client, steps: int) -> View:
    players = [{"name": LONG, "kind": "human"}, {"name": "Robo", "kind": "bot:random"}]
    return new_game(api, {"game": "tenpins", "options": {}, "players": players, "seed": 1}, steps)


# --- 1: a long name never widens a page -------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_long_name_without_spaces_never_widens_a_page_on_a_phone(
    driver: WebDriver, base: str, api: httpx.Client, artifacts: Path, lang: str
) -> None:
    playing = long_name_game(api, 5)
    over = long_name_game(api, 1000)
    assert over["next"] == "over"
    pages = {
        "game": f"#/game/{playing['id']}",
        "end": f"#/game/{over['id']}",
        "replay": f"#/history/{playing['id']}",
        "history": "#/history",
    }
    for what, address in pages.items():
        open_page(driver, base, address, lang, PHONE)
        if what in ("game", "end"):
            settle(driver)
        else:
            wait(driver, lambda d: d.find_elements("css selector", "main table"), f"the {what} page drawn")
        driver.save_screenshot(str(artifacts / f"review-longname-{what}-{lang}-390.png"))
        assert LONG in driver.find_element("css selector", "main").get_attribute("textContent"), what
        assert page_width(driver) <= PHONE[0], (what, lang, page_width(driver))


# --- 3: the history on a phone ------------------------------------------------------------------------------------

ROW_LINKS = """
return [...document.querySelectorAll('main tbody tr')].map((row) => ({
  links: [...row.querySelectorAll('a')].map((a) => { const r = a.getBoundingClientRect();
    return [a.textContent, r.left, r.right, r.width]; }),
  cells: [...row.querySelectorAll('td')].map((td) => td.scrollWidth - td.clientWidth),
}));
"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_history_on_a_phone_shows_every_game_and_its_links_without_sideways_scrolling(
    driver: WebDriver, base: str, api: httpx.Client, artifacts: Path, lang: str
) -> None:
    long_name_game(api, 3)  # unfinished: Resume
    for size in (PHONE, LAPTOP):
        open_page(driver, base, "#/history", lang, size)
        wait(driver, lambda d: d.find_elements("css selector", "main tbody tr"), "the history drawn")
        driver.save_screenshot(str(artifacts / f"review-history-{lang}-{size[0]}.png"))
        assert page_width(driver) <= size[0], (lang, size, page_width(driver))
        if size == LAPTOP:  # a table: its column heads whole, each on one line ("Scores", never "Scor / es")
            heads = driver.execute_script(
                "return [...document.querySelectorAll('main thead th')].map((th) => [th.textContent,"
                " th.getBoundingClientRect().height / parseFloat(getComputedStyle(th).lineHeight)])"
            )
            assert all(lines < 2 for _, lines in heads), heads
        rows = driver.execute_script(ROW_LINKS)
        assert rows
        for row in rows:
            # Every link (the game, Resume, Replay, Record...) on the screen, whole; no cell cut.
            assert len(row["links"]) >= 3, row
            for text, left, right, width in row["links"]:
                assert width > 0 and left >= 0 and right <= size[0], (size, text, left, right)
            assert all(extra <= 0 for extra in row["cells"]), row


# --- 4: a name is cut only where it does not fit -----------------------------------------------------------------

NAMES_CUT = """
return [...document.querySelectorAll('.player-name .name')]
  .map((e) => [e.textContent, e.scrollWidth > e.clientWidth]);
"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_players_card_cuts_a_name_only_where_it_does_not_fit(
    driver: WebDriver, base: str, api: httpx.Client, artifacts: Path, lang: str
) -> None:
    # The players' cards are the same on the game page and a table's page (js/players.js).
    players = [{"name": "Hanako Yamamoto-Smith", "kind": "human"}, {"name": "Robo", "kind": "bot:random"}]
    view = new_game(api, {"game": "tenpins", "options": {}, "players": players, "seed": 2})
    open_page(driver, base, f"#/game/{view['id']}", lang, LAPTOP)
    settle(driver)
    driver.save_screenshot(str(artifacts / f"review-cards-{lang}-1280.png"))
    cut = driver.execute_script(NAMES_CUT)
    assert cut[0] == ["Hanako Yamamoto-Smith", False] and not any(was for _, was in cut), cut
    # A word longer than the card is still cut short (its whole in the tooltip), never widening the page.
    players = [
        {"name": "Hana", "kind": "human"},
        {"name": LONG, "kind": "human"},
        {"name": "Robo", "kind": "bot:random"},
    ]
    view = new_game(api, {"game": "tenpins", "options": {}, "players": players, "seed": 2})
    open_page(driver, base, f"#/game/{view['id']}", lang, PHONE)
    settle(driver)
    cut = dict(driver.execute_script(NAMES_CUT))
    assert cut["Hana"] is False and cut[LONG] is True
    title = driver.execute_script("return document.querySelectorAll('.player-name .name')[1].title")
    assert title == LONG and page_width(driver) <= PHONE[0]


# --- 2: another player's strike is not cheered on the lane of the player up ------------------------------------


def marks(view: View, seat: int) -> int:
    """The strikes and spares on a player's sheet (each is cheered)."""
    return sum(frame["marks"].count("X") + frame["marks"].count("/") for frame in view["sheets"][seat]["frames"])


def step(api: httpx.Client, view: View) -> View:
    """One step through the API: Ann's decision her fixed way, else the bot's move or chance."""
    if view["next"] == "decision" and view["turn"] == 0:
        answer = api.post(f"/api/games/{view['id']}/actions", json={"action": human_move(view)})
    else:
        answer = api.post(f"/api/games/{view['id']}/advance", json={"until": "step"})
    answer.raise_for_status()
    result: View = answer.json()
    return result


def before_a_bots_mark(api: httpx.Client, game: str, bot: str) -> tuple[View, int]:
    """A seeded game of Ann and a bot played to the step before the bot's first strike or spare that passes the
    turn to Ann (the first seed that has one): (that game, the bot's marks after it)."""
    players = [{"name": "Ann", "kind": "human"}, {"name": "Robo", "kind": bot}]
    for seed in range(1, 40):
        body = {"game": game, "options": {}, "players": players, "seed": seed}
        view = new_game(api, body)
        steps = 0
        while view["next"] != "over":
            after = step(api, view)
            if marks(after, 1) > marks(view, 1) and after["turn"] == 0:
                # The same game again, played as far as the step before (this one is past it).
                again = new_game(api, body)
                for _ in range(steps):
                    again = step(api, again)
                assert again["log"] == view["log"]
                return again, marks(after, 1)
            view = after
            steps += 1
    raise AssertionError("the bot never struck")


BOTS = {"bowling-dice": "bot:random", "tenpins": "bot:random", "rolling-pins": "bot:greedy"}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", sorted(BOTS))
def test_a_bots_strike_is_not_cheered_on_the_lane_of_the_player_up(
    driver: WebDriver, base: str, api: httpx.Client, artifacts: Path, game: str, lang: str
) -> None:
    view, bot_marks = before_a_bots_mark(api, game, BOTS[game])
    assert view["turn"] == 1
    open_page(driver, base, f"#/game/{view['id']}", lang, PHONE)  # the page plays the bot's ball itself
    settle(driver)
    now = api.get(f"/api/games/{view['id']}").json()
    assert now["turn"] == 0 and marks(now, 1) == bot_marks  # the bot struck (or spared); Ann is up, on her lane
    still = (
        "const c = document.querySelector('#cheer');"
        " return !c || c.getAnimations().every((a) => a.playState !== 'running')"
    )
    wait(driver, lambda d: d.execute_script(still), "the banner never stood still")
    driver.save_screenshot(str(artifacts / f"review-cheer-{game}-{lang}-390.png"))
    cheer = driver.execute_script(
        "const c = document.querySelector('#cheer'); return c && [c.textContent, c.dataset.by || '', location.hash]"
    )
    # Never a bare "Strike!" over Ann's lane: the banner names the bot (or there is none).
    assert cheer is not None  # the bot's ball is cheered...
    label = driver.execute_script("return document.querySelectorAll('.player-name .name')[1].textContent")
    assert cheer[1] == label and label in cheer[0], cheer  # ...as the bot's


# --- 5: a replay starts at the start, says the game's name once --------------------------------------------------

REPLAY_TOP = """
const r = document.getElementById('replay');
const top = [...r.children].slice(0, [...r.children].findIndex((e) => e.classList.contains('stepper')));
return {step: r.dataset.step || '', top: top.map((e) => e.textContent),
  caption: (document.getElementById('step-caption') || {}).textContent || ''};
"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_replay_starts_at_the_start_and_names_the_game_once(
    driver: WebDriver, base: str, api: httpx.Client, artifacts: Path, lang: str
) -> None:
    players = [{"name": "Ann", "kind": "bot:greedy"}, {"name": "Robo", "kind": "bot:greedy"}]
    body = {"game": "rolling-pins", "options": {"advanced": True}, "players": players, "seed": 4}
    view = new_game(api, body, 3000)
    assert view["next"] == "over"
    total = len(api.get(f"/api/games/{view['id']}/record").json()["steps"])
    name = api.get(f"/api/games/{view['id']}", headers={"Accept-Language": lang}).json()["title"]
    for size in (PHONE, LAPTOP):
        open_page(driver, base, f"#/history/{view['id']}", lang, size)
        wait(driver, lambda d: d.execute_script(REPLAY_TOP)["step"], "no step drawn")
        driver.save_screenshot(str(artifacts / f"review-replay-{lang}-{size[0]}.png"))
        shown = driver.execute_script(REPLAY_TOP)
        first = f"Step 0 of {total}" if lang == "en" else f"{total} 手中 0 手目"
        assert shown["step"] == "0" and shown["caption"].startswith(first), shown
        assert sum(text.count(name) for text in shown["top"]) == 1, (name, shown["top"])  # the name said once
        assert page_width(driver) <= size[0]
    # A step named in the address opens there.
    open_page(driver, base, f"#/history/{view['id']}/5", lang, PHONE)
    wait(driver, lambda d: d.execute_script(REPLAY_TOP)["step"] == "5", "not at step 5")


# --- 6: the abilities held, in words ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_abilities_held_are_listed_in_words_a_count_only_above_one(
    driver: WebDriver, base: str, api: httpx.Client, artifacts: Path, lang: str
) -> None:
    players = [{"name": "Ann", "kind": "human"}, {"name": "Robo", "kind": "bot:greedy"}]
    body = {"game": "rolling-pins", "options": {"advanced": True}, "players": players, "seed": 3}
    view = new_game(api, body)
    while not (view["next"] == "decision" and view["turn"] == 0 and len(view["view"]["abilities"]) >= 2):
        assert view["next"] != "over", "Ann never held two abilities"
        view = step(api, view)
    held = api.get(f"/api/games/{view['id']}", headers={"Accept-Language": lang}).json()["view"]["abilities"]
    open_page(driver, base, f"#/game/{view['id']}", lang, PHONE)
    settle(driver)
    driver.save_screenshot(str(artifacts / f"review-abilities-{lang}-390.png"))
    shown = driver.execute_script(
        "return [...document.querySelectorAll('#abilities summary')].map((s) => s.textContent)"
    )
    count = "{} ({})" if lang == "en" else "{}\uff08{}\uff09"  # full-width brackets in Japanese
    assert shown == [a["title"] if a["held"] == 1 else count.format(a["title"], a["held"]) for a in held], shown
    assert not any("\u00d7" in text for text in shown)  # no multiplication sign


GAME_TOP = """
const root = document.getElementById('game-title').parentElement;
const grid = root.querySelector('.game-grid');
return [...root.children].slice(0, [...root.children].indexOf(grid)).map((e) => e.textContent).join('\\n');
"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_game_page_names_its_game_once_with_its_options(
    driver: WebDriver, base: str, api: httpx.Client, lang: str
) -> None:
    players = [{"name": "Ann", "kind": "human"}]
    view = new_game(api, {"game": "rolling-pins", "options": {"advanced": True}, "players": players, "seed": 3})
    heading = api.get(f"/api/games/{view['id']}", headers={"Accept-Language": lang}).json()
    title, variant = heading["title"], heading["variant"]
    assert variant != title and title in variant  # "Rolling Pins, advanced" names the game and its options
    open_page(driver, base, f"#/game/{view['id']}", lang, PHONE)
    wait(driver, lambda d: d.find_elements("id", "game-title"), "no heading")
    top = driver.execute_script(GAME_TOP)
    assert top.count(title) == 1 and variant in top, top
