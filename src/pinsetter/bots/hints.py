"""Hints: every legal option with its value, from the strongest bot that can say.

The values are labelled in a player's words ("expected final score if you play on
optimally"), not the solver's; where the bot's values are not exact for the game
being played (advanced Rolling Pins before its exact solution is at hand, valued by
the basic game's policy), the label says they are estimates, as docs/rolling-pins.md does.
"""

from __future__ import annotations

from functools import lru_cache

from pinsetter.bots.base import Bot, OptionValue, make_bot
from pinsetter.core.game import Game, OptionError, State
from pinsetter.i18n import N_, _

# Bots that can value options, strongest first.
EVALUATORS = ("optimal", "expectimax")

# What each evaluator's values mean, in a player's words (translated where shown).
PLAIN_LABELS = {
    "optimal": N_("expected final score if you play on optimally"),
    "expectimax": N_(
        "expected points this frame will score, its strike or spare bonus included "
        "(the bonus from later frames is estimated)"
    ),
}
CHANCE_LABEL = N_(
    "the chance to finish ahead of every other player, assuming they play for the best expected score; "
    "to win rather than to score, pick the best chance (behind late in a game it can be a lower score)"
)
NO_CHANCES = N_("chances to finish ahead are for basic Rolling Pins with other players")
CHANCES_WAIT = N_("working out the other players' chances (about half a minute, the first time only)")
ESTIMATE_LABEL = N_(
    "estimated final score if you play on well (an estimate: from the basic game's exact values; "
    "abilities are not counted)"
)


@lru_cache(maxsize=8)
def _evaluator(name: str, game: Game) -> Bot | None:
    """One evaluating bot per game being played, so that its searches are reused between hints."""
    try:
        return make_bot(name, game)
    except OptionError:
        return None


def is_estimate(state: State) -> bool:
    """Whether the hints here are estimates: advanced Rolling Pins, until solved, is valued by the basic policy."""
    if not state.game.options.get("advanced"):
        return False
    bot = _evaluator("optimal", state.game)
    exact = getattr(bot, "is_exact", None)
    return not (callable(exact) and exact(state))


def plain_label(name: str, bot: Bot, state: State) -> str:
    """What the values mean, in words a player understands."""
    if is_estimate(state):
        return _(ESTIMATE_LABEL)
    return _(PLAIN_LABELS[name]) if name in PLAIN_LABELS else _(bot.value_label)


def option_values(state: State) -> tuple[str, str, list[OptionValue]] | None:
    """(bot name, what values mean in plain words, options best first) from the first evaluator this game has."""
    for name in EVALUATORS:
        bot = _evaluator(name, state.game)
        if bot is None:
            continue
        values = bot.evaluate(state)
        if values is not None:
            return name, plain_label(name, bot, state), values
    return None


# What one value is, short, beside each option ("expected final score 145.1").
VALUE_NAMES = {
    "optimal": N_("expected final score {value}"),
    "expectimax": N_("expected points this frame {value}"),
}
ESTIMATE_NAME = N_("estimated final score {value}")


def offers_chances(state: State) -> bool:
    """Whether `win_chances` has an answer here (without working it out): basic Rolling Pins with other players."""
    return game_offers_chances(state) and not state.is_chance_node()


def game_offers_chances(state: State) -> bool:
    """Whether the game's decisions offer chances (`offers_chances`), chance steps between them too: a
    game's front end offers the key for them all game long, not only at each decision."""
    return (
        state.game.id == "rolling-pins"
        and not state.game.options.get("advanced")
        and state.num_players > 1
        and not state.is_terminal()
    )


def chances_take_a_while(state: State) -> bool:
    """Whether `win_chances` must first work out the others' chances (tens of seconds, once per machine)."""
    bot = _evaluator("win", state.game)
    policy = getattr(bot, "policy", None)
    if policy is None:
        return False
    from pinsetter.solvers.rolling_pins_win import frame_starts_at_hand

    return not frame_starts_at_hand(policy)


def win_chances(state: State) -> dict[str, float] | None:
    """Each option's chance to finish strictly ahead of every other player, by its action text.

    Asked for beside the expected scores ("on request": it plans the rest of the frame against the
    others' chances, tenths of a second, after a pass of tens of seconds the first time a machine
    asks for a game's options). Only basic Rolling Pins with other players has them (the `win` bot,
    which takes the others to play for the best expected score); None elsewhere.
    """
    if state.is_terminal() or state.is_chance_node():
        return None
    bot = _evaluator("win", state.game)
    values = getattr(bot, "win_values", lambda _state: None)(state)
    return None if values is None else {str(action): float(value) for action, value in values}


def chance_line() -> str:
    """What the chances mean, as the line under (or above) them."""
    return _("Chances: {meaning}").format(meaning=_(CHANCE_LABEL))


def best_chances(chances: dict[str, float]) -> set[str]:
    """The options with the best chance to finish ahead (closer than the `win` bot's tie are equal)."""
    from pinsetter.bots.rolling_pins_win import TIE

    best = max(chances.values())
    return {action for action, chance in chances.items() if chance >= best - TIE}


def _gap(best: float, value: float) -> str:
    """How far behind the best an option's value is, to the figure that tells it apart.

    To a tenth, as the values are shown, it is the difference of the values shown, so that two
    options shown with the same value are shown as the same distance behind (143.7 and 144.7:
    1.0, whether the values were 143.74 or 143.66). Values a tenth cannot tell apart are told by
    the true difference to a thousandth.
    """
    shown = float(f"{best:.1f}") - float(f"{value:.1f}")
    return f"{shown:.1f}" if shown >= 0.05 else f"{best - value:.3f}"


def percent(chance: float) -> str:
    """A chance as a player reads it: `61.2%`; `under 0.1%`, `over 99.9%` where a tenth would round to certain."""
    if 0 < chance < 0.0005:
        return _("under {percent}").format(percent="0.1%")
    if 0.9995 <= chance < 1:
        return _("over {percent}").format(percent="99.9%")
    return f"{100 * chance:.1f}%"


def hint_words(
    state: State, name: str, values: list[OptionValue], chances: dict[str, float] | None = None
) -> list[str]:
    """Each option as a move with its value, best first: `Cross out 4 and 6: expected final score 145.1 (best)`;
    with `chances` (`win_chances`), each option's chance to finish ahead after its value, and which is best
    by each measure: `..., chance to finish ahead 11.6% (score 0.1 below the best; best chance)`."""
    if not values:
        return []
    pattern = _(ESTIMATE_NAME) if is_estimate(state) else _(VALUE_NAMES.get(name, "{value}"))
    best = values[0][1]
    likeliest = best_chances(chances) if chances else set()
    words = []
    for action, value in values:
        behind = best - value
        move = state.game.action_words(state, str(action))
        shown = pattern.format(value=f"{value:.1f}")
        chance = None if chances is None else chances.get(str(action))
        if chance is not None:
            # Two measures side by side: each says which of them it is best or behind by.
            gap = _gap(best, value)
            notes = [_("best score") if behind < 5e-4 else _("score {gap} below the best").format(gap=gap)]
            if str(action) in likeliest:
                notes.append(_("best chance"))
            line = _("{move}: {value}, chance to finish ahead {chance} ({notes})").format(
                move=move, value=shown, chance=percent(chance), notes=_("; ").join(notes)
            )
        else:
            gap = _("best") if behind < 5e-4 else _("{gap} less than the best").format(gap=_gap(best, value))
            line = _("{move}: {value} ({gap})").format(move=move, value=shown, gap=gap)
        words.append(line)
    return words


def no_decisions_words(game: Game) -> str:
    """Why a game of pure chance has no hint, in a player's words: the one sentence of every interface."""
    words = _("{game} has no decisions: chance decides every ball, so there is no hint to give")
    return words.format(game=_(game.name))


def no_hint_words(state: State) -> str:
    """Why a position has no hint, in a player's words (`option_values` found none)."""
    marking = any(getattr(action, "kind", None) == "mark" for action in state.legal_actions())
    if marking and state.game.id == "rolling-pins" and state.game.options.get("advanced"):
        return _("no hint for choosing a box: only the advanced game's exact solution values it, not worked out here")
    return _("no hints for this position")


def hint_lines(state: State) -> str:
    found = option_values(state)
    if found is None:
        return "  " + no_hint_words(state)
    name, label, values = found
    return "\n".join([f"  {label}", *(f"    {line}" for line in hint_words(state, name, values))])
