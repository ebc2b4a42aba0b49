"""What a newcomer met on the game page in Chromium (session 22's walkthrough, fixed in session 23).

1. A hint shows the best five options, best first, and a button to show every one (Rolling Pins offers up to
   35, which pushed the scoresheets far down); the option the player's pick makes is always shown, marked.
2. Bowling Solitaire says the cards were dealt until a play turns a card up (it said "turned up a 2" before
   any play), and its strip of cards seen says what it counts, the same words on the screen and for a
   screen reader.
3. Learn mode points at "the buttons under the pins", not "under the table" (there are online tables).
4. On a phone (390x844 CSS px) Rolling Pins' and Solitaire's choices are in the first screen, in English and
   Japanese; on a laptop (1280x800) the board keeps its layout (what lies on the table beside the lane, the
   legend under the lane, the choices under both).

Screenshots (`$PINSETTER_ARTIFACTS`): `reach-<position>-<lang>-<width>.png` of the first screen, and
`hint-folded.png`, `hint-all.png`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from browser_support import game_state, require_browser, settle, wait

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

from test_web_layout_browser import inside  # noqa: E402

View = dict[str, Any]
ANN = {"name": "Ann", "kind": "human"}
GREEDY = {"name": "Robo", "kind": "bot:greedy"}
PHONE, LAPTOP = (390, 844), (1280, 800)


def human_move(view: View) -> str:
    """Ann's fixed way to play: a box on the track, else two dice, else the first pick, else the first action."""
    table = view["view"]
    marks = [area["action"] for area in table["track"] if area["action"]]
    if marks:
        return str(marks[0])
    if "dice 2" in view["legal_actions"]:
        return "dice 2"
    picks = [c["action"] for c in table["choices"] if c["by_selection"]]
    return str((picks or view["legal_actions"])[0])


def play_until(api: httpx.Client, body: View, wanted: Callable[[View], bool]) -> View:
    """A new game played through the API (Ann's way, the bots, chance) until Ann's decision is `wanted`."""
    answer = api.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    view: View = answer.json()
    for _ in range(1000):
        if view["next"] == "decision" and view["turn"] == 0 and wanted(view):
            return view
        assert view["next"] != "over", "the game ended before the position wanted"
        if view["next"] == "decision" and view["turn"] == 0:
            answer = api.post(f"/api/games/{view['id']}/actions", json={"action": human_move(view)})
        else:
            answer = api.post(f"/api/games/{view['id']}/advance", json={"until": "step"})
        answer.raise_for_status()
        view = answer.json()
    raise AssertionError("the position wanted never came")


def open_in(driver: WebDriver, base: str, game_id: int, lang: str, size: tuple[int, int]) -> None:
    """The game page in `lang`, the page itself `size` CSS px, settled."""
    inside(driver, *size)
    driver.get(base + "/#/")
    driver.execute_script("localStorage.setItem('pinsetter.lang', arguments[0])", lang)
    driver.get(f"{base}/#/game/{game_id}")
    driver.refresh()
    wait(driver, lambda d: d.execute_script("return document.documentElement.lang") == lang, f"the page in {lang}")
    settle(driver)


def picks(view: View) -> list[View]:
    return [c for c in view["view"]["choices"] if c["by_selection"]]


def buttons(view: View) -> list[View]:
    return [c for c in view["view"]["choices"] if not c["by_selection"]]


@pytest.fixture(autouse=True)
def english_afterwards(driver: WebDriver, base: str) -> Any:
    yield
    driver.get(base + "/#/")
    driver.execute_script("localStorage.setItem('pinsetter.lang', 'en'); sessionStorage.clear()")


# --- 4: a phone's first screen holds the choices; a laptop keeps its board ------------------------------------

POSITIONS: dict[str, tuple[View, Callable[[View], bool]]] = {
    # Before a roll: one die or two.
    "rolling-pins-dice": (
        {"game": "rolling-pins", "options": {}, "players": [ANN, GREEDY], "seed": 3},
        lambda v: "dice 2" in v["legal_actions"],
    ),
    # After a roll: Play, Clear and Miss.
    "rolling-pins-pick": (
        {"game": "rolling-pins", "options": {}, "players": [ANN, GREEDY], "seed": 3},
        lambda v: bool(picks(v)),
    ),
    # The advanced game: its variant line above, an ability to use among the choices, the track under them.
    "rolling-pins-advanced": (
        {"game": "rolling-pins", "options": {"advanced": True}, "players": [ANN, GREEDY], "seed": 3},
        lambda v: bool(picks(v)) and len(buttons(v)) >= 2,
    ),
    # Ball piles, discards and the cards seen beside the lane, Stop this ball among the choices.
    "bowling-solitaire": ({"game": "bowling-solitaire", "options": {}, "players": [ANN], "seed": 6}, lambda v: True),
}

# Where the board's parts are: the lane, what lies beside it, the legend, and every button of the choices.
PLACES = """
const box = (css) => { const e = document.querySelector(css); if (!e) return null;
  const r = e.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
return {
  lane: box('#table .lane'), legend: box('#table .pin-legend'), actions: box('#actions'),
  beside: box('#table .piles') || box('#table .dice-box'),
  buttons: [...document.querySelectorAll('#actions button')]
    .map((b) => [b.textContent, b.getBoundingClientRect().bottom]),
  wide: document.documentElement.scrollWidth, inner: [innerWidth, innerHeight],
};
"""


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("position", sorted(POSITIONS))
def test_a_phone_shows_the_choices_in_the_first_screen_and_a_laptop_keeps_its_board(
    driver: WebDriver, base: str, api: httpx.Client, artifacts: Path, position: str, lang: str
) -> None:
    body, wanted = POSITIONS[position]
    view = play_until(api, body, wanted)
    for size in (PHONE, LAPTOP):
        open_in(driver, base, view["id"], lang, size)
        driver.save_screenshot(str(artifacts / f"reach-{position}-{lang}-{size[0]}.png"))
        places = driver.execute_script(PLACES)
        width, height = size
        assert places["inner"] == [width, height] and places["wide"] <= width  # nothing wider than the screen
        shown = [text for text, _ in places["buttons"]]
        assert len(shown) == (2 if picks(view) else 0) + len(buttons(view)), shown  # Play and Clear, the choices
        lane, legend, beside, actions = places["lane"], places["legend"], places["beside"], places["actions"]
        if size == PHONE:
            # Every choice within the first screen, right under the lane (and what lies beside it); the legend
            # after them.
            assert all(bottom <= height for _, bottom in places["buttons"]), (position, lang, places["buttons"])
            assert lane["bottom"] <= actions["top"] <= max(lane["bottom"], beside["bottom"]) + 20, (lane, actions)
            assert legend["top"] >= actions["bottom"], (legend, actions)
        else:
            # A laptop's board as it was: the legend under the lane, the choices under both.
            assert lane["bottom"] <= legend["top"] < actions["top"], (lane, legend, actions)
            assert legend["left"] < lane["right"]  # under the lane, not beside it
        # What lies on the table is beside the lane, at both sizes.
        assert beside["left"] >= lane["right"] and beside["top"] < lane["bottom"], (size, beside, lane)


# --- 1: a hint shows the best few and the pick's option; a button shows them all ----------------------------


def hint_list(driver: WebDriver) -> list[tuple[int, str, bool]]:
    """The hint's options shown: (rank, words, marked as the pick's)."""
    shown: list[list[Any]] = driver.execute_script(
        "return [...document.querySelectorAll('#hint .hint-words li')]"
        ".map((li) => [li.value, li.textContent, li.classList.contains('hint-mine')])"
    )
    return [(rank, text, mine) for rank, text, mine in shown]


def click_pins(driver: WebDriver, pins: list[int]) -> None:
    for pin in pins:
        driver.find_element(By.CSS_SELECTOR, f"button[data-pin='{pin}']").click()


def test_a_hint_shows_the_best_five_the_picks_option_and_all_on_request(
    driver: WebDriver, base: str, api: httpx.Client, artifacts: Path
) -> None:
    body = {"game": "rolling-pins", "options": {}, "players": [ANN, GREEDY], "seed": 3}
    view = play_until(api, body, lambda v: len(v["legal_actions"]) >= 12)
    hint = api.get(f"/api/games/{view['id']}/hint").json()
    count = len(hint["words"])
    assert count >= 12
    open_in(driver, base, view["id"], "en", LAPTOP)
    driver.find_element(By.ID, "hint-button").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#hint .hint-words li"), "no hint shown")
    shown = hint_list(driver)
    assert [rank for rank, _, _ in shown] == [1, 2, 3, 4, 5]
    assert [text for _, text, _ in shown] == hint["words"][:5] and shown[0][1].endswith("(best)")
    more = driver.find_element(By.ID, "hint-all")
    assert more.text == f"Show all {count} options" and more.get_attribute("aria-expanded") == "false"
    driver.save_screenshot(str(artifacts / "hint-folded.png"))

    # The pick makes the 10th option: it is shown too, in its place (10), and marked as the pick's in words.
    by_action = {c["action"]: c for c in picks(view)}
    tenth = next(i for i, o in enumerate(hint["options"]) if i >= 9 and o["action"] in by_action)
    click_pins(driver, by_action[hint["options"][tenth]["action"]]["pins"])
    shown = hint_list(driver)
    assert [rank for rank, _, _ in shown] == [1, 2, 3, 4, 5, tenth + 1]
    assert shown[-1] == (tenth + 1, f"{hint['words'][tenth]} (your pick)", True)
    assert not any(mine for _, _, mine in shown[:-1])
    driver.find_element(By.ID, "clear-selection").click()
    # A pick among the best five: those five, that one marked.
    second = next(i for i, o in enumerate(hint["options"][:5]) if o["action"] in by_action)
    click_pins(driver, by_action[hint["options"][second]["action"]]["pins"])
    assert [(rank, mine) for rank, _, mine in hint_list(driver)] == [(i + 1, i == second) for i in range(5)]
    driver.find_element(By.ID, "clear-selection").click()

    # Every option on request, and back to the best five.
    driver.find_element(By.ID, "hint-all").click()
    shown = hint_list(driver)
    assert [rank for rank, _, _ in shown] == list(range(1, count + 1))
    assert [text for _, text, _ in shown] == hint["words"]
    fewer = driver.find_element(By.ID, "hint-all")
    assert fewer.text == "Show only the best 5" and fewer.get_attribute("aria-expanded") == "true"
    driver.save_screenshot(str(artifacts / "hint-all.png"))
    fewer.click()
    assert len(hint_list(driver)) == 5

    # In Japanese (the page reloads and opens the hint again), the button's words too.
    open_in(driver, base, view["id"], "ja", LAPTOP)
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#hint .hint-words li"), "no hint after the switch")
    assert len(hint_list(driver)) == 5
    assert driver.find_element(By.ID, "hint-all").text == f"{count} 個の選択肢をすべて見る"


def test_a_short_hint_shows_every_option_without_a_button(driver: WebDriver, base: str, api: httpx.Client) -> None:
    body = {"game": "rolling-pins", "options": {}, "players": [ANN, GREEDY], "seed": 3}
    view = play_until(api, body, lambda v: "dice 2" in v["legal_actions"])  # one die or two: two options
    open_in(driver, base, view["id"], "en", LAPTOP)
    driver.find_element(By.ID, "hint-button").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#hint .hint-words li"), "no hint shown")
    assert [rank for rank, _, _ in hint_list(driver)] == [1, 2]
    assert not driver.find_elements(By.ID, "hint-all")


# --- 2: Solitaire's deal and its cards seen, in words ---------------------------------------------------------

SEEN = """
const strip = document.getElementById('seen');
return {caption: document.getElementById('dice-caption').textContent, label: strip.getAttribute('aria-label'),
  heading: strip.querySelector('.card-heading').textContent, count: document.getElementById('seen-count').textContent};
"""


# In each language: the deal, the strip's heading, its count, and what a screen reader hears of the strip.
STRIP_WORDS = {
    "en": ("dealt the cards", "Cards seen this frame", "{n} cards not seen yet", "Cards seen this frame: {cards}; "),
    "ja": (
        "カードを配りました",
        "このフレームで出たカード",
        "まだ出ていないカード {n} 枚",
        "このフレームで出たカード: {cards}、",
    ),
}
TURNED_UP = {"en": "turned up a {card}", "ja": "{card} をめくりました"}


@pytest.mark.parametrize("lang", sorted(STRIP_WORDS))
def test_solitaire_says_the_deal_then_each_card_turned_up_and_what_its_strip_counts(
    driver: WebDriver, base: str, api: httpx.Client, lang: str
) -> None:
    dealt, heading, count, reader = STRIP_WORDS[lang]
    body = {"game": "bowling-solitaire", "options": {}, "players": [ANN], "seed": 6}
    view = play_until(api, body, lambda v: True)
    open_in(driver, base, view["id"], lang, LAPTOP)
    table = view["view"]
    unseen = sum(table["unseen"].values())
    comma = ", " if lang == "en" else "、"
    said = driver.execute_script(SEEN)
    assert said == {
        "caption": dealt,  # no play yet: nothing was turned up by one
        "heading": heading,
        "count": count.format(n=unseen),
        "label": reader.format(cards=comma.join(table["seen"])) + count.format(n=unseen),
    }
    # A play: the card under the played pile's top is turned up, and said.
    choice = picks(view)[0]
    driver.find_element(By.CSS_SELECTOR, f"button[data-pile='{choice['pile']}']").click()
    click_pins(driver, choice["pins"])
    driver.find_element(By.ID, "play-selection").click()
    before = view["log"][-1]["step"]
    wait(driver, lambda d: int(game_state(d)["steps"] or 0) > before + 1, "the play and its card not drawn")
    settle(driver)
    after = api.get(f"/api/games/{view['id']}").json()
    last = after["log"][-1]
    assert last["actor"] == "chance"  # the last step turned a card up
    card = last["text"]
    said = driver.execute_script(SEEN)
    turned = TURNED_UP[lang].format(card=card)
    assert said["caption"] == (turned.replace(" a 8", " an 8") if lang == "en" else turned)
    unseen = sum(after["view"]["unseen"].values())
    assert said["count"] == count.format(n=unseen) and said["label"].endswith(count.format(n=unseen))


# --- 3: learn mode points at the buttons under the pins ---------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Choose with the buttons under the pins; each shows its key."),
        ("ja", "ピンの下のボタンで選びます。各ボタンにキーが表示されています。"),
    ],
)
def test_learn_mode_points_at_the_buttons_under_the_pins(
    driver: WebDriver, base: str, api: httpx.Client, lang: str, words: str
) -> None:
    body = {"game": "rolling-pins", "options": {}, "players": [ANN], "learn": True, "seed": 3}
    game_id = api.post("/api/games", json=body).json()["id"]
    for size in (LAPTOP, PHONE):
        open_in(driver, base, game_id, lang, size)
        told = [p.text for p in driver.find_elements(By.CSS_SELECTOR, "#lesson .lesson-do")]
        assert words in told
        # The words are true of the page: the choice buttons are under the pins, at both sizes.
        lane, choices = driver.execute_script(
            "return [document.querySelector('#table .lane').getBoundingClientRect().bottom,"
            " document.getElementById('choices').getBoundingClientRect().top]"
        )
        assert choices >= lane, (size, lane, choices)
