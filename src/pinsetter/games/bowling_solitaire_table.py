"""How Bowling Solitaire looks: the pin cards in their triangle, the three ball piles, the cards seen."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pinsetter.core.game import State
from pinsetter.core.narration import pins_list, who
from pinsetter.games.table_common import status_line, turn_of
from pinsetter.i18n import _

if TYPE_CHECKING:  # the table view's models (pydantic) are imported by the view: a hint's words need none
    from pinsetter.core.table import TableView

__all__ = ["CARD_VALUES", "play_words", "selection_action", "solitaire_table", "step_sentence"]

CARD_VALUES = tuple(range(1, 11))
COPIES = 2


def _play_parts(text: str) -> tuple[int | None, tuple[int, ...]]:
    """`2:3+5` -> (2, (3, 5)); `stop` -> (None, ())."""
    if ":" not in text:
        return None, ()
    pile, pins = text.split(":", 1)
    return int(pile), tuple(int(p) for p in pins.split("+"))


def solitaire_table(state: State, names: list[str] | None, last_chance: str = "") -> TableView:
    from pinsetter.core.table import Choice, Pile, PinSpot, Selection, TableView

    player = turn_of(state)
    view: dict[str, Any] = state.view(0)
    legal = [] if state.is_chance_node() or state.is_terminal() else [str(a) for a in state.legal_actions()]
    usable = {pin for text in legal for pin in _play_parts(text)[1]}
    usable_piles = {pile for text in legal if (pile := _play_parts(text)[0]) is not None}
    pins = tuple(
        PinSpot(
            number=int(position),
            label=str(value) if value is not None else "",
            value=value,
            down=value is None,
            selectable=int(position) in usable,
            key=str(int(position) % 10),
        )
        for position, value in sorted(view["pins"].items(), key=lambda kv: int(kv[0]))
    )
    piles = tuple(
        Pile(number=i, top=str(p["top"]) if p["top"] else None, cards=p["cards"], selectable=i in usable_piles)
        for i, p in enumerate(view["piles"], start=1)
    )
    seen = Counter(view.get("seen", []))
    unseen = {str(v): COPIES - seen.get(v, 0) for v in CARD_VALUES}
    # Out of play: every card seen this deal that is neither a standing pin nor a pile's face-up top.
    on_table = Counter(v for v in view["pins"].values() if v is not None)
    on_table.update(p["top"] for p in view["piles"] if p["top"])
    discards = tuple(str(v) for v in sorted((seen - on_table).elements()))
    choices = []
    for text in legal:
        pile, used = _play_parts(text)
        label = play_words(view, text)
        if pile is None:
            choices.append(Choice(action=text, label=label))
        else:
            choices.append(Choice(action=text, label=label, pins=used, pile=pile, by_selection=True))
    deciding = bool(legal)
    pending = _pending_slot(state)
    return TableView(
        game=state.game.id,
        title=_(state.game.name),
        player=player,
        status=status_line(
            state,
            names,
            _("pick a pile and pins whose sum ends in its card's digit") if deciding else _("deal the cards"),
        ),
        pins=pins,
        piles=piles,
        seen=tuple(str(v) for v in view.get("seen", [])),
        unseen=unseen,
        discards=discards,
        choices=tuple(choices),
        selection=Selection(modulo=10, needs_pile=True, hint=_("sum of the pins, last digit = the pile's card"))
        if deciding
        else None,
        roll_label=_("Turn up"),
        chance_words=_chance_words(state, last_chance),
        pending_chance=pending,
    )


def _chance_words(state: State, last_chance: str) -> str:
    """What chance did last, as the table shows it: the deal until a card is played from a pile (its cards
    were dealt, none was turned up by a play yet), then the last card turned up."""
    if not last_chance.isdigit():
        return ""
    table = getattr(state, "table", None)
    if table is not None and table.ball == 1 and max(table.revealed) <= 1:
        return _("dealt the cards")
    return _card_words(last_chance)


def _card_words(card: str) -> str:
    return (_("turned up an {card}") if card in ("8", "11", "18") else _("turned up a {card}")).format(card=card)


def _pending_slot(state: State) -> str:
    """At a chance node, where the next card goes: `for pin 4`, `on pile 2` (empty elsewhere)."""
    slot = getattr(getattr(state, "table", None), "queue", None) if state.is_chance_node() else None
    if not slot:
        return ""
    kind, where = slot[0]
    return (_("for pin {number}") if kind == "pin" else _("on pile {number}")).format(number=where)


def _play(view: dict[str, Any], text: str) -> dict[str, str]:
    """The parts of a play in words: the card, its pile, the pins (positions) and their values' sum."""
    pile, used = _play_parts(text)
    assert pile is not None
    values = [int(view["pins"][str(p)]) for p in used]  # the view keys positions by their text
    card = str(view["piles"][pile - 1]["top"])
    total = _(" + ").join(str(v) for v in values) + f" = {sum(values)}"
    return {"card": card, "pile": str(pile), "pins": pins_list(used), "sum": total, "count": str(len(used))}


def play_words(view: dict[str, Any], text: str) -> str:
    """An offered play as a move: `Play the 6 from pile 1 on pins 1, 2 and 3 (1 + 2 + 3 = 6)`."""
    if ":" not in text:
        return _("Stop this ball")
    parts = _play(view, text)
    if parts["count"] == "1":
        return _("Play the {card} from pile {pile} on pin {pins}").format(**parts)
    return _("Play the {card} from pile {pile} on pins {pins} ({sum})").format(**parts)


def step_sentence(before: State, text: str, after: State, names: Sequence[str], actor: int | None) -> str:
    """A Solitaire step as the log tells it: the deal's cards where they go, each play with its pins.

    A card that leaves no play ends the ball by itself: the words say so, before the ball's result.
    """
    player = actor if actor is not None else turn_of(before)
    name = who(names, player)
    if actor is None:
        card = (_("an {card}") if text in ("8", "11", "18") else _("a {card}")).format(card=text)
        said = _("{name}'s deal: {card} {where}").format(name=name, card=card, where=_pending_slot(before))
        ended = player is not None and len(after.pinfalls[player]) > len(before.pinfalls[player])
        return _("{deal}; no play is left").format(deal=said) if ended else said
    if ":" not in text:
        return _("{name} stops the ball").format(name=name)
    parts = _play(before.view(0), text)
    if parts["count"] == "1":
        return _("{name} plays the {card} from pile {pile} on pin {pins}").format(name=name, **parts)
    return _("{name} plays the {card} from pile {pile} on pins {pins} ({sum})").format(name=name, **parts)


def selection_action(state: State, pins: frozenset[int], pile: int | None) -> str:
    """`2:3+5`: the play the picked pile and pins make."""
    if pile is None:
        from pinsetter.core.game import IllegalActionError

        raise IllegalActionError(_("pick a pile first"))
    return f"{pile}:" + "+".join(str(p) for p in sorted(pins))
