"""Rules for players (issue 24 item 5): every game's rules, in both languages and in every interface,
speak the players' words: no command syntax, no option keys, no game ids, and a structure each
interface draws (headings, paragraphs, lists) read by one function, `core.rules_text.parse_rules`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from rich.cells import cell_len
from textual.widgets import Static

from pinsetter.cli.app import main
from pinsetter.core.rules_text import RulesBlock, parse_rules, plain_rules
from pinsetter.games.registry import GAMES, game_class, get_game
from pinsetter.games.rolling_pins import DEFAULT_SHEET, RollingPins
from pinsetter.i18n import DEFAULT_LANGUAGE, set_language
from pinsetter.ui.rules_view import wrapped_rules
from pinsetter.ui.tui import PinsetterApp
from pinsetter.ui.tui_game import HelpScreen
from pinsetter.ui.wrap import NO_LINE_START
from test_tui_sizes import open_game, seeded_match
from tui_support import quiet, until

game_class("tenpins")  # the registry filled
GAME_IDS = sorted(GAMES)
LANGS = ("en", "ja")

# What a player must never read in the rules: command-line flags, option keys and values, the
# action notation of `pinsetter play`, bot kinds, game ids, and placeholders left unfilled.
NOT_FOR_PLAYERS = {
    "a command-line flag": r"--\w",
    "key=value": r"\w+=\w",
    "cross N": r"\bcross \d",
    "dice N": r"\bdice \d",
    "N:N": r"\d:\d",
    "tokens +N": r"tokens [+-]\d",
    "mark N": r"\bmark \d",
    "bot:": r"bot:",
    "a game id": r"\btenpins\b|bowling-dice|rolling-pins|bowling-solitaire",
    "a placeholder": r"[{}]",
}


def technical(text: str) -> list[str]:
    """What in `text` is not for players: the kinds found, with the text found."""
    found = []
    for kind, pattern in NOT_FOR_PLAYERS.items():
        hit = re.search(pattern, text)
        if hit:
            found.append(f"{kind}: {text[max(hit.start() - 30, 0) : hit.end() + 30]!r}")
    return found


def check_players_words(text: str, lang: str) -> None:
    assert not technical(text), technical(text)
    if lang == "ja":
        assert "(" not in text and ")" not in text, "ASCII parentheses in Japanese: use （） or rephrase"  # noqa: RUF001


@pytest.fixture
def language() -> Iterator[None]:
    yield
    set_language(DEFAULT_LANGUAGE)


def blocks_of(game_id: str, lang: str) -> tuple[RulesBlock, ...]:
    set_language(lang)
    try:
        return parse_rules(get_game(game_id).rules())
    finally:
        set_language(DEFAULT_LANGUAGE)


# --- the format ---------------------------------------------------------------------------------


def test_the_format_has_headings_paragraphs_and_lists() -> None:
    text = (
        "An opening paragraph\non two lines.\n\n# A heading\nText right under it:\n- one item\n"
        "  that goes on\n- two\nA paragraph after the list.\n\n\n# Last\n- <b>not markup</b> *nor this*\n"
    )
    assert parse_rules(text) == (
        RulesBlock("paragraph", text="An opening paragraph on two lines."),
        RulesBlock("heading", text="A heading"),
        RulesBlock("paragraph", text="Text right under it:"),
        RulesBlock("list", items=("one item that goes on", "two")),
        RulesBlock("paragraph", text="A paragraph after the list."),
        RulesBlock("heading", text="Last"),
        RulesBlock("list", items=("<b>not markup</b> *nor this*",)),
    )
    assert plain_rules(parse_rules(text)) == (
        "An opening paragraph on two lines.\n\nA heading\nText right under it:\n• one item that goes on\n• two\n\n"
        "A paragraph after the list.\n\nLast\n• <b>not markup</b> *nor this*\n"
    )


def test_japanese_lines_join_without_a_space_and_mixed_lines_with_one() -> None:
    (block,) = parse_rules("サイコロを振って\nピンを消します。\nDice と\nピン")
    assert block.text == "サイコロを振ってピンを消します。 Dice とピン"


def test_terminal_lines_fit_hang_under_their_bullet_and_keep_kinsoku() -> None:
    set_language("ja")
    try:
        rules = get_game("rolling-pins").rules()
    finally:
        set_language(DEFAULT_LANGUAGE)
    for width in (30, 57, 79):
        lines = wrapped_rules(rules, width)
        assert all(cell_len(line) <= width for line, _heading in lines)
        assert not [line for line, _heading in lines if line.strip()[:1] in NO_LINE_START]
        assert any(line.startswith("  • ") for line, _heading in lines)
        assert any(line.startswith("    ") and line.strip() for line, _heading in lines)  # an item's second line
        assert [line for line, heading in lines if heading][:2] == ["用意するもの", "フレームの進め方"]
        text = "".join(line.strip().removeprefix("• ") for line, _heading in lines)
        assert "".join(plain_rules(parse_rules(rules)).split()).replace("•", "") == "".join(text.split())


# --- the rules themselves, each game in each language ----------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_rules_speak_players_words(game_id: str, lang: str) -> None:
    blocks = blocks_of(game_id, lang)
    kinds = [block.kind for block in blocks]
    assert kinds[0] == "paragraph" and kinds.count("heading") >= 5 and "list" in kinds
    for block in blocks:
        for text in block.items if block.kind == "list" else (block.text,):
            check_players_words(text, lang)
            assert text.strip() == text and text, block
    headings = [block.text for block in blocks if block.kind == "heading"]
    assert len(set(headings)) == len(headings)
    words = {"en": ("Scoring", "strike", "spare", "10th frame"), "ja": ("得点", "ストライク", "スペア", "第10フレーム")}
    plain = plain_rules(blocks)
    assert all(word in plain for word in words[lang]), plain


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_option_is_named_as_the_lobby_names_it(game_id: str, lang: str) -> None:
    set_language(lang)
    try:
        game = get_game(game_id)
        rules = game.rules()
        labels = [spec.title for spec in game.option_specs]
    finally:
        set_language(DEFAULT_LANGUAGE)
    quote = '"{}"' if lang == "en" else "「{}」"
    assert [label for label in labels if quote.format(label) not in rules] == []


def test_rolling_pins_ranks_are_read_off_its_ranking() -> None:
    assert RollingPins.rank_lines() == [
        "- 99 or less: Pinhead",
        "- 100 to 134: Beginner",
        "- 135 to 169: Intermediate",
        "- 170 to 199: Advanced",
        "- 200 or more: Master",
    ]
    assert "• 170 to 199: Advanced" in plain_rules(parse_rules(get_game("rolling-pins").rules()))


def test_rolling_pins_rules_show_the_track_of_the_sheet_played() -> None:
    sheet = DEFAULT_SHEET.to_json()
    sheet["areas"][0], sheet["areas"][4] = sheet["areas"][4], sheet["areas"][0]  # Ten Pin first, Reroll last
    rules = get_game("rolling-pins", {"advanced": "true", "sheet": json.dumps(sheet)}).rules()
    track = rules[rules.index("# The ability track") :]
    assert track.index("- Ten Pin: 3 boxes") < track.index("- Flip: 2 boxes") < track.index("- Reroll: 1 box")
    default = get_game("rolling-pins").rules()
    assert default.index("- Reroll: 1 box") < default.index("- Ten Pin: 3 boxes")


# --- the interfaces ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_pinsetter_rules_prints_them(
    game_id: str, lang: str, capsys: pytest.CaptureFixture[str], language: None
) -> None:
    assert main(["--lang", lang, "rules", game_id]) == 0
    out = capsys.readouterr().out
    check_players_words(out, lang)
    blocks = blocks_of(game_id, lang)
    lines = out.split("\n")
    for heading in (block.text for block in blocks if block.kind == "heading"):
        assert heading in lines  # a line of its own
    assert out.count("  • ") == sum(len(block.items) for block in blocks)
    assert max(cell_len(line) for line in lines) <= 79


def test_how_to_type_moves_stays_in_the_command_line_help(capsys: pytest.CaptureFixture[str], language: None) -> None:
    assert main(["play", "--help"]) == 0
    help_text = capsys.readouterr().out
    for notation in ("`dice 1`", "`cross 2+5`", "`cross 4+6 tokens +3`", "`mark N`", "`3:4+5+8`", "advanced=true"):
        assert notation in help_text, notation
    assert main(["rules", "--help"]) == 0
    assert "pinsetter play --help" in capsys.readouterr().out


@pytest.mark.parametrize("lang", LANGS)
def test_the_web_api_sends_plain_text_and_blocks(client: TestClient, lang: str) -> None:
    for game_id in GAME_IDS:
        answer = client.get(f"/api/rules/{game_id}", headers={"cookie": f"pinsetter_lang={lang}"})
        assert answer.status_code == 200
        body = answer.json()
        blocks = blocks_of(game_id, lang)
        assert body["game"] == game_id and body["rules"] == plain_rules(blocks)  # `rules` as before: text
        assert body["blocks"] == [{"kind": b.kind, "text": b.text, "items": list(b.items)} for b in blocks]
        check_players_words(body["rules"], lang)
        check_players_words(body["name"], lang)


@pytest.mark.parametrize("lang", LANGS)
async def test_the_terminals_rules_window(lang: str, language: None) -> None:
    """`?` in a game of each kind opens the rules of that game, wrapped at the window's width; the keys
    below them say what can be typed, and nothing in the window is command syntax."""
    set_language(lang)
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(100, 40)) as pilot:
        for game_id in GAME_IDS:
            screen = await open_game(app, pilot, seeded_match(game_id))
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the rules window")
            await quiet(pilot)
            shown = app.screen.query_one("#rules-text", Static).render().plain  # type: ignore[union-attr]
            blocks = parse_rules(screen.match.game.rules())
            assert shown.startswith(blocks[0].text[:12])
            assert all(block.text in shown for block in blocks if block.kind == "heading")
            window = "\n".join(
                widget.render().plain  # type: ignore[union-attr]
                for widget in app.screen.query(Static)
            )
            check_players_words(window, lang)
            width = app.screen.query_one("#rules-text", Static).content_region.width
            assert max(cell_len(line) for line in shown.split("\n")) <= width
            await pilot.press("escape")
            await quiet(pilot)
            app.pop_screen()
            await quiet(pilot)
