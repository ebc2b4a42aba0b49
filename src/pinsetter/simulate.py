"""Simulation of many complete games through the engine, for any game and bots.

Game i of a run with seed S is played with its own seed derived from (S, i),
so results do not depend on how the games are split among worker processes or
machines (`pinsetter.experiments`: chunks, backends, resumable runs).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pinsetter.core.estimates import mean_interval
from pinsetter.experiments.backends import Backend, make_backend
from pinsetter.experiments.plan import Plan, Row, default_chunk, game_seed, play_scores
from pinsetter.experiments.runner import execute
from pinsetter.experiments.runs import StoredRun
from pinsetter.records import PlayerSpec

__all__ = [
    "GameResult",
    "PlayerSummary",
    "SimulationSummary",
    "game_seed",
    "play_one",
    "simulate",
    "simulation_plan",
    "summarise",
]


@dataclass(frozen=True)
class GameResult:
    index: int
    seed: int
    scores: tuple[int, ...]
    strikes: tuple[int, ...]  # strikes in frames 1..n-1, per player
    spares: tuple[int, ...]

    @classmethod
    def from_row(cls, row: Row) -> GameResult:
        index, seed, scores, strikes, spares = row
        return cls(index, seed, tuple(scores), tuple(strikes), tuple(spares))


def play_one(game_id: str, options: dict[str, object], players: list[PlayerSpec], seed: int, index: int) -> GameResult:
    """Play one complete game with no human input."""
    from pinsetter.games.registry import get_game

    scores, strikes, spares = play_scores(get_game(game_id, options), players, seed)
    return GameResult(index, seed, tuple(scores), tuple(strikes), tuple(spares))


def mean_ci95(values: list[float] | list[int]) -> tuple[float, float, float]:
    """The mean and its Student's t 95% confidence interval (the mean itself for fewer than two values)."""
    mean = sum(values) / len(values)
    interval = mean_interval(values)
    return (mean, *interval) if interval is not None else (mean, mean, mean)


@dataclass
class PlayerSummary:
    name: str
    scores: list[int] = field(default_factory=list)
    strikes: int = 0
    spares: int = 0
    frames: int = 0
    wins: float = 0.0

    @property
    def mean(self) -> float:
        return sum(self.scores) / len(self.scores)

    @property
    def ci95(self) -> tuple[float, float]:
        _, lo, hi = mean_ci95(self.scores)
        return (lo, hi)

    def to_dict(self, games: int) -> dict[str, Any]:
        lo, hi = self.ci95
        return {
            "name": self.name,
            "mean": self.mean,
            "ci95": [lo, hi],
            "min": min(self.scores),
            "max": max(self.scores),
            # Frames 1..n-1 only (the last frame's bonus balls change the play); a one-frame game has
            # none, and its rates are null rather than a 0 that reads as "never".
            "strike_rate": self.strikes / self.frames if self.frames else None,
            "spare_rate": self.spares / self.frames if self.frames else None,
            "win_share": self.wins / games,
        }


@dataclass
class SimulationSummary:
    game: str
    players: list[PlayerSummary]
    results: list[GameResult] = field(default_factory=list)

    def add(self, result: GameResult, frames_counted: int) -> None:
        self.results.append(result)
        top = max(result.scores)
        winners = [i for i, s in enumerate(result.scores) if s == top]
        for i, summary in enumerate(self.players):
            summary.scores.append(result.scores[i])
            summary.strikes += result.strikes[i]
            summary.spares += result.spares[i]
            summary.frames += frames_counted
            if i in winners:
                summary.wins += 1 / len(winners)

    def to_dict(self) -> dict[str, Any]:
        games = len(self.results)
        return {"game": self.game, "games": games, "players": [p.to_dict(games) for p in self.players]}


def simulation_plan(
    game_id: str,
    options: dict[str, object],
    players: list[PlayerSpec],
    games: int,
    seed: int,
    chunk: int | None = None,
) -> Plan:
    from pinsetter.games.registry import get_game

    options = get_game(game_id, options).options_text()  # as records keep them: JSON, the same everywhere
    return Plan("simulate", game_id, options, tuple(players), games, seed, chunk or default_chunk(games))


def summarise(plan: Plan, rows: list[Row]) -> SimulationSummary:
    """The summary of a simulation's rows, added up in game order (so the same to the last bit)."""
    frames = plan.instance.lane.frames - 1
    summary = SimulationSummary(plan.game, [PlayerSummary(p.name) for p in plan.players])
    for row in rows:
        summary.add(GameResult.from_row(row), frames)
    return summary


def simulate(
    game_id: str,
    options: dict[str, object],
    players: list[PlayerSpec],
    games: int,
    seed: int,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    backend: Backend | None = None,
    run: StoredRun | None = None,
    chunk: int | None = None,
) -> SimulationSummary:
    """Play `games` games and summarise them; `backend` (default: `workers` local processes) plays the chunks."""
    plan = run.plan if run is not None else simulation_plan(game_id, options, players, games, seed, chunk)
    if backend is not None:
        return summarise(plan, execute(plan, backend, run, progress))
    with make_backend(workers) as own:
        return summarise(plan, execute(plan, own, run, progress))
