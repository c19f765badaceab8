"""Assumptions a trace makes where the data choose the kind of a result.

``np.linalg.eigvals`` of a real matrix is real where every eigenvalue is, complex
otherwise; ``np.roots`` likewise. A graph has one dtype per value, so the trace assumes
one kind (``assume``) and adds a run-time check of it, whose failure raises
``AssumptionError`` with the assumption's site. The runtime then traces the function
again with that site's assumption flipped (``flipping``) and keeps both graphs for the
signature; the data of each call choose the graph that holds.

A site is a number for one place: the assumption's name, the positions of the calls that
reach it in the user's code (from the traced function in), and how many times the trace
met that place before (an unrolled loop's iterations). So a site keeps its number in the
traces of every other flipping, where places an assumption's kind adds or removes (the
polynomial of eigenvalues, checked only where they are complex) shift no other.
"""
from __future__ import annotations

import contextlib
import contextvars
import sys
import threading

import numpy as np

from ..errors import Error, OutsideTheGraphError, in_user_code, user_location
from .tracer import emit, to_tracer

# Sites whose assumption the trace flips; one trace's places met so far (``counting_sites``).
_FLIPPED = contextvars.ContextVar("nptf_flipped_assumptions", default=frozenset())
_MET = contextvars.ContextVar("nptf_assumptions_met", default=None)
# Whether the trace may assume an `if`'s path (``assume_path``), and the list of the
# `if`s that would have where it may not.
_PATHS = contextvars.ContextVar("nptf_assume_paths", default=(False, None))
# The path each `if`'s site assumes unless flipped: the one the data of the first trace
# that met it took (a flipped site's graph assumes the other, in every trace after).
_USUAL_PATHS = {}
# Each place's number, for the process: a place has one in every trace.
_SITES = {}
_SITES_LOCK = threading.Lock()


class _Met:
    """A trace's count of the times it met each place, and the frame that runs the traced
    function (where a place's positions in the user's code end)."""

    def __init__(self, caller):
        self.caller, self.times = caller, {}
        # The `if`s whose path the trace assumed (``assume_path``), by their lines.
        self.paths = []


def _place(name, met):
    """``name`` and the position of each frame of the user's code from the innermost to the
    traced function (a call's position in its code: ``f_lasti``)."""
    positions, frame = [], sys._getframe(2)
    while frame is not None and frame is not met.caller:
        code = frame.f_code
        if in_user_code(code.co_filename):
            positions.append((code.co_filename, code.co_firstlineno, code.co_name,
                              frame.f_lasti))
        frame = frame.f_back
    return name, tuple(positions)


def assume(usual, name):
    """``(assumed, site)``: what the trace assumes of a place (``name``, NumPy's function)
    where the data choose between two kinds of result, ``usual`` unless the runtime flipped
    this site; ``site`` goes into the check of it (``check`` param ``assumption``).
    ``(usual, None)`` outside a trace that counts sites (no second graph can follow)."""
    met = _MET.get()
    if met is None:
        return usual, None
    site = _site(name, met)
    return (not usual) if site in _FLIPPED.get() else usual, site


def _site(name, met):
    place = _place(name, met)
    times = met.times.get(place, 0)
    met.times[place] = times + 1
    with _SITES_LOCK:
        return _SITES.setdefault((place, times), len(_SITES))


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


def assume_path(where, guess):
    """``(taken, site)`` for the `if` at ``where`` whose paths cannot become one graph's:
    the path the trace assumes, or ``(None, None)`` where the trace may not (an export: a
    SavedModel has one graph). A site assumes the path ``guess`` says (the condition on
    the call being traced); where it says nothing (None), the path the first trace that
    met the site took (false where none could tell), or the other where the runtime
    flipped the site."""
    met = _MET.get()
    allowed, declined = _PATHS.get()
    if met is None:
        return None, None
    if not allowed:
        if declined is not None:
            declined.append(where)
        return None, None
    site = _site("if", met)
    with _SITES_LOCK:
        usual = _USUAL_PATHS.setdefault(site, bool(guess))
    met.paths.append(where)
    if guess is not None:
        return bool(guess), site
    return (not usual) if site in _FLIPPED.get() else usual, site


@contextlib.contextmanager
def assuming_paths(allowed):
    """Let the trace in it assume the path of an `if` (``assume_path``), or not; yields
    the list of the places of the `if`s that would have, where it may not."""
    declined = []
    token = _PATHS.set((allowed, declined))
    try:
        yield declined
    finally:
        _PATHS.reset(token)


@contextlib.contextmanager
def counting_sites():
    """Number the assumption sites of the trace its caller runs.

    Python's own error raised by a trace that assumed the path of an `if` may come from
    the path the data do not take (a leaf's dict read for a split's keys): such a call runs
    with NumPy, which raises it where the data do."""
    met = _Met(sys._getframe(2))
    token = _MET.set(met)
    try:
        yield
    except Exception as e:
        if not met.paths or isinstance(e, Error):
            raise
        raise OutsideTheGraphError(
            f"the trace assumed the path of the `if` at {met.paths[0]} (whose paths give "
            f"values of different kinds), and then raised {type(e).__name__}: {e}") from e
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
