"""What every command shares: the Typer app, one-line user errors, strict argument types, safe output.

A user error is one line on stderr and exit status 2, found before any work
is done: numbers are ASCII whole numbers in a stated range, output paths are
checked (folder exists, not a folder, right suffix) before a long run starts.
User text (names, file names) is printed literally: never as Rich markup, and
with control characters made visible.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from pinsetter.cli.plain_values import PlainGroup
from pinsetter.core.game import GameError
from pinsetter.core.seeds import SEED_MAX
from pinsetter.i18n import N_, _
from pinsetter.usertext import visible

if TYPE_CHECKING:
    from pinsetter.storage import Storage

app = typer.Typer(
    help=N_("Play and solve four bowling-themed tabletop games."),
    no_args_is_help=False,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    cls=PlainGroup,  # values converted without pydantic (start-up time)
)

MAX_GAMES = 10**9
PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def fail(message: str) -> NoReturn:
    """A user error: one line on stderr, exit status 2."""
    typer.echo(f"pinsetter: {one_line(message)}", err=True)
    raise typer.Exit(2)


def one_line(text: str) -> str:
    """Whitespace runs (newlines too) collapsed, control characters made visible."""
    return visible(" ".join(text.split()))


_ASCII_WHOLE = re.compile(r"[0-9]+")


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """A parser for an ASCII whole number in low..high (no `1.5`, `1e3`, Arabic-Indic digits, `1_000`)."""

    def parse(text: str | int) -> int:
        if isinstance(text, int):  # a default value
            return text
        raw = text.strip()
        if not _ASCII_WHOLE.fullmatch(raw) or len(raw) > 30:
            raise typer.BadParameter(
                _("{text} is not a whole number from {low} to {high}").format(
                    text=repr(visible(text)), low=low, high=high
                )
            )
        value = int(raw)
        if not low <= value <= high:
            raise typer.BadParameter(_("{value} is not in {low}..{high}").format(value=value, low=low, high=high))
        return value

    parse.__name__ = f"whole number {low}..{high}"
    return parse


def output_path(path: Path | None, option: str, suffixes: Sequence[str] = ()) -> Path | None:
    """Check an output file before any work (`check_output`: a regular file or nothing, in a folder it can write)."""
    from pinsetter.core.files import check_output

    if path is None:
        return None
    shown = visible(str(path))
    if suffixes and path.suffix.lower() not in suffixes:
        fail(
            _("{option} {path}: the file name must end in {suffixes}").format(
                option=option, path=shown, suffixes=_(" or ").join(suffixes)
            )
        )
    try:
        check_output(path)
    except OSError as exc:
        fail(f"{option} {shown}: {exc.strerror}")
    return path


def plot_path(path: Path | None, option: str = "--plot") -> Path | None:
    """A plot's output file, checked before any work; plots need matplotlib, an extra (`pinsetter[plot]`)."""
    import importlib.util

    checked = output_path(path, option, PLOT_SUFFIXES)
    if checked is not None and importlib.util.find_spec("matplotlib") is None:
        fail(
            _("{option}: drawing a plot needs matplotlib, which is not installed: {command}").format(
                option=option, command="pip install 'pinsetter[plot]'"
            )
        )
    return checked


def write_file(path: Path, data: str | bytes, option: str) -> None:
    """Write an output file by rename (`write_atomically`): a crash never leaves half of it."""
    from pinsetter.core.files import write_atomically

    try:
        write_atomically(path, data.encode("utf-8") if isinstance(data, str) else data)
    except OSError as exc:
        fail(f"{option} {visible(str(path))}: {exc.strerror}")


def parse_options(game_id: str, pairs: list[str] | None) -> dict[str, object]:
    """`--option key=value` pairs; a data-file option is read here, once, and travels inline."""
    from pinsetter.core.datafile import resolve_option_files

    options: dict[str, object] = {}
    for pair in pairs or []:
        if "=" not in pair:
            fail(_("--option {pair}: expected key=value").format(pair=repr(visible(pair))))
        key, value = pair.split("=", 1)
        if key.strip() in options:  # the last one would win without a word
            fail(_("--option {key} is given twice: give it once").format(key=repr(visible(key.strip()))))
        options[key.strip()] = value.strip()
    try:
        return resolve_option_files(game_id, options)
    except GameError as exc:
        fail(str(exc))


def emit_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


def echo_rules(text: str) -> None:
    """A game's rules (`Game.rules()`) on the terminal, wrapped to its width, 79 at most: headings bold."""
    from pinsetter.ui.rules_view import wrapped_rules

    width = min(shutil.get_terminal_size().columns, 80) - 1  # a full line wraps early in some terminals
    for line, heading in wrapped_rules(text, width):
        typer.secho(line, bold=heading or None)


def open_storage(url: str | None, read_only: bool = False) -> Storage:
    """The history, or one line; `read_only` (history, show, stats, export) makes nothing that is not there."""
    from pinsetter.storage import Storage, StorageError

    try:
        return Storage(url, read_only=read_only)
    except StorageError as exc:  # one line, without any password in the URL
        fail(str(exc))


def try_storage(url: str | None, warning: str = "") -> Storage | None:
    """The history for a game or run; one that cannot be opened now lets it go on, with a warning.

    A location that can name no history (empty, not a database URL, not UTF-8) is refused.
    """
    from pinsetter.storage import LocationError, Storage, StorageError

    try:
        return Storage(url)
    except LocationError as exc:
        fail(str(exc))
    except StorageError as exc:
        message = warning or _("pinsetter: warning: this game is not kept in the history ({reason})")
        typer.echo(message.format(reason=one_line(str(exc))), err=True)
        return None


def utf8_text(text: str) -> str:
    """Command-line text that is looked up in the history: undecodable bytes are refused, not crashed on."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise typer.BadParameter(_("{text} is not valid UTF-8").format(text=repr(visible(text)))) from None
    return text


def known_game(text: str) -> str:
    """A registered game id: every command taking a game refuses an unknown one before anything else."""
    from pinsetter.games.registry import game_class

    try:
        game_class(text)
    except GameError as exc:  # said as `play` says it, not as the parser's "Invalid value for 'game': ..."
        fail(str(exc))
    return text


GameArg = Annotated[str, typer.Argument(help=N_("game id (see `pinsetter games`)"), parser=known_game)]
DbOpt = Annotated[
    str | None,
    typer.Option("--db", help=N_("the game history: a SQLite file path or a SQLAlchemy URL (default: PINSETTER_DB)")),
]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        help=N_("game option key=value (repeatable); a dice set or sheet may be a JSON or TOML file: dice=FILE"),
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help=N_("print JSON"))]
SeedOpt = Annotated[
    int | None,
    typer.Option(help=N_("seed for a reproducible game (0 to 9223372036854775807)"), parser=whole_number(0, SEED_MAX)),
]
