"""How long a table of bots takes to answer its start, to push its first bot step and to end.

Run: `.venv/bin/python benchmarks/tables_bots_start.py [--seats 12] [--frames 1] [--bot optimal]`.
It hosts a table of advanced Rolling Pins with every seat a bot (by default twelve optimal
bots, whose first move solves the game exactly: keep `--frames` at 3 or fewer, a longer game's
solve takes minutes), watches it as a spectator over the WebSocket, presses Start and reports
the wall time of the start request, of the first bot step pushed and of the game's end, and
how many states the spectator was pushed. The bots play in the background (docs/tables.md,
How the bots play): the start answers at once, before any bot has moved.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from fastapi.testclient import TestClient

from pinsetter.web.app import create_app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seats", type=int, default=12)
    parser.add_argument("--frames", type=int, default=1)
    parser.add_argument("--bot", default="optimal")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, TestClient(create_app(f"{tmp}/tables.sqlite")) as client:
        body = {
            "game": "rolling-pins",
            "options": {"advanced": True, "frames": args.frames},
            "seats": [{"kind": f"bot:{args.bot}"}] * args.seats,
            "seed": 1,
        }
        table = client.post("/api/tables", json=body).json()
        with client.websocket_connect(f"/ws/tables/{table['id']}") as spectator:
            spectator.receive_json()  # the open table
            began = time.monotonic()
            answer = client.post(f"/api/tables/{table['id']}/start", json={"host_token": table["host_token"]})
            answered = time.monotonic() - began
            assert answer.status_code == 200, answer.text
            pushes, first_step = 0, None
            while True:
                state = spectator.receive_json()
                pushes += 1
                view = state["view"]
                if first_step is None and view is not None and view["log"]:
                    first_step = time.monotonic() - began
                if view is not None and view["terminal"]:
                    break
            ended = time.monotonic() - began
    load = os.getloadavg()[0]
    print(f"{args.seats} {args.bot} bots, advanced Rolling Pins, {args.frames} frame(s)")
    print(
        f"start answered in {answered:.3f} s; first bot step pushed at {first_step or 0:.2f} s; "
        f"game over at {ended:.2f} s; {pushes} states pushed to a spectator; load average {load:.1f} on 2 cores"
    )


if __name__ == "__main__":
    main()
