"""The web stack's own floor: server CPU per action with no game at all (issue 30, part 4).

Run: `.venv/bin/python benchmarks/stack_floor.py [--servers 1|2] [--db URL] [--tables 50]
[--seats 4] [--steps 80] [--bytes 9300] [--writer async|thread]`.

`benchmarks/tables_load.py` measures pinsetter's tables: 1.3 ms of server CPU per action on
this machine in session 18, against the issue's 0.5 ms. This asks what the same stack costs
when the game costs nothing. It serves a Starlette WebSocket route with `pinsetter serve`'s own
uvicorn settings (`pinsetter.web.server.server_config`: uvloop, httptools, websockets'
sans-I/O protocol, no compression) and collector settings, and plays the same 200 picows
players as `tables_load.py` (its `Seat` and `Table`), but every "step" is a fixed message of
`--bytes` (a Ten Pins push is ~9.3 kB) whose only live fields are the step count and whose turn
it is: nothing is checked, applied, rendered or encoded per step. With `--servers 2` on
PostgreSQL it keeps pinsetter's path between processes too: each action is one `UPDATE` of
the table's step count that sends a `NOTIFY` in the same statement (the steps waiting are sent
together in psycopg's pipeline, as pinsetter's writer does; `--writer thread` writes them in
one thread that wakes the event loop once per batch, as `StepWriter` does), the acting process
pushes once the write returns, and the other process pushes when the notification arrives (each skips its own).
What is left, per action, is the stack: a frame received, N frames sent, a write and a
notification. That is the least any server on this stack can spend per action here.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import queue
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import orjson
import uvloop

sys.path.insert(0, str(Path(__file__).parent))
from tables_load import (
    Table,
    cpu_seconds,
    free_port,
    play_seat,
    stop_servers,
    user_system_seconds,
    yardstick_ms,
)

CHANNEL = "pinsetter_floor"
UPDATE_AND_NOTIFY = (
    "WITH moved AS (UPDATE floor SET steps = %s WHERE id = %s RETURNING 1) SELECT pg_notify(%s, %s) FROM moved"
)


def message(steps: int, seats: int, last: int, padding: str) -> str:
    """The state after `steps` steps, shaped as a table's push to the fields the players read."""
    view = {
        "log": [{"step": steps}] if steps else [],
        "terminal": steps >= last,
        "turn": steps % seats,
        "next": "roll",
        "legal_actions": [],
        "padding": padding,
    }
    return orjson.dumps({"type": "state", "view": view}).decode()


def serve(port: int, db: str | None, seats: int, last: int, size: int, writer_kind: str) -> None:
    """One server process: the route, the connections per table, and (on PostgreSQL) the write and its notification."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    from pinsetter.cli.web_command import GC_YOUNG
    from pinsetter.web.server import server_config

    padding = "x" * max(0, size - len(message(0, seats, last, "")))
    connections: dict[int, list[WebSocket]] = {}
    steps: dict[int, int] = {}
    pending: list[tuple[int, int, asyncio.Future[None]]] = []
    wake = asyncio.Event()
    handed: queue.SimpleQueue[Any] = queue.SimpleQueue()
    me = str(os.getpid())

    async def push(table: int, step: int) -> None:
        text = message(step, seats, last, padding)
        for connection in list(connections.get(table, ())):
            with contextlib.suppress(Exception):  # a connection that closed meanwhile
                await connection.send_text(text)

    async def writer(connection: Any) -> None:
        """Every write waiting, in one pipeline and one commit (pinsetter's group commit)."""
        while True:
            await wake.wait()
            wake.clear()
            batch, pending[:] = list(pending), []
            async with connection.transaction(), connection.pipeline():
                for table, step, _done in batch:
                    await connection.execute(
                        "WITH moved AS (UPDATE floor SET steps = %s WHERE id = %s RETURNING 1)"
                        " SELECT pg_notify(%s, %s) FROM moved",
                        (step, table, CHANNEL, f"{me} {table} {step}"),
                    )
            for _table, _step, done in batch:
                done.set_result(None)

    def thread_writer(url: str, loop: asyncio.AbstractEventLoop, waiting: queue.SimpleQueue[Any]) -> None:
        """pinsetter's way: a thread takes the steps waiting, writes them in one pipeline and commit,
        and wakes the event loop once per batch (`pinsetter.web.tables.StepWriter`)."""
        import psycopg

        with psycopg.connect(url) as connection:
            while True:
                batch = [waiting.get()]
                with contextlib.suppress(queue.Empty):
                    while True:
                        batch.append(waiting.get_nowait())
                with connection.transaction(), connection.pipeline():
                    for table, step, _done in batch:
                        connection.execute(UPDATE_AND_NOTIFY, (step, table, CHANNEL, f"{me} {table} {step}"))
                loop.call_soon_threadsafe(settle, [done for _table, _step, done in batch])

    def settle(futures: list[asyncio.Future[None]]) -> None:
        for done in futures:
            done.set_result(None)

    async def listen(url: str) -> None:
        import psycopg

        listener = await psycopg.AsyncConnection.connect(url, autocommit=True)
        await listener.execute(f"LISTEN {CHANNEL}")
        async for note in listener.notifies():
            sender, table, step = note.payload.split()
            if sender != me:
                steps[int(table)] = int(step)
                await push(int(table), int(step))

    async def act(player: WebSocket) -> None:
        table = int(player.path_params["table"])
        await player.accept()
        connections.setdefault(table, []).append(player)
        steps.setdefault(table, 0)
        await player.send_text(message(steps[table], seats, last, padding))
        try:
            while True:
                orjson.loads(await player.receive_text())  # the action (every one is legal here)
                step = steps[table] = steps[table] + 1
                if db is not None:
                    done = asyncio.get_running_loop().create_future()
                    if writer_kind == "thread":
                        handed.put((table, step, done))
                    else:
                        pending.append((table, step, done))
                        wake.set()
                    await done
                await push(table, step)
        except WebSocketDisconnect:
            pass
        finally:
            connections[table].remove(player)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        if db is not None:
            import psycopg

            tasks = [asyncio.create_task(listen(db))]
            if writer_kind == "thread":
                loop = asyncio.get_running_loop()
                threading.Thread(target=thread_writer, args=(db, loop, handed), daemon=True).start()
            else:
                connection = await psycopg.AsyncConnection.connect(db, autocommit=True)
                tasks.append(asyncio.create_task(writer(connection)))
        yield
        if db is not None:
            for task in tasks:
                task.cancel()

    app = Starlette(routes=[WebSocketRoute("/ws/{table:int}", act)], lifespan=lifespan)
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, 10, 10)
    uvicorn.Server(server_config(app, "127.0.0.1", port)).run()


async def play(bases: list[str], tables: list[Table], pids: list[int], deadline: float) -> dict[str, Any]:
    counter = [0]
    server_cpu = [cpu_seconds(pid) for pid in pids]
    server_system = [user_system_seconds(pid)[1] for pid in pids]
    client_cpu = time.process_time()
    start = time.perf_counter()
    tasks = [
        asyncio.create_task(
            play_seat(f"{bases[(table.id + seat) % len(bases)]}/ws/{table.id}", table, seat, counter, 0)
        )
        for table in tables
        for seat in range(table.seats)
    ]
    try:
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=deadline)
    except TimeoutError:
        print(f"stopped at the deadline ({deadline} s)")
        for task in tasks:
            task.cancel()
    return {
        "actions": counter[0],
        "seconds": time.perf_counter() - start,
        "server_cpu": [cpu_seconds(pid) - before for pid, before in zip(pids, server_cpu, strict=True)],
        "server_system": [
            user_system_seconds(pid)[1] - before for pid, before in zip(pids, server_system, strict=True)
        ],
        "client_cpu": time.process_time() - client_cpu,
    }


def listening(port: int, server: subprocess.Popen[bytes]) -> None:
    """Wait until a server process accepts connections (up to a minute: the machine may be loaded)."""
    ready_by = time.monotonic() + 60
    while True:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        if server.poll() is not None or time.monotonic() > ready_by:
            sys.exit(f"the server on port {port} did not start")
        time.sleep(0.05)


def fresh_table_rows(url: str, tables: int) -> tuple[str, Any]:
    """A new schema holding one row per table (its step count), and a function that drops it."""
    import uuid

    import psycopg

    schema = f"pinsetter_floor_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
        connection.execute(f'CREATE TABLE "{schema}".floor (id integer PRIMARY KEY, steps integer NOT NULL)')
        connection.execute(f'INSERT INTO "{schema}".floor SELECT i, 0 FROM generate_series(0, {tables - 1}) i')

    def drop() -> None:
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')

    separator = "&" if "?" in url else "?"
    return f"{url}{separator}options=-csearch_path%3D{schema}", drop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--steps", type=int, default=80, help="steps a table plays (Ten Pins, 4 seats: ~80)")
    parser.add_argument("--bytes", type=int, default=9300, help="bytes of every push (Ten Pins: ~9.3 kB)")
    parser.add_argument("--servers", type=int, default=1, choices=(1, 2))
    parser.add_argument("--db", default=None, help="PostgreSQL (libpq URL): a write and a NOTIFY per action")
    parser.add_argument(
        "--writer",
        choices=("async", "thread"),
        default="async",
        help="PostgreSQL writes on the event loop (psycopg's async pipeline) or in one thread, as pinsetter does",
    )
    parser.add_argument("--deadline", type=float, default=300)
    parser.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)  # a server process's port
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve, args.db, args.seats, args.steps, args.bytes, args.writer)
        return
    if args.servers == 2 and args.db is None:
        sys.exit("two servers need --db postgresql://... (the notification between them)")
    yardstick = yardstick_ms()
    drop = None
    db = args.db
    if db is not None:
        db, drop = fresh_table_rows(db, args.tables)
    ports = [free_port() for _ in range(args.servers)]
    command = [sys.executable, __file__, "--seats", str(args.seats), "--steps", str(args.steps)]
    command += ["--bytes", str(args.bytes), "--writer", args.writer, *(["--db", db] if db else [])]
    with tempfile.TemporaryDirectory():
        servers = [subprocess.Popen([*command, "--serve", str(port)]) for port in ports]
        bases = [f"ws://127.0.0.1:{port}" for port in ports]
        try:
            for port, server in zip(ports, servers, strict=True):
                listening(port, server)
            gc.freeze()
            gc.set_threshold(10_000, 10, 10)
            tables = [Table(index, args.seats) for index in range(args.tables)]
            result = uvloop.run(play(bases, tables, [s.pid for s in servers], args.deadline))
        finally:
            stop_servers(servers, drop)
    actions, seconds, server_cpu = result["actions"], result["seconds"], result["server_cpu"]
    latencies = sorted(ms * 1000 for t in tables for ms in t.latencies)
    written = "in a thread" if args.writer == "thread" else "on the event loop"
    where = f"PostgreSQL (a write and a NOTIFY per action, written {written})" if db else "no database"
    print(f"{args.tables * args.seats} players at {args.tables} tables, {args.servers} server process(es), {where}")
    print(f"pushes of {args.bytes} bytes; actions: {actions} in {seconds:.1f} s = {actions / seconds:.0f} actions/s")
    if latencies:
        q = statistics.quantiles(latencies, n=100)
        print(f"latency to every seat: p50 {q[49]:.1f} ms, p95 {q[94]:.1f} ms, p99 {q[98]:.1f} ms")
    print(
        f"server CPU: {', '.join(f'{c:.2f} s' for c in server_cpu)} = {1000 * sum(server_cpu) / max(actions, 1):.3f} ms"
        f" per action ({100 * sum(result['server_system']) / max(sum(server_cpu), 1e-9):.0f}% in the kernel);"
        f" client CPU {result['client_cpu']:.1f} s"
    )
    print(f"machine load average (1 min) at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"machine speed: a fixed Python loop took {yardstick:.0f} ms of CPU before the run (lower is faster)")
    unfinished = sum(1 for t in tables if t.flights)
    print(f"tables that did not reach their end: {unfinished}")


if __name__ == "__main__":
    main()
