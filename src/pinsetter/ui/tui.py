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
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, ClassVar, cast

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.theme import Theme
from textual.widgets import (
    Button,
    Footer,
    Header,
    Input,
    Label,
    ListItem,
    ListView,
    OptionList,
    Select,
    Static,
    Switch,
)
from textual.widgets.option_list import Option

from pinsetter.bots.base import bot_names, bot_seat_name, bot_title
from pinsetter.bots.hints import hint_words, option_values
from pinsetter.catalog import game_title, option_words
from pinsetter.core.game import GameError, OptionSpec
from pinsetter.core.narration import narrate
from pinsetter.core.table import TableView
from pinsetter.games.registry import GAMES, game_class
from pinsetter.games.table_common import refusal_line
from pinsetter.i18n import N_, _, current_language, using_language
from pinsetter.records import PlayerSpec
from pinsetter.session import Match
from pinsetter.ui.rules_view import rules_rich
from pinsetter.ui.sheet import fit_names, frame_columns, render_sheets, sheet_width
from pinsetter.ui.table_text import abilities_help, draw_table
from pinsetter.usertext import BIDI_CONTROLS, check_new_name, name_key, visible

SPEEDS = (0.0, 0.15, 0.4, 0.8)  # seconds between automatic steps
ENTER_GUARD = 0.3  # seconds after a screen opens during which Enter is ignored (a held or doubled Enter)
HANGUP_STATUS = 128 + 1  # the exit status when the terminal is gone, as if killed by SIGHUP


def draw_seed() -> int:
    """A fresh seed for the launcher's next game: short enough to note down and type again."""
    return random.SystemRandom().randrange(10**6)


class EnterGuard:
    """Ignores an Enter pressed just after a screen opens: the Enter that opened it, repeated or doubled,
    must not be taken as a move or a choice on the new screen.

    A screen using it lists `GUARD_BINDING` in its BINDINGS and calls `guard_from_now()` when it
    is mounted and when it comes back to the top.
    """

    opened_at = 0.0

    def guard_from_now(self) -> None:
        self.opened_at = time.monotonic()

    def too_soon(self) -> bool:
        return time.monotonic() - self.opened_at < ENTER_GUARD

    def action_enter_guard(self) -> None:
        """Swallow the Enter while the guard lasts; otherwise let it through to the focused control."""
        if not self.too_soon():
            raise SkipAction()


GUARD_BINDING = Binding("enter", "enter_guard", show=False, priority=True)

# Textual's own words in the footer and the command palette's key (App adds that binding itself).
TEXTUAL_WORDS = (N_("palette"), N_("Open the command palette"))


def translate_bindings(node: Any) -> None:
    """The footer's key labels in the language of now, not of import time.

    The descriptions in BINDINGS are marked with `N_`; Textual copies a class's merged bindings
    into each instance (`_bindings`) when it is constructed, and the footer reads them there:
    so each screen (and the app) replaces its own copy with translated ones in `__init__`,
    after the command line or the test has chosen the language. Keys are never translated.
    """
    table = node._bindings.key_to_bindings
    for key, bindings in table.items():
        table[key] = [
            replace(b, description=_(b.description) if b.description else "", tooltip=_(b.tooltip) if b.tooltip else "")
            for b in bindings
        ]


# --- the sheet -------------------------------------------------------------------------------


def highlight_frame(
    sheet: Text, names: list[str], frames: int, player: int, frame: int | None, compact: bool = False
) -> None:
    """Colour the frame being played in the player's two rows of a `render_sheets` sheet."""
    if frame is None:
        return
    lines = sheet.plain.split("\n")
    column, width = frame_columns(names, frames, compact)[frame - 1]
    offset = 0
    for number, line in enumerate(lines):
        if number in (2 + 3 * player, 3 + 3 * player):  # after the header and the top rule
            start, end = _char_at(line, column), _char_at(line, column + width)  # cells to characters
            sheet.stylize("bold black on yellow", offset + start, offset + end)
        offset += len(line) + 1


def _char_at(line: str, cells: int) -> int:
    """The index of the character at terminal cell `cells` of `line` (a wide character, as in a name, takes two)."""
    used = 0
    for index, char in enumerate(line):
        if used >= cells:
            return index
        used += cell_len(char)
    return len(line)


def replay_lines(game: Any, players: list[PlayerSpec], steps: list[Any]) -> tuple[list[Any], list[str]]:
    """Every position of a recorded game (the start, then after each step) and its log in the game's words.

    The steps are re-applied by the engine; one it refuses ends the replay there, with a line saying why.
    """
    names = [p.name for p in players]
    state = game.new_state(len(players))
    states = [state.clone()]
    lines: list[str] = []
    for step in steps:
        before = state.clone()
        try:
            state.apply_by(step.actor, step.text)
        except GameError as exc:  # a stored record the engine no longer accepts: shown up to there
            lines.append(
                _("the record stops here: step {number} ({text}) is refused: {reason}").format(
                    number=len(states), text=step.text, reason=exc
                )
            )
            break
        lines.append(narrate(game, before, step.text, state, names, step.actor))
        states.append(state.clone())
    return states, lines


# --- screens -------------------------------------------------------------------------------


class RulesText(Static):
    """A game's rules (`Game.rules()`), wrapped by `rules_rich` at the widget's width, again whenever it
    changes: headings bold, list items hanging, Japanese broken by its rules."""

    def __init__(self, rules: str, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rules = rules
        self.wrapped_at = 0

    def content_width(self) -> int:
        return self.outer_size.width - self.styles.gutter.width

    def on_mount(self) -> None:
        self.rewrap()

    def rewrap(self) -> None:
        self.wrapped_at = self.content_width()
        self.update(rules_rich(self.rules, self.wrapped_at if self.wrapped_at > 0 else UNWRAPPED))

    def on_resize(self, event: events.Resize) -> None:
        if self.content_width() != self.wrapped_at:
            self.rewrap()


UNWRAPPED = 10_000  # cells: the width rules are laid out at before the widget has one


class HelpScreen(ModalScreen[None]):
    """The `?` window: the game's rules for players, then the keys (and what can be typed)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark", "dismiss", N_("Close"))]

    def __init__(self, rules: str) -> None:
        super().__init__()
        translate_bindings(self)
        self.rules = rules

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield RulesText(self.rules, id="rules-text")
            yield Static(Text("\n" + _(KEYS_HELP)))
            yield Button(_("Close"), id="close-help")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss()


KEYS_HELP = N_("""Keys: choose an action from the list (arrows + Enter, or click), or type it
  in the box (also hint, undo, sheet, rules, quit; Escape leaves the box).
  Rolling Pins: 1-9 and 0 toggle pins, Enter crosses them (tokens are counted
  for you), m misses.  Solitaire: p picks the next pile (it stays chosen),
  1-9 and 0 toggle the positions shown before each card, Enter plays them,
  s stops the ball.  Dice games: space rolls.
  h hints, u undo (until chance reveals something), [ and ] change the pace,
  a abilities (advanced Rolling Pins), ctrl+t high-contrast colours,
  ? help, q back to the launcher.
Without colour: ✓ picked, ◆ grey pin, x down, ▶ the player up and the chosen
  pile, ◉ an ability held, ✗ an ability used, ■ a marked box.
""")


class GameScreen(EnterGuard, Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        GUARD_BINDING,
        Binding("space", "roll", N_("Roll/step")),
        Binding("h", "toggle_hint", N_("Hint")),
        Binding("u", "undo", N_("Undo")),
        Binding("a", "abilities", N_("Abilities"), show=False),
        Binding("m", "miss", N_("Miss"), show=False),
        Binding("s", "stop", N_("Stop"), show=False),
        Binding("p", "next_pile", N_("Pile"), show=False),
        Binding("left_square_bracket", "slower", N_("Slower")),
        Binding("right_square_bracket", "faster", N_("Faster")),
        Binding("question_mark", "help", N_("Help")),
        Binding("q", "leave", N_("Quit")),
        *[Binding(str(d), f"toggle_pin({d if d else 10})", show=False) for d in range(10)],
    ]

    def __init__(self, match: Match, speed: int = 1) -> None:
        super().__init__()
        translate_bindings(self)
        self.match = match
        self.speed = speed
        self.selected: set[int] = set()
        self.pile: int | None = None
        self.show_hint = False
        self.show_abilities = False
        self.hints: dict[int, Text] = {}  # hint text by the number of steps played, once worked out
        self.thinking: int | None = None  # the position whose hints are being worked out
        self.message = ""
        self.tick_pending = False
        self.log_lines: list[Text] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="sheet")
        with Horizontal(id="main"):
            with VerticalScroll(id="left"):
                yield Static(id="table")
            with Vertical(id="right"):
                yield Static(id="status")
                yield Label(_("actions (Enter or click):"), id="actions-label")
                yield OptionList(id="actions")
                yield Input(placeholder=_("or type an action (Escape leaves)"), id="command", compact=True)
                yield Static(id="hint")
                with VerticalScroll(id="log"):
                    yield Static(id="log-text")
        yield Footer()

    def on_screen_resume(self) -> None:
        self.guard_from_now()

    def on_mount(self) -> None:
        self.guard_from_now()
        game = _(self.match.game.name)
        self.title = _("pinsetter - {game}").format(game=game)
        self.sub_title = _("seed {seed}").format(seed=self.match.seed)
        self.log_line(_("{game}, seed {seed}").format(game=game, seed=self.match.seed))
        if self.match.record.steps:  # a resumed game: what happened so far
            self.log_line(Text(_("resumed; the game so far:"), style="italic"))
            for line in self.match.log_words()[-200:]:
                self.log_line(line)
        warning = getattr(self.app, "storage_warning", "")
        if warning:
            self.log_line(Text(_("warning: {warning}").format(warning=warning), style="yellow"))
        self.fit(self.app.size.width, self.app.size.height)
        self.refresh_all()
        self.query_one("#actions", OptionList).focus()

    def on_resize(self, event: Any) -> None:
        self.fit(event.size.width, event.size.height)
        self.refresh_all()

    def fit(self, width: int, height: int) -> None:
        """Classes for the terminal's size: a short one loses the header, a narrow one stacks the columns."""
        self.set_class(height < 32, "short")
        self.set_class(width < 76, "narrow")
        self.call_after_refresh(self.query_one("#log", VerticalScroll).scroll_end, animate=False)

    # --- the automatic pace ------------------------------------------------------------
    def schedule(self) -> None:
        """Play the next automatic step after the pace's delay; nothing runs while a human is to act."""
        if not self.tick_pending and self.automatic_next():
            self.tick_pending = True
            # asyncio's timer, not Textual's set_timer: a one-shot Textual timer whose task starts
            # later than its delay (a busy machine kept the process waiting) skips its only tick,
            # and the game would stall for good (issue 32; tests/test_tui_pace.py).
            loop = asyncio.get_running_loop()
            loop.call_later(SPEEDS[self.speed], self.call_later, self.tick)

    def automatic_next(self) -> bool:
        """Whether the next step is played without a human: chance (but a human's own roll) or a bot."""
        state = self.match.state
        if state.is_terminal():
            return False
        return not self.human_roll() and (state.is_chance_node() or self.match.is_bot_turn())

    def tick(self) -> None:
        self.tick_pending = False
        if self.automatic_next():
            self.step_auto()
            self.refresh_all()  # which schedules the next step

    def step_auto(self) -> None:
        chance = self.match.state.is_chance_node()
        self.match.apply(self.match.draw_chance() if chance else self.match.bot_action())
        self.log_line(self.match.log_words()[-1])

    # --- drawing -------------------------------------------------------------------------
    def log_line(self, line: str | Text) -> None:
        """One line in the log, shown literally (names in it are never markup); the newest stay in view.

        The log is one wrapped text, so a resize re-wraps every line without losing a character.
        """
        self.log_lines.append(Text(line) if isinstance(line, str) else line)
        del self.log_lines[:-300]
        self.query_one("#log-text", Static).update(Text("\n").join(self.log_lines))
        self.call_after_refresh(self.query_one("#log", VerticalScroll).scroll_end, animate=False)

    def refresh_all(self) -> None:
        state = self.match.state
        frames = state.game.lane.frames
        names = fit_names([p.name for p in self.match.players], frames, self.app.size.width)
        current = [ctx.frame if (ctx := state.ball_context(p)) else None for p in range(state.num_players)]
        sheets = [state.scoresheet(p) for p in range(state.num_players)]
        turn = None if state.is_terminal() else state.turn()
        compact = sheet_width(names, frames) + 2 > self.app.size.width
        shown = [f"{n} ▶" if i == turn else n for i, n in enumerate(names)]
        sheet = Text(render_sheets(names, sheets, frames, current, compact=compact, turn=turn), no_wrap=True)
        if turn is not None:
            highlight_frame(sheet, shown, frames, turn, current[turn], compact)
        self.query_one("#sheet", Static).update(sheet)
        view = self.table_view()
        if self.pile is not None and not any(p.number == self.pile and (p.top or p.cards) for p in view.piles):
            self.pile = None  # the chosen pile stays chosen until it has no card to play
        table = draw_table(view, self.selected, self.pile)
        if self.show_abilities and view.track:
            table.append("\n" + abilities_help(view) + "\n", style="italic")
        self.query_one("#table", Static).update(table)
        self.query_one("#status", Static).update(self.status_text(view))
        actions = self.query_one("#actions", OptionList)
        actions.clear_options()
        if self.human_to_act():
            labels = {c.action: c.label for c in view.choices}
            actions.add_options(
                [
                    self.action_option(str(a), labels.get(str(a)) or state.game.action_words(state, str(a)))
                    for a in state.legal_actions()
                ]
            )
            actions.highlighted = 0
        elif state.is_chance_node() and not state.game.has_decisions and not state.is_terminal():
            actions.add_option(Option(f"{view.roll_label or _('Roll')} (space)", id="roll"))
            actions.highlighted = 0
        self.update_hint()
        self.schedule()  # after every change: the automatic steps go on, if any are due

    @staticmethod
    def action_option(action: str, label: str) -> Option:
        """A legal action in the game's words, with the text that types it beside them, dim (`cross 4+6`):
        the typing box takes it, so it is shown as its shortcut, never in place of the words."""
        text = Text(label or action)
        if label and label.casefold() != action.casefold():
            text.append(f"  {action}", style="dim")
        return Option(text, id=action)

    def table_view(self) -> TableView:
        """The game's own picture of the table for the player up (core/table.py)."""
        last_chance = next((s.text for s in reversed(self.match.record.steps) if s.actor is None), "")
        return self.match.game.table(self.match.state, [p.name for p in self.match.players], last_chance)

    def status_text(self, view: TableView) -> Text:
        state = self.match.state
        text = Text()
        if state.is_terminal():
            text.append(_("Game over.") + "\n", style="bold green")
            text.append(self.final_words())
            return text
        player = state.turn()
        ctx = state.ball_context(player)
        assert ctx is not None
        text.append("▶ ")
        text.append(f"{self.match.players[player].name}", style="bold")
        text.append(_(" - frame {frame}, ball {ball}").format(frame=ctx.frame, ball=ctx.ball))
        if self.human_to_act() or self.human_roll():  # what is pending, in the game's words
            text.append("  " + _("your move"), style="bold yellow")
            doing = view.status.rsplit(": ", 1)[-1] if ": " in view.status else ""
            if doing:
                text.append(f": {doing}")
        if self.message:
            text.append(f"\n! {self.message}", style="red")
        return text

    def final_words(self) -> str:
        """The winner and the ranking, a line each (run together, `with 53 1. ann: 53` read as one number)."""
        return "\n".join(self.match.ending_lines())

    def update_hint(self) -> None:
        """The hint panel: hints are worked out in a thread (the first can take seconds), "thinking" till then."""
        hint = self.query_one("#hint", Static)
        hint.set_class(not self.show_hint, "hidden")
        self.set_class(self.show_hint, "hinting")  # the hints take most of the log's room (CSS): in view at 80x24
        if not self.show_hint:
            return
        key = self.match.steps_done
        if not self.human_to_act():
            hint.update(Text(_("hints") + "\n" + _("(no decision now)")))
        elif key in self.hints:
            hint.update(self.hints[key])
        else:
            thinking = _("thinking... (the first hint of a game can take a few seconds)")
            hint.update(Text(_("hints") + "\n" + thinking, style="italic"))
            if self.thinking != key:
                self.thinking = key
                state = self.match.state.clone()
                language = current_language()
                self.run_worker(lambda: self.work_out_hint(key, state, language), thread=True, exclusive=True)

    def work_out_hint(self, key: int, state: Any, language: str) -> None:
        """In the worker's thread, which starts in the default language: the screen's is passed in."""
        with using_language(language):
            text = self.hint_text(state)
        self.app.call_from_thread(self.hint_ready, key, text)

    def hint_ready(self, key: int, text: Text) -> None:
        self.hints[key] = text
        if self.thinking == key:
            self.thinking = None
        if self.is_mounted:
            self.update_hint()

    @staticmethod
    def hint_text(state: Any) -> Text:
        text = Text(_("hints") + "\n", style="bold")
        found = option_values(state)
        if found is None:
            return text.append(_("no hints for this position"))
        name, label, values = found
        for line in hint_words(state, name, values[:12]):  # the best first, in view however small the panel
            text.append(f"{line}\n")
        text.append(label, style="italic")  # what the values are, once, under them
        return text

    def human_roll(self) -> bool:
        """Whether a human's own roll waits for the space bar (a dice game without decisions)."""
        state = self.match.state
        return (
            not state.is_terminal()
            and state.is_chance_node()
            and not state.game.has_decisions
            and self.match.players[state.turn()].is_human
        )

    def human_to_act(self) -> bool:
        state = self.match.state
        return not state.is_terminal() and not state.is_chance_node() and not self.match.is_bot_turn()

    # --- input -----------------------------------------------------------------------------
    def play_text(self, text: str, picked: list[int] | None = None) -> None:
        """Play a typed or chosen action; `picked`: the pins it was made from (a refusal names them)."""
        state = self.match.state
        if not self.human_to_act():
            return
        try:
            self.match.apply(state.game.parse_action(text))
        except GameError as exc:
            self.message = refusal_line(text, exc, picked) if picked else str(exc)
            self.log_line(_("refused: {reason}").format(reason=self.message))
        else:
            self.message = ""
            self.log_line(self.match.log_words()[-1])
            self.selected.clear()
        self.refresh_all()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id == "roll":
            self.action_roll()
        elif event.option.id is not None:
            self.play_text(event.option.id)

    TYPED: ClassVar[dict[str, str]] = {
        "hint": "toggle_hint",
        "undo": "undo",
        "rules": "help",
        "help": "help",
        "?": "help",
        "quit": "leave",
        "q": "leave",
        "abilities": "abilities",
    }

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.input.value = ""
        text = event.value.strip()
        if text in self.TYPED:  # the words the line-based game takes at any prompt
            getattr(self, f"action_{self.TYPED[text]}")()
        elif text == "sheet":
            self.message = _("the scoresheets are at the top of the screen")
            self.refresh_all()
        elif text:
            self.play_text(text)

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
        self.play_text(text, sorted(self.selected))

    def on_key(self, event: Any) -> None:
        if event.key == "enter" and self.selected and not isinstance(self.focused, Input):
            event.stop()
            self.confirm_selection()
        elif event.key == "escape" and isinstance(self.focused, Input):
            event.stop()
            self.query_one("#actions", OptionList).focus()

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

    def action_abilities(self) -> None:
        """What each ability does, under the track (where the game has one)."""
        self.show_abilities = not self.show_abilities
        self.refresh_all()

    def action_slower(self) -> None:
        self.speed = min(self.speed + 1, len(SPEEDS) - 1)

    def action_faster(self) -> None:
        self.speed = max(self.speed - 1, 0)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.match.game.rules()))  # the rules describe every ability

    def action_undo(self) -> None:
        """Take back the last decision if the match's rule allows it (`Match.can_undo`), or say why not."""
        reason = self.match.can_undo()
        if reason is not None:
            self.message = _("cannot undo: {reason}").format(reason=reason)
        else:
            taken = self.match.undo()
            self.message = ""
            self.log_line(_("undo: {count} step(s) taken back").format(count=taken))
        self.selected.clear()
        self.refresh_all()

    def action_leave(self) -> None:
        self.match.store()
        self.app.pop_screen()


def resume_summary(record: Any) -> str:
    """`ann 87 in frame 5, bob 60 in frame 4`: where each player of a stored game stands."""
    entries = (record.result or {}).get("players") or []
    parts = []
    for index, spec in enumerate(record.players):
        entry = entries[index] if index < len(entries) else {}
        frame = _frame_to_play(entry.get("marks") or [], int(str(record.options.get("frames", 10))))
        parts.append(
            _("{name} {total} in frame {frame}").format(name=spec.name, total=entry.get("total", 0), frame=frame)
        )
    return _(", ").join(parts)


def _frame_to_play(marks: list[list[str]], frames: int) -> int:
    """The frame a player of an unfinished game is in, from the marks of the frames begun.

    A frame before the last is over after a strike or two balls, and the player is then in the
    next one (`ann 23 in frame 6` after five whole frames, not 5); the last frame lasts to the end.
    """
    if not marks:
        return 1
    over = marks[-1] == ["X"] or len(marks[-1]) >= 2
    return min(len(marks) + 1 if over else len(marks), frames)


USUAL = "default"  # a data option's usual set (the dice, the sheet): the value every data option reads as its default


def switch_words(on: bool) -> str:
    return " " + (_("on") if on else _("off"))


# A player name holds no control character (C0, DEL, C1) nor bidirectional control (pinsetter.usertext).
NAME_TEXT = "[^\x00-\x1f\x7f-\x9f" + "".join(sorted(BIDI_CONTROLS)) + "]*"
CONTROL_REFUSED = N_("a player name cannot hold control characters (terminal escapes, tabs, direction marks)")


class NameInput(Input):
    """The player-name field: control characters typed or pasted into it are refused, with a message."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(restrict=NAME_TEXT, **kwargs)

    def restricted(self) -> None:
        self.app.bell()
        with contextlib.suppress(Exception):  # the field outside the launcher (never, today)
            self.screen.query_one("#launch-message", Static).update(Text(_(CONTROL_REFUSED), style="red"))


class ResumeConfirm(EnterGuard, ModalScreen[bool]):
    """A saved game shown before it is resumed: its sheets, where each player stands, and a question."""

    BINDINGS: ClassVar[list[BindingType]] = [GUARD_BINDING, Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, match: Match) -> None:
        super().__init__()
        translate_bindings(self)
        self.match = match

    def compose(self) -> ComposeResult:
        match = self.match
        state = match.state
        names = [p.name for p in match.players]
        current = [ctx.frame if (ctx := state.ball_context(p)) else None for p in range(state.num_players)]
        sheets = [state.scoresheet(p) for p in range(state.num_players)]
        text = Text(_("{game}, seed {seed}").format(game=_(match.game.name), seed=match.seed) + "\n", style="bold")
        text.append(resume_summary(match.record) + "\n\n")
        text.append(render_sheets(names, sheets, state.game.lane.frames, current, compact=True) + "\n")
        with VerticalScroll(id="help"):
            yield Static(text, id="resume-game")
            yield Label(_("Resume this game?"))
            with Horizontal(classes="row"):
                yield Button(_("Resume"), id="resume-yes", variant="primary", compact=True)
                yield Button(_("Cancel"), id="resume-no", compact=True)

    def on_mount(self) -> None:
        self.guard_from_now()
        self.query_one("#resume-yes", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "resume-yes")

    def action_cancel(self) -> None:
        self.dismiss(False)


class GameList(OptionList):
    """The launcher's games: a click highlights a game (its options appear); Enter or Play starts it."""

    async def _on_click(self, event: events.Click) -> None:
        event.prevent_default()  # not OptionList's click, which would select (start) it
        clicked: int | None = event.style.meta.get("option")
        if clicked is not None and not self._options[clicked].disabled:
            self.highlighted = clicked


class Launcher(EnterGuard, Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        GUARD_BINDING,
        Binding("ctrl+r", "play", N_("Play"), show=True),
        Binding("f2", "history", N_("History")),
        Binding("f3", "statistics", N_("Statistics")),
        Binding("f4", "learn", N_("Learn")),
        Binding("escape", "app.quit", N_("Quit")),
    ]

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        game_class("tenpins")
        yield Header()
        with Horizontal(id="launcher-main"):
            with Vertical(id="games-pane"):
                yield Label(_("Game (a click selects, Enter or Play starts)"))
                yield GameList(
                    *[Option(f"{_(cls.name)}\n  {_(cls.summary)}", id=gid) for gid, cls in sorted(GAMES.items())],
                    id="games",
                )
                yield Label(_("Resume an unfinished game"))
                yield OptionList(id="resume")
                yield Static(id="resume-message")
                with Horizontal(classes="row"):
                    yield Button(_("History"), id="history", compact=True)
                    yield Button(_("Statistics"), id="statistics", compact=True)
            with VerticalScroll(id="setup"):
                yield Static(id="history-warning")
                yield Label(_("Players (in turn order)"))
                yield ListView(id="players")
                with Horizontal(classes="row"):
                    yield NameInput(placeholder=_("name"), id="player-name", compact=True)
                    yield Select([], prompt=_("human"), id="player-kind", allow_blank=True, compact=True)
                with Horizontal(classes="row"):
                    yield Button(_("Add"), id="add-player", compact=True)
                    yield Button(_("Remove"), id="remove-player", compact=True)
                    yield Button(_("Up"), id="up-player", compact=True)
                yield Label(_("Options"))
                yield Vertical(id="game-options")
        with Horizontal(id="launch-bar"):
            yield Label(_("Seed"))
            yield Input(str(draw_seed()), id="seed", compact=True)
            yield Label(_("Undo"))
            yield Select(
                [(_("on for one human"), "auto"), (_("always on"), "on"), (_("off"), "off")],
                value="auto",
                allow_blank=False,
                id="undo",
                compact=True,
            )
            yield Button(_("Play"), id="play", variant="primary", compact=True)
            yield Button(_("Learn"), id="learn", compact=True)
        yield Static(id="launch-message")
        yield Footer()

    def on_resize(self, event: Any) -> None:
        self.set_class(event.size.height < 32, "short")
        self.set_class(event.size.width < 70, "narrow")

    async def on_mount(self) -> None:
        self.guard_from_now()
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
            self.query_one("#history-warning", Static).update(
                Text(_("warning: {warning}").format(warning=warning), style="bold yellow")
            )
        games.focus()

    def refresh_players(self) -> None:
        view = self.query_one("#players", ListView)
        view.clear()
        for seat in self.seats:
            if seat.is_human:
                said = _("{name} (human)").format(name=seat.name)
            elif seat.name.startswith(bot_title(seat.kind)):  # `Greedy bot 2` says what it is
                said = seat.name
            else:
                said = _("{name} ({bot})").format(name=seat.name, bot=bot_title(seat.kind))
            view.append(ListItem(Label(Text(said))))

    def refresh_kinds(self) -> None:
        kinds = self.query_one("#player-kind", Select)
        kinds.set_options([(bot_title(b), b) for b in bot_names(self.game_id)])

    @staticmethod
    def seat_name(kind: str, taken: list[str]) -> str:
        """A seat added without a name: `Greedy bot 2` for a bot (as players are named), `player 3` for a human."""
        if kind != "human":
            return bot_seat_name(kind, taken)
        number = len(taken) + 1
        while _("player {number}").format(number=number) in taken:
            number += 1
        return _("player {number}").format(number=number)

    def refresh_resume(self) -> None:
        """The unfinished games of the history; a history that cannot be read is reported, not fatal."""
        resume = self.query_one("#resume", OptionList)
        resume.clear_options()
        storage = self.app_storage()
        if storage is None:
            return
        from pinsetter.ui.tui_history import readable_history

        # A record the history holds but no longer accepts is skipped and named; the others are listed.
        stored_games, problems = readable_history(storage, limit=50)
        if problems:
            text = Text(_("cannot resume from the history: {problems}").format(problems="; ".join(problems)))
            self.query_one("#resume-message", Static).update(Text(text.plain, style="red"))
        for stored in stored_games:
            if not stored.finished:
                game = game_title(stored.game, stored.record.options)
                label = Text(f"#{stored.id} {game} - {resume_summary(stored.record)}")
                resume.add_option(Option(label, id=str(stored.id)))
        if resume.option_count:
            resume.highlighted = 0

    def resume_problem(self, exc: Exception) -> None:
        text = visible(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        said = _("cannot resume from the history: {problems}").format(problems=text)
        self.query_one("#resume-message", Static).update(Text(said, style="red"))

    def app_storage(self) -> Any:
        return getattr(self.app, "storage", None)

    async def refresh_options(self) -> None:
        """One widget per option of the game, under its label and help in player words: a switch,
        a choice in words, a data set by name (the usual one and those played before), or a number.
        Options that change nothing under the others (an advanced game's, while Advanced is off) are hidden."""
        box = self.query_one("#game-options", Vertical)
        await box.remove_children()
        rows: list[Any] = []
        for spec in game_class(self.game_id).option_specs:
            parts: list[Any] = [Label(Text(f"{spec.title}: {_(spec.help)}"), classes="option-help")]
            if isinstance(spec.default, bool):
                # The switch's state in words too (colour is not the only signal).
                state = Label(switch_words(spec.default), id=f"state-{spec.name}")
                parts.append(Horizontal(Switch(value=spec.default, id=f"opt-{spec.name}"), state, classes="option-row"))
            elif spec.choices:
                choices = [(option_words(spec, c), c) for c in spec.choices]
                parts.append(
                    Select(choices, value=str(spec.default), allow_blank=False, id=f"opt-{spec.name}", compact=True)
                )
            elif spec.reads_file:
                sets = self.data_sets(spec)
                parts.append(Select(sets, value=USUAL, allow_blank=False, id=f"opt-{spec.name}", compact=True))
                parts.append(Label("", id=f"about-{spec.name}", classes="option-help"))
            else:
                default = _("default: {value}").format(value=spec.default)
                parts.append(Input(placeholder=default, id=f"opt-{spec.name}", compact=True))
            rows.append(Vertical(*parts, id=f"option-{spec.name}", classes="option"))
        await box.mount(*rows)
        self.show_options_in_play()

    def data_sets(self, spec: OptionSpec) -> list[tuple[str, str]]:
        """A data option's choices by name: the usual one, then each other one the history has games of.

        Sets are added on the command line (`--option dice=FILE`, docs/cli.md); once a game is played
        with one, the launcher offers it again, as `Added 1`, `Added 2` (shown as its faces below).
        """
        sets = [(_("Usual"), USUAL)]
        storage = self.app_storage()
        if storage is None:
            return sets
        from pinsetter.ui.tui_history import readable_history

        seen: set[str] = set()
        for stored in readable_history(storage, game=self.game_id, limit=200)[0]:
            value = stored.record.options.get(spec.name)
            if not isinstance(value, str) or value in seen:
                continue
            seen.add(value)
            try:
                if spec.read(value) == spec.default:
                    continue
            except GameError:  # a set the game no longer accepts is not offered
                continue
            sets.append((_("Added {number}").format(number=len(sets)), value))
        return sets

    def show_options_in_play(self) -> None:
        """Hide the options that change nothing under the switches and choices set now (`Game.options_in_play`)."""
        chosen = self.chosen_options(typed=False)
        try:
            in_play = set(game_class(self.game_id)(chosen).options_in_play())
        except GameError:
            in_play = {spec.name for spec in game_class(self.game_id).option_specs}
        for row in self.query(".option"):
            row.display = (row.id or "").removeprefix("option-") in in_play
        for spec in game_class(self.game_id).option_specs:
            if spec.reads_file:
                value = self.query_one(f"#opt-{spec.name}", Select).value
                data = spec.read(value if isinstance(value, str) else USUAL)
                said = [data.words()] if hasattr(data, "words") else []
                self.query_one(f"#about-{spec.name}", Label).update(Text("\n".join(said)))

    def on_switch_changed(self, event: Switch.Changed) -> None:
        name = (event.switch.id or "").removeprefix("opt-")
        with contextlib.suppress(Exception):
            self.query_one(f"#state-{name}", Label).update(switch_words(event.value))
        self.show_options_in_play()

    def on_select_changed(self, event: Select.Changed) -> None:
        if (event.select.id or "").startswith("opt-"):
            self.show_options_in_play()

    def chosen_options(self, typed: bool = True) -> dict[str, object]:
        """The options set away from their defaults, as text (validated by the game); hidden ones are left out.

        `typed=False`: the switches and choices only (what decides which options are in play).
        """
        options: dict[str, object] = {}
        for spec in game_class(self.game_id).option_specs:
            row = self.query_one(f"#option-{spec.name}")
            widget = self.query_one(f"#opt-{spec.name}")
            if not row.display and typed:
                continue
            if isinstance(widget, Switch):
                if widget.value != spec.default:
                    options[spec.name] = "true" if widget.value else "false"
            elif isinstance(widget, Select):
                if widget.value not in (str(spec.default), USUAL):
                    options[spec.name] = str(widget.value)
            elif isinstance(widget, Input) and widget.value.strip() and typed:
                options[spec.name] = widget.value.strip()
        return options

    async def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "games" and event.option.id and event.option.id != self.game_id:
            self.game_id = event.option.id
            self.refresh_kinds()
            self.seat_bots_of_this_game()
            await self.refresh_options()

    def seat_bots_of_this_game(self) -> None:
        """A bot the highlighted game does not have gives its seat to the game's first bot (as the web lobby does)."""
        bots = list(bot_names(self.game_id))
        seats: list[PlayerSpec] = []
        for seat in self.seats:
            if not (seat.is_human or seat.kind in bots):
                kind = bots[0] if bots else "human"
                taken = [s.name for s in self.seats if s is not seat]
                # A seat named after its bot (`Optimal bot`) takes its new bot's name; a name given stays.
                named_by_kind = seat.name.startswith(bot_title(seat.kind))
                seat = PlayerSpec(self.seat_name(kind, taken) if named_by_kind else seat.name, kind)
            seats.append(seat)
        self.seats = seats
        self.refresh_players()

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
                # The game is shown (sheets, frame and score) and the player is asked before it goes on.
                self.app.push_screen(ResumeConfirm(match), lambda yes: self.start(match) if yes else None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button.id
        if button == "play":
            self.action_play()
        elif button == "learn":
            self.action_learn()
        elif button == "history":
            self.action_history()
        elif button == "statistics":
            self.action_statistics()
        elif button == "add-player":
            name = self.query_one("#player-name", Input).value.strip()
            kind = self.query_one("#player-kind", Select).value
            kind_text = kind if isinstance(kind, str) else "human"
            message = self.query_one("#launch-message", Static)
            taken = [s.name for s in self.seats]
            if name and any(name_key(t) == name_key(name) for t in taken):  # one name, as names compare
                message.update(Text(_("{name} is playing already: choose another name").format(name=name), style="red"))
                return
            name = name or self.seat_name(kind_text, taken)
            chosen = game_class(self.game_id)
            if len(self.seats) >= chosen.max_players:  # said now, not as a refusal at Play
                said = _("{game} takes {players}").format(game=_(chosen.name), players=chosen.players_text())
                message.update(Text(said, style="red"))
                return
            try:
                seat = PlayerSpec(check_new_name(name), kind_text)
            except ValueError as exc:  # the name policy (pinsetter.usertext): e.g. a control character
                message.update(Text(_("{reason}; the player was not added").format(reason=exc), style="red"))
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

    def action_learn(self) -> None:
        """The highlighted game's guided first frame, with the options and seed set here (not kept in the history)."""
        from pinsetter.ui.tui_learn import LearnScreen

        message = self.query_one("#launch-message", Static)
        try:
            seed = int(self.query_one("#seed", Input).value)
            match = Match.new(self.game_id, [PlayerSpec("you")], seed=seed, options=self.chosen_options())
        except (GameError, ValueError) as exc:
            message.update(Text(str(exc), style="red"))
            return
        message.update("")
        self.query_one("#seed", Input).value = str(draw_seed())  # the game played next gets other dice
        match.undo_allowed = True
        self.app.push_screen(LearnScreen(match, speed=getattr(self.app, "speed", 1)))

    def action_history(self) -> None:
        from pinsetter.ui.tui_history import HistoryScreen

        self.app.push_screen(HistoryScreen(self.app_storage(), game=None))

    def action_statistics(self) -> None:
        from pinsetter.ui.tui_history import StatsScreen

        self.app.push_screen(StatsScreen(self.app_storage(), game=self.game_id))

    def start(self, match: Match) -> None:
        match.storage = self.app_storage()
        match.store()
        setting = self.query_one("#undo", Select).value
        if setting != "auto":  # "auto" is the match's default: on for one human, alone or with bots
            match.undo_allowed = setting == "on"
        self.app.push_screen(GameScreen(match, speed=getattr(self.app, "speed", 1)))

    def on_screen_resume(self) -> None:
        self.guard_from_now()
        self.refresh_resume()


HIGH_CONTRAST = Theme(
    name="pinsetter-high-contrast",
    primary="#ffff00",
    secondary="#00ffff",
    accent="#ffffff",
    foreground="#ffffff",
    background="#000000",
    surface="#000000",
    panel="#202020",
    success="#00ff00",
    warning="#ffff00",
    error="#ff4040",
    dark=True,
)


class PinsetterApp(App[None]):
    """The launcher and the game screens; `PINSETTER_THEME=high-contrast` (or ctrl+t) for strong colours.

    `NO_COLOR` is respected (Textual draws in monochrome); every colour on screen has a symbol or
    a word beside it, so nothing is lost.
    """

    TITLE = "pinsetter"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+t", "contrast", N_("Contrast"), show=False)]
    CSS = """
    #main { height: 1fr; }
    #left { width: 42; height: 1fr; }
    #right { width: 1fr; padding: 0 0 0 1; }
    #table { height: auto; border: round $primary; padding: 0 0; }
    #status { height: auto; }
    #actions { height: auto; max-height: 12; min-height: 3; }
    #command { margin: 0 0 1 0; }
    #sheet { height: auto; }
    #hint { height: auto; max-height: 14; }
    GameScreen.hinting #log { height: 3; }
    GameScreen.hinting #hint { height: 1fr; max-height: 100%; min-height: 4; }
    GameScreen.hinting #actions { max-height: 6; }
    GameScreen.short.hinting #actions { max-height: 4; }
    .hidden { display: none; }
    #log { height: 1fr; min-height: 3; border: round $secondary; }
    #log-text { height: auto; }
    #lesson { height: auto; max-height: 12; border: round $accent; }
    #lesson-text { height: auto; }
    #history-list { height: 1fr; min-height: 3; }
    #history-notes { height: auto; }
    #stats-body { height: 1fr; }
    #history-filters Label, #stats-filters Label { margin: 0 1; }
    #history-game, #stats-game, #stats-player { width: 24; }
    #history-player { width: 20; }
    #replay-buttons Button { min-width: 4; margin-right: 1; }
    GameScreen.short Header, Launcher.short Header { display: none; }
    GameScreen.short #actions-label { display: none; }
    GameScreen.short #table { border: none; }
    GameScreen.short #actions { max-height: 8; }
    GameScreen.short #log { border: none; border-top: solid $secondary; }
    GameScreen.short #lesson { max-height: 7; border: none; border-top: solid $accent; }
    GameScreen.narrow #main { layout: vertical; }
    GameScreen.narrow #left { width: 1fr; height: auto; max-height: 50%; }
    GameScreen.narrow #right { padding: 0; }
    #launcher-main { height: 1fr; }
    #games-pane { width: 1fr; }
    #games { height: auto; max-height: 10; }
    #resume { height: 1fr; min-height: 3; }
    #setup { width: 1fr; padding: 0 1; }
    #players { height: auto; max-height: 7; min-height: 3; border: round $secondary; }
    .row { height: auto; }
    #player-name { width: 1fr; }
    #player-kind { width: 24; }
    #game-options { height: auto; }
    #game-options .option { height: auto; }
    #game-options Input, #game-options Select { width: 1fr; max-width: 60; }
    .option-row { height: auto; }
    .option-help { color: $text-muted; width: 1fr; }
    .row Button { margin-right: 1; min-width: 8; width: auto; }
    #launch-bar { height: auto; padding: 0 1; }
    #launch-bar Label { margin: 0 1 0 0; }
    #seed { width: 10; margin-right: 2; }
    #undo { width: 1fr; max-width: 30; margin-right: 2; }
    #help { padding: 1 2; background: $panel; border: round $primary; margin: 1 2; }
    #history-warning { height: auto; }
    #resume-message { height: auto; }
    #launch-message { height: auto; padding: 0 1; }
    Launcher.narrow #launcher-main { layout: vertical; }
    """

    def __init__(self, storage: Any = None, speed: int = 1, storage_warning: str = "", guard: bool = False) -> None:
        """`storage_warning`: why there is no history (shown; games play on). `guard`: watch the
        real terminal and the signals that end the program (`run_tui`; never in tests' pilots)."""
        super().__init__(driver_class=guarded_driver() if guard else None)
        translate_bindings(self)  # with the command palette's key, which Textual adds in __init__
        self.storage = storage
        self.speed = speed
        self.storage_warning = storage_warning
        self.guard = guard
        self.terminal_watch: TerminalWatch | None = None
        self.register_theme(HIGH_CONTRAST)
        if os.environ.get("PINSETTER_THEME", "") == "high-contrast":
            self.theme = HIGH_CONTRAST.name

    def action_contrast(self) -> None:
        """Between the high-contrast theme and Textual's default."""
        self.theme = "textual-dark" if self.theme == HIGH_CONTRAST.name else HIGH_CONTRAST.name

    @classmethod
    def open(cls, db: str | None = None, **kwargs: Any) -> PinsetterApp:
        """The app on the history at `db` (default: PINSETTER_DB); without one, it warns and plays on."""
        from pinsetter.storage import Storage

        try:
            return cls(storage=Storage(db), **kwargs)
        except Exception as exc:  # any driver or migration failure, as `pinsetter play` does
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            warning = _("games are not kept in the history ({reason})").format(reason=visible(first))
            return cls(storage=None, storage_warning=warning, **kwargs)

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
