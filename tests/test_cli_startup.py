"""Start-up time of the command line (issue 15): a command imports only what it needs."""

from __future__ import annotations

import subprocess
import sys

import pinsetter.cli.app as cli


def test_every_command_is_listed_with_its_module() -> None:
    app = cli.app  # every command module imported
    listed = {name: module for module, names in cli.COMMANDS.items() for name in names}
    defined = {
        command.name or command.callback.__name__.replace("_", "-"): command.callback.__module__
        for command in app.registered_commands
        if command.callback is not None
    }
    assert listed == defined


def test_a_light_command_imports_no_heavy_library() -> None:
    heavy = ("numpy", "numba", "sqlalchemy", "matplotlib", "textual", "fastapi", "uvicorn")
    script = (
        "import sys\n"
        "from pinsetter.cli.app import main\n"
        "status = main(['rules', 'tenpins'])\n"
        f"print(status, [m for m in {heavy!r} if m in sys.modules])\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "0 []"
