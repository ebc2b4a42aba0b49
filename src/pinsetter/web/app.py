"""The web app: a JSON API (documented at /docs) and the pages that use it, all served offline.

Every error a request can cause is a 4xx JSON body `{"error": "one line"}`, in the
request's language (Accept-Language; the page sends the language its switch chose);
request bodies are size-limited before they are read. User text travels as
JSON data and the pages insert it with `textContent`, never as HTML.
"""

from __future__ import annotations

import hashlib
import json.decoder
import os
import re
from collections.abc import Callable
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pinsetter.catalog import catalog, game_title
from pinsetter.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    _,
    current_language,
    negotiate,
    normalise_language,
    translations_json,
    using_language,
)
from pinsetter.lessons import LEARN_MARK
from pinsetter.records import MAX_RECORD_BYTES, validation_message
from pinsetter.storage import Storage
from pinsetter.usertext import visible
from pinsetter.web.accounts import SESSION_COOKIE, CsrfGuard, add_account_api, scope_cookie, seat_name, signed_in
from pinsetter.web.daily import add_daily_api
from pinsetter.web.ratings import add_rating_api
from pinsetter.web.schemas import (
    ActionRequest,
    AdvanceRequest,
    ErrorBody,
    GameView,
    HintView,
    HostRequest,
    NewGame,
    NewTable,
    Number,
    ReviewView,
    RulesBlockView,
    RulesView,
    SitRequest,
)
from pinsetter.web.service import Conflict, GameService, NotFound, Refused

__all__ = ["MAX_BODY", "MAX_DEPTH", "create_app"]

MAX_BODY = 64 * 1024  # every request but a record upload
MAX_DEPTH = 32  # levels of JSON nesting in a request body (a record needs 6)
GZIP_MINIMUM = 500  # bytes: a smaller answer goes as it is (gzip's header would eat the saving)
LANGUAGE_COOKIE = "pinsetter_lang"  # set by the page's language switch (app.js)
STATIC = files("pinsetter.web") / "static"
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": why}
    for code, why in (
        (404, "no such game, table or seat"),
        (409, "not possible in the game's (or the table's) state"),
        (413, f"body too large: over {MAX_BODY} bytes ({MAX_RECORD_BYTES} for a record), chunked or not"),
        (
            422,
            "refused: a body that is not UTF-8 or nests JSON over "
            f"{MAX_DEPTH} levels, an unknown key, a wrong type (strict: no number as text, no true as 1), "
            "a number in the path not in plain digits (`+1`, `01`), or a request the game refuses",
        ),
    )
}


FOREVER = "public, max-age=31536000, immutable"  # a versioned address: its content never changes
REVALIDATE = "no-cache"  # kept, but checked with the server (ETag) before each use: never a stale module


class RevalidatedFiles(StaticFiles):
    """/static/...: the browser may keep a file but asks first (a 304 when unchanged), so an upgrade shows at once."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["cache-control"] = REVALIDATE
        return response


class VersionedFiles(StaticFiles):
    """/static/v/{version}/...: the page's own address for its files, `version` a digest of them all
    (`static_version`): a new release or an edited file gets a new address, so a browser keeps these a year."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["cache-control"] = FOREVER
        return response


def static_version() -> str:
    """A digest of every static file's name and content: read at each page load (about 130 kB, well
    under a millisecond), so a file edited while the server runs gets a new address at once."""
    digest = hashlib.sha256()
    root = Path(str(STATIC))
    for folder, subfolders, names in os.walk(root):
        subfolders.sort()
        for name in sorted(names):
            path = Path(folder) / name
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


STATIC_ADDRESS = re.compile(r'(["\'(])/static/')


def index_page() -> str:
    """index.html with its static addresses versioned; the modules' relative imports inherit the version."""
    text = (Path(str(STATIC)) / "index.html").read_text(encoding="utf-8")
    return STATIC_ADDRESS.sub(rf"\1/static/v/{static_version()}/", text)


@cache
def page_texts() -> frozenset[str]:
    """The texts the page's modules look up with t() and tn(): Babel's JavaScript extractor over them, as
    `make messages-extract` reads them. The page needs no other text (the server translates its answers)."""
    from babel.messages.extract import extract_from_file

    found: set[str] = set()
    for path in sorted(Path(str(STATIC)).rglob("*.js")):
        for _line, message, _comments, _context in extract_from_file(
            "javascript", str(path), keywords={"t": None, "tn": (1, 2)}, options={"parse_template_string": "true"}
        ):
            found.update(message if isinstance(message, tuple) else (message,))
    return frozenset(text for text in found if text)


@cache
def page_catalog(language: str) -> dict[str, str]:
    """The page's texts in `language`: the gettext catalog cut to `page_texts` (a seventh of it, for Japanese)."""
    texts = page_texts()
    return {key: text for key, text in translations_json(language).items() if key in texts}


class Language:
    """Each request speaks its own language: `?lang=`, else the page's switch (the `pinsetter_lang` cookie,
    which WebSockets carry too), else Accept-Language, else English."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        with using_language(request_language(scope)):
            await self.app(scope, receive, send)


def request_language(scope: Scope) -> str:
    from urllib.parse import parse_qs

    query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang")
    if query:
        return normalise_language(query[0]) or DEFAULT_LANGUAGE
    chosen = normalise_language(scope_cookie(scope, LANGUAGE_COOKIE) or "")  # a malformed cookie header: none
    if chosen:
        return chosen
    headers = dict(scope.get("headers") or [])
    return negotiate(headers.get(b"accept-language", b"").decode("latin-1"))


class RequestBody:
    """Read a request's body before the app does, and refuse it with the API's one-line errors.

    Over its limit (413), whatever the headers say and however it is sent (a chunked body
    has no Content-Length); not UTF-8 text (422); JSON nested deeper than MAX_DEPTH (422:
    a parser would recurse that deep, and a few levels are all any request needs). The
    body is then handed to the app as it came.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = MAX_RECORD_BYTES if scope["path"] == "/api/records" else MAX_BODY
        too_large = _("the request body is over {limit} bytes").format(limit=limit)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _send_error(send, 413, too_large)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left before sending its body: nobody to answer
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _send_error(send, 413, too_large)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        problem = body_problem(body)
        if problem is not None:
            await _send_error(send, 422, problem)
            return
        given = False

        async def replay() -> Message:
            nonlocal given
            if given:
                return await receive()  # after the body: the disconnect
            given = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


JSON_TOKENS = re.compile(r'["\[\]{}]')
# The json module's string scanner (in C): where a JSON string that starts at a position ends.
scan_string: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]


def body_problem(body: bytes) -> str | None:
    """Why a request body is refused before it is parsed (not UTF-8, nested too deep), or None."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _("the request body is not UTF-8 text (byte {at})").format(at=exc.start)
    deepest = json_depth(text)
    if deepest > MAX_DEPTH:
        return _("the request body nests JSON {depth} levels deep: at most {most}").format(
            depth=deepest, most=MAX_DEPTH
        )
    return None


def json_depth(text: str) -> int:
    """How deep JSON text nests its arrays and objects, counted before parsing it (in linear time).

    Strings are skipped with the json module's own scanner; text that is not JSON is
    counted as far as it goes, and the parser then says what is wrong with it.
    """
    depth = deepest = position = 0
    while (found := JSON_TOKENS.search(text, position)) is not None:
        token, position = found.group(), found.end()
        if token == '"':
            try:
                position = scan_string(text, position)[1]
            except ValueError:  # an unterminated string or a control character in one
                break
        elif token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


async def _send_error(send: Send, status: int, message: str) -> None:
    body = JSONResponse({"error": message}, status_code=status).body
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _one_line(text: str) -> str:
    return visible(" ".join(str(text).split()))


def _validation_line(exc: RequestValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    message = validation_message(first)
    return _one_line(f"{where}: {message}" if where else message)


def can_review(game_id: str, options: dict[str, Any]) -> bool:
    """The history's link to a review: the game's decisions have values (pinsetter.review.reviewable).

    A record whose options no longer make a game (older rules) has none to review.
    """
    from pinsetter.core.game import GameError
    from pinsetter.records import game_played
    from pinsetter.review import reviewable

    try:
        return reviewable(game_played(game_id, options)) is None
    except GameError:
        return False


def create_app(db: str | None = None, origins: tuple[str, ...] = ()) -> FastAPI:
    """The app over one game history (a SQLite path or SQLAlchemy URL; default as the CLI).

    `origins` are the extra web origins allowed to open table WebSockets (the page's own always is).
    """
    from contextlib import asynccontextmanager

    from pinsetter.storage.accounts import AccountStore
    from pinsetter.web.tables import Hub, PostgresBroker, TableService, origin_of

    given = [origin_of(text) for text in origins]
    if None in given:
        raise ValueError(f"not a web origin (https://host or http://host:port): {origins!r}")
    allowed = frozenset(found for found in given if found is not None)
    storage = Storage(db)
    service = GameService(storage)
    tables = TableService(storage, service)
    service.table_of = tables.store.table_of_game
    accounts = AccountStore(storage)
    hub = Hub(tables)

    def account_of(socket: WebSocket) -> int | None:
        """The account a table connection's session cookie signs in, if any (docs/tables.md, Your turn)."""
        found = accounts.session_account(socket.cookies.get(SESSION_COOKIE))
        return None if found is None else found.id

    hub.account_of = account_of
    if storage.engine.dialect.name == "postgresql":
        hub.broker = PostgresBroker(storage.url, hub.push, hub.resync)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> Any:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(
        title="pinsetter",
        summary="Play four bowling-themed tabletop games; the server applies every step through the rules.",
        version="1",
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.tables = tables
    app.state.hub = hub
    app.state.accounts = accounts

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        headers = dict(exc.headers or {})
        message = str(exc.detail)
        if exc.status_code == 405:  # Starlette names the methods the address takes
            allowed = ", ".join(sorted(m.strip() for m in headers.get("Allow", "").split(",") if m.strip()))
            headers["Allow"] = allowed
            message = _("{method} is not allowed here: use {allowed}").format(method=request.method, allowed=allowed)
        elif exc.status_code == 404 and message == "Not Found":
            message = _("nothing here: {path}").format(path=request.url.path)
        return JSONResponse({"error": _one_line(message)}, status_code=exc.status_code, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": _validation_line(exc)}, status_code=422)

    @app.exception_handler(Refused)
    async def refused(_request: Request, exc: Refused) -> JSONResponse:
        return JSONResponse({"error": _one_line(str(exc))}, status_code=422)

    @app.exception_handler(NotFound)
    async def not_found(_request: Request, exc: NotFound) -> JSONResponse:
        return JSONResponse({"error": _one_line(str(exc))}, status_code=404)

    @app.exception_handler(Conflict)
    async def conflict(_request: Request, exc: Conflict) -> JSONResponse:
        return JSONResponse({"error": _one_line(str(exc))}, status_code=409)

    # --- the API ---------------------------------------------------------------------------
    @app.get("/api/catalog", tags=["games"])
    def get_catalog() -> list[dict[str, Any]]:
        """Every game: players, options with help texts and choices, bots."""
        return catalog()

    @app.post("/api/catalog/{game}/options/{name}/file", tags=["games"], responses=ERRORS)
    async def post_option_file(game: str, name: str, request: Request, file_name: str = "") -> dict[str, str]:
        """A player's own data for an option (a dice set as JSON or TOML, the body): checked, and returned
        inline (`value`, to send as the option) with a `label` (the file's name) and its `words`."""
        from pinsetter.catalog import read_option_file
        from pinsetter.core.game import GameError

        raw = await request.body()
        try:
            return read_option_file(game, name, raw, file_name or "data.json")
        except GameError as exc:
            raise Refused(str(exc)) from None

    @app.get("/api/i18n/{lang}", tags=["games"])
    def get_translations(lang: str) -> dict[str, Any]:
        """The page's texts in `lang` (msgid to text, from the gettext catalog: the texts its scripts look up with
        `t()`/`tn()`); `auto`: the request's language.

        Unknown languages give English (an empty catalog: the page's texts are English)."""
        language = current_language() if lang == "auto" else normalise_language(lang) or DEFAULT_LANGUAGE
        return {"language": language, "languages": list(LANGUAGES), "messages": page_catalog(language)}

    @app.get("/api/rules/{game}", tags=["games"], responses=ERRORS)
    def get_rules(game: str) -> RulesView:
        """A game's rules for players in the request's language: as plain text, and as blocks to draw."""
        from pinsetter.core.game import GameError
        from pinsetter.core.rules_text import parse_rules, plain_rules
        from pinsetter.games.registry import get_game

        try:
            instance = get_game(game)
        except GameError as exc:
            raise NotFound(str(exc)) from None
        blocks = parse_rules(instance.rules())
        return RulesView(
            game=game,
            name=_(instance.name),
            rules=plain_rules(blocks),
            blocks=[RulesBlockView(kind=block.kind, text=block.text, items=list(block.items)) for block in blocks],
        )

    @app.post("/api/games", status_code=201, tags=["play"], responses=ERRORS)
    def post_game(body: NewGame) -> GameView:
        """Start a game: options are checked by the engine; bots play server-side when advanced."""
        return service.create(body)

    @app.get("/api/games/{game_id}", tags=["play"], responses=ERRORS)
    def get_game_view(game_id: Number) -> GameView:
        with service.lock(game_id):
            return service.view(service.match(game_id))

    @app.post("/api/games/{game_id}/actions", tags=["play"], responses=ERRORS)
    def post_action(game_id: Number, body: ActionRequest) -> GameView:
        """Apply a human's decision: an action in text form, or picked pins (and a pile)."""
        return service.act(game_id, body.action, body.pins, body.pile)

    @app.post("/api/games/{game_id}/advance", tags=["play"], responses=ERRORS)
    def post_advance(game_id: Number, body: AdvanceRequest | None = None) -> GameView:
        """Play the next chance outcome or bot move (or all of them until a human acts)."""
        return service.advance(game_id, (body or AdvanceRequest()).until)

    @app.post("/api/games/{game_id}/undo", tags=["play"], responses=ERRORS)
    def post_undo(game_id: Number) -> GameView:
        """Take back the last human decision, never past a revealed die or card (409 with the reason)."""
        return service.undo(game_id)

    @app.get("/api/games/{game_id}/hint", tags=["play"], responses=ERRORS)
    def get_hint(game_id: Number, chances: bool = False) -> HintView:
        """Every option's value, best first; `chances=true` adds each one's chance to finish ahead of the
        other players (basic Rolling Pins with other players: `chances_offered`; 409 elsewhere)."""
        with service.lock(game_id):
            return service.hint(game_id, chances)

    @app.get("/api/games/{game_id}/review", tags=["records"], responses=ERRORS)
    def get_review(game_id: Number, player: str | None = None) -> ReviewView:
        """Each decision of the game's humans (or of `player`) against the best move, the loss, an accuracy
        figure, the three costliest decisions and the expected final score over the game (docs/review.md).

        404: no such game or player; 409: a game that cannot be reviewed (no decisions, advanced Rolling
        Pins not solved yet, a record that no longer replays) or one still played at an online table."""
        return service.review(game_id, player)

    @app.get("/api/games/{game_id}/record", tags=["records"], responses=ERRORS)
    def get_record(game_id: Number) -> JSONResponse:
        """The game's JSON record, which `pinsetter replay` verifies."""
        with service.lock(game_id):
            match = service.match(game_id)
            if not match.state.is_terminal() and service.secret(game_id):
                message = _(
                    "game {id} is played at an online table: its record (and seed) come when it ends "
                    "or the table closes"
                )
                raise Conflict(message.format(id=game_id))
            data = match.record.outside_json()
        return JSONResponse(data, headers={"content-disposition": f'attachment; filename="pinsetter-{game_id}.json"'})

    @app.get("/api/games/{game_id}/steps/{step}", tags=["records"], responses=ERRORS)
    def get_step(game_id: Number, step: Number) -> GameView:
        """The game as it stood after `step` steps (0 = the start), to step through a past game."""
        return service.at_step(game_id, step)

    @app.post("/api/records", status_code=201, tags=["records"], responses=ERRORS)
    async def post_record(request: Request) -> dict[str, int]:
        """Upload a record: it is verified by replay (and against its seed) and stored."""
        text = (await request.body()).decode("utf-8")  # UTF-8 already checked (RequestBody)
        return {"id": service.upload(text)}

    @app.get("/api/history", tags=["history"])
    def get_history(
        game: str | None = None, player: str | None = None, limit: int = 200, resumable: bool = False
    ) -> list[dict[str, Any]]:
        """Past games, newest first, each with its `status`: finished, unfinished (to be resumed), `table` (being
        played at the online table `table`) or abandoned (its table closed before the end), and `reviewable`
        (its decisions can be reviewed: GET /api/games/{id}/review).

        `resumable=true`: only the games the page can resume (unfinished, not a table's, seeded chance,
        a record that replays), the newest `limit` of them."""
        from pinsetter.storage.tables import game_status

        limit = max(1, min(limit, 1000))
        if resumable:
            found = service.resumable(game or None, player or None, limit)
        else:
            found = storage.history(game or None, player or None, limit)
        sealed = app.state.daily.sealed_among([g.id for g in found])  # today's daily games: after the day
        found = [g for g in found if g.id not in sealed]
        at = tables.store.tables_of_games([g.id for g in found])
        return [
            {
                **g.summary(),
                "title": game_title(g.game, g.record.options),
                "status": game_status(g, at.get(g.id)),
                "learn": bool(g.record.extra.get(LEARN_MARK)),
                "reviewable": can_review(g.game, g.record.options),
                "table": at[g.id][0] if g.id in at else None,
            }
            for g in found
        ]

    @app.get("/api/stats", tags=["history"])
    def get_stats(player: str | None = None, game: str | None = None, bots: bool = False) -> dict[str, Any]:
        """One block per game and options in play (`series`): games, average with 95% CI, best, worst,
        strike and spare rates (every frame but the last), scores over time. Bots' scores count only with
        `bots=true`. `fewest_for_interval`: the scores a series needs for its interval (`ci95` is null below)."""
        from pinsetter.storage.stats import FEWEST_FOR_INTERVAL, player_stats

        found = player_stats(storage, player or None, game or None, include_bots=bots)
        return {**found, "fewest_for_interval": FEWEST_FOR_INTERVAL}

    # --- accounts (docs/accounts.md) ---------------------------------------------------------
    app.state.sign_in_limits = add_account_api(app, accounts, service)
    add_rating_api(app, storage, ERRORS)
    app.state.daily = add_daily_api(app, storage, service, accounts, ERRORS)  # docs/daily.md

    # --- online tables (docs/tables.md) ---------------------------------------------------------
    @app.post("/api/tables", status_code=201, tags=["tables"], responses=ERRORS)
    def post_table(body: NewTable, request: Request) -> dict[str, Any]:
        """Host a table: seats for humans and bots. The host token is returned here only.

        `listed`: the table appears in the open tables until it starts; a signed-in host's name is shown there.
        """
        kinds = [seat.kind for seat in body.seats]
        host = signed_in(accounts, request)
        return tables.create(
            body.game,
            dict(body.options),
            kinds,
            body.seed,
            body.turn_seconds,
            body.fallback_bot,
            body.rated,
            turn_hours=body.turn_hours,
            listed=body.listed,
            host_name=None if host is None else host[0].name,
        )

    @app.get("/api/tables", tags=["tables"], responses=ERRORS)
    def get_tables(request: Request, open: bool = False, mine: bool = False) -> list[dict[str, Any]]:
        """`open=true`: the listed tables waiting for players, newest first. `mine=true`: the tables being
        played where it is the signed-in player's turn (401 for a guest). Never a token."""
        if open == mine:
            raise Refused(_("ask for open=true or mine=true"))
        if open:
            return tables.open_tables()
        found = signed_in(accounts, request)
        if found is None:
            raise StarletteHTTPException(401, _("sign in to see the tables where it is your turn"))
        return tables.tables_to_play(found[0].id)

    @app.get("/api/tables/{table_id}", tags=["tables"], responses=ERRORS)
    def get_table(table_id: Number) -> dict[str, Any]:
        """The table's seats (names, free or not) and status; never a token."""
        return tables.table(table_id).public()

    # `:path`: a code typed with a slash ("a/b") is looked up and not found like any other, not "nothing here".
    @app.get("/api/tables/code/{code:path}", tags=["tables"], responses=ERRORS)
    def get_table_by_code(code: str) -> dict[str, Any]:
        found = tables.store.by_code(code[:16])
        if found is None:
            raise NotFound(_("no table with the code {code}").format(code=repr(code[:16])))
        return found.public()

    @app.post("/api/tables/{table_id}/seats/{seat}", tags=["tables"], responses=ERRORS)
    def post_seat(table_id: Number, seat: Number, body: SitRequest, request: Request) -> dict[str, Any]:
        """Take a free seat: a guest by name (not an account's), a signed-in player under the account's name.
        The seat's token comes back to this caller only (409 when taken)."""
        name, account = seat_name(accounts, request, body.name)
        return tables.sit(table_id, seat, name, account)

    @app.post("/api/tables/{table_id}/start", tags=["tables"], responses=ERRORS)
    async def post_start(table_id: Number, body: HostRequest) -> dict[str, Any]:
        """Start the game: it returns at once, and the bots play afterwards, each step pushed as it comes."""
        import anyio

        game_id = await anyio.to_thread.run_sync(tables.start, table_id, body.host_token)
        await hub.broker.publish(table_id, tables.stamp(table_id))  # what is kept here is current: keep it
        return {"game_id": game_id}

    @app.post("/api/tables/{table_id}/seats/{seat}/bot", tags=["tables"], responses=ERRORS)
    async def post_seat_bot(table_id: Number, seat: Number, body: HostRequest) -> dict[str, Any]:
        """The host gives a free seat to a bot before the start, or an idle player's seat during the game."""
        import anyio

        await anyio.to_thread.run_sync(tables.give_to_bot, table_id, seat, body.host_token, body.bot or "random")
        await hub.broker.publish(table_id)
        return tables.table(table_id).public()

    @app.post("/api/tables/{table_id}/close", tags=["tables"], responses=ERRORS)
    async def post_close(table_id: Number, body: HostRequest) -> dict[str, str]:
        tables.close(table_id, body.host_token)
        await hub.broker.publish(table_id)
        return {"status": "closed"}

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(socket: WebSocket, table_id: Number, token: str | None = None) -> None:
        """Live state after every step; a seat sends {"action": text} (or picked pins); see docs/tables.md."""
        await hub.serve(socket, table_id, token, allowed)

    # --- the pages ---------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    def index() -> HTMLResponse:
        return HTMLResponse(index_page(), headers={"cache-control": REVALIDATE})

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(status_code=204)

    # The versioned address first: "/static" would otherwise take "v/..." for a folder of its own.
    app.mount("/static/v/{version}", VersionedFiles(directory=str(STATIC)), name="versioned")
    app.mount("/static", RevalidatedFiles(directory=str(STATIC)), name="static")
    # Pages, modules, the language catalog and API answers go gzipped to a client that asks (docs/web.md):
    # Starlette's own middleware; zlib's default level (9 saves a few hundred bytes for twice the time).
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM, compresslevel=6)
    app.add_middleware(CsrfGuard, accounts=accounts)  # a cookie-authenticated change carries its CSRF token
    app.add_middleware(RequestBody)
    app.add_middleware(Language)  # outermost: even a refused body is answered in the request's language
    return app
