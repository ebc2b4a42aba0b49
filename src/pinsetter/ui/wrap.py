"""Line wrapping that Japanese reads well in (kinsoku shori): no line starts with `。` or `」`.

A terminal's own wrapping (Rich's, Textual's) breaks text only at spaces, and folds a longer run
at whatever character reaches the edge: Japanese has no spaces, so a line could start with the
`。` or `、` that closes the sentence before it. Here a line may break after a space or next to a
wide (CJK) character, never before closing punctuation nor after an opening bracket; the text is
wrapped before it is shown, at the width it is shown in.
"""

from __future__ import annotations

import itertools

from rich.cells import cell_len
from rich.text import Text

__all__ = ["NO_LINE_END", "NO_LINE_START", "wrap_lines", "wrap_offsets", "wrap_text"]

# Closing punctuation and brackets (full-width and ASCII): never the first character of a line.
NO_LINE_START = frozenset("、。，．・：；？！）」』】〕〉》］｝〙〗,.:;?!)]}")  # noqa: RUF001
# Opening brackets: never the last character of a line.
NO_LINE_END = frozenset("（「『【〔〈《［｛〘〖([{")  # noqa: RUF001


def _may_break_before(text: str, index: int) -> bool:
    """Whether a line may start at `index`: after a space, or next to a wide character; kinsoku rules first."""
    before, char = text[index - 1], text[index]
    if char.isspace() or char in NO_LINE_START or before in NO_LINE_END:
        return False
    return before.isspace() or cell_len(before) > 1 or cell_len(char) > 1


def _forced_break(text: str, start: int, index: int) -> int:
    """Where to fold a run with no break allowed that is too long for a line: at `index` (the character
    that does not fit) or, not to start a line with closing punctuation, a character or more earlier."""
    for candidate in range(index, start, -1):
        if text[candidate] not in NO_LINE_START and text[candidate - 1] not in NO_LINE_END:
            return candidate
    return index  # nothing but punctuation: fold where it does not fit


def wrap_offsets(text: str, width: int) -> list[int]:
    """The indices at which one paragraph (no newline) starts a new line to fit `width` cells.

    Spaces at the end of a line may pass the edge (they are dropped when shown).
    """
    breaks: list[int] = []
    if width <= 0:
        return breaks
    start, used, last_ok = 0, 0, 0  # the line's first index, its cells so far, its latest allowed break
    index = 0
    while index < len(text):
        char = text[index]
        if index > start and _may_break_before(text, index):
            last_ok = index
        cells = cell_len(char)
        if char.isspace() or used + cells <= width or index == start:
            used += cells
            index += 1
            continue
        cut = last_ok if last_ok > start else _forced_break(text, start, index)
        breaks.append(cut)
        start, used, last_ok = cut, 0, 0
        index = cut  # lay the characters from the cut on again, on the new line
    return breaks


def wrap_lines(text: str, width: int) -> list[str]:
    """`text` as the lines it is shown in at `width` cells (its own newlines kept, end spaces dropped)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        cuts = [0, *wrap_offsets(paragraph, width), len(paragraph)]
        lines += [paragraph[a:b].rstrip() for a, b in itertools.pairwise(cuts)]
    return lines


def wrap_text(text: Text, width: int, hang: bool = False) -> Text:
    """A styled `Text` wrapped as `wrap_lines` does, its styles kept: show it and nothing wraps again.

    `hang`: each line goes on two cells in from where its words start (after an indent, or a mark
    and a space: `  Cross out 6`, `▸ Miss`), so that a list of options reads as a list.
    """
    lines: list[Text] = []
    for paragraph in text.split("\n", allow_blank=True):
        indent = _hanging_indent(paragraph.plain) if hang else 0
        cuts = wrap_offsets(paragraph.plain, width)
        pieces: list[Text]
        if not cuts or not 0 < indent <= width // 2:
            pieces = list(paragraph.divide(cuts))
        else:
            head, rest = paragraph.divide(cuts[:1])
            pieces = [head] + [
                Text(" " * indent) + piece for piece in rest.divide(wrap_offsets(rest.plain, width - indent))
            ]
        for line in pieces:
            line.rstrip()
            lines.append(line)
    return Text("\n").join(lines)


def _hanging_indent(line: str) -> int:
    """The cells a wrapped line goes on at: two past where its words start (after its indent, or a mark
    and a space), so that where one item ends and the next begins shows at a glance."""
    spaces = len(line) - len(line.lstrip(" "))
    if not spaces and len(line) > 2 and line[1] == " " and not line[0].isalnum() and cell_len(line[0]) == 1:
        spaces = 2  # `▸ Miss`: the words start after the mark
    return spaces + 2
