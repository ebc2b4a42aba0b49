"""An accessibility audit of every page in real Chromium with axe-core (issue 25, item 7).

axe-core (vendored: tests/vendor/axe-core, its version in tests/vendor/README.md) is injected
into each page as the page stands (data loaded, nothing busy) and run with its default rules;
no violation of impact "serious" or "critical" may remain on any page, in the light or the dark
theme: the front page, each game in the middle and at its end (Rolling Pins plain and advanced),
a table seen by its host before and during its game, the join page, the history, stepping
through a game, a game's review (with no violation of any impact, its folded tables open), the
statistics, the rules, and the account pages as a guest sees them (sign in, a leaderboard, a profile).

Every violation found (of any impact) is printed as a table per page (impact, rule, nodes) and
written to `$PINSETTER_ARTIFACTS/axe-violations.md`, for notes; each page audited is kept there as
a screenshot at 1280 and 390 px wide (`a11y-<page>-<theme>-<width>.png`). Motion is off (the page is told
the reader prefers reduced motion), so no colour is read in the middle of a transition.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from api_support import api_client
from browser_support import artifacts_folder, chrome, require_browser, served, wait

require_browser()

from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
FAILING = ("critical", "serious")
STRICT = ("review a game",)  # pages that must have no violation at all, of any impact
IMPACTS = ("critical", "serious", "moderate", "minor")
THEMES = ("light", "dark")
GAMES: dict[str, tuple[str, dict[str, Any], list[tuple[str, str]], int]] = {
    # page name: (game, options, players, steps played before the mid-game audit)
    "Ten Pins": ("tenpins", {"frames": 3}, [("Ann", "human"), ("Robo", "bot:random")], 5),
    "Rolling Pins": ("rolling-pins", {"frames": 3}, [("Ann", "human"), ("Robo", "bot:greedy")], 7),
    "Rolling Pins, advanced": ("rolling-pins", {"advanced": True, "frames": 4}, [("Ann", "human")], 25),
    "Bowling Dice": ("bowling-dice", {"frames": 3}, [("Ann", "human"), ("Robo", "bot:random")], 5),
    "Bowling Solitaire": ("bowling-solitaire", {"frames": 3}, [("Ann", "human")], 7),
}


@dataclass(frozen=True)
class Page:
    """A page to audit: its address, a script that is true once it is drawn and idle, and browser storage."""

    name: str
    address: str
    ready: str
    storage: tuple[tuple[str, str], ...] = ()


def step(client: httpx.Client, view: dict[str, Any]) -> dict[str, Any]:
    """One step: a human's first legal decision, or the next chance outcome or bot move."""
    game_id = view["id"]
    if view["next"] == "decision":
        answer = client.post(f"/api/games/{game_id}/actions", json={"action": view["legal_actions"][0]})
    else:
        answer = client.post(f"/api/games/{game_id}/advance", json={"until": "step"})
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


Players = list[tuple[str, str]]


def new_game(client: httpx.Client, game: str, options: dict[str, Any], players: Players, seed: int) -> dict[str, Any]:
    """A new game (seeds differ: the history takes one game, players, seed and second for the same game)."""
    seats = [{"name": name, "kind": kind} for name, kind in players]
    answer = client.post("/api/games", json={"game": game, "options": options, "players": seats, "seed": seed})
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def mid_game(client: httpx.Client, game: str, options: dict[str, Any], players: Players, steps: int) -> int:
    """A game `steps` steps in, then on to where a human acts (a decision where the game has them)."""
    view = new_game(client, game, options, players, seed=2025)
    for _ in range(steps):
        view = step(client, view)
    while view["next"] == "bot" or (view["next"] == "roll" and view["has_decisions"]):
        view = step(client, view)
    assert view["next"] in ("decision", "roll"), view["next"]
    return int(view["id"])


def ended_game(client: httpx.Client, game: str, options: dict[str, Any], players: Players) -> int:
    view = new_game(client, game, options, players, seed=2026)
    for _ in range(5000):
        if view["next"] == "over":
            return int(view["id"])
        view = step(client, view)
    raise AssertionError(f"{game} did not end")


GAME_IDLE = "const g = document.getElementById('game'); return !!g && g.dataset.busy === '0' && !!g.dataset.next"
TABLE_IDLE = (
    "const t = document.getElementById('table-page');"
    "return !!t && t.dataset.live === '1' && t.dataset.busy === '0' && t.dataset.status === arguments[0];"
)


def pages_of(client: httpx.Client) -> list[Page]:
    """Every page to audit, with the games and tables they show made through the API."""
    pages = [
        Page(
            "front page",
            "/#/",
            "const l = document.getElementById('resume-list');"
            "return !!l && !l.textContent.includes('Loading') && !!document.querySelector('input[name=game]');",
        )
    ]
    ended: dict[str, int] = {}
    for name, (game, options, players, steps) in GAMES.items():
        middle = mid_game(client, game, options, players, steps)
        pages.append(Page(f"{name}, mid-game", f"/#/game/{middle}", GAME_IDLE + " && g.dataset.next !== 'over'"))
        ended[name] = ended_game(client, game, options, players)
        assert ended[name] != middle
        ready = GAME_IDLE + " && !!document.getElementById('ending')"
        pages.append(Page(f"{name}, its end", f"/#/game/{ended[name]}", ready))

    # A table before its start, and during its game, seen by its host, who also sits at seat 1.
    for status in ("open", "playing"):
        seats = [{"kind": "human"}, {"kind": "bot:random"}]
        table = client.post("/api/tables", json={"game": "rolling-pins", "options": {"frames": 2}, "seats": seats})
        assert table.status_code == 201, table.text
        hosted = table.json()
        table_id = hosted["id"]
        sat = client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Ann"})
        assert sat.status_code == 200, sat.text
        storage = (
            (f"pinsetter.table.{table_id}.host", hosted["host_token"]),
            (f"pinsetter.table.{table_id}.seat", json.dumps({"seat": 0, "token": sat.json()["token"]})),
        )
        if status == "playing":
            started = client.post(f"/api/tables/{table_id}/start", json={"host_token": hosted["host_token"]})
            assert started.status_code == 200, started.text
        ready = TABLE_IDLE.replace("arguments[0]", repr(status))
        pages.append(Page(f"table ({status}), its host", f"/#/table/{table_id}", ready, storage))

    joinable = client.post("/api/tables", json={"game": "tenpins", "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert joinable.status_code == 201, joinable.text
    code = joinable.json()["join_code"]
    pages.append(Page("join a table", f"/#/join/{code}", "return !!document.getElementById('sit-name');"))
    pages += [
        Page(
            "history",
            "/#/history",
            "return !!document.querySelector('#history-results table, #history-results p');",
        ),
        Page(
            "step through a game",
            f"/#/history/{ended['Rolling Pins, advanced']}",
            "const r = document.getElementById('replay'); return !!r && !!r.dataset.step"
            " && !!document.querySelector('#replay .game-grid');",
        ),
        Page(
            "review a game",
            f"/#/review/{ended['Rolling Pins']}",
            # Audited with its folded tables open: what a reader unfolds is audited too.
            "const r = document.getElementById('review'); if (!r || r.dataset.ready !== '1') return false;"
            " r.querySelectorAll('details').forEach((d) => { d.open = true; });"
            " return !!r.querySelector('svg.review-chart');",
        ),
        Page(
            "statistics",
            "/#/stats",
            "return !!document.querySelector('#stats-results > *');",
        ),
        Page("rules", "/#/rules/rolling-pins", "return !!document.getElementById('rules-text');"),
        Page("daily challenges", "/#/daily", "return !!document.querySelector('#daily-games li');"),
        Page(
            "a daily challenge",
            "/#/daily/tenpins",
            "return !!document.querySelector('#daily-board h2') && !!document.querySelector('#daily-yesterday h2');",
        ),
        # The account pages as a guest sees them (tests/test_accounts_browser.py audits them with rated games).
        Page("sign in", "/#/signin", "return !!document.getElementById('signup-name');"),
        Page("leaderboard", "/#/leaderboard", "return document.getElementById('board')?.dataset.ready === '1';"),
        Page(
            "a player's profile",
            f"/#/player/{account_of(client.base_url)}",
            "return document.getElementById('profile')?.dataset.ready === '1';",
        ),
    ]
    return pages


def account_of(base: httpx.URL) -> str:
    """A signed-up player (from a client of its own: the audit's browser stays a guest); one argon2 hash."""
    with api_client(base) as other:
        answer = other.post("/api/accounts", json={"name": "Ann", "password": "audit-password"})
    assert answer.status_code == 201, answer.text
    return "Ann"


@dataclass
class Audit:
    """The module's browser, its pages and every violation found, per page and theme."""

    driver: WebDriver
    base: str
    pages: dict[str, Page]
    found: dict[tuple[str, str], list[dict[str, Any]]]
    artifacts: Path
    theme: str = ""


@pytest.fixture(scope="module")
def audit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Audit]:
    artifacts = artifacts_folder(tmp_path_factory)
    with served(tmp_path_factory.mktemp("a11y") / "a11y.sqlite") as base, api_client(base) as client:
        pages = {page.name: page for page in pages_of(client)}
        driver: WebDriver = chrome()
        try:
            driver.execute_cdp_cmd(
                "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]}
            )
            driver.get(base + "/#/")
            driver.execute_script("localStorage.setItem('pinsetter.pace', '0')")  # bots at once
            state = Audit(driver, base, pages, {}, artifacts)
            yield state
        finally:
            driver.quit()
        report = violations_table(state.found)
        print("\n" + report)
        (artifacts / "axe-violations.md").write_text(report + "\n", encoding="utf-8")


def run_axe(driver: WebDriver) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it stands (injected once per document)."""
    if not driver.execute_script("return typeof window.axe === 'object';"):
        driver.execute_script(AXE.read_text(encoding="utf-8"))
    result: dict[str, Any] = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']})"
        ".then((r) => done({violations: r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.map((n) => ({target: n.target.join(' '), summary: n.failureSummary}))}))}))"
        ".catch((e) => done({error: String(e)}));"
    )
    assert "error" not in result, result.get("error")
    violations: list[dict[str, Any]] = result["violations"]
    return violations


def open_page(audit: Audit, page: Page, theme: str) -> None:
    driver = audit.driver
    if audit.theme != theme:  # a theme is chosen before the first paint: a reload takes it
        driver.get(audit.base + "/#/rules")
        driver.execute_script(f"localStorage.setItem('pinsetter.theme', {theme!r})")
        driver.refresh()
        wait(driver, lambda d: d.execute_script("return document.documentElement.dataset.theme") == theme)
        audit.theme = theme
    for key, value in page.storage:
        driver.execute_script("localStorage.setItem(arguments[0], arguments[1])", key, value)
    driver.get(audit.base + "/#/rules")  # away first: the same address twice would not draw the page anew
    driver.get(audit.base + page.address)
    check: Callable[[WebDriver], bool] = lambda d: bool(d.execute_script(page.ready))  # noqa: E731
    wait(driver, check, f"{page.name} never settled")


PAGE_NAMES = [
    "front page",
    *(f"{name}, {when}" for name in GAMES for when in ("mid-game", "its end")),
    "table (open), its host",
    "table (playing), its host",
    "join a table",
    "history",
    "step through a game",
    "review a game",
    "statistics",
    "rules",
    "daily challenges",
    "a daily challenge",
    "sign in",
    "leaderboard",
    "a player's profile",
]


@pytest.mark.parametrize("name", PAGE_NAMES)
@pytest.mark.parametrize("theme", THEMES)  # all pages in one theme, then in the other: one reload between
def test_no_serious_or_critical_axe_violation(audit: Audit, name: str, theme: str) -> None:
    page = audit.pages[name]
    open_page(audit, page, theme)
    violations = run_axe(audit.driver)
    audit.found[(name, theme)] = violations
    failing = [
        f"{v['impact']} {v['id']} ({v['help']}): " + "; ".join(n["target"] for n in v["nodes"][:5])
        for v in violations
        if v["impact"] in FAILING or name in STRICT
    ]
    screenshots(audit, name, theme)
    assert not failing, f"{name} ({theme}):\n" + "\n".join(failing)


def screenshots(audit: Audit, name: str, theme: str) -> None:
    """The whole page as audited, at a laptop's and a phone's width: a11y-<page>-<theme>-<width>.png."""
    driver = audit.driver
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    for width in (1280, 390):
        driver.set_window_size(width, 900)
        driver.execute_script("window.scrollTo(0, 0)")
        full = int(driver.execute_script("return document.documentElement.scrollHeight"))
        driver.set_window_size(width, min(max(full, 900), 4000))
        driver.save_screenshot(str(audit.artifacts / f"a11y-{slug}-{theme}-{width}.png"))
    driver.set_window_size(1280, 900)


def violations_table(found: dict[tuple[str, str], list[dict[str, Any]]]) -> str:
    """Markdown: a row per page, theme and violated rule (impact, rule, nodes); a page without any says none."""
    lines = ["| page | theme | impact | rule | nodes |", "|---|---|---|---|---|"]
    for (name, theme), violations in found.items():
        if not violations:
            lines.append(f"| {name} | {theme} | none | | 0 |")
        ordered = sorted(violations, key=lambda v: (IMPACTS.index(v["impact"]), v["id"]))
        lines += [f"| {name} | {theme} | {v['impact']} | {v['id']} | {len(v['nodes'])} |" for v in ordered]
    return "\n".join(lines)
