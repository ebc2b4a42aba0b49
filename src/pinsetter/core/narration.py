"""Steps in words: who did what, and what it meant, the same in every interface.

A step's text (`cross 2+5`, `5+3`, `1:1+2+3`) is notation for records, the API
and typed input; a player reads a sentence. Each game says its own steps
(`Game.step_words`, written beside its table view) and its offered actions
(`Game.action_words`); what a finished ball meant (a strike, a spare, seven pins
down) is said here once for every game, from the scoresheets before and after
the step, so no game words a result twice and every interface says it alike.
The terminal, `pinsetter play`, the web, the online tables and the history's
step-through all read `narrate` (through `Narration`, which keeps a match's log).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple, Protocol

from pinsetter.i18n import _, ngettext

if TYPE_CHECKING:
    from pinsetter.core.game import Game, State

__all__ = ["Narration", "ball_result", "narrate", "pins_list", "who"]


def who(names: Sequence[str], player: int | None) -> str:
    """A player's name (`player 2` for a seat the caller did not name)."""
    if player is not None and 0 <= player < len(names):
        return names[player]
    return _("player {number}").format(number=(player or 0) + 1)


def pins_list(numbers: Sequence[int | str]) -> str:
    """`2`, `2 and 3`, `1, 2 and 3`: numbers as a sentence lists them."""
    items = [str(n) for n in numbers]
    if len(items) <= 1:
        return "".join(items)
    return _("{items} and {last}").format(items=_(", ").join(items[:-1]), last=items[-1])


def ball_result(mark: str, pins: int, ball: int) -> str:
    """What one finished ball did: `strike!`, `spare!`, `ball 1: 7 pins down`, `ball 2: no pin down`."""
    if mark == "X":
        return _("strike!")
    if mark == "/":
        return _("spare!")
    if pins == 0:
        return _("ball {ball}: no pin down").format(ball=ball)
    return ngettext("ball {ball}: {count} pin down", "ball {ball}: {count} pins down", pins).format(
        ball=ball, count=pins
    )


def _finished_balls(before: State, after: State, player: int) -> list[tuple[str, int, int]]:
    """The balls `player` finished in the step: (mark, pinfall, ball of the frame) each."""
    start, end = len(before.pinfalls[player]), len(after.pinfalls[player])
    if end <= start:
        return []
    balls: list[tuple[str, int, int]] = []
    index = 0
    pinfalls = after.pinfalls[player]
    for frame in after.scoresheet(player).frames:
        for number, mark in enumerate(frame.marks, start=1):
            if start <= index < end:
                balls.append((mark, pinfalls[index], number))
            index += 1
    return balls


def results(before: State, after: State, names: Sequence[str], actor: int | None) -> str:
    """What the step's finished balls meant, the actor's first and unnamed, anyone else's by name."""
    parts = []
    order = sorted(range(after.num_players), key=lambda p: p != actor)
    for player in order:
        said = [ball_result(*ball) for ball in _finished_balls(before, after, player)]
        if not said:
            continue
        words = _(", ").join(said)
        parts.append(words if player == actor else _("{name}: {result}").format(name=who(names, player), result=words))
    return _("; ").join(parts)


def narrate(game: Game, before: State, step: str, after: State, names: Sequence[str], actor: int | None) -> str:
    """One log line: the game's words for the step, then what the balls it finished meant.

    `actor` is the seat that decided (None for chance: the game says whose roll or deal it is).
    """
    said = game.step_words(before, step, after, names, actor)
    meant = results(before, after, names, actor if actor is not None else _chance_owner(before))
    return _("{step} — {result}").format(step=said, result=meant) if meant else said


def _chance_owner(state: State) -> int | None:
    return None if state.is_terminal() else state.turn()


class Told(Protocol):
    """A step as a narration reads it: a record's `RecordStep`, or an (actor, text) pair (`Narration.update`)."""

    @property
    def actor(self) -> int | None: ...

    @property
    def text(self) -> str: ...


class _Pair(NamedTuple):
    actor: int | None
    text: str


@dataclass
class Narration:
    """A match's log in words, kept up to date as steps are applied.

    It re-applies the record's steps on its own copy of the game (before and after
    each, as `narrate` needs), only the steps it has not told yet; when the record no
    longer starts with the steps it told (an undo), it starts over. Simulations never build one.
    """

    game: Game
    num_players: int
    lines: list[str] = field(default_factory=list)
    _told: list[Told] = field(default_factory=list)
    _state: State | None = None

    def update(self, steps: Sequence[tuple[int | None, str]], names: Sequence[str]) -> list[str]:
        """The words of every step so far; `steps` are the record's (actor, text) pairs."""
        return self.update_steps([_Pair(actor, text) for actor, text in steps], names)

    def update_steps(self, steps: Sequence[Told], names: Sequence[str], current: State | None = None) -> list[str]:
        """The words of every step so far; `steps` are the record's steps (each with `actor` and `text`).

        `current`: the position after all of `steps` (a match's own, only read), if the caller has
        it: the last new step is then told from it, and copied, instead of being applied again
        (the online tables tell one new step per state they push, in every process). Steps told
        before are compared by identity first, so a record's own list is checked at C speed.
        """
        told = len(self._told)
        prefix = steps[:told]
        if not isinstance(prefix, list):
            prefix = list(prefix)
        if self._state is None or prefix != self._told:
            self.lines, self._told, told = [], [], 0
            self._state = self.game.new_state(self.num_players)
        last = len(steps) - 1
        for index in range(told, len(steps)):
            step = steps[index]
            actor, text = step.actor, step.text
            state = self._state
            assert state is not None
            if index == last and current is not None:
                self.lines.append(narrate(self.game, state, text, current, names, actor))
                self._state = current.clone()
            else:
                before = state.clone()
                state.apply_by(actor, text)
                self.lines.append(narrate(self.game, before, text, state, names, actor))
            self._told.append(step)
        return self.lines
