"""The real program in a pseudo-terminal: however its terminal goes, it keeps the game and exits (issue 10).

Closing a terminal window (or losing the connection) closes the pseudo-terminal's
master side. The program is then hung up: as the terminal's session leader it gets
SIGHUP; started under another program (`make play` runs it under make) it gets no
signal at all, only a terminal that reads end-of-file and fails writes with EIO. It
used to spin on that dead terminal forever (and make, which on SIGHUP waits for its
children, with it). Each test waits for the exit with a generous limit (polling,
not a timing assertion) and checks the history.
"""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pinsetter.storage import Storage
from pinsetter.ui.tui_common import ENTER_GUARD

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pseudo-terminals and /proc")

PINSETTER = Path(sys.executable).parent / "pinsetter"
LIMIT = 60.0  # seconds: generous, only so that a hanging program fails the test instead of blocking it
HANGUP_STATUS = 129  # 128 + SIGHUP


class Terminal:
    """A pseudo-terminal running a command as its session leader, as a terminal window does."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        import pty

        self.output = b""
        pid, fd = pty.fork()
        if pid == 0:  # the child: the pty's slave side is its controlling terminal and stdio
            try:
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.exit_status: int | None = None
        self.inner: list[int] = []  # programs started inside (under a parent), ended with it
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 46, 150, 0, 0))
        self.open = True

    def read(self, wait: float = 0.1) -> None:
        """Take what the program wrote (so that it never blocks on a full terminal)."""
        while self.open and select.select([self.fd], [], [], wait)[0]:
            try:
                chunk = os.read(self.fd, 1 << 16)
            except OSError:  # the program's side is closed
                return
            if not chunk:
                return
            self.output += chunk
            wait = 0

    def wait_for(self, text: bytes) -> None:
        deadline = time.monotonic() + LIMIT
        while text not in self.output:
            assert time.monotonic() < deadline, f"{text!r} never appeared: {self.output[-400:]!r}"
            self.read(0.2)

    def send(self, keys: bytes) -> None:
        os.write(self.fd, keys)
        self.read(0.3)

    def close(self) -> None:
        """Close the window: the master side goes, the terminal is hung up."""
        if self.open:
            self.read(0)
            os.close(self.fd)
            self.open = False

    def status(self) -> int | None:
        """The session leader's exit status once it has exited, else None."""
        if self.exit_status is None:
            self.read(0)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.exit_status = os.waitstatus_to_exitcode(status)
        return self.exit_status


def running(pid: int) -> bool:
    """Whether a process (not our child: an orphan, reaped by init or not) is still running."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def wait_until(condition: object, what: str) -> None:
    deadline = time.monotonic() + LIMIT
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"still waiting: {what}"
        time.sleep(0.1)


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    """Every terminal a test opens is closed and its program ended afterwards, even on failure."""
    opened: list[Terminal] = []
    yield opened
    for terminal in opened:
        terminal.close()
        for pid in [terminal.pid] if terminal.status() is None else []:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        for pid in terminal.inner:
            if running(pid):
                os.kill(pid, signal.SIGKILL)


def start_game(terminal: Terminal, db: str) -> None:
    """Start Ten Pins from the launcher."""
    terminal.wait_for(b"Players")
    time.sleep(ENTER_GUARD + 0.5)  # an Enter pressed just as a screen opens is ignored, by design
    terminal.send(b"\r")  # the highlighted game (Ten Pins) starts
    terminal.wait_for(b"pins standing")


def roll(terminal: Terminal, storage: Storage, rolls: int) -> int:
    """Roll `rolls` times (each is saved as it is played); the steps of the history's game."""
    for n in range(1, rolls + 1):
        terminal.send(b" ")
        wait_until(lambda n=n: storage.history() and storage.history()[0].steps >= n, f"roll {n} stored")
    stored = storage.history()
    assert len(stored) == 1 and not stored[0].finished
    return stored[0].steps


def environment(db: str) -> dict[str, str]:
    return {**os.environ, "PINSETTER_DB": db, "TERM": "xterm-256color"}


def test_closing_the_terminal_ends_the_program_and_keeps_the_game(tmp_path: Path, terminals: list[Terminal]) -> None:
    """Two windows at once: the issue's case, the program run under another one (like `make play`),
    Ctrl+C (Textual's quit prompt), window closed; and the program alone in its window (SIGHUP)."""
    pidfile = tmp_path / "pid"
    parent = (  # like make: the session leader gets SIGHUP, catches it and waits for its child
        "import signal, subprocess, sys; signal.signal(signal.SIGHUP, lambda *_: None); "
        "child = subprocess.Popen(sys.argv[1:]); "
        f"open({str(pidfile)!r}, 'w').write(str(child.pid)); sys.exit(child.wait())"
    )
    under, alone = f"sqlite:///{tmp_path / 'under.sqlite'}", f"sqlite:///{tmp_path / 'alone.sqlite'}"
    terminals.append(Terminal([sys.executable, "-c", parent, str(PINSETTER)], environment(under)))
    terminals.append(Terminal([str(PINSETTER)], environment(alone)))
    for terminal, db in zip(terminals, (under, alone), strict=True):
        start_game(terminal, db)
    histories = [Storage(under), Storage(alone)]
    steps = [roll(terminal, storage, 2) for terminal, storage in zip(terminals, histories, strict=True)]
    program = int(pidfile.read_text())
    terminals[0].inner.append(program)
    terminals[0].send(b"\x03")  # Ctrl+C: Textual asks whether to quit
    for terminal in terminals:
        terminal.close()
    wait_until(lambda: not running(program), "the program under a parent exits once its terminal is gone")
    wait_until(lambda: all(t.status() is not None for t in terminals), "the parent and the other program exit")
    assert terminals[1].status() == HANGUP_STATUS
    for storage, kept in zip(histories, steps, strict=True):
        stored = storage.history()
        assert len(stored) == 1 and stored[0].steps == kept and not stored[0].finished


def test_sigterm_keeps_the_game_and_gives_the_terminal_back(tmp_path: Path, terminals: list[Terminal]) -> None:
    db = f"sqlite:///{tmp_path / 'history.sqlite'}"
    terminal = Terminal([str(PINSETTER)], environment(db))
    terminals.append(terminal)
    start_game(terminal, db)
    storage = Storage(db)
    steps = roll(terminal, storage, 1)
    os.kill(terminal.pid, signal.SIGTERM)
    wait_until(lambda: terminal.status() is not None, "the program exits on SIGTERM")
    assert terminal.status() == 128 + signal.SIGTERM
    assert b"\x1b[?1049l" in terminal.output  # the alternate screen was left: the terminal is usable again
    stored = storage.history()
    assert len(stored) == 1 and stored[0].steps == steps
