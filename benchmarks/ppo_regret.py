"""Where a trained MaskablePPO model loses points, by kind of decision, against the optimal or expectimax bot.

Run: `.venv/bin/python benchmarks/ppo_regret.py MODEL.zip rolling-pins --frames 2 [--games 200]`
(the model kept by `examples/maskable_ppo.py --save`; needs the `rl` extra).

The model plays the single-game Gymnasium environment (the same observation and ids as
the batch it learned on) with its deterministic policy. At every decision the bot values
each legal option (Rolling Pins: the exact optimum, `OptimalBot.evaluate`; Solitaire:
the expectimax bot's values), and the model's choice is filed under "best kind -> chosen
kind": its count, how often it was worse than the best, and the points lost per game. Kinds
are the dice chosen, a miss or a cross (Rolling Pins); a play of 1-3 pins from the same or
another pile, or stopping (Solitaire). For a decision kind the model never takes, it also
prints the model's median probability of the best option where that option is best.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
from typing import Any

import gymnasium
import torch
from sb3_contrib import MaskablePPO

import pinsetter.integrations.gymnasium  # noqa: F401  (registers the environments)
from pinsetter.bots.rolling_pins import OptimalBot
from pinsetter.bots.solitaire import ExpectimaxBot

ENVIRONMENTS = {"rolling-pins": "pinsetter/RollingPins-v0", "bowling-solitaire": "pinsetter/BowlingSolitaire-v0"}


def kind(action: Any) -> str:
    """The decision's kind, as the table files it."""
    if action.kind in ("dice", "miss"):
        return str(action)  # "dice 1", "dice 2", "miss"
    if action.kind == "play":
        return f"play {len(action.pins)}"
    return str(action.kind)


def filed(best: Any, chosen: Any) -> str:
    key = f"{kind(best)} -> {kind(chosen)}"
    if best.kind == chosen.kind == "play":
        key += ", same pile" if best.pile == chosen.pile else ", other pile"
    return key


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("game", choices=sorted(ENVIRONMENTS))
    parser.add_argument("--frames", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20_000, help="the first game's seed; game i uses seed + i")
    args = parser.parse_args()
    torch.set_num_threads(1)
    model = MaskablePPO.load(args.model, device="cpu")
    env = gymnasium.make(ENVIRONMENTS[args.game], frames=args.frames).unwrapped
    bot = OptimalBot(env.game) if args.game == "rolling-pins" else ExpectimaxBot(env.game)
    ids = model.action_space.n
    count: collections.Counter[str] = collections.Counter()
    wrong: collections.Counter[str] = collections.Counter()
    lost: collections.defaultdict[str, float] = collections.defaultdict(float)
    chance_of_best: collections.defaultdict[str, list[float]] = collections.defaultdict(list)
    finals = []
    for g in range(args.games):
        obs, _ = env.reset(seed=args.seed + g)
        done, total = False, 0.0
        while not done:
            mask = env.action_masks()
            chosen_id = int(model.predict(obs, deterministic=True, action_masks=mask[:ids])[0])
            if chosen_id != env.index.end_id and mask.sum() > 1:
                values = bot.evaluate(env.match.state)
                assert values is not None
                best, best_value = values[0]
                chosen = env.index.actions[chosen_id]
                value = dict((str(a), v) for a, v in values)[str(chosen)]
                key = filed(best, chosen)
                count[key] += 1
                lost[key] += best_value - value
                wrong[key] += best_value - value > 1e-9
                with torch.no_grad():
                    dist = model.policy.get_distribution(torch.as_tensor(obs[None]), action_masks=mask[None, :ids])
                best_id = env.index.action_id(best)
                chance_of_best[kind(best)].append(float(dist.distribution.probs[0, best_id]))
            obs, reward, terminated, truncated, _ = env.step(chosen_id)
            total += float(reward)
            done = terminated or truncated
        finals.append(total)
    print(f"{args.games} games, mean score {statistics.fmean(finals):.3f}; points lost per game by decision:")
    for key in sorted(count, key=lambda k: -lost[k]):
        print(f"  {key:32} {count[key]:6} decisions {wrong[key]:5} worse {lost[key] / args.games:7.3f} per game")
    print(
        f"  {'all':32} {sum(count.values()):6} decisions {sum(wrong.values()):5} worse "
        f"{sum(lost.values()) / args.games:7.3f} per game"
    )
    print("the model's chance of the best option, where it is best (median; share above one half):")
    for name, chances in sorted(chance_of_best.items()):
        above = sum(c > 0.5 for c in chances) / len(chances)
        print(f"  {name:12} {len(chances):6} decisions  median {statistics.median(chances):.4f}  above 1/2 {above:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
