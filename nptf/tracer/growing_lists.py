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

import contextvars
import functools
import operator
import sys

import numpy as np

from ..errors import in_user_code, unsupported, user_location
from . import numpy_api as api
from .builder import current_builder
from .indexing import getitem
from .numpy_sorting import argsort_along, take, take_along
from .python_lists import ComputedList, ListTracer, decline_made, list_refusal
from .views import hold, mark_ambiguous
from .tracer import (KIND_NONE, KIND_PYTHON, KIND_SCALAR, KIND_UNBOUND, PYTHON_TYPES, Tracer,
                     dim_of, emit, python_kind, python_type_of, to_tracer)


def item_of(value, lists=False):
    """What an item is, as a key: (shape, dtype, Python type or "scalar" or "array"), or
    None for a value that cannot be a row (not a number or array, or of a size known
    only at run time). ``lists``: a list of numbers is an item too (one appended to a
    list the data grow; elsewhere a list of lists is a table of its own)."""
    if isinstance(value, Tracer):
        # The type a view had when it was made: its shape and dtype stay, and deriving the
        # view again here could read its base from a graph already closed (the body of a
        # loop that appended it).
        type_ = value._atom.type
        if None in type_.shape or value.choice is not None or isinstance(value, ComputedList):
            return None
        if getattr(value, "kind_flag", None) is not None:
            return _settled_item(value, type_)
        if type_.weak:
            return (), np.dtype(python_type_of(type_.dtype)), python_type_of(type_.dtype)
        kind = "scalar" if value.is_scalar else "array"
        return tuple(type_.shape), type_.dtype, kind
    if type(value) in (bool, int, float, complex):
        return (), np.asarray(value).dtype, type(value)
    if isinstance(value, np.generic) and value.dtype.kind in "biufc":
        return (), value.dtype, "scalar"
    if isinstance(value, np.ndarray) and value.dtype.kind in "biufc":
        return value.shape, value.dtype, "array"
    if (type(value) is tuple or lists and type(value) in (list, RowList)) and value:
        return _tuple_item(value)
    return None


def _settled_item(value, type_):
    """The item of a value that may be None, or not yet assigned, but is otherwise of one
    kind (``segs.append((start, i))`` under ``start is not None``): an item of that kind,
    as its row (``row_of``) reads it through ``Tracer.atom``, which checks when the graph
    runs that it is not None (NumPy then runs the call, which appends a None). None for a
    value of several kinds."""
    kinds = set(value.kinds or ()) - {KIND_NONE, KIND_UNBOUND}
    if len(kinds) != 1 or not (set(value.kinds) & {KIND_NONE, KIND_UNBOUND}):
        return None
    (kind,) = kinds
    if kind >= KIND_PYTHON:
        python = PYTHON_TYPES[kind - KIND_PYTHON]
        return (), np.dtype(python), python
    if type_.ndim == 0 and kind == KIND_SCALAR:
        return (), type_.dtype, "scalar"
    return None


def _tuple_item(value):
    """A tuple of numbers (``(start, i)``, ``(w, i, j)``), or a list of them (``[month,
    interest, balance]``), is a row of its list's array, in the dtype NumPy gives an
    array of such rows; its kind records which it is and each number's own kind: a
    Python type, or the dtype of a NumPy scalar."""
    parts = [item_of(v) for v in value]
    if any(p is None or p[0] != () or p[2] == "array" for p in parts):
        return None
    kinds = tuple(k if isinstance(k, type) else d for _, d, k in parts)
    samples = [k(0) if isinstance(k, type) else np.zeros((), k)[()] for k in kinds]
    return (len(value),), np.array([samples]).dtype, \
        ("tuple" if type(value) is tuple else "list",) + kinds


def is_tuple_kind(kind):
    """Whether ``kind`` is that of tuples (or lists) of numbers (``_tuple_item``)."""
    return type(kind) is tuple and kind[:1] in (("tuple",), ("list",))


class RowList(list):
    """An item read back from a list the data grow whose items are lists of numbers: a
    Python list of them, which nptf keeps as a row of the list's array. Changing it
    would change the item in Python; here it would change a copy: refused."""

    nptf_list = True      # a list to ``tree``: handed back as a plain list

    def _refused(self, *args, **kwargs):
        raise unsupported("changing a list read from a list the data grow (its items are "
                          "rows of one array)",
                          fix="Build a new list (row = list(row); row[0] = v) and store it "
                              "back, or keep the rows as an array.")

    __setitem__ = __delitem__ = __iadd__ = __imul__ = append = extend = insert = pop = \
        remove = clear = sort = reverse = _refused

    @property
    def __class__(self):
        """A list to the user's code (``type(row) is list``); nptf's sees a RowList."""
        if not in_user_code(sys._getframe(1).f_code.co_filename):
            return RowList
        return list


def item_with_parts(kind, parts):
    """The tuple (or ``RowList``) of ``parts`` that an item of a tuple kind is."""
    return RowList(parts) if kind[0] == "list" else tuple(parts)


# Python lists appended as items to lists the data grow, with their items then: the
# rows hold those numbers, so the lists must not change later (``watch_appended``).
APPENDED = contextvars.ContextVar("nptf_appended_lists", default=None)


def watch_appended(value):
    """Note a Python list appended as an item (its row holds its numbers now)."""
    watched = APPENDED.get()
    if type(value) is list and watched is not None:
        watched.append((value, tuple(value)))


def appended_held(values, names):
    """The name of ``values`` (a traced body's variables, by ``names``) that holds a
    Python list appended as an item, itself or in a container; None where none does.
    After a graph loop such a variable would be a list of its own, not the list's item."""
    watched = {id(v) for v, _ in APPENDED.get() or ()}
    if not watched:
        return None

    def holds(value, depth=0):
        if id(value) in watched:
            return True
        if depth < 3 and type(value) in (list, tuple):
            return any(holds(v, depth + 1) for v in value)
        if depth < 3 and type(value) is dict:
            return any(holds(v, depth + 1) for v in value.values())
        return False
    return next((n for v, n in zip(values, names) if holds(v)), None)


def check_appended(watched):
    """Refuse where a list appended as an item changed after (NumPy's list holds the
    list object, which shows the change; the row holds the numbers appended)."""
    for value, items in watched:
        if len(value) != len(items) or any(a is not b for a, b in zip(value, items)):
            raise unsupported("changing a list after appending it to a list the data grow",
                              fix="Append a new list (or a tuple) after the last change.")


def row_of(value, item):
    """``value`` as a row of the array of a list's ``item``s. A list (or a dict) of arrays
    holds the arrays themselves in NumPy, where the row here is a copy: a later write into
    such an array (or into one whose memory it shares) would show in NumPy's item and not
    in the row, so such writes are refused from here on."""
    shape, dtype, kind = item
    if not is_tuple_kind(kind):
        if isinstance(value, Tracer) and value.choice is None and \
                (kind == "array" or shape != ()):
            hold(value, HELD)
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


# Why a write into an array a list holds as an item is refused (``row_of``).
HELD = ("it is an item of a Python list or dict (or shares memory with one), which in "
        "NumPy holds the array itself, where nptf holds a copy")


def element_of_kind(value, kind):
    """A number of a tuple's row as the kind it was appended as."""
    if isinstance(kind, type):
        dtype = np.dtype(kind)
        return emit("convert", [api.astype(value, dtype)], {"dtype": dtype, "weak": True},
                    scalar=True)
    return Tracer(api.astype(value, kind).atom, is_scalar=True)


# The kind of the items of a list that holds Python numbers and NumPy scalars of one dtype
# as the data choose (``tpr = [0.0]``, then ``tpr.append(np.sum(m) / P)`` in a loop):
# NumPy makes the same array of either, but reading one item back would have to know
# which it is.
MIXED = "numbers"


def _number_kind(kind):
    return isinstance(kind, type) or kind in ("scalar", MIXED)


def joined_item(a, b):
    """The item (an ``item_of``) of a list that holds items ``a`` and ``b``, or None."""
    if a == b or a is None or b is None:
        return a if a == b else None
    if a[0] == b[0] == () and a[1] == b[1] and _number_kind(a[2]) and _number_kind(b[2]):
        return (), a[1], MIXED
    if a[:2] == b[:2] and is_rows_kind(a[2]) and is_rows_kind(b[2]):
        # Tables of numbers of one dtype, of Python numbers and NumPy scalars as the data
        # choose (or of several types, where either is).
        return a[0], a[1], (ROWS, SEVERAL if SEVERAL in (a[2][1], b[2][1]) else MIXED)
    return None


# The kind of the numbers of a list whose items a graph loop or branch writes, where they
# are of several Python types (or NumPy scalars beside them) as the data choose (``[0] *
# n``, then ``vals[i] = x[i] / 2``): the list's array is of the dtype NumPy gives an
# array of all of them, and ``kind_rows`` says each one's type. An item read back would
# be of a type the data choose; the list is returned, or made an array, as it is.
SEVERAL = "numbers of several types"

# Whether a write of a number of another type widens a list (see
# ``GrowingList.write_number``); off where the function reads such a list's items after
# the loop (``trace.trace_function`` traces it again), so that Python keeps those lists.
WIDENING = contextvars.ContextVar("nptf_list_widening", default=True)


def several_types_read(what):
    """The error of reading an item of a list of numbers of several types (``what``)."""
    error = _refused_write(f"{what} of a list of numbers of several types as the data "
                           f"choose (a float written into a list of ints, say)")
    error.several_types = True
    return error


def reads_several_types(error):
    """Whether ``error``, or an error it was raised from, is ``several_types_read``'s."""
    seen = set()
    while error is not None and id(error) not in seen:
        if getattr(error, "several_types", False):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def several_item(a, b):
    """The item of a list of numbers (or of a table: rows of numbers) holding items ``a``
    and ``b`` of other dtypes or types, each of its own type (SEVERAL), or None."""
    if a is None or b is None or a[0] != b[0]:
        return None
    if a[0] == () and _written_kind(a[2]) and _written_kind(b[2]):
        return (), np.result_type(a[1], b[1]), SEVERAL
    if is_rows_kind(a[2]) and is_rows_kind(b[2]):
        return a[0], np.result_type(a[1], b[1]), (ROWS, SEVERAL)
    return None


def _written_kind(kind):
    return _number_kind(kind) or kind == SEVERAL


# The kind of the items of a table (a list of lists of numbers of one length, see
# ``list_tables``): (ROWS, the kind of its numbers).
ROWS = "rows"


def is_rows_kind(kind):
    return type(kind) is tuple and kind[:1] == (ROWS,)


def numbers_of_mixed_kinds(item):
    """Whether a list of ``item``s holds numbers (or rows of numbers) whose kinds, Python
    number or NumPy scalar, the data choose (each item's in ``kind_rows``)."""
    kind = item[2][1] if is_rows_kind(item[2]) else item[2]
    return kind in (MIXED, SEVERAL)


def numbers_of_several_types(item):
    """Whether a list of ``item``s holds numbers (or rows of numbers) of several types as
    the data choose (SEVERAL)."""
    return (item[2][1] if is_rows_kind(item[2]) else item[2]) == SEVERAL


def appended_item_of(value, lists=False):
    """``item_of(value)`` of an item appended to a list, where a number that is a Python
    number or a NumPy scalar as the data choose (``t += h``, ``h`` a Python float before
    the loop and a NumPy float64 after its first step) is an item of mixed kind (MIXED):
    of a dtype that both kinds have (float64 for a Python float), so that the list's
    array is NumPy's whichever kind each item is. Such items are not read back one by
    one (the list is refused there), only as the list's array."""
    key = item_of(value, lists)
    if key is None and isinstance(value, Tracer) and value.ndim == 0 and \
            getattr(value, "kind_flag", None) is not None and \
            not isinstance(value, ComputedList):
        dtype = value._atom.type.dtype
        python = python_type_of(dtype)
        if np.dtype(python) == dtype and \
                value.kinds == frozenset({KIND_SCALAR, python_kind(python)}):
            return (), dtype, MIXED
    return key


def common_item(items, lists=False):
    """The item of a list of ``items`` (appended to it, with its items before) whose items
    can be rows of one array: numbers or arrays of one static shape and dtype, of one
    kind, or numbers of one dtype whose kind the data choose (0-d arrays excepted: an item
    read back would be a NumPy scalar). None where they cannot. ``lists``: lists of
    numbers are items (``item_of``)."""
    item = None
    for k, v in enumerate(items):
        key = appended_item_of(v, lists)
        item = key if k == 0 else joined_item(item, key)
        if item is None:
            return None
    if item is None or (item[2] == "array" and item[0] == ()):
        return None
    return item


def can_grow(items, lists=False):
    """Whether a list of ``items`` (its items before a loop or branch, and those it
    appends) can be one array of rows; ``lists``: lists of numbers are items (appended
    ones, see ``item_of``)."""
    return common_item(items, lists) is not None


class GrowingList(ComputedList):
    """A list appended to under control flow on traced values (see the module)."""

    __slots__ = ("item", "least", "per_iteration", "appended_kind", "home", "kind_rows")
    NOUN = "a list appended to under control flow on traced values"
    FIX = ("nptf keeps such a list as one array of its items; pass it to NumPy "
           "(np.array(x)) to use it as an array, or build an array instead (preallocate "
           "with np.empty and a count, or use a boolean mask).")

    def __init__(self, atom, item, least, per_iteration=None, appended_kind=None):
        shape, dtype, kind = item
        super().__init__(atom, element=kind if isinstance(kind, type) else None)
        self.item = item        # (shape, dtype, kind) of every item
        self.least = least      # the length it has at least (its items before any append)
        # Items a loop's body appends on each of its iterations, whatever the data (None
        # where an `if` on the data decides): with the trip count, the list's length.
        self.per_iteration = per_iteration
        # Where the items are Python numbers and NumPy scalars (MIXED) and the loop body
        # appends one kind on every iteration: that kind (the items before the loop have
        # their own), so that the list given back after the loop holds what Python's does.
        self.appended_kind = appended_kind if per_iteration else None
        # The trace this list object belongs to: a traced branch or loop body writes
        # items only into the copy it carries, made in its own trace.
        self.home = current_builder()
        # Of a list of numbers whose items are written (``out[i] = x[i] * 2`` into
        # ``[0.0] * n``): the kind of each item (``KIND_SCALAR`` or a Python number's, an
        # int8 array of the rows' length), so that an item read back is what was written.
        self.kind_rows = None

    # Python's list methods it runs as graph ops on its rows.
    METHODS = frozenset({"append", "extend", "insert", "pop", "reverse", "clear", "sort"})

    def __getattribute__(self, name):
        if name in GrowingList.METHODS:
            if object.__getattribute__(self, "kind_rows") is not None:
                if numbers_of_several_types(object.__getattribute__(self, "item")):
                    raise several_types_read(f"list.{name}()")
                if numbers_of_mixed_kinds(object.__getattribute__(self, "item")):
                    decline_made(self)
                    raise _refused_write(f"list.{name}() on a list of numbers of mixed kinds")
                self.kind_rows = None       # all of one kind: the item says which
            return object.__getattribute__(self, name)
        # The user's frame is the caller's, not this method's.
        return ComputedList.attribute(self, name, sys._getframe(1))

    def _rows(self):
        return Tracer(object.__getattribute__(self, "_atom"))

    def _set_rows(self, rows, least=None):
        """The list now holds ``rows``; ``least``: the length it has at least, where an
        operation took items away (it then no longer grows by a fixed count per loop
        iteration either)."""
        self._atom = rows.atom
        if least is not None:
            self.least = max(least, 0)
            self.per_iteration = self.appended_kind = None

    def _row(self, value, method):
        item = object.__getattribute__(self, "item")
        joined = joined_item(item, appended_item_of(value, lists=True))
        if joined is None:
            decline_made(self)
            raise unsupported(f"list.{method}() of an item of another shape or dtype than the "
                              f"others, on {GrowingList.NOUN}", fix=GrowingList.FIX)
        if joined != item:
            # A Python number among NumPy scalars (or the other way round).
            self.item = joined
            self.element = None
        kind = appended_item_of(value, lists=True)[2]
        if joined[2] == MIXED and (kind == MIXED or
                                   kind != object.__getattribute__(self, "appended_kind")):
            self.appended_kind = None
        return api.expand_dims(row_of(value, joined), 0)

    def append(self, value):
        self._set_rows(api.concatenate([self._rows(), self._row(value, "append")]))
        watch_appended(value)

    def extend(self, values):
        self._set_rows(api.concatenate([self._rows(), self._rows_of(values, "extend")]))

    def _rows_of(self, values, method):
        """The rows of the items of ``values`` (a list, a tuple, a list the graph holds as
        rows, or an array, whose items are its rows), as this list's rows."""
        item = object.__getattribute__(self, "item")
        if isinstance(values, ComputedList) or \
                isinstance(values, Tracer) and not isinstance(values, ListTracer):
            other = _rows_item(values, any_length=True)
            joined = joined_item(item, other)
            if joined is None or is_tuple_kind(joined[2]) and joined != item or \
                    is_rows_kind(joined[2]) or \
                    isinstance(values, GrowingList) and \
                    object.__getattribute__(values, "kind_rows") is not None:
                decline_made(self)
                raise unsupported(f"list.{method}() of a list or an array of other items, "
                                  f"on {GrowingList.NOUN}", fix=GrowingList.FIX)
            if joined != item:
                # NumPy scalars among Python numbers (or the other way round).
                self.item = joined
                self.element = None
            if joined[2] == MIXED and \
                    other[2] != object.__getattribute__(self, "appended_kind"):
                self.appended_kind = None
            return _rows_copied(values, other)
        if type(values) in (list, tuple):
            shape, dtype, _ = item
            rows = [self._row(v, method) for v in values]
            return api.concatenate(rows) if rows else api.empty((0,) + shape, dtype)
        decline_made(self)
        raise unsupported(f"list.{method}() of a {type(values).__name__}, on "
                          f"{GrowingList.NOUN}", fix=GrowingList.FIX)

    def insert(self, index, value):
        rows = self._rows()
        if isinstance(index, Tracer) and index.ndim == 0 and index.dtype.kind in "iu":
            # Python's place for it: from the end where negative, within [0, len].
            n = emit("dim", [rows], {"axis": 0})
            index = api.astype(index, np.int64)
            index = np.where(index < 0, np.maximum(index + n, 0), np.minimum(index, n))
        else:
            index = _static_index(index, "insert")
        self._set_rows(api.concatenate([rows[:index], self._row(value, "insert"),
                                        rows[index:]]))

    def pop(self, index=-1):
        index = _static_index(index, "pop")
        rows, least = self._rows(), object.__getattribute__(self, "least")
        n = emit("dim", [rows], {"axis": 0})
        fits = n > index if index >= 0 else n >= -index
        if index >= 0 and index < least or index < 0 and -index <= least:
            fits = True
        if fits is not True:
            # Python's own error, where the list is too short when the graph runs.
            rows = emit("check", [rows, fits], {
                "error": "IndexError",
                "message": "pop from empty list" if least == 0 and index in (0, -1) else
                           "pop index out of range"})
        value = self._element_of(rows, index)
        rest = [rows[:index]] if index == -1 else [rows[:index], rows[index + 1:]]
        self._set_rows(api.concatenate(rest) if len(rest) > 1 else rest[0], least - 1)
        return value

    def __setitem__(self, index, value):
        """``lst[k] = v`` at a position known when tracing or only when the graph runs,
        with Python's IndexError where it is outside the list; ``v`` must be an item of
        the kind the list holds (a Python int into a list of Python ints, say)."""
        if object.__getattribute__(self, "home") is not current_builder():
            decline_made(self)
            raise _refused_write("an item write inside a traced branch or loop body that "
                                 "does not carry the list")
        item = object.__getattribute__(self, "item")
        kind_rows = object.__getattribute__(self, "kind_rows")
        k = checked_position(index, emit("dim", [self._rows()], {"axis": 0}),
                             "list assignment index out of range")
        if kind_rows is None:
            if item_of(value) != item:
                decline_made(self)
                raise _refused_write("an item write of another kind, shape or dtype than "
                                     "the list's items")
            new = api.copy_(self._rows())
            new[k] = row_of(value, item)
            self._set_rows(Tracer(new.atom))
            return
        self.write_number((k,), value)

    def numbers_kind(self):
        """The kind of the list's numbers (``item_of``'s third part, or MIXED or SEVERAL)."""
        return object.__getattribute__(self, "item")[2]

    def _with_numbers(self, dtype, kind):
        self.item = (object.__getattribute__(self, "item")[0], dtype, kind)
        self.element = kind if isinstance(kind, type) else None

    def write_number(self, at, value):
        """``value`` written as the number at ``at`` (checked positions) of the array of
        this list of numbers, and its kind into ``kind_rows``. A number of another dtype
        or Python type than the list's makes it a list of numbers of several types
        (SEVERAL): the array of the dtype NumPy gives an array of both, where that holds
        every number exactly and NumPy scalars are of that dtype."""
        dtype, kind = object.__getattribute__(self, "item")[1], self.numbers_kind()
        code, own = number_code(value)
        if code is None:
            decline_made(self)
            raise _refused_write("an item write of something other than a number into a "
                                 "list of numbers")
        if own == dtype and kind != SEVERAL:
            written = _static_kind(code, dtype)
            if written != kind:
                self._with_numbers(dtype, MIXED)
        else:
            if not WIDENING.get():
                decline_made(self)
                raise _refused_write("a write of a number of another type than the list's "
                                     "(its items are read after the loop)")
            wide = np.result_type(dtype, own)
            scalars = kind in ("scalar", MIXED) or \
                kind == SEVERAL and _may_be_scalar(object.__getattribute__(self, "kind_rows"))
            if scalars and wide != dtype or _may_be_scalar(code) and own != wide:
                decline_made(self)
                raise _refused_write("a write that makes a list hold NumPy scalars of "
                                     "another dtype than its other numbers")
            if wide != dtype:
                self._set_rows(exactly_as(self._rows(), wide, "the list's numbers"))
            self._with_numbers(wide, SEVERAL)
            dtype = wide
        number = exactly_as(to_tracer(value), dtype, "the number written")
        new = api.copy_(self._rows())
        new[at] = api.astype(number, dtype)
        self._set_rows(Tracer(new.atom))
        kinds = api.copy_(Tracer(object.__getattribute__(self, "kind_rows").atom))
        kinds[at] = code if isinstance(code, int) else Tracer(code)
        self.kind_rows = Tracer(kinds.atom)

    def widened(self, dtype):
        """This list of numbers in an array of ``dtype`` (another path of an `if`, or a
        loop body, wrote a number of another type into it): SEVERAL."""
        shape, _, kind = object.__getattribute__(self, "item")
        out = self.rebuilt(exactly_as(self._rows(), dtype, "the list's numbers").atom)
        out._with_numbers(dtype, (ROWS, SEVERAL) if is_rows_kind(kind) else SEVERAL)
        out.kind_rows = object.__getattribute__(self, "kind_rows")
        return out

    def reverse(self):
        self._set_rows(self._rows()[::-1])

    def clear(self):
        self._set_rows(self._rows()[:0], 0)

    def sort(self, *, key=None, reverse=False):
        """``list.sort()`` of real numbers, in Python's order: stable, and with
        ``reverse=True`` equal items keep their order too (Python reverses, sorts and
        reverses). Where a NaN is among them, whose place Python's comparisons leave to
        where it stands, the call runs with NumPy."""
        shape, dtype, kind = object.__getattribute__(self, "item")
        numbers = shape == () and (isinstance(kind, type) or kind == "scalar")
        if key is not None or dtype.kind not in "iuf" or \
                not (numbers or is_tuple_kind(kind)) or type(reverse) not in (bool, int):
            decline_made(self)
            raise unsupported(f"list.sort() with a key, a reverse known only when the graph "
                              f"runs, or of items other than real numbers of one kind or "
                              f"tuples of them, on {GrowingList.NOUN}", fix=GrowingList.FIX)
        rows = self._rows()
        if reverse:
            rows = rows[::-1]
        if numbers:
            rows = take_along(rows, argsort_along(rows, 0), 0)
        else:
            # Tuples compare by their first numbers, ties by the next: stable sorts from
            # the last number to the first.
            for j in reversed(range(shape[0])):
                rows = take(rows, argsort_along(rows[:, j], 0), 0)
        if reverse:
            rows = rows[::-1]
        if dtype.kind == "f":
            rows = emit("check", [rows, np.logical_not(np.any(np.isnan(rows)))], {
                "error": "OutsideTheGraph", "when_read": True,
                "message": f"list.sort() of a list that holds NaN, which Python orders by "
                           f"where it stands, at {user_location()}"})
        self._set_rows(rows)

    def _element_of(self, rows, i):
        """Item ``i`` of ``rows``, as the kind of value that was appended (the list no
        longer holds it: a new array where items are arrays)."""
        kind = object.__getattribute__(self, "item")[2]
        _refuse_mixed(kind, "list.pop()")
        row = rows[i]
        if is_tuple_kind(kind):
            return item_with_parts(kind, [element_of_kind(row[j], k)
                                          for j, k in enumerate(kind[1:])])
        if isinstance(kind, type):
            return element_of_kind(row, kind)
        return Tracer(api.copy_(row).atom, is_scalar=kind == "scalar")

    def _joined(self, first, second):
        joined = self.rebuilt(self._atom)
        joined._set_rows(api.concatenate([first, second]), object.__getattribute__(self, "least"))
        return joined

    def __add__(self, other):
        """``a + b`` of two lists: a new list of the items of both."""
        if type(other) is not list and not isinstance(other, ComputedList):
            return ComputedList.__add__(self, other)
        return self._joined(self._rows(), self._rows_of(other, "__add__"))

    def __radd__(self, other):
        if type(other) is not list:
            return ComputedList.__radd__(self, other)
        return self._joined(self._rows_of(other, "__add__"), self._rows())

    def __iadd__(self, other):
        """``a += b`` extends the list by the items of a list or a tuple, as Python does;
        of an array or a NumPy number it is NumPy's elementwise sum, as in Python, which
        hands ``list += array`` to the array."""
        if isinstance(other, Tracer) and not isinstance(other, ComputedList) or \
                isinstance(other, (np.ndarray, np.generic)):
            return self.__add__(other)
        if not isinstance(other, (list, tuple, ComputedList)):
            return ComputedList.__iadd__(self, other)
        self.extend(other)
        return self

    def _element(self, i):
        kind = object.__getattribute__(self, "item")[2]
        kind_rows = object.__getattribute__(self, "kind_rows")
        if kind == MIXED and kind_rows is not None:
            return self._flagged(Tracer(self.atom)[i], Tracer(kind_rows.atom)[i])
        _refuse_mixed(kind, "reading an item")
        if not is_tuple_kind(kind):
            return ComputedList._element(self, i)
        row = Tracer(self.atom)[i]
        return item_with_parts(kind, [element_of_kind(row[j], k) for j, k in enumerate(kind[1:])])

    def _flagged(self, row, kind):
        """An item of a list of numbers of mixed kinds: the number, and whether it is a
        Python number or a NumPy scalar (its kind flag; see ``Tracer.kind_flag``)."""
        dtype = object.__getattribute__(self, "item")[1]
        out = Tracer(api.copy_(row).atom, is_scalar=True)
        out.kind_flag = kind.atom
        out.kinds = frozenset({KIND_SCALAR, python_kind(python_type_of(dtype))})
        return out

    def items_of_length(self, n):
        """The items, as Python's list would hold them, where the list holds ``n``."""
        shape, _, kind = object.__getattribute__(self, "item")
        rows = api.reshape(Tracer(self.atom), (n,) + shape)
        kind_rows = object.__getattribute__(self, "kind_rows")
        if kind == MIXED and kind_rows is not None:
            kinds = Tracer(kind_rows.atom)
            return [self._flagged(getitem(rows, j), getitem(kinds, j))
                    for j in range(n)]
        _refuse_mixed(kind, "reading an item")
        return [item_from_row(getitem(rows, j), kind) for j in range(n)]

    def _sliced(self, rows):
        return GrowingList(rows.atom, object.__getattribute__(self, "item"), 0)

    def rebuilt(self, atom):
        """This list with the rows ``atom`` (after control flow merged or carried them)."""
        return type(self)(atom, object.__getattribute__(self, "item"),
                          object.__getattribute__(self, "least"),
                          object.__getattribute__(self, "per_iteration"),
                          object.__getattribute__(self, "appended_kind"))

    def weakest(self, others):
        """This list's facts that hold for ``others`` too (the same list after each path of
        an `if`, or after a loop's body): the least length of all, and a count of items
        per loop iteration only where all agree. None where they hold as they are."""
        def facts(x):
            return tuple(object.__getattribute__(x, k)
                         for k in ("least", "per_iteration", "item", "appended_kind"))

        least, per_iteration, item, appended_kind = before = facts(self)
        lists = [facts(o) for o in others if isinstance(o, GrowingList)]
        least = min([least] + [o[0] for o in lists])
        if any(o[1] != per_iteration for o in lists):
            per_iteration = None
        for o in lists:
            # Only a kind can differ: appends of another shape or dtype are refused.
            joined = joined_item(item, o[2]) or several_item(item, o[2])
            item = item if joined is None else joined
        if any(o[3] != appended_kind for o in lists):
            appended_kind = None
        if (least, per_iteration, item, appended_kind) == before:
            return None
        return type(self)(self._atom, item, least, per_iteration, appended_kind)

    def with_least(self, least):
        return type(self)(self._atom, object.__getattribute__(self, "item"), least,
                          object.__getattribute__(self, "per_iteration"),
                          object.__getattribute__(self, "appended_kind"))

    def copy_rows(self):
        """A list of the same rows, for one path of an `if` to append to."""
        return self.rebuilt(self._atom)

    def array_value(self, dtype=None):
        """The array NumPy makes of the list. NumPy makes a float64 array of shape (0,) of
        an empty list (of the given dtype, when one is given): where that is not the
        rows' array, an empty list runs the call with NumPy."""
        rows = Tracer(self.atom)
        shape, item_dtype, _ = object.__getattribute__(self, "item")
        if numbers_of_several_types(object.__getattribute__(self, "item")):
            rows = self._of_its_dtype(rows)
        if object.__getattribute__(self, "least") > 0 or \
                (shape == () and (dtype is not None or item_dtype == np.float64)):
            return rows
        n = emit("dim", [rows], {"axis": 0})
        return emit("check", [rows, n > 0], {
            "error": "OutsideTheGraph",
            "message": f"{GrowingList.NOUN} is empty on this call, and NumPy makes an array "
                       f"of shape (0,) and dtype float64 of an empty list, where the graph "
                       f"has items of shape {shape} and dtype {item_dtype}"})

    def _of_its_dtype(self, rows):
        """``rows`` of a list of numbers of several types, checked when the graph runs to
        be of the dtype NumPy gives an array of them: that of one of its numbers' types
        (not only of several together: ``[1, np.float32(2)]`` is float64)."""
        dtype = object.__getattribute__(self, "item")[1]
        codes = [c for c in range(KIND_SCALAR, KIND_PYTHON + len(PYTHON_TYPES))
                 if _code_dtype(c, dtype) == dtype]
        kinds = Tracer(object.__getattribute__(self, "kind_rows").atom)
        found = functools.reduce(np.logical_or, [np.any(kinds == c) for c in codes])
        return emit("check", [rows, found], {
            "error": "OutsideTheGraph",
            "message": f"np.array() of a list of numbers of several types, at "
                       f"{user_location()}: on this call none is of the type that makes "
                       f"its array {dtype}"})

    def is_nonempty(self):
        """``bool(list)``: whether it has items, when the graph runs."""
        if object.__getattribute__(self, "least") > 0:
            return True
        n = self.atom.type.shape[0]
        if n is not None:
            # A length this trace knows is the list's (a list empty before an `if` that
            # appends to it): Python's truth, so that `peaks and peaks[-1]` reads no item
            # of an empty list.
            return n > 0
        return emit("dim", [Tracer(self.atom)], {"axis": 0}) > 0


def _rows_item(values, any_length=False):
    """The item of the rows of ``values`` as items of a list (``list(x)``, ``out.extend(x)``):
    of an array whose length is known only at run time (``any_length``: or when tracing),
    a NumPy scalar of a 1-d array and a row of others; of a list of run-time length, its
    items. None for anything else (a value whose items Python's own list operations take
    one by one)."""
    if isinstance(values, GrowingList):
        return object.__getattribute__(values, "item")
    if isinstance(values, ComputedList):
        element = object.__getattribute__(values, "element")
        if element is not None:
            return (), values.dtype, element
    elif isinstance(values, ListTracer) or not isinstance(values, Tracer):
        return None
    if values.ndim == 0 or values.type.shape[0] is not None and not any_length or \
            None in values.shape[1:] or values.choice is not None or values.kinds is not None:
        return None
    return (tuple(values.shape[1:]), values.dtype, "scalar" if values.ndim == 1 else "array")


def _rows_copied(values, item):
    """The rows of ``values`` (``_rows_item``), a new array. The rows of a 2-d (or more)
    array are views of it in NumPy, held by the list: later writes into the array are
    refused, as they would show in the list's items here, where the rows are copies."""
    if item[2] == "array" and not isinstance(values, ComputedList):
        mark_ambiguous(values, "its rows are items of a Python list (list(x), "
                               "out.extend(x)), which in NumPy are views of it")
    return api.copy_(Tracer(values.atom))


def list_of_rows(x):
    """``list(x)`` of an array (or a list) whose length is known only at run time: a list
    the data grow (``GrowingList``) of its rows, which ``append``, ``extend``, ``len``,
    ``sorted`` and NumPy functions take as for any such list. None where ``x`` is not one
    (Python's ``list`` then makes the list)."""
    item = _rows_item(x)
    if item is None or is_tuple_kind(item[2]) or is_rows_kind(item[2]) or \
            item[2] in (MIXED, SEVERAL) or isinstance(x, GrowingList):
        return None
    return GrowingList(_rows_copied(x, item).atom, item, 0)


def extended(lst, values, name, how):
    """``name.extend(values)`` or ``name += values`` in converted code (``how`` says which),
    on a variable the function binds to a list: the list after it, which the variable is
    rebound to. A Python list extended by the rows of an array (or a list) whose length is
    known only at run time becomes a list the data grow of its items and those rows;
    every other extension is Python's own, on the same list."""
    # (``list += array`` is the array's elementwise sum in Python: only lists join.)
    item = _rows_item(values) if type(lst) is list and \
        (how == "extend" or isinstance(values, ComputedList)) else None
    if item is None:
        if how == "+=":
            return operator.iadd(lst, values)
        lst.extend(values)
        return lst
    what = f"`{name}.extend(...)`" if how == "extend" else f"`{name} += ...`"
    if reachable_elsewhere(lst, name, sys._getframe(1)):
        decline_made(lst)
        raise unsupported(f"{what} by an array of a length known only when the graph runs, "
                          f"where the list is also held elsewhere (an argument, another "
                          f"variable or container, a global)",
                          fix="Build the list in one variable of the function, or use the "
                              "arrays themselves (np.concatenate).")
    joined = item
    for v in lst:
        joined = joined_item(joined, appended_item_of(v, lists=True))
        if joined is None:
            break
    if joined is None or is_tuple_kind(joined[2]) or \
            (isinstance(values, GrowingList) and
             object.__getattribute__(values, "kind_rows") is not None):
        decline_made(lst)
        raise _refused_write(f"{what} by an array of a length known only when the graph "
                             f"runs, with items of another kind, shape or dtype than the "
                             f"list's")
    out = grown(lst, joined)
    rows = _rows_copied(values, item)
    out._set_rows(api.concatenate([Tracer(out.atom), rows]))
    return out


def _refuse_mixed(kind, what):
    if kind == SEVERAL:
        raise several_types_read(what)
    if kind == MIXED:
        raise unsupported(f"{what} of {GrowingList.NOUN}, whose items are Python numbers or "
                          f"NumPy scalars as the data choose,",
                          fix="Append values of one kind (float(v), or np.float64(v)), or "
                              "use the list as an array (np.array(x)).")


def number_code(value):
    """The kind code (see ``_kind_code``) of the number ``value`` and its own dtype, or
    (None, None) where it is not a number."""
    if isinstance(value, Tracer):
        if value.ndim or not value.is_scalar and value.kind_flag is None:
            return None, None
        return _kind_code(value, ((), value.dtype, None)), value.dtype
    if type(value) in (bool, int, float, complex) or \
            isinstance(value, np.generic) and value.dtype.kind in "biufc":
        dtype = np.asarray(value).dtype
        return _kind_code(value, ((), dtype, None)), dtype
    return None, None


def _static_kind(code, dtype):
    """The kind (``item_of``'s third part) of a number of ``dtype`` written with kind
    ``code``: MIXED where the data choose."""
    if not isinstance(code, (int, np.integer)):
        return MIXED
    return "scalar" if code == KIND_SCALAR else python_type_of(dtype)


def _code_dtype(code, dtype):
    """The dtype NumPy gives an array of a number of kind ``code`` held in ``dtype``."""
    if code == KIND_SCALAR:
        return dtype
    return np.asarray(PYTHON_TYPES[code - KIND_PYTHON](0)).dtype


def _may_be_scalar(code):
    """Whether a kind code (or an array of them: a list's ``kind_rows``) may say NumPy
    scalar."""
    if isinstance(code, (int, np.integer)):
        return code == KIND_SCALAR
    return True


def exactly_as(x, dtype, what):
    """``x`` in ``dtype``, checked when the graph runs to hold the same numbers where the
    cast may round (int64 into float64 past 2**53)."""
    if x.dtype == dtype:
        return x
    out = api.astype(x, dtype)
    if _holds_exactly(x.dtype, dtype):
        return out
    same = np.all(api.astype(out, x.dtype) == x)
    return emit("check", [out, same], {
        "error": "OutsideTheGraph",
        "message": f"{what} of a list of numbers of several types, as {dtype}, which does "
                   f"not hold them exactly, at {user_location()}"}, scalar=x.is_scalar)


def _holds_exactly(src, dst):
    """Whether ``dst`` holds every number of ``src`` (NumPy's "safe" casts include int64 to
    float64, which rounds past 2**53)."""
    src, dst = np.dtype(src), np.dtype(dst)
    if src.kind in "iu" and dst.kind in "fc":
        return np.finfo(dst).nmant + 1 >= np.iinfo(src).bits - (src.kind == "i")
    return np.can_cast(src, dst, "safe")


def _kind_code(value, item):
    """The kind (``KIND_SCALAR`` or a Python number's; an int8 atom where the data choose)
    of ``value`` as an item of a list of numbers of ``item``'s dtype, or None where it is
    not such a number."""
    shape, dtype, _ = item
    if shape != ():
        return None
    if isinstance(value, Tracer):
        if value.ndim or value.dtype != dtype or not value.is_scalar and \
                value.kind_flag is None:
            return None
        if value.kind_flag is not None:
            python = python_kind(python_type_of(dtype))
            return value.kind_flag if value.kinds <= {KIND_SCALAR, python} else None
        return python_kind(python_type_of(dtype)) if value.type.weak else KIND_SCALAR
    if type(value) in (bool, int, float, complex):
        return python_kind(type(value)) if np.asarray(value).dtype == dtype else None
    if isinstance(value, np.generic) and value.dtype == dtype:
        return KIND_SCALAR
    return None


def item_kinds(items, dtype):
    """The kinds of a Python list's numbers of ``dtype`` (see ``GrowingList.kind_rows``),
    as an int8 array; of a list of lists of numbers (a table), a 2-D array. A traced
    number is of the kind it is traced as: a Python number's where weak, or the one its
    kind flag gives when the graph runs."""
    table = bool(items) and type(items[0]) is list
    codes = [_row_codes(row, dtype) for row in items] if table else _row_codes(items, dtype)
    flat = [c for row in codes for c in row] if table else codes
    if all(isinstance(c, int) for c in flat):
        return to_tracer(np.array(codes, dtype=np.int8))

    def row_array(row):
        return api.stack([to_tracer(np.int8(c)) if isinstance(c, int) else Tracer(c)
                          for c in row])
    return api.stack([row_array(row) for row in codes]) if table else row_array(codes)


def _row_codes(items, dtype):
    codes = [_kind_code(v, ((), dtype, None)) for v in items]
    if None in codes:
        raise _refused_write("a list of numbers of other dtypes")
    return codes


def checked_position(index, n, message):
    """``index`` (an int or a traced integer) as a position in a list of ``n`` items, from
    the end where negative as Python counts, with Python's IndexError (``message``) where
    it is outside the list when the graph runs."""
    if isinstance(index, (bool, np.bool_)) or not (
            isinstance(index, (int, np.integer)) or
            isinstance(index, Tracer) and index.ndim == 0 and index.dtype.kind in "iu"):
        raise _refused_write("an item write or read at a position other than one integer")
    k = api.astype(to_tracer(index), np.int64)
    k = np.where(k < 0, k + n, k)
    inside = (k >= 0) & (k < n)
    return emit("check", [np.where(inside, k, 0), inside], {
        "error": "IndexError", "message": message})


def refused_write(what):
    """The error of a list operation a list carried as one array does not run."""
    return _refused_write(what)


def _refused_write(what):
    return list_refusal(what, GrowingList.NOUN, GrowingList.FIX)


def _static_index(index, method):
    """A position given to a list method: a Python int (or a NumPy integer)."""
    if isinstance(index, (int, np.integer)) and not isinstance(index, bool):
        return int(index)
    if isinstance(index, Tracer) and index.ndim == 0 and index.dtype.kind in "iu":
        raise unsupported(f"list.{method}() at a position known only when the graph runs, "
                          f"on {GrowingList.NOUN}", fix=GrowingList.FIX)
    raise TypeError(f"'{type(index).__name__}' object cannot be interpreted as an integer")


def _rows_are_items(values, item):
    """Whether the rows of the array (or list of rows) ``values`` are items ``item`` of a
    list: NumPy scalars or arrays of the item's shape and dtype."""
    shape, dtype, kind = item
    if kind not in ("scalar", "array") or values.dtype != dtype or \
            tuple(values.shape[1:]) != tuple(shape) or None in values.shape[1:]:
        return False
    return (kind == "scalar") == (values.ndim == 1)


def grown(items, item, per_iteration=None, appended=()):
    """A ``GrowingList`` of the Python list ``items`` (as it is before the control flow),
    whose items are ``item`` (an ``item_of``); ``appended``: the items a loop's body
    appended on one iteration (``per_iteration`` of them)."""
    shape, dtype, _ = item
    if items:
        rows = api.stack([row_of(v, item) for v in items])
    else:
        rows = api.empty((0,) + shape, dtype)
    kinds = {appended_item_of(v, lists=True)[2] for v in appended}
    # Items whose kind the data choose (MIXED) leave the kind of the appended ones unknown.
    return GrowingList(Tracer(rows.atom).atom, item, len(items), per_iteration,
                       kinds.pop() if item[2] == MIXED and len(kinds) == 1 and
                       MIXED not in kinds else None)


def restored(original, grown_list, trips):
    """After a loop of ``trips`` iterations (known when tracing, no ``break``) whose body
    appended to the Python list ``original`` on every iteration: ``original`` again,
    holding its items (each read from the rows the graph loop carried), so that Python's
    list operations on it work as they would have."""
    least = object.__getattribute__(grown_list, "least")
    per_iteration = object.__getattribute__(grown_list, "per_iteration")
    shape, dtype, kind = object.__getattribute__(grown_list, "item")
    n = least + trips * per_iteration
    # The rows at the length the trip count gives: reading an item is then a slice. Where
    # the run holds another count (the loop stopped early because a check in it failed,
    # ``rules_control``), the call runs NumPy; until then the rows are cut or padded to
    # that length, so the graph runs on to report it rather than failing to reshape.
    rows = Tracer(object.__getattribute__(grown_list, "_atom"))
    count = dim_of(rows, 0)
    rows = emit("check", [rows, count == n], {
        "error": "OutsideTheGraph",
        "message": f"{GrowingList.NOUN} holds another number of items than the {trips} "
                   f"iterations of its loop append, as the run found"})
    padded = api.concatenate([rows, api.zeros((1,) + shape, dtype)])
    rows = emit("take", [padded, np.minimum(api.arange(n, dtype=np.intp), count)],
                {"axis": 0})
    rows = api.reshape(rows, (n,) + shape)
    items = []
    for j in range(n):
        row = getitem(rows, j)
        if kind == MIXED:
            # Each item is of the kind it was appended as: the items before the loop their
            # own, the loop's of the one its body appends.
            kind_j = item_of(original[j])[2] if j < least else \
                object.__getattribute__(grown_list, "appended_kind")
            items.append(item_from_row(row, kind_j if isinstance(kind_j, type) else "scalar"))
            continue
        item = item_from_row(row, kind)
        if type(item) is RowList and j < least and type(original[j]) is list:
            # A list the function made before the loop: NumPy's list holds that object,
            # with the numbers the loop left in it.
            original[j][:] = item
            item = original[j]
        elif type(item) is RowList:
            item = list(item)       # a Python list again, the list's own item
        items.append(item)
    original[:] = items
    return original


def item_from_row(row, kind):
    """An item of kind ``kind`` (``item_of``'s third part) read from its row."""
    if is_tuple_kind(kind):
        return item_with_parts(kind, [element_of_kind(getitem(row, k), t)
                                      for k, t in enumerate(kind[1:])])
    if isinstance(kind, type):
        return element_of_kind(row, kind)
    return Tracer(api.copy_(row).atom, is_scalar=kind == "scalar")


class RowOf:
    """A row of a list of rows carried as one array (``list_tables.TableRow``): it reaches
    the list."""

    __slots__ = ("table", "k")


def reachable_elsewhere(obj, name, frame, parts=()):
    """Whether the list ``obj``, variable ``name`` of the user's function running in (or
    around) ``frame``, is an argument of that function, or is reached from another of
    its variables or from a global: appends to a ``GrowingList`` in its place would not
    show there; nor would writes into ``parts`` (the lists a table holds as its rows),
    where another name reaches one. The converted code's own functions (loop bodies, branches) pass the
    variable along as an argument; the user's function is the first frame out from
    there that is not one of them."""
    # ``name`` may be a dict's item (``history['loss']``, a list a loop carries on its
    # own): reached through that dict, it must be there once, and the dict reached
    # from nowhere else.
    root = name.split("[", 1)[0]
    f = frame
    while f is not None:
        code = f.f_code
        if in_user_code(code.co_filename):
            if _reached(obj, root, f.f_locals, parts):
                return True
            if root != name and not _held_once(obj, f.f_locals.get(root)):
                return True
            if not code.co_name.startswith("_nptf__"):
                n_args = code.co_argcount + code.co_kwonlyargcount + \
                    bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)
                return root in code.co_varnames[:n_args] or \
                    _reached(obj, root, {k: v for k, v in f.f_globals.items()
                                         if type(v) in (list, tuple, dict)}, parts) or \
                    (root != name and reachable_elsewhere(f.f_locals.get(root), root, f))
        f = f.f_back
    return True


def _held_once(obj, d):
    return type(d) is dict and sum(v is obj for v in d.values()) == 1


def _reached(obj, name, variables, parts=()):
    # (Not the converted code's own slots for the variable: its value coming into a
    # branch or loop body, and the one it puts back in the closure cell.)
    own = (name, f"_nptf__arg_{name}", f"_nptf__was_{name}")
    seen, pending = set(), [v for k, v in variables.items() if k not in own]
    targets = {id(obj)} | {id(p) for p in parts}
    budget = 20_000
    while pending and budget > 0:
        v = pending.pop()
        budget -= 1
        if id(v) in targets or isinstance(v, RowOf) and v.table is obj:
            return True
        if type(v) in (list, tuple, set) and id(v) not in seen:
            seen.add(id(v))
            pending += list(v)
        elif type(v) is dict and id(v) not in seen:
            seen.add(id(v))
            pending += list(v.values())
    return budget <= 0
