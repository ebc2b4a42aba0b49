"""The references scores are measured against, shared by statistics and the end of a game."""

from __future__ import annotations

import pytest

from pinsetter.solvers.reference import reference


def test_exact_distribution_reference() -> None:
    ref = reference("tenpins")
    assert ref is not None and ref.exact and ref.distribution is not None
    assert ref.mean == pytest.approx(74.47916666666669, abs=1e-9)
    assert ref.beats(0) == 0.0
    assert ref.beats(301) == pytest.approx(1.0, abs=1e-12)
    assert ref.beats(73.2) == pytest.approx(ref.distribution.cdf(73))  # scores 0..73 are below 73.2
    assert reference("tenpins", {"frames": 10}) is ref  # computed once per game and options


def test_optimal_player_reference_follows_the_options() -> None:
    with_tokens, without = reference("rolling-pins"), reference("rolling-pins", {"tokens": False})
    assert with_tokens is not None and without is not None
    assert with_tokens.mean == pytest.approx(145.14355201492685, abs=1e-9)
    assert without.mean == pytest.approx(89.01846055915482, abs=1e-9)
    assert with_tokens.beats(150) is None
    assert reference("rolling-pins", {"advanced": True}) is None


def test_measured_reference_is_not_exact() -> None:
    ref = reference("bowling-solitaire")
    assert ref is not None and not ref.exact and ref.against == "Expert bot"
