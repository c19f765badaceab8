"""Module globals a trace read.

A graph holds what the traced code read from its module's globals as constants
(``SCALE`` in ``x * SCALE``, a lookup table, a helper function). A call after one
of those names is rebound (``mod.SCALE = 5.0``) has to trace again, as the code
would read the new value: the trace records which value each global name it
could read had (``guards``), and ``still_bound`` checks them before a call. So it
does after a write in place into a global array, or into the arrays and numbers of a
global dict, list or tuple (``W -= lr * grad``, ``PARAMS["b"] += 1``): each guard
holds a fingerprint of their contents (shape, dtype and bytes), compared at each call.
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
_OPAQUE = object()
_SCALARS = (bool, int, float, complex, str, bytes, type(None), np.generic)
# Arrays up to this size are fingerprinted by their bytes; larger ones by a copy.
_BYTES_UP_TO = 1 << 20


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
                fingerprint = _fingerprint(value)
                out.append((namespace, name, value,
                            None if fingerprint is _OPAQUE else fingerprint))
        return out


def _fingerprint(value, depth=0):
    """What a write in place into ``value`` changes (its arrays' shapes, dtypes and bytes,
    a container's items), or None for a value nothing writes into in place (a number, a
    string, a function), or ``_OPAQUE`` for an object it cannot follow."""
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            return _OPAQUE
        data = value.tobytes() if value.nbytes <= _BYTES_UP_TO else value.copy()
        return ("array", value.shape, value.dtype, data)
    if isinstance(value, _SCALARS):
        return None if depth == 0 else ("value", type(value), repr(value))
    if depth < 3 and isinstance(value, (dict, list, tuple)):
        items = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
        if all(isinstance(v, _SCALARS) for _, v in items):
            # Numbers and strings only: compared at once (their types too).
            if isinstance(value, tuple):
                return None if depth == 0 else ("value", tuple, repr(value))
            flat = dict(value) if isinstance(value, dict) else list(value)
            return ("flat", type(value), flat, [type(v) for _, v in items])
        if len(items) > 1000:
            return _OPAQUE
        prints = [(k, _fingerprint(v, depth + 1)) for k, v in items]
        if any(f is _OPAQUE for _, f in prints):
            return _OPAQUE
        if isinstance(value, tuple) and all(f is None or f[0] == "value" for _, f in prints):
            return None if depth == 0 else ("value", tuple, repr(value))
        return (type(value).__name__, tuple(prints))
    return None if depth == 0 and callable(value) else _OPAQUE


def unchanged(value, fingerprint) -> bool:
    """Whether ``value`` still has the contents ``fingerprint`` (``_fingerprint``) saw."""
    if fingerprint is None:
        return True
    kind = fingerprint[0]
    if kind == "array":
        _, shape, dtype, data = fingerprint
        if not isinstance(value, np.ndarray) or value.shape != shape or value.dtype != dtype:
            return False
        if isinstance(data, bytes):
            return value.tobytes() == data
        return np.array_equal(value, data, equal_nan=dtype.kind in "fc")
    if kind == "value":
        return type(value) is fingerprint[1] and repr(value) == fingerprint[2]
    if kind == "flat":
        _, cls, flat, types_ = fingerprint
        return type(value) is cls and value == flat and \
            [type(v) for v in (value.values() if cls is dict else value)] == types_
    if type(value).__name__ != kind:
        return False
    items = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
    prints = fingerprint[1]
    return len(items) == len(prints) and all(
        k == pk and (pf is None or unchanged(v, pf)) for (k, v), (pk, pf) in zip(items, prints))


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
    for namespace, name, value, fingerprint in guards:
        if namespace.get(name, _MISSING) is not value or \
                (fingerprint is not None and not unchanged(value, fingerprint)):
            return False
    return True


__all__ = ["GlobalsRead", "recording", "note_function", "first_use", "still_bound",
           "unchanged"]
