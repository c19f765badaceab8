"""Assumptions a trace makes where the data choose the kind of a result.

``np.linalg.eigvals`` of a real matrix is real where every eigenvalue is, complex
otherwise; ``np.roots`` likewise. A graph has one dtype per value, so the trace assumes
one kind (``assume``) and adds a run-time check of it, whose failure raises
``AssumptionError`` with the assumption's site. The runtime then traces the function
again with that site's assumption flipped (``flipping``) and keeps both graphs for the
signature; the data of each call choose the graph that holds.

A site is the assumption's place in the order the trace meets them: traces with the same
flipped sites meet the same assumptions in the same order, so a site names one place.
"""
from __future__ import annotations

import contextlib
import contextvars

import numpy as np

from ..errors import user_location
from .tracer import emit, to_tracer

# Sites whose assumption the trace flips; the count of sites the trace has met so far.
_FLIPPED = contextvars.ContextVar("nptf_flipped_assumptions", default=frozenset())
_MET = contextvars.ContextVar("nptf_assumptions_met", default=None)


def assume(usual):
    """``(assumed, site)``: what the trace assumes of a place where the data choose
    between two kinds of result, ``usual`` unless the runtime flipped this site; ``site``
    goes into the check of it (``check`` param ``assumption``). ``(usual, None)`` outside
    a trace that counts sites (no second graph can follow)."""
    met = _MET.get()
    if met is None:
        return usual, None
    site = met[0]
    met[0] += 1
    return (not usual) if site in _FLIPPED.get() else usual, site


def assume_kind(name, kinds, usual=True):
    """``(assumed, check)`` for a place (NumPy's ``name``) whose result is of kind
    ``kinds[0]`` or ``kinds[1]`` as the data say: whether the trace assumes the first
    (``usual``, unless the runtime flipped this site), and ``check(value, first_holds)``,
    ``value`` checked when the graph runs to be of the assumed kind (``first_holds``,
    traced: whether the data make it the first)."""
    first, site = assume(usual)
    kind, other = kinds if first else kinds[::-1]
    where = user_location()

    def check(value, first_holds):
        value = to_tracer(value)
        return emit("check", [value, first_holds if first else np.logical_not(first_holds)], {
            "error": "OutsideTheGraph", "assumption": site, "weak": value.type.weak,
            "message": f"{name} at {where}: these data make its result {other}, where the "
                       f"graph makes it {kind}"}, scalar=value.is_scalar)
    return first, check


@contextlib.contextmanager
def counting_sites():
    """One trace's count of the assumption sites it meets, from 0."""
    token = _MET.set([0])
    try:
        yield
    finally:
        _MET.reset(token)


@contextlib.contextmanager
def flipping(sites):
    """Trace with the assumptions at ``sites`` (a frozenset) flipped."""
    token = _FLIPPED.set(frozenset(sites))
    try:
        yield
    finally:
        _FLIPPED.reset(token)
