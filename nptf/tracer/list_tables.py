"""Python lists of lists of numbers written at traced positions: tables.

Dynamic programming and grid code keep a table as a list of rows
(``dp = [[0] * (m + 1) for _ in range(n + 1)]``) and write ``dp[i][j]`` in loops over
sizes from the arguments. A graph loop carries such a table as one 2-D array, its rows
the list's rows, and the kind of each number (a Python number or a NumPy scalar) as an
int8 array of the same shape, so that a number read back is what was written. Reading a
row (``dp[i]``) gives a ``TableRow``: the row of the table at that position, not a copy,
so that ``dp[i][j] = v`` writes the table and a row read before sees the write, as
Python's row object would.

Only a table whose rows are distinct lists of one length, that no other variable,
container or global reaches (the table or one of its rows), becomes one: the rows of
``[[0] * m] * n`` are one list, which Python writes through every row. Replacing,
appending or taking away rows is refused (a loop of a known trip count then runs
unrolled, with Python's lists).
"""
from __future__ import annotations

import sys

import numpy as np

from . import numpy_api as api
from .builder import current_builder
from .growing_lists import (MIXED, ROWS, SEVERAL, GrowingList, RowOf, checked_position,
                            common_item, element_of_kind, refused_write,
                            several_types_read)
from .python_lists import ComputedList
from .tracer import Tracer, emit, to_tracer


def table_item(value):
    """The item (see ``growing_lists.item_of``) of the rows of the Python list ``value``
    where it is a table: distinct lists of one length of numbers of one dtype; else None."""
    if type(value) is not list or not value or \
            any(type(row) is not list or not row for row in value):
        return None
    m = len(value[0])
    if any(len(row) != m for row in value) or len({id(row) for row in value}) != len(value):
        return None
    number = common_item([v for row in value for v in row])
    if number is None or number[0] != () or not (
            isinstance(number[2], type) or number[2] in ("scalar", MIXED)):
        return None
    return (m,), number[1], (ROWS, number[2])


def grown_table(value, item):
    """A ``GrowingTable`` of the Python table ``value`` (a ``table_item``)."""
    _, dtype, _ = item
    if not any(isinstance(v, Tracer) for row in value for v in row):
        # Numbers known when tracing (``[[0] * m for _ in range(n)]``): one constant.
        rows = to_tracer(np.array(value, dtype=dtype))
    else:
        rows = api.stack([api.stack([api.astype(to_tracer(v), dtype) for v in row])
                          for row in value])
    return GrowingTable(Tracer(rows.atom).atom, item, len(value))


class GrowingTable(GrowingList):
    """A table a graph loop or branch carries (see the module)."""

    __slots__ = ()
    NOUN = "a list of lists of numbers written at traced positions"
    FIX = ("nptf keeps such a list as one 2-D array; write its numbers (t[i][j] = v) but "
           "keep its rows (build a new table, or use a 2-D array: np.zeros((n, m)))")

    def __getattribute__(self, name):
        if name in GrowingList.METHODS:
            raise refused_write(f"list.{name}() of {GrowingTable.NOUN}")
        return ComputedList.attribute(self, name, sys._getframe(1))

    def __setitem__(self, index, value):
        raise refused_write(f"replacing a row of {GrowingTable.NOUN}")

    def _sliced(self, rows):
        raise refused_write(f"a slice of {GrowingTable.NOUN} (a list of the same rows)")

    def _element(self, i):
        rows = self._rows()
        return TableRow(self, checked_position(i, emit("dim", [rows], {"axis": 0}),
                                               "list index out of range"))

    def number(self, k, j):
        """The number at row ``k`` (checked) and column ``j`` (checked), of its kind."""
        kind = self.numbers_kind()
        if kind == SEVERAL:
            raise several_types_read("reading a number")
        value = Tracer(self.atom)[k, j]
        if kind == MIXED:
            kinds = Tracer(object.__getattribute__(self, "kind_rows").atom)
            return self._flagged(value, kinds[k, j])
        if isinstance(kind, type):
            return element_of_kind(value, kind)
        return Tracer(api.copy_(value).atom, is_scalar=True)

    def numbers_kind(self):
        return object.__getattribute__(self, "item")[2][1]

    def _with_numbers(self, dtype, kind):
        self.item = (object.__getattribute__(self, "item")[0], dtype, (ROWS, kind))
        self.element = None

    def write(self, k, j, value):
        """``table[k][j] = value`` at a checked row and column."""
        if object.__getattribute__(self, "home") is not current_builder():
            raise refused_write(f"a write inside a traced branch or loop body that does not "
                                f"carry {GrowingTable.NOUN}")
        self.write_number((k, j), value)

    def items_of_length(self, n):
        """The rows as Python's lists of numbers, where the table has ``n`` rows."""
        m = object.__getattribute__(self, "item")[0][0]
        return [[TableRow(self, k)[j] for j in range(m)] for k in range(n)]

    def with_rows(self, n):
        """This table, known to have ``n`` rows (a loop that carried it kept them)."""
        table = self.rebuilt(api.reshape(self._rows(), (n,) + self.item[0]).atom)
        table.kind_rows = api.reshape(Tracer(object.__getattribute__(self, "kind_rows").atom),
                                      (n,) + self.item[0])
        return table

    def numbers(self):
        """How many numbers the table holds (rows times their length; where the rows' count
        is known only at run time, sys.maxsize)."""
        n = self._rows().shape[0]
        return sys.maxsize if n is None else n * object.__getattribute__(self, "item")[0][0]


class TableRow(RowOf):
    """Row ``k`` (a checked position) of a ``GrowingTable``: reading and writing its numbers
    reads and writes the table, as Python's row object is the table's own."""

    __slots__ = ()

    def __init__(self, table, k):
        self.table, self.k = table, k

    def __len__(self):
        return object.__getattribute__(self.table, "item")[0][0]

    def _column(self, j):
        return checked_position(j, len(self), "list index out of range")

    def __getitem__(self, j):
        if type(j) is slice:
            return [self[c] for c in range(len(self))[j]]
        return self.table.number(self.k, self._column(j))

    def __setitem__(self, j, value):
        if type(j) is slice:
            raise refused_write(f"a slice assignment into a row of {GrowingTable.NOUN}")
        self.table.write(self.k, checked_position(j, len(self),
                                                  "list assignment index out of range"),
                         value)

    def __iter__(self):
        return iter([self[c] for c in range(len(self))])

    def __array__(self, dtype=None, copy=None):
        raise refused_write(f"a row of {GrowingTable.NOUN} as an array (np.array(row))")

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        raise refused_write(f"`.{name}` of a row of {GrowingTable.NOUN}")
