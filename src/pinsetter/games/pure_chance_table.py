"""How a dice game without decisions looks: the pins standing and the last roll of the dice."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from pinsetter.core.game import State
from pinsetter.core.table import Die, TableView
from pinsetter.games.table_common import status_line, turn_of
from pinsetter.i18n import N_, _, current_language

__all__ = ["bowling_dice", "bowling_words", "dice_table", "last_player", "pip_dice", "pip_words", "ten_pins_words"]

BOWLING_FACE_WORDS = {"X": N_("strike"), "/": N_("spare"), "P": N_("pin standing"), "-": N_("blank, pin down")}


def pip_dice(roll: str) -> tuple[Die, ...]:
    """`5+3` -> two pip dice."""
    return _pip_dice(roll, current_language())


def bowling_dice(roll: str) -> tuple[Die, ...]:
    """`X-P|PP|---` -> one die per face (groups are the strike, spare and plain dice)."""
    return _bowling_dice(roll, current_language())


# A live table draws the last roll after every step: the dice (frozen models) are made once per
# roll and language, not validated anew each time.
@lru_cache(maxsize=4096)
def _pip_dice(roll: str, _language: str) -> tuple[Die, ...]:
    return tuple(Die(kind="pips", face=part, label=_("die showing {face}").format(face=part))
                 for part in roll.split("+") if part.isdigit())  # fmt: skip


@lru_cache(maxsize=4096)
def _bowling_dice(roll: str, _language: str) -> tuple[Die, ...]:
    return tuple(
        Die(kind="bowling", face=face, label=_(BOWLING_FACE_WORDS[face]) if face in BOWLING_FACE_WORDS else face)
        for group in roll.split("|")
        for face in group
    )


def pip_words(roll: str) -> str:
    """`5+3` -> `rolled 5 and 3`; `4` -> `rolled a 4`."""
    faces = [part for part in roll.split("+") if part.isdigit()]
    if not faces:
        return ""
    if len(faces) == 1:
        return _("rolled a {face}").format(face=faces[0])
    return _("rolled {faces} and {last}").format(faces=", ".join(faces[:-1]), last=faces[-1])


def ten_pins_words(roll: str) -> str:
    """`6+2` -> `rolled 6+2: off the alley (-)`: the roll with what Ten Pins' named throws mean.

    Short, so that a log line fits a narrow panel: the dice as `6+2`, and a named throw
    ends with the mark it leaves on the sheet (it says the ball's result, no need to say it again).
    """
    faces = [part for part in roll.split("+") if part.isdigit()]
    if not faces:
        return ""
    dice = "+".join(faces)
    if "6" in faces:
        return _("rolled {roll}: off the alley (-)").format(roll=dice)
    if faces == ["5", "5"]:
        return _("rolled {roll}: double five (X)").format(roll=dice)
    return _("rolled {roll}").format(roll=dice)


def bowling_words(roll: str, ball: tuple[int, str] | None = None) -> str:
    """`X-P|PP|---` and the ball it played -> `rolled X-P|PP|---: 7 down (7)`, `...: strike (X)`.

    The result is the pinfall the engine scored, not a count of faces (an `X` on a second ball is
    one pin down, a `/` on a first ball too), and it ends with the sheet's mark, so the log says it
    once (see `pinsetter.ui.tui.says_marks`) and a line fits the log panel at 80x24.
    `ball` is the ball's (pinfall, mark); without it the words are the faces alone.
    """
    faces = roll.strip()
    if ball is None:
        return _("rolled {roll}").format(roll=faces)
    pins, mark = ball
    if mark == "X":
        return _("rolled {roll}: strike (X)").format(roll=faces)
    if mark == "/":
        return _("rolled {roll}: spare (/)").format(roll=faces)
    return _("rolled {roll}: {count} down ({mark})").format(roll=faces, count=pins, mark=mark)


def last_player(state: State) -> int | None:
    """Who played the last ball (None before the first), in a game whose players take whole frames in turn.

    The player up, when past their frame's first ball; else the one before them (the last one at the end).
    """
    if not any(state.pinfalls):
        return None
    if state.is_terminal():
        return state.num_players - 1
    player = state.turn()
    ctx = state.ball_context(player)
    if ctx is not None and ctx.ball > 1:
        return player
    return (player - 1) % state.num_players


def dice_table(
    state: State,
    names: list[str] | None,
    last_roll: str,
    *,
    draw: Callable[[str], tuple[Die, ...]],
    words: Callable[[str], str],
) -> TableView:
    """Pins standing for the player up, the last roll, and the one thing to do: roll.

    `draw` makes the dice of a roll's text and `words` says it: each game passes its own.
    """
    player = turn_of(state)
    view = state.view(player if player is not None else 0)
    return TableView(
        game=state.game.id,
        title=_(state.game.name),
        player=player,
        status=status_line(state, names, _("roll the dice")),
        standing=view.get("standing"),
        dice=draw(last_roll) if last_roll else (),
        dice_caption=_("last roll: {roll}").format(roll=last_roll) if last_roll else "",
        roll_label=_("Roll"),
        chance_words=words(last_roll) if last_roll else "",
    )
