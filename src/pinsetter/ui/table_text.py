"""A `TableView` drawn as terminal text (rich `Text`): the terminal's generic table renderer.

Nothing here knows a game: it draws whatever the view holds (pins, dice,
piles, cards seen, tokens, the ability track), with a symbol beside every
colour so that the picture reads without colour too. Labels from the view are
appended as plain text, never markup.
"""

from __future__ import annotations

from collections.abc import Collection

from rich.text import Text

from pinsetter.core.table import TableView

__all__ = ["DIE_FACES", "draw_table", "selection_line"]

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
    """The triangle, back row on top, each pin with its label."""
    text = Text()
    widest = max((len(row) for row in view.rows), default=0)
    for row in view.rows:
        text.append("   " * (widest - len(row)))
        for number in row:
            spot = view.pin(number)
            if spot is None:
                text.append("      ")
                continue
            cell, style = _pin_cell(spot.label, spot.down, spot.grey, number in picked)
            text.append(f"{cell} ", style=style)
            text.append("  ")
        text.append("\n")
    return text


def selection_line(view: TableView, picked: Collection[int], pile: int | None) -> str:
    """`selected 2+4+5 = 11 (roll 10, tokens +1)` or `... = 17 -> 7 (pile 2: 7)`: the running sum."""
    if view.selection is None or not picked:
        return ""
    values = [spot.value or 0 for n in sorted(picked) if (spot := view.pin(n)) is not None]
    total = sum(values)
    line = f"selected {'+'.join(str(n) for n in sorted(picked))}"
    if any(v != n for v, n in zip(values, sorted(picked), strict=True)):
        line += f" ({'+'.join(map(str, values))})"
    line += f" = {total}"
    selection = view.selection
    if selection.modulo:
        line += f" -> {total % selection.modulo}"
    if selection.target is not None:
        line += f"; roll {selection.target}, tokens {total - selection.target:+d}"
        if selection.tokens is not None:
            line += f" of {selection.tokens}"
    if selection.needs_pile:
        top = next((p.top for p in view.piles if p.number == pile), None)
        line += f"; pile {pile}: {top}" if pile is not None else "; pick a pile (p)"
    return line


def draw_table(view: TableView, picked: Collection[int] = (), pile: int | None = None) -> Text:
    """Everything on the table: pins, dice, piles, cards, tokens and the ability track."""
    text = Text()
    if view.pins:
        text.append(draw_pins(view, picked))
    if view.standing is not None:
        text.append("pins standing: ")
        text.append("▮ " * view.standing, style="bold white")
        text.append(f" {view.standing}\n")
    if view.dice:
        text.append("\ndice: ")
        for die in view.dice:
            if die.kind == "pips":
                text.append(f"{DIE_FACES.get(die.face, die.face)} {die.face}  ", style="bold")
            else:
                symbol, style = BOWLING_FACES.get(die.face, (die.face, ""))
                text.append(f"[{symbol}]", style=style)
                text.append(" ")
        if view.dice_caption:
            text.append(f"  {view.dice_caption}")
        text.append("\n")
    line = selection_line(view, picked, pile)
    if line:
        text.append(line + "\n", style="yellow")
    for p in view.piles:
        chosen = p.number == pile
        text.append(f"{'▶' if chosen else ' '}pile {p.number}: ", style="bold black on yellow" if chosen else "bold")
        text.append(f"[{p.top or '  ':>2}] {p.cards} card(s)\n")
    if view.unseen:
        unseen = "  ".join(f"{value}:{count}" for value, count in view.unseen.items())
        text.append(f"unseen cards  {unseen}\n", style="dim")
    if view.tokens is not None:
        text.append(f"tokens: {'●' * view.tokens or '-'} {view.tokens}\n")
    if view.track:
        text.append("ability track (? explains):\n")
        for row in ("upper", "lower"):
            areas = [a for a in view.track if a.row == row]
            if not areas:
                continue
            state = "open" if areas[0].open else "closed"
            text.append(f" {row} ({state}): ")
            for area in areas:
                boxes = "■" * area.marked + "□" * (area.boxes - area.marked)
                text.append(f"{area.title} {boxes}  ", style="" if area.open else "dim")
            text.append("\n")
    if view.abilities:
        held = ", ".join(f"{a.title} x{a.held}" for a in view.abilities)
        text.append(f"abilities held: {held}\n")
    for note in view.notes:
        text.append(note + "\n", style="bold yellow")
    return text


def abilities_help(view: TableView) -> str:
    """What each ability on the track does (the `?` panel)."""
    seen: dict[str, str] = {}
    for area in view.track:
        seen.setdefault(area.title, area.help)
    return "\n".join(f"{title}: {help_text}" for title, help_text in seen.items())
