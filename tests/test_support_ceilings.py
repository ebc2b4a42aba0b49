"""Every request a test makes to its own server has a ceiling far above a loaded machine's answer.

httpx gives up after 5 s and websockets' handshake after 10 s by default; a
loaded machine took longer than that for honest requests, and those tests
failed though nothing was wrong (issue 32). The tests go through
`api_support` (or name a ceiling of their own, as the polls for a server's
start do); this reads their source so that a new test cannot bring the
defaults back.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
HTTPX_CALLS = {"get", "post", "put", "patch", "delete", "head", "options", "request", "stream", "Client", "AsyncClient"}


def httpx_calls_without_a_ceiling(tree: ast.AST) -> list[int]:
    """Lines of `httpx.X(...)` calls that pass no `timeout`."""
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "httpx"
        and node.func.attr in HTTPX_CALLS
        and not any(keyword.arg in ("timeout", None) for keyword in node.keywords)
    ]


def websocket_connects_by_their_own_name(tree: ast.AST) -> list[int]:
    """Lines importing websockets' `connect` unrenamed (it is wrapped with `open_timeout` under that name)."""
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and (node.module or "").startswith("websockets")
        and any(alias.name == "connect" and alias.asname in (None, "connect") for alias in node.names)
    ]


def test_every_request_of_the_tests_has_a_ceiling() -> None:
    found: list[str] = []
    for path in sorted(TESTS.glob("*.py")):
        if path.name == "api_support.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{path.name}:{line}: httpx call without timeout" for line in httpx_calls_without_a_ceiling(tree)]
        unwrapped = websocket_connects_by_their_own_name(tree)
        found += [f"{path.name}:{line}: websockets' connect unwrapped" for line in unwrapped]
    assert not found, "\n".join(found)


def test_the_checks_see_what_they_look_for() -> None:
    """The scan finds a call without a ceiling and an unwrapped import, and passes one with them."""
    bad = ast.parse("import httpx\nhttpx.get(url)\nwith httpx.Client(base_url=b) as c: pass\n")
    assert httpx_calls_without_a_ceiling(bad) == [2, 3]
    good = ast.parse("import httpx\nhttpx.get(url, timeout=1)\nhttpx.post(url, **options)\n")
    assert httpx_calls_without_a_ceiling(good) == []
    imports = ast.parse(
        "from websockets.sync.client import connect\nfrom websockets.asyncio.client import connect as connect_at_once\n"
    )
    assert websocket_connects_by_their_own_name(imports) == [1]
