"""Runs on Dask: a LocalCluster, and a real `dask scheduler` with two `dask worker` processes on loopback.

The same `simulate ... --json` output (and the same CSV of every game) comes
from `--workers 1`, `--workers 2`, `--cluster local:2` and the real scheduler;
a worker killed mid-run is replaced and the results do not change. One
LocalCluster and one scheduler serve the whole module (Dask starts slowly).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pinsetter.cli.app import app
from pinsetter.experiments.backends import ClusterSpec, DaskBackend, SerialBackend, parse_cluster
from pinsetter.experiments.runner import execute
from pinsetter.experiments.tournament import tournament_plan
from pinsetter.records import PlayerSpec
from pinsetter.simulate import simulation_plan

if os.environ.get("CI") == "true":
    import distributed  # CI installs the [cluster] extra: a missing Dask fails here instead of skipping
else:
    distributed = pytest.importorskip("distributed", reason="the [cluster] extra (Dask) is not installed")

runner = CliRunner()
SRC = Path(__file__).resolve().parents[1] / "src"
ARGS = ["simulate", "rolling-pins", "-p", "bot:greedy,bot:random", "--games", "24", "--chunk", "3", "--seed", "17"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def local_cluster() -> Iterator[Any]:
    """One LocalCluster of two worker processes for the module."""
    import logging

    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.ERROR
    )
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real `dask scheduler` and two `dask worker` processes on random loopback ports."""
    logs = tmp_path_factory.mktemp("dask")
    env = dict(os.environ, PYTHONPATH=str(SRC))
    address = f"tcp://127.0.0.1:{free_port()}"
    dask = [sys.executable, "-m", "dask"]
    processes: list[subprocess.Popen[bytes]] = []

    def start(args: list[str], name: str) -> None:
        with (logs / f"{name}.log").open("wb") as log:
            processes.append(subprocess.Popen([*dask, *args], env=env, stdout=log, stderr=subprocess.STDOUT))

    try:
        start(
            [
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                address.rsplit(":", 1)[1],
                "--dashboard-address",
                "127.0.0.1:0",
            ],
            "scheduler",
        )
        for n in (1, 2):
            start(
                [
                    "worker",
                    address,
                    "--host",
                    "127.0.0.1",
                    "--nworkers",
                    "1",
                    "--nthreads",
                    "1",
                    "--no-dashboard",
                    "--name",
                    f"w{n}",
                ],
                f"worker-{n}",
            )
        deadline = time.monotonic() + 60
        while True:
            try:
                with distributed.Client(address, timeout=5) as client:
                    client.wait_for_workers(2, timeout=max(1.0, deadline - time.monotonic()))
                break
            except (OSError, TimeoutError):
                if time.monotonic() > deadline or any(p.poll() is not None for p in processes):
                    text = "\n".join(p.read_text(errors="replace")[-2000:] for p in sorted(logs.iterdir()))
                    raise RuntimeError(f"the dask scheduler and workers did not start:\n{text}") from None
                time.sleep(0.5)
        yield address
    finally:
        for process in reversed(processes):  # workers first, then the scheduler
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in reversed(processes):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def simulate(extra: list[str], csv: Path) -> str:
    result = runner.invoke(app, [*ARGS, "--json", "--out", str(csv), *extra])
    assert result.exit_code == 0, result.output
    json.loads(result.stdout)
    return result.stdout


def test_the_same_output_from_every_backend(tmp_path: Path, local_cluster: Any, scheduler: str) -> None:
    outputs = {}
    tables = {}
    for name, extra in (
        ("workers 1", []),
        ("workers 2", ["--workers", "2"]),
        ("cluster local:2", ["--cluster", "local:2"]),
        ("real scheduler", ["--cluster", scheduler]),
        ("shared LocalCluster", ["--cluster", local_cluster.scheduler_address]),
    ):
        csv = tmp_path / f"{name.replace(' ', '-')}.csv"
        outputs[name] = simulate(extra, csv)
        tables[name] = csv.read_text()
    reference = outputs["workers 1"]
    assert all(text == reference for text in outputs.values()), {k: v == reference for k, v in outputs.items()}
    assert all(text == tables["workers 1"] for text in tables.values())
    rows = tables["workers 1"].splitlines()
    assert rows[0] == "game,seed,Greedy bot,Rookie bot" and len(rows) == 25
    assert len({row.split(",")[2] for row in rows[1:]}) > 3  # real, varied games


def test_a_tournament_on_the_cluster_is_the_serial_tournament(scheduler: str) -> None:
    args = ["tournament", "bowling-solitaire", "--bots", "greedy,random", "--games", "6", "--chunk", "2", "--json"]
    serial = runner.invoke(app, args)
    spread = runner.invoke(app, [*args, "--cluster", scheduler])
    assert serial.exit_code == 0 and spread.exit_code == 0, spread.output
    assert serial.stdout == spread.stdout


def test_a_run_resumed_on_the_cluster_matches_a_run_in_one_process(tmp_path: Path, scheduler: str) -> None:
    first = runner.invoke(app, [*ARGS, "--json", "--cluster", scheduler])
    assert first.exit_code == 0
    from pinsetter.experiments.runs import RunStore
    from pinsetter.storage import Storage

    store = RunStore(Storage())
    plan = simulation_plan("rolling-pins", {}, PlayerSpec.parse_list("bot:greedy,bot:random"), 24, 17, chunk=3)
    run = store.start(plan)  # a second run of the same plan, interrupted after two chunks
    rows = execute(plan, SerialBackend())
    run.save_chunks({0: rows[:3], 5: rows[15:18]})
    resumed = runner.invoke(app, [*ARGS, "--json", "--cluster", scheduler, "--resume", run.id])
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stdout == first.stdout
    assert run.finished_chunks() == {i: rows[3 * i : 3 * i + 3] for i in range(8)}


def test_without_dask_cluster_is_one_line_naming_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails as if not installed
    result = runner.invoke(app, ["simulate", "tenpins", "--games", "5", "--cluster", "local:2"])
    assert result.exit_code == 2
    assert result.output.strip() == "pinsetter: --cluster needs Dask: pip install 'pinsetter[cluster]'"
    plain = runner.invoke(app, ["simulate", "tenpins", "--games", "5", "--workers", "2", "--json"])
    assert plain.exit_code == 0  # the plain process pool needs no Dask


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("local:0", "1 to 256 workers"),
        ("local:x", "local:K or a scheduler address"),
        ("tcp://127.0.0.1:99999", "port 99999"),
        ("http://127.0.0.1:8786", "local:K or a scheduler address"),
    ],
)
def test_bad_cluster_addresses_are_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_cluster(text)
    result = runner.invoke(app, ["simulate", "tenpins", "--games", "5", "--cluster", text])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1 and message in result.output


def test_no_scheduler_at_the_address_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pinsetter.experiments.backends.CONNECT_SECONDS", 1.0)
    result = runner.invoke(app, ["simulate", "tenpins", "--games", "5", "--cluster", f"tcp://127.0.0.1:{free_port()}"])
    assert result.exit_code == 2, result.output
    assert "cannot use the cluster" in result.output and len(result.output.strip().splitlines()) == 1


def test_a_worker_killed_mid_run_changes_nothing(local_cluster: Any) -> None:
    """Runs last in the module: the LocalCluster's nanny replaces the killed worker."""
    plan = tournament_plan("rolling-pins", {}, PlayerSpec.parse_list("bot:greedy,bot:random"), 16, 9, chunk=2)
    reference = execute(plan, SerialBackend())
    backend = DaskBackend(ClusterSpec(address=local_cluster.scheduler_address))
    pids = backend.client.run(os.getpid)
    killed: list[int] = []

    def kill_one_worker(games: int) -> None:
        if not killed:
            victim = sorted(pids.values())[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    with backend:
        rows = execute(plan, backend, progress=kill_one_worker)
        assert killed
        assert killed[0] not in backend.client.run(os.getpid).values()  # that worker is gone (and replaced)
    assert rows == reference


def test_local_workers_start_without_dasks_malloc_trim_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dask's 64 kB `MALLOC_TRIM_THRESHOLD_` made every large array of a worker fault in page by page.

    A nanny also writes its settings into the environment of the process that starts it, so after
    this module's own LocalCluster the variable is there to inherit; a `pinsetter` run starts one
    cluster in a fresh process, as here once it is taken out.
    """
    import dask.config

    monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_", raising=False)

    assert "MALLOC_TRIM_THRESHOLD_" in dask.config.get("distributed.nanny.pre-spawn-environ")  # Dask's default
    with DaskBackend(parse_cluster("local:1")) as backend:
        environs = backend.client.run(lambda: dict(os.environ))
    (worker,) = environs.values()
    assert "MALLOC_TRIM_THRESHOLD_" not in worker
    assert worker["OMP_NUM_THREADS"] == "1"  # Dask's other settings stay
