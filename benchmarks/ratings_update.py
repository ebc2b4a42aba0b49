"""What rating a table's game costs the step that ends it (docs/accounts.md, "Ratings").

Run: `.venv/bin/python benchmarks/ratings_update.py [--rounds 50]`.
On a fresh SQLite file: accounts made straight in the database (no argon2: not what is timed),
then for 2 and 12 seats (half of them bots for "mixed"), rounds of `rate_table` in its own
transaction on a new table each time, the accounts' ratings carried over from round to round.
Reports openskill's update alone and the whole transaction (reads, locks, writes, commit):
wall time, median, p90, worst, mean.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time

import sqlalchemy as sa
from solitaire_expectimax_games import spread

from pinsetter.storage import Storage
from pinsetter.storage.accounts import accounts
from pinsetter.storage.ratings import MODEL, RatingStore, rate_table
from pinsetter.storage.tables import Seat, TableStore


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as folder:
        storage = Storage(f"sqlite:///{os.path.join(folder, 'h.sqlite')}")
        with storage.transaction() as connection:
            rows = [{"name": f"P{i}", "name_key": f"p{i}", "password_hash": "-", "created": "now"} for i in range(12)]
            connection.execute(accounts.insert(), rows)
            ids = [int(row[0]) for row in connection.execute(sa.select(accounts.c.id).order_by(accounts.c.id))]
        store = TableStore(storage)
        for label, humans, bots in (("2 accounts", 2, 0), ("12 accounts", 12, 0), ("6 accounts, 6 bots", 6, 6)):
            seats = [Seat("human", f"P{i}", f"{i:064x}", ids[i]) for i in range(humans)]
            seats += [Seat("bot:random", f"Bot {i}") for i in range(bots)]
            alone, whole = [], []
            for _round in range(args.rounds):
                table, _host = store.create("tenpins", {"frames": 10}, 1, seats, {"rated": True})
                result = {"players": [{"total": rng.randrange(301)} for _ in seats]}
                teams = [[MODEL.rating()] for _ in seats]
                began = time.perf_counter()
                MODEL.rate(teams, ranks=[float(rng.randrange(1, 5)) for _ in seats])
                alone.append(time.perf_counter() - began)
                began = time.perf_counter()
                with storage.transaction() as connection:
                    rate_table(connection, table, result)
                whole.append(time.perf_counter() - began)
            print(spread(f"{label}: openskill's update", alone))
            print(spread(f"{label}: rate_table, its transaction", whole))
        began = time.perf_counter()
        leaders = RatingStore(storage).leaderboard("tenpins", "standard")
        print(f"leaderboard of {len(leaders)}: {(time.perf_counter() - began) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
