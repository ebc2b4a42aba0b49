"""Helpers the games' presentations share: status lines and labels that every game words alike."""

from __future__ import annotations

from pinsetter.core.game import GameError, State
from pinsetter.core.narration import pins_list
from pinsetter.i18n import _

__all__ = ["refusal_line", "rows_for", "status_line", "turn_of"]


def turn_of(state: State) -> int | None:
    """The player whose frame is being played (also at chance nodes), None when the game is over."""
    return None if state.is_terminal() else state.turn()


def status_line(state: State, names: list[str] | None, doing: str, where: str | None = None) -> str:
    """`ann, frame 3, ball 2: roll the dice` (or `game over`); `where`, when the ball is not what the act is
    about (`ann, after frame 4: mark a box on the ability track`)."""
    if state.is_terminal():
        return _("game over")
    player = state.turn()
    ctx = state.ball_context(player)
    who = names[player] if names and player < len(names) else _("player {number}").format(number=player + 1)
    if where is None:
        where = _("frame {frame}, ball {ball}").format(frame=ctx.frame, ball=ctx.ball) if ctx is not None else ""
    return _("{who}, {where}: {doing}").format(who=who, where=where, doing=doing)


def rows_for(pins: int) -> tuple[tuple[int, ...], ...]:
    """The triangle's rows holding pins 1..`pins` (a practice rack of fewer pins keeps the front rows)."""
    from pinsetter.core.table import TRIANGLE_ROWS  # beside the views' models (pydantic): a word needs none

    rows = (tuple(p for p in row if p <= pins) for row in TRIANGLE_ROWS)
    return tuple(row for row in rows if row)


def refusal_line(action: str | None, error: GameError, picked: list[int] | None = None) -> str:
    """One line for an action the engine refused: the action, then why (once, when the reason names it).

    `picked`: the pins the action was made from. The line names them, not the action they
    made (`pins 1+2+10: the pins sum to 13, ...`, not `cross 1+2+10 tokens +6 ...`).
    """
    why = getattr(error, "reason", "")
    if picked and why:
        return _("pins {pins}: {reason}").format(pins=pins_list(sorted(set(picked))), reason=why)
    reason = str(error)
    if not action or reason.startswith(action):  # no action made from a pick, or the reason says it
        return reason
    return _("{action}: {error}").format(action=repr(action), error=reason)
