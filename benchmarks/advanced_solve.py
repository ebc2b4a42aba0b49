"""Solve advanced Rolling Pins exactly, frame by frame, timing each frame (docs/rolling-pins.md).

Frames are solved last to first and each finished suffix is written to the solver's
cache (the user cache, or PINSETTER_CACHE_DIR), so a run that is stopped goes on
where it stopped; `--down-to K` stops after frame K (a suffix K..10). Run it under
`/usr/bin/time -v` for the peak memory. Usage:
python benchmarks/advanced_solve.py [--auto-strike next|held] [--down-to K] [--fresh]
"""

from __future__ import annotations

import argparse
import contextlib
import resource
import sys
import time

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from pinsetter.solvers import rolling_pins_advanced as advanced


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--auto-strike", choices=("next", "held"), default="next")
    parser.add_argument("--down-to", type=int, default=1)
    parser.add_argument("--fresh", action="store_true", help="ignore a cached (partial) solution")
    args = parser.parse_args()
    variant = advanced.Variant(auto_held=args.auto_strike == "held")
    path = advanced.cache_path(variant)
    resume = None if args.fresh else advanced.load(path, variant)
    if resume is not None:
        print(f"resuming: frames {resume.first_frame}..10 solved in {resume.seconds:.0f} s", flush=True)
        if resume.first_frame <= args.down_to:
            report(resume)
            return
    console = Console(stderr=True)
    clock = time.perf_counter()

    def keep(partial: advanced.Solution) -> None:
        nonlocal clock
        with contextlib.suppress(OSError):
            advanced.save(partial, path)
        now = time.perf_counter()
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
        print(f"frame {partial.first_frame}: {now - clock:.1f} s (peak {rss:.2f} GB so far)", flush=True)
        clock = now

    columns = (TextColumn("advanced Rolling Pins"), BarColumn(), TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task("solve", total=1.0)
        solution = advanced.solve(
            variant, lambda part: bar.advance(task, part), args.down_to, resume=resume, checkpoint=keep
        )
    report(solution)


def report(solution: advanced.Solution) -> None:
    variant = solution.variant
    reading = "held" if variant.auto_held else "next"
    print(f"Auto Strike {reading}: frames {solution.first_frame}..{variant.frames} in {solution.seconds:.0f} s")
    kits = variant.kits
    empty = 0
    for (frame, w1, w2), values in sorted(solution.frame_values.items()):
        if frame == solution.first_frame:
            best = values[:, : kits.prefix(2 * frame - 2)].max()
            start = values[0, empty]
            print(f"  frame {frame} (w1={w1}, w2={w2}): no tokens, empty sheet {start:.10f}; best {best:.4f}")
    if solution.first_frame == 1:
        print(f"optimal expected score: {solution.expected_score!r}")


if __name__ == "__main__":
    main()
