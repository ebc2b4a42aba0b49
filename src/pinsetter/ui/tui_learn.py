"""Learn mode: a newcomer's first frame of any game, played on the real engine with explanations.

The game is an ordinary seeded `Match` (one player, "you"; not kept in the history) shown by the
ordinary game screen; beside it a lesson panel explains what the position shows as it comes up:
the roll to match, tokens, grey pins and the ability track, the card piles and group rules, and
what the last ball was (a strike, a spare, an open frame). The explanations are words keyed to
the game's `TableView` and scoresheet, never a second copy of a rule: the engine alone decides
what is legal (an illegal pick is refused with its reason, as in any game).
"""

from __future__ import annotations

from rich.text import Text
from textual import events, on
from textual.containers import VerticalScroll
from textual.widgets import Static

from pinsetter.core.table import TableView
from pinsetter.i18n import _
from pinsetter.session import Match
from pinsetter.ui.tui import GameScreen
from pinsetter.ui.wrap import wrap_text

__all__ = ["LearnScreen", "lesson"]

LEARNER = 0  # the one seat of a lesson


def ball_lesson(mark: str, ball_ended_frame: bool, frame_total: int | None) -> str:
    """What the last ball's mark means."""
    if mark == "X":
        return _(
            "Strike (X): all ten pins with the first ball of a frame. The frame scores 10 plus the pins "
            "of your next two balls, so its total waits for them."
        )
    if mark == "/":
        return _(
            "Spare (/): ball 2 knocked down every pin ball 1 left. The frame scores 10 plus the pins of your next ball."
        )
    if ball_ended_frame:
        total = "" if frame_total is None else " " + _("It scores {total}.").format(total=frame_total)
        return _("Pins were still standing after ball 2: an open frame, worth the pins down.") + total
    pins = 0 if mark == "-" else int(mark) if mark.isdigit() else 0
    said = _("That ball knocked down {count} pin(s) ({mark} on the sheet).").format(count=pins, mark=mark)
    return said + " " + _("Ball 2 plays on the pins left: all of them down makes a spare (/).")


def roll_lesson(view: TableView) -> list[str]:
    """A roll to match with pins, and the tokens that move it."""
    selection = view.selection
    if selection is None or selection.target is None:
        return []
    target = selection.target
    said = [
        _(
            "You rolled {roll}. Cross out standing pins whose numbers add up to {roll}: press their "
            "numbers (1-9, 0 is pin 10) and Enter; the line 'selected:' keeps the sum. No set you like? "
            "m misses: the ball ends and the pins stay for the next ball."
        ).format(roll=target)
    ]
    tokens = selection.tokens
    if tokens:
        low = max(target - tokens, len(view.dice) or 1)
        said.append(
            _(
                "Tokens (●): you have {tokens}. Each moves the roll by +1 or -1 (never a die below 1), "
                "so {roll} can cross pins adding up to {low} to {high}; the line shows the tokens it "
                "takes. One comes every frame; unused ones are kept."
            ).format(tokens=tokens, roll=target, low=low, high=target + tokens)
        )
    elif tokens is not None:
        said.append(_("Tokens (●): none yet. One comes every frame; each moves a roll by +1 or -1."))
    return said


def pile_lesson(match: Match, view: TableView) -> list[str]:
    """Cards as pins and piles as balls, with the group rule of this game's options."""
    selection = view.selection
    if selection is None or not selection.needs_pile:
        return []
    said = [
        _(
            "The ten cards in the triangle are the pins; the face-up top card of each pile is a ball. "
            "Choose a pile (p), then pick pins by the key shown before each card: one pin of the card's "
            "value, or two or three touching pins whose sum ends in the card's digit (a 10 counts 0). "
            "Enter plays them; s stops the ball."
        ),
    ]
    if any(spot.down for spot in view.pins):
        said.append(_("Group rules: every play now must take a pin next to a position already cleared (x)."))
    else:
        said.append(
            _(
                "Group rules, first play of the frame: no back-row pin (7-10), and the centre pin 5 only "
                "together with pin 2 or 3."
            )
        )
    for spec in match.game.option_specs:
        if spec.choices:
            said.append(
                _(
                    "This game plays {name} = {value} ({help}): 'connected' groups form a chain of touching "
                    "pins, 'mutual' ones all touch each other."
                ).format(name=spec.name, value=match.game.options.get(spec.name, spec.default), help=_(spec.help))
            )
    if view.seen or view.unseen:
        said.append(_("The cards seen this frame and how many of each value are unseen are listed under the piles."))
    return said


def track_lesson(view: TableView) -> list[str]:
    """Grey pins, marks on the ability track, abilities held."""
    said = []
    if any(spot.grey and not spot.down for spot in view.pins):
        said.append(
            _(
                "Grey pins (◆): every grey pin you cross after ball 1 has ended, and every strike, "
                "earns a box to mark on the ability track."
            )
        )
    if view.track and any(area.title in choice.label for choice in view.choices for area in view.track):
        said.append(
            _(
                "You earned a mark: choose an area of the track (the choices name each one). An area "
                "with every box marked gives its ability (◉ held, ✗ once used); the lower row opens "
                "when the upper one is full. Press a to read what each ability does."
            )
        )
    for ability in view.abilities:
        said.append(
            _("You hold {title}: {help}. It is offered among your choices when it can be used.").format(
                title=ability.title, help=ability.help
            )
        )
    return said


def lesson(match: Match, view: TableView) -> Text:
    """The lesson for this position of the learner's game: what it shows, explained."""
    state = match.state
    game = match.game
    ctx = state.ball_context(LEARNER)
    name = _(game.name)
    if ctx is not None:
        heading = _("Learning {game} - frame {frame}, ball {ball}").format(game=name, frame=ctx.frame, ball=ctx.ball)
    else:
        heading = _("Learning {game}").format(game=name)
    text = Text(heading + "\n", style="bold")
    sheet = state.scoresheet(LEARNER)
    marks = [mark for frame in sheet.frames for mark in frame.marks]
    if state.is_terminal() or ctx is None or ctx.frame > 1:
        first = sheet.frames[0] if sheet.frames else None
        text.append(
            _("That was your first frame, marked {marks} on the sheet.").format(
                marks=" ".join(first.marks) if first else "-"
            )
            + "\n"
        )
        if first is not None and first.marks:
            text.append(ball_lesson(first.marks[-1], True, first.total) + "\n")
        for line in track_lesson(view):
            text.append(line + "\n")
        text.append(
            _(
                "Every frame plays the same way; the running total is under the marks. Play on, or press q "
                "to go back to the launcher (a lesson is not kept in the history)."
            )
        )
        return text
    said: list[str] = []
    if marks:
        said.append(ball_lesson(marks[-1], False, None))
    elif view.selection is None:
        said.append(
            _(game.summary) + " " + _("Knock down all ten pins with the first ball of a frame for a strike (X).")
        )
    if state.is_chance_node() and not game.has_decisions:
        said.append(
            _(
                "Your turn to roll: press space (or Enter on Roll). The dice decide the pins; "
                "there is nothing to choose."
            )
        )
    faces = {die.face: die.label for die in view.dice if die.kind == "bowling"}
    if faces:
        listed = ", ".join(f"{face} {label}" for face, label in sorted(faces.items()))
        said.append(_("Dice faces: {faces}.").format(faces=listed))
    if view.standing is not None:
        said.append(_("Pins standing: {count}.").format(count=view.standing))
    said += roll_lesson(view) + pile_lesson(match, view) + track_lesson(view)
    choices = [c.label or c.action for c in view.choices if not c.by_selection]
    marking = any(area.title in label for label in choices for area in view.track)
    if choices and view.selection is None and not marking:
        said.append(_("Your choice now: {choices}.").format(choices="; ".join(choices[:4])))
    text.append("\n".join(said) + "\n")
    text.append(
        _("u takes back a decision until a die or card is revealed; h shows hints; ? the full rules."),
        style="dim",
    )
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


class LearnScreen(GameScreen):
    """The game screen with a lesson panel that explains each position of the first frame."""

    def __init__(self, match: Match, speed: int = 1) -> None:
        super().__init__(match, speed)
        self.lesson_now = Text()
        self.lessons_seen: list[str] = []  # every lesson shown, in order (what the learner has read)

    @on(events.Mount)
    async def add_lesson(self) -> None:
        """The lesson panel above the actions, where the eye goes before choosing."""
        panel = VerticalScroll(LessonText(id="lesson-text"), id="lesson")
        await self.query_one("#right").mount(panel, before="#actions-label")
        self.refresh_lesson()

    def refresh_all(self) -> None:
        super().refresh_all()
        self.refresh_lesson()

    def refresh_lesson(self) -> None:
        self.title = _("pinsetter - learn {game}").format(game=_(self.match.game.name))
        found = self.query("#lesson-text")
        if not found:
            return
        self.lesson_now = lesson(self.match, self.table_view())
        if not self.lessons_seen or self.lessons_seen[-1] != self.lesson_now.plain:
            self.lessons_seen.append(self.lesson_now.plain)
            self.query_one("#lesson", VerticalScroll).scroll_home(animate=False)  # a new lesson from its first line
        found.first(LessonText).show(self.lesson_now)
