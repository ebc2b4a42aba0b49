"""The argument parser's own texts, in the project catalog so that `--lang ja` covers them too.

Typer's help layout (`Arguments`, `Options`, `Commands`, ...) is looked up
with gettext in `typer.core`: `use_project_catalog` points those lookups at
`pinsetter.i18n`. The parser's error lines come from Typer's bundled click
as English text: `parser_message` recognises the common ones and says them
in the current language (an unrecognised one stays English, still one line).
"""

from __future__ import annotations

import re
import sys

import typer.core  # noqa: F401  (the module whose lookups use_project_catalog redirects)
from typer._click.core import Context
from typer._click.formatting import HelpFormatter

from pinsetter.i18n import N_, _

__all__ = ["parser_message", "use_project_catalog"]

# Typer's own section titles and messages (typer.core looks them up with gettext).
TYPER_MESSAGES = (
    N_("Usage: "),
    N_("Arguments"),
    N_("Options"),
    N_("Commands"),
    N_("Missing command."),
    N_("No such command {name!r}."),
    N_("Aborted!"),
    N_("default: {default}"),
    N_("required"),
    N_("env var: {var}"),
)

# (English line as the parser writes it, the same message in the catalog).
_PARSER_LINES = (
    (re.compile(r"Invalid value for (?P<hint>.+?): (?P<message>.*)", re.S), N_("Invalid value for {hint}: {message}")),
    (re.compile(r"Invalid value: (?P<message>.*)", re.S), N_("Invalid value: {message}")),
    (re.compile(r"Missing argument (?P<hint>.+?)\.", re.S), N_("Missing argument {hint}.")),
    (re.compile(r"Missing option (?P<hint>.+?)\.", re.S), N_("Missing option {hint}.")),
    (
        re.compile(r"No such option: (?P<option>\S+) \(Possible options: (?P<options>.*)\)", re.S),
        N_("No such option: {option} (Possible options: {options})"),
    ),
    (re.compile(r"No such option: (?P<option>\S+)", re.S), N_("No such option: {option}")),
    (re.compile(r"Option (?P<option>'.*') requires an argument\.", re.S), N_("Option {option} requires an argument.")),
    (
        re.compile(r"Option (?P<option>'.*') does not take a value\.", re.S),
        N_("Option {option} does not take a value."),
    ),
    (
        re.compile(r"Got unexpected extra arguments? \((?P<args>.*)\)", re.S),
        N_("Got unexpected extra arguments ({args})"),
    ),
    (re.compile(r"Missing command\.", re.S), N_("Missing command.")),
    (re.compile(r"No such command (?P<name>'.*')\.", re.S), N_("No such command {name}.")),
)


class TranslatedHelpFormatter(HelpFormatter):
    """The help's `Usage:` line in the current language."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args, _("Usage: ") if prefix is None else prefix)


def parser_message(text: str) -> str:
    """A parser error line in the current language (unchanged when it is not one the catalog knows)."""
    for pattern, message in _PARSER_LINES:
        found = pattern.fullmatch(text)
        if found is not None:
            return _(message).format(**found.groupdict())
    return text


def use_project_catalog() -> None:
    """Make Typer look its texts up in the current pinsetter language (idempotent)."""
    module = sys.modules["typer.core"]
    if "_" in module.__dict__:
        module.__dict__["_"] = _
    Context.formatter_class = TranslatedHelpFormatter
