"""How Rolling Pins looks: the player's sheet with its pin triangle, tokens, dice and ability track."""

from __future__ import annotations

from typing import Any

from pinsetter.core.game import IllegalActionError, State
from pinsetter.core.table import Ability, Choice, PinSpot, Selection, TableView, TrackArea
from pinsetter.games.pure_chance_table import pip_dice, pip_words
from pinsetter.games.table_common import rows_for, status_line, turn_of
from pinsetter.i18n import N_, _, ngettext

__all__ = ["ABILITY_HELP", "ABILITY_TITLES", "action_label", "rolling_pins_table", "selection_action"]

ABILITY_TITLES = {
    "reroll": N_("Reroll"),
    "flip": N_("Flip"),
    "extra-pin": N_("Extra Pin"),
    "extra-dice": N_("Extra Dice"),
    "ten-pin": N_("Ten Pin"),
    "auto-strike": N_("Auto Strike"),
}
ABILITY_HELP = {
    "reroll": N_("reroll all dice of the current roll (one use)"),
    "flip": N_("turn one die of the current roll to its opposite face, 7 - x (one use)"),
    "extra-pin": N_("right after a miss: cross out one more standing pin for that ball (one use)"),
    "extra-dice": N_("for the rest of this ball, roll one die more than chosen and keep the chosen number (one use)"),
    "ten-pin": N_("from now on, a first roll of a frame with two dice showing 5 and 5 is a strike (permanent)"),
    "auto-strike": N_("the frame after it is earned is a strike at once, with no roll"),
}
PHASE_DOING = {
    "choose": N_("choose one or two dice"),
    "rolling": N_("roll the dice"),
    "rolled": N_("cross out pins that add up to the roll, or miss"),
    "extra-pin": N_("use Extra Pin or pass"),
}


def _area_names(state: State) -> list[tuple[str, str]]:
    sheet = state.game.options.get("sheet")
    areas = getattr(sheet, "areas", ())
    return [(a.ability, "lower" if a.lower else "upper") for a in areas]


def action_label(state: State, text: str) -> str:
    """A legal action in words, naming the ability behind `mark N`, `reroll`, ..."""
    words = text.split()
    kind = words[0]
    if kind == "dice":
        return _("Roll one die") if words[1] == "1" else _("Roll {count} dice").format(count=words[1])
    if kind == "miss":
        return _("Miss (end the ball)")
    if kind == "pass":
        return _("Pass (keep Extra Pin)")
    if kind == "cross":
        if len(words) == 4 and words[2] == "tokens":
            return _("Cross out {pins} tokens {tokens}").format(pins=words[1], tokens=words[3])
        return _("Cross out {pins}").format(pins=" ".join(words[1:]))
    if kind == "mark":
        areas = _area_names(state)
        number = int(words[1])
        if 1 <= number <= len(areas):
            ability, row = areas[number - 1]
            message = (
                _("Mark a box: {ability} (upper row, area {number})")
                if row == "upper"
                else _("Mark a box: {ability} (lower row, area {number})")
            )
            return message.format(ability=ability_title(ability), number=number)
        return _("Mark area {number}").format(number=number)
    if kind == "flip":
        return _("Flip die {die} (Flip)").format(die=words[1])
    if kind == "keep":
        return _("Keep dice {dice} (Extra Dice)").format(dice=words[1])
    if kind == "extra-pin":
        return _("Extra Pin: cross pin {pin}").format(pin=words[1])
    return ability_title(kind) if kind in ABILITY_TITLES else kind.capitalize()


def ability_title(ability: str) -> str:
    """An ability's name in the current language (its id when unknown)."""
    return _(ABILITY_TITLES[ability]) if ability in ABILITY_TITLES else ability


def ability_help(ability: str) -> str:
    return _(ABILITY_HELP[ability]) if ability in ABILITY_HELP else ""


def _pins_of(text: str) -> tuple[int, ...]:
    words = text.split()
    if words[0] == "cross":
        return tuple(int(p) for p in words[1].split("+"))
    return ()


def rolling_pins_table(state: State, names: list[str] | None, last_chance: str = "") -> TableView:
    player = turn_of(state)
    me_index = player if player is not None else 0
    view: dict[str, Any] = state.view(me_index)
    me = view["players"][me_index]
    standing = set(me["standing"])
    grey = set(me.get("grey", []))
    pins_in_rack = state.game.lane.pins
    rolled = me["phase"] == "rolled" and not state.is_chance_node()
    legal = [] if state.is_chance_node() or state.is_terminal() else [str(a) for a in state.legal_actions()]
    crossable = {p for text in legal for p in _pins_of(text)}
    pins = tuple(
        PinSpot(
            number=n,
            label=str(n),
            value=n,
            down=n not in standing,
            grey=n in grey,
            selectable=n in crossable,
        )
        for n in range(1, pins_in_rack + 1)
    )
    choices = tuple(
        Choice(action=t, label=action_label(state, t), pins=_pins_of(t), by_selection=t.startswith("cross "))
        for t in legal
    )
    track: tuple[TrackArea, ...] = ()
    abilities: tuple[Ability, ...] = ()
    if "marks" in me:
        areas = _area_names(state)
        sheet = state.game.options.get("sheet")
        boxes = [a.boxes for a in getattr(sheet, "areas", ())]
        upper_full = all(m >= b for (_, row), m, b in zip(areas, me["marks"], boxes, strict=False) if row == "upper")
        # An area whose boxes are all marked earned its ability: circled while held, crossed once used.
        # The engine counts uses held per ability, so the first earned areas of an ability are the used ones.
        unused = dict(me["abilities"])
        earned_areas: dict[str, list[int]] = {}
        for index, ((ability, _row), m, b) in enumerate(zip(areas, me["marks"], boxes, strict=False)):
            if m >= b:
                earned_areas.setdefault(ability, []).append(index)
        held_areas = {
            i for ability, found in earned_areas.items() for i in found[len(found) - unused.get(ability, 0) :]
        }
        track = tuple(
            TrackArea(
                ability=ability,
                title=ability_title(ability),
                help=ability_help(ability),
                row="upper" if row == "upper" else "lower",
                boxes=b,
                marked=m,
                open=row == "upper" or upper_full,
                held=index in held_areas,
                used=m >= b and index not in held_areas,
            )
            for index, ((ability, row), m, b) in enumerate(zip(areas, me["marks"], boxes, strict=False))
        )
        abilities = tuple(
            Ability(name=name, title=ability_title(name), help=ability_help(name), held=count)
            for name, count in sorted(me["abilities"].items())
            if count
        )
    dice = pip_dice("+".join(str(d) for d in me["dice"])) if me["dice"] else ()
    roll = sum(me["dice"]) if me["dice"] else None
    notes = []
    if me.get("pending_marks"):
        count = me["pending_marks"]
        notes.append(
            ngettext(
                "{count} box to mark on the ability track", "{count} boxes to mark on the ability track", count
            ).format(count=count)
        )
    if me.get("extra_dice_active"):
        notes.append(_("Extra Dice is active for this ball"))
    phase = PHASE_DOING.get(me["phase"])
    doing = (_(phase) if phase else "") if not state.is_chance_node() else _("roll the dice")
    return TableView(
        game=state.game.id,
        title=_(state.game.name),
        player=player,
        status=status_line(state, names, doing),
        rows=rows_for(pins_in_rack),
        pins=pins,
        dice=dice,
        dice_caption=_("roll {total}").format(total=roll) if roll is not None else "",
        tokens=me["tokens"],
        track=track,
        abilities=abilities,
        notes=tuple(notes),
        choices=choices,
        selection=Selection(
            target=roll,
            tokens=me["tokens"],
            hint=_("pins adding up to the roll; each token moves the total by one"),
        )
        if rolled
        else None,
        roll_label=_("Roll"),
        chance_words=pip_words(last_chance) if last_chance else "",
    )


def selection_action(state: State, pins: frozenset[int], pile: int | None) -> str:
    """`cross 2+5 tokens +1`: the action the picked pins make with the dice rolled."""
    if pile is not None:  # a pile is Bowling Solitaire's: said, not ignored
        raise IllegalActionError(_("Rolling Pins has no piles: pick pins alone"))
    me = state.view(state.turn())["players"][state.turn()]
    if me["phase"] != "rolled" or me.get("pending_marks"):  # a pick crosses a roll: nothing else
        raise IllegalActionError(_("pins cannot be picked now: choose one of the actions offered"))
    roll = sum(me["dice"])
    tokens = sum(pins) - roll
    return "cross " + "+".join(str(p) for p in sorted(pins)) + (f" tokens {tokens:+d}" if tokens else "")
