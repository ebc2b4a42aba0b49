"""Load on online tables: many simulated players over WebSockets, bounded in count and time, loopback only.

Run: `.venv/bin/python benchmarks/tables_load.py [--tables 50] [--seats 4] [--servers 1|2] [--db URL]
[--think MS] [--profile FILE]`.
It starts `pinsetter serve` (one process, or two on the same PostgreSQL
database with `--servers 2 --db postgresql+psycopg://...`), hosts the tables,
seats every player (clients alternate between the processes), starts the
games and lets every seat play at bot speed (the first legal action, or a
roll, as soon as it is its turn). It reports actions per second, the latency
from sending an action to every seat at the table seeing the new state
(p50/p95/p99), the servers' memory, and checks afterwards that every table's
record replays with each step exactly once. It stops by itself after
`--deadline` seconds whatever happens.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop
from picows import WSCloseCode, WSFrame, WSListener, WSMsgType, WSTransport, ws_connect


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far."""
    return sum(user_system_seconds(pid))


def user_system_seconds(pid: int) -> tuple[float, float]:
    """User and system (kernel: the sockets' sends and receives) CPU time a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def cpu_of_command(name: str) -> float:
    """CPU seconds used so far by this machine's processes called `name` (a local database server)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue  # it ended meanwhile
        if text.split("(", 1)[1].rsplit(")", 1)[0] == name:
            fields = text.rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def yardstick_ms() -> float:
    """CPU time of a fixed pure-Python loop: this machine's speed varies by tens of percent from
    minute to minute, and the same code's figures with it (compare runs by this first)."""
    start = time.process_time()
    sum(i * i for i in range(3_000_000))
    return 1000 * (time.process_time() - start)


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Table:
    """One table's seats: the actions in flight and which seats have seen the state each led to."""

    def __init__(self, table_id: int, seats: int) -> None:
        self.id = table_id
        self.seats = seats
        self.flights: dict[int, tuple[float, set[int]]] = {}  # steps before an action -> (sent, seats that saw)
        self.latencies: list[float] = []
        self.sent: list[tuple[int, int, str]] = []  # (steps before, seat, action) of every action sent
        self.errors: list[str] = []
        self.closed: list[str] = []  # connections the server closed with an error code
        self.frames = 0  # messages the seats received, and their bytes: what a step costs to send
        self.received = 0

    def send(self, steps: int, seat: int, action: str) -> None:
        self.flights.setdefault(steps, (time.perf_counter(), set()))
        self.sent.append((steps, seat, action))

    def observe(self, seat: int, steps: int) -> None:
        for before, (sent, seen) in list(self.flights.items()):
            if before < steps:
                seen.add(seat)
                if len(seen) == self.seats:
                    self.latencies.append(time.perf_counter() - sent)
                    del self.flights[before]


class Seat(WSListener):
    """A light client: reads only what it needs from each state, answers at once (or after `think` s).

    picows hands each frame to a plain callback, without the futures and per-message Python
    framing of a general client: the 200 players share this machine's two cores with the
    servers, and with `websockets` they took a quarter of its CPU (half that now).
    """

    def __init__(self, table: Table, seat: int, counter: list[int], think: float) -> None:
        self.table, self.seat, self.counter, self.think = table, seat, counter, think
        self.last = -1

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        if frame.msg_type == WSMsgType.CLOSE:
            code = frame.get_close_code()
            if code != WSCloseCode.OK:  # e.g. 1008 "unknown token": the seat is gone, its table stalls
                reason = (frame.get_close_message() or b"").decode(errors="replace")
                self.table.closed.append(f"seat {self.seat}: {int(code)} {reason}")
            transport.disconnect()
            return
        if frame.msg_type != WSMsgType.TEXT:
            return
        payload = frame.get_payload_as_bytes()
        self.table.frames += 1
        self.table.received += len(payload)
        message = orjson.loads(payload)
        if message.get("type") == "error":
            self.table.errors.append(message.get("error", ""))
            return
        view = message.get("view")
        if message.get("type") != "state" or view is None:
            return
        steps = view["log"][-1]["step"] if view["log"] else 0
        if steps == self.last:
            return  # the same state again (a seat change): nothing new to answer
        self.table.observe(self.seat, steps)
        self.last = steps
        if view["terminal"]:
            transport.send_close(WSCloseCode.OK)
            transport.disconnect()
            return
        if view["turn"] != self.seat:
            return
        if view["next"] == "roll":
            action = "roll"
        elif view["legal_actions"]:
            action = view["legal_actions"][0]
        else:
            return
        if self.think:
            asyncio.get_running_loop().call_later(self.think, self.act, transport, steps, action)
        else:
            self.act(transport, steps, action)

    def act(self, transport: WSTransport, steps: int, action: str) -> None:
        if transport.is_disconnected or transport.is_close_frame_sent:
            return  # after a think, the connection may be gone: an action not sent is not counted
        self.table.send(steps, self.seat, action)
        self.counter[0] += 1
        transport.send(WSMsgType.TEXT, orjson.dumps({"action": action}))


async def play_seat(url: str, table: Table, seat: int, counter: list[int], think: float) -> None:
    """One player's connection, until its game ends (or the run's deadline cancels it)."""
    # picows gives up a handshake after 5 s by default: on a machine loaded by other work (or a server
    # slowed by a sampling profiler) 200 of them at once can take longer; the run's deadline bounds them.
    transport, _seat = await ws_connect(
        lambda: Seat(table, seat, counter, think), url, max_frame_size=2**22, websocket_handshake_timeout=60
    )
    try:
        await transport.wait_disconnected()
    finally:
        transport.disconnect()


async def run(args: argparse.Namespace, bases: list[str], pids: list[int]) -> dict[str, Any]:
    tables: list[Table] = []
    tokens: list[list[str]] = []
    async with httpx.AsyncClient(timeout=30) as client:
        for index in range(args.tables):
            base = bases[index % len(bases)]
            created = await client.post(
                f"{base}/api/tables",
                json={
                    "game": args.game,
                    "options": {"frames": args.frames},
                    "seats": [{"kind": "human"}] * args.seats,
                    "seed": index,
                },
            )
            created.raise_for_status()
            data = created.json()
            seat_tokens = []
            for seat in range(args.seats):
                taken = await client.post(f"{base}/api/tables/{data['id']}/seats/{seat}", json={"name": f"p{seat}"})
                taken.raise_for_status()
                seat_tokens.append(taken.json()["token"])
            tables.append(Table(data["id"], args.seats))
            tokens.append(seat_tokens)
            started = await client.post(
                f"{base}/api/tables/{data['id']}/start", json={"host_token": data["host_token"]}
            )
            started.raise_for_status()
    counter = [0]
    server_cpu = [cpu_seconds(pid) for pid in pids]
    server_system = [user_system_seconds(pid)[1] for pid in pids]
    database_cpu = cpu_of_command("postgres")
    client_cpu = time.process_time()
    start = time.perf_counter()
    tasks = []
    for table, seat_tokens in zip(tables, tokens, strict=True):
        for seat, token in enumerate(seat_tokens):
            base = bases[(table.id + seat) % len(bases)].replace("http://", "ws://")
            url = f"{base}/ws/tables/{table.id}?token={token}"
            tasks.append(asyncio.create_task(play_seat(url, table, seat, counter, args.think / 1000)))
    try:
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=args.deadline)
    except TimeoutError:
        print(f"stopped at the deadline ({args.deadline} s)")
        for task in tasks:
            task.cancel()
    seconds = time.perf_counter() - start
    return {
        "tables": tables,
        "actions": counter[0],
        "seconds": seconds,
        "server_cpu": [cpu_seconds(pid) - before for pid, before in zip(pids, server_cpu, strict=True)],
        "server_system": [
            user_system_seconds(pid)[1] - before for pid, before in zip(pids, server_system, strict=True)
        ],
        "client_cpu": time.process_time() - client_cpu,
        "database_cpu": cpu_of_command("postgres") - database_cpu,
    }


def check_records(db: str, base: str, tables: list[Table]) -> tuple[int, list[str]]:
    """(games that replay, finished, with every action sent there exactly once; the problems found).

    The records are read from the database itself: the API serves a table's record only once
    its game is over, and a game left unfinished (a run stopped at its deadline) is checked too.
    """
    from pinsetter.records import RecordError, replay
    from pinsetter.storage import Storage

    good = 0
    problems: list[str] = []
    storage = Storage(db)
    with httpx.Client(timeout=30) as client:
        for table in tables:
            game_id = client.get(f"{base}/api/tables/{table.id}").json()["game_id"]
            stored = storage.get(game_id)
            if stored is None:
                problems.append(f"table {table.id}: its game {game_id} is not in the database")
                continue
            record = stored.record
            try:
                state = replay(record)
            except RecordError as exc:
                problems.append(f"table {table.id}: {exc}")
                continue
            befores = [before for before, _seat, _action in table.sent]
            if len(set(befores)) != len(befores):
                problems.append(f"table {table.id}: two actions sent at one state")
                continue
            lost = [
                before
                for before, seat, action in table.sent
                if before >= len(record.steps)
                or record.steps[before].actor != (None if action == "roll" else seat)
                or (action != "roll" and record.steps[before].text != action)
            ]
            sent_at = set(befores)
            unsent = [
                i
                for i, step in enumerate(record.steps)
                if i not in sent_at and (step.actor is not None or not state.game.has_decisions)
            ]
            if lost or unsent:
                problems.append(f"table {table.id}: {len(lost)} actions not in the record, {len(unsent)} steps unsent")
            elif state.is_terminal() and record.result is not None:
                good += 1
            else:
                problems.append(f"table {table.id}: unfinished after {len(record.steps)} steps")
    storage.engine.dispose()  # its connections closed before the benchmark's schema is dropped
    return good, problems


def stop_servers(servers: list[subprocess.Popen[bytes]], drop: Callable[[], None] | None) -> None:
    """Stop the server processes (uvicorn's graceful stop), then drop the run's schema if it made one."""
    for server in servers:
        server.terminate()
        server.wait(30)
    if drop is not None:
        drop()


def fresh_schema(url: str) -> tuple[str, Any]:
    """A URL into a new PostgreSQL schema (repeated runs start empty) and a function that drops it."""
    import uuid

    import sqlalchemy as sa

    schema = f"pinsetter_load_{uuid.uuid4().hex[:12]}"
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))

    def drop() -> None:
        with engine.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()

    fresh = sa.make_url(url).update_query_dict({"options": f"-csearch_path={schema}"})
    return fresh.render_as_string(hide_password=False), drop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--game", default="tenpins")
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--servers", type=int, default=1, choices=(1, 2))
    parser.add_argument(
        "--db", default=None, help="a database URL (two servers need PostgreSQL; a fresh schema is used and dropped)"
    )
    parser.add_argument("--think", type=float, default=0, help="ms a player waits before acting (0: bot speed)")
    parser.add_argument("--deadline", type=float, default=300)
    parser.add_argument("--profile", default=None, help="write each server's cProfile stats to PROFILE.N")
    args = parser.parse_args()
    yardstick = yardstick_ms()
    with tempfile.TemporaryDirectory() as tmp:
        drop = None
        db = args.db or f"{tmp}/tables.sqlite"
        if db.startswith("postgresql"):
            db, drop = fresh_schema(db)
        ports = [free_port() for _ in range(args.servers)]
        here = Path(__file__).parent
        commands = [
            [sys.executable, str(here / "profile_serve.py"), str(port), db, f"{args.profile}.{n}"]
            if args.profile
            else [sys.executable, "-m", "pinsetter.cli.app", "serve", "--port", str(port), "--db", db]
            for n, port in enumerate(ports)
        ]
        servers = [subprocess.Popen(command, stdout=subprocess.DEVNULL) for command in commands]
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        try:
            for base, server in zip(bases, servers, strict=True):
                ready_by = time.monotonic() + 60  # a fresh PostgreSQL schema is migrated first
                while True:
                    try:
                        httpx.get(base + "/api/catalog", timeout=1)
                        break
                    except httpx.HTTPError:
                        if server.poll() is not None or time.monotonic() > ready_by:
                            sys.exit(f"the server at {base} did not start")
                        time.sleep(0.05)
            # The clients on uvloop too (as the servers run under uvicorn[standard]): the measure is of the
            # servers, and the standard event loop adds its own delay to each of 200 sockets' reads.
            gc.freeze()  # the clients as light as the server (pinsetter serve does the same)
            gc.set_threshold(10_000, 10, 10)
            result = uvloop.run(run(args, bases, [s.pid for s in servers]))
            tables = result["tables"]
            latencies = sorted(ms * 1000 for t in tables for ms in t.latencies)
            memory = [rss_mib(s.pid) for s in servers]
            good, problems = check_records(db, bases[0], tables)
        finally:
            stop_servers(servers, drop)
    players = args.tables * args.seats
    actions, seconds = result["actions"], result["seconds"]
    where = "PostgreSQL" if drop is not None else "SQLite"
    print(
        f"{players} players at {args.tables} tables ({args.game}, {args.frames} frames), "
        f"{args.servers} server process(es) on {where}, think time {args.think:g} ms"
    )
    print(f"actions sent: {actions} in {seconds:.1f} s = {actions / seconds:.0f} actions/s")
    if latencies:
        q = statistics.quantiles(latencies, n=100)
        print(
            f"latency to every seat: p50 {q[49]:.1f} ms, p95 {q[94]:.1f} ms, p99 {q[98]:.1f} ms,"
            f" max {latencies[-1]:.0f} ms ({len(latencies)})"
        )
    server_cpu = result["server_cpu"]
    print(
        f"server CPU: {', '.join(f'{c:.1f} s' for c in server_cpu)} "
        f"= {1000 * sum(server_cpu) / max(actions, 1):.2f} ms per action "
        f"({100 * sum(result['server_system']) / max(sum(server_cpu), 1e-9):.0f}% in the kernel); "
        f"client CPU {result['client_cpu']:.1f} s ({100 * result['client_cpu'] / seconds:.0f}% of one core)"
    )
    if where == "PostgreSQL" and result["database_cpu"]:
        print(f"PostgreSQL server CPU (this machine's postgres processes): {result['database_cpu']:.1f} s")
    print(f"server memory (RSS): {', '.join(f'{m:.0f} MiB' for m in memory)}")
    print(f"machine load average (1 min) at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"machine speed: a fixed Python loop took {yardstick:.0f} ms of CPU before the run (lower is faster)")
    frames, received = sum(t.frames for t in tables), sum(t.received for t in tables)
    print(
        f"messages to the players: {frames} ({frames / max(actions, 1):.2f} per action),"
        f" {received / max(frames, 1) / 1000:.1f} kB each"
    )
    errors = sum(len(t.errors) for t in tables)
    print(f"refused actions: {errors}")
    closed = sum(len(t.closed) for t in tables)
    if closed:
        print(f"connections the server closed with an error: {closed}")
    print(f"records: {good} of {len(tables)} tables finished, replay, and hold every action sent exactly once")
    for problem in problems[:10]:
        print("  " + problem)
    for table in tables:
        for before, (_sent, seen) in table.flights.items():
            print(f"  table {table.id}: the state after step {before + 1} reached only seats {sorted(seen)}")
        for error in table.errors[:3]:
            print(f"  table {table.id}: refused: {error}")
        for closed in table.closed:
            print(f"  table {table.id}: closed by the server: {closed}")
    if args.profile:
        import pstats

        for n in range(args.servers):
            print(f"profile of server {n} ({args.profile}.{n}), top by own time:")
            pstats.Stats(f"{args.profile}.{n}").sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
