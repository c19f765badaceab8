"""Memory layouts of traced arrays: which are certainly in C order.

A Tracer's ``_layout`` is None while its array is C-ordered, ``UNKNOWN`` when NumPy's
``order="K"`` rules decide it (an array computed from a non-C-ordered one), or the
strides in elements of an argument. ``views`` builds its stand-ins from it.
"""
from __future__ import annotations

import contextlib
import contextvars

UNKNOWN = "unknown"     # a Tracer's ``_layout`` when NumPy's order="K" rules decide it


def layout_of_argument(arr):
    """The ``layout`` of a NumPy array argument (``None`` when C-ordered): strides in
    elements, part of the signature since they decide which reshapes are views."""
    if arr.ndim < 2 or arr.flags.c_contiguous or arr.itemsize == 0:
        return None
    return tuple(s // arr.itemsize for s in arr.strides)


# The values (by id) of the trace that are arrays of 2 or more dimensions not certainly in
# C order: what ops compute from them is laid out by NumPy's order="K" rules.
_not_c_ordered = contextvars.ContextVar("nptf_not_c_ordered", default=None)


@contextlib.contextmanager
def tracking_layouts():
    token = _not_c_ordered.set({})
    try:
        yield
    finally:
        _not_c_ordered.reset(token)


def note_layout(atom):
    """``atom`` is the value of an array not certainly in C order."""
    seen = _not_c_ordered.get()
    if seen is not None and atom.type.ndim >= 2:
        seen[id(atom)] = atom     # held, so the id stays its own


def any_not_c_ordered(atoms) -> bool:
    seen = _not_c_ordered.get()
    return bool(seen) and any(id(a) in seen for a in atoms)
