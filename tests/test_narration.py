"""Steps told in words (issue 24): each game's narration, checked on hand-made positions and on whole games.

A step's notation (`cross 2+5`, `5+3`, `1:1+2+3`) stays in records and typed
input; what a player reads names who did what and what it meant, and carries
no notation, option key or game id, in English and in Japanese.
"""

from __future__ import annotations

import re

import pytest

from pinsetter.core.game import State
from pinsetter.core.narration import Narration, narrate, pins_list
from pinsetter.games.registry import get_game
from pinsetter.i18n import using_language
from pinsetter.records import PlayerSpec
from pinsetter.session import Match

# Notation and ids a player must never read.
SYNTAX = [
    re.compile(pattern)
    for pattern in (
        r"\bcross \d",
        r"\bdice \d",
        r"\bmark \d",
        r"\bkeep \d",
        r"\bflip \d",
        r"\bextra-pin\b",
        r"\bauto-strike\b",
        r"\d:\d",
        r"tokens [+-]\d",
        r"\d\+\d",
        r"chance:",
        r"\bbot:[a-z]",
        r"\w=\w",
        r"[XP/-]{3,}\|",
        r"\b(tenpins|bowling-dice|rolling-pins|bowling-solitaire)\b",
    )
]
VARIANTS = [
    ("tenpins", {}),
    ("bowling-dice", {}),
    ("rolling-pins", {}),
    ("rolling-pins", {"advanced": "true"}),
    ("rolling-pins", {"advanced": "true", "shared_dice": "true"}),
    ("bowling-solitaire", {}),
]


def syntax_in(text: str) -> list[str]:
    return [pattern.pattern for pattern in SYNTAX if pattern.search(text)]


def told(game_id: str, steps: list[str], players: int = 1, names: tuple[str, ...] = ("Ann", "Bob")) -> list[str]:
    """The words of `steps` (chance or the player up, as the position asks) from a new game."""
    game = get_game(game_id)
    state = game.new_state(players)
    lines = []
    for text in steps:
        before = state.clone()
        actor = None if state.is_chance_node() else state.turn()
        state.apply_by(actor, text)
        lines.append(narrate(game, before, text, state, list(names[:players]), actor))
    return lines


def test_ten_pins_names_each_throw_and_says_the_ball_once() -> None:
    assert told("tenpins", ["5+5"]) == ["Ann rolls double five — strike!"]
    assert told("tenpins", ["2+6", "4"]) == [
        "Ann rolls 2 and 6: a six, off the alley — ball 1: no pin down",
        "Ann rolls a 4 — ball 2: 4 pins down",
    ]
    assert told("tenpins", ["4+3", "5"])[1] == "Ann rolls a 5 — spare!"  # 7 + 5 >= 10: a spare
    assert told("tenpins", ["4+3", "6"])[1] == "Ann rolls a 6: off the alley — ball 2: no pin down"
    two = told("tenpins", ["3+1", "2", "5+5"], players=2)
    assert two[2] == "Bob rolls double five — strike!"  # whose roll: the player up at the chance node


def test_bowling_dice_counts_the_faces_and_the_sheet_says_the_result() -> None:
    first, second = told("bowling-dice", ["PPP|-PP|--PP", "PPP|/P|-P"])
    assert first == "Ann rolls 10 dice: 3 blanks, 7 pins standing — ball 1: 3 pins down"
    assert second == "Ann rolls 7 dice: 1 spare face, 1 blank, 5 pins standing — spare!"
    assert told("bowling-dice", ["XPP|PPP|PPPP"]) == ["Ann rolls 10 dice: 1 strike face, 9 pins standing — strike!"]


def test_rolling_pins_tells_choices_rolls_tokens_and_misses() -> None:
    lines = told("rolling-pins", ["dice 2", "3+4", "cross 3+4", "dice 2", "6+4", "cross 2+9 tokens +1", "dice 1"])
    assert lines[:3] == ["Ann takes two dice", "Ann rolls 3 and 4: 7", "Ann crosses out 3 and 4"]
    assert lines[5] == "Ann crosses out 2 and 9 (1 token: 10 becomes 11)"
    lines = told("rolling-pins", ["dice 1", "1", "miss"])
    assert lines == ["Ann takes one die", "Ann rolls a 1", "Ann misses — ball 1: no pin down"]
    game = get_game("rolling-pins")
    state = game.new_state(1)
    state.apply_by(0, "dice 2")
    state.apply_by(None, "6+4")
    assert game.action_words(state, "cross 1+2+3+4") == "Cross out 1, 2, 3 and 4"
    assert game.action_words(state, "cross 2+7 tokens -1") == "Cross out 2 and 7 (1 token: 10 becomes 9)"
    assert game.action_words(state, "miss") == "Miss (end the ball)"


def test_shared_dice_roll_for_everybody() -> None:
    game = get_game("rolling-pins", {"shared_dice": "true"})
    state = game.new_state(2)
    for actor in (0, 1):
        state.apply_by(actor, "dice 2")
    before = state.clone()
    state.apply_by(None, "3+4+6")
    assert narrate(game, before, "3+4+6", state, ["Ann", "Bob"], None) == "Roll for everybody: 3 (coloured) and 4"


def test_advanced_rolling_pins_names_the_ability_track() -> None:
    game = get_game("rolling-pins", {"advanced": "true"})
    state = game.new_state(1)
    assert game.action_words(state, "dice 2") == "Roll two dice"
    mark = next(a for a in game.action_space() if str(a).startswith("mark "))
    assert game.action_words(state, str(mark)) == "Mark a box: Reroll, upper row"


def test_solitaire_names_cards_piles_and_the_sum_of_the_pins() -> None:
    from pinsetter.games.bowling_solitaire import Deal, deal_script

    deal = Deal.parse("pins=6,10,9,8,1,9,6,2,2,5;piles=3,4,3,10,4|8,5,1|7,7")
    game = get_game("bowling-solitaire")
    script = deal_script(deal)
    state = game.new_state(1)
    lines = []
    while state.is_chance_node():
        step = script(state)
        assert step is not None
        before = state.clone()
        state.apply(step)
        lines.append(narrate(game, before, str(step), state, ["Ann"], None))
    assert lines[0] == "Ann's deal: a 6 for pin 1" and lines[7] == "Ann's deal: a 2 for pin 8"
    assert lines[10] == "Ann's deal: a 3 on pile 1" and lines[11] == "Ann's deal: an 8 on pile 2"
    legal = [str(a) for a in state.legal_actions()]
    play = next(a for a in legal if "+" in a)  # a play of several pins: positions named, values summed
    pile, pins = play.split(":")
    values = [deal.pins[int(p) - 1] for p in pins.split("+")]
    top = {"1": 3, "2": 8, "3": 7}[pile]
    words = game.action_words(state, play)
    assert words.startswith(f"Play the {top} from pile {pile} on pins {pins_list(pins.split('+'))} (")
    assert words.endswith(" + ".join(str(v) for v in values) + f" = {sum(values)})")
    assert game.action_words(state, "stop") == "Stop this ball"


def test_narration_starts_over_after_an_undo() -> None:
    match = Match.new("rolling-pins", [PlayerSpec("Ann")], seed=3)
    match.apply(match.state.legal_actions()[0])
    match.apply(match.draw_chance())
    first = list(match.log_words())
    match.apply(match.state.legal_actions()[-1])  # a miss: ends the ball
    assert len(match.log_words()) == 3
    match.undo()
    assert match.log_words() == first
    match.apply(match.state.legal_actions()[0])
    assert len(match.log_words()) == 3 and match.log_words()[:2] == first


@pytest.mark.parametrize(("game_id", "options"), VARIANTS, ids=lambda v: str(v))
def test_whole_games_are_told_without_notation(game_id: str, options: dict[str, str], language: str) -> None:
    """Every step and every offered action of random games, in both languages: words, never syntax."""
    names = ["Ann", "Bob"] if game_id != "bowling-solitaire" else ["Ann"]
    for seed in (1, 2):
        match = Match.new(game_id, [PlayerSpec(n, "random") for n in names], seed=seed, options=options)
        offered: set[str] = set()
        while not match.state.is_terminal():
            state = match.state
            if not state.is_chance_node():
                offered.update(state.game.action_words(state, str(a)) for a in state.legal_actions())
            match.apply(match.draw_chance() if state.is_chance_node() else match.bot_action())
        lines = match.log_words()
        assert len(lines) == match.steps_done
        for line in [*lines, *offered]:
            assert syntax_in(line) == [], line
        for line, step in zip(lines, match.record.steps, strict=True):
            said_by = [n for n in names if n in line]
            shared_roll = step.actor is None and options.get("shared_dice")
            assert said_by or shared_roll, line  # every step names whose it is (a shared roll is everybody's)
        if language == "ja":
            assert all(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", line) for line in lines[:20]), lines[:20]
            assert not [line for line in lines if "(" in line or ")" in line], "ASCII parentheses in Japanese"


def test_the_web_log_and_hints_use_the_words(tmp_path: object) -> None:
    from pinsetter.bots.hints import hint_words, option_values

    match = Match.new("rolling-pins", [PlayerSpec("Ann")], seed=5)
    match.apply(match.state.legal_actions()[1])
    match.apply(match.draw_chance())
    found = option_values(match.state)
    assert found is not None
    name, _meaning, values = found
    words = hint_words(match.state, name, values)
    assert words[0].endswith("(best)") and "expected final score" in words[0]
    assert all(syntax_in(w) == [] for w in words), words
    assert any("less than the best" in w for w in words[1:])
    narration = Narration(match.game, 1)
    assert narration.update([(s.actor, s.text) for s in match.record.steps], ["Ann"]) == match.log_words()


def test_the_log_is_told_in_the_language_asked_even_after_another() -> None:
    """A log asked for in English, then in Japanese, then in English again is each time all in that
    language: a narration keeps the words it told, so each language keeps its own."""
    match = Match.new("tenpins", [PlayerSpec("ann", "human")], seed=4, options={"frames": "1"})
    while not match.state.is_terminal():
        match.apply(match.draw_chance())
    with using_language("en"):
        english = match.log_words()
    with using_language("ja"):
        japanese = match.log_words()
    with using_language("en"):
        again = match.log_words()
    assert english == again and len(japanese) == len(english)
    assert all(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", line) for line in japanese), japanese
    assert not any(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", line) for line in english), english


def test_a_chance_reads_as_a_percentage_never_as_a_false_certainty() -> None:
    from pinsetter.bots.hints import percent

    assert [percent(c) for c in (0.0, 0.0004, 0.0005, 0.6123, 0.9994, 0.9995, 0.99999, 1.0)] == [
        "0.0%",
        "under 0.1%",
        "0.1%",
        "61.2%",
        "99.9%",
        "over 99.9%",
        "over 99.9%",
        "100.0%",
    ]


def test_hints_offer_chances_only_where_there_is_someone_to_finish_ahead_of() -> None:
    from pinsetter.bots.hints import offers_chances, win_chances
    from pinsetter.games.registry import get_game

    def first_decision(game_id: str, players: int, **options: object) -> State:
        state = get_game(game_id, options).new_state(players)
        while state.is_chance_node():
            state.apply(state.chance_outcomes()[0][0])
        return state

    assert offers_chances(first_decision("rolling-pins", 2, frames=1))
    chances = win_chances(first_decision("rolling-pins", 2, frames=1))
    assert chances is not None and all(0 <= c <= 1 for c in chances.values())
    for game_id, players, options in (
        ("rolling-pins", 1, {"frames": 1}),
        ("rolling-pins", 2, {"frames": 1, "advanced": True}),
        ("bowling-dice", 2, {"frames": 1}),
    ):
        state = first_decision(game_id, players, **options)
        assert not offers_chances(state) and win_chances(state) is None, (game_id, players, options)


def test_options_shown_with_the_same_value_are_shown_the_same_distance_behind() -> None:
    """A hint's distances add up with the values it shows: 144.7 best, 143.7 is 1.0 behind, however each rounded."""
    from pinsetter.bots.hints import hint_words

    state = get_game("rolling-pins", {"frames": 1}).new_state(1)
    while state.is_chance_node():
        state.apply(state.chance_outcomes()[0][0])
    action = state.legal_actions()[0]  # the words of one move, four made-up values
    values = [(action, 144.74), (action, 144.70), (action, 143.74), (action, 143.66)]
    lines = hint_words(state, "", values)
    assert lines[0].endswith("144.7 (best)")
    assert lines[1].endswith("144.7 (0.040 less than the best)")  # a tenth cannot tell it apart: a thousandth does
    assert lines[2].endswith("143.7 (1.0 less than the best)")
    assert lines[3].endswith("143.7 (1.0 less than the best)")  # not 1.1: the same value shown, the same distance
