"""What a sign-in costs, and whether a refusal takes as long for a name without an account (docs/accounts.md).

Run: `.venv/bin/python benchmarks/accounts_sign_in.py [--rounds 10]`.
Through the API (TestClient, a fresh SQLite file, limits lifted): one account,
then rounds of a right sign-in, a wrong password and a name that has no account,
interleaved so that the machine's drift falls on all three alike. Reports the
wall time of each (median, p90, worst, mean); the two refusals should match
within the noise (both are one argon2 check), and a right one costs a check and
a session.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from fastapi.testclient import TestClient
from solitaire_expectimax_games import spread

from pinsetter.web.app import create_app

PASSWORD = "correct horse battery staple"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    times: dict[str, list[float]] = {"right password": [], "wrong password": [], "no such account": []}
    with tempfile.TemporaryDirectory() as folder, TestClient(create_app(os.path.join(folder, "h.sqlite"))) as client:
        limits = client.app.state.sign_in_limits  # type: ignore[attr-defined]
        limits.name_failures = limits.address_attempts = 10**9
        assert client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD}).status_code == 201
        bodies = {
            "right password": ({"name": "Ann", "password": PASSWORD}, 200),
            "wrong password": ({"name": "Ann", "password": "not the password"}, 401),
            "no such account": ({"name": "Nobody", "password": "not the password"}, 401),
        }
        for _ in range(args.rounds):
            for label, (body, status) in bodies.items():
                client.cookies.clear()
                start = time.perf_counter()
                answer = client.post("/api/session", json=body)
                times[label].append(time.perf_counter() - start)
                assert answer.status_code == status, answer.text
    for label, seconds in times.items():
        print(spread(label, seconds))
    print("load:", " ".join(f"{x:.2f}" for x in os.getloadavg()), f"({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
