"""The rules for players as every interface shows them: a tiny text format, read in one place.

A game's rules are translated text in a light format, so that a translation keeps its own order
and phrasing while the terminal, the web page and `pinsetter rules` still draw headings and lists:

- a line starting with `# ` is a heading;
- a line starting with `- ` starts a list item; the lines indented under it continue the item;
- a blank line ends a paragraph or a list; any other line is paragraph text.

The lines of a paragraph or an item are joined with a space, or with nothing between two wide
(CJK) characters, so a translator may break lines anywhere. Nothing else is markup: the web builds
its elements from the blocks with text nodes only, and a `*` or `<` is just a character.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from pinsetter.i18n import N_

__all__ = ["BULLET", "FRAMES_OPTION_RULE", "SCORING_RULES", "RulesBlock", "parse_rules", "plain_rules", "rules_lines"]

HEADING = "# "
ITEM = "- "
BULLET = "• "  # how plain text shows a list item

# The scoring every game shares (RULES.md section 0), placed in a game's rules as `{scoring}`.
SCORING_RULES = N_("""\
# Scoring
Frames are scored as in ten-pin bowling:
- A frame without a strike or a spare scores the pins knocked down in it.
- A spare (/) scores 10 plus the pins of the next ball.
- A strike (X) scores 10 plus the pins of the next two balls.
A frame's score is known once the balls it counts have been played. Twelve
strikes in a row make a perfect game of 300.""")

# The game length every game offers, placed in a game's option list as `{frames_option}`.
FRAMES_OPTION_RULE = N_('- "{frames}": a shorter game of 1 to 10 frames; its last frame is played like the 10th.')


@dataclass(frozen=True)
class RulesBlock:
    """One block of the rules: a heading, a paragraph (`text`), or a list (`items`)."""

    kind: Literal["heading", "paragraph", "list"]
    text: str = ""
    items: tuple[str, ...] = ()


def _wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in {"W", "F"}


def _join(lines: Iterable[str]) -> str:
    """Lines of one paragraph as one line: a space between words, nothing between two wide characters."""
    text = ""
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if text and not (_wide(text[-1]) and _wide(line[0])):
            text += " "
        text += line
    return text


def parse_rules(text: str) -> tuple[RulesBlock, ...]:
    """The blocks of a rules text in the format above (the one reader every interface uses)."""
    blocks: list[RulesBlock] = []
    paragraph: list[str] = []
    items: list[list[str]] = []

    def close() -> None:
        if paragraph:
            blocks.append(RulesBlock("paragraph", text=_join(paragraph)))
            paragraph.clear()
        if items:
            blocks.append(RulesBlock("list", items=tuple(_join(item) for item in items)))
            items.clear()

    for line in text.splitlines():
        if not line.strip():
            close()
        elif line.startswith(HEADING):
            close()
            blocks.append(RulesBlock("heading", text=line[len(HEADING) :].strip()))
        elif line.startswith(ITEM):
            if paragraph:
                close()
            items.append([line[len(ITEM) :]])
        elif items and line[:1].isspace():
            items[-1].append(line)
        else:
            if items:
                close()
            paragraph.append(line)
    close()
    return tuple(blocks)


Line = tuple[Literal["heading", "text", "item", "blank"], str]


def rules_lines(blocks: Sequence[RulesBlock]) -> list[Line]:
    """The blocks as unwrapped lines with their role, spaced the one way every text interface shows them.

    A heading stands right above what it heads, a paragraph that ends in a colon right above its list;
    other blocks are parted by a blank line.
    """
    lines: list[Line] = []
    for index, block in enumerate(blocks):
        before = blocks[index - 1] if index else None
        joined = before is not None and (
            before.kind == "heading" or (block.kind == "list" and before.text.endswith((":", "：")))  # noqa: RUF001
        )
        if before is not None and not joined:
            lines.append(("blank", ""))
        if block.kind == "list":
            lines += [("item", item) for item in block.items]
        else:
            lines.append(("heading" if block.kind == "heading" else "text", block.text))
    return lines


def plain_rules(blocks: Sequence[RulesBlock]) -> str:
    """The rules as plain text, one line per paragraph or item (the web API's `rules`, for any client)."""
    return "\n".join(BULLET + text if role == "item" else text for role, text in rules_lines(blocks)) + "\n"
