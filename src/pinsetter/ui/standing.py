"""Where an unfinished game stands, in words every interface says alike (`ann 87 in frame 5`).

Kept apart from the full-screen terminal's modules so that the line game and the history
commands say it without loading Textual.
"""

from __future__ import annotations

from typing import Any

from pinsetter.i18n import _

__all__ = ["resume_summary", "standing_words"]


def resume_summary(record: Any) -> str:
    """`ann 87 in frame 5, bob 60 in frame 4`: where each player of a stored game stands."""
    entries = (record.result or {}).get("players") or []
    parts = []
    for index, spec in enumerate(record.players):
        entry = entries[index] if index < len(entries) else {}
        frame = _frame_to_play(entry.get("marks") or [], int(str(record.options.get("frames", 10))))
        parts.append(
            _("{name} {total} in frame {frame}").format(name=spec.name, total=entry.get("total", 0), frame=frame)
        )
    return _(", ").join(parts)


def standing_words(stored: Any) -> str:
    """Where an unfinished stored game stands, in History's words: `ann, bob (not begun)` for a game
    left before a pin fell (`StoredGame.not_begun`), else each player's score and frame (`resume_summary`)."""
    if stored.not_begun():
        return _("{names} (not begun)").format(names=_(", ").join(spec.name for spec in stored.record.players))
    return resume_summary(stored.record)


def _frame_to_play(marks: list[list[str]], frames: int) -> int:
    """The frame a player of an unfinished game is in, from the marks of the frames begun.

    A frame before the last is over after a strike or two balls, and the player is then in the
    next one (`ann 23 in frame 6` after five whole frames, not 5); the last frame lasts to the end.
    """
    if not marks:
        return 1
    over = marks[-1] == ["X"] or len(marks[-1]) >= 2
    return min(len(marks) + 1 if over else len(marks), frames)
