"""CPU of hearing one PostgreSQL notification, as a table server hears every action (issue 30, part 4).

Run: `.venv/bin/python benchmarks/notify_cost.py [--db URL] [--count 4000]`.

With two server processes, every action is one NOTIFY that every process hears, its own
too (`pinsetter.web.tables.PostgresBroker`). This sends `--count` notifications with a
Ten Pins payload from a thread and measures the listening thread's CPU per notification in
two ways, each under uvloop as `pinsetter serve` runs: psycopg's `AsyncConnection.notifies()`
(what the server uses), and libpq's own queue read from an event-loop reader callback
(`pgconn.consume_input()` and `pgconn.notifies()`), the least that hearing one can cost in Python.
"""

from __future__ import annotations

import argparse
import asyncio
import threading
import time
from collections.abc import Awaitable, Callable

import psycopg
import uvloop

CHANNEL = "pinsetter_notify_cost"
# A notification's payload as a server sends it: table, origin, version, steps, and the step carried.
PAYLOAD = '12 0123456789abcdef 5 41 40 a1b2c3d4e5f60718 [{"actor": 1, "step": "3+4"}]'


def send(dsn: str, count: int) -> None:
    with psycopg.connect(dsn, autocommit=True) as connection:
        for _ in range(count):
            connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, PAYLOAD))


async def through_psycopg(listener: psycopg.AsyncConnection, count: int) -> None:
    """psycopg's async generator, as `PostgresBroker._listen` reads them."""
    heard = 0
    async for _note in listener.notifies():
        heard += 1
        if heard == count:
            return


async def through_libpq(listener: psycopg.AsyncConnection, count: int) -> None:
    """libpq's queue, read when the socket is readable."""
    pgconn = listener.pgconn
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()
    heard = 0

    def readable() -> None:
        nonlocal heard
        pgconn.consume_input()
        while (note := pgconn.notifies()) is not None:
            note.extra.decode()
            heard += 1
        if heard >= count and not done.done():
            done.set_result(None)

    loop.add_reader(pgconn.socket, readable)
    try:
        await done
    finally:
        loop.remove_reader(pgconn.socket)


async def measure(dsn: str, count: int, hear: Callable[[psycopg.AsyncConnection, int], Awaitable[None]]) -> float:
    """The listening thread's CPU per notification, in µs."""
    listener = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
    try:
        await listener.execute(f"LISTEN {CHANNEL}")
        start = time.thread_time()
        sender = threading.Thread(target=send, args=(dsn, count))
        sender.start()
        await hear(listener, count)
        used = time.thread_time() - start
        sender.join()
        return 1e6 * used / count
    finally:
        await listener.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--count", type=int, default=4000)
    args = parser.parse_args()
    for name, hear in (("psycopg notifies()", through_psycopg), ("libpq from a reader", through_libpq)):
        micros = uvloop.run(measure(args.db, args.count, hear))
        print(f"{name}: {micros:.1f} µs of the listening thread's CPU per notification ({args.count} heard)")


if __name__ == "__main__":
    main()
