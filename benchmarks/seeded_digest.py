"""A digest of seeded games of all four games: every step, result and final position, per case.

A change that claims "same seeds, same games" prints the same lines before and after (issue 30):

    PYTHONPATH=../base/src python benchmarks/seeded_digest.py > before.txt
    python benchmarks/seeded_digest.py > after.txt && diff before.txt after.txt

Both draw schemes (`position`, and `step` as older records keep it), every bot, the basic and
advanced rules, held Auto Strike, shared dice, short lanes and other dice. About 20 s of CPU.
"""

from __future__ import annotations

import hashlib
import json

from pinsetter.core.seeds import DRAW_SCHEMES
from pinsetter.games.registry import get_game
from pinsetter.records import PlayerSpec
from pinsetter.session import Match

OTHER_DICE = "XXXXXX,/PPPPP," + ",".join(["-PPPPP"] * 8)
# (game, options, the bots in its seats, games under the position scheme; a tenth of them under the step scheme)
CASES: list[tuple[str, dict[str, object], list[str], int]] = [
    ("tenpins", {}, ["random"], 300),
    ("tenpins", {}, ["random", "random", "random"], 60),
    ("tenpins", {"frames": 3}, ["random"], 60),
    ("bowling-dice", {}, ["random"], 200),
    ("bowling-dice", {}, ["random", "random"], 40),
    ("bowling-dice", {"frames": 2, "dice": OTHER_DICE}, ["random"], 40),
    ("rolling-pins", {}, ["optimal"], 80),
    ("rolling-pins", {}, ["greedy"], 80),
    ("rolling-pins", {}, ["random", "greedy"], 30),
    ("rolling-pins", {"advanced": True}, ["greedy"], 40),
    ("rolling-pins", {"advanced": True}, ["optimal", "random"], 20),
    ("rolling-pins", {"advanced": True, "auto_strike": "held"}, ["greedy", "random"], 30),
    ("rolling-pins", {"advanced": True, "shared_dice": True}, ["greedy", "random", "optimal"], 20),
    ("rolling-pins", {"frames": 2, "tokens": False}, ["optimal"], 30),
    ("rolling-pins", {"frames": 2, "pins": 4}, ["optimal", "random"], 30),
    ("bowling-solitaire", {}, ["greedy"], 120),
    ("bowling-solitaire", {}, ["random"], 60),
    ("bowling-solitaire", {"groups": "mutual", "frames": 3}, ["greedy"], 40),
]


def main() -> None:
    total = hashlib.sha256()
    for game_id, options, bots, games in CASES:
        game = get_game(game_id, options)
        for draws in DRAW_SCHEMES:
            digest = hashlib.sha256()
            for number in range(games if draws == "position" else max(5, games // 10)):
                players = [PlayerSpec(f"p{seat}", bot) for seat, bot in enumerate(bots)]
                match = Match(game, players, number * 7919 + 13, draws=draws)
                match.run_bots()
                record = match.record.to_json()
                record.pop("created")  # the clock, not the game
                digest.update(json.dumps(record, sort_keys=True).encode())
                digest.update(repr((match.state.key(), match.state.scores())).encode())
            print(game_id, json.dumps(options, sort_keys=True), bots, draws, digest.hexdigest()[:16])
            total.update(digest.digest())
    print("all", total.hexdigest()[:16])


if __name__ == "__main__":
    main()
