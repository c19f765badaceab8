"""Python lists of arrays whose lengths the data choose: ragged lists.

``parts.append(X[y == c])`` in a loop over ``np.unique(y)``, then ``np.concatenate(parts)``
(grouping rows by label, collecting the points each iteration finds): each item is an
array whose first axis only the data size, and a compiled loop whose trip count is known
only at run time appends them. Such a list is a ``RaggedList``: its items, arrays of one
dtype and one shape past their first axis, are pieces of one graph array (their
concatenation, ``flat``), beside where each one ends in it (``ends``). A compiled loop
carries it as those two arrays (a tree node, as a dict keyed by traced values is).

``np.concatenate``, ``np.vstack``, ``np.hstack``, ``np.stack`` and ``np.array`` of the list,
``len``, its truth, reading an item, a ``for`` or a comprehension over it and returning it
follow NumPy (``np.stack`` and ``np.array`` of items of different lengths raise NumPy's
ValueError when the graph runs).
The items are copies of the arrays appended: a write into an array after it is appended is
refused (``views.hold``), as it would show in NumPy's list. Other list operations are
refused, so the call runs with NumPy.
"""
from __future__ import annotations


import numpy as np

from ..errors import user_location
from . import numpy_api as api
from .builder import current_builder
from .growing_lists import HELD, checked_position
from .python_lists import RefusedListOperations, list_refusal
from .tracer import Tracer, dim_of, emit, to_tracer
from .views import buffer_of, hold

NOUN = "a list of arrays of lengths known only when the graph runs (a ragged list)"
FIX = ("nptf keeps such a list as one array of its items; join it with np.concatenate "
       "(or np.vstack, np.hstack), read its length or an item, or keep the pieces in one "
       "array and a mask instead.")


def _refused(what):
    return list_refusal(what, NOUN, FIX)


def _array_of(value):
    """``value`` as a traced array, or None for anything that is not an array."""
    if isinstance(value, np.ndarray) and value.dtype.kind in "biufc":
        return to_tracer(value)
    if isinstance(value, Tracer) and not getattr(type(value), "nptf_list", False) and \
            value.choice is None and value.kinds is None and not value.is_scalar and \
            value.ndim >= 1 and not hasattr(value, "element_at"):
        return value
    return None


def ragged_spec(items):
    """The ``RaggedSpec`` of a list holding ``items``, where they are arrays of one dtype
    and one shape past a first axis whose lengths differ or are known only at run time;
    else None."""
    arrays = [_array_of(v) for v in items]
    if not arrays or any(a is None for a in arrays):
        return None
    rest, dtype = tuple(arrays[0].shape[1:]), arrays[0].dtype
    if None in rest or any(tuple(a.shape[1:]) != rest or a.dtype != dtype for a in arrays):
        return None
    if not any(a.shape[0] is None for a in arrays):
        return None         # a list of arrays of lengths the trace knows: Python's own
    return RaggedSpec(rest, dtype)


class RaggedSpec:
    """What a ragged list is, known when tracing: the shape of its items past their first
    axis (``rest``) and their dtype."""

    __slots__ = ("rest", "dtype")

    def __init__(self, rest, dtype):
        self.rest, self.dtype = tuple(rest), np.dtype(dtype)

    def __eq__(self, other):
        return isinstance(other, RaggedSpec) and (self.rest, self.dtype) == \
            (other.rest, other.dtype)

    def __hash__(self):
        return hash((self.rest, self.dtype))

    def __repr__(self):
        return f"RaggedSpec({self.rest}, {self.dtype})"

    def nptf_rebuilt(self, children):
        """The list from its pieces and ends: a ``RaggedList`` while tracing, the Python
        list of arrays NumPy's run makes when the call hands it back."""
        flat, ends = children
        if current_builder() is not None or not isinstance(flat, np.ndarray):
            return RaggedList(self, flat, ends)
        starts = [0] + [int(e) for e in ends[:-1]]
        return [flat[s:int(e)].copy() for s, e in zip(starts, ends)]

    def of_list(self, items):
        """The ragged list of the Python list ``items`` (arrays of this spec)."""
        out = RaggedList(self, api.empty((0,) + self.rest, self.dtype),
                         api.empty((0,), np.int64))
        for v in items:
            out.append(v)
        return out


class RaggedList(RefusedListOperations):
    """A list of arrays of run-time lengths (see the module)."""

    __slots__ = ("spec", "flat", "ends", "home")

    def __init__(self, spec, flat, ends):
        self.spec = spec
        self.flat, self.ends = Tracer(to_tracer(flat).atom), Tracer(to_tracer(ends).atom)
        # The trace this object belongs to: a traced branch would append to it on one
        # path only.
        self.home = current_builder()

    def nptf_children(self):
        return (self.flat, self.ends)

    def nptf_spec(self):
        return self.spec

    # ------------------------------------------------------------ changes
    def append(self, value):
        a = _array_of(value)
        if a is None or a.ndim != 1 + len(self.spec.rest) or \
                tuple(a.shape[1:]) != self.spec.rest or a.dtype != self.spec.dtype:
            raise _refused("list.append() of an item other than an array of the others' "
                           "dtype and shape past the first axis")
        if self.home is not current_builder():
            raise _refused("list.append() inside a traced branch")
        if isinstance(value, Tracer):
            hold(value, HELD)
        self.flat = api.concatenate([self.flat, a])
        end = api.reshape(api.astype(to_tracer(dim_of(self.flat, 0)), np.int64), (1,))
        self.ends = api.concatenate([self.ends, end])

    def extend(self, values):
        if type(values) not in (list, tuple):
            raise _refused(f"list.extend() of a {type(values).__name__}")
        for v in values:
            self.append(v)

    def copy(self):
        """A new list of the same items (``parts.copy()``; each path of a traced `if`
        appends to its own)."""
        return RaggedList(self.spec, self.flat, self.ends)

    # ---------------------------------------------------------- reading
    def count(self):
        """How many items, a traced Python int."""
        return emit("convert", [dim_of(self.ends, 0)],
                    {"dtype": np.dtype(np.int64), "weak": True}, scalar=True)

    def is_nonempty(self):
        """Whether it has items, when the graph runs (``if parts:``)."""
        return dim_of(self.ends, 0) > 0

    def _starts(self):
        return api.concatenate([api.zeros((1,), np.int64), self.ends[:-1]])

    def __getitem__(self, k):
        if isinstance(k, (bool, np.bool_)):
            raise TypeError("list indices must be integers or slices, not bool")
        if type(k) is slice:
            raise _refused("a slice of the list")
        return self.element_at(checked_position(k, dim_of(self.ends, 0),
                                                "list index out of range"))

    def element_at(self, i):
        """Item ``i`` (an int or a traced integer in ``range(len)``): a ``for`` over the
        list reads each."""
        start, stop = self._starts()[i], self.ends[i]
        item = api.copy_(self.flat[start:stop])
        # In NumPy the item is the array appended, which the list holds: a write into it
        # would show there.
        buffer_of(item).unwritable = f"an item of {NOUN}, which nptf keeps as one array"
        return item

    def __len__(self):
        raise _refused("len() outside converted code")

    def __bool__(self):
        raise _refused("its truth outside converted code")

    def __iter__(self):
        raise _refused("iterating over the items")

    def _refusal(self, what):
        return _refused(what)

    def __array__(self, dtype=None, copy=None):
        raise _refused("a NumPy function other than np.concatenate, np.vstack, np.hstack, "
                       "np.stack or np.array")

    # ------------------------------------------------ as NumPy's sequences
    nptf_ragged = True      # ``numpy_api``'s sequence functions take it as below

    def _any(self, verb, error="ValueError", message=None):
        """The pieces, checked to be at least one array when the graph runs (NumPy's
        ValueError otherwise, or ``error``)."""
        return emit("check", [self.flat, dim_of(self.ends, 0) > 0], {
            "error": error,
            "message": (message or f"need at least one array to {verb}") +
                       f"\n  at {user_location()}"})

    def concatenated(self):
        """The items joined along their first axis (``np.concatenate(parts)``)."""
        return self._any("concatenate")

    def stacked(self, verb="stack", message=None, empty=None):
        """The items as the rows of one array (``np.stack``, ``np.array``): of one length
        when the graph runs, NumPy's ValueError (``message``) where they differ; of no
        items, NumPy's ValueError, or (``empty``) a result only NumPy's run gives."""
        flat = self._any(verb) if empty is None else \
            self._any(verb, "OutsideTheGraph", empty)
        lengths = self.ends - self._starts()
        n = dim_of(self.ends, 0)
        # (Of no items, a length 0: the check above reports that, and the graph runs on.)
        first = api.concatenate([lengths, api.zeros((1,), np.int64)])[0]
        same = np.all(lengths == first)
        flat = emit("check", [flat, same], {
            "error": "ValueError",
            "message": (message or "all input arrays must have the same shape") +
                       f"\n  at {user_location()}"})
        return api.reshape(flat, (n, first) + self.spec.rest)

    def array_value(self, dtype=None):
        """``np.array(parts)``: the rows of one array, as NumPy makes of arrays of one
        shape (of different lengths, NumPy's ValueError)."""
        rows = self.stacked("array", "setting an array element with a sequence. The "
                                     "requested array has an inhomogeneous shape after 1 "
                                     "dimensions.",
                            empty=f"np.array() of {NOUN} that is empty on this call, which "
                                  f"NumPy makes a float64 array of shape (0,)")
        return api.astype(rows, dtype) if dtype is not None else rows
