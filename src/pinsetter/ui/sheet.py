"""A terminal scoresheet that looks like the paper one: marks on top, running totals below."""

from __future__ import annotations

from collections.abc import Sequence

from pinsetter.core.scoring import Scoresheet
from pinsetter.usertext import visible

__all__ = ["render_sheets"]


def _cells(sheet: Scoresheet, frames: int, current: int | None) -> tuple[list[str], list[str]]:
    marks_row: list[str] = []
    totals_row: list[str] = []
    by_number = {f.number: f for f in sheet.frames}
    for number in range(1, frames + 1):
        last = number == frames
        boxes = 3 if last else 2
        frame = by_number.get(number)
        marks = list(frame.marks) if frame else []
        if not last and marks == ["X"]:
            marks = ["", "X"]
        marks += [""] * (boxes - len(marks))
        marks_row.append(" " + "│".join(f"{m:1}" for m in marks) + " ")
        width = 2 * boxes + 1
        total = "" if frame is None or frame.total is None else str(frame.total)
        if number == current and not total:
            total = "·"
        totals_row.append(f"{total:>{width - 1}} ")
    return marks_row, totals_row


def render_sheets(
    names: Sequence[str],
    sheets: Sequence[Scoresheet],
    frames: int = 10,
    current: Sequence[int | None] | None = None,
) -> str:
    """Paper-style sheets, one block per player, sharing a header of frame numbers.

    Names are printed literally, control characters spelled out (`usertext.visible`).
    """
    names = [visible(n) for n in names]
    name_width = max([len(n) for n in names] + [6])
    widths = [7 if n == frames else 5 for n in range(1, frames + 1)]
    header = " " * (name_width + 1) + "".join(f"{n:^{w}} " for n, w in zip(range(1, frames + 1), widths, strict=True))
    top = " " * name_width + " ┌" + "┬".join("─" * w for w in widths) + "┬───────┐"
    mid = " " * name_width + " ├" + "┼".join("─" * w for w in widths) + "┼───────┤"
    bottom = " " * name_width + " └" + "┴".join("─" * w for w in widths) + "┴───────┘"
    lines = [header.rstrip() + "   total", top]
    for index, (name, sheet) in enumerate(zip(names, sheets, strict=True)):
        cur = current[index] if current else None
        marks_row, totals_row = _cells(sheet, frames, cur)
        total = f"{sheet.total:>6} "
        lines.append(f"{name:<{name_width}} │" + "│".join(marks_row) + "│       │")
        lines.append(" " * name_width + " │" + "│".join(totals_row) + f"│{total}│")
        lines.append(mid if index < len(names) - 1 else bottom)
    return "\n".join(lines)
