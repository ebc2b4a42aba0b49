"""How Bowling Solitaire looks: the pin cards in their triangle, the three ball piles, the cards seen."""

from __future__ import annotations

from collections import Counter
from typing import Any

from pinsetter.core.game import State
from pinsetter.core.table import Choice, Pile, PinSpot, Selection, TableView
from pinsetter.games.table_common import status_line, turn_of
from pinsetter.i18n import _, ngettext

__all__ = ["CARD_VALUES", "selection_action", "solitaire_table"]

CARD_VALUES = tuple(range(1, 11))
COPIES = 2


def _play_parts(text: str) -> tuple[int | None, tuple[int, ...]]:
    """`2:3+5` -> (2, (3, 5)); `stop` -> (None, ())."""
    if ":" not in text:
        return None, ()
    pile, pins = text.split(":", 1)
    return int(pile), tuple(int(p) for p in pins.split("+"))


def solitaire_table(state: State, names: list[str] | None, last_chance: str = "") -> TableView:
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
    choices = []
    for text in legal:
        pile, used = _play_parts(text)
        if pile is None:
            choices.append(Choice(action=text, label=_("Stop this ball")))
        else:
            top = view["piles"][pile - 1]["top"]
            label = ngettext(
                "Pile {pile} ({top}): remove pin {pins}", "Pile {pile} ({top}): remove pins {pins}", len(used)
            ).format(pile=pile, top=top, pins="+".join(map(str, used)))
            choices.append(Choice(action=text, label=label, pins=used, pile=pile, by_selection=True))
    deciding = bool(legal)
    slot = getattr(getattr(state, "table", None), "queue", None) if state.is_chance_node() else None
    pending = ""
    if slot:
        kind, where = slot[0]
        pending = _("for pin {number}") if kind == "pin" else _("on pile {number}")
        pending = pending.format(number=where)
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
        choices=tuple(choices),
        selection=Selection(modulo=10, needs_pile=True, hint=_("sum of the pins, last digit = the pile's card"))
        if deciding
        else None,
        roll_label=_("Turn up"),
        chance_words=(_("turned up an {card}") if last_chance in ("8", "11", "18") else _("turned up a {card}")).format(
            card=last_chance
        )
        if last_chance.isdigit()
        else "",
        pending_chance=pending,
    )


def selection_action(state: State, pins: frozenset[int], pile: int | None) -> str:
    """`2:3+5`: the play the picked pile and pins make."""
    if pile is None:
        from pinsetter.core.game import IllegalActionError

        raise IllegalActionError(_("pick a pile first"))
    return f"{pile}:" + "+".join(str(p) for p in sorted(pins))
