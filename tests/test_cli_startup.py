"""Start-up time of the command line (issues 15 and 30): a command imports only what it needs.

These check the architecture that makes the commands start quickly, never a time (the times are
benchmarks/startup.py's): what a command leaves out of `sys.modules`, the registries' lists of
modules against what the modules register, and the plain conversion of command-line values
against Typer's own.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from typing import Any

import pytest
import typer
from typer import _coercion

import pinsetter.cli.app as cli
from pinsetter.bots.base import BOT_MODULES, BOTS
from pinsetter.cli.plain_values import PlainRuntimeParam
from pinsetter.games.registry import GAME_MODULES, GAMES
from pinsetter.solvers.ahead_of_time import SOLITAIRE, compile_extension, load

HEAVY = ("numpy", "numba", "scipy", "pydantic", "sqlalchemy", "matplotlib", "textual", "fastapi", "uvicorn")
SOLVERS_AND_RUNS = ("pinsetter.records", "pinsetter.storage", "pinsetter.experiments", "pinsetter.solvers")
GAME_ENGINES = tuple(GAME_MODULES.values())


def test_every_command_is_listed_with_its_module() -> None:
    app = cli.app  # every command module imported
    listed = {name: module for module, names in cli.COMMANDS.items() for name in names}
    defined = {
        command.name or command.callback.__name__.replace("_", "-"): command.callback.__module__
        for command in app.registered_commands
        if command.callback is not None
    }
    assert listed == defined


def imported_by(args: list[str]) -> tuple[int, set[str]]:
    """The exit status of `pinsetter ARGS` in a fresh interpreter, and the modules it imported."""
    script = (
        "import contextlib, io, sys\n"
        "from pinsetter.cli.app import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    status = main({args!r})\n"
        "print(status)\n"
        "print(' '.join(sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    status, modules = done.stdout.splitlines()[-2:]
    return int(status), set(modules.split())


def present(modules: set[str], names: tuple[str, ...]) -> list[str]:
    """Which of `names` (packages with their submodules) are among `modules`."""
    return sorted(name for name in names if any(m == name or m.startswith(name + ".") for m in modules))


DEAL = "pins=6,10,9,8,1,9,6,2,2,5;piles=3,4,3,10,4|8,5,1|7,7"


@pytest.mark.parametrize(
    ("args", "games", "libraries"),
    [
        (["--help"], (), ()),
        (["score", "X", "7/", "9-", "X", "X", "8/", "9-", "X", "7/", "XXX"], (), ()),
        (["rules", "tenpins"], ("tenpins",), ()),
        (["games"], tuple(GAME_MODULES), ()),
        (["analyze", "tenpins"], ("tenpins",), ("numpy",)),
        (["hint", "bowling-solitaire", "--deal", DEAL], ("bowling-solitaire",), ("numpy",)),  # built ahead of time
    ],
    ids=["help", "score", "rules", "games", "analyze", "hint"],
)
def test_a_question_imports_only_the_games_and_libraries_it_needs(
    args: list[str], games: tuple[str, ...], libraries: tuple[str, ...]
) -> None:
    if "hint" in args and load(SOLITAIRE) is None:  # as `make` does before the tests
        compile_extension(SOLITAIRE)
    status, modules = imported_by(args)
    assert status == 0
    assert present(modules, GAME_ENGINES) == sorted(GAME_MODULES[game_id] for game_id in games)
    assert set(present(modules, HEAVY)) <= set(libraries)  # not scipy, which numba would probe (solvers/compiled.py)
    answers = ("pinsetter.solvers.distribution",) if "analyze" in args else ("pinsetter.solvers.solitaire",)
    assert set(present(modules, SOLVERS_AND_RUNS)) <= {"pinsetter.solvers", *answers}


def test_the_basic_rolling_pins_bots_need_no_numba() -> None:
    """Only the advanced game's exact solver is compiled code: a basic game's bot or hint imports none."""
    script = "import sys, pinsetter.bots.rolling_pins; print('numba' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_the_registries_list_the_module_of_every_game_and_bot() -> None:
    for module in {*GAME_MODULES.values(), *BOT_MODULES.values()}:
        importlib.import_module(module)
    assert {game_id: GAMES[game_id].__module__ for game_id in GAMES} == GAME_MODULES
    assert {key: factory.__module__ for key, factory in BOTS.items()} == BOT_MODULES
    assert list(GAMES) == sorted(GAME_MODULES)


def every_parameter() -> list[Any]:
    """Every parameter of every command, `--help` options included."""
    group = typer.main.get_command(cli.app)
    commands = [group, *group.commands.values()]  # type: ignore[attr-defined]
    found = [param for command in commands for param in command.params]
    with typer.Context(group) as ctx:
        found += [command.get_help_option(ctx) for command in commands]
    return found


# Values as a command line gives them, good and bad for every kind of parameter.
SAMPLES: tuple[Any, ...] = (
    "12",
    "0",
    "1.5",
    "-3",
    "",
    " 7 ",
    "tenpins",
    "chess",
    "a\udcffb",
    "/",
    "-",
    "no/such/folder/file.json",
    True,
    False,
    ("3", "4"),
    ["X", "7/"],
)


def outcome(convert: Any, value: Any, param: Any, ctx: Any) -> tuple[str, Any]:
    try:
        return "value", convert(value, param=param, ctx=ctx)
    except Exception as exc:  # the error a user would read, and its kind
        return type(exc).__name__, str(exc)


def test_plain_values_are_what_typer_makes_of_them() -> None:
    """Every parameter is converted without pydantic, to what Typer's own conversion gives, errors included."""
    params = every_parameter()
    assert all(isinstance(param._runtime_param, PlainRuntimeParam) for param in params)
    group = typer.main.get_command(cli.app)
    with typer.Context(group) as ctx:
        for param in params:
            typers = _coercion.build_runtime_param(param.type_descriptor)
            for value in SAMPLES:
                ours = outcome(param._runtime_param._coerce_value, value, param, ctx)
                assert ours == outcome(typers._coerce_value, value, param, ctx), (param.name, value)


def test_numba_starts_without_scipy_and_scipy_imports_afterwards() -> None:
    """The solvers start numba with scipy refused (its BLAS probe), then scipy imports as usual."""
    script = (
        "import sys\n"
        "import pinsetter.solvers.compiled\n"
        "import numba.np.arraymath as arraymath\n"
        "print('scipy' in sys.modules, arraymath._HAVE_BLAS)\n"
        "import scipy.linalg\n"
        "print(scipy.linalg.__name__)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False", "scipy.linalg"]


def test_refusing_refuses_only_what_is_not_imported_and_only_within() -> None:
    from pinsetter.core.imports import refusing

    assert "json" in sys.modules or importlib.import_module("json")
    assert "wave" not in sys.modules  # a standard module nothing here imports
    with refusing("json", "wave"):
        assert importlib.import_module("json.decoder").__name__ == "json.decoder"  # imported before
        with pytest.raises(ImportError, match="wave"):
            importlib.import_module("wave")
    assert importlib.import_module("wave").__name__ == "wave"
