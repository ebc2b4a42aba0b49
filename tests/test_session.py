"""The match's undo rule (docs/tui.md, "Undo"): a decision can be taken back until chance reveals something."""

from __future__ import annotations

from pathlib import Path

import pytest

from pinsetter.core.game import GameError
from pinsetter.records import PlayerSpec, Record, replay
from pinsetter.session import Match
from pinsetter.storage import Storage

ANN = PlayerSpec("ann")


def to_decision(match: Match) -> None:
    """Play chance and bots until a human must decide (or the game is over)."""
    match.run_bots()


def decide(match: Match, index: int = 0) -> str:
    """The human to act plays their `index`-th legal action; returns its text."""
    action = match.state.legal_actions()[index]
    match.apply(action)
    return str(action)


def texts(match: Match) -> list[str]:
    return [s.text for s in match.record.steps]


def test_nothing_to_take_back_before_the_first_decision() -> None:
    match = Match.new("rolling-pins", [ANN], seed=5)
    assert match.can_undo() == "there is no decision to take back"
    with pytest.raises(GameError, match="no decision"):
        match.undo()
    assert match.record.steps == [] and not match.record.undo_used


def test_a_decision_is_taken_back_while_nothing_was_revealed(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    storage = Storage(f"sqlite:///{tmp_path / 'h.sqlite'}")
    match = Match.new("rolling-pins", [ANN], seed=5, record_path=path)
    match.storage = storage
    decide(match)  # dice 1
    to_decision(match)  # the roll
    crossed = decide(match)  # cross ... (or miss): the next step is ann's choice of dice, no chance between
    before = texts(match)
    assert before[-1] == crossed and match.can_undo() is None
    assert match.undo() == 1
    assert texts(match) == before[:-1]
    assert match.record.undo_used
    # The position is the one the shorter record replays to, and the file and history say so.
    assert match.state.key() == replay(Record.loads(match.record.dumps()), check_result=False).key()
    assert texts(match) == [s.text for s in Record.load(path).steps]
    stored = storage.history()
    assert len(stored) == 1 and stored[0].steps == len(before) - 1 and stored[0].record.undo_used
    # Deciding the same again continues exactly as before (chance step i comes from (seed, i)).
    decide(match)
    assert texts(match) == before


def test_undo_is_refused_once_chance_revealed_something() -> None:
    match = Match.new("rolling-pins", [ANN], seed=5)
    decide(match)  # dice 1
    to_decision(match)  # the die is rolled and seen
    rolled = match.record.steps[-1].text
    before = texts(match)
    reason = match.can_undo()
    assert reason == "the dice were rolled after your last decision; undo cannot go back past them"
    assert rolled not in reason  # in words, never the roll's notation
    with pytest.raises(GameError, match="rolled after your last decision"):
        match.undo()
    assert texts(match) == before and not match.record.undo_used


def test_undo_of_a_card_game_is_refused_after_a_card_is_turned_up() -> None:
    match = Match.new("bowling-solitaire", [ANN], seed=5)
    to_decision(match)  # the deal
    decide(match)  # a play: the pile's next card is turned up
    to_decision(match)
    assert match.record.steps[-1].actor is None
    reason = match.can_undo()
    assert reason == "a card was turned up after your last decision; undo cannot go back past it"  # a card, not dice


def test_against_a_bot_the_human_takes_back_their_own_decision_and_the_bot_replies() -> None:
    match = Match.new("rolling-pins", [ANN, PlayerSpec("robo", "random")], seed=5)
    assert match.undo_allowed  # one human against bots: on by default
    while True:  # ann plays her frame until her last decision hands the turn to robo
        to_decision(match)
        decide(match)
        if not match.state.is_chance_node() and match.state.current_player() == 1:
            break
    mine = len(match.record.steps)
    assert match.advance() and match.record.steps[-1].actor == 1  # robo decides, nothing revealed yet
    assert match.can_undo() is None
    assert match.undo() == 2  # ann's decision and robo's reply
    assert len(match.record.steps) == mine - 1
    assert match.state.current_player() == 0
    # Once robo's dice are rolled, ann's last decision is behind a revealed outcome.
    decide(match)
    match.advance()
    match.advance()
    assert match.record.steps[-1].actor is None and match.record.steps[-2].actor == 1
    reason = match.can_undo()
    assert reason == "the dice were rolled after your last decision; undo cannot go back past them"


def test_undo_is_off_among_several_humans_unless_turned_on() -> None:
    two = [ANN, PlayerSpec("bob")]
    match = Match.new("rolling-pins", two, seed=5)
    assert not match.undo_allowed
    decide(match)
    assert match.can_undo() == "undo is off in this game"
    with pytest.raises(GameError, match="off"):
        match.undo()
    assert Match.new("rolling-pins", [ANN], seed=5).undo_allowed


def test_a_finished_game_cannot_be_undone() -> None:
    match = Match.new("rolling-pins", [ANN], seed=2, options={"frames": "1"})
    while not match.state.is_terminal():
        to_decision(match)
        if not match.state.is_terminal():
            decide(match, -1)
    assert match.can_undo() == "the game is over"


def test_a_game_taken_back_and_played_on_resumes_from_its_record() -> None:
    """Undo in a match kept nowhere (no file, no history) leaves no result of the moment before in the
    record: the record of the game under way resumes, and states its result once the game is over."""
    match = Match.new("rolling-pins", [ANN], seed=5, options={"frames": 2})
    to_decision(match)
    decide(match)
    to_decision(match)
    while match.can_undo() is not None and not match.state.is_terminal():
        decide(match)
        if match.can_undo() is None:
            break
        to_decision(match)
    assert match.can_undo() is None
    match.undo()
    assert match.record.result is None
    decide(match, -1)
    to_decision(match)
    resumed = Match.resume(match.record)
    assert texts(resumed) == texts(match)
    while not match.state.is_terminal():
        decide(match)
        to_decision(match)
    assert match.record.result is not None
    assert Match.resume(match.record).state.is_terminal()
