"""The full-screen interface in Japanese (issue 16): golden screens at 80x24 and 120x40, wide text aligned.

Rolling Pins in the advanced game (the seed's game, with the ability track) at a
seeded position, shown with `GameScreen` as tests/test_tui_sizes.py does, the
language set to Japanese for the app's context. The screen's text is rebuilt
from Textual's SVG screenshot by terminal cells (a kanji takes two), so the
goldens show the columns as a terminal does; UPDATE_GOLDEN=1 rewrites them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest
from rich.cells import cell_len

from pinsetter.i18n import DEFAULT_LANGUAGE, set_language
from pinsetter.ui.tui import PinsetterApp
from test_tui import check_golden
from test_tui_sizes import open_game, seeded_match

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
CELL = 12.2  # the SVG screenshot's width of one terminal cell


@pytest.fixture(autouse=True)
def japanese() -> Iterator[None]:
    set_language("ja")
    yield
    set_language(DEFAULT_LANGUAGE)


def screen_cells(app: PinsetterApp) -> str:
    """The characters on screen, line by line, each text placed at its terminal cell (wide characters: two)."""
    svg = app.export_screenshot()
    rows: dict[float, list[tuple[float, str]]] = {}
    for m in re.finditer(r'<text([^>]*?)x="([\d.]+)"[^>]*?y="([\d.]+)"[^>]*>(.*?)</text>', svg, re.S):
        if "-title" in m.group(1):
            continue
        content = html.unescape(re.sub(r"<[^>]+>", "", m.group(4))).replace("\xa0", " ")
        rows.setdefault(float(m.group(3)), []).append((float(m.group(2)), content))
    lines = []
    for y in sorted(rows):
        line = ""
        for x, content in sorted(rows[y]):
            line += " " * max(0, round(x / CELL) - cell_len(line)) + content
        lines.append(line.rstrip())
    return "\n".join(lines)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_rolling_pins_in_japanese(size: tuple[int, int]) -> None:
    width, height = size
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=size) as pilot:
        await open_game(app, pilot, seeded_match("rolling-pins"))
        text = screen_cells(app)
        check_golden(f"rolling-pins-ja-{width}x{height}", text, app.export_screenshot())
    lines = text.split("\n")
    assert len(lines) <= height and max(cell_len(line) for line in lines) <= width
    for words in ("出目", "リロール", "フリップ", "追加ダイス", "テンピン"):  # the dice and the ability track
        assert words in text, words
    assert "dice 1" in text or "cross" in text or "mark" in text  # actions keep their notation
    assert sum(bool(JAPANESE.search(line)) for line in lines) >= 5
