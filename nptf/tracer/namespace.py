"""NumPy calls that have no tracer argument, made into graph values while tracing.

``np.zeros(n)`` or ``np.arange(3)`` never reach NumPy's dispatch protocols, so
left alone they would run eagerly and freeze a constant into the graph (and
``np.random.rand()`` would freeze one draw). While a function is traced, the
``numpy`` module's creation and random functions are swapped for wrappers
that build graph values when called from user code inside a trace, and call
NumPy unchanged anywhere else (other threads, NumPy's own internals).
Names imported directly (``from numpy import zeros``) are rebound in a copy
of the traced function's globals.
"""
from __future__ import annotations

import contextlib
import itertools
import operator
import sys
import threading
import types

import numpy as np

from ..errors import UnsupportedError, unsupported
from . import indexing
from . import numpy_api as api
from . import numpy_manip as _manip
from . import numpy_misc as _misc
from . import numpy_masked, numpy_poly1d, printing
from . import views
from .builder import current_builder
from .growing_lists import (MIXED, common_item, element_of_kind, is_tuple_kind, item_of,
                            item_with_parts, row_of)
from .numpy_random import LEGACY
from .tracer import (HASHED, Tracer, assumed_value, emit, run_time_size_refusal,
                     run_time_sized, to_tracer)
from .views import buffer_of, mark_readonly

def _fromiter(iterable, dtype, count=-1, *, like=None):
    """``np.fromiter(items, dtype, count)`` of traced numbers (``itertools.accumulate`` of
    an array): the array ``np.array`` makes of the items, in ``dtype``."""
    items = list(iterable if count < 0 else itertools.islice(iterable, count))
    if not any(isinstance(v, Tracer) for v in items):
        return np.fromiter(items, dtype, count)
    if 0 <= count != len(items):
        raise ValueError(f"iterator too short: Expected {count} but iterator had only "
                         f"{len(items)} items.")
    return api.array(items, dtype=dtype)


def _held(convert, name):
    """``np.<name>`` (``convert``) as the user's code calls it: of a NumPy array the trace
    did not make (a global, one a library made), where NumPy's result is that array
    itself, whose memory a write into the graph's value would not reach, such writes are
    refused."""
    def converted(a, *args, **kwargs):
        out = convert(a, *args, **kwargs)
        # (NumPy's function itself: called from here, the trace's wrapper runs it.)
        if isinstance(a, np.ndarray) and isinstance(out, Tracer) and out.ndim and \
                getattr(np, name)(a, *args, **kwargs) is a:
            views.mark_ambiguous(out, "np.asarray of a NumPy array the trace did not make "
                                      "(a global) is that array in NumPy")
        return out
    return converted


CREATION = {
    "zeros": api.zeros, "ones": api.ones, "empty": api.empty, "full": api.full,
    "zeros_like": api.zeros_like, "ones_like": api.ones_like, "empty_like": api.empty_like,
    "full_like": api.full_like, "arange": api.arange, "linspace": api.linspace, "eye": api.eye,
    "identity": api.identity, "array": _held(api.array, "array"),
    "asarray": _held(api.asarray, "asarray"), "asanyarray": _held(api.asarray, "asanyarray"),
    "ascontiguousarray": _held(lambda a, dtype=None, **kw: api.asarray(a, dtype),
                               "ascontiguousarray"),
    "copy": api.copy_,
    "logspace": _misc.logspace, "geomspace": _misc.geomspace, "tri": _manip.tri,
    "indices": _manip.indices, "tril_indices": _manip.tril_indices,
    "triu_indices": _manip.triu_indices, "meshgrid": _manip.meshgrid, "fromiter": _fromiter,
}


def _refuse_random(name):
    if name in LEGACY:
        return LEGACY[name]

    def refuse(*args, **kwargs):
        raise unsupported(f"np.random.{name}",
                          fix="Random numbers are not compiled yet; draw them outside the compiled "
                              "function and pass them in as an argument.")
    return refuse


def _standing_for(original, wrapper):
    """``wrapper`` named as ``original``, which it keeps (``__wrapped__``) to put back."""
    wrapper.__name__ = getattr(original, "__name__", "wrapper")
    wrapper.__doc__ = getattr(original, "__doc__", None)
    wrapper.__wrapped__ = original
    return wrapper


def wrap(original, traced, takes=None, probed=True):
    """``original`` as called while tracing: from the user's code (and, with ``takes``,
    for the arguments ``takes(args, kwargs)`` accepts) it runs ``traced``, whose result
    ``numpy_result`` checks by running ``original`` on samples; not where ``probed`` is
    False (``np.random``'s functions: a run would draw from NumPy's global state)."""
    def wrapper(*args, **kwargs):
        if (takes is None or takes(args, kwargs)) and _from_user_code():
            try:
                out = traced(*args, **kwargs)
            except TypeError as e:
                if "NoneType" not in str(e) or not run_time_sized((args, kwargs)):
                    raise
                raise run_time_size_refusal(original) from None
            return api.numpy_result(original, args, kwargs, out) if probed else out
        return original(*args, **kwargs)
    return _standing_for(original, wrapper)


def _from_user_code(depth=2):
    return current_builder() is not None and not \
        sys._getframe(depth).f_globals.get("__name__", "").startswith(("numpy", "nptf", "tensorflow"))


def _mgrid(original, key):
    """``np.mgrid[...]`` as a graph value: NumPy's grid, built from one line per axis."""
    full = original[key]
    if full.ndim == 1:
        return api.asarray(full)
    dims = full.shape[1:]
    grids = []
    for i, grid in enumerate(full):
        # Axis i's values vary along axis i only: one line of them, broadcast.
        line = grid[tuple(slice(None) if j == i else 0 for j in range(len(dims)))]
        shape = tuple(d if j == i else 1 for j, d in enumerate(dims))
        grids.append(api.broadcast_to(api.reshape(api.asarray(line), shape), dims))
    return _manip.new_c_ordered(api.stack(grids))


def _ogrid(original, key):
    """``np.ogrid[...]``: NumPy's open grid, each array a graph value."""
    grids = original[key]
    if isinstance(grids, np.ndarray):
        return api.asarray(grids)
    return type(grids)(api.asarray(g) for g in grids)


class _IndexWrapper:
    """``np.mgrid``/``np.r_``-style objects, indexed rather than called: graph values while
    tracing."""

    def __init__(self, original, traced):
        self.__wrapped__, self._traced = original, traced

    def __getitem__(self, key):
        if not _from_user_code():
            return self.__wrapped__[key]
        return self._traced(self.__wrapped__, key)

    def __getattr__(self, name):
        return getattr(self.__wrapped__, name)

    def __repr__(self):
        return repr(self.__wrapped__)


def _run_time_sequence(args, kwargs):
    """``np.stack(x)``-style calls whose sequence is an array of run-time length (or a
    list built over one, ``ComputedList``): NumPy's dispatch iterates the sequence, which
    such an array cannot be, so the call goes to the traced function directly."""
    first = args[0] if args else next(iter(kwargs.values()), None)
    return isinstance(first, Tracer) and first.ndim > 0 and first.shape[0] is None or \
        getattr(type(first), "nptf_ragged", False)


SEQUENCES = {"stack": api.stack, "concatenate": api.concatenate, "vstack": api.vstack,
             "hstack": api.hstack, "column_stack": _manip.column_stack,
             "dstack": _manip.dstack}


INDEXED = {"mgrid": _mgrid, "ogrid": _ogrid, "r_": _manip.index_concatenate,
           "c_": _manip.index_concatenate}


def _ndarray(shape, dtype=float, buffer=None, offset=0, strides=None, order=None):
    """``np.ndarray(shape, dtype)``: uninitialised memory, as ``np.empty`` gives it."""
    if buffer is None and strides is None:
        return api.empty(shape, dtype, order or "C")
    if any(isinstance(a, Tracer) for a in (buffer, shape)):
        raise unsupported("np.ndarray(shape, buffer=...) over a traced array",
                          fix="Use x.reshape(shape) or np.lib.stride_tricks on the array "
                              "itself, or np.empty(shape) for new memory.")
    return np.ndarray(shape, dtype, buffer, offset, strides, order)


def _ndenumerate(arr):
    """``np.ndenumerate(a)`` of a traced array, whose elements NumPy's iterator reads through
    memory: the (index, element) pairs of a shape known when tracing, each element a NumPy
    scalar as NumPy's iterator gives it."""
    if not isinstance(arr, Tracer):
        return np.ndenumerate(arr)
    if any(d is None for d in arr.shape):
        raise unsupported("np.ndenumerate of an array of a size known only at run time",
                          fix="Iterate over np.ndindex of a shape known when tracing, or "
                              "write the loop with whole-array operations.")
    return ((index, arr[index]) for index in np.ndindex(arr.shape))


_NDITER_FLAGS = {"multi_index", "c_index", "f_index", "refs_ok", "zerosize_ok"}


class _TracedIter:
    """``np.nditer`` over traced arrays whose shapes are known when tracing. NumPy's
    iterator reads and writes through memory, which a graph value has none of; this one
    walks the indices NumPy's walks (C order, or F) and reads and writes the operands
    there, each element a 0-d view as NumPy's is (``x[...] = v`` writes into a
    ``readwrite`` operand). It keeps ``finished``, ``iternext()``, ``multi_index``,
    ``index``, ``iterindex``, ``value``, ``it[i]``, ``operands`` and ``with``; other
    flags (``external_loop``, ``buffered``, allocated outputs) are refused."""

    def __init__(self, op, flags=None, op_flags=None, order="K", **unsupported_kwargs):
        self._single = not isinstance(op, (list, tuple))
        ops = [op] if self._single else list(op)
        flags = set(flags or ())
        if unsupported_kwargs or flags - _NDITER_FLAGS or any(o is None for o in ops):
            what = sorted(flags - _NDITER_FLAGS) or sorted(unsupported_kwargs) or ["op=None"]
            raise unsupported(f"np.nditer with {', '.join(what)} over a traced array",
                              fix="Iterate over np.ndindex(a.shape) and index the arrays, or "
                                  "write the loop with whole-array operations.")
        ops = [o if isinstance(o, Tracer) else api.asarray(o) for o in ops]
        if any(d is None for o in ops for d in o.shape):
            raise unsupported("np.nditer over an array of a size known only at run time",
                              fix="Iterate over np.ndindex of a shape known when tracing, or "
                                  "write the loop with whole-array operations.")
        shape = np.broadcast_shapes(*(o.shape for o in ops))
        walk = None
        if order not in ("C", "F") and not all(views.is_c_ordered(o) for o in ops):
            walk = _memory_walk(ops)
            if walk is None:
                raise unsupported(f"np.nditer(order={order!r}) over a traced array whose memory "
                                  "layout nptf cannot place (NumPy walks it in memory order)",
                                  fix="Pass order='C' (or 'F') to np.nditer.")
        per_op = list(op_flags or ["readonly"])
        per_op = per_op if per_op and isinstance(per_op[0], (list, tuple)) else [per_op] * len(ops)
        self._writes = [bool({"readwrite", "writeonly"} & set(f)) for f in per_op]
        for o, writes in zip(ops, self._writes):
            if writes and o.shape != shape:
                raise ValueError("non-broadcastable output operand with shape "
                                 f"{o.shape} doesn't match the broadcast shape {shape}")
        self.operands, self.shape, self.ndim = tuple(ops), shape, len(shape)
        self._flags = flags
        if walk is None:
            walk = (ix[::-1] for ix in np.ndindex(shape[::-1])) if order == "F" else \
                np.ndindex(shape)
        self._indices = [tuple(int(i) for i in ix) for ix in walk]
        self.itersize = len(self._indices)
        self.iterindex = 0
        self._started = False

    @property
    def finished(self):
        return self.iterindex >= self.itersize

    def iternext(self):
        self.iterindex += 1
        return not self.finished

    def reset(self):
        self.iterindex = 0
        self._started = False

    @property
    def multi_index(self):
        if "multi_index" not in self._flags:
            raise ValueError("Iterator is not tracking a multi-index")
        return self._indices[self.iterindex]

    @property
    def index(self):
        if not {"c_index", "f_index"} & self._flags:
            raise ValueError("Iterator does not have an index")
        order = "C" if "c_index" in self._flags else "F"
        return int(np.ravel_multi_index(self._indices[self.iterindex], self.shape, order=order))

    def _element(self, k):
        o, ix = self.operands[k], self._indices[self.iterindex]
        ix = ix[len(ix) - o.ndim:]
        element = o[tuple(i if d != 1 else 0 for i, d in zip(ix, o.shape)) + (Ellipsis,)]
        return element if self._writes[k] else mark_readonly(element)

    def __getitem__(self, k):
        return self._element(k)

    @property
    def value(self):
        values = tuple(self._element(k) for k in range(len(self.operands)))
        return values[0] if self._single else values

    def __iter__(self):
        return self

    def __next__(self):
        # As NumPy's: the first step stays on the first element, so that ``it.index`` in
        # the loop's body is the element's own.
        if self._started:
            self.iterindex += 1
        self._started = True
        if self.finished:
            raise StopIteration
        return self.value

    def __len__(self):
        return self.itersize

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def close(self):
        pass


def _memory_walk(ops, most=64):
    """The indices NumPy's ``order="K"`` iterator visits over ``ops``, from the memory
    layouts nptf knows for them (each layout it cannot tell apart must give the same
    walk); None when it cannot tell."""
    candidates = [views.buffer_of(o).stand_ins for o in ops]
    if any(c is None for c in candidates) or \
            np.prod([len(c) for c in candidates], dtype=np.int64) > most:
        return None
    walks = set()
    for layouts in itertools.product(*candidates):
        it = np.nditer(list(layouts), flags=["multi_index", "refs_ok", "zerosize_ok"])
        walks.add(tuple(tuple(int(i) for i in it.multi_index) for _ in it))
    return list(walks.pop()) if len(walks) == 1 else None


def _nditer(op, *args, **kwargs):
    """``np.nditer(...)``: NumPy's own iterator unless an operand is traced."""
    ops = op if isinstance(op, (list, tuple)) else [op]
    if not any(isinstance(o, Tracer) for o in ops):
        return np.nditer(op, *args, **kwargs)
    names = ("flags", "op_flags", "op_dtypes", "order", "casting")
    kwargs.update(zip(names, args))
    if kwargs.get("op_dtypes") is None:
        # Without dtypes to cast to, a casting rule changes nothing.
        kwargs.pop("op_dtypes", None)
        kwargs.pop("casting", None)
    return _TracedIter(op, **kwargs)


# Callables that build arrays or read their elements but are not functions NumPy's
# namespace can swap (classes): their calls in converted code go here while a trace runs
# (``traced_call``).
_CALLS = {id(np.ndarray): _ndarray, id(np.ndenumerate): _ndenumerate,
          id(np.nditer): _nditer}


def traced_call(fn):
    """What a call of ``fn`` in the user's converted code runs, when it makes an array
    that has to be a graph value while tracing (``np.ndarray(shape)``, a ufunc or ufunc
    method of a list of traced values); else None."""
    if current_builder() is None:
        return None
    if isinstance(fn, np.ufunc) or isinstance(getattr(fn, "__self__", None), np.ufunc):
        return lambda *args, **kwargs: _ufunc_call(fn, args, kwargs)
    return _CALLS.get(id(fn))


def _ufunc_call(fn, args, kwargs):
    """``np.logical_or.reduce(shifts)``, ``np.maximum([a, b], c)`` of Python lists holding
    traced values: NumPy looks for an override among the operands themselves, finds a
    list, and converts it to an array, which a traced value cannot become; here the list
    becomes the graph array NumPy would make of it first. ``ufunc.at`` writes into its
    first operand, which NumPy requires to be an array, and its index is a tuple of index
    arrays, not an array: both stay as they are."""
    kept = (0, 1) if getattr(fn, "__name__", "") == "at" else ()
    args = [api.asarray(a) if i not in kept and type(a) in (list, tuple) and _holds_tracer(a)
            else a for i, a in enumerate(args)]
    return fn(*args, **kwargs)


def _holds_tracer(seq):
    return any(isinstance(v, Tracer) or (type(v) in (list, tuple) and _holds_tracer(v))
               for v in seq)


def _traced_key(key):
    if isinstance(key, slice):
        return any(isinstance(b, Tracer) for b in (key.start, key.stop, key.step))
    if isinstance(key, (tuple, list)):
        return any(_traced_key(k) for k in key)
    return isinstance(key, Tracer)


def getitem(a, key):
    """``a[key]`` read in converted code. NumPy's own indexing of an array the function
    holds (a global table, a constant it built) cannot take a traced index, so that read
    is traced on the array's values; the array reads as read-only there, as a write
    through a view of it would change memory the graph does not hold."""
    if type(a) is np.ndarray and a.dtype.kind in "US" and current_builder() is not None and \
            _traced_key(key):
        # Text the function holds, read where the data say: made when the graph has run.
        if isinstance(key, Tracer) and key.ndim == 0 and key.dtype.kind in "iu" and \
                a.ndim == 1:
            key = _checked_position(a, key, "array")
        return printing.Text(operator.getitem, (a, key))
    if type(a) is np.ndarray and current_builder() is not None and _traced_key(key):
        return indexing.getitem(mark_readonly(api.asarray(a)), key)
    if isinstance(a, _IndexWrapper) and current_builder() is not None:
        return a._traced(a.__wrapped__, key)       # ``np.r_[...]`` in the user's code
    if type(a) in (str, list, tuple) and isinstance(key, Tracer) and key.ndim == 0 and \
            key.dtype.kind in "iu" and current_builder() is not None:
        if type(a) is str or (a and all(type(v) is str for v in a)):
            return text_at(a, key)
        return item_at(a, key)
    if isinstance(a, Tracer):
        known = _known_element(a, key)
        if known is not None:
            return known
    return a[key]


def _known_element(a, key):
    """One element of an array the trace knows (``knots[i]`` of a constant table), as NumPy
    gives it: NumPy's scalar, so that Python's decisions and arithmetic on it run as
    NumPy's, with no equation per step. None for any other read."""
    keys = key if type(key) is tuple else (key,)
    if len(keys) != a.ndim or not a.ndim or not all(
            isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_))
            for k in keys):
        return None
    known = a.known_value()
    if known is None or not all(-n <= k < n for k, n in zip(keys, known.shape)):
        return None
    return known[keys]


def _checked_position(seq, key, noun):
    n = len(seq)
    k = api.astype(key, np.int64)
    k = np.where(k < 0, k + n, k)
    inside = (k >= 0) & (k < n)
    return emit("check", [np.where(inside, k, 0), inside], {
        "error": "IndexError", "message": f"{noun} index out of range"})


def text_at(seq, key):
    """``seq[key]`` of a string, or of a list or tuple of strings (``"0123456789abcdef"[h]``,
    ``WEEKDAYS[int(d)]``), at a position known only when the graph runs: the text, made
    when the graph has run; a position out of range raises Python's IndexError."""
    noun = {str: "string"}.get(type(seq), type(seq).__name__)
    return printing.Text(operator.getitem, (seq, _checked_position(seq, key, noun)))


def item_at(seq, key):
    """``seq[key]`` of a Python list or tuple at a position known only when the graph runs
    (``coeffs[i]`` in a graph loop, ``edges[k]``): its items, numbers, NumPy scalars,
    arrays of one shape or tuples of numbers, are the rows of one array, and the item is
    the row there, of the kind the item has; a position out of range raises Python's
    IndexError."""
    noun = type(seq).__name__
    try:
        rows, item = _rows_of(seq, f"reading a Python {noun}")
    except UnsupportedError:
        # Items no array holds (objects, lists of other lengths): the one at the position
        # the data of the call being traced give, which the graph checks.
        found = assumed_value(key, f"reading a Python {noun} at a traced position")
        if found is None:
            raise
        return seq[found]
    k = _checked_position(seq, key, noun)
    return _item_of_row(indexing.getitem(rows, k), item, noun)


def items_in_order(seq, order):
    """The items of the Python list ``seq`` at the places ``order`` (a traced permutation
    of its positions) gives them: ``[seq[k] for k in order]``, the rows read at once."""
    noun = type(seq).__name__
    rows, item = _rows_of(seq, f"ordering a Python {noun}")
    rows = indexing.getitem(rows, order)
    return [_item_of_row(indexing.getitem(rows, p), item, noun) for p in range(len(seq))]


def _rows_of(seq, what):
    """The items of ``seq`` as the rows of one array, and what an item is."""
    noun = type(seq).__name__
    item = common_item(list(seq))
    rows = item is None and bool(seq) and all(type(v) is list for v in seq)
    if rows:
        # A list of lists (``clusters[int(j)].append(i)``): a failed trace runs again with
        # such lists appended to at traced positions kept as tables (``list_buckets``).
        hashed = HASHED.get()
        if hashed is not None:
            hashed.append(True)
    if item is None or item[2] == MIXED:
        error = unsupported(f"{what} at a position known only when the graph runs, where its "
                            f"items are not numbers or arrays of one kind, shape and dtype,",
                            fix=f"Make the {noun} an array (np.array(...)) before the loop, or "
                                f"index it with a Python int.")
        # A loop of a known trip count runs such a body in Python, where the index is an int.
        error.list_operation = True
        # Where the trace with tables fails too, its error says more.
        error.dict_key = rows
        if rows and not any(seq):
            # Rows not appended to yet: a loop that carries the list reads it as a table
            # (``list_buckets.untyped``).
            error.read_before_append = seq
        raise error
    return api.stack([row_of(v, item) for v in seq]), item


def _item_of_row(row, item, noun):
    kind = item[2]
    if is_tuple_kind(kind):
        return item_with_parts(kind, [element_of_kind(indexing.getitem(row, j), t)
                                      for j, t in enumerate(kind[1:])])
    if isinstance(kind, type):
        return element_of_kind(row, kind)
    if kind == "scalar":
        return Tracer(row.atom, is_scalar=True)
    # NumPy hands back the list's own array: a write into it would show in the list,
    # which here is one array the item was read from.
    value = Tracer(api.copy_(row).atom)
    buffer_of(value).unwritable = (f"an item of a Python {noun} read at a position known "
                                   f"only when the graph runs")
    return value


make_slice = slice      # for ``a[i:j]`` read through ``getitem``


def item_target(obj):
    """What a subscript assignment in converted code writes through (``a[i] = v``,
    ``a[i], a[j] = a[j], a[i]``): a Python list, while a function is traced, as
    ``_ListItems`` (which takes a position known only when the graph runs); anything else
    as itself."""
    if type(obj) is list and current_builder() is not None:
        return _ListItems(obj)
    if type(obj) is np.ndarray and obj.dtype.kind in "US" and current_builder() is not None:
        # Text is NumPy's own array while tracing, which a write under a traced `if`
        # would change on both paths.
        raise unsupported("writing into an array of text",
                          fix="Build the new text with np.where(...) or a list, or let the "
                              "function run with NumPy (fallback='numpy', the default).")
    return obj


class _ListItems:
    """A Python list as a subscript assignment writes it: at a traced position, every item
    becomes the value where the position is its own and what it held elsewhere, the list
    written in place (so every name for it sees the write, as in Python)."""

    __slots__ = ("items",)

    def __init__(self, items):
        self.items = items

    def __getitem__(self, key):        # the read of ``a[i] += v``
        return getitem(self.items, key)

    def __setitem__(self, key, value):
        if isinstance(key, Tracer) and key.ndim == 0 and key.dtype.kind in "iu":
            _set_item_at(self.items, key, value)
        else:
            self.items[key] = value


def _set_item_at(seq, key, value):
    """``seq[key] = value`` of a Python list of numbers or NumPy scalars (or tuples of
    them) of one kind and dtype, ``value`` of that kind too, at a position known only when
    the graph runs; a position out of range raises Python's IndexError."""
    if not seq:
        # Every position is out of range: Python's IndexError, where this write runs.
        emit("check", [to_tracer(0), to_tracer(False)], {
            "error": "IndexError", "message": "list assignment index out of range"})
        return
    item = common_item(list(seq))
    if item is None or item[0] != () and not is_tuple_kind(item[2]) or \
            not (isinstance(item[2], type) or item[2] == "scalar" or is_tuple_kind(item[2])) \
            or item_of(value) != item:
        found = assumed_value(key, "writing a Python list at a traced position")
        if found is not None:
            # At the position the data of the call being traced give, which the graph checks.
            seq[found] = value
            return
        error = unsupported("writing a Python list at a position known only when the graph "
                            "runs, where its items and the value written are not numbers "
                            "(or tuples of numbers) of one kind and dtype,",
                            fix="Make the list an array (np.array(...)) first, or write it at "
                                "a Python int position.")
        # A loop of a known trip count runs such a body in Python, where the index is an int.
        error.list_operation = True
        raise error
    n = len(seq)
    k = api.astype(key, np.int64)
    k = np.where(k < 0, k + n, k)
    inside = (k >= 0) & (k < n)
    k = emit("check", [np.where(inside, k, 0), inside], {
        "error": "IndexError", "message": "list assignment index out of range"})
    kind = item[2]
    for j, old in enumerate(list(seq)):
        here = k == j
        if is_tuple_kind(kind):
            seq[j] = item_with_parts(kind, [_chosen(here, v, o) for v, o in zip(value, old)])
        else:
            seq[j] = _chosen(here, value, old)


def _chosen(here, new, old):
    """``new`` where ``here`` holds, else ``old``: of one kind, which the choice keeps (the
    IR's where: a Python number stays one)."""
    out = emit("where", [here, new, old])
    return Tracer(out.atom, is_scalar=True)


def _of_text(args, kwargs):
    """Whether ``np.frombuffer``'s buffer is bytes made of traced values."""
    return isinstance(args[0] if args else kwargs.get("buffer"), printing.Text)


def _frombuffer_of_text(*args, **kwargs):
    # The bytes of the call's data, which the graph checks: NumPy's array of them, as
    # read-only as NumPy's view of bytes.
    args = list(args)
    if args:
        args[0] = args[0].made("np.frombuffer()")
    else:
        kwargs["buffer"] = kwargs["buffer"].made("np.frombuffer()")
    return mark_readonly(api.asarray(np.frombuffer(*args, **kwargs).copy()))


def _of_traced(args, kwargs):
    return isinstance(args[0] if args else kwargs.get("element"), Tracer)


def _isscalar(element):
    """``np.isscalar`` as NumPy's run sees a traced value: True of a Python number or a
    NumPy scalar (a traced ``float(...)``, ``x.sum()`` or a float argument), False of an
    array, 0-d ones included, and of a list."""
    if element.kind_flag is not None:
        raise unsupported("np.isscalar of a value that is a number or an array (or None) as "
                          "the data choose")
    return element.ndim == 0 and (element.is_scalar or element.type.weak)


_RANDOM_NAMES = [n for n in dir(np.random) if not n.startswith("_") and
                 callable(getattr(np.random, n)) and not isinstance(getattr(np.random, n), type)
                 ] + ["RandomState"]
_PATCHES = [(np, name, wrap(getattr(np, name), fn)) for name, fn in CREATION.items()] + \
           [(np.random, name, wrap(getattr(np.random, name), _refuse_random(name), probed=False))
            for name in _RANDOM_NAMES] + \
           [(np, name, _IndexWrapper(getattr(np, name), fn)) for name, fn in INDEXED.items()] + \
           [(np, name, wrap(getattr(np, name), fn, _run_time_sequence)) for name, fn in SEQUENCES.items()] + \
           [(np, "poly1d", wrap(np.poly1d, numpy_poly1d.poly1d, numpy_poly1d.takes_traced,
                                probed=False))] + \
           [(np.ma, name, wrap(getattr(np.ma, name), fn, numpy_masked.takes_traced, probed=False))
            for name, fn in numpy_masked.PATCHED.items()] + \
           [(np, "frombuffer", wrap(np.frombuffer, _frombuffer_of_text, _of_text, probed=False))] + \
           [(np, "isscalar", wrap(np.isscalar, _isscalar, _of_traced, probed=False))]
WRAPPER_OF = {id(p[2].__wrapped__): p[2] for p in _PATCHES}

_lock = threading.Lock()
_depth = 0


def _holds_tracers(x):
    return type(x) in (list, tuple) and any(isinstance(v, Tracer) or _holds_tracers(v) for v in x)


def _lists_of_tracers(args, kwargs):
    """A Python list (or tuple) holding traced values (``np.mean([a, b])``): NumPy's
    dispatch does not look inside lists, so such a call goes to nptf's version."""
    return any(_holds_tracers(a) for a in args) or \
        any(_holds_tracers(v) for v in kwargs.values())


_LIST_PATCHES = []


def _list_patches():
    """Wrappers for NumPy's top-level functions nptf implements (``IMPLS``), made once
    every implementation has registered."""
    if not _LIST_PATCHES:
        taken = {name for module, name, _ in _PATCHES if module is np}
        for name in dir(np):
            fn = getattr(np, name)
            impl = api.IMPLS.get(fn) if callable(fn) and not isinstance(fn, type) else None
            if impl is not None and name not in taken and not name.startswith("_"):
                _LIST_PATCHES.append((np, name, wrap(fn, impl, _lists_of_tracers)))
    return _LIST_PATCHES


@contextlib.contextmanager
def numpy_patched(more=()):
    """Swap in the wrappers, and the ``(module or class, name, wrapper)`` patches ``more``
    (the same ones at every trace), for the duration of a trace (re-entrant, thread-safe)."""
    global _depth
    with _lock:
        if _depth == 0:
            for module, name, wrapper in _PATCHES + list(more) + _list_patches():
                setattr(module, name, wrapper)
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                for module, name, wrapper in _PATCHES + list(more) + _list_patches():
                    setattr(module, name, wrapper.__wrapped__)


def _replacement(value, memo):
    wrapper = WRAPPER_OF.get(id(value))
    if wrapper is not None:
        return wrapper
    if isinstance(value, types.FunctionType) and _is_user_code(value):
        return rebind(value, memo)
    return value


def _is_user_code(fn) -> bool:
    module = getattr(fn, "__module__", "") or ""
    return module.split(".")[0] not in ("numpy", "nptf", "tensorflow", "builtins") and \
        any(id(v) in WRAPPER_OF for v in fn.__globals__.values())


def rebind(fn, memo=None):
    """``fn`` with directly imported NumPy creation functions (``from numpy import zeros``)
    replaced by their wrappers; a no-op copy-free return when there are none."""
    memo = {} if memo is None else memo
    if not isinstance(fn, types.FunctionType):   # NumPy's own functions, builtins, callables
        return fn
    if id(fn) in memo:
        return memo[id(fn)]
    if not _is_user_code(fn) and not (fn.__closure__ and any(
            id(_cell_value(c)) in WRAPPER_OF for c in fn.__closure__)):
        return fn
    old_globals = fn.__globals__
    new_globals = memo.get(("globals", id(old_globals)))
    fresh = new_globals is None
    if fresh:
        new_globals = dict(old_globals)
        memo[("globals", id(old_globals))] = new_globals
    closure = fn.__closure__
    if closure:
        closure = tuple(_new_cell(c, memo) for c in closure)
    new_fn = types.FunctionType(fn.__code__, new_globals, fn.__name__, fn.__defaults__, closure)
    new_fn.__kwdefaults__ = fn.__kwdefaults__
    new_fn.__dict__.update(fn.__dict__)
    memo[id(fn)] = new_fn
    if fresh:
        for name, value in old_globals.items():
            new_globals[name] = new_fn if value is fn else _replacement(value, memo)
    return new_fn


def _cell_value(cell):
    try:
        return cell.cell_contents
    except ValueError:
        return None


def _new_cell(cell, memo):
    try:
        value = cell.cell_contents
    except ValueError:  # a cell not yet filled (e.g. a recursive inner function)
        return cell
    return types.CellType(_replacement(value, memo))
