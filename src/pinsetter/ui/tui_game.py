"""The game screen of the full-screen terminal: sheets, table, actions, hints and log, at any size.

It is a client of the game API, the bots and the hints: every move goes through `Match.apply`
(and undo through `Match.undo`), so it holds no rule of its own. The table is the game's own
`TableView`, drawn by `ui.table_text`. Names and other text from users are always shown
literally (rich `Text`, never markup).

The layout follows the terminal (`layout_for`): below 76 columns the table and the play column
stack; from 110 the log goes under the table, from 160 into a third column, and the table's column
grows with the width (`table_share`); below 32 rows the
borders go, below 22 the sheet loses its rules. The hint panel scrolls (Tab reaches it) and shows
every option's value at every size; stacked in a short window it takes the rows the others leave
(`fit_stack`): the table's pins, dice and piles and every row of the action list stay in view.
"""

from __future__ import annotations

import asyncio
import contextlib
import types
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Header, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from pinsetter.bots.hints import (
    NO_CHANCES,
    chance_line,
    game_offers_chances,
    hint_words,
    no_decisions_words,
    no_hint_words,
    offers_chances,
    option_values,
    win_chances,
)
from pinsetter.core.game import GameError
from pinsetter.core.table import TableView
from pinsetter.games.table_common import refusal_line
from pinsetter.i18n import N_, _, current_language, ngettext, using_language
from pinsetter.session import Match
from pinsetter.ui.rules_view import rules_rich
from pinsetter.ui.sheet import fit_names, render_sheets, sheet_width
from pinsetter.ui.table_text import abilities_help, dice_width, draw_pins, draw_table, essentials, track_width
from pinsetter.ui.tui_common import (
    GUARD_BINDING,
    HUGE,
    NARROW,
    SHORT,
    TINY,
    WIDE,
    EnterGuard,
    KeyFooter,
    WrappedText,
    highlight_frame,
    translate_bindings,
)
from pinsetter.ui.wrap import wrap_text

__all__ = ["SPEEDS", "GameScreen", "HelpScreen", "draw_seed", "layout_for"]

SPEEDS = (0.0, 0.15, 0.4, 0.8)  # seconds between automatic steps
PLAY_COLUMN = 29  # the narrowest the play column (status, actions, hints) gets beside the table
TABLE_COLUMN = 42  # the table's column at least (the pins and the track of the English sheet)
TABLE_MOST = 72  # the widest a share of a wide screen makes it (Bowling Dice's ten dice and their words fit)
ACTIONS_ROWS_NARROW = 4  # stacked: the most rows the action list takes (it scrolls past them), hints open or not
HINT_ROWS_WANTED = 3  # stacked in a short window: the hint panel's rule and two lines, where the table can spare them
HINT_ROWS_LEAST = 2  # its rule and the best option's line: with fewer rows left it waits for a taller window


def draw_seed() -> int:
    """A fresh seed for the next game: short enough to note down and type again."""
    import random

    return random.SystemRandom().randrange(10**6)


def text_rows(text: Text, width: int) -> int:
    """The lines `text` takes wrapped at `width` cells, as `WrappedText` shows it."""
    return len(wrap_text(text, max(width, 1)).plain.split("\n"))


def table_share(layout: str, width: int) -> int:
    """The table's column where the screen has room to spare: half a wide one, whose log goes under the
    table (so the log gets as much), a third of a huge one, beside the play and the log columns."""
    share = {"wide": width // 2, "huge": width // 3}.get(layout, TABLE_COLUMN)
    return max(TABLE_COLUMN, min(share, TABLE_MOST))


def layout_for(width: int) -> str:
    """`narrow` (stacked), `medium` (table | play and log), `wide` (table and log | play) or `huge` (three columns)."""
    if width < NARROW:
        return "narrow"
    if width < WIDE:
        return "medium"
    return "wide" if width < HUGE else "huge"


# The game screen's rules, under its type (the app puts them in its CSS: App CSS beats DEFAULT_CSS).
GAME_CSS = """
GameScreen #sheet { height: auto; }
GameScreen #main { height: 1fr; }
GameScreen #left { width: 42; height: 1fr; }
GameScreen #table-box { height: auto; max-height: 100%; border: round $primary; padding: 0 1;
    scrollbar-size-vertical: 1; }
GameScreen #table { height: auto; }
GameScreen #right { width: 1fr; height: 1fr; padding: 0 0 0 1; }
GameScreen #far { display: none; width: 1fr; height: 1fr; padding: 0 0 0 1; }
GameScreen.huge #far { display: block; }
GameScreen #status { height: auto; }
GameScreen #actions { height: auto; max-height: 12; min-height: 1; }
GameScreen #command { margin: 0 0 1 0; }
GameScreen.typing #command { background: $accent 40%; text-style: bold; }
GameScreen #hint-box { height: auto; max-height: 16; min-height: 3; border: round $accent;
    scrollbar-size-vertical: 1; }
GameScreen #hint { height: auto; }
GameScreen.hinting #hint-box { height: 1fr; max-height: 100%; }
GameScreen.hinting #actions { max-height: 8; }
GameScreen #log { height: 1fr; min-height: 3; border: round $secondary; scrollbar-size-vertical: 1; }
GameScreen.hinting #log { max-height: 8; }
GameScreen.wide.hinting #log, GameScreen.huge.hinting #log { max-height: 100%; }
GameScreen.short Header { display: none; }
GameScreen.short #actions-label { display: none; }
GameScreen.short #table-box { border: none; padding: 0; }
GameScreen.short #hint-box { border: none; border-top: solid $accent; min-height: 2; }
GameScreen.short #log { border: none; border-top: solid $secondary; min-height: 4; }
GameScreen.short #actions { max-height: 7; }
GameScreen.short #command { margin: 0; }
GameScreen.short.hinting #actions { max-height: 5; }
GameScreen.short.hinting.medium #log, GameScreen.short.hinting.narrow #log { display: none; }
GameScreen.narrow #main { layout: vertical; }
GameScreen.narrow #left { width: 1fr; height: auto; max-height: 40%; }
GameScreen.narrow #right { padding: 0; }
GameScreen.narrow #log { min-height: 2; }
"""
# Stacked, the action list keeps its rows whether the hints are open or not (`fit_stack` counts them).
GAME_CSS += f"GameScreen.narrow #actions, GameScreen.narrow.hinting #actions {{ max-height: {ACTIONS_ROWS_NARROW}; }}\n"


# --- help --------------------------------------------------------------------------------------


class RulesText(Static):
    """A game's rules (`Game.rules()`), wrapped by `rules_rich` at the widget's width, again whenever it
    changes: headings bold, list items hanging, Japanese broken by its rules; never wrapped twice."""

    def __init__(self, rules: str, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rules = rules
        self.wrapped_at = 0

    def on_mount(self) -> None:
        self.rewrap()

    def rewrap(self) -> None:
        self.wrapped_at = self.size.width
        text = rules_rich(self.rules, self.wrapped_at if self.wrapped_at > 0 else UNWRAPPED)
        text.no_wrap = True
        self.update(text)

    def on_resize(self, event: events.Resize) -> None:
        if self.size.width != self.wrapped_at:
            self.rewrap()


UNWRAPPED = 10_000  # cells: the width rules are laid out at before the widget has one

# The keys, a paragraph each (wrapped at the window's width, never by hand).
KEYS_HELP = (
    N_("Keys"),
    N_(
        "• Choose an action from the list (arrows and Enter, or a click), or type it in the box: Tab goes "
        "there and Escape comes back to the keys. The box also takes hint, undo, sheet, rules and quit."
    ),
    N_("• Rolling Pins: 1-9 and 0 pick pins, Enter crosses them (tokens are counted for you), m misses."),
    N_(
        "• Solitaire: p chooses the next pile (it stays chosen); 1-9 and 0 pick the cards by the number "
        "before each; Enter plays them; s stops the ball."
    ),
    N_("• Dice games: space rolls."),
    N_(
        "• h hints (Tab reaches the panel to scroll it), c each option's chance to finish ahead with them "
        "(basic Rolling Pins with other players), u undo (until chance reveals something), [ and ] "
        "slower and faster automatic steps, a abilities (advanced Rolling Pins), ctrl+t high-contrast "
        "colours, ? or F1 this help, q back to the launcher."
    ),
    N_(
        "• When the game is over: r plays it again, v reviews it (each decision against the best move, or "
        "step by step where no solver values the game), q goes back."
    ),
    N_(
        "Without colour: ✓ picked, ◆ grey pin, x down, ▶ the player up and the chosen pile, ◉ an ability "
        "held, ✗ an ability used, ■ a marked box."
    ),
)


def keys_help() -> Text:
    text = Text()
    for index, paragraph in enumerate(KEYS_HELP):
        text.append(_(paragraph) + "\n", style="bold" if index == 0 else "")
    return text


class HelpScreen(ModalScreen[None]):
    """The `?` window: the game's rules for players, then the keys (and what can be typed)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark,f1", "dismiss", N_("Close"))]

    def __init__(self, rules: str) -> None:
        super().__init__()
        translate_bindings(self)
        self.rules = rules

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield RulesText(self.rules, id="rules-text")
            yield WrappedText(Text("\n").append_text(keys_help()), id="keys-text")
            yield Button(_("Close"), id="close-help")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#help", VerticalScroll).focus()  # the arrows and page keys scroll the rules at once

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss()


# --- the game ----------------------------------------------------------------------------------


class CommandInput(Input):
    """The typing box: any action in its text form, or hint, undo, sheet, rules, quit.

    While it has the focus, letters are typing, not commands: its own keys say so in the footer.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "screen.keys_mode", N_("Back to the keys"))]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        translate_bindings(self)


END_CHOICES = (
    ("again", N_("Play again, same players and options")),  # dice or cards: said for every game
    ("review", N_("Review this game step by step")),
    ("back", N_("Back to the launcher")),
)
ROLL_WORDS = ("roll", "r", "")  # what a typed line may say at a human's roll in a dice game (and the translation)


class GameScreen(EnterGuard, Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        GUARD_BINDING,
        # In the footer in this order: what a narrow footer keeps comes first.
        Binding("question_mark", "help", N_("Help")),
        Binding("q", "leave", N_("Back")),
        Binding("r", "play_again", N_("Play again")),
        Binding("v", "review", N_("Review")),
        Binding("space", "roll", N_("Roll/step")),
        Binding("h", "toggle_hint", N_("Hint")),
        Binding("h", "no_hint", show=False),  # where Hint is not offered, h says why
        Binding("c", "toggle_chances", N_("Chances")),  # in the footer only where the game offers them
        Binding("c", "no_chances", show=False),  # elsewhere, c says where they are offered
        Binding("u", "undo", N_("Undo")),
        Binding("u", "undo_refused", show=False),  # where Undo is not offered, u still says why
        Binding("left_square_bracket", "slower", N_("Slower")),
        Binding("right_square_bracket", "faster", N_("Faster")),
        Binding("f1", "help", N_("Help"), show=False),
        Binding("a", "abilities", N_("Abilities"), show=False),
        Binding("m", "miss", N_("Miss"), show=False),
        Binding("s", "stop", N_("Stop"), show=False),
        # The pick's keys are handled as they arrive, like Enter (the guard): a key without priority
        # reaches the screen only after passing the focused control, so an Enter typed close behind
        # it was handled first and played the pick as it stood before (or the list's highlighted action).
        Binding("p", "next_pile", N_("Pile"), show=False, priority=True),
        *[Binding(str(d), f"toggle_pin({d if d else 10})", show=False, priority=True) for d in range(10)],
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
        self.show_chances = False  # each option's chance to finish ahead, with the hints (asked for with c)
        self.hints: dict[int, Text] = {}  # hint text by the number of steps played, once worked out
        self.chance_hints: dict[int, Text] = {}  # the same with each option's chance to finish ahead
        self.thinking: tuple[int, bool] | None = None  # the hints being worked out (steps, with chances)
        self.message = ""  # a refusal, in red, until the next change of selection or position
        self.note = ""  # a passing word (the pace, a line kept for later), until the next change
        self.tick_pending = False
        self.log_lines: list[Text] = []
        self.typed: list[str] = []  # lines typed while it was not a human's move: played when it is
        self.chance_turns: dict[int, int] = {}  # step index of each chance step -> whose turn it was
        self.layout_name = ""
        self.screen_size = (80, 24)  # set by `fit` from the terminal's size
        self.table_width = TABLE_COLUMN
        self.sheet_rows = 0  # the scoresheets' lines, as last drawn
        self.table_rows = (0, 0)  # the table's lines as last drawn: its essentials (`essentials`), and all of them
        self.hint_rows = 0  # the rows the hint panel has (`fit_stack`)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="sheet")
        with Horizontal(id="main"):
            with Vertical(id="left"), VerticalScroll(id="table-box"):
                yield WrappedText(id="table")
            with Vertical(id="right"):
                yield WrappedText(id="status")
                yield Label(_("actions (Enter or click):"), id="actions-label")
                yield OptionList(id="actions", compact=True)
                yield CommandInput(placeholder=_("or type an action (Tab)"), id="command", compact=True)
                with VerticalScroll(id="hint-box"):
                    yield WrappedText(id="hint", hang=True)  # each option's value under its words
                with VerticalScroll(id="log"):
                    yield Static(id="log-text")
            yield Vertical(id="far")
        yield KeyFooter(together=(frozenset({"slower", "faster"}),))

    def on_screen_resume(self) -> None:
        self.guard_from_now()

    async def on_mount(self) -> None:
        self.guard_from_now()
        game = _(self.match.game.name)
        self.title = _("pinsetter - {game}").format(game=game)
        self.sub_title = _("seed {seed}").format(seed=self.match.seed)
        self.query_one("#hint-box").border_title = _("hints")
        self.query_one("#log").border_title = _("log")
        self.query_one("#table-box").border_title = _(self.match.game.name)
        self.log_line(_("{game}, seed {seed}").format(game=game, seed=self.match.seed))
        if self.match.record.steps:  # a resumed game: what happened so far
            self.log_line(Text(_("resumed; the game so far:"), style="italic"))
            for line in self.match.log_words()[-200:]:
                self.log_line(line)
            self.find_chance_turns()
        warning = getattr(self.app, "storage_warning", "")
        if warning:
            self.log_line(Text(_("warning: {warning}").format(warning=warning), style="yellow"))
        await self.fit(self.app.size.width, self.app.size.height)
        self.refresh_all()
        self.query_one("#actions", OptionList).focus()

    async def on_resize(self, event: events.Resize) -> None:
        await self.fit(event.size.width, event.size.height)
        self.refresh_all()

    async def fit(self, width: int, height: int) -> None:
        """Classes and places for the terminal's size (`layout_for`); the log moves to its column."""
        name = layout_for(width)
        self.screen_size = (width, height)
        self.table_width = TABLE_COLUMN
        for each in ("narrow", "medium", "wide", "huge"):
            self.set_class(each == name, each)
        self.set_class(height < SHORT, "short")
        self.set_class(height < TINY, "tiny")
        target = {"wide": "left", "huge": "far"}.get(name, "right")
        log = self.query_one("#log", VerticalScroll)
        if log.parent is not None and log.parent.id != target:
            await log.remove()
            fresh = VerticalScroll(Static(id="log-text"), id="log")
            fresh.border_title = _("log")
            await self.query_one(f"#{target}").mount(fresh)
            self.show_log()
        self.layout_name = name
        self.show_log()

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
        state = self.match.state
        chance = state.is_chance_node()
        if chance:
            self.chance_turns[self.match.steps_done] = state.turn()
        self.match.apply(self.match.draw_chance() if chance else self.match.bot_action())
        self.log_line(self.match.log_words()[-1])
        if self.match.state.is_terminal():
            self.note = ""  # the pace spoke of the automatic steps: there are none after the end

    def find_chance_turns(self) -> None:
        """Whose turn each chance step of a resumed game came in (the dice line says whose roll it shows)."""
        state = self.match.game.new_state(len(self.match.players))
        for index, step in enumerate(self.match.record.steps):
            if step.actor is None:
                self.chance_turns[index] = state.turn()
            try:
                state.apply_by(step.actor, step.text)
            except GameError:
                break

    # --- drawing -------------------------------------------------------------------------
    def log_line(self, line: str | Text) -> None:
        """One line in the log, shown literally (names in it are never markup); the newest stay in view.

        The log is one wrapped text, so a resize re-wraps every line without losing a character;
        a new line scrolls it to its end once the text is laid out (Textual's `anchor` would keep
        a short log at the bottom of its box, under empty lines).
        """
        self.log_lines.append(Text(line) if isinstance(line, str) else line)
        del self.log_lines[:-300]
        self.show_log()

    def show_log(self) -> None:
        for text in self.query("#log-text").results(Static):
            text.update(Text("\n").join(self.log_lines))
        for log in self.query("#log").results(VerticalScroll):
            log.scroll_end(animate=False)  # after the next refresh, when the new text has its height

    def refresh_all(self) -> None:
        state = self.match.state
        frames = state.game.lane.frames
        width, height = self.screen_size
        names = fit_names([p.name for p in self.match.players], frames, width)
        current = [ctx.frame if (ctx := state.ball_context(p)) else None for p in range(state.num_players)]
        sheets = [state.scoresheet(p) for p in range(state.num_players)]
        turn = None if state.is_terminal() else state.turn()
        compact = sheet_width(names, frames) + 2 > width
        ruled = height >= TINY
        shown = [f"{n} ▶" if i == turn else n for i, n in enumerate(names)]
        sheet = Text(
            render_sheets(names, sheets, frames, current, compact=compact, turn=turn, ruled=ruled), no_wrap=True
        )
        if turn is not None:
            highlight_frame(sheet, shown, frames, turn, current[turn], compact, ruled)
        self.query_one("#sheet", Static).update(sheet)
        self.sheet_rows = len(sheet.plain.split("\n"))
        view = self.table_view()
        if self.pile is not None and not any(p.number == self.pile and (p.top or p.cards) for p in view.piles):
            self.pile = None  # the chosen pile stays chosen until it has no card to play
        self.draw_table_box(view)
        self.refresh_actions(view)
        self.show_play_column(view)
        self.refresh_bindings()  # the footer offers what can be done now (Play again at the end)
        self.schedule()  # after every change: the automatic steps go on, if any are due
        if self.typed and (self.human_to_act() or self.human_roll() or state.is_terminal()):
            self.call_later(self.play_typed)

    def draw_table_box(self, view: TableView) -> None:
        """The table at the width of its column, which is as wide as the table likes where the screen allows."""
        roll_by = self.roll_owner(view)
        # The widest parts that must not fold: the track (Japanese titles take up to 16 cells), the pins.
        pins = draw_pins(view, self.selected).plain.split("\n") if view.pins else []
        natural = max([track_width(view), *(cell_len(line) for line in pins)])
        width, height = self.screen_size
        gutter = 0 if height < SHORT else 4  # the border and its padding
        wanted = natural + gutter + 1  # and the scroll bar's cell
        if self.layout_name == "narrow":
            room = width
        elif self.layout_name == "medium":
            room = max(TABLE_COLUMN, width - PLAY_COLUMN - 1)
        else:
            room = width // 2
            # The dice on one line with whose roll they are (Bowling Dice's ten and "last roll (ann): " take
            # 56 cells), past half a wide screen if need be, where the play column keeps its least beside
            # them (a huge one's log column too). The log under the table gets the width as well; a medium
            # screen's log beside the table would lose it, and there the dice go under their words.
            dice = dice_width(view, roll_by) + gutter + 1
            if dice <= (width - PLAY_COLUMN - 1 if self.layout_name == "wide" else width // 2):
                wanted, room = max(wanted, dice), max(room, dice)
        # The column never narrows while the size stays (a part coming and going does not make it jump).
        least = table_share(self.layout_name, width)
        self.table_width = min(max(self.table_width, wanted, least), room)
        if self.layout_name != "narrow":
            self.query_one("#left").styles.width = self.table_width
        inner = (width if self.layout_name == "narrow" else self.table_width) - gutter - 1
        table = draw_table(view, self.selected, self.pile, inner, roll_by)
        if self.show_abilities and view.track:
            table.append("\n" + abilities_help(view), style="italic")
        table.rstrip()  # no empty line under the table
        self.query_one("#table", WrappedText).show(table)
        if self.layout_name == "narrow" and height < SHORT:  # where `fit_stack` counts the rows, and only there
            kept = draw_table(essentials(view), self.selected, self.pile, inner, roll_by)
            kept.rstrip()
            self.table_rows = (text_rows(kept, inner), text_rows(table, inner))

    def show_play_column(self, view: TableView) -> None:
        """The status, the typed form and the hint panel, once the rows of a short stacked window are counted."""
        self.fit_stack(view)
        self.query_one("#status", WrappedText).show(self.status_text(view))
        self.show_typed_form()
        self.update_hint()

    def fit_stack(self, view: TableView) -> None:
        """Stacked in a short window, where no row is to spare, the rows are counted: the footer, the sheet,
        the table's essentials, the status, every row of the action list and the typing box keep theirs; the
        hint panel takes what is left, with the table's other rows where they fit beside `HINT_ROWS_WANTED`
        (they scroll in the table's box), and waits for a taller window when it would get fewer than
        `HINT_ROWS_LEAST`. A passing line of the status (typing, a note, a refusal) borrows a row of the
        table, not the hints': the panel Tab reaches does not go while the player types. Elsewhere the
        stylesheet shares the room."""
        width, height = self.screen_size
        left = self.query_one("#left")
        if self.layout_name != "narrow" or height >= SHORT:
            self.hint_rows = height
            left.styles.max_height = None  # the stylesheet's
            return
        passing = sum(text_rows(Text(line), width) for line, _style in self.passing_lines(room_note=False))
        status = text_rows(self.status_head(view), width) + passing
        taken = 1 + self.sheet_rows + status + self.action_rows() + 1  # the footer and the typing box
        least, every = self.table_rows
        table = min(every, max(1, least - passing, height - taken - HINT_ROWS_WANTED))
        self.hint_rows = height - taken - table
        left.styles.max_height = table if self.hint_shown() else None

    def action_rows(self) -> int:
        """The rows the action list takes stacked: each action's lines, `ACTIONS_ROWS_NARROW` at most (it scrolls)."""
        actions = self.query_one("#actions", OptionList)
        room = self.screen_size[0] - 2  # the list's scroll bar
        rows = 0
        for index in range(actions.option_count):
            rows += text_rows(Text(str(actions.get_option_at_index(index).prompt)), room)
        return max(1, min(rows, ACTIONS_ROWS_NARROW))

    def roll_owner(self, view: TableView) -> str:
        """Whose dice the table shows, when they are not the roll being played now: the last roll stays."""
        if not view.dice or (view.selection is not None and view.selection.target is not None):
            return ""
        names = [p.name for p in self.match.players]
        bare = self.match.game.table(self.match.state, names, "")
        if bare.dice:  # the game shows a player's own dice: those of the table's player
            owner = view.player
        else:  # the dice of the last chance step, whoever it was for
            steps = self.match.record.steps
            last = next((i for i in range(len(steps) - 1, -1, -1) if steps[i].actor is None), None)
            owner = self.chance_turns.get(last) if last is not None else None
        return names[owner] if owner is not None and 0 <= owner < len(names) else ""

    def refresh_actions(self, view: TableView) -> None:
        """The actions offered now; the same ones as before keep their highlight (and the list its scroll)."""
        state = self.match.state
        options: list[Option] = []
        if state.is_terminal():
            from pinsetter.ui.tui_review import review_label

            options = [
                Option(review_label(self.match.game) if key == "review" else _(label), id=f"end-{key}")
                for key, label in END_CHOICES
            ]
        elif self.human_to_act():
            labels = {c.action: c.label for c in view.choices}
            options = [
                self.action_option(str(a), labels.get(str(a)) or state.game.action_words(state, str(a)))
                for a in state.legal_actions()
            ]
        elif state.is_chance_node() and not state.game.has_decisions:
            options = [Option(f"{view.roll_label or _('Roll')} (space)", id="roll")]
        actions = self.query_one("#actions", OptionList)
        shown = [actions.get_option_at_index(i) for i in range(actions.option_count)]
        if [(o.id, str(o.prompt)) for o in shown] == [(o.id, str(o.prompt)) for o in options]:
            return
        actions.clear_options()
        actions.add_options(options)
        if options:
            actions.highlighted = 0

    @staticmethod
    def action_option(action: str, label: str) -> Option:
        """A legal action in the game's words only: players read words, never the notation. What to type for
        it is said where the player types (`show_typed_form`: in the typing box, while it has the focus)."""
        return Option(Text(label or action), id=action)

    def show_typed_form(self) -> None:
        """While typing at a decision, the empty box shows how the highlighted action is typed (`cross 4+6`):
        the one place the notation shows, where the player types (no line more on a small screen)."""
        box = self.query_one("#command", CommandInput)
        form = ""
        if self.typing() and self.human_to_act():
            actions = self.query_one("#actions", OptionList)
            index = actions.highlighted
            found = index is not None and index < actions.option_count
            option = actions.get_option_at_index(index) if found and index is not None else None
            if option is not None and option.id and not option.id.startswith("end-") and option.id != "roll":
                form = option.id
        box.placeholder = (
            _("e.g. {line} (the highlighted action)").format(line=form) if form else _("or type an action (Tab)")
        )

    def table_view(self) -> TableView:
        """The game's own picture of the table for the player up (core/table.py)."""
        last_chance = next((s.text for s in reversed(self.match.record.steps) if s.actor is None), "")
        return self.match.game.table(self.match.state, [p.name for p in self.match.players], last_chance)

    def status_text(self, view: TableView) -> Text:
        """Who is up and what is pending (`status_head`), then the passing words (`passing_lines`)."""
        text = self.status_head(view)
        for line, style in self.passing_lines():
            text.append("\n" + line, style=style)
        return text

    def status_head(self, view: TableView) -> Text:
        """Who is up, the frame and ball, and what is pending in the game's words; at the end, the ending."""
        state = self.match.state
        text = Text()
        if state.is_terminal():
            text.append(_("Game over.") + "\n", style="bold green")
            text.append(self.final_words())
        else:
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
        return text

    def passing_lines(self, room_note: bool = True) -> list[tuple[str, str]]:
        """The status's passing words and their styles: typing mode, a note, (`room_note`) why the hints asked
        for do not show, a refusal."""
        lines = []
        if self.typing():
            lines.append((_("typing: Enter plays the line, Escape goes back to the keys"), "bold cyan"))
        if self.note:
            lines.append((self.note, "cyan"))
        if room_note and self.hint_asked() and not self.hint_shown():
            lines.append((_("no room for the hints in this window: a taller one shows them"), "cyan"))
        if self.message:
            lines.append((f"! {self.message}", "red"))
        return lines

    def typing(self) -> bool:
        return isinstance(self.focused, Input)

    def final_words(self) -> str:
        """The winner and the ranking, a line each (run together, `with 53 1. ann: 53` read as one number)."""
        return "\n".join(self.match.ending_lines())

    def hint_asked(self) -> bool:
        """Whether the hints are asked for (h) while there is something to hint: not once the game is over."""
        return self.show_hint and not self.match.state.is_terminal()

    def hint_shown(self) -> bool:
        """Whether the hint panel is on screen: asked for, and given its least rows (`fit_stack`)."""
        return self.hint_asked() and self.hint_rows >= HINT_ROWS_LEAST

    def update_hint(self) -> None:
        """The hint panel: hints are worked out in a thread (the first can take seconds), "thinking" till then."""
        box = self.query_one("#hint-box", VerticalScroll)
        # Once the game is over there is nothing to hint: the panel gives its room back to the ending.
        shown = self.hint_shown()
        box.display = shown
        self.set_class(shown, "hinting")  # the hints take the log's room (some of the table's too)
        if not shown:
            return
        hint = self.query_one("#hint", WrappedText)
        key = (self.match.steps_done, self.show_chances and offers_chances(self.match.state))
        known = self.chance_hints if key[1] else self.hints
        if not self.human_to_act():
            hint.show(Text(_("(no decision now)"), style="italic"))
        elif key[0] in known:
            hint.show(known[key[0]])
        else:
            thinking = _("thinking... (the first hint of a game can take a few seconds)")
            if key[1] and not self.chance_hints:
                thinking = _("thinking... (the first chances of a game can take half a minute)")
            hint.show(Text(thinking, style="italic"))
            if self.thinking != key:
                self.thinking = key
                state = self.match.state.clone()
                language = current_language()
                self.run_worker(lambda: self.work_out_hint(key, state, language), thread=True, exclusive=True)

    def work_out_hint(self, key: tuple[int, bool], state: Any, language: str) -> None:
        """In the worker's thread, which starts in the default language: the screen's is passed in."""
        with using_language(language):
            text = self.hint_text(state, chances=key[1])
        self.app.call_from_thread(self.hint_ready, key, text, language)

    def hint_ready(self, key: tuple[int, bool], text: Text, language: str) -> None:
        """Called from the worker's thread, in its context: the screen's language is passed in again."""
        (self.chance_hints if key[1] else self.hints)[key[0]] = text
        if self.thinking == key:
            self.thinking = None
        if self.is_mounted:
            with using_language(language):
                self.update_hint()

    @staticmethod
    def hint_text(state: Any, chances: bool = False) -> Text:
        """Every option with its value, best first (the panel scrolls), then what the values are; with
        `chances`, each option's chance to finish ahead too (offered under the best option where there is one)."""
        found = option_values(state)
        if found is None:
            return Text(no_hint_words(state))
        name, label, values = found
        chance_of = win_chances(state) if chances else None
        text = Text()
        # The best option first: in a short window the panel may show one line, and that is the hint.
        # The offer of the chances right under it, where it is seen without scrolling.
        lines = [(line, "") for line in hint_words(state, name, values, chance_of)]
        if chance_of is None and offers_chances(state):
            lines.insert(1, (_("c: each option's chance to finish ahead too"), "italic"))
        for line, style in lines:
            text.append(f"{line}\n", style=style)
        text.append(label, style="italic")  # what the values are, once, under them
        if chance_of is not None:
            text.append("\n" + chance_line(), style="italic")
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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer offers what can be done now: Play again and Review at the end, the play before."""
        over = self.match.state.is_terminal()
        if action in ("play_again", "review"):
            return over
        if action in ("toggle_hint", "undo"):  # a game without decisions has nothing to hint or take back
            return not over and self.match.game.has_decisions
        if action == "toggle_chances":  # basic Rolling Pins with others (and c hides them where shown)
            return game_offers_chances(self.match.state) or (self.show_chances and not over)
        if action in ("roll", "slower", "faster"):
            return not over
        if action == "keys_mode":
            return self.typing()
        return True

    # --- input -----------------------------------------------------------------------------
    def play_text(self, text: str, picked: list[int] | None = None) -> None:
        """Play a typed or chosen action; `picked`: the pins it was made from (a refusal names them)."""
        state = self.match.state
        if not self.human_to_act():
            self.answer_typed(text)
            return
        try:
            self.match.apply(state.game.parse_action(text))
        except GameError as exc:
            self.message = refusal_line(text, exc, picked) if picked else str(exc)
            self.log_line(Text(_("refused: {reason}").format(reason=self.message), style="red"))
        else:
            self.message = ""
            self.log_line(self.match.log_words()[-1])
            self.selected.clear()
        self.note = ""
        self.refresh_all()

    def answer_typed(self, text: str) -> None:
        """A line that cannot be played now is kept for the player's next move, or answered: never dropped."""
        if self.match.state.is_terminal():
            self.refuse(_("the game is over: {line} was not played").format(line=repr(text)))
        elif self.human_roll():
            if text.casefold() in (*ROLL_WORDS, _("roll")):
                self.action_roll()
            else:
                self.refuse(_("{line}: now the dice are rolled (space, or type roll)").format(line=repr(text)))
        else:
            self.typed.append(text)
            self.note = _("kept: {line} is played at your next move").format(line=repr(text))
            self.refresh_all()

    def refuse(self, reason: str) -> None:
        """A line typed or chosen that is not played: the reason in the status and in the log."""
        self.message = reason
        self.log_line(Text(_("refused: {reason}").format(reason=reason), style="red"))
        self.refresh_all()

    def play_typed(self) -> None:
        """The first line kept while it was not the player's move, now that it is (or the game is over)."""
        if self.typed and (self.human_to_act() or self.human_roll() or self.match.state.is_terminal()):
            self.play_text(self.typed.pop(0))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        option = event.option.id
        if option == "roll":
            self.action_roll()
        elif option == "end-again":
            self.action_play_again()
        elif option == "end-review":
            self.action_review()
        elif option == "end-back":
            self.action_leave()
        elif option is not None:
            self.play_text(option)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        # A new list starts on its first action (not the player's doing); a move down the list is.
        if self.message and event.option_list.id == "actions" and event.option_index and self.human_to_act():
            self.message = ""  # an old refusal does not stay beside another choice
            self.query_one("#status", WrappedText).show(self.status_text(self.table_view()))

    TYPED: ClassVar[dict[str, str]] = {
        "hint": "toggle_hint",
        "hints": "toggle_hint",
        "undo": "undo",
        "rules": "help",
        "help": "help",
        "?": "help",
        "quit": "leave",
        "q": "leave",
        "back": "leave",
        "abilities": "abilities",
        "again": "play_again",
        "review": "review",
    }

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.input.value = ""
        text = event.value.strip()
        if text.casefold() in self.TYPED:  # the words the line-based game takes at any prompt
            getattr(self, f"action_{self.TYPED[text.casefold()]}")()
        elif text == "sheet":
            self.note = _("the scoresheets are at the top of the screen")
            self.refresh_all()
        elif text or self.human_roll():
            self.play_text(text)  # an empty line at a roll rolls, as in `pinsetter play`
        else:
            self.message = _(
                "type an action (the empty box shows how the highlighted one is typed), or hint, undo, rules, quit"
            )
            self.refresh_all()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.after_focus()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self.after_focus()

    def after_focus(self) -> None:
        """The typing mode shows: the box's colour, a line in the status, and its keys in the footer."""
        self.set_class(self.typing(), "typing")
        if self.is_mounted:
            with contextlib.suppress(Exception):  # the screen is being taken down
                self.show_play_column(self.table_view())  # the typing line costs a row of a short window
            self.refresh_bindings()

    def action_keys_mode(self) -> None:
        """Escape from the typing box: the keys are commands again."""
        self.query_one("#actions", OptionList).focus()

    def action_roll(self) -> None:
        state = self.match.state
        if state.is_chance_node() and not state.is_terminal():
            self.step_auto()
            self.refresh_all()
        elif self.selected:
            self.confirm_selection()

    def action_toggle_pin(self, pin: int) -> None:
        if self.typing():
            raise SkipAction()  # a digit of a typed line, for the typing box
        if not self.human_to_act() or pin > self.match.game.lane.pins:
            return
        self.selected ^= {pin}
        self.message = ""  # a refusal was about the pins picked before
        self.refresh_all()

    def action_next_pile(self) -> None:
        if self.typing():
            raise SkipAction()
        piles = [p.number for p in self.table_view().piles if p.top is not None]
        if piles:
            self.pile = piles[(piles.index(self.pile) + 1) % len(piles)] if self.pile in piles else piles[0]
        self.message = ""
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

    def action_enter_guard(self) -> None:
        """Enter with pins (or cards) picked plays the pick, whatever has the focus but the typing box and
        whichever action the list highlights; otherwise the guard's rule, then the focused control."""
        if self.too_soon():
            return
        if self.selected and not self.typing() and self.human_to_act():
            self.confirm_selection()
            return
        raise SkipAction()

    def action_miss(self) -> None:
        self.play_if_offered("miss")

    def action_stop(self) -> None:
        self.play_if_offered("stop")

    def play_if_offered(self, action: str) -> None:
        """A shortcut key for a plain choice, where the table offers it."""
        if self.human_to_act() and any(c.action == action for c in self.table_view().choices):
            self.play_text(action)

    def action_toggle_hint(self) -> None:
        if not self.check_action("toggle_hint", ()):  # typed "hint" where the footer offers none
            self.action_no_hint()
            return
        self.show_hint = not self.show_hint
        self.refresh_all()

    def action_no_hint(self) -> None:
        """h where the footer offers no Hint (the game is over, or chance decides every ball): why, in the status."""
        if self.match.state.is_terminal():
            self.message = _("the game is over: there is nothing left to hint")
        else:
            self.message = no_decisions_words(self.match.game)
        self.refresh_all()

    def action_toggle_chances(self) -> None:
        """Each option's chance to finish ahead of the others, with the hints (basic Rolling Pins with others)."""
        self.show_chances = not self.show_chances
        self.show_hint = True
        self.refresh_all()

    def action_no_chances(self) -> None:
        """c where the game offers no chances: which games do, in the status line."""
        self.message = _(NO_CHANCES)
        self.refresh_all()

    def action_abilities(self) -> None:
        """What each ability does, under the track (where the game has one)."""
        self.show_abilities = not self.show_abilities
        self.refresh_all()

    def pace_note(self) -> str:
        seconds = SPEEDS[self.speed]
        if not seconds:
            return _("pace: automatic steps at once")
        return _("pace: {seconds} s between automatic steps").format(seconds=f"{seconds:g}")

    def action_slower(self) -> None:
        self.speed = min(self.speed + 1, len(SPEEDS) - 1)
        self.note = self.pace_note() + ("" if self.speed < len(SPEEDS) - 1 else " " + _("(the slowest)"))
        self.refresh_all()

    def action_faster(self) -> None:
        self.speed = max(self.speed - 1, 0)
        self.note = self.pace_note() + ("" if self.speed else " " + _("(the fastest)"))
        self.refresh_all()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.match.game.rules()))  # the rules describe every ability

    def action_undo(self) -> None:
        """Take back the last decision if the match's rule allows it (`Match.can_undo`), or say why not;
        either way in the status line, where every other answer to a key shows (and what was done in the log)."""
        reason = self.match.can_undo()
        if reason is not None:
            self.message = _("cannot undo: {reason}").format(reason=reason)
        else:
            taken = self.match.undo()
            self.message = ""
            words = ngettext("undo: {count} step taken back", "undo: {count} steps taken back", taken)
            self.log_line(words.format(count=taken))
            self.note = words.format(count=taken)
        self.selected.clear()
        self.refresh_all()

    def action_undo_refused(self) -> None:
        """u where the footer offers no Undo (the game is over, or it has no decisions): the reason."""
        self.action_undo()

    def action_play_again(self) -> None:
        """The same game (players, options, undo setting) again with new dice, kept in the history as a new game."""
        if not self.match.state.is_terminal():
            return
        old = self.match
        match = Match.new(old.game.id, list(old.players), seed=draw_seed(), options=dict(old.record.options))
        match.undo_allowed = old.undo_allowed
        match.storage = old.storage
        match.store()
        self.app.switch_screen(type(self)(match, speed=self.speed))

    def action_review(self) -> None:
        """The finished game's review where a solver values it, else step by step (`tui_review.review_or_replay`)."""
        if not self.match.state.is_terminal():
            return
        from pinsetter.ui.tui_review import review_or_replay

        stored: Any = None
        if self.match.storage is not None and self.match.game_id is not None:
            with contextlib.suppress(Exception):  # the history failed: the record in memory serves
                stored = self.match.storage.get(self.match.game_id)
        if stored is None:
            stored = types.SimpleNamespace(
                id=self.match.game_id or 0, game=self.match.game.id, record=self.match.record
            )
        self.app.push_screen(review_or_replay(stored))

    def action_leave(self) -> None:
        self.match.store()
        self.app.pop_screen()
