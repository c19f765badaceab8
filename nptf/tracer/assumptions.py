"""Assumptions of the kind of a result where the data choose it.

``np.linalg.eigvals`` of a real matrix is real where every eigenvalue is, complex
otherwise; ``np.roots`` likewise. A graph has one dtype per value, so the trace assumes
one kind (``assume_kind``) and adds a run-time check of it, whose failure raises
``AssumptionError`` with the assumption's site (``sites``); the runtime then traces the
function again with that site's assumption flipped.
"""
from __future__ import annotations

import numpy as np

from ..errors import user_location
from .sites import assume
from .tracer import emit, to_tracer


def assume_kind(name, kinds, usual=True):
    """``(assumed, check)`` for a place (NumPy's ``name``) whose result is of kind
    ``kinds[0]`` or ``kinds[1]`` as the data say: whether the trace assumes the first
    (``usual``, unless the runtime flipped this site), and ``check(value, first_holds)``,
    ``value`` checked when the graph runs to be of the assumed kind (``first_holds``,
    traced: whether the data make it the first)."""
    first, site = assume(usual, name)
    kind, other = kinds if first else kinds[::-1]
    where = user_location()

    def check(value, first_holds):
        value = to_tracer(value)
        return emit("check", [value, first_holds if first else np.logical_not(first_holds)], {
            "error": "OutsideTheGraph", "assumption": site, "weak": value.type.weak,
            "message": f"{name} at {where}: these data make its result {other}, where the "
                       f"graph makes it {kind}"}, scalar=value.is_scalar)
    return first, check
