"""One test over the whole registry (STYLE.md lesson 6): seeded random playouts of
every game with several option sets and player counts, checking every invariant."""

from __future__ import annotations

import copy
import json
import re
from fractions import Fraction

import pytest

from pinsetter.core.game import CHANCE, TERMINAL, Game, GameOverError, OptionError, ParseError, State
from pinsetter.core.scoring import score
from pinsetter.games.registry import GAMES, game_class, get_game
from pinsetter.records import PlayerSpec, Record, replay
from pinsetter.session import Match

game_class("tenpins")  # load the registry

CASES = [
    (gid, options, players)
    for gid, cls in sorted(GAMES.items())
    for options in cls.conformance_options
    for players in sorted({cls.min_players, min(3, cls.max_players)})
]


def check_node(state: State, game: Game) -> None:
    player = state.current_player()
    if state.is_terminal():
        assert player == TERMINAL
        assert state.legal_actions() == []
        assert state.chance_outcomes() == []
        return
    if state.is_chance_node():
        assert player == CHANCE
        outcomes = state.chance_outcomes()
        assert outcomes, "a chance node has outcomes"
        assert sum(p for _, p in outcomes) == Fraction(1)
        assert all(p > 0 for _, p in outcomes)
        assert len({o for o, _ in outcomes}) == len(outcomes)
        for outcome, _ in outcomes[:50]:
            assert game.parse_outcome(str(outcome)) == outcome
            json.dumps(outcome.to_dict())
        assert state.legal_actions() == []
    else:
        assert 0 <= player < state.num_players
        assert player == state.turn()
        actions = state.legal_actions()
        assert actions, "a decision node has legal actions"
        assert actions == sorted(actions)  # type: ignore[type-var]
        assert len(set(actions)) == len(actions)
        for action in actions:
            assert game.parse_action(str(action)) == action
            json.dumps(action.to_dict())
    for p in range(state.num_players):
        json.dumps(state.view(p))
        assert score(state.pinfalls[p], game.lane).total == state.scoresheet(p).total
    hash(state.key())


@pytest.mark.parametrize(("game_id", "options", "players"), CASES)
def test_random_playouts(game_id: str, options: dict[str, object], players: int) -> None:
    for seed in range(3):
        specs = [PlayerSpec(f"p{i}", "random") for i in range(players)]
        match = Match.new(game_id, specs, seed=seed, options=options)
        game = match.game
        steps = 0
        while not match.state.is_terminal():
            check_node(match.state, game)
            clone = match.state.clone()
            assert clone.key() == match.state.key()
            # A deep copy (OpenSpiel clones a Python state so) shares the game and its memos, not the position.
            before = match.state.key()
            copied = copy.deepcopy(match.state)
            assert copied.game is game and copied.key() == before
            assert match.advance()
            assert copied.key() == before
            steps += 1
            assert steps < 20_000, "a game ends"
        state = match.state
        check_node(state, game)
        for p in range(players):
            sheet = state.scoresheet(p)
            assert sheet.complete
            assert sheet.total == score(state.pinfalls[p], game.lane).total
            assert 0 <= sheet.total <= game.max_score
        assert state.returns() == [float(s) for s in state.scores()]
        with pytest.raises(GameOverError):
            state.apply_text("anything")
        # The record round-trips through JSON and replays to the same position.
        record = Record.loads(match.record.dumps())
        replayed = replay(record)
        assert replayed.key() == state.key()
        assert replayed.scores() == state.scores()
        # Same seed, same game.
        again = Match.new(game_id, specs, seed=seed, options=options)
        again.run_bots()
        assert [s.text for s in again.record.steps] == [s.text for s in match.record.steps]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_bad_input_is_named(game_id: str) -> None:
    game = get_game(game_id)
    state = game.new_state(1)
    with pytest.raises(ParseError) as info:
        state.apply_text("¿what?")
    assert "what" in str(info.value)
    with pytest.raises(ParseError):
        game.parse_action("¿what?")
    with pytest.raises(ParseError):
        game.parse_outcome("¿what?")


# RULES.md's table of players (Bowling Dice: "1+", the box's 1 to 8).
PLAYERS = {"tenpins": (1, 12), "rolling-pins": (1, 12), "bowling-dice": (1, 8), "bowling-solitaire": (1, 1)}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_player_range_follows_the_rules_and_is_shown(game_id: str) -> None:
    cls = game_class(game_id)
    low, high = PLAYERS[game_id]
    assert (cls.min_players, cls.max_players) == (low, high)
    rules = get_game(game_id).rules()
    assert cls.players_text() in rules or (high == 1 and "one player" in rules)
    game = get_game(game_id)
    game.new_state(high)
    for wrong, what in ((low - 1, "add"), (high + 1, "remove")):  # the game by its name, and what to do
        said = f"{cls.name} takes {cls.players_text()}: {what} a player first"
        with pytest.raises(OptionError, match=f"^{re.escape(said)}$"):
            game.new_state(wrong)
