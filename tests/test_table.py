"""The table views: one renderer-neutral picture per game, consistent with the engine at every step."""

from __future__ import annotations

import random

import pytest

from pinsetter.core.table import TableView
from pinsetter.games.registry import GAMES, game_class, get_game

game_class("tenpins")  # loads the registry
CASES = [(gid, options) for gid in sorted(GAMES) for options in GAMES[gid].conformance_options]


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_table_view_agrees_with_the_engine_through_a_playout(game_id: str, options: dict[str, object]) -> None:
    game = get_game(game_id, options)
    players = min(2, game.max_players)
    state = game.new_state(players)
    rng = random.Random(11)
    names = [f"p{i}" for i in range(players)]
    last = ""
    while True:
        view = game.table(state, names, last)
        assert TableView.model_validate_json(view.model_dump_json()) == view
        if state.is_terminal():
            # The end still draws somebody's lane or sheet (Solitaire has one player and none).
            assert (view.player is not None or game.id == "bowling-solitaire") and not view.choices
            break
        assert view.player == state.turn()
        legal = [] if state.is_chance_node() else [str(a) for a in state.legal_actions()]
        assert sorted(c.action for c in view.choices) == sorted(legal)
        selectable = {p.number for p in view.pins if p.selectable}
        assert selectable == {pin for c in view.choices if c.by_selection for pin in c.pins}
        for choice in view.choices:
            if choice.by_selection:
                assert game.selection_action(state, frozenset(choice.pins), choice.pile) == choice.action
                assert view.choice_for(frozenset(choice.pins), choice.pile) is not None
        if any(c.by_selection for c in view.choices):
            assert view.selection is not None, "pins can be picked, so the sum is shown"
        # A box offered on the track is one of the choices, and every offered mark has its box.
        offered = {c.action for c in view.choices if c.action.startswith("mark ")}
        assert {a.action for a in view.track if a.action} == offered
        if view.discards is not None:  # every card seen is a standing pin, a pile's top or a discard
            on_table = [p.label for p in view.pins if not p.down] + [p.top for p in view.piles if p.top]
            assert sorted(on_table + list(view.discards), key=int) == sorted(view.seen, key=int)
        if state.is_chance_node():
            step = state.sample_chance(rng)
            last = str(step)
        else:
            step = rng.choice(state.legal_actions())
        state.apply(step)


def test_ten_pins_says_what_its_named_throws_mean() -> None:
    """A six is off the alley and double five a strike, in the words the table shows under the dice."""
    from pinsetter.games.pure_chance_table import pip_words, ten_pins_words

    assert ten_pins_words("6+2") == "rolled 6 and 2: off the alley"
    assert ten_pins_words("5+5") == "rolled double five"
    assert ten_pins_words("4+3") == "rolled 4 and 3"
    assert ten_pins_words("6") == "rolled a 6: off the alley"
    assert pip_words("6+5+5") == "rolled 6, 5 and 5"  # Rolling Pins' dice mean only their sum


def test_bowling_dice_says_a_roll_by_its_faces_never_its_notation() -> None:
    """The table says the last roll's faces by kind; what the ball scored is the log's (core/narration.py)."""
    game = get_game("bowling-dice", {})
    state = game.new_state(1)
    said = []
    for roll in ("--P|/-P|--PP", "X|P|-P"):
        state.apply(game.parse_outcome(roll))
        said.append(game.table(state, ["ann"], roll).chance_words)
    assert said == [
        "rolled 10 dice: 1 spare face, 5 blanks, 4 pins standing",
        "rolled 4 dice: 1 strike face, 1 blank, 2 pins standing",
    ]


def test_the_last_player_is_who_played_the_last_ball() -> None:
    """Players take whole frames in turn: the one whose sheet just grew, through a three-player game."""
    from pinsetter.games.pure_chance_table import last_player

    state = get_game("bowling-dice", {"frames": "3"}).new_state(3)
    rng = random.Random(5)
    assert last_player(state) is None
    while not state.is_terminal():
        before = [len(balls) for balls in state.pinfalls]
        state.apply(state.sample_chance(rng))
        grew = [p for p, balls in enumerate(state.pinfalls) if len(balls) > before[p]]
        assert grew == [last_player(state)]


def test_a_dice_table_draws_and_says_a_roll_with_the_functions_its_game_passes() -> None:
    """No switch on a kind of dice: the game hands over how its dice look and how a roll is said."""
    from pinsetter.core.table import Die
    from pinsetter.games.pure_chance_table import dice_table, pip_dice, ten_pins_words

    game = get_game("tenpins", {})
    state = game.new_state(1)
    state.apply(state.game.parse_outcome("6+5"))
    assert dice_table(state, ["ann"], "6+5", draw=pip_dice, words=ten_pins_words) == game.table(state, ["ann"], "6+5")
    one_die = (Die(kind="pips", face="?", label="a die"),)
    view = dice_table(state, ["ann"], "6+5", draw=lambda roll: one_die, words=lambda roll: f"said {roll}")
    assert view.dice == one_die and view.chance_words == "said 6+5"


def test_dice_shown_after_their_roll_say_whose_roll_they_were() -> None:
    """Ten Pins and Bowling Dice show the last roll until the next: marked as a past roll, and whose."""
    game = get_game("tenpins", {"frames": "1"})
    state = game.new_state(2)
    assert game.table(state, ["ann", "bob"], "").dice_previous == ""  # no roll yet, no dice
    state.apply(game.parse_outcome("3+4"))
    assert game.table(state, ["ann", "bob"], "3+4").dice_previous == "ann's last roll"
    state.apply(game.parse_outcome("2"))  # ann's second ball: bob is up, the dice still show ann's roll
    view = game.table(state, ["ann", "bob"], "2")
    assert view.player == 1 and view.dice_previous == "ann's last roll"

    # Rolling Pins keeps a roll crossed out in view while the next is chosen: then it is a past roll.
    game = get_game("rolling-pins", {})
    state = game.new_state(1)
    state.apply(game.parse_action("dice 2"))
    state.apply(game.parse_outcome("3+4"))
    assert game.table(state, ["ann"], "3+4").dice_previous == ""  # the roll to cross out now
    state.apply(game.parse_action("cross 7"))
    view = game.table(state, ["ann"], "3+4")
    assert view.dice and view.dice_previous == "ann's last roll"


def test_solitaire_discards_are_the_cards_out_of_play_this_deal() -> None:
    """The pins knocked down and the ball cards played or burned, in value order; a new deal starts none."""
    from pinsetter.games.bowling_solitaire import Deal, deal_script

    game = get_game("bowling-solitaire", {})
    state = game.new_state(1)
    deal = Deal(pins=(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), piles=((3, 9, 1, 2, 4), (10, 5, 6), (7, 8)))
    script = deal_script(deal)
    while state.is_chance_node():
        step = script(state)
        assert step is not None
        state.apply(step)
    view = game.table(state, ["ann"])
    assert view.discards == ()
    state.apply(game.parse_action("1:3"))  # the 3 from pile 1 knocks pin 3 down; the 9 under it is turned up
    while state.is_chance_node():
        step = script(state)
        assert step is not None
        state.apply(step)
    assert game.table(state, ["ann"]).discards == ("3", "3")
    state.apply(game.parse_action("stop"))  # ball 2: the three face-up tops are burned
    while state.is_chance_node():
        step = script(state)
        assert step is not None
        state.apply(step)
    assert game.table(state, ["ann"]).discards == ("3", "3", "7", "9", "10")
    assert get_game("tenpins", {}).table(get_game("tenpins", {}).new_state(1)).discards is None


def test_solitaire_says_the_deal_until_a_play_turns_a_card_up() -> None:
    """Before the frame's first play no card was turned up by a play: the table says the cards were dealt, not
    "turned up a 7" (the deal's last card, pile 3's top). After a play the card that replaced the pile's top
    is said; ball 2's new tops were turned up too; the next frame starts with a deal again."""
    from pinsetter.core.game import State
    from pinsetter.games.bowling_solitaire import Deal, deal_script

    game = get_game("bowling-solitaire", {})
    state = game.new_state(1)
    script = deal_script(Deal(pins=(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), piles=((3, 9, 1, 2, 4), (10, 5, 6), (7, 8))))
    rng = random.Random(2)

    def turn_up(state: State) -> str:
        last = ""
        while state.is_chance_node():
            step = script(state) or state.sample_chance(rng)  # the script deals the first frame only
            state.apply(step)
            last = str(step)
        return last

    last = turn_up(state)
    assert last == "7"  # pile 3's top: the last card of the deal
    assert game.table(state, ["ann"], last).chance_words == "dealt the cards"
    state.apply(game.parse_action("1:3"))  # the 3 from pile 1 on pin 3: the 9 under it is turned up
    last = turn_up(state)
    assert game.table(state, ["ann"], last).chance_words == "turned up a 9"
    state.apply(game.parse_action("stop"))  # ball 2: the tops are burned, the next cards turned up
    last = turn_up(state)
    assert game.table(state, ["ann"], last).chance_words == "turned up an 8"
    state.apply(game.parse_action("stop"))  # frame 2: a new deal
    last = turn_up(state)
    assert game.table(state, ["ann"], last).chance_words == "dealt the cards"


def test_the_track_offers_each_box_that_may_be_marked() -> None:
    """An area whose box may be marked now carries the action that marks it, so a board can be clicked."""
    game = get_game("rolling-pins", {"advanced": "true"})
    state = game.new_state(1)
    rng = random.Random(3)
    for _ in range(5000):
        if not state.is_chance_node() and any(str(a).startswith("mark ") for a in state.legal_actions()):
            break
        state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    else:
        raise AssertionError("no box to mark came up")
    view = game.table(state, ["ann"])
    marks = sorted(str(a) for a in state.legal_actions() if str(a).startswith("mark "))
    assert sorted(a.action for a in view.track if a.action) == marks
    assert all(a.open for a in view.track if a.action)
