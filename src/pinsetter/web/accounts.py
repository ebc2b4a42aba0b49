"""Accounts over the web API: sign up, sign in, sign out, delete; the session cookie, CSRF and rate limits.

docs/accounts.md is the reference. A session is an HttpOnly, SameSite=Lax cookie
(Secure when the request came over https); a change made with that cookie must
carry the session's CSRF token in the `X-CSRF-Token` header, which a page of
another site cannot read or send. Guests (no cookie) use the API as before.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import threading
import time
from collections import deque
from collections.abc import Callable
from contextlib import suppress
from http.cookies import CookieError, SimpleCookie
from typing import Any

import anyio
from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from pinsetter.i18n import _, ngettext
from pinsetter.storage.accounts import (
    SESSION_DAYS,
    Account,
    AccountStore,
    NameTaken,
    SeatedAtLiveTable,
    is_kept_name,
)
from pinsetter.usertext import check_new_name, name_key
from pinsetter.web.schemas import AccountView, Credentials, ErrorBody, SessionView
from pinsetter.web.service import Conflict, GameService, Refused

__all__ = [
    "CSRF_HEADER",
    "SESSION_COOKIE",
    "CsrfGuard",
    "SignInLimits",
    "add_account_api",
    "csrf_token",
    "scope_cookie",
    "seat_name",
]

SESSION_COOKIE = "pinsetter_session"
CSRF_HEADER = "x-csrf-token"
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Signing in and up set the cookie rather than use it (and, like every body of the API, take only
# `application/json`, which another site's page cannot send here without a CORS consent this server never gives).
CSRF_FREE = frozenset({("POST", "/api/accounts"), ("POST", "/api/session")})
NAME_FAILURES = 5  # failed sign-ins for one name (as names compare) ...
ADDRESS_ATTEMPTS = 60  # sign-ins and sign-ups, right or wrong, from one client address ...
WINDOW = 15 * 60  # ... within this many seconds
ACCOUNT_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": why}
    for code, why in (
        (401, "wrong name or password, or not signed in"),
        (403, "a change with the session cookie but without its X-CSRF-Token header"),
        (409, "the name has an account already, or the account holds a seat at a live table"),
        (422, "a name the name rules refuse, or a password under 8 or over 256 characters"),
        (429, "too many sign-in attempts for the name or from the address: Retry-After says when to try again"),
    )
}


def scope_cookie(scope: Scope, name: str) -> str | None:
    """A cookie's value in a request or WebSocket handshake (None if absent or the header is malformed)."""
    headers = dict(scope.get("headers") or [])
    cookies: SimpleCookie = SimpleCookie()
    with suppress(CookieError):  # a malformed cookie header: read as no cookie
        cookies.load(headers.get(b"cookie", b"").decode("latin-1"))
    found = cookies.get(name)
    return None if found is None else found.value


def csrf_token(session: str) -> str:
    """The session's CSRF token: derived from the session's secret token, so nothing more is stored, and
    it does not reveal the session (nor does the stored hash of the session reveal it)."""
    return hmac.new(session.encode("utf-8", "surrogatepass"), b"pinsetter csrf", hashlib.sha256).hexdigest()


class SignInLimits:
    """How many sign-in attempts a name and a client address have left (sliding windows, in this process)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.name_failures = NAME_FAILURES
        self.address_attempts = ADDRESS_ATTEMPTS
        self.window = WINDOW
        self._names: dict[str, deque[float]] = {}
        self._addresses: dict[str, deque[float]] = {}
        self._guard = threading.Lock()

    def wait(self, name: str | None, address: str) -> int:
        """Seconds until an attempt for `name` (None: a sign-up) from `address` is allowed; 0: now."""
        with self._guard:
            now = self.clock()
            waits = [self._wait(self._addresses, address, self.address_attempts, now)]
            if name is not None:
                waits.append(self._wait(self._names, name_key(name), self.name_failures, now))
            return max(waits)

    def attempted(self, name: str | None, address: str, failed: bool) -> None:
        """Count an attempt from `address`; a failed sign-in counts against the name, a right one clears it."""
        with self._guard:
            now = self.clock()
            self._add(self._addresses, address, now)
            if name is not None and failed:
                self._add(self._names, name_key(name), now)
            elif name is not None:
                self._names.pop(name_key(name), None)

    def _wait(self, counts: dict[str, deque[float]], key: str, most: int, now: float) -> int:
        times = counts.get(key)
        if times is None:
            return 0
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del counts[key]
            return 0
        return 0 if len(times) < most else max(1, math.ceil(times[-most] + self.window - now))

    def _add(self, counts: dict[str, deque[float]], key: str, now: float) -> None:
        if len(counts) > 100_000:  # names nobody tries any more (or made up by a flood): forget the stale
            for stale in [k for k, times in counts.items() if times[-1] <= now - self.window]:
                del counts[stale]
        counts.setdefault(key, deque()).append(now)


class CsrfGuard:
    """Refuse (403) a change to the API that carries a live session cookie but not its CSRF token.

    A session cookie that is no longer current (signed out elsewhere, expired, its account deleted)
    makes the request a guest's: it is not refused, and the endpoints ignore the cookie too.
    """

    def __init__(self, app: ASGIApp, accounts: AccountStore) -> None:
        self.app = app
        self.accounts = accounts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] in UNSAFE
            and scope["path"].startswith("/api/")
            and (scope["method"], scope["path"]) not in CSRF_FREE
        ):
            session = scope_cookie(scope, SESSION_COOKIE)
            if session and not self._matches(scope, session) and await self._current(session):
                refusal = JSONResponse({"error": _("this change needs your session's X-CSRF-Token header")}, 403)
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)

    async def _current(self, session: str) -> bool:
        return await anyio.to_thread.run_sync(self.accounts.session_account, session) is not None

    @staticmethod
    def _matches(scope: Scope, session: str) -> bool:
        given = dict(scope.get("headers") or []).get(CSRF_HEADER.encode(), b"")
        return hmac.compare_digest(given, csrf_token(session).encode())


def signed_in(accounts: AccountStore, request: Request) -> tuple[Account, str] | None:
    """The request's account and session token, if its session cookie is current."""
    session = request.cookies.get(SESSION_COOKIE)
    account = accounts.session_account(session)
    return None if account is None or session is None else (account, session)


def seat_name(accounts: AccountStore, request: Request, typed: str | None) -> tuple[str, int | None]:
    """The name a seat at a table is taken under, and the account taking it (None for a guest).

    Signed in: the account's name (a different name typed is refused, not silently replaced). A guest
    types a name, and not one that has an account: nobody sits under somebody else's account name.
    """
    found = signed_in(accounts, request)
    wanted = (typed or "").strip()
    if found is not None:
        account = found[0]
        if wanted and name_key(wanted) != name_key(account.name):
            message = _("you are signed in as {name}: your seat takes your account's name")
            raise Refused(message.format(name=repr(account.name)))
        return account.name, account.id
    if not wanted:
        raise Refused(_("give a name to sit down, or sign in"))
    if accounts.owner_of(wanted) is not None:
        raise Conflict(_("the name {name} belongs to an account: sign in to sit under it").format(name=repr(wanted)))
    return wanted, None


def _set_session(accounts: AccountStore, request: Request, response: Response, session: str) -> None:
    """Hand the browser its new session; the one it had before (another account's, say) ends."""
    before = request.cookies.get(SESSION_COOKIE)
    if before:
        accounts.close_session(before)
    response.set_cookie(
        SESSION_COOKIE,
        session,
        max_age=SESSION_DAYS * 24 * 3600,
        path="/",
        secure=request.url.scheme == "https",
        httponly=True,
        samesite="lax",
    )


def _clear_session(request: Request, response: Response) -> None:
    response.delete_cookie(
        SESSION_COOKIE, path="/", secure=request.url.scheme == "https", httponly=True, samesite="lax"
    )


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def _too_many(seconds: int) -> HTTPException:
    minutes = max(1, math.ceil(seconds / 60))
    message = ngettext(
        "too many sign-in attempts: try again in {minutes} minute",
        "too many sign-in attempts: try again in {minutes} minutes",
        minutes,
    ).format(minutes=minutes)
    return HTTPException(429, message, headers={"Retry-After": str(seconds)})


def add_account_api(app: FastAPI, accounts: AccountStore, games: GameService) -> SignInLimits:
    """The account endpoints (docs/accounts.md); returns the sign-in limits they keep."""
    limits = SignInLimits()

    @app.post("/api/accounts", status_code=201, tags=["accounts"], responses=ACCOUNT_ERRORS)
    def post_account(body: Credentials, request: Request, response: Response) -> SessionView:
        """Sign up: a new account under `name` (the name rules; unique as names compare), signed in at once."""
        address = _address(request)
        wait = limits.wait(None, address)
        if wait:
            raise _too_many(wait)
        name = body.name.strip()
        try:
            check_new_name(name)
        except ValueError as exc:
            raise Refused(str(exc)) from None
        if is_kept_name(name):
            raise Refused(_("{name} is the name deleted accounts leave behind: choose another").format(name=repr(name)))
        limits.attempted(None, address, failed=False)
        try:
            account = accounts.create(name, body.password)
        except NameTaken:
            raise Conflict(
                _("the name {name} has an account already: choose another").format(name=repr(name))
            ) from None
        session = accounts.open_session(account)
        _set_session(accounts, request, response, session)
        return SessionView(name=account.name, csrf_token=csrf_token(session))

    @app.post("/api/session", tags=["accounts"], responses=ACCOUNT_ERRORS)
    def post_session(body: Credentials, request: Request, response: Response) -> SessionView:
        """Sign in: a session cookie and the CSRF token that changes made with it carry (401 when wrong)."""
        address = _address(request)
        wait = limits.wait(body.name, address)
        if wait:
            raise _too_many(wait)
        account = accounts.check_password(body.name.strip(), body.password)
        limits.attempted(body.name.strip(), address, failed=account is None)
        if account is None:
            raise HTTPException(401, _("wrong name or password"))
        session = accounts.open_session(account)
        _set_session(accounts, request, response, session)
        return SessionView(name=account.name, csrf_token=csrf_token(session))

    @app.get("/api/session", tags=["accounts"])
    def get_session(request: Request, response: Response) -> SessionView:
        """Who is signed in, with the session's CSRF token (for a page opened again); nulls for a guest."""
        found = signed_in(accounts, request)
        if found is None:
            if SESSION_COOKIE in request.cookies:
                _clear_session(request, response)  # a session that ended: its cookie goes too
            return SessionView(name=None, csrf_token=None)
        return SessionView(name=found[0].name, csrf_token=csrf_token(found[1]))

    @app.delete("/api/session", tags=["accounts"], responses=ACCOUNT_ERRORS)
    def delete_session(request: Request, response: Response) -> AccountView:
        """Sign out: the session ends on the server and its cookie is cleared (a guest's call changes nothing)."""
        found = signed_in(accounts, request)
        if found is not None:
            accounts.close_session(found[1])
        _clear_session(request, response)
        return AccountView(status="signed out")

    @app.delete("/api/accounts/me", tags=["accounts"], responses=ACCOUNT_ERRORS)
    def delete_account(request: Request, response: Response) -> AccountView:
        """Delete the signed-in account: its sessions end and its name leaves every stored game
        ("deleted player"); refused (409) while it holds a seat at a table still open or played."""
        found = signed_in(accounts, request)
        if found is None:
            raise HTTPException(401, _("sign in to delete your account"))
        try:
            renamed = accounts.delete(found[0])
        except SeatedAtLiveTable as exc:
            message = _("you hold a seat at table {id}, still open or being played: delete the account after it")
            raise Conflict(message.format(id=exc.args[0])) from None
        for game_id in renamed:
            games.forget(game_id)  # a copy kept here would write the old name back with its next step
        _clear_session(request, response)
        return AccountView(status="deleted", games_renamed=len(renamed))

    return limits
