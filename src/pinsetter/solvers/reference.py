"""What a score is measured against: a game's exact distribution, or its best known player.

One lookup serves the statistics and the end of a game in the terminal interface;
the (costly) distributions and policies are computed once per game and options.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from pinsetter.bots.base import bot_title
from pinsetter.games.pure_chance import PureChanceGame
from pinsetter.games.registry import get_game
from pinsetter.i18n import N_, _
from pinsetter.solvers.distribution import ScoreDistribution, analyze

__all__ = ["EXPECTIMAX_SOLITAIRE_MEAN", "Reference", "reference", "standing_text", "warm_references"]

# Measured, not exact: 119 seeded games of the expectimax bot after issue 10's fix,
# 95% CI 180.10-189.50 (docs/solitaire.md).
EXPECTIMAX_SOLITAIRE_MEAN = 184.80


@dataclass(frozen=True)
class Reference:
    against: str  # "exact distribution", "optimal player" or "Expert bot" (N_: `_()` where shown)
    mean: float
    exact: bool
    distribution: ScoreDistribution | None = None

    def beats(self, value: float) -> float | None:
        """P(a game scores less than `value`), where the exact distribution is known."""
        if self.distribution is None:
            return None
        return self.distribution.cdf(math.ceil(value) - 1)


def reference(game_id: str, options: dict[str, object] | None = None) -> Reference | None:
    """The reference of a game played with these options (None where pinsetter has none)."""
    settled = get_game(game_id, options).options_text()  # defaults filled in: one key per game
    return _reference(game_id, tuple(sorted(settled.items())))


@cache
def _reference(game_id: str, options: tuple[tuple[str, object], ...]) -> Reference | None:
    game = get_game(game_id, dict(options))
    if isinstance(game, PureChanceGame):
        dist = analyze(game)
        return Reference(N_("exact distribution"), dist.mean, True, dist)
    if game_id == "rolling-pins" and not game.options["advanced"]:
        from pinsetter.solvers.rolling_pins import policy_for

        policy = policy_for(game.lane.pins, game.lane.frames, 1 if game.options["tokens"] else 0)
        return Reference(N_("optimal player"), policy.expected_score, True)
    if game_id == "bowling-solitaire" and game.lane.frames == 10:
        return Reference(N_("Expert bot"), EXPECTIMAX_SOLITAIRE_MEAN, False)
    return None


def percent(share: float) -> str:
    """A share of games as a player reads it: `63%`, never `100%` or `0%` for what is not all or none."""
    if 0 < share < 0.005 or 0.995 <= share < 1:
        text = f"{share:.1%}"
        return text if text not in ("0.0%", "100.0%") else (f"{share:.2%}" if share < 0.5 else "99.99%")
    return f"{share:.0%}"


def standing_text(game_id: str, options: dict[str, object], score: int) -> str:
    """Where a final score stands, in words: against the exact distribution, or the best player's average."""
    ref = reference(game_id, options)
    if ref is None:
        return ""
    share = ref.beats(score)
    if share is not None:
        return _("Better than {share} of games (exact odds).").format(share=percent(share))
    mean = f"{ref.mean:.1f}"
    if ref.against == "optimal player":
        return _("The optimal player averages {mean}.").format(mean=mean)
    if ref.exact:
        return _("The {player} averages {mean}.").format(player=_(ref.against), mean=mean)
    # The bot named as players know it (its algorithm is said in its description only).
    return _("The {bot} averages about {mean}.").format(bot=bot_title("expectimax"), mean=mean)


def warm_references() -> None:
    """Work out every game's reference with its default options, once, ahead of the first game's end.

    A server's first finished game of each kind would otherwise pay for it inside a request (the
    numerical libraries loaded and a distribution or policy computed: up to a second of CPU,
    docs/tables.md), while every table it serves waits; `pinsetter serve` calls this in a thread
    as it starts. Other options are worked out when a game with them first ends.
    """
    from pinsetter.games.registry import GAMES

    for game_id in GAMES:
        reference(game_id)
