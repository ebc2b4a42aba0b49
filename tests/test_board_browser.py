"""The boards in a real browser (issue 25, items 1 and 2): pictures and motion.

Each game's board is drawn as a board-game table (js/board.js and js/board/*.js):
pins as bowling-pin shapes in their triangle on a lane, dice with pips or
Bowling Dice faces on a tray, Bowling Solitaire's cards as cards with their
piles' depth, the discards and the seen cards, tokens as chips and the advanced
Rolling Pins ability track as its printed sheet. Every pin state has a mark of
its own besides colour, and words. Motion (dice roll, cards turn, pins fall, a
strike or spare cheered) is short, skippable and absent under
`prefers-reduced-motion: reduce`; nothing the player aims at moves between moves.

Positions are set up through the API (seeded), then drawn in headless Chromium.
Screenshots of every game at start and mid-game, 1280 and 390 px wide, light and
dark, go to `PINSETTER_ARTIFACTS` (else a temporary folder):
`board-<game>-<stage>-<width>-<theme>.png`.

Skipped with a one-line reason when chromium or chromedriver is missing, except
under `CI=true`, where it fails loudly instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from browser_support import chrome, require_browser, wait

require_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

ANN = [{"name": "Ann", "kind": "human"}]
TRIANGLE = [[7, 8, 9, 10], [4, 5, 6], [2, 3], [1]]
PIN_OUTLINE = "M20 2C24.6 2"  # how js/board/shapes.js's PIN_PATH begins: a bowling pin, not a circle


@pytest.fixture(scope="module")
def driver(base: str) -> Iterator[WebDriver]:
    browser: WebDriver = chrome()
    browser.get(base + "/#/")
    browser.execute_script(
        "localStorage.setItem('pinsetter.pace', '0'); localStorage.setItem('pinsetter.theme', 'light')"
    )
    yield browser
    browser.quit()


@pytest.fixture
def fresh(driver: WebDriver) -> Iterator[WebDriver]:
    """The module's browser at 1280 px, light theme, full motion; put back so after each test."""
    driver.set_window_size(1280, 900)
    yield driver
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    driver.execute_script("localStorage.setItem('pinsetter.theme', 'light')")
    driver.set_window_size(1280, 900)


# --- positions, set up through the API ---------------------------------------------------------


def new_game(
    api: httpx.Client,
    game: str,
    options: dict[str, Any] | None = None,
    seed: int = 1,
    players: list[dict[str, str]] | None = None,
) -> dict[str, Any]:
    answer = api.post(
        "/api/games", json={"game": game, "options": options or {}, "players": players or ANN, "seed": seed}
    )
    assert answer.status_code == 201, answer.text
    view: dict[str, Any] = answer.json()
    return view


def step(api: httpx.Client, view: dict[str, Any], action: str | None = None) -> dict[str, Any]:
    """One step: the given action, else the chance outcome or bot move that is next."""
    if action is None:
        answer = api.post(f"/api/games/{view['id']}/advance", json={"until": "step"})
    else:
        answer = api.post(f"/api/games/{view['id']}/actions", json={"action": action})
    assert answer.status_code == 200, answer.text
    after: dict[str, Any] = answer.json()
    return after


def first_pick(view: dict[str, Any]) -> str | None:
    picks = [c["action"] for c in view["view"]["choices"] if c["by_selection"]]
    return picks[0] if picks else None


def play_until(
    api: httpx.Client, view: dict[str, Any], done: Callable[[dict[str, Any]], bool], prefer: tuple[str, ...] = ()
) -> dict[str, Any]:
    """Play on (chance, then the first pick, else the first offered action starting with one of `prefer`)."""
    for _ in range(600):
        if done(view):
            return view
        assert view["next"] != "over", "the game ended first"
        if view["next"] != "decision":
            view = step(api, view)
            continue
        legal = view["legal_actions"]
        wanted = [a for p in prefer for a in legal if a.startswith(p)]
        view = step(api, view, first_pick(view) or (wanted or legal)[0])
    raise AssertionError("the position never came")


def mid_game(api: httpx.Client, game: str, options: dict[str, Any] | None = None, seed: int = 1) -> dict[str, Any]:
    """A game some steps in, waiting for the human (a decision where the game has them).

    Its seed is not the one given: the server hands back an untouched game of the same seed and
    players instead of starting another, and the game at its start is wanted beside this one.
    """
    view = new_game(api, game, options, seed + 100)
    steps = 0

    def far(v: dict[str, Any]) -> bool:
        nonlocal steps
        steps += 1
        return steps > 14 and v["next"] in ("decision", "roll") and (v["next"] == "decision" or not v["has_decisions"])

    return play_until(api, view, far, prefer=("dice 2", "mark"))


# --- the page ------------------------------------------------------------------------------------------


def open_game(driver: WebDriver, base: str, game_id: int) -> None:
    driver.get(f"{base}/#/game/{game_id}")
    driver.refresh()
    settle(driver)


def settle(driver: WebDriver) -> dict[str, str]:
    def idle(d: WebDriver) -> dict[str, str] | None:
        state: dict[str, str] = d.execute_script(
            "const g = document.getElementById('game');"
            "return g && document.querySelector('#table .board')"
            " ? {busy: g.dataset.busy, next: g.dataset.next, steps: g.dataset.steps} : null"
        )
        return state if state and state["busy"] == "0" else None

    found: dict[str, str] = wait(driver, idle, "the board was not drawn")
    return found


def click_and_settle(driver: WebDriver, css: str) -> dict[str, str]:
    before = settle(driver)["steps"]
    driver.find_element(By.CSS_SELECTOR, css).click()
    wait(
        driver, lambda d: d.execute_script("return document.getElementById('game').dataset.steps") != before, "no step"
    )
    return settle(driver)


PIN_FACTS = """
// How opaque a part of a pin is drawn: its opacity and that of every group it lies in, up to the pin.
const seen = (part, pin) => {
  let alpha = 1;
  for (let at = part; at && at !== pin; at = at.parentElement) alpha *= Number(getComputedStyle(at).opacity);
  return part ? alpha : 1;
};
const pins = [...document.querySelectorAll('#table .triangle .pin-row')].map((row) =>
  [...row.children].map((el) => {
    const r = el.getBoundingClientRect();
    const has = (css) => Boolean(el.querySelector(css));
    return {
      number: Number(el.dataset.pin), x: r.left + r.width / 2, y: r.top + r.height / 2, bottom: r.bottom,
      tag: el.tagName, disabled: Boolean(el.disabled), pressed: el.getAttribute('aria-pressed'),
      words: el.getAttribute('aria-label') || '',
      outline: (el.querySelector('.body') || {getAttribute: () => ''}).getAttribute('d') || '',
      marks: {upright: has('.upright'), fallen: has('.fallen'), hatch: has('.hatch'), diamond: has('.grey-mark'),
              tick: has('.tick-badge'), spot: has('.spot'), barred: has('.blocked-sign')},
      faded: seen(el.querySelector('.upright .pin-shape'), el),
      print: Math.min(1, ...[...el.querySelectorAll('.upright text')].map((t) => seen(t, el))),
    };
  }));
return pins;
"""


def pin_rows(driver: WebDriver) -> list[list[dict[str, Any]]]:
    rows: list[list[dict[str, Any]]] = driver.execute_script(PIN_FACTS)
    return rows


def assert_triangle(rows: list[list[dict[str, Any]]]) -> None:
    """Pin shapes in the 1 / 2 3 / 4 5 6 / 7 8 9 10 triangle, back row on top, the head pin nearest."""
    assert [[p["number"] for p in row] for row in rows] == TRIANGLE
    assert all(p["outline"].startswith(PIN_OUTLINE) for row in rows for p in row), "pins are drawn as pin shapes"
    middles = [sum(p["y"] for p in row) / len(row) for row in rows]
    assert middles == sorted(middles) and len(set(middles)) == 4, "each row in front of the one before it"
    for row in rows:
        xs = [p["x"] for p in row]
        assert xs == sorted(xs) and abs(sum(xs) / len(xs) - rows[-1][0]["x"]) < 2, "rows centred on the head pin"


# --- pictures ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "options"), [("rolling-pins", {"advanced": "true"}), ("bowling-solitaire", {})])
def test_pins_are_pin_shapes_in_the_triangle_at_start_and_mid_game(
    fresh: WebDriver, base: str, api: httpx.Client, game: str, options: dict[str, Any]
) -> None:
    start = new_game(api, game, options, seed=3)
    if start["next"] == "roll":  # a deal to turn up first
        api.post(f"/api/games/{start['id']}/advance", json={"until": "rolls"})
    for view in (start, mid_game(api, game, options, seed=3)):
        open_game(fresh, base, view["id"])
        rows = pin_rows(fresh)
        assert_triangle(rows)
        table = api.get(f"/api/games/{view['id']}").json()["view"]
        for pin in (p for row in rows for p in row):
            spot = next(p for p in table["pins"] if p["number"] == pin["number"])
            assert ("down" in pin["words"]) == spot["down"] and pin["marks"]["fallen"] == spot["down"]
            assert pin["disabled"] == (not spot["selectable"])


@pytest.mark.parametrize("game", ["tenpins", "bowling-dice"])
def test_a_rack_counted_without_names_stands_that_many_pins(
    fresh: WebDriver, base: str, api: httpx.Client, game: str
) -> None:
    view = play_until(api, new_game(api, game, seed=5), lambda v: v["view"]["standing"] not in (None, 10))
    open_game(fresh, base, view["id"])
    standing = view["view"]["standing"]
    facts = fresh.execute_script(
        "const rack = document.querySelector('#table .rack');"
        "return {words: rack.getAttribute('aria-label'),"
        " rows: [...rack.querySelectorAll('.pin-row')].map(r => r.children.length),"
        " up: rack.querySelectorAll('.rack-pin:not(.down) .upright').length,"
        " down: rack.querySelectorAll('.rack-pin.down .fallen').length,"
        " outline: rack.querySelector('.body').getAttribute('d')}"
    )
    assert facts["rows"] == [4, 3, 2, 1] and facts["outline"].startswith(PIN_OUTLINE)
    assert facts["up"] == standing and facts["down"] == 10 - standing
    assert facts["words"] == f"{standing} pins standing" or facts["words"] == f"{standing} pin standing"
    assert fresh.find_element(By.ID, "standing").text == facts["words"]
    # The dice shown are a roll already played: marked as the last one, and whose.
    assert fresh.find_element(By.ID, "dice-previous").text == "Ann's last roll"
    assert fresh.find_elements(By.CSS_SELECTOR, ".dice-box.previous .tray .die")


def test_every_pin_state_has_its_own_mark_and_words(fresh: WebDriver, base: str, api: httpx.Client) -> None:
    """Standing, down, grey, picked, playable and not playable: told apart by shape, not colour alone."""

    def varied(v: dict[str, Any]) -> bool:
        pins = v["view"]["pins"]
        standing = [p for p in pins if not p["down"]]
        return (
            v["next"] == "decision"
            and v["view"]["selection"] is not None
            and sum(p["selectable"] for p in standing) >= 2
            and any(not p["selectable"] for p in standing)
            and any(p["down"] for p in pins)
            and any(p["grey"] and not p["down"] for p in pins)
        )

    view = play_until(
        api, new_game(api, "rolling-pins", {"advanced": "true"}, seed=2), varied, prefer=("dice 2", "mark")
    )
    open_game(fresh, base, view["id"])
    table = view["view"]
    picked = next(p["number"] for p in table["pins"] if p["selectable"])
    fresh.find_element(By.CSS_SELECTOR, f"button[data-pin='{picked}']").click()
    pins = {p["number"]: p for row in pin_rows(fresh) for p in row}
    spots = {p["number"]: p for p in table["pins"]}

    def state_of(n: int) -> set[str]:
        spot, shown = spots[n], set()
        shown.add("down" if spot["down"] else "standing")
        if spot["grey"]:
            shown.add("grey")
        if n == picked:
            shown.add("picked")
        elif not spot["down"]:
            shown.add("playable" if spot["selectable"] else "blocked")
        return shown

    marks = {
        "standing": "upright",
        "down": "fallen",
        "grey": "hatch",
        "picked": "tick",
        "playable": "spot",
        "blocked": "barred",
    }
    words = {
        "standing": "standing",
        "down": "down",
        "grey": "grey",
        "picked": "picked",
        "playable": "can be picked",
        "blocked": "cannot be picked now",
    }
    seen: set[str] = set()
    for number, pin in pins.items():
        states = state_of(number)
        seen |= states
        for state, mark in marks.items():
            # A picked pin stands on its spot too (it can be unpicked): its own mark is the tick.
            expected = state in states or (state == "playable" and "picked" in states)
            assert pin["marks"][mark] == expected, (number, state, pin)
            if state in states:
                assert words[state] in pin["words"].split(", "), (number, state, pin["words"])
        if "grey" in states:
            assert pin["marks"]["diamond"]
        assert pin["disabled"] == ("blocked" in states or "down" in states), (number, pin)
        if "blocked" in states:
            assert pin["faded"] < 0.6  # and faded: it does not look playable
            assert pin["print"] == 1  # its body only: what is printed on it keeps its contrast
        if "picked" in states:
            assert pin["pressed"] == "true"
    assert seen == set(marks)
    # A pin that cannot be picked does nothing when clicked: the pick stays as it was.
    blocked = next(n for n in pins if "blocked" in state_of(n))
    fresh.execute_script(f"document.querySelector(\"[data-pin='{blocked}']\").click()")
    assert fresh.find_element(By.CSS_SELECTOR, f"[data-pin='{blocked}']").get_attribute("aria-pressed") is None
    assert f"Picked pins {picked}:" in fresh.find_element(By.ID, "selection-sum").text


def test_a_roll_no_pin_can_use_shows_every_pin_cannot_be_picked(fresh: WebDriver, base: str, api: httpx.Client) -> None:
    """A roll no standing set adds up to: every standing pin looks and is unpickable; a miss is the way on."""

    def stuck(v: dict[str, Any]) -> bool:
        table = v["view"]
        return v["next"] == "decision" and table["selection"] is not None and not first_pick(v)

    view = play_until(api, new_game(api, "rolling-pins", {}, seed=5), stuck, prefer=("dice 2",))
    open_game(fresh, base, view["id"])
    standing = [p for row in pin_rows(fresh) for p in row if not p["marks"]["fallen"]]
    assert standing and all(p["disabled"] and p["marks"]["barred"] and p["faded"] < 0.6 for p in standing)
    assert fresh.find_elements(By.CSS_SELECTOR, "#choices button[data-action='miss']")


def test_solitaire_pins_that_cannot_be_played_look_and_behave_so(
    fresh: WebDriver, base: str, api: httpx.Client
) -> None:
    view = new_game(api, "bowling-solitaire", seed=8)
    api.post(f"/api/games/{view['id']}/advance", json={"until": "rolls"})
    open_game(fresh, base, view["id"])
    back_row = {p["number"]: p for row in pin_rows(fresh) for p in row if p["number"] >= 7}
    assert all(
        p["disabled"] and p["marks"]["barred"] and p["faded"] < 0.6 for p in back_row.values()
    )  # not on a first play
    assert all("cannot be picked now" in p["words"] for p in back_row.values())
    fresh.find_element(By.CSS_SELECTOR, "[data-pin='8'] .hit").click()  # where a player would click it
    assert fresh.find_element(By.ID, "selection-sum").text == "No pins picked"
    # A pick says the cards it adds up and where they lie, not pin numbers beside a sum of cards.
    pins = api.get(f"/api/games/{view['id']}").json()["view"]["pins"]
    playable = next(p for p in pins if p["selectable"])
    fresh.find_element(By.CSS_SELECTOR, f"[data-pin='{playable['number']}'] .hit").click()
    said = wait(fresh, lambda d: d.find_element(By.ID, "selection-sum").text.startswith("Picked") and d, "no pick")
    card, number = playable["label"], playable["number"]
    assert said.find_element(By.ID, "selection-sum").text.startswith(f"Picked {card} (pin {number}): sum {card}")


def test_solitaire_pins_and_piles_are_named_first_by_what_they_show(
    fresh: WebDriver, base: str, api: httpx.Client
) -> None:
    """A button's name starts with the text it shows, in order (speech input; axe's label-content-name-mismatch).

    A card on a pin shows its value and position; a pile its top card (once: the corner index is a
    copy, not text), its name and its count.
    """
    view = new_game(api, "bowling-solitaire", seed=8)
    view = api.post(f"/api/games/{view['id']}/advance", json={"until": "rolls"}).json()
    open_game(fresh, base, view["id"])
    buttons = fresh.execute_script(
        "return [...document.querySelectorAll('#table button.pin, #table button.pile')].map((b) => ({"
        " pin: b.dataset.pin || null, pile: b.dataset.pile || null, name: b.getAttribute('aria-label'),"
        " texts: [...b.querySelectorAll('text, span')].map((t) => t.textContent)}))"
    )
    pins = {str(p["number"]): p for p in view["view"]["pins"]}
    piles = {str(p["number"]): p for p in view["view"]["piles"]}
    assert sorted(b["pin"] for b in buttons if b["pin"]) == sorted(pins)
    assert sorted(b["pile"] for b in buttons if b["pile"]) == sorted(piles)
    for button in buttons:
        if button["pin"]:
            pin = pins[button["pin"]]
            assert button["texts"] == [pin["label"], f"#{pin['number']}"]
            assert button["name"].startswith(f"{pin['label']} #{pin['number']}, pin {pin['number']}, "), button
        else:
            pile = piles[button["pile"]]
            count = f"{pile['cards']} cards left"
            assert button["texts"] == [pile["top"], f"Pile {pile['number']}", count]
            assert button["name"].startswith(f"{pile['top']}, Pile {pile['number']}, {count}, top card {pile['top']}")


def test_bowling_dice_faces_are_told_apart_at_a_glance(fresh: WebDriver, base: str, api: httpx.Client) -> None:
    """A strike is an X, a spare a slash, a standing pin a pin, a blank nothing: each its own picture."""
    pictures: dict[str, set[str]] = {}
    view = new_game(api, "bowling-dice", seed=11)
    for _ in range(12):
        view = step(api, view)
        open_game(fresh, base, view["id"])
        for face, picture, marks in fresh.execute_script(
            "return [...document.querySelectorAll('#table .die')].map(d => [d.dataset.face,"
            " new XMLSerializer().serializeToString(d.querySelector('svg')),"
            " ['.mark-strike', '.mark-spare', '.mark-pin', '.pip'].filter(c => d.querySelector(c))])"
        ):
            pictures.setdefault(face, set()).add(picture)
            assert (
                marks == {"strike": [".mark-strike"], "spare": [".mark-spare"], "pin": [".mark-pin"], "blank": []}[face]
            )
        if set(pictures) == {"strike", "spare", "pin", "blank"}:
            break
    assert set(pictures) == {"strike", "spare", "pin", "blank"}
    assert all(len(drawn) == 1 for drawn in pictures.values()), "a face is always the same picture"
    assert len({next(iter(drawn)) for drawn in pictures.values()}) == 4, "and each face a different one"
    labels = fresh.execute_script(
        "return [...document.querySelectorAll('#table .die')].map(d => d.getAttribute('aria-label'))"
    )
    assert all(label.startswith("die ") for label in labels)


def test_ten_pins_dice_have_their_pips(fresh: WebDriver, base: str, api: httpx.Client) -> None:
    view = step(api, new_game(api, "tenpins", seed=4))
    open_game(fresh, base, view["id"])
    faces = [int(f) for f in view["log"][-1]["text"].split("+")]
    drawn = fresh.execute_script(
        "return [...document.querySelectorAll('#table .die')]"
        ".map(d => [d.dataset.face, d.querySelectorAll('.pip').length])"
    )
    assert drawn == [[f"pips-{f}", f] for f in faces]


def test_solitaire_cards_piles_discards_and_the_seen_strip(fresh: WebDriver, base: str, api: httpx.Client) -> None:
    view = new_game(api, "bowling-solitaire", seed=6)
    view = api.post(f"/api/games/{view['id']}/advance", json={"until": "rolls"}).json()
    read = (
        "return {piles: [...document.querySelectorAll('#table .pile')].map(p => ({"
        " edges: p.querySelectorAll('.card-edge').length,"
        " value: (p.querySelector('.card-value') || {}).textContent || null,"
        " count: p.querySelector('.pile-count').textContent})),"
        " discards: document.getElementById('discards').getAttribute('aria-label'),"
        " fanned: document.querySelectorAll('#discards .mini-card').length,"
        " values: [...document.querySelectorAll('#seen .seen-value')].map(v => ["
        "   v.querySelector('.seen-label').textContent,"
        "   v.querySelectorAll('.slot.seen').length, v.querySelectorAll('.slot').length]),"
        " strip: document.querySelector('#seen .seen-values').getBoundingClientRect().width}"
    )
    open_game(fresh, base, view["id"])
    facts = fresh.execute_script(read)
    tops = [p["top"] for p in view["view"]["piles"]]
    assert [p["edges"] for p in facts["piles"]] == [4, 2, 1]  # 5, 3 and 2 cards: the stack shows its depth
    assert [p["value"] for p in facts["piles"]] == tops
    assert [p["count"] for p in facts["piles"]] == ["5 cards left", "3 cards left", "2 cards left"]
    assert facts["discards"] == "Discards: none yet" and facts["fanned"] == 0
    assert [v[0] for v in facts["values"]] == [str(n) for n in range(1, 11)]
    assert sum(v[1] for v in facts["values"]) == 13 and all(v[2] == 2 for v in facts["values"])  # 10 pins, 3 tops
    assert facts["strip"] < 330, "a compact strip, not a wide table"

    view = play_until(api, view, lambda v: bool(v["view"]["discards"]) and v["next"] == "decision")
    open_game(fresh, base, view["id"])
    facts = fresh.execute_script(read)
    discards = view["view"]["discards"]
    assert facts["fanned"] == len(discards)
    assert (
        facts["discards"].startswith(f"Discards: {len(discards)} cards (") and ", ".join(discards) in facts["discards"]
    )
    assert sum(v[1] for v in facts["values"]) == len(view["view"]["seen"])


def test_the_ability_track_is_laid_out_like_the_printed_sheet(fresh: WebDriver, base: str, api: httpx.Client) -> None:
    read = (
        "return [...document.querySelectorAll('#track .track-row')].map(r => ({row: r.dataset.row,"
        " closed: r.classList.contains('closed'),"
        " lock: Boolean(r.querySelector('.lock')), title: r.querySelector('.row-title').textContent,"
        " top: r.getBoundingClientRect().top,"
        " areas: [...r.querySelectorAll('.area')].map(a => ({boxes: a.querySelectorAll('.box').length,"
        "   marked: a.querySelectorAll('.box.marked').length,"
        "   held: a.classList.contains('held'), used: a.classList.contains('used'),"
        "   words: a.getAttribute('aria-label'), button: a.tagName === 'BUTTON'}))}))"
    )
    view = new_game(api, "rolling-pins", {"advanced": "true"}, seed=9)
    open_game(fresh, base, view["id"])
    rows = fresh.execute_script(read)
    track = view["view"]["track"]
    assert [r["row"] for r in rows] == ["upper", "lower"] and rows[0]["top"] < rows[1]["top"]
    assert [len(r["areas"]) for r in rows] == [5, 5]
    assert [a["boxes"] for r in rows for a in r["areas"]] == [a["boxes"] for a in track]
    assert not rows[0]["closed"] and rows[1]["closed"] and rows[1]["lock"]
    assert rows[1]["title"] == "Lower row: opens when the upper row is full"
    assert all("closed" in a["words"] for a in rows[1]["areas"]) and not any(
        "closed" in a["words"] for a in rows[0]["areas"]
    )

    # Later: boxes marked as on paper, an ability circled once earned, a box to mark offered on the sheet itself.
    view = play_until(api, view, lambda v: any(a["action"] for a in v["view"]["track"]), prefer=("dice 2",))
    open_game(fresh, base, view["id"])
    rows = fresh.execute_script(read)
    areas = [a for r in rows for a in r["areas"]]
    track = view["view"]["track"]
    assert [a["marked"] for a in areas] == [a["marked"] for a in track]
    assert [a["held"] for a in areas] == [a["held"] for a in track]
    markable = [i for i, a in enumerate(track) if a["action"]]
    assert [i for i, a in enumerate(areas) if a["button"]] == markable
    steps = settle(fresh)["steps"]
    click_and_settle(fresh, f"#track button.area[data-area='{markable[0] + 1}']")
    last = api.get(f"/api/games/{view['id']}").json()["log"]
    assert next(e["text"] for e in last if e["step"] > int(steps)) == track[markable[0]]["action"]


def test_tokens_are_chips(fresh: WebDriver, base: str, api: httpx.Client) -> None:
    view = play_until(
        api,
        new_game(api, "rolling-pins", {}, seed=4),
        lambda v: v["view"]["tokens"] >= 1 and v["next"] == "decision",
        prefer=("dice 2",),
    )
    open_game(fresh, base, view["id"])
    chips = fresh.execute_script("return document.querySelectorAll('#tokens .chip').length")
    assert chips == min(view["view"]["tokens"], 12)
    assert fresh.find_element(By.CSS_SELECTOR, "#tokens strong").text == f"Tokens: {view['view']['tokens']}"


# --- motion -------------------------------------------------------------------------------------------------

RECORD_MOTION = """
window.__motion = [];
window.__moved = [];
if (!window.__listening) {
  window.__listening = true;
  new MutationObserver(() => {
    const board = document.querySelector('#table .board');
    if (board && board.dataset.moved) window.__moved.push(...board.dataset.moved.split(' '));
  }).observe(document.getElementById('app'), {childList: true, subtree: true});
  document.addEventListener('animationstart', (event) => {
    const ends = event.target.getAnimations().map((a) => a.effect.getComputedTiming().endTime);
    const control = event.target.closest('button');
    window.__motion.push({name: event.animationName, ends, box: control === event.target ? control.tagName : ''});
    if (window.__skipOnStart && !window.__skipped) {
      const running = () => document.getAnimations()
        .filter((a) => a.playState === 'running' || a.playState === 'pending').length;
      const before = running();
      document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Shift'}));
      window.__skipped = {before, after: running()};
    }
  }, true);
}
"""


def test_dice_roll_pins_fall_briefly_and_a_key_skips_it(fresh: WebDriver, base: str, api: httpx.Client) -> None:
    view = new_game(api, "tenpins", {"frames": "2"}, seed=4)
    open_game(fresh, base, view["id"])
    fresh.execute_script(RECORD_MOTION)
    click_and_settle(fresh, "#roll")
    wait(
        fresh,
        lambda d: d.execute_script("return window.__motion.some(m => m.name === 'die-roll')"),
        "the dice never rolled",
    )
    motion = fresh.execute_script("return window.__motion")
    assert all(0 < end < 600 for m in motion for end in m["ends"]), motion  # every motion over within 600 ms
    assert "roll" in fresh.execute_script("return window.__moved")

    # Skippable: a key ends every running motion at once, and the redraw does not start it again.
    fresh.execute_script(RECORD_MOTION + "window.__skipOnStart = true; window.__skipped = null;")
    click_and_settle(fresh, "#roll")
    skipped = wait(fresh, lambda d: d.execute_script("return window.__skipped"), "no motion to skip")
    assert skipped["before"] > 0 and skipped["after"] == 0, skipped
    fresh.execute_script("window.__skipOnStart = false")


def test_cards_turn_and_pins_fall_inside_buttons_that_stay_put(fresh: WebDriver, base: str, api: httpx.Client) -> None:
    """A play in Bowling Solitaire: its pins fall, the next card turns; no button's box moves meanwhile."""
    view = new_game(api, "bowling-solitaire", seed=6)
    view = api.post(f"/api/games/{view['id']}/advance", json={"until": "rolls"}).json()
    open_game(fresh, base, view["id"])
    fresh.execute_script(RECORD_MOTION)
    play(fresh, next(c for c in view["view"]["choices"] if c["by_selection"]))
    names = "return window.__motion.map(m => m.name)"
    wait(fresh, lambda d: {"pin-fall", "card-turn"} <= set(d.execute_script(names)), "no fall and turn")
    motion = fresh.execute_script("return window.__motion")
    assert all(0 < end < 600 for m in motion for end in m["ends"]), motion
    assert not any(m["box"] for m in motion), "a button itself never moves"


def play(driver: WebDriver, choice: dict[str, Any]) -> None:
    """Pick a choice's pile and pins by clicking, then play them."""
    if choice["pile"] is not None:
        driver.find_element(By.CSS_SELECTOR, f"button[data-pile='{choice['pile']}']").click()
    for pin in choice["pins"]:
        driver.find_element(By.CSS_SELECTOR, f"button[data-pin='{pin}']").click()
    click_and_settle(driver, "#play-selection")


def test_a_strike_or_a_spare_is_cheered(fresh: WebDriver, base: str, api: httpx.Client) -> None:
    view = new_game(api, "bowling-dice", {}, seed=21)
    open_game(fresh, base, view["id"])
    fresh.execute_script(RECORD_MOTION)
    for _ in range(12):
        click_and_settle(fresh, "#roll")
        cheer = fresh.find_elements(By.ID, "cheer")
        if cheer:
            break
    assert cheer, "no strike or spare in twelve balls"
    marks = [m for s in api.get(f"/api/games/{view['id']}").json()["sheets"] for f in s["frames"] for m in f["marks"]]
    kind = cheer[0].get_attribute("data-cheer")
    assert (kind, cheer[0].text) in (("strike", "Strike!"), ("spare", "Spare!")) and (
        "X" if kind == "strike" else "/"
    ) in marks
    assert cheer[0].value_of_css_property("pointer-events") == "none"  # it never stands in the way of a click
    wait(
        fresh,
        lambda d: d.execute_script("return window.__motion.some(m => m.name === 'cheer')"),
        "the cheer did not move",
    )


def test_reduced_motion_moves_nothing(fresh: WebDriver, base: str, api: httpx.Client) -> None:
    fresh.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]}
    )
    assert fresh.execute_script("return matchMedia('(prefers-reduced-motion: reduce)').matches")
    view = new_game(api, "bowling-solitaire", seed=6)
    view = api.post(f"/api/games/{view['id']}/advance", json={"until": "rolls"}).json()
    open_game(fresh, base, view["id"])
    fresh.execute_script(RECORD_MOTION)
    choice = next(c for c in view["view"]["choices"] if c["by_selection"])
    play(fresh, choice)
    moved = fresh.execute_script("return window.__moved")
    assert "fall" in moved and "turn" in moved  # the same pictures were due to move...
    assert fresh.execute_script("return document.getAnimations().length") == 0  # ...and nothing moves
    assert fresh.execute_script("return window.__motion.length") == 0
    assert fresh.find_elements(
        By.CSS_SELECTOR, f"[data-pin='{choice['pins'][0]}'] .fallen"
    )  # the pin is down all the same


def test_nothing_moves_between_moves(fresh: WebDriver, base: str, api: httpx.Client) -> None:
    """The error line, the undo line and the actions keep their place from one move to the next."""
    record = """
    window.__places = [];
    const where = (css) => {
      const e = document.querySelector(css);
      return e ? Math.round(e.getBoundingClientRect().top + scrollY) : null;
    };
    const look = () => window.__places.push({next: document.getElementById('game').dataset.next,
      error: where('#game-error'), reason: where('#undo-reason'), actions: where('#actions'), undo: where('#undo'),
      said: (document.getElementById('game-error') || {}).textContent || ''});
    new MutationObserver(look).observe(document.getElementById('game'), {childList: true});
    look();
    """
    for width in (1280, 390):
        fresh.set_window_size(width, 900)
        view = new_game(api, "rolling-pins", {"advanced": "true"}, seed=13)
        open_game(fresh, base, view["id"])
        fresh.execute_script(record)
        refused = False
        for _ in range(8):
            table = api.get(f"/api/games/{view['id']}").json()
            if table["next"] != "decision":
                settle(fresh)
                continue
            picks = [c for c in table["view"]["choices"] if c["by_selection"]]
            everything = sorted({p for c in picks for p in c["pins"]})
            if not refused and picks and everything not in [sorted(c["pins"]) for c in picks]:
                refused = True  # a refused pick: every pin a pick could use, at once
                for pin in everything:
                    fresh.find_element(By.CSS_SELECTOR, f"button[data-pin='{pin}']").click()
                fresh.find_element(By.ID, "play-selection").click()
                wait(fresh, lambda d: d.find_element(By.ID, "game-error").text, "no refusal shown")
                fresh.find_element(By.ID, "clear-selection").click()
            if picks:
                for pin in picks[0]["pins"]:
                    fresh.find_element(By.CSS_SELECTOR, f"button[data-pin='{pin}']").click()
                click_and_settle(fresh, "#play-selection")
            else:
                two = fresh.find_elements(By.CSS_SELECTOR, "#choices button[data-action='dice 2']")
                click_and_settle(fresh, "#choices button[data-action='dice 2']" if two else "#choices button")
        places = fresh.execute_script("return window.__places")
        assert any(p["said"] for p in places), "the refusal was shown"
        for key in ("error", "reason", "actions", "undo"):
            found = {p[key] for p in places if p[key] is not None}
            assert len(found) == 1, (
                width,
                key,
                sorted(found),
                [(p["next"], p[key], p["said"][:20]) for p in places if p[key] != min(found)],
            )


# --- every board, at two widths and in two themes -------------------------------------------------------


def screenshot(driver: WebDriver, path: Path) -> None:
    width = driver.get_window_size()["width"]
    driver.execute_script("window.scrollTo(0, 0)")
    full = int(driver.execute_script("return document.documentElement.scrollHeight"))
    driver.set_window_size(width, min(max(full, 900), 4000))
    driver.save_screenshot(str(path))
    driver.set_window_size(width, 900)


@pytest.mark.parametrize(
    ("game", "options"),
    [("tenpins", {}), ("bowling-dice", {}), ("rolling-pins", {"advanced": "true"}), ("bowling-solitaire", {})],
)
def test_every_board_fits_a_phone_and_a_laptop_in_both_themes(
    fresh: WebDriver, base: str, api: httpx.Client, artifacts: Path, game: str, options: dict[str, Any]
) -> None:
    start = new_game(api, game, options, seed=7)
    if start["next"] == "roll" and start["has_decisions"]:
        api.post(f"/api/games/{start['id']}/advance", json={"until": "rolls"})
    stages = {"start": start["id"], "mid": mid_game(api, game, options, seed=7)["id"]}
    for stage, game_id in stages.items():
        for theme in ("light", "dark"):
            fresh.execute_script(f"localStorage.setItem('pinsetter.theme', '{theme}')")
            for width in (1280, 390):
                fresh.set_window_size(width, 900)
                open_game(fresh, base, game_id)
                assert fresh.execute_script("return document.documentElement.dataset.theme") == theme
                overflow = fresh.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
                assert overflow <= 0, (game, stage, width, overflow)
                lane = fresh.execute_script(
                    "const l = document.querySelector('#table .lane'); return l ? l.getBoundingClientRect().width : 0"
                )
                assert 150 < lane <= width, (game, width, lane)
                screenshot(fresh, artifacts / f"board-{game}-{stage}-{width}-{theme}.png")


# --- the end of a game (issue 25's gallery) ----------------------------------------------------------

END_FACTS = """
const table = document.getElementById('table');
return {
  gap: Boolean(document.querySelector('.roll-placeholder')),
  lane: Boolean(table.querySelector('.lane')),
  owner: (document.getElementById('board-owner') || {}).textContent || '',
  keys: [...table.querySelectorAll('[data-keyhint]')].map((el) => el.dataset.keyhint),
  tray: (table.querySelector('.tray-empty') || {}).textContent || '',
  caption: (table.querySelector('.dice-caption') || {}).textContent || '',
};
"""


@pytest.mark.parametrize(
    ("game", "options"),
    [("tenpins", {}), ("bowling-dice", {}), ("rolling-pins", {}), ("bowling-solitaire", {})],
)
def test_the_end_keeps_a_named_lane_and_offers_no_key_or_gap(
    fresh: WebDriver, base: str, api: httpx.Client, artifacts: Path, game: str, options: dict[str, Any]
) -> None:
    """The end: no gap for Roll, the lane drawn and named, no key on a pile, no "No roll yet" beside a roll."""
    players = ANN if game == "bowling-solitaire" else [*ANN, {"name": "Bot", "kind": "bot:random"}]
    view = new_game(api, game, {"frames": 2, **options}, seed=5, players=players)
    view = play_until(api, view, lambda v: v["next"] == "over", prefer=("dice 2",))
    fresh.set_window_size(1280, 900)
    open_game(fresh, base, view["id"])
    facts = fresh.execute_script(END_FACTS)
    assert not facts["gap"] and facts["lane"] and facts["keys"] == [], facts
    assert not (facts["tray"] and facts["caption"]), facts
    if len(players) > 1:  # whose lane or sheet it is, in words
        assert facts["owner"].endswith(": finished") and facts["owner"].split(":")[0] in ("Ann", "Bot"), facts
    screenshot(fresh, artifacts / f"board-{game}-end-1280-light.png")
