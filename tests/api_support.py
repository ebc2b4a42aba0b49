"""Requests a test makes to a server it started: one ceiling for all of them.

httpx gives up on an answer after 5 seconds by default. On a loaded machine a
test's own server can take longer than that for an honest request (an argon2
sign-up of 64 MiB, a step a solver works out, a server whose thread waits for
the interpreter), and a request that timed out failed the test though nothing
was wrong (issue 32: the accessibility audit's set-up, at a load of 16). The
ceilings below only guard against a server that never answers; the tests wait
for the answer itself, as they wait for a page or a screen to be ready.
`tests/test_support_ceilings.py` checks that every request in the tests has a
ceiling.
"""

from __future__ import annotations

from typing import Any

import httpx

from browser_support import WAIT

API_TIMEOUT = httpx.Timeout(WAIT)
OPEN_TIMEOUT = WAIT  # seconds a WebSocket handshake may take (the websockets library gives it 10)


def api_client(base: str, **options: Any) -> httpx.Client:
    """A client of the server at `base` with the tests' ceiling (unless `options` give another)."""
    return httpx.Client(base_url=base, **({"timeout": API_TIMEOUT} | options))


def api_get(url: str, **options: Any) -> httpx.Response:
    """`httpx.get` with the tests' ceiling."""
    return httpx.get(url, **({"timeout": API_TIMEOUT} | options))


def api_post(url: str, **options: Any) -> httpx.Response:
    """`httpx.post` with the tests' ceiling."""
    return httpx.post(url, **({"timeout": API_TIMEOUT} | options))
