"""How Rolling Pins looks: the player's sheet with its pin triangle, tokens, dice and ability track."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pinsetter.core.game import IllegalActionError, State
from pinsetter.core.narration import pins_list, who
from pinsetter.core.table import Ability, Choice, PinSpot, Selection, TableView, TrackArea
from pinsetter.games.pure_chance_table import pip_dice, pip_words
from pinsetter.games.table_common import rows_for, status_line, turn_of
from pinsetter.i18n import N_, _, ngettext

__all__ = [
    "ABILITY_HELP",
    "ABILITY_TITLES",
    "action_label",
    "rolling_pins_table",
    "selection_action",
    "step_sentence",
    "up_board_data",
]

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
    "mark": N_("mark a box on the ability track"),
}


def _area_names(state: State) -> list[tuple[str, str]]:
    sheet = state.game.options.get("sheet")
    areas = getattr(sheet, "areas", ())
    return [(a.ability, "lower" if a.lower else "upper") for a in areas]


def _me(state: State) -> dict[str, Any]:
    """The sheet of the player up, as their view shows it."""
    index = state.turn()
    return dict(state.view(index)["players"][index])


def _area(state: State, number: int) -> str:
    """Area `number` of the ability track in words: `Flip, upper row`."""
    areas = _area_names(state)
    if not 1 <= number <= len(areas):
        return _("area {number}").format(number=number)
    ability, row = areas[number - 1]
    pattern = _("{ability}, upper row") if row == "upper" else _("{ability}, lower row")
    return pattern.format(ability=ability_title(ability))


def _token_words(state: State, tokens: int) -> str:
    """`3 tokens: 7 becomes 10`: what the tokens of a cross do to the roll."""
    roll = sum(_me(state)["dice"])
    return ngettext(
        "{count} token: {roll} becomes {total}", "{count} tokens: {roll} becomes {total}", abs(tokens)
    ).format(count=abs(tokens), roll=roll, total=roll + tokens)


def action_label(state: State, text: str) -> str:
    """A legal action as a move: `Roll two dice`, `Cross out 4 and 6`, `Mark a box: Flip, upper row`."""
    words = text.split()
    kind = words[0]
    if kind == "dice":
        return _("Roll one die") if words[1] == "1" else _("Roll two dice")
    if kind == "miss":
        return _("Miss (end the ball)")
    if kind == "pass":
        return _("Keep Extra Pin for later")
    if kind == "cross":
        pins = pins_list(words[1].split("+"))
        if len(words) == 4 and words[2] == "tokens":
            return _("Cross out {pins} ({tokens})").format(pins=pins, tokens=_token_words(state, int(words[3])))
        return _("Cross out {pins}").format(pins=pins)
    if kind == "mark":
        return _("Mark a box: {area}").format(area=_area(state, int(words[1])))
    if kind == "flip":
        face = _me(state)["dice"][int(words[1]) - 1]
        return _("Use Flip on die {die}: {face} becomes {other}").format(die=words[1], face=face, other=7 - face)
    if kind == "keep":
        dice = _me(state)["dice"]
        return _("Keep {dice}").format(dice=pins_list([dice[int(d) - 1] for d in words[1].split("+")]))
    if kind == "extra-pin":
        return _("Use Extra Pin on pin {pin}").format(pin=words[1])
    if kind in ABILITY_TITLES:
        return _("Use {ability}").format(ability=ability_title(kind))
    return kind.capitalize()


def step_sentence(before: State, text: str, names: Sequence[str], actor: int | None) -> str:
    """A Rolling Pins step as the log tells it: `Ann rolls 3 and 4: 7`, `Ann crosses out 3 and 4`."""
    if actor is None:
        return _roll_sentence(before, text, names)
    name = who(names, actor)
    state = before if actor == before.turn() else before.as_decider(actor)
    words = text.split()
    kind = words[0]
    if kind == "dice":
        pattern = _("{name} takes one die") if words[1] == "1" else _("{name} takes two dice")
        return pattern.format(name=name)
    if kind == "miss":
        return _("{name} misses").format(name=name)
    if kind == "pass":
        return _("{name} keeps Extra Pin for later").format(name=name)
    if kind == "cross":
        pins = pins_list(words[1].split("+"))
        if len(words) == 4 and words[2] == "tokens":
            return _("{name} crosses out {pins} ({tokens})").format(
                name=name, tokens=_token_words(state, int(words[3])), pins=pins
            )
        return _("{name} crosses out {pins}").format(name=name, pins=pins)
    if kind == "mark":
        return _("{name} marks a box: {area}").format(name=name, area=_area(state, int(words[1])))
    if kind == "flip":
        face = _me(state)["dice"][int(words[1]) - 1]
        return _("{name} uses Flip: {face} becomes {other}").format(name=name, face=face, other=7 - face)
    if kind == "keep":
        dice = _me(state)["dice"]
        kept = pins_list([dice[int(d) - 1] for d in words[1].split("+")])
        return _("{name} keeps {dice}").format(name=name, dice=kept)
    if kind == "extra-pin":
        return _("{name} uses Extra Pin on pin {pin}").format(name=name, pin=words[1])
    return _("{name} uses {ability}").format(name=name, ability=ability_title(kind))


def _roll_sentence(before: State, text: str, names: Sequence[str]) -> str:
    """A roll: the player's own (`Ann rolls 3 and 4: 7`), or with shared dice the roll for everybody."""
    from pinsetter.games.rolling_pins import RollingPinsState

    assert isinstance(before, RollingPinsState)
    faces = [int(f) for f in text.split("+")]
    player = before.turn()
    sheet = before.players[player]
    if before.shared and not sheet.private_roll:
        coloured, white, third = faces
        if any(p.extra_dice for p in before.players):  # the third die serves a player using Extra Dice
            return _("Roll for everybody: {coloured} (coloured), {white} and a third die {third}").format(
                coloured=coloured, white=white, third=third
            )
        return _("Roll for everybody: {coloured} (coloured) and {white}").format(coloured=coloured, white=white)
    name = who(names, player)
    if len(faces) == 1:
        return _("{name} rolls a {face}").format(name=name, face=faces[0])
    if sheet.extra_dice:  # one die more than chosen: which ones count is chosen next
        return _("{name} rolls {dice}").format(name=name, dice=pins_list(faces))
    return _("{name} rolls {dice}: {total}").format(name=name, dice=pins_list(faces), total=sum(faces))


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


def rolling_pins_table(
    state: State, names: list[str] | None, last_chance: str = "", seat: int | None = None
) -> TableView:
    """The sheet of the player up (the first at the end); `seat`: that player's sheet, its choices left out."""
    player = turn_of(state)
    me_index = seat if seat is not None else player if player is not None else 0
    sheet_view = getattr(state, "sheet_view", None)  # the one sheet drawn, not every player's view
    me: dict[str, Any] = sheet_view(me_index) if sheet_view is not None else state.view(me_index)["players"][me_index]
    standing = set(me["standing"])
    grey = set(me.get("grey", []))
    pins_in_rack = state.game.lane.pins
    acting = seat is None and not state.is_chance_node() and not state.is_terminal()
    rolled = me["phase"] == "rolled" and acting
    legal = [str(a) for a in state.legal_actions()] if acting else []
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
    marking = {int(text.split()[1]): text for text in legal if text.startswith("mark ")}
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
                action=marking.get(index + 1, ""),
            )
            for index, ((ability, row), m, b) in enumerate(zip(areas, me["marks"], boxes, strict=False))
        )
        abilities = tuple(
            Ability(name=name, title=ability_title(name), help=ability_help(name), held=count)
            for name, count in sorted(me["abilities"].items())
            if count
        )
    dice = pip_dice("+".join(str(d) for d in me["dice"])) if me["dice"] else ()
    # Dice kept from a roll already crossed out (the next one is still to choose): a past roll, so said.
    previous = _("{name}'s last roll").format(name=who(names or [], me_index)) if dice and not rolled else ""
    roll = sum(me["dice"]) if me["dice"] else None
    # An empty tray says "No roll yet" only before this player's first roll (all pins up, frame 1,
    # ball 1); later it is between rolls, and the last chance (maybe another player's) is not theirs.
    ctx = state.ball_context(me_index)
    no_roll_yet = (
        not state.is_terminal()
        and ctx is not None
        and (ctx.frame, ctx.ball) == (1, 1)
        and len(standing) == pins_in_rack
    )
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
    # Boxes to mark come first, whatever the phase says: the only actions then are `mark N`.
    phase = PHASE_DOING["mark"] if me.get("pending_marks") else PHASE_DOING.get(me["phase"])
    doing = (_(phase) if phase else "") if not state.is_chance_node() else _("roll the dice")
    # Boxes to mark before a frame's first roll are the frame before's (its strike, its grey pins): said so,
    # not "frame 5, ball 1" for frame 4's strike.
    where = None
    if me.get("pending_marks") and me_index == player and ctx is not None and ctx.fresh_rack and ctx.ball == 1:
        where = _("after frame {frame}").format(frame=ctx.frame - 1) if ctx.frame > 1 else None
    return TableView(
        game=state.game.id,
        title=_(state.game.name),
        # At the end the sheet drawn is still somebody's: the first player's, named as its owner.
        player=me_index if state.is_terminal() else player,
        status=status_line(state, names, doing, where),
        rows=rows_for(pins_in_rack),
        pins=pins,
        dice=dice,
        dice_caption=_("roll {total}").format(total=roll) if roll is not None else "",
        dice_previous=previous,
        dice_tray=True,
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
        no_roll_yet=no_roll_yet,
        chance_words=pip_words(last_chance) if last_chance and dice else "",
    )


def up_board_data(board: dict[str, Any], player: int, names: list[str] | None) -> dict[str, Any]:
    """The board of the player up (`rolling_pins_table(state, names, last_chance, seat=player).as_board(player)`,
    dumped) from `board`, their table as a board (`as_board_data`): drawn for a seat, the sheet's
    track offers no action and its dice are a roll already played (see `rolling_pins_table`)."""
    previous = _("{name}'s last roll").format(name=who(names or [], player)) if board["dice"] else ""
    return {**board, "dice_previous": previous, "track": [{**area, "action": ""} for area in board["track"]]}


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
