"""The web gallery (docs/images/web-*.png): every game's page at its start, middle and end.

Run: `.venv/bin/python benchmarks/gallery.py [--out docs/images] [--only GAME ...]`
(not part of `make test`). It starts `pinsetter serve` on a free loopback port over a
temporary history and solver cache, sets up seeded games through the JSON API (a
human against a bot where the game has one, the human playing a fixed strategy), and
photographs each game page in Debian's headless Chromium with motion turned off
(`prefers-reduced-motion: reduce`), so that the same code writes the same pictures:

- `web-<game>-<stage>-<theme>-<lang>.png` at 1280 px: every game (Rolling Pins basic
  and advanced) at its `start`, in the `middle` (the human's frame 5: a legal pick of
  two pins or more clicked on the board where the game has decisions, else a ball
  rolled) and at the `end`, `light` and `dark`, English (`en`) and Japanese (`ja`),
  each language a game of its own, played through an API client in that language;
- `web-<game>-middle-light-en-390.png`: the middle of each game on a phone;
- `web-table-spectator-<theme>.png`: an online table of Rolling Pins (advanced) with
  two players and a bot, seen by a spectator mid-game (its join code is random: these
  two change on every run; the others are the same to the byte).

Each picture is the whole page from its top (at most 4000 px), as a 128-colour PNG
(Pillow), which keeps the set near 4 MB.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import os
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait
from serving import server
from websockets.sync.client import ClientConnection, connect

CHROMIUM = os.environ.get("PINSETTER_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("PINSETTER_CHROMEDRIVER", "/usr/bin/chromedriver")
ROOT = Path(__file__).resolve().parent.parent
COLOURS = 128
TALLEST = 4000
RATE = 8  # messages a second to a table, under its limit (web/tables.py RATE)
View = dict[str, Any]


@dataclass(frozen=True)
class Spec:
    """One game of the gallery: its id, options, the bot against the human (if any) and its seed."""

    name: str
    game: str
    bot: str | None
    seed: int
    options: dict[str, Any] = field(default_factory=dict)


GAMES = [
    Spec("tenpins", "tenpins", "bot:random", 11),
    Spec("rolling-pins", "rolling-pins", "bot:greedy", 3),
    Spec("rolling-pins-advanced", "rolling-pins", "bot:greedy", 7, {"advanced": True}),
    Spec("bowling-dice", "bowling-dice", "bot:random", 4),
    Spec("bowling-solitaire", "bowling-solitaire", None, 6),
]
HUMAN = {"en": "Ann", "ja": "アン"}
MIDDLE_FRAME = 5


# --- the server -----------------------------------------------------------------------------------------


# --- games through the API -------------------------------------------------------------------------------


def human_action(view: View) -> str:
    """The human's fixed strategy: a box on the track, else two dice, else the first pick, else the first action."""
    table = view["view"]
    marks = [area["action"] for area in table["track"] if area["action"]]
    if marks:
        return str(marks[0])
    if "dice 2" in view["legal_actions"]:
        return "dice 2"
    picks = [c["action"] for c in table["choices"] if c["by_selection"]]
    return str((picks or view["legal_actions"])[0])


def step(api: httpx.Client, view: View) -> View:
    """One step: the human's decision, else the roll, deal or bot move that is next."""
    if view["next"] == "decision":
        answer = api.post(f"/api/games/{view['id']}/actions", json={"action": human_action(view)})
    else:
        answer = api.post(f"/api/games/{view['id']}/advance", json={"until": "step"})
    answer.raise_for_status()
    after: View = answer.json()
    return after


def play_until(api: httpx.Client, view: View, done: Callable[[View], bool]) -> View:
    """Play on through the API (the human's strategy, the bots, the dice) until `done`."""
    view = api.get(f"/api/games/{view['id']}").json()  # the page may have dealt meanwhile
    for _ in range(2000):
        if done(view):
            return view
        if view["next"] == "over":
            raise SystemExit(f"game {view['id']} ended before the position wanted")
        view = step(api, view)
    raise SystemExit(f"game {view['id']} never reached the position wanted")


def shown_picks(view: View) -> list[dict[str, Any]]:
    """The picks worth a picture: two pins or more, adding up to the roll without tokens."""
    choices = view["view"]["choices"]
    return [c for c in choices if c["by_selection"] and len(c["pins"]) >= 2 and "token" not in c["action"]]


def middle(view: View) -> bool:
    """The human's frame 5, their turn: a pick to make (a game with decisions), else a ball already rolled."""
    if view["turn"] != 0 or (view["sheets"][0]["current_frame"] or 0) < MIDDLE_FRAME:
        return False
    table = view["view"]
    if view["has_decisions"]:
        return view["next"] == "decision" and bool(shown_picks(view))
    return view["next"] == "roll" and table["standing"] not in (None, 10)


def over(view: View) -> bool:
    return bool(view["next"] == "over")


def bot_title(api: httpx.Client, bot: str) -> str:
    """The bot's seat name as the front page gives it in the client's language ("Greedy bot", "欲ばりボット")."""
    catalog = api.get("/api/catalog").json()
    name = bot.removeprefix("bot:")
    for game in catalog:
        for info in game.get("bot_info", []):
            if info["name"] == name:
                return str(info["title"])
    return name


def new_game(api: httpx.Client, spec: Spec, lang: str) -> View:
    players = [{"name": HUMAN[lang], "kind": "human"}]
    if spec.bot:
        players.append({"name": bot_title(api, spec.bot), "kind": spec.bot})
    body = {"game": spec.game, "options": spec.options, "players": players, "seed": spec.seed}
    answer = api.post("/api/games", json=body)
    answer.raise_for_status()
    view: View = answer.json()
    return view


# --- the browser -----------------------------------------------------------------------------------------


def chrome() -> WebDriver:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1280,900",
        "--hide-scrollbars",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    # Nothing moves: every picture is the position at rest, the same on every run.
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]}
    )
    return driver


def wait(driver: WebDriver, condition: Callable[[WebDriver], Any], what: str) -> Any:
    return WebDriverWait(driver, 60, poll_frequency=0.05).until(condition, f"never saw {what}")


def prefer(driver: WebDriver, base: str, theme: str, lang: str) -> None:
    """The theme and language as the header's toggle and switch keep them."""
    driver.get(base + "/#/")
    driver.execute_script(
        "localStorage.setItem('pinsetter.theme', arguments[0]); localStorage.setItem('pinsetter.lang', arguments[1])",
        theme,
        lang,
    )


SETTLED = (
    "const g = document.getElementById('game');"
    "return Boolean(g && g.dataset.busy === '0' && ['decision', 'roll', 'over'].includes(g.dataset.next)"
    " && document.querySelector('#table .board') && document.fonts.status === 'loaded')"
)


def open_game(driver: WebDriver, base: str, game_id: int) -> None:
    driver.get(f"{base}/#/game/{game_id}")
    driver.refresh()
    wait(driver, lambda d: d.execute_script(SETTLED), f"game {game_id} drawn")
    driver.execute_script("document.activeElement && document.activeElement.blur && document.activeElement.blur()")


def click_pick(driver: WebDriver, api: httpx.Client, game_id: int) -> None:
    """Click the human's first legal pick on the board (its pile, then its pins), without playing it."""
    picks = shown_picks(api.get(f"/api/games/{game_id}").json())
    if not picks:
        return
    choice = picks[0]
    if choice["pile"] is not None:
        driver.find_element(By.CSS_SELECTOR, f"button[data-pile='{choice['pile']}']").click()
    for pin in choice["pins"]:
        driver.find_element(By.CSS_SELECTOR, f"button[data-pin='{pin}']").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#selection-sum"), "the pick drawn")
    # The pointer off the board, the focus off the last pin: the picture shows states, not hover.
    driver.execute_script("document.activeElement.blur()")
    driver.find_element(By.TAG_NAME, "h1").click()


def save(driver: WebDriver, path: Path) -> int:
    """The whole page from its top as a 128-colour PNG; returns its size in bytes."""
    driver.execute_script("window.scrollTo(0, 0)")
    width = int(driver.execute_script("return document.documentElement.clientWidth"))
    height = min(int(driver.execute_script("return document.documentElement.scrollHeight")), TALLEST)
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot",
        {
            "format": "png",
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1},
        },
    )
    image = Image.open(io.BytesIO(base64.b64decode(shot["data"]))).convert("RGB")
    small = image.quantize(colors=COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    path.parent.mkdir(parents=True, exist_ok=True)
    small.save(path, optimize=True)
    print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}  {image.width}x{image.height}")
    return path.stat().st_size


# --- the pictures ----------------------------------------------------------------------------------------


def client(base: str, lang: str) -> httpx.Client:
    """The API in a language, as the page asks for it: the log's words are told in the language they are played in."""
    return httpx.Client(base_url=base, timeout=120, cookies={"pinsetter_lang": lang}, headers={"Accept-Language": lang})


def gallery_of(driver: WebDriver, base: str, spec: Spec, out: Path) -> int:
    """One game's pictures: start, middle and end, both themes and languages; the phone's middle."""
    written = 0
    for lang in ("en", "ja"):
        with client(base, lang) as api:
            written += stages(driver, api, base, spec, lang, out)
    return written


def stages(driver: WebDriver, api: httpx.Client, base: str, spec: Spec, lang: str, out: Path) -> int:
    """A new game in one language, photographed at its start, middle and end in both themes."""
    written = 0
    view = new_game(api, spec, lang)
    for stage, reached in (("start", None), ("middle", middle), ("end", over)):
        if reached is not None:
            view = play_until(api, view, reached)
        for theme in ("light", "dark"):
            prefer(driver, base, theme, lang)
            open_game(driver, base, view["id"])
            if stage == "middle":
                click_pick(driver, api, view["id"])
            written += save(driver, out / f"web-{spec.name}-{stage}-{theme}-{lang}.png")
            if stage == "middle" and theme == "light" and lang == "en":
                driver.set_window_size(390, 900)
                open_game(driver, base, view["id"])
                click_pick(driver, api, view["id"])
                written += save(driver, out / f"web-{spec.name}-middle-light-en-390.png")
                driver.set_window_size(1280, 900)
    return written


# --- an online table, seen by a spectator ------------------------------------------------------------------


def receive(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=30))
    return message


def last_step(view: View) -> int:
    return int(view["log"][-1]["step"]) if view["log"] else 0


def settled(ws: ClientConnection, before: int, action: str) -> dict[str, Any]:
    """The next state past step `before` that waits for a human seat (or ends the game)."""
    for _ in range(200):
        message = receive(ws)
        if message["type"] == "error":
            raise SystemExit(f"the table refused {action!r}: {message['error']}")
        view = message["view"]
        if view and last_step(view) > before and (view["terminal"] or {0, 1} & set(view["deciders"])):
            return message
    raise SystemExit("the table never waited for a player again")


def table_for_a_spectator(api: httpx.Client, base: str) -> int:
    """Rolling Pins (advanced) with Ann, Bob and a bot, played over the WebSocket to Bob's frame 3: its id."""
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot:greedy"}]
    body = {"game": "rolling-pins", "options": {"advanced": True}, "seats": seats, "seed": 21}
    table = api.post("/api/tables", json=body).json()
    table_id = table["id"]
    tokens = [
        api.post(f"/api/tables/{table_id}/seats/{n}", json={"name": name}).json()["token"]
        for n, name in ((0, "Ann"), (1, "Bob"))
    ]
    api.post(f"/api/tables/{table_id}/start", json={"host_token": table["host_token"]}).raise_for_status()
    socket_base = base.replace("http://", "ws://")
    with ExitStack() as stack:
        sockets = [
            stack.enter_context(connect(f"{socket_base}/ws/tables/{table_id}?token={token}")) for token in tokens
        ]
        states = [receive(ws) for ws in sockets]
        for _ in range(400):
            view = states[0]["view"]
            if view["terminal"]:
                raise SystemExit("the table's game ended before the spectator's picture")
            seat = next(s for s in (0, 1) if s in view["deciders"] or view["turn"] == s)
            own = states[seat]["view"]
            if seat == 1 and (own["sheets"][1]["current_frame"] or 0) >= 3 and own["next"] == "decision":
                picks = [c for c in own["view"]["choices"] if c["by_selection"]]
                if picks:
                    return int(table_id)
            action = human_action(own) if own["next"] == "decision" else "roll"
            time.sleep(1 / RATE)  # a table takes about 10 messages a second from a connection
            sockets[seat].send(json.dumps({"action": action}))
            before = last_step(view)
            states = [settled(ws, before, action) for ws in sockets]
        raise SystemExit("the table never reached Bob's frame 3")


def spectator(driver: WebDriver, api: httpx.Client, base: str, out: Path) -> int:
    table_id = table_for_a_spectator(api, base)
    written = 0
    ready = (
        "const t = document.getElementById('table-page');"
        "return Boolean(t && t.dataset.live === '1' && t.dataset.busy === '0'"
        " && document.querySelector('#table .board'))"
    )
    for theme in ("light", "dark"):
        prefer(driver, base, theme, "en")
        driver.get(f"{base}/#/table/{table_id}")
        driver.refresh()
        wait(driver, lambda d: d.execute_script(ready), "the table drawn for a spectator")
        written += save(driver, out / f"web-table-spectator-{theme}.png")
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images", help="where the pictures go")
    parser.add_argument(
        "--only",
        nargs="*",
        help="only these (game names as in the file names, or 'table'); numbered otherwise than in a full run",
    )
    args = parser.parse_args()
    wanted = set(args.only or [spec.name for spec in GAMES] + ["table"])
    written = 0
    with server(own_cache=True) as base, client(base, "en") as api:
        driver = chrome()
        try:
            for spec in GAMES:
                if spec.name in wanted:
                    written += gallery_of(driver, base, spec, args.out)
            if "table" in wanted:
                written += spectator(driver, api, base, args.out)
        finally:
            driver.quit()
    print(f"{written / 1e6:.1f} MB written")


if __name__ == "__main__":
    main()
