"""Start-up of the commands that answer a question (issue 30, part 1): a benchmark, not a test.

Run: `.venv/bin/python benchmarks/startup.py [--runs 10] [--json] [--without MODULE]`. Each
command runs as a whole process, the way the `pinsetter` script runs it (`from pinsetter.cli.app
import run; run()` in a fresh interpreter, with this interpreter and environment, so
`PYTHONPATH=src` times a worktree's code): once to warm up, then `--runs` times. By the timed runs
Python's bytecode, numba's compiled code and the Rolling Pins policy are cached on disk, as in an
installed copy (the runs write bytecode even where PYTHONDONTWRITEBYTECODE is set), and the files
are in the page cache. It prints, per command, the median and the maximum of the wall-clock
time, the median CPU time of the process (user + system: less moved by other work on the
machine than the wall clock) and the target, with the load average before and after.

`--without MODULE` times the commands as an install without that module sees them: the module is
refused as not installed (`--without coverage`: numba imports coverage where it is installed, as in
a development environment; scipy, which numba would probe for BLAS, the solvers already refuse it,
see solvers/compiled.py).

The targets (docs/performance.md) are for an idle machine: under 0.25 s for `score` and `--help`,
under 0.5 s for the others. The Rolling Pins hint is asked at the first decision of a game played
by the command line itself (`play rolling-pins --seed 3`, `dice 2`) into a temporary folder, with
a temporary history; no command here writes to the user's history.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ENTRY = "from pinsetter.cli.app import run; run()"  # what the installed `pinsetter` script does
# The whole command run with the modules refused as not installed (pinsetter.core.imports).
REFUSE = "from pinsetter.core.imports import refusing\nwith refusing(*{refused!r}):\n    "
DEAL = "pins=6,10,9,8,1,9,6,2,2,5;piles=3,4,3,10,4|8,5,1|7,7"
FAST, QUICK = 0.25, 0.5  # seconds, on an idle machine


@dataclass(frozen=True)
class Command:
    args: tuple[str, ...]
    target: float

    @property
    def label(self) -> str:
        shown = " ".join(f'"{a}"' if ";" in a or " " in a else a for a in self.args)
        return f"pinsetter {shown}"


def commands(record: Path) -> list[Command]:
    return [
        Command(("--help",), FAST),
        Command(("score", "X", "7/", "9-", "X", "X", "8/", "9-", "X", "7/", "XXX"), FAST),
        Command(("rules", "tenpins"), QUICK),
        Command(("games",), QUICK),
        Command(("analyze", "tenpins"), QUICK),
        Command(("hint", "bowling-solitaire", "--deal", DEAL), QUICK),
        Command(("hint", "rolling-pins", "--record", str(record)), QUICK),
    ]


def run_once(args: tuple[str, ...], env: dict[str, str], stdin: str = "", code: str = ENTRY) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one whole process; a failed command stops the benchmark."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code, *args], input=stdin, capture_output=True, text=True, env=env, check=False
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or not done.stdout:
        sys.exit(f"pinsetter {' '.join(args)} failed (exit {done.returncode}): {done.stderr.strip()}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(runs: int, without: list[str]) -> dict[str, Any]:
    code = REFUSE.format(refused=sorted(without)) + ENTRY if without else ENTRY
    with tempfile.TemporaryDirectory() as folder:
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env["PINSETTER_DB"] = str(Path(folder) / "history.sqlite")
        record = Path(folder) / "rolling-pins.json"
        run_once(("play", "rolling-pins", "--seed", "3", "--record", str(record)), env, "dice 2\nquit\n")
        load_before = os.getloadavg()[0]
        rows = []
        for command in commands(record):
            run_once(command.args, env, code=code)  # warm-up
            times = [run_once(command.args, env, code=code) for _ in range(runs)]
            walls = [wall for wall, _cpu in times]
            rows.append(
                {
                    "command": command.label.replace(str(record), "RECORD"),
                    "median_s": statistics.median(walls),
                    "max_s": max(walls),
                    "cpu_median_s": statistics.median(cpu for _wall, cpu in times),
                    "target_s": command.target,
                }
            )
        load_after = os.getloadavg()[0]
        return {
            "runs": runs,
            "without": without,
            "load_before": load_before,
            "load_after": load_after,
            "commands": rows,
        }


def table(result: dict[str, Any]) -> str:
    rows = result["commands"]
    width = max(len(row["command"]) for row in rows)
    lines = [
        f"whole-process times: median and max of {result['runs']} runs after a warm-up "
        f"(load average {result['load_before']:.2f} before, {result['load_after']:.2f} after)"
        + (f", without {', '.join(result['without'])}" if result["without"] else ""),
        f"{'command':<{width}}  {'median':>8}  {'max':>8}  {'CPU med.':>8}  {'target':>8}",
    ]
    for row in rows:
        lines.append(
            f"{row['command']:<{width}}  {row['median_s']:>7.3f}s  {row['max_s']:>7.3f}s  "
            f"{row['cpu_median_s']:>7.3f}s  {row['target_s']:>7.2f}s"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=10, help="timed runs per command (after one warm-up)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--without", action="append", default=[], metavar="MODULE", help="refuse this module as not installed"
    )
    options = parser.parse_args()
    result = measure(options.runs, options.without)
    print(json.dumps(result, indent=2) if options.json else table(result))


if __name__ == "__main__":
    main()
