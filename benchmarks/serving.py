"""`pinsetter serve` for the benchmark scripts: a free loopback port, a temporary history, a clean stop.

The web benchmarks (web_roundtrip.py, web_weight.py, gallery.py) measure a real
server process, started the way a user starts it; this is the one place that
knows how.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_up(base: str, seconds: float = 20.0) -> None:
    """Return once the server answers; give up with one line after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            httpx.get(base + "/api/catalog", timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.05)
    raise SystemExit("the server did not start")


@contextmanager
def server(own_cache: bool = False) -> Iterator[str]:
    """`pinsetter serve` of this checkout over a temporary history; yields its base URL.

    `own_cache` gives it an empty solver cache too, so that nothing of the user's is read or written.
    """
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="pinsetter-bench-") as tmp:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        if own_cache:
            env["PINSETTER_CACHE_DIR"] = f"{tmp}/cache"
        command = [sys.executable, "-m", "pinsetter.cli.app", "serve", "--port", str(port), "--db", f"{tmp}/h.sqlite"]
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
        try:
            wait_up(base)
            yield base
        finally:
            process.terminate()
            process.wait(10)
