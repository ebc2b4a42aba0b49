"""How a dice game without decisions looks: the pins standing and the last roll of the dice."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from pinsetter.core.game import State
from pinsetter.core.narration import pins_list, who
from pinsetter.core.table import Die, TableView
from pinsetter.games.table_common import status_line, turn_of
from pinsetter.i18n import N_, _, current_language, ngettext

__all__ = [
    "bowling_dice",
    "bowling_dice_step",
    "bowling_words",
    "dice_table",
    "last_player",
    "pip_dice",
    "pip_words",
    "ten_pins_step",
    "ten_pins_words",
]

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
    return _("rolled {dice}").format(dice=pins_list(faces))


def ten_pins_words(roll: str) -> str:
    """`6+2` -> `rolled 6 and 2: off the alley`: the roll with what Ten Pins' named throws mean."""
    faces = [part for part in roll.split("+") if part.isdigit()]
    if not faces:
        return ""
    if faces == ["5", "5"]:
        return _("rolled double five")
    rolled = pip_words(roll)
    if "6" in faces:
        return _("{rolled}: off the alley").format(rolled=rolled)
    return rolled


def ten_pins_step(before: State, step: str, names: Sequence[str]) -> str:
    """`Ann rolls 3 and 4`, `Ann rolls double five`, `Ann rolls 6 and 2: a six, off the alley`."""
    name = who(names, before.turn())
    faces = [part for part in step.split("+") if part.isdigit()]
    if faces == ["5", "5"]:
        return _("{name} rolls double five").format(name=name)
    if len(faces) == 1:
        if faces[0] == "6":
            return _("{name} rolls a 6: off the alley").format(name=name)
        return _("{name} rolls a {face}").format(name=name, face=faces[0])
    if "6" in faces:
        return _("{name} rolls {dice}: a six, off the alley").format(name=name, dice=pins_list(faces))
    return _("{name} rolls {dice}").format(name=name, dice=pins_list(faces))


def bowling_faces(roll: str) -> str:
    """`X-P|PP|---` -> `1 strike face, 4 blanks, 3 pins`: the faces that count, by kind."""
    faces = roll.replace("|", "")
    counts = [
        ngettext("{count} strike face", "{count} strike faces", faces.count("X")),
        ngettext("{count} spare face", "{count} spare faces", faces.count("/")),
        ngettext("{count} blank", "{count} blanks", faces.count("-")),
        ngettext("{count} pin standing", "{count} pins standing", faces.count("P")),
    ]
    said = [text.format(count=faces.count(face)) for text, face in zip(counts, "X/-P", strict=True) if face in faces]
    return _(", ").join(said)


def bowling_words(roll: str) -> str:
    """`X-P|PP|---` -> `rolled 8 dice: 1 strike face, 4 blanks, 3 pins` (what the table shows of a roll)."""
    count = len(roll.replace("|", ""))
    return ngettext("rolled {count} die: {faces}", "rolled {count} dice: {faces}", count).format(
        count=count, faces=bowling_faces(roll)
    )


def bowling_dice_step(before: State, step: str, names: Sequence[str]) -> str:
    """`Ann rolls 10 dice: 2 strike faces, 5 blanks, 3 pins` (the result is said after, from the sheet)."""
    count = len(step.replace("|", ""))
    return ngettext("{name} rolls {count} die: {faces}", "{name} rolls {count} dice: {faces}", count).format(
        name=who(names, before.turn()), count=count, faces=bowling_faces(step)
    )


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


def _left_standing(state: State, player: int) -> int:
    """Pins the player's last ball left standing (the rack is set anew after a strike or a spare)."""
    frames = state.scoresheet(player).frames
    rack = 10
    for pinfall in frames[-1].pinfalls if frames else ():
        rack = (10 if rack == 0 else rack) - pinfall
    return rack


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
    # Every roll shown is already played (there is nothing to decide on it): say whose it was.
    previous = _("{name}'s last roll").format(name=who(names or [], last_player(state))) if last_roll else ""
    standing = view.get("standing")
    if state.is_terminal():  # the end keeps the lane: the last bowler's, as their last ball left it
        player = last_player(state)
        standing = _left_standing(state, player) if player is not None else None
    return TableView(
        game=state.game.id,
        title=_(state.game.name),
        player=player,
        status=status_line(state, names, _("roll the dice")),
        standing=standing,
        dice=draw(last_roll) if last_roll else (),
        dice_caption=words(last_roll) if last_roll else "",
        dice_previous=previous,
        dice_tray=True,
        roll_label=_("Roll"),
        chance_words=words(last_roll) if last_roll else "",
    )
