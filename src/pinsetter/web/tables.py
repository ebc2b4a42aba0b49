"""Online tables: friends on different machines at one game, live over WebSockets.

A host creates a table (seats for humans and bots) and gets a join code and a
host token; each visitor takes a free seat by name and gets a seat token; the
host starts the game. The server accepts a decision only from the seat whose
decision it is, identified by its token (spectators hold none), applies it
through the engine with the chance steps that follow, stores the game with a
compare-and-set on its step count (so two server processes never both append
a step), and tells every process to push the new state to its connections:
in-process, or through PostgreSQL LISTEN/NOTIFY when several processes share
one PostgreSQL database (docs/tables.md). The bots play afterwards, in the
background, one stored and pushed step at a time, like the seats.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import hashlib
import logging
import queue
import reprlib
import threading
import time
from collections import OrderedDict, defaultdict
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import Any

import anyio
import orjson
import sqlalchemy as sa
from fastapi import WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from pinsetter.bots.base import bot_names, bot_seat_name, make_bot
from pinsetter.core.game import GameError, Step, quoted
from pinsetter.core.seeds import SEED_MAX
from pinsetter.games.registry import get_game
from pinsetter.games.table_common import refusal_line
from pinsetter.i18n import _, current_language, using_language
from pinsetter.records import TABLE_MARK, PlayerSpec, RecordStep, check_result_of, replay_from, result_of
from pinsetter.session import Match
from pinsetter.storage import Storage
from pinsetter.storage.db import PreparedAppend
from pinsetter.storage.tables import LIVE, Seat, StoredTable, TableStore, new_token, token_hash
from pinsetter.storage.tables import copy_table as _copy
from pinsetter.usertext import check_new_name, name_key
from pinsetter.web.service import Conflict, GameService, NotFound, Refused, game_view_data

__all__ = ["Hub", "TableService"]

log = logging.getLogger("pinsetter.tables")
CHANNEL = "pinsetter_tables"
MAX_MESSAGE = 4096  # bytes of one WebSocket message from a client
RATE = 10.0  # messages per second a connection may send on average
BURST = 20.0
MIN_TURN, MAX_TURN = 1, 3600  # seconds a host may give each decision
MIN_HOURS, MAX_HOURS = 1, 72  # hours an asynchronous table gives each decision
LISTED_MOST = 50  # open tables listed at once (newest first)
MINE_MOST = 50  # a player's tables looked at for `tables_to_play`
TURNS_KEPT = 4096  # games not kept here whose turn `tables_to_play` remembers
wall_clock = time.time  # an asynchronous table's deadlines are wall-clock times (tests move it on)
# Worker threads applying the seats' actions that cannot be applied on the event loop (nothing
# kept, a bot at the table, a retry) at once: when every action went to anyio's default 40, 50
# tables at bot speed spent ~45 ms per action waiting for the interpreter's lock and 3 ms acting
# (docs/tables.md, Load).
ACT_THREADS = 4
BOT_THREADS = 2  # bots thinking at once, in threads of their own: a slow bot never holds up a seat's action
BOT_TRIES = 100  # times a bot thinks again because the game moved on meanwhile, before its runner lets go
MAX_BATCH = 64  # steps one transaction writes at most
ENDED_KEPT = 16  # copies kept of games whose table is over, to show their end (`TableService._over_match`)


@dataclasses.dataclass(frozen=True)
class _Turn:
    """What a player's list needs of a game not kept here, as of its `steps`-th stored step."""

    steps: int
    over: bool
    turn: frozenset[int]  # the seats to act
    waiting: tuple[int, ...]  # the human seats with a decision pending (their clocks run)


class _Stale(Exception):
    """What this process kept of a table or its game was out of date: try again from the database."""


class TableService:
    """Tables over the history database; every change goes through the game API and the engine."""

    def __init__(self, storage: Storage, games: GameService) -> None:
        self.storage = storage
        self.games = games
        self.store = TableStore(storage)
        self.changed: Callable[[int], None] = lambda _table_id: None  # the hub pushes the new state
        # Told (from any thread, holding no lock) that a step this process stored leaves a bot to
        # play: alone (a script, a test), the bots play at once in the caller's thread; the hub
        # plays them in the background (`Hub.play_bots`).
        self.bots_to_play: Callable[[int], None] = self.play_bots
        # Turn timer: table -> seat -> (which decision of the seat, its deadline on time.monotonic()).
        self.deadlines: dict[int, dict[int, tuple[int, float]]] = {}
        self._step_at: dict[int, tuple[int, float]] = {}  # asynchronous tables: game -> (steps, stored at)
        # Games not kept here, as `tables_to_play` last found them: who is to act changes only with a
        # step, so a player's list replays a game only when its stored step count moved.
        self._turns: dict[int, _Turn] = {}
        self._clock_guard = threading.Lock()
        self._timed: dict[int, bool] = {}  # read by the hub without a thread hop
        # Rows of the tables being played, kept between steps: a step is written only if the row
        # is still at this version (TableStore.unchanged), and notifications drop stale copies.
        self._playing: dict[int, StoredTable] = {}
        self._game_of: dict[int, int] = {}  # table -> its game, once seen here (it never changes)
        self._behind: dict[int, int] = {}  # game -> steps another process has stored: catch up when used
        # game -> the steps another process's notification carried: (steps before them, players' digest, steps)
        self._incoming: dict[int, tuple[int, str, list[Any]]] = {}
        self._guard = threading.Lock()
        # table -> (version, steps) of the last state its connections here were sent (`missed`)
        self._shown: dict[int, tuple[int, int | None]] = {}
        # game -> the copy played here of a table's game that is over (finished or closed), until its
        # end has been shown: caught up with the stored game (only its last steps applied) rather than
        # the whole game replayed and narrated again from the record (`_over_match`).
        self._ended: OrderedDict[int, Match] = OrderedDict()
        # table -> the kept row, language and `public()` last sent from it (`_public_of`)
        self._publics: dict[int, tuple[StoredTable, str, dict[str, Any]]] = {}

    def unshown(self, table_id: int) -> None:
        """Nobody here watches the table any more: forget what it was shown."""
        with self._guard:
            self._shown.pop(table_id, None)
            self._publics.pop(table_id, None)

    def _public_of(self, table: StoredTable) -> dict[str, Any]:
        """`table.public()` of a row kept here (never changed: a change keeps a new copy), made once per language.

        Every push of a step sends it to every seat. Shared by the messages, read only.
        """
        language = current_language()
        with self._guard:
            kept = self._publics.get(table.id)
        if kept is not None and kept[0] is table and kept[1] == language:
            return kept[2]
        public = table.public()
        with self._guard:
            self._publics[table.id] = (table, language, public)
        return public

    def missed(self, table_ids: list[int]) -> dict[int, tuple[int, int | None]]:
        """The tables whose stored state is not the one last shown here: their stored (version, steps) (one read).

        A notification can be lost (a send that failed, a push that failed while the database
        was away): the hub looks every few seconds, so that no table stalls for good.
        """
        return self.not_shown(self.store.stamps(table_ids))

    def not_shown(self, stored: dict[int, tuple[int, int | None]]) -> dict[int, tuple[int, int | None]]:
        """Of the tables' stored (version, steps), those that are not what was last shown here."""
        with self._guard:
            return {table_id: stamp for table_id, stamp in stored.items() if self._shown.get(table_id) != stamp}

    def kept_with_bots(self, table_id: int) -> bool:
        """Whether the table, as this process keeps it, is being played with a bot seat (nothing is read)."""
        with self._guard:
            table = self._playing.get(table_id)
        return table is not None and table.has_bots

    def table(self, table_id: int) -> StoredTable:
        """The table as stored now (read from the database)."""
        found = self.store.get(table_id)
        if found is None:
            raise NotFound(_("no table {id}").format(id=table_id))
        if found.status not in LIVE:
            self._release(table_id)  # finished or closed elsewhere: nothing about it changes any more
            return found
        with self._guard:
            if found.status == "playing":
                self._playing[table_id] = _copy(found)
            else:
                self._playing.pop(table_id, None)
            game_id = found.game_id
            first_sight = game_id is not None and self._game_of.get(table_id) != game_id
            if game_id is not None:
                self._game_of[table_id] = game_id
        if first_sight and game_id is not None:
            self.games.forget(game_id)  # a copy read before (by the open game API) had no notifications
        return found

    def _release(self, table_id: int, game_id: int | None = None) -> None:
        """Forget everything kept about a table that is over (finished or closed), and its game's copy.

        A long-lived server sees many tables: only those still played are kept (the copy of the
        game is read again, once, to show its end).
        """
        with self._guard:
            self._playing.pop(table_id, None)
            self._publics.pop(table_id, None)
            self._timed.pop(table_id, None)
            game_id = self._game_of.pop(table_id, game_id)
            if game_id is not None:
                self._behind.pop(game_id, None)
                self._incoming.pop(game_id, None)
        with self._clock_guard:
            self.deadlines.pop(table_id, None)
            if game_id is not None:
                self._step_at.pop(game_id, None)
        if game_id is not None:
            match = self.games.take(game_id)
            if match is not None:
                with self._guard:
                    self._ended[game_id] = match
                    while len(self._ended) > ENDED_KEPT:
                        self._ended.popitem(last=False)

    def kept_table(self, table_id: int) -> StoredTable:
        """A playing table's row as this process last knew it (read only); any other table is read.

        Good enough to act on, because the step is then written only if the row has not changed.
        """
        with self._guard:
            found = self._playing.get(table_id)
        return found if found is not None else self.table(table_id)

    def _keep(self, table: StoredTable) -> None:
        """Keep a copy of a row just written by this process (a playing table), or drop what is kept of it."""
        if table.status not in LIVE:
            self._release(table.id)
            return
        with self._guard:
            if table.status == "playing":
                self._playing[table.id] = _copy(table)
                if table.game_id is not None:
                    self._game_of[table.id] = table.game_id
            else:
                self._playing.pop(table.id, None)

    def stamp(self, table_id: int) -> str:
        """`VERSION STEPS` of the table as kept here, for the notification of a change ("" if not kept)."""
        with self._guard:
            table = self._playing.get(table_id)
        if table is None or table.game_id is None:
            return ""
        match = self.games.kept(table.game_id)
        return "" if match is None else _version_steps(table, match)

    def note_change(self, table_id: int, stamp: str) -> None:
        """Another process (or this one) changed the table: drop the copies kept here that are older.

        `stamp` is the changer's `VERSION STEPS`; without one, everything kept about the table is dropped.
        """
        version: int | None = None
        steps: int | None = None
        carried: tuple[int, str, list[Any]] | None = None
        parts = stamp.split(" ", 4)
        with contextlib.suppress(ValueError):
            version, steps = int(parts[0]), int(parts[1])
        if steps is not None and len(parts) == 5:
            with contextlib.suppress(ValueError):  # orjson's JSONDecodeError is one
                new_steps = orjson.loads(parts[4])
                if isinstance(new_steps, list) and int(parts[2]) + len(new_steps) == steps:
                    carried = int(parts[2]), parts[3], new_steps
        with self._guard:
            table = self._playing.get(table_id)
            if table is not None and (version is None or table.version < version):
                del self._playing[table_id]
            game_id = self._game_of.get(table_id)
        if game_id is None:
            return  # nothing kept here about the table's game
        match = self.games.kept(game_id)
        if steps is None:
            if match is not None:
                self.games.forget(game_id)
        elif match is None or len(match.record.steps) < steps:
            # Not kept: a thread may be reading the game right now, from before this step was
            # stored; what it keeps must still catch up to these steps (a table stalled till the look).
            with self._guard:  # caught up (only the new steps applied) when next used, under the game's lock
                if steps > self._behind.get(game_id, 0):
                    self._behind[game_id] = steps
                    if carried is not None:
                        self._incoming[game_id] = carried
                    else:
                        self._incoming.pop(game_id, None)

    def create(
        self,
        game: str,
        options: dict[str, Any],
        seats: list[str],
        seed: int | None,
        turn_seconds: int | None = None,
        fallback_bot: str | None = None,
        rated: bool = False,
        turn_hours: int | None = None,
        listed: bool = False,
        host_name: str | None = None,
    ) -> dict[str, Any]:
        """A new open table. `listed`: shown in the open tables; `host_name`: a signed-in host's account name."""
        import random

        settings: dict[str, Any] = {}
        try:
            instance = get_game(game, options)
            instance.check_players(len(seats))
            if rated:
                if len(seats) < 2 or "human" not in seats:
                    raise Refused(_("a rated table needs two seats or more, one of them for a player"))
                settings["rated"] = True
            if turn_seconds is not None:
                if type(turn_seconds) is not int or not MIN_TURN <= turn_seconds <= MAX_TURN:
                    raise Refused(
                        _("turn_seconds: a whole number of seconds from {low} to {high}, not {given}").format(
                            low=MIN_TURN, high=MAX_TURN, given=quoted(turn_seconds)
                        )
                    )
                settings["turn_seconds"] = turn_seconds
            if turn_hours is not None:
                if turn_seconds is not None:
                    raise Refused(_("give turn_seconds or turn_hours, not both"))
                if type(turn_hours) is not int or not MIN_HOURS <= turn_hours <= MAX_HOURS:
                    raise Refused(
                        _("turn_hours: a whole number of hours from {low} to {high}, not {given}").format(
                            low=MIN_HOURS, high=MAX_HOURS, given=quoted(turn_hours)
                        )
                    )
                settings["turn_hours"] = turn_hours
            if listed:
                settings["listed"] = True
            if host_name is not None:
                settings["host"] = host_name
            if fallback_bot is not None or turn_seconds is not None or turn_hours is not None:
                names = bot_names(instance.id)
                settings["fallback_bot"] = fallback_bot or ("greedy" if "greedy" in names else "random")
                make_bot(settings["fallback_bot"], instance)
            made = []
            for kind in seats:
                if kind == "human":
                    made.append(Seat("human"))
                else:
                    bot = kind.removeprefix("bot:")
                    make_bot(bot, instance)
                    made.append(Seat(kind, name=bot_seat_name(bot, [s.name for s in made if s.name])))
        except (GameError, ValueError) as exc:
            raise Refused(str(exc)) from None
        if seed is None:
            seed = random.SystemRandom().randrange(SEED_MAX + 1)
        table, host = self.store.create(game, instance.options_text(), seed, made, settings)
        return {"id": table.id, "join_code": table.code, "host_token": host, "table": table.public()}

    def open_tables(self) -> list[dict[str, Any]]:
        """The tables waiting for players that their hosts listed, newest first (`LISTED_MOST` at most).

        What a stranger needs to choose one and join: the game and its options (in words and as
        given), the free seats, the timer, whether it is rated, the host's account name (a signed-in
        host) and the names seated, and the join code. Never a token.
        """
        found = []
        for table in self.store.listed_open(LISTED_MOST):
            public = table.public()
            found.append(
                {
                    key: public[key]
                    for key in ("id", "join_code", "game", "options", "title", "rated", "turn_seconds", "turn_hours")
                }
                | {
                    "host": table.settings.get("host"),
                    "seats": len(table.seats),
                    "free_seats": sum(1 for seat in table.seats if seat.free),
                    "players": [seat.name for seat in table.seats if seat.name is not None],
                    "created": table.created,
                }
            )
        return found

    def tables_to_play(self, account: int) -> list[dict[str, Any]]:
        """The tables being played where it is this account's turn (a decision or a roll), newest first.

        Touching a timed table here lets its fallback bot play a decision whose time ran out first
        (as the clock would), so the list never offers a turn that is gone.
        """
        mine = []
        for table in self.store.played_by(account, MINE_MOST):
            if table.game_id is None:
                continue
            seats = [i for i, seat in enumerate(table.seats) if seat.account == account and seat.kind == "human"]
            left = self._left_at(table)
            if left is not None and any(seconds <= 0 for seconds in left[1].values()) and self.time_out(table.id):
                self.changed(table.id)
                left = self._left_at(table)
            if left is None:
                continue
            turn, time_left = left
            to_play = [seat for seat in seats if seat in turn]
            if not to_play:
                continue
            seconds = min((time_left[s] for s in to_play if s in time_left), default=None)
            mine.append(
                {
                    "id": table.id,
                    "join_code": table.code,
                    "game": table.game,
                    "title": table.public()["title"],
                    "seat": to_play[0],
                    "players": [seat.name for seat in table.seats],
                    "turn_seconds": table.turn_seconds,
                    "turn_hours": table.turn_hours,
                    "time_left": seconds,
                }
            )
        return mine

    def _left_at(self, table: StoredTable) -> tuple[set[int], dict[int, float]] | None:
        """The seats to act at a playing table (deciding, or rolling) and each waiting seat's seconds left.

        None when the game is over. A game kept here is caught up first; any other is read, not kept,
        and replayed only when its stored step count differs from the last time it was read here.
        """
        game_id = table.game_id
        assert game_id is not None
        with self.games.lock(game_id):
            if self.games.kept(game_id) is not None:
                match = self.current_match(game_id, verify=True)
                if match.state.is_terminal():
                    return None
                return self._turn(match), self._time_left(table, match) if table.turn_hours is not None else {}
        stored = self.store.step_time(game_id)
        with self._clock_guard:
            known = self._turns.get(game_id)
        if stored is None or known is None or known.steps != stored[0]:
            match = self.games.match(game_id, False)
            over = match.state.is_terminal()
            turn = frozenset() if over else frozenset(self._turn(match))
            known = _Turn(len(match.record.steps), over, turn, tuple(seat for seat, _ in self._waiting(match)))
            with self._clock_guard:
                while len(self._turns) >= TURNS_KEPT:
                    del self._turns[next(iter(self._turns))]  # the oldest first
                self._turns[game_id] = known
        if known.over:
            return None
        left: dict[int, float] = {}
        if table.turn_hours is not None and table.turn_seconds is not None:
            at = stored[1] if stored is not None and stored[0] == known.steps else wall_clock()
            remaining = round(max(0.0, at + table.turn_seconds - wall_clock()), 1)
            left = {seat: remaining for seat in known.waiting}
        return set(known.turn), left

    @staticmethod
    def _turn(match: Match) -> set[int]:
        """The seats to act: those deciding, or the seat to roll in a game of chance alone."""
        state = match.state
        return {state.turn()} if state.is_chance_node() and not match.game.has_decisions else set(state.deciders())

    def sit(self, table_id: int, seat: int, name: str, account: int | None = None) -> dict[str, Any]:
        """Take a free human seat by name (a signed-in player's: its `account`'s); the token is returned to
        this caller only."""
        try:
            check_new_name(name)
        except ValueError as exc:
            raise Refused(str(exc)) from None
        for _attempt in range(5):
            table = self.table(table_id)
            if table.status != "open":
                raise Conflict(_("the game has started: watch it as a spectator"))
            if not 0 <= seat < len(table.seats):
                raise NotFound(_("table {id} has seats 0 to {last}").format(id=table_id, last=len(table.seats) - 1))
            if not table.seats[seat].free:
                raise Conflict(_("this seat is taken: choose another"))
            if table.rated and account is None:
                raise Refused(_("this table is rated: sign in to sit at it"))
            if any(name_key(s.name) == name_key(name) for s in table.seats if s.name is not None):
                message = _(
                    "the name {name} is taken at this table (capitals and character widths do not make two names)"
                )
                raise Conflict(message.format(name=repr(name)))
            token = new_token()
            table.seats[seat] = Seat("human", name, token_hash(token), account)
            if self.store.update(table):
                self.changed(table_id)  # everyone at the table sees the seat taken
                return {"token": token, "seat": seat, "table": table.public()}
        raise Conflict(_("the table is busy: try again"))

    def start(self, table_id: int, host_token: str) -> int:
        """Start the game once every human seat is taken; returns the game's id."""
        table = self.table(table_id)
        if not table.is_host(host_token):
            raise Refused(_("only the host can start the table"))
        if table.status != "open":
            raise Conflict(_("the table has already started"))
        if any(s.free for s in table.seats):
            raise Conflict(_("every human seat must be taken first (or given to a bot)"))
        specs = [PlayerSpec(s.name or f"seat-{i + 1}", s.kind.removeprefix("bot:")) for i, s in enumerate(table.seats)]
        try:
            match = Match.new(table.game, specs, table.seed, dict(table.options))
        except (GameError, ValueError) as exc:
            raise Refused(str(exc)) from None
        match.undo_allowed = False
        match.storage = self.storage
        match.record.extra[TABLE_MARK] = table.id  # part of the game's identity in the history (`game_uid`)
        # Claim the table before storing the game: a second start (a double click, another process)
        # then finds it started, so no second game of the table's secret seed is ever stored.
        table.status = "playing"
        if not self.store.update(table):
            raise Conflict(_("the table changed while starting: try again"))
        try:
            match.store()
        except BaseException:
            table.status = "open"
            self.store.update(table)
            raise
        assert match.game_id is not None
        table.game_id = match.game_id
        if not self.store.update(table):
            raise Conflict(_("the table changed while starting: try again"))
        with self.games.lock(match.game_id):
            self._run_chance(match)
            match.store()
            self.games.remember(match.game_id, match)
            bots = self._bot_due(match) is not None
        self._keep(table)
        if bots:  # they play after the start, each step pushed as it comes
            self.bots_to_play(table_id)
        return match.game_id

    def give_to_bot(self, table_id: int, seat: int, host_token: str, bot: str) -> None:
        """The host hands a seat (free, or idle) to a bot; its token stops working."""
        table = self.table(table_id)
        if not table.is_host(host_token):
            raise Refused(_("only the host can hand a seat to a bot"))
        if not 0 <= seat < len(table.seats):
            raise NotFound(_("table {id} has seats 0 to {last}").format(id=table_id, last=len(table.seats) - 1))
        try:
            make_bot(bot, get_game(table.game, table.options))
        except GameError as exc:
            raise Refused(str(exc)) from None
        if table.status == "open":
            if table.seats[seat].kind == "human" and not table.seats[seat].free:
                raise Conflict(_("this seat is taken: choose another"))  # a player sat there: not the host's to give
            taken = [s.name for i, s in enumerate(table.seats) if i != seat and s.name]
            table.seats[seat] = Seat(f"bot:{bot}", name=bot_seat_name(bot, taken))
            if not self.store.update(table):
                raise Conflict(_("the table changed: try again"))
            return
        game_id = self._check_playing(table)
        if table.seats[seat].kind != "human":
            raise Conflict(_("this seat is played by a bot already"))
        # The table's row changes first: its new version makes every write from a copy that still
        # sees a human there (here or in another process) fail its compare-and-set, and the
        # seat's token stops working at once. The record keeps the human and says which bot plays on.
        table.seats[seat] = Seat(f"bot:{bot}", name=table.seats[seat].name, account=table.seats[seat].account)
        if not self.store.update(table):
            raise Conflict(_("the table changed: try again"))
        self._keep(table)
        for _attempt in range(5):
            with self.games.lock(game_id):
                match = self.current_match(game_id, verify=True)
                if match.state.is_terminal():
                    return  # the game ended meanwhile: nothing is left for the bot to play
                before = len(match.record.steps)
                with self._unsaved(match, game_id):
                    try:
                        match.replace_with_bot(seat, bot)
                    except GameError as exc:
                        raise Refused(str(exc)) from None
                try:
                    self._save(match, game_id, before, table)
                except _Stale:
                    table = self.table(table_id)  # the game or the table moved on: decide again on what is stored
                    self._check_playing(table)
                    continue
                bots = self._bot_due(match) is not None
            if bots:  # the seat's turn, perhaps: its bot plays it
                self.bots_to_play(table_id)
            return
        raise Conflict(_("the table changed: try again"))

    def close(self, table_id: int, host_token: str) -> None:
        table = self.table(table_id)
        if not table.is_host(host_token):
            raise Refused(_("only the host can close the table"))
        if table.status == "finished":
            raise Conflict(_("the game is over: the table is finished"))
        table.status = "closed"
        if not self.store.update(table):
            raise Conflict(_("the table changed: try again"))
        self._keep(table)

    # --- playing ------------------------------------------------------------------------
    def current_match(self, game_id: int, verify: bool = False) -> Match:
        """The live match as kept here (notifications drop it when another process moves it on).

        `verify`: re-read it if the database has more steps (before refusing a seat, in case
        the notification of another process's step has not arrived yet).
        """
        match = self._current(game_id, verify, may_read=True)
        assert match is not None
        return match

    def _current(self, game_id: int, verify: bool, may_read: bool) -> Match | None:
        """`current_match`; without `may_read`, None where that would read the database (nothing kept then)."""
        match = self.games.match(game_id)
        with self._guard:
            behind = self._behind.pop(game_id, None)
            incoming = self._incoming.pop(game_id, None)
        if verify:
            stored = self.storage.steps_of(game_id)
            behind = stored if stored is not None and stored != len(match.record.steps) else None
        if behind is not None and behind != len(match.record.steps):
            caught = self._catch_up(game_id, match, incoming, behind, may_read)
            if caught is None:
                return None
            match = caught
        match.undo_allowed = False
        return match

    def _catch_up(
        self,
        game_id: int,
        match: Match,
        incoming: tuple[int, str, list[Any]] | None = None,
        behind: int = 0,
        may_read: bool = True,
    ) -> Match | None:
        """The match moved on to the stored game's steps: only the new ones are applied (and checked).

        `incoming`: the new steps as another process's notification carried them (no read
        when they continue this copy exactly, to `behind` steps, with the same players).
        Anything unexpected (the stored game is not a continuation of this one) reads it anew;
        without `may_read`, the copy is dropped instead and None returned (read where reading may wait).
        """
        done = len(match.record.steps)
        if (
            incoming is not None
            and incoming[0] == done
            and done + len(incoming[2]) == behind
            and incoming[1] == players_digest(match.record.players)
        ):
            try:
                steps = [_step_of(data, len(match.players)) for data in incoming[2]]
                record = dataclasses.replace(match.record, steps=[*match.record.steps, *steps])
                replay_from(record, match.state, done, match.draws)
                # The result is stated when this process writes the game, or shows its end (not before).
                record.result = result_of(match.state, match.players) if match.state.is_terminal() else None
                match.record = record
                return match
            except (GameError, ValueError, TypeError, KeyError):
                log.warning("game %s: the notified steps do not continue this copy; read anew", game_id)
                self.games.forget(game_id)  # its state may be part way: read the stored game
                return self.games.match(game_id) if may_read else None
        if not may_read:
            self.games.forget(game_id)
            return None
        stored = self.storage.get(game_id)
        # A seat handed to a bot meanwhile changes the players (and the bots): then the game is read anew.
        if (
            stored is not None
            and stored.record.steps[:done] == match.record.steps
            and stored.record.players == match.players
        ):
            try:
                replay_from(stored.record, match.state, done, match.draws)
                match.record = stored.record
                match.players = stored.record.players  # one list, as in a match resumed from its record
                return match
            except GameError:
                log.warning("game %s: the stored steps do not continue this copy; read anew", game_id)
        self.games.forget(game_id)
        return self.games.match(game_id)

    def _over_match(self, game_id: int) -> Match:
        """The game of a table that is over, as stored (read), from the copy played here if there is one.

        The stored game is the judge: the copy is used only if the stored steps continue it with
        the same players (its last steps then applied and checked, as `replay` checks them, the
        stated result too), so its log's words need not all be told again. The caller holds the
        game's lock.
        """
        with self._guard:
            match = self._ended.get(game_id)
        if match is not None:
            stored = self.storage.get(game_id)
            done = len(match.record.steps)
            if (
                stored is not None
                and len(stored.record.steps) >= done
                and stored.record.players == match.players
                and stored.record.steps[:done] == match.record.steps
            ):
                try:
                    replay_from(stored.record, match.state, done, match.draws)
                    if stored.record.result is not None:
                        check_result_of(match.state, stored.record)
                    match.record = stored.record
                    match.players = stored.record.players
                    return match
                except Exception:  # whatever failed, its state may be part way: dropped, read anew below
                    log.warning(
                        "game %s: the stored steps do not continue the copy played here", game_id, exc_info=True
                    )
            with self._guard:
                if self._ended.get(game_id) is match:
                    del self._ended[game_id]
        return self.games.match(game_id, keep=False)

    def act(self, table_id: int, seat: int | None, message: dict[str, Any]) -> str:
        """Apply one seat's decision (or roll) through the engine; Refused/Conflict say why not.

        Returns the change's stamp for the other processes: `VERSION STEPS`, and when short
        enough the steps it stored (`BEFORE DIGEST [steps]`), so that they need not read them.

        It is first tried on what this process keeps (the table's row, the match); if that
        turns out out of date (the compare-and-set write fails, or the seat looks out of
        turn), once more on what the database holds.
        """
        if seat is None:
            self._check_playing(self.kept_table(table_id))
            raise Refused(_("spectators cannot act"))
        action, pins, pile = _message_parts(message)
        try:
            return self._act(self.kept_table(table_id), seat, action, pins, pile, fresh=False)
        except _Stale:
            try:
                return self._act(self.table(table_id), seat, action, pins, pile, fresh=True)
            except _Stale:
                raise Conflict(_("the game moved on meanwhile: look at the new state and decide again")) from None

    def begin_act(
        self,
        table_id: int,
        seat: int | None,
        message: dict[str, Any],
        notification: Callable[[int, str], tuple[str, str] | None] | None = None,
    ) -> PendingStep | None:
        """`act` in memory, on what this process keeps, never waiting: for the event loop.

        The step is applied to the kept match with the game's lock held and its write
        prepared; `Hub`'s `StepWriter` writes it and lets the lock go. None when that
        cannot be done at once, and the whole `act` runs in a thread instead: nothing kept,
        the game busy, or what is kept proved out of date. No bot moves here (the bots play
        afterwards, `play_bot`), so a table with bots acts here too. A message that is not an
        action is Refused here already. `notification` gives the NOTIFY (channel, payload) of a
        change's stamp, for the write to send with it.
        """
        if seat is None:
            return None
        action, pins, pile = _message_parts(message)
        table = self._kept_in_memory(table_id)
        if table is None or table.game_id is None:
            return None
        game_id = table.game_id
        lock = self.games.lock(game_id)
        if not lock.acquire(blocking=False):
            return None
        pending = None
        try:
            match = self._current(game_id, verify=False, may_read=False)
            if match is None:
                return None
            before = len(match.record.steps)
            self._apply_decision(match, game_id, seat, action, pins, pile, fresh=False)
            stamp = self.change_stamp(table, match, before)
            notify = notification(table_id, stamp) if notification is not None else None
            write = self._prepare_save(match, game_id, before, table, notify)
            bots = self._bot_due(match) is not None
            pending = PendingStep(table, game_id, write, lock, stamp, write.notify is not None, bots)
            return pending
        except _Stale:
            return None
        except BaseException:
            self.games.forget(game_id)  # the step applied (if it was) is not stored
            raise
        finally:
            if pending is None:
                lock.release()  # else held until the step is written

    def _kept_in_memory(self, table_id: int) -> StoredTable | None:
        """The playing table's row and its game as this process keeps them, if using them needs no read.

        None when nothing is kept, or another process's steps must be read first (not carried by
        its notification): then the caller does its work in a thread, where reading may wait.
        """
        with self._guard:
            table = self._playing.get(table_id)
            if table is None or table.game_id is None:
                return None
            if table.game_id in self._behind and table.game_id not in self._incoming:
                return None
        return table if self.games.kept(table.game_id) is not None else None

    @staticmethod
    def _check_playing(table: StoredTable) -> int:
        if table.status != "playing" or table.game_id is None:
            if table.status == "open":
                raise Conflict(_("the game has not started"))
            raise Conflict(_("the game is over") if table.status == "finished" else _("the table is closed"))
        return table.game_id

    def _act(
        self, table: StoredTable, seat: int, action: str | None, pins: list[int] | None, pile: int | None, fresh: bool
    ) -> str:
        """One try of `act` (its stamp); _Stale when what it was given proved out of date."""
        game_id = self._check_playing(table)
        with self.games.lock(game_id):
            match = self.current_match(game_id, verify=fresh)
            before = len(match.record.steps)
            self._apply_decision(match, game_id, seat, action, pins, pile, fresh)
            self._save(match, game_id, before, table)
            stamp = self.change_stamp(table, match, before)
            bots = self._bot_due(match) is not None
        if bots:
            self.bots_to_play(table.id)
        return stamp

    def _apply_decision(
        self,
        match: Match,
        game_id: int,
        seat: int,
        action: str | None,
        pins: list[int] | None,
        pile: int | None,
        fresh: bool,
    ) -> None:
        """Apply the seat's roll or decision and the chance steps after it (not stored yet).

        Refused (Conflict) when the seat may not act or the engine refuses it, on `fresh` (stored)
        data; _Stale instead on kept data (perhaps out of date).
        """
        state = match.state
        if state.is_terminal():
            raise Conflict(_("the game is over")) if fresh else _Stale()
        if not match.players[seat].is_human:  # said first: that seat's turns are all the bot's now
            raise Refused(_("your seat is played by a bot now")) if fresh else _Stale()
        if state.turn() != seat if state.is_chance_node() else seat not in state.deciders():
            raise Refused(_("it is not your turn")) if fresh else _Stale()
        picked = pins if action is None else None
        with self._unsaved(match, game_id):
            try:
                if state.is_chance_node():
                    if action != "roll":
                        raise Refused(_('roll the dice first: send {"action": "roll"}')) if fresh else _Stale()
                    match.apply(match.draw_chance())
                else:
                    if action is None:
                        if not pins:
                            raise Refused(_("give an action, or the pins you pick")) if fresh else _Stale()
                        mine = state if seat == state.turn() else state.as_decider(seat)
                        action = match.game.selection_action(mine, frozenset(pins), pile)
                    match.apply_for(seat, match.game.parse_action(action))
                self._run_chance(match)
            except GameError as exc:
                if not fresh:
                    raise _Stale() from None  # refused here; judged again on the stored game
                raise Refused(refusal_line(action, exc, picked)) from None

    def change_stamp(self, table: StoredTable, match: Match, before: int) -> str:
        """The stamp of a stored change (see `act`)."""
        stamp = _version_steps(table, match)
        carried = _encode([step.to_json() for step in match.record.steps[before:]])
        if len(carried.encode()) <= MAX_CARRIED:
            stamp += f" {before} {players_digest(match.record.players)} {carried}"
        return stamp

    @contextlib.contextmanager
    def _unsaved(self, match: Match, game_id: int) -> Iterator[None]:
        """Steps applied inside are written by the caller, with a compare-and-set; a failure drops the copy."""
        storage, match.storage = match.storage, None
        try:
            yield
        except BaseException:
            self.games.forget(game_id)
            raise
        finally:
            match.storage = storage

    def _save(self, match: Match, game_id: int, before: int, table: StoredTable | None = None) -> None:
        """Store the game if nobody else moved it on since it had `before` steps (compare-and-set).

        With `table` (a row kept in memory), also only if the table's row is unchanged; _Stale if not.
        """
        prepared = self._prepare_save(match, game_id, before, table)
        if not self.storage.run_append(prepared):
            self.drop_stale(game_id, table)
            if table is not None:
                raise _Stale()
            raise Conflict(_("the game moved on meanwhile: look at the new state and decide again"))
        self.written(prepared, table)

    def written(self, prepared: PreparedAppend, table: StoredTable | None) -> None:
        """A step was stored: one that ended the game finished its table too (`_prepare_save`): release it."""
        if prepared.ending is not None and table is not None:
            self._release(table.id)

    def _prepare_save(
        self,
        match: Match,
        game_id: int,
        before: int,
        table: StoredTable | None,
        notify: tuple[str, str] | None = None,
    ) -> PreparedAppend:
        match.record.result = result_of(match.state, match.players)
        also = None if table is None else self.store.unchanged(table)
        # The step that ends the game marks its table finished, in the same transaction.
        ending = (
            self.store.finishing(table, match.record.result)
            if table is not None and match.state.is_terminal()
            else None
        )
        return self.storage.prepare_append(match.record, game_id, before, also, notify, ending)

    def drop_stale(self, game_id: int, table: StoredTable | None) -> None:
        """A write lost its compare-and-set: what this process keeps of the game (and the table) is stale."""
        self.games.forget(game_id)
        if table is not None:
            with self._guard:
                self._playing.pop(table.id, None)

    @staticmethod
    def _run_chance(match: Match) -> None:
        """The chance steps after a step, played with it (not stored yet).

        In a game without decisions every roll is a seat's own: a human's message, or its bot's step (`play_bot`).
        """
        if not match.game.has_decisions:
            return
        while not match.state.is_terminal() and match.state.is_chance_node():
            match.apply(match.draw_chance())

    @staticmethod
    def _bot_due(match: Match) -> int | None:
        """The seat whose bot plays next (a decision, or its roll in a game without decisions), or None."""
        state = match.state
        if state.is_terminal():
            return None
        if state.is_chance_node():
            turn = state.turn()
            return None if match.game.has_decisions or match.players[turn].is_human else turn
        # With simultaneous decisions the bots answer their parts one after the other, the humans meanwhile.
        return next((p for p in state.deciders() if not match.players[p].is_human), None)

    def play_bots(self, table_id: int) -> None:
        """Play every bot step due at the table, one after the other, in this thread (`bots_to_play` alone)."""
        while self.play_bot(table_id) is not None:
            pass

    def play_bot(self, table_id: int) -> str | None:
        """One bot's step at the table and the chance steps after it, stored like a seat's action: its stamp.

        None when no bot is due (a human acts, the game is over, the table is not played) or another
        process stored a step first (that process plays the bots on, `bots_to_play`). The bot thinks
        on a copy of the position without the game's lock, so the seats act meanwhile (a shared
        roll's humans); a step stored meanwhile makes it think again on the new position.
        """
        for _attempt in range(BOT_TRIES):
            table = self.kept_table(table_id)
            if table.status != "playing" or table.game_id is None:
                return None
            game_id = table.game_id
            with self.games.lock(game_id):
                match = self.current_match(game_id)
                seat = self._bot_due(match)
                if seat is None or match.state.is_chance_node():  # nothing to think over: a bot's roll, or none
                    return self._play_on(match, game_id, table, seat, None)
                thought_on, before = match, len(match.record.steps)
                thinking = match.bot_thinking(seat)
            decision = thinking()  # perhaps long (an exact solve on first need)
            with self.games.lock(game_id):
                match = self.current_match(game_id)
                if match is thought_on and len(match.record.steps) == before:
                    return self._play_on(match, game_id, table, seat, decision)
        log.warning("table %s: the game kept moving while its bot thought; its bots stop here", table_id)
        return None

    def _play_on(
        self, match: Match, game_id: int, table: StoredTable, seat: int | None, decision: Step | None
    ) -> str | None:
        """Store a bot's decision (or its roll, without one) with the chance after it, holding the game's lock.

        Its stamp; None when there was nothing to play, or another process stored a step first
        or the table changed (a close, a seat handed over: whoever did it lets the bots play on).
        With no seat, only the chance steps left unplayed are played (a server stopped between a
        start and its first roll).
        """
        before = len(match.record.steps)
        with self._unsaved(match, game_id):
            if decision is not None and seat is not None:
                match.apply_for(seat, decision)
            elif seat is not None:
                match.apply(match.draw_chance())
            self._run_chance(match)
        if len(match.record.steps) == before:
            return None
        try:
            self._save(match, game_id, before, table)
        except _Stale:
            return None
        return self.change_stamp(table, match, before)

    # --- the turn timer -------------------------------------------------------------------
    @staticmethod
    def _waiting(match: Match) -> list[tuple[int, int]]:
        """Each human seat with a decision pending, and which of its decisions it is (its steps so far)."""
        state = match.state
        if state.is_terminal() or state.is_chance_node():
            return []
        made = [0] * len(match.players)
        for step in match.record.steps:
            if step.actor is not None:
                made[step.actor] += 1
        return [(seat, made[seat]) for seat in state.deciders() if match.players[seat].is_human]

    def _time_left(self, table: StoredTable, match: Match, may_read: bool = True) -> dict[int, float]:
        """Seconds left to each waiting human seat (only with a turn timer).

        A decision's clock starts when this process first sees it pending; a
        restarted server (or another process) starts the clocks it finds anew.
        An asynchronous table's (`turn_hours`) is stored instead: see `_hours_left`.
        """
        seconds = table.turn_seconds
        if seconds is None:
            return {}
        if table.turn_hours is not None:
            return self._hours_left(table, match, seconds, may_read)
        now = time.monotonic()
        left = {}
        with self._clock_guard:
            clocks = self.deadlines.setdefault(table.id, {})
            waiting = dict(self._waiting(match))
            for seat in list(clocks):
                if waiting.get(seat) != clocks[seat][0]:
                    del clocks[seat]  # answered (or no longer this seat's to answer)
            for seat, made in waiting.items():
                _decision, deadline = clocks.setdefault(seat, (made, now + seconds))
                left[seat] = round(max(0.0, deadline - now), 1)
        return left

    def _hours_left(self, table: StoredTable, match: Match, seconds: int, may_read: bool) -> dict[int, float]:
        """An asynchronous table's seconds left to each waiting seat: from the stored time of the game's last step.

        The deadline is the time the last step was stored (the games row's `updated`, to the second)
        plus the table's hours, so it survives a restart and every player leaving, and every
        process finds the same one. Kept per game and step count; a step this process applies
        (its own, or one notified on the event loop) was stored just now.
        """
        game_id, steps = table.game_id or 0, len(match.record.steps)
        with self._clock_guard:
            known = self._step_at.get(game_id)
        if known is None or known[0] != steps:
            stored = self.store.step_time(game_id) if may_read else None
            at = stored[1] if stored is not None and stored[0] == steps else wall_clock()
            known = (steps, at)
            with self._clock_guard:
                self._step_at[game_id] = known
        left = max(0.0, known[1] + seconds - wall_clock())
        return {seat: round(left, 1) for seat, _made in self._waiting(match)}

    def time_out(self, table_id: int) -> bool:
        """Play the fallback bot for every waiting seat whose time ran out; True if the game moved."""
        table = self.table(table_id)
        if table.status != "playing" or table.game_id is None or table.turn_seconds is None:
            return False
        game_id = table.game_id
        fallback = str(table.settings.get("fallback_bot") or "random")
        with self.games.lock(game_id):
            match = self.current_match(game_id)
            over = match.state.is_terminal()
            left = {} if over else self._time_left(table, match)
            late = [seat for seat, seconds in left.items() if seconds <= 0]
            if not late:
                if over:
                    self._release(table_id, game_id)  # see next_deadline
                return False
            before = len(match.record.steps)
            with self._unsaved(match, game_id):
                bot = make_bot(fallback, match.game)
                for seat in late:
                    if seat in match.state.deciders():  # a bot's answer for one never ends another's decision
                        match.apply_for(seat, match.bot_action_for(seat, bot), by=fallback)
                        log.info("table %s: seat %s ran out of time; %s played for it", table_id, seat, fallback)
                self._run_chance(match)
            try:
                self._save(match, game_id, before, table)  # not on a table closed or changed meanwhile
            except (Conflict, _Stale):
                return False  # another process moved the game on first, or the table changed: decide again later
            bots = self._bot_due(match) is not None
        if bots:
            self.bots_to_play(table_id)
        return True

    def next_deadline(self, table_id: int) -> float | None:
        """Seconds until the next waiting seat's time runs out; None when the table has no clock running."""
        table = self.kept_table(table_id)
        if table.status != "playing" or table.game_id is None or table.turn_seconds is None:
            return None
        with self.games.lock(table.game_id):
            match = self.current_match(table.game_id)
            over = match.state.is_terminal()
            if not over:
                left = self._time_left(table, match)
        if over:  # its last step is stored (it was written holding the game's lock), the table finished with it
            self._release(table_id, table.game_id)  # the copy read meanwhile too
            return None
        return min(left.values(), default=float(table.turn_seconds))

    def is_timed(self, table_id: int) -> bool:
        """Whether the table has a turn timer (fixed when it is made, so remembered while the table is played)."""
        timed = self._timed.get(table_id)
        if timed is None:
            found = self.store.get(table_id)
            timed = found is not None and found.turn_seconds is not None
            if found is not None and found.status in LIVE:
                self._timed[table_id] = timed
        return timed

    def state_for(self, table_id: int, seat: int | None) -> dict[str, Any]:
        """The message a connection receives: the table, and the game view with this seat's choices only."""
        return self.states_for(table_id, [seat])[0]

    def states_for(self, table_id: int, seats: list[int | None]) -> list[dict[str, Any]]:
        """One message per connection's seat, from one read of the table and one view of the game."""
        found = self._states_for(table_id, seats, wait=True)
        assert found is not None
        return found

    def kept_states_for(self, table_id: int, seats: list[int | None]) -> list[dict[str, Any]] | None:
        """`states_for` from what this process keeps, or None if that needs the database or a wait.

        Lets the event loop push a step at once, without handing the work to a thread.
        """
        return self._states_for(table_id, seats, wait=False)

    def _states_for(self, table_id: int, seats: list[int | None], wait: bool) -> list[dict[str, Any]] | None:
        if wait:
            table = self.kept_table(table_id)
        else:
            kept = self._kept_in_memory(table_id)
            if kept is None:
                return None
            table = kept
        public = table.public() if wait else self._public_of(table)
        if table.game_id is None:
            with self._guard:
                self._shown[table_id] = (table.version, None)
            return [{"type": "state", "seat": seat, "table": public, "view": None} for seat in seats]
        own: dict[int, dict[str, Any]] = {}
        lock = self.games.lock(table.game_id)
        if not lock.acquire(blocking=wait):
            return None
        try:
            if not wait and self.games.kept(table.game_id) is None:
                return None  # dropped meanwhile (a write that lost its compare-and-set): read in a thread
            if table.status in LIVE:
                found = self._current(table.game_id, verify=False, may_read=wait)
            else:  # finished or closed: shown as stored, and not kept (it never changes again)
                found = self._over_match(table.game_id)
            if found is None:
                return None  # the notified steps did not fit what is kept: read in a thread
            match = found
            state = match.state
            hide = not state.is_terminal()  # the seed tells every roll to come: secret until the end
            view = game_view_data(match, self.games.next_of(match), hide_seed=hide)
            deciders = state.deciders()
            deciding = state.turn() if not state.is_terminal() else None
            left = self._time_left(table, match, may_read=wait) if table.status == "playing" else {}
            names = [p.name for p in match.players]
            last_chance = next((s.text for s in reversed(match.record.steps) if s.actor is None), "")
            together = match.game.simultaneous and view["next"] == "decision"
            for seat in set(seats):
                if seat is None or seat == deciding or not together:
                    continue
                if seat in deciders and match.players[seat].is_human:
                    # Every other seat deciding this roll sees its own sheet and choices (a forced turn of the engine).
                    mine = state.as_decider(seat)
                    own[seat] = {
                        **view,
                        "legal_actions": [str(a) for a in mine.legal_actions()],
                        "view": match.game.table(mine, names, last_chance).model_dump(mode="json"),
                    }
                elif seat not in deciders:  # a seat that has answered watches its own sheet while the others decide
                    drawn = match.game.table(state.seen_by(seat), names, last_chance)
                    others = ", ".join(names[p] for p in deciders)
                    status = _("{name}: waiting for {others}").format(name=names[seat], others=others)
                    own[seat] = {
                        **view,
                        "legal_actions": [],
                        "view": {
                            **drawn.model_dump(mode="json"),
                            "choices": [],
                            "selection": None,
                            "status": status,
                        },
                    }
            shown = (table.version, len(match.record.steps))
        finally:
            lock.release()
        with self._guard:
            self._shown[table_id] = shown
        view["undo"] = _("undo is off at a table")
        view["time_left"] = {str(seat): seconds for seat, seconds in left.items()}
        for seat_view in own.values():
            seat_view["undo"], seat_view["time_left"] = view["undo"], view["time_left"]
        # The same view without the choices, for every seat but the one to decide (shared, not copied: read-only).
        drawn_view = view["view"]
        if view["legal_actions"] or drawn_view.get("choices") or drawn_view.get("selection") is not None:
            hidden = {**view, "legal_actions": [], "view": {**drawn_view, "choices": [], "selection": None}}
        else:
            hidden = view  # nothing to hide (a roll, the end): one view for all, encoded once

        def for_seat(seat: int | None) -> dict[str, Any]:
            if seat is None:
                return hidden
            if seat in own:
                return own[seat]
            return view if seat == deciding else hidden

        return [{"type": "state", "seat": seat, "table": public, "view": for_seat(seat)} for seat in seats]


# --- live fan-out --------------------------------------------------------------------------

Origin = tuple[str, str, int]  # a web origin as compared: scheme, host (lower case), port
DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(text: str, scheme: str | None = None) -> Origin | None:
    """A web origin (`https://host`, `http://host:port`) as compared, or None if `text` is not one.

    With `scheme`, `text` is a Host header (`host:port`) of a page served over that scheme.
    """
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(text if scheme is None else f"{scheme}://{text}")
        port = parts.port
    except ValueError:  # a port that is no number, or out of range
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.username is not None:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        return None
    return parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme]


def allowed_origin(origin: str, scope: Any, allowed: frozenset[Origin]) -> bool:
    """Whether a WebSocket from a page of `origin` may connect: the server's own origin (scheme, host and port
    of this request: `ws` is a page's `http`, `wss` its `https`) or one of `allowed`."""
    found = origin_of(origin)
    if found is None:
        return False  # "null" (a sandboxed page, a file), or not an origin at all
    if found in allowed:
        return True
    host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
    page_scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    return origin_of(host, page_scheme) == found


class Hub:
    """This process's WebSocket connections, by table; told of changes by a broker."""

    def __init__(self, tables: TableService) -> None:
        self.tables = tables
        self.connections: dict[int, set[tuple[WebSocket, int | None]]] = defaultdict(set)
        self.broker: Broker = LocalBroker(self.push)
        self.clocks: dict[int, asyncio.Task[None]] = {}  # tables with a turn timer: one task each
        self.wakes: dict[int, asyncio.Event] = {}
        tables.changed = self._changed
        self._push_locks: dict[int, asyncio.Lock] = {}
        self._waiting: set[int] = set()  # tables with a push that has not started rendering yet
        self._languages: dict[WebSocket, str] = {}  # each connection's language
        self._acting: anyio.CapacityLimiter | None = None  # made on the event loop, when first needed
        self.writer = StepWriter(tables)
        self._watching: asyncio.Task[None] | None = None
        # The bots in the background: one task per table whose bots play here, and the tables
        # told since their task last looked (it looks again before it ends).
        self._loop: asyncio.AbstractEventLoop | None = None
        self._bots: dict[int, asyncio.Task[None]] = {}
        self._bots_again: set[int] = set()
        self._thinking: anyio.CapacityLimiter | None = None
        tables.bots_to_play = self._bots_to_play
        # The account a connection's session cookie signs in (set by the app; alone: nobody's).
        self.account_of: Callable[[WebSocket], int | None] = lambda _socket: None

    async def start(self) -> None:
        """Start the broker, the clocks of the timed tables being played and their bots (after a restart too).

        A bot due when the server stopped (or when another process stopped while it played) plays on:
        tables with a bot seat look once whether one is due.
        """
        self._loop = asyncio.get_running_loop()
        await self.broker.start()
        for table_id in await anyio.to_thread.run_sync(self.tables.store.timed_and_playing):
            self._wake(table_id, timed=True)
        for table_id in await anyio.to_thread.run_sync(self.tables.store.bots_and_playing):
            self.play_bots(table_id)
        if self.broker.lossy:
            self._watching = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        """Every few seconds, push anew the tables served here whose stored state was not shown here.

        Notifications from other processes are fire-and-forget: one lost (a send that failed,
        a push that failed while the database was away) must not stall a table for good, nor
        a forged one (from somebody with access to the database) keep a wrong copy here. A
        change counts as missed when two looks in a row find the same one not shown: a step
        being pushed at the moment of a look is not pushed twice.
        """
        suspects: dict[int, tuple[int, int | None]] = {}
        still: dict[int, tuple[tuple[int, int | None], int]] = {}  # table -> (stored stamp, looks it has not moved)
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            try:
                table_ids = list(self.connections)
                stored = await anyio.to_thread.run_sync(self.tables.store.stamps, table_ids) if table_ids else {}
                found = self.tables.not_shown(stored)
                missed = {table_id: stamp for table_id, stamp in found.items() if suspects.get(table_id) == stamp}
                suspects = found
            except Exception:
                log.exception("tables: looking for changes not shown here failed")
                continue
            for table_id in missed:
                log.warning("table %s: what was shown here is not what is stored; pushed anew", table_id)
            await self._push_anew(list(missed))  # what is kept here may be behind, or (forged) ahead
            still = {
                table_id: (stamp, still[table_id][1] + 1 if table_id in still and still[table_id][0] == stamp else 0)
                for table_id, stamp in stored.items()
            }
            for table_id, (_stamp, looks) in still.items():
                # The process playing the table's bots may have died mid-step (its players, reconnecting,
                # would start them here; players connected here do not): a bot table still for a while
                # looks here whether a bot is due. A process that is only slow loses one compare-and-set.
                if looks >= STILL_LOOKS and table_id not in self._bots and self.tables.kept_with_bots(table_id):
                    self.play_bots(table_id)

    async def stop(self) -> None:
        if self._watching is not None:
            self._watching.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._watching
        bots = list(self._bots.values())
        for task in bots:
            task.cancel()
        if bots:  # a bot thinking in its thread ends its step first: waited for a while, not for ever
            await asyncio.wait(bots, timeout=BOT_STOP_SECONDS)
        for task in list(self.clocks.values()):
            task.cancel()
        for task in list(self.clocks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.broker.stop()
        self.writer.stop()

    def _wake(self, table_id: int, timed: bool) -> None:
        """Tell the table's clock that something changed (starting it if the table is timed)."""
        if table_id in self.clocks:
            self.wakes[table_id].set()
        elif timed:
            self.wakes[table_id] = asyncio.Event()
            self.clocks[table_id] = asyncio.create_task(self._clock(table_id))

    async def _clock(self, table_id: int) -> None:
        """Sleep until the next waiting seat's deadline (or a change), then let the fallback bot decide."""
        wake = self.wakes[table_id]
        try:
            while True:
                wake.clear()
                left = await anyio.to_thread.run_sync(self.tables.next_deadline, table_id)
                if left is None:
                    return
                if left <= 0:
                    if await anyio.to_thread.run_sync(self.tables.time_out, table_id):
                        await self.broker.publish(table_id, self.tables.stamp(table_id))
                        continue
                    left = 0.2  # another process played it first: look again shortly
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), left + 0.05)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the turn timer stopped", table_id)
        finally:
            self.clocks.pop(table_id, None)
            self.wakes.pop(table_id, None)

    def _bots_to_play(self, table_id: int) -> None:
        """`TableService.bots_to_play`, from any thread: the table's bots play in the background."""
        loop = self._loop
        if loop is None:
            log.warning("table %s: a bot is due but the hub is not started", table_id)
            return
        with contextlib.suppress(RuntimeError):  # the loop is closed: the next start plays them
            loop.call_soon_threadsafe(self.play_bots, table_id)

    def play_bots(self, table_id: int) -> None:
        """Let the table's bots play on, in a task of their own (on the event loop)."""
        self._bots_again.add(table_id)
        if table_id not in self._bots:
            self._bots[table_id] = asyncio.create_task(self._play_bots(table_id))

    async def _play_bots(self, table_id: int) -> None:
        """Each bot step due at the table, stored and published as a seat's action is, until a human is to act.

        The bots think in threads of their own (at most BOT_THREADS at once), so that a slow one holds
        up no seat's action nor another table. A failure (the database away) is tried again after a
        growing pause, then left to the next start or connection (`serve`).
        """
        if self._thinking is None:
            self._thinking = anyio.CapacityLimiter(BOT_THREADS)
        pause = RETRY_FIRST
        try:
            while table_id in self._bots_again:  # told again while the last step was played: look again
                self._bots_again.discard(table_id)
                try:
                    stamp = await anyio.to_thread.run_sync(self.tables.play_bot, table_id, limiter=self._thinking)
                    if stamp is None:
                        continue
                    self._bots_again.add(table_id)  # and the next bot, if one is due
                    await self.broker.publish(table_id, stamp)
                    pause = RETRY_FIRST
                except Exception:
                    log.exception("table %s: a bot's step failed", table_id)
                    if pause > RETRY_LAST:
                        log.error("table %s: its bots stop until the next connection or start", table_id)
                        return
                    await asyncio.sleep(pause)
                    pause *= 2
                    self._bots_again.add(table_id)
        finally:
            self._bots.pop(table_id, None)
            self._bots_again.discard(table_id)

    def _changed(self, table_id: int) -> None:
        """Publish a change made in a worker thread (a request handled off the event loop)."""
        try:
            anyio.from_thread.run(self.broker.publish, table_id)
        except RuntimeError:  # not called from a worker thread: nobody to tell from here
            log.debug("table %s changed outside a worker thread", table_id)

    async def resync(self) -> None:
        """Push every table with a connection here from the database (its notifications may have been lost)."""
        await self._push_anew(list(self.connections))

    async def _push_anew(self, table_ids: list[int]) -> None:
        """Push each table as read anew from the database; one that fails does not hold up the others."""
        for table_id in table_ids:
            try:
                await self.push(table_id)  # no stamp: everything kept about the table is dropped first
            except Exception:
                log.exception("table %s: could not be pushed anew", table_id)

    async def push(self, table_id: int, stamp: str = "") -> None:
        """Send every connection at the table its own state, and let the table's clock look again.

        `stamp` (`VERSION STEPS`, from the change's notification) tells what this process
        keeps that is now out of date.
        """
        self.tables.note_change(table_id, stamp)
        await self._send_states(table_id)
        timed = self.tables._timed.get(table_id)
        if timed is None:
            timed = await anyio.to_thread.run_sync(self.tables.is_timed, table_id)
        self._wake(table_id, timed)  # the table's clock looks again (every process keeps its own)

    async def _send_states(self, table_id: int) -> None:
        """Every connection's state, in order, the game viewed and encoded once for all.

        Pushes of one table run one at a time; a push that finds another one still waiting
        to start is left out, as that one shows the newer state.
        """
        if table_id in self._waiting or not self.connections.get(table_id):
            return  # another push will show it, or nobody here sees this table
        self._waiting.add(table_id)
        try:
            lock = self._push_locks.setdefault(table_id, asyncio.Lock())
            async with lock:
                self._waiting.discard(table_id)
                connections = list(self.connections.get(table_id, ()))
                if not connections:
                    return
                by_language: dict[str, list[int]] = {}
                for index, (socket, _seat) in enumerate(connections):
                    by_language.setdefault(self._language_of(socket), []).append(index)
                texts = [""] * len(connections)
                for language, indexes in by_language.items():
                    seats = [connections[i][1] for i in indexes]
                    with using_language(language):  # a worker thread runs in a copy of this context
                        found = await self._render_states(table_id, seats)
                    for i, text in zip(indexes, found, strict=True):
                        texts[i] = text
                for (socket, _seat), text in zip(connections, texts, strict=True):
                    try:
                        await socket.send_text(text)
                    except Exception:  # a closed connection: it is dropped when its handler ends
                        log.debug("push to a closed connection of table %s", table_id)
        finally:
            self._waiting.discard(table_id)
            self._tidy(table_id)  # the last connection may have left during the push

    async def _render_states(self, table_id: int, seats: list[int | None]) -> list[str]:
        """The seats' messages as JSON text: on the event loop from what is kept here, else in a thread."""
        try:
            kept = self.tables.kept_states_for(table_id, seats)  # in memory: viewed here at once
            if kept is not None:
                return encode_messages(kept)
            return await anyio.to_thread.run_sync(self._render, table_id, seats)
        except Exception:  # e.g. the database did not answer: once more from scratch, or nobody sees the step
            log.exception("table %s: the push failed; trying again from the database", table_id)
            self.tables.note_change(table_id, "")
            return await anyio.to_thread.run_sync(self._render, table_id, seats)

    def _language_of(self, socket: WebSocket) -> str:
        """The language a connection asked for (read once, when it connected)."""
        language = self._languages.get(socket)
        if language is None:
            from pinsetter.web.app import request_language

            language = self._languages[socket] = request_language(socket.scope)
        return language

    def _render(self, table_id: int, seats: list[int | None]) -> list[str]:
        return encode_messages(self.tables.states_for(table_id, seats))

    async def serve(self, socket: WebSocket, table_id: int, token: str | None, origins: frozenset[Origin]) -> None:
        """One connection: its state after every step, its seat's actions.

        A page from another origin is refused at the handshake (HTTP 403: no socket is ever
        opened for it). A missing table or an unknown token is accepted and closed at once with
        code 1008 and the reason, so that the page can tell (a seat's token no longer valid: watch).
        """
        origin = socket.headers.get("origin")
        if origin is not None and not allowed_origin(origin, socket.scope, origins):
            await socket.close(code=1008, reason="origin not allowed")
            log.warning("table %s: refused a connection from origin %r", table_id, origin)
            return
        try:
            table = await anyio.to_thread.run_sync(self.tables.table, table_id)
        except NotFound:
            await socket.accept()
            await socket.close(code=1008, reason="no such table")
            return
        seat = table.seat_of(token)
        if token and seat is None and not table.is_host(token):
            await socket.accept()
            await socket.close(code=1008, reason="unknown token")
            log.warning("table %s: refused an unknown token", table_id)
            return
        if not token and any(s.account is not None for s in table.seats):
            # A signed-in player's session holds the seats its account took, in any browser (the origin is checked).
            seat = table.seat_of_account(await anyio.to_thread.run_sync(self.account_of, socket))
        await socket.accept()
        key = (socket, seat)
        self.connections[table_id].add(key)
        bucket = TokenBucket(RATE, BURST)
        if table.status == "playing" and table.has_bots:
            self.play_bots(table_id)  # a bot left due (a process stopped while it played) plays on: no stall
        if table.status == "playing" and table.turn_seconds is not None:
            self._wake(table_id, timed=True)  # a timed table touched: its clock runs here (a deadline passed plays)
        try:
            await socket.send_json(await anyio.to_thread.run_sync(self.tables.state_for, table_id, seat))
            while True:
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
                raw = message.get("text")
                if not bucket.take():  # every message counts, an oversized one too
                    await socket.send_json({"type": "error", "error": _("too many messages: slow down")})
                    continue
                if raw is None:  # a binary frame
                    await socket.send_json(
                        {"type": "error", "error": _("a message is a text frame of JSON, not binary")}
                    )
                    continue
                if len(raw.encode()) > MAX_MESSAGE:
                    error = _("a message is at most {most} bytes").format(most=MAX_MESSAGE)
                    await socket.send_json({"type": "error", "error": error})
                    continue
                await self._handle(socket, table_id, seat, raw)
        except WebSocketDisconnect:
            pass
        except RuntimeError:  # a push found the connection closed (starlette's WebSocketDisconnected)
            if socket.application_state == WebSocketState.CONNECTED:
                raise
        finally:
            self._languages.pop(socket, None)
            self._leave(table_id, key)

    def _leave(self, table_id: int, key: tuple[WebSocket, int | None]) -> None:
        """A connection is gone; the table's last one takes the table's entries with it."""
        connections = self.connections.get(table_id)
        if connections is not None:
            connections.discard(key)
        self._tidy(table_id)

    def _tidy(self, table_id: int) -> None:
        """Drop a table's entries once nobody here is connected to it and no push is on (the last push does it)."""
        lock = self._push_locks.get(table_id)
        if self.connections.get(table_id) or table_id in self._waiting or (lock is not None and lock.locked()):
            return
        self.connections.pop(table_id, None)
        self._push_locks.pop(table_id, None)
        self.tables.unshown(table_id)

    async def _handle(self, socket: WebSocket, table_id: int, seat: int | None, raw: str) -> None:
        try:
            message = orjson.loads(raw)  # JSONDecodeError is a ValueError (nesting past 1,024 too)
            if not isinstance(message, dict):
                raise ValueError
        except ValueError:
            error = _('a message is a JSON object: {"action": "one of legal_actions"} or {"pins": [1, 5]}')
            await socket.send_json({"type": "error", "error": error})
            return
        try:
            stamp, notified = await self._act_on(table_id, seat, message)
        except (Refused, Conflict, NotFound) as exc:
            # reprlib: a message may nest a thousand lists deep (a full repr would overflow) or be 64 KiB long.
            log.info("table %s seat %s: refused %s: %s", table_id, seat, reprlib.repr(message), exc)
            await socket.send_json({"type": "error", "error": " ".join(str(exc).split())})
            return
        await self.broker.publish(table_id, stamp, notified)

    async def _act_on(self, table_id: int, seat: int | None, message: dict[str, Any]) -> tuple[str, bool]:
        """Act: what the table now is (the stamp, for the other processes), and whether they were told.

        On what this process keeps, the step is applied here on the event loop and only its
        write runs in a thread (`StepWriter`, with the other steps waiting to be written): handing
        each action to a thread cost more than the action itself, as the threads and the loop
        queued for the interpreter's lock (docs/tables.md, Load). Anything else (a read, a wait,
        a bot's move, a retry) runs in a worker thread.
        """
        if self._acting is None:
            self._acting = anyio.CapacityLimiter(ACT_THREADS)
        pending = self.tables.begin_act(table_id, seat, message, self.broker.notification)
        if pending is not None:
            with contextlib.suppress(_Stale):  # _Stale: another process moved the game on first
                stamp = await asyncio.shield(self.writer.submit(pending))  # written even if this is cancelled
                return stamp, pending.notified
        stamp = await anyio.to_thread.run_sync(self.tables.act, table_id, seat, message, limiter=self._acting)
        return stamp, False


class StepWriter:
    """One thread that stores the steps applied on the event loop: all those waiting in one transaction.

    Each step is still its own compare-and-set; sharing the commit, and one wake-up of the
    loop per batch instead of one thread hand-over per step, is what lets one process keep
    up with 50 tables at bot speed (docs/tables.md, Load).
    """

    def __init__(self, tables: TableService) -> None:
        self.tables = tables
        self._queue: queue.SimpleQueue[tuple[PendingStep, asyncio.Future[str]] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def submit(self, pending: PendingStep) -> asyncio.Future[str]:
        """Queue a step's write; the future gets its stamp, or _Stale, or the write's error.

        The game's lock is let go (and a copy not stored dropped) when the write is done, whether
        or not anybody still waits for the future.
        """
        loop = asyncio.get_running_loop()
        if self._thread is None or self._loop is not loop:  # first use, or a new event loop (a test's)
            self.stop()
            self._loop, self._queue = loop, queue.SimpleQueue()
            self._thread = threading.Thread(
                target=self._run, args=(loop, self._queue), name="pinsetter-step-writer", daemon=True
            )
            self._thread.start()
        future: asyncio.Future[str] = loop.create_future()
        self._queue.put((pending, future))
        return future

    def stop(self) -> None:
        """Let the thread write what is queued, then end."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=10)
            self._thread = None

    def _run(
        self, loop: asyncio.AbstractEventLoop, steps: queue.SimpleQueue[tuple[PendingStep, asyncio.Future[str]] | None]
    ) -> None:
        while True:
            item = steps.get()
            if item is None:
                return
            batch = [item]
            with contextlib.suppress(queue.Empty):
                while len(batch) < MAX_BATCH:
                    more = steps.get_nowait()
                    if more is None:
                        steps.put(None)  # stop after this batch
                        break
                    batch.append(more)
            try:
                outcome: list[bool] | BaseException = self.tables.storage.run_appends([p.write for p, _ in batch])
            except Exception as exc:
                outcome = exc
            try:
                loop.call_soon_threadsafe(self._done, batch, outcome)
            except RuntimeError:  # the loop is closed: nobody is left to tell
                return
            del item, batch  # kept while waiting for the next, they would keep each game's lock alive

    def _done(self, batch: list[tuple[PendingStep, asyncio.Future[str]]], outcome: list[bool] | BaseException) -> None:
        """On the event loop: settle each step's future and let its game go."""
        for index, (pending, future) in enumerate(batch):
            stored = False
            try:
                if isinstance(outcome, BaseException):
                    self.tables.games.forget(pending.game_id)  # not known to be stored
                    result: str | BaseException = outcome
                elif outcome[index]:
                    self.tables.written(pending.write, pending.table)
                    result, stored = pending.stamp, True
                else:
                    self.tables.drop_stale(pending.game_id, pending.table)
                    result = _Stale()
            finally:
                pending.lock.release()
            if stored and pending.bots:
                self.tables.bots_to_play(pending.table.id)
            if not future.done():
                if isinstance(result, BaseException):
                    future.set_exception(result)
                else:
                    future.set_result(result)


class TokenBucket:
    """At most `rate` messages a second on average, `burst` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.level, self.at = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


def _encode(value: Any) -> str:
    """Compact JSON (orjson: several times faster than the standard library's encoder on game views).

    Views are JSON-ready (text keys); a key that is not text is written as text, on a slower path.
    """
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


MAX_CARRIED = 6000  # bytes of steps a notification carries (PostgreSQL's payload is under 8,000)


def players_digest(players: list[PlayerSpec]) -> str:
    """A short fingerprint of a record's players: notified steps apply only to a copy with the same ones."""
    return _digest(tuple(players))


@functools.lru_cache(maxsize=1024)
def _digest(players: tuple[PlayerSpec, ...]) -> str:
    text = _encode([p.to_json() for p in players])
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _message_parts(message: dict[str, Any]) -> tuple[str | None, list[int] | None, int | None]:
    """A seat's message as (action, pins, pile); Refused naming what is wrong."""
    action = message.get("action")
    pins = message.get("pins")
    pile = message.get("pile")
    if action is not None and not isinstance(action, str):
        raise Refused(_("'action' must be text"))
    if pins is not None and (not isinstance(pins, list) or not all(type(p) is int for p in pins)):
        raise Refused(_("'pins' must be a list of pin numbers"))
    if pile is not None and type(pile) is not int:
        raise Refused(_("'pile' must be a pile number"))
    return action, pins, pile


@dataclasses.dataclass(frozen=True)
class PendingStep:
    """A step `TableService.begin_act` applied to a kept match, its write still to run (the game's lock held)."""

    table: StoredTable
    game_id: int
    write: PreparedAppend
    lock: threading.Lock
    stamp: str  # the change's stamp once written
    notified: bool  # the write tells the other processes itself (a NOTIFY in its transaction)
    bots: bool = False  # the step leaves a bot to play (`TableService.bots_to_play` once it is written)


def _step_of(data: Any, players: int) -> RecordStep:
    """One notified step, checked as the record format checks a step (ValueError if it is not one)."""
    from pinsetter.records import StepDocument

    document = StepDocument.model_validate(data)  # a pydantic ValidationError is a ValueError
    if document.actor == "chance":
        return RecordStep(None, document.step)
    if not 0 <= document.actor < players:
        raise ValueError(f"actor {document.actor} is not a player")
    return RecordStep(document.actor, document.step, document.by)


def encode_messages(messages: list[dict[str, Any]]) -> list[str]:
    """The messages as JSON text, exactly as `_encode` gives each.

    A push sends a whole game view (several KB) to every connection, and most seats share
    one view object: each distinct table and view is encoded once and the messages are
    put together around them.
    """
    encoded: dict[int, str] = {}  # by id(): every object is alive until the messages are made

    def part(value: Any) -> str:
        text = encoded.get(id(value))
        if text is None:
            text = encoded[id(value)] = _encode_view(value)
        return text

    texts = []
    for message in messages:
        seat = message.get("seat")
        if list(message) == _STATE_KEYS and (seat is None or type(seat) is int):
            seat_text = "null" if seat is None else str(seat)
            table, view = part(message["table"]), part(message["view"])
            texts.append(f'{{"type":{_encode(message["type"])},"seat":{seat_text},"table":{table},"view":{view}}}')
        else:
            texts.append(_encode(message))
    return texts


_STATE_KEYS = ["type", "seat", "table", "view"]
_Fragment: Callable[[str], Any] | None = getattr(orjson, "Fragment", None)  # orjson 3.10: JSON text put in as is
# A board's JSON by the board's data, which a view reuses while the board is unchanged
# (`web.service._board_data`): the entry holds the data, so its id is not reused meanwhile.
_board_texts: dict[int, tuple[dict[str, Any], Any]] = {}
BOARD_TEXTS = 1024  # boards' JSON kept at once, for every table of the process (cleared when full)


def _encode_view(value: Any) -> str:
    """`_encode(value)`; a game view's boards each encoded once while their data is the same object.

    Every step sends every player's board, and most are the step before's (a dozen sheets at a
    12-seat Rolling Pins table): their JSON is put in as it was made (the same bytes).
    """
    fragment = _Fragment
    boards = value.get("boards") if fragment is not None and isinstance(value, dict) else None
    if fragment is None or not isinstance(boards, list):
        return _encode(value)
    fragments = []
    for board in boards:
        kept = _board_texts.get(id(board))
        if kept is None or kept[0] is not board:
            if len(_board_texts) >= BOARD_TEXTS:
                _board_texts.clear()
            kept = _board_texts[id(board)] = (board, fragment(_encode(board)))
        fragments.append(kept[1])
    return _encode({**value, "boards": fragments})


class Broker:
    """Tells every server process (this one too) that a table changed."""

    lossy = False  # whether a change can go unheard by a process (the hub then looks for it)

    async def publish(self, table_id: int, stamp: str = "", notified: bool = False) -> None:
        """`stamp`: the table's `VERSION STEPS` after the change ("" when unknown).

        `notified`: the other processes were told already (by `notification`, with the write).
        """
        raise NotImplementedError

    def notification(self, table_id: int, stamp: str) -> tuple[str, str] | None:
        """A PostgreSQL NOTIFY (channel, payload) telling the other processes of a change, or None."""
        return None

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None


class LocalBroker(Broker):
    """One process: push at once."""

    def __init__(self, push: Callable[[int, str], Awaitable[None]]) -> None:
        self.push = push

    async def publish(self, table_id: int, stamp: str = "", notified: bool = False) -> None:
        await self.push(table_id, stamp)


RETRY_FIRST = 0.2  # seconds before a bot's failed step is tried again (doubling)
RETRY_LAST = 5.0
BOT_STOP_SECONDS = 5.0  # a stopping server waits this long at most for its bots' steps under way
STILL_LOOKS = 2  # looks (after the first) a bot table stays unmoved before this process looks for a bot due
WATCH_SECONDS = 5.0  # how often a process looks for a table change it was not told of (PostgreSQL)
RECONNECT_FIRST = 0.2  # seconds before a lost notification connection is opened again (doubling)
RECONNECT_LAST = 5.0


def channel_of(schema: str | None) -> str:
    """The NOTIFY channel of the tables in `schema`: servers on other schemas of the database never hear them."""
    if schema in (None, "public"):
        return CHANNEL
    return f"{CHANNEL}_{hashlib.blake2b(schema.encode(), digest_size=6).hexdigest()}"


class PostgresBroker(Broker):
    """Several processes on one PostgreSQL: NOTIFY on a change, every process LISTENs and pushes.

    The payload is `TABLE ORIGIN VERSION STEPS`: the publishing process pushes to its own
    connections at once and skips its own notification when it comes back. PostgreSQL does
    not keep notifications for a listener that is gone: when the listening connection is
    opened again, `resync` pushes every table this process serves from the database.
    """

    lossy = True

    def __init__(
        self,
        url: str,
        push: Callable[[int, str], Coroutine[Any, Any, None]],
        resync: Callable[[], Coroutine[Any, Any, None]] | None = None,
    ) -> None:
        import secrets

        self.dsn = sa.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        self.push = push
        self.resync = resync
        self.origin = secrets.token_hex(8)
        self.channel = CHANNEL  # one per schema (start): tables in another schema have ids of their own
        self.task: asyncio.Task[None] | None = None
        self.pushing: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self.sender = await self._connect(listen=False)
        cursor = await self.sender.execute("SELECT current_schema()")
        found = await cursor.fetchone()
        self.channel = channel_of(found[0] if found else None)
        self.listener = await self._connect(listen=True)
        self.task = asyncio.create_task(self._listen())

    async def _connect(self, listen: bool) -> Any:
        import psycopg

        connection = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
        if listen:
            await connection.execute(f"LISTEN {self.channel}")
        return connection

    async def _listen(self) -> None:
        """Push every other process's change; a lost connection is opened again (with a growing pause)."""
        pause = RECONNECT_FIRST
        while True:
            try:
                async for note in self.listener.notifies():
                    pause = RECONNECT_FIRST
                    self._note(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the server restarted or the connection was cut
                log.warning("table notifications: connection lost (%s); listening again in %.1f s", exc, pause)
            await asyncio.sleep(pause)
            pause = min(pause * 2, RECONNECT_LAST)
            with contextlib.suppress(Exception):
                await self.listener.close()
            try:
                self.listener = await self._connect(listen=True)
                log.warning("table notifications: listening again; every table served here is pushed anew")
            except Exception as exc:
                log.warning("table notifications: cannot listen yet (%s)", exc)
                continue
            if self.resync is not None:  # the changes notified meanwhile were lost: read them
                task = asyncio.create_task(self.resync())
                self.pushing.add(task)
                task.add_done_callback(self.pushing.discard)

    def _note(self, payload: str) -> None:
        table, _, rest = payload.partition(" ")
        origin, _, stamp = rest.partition(" ")
        if origin == self.origin or not table.isdigit():
            return  # this process's own change: pushed when it was published
        # Each table's push in its own task: one slow table does not hold up the others
        # (pushes of one table keep their order: the hub runs them one at a time).
        task = asyncio.create_task(self.push(int(table), stamp))
        self.pushing.add(task)
        task.add_done_callback(self.pushing.discard)

    def notification(self, table_id: int, stamp: str) -> tuple[str, str]:
        return self.channel, f"{table_id} {self.origin} {stamp}"

    async def publish(self, table_id: int, stamp: str = "", notified: bool = False) -> None:
        """This process's connections see the step at once; the others by NOTIFY (retried on a new connection)."""
        await self.push(table_id, stamp)
        if notified:
            return
        notify = self.notification(table_id, stamp)
        for attempt in range(2):
            try:
                await self.sender.execute("SELECT pg_notify(%s, %s)", notify)
                return
            except Exception as exc:
                log.warning("table %s: notification not sent (%s)", table_id, exc)
                if attempt == 0:
                    with contextlib.suppress(Exception):
                        await self.sender.close()
                    with contextlib.suppress(Exception):
                        self.sender = await self._connect(listen=False)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        for connection in (getattr(self, "listener", None), getattr(self, "sender", None)):
            if connection is not None:
                await connection.close()


def _version_steps(table: StoredTable, match: Match) -> str:
    """`VERSION STEPS`, how a change notification begins: what `note_change` compares with its own copy.

    The step that ends a played table's game finishes the table too, moving its version on by one.
    """
    version = table.version + 1 if table.status == "playing" and match.state.is_terminal() else table.version
    return f"{version} {len(match.record.steps)}"
