"""Load on online tables: many simulated players over WebSockets, bounded in count and time, loopback only.

Run: `.venv/bin/python benchmarks/tables_load.py [--tables 50] [--seats 4] [--servers 1|2] [--db URL]`.
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
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


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

    def send(self, steps: int) -> None:
        self.flights.setdefault(steps, (time.perf_counter(), set()))

    def observe(self, seat: int, steps: int) -> None:
        for before, (sent, seen) in list(self.flights.items()):
            if before < steps:
                seen.add(seat)
                if len(seen) == self.seats:
                    self.latencies.append(time.perf_counter() - sent)
                    del self.flights[before]


async def play_seat(url: str, table: Table, seat: int, counter: list[int]) -> None:
    async with websockets.connect(url, max_size=2**22) as ws:
        last = -1
        async for raw in ws:
            message = json.loads(raw)
            if message.get("type") != "state" or message.get("view") is None:
                continue
            view = message["view"]
            steps = view["log"][-1]["step"] if view["log"] else 0
            if steps != last:
                table.observe(seat, steps)
                last = steps
            if view["terminal"]:
                return
            if view["turn"] != seat:
                continue
            if view["next"] == "roll":
                action = "roll"
            elif view["legal_actions"]:
                action = view["legal_actions"][0]
            else:
                continue
            table.send(steps)
            counter[0] += 1
            await ws.send(json.dumps({"action": action}))


async def run(args: argparse.Namespace, bases: list[str]) -> tuple[list[Table], int, float]:
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
    start = time.perf_counter()
    tasks = []
    for table, seat_tokens in zip(tables, tokens, strict=True):
        for seat, token in enumerate(seat_tokens):
            base = bases[(table.id + seat) % len(bases)].replace("http://", "ws://")
            tasks.append(
                asyncio.create_task(play_seat(f"{base}/ws/tables/{table.id}?token={token}", table, seat, counter))
            )
    try:
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=args.deadline)
    except TimeoutError:
        print(f"stopped at the deadline ({args.deadline} s)")
        for task in tasks:
            task.cancel()
    return tables, counter[0], time.perf_counter() - start


def check_records(base: str, tables: list[Table]) -> tuple[int, int]:
    """(games that replay with every step once, games checked)."""
    from pinsetter.records import Record, replay

    good = 0
    with httpx.Client(timeout=30) as client:
        for table in tables:
            game_id = client.get(f"{base}/api/tables/{table.id}").json()["game_id"]
            record = Record.loads(client.get(f"{base}/api/games/{game_id}/record").text)
            state = replay(record)
            if state.is_terminal() and record.result is not None:
                good += 1
    return good, len(tables)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--game", default="tenpins")
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--servers", type=int, default=1, choices=(1, 2))
    parser.add_argument("--db", default=None, help="a database URL (two servers need PostgreSQL)")
    parser.add_argument("--deadline", type=float, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"{tmp}/tables.sqlite"
        ports = [free_port() for _ in range(args.servers)]
        servers = [
            subprocess.Popen(
                [sys.executable, "-m", "pinsetter.cli.app", "serve", "--port", str(port), "--db", db],
                stdout=subprocess.DEVNULL,
            )
            for port in ports
        ]
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        try:
            for base in bases:
                for _ in range(200):
                    try:
                        httpx.get(base + "/api/catalog", timeout=1)
                        break
                    except httpx.HTTPError:
                        time.sleep(0.05)
            tables, actions, seconds = asyncio.run(run(args, bases))
            latencies = sorted(ms * 1000 for t in tables for ms in t.latencies)
            memory = [rss_mib(s.pid) for s in servers]
            good, checked = check_records(bases[0], tables)
        finally:
            for server in servers:
                server.terminate()
                server.wait(10)
    players = args.tables * args.seats
    print(f"{players} players at {args.tables} tables ({args.game}, {args.frames} frames), {args.servers} server(s)")
    print(f"actions sent: {actions} in {seconds:.1f} s = {actions / seconds:.0f} actions/s")
    if latencies:
        q = statistics.quantiles(latencies, n=100)
        print(f"latency to every seat: p50 {q[49]:.1f} ms, p95 {q[94]:.1f} ms, p99 {q[98]:.1f} ms ({len(latencies)})")
    print(f"server memory (RSS): {', '.join(f'{m:.0f} MiB' for m in memory)}")
    print(f"records: {good} of {checked} tables finished and replay with every step once")


if __name__ == "__main__":
    main()
