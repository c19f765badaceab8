"""Python sets of traced numbers: ``len(set(x))``, ``sorted(set(labels))``.

A set's members are Python values, each kept once by ``==`` (``1``, ``1.0`` and
``True`` are one member; two NaNs are two, as NaN equals nothing). Of traced numbers
only the data know which are equal, so ``set(...)`` in converted code makes a
``TracedSet``: how many members it has is a traced Python int, and ``sorted()`` of a
set of integers or bools is the list of its distinct values, ascending. The operators
``-``, ``|``, ``&`` and ``^`` between sets of integers or bools (traced ones, or Python
sets of Python ints) make a ``TracedSet`` again. A set's own iteration order (its hash
order) and everything else a set does are refused, so the call runs with NumPy.
"""
from __future__ import annotations

import builtins
import numbers

import numpy as np

from ..errors import unsupported, user_location
from . import numpy_api as api
from .python_lists import ComputedList, ListTracer
from .tracer import Tracer, emit, python_type_of, to_tracer

_FIX = ("nptf knows a set of traced numbers only by its size (len) and, for integers, "
        "its sorted values (sorted); use np.unique(x) for the distinct values as an array.")


class TracedSet:
    """``set(items)`` of traced numbers: ``values``, a 1-d traced array of the items in
    the order added; ``element``, the members' Python type where they are Python numbers
    (None for NumPy scalars)."""

    __slots__ = ("values", "element")

    def __init__(self, values, element):
        self.values = values
        self.element = element

    def size(self):
        """The number of members, a traced Python int."""
        values = self.values
        if values.dtype.kind not in "fc":
            return _count(np.unique(values))
        nan = np.isnan(values)
        distinct = _count(np.unique(values[np.logical_not(nan)]))
        return emit("convert", [distinct + np.count_nonzero(nan)],
                    {"dtype": np.dtype(np.intp), "weak": True}, scalar=True)

    def sorted_values(self, reverse):
        """``sorted(s)``: the distinct values, ascending (a list of run-time length)."""
        if self.values.dtype.kind not in "biu":
            # Python orders NaN and places one of 0.0 and -0.0 by insertion: refused.
            raise _refused("sorted() of a set of floats")
        values = np.unique(self.values)
        if reverse:
            values = values[::-1]
        return ComputedList(values.atom, element=self.element)

    def __len__(self):
        raise _refused("len() outside the compiled function's own code")

    def __iter__(self):
        raise _refused("iterating a set (in its hash order)")

    def __contains__(self, value):
        raise _refused("`in`")

    def __getattr__(self, name):
        if name.startswith("__"):       # a protocol probed (NumPy's, copy's): not a set's
            raise AttributeError(name)
        raise _refused(f"set.{name}")

    def __bool__(self):
        raise _refused("the truth of a set")

    def __eq__(self, other):
        raise _refused("comparing sets")

    __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __eq__
    __hash__ = None

    def __sub__(self, other):
        return _algebra("-", self, other)

    def __rsub__(self, other):
        return _algebra("-", other, self)

    def __or__(self, other):
        return _algebra("|", self, other)

    def __ror__(self, other):
        return _algebra("|", other, self)

    def __and__(self, other):
        return _algebra("&", self, other)

    def __rand__(self, other):
        return _algebra("&", other, self)

    def __xor__(self, other):
        return _algebra("^", self, other)

    def __rxor__(self, other):
        return _algebra("^", other, self)

    def __repr__(self):
        return f"TracedSet({self.values!r})"


def _as_traced_set(s):
    """A set operand as a ``TracedSet`` of integers or bools; None for an empty Python
    set. A Python set of other members (floats, whose NaNs are members by identity, or
    mixed types) is refused."""
    if isinstance(s, TracedSet):
        if s.values.dtype.kind not in "biu":
            raise _refused("set operators on a set of floats or complex numbers")
        return s
    kinds = {type(v) for v in s}
    if not kinds:
        return None
    if len(kinds) != 1 or not kinds <= {int, bool}:
        raise _refused("set operators between a set of traced numbers and a Python set of "
                       "other than Python ints or bools")
    (kind,) = kinds
    try:
        values = np.array(builtins.sorted(s), dtype=np.int64 if kind is int else bool)
    except OverflowError:
        raise _refused("set operators with Python ints past int64") from None
    return TracedSet(to_tracer(values), kind)


def _algebra(op, left, right):
    """``left op right`` for sets, one of them traced: a ``TracedSet`` whose values are
    the members each operator keeps (repeats are allowed; len and sorted count each
    value once)."""
    if not isinstance(left, (TracedSet, set, frozenset)) or \
            not isinstance(right, (TracedSet, set, frozenset)):
        return NotImplemented
    a, b = _as_traced_set(left), _as_traced_set(right)
    if a is None or b is None:
        # An empty Python set: the other set, or nothing.
        keep = a if b is None else b
        if op == "&" or (op == "-" and a is None) or keep is None:
            return builtins.set()
        return keep
    if np.result_type(a.values.dtype, b.values.dtype).kind not in "biu":
        raise _refused("set operators between signed and unsigned 64-bit integers")
    if op == "-":
        # The members are the left set's, of its type.
        return TracedSet(a.values[np.isin(a.values, b.values, invert=True)], a.element)
    if a.element is not b.element or a.values.dtype != b.values.dtype:
        # Which of two equal members Python keeps depends on the sets' sizes and order.
        raise _refused(f"`{op}` of sets whose members are of different types")
    if op == "|":
        values = np.concatenate([a.values, b.values])
    elif op == "&":
        values = a.values[np.isin(a.values, b.values)]
    else:
        values = np.concatenate([a.values[np.isin(a.values, b.values, invert=True)],
                                 b.values[np.isin(b.values, a.values, invert=True)]])
    return TracedSet(values, a.element)


def _count(values):
    return emit("dim", [values], {"axis": 0})


def _refused(what):
    return unsupported(f"{what} on a set of traced numbers", fix=_FIX)


def traced_set(*args, **kwargs):
    """Python's ``set(...)`` in converted code: a ``TracedSet`` of traced numbers (a
    1-d traced array, a list of numbers the data grow, or a list holding traced
    numbers of one dtype); the builtin for everything else."""
    if len(args) != 1 or kwargs:
        return builtins.set(*args, **kwargs)
    items = args[0]
    if isinstance(items, ComputedList):
        rows = Tracer(items.atom)
        return TracedSet(rows, items.element) if rows.ndim == 1 else builtins.set(items)
    if isinstance(items, Tracer) and not isinstance(items, ListTracer):
        if items.ndim != 1 or items.dtype.kind not in "biufc":
            return builtins.set(items)
        return TracedSet(items, None)
    if type(items) not in (list, tuple):
        items = list(items) if not isinstance(items, (set, frozenset, dict, str, bytes)) \
            else items
        if type(items) is not list:
            return builtins.set(items)
    traced = [v for v in items if isinstance(v, Tracer)]
    if not traced:
        return builtins.set(items)
    dtypes = {np.dtype(v.dtype) for v in traced}
    if len(dtypes) > 1 or any(v.ndim for v in traced) or \
            not all(isinstance(v, (Tracer, numbers.Number)) for v in items):
        raise _refused("set() of traced numbers of different dtypes, of arrays, or of other "
                       "objects")
    (dtype,) = dtypes
    # One dtype for all, in which two members are equal exactly where Python says so.
    common = np.result_type(dtype, *[v for v in items if not isinstance(v, Tracer)])
    if not all(_held_exactly(v, common) for v in items):
        raise _refused("set() of traced numbers and Python numbers that one dtype does not "
                       "hold exactly")
    kinds = {python_type_of(v.dtype) if v.type.weak else None for v in traced} | \
        {type(v) for v in items if not isinstance(v, Tracer)}
    element = kinds.pop() if len(kinds) == 1 else None
    values = api.stack([api.astype(to_tracer(v), common) for v in items])
    if dtype.kind in "iu" and common.kind in "fc" and dtype.itemsize >= 8:
        # 64-bit integers past 2**53 would meet another member in float64.
        exact = api.stack([to_tracer(v) for v in traced])
        back = api.astype(api.astype(exact, common), dtype)
        values = emit("check", [values, np.all(back == exact)], {
            "error": "OutsideTheGraph",
            "message": f"set() at {user_location()} of integers that float64 does not hold "
                       f"exactly, among floats"})
    return TracedSet(values, element)


def _held_exactly(value, dtype):
    if isinstance(value, Tracer):
        return True
    with np.errstate(all="ignore"):
        try:
            return np.asarray(value).astype(dtype).item() == value
        except (OverflowError, TypeError, ValueError):
            return False
