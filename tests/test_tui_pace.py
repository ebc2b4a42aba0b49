"""A bots-only game in the terminal plays to its end even when the machine keeps it waiting.

Issue 32's last flake: under a load average of 14, the screen of a bots-only game never
settled. The pace was a one-shot Textual timer (`set_timer`). Such a timer reads the clock when
its task starts and again right after; if the process is descheduled between the two looks for
longer than the delay, the timer counts its only tick as missed and skips it. `tick` then never
ran, and the game stalled for good, in play as in tests. This test makes exactly that happen:
the second look of every one-shot Textual timer finds the clock a second later.
"""

from __future__ import annotations

import sys

import pytest
from textual import _time
from textual.timer import Timer

from pinsetter.records import PlayerSpec
from pinsetter.session import Match
from pinsetter.ui.tui import PinsetterApp
from pinsetter.ui.tui_game import GameScreen
from tui_support import until


def descheduled_clock() -> float:
    """The clock, a second later when a one-shot timer looks at it just after noting its start."""
    caller = sys._getframe(1)
    now = REAL_CLOCK()
    if caller.f_code is Timer._run.__code__:
        timer = caller.f_locals["self"]
        if timer._repeat == 0 and "start" in caller.f_locals and "now" not in caller.f_locals:
            return now + 1.0
    return now


REAL_CLOCK = _time.get_time


async def test_a_bots_only_game_ends_though_the_process_waited(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_time, "get_time", descheduled_clock)
    app = PinsetterApp(storage=None, speed=0)
    async with app.run_test(size=(100, 30)) as pilot:
        players = [PlayerSpec("ann", "random"), PlayerSpec("bob", "random")]
        match = Match.new("tenpins", players, seed=5, options={"frames": "2"})
        screen = GameScreen(match, speed=0)
        app.push_screen(screen)
        await until(pilot, match.state.is_terminal, "the end of the game", timeout=60)
        assert not screen.tick_pending
        assert len(match.log_words()) > 4  # every ball was played, by the screen's own pace
