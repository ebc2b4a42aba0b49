"""Game options: strict values, data inline in records, files read only at the command line's edge."""

from __future__ import annotations

import builtins
import io
import json
import pathlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pinsetter.core.datafile import resolve_option_files
from pinsetter.core.game import GameError, OptionError, OptionSpec
from pinsetter.games.bowling_dice import DEFAULT_DICE, BowlingDice
from pinsetter.games.registry import GAMES, game_class, get_game
from pinsetter.games.rolling_pins import DEFAULT_SHEET, RollingPins
from pinsetter.records import PlayerSpec, Record, replay
from pinsetter.session import Match

game_class("tenpins")  # load the registry
SPECS = [(gid, spec) for gid, cls in sorted(GAMES.items()) for spec in cls.option_specs]
SHEET_JSON = DEFAULT_SHEET.to_json()
DICE_JSON = {"dice": DEFAULT_DICE.to_names()}


def one_line_error(game_id: str, options: dict[str, object]) -> str:
    with pytest.raises(OptionError) as info:
        get_game(game_id, options)
    message = str(info.value)
    assert "\n" not in message
    return message


# --- strict values -----------------------------------------------------------------------


@pytest.mark.parametrize("value", ["\u0663", "\uff13", "1_0", "3.0", "0x3", "", "three", "0", "11", "-1", "+11"])
def test_integers_are_ascii_digits_within_bounds(value: str) -> None:
    for game_id in sorted(GAMES):
        assert one_line_error(game_id, {"frames": value}).startswith("option frames: expected a whole number")
    assert one_line_error("rolling-pins", {"pins": value}).startswith("option pins: expected a whole number")


def test_integers_in_range_are_read() -> None:
    assert get_game("tenpins", {"frames": " 3 "}).lane.frames == 3
    assert get_game("tenpins", {"frames": "+3"}).lane.frames == 3
    assert get_game("rolling-pins", {"pins": "4", "frames": 2}).lane.pins == 4


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"tokens": 1}, "option tokens: expected bool, got 1"),
        ({"advanced": 0}, "option advanced: expected bool, got 0"),
        ({"frames": True}, "option frames: expected int, got True"),
        ({"frames": 3.0}, "option frames: expected int, got 3.0"),
        ({"frames": 30}, "option frames: expected a whole number from 1 to 10, got '30'"),
        ({"sheet": {"grey": []}}, "option sheet: expected text, got {'grey': []}"),
        ({"auto_strike": None}, "option auto_strike: expected text, got None"),
        ({"advanced": "maybe"}, "option advanced: expected true or false, got 'maybe'"),
    ],
)
def test_json_values_must_have_the_options_type(options: dict[str, object], message: str) -> None:
    assert one_line_error("rolling-pins", options) == message


def test_json_booleans_and_integers_of_the_right_type_are_read() -> None:
    game = get_game("rolling-pins", {"tokens": False, "advanced": True, "frames": 3})
    assert game.options["tokens"] is False and game.options["advanced"] is True and game.lane.frames == 3


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ({"dice": [[{}] * 6] * 10}, "die 1, face 1: {} is not one of X, /, blank, pin"),
        ({"dice": [{}] * 10}, "die 1: needs a list of 6 faces, got {}"),
        ({"dice": [["X", "pin", "pin", "pin", "pin", ["blank"]]] * 10}, "die 1, face 6: ['blank'] is not one of"),
        ({"dice": {}}, "needs a list 'dice' of 10 dice"),
        ([], "needs a list 'dice' of 10 dice"),
    ],
)
def test_malformed_dice_sets_are_one_line(dice: object, message: str) -> None:
    error = one_line_error("bowling-dice", {"dice": json.dumps(dice)})
    assert error.startswith("option dice: " + message)


def test_dice_sets_inline() -> None:
    for text in ("default", str(DEFAULT_DICE), json.dumps(DICE_JSON)):
        game = get_game("bowling-dice", {"dice": text})
        assert isinstance(game, BowlingDice) and game.options["dice"] == DEFAULT_DICE
    assert "X--PPP" in str(get_game("bowling-dice").options_text()["dice"])  # a record carries the faces


# --- fuzzing every option of every game -----------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value, for replacing one of them."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*prefix, index))
    return found


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copy = json.loads(json.dumps(value))
    target = copy
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = new
    return copy


def near_miss(data: st.DataObject) -> str:
    """A valid sheet or dice set with one part replaced by arbitrary JSON."""
    base = data.draw(st.sampled_from([SHEET_JSON, DICE_JSON]))
    path = data.draw(st.sampled_from(paths(base)))
    return json.dumps(replaced(base, path, data.draw(JSON)))


def builds_or_refuses(game_id: str, name: str, value: object) -> None:
    try:
        game = get_game(game_id, {name: value})
    except OptionError as exc:
        assert "\n" not in str(exc)
    else:
        assert json.dumps(game.options_text())  # what a record would store


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=st.sampled_from(SPECS), data=st.data())
def test_any_value_builds_the_game_or_raises_option_error(spec: tuple[str, OptionSpec], data: st.DataObject) -> None:
    game_id, option = spec
    kind = data.draw(st.sampled_from(["text", "json", "json text", "near miss", "faces"]))
    value: object
    if kind == "text":
        value = data.draw(st.text(max_size=20))
    elif kind == "json":
        value = data.draw(JSON)
    elif kind == "json text":
        value = json.dumps(data.draw(JSON))
    elif kind == "near miss":
        value = near_miss(data)
    else:
        value = ",".join(data.draw(st.lists(st.text("X/-P", max_size=7), max_size=11)))
    builds_or_refuses(game_id, option.name, value)


# --- files: read once at the command line, never by the engine or a replay --------------------


def test_files_become_inline_json(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps(SHEET_JSON))
    dice = tmp_path / "dice.toml"
    dice.write_text("dice = [" + ",".join(json.dumps(d) for d in DEFAULT_DICE.to_names()) + "]\n")
    options = resolve_option_files("rolling-pins", {"sheet": str(sheet), "frames": "3", "advanced": "true"})
    assert json.loads(str(options["sheet"])) == SHEET_JSON
    assert options["frames"] == "3" and options["advanced"] == "true"
    game = get_game("rolling-pins", options)
    assert isinstance(game, RollingPins) and game.sheet.to_json() == SHEET_JSON
    options = resolve_option_files("bowling-dice", {"dice": str(dice)})
    assert get_game("bowling-dice", options).options["dice"] == DEFAULT_DICE


def test_inline_values_and_other_options_are_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    forbid_opening_files(monkeypatch)
    given = {"sheet": "default", "frames": "\u0663", "nonsense": "x.json"}
    assert resolve_option_files("rolling-pins", given) == given
    assert resolve_option_files("bowling-dice", {"dice": str(DEFAULT_DICE)}) == {"dice": str(DEFAULT_DICE)}
    with pytest.raises(OptionError, match="option dice: die 1: has 5 faces"):
        resolve_option_files("bowling-dice", {"dice": "X--PP" + ",X--PPP" * 9})  # bad inline, not a file
    with pytest.raises(OptionError, match="unknown game"):
        resolve_option_files("skittles", {})


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("missing.json", None, "cannot read sheet file .*missing.json"),
        ("bad.toml", "grey = [", "bad.toml: not valid toml"),
        ("bad.json", "{", "bad.json: not valid json"),
        (
            "bad.json",
            json.dumps({**SHEET_JSON, "grey": SHEET_JSON["grey"][:3]}),
            r"bad.json: option sheet: 'grey' needs",
        ),
        ("sheet.txt", json.dumps(SHEET_JSON), None),  # any existing file is read, as JSON unless .toml
    ],
)
def test_sheet_file_errors_name_the_file(tmp_path: Path, name: str, content: str | None, message: str | None) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_text(content)
    if message is None:
        assert json.loads(str(resolve_option_files("rolling-pins", {"sheet": str(path)})["sheet"])) == SHEET_JSON
        return
    with pytest.raises(OptionError, match=message) as info:
        resolve_option_files("rolling-pins", {"sheet": str(path)})
    assert "\n" not in str(info.value)


def forbid_opening_files(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Make every way of opening a file fail the test, and record the attempts."""
    opened: list[object] = []

    def refuse(target: object, *args: object, **kwargs: object) -> Any:
        opened.append(target)
        raise AssertionError(f"opened {target}")

    monkeypatch.setattr(builtins, "open", refuse)
    monkeypatch.setattr(io, "open", refuse)
    for method in ("open", "read_bytes", "read_text"):
        monkeypatch.setattr(pathlib.Path, method, refuse)
    return opened


@pytest.mark.parametrize(
    ("game_id", "options", "content"),
    [
        ("rolling-pins", {"advanced": True}, json.dumps(SHEET_JSON)),
        ("bowling-dice", {}, json.dumps(DICE_JSON)),
    ],
)
def test_a_record_naming_a_file_is_refused_without_opening_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game_id: str, options: dict[str, object], content: str
) -> None:
    name = "sheet" if game_id == "rolling-pins" else "dice"
    path = tmp_path / f"{name}.json"
    path.write_text(content)  # readable, valid: only the engine's refusal keeps it closed
    played = Match.new(
        game_id,
        [PlayerSpec("bot", "random")],
        seed=5,
        options=resolve_option_files(game_id, {name: str(path), **options}),
    )
    played.run_bots()
    text = played.record.dumps()
    assert str(path) not in text  # the record carries the data, not the path
    forged = json.loads(text)
    forged["options"][name] = str(path)
    opened = forbid_opening_files(monkeypatch)
    # Inline data replays; the forged record naming the path is refused.
    assert replay(Record.loads(text)).scores() == played.state.scores()
    with pytest.raises(GameError, match=f"option {name}: .*--option {name}=FILE"):
        replay(Record.loads(json.dumps(forged)))
    assert opened == []
