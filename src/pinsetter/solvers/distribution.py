"""Exact final-score distributions of the pure-chance games.

Frames are independent, so the game is a chain: a dynamic programme over
frames whose state is the score so far and the pending bonus weights (how many
earlier strikes and spares still collect the next ball and the one after).
Every probability is exact: each frame's is a fraction, and the chain adds and
multiplies whole numerators over one common denominator, so the figures printed
as floats are the exact values correctly rounded.
"""

from __future__ import annotations

import bisect
import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Context, Decimal
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from pinsetter.core.scoring import Lane
from pinsetter.games.pure_chance import BallModel, PureChanceGame, frame_distribution

__all__ = ["ScoreDistribution", "analyze", "score_distribution"]

FloatArray = npt.NDArray[np.float64]

# Pending bonus weights entering a frame: (weight on its first ball, on its second ball).
PENDING = ((0, 0), (1, 0), (1, 1), (2, 1))


def score_distribution(frames: list[dict[tuple[int, ...], Fraction]], lane: Lane) -> tuple[list[int], int]:
    """P(final score = s) for s in 0..max, as whole numerators over one denominator, exactly.

    Each frame's probabilities are written over their least common denominator, so the chain
    multiplies and adds Python integers (in numpy object arrays): exact, and far faster than
    fractions, which would reduce every sum.
    """
    size = lane.max_score + 1
    zeros = [0] * size
    state = {pending: np.array(zeros, dtype=object) for pending in PENDING}
    state[(0, 0)][0] = 1
    denominator = 1
    pins = lane.pins
    for number, dist in enumerate(frames, start=1):
        last = number == lane.frames
        common = math.lcm(*(p.denominator for p in dist.values()))
        denominator *= common
        new = {pending: np.array(zeros, dtype=object) for pending in PENDING}
        for (w1, w2), arr in state.items():
            if not arr.any():
                continue
            for balls, p in dist.items():
                weight = p.numerator * (common // p.denominator)
                first = balls[0]
                second = balls[1] if len(balls) > 1 else 0
                if last:
                    gain = sum(balls) + w1 * first + w2 * second
                    after = (0, 0)
                elif first == pins:
                    gain = first * (1 + w1)
                    after = (w2 + 1, 1)
                else:
                    gain = first * (1 + w1) + second * (1 + w2)
                    after = (1, 0) if first + second == pins else (0, 0)
                target = new[after]
                target[gain:] += weight * arr[: size - gain]
        state = new
    total = sum(state.values(), np.array(zeros, dtype=object))
    return [int(n) for n in total], denominator


@dataclass(frozen=True)
class ScoreDistribution:
    """One player's exact final-score distribution and what follows from it.

    `numerators[s] / denominator` is P(final score = s) exactly; the float figures are
    those exact values rounded once.
    """

    game: str
    numerators: tuple[int, ...]
    denominator: int
    strike: Fraction
    spare: Fraction

    @cached_property
    def exact(self) -> tuple[Fraction, ...]:
        return tuple(Fraction(n, self.denominator) for n in self.numerators)

    @cached_property
    def probabilities(self) -> FloatArray:
        return np.array([float(p) for p in self.exact], dtype=np.float64)

    @property
    def strike_rate(self) -> float:
        return float(self.strike)

    @property
    def spare_rate(self) -> float:
        return float(self.spare)

    @cached_property
    def exact_mean(self) -> Fraction:
        return Fraction(sum(s * n for s, n in enumerate(self.numerators)), self.denominator)

    @cached_property
    def exact_variance(self) -> Fraction:
        square = Fraction(sum(s * s * n for s, n in enumerate(self.numerators)), self.denominator)
        return square - self.exact_mean**2

    @property
    def mean(self) -> float:
        return float(self.exact_mean)

    @property
    def std(self) -> float:
        """The square root of the exact variance, correctly rounded (taken to 40 digits first)."""
        context = Context(prec=40)
        variance = context.divide(Decimal(self.exact_variance.numerator), Decimal(self.exact_variance.denominator))
        return float(variance.sqrt(context))

    @cached_property
    def _cumulative(self) -> list[int]:
        """Numerators of P(score <= s)."""
        return list(np.cumsum(np.array(self.numerators, dtype=object)))

    def quantile(self, q: float) -> int:
        """The smallest score s with P(score <= s) >= q, exactly (`q` as written: 0.1 is 1/10)."""
        wanted = Fraction(str(q)) * self.denominator
        return bisect.bisect_left(self._cumulative, wanted)

    def cdf(self, score: int) -> float:
        """P(final score <= score)."""
        if score < 0:
            return 0.0
        return float(Fraction(self._cumulative[min(score, len(self.numerators) - 1)], self.denominator))

    def exact_win_tie(self, players: int) -> tuple[Fraction, Fraction]:
        """P(a given player wins outright), P(two or more share the top), among iid players, exactly.

        Over the common denominator D: a player wins at s with n_s * B_s^(N-1) / D^N (B_s: the
        numerators below s), and the top score is s with two or more there with
        ((B_s + n_s)^N - B_s^N - N n_s B_s^(N-1)) / D^N; whole numbers, so no digit is lost
        to a subtraction as in 1 - N * win.
        """
        win = tie = below = 0
        for n in self.numerators:
            if n:
                win += n * below ** (players - 1)
                tie += (below + n) ** players - below**players - players * n * below ** (players - 1)
            below += n
        scale = self.denominator**players
        return Fraction(win, scale), Fraction(tie, scale)

    def win_tie(self, players: int) -> tuple[float, float]:
        """`exact_win_tie`, rounded."""
        win, tie = self.exact_win_tie(players)
        return float(win), float(tie)

    def to_dict(self, players: int = 1, exact: bool = False) -> dict[str, Any]:
        """The figures as floats; with `exact`, also each as a fraction's text (`"3575/48"`) under `exact`."""
        data: dict[str, Any] = {
            "game": self.game,
            "mean": self.mean,
            "std": self.std,
            "median": self.quantile(0.5),
            "p300": float(self.exact[-1]),
            "percentiles": {str(q): self.quantile(q / 100) for q in (10, 25, 75, 90)},
            "strike_rate": self.strike_rate,
            "spare_rate": self.spare_rate,
        }
        fractions = {
            "mean": self.exact_mean,
            "variance": self.exact_variance,
            "p300": self.exact[-1],
            "strike_rate": self.strike,
            "spare_rate": self.spare,
        }
        if players > 1:
            win, tie = self.exact_win_tie(players)
            data["players"] = players
            data["win_probability"] = float(win)
            data["tie_probability"] = float(tie)
            fractions |= {"win_probability": win, "tie_probability": tie}
        data["distribution"] = {str(s): float(p) for s, p in enumerate(self.exact)}
        if exact:
            with _long_numbers():
                data["exact"] = {key: str(value) for key, value in fractions.items()}
                data["exact"]["distribution"] = {str(s): str(p) for s, p in enumerate(self.exact)}
        return data


@contextmanager
def _long_numbers() -> Iterator[None]:
    """Python writes integers of at most 4,300 digits by default; N players' exact odds are over D^N."""
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(before)


def analyze(game: PureChanceGame) -> ScoreDistribution:
    """The exact distribution of one player's final score in a pure-chance game."""
    model: BallModel[Any] = game.ball_model()
    lane = game.lane
    middle = frame_distribution(model, 1, lane) if lane.frames > 1 else {}
    last = frame_distribution(model, lane.frames, lane)
    frames = [middle] * (lane.frames - 1) + [last]
    numerators, denominator = score_distribution(frames, lane)
    first = middle or last
    strike = sum((p for balls, p in first.items() if balls[0] == lane.pins), Fraction(0))
    spare = sum(
        (
            p
            for balls, p in first.items()
            if balls[0] < lane.pins and len(balls) > 1 and balls[0] + balls[1] == lane.pins
        ),
        Fraction(0),
    )
    return ScoreDistribution(game.id, tuple(numerators), denominator, strike, spare)
