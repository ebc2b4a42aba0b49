"""The confidence interval of a mean, one rule for statistics, simulations and tournaments.

Student's t interval: exact for normal scores and right in coverage for a handful of games,
where the normal interval (z = 1.96) is far too narrow (two games: t = 12.71). It becomes the
normal interval as the games grow. No library offers it here (scipy is not a dependency), so
the t quantile is computed from the regularized incomplete beta function.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache

__all__ = ["mean_interval", "t_quantile"]


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz), for x < (a+1)/(a+b+2)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 10_000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return result


def _regularized_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularized incomplete beta function."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def _t_upper_tail(t: float, df: int) -> float:
    """P(T > t) for t >= 0 under Student's t with `df` degrees of freedom."""
    return _regularized_beta(df / 2, 0.5, df / (df + t * t)) / 2


@cache
def t_quantile(p: float, df: int) -> float:
    """The `p` quantile (0.5 < p < 1) of Student's t with `df` >= 1 degrees of freedom (t_{0.975,1} = 12.706)."""
    if not 0.5 < p < 1 or df < 1:
        raise ValueError(f"t_quantile needs 0.5 < p < 1 and df >= 1, got p={p}, df={df}")
    tail = 1 - p
    low, high = 0.0, 1.0
    while _t_upper_tail(high, df) > tail:
        low, high = high, high * 2
    for _ in range(200):  # bisection to the last bit: the tail falls monotonically in t
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if _t_upper_tail(middle, df) > tail:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def mean_interval(
    values: Sequence[float], level: float = 0.95, low: float | None = None, high: float | None = None
) -> tuple[float, float] | None:
    """The Student's t interval of the mean of `values`, clipped to [`low`, `high`] (what a score can be).

    None for fewer than two values: one game has no spread to measure. Clipping keeps an
    interval of a few games from reaching scores no game can have (below 0, above 300).
    """
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile((1 + level) / 2, n - 1) * sd / math.sqrt(n)
    lo, hi = mean - half, mean + half
    if low is not None:
        lo = max(lo, low)
    if high is not None:
        hi = min(hi, high)
    return lo, hi
