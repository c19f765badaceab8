"""Python state a traced function changes: found, undone, and refused.

A compiled function's Python code runs once, while it is traced; the graph then
runs on every call. A write into a Python object that lives on after the call
(a dict or list passed in, a global, a closure variable, an attribute of an
object reached through one of them) would therefore happen once instead of on
every call, or leave a tracer behind in the caller's object. So before the
function is traced, everything it can reach that already exists is recorded
(arguments, its globals and closures and those of the helpers it reaches,
default values, and the containers, arrays and objects inside them); after the
trace, anything changed is put back and the trace refused with ``SideEffectError``
(an ``UnsupportedError``: with ``fallback="numpy"`` the call runs with NumPy).
Objects the function creates are not recorded, so it may grow and fill its own
lists and dicts freely.

The comparison is the whole of the check; the converter also marks each
statement that writes through a name (``d[k] = v``, ``obj.a = v``,
``log.append(v)``) with a call into ``recv``, which names the variable and the
line in the message, and refuses a plain store into a recorded object before it
happens (a tracer stored into a NumPy array would otherwise be a confusing
``ValueError``).
"""
from __future__ import annotations

import argparse
import ast
import contextlib
import contextvars
import enum
import functools
import inspect
import os
import sys
import sysconfig
import textwrap
import types
from collections import deque

import numpy as np

from ..errors import UnsupportedError, in_user_code
from .tracer import Tracer

_ACTIVE = contextvars.ContextVar("nptf_side_effects", default=None)

# Methods that change the builtin container they are called on (also read by convert.py).
MUTATING_METHODS = frozenset({
    "append", "extend", "insert", "pop", "remove", "clear", "update", "add", "discard",
    "setdefault", "popitem", "sort", "reverse", "intersection_update", "difference_update",
    "symmetric_difference_update", "appendleft", "extendleft", "popleft", "rotate",
    "__setitem__", "__delitem__", "__setattr__", "__delattr__", "__iadd__", "__imul__",
    "fill", "put", "itemset", "resize", "partition", "setflags", "byteswap"})
# ndarray methods that write the array they are called on.
_ARRAY_WRITERS = frozenset({"fill", "put", "itemset", "resize", "sort", "partition",
                            "__setitem__", "__delitem__"})
# list methods an array has not: a list argument reaches the function as an array.
_LIST_ONLY = frozenset({"append", "extend", "insert", "remove", "pop", "clear"})

_MAX_OBJECTS = 200_000          # containers' elements recorded per trace, at most
_MAX_ARRAY_BYTES = 64 << 20     # bytes of NumPy arrays copied per trace, at most
_MISSING = object()


class SideEffectError(UnsupportedError):
    """A compiled function changes Python state that outlives the call.

    Example: ``d["y"] = x * 2`` into a dict argument, ``log.append(x.sum())`` to a
    global list, ``global calls; calls += 1``, ``obj.v = x`` on an object passed
    in. The function's Python code runs once, while it is traced, so the change
    would happen once instead of on every call. With ``fallback="numpy"`` (the
    default) such a function runs with NumPy, with one warning; with
    ``fallback="raise"`` this error names the variable and the line. Fix: return
    the values and store them outside the compiled function.
    """


# ------------------------------------------------------------ what is user state
_LIBRARY_ROOTS = {"numpy", "nptf", "tensorflow", "keras", "gast", "scipy", "jax", "torch",
                  "pandas", "_pytest", "pytest", "pluggy", "IPython", "ipykernel"}
_LIBRARY_DIRS = tuple({os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       os.path.dirname(os.path.abspath(np.__file__)),
                       *(os.path.abspath(p) for k, p in sysconfig.get_paths().items()
                         if k in ("stdlib", "platstdlib"))})
_NAMESPACES = (types.SimpleNamespace, argparse.Namespace)


def _library_file(filename):
    if not filename or filename.startswith("<"):
        # "<string>", "<stdin>": the user's code made by exec; "<nptf ...>": nptf's own.
        return filename.startswith(("<frozen", "<nptf")) if filename else False
    path = os.path.abspath(filename)
    return path.startswith(_LIBRARY_DIRS) or f"{os.sep}site-packages{os.sep}" in path or \
        f"{os.sep}dist-packages{os.sep}" in path


@functools.lru_cache(maxsize=None)
def _library_module(name):
    root = (name or "").split(".")[0]
    if root in _LIBRARY_ROOTS or root in sys.stdlib_module_names or root == "builtins":
        return True
    module = sys.modules.get(name)
    return _library_file(getattr(module, "__file__", None) or "")


def _user_class(cls):
    return isinstance(cls, type) and not _library_module(getattr(cls, "__module__", "")) and \
        not issubclass(cls, enum.Enum)


def _user_function(fn):
    return isinstance(fn, types.FunctionType) and not _library_file(fn.__code__.co_filename)


@functools.lru_cache(maxsize=4096)
def _code_names(code):
    """Global and attribute names ``code`` (and code nested in it) refers to."""
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _code_names(c)
    return frozenset(names)


# ------------------------------------------------------------------- records
class _Record:
    """An object that existed before the trace, what it held then, and how it was reached."""
    __slots__ = ("obj", "kind", "saved", "root", "path")

    def __init__(self, obj, kind, saved, root, path):
        self.obj, self.kind, self.saved, self.root, self.path = obj, kind, saved, root, path


_ATOMS = frozenset({int, float, complex, bool, str, bytes, type(None), np.float64, np.float32,
                    np.int64, np.int32, np.bool_, np.complex128, Tracer})


def _kind_of(obj):
    if type(obj) in _ATOMS:
        return None
    if isinstance(obj, np.ndarray):
        return "array"
    if isinstance(obj, dict):
        return "dict"
    if isinstance(obj, (list, deque)):
        return "list"
    if isinstance(obj, set):
        return "set"
    if isinstance(obj, bytearray):
        return "bytearray"
    if isinstance(obj, types.ModuleType):
        return "module" if not _library_file(getattr(obj, "__file__", None) or "<") and \
            not _library_module(obj.__name__) else None
    if isinstance(obj, type):
        return "class" if _user_class(obj) else None
    if isinstance(obj, types.FunctionType):
        return "function" if _user_function(obj) else None
    if isinstance(obj, _NAMESPACES) or (_user_class(type(obj)) and
                                        (hasattr(obj, "__dict__") or _slots(type(obj)))):
        return "object"
    return None


def _slots(cls):
    names = []
    for c in cls.__mro__:
        s = c.__dict__.get("__slots__", ())
        names += [s] if isinstance(s, str) else [n for n in s if n not in ("__dict__", "__weakref__")]
    return names


def _attributes(obj, kind):
    """Name -> value of what an object, class, function or module holds (its own dict)."""
    if kind == "class":
        # A member converted code runs while a trace is on stands for the user's own.
        own = (_PATCHED.get() or {}).get(obj, {})
        return {k: own.get(k, v) for k, v in vars(obj).items() if not k.startswith("__")}
    if kind == "module":
        return {k: v for k, v in vars(obj).items() if not (k.startswith("__") and k.endswith("__"))}
    d = dict(getattr(obj, "__dict__", None) or {})
    if kind == "object":
        for name in _slots(type(obj)):
            try:
                d[name] = object.__getattribute__(obj, name)
            except AttributeError:
                pass
    return d


def saved_state(obj):
    """What an object of nptf's own (a list the data grow, all slots) holds now, for
    ``restore_state``: a branch traced with it at an attribute or in a closure appends to
    it in place."""
    return _attributes(obj, "object")


def same_state(obj, saved):
    """Whether ``obj`` holds what ``saved_state`` saw (the same objects)."""
    now = saved_state(obj)
    return now.keys() == saved.keys() and all(v is saved[k] for k, v in now.items())


def restore_state(obj, saved):
    for name, value in saved.items():
        object.__setattr__(obj, name, value)


def _state(obj, kind):
    if kind == "array":
        return (obj.shape, obj.dtype, obj.copy())
    if kind == "dict":
        return list(obj.items())
    if kind in ("list", "set"):
        return list(obj)
    if kind == "bytearray":
        return bytes(obj)
    return _attributes(obj, kind)


def _same(obj, rec):
    kind, saved = rec.kind, rec.saved
    if kind == "array":
        shape, dtype, copy = saved
        return obj.shape == shape and obj.dtype == dtype and obj.tobytes() == copy.tobytes()
    if kind == "dict":
        now = list(obj.items())
        return len(now) == len(saved) and all(a is c and b is d for (a, b), (c, d) in zip(now, saved))
    if kind == "list":
        return len(obj) == len(saved) and all(a is b for a, b in zip(obj, saved))
    if kind == "set":
        return len(obj) == len(saved) and {id(x) for x in obj} == {id(x) for x in saved}
    if kind == "bytearray":
        return bytes(obj) == saved
    return not _changed_attributes(obj, rec)


def _changed_attributes(obj, rec):
    now = _attributes(obj, rec.kind)
    carried = _CARRIED.get()
    return [k for k in now.keys() | rec.saved.keys()
            if now.get(k, _MISSING) is not rec.saved.get(k, _MISSING) and
            not (k not in rec.saved and _lazy(obj, rec.kind, k, now[k])) and
            (id(obj), k) not in carried]


# (id(object), attribute name) of the attributes a graph loop carries as variables
# (``self.w -= lr * dw`` in a training loop, see ``carrying_attributes``): the loop sets
# them on every step, and a snapshot of the Python state around the body does not
# count that as a change only Python can make.
_CARRIED = contextvars.ContextVar("nptf_carried_attributes", default=frozenset())


@contextlib.contextmanager
def _carried_as(carried):
    token = _CARRIED.set(carried)
    try:
        yield
    finally:
        _CARRIED.reset(token)


@contextlib.contextmanager
def carrying_attributes(pairs):
    """A scope in which the attributes ``pairs`` ((object, name); (cell, "cell_contents")
    for a closure variable) are a loop's variables;
    ``pairs`` empty: a scope in which none is (a traced `if` in the loop body, whose
    paths' writes to them are its own to merge)."""
    token = _CARRIED.set(_CARRIED.get() | {(id(obj), name) for obj, name in pairs}
                         if pairs else frozenset())
    try:
        yield
    finally:
        _CARRIED.reset(token)


def _lazy(obj, kind, name, value):
    """An attribute Python or a library adds on first use, not the function's doing: a
    submodule imported into its package, a ``functools.cached_property`` that computed a
    plain value (one that holds a tracer is the function's doing after all)."""
    if kind == "module":
        return isinstance(value, types.ModuleType)
    if kind == "object":
        return isinstance(inspect.getattr_static(type(obj), name, None), functools.cached_property) \
            and not isinstance(value, Tracer) and not (
                isinstance(value, (tuple, list, dict)) and any(
                    isinstance(v, Tracer) for v in (value.values() if isinstance(value, dict)
                                                    else value)))
    return False


def _same_or_unknown(rec):
    try:
        return _same(rec.obj, rec)
    except Exception:  # noqa: BLE001  (an object that can no longer be read is not blamed)
        return True


def _put_back(obj, rec):
    kind, saved = rec.kind, rec.saved
    if kind == "array":
        if obj.shape == saved[0] and obj.dtype == saved[1]:
            obj[...] = saved[2]
    elif kind == "dict":
        obj.clear()
        obj.update(saved)
    elif kind == "list":
        obj.clear()
        obj.extend(saved)
    elif kind == "set":
        obj.clear()
        obj.update(saved)
    elif kind == "bytearray":
        obj[:] = saved
    else:
        own = getattr(obj, "__dict__", None) if kind in ("object", "function", "module") else None
        own = own if isinstance(own, dict) else None
        for k in _changed_attributes(obj, rec):
            v = saved.get(k, _MISSING)
            # Through the instance's own dict where it has one: a frozen dataclass or a
            # __setattr__ of the user's refuses or reacts to setattr.
            if own is not None and (k in own or v is not _MISSING and k not in _slots(type(obj))):
                if v is _MISSING:
                    del own[k]
                else:
                    own[k] = v
                continue
            with contextlib.suppress(AttributeError, TypeError):
                if v is _MISSING:
                    delattr(obj, k)
                elif kind == "object":
                    object.__setattr__(obj, k, v)
                else:
                    setattr(obj, k, v)


class _Names:
    """Some names of a namespace (a module's globals, a closure cell) and their values."""
    __slots__ = ("space", "saved", "root", "cell")

    def __init__(self, space, names, root, cell=False):
        self.space, self.root, self.cell = space, root, cell
        self.saved = {n: self._get(n) for n in names}

    def _get(self, name):
        if self.cell:
            try:
                return self.space.cell_contents
            except ValueError:
                return _MISSING
        return self.space.get(name, _MISSING)

    def changed(self):
        return [n for n, v in self.saved.items() if self._get(n) is not v]

    def put_back(self):
        for n, v in self.saved.items():
            if self._get(n) is v:
                continue
            if self.cell:
                if v is _MISSING:
                    del self.space.cell_contents
                else:
                    self.space.cell_contents = v
            elif v is _MISSING:
                self.space.pop(n, None)
            else:
                self.space[n] = v


# Values that hold no other object (a long list of numbers costs no budget).
_HOLDS_NOTHING = (int, float, complex, str, bytes, type(None), np.generic, np.ndarray, Tracer)


def held_only_at(obj, holder, name, frame, budget=20_000):
    """Whether the variables of the user's code running within the trace (``frame`` and
    the frames around it) reach ``obj`` only through ``holder``'s attribute ``name``, or,
    for a closure cell ``holder``, through the variable ``name`` it is: nothing else
    (another variable, container, object or closure) would see it replaced there. False
    where the search runs past ``budget`` objects."""
    is_cell = isinstance(holder, types.CellType)
    pending, seen = [], set()
    f = frame
    while f is not None and f.f_globals.get("__name__") != "nptf.tracer.trace":
        code = f.f_code
        if in_user_code(code.co_filename):
            shared = set(code.co_cellvars) | set(code.co_freevars)
            for k, v in f.f_locals.items():
                if v is obj and not (is_cell and k == name and k in shared):
                    return False
                pending.append(v)
        f = f.f_back
    while pending:
        v = pending.pop()
        if id(v) in seen or v is obj or isinstance(v, _HOLDS_NOTHING):
            continue
        seen.add(id(v))
        budget -= 1
        if budget <= 0:
            return False
        if isinstance(v, (list, tuple, set, frozenset, deque)):
            items = list(v)
        elif isinstance(v, dict):
            items = list(v.values())
        elif isinstance(v, types.FunctionType) and _user_function(v):
            cells = [c for c in (v.__closure__ or ()) if c is not holder]
            items = [_cell_contents(c) for c in cells]
        elif isinstance(v, types.MethodType):
            items = [v.__self__, v.__func__]
        elif _kind_of(v) == "object":
            attrs = _attributes(v, "object")
            if v is holder:
                attrs.pop(name, None)
            items = list(attrs.values())
        else:
            continue
        if any(x is obj for x in items):
            return False
        pending += items
    return True


# ------------------------------------------------------------------- session
class Session:
    """What one trace of ``fn`` may change, recorded before it runs."""

    def __init__(self, fn, args, kwargs):
        self.fn = fn
        self.records = {}           # id -> _Record
        self.names = []             # _Names of namespaces and cells
        self.spaces = set()         # ids of namespaces (and cells) already recorded
        self.functions = []         # user functions reached, for finding lines
        self._seen_functions = set()
        self.notes = {}             # id of a recorded object -> (text, where, kind, attr)
        self.refused = None         # a SideEffectError raised at a write, even if caught
        self._globals = {}          # id of a globals dict -> its _Names
        self._budget = _MAX_OBJECTS
        self._array_bytes = 0
        self._pending = []
        self._record_arguments(fn, args, kwargs)
        self._record_callable(fn, ("argument", "self"), "self")
        self._drain()

    # -- recording
    def _record_arguments(self, fn, args, kwargs):
        try:
            signature = inspect.signature(fn)
            bound, params = signature.bind(*args, **kwargs), signature.parameters
        except (TypeError, ValueError):
            for i, a in enumerate(args):
                self._visit(a, ("argument", f"#{i}"), f"#{i}")
            for k, a in kwargs.items():
                self._visit(a, ("argument", k), k)
            return
        for name, value in bound.arguments.items():
            kind = params[name].kind
            if kind is inspect.Parameter.VAR_POSITIONAL:
                for i, a in enumerate(value):   # a fresh tuple: only what it holds
                    self._visit(a, ("argument", name), f"{name}[{i}]")
            elif kind is inspect.Parameter.VAR_KEYWORD:
                for k, a in value.items():      # a fresh dict: only what it holds
                    self._visit(a, ("argument", k), k)
            else:
                self._visit(value, ("argument", name), name)

    def _record_callable(self, fn, root, path):
        for _ in range(8):
            if isinstance(fn, types.MethodType):
                self._visit(fn.__self__, root, path)
                fn = fn.__func__
            elif isinstance(fn, functools.partial):
                for i, a in enumerate(fn.args):
                    self._visit(a, root, f"{path}.args[{i}]")
                for k, a in (fn.keywords or {}).items():
                    self._visit(a, root, f"{path}.keywords[{k!r}]")
                fn = fn.func
            elif getattr(fn, "__wrapped__", None) is not None and not _user_function(fn):
                fn = fn.__wrapped__
            else:
                break
        if _user_function(fn):
            self._function(fn)
        elif _user_class(type(fn)):
            self._visit(fn, root, path)

    def _function(self, fn):
        """A user function's globals, closure and defaults (the function may run)."""
        if id(fn) in self._seen_functions:
            return
        self._seen_functions.add(id(fn))
        self.functions.append(fn)
        code = fn.__code__
        names = _code_names(code)
        g = fn.__globals__
        module = g.get("__name__", "?")
        watched = [n for n in names if not (n.startswith("__") and n.endswith("__"))]
        rec = self._globals.get(id(g))
        if rec is None:
            self.spaces.add((id(g), "globals"))
            rec = self._globals[id(g)] = _Names(g, watched, ("global", module))
            self.names.append(rec)
        else:
            for n in watched:
                if n not in rec.saved:
                    rec.saved[n] = rec._get(n)
        for n in watched:
            if n in g:
                self._visit(g[n], ("global", n), n, attrs=names)
        for name, cell in zip(code.co_freevars, fn.__closure__ or ()):
            if id(cell) not in self.spaces:
                self.spaces.add(id(cell))
                self.names.append(_Names(cell, [name], ("closure", name), cell=True))
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            self._visit(value, ("closure", name), name, attrs=names)
        defaults = fn.__defaults__ or ()
        positional = code.co_varnames[:code.co_argcount]
        for p, v in zip(positional[len(positional) - len(defaults):], defaults):
            self._visit(v, ("default", p), p)
        for p, v in (fn.__kwdefaults__ or {}).items():
            self._visit(v, ("default", p), p)

    def _visit(self, obj, root, path, attrs=None):
        self._pending.append((obj, root, path, attrs))

    def _drain(self):
        while self._pending and self._budget > 0:
            obj, root, path, attrs = self._pending.pop()
            try:
                self._one(obj, root, path, attrs)
            except Exception:  # noqa: BLE001  (an object that cannot be read is not recorded)
                pass

    def _one(self, obj, root, path, attrs):
        if isinstance(obj, (tuple, frozenset)):
            for i, v in enumerate(obj):
                self._pending.append((v, root, f"{path}[{i}]", attrs))
            return
        if isinstance(obj, (staticmethod, classmethod)):
            obj = obj.__func__
        elif isinstance(obj, property):
            for f in (obj.fget, obj.fset, obj.fdel):
                if f is not None:
                    self._pending.append((f, root, path, attrs))
            return
        elif isinstance(obj, (types.MethodType, functools.partial)) or \
                (callable(obj) and not isinstance(obj, type) and not _user_function(obj) and
                 getattr(obj, "__wrapped__", None) is not None):
            self._record_callable(obj, root, path)
            return
        if id(obj) in self.records:
            return
        kind = _kind_of(obj)
        if kind is None:
            return
        if kind == "array":
            if not obj.flags.writeable or obj.nbytes + self._array_bytes > _MAX_ARRAY_BYTES:
                return
            self._array_bytes += obj.nbytes
        saved = _state(obj, kind)
        self.records[id(obj)] = _Record(obj, kind, saved, root, path)
        size = len(saved) if isinstance(saved, (list, dict)) else 0
        self._budget -= 1 + size
        if self._budget < 0:    # recorded itself; what it holds is left unrecorded
            return
        if kind == "dict":
            for k, v in saved:
                self._pending.append((v, root, f"{path}[{k!r}]", attrs))
        elif kind in ("list", "set"):
            for i, v in enumerate(saved):
                self._pending.append((v, root, f"{path}[{i}]", attrs))
        elif kind == "function":
            self._function(obj)
            for k, v in saved.items():
                self._pending.append((v, root, f"{path}.{k}", attrs))
        elif kind == "module":
            # Only what the code reached so far names: a module may hold a lot.
            for k, v in saved.items():
                if attrs is not None and k in attrs:
                    self._pending.append((v, root, f"{path}.{k}", attrs))
        elif kind == "class":
            for k, v in saved.items():
                self._pending.append((v, root, f"{path}.{k}", attrs))
        elif kind == "object":
            for k, v in saved.items():
                self._pending.append((v, root, f"{path}.{k}", attrs))
            if _user_class(type(obj)):
                self._pending.append((type(obj), ("class", type(obj).__name__),
                                      type(obj).__name__, attrs))

    def add_namespace(self, space, code, module):
        """A namespace the traced code runs in (a converted function's copy of its globals)."""
        key = (id(space), "globals")
        if key in self.spaces:
            return
        self.spaces.add(key)
        names = [n for n in _code_names(code) if not (n.startswith("__") and n.endswith("__"))]
        self.names.append(_Names(space, names, ("global", module)))

    def add_copies(self, memo):
        """Copies ``namespace.rebind`` made of globals and closure cells: a ``global`` or
        ``nonlocal`` statement in a rebound function writes into them."""
        for key, value in memo.items():
            if isinstance(key, tuple) and key[0] == "globals":
                names = [n for n in value if not (n.startswith("__") and n.endswith("__"))]
                if (id(value), "globals") not in self.spaces:
                    self.spaces.add((id(value), "globals"))
                    self.names.append(_Names(value, names, ("global", value.get("__name__"))))
            elif isinstance(value, types.FunctionType):
                for name, cell in zip(value.__code__.co_freevars, value.__closure__ or ()):
                    if id(cell) not in self.spaces:
                        self.spaces.add(id(cell))
                        self.names.append(_Names(cell, [name], ("closure", name), cell=True))

    # -- while the function runs
    def site(self, obj, text, where, kind, attr):
        """A statement about to write through ``obj`` (see ``recv``)."""
        if isinstance(obj, Tracer):
            if kind == "call" and attr in _LIST_ONLY and not hasattr(obj, attr):
                raise self._refuse(SideEffectError(
                    f"`{text}.{attr}(...)` on `{text}`, which the compiled function holds as "
                    f"an array (a list passed in is one, and so is a list whose length follows "
                    f"the data, such as `[i for i in ... if x[i] > 0]`), is not supported by "
                    f"nptf: Python's list methods on it would run once instead of on every "
                    f"call (while it is traced). Index the array instead (a position that moves "
                    f"through it rather than `pop`), build a new list inside the function "
                    f"and return it, or let the function run with NumPy (fallback='numpy', "
                    f"the default).\n  at {where}"))
            return
        rec = self.records.get(id(obj))
        if rec is None or rec.obj is not obj:
            return
        self.notes.setdefault(id(obj), (text, where, kind, attr))
        # A plain store or del always changes the object; an in-place operator may store
        # back what was there (``d["a"] += 1`` on an array writes the array, not ``d``),
        # and a method may change nothing: the comparison after the trace decides those.
        if kind in ("item", "attr", "delitem", "delattr") or (rec.kind == "array" and (
                kind in ("augitem", "augattr") or (kind == "call" and attr in _ARRAY_WRITERS))):
            raise self._refuse(self._error(rec, None, (text, where, kind, attr)))

    def _refuse(self, error):
        if self.refused is None:
            self.refused = error
        return error

    # -- after it ran
    def changes(self):
        """(record or _Names, changed name or None) for everything that is not as it was."""
        found = [(rec, None) for rec in self.records.values() if not _same_or_unknown(rec)]
        for names in self.names:
            found += [(names, n) for n in names.changed()]
        # First a change whose write was seen (its line is known), then a rebound name
        # (a `global` statement names it), then the rest.
        found.sort(key=lambda c: (0 if id(c[0].obj) in self.notes else 2)
                   if isinstance(c[0], _Record) else 1)
        return found

    def put_back(self):
        _put_back_changed(self.records)
        for names in self.names:
            names.put_back()

    def finish(self, error=None):
        """Undo and refuse what the trace changed (after ``error``, if it raised one)."""
        found = self.changes()
        if self.refused is None and not found:
            return
        refusal = self.refused
        if refusal is None:     # described before it is undone: the message names what changed
            target, name = found[0]
            refusal = self._error(target, None, self.notes.get(id(target.obj))) \
                if isinstance(target, _Record) else self._error(None, (target, name), None)
        self.put_back()
        if refusal is not error:
            raise refusal from error

    # -- messages
    def _error(self, rec, names, note):
        if rec is not None:
            root_kind, root_name = rec.root
            noun = {"array": "array", "dict": "dict", "list": type(rec.obj).__name__,
                    "set": "set", "bytearray": "bytearray", "module": "module",
                    "class": "class", "function": "function"}.get(rec.kind, "object")
            what = f"changing the {noun} `{rec.path}` ({_ROOT_WORDS[root_kind]})"
            variable = rec.path.split(".")[0].split("[")[0]
            attribute = None
            if rec.kind in ("object", "class", "function", "module"):
                attribute = min(_changed_attributes(rec.obj, rec), default=None)
                if attribute is not None:
                    what = f"changing `{rec.path}.{attribute}`, an attribute of the {noun} " \
                           f"`{rec.path}` ({_ROOT_WORDS[root_kind]})"
        else:
            target, name = names
            root_kind = target.root[0]
            if root_kind == "closure":
                what = f"rebinding `{name}`, a variable of an enclosing function (nonlocal)"
            else:
                what = f"rebinding the global `{name}`"
            variable, attribute = name, None
        if note is not None:
            text, where, kind, attr = note
            what += " by " + {"item": f"`{text}[...] = ...`", "attr": f"`{text}.{attr} = ...`",
                              "delitem": f"`del {text}[...]`", "delattr": f"`del {text}.{attr}`",
                              "augitem": f"an in-place operator on `{text}[...]`",
                              "augattr": f"an in-place operator on `{text}.{attr}`",
                              "call": f"`{text}.{attr}(...)`"}[kind]
        else:
            where = self._static_site(variable, rec) or \
                (attribute and self._static_site(attribute)) or _definition(self.fn)
        return SideEffectError(
            f"{what} inside a compiled function is not supported by nptf: its Python code runs "
            f"once, while it is traced, so the change would happen once instead of on every "
            f"call. Return the values and store them outside the compiled function, or let "
            f"the function run with NumPy (fallback='numpy', the default).\n  at {where}")

    def _static_site(self, name, rec=None):
        """Where a function reached writes through ``name`` (or, for an object, through
        the ``self`` of one of its class's methods, preferring the attributes changed)."""
        for fn in self.functions:
            for site_name, _, where in _sites(fn):
                if site_name == name:
                    return where
        if rec is None or rec.kind != "object":
            return None
        now = _attributes(rec.obj, rec.kind)
        changed = {k for k in now.keys() | rec.saved.keys()
                   if now.get(k, _MISSING) is not rec.saved.get(k, _MISSING)}
        found = []
        for cls in type(rec.obj).__mro__:
            for method, fn in vars(cls).items():
                fn = getattr(fn, "__func__", fn)
                # A constructor made the object before the trace: its writes are not these.
                if method in ("__init__", "__new__", "__post_init__") or \
                        not _user_function(fn) or not fn.__code__.co_argcount:
                    continue
                own = fn.__code__.co_varnames[0]
                found += [(attr not in changed, where) for site_name, attr, where in _sites(fn)
                          if site_name == own]
        return min(found, key=lambda f: f[0])[1] if found else None


_ROOT_WORDS = {"argument": "passed in as an argument", "global": "a global",
               "closure": "a variable of an enclosing function",
               "default": "a default argument value",
               "class": "the class of an object the function reaches"}


def _definition(fn):
    fn = inspect.unwrap(getattr(fn, "__func__", fn)) if callable(fn) else fn
    code = getattr(fn, "__code__", None)
    if code is None:
        return "<unknown>"
    return f"{code.co_filename}:{code.co_firstlineno}"


@functools.lru_cache(maxsize=1024)
def _sites_of_code(code, filename, first_line, source):
    """(root variable, its first attribute or None, "file:line") of each statement in
    ``source`` that writes through a name."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return ()
    found = []

    def root(node):
        """The name an expression starts from, and the attribute it takes of it first."""
        attr = None
        while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
            if isinstance(node, ast.Attribute):
                attr = node.attr
            node = node.func if isinstance(node, ast.Call) else node.value
        return (node.id, attr) if isinstance(node, ast.Name) else (None, None)

    declared = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            declared.update(node.names)
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in MUTATING_METHODS:
            targets = [node.func]
        for t in targets:
            for sub in ast.walk(t):
                if isinstance(sub, (ast.Attribute, ast.Subscript)):
                    name, attr = root(sub)
                elif isinstance(sub, ast.Name) and sub.id in declared and \
                        isinstance(sub.ctx, (ast.Store, ast.Del)):
                    name, attr = sub.id, None
                else:
                    continue
                if name is not None:
                    found.append((node.lineno, name, attr))
                    break
    return tuple((name, attr, f"{filename}:{line + first_line - 1}")
                 for line, name, attr in sorted(found))


def _sites(fn):
    try:
        lines, first = inspect.getsourcelines(fn)
        filename = inspect.getsourcefile(fn) or fn.__code__.co_filename
    except (OSError, TypeError):
        return ()
    return _sites_of_code(fn.__code__, filename, first, textwrap.dedent("".join(lines)))


# ------------------------------------------------------------ traced regions
_EMPTY_CELL = object()


def _cell_contents(cell):
    try:
        return cell.cell_contents
    except ValueError:
        return _EMPTY_CELL


def _closure_cells(values):
    """(variable name, cell) of the closures of the functions among ``values`` (methods
    and the functions a decorator such as ``functools.lru_cache`` wraps too), and of the
    functions those closures hold (a comprehension's body calling ``find``, whose closure
    holds the list it writes), each cell once."""
    found, seen = {}, set()
    pending = list(values)
    while pending:
        v = pending.pop(0)
        fn = v.__func__ if isinstance(v, types.MethodType) else v
        fn = inspect.unwrap(fn) if callable(fn) and hasattr(fn, "__wrapped__") else fn
        if not isinstance(fn, types.FunctionType) or not fn.__closure__ or id(fn) in seen:
            continue
        seen.add(id(fn))
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__):
            if id(cell) not in found:
                found[id(cell)] = (name, cell)
                contents = _cell_contents(cell)
                if isinstance(contents, (types.FunctionType, types.MethodType)):
                    pending.append(contents)
    return list(found.values())


_REGION_KINDS = frozenset({"dict", "list", "set", "bytearray", "object"})
_CACHED_FUNCTION = type(functools.lru_cache(maxsize=None)(len))


def _caches(values, cells):
    """(variable name, function) of the ``functools.lru_cache``/``cache`` functions among
    ``values`` and in the closure ``cells``: a call that misses stores its result, which
    under a traced branch or loop body is a value of that body's own graph."""
    found = {}
    for name, v in [*values, *((n, _cell_contents(c)) for n, c in cells)]:
        if isinstance(v, _CACHED_FUNCTION):
            found.setdefault(id(v), (name, v))
    return list(found.values())


def _misses(cached):
    info = cached.cache_info()
    return info.misses if info.maxsize != 0 else 0


# id(cached function) -> how many times a snapshot cleared it: a clear sets its miss count
# back to 0, so another snapshot of the same moment counts from there.
_CLEARS = {}


def _cache_state(cached):
    return _misses(cached), _CLEARS.get(id(cached), 0)


def _cache_filled(cached, before):
    """Whether ``cached`` holds entries made since ``before`` (``_cache_state``): it
    missed since, or a snapshot cleared it since and it missed after."""
    misses, clears = _cache_state(cached)
    return misses > 0 if clears != before[1] else misses != before[0]


class Snapshot:
    """The Python containers and objects reachable from some variables, as they are now.

    A traced branch or loop body runs once while it is traced, whatever the data later
    decide: a list it appends to, a dict it stores into, an attribute it sets on an
    object that existed before the statement would change as if the branch always ran
    (or the loop ran once), and hold values only the branch's own graph defines. The
    statement takes a snapshot before tracing; ``changed`` names what is no longer as
    it was, ``put_back`` undoes it. Arrays are left out: their writes are traced."""

    def __init__(self, named_values, budget=20_000, frame=None):
        self.records = {}
        # The frame of the converted code whose variables these are (None: not known).
        self.frame = frame
        # The attributes the loop this snapshot is for carries (``carrying_attributes``).
        self.carried = _CARRIED.get()
        named_values = list(named_values)
        # The closure cells of the functions reached (a nested function that declares a
        # variable ``nonlocal`` rebinds it in its cell): (name, cell, contents).
        self.cells = [(name, cell, _cell_contents(cell))
                      for name, cell in _closure_cells(v for _, v in named_values)]
        self.caches = [(name, f, _cache_state(f))
                       for name, f in _caches(named_values, [c[:2] for c in self.cells])]
        pending = [(v, name) for name, v in reversed(named_values)]
        # What the closures hold: a nested function called on a path changes it there
        # (``history.append(r)`` in a callback).
        pending[:0] = [(v, name) for name, _, v in reversed(self.cells) if v is not _EMPTY_CELL]
        while pending and budget > 0:
            obj, path = pending.pop()
            if isinstance(obj, tuple):
                pending += [(v, f"{path}[{i}]") for i, v in enumerate(obj)]
                continue
            try:
                kind = _kind_of(obj)
                if kind not in _REGION_KINDS or id(obj) in self.records:
                    continue
                saved = _state(obj, kind)
            except Exception:  # noqa: BLE001  (an object that cannot be read is not recorded)
                continue
            self.records[id(obj)] = _Record(obj, kind, saved, None, path)
            items = saved if kind != "object" else list(saved.items())
            budget -= 1 + len(items) if kind != "bytearray" else 1
            if kind == "dict":
                pending += [(v, f"{path}[{k!r}]") for k, v in saved]
            elif kind in ("list", "set"):
                pending += [(v, f"{path}[{i}]") for i, v in enumerate(saved)]
            elif kind == "object":
                pending += [(v, f"{path}.{k}") for k, v in saved.items()]

    def changed(self):
        """(path, type name) of each recorded object that changed, in the order found."""
        with _carried_as(self.carried):
            return self._changed()

    def _changed(self):
        carried = _CARRIED.get()
        rebound = [(name, "variable") for name, cell, before in self.cells
                   if _cell_contents(cell) is not before and
                   (id(cell), "cell_contents") not in carried]
        rebound += [(name, "function's cache") for name, f, before in self.caches
                    if _cache_filled(f, before)]
        return rebound + [(rec.path, type(rec.obj).__name__) for rec in self.records.values()
                          if not _same_or_unknown(rec)]

    def changed_objects(self):
        """(path, object, {name: value before} of the attributes that changed) of each
        recorded object of the user's that changed (``_MISSING``: it had none)."""
        with _carried_as(self.carried):
            return self._changed_objects()

    def _changed_objects(self):
        return [(rec.path, rec.obj, {k: rec.saved.get(k, _MISSING)
                                     for k in sorted(_changed_attributes(rec.obj, rec))})
                for rec in self.records.values()
                if rec.kind == "object" and not _same_or_unknown(rec)]

    def changed_attributes(self):
        """(path, object, {name: value before}) of the attributes of the user's objects
        that changed: those rebound, and those holding a Python list changed in place
        (``self.losses.append(loss)``: the list before, the same object), where nothing
        else changed (another container, a variable of an enclosing function, a cache);
        else None."""
        found = self.changed_objects()
        lists = [rec.obj for rec in self.records.values()
                 if rec.kind == "list" and type(rec.obj) is list and not _same_or_unknown(rec)]
        holders = {}
        for lst in lists:
            at = [(rec, k) for rec in self.records.values() if rec.kind == "object"
                  for k, v in rec.saved.items() if v is lst]
            if len(at) != 1:
                return None
            holders.setdefault(id(at[0][0]), (at[0][0], {}))[1][at[0][1]] = lst
        if len(found) + len(lists) != len(self.changed()) or not (found or lists):
            return None
        by_object = {id(obj): (path, obj, dict(attrs)) for path, obj, attrs in found}
        for key, (rec, attrs) in holders.items():
            by_object.setdefault(key, (rec.path, rec.obj, {}))[2].update(attrs)
        return list(by_object.values())

    def attributes_holding(self, test):
        """(path, object, {attribute names}) of the recorded objects of the user's with
        attributes whose values pass ``test``, as they were when recorded."""
        found = []
        for rec in self.records.values():
            if rec.kind == "object":
                names = {k for k, v in rec.saved.items() if test(v)}
                if names:
                    found.append((rec.path, rec.obj, names))
        return found

    def changed_dicts(self):
        """(path, dict, its items before) of each recorded Python dict that changed."""
        with _carried_as(self.carried):
            return [(rec.path, rec.obj, rec.saved) for rec in self.records.values()
                    if rec.kind == "dict" and type(rec.obj) is dict and
                    not _same_or_unknown(rec)]

    def changed_lists(self):
        """(path, list, its items before) of each recorded Python list that changed."""
        with _carried_as(self.carried):
            return self._changed_lists()

    def _changed_lists(self):
        return [(rec.path, rec.obj, rec.saved) for rec in self.records.values()
                if rec.kind == "list" and type(rec.obj) is list and not _same_or_unknown(rec)]

    def put_back(self):
        with _carried_as(self.carried):
            return self._put_back()

    def _put_back(self):
        _put_back_changed(self.records)
        for _, cell, before in self.cells:
            if _cell_contents(cell) is not before:
                if before is _EMPTY_CELL:
                    del cell.cell_contents
                else:
                    cell.cell_contents = before
        for k, (name, f, before) in enumerate(self.caches):
            if _cache_filled(f, before):
                f.cache_clear()   # its new entries hold the body's values; the rest refill
                _CLEARS[id(f)] = _CLEARS.get(id(f), 0) + 1
                # A later trace of the statement (tried again another way) that fills it
                # is a change again.
                self.caches[k] = (name, f, _cache_state(f))



def _put_back_changed(records):
    for rec in records.values():
        if not _same_or_unknown(rec):
            with contextlib.suppress(Exception):
                _put_back(rec.obj, rec)


# ------------------------------------------------ classes whose members run converted
# {class: {name: the user's own member}} of the classes whose properties and operator
# methods converted code stands in for while a trace is on (``patching_classes``).
_PATCHED = contextvars.ContextVar("nptf_patched_classes", default=None)


@contextlib.contextmanager
def patching_classes():
    """A scope (one trace) in which ``patch_class`` may put converted members into the
    user's classes; each goes back to the user's own member on leaving."""
    patched = {}
    token = _PATCHED.set(patched)
    try:
        yield
    finally:
        _PATCHED.reset(token)
        for cls, originals in patched.items():
            for name, member in originals.items():
                with contextlib.suppress(Exception):
                    setattr(cls, name, member)


def patch_class(cls, replacement):
    """Puts ``replacement(name, member)`` (None: keep it) in place of the members of
    ``cls`` and of the user's classes it derives from, for the rest of the scope of
    ``patching_classes``; nothing outside such a scope."""
    patched = _PATCHED.get()
    if patched is None or cls in patched or not _user_class(cls):
        return
    for c in cls.__mro__:
        if c in patched or not _user_class(c) or c is object:
            continue
        originals = patched[c] = {}
        for name, member in list(vars(c).items()):
            new = replacement(name, member)
            if new is None:
                continue
            try:
                setattr(c, name, new)
            except (AttributeError, TypeError):
                continue
            originals[name] = member


# -------------------------------------------------------------------- entry points
@contextlib.contextmanager
def watching(fn, args, kwargs):
    """Record what ``fn(*args, **kwargs)`` can reach; on leaving, undo and refuse changes."""
    session = Session(fn, args, kwargs)
    token = _ACTIVE.set(session)
    try:
        yield session
    except BaseException as e:
        _ACTIVE.reset(token)
        if isinstance(e, Exception):
            session.finish(e)
        else:       # Ctrl-C and exits stay what they are; the state is still put back
            session.put_back()
        raise
    _ACTIVE.reset(token)
    session.finish()


# The array of an augmented item assignment under way (``out[i] -= v``: Python reads
# ``out[i]``, updates it in place, and assigns it back), for ``augmented_read``.
_AUGMENTED = contextvars.ContextVar("nptf_augmented_item", default=None)


def augmented_read(obj):
    """Whether this read of ``obj[...]`` is the first step of an augmented item assignment
    (its value is assigned back into ``obj``); the mark is used once."""
    if _AUGMENTED.get() is None:
        return False
    found = _AUGMENTED.get() is obj
    _AUGMENTED.set(None)
    return found


def recv(obj, text, where, kind, attr=None):
    """``obj``, about to be written through at ``where`` (inserted by the converter)."""
    if type(obj) is np.ndarray and obj.dtype.kind in "US" and kind == "call" and \
            attr in _ARRAY_WRITERS and _ACTIVE.get() is not None:
        # Text is NumPy's own array while tracing (``uniq.sort()``): a write under a
        # traced `if` would change it on both paths.
        raise UnsupportedError(f"writing into an array of text ({text}.{attr}()) is not "
                               f"supported by nptf. Build new text instead, or let the "
                               f"function run with NumPy.\n  at {where}")
    _AUGMENTED.set(obj if kind == "augitem" and isinstance(obj, Tracer) else None)
    session = _ACTIVE.get()
    if session is not None:
        session.site(obj, text, where, kind, attr)
    return obj


def add_namespace(space, code, module):
    session = _ACTIVE.get()
    if session is not None:
        session.add_namespace(space, code, module)


__all__ = ["SideEffectError", "Snapshot", "watching", "recv", "augmented_read", "MUTATING_METHODS"]
