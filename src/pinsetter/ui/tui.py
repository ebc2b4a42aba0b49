"""The full-screen terminal interface (Textual): a launcher and one game screen for every game.

It is a client of the game API, the bots and the hints: every move goes through
`Match.apply` (and undo through `Match.undo`), so it holds no rule of its own.
Pictures of the table (pins, dice, piles) are drawn from the state's public view.
Names and other text from users are always shown literally (rich `Text`, never
markup). The program ends cleanly however its terminal goes: on SIGHUP or
SIGTERM, or when the terminal is found hung up, the game is kept and the
program exits (`TerminalWatch`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any, ClassVar, cast

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import (
    Button,
    Footer,
    Header,
    Input,
    Label,
    ListItem,
    ListView,
    OptionList,
    RichLog,
    Select,
    Static,
    Switch,
)
from textual.widgets.option_list import Option

from pinsetter.bots.base import bot_names
from pinsetter.bots.hints import option_values
from pinsetter.core.game import GameError
from pinsetter.core.table import TableView
from pinsetter.games.registry import GAMES, game_class
from pinsetter.records import PlayerSpec
from pinsetter.session import Match
from pinsetter.ui.sheet import render_sheets
from pinsetter.ui.table_text import abilities_help, draw_table
from pinsetter.usertext import BIDI_CONTROLS, visible

SPEEDS = (0.0, 0.15, 0.4, 0.8)  # seconds between automatic steps
HANGUP_STATUS = 128 + 1  # the exit status when the terminal is gone, as if killed by SIGHUP


def draw_seed() -> int:
    """A fresh seed for the launcher's next game: short enough to note down and type again."""
    return random.SystemRandom().randrange(10**6)


# --- the sheet -------------------------------------------------------------------------------


def highlight_frame(sheet: Text, names: list[str], frames: int, player: int, frame: int | None) -> None:
    """Colour the frame being played in the player's two rows of a `render_sheets` sheet."""
    if frame is None:
        return
    lines = sheet.plain.split("\n")
    name_width = max([len(n) for n in names] + [6])
    widths = [7 if n == frames else 5 for n in range(1, frames + 1)]
    column = name_width + 2 + sum(w + 1 for w in widths[: frame - 1])
    offset = 0
    for number, line in enumerate(lines):
        if number in (2 + 3 * player, 3 + 3 * player):  # after the header and the top rule
            sheet.stylize("bold black on yellow", offset + column, offset + column + widths[frame - 1])
        offset += len(line) + 1


# --- screens -------------------------------------------------------------------------------


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark", "dismiss", "Close")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(self.text + KEYS_HELP, markup=False)
            yield Button("Close", id="close-help")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss()


KEYS_HELP = """
Keys: choose an action from the list (arrows + Enter, or click), or type it.
  Rolling Pins: 1-9 and 0 toggle pins, Enter crosses them (tokens are counted
  for you), m misses.  Solitaire: p picks the next pile, 1-9 and 0 toggle pins,
  Enter plays them, s stops the ball.  Dice games: space rolls.
  h hints, u undo (until chance reveals something), [ and ] change the pace,
  ? help, q back to the launcher.
"""


class GameScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "roll", "Roll/step"),
        Binding("h", "toggle_hint", "Hint"),
        Binding("u", "undo", "Undo"),
        Binding("m", "miss", "Miss", show=False),
        Binding("s", "stop", "Stop", show=False),
        Binding("p", "next_pile", "Pile", show=False),
        Binding("left_square_bracket", "slower", "Slower"),
        Binding("right_square_bracket", "faster", "Faster"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "leave", "Quit"),
        *[Binding(str(d), f"toggle_pin({d if d else 10})", show=False) for d in range(10)],
    ]

    def __init__(self, match: Match, speed: int = 1) -> None:
        super().__init__()
        self.match = match
        self.speed = speed
        self.selected: set[int] = set()
        self.pile: int | None = None
        self.show_hint = False
        self.message = ""
        self.tick_pending = False

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="sheet")
        with Horizontal():
            with Vertical(id="left"):
                yield Static(id="status")
                yield Static(id="table")
                yield Label("actions (Enter or click):")
                yield OptionList(id="actions")
                yield Input(placeholder="or type an action, e.g. dice 2, cross 2+5, 3:4+5, stop", id="command")
            with Vertical(id="right"):
                yield Static(id="hint")
                yield RichLog(id="log", max_lines=200, wrap=True)
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"pinsetter - {self.match.game.name}"
        self.sub_title = f"seed {self.match.seed}"
        self.log_line(f"{self.match.game.name}, seed {self.match.seed}")
        warning = getattr(self.app, "storage_warning", "")
        if warning:
            self.log_line(Text(f"warning: {warning}", style="yellow"))
        self.refresh_all()

    # --- the automatic pace ------------------------------------------------------------
    def schedule(self) -> None:
        """Play the next automatic step after the pace's delay; nothing runs while a human is to act."""
        if not self.tick_pending and self.automatic_next():
            self.tick_pending = True
            self.set_timer(max(SPEEDS[self.speed], 0.01), self.tick)

    def automatic_next(self) -> bool:
        """Whether the next step is played without a human: chance (but a human's own roll) or a bot."""
        state = self.match.state
        if state.is_terminal():
            return False
        human_roll = (
            state.is_chance_node() and self.match.players[state.turn()].is_human and not state.game.has_decisions
        )
        return not human_roll and (state.is_chance_node() or self.match.is_bot_turn())

    def tick(self) -> None:
        self.tick_pending = False
        if self.automatic_next():
            self.step_auto()
            self.refresh_all()  # which schedules the next step

    def step_auto(self) -> None:
        state = self.match.state
        who = self.match.players[state.turn()].name
        if state.is_chance_node():
            step = self.match.draw_chance()
            verb = self.table_view().roll_label.lower() or "chance"
            self.match.apply(step)
            self.log_line(f"{who}: {verb} {step}")
        else:
            step = self.match.bot_action()
            self.match.apply(step)
            self.log_line(f"{who} plays {step}")

    # --- drawing -------------------------------------------------------------------------
    def log_line(self, line: str | Text) -> None:
        """One line in the log, shown literally (names in it are never markup)."""
        self.query_one("#log", RichLog).write(Text(line) if isinstance(line, str) else line)

    def refresh_all(self) -> None:
        state = self.match.state
        names = [p.name for p in self.match.players]
        current = [ctx.frame if (ctx := state.ball_context(p)) else None for p in range(state.num_players)]
        sheets = [state.scoresheet(p) for p in range(state.num_players)]
        sheet = Text(render_sheets(names, sheets, state.game.lane.frames, current))
        if not state.is_terminal():
            highlight_frame(sheet, names, state.game.lane.frames, state.turn(), current[state.turn()])
        self.query_one("#sheet", Static).update(sheet)
        self.query_one("#table", Static).update(draw_table(self.table_view(), self.selected, self.pile))
        self.query_one("#status", Static).update(self.status_text())
        actions = self.query_one("#actions", OptionList)
        actions.clear_options()
        if self.human_to_act():
            actions.add_options([Option(str(a), id=str(a)) for a in state.legal_actions()])
            actions.highlighted = 0
        elif state.is_chance_node() and not state.game.has_decisions and not state.is_terminal():
            actions.add_option(Option("roll (space)", id="roll"))
            actions.highlighted = 0
        hint = self.query_one("#hint", Static)
        hint.update(self.hint_text() if self.show_hint else "")
        self.schedule()  # after every change: the automatic steps go on, if any are due

    def table_view(self) -> TableView:
        """The game's own picture of the table for the player up (core/table.py)."""
        last_chance = next((s.text for s in reversed(self.match.record.steps) if s.actor is None), "")
        return self.match.game.table(self.match.state, [p.name for p in self.match.players], last_chance)

    def status_text(self) -> Text:
        state = self.match.state
        text = Text()
        if state.is_terminal():
            text.append("Game over. ", style="bold green")
            text.append(self.final_words())
            return text
        player = state.turn()
        ctx = state.ball_context(player)
        assert ctx is not None
        text.append(f"{self.match.players[player].name}", style="bold")
        text.append(f" - frame {ctx.frame}, ball {ctx.ball}")
        if self.human_to_act():
            text.append("  your move", style="bold yellow")
        if self.message:
            text.append(f"\n{self.message}", style="red")
        return text

    def final_words(self) -> str:
        return " ".join(self.match.ending_lines())

    def hint_text(self) -> Text:
        state = self.match.state
        text = Text("hints\n", style="bold")
        if not self.human_to_act():
            return text.append("(no decision now)")
        found = option_values(state)
        if found is None:
            return text.append("no hints for this position")
        _, label, values = found
        text.append(f"{label}\n", style="italic")
        for action, value in values[:12]:
            text.append(f"{value:9.3f}  {action}\n")
        return text

    def human_to_act(self) -> bool:
        state = self.match.state
        return not state.is_terminal() and not state.is_chance_node() and not self.match.is_bot_turn()

    # --- input -----------------------------------------------------------------------------
    def play_text(self, text: str) -> None:
        state = self.match.state
        if not self.human_to_act():
            return
        try:
            step = state.game.parse_action(text)
            who = self.match.players[state.turn()].name
            self.match.apply(step)
        except GameError as exc:
            self.message = str(exc)
            self.log_line(f"refused: {exc}")
        else:
            self.message = ""
            self.log_line(f"{who} plays {step}")
            self.selected.clear()
            self.pile = None
        self.refresh_all()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id == "roll":
            self.action_roll()
        elif event.option.id is not None:
            self.play_text(event.option.id)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.input.value = ""
        if event.value.strip():
            self.play_text(event.value.strip())

    def action_roll(self) -> None:
        state = self.match.state
        if state.is_chance_node() and not state.is_terminal():
            self.step_auto()
            self.refresh_all()
        elif self.selected:
            self.confirm_selection()

    def action_toggle_pin(self, pin: int) -> None:
        if not self.human_to_act() or pin > self.match.game.lane.pins:
            return
        self.selected ^= {pin}
        self.refresh_all()

    def action_next_pile(self) -> None:
        piles = [p.number for p in self.table_view().piles if p.top is not None]
        if piles:
            self.pile = piles[(piles.index(self.pile) + 1) % len(piles)] if self.pile in piles else piles[0]
        self.refresh_all()

    def confirm_selection(self) -> None:
        """The picked pins (and pile) become an action through the game's presentation; the engine judges it."""
        try:
            text = self.match.game.selection_action(self.match.state, frozenset(self.selected), self.pile)
        except GameError as exc:
            self.message = str(exc)
            self.refresh_all()
            return
        self.play_text(text)

    def on_key(self, event: Any) -> None:
        if event.key == "enter" and self.selected and not isinstance(self.focused, Input):
            event.stop()
            self.confirm_selection()

    def action_miss(self) -> None:
        self.play_if_offered("miss")

    def action_stop(self) -> None:
        self.play_if_offered("stop")

    def play_if_offered(self, action: str) -> None:
        """A shortcut key for a plain choice, where the table offers it."""
        if self.human_to_act() and any(c.action == action for c in self.table_view().choices):
            self.play_text(action)

    def action_toggle_hint(self) -> None:
        self.show_hint = not self.show_hint
        self.refresh_all()

    def action_slower(self) -> None:
        self.speed = min(self.speed + 1, len(SPEEDS) - 1)

    def action_faster(self) -> None:
        self.speed = max(self.speed - 1, 0)

    def action_help(self) -> None:
        explained = abilities_help(self.table_view())
        extra = f"\n\nAbilities:\n{explained}" if explained else ""
        self.app.push_screen(HelpScreen(self.match.game.rules() + extra))

    def action_undo(self) -> None:
        """Take back the last decision if the match's rule allows it (`Match.can_undo`), or say why not."""
        reason = self.match.can_undo()
        if reason is not None:
            self.message = f"cannot undo: {reason}"
        else:
            taken = self.match.undo()
            self.message = ""
            self.log_line(f"undo: {taken} step(s) taken back")
        self.selected.clear()
        self.pile = None
        self.refresh_all()

    def action_leave(self) -> None:
        self.match.store()
        self.app.pop_screen()


# A player name holds no control character (C0, DEL, C1) nor bidirectional control (pinsetter.usertext).
NAME_TEXT = "[^\x00-\x1f\x7f-\x9f" + "".join(sorted(BIDI_CONTROLS)) + "]*"
CONTROL_REFUSED = "a player name cannot hold control characters (terminal escapes, tabs, direction marks)"


class NameInput(Input):
    """The player-name field: control characters typed or pasted into it are refused, with a message."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(restrict=NAME_TEXT, **kwargs)

    def restricted(self) -> None:
        self.app.bell()
        with contextlib.suppress(Exception):  # the field outside the launcher (never, today)
            self.screen.query_one("#launch-message", Static).update(Text(CONTROL_REFUSED, style="red"))


class Launcher(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+r", "play", "Play", show=True),
        Binding("escape", "app.quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        game_class("tenpins")
        yield Header()
        with Horizontal():
            with Vertical(id="games-pane"):
                yield Label("Game")
                yield OptionList(
                    *[Option(f"{cls.name}\n  {cls.summary}", id=gid) for gid, cls in sorted(GAMES.items())],
                    id="games",
                )
                yield Label("Resume an unfinished game")
                yield OptionList(id="resume")
                yield Static(id="resume-message")
            with VerticalScroll(id="setup"):
                yield Static(id="history-warning")
                yield Label("Players (in turn order)")
                yield ListView(id="players")
                with Horizontal(classes="row"):
                    yield NameInput(placeholder="name", id="player-name")
                    yield Select([], prompt="human", id="player-kind", allow_blank=True)
                with Horizontal(classes="row"):
                    yield Button("Add", id="add-player")
                    yield Button("Remove", id="remove-player")
                    yield Button("Up", id="up-player")
                yield Label("Options")
                yield Vertical(id="game-options")
                yield Label("Seed (shown so that a game can be replayed)")
                yield Input(str(draw_seed()), id="seed")
                yield Label("Undo")
                yield Select(
                    [("on for one human (alone or with bots)", "auto"), ("always on", "on"), ("off", "off")],
                    value="auto",
                    allow_blank=False,
                    id="undo",
                )
                yield Button("Play", id="play", variant="primary")
                yield Static(id="launch-message")
        yield Footer()

    async def on_mount(self) -> None:
        self.seats: list[PlayerSpec] = [PlayerSpec("you")]
        self.game_id = "tenpins"
        games = self.query_one("#games", OptionList)
        games.highlighted = sorted(GAMES).index(self.game_id)
        self.refresh_players()
        self.refresh_kinds()
        await self.refresh_options()
        self.refresh_resume()
        warning = getattr(self.app, "storage_warning", "")
        if warning:
            self.query_one("#history-warning", Static).update(Text(f"warning: {warning}", style="bold yellow"))
        games.focus()

    def refresh_players(self) -> None:
        view = self.query_one("#players", ListView)
        view.clear()
        for seat in self.seats:
            view.append(ListItem(Label(Text(f"{seat.name} ({'human' if seat.is_human else 'bot: ' + seat.kind})"))))

    def refresh_kinds(self) -> None:
        kinds = self.query_one("#player-kind", Select)
        kinds.set_options([(f"bot: {b}", b) for b in bot_names(self.game_id)])

    def refresh_resume(self) -> None:
        """The unfinished games of the history; a history that cannot be read is reported, not fatal."""
        resume = self.query_one("#resume", OptionList)
        resume.clear_options()
        storage = self.app_storage()
        if storage is None:
            return
        try:
            stored_games = storage.history(limit=50)
        except Exception as exc:  # a record the history holds but no longer accepts, or a database error
            self.resume_problem(exc)
            return
        for stored in stored_games:
            if not stored.finished:
                names = ", ".join(p.name for p in stored.record.players)
                label = Text(f"#{stored.id} {stored.game} - {names} ({stored.steps} steps)")
                resume.add_option(Option(label, id=str(stored.id)))
        if resume.option_count:
            resume.highlighted = 0

    def resume_problem(self, exc: Exception) -> None:
        text = visible(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        self.query_one("#resume-message", Static).update(Text(f"cannot resume from the history: {text}", style="red"))

    def app_storage(self) -> Any:
        return getattr(self.app, "storage", None)

    async def refresh_options(self) -> None:
        """One widget per option of the game: a switch, a choice, or a text field."""
        box = self.query_one("#game-options", Vertical)
        await box.remove_children()
        widgets: list[Any] = []
        for spec in game_class(self.game_id).option_specs:
            widgets.append(Label(Text(f"{spec.name}: {spec.help}"), classes="option-help"))
            if isinstance(spec.default, bool):
                widgets.append(Switch(value=spec.default, id=f"opt-{spec.name}"))
            elif spec.choices:
                choices = [(c, c) for c in spec.choices]
                widgets.append(Select(choices, value=str(spec.default), allow_blank=False, id=f"opt-{spec.name}"))
            else:
                widgets.append(Input(placeholder=f"default: {spec.default}", id=f"opt-{spec.name}"))
        await box.mount(*widgets)

    def chosen_options(self) -> dict[str, object]:
        """The options set away from their defaults, as text (validated by the game)."""
        options: dict[str, object] = {}
        for spec in game_class(self.game_id).option_specs:
            widget = self.query_one(f"#opt-{spec.name}")
            if isinstance(widget, Switch):
                if widget.value != spec.default:
                    options[spec.name] = "true" if widget.value else "false"
            elif isinstance(widget, Select):
                if widget.value != str(spec.default):
                    options[spec.name] = str(widget.value)
            elif isinstance(widget, Input) and widget.value.strip():
                options[spec.name] = widget.value.strip()
        return options

    async def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "games" and event.option.id and event.option.id != self.game_id:
            self.game_id = event.option.id
            self.refresh_kinds()
            await self.refresh_options()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "games" and event.option.id:
            self.game_id = event.option.id
            self.action_play()
        elif event.option_list.id == "resume" and event.option.id:
            storage = self.app_storage()
            try:
                stored = storage.get(int(event.option.id)) if storage else None
                match = Match.resume(stored.record) if stored is not None else None
            except Exception as exc:  # the stored record no longer replays, or the database failed
                self.resume_problem(exc)
                return
            if match is not None:
                self.start(match)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button.id
        if button == "play":
            self.action_play()
        elif button == "add-player":
            name = self.query_one("#player-name", Input).value.strip()
            kind = self.query_one("#player-kind", Select).value
            kind_text = kind if isinstance(kind, str) else "human"
            name = name or (kind_text if kind_text != "human" else f"player {len(self.seats) + 1}")
            if any(s.name == name for s in self.seats):
                name = f"{name}-{len(self.seats) + 1}"
            message = self.query_one("#launch-message", Static)
            try:
                seat = PlayerSpec(name, kind_text)
            except ValueError as exc:  # the name policy (pinsetter.usertext): e.g. a control character
                message.update(Text(f"{exc}; the player was not added", style="red"))
                self.query_one("#player-name", Input).value = ""  # never left on screen as it is
                return
            message.update("")
            self.seats.append(seat)
            self.query_one("#player-name", Input).value = ""
            self.query_one("#player-kind", Select).clear()
            self.refresh_players()
        elif button == "remove-player":
            index = self.query_one("#players", ListView).index
            if index is not None and len(self.seats) > 1:
                del self.seats[index]
                self.refresh_players()
        elif button == "up-player":
            index = self.query_one("#players", ListView).index
            if index:
                self.seats[index - 1], self.seats[index] = self.seats[index], self.seats[index - 1]
                self.refresh_players()

    def action_play(self) -> None:
        message = self.query_one("#launch-message", Static)
        options = self.chosen_options()
        try:
            seed = int(self.query_one("#seed", Input).value)
            match = Match.new(self.game_id, list(self.seats), seed=seed, options=options)
        except (GameError, ValueError) as exc:
            message.update(Text(str(exc), style="red"))
            return
        message.update("")
        self.query_one("#seed", Input).value = str(draw_seed())  # the next game gets new dice
        self.start(match)

    def start(self, match: Match) -> None:
        match.storage = self.app_storage()
        match.store()
        setting = self.query_one("#undo", Select).value
        if setting != "auto":  # "auto" is the match's default: on for one human, alone or with bots
            match.undo_allowed = setting == "on"
        self.app.push_screen(GameScreen(match, speed=getattr(self.app, "speed", 1)))

    def on_screen_resume(self) -> None:
        self.refresh_resume()


class PinsetterApp(App[None]):
    TITLE = "pinsetter"
    CSS = """
    #left { width: 1fr; padding: 0 1; }
    #right { width: 1fr; padding: 0 1; }
    #table { height: auto; min-height: 8; border: round $primary; padding: 0 1; }
    #status { height: auto; }
    #actions { height: 10; }
    #sheet { height: auto; }
    #hint { height: auto; }
    #log { height: 1fr; border: round $secondary; }
    #games-pane { width: 1fr; }
    #games { height: auto; max-height: 14; }
    #resume { height: 8; }
    #setup { width: 1fr; padding: 0 1; }
    #players { height: 6; border: round $secondary; }
    .row { height: auto; }
    #player-name { width: 1fr; }
    #player-kind { width: 28; }
    #undo { width: 44; }
    #game-options { height: auto; }
    #game-options Input, #game-options Select { width: 60; }
    .option-help { color: $text-muted; }
    .row Button { margin-right: 1; }
    #help { padding: 1 2; background: $panel; border: round $primary; margin: 2 4; }
    #history-warning { height: auto; }
    #resume-message { height: auto; }
    """

    def __init__(self, storage: Any = None, speed: int = 1, storage_warning: str = "", guard: bool = False) -> None:
        """`storage_warning`: why there is no history (shown; games play on). `guard`: watch the
        real terminal and the signals that end the program (`run_tui`; never in tests' pilots)."""
        super().__init__(driver_class=guarded_driver() if guard else None)
        self.storage = storage
        self.speed = speed
        self.storage_warning = storage_warning
        self.guard = guard
        self.terminal_watch: TerminalWatch | None = None

    @classmethod
    def open(cls, db: str | None = None, **kwargs: Any) -> PinsetterApp:
        """The app on the history at `db` (default: PINSETTER_DB); without one, it warns and plays on."""
        from pinsetter.storage import Storage

        try:
            return cls(storage=Storage(db), **kwargs)
        except Exception as exc:  # any driver or migration failure, as `pinsetter play` does
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            return cls(storage=None, storage_warning=f"games are not kept in the history ({visible(first)})", **kwargs)

    def on_mount(self) -> None:
        self.push_screen(Launcher())
        if self.guard and not self.is_headless:
            self.guard_terminal()

    def guard_terminal(self) -> None:
        """End cleanly on SIGHUP/SIGTERM and when the terminal is gone, keeping the game."""
        loop = asyncio.get_running_loop()
        for name in ("SIGHUP", "SIGTERM"):
            number = getattr(signal, name, None)
            if number is not None:
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # none on Windows
                    loop.add_signal_handler(number, self.leave_now, 128 + int(number))

        def lost() -> None:
            with contextlib.suppress(RuntimeError):  # the loop is already closed: the app is ending anyway
                loop.call_soon_threadsafe(self.leave_now, HANGUP_STATUS)

        if sys.__stdin__ is not None and sys.__stdin__.isatty():
            self.terminal_watch = TerminalWatch(sys.__stdin__.fileno(), lost)
            self.terminal_watch.start()

    def keep_games(self) -> None:
        """Save the game being played to the history now (every step is already saved as it is played)."""
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                # The terminal may be gone: there is nowhere to report a failure, and leaving matters more.
                with contextlib.suppress(Exception):
                    screen.match.store()

    def leave_now(self, status: int) -> None:
        """The terminal is gone or the program was told to stop: keep the game, then end."""
        self.keep_games()
        self.exit(return_code=status)


class TerminalWatch:
    """Ends the program when its terminal is gone: a closed window or a lost connection.

    A closed terminal is hung up: reading it gives end-of-file and its writes and ioctls
    fail with EIO. A program that is not the terminal's session leader (`make play` runs it
    under make) gets no SIGHUP, and Textual's input thread takes end-of-file for "no input
    yet" and spins on it: so the terminal is checked twice a second and, once it is gone,
    `on_lost` is called. Should the app still not have ended after `grace` seconds, the
    process exits anyway; the history already holds every step played.
    """

    def __init__(self, fd: int, on_lost: Callable[[], None], interval: float = 0.5, grace: float = 10.0) -> None:
        self.fd = fd
        self.on_lost = on_lost
        self.interval = interval
        self.grace = grace
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, name="pinsetter-terminal-watch", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopped.set()

    def run(self) -> None:
        while not self.stopped.wait(self.interval):
            if not terminal_alive(self.fd):
                self.on_lost()
                if not self.stopped.wait(self.grace):
                    os._exit(HANGUP_STATUS)
                return


class TerminalOutput:
    """The terminal's output stream, dropping what it cannot write once the terminal is gone.

    Textual writes from a thread through a short queue: an EIO from a hung-up terminal
    would end that thread, the queue would fill, and the app would block on its next
    write, unable even to exit.
    """

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return int(self.stream.write(text))
            except (OSError, ValueError):  # EIO, or the stream is closed
                self.gone = True
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self.stream.flush()
            except (OSError, ValueError):
                self.gone = True

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def guarded_driver() -> Any:
    """Textual's terminal driver with its output through `TerminalOutput` (None: Textual's choice)."""
    if sys.platform == "win32":
        return None
    from textual.drivers.linux_driver import LinuxDriver

    class GuardedDriver(LinuxDriver):
        def __init__(self, app: Any, **kwargs: Any) -> None:
            super().__init__(app, **kwargs)
            if getattr(self, "_file", None) is not None:  # the stream Textual's writer thread uses
                self._file = cast(Any, TerminalOutput(self._file))

    return GuardedDriver


def terminal_alive(fd: int) -> bool:
    """Whether `fd` is still a working terminal (a hung-up one fails every ioctl with EIO)."""
    import termios

    try:
        termios.tcgetattr(fd)
    except (termios.error, OSError):
        return False
    return True


def run_tui(db: str | None = None) -> None:
    """The full-screen interface on the real terminal; exits with 129 (hang-up) or 143 (SIGTERM) when so ended."""
    app = PinsetterApp.open(db, guard=True)
    try:
        app.run()
    finally:
        if app.terminal_watch is not None:
            app.terminal_watch.stop()
    if app.return_code:
        raise SystemExit(app.return_code)
