"""How a dice game without decisions looks: the pins standing and the last roll of the dice."""

from __future__ import annotations

from pinsetter.core.game import State
from pinsetter.core.table import Die, TableView
from pinsetter.games.table_common import status_line, turn_of

__all__ = ["dice_table"]

PIP_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
BOWLING_FACE_WORDS = {"X": "strike", "/": "spare", "P": "pin standing", "-": "blank, pin down"}


def pip_dice(roll: str) -> tuple[Die, ...]:
    """`5+3` -> two pip dice."""
    return tuple(Die(kind="pips", face=part, label=f"die showing {PIP_WORDS.get(int(part), part)}")
                 for part in roll.split("+") if part.isdigit())  # fmt: skip


def bowling_dice(roll: str) -> tuple[Die, ...]:
    """`X-P|PP|---` -> one die per face (groups are the strike, spare and plain dice)."""
    return tuple(
        Die(kind="bowling", face=face, label=BOWLING_FACE_WORDS.get(face, face))
        for group in roll.split("|")
        for face in group
    )


def pip_words(roll: str) -> str:
    """`5+3` -> `rolled 5 and 3`; `4` -> `rolled a 4`."""
    faces = [part for part in roll.split("+") if part.isdigit()]
    if not faces:
        return ""
    if len(faces) == 1:
        return f"rolled {'an' if faces[0] == '8' else 'a'} {faces[0]}"
    return "rolled " + ", ".join(faces[:-1]) + f" and {faces[-1]}"


def bowling_words(roll: str) -> str:
    """`X-P|PP|---` -> what the faces say: strikes, spares, pins down and pins left standing."""
    faces = [face for group in roll.split("|") for face in group]
    parts = []
    for face, one, many in (("X", "strike", "strikes"), ("/", "spare", "spares")):
        count = faces.count(face)
        if count:
            parts.append(f"{count} {one if count == 1 else many}")
    down, up = faces.count("-"), faces.count("P")
    parts.append(f"{down} pin{'s' if down != 1 else ''} down")
    parts.append(f"{up} standing")
    return f"rolled {len(faces)} dice: " + ", ".join(parts)


def dice_table(state: State, names: list[str] | None, last_roll: str, kind: str) -> TableView:
    """Pins standing for the player up, the last roll, and the one thing to do: roll."""
    player = turn_of(state)
    view = state.view(player if player is not None else 0)
    dice = (bowling_dice if kind == "bowling" else pip_dice)(last_roll) if last_roll else ()
    return TableView(
        game=state.game.id,
        title=state.game.name,
        player=player,
        status=status_line(state, names, "roll the dice"),
        standing=view.get("standing"),
        dice=dice,
        dice_caption=f"last roll: {last_roll}" if last_roll else "",
        roll_label="Roll",
        chance_words=(bowling_words if kind == "bowling" else pip_words)(last_roll) if last_roll else "",
    )
