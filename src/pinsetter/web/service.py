"""The games being played on the web: matches kept in the history, driven only through the game API.

The browser never decides anything: it sends actions in text form (or a pick
of pins that the game's presentation turns into one) and renders what this
service returns. Every step goes through `Match.apply`, which checks it with
the engine and writes the game to the history at once, so a reload, a second
tab or a restarted server continue the same game.
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from pinsetter.bots.base import make_bot
from pinsetter.catalog import game_title
from pinsetter.core.game import Game, GameError
from pinsetter.core.table import TableView
from pinsetter.games.registry import get_game
from pinsetter.games.table_common import refusal_line
from pinsetter.i18n import _, current_language
from pinsetter.lessons import LEARN_MARK, Tutor, score_notes
from pinsetter.records import PlayerSpec, Record, RecordError, replay, result_of
from pinsetter.review import reviewable
from pinsetter.session import Match
from pinsetter.storage import Storage, StoredGame
from pinsetter.storage.tables import LIVE
from pinsetter.usertext import check_new_name, repeated_name
from pinsetter.web.schemas import GameView, HintView, LessonView, NewGame, ReviewView

__all__ = ["Conflict", "GameService", "NotFound", "Refused", "game_view", "game_view_data"]

LOG_LENGTH = 40
LOG_LANGUAGES = 4  # languages whose log entries a match keeps at once (`_log_data`)
CACHE_SIZE = 256
REVIEWS_KEPT = 32  # reviews made (a Solitaire game's takes seconds): the latest, by record, seats and language


class Refused(Exception):
    """The request is understood but the game refuses it (422)."""


class NotFound(Exception):
    """No such game (404)."""


class Conflict(Exception):
    """The game is over, or the request cannot apply in its state (409)."""


class GameService:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._matches: OrderedDict[int, Match] = OrderedDict()
        # One lock per game in use: a lock nobody holds or waits for goes (a long-lived server sees many games).
        self._locks: weakref.WeakValueDictionary[int, threading.Lock] = weakref.WeakValueDictionary()
        self._guard = threading.Lock()
        # The table a game is played at and its status (TableStore.table_of_game), when online tables are served.
        self.table_of: Callable[[int], tuple[int, str] | None] | None = None
        # Whether a game is a daily challenge whose day lasts (web/daily.py): its seed is everybody's dice.
        self.sealed: Callable[[int], bool] | None = None
        self._tutors: weakref.WeakKeyDictionary[Match, Tutor] = weakref.WeakKeyDictionary()
        self._reviews: OrderedDict[tuple[int, str, tuple[int, ...] | None, str], ReviewView] = OrderedDict()

    # --- finding games --------------------------------------------------------------------
    def lock(self, game_id: int) -> threading.Lock:
        """The game's lock: the same one for everybody who holds (a reference to) it meanwhile."""
        with self._guard:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = threading.Lock()
            return lock

    def match(self, game_id: int, keep: bool = True) -> Match:
        """The live match, or the stored game resumed from its record (after a restart).

        `keep=False`: a game read only to be shown (a finished table's) is not kept.
        """
        with self._guard:
            if game_id in self._matches:
                self._matches.move_to_end(game_id)
                return self._matches[game_id]
        stored = self.storage.get(game_id)
        if stored is None:
            raise NotFound(_("no game {id}").format(id=game_id))
        try:
            match = Match.resume(stored.record)
        except (RecordError, GameError) as exc:
            raise Conflict(_("game {id} cannot be resumed: {error}").format(id=game_id, error=exc)) from None
        match.storage = self.storage
        match.game_id = game_id
        if keep:
            self.remember(game_id, match)
        return match

    def kept(self, game_id: int) -> Match | None:
        """The live match if this process keeps one (nothing is read)."""
        with self._guard:
            return self._matches.get(game_id)

    def forget(self, game_id: int) -> None:
        """Drop the live copy: the next request re-reads the game from the database."""
        with self._guard:
            self._matches.pop(game_id, None)

    def take(self, game_id: int) -> Match | None:
        """`forget`, handing back the copy dropped (if any) to a caller that still has a use for it."""
        with self._guard:
            return self._matches.pop(game_id, None)

    def check_free(self, game_id: int) -> None:
        """Refuse the open game API for a game played at an online table (only its seats act there)."""
        if self.table_of is not None and self.table_of(game_id) is not None:
            message = _("game {id} is played at an online table: its seats act through the table")
            raise Conflict(message.format(id=game_id))

    def remember(self, game_id: int, match: Match) -> None:
        with self._guard:
            self._matches[game_id] = match
            while len(self._matches) > CACHE_SIZE:
                self._matches.popitem(last=False)

    # --- changing games -------------------------------------------------------------------
    def create(self, request: NewGame) -> GameView:
        try:
            game = get_game(request.game, request.options)
            specs = []
            for seat in request.players:
                kind = "human" if seat.kind == "human" else seat.kind.removeprefix("bot:")
                specs.append(PlayerSpec(check_new_name(seat.name.strip()), kind))
            problem = repeated_name(s.name for s in specs)
            if problem is not None:
                raise Refused(problem)
            game.check_players(len(specs))
            for spec in specs:
                if not spec.is_human:
                    make_bot(spec.kind, game)
            match = Match.new(request.game, specs, request.seed, dict[str, object](request.options))
        except (GameError, ValueError) as exc:
            raise Refused(str(exc)) from None
        if request.learn:
            if not any(spec.is_human for spec in specs):
                raise Refused(_("learn mode needs a human player to teach"))
            match.record.extra[LEARN_MARK] = True
        match.storage = self.storage
        match.store()
        assert match.game_id is not None
        self.remember(match.game_id, match)
        return self.view(match)

    def act(self, game_id: int, action: str | None, pins: list[int] | None, pile: int | None) -> GameView:
        self.check_free(game_id)
        with self.lock(game_id):
            match = self.match(game_id)
            state = match.state
            if state.is_terminal():
                raise Conflict(_("the game is over"))
            if state.is_chance_node() or match.is_bot_turn():
                raise Conflict(_("it is not a human's decision now: advance the game first"))
            picked = pins if action is None else None
            try:
                if action is None:
                    if not pins:
                        raise Refused(_("give an action, or the pins you pick"))
                    action = match.game.selection_action(state, frozenset(pins), pile)
                step = match.game.parse_action(action)
                match.apply(step)
            except GameError as exc:
                raise Refused(refusal_line(action, exc, picked)) from None
            return self.view(match)

    def advance(self, game_id: int, until: str) -> GameView:
        """Play chance outcomes and bot moves: one (`step`), all until a human acts (`human`), or a human's rolls."""
        self.check_free(game_id)
        with self.lock(game_id):
            match = self.match(game_id)
            if match.state.is_terminal():
                raise Conflict(_("the game is over"))
            if self.next_of(match) == "decision":
                raise Conflict(_("a human must decide first"))
            first = self.next_of(match)
            while True:
                match.advance()
                after = self.next_of(match)
                if until == "step" or after == "over":
                    break
                if until == "human" and after in ("decision", "roll"):
                    break
                if until == "rolls" and (first != "roll" or after != "roll"):
                    break
            return self.view(match)

    def undo(self, game_id: int) -> GameView:
        self.check_free(game_id)
        with self.lock(game_id):
            match = self.match(game_id)
            reason = match.can_undo()
            if reason is not None:
                raise Conflict(reason)
            match.undo()
            return self.view(match)

    def hint(self, game_id: int, chances: bool = False) -> HintView:
        from pinsetter.bots.hints import (
            CHANCE_LABEL,
            NO_CHANCES,
            hint_words,
            no_hint_words,
            offers_chances,
            option_values,
            win_chances,
        )

        self.check_free(game_id)  # at a table, nobody (a spectator included) gets the solver's advice
        match = self.match(game_id)
        state = match.state
        if state.is_terminal() or state.is_chance_node() or match.is_bot_turn():
            raise Conflict(_("hints are for a human's decision"))
        offered = offers_chances(state)
        if chances and not offered:
            raise Conflict(_(NO_CHANCES))
        found = option_values(state)
        if found is None:
            return HintView(bot=None, meaning=no_hint_words(state), options=[], words=[])
        bot, meaning, values = found
        chance_of = win_chances(state) if chances else None
        options: list[dict[str, Any]] = [{"action": str(a), "value": v} for a, v in values]
        if chance_of is not None:
            for option in options:
                option["chance"] = chance_of[option["action"]]
        return HintView(
            bot=bot,
            meaning=meaning,
            options=options,
            words=hint_words(state, bot, values, chance_of),
            chances_offered=offered,
            chance_meaning=_(CHANCE_LABEL) if chance_of is not None else None,
        )

    def review(self, game_id: int, player: str | None) -> ReviewView:
        """The game's review (pinsetter.review): every human's decisions, or the named player's.

        Played at an online table, a game is reviewed once its record is out (it ended, or the table
        closed), as the record itself. Reviews are kept per record, seats and language: a finished
        game's is made once.
        """
        from pinsetter.i18n import current_language
        from pinsetter.review import NotSolvedYet, ReviewError, review, seat_named

        stored = self.storage.get(game_id)
        if stored is None:
            raise NotFound(_("no game {id}").format(id=game_id))
        if not stored.finished and self.secret(game_id):
            message = _("game {id} is played at an online table: its review comes when it ends or the table closes")
            raise Conflict(message.format(id=game_id))
        record = stored.record
        try:
            seats = None if player is None else (seat_named(record, player),)
        except ReviewError as exc:
            raise NotFound(str(exc)) from None
        key = (game_id, hashlib.sha256(record.to_text().encode()).hexdigest(), seats, current_language())
        with self._guard:
            found = self._reviews.get(key)
        if found is None:
            try:
                found = ReviewView.model_validate(review(record, seats).to_json())
            except NotSolvedYet:  # its players cannot run the solve: the server's operator does
                message = _(
                    "game {id}: advanced Rolling Pins is reviewed once this server has solved it, "
                    "which its operator starts once (10 to 25 minutes)"
                )
                raise Conflict(message.format(id=game_id)) from None
            except (ReviewError, RecordError) as exc:
                raise Conflict(_("game {id}: {error}").format(id=game_id, error=exc)) from None
            with self._guard:
                self._reviews[key] = found
                while len(self._reviews) > REVIEWS_KEPT:
                    self._reviews.popitem(last=False)
        return found

    def at_step(self, game_id: int, step: int) -> GameView:
        """The game as it stood after `step` steps (0 = the start), to step through a past game."""
        from dataclasses import replace

        stored = self.storage.get(game_id)
        if stored is None:
            raise NotFound(_("no game {id}").format(id=game_id))
        record = stored.record
        if not 0 <= step <= len(record.steps):
            raise NotFound(_("game {id} has steps 0 to {last}").format(id=game_id, last=len(record.steps)))
        try:
            match = Match.resume(replace(record, steps=record.steps[:step], result=None))
        except GameError as exc:
            raise Conflict(str(exc)) from None
        match.game_id = game_id
        finished = bool((record.result or {}).get("complete"))
        return game_view(match, self.next_of(match), hide_seed=self.hides_seed(game_id, finished))

    def upload(self, text: str) -> int:
        """Store a verified record (from an upload); returns its id."""
        try:
            record = Record.loads(text)
            replay(record)
        except RecordError as exc:
            raise Refused(str(exc)) from None
        stored = self.storage.contains(record)
        if stored is not None and self.at_table(stored.id):  # only its seats move a table's game
            message = _("game {id} is played at an online table: a record cannot change it")
            raise Conflict(message.format(id=stored.id))
        merged = self.storage.merge(record)
        if merged.outcome == "conflict":
            raise Conflict(merged.reason)
        with self._guard:
            self._matches.pop(merged.game_id, None)  # a longer record replaces the live copy
        return merged.game_id

    # --- what clients see -----------------------------------------------------------------
    @staticmethod
    def next_of(match: Match) -> str:
        state = match.state
        if state.is_terminal():
            return "over"
        if match.is_bot_turn() and not state.is_chance_node():
            return "bot"
        player = state.turn()
        if state.is_chance_node():
            return "bot" if player in match.bots else "roll"
        return "decision"

    def view(self, match: Match) -> GameView:
        game_id = match.game_id
        sealed = game_id is not None and self.is_sealed(game_id)  # one look-up: a view is made at every step
        hide = sealed or (game_id is not None and not match.state.is_terminal() and self.secret(game_id))
        view = game_view(match, self.next_of(match), hide_seed=hide)
        view.sealed = sealed
        if view.learn:
            view.lesson = [LessonView(**vars(item)) for item in self.tutor(match).now()]
        return view

    def tutor(self, match: Match) -> Tutor:
        """The lessons of a game in learn mode, kept with its live match and caught up with its record."""
        with self._guard:
            tutor = self._tutors.get(match)
            if tutor is None:
                learner = next(i for i, spec in enumerate(match.players) if spec.is_human)
                tutor = self._tutors[match] = Tutor(match.game, len(match.players), learner)
        tutor.update([(step.actor, step.text) for step in match.record.steps], [p.name for p in match.players])
        return tutor

    def resumable(self, game: str | None, player: str | None, limit: int) -> list[StoredGame]:
        """The history's games that the page can resume, newest first: at most `limit`.

        Unfinished; not of an online table (played there, or abandoned when it closed); of seeded
        chance (the page rolls from the seed, while a game of dice entered by hand goes on where
        they are entered); and whose record still replays with today's rules.
        """
        found: list[StoredGame] = []
        for stored in self.storage.history(game, player):
            if len(found) >= limit:
                break
            if stored.finished or stored.record.chance != "seeded" or self.at_table(stored.id):
                continue
            try:
                self.match(stored.id, keep=False)
            except Conflict:
                continue
            found.append(stored)
        return found

    def at_table(self, game_id: int) -> bool:
        """Whether the game is (or was) played at an online table: only its seats move it, never the open API."""
        return self.table_of is not None and self.table_of(game_id) is not None

    def hides_seed(self, game_id: int, finished: bool) -> bool:
        """Whether the game's view leaves its seed out: a table's game being played, a daily game all its day."""
        return (not finished and self.secret(game_id)) or self.is_sealed(game_id)

    def is_sealed(self, game_id: int) -> bool:
        """Whether the game is a daily challenge whose day lasts (`sealed`, set where daily games are served)."""
        return self.sealed is not None and self.sealed(game_id)

    def secret(self, game_id: int) -> bool:
        """Whether the game's seed (and so its record) is secret: while its table is open or played.

        Once its game ends or the table is closed (the game abandoned), anyone may read both.
        """
        found = None if self.table_of is None else self.table_of(game_id)
        return found is not None and found[1] in LIVE


def timed_out(name: str) -> str:
    """The log's note for a decision a bot made because the seat's time ran out (the step's words say what)."""
    return _("{name} ran out of time: a bot decided for them").format(name=name)


def game_view(match: Match, next_step: str, hide_seed: bool = False) -> GameView:
    """What every client sees of a game; `hide_seed` while a table's game is played (the seed tells the dice)."""
    return GameView.model_validate(game_view_data(match, next_step, hide_seed))


def _log_data(match: Match, names: list[str], words: list[str]) -> list[dict[str, Any]]:
    """The log's last entries (`LOG_LENGTH` steps) as JSON-ready data, each made once while its words hold.

    `words` is the match's narration in one language (`Match.log_words`): while it is the same
    list (no undo meanwhile) and the names are the same, the entries made before still hold and
    only the new steps' are added. The entries are shared between the views, read only.
    """
    steps = match.record.steps
    first = max(0, len(steps) - LOG_LENGTH)
    kept = match.log_data.get(id(words))  # the tuple holds `words`: its id is not reused meanwhile
    if kept is not None and kept[0] is words and kept[1] == names and kept[2] <= first:
        start, entries = kept[2], kept[3]
    else:
        start, entries = first, []
    made = start + len(entries)
    if made > len(steps):  # cannot happen while `words` is the same narration; made anew if it does
        start, entries, made = first, [], first
    if made < len(steps):
        # A new list, of the last entries only (never one a view already holds changed: two threads
        # may view one match).
        begin = max(made, first)
        entries = entries[first - start :] + [
            {
                "step": i + 1,
                "actor": "chance" if s.actor is None else names[s.actor],
                "text": s.text,
                "words": words[i],
                "note": "" if s.by is None or s.actor is None else timed_out(names[s.actor]),
            }
            for i, s in enumerate(steps[begin:], start=begin)
        ]
        start = first
        if len(match.log_data) >= LOG_LANGUAGES:
            match.log_data.clear()
        match.log_data[id(words)] = (words, list(names), start, entries)
    return entries[first - start :]


def _boards_data(
    match: Match, names: list[str], last_chance: str, table: TableView, view: dict[str, Any]
) -> list[dict[str, Any]]:
    """Every seat's board as JSON-ready data (`Game.board` of each, dumped).

    The board of the player up is made from the table's data (`Game.board_data`); a waiting
    player's, where the game draws it as `Game.board` does, is their status line alone, kept
    while it says the same.
    """
    game, state = match.game, match.state
    waiting = type(game).board is Game.board and type(game).waiting_status is Game.waiting_status
    terminal = state.is_terminal()
    language = current_language() if waiting else ""
    boards = []
    for i in range(len(names)):
        data = game.board_data(state, i, names, last_chance, view)
        if data is not None:
            boards.append(data)
        elif waiting:
            key = (terminal, names[i], language)  # all that `Game.waiting_status` and the title read
            kept = match.board_data.get(("waiting", i))
            if kept is None or kept[0] != key:
                data = game.board(state, i, names, last_chance, drawn=table).model_dump(mode="json")
                kept = match.board_data[("waiting", i)] = (key, data)
            boards.append(kept[1])
        else:
            boards.append(_board_data(match, i, game.board(state, i, names, last_chance, drawn=table)))
    return boards


def _board_data(match: Match, seat: int, board: TableView) -> dict[str, Any]:
    """A seat's board as JSON-ready data, reused while the game draws it as the very same (frozen) view.

    Games keep the boards of waiting players (`Game.board`): most boards of a step are the last
    step's. The data is shared between the views, read only, like the rest of a pushed view.
    """
    kept = match.board_data.get(seat)
    if kept is not None and kept[0] is board:
        return kept[1]
    data = board.model_dump(mode="json")
    match.board_data[seat] = (board, data)
    return data


def game_view_data(match: Match, next_step: str, hide_seed: bool = False) -> dict[str, Any]:
    """`game_view` as the JSON-ready dict that `GameView.model_dump(mode="json")` gives, built directly.

    The online tables push it after every step: building and validating the model for data the
    server made itself cost more than the rest of the view (tests check both give the same). The
    parts that a step seldom changes (the game's heading, each player's sheet) are made once and
    reused while what they show is the same (`_heading_data`, `_sheets_data`).
    """
    state = match.state
    names = [p.name for p in match.players]
    steps = match.record.steps
    last_chance = next((s.text for s in reversed(steps) if s.actor is None), "")
    table = match.game.table(state, names, last_chance)
    terminal = state.is_terminal()
    heading = _heading_data(match, hide_seed)
    log = _log_data(match, names, match.log_words())
    legal = [] if terminal or state.is_chance_node() else [str(a) for a in state.legal_actions()]
    view = table.model_dump(mode="json")
    return {
        "id": heading["id"],
        "game": heading["game"],
        "title": heading["title"],
        "variant": heading["variant"],
        "options": heading["options"],
        "players": heading["players"],
        "seed": heading["seed"],
        "chance": heading["chance"],
        "turn": None if terminal else state.turn(),
        "deciders": state.deciders(),
        "simultaneous": heading["simultaneous"],
        "terminal": terminal,
        "next": next_step,
        "has_decisions": heading["has_decisions"],
        "legal_actions": legal,
        "view": view,
        "boards": _boards_data(match, names, last_chance, table, view),
        "sheets": _sheets_data(match),
        "log": log,
        "undo": match.can_undo(),
        "result": result_of(state, match.players) if terminal else None,
        "ending": match.ending_lines() if terminal else [],
        "ending_notes": score_notes(match.game, match.record.options) if terminal else [],
        "learn": heading["learn"],
        "reviewable": reviewable(match.game) is None,  # not kept: a long solve's values may come in meanwhile
        "lesson": [],  # learn mode's lessons come with the game service's view (`GameService.view`)
        "sealed": False,  # a daily game's too (`GameService.view`): a table's game is never a daily one
    }


def _heading_data(match: Match, hide_seed: bool) -> dict[str, Any]:
    """The view's parts that stay the same through a game, made once per language (shared: read only).

    Made again when anything they are made of changes: the seed shown at the end, the stored
    game's id, the players, chance entered instead of drawn.
    """
    language = current_language()
    key = (hide_seed, match.game_id, match.record.chance, tuple(match.players))
    kept = match.view_parts.get(("heading", language))
    if kept is not None and kept[0] == key:
        made: dict[str, Any] = kept[1]
        return made
    game = match.game
    heading = {
        "id": match.game_id or 0,
        "game": game.id,
        "title": _(game.name),
        "variant": game_title(game.id, match.record.options),
        "options": dict(match.record.options),
        "players": [{"name": p.name, "kind": p.kind} for p in match.players],
        "seed": None if hide_seed else str(match.seed),  # as text: JavaScript would round it
        "chance": match.record.chance,
        "simultaneous": game.simultaneous,
        "has_decisions": game.has_decisions,
        "learn": bool(match.record.extra.get(LEARN_MARK)),
    }
    match.view_parts[("heading", language)] = (key, heading)
    return heading


def _sheets_data(match: Match) -> list[dict[str, Any]]:
    """Every player's scoresheet as JSON-ready data; a player's is made again only when their sheet or frame moved.

    Sheets are kept per pinfalls (`State.scoresheet`): a player who did not bowl has the very
    same sheet object as the step before, and the very same data is reused (shared: read only).
    """
    state = match.state
    sheets = []
    for index, spec in enumerate(match.players):
        sheet = state.scoresheet(index)
        ctx = state.ball_context(index)
        frame = ctx.frame if ctx is not None else None
        kept = match.view_parts.get(index)
        if kept is not None and kept[0][0] is sheet and kept[0][1] == frame and kept[0][2] is spec:
            sheets.append(kept[1])
            continue
        data = {"name": spec.name, "kind": spec.kind, "frames": sheet.frames_data, "total": sheet.total,
                "current_frame": frame}  # fmt: skip
        match.view_parts[index] = ((sheet, frame, spec), data)
        sheets.append(data)
    return sheets
