"""The terminal's review of a game (issue 28): each decision against the best move, and a chart.

The screen is a client of `pinsetter.review`: it computes nothing of its own but the layout. Per
reviewed player it shows the accuracy, the points lost, the luck, the three costliest decisions
(the move played and the best one, in words), a chart of the expected final score over the game
drawn in text (`path_chart`), and every decision in a list, those that lost points marked in words
and in colour; Enter on one opens the step-through replay at that decision. A game no solver
values (advanced Rolling Pins not solved yet, the games without decisions) shows the review's one-line reason.

From 110 columns the decisions sit beside the summary; below, `d` switches between the two. The
review runs in a thread (a Bowling Solitaire review takes seconds) and is kept for the latest few
records (`reviewed`), so opening it again is instant.
"""

from __future__ import annotations

import bisect
import contextlib
import math
import threading
import types
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from pinsetter.catalog import game_title
from pinsetter.core.game import Game, GameError
from pinsetter.i18n import N_, _, current_language, ngettext, using_language
from pinsetter.records import Record, game_played, new_state_for
from pinsetter.review import Decision, PlayerReview, Review, review, reviewable
from pinsetter.ui.tui_common import GUARD_BINDING, EnterGuard, WrappedText, translate_bindings
from pinsetter.ui.wrap import wrap_text
from pinsetter.usertext import visible

__all__ = [
    "BLOCKS",
    "REVIEWS_KEPT",
    "DecisionList",
    "ReviewScreen",
    "chart_range",
    "frame_starts",
    "path_chart",
    "review_label",
    "review_or_replay",
    "reviewed",
]

WIDE = 110  # columns: from here the decisions are listed beside the summary
NARROW = 76  # columns: below, the footer has no room for the command palette's key
SHORT = 32  # rows: below, no title bar
TINY = 24  # rows: below, no buttons (the footer has their keys) and the review's title under the chart
TALL = 50  # rows: from here the chart is drawn taller
REVIEWS_KEPT = 8  # reviews kept by record and language (a Bowling Solitaire review takes seconds)
BLOCKS = " ▁▂▃▄▅▆▇█"  # a column's height in eighths of a row

REVIEW_LABEL = N_("Review this game: each decision against the best move")
STEP_LABEL = N_("Review this game step by step")

_reviews: OrderedDict[tuple[str, str], Review] = OrderedDict()
_reviews_lock = threading.Lock()


def reviewed(record: Record) -> Review:
    """`review(record)` in the current language, kept for the latest REVIEWS_KEPT records: asked again, instant."""
    key = (record.dumps(), current_language())
    with _reviews_lock:
        found = _reviews.get(key)
        if found is not None:
            _reviews.move_to_end(key)
            return found
    result = review(record)
    with _reviews_lock:
        _reviews[key] = result
        while len(_reviews) > REVIEWS_KEPT:
            _reviews.popitem(last=False)
    return result


def review_label(game: Game) -> str:
    """The end screen's Review choice in words: the review where the game can have one, else the step-through."""
    return _(REVIEW_LABEL) if reviewable(game) is None else _(STEP_LABEL)


def review_or_replay(stored: Any) -> Screen[None]:
    """The screen the end of a game's Review opens: the review, or the replay where no solver values the game."""
    record = stored.record
    if reviewable(game_played(record.game, record.options)) is None:
        return ReviewScreen(stored)
    from pinsetter.ui.tui_history import ReplayScreen

    return ReplayScreen(stored)


# --- the chart -------------------------------------------------------------------------------------


def _nice_step(span: float, parts: int) -> float:
    """A round step (1, 2 or 5 times a power of ten) that cuts `span` into about `parts` parts."""
    raw = span / max(1, parts)
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw * (1 - 1e-9))


def chart_range(values: Sequence[float], rows: int) -> tuple[float, float]:
    """The chart's bottom and top: round numbers around the values, the bottom below the lowest
    (so that the lowest value still shows as a bar) but never below 0."""
    low, high = min(values), max(values)
    step = _nice_step(high - low if high > low else 1.0, max(1, rows // 2))
    bottom = math.floor(low / step) * step
    if bottom >= low:
        bottom = max(0.0, bottom - step)
    top = max(math.ceil(high / step) * step, bottom + step)
    return bottom, top


def _number(value: float, bottom: float, top: float) -> str:
    return f"{value:.0f}" if top - bottom >= 5 else f"{value:.1f}"


def frame_starts(record: Record, seat: int) -> dict[int, int]:
    """Where each of the seat's frames begins: the steps played before the seat's first step in it.

    The path cannot say it: its point after a frame's last ball is already in the next frame, which
    (with other players, or a deal of cards) begins many steps later.
    """
    state = new_state_for(record)
    starts: dict[int, int] = {}
    for index, step in enumerate(record.steps):
        if state.is_terminal():
            break
        context = state.ball_context(seat)
        if context is not None and state.turn() == seat:
            starts.setdefault(context.frame, index)
        state.apply_by(step.actor, step.text)
    return starts


def path_chart(seat: PlayerReview, steps: int, width: int, rows: int, starts: Mapping[int, int]) -> Text:
    """The seat's expected final score over the game as columns of blocks, `width` cells by `rows` + 2 lines.

    x: the steps of the record, so that each frame (a tick on the axis where `starts`, from
    `frame_starts`, says it begins; numbered under it where there is room) falls where it was
    played; y: from a round number under the lowest value to one over the highest, both labelled.
    A column where the seat's decision lost points is red; the costliest three are numbered on the
    axis, as in the list beside.
    """
    frame_word = _("frame")
    points = seat.path
    values = [p.value for p in points]
    bottom, top = chart_range(values, rows)
    labels = (_number(top, bottom, top), _number(bottom, bottom, top))
    gutter = max(cell_len(frame_word), *(cell_len(label) for label in labels))
    columns = max(1, width - gutter - 2)
    steps = max(1, steps, points[-1].step)
    at = [p.step for p in points]

    def value_at(step: float) -> float:
        return values[max(0, bisect.bisect_right(at, step) - 1)]

    def column_of(step: int) -> int:
        return min(columns - 1, max(0, math.ceil(step * columns / steps) - 1))

    shown = [value_at((c + 1) * steps / columns) for c in range(columns)]
    eighths = [round((v - bottom) / (top - bottom) * rows * 8) for v in shown]
    lost = {column_of(d.step) for d in seat.decisions if d.own and not d.best}
    marks = {column_of(d.step): str(rank) for rank, d in reversed(list(enumerate(seat.costliest, start=1)))}
    text = Text()
    for row in range(rows):
        label = labels[0] if row == 0 else labels[1] if row == rows - 1 else ""
        text.append(label.rjust(gutter) + (" ┤" if label else " │"), style="dim")
        floor = (rows - 1 - row) * 8
        for column, height in enumerate(eighths):
            block = BLOCKS[min(8, max(0, height - floor))]
            text.append(block, style="red" if column in lost else "cyan")
        text.append("\n")
    # The axis: a tick where each frame begins, the costliest decisions' numbers where they were made.
    ticks = {min(columns - 1, step * columns // steps): frame for frame, step in sorted(starts.items())}
    text.append(" " * (gutter + 1) + "└", style="dim")
    for column in range(columns):
        if column in marks:
            text.append(marks[column], style="bold red")
        else:
            text.append("┬" if column in ticks else "─", style="dim")
    text.append("\n" + frame_word + " " * (gutter + 2 - cell_len(frame_word)), style="dim")
    line = ""
    for column in sorted(ticks):
        number = str(ticks[column])
        if column >= len(line) + (1 if line else 0) and column + len(number) <= columns:
            line = line.ljust(column) + number
    text.append(line, style="dim")
    return text


class PathChart(Static):
    """`path_chart` at the widget's own size, drawn again whenever the size changes."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.seat: PlayerReview | None = None
        self.steps = 0
        self.starts: Mapping[int, int] = {}

    def plot(self, seat: PlayerReview | None, steps: int, starts: Mapping[int, int]) -> None:
        self.seat = seat
        self.steps = steps
        self.starts = starts
        self.redraw()

    def redraw(self) -> None:
        width, height = self.content_size
        if self.seat is None or width <= 0 or height <= 0:
            self.update("")
            return
        chart = Text(_("Expected final score over the game") + "\n", style="bold")
        chart.append_text(path_chart(self.seat, self.steps, width, max(2, height - 3), self.starts))
        chart.no_wrap = True
        self.update(chart)

    def on_resize(self, event: events.Resize) -> None:
        self.redraw()


# --- text laid out at its width --------------------------------------------------------------------


@dataclass(frozen=True)
class Paragraph:
    """A paragraph indented by `indent` cells; `first` (as wide as the indent) starts its first line."""

    text: Text
    indent: int = 0
    first: str = ""


def lay_out(paragraphs: Sequence[Paragraph], width: int) -> Text:
    """Paragraphs wrapped at `width` (Japanese by its rules, `ui.wrap`), each line under its indent."""
    lines: list[Text] = []
    for paragraph in paragraphs:
        room = max(8, width - paragraph.indent) if width > 0 else 10_000
        wrapped = wrap_text(paragraph.text, room).split("\n", allow_blank=True)
        for number, line in enumerate(wrapped):
            lead = paragraph.first if number == 0 and paragraph.first else " " * paragraph.indent
            lines.append(Text(lead).append_text(line))
    text = Text("\n").join(lines)
    text.no_wrap = True
    return text


class Paragraphs(Static):
    """`Paragraph`s laid out at the widget's width, again whenever it changes (never wrapped twice)."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.paragraphs: list[Paragraph] = []
        self.laid_at = 0

    def show(self, paragraphs: Sequence[Paragraph]) -> None:
        self.paragraphs = list(paragraphs)
        self.relay()

    def relay(self) -> None:
        self.laid_at = self.content_size.width
        self.update(lay_out(self.paragraphs, self.laid_at))

    def on_resize(self, event: events.Resize) -> None:
        if self.content_size.width != self.laid_at:
            self.relay()


class DecisionList(OptionList):
    """The decisions, a few lines each, laid out at the list's width (and again when it changes)."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id, compact=True)
        self.entries: list[list[Paragraph]] = []
        self.laid_at = -1

    def show(self, entries: list[list[Paragraph]]) -> None:
        self.entries = entries
        self.laid_at = -1
        self.relay()

    def room(self) -> int:
        padding = self.get_component_styles("option-list--option").padding
        return self.scrollable_content_region.width - padding.width

    def relay(self) -> None:
        width = self.room()
        if width == self.laid_at:
            return
        self.laid_at = width
        highlighted = self.highlighted
        self.clear_options()
        self.add_options(Option(lay_out(entry, width), id=str(n)) for n, entry in enumerate(self.entries))
        if self.entries:
            self.highlighted = min(highlighted or 0, len(self.entries) - 1)

    def on_resize(self, event: events.Resize) -> None:
        self.relay()


# --- the words ---------------------------------------------------------------------------------------


def review_title(result: Review, heading: str) -> str:
    title = _("Review of {what}: {game}").format(what=heading, game=result.title)
    return title + _(" (unfinished)") if not result.complete else title


def summary_paragraphs(result: Review, seat: PlayerReview, heading: str, titled: bool = True) -> list[Paragraph]:
    """The heading, the player's figures (the command line's words) and the costliest decisions.

    `titled=False` (a window under TINY rows): no heading; the figures in one paragraph, and each
    costliest decision's move played and best move in one.
    """
    out = [Paragraph(Text(review_title(result, heading), style="bold"))] if titled else []
    if len(result.players) > 1:
        place = [p.seat for p in result.players].index(seat.seat) + 1
        out.append(
            Paragraph(
                Text(
                    _("player {n} of the {count} reviewed (p: the next)").format(n=place, count=len(result.players)),
                    style="dim",
                )
            )
        )
    who = visible(seat.name)
    if not seat.decisions:
        return [*out, Paragraph(Text(_("{name}: no decisions yet").format(name=who), style="bold"))]
    figure = seat.accuracy_words(who)
    out.append(Paragraph(Text(figure, style="bold")))
    lost = _("points lost to the best moves: {loss}").format(loss=f"{seat.total_loss:.2f}")
    if seat.finished:
        path = _("expected score {start} at the start; final score {score}; luck {luck}")
    else:
        path = _("expected score {start} at the start, {end} now; luck so far {luck}")
    figures = path.format(start=f"{seat.start:.1f}", end=f"{seat.end:.1f}", score=seat.score, luck=f"{seat.luck:+.1f}")
    if titled:
        out += [Paragraph(Text(lost), 2), Paragraph(Text(figures), 2)]
    else:  # a tiny window: one paragraph (a line saved for the costliest decisions)
        out.append(Paragraph(Text(_("{first}; {second}").format(first=lost, second=figures)), 2))
    costliest = seat.costliest
    if not costliest:
        out.append(Paragraph(Text(_("every decision was the best move"), style="green"), 2))
        return out
    out.append(Paragraph(Text(_("The costliest decisions:"), style="bold")))
    for rank, d in enumerate(costliest, start=1):
        out.append(Paragraph(Text(d.situation), 3, f"{rank}. "))
        chosen = _("you chose: {move}").format(move=d.words)
        best = _("best: {move}, worth {loss} points more").format(move=d.best_words, loss=f"{d.loss:.2f}")
        if titled:
            out += [Paragraph(Text(chosen), 3), Paragraph(Text(best, style="red"), 3)]
        else:  # a tiny window: the two in one paragraph, the best move still red
            both = Text(_("{first}; {second}").format(first=chosen, second=best))
            start = both.plain.find(best)
            both.stylize("red", start, start + len(best))
            out.append(Paragraph(both, 3))
    return out


def decision_entry(d: Decision) -> list[Paragraph]:
    """One decision in the list: where it was, the move played, and what it cost, in words and colour."""
    move = d.words if d.own else _("{move} (played by a bot)").format(move=d.words)
    if not d.best:
        mark = Text("✗ " + _("lost {loss} points; best: {move}").format(loss=f"{d.loss:.2f}", move=d.best_words))
        mark.stylize("bold red")
    elif d.mattered:
        mark = Text("✓ " + _("the best move"), style="green")
    else:
        mark = Text("· " + _("no real choice: every move was as good"), style="dim")
    return [
        Paragraph(Text(d.situation, style="bold" if not d.best else ""), 0),
        Paragraph(Text(_("you chose: {move}").format(move=move)), 2),
        Paragraph(mark, 2),
    ]


def decisions_heading(seat: PlayerReview) -> Text:
    """`182 decisions, 179 real choices, 1 with points lost`: the list's length, and the real choices
    the summary's accuracy counts (a move where every option was as good is listed, not counted)."""
    lost = sum(1 for d in seat.decisions if d.own and not d.best)  # the seat's own, as the chart's red columns
    parts = [
        ngettext("{count} decision", "{count} decisions", len(seat.decisions)).format(count=len(seat.decisions)),
        ngettext("{count} real choice", "{count} real choices", len(seat.counted)).format(count=len(seat.counted)),
        _("{count} with points lost").format(count=lost),
    ]
    heading = Text(_(", ").join(parts), style="bold")
    heading.append("  " + _("(Enter: the position in the replay)"), style="dim")
    return heading


# --- the screen ---------------------------------------------------------------------------------------


class ReviewScreen(EnterGuard, Screen[None]):
    """A game's review: the summary, the costliest decisions and the chart; the decisions listed.

    `stored` is a game of the history (or any object with its `id`, `game` and `record`). Escape
    goes back; `d` shows the decisions (beside the summary from 110 columns, in its place below);
    `p` the next reviewed player; `s` (or Enter on a decision) the replay at the decision.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        GUARD_BINDING,
        Binding("escape,q", "back", N_("Back")),
        Binding("d", "decisions", N_("Decisions")),
        Binding("p", "next_player", N_("Next player")),
        Binding("s", "replay", N_("Step through")),
    ]
    DEFAULT_CSS = """
    ReviewScreen #review-main { height: 1fr; }
    ReviewScreen #review-left { width: 11fr; height: 1fr; padding: 0 1; scrollbar-size-vertical: 1; }
    ReviewScreen #review-right { width: 9fr; height: 1fr; padding: 0 0 0 1; border-left: solid $secondary; }
    ReviewScreen #review-summary, ReviewScreen #review-meaning { height: auto; }
    ReviewScreen #review-chart { height: 10; margin: 1 0 0 0; }
    ReviewScreen.tall #review-chart { height: 16; }
    ReviewScreen.short #review-chart { height: 8; }
    ReviewScreen #review-meaning { color: $text-muted; }
    ReviewScreen #review-heading { height: auto; }
    ReviewScreen #review-decisions { height: 1fr; text-wrap: nowrap; scrollbar-gutter: stable;
        scrollbar-size-vertical: 1; }
    ReviewScreen #review-bar { height: auto; }
    ReviewScreen.short Header { display: none; }
    ReviewScreen.tiny #review-bar { display: none; }
    ReviewScreen.narrow #review-right { display: none; }
    ReviewScreen.narrow.listing #review-left { display: none; }
    ReviewScreen.narrow.listing #review-right { display: block; width: 1fr; border-left: none; padding: 0; }
    ReviewScreen.unreviewed #review-right, ReviewScreen.unreviewed #review-chart { display: none; }
    ReviewScreen.unreviewed #review-decisions-button { display: none; }
    """

    def __init__(self, stored: Any) -> None:
        super().__init__()
        translate_bindings(self)
        self.stored = stored
        self.record: Record = stored.record
        self.result: Review | None = None
        self.starts: dict[int, dict[int, int]] = {}  # by seat, where each of its frames begins (`frame_starts`)
        self.refusal = ""  # why the game is not reviewed, in one line
        self.player = 0  # which of the reviewed players is shown
        self.listing = False  # below WIDE columns: the decisions shown in the summary's place

    def heading(self) -> str:
        game_id = getattr(self.stored, "id", 0)
        return _("game {id}").format(id=game_id) if game_id else _("this game")

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="review-main"):
            with VerticalScroll(id="review-left"):
                yield Paragraphs(id="review-summary")
                yield PathChart(id="review-chart")
                yield WrappedText(id="review-meaning")
            with Vertical(id="review-right"):
                yield WrappedText(id="review-heading")
                yield DecisionList(id="review-decisions")
        with Horizontal(classes="row", id="review-bar"):
            yield Button(_("Decisions"), id="review-decisions-button", compact=True)
            yield Button(_("Step through"), id="review-replay", compact=True)
            yield Button(_("Next player"), id="review-next-player", compact=True)
            yield Button(_("Back"), id="review-back", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.guard_from_now()
        self.title = _("pinsetter - review")
        self.sub_title = game_title(self.record.game, self.record.options)
        self.fit(self.app.size.width, self.app.size.height)
        self.query_one("#review-next-player", Button).display = False
        self.set_class(True, "unreviewed")  # until the review is there
        refused = reviewable(game_played(self.record.game, self.record.options))
        if refused is not None:
            self.refused(refused)
        else:
            self.query_one("#review-summary", Paragraphs).show(
                [
                    Paragraph(
                        Text(
                            _("reviewing each decision... (a Bowling Solitaire game takes a few seconds)"),
                            style="italic",
                        )
                    )
                ]
            )
            language = current_language()
            self.run_worker(lambda: self.work_out(language), thread=True, exclusive=True)
        self.query_one("#review-left", VerticalScroll).focus()

    def on_screen_resume(self) -> None:
        self.guard_from_now()

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width, event.size.height)

    def fit(self, width: int, height: int) -> None:
        self.set_class(width < WIDE, "narrow")
        self.set_class(height < SHORT, "short")
        self.set_class(height >= TALL, "tall")
        tiny = height < TINY
        if tiny != self.has_class("tiny"):
            self.set_class(tiny, "tiny")
            self.show_player()
        footer = self.query_one(Footer)
        footer.compact = width < WIDE
        footer.show_command_palette = width >= NARROW  # a narrow footer keeps its room for the screen's keys
        self.show_listing(self.listing)

    # --- the review, worked out in a thread ---------------------------------------------------------
    def work_out(self, language: str) -> None:
        """In the worker's thread, which starts in the default language: the screen's is passed in."""
        from pinsetter.records import RecordError

        with using_language(language):
            try:
                result: Review | str = reviewed(self.record)
                assert isinstance(result, Review)
                self.starts = {seat.seat: frame_starts(self.record, seat.seat) for seat in result.players}
            except RecordError as exc:
                result = _("{what}: {reason}").format(what=self.heading(), reason=exc)
            except GameError as exc:
                result = str(exc)
            except Exception as exc:  # a solver or its cache failed: said in one line, the app goes on
                result = _("the review failed: {reason}").format(
                    reason=str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                )
        with contextlib.suppress(RuntimeError):  # the app closed while the review was worked out
            self.app.call_from_thread(self.ready, result, language)

    def ready(self, result: Review | str, language: str) -> None:
        """Called from the worker's thread, in its context: the screen's language is passed in again."""
        if self.is_mounted:
            with using_language(language):
                self.show_result(result)

    def show_result(self, result: Review | str) -> None:
        if isinstance(result, str):
            self.refused(result)
            return
        self.result = result
        self.set_class(False, "unreviewed")
        self.query_one("#review-next-player", Button).display = len(result.players) > 1
        self.show_player()
        if not self.has_class("narrow"):
            self.query_one("#review-decisions", DecisionList).focus()
        self.refresh_bindings()

    def refused(self, reason: str) -> None:
        """A game no solver values, or a record that does not replay: the one-line reason, and Back."""
        self.refusal = reason
        title = _("Review of {what}: {game}").format(
            what=self.heading(), game=game_title(self.record.game, self.record.options)
        )
        self.query_one("#review-summary", Paragraphs).show(
            [
                Paragraph(Text(title, style="bold")),
                Paragraph(Text(visible(reason), style="yellow")),
                Paragraph(Text(_("s steps through the game; Escape goes back"), style="dim")),
            ]
        )
        self.refresh_bindings()

    def show_player(self) -> None:
        """The reviewed player `self.player`: figures, costliest, chart, and the list of decisions."""
        if self.result is None:
            return
        seat = self.result.players[self.player]
        tiny = self.has_class("tiny")  # the summary's first lines go to the figures, the title under the chart
        summary = summary_paragraphs(self.result, seat, self.heading(), titled=not tiny)
        self.query_one("#review-summary", Paragraphs).show(summary)
        meaning = Text(_("Values: {meaning}").format(meaning=self.result.meaning))
        if tiny:
            meaning = Text(review_title(self.result, self.heading()) + "\n", style="bold").append_text(meaning)
        self.query_one("#review-meaning", WrappedText).show(meaning)
        chart = self.query_one("#review-chart", PathChart)
        chart.display = bool(seat.decisions)
        chart.plot(seat, self.result.steps, self.starts.get(seat.seat, {}))
        self.query_one("#review-heading", WrappedText).show(decisions_heading(seat))
        self.query_one("#review-decisions", DecisionList).show([decision_entry(d) for d in seat.decisions])
        self.call_after_refresh(self.query_one("#review-decisions", DecisionList).relay)  # at its laid-out width

    # --- keys and buttons ---------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer offers what applies: the decisions and the next player once there are some."""
        if action == "decisions":
            return self.result is not None
        if action == "next_player":
            return self.result is not None and len(self.result.players) > 1
        return True

    def show_listing(self, listing: bool) -> None:
        """Below WIDE columns, the decisions in the summary's place (or back); `d`'s word says which is next."""
        self.listing = listing
        self.set_class(listing, "listing")
        narrow_list = listing and self.has_class("narrow")
        word = N_("Summary") if narrow_list else N_("Decisions")
        table = self._bindings.key_to_bindings
        table["d"] = [replace(b, description=_(word)) for b in table.get("d", [])]
        self.query_one("#review-decisions-button", Button).label = _(word)
        self.refresh_bindings()

    def action_decisions(self) -> None:
        if self.result is None:
            return
        if self.has_class("narrow"):
            self.show_listing(not self.listing)
            target = "#review-decisions" if self.listing else "#review-left"
            self.query_one(target).focus()
        else:
            self.query_one("#review-decisions", DecisionList).focus()

    def action_next_player(self) -> None:
        if self.result is not None and len(self.result.players) > 1:
            self.player = (self.player + 1) % len(self.result.players)
            self.show_player()

    def action_replay(self) -> None:
        """The step-through replay, at the highlighted decision (at the end where there is none)."""
        at = None
        if self.result is not None:
            decisions = self.result.players[self.player].decisions
            index = self.query_one("#review-decisions", DecisionList).highlighted
            if index is not None and index < len(decisions):
                at = decisions[index].step - 1
        self.open_replay(at)

    def open_replay(self, at: int | None) -> None:
        from pinsetter.ui.tui_history import ReplayScreen

        stored = self.stored
        if not hasattr(stored, "game"):
            stored = types.SimpleNamespace(id=getattr(stored, "id", 0), game=self.record.game, record=self.record)
        replay = ReplayScreen(stored)
        if at is not None:
            replay.at = min(at, len(replay.states) - 1)  # the position the decision was made in
        self.app.push_screen(replay)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if self.result is None or event.option.id is None:
            return
        decisions = self.result.players[self.player].decisions
        self.open_replay(decisions[int(event.option.id)].step - 1)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {
            "review-decisions-button": self.action_decisions,
            "review-replay": self.action_replay,
            "review-next-player": self.action_next_player,
            "review-back": self.action_back,
        }
        if event.button.id in actions:
            actions[event.button.id]()

    def action_back(self) -> None:
        self.app.pop_screen()
