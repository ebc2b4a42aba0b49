"""What a table server keeps in memory between steps stays right when another process moves the table on.

Two `TableService`s over one SQLite file stand for two server processes; the
notifications between them (`note_change`) are delivered by hand, late or not at
all, and every step must still be stored exactly once, by the seat whose turn it is.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from pinsetter.records import replay, result_of
from pinsetter.storage import Storage
from pinsetter.storage.tables import copy_table
from pinsetter.web.service import Conflict, GameService, Refused
from pinsetter.web.tables import TableService
from waiting import until_async


def service(db: Path) -> TableService:
    storage = Storage(str(db))
    return TableService(storage, GameService(storage))


Setup = tuple[TableService, TableService, int, int, str]


@pytest.fixture
def two(tmp_path: Path) -> Setup:
    """Two processes' services, a started Ten Pins table with two humans: (a, b, table, game, host token)."""
    a, b = service(tmp_path / "h.sqlite"), service(tmp_path / "h.sqlite")
    made = a.create("tenpins", {"frames": 2}, ["human", "human"], seed=7)
    a.sit(made["id"], 0, "ann")
    a.sit(made["id"], 1, "bob")
    game_id = a.start(made["id"], made["host_token"])
    return a, b, made["id"], game_id, made["host_token"]


def turn(tables: TableService, table_id: int) -> int:
    view = tables.state_for(table_id, None)["view"]
    assert view is not None
    seat: int = view["turn"]
    return seat


def steps(tables: TableService, table_id: int) -> int:
    view = tables.state_for(table_id, None)["view"]
    assert view is not None
    return len(tables.games.match(view["id"]).record.steps)


def stored_steps(tables: TableService, game_id: int) -> list[str]:
    stored = tables.storage.get(game_id)
    assert stored is not None
    replay(stored.record)
    return [step.text for step in stored.record.steps]


def test_a_copy_behind_catches_up_without_a_notification(two: Setup) -> None:
    a, b, table_id, game_id, _host = two
    first = turn(b, table_id)  # b now keeps the table and the match
    a.act(table_id, first, {"action": "roll"})
    seat = turn(a, table_id)
    before = steps(a, table_id)
    b.act(table_id, seat, {"action": "roll"})  # b's copy is behind: found out, caught up, the roll applied once
    assert steps(b, table_id) == before + 1
    a.note_change(table_id, b.stamp(table_id))
    assert steps(a, table_id) == before + 1
    assert stored_steps(a, game_id) == [s.text for s in b.games.match(game_id).record.steps]


def test_a_seat_cannot_act_twice_through_a_stale_copy(two: Setup) -> None:
    a, b, table_id, game_id, _host = two
    for _ in range(40):  # play on a until a roll ends a frame; b's copy stays at the step before it
        seat = turn(a, table_id)
        b.note_change(table_id, a.stamp(table_id))
        assert steps(b, table_id) == steps(a, table_id)
        a.act(table_id, seat, {"action": "roll"})
        if turn(a, table_id) != seat:
            break
    else:
        raise AssertionError("the turn never passed")
    played = stored_steps(a, game_id)
    assert steps(b, table_id) == len(played) - 1  # no notification reached b: its copy is behind
    with pytest.raises(Refused, match="not your turn"):  # in b's copy it is still this seat's turn; not in the game
        b.act(table_id, seat, {"action": "roll"})
    assert stored_steps(a, game_id) == played  # nothing written twice


def test_a_notification_moves_the_copy_on_in_place(two: Setup) -> None:
    a, b, table_id, game_id, _host = two
    seat = turn(b, table_id)
    kept = b.games.kept(game_id)
    assert kept is not None
    a.act(table_id, seat, {"action": "roll"})
    b.note_change(table_id, a.stamp(table_id))
    assert steps(b, table_id) == steps(a, table_id)
    assert b.games.kept(game_id) is kept  # only the new step applied, not the whole game read again
    assert b.state_for(table_id, None) == a.state_for(table_id, None)


def test_a_notification_heard_while_the_game_is_being_read_is_not_lost(two: Setup) -> None:
    """The race that stalled a table till the 5-second look: this process reads the game (in a
    thread) from before a step is stored, the step's notification comes before that copy is kept,
    and the copy, once kept, must still catch up to it."""
    a, b, table_id, game_id, _host = two
    turn(b, table_id)  # b has seen the table (and knows its game)
    stored = b.storage.get(game_id)
    assert stored is not None
    before = len(stored.record.steps)
    b.games.forget(game_id)  # nothing kept: b's thread is reading the game...
    a.act(table_id, turn(a, table_id), {"action": "roll"})  # ...when a stores the next step
    b.note_change(table_id, a.stamp(table_id))  # and its notification arrives before the copy is kept
    late = b.games.match(game_id)  # the copy read before the step (as the thread would keep it)
    late.record = stored.record
    late.state = replay(stored.record)
    assert len(late.record.steps) == before
    shown = b.states_for(table_id, [None])[0]["view"]
    assert len(shown["log"]) == before + 1 and shown == a.states_for(table_id, [None])[0]["view"]


def test_a_table_closed_by_another_process_takes_no_step(two: Setup) -> None:
    a, b, table_id, game_id, host = two
    seat = turn(b, table_id)  # b keeps the table as playing
    before = stored_steps(a, game_id)
    a.close(table_id, host)  # no notification reaches b
    with pytest.raises(Conflict, match="closed"):  # b's copy says playing; the stored row's version does not
        b.act(table_id, seat, {"action": "roll"})
    assert stored_steps(a, game_id) == before


def test_a_finished_game_never_grows_and_a_guard_can_refuse_a_step(two: Setup) -> None:
    a, _b, table_id, game_id, _host = two
    match = a.games.match(game_id)
    match.storage = None  # written here by save_if only
    table = a.store.get(table_id)
    assert table is not None
    before = len(match.record.steps)
    match.apply(match.draw_chance())
    older = copy_table(table)
    older.version -= 1
    assert not a.storage.save_if(match.record, game_id, before, a.store.unchanged(older))
    assert not a.storage.save_if(match.record, game_id, before + 1)  # the stored game has `before` steps
    assert a.storage.save_if(match.record, game_id, before, a.store.unchanged(table))
    while not match.state.is_terminal():
        before = len(match.record.steps)
        match.apply(match.draw_chance())
        assert a.storage.save_if(match.record, game_id, before)
    done = len(match.record.steps)
    match.record.steps.append(match.record.steps[-1])  # a step after the end: refused by the stored row
    assert not a.storage.save_if(match.record, game_id, done)
    stored = a.storage.get(game_id)
    assert stored is not None and stored.finished and len(stored.record.steps) == done


def test_a_seat_handed_to_a_bot_by_another_process_is_seen_here(two: Setup) -> None:
    a, b, table_id, game_id, host = two
    seat = turn(b, table_id)  # b keeps the table and the match, with this seat human and to play
    a.give_to_bot(table_id, seat, host, "random")  # the bot plays the seat's turn at once
    played = stored_steps(a, game_id)
    b.note_change(table_id, a.stamp(table_id))  # b catches up: the players changed, so it reads the game anew
    mine, theirs = b.state_for(table_id, None)["view"], a.state_for(table_id, None)["view"]
    assert mine["players"] == theirs["players"] and mine["log"] == theirs["log"]
    here = b.games.match(game_id)
    assert not here.players[seat].is_human and seat in here.bots  # and its bot is ready to play it here
    with pytest.raises(Refused):
        b.act(table_id, seat, {"action": "roll"})
    assert stored_steps(a, game_id) == played


@pytest.mark.parametrize(
    ("game", "options", "players"),
    [
        ("tenpins", {"frames": 2}, 2),
        ("rolling-pins", {"frames": 2, "shared_dice": True}, 3),
        ("bowling-dice", {"frames": 2}, 2),
        ("bowling-solitaire", {"frames": 2}, 1),
    ],
)
def test_the_pushed_view_is_the_api_view(game: str, options: dict[str, object], players: int) -> None:
    """The tables build the view as plain data (no model): it equals the API's GameView, step by step to the end."""
    from pinsetter.records import PlayerSpec
    from pinsetter.session import Match
    from pinsetter.web.service import game_view, game_view_data

    specs = [PlayerSpec(f"p{i}", "human" if i == 0 else "random") for i in range(players)]
    match = Match.new(game, specs, 11, dict(options))
    match.undo_allowed = False
    seen = 0
    for _moment in range(400):
        terminal = match.state.is_terminal()
        for hide in (False, True):
            data = game_view_data(match, GameService.next_of(match), hide_seed=hide)
            assert data == game_view(match, GameService.next_of(match), hide_seed=hide).model_dump(mode="json")
        seen += 1
        if terminal:
            break
        state = match.state
        if state.is_chance_node():
            match.apply(match.draw_chance())
        else:
            seat = state.deciders()[-1]
            mine = state if seat == state.turn() else state.as_decider(seat)
            match.apply_for(seat, list(mine.legal_actions())[-1])
    assert match.state.is_terminal() and seen > 5


@pytest.mark.parametrize(
    ("game", "options", "players"), [("tenpins", {"frames": 2}, 3), ("rolling-pins", {"frames": 2}, 2)]
)
def test_a_view_made_from_kept_parts_is_the_view_made_whole(
    game: str, options: dict[str, object], players: int
) -> None:
    """The heading and sheets kept from the step before (`Match.view_parts`) are what the step makes anew:
    in two languages, with the seed hidden and shown, once the game is stored, and after a seat is renamed.

    Each view is asked for with one thing changed from the view before (the language, or whether the
    seed is shown), so that a part kept when it should be made again shows; and what nothing changed
    is kept from the step before (the same objects), so that the keeping is not a cache that never hits.
    """
    import dataclasses

    from pinsetter.i18n import using_language
    from pinsetter.records import PlayerSpec
    from pinsetter.session import Match
    from pinsetter.web.service import game_view_data

    match = Match.new(game, [PlayerSpec(f"p{i}") for i in range(players)], 7, dict(options))
    match.undo_allowed = False
    before: dict[str, Any] | None = None  # the last view, in English with the seed hidden
    reused = 0
    for moment in range(400):
        changed = moment in (4, 8)  # the moments after the stored id and a player's name changed
        with using_language("en"):
            first = game_view_data(match, GameService.next_of(match), hide_seed=True)
        if before is not None and not changed:
            assert first["options"] is before["options"] and first["players"] is before["players"]
            moved = [i for i in range(players) if first["sheets"][i] != before["sheets"][i]]
            assert all(first["sheets"][i] is before["sheets"][i] for i in range(players) if i not in moved)
            reused += 1
        for language, hide in (("en", True), ("ja", True), ("ja", False), ("en", False), ("en", True)):
            with using_language(language):
                kept = game_view_data(match, GameService.next_of(match), hide_seed=hide)
                match.view_parts.clear()
                whole = game_view_data(match, GameService.next_of(match), hide_seed=hide)
            assert kept == whole, (moment, language, hide)
        before = whole  # its parts are the ones kept for the next step
        state = match.state
        if state.is_terminal():
            break
        if moment == 3:
            match.game_id = 41  # stored: the view says its id
        if moment == 7:
            match.players[0] = dataclasses.replace(match.players[0], name="Zed")
        if state.is_chance_node():
            match.apply(match.draw_chance())
        else:
            match.apply_for(state.turn(), next(iter(state.legal_actions())))
    assert match.state.is_terminal() and reused > 10
    assert game_view_data(match, GameService.next_of(match))["players"][0]["name"] == "Zed"


def test_the_steps_a_notification_carries_are_applied_without_a_read(
    two: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, table_id, game_id, _host = two
    seat = turn(b, table_id)
    kept = b.games.kept(game_id)
    assert kept is not None
    stamp = a.act(table_id, seat, {"action": "roll"})
    assert len(stamp.split(" ", 4)) == 5  # version, steps, steps before, players' digest, the new steps

    def no_read(_game_id: int) -> None:
        raise AssertionError("the game was read from the database")

    monkeypatch.setattr(b.storage, "get", no_read)
    b.note_change(table_id, stamp)
    pushed = b.kept_states_for(table_id, [None, 0, 1])  # on the event loop: from memory, no read
    assert pushed == a.states_for(table_id, [None, 0, 1])
    assert steps(b, table_id) == steps(a, table_id)
    assert b.games.kept(game_id) is kept
    assert b.state_for(table_id, None) == a.state_for(table_id, None)
    assert kept.record.steps == a.games.match(game_id).record.steps


@pytest.mark.parametrize("damage", ["outcome", "actor", "players"])
def test_carried_steps_that_do_not_fit_are_read_from_the_database(two: Setup, damage: str) -> None:
    """Notified steps are checked as replay checks them: a wrong roll, actor or players reads the stored game."""
    import json

    a, b, table_id, game_id, _host = two
    seat = turn(b, table_id)
    stamp = a.act(table_id, seat, {"action": "roll"})
    version, count, before, digest, carried = stamp.split(" ", 4)
    new_steps = json.loads(carried)
    if damage == "outcome":
        new_steps[0]["step"] = "0" if new_steps[0]["step"] != "0" else "1"  # not what the seed rolls
    elif damage == "actor":
        new_steps[0]["actor"] = 1 - seat
    else:
        digest = "0" * 16
    b.note_change(table_id, f"{version} {count} {before} {digest} {json.dumps(new_steps)}")
    assert b.kept_states_for(table_id, [None]) is None  # not applied on the event loop: read in a thread
    assert b.state_for(table_id, None) == a.state_for(table_id, None)
    assert b.games.match(game_id).record.steps == a.games.match(game_id).record.steps


def test_a_seat_handed_to_a_bot_stays_a_bots_when_another_process_writes_meanwhile(tmp_path: Path) -> None:
    """The table changes first, so a step written from a copy that still sees the human cannot undo the handover."""
    a, b = service(tmp_path / "h.sqlite"), service(tmp_path / "h.sqlite")
    made = a.create("tenpins", {"frames": 2}, ["human", "human", "human"], seed=3)
    for seat, name in enumerate(["alice", "bob", "carol"]):
        a.sit(made["id"], seat, name)
    game_id = a.start(made["id"], made["host_token"])
    a.state_for(made["id"], 0)  # a keeps the table and the game, as after any push
    raced: list[str] = []
    update = b.store.update

    def alice_rolls_meanwhile(table: object) -> bool:
        if not raced:  # while b writes the handover, alice rolls through process a
            raced.append(a.act(made["id"], 0, {"action": "roll"}))
        return update(table)  # type: ignore[arg-type]

    b.store.update = alice_rolls_meanwhile  # type: ignore[method-assign]
    b.give_to_bot(made["id"], 2, made["host_token"], "random")
    assert raced
    stored = a.storage.get(game_id)
    assert stored is not None
    replay(stored.record)
    assert stored.record.players[2].replaced_by == "random"
    assert stored.record.steps[0].text != "" and stored.record.steps[0].actor is None
    assert a.table(made["id"]).seats[2].kind == "bot:random"
    fresh = service(tmp_path / "h.sqlite")
    assert not fresh.current_match(game_id).players[2].is_human


def test_a_start_that_loses_its_race_leaves_no_game_behind(tmp_path: Path) -> None:
    """Two starts at once: one game is stored, the table's (a second would show the table's secret seed)."""
    a, b = service(tmp_path / "h.sqlite"), service(tmp_path / "h.sqlite")
    made = a.create("tenpins", {"frames": 2}, ["human", "human"], seed=None)
    a.sit(made["id"], 0, "ann")
    a.sit(made["id"], 1, "bob")
    update = a.store.update
    winner: list[int] = []

    def second_start_lands_first(table: object) -> bool:
        if not winner:
            time.sleep(1.1)  # a second later: another identity, so a second game row if both were stored
            winner.append(b.start(made["id"], made["host_token"]))
        return update(table)  # type: ignore[arg-type]

    a.store.update = second_start_lands_first  # type: ignore[method-assign]
    with pytest.raises(Conflict):
        a.start(made["id"], made["host_token"])
    assert [game.id for game in a.storage.all_games()] == winner == [a.table(made["id"]).game_id]


def test_an_uploaded_record_cannot_move_a_tables_game(two: Setup) -> None:
    """Only the seats move a table's game: a longer record of it (forged for every seat) is refused.

    Such a record says it was played at the table (`extra.table`), which no record from outside
    may say; without it, it is another game, and the table's game stays as its seats left it."""
    from dataclasses import replace as with_steps

    from pinsetter.session import Match

    a, _, _, game_id, _ = two
    a.games.table_of = a.store.table_of_game
    stored = a.storage.get(game_id)
    assert stored is not None
    before = stored_steps(a, game_id)
    match = Match.resume(with_steps(stored.record, steps=list(stored.record.steps), result=None))
    match.storage = None
    for _ in range(6):
        match.apply(match.draw_chance() if match.state.is_chance_node() else match.state.legal_actions()[0])
    with pytest.raises(Refused, match=r"extra\.table: only the online tables"):
        a.games.upload(match.record.dumps())
    assert len(match.record.steps) == len(before) + 6
    assert stored_steps(a, game_id) == before
    other = a.games.upload(json.dumps(match.record.outside_json()))
    assert other != game_id and stored_steps(a, game_id) == before


def test_only_unfinished_timed_tables_get_their_clocks_back_after_a_restart(tmp_path: Path) -> None:
    """A finished game needs no clock: a restarting server does not replay every timed table ever played."""
    tables = service(tmp_path / "h.sqlite")
    started = []
    for seed in (5, 6):
        made = tables.create("tenpins", {"frames": 1}, ["human"], seed=seed, turn_seconds=30)
        tables.sit(made["id"], 0, "ann")
        started.append((made["id"], tables.start(made["id"], made["host_token"])))
    (done_table, done_game), (open_table, _) = started
    while not tables.current_match(done_game).state.is_terminal():
        tables.act(done_table, 0, {"action": "roll"})
    assert tables.store.timed_and_playing() == [open_table]


async def test_notifications_between_processes_resume_after_the_connection_is_cut(postgres: str) -> None:
    """A process whose LISTEN connection dies listens again; one whose NOTIFY connection dies sends again."""

    from pinsetter.web.tables import PostgresBroker

    seen: dict[str, list[int]] = {"a": [], "b": []}

    def pusher(name: str) -> Any:
        async def push(table_id: int, stamp: str) -> None:
            seen[name].append(table_id)

        return push

    a, b = PostgresBroker(postgres, pusher("a")), PostgresBroker(postgres, pusher("b"))
    await a.start()
    await b.start()
    try:
        for victim in (a.listener, b.sender):  # cut a's listening and b's sending connection
            await a.sender.execute("SELECT pg_terminate_backend(%s)", (victim.info.backend_pid,))
        table = 900_000 + os.getpid() % 1000  # a table id no other test's notification carries
        await until_async(
            lambda: table in seen["a"], "a listening again", between=lambda: b.publish(table, "")
        )  # a listens again and b sends again
        assert table in seen["b"]  # b's own connections saw it at once
    finally:
        await a.stop()
        await b.stop()


async def test_servers_on_another_schema_of_the_database_do_not_hear_a_tables_notifications(postgres: str) -> None:
    """Table ids are per schema: the notifications of one schema's tables go to that schema's servers only."""

    import sqlalchemy as sa

    from pinsetter.web.tables import PostgresBroker

    other = f"pinsetter_other_{os.getpid()}_{time.monotonic_ns() % 1_000_000}"
    base = sa.make_url(postgres).set(query={})
    engine = sa.create_engine(base)
    with engine.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{other}"'))
    elsewhere = base.update_query_dict({"options": f"-csearch_path={other}"}).render_as_string(hide_password=False)
    seen: dict[str, list[int]] = {"here": [], "same": [], "elsewhere": []}

    def pusher(name: str) -> Any:
        async def push(table_id: int, stamp: str) -> None:
            seen[name].append(table_id)

        return push

    brokers = {
        "here": PostgresBroker(postgres, pusher("here")),
        "same": PostgresBroker(postgres, pusher("same")),
        "elsewhere": PostgresBroker(elsewhere, pusher("elsewhere")),
    }
    try:
        for broker in brokers.values():
            await broker.start()
        assert brokers["here"].channel == brokers["same"].channel != brokers["elsewhere"].channel
        await brokers["here"].publish(7, "")
        await until_async(lambda: seen["same"], "the notification on the same schema")
        await brokers["elsewhere"].sender.execute("SELECT pg_sleep(0.3)")  # time for a stray notification
        assert seen == {"here": [7], "same": [7], "elsewhere": []}
    finally:
        for broker in brokers.values():
            await broker.stop()
        with engine.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{other}" CASCADE'))
        engine.dispose()


async def test_steps_applied_on_the_event_loop_are_written_together_each_by_its_own_compare_and_set(
    tmp_path: Path,
) -> None:
    """The loop applies steps in memory; one writer stores all that wait, and a stale one is judged again."""
    from pinsetter.web.tables import Hub

    a, b = service(tmp_path / "h.sqlite"), service(tmp_path / "h.sqlite")
    tables, games = [], []
    for seed in (1, 2):
        made = a.create("tenpins", {"frames": 2}, ["human", "human"], seed=seed)
        a.sit(made["id"], 0, "ann")
        a.sit(made["id"], 1, "bob")
        games.append(a.start(made["id"], made["host_token"]))
        tables.append(made["id"])
    hub = Hub(a)
    try:
        first, second = (turn(a, t) for t in tables)
        b.act(tables[1], second, {"action": "roll"})  # another process moves the second game on; a is not told
        moved = stored_steps(a, games[1])
        roll = {"action": "roll"}
        pending = [a.begin_act(tables[0], first, roll), a.begin_act(tables[1], second, roll)]
        assert all(p is not None for p in pending)  # both applied in memory, at once
        futures = [hub.writer.submit(p) for p in pending if p is not None]
        done = await asyncio.gather(*futures, return_exceptions=True)
        assert isinstance(done[0], str) and done[0].startswith(f"{a.kept_table(tables[0]).version} ")
        assert type(done[1]).__name__ == "_Stale"  # its compare-and-set failed: nothing of it stored
        assert len(stored_steps(a, games[0])) == len(a.games.match(games[0]).record.steps)
        assert stored_steps(a, games[1]) == moved
        assert a.games.kept(games[1]) is None  # the copy that went wrong is dropped, and its lock let go
        assert a.games.lock(games[1]).acquire(blocking=False)
        a.games.lock(games[1]).release()
        # The seat's roll is judged again on what is stored (its second ball now) and stored once.
        await hub._act_on(tables[1], second, {"action": "roll"})
        after = stored_steps(a, games[1])
        assert after[: len(moved)] == moved and len(after) == len(moved) + 1
    finally:
        hub.writer.stop()


async def test_a_table_with_a_bot_acts_on_the_event_loop_and_its_bot_plays_once_the_step_is_stored(
    tmp_path: Path,
) -> None:
    """A seat's action never plays a bot (the bots play afterwards, in the background): a table with a bot
    applies its seats' steps on the event loop like any other, and the bot is told once the step is stored."""
    from pinsetter.web.tables import Hub

    a = service(tmp_path / "h.sqlite")
    made = a.create("tenpins", {"frames": 2}, ["human", "bot:random"], seed=3)
    table_id = made["id"]
    a.sit(table_id, 0, "ann")
    game_id = a.start(table_id, made["host_token"])
    hub = Hub(a)
    told: list[int] = []
    a.bots_to_play = told.append  # what the hub would play
    try:
        for _ in range(3):  # Ann rolls until her frame ends
            pending = a.begin_act(table_id, 0, {"action": "roll"})
            assert pending is not None  # applied on the event loop, bot or no bot
            assert not told  # not before its write
            await hub.writer.submit(pending)
            if told:
                break
        assert told == [table_id] and turn(a, table_id) == 1  # the bot's turn, none of its rolls played
        ann = len(stored_steps(a, game_id))  # Ann's rolls, and nothing of the bot's
        with pytest.raises(Refused, match="not your turn"):  # nobody acts for the bot: the seat checks stay
            a.act(table_id, 0, {"action": "roll"})
        with pytest.raises(Refused, match="played by a bot"):
            a.act(table_id, 1, {"action": "roll"})
        played = 0
        while a.play_bot(table_id) is not None:  # what the hub's task does: one stored step at a time
            played += 1
            assert len(stored_steps(a, game_id)) == ann + played
        assert played >= 1 and turn(a, table_id) == 0  # the bot's frame is over: Ann's turn again
    finally:
        hub.writer.stop()
    with pytest.raises(Refused, match="'action' must be text"):  # a bad message is refused at once all the same
        a.begin_act(table_id, 0, {"action": 5})


def test_appends_in_one_transaction_are_each_checked(two: Setup) -> None:
    a, _b, _table_id, game_id, _host = two
    match = a.games.match(game_id)
    match.storage = None
    before = len(match.record.steps)
    match.apply(match.draw_chance())
    match.record.result = result_of(match.state, match.players)
    good = a.storage.prepare_append(match.record, game_id, before)
    stale = a.storage.prepare_append(match.record, game_id, before + 1)
    assert a.storage.run_appends([stale, good]) == [False, True]  # the first fails, the second is kept
    assert len(stored_steps(a, game_id)) == before + 1


def test_the_step_writer_follows_a_new_event_loop(two: Setup) -> None:
    """A hub serves one event loop at a time (a test client makes a new one): each loop's steps are written."""
    from pinsetter.web.tables import Hub

    a, _b, table_id, game_id, _host = two
    hub = Hub(a)

    async def one_step() -> str:
        pending = a.begin_act(table_id, turn(a, table_id), {"action": "roll"})
        assert pending is not None
        return await hub.writer.submit(pending)

    try:
        before = len(stored_steps(a, game_id))
        first = asyncio.run(one_step())
        second = asyncio.run(one_step())  # a second loop: the writer of the first one is replaced, not shared
        assert first != second
        assert len(stored_steps(a, game_id)) == before + 2
    finally:
        hub.writer.stop()


def test_two_tables_starting_the_same_game_in_the_same_second_keep_two_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same game, names and seed, started in the same second: still two games in the history, one per table."""
    from datetime import UTC, datetime

    import pinsetter.records as records

    class Frozen(datetime):
        @classmethod
        def now(cls, tz: object = None) -> Frozen:  # type: ignore[override]
            return cls(2026, 11, 30, 12, 0, 0, tzinfo=UTC)

    monkeypatch.setattr(records, "datetime", Frozen)
    a = service(tmp_path / "h.sqlite")
    games, tables = [], []
    for _ in range(2):
        made = a.create("tenpins", {"frames": 2}, ["human", "human"], seed=5)
        a.sit(made["id"], 0, "ann")
        a.sit(made["id"], 1, "bob")
        games.append(a.start(made["id"], made["host_token"]))
        tables.append(made["id"])
    assert games[0] != games[1]
    for table_id in tables:  # each table plays its own game to the end
        while True:
            view = a.state_for(table_id, None)["view"]
            if view["terminal"]:
                break
            a.act(table_id, view["turn"], {"action": "roll"})
    for table_id, game_id in zip(tables, games, strict=True):
        stored = a.storage.get(game_id)
        assert stored is not None and stored.finished and stored.record.extra == {"table": table_id}
        replay(stored.record)


@pytest.mark.parametrize(
    ("game", "options", "seats"),
    [("tenpins", {"frames": 2}, 3), ("rolling-pins", {"frames": 2, "shared_dice": True}, 3)],
)
def test_messages_put_together_around_shared_views_are_each_messages_own_json(
    tmp_path: Path, game: str, options: dict[str, object], seats: int
) -> None:
    """A push encodes each distinct view once; every text is still exactly its own message's JSON, to the end."""
    import json

    from pinsetter.web.tables import _encode, encode_messages

    tables = service(tmp_path / "h.sqlite")
    made = tables.create(game, dict(options), ["human"] * seats, seed=5)
    for seat in range(seats):
        tables.sit(made["id"], seat, ["ann", "<b>bob</b>", "名前\u3000さん"][seat])
    tables.start(made["id"], made["host_token"])
    shared = distinct = 0
    for _step in range(500):
        watchers: list[int | None] = [None, *range(seats), 0]
        messages = tables.states_for(made["id"], watchers)
        texts = encode_messages(messages)
        assert texts == [_encode(m) for m in messages]
        assert [json.loads(t) for t in texts] == messages
        views = {id(m["view"]) for m in messages}
        shared += len(views) < len(messages)
        distinct += len(views) > 2
        view = messages[0]["view"]
        if view["terminal"]:
            break
        deciders = view["deciders"] or [view["turn"]]
        seat = deciders[0]
        mine = tables.state_for(made["id"], seat)["view"]
        action = "roll" if mine["next"] == "roll" else mine["legal_actions"][-1]
        tables.act(made["id"], seat, {"action": action})
    assert messages[0]["view"]["terminal"]
    assert shared > 5  # seats share a view (encoded once) ...
    if game == "rolling-pins":
        assert distinct > 0  # ... and seats deciding the same roll each get their own


def test_the_log_entries_kept_between_views_are_the_ones_made_anew() -> None:
    """A view's log is made from the entries of the views before (only new steps' added): the same as made
    anew, with steps skipped between views, two languages in turn, and an undo."""
    from pinsetter.i18n import using_language
    from pinsetter.records import PlayerSpec
    from pinsetter.session import Match
    from pinsetter.web.service import LOG_LENGTH, game_view_data, timed_out

    match = Match.new("rolling-pins", [PlayerSpec("ann"), PlayerSpec("bob", "random")], 5, {"frames": 4})
    undone = 0
    for moment in range(300):
        state = match.state
        if state.is_terminal():
            break
        if state.is_chance_node():
            match.apply(match.draw_chance())
        else:
            match.apply_for(state.deciders()[0], list(state.legal_actions())[moment % len(state.legal_actions())])
        if moment % 11 == 5 and match.can_undo() is None:
            match.undo()
            undone += 1
        if moment % 3 == 1:
            continue  # steps not viewed
        with using_language("ja" if moment % 5 == 0 else "en"):
            log = game_view_data(match, GameService.next_of(match))["log"]
            names = [p.name for p in match.players]
            words = match.log_words()
            steps = match.record.steps
            first = max(0, len(steps) - LOG_LENGTH)
            assert log == [
                {
                    "step": i + 1,
                    "actor": "chance" if s.actor is None else names[s.actor],
                    "text": s.text,
                    "words": words[i],
                    "note": "" if s.by is None or s.actor is None else timed_out(names[s.actor]),
                }
                for i, s in enumerate(steps[first:], start=first)
            ]
    assert undone > 0 and len(match.record.steps) > LOG_LENGTH


@pytest.mark.parametrize("late", [False, True])
def test_the_end_is_shown_from_the_copy_played_here_exactly_as_read_anew(two: Setup, late: bool) -> None:
    """A table that is over shows its end from the copy each process played (caught up with the stored game):
    what a fresh process that reads it shows, in both processes, every step heard or only the last one."""
    from pinsetter.web.tables import encode_messages

    a, b, table_id, game_id, _host = two
    seats: list[int | None] = [None, 0, 1]
    b.states_for(table_id, seats)  # b keeps the table and its game too
    stamp = ""
    while True:
        view = a.states_for(table_id, seats)[0]["view"]
        if view["terminal"]:
            break
        stamp = a.act(table_id, view["turn"], {"action": "roll"})
        if not late:
            b.note_change(table_id, stamp)
            b.states_for(table_id, seats)
    if late:  # only the last change heard, without its steps (as the look tells it): b reads them
        b.note_change(table_id, " ".join(stamp.split(" ")[:2]))
    fresh = service(Path(a.storage.engine.url.database or ""))
    shown = encode_messages(fresh.states_for(table_id, seats))
    assert encode_messages(a.states_for(table_id, seats)) == shown
    assert encode_messages(b.states_for(table_id, seats)) == shown
    assert a.games.kept(game_id) is None and b.games.kept(game_id) is None
    assert game_id in a._ended and game_id in b._ended  # shown from the copies played, not read anew


def test_an_ended_copy_that_the_stored_game_does_not_continue_is_read_anew(two: Setup) -> None:
    """The stored game is the judge: a copy kept for the end whose steps are not the stored ones is not shown."""
    from pinsetter.web.tables import encode_messages

    a, _b, table_id, game_id, host = two
    seats: list[int | None] = [None, 0, 1]
    a.states_for(table_id, seats)
    for _ in range(3):
        view = a.states_for(table_id, seats)[0]["view"]
        a.act(table_id, view["turn"], {"action": "roll"})
    kept = a.games.kept(game_id)
    assert kept is not None
    a.close(table_id, host)  # abandoned: over, the copy kept to show it
    kept.record.steps[1] = type(kept.record.steps[1])(None, "0+0")  # a copy gone wrong meanwhile
    fresh = service(Path(a.storage.engine.url.database or ""))
    assert encode_messages(a.states_for(table_id, seats)) == encode_messages(fresh.states_for(table_id, seats))


def test_an_ended_copy_that_fails_to_catch_up_in_any_way_is_dropped_and_read_anew(
    two: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever goes wrong while a kept copy catches up with the stored game (here an IndexError), the copy
    may be half changed: it is dropped and the end is shown from the stored game, the next view too."""
    import pinsetter.web.tables as tables_module
    from pinsetter.web.tables import encode_messages

    a, _b, table_id, game_id, host = two
    seats: list[int | None] = [None, 0, 1]
    a.states_for(table_id, seats)
    for _ in range(3):
        view = a.states_for(table_id, seats)[0]["view"]
        a.act(table_id, view["turn"], {"action": "roll"})
    a.close(table_id, host)

    def broken(*_args: object, **_kwargs: object) -> None:
        raise IndexError("a copy gone wrong")

    monkeypatch.setattr(tables_module, "replay_from", broken)
    fresh = service(Path(a.storage.engine.url.database or ""))
    expected = encode_messages(fresh.states_for(table_id, seats))
    assert encode_messages(a.states_for(table_id, seats)) == expected
    assert game_id not in a._ended
    assert encode_messages(a.states_for(table_id, seats)) == expected
