"""Hints: every legal option with its value, from the strongest bot that can say."""

from __future__ import annotations

from functools import lru_cache

from pinsetter.bots.base import Bot, OptionValue, make_bot
from pinsetter.core.game import Game, OptionError, State
from pinsetter.i18n import _

# Bots that can value options, strongest first.
EVALUATORS = ("optimal", "expectimax")


@lru_cache(maxsize=8)
def _evaluator(name: str, game: Game) -> Bot | None:
    """One evaluating bot per game being played, so that its searches are reused between hints."""
    try:
        return make_bot(name, game)
    except OptionError:
        return None


def option_values(state: State) -> tuple[str, str, list[OptionValue]] | None:
    """(bot name, what values mean, options best first) from the first evaluator this game has."""
    for name in EVALUATORS:
        bot = _evaluator(name, state.game)
        if bot is None:
            continue
        values = bot.evaluate(state)
        if values is not None:
            return name, _(bot.value_label), values
    return None


def hint_lines(state: State) -> str:
    found = option_values(state)
    if found is None:
        return "  " + _("no hints for this position")
    name, label, values = found
    lines = [f"  {name}: {label}"]
    for action, value in values:
        lines.append(f"    {value:8.3f}  {action}")
    return "\n".join(lines)
