"""OpenSpiel's Python expectiminimax on a short Rolling Pins, with dice unordered and ordered.

    .venv/bin/python benchmarks/openspiel_expectiminimax.py [--pins 2] [--frames 1] [--tokens] [--ordered]

OpenSpiel's chance nodes list `State.chance_classes()`: a player's own dice
up to their order (21 outcomes for two dice, 56 for three), so the search
branches less than over the 36 or 216 ordered rolls. The value must be the
solver's exact optimum either way; this prints both and the CPU seconds of the
search. `--ordered` also runs the search over ordered rolls (slower), by
listing `chance_outcomes()` instead.
"""

from __future__ import annotations

import argparse
import time
from unittest import mock

import pyspiel
from open_spiel.python.algorithms.minimax import expectiminimax

import pinsetter.integrations.openspiel  # noqa: F401  (registers the games)
from pinsetter.solvers.rolling_pins import policy_for


def search(params: dict[str, object], ordered: bool = False) -> tuple[float, float]:
    """The expectiminimax value of the game's initial state and the CPU seconds it took."""
    game = pyspiel.load_game("pinsetter_rolling_pins", params)
    state = game.new_initial_state()
    engine = type(state.state)
    classes = engine.chance_outcomes if ordered else engine.chance_classes
    with mock.patch.object(engine, "chance_classes", classes):
        start = time.process_time()
        value, _ = expectiminimax(state, 1000, None, 0)
        return float(value), time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pins", type=int, default=2)
    parser.add_argument("--frames", type=int, default=1)
    parser.add_argument("--tokens", action="store_true", help="with bowling-ball tokens (a far larger tree)")
    parser.add_argument("--ordered", action="store_true", help="also search over ordered rolls")
    args = parser.parse_args()
    params: dict[str, object] = {"pins": args.pins, "frames": args.frames, "tokens": args.tokens}
    optimum = policy_for(args.pins, args.frames, int(args.tokens)).expected_score
    print(f"solver's optimum: {optimum!r}")
    value, seconds = search(params)
    print(f"unordered dice: {value!r} in {seconds:.2f} s of CPU (differs by {abs(value - optimum):.1e})")
    if args.ordered:
        value, seconds = search(params, ordered=True)
        print(f"ordered dice:   {value!r} in {seconds:.2f} s of CPU (differs by {abs(value - optimum):.1e})")


if __name__ == "__main__":
    main()
