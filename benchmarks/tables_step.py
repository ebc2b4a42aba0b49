"""CPU per table step on the server, without the network: act, store, and render every seat's state.

Run: `.venv/bin/python benchmarks/tables_step.py [--tables 50] [--seats 4] [--db URL] [--profile FILE]`.
It drives `TableService` in one thread the way a WebSocket server does after each
message (the act, with its compare-and-set write, then the four seats' messages
encoded as JSON), round-robin over the tables until every game ends, and reports
the CPU time per step split into the two halves. tables_load.py measures the
whole server (uvicorn, WebSockets, threads); this isolates pinsetter's own share.
"""

from __future__ import annotations

import argparse
import cProfile
import tempfile
import time

from pinsetter.storage import Storage
from pinsetter.web.service import GameService
from pinsetter.web.tables import TableService, encode_messages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--game", default="tenpins")
    parser.add_argument("--db", default=None)
    parser.add_argument("--profile", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        storage = Storage(args.db or f"{tmp}/tables.sqlite")
        tables = TableService(storage, GameService(storage))
        ids = []
        for index in range(args.tables):
            made = tables.create(args.game, {}, ["human"] * args.seats, seed=index)
            for seat in range(args.seats):
                tables.sit(made["id"], seat, f"p{seat}")
            tables.start(made["id"], made["host_token"])
            ids.append(made["id"])
        seats: list[int | None] = list(range(args.seats))
        act_cpu = render_cpu = 0.0
        steps = 0
        profile = cProfile.Profile(time.thread_time) if args.profile else None
        if profile:
            profile.enable()
        playing = list(ids)
        while playing:
            for table_id in list(playing):
                view = tables.state_for(table_id, 0)["view"]
                if view["terminal"]:
                    playing.remove(table_id)
                    continue
                turn = view["turn"]
                mine = tables.state_for(table_id, turn)["view"]
                action = "roll" if mine["next"] == "roll" else mine["legal_actions"][0]
                start = time.thread_time()
                tables.act(table_id, turn, {"action": action})
                middle = time.thread_time()
                found = tables.kept_states_for(table_id, seats)
                assert found is not None
                encode_messages(found)
                end = time.thread_time()
                act_cpu += middle - start
                render_cpu += end - middle
                steps += 1
        if profile:
            profile.disable()
            profile.dump_stats(args.profile)
    print(f"{steps} steps at {args.tables} {args.game} tables of {args.seats}")
    print(
        f"CPU per step: act and store {1000 * act_cpu / steps:.3f} ms, "
        f"every seat's message {1000 * render_cpu / steps:.3f} ms, "
        f"together {1000 * (act_cpu + render_cpu) / steps:.3f} ms"
    )


if __name__ == "__main__":
    main()
