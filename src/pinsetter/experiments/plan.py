"""What a run plays: the plan, its chunks, and the function a worker runs on one chunk."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from pinsetter.core.game import Game
from pinsetter.i18n import _
from pinsetter.records import PlayerSpec

__all__ = ["Plan", "Row", "default_chunk", "game_seed", "play_scores", "run_chunk"]

Kind = Literal["simulate", "tournament"]
# One game (simulate) or one deal (tournament) as plain JSON-ready lists: what a chunk
# returns, what the run store keeps, and what the summaries read.
Row = list[Any]
MAX_CHUNK = 500


def game_seed(seed: int, index: int) -> int:
    """The seed of game (or deal) `index` of a run with `seed`: the same on every machine."""
    return hash((seed, index, 2)) & 0x7FFF_FFFF_FFFF_FFFF


def default_chunk(games: int) -> int:
    """Games per chunk: about a hundred chunks, 10 to 500 games each (set by the games alone,
    so a run cut one way resumes the same way on any number of workers)."""
    return max(10, min(MAX_CHUNK, math.ceil(games / 100)))


@dataclass(frozen=True)
class Plan:
    """Everything that decides a run's results (never how or where it is played).

    `players` are the seats of a simulation, or the bots of a tournament. A tournament
    with `seats` 1 gives every bot its own one-player game on each deal; with `seats`
    equal to the number of bots, every deal is played at one table once per rotation of
    the seats, so each bot meets every seat's chance once per deal.
    """

    kind: Kind
    game: str
    options: dict[str, object]
    players: tuple[PlayerSpec, ...]
    games: int
    seed: int
    chunk: int
    seats: int = 1

    @property
    def instance(self) -> Game:
        return _game(self.game, json.dumps(self.options, sort_keys=True))

    def params(self) -> dict[str, Any]:
        """The plan as JSON (what a stored run is compared with on --resume)."""
        from pinsetter import __version__

        return {
            "kind": self.kind,
            "game": self.game,
            "options": self.instance.options_text(),
            "players": [[p.name, p.kind] for p in self.players],
            "games": self.games,
            "seed": self.seed,
            "chunk": self.chunk,
            "seats": self.seats,
            "version": __version__,
        }

    @property
    def chunks(self) -> int:
        return math.ceil(self.games / self.chunk)

    def bounds(self, index: int) -> tuple[int, int]:
        """The games (deals) of chunk `index`: start inclusive, stop exclusive."""
        start = index * self.chunk
        return start, min(start + self.chunk, self.games)

    def tables(self) -> list[list[int]]:
        """Tournament at one table: for each game of a deal (each rotation), the bot in each seat."""
        count = len(self.players)
        return [[(seat + turn) % count for seat in range(count)] for turn in range(count)]


@lru_cache(maxsize=8)
def _game(game_id: str, options: str) -> Game:
    """One game object per worker process and plan (options as JSON text, to be hashable)."""
    from pinsetter.games.registry import get_game

    return get_game(game_id, json.loads(options))


def play_scores(game: Game, players: list[PlayerSpec], seed: int) -> tuple[list[int], list[int], list[int]]:
    """Play one complete game of bots: each seat's score, strikes and spares (frames 1..n-1)."""
    from pinsetter.session import Match

    match = Match(game, players, seed)
    match.run_bots()
    state = match.state
    if not state.is_terminal():
        raise ValueError(_("simulation needs bots for every player (a human seat was given)"))
    strikes, spares = [], []
    for p in range(len(players)):
        frames = state.scoresheet(p).frames[:-1]
        strikes.append(sum(1 for f in frames if f.marks[0] == "X"))
        spares.append(sum(1 for f in frames if len(f.marks) > 1 and f.marks[1] == "/"))
    return list(state.scores()), strikes, spares


def run_chunk(plan: Plan, index: int) -> list[Row]:
    """Play chunk `index` of a plan (on any worker): one row per game or deal, in order.

    Simulation rows: [game, seed, scores, strikes, spares]. Tournament rows:
    [deal, seed, tables], each table the scores of the bots (in bot order) of one game
    at one table, or (seats 1) of the bots' one-player games on the deal.
    """
    game = plan.instance
    start, stop = plan.bounds(index)
    rows: list[Row] = []
    for number in range(start, stop):
        seed = game_seed(plan.seed, number)
        if plan.kind == "simulate":
            scores, strikes, spares = play_scores(game, list(plan.players), seed)
            rows.append([number, seed, scores, strikes, spares])
            continue
        if plan.seats == 1:  # every bot alone on the deal: one row of scores, compared deal by deal
            rows.append([number, seed, [[play_scores(game, [bot], seed)[0][0] for bot in plan.players]]])
            continue
        tables = []
        for seating in plan.tables():
            scores, _, _ = play_scores(game, [plan.players[bot] for bot in seating], seed)
            by_bot = [0] * len(plan.players)
            for seat, bot in enumerate(seating):
                by_bot[bot] = scores[seat]
            tables.append(by_bot)
        rows.append([number, seed, tables])
    return rows
