"""The daily challenge over the web API (docs/daily.md): today's challenge per game, one attempt, the day's board.

Each game has one challenge a day (UTC): its standard options and a seed derived from the date
and a server secret (`pinsetter.storage.daily`). Every signed-in player gets one attempt, on the
same dice and cards as everybody (the position draw scheme), played through the ordinary game
API. While the day lasts a daily game is sealed: only its player sees it, and nobody (its player
included) gets its seed, record, review or hints, since the same dice are everybody's. After the
day the seed is published and the games open like any other.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from fractions import Fraction
from typing import Any

import anyio
from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from pinsetter.catalog import game_title
from pinsetter.games.registry import GAMES, game_class, get_game
from pinsetter.i18n import _
from pinsetter.records import PlayerSpec, result_of
from pinsetter.session import Match
from pinsetter.storage import Storage
from pinsetter.storage.accounts import AccountStore
from pinsetter.storage.daily import DailyEntry, DailyStore, daily_options, parse_day, today
from pinsetter.storage.db import is_row_id
from pinsetter.web.accounts import SESSION_COOKIE, scope_cookie, signed_in
from pinsetter.web.ratings import checked_mode
from pinsetter.web.schemas import ErrorBody, GameView
from pinsetter.web.service import Conflict, GameService, Refused

__all__ = ["ODDS", "DailyGuard", "Odds", "OddsBook", "add_daily_api", "score_odds"]

logger = logging.getLogger(__name__)

# /api/games/{id} and what follows it: the game API a sealed daily game answers only to its player.
# The id in plain digits, as the API takes it (anything else is the API's own 422 or 404).
GAME_PATH = re.compile(r"^/api/games/(0|[1-9][0-9]{0,18})(/[a-z]+)?")
# What nobody gets of a sealed daily game, its player included: they tell the dice (the record's seed) or
# the best play (review, hints) before everybody has played.
WITHHELD = frozenset({"/record", "/review", "/hint"})
# What moves a game on: closed once its day is over, when the seed (so every die still to come) is published.
MOVES = frozenset({"/actions", "/advance", "/undo"})
DAILY_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": why}
    for code, why in (
        (401, "not signed in: guests read the challenge and its board, signed-in players play it"),
        (404, "no such game"),
        (409, "the day's attempt is played already (one a day)"),
        (422, "a date not written YYYY-MM-DD, or a day still to come"),
    )
}


def _odds_kind(game: str, options: dict[str, object]) -> str | None:
    """Which odds a game's board carries: "exact" (a pure-chance game's own distribution), "optimal" (basic
    Rolling Pins: the expected-score optimal player's, in floating point), or None (no solver gives one)."""
    from pinsetter.games.pure_chance import PureChanceGame
    from pinsetter.games.rolling_pins import RollingPins

    instance = get_game(game, options)
    if isinstance(instance, PureChanceGame):
        return "exact"
    if isinstance(instance, RollingPins) and not instance.advanced:
        return "optimal"
    return None


def _exact_odds(game: str, options_json: str) -> tuple[Fraction, ...]:
    """P(final score >= s) for every s under a pure-chance game's exact distribution (a second or less)."""
    from pinsetter.games.pure_chance import PureChanceGame
    from pinsetter.solvers.distribution import analyze

    instance = get_game(game, json.loads(options_json))
    assert isinstance(instance, PureChanceGame)
    exact = analyze(instance).exact
    above: list[Fraction] = []
    running = Fraction(0)
    for probability in reversed(exact):
        running += probability
        above.append(running)
    return tuple(reversed(above))


def _optimal_odds(game: str, options_json: str) -> tuple[float, ...]:
    """P(final score >= s) for every s of a basic Rolling Pins player who plays the expected-score optimal
    policy from the start of the game (`rolling_pins_win.start_distribution`, double precision; the
    tables of every other position are not kept: they would hold a gigabyte for the server's life).

    About a minute of CPU for ten frames of ten pins, the solve included (the solve itself is then kept
    on disk by `policy_for`): `OddsBook` runs it in a thread of its own, never inside a request.
    """
    from pinsetter.games.rolling_pins import RollingPins
    from pinsetter.solvers.rolling_pins import policy_for
    from pinsetter.solvers.rolling_pins_win import start_distribution

    instance = get_game(game, json.loads(options_json))
    assert isinstance(instance, RollingPins) and not instance.advanced
    lane = instance.lane
    gain = 1 if instance.options["tokens"] else 0
    policy = policy_for(lane.pins, lane.frames, gain)
    dist = start_distribution(policy)
    above: list[float] = []
    running = 0.0
    for probability in reversed(dist.tolist()):
        running += probability
        above.append(min(running, 1.0))
    return tuple(reversed(above))


OddsTable = tuple[Fraction, ...] | tuple[float, ...]


@dataclass(frozen=True)
class Odds:
    """A game's odds of scoring at least a score: `kind` "exact" or "optimal" (None: the game has none);
    `table[s]` = P(score >= s), None while `pending` (worked out in the background)."""

    kind: str | None
    table: OddsTable | None = None
    pending: bool = False

    def at_least(self, score: int) -> Fraction | float | None:
        """The chance of scoring `score` or more (None when there are no odds, or not yet)."""
        if self.table is None:
            return None
        if score >= len(self.table):
            return Fraction(0) if isinstance(self.table[0], Fraction) else 0.0
        return self.table[max(score, 0)]


class OddsBook:
    """Every game's odds, kept per (game, options) in this process, and basic Rolling Pins' in the database too.

    The exact odds of the pure-chance games are worked out at once (a second or less). Basic Rolling
    Pins' are read from the database when another process (or this one, before a restart) kept them,
    and otherwise worked out in a background thread the first time they are asked for, then kept
    there: meanwhile they are pending.
    """

    def __init__(self) -> None:
        self.tables: dict[tuple[str, str], OddsTable | None] = {}
        self.working: set[tuple[str, str]] = set()
        self.guard = threading.Lock()

    def odds(self, game: str, options: dict[str, object], store: DailyStore | None = None, work: bool = True) -> Odds:
        """The odds of `game` with `options`, starting their work if it has not started (and `store` has none);
        with `work` false, never started here: pending until a request that needs them starts it."""
        kind = _odds_kind(game, options)
        if kind is None:
            return Odds(None)
        key = (game, json.dumps(options, sort_keys=True))
        with self.guard:
            if key in self.tables:
                return Odds(kind, self.tables[key])
            if kind == "exact":
                table = self.tables[key] = _exact_odds(*key)
                return Odds(kind, table)
            if key in self.working:
                return Odds(kind, None, pending=True)
        kept = None if store is None else store.kept_odds(_rules(), *key)  # the database, outside the lock
        with self.guard:
            if kept is not None:
                self.tables[key] = kept
            if key in self.tables:
                return Odds(kind, self.tables[key])
            if work and key not in self.working:
                self.working.add(key)
                threading.Thread(target=self._work, args=(key, store), name=f"odds {game}", daemon=True).start()
        return Odds(kind, None, pending=True)

    def _work(self, key: tuple[str, str], store: DailyStore | None) -> None:
        table: tuple[float, ...] | None = None
        try:
            table = _optimal_odds(*key)
            if store is not None:
                store.keep_odds(_rules(), *key, table)
        except Exception:  # the board goes on without odds (logged): a failed thread must not stay pending
            logger.exception("working out (or keeping) the odds of %s %s failed", *key)
        with self.guard:
            self.tables[key] = table
            self.working.discard(key)


def _rules() -> str:
    """The solver's rules version: odds kept under older rules are not read back."""
    from pinsetter.solvers.rolling_pins import RULES_VERSION

    return RULES_VERSION


ODDS = OddsBook()


def score_odds(game: str, options: dict[str, object], score: int) -> Fraction | float | None:
    """The chance of scoring `score` or more in `game` with `options`: exact (a Fraction) for the pure-chance
    games, a float for basic Rolling Pins' optimal player; None where there are none, or not yet."""
    return ODDS.odds(game, options).at_least(score)


class DailyGuard:
    """Seal a daily game while its day lasts: the game API answers only its player, and withholds its
    record, review and hints from everybody (a 403 or 409 with one line); the seed leaves its view
    (`GameService.sealed`). After its day an unfinished attempt is not played on: the published seed
    would tell its player every die and card still to come."""

    def __init__(self, app: ASGIApp, store: DailyStore, accounts: AccountStore, clock: Callable[[], datetime]) -> None:
        self.app = app
        self.store = store
        self.accounts = accounts
        self.clock = clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = GAME_PATH.match(scope["path"]) if scope["type"] == "http" else None
        if found is not None and is_row_id(int(found.group(1))):
            refusal = await anyio.to_thread.run_sync(self._refusal, scope, int(found.group(1)), found.group(2))
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _refusal(self, scope: Scope, game_id: int, tail: str | None) -> JSONResponse | None:
        daily = self.store.of_game(game_id)
        if daily is None:
            return None
        if daily[0] < today(self.clock()):
            if scope["method"] == "POST" and tail in MOVES:  # the seed is out: an unfinished attempt stands as left
                message = _("game {id} was the challenge of {day}, which is over: it is not played on after its day")
                return JSONResponse({"error": message.format(id=game_id, day=daily[0].isoformat())}, 409)
            return None
        if tail in WITHHELD:
            message = _(
                "game {id} is a daily challenge: its record, review and hints come when its day ends (midnight UTC)"
            )
            return JSONResponse({"error": message.format(id=game_id)}, 409)
        account = self.accounts.session_account(scope_cookie(scope, SESSION_COOKIE))
        if account is None or account.id != daily[1]:
            message = _("game {id} is another player's daily challenge: it opens when its day ends (midnight UTC)")
            return JSONResponse({"error": message.format(id=game_id)}, 403)
        return None


class DailyService:
    """The day's challenges, attempts and boards; `clock` says what time it is (tests move it)."""

    def __init__(self, storage: Storage, games: GameService, accounts: AccountStore) -> None:
        self.store = DailyStore(storage)
        self.games = games
        self.accounts = accounts
        self.clock: Callable[[], datetime] = lambda: datetime.now(UTC)

    def sealed(self, game_id: int) -> bool:
        """Whether `game_id` is a daily game whose day lasts (its seed stays secret)."""
        daily = self.store.of_game(game_id)
        return daily is not None and daily[0] >= today(self.clock())

    def sealed_among(self, game_ids: list[int]) -> set[int]:
        """Which of `game_ids` are sealed daily games: the history leaves them out until their day ends
        (an attempt's running score would tell others something of the day's dice)."""
        return self.store.from_day(game_ids, today(self.clock()))

    def day(self, text: str | None) -> date:
        """The day asked for (today if none): refused when not YYYY-MM-DD or still to come."""
        now = today(self.clock())
        if text is None:
            return now
        try:
            asked = parse_day(text)
        except ValueError as exc:
            raise Refused(str(exc)) from None
        if asked > now:
            message = _("{day} has not come yet: the daily challenge of a day opens that day (UTC)")
            raise Refused(message.format(day=asked.isoformat()))
        return asked

    @staticmethod
    def known(game: str) -> str:
        """`game`, if the registry has it (NotFound naming the games there otherwise, as the leaderboards do)."""
        checked_mode(game, None)
        return game

    def challenge(self, game: str, day: date, request: Request, work: bool = True) -> dict[str, Any]:
        """A day's challenge in words; its seed only once the day is over; the caller's attempt. `work`: start
        working out its odds if they are not yet (the list of every game's challenge leaves that to each one's page)."""
        options = daily_options(game)
        current = day == today(self.clock())
        instance = get_game(game, options)
        odds = ODDS.odds(game, options, self.store, work)
        ends = datetime.combine(day + timedelta(days=1), time(0), tzinfo=UTC)
        yours = None
        found = signed_in(self.accounts, request)
        if found is not None:
            entry = self.store.attempt(day, game, found[0].id)
            if entry is not None:
                yours = {"game_id": entry.game_id, "finished": entry.finished, "score": _score(entry)}
        return {
            "date": day.isoformat(),
            "game": game,
            "name": _(instance.name),
            "title": game_title(game, options),
            "summary": _(type(instance).summary),
            "options": options,
            "today": current,
            "ends": ends.isoformat(),
            "seed": None if current else str(self.store.seed(day, game)),  # as text: JavaScript would round it
            "start": {"method": "POST", "path": f"/api/daily/{game}/start"} if current else None,
            "has_odds": odds.kind is not None,
            "odds_kind": odds.kind,
            "odds_pending": odds.pending,
            "yours": yours,
        }

    def start(self, game: str, request: Request) -> tuple[GameView, bool]:
        """The caller's attempt at today's challenge: a new game, or the one already started (not finished)."""
        found = signed_in(self.accounts, request)
        if found is None:
            raise HTTPException(401, _("sign in to play the daily challenge"))
        account = found[0]
        day = today(self.clock())
        entry = self.store.attempt(day, game, account.id)
        if entry is None:
            match = Match.new(game, [PlayerSpec(account.name)], self.store.seed(day, game), daily_options(game))
            match.record.result = result_of(match.state, match.players)
            game_id, new = self.store.start(day, game, account.id, match.record)
            if new:
                match.storage = self.games.storage
                match.game_id = game_id
                self.games.remember(game_id, match)
                return self.games.view(match), True
            entry = self.store.attempt(day, game, account.id)
            assert entry is not None
        if entry.finished:
            message = _("you have played today's {game} challenge: one attempt a day, and the board shows yours")
            raise Conflict(message.format(game=_(game_class(game).name)))
        with self.games.lock(entry.game_id):
            return self.games.view(self.games.match(entry.game_id)), False

    def leaderboard(self, game: str, day: date, request: Request) -> list[dict[str, Any]]:
        """The day's finished attempts, best first (equal scores share a rank, the earlier finish first)."""
        over = day < today(self.clock())
        found = signed_in(self.accounts, request)
        me = None if found is None else found[0].id
        odds = ODDS.odds(game, daily_options(game), self.store)
        done = sorted(
            (entry for entry in self.store.board(day, game) if entry.finished),
            key=lambda entry: (-_score(entry), entry.updated, entry.game_id),
        )
        scores = [_score(entry) for entry in done]
        rows = []
        for entry, score in zip(done, scores, strict=True):
            chance = odds.at_least(score)
            mine = me is not None and entry.account_id == me
            rows.append(
                {
                    "rank": 1 + sum(other > score for other in scores),
                    "name": entry.record.players[0].name,
                    "score": score,
                    "game_id": entry.game_id if over or mine else None,
                    "yours": mine,
                    "odds": None if chance is None else float(chance),
                    "odds_exact": str(chance) if isinstance(chance, Fraction) else None,
                    "odds_pending": odds.pending,
                }
            )
        return rows


def _score(entry: DailyEntry) -> int:
    players = (entry.record.result or {}).get("players") or [{}]
    return int(players[0].get("total") or 0)


def add_daily_api(
    app: FastAPI, storage: Storage, games: GameService, accounts: AccountStore, errors: dict[int | str, dict[str, Any]]
) -> DailyService:
    """The daily challenge's endpoints and its guard over the game API; returns its service."""
    daily = DailyService(storage, games, accounts)
    games.sealed = daily.sealed
    responses = errors | DAILY_ERRORS
    app.add_middleware(DailyGuard, store=daily.store, accounts=accounts, clock=lambda: daily.clock())

    @app.get("/api/daily", tags=["daily"], responses=responses)
    def get_dailies(request: Request, date: str | None = None) -> list[dict[str, Any]]:
        """Every game's challenge of the day (today when `date` is left out)."""
        day = daily.day(date)
        return [daily.challenge(game, day, request, work=False) for game in sorted(GAMES)]

    @app.get("/api/daily/{game}", tags=["daily"], responses=responses)
    def get_daily(game: str, request: Request, date: str | None = None) -> dict[str, Any]:
        """A game's challenge of the day (today when `date`, YYYY-MM-DD in UTC, is left out): its options, how to
        start it, the caller's attempt; the seed only for a day that is over."""
        return daily.challenge(daily.known(game), daily.day(date), request)

    @app.post("/api/daily/{game}/start", status_code=201, tags=["daily"], responses=responses)
    def post_daily_start(game: str, request: Request, response: Response) -> GameView:
        """Start (201) or go on with (200) the signed-in player's one attempt at today's challenge of `game`;
        then play it through the game API. 409 once it is finished, 401 for a guest."""
        view, new = daily.start(daily.known(game), request)
        if not new:
            response.status_code = 200
        return view

    @app.get("/api/daily/{game}/leaderboard", tags=["daily"], responses=responses)
    def get_daily_leaderboard(game: str, request: Request, date: str | None = None) -> list[dict[str, Any]]:
        """The day's finished attempts, best first, each with `odds`: the chance of scoring that much or more
        (exact, or an optimal player's for Rolling Pins; null where no solver gives the game's score distribution,
        or while `odds_pending`); `game_id` after the day, or your own."""
        return daily.leaderboard(daily.known(game), daily.day(date), request)

    return daily
