"""Opening the files users name: only regular files are read or replaced, and nothing hangs.

The rule (docs/cli.md, "Files"), kept here once for every reader and writer:

- A reader (a record, an import, a dice set or sheet) opens a regular file and
  nothing else. What the path names is looked up before opening it, so a FIFO
  is never waited on and a device is never opened (opening some has effects).
- A writer (a record, `--out`, `--plot`) replaces only a regular file: an
  existing symbolic link (dangling, a loop, or to a file), device, FIFO,
  socket or folder is refused before any work. Its folder must be one where a
  file can be made (not /proc or /sys): a throw-away file is made and removed
  there first. The file itself is written by rename (`write_atomically`), so a
  crash never leaves half of it, and the rename re-checks what it replaces.

Refusals are `FileRefused`, an `OSError` whose `strerror` is one translated
line: callers that already report `exc.strerror` need nothing more.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path
from typing import BinaryIO

from pinsetter.i18n import _

__all__ = ["FileRefused", "check_output", "open_to_read", "write_atomically"]


class FileRefused(OSError):
    """A path that names something other than a regular file, or a folder nothing can be written in."""

    def __init__(self, reason: str, path: str | os.PathLike[str] | None = None) -> None:
        super().__init__(errno.EINVAL, reason)
        self.filename = None if path is None else os.fspath(path)


def _kind(mode: int) -> str:
    """What a path is, in words, for a refusal."""
    if stat.S_ISDIR(mode):
        return _("it is a folder")
    if stat.S_ISFIFO(mode):
        return _("it is a named pipe (FIFO), not a regular file")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return _("it is a device, not a regular file")
    if stat.S_ISSOCK(mode):
        return _("it is a socket, not a regular file")
    return _("it is not a regular file")


def open_to_read(path: str | os.PathLike[str]) -> BinaryIO:
    """A regular file opened for reading (symbolic links followed); `FileRefused` for anything else.

    The path is looked up first, so a FIFO or device is never opened; it is opened non-blocking
    and looked at again, in case it was swapped in between.
    """
    mode = os.stat(path).st_mode  # OSError (no such file, a loop) as it is
    if not stat.S_ISREG(mode):
        raise FileRefused(_kind(mode), path)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise FileRefused(_kind(mode), path)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _replaceable(path: Path) -> bool:
    """Whether a regular file is at `path` (False: nothing is); `FileRefused` if anything else is."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return False
    except OSError as exc:  # a name too long, a file used as a folder, a loop in the folders above
        raise FileRefused(exc.strerror or str(exc), path) from None
    if stat.S_ISLNK(mode):
        try:
            os.stat(path)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise FileRefused(_("it is a symbolic link that loops"), path) from None
            raise FileRefused(_("it is a symbolic link to nothing"), path) from None
        raise FileRefused(_("it is a symbolic link; give the file it points to"), path)
    if not stat.S_ISREG(mode):
        raise FileRefused(_kind(mode), path)
    return True


def check_output(path: Path) -> bool:
    """Check, before any work, that `path` can be written by rename; True if a regular file is there.

    `FileRefused` (one line) for a path that is anything but absent or a regular file, a folder
    that does not exist, and a folder where no file can be made (read-only, /proc, /sys).
    """
    exists = _replaceable(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise FileRefused(_("the folder {folder} does not exist").format(folder=folder), path)
    if not os.access(folder, os.W_OK) or (exists and not os.access(path, os.W_OK)):
        raise FileRefused(_("cannot write there (permission denied)"), path)
    try:  # what a write by rename needs: a file made in that folder
        fd, probe = tempfile.mkstemp(prefix=".pinsetter-", suffix=".tmp", dir=folder)
    except OSError as exc:
        message = _("cannot make a file in {folder}: {error}")
        raise FileRefused(message.format(folder=folder, error=exc.strerror), path) from None
    os.close(fd)
    os.unlink(probe)
    return exists


def write_atomically(path: Path, data: bytes, clean_stale: bool = False) -> None:
    """Write a file so that a crash never leaves half of it: a temporary file, fsync, rename.

    The rename replaces nothing but a regular file (`FileRefused` otherwise). With `clean_stale`,
    temporary files of this path left by an earlier writer that was killed are removed first
    (only where one process writes the path: a record, not a shared cache).
    """
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    prefix = f".{path.name}."
    if clean_stale:
        for stale in directory.glob(f"{_glob_escape(prefix)}*.tmp"):
            stale.unlink(missing_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        _replaceable(path)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _glob_escape(text: str) -> str:
    """`text` with glob metacharacters bracketed, so a file name is matched literally."""
    return "".join(f"[{c}]" if c in "*?[" else c for c in text)
