"""The `pinsetter` command line: every command is a thin client of the core.

Commands live by theme (game_commands, analysis_commands, history_commands);
this module puts them together and turns every user error into one line on
stderr with exit status 2 (`main`), including the ones the argument parser
finds, which Typer would otherwise draw as a multi-line box.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from functools import cache
from typing import Any, NoReturn

import typer

from pinsetter.cli import common
from pinsetter.cli.common import one_line, try_storage

__all__ = ["app", "main", "run"]  # noqa: F822  (`app` comes from __getattr__)
# Where each command is defined: a command line imports only its command's module (start-up
# time: `hint` needs no web app, database or plots); help and unknown words import them all.
# tests/test_cli.py checks this list against the commands the modules define.
COMMANDS = {
    "pinsetter.cli.game_commands": ("games", "rules", "replay", "play", "hint"),
    "pinsetter.cli.analysis_commands": ("score", "analyze", "simulate", "solve", "perft"),
    "pinsetter.cli.history_commands": ("history", "show", "stats", "export", "import"),
    "pinsetter.cli.web_command": ("serve",),
}
DEBUG_ENV = "PINSETTER_DEBUG"


def __getattr__(name: str) -> Any:
    """`app`, the Typer app with every command (for `typer.testing` and the like)."""
    if name == "app":
        load_commands([])
        return common.app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load_commands(argv: Sequence[str] | None = None) -> None:
    """Import the module of the command `argv` names, or every command module if it names none."""
    words = list(sys.argv[1:] if argv is None else argv)
    name = next((w for w in words if not w.startswith("-")), None)
    modules = [module for module, names in COMMANDS.items() if name in names] or list(COMMANDS)
    for module in modules:
        importlib.import_module(module)


@common.app.callback(invoke_without_command=True)
def start(ctx: typer.Context) -> None:
    """Without a command: the full-screen game in a terminal, a line-based one otherwise."""
    if ctx.invoked_subcommand is None:
        if sys.stdin.isatty() and sys.stdout.isatty():
            from pinsetter.ui.tui import run_tui

            run_tui()
            return
        from pinsetter.cli.play import interactive_start

        interactive_start(try_storage(None))


@cache
def _command(modules: frozenset[str]) -> Any:
    """The command tree Typer builds from the commands imported so far (built once per set: ~50 ms)."""
    return typer.main.get_command(common.app)


def _usage_line(exc: typer.TyperException) -> str:
    """`pinsetter play: Invalid value for '--seed': ...` from a parser error."""
    ctx = getattr(exc, "ctx", None)
    where = f"{ctx.command_path}: " if ctx is not None and ctx.command_path else "pinsetter: "
    message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
    return one_line(where + message)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command and return its exit status; user errors are one line on stderr (status 2)."""
    try:
        load_commands(argv)
        command = _command(frozenset(m for m in COMMANDS if m in sys.modules))
        result = command.main(
            args=list(argv) if argv is not None else None, prog_name="pinsetter", standalone_mode=False
        )
    except typer.Abort:
        typer.echo("pinsetter: stopped: the input ended before an answer was given", err=True)
        return 2
    except KeyboardInterrupt:
        typer.echo("pinsetter: interrupted", err=True)
        return 130
    except typer.TyperException as exc:  # the argument parser's errors (click's UsageError and kin)
        typer.echo(_usage_line(exc), err=True)
        return 2
    except OSError as exc:
        if os.environ.get(DEBUG_ENV):
            raise
        name = f"{exc.filename}: " if exc.filename else ""
        typer.echo(one_line(f"pinsetter: {name}{exc.strerror or exc}"), err=True)
        return 1
    except Exception as exc:
        if os.environ.get(DEBUG_ENV):
            raise
        typer.echo(
            one_line(f"pinsetter: internal error ({type(exc).__name__}: {exc}); {DEBUG_ENV}=1 shows the traceback"),
            err=True,
        )
        return 1
    return result if isinstance(result, int) else 0


def run() -> NoReturn:
    sys.exit(main())


if __name__ == "__main__":
    run()
