"""Simulation of many complete games through the engine, for any game and bots.

Game i of a run with seed S is played with its own seed derived from (S, i),
so results do not depend on how the games are split among worker processes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from pinsetter.i18n import _
from pinsetter.records import PlayerSpec
from pinsetter.session import Match

__all__ = ["GameResult", "PlayerSummary", "SimulationSummary", "game_seed", "play_one", "simulate"]


def game_seed(seed: int, index: int) -> int:
    return hash((seed, index, 2)) & 0x7FFF_FFFF_FFFF_FFFF


@dataclass(frozen=True)
class GameResult:
    index: int
    seed: int
    scores: tuple[int, ...]
    strikes: tuple[int, ...]  # strikes in frames 1..n-1, per player
    spares: tuple[int, ...]


def play_one(game_id: str, options: dict[str, object], players: list[PlayerSpec], seed: int, index: int) -> GameResult:
    """Play one complete game with no human input."""
    match = Match.new(game_id, players, seed=seed, options=options)
    match.run_bots()
    state = match.state
    if not state.is_terminal():
        raise ValueError(_("simulation needs bots for every player (a human seat was given)"))
    strikes, spares = [], []
    for p in range(len(players)):
        frames = state.scoresheet(p).frames[:-1]
        strikes.append(sum(1 for f in frames if f.marks[0] == "X"))
        spares.append(sum(1 for f in frames if len(f.marks) > 1 and f.marks[1] == "/"))
    return GameResult(index, seed, tuple(state.scores()), tuple(strikes), tuple(spares))


def _chunk(args: tuple[str, dict[str, object], list[PlayerSpec], int, int, int]) -> list[GameResult]:
    game_id, options, players, seed, start, stop = args
    return [play_one(game_id, options, players, game_seed(seed, i), i) for i in range(start, stop)]


def run_games(
    game_id: str,
    options: dict[str, object],
    players: list[PlayerSpec],
    games: int,
    seed: int,
    workers: int = 1,
    chunk: int = 200,
) -> Iterator[list[GameResult]]:
    """Yield results chunk by chunk, in game order, using `workers` processes."""
    tasks = [(game_id, options, players, seed, start, min(start + chunk, games)) for start in range(0, games, chunk)]
    if workers <= 1:
        for task in tasks:
            yield _chunk(task)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(_chunk, tasks)


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
        n = len(self.scores)
        if n < 2:
            return (self.mean, self.mean)
        m = self.mean
        var = sum((s - m) ** 2 for s in self.scores) / (n - 1)
        half = 1.959963984540054 * math.sqrt(var / n)
        return (m - half, m + half)

    def to_dict(self, games: int) -> dict[str, Any]:
        lo, hi = self.ci95
        return {
            "name": self.name,
            "mean": self.mean,
            "ci95": [lo, hi],
            "min": min(self.scores),
            "max": max(self.scores),
            "strike_rate": self.strikes / self.frames if self.frames else 0.0,
            "spare_rate": self.spares / self.frames if self.frames else 0.0,
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


def simulate(
    game_id: str,
    options: dict[str, object],
    players: list[PlayerSpec],
    games: int,
    seed: int,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> SimulationSummary:
    from pinsetter.games.registry import get_game

    frames = get_game(game_id, options).lane.frames - 1
    summary = SimulationSummary(game_id, [PlayerSummary(p.name) for p in players])
    for results in run_games(game_id, options, players, games, seed, workers):
        for result in results:
            summary.add(result, frames)
        if progress is not None:
            progress(len(results))
    return summary
