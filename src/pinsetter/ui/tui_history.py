"""History and statistics inside the terminal interface: past games, one replayed step by step, statistics.

Everything comes from the storage layer (`Storage.history`, `storage.stats.player_stats`) and the
engine (a past game is replayed by applying its recorded steps); nothing here knows a game's rules.
Statistics are always of one game: different games' scores are never averaged together.
"""

from __future__ import annotations

import bisect
from typing import Any, ClassVar

import sqlalchemy as sa
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Header, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from pinsetter.catalog import game_title
from pinsetter.core.table import TableView
from pinsetter.games.registry import GAMES, game_class
from pinsetter.i18n import N_, _, current_language, ngettext, using_language
from pinsetter.records import game_played
from pinsetter.ui.sheet import fit_names, render_sheets, sheet_width
from pinsetter.ui.table_text import draw_table
from pinsetter.ui.tui_common import (
    GUARD_BINDING,
    NARROW,
    SHORT,
    EnterGuard,
    KeyFooter,
    WrappedText,
    replay_lines,
    resume_summary,
    standing_words,
    translate_bindings,
)
from pinsetter.ui.wrap import wrap_text
from pinsetter.usertext import visible

__all__ = [
    "HISTORY_CSS",
    "ConfirmDelete",
    "HistoryScreen",
    "MarkedCheckbox",
    "ReplayScreen",
    "StatsScreen",
    "readable_history",
    "sparkline",
]

ALL = "all"
BARS = "▁▂▃▄▅▆▇█"


# The history's, the replay's and the statistics' rules, each under its screen's type (the app puts them
# in its CSS: App CSS beats DEFAULT_CSS, and the app's own `#left`, `#log` rules would win over them).
HISTORY_CSS = """
HistoryScreen #history-list { height: 1fr; min-height: 3; }
HistoryScreen #history-notes { height: auto; max-height: 4; }
HistoryScreen #history-heading { width: 1fr; height: auto; }
#history-filters Label, #stats-filters Label { margin: 0 1; }
#history-game { width: 24; }
#history-player { width: 20; }
HistoryScreen.short Header, StatsScreen.short Header { display: none; }
StatsScreen .filter { width: auto; height: auto; }
StatsScreen #stats-filters Select { width: 28; }
StatsScreen.narrow #stats-filters { layout: vertical; }
StatsScreen.narrow .filter { width: 1fr; }
StatsScreen.narrow #stats-filters Label { width: 12; }
StatsScreen.narrow #stats-filters Select { width: 1fr; max-width: 40; }
StatsScreen #stats-bots { margin: 0 1; }
StatsScreen #stats-body { height: 1fr; scrollbar-size-vertical: 1; }
StatsScreen #stats-text { height: auto; }
ReplayScreen #replay-sheet { height: auto; }
ReplayScreen #replay-bar { height: auto; }
ReplayScreen #replay-bar Button.-textual-compact { min-width: 3; margin-right: 0; }
ReplayScreen.narrow .wide-only { display: none; }
ReplayScreen.short.narrow.hinting #replay-sheet { display: none; }
ReplayScreen #replay-table-box { height: auto; max-height: 100%; scrollbar-size-vertical: 1; }
ReplayScreen #replay-whose { height: auto; text-style: bold; }
ReplayScreen #replay-status { height: auto; }
ReplayScreen #replay-hint-box { height: 1fr; border-top: solid $accent; scrollbar-size-vertical: 1; }
ReplayScreen #replay-hint { height: auto; }
ReplayScreen #log { height: 1fr; min-height: 2; scrollbar-size-vertical: 1; }
ReplayScreen.short Header { display: none; }
ReplayScreen.short #log { border: none; border-top: solid $secondary; }
ReplayScreen.narrow #main { layout: vertical; }
ReplayScreen.narrow #left { width: 1fr; height: auto; max-height: 50%; }
ReplayScreen.narrow #right { padding: 0; }
ReplayScreen.narrow #replay-hint-box { height: auto; max-height: 50%; }
ReplayScreen.narrow.short.hinting #log { display: none; }
ReplayScreen.narrow.short.hinting #replay-hint-box { height: 1fr; max-height: 100%; }
"""


def fit_screen(screen: Screen[Any], width: int, height: int) -> None:
    """The classes a screen lays itself out by: `short` (no title bar), `narrow` (one column)."""
    screen.set_class(height < SHORT, "short")
    screen.set_class(width < NARROW, "narrow")


def first_line(exc: BaseException) -> str:
    return visible(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)


def readable_history(
    storage: Any, game: str | None = None, player: str | None = None, limit: int = 200
) -> tuple[list[Any], list[str]]:
    """Past games newest first, and a note for each stored one that no longer reads (skipped, not fatal).

    `Storage.history` reads every row at once, so one record that fails to validate fails it
    all; then the rows are read one by one and the unreadable ones are named.
    """
    try:
        return storage.history(game=game, player=player, limit=limit), []
    except Exception:  # one stored record the records now refuse (or a database error: said below)
        pass
    from pinsetter.storage.db import games

    query = sa.select(games.c.id).order_by(games.c.created.desc(), games.c.id.desc())
    if game:
        query = query.where(games.c.game == game)
    found: list[Any] = []
    problems: list[str] = []
    try:
        with storage.engine.connect() as connection:
            ids = [row[0] for row in connection.execute(query)]
    except Exception as exc:
        return [], [_("the history cannot be read: {reason}").format(reason=first_line(exc))]
    for game_id in ids:
        try:
            stored = storage.get(game_id)
        except Exception as exc:
            problems.append(_("game #{id} skipped: {reason}").format(id=game_id, reason=first_line(exc)))
            continue
        if stored is not None and (not player or any(p.name == player for p in stored.record.players)):
            found.append(stored)
        if len(found) >= limit:
            break
    return found, problems


def history_label(stored: Any) -> Text:
    """`#12 2026-11-30 10:02 Rolling Pins, advanced: ann 120, bob 98 (finished)`: a past game in one line."""
    entries = (stored.record.result or {}).get("players") or []
    if stored.finished:
        scores = _(", ").join(
            f"{spec.name} {entries[i].get('total', 0) if i < len(entries) else 0}"
            for i, spec in enumerate(stored.record.players)
        )
        where = _("{scores} (finished)").format(scores=scores)
    elif stored.not_begun():  # started and left before a pin fell: said so, to be deleted at a glance
        where = standing_words(stored)
    else:
        where = _("{summary} (unfinished)").format(summary=resume_summary(stored.record))
    game = game_title(stored.game, stored.record.options)
    return Text(f"#{stored.id} {stored.created[:16].replace('T', ' ')} {game}: {where}")


class ConfirmDelete(EnterGuard, ModalScreen[bool]):
    """The games about to be deleted, each in one line, and a question: Delete (y) or Cancel (n, Escape).

    Cancel has the focus: an Enter pressed without reading deletes nothing.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        GUARD_BINDING,
        Binding("y", "answer(True)", N_("Delete")),
        Binding("escape,n", "answer(False)", N_("Cancel")),
    ]

    def __init__(self, stored_games: list[Any]) -> None:
        super().__init__()
        translate_bindings(self)
        self.stored_games = stored_games

    def compose(self) -> ComposeResult:
        count = len(self.stored_games)
        question = ngettext(
            "Delete this game from the history?", "Delete these {count} games from the history?", count
        ).format(count=count)
        finished = sum(g.finished for g in self.stored_games)
        if finished:
            question += " " + ngettext(
                "The finished one's scores leave the statistics.",
                "The {count} finished ones' scores leave the statistics.",
                finished,
            ).format(count=finished)
        listed = Text("\n").join(history_label(g) for g in self.stored_games[:12])
        if count > 12:
            listed.append("\n" + _("and {count} more").format(count=count - 12))
        with VerticalScroll(id="help"):
            yield Static(listed, id="delete-games")
            yield Label(Text(question, style="bold"), id="delete-question")
            with Horizontal(classes="row"):
                yield Button(_("Delete"), id="delete-yes", variant="error", compact=True)
                yield Button(_("Cancel"), id="delete-no", compact=True)

    def on_mount(self) -> None:
        self.guard_from_now()
        self.query_one("#delete-no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "delete-yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class HistoryScreen(EnterGuard, Screen[None]):
    """Past games, filtered by game and by player; Enter (or a click) opens one to replay.

    A game can be deleted (Delete or d), and every game started and left before a pin fell at once
    (x): each after a confirmation. The launcher's Resume list reads the same history.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        GUARD_BINDING,
        Binding("escape", "back", N_("Back")),
        Binding("v", "review", N_("Review")),
        Binding("delete,d", "delete", N_("Delete")),
        Binding("x", "delete_not_begun", N_("Delete not begun")),
        Binding("f3", "statistics", N_("Statistics")),
    ]

    def __init__(self, storage: Any, game: str | None = None, player: str = "") -> None:
        super().__init__()
        translate_bindings(self)
        self.storage = storage
        self.game = game
        self.player = player
        self.shown: list[Any] = []  # the games listed, in order
        self.said = Text()  # what the last deletion did, shown under the list until the next one

    def compose(self) -> ComposeResult:
        game_class("tenpins")
        yield Header()
        with Horizontal(classes="row", id="history-filters"):
            yield Label(_("Game"))
            yield Select(
                [(_("all games"), ALL)] + [(_(GAMES[gid].name), gid) for gid in sorted(GAMES)],
                value=self.game or ALL,
                allow_blank=False,
                id="history-game",
                compact=True,
            )
            yield Label(_("Player"))
            yield Input(self.player, placeholder=_("any player"), id="history-player", compact=True)
        yield Label(
            _("Past games, newest first (Enter or a click replays one; v reviews it; d deletes it)"),
            id="history-heading",
        )
        yield OptionList(id="history-list")
        yield Static(id="history-notes")
        with Horizontal(classes="row"):
            yield Button(_("Review"), id="history-review", compact=True)
            yield Button(_("Delete"), id="history-delete", compact=True)
            yield Button(_("Delete not begun"), id="history-delete-empty", compact=True)
            yield Button(_("Statistics"), id="history-stats", compact=True)
            yield Button(_("Back"), id="history-back", compact=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.guard_from_now()
        fit_screen(self, *self.app.size)
        self.title = _("pinsetter - history")
        self.refresh_list()
        self.query_one("#history-list", OptionList).focus()

    def on_screen_resume(self) -> None:
        self.guard_from_now()

    def on_resize(self, event: Any) -> None:
        fit_screen(self, event.size.width, event.size.height)

    def refresh_list(self, highlight: int = 0) -> None:
        listing = self.query_one("#history-list", OptionList)
        notes = self.query_one("#history-notes", Static)
        listing.clear_options()
        self.shown = []
        if self.storage is None:
            notes.update(Text(_("games are not kept in the history (it could not be opened)"), style="yellow"))
            notes.display = True
            return
        found, problems = readable_history(self.storage, self.game, self.player or None)
        self.shown = found
        for stored in found:
            listing.add_option(Option(history_label(stored), id=str(stored.id)))
        if listing.option_count:
            listing.highlighted = min(highlight, listing.option_count - 1)
        lines = [Text(p, style="red") for p in problems]
        if not found:
            lines.insert(0, Text(_("no game found")))
        if self.said:
            lines.insert(0, self.said)
        notes.update(Text("\n").join(lines))
        notes.display = bool(lines)  # no empty line between the list and its buttons

    def highlighted_game(self) -> Any:
        listing = self.query_one("#history-list", OptionList)
        index = listing.highlighted
        return self.shown[index] if index is not None and index < len(self.shown) else None

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "history-game":
            self.game = None if event.value == ALL else str(event.value)
            self.refresh_list()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "history-player":
            self.player = event.value.strip()
            self.refresh_list()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is None:
            return
        try:
            stored = self.storage.get(int(event.option.id))
        except Exception as exc:
            self.query_one("#history-notes", Static).update(Text(first_line(exc), style="red"))
            return
        if stored is not None:
            self.app.push_screen(ReplayScreen(stored))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {
            "history-stats": self.action_statistics,
            "history-back": self.action_back,
            "history-delete": self.action_delete,
            "history-delete-empty": self.action_delete_not_begun,
            "history-review": self.action_review,
        }
        if event.button.id in actions:
            actions[event.button.id]()

    def action_review(self) -> None:
        """The highlighted game's review (pinsetter.ui.tui_review): its decisions against the best moves."""
        from pinsetter.ui.tui_review import ReviewScreen

        stored = self.highlighted_game()
        if stored is None:
            self.tell(Text(_("no game to review"), style="yellow"))
            return
        self.app.push_screen(ReviewScreen(stored))

    def action_delete(self) -> None:
        """The highlighted game, after a confirmation."""
        stored = self.highlighted_game()
        if stored is None:
            self.tell(Text(_("no game to delete"), style="yellow"))
            return
        self.confirm_delete([stored])

    def action_delete_not_begun(self) -> None:
        """Every game (of the games listed) started and left before a pin fell, after a confirmation."""
        empty = [g for g in self.shown if g.not_begun()]
        if not empty:
            self.tell(Text(_("no game here was started and left before a pin fell")))
            return
        self.confirm_delete(empty)

    def confirm_delete(self, stored_games: list[Any]) -> None:
        listing = self.query_one("#history-list", OptionList)
        where = listing.highlighted or 0

        def answered(yes: bool | None) -> None:
            if not yes:
                self.tell(Text(_("nothing deleted")))
                return
            try:
                deleted = self.storage.delete([g.id for g in stored_games])
            except Exception as exc:  # a game at an online table still in play, or the database failed
                self.tell(Text(first_line(exc), style="red"))
                return
            said = ngettext("game {ids} deleted", "{count} games deleted: {ids}", len(deleted))
            self.said = Text(said.format(count=len(deleted), ids=", ".join(f"#{i}" for i in deleted)), style="green")
            self.refresh_list(where)
            listing.focus()

        self.app.push_screen(ConfirmDelete(stored_games), answered)

    def tell(self, text: Text) -> None:
        self.said = text
        self.refresh_list(self.query_one("#history-list", OptionList).highlighted or 0)

    def action_statistics(self) -> None:
        """The statistics of the game shown (all games: the highlighted game's), never an empty first game."""
        highlighted = self.highlighted_game()
        game = self.game or (highlighted.game if highlighted is not None else None)
        self.app.push_screen(StatsScreen(self.storage, game, self.player))

    def action_back(self) -> None:
        self.app.pop_screen()


AUTOPLAY_SECONDS = 0.6  # a step a little faster than a bot's in a game, slow enough to follow


def frame_starts(states: list[Any]) -> list[int]:
    """The positions where a frame begins: the first at which the player to play is in a later frame."""
    starts = [0]
    latest = 0
    for index, state in enumerate(states):
        if state.is_terminal():
            continue
        ctx = state.ball_context(state.turn())
        if ctx is not None and ctx.frame > latest:
            if latest:
                starts.append(index)
            latest = ctx.frame
    return starts


def decision_points(steps: list[Any], players: list[Any], reached: int) -> list[int]:
    """The positions at which a player decided (the step taken there is a player's, not chance's).

    The humans' decisions where the game had a human; every player's in a game of bots.
    """
    decided = [i for i in range(min(reached, len(steps))) if steps[i].actor is not None]
    humans = [i for i in decided if players[steps[i].actor].is_human]
    return humans if any(p.is_human for p in players) else decided


class ReplayScreen(EnterGuard, Screen[None]):
    """A past game: its sheets, table and log at any step; it opens at the end.

    A game is some 500 steps: besides a step at a time (arrows), it jumps a frame (`[` `]`,
    PageUp/PageDown) or to the players' decisions (`,` `.`), and plays itself (`a`). At a decision
    the hint panel shows each option valued as the hints valued it then, and the one chosen (`h`
    hides it); the table is headed with whose it is.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        GUARD_BINDING,
        Binding("escape,q", "back", N_("Back")),  # first: the footer keeps it at any width
        # Priority: a focused scrolling panel (the table, the log) would take these keys to scroll.
        Binding("left,p", "step(-1)", N_("Back a step"), show=False, priority=True),
        Binding("right,n,space", "step(1)", N_("Next step"), priority=True),
        Binding("left_square_bracket,pageup", "frame(-1)", N_("Frame back"), show=False, priority=True),
        Binding("right_square_bracket,pagedown", "frame(1)", N_("Next frame"), priority=True),
        Binding("comma", "decision(-1)", N_("Decision back"), show=False, priority=True),
        Binding("full_stop", "decision(1)", N_("Next decision"), priority=True),
        Binding("h", "hints", N_("Hints")),
        Binding("a", "autoplay", N_("Autoplay")),
        Binding("home", "go(0)", N_("Start"), show=False, priority=True),
        Binding("end", "go(-1)", N_("End"), show=False, priority=True),
    ]

    def __init__(self, stored: Any, autoplay_seconds: float = AUTOPLAY_SECONDS) -> None:
        super().__init__()
        translate_bindings(self)
        self.stored = stored
        record = stored.record
        self.names = [p.name for p in record.players]
        self.game = game_played(record.game, record.options)
        self.states, self.lines = replay_lines(self.game, record.players, record.steps)
        self.steps = record.steps
        self.at = len(self.states) - 1  # opens on the game as it was stored
        self.frames = frame_starts(self.states)
        self.decisions = decision_points(self.steps, record.players, len(self.states) - 1)
        self.autoplay_seconds = autoplay_seconds
        self.autoplay_timer: Any = None
        self.show_hints = True
        self.hints: dict[int, Text] = {}  # position -> its hint panel, worked out once
        self.thinking: int | None = None

    @property
    def tick_pending(self) -> bool:
        """Autoplay has a step to come (tests wait for it: tests/tui_support.py)."""
        return self.autoplay_timer is not None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="replay-sheet")
        with Horizontal(id="replay-bar"):
            yield Button("|<", id="replay-first", tooltip=_("Start"), compact=True)
            yield Button(_("< frame"), id="replay-frame-back", compact=True)
            yield Button(_("< decision"), id="replay-decision-back", classes="wide-only", compact=True)
            yield Button("<", id="replay-back", tooltip=_("Back a step"), compact=True)
            yield Button(">", id="replay-next", tooltip=_("Next step"), compact=True)
            yield Button(_("decision >"), id="replay-decision-next", classes="wide-only", compact=True)
            yield Button(_("frame >"), id="replay-frame-next", compact=True)
            yield Button(">|", id="replay-last", tooltip=_("End"), compact=True)
            yield Button(_("Autoplay"), id="replay-autoplay", compact=True)
            yield Button(_("Back"), id="replay-close", compact=True)
        with Horizontal(id="main"):
            with Vertical(id="left"), VerticalScroll(id="replay-table-box"):
                yield Static(id="replay-whose")
                yield Static(id="replay-table")
            with Vertical(id="right"):
                yield Static(id="replay-status")
                with VerticalScroll(id="replay-hint-box"):
                    yield Static(id="replay-hint")
                with VerticalScroll(id="log"):  # under the table from NARROW columns up (`fit`)
                    yield Static(id="replay-log")
        yield KeyFooter()

    async def on_mount(self) -> None:
        self.guard_from_now()
        self.title = _("pinsetter - game #{id}, {game}").format(
            id=self.stored.id, game=game_title(self.stored.game, self.stored.record.options)
        )
        self.sub_title = _("seed {seed}").format(seed=self.stored.record.seed)
        await self.fit(*self.app.size)
        self.call_after_refresh(self.show)  # again once laid out: the status is wrapped to its column's width
        self.query_one("#replay-back", Button).focus()

    async def on_resize(self, event: Any) -> None:
        await self.fit(event.size.width, event.size.height)

    async def fit(self, width: int, height: int) -> None:
        """The layout for the size: the log under the table (the hint has the play column to itself),
        or below 76 columns, where everything is one column, at the bottom."""
        fit_screen(self, width, height)
        target = self.query_one("#right" if width < NARROW else "#left")
        log = self.query_one("#log", VerticalScroll)
        if log.parent is not target:
            await log.remove()
            await target.mount(VerticalScroll(Static(id="replay-log"), id="log"))
        self.show()

    def on_unmount(self) -> None:
        self.stop_autoplay()

    def whose(self, player: int | None) -> str:
        return self.names[player] if player is not None and 0 <= player < len(self.names) else ""

    def show(self) -> None:
        """The position after `self.at` steps: sheets, whose table, the table, where it stands, the hint, the log."""
        state = self.states[self.at]
        frames = self.game.lane.frames
        current = [ctx.frame if (ctx := state.ball_context(p)) else None for p in range(state.num_players)]
        sheets = [state.scoresheet(p) for p in range(state.num_players)]
        names = fit_names(self.names, frames, self.app.size.width)
        compact = sheet_width(names, frames) + 2 > self.app.size.width
        turn = None if state.is_terminal() else state.turn()
        sheet = render_sheets(names, sheets, frames, current, compact=compact, turn=turn)
        self.query_one("#replay-sheet", Static).update(Text(sheet, no_wrap=True))
        last_chance = next((s.text for s in reversed(self.steps[: self.at]) if s.actor is None), "")
        view = self.game.table(state, self.names, last_chance)
        owner = self.whose(self.table_owner(view))
        self.query_one("#replay-whose", Static).update(
            Text(_("{name}'s table").format(name=owner) if owner else _("the table"))
        )
        table = draw_table(view, width=self.table_width())
        table.rstrip()  # no empty line under the table
        self.query_one("#replay-table", Static).update(table)
        self.query_one("#replay-status", Static).update(wrap_text(self.status_text(state, view), self.column_width()))
        self.update_hint()
        self.query_one("#replay-log", Static).update(Text("\n").join(Text(line) for line in self.lines[: self.at]))
        self.query_one("#replay-autoplay", Button).label = _("Pause") if self.autoplay_timer else _("Autoplay")
        self.call_after_refresh(self.query_one("#log", VerticalScroll).scroll_end, animate=False)

    def table_owner(self, view: TableView) -> int | None:
        """Whose table is drawn: the player up's, or at the end, where nobody is up, the last step's player's
        (a game of one player ends on a view of nobody's: it is still that player's table)."""
        if view.player is not None or self.at == 0:
            return view.player
        before = self.states[self.at - 1]
        return None if before.is_terminal() else int(before.turn())

    def table_width(self) -> int:
        """The cells the table is laid out in: its column's (the whole width when narrow), less the scroll bar."""
        box = self.query_one("#replay-table-box", VerticalScroll)
        width = box.content_region.width if box.content_region.width > 0 else self.app.size.width
        return max(20, width - 1)

    def column_width(self) -> int:
        """The width of the column the status and the hint are in: they are wrapped to it here, Japanese
        too (`pinsetter.ui.wrap`), so that nothing wraps them again at a worse place."""
        right = self.query_one("#right", Vertical)
        width = right.content_region.width if right.content_region.width > 0 else self.app.size.width
        return max(20, width - 1)

    def status_text(self, state: Any, view: Any) -> Text:
        """Where the replay stands: step, frame, decision, the last step in words, and the keys."""
        total = len(self.states) - 1
        status = Text(_("step {at} of {total}").format(at=self.at, total=total), style="bold")
        frame = bisect.bisect_right(self.frames, self.at)
        status.append("  " + _("frame {frame}").format(frame=frame))
        if self.decisions:
            done = bisect.bisect_left(self.decisions, self.at)
            if self.at in self.decisions:
                status.append("  " + _("decision {n} of {count}").format(n=done + 1, count=len(self.decisions)))
        if self.at:
            status.append("\n" + self.lines[self.at - 1])
        if state.is_terminal():
            scores = ", ".join(f"{n} {s}" for n, s in zip(self.names, state.scores(), strict=True))
            status.append("\n" + _("game over: {scores}").format(scores=scores))
        elif total < len(self.steps) and self.at == total:
            status.append("\n" + self.lines[-1], style="red")
        else:
            status.append("\n" + view.status)
        if self.autoplay_timer is not None:
            status.append("\n" + _("playing by itself: a stops it"), style="italic")
        if not self.has_class("short"):  # in a short window the footer and the buttons say it
            keys = _("left/right a step, [ ] a frame, , . a decision, a autoplay, h hints, Home/End, Escape back")
            status.append("\n" + keys, style="dim")
        return status

    # --- the hint at a decision ----------------------------------------------------------------
    def update_hint(self) -> None:
        """At a decision: each option valued and the one chosen (worked out in a thread, once each)."""
        panel = self.query_one("#replay-hint", Static)
        box = self.query_one("#replay-hint-box", VerticalScroll)
        at_decision = self.at < len(self.states) - 1 and self.steps[self.at].actor is not None
        box.display = self.show_hints and at_decision
        self.set_class(bool(box.display), "hinting")  # a short narrow window gives the log's room to the hint
        if not box.display:
            return
        if self.at in self.hints:
            panel.update(wrap_text(self.hints[self.at], self.column_width(), hang=True))
            return
        if self.autoplay_timer is not None:
            panel.update(Text(_("hints: shown when the replay is paused"), style="italic"))
            return
        panel.update(Text(_("thinking... (the first hint of a game can take a few seconds)"), style="italic"))
        if self.thinking != self.at:
            self.thinking = at = self.at
            state = self.states[at].clone()
            step = self.steps[at]
            language = current_language()
            self.run_worker(lambda: self.work_out_hint(at, state, step, language), thread=True, exclusive=True)

    def work_out_hint(self, at: int, state: Any, step: Any, language: str) -> None:
        """In the worker's thread, which starts in the default language: the screen's is passed in."""
        with using_language(language):
            text = self.hint_text(state, step)
        self.app.call_from_thread(self.hint_ready, at, text, language)

    def hint_ready(self, at: int, text: Text, language: str) -> None:
        """Called from the worker's thread, in its context: the screen's language is passed in again."""
        self.hints[at] = text
        if self.thinking == at:
            self.thinking = None
        if self.is_mounted and self.at == at:
            with using_language(language):
                self.update_hint()

    def hint_text(self, state: Any, step: Any) -> Text:
        """`ann chose: Cross out 4: expected final score 143.0 (2.1 less than the best)`, first, in view
        however small the panel; then the options as the hints value them, best first, the chosen marked."""
        from pinsetter.bots.hints import hint_words, no_hint_words, option_values

        deciding = self.whose(step.actor)
        chosen = state.game.action_words(state, step.text)
        found = option_values(state)
        if found is None:
            text = Text(_("{name} chose: {move}").format(name=deciding, move=chosen) + "\n", style="bold")
            return text.append(no_hint_words(state))
        name, label, values = found
        words = hint_words(state, name, values)
        picked = next((i for i, (action, _value) in enumerate(values) if str(action) == step.text), None)
        said = words[picked] if picked is not None else chosen
        text = Text(_("{name} chose: {move}").format(name=deciding, move=said) + "\n", style="bold")
        for index in range(min(8, len(words))):
            mark = "▸ " if index == picked else "  "
            line = mark + words[index] + (_(" (chosen)") if index == picked else "")
            text.append(line + "\n", style="bold" if index == picked else "")
        text.append(label, style="italic")
        return text

    # --- moving through the game ---------------------------------------------------------------
    def action_step(self, delta: int) -> None:
        self.at = min(max(self.at + delta, 0), len(self.states) - 1)
        self.show()

    def action_go(self, where: int) -> None:
        self.at = len(self.states) - 1 if where < 0 else where
        self.show()

    def action_frame(self, delta: int) -> None:
        """To the start of the next frame, or of this one (then the one before) going back."""
        self.at = self.jump(self.frames, delta)
        self.show()

    def action_decision(self, delta: int) -> None:
        """To the next (or previous) position at which a player decided."""
        if not self.decisions:
            self.notify(_("nobody decided anything in this game: chance played every step"))
            return
        self.at = self.jump(self.decisions, delta)
        self.show()

    def jump(self, marks: list[int], delta: int) -> int:
        last = len(self.states) - 1
        if delta > 0:
            later = [m for m in marks if m > self.at]
            return later[0] if later else last
        earlier = [m for m in marks if m < self.at]
        return earlier[-1] if earlier else 0

    def action_autoplay(self) -> None:
        """Play the game on by itself, a step at a time; again to stop. From the end it starts over."""
        if self.autoplay_timer is not None:
            self.stop_autoplay()
        else:
            if self.at >= len(self.states) - 1:
                self.at = 0
            self.start_autoplay()
        self.show()

    def start_autoplay(self) -> None:
        """A step every `autoplay_seconds`, from a timer whose ticks count only while it is the one running.

        Textual's interval timer, stopped inside its own callback (the last step stops it), can call
        it once more: when the next tick is due within half a millisecond its sleep does not wait, so
        the cancellation has nowhere to land (seen on a loaded machine, docs/tui.md). A tick of a
        timer that is no longer this screen's is ignored.
        """

        def tick() -> None:
            if self.autoplay_timer is timer:
                self.autoplay_step()

        timer = self.set_interval(self.autoplay_seconds, tick)
        self.autoplay_timer = timer

    def autoplay_step(self) -> None:
        if self.at >= len(self.states) - 1:
            self.stop_autoplay()
        else:
            self.at += 1
        self.show()

    def stop_autoplay(self) -> None:
        if self.autoplay_timer is not None:
            self.autoplay_timer.stop()
            self.autoplay_timer = None

    def action_hints(self) -> None:
        self.show_hints = not self.show_hints
        self.update_hint()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        moves = {
            "replay-first": lambda: self.action_go(0),
            "replay-frame-back": lambda: self.action_frame(-1),
            "replay-decision-back": lambda: self.action_decision(-1),
            "replay-back": lambda: self.action_step(-1),
            "replay-next": lambda: self.action_step(1),
            "replay-decision-next": lambda: self.action_decision(1),
            "replay-frame-next": lambda: self.action_frame(1),
            "replay-last": lambda: self.action_go(-1),
            "replay-autoplay": self.action_autoplay,
            "replay-close": self.action_back,
        }
        if event.button.id in moves:
            moves[event.button.id]()

    def action_back(self) -> None:
        self.stop_autoplay()
        self.app.pop_screen()


def sparkline(scores: list[int]) -> str:
    """Scores as bars, lowest to highest of these scores: the trend at a glance."""
    if not scores:
        return ""
    low, high = min(scores), max(scores)
    span = high - low or 1
    return "".join(BARS[round((s - low) * (len(BARS) - 1) / span)] for s in scores)


def stats_text(storage: Any, game: str, player: str | None, bots: bool = False) -> Text:
    """One game's statistics for one player (or everyone), a block per series, each with its personal bests.

    A series is the game with one set of options in play (5 frames, advanced...): `player_stats`.
    """
    from pinsetter.storage.stats import player_stats, too_few_for_range

    data = player_stats(storage, player, game, include_bots=bots)
    who = player or _("every player")
    text = Text()
    if data.get("entered_left_out"):
        text.append(
            ngettext(
                "({count} game with chance entered by hand left out)",
                "({count} games with chance entered by hand left out)",
                data["entered_left_out"],
            ).format(count=data["entered_left_out"])
            + "\n"
        )
    if data.get("bots_left_out"):
        text.append(
            ngettext("({count} bot score left out)", "({count} bot scores left out)", data["bots_left_out"]).format(
                count=data["bots_left_out"]
            )
            + "\n"
        )
    if not data["series"]:
        text.append(_("{game} - {who}").format(game=_(game_class(game).name), who=who) + "\n", style="bold")
        text.append(ngettext("{count} finished game", "{count} finished games", 0).format(count=0) + "\n")
    for number, block in enumerate(data["series"]):
        text.append(
            ("\n" if number else "") + _("{game} - {who}").format(game=block["title"], who=who) + "\n", style="bold"
        )
        text.append(
            ngettext("{count} finished game", "{count} finished games", block["games"]).format(count=block["games"])
            + "\n"
        )
        if block["results"] != block["games"]:
            text.append(
                ngettext(
                    "{count} score: every seat of every game",
                    "{count} scores: every seat of every game",
                    block["results"],
                ).format(count=block["results"])
                + "\n"
            )
        average = block["average"]
        ci = block["ci95"]
        if ci is None:  # too few scores: a range of 0 to the best possible score would say nothing
            text.append(
                _("average {average:.1f} ({interval})").format(average=average, interval=too_few_for_range()) + "\n"
            )
        else:
            text.append(
                _("average {average:.1f}, 95% CI {low:.1f} to {high:.1f}").format(
                    average=average, low=ci[0], high=ci[1]
                )
                + "\n"
            )
        text.append(_("best game {best}, worst {worst}").format(best=block["best"], worst=block["worst"]) + "\n")
        text.append(
            _("strikes in {strikes:.0%} of frames, spares in {spares:.0%} (every frame but the last)").format(
                strikes=block["strike_rate"], spares=block["spare_rate"]
            )
            + "\n"
        )
        recent = block["scores"][-20:]
        if block["trend_per_game"] is not None:  # one player's (everyone's scores make no trend)
            text.append(
                ngettext(
                    "trend {slope:+.1f} points a game over the last {count} game  {bars}",
                    "trend {slope:+.1f} points a game over the last {count} games  {bars}",
                    len(recent),
                ).format(slope=block["trend_per_game"], count=len(recent), bars=sparkline(recent))
                + "\n"
            )
        if "benchmark" in block:
            text.append(_("against the odds: {text}").format(text=block["benchmark"]["text"]) + "\n")
        text.append(_("personal bests") + "\n", style="bold")
        for place, row in enumerate(block["best_games"], start=1):
            text.append(f"{place}. {row['score']:>3}  {visible(row['name'])}  {row['date']}  (#{row['game_id']})\n")
    return text


class MarkedCheckbox(Checkbox):
    """A checkbox whose mark says on or off without colour, `[x]` or `[ ]` (NO_COLOR, monochrome).

    Textual's own box draws the same X either way and tells them apart by its colour alone.
    """

    DEFAULT_CSS = "MarkedCheckbox > .toggle--button { color: $foreground; }"  # Textual's off mark is all but unseen
    BUTTON_LEFT = ""
    BUTTON_RIGHT = ""
    BUTTON_INNER = "[ ]"

    def watch_value(self) -> None:
        self.BUTTON_INNER = "[x]" if self.value else "[ ]"
        super().watch_value()


class StatsScreen(EnterGuard, Screen[None]):
    """Statistics of one game for one player or everyone; a game is always chosen (never averaged together)."""

    BINDINGS: ClassVar[list[BindingType]] = [GUARD_BINDING, Binding("escape", "back", N_("Back"))]

    def __init__(self, storage: Any, game: str | None = None, player: str = "") -> None:
        super().__init__()
        translate_bindings(self)
        self.storage = storage
        game_class("tenpins")
        self.game = game if game is not None and game in GAMES else sorted(GAMES)[0]
        self.player = player
        self.bots = False  # bots' scores count only when asked for

    def players(self) -> list[str]:
        """The names with results in this game (bots' only when their scores count)."""
        from pinsetter.storage.stats import HUMAN

        if self.storage is None:
            return []
        try:
            rows = self.storage.results_for(None, self.game)
        except Exception:
            return []
        return sorted({str(r["name"]) for r in rows if self.bots or r["kind"] == HUMAN})

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(classes="row", id="stats-filters"):  # one under the other below NARROW columns
            with Horizontal(classes="filter"):
                yield Label(_("Game"))
                yield Select(
                    [(_(GAMES[gid].name), gid) for gid in sorted(GAMES)],
                    value=self.game,
                    allow_blank=False,
                    id="stats-game",
                    compact=True,
                )
            with Horizontal(classes="filter"):
                yield Label(_("Player"))
                yield Select([], prompt=_("every player"), id="stats-player", allow_blank=True, compact=True)
        yield MarkedCheckbox(_("Count the bots' scores"), self.bots, id="stats-bots", compact=True)  # a line of its own
        with VerticalScroll(id="stats-body"):
            yield WrappedText(id="stats-text")  # Japanese wrapped by its rules, at the screen's width
        with Horizontal(classes="row"):
            yield Button(_("Back"), id="stats-back", compact=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.guard_from_now()
        fit_screen(self, *self.app.size)
        self.title = _("pinsetter - statistics")
        self.refresh_players()
        self.refresh_stats()
        self.query_one("#stats-game", Select).focus()

    def on_resize(self, event: Any) -> None:
        fit_screen(self, event.size.width, event.size.height)

    def refresh_players(self) -> None:
        select = self.query_one("#stats-player", Select)
        names = self.players()
        select.set_options([(Text(n), n) for n in names])
        if self.player in names:
            select.value = self.player

    def refresh_stats(self) -> None:
        body = self.query_one("#stats-text", WrappedText)
        if self.storage is None:
            body.show(Text(_("games are not kept in the history (it could not be opened)"), style="yellow"))
            return
        try:
            text = stats_text(self.storage, self.game, self.player or None, self.bots)
            text.rstrip()  # no empty line above the Back button
            body.show(text)
        except Exception as exc:
            body.show(Text(_("the statistics cannot be read: {reason}").format(reason=first_line(exc)), style="red"))

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "stats-game" and event.value != self.game:
            self.game = str(event.value)
            self.player = ""
            self.refresh_players()
            self.refresh_stats()
        elif event.select.id == "stats-player":
            self.player = "" if event.value == Select.NULL else str(event.value)
            self.refresh_stats()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        if event.checkbox.id == "stats-bots":
            self.bots = event.value
            self.refresh_players()
            self.refresh_stats()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "stats-back":
            self.action_back()

    def action_back(self) -> None:
        self.app.pop_screen()
