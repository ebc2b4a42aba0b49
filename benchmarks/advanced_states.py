"""Reachable states of advanced Rolling Pins, frame by frame (the table in docs/rolling-pins.md).

For the default sheet under both readings of Auto Strike: the kits (track marks and
held abilities) a player can hold at each frame start, the frame-start states (kit,
tokens, pending bonus), the kits met during the frame's balls, and the decision
points before a roll (standing pins, tokens, kit, Extra Dice active) of ball 1 and
of the later balls, as `rolling_pins_advanced.state_counts` counts them. Usage:
python benchmarks/advanced_states.py
"""

from __future__ import annotations

import dataclasses

from pinsetter.solvers.rolling_pins_advanced import Variant, state_counts


def table(variant: Variant) -> list[str]:
    lines = [
        "| frame | kits at start | frame-start states | kits in the frame | ball 1 states | later balls' states |",
        "|---|---|---|---|---|---|",
    ]
    totals = [0, 0]
    for c in state_counts(variant):
        totals[0] += c.ball_one
        totals[1] += c.ball_two
        lines.append(
            f"| {c.frame} | {c.kits:,} | {c.frame_starts:,} | {c.ball_kits:,} | {c.ball_one:,} | {c.ball_two:,} |"
        )
    lines.append(f"| all | | | | {totals[0]:,} | {totals[1]:,} |")
    return lines


def main() -> None:
    base = Variant()
    print(f"kits of the default track: {base.kits.count:,} ({len(base.kits.tracks)} tracks)")
    for reading, held in (("next (the rules)", False), ("held", True)):
        print(f"\nAuto Strike {reading}:")
        print("\n".join(table(dataclasses.replace(base, auto_held=held))))


if __name__ == "__main__":
    main()
