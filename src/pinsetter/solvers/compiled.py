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

from pinsetter.core.imports import refusing

__all__ = ["njit", "prange", "refusing"]


with refusing("scipy"):
    from numba import njit, prange
    from numba.core.registry import cpu_target

    cpu_target.target_context.refresh()  # its implementations loaded now, while scipy is refused
