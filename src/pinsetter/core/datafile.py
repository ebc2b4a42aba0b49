"""Reading the data files users may supply (dice sets, sheets): JSON or TOML by suffix."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from pinsetter.core.game import OptionError

__all__ = ["read_data_file"]


def read_data_file(path: Path, what: str) -> Any:
    """The parsed contents; errors name the file and what is wrong with it."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise OptionError(f"cannot read {what} file {path}: {exc.strerror}") from None
    kind = "toml" if path.suffix == ".toml" else "json"
    try:
        return tomllib.loads(raw.decode()) if kind == "toml" else json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise OptionError(f"{path}: not valid {kind}: {exc}") from None
