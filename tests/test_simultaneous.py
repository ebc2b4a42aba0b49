"""Simultaneous decisions: in shared-dice Rolling Pins everyone answers the same roll, in any order.

`State.deciders()` lists the players who must answer before the game moves on;
`apply_for(player, action)` applies one of their answers whatever the others
have done. Each answer touches only its player's sheet and no chance draw moves
(the shared roll comes after all answers; a Reroll is the player's own draw), so
every order of the answers gives the same game: the property tests below play
the same players' answers in every order and compare the whole final position.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Hashable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pinsetter.core.game import IllegalActionError, State, Step
from pinsetter.core.seeds import DrawScheme
from pinsetter.games.registry import get_game
from pinsetter.records import PlayerSpec, Record, RecordError, RecordStep, replay
from pinsetter.session import Match

SHARED = {"shared_dice": "true", "advanced": "true"}


def answer(state: State, player: int) -> Step:
    """A fixed player's answer: chosen from their own sheet only (so it cannot depend on the order)."""
    own = state.players[player].key(), tuple(state.pinfalls[player])  # type: ignore[attr-defined]
    legal = state.legal_actions_for(player)
    return random.Random(repr((player, own))).choice(legal)


def play(
    seed: int,
    pick: Callable[[list[int]], int],
    players: int = 3,
    options: dict[str, str] | None = None,
    draws: DrawScheme = "position",
) -> Match:
    """A whole game where `pick` chooses which of the waiting players answers next."""
    specs = [PlayerSpec(f"p{i}") for i in range(players)]
    match = Match(get_game("rolling-pins", dict(options or SHARED)), specs, seed, draws=draws)
    while not match.state.is_terminal():
        if match.state.is_chance_node():
            match.apply(match.draw_chance())
            continue
        deciders = match.state.deciders()
        player = pick(deciders)
        assert player in deciders
        match.apply_for(player, answer(match.state, player))
    return match


def summary(match: Match) -> tuple[Hashable, list[int], list[list[str]]]:
    """The final position, the scores, and each player's own steps in order."""
    own = [[s.text for s in match.record.steps if s.actor == p] for p in range(len(match.players))]
    return match.state.key(), match.state.scores(), own


def first(deciders: list[int]) -> int:
    return deciders[0]


def test_every_player_in_the_frame_answers_the_same_roll() -> None:
    state = get_game("rolling-pins", SHARED).new_state(3)
    assert state.deciders() == [0, 1, 2]  # everybody chooses dice for the first roll
    for player, dice in ((2, "dice 1"), (0, "dice 2"), (1, "dice 2")):
        state.apply_for(player, state.game.parse_action(dice))
    assert state.is_chance_node() and state.deciders() == []
    state.apply_text("3+4+6")
    assert state.deciders() == [0, 1, 2]
    assert [state.players[p].dice for p in range(3)] == [(3, 4), (3, 4), (3,)]  # type: ignore[attr-defined]
    # Each sees only their own legal answers: seat 2 rolled one die.
    assert "cross 3" in map(str, state.legal_actions_for(2)) and "cross 3+4" not in map(str, state.legal_actions_for(2))
    assert "cross 3+4" in map(str, state.legal_actions_for(1))
    state.apply_for(2, state.game.parse_action("cross 3"))  # the last seat answers first
    assert state.deciders() == [0, 1, 2]  # seat 2 now chooses for the next roll, the others still answer
    state.apply_for(2, state.game.parse_action("dice 2"))
    assert state.deciders() == [0, 1] and state.legal_actions_for(2) == []
    with pytest.raises(IllegalActionError, match="player 3 has no decision"):
        state.apply_for(2, state.game.parse_action("dice 1"))
    with pytest.raises(IllegalActionError, match="not legal"):
        state.apply_for(1, state.game.parse_action("cross 9"))
    state.apply_for(1, state.game.parse_action("miss"))
    state.apply_for(0, state.game.parse_action("cross 7"))
    assert state.deciders() == [0, 1]  # both choose dice for the next roll (seat 1 for ball 2)
    assert state.pinfalls == [[], [0], []]


def test_turn_based_games_have_one_decider() -> None:
    state = get_game("rolling-pins").new_state(2)
    assert state.deciders() == [0] and state.legal_actions_for(1) == []
    with pytest.raises(IllegalActionError):
        state.apply_for(1, state.game.parse_action("dice 2"))
    state.apply_for(0, state.game.parse_action("dice 2"))
    assert state.is_chance_node() and state.deciders() == []
    tenpins = get_game("tenpins").new_state(2)
    assert tenpins.deciders() == []  # no decisions at all: chance only


@pytest.mark.parametrize("draws", ["position", "step"])
def test_every_order_of_answers_gives_the_same_game_exhaustively(draws: DrawScheme) -> None:
    """Three players; the order of answers follows each of the six seat priorities for a whole advanced game
    (chance drawn by position, as new games do, and by step, as records without "draws" were)."""
    games = []
    for order in itertools.permutations(range(3)):
        games.append(play(11, lambda deciders, order=order: min(deciders, key=order.index), draws=draws))
    assert len({repr(summary(g)) for g in games}) == 1
    steps = {tuple((s.actor, s.text) for s in g.record.steps) for g in games}
    assert len(steps) == 6  # the records really differ in order
    for game in games:
        assert replay(Record.loads(game.record.dumps())).key() == game.state.key()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), order=st.randoms(use_true_random=False), players=st.integers(2, 3))
def test_any_interleaving_of_answers_gives_the_same_game(seed: int, order: random.Random, players: int) -> None:
    canonical = play(seed, first, players)
    shuffled = play(seed, order.choice, players)
    assert summary(shuffled) == summary(canonical)
    assert len(shuffled.record.steps) == len(canonical.record.steps)
    assert replay(Record.loads(shuffled.record.dumps())).key() == canonical.state.key()


def test_the_sampled_games_use_rerolls_and_answer_out_of_seat_order() -> None:
    """The property above is not vacuous: its games have private rerolls and real choices of order."""
    rerolls = overtaken = 0
    for seed in range(6):
        match = play(seed, lambda deciders: deciders[-1], 3)
        rerolls += sum(s.text == "reroll" for s in match.record.steps)
        actors = [s.actor for s in match.record.steps if s.actor is not None]
        overtaken += sum(1 for a, b in itertools.pairwise(actors) if b < a)
    assert rerolls > 0 and overtaken > 50


def test_a_reroll_is_the_players_own_draw_whoever_answers_first() -> None:
    state = get_game("rolling-pins", SHARED).new_state(2)
    for player in (0, 1):
        state.players[player].held["reroll"] = 1  # type: ignore[attr-defined]
        state.apply_for(player, state.game.parse_action("dice 2"))
    state.apply_text("1+1+1")
    before = state.clone()
    state.apply_for(1, state.game.parse_action("reroll"))  # seat 1 rerolls while seat 0 still decides
    assert state.is_chance_node() and state.turn() == 1 and len(state.chance_outcomes()) == 36
    key = state.chance_key(4)
    before.apply_for(0, state.game.parse_action("miss"))
    before.apply_for(1, state.game.parse_action("reroll"))
    assert before.chance_key(5) == key != (4, 0)  # the same draw, one step later


def test_replay_refuses_an_answer_from_a_player_who_has_none_to_give() -> None:
    def record(steps: list[tuple[int | None, str]]) -> Record:
        made = Record("rolling-pins", dict(SHARED), [PlayerSpec("a"), PlayerSpec("b")], 3)
        made.steps = [RecordStep(actor, text) for actor, text in steps]
        made.chance = "entered"
        return made

    assert replay(record([(1, "dice 1"), (0, "dice 2"), (None, "1+2+3"), (1, "cross 1"), (0, "cross 3")]))
    with pytest.raises(RecordError, match=r"step 2: 'dice 2' is attributed to the wrong actor .expected player 0."):
        replay(record([(1, "dice 1"), (1, "dice 2")]))  # seat 1 has chosen already: only seat 0 decides
    with pytest.raises(RecordError, match=r"step 3: .*expected chance"):
        replay(record([(1, "dice 1"), (0, "dice 2"), (0, "cross 3")]))  # the roll comes first
    with pytest.raises(RecordError, match=r"step 1: .*expected player 0 or player 1"):
        replay(record([(None, "1+2+3")]))


def test_local_games_still_ask_the_deciders_in_seat_order() -> None:
    specs = [PlayerSpec("a", "greedy"), PlayerSpec("b", "random"), PlayerSpec("c", "greedy")]
    match = Match.new("rolling-pins", specs, 5, dict(SHARED, frames="3"))
    match.run_bots()
    assert match.state.is_terminal()
    assert replay(Record.loads(match.record.dumps())).key() == match.state.key()


def test_records_from_before_own_reroll_streams_still_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """A shared-dice Reroll used to be drawn by its step number: such records replay; a forged one does not."""
    from pinsetter.core.game import State as BaseState
    from pinsetter.games.rolling_pins import RollingPinsState

    new_style = play(2, first, draws="step")  # records without "draws" (docs/records.md)
    monkeypatch.setattr(RollingPinsState, "chance_key", BaseState.chance_key)
    old_style = play(2, first, draws="step")
    monkeypatch.undo()
    rerolled = [i for i, s in enumerate(old_style.record.steps) if s.text == "reroll"]
    assert rerolled, "the game needs a reroll"
    own_roll = rerolled[0] + 1
    assert old_style.record.steps[own_roll].actor is None
    assert old_style.record.steps[own_roll].text != new_style.record.steps[own_roll].text  # drawn differently
    assert replay(Record.loads(old_style.record.dumps())).is_terminal()
    assert replay(Record.loads(new_style.record.dumps())).is_terminal()
    forged = Record.loads(old_style.record.dumps())
    faces = forged.steps[own_roll].text.split("+")
    faces[0] = str(int(faces[0]) % 6 + 1)
    forged.steps = [*forged.steps[:own_roll], RecordStep(None, "+".join(faces))]
    forged.result = None
    with pytest.raises(RecordError, match=f"step {own_roll + 1}: chance step"):
        replay(forged)
