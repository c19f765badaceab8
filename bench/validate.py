"""Checking a compiled result against NumPy's before it may be timed."""
from __future__ import annotations

import numpy as np

# Default tolerances by result dtype: float32 work reordered by XLA or Eigen
# differs from NumPy in the last few bits; float64 should agree much closer.
TOLERANCES = {np.dtype(np.float32): (2e-4, 1e-5), np.dtype(np.complex64): (2e-4, 1e-5)}
DEFAULT_TOLERANCE = (1e-7, 1e-9)


def leaves(value):
    if isinstance(value, (tuple, list)):
        return [leaf for item in value for leaf in leaves(item)]
    return [value]


def mismatch(got, expected, rtol=None, atol=None):
    """None when ``got`` matches ``expected`` (dtype, shape, values); else why not."""
    got_leaves, want_leaves = leaves(got), leaves(expected)
    if len(got_leaves) != len(want_leaves):
        return f"{len(got_leaves)} results, NumPy gives {len(want_leaves)}"
    for i, (g, w) in enumerate(zip(got_leaves, want_leaves)):
        where = f"result {i}: " if len(want_leaves) > 1 else ""
        if not isinstance(g, (np.ndarray, np.generic)):
            return f"{where}got {type(g).__name__}, NumPy gives {type(w).__name__}"
        g, w = np.asarray(g), np.asarray(w)
        if g.dtype != w.dtype:
            return f"{where}dtype {g.dtype}, NumPy gives {w.dtype}"
        if g.shape != w.shape:
            return f"{where}shape {g.shape}, NumPy gives {w.shape}"
        default_rtol, default_atol = TOLERANCES.get(w.dtype, DEFAULT_TOLERANCE)
        r = default_rtol if rtol is None else rtol
        a = default_atol if atol is None else atol
        if not np.allclose(g, w, rtol=r, atol=a, equal_nan=True):
            err = np.abs(g.astype(np.complex128) - w)
            worst = np.unravel_index(np.nanargmax(err), err.shape) if err.ndim else ()
            return (f"{where}max |error| {np.nanmax(err):.3g} at {tuple(int(j) for j in worst)} "
                    f"(got {g[worst]!r}, NumPy {w[worst]!r}; rtol {r:g}, atol {a:g})")
    return None
