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
from typing import TYPE_CHECKING

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
    _told: list[tuple[int | None, str]] = field(default_factory=list)
    _state: State | None = None

    def update(self, steps: Sequence[tuple[int | None, str]], names: Sequence[str]) -> list[str]:
        """The words of every step so far; `steps` are the record's (actor, text) pairs."""
        if self._state is None or list(steps[: len(self._told)]) != self._told:
            self.lines, self._told = [], []
            self._state = self.game.new_state(self.num_players)
        state = self._state
        for actor, text in steps[len(self._told) :]:
            before = state.clone()
            state.apply_by(actor, text)
            self.lines.append(narrate(self.game, before, text, state, names, actor))
            self._told.append((actor, text))
        return self.lines
