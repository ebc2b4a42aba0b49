"""CPU per table step on the server, without the network: act, store, and render every seat's state.

Run: `.venv/bin/python benchmarks/tables_step.py [--tables 50] [--seats 4] [--db URL] [--profile FILE]`.
It drives `TableService` in one thread the way a WebSocket server does after each
message (the act, with its compare-and-set write, then the four seats' messages
encoded as JSON), round-robin over the tables until every game ends, and reports
the CPU time per step split into the two halves; then what a second server
process on the same database does for the same step (told by its stamp, as a
PostgreSQL notification tells it: apply the carried step, render every seat),
checking that it shows every seat exactly what the first one does.
tables_load.py measures the whole server (uvicorn, WebSockets, threads); this
isolates pinsetter's own share.
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
        db = args.db or f"{tmp}/tables.sqlite"
        storage = Storage(db)
        tables = TableService(storage, GameService(storage))
        # A second server process on the same database: told of each step as a PostgreSQL
        # notification would tell it (the step's stamp), it applies the step and renders it too.
        other_storage = Storage(db)
        other = TableService(other_storage, GameService(other_storage))
        ids = []
        for index in range(args.tables):
            made = tables.create(args.game, {}, ["human"] * args.seats, seed=index)
            for seat in range(args.seats):
                tables.sit(made["id"], seat, f"p{seat}")
            tables.start(made["id"], made["host_token"])
            ids.append(made["id"])
        seats: list[int | None] = list(range(args.seats))
        shown = {table_id: tables.states_for(table_id, seats) for table_id in ids}
        for table_id in ids:
            other.states_for(table_id, seats)  # it serves these tables too: it keeps them
        act_cpu = render_cpu = follow_cpu = 0.0
        steps = 0
        profile = cProfile.Profile(time.thread_time) if args.profile else None
        if profile:
            profile.enable()
        playing = list(ids)
        while playing:
            for table_id in list(playing):
                view = shown[table_id][0]["view"]
                if view["terminal"]:
                    playing.remove(table_id)
                    continue
                turn = view["turn"]
                mine = shown[table_id][turn]["view"]
                action = "roll" if mine["next"] == "roll" else mine["legal_actions"][0]
                start = time.thread_time()
                stamp = tables.act(table_id, turn, {"action": action})
                acted = time.thread_time()
                found = tables.kept_states_for(table_id, seats)
                over = found is None  # the last step finishes the table: not kept any more, shown as stored
                if found is None:
                    found = tables.states_for(table_id, seats)
                texts = encode_messages(found)
                rendered = time.thread_time()
                other.note_change(table_id, stamp)
                followed = other.kept_states_for(table_id, seats)
                assert followed is not None or over, "the notification carried the step: no read"
                if followed is None:
                    followed = other.states_for(table_id, seats)
                other_texts = encode_messages(followed)
                end = time.thread_time()
                assert other_texts == texts  # both processes show every seat the same
                act_cpu += acted - start
                render_cpu += rendered - acted
                follow_cpu += end - rendered
                shown[table_id] = found
                steps += 1
        if profile:
            profile.disable()
            profile.dump_stats(args.profile)
    print(f"{steps} steps at {args.tables} {args.game} tables of {args.seats}")
    print(
        f"CPU per step: act and store {1000 * act_cpu / steps:.3f} ms, "
        f"every seat's message {1000 * render_cpu / steps:.3f} ms, "
        f"together {1000 * (act_cpu + render_cpu) / steps:.3f} ms; "
        f"another process applying the notified step and rendering it {1000 * follow_cpu / steps:.3f} ms "
        "(at least: here the two share the module-level caches they would each fill)"
    )


if __name__ == "__main__":
    main()
