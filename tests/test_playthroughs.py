"""Golden playthroughs (STYLE.md lesson 8): a seeded game of every game written out step by step.

Any change to the rules, the chance model, the bots or the scoring shows up here as a diff.
After an intended change, `UPDATE_GOLDEN=1 pytest tests/test_playthroughs.py` rewrites them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pinsetter.records import PlayerSpec
from pinsetter.session import Match
from pinsetter.ui.sheet import render_sheets

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "tenpins": ({}, ["random", "random"]),
    "bowling-dice": ({}, ["random"]),
    "rolling-pins": ({"advanced": "true"}, ["greedy", "random"]),  # no floating point in these bots
    "bowling-solitaire": ({}, ["greedy"]),
}


def playthrough(game: str) -> str:
    options, bots = CASES[game]
    players = [PlayerSpec(f"{bot}-{i + 1}", bot) for i, bot in enumerate(bots)]
    match = Match.new(game, players, seed=20261130, options=options)
    lines = [f"{game} {options} seed 20261130"]
    while match.advance():
        step = match.record.steps[-1]
        who = "chance" if step.actor is None else players[step.actor].name
        lines.append(f"{len(match.record.steps):4} {who:>10}  {step.text}")
    state = match.state
    sheets = [state.scoresheet(p) for p in range(state.num_players)]
    lines.append(render_sheets([p.name for p in players], sheets, state.game.lane.frames))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("game", sorted(CASES))
def test_golden_playthrough(game: str) -> None:
    text = playthrough(game)
    path = GOLDEN / f"playthrough-{game}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text(), f"{game} plays differently from {path}"
