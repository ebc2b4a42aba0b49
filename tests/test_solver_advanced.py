"""The advanced Rolling Pins solver against the slow reference (advanced_reference.py) on small games.

Each small game has its own pins, frames, grey pins and track (one to three areas,
with or without a lower row), either reading of Auto Strike, tokens on or off; the
fast solver's optimum must be the reference's to 1e-9. The reference itself is tied
to the engine by tests/test_advanced_reference.py.
"""

from __future__ import annotations

import itertools
import random

import pytest

from advanced_reference import Move, Pos, Reference, Rules
from pinsetter.games.rolling_pins import Area
from pinsetter.solvers import rolling_pins as basic
from pinsetter.solvers.rolling_pins_advanced import Evaluator, Kits, Position, Variant, solve

# name: (pins, frames, grey pins by frame, areas (ability, boxes, lower row), Auto Strike held, tokens)
SMALL_GAMES = {
    "auto strike, the rules": (2, 3, ((1,), (2,), (1,)), (("auto-strike", 1, False),), False, True),
    "auto strike held": (2, 3, ((1,), (2,), (1,)), (("auto-strike", 1, False),), True, True),
    "reroll then auto strike": (3, 2, ((1, 3), (2, 3)), (("reroll", 1, False), ("auto-strike", 1, False)), False, True),
    "ten pin, flip below, no tokens": (3, 2, ((2,), (1, 3)), (("ten-pin", 1, False), ("flip", 2, True)), False, False),
    "extra pin, lower auto strike and reroll": (
        2,
        3,
        ((1,), (2,), (1, 2)),
        (("extra-pin", 1, False), ("auto-strike", 1, True), ("reroll", 1, True)),
        True,
        True,
    ),
    "extra dice, flip, extra pin below": (
        4,
        1,
        ((1, 4),),
        (("extra-dice", 1, False), ("flip", 1, False), ("extra-pin", 1, True)),
        False,
        True,
    ),
    "two flips, extra dice, ten pin below": (
        2,
        2,
        ((1, 2), (2,)),
        (("flip", 2, False), ("extra-dice", 1, False), ("ten-pin", 1, True)),
        False,
        True,
    ),
}


Grey = tuple[tuple[int, ...], ...]
Areas = tuple[tuple[str, int, bool], ...]


def variant_of(pins: int, frames: int, grey: Grey, areas: Areas, held: bool, tokens: bool) -> Variant:
    return Variant(pins, frames, grey, tuple(Area(*a) for a in areas), held, 1 if tokens else 0)


@pytest.mark.parametrize("name", sorted(SMALL_GAMES))
def test_solver_equals_the_reference_on_small_games(name: str) -> None:
    pins, frames, grey, areas, held, tokens = SMALL_GAMES[name]
    reference = Reference(Rules(pins, frames, grey, areas, held, tokens))
    exact = reference.value(reference.start())
    assert solve(variant_of(*SMALL_GAMES[name])).expected_score == pytest.approx(exact, abs=1e-9)


def test_the_reading_of_auto_strike_can_matter() -> None:
    # Kept until a frame worth more (after a strike), one Auto Strike is worth a little more.
    now = solve(variant_of(*SMALL_GAMES["auto strike, the rules"])).expected_score
    held = solve(variant_of(*SMALL_GAMES["auto strike held"])).expected_score
    assert held > now + 1e-4


@pytest.mark.parametrize(("pins", "frames", "tokens"), [(3, 2, True), (4, 2, False), (3, 3, True)])
def test_abilities_never_lose_points_and_unreachable_ones_change_nothing(pins: int, frames: int, tokens: bool) -> None:
    gain = 1 if tokens else 0
    plain = basic.solve(pins, frames, gain).expected_score
    grey = tuple((1, pins) for _ in range(frames))
    rich = Variant(pins, frames, grey, (Area("reroll", 1, False), Area("flip", 1, False)), False, gain)
    assert solve(rich).expected_score > plain + 1e-6  # every basic strategy is playable, and abilities help
    # Two marks a frame at most: an area of three boxes in a one-frame game completes only with the
    # last ball's strike, too late to use. The advanced game is then the basic game.
    late = Variant(pins, 1, grey[:1], (Area("reroll", 3, False),), False, gain)
    assert solve(late).expected_score == pytest.approx(basic.solve(pins, 1, gain).expected_score, abs=1e-12)


def test_kits_number_uses_before_and_marks_after() -> None:
    kits = Variant().kits
    assert (kits.count, len(kits.tracks)) == (9327, 431)
    ids = range(kits.count)
    assert all(kits.use[k, a] < k for k in ids for a in range(5) if kits.use[k, a] >= 0)
    assert all(s > k for k in ids for s in kits.succ[k] if s >= 0)
    assert all(kits.marks(int(s)) == kits.marks(k) + 1 for k in ids for s in kits.succ[k] if s >= 0)
    # The lower row opens only once the upper row is full.
    lower = [i for i, a in enumerate(kits.areas) if a.lower]
    assert all(sum(t[i] for i in lower) == 0 or sum(t) >= 10 for t in kits.tracks)
    assert isinstance(Kits.of(kits.areas), Kits)


# --- every option's value at every position, against the reference ---------------------------


def solver_position(variant: Variant, p: Pos) -> Position:
    """The reference's position in the solver's terms."""
    kit = variant.kits.index(p.marks, p.held)
    last = p.frame == variant.frames
    return Position(
        frame=p.frame,
        ball=p.ball,
        fresh=p.fresh,
        first_strike=last and p.ball == 2 and p.fresh,
        w1=p.w1,
        w2=p.w2,
        standing=p.standing,
        tokens=p.tokens,
        kit=kit,
        extra_dice=p.extra_dice,
        pending=p.pending,
        phase=p.phase,
        dice_count=p.count,
        dice=p.dice,
        kept=p.kept,
    )


@pytest.mark.parametrize(
    "name",
    [
        "two flips, extra dice, ten pin below",
        "extra pin, lower auto strike and reroll",
        "auto strike held",
        "extra dice, flip, extra pin below",
    ],
)
def test_every_option_is_valued_as_the_reference_values_it(name: str) -> None:
    pins, frames, grey, areas, held, tokens = SMALL_GAMES[name]
    reference = Reference(Rules(pins, frames, grey, areas, held, tokens))
    variant = variant_of(*SMALL_GAMES[name])
    evaluator = Evaluator(solve(variant, every_kit=True))
    rng = random.Random(7)
    # Half the games start with every area complete and its abilities held, so that each is met.
    start = reference.start()
    held = [0] * 5
    for ability, _, _ in areas:
        if ability != "ten-pin":
            held[["reroll", "flip", "extra-pin", "extra-dice", "auto-strike"].index(ability)] += 1
    stocked = start._replace(
        marks=tuple(boxes for _, boxes, _ in areas), held=tuple(held), ten=any(a == "ten-pin" for a, _, _ in areas)
    )

    def check(p: Pos) -> list[Move]:
        moves = reference.actions(p)
        exact = [points + reference.value(after) for points, after in (reference.apply(p, mv) for mv in moves)]
        here = solver_position(variant, p)
        assert evaluator.values(here, moves) == pytest.approx(exact, abs=1e-9), (p, moves)
        if p.phase == "choose":
            assert evaluator.position_value(here) == pytest.approx(reference.value(p), abs=1e-9)
        return moves

    # Every first roll of the stocked game (Ten Pin, Flip, Reroll and keeping are all met there) ...
    for extra in (False, True) if held[3] else (False,):
        spent = (*held[:3], held[3] - extra, held[4])  # Extra Dice active: one was used
        for count in (1, 2):
            rolling = stocked._replace(phase="rolling", count=count, extra_dice=extra, held=spent)
            for dice in itertools.product(range(1, 7), repeat=reference.dice_in_air(rolling)):
                check(reference.land(rolling, dice))
    # ... then random games, half of them stocked.
    for game in range(6):
        p: Pos | None = start if game % 2 else stocked
        while p is not None:
            if p.phase == "rolling" and not p.pending:
                dice = tuple(rng.randint(1, 6) for _ in range(reference.dice_in_air(p)))
                p = reference.land(p, dice)
                continue
            moves = check(p)
            special = [mv for mv in moves if mv[0] not in ("dice", "cross", "miss", "pass")]
            _, p = reference.apply(p, rng.choice(special if special and rng.random() < 0.7 else moves))
