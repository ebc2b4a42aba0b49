"""History and statistics inside the terminal interface: past games, one replayed step by step, statistics.

Everything comes from the storage layer (`Storage.history`, `storage.stats.player_stats`) and the
engine (a past game is replayed by applying its recorded steps); nothing here knows a game's rules.
Statistics are always of one game: different games' scores are never averaged together.
"""

from __future__ import annotations

from typing import Any, ClassVar

import sqlalchemy as sa
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Header, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from pinsetter.catalog import game_title
from pinsetter.games.registry import GAMES, game_class
from pinsetter.i18n import N_, _
from pinsetter.records import game_played
from pinsetter.ui.sheet import fit_names, render_sheets, sheet_width
from pinsetter.ui.table_text import draw_table
from pinsetter.ui.tui import GUARD_BINDING, EnterGuard, replay_lines, resume_summary, translate_bindings
from pinsetter.usertext import visible

__all__ = ["HistoryScreen", "ReplayScreen", "StatsScreen", "readable_history", "sparkline"]

ALL = "all"
BARS = "▁▂▃▄▅▆▇█"


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
    else:
        where = _("{summary} (unfinished)").format(summary=resume_summary(stored.record))
    game = game_title(stored.game, stored.record.options)
    return Text(f"#{stored.id} {stored.created[:16].replace('T', ' ')} {game}: {where}")


class HistoryScreen(EnterGuard, Screen[None]):
    """Past games, filtered by game and by player; Enter (or a click) opens one to replay."""

    BINDINGS: ClassVar[list[BindingType]] = [
        GUARD_BINDING,
        Binding("escape", "back", N_("Back")),
        Binding("f3", "statistics", N_("Statistics")),
    ]

    def __init__(self, storage: Any, game: str | None = None, player: str = "") -> None:
        super().__init__()
        translate_bindings(self)
        self.storage = storage
        self.game = game
        self.player = player

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
        yield Label(_("Past games, newest first (Enter or a click replays one)"))
        yield OptionList(id="history-list")
        yield Static(id="history-notes")
        with Horizontal(classes="row"):
            yield Button(_("Statistics"), id="history-stats", compact=True)
            yield Button(_("Back"), id="history-back", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.guard_from_now()
        self.title = _("pinsetter - history")
        self.refresh_list()
        self.query_one("#history-list", OptionList).focus()

    def on_screen_resume(self) -> None:
        self.guard_from_now()

    def refresh_list(self) -> None:
        listing = self.query_one("#history-list", OptionList)
        notes = self.query_one("#history-notes", Static)
        listing.clear_options()
        if self.storage is None:
            notes.update(Text(_("games are not kept in the history (it could not be opened)"), style="yellow"))
            return
        found, problems = readable_history(self.storage, self.game, self.player or None)
        for stored in found:
            listing.add_option(Option(history_label(stored), id=str(stored.id)))
        if listing.option_count:
            listing.highlighted = 0
        lines = [Text(p, style="red") for p in problems]
        if not found:
            lines.insert(0, Text(_("no game found")))
        notes.update(Text("\n").join(lines))

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
        if event.button.id == "history-stats":
            self.action_statistics()
        elif event.button.id == "history-back":
            self.action_back()

    def action_statistics(self) -> None:
        self.app.push_screen(StatsScreen(self.storage, self.game, self.player))

    def action_back(self) -> None:
        self.app.pop_screen()


class ReplayScreen(EnterGuard, Screen[None]):
    """A past game: its sheets, table and log at any step; it opens at the end, stepped with the arrows."""

    BINDINGS: ClassVar[list[BindingType]] = [
        GUARD_BINDING,
        Binding("left,p", "step(-1)", N_("Back a step")),
        Binding("right,n,space", "step(1)", N_("Next step")),
        Binding("home", "go(0)", N_("Start")),
        Binding("end", "go(-1)", N_("End")),
        Binding("escape,q", "back", N_("Back")),
    ]

    def __init__(self, stored: Any) -> None:
        super().__init__()
        translate_bindings(self)
        self.stored = stored
        record = stored.record
        self.names = [p.name for p in record.players]
        self.game = game_played(record.game, record.options)
        self.states, self.lines = replay_lines(self.game, record.players, record.steps)
        self.steps = record.steps
        self.at = len(self.states) - 1  # opens on the game as it was stored

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="replay-sheet")
        with Horizontal(id="main"):
            with VerticalScroll(id="left"):
                yield Static(id="replay-table")
            with Vertical(id="right"):
                yield Static(id="replay-status")
                with Horizontal(classes="row", id="replay-buttons"):
                    yield Button("|<", id="replay-first", compact=True)
                    yield Button("<", id="replay-back", compact=True)
                    yield Button(">", id="replay-next", compact=True)
                    yield Button(">|", id="replay-last", compact=True)
                    yield Button(_("Back"), id="replay-close", compact=True)
                with VerticalScroll(id="log"):
                    yield Static(id="replay-log")
        yield Footer()

    def on_mount(self) -> None:
        self.guard_from_now()
        self.title = _("pinsetter - game #{id}, {game}").format(id=self.stored.id, game=_(self.game.name))
        self.sub_title = _("seed {seed}").format(seed=self.stored.record.seed)
        self.set_class(self.app.size.height < 32, "short")
        self.set_class(self.app.size.width < 76, "narrow")
        self.show()
        self.query_one("#replay-back", Button).focus()

    def on_resize(self, event: Any) -> None:
        self.set_class(event.size.height < 32, "short")
        self.set_class(event.size.width < 76, "narrow")
        self.show()

    def show(self) -> None:
        """The position after `self.at` steps: sheets, table, where it stands, and the log so far."""
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
        self.query_one("#replay-table", Static).update(draw_table(view))
        status = Text(_("step {at} of {total}").format(at=self.at, total=len(self.states) - 1), style="bold")
        if self.at:
            status.append("\n" + self.lines[self.at - 1])
        if state.is_terminal():
            scores = ", ".join(f"{n} {s}" for n, s in zip(self.names, state.scores(), strict=True))
            status.append("\n" + _("game over: {scores}").format(scores=scores))
        elif len(self.states) - 1 < len(self.steps) and self.at == len(self.states) - 1:
            status.append("\n" + self.lines[-1], style="red")
        else:
            status.append("\n" + view.status)
        status.append("\n" + _("left/right a step, Home/End the start/end, Escape back"), style="dim")
        self.query_one("#replay-status", Static).update(status)
        self.query_one("#replay-log", Static).update(Text("\n").join(Text(line) for line in self.lines[: self.at]))
        self.call_after_refresh(self.query_one("#log", VerticalScroll).scroll_end, animate=False)

    def action_step(self, delta: int) -> None:
        self.at = min(max(self.at + delta, 0), len(self.states) - 1)
        self.show()

    def action_go(self, where: int) -> None:
        self.at = len(self.states) - 1 if where < 0 else where
        self.show()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        moves = {
            "replay-first": ("go", 0),
            "replay-back": ("step", -1),
            "replay-next": ("step", 1),
            "replay-last": ("go", -1),
        }
        if event.button.id == "replay-close":
            self.action_back()
        elif event.button.id in moves:
            kind, value = moves[event.button.id]
            (self.action_go if kind == "go" else self.action_step)(value)

    def action_back(self) -> None:
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
    from pinsetter.storage.stats import player_stats

    data = player_stats(storage, player, game, include_bots=bots)
    who = player or _("every player")
    text = Text()
    if data.get("entered_left_out"):
        text.append(
            _("({count} game(s) with chance entered by hand left out)").format(count=data["entered_left_out"]) + "\n"
        )
    if data.get("bots_left_out"):
        text.append(_("({count} bot score(s) left out)").format(count=data["bots_left_out"]) + "\n")
    if not data["series"]:
        text.append(_("{game} - {who}").format(game=_(game_class(game).name), who=who) + "\n", style="bold")
        text.append(_("{count} finished game(s)").format(count=0) + "\n")
    for number, block in enumerate(data["series"]):
        text.append(
            ("\n" if number else "") + _("{game} - {who}").format(game=block["title"], who=who) + "\n", style="bold"
        )
        text.append(_("{count} finished game(s)").format(count=block["games"]) + "\n")
        if block["results"] != block["games"]:
            text.append(_("{count} score(s): every seat of every game").format(count=block["results"]) + "\n")
        average = block["average"]
        ci = block["ci95"]
        if ci is None:
            text.append(
                _("average {average:.1f} (one game: no confidence interval yet)").format(average=average) + "\n"
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
                _("trend {slope:+.1f} points a game over the last {count} game(s)  {bars}").format(
                    slope=block["trend_per_game"], count=len(recent), bars=sparkline(recent)
                )
                + "\n"
            )
        if "benchmark" in block:
            text.append(_("against the odds: {text}").format(text=block["benchmark"]["text"]) + "\n")
        text.append(_("personal bests") + "\n", style="bold")
        for place, row in enumerate(block["best_games"], start=1):
            text.append(f"{place}. {row['score']:>3}  {visible(row['name'])}  {row['date']}  (#{row['game_id']})\n")
    return text


class StatsScreen(EnterGuard, Screen[None]):
    """Statistics of one game for one player or everyone; a game is always chosen (never averaged together)."""

    BINDINGS: ClassVar[list[BindingType]] = [GUARD_BINDING, Binding("escape", "back", N_("Back"))]

    def __init__(self, storage: Any, game: str | None = None, player: str = "") -> None:
        super().__init__()
        translate_bindings(self)
        self.storage = storage
        game_class("tenpins")
        self.game = game if game in GAMES else sorted(GAMES)[0]
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
        with Horizontal(classes="row", id="stats-filters"):
            yield Label(_("Game"))
            yield Select(
                [(_(GAMES[gid].name), gid) for gid in sorted(GAMES)],
                value=self.game,
                allow_blank=False,
                id="stats-game",
                compact=True,
            )
            yield Label(_("Player"))
            yield Select([], prompt=_("every player"), id="stats-player", allow_blank=True, compact=True)
            yield Checkbox(_("Count the bots' scores"), self.bots, id="stats-bots", compact=True)
        with VerticalScroll(id="stats-body"):
            yield Static(id="stats-text")
        with Horizontal(classes="row"):
            yield Button(_("Back"), id="stats-back", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.guard_from_now()
        self.title = _("pinsetter - statistics")
        self.refresh_players()
        self.refresh_stats()
        self.query_one("#stats-game", Select).focus()

    def refresh_players(self) -> None:
        select = self.query_one("#stats-player", Select)
        names = self.players()
        select.set_options([(Text(n), n) for n in names])
        if self.player in names:
            select.value = self.player

    def refresh_stats(self) -> None:
        body = self.query_one("#stats-text", Static)
        if self.storage is None:
            body.update(Text(_("games are not kept in the history (it could not be opened)"), style="yellow"))
            return
        try:
            body.update(stats_text(self.storage, self.game, self.player or None, self.bots))
        except Exception as exc:
            body.update(Text(_("the statistics cannot be read: {reason}").format(reason=first_line(exc)), style="red"))

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
