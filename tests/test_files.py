"""Files and history locations users name: nothing but a regular file is read or replaced, nothing hangs.

Issue 27, items 1 and 3 (docs/cli.md, "Files"). Every case runs the real command
line in this process and asserts exit status 2, exactly one line on stderr,
and the path left as it was. A reader or writer that waits on a FIFO would
block for ever: an alarm turns that into a failure instead of a hung suite.
Devices are `mknod` copies of /dev/null in the test's folder (as root), so a
regression replaces the copy, never the system's device.
"""

from __future__ import annotations

import json
import os
import signal
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

import pytest

from pinsetter.cli.app import main
from pinsetter.core.files import FileRefused, write_atomically
from pinsetter.records import PlayerSpec
from pinsetter.session import Match

ALARM_SECONDS = 30


class Hung(BaseException):
    """Raised by the alarm: a BaseException, so that no `except Exception` in the command hides it."""


@pytest.fixture(autouse=True)
def no_hang() -> Iterator[None]:
    def ring(signum: int, frame: FrameType | None) -> None:
        raise Hung("the command hung on a file")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(ALARM_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run a command that must be refused: exit 2, one line on stderr, nothing on stdout; that line."""
    code, out, err = run(args, capsys)
    assert code == 2, f"{args}: exit {code}, stderr {err!r}"
    assert len(err.splitlines()) == 1 and err.startswith("pinsetter"), f"{args}: {err!r}"
    assert out == "" and "Traceback" not in err, f"{args}: {out!r} {err!r}"
    return err


def fingerprint(path: Path) -> tuple[int, int, int, str | None]:
    """What a path is (mode, device numbers, inode, a link's target), to check it was left untouched."""
    info = os.lstat(path)
    target = os.readlink(path) if stat.S_ISLNK(info.st_mode) else None
    return info.st_mode, info.st_rdev, info.st_ino, target


# --- what a path can be -------------------------------------------------------------------------


def make_fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def make_device(path: Path) -> Path:
    """A character device like /dev/null (1, 3), made here: a regression replaces this copy only."""
    if os.geteuid() != 0:  # only root can make one; the system's /dev/null cannot be replaced by others
        return Path("/dev/null")
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    return path


def make_dangling_link(path: Path) -> Path:
    path.symlink_to(path.parent / "nowhere" / "x.json")
    return path


def make_link_loop(path: Path) -> Path:
    path.symlink_to(path.name)  # points to itself
    return path


def make_link_to_file(path: Path) -> Path:
    target = path.with_name("real-" + path.name)
    target.write_text("kept")
    path.symlink_to(target.name)
    return path


def make_empty_file(path: Path) -> Path:
    path.touch()
    return path


Maker = Callable[[Path], Path]
NOT_FILES: dict[str, Maker] = {"fifo": make_fifo, "device": make_device}
NOT_REPLACEABLE: dict[str, Maker] = {
    **NOT_FILES,
    "dangling symlink": make_dangling_link,
    "symlink loop": make_link_loop,
    "symlink to a file": make_link_to_file,
}


# --- readers: a FIFO or a device answers one line at once ---------------------------------------

READERS: dict[str, Callable[[str, str], list[str]]] = {
    "replay": lambda path, db: ["replay", path],
    "import": lambda path, db: ["import", path, "--db", db],
    "play --resume": lambda path, db: ["play", "--resume", path, "--db", db],
    "hint --record": lambda path, db: ["hint", "rolling-pins", "--record", path],
    "--option sheet=": lambda path, db: ["play", "rolling-pins", "-p", "bot:random", "-o", f"sheet={path}", "--db", db],
    "analyze --dice": lambda path, db: ["analyze", "bowling-dice", "--dice", path],
}


@pytest.mark.parametrize("kind", NOT_FILES)
@pytest.mark.parametrize("reader", READERS)
def test_a_reader_given_a_fifo_or_device_answers_one_line_at_once(
    reader: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = NOT_FILES[kind](tmp_path / "in.json")
    before = fingerprint(path)
    db = tmp_path / "h.sqlite"
    err = refused(READERS[reader](str(path), str(db)), capsys)
    assert "not a regular file" in err and str(path) in err
    assert fingerprint(path) == before
    if reader == "import":
        assert not db.exists(), "a file that cannot be read makes no history"


def test_an_option_file_without_a_suffix_is_read_as_a_file_and_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An existing path in `--option sheet=` is a file name even without `.json`: a FIFO there is named."""
    path = make_fifo(tmp_path / "sheet")
    err = refused(["play", "rolling-pins", "-p", "bot:random", "-o", f"sheet={path}"], capsys)
    assert "named pipe" in err and "sheet" in err


# --- writers: only a regular file is replaced, checked before any work -------------------------

WRITERS: dict[str, Callable[[str, str], list[str]]] = {
    "play --record": lambda path, db: ["play", "tenpins", "-p", "bot:random", "--record", path, "--db", db],
    "export --out": lambda path, db: ["export", "--out", path, "--db", db],
    "simulate --out": lambda path, db: ["simulate", "tenpins", "--games", "3", "--out", path, "--db", db],
    "analyze --plot": lambda path, db: ["analyze", "tenpins", "--plot", path],
    "stats --plot": lambda path, db: ["stats", "--plot", path, "--db", db],
}


@pytest.mark.parametrize("kind", NOT_REPLACEABLE)
@pytest.mark.parametrize("writer", WRITERS)
def test_a_writer_never_replaces_what_is_not_a_regular_file(
    writer: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = NOT_REPLACEABLE[kind](tmp_path / "out.png")
    before = fingerprint(path)
    db = tmp_path / "h.sqlite"
    err = refused(WRITERS[writer](str(path), str(db)), capsys)
    assert str(path) in err
    assert fingerprint(path) == before, f"{writer} changed the {kind}"
    if kind == "symlink to a file":
        assert (tmp_path / "real-out.png").read_text() == "kept"
    assert not db.exists(), "refused before any work: no game, run or history"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_play_record_never_writes_over_an_empty_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's case: an empty file counted as absent and was replaced by the record."""
    path = make_empty_file(tmp_path / "r.json")
    err = refused(["play", "tenpins", "-p", "bot:random", "--record", str(path)], capsys)
    assert "empty" in err
    assert path.is_file() and path.stat().st_size == 0


@pytest.mark.parametrize("option", ["--record", "--out"])
def test_the_systems_device_stays_a_device(
    option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`play --record /dev/full`, the issue's case, on the real device (a rename onto it fails the test instead)."""
    real_replace = os.replace

    def guarded(src: str, dst: str, *args: object, **kwargs: object) -> None:
        assert os.path.realpath(dst) != "/dev/full", "a rename onto /dev/full was attempted"
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", guarded)
    before = fingerprint(Path("/dev/full"))
    db = str(tmp_path / "h.sqlite")
    if option == "--record":
        refused(["play", "tenpins", "-p", "bot:random", "--record", "/dev/full", "--db", db], capsys)
    else:
        refused(["export", "--out", "/dev/full", "--db", db], capsys)
    assert stat.S_ISCHR(os.lstat("/dev/full").st_mode) and fingerprint(Path("/dev/full")) == before


@pytest.mark.parametrize(
    "args",
    [
        ["export", "--out", "/proc/version"],  # a regular file by its mode, in a folder where no file can be made
        ["simulate", "tenpins", "--games", "3", "--out", "/proc/pinsetter.csv"],
        ["analyze", "tenpins", "--plot", "/proc/pinsetter.png"],
        ["play", "tenpins", "-p", "bot:random", "--record", "/proc/pinsetter.json"],
    ],
    ids=["export", "simulate", "analyze", "play"],
)
def test_writing_into_proc_is_refused_before_any_work(
    args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "h.sqlite"
    refused([*args, "--db", str(db)] if args[0] != "analyze" else args, capsys)
    assert not db.exists()


def test_outputs_still_replace_their_own_regular_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The rule refuses only what is not a regular file: an export over an older export is written, by rename."""
    db = tmp_path / "h.sqlite"
    assert run(["play", "tenpins", "-p", "bot:random", "--seed", "1", "--db", str(db)], capsys)[0] == 0
    out = tmp_path / "all.jsonl"
    out.write_text("old\n")
    assert run(["export", "--out", str(out), "--db", str(db)], capsys)[0] == 0
    assert json.loads(out.read_text().splitlines()[0])["game"] == "tenpins"
    table = tmp_path / "games.csv"
    table.write_text("old\n")
    assert run(["simulate", "tenpins", "--games", "3", "--out", str(table), "--db", str(db)], capsys)[0] == 0
    assert table.read_text().splitlines()[0].startswith("game,seed,")
    assert len(table.read_text().splitlines()) == 4


def test_resuming_through_a_link_writes_the_file_it_points_to(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game continued in place is written into the real file; the link stays a link."""
    real = tmp_path / "game.json"
    match = Match.new("tenpins", [PlayerSpec("bot", "random")], seed=3, record_path=real)
    for _step in range(3):
        match.advance()
    link = tmp_path / "link.json"
    link.symlink_to(real.name)
    code, _out, err = run(["play", "--resume", str(link), "--db", str(tmp_path / "h.sqlite")], capsys)
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == real.name
    assert json.loads(real.read_text())["result"]["complete"] is True


def test_the_rename_itself_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    """Even past the checks (a path swapped in after them), `write_atomically` replaces no FIFO."""
    fifo = make_fifo(tmp_path / "r.json")
    with pytest.raises(FileRefused, match="named pipe"):
        write_atomically(fifo, b"{}")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"], "no temporary file is left"


# --- item 3: history locations and text that is not UTF-8 --------------------------------------


def test_a_history_path_that_is_not_utf8_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "\udcff.sqlite"  # the byte 0xff on the command line, as Python decodes argv
    records = tmp_path / "records.jsonl"
    records.write_text("{}\n")
    for command in (["history"], ["stats"], ["export"], ["show", "1"], ["import", str(records)]):
        err = refused([*command, "--db", str(path)], capsys)
        assert "UTF-8" in err
    assert list(tmp_path.iterdir()) == [records]


@pytest.mark.parametrize("command", ["stats", "history"])
def test_a_player_that_is_not_utf8_is_one_line(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    err = refused([command, "--player", "a\udcffb"], capsys)
    assert "--player" in err and "UTF-8" in err and "internal error" not in err


@pytest.mark.parametrize("command", ["history", "stats", "show 1", "export"])
def test_read_only_commands_create_no_folder_and_no_database(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`history --db /nonexistent/dir/x.sqlite` made both: a history that is not there reads as empty."""
    for where in (tmp_path / "no" / "such" / "x.sqlite", tmp_path / "x.sqlite"):
        code, _out, err = run([*command.split(), "--db", str(where)], capsys)
        if command == "show 1":
            assert code == 2 and "no game 1" in err
        else:
            assert code == 0 and err == "", err
    assert list(tmp_path.iterdir()) == []


def test_the_default_history_is_not_created_by_reading_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PINSETTER_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path))
    code, out, _err = run(["history"], capsys)
    assert code == 0 and out.strip() == "no games yet"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "args",
    [
        ["history", "--db", ""],
        ["stats", "--db", " "],
        ["simulate", "tenpins", "--games", "2", "--db", "nosuch://x"],
        ["play", "tenpins", "-p", "bot:random", "--db", "nosuch://x"],
        ["simulate", "tenpins", "--games", "2", "--db", "nosuch://ann:secret@host/x"],
    ],
    ids=["history empty", "stats blank", "simulate unknown kind", "play unknown kind", "password hidden"],
)
def test_a_location_that_names_no_history_is_refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Not a warning and a game or run played anyway: the location itself is wrong."""
    err = refused(args, capsys)
    assert "secret" not in err and "warning" not in err


def test_a_history_that_cannot_be_opened_now_still_lets_a_game_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The other side of the rule: a good location that fails (a file where its folder should be) warns."""
    (tmp_path / "file").write_text("")
    code, _out, err = run(["play", "tenpins", "-p", "bot:random", "--db", str(tmp_path / "file" / "h.sqlite")], capsys)
    assert code == 0 and "warning" in err


@pytest.mark.parametrize("origin", ["http://\x1b[2J", "http://[::1", "https://bowl.example\x07", "http://a b"])
def test_an_origin_holding_escapes_is_one_line(
    origin: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def served(*args: object, **kwargs: object) -> None:
        raise AssertionError("the server started with a bad --origin")

    monkeypatch.setattr("uvicorn.Server.run", served)  # a regression fails here instead of serving for ever
    err = refused(["serve", "--origin", origin, "--port", "0"], capsys)
    assert "--origin" in err and "\x1b" not in err and "IPv6" not in err


@pytest.mark.parametrize("option", ["sheet", "dice"])
def test_inline_json_longer_than_a_file_name_is_read_as_json(option: str, capsys: pytest.CaptureFixture[str]) -> None:
    value = "[" + ",".join(["1"] * 300) + "]"  # 601 characters: no file name is that long
    game = "rolling-pins" if option == "sheet" else "bowling-dice"
    err = refused(["play", game, "-p", "bot:random", "-o", f"{option}={value}"], capsys)
    assert "File name too long" not in err and f"option {option}" in err
    err = refused(["play", game, "-p", "bot:random", "-o", f"{option}={{" + "x" * 600 + "}"], capsys)
    assert "File name too long" not in err
