"""Module globals a trace read.

A graph holds what the traced code read from its module's globals as constants
(``SCALE`` in ``x * SCALE``, a lookup table, a helper function). A call after one
of those names is rebound (``mod.SCALE = 5.0``) has to trace again, as the code
would read the new value: the trace records which value each global name it
could read had (``guards``), and ``still_bound`` checks them before a call.
Writes into a global array or dict in place keep its identity and are not seen.
"""
from __future__ import annotations

import contextlib
import contextvars
import types

import numpy as np

_current = contextvars.ContextVar("nptf_globals_read", default=None)
_MISSING = object()
_UNGUARDED = (types.ModuleType, type, types.BuiltinFunctionType, np.ufunc)
_LIBRARIES = ("numpy", "nptf", "tensorflow", "builtins", "math", "scipy")


class GlobalsRead:
    def __init__(self):
        self._functions = {}    # code object -> a function with that code
        self._refreshed = set()

    def guards(self):
        """``(globals dict, name, value)`` for each global the traced functions may read."""
        seen, out = set(), []
        for code, fn in self._functions.items():
            namespace = fn.__globals__
            for name in _names(code):
                value = namespace.get(name, _MISSING)
                if value is _MISSING or (id(namespace), name) in seen or not _guarded(value):
                    continue
                seen.add((id(namespace), name))
                out.append((namespace, name, value))
        return out


def _names(code):
    """The global (and attribute) names ``code`` and the code nested in it use."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names


def _guarded(value):
    if isinstance(value, _UNGUARDED):
        return False
    module = getattr(value, "__module__", None) if callable(value) else None
    return not (isinstance(module, str) and module.split(".")[0] in _LIBRARIES)


@contextlib.contextmanager
def recording():
    """Within: the functions a trace runs are noted; yields the ``GlobalsRead``."""
    reads = GlobalsRead()
    token = _current.set(reads)
    try:
        yield reads
    finally:
        _current.reset(token)


def note_function(fn):
    reads = _current.get()
    if reads is not None and fn.__code__ not in reads._functions:
        reads._functions[fn.__code__] = fn


def first_use(key) -> bool:
    """Whether ``key`` (a conversion) is used for the first time in this trace (always
    True outside one): its copy of the module's globals is then brought up to date."""
    reads = _current.get()
    if reads is None:
        return True
    if key in reads._refreshed:
        return False
    reads._refreshed.add(key)
    return True


def still_bound(guards) -> bool:
    for namespace, name, value in guards:
        if namespace.get(name, _MISSING) is not value:
            return False
    return True


__all__ = ["GlobalsRead", "recording", "note_function", "first_use", "still_bound"]
