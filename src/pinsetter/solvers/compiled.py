"""Numba for the compiled solvers, started without the scipy it would probe (issue 30, part 1).

Numba looks for scipy twice on its way up: importing `numba` checks scipy's version, and
initialising its CPU target (the first compile, or the first load from numba's cache) imports
`scipy.linalg.cython_blas` so that compiled `np.dot` and `np.linalg` can call BLAS. Pinsetter's
compiled code calls neither, and scipy is installed only for the `rl` extra (open_spiel), yet
those imports were a quarter of the CPU time of `pinsetter hint bowling-solitaire`. So numba is
imported and its CPU target initialised here, once, with scipy refused as if not installed,
unless something in the process has imported scipy already (then numba finds it as usual).
Afterwards scipy imports as usual for whatever needs it; only numba's compiled linear algebra
stays off in this process, and a compiled function that used it would fail to compile, saying
scipy is needed.

The solvers take `njit` and `prange` from here, never from numba directly.
"""

from __future__ import annotations

import importlib.abc
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from importlib.machinery import ModuleSpec
from types import ModuleType

__all__ = ["njit", "prange", "refusing"]


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


with refusing("scipy"):
    from numba import njit, prange
    from numba.core.registry import cpu_target

    cpu_target.target_context.refresh()  # its implementations loaded now, while scipy is refused
