"""Learn mode: a newcomer's first frame of any game, played on the real engine with explanations.

The game is an ordinary seeded `Match` (one player, "Player 1"; not kept in the history) shown by the
ordinary game screen; beside it a lesson panel explains what the position shows as it comes up:
the roll to match, tokens, grey pins and the ability track, the card piles and group rules, and
what the last ball was (a strike, a spare, an open frame). The words are `pinsetter.lessons`',
shared with the web's learn mode; this panel adds only the terminal's keys for each kind of act.
The engine alone decides what is legal (an illegal pick is refused with its reason, as in any game).
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.containers import VerticalScroll
from textual.widgets import Static

from pinsetter.core.table import TableView
from pinsetter.i18n import _
from pinsetter.lessons import CHOOSE, MARK, PICK, PILE, ROLL, Lesson, explain, sentences
from pinsetter.session import Match
from pinsetter.ui.tui_common import SHORT
from pinsetter.ui.tui_game import GameScreen
from pinsetter.ui.wrap import wrap_text

__all__ = ["LEARN_CSS", "LearnScreen", "lesson"]

LEARNER = 0  # the one seat of a lesson
# How the terminal draws what a lesson names (the web draws chips and pins instead).
SYMBOLS = {"tokens": "●", "no-tokens": "●", "grey": "◆"}


def keys_for(control: str) -> str:
    """The terminal's keys for a kind of act a lesson asks for."""
    if control == ROLL:
        return _("To roll, press space (or Enter on Roll).")
    if control == PICK:
        return _("Press the pins' numbers (1-9, 0 is pin 10) and Enter; the line 'selected:' keeps the sum; m misses.")
    if control == PILE:
        return _(
            "Choose a pile (p), then pick pins by the key shown before each card; Enter plays them; s stops the ball."
        )
    if control == MARK:
        return _("On the track ◉ marks an ability held and ✗ one used; press a to read what each ability does.")
    return ""  # CHOOSE: the actions list says what to press


def lesson_line(item: Lesson, keys: bool = True) -> str:
    """One lesson as the panel prints it: its title (with the terminal's symbol), its words, the keys."""
    title = f"{item.title} ({SYMBOLS[item.topic]})" if item.topic in SYMBOLS else item.title
    line = _("{title}: {text}").format(title=title, text=item.text)
    said = keys_for(item.control) if keys and item.control != CHOOSE else ""
    return sentences(line, said)


def lesson(match: Match, view: TableView, short: bool = False) -> Text:
    """The lesson for this position of the learner's game: what it shows, explained.

    `short`: a short window leaves out the game's introduction where the position has a lesson of
    its own (the launcher said it, under the list of games), and the closing line on undo, hints and
    rules (the footer shows those keys), so that the lesson of the step in front of the learner keeps
    the room.
    """
    state = match.state
    ctx = state.ball_context(LEARNER)
    name = _(match.game.name)
    if ctx is not None:
        heading = _("Learning {game} - frame {frame}, ball {ball}").format(game=name, frame=ctx.frame, ball=ctx.ball)
    else:
        heading = _("Learning {game}").format(game=name)
    text = Text(heading + "\n", style="bold")
    told: set[str] = set()
    lines = []
    items = explain(match.game, state, view, LEARNER)
    if short and len(items) > 1:  # the introduction only while there is nothing else to say (a deal)
        items = [item for item in items if item.topic != "start"]
    for item in items:
        lines.append(lesson_line(item, keys=item.control not in told))
        told.add(item.control)
    if state.is_terminal() or ctx is None or ctx.frame > 1:
        lines.append(_("Play on, or press q to go back to the launcher (a lesson is not kept in the history)."))
        text.append("\n".join(lines))
        return text
    if short:
        text.append("\n".join(lines))
        return text
    text.append("\n".join(lines) + "\n")
    if match.game.has_decisions:
        closing = _("u takes back a decision until a die or card is revealed; h shows hints; ? the full rules.")
    else:  # chance decides every ball: nothing to take back, nothing to hint
        closing = _("Press ? for the full rules.")
    text.append(closing, style="dim")
    return text


class LessonText(Static):
    """The lesson, wrapped by `wrap_text` at the panel's width, so that Japanese breaks by its rules
    (no line starts with `。`); wrapped again whenever the width changes."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.source = Text()
        self.wrapped_at = 0

    def show(self, text: Text) -> None:
        self.source = text
        self.rewrap()

    def content_width(self) -> int:
        return self.outer_size.width - self.styles.gutter.width

    def rewrap(self) -> None:
        self.wrapped_at = self.content_width()
        self.update(wrap_text(self.source, self.wrapped_at) if self.wrapped_at > 0 else self.source)

    def on_resize(self, event: events.Resize) -> None:
        if self.content_width() != self.wrapped_at:
            self.rewrap()


# Learn's rules (the app puts them in its CSS: App CSS beats DEFAULT_CSS). The panel is in the play
# column above the actions; from 76 to 109 columns that column is narrow, so the panel goes under the
# table, where the left column has room. In a short window it keeps a small size and scrolls (Tab
# reaches it), so that the table and the actions stay in view; below 76 columns the log gives it its room,
# and there, in a short window, the hints asked for (h) take the lesson's room while they are shown
# (`fit_stack` gives them the rows the others leave: there are not enough for both).
LEARN_CSS = """
LearnScreen #lesson { height: auto; max-height: 50%; border: round $accent; scrollbar-size-vertical: 1; }
LearnScreen #lesson-text { height: auto; }
LearnScreen.short #lesson { border: none; border-top: solid $accent; max-height: 8; }
LearnScreen.medium #lesson { height: 1fr; max-height: 100%; min-height: 4; }
LearnScreen.medium #table-box { max-height: 65%; }
LearnScreen.narrow #lesson { height: 1fr; max-height: 100%; min-height: 3; }
LearnScreen.narrow.short #log { display: none; }
LearnScreen.narrow.short #lesson { min-height: 5; }
LearnScreen.narrow.short #actions { max-height: 3; }
LearnScreen.narrow.short.hinting #lesson { display: none; }
"""


class LearnScreen(GameScreen):
    """The game screen with a lesson panel that explains each position of the first frame."""

    def __init__(self, match: Match, speed: int = 1) -> None:
        super().__init__(match, speed)
        self.lesson_now = Text()
        self.lessons_seen: list[str] = []  # every lesson shown, in order (what the learner has read)

    async def fit(self, width: int, height: int) -> None:
        """The game's layout for the size, then the lesson panel in its place for that layout."""
        await super().fit(width, height)
        # Where the hints take the lesson's room, their title says how to have the lesson back (set here,
        # in the screen's language: a hint worked out in a thread is shown from that thread's context).
        hints = _("hints (h: the lesson again)") if self.cramped() else _("hints")
        self.query_one("#hint-box", VerticalScroll).border_title = hints
        under_table = self.layout_name == "medium"
        panel = self.query("#lesson")
        if panel and (panel.first().parent is self.query_one("#left" if under_table else "#right")):
            return
        await panel.remove()
        fresh = VerticalScroll(LessonText(id="lesson-text"), id="lesson")
        fresh.border_title = _("lesson")
        if under_table:
            await self.query_one("#left").mount(fresh)
        else:
            await self.query_one("#right").mount(fresh, before="#actions-label")
        self.lesson_now = Text()  # shown again in the new panel
        self.refresh_lesson()

    def refresh_all(self) -> None:
        super().refresh_all()
        self.refresh_lesson()

    def cramped(self) -> bool:
        """Stacked in a short window: the lesson and the hints cannot both have room."""
        return self.layout_name == "narrow" and self.screen_size[1] < SHORT

    def refresh_lesson(self) -> None:
        self.title = _("pinsetter - learn {game}").format(game=_(self.match.game.name))
        found = self.query("#lesson-text")
        if not found:
            return
        now = lesson(self.match, self.table_view(), short=self.screen_size[1] < SHORT)
        if now.plain == self.lesson_now.plain and found.first(LessonText).source.plain == now.plain:
            return
        self.lesson_now = now
        if not self.lessons_seen or self.lessons_seen[-1] != now.plain:
            self.lessons_seen.append(now.plain)
            self.query_one("#lesson", VerticalScroll).scroll_home(animate=False)  # a new lesson from its first line
        found.first(LessonText).show(now)
