"""Run the screen-reading tests many times on a loaded machine and count failures per test (issue 32).

The terminal (Textual), browser (Chromium) and online-table tests read a screen,
a page or a stream that settles some time after an action; a test that reads it
after a fixed pause instead of a condition fails only now and then, mostly when
the machine is busy. This runs those tests `--runs` times under `pytest -n 2
--dist loadfile` (as `make test` does) while `--burners` CPU-heavy processes run
beside them, and reports every test that failed, with how often. Not part of
`make test`: it takes about as long as `--runs` times the tests themselves.

    .venv/bin/python benchmarks/flaky_runs.py --runs 20
    .venv/bin/python benchmarks/flaky_runs.py --runs 3 tests/test_i18n_tui.py
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCREEN_TESTS = sorted(
    str(path.relative_to(ROOT))
    for pattern in ("test_tui*.py", "test_i18n_tui.py", "test_*browser*.py", "test_web_tables*.py")
    for path in (ROOT / "tests").glob(pattern)
)


def burn(stop: multiprocessing.synchronize.Event) -> None:
    """Keep one core busy until told to stop (the CPU-heavy neighbour)."""
    x = 0
    while not stop.is_set():
        for _ in range(100_000):
            x = (x * 31 + 7) % 1_000_003


def failures(report: Path) -> tuple[int, list[str]]:
    """The number of tests run and the ids of those that failed or errored, from a JUnit XML report."""
    if not report.exists():
        return 0, ["(no report: pytest did not finish)"]
    tree = ET.parse(report)
    ran, failed = 0, []
    for case in tree.iter("testcase"):
        ran += 1
        if case.find("failure") is not None or case.find("error") is not None:
            failed.append(f"{case.get('classname')}::{case.get('name')}")
    return ran, failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--burners", type=int, default=1, help="CPU-heavy processes beside the tests")
    parser.add_argument("tests", nargs="*", default=SCREEN_TESTS)
    args = parser.parse_args()
    stop = multiprocessing.Event()
    burners = [multiprocessing.Process(target=burn, args=(stop,), daemon=True) for _ in range(args.burners)]
    for process in burners:
        process.start()
    counts: collections.Counter[str] = collections.Counter()
    failed_runs = 0
    try:
        with tempfile.TemporaryDirectory() as folder:
            for run in range(1, args.runs + 1):
                report = Path(folder) / f"run{run}.xml"
                started = time.monotonic()
                command = [sys.executable, "-m", "pytest", "-q", "-n", "2", "--dist", "loadfile"]
                command += ["-p", "no:cacheprovider", f"--junitxml={report}", *args.tests]
                subprocess.run(command, cwd=ROOT, capture_output=True, check=False)
                ran, failed = failures(report)
                counts.update(failed)
                failed_runs += bool(failed)
                took = time.monotonic() - started
                print(f"run {run}/{args.runs}: {ran} tests, {len(failed)} failed, {took:.0f} s", flush=True)
                for test in failed:
                    print(f"    failed: {test}", flush=True)
    finally:
        stop.set()
        for process in burners:
            process.join(timeout=5)
    print(f"\n{args.runs} runs with {args.burners} CPU burner(s): {failed_runs} run(s) with a failure")
    for test, count in counts.most_common():
        print(f"{count:3d}  {test}")
    return 1 if counts else 0


if __name__ == "__main__":
    sys.exit(main())
