"""A lean `make play` (issue 26): playing installs the package alone; `make test` adds the extras.

The Makefile is run for real with a stand-in Python that notes what it is asked to do (no
download), so the stamps are tested as a fresh machine meets them: `make play` installs `-e .`
once and starts the game; `make test`'s install adds the extras to the same environment and
serves playing too; a changed pyproject.toml installs again. And what playing imports is checked
in a Python where every extra's modules are refused, as in an environment made by `make play`.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Stands in for python3 and the environment's python: notes its arguments; `-m venv DIR` makes DIR
# with this same stand-in as its python, and a pinsetter that notes it was started.
FAKE_PYTHON = """#!/bin/sh
echo "python $*" >> "$MAKE_LOG"
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
    mkdir -p "$3/bin"
    cp "$0" "$3/bin/python"
    printf '#!/bin/sh\\necho "pinsetter started" >> "$MAKE_LOG"\\n' > "$3/bin/pinsetter"
    for tool in ruff mypy pytest; do printf '#!/bin/sh\\necho "%s $*" >> "$MAKE_LOG"\\n' $tool > "$3/bin/$tool"; done
    chmod +x "$3/bin/"*
fi
"""


def executable(path: Path, text: str) -> Path:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    executable(tmp_path / "python3", FAKE_PYTHON)
    return tmp_path


def make(checkout: Path, target: str) -> list[str]:
    """Run `make TARGET` there; the lines the stand-ins noted, in order."""
    log = checkout / "make.log"
    log.write_text("")
    env = {**os.environ, "MAKE_LOG": str(log)}
    done = subprocess.run(
        ["make", "--no-print-directory", target, f"PYTHON={checkout / 'python3'}"],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return log.read_text().splitlines()


BUILD = "python -m pinsetter.solvers.ahead_of_time"  # quick when the build is current


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_play_installs_the_package_alone_and_make_test_adds_the_extras(checkout: Path) -> None:
    fresh = make(checkout, "play")
    assert fresh[0].endswith("-m venv .venv") and "python3" not in fresh[0].split()[1:]
    assert "python -m pip install --progress-bar on -e ." in fresh
    assert not any("[" in line for line in fresh)  # no extras
    assert fresh[-2:] == [BUILD, "pinsetter started"]  # the compiled search built (or found current) first
    assert make(checkout, "play") == [BUILD, "pinsetter started"]  # installed once
    full = make(checkout, "lint")  # any target of `make test` installs the extras first
    extras = set(tomllib.loads((checkout / "pyproject.toml").read_text())["project"]["optional-dependencies"])
    installs = [line for line in full if "pip install --progress-bar on -e .[" in line]
    assert len(installs) == 1 and set(installs[0].split("[")[1].rstrip("]").split(",")) == extras
    assert make(checkout, "play") == [BUILD, "pinsetter started"]  # the full install serves playing too
    with (checkout / "pyproject.toml").open("a") as changed:
        changed.write("\n# a dependency changed\n")
    again = make(checkout, "play")
    assert "python -m pip install --progress-bar on -e ." in again and again[-2:] == [BUILD, "pinsetter started"]
    stamps = sorted(p.name.split("-")[0] for p in (checkout / ".venv").glob(".*-*"))
    assert stamps == [".installed", ".play"]  # one of each: the old ones are removed


def test_the_extras_are_named_in_the_makefile_and_none_is_needed_to_play() -> None:
    """Every extra is installed by `make test`; the plain dependencies have no test, plot or RL tool."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = set(project["optional-dependencies"])
    named = re.search(r"^EXTRAS := (.*)$", (ROOT / "Makefile").read_text(), re.M)
    assert named is not None and set(named.group(1).split(",")) == extras
    plain = " ".join(project["dependencies"])
    for tool in ("pytest", "hypothesis", "matplotlib", "babel", "dask", "gymnasium", "open_spiel"):
        assert tool not in plain


# What playing imports: the terminal's screens, the line game, hints and bots, the history, the web.
PLAYING = """
import importlib.abc, sys

class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.partition(".")[0] in REFUSED:
            raise ImportError(f"{name} is in an extra")
        return None

sys.meta_path.insert(0, Refuse())
import pinsetter.cli.app as cli
from pinsetter.cli.app import main
from pinsetter.records import PlayerSpec
from pinsetter.session import Match
from pinsetter.bots.hints import option_values
import pinsetter.ui.tui, pinsetter.ui.tui_history, pinsetter.ui.tui_learn, pinsetter.cli.play
import pinsetter.web.app, pinsetter.storage.stats, pinsetter.solvers.solitaire
cli.load_commands([])
for game, bot in [("tenpins", "random"), ("bowling-dice", "random"), ("rolling-pins", "optimal"),
                  ("bowling-solitaire", "greedy")]:
    match = Match.new(game, [PlayerSpec("b", bot)], seed=1, options={"frames": 2})
    match.run_bots()
    assert match.state.is_terminal(), game
match = Match.new("rolling-pins", [PlayerSpec("you")], seed=1)
match.run_bots()
match.apply(match.state.legal_actions()[0])
match.run_bots()
assert option_values(match.state) is not None
assert main(["games"]) == 0 and main(["history"]) == 0
print("played", sorted(m for m in sys.modules if m.partition(".")[0] in REFUSED))
"""


def test_playing_imports_nothing_from_an_extra(tmp_path: Path) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    in_extras = {
        req.split("[")[0].split(">")[0].split("=")[0].split("<")[0].strip().lower().replace("_", "-")
        for reqs in project["optional-dependencies"].values()
        for req in reqs
    }
    refused = sorted(
        module
        for module, dists in packages_distributions().items()
        if any(d.lower().replace("_", "-") in in_extras for d in dists) and not module.startswith("_")
    )
    assert {"pytest", "hypothesis", "matplotlib", "babel", "dask"} <= set(refused)
    script = f"REFUSED = {set(refused)!r}\n" + PLAYING
    env = {**os.environ, "PINSETTER_DB": f"sqlite:///{tmp_path / 'h.sqlite'}"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines()[-1] == "played []"
