"""Lessons: what a newcomer is told as a game is played, the same words in every interface.

A lesson explains a *situation* that a position shows (the first roll, one die or two, a token,
a strike, the piles and their group rules...), in words keyed to the game's `TableView`, its
scoresheets and the step just made, never a second copy of a rule: the engine alone decides what
is legal. Each lesson says what the situation means; how to act on it is the interface's own
(`Lesson.control` names the kind of act: the terminal says its keys, the web page its buttons).

Two readers:
- `explain`: every lesson about the position in front of the learner (the terminal's lesson panel,
  which follows the first frame closely);
- `Tutor`: over a whole game, each situation's lesson the first time it arises (the web's learn
  mode), kept up to date from the record's steps as `core.narration.Narration` keeps the log.

`score_notes` says what a final score means in the game and length played (the end screens).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pinsetter.core.narration import pins_list
from pinsetter.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from pinsetter.core.game import Game, State
    from pinsetter.core.table import TableView

__all__ = ["LEARN_MARK", "Lesson", "Situation", "Tutor", "explain", "lesson_for", "score_notes", "sentences"]

# `extra` key of a record whose game was started in learn mode (the web keeps its lessons across reloads).
LEARN_MARK = "learn"

# What a lesson asks the learner to do, for the interface to say with its own controls.
ROLL, PICK, PILE, CHOOSE, MARK = "roll", "pick", "pile", "choose", "mark"

# Situations told about the position only (the terminal's panel), never as something new.
ABOUT_NOW = frozenset({"standing", "no-tokens", "choices"})


@dataclass(frozen=True)
class Situation:
    """A situation a position shows: a topic (`strike`, `ability:reroll`) and the values its words need."""

    topic: str
    values: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Lesson:
    """A situation in words (the current language): a short title and what it means."""

    topic: str
    title: str
    text: str
    control: str = ""  # ROLL, PICK, PILE, CHOOSE or MARK: what to do now, said by the interface


# --- the words ---------------------------------------------------------------------------------------------

# A bowling die's faces by name, as a lesson lists those a roll shows (the dice are drawn, not lettered).
FACE_NAMES = {
    "X": N_("strike faces (X)"),
    "/": N_("spare faces (/)"),
    "-": N_("blank faces"),
    "P": N_("pin faces"),
}

WIDE = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")  # Japanese text and its punctuation


def sentences(*parts: str) -> str:
    """Sentences one after another: a space after each, but none after Japanese (`。` ends a sentence there)."""
    said = ""
    for part in parts:
        if not part:
            continue
        if said and not WIDE.match(said[-1]):
            said += " "
        said += part
    return said


def _ball_words(values: dict[str, Any]) -> tuple[str, str]:
    mark, ended, score = values["mark"], values.get("ended", False), values.get("score")
    if mark == "X":
        return _("Strike (X)"), _(
            "All ten pins with the first ball of a frame. The frame scores 10 plus the pins of your next "
            "two balls, so its total waits for them."
        )
    if mark == "/":
        return _("Spare (/)"), _(
            "Ball 2 knocked down every pin ball 1 left. The frame scores 10 plus the pins of your next ball."
        )
    if ended:
        said = _("Pins were still standing after ball 2: an open frame, worth the pins down.")
        return _("Open frame"), sentences(said, "" if score is None else _("It scores {total}.").format(total=score))
    pins = int(mark) if str(mark).isdigit() else 0
    if pins:
        said = ngettext(
            "That ball knocked down {count} pin ({mark} on the sheet).",
            "That ball knocked down {count} pins ({mark} on the sheet).",
            pins,
        ).format(count=pins, mark=mark)
    else:
        said = _("That ball knocked down no pin (- on the sheet).")
    return _("Ball 1"), sentences(said, _("Ball 2 plays on the pins left: all of them down makes a spare (/)."))


def _groups_words(value: object) -> str:
    if value == "mutual":
        return _("Pin groups are small triangles in this game: every pin of a group touches every other.")
    return _("Pin groups are chains in this game: each pin of a group touches the next (4, 5 and 6 count).")


def lesson_for(game: Game, situation: Situation) -> Lesson:
    """A situation's lesson in the current language."""
    topic, v = situation.topic, situation.values
    control = ""
    if topic == "start":
        title = _(game.name)
        text = sentences(_(game.summary), _("Knock down all ten pins with the first ball of a frame for a strike (X)."))
    elif topic == "roll":
        title, control = _("Your roll"), ROLL
        text = _("Your turn to roll. The dice decide the pins; there is nothing to choose.")
    elif topic == "standing":
        title, text = _("Pins standing"), str(v["count"])
    elif topic == "tenpins-ball-2":
        title, control = _("Ball 2: one die"), ROLL
        text = _(
            "Ball 2 rolls one die on the pins ball 1 left: a 6 knocks none down, any other face knocks down "
            "that many. If ball 1 and ball 2 make 10 or more, the frame is a spare (/)."
        )
    elif topic == "dice-ball-2":
        title, control = _("Ball 2: the pin dice"), ROLL
        text = _(
            "Ball 2 rolls only the dice that showed a pin. Any spare face (/) knocks down every pin left: a "
            "spare. Otherwise each blank or strike face is one more pin down."
        )
    elif topic == "faces":
        title = _("Dice faces")
        text = sentences(
            _("This roll shows {faces}.").format(faces=pins_list([_(FACE_NAMES[face]) for face in v["faces"]])),
            _(
                "On a full rack any strike face (X) is a strike; otherwise every blank and spare face is a pin "
                "down, and every pin face a pin left standing."
            ),
        )
    elif topic == "dice-count":
        title, control = _("One die or two"), CHOOSE
        text = _(
            "Choose how many dice to roll. Two dice make 2 to 12, one die 1 to 6. Two dice never make less "
            "than 2, even with tokens, so pin 1 alone needs one die; when only low pins are left, one die "
            "fits them more often."
        )
    elif topic == "match-roll":
        title, control = _("Crossing out pins"), PICK
        text = _(
            "You rolled {roll}. Cross out standing pins whose numbers add up to {roll}. No set you like? "
            "Miss: the ball ends and the pins stay for the next ball."
        ).format(roll=v["roll"])
    elif topic == "miss-only":
        title, control = _("Nothing adds up"), CHOOSE
        text = _(
            "You rolled {roll}: no set of standing pins adds up to it, even with your tokens, so no pin can "
            "be crossed out. Miss ends the ball; the pins stay for the next ball."
        ).format(roll=v["roll"])
        if v.get("ability"):
            text = sentences(text, _("An ability among your choices can still change the roll."))
    elif topic == "tokens":
        title = _("Tokens")
        text = ngettext(
            "You have {tokens} token. Each moves the roll by +1 or -1 (never a die below 1), so {roll} can "
            "cross pins adding up to {low} to {high}; the choices say the tokens each takes. One comes every "
            "frame; unused ones are kept.",
            "You have {tokens} tokens. Each moves the roll by +1 or -1 (never a die below 1), so {roll} can "
            "cross pins adding up to {low} to {high}; the choices say the tokens each takes. One comes every "
            "frame; unused ones are kept.",
            v["tokens"],
        ).format(tokens=v["tokens"], roll=v["roll"], low=v["low"], high=v["high"])
    elif topic == "no-tokens":
        title = _("Tokens")
        text = _("None yet. One comes every frame; each moves a roll by +1 or -1.")
    elif topic == "miss":
        title = _("A miss")
        text = _(
            "You missed: the ball is over. After ball 1 the pins left stand for ball 2; after ball 2 the frame is over."
        )
    elif topic == "ball-2":
        title = _("Ball 2")
        if v.get("piles"):
            text = _(
                "Ball 1 is over: the top card of each pile was discarded and the next one turned up. Ball 2 "
                "plays the same way on the pins left; clear them all for a spare (/)."
            )
        else:
            text = _(
                "Ball 2 plays on the pins ball 1 left, the same way, until a miss. Cross them all out for a spare (/)."
            )
    elif topic == "first-play":
        title, control = _("Cards as pins, piles as balls"), PILE
        parts = [
            _(
                "The ten cards in the triangle are the pins; the face-up top card of each pile is a ball. A "
                "play takes one pin of the card's value, or two or three touching pins whose sum ends in the "
                "card's digit (a 10 counts 0). You may stop a ball whenever you like."
            ),
            _(
                "Group rules, first play of the frame: no back-row pin (7-10), and the centre pin 5 only "
                "together with pin 2 or 3."
            ),
            _groups_words(v.get("groups")),
        ]
        if v.get("seen"):
            parts.append(_("The table lists the cards seen this frame and how many of each value are still unseen."))
        text = sentences(*parts)
    elif topic == "groups":
        title, control = _("Next to a cleared pin"), PILE
        text = _("Group rules: every play now must take a pin next to a position already cleared.")
    elif topic == "grey":
        title = _("Grey pins")
        text = _(
            "Every grey pin you cross after ball 1 has ended, and every strike, earns a box to mark on the "
            "ability track."
        )
    elif topic == "mark":
        title, control = _("A box to mark"), MARK
        text = _(
            "You earned a mark: choose an area of the track (the choices name each one). An area with every "
            "box marked gives its ability; the lower row opens when the upper one is full."
        )
    elif topic.startswith("ability:"):
        title = v["title"]
        text = _("You hold {title}: {help}. It is offered among your choices when it can be used.").format(
            title=v["title"], help=v["help"]
        )
    elif topic.startswith("use:"):
        title, control = v["title"], CHOOSE
        text = _("You can use {title} now: {help}.").format(title=v["title"], help=v["help"])
    elif topic == "last-frame":
        title = _("The last frame")
        text = _(
            "This is the last frame: a strike in it earns two more balls and a spare one more, so that its "
            "bonus can be counted."
        )
    elif topic == "first-frame":
        title = _("Your first frame")
        text = sentences(
            _("That was your first frame, marked {marks} on the sheet.").format(marks=v["marks"]),
            _("Every frame plays the same way; the running total is under the marks."),
        )
    elif topic == "choices":
        title, control = _("Your choice"), CHOOSE
        text = _("Your choice now: {choices}.").format(choices="; ".join(v["choices"]))
    elif topic.startswith("ball:"):
        title, text = _ball_words(v)
    else:  # pragma: no cover - every topic made above has its words
        raise ValueError(f"no words for the situation {topic!r}")
    return Lesson(topic, title, text, control)


# --- what a position shows ---------------------------------------------------------------------------------


def _learner_to_act(state: State, view: TableView, learner: int) -> bool:
    return not state.is_terminal() and state.turn() == learner and view.player in (None, learner)


def position_situations(game: Game, state: State, view: TableView, learner: int = 0) -> list[Situation]:
    """The situations of the position in front of the learner (their turn), in the order they are told."""
    if not _learner_to_act(state, view, learner):
        return []
    said: list[Situation] = []
    ctx = state.ball_context(learner)
    chance = state.is_chance_node()
    faces = "".join(face for face in FACE_NAMES if any(d.kind == "bowling" and d.face == face for d in view.dice))
    if faces:
        said.append(Situation("faces", {"faces": faces}))  # the faces as data: told in the language of the telling
    if chance and not game.has_decisions:
        if ctx is not None and ctx.ball == 2 and not ctx.fresh_rack and game.id == "tenpins":
            said.append(Situation("tenpins-ball-2"))
        elif ctx is not None and ctx.ball == 2 and not ctx.fresh_rack and game.id == "bowling-dice":
            said.append(Situation("dice-ball-2"))
        said.append(Situation("roll"))
    if view.standing is not None:
        said.append(Situation("standing", {"count": view.standing}))
    acts = not chance or not game.has_decisions  # the learner's own act, not a roll that follows it
    if ctx is not None and acts and ctx.frame == game.lane.frames and ctx.ball == 1 and game.lane.frames > 1:
        said.append(Situation("last-frame"))
    if ctx is not None and not chance and ctx.ball == 2 and not ctx.fresh_rack and game.has_decisions:
        said.append(Situation("ball-2", {"piles": bool(view.piles)}))
    actions = [choice.action for choice in view.choices if not choice.by_selection]
    if "dice 1" in actions:
        said.append(Situation("dice-count"))
    selection = view.selection
    if selection is not None and selection.target is not None:
        target = selection.target
        if any(choice.by_selection for choice in view.choices):
            said.append(Situation("match-roll", {"roll": target}))
        else:
            usable = any(a.split()[0] in {held.name for held in view.abilities} for a in actions)
            said.append(Situation("miss-only", {"roll": target, "ability": usable}))
        tokens = selection.tokens
        if tokens:
            low = max(target - tokens, len(view.dice) or 1)
            said.append(Situation("tokens", {"tokens": tokens, "roll": target, "low": low, "high": target + tokens}))
        elif tokens is not None:
            said.append(Situation("no-tokens"))
    if selection is not None and selection.needs_pile:
        if any(spot.down for spot in view.pins):
            said.append(Situation("groups"))
        else:
            groups = game.options.get("groups")
            said.append(Situation("first-play", {"groups": groups, "seen": bool(view.seen or view.unseen)}))
    said += track_situations(view)
    for ability in view.abilities:
        if any(action.split()[0] == ability.name for action in actions):
            said.append(Situation(f"use:{ability.name}", {"title": ability.title, "help": ability.help}))
    return said


def track_situations(view: TableView) -> list[Situation]:
    """Grey pins standing, a box to mark on the ability track, each ability held."""
    said = []
    if any(spot.grey and not spot.down for spot in view.pins):
        said.append(Situation("grey"))
    if view.track and any(area.title in choice.label for choice in view.choices for area in view.track):
        said.append(Situation("mark"))
    for ability in view.abilities:
        said.append(Situation(f"ability:{ability.name}", {"title": ability.title, "help": ability.help}))
    return said


def ball_situation(mark: str, ended: bool, score: int | None) -> Situation:
    """What a finished ball's mark means: a strike, a spare, ball 1's pins, an open frame (`score`: the
    frame's own score, not the running total under it)."""
    if mark == "X":
        topic = "ball:strike"
    elif mark == "/":
        topic = "ball:spare"
    else:
        topic = "ball:open" if ended else "ball:first"
    return Situation(topic, {"mark": mark, "ended": ended, "score": score})


def step_situations(before: State, text: str, after: State, learner: int = 0) -> list[Situation]:
    """What the step just made meant for the learner: the balls it finished, a miss, the first frame done."""
    said: list[Situation] = []
    if text == "miss" and before.turn() == learner and not before.is_chance_node():
        said.append(Situation("miss"))
    start, end = len(before.pinfalls[learner]), len(after.pinfalls[learner])
    if end <= start:
        return said
    index = 0
    sheet = after.scoresheet(learner)
    for frame in sheet.frames:
        for number, mark in enumerate(frame.marks, start=1):
            if start <= index < end:
                said.append(ball_situation(mark, number >= 2, frame.score))
            index += 1
    first = sheet.frames[0] if sheet.frames else None
    ctx = after.ball_context(learner)
    before_ctx = before.ball_context(learner)
    if first is not None and before_ctx is not None and before_ctx.frame == 1 and (ctx is None or ctx.frame > 1):
        said.append(Situation("first-frame", {"marks": " ".join(first.marks) or "-"}))
    return said


# --- the terminal's panel: everything about the position -----------------------------------------------------


def explain(game: Game, state: State, view: TableView, learner: int = 0) -> list[Lesson]:
    """Every lesson about the position in front of the learner, as the terminal's lesson panel shows it.

    During the first frame: the last ball's mark, the roll or the choice to make, the piles, the
    track. Once the first frame is over: what it was marked and what it scored, then the track.
    """
    ctx = state.ball_context(learner)
    sheet = state.scoresheet(learner)
    marks = [mark for frame in sheet.frames for mark in frame.marks]
    said: list[Situation] = []
    if state.is_terminal() or ctx is None or ctx.frame > 1:
        first = sheet.frames[0] if sheet.frames else None
        said.append(Situation("first-frame", {"marks": " ".join(first.marks) if first and first.marks else "-"}))
        if first is not None and first.marks:
            said.append(ball_situation(first.marks[-1], True, first.score))
        said += track_situations(view)
        return [lesson_for(game, s) for s in said]
    if marks:
        said.append(ball_situation(marks[-1], False, None))
    elif view.selection is None:
        said.append(Situation("start"))
    said += position_situations(game, state, view, learner)
    labels = [c.label or c.action for c in view.choices if not c.by_selection]
    marking = any(area.title in label for label in labels for area in view.track)
    if labels and view.selection is None and not marking and not any(s.topic == "dice-count" for s in said):
        said.append(Situation("choices", {"choices": labels[:4]}))
    return [lesson_for(game, s) for s in said]


# --- the web's learn mode: each situation when it is new -------------------------------------------------------


@dataclass
class Tutor:
    """The lessons of a game in learn mode: each situation told the first time it arises.

    Like `Narration`, it re-applies the record's steps on its own copy of the game, only those it
    has not seen (starting over after an undo). `now()` gives the lessons that arose since the
    learner last had to act, so the page shows, at each of the learner's turns, what is new.
    """

    game: Game
    num_players: int
    learner: int = 0
    _told: list[tuple[int | None, str]] = field(default_factory=list)
    _state: State | None = None
    _seen: set[str] = field(default_factory=set)
    # Per position (0 = the start): the situations first seen there, and whether the learner acts there.
    _new: list[list[Situation]] = field(default_factory=list)
    _stops: list[bool] = field(default_factory=list)

    def update(self, steps: Sequence[tuple[int | None, str]], names: Sequence[str]) -> None:
        """Catch up with the record's (actor, text) steps."""
        if self._state is None or list(steps[: len(self._told)]) != self._told:
            self._told, self._seen, self._new, self._stops = [], set(), [], []
            self._state = self.game.new_state(self.num_players)
            self._look(None, "", self._state, names, "")
        state = self._state
        for actor, text in steps[len(self._told) :]:
            before = state.clone()
            state.apply_by(actor, text)
            self._told.append((actor, text))
            chance = text if actor is None else ""
            self._look(before, text, state, names, chance)

    def _look(self, before: State | None, text: str, after: State, names: Sequence[str], chance: str) -> None:
        found = [Situation("start")] if before is None else step_situations(before, text, after, self.learner)
        stop = after.is_terminal()
        if not after.is_terminal() and after.turn() == self.learner:
            chance_node = after.is_chance_node()
            stop = not chance_node or not self.game.has_decisions
            if stop or chance_node:
                view = self.game.table(after, list(names), chance or self._last_chance())
                found += position_situations(self.game, after, view, self.learner)
        new = []
        for situation in found:
            if situation.topic in ABOUT_NOW or situation.topic in self._seen:
                continue
            self._seen.add(situation.topic)
            new.append(situation)
        self._new.append(new)
        self._stops.append(stop)

    def _last_chance(self) -> str:
        return next((text for actor, text in reversed(self._told) if actor is None), "")

    def now(self) -> list[Lesson]:
        """The lessons new since the learner's previous turn (the situations of this turn, first seen).

        Between two turns (a roll or a bot's move being played) they stay those of the last turn,
        so that a page drawn meanwhile does not lose them.
        """
        end = len(self._new) - 1
        while end > 0 and not self._stops[end]:
            end -= 1
        start = next((i for i in range(end - 1, -1, -1) if self._stops[i]), -1)
        return [lesson_for(self.game, s) for new in self._new[start + 1 : end + 1] for s in new]

    def topics(self) -> list[str]:
        """Every situation told so far, in order (for tests and summaries)."""
        return [s.topic for new in self._new for s in new]


# --- the end: what a score means -------------------------------------------------------------------------------


def score_notes(game: Game, options: dict[str, object]) -> list[str]:
    """What a final score means in this game and length: the sheet's ranks and the odds compared with.

    Said once under the end screen's ranking (`Match.ending_lines`), which gives each score's rank and share.
    """
    from pinsetter.solvers.reference import reference

    frames = game.lane.frames
    notes = [
        ngettext(
            "{game} over {count} frame: the best possible score is {best}.",
            "{game} over {count} frames: the best possible score is {best}.",
            frames,
        ).format(game=_(game.name), count=frames, best=game.max_score)
    ]
    rank_lines = getattr(type(game), "rank_lines", None)
    rank = getattr(game, "rank", None)
    if rank_lines is not None and rank is not None:
        if rank(0) is not None:
            bands = "; ".join(line.removeprefix("- ") for line in rank_lines())
            notes.append(_("The sheet ranks a whole game: {bands}.").format(bands=bands))
        else:
            notes.append(
                _("The sheet's ranks are for a whole game of 10 frames of 10 pins, so a shorter game has none.")
            )
    ref = reference(game.id, options)
    if ref is None:
        notes.append(_("pinsetter has no odds for this game and length to compare a score with."))
    elif ref.distribution is not None:
        notes.append(
            _(
                "Every ball here is the dice's, so the odds are exact: an average game scores {mean}, and "
                '"better than" a share means that share of all games scores less.'
            ).format(mean=f"{ref.mean:.1f}")
        )
    elif ref.exact:
        notes.append(
            _(
                "The optimal player's average is the most any play can expect in this game and length: a score "
                "near it is played well, and the dice decide the rest."
            )
        )
    else:
        notes.append(
            _("The Expert bot's average is a strong player's in this game and length: a score near it is played well.")
        )
    return notes
