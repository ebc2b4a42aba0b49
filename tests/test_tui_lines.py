"""The line-based `pinsetter play`: the header before each decision names the player the engine asks."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from pinsetter.cli.app import app
from pinsetter.records import PlayerSpec
from pinsetter.session import Match

runner = CliRunner()


def test_the_shared_dice_header_names_whose_decision_it_is(tmp_path: Path) -> None:
    """Shared dice: one roll for everybody, answered in turn; each answer's header names its player."""
    moves = ["dice 1", "dice 2", "miss", "miss", "dice 1", "dice 1"]
    args = ["play", "rolling-pins", "-p", "ann,bob", "-o", "shared_dice=true", "--seed", "3"]
    result = runner.invoke(app, [*args, "--db", str(tmp_path / "h.sqlite")], input="\n".join([*moves, "quit"]) + "\n")
    assert result.exit_code == 0, result.output
    headers = re.findall(r"== (\w+) to play - frame (\d+), ball (\d+): (.*)", result.output)
    # The same game on the engine: who is asked before each decision, and where.
    match = Match.new("rolling-pins", [PlayerSpec("ann"), PlayerSpec("bob")], seed=3, options={"shared_dice": "true"})
    expected = []
    for move in moves:
        while match.state.is_chance_node():
            match.apply(match.draw_chance())
        player = match.state.current_player()
        ctx = match.state.ball_context(player)
        assert ctx is not None
        expected.append((match.players[player].name, str(ctx.frame), str(ctx.ball)))
        match.apply(match.state.game.parse_action(move))
    assert [h[:3] for h in headers[: len(moves)]] == expected
    assert {h[0] for h in headers} == {"ann", "bob"}  # both players answer the shared roll
    assert any(h[3].startswith("cross out pins") for h in headers)
