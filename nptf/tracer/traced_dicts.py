"""Python dicts keyed by traced numbers: ``stats[c] = ...`` for ``c`` in ``np.unique(y)``.

Which keys such a dict holds, and so how many, only the data know. A ``TracedDict``
holds its keys as one 1-d traced array, in the order Python inserts them, and its
values as one traced array of rows per leaf of the value (a number, an array, or a dict
or tuple of them, of one structure, shape, dtype and kind for every key). Looking a key
up compares it with every key: ``k in d`` is whether one is equal, ``d[k]`` the row of
the one that is (where none is, the call runs with NumPy, which raises Python's
KeyError), ``d[k] = v`` writes that row or, where none is, appends ``k`` and ``v``.

Python finds a key by ``is`` before ``==``, and a NaN key equals nothing, so a NaN is
found only as the very object inserted: a NaN key runs the call with NumPy. Keys are
equal by value within their dtype (``-0.0`` finds ``0.0``, as in Python, and the key
inserted first stays); a key of another dtype, or a dict whose keys would be of two
Python types, is refused. The dict is a value: converted code rebinds the variable at
every item assignment (``d = dict_setitem(d, k, v, "d")``), so a dict that another
name, a container or a caller also reaches is refused, as the others would not see the
change. The call hands a returned one back as the Python dict NumPy's run makes.

The methods that change a dict (``setdefault``, ``pop``, ``update``, ...) give the dict
after the call, which converted code rebinds the variable to, and their result
(``dict_call``). A ``Counter`` is such a dict whose missing keys read as 0. An array
value written in place (``d[k] += v``, ``d[k][i] = v``) is a copy of the row stored back,
which is Python's answer only where no other name reaches the dict's array: ``Identity``
keeps what may.
"""
from __future__ import annotations

import collections
import collections.abc
import operator
import sys

import numpy as np

from .. import tree
from ..errors import in_user_code, unsupported, user_location
from . import numpy_api as api
from .builder import current_builder
from .growing_lists import GrowingList, element_of_kind, item_from_row, item_of, row_of
from .holders import held_elsewhere
from .numpy_sorting import argsort_along, take
from .python_lists import ComputedList, ListTracer
from .views import mark_ambiguous
from .tracer import (GRAPH_LOOPS, KIND_ARRAY, KIND_NONE, KIND_PYTHON, KIND_SCALAR, PYTHON_TYPES,
                     Tracer, dim_of, emit, python_kind, python_type_of, to_tracer)

NOUN = "a dict keyed by traced values"
_FIX = ("nptf keeps a dict keyed by values only the data know as an array of its keys "
        "and arrays of its values; use keys of one dtype (np.unique(y) or the items of one "
        "array), values of one shape, dtype and kind, and the dict in one variable, or let "
        "the function run with NumPy (fallback='numpy', the default).")


def _refused(what):
    return unsupported(f"{what}, on {NOUN}", fix=_FIX)


class Identity:
    """The dict object a ``TracedDict`` stands for, through every rebinding of it, with
    what decides whether its arrays may be written in place (``d[k] += v``,
    ``d[k][i] = v``): ``shared`` says why an array of its values may be reachable other
    than through the dict (read from it, or stored while a variable held it; None where
    none is), ``written_in`` the graph loops (``GRAPH_LOOPS``) whose bodies wrote one in
    place: an array read in such a body would show a later iteration's write."""

    __slots__ = ("shared", "written_in")

    def __init__(self):
        self.shared, self.written_in = None, frozenset()


class DictSpec:
    """What a traced dict holds, known when tracing: ``key``, (dtype, kind) of its keys
    (kind: a Python type, or "scalar" for NumPy scalars); ``value_def``, the structure
    of a value (a ``tree`` TreeDef); ``items``, each leaf's ``item_of``; ``identity``,
    the dict object it stands for (the same through every rebinding of one dict);
    ``factory``, a ``collections.defaultdict``'s default factory (None for a dict). An
    empty dict that no key typed yet has ``key`` None."""

    __slots__ = ("key", "value_def", "items", "identity", "factory")

    def __init__(self, key, value_def, items, identity, factory=None):
        self.key, self.value_def, self.items, self.identity = key, value_def, items, identity
        self.factory = factory

    def typed(self):
        return self.key is not None

    def _facts(self):
        return (self.key, self.value_def, self.items, self.factory)

    def __eq__(self, other):
        return isinstance(other, DictSpec) and self.identity is other.identity and \
            self._facts() == other._facts()

    def __hash__(self):
        return hash((id(self.identity),) + self._facts())

    def __repr__(self):
        return f"DictSpec({self.key}, {self.value_def}, {self.items})"

    def nptf_rebuilt(self, children):
        """The dict from its keys and rows: a ``TracedDict`` while tracing, the Python
        dict NumPy's run makes when the call hands it back."""
        if current_builder() is not None or not all(isinstance(c, np.ndarray)
                                                     for c in children):
            return TracedDict(self, *(children[:1] or [None]), list(children[1:]))
        out = {} if self.factory is None else collections.Counter() \
            if self.factory is collections.Counter else collections.defaultdict(self.factory)
        if not self.typed():
            return out
        keys, rows = children[0], children[1:]
        for j in range(len(keys)):
            leaves = [_python_item(r[j], item[2]) for r, item in zip(rows, self.items)]
            out[_python_item(keys[j], self.key[1])] = tree.unflatten(self.value_def, leaves)
        return out


def _settled(value):
    """A value that may be None (``d.get(k)`` where the key may be missing, and what
    operators make of it) but is otherwise of one kind, as a value of that kind: stored,
    it is checked when the graph runs not to be None (``Tracer.atom``)."""
    if not isinstance(value, Tracer) or value.kind_flag is None or not value.kinds or \
            KIND_NONE not in value.kinds or len(value.kinds - {KIND_NONE}) != 1:
        return value
    (kind,) = value.kinds - {KIND_NONE}
    if kind == KIND_ARRAY:
        return Tracer(value.atom)
    if kind == KIND_SCALAR:
        return Tracer(value.atom, is_scalar=True)
    if kind >= KIND_PYTHON:
        return element_of_kind(Tracer(value.atom, is_scalar=True),
                               PYTHON_TYPES[kind - KIND_PYTHON])
    return value


def _number_kind(kind):
    return "python" if isinstance(kind, type) else kind


def _kind_code(kind):
    return python_kind(kind) if isinstance(kind, type) else KIND_SCALAR


def _immutable_nodes(treedef):
    return treedef.kind in ("leaf", "tuple", "namedtuple", "dict") and \
        all(_immutable_nodes(c) for c in treedef.children)


def _read_only(value):
    """A value read from the dict, each dict in it one that refuses changes."""
    if type(value) is dict:
        return ReadOnlyDict({k: _read_only(v) for k, v in value.items()})
    if type(value) is tuple:
        return tuple(_read_only(v) for v in value)
    return value


def _own(x):
    return Tracer(x.atom) if isinstance(x, Tracer) and x._view is not None else x


def _python_item(value, kind):
    if isinstance(kind, type):
        return kind(np.asarray(value).item())
    if kind == "array":
        return np.array(value)
    return np.asarray(value)[()]


class TracedDict:
    """A dict keyed by traced numbers (see the module)."""

    __slots__ = ("spec", "keys_", "rows", "found_at")

    def __init__(self, spec, keys_, rows):
        self.found_at = None
        # Values of their own, not views: a view reads its base when used, which may be
        # after the branch or loop body that made it has closed.
        self.spec, self.keys_, self.rows = spec, _own(keys_), [_own(r) for r in rows]

    @property
    def __class__(self):
        """What the user's code sees as its class (``isinstance(d, dict)``): the dict's
        (or ``defaultdict``'s); nptf's own code sees the ``TracedDict``."""
        if not in_user_code(sys._getframe(1).f_code.co_filename):
            return type(self)
        return python_class_of(self)

    # ------------------------------------------------------------- tree
    def nptf_children(self):
        return (self.keys_, *self.rows) if self.spec.typed() else ()

    def nptf_spec(self):
        return self.spec

    # ----------------------------------------------------------- lookup
    def size(self):
        """``len(d)``: a Python int, traced where the data decide it."""
        if not self.spec.typed():
            return 0
        n = self.keys_.shape[0]
        return n if n is not None else emit("dim", [self.keys_], {"axis": 0})

    def _key(self, key, inserting):
        """``key`` as an element of the keys' array, or an error where Python's equality
        of keys would not be the array's (another dtype, a key of another type)."""
        if isinstance(key, Tracer) and not isinstance(key, ListTracer):
            if key.ndim or key.kind_flag is not None or key.dtype.kind not in "biuf" or \
                    not (key.is_scalar or key.type.weak):
                raise _refused("a key that is an array, or a Python number or NumPy scalar "
                               "as the data choose")
            kind = python_type_of(key.dtype) if key.type.weak else "scalar"
            found = (np.dtype(key.dtype), kind)
        elif type(key) in (bool, int, float):
            found = (np.asarray(key).dtype, type(key))
        elif isinstance(key, np.generic) and key.dtype.kind in "biuf":
            found = (key.dtype, "scalar")
        else:
            raise _refused(f"a key of type {type(key).__name__}")
        if found[0].kind not in "biuf":
            raise _refused("a Python int key past int64")
        if self.spec.typed():
            dtype, kind = self.spec.key
            if found[0] != dtype and not (type(key) in (bool, int, float) and
                                          _held_exactly(key, dtype)):
                raise _refused(f"a key of dtype {found[0]} where the keys are {dtype}")
            if inserting and found[1] != kind:
                raise _refused("a key of another type than the keys before it (a Python "
                               "number among NumPy scalars, or the other way round)")
        else:
            dtype = found[0]
        k = api.astype(to_tracer(key), dtype)
        if dtype.kind == "f":
            # A NaN key is found only as the object inserted (by ``is``): not by value.
            k = emit("check", [k, k == k], {
                "error": "OutsideTheGraph",
                "message": f"a NaN key of {NOUN} at {user_location()}, which Python finds "
                           f"only as the very object inserted"})
        return k, found

    def _find(self, k):
        """(whether a key equals ``k``, the position of the one that does or the length)."""
        n = self.size()
        if isinstance(n, int) and n == 0:
            return False, 0
        # The first equal key's position, or the length where none is equal.
        hit = api.concatenate([self.keys_ == k, api.asarray(np.bool_(True))[None]])
        pos = api.astype(np.argmax(hit), np.int64)
        return pos < n, pos

    def __contains__(self, key):
        raise _refused("`in` outside the compiled function's own code")

    def contains(self, key):
        """``key in d``: a bool the data decide."""
        if not self.spec.typed():
            return False
        found, _ = self._find(self._key(key, False)[0])
        if found is False:
            return False
        return emit("convert", [found], {"dtype": np.dtype(bool), "weak": True}, scalar=True)

    def __getitem__(self, key):
        if self.spec.factory is collections.Counter:
            # A Counter reads a missing key as 0 and does not insert it.
            return self.get(key, 0)
        missing = "Python raises KeyError" if self.spec.factory is None else \
            "a defaultdict inserts it"
        if not self.spec.typed():
            self._key(key, False)
            self._missing(key, missing)
        found, pos = self._find(self._key(key, False)[0])
        if found is False:
            self._missing(key, missing)
        return self._value_at(self._present(pos, found, missing))

    def _present(self, pos, found, missing="Python raises KeyError"):
        """``pos``, checked when the graph runs to be that of a key the dict holds."""
        return emit("check", [pos, found], {
            "error": "OutsideTheGraph",
            "message": f"a key not in {NOUN} at {user_location()} ({missing})"})

    def _missing(self, key, missing):
        if self.spec.factory is None:
            raise KeyError(key)
        raise _refused(f"reading a key a defaultdict does not hold ({missing}) other than "
                       f"in `d[k] += v`")

    def _default(self):
        factory = self.spec.factory
        return 0 if factory is collections.Counter else factory()

    def item_or_default(self, key):
        """``d[key]`` read by ``d[key] += v``: of a defaultdict (or Counter), the default
        factory's value where the key is missing (the assignment then inserts the key).
        An array value is the dict's own in Python, which ``+=`` writes into: here a copy
        of it, which the assignment stores back, where no other name can reach it."""
        if any(item[2] == "array" for item in self.spec.items):
            self._writable("`d[k] += v`")
            factory = self.spec.factory
            if factory is None:
                if not self.spec.typed():
                    self._key(key, False)
                    raise KeyError(key)
                found, pos = self._find(self._key(key, False)[0])
                if found is False:
                    raise KeyError(key)
                value = self._value_at(self._present(pos, found), note=False)
            else:
                value = self._get_own(key, self._default())
            return _own(api.copy_(value)) if isinstance(value, Tracer) else value
        if self.spec.factory is None:
            return self[key]
        return self.get(key, self._default())

    def _writable(self, what):
        identity = self.spec.identity
        if identity.shared is not None:
            raise _refused(f"{what} where the values are arrays and {identity.shared} (in "
                           f"Python {what} writes into the dict's own array, which that "
                           f"name would show)")
        identity.written_in = identity.written_in | set(GRAPH_LOOPS.get())

    def get(self, key, default=None):
        """``d.get(key, default)``: the value, or ``default`` where the data hold no such
        key; ``default`` must be a value of the kind the dict holds, or None (then the
        value may be None, as the data choose)."""
        return self._get_own(key, default, note=True)

    def _get_own(self, key, default, note=False):
        if not self.spec.typed():
            self._key(key, False)
            return default
        found, pos = self._find(self._key(key, False)[0])
        if found is False:
            return default
        if default is None:
            return self._value_or_none(found, pos)
        leaves, value_def = tree.flatten(default)
        items = tuple(item_of(v) for v in leaves)
        if value_def == tree.LEAF == self.spec.value_def and items[0] is not None and \
                items[0] != self.spec.items[0] and items[0][:2] == self.spec.items[0][:2] and \
                items[0][0] == () and {_number_kind(items[0][2]), _number_kind(
                    self.spec.items[0][2])} == {"python", "scalar"}:
            return self._flagged_get(found, pos, leaves[0], items[0])
        if value_def != self.spec.value_def or items != self.spec.items:
            raise _refused("d.get(key, default) with a default of another kind, shape or "
                           "dtype than the values (where the key is missing, the value "
                           "would be of another kind)")
        rows = [api.concatenate([r, api.expand_dims(row_of(v, item), 0)])
                for r, v, item in zip(self.rows, leaves, items)]
        return self._value_at(pos, rows, note=note)

    def _value_or_none(self, found, pos):
        """``d.get(key)``, ``d.pop(key, None)``: the value where the key is there, None
        where it is not, as the data choose (see ``maybe_none``): ``v is None`` follows
        the data, and any other use of it is checked when the graph runs."""
        if self.spec.value_def != tree.LEAF or self.spec.items[0][0] is None or \
                None in self.spec.items[0][0]:
            raise _refused("d.get(key) without a default, or d.pop(key, None), where the "
                           "values are containers (give a default of the values' kind)")
        item = self.spec.items[0]
        zero = api.zeros((1,) + tuple(item[0]), item[1])
        rows = api.concatenate([self.rows[0], zero])
        value = self._value_at(pos, [rows])
        kind = KIND_ARRAY if item[2] == "array" else _kind_code(item[2])
        out = Tracer(to_tracer(value).atom, is_scalar=item[2] != "array")
        out.kind_flag = np.where(found, np.int8(kind), np.int8(KIND_NONE)).atom
        out.kinds = frozenset({kind, KIND_NONE})
        return out

    def _flagged_get(self, found, pos, default, item):
        """``d.get(key, default)`` where the values are NumPy scalars and the default a
        Python number of their dtype, or the other way round: the number, and which of
        the two it is as the data choose (its kind flag)."""
        mine = self.spec.items[0]
        rows = api.concatenate([self.rows[0], api.expand_dims(row_of(default, mine), 0)])
        kinds = [_kind_code(k) for k in (mine[2], item[2])]
        out = Tracer(api.copy_(rows[pos]).atom, is_scalar=True)
        out.kind_flag = np.where(found, np.int8(kinds[0]), np.int8(kinds[1])).atom
        out.kinds = frozenset(kinds)
        return out

    def _value_at(self, pos, rows=None, note=True):
        leaves = []
        for r, item in zip(self.rows if rows is None else rows, self.spec.items):
            value = item_from_row(r[pos], item[2])
            if item[2] == "array" and note:
                self._shared("an array read from it may still be held")
            if item[2] == "array":
                # In Python the value is the dict's own array: a write into it would
                # change the dict, which holds its values as rows here.
                mark_ambiguous(value, f"a value read from {NOUN}")
            leaves.append(value)
        return _read_only(tree.unflatten(self.spec.value_def, leaves))

    def _shared(self, why):
        identity = self.spec.identity
        if identity.written_in & set(GRAPH_LOOPS.get()):
            # Read in a graph loop whose body writes the dict's arrays in place: a later
            # iteration's write would show in the array read here.
            raise _refused("reading an array value in a loop whose body writes the dict's "
                           "arrays in place (`d[k] += v`)")
        if identity.shared is None:
            identity.shared = why

    # ------------------------------------------------------------ store
    def with_item(self, key, value, replace=True):
        """This dict after ``d[key] = value``: a new ``TracedDict`` of the same dict
        (``replace=False``: after ``d.setdefault(key, value)``, which keeps the value of a
        key there). Its ``found_at`` is (whether the key was there, its position)."""
        k, found_key = self._key(key, True)
        leaves, value_def = tree.flatten(value)
        leaves = [_settled(v) for v in leaves]
        items = tuple(item_of(v) for v in leaves)
        if any(i is None or i[2] == "array" and i[0] == () or type(i[2]) is tuple
               for i in items) or not _immutable_nodes(value_def):
            # A list in a value would be the dict's own in Python, which appends to it
            # would change; a value read here is made anew.
            raise _refused("a value other than numbers, arrays of a known shape, or "
                           "dicts and tuples of them")
        for v, i in zip(leaves, items):
            if i[2] == "array" and isinstance(v, Tracer) and _held_by_user(v):
                self._shared("an array stored in it is also held by a variable")
            if i[2] == "array" and isinstance(v, Tracer):
                # The dict holds that very array in Python: a later write into it would
                # show in the dict, which holds a copy of it as a row here.
                mark_ambiguous(v, f"an array stored in {NOUN}, which keeps a copy of it")
        if not self.spec.typed():
            spec = DictSpec(found_key, value_def, items, self.spec.identity, self.spec.factory)
            return TracedDict(spec, api.expand_dims(k, 0),
                              [api.expand_dims(row_of(v, i), 0) for v, i in zip(leaves, items)])
        if value_def != self.spec.value_def or items != self.spec.items:
            raise _refused("a value of another structure, kind, shape or dtype than the "
                           "values before it")
        new = [api.expand_dims(row_of(v, i), 0) for v, i in zip(leaves, items)]
        found, pos = self._find(k)
        if found is False:
            out = TracedDict(self.spec, api.concatenate([self.keys_, api.expand_dims(k, 0)]),
                             [api.concatenate([r, v]) for r, v in zip(self.rows, new)])
            out.found_at = (False, pos)
            return out
        # Where the key is new it goes last; where it is there, its value is replaced
        # and the key inserted first stays.
        n = api.astype(to_tracer(self.size()), np.int64)
        length = n + 1 - api.astype(found, np.int64)
        keys = api.concatenate([self.keys_, api.expand_dims(k, 0)])[:length]
        rows = []
        for r, v in zip(self.rows, new):
            r = api.copy_(api.concatenate([r, v]))
            if replace:
                r[pos] = v[0]
            rows.append(Tracer(r.atom)[:length])
        out = TracedDict(self.spec, keys, rows)
        out.found_at = (found, pos)
        return out

    def __setitem__(self, key, value):
        raise _refused("an item assignment through another name than the dict's own "
                       "variable (a helper's argument, an item read from a container)")

    # ------------------------------------------------- methods that change it
    # Each gives (the dict after the call, the call's result); converted code rebinds the
    # dict's variable to the first (``dict_call``).
    def changed_by(self, method, args, kwargs, used=True):
        if method == "setdefault" and not kwargs:
            return self._setdefault(*args, used=used)
        run = {"setdefault": self._setdefault, "pop": self._pop, "popitem": self._popitem,
               "update": self._update, "clear": self._clear}.get(method)
        if run is None or (kwargs and method != "update"):
            raise _refused(f"dict.{method}()")
        return run(*args, **kwargs)

    def _setdefault(self, key, default=None, used=True):
        if default is None:
            raise _refused("d.setdefault(key) with None as the value")
        if not self.spec.typed():
            new = self.with_item(key, default)
            return new, new._value_at(0) if used else None
        new = self.with_item(key, default, replace=False)
        found, pos = new.found_at
        # Where the call's result is not used (a statement of its own), nothing is read.
        return new, new._value_at(pos) if used else None

    def _without(self, pos):
        """This dict without the item at ``pos`` (of a key it holds)."""
        n = api.astype(to_tracer(self.size()), np.int64)
        keep = api.arange(n) != pos
        return TracedDict(self.spec, self.keys_[keep], [r[keep] for r in self.rows])

    def _pop(self, key, *default):
        if len(default) > 1:
            raise TypeError(f"pop expected at most 2 arguments, got {1 + len(default)}")
        if not self.spec.typed():
            self._key(key, False)
            if default:
                return self, default[0]
            raise KeyError(key)
        found, pos = self._find(self._key(key, False)[0])
        if found is False:
            if default:
                return self, default[0]
            raise KeyError(key)
        if default:
            value = self._get_own(key, default[0], note=False)
            if not isinstance(found, Tracer):
                return self._without(pos), value
            # Where the key is missing nothing is removed: the dict keeps its length.
            n = api.astype(to_tracer(self.size()), np.int64)
            keep = np.logical_or(api.arange(n) != pos, np.logical_not(found))
            return TracedDict(self.spec, self.keys_[keep], [r[keep] for r in self.rows]), value
        pos = self._present(pos, found)
        return self._without(pos), self._value_at(pos, note=False)

    def _popitem(self):
        n = self.size()
        if isinstance(n, int) and n == 0:
            raise KeyError("popitem(): dictionary is empty")
        last = api.astype(to_tracer(n), np.int64) - 1
        keys, rows = self.keys_, self.rows
        if not isinstance(n, int):
            last = emit("check", [last, last >= 0], {
                "error": "KeyError", "message": "popitem(): dictionary is empty"})
            # The graph computes on where the check fails: a row to read there.
            last = np.maximum(last, 0)
            keys = api.concatenate([keys, api.zeros((1,), keys.dtype)])
            rows = [api.concatenate([r, api.zeros((1,) + r.shape[1:], r.dtype)]) for r in rows]
        key = item_from_row(keys[last], self.spec.key[1])
        value = self._value_at(last, rows, note=False)
        return self._without(last), (key, value)

    def _clear(self):
        if not self.spec.typed():
            return self, None
        return TracedDict(self.spec, self.keys_[:0], [r[:0] for r in self.rows]), None

    def _update(self, *args, **kwargs):
        if len(args) > 1:
            raise TypeError(f"update expected at most 1 argument, got {len(args)}")
        if kwargs:
            raise _refused("d.update(name=value): a string key among keys that are numbers")
        if self.spec.factory is collections.Counter:
            return counter_of(args[0] if args else (), self), None
        new = self
        other = args[0] if args else {}
        if isinstance(other, TracedDict):
            return self._merged(other), None
        if isinstance(other, DictView):
            raise _refused("d.update() by a dict view")
        pairs = other.items() if isinstance(other, collections.abc.Mapping) else other
        if isinstance(pairs, (Tracer, GrowingList)):
            raise _refused("d.update() by pairs the data count")
        for pair in pairs:
            k, v = pair
            new = new.with_item(k, v)
        return new, None

    def _merged(self, other):
        """``d.update(other)`` of another dict keyed by traced values: ``other``'s values
        replace those of equal keys, which keep their places; its other keys follow, in
        its order."""
        if not other.spec.typed():
            return self
        if any(item[2] == "array" for item in other.spec.items):
            # Both dicts hold the same arrays in Python: a write into one's shows in both.
            other._shared("its arrays are also another dict's")
            self._shared("its arrays are also another dict's")
        if not self.spec.typed():
            spec = DictSpec(other.spec.key, other.spec.value_def, other.spec.items,
                            self.spec.identity, self.spec.factory)
            return TracedDict(spec, other.keys_, other.rows)
        if other.spec.key != self.spec.key or other.spec.value_def != self.spec.value_def \
                or other.spec.items != self.spec.items:
            raise _refused("d.update(other) where the other dict's keys or values are of "
                           "another kind, shape or dtype")
        m = api.astype(to_tracer(other.size()), np.int64)
        equal = other.keys_[:, None] == self.keys_[None, :]              # (m, n)
        # For each of this dict's keys, the other's equal key, or m where none is.
        hit = api.concatenate([equal, api.ones_like(self.keys_[None, :], dtype=bool)])
        source = api.astype(np.argmax(hit, axis=0), np.int64)
        replaced = source < m
        fresh = np.logical_not(np.any(equal, axis=1))
        rows = []
        for mine, theirs in zip(self.rows, other.rows):
            padded = api.concatenate([theirs, api.zeros((1,) + theirs.shape[1:], theirs.dtype)])
            picked = take(padded, source, 0)
            where = api.reshape(replaced, (-1,) + (1,) * (mine.ndim - 1))
            rows.append(api.concatenate([np.where(where, picked, mine), theirs[fresh]]))
        return TracedDict(self.spec, api.concatenate([self.keys_, other.keys_[fresh]]), rows)

    def most_common(self, n=None):
        """``Counter.most_common(n)``: a list of (key, count) tuples, the data's length."""
        if self.spec.factory is not collections.Counter:
            raise AttributeError(f"'{python_class_of(self).__name__}' object has no "
                                 f"attribute 'most_common'")
        if not self.spec.typed():
            return []
        listed_ = listed(self.items(), "most_common()")
        counts = self.rows[0]
        # Largest first; equal counts in the order their keys were inserted (Python's
        # sort is stable).
        order = argsort_along(-api.astype(counts, np.int64), 0)
        rows = take(Tracer(listed_.atom), order, 0)
        if n is not None:
            if not isinstance(n, int):
                raise _refused("most_common(n) with n known only when the graph runs")
            rows = rows[:max(n, 0)]
        return listed_.rebuilt(rows.atom)

    # ------------------------------------------------------------ views
    def keys(self):
        return DictView(self, "keys")

    def values(self):
        return DictView(self, "values")

    def items(self):
        return DictView(self, "items")

    def __iter__(self):
        return iter(DictView(self, "keys"))

    def __len__(self):
        n = self.size()
        if isinstance(n, Tracer):
            raise _refused("len() outside the compiled function's own code")
        return n

    def item_at(self, i, what="keys"):
        """The key, value or (key, value) at position ``i`` (an int or a traced int)."""
        key = item_from_row(self.keys_[i], self.spec.key[1])
        if what == "keys":
            return key
        value = self._value_at(i)
        return value if what == "values" else (key, value)

    def __bool__(self):
        n = self.size()
        if isinstance(n, Tracer):
            raise _refused("the truth of the dict outside an `if` or `while` test")
        return n > 0

    def is_nonempty(self):
        n = self.size()
        return n > 0

    def _mutating(name):
        def method(self, *args, **kwargs):
            if name in ("pop", "popitem", "setdefault", "update", "clear", "__delitem__"):
                raise _refused(f"dict.{name}() inside an expression, or through another "
                               f"name than the dict's own variable (call it as a statement "
                               f"of its own: `v = d.pop(k)`, `d.update(e)`)")
            raise _refused(f"dict.{name}()")
        method.__name__ = name
        return method

    for _name in ("pop", "popitem", "setdefault", "update", "clear", "copy", "fromkeys",
                  "__delitem__", "total", "subtract", "elements", "__eq__", "__ne__", "__or__", "__ior__", "__reversed__"):
        locals()[_name] = _mutating(_name)
    del _name, _mutating
    __hash__ = None

    def __getattr__(self, name):
        raise AttributeError(name)

    def __repr__(self):
        return f"TracedDict({self.spec})"


# ``isinstance(d, collections.abc.Mapping)`` asks from the library's own code, which sees
# the ``TracedDict`` itself.
collections.abc.MutableMapping.register(TracedDict)


class DictView:
    """``d.keys()``, ``d.values()`` or ``d.items()`` of a ``TracedDict``: iterated by a
    ``for`` (a graph loop where the data decide the length), or in Python where the
    length is known when tracing."""

    __slots__ = ("dict", "what")

    def __init__(self, d, what):
        self.dict, self.what = d, what

    def length(self):
        return self.dict.size()

    def item_at(self, i):
        return self.dict.item_at(i, self.what)

    def __iter__(self):
        n = self.length()
        if isinstance(n, Tracer):
            raise _refused("iterating the dict in Python where the data decide its length "
                           "(a `for` statement over it compiles)")
        return (self.item_at(i) for i in range(n))

    def __len__(self):
        return len(self.dict)

    def __contains__(self, value):
        raise _refused(f"`in` on dict.{self.what}()")

    def __getattr__(self, name):
        raise AttributeError(name)


class ReadOnlyDict(dict):
    """A dict value read from a ``TracedDict``: in Python it is the dict's own, so a
    change to it would show in the dict; here it is made of rows, so changes are
    refused."""

    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise _refused("changing a dict read from it (in Python the dict holds that very "
                       "dict)")

    __setitem__ = __delitem__ = update = pop = popitem = setdefault = clear = _refuse
    __ior__ = _refuse

    def nptf_children(self):
        return tuple(self.values())

    def nptf_spec(self):
        return _PlainDict(tuple(self.keys()))


class _PlainDict:
    """The tree node of a ``ReadOnlyDict``: a plain dict once handed back."""

    __slots__ = ("keys",)

    def __init__(self, keys):
        self.keys = keys

    def __eq__(self, other):
        return isinstance(other, _PlainDict) and other.keys == self.keys

    def __hash__(self):
        return hash(self.keys)

    def nptf_rebuilt(self, children):
        made = dict(zip(self.keys, children))
        return ReadOnlyDict(made) if current_builder() is not None else made


def listed(x, what=None):
    """``list(d)``, ``list(d.keys())``, ``list(d.values())`` or ``list(d.items())``: a list
    the data grow (``GrowingList``) of the keys, of the values (numbers or arrays), or of
    (key, value) tuples of numbers; ``what`` names the caller in a refusal."""
    view = x if isinstance(x, DictView) else x.keys()
    d, kind = view.dict, view.what
    spec = d.spec
    if not spec.typed():
        return []
    if kind == "keys":
        return GrowingList(d.keys_.atom, ((),) + spec.key, 0)
    if spec.value_def != tree.LEAF:
        raise _refused(f"{what or 'list()'} of the values or items of a dict whose values "
                       f"are containers")
    value_item = spec.items[0]
    if kind == "values":
        if value_item[2] == "array":
            d._shared("a list of its arrays may still be held")
        return GrowingList(d.rows[0].atom, value_item, 0)
    if value_item[0] != () or value_item[2] == "array":
        raise _refused(f"{what or 'list()'} of the items of a dict whose values are arrays")
    key_kind, value_kind = (k if isinstance(k, type) else dt
                            for k, dt in ((spec.key[1], spec.key[0]),
                                          (value_item[2], value_item[1])))
    samples = [k(0) if isinstance(k, type) else np.zeros((), k)[()]
               for k in (key_kind, value_kind)]
    dtype = np.array([samples]).dtype
    columns = [d.keys_, d.rows[0]]
    rows = api.stack([api.astype(c, dtype) for c in columns], axis=1)
    wide = [c for c in columns if c.dtype.kind in "iu" and c.dtype.itemsize >= 8 and
            dtype.kind == "f"]
    if wide:
        exact = api.stack([api.astype(api.astype(c, dtype), c.dtype) == c for c in wide])
        rows = emit("check", [rows, np.all(exact)], {
            "error": "OutsideTheGraph",
            "message": f"the items of {NOUN} as tuples of integers and floats, with an integer "
                       f"past 2**53, which one float64 array does not hold exactly, at "
                       f"{user_location()}"})
    return GrowingList(Tracer(rows.atom).atom, ((2,), dtype, ("tuple", key_kind, value_kind)), 0)


def extremum_key(fn, d, key):
    """``max(d, key=d.get)`` (or ``min``, or ``key=d.__getitem__``): the first key whose
    value is the largest (smallest), as Python's rule gives it, where the values are real
    numbers; None where that is not the call."""
    if isinstance(d, DictView) and d.what == "keys":
        d = d.dict
    owner = getattr(key, "__self__", None)
    if not isinstance(d, TracedDict) or owner is not d or \
            getattr(key, "__name__", None) not in ("get", "__getitem__") or \
            d.spec.value_def != tree.LEAF or d.spec.items[0][0] != () or \
            d.spec.items[0][1].kind not in "biuf":
        return None
    values = d.rows[0]
    n = d.size()
    if isinstance(n, int) and n == 0:
        raise ValueError(f"{fn.__name__}() iterable argument is empty")
    if not isinstance(n, int):
        values = emit("check", [values, n > 0], {
            "error": "ValueError", "message": f"{fn.__name__}() iterable argument is empty"})
    if values.dtype.kind == "f":
        # Python's comparisons with NaN are false: a NaN stays only where it comes first.
        values = emit("check", [values, np.logical_not(np.any(np.isnan(values)))], {
            "error": "OutsideTheGraph",
            "message": f"{fn.__name__}() of the keys of {NOUN} by values with NaN, at "
                       f"{user_location()}"})
    pos = np.argmax(values) if fn.__name__ == "max" else np.argmin(values)
    return d.item_at(api.astype(pos, np.int64))


def sorted_list(x, reverse):
    """``sorted(d)``, ``sorted(d.keys())`` or ``sorted(d.items())``: the keys are distinct
    (a NaN key is refused), so the keys' order is the list's."""
    listed_ = listed(x, "sorted()")
    view = x if isinstance(x, DictView) else x.keys()
    if view.what == "values" or isinstance(listed_, list):
        return None
    rows = Tracer(listed_.atom)
    keys = rows if view.what == "keys" else view.dict.keys_
    order = argsort_along(keys, 0)
    if reverse:
        order = order[::-1]
    return listed_.rebuilt(take(rows, order, 0).atom)


def python_class_of(d):
    """The class of the Python dict a ``TracedDict`` or ``ReadOnlyDict`` stands for."""
    if isinstance(d, TracedDict) and d.spec.factory is collections.Counter:
        return collections.Counter
    if isinstance(d, TracedDict) and d.spec.factory is not None:
        return collections.defaultdict
    return dict


def _held_exactly(value, dtype):
    with np.errstate(all="ignore"):
        try:
            return np.asarray(value).astype(dtype).item() == value
        except (OverflowError, TypeError, ValueError):
            return False


# ------------------------------------------------------- what converted code calls
def keyed_dict(make=None, *args):
    """``{}`` or ``dict()`` that converted code may key by traced values; with ``make``,
    the call ``make(*args)`` that the code wrote, a ``collections.defaultdict`` of a
    default factory (anything else is made as written)."""
    if make is None:
        return TracedDict(DictSpec(None, None, (), Identity()), None, [])
    if make is collections.Counter and not args:
        return TracedDict(DictSpec(None, None, (), Identity(), collections.Counter), None, [])
    if make is collections.Counter and len(args) == 1:
        return counter_of(args[0])
    if make is not collections.defaultdict or len(args) != 1 or not callable(args[0]):
        return make(*args)
    return TracedDict(DictSpec(None, None, (), Identity(), args[0]), None, [])


def counter_of(items, counter=None):
    """``collections.Counter(items)`` (or ``counter.update(items)``) where the items are
    traced numbers: the distinct items in the order they first come, each with its count
    (a Python int); items that are all Python values make a Python Counter."""
    if isinstance(items, collections.abc.Iterator):
        # A generator (``Counter(int(v) for v in codes)``): its items, in order.
        items = list(items)
    if counter is None:
        if not _traced_in(items):
            return collections.Counter(items)
        counter = TracedDict(DictSpec(None, None, (), Identity(), collections.Counter),
                             None, [])
    if isinstance(items, ComputedList) and not isinstance(items, GrowingList) and \
            items.ndim == 1:
        # ``Counter(y[mask].tolist())``: the list's numbers, of its one kind.
        element = object.__getattribute__(items, "element")
        values, kind = Tracer(items.atom), element if element is not None else "scalar"
    elif isinstance(items, (TracedDict, DictView, collections.abc.Mapping)) or \
            isinstance(items, ListTracer) and not isinstance(items, GrowingList):
        raise _refused(f"Counter() of a {type(items).__name__}")
    elif isinstance(items, GrowingList):
        element = object.__getattribute__(items, "item")
        if element[0] != () or not (isinstance(element[2], type) or element[2] == "scalar"):
            raise _refused("Counter() of a list whose items are not numbers of one kind")
        values, kind = Tracer(items.atom), element[2]
    elif isinstance(items, Tracer):
        if items.ndim != 1 or items.kind_flag is not None:
            raise _refused("Counter() of an array that is not 1-d")
        values, kind = items, "scalar"
    elif _numbers_of_one_kind(items):
        # Traced numbers of one Python type or NumPy dtype: counted as the array of them.
        values = api.stack([to_tracer(v) for v in items])
        kind = python_type_of(items[0].dtype) if items[0].type.weak else "scalar"
    else:
        for v in items:
            counter = counter.with_item(v, counter.item_or_default(v) + 1)
        return counter
    if values.dtype.kind not in "biuf":
        raise _refused(f"Counter() of items of dtype {values.dtype}")
    m = api.astype(to_tracer(dim_of(values, 0)), np.int64)
    # Equal items meet in a stable sort, the first of each group its first in the data.
    order = api.astype(argsort_along(values, 0), np.int64)
    ordered = take(values, order, 0)
    # (Of no items, none starts a group.)
    starts = api.concatenate([api.ones((1,), bool), ordered[1:] != ordered[:-1]])[:m]
    begins = api.astype(np.nonzero(starts)[0], np.int64)
    counts = np.diff(api.concatenate([begins, api.reshape(m, (1,))]))
    first = take(order, begins, 0)
    by_first = api.astype(argsort_along(first, 0), np.int64)
    keys = take(values, take(first, by_first, 0), 0)
    counts = take(counts, by_first, 0)
    sample = kind(0) if isinstance(kind, type) else np.zeros((), values.dtype)[()]
    # Each key checked as a key is (no NaN), and typed as the items are.
    key_kind = counter._key(sample, True)[1]
    if values.dtype.kind == "f":
        keys = emit("check", [keys, np.logical_not(np.any(np.isnan(keys)))], {
            "error": "OutsideTheGraph",
            "message": f"a NaN key of {NOUN} at {user_location()}, which Python finds only "
                       f"as the very object inserted"})
    made = TracedDict(DictSpec(key_kind, tree.LEAF, (((), np.dtype(np.int64), int),),
                               counter.spec.identity, collections.Counter), keys, [counts])
    if not counter.spec.typed():
        return made
    if counter.spec.key != made.spec.key or counter.spec.items != made.spec.items:
        raise _refused("Counter.update() by items of another kind than the keys")
    summed = counter._merged(made)
    # Counts add: each of the counter's keys gains its count among the items.
    equal = counter.keys_[:, None] == keys[None, :]
    gained = np.sum(np.where(equal, counts[None, :], 0), axis=1)
    n = counter.size()
    old = summed.rows[0]
    head = api.concatenate([counter.rows[0] + gained, old[n:]])
    return TracedDict(summed.spec, summed.keys_, [head])


def _numbers_of_one_kind(items):
    """Whether ``items`` (a list or tuple) holds traced 0-d numbers only, of one dtype and
    all Python numbers or all NumPy scalars."""
    if not isinstance(items, (list, tuple)) or len(items) < 2 or \
            not all(isinstance(v, Tracer) and v.ndim == 0 and v.kind_flag is None
                    for v in items):
        return False
    first = items[0].type
    return all(v.type.dtype == first.dtype and v.type.weak == first.weak for v in items)


def _traced_in(items):
    if isinstance(items, (Tracer, TracedDict, DictView)):
        return True
    if isinstance(items, (list, tuple)):
        return any(isinstance(v, Tracer) for v in items)
    return False


def _held_by_user(t):
    """Whether a variable of the user's code (or a list, tuple or dict one holds) holds
    the array ``t`` or a view of its memory."""
    buffer = t._view.buffer if t._view is not None else None
    f = sys._getframe(1)
    while f is not None:
        if in_user_code(f.f_code.co_filename):
            pending, seen, budget = list(f.f_locals.values()), set(), 20_000
            while pending and budget > 0:
                v = pending.pop()
                budget -= 1
                if v is t or buffer is not None and isinstance(v, Tracer) and \
                        v._view is not None and v._view.buffer is buffer:
                    return True
                if isinstance(v, (list, tuple, dict)) and id(v) not in seen:
                    seen.add(id(v))
                    pending += list(v.values()) if isinstance(v, dict) else list(v)
            if budget <= 0:
                return True
        f = f.f_back
    return False


_RESULT = []


def dict_call(d, method, name, *args, **kwargs):
    """``name.method(*args, **kwargs)`` in converted code, for a method that changes a
    dict (``setdefault``, ``pop``, ``update``, ...): the dict after the call, which the
    variable is rebound to; ``returned`` then gives the call's result."""
    return _dict_call(d, method, name, args, kwargs, True)


def dict_run(d, method, name, *args, **kwargs):
    """``dict_call`` of a call that is a statement of its own, whose result is unused."""
    return _dict_call(d, method, name, args, kwargs, False)


def _dict_call(d, method, name, args, kwargs, used):
    if not isinstance(d, TracedDict):
        result = getattr(d, method)(*args, **kwargs)
        if used:
            _RESULT.append(result)
        return d
    if _reached_elsewhere(d, name, sys._getframe(2)):
        raise _refused(f"dict.{method}() of `{name}`, which another variable, a container, "
                       f"or the caller (an argument) also holds")
    new, result = d.changed_by(method, args, kwargs, used)
    if used:
        _RESULT.append(result)
    return new


def returned(_):
    """The result of the ``dict_call`` just made."""
    return _RESULT.pop()


def dict_delitem(d, key, name):
    """``del name[key]`` in converted code: the dict after it."""
    if not isinstance(d, TracedDict):
        del d[key]
        return d
    if _reached_elsewhere(d, name, sys._getframe(1)):
        raise _refused(f"`del {name}[k]` where another variable, a container, or the "
                       f"caller (an argument) also holds the dict")
    # A Counter's ``del`` of a missing key does nothing.
    default = (0,) if d.spec.factory is collections.Counter else ()
    return d.changed_by("pop", (key, *default), {}, used=False)[0]


def augmented(old, value, op):
    """``old op= value`` for an item of a dict: an array (a copy of the dict's, see
    ``item_or_default``) is written in place, as NumPy does (its dtype stays); numbers
    are immutable, so their operator gives a new one."""
    if isinstance(old, np.ndarray) or isinstance(old, Tracer) and not old.is_scalar:
        return getattr(operator, "i" + op.rstrip("_"))(old, value)
    return getattr(operator, op)(old, value)


def dict_write_into(d, key, index, value, name, op=None):
    """``name[key][index] = value`` (or ``op=``) in converted code: the dict after it. In
    Python the write goes into the dict's own array; here into a copy of it, which is
    stored back, where no other name can reach that array."""
    if not isinstance(d, TracedDict):
        target = d[key]
        target[index] = value if op is None else augmented(target[index], value, op)
        return d
    if not any(item[2] == "array" for item in d.spec.items) or \
            d.spec.value_def != tree.LEAF:
        raise _refused(f"`{name}[k][i] = v` where the values are not arrays")
    if _reached_elsewhere(d, name, sys._getframe(1)):
        raise _refused(f"an item assignment into `{name}`, which another variable, a "
                       f"container, or the caller (an argument) also holds")
    array = d.item_or_default(key)
    array[index] = value if op is None else augmented(array[index], value, op)
    return d.with_item(key, array)


def dict_item_or_default(d, key):
    """``d[key]`` read by ``d[key] += v`` in converted code (see ``item_or_default``)."""
    return d.item_or_default(key) if isinstance(d, TracedDict) else d[key]


def dict_setitem(d, key, value, name):
    """``name[key] = value`` in converted code: a ``TracedDict`` gives the dict after it,
    which the variable is rebound to; anything else is assigned as Python does."""
    if not isinstance(d, TracedDict):
        d[key] = value
        return d
    if _reached_elsewhere(d, name, sys._getframe(1)):
        raise _refused(f"an item assignment into `{name}`, which another variable, a "
                       f"container, or the caller (an argument) also holds")
    return d.with_item(key, value)


def _reached_elsewhere(d, name, frame):
    """Whether the dict ``d`` of variable ``name`` is an argument of the user's function
    running in (or around) ``frame``, or another variable of it (or a container one
    holds) holds the same dict."""
    identity = d.spec.identity

    def is_it(v):
        return (isinstance(v, TracedDict) and v.spec.identity is identity) or (
            isinstance(v, DictView) and v.dict.spec.identity is identity)
    return held_elsewhere(name, frame, is_it)


def joined(a, b):
    """The ``DictSpec`` of a dict that is ``a`` on one path and ``b`` on another (one of
    them untyped, empty), or None where they differ otherwise."""
    if a == b:
        return a
    if a.identity is not b.identity:
        return None
    if not a.typed():
        return b
    if not b.typed():
        return a
    return None


def empty_of(spec):
    """An empty dict of ``spec``: a stand-in for an untyped one before a loop or `if` that
    types it."""
    shape_of = [(0,) + tuple(item[0]) for item in spec.items]
    return TracedDict(spec, api.empty((0,), spec.key[0]),
                      [api.empty(s, item[1]) for s, item in zip(shape_of, spec.items)])


__all__ = ["TracedDict", "DictSpec", "DictView", "ReadOnlyDict", "keyed_dict", "counter_of",
           "dict_call", "dict_run", "returned", "dict_delitem", "dict_write_into", "augmented",
           "dict_setitem", "dict_item_or_default", "joined", "empty_of", "listed", "extremum_key", "sorted_list", "python_class_of"]
