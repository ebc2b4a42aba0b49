"""English and Japanese everywhere (issue 16): the catalogs, the choice of language, the CLI and the web API.

The catalog tests read the committed files: every message of the template has a
Japanese translation that is neither missing nor fuzzy and keeps the same
placeholders; the template holds what the sources mark (extraction rerun in
memory); the compiled .mo says what the .po says.
"""

from __future__ import annotations

import gettext
import io
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from pinsetter.cli.app import language_from_args
from pinsetter.i18n import (
    DEFAULT_LANGUAGE,
    LOCALE_DIR,
    _,
    choose_language,
    current_language,
    negotiate,
    set_language,
    translations_json,
    using_language,
)
from test_fuzz_corpus import COMMAND_LINES, _output_cases, assert_one_line_error, run_cli

ROOT = Path(__file__).resolve().parent.parent
PO = LOCALE_DIR / "ja" / "LC_MESSAGES" / "pinsetter.po"
MO = LOCALE_DIR / "ja" / "LC_MESSAGES" / "pinsetter.mo"
POT = LOCALE_DIR / "messages.pot"
JAPANESE = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")  # punctuation, kana, kanji, full-width forms
ENGLISH_PHRASE = re.compile(r"\b[A-Za-z]{2,} [a-z]{2,} [a-z]{2,}\b")  # "is not legal": text left in English


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """`main` chooses the language of this context: leave it English for the next test."""
    yield
    set_language(DEFAULT_LANGUAGE)


def _read(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale="ja" if path.suffix == ".po" else None)


def _ids(message: Message) -> tuple[str, ...]:
    return message.id if isinstance(message.id, tuple) else (message.id,)


def _strings(message: Message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


def placeholders(text: str, brace: bool) -> set[str]:
    """`{name}`/`{name!r}` fields of a brace-format text, `%(name)s`/`%d` of a %-format one."""
    if brace:
        return {f"{name}!{conversion}" if conversion else name
                for _lit, name, _spec, conversion in string.Formatter().parse(text) if name is not None}  # fmt: skip
    return set(re.findall(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrs%]", text))


def test_every_message_has_a_japanese_translation_with_the_same_placeholders() -> None:
    catalog = _read(PO)
    assert not catalog.fuzzy, "the catalog header is marked fuzzy: pybabel compile would skip it"
    assert catalog.plural_forms.startswith("nplurals=1")
    problems = []
    count = 0
    for message in catalog:
        if not message.id:
            continue
        count += 1
        ids, strings = _ids(message), _strings(message)
        shown = ids[0][:60]
        if message.fuzzy:
            problems.append(f"fuzzy: {shown!r}")
        if not all(s.strip() for s in strings):
            problems.append(f"missing: {shown!r}")
            continue
        brace = "python-brace-format" in message.flags or not any("%" in i for i in ids)
        wanted = set().union(*(placeholders(i, brace) for i in ids))
        for text in strings:
            if placeholders(text, brace) != wanted:
                problems.append(f"placeholders differ: {shown!r}: {sorted(wanted)} vs {text!r}")
        if any(ENGLISH_PHRASE.search(re.sub(r"\{[^}]*\}|`[^`]*`", "", s)) for s in strings):
            problems.append(f"English left in the translation: {shown!r}")
    assert not problems, "\n".join(problems)
    assert count >= 500


def test_the_catalogs_hold_exactly_the_marked_texts() -> None:
    """Extraction rerun in memory (babel.cfg, the Makefile's keywords) gives the template's messages, and the
    Japanese catalog has no message the template lacks (nothing obsolete, nothing left out)."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    keywords = {"_": None, "N_": None, "ngettext": (1, 2), "t": None, "tn": (1, 2)}
    found = {
        message if isinstance(message, str) else message[0]
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=keywords
        )
    }
    template = {_ids(m)[0] for m in _read(POT) if m.id}
    japanese = {_ids(m)[0] for m in _read(PO) if m.id}
    assert found - template == set(), "marked but not in messages.pot: run `make messages-update`"
    assert template - found == set(), "in messages.pot but no longer marked: run `make messages-update`"
    assert japanese == template


def test_the_compiled_catalog_is_up_to_date() -> None:
    """The shipped .mo is what `pybabel compile` makes of the .po today."""
    fresh = io.BytesIO()
    write_mo(fresh, _read(PO))
    fresh.seek(0)
    with MO.open("rb") as handle:
        shipped = gettext.GNUTranslations(handle)
    compiled = gettext.GNUTranslations(fresh)
    assert compiled._catalog == shipped._catalog, "run `make messages-compile`"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("explicit", "environ", "expected"),
    [
        (None, {}, "en"),
        ("ja", {}, "ja"),
        ("JA-jp", {}, "ja"),
        ("fr", {"PINSETTER_LANG": "ja"}, "ja"),  # an unknown --lang falls through to the next source
        ("xx", {}, "en"),
        (None, {"PINSETTER_LANG": "ja"}, "ja"),
        (None, {"PINSETTER_LANG": "en", "LANG": "ja_JP.UTF-8"}, "en"),
        (None, {"LANG": "ja_JP.UTF-8"}, "ja"),
        (None, {"LC_ALL": "ja_JP.eucJP", "LANG": "en_GB.UTF-8"}, "ja"),
        (None, {"LC_ALL": "C", "LANG": "ja_JP.UTF-8"}, "en"),  # the first locale variable set decides
        (None, {"LANG": "de_DE.UTF-8"}, "en"),
        ("en", {"PINSETTER_LANG": "ja"}, "en"),
    ],
)
def test_the_language_is_chosen_from_option_environment_and_locale(
    explicit: str | None, environ: dict[str, str], expected: str
) -> None:
    assert choose_language(explicit, environ) == expected


def test_lang_option_is_read_before_the_command_only() -> None:
    assert language_from_args(["--lang", "ja", "score", "X"]) == "ja"
    assert language_from_args(["--lang=ja", "rules", "tenpins"]) == "ja"
    assert language_from_args(["play", "--lang", "ja"]) is None  # a command's own words are not ours
    assert language_from_args([]) is None


def test_accept_language_negotiation() -> None:
    assert negotiate("ja,en-US;q=0.9,en;q=0.8") == "ja"
    assert negotiate("en-US,en;q=0.9,ja;q=0.8") == "en"
    assert negotiate("fr-FR,ja;q=0.5") == "ja"
    assert negotiate("fr, de") == "en"
    assert negotiate("ja;q=0, en;q=0.1") == "en"
    assert negotiate("") == "en" and negotiate(None) == "en"
    assert negotiate("ja;q=bogus") == "en"


def test_using_language_restores_the_language_before() -> None:
    with using_language("ja"):
        assert current_language() == "ja"
        with using_language("nonsense"):
            assert current_language() == "en"
        assert _("Pinhead") == "ピンヘッド"
    assert current_language() == "en" and _("Pinhead") == "Pinhead"


def test_dice_made_once_per_roll_speak_each_language() -> None:
    """The dice of a roll are kept per roll *and* language: a Japanese view never shows English dice."""
    from pinsetter.games.pure_chance_table import bowling_dice, pip_dice

    with using_language("en"):
        english = pip_dice("5+3"), bowling_dice("X|P-")
    with using_language("ja"):
        japanese = pip_dice("5+3"), bowling_dice("X|P-")
    with using_language("en"):
        assert (pip_dice("5+3"), bowling_dice("X|P-")) == english
    assert [d.label for d in english[0]] == ["die showing 5", "die showing 3"]
    assert [d.label for d in japanese[0]] == ["5 の目のサイコロ", "3 の目のサイコロ"]
    assert english[1][0].label == "strike" and japanese[1][0].label != "strike"


def test_solo_rank_names_are_the_seeds() -> None:
    from pinsetter.games.rolling_pins import RollingPins

    with using_language("ja"):
        ranks = [RollingPins.ranking(s) for s in (99, 100, 135, 170, 200)]
    assert ranks == ["ピンヘッド", "初級", "中級", "上級", "マスター"]


def test_game_notation_stays_the_same_in_japanese() -> None:
    """Records are portable: action texts and marks are data, never translated; the words around them are."""
    from pinsetter.core.scoring import parse_line, score
    from pinsetter.games.registry import get_game

    def play(language: str) -> tuple[list[str], tuple[str, ...], str]:
        with using_language(language):
            state = get_game("rolling-pins").new_state()
            state.apply_text("dice 2")
            state.apply_text("3+4")
            actions = [str(a) for a in state.legal_actions()]
            marks = tuple(score(parse_line("X 7/ 9-")).frames[1].marks)
            return actions, marks, state.describe()

    actions_en, marks_en, words_en = play("en")
    actions_ja, marks_ja, words_ja = play("ja")
    assert actions_ja == actions_en and "cross 3+4" in actions_ja and all(a.isascii() for a in actions_ja)
    assert tuple(marks_ja) == tuple(marks_en) == ("7", "/")
    assert JAPANESE.search(words_ja) and not JAPANESE.search(words_en)


# --- the command line ----------------------------------------------------------------------------
def test_cli_errors_under_lang_ja_keep_exit_codes_and_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fuzz corpus's bad command lines: the same exit status and one line in Japanese as in English."""
    monkeypatch.chdir(tmp_path)
    cases = COMMAND_LINES + _output_cases(tmp_path)
    in_japanese = 0
    for args in cases:
        code_en, _out, _err = run_cli(args, capsys)
        code_ja, _out, err_ja = run_cli(["--lang", "ja", *args], capsys)
        assert code_ja == code_en, f"{args}: exit {code_ja} in Japanese, {code_en} in English"
        assert_one_line_error(["--lang", "ja", *args], code_ja, err_ja)
        in_japanese += bool(JAPANESE.search(err_ja))
    assert in_japanese >= 0.9 * len(cases), f"only {in_japanese} of {len(cases)} errors are in Japanese"


def test_cli_help_and_rules_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run_cli(["--lang", "ja", "--help"], capsys)
    assert code == 0 and "ボウリングを題材にした" in out and "コマンド" in out
    code, out, _err = run_cli(["--lang", "ja", "play", "--help"], capsys)
    assert code == 0 and "ゲームを1行ずつ遊びます" in out and "このメッセージを表示して終了します。" in out
    assert "`cross 2+5`（ピン2と5を消す）" in out  # noqa: RUF001  (typing moves: the command line's help)
    code, out, _err = run_cli(["--lang", "ja", "rules", "rolling-pins"], capsys)
    assert code == 0 and "ローリングピンズ" in out and "ピンヘッド" in out and "cross" not in out


def test_pinsetter_lang_and_locale_choose_japanese(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("PINSETTER_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PINSETTER_LANG", "ja")
    assert run_cli(["rules", "tenpins"], capsys)[1].startswith("テンピンズ")
    monkeypatch.delenv("PINSETTER_LANG")
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert run_cli(["rules", "tenpins"], capsys)[1].startswith("テンピンズ")
    monkeypatch.setenv("LANG", "eo.UTF-8")  # no catalog: English, no error
    code, out, err = run_cli(["rules", "tenpins"], capsys)
    assert code == 0 and out.startswith("Ten Pins (dice)") and not err
    code, out, err = run_cli(["--lang", "klingon", "rules", "tenpins"], capsys)
    assert code == 0 and out.startswith("Ten Pins (dice)") and not err


def test_line_play_columns_align_wide_text() -> None:
    """Actions labelled in Japanese line up by terminal cells (a kanji takes two), not by characters."""
    from rich.cells import cell_len

    from pinsetter.cli.play import columns

    items = ["dice 1 = サイコロを1個振る", "dice 2 = サイコロを 2 個振る", "miss = ミス（この球を終える）", "x = y"]  # noqa: RUF001
    lines = columns(items, width=74).split("\n")
    starts = {line.index(items[1]) if items[1] in line else None for line in lines} - {None}
    assert len(lines) == 2
    first_column = [cell_len(line.split("   ")[0]) for line in lines]
    assert all(cell_len(line) <= 74 for line in lines)
    second = [cell_len(line[: line.index(item)]) for line, item in zip(lines, (items[2], items[3]), strict=True)]
    assert second[0] == second[1], f"second column starts at cells {second}"
    assert first_column and starts


# --- the web app -----------------------------------------------------------------------------------
def test_web_errors_speak_the_requests_language(client: TestClient) -> None:
    game = client.post("/api/games", json={"game": "rolling-pins", "players": [{"name": "ann", "kind": "human"}]})
    game_id = game.json()["id"]
    client.post(f"/api/games/{game_id}/advance", json={"until": "step"})
    ja = {"accept-language": "ja,en;q=0.5"}
    refused = client.post(f"/api/games/{game_id}/actions", json={"action": "cross 1+2+3+4+5+6+7+8+9+10"}, headers=ja)
    assert refused.status_code in (409, 422)
    assert JAPANESE.search(refused.json()["error"]), refused.json()
    english = client.post(f"/api/games/{game_id}/actions", json={"action": "cross 1+2+3+4+5+6+7+8+9+10"})
    assert english.status_code == refused.status_code and not JAPANESE.search(english.json()["error"])
    assert client.get("/api/games/999999", headers=ja).json() == {"error": "ゲーム 999999 はありません"}
    unknown = client.get("/api/rules/chess", headers={"accept-language": "fr"})
    assert unknown.status_code == 404 and unknown.json()["error"].startswith("unknown game")
    view = client.get(f"/api/games/{game_id}", headers=ja).json()
    assert view["title"] == "ローリングピンズ" and JAPANESE.search(view["view"]["status"])
    assert [entry["text"] for entry in view["log"]] == [
        entry["text"] for entry in client.get(f"/api/games/{game_id}").json()["log"]
    ]  # the log's notation is the same in every language


def test_web_catalog_for_the_page(client: TestClient) -> None:
    answer = client.get("/api/i18n/ja").json()
    assert answer["language"] == "ja" and answer["languages"] == ["en", "ja"]
    assert answer["messages"]["Start the game"] == "ゲームを始める"
    # Only the texts the page's scripts look up: the server translates the rest of what the page shows.
    everything = translations_json("ja")
    assert answer["messages"] == {key: text for key, text in everything.items() if key in answer["messages"]}
    assert "Download the record" in answer["messages"] and "Undo (U)" in answer["messages"]
    assert len(answer["messages"]) < len(everything) / 2
    assert "the game is over" not in answer["messages"]  # a server's text, translated in its answers
    assert client.get("/api/i18n/auto", headers={"accept-language": "ja-JP"}).json()["language"] == "ja"
    assert client.get("/api/i18n/auto", headers={"accept-language": "de"}).json()["language"] == "en"
    english = client.get("/api/i18n/xx").json()
    assert english["language"] == "en" and english["messages"] == {}
    catalog = client.get("/api/catalog", headers={"accept-language": "ja"}).json()
    assert {g["name"] for g in catalog} >= {"ローリングピンズ", "ボウリング・ソリテア"}
    rules = client.get("/api/rules/tenpins", headers={"cookie": "pinsetter_lang=ja"}).json()
    assert rules["name"] == "テンピンズ（サイコロ）"  # noqa: RUF001


def test_plots_are_labelled_in_japanese(tmp_path: Path) -> None:
    """The distribution plot's labels in Japanese, drawn with a Japanese font when one is installed."""
    import shutil
    import subprocess
    import warnings

    import matplotlib

    from pinsetter.games.registry import get_game
    from pinsetter.solvers.distribution import analyze
    from pinsetter.ui.plots import plot_distribution

    target = tmp_path / "odds.svg"
    with warnings.catch_warnings(record=True) as caught, matplotlib.rc_context({"svg.fonttype": "none"}):
        warnings.simplefilter("always")
        with using_language("ja"):
            plot_distribution(analyze(get_game("tenpins", {"frames": "2"})), target, "テンピンズ")
    svg = target.read_text(encoding="utf-8")
    assert "最終スコア" in svg and "確率" in svg and "平均" in svg
    fonts = (
        subprocess.run(["fc-list", ":lang=ja"], capture_output=True, text=True).stdout
        if shutil.which("fc-list")
        else ""
    )
    if fonts.strip():  # a Japanese font is installed: no glyph may be missing
        assert not [w for w in caught if "missing from" in str(w.message)], [str(w.message) for w in caught]


def test_a_table_speaks_each_connections_language(client: TestClient) -> None:
    """At an online table each connection gets the state in its own language (`?lang=` or the switch's cookie)."""
    from test_web_tables import host, receive, sit, start, steps

    table = host(client, ["human", "human"], game="rolling-pins", frames=1)
    ann, bob = sit(client, table["id"], 0, "Ann"), sit(client, table["id"], 1, "Bob")
    start(client, table)
    url = f"/ws/tables/{table['id']}"
    with (
        client.websocket_connect(f"{url}?token={ann}&lang=ja") as wa,
        client.websocket_connect(f"{url}?token={bob}") as wb,
    ):
        mine, theirs = receive(wa), receive(wb)
        assert JAPANESE.search(mine["view"]["view"]["status"]) and not JAPANESE.search(theirs["view"]["view"]["status"])
        wa.send_json({"action": "no such move"})
        assert JAPANESE.search(receive(wa)["error"])
        wa.send_json({"action": mine["view"]["legal_actions"][0]})
        pushed_ja, pushed_en = receive(wa), receive(wb)
        assert steps(pushed_ja) > steps(mine) and steps(pushed_en) > steps(theirs)
        assert JAPANESE.search(pushed_ja["view"]["view"]["status"])
        assert not JAPANESE.search(pushed_en["view"]["view"]["status"])
        assert [e["text"] for e in pushed_ja["view"]["log"]] == [e["text"] for e in pushed_en["view"]["log"]]


def test_refused_records_are_one_japanese_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The fuzz corpus's mutated records, replayed under --lang ja: exit 2, one line, in Japanese."""
    from test_fuzz_corpus import _record_cases

    cases = _record_cases(tmp_path)
    for _game, name, path in cases:
        code, _out, err = run_cli(["--lang", "ja", "replay", str(path)], capsys)
        assert_one_line_error(["replay", name], code, err)
        assert JAPANESE.search(err), f"{name}: {err!r}"


def test_every_option_has_a_label_in_both_languages() -> None:
    """Forms show an option's label (the name is for commands and records): never a raw key, in either language."""
    from pinsetter.catalog import catalog

    english = {(g["id"], o["name"]): o["label"] for g in catalog() for o in g["options"]}
    assert all(label != name for (_game, name), label in english.items())  # e.g. auto_strike -> Auto Strike
    with using_language("ja"):
        japanese = {(g["id"], o["name"]): o["label"] for g in catalog() for o in g["options"]}
    assert all(japanese[key] != english[key] and not japanese[key].isascii() for key in english), japanese
