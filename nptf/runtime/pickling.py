"""What keeps a compiled function from travelling to another process, named before the
pickler fails.

cloudpickle, with which Dask sends its workers a function defined in a script, a
notebook or another function, pickles such a function by value: its code with
the objects it refers to (the variables it closes over, the globals it reads,
its defaults). When one of them cannot be pickled (a lock, an open file), the
pickler's own error names only the object's type, deep in the pickling of a
task graph. ``check_picklable`` names the function, the variable and the fix.
"""
from __future__ import annotations

import sys
import threading
import types

from ..errors import PicklingError

_CHECKING = threading.local()


def by_value_pickler_running():
    """Whether cloudpickle is pickling. Plain ``pickle`` saves a function by its name,
    without what it refers to, so only a pickler that saves functions by value meets
    what cannot be pickled."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_globals.get("__name__", "").partition(".")[0] == "cloudpickle":
            return True
        frame = frame.f_back
    return False


def check_picklable(fn, name):
    """Whether cloudpickle pickles ``fn`` (True), or None when ``fn`` is already being
    checked further up (it refers to itself); raises ``PicklingError`` when it cannot."""
    import cloudpickle
    checking = _CHECKING.__dict__.setdefault("ids", set())
    if id(fn) in checking:
        return None
    checking.add(id(fn))
    try:
        try:
            cloudpickle.dumps(fn)
        except PicklingError:
            raise       # another compiled function it uses, named there
        except Exception as error:
            raise _unpicklable(fn, name, error) from error
    finally:
        checking.discard(id(fn))
    return True


def _unpicklable(fn, name, error):
    code = getattr(fn, "__code__", None)
    where = f" (defined at {code.co_filename}:{code.co_firstlineno})" if code is not None else ""
    culprit = _culprit(fn)
    sent = ("Pickled by value, as cloudpickle sends Dask's workers a function defined in a "
            "script, a notebook or another function, a function takes the objects it refers to")
    module = "define the function in a module the workers import: it is then sent by name"
    if culprit is None:
        return PicklingError(f"cannot pickle the compiled function {name}{where}: "
                             f"{type(error).__name__}: {error}. {sent}. Make it refer only to "
                             f"objects that can be pickled, or {module}")
    how, var, value, reason = culprit
    kind = type(value).__qualname__ if type(value).__module__ == "builtins" else \
        f"{type(value).__module__}.{type(value).__qualname__}"
    return PicklingError(
        f"cannot pickle the compiled function {name}{where}: it {how} {var!r}, a {kind} "
        f"({reason}). {sent}. Create {var!r} inside the function (each process then makes "
        f"its own; for a file, open it there from its path), pass the data it holds as an "
        f"argument, or {module}, without its globals")


def _culprit(fn):
    """``(how fn refers to it, variable name, object, cloudpickle's reason)`` of the first
    object ``fn`` refers to that cannot be pickled, or None."""
    import cloudpickle
    for how, var, value in _references(fn):
        if isinstance(value, types.ModuleType):
            continue        # pickled by name
        try:
            cloudpickle.dumps(value)
        except PicklingError:
            raise
        except Exception as error:
            return how, var, value, f"{type(error).__name__}: {error}"
    return None


def _references(fn):
    code = getattr(fn, "__code__", None)
    if code is None:
        return
    for var, cell in zip(code.co_freevars, fn.__closure__ or ()):
        try:
            yield "closes over", var, cell.cell_contents
        except ValueError:      # a cell not yet assigned
            continue
    names = _global_names(code)
    for var in names:
        if var in fn.__globals__:
            yield "reads the global", var, fn.__globals__[var]
    defaults = fn.__defaults__ or ()
    positional = code.co_varnames[:code.co_argcount]
    for var, value in zip(positional[len(positional) - len(defaults):], defaults):
        yield "has the default", var, value
    for var, value in (fn.__kwdefaults__ or {}).items():
        yield "has the default", var, value


def _global_names(code):
    """The names ``code`` and the functions defined in it may read as globals, in order."""
    names = dict.fromkeys(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names.update(dict.fromkeys(_global_names(const)))
    return list(names)


__all__ = ["by_value_pickler_running", "check_picklable"]
