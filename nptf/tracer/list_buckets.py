"""Python lists of lists whose rows the data choose to append to: buckets.

``clusters = [[] for _ in range(k)]``, then ``clusters[int(j)].append(i)`` in a loop,
with ``j`` traced (k-means assignment, bucket sort, grouping by label, adjacency lists):
how long each row grows, the data decide. Such a list is a ``BucketTable``: every item
appended, in order, is a row of one graph array, beside the number of the list's row it
went into. Reading a row (``clusters[c]``, a ``for`` over the table) gives the items of
that row, in order, as a list of run-time length (a ``GrowingList``): ``len``, ``sum``,
``max``, ``if row:``, iterating over it, ``np.mean(X[row])`` and ``np.array(row)`` work
as for any list the data grow. The table keeps its number of rows, known when tracing.

Converted code rebinds the variable on each append (``clusters =
bucket_append(clusters, j, i, "clusters")``), so an `if` or a loop on traced values
carries the table as its variable (a tree node of two arrays, as a dict keyed by traced
values is); a call hands it back as the Python list of lists NumPy's run makes.

Refused, so the call runs with NumPy: rows that are one list (``[[0] * m] * n``, where an
append shows in every row), a table or row another variable, container or the caller
also reaches, items of other kinds, shapes or dtypes, and anything that changes a row
other than ``append`` at the table's position (``row.append`` through a row held in a
variable, ``pop``, item writes, replacing rows).
"""
from __future__ import annotations

import sys

import numpy as np

from . import numpy_api as api
from .builder import current_builder
from .growing_lists import (MIXED, GrowingList, checked_position, common_item, is_tuple_kind,
                            item_of, joined_item, reachable_elsewhere, row_of)
from .holders import held_elsewhere
from .indexing import getitem
from .python_lists import ComputedList, RefusedListOperations, list_refusal
from .tracer import Tracer, to_tracer

NOUN = "a list of lists appended to at positions known only when the graph runs"
FIX = ("nptf keeps such a list as one array of its items and the row of each; append to "
       "it as `table[k].append(v)` with items of one kind, shape and dtype, and read its "
       "rows whole (len, sum, np.array(row), a for loop), or keep an array of labels "
       "and use masks (X[labels == k]).")


def _refused(what):
    return list_refusal(what, NOUN, FIX)


class BucketSpec:
    """What a bucket table is, known when tracing: its number of rows, the item of its
    rows (``growing_lists.item_of``) and the list it stands for (``identity``)."""

    __slots__ = ("n", "item", "identity")

    def __init__(self, n, item, identity):
        self.n, self.item, self.identity = n, item, identity

    def __eq__(self, other):
        # Not by identity: a list made again on each trace of a loop body is a new object
        # each time, and the paths of an `if` or a loop's steps carry tables by value.
        return isinstance(other, BucketSpec) and (self.n, self.item) == (other.n, other.item)

    def __hash__(self):
        return hash((self.n, self.item))

    def __repr__(self):
        return f"BucketSpec({self.n}, {self.item})"

    def nptf_rebuilt(self, children):
        """The table from its row numbers and items: a ``BucketTable`` while tracing, the
        Python list of lists NumPy's run makes when the call hands it back."""
        if self.item is None:
            return BucketTable(self, None, None) if current_builder() is not None else \
                [[] for _ in range(self.n)]
        rows, items = children
        if current_builder() is not None or not isinstance(rows, np.ndarray):
            return BucketTable(self, rows, items)
        kind = self.item[2]
        out = [[] for _ in range(self.n)]
        for r, v in zip(rows.tolist(), items):
            out[r].append(_python_item(v, kind))
        return out

    def of_list(self, lst):
        """The table of the Python list of lists ``lst`` (its rows before the
        control flow that appends to them)."""
        rows = [r for r, row in enumerate(lst) for _ in row]
        shape, dtype, _ = self.item
        if rows:
            items = api.stack([row_of(v, self.item) for row in lst for v in row])
        else:
            items = api.empty((0,) + shape, dtype)
        return BucketTable(self, to_tracer(np.array(rows, dtype=np.int64)), items)


def _python_item(v, kind):
    if isinstance(kind, type):
        return kind(v)
    if kind == "scalar":
        return v[()]
    return np.array(v)


class TypedByAppend(Exception):
    """A loop body appends to a table it read rows of before (``len(t[j])``) while the
    table's rows were all empty, so what an item is was not known: the loop carries the
    table of ``spec`` from the list before it."""

    def __init__(self, spec):
        super().__init__("a list of lists typed by its first append")
        self.spec = spec


def untyped(lst):
    """The table of the Python list of empty lists ``lst``, no item known yet."""
    return BucketTable(BucketSpec(len(lst), None, lst), None, None)


class BucketTable(RefusedListOperations):
    """A list of lists appended to at traced positions (see the module)."""

    __slots__ = ("spec", "rows", "items")

    def __init__(self, spec, rows, items):
        self.spec = spec
        if spec.item is None:       # untyped: no items yet (see ``untyped``)
            self.rows = self.items = None
        else:
            self.rows, self.items = Tracer(rows.atom), Tracer(items.atom)

    def nptf_children(self):
        return () if self.spec.item is None else (self.rows, self.items)

    def nptf_spec(self):
        return self.spec

    def appended(self, k, value):
        """The table after ``table[k].append(value)``."""
        if self.spec.item is None:
            item = common_item([value])
            if item is None or item[2] == MIXED or is_tuple_kind(item[2]):
                raise _refused("an append of items that are not numbers or arrays of one "
                               "kind, shape and dtype")
            raise TypedByAppend(BucketSpec(self.spec.n, item, self.spec.identity))
        if joined_item(self.spec.item, item_of(value)) != self.spec.item:
            raise _refused("an append of an item of another kind, shape or dtype than the "
                           "others")
        r = checked_position(k, self.spec.n, "list index out of range")
        rows = api.concatenate([self.rows, api.reshape(api.astype(r, np.int64), (1,))])
        items = api.concatenate([self.items, api.expand_dims(row_of(value, self.spec.item),
                                                             0)])
        return BucketTable(self.spec, rows, items)

    # -------------------------------------------------------------- as a list
    def __len__(self):
        return self.spec.n

    def __bool__(self):
        return self.spec.n > 0

    def __iter__(self):
        return iter([self._row(r) for r in range(self.spec.n)])

    def __getitem__(self, k):
        if type(k) is slice:
            return [self._row(r) for r in range(self.spec.n)[k]]
        if isinstance(k, (bool, np.bool_)):
            raise TypeError("list indices must be integers or slices, not bool")
        if isinstance(k, (int, np.integer)):
            if not -self.spec.n <= k < self.spec.n:
                raise IndexError("list index out of range")
            return self._row(int(k) % self.spec.n)
        return self._row(checked_position(k, self.spec.n, "list index out of range"))

    def _row(self, r):
        if self.spec.item is None:
            # No items yet: an empty row (this trace of the loop body is traced again once
            # an append says what an item is).
            return BucketRow(api.empty((0,), np.float64).atom,
                             ((), np.dtype(np.float64), "scalar"), table=self)
        picked = getitem(self.items, self.rows == r)
        return BucketRow(picked.atom, self.spec.item, table=self)

    ITEM, WHOLE = "a row", "the list of lists"

    def _refusal(self, what):
        return _refused(what)

    def __array__(self, dtype=None, copy=None):
        raise _refused("np.array() of the whole list of lists (its rows' lengths are the "
                       "data's)")


class BucketRow(GrowingList):
    """A row of a ``BucketTable``, read: its items in order, a list of run-time length. It
    changes only through the table (``table[k].append(v)``)."""

    __slots__ = ("table",)
    NOUN = "a row of " + NOUN
    FIX = FIX

    def __init__(self, atom, item, least=0, per_iteration=None, appended_kind=None,
                 table=None):
        super().__init__(atom, item, least, per_iteration, appended_kind)
        self.table = table

    def __getattribute__(self, name):
        if name in GrowingList.METHODS:
            raise _refused(f"list.{name}() on a row read into a variable (or taking items "
                           f"away)")
        # The user's frame is the caller's, not this method's.
        return ComputedList.attribute(self, name, sys._getframe(1))

    def __setitem__(self, index, value):
        raise _refused("an item write into a row")

    def rebuilt(self, atom):
        # Still a row (after control flow merged or carried it): its methods stay refused.
        return BucketRow(atom, object.__getattribute__(self, "item"),
                         table=object.__getattribute__(self, "table"))


def bucket_append(table, k, value, name):
    """``name[k].append(value)`` in converted code: the table after it, which the
    variable is rebound to. A Python list appended to at a Python int position is
    Python's; at a traced position it becomes a ``BucketTable``."""
    frame = sys._getframe(1)
    if isinstance(table, BucketTable):
        if _held_elsewhere(table, name, frame):
            raise _refused(f"an append into `{name}`, which another variable, a container "
                           f"or the caller also holds (or a row of it)")
        return table.appended(k, value)
    builder = current_builder()
    # At a Python int position inside a traced branch or loop body, where Python's append
    # would change a list the data's choice of path cannot follow: a table too, where the
    # list can be one.
    nested = builder is not None and builder.parent is not None and type(table) is list
    traced = isinstance(k, Tracer) and builder is not None
    if not (traced or nested) or type(table) is not list:
        table[k].append(value)
        return table
    if not table or any(type(row) is not list for row in table) or \
            not traced and not _can_be_table(table, value, name, frame):
        table[k].append(value)      # Python's error, or the list's own refusal
        return table
    if len({id(row) for row in table}) != len(table):
        raise _refused(f"an append at a traced position into `{name}`, whose rows are one "
                       f"list (as `[[0] * m] * n` makes them: Python's append shows in every "
                       f"row)")
    if reachable_elsewhere(table, name, frame, parts=table):
        raise _refused(f"an append at a traced position into `{name}`, which another "
                       f"variable, a container or the caller also holds (or a row of it)")
    item = common_item([v for row in table for v in row] + [value])
    if item is None or item[2] == MIXED or is_tuple_kind(item[2]):
        raise _refused(f"an append into `{name}` of items that are not numbers or arrays "
                       f"of one kind, shape and dtype")
    spec = BucketSpec(len(table), item, table)
    return spec.of_list(table).appended(k, value)


def _can_be_table(table, value, name, frame):
    item = common_item([v for row in table for v in row] + [value])
    return len({id(row) for row in table}) == len(table) and item is not None and \
        item[2] != MIXED and not is_tuple_kind(item[2]) and \
        not reachable_elsewhere(table, name, frame, parts=table)


def _held_elsewhere(table, name, frame):
    """Whether the table of variable ``name`` is an argument of the user's function
    running in (or around) ``frame``, or another variable of it (or a container one
    holds) holds the table or a row of it: an append would not show there."""
    identity = table.spec.identity

    def is_it(v):
        return (isinstance(v, BucketTable) and v.spec.identity is identity) or (
            isinstance(v, BucketRow) and
            object.__getattribute__(v, "table").spec.identity is identity)
    return held_elsewhere(name, frame, is_it)


def buckets_before(state, branch_values):
    """{position: the ``BucketTable`` of the Python list there} for the variables that
    are a Python list before an `if` or a loop and a table after (one of) its paths."""
    out = {}
    for i, before in enumerate(state):
        if type(before) is not list:
            continue
        for v in branch_values(i):
            if isinstance(v, BucketTable) and v.spec.identity is before:
                out[i] = v.spec.of_list(before)
                break
    return out
