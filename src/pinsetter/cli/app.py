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
from collections.abc import Callable, Sequence
from functools import cache
from typing import Annotated, Any, NoReturn

import typer

from pinsetter.cli import common
from pinsetter.cli.click_messages import parser_message, use_project_catalog
from pinsetter.cli.common import one_line, try_storage
from pinsetter.i18n import LANGUAGES, N_, _, choose_language, set_language

__all__ = ["app", "main", "run"]  # noqa: F822  (`app` comes from __getattr__)
# Where each command is defined: a command line imports only its command's module (start-up
# time: `hint` needs no web app, database or plots); help and unknown words import them all.
# tests/test_cli.py checks this list against the commands the modules define.
COMMANDS = {
    "pinsetter.cli.game_commands": ("games", "rules", "replay", "play", "hint"),
    "pinsetter.cli.analysis_commands": ("score", "analyze", "simulate", "solve", "perft", "tournament"),
    "pinsetter.cli.history_commands": ("history", "show", "delete", "stats", "export", "import"),
    "pinsetter.cli.review_command": ("review",),
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
    name, after_lang = None, False
    for word in words:
        if not after_lang and not word.startswith("-"):
            name = word
            break
        after_lang = word == "--lang"
    modules = [module for module, names in COMMANDS.items() if name in names] or list(COMMANDS)
    for module in modules:
        importlib.import_module(module)


@common.app.callback(invoke_without_command=True)
def start(
    ctx: typer.Context,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="|".join(LANGUAGES),
            help=N_("language of the texts (default: PINSETTER_LANG, else the locale); unknown ones give English"),
        ),
    ] = None,
) -> None:
    """Without a command: the full-screen game in a terminal, a line-based one otherwise."""
    if ctx.invoked_subcommand is None:
        if sys.stdin.isatty() and sys.stdout.isatty():
            from pinsetter.ui.tui import run_tui

            run_tui()
            return
        from pinsetter.cli.play import interactive_start

        interactive_start(try_storage(None))


@cache
def _command(language: str, modules: frozenset[str]) -> Any:
    """The command tree Typer builds from the commands imported so far, its help in `language` (built once each)."""
    command = typer.main.get_command(common.app)
    _translate_help(command)
    return command


def _translate_help(command: Any) -> None:
    """Help texts are English in the code (docstrings, `N_` help strings): translated once the language is known."""
    if command.help:
        command.help = _(command.help)
    if command.short_help:
        command.short_help = _(command.short_help)
    elif command.help:
        # The command list shows each command's first paragraph whole, folded on words: the parser
        # would cut it to the width left ("Replay a game record, verify every step, the seed's draws...").
        command.short_help = " ".join(command.help.split("\n\n", 1)[0].split())
    for param in command.params:
        text = getattr(param, "help", None)
        if text:
            param.help = _(text)
    command.__dict__["get_help_option"] = _translated_help_option(command.get_help_option)
    for sub in getattr(command, "commands", {}).values():
        _translate_help(sub)


HELP_OPTION_HELP = N_("Show this message and exit.")


def _translated_help_option(make: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The `--help` option, its own help text translated (the parser makes it when asked)."""

    def get_help_option(ctx: Any) -> Any:
        option = make(ctx)
        if option is not None and option.help == HELP_OPTION_HELP:
            option.help = _(HELP_OPTION_HELP)
        return option

    return get_help_option


def language_from_args(args: Sequence[str]) -> str | None:
    """The value of a global `--lang X` / `--lang=X` given before the command, if any."""
    found = None
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--lang" and i + 1 < len(args):
            found = args[i + 1]
            i += 2
            continue
        if arg.startswith("--lang="):
            found = arg.partition("=")[2]
        elif not arg.startswith("-"):
            break  # the command: its own options are not ours
        i += 1
    return found


def _usage_line(exc: typer.TyperException) -> str:
    """`pinsetter play: Invalid value for '--seed': ...` from a parser error."""
    ctx = getattr(exc, "ctx", None)
    where = f"{ctx.command_path}: " if ctx is not None and ctx.command_path else "pinsetter: "
    message = parser_message(exc.format_message() if hasattr(exc, "format_message") else str(exc))
    return one_line(where + message)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command and return its exit status; user errors are one line on stderr (status 2)."""
    args = list(sys.argv[1:] if argv is None else argv)
    language = set_language(choose_language(language_from_args(args)))
    use_project_catalog()
    try:
        load_commands(args)
        command = _command(language, frozenset(m for m in COMMANDS if m in sys.modules))
        result = command.main(args=args, prog_name="pinsetter", standalone_mode=False)
    except typer.Abort:
        typer.echo(_("pinsetter: stopped: the input ended before an answer was given"), err=True)
        return 2
    except KeyboardInterrupt:
        typer.echo(_("pinsetter: interrupted"), err=True)
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
        message = _("pinsetter: internal error ({error}); {variable}=1 shows the traceback").format(
            error=f"{type(exc).__name__}: {exc}", variable=DEBUG_ENV
        )
        typer.echo(one_line(message), err=True)
        return 1
    return result if isinstance(result, int) else 0


def run() -> NoReturn:
    sys.exit(main())


if __name__ == "__main__":
    run()
