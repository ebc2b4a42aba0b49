"""A run of chance steps drawn at once (`Match.run_bots`, `ChanceDraws.play_run`) is the same as drawn one by one.

Solitaire turns up a deal's cards in one call (`Game.play_chance_run`); every other game draws
the run a step at a time. Either way the record, the position and the result must be exactly
what `Match.advance`, one step per call, makes of the same seed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pinsetter.games.registry import all_games, get_game
from pinsetter.records import PlayerSpec, Record
from pinsetter.session import Match

ANN = PlayerSpec("ann")


def play(game_id: str, options: dict[str, object], seed: int, runs: bool, path: Path | None = None) -> Match:
    """A human seat whose choice varies with the step count, chance and bots played by runs or by steps."""
    match = Match(get_game(game_id, options), [ANN], seed, path)
    while True:
        if runs:
            match.run_bots()
        else:
            while match.advance():
                pass
        if match.state.is_terminal():
            return match
        legal = match.state.legal_actions()
        match.apply(legal[len(match.record.steps) % len(legal)])


@pytest.mark.parametrize("game_id", sorted(all_games()))
@pytest.mark.parametrize("options", [{}, {"frames": 2}])
def test_runs_of_chance_draw_what_single_steps_draw(game_id: str, options: dict[str, object]) -> None:
    for seed in range(12):
        by_runs, by_steps = play(game_id, options, seed, True), play(game_id, options, seed, False)
        assert [s.text for s in by_runs.record.steps] == [s.text for s in by_steps.record.steps]
        assert [s.actor for s in by_runs.record.steps] == [s.actor for s in by_steps.record.steps]
        assert by_runs.state.key() == by_steps.state.key()
        assert by_runs.record.result == by_steps.record.result


def test_only_solitaire_turns_up_a_run_in_one_call() -> None:
    """The others draw one outcome at a time (with their counts per position) and refuse a run."""
    for game_id in all_games():
        game = get_game(game_id, {})
        state = game.new_state(1)
        assert game.chance_runs == (game_id == "bowling-solitaire")
        if game.chance_runs:  # the first deal's ten pins and three pile tops, then the first decision
            assert len(game.play_chance_run(state, 7)) == 13 and not state.is_chance_node()
        else:
            with pytest.raises(NotImplementedError, match="one outcome at a time"):
                game.play_chance_run(state, 7)


def test_a_run_saves_the_record_with_every_step(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    match = play("bowling-solitaire", {"frames": 3}, 5, True, path)
    saved = Record.load(path)
    assert [s.text for s in saved.steps] == [s.text for s in match.record.steps]
    assert saved.result == match.record.result
