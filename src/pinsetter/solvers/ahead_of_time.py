"""Compiled searches built ahead of time, so that a command answering one question never starts numba.

Numba compiles a search the first time a process calls it (from its cache on disk when it can), and
importing numba and starting its compiler were most of the time `pinsetter hint bowling-solitaire`
took (issue 30, part 1). `python -m pinsetter.solvers.ahead_of_time`, which `make play` and
`make test` run, builds each search listed here into an extension module beside this file with
numba's `pycc`; the extension needs only numpy to run. Its name carries a digest of the source
files it was built from, so `load` finds it only while those files are unchanged: after an edit,
or where it was never built (a plain `pip install`), the search runs under numba's JIT as before.
Both are the same Python code compiled by the same compiler; tests compare their values.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import sys
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, cast

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Build:
    """One extension: the module whose compiled functions it holds, and their numba signatures."""

    prefix: str  # the extension's module name in this package, before its sources' digest
    module: str  # the module of numba functions it is built from
    sources: tuple[str, ...]  # the files (in this package) whose every byte it is built from
    exports: tuple[tuple[str, str], ...]  # (function, signature) pairs

    @property
    def name(self) -> str:
        """The module name of the extension built from the sources as they are now."""
        h = hashlib.sha256()
        for source in self.sources:
            h.update((HERE / source).read_bytes())
        return f"{self.prefix}_{h.hexdigest()[:16]}"


_INTS = "int64[::1]"
_MEMO = "Tuple((int64[:, ::1], float64[:, ::1], int64[::1]))"
SOLITAIRE = Build(
    prefix="_solitaire_search_aot",
    module="pinsetter.solvers.solitaire_search",
    sources=("solitaire_search.py", "solitaire_layout.py"),
    exports=(
        (
            "search",
            f"float64(UniTuple({_INTS}, 8), boolean, float64[::1], float64[:, ::1], float64[:, ::1], {_MEMO}, "
            + ", ".join(["int64"] * 10)
            + ")",
        ),
        ("rehash", "void(int64[:, ::1], float64[:, ::1], int64[:, ::1], float64[:, ::1], int64[::1])"),
    ),
)
BUILDS = (SOLITAIRE,)


def _path(name: str, directory: Path) -> Path | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        if (directory / (name + suffix)).is_file():
            return directory / (name + suffix)
    return None


def load(build: Build, directory: Path = HERE) -> ModuleType | None:
    """The extension built from the sources as they are now, or None if there is none (or it does not load)."""
    name = build.name
    path = _path(name, directory)
    if path is None:
        return None
    qualified = f"pinsetter.solvers.{name}"
    if qualified in sys.modules:
        return sys.modules[qualified]
    spec = importlib.util.spec_from_file_location(qualified, path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except ImportError:  # built against another numpy, say
        return None
    if not all(hasattr(module, function) for function, _ in build.exports):
        return None
    sys.modules[qualified] = module
    return module


def compile_extension(build: Build, directory: Path = HERE) -> Path:
    """Build the extension into `directory` and return its path; older builds of it there are removed."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pycc is marked as pending deprecation; it is numba's AOT compiler
        from numba.pycc import CC as compiler  # type: ignore[attr-defined]

    module = importlib.import_module(build.module)
    name = build.name
    with tempfile.TemporaryDirectory(dir=directory) as scratch:
        cc: Any = cast(Any, compiler)(name)
        cc.output_dir = scratch
        cc.verbose = False
        for function, signature in build.exports:
            cc.export(function, signature)(getattr(module, function).py_func)
        cc.compile()
        built = _path(name, Path(scratch))
        assert built is not None, f"numba built no {name} in {scratch}"
        target = directory / built.name
        os.replace(built, target)  # in one step: another process may be loading it
    for older in directory.glob(f"{build.prefix}_*"):
        if not older.name.startswith(name):
            older.unlink(missing_ok=True)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pinsetter.solvers.ahead_of_time",
        description="Build the compiled searches ahead of time (hints then start without numba).",
    )
    parser.add_argument("--check", action="store_true", help="only say whether each is built and current")
    args = parser.parse_args(argv)
    missing = 0
    for build in BUILDS:
        if load(build) is not None:
            print(f"pinsetter: {build.name} is built and current")
            continue
        if args.check:
            print(f"pinsetter: {build.name} is not built for the current source")
            missing += 1
            continue
        print(f"pinsetter: compiling {build.module} ahead of time (about half a minute)")
        try:
            compile_extension(build)
        except Exception as error:  # no C compiler, a numba without pycc: the JIT still works
            print(f"pinsetter: {build.name} could not be built ({type(error).__name__}: {error})", file=sys.stderr)
            return 1
        if load(build) is None:
            print(f"pinsetter: {build.name} was built but does not load", file=sys.stderr)
            return 1
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
