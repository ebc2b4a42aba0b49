"""Reading the data files users may supply (dice sets, sheets): JSON or TOML by suffix.

Only the command line reads them, once, when a game starts
(`resolve_option_files`); the game engines take the data inline, so a record
carries its sheet or dice set and replaying it never opens a path.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pinsetter.core.files import open_to_read
from pinsetter.core.game import OptionError
from pinsetter.i18n import _

__all__ = ["parse_data", "read_data_file", "resolve_option_files"]

DATA_SUFFIXES = (".json", ".toml")


def read_data_file(path: Path, what: str) -> Any:
    """The parsed contents; errors name the file and what is wrong with it."""
    try:
        with open_to_read(path) as handle:  # a regular file only: a FIFO or device is refused, not waited on
            raw = handle.read()
    except OSError as exc:
        message = _("cannot read {what} file {path}: {error}")
        raise OptionError(message.format(what=what, path=path, error=exc.strerror)) from None
    return parse_data(raw, "toml" if path.suffix.lower() == ".toml" else "json", str(path))


def parse_data(raw: bytes, kind: str, where: str) -> Any:
    """A data file's bytes parsed as `kind` ("json" or "toml"); errors name `where` (a path, a file's name)."""
    try:
        return tomllib.loads(raw.decode()) if kind == "toml" else json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise OptionError(_("{path}: not valid {kind}: {error}").format(path=where, kind=kind, error=exc)) from None


def resolve_option_files(game_id: str, options: Mapping[str, object]) -> dict[str, object]:
    """Options with every data file named in them replaced by its contents as inline JSON.

    For the command line only, called once on the `--option` values before the
    game is built. An option whose spec `reads_file` keeps a value its parser
    accepts inline ('default', JSON, inline faces); a value starting with `{`
    or `[` is inline JSON and is never taken for a file name; any other value
    naming a `.json`/`.toml` file or an existing path is read (a regular file
    only) and replaced by the JSON text of its contents, checked at once so
    that errors name the file. Other options, and unknown ones, pass through
    for the game to judge.
    """
    from pinsetter.games.registry import game_class

    specs = {spec.name: spec for spec in game_class(game_id).option_specs}
    resolved = dict(options)
    for name, value in options.items():
        spec = specs.get(name)
        if spec is None or not spec.reads_file or not isinstance(value, str):
            continue
        try:
            spec.read(value)
            continue  # inline data
        except OptionError:
            text = value.strip()
            if text.startswith(("{", "[")):  # inline JSON, however long: its error is the answer
                raise
            path = Path(text)
            if path.suffix.lower() not in DATA_SUFFIXES and not _exists(path):
                raise
        text = json.dumps(read_data_file(path, name), separators=(",", ":"), default=str)
        try:
            spec.read(text)
        except OptionError as exc:
            raise OptionError(f"{path}: {exc}") from None
        resolved[name] = text
    return resolved


def _exists(path: Path) -> bool:
    """Whether anything is at `path` (a dangling link too); False for a text that cannot be a path."""
    try:
        os.lstat(path)
    except (OSError, ValueError):  # no such file, a name too long, a NUL byte
        return False
    return True
