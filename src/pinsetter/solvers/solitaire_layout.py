"""How the Bowling Solitaire search lays out its memo, keys and stack: constants and tables, numpy only.

Shared by the compiled search (`solitaire_search`) and the evaluator that drives it (`solitaire`),
which reads them without importing numba: a hint may run the search built ahead of time
(`ahead_of_time`), and starting numba was most of its time (issue 30).
"""

from __future__ import annotations

import numpy as np

# A memo is an open-addressing hash table of (key, value) pairs side by side (a probe reads one
# cache line): `slots` (capacity x 2 int64: the key, -1 = empty, then the value's bits), `values`
# (the same memory seen as float64) and `meta` = [count, full]. A node claims its slot when it is
# opened (value NaN until solved: no value of any objective is NaN) and writes its value there when
# solved. When the memo is 85% full it takes no more and says so (`meta[1]`): the search stops, the
# memo is doubled (solved entries only) and the search resumed.
EMPTY = -1
REVEAL_FLAG = 1 << 62  # marks a chance node's key (the state before cards are turned up)

# The merged key (see `solitaire_search._merged_key`): a dead top, and per set of values (bits) the
# values in it, the two-bit seen-count fields of its values, and how many values it holds.
DEAD_TOP = 15
VALUE_BITS = (np.arange(1024)[:, None] >> np.arange(10)[None, :]) & 1 == 1  # value set x value
FIELDS = (VALUE_BITS * (3 << (2 * np.arange(10)))).sum(axis=1)  # a value set's seen-count fields
FIELD_SUMS = ((np.arange(1024)[:, None] >> (2 * np.arange(5))[None, :]) & 3).sum(axis=1)
POPCOUNT = VALUE_BITS.sum(axis=1)

# A set of groups (bit i: group i) is walked lowest bit first: the bit's index from a de Bruijn
# sequence (the bit times DE_BRUIJN, top six bits, wrapping as int64 does).
DE_BRUIJN = 0x03F79D71B4CB0A89
BIT_INDEX = np.zeros(64, dtype=np.int64)
BIT_INDEX[[((1 << i) * DE_BRUIJN % (1 << 64)) >> 58 for i in range(64)]] = np.arange(64)

# Nodes and the search's stack.
DECIDE, REVEAL = 0, 1
MAX_DEPTH = 128
DEAD_CARDS = 11  # a chance node's cursor after value 10: the dead values' turn, together
# Fields of a stack frame.
TYPE, STANDING, BALL, R1, R2, R3, T1, T2, T3, SEEN, SLOT, PILE, CURSOR = range(13)
# Float fields: best (or expected) so far, the pending child's weight/offset; a chance node's cut
# (below it the parent decision needs no exact value) and the weight of the cards it has summed.
BEST, PENDING, CUT, SUMMED = 0, 1, 2, 3
