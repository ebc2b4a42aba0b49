"""The slow reference for advanced Rolling Pins (advanced_reference.py) is the engine's game.

Move by move: along random games of the engine (every frame, both readings of Auto
Strike, sheets that start near completed areas), every position's legal moves, every
move's result and points, and every roll's outcomes are the reference's. Value by
value: from late positions of a one-frame game, an expectimax through the engine itself
gives the reference's expected final score.
"""

from __future__ import annotations

import random

import pytest

from advanced_reference import ABILITY_NAMES, CHOOSE, ROLLED, ROLLING, Pos, Reference, Rules
from pinsetter.core.dice import DiceRoll
from pinsetter.core.game import State
from pinsetter.core.scoring import bonus_weights
from pinsetter.games.registry import get_game
from pinsetter.games.rolling_pins import Action, RollingPins, RollingPinsState


def rules_of(game: RollingPins) -> Rules:
    sheet = game.sheet
    return Rules(
        pins=10,
        frames=game.lane.frames,
        grey=sheet.grey,
        areas=tuple((a.ability, a.boxes, a.lower) for a in sheet.areas),
        auto_held=game.auto_strike_held,
        tokens=bool(game.options["tokens"]),
    )


def position(state: RollingPinsState) -> Pos | None:
    """The engine's position in the reference's terms (None once the game is over)."""
    ctx = state.ball_context(0)
    if ctx is None:
        return None
    p = state.players[0]
    _, w1, w2, _ = bonus_weights(state.pinfalls[0], state.game.lane)
    phase = p.phase
    # The rack's first roll: none made yet, or the one being answered (a Reroll replaces it).
    first = p.rolls_on_rack == 0 if phase in (CHOOSE, ROLLING) else phase == ROLLED and p.rolls_on_rack == 1
    rolled = phase == ROLLED
    return Pos(
        frame=ctx.frame,
        ball=ctx.ball,
        fresh=ctx.fresh_rack,
        bonus=p.bonus_rack,
        w1=w1,
        w2=w2,
        standing=p.standing,
        first=first,
        phase=phase,
        count=p.dice_count if phase in (ROLLING, ROLLED) else 0,
        dice=p.dice if rolled else (),
        kept=p.kept if rolled else True,
        flipped=p.flipped if rolled else False,
        tokens=p.tokens,
        marks=tuple(p.marks),
        held=tuple(p.held.get(a, 0) for a in ABILITY_NAMES),
        ten=p.ten_pin,
        extra_dice=p.extra_dice,
        pending=p.pending_marks,
    )


def banked(state: RollingPinsState) -> int:
    """Points certain so far: finished balls with their bonuses, and this ball's pins."""
    earned, w1, w2, _ = bonus_weights(state.pinfalls[0], state.game.lane)
    ctx = state.ball_context(0)
    if ctx is None:
        return earned
    multiplier = {1: 1 + w1, 2: 1 + w2}.get(ctx.ball, 1)
    return earned + multiplier * state.players[0].crossed


def move(action: object) -> tuple[str, tuple[int, ...], int]:
    assert isinstance(action, Action)
    return action.kind, action.args, action.tokens


def new_game(options: dict[str, str], **sheet: object) -> RollingPinsState:
    """A one-player advanced game; `sheet` presets the player's marks, abilities or Ten Pin."""
    state = get_game("rolling-pins", {"advanced": "true", **options}).new_state(1)
    assert isinstance(state, RollingPinsState)
    player = state.players[0]
    if "marks" in sheet:
        player.marks = list(sheet["marks"])  # type: ignore[call-overload]
    if "held" in sheet:
        player.held = dict(sheet["held"])  # type: ignore[call-overload]
    player.ten_pin = bool(sheet.get("ten_pin", False))
    return state


def check_position(ref: Reference, state: RollingPinsState) -> None:
    """Every legal move and roll of the engine, with its result and points, is the reference's."""
    here = position(state)
    assert here is not None
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert {o.faces: p for o, p in outcomes if isinstance(o, DiceRoll)} == dict(ref.outcomes(here))
        for outcome, _ in outcomes:
            assert isinstance(outcome, DiceRoll)
            assert position(child(state, outcome)) == ref.land(here, outcome.faces)
        return
    actions = state.legal_actions()
    assert sorted(move(a) for a in actions) == sorted(ref.actions(here)), state.describe()
    for action in actions:
        after = child(state, action)
        points, expected = ref.apply(here, move(action))
        assert position(after) == expected, (action, state.describe())
        assert banked(after) - banked(state) == points, (action, state.describe())


def child(state: RollingPinsState, step: object) -> RollingPinsState:
    after = state.child(step)  # type: ignore[arg-type]
    assert isinstance(after, RollingPinsState)
    return after


def pick(state: RollingPinsState, rng: random.Random) -> object:
    """A random move, often an ability or a mark when one is offered, so that the sheet fills."""
    if state.is_chance_node():
        return state.sample_chance(rng)
    actions = state.legal_actions()
    special = [a for a in actions if isinstance(a, Action) and a.kind not in ("cross", "miss", "dice", "pass")]
    if special and rng.random() < 0.6:
        return rng.choice(special)
    crosses = [a for a in actions if isinstance(a, Action) and a.kind == "cross"]
    if crosses and rng.random() < 0.85:
        return max(crosses, key=lambda a: (len(a.args), rng.random()))  # mostly many pins: strikes happen
    return rng.choice(actions)


NEAR_COMPLETE = [0, 1, 1, 1, 2, 0, 0, 0, 0, 0]  # one mark completes Reroll, Flip, Extra Pin, Extra Dice or Ten Pin
UPPER_FULL = [1, 2, 2, 2, 3, 0, 1, 1, 1, 2]  # the lower row open, each lower area one mark from done


@pytest.mark.parametrize(
    ("options", "sheet", "seed"),
    [
        ({}, {}, 1),
        ({}, {"marks": NEAR_COMPLETE}, 2),
        ({}, {"marks": UPPER_FULL, "ten_pin": True}, 3),
        ({"auto_strike": "held"}, {"marks": UPPER_FULL, "ten_pin": True}, 4),
        ({"auto_strike": "held"}, {"held": {a: 2 for a in ABILITY_NAMES}, "ten_pin": True}, 5),
        ({}, {"held": {"reroll": 2, "flip": 2, "extra-pin": 2, "extra-dice": 2}, "ten_pin": True}, 6),
        ({"frames": "1"}, {"marks": UPPER_FULL, "ten_pin": True, "held": {"extra-pin": 1}}, 7),
        ({"frames": "2", "tokens": "false"}, {"marks": NEAR_COMPLETE}, 8),
    ],
)
def test_reference_moves_are_the_engines(options: dict[str, str], sheet: dict[str, object], seed: int) -> None:
    rng = random.Random(seed)
    for _game in range(3):
        state = new_game(options, **sheet)
        ref = Reference(rules_of(state.game))
        while position(state) is not None:
            check_position(ref, state)
            state = child(state, pick(state, rng))
        assert not state.legal_actions() or all(move(a)[0] == "mark" for a in state.legal_actions())


# --- values: an expectimax through the engine from late positions -----------------------------------


def engine_value(state: State) -> float:
    """The best expected final score, searched through the engine itself."""
    memo: dict[object, float] = {}

    def value(s: State) -> float:
        if s.is_terminal():
            return float(s.scores()[0])
        key = s.key()
        if key not in memo:
            if s.is_chance_node():
                memo[key] = sum(float(p) * value(s.child(o)) for o, p in s.chance_outcomes())
            else:
                memo[key] = max(value(s.child(a)) for a in s.legal_actions())
        return memo[key]

    return value(state)


def play(options: dict[str, str], steps: list[str]) -> RollingPinsState:
    state = new_game(options)
    for text in steps:
        state.apply_text(text)
    return state


# A strike in one ball: ten rolls, each crossing one pin (10 down to 1).
STRIKE = [
    *[s for total in range(10, 2, -1) for s in ("dice 2", f"{total - total // 2}+{total // 2}", f"cross {total}")],
    *["dice 1", "2", "cross 2", "dice 1", "1", "cross 1"],
]


def cross_down_to(keep: list[int]) -> list[str]:
    """Ball steps that cross every pin but `keep`, one pin a roll, then miss."""
    steps = []
    for pin in range(10, 0, -1):
        if pin not in keep:
            steps += ["dice 1", str(pin), f"cross {pin}"] if pin <= 6 else ["dice 2", f"6+{pin - 6}", f"cross {pin}"]
    return [*steps, "dice 2", "6+6", "miss"]


def bonus_ball_three(keep: list[int], tokens: int, held: dict[str, int], ten_pin: bool = False) -> RollingPinsState:
    """A one-frame game at its last ball: a strike (marking Flip), then a bonus ball that left `keep` standing."""
    state = play({"frames": "1"}, [*STRIKE, "mark 2", *cross_down_to(keep)])
    player = state.players[0]
    player.tokens, player.held, player.ten_pin = tokens, dict(held), ten_pin
    return state


@pytest.mark.parametrize(
    ("keep", "tokens", "held"),
    [
        ([1, 2, 3], 2, {"reroll": 1, "flip": 1}),
        ([2, 4, 9], 1, {"extra-dice": 1, "extra-pin": 1}),
        ([1, 6], 1, {"flip": 2, "extra-dice": 1}),
        ([3, 5, 7, 8], 0, {"reroll": 2, "extra-pin": 1}),
    ],
)
def test_reference_values_the_last_ball_as_the_engine(keep: list[int], tokens: int, held: dict[str, int]) -> None:
    state = bonus_ball_three(keep, tokens, held)
    ref = Reference(rules_of(state.game))
    here = position(state)
    assert here is not None and here.ball == 3 and not here.fresh
    assert engine_value(state) == pytest.approx(banked(state) + ref.value(here), abs=1e-9)


def test_reference_values_grey_pins_and_marks_as_the_engine() -> None:
    # Frame 1 of a one-frame game is the last; its grey pins are 7 and 10. Ball 1 crosses all
    # but 3, 7 and 10 and spends the frame's token. In ball 2 a grey pin crossed marks a box,
    # and Reroll (one box) may come of it for the rest of the ball. A spare leads to the bonus
    # ball on a fresh rack, valued there by the reference (the engine searches all before it).
    state = play({"frames": "1"}, ["dice 1", "5", "cross 6 tokens +1", *cross_down_to([3, 6, 7, 10])])
    here = position(state)
    assert here is not None and (here.ball, here.standing, here.tokens) == (2, 0b1001000100, 0)
    ref = Reference(rules_of(state.game))

    memo: dict[object, float] = {}

    def value(s: RollingPinsState) -> float:
        if s.is_terminal():
            return float(s.scores()[0])
        p = position(s)
        if p is not None and p.fresh and p.standing == (1 << 10) - 1 and p.phase == CHOOSE and not p.pending:
            return banked(s) + ref.value(p)  # the bonus ball: the reference's value
        key = s.key()
        if key not in memo:
            if s.is_chance_node():
                memo[key] = sum(float(pr) * value(child(s, o)) for o, pr in s.chance_outcomes())
            else:
                memo[key] = max(value(child(s, a)) for a in s.legal_actions())
        return memo[key]

    assert value(state) == pytest.approx(banked(state) + ref.value(here), abs=1e-9)
