"""Time whole Bowling Solitaire games played by the expectimax bot (issue 30): per game, and per
deal the time of its searches (every decision of the deal, the first one searching it whole).

Game g is dealt from `random.Random(seed * 100_000 + g)` as in `benchmarks/solitaire_bots.py`
(10 frames, the score objective). Times are CPU seconds of this process (one core: the search is
single-threaded), so that other work on the machine slows them less than it slows the clock. One
line per game, then the median, 90th percentile and worst of games and of deals. The script uses
only the bot's public interface, so the same file times any checkout:
`PYTHONPATH=<checkout>/src python benchmarks/solitaire_expectimax_games.py [games] [groups] [seed]`.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from pinsetter.bots.solitaire import ExpectimaxBot
from pinsetter.games.bowling_solitaire import BowlingSolitaire, SolitaireState


def spread(label: str, seconds: list[float]) -> str:
    """Median, 90th percentile and worst of some times, in milliseconds."""
    ordered = sorted(seconds)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (
        f"{label}: n={len(ordered)} median {statistics.median(ordered) * 1000:.1f} ms, "
        f"p90 {p90 * 1000:.1f} ms, max {ordered[-1] * 1000:.1f} ms, mean {statistics.fmean(ordered) * 1000:.1f} ms"
    )


def play(game: BowlingSolitaire, bot: ExpectimaxBot, rng: random.Random) -> tuple[float, list[float], int]:
    """One game: its CPU time, the search time of each deal, and the score."""
    state = game.new_state()
    assert isinstance(state, SolitaireState)
    deals: dict[int, float] = {}
    start = time.process_time()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        before = time.process_time()
        action = bot.choose(state, rng)
        deals[state.deals] = deals.get(state.deals, 0.0) + time.process_time() - before
        state.apply(action)
    return time.process_time() - start, list(deals.values()), state.scores()[0]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    rule = sys.argv[2] if len(sys.argv) > 2 else "connected"
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 11
    game = BowlingSolitaire({"groups": rule})
    bot = ExpectimaxBot(game, "score")
    play(game, bot, random.Random(-1))  # compile (or load numba's cached code) before timing
    game_times: list[float] = []
    deal_times: list[float] = []
    for g in range(games):
        seconds, deals, score = play(game, bot, random.Random(seed * 100_000 + g))
        game_times.append(seconds)
        deal_times.extend(deals)
        print(f"game {g}: score {score}, {seconds:.3f} s, {len(deals)} deals, slowest deal {max(deals) * 1000:.0f} ms")
    print(spread(f"{rule}: a game (CPU)", game_times))
    print(spread(f"{rule}: the searches of a deal (CPU)", deal_times))


if __name__ == "__main__":
    main()
