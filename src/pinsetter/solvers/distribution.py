"""Exact final-score distributions of the pure-chance games.

Frames are independent, so the game is a chain: a dynamic programme over
frames whose state is the score so far and the pending bonus weights (how many
earlier strikes and spares still collect the next ball and the one after).
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from pinsetter.core.scoring import Lane
from pinsetter.games.pure_chance import BallModel, PureChanceGame, frame_distribution

__all__ = ["ScoreDistribution", "analyze", "score_distribution"]

FloatArray = npt.NDArray[np.float64]

# Pending bonus weights entering a frame: (weight on its first ball, on its second ball).
PENDING = ((0, 0), (1, 0), (1, 1), (2, 1))


def score_distribution(frames: list[dict[tuple[int, ...], float]], lane: Lane) -> FloatArray:
    """P(final score = s) for s in 0..max, from each frame's pinfall-tuple distribution."""
    size = lane.max_score + 1
    state = {pending: np.zeros(size) for pending in PENDING}
    state[(0, 0)][0] = 1.0
    pins = lane.pins
    for number, dist in enumerate(frames, start=1):
        last = number == lane.frames
        new = {pending: np.zeros(size) for pending in PENDING}
        for (w1, w2), arr in state.items():
            if not arr.any():
                continue
            for balls, p in dist.items():
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
                target[gain:] += p * arr[: size - gain]
        state = new
    total: FloatArray = sum(state.values(), np.zeros(size))
    return total


@dataclass(frozen=True)
class ScoreDistribution:
    """One player's exact final-score distribution and what follows from it."""

    game: str
    probabilities: FloatArray
    strike_rate: float
    spare_rate: float

    @property
    def mean(self) -> float:
        scores = np.arange(len(self.probabilities), dtype=np.float64)
        mean: float = np.dot(scores, self.probabilities).item()
        return mean

    @property
    def std(self) -> float:
        scores = np.arange(len(self.probabilities))
        var = float(np.dot((scores - self.mean) ** 2, self.probabilities))
        return math.sqrt(var)

    def quantile(self, q: float) -> int:
        """The smallest score s with P(score <= s) >= q."""
        cdf = np.cumsum(self.probabilities)
        return int(bisect.bisect_left(cdf.tolist(), q - 1e-12))

    def cdf(self, score: int) -> float:
        """P(final score <= score)."""
        if score < 0:
            return 0.0
        return float(np.sum(self.probabilities[: score + 1]))

    def win_tie(self, players: int) -> tuple[float, float]:
        """P(a given player wins outright), P(two or more share the top), among iid players."""
        cdf_below = np.concatenate(([0.0], np.cumsum(self.probabilities)[:-1]))
        win = float(np.dot(self.probabilities, cdf_below ** (players - 1)))
        return win, max(0.0, 1.0 - players * win)

    def to_dict(self, players: int = 1) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "mean": self.mean,
            "std": self.std,
            "median": self.quantile(0.5),
            "p300": float(self.probabilities[-1]),
            "percentiles": {str(q): self.quantile(q / 100) for q in (10, 25, 75, 90)},
            "strike_rate": self.strike_rate,
            "spare_rate": self.spare_rate,
        }
        if players > 1:
            win, tie = self.win_tie(players)
            data["players"] = players
            data["win_probability"] = win
            data["tie_probability"] = tie
        data["distribution"] = {str(s): float(p) for s, p in enumerate(self.probabilities)}
        return data


def analyze(game: PureChanceGame) -> ScoreDistribution:
    """The exact distribution of one player's final score in a pure-chance game."""
    model: BallModel[Any] = game.ball_model()
    lane = game.lane
    middle = frame_distribution(model, 1, lane) if lane.frames > 1 else {}
    last = frame_distribution(model, lane.frames, lane)
    frames = [middle] * (lane.frames - 1) + [last]
    probabilities = score_distribution(frames, lane)
    first = middle or last
    strike = sum(p for balls, p in first.items() if balls[0] == lane.pins)
    spare = sum(
        p for balls, p in first.items() if balls[0] < lane.pins and len(balls) > 1 and balls[0] + balls[1] == lane.pins
    )
    return ScoreDistribution(game.id, probabilities, strike, spare)
