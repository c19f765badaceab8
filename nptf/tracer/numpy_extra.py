"""Array manipulation composed from traced NumPy: append/delete/insert/resize, the
split helpers, ``unstack``/``rollaxis``, sliding windows, index helpers, ``choose``,
the mutating ``put_along_axis``/``fill_diagonal``, shape/dtype queries,
``apply_along_axis``/``apply_over_axes`` and ``unpackbits``.

Where NumPy's rules for an argument are intricate (which positions ``np.delete``
keeps, where ``np.insert`` puts each value), NumPy itself computes a static index
map on ``np.arange`` and the traced data is gathered through it, so every corner
case and error is NumPy's own. A map of few runs of consecutive positions is taken
as slices instead (``_take_runs``). Sliding windows are a stack of shifted slices (a
gather for windows of more than ``SHIFTED_UP_TO`` elements in all).
"""
from __future__ import annotations

import operator

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from ..errors import unsupported, user_location, with_location
from . import numpy_api as api
from .convert import converted
from .indexing import constant_value, getitem, traced_target, write
from .numpy_api import (axis_index, reject, sample_of, astype, broadcast_to, concatenate,
                        implements, moveaxis, ravel, reshape_to, transpose)
from .numpy_misc import SHIFTED_UP_TO
from .numpy_sorting import take
from .tracer import Tracer, concrete_dim, emit, numpy_says, to_tracer
from .views import buffer_of, derived_view, mark_readonly

_INTP = np.dtype(np.intp)


def shaped_sample(t, dtype=None):
    """A zero array of ``t``'s exact shape that owns one element of memory: NumPy checks
    shapes and dtypes against it as against ``t``."""
    t = to_tracer(t)
    shape = tuple(concrete_dim(t, i, "this function") for i in range(t.ndim))
    return np.broadcast_to(np.zeros((), t.dtype if dtype is None else dtype), shape)


def static_index(obj, call):
    """``obj`` as a NumPy value, or ``unsupported`` when it is only known at run time."""
    obj = constant_value(obj)
    if isinstance(obj, Tracer) or (isinstance(obj, (list, tuple)) and api.contains_tracer(obj)):
        raise unsupported(call, fix="Pass the indices as Python ints, slices or a NumPy array.")
    return obj


def _along(ndim, axis, index):
    key = [slice(None)] * ndim
    key[axis] = index
    return tuple(key)


# A static index map with up to this many runs of consecutive positions is taken as
# that many slices (a ``take_slices`` op): a gather through a constant table as long
# as the result costs the plain executor 7-9 times NumPy's time on 1e6 elements, the
# slices about 3 times.
_MAX_PIECES = 64


def _take_runs(sources, table, axis):
    """``concatenate(sources, axis)`` gathered at the static positions ``table`` along
    ``axis``: the slices of the sources that the table's runs of consecutive positions
    cover, where the runs are few; a strided slice where the positions are evenly
    spaced; one gather through the table otherwise."""
    table = np.asarray(table, np.int64).ravel()
    ndim = sources[0].ndim
    starts = np.cumsum([0] + [s.shape[axis] for s in sources])
    if table.size == 0:
        return api.copy_(sources[0][_along(ndim, axis, slice(0, 0))])
    # Runs end where the next position is not one further, or starts another source.
    ends = np.flatnonzero((np.diff(table) != 1) | np.isin(table[1:], starts[1:-1])) + 1
    bounds = np.concatenate([[0], ends, [table.size]])
    source = np.searchsorted(starts, table, side="right") - 1
    if len(bounds) - 1 <= _MAX_PIECES:
        pieces = tuple((int(source[b]), int(table[b] - starts[source[b]]),
                        int(table[b] - starts[source[b]] + e - b))
                       for b, e in zip(bounds[:-1], bounds[1:]))
        if len(pieces) == 1:
            k, start, stop = pieces[0]
            return api.copy_(sources[k][_along(ndim, axis, slice(start, stop))])
        used = sorted({k for k, _, _ in pieces})
        pieces = tuple((used.index(k), start, stop) for k, start, stop in pieces)
        return emit("take_slices", [sources[k] for k in used], {"axis": axis, "pieces": pieces})
    step = int(table[1] - table[0])
    if step > 1 and (np.diff(table) == step).all() and source[0] == source[-1]:
        begin = int(table[0] - starts[source[0]])
        key = slice(begin, begin + (table.size - 1) * step + 1, step)
        return api.copy_(sources[source[0]][_along(ndim, axis, key)])
    whole = sources[0] if len(sources) == 1 else concatenate(sources, axis)
    return take(whole, table, axis)


# ---------------------------------------------------------- append, delete, insert
@implements(np.append)
def append(arr, values, axis=None):
    arr, values = to_tracer(arr), to_tracer(values)
    if axis is None:
        arr = arr if arr.ndim == 1 else ravel(arr)
        values, axis = ravel(values), arr.ndim - 1
    return concatenate((arr, values), axis=axis)


def _along_axis(arr, obj, axis, name):
    """``(array, static obj, axis, length)``: axis=None works on the flattened array."""
    a = to_tracer(arr)
    obj = static_index(obj, f"np.{name}(..., obj=<traced array>)")
    if axis is None:
        a, axis = (a if a.ndim == 1 else ravel(a)), 0
    axis = axis_index(axis, a.ndim)
    return a, obj, axis, concrete_dim(a, axis, f"np.{name}")


@implements(np.delete)
def delete(arr, obj, axis=None):
    position = constant_value(obj)
    if isinstance(position, Tracer) and position.ndim == 0 and position.dtype.kind in "iu":
        return _delete_one(arr, position, axis)
    if type(obj) in (tuple, list) and any(isinstance(v, Tracer) for v in obj):
        # ``np.delete(x, np.where(x > t))``: NumPy makes an array of the sequence.
        position = api.asarray(obj)
    if isinstance(position, Tracer) and position.ndim >= 1 and position.dtype.kind in "iu":
        return _delete_at(arr, ravel(position), axis)
    if isinstance(position, Tracer) and position.ndim == 1 and position.dtype.kind == "b":
        return _delete_at(arr, position, axis)
    a, obj, axis, n = _along_axis(arr, obj, axis, "delete")
    # The positions NumPy keeps along the axis (its own index rules and errors).
    kept = numpy_says(np.delete, np.arange(n).reshape((1,) * axis + (n,)), obj, axis).ravel()
    if kept.size == n:
        return api.copy_(a)
    return _take_runs([a], kept, axis)


def _delete_at(arr, obj, axis):
    """``np.delete(arr, obj, axis)`` of positions (or a mask) known only at run time
    (``np.delete(x, np.where(x > t))``, indices a search found): the elements kept along
    the axis, as many as the data leave. NumPy's errors when the graph runs: an index
    outside the axis (IndexError), a mask of another length (ValueError)."""
    a = to_tracer(arr)
    if axis is None:
        a, axis = (a if a.ndim == 1 else ravel(a)), 0
    axis = axis_index(axis, a.ndim)
    n = a.shape[axis]
    size = n if n is not None else emit("dim", [a], {"axis": axis})
    if obj.dtype.kind == "b":
        if n is not None and obj.shape[0] is not None and obj.shape[0] != n:
            raise ValueError(f"boolean array argument obj to delete must be one dimensional "
                             f"and match the axis length of {n}\n  at {user_location()}")
        keep = np.logical_not(obj)
        if n is None or obj.shape[0] is None:
            keep = emit("check", [keep, emit("dim", [obj], {"axis": 0}) == size], {
                "error": "ValueError",
                "message": f"boolean array argument obj to delete must be one dimensional "
                           f"and match the axis length of the array\n  at {user_location()}"})
    else:
        i = astype(obj, np.int64)
        i = emit("check", [i, np.all(np.logical_and(i >= -size, i < size))], {
            "error": "IndexError",
            "message": f"index out of bounds for axis {axis} (np.delete)\n"
                       f"  at {user_location()}"})
        keep = api.ones((n if n is not None else size,), bool)
        keep[np.where(i < 0, i + size, i)] = False
    return getitem(a, (slice(None),) * axis + (keep,))


def _delete_one(arr, position, axis):
    """``np.delete(arr, i, axis)`` of one position ``i`` known only at run time (a
    leave-one-out loop): the positions kept along the axis, all but ``i``, gathered; a
    position outside the axis raises NumPy's IndexError when the graph runs."""
    a = to_tracer(arr)
    if axis is None:
        a, axis = (a if a.ndim == 1 else ravel(a)), 0
    axis = axis_index(axis, a.ndim)
    n = concrete_dim(a, axis, "np.delete")
    i = astype(position, np.int64)
    i = emit("check", [i, np.logical_and(i >= -n, i < n)], {
        "error": "IndexError",
        "message": f"index out of bounds for axis {axis} with size {n}"})
    i = np.where(i < 0, i + n, i)
    kept = api.arange(max(n - 1, 0), dtype=np.int64)
    kept = kept + astype(kept >= i, np.int64)
    return take(a, kept, axis)


def _insert_positions(n, obj, numnew):
    """Where NumPy's insert sends old element ``i`` (``i < n``) and new element ``n + j``."""
    return numpy_says(np.insert, np.arange(n), obj, n + np.arange(numnew))


@implements(np.insert)
def insert(arr, obj, values, axis=None):
    a, obj, axis, n = _along_axis(arr, obj, axis, "insert")
    numpy_says(np.insert, np.arange(n), obj, 0)   # NumPy's checks of obj, before values
    if isinstance(obj, slice):
        indices = np.arange(*obj.indices(n))
    else:
        indices = np.array(obj)
        indices = np.flatnonzero(indices) if indices.dtype == bool else indices
    values = to_tracer(values)
    numpy_says(np.asarray, sample_of(values.atom), dtype=a.dtype)
    values = astype(values, a.dtype)
    if indices.size == 1:
        index = int(indices.item())
        index = index + n if index < 0 else index
        if values.ndim < a.ndim:
            values = reshape_to(values, (1,) * (a.ndim - values.ndim) + values.shape)
        if indices.ndim == 0:
            # A scalar obj inserts values[i] as a slice along the axis (NumPy moves axis 0 there).
            values = moveaxis(values, 0, axis)
        numnew = values.shape[axis]
        block = broadcast_to(values, a.shape[:axis] + (numnew,) + a.shape[axis + 1:])
        pieces = [a[_along(a.ndim, axis, slice(None, index))], block,
                  a[_along(a.ndim, axis, slice(index, None))]]
        return concatenate(pieces, axis)
    numnew = indices.size
    block = broadcast_to(values, a.shape[:axis] + (numnew,) + a.shape[axis + 1:])
    return _take_runs([a, block], _insert_positions(n, obj, numnew), axis)


@implements(np.resize)
def resize(a, new_shape):
    a = ravel(a)
    shape = (operator.index(new_shape),) if isinstance(new_shape, (int, np.integer)) else \
        tuple(operator.index(d) for d in new_shape)
    if any(d < 0 for d in shape):
        raise ValueError(f"all elements of `new_shape` must be non-negative\n  at {user_location()}")
    size = int(np.prod(shape, dtype=np.int64))
    n = concrete_dim(a, 0, "np.resize")
    if n == 0 or size == 0:
        return api.zeros(shape, a.dtype)
    # NumPy repeats the flattened data cyclically to fill the new shape: copies of it
    # end to end, cut at the size.
    whole = api.tile(a, -(-size // n))
    return reshape_to(api.copy_(whole[:size]) if size % n else whole, shape)


# ----------------------------------------------------------------- splitting
_SPLITS = {"hsplit": (1, None), "vsplit": (2, 0), "dsplit": (3, 2)}   # (min ndim, axis)


def _split_along(name):
    min_ndim, axis = _SPLITS[name]
    words = "1 or more dimensions" if min_ndim == 1 else f"{min_ndim} or more dimensions"

    def split_(ary, indices_or_sections):
        a = to_tracer(ary)
        if a.ndim < min_ndim:
            raise ValueError(f"{name} only works on arrays of {words}\n  at {user_location()}")
        along = axis if axis is not None else (1 if a.ndim > 1 else 0)
        return api.split(a, indices_or_sections, along)     # checks the equal division
    split_.__name__ = name
    return split_


for _name in _SPLITS:
    implements(getattr(np, _name))(_split_along(_name))


@implements(np.unstack)
def unstack(x, /, *, axis=0):
    x = to_tracer(x)
    if x.ndim == 0:
        raise ValueError(f"Input array must be at least 1-d.\n  at {user_location()}")
    x = moveaxis(x, axis, 0)
    return tuple(x[i] for i in range(concrete_dim(x, 0, "np.unstack")))


# ------------------------------------------------------------- axes and views
@implements(np.rollaxis)
def rollaxis(a, axis, start=0):
    a = to_tracer(a)
    n = a.ndim
    axis = axis_index(axis, n)
    start = operator.index(start)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise with_location(np.exceptions.AxisError(
            f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in"), user_location())
    if axis < start:
        start -= 1
    if axis == start:
        return getitem(a, (Ellipsis,))
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return transpose(a, axes)


@implements(np.lib.stride_tricks.sliding_window_view)
def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    if writeable:
        raise unsupported("sliding_window_view(..., writeable=True)",
                          fix="Windows that alias the input cannot be written to in a graph.")
    x = to_tracer(x)
    sample = shaped_sample(x)
    # NumPy's checks and result shape, on a stand-in of x's shape.
    shape = numpy_says(np.lib.stride_tricks.sliding_window_view, sample, window_shape,
                        axis).shape
    windows_shape = tuple(window_shape) if np.iterable(window_shape) else (window_shape,)
    axes = range(x.ndim) if axis is None else normalize_axis_tuple(axis, x.ndim,
                                                                    allow_duplicate=True)

    def windows(x):
        if not int(np.prod(shape)):
            return api.zeros(shape, x.dtype)
        if sum(operator.index(w) for w in windows_shape) <= SHIFTED_UP_TO:
            out = x
            for ax, w in zip(axes, windows_shape):
                out = _windows_along(out, ax, operator.index(w))
            return out
        # Which element of x each window element is: NumPy's own windows of x's flat
        # positions.
        positions = np.lib.stride_tricks.sliding_window_view(
            np.arange(sample.size, dtype=_INTP).reshape(sample.shape), window_shape, axis)
        return take(ravel(x), positions, 0)

    # NumPy's windows are read-only views of x: a read after a write into x computes
    # them again.
    out = derived_view(x, Tracer(windows(x).atom), windows, "sliding_window_view(...)")
    return mark_readonly(out)


@implements(np.unpackbits)
def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """Each byte's bits, shifted out and masked, on a new axis merged into ``axis``."""
    if isinstance(count, Tracer):
        raise unsupported("np.unpackbits with a traced count")
    a = to_tracer(a)
    # NumPy's checks (uint8 only, the axis, the bit order) and result shape, on a stand-in.
    shape = numpy_says(np.unpackbits, shaped_sample(a), axis=axis, count=count,
                       bitorder=bitorder).shape
    if axis is None:
        a, axis = ravel(a), 0
    moved = moveaxis(a, axis_index(axis, a.ndim), -1)
    shifts = np.arange(7, -1, -1, dtype=np.uint8) if bitorder in ("big", "b") else \
        np.arange(8, dtype=np.uint8)
    bits = (reshape_to(moved, moved.shape + (1,)) >> shifts) & np.uint8(1)
    bits = reshape_to(bits, moved.shape[:-1] + (moved.shape[-1] * 8,))
    target = shape[axis_index(axis, len(shape))]
    if target <= bits.shape[-1]:
        bits = getitem(bits, (Ellipsis, slice(0, target)))
    else:       # a count past the bits there are: zeros after them
        bits = concatenate([bits, api.zeros(bits.shape[:-1] + (target - bits.shape[-1],),
                                            np.uint8)], axis=-1)
    return moveaxis(bits, -1, axis_index(axis, len(shape)))


@implements(np.packbits)
def packbits(a, /, axis=None, bitorder="big"):
    """Each run of eight elements along ``axis`` (nonzero: a 1 bit), the last padded with
    zeros, as one uint8: the bits times their weights, summed."""
    a = to_tracer(a)
    # NumPy's checks (integers or bools only, the axis, the bit order) and result shape.
    shape = numpy_says(np.packbits, shaped_sample(a), axis=axis, bitorder=bitorder).shape
    if axis is None:
        a, axis = ravel(a), 0
    moved = moveaxis(a, axis_index(axis, a.ndim), -1)
    n = moved.shape[-1]
    bits = astype(moved != 0, np.uint8)
    if n % 8:
        bits = concatenate([bits, api.zeros(bits.shape[:-1] + (8 - n % 8,), np.uint8)],
                           axis=-1)
    bits = reshape_to(bits, bits.shape[:-1] + (bits.shape[-1] // 8, 8))
    weights = np.uint8(1) << (np.arange(7, -1, -1, dtype=np.uint8) if bitorder in ("big", "b")
                              else np.arange(8, dtype=np.uint8))
    packed = np.sum(bits * weights, axis=-1, dtype=np.uint8)
    return moveaxis(packed, -1, axis_index(axis, len(shape)))


def _windows_along(x, axis, width):
    """The windows of ``width`` elements along ``axis`` of ``x``, on a new last axis: a
    stack of ``width`` slices of ``x``, each starting one element further."""
    count = x.shape[axis] - width + 1
    return api.stack([api.basic_getitem(x, _along(x.ndim, axis, slice(j, j + count)))
                      for j in range(width)], axis=-1)


# ------------------------------------------------------------- index helpers
@implements(np.ix_)
def ix_(*args):
    out = []
    for k, new in enumerate(args):
        new = constant_value(new)
        if not isinstance(new, Tracer):
            new = np.asarray(new)
            new = new.astype(_INTP) if new.size == 0 else new
        if new.ndim != 1:
            raise ValueError(f"Cross index must be 1 dimensional\n  at {user_location()}")
        t = to_tracer(np.nonzero(new)[0] if new.dtype == np.bool_ else new)
        out.append(reshape_to(t, (1,) * k + (t.shape[0],) + (1,) * (len(args) - k - 1)))
    return tuple(out)


@implements(np.diag_indices_from)
def diag_indices_from(arr):
    arr = to_tracer(arr)
    shape = shaped_sample(arr).shape
    if arr.ndim < 2:
        raise ValueError(f"input array must be at least 2-d\n  at {user_location()}")
    if len(set(shape)) != 1:
        raise ValueError(f"All dimensions of input must be of equal length\n  at {user_location()}")
    idx = to_tracer(np.arange(shape[0]))
    return (idx,) * arr.ndim


@implements(np.choose)
def choose(a, choices, out=None, mode="raise"):
    reject("choose", out=out)
    a = to_tracer(a)
    if isinstance(choices, Tracer):
        options = [choices[i] for i in range(concrete_dim(choices, 0, "np.choose"))]
    else:
        options = [to_tracer(c) for c in choices]
    # NumPy's result: dtype, broadcast shape, scalar-ness, and its errors for bad arguments.
    probe = numpy_says(np.choose, shaped_sample(a), [
        sample_of(o.atom) if o.type.weak else shaped_sample(o) for o in options], mode=mode)
    n = len(options)
    index = astype(a, _INTP)
    if mode in ("wrap", "clip"):
        index = index % n if mode == "wrap" else np.clip(index, 0, n - 1)
    else:
        index = emit("check", [index, (index >= 0) & (index < n)],
                     {"message": "invalid entry in choice array", "error": "ValueError"})
    result = astype(options[-1], probe.dtype)
    for i in range(n - 2, -1, -1):
        result = np.where(index == i, astype(options[i], probe.dtype), result)
    result = broadcast_to(result, probe.shape)
    return Tracer(result.atom, is_scalar=isinstance(probe, np.generic))


# ------------------------------------------------------------------- mutation
def _cycled(values, count):
    """``values`` flattened and repeated to ``count`` elements, as flat assignment does."""
    values = ravel(values)
    size = values.shape[0]
    return values if size == count else take(values, np.arange(count) % size, 0)


@implements(np.put_along_axis)
def put_along_axis(arr, indices, values, axis):
    arr = traced_target(arr, "np.put_along_axis")
    indices = indices if isinstance(indices, Tracer) else np.asarray(indices)
    flat = axis is None
    if flat:
        if indices.ndim != 1:
            raise ValueError(f"when axis=None, `indices` must have a single dimension.\n"
                             f"  at {user_location()}")
        shape = (arr.size,)
        axis = 0
    else:
        axis = axis_index(axis, arr.ndim)
        shape = shaped_sample(arr).shape
    if indices.dtype.kind not in "iu":
        raise IndexError(f"`indices` must be an integer array\n  at {user_location()}")
    if len(shape) != indices.ndim:
        raise ValueError(f"`indices` and `arr` must have the same number of dimensions\n"
                         f"  at {user_location()}")
    if flat:
        return _put_flat(arr, indices, values)
    # NumPy's fancy index: the given indices along axis, an open grid on every other axis.
    key = tuple(indices if dim == axis else
                np.arange(n).reshape((1,) * dim + (-1,) + (1,) * (len(shape) - dim - 1))
                for dim, n in enumerate(shape))
    write(arr, key, values, what="np.put_along_axis")


def _put_flat(arr, indices, values):
    """``axis=None``: NumPy writes through ``np.array(arr.flat)``, the array's own memory when
    it is C-contiguous and a read-only copy otherwise."""
    stand_ins = buffer_of(arr).stand_ins
    contiguous = {s.flags.c_contiguous for s in stand_ins or ()}
    if stand_ins is None or len(contiguous) != 1:
        raise unsupported("np.put_along_axis(..., axis=None) on an array whose size or memory "
                          "layout is known only at run time")
    if not contiguous.pop():
        raise ValueError(f"assignment destination is read-only\n  at {user_location()}")
    write(ravel(arr), (indices,), values, what="np.put_along_axis")


@implements(np.fill_diagonal)
def fill_diagonal(a, val, wrap=False):
    traced_target(a, "np.fill_diagonal")
    if a.ndim < 2:
        raise ValueError(f"array must be at least 2-d\n  at {user_location()}")
    shape = shaped_sample(a).shape
    end = None
    if a.ndim == 2:
        step = shape[1] + 1
        if not wrap:
            end = shape[1] * shape[1]
    else:
        if len(set(shape)) != 1:
            raise ValueError(f"All dimensions of input must be of equal length\n  at {user_location()}")
        step = 1 + int(np.cumprod(shape[:-1]).sum())
    flat = np.arange(int(np.prod(shape)))[:end:step]
    val = to_tracer(val)
    if flat.size == 0 or val.size == 0:
        return
    write(a, np.unravel_index(flat, shape), _cycled(val, flat.size), what="np.fill_diagonal")


# -------------------------------------------------------- shape and dtype queries
@implements(np.ndim)
def ndim(a):
    return to_tracer(a).ndim


def _run_time_dims(a):
    """``a.shape`` as the user's code reads it: sizes known only at run time traced."""
    return tuple(d if d is not None else emit("dim", [a], {"axis": i})
                 for i, d in enumerate(a.type.shape))


@implements(np.shape)
def shape(a):
    if isinstance(a, Tracer) and None in a.type.shape:
        return _run_time_dims(a)
    return shaped_sample(a).shape


@implements(np.size)
def size(a, axis=None):
    if isinstance(a, Tracer) and None in a.type.shape:
        dims = _run_time_dims(a)
        if axis is not None:
            numpy_says(np.size, np.empty((1,) * a.ndim), axis)     # NumPy's error for the axis
            return dims[axis]
        out = 1
        for d in dims:
            out = out * d
        return out
    return numpy_says(np.size, shaped_sample(a), axis)


@implements(np.astype)
def astype_(x, dtype, /, *, copy=True, device=None):
    if device is not None and device != "cpu":
        raise ValueError(f'Device not understood. Only "cpu" is allowed, but received: {device}'
                         f"\n  at {user_location()}")
    return astype(x, dtype, copy=copy)


@implements(np.result_type)
def result_type(*arrays_and_dtypes):
    return numpy_says(np.result_type, *[sample_of(x.atom) if isinstance(x, Tracer) else x
                                         for x in arrays_and_dtypes])


@implements(np.can_cast)
def can_cast(from_, to, casting="safe"):
    if isinstance(from_, Tracer):
        from_ = sample_of(from_.atom)
        from_ = from_ if isinstance(from_, (bool, int, float, complex)) else from_.dtype
    return numpy_says(np.can_cast, from_, to.dtype if isinstance(to, Tracer) else to, casting)


@implements(np.min_scalar_type)
def min_scalar_type(a):
    a = to_tracer(a)
    if a.ndim == 0:
        raise unsupported("np.min_scalar_type of a traced scalar",
                          fix="Its answer depends on the value, which is known only at run time.")
    return a.dtype


@implements(np.common_type)
def common_type(*arrays):
    return numpy_says(np.common_type, *[np.zeros(0, to_tracer(a).dtype) for a in arrays])


# ------------------------------------------------------------ function application
@implements(np.apply_along_axis)
def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    arr = to_tracer(arr)
    axis = axis_index(axis, arr.ndim)
    moved = moveaxis(arr, axis, -1)
    outer = shaped_sample(moved).shape[:-1]
    if 0 in outer:
        raise ValueError(f"Cannot apply_along_axis when any iteration dimensions are 0\n"
                         f"  at {user_location()}")
    # The user's function as converted code runs it (``int(index)`` of a traced value,
    # an `if` on one); each result as NumPy's ``asanyarray`` makes it (a Python int is
    # int64, not weak).
    func1d = converted(func1d)
    results = [api.asarray(func1d(moved[index + (Ellipsis,)], *args, **kwargs))
               for index in np.ndindex(outer)]
    first = results[0]
    results = [broadcast_to(astype(r, first.dtype), first.shape) for r in results]
    buff = reshape_to(api.stack(results), outer + first.shape)
    # The function's own axes go where the iterated axis was, as in NumPy.
    dims = list(range(buff.ndim))
    inner = buff.ndim - first.ndim
    return transpose(buff, dims[:axis] + dims[inner:] + dims[axis:inner])


@implements(np.apply_over_axes)
def apply_over_axes(func, a, axes):
    val = to_tracer(a)
    n = val.ndim
    for axis in (axes,) if np.ndim(axes) == 0 else axes:
        axis = n + axis if axis < 0 else axis
        res = to_tracer(func(val, axis))
        if res.ndim != val.ndim:
            res = api.expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError(f"function is not returning an array of the correct shape\n"
                                 f"  at {user_location()}")
        val = res
    return val
