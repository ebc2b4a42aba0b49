"""The advanced Rolling Pins solver against the slow reference (advanced_reference.py) on small games.

Each small game has its own pins, frames, grey pins and track (one to three areas,
with or without a lower row), either reading of Auto Strike, tokens on or off; the
fast solver's optimum must be the reference's to 1e-9. The reference itself is tied
to the engine by tests/test_advanced_reference.py.
"""

from __future__ import annotations

import pytest

from advanced_reference import Reference, Rules
from pinsetter.games.rolling_pins import Area
from pinsetter.solvers import rolling_pins as basic
from pinsetter.solvers.rolling_pins_advanced import Kits, Variant, solve

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
