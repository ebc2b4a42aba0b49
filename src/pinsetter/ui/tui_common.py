"""Pieces every full-screen terminal screen shares: the Enter guard, translated footer keys, text that
wraps once at its own width, and the words for a stored game (where each player stands, its replay).

The screens (launcher, game, history, learn) import these from here, so that no screen module needs
another screen's module for them.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Static
from textual.widgets._footer import FooterKey

from pinsetter.core.game import GameError
from pinsetter.core.narration import narrate
from pinsetter.i18n import N_, _
from pinsetter.records import PlayerSpec
from pinsetter.ui.sheet import frame_columns, sheet_rows
from pinsetter.ui.standing import resume_summary, standing_words
from pinsetter.ui.wrap import wrap_text

__all__ = [
    "ENTER_GUARD",
    "GUARD_BINDING",
    "HUGE",
    "NARROW",
    "SHORT",
    "TINY",
    "WIDE",
    "EnterGuard",
    "KeyFooter",
    "WrappedText",
    "highlight_frame",
    "replay_lines",
    "resume_summary",
    "standing_words",
    "translate_bindings",
]

ENTER_GUARD = 0.3  # seconds after a screen opens during which Enter is ignored (a held or doubled Enter)

# The sizes every screen lays itself out by (docs/tui.md, "Sizes, colour and words").
NARROW = 76  # columns: below, the columns of a screen stack
WIDE = 110  # columns: from here the game's log goes under the table
HUGE = 160  # columns: from here the game's log has a column of its own
SHORT = 32  # rows: below, no title bar and no borders
TINY = 22  # rows: below, the sheet has no rules between its players


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


class KeyFooter(Footer):
    """The footer's keys, as many as fit the terminal's width, never one cut mid-word.

    Each screen lists its keys in the order a narrow footer keeps them (Help and Back first);
    the ones that do not fit are left out from the end (their keys still work, and the help
    says them), a pair such as Slower and Faster both or neither. Compact below `compact_below`
    columns, and the command palette's key only from NARROW columns up (it takes room a narrow
    footer needs).
    """

    def __init__(self, compact_below: int = WIDE, together: tuple[frozenset[str], ...] = ()) -> None:
        """`together`: sets of actions shown all or none (Slower without Faster would read as a mistake)."""
        super().__init__()
        self.compact_below = compact_below
        self.together = together
        self.fitted_to = 0

    def compose(self) -> ComposeResult:
        width = self.app.size.width
        self.fitted_to = width
        self.set_reactive(Footer.compact, width < self.compact_below)
        self.set_class(width < self.compact_below, "-compact")
        self.set_reactive(Footer.show_command_palette, width >= NARROW)
        widgets = list(super().compose())  # keys only: no screen here groups its bindings
        keys = [w for w in widgets if isinstance(w, FooterKey)]
        palette = [key for key in keys if "-command-palette" in key.classes]
        room = width - 1 - sum(self.key_width(key) for key in palette)
        left_out: set[FooterKey] = set()
        for key in keys:
            if key in palette:
                continue
            if left_out or self.key_width(key) > room:
                left_out.add(key)  # and every key after it: the order is the order of importance
            else:
                room -= self.key_width(key)
        for group in self.together:
            members = [key for key in keys if key.action in group]
            if any(key in left_out for key in members):
                left_out.update(members)
        yield from (w for w in widgets if w not in left_out)

    def key_width(self, key: FooterKey) -> int:
        """The cells a key takes in the footer: its key, its words, the padding and margin around them."""
        words = cell_len(key.description)
        if "-command-palette" in key.classes:
            return cell_len(key.key_display) + words + 4  # its rule on the left and its padding
        if self.compact:
            return cell_len(key.key_display) + (1 + words if words else 0) + 1
        return cell_len(key.key_display) + 2 + (words + 1 if words else 0)

    def on_resize(self, event: events.Resize) -> None:
        if self.app.size.width != self.fitted_to:
            self.refresh(recompose=True)


class WrappedText(Static):
    """Text wrapped by `ui.wrap` at the widget's own width, and again whenever that width changes.

    Textual would wrap a long line itself, but only at spaces (Japanese then starts lines with `。`),
    and text wrapped beforehand at another width gets wrapped a second time (a line of two words
    alone). Here the text is laid out once, at the width it is shown in, and never wrapped again.
    """

    def __init__(
        self, text: Text | str = "", id: str | None = None, classes: str | None = None, hang: bool = False
    ) -> None:
        """`hang`: a line that starts with an indent or a mark goes on under its words (a list of options)."""
        super().__init__(id=id, classes=classes)
        self.source = Text(text) if isinstance(text, str) else text
        self.hang = hang
        self.wrapped_at = 0

    def show(self, text: Text | str) -> None:
        self.source = Text(text) if isinstance(text, str) else text
        self.rewrap()

    def on_mount(self) -> None:
        self.rewrap()

    def rewrap(self) -> None:
        self.wrapped_at = self.size.width
        if self.wrapped_at > 0:
            shown = wrap_text(self.source, self.wrapped_at, hang=self.hang)
            shown.no_wrap = True  # already laid out: Textual must not fold it again
            self.update(shown)
        else:
            self.update(self.source)

    def on_resize(self, event: events.Resize) -> None:
        if self.size.width != self.wrapped_at:
            self.rewrap()


# --- the sheet -------------------------------------------------------------------------------


def highlight_frame(
    sheet: Text,
    names: list[str],
    frames: int,
    player: int,
    frame: int | None,
    compact: bool = False,
    ruled: bool = True,
) -> None:
    """Colour the frame being played in the player's two rows of a `render_sheets` sheet."""
    if frame is None:
        return
    lines = sheet.plain.split("\n")
    column, width = frame_columns(names, frames, compact)[frame - 1]
    rows = sheet_rows(player, ruled)
    offset = 0
    for number, line in enumerate(lines):
        if number in rows:
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


# --- a stored game ------------------------------------------------------------------------------


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
