"""A `TableView` drawn as terminal text (rich `Text`): the terminal's generic table renderer.

Nothing here knows a game: it draws whatever the view holds (pins, dice,
piles, cards seen, tokens, the ability track), with a symbol beside every
colour so that the picture reads without colour too. Labels from the view are
appended as plain text, never markup.
"""

from __future__ import annotations

from collections.abc import Collection

from rich.cells import cell_len, set_cell_size
from rich.text import Text

from pinsetter.core.table import TableView, TrackArea
from pinsetter.i18n import _

__all__ = ["DIE_FACES", "abilities_help", "draw_table", "draw_track", "selection_line"]

DIE_FACES = {"1": "⚀", "2": "⚁", "3": "⚂", "4": "⚃", "5": "⚄", "6": "⚅"}
BOWLING_FACES = {
    "X": ("X", "bold white on red"),
    "/": ("/", "bold white on blue"),
    "-": ("-", "on grey23"),
    "P": ("▮", "bold black on white"),
}


def _pin_cell(label: str, down: bool, grey: bool, picked: bool) -> tuple[str, str]:
    """The pin's cell text (with its symbol) and style."""
    if picked:
        return f"✓{label:>2}", "bold black on yellow"
    if down:
        return " x ", "dim strike"
    if grey:
        return f"◆{label:>2}", "bold white on grey37"
    return f" {label:>2}", "bold white on blue"


def draw_pins(view: TableView, picked: Collection[int]) -> Text:
    """The triangle, back row on top, each pin with its label (and its key, where that differs)."""
    text = Text()
    widest = max((len(row) for row in view.rows), default=0)
    keyed = any(spot.key for spot in view.pins)
    width = 8 if keyed else 6  # columns per pin; a missing pin of a row shifts it by half of that
    legend = []
    if keyed:
        legend.append(_("key:card"))
    if any(spot.grey and not spot.down for spot in view.pins):
        legend.append(_("◆ grey"))
    if any(spot.down for spot in view.pins):
        legend.append(_("x down"))
    if picked:
        legend.append(_("✓ picked"))
    for index, row in enumerate(view.rows):
        text.append(" " * ((widest - len(row)) * width // 2))
        for number in row:
            spot = view.pin(number)
            if spot is None:
                text.append(" " * width)
                continue
            if keyed:
                text.append(f"{spot.key:>1}:", style="dim" if spot.down else "")
            cell, style = _pin_cell(spot.label, spot.down, spot.grey, number in picked)
            text.append(f"{cell} ", style=style)
            text.append("  ")
        # The legend beside the triangle, one symbol a row: it costs no line of its own.
        if index < len(legend):
            text.append(" " * ((widest - len(row)) * width // 2) + legend[index], style="dim")
        text.append("\n")
    return text


def selection_line(view: TableView, picked: Collection[int], pile: int | None) -> str:
    """`selected 2+4+5 = 11 (roll 10, tokens +1)` or `... = 17 -> 7 (pile 2: 7)`: the running sum."""
    if view.selection is None or not picked:
        return ""
    values = [spot.value or 0 for n in sorted(picked) if (spot := view.pin(n)) is not None]
    total = sum(values)
    line = _("selected: {pins}").format(pins="+".join(str(n) for n in sorted(picked)))
    if any(v != n for v, n in zip(values, sorted(picked), strict=True)):
        line += f" ({'+'.join(map(str, values))})"
    line += f" = {total}"
    selection = view.selection
    if selection.modulo:
        line += f" -> {total % selection.modulo}"
    if selection.target is not None:
        tokens = f"{total - selection.target:+d}"
        if selection.tokens is not None:
            line += _("; roll {roll}, tokens {tokens} of {held}").format(
                roll=selection.target, tokens=tokens, held=selection.tokens
            )
        else:
            line += _("; roll {roll}, tokens {tokens}").format(roll=selection.target, tokens=tokens)
    if selection.needs_pile:
        top = next((p.top for p in view.piles if p.number == pile), None)
        line += _("; pile {pile}: {top}").format(pile=pile, top=top) if pile is not None else _("; pick a pile (p)")
    return line


def draw_table(view: TableView, picked: Collection[int] = (), pile: int | None = None) -> Text:
    """Everything on the table: pins, dice, piles, cards, tokens and the ability track."""
    text = Text()
    if view.pins:
        text.append(draw_pins(view, picked))
    if view.standing is not None:
        text.append(_("pins standing: "))
        text.append("▮ " * view.standing, style="bold white")
        text.append(f" {view.standing}\n")
    if view.dice:
        text.append(_("dice: "))
        for die in view.dice:
            if die.kind == "pips":
                text.append(f"{DIE_FACES.get(die.face, die.face)} {die.face}  ", style="bold")
            else:
                symbol, style = BOWLING_FACES.get(die.face, (die.face, ""))
                text.append(f"[{symbol}]", style=style)
                text.append(" ")
        if view.dice_caption:
            text.append(f"  {view.dice_caption}")
        if view.tokens is not None:  # on the dice's line, to keep the table short
            text.append("   " + _("tokens: {dots} {count}").format(dots="●" * view.tokens or "-", count=view.tokens))
        text.append("\n")
    line = selection_line(view, picked, pile)
    if line:
        text.append(line + "\n", style="yellow")
    for p in view.piles:
        chosen = p.number == pile
        marker = "▶" if chosen else " "
        heading = marker + _("pile {number}: ").format(number=p.number)
        text.append(heading, style="bold black on yellow" if chosen else "bold")
        text.append(_("[{top}] {count} card(s)").format(top=f"{p.top or '  ':>2}", count=p.cards))
        text.append(_(" (chosen)") + "\n" if chosen else "\n")
    if view.seen:
        text.append(_("seen this frame: {cards}").format(cards=" ".join(view.seen)) + "\n")
    if view.unseen:
        unseen = " ".join(f"{value}:{count}" for value, count in view.unseen.items())
        text.append(_("unseen (card:left) {cards}").format(cards=unseen) + "\n")
    if view.tokens is not None and not view.dice:
        text.append(_("tokens: {dots} {count}").format(dots="●" * view.tokens or "-", count=view.tokens) + "\n")
    if view.track:
        text.append(draw_track(view))
    if view.abilities and not view.track:  # the track circles the abilities held
        held = ", ".join(f"{a.title} x{a.held}" for a in view.abilities)
        text.append(_("abilities held: {held}").format(held=held) + "\n")
    for note in view.notes:
        text.append(note + "\n", style="bold yellow")
    return text


def _area_cell(number: int, area: TrackArea) -> tuple[str, str]:
    """`2 Flip       ■□ ◉`: the area's number (as in `mark N`), its ability, its boxes and its state."""
    boxes = "■" * area.marked + "□" * (area.boxes - area.marked)
    state = "◉" if area.held else "✗" if area.used else " "
    style = "bold" if area.held else "dim" if (area.used or not area.open) else ""
    return f"{number:>2} {_cells(area.title, 12)}{boxes:<3}{state}", style


def _cells(text: str, width: int) -> str:
    """`text` in exactly `width` terminal cells (a kanji takes two): padded, or cut with `…`."""
    if cell_len(text) > width:
        text = set_cell_size(text, width - 1).rstrip() + "…"
    return set_cell_size(text, width)


def draw_track(view: TableView) -> Text:
    """The ability track as on the paper sheet: the upper row beside the lower, each area numbered."""
    text = Text()
    upper = [(n, a) for n, a in enumerate(view.track, start=1) if a.row == "upper"]
    lower = [(n, a) for n, a in enumerate(view.track, start=1) if a.row == "lower"]
    lower_open = bool(lower) and lower[0][1].open
    upper_state = _("track  upper: full") if lower_open else _("track  upper: open")
    text.append(upper_state + " " * max(1, 21 - cell_len(upper_state)), style="bold")
    text.append((_("lower: open") if lower_open else _("lower: closed")) + "\n", style="bold")
    for index in range(max(len(upper), len(lower))):
        for column, side in enumerate((upper, lower)):
            if index < len(side):
                cell, style = _area_cell(*side[index])
                text.append(cell, style=style)
            if column == 0:
                text.append(" ")
        text.append("\n")
    if any(a.held or a.used for a in view.track):
        text.append(_(" ◉ held  ✗ used"), style="dim")
        if view.abilities:
            text.append(" - " + ", ".join(f"{a.title} x{a.held}" for a in view.abilities), style="dim")
        text.append("\n")
    return text


def abilities_help(view: TableView) -> str:
    """What each ability on the track does (the `?` panel)."""
    seen: dict[str, str] = {}
    for area in view.track:
        seen.setdefault(area.title, area.help)
    return "\n".join(f"{title}: {help_text}" for title, help_text in seen.items())
