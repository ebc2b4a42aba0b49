"""Bowling Solitaire: the rules hand-worked, perft counts, views, and the expectimax."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pinsetter.bots.base import make_bot
from pinsetter.core.game import IllegalActionError, ParseError, State
from pinsetter.games.bowling_solitaire import (
    ADJACENT,
    STOP,
    Action,
    BowlingSolitaire,
    Deal,
    DealError,
    SolitaireState,
    deal_script,
    groups,
)
from pinsetter.solvers.solitaire import PINS_OBJECTIVE, STRIKE_OBJECTIVE, Evaluator, Objective, Position
from pinsetter.solvers.solitaire_perft import perft

DATA = json.loads((Path(__file__).parent / "data" / "solitaire_perft.json").read_text())
DEAL_0 = "pins=6,10,9,8,1,9,6,2,2,5;piles=3,4,3,10,4|8,5,1|7,7"


def dealt(deal: str, rule: str = "connected", frames: int = 10) -> SolitaireState:
    """A game whose first deal is `deal`, with its pins and tops turned up."""
    state = BowlingSolitaire({"groups": rule, "frames": frames}).new_state()
    script = deal_script(Deal.parse(deal))
    advance(state, script)
    return state


def advance(state: SolitaireState, script: object) -> None:
    while state.is_chance_node():
        step = script(state)  # type: ignore[operator]
        if step is None:
            step = state.sample_chance(random.Random(len(state.pinfalls[0])))
        state.apply(step)


def test_rule_tables() -> None:
    for a, near in ADJACENT.items():
        assert all(a in ADJACENT[b] for b in near)
    assert len(groups("connected")) == 10 + 18 + 36  # singles, touching pairs, connected triples
    assert len(groups("mutual")) == 10 + 18 + 9  # ... and the nine small triangles


def test_first_plays_worked_by_hand() -> None:
    # Tops 3, 8, 7. Pile 1 (3): nothing. Pile 2 (8): pin 4 (an 8), 2+4 = 18, 3+6 = 18,
    # 2+3+6 = 28, 3+4+5 = 18 (5 with 3). Pile 3 (7): 1+2+5 = 17, 2+3+4 = 27.
    state = dealt(DEAL_0)
    plays = {str(a) for a in state.legal_actions()}
    assert plays == {"2:4", "2:2+4", "2:3+6", "2:2+3+6", "2:3+4+5", "3:1+2+5", "3:2+3+4", "stop"}
    mutual = {str(a) for a in dealt(DEAL_0, "mutual").legal_actions()}
    assert mutual == {"2:4", "2:2+4", "2:3+6", "stop"}  # 3-4, 1-5 and 2-6 do not touch


def test_first_play_restrictions() -> None:
    # Pin 5 is a 5 and pile 1 shows a 5, but the centre pin may not go alone on the first play;
    # pin 10 is a 10 on the back row and pile 3 shows a 10.
    state = dealt("pins=9,8,7,6,5,4,3,2,1,10;piles=5,1,2,3,4|6,7,8|10,9")
    plays = {str(a) for a in state.legal_actions()}
    assert "1:5" not in plays and "3:10" not in plays
    assert "1:2+3" in plays  # 8 + 7 = 15 ends in 5
    with pytest.raises(IllegalActionError, match="first play"):
        state.apply_text("1:5")
    with pytest.raises(IllegalActionError, match="first play"):
        state.apply_text("3:10")


def test_chain_restriction_and_value_rules() -> None:
    state = dealt("pins=9,8,7,6,5,4,3,2,1,10;piles=5,1,2,3,4|6,7,8|10,9")
    state.apply_text("2:4")  # pin 4 is a 6
    advance(state, deal_script(Deal.parse("pins=9,8,7,6,5,4,3,2,1,10;piles=5,1,2,3,4|6,7,8|10,9")))
    plays = {str(a) for a in state.legal_actions()}
    assert "1:5" in plays  # the centre pin touches the cleared 4: now it may go alone
    assert "3:10" not in plays  # pin 10 touches only 6 and 9, both standing
    with pytest.raises(IllegalActionError, match="touch a cleared position"):
        state.apply_text("2:3+6")  # 7 + 4 = 11 would match pile 2's 7, but neither touches 4
    with pytest.raises(IllegalActionError, match="do not match"):
        state.apply_text("1:2")
    with pytest.raises(IllegalActionError, match="not standing"):
        state.apply_text("2:4")
    with pytest.raises(IllegalActionError, match="not a connected group"):
        state.apply_text("1:1+10")


def test_a_ten_takes_a_group_summing_to_twenty_and_a_lone_ten() -> None:
    deal = "pins=4,7,9,1,2,3,5,6,8,10;piles=10,1,2,3,5|6,8,4|7,9"
    state = dealt(deal)
    assert Action("play", 1, (1, 2, 3)) in state.legal_actions()  # 4 + 7 + 9 = 20 ends in 0
    # Later, a lone 10 pin (position 10) is taken by a 10 once 6 or 9 is cleared.
    state.table.standing = 1 << 9
    state.table.tops = [10, 0, 0]
    assert [str(a) for a in state.legal_actions()] == ["1:10", "stop"]


def test_stop_burns_every_top_and_ball_two_goes_on() -> None:
    deal = Deal.parse(DEAL_0)
    state = dealt(DEAL_0)
    state.apply_text("2:4")
    advance(state, deal_script(deal))
    assert state.table.tops == [3, 5, 7]
    state.apply(STOP)
    advance(state, deal_script(deal))
    assert state.pinfalls[0] == [1]
    assert state.table.ball == 2
    assert state.table.tops == [4, 1, 7]  # piles 1, 2, 3 burned 3, 5, 7 and turned up 4, 1, 7
    assert state.table.remaining == [4, 1, 1]


def test_a_ball_without_a_legal_play_ends_by_itself() -> None:
    # Deal 326: no first play at all; ball 1 ends with 0 at once, not as a decision.
    state = dealt("pins=6,10,9,5,10,4,1,2,3,3;piles=7,7,6,9,4|8,1,5|8,2")
    assert state.pinfalls[0] == [0]
    assert state.table.ball == 2


def test_strike_spare_and_the_tenth_frame_bonus_deals() -> None:
    rng = random.Random(3)
    strikes = spares = 0
    bot = make_bot("greedy", BowlingSolitaire({"frames": 1}))
    for _ in range(400):
        state = BowlingSolitaire({"frames": 1}).new_state()
        deals_seen = []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
            else:
                deals_seen.append(state.deals)
                state.apply(bot.choose(state, rng))
        balls = state.pinfalls[0]
        if balls[0] == 10:
            strikes += 1
            assert len(balls) == 3  # two bonus balls on fresh deals
            assert state.deals == (3 if balls[1] == 10 else 2)
        elif balls[0] + balls[1] == 10:
            spares += 1
            assert len(balls) == 3 and state.deals == 2  # one bonus ball: ball 1 of a fresh deal
        else:
            assert len(balls) == 2 and state.deals == 1
    assert strikes and spares


def test_views_never_show_a_face_down_card() -> None:
    rng = random.Random(5)
    game = BowlingSolitaire({})
    for _ in range(20):
        state = game.new_state()
        while not state.is_terminal():
            view = state.view(0)
            shown = [v for v in view["pins"].values() if v] + [p["top"] for p in view["piles"] if p["top"]]
            for value in set(shown):
                assert shown.count(value) <= view["seen"].count(value)
            assert sum(p["cards"] for p in view["piles"]) <= 10
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("row", DATA["deals"], ids=[r["label"][:40] for r in DATA["deals"]])
def test_perft_counts(row: dict) -> None:  # type: ignore[type-arg]
    deal = Deal.parse(row["deal"])
    for rule in ("connected", "mutual"):
        assert perft(deal, rule).to_dict() == row[rule]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("pins=1,2,3;piles=1|2|3", "10 pins"),
        ("pins=1,2,3,4,5,6,7,8,9,10;piles=1,2,3,4|5,6,7|8,9", "5, 3 and 2"),
        ("pins=1,1,1,4,5,6,7,8,9,10;piles=2,2,3,3,4|5,6,7|8,9", "value 1 is used 3 times"),
        ("pins=0,2,3,4,5,6,7,8,9,10;piles=1,2,3,4,5|6,7,8|9,10", "card 0"),
        ("pins=a;piles=b", "numbers"),
        ("piles only", "a deal reads"),
    ],
)
def test_bad_deals(text: str, message: str) -> None:
    with pytest.raises(DealError, match=message):
        Deal.parse(text)


def test_text_forms() -> None:
    for text in ("3:4+5+8", "1:10", "stop"):
        assert str(Action.parse(text)) == text
    for bad in ("4:1", "1:", "1:2+2", "1:11", "go"):
        with pytest.raises(ParseError):
            Action.parse(bad)
    deal = Deal.random(random.Random(1))
    assert Deal.parse(str(deal)) == deal


def test_pin_ten_typed_by_its_key_zero_is_pin_ten() -> None:
    """The board keys pin 10 with 0 (one key a pin): a play typed with it is the play on pin 10, written so."""
    assert Action.parse("2:0") == Action.parse("2:10") == Action("play", 2, (10,))
    assert str(Action.parse("3:0+6+9")) == "3:6+9+10"
    with pytest.raises(ParseError):
        Action.parse("1:0+10")  # the same pin twice


# --- the expectimax against a plain search through the engine ---------------------------


def engine_value(state: SolitaireState, objective: Objective) -> float:
    """Value to go of a deal position by expectimax through the engine (no memo tricks)."""
    deals, done = state.deals, len(state.pinfalls[0])

    def value(s: State) -> float:
        assert isinstance(s, SolitaireState)
        if s.deals != deals or s.is_terminal():
            balls = s.pinfalls[0][done:]
            return frame_value(balls)
        if s.is_chance_node():
            return sum(float(p) * value(s.child(o)) for o, p in s.chance_outcomes())
        return max(value(s.child(a)) for a in s.legal_actions())

    def frame_value(balls: list[int]) -> float:
        first_ball = state.table.ball == 1
        b1 = balls[0] if first_ball and balls else 0
        b2 = balls[1] if first_ball and len(balls) > 1 else (balls[0] if not first_ball and balls else 0)
        earned = state.crossed
        total = (
            objective.ball1 * b1 + objective.ball2 * b2 - (objective.ball1 if first_ball else objective.ball2) * earned
        )
        start_pins = state.pinfalls[0][-1] if not first_ball else 0
        if first_ball and b1 == 10:
            return total + objective.strike
        if (first_ball and b1 + b2 == 10) or (not first_ball and start_pins + b2 == 10):
            return total + objective.spare
        return total + objective.open

    return value(state)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("objective", [PINS_OBJECTIVE, STRIKE_OBJECTIVE, Objective(2.0, 1.0, 9.5, 7.7, 0.5)])
def test_expectimax_equals_engine_search_late_in_a_deal(seed: int, objective: Objective) -> None:
    game = BowlingSolitaire({"groups": "connected" if seed % 2 else "mutual", "frames": 2})
    state = late_position(game, seed, ball=1 if seed < 3 else 2)
    evaluator = Evaluator(tuple(state.table.pins), game.rule, objective)
    fast = evaluator.value(Position.from_table(state.table))
    slow = engine_value(state, objective)
    assert fast == pytest.approx(slow, abs=1e-9)


def late_position(game: BowlingSolitaire, seed: int, ball: int) -> SolitaireState:
    """A decision in `ball` of the first deal with few pile cards left (the first a seed reaches)."""
    for attempt in range(1000):
        rng = random.Random(seed * 1000 + attempt)
        state = game.new_state()
        while not state.pinfalls[0] or (state.table.ball == 2 and len(state.pinfalls[0]) == 1):
            while state.is_chance_node():
                state.apply(state.sample_chance(rng))
            if state.deals > 1 or state.is_chance_node():
                break
            if (
                state.table.ball == ball
                and sum(state.table.remaining) <= 10 - 2 * ball
                and len(state.legal_actions()) > 2
            ):
                return state
            plays = [a for a in state.legal_actions() if a != STOP]
            stop = not plays or (ball == 2 and rng.random() < 0.3)
            state.apply(STOP if stop else rng.choice(plays))
    raise AssertionError("no late position found")  # pragma: no cover


def test_the_expectimax_refuses_a_deal_no_deck_can_make() -> None:
    """Ten pins of value 1 (the deck has two): the count of unseen 1s went negative, never reached 0,
    and the search ran away (tens of millions of positions, a value above 10 pins); now it is refused."""
    with pytest.raises(ValueError, match="no deal has the pins"):
        Evaluator((1,) * 10, "connected", PINS_OBJECTIVE)
    with pytest.raises(ValueError, match="no deal has the pins"):
        Evaluator((1, 1, 2, 2, 3, 3, 4, 4, 5, 11), "connected", PINS_OBJECTIVE)
    pins = (1, 1, 2, 2, 3, 3, 4, 4, 5, 5)  # a deal's pins; the piles hold 6-10 twice
    evaluator = Evaluator(pins, "connected", PINS_OBJECTIVE)
    seen_a_third_one = (0, 1, *(0,) * 9)
    with pytest.raises(ValueError, match="value 1: too many"):
        evaluator.value(Position(pins, 1023, 1, (5, 3, 2), (6, 7, 8), seen_a_third_one))
    # Ball 2, pins 4-10 standing (values 2 3 3 4 4 5 5), a last card, a 6, on pile 1: two pins is the best.
    late = Position(pins, 0b1111111000, 2, (1, 0, 0), (6, 0, 0), (0,) * 6 + (1, 0, 0, 0, 0))
    assert evaluator.value(late) == 2.0
