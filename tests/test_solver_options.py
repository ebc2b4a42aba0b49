"""The exact solver refuses options it does not value, in one line, instead of ignoring them (issue 28)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from pinsetter.cli.app import app
from pinsetter.games.registry import get_game
from pinsetter.solvers.rolling_pins import refusal

runner = CliRunner()


@pytest.mark.parametrize(
    ("options", "says"),
    [
        (["advanced=true"], "advanced play"),
        (["advanced=true", "auto_strike=held"], "advanced play"),
        (["auto_strike=held"], "option auto_strike"),
        (["sheet=default"], "option sheet"),
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
    advanced = get_game("rolling-pins", {"advanced": "true"})
    assert refusal(basic.options, ["frames"]) is None
    assert refusal(advanced.options, []) is not None
