"""A terminal scoresheet that looks like the paper one: marks on top, running totals below.

`compact` draws the same sheet in narrow cells (no box separators inside a frame) for a
terminal narrower than the paper layout's 78 columns, rather than letting it wrap.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len

from pinsetter.core.scoring import Scoresheet
from pinsetter.i18n import _
from pinsetter.usertext import visible

__all__ = ["fit_names", "frame_columns", "render_sheets", "sheet_rows", "sheet_width"]


def _widths(frames: int, compact: bool) -> list[int]:
    if compact:
        return [3 if n < frames else 4 for n in range(1, frames + 1)]
    return [7 if n == frames else 5 for n in range(1, frames + 1)]


def _name_width(names: Sequence[str]) -> int:
    return max([cell_len(visible(n)) for n in names] + [6])  # terminal cells: a kanji takes two


def frame_columns(names: Sequence[str], frames: int, compact: bool = False) -> list[tuple[int, int]]:
    """(first column, width) of each frame's cell on a sheet's lines, to highlight the frame being played."""
    widths = _widths(frames, compact)
    column = _name_width(names) + 2
    found = []
    for width in widths:
        found.append((column, width))
        column += width + 1
    return found


def sheet_width(names: Sequence[str], frames: int = 10, compact: bool = False) -> int:
    """How many columns the sheet takes."""
    return _name_width(names) + 2 + sum(w + 1 for w in _widths(frames, compact)) + (5 if compact else 8)


def fit_names(names: Sequence[str], frames: int, width: int) -> list[str]:
    """The names, each cut (with `…`) so that the compact sheet, a turn's `▶` included, fits `width` cells.

    Names are up to 40 characters; at 80 columns a sheet has room for about 26 of them, and a
    sheet that wraps pushes everything below it off the screen.
    """
    room = width - 2 - (sheet_width([""], frames, compact=True) - _name_width([""])) - len(" ▶")
    most = max(room, 6)
    return [_cut(visible(name), most) for name in names]


def _cut(name: str, cells: int) -> str:
    """`name` in at most `cells` terminal cells, `…` marking a cut."""
    if cell_len(name) <= cells:
        return name
    kept = ""
    for char in name:
        if cell_len(kept) + cell_len(char) > cells - 1:
            break
        kept += char
    return kept + "…"


def _cells(sheet: Scoresheet, frames: int, current: int | None, compact: bool) -> tuple[list[str], list[str]]:
    marks_row: list[str] = []
    totals_row: list[str] = []
    by_number = {f.number: f for f in sheet.frames}
    widths = _widths(frames, compact)
    for number in range(1, frames + 1):
        last = number == frames
        boxes = 3 if last else 2
        frame = by_number.get(number)
        marks = list(frame.marks) if frame else []
        if not last and marks == ["X"]:
            marks = ["", "X"]
        marks += [""] * (boxes - len(marks))
        width = widths[number - 1]
        if compact:
            marks_row.append(f"{''.join(m or ' ' for m in marks):>{width}}")
        else:
            marks_row.append(" " + "│".join(f"{m:1}" for m in marks) + " ")
        total = "" if frame is None or frame.total is None else str(frame.total)
        if number == current and not total:
            total = "·"
        totals_row.append(f"{total:>{width}}" if compact else f"{total:>{width - 1}} ")
    return marks_row, totals_row


def render_sheets(
    names: Sequence[str],
    sheets: Sequence[Scoresheet],
    frames: int = 10,
    current: Sequence[int | None] | None = None,
    compact: bool = False,
    turn: int | None = None,
    ruled: bool = True,
) -> str:
    """Paper-style sheets, one block per player, sharing a header of frame numbers.

    Names are printed literally, control characters spelled out (`usertext.visible`).
    `turn`: the player to act, marked `▶` after the name so that it reads without colour.
    `ruled=False` leaves out the rules above, between and under the players (a short terminal):
    each player then takes two lines, marks and totals (`sheet_rows`).
    """
    names = [visible(n) for n in names]
    if turn is not None:
        names = [f"{n} ▶" if i == turn else n for i, n in enumerate(names)]
    name_width = max([cell_len(n) for n in names] + [6])
    widths = _widths(frames, compact)
    total_width = 4 if compact else 7
    header = " " * (name_width + 1) + "".join(f"{n:^{w}} " for n, w in zip(range(1, frames + 1), widths, strict=True))
    label = _("total")  # right-aligned over the total column, whatever its width in cells
    header = header.rstrip() + " " * max(1, (6 if compact else 8) - cell_len(label)) + label
    top = " " * name_width + " ┌" + "┬".join("─" * w for w in widths) + "┬" + "─" * total_width + "┐"
    mid = " " * name_width + " ├" + "┼".join("─" * w for w in widths) + "┼" + "─" * total_width + "┤"
    bottom = " " * name_width + " └" + "┴".join("─" * w for w in widths) + "┴" + "─" * total_width + "┘"
    lines = [header, top] if ruled else [header]
    for index, (name, sheet) in enumerate(zip(names, sheets, strict=True)):
        cur = current[index] if current else None
        marks_row, totals_row = _cells(sheet, frames, cur, compact)
        total = f"{sheet.total:>{total_width - 1}} "
        padded = name + " " * (name_width - cell_len(name))
        lines.append(f"{padded} │" + "│".join(marks_row) + "│" + " " * total_width + "│")
        lines.append(" " * name_width + " │" + "│".join(totals_row) + f"│{total}│")
        if ruled:
            lines.append(mid if index < len(names) - 1 else bottom)
    return "\n".join(lines)


def sheet_rows(player: int, ruled: bool = True) -> tuple[int, int]:
    """The lines of a `render_sheets` sheet that hold `player`'s marks and totals."""
    first = 2 + 3 * player if ruled else 1 + 2 * player
    return first, first + 1
