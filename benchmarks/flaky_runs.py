"""Run the screen-reading tests many times on a loaded machine and count failures per test (issue 32).

The terminal (Textual), browser (Chromium) and online-table tests read a screen,
a page or a stream that settles some time after an action; a test that reads it
after a fixed pause instead of a condition fails only now and then, mostly when
the machine is busy. This runs those tests `--runs` times under `pytest -n 2
--dist loadfile` (as `make test` does) while `--burners` CPU-heavy processes run
beside them, and reports every test that failed, with how often. Not part of
`make test`: it takes about as long as `--runs` times the tests themselves.

One run of the whole set takes about 20 minutes of this 2-core machine, so 20
runs do not fit in one sitting. Every run is therefore added to a ledger
(`--ledger`, benchmarks/results/flaky_runs.jsonl, kept in git) under the code
it ran: the git trees of src/ and tests/ and the hash of pyproject.toml. Runs
on different commits with the same code (a change of docs only) add up; a run
on a work tree with uncommitted changes to that code is recorded but never
counted. `--summary` prints the runs and failures per code, newest first.

    .venv/bin/python benchmarks/flaky_runs.py --runs 20
    .venv/bin/python benchmarks/flaky_runs.py --runs 3 tests/test_i18n_tui.py
    .venv/bin/python benchmarks/flaky_runs.py --summary
"""

from __future__ import annotations

import argparse
import collections
import datetime
import hashlib
import json
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LEDGER = ROOT / "benchmarks" / "results" / "flaky_runs.jsonl"
SCREEN_PATTERNS = ("test_tui*.py", "test_i18n_tui.py", "test_words_tui.py", "test_*browser*.py", "test_web_tables*.py")
# Any other test file that drives a browser or a terminal app reads a screen too (the words test opens
# game pages in Chromium; a rules test opens the terminal's help): found by what it uses, not its name.
SCREEN_READERS = ("browser_support", "tui_support", ".run_test(")
SCREEN_TESTS = sorted(
    {str(found.relative_to(ROOT)) for pattern in SCREEN_PATTERNS for found in (ROOT / "tests").glob(pattern)}
    | {
        str(found.relative_to(ROOT))
        for found in (ROOT / "tests").glob("test_*.py")
        if any(reader in found.read_text(encoding="utf-8") for reader in SCREEN_READERS)
    }
)


def burn(stop: multiprocessing.synchronize.Event) -> None:
    """Keep one core busy until told to stop (the CPU-heavy neighbour)."""
    x = 0
    while not stop.is_set():
        for _ in range(100_000):
            x = (x * 31 + 7) % 1_000_003


def failures(report: Path) -> tuple[int, list[str], dict[str, str]]:
    """From a JUnit XML report: the number of tests run, the ids of those that failed or errored, and
    why each failed (pytest's one-line message, cut short): the report itself is gone after the run."""
    if not report.exists():
        return 0, ["(no report: pytest did not finish)"], {}
    tree = ET.parse(report)
    ran, failed, why = 0, [], {}
    for case in tree.iter("testcase"):
        ran += 1
        problem = case.find("failure")
        if problem is None:
            problem = case.find("error")
        if problem is not None:
            test = f"{case.get('classname')}::{case.get('name')}"
            failed.append(test)
            why[test] = explanation(problem.get("message") or "", problem.text or "")
    return ran, failed, why


def explanation(message: str, details: str) -> str:
    """Why a test failed, short enough for the ledger: pytest's message, then the `E` lines of its
    report (the assertion's explanation, whose telling part, such as a diff's extra item, comes
    last) and the place it failed. A cut message alone once hid the one line that said what
    happened (an autoplay step visited twice)."""
    lines = details.splitlines()
    explained = [line[1:].rstrip() for line in lines if line.startswith("E ")]
    places = [line for line in lines if re.match(r"^\S+\.py:\d+: ", line)]
    kept = "\n".join(explained)
    if len(kept) > 1500:
        kept = "..." + kept[-1500:]
    return "\n".join(part for part in (message[:400], kept, places[-1] if places else "") if part)


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


def code_version() -> tuple[str, str, bool]:
    """The commit, a key for the code the tests run (src/ and tests/ trees, pyproject.toml), and whether it is clean."""
    commit = git("rev-parse", "HEAD")
    trees = git("rev-parse", "HEAD:src", "HEAD:tests").split()
    pyproject = hashlib.sha1((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    code = hashlib.sha1(" ".join([*trees, pyproject]).encode()).hexdigest()[:12]
    clean = not git("status", "--porcelain", "--", "src", "tests", "pyproject.toml")
    return commit, code, clean


def summary(ledger: Path) -> int:
    """Runs and failures per code version, newest first; only whole-set runs on clean code count.

    A run whose failure was the machine's, not the code's (the interpreter deleted under it), is
    marked by hand in the ledger with `"void": "why"`: listed with its reason, never counted."""
    if not ledger.exists():
        print(f"no ledger at {ledger}")
        return 1
    groups: dict[str, list[dict[str, Any]]] = {}
    void: dict[str, list[str]] = {}
    when: dict[str, str] = {}  # each code's newest run: the order they are listed in
    for line in ledger.read_text(encoding="utf-8").splitlines():
        if line.strip():
            entry = json.loads(line)
            when[str(entry["code"])] = max(when.get(str(entry["code"]), ""), str(entry["when"]))
            if entry.get("void"):  # marked by hand: the run's machine, not the code, failed (the reason kept)
                void.setdefault(str(entry["code"]), []).append(str(entry["void"]))
            elif entry["clean"] and entry["whole_set"]:
                groups.setdefault(str(entry["code"]), []).append(entry)
    if not groups:
        print("no whole-set run on committed code in the ledger yet")
    for code in sorted(set(groups) | set(void), key=lambda c: when.get(c, ""), reverse=True):
        runs = groups.get(code, [])
        failed = collections.Counter(test for run in runs for test in run["failed"])
        commits = sorted({run["commit"][:10] for run in runs})
        seconds = sorted(run["seconds"] for run in runs)
        took = f", {int(seconds[0])}-{int(seconds[-1])} s a run" if seconds else ""
        print(
            f"code {code} (commits {', '.join(commits) or 'none counted'}): {len(runs)} runs, "
            f"{sum(bool(run['failed']) for run in runs)} with a failure{took}"
        )
        for test, count in failed.most_common():
            print(f"    {count:3d}  {test}")
        for reason in void.get(code, []):
            print(f"    void, not counted: {reason}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--burners", type=int, default=1, help="CPU-heavy processes beside the tests")
    parser.add_argument("--ledger", type=Path, default=LEDGER, help="where each run is recorded")
    parser.add_argument("--summary", action="store_true", help="print the ledger's runs per code and stop")
    parser.add_argument("tests", nargs="*", default=SCREEN_TESTS)
    args = parser.parse_args()
    if args.summary:
        return summary(args.ledger)
    commit, code, clean = code_version()
    if not clean:
        print("uncommitted changes to src/, tests/ or pyproject.toml: these runs are recorded but not counted")
    args.ledger.parent.mkdir(parents=True, exist_ok=True)
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
                ran, failed, why = failures(report)
                counts.update(failed)
                failed_runs += bool(failed)
                took = time.monotonic() - started
                entry = {
                    "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                    "commit": commit,
                    "code": code,
                    "clean": clean,
                    "whole_set": args.tests == SCREEN_TESTS,
                    "tests": ran,
                    "failed": failed,
                    "why": why,
                    "seconds": round(took),
                    "burners": args.burners,
                    "load": round(os.getloadavg()[0], 1),
                }
                with args.ledger.open("a", encoding="utf-8") as ledger:
                    ledger.write(json.dumps(entry) + "\n")
                print(f"run {run}/{args.runs}: {ran} tests, {len(failed)} failed, {took:.0f} s", flush=True)
                for test in failed:
                    print(f"    failed: {test}: {why.get(test, '')}", flush=True)
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
