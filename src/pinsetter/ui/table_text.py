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
from pinsetter.i18n import _, ngettext
from pinsetter.ui.wrap import wrap_text

__all__ = [
    "DIE_FACES",
    "abilities_help",
    "draw_pins",
    "draw_table",
    "draw_track",
    "essentials",
    "selection_line",
    "track_width",
]

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


def draw_pins(view: TableView, picked: Collection[int], width: int = 0) -> Text:
    """The triangle, back row on top, each pin with its label (and its key before it, where that differs:
    then the label is a card, in brackets, `7 [10]`, so that key and card read apart without colour).

    The symbols' legend goes beside the rows, one a row, where `width` (cells, 0: any) leaves room,
    else under the triangle; a keyed table (cards on the pins) says in words what the key is, under the
    legend where a known `width` leaves the rows room for it, else under the triangle.
    """
    text = Text()
    widest = max((len(row) for row in view.rows), default=0)
    keyed = any(spot.key for spot in view.pins)
    step = 8 if keyed else 6  # columns per pin; a missing pin of a row shifts it by half of that
    legend = []
    if any(spot.grey and not spot.down for spot in view.pins):
        legend.append(_("◆ grey"))
    if any(spot.down for spot in view.pins):
        legend.append(_("x down"))
    if picked:
        legend.append(_("✓ picked"))
    triangle = widest * step
    beside = not width or triangle + max((cell_len(w) for w in legend), default=0) <= width
    key_words = _("The number before a [card] is its key.") if keyed else ""
    key_lines = wrap_text(Text(key_words), width - triangle).plain.split("\n") if keyed and width > triangle else []
    if not beside or len(legend) + len(key_lines) > len(view.rows):
        key_lines = []  # under the triangle, whole
    side = legend + key_lines if beside else []
    for index, row in enumerate(view.rows):
        text.append(" " * ((widest - len(row)) * step // 2))
        for number in row:
            spot = view.pin(number)
            if spot is None:
                text.append(" " * step)
            elif keyed:
                text.append(f"{spot.key:>1}", style="dim")
                mark, card, style = _card_cell(spot.label, spot.down, spot.grey, number in picked)
                text.append(mark, style=style if mark.strip() else "")
                text.append(card, style=style)
                text.append("  ")
            else:
                cell, style = _pin_cell(spot.label, spot.down, spot.grey, number in picked)
                text.append(f"{cell} ", style=style)
                text.append("  ")
        # The legend beside the triangle, one symbol a row (then the key's sentence): no line of its own.
        if index < len(side):
            text.append(" " * ((widest - len(row)) * step // 2) + side[index], style="dim")
        text.append("\n")
    if legend and not beside:
        text.append("  ".join(legend) + "\n", style="dim")
    if keyed and not key_lines:
        text.append(key_words + "\n", style="dim")
    return text


def _card_cell(label: str, down: bool, grey: bool, picked: bool) -> tuple[str, str, str]:
    """A card on a pin, after its key: its symbol (`✓` picked, `◆` grey, or a space), the card in brackets
    (`[10]`, in the card's colours, as a pile's top is drawn) and their style; a pin down: an `x` in its place."""
    if down:
        return " ", "  x ", "dim strike"
    cell, style = _pin_cell(label, down, grey, picked)
    return cell[0], f"[{cell[1:]}]", style


def selection_line(view: TableView, picked: Collection[int], pile: int | None) -> str:
    """The pick in words, as the web page says it: `Picked pins 1 + 3: sum 4 · target 5`, and on a
    second line what it asks of the tokens (`Tokens: 1 held · this pick moves the total by -1 (1 token)`).

    Pins that carry a card (Solitaire) say the card and where it lies, since the sum adds the cards;
    the target is the roll, or the chosen pile's card. Empty when nothing is picked.
    """
    selection = view.selection
    if selection is None or not picked:
        return ""
    spots = [spot for n in sorted(picked) if (spot := view.pin(n)) is not None]
    raw = sum(spot.value or 0 for spot in spots)
    if any(spot.value is not None and spot.value != spot.number for spot in view.pins):
        cards = " + ".join(_("{card} (pin {number})").format(card=spot.label, number=spot.number) for spot in spots)
        line = _("Picked {cards}: sum {sum}").format(cards=cards, sum=raw)
    else:
        line = _("Picked pins {pins}: sum {sum}").format(pins=" + ".join(str(spot.number) for spot in spots), sum=raw)
    if selection.modulo:
        line += _(", last digit {digit}").format(digit=raw % selection.modulo)
    target = selection.target
    if target is None and selection.needs_pile:
        top = next((p.top for p in view.piles if p.number == pile), None)
        if top is not None and top.isdigit():
            target = int(top) % selection.modulo if selection.modulo else int(top)
    if target is not None:
        line += _(" · target {target}").format(target=target)
    if selection.needs_pile and pile is None:
        line += _("; pick a pile (p)")
    if selection.tokens is not None and target is not None:
        diff = raw - target
        if diff == 0:
            line += "\n" + _("Tokens: {held} held · this pick needs no token").format(held=selection.tokens)
        else:
            line += "\n" + ngettext(
                "Tokens: {held} held · this pick moves the total by {diff} ({n} token)",
                "Tokens: {held} held · this pick moves the total by {diff} ({n} tokens)",
                abs(diff),
            ).format(held=selection.tokens, diff=f"{diff:+d}", n=abs(diff))
    return line


def dice_parts(view: TableView, roll_by: str = "") -> tuple[Text, Text]:
    """The dice line's two parts: whose roll it is (`last roll (ann): `, or `dice: `), and the dice."""
    line = Text(_("last roll ({name}): ").format(name=roll_by) if roll_by else _("dice: "))
    faces = Text()
    for die in view.dice:
        if die.kind == "pips":
            faces.append(f"{DIE_FACES.get(die.face, die.face)} {die.face}  ", style="bold")
        else:
            symbol, style = BOWLING_FACES.get(die.face, (die.face, ""))
            faces.append(f"[{symbol}]", style=style)
            faces.append(" ")
    return line, faces


def dice_width(view: TableView, roll_by: str = "") -> int:
    """The cells the dice and whose roll they are take on one line (0 without dice): the least width at
    which `draw_table` keeps them together."""
    if not view.dice:
        return 0
    line, faces = dice_parts(view, roll_by)
    return cell_len(line.plain) + cell_len(faces.plain.rstrip())


def draw_table(
    view: TableView, picked: Collection[int] = (), pile: int | None = None, width: int = 0, roll_by: str = ""
) -> Text:
    """Everything on the table: pins, dice, piles, cards, tokens and the ability track.

    `width`: the cells the table is shown in (0: as wide as it likes); a part that would not fit
    beside another goes under it (the legend, the dice, their words, the tokens, the track's lower
    row), so that no line is folded by the terminal. `roll_by`: whose dice these are, in words, when the screen knows
    ("ann"): the dice of the last roll stay on the table after it is played.
    """
    text = Text()
    if view.pins:
        text.append(draw_pins(view, picked, width))
    if view.standing is not None:
        text.append(_("pins standing: "))
        text.append("▮ " * view.standing, style="bold white")
        text.append(f" {view.standing}\n")
    if view.tokens:
        tokens = _("tokens: {dots} {count}").format(dots="●" * view.tokens, count=view.tokens)
    else:
        tokens = _("tokens: none")  # not "- 0"
    if view.dice:
        line, faces = dice_parts(view, roll_by)
        # The dice under whose roll they are, where the two do not fit one line: never a die folded over.
        if width and cell_len(line.plain) + cell_len(faces.plain.rstrip()) > width >= cell_len(faces.plain.rstrip()):
            line.rstrip()
            line.append("\n")
        line.append_text(faces)
        if view.dice_caption:
            # Beside the dice where it fits whole; else on a line of its own where it fits there
            # (never "rolled 2 and" | "5"); one longer than a line stays beside them, folded on words.
            caption = cell_len(view.dice_caption)
            if width and cell_len(line.plain.rsplit("\n", 1)[-1]) + 2 + caption > width and caption <= width:
                line.rstrip()
                line.append("\n" + view.dice_caption)
            else:
                line.append(f"  {view.dice_caption}")
        text.append(line)
        last = line.plain.rsplit("\n", 1)[-1]
        if view.tokens is not None:  # on the dice's line where it fits, to keep the table short
            if not width or cell_len(last.rstrip()) + 3 + cell_len(tokens) <= width:
                text.rstrip()
                text.append("   " + tokens)
            else:
                text.append("\n" + tokens)
        text.append("\n")
    selected = selection_line(view, picked, pile)
    if selected:
        text.append(selected + "\n", style="yellow")
    for p in view.piles:
        chosen = p.number == pile
        marker = "▶" if chosen else " "
        heading = marker + _("pile {number}: ").format(number=p.number)
        text.append(heading, style="bold black on yellow" if chosen else "bold")
        text.append(
            ngettext("[{top}] {count} card", "[{top}] {count} cards", p.cards).format(
                top=f"{p.top or '  ':>2}", count=p.cards
            )
        )
        text.append(_(" (chosen)") + "\n" if chosen else "\n")
    if view.seen:
        text.append(_("seen this frame: {cards}").format(cards=" ".join(view.seen)) + "\n")
    if view.unseen:
        left = [value for value, count in view.unseen.items() for _copy in range(count)]
        cards = " ".join(left) if left else _("none")
        text.append(_("not seen yet: {cards}").format(cards=cards) + "\n")
    if view.tokens is not None and not view.dice:
        text.append(tokens + "\n")
    if view.track:
        text.append(draw_track(view, width))
    if view.abilities and not view.track:  # the track circles the abilities held
        held = ", ".join(f"{a.title} x{a.held}" for a in view.abilities)
        text.append(_("abilities held: {held}").format(held=held) + "\n")
    for note in view.notes:
        text.append(note + "\n", style="bold yellow")
    return text


def essentials(view: TableView) -> TableView:
    """The parts of the table a short window keeps in view, drawn first by `draw_table`: the pins, the dice
    and tokens, the pick, the piles. The cards seen, the track, the abilities and the notes may scroll."""
    return view.model_copy(update={"seen": (), "unseen": {}, "track": (), "abilities": (), "notes": ()})


def _area_cell(number: int, area: TrackArea, title_cells: int) -> tuple[str, str]:
    """`2 Flip       ■□ ◉`: the area's number (as in `mark N`), its ability, its boxes and its state."""
    boxes = "■" * area.marked + "□" * (area.boxes - area.marked)
    state = "◉" if area.held else "✗" if area.used else " "
    style = "bold" if area.held else "dim" if (area.used or not area.open) else ""
    return f"{number:>2} {_cells(area.title, title_cells)} {boxes:<3}{state}", style


def _cells(text: str, width: int) -> str:
    """`text` in exactly `width` terminal cells (a kanji takes two): padded, or cut with `…`."""
    if cell_len(text) > width:
        text = set_cell_size(text, width - 1).rstrip() + "…"
    return set_cell_size(text, width)


AREA_EXTRA = 2 + 1 + 1 + 3 + 1  # an area's cells besides its title: number, space, space, boxes, state


def track_width(view: TableView) -> int:
    """The cells the track takes with its two rows side by side and no title cut (0: no track)."""
    if not view.track:
        return 0
    return 2 * (max(cell_len(a.title) for a in view.track) + AREA_EXTRA) + 1


def draw_track(view: TableView, width: int = 0) -> Text:
    """The ability track as on the paper sheet: the upper row beside the lower, each area numbered.

    The titles are never cut where the width allows (Japanese ones take up to 16 cells); when the
    two rows do not fit side by side in `width`, the lower row goes under the upper one.
    """
    text = Text()
    upper = [(n, a) for n, a in enumerate(view.track, start=1) if a.row == "upper"]
    lower = [(n, a) for n, a in enumerate(view.track, start=1) if a.row == "lower"]
    longest = max(cell_len(a.title) for a in view.track)
    side_by_side = not width or track_width(view) <= width
    room = longest if side_by_side or not width else min(longest, width - AREA_EXTRA)
    room = max(room, 4)
    lower_open = bool(lower) and lower[0][1].open
    upper_state = _("track  upper: full") if lower_open else _("track  upper: open")
    lower_state = _("lower: open") if lower_open else _("lower: closed")
    column = room + AREA_EXTRA + 1
    if side_by_side:
        text.append(upper_state + " " * max(1, column - cell_len(upper_state)), style="bold")
        text.append(lower_state + "\n", style="bold")
        for index in range(max(len(upper), len(lower))):
            for side_number, side in enumerate((upper, lower)):
                if index < len(side):
                    cell, style = _area_cell(*side[index], room)
                    text.append(cell, style=style)
                elif side_number == 0:
                    text.append(" " * (column - 1))
                if side_number == 0:
                    text.append(" ")
            text.rstrip()
            text.append("\n")
    else:
        for state_words, side in ((upper_state, upper), ("        " + lower_state, lower)):
            text.append(state_words.strip() + "\n", style="bold")
            for number, area in side:
                cell, style = _area_cell(number, area, room)
                text.append(cell.rstrip() + "\n", style=style)
    if any(a.held or a.used for a in view.track):
        text.append(_(" ◉ held  ✗ used"), style="dim")
        if view.abilities:
            held = [
                a.title if a.held == 1 else _("{ability} ({count})").format(ability=a.title, count=a.held)
                for a in view.abilities
            ]
            text.append(" · " + _("held now: {abilities}").format(abilities=_(", ").join(held)), style="dim")
        text.append("\n")
    return text


def abilities_help(view: TableView) -> str:
    """What each ability on the track does (the `a` panel)."""
    seen: dict[str, str] = {}
    for area in view.track:
        seen.setdefault(area.title, area.help)
    return "\n".join(f"{title}: {help_text}" for title, help_text in seen.items())
