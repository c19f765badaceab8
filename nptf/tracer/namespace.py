"""NumPy calls that have no tracer argument, made into graph values while tracing.

``np.zeros(n)`` or ``np.arange(3)`` never reach NumPy's dispatch protocols, so
left alone they would run eagerly and freeze a constant into the graph (and
``np.random.rand()`` would freeze one draw). While a function is traced, the
``numpy`` module's creation and random functions are swapped for wrappers
that build graph values when called from user code inside a trace, and call
NumPy unchanged anywhere else (other threads, NumPy's own internals).
Names imported directly (``from numpy import zeros``) are rebound in a copy
of the traced function's globals.
"""
from __future__ import annotations

import contextlib
import sys
import threading
import types

import numpy as np

from ..errors import unsupported
from . import numpy_api as api
from . import numpy_manip as _manip
from . import numpy_misc as _misc
from .builder import current_builder

CREATION = {
    "zeros": api.zeros, "ones": api.ones, "empty": api.empty, "full": api.full,
    "zeros_like": api.zeros_like, "ones_like": api.ones_like, "empty_like": api.empty_like,
    "full_like": api.full_like, "arange": api.arange, "linspace": api.linspace, "eye": api.eye,
    "identity": api.identity, "array": api.array, "asarray": api.asarray,
    "asanyarray": api.asarray, "ascontiguousarray": lambda a, dtype=None, **kw: api.asarray(a, dtype),
    "copy": api.copy_,
    "logspace": _misc.logspace, "geomspace": _misc.geomspace, "tri": _manip.tri,
    "indices": _manip.indices, "tril_indices": _manip.tril_indices,
    "triu_indices": _manip.triu_indices, "meshgrid": _manip.meshgrid,
}


def _refuse_random(name):
    from .numpy_random import LEGACY
    if name in LEGACY:
        return LEGACY[name]

    def refuse(*args, **kwargs):
        raise unsupported(f"np.random.{name}",
                          fix="Random numbers are not compiled yet; draw them outside the compiled "
                              "function and pass them in as an argument.")
    return refuse


def _wrap(original, traced):
    def wrapper(*args, **kwargs):
        if current_builder() is None or \
                sys._getframe(1).f_globals.get("__name__", "").startswith(("numpy", "nptf")):
            return original(*args, **kwargs)
        return traced(*args, **kwargs)
    wrapper.__name__ = getattr(original, "__name__", "wrapper")
    wrapper.__doc__ = getattr(original, "__doc__", None)
    wrapper.__wrapped__ = original
    return wrapper


_RANDOM_NAMES = [n for n in dir(np.random) if not n.startswith("_") and
                 callable(getattr(np.random, n)) and not isinstance(getattr(np.random, n), type)]
_PATCHES = [(np, name, _wrap(getattr(np, name), fn)) for name, fn in CREATION.items()] + \
           [(np.random, name, _wrap(getattr(np.random, name), _refuse_random(name)))
            for name in _RANDOM_NAMES]
_WRAPPER_OF = {id(p[2].__wrapped__): p[2] for p in _PATCHES}
_lock = threading.Lock()
_depth = 0


@contextlib.contextmanager
def numpy_patched():
    """Swap in the wrappers for the duration of a trace (re-entrant, thread-safe)."""
    global _depth
    with _lock:
        if _depth == 0:
            for module, name, wrapper in _PATCHES:
                setattr(module, name, wrapper)
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                for module, name, wrapper in _PATCHES:
                    setattr(module, name, wrapper.__wrapped__)


def _replacement(value, memo):
    wrapper = _WRAPPER_OF.get(id(value))
    if wrapper is not None:
        return wrapper
    if isinstance(value, types.FunctionType) and _is_user_code(value):
        return rebind(value, memo)
    return value


def _is_user_code(fn) -> bool:
    module = getattr(fn, "__module__", "") or ""
    return module.split(".")[0] not in ("numpy", "nptf", "tensorflow", "builtins") and \
        any(id(v) in _WRAPPER_OF for v in fn.__globals__.values())


def rebind(fn, memo=None):
    """``fn`` with directly imported NumPy creation functions (``from numpy import zeros``)
    replaced by their wrappers; a no-op copy-free return when there are none."""
    memo = {} if memo is None else memo
    if not isinstance(fn, types.FunctionType):   # NumPy's own functions, builtins, callables
        return fn
    if id(fn) in memo:
        return memo[id(fn)]
    if not _is_user_code(fn) and not (fn.__closure__ and any(
            id(_cell_value(c)) in _WRAPPER_OF for c in fn.__closure__)):
        return fn
    old_globals = fn.__globals__
    new_globals = memo.get(("globals", id(old_globals)))
    fresh = new_globals is None
    if fresh:
        new_globals = dict(old_globals)
        memo[("globals", id(old_globals))] = new_globals
    closure = fn.__closure__
    if closure:
        closure = tuple(_new_cell(c, memo) for c in closure)
    new_fn = types.FunctionType(fn.__code__, new_globals, fn.__name__, fn.__defaults__, closure)
    new_fn.__kwdefaults__ = fn.__kwdefaults__
    new_fn.__dict__.update(fn.__dict__)
    memo[id(fn)] = new_fn
    if fresh:
        for name, value in old_globals.items():
            new_globals[name] = new_fn if value is fn else _replacement(value, memo)
    return new_fn


def _cell_value(cell):
    try:
        return cell.cell_contents
    except ValueError:
        return None


def _new_cell(cell, memo):
    try:
        value = cell.cell_contents
    except ValueError:  # a cell not yet filled (e.g. a recursive inner function)
        return cell
    return types.CellType(_replacement(value, memo))
