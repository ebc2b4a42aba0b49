"""The full-screen terminal interface (Textual): the app, its colours and its end.

The screens live a module each: `tui_launcher` (the launcher and the resume question),
`tui_game` (the game screen and its help), `tui_history` (history, replay, statistics),
`tui_learn` (learn mode); the pieces they share are in `tui_common`. This module is the app
that holds them, and its way out: the program ends cleanly however its terminal goes (on SIGHUP
or SIGTERM, or when the terminal is found hung up, the game is kept and the program exits,
`TerminalWatch`). `pinsetter` (cli/app.py) starts it with `run_tui`; everything else is imported
from the module it lives in.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any, ClassVar, cast

from textual.app import App
from textual.binding import Binding, BindingType
from textual.theme import Theme

from pinsetter.i18n import N_, _
from pinsetter.ui.tui_common import translate_bindings
from pinsetter.ui.tui_game import GAME_CSS, GameScreen
from pinsetter.ui.tui_history import HISTORY_CSS
from pinsetter.ui.tui_launcher import LAUNCHER_CSS, Launcher
from pinsetter.ui.tui_learn import LEARN_CSS
from pinsetter.usertext import visible

__all__ = ["HIGH_CONTRAST", "PinsetterApp", "TerminalWatch", "run_tui"]

HANGUP_STATUS = 128 + 1  # the exit status when the terminal is gone, as if killed by SIGHUP


HIGH_CONTRAST = Theme(
    name="pinsetter-high-contrast",
    primary="#ffff00",
    secondary="#00ffff",
    accent="#ffffff",
    foreground="#ffffff",
    background="#000000",
    surface="#000000",
    panel="#202020",
    success="#00ff00",
    warning="#ffff00",
    error="#ff4040",
    dark=True,
)


class PinsetterApp(App[None]):
    """The launcher and the game screens; `PINSETTER_THEME=high-contrast` (or ctrl+t) for strong colours.

    `NO_COLOR` is respected (Textual draws in monochrome); every colour on screen has a symbol or
    a word beside it, so nothing is lost.
    """

    TITLE = "pinsetter"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+t", "contrast", N_("Contrast"), show=False)]
    # The rules every screen shares; each screen's own are in its module, under its type (App CSS
    # beats a widget's DEFAULT_CSS, so every rule is put here).
    CSS = (
        """
    #main { height: 1fr; }
    #left { width: 42; height: 1fr; }
    #right { width: 1fr; padding: 0 0 0 1; }
    .hidden { display: none; }
    #log { height: 1fr; min-height: 3; border: round $secondary; }
    #log-text { height: auto; }
    .row { height: auto; }
    .row Button { margin-right: 1; min-width: 8; width: auto; }
    #help { padding: 1 2; background: $panel; border: round $primary; margin: 1 2; }
    HelpScreen #help { margin: 0 1; padding: 0 1; }
    #rules-text, #keys-text { height: auto; }
    """
        + GAME_CSS
        + LEARN_CSS
        + HISTORY_CSS
        + LAUNCHER_CSS
    )

    def __init__(self, storage: Any = None, speed: int = 1, storage_warning: str = "", guard: bool = False) -> None:
        """`storage_warning`: why there is no history (shown; games play on). `guard`: watch the
        real terminal and the signals that end the program (`run_tui`; never in tests' pilots)."""
        super().__init__(driver_class=guarded_driver() if guard else None)
        translate_bindings(self)  # with the command palette's key, which Textual adds in __init__
        self.storage = storage
        self.speed = speed
        self.storage_warning = storage_warning
        self.guard = guard
        self.terminal_watch: TerminalWatch | None = None
        self.register_theme(HIGH_CONTRAST)
        if os.environ.get("PINSETTER_THEME", "") == "high-contrast":
            self.theme = HIGH_CONTRAST.name

    def action_contrast(self) -> None:
        """Between the high-contrast theme and Textual's default."""
        self.theme = "textual-dark" if self.theme == HIGH_CONTRAST.name else HIGH_CONTRAST.name

    @classmethod
    def open(cls, db: str | None = None, **kwargs: Any) -> PinsetterApp:
        """The app on the history at `db` (default: PINSETTER_DB); without one, it warns and plays on."""
        from pinsetter.storage import Storage

        try:
            return cls(storage=Storage(db), **kwargs)
        except Exception as exc:  # any driver or migration failure, as `pinsetter play` does
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            warning = _("games are not kept in the history ({reason})").format(reason=visible(first))
            return cls(storage=None, storage_warning=warning, **kwargs)

    def on_mount(self) -> None:
        self.push_screen(Launcher())
        if self.guard and not self.is_headless:
            self.guard_terminal()

    def guard_terminal(self) -> None:
        """End cleanly on SIGHUP/SIGTERM and when the terminal is gone, keeping the game."""
        loop = asyncio.get_running_loop()
        for name in ("SIGHUP", "SIGTERM"):
            number = getattr(signal, name, None)
            if number is not None:
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # none on Windows
                    loop.add_signal_handler(number, self.leave_now, 128 + int(number))

        def lost() -> None:
            with contextlib.suppress(RuntimeError):  # the loop is already closed: the app is ending anyway
                loop.call_soon_threadsafe(self.leave_now, HANGUP_STATUS)

        if sys.__stdin__ is not None and sys.__stdin__.isatty():
            self.terminal_watch = TerminalWatch(sys.__stdin__.fileno(), lost)
            self.terminal_watch.start()

    def keep_games(self) -> None:
        """Save the game being played to the history now (every step is already saved as it is played)."""
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                # The terminal may be gone: there is nowhere to report a failure, and leaving matters more.
                with contextlib.suppress(Exception):
                    screen.match.store()

    def leave_now(self, status: int) -> None:
        """The terminal is gone or the program was told to stop: keep the game, then end."""
        self.keep_games()
        self.exit(return_code=status)


class TerminalWatch:
    """Ends the program when its terminal is gone: a closed window or a lost connection.

    A closed terminal is hung up: reading it gives end-of-file and its writes and ioctls
    fail with EIO. A program that is not the terminal's session leader (`make play` runs it
    under make) gets no SIGHUP, and Textual's input thread takes end-of-file for "no input
    yet" and spins on it: so the terminal is checked twice a second and, once it is gone,
    `on_lost` is called. Should the app still not have ended after `grace` seconds, the
    process exits anyway; the history already holds every step played.
    """

    def __init__(self, fd: int, on_lost: Callable[[], None], interval: float = 0.5, grace: float = 10.0) -> None:
        self.fd = fd
        self.on_lost = on_lost
        self.interval = interval
        self.grace = grace
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, name="pinsetter-terminal-watch", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopped.set()

    def run(self) -> None:
        while not self.stopped.wait(self.interval):
            if not terminal_alive(self.fd):
                self.on_lost()
                if not self.stopped.wait(self.grace):
                    os._exit(HANGUP_STATUS)
                return


class TerminalOutput:
    """The terminal's output stream, dropping what it cannot write once the terminal is gone.

    Textual writes from a thread through a short queue: an EIO from a hung-up terminal
    would end that thread, the queue would fill, and the app would block on its next
    write, unable even to exit.
    """

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return int(self.stream.write(text))
            except (OSError, ValueError):  # EIO, or the stream is closed
                self.gone = True
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self.stream.flush()
            except (OSError, ValueError):
                self.gone = True

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def guarded_driver() -> Any:
    """Textual's terminal driver with its output through `TerminalOutput` (None: Textual's choice)."""
    if sys.platform == "win32":
        return None
    from textual.drivers.linux_driver import LinuxDriver

    class GuardedDriver(LinuxDriver):
        def __init__(self, app: Any, **kwargs: Any) -> None:
            super().__init__(app, **kwargs)
            if getattr(self, "_file", None) is not None:  # the stream Textual's writer thread uses
                self._file = cast(Any, TerminalOutput(self._file))

    return GuardedDriver


def terminal_alive(fd: int) -> bool:
    """Whether `fd` is still a working terminal (a hung-up one fails every ioctl with EIO)."""
    import termios

    try:
        termios.tcgetattr(fd)
    except (termios.error, OSError):
        return False
    return True


def run_tui(db: str | None = None) -> None:
    """The full-screen interface on the real terminal; exits with 129 (hang-up) or 143 (SIGTERM) when so ended."""
    app = PinsetterApp.open(db, guard=True)
    try:
        app.run()
    finally:
        if app.terminal_watch is not None:
            app.terminal_watch.stop()
    if app.return_code:
        raise SystemExit(app.return_code)
