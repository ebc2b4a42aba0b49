"""Importing as if some packages were not installed: numba started without scipy (solvers/compiled.py)
and the start-up benchmark's `--without` (benchmarks/startup.py). Imports nothing heavy itself."""

from __future__ import annotations

import importlib.abc
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from importlib.machinery import ModuleSpec
from types import ModuleType

__all__ = ["refusing"]


class _Refuse(importlib.abc.MetaPathFinder):
    """Find the packages named, and their modules, as missing."""

    def __init__(self, packages: frozenset[str]) -> None:
        self.packages = packages

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname.partition(".")[0] in self.packages:
            raise ImportError(f"No module named {fullname!r}", name=fullname)
        return None


@contextmanager
def refusing(*packages: str) -> Iterator[None]:
    """Within the block, import the packages named (not already imported) as if not installed."""
    absent = frozenset(p for p in packages if p not in sys.modules)
    finder = _Refuse(absent)
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
