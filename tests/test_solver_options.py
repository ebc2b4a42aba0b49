"""The exact solver refuses options it does not value, in one line, instead of ignoring them (issue 28)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pinsetter.cli.app import app
from pinsetter.games.registry import get_game
from pinsetter.games.rolling_pins import DEFAULT_SHEET, RollingPins
from pinsetter.solvers.rolling_pins import refusal
from pinsetter.solvers.rolling_pins import solve as basic_solve
from pinsetter.solvers.rolling_pins_advanced import Variant, solve

runner = CliRunner()


@pytest.mark.parametrize(
    ("options", "says"),
    [
        (["auto_strike=held"], "option auto_strike"),
        (["sheet=default"], "option sheet"),
        (["advanced=false", "auto_strike=held"], "option auto_strike"),
    ],
)
def test_solve_refuses_what_it_does_not_value(options: list[str], says: str) -> None:
    args = ["solve", "rolling-pins"]
    for pair in options:
        args += ["--option", pair]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], result.output
    assert "145.14" not in result.output


def test_solve_values_what_it_solves() -> None:
    result = runner.invoke(
        app,
        ["solve", "rolling-pins", "--json", "--option", "advanced=false", "--option", "shared_dice=true"],
    )
    assert result.exit_code == 0, result.output
    assert abs(json.loads(result.output)["expected_score"] - 145.14355201492685) < 1e-9


def test_refusal_reads_the_games_own_options() -> None:
    basic = get_game("rolling-pins", {"frames": "3"})
    advanced = get_game("rolling-pins", {"advanced": "true", "auto_strike": "held"})
    assert refusal(basic.options, ["frames"]) is None
    assert refusal(advanced.options, ["advanced", "auto_strike", "sheet"]) is None


def test_solve_values_the_advanced_game_with_its_own_options(tmp_path: Path) -> None:
    # Two frames solve in seconds; each reading of Auto Strike and each sheet is its own game.
    data = DEFAULT_SHEET.to_json()
    data["areas"] = [{**area, "boxes": 1} for area in data["areas"]]  # every area one box: abilities come fast
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps(data))
    basic = basic_solve(10, 2, 1).expected_score
    found = []
    for options in ({}, {"auto_strike": "held"}, {"sheet": str(sheet)}):
        args = ["solve", "rolling-pins", "--json", "--option", "advanced=true", "--option", "frames=2"]
        for key, value in options.items():
            args += ["--option", f"{key}={value}"]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        value = json.loads(result.output)["expected_score"]
        game_options: dict[str, object] = {"advanced": "true", "frames": "2", **options}
        if "sheet" in options:
            game_options["sheet"] = json.dumps(data)
        game = get_game("rolling-pins", game_options)
        assert isinstance(game, RollingPins)
        assert value == pytest.approx(solve(Variant.of_game(game)).expected_score, abs=1e-9)
        assert value > basic  # every basic strategy is playable in the advanced game
        found.append(value)
    assert found[2] > found[0] + 0.1  # areas of one box: more abilities, more points
