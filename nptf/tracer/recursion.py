"""Recursion that only the data can end.

A recursive call inside an ``if`` on a traced value is traced whatever the data, so a
recursion whose stopping test is traced (``if a.size <= 1: return a`` on a mask's result,
``if hi - lo < tol`` on traced bounds, a flood fill's ``if grid[i, j] != old``) would be
traced forever: NumPy's run ends it, the trace cannot. Such a call is seen the moment it
repeats: the same function entered again, inside a sub-graph opened since its earlier
activation, with arguments of the same kinds (traced values of the same types, equal
Python numbers and strings). Tracing it again would do again what the earlier activation
did, so it is refused at once instead of after the compile budget, and the `if` (or loop)
around the call is noted: a trace that may take the data's path of it (``sites``) runs
again, recursing as the call's data do.
"""
from __future__ import annotations

import contextvars
import types

import numpy as np

from ..errors import UnsupportedError, user_location
from .builder import current_builder
from .python_lists import MADE_AT
from .sites import decline_loop
from .tracer import Tracer

# (code, builder at entry, kinds of the arguments) of the user's functions being traced.
_ACTIVE = contextvars.ContextVar("nptf_active_calls", default=())

_SIMPLE = (bool, int, float, complex, str, bytes, type(None))


class RecursionTracedError(UnsupportedError):
    """A recursion whose stopping test is a traced value."""


def _kind(value):
    """What the trace of a call sees of an argument; an object never equal to another
    where that is not known (a list or object the call may have changed)."""
    if isinstance(value, Tracer):
        return ("traced", value.type)
    if isinstance(value, _SIMPLE):
        return (type(value), value)
    if isinstance(value, tuple):
        return (tuple, tuple(_kind(v) for v in value))
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType, np.ufunc)):
        return ("function", id(value))
    return object()


def guarded(fn, code, name):
    """``fn`` (the converted form of the user's function with ``code``) refusing a repeat
    of itself that a traced test alone could end."""
    def call(*args, **kwargs):
        active = _ACTIVE.get()
        builder = current_builder()
        kinds = (tuple(_kind(a) for a in args),
                 tuple(sorted((k, _kind(v)) for k, v in kwargs.items())))
        for c, b, k in active:
            if c is code and b is not builder and k == kinds:
                # A trace that may take the data's path of that `if` (or run that loop in
                # Python) recurses as the data do, and ends where they end it.
                made_at = MADE_AT.get()
                if made_at is not None:
                    decline_loop(made_at)
                err = RecursionTracedError(
                    f"`{name}` calls itself inside an `if` (or `while`) on a traced value, "
                    f"with arguments of the same kinds as a call of it already being traced, "
                    f"so only the data can end the recursion and tracing it would not end. "
                    f"Fix: write the recursion as a loop over an explicit stack (a `while` "
                    f"the graph can run), or make its stopping test a Python value.\n"
                    f"  at {user_location()}")
                err._nptf_located = True
                raise err
        token = _ACTIVE.set(active + ((code, builder, kinds),))
        try:
            return fn(*args, **kwargs)
        finally:
            _ACTIVE.reset(token)

    call.__wrapped__ = fn
    return call
