"""Run `pinsetter serve` under cProfile in every thread (the event loop and the worker threads), in CPU time.

Run: `python benchmarks/profile_serve.py PORT DB OUT.prof`; on SIGTERM (uvicorn's graceful
stop) the profiles of all threads are merged into OUT.prof for `pstats`. The tables'
work runs in anyio's worker threads, which a plain `python -m cProfile` does not see;
benchmarks/tables_load.py uses this with `--profile`.
"""

from __future__ import annotations

import cProfile
import gc
import pstats
import signal
import sys
import threading
import time


def main() -> None:
    port, db, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    profiles: list[cProfile.Profile] = []
    guard = threading.Lock()
    original = threading.Thread._bootstrap_inner  # type: ignore[attr-defined]

    def profiled_bootstrap(self: threading.Thread) -> None:
        profile = cProfile.Profile(time.thread_time)
        with guard:
            profiles.append(profile)
        profile.enable()
        try:
            original(self)
        finally:
            profile.disable()

    threading.Thread._bootstrap_inner = profiled_bootstrap  # type: ignore[attr-defined]  # every thread, whatever its run()
    import uvicorn

    from pinsetter.cli.web_command import GC_YOUNG, start_warming
    from pinsetter.web.app import create_app
    from pinsetter.web.server import server_config

    app = create_app(db)
    gc.collect()  # the collector set as `pinsetter serve` sets it
    gc.freeze()
    gc.set_threshold(GC_YOUNG, 10, 10)
    start_warming()
    # uvicorn re-raises the signal that stopped it once it has shut down: let that one return here.
    signal.signal(signal.SIGTERM, lambda _signum, _frame: None)
    main_profile = cProfile.Profile(time.thread_time)
    main_profile.enable()
    try:
        uvicorn.Server(server_config(app, "127.0.0.1", port)).run()  # the settings `pinsetter serve` uses
    finally:
        main_profile.disable()
        stats = pstats.Stats(main_profile)
        with guard:
            for profile in profiles:  # idle workers: their hooks see no more events
                profile.create_stats()
                stats.add(profile)
        stats.dump_stats(out)


if __name__ == "__main__":
    main()
