"""Text from users is text: names are shown literally everywhere, control characters refused on entry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pinsetter.cli.app import main
from pinsetter.records import PlayerSpec, Record
from pinsetter.session import Match
from pinsetter.storage import Storage
from pinsetter.ui.sheet import render_sheets
from pinsetter.usertext import check_name, check_new_name, name_key, visible

HOSTILE = ["[/]", "[bold blink red]ann", "<script>alert(1)</script>", "$x^2$ & [link=file:///etc]"]


@pytest.mark.parametrize("name", ["\x1b[2J", "ann\x1b]0;owned\x07", "tab\there", "new\nline", "\u202eevil", ""])
def test_control_characters_are_refused_on_entry(name: str) -> None:
    with pytest.raises(ValueError):
        check_name(name)
    with pytest.raises(ValueError):
        PlayerSpec(name)


@pytest.mark.parametrize(
    "name", ["line\u2028break", "para\u2029graph", "zero\u200bwidth", "\ufeffann", "soft\u00adhyphen"]
)
def test_invisible_and_line_breaking_characters_are_refused_in_new_names(name: str, tmp_path: Path) -> None:
    """They make names that look alike (`ann` and BOM+`ann`) or break a line (`splitlines` splits at U+2028).

    Refused where a name is typed in; a record or history written before the rule still reads.
    """
    with pytest.raises(ValueError, match="invisible character U\\+"):
        check_new_name(name)
    with pytest.raises(ValueError, match="invisible"):
        PlayerSpec.parse_list(f"bob,{name}")
    assert visible(name).isascii()  # shown escaped wherever it is printed
    match = Match.new("tenpins", [PlayerSpec(name, "random")], seed=1)  # as stored before the rule
    match.run_bots()
    storage = Storage(f"sqlite:///{tmp_path / 'h.sqlite'}")
    storage.save(Record.loads(match.record.dumps()))
    assert [g.record.players[0].name for g in storage.history()] == [name]


@pytest.mark.parametrize(
    "name",
    [
        "\u3164",  # HANGUL FILLER
        "ann\u3164",
        "\u2800",  # BRAILLE PATTERN BLANK
        "\u115f\u1160",  # Hangul Jamo fillers
        "\uffa0",  # HALFWIDTH HANGUL FILLER
        "\U0001d159",  # MUSICAL SYMBOL NULL NOTEHEAD
        "\u034f",  # COMBINING GRAPHEME JOINER
        "\u0301",  # a mark on no letter
        "\u200d",  # a joiner alone
        "\ufe0f",  # a variation selector alone
    ],
)
def test_names_that_show_as_a_blank_are_refused_where_typed(name: str) -> None:
    """A name that shows nothing, or a letter that shows as a blank, makes names that look alike."""
    with pytest.raises(ValueError, match=r"shows as a blank|shows nothing"):
        check_new_name(name)
    with pytest.raises(ValueError, match=r"shows as a blank|shows nothing"):
        PlayerSpec.parse_list(f"bob,{name}")
    assert check_name(name) == name  # as a history written before the rule keeps it


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ann", "ann\ufe0f"),  # a variation selector
        ("Ann", "ann"),  # case
        ("ann", "\uff41\uff4e\uff4e"),  # fullwidth
        ("Jos\u00e9", "Jose\u0301"),  # composed and decomposed
        ("a b", "a\u3000b"),  # an ideographic space
        ("a b", "a  b"),  # two spaces
        ("\N{MAN}\u200d\N{WOMAN}", "\N{MAN}\N{WOMAN}"),  # a joiner
    ],
)
def test_names_that_compare_as_one_cannot_play_one_game(first: str, second: str) -> None:
    """docs/records.md, Names: names are compared after NFKC, case folding and without variation selectors."""
    assert name_key(first) == name_key(second)
    with pytest.raises(ValueError, match="are one name"):
        PlayerSpec.parse_list(f"{first},{second}")
    assert [s.name for s in PlayerSpec.parse_list(f"{first.upper()},bot:random,bot:random")] == [
        first.upper(),
        "Rookie bot",
        "Rookie bot 2",
    ]
    assert [s.name for s in PlayerSpec.parse_list("rookie BOT,bot:random")] == ["rookie BOT", "Rookie bot 2"]


def test_a_name_may_hold_an_ideographic_space_and_an_emoji_variation() -> None:
    """Spaces inside a name (a Japanese family and given name) and emoji drawn as emoji are names."""
    for name in ("\u5c71\u7530\u3000\u592a\u90ce", "\u2764\ufe0f", "Mary Ann"):
        assert check_new_name(name) == name


@pytest.mark.parametrize(
    "name",
    [
        "\N{MAN}\u200d\N{WOMAN}\u200d\N{GIRL}",  # a family: emoji joined by zero-width joiners
        "\N{WAVING BLACK FLAG}\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland's flag
        "\u0646\u0627\u0645\u0647\u200c\u0647\u0627",  # Persian with a zero-width non-joiner
        "\u3055\u304f\u3089",  # Japanese
    ],
)
def test_names_that_need_joiners_and_tags_are_kept(name: str) -> None:
    assert check_name(name) == name and visible(name) == name


def test_visible_spells_out_control_characters() -> None:
    assert visible("a\x1b[2Jb\x07") == "a\\x1b[2Jb\\x07"
    assert visible("[bold]ann") == "[bold]ann"


def test_hostile_names_are_shown_literally_by_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    db = str(tmp_path / "h.sqlite")
    players = [PlayerSpec(name, "random") for name in HOSTILE]
    record_path = tmp_path / "g.json"
    match = Match.new("tenpins", players, seed=3, options={"frames": 2}, record_path=record_path)
    match.storage = Storage(db)
    match.run_bots()
    outputs = {}
    for args in (
        ["history", "--db", db],
        ["show", "1", "--db", db],
        ["replay", str(record_path)],
        ["stats", "--db", db, "--player", HOSTILE[1]],
        ["export", "--db", db, "--format", "csv"],
        ["export", "--db", db],
    ):
        capsys.readouterr()
        assert main(args) == 0, args
        outputs[args[0] + args[-1]] = capsys.readouterr().out
    for key, out in outputs.items():
        if key.startswith("stats"):
            assert HOSTILE[1] in out, out
            continue
        for name in HOSTILE:
            assert name in out, (key, name, out)
    record = Record.loads(next(line for line in outputs["export" + db].splitlines() if line))
    assert [p.name for p in record.players] == HOSTILE


def test_sheet_makes_control_characters_visible() -> None:
    from pinsetter.core.scoring import score

    text = render_sheets(["a\x1bb"], [score([1, 2])], frames=1)
    assert "\x1b" not in text and "a\\x1bb" in text


def test_a_record_with_an_escape_in_a_name_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = Match.new("tenpins", [PlayerSpec("ann", "random")], seed=1, options={"frames": 1})
    match.run_bots()
    data = match.record.to_json()
    data["players"][0]["name"] = "\x1b[2Jann"
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "players[0].name" in err and "control character" in err


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(["a", " ", "名", "\x1b", "\u202e", "\x85", "\t", "\udcff"]), max_size=45))
def test_a_name_is_judged_the_same_every_time(name: str) -> None:
    """Good names are remembered (a live table checks them at every step): the verdict never changes."""
    from pinsetter.usertext import BIDI_CONTROLS, MAX_NAME, name_problem

    good = (
        bool(name.strip())
        and len(name) <= MAX_NAME
        and name == name.strip()
        and not any(c in "\x1b\x85\t\udcff" or c in BIDI_CONTROLS for c in name)
    )
    for _again in range(2):
        assert (name_problem(name) is None) == good


def test_a_refused_name_is_quoted_with_its_control_characters_spelled_once() -> None:
    from pinsetter.usertext import name_problem

    assert name_problem("<b>\x1b[31m") == "player name '<b>\\x1b[31m' contains the control character U+001B"
