"""Kinsoku wrapping: Japanese lines never start with closing punctuation, and no character is lost."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from rich.text import Text

from pinsetter.ui.wrap import NO_LINE_END, NO_LINE_START, wrap_lines, wrap_text

JAPANESE = "2球目は残ったピンを狙います。すべて倒せばスペア（/）です。「レーン外」は、0本です。"  # noqa: RUF001


@pytest.mark.parametrize("width", range(5, 40))  # noqa: RUF003 - `（/）`, five cells, cannot break
def test_japanese_wraps_by_the_rules_and_keeps_every_character(width: int) -> None:
    lines = wrap_lines(JAPANESE, width)
    assert "".join(lines) == JAPANESE
    assert all(cell_len(line) <= width for line in lines), lines
    assert not [line for line in lines[1:] if line[0] in NO_LINE_START], lines
    assert not [line for line in lines[:-1] if line[-1] in NO_LINE_END], lines


def test_the_closing_mark_goes_down_with_the_character_before_it() -> None:
    """Where the edge falls just before `。`, the last character moves to the next line with it."""
    assert wrap_lines("ます。すべて", 4) == ["ま", "す。", "すべ", "て"]
    assert wrap_lines("あいう、えお", 6) == ["あい", "う、え", "お"]


def test_english_breaks_at_spaces_and_folds_only_a_word_too_long() -> None:
    assert wrap_lines("roll the dice (space)", 10) == ["roll the", "dice", "(space)"]
    assert wrap_lines("abcdefghij", 4) == ["abcd", "efgh", "ij"]
    assert wrap_lines("a\n\nb", 5) == ["a", "", "b"]
    assert wrap_lines("。。。。。", 2) == ["。", "。", "。", "。", "。"]  # only punctuation: folded anyway


def test_styles_are_kept_through_the_wrap() -> None:
    text = Text("見出し\n", style="bold")
    text.append("ピンを狙います。", style="dim")
    wrapped = wrap_text(text, 14)
    assert wrapped.plain == "見出し\nピンを狙いま\nす。"  # not `。` alone on the last line
    assert {str(span.style) for span in wrapped.spans} >= {"bold", "dim"}
