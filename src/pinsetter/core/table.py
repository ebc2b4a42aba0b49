"""The table as a renderer-neutral description: what a player at the physical game sees.

Each game describes its own table (pins with labels and states, dice, piles,
tokens, the ability track, the choices open to the player and how a selection
of pins becomes an action) in these terms, beside its engine. Every interface
(the terminal, the web pages, any later one) renders a `TableView` and never asks
which game it is drawing; a new game appears in all of them by writing its
engine and its presentation. The models are pydantic so that the web API sends
exactly this schema.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "TRIANGLE_ROWS",
    "Ability",
    "Choice",
    "Die",
    "Pile",
    "PinSpot",
    "Selection",
    "TableView",
    "TrackArea",
    "as_board_data",
]

# The ten-pin triangle, back row first: how the pins stand seen from the bowler.
TRIANGLE_ROWS: tuple[tuple[int, ...], ...] = ((7, 8, 9, 10), (4, 5, 6), (2, 3), (1,))


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PinSpot(_Model):
    """One pin position: its number, what is printed on it, and its state."""

    number: int
    label: str = Field(description="what is printed on the pin: its number, or a card's value")
    value: int | None = Field(default=None, description="what the pin counts for in a selection's sum")
    down: bool = Field(default=False, description="crossed out, knocked down or removed")
    grey: bool = Field(default=False, description="a grey pin of the advanced Rolling Pins sheet")
    selectable: bool = False
    key: str = Field(default="", description="the key that picks this position, when it differs from the label")


class Die(_Model):
    """One die of the last roll: `pips` faces 1-6, or a Bowling Dice face (X, /, P pin, - blank)."""

    kind: Literal["pips", "bowling"]
    face: str
    label: str = Field(description="the die in words, for screen readers")


class Pile(_Model):
    """A Bowling Solitaire ball pile: its face-up top card and how many cards it holds."""

    number: int
    top: str | None
    cards: int
    selectable: bool = False


class TrackArea(_Model):
    """One area of the Rolling Pins ability track."""

    ability: str
    title: str
    help: str
    row: Literal["upper", "lower"]
    boxes: int
    marked: int
    open: bool = Field(description="its row is open for marking")
    held: bool = Field(default=False, description="all boxes marked and the ability not yet used (circled on paper)")
    used: bool = Field(default=False, description="all boxes marked and the ability used (crossed on paper)")
    action: str = Field(default="", description="the offered action that marks a box here, when one may be marked now")


class Ability(_Model):
    name: str
    title: str
    help: str
    held: int = Field(description="uses available now (Ten Pin: 1 once earned, permanent)")


class Choice(_Model):
    """A legal action in its text form, labelled for a button, with the pins and pile it uses."""

    action: str
    label: str
    pins: tuple[int, ...] = ()
    pile: int | None = None
    by_selection: bool = Field(default=False, description="made by selecting pins (and a pile) rather than by a button")


class Selection(_Model):
    """How picking pins makes an action, so that any interface can show the running sum.

    The interface only adds up the values of the picked pins (modulo `modulo` if
    set) and shows it beside `target`; whether the pick is legal is the engine's
    decision, made when the pick is sent.
    """

    modulo: int | None = None
    target: int | None = Field(default=None, description="the roll the pins should add up to (before tokens)")
    tokens: int | None = Field(default=None, description="tokens the player may spend to move the total")
    needs_pile: bool = False
    hint: str = ""


class TableView(_Model):
    """Everything an interface draws for one player's view of a position."""

    game: str
    title: str
    player: int | None = Field(description="whose table this is (the player to act, or the viewer)")
    status: str = Field(description="one plain line: who is to do what")
    rows: tuple[tuple[int, ...], ...] = TRIANGLE_ROWS
    pins: tuple[PinSpot, ...] = ()
    standing: int | None = Field(default=None, description="pins standing, where the game has no pin identities")
    dice: tuple[Die, ...] = ()
    dice_tray: bool = Field(default=False, description="the game rolls dice: a board keeps their place between rolls")
    dice_caption: str = ""
    dice_previous: str = Field(
        default="",
        description="the dice show a roll already played, kept in view: whose, in words ('Ann's last roll'); "
        "empty when they are the roll to decide on",
    )
    no_roll_yet: bool = Field(
        default=True,
        description="an empty dice tray means this player has not rolled yet (False: their dice are between rolls, "
        "and the tray says nothing)",
    )
    piles: tuple[Pile, ...] = ()
    seen: tuple[str, ...] = Field(default=(), description="cards already turned up in this frame")
    unseen: dict[str, int] = Field(default_factory=dict, description="cards of each value not yet seen")
    discards: tuple[str, ...] | None = Field(
        default=None,
        description="cards out of play this deal (pins knocked down, ball cards played or discarded), in value "
        "order; None where the game has no discard pile",
    )
    tokens: int | None = None
    track: tuple[TrackArea, ...] = ()
    abilities: tuple[Ability, ...] = ()
    notes: tuple[str, ...] = ()
    choices: tuple[Choice, ...] = ()
    selection: Selection | None = None
    roll_label: str = Field(default="", description="the label of the 'advance chance' button (roll, turn a card)")
    chance_words: str = Field(default="", description="the last chance outcome in words: 'rolled 3 and 4'")
    pending_chance: str = Field(
        default="", description="at a chance node, what the outcome is for, in words: 'on pile 2', 'for pin 4'"
    )

    def pin(self, number: int) -> PinSpot | None:
        return next((p for p in self.pins if p.number == number), None)

    def as_board(self, player: int, status: str | None = None) -> TableView:
        """This table as `player`'s board beside the others': read only, and without the help texts.

        Nothing on it can be picked or chosen (only the viewer's own table acts), and the
        ability track's help is left to the large board: every step sends every board.
        """
        return self.model_copy(
            update={
                "player": player,
                "status": self.status if status is None else status,
                "pins": tuple(p.model_copy(update={"selectable": False}) if p.selectable else p for p in self.pins),
                "piles": tuple(p.model_copy(update={"selectable": False}) if p.selectable else p for p in self.piles),
                "track": tuple(a.model_copy(update={"help": ""}) for a in self.track),
                "abilities": tuple(a.model_copy(update={"help": ""}) for a in self.abilities),
                "choices": (),
                "selection": None,
                "roll_label": "",
            }
        )

    def choice_for(self, pins: frozenset[int], pile: int | None) -> Choice | None:
        """The offered action that uses exactly these pins (and pile), if any."""
        for choice in self.choices:
            if choice.by_selection and frozenset(choice.pins) == pins and (pile is None or choice.pile == pile):
                return choice
        return None


def as_board_data(data: dict[str, Any], player: int) -> dict[str, Any]:
    """`TableView.as_board(player).model_dump(mode="json")` of the table whose dump is `data`, made from it.

    The web sends every player's board at every step: the board of the player up is their table
    without its choices, made from the table's data rather than copied as a model and dumped
    again. The parts it does not change are shared with `data` (read only).
    """
    return {
        **data,
        "player": player,
        "pins": [{**pin, "selectable": False} if pin["selectable"] else pin for pin in data["pins"]],
        "piles": [{**pile, "selectable": False} if pile["selectable"] else pile for pile in data["piles"]],
        "track": [{**area, "help": ""} for area in data["track"]],
        "abilities": [{**ability, "help": ""} for ability in data["abilities"]],
        "choices": [],
        "selection": None,
        "roll_label": "",
    }
