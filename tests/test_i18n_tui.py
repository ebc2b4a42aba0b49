"""The full-screen interface in Japanese (issue 16): golden screens at 80x24 and 120x40, wide text aligned.

Rolling Pins in the advanced game (the seed's game, with the ability track) at a
seeded position, shown with `GameScreen` as tests/test_tui_sizes.py does, the
language set to Japanese for the app's context. The screen's text is rebuilt
from Textual's SVG screenshot by terminal cells (a kanji takes two), so the
goldens show the columns as a terminal does; UPDATE_GOLDEN=1 rewrites them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.cells import cell_len
from textual.geometry import Region
from textual.widgets import OptionList

from pinsetter.i18n import DEFAULT_LANGUAGE, set_language
from pinsetter.records import PlayerSpec, player_name
from pinsetter.session import Match
from pinsetter.ui.tui import PinsetterApp
from pinsetter.ui.tui_common import replay_lines
from pinsetter.ui.tui_game import GameScreen
from pinsetter.ui.tui_launcher import Launcher
from pinsetter.ui.tui_learn import LearnScreen
from pinsetter.ui.wrap import NO_LINE_START
from test_tui import screen_text
from test_tui_sizes import open_game, seeded_match
from tui_support import quiet

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.fixture(autouse=True)
def japanese() -> Iterator[None]:
    set_language("ja")
    yield
    set_language(DEFAULT_LANGUAGE)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_rolling_pins_in_japanese(size: tuple[int, int]) -> None:
    width, height = size
    app = PinsetterApp(storage=None, speed=0)
    match = seeded_match("rolling-pins")
    async with app.run_test(size=size) as pilot:
        screen = await open_game(app, pilot, match)
        text = screen_text(app)  # its golden screen: tests/test_tui_goldens.py
        listed = [str(option.prompt) for option in screen.query_one("#actions", OptionList).options]
    lines = text.split("\n")
    assert len(lines) <= height and max(cell_len(line) for line in lines) <= width
    # The dice and the ability track, every ability's title whole (not "エクストラ…").
    for words in ("出目", "リロール", "フリップ", "追加ダイス", "テンピン", "エクストラピン", "オートストライク"):
        assert words in text, words
    # The actions in Japanese words alone: their notation (`cross 5`, `miss`) only where the player types.
    legal = [str(action) for action in match.state.legal_actions()]
    assert listed and all(JAPANESE.search(label) for label in listed), listed
    assert not any(action in text for action in legal if " " in action), legal
    assert sum(bool(JAPANESE.search(line)) for line in lines) >= 5


async def test_the_lesson_never_starts_a_line_with_closing_punctuation() -> None:
    """Kinsoku: `。`, `、` or `」` stay at the end of the line they close, at every width and after a resize;
    the wrap drops no character (at these widths Textual's own wrap started lines with them)."""
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = LearnScreen(Match.new("tenpins", [PlayerSpec(player_name(1))], seed=7), speed=0)
        app.push_screen(screen)
        for width in (120, 82, 85, 88, 94):
            await pilot.resize_terminal(width, 40)
            await quiet(pilot)  # the resize laid out, the lesson wrapped
            panel = screen.query_one("#lesson-text")
            lines = [strip.text.rstrip() for strip in panel.render_lines(Region(0, 0, *panel.size))]
            assert [line for line in lines if line[:1] in NO_LINE_START] == [], width
            assert "".join(lines).replace(" ", "") == screen.lesson_now.plain.replace("\n", "").replace(" ", "")


def footer_words(screen: Any) -> set[str]:
    return {binding.description for _key, binding in screen._bindings if binding.description}


def test_footer_keys_speak_the_language_chosen_before_each_screen() -> None:
    """Bindings are translated when a screen is built, not at import: a later language applies."""
    from pinsetter.ui.tui_history import HistoryScreen, StatsScreen

    match = seeded_match("rolling-pins")
    japanese = footer_words(GameScreen(match)) | footer_words(HistoryScreen(None)) | footer_words(Launcher())
    assert {"進める", "ヒント", "終了", "戻る", "統計", "プレイ", "履歴"} <= japanese
    set_language("en")
    english = footer_words(GameScreen(match)) | footer_words(StatsScreen(None)) | footer_words(Launcher())
    assert {"Roll/step", "Hint", "Quit", "Back", "Play", "History"} <= english
    assert not JAPANESE.search(" ".join(english))


def test_solitaire_deal_is_one_sentence_in_either_language() -> None:
    """The card and the place it was dealt to read as one Japanese sentence, not English word order."""
    match = Match.new("bowling-solitaire", [PlayerSpec("Ann")], seed=7)
    for _ in range(13):  # the ten pins and the three piles
        match.apply(match.draw_chance())
    _states, lines = replay_lines(match.game, match.players, match.record.steps)
    assert re.fullmatch(r"Annの配札：\d+（ピン 1 の位置）", lines[0]), lines[0]  # noqa: RUF001
    assert re.fullmatch(r"Annの配札：\d+（山札 3）", lines[12]), lines[12]  # noqa: RUF001
    set_language("en")
    _states, lines = replay_lines(match.game, match.players, match.record.steps)
    assert re.fullmatch(r"Ann's deal: an? \d+ for pin 1", lines[0]), lines[0]


def test_end_of_game_ranking_and_comparison_in_japanese() -> None:
    """Each ranked line is one pattern (name, score, solo rank) and the reference player is named in Japanese."""
    match = Match.new("rolling-pins", [PlayerSpec("ann", "random"), PlayerSpec("bob", "random")], seed=3)
    while not match.state.is_terminal():
        match.apply(match.draw_chance() if match.state.is_chance_node() else match.bot_action())
    lines = match.ending_lines()
    ranks = ("ピンヘッド", "初級", "中級", "上級", "マスター")
    ranked_line = re.compile(r"\d\. (ann|bob): \d+（(" + "|".join(ranks) + r")）")  # noqa: RUF001
    ranked = [line for line in lines if ranked_line.fullmatch(line)]
    assert len(ranked) == 2, lines
    assert any(line.startswith("比較: 最適なプレイヤーの平均は ") for line in lines), lines
    assert not any(re.search(r"optimal|player\b|[()]", line) for line in lines), lines
