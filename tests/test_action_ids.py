"""Compact action ids (issue 29, part 1): each option set numbers only the actions it can ever offer.

Every adapter (OpenSpiel, Gymnasium, PettingZoo) numbers actions with `encoding.StepIndex`
over `Game.action_space()`. These tests need no toolkit: random and bot playouts of every
conformance option set meet only ids inside the space, ids round-trip through their text, and
a golden of a few ids per option set pins their numbering (docs/integrations.md says they are
stable for an option set and rules version).
"""

from __future__ import annotations

import pytest

from pinsetter.bots import bot_names
from pinsetter.games.registry import GAMES, get_game
from pinsetter.integrations.encoding import END, step_index
from pinsetter.records import PlayerSpec
from pinsetter.session import Match

DECISION_GAMES = sorted(gid for gid, cls in GAMES.items() if cls.has_decisions)
CASES = [
    (gid, options)
    for gid in DECISION_GAMES
    for options in (*GAMES[gid].conformance_options, {"frames": "10", "tokens": "false"}, {"frames": "1"})
    if gid == "rolling-pins" or "tokens" not in options
]


def _players(game_id: str, options: dict[str, object]) -> int:
    return 2 if options.get("shared_dice") == "true" else 1


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=str)
def test_every_action_met_in_play_has_an_id_in_the_compact_space(game_id: str, options: dict[str, object]) -> None:
    game = get_game(game_id, options)
    index = step_index(game)
    bots = [name for name in bot_names(game_id) if name in ("random", "greedy")]
    met = 0
    for seed in range(6):
        kind = bots[seed % len(bots)]
        match = Match(game, [PlayerSpec(f"p{i}", kind) for i in range(_players(game_id, options))], seed)
        while not match.state.is_terminal():
            if not match.state.is_chance_node():
                for action in match.state.legal_actions():
                    assert index.actions[index.action_id(action)] == action
                    met += 1
            match.advance()
    assert met > 0


def test_compact_spaces_are_the_option_sets_own() -> None:
    """Fewer frames hold fewer tokens, fewer pins make fewer crosses, the basic game has no abilities."""
    sizes = {
        tuple(sorted(o.items())): step_index(get_game("rolling-pins", o)).size
        for o in ({}, {"advanced": "true"}, {"frames": "2"}, {"frames": "2", "tokens": "false"}, {"pins": "3"})
    }
    assert sizes[()] == 1983 < sizes[(("advanced", "true"),)] == 2017
    assert sizes[(("frames", "2"),)] == 341 and sizes[(("frames", "2"), ("tokens", "false"))] == 70
    assert sizes[(("pins", "3"),)] < 100
    assert step_index(get_game("bowling-solitaire", {})).size == 194
    assert step_index(get_game("bowling-solitaire", {"groups": "mutual"})).size == 113
    basic = {str(a).split()[0] for a in step_index(get_game("rolling-pins", {})).actions}
    assert basic == {"dice", "miss", "cross"}


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=str)
def test_ids_round_trip_through_their_text(game_id: str, options: dict[str, object]) -> None:
    game = get_game(game_id, options)
    index = step_index(game)
    assert index.text(index.end_id) == END and index.size == len(index.actions) + 1
    for i, action in enumerate(index.actions):
        assert index.action_id(action) == i
        assert game.parse_action(index.text(i)) == action
    assert list(index.actions) == sorted(index.actions)  # type: ignore[type-var]


GOLDEN = [
    ("rolling-pins", {}, {0: "cross 1 tokens -5", 661: "cross 1+4+6 tokens +2", 1981: "miss", 1982: END}),
    ("rolling-pins", {"advanced": "true"}, {0: "auto-strike", 1008: "cross 2+3+5 tokens +3", 2015: "ten-pin"}),
    ("rolling-pins", {"frames": "2"}, {0: "cross 1 tokens -2", 170: "cross 2+3+5", 339: "miss", 340: END}),
    ("rolling-pins", {"frames": "2", "tokens": "false"}, {0: "cross 1", 35: "cross 2+3+7", 68: "miss"}),
    ("bowling-solitaire", {}, {0: "1:1", 64: "2:1", 97: "2:4+5+7", 192: "stop", 193: END}),
    ("bowling-solitaire", {"groups": "mutual"}, {37: "2:1", 56: "2:4+8", 111: "stop"}),
]


@pytest.mark.parametrize(("game_id", "options", "golden"), GOLDEN, ids=str)
def test_ids_are_stable_for_an_option_set(game_id: str, options: dict[str, object], golden: dict[int, str]) -> None:
    """Changing one of these breaks every trained agent's ids: say so in the CHANGELOG and docs/integrations.md."""
    index = step_index(get_game(game_id, options))
    assert {i: index.text(i) for i in golden} == golden


def test_the_space_is_exactly_what_some_position_offers_in_a_whole_short_game() -> None:
    """Every position of one frame of three pins (with its token), walked through the engine: the
    actions legal somewhere are the space, no more (compact) and no fewer (complete)."""
    game = get_game("rolling-pins", {"frames": "1", "pins": "3"})
    seen, offered = set(), set()
    stack = [game.new_state(1)]
    while stack:
        state = stack.pop()
        if state.key() in seen or state.is_terminal():
            continue
        seen.add(state.key())
        if state.is_chance_node():
            steps = [outcome for outcome, _ in state.chance_outcomes()]
        else:
            steps = state.legal_actions()
            offered.update(steps)
        for step in steps:
            child = state.clone()
            child.apply(step)
            stack.append(child)
    assert len(seen) > 10_000
    assert offered == set(step_index(game).actions)
