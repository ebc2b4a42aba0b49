"""Exact move generation of Bowling Solitaire, pinned by counts (like chess perft).

The walk goes through the game engine itself with the deal's cards scripted,
so these counts test the rules the game plays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pinsetter.games.bowling_solitaire import BowlingSolitaire, Deal, SolitaireState, deal_script

__all__ = ["Perft", "perft"]


@dataclass(frozen=True)
class Perft:
    first_plays: int
    sequences: int
    max_pins: int
    strike_possible: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "first_plays": self.first_plays,
            "sequences": self.sequences,
            "max_pins": self.max_pins,
            "strike_possible": self.strike_possible,
        }


def perft(deal: Deal, rule: str = "connected") -> Perft:
    """Counts for one frame played from `deal` with full knowledge of the piles."""
    game = BowlingSolitaire({"groups": rule, "frames": 2})
    script = deal_script(deal)

    def settle(state: SolitaireState) -> None:
        while state.is_chance_node() and not frame_over(state):
            step = script(state)
            assert step is not None
            state.apply(step)

    def frame_over(state: SolitaireState) -> bool:
        ctx = state.ball_context(0)
        return ctx is None or ctx.frame > 1

    memo: dict[object, tuple[int, int, bool]] = {}

    def walk(state: SolitaireState) -> tuple[int, int, bool]:
        if frame_over(state):
            balls = state.pinfalls[0][:2] if state.pinfalls[0][0] < 10 else state.pinfalls[0][:1]
            return 1, sum(balls), balls[0] == 10
        key = state.key()
        if key not in memo:
            count, best, strike = 0, 0, False
            for action in state.legal_actions():
                child = state.clone()
                child.apply(action)
                settle(child)
                c, b, s = walk(child)
                count, best, strike = count + c, max(best, b), strike or s
            memo[key] = (count, best, strike)
        return memo[key]

    start = game.new_state()
    settle(start)
    first = len(start.legal_actions()) - 1 if not frame_over(start) and not start.pinfalls[0] else 0
    sequences, max_pins, strike = walk(start)
    return Perft(first, sequences, max_pins, strike)
