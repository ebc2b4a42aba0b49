"""A game's rules in a terminal (`pinsetter rules`, the `?` window): wrapped to the width they are shown at.

The blocks come from `core.rules_text` (the one reader of the rules format); lines break as
`ui.wrap` breaks them, so Japanese never starts a line with `。`. List items hang under their bullet.
No Textual here: `pinsetter rules` stays a light command.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from pinsetter.core.rules_text import BULLET, parse_rules, rules_lines
from pinsetter.ui.wrap import wrap_lines

__all__ = ["rules_rich", "wrapped_rules"]

ITEM_START = "  " + BULLET
ITEM_MORE = " " * cell_len(ITEM_START)
NARROWEST = 20  # below this a terminal shows nothing readable anyway: wrap as if it were this wide


def wrapped_rules(rules: str, width: int) -> list[tuple[str, bool]]:
    """`rules` (a game's `rules()` text) as lines of at most `width` cells, each with whether it is a heading."""
    width = max(width, NARROWEST)
    lines: list[tuple[str, bool]] = []
    for role, text in rules_lines(parse_rules(rules)):
        if role == "item":
            parts = wrap_lines(text, width - cell_len(ITEM_START))
            lines += [((ITEM_MORE if i else ITEM_START) + part, False) for i, part in enumerate(parts)]
        else:
            lines += [(part, role == "heading") for part in wrap_lines(text, width)]
    return lines


def rules_rich(rules: str, width: int) -> Text:
    """The wrapped rules as one styled text: headings bold (what the terminal's rules window shows)."""
    lines = [Text(line, style="bold" if heading else "") for line, heading in wrapped_rules(rules, width)]
    return Text("\n").join(lines)
