"""A list of numbers passed as an argument: an array to NumPy, a list to Python.

``f([1.0, 2.0])`` gives the graph one array input, which is what every NumPy
function makes of the list. Python's own operations on a list mean something
else: ``x * 2`` repeats it, ``x + [3.0]`` concatenates, ``x == y`` is one bool,
``x[0]`` is a Python float (a weak number in NumPy 2's promotion), ``x.append``
changes the caller's list. A ``ListTracer`` hands the array to NumPy functions
and arrays, reads single elements as the numbers the list holds, and refuses
everything else, so the call runs with NumPy (or raises with ``fallback="raise"``)
instead of computing an array's answer to a list's question.
"""
from __future__ import annotations

import contextvars
import sys

import numpy as np

from ..errors import in_user_code, unsupported, user_location
from .sites import decline_loop
from .tracer import Tracer, assumed_value, emit, python_type_of
from .views import buffer_of

_FIX = ("nptf passes a list of numbers to the graph as an array, which NumPy functions "
        "take as NumPy does; Python's list operations on it are not compiled. Pass an array "
        "(np.asarray(x)) if array arithmetic is meant, or a tuple of arrays for several arrays.")

_LIST_METHODS = ("append", "extend", "insert", "pop", "remove", "index", "count", "reverse",
                 "sort", "clear", "copy")

_OPERATORS = {
    "add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%",
    "pow": "**", "matmul": "@", "and": "&", "or": "|", "xor": "^", "lshift": "<<",
    "rshift": ">>", "divmod": "divmod", "lt": "<", "le": "<=", "gt": ">", "ge": ">=",
    "eq": "==", "ne": "!=",
}
_REFLECTED = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}


def list_refusal(what, noun, fix):
    """The error of a list operation that a list nptf keeps as arrays (``noun``) does not
    run: marked so that a loop of a known trip count runs such a body unrolled, where
    the list is Python's own."""
    error = unsupported(f"{what}, on {noun}", fix=fix)
    error.list_operation = True
    return error


# The place of the compiled loop, `if` or comprehension being traced: a list it makes a
# ``ComputedList`` of is made there (``ListTracer.made_at``).
MADE_AT = contextvars.ContextVar("nptf_lists_made_at", default=None)


def decline_made(lst):
    """Note that ``lst`` (a list nptf keeps as arrays) cannot do what Python is asked to
    do with it: a trace that may assume the data's decisions runs the loop, `if` or
    comprehension that made it in Python, where the list stays Python's own."""
    if isinstance(lst, ListTracer):
        made_at = object.__getattribute__(lst, "made_at")
        if made_at is not None:
            decline_loop(made_at)


def _refused(what, of=None):
    kind = type(of) if of is not None else ListTracer
    decline_made(of)
    error = unsupported(f"{what} on {kind.NOUN}", fix=kind.FIX)
    error.list_operation = True     # a loop of a known trip count runs such a body unrolled
    return error


def _array_operand(other, name):
    """Whether Python hands ``list <op> other`` to NumPy: an array or a NumPy scalar
    operand converts the list to an array; a list or a Python number does not, and
    neither does a NumPy scalar for ``*``, which repeats the list (or raises)."""
    if isinstance(other, Tracer):
        return not isinstance(other, ListTracer) and not other.type.weak and \
            other.kind_flag is None and not (name == "mul" and other.is_scalar)
    return isinstance(other, np.ndarray) or (isinstance(other, np.generic) and name != "mul")


class ListTracer(Tracer):
    """The graph input of a list argument of numbers.

    ``element`` is the one Python type of the elements of a flat list (``bool``,
    ``int``, ``float``, ``complex`` or a NumPy scalar type), whose single elements it
    reads; None for nested lists, mixed types and ints past int64. Of a flat list of
    Python numbers of several types (``[1, -0.8]``), ``elements`` holds each one's type:
    it reads the elements at positions known when tracing as the numbers they are.
    """

    __slots__ = ("element", "elements", "made_at")
    NOUN = "a list argument"
    FIX = _FIX

    def __init__(self, atom, element=None):
        super().__init__(atom)
        self.element = None if isinstance(element, tuple) else element
        self.elements = element if isinstance(element, tuple) else None
        # Where the function made it (a list it builds or grows: ``MADE_AT``), else None.
        self.made_at = MADE_AT.get()

    def array_value(self, dtype=None):
        """The array NumPy makes of the list: a new array, which writes do not reach the list."""
        return Tracer(self.atom)

    def __getattribute__(self, name):
        return ListTracer.attribute(self, name, sys._getframe(1))

    @staticmethod
    def attribute(self, name, caller):
        """``self.name`` looked up by the code of frame ``caller``: the user's code reaches
        none of the array's attributes and methods (a list has other ones), nptf's does."""
        if name == "__class__" and in_user_code(caller.f_code.co_filename):
            # ``isinstance(x, list)`` in the user's code: a list, as in NumPy's run.
            return list
        if name[0] != "_" and in_user_code(caller.f_code.co_filename):
            if name in _LIST_METHODS:
                raise _refused(f"list.{name}()", self)
            raise _refused(f"attribute `.{name}` (a list has none)", self)
        return object.__getattribute__(self, name)

    # ------------------------------------------------------------------ elements
    def _element(self, i):
        element = object.__getattribute__(self, "element")
        elements = object.__getattribute__(self, "elements")
        if element is None and elements is not None and type(i) is int:
            element = elements[i]       # Python's IndexError past the end
        if element is None or self.ndim != 1:
            raise _refused("reading an element of a nested list or a list of mixed types",
                           self)
        value = self.array_value()[i]
        if element in (bool, int, float, complex):
            # A Python number: weak in NumPy's promotion, a Python float or complex when
            # returned; of a list of several types, held exactly by the list's array.
            dtype = self.dtype if elements is None else np.asarray(element(0)).dtype
            value = emit("convert", [value], {"dtype": dtype, "weak": True}, scalar=True)
        return value

    def __getitem__(self, key):
        if type(key) is slice and all(b is None or type(b) is int or isinstance(b, np.integer)
                                      for b in (key.start, key.stop, key.step)):
            # A slice known when tracing: a new Python list of those items, as Python's.
            return [self._element(i) for i in range(len(self))[key]]
        if isinstance(key, Tracer) and not isinstance(key, ListTracer) and key.ndim == 0 and \
                key.dtype.kind in "iu" and key.kind_flag is None and \
                object.__getattribute__(self, "element") is not None:
            # ``sent[j]`` in a graph loop: the element the data choose, of the list's one
            # type (an index past the end raises Python's IndexError when the graph runs).
            return self._element(key)
        if type(key) is not int and not isinstance(key, np.integer):
            raise _refused("indexing other than by one int (an array index, or a slice "
                           "with bounds known only at run time)", self)
        return self._element(int(key))

    def __iter__(self):
        return (self._element(i) for i in range(len(self)))

    def __contains__(self, value):
        raise _refused("`in`", self)

    def __reversed__(self):
        raise _refused("reversed()", self)

    def __setitem__(self, key, value):
        raise _refused("assigning an element", self)

    def __delitem__(self, key):
        raise _refused("`del x[...]`", self)

    def __bool__(self):
        return len(self) > 0

    # ----------------------------------------------------------------- NumPy
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return Tracer.__array_ufunc__(self, ufunc, method, *_arrays(inputs), **_arrays(kwargs))

    def __array_function__(self, func, types, args, kwargs):
        return Tracer.__array_function__(self, func, types, _arrays(args), _arrays(kwargs))


class ComputedList(ListTracer):
    """A list the function builds by a comprehension over an array whose length is known
    only at run time (``[X[y == c].mean(0) for c in np.unique(y)]``): its elements, all
    of one shape and dtype, are the rows of one graph array. NumPy functions take the
    list as that array, as NumPy does; ``len``, reading one element and iterating read
    the rows (a Python number where the elements are Python numbers); Python's other
    list operations are refused, as for a list argument."""

    __slots__ = ()
    NOUN = "a list built over an array of run-time length"
    FIX = ("nptf keeps such a list as one array of its elements; pass it to NumPy "
           "(np.array(x), np.stack(x)) to use it as an array, or give the array a length "
           "known when tracing.")

    def element_at(self, i):
        """Element ``i`` (an int or a traced integer)."""
        return self._element(i)

    def array_value(self, dtype=None):
        """The array NumPy makes of the list. Of an empty list that is a float64 array of
        shape (0,), whatever the items would be: where the items are not float64 numbers,
        a list the data leave empty runs the call with NumPy."""
        value = Tracer(self.atom)
        if dtype is not None or (value.ndim == 1 and value.dtype == np.float64):
            return value
        n = emit("dim", [value], {"axis": 0}) if value.shape[0] is None else value.shape[0]
        if not isinstance(n, Tracer):
            if n == 0:
                raise unsupported(f"an empty {self.NOUN[2:]} as an array (NumPy's is float64 "
                                  f"of shape (0,))")
            return value
        return emit("check", [value, n > 0], {
            "error": "OutsideTheGraph",
            "message": f"{self.NOUN} is empty, and NumPy makes an array of shape (0,) and "
                       f"dtype float64 of an empty list, where the graph has items of shape "
                       f"{value.shape[1:]} and dtype {value.dtype}, at {user_location()}"})

    def _element(self, i):
        value = self.array_value()[i]
        if object.__getattribute__(self, "element") is not None:
            # The elements are Python numbers: weak in NumPy 2's promotion.
            value = emit("convert", [value], {"dtype": self.dtype, "weak": True}, scalar=True)
        elif not value.is_scalar:
            # In NumPy the item is the list's own array: a write into it shows in the list,
            # which here is one array the item was read from.
            buffer_of(value).unwritable = (
                f"an item of {self.NOUN}, which nptf keeps as one array of its items")
        return value

    def __getitem__(self, key):
        if isinstance(key, Tracer) and key.ndim == 0 and key.dtype.kind in "iu":
            return self._element(key)
        if type(key) is slice:
            # A list's slice is a new list of those items: the rows NumPy's slice picks.
            return self._sliced(Tracer.__getitem__(Tracer(self.atom), key))
        return ListTracer.__getitem__(self, key)

    def _sliced(self, rows):
        return ComputedList(rows.atom, element=object.__getattribute__(self, "element"))

    def __iter__(self):
        # Python iterates it (a generator, ``Counter(...)``, ``zip``): the items of the
        # length the call's data give, which the graph checks.
        n = self.shape[0]
        if n is None:
            n = assumed_value(emit("dim", [Tracer(self.atom)], {"axis": 0}, scalar=True),
                              f"iterating {self.NOUN} in Python")
        if n is None:
            raise _refused("iterating in Python (a loop of run-time length is compiled only "
                           "in a `for` statement)", self)
        return (self._element(i) for i in range(int(n)))

    def __add__(self, other):
        rows = self._rows_joined(other)
        if rows is None:
            return ListTracer.__add__(self, other)
        return self._sliced(api_concatenate([Tracer(self.atom), rows]))

    def __radd__(self, other):
        rows = self._rows_joined(other)
        if rows is None:
            return ListTracer.__radd__(self, other)
        return self._sliced(api_concatenate([rows, Tracer(self.atom)]))

    def _rows_joined(self, other):
        """The rows of a list ``+`` joins to this one (``[nodes[k] for k in keep] +
        [new_id]``): another such list of the same items, or a Python list of items of
        this one's kind (Python numbers of its element type, or arrays of its rows' shape
        and dtype); None for any other operand (an array adds elementwise, as NumPy)."""
        element = object.__getattribute__(self, "element")
        row_shape, dtype = self.shape[1:], self.dtype
        if type(other) is ComputedList:
            same = object.__getattribute__(other, "element") == element and \
                other.dtype == dtype and other.shape[1:] == row_shape
            return Tracer(other.atom) if same else None
        if type(self) is not ComputedList or type(other) is not list:
            return None
        rows = []
        for v in other:
            if element is not None:
                if not (type(v) is element or (
                        isinstance(v, Tracer) and v.ndim == 0 and v.type.weak and
                        python_type_of(v.dtype) is element)):
                    return None
            elif not (isinstance(v, (Tracer, np.ndarray, np.generic)) and
                      not isinstance(v, ListTracer) and np.shape(v) == row_shape and
                      v.dtype == dtype):
                return None
            rows.append(_as_row(v, dtype))
        if not rows:
            return Tracer(self.atom)[:0]
        return _stack_rows(rows)


def _as_row(v, dtype):
    return v.astype(dtype) if isinstance(v, Tracer) else np.asarray(v, dtype)


def _stack_rows(rows):
    return np.stack(rows)           # a Tracer's __array_function__ stacks in the graph


def api_concatenate(parts):
    return np.concatenate(parts)


def _arrays(x):
    """``x`` with each list argument replaced by the array NumPy makes of it."""
    if isinstance(x, ListTracer):
        return x.array_value()
    if type(x) in (list, tuple):
        return type(x)(_arrays(v) for v in x)
    if type(x) is dict:
        return {k: _arrays(v) for k, v in x.items()}
    return x


def _operator(name, symbol, reflected=False):
    array_method = getattr(Tracer, f"__r{name}__" if reflected else f"__{name}__")

    def method(self, other):
        if _array_operand(other, name):
            return array_method(self.array_value(), other)
        if name in ("eq", "ne") and type(other) is tuple:
            return name == "ne"         # (a list is never equal to a tuple)
        if name in ("eq", "ne") and type(other) is list and not other:
            # ``out == []`` (``!= []``): whether the list is empty, as Python says.
            return _emptiness(self, name == "eq")
        raise _refused(f"the `{symbol}` operator", self)
    return method


def _emptiness(lst, empty):
    """A Python bool: whether ``lst`` is empty (``empty``) or not, of its length now or
    when the graph runs."""
    n = lst.shape[0]
    if n is not None:
        return (n == 0) == empty
    n = emit("dim", [Tracer(lst.atom)], {"axis": 0})
    test = (n == 0) if empty else (n != 0)
    return emit("convert", [test], {"dtype": np.dtype(bool), "weak": True}, scalar=True)


def _unary(symbol):
    def method(self):
        raise _refused(f"the unary `{symbol}` operator", self)
    return method


def _inplace(symbol):
    def method(self, other):
        raise _refused(f"`{symbol}=`", self)
    return method


for _name, _symbol in _OPERATORS.items():
    setattr(ListTracer, f"__{_name}__", _operator(_name, _symbol))
    if _name not in _REFLECTED:
        setattr(ListTracer, f"__r{_name}__", _operator(_name, _symbol, reflected=True))
        if _name != "divmod":
            setattr(ListTracer, f"__i{_name}__", _inplace(_symbol))
for _name, _symbol in [("neg", "-"), ("pos", "+"), ("abs", "abs()"), ("invert", "~")]:
    setattr(ListTracer, f"__{_name}__", _unary(_symbol))
ListTracer.__hash__ = None


def element_type(x: list):
    """The one Python type of a flat list's elements whose single elements a
    ``ListTracer`` reads (see there), else None."""
    types = set(map(type, x))
    if len(types) != 1:
        return None
    (t,) = types
    if t is int and not all(-2 ** 63 <= v < 2 ** 63 for v in x):
        return None         # not an int64 array: NumPy makes uint64 or objects of it
    if t in (bool, int, float, complex) or (issubclass(t, np.generic) and
                                            np.dtype(t).kind in "biufc"):
        return t
    return None


def element_types(x: list):
    """Each element's Python type, of a flat list of Python numbers of several types
    (``[1, -0.8]``) whose array holds every one exactly; else None."""
    types = tuple(map(type, x))
    if len(set(types)) < 2 or not set(types) <= {bool, int, float}:
        return None
    arr = np.asarray(x)
    if arr.ndim != 1 or any(np.asarray(v).astype(arr.dtype) != v for v in x) or \
            any(t is int and not -2 ** 53 <= v <= 2 ** 53 for t, v in zip(types, x)):
        return None
    return types


__all__ = ["ListTracer", "ComputedList", "element_type", "element_types"]


def numbers_list(x):
    """``x.tolist()`` of a 1-d array whose length is known only at run time (or too long
    to hold one traced number per element): the list of its elements as Python numbers,
    a ``ComputedList`` of ``x``'s values (a new array: later writes into ``x`` do not
    reach it)."""
    return ComputedList(x.atom, element=python_type_of(x.dtype))


class RefusedListOperations:
    """A list nptf keeps as arrays (a table of buckets, a ragged list), which the user's
    code sees as a list: Python's list operations it does not run raise the list's own
    refusal (``_refusal(what)``), so the call runs with NumPy. ``ITEM`` and ``WHOLE``
    name an item and the list."""

    __slots__ = ()
    ITEM, WHOLE = "an item", "the list"

    @property
    def __class__(self):
        """What the user's code sees as its class (``isinstance(x, list)``): a list;
        nptf's own code sees the class itself."""
        if not in_user_code(sys._getframe(1).f_code.co_filename):
            return type(self)
        return list

    def _refusal(self, what):
        return unsupported(f"{what}, on a list nptf keeps as arrays")

    def __setitem__(self, k, value):
        raise self._refusal(f"replacing {self.ITEM}")

    def __delitem__(self, k):
        raise self._refusal(f"`del` of {self.ITEM}")

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        raise self._refusal(f"list.{name}()" if hasattr(list, name) else f"`.{name}`")

    def __eq__(self, other):
        raise self._refusal(f"comparing {self.WHOLE}")

    __hash__ = None

    def _operator(self, *args):
        raise self._refusal(f"Python's list operators (+, *, in, reversed, comparisons) on "
                            f"{self.WHOLE}")

    __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _operator
    __add__ = __radd__ = __iadd__ = __mul__ = __rmul__ = __imul__ = _operator
    __contains__ = __reversed__ = _operator


class SplitPieces:
    """The list ``np.split`` / ``np.array_split`` returns where the split positions are
    an array only the data size (``np.split(x, np.flatnonzero(np.diff(x)) + 1)``): its
    items are slices of one array between bounds the graph computes (``starts`` and
    ``stops``, 1-d int64 arrays, one bound pair per piece). ``len``, reading a piece and
    a ``for`` or comprehension over the pieces follow NumPy (each piece a view of length
    known only at run time); the list itself, of a length only the data know, is not
    made, so other uses (returning it, NumPy functions of it) are refused."""

    __slots__ = ("array", "starts", "stops", "axis")
    NOUN = "the list of pieces np.split makes at positions known only at run time"
    FIX = ("Loop over the pieces (for p in pieces: ...) or compute per piece in a "
           "comprehension, or use the split positions as an array (np.add.reduceat, "
           "np.diff of them) instead of the list.")

    def __init__(self, array, starts, stops, axis):
        self.array, self.starts, self.stops, self.axis = array, starts, stops, axis

    def count(self):
        """How many pieces, a traced Python int."""
        return emit("convert", [emit("dim", [self.starts], {"axis": 0})],
                    {"dtype": np.dtype(np.int64), "weak": True}, scalar=True)

    def piece(self, i):
        """Piece ``i`` (a traced or Python int in ``range(count)``): a view of the array."""
        key = [slice(None)] * self.array.ndim
        key[self.axis] = slice(self.starts[i], self.stops[i])
        return self.array[tuple(key)]

    def __getitem__(self, key):
        if not (type(key) is int or isinstance(key, np.integer) or
                isinstance(key, Tracer) and key.ndim == 0 and key.dtype.kind in "iu"):
            raise self._refused("indexing other than by one int")
        n = self.count()
        k = key + n if not isinstance(key, Tracer) and key < 0 else key
        if isinstance(key, Tracer):
            k = emit("where", [key < 0, key + n, key])
        k = emit("check", [k, (k >= 0) & (k < n)],
                 {"error": "IndexError", "message": "list index out of range"}, scalar=True)
        return self.piece(k)

    def _refused(self, what):
        return unsupported(f"{what} on {self.NOUN}", fix=self.FIX)

    def __len__(self):
        raise self._refused("len() outside the compiled function's own code")

    def __iter__(self):
        raise self._refused("iterating outside the compiled function's own code")

    def __bool__(self):
        raise self._refused("the truth of the list")

    def __getattr__(self, name):
        if name.startswith("__"):       # a protocol probed (NumPy's, copy's): not a list's
            raise AttributeError(name)
        raise self._refused(f"list.{name}" if name in _LIST_METHODS else f"`.{name}`")

    def __array_function__(self, func, types, args, kwargs):
        raise self._refused(f"np.{func.__name__}()")

    def __array__(self, *args, **kwargs):
        raise self._refused("converting it to an array")

    def __eq__(self, other):
        raise self._refused("comparing it")

    __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __add__ = __radd__ = __mul__ = __rmul__ = \
        __contains__ = __eq__
    __hash__ = None
