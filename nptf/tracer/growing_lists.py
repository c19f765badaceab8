"""Python lists the function appends to where only the data decide how often.

``spikes.append(t)`` under an `if` on traced values, or in a loop whose trip count is
known only at run time, makes a list whose length the graph knows only when it runs.
Such a list is a ``GrowingList``: its items, all of one shape and dtype, are the rows
of one graph array, and ``append`` adds a row. As a ``ComputedList`` (a list built
over an array of run-time length), NumPy functions take it as that array, as NumPy
does, and ``len``, reading an item and a ``for`` over it read its rows; Python's other
list operations (and returning it) are refused, so the call runs with NumPy.

Only a list the function itself holds in one variable becomes one: a list that is an
argument, or that another variable, container or global also reaches, would not see
the appends.
"""
from __future__ import annotations

import numpy as np

from ..errors import in_user_code, unsupported
from . import numpy_api as api
from .python_lists import ComputedList
from .tracer import Tracer, emit, python_type_of, to_tracer


def item_of(value):
    """What an item is, as a key: (shape, dtype, Python type or "scalar" or "array"), or
    None for a value that cannot be a row (not a number or array, or of a size known
    only at run time)."""
    if isinstance(value, Tracer):
        if None in value.type.shape or getattr(value, "kind_flag", None) is not None or \
                isinstance(value, ComputedList):
            return None
        if value.type.weak:
            return (), np.dtype(python_type_of(value.dtype)), python_type_of(value.dtype)
        kind = "scalar" if value.is_scalar else "array"
        return tuple(value.shape), value.dtype, kind
    if type(value) in (bool, int, float, complex):
        return (), np.asarray(value).dtype, type(value)
    if isinstance(value, np.generic) and value.dtype.kind in "biufc":
        return (), value.dtype, "scalar"
    if isinstance(value, np.ndarray) and value.dtype.kind in "biufc":
        return value.shape, value.dtype, "array"
    if type(value) is tuple and value:
        return _tuple_item(value)
    return None


def _tuple_item(value):
    """A tuple of numbers (``(start, i)``, ``(w, i, j)``) is a row of its list's array, in
    the dtype NumPy gives an array of such tuples; its kind records each number's own
    kind: a Python type, or the dtype of a NumPy scalar."""
    parts = [item_of(v) for v in value]
    if any(p is None or p[0] != () or p[2] == "array" for p in parts):
        return None
    kinds = tuple(k if isinstance(k, type) else d for _, d, k in parts)
    samples = [k(0) if isinstance(k, type) else np.zeros((), k)[()] for k in kinds]
    return (len(value),), np.array([samples]).dtype, ("tuple",) + kinds


def is_tuple_kind(kind):
    return type(kind) is tuple and kind[:1] == ("tuple",)


def row_of(value, item):
    """``value`` as a row of the array of a list's ``item``s."""
    shape, dtype, kind = item
    if not is_tuple_kind(kind):
        return api.reshape(api.astype(to_tracer(value), dtype), shape)
    row = api.stack([api.astype(to_tracer(v), dtype) for v in value])
    wide = [to_tracer(v) for v, k in zip(value, kind[1:])
            if np.dtype(k).kind in "iu" and np.dtype(k).itemsize >= 8 and dtype.kind in "fc"]
    if wide:
        # Read back, an integer must be the one appended: exact in float64 up to 2**53.
        exact = api.stack([api.astype(v, np.int64) for v in wide])
        back = api.astype(api.astype(exact, dtype), np.int64)
        row = emit("check", [row, np.all(back == exact)], {
            "error": "OutsideTheGraph",
            "message": f"{GrowingList.NOUN} holds tuples of integers and floats, and an "
                       f"integer past 2**53, which the list's float64 array does not hold "
                       f"exactly"})
    return row


def element_of_kind(value, kind):
    """A number of a tuple's row as the kind it was appended as."""
    if isinstance(kind, type):
        dtype = np.dtype(kind)
        return emit("convert", [api.astype(value, dtype)], {"dtype": dtype, "weak": True},
                    scalar=True)
    return Tracer(api.astype(value, kind).atom, is_scalar=True)


def can_grow(items):
    """Whether items appended to a list (with the list's items before) can be rows of one
    array: numbers or arrays of one static shape, dtype and kind (0-d arrays excepted:
    an item read back would be a NumPy scalar)."""
    keys = {item_of(v) for v in items}
    if len(keys) != 1 or None in keys:
        return False
    (shape, _, kind), = keys
    return not (kind == "array" and shape == ())


class GrowingList(ComputedList):
    """A list appended to under control flow on traced values (see the module)."""

    __slots__ = ("item", "least", "per_iteration")
    NOUN = "a list appended to under control flow on traced values"
    FIX = ("nptf keeps such a list as one array of its items; pass it to NumPy "
           "(np.array(x)) to use it as an array, or build an array instead (preallocate "
           "with np.empty and a count, or use a boolean mask).")

    def __init__(self, atom, item, least, per_iteration=None):
        shape, dtype, kind = item
        super().__init__(atom, element=kind if isinstance(kind, type) else None)
        self.item = item        # (shape, dtype, kind) of every item
        self.least = least      # the length it has at least (its items before any append)
        # Items a loop's body appends on each of its iterations, whatever the data (None
        # where an `if` on the data decides): with the trip count, the list's length.
        self.per_iteration = per_iteration

    def __getattribute__(self, name):
        if name == "append":
            return object.__getattribute__(self, name)
        return ComputedList.__getattribute__(self, name)

    def append(self, value):
        item = object.__getattribute__(self, "item")
        if item_of(value) != item:
            raise unsupported(f"list.append() of an item of another shape, dtype or kind "
                              f"than the others, on {GrowingList.NOUN}", fix=GrowingList.FIX)
        row = api.expand_dims(row_of(value, item), 0)
        self._atom = api.concatenate([Tracer(self._atom), row]).atom

    def _element(self, i):
        kind = object.__getattribute__(self, "item")[2]
        if not is_tuple_kind(kind):
            return ComputedList._element(self, i)
        row = Tracer(self.atom)[i]
        return tuple(element_of_kind(row[j], k) for j, k in enumerate(kind[1:]))

    def _sliced(self, rows):
        return GrowingList(rows.atom, object.__getattribute__(self, "item"), 0)

    def rebuilt(self, atom):
        """This list with the rows ``atom`` (after control flow merged or carried them)."""
        return GrowingList(atom, object.__getattribute__(self, "item"),
                           object.__getattribute__(self, "least"),
                           object.__getattribute__(self, "per_iteration"))

    def copy_rows(self):
        """A list of the same rows, for one path of an `if` to append to."""
        return self.rebuilt(self._atom)

    def array_value(self, dtype=None):
        """The array NumPy makes of the list. NumPy makes a float64 array of shape (0,) of
        an empty list (of the given dtype, when one is given): where that is not the
        rows' array, an empty list runs the call with NumPy."""
        rows = Tracer(self.atom)
        shape, item_dtype, _ = object.__getattribute__(self, "item")
        if object.__getattribute__(self, "least") > 0 or \
                (shape == () and (dtype is not None or item_dtype == np.float64)):
            return rows
        n = emit("dim", [rows], {"axis": 0})
        return emit("check", [rows, n > 0], {
            "error": "OutsideTheGraph",
            "message": f"{GrowingList.NOUN} is empty on this call, and NumPy makes an array "
                       f"of shape (0,) and dtype float64 of an empty list, where the graph "
                       f"has items of shape {shape} and dtype {item_dtype}"})

    def is_nonempty(self):
        """``bool(list)``: whether it has items, when the graph runs."""
        if object.__getattribute__(self, "least") > 0:
            return True
        return emit("dim", [Tracer(self.atom)], {"axis": 0}) > 0


def grown(items, item, per_iteration=None):
    """A ``GrowingList`` of the Python list ``items`` (as it is before the control flow),
    whose items are ``item`` (an ``item_of``)."""
    shape, dtype, _ = item
    if items:
        rows = api.stack([row_of(v, item) for v in items])
    else:
        rows = api.empty((0,) + shape, dtype)
    return GrowingList(Tracer(rows.atom).atom, item, len(items), per_iteration)


def restored(original, grown_list, trips):
    """After a loop of ``trips`` iterations (known when tracing, no ``break``) whose body
    appended to the Python list ``original`` on every iteration: ``original`` again,
    holding its items (each read from the rows the graph loop carried), so that Python's
    list operations on it work as they would have."""
    least = object.__getattribute__(grown_list, "least")
    per_iteration = object.__getattribute__(grown_list, "per_iteration")
    shape, dtype, kind = object.__getattribute__(grown_list, "item")
    n = least + trips * per_iteration
    # The rows at the length the trip count gives: reading an item is then a slice.
    rows = api.reshape(Tracer(object.__getattribute__(grown_list, "_atom")), (n,) + shape)
    items = []
    for j in range(n):
        row = api.getitem(rows, j)
        if is_tuple_kind(kind):
            items.append(tuple(element_of_kind(api.getitem(row, k), t)
                               for k, t in enumerate(kind[1:])))
        elif isinstance(kind, type):
            items.append(element_of_kind(row, kind))
        else:
            items.append(Tracer(api.copy_(row).atom, is_scalar=kind == "scalar"))
    original[:] = items
    return original


def reachable_elsewhere(obj, name, frame):
    """Whether the list ``obj``, variable ``name`` of the user's function running in (or
    around) ``frame``, is an argument of that function, or is reached from another of
    its variables or from a global: appends to a ``GrowingList`` in its place would not
    show there. The converted code's own functions (loop bodies, branches) pass the
    variable along as an argument; the user's function is the first frame out from
    there that is not one of them."""
    f = frame
    while f is not None:
        code = f.f_code
        if in_user_code(code.co_filename):
            if _reached(obj, name, f.f_locals):
                return True
            if not code.co_name.startswith("__nptf_"):
                n_args = code.co_argcount + code.co_kwonlyargcount + \
                    bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)
                return name in code.co_varnames[:n_args] or \
                    _reached(obj, name, {k: v for k, v in f.f_globals.items()
                                         if type(v) in (list, tuple, dict)})
        f = f.f_back
    return True


def _reached(obj, name, variables):
    seen, pending = set(), [v for k, v in variables.items() if k != name]
    budget = 20_000
    while pending and budget > 0:
        v = pending.pop()
        budget -= 1
        if v is obj:
            return True
        if type(v) in (list, tuple, set) and id(v) not in seen:
            seen.add(id(v))
            pending += list(v)
        elif type(v) is dict and id(v) not in seen:
            seen.add(id(v))
            pending += list(v.values())
    return budget <= 0
