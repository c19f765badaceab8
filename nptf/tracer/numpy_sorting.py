"""Sorting and searching: sort, argsort, partition, lexsort, searchsorted, isin, digitize.

Every sort is the stable ``argsort`` op followed by a gather, so NaN goes
last and equal elements keep their order, as NumPy's ``kind="stable"``.
Where NumPy's answer is its implementation's arrangement (the default-kind
argsort of equal elements, ``partition``/``argpartition``), the graph asks
NumPy (the ``numpy_order`` op).
"""
from __future__ import annotations

import numpy as np

from ..errors import unsupported, user_location
from .indexing import dim_size, same_size
from .numpy_api import (axis_index, reject, sample_of, astype, broadcast_to, concatenate,
                        implements, ravel, reshape)
from .tracer import Tracer, dim_of, emit, ndim_of, numpy_says, to_tracer

_KINDS = (None, "quicksort", "mergesort", "heapsort", "stable")


def _sortable(a, name):
    # A size known only at run time is fine: the sort kernel reads it when it runs.
    if a.dtype.kind == "c" and name == "searchsorted":
        raise unsupported(f"np.{name} of complex arrays")


def _sort_axis(a, axis, name):
    """``(a, axis)`` with ``axis=None`` meaning the flattened array, as NumPy does."""
    a = to_tracer(a)
    _sortable(a, name)
    if axis is None:
        return ravel(a), 0
    return a, axis_index(axis, a.ndim)


def _check_kind(kind, name):
    if kind not in _KINDS:
        # NumPy's own message for an unknown kind.
        numpy_says(getattr(np, name), np.zeros(1), kind=kind)


def argsort_along(a, axis):
    if a.dtype.kind == "c":
        # NumPy's complex order: lexicographic on (real, imag); R+nanj, nan+Rj and nan+nanj
        # follow all other values, in that order. Stable sorts from the least significant key.
        re, im = np.real(a), np.imag(a)
        nan_class = astype(np.isnan(re), np.int8) * 2 + astype(np.isnan(im), np.int8)
        order = argsort_along(im, axis)
        for key in (re, nan_class):
            order = take_along(order, argsort_along(take_along(key, order, axis), axis), axis)
        return order
    return emit("argsort", [a], {"axis": axis})


def take_along(a, indices, axis):
    return emit("take_along_axis", [a, indices], {"axis": axis % max(a.ndim, 1)})


def take(a, indices, axis):
    """``np.take`` for indices known to be in range (built by nptf, not by the user)."""
    return emit("take", [a, astype(indices, np.intp)], {"axis": axis % max(a.ndim, 1)})


@implements(np.argsort)
def argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    reject("argsort", order=order)
    _check_kind(kind, "argsort")
    if ndim_of(a) == 0 and not isinstance(axis, tuple) and axis in (0, -1):     # NumPy reads a 0-d array as one element
        axis = None
    a, axis = _sort_axis(a, axis, "argsort")
    if kind in ("mergesort", "stable") or stable or a.shape[axis] in (0, 1):
        return argsort_along(a, axis)
    if a.dtype.kind == "c":
        return _without_ties(a, argsort_along(a, axis), axis)
    return numpy_order("argsort", a, axis)


def _without_ties(a, order, axis):
    """``order``, checked when the graph runs to sort no two equal elements (NaNs among
    them): complex values, whose order NumPy's own call would have to give too, run the
    call with NumPy where there are ties."""
    s = take_along(a, order, axis)
    upper = s[(slice(None),) * axis + (slice(1, None),)]
    lower = s[(slice(None),) * axis + (slice(None, -1),)]
    tie = (upper == lower) | (np.isnan(upper) & np.isnan(lower))
    ok = np.logical_not(np.any(tie))
    return emit("check", [order, ok], {
        "error": "OutsideTheGraph", "when_read": True, "message": _ties_message()})


def _ties_message():
    return (f"np.argsort of values with ties at {user_location()}: NumPy's default sort "
            f"orders equal elements as its implementation does (kind='stable' gives an "
            f"order nptf reproduces)")


def numpy_order(fn, a, axis, kth=None):
    """NumPy's own arrangement (the ``numpy_order`` op): equal elements after NumPy's
    default sort, the elements off ``kth`` after its partition."""
    if kth is not None:
        kth = tuple(int(k) for k in np.ravel(kth))
    return emit("numpy_order", [a], {"fn": fn, "axis": axis, "kth": kth,
                                     "message": _ties_message() if fn == "argsort" else ""})


@implements(np.sort)
def sort(a, axis=-1, kind=None, order=None, *, stable=None):
    reject("sort", order=order)
    _check_kind(kind, "sort")
    a, axis = _sort_axis(a, axis, "sort")
    return take_along(a, argsort_along(a, axis), axis)


def _check_kth(a, kth, axis, name):
    if isinstance(kth, Tracer):
        raise unsupported(f"np.{name} with a traced kth")
    if a.shape[axis] is None:
        # NumPy's kth bounds check needs the length now.
        raise unsupported(f"np.{name} along a dimension of unknown size")
    # NumPy validates kth against the axis length; a 1-D sample of that length is enough.
    numpy_says(getattr(np, name), np.zeros(a.shape[axis], a.dtype), kth)


@implements(np.partition)
def partition(a, kth, axis=-1, kind="introselect", order=None):
    reject("partition", order=order)
    a, axis = _sort_axis(a, axis, "partition")
    _check_kth(a, kth, axis, "partition")
    if a.shape[axis] in (0, 1):
        return sort(a, axis)
    return numpy_order("partition", a, axis, kth)


@implements(np.argpartition)
def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    reject("argpartition", order=order)
    a, axis = _sort_axis(a, axis, "argpartition")
    _check_kth(a, kth, axis, "argpartition")
    if a.shape[axis] in (0, 1):
        return argsort_along(a, axis)
    return numpy_order("argpartition", a, axis, kth)


@implements(np.lexsort)
def lexsort(keys, axis=-1):
    """Stable sorts from the least to the most significant key (the last one)."""
    keys = [to_tracer(k) for k in (keys if isinstance(keys, (list, tuple)) else to_tracer(keys))]
    if not keys:
        raise TypeError(f"need sequence of keys with len > 0 in lexsort\n  at {user_location()}")
    if len({k.shape for k in keys}) > 1:
        raise ValueError(f"all keys need to be the same shape\n  at {user_location()}")
    for k in keys:
        _sortable(k, "lexsort")
        # Keys of run-time sizes must surely match keys[0]: NumPy raises otherwise.
        if not all(same_size(k, i, keys[0], i) for i in range(k.ndim)):
            raise unsupported("np.lexsort of keys whose sizes are only known at run time")
    if keys[0].ndim == 0:
        raise np.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension 0")
    axis = axis_index(axis, keys[0].ndim)
    order = argsort_along(keys[0], axis)
    for k in keys[1:]:
        order = take_along(order, argsort_along(take_along(k, order, axis), axis), axis)
    return order


@implements(np.take_along_axis)
def take_along_axis(arr, indices, axis=-1):
    arr, indices = to_tracer(arr), to_tracer(indices)
    if indices.dtype.kind not in "iu":
        raise IndexError(f"`indices` must be an integer array\n  at {user_location()}")
    if axis is None:
        if indices.ndim != 1:
            raise ValueError(f"when axis=None, `indices` must have a single dimension.\n"
                             f"  at {user_location()}")
        arr, axis = ravel(arr), 0
    if arr.ndim != indices.ndim:
        raise ValueError(f"`indices` and `arr` must have the same number of dimensions\n"
                         f"  at {user_location()}")
    axis = axis_index(axis, arr.ndim)
    n = arr.shape[axis]
    if n is None:
        raise unsupported("np.take_along_axis along a dimension of unknown size")
    shape = tuple(indices.shape[axis] if i == axis else d for i, d in enumerate(
        numpy_says(np.broadcast_shapes, *[tuple(1 if i == axis else d for i, d in enumerate(s))
                                           for s in (arr.shape, indices.shape)])))
    idx = broadcast_to(astype(indices, np.intp), shape)
    idx = np.where(idx < 0, idx + n, idx)  # NumPy counts negative indices from the end
    in_range = (idx >= 0) & (idx < n)
    idx = emit("check", [idx, in_range], {"message": f"index out of bounds for axis {axis} with "
                                                     f"size {n}", "error": "IndexError"})
    base = broadcast_to(arr, tuple(n if i == axis else d for i, d in enumerate(shape)))
    return take_along(base, idx, axis)


@implements(np.searchsorted)
def searchsorted(a, v, side="left", sorter=None):
    a, v = to_tracer(a), to_tracer(v)
    if side not in ("left", "right"):
        numpy_says(np.searchsorted, np.zeros(1), 0, side=side)
    if a.ndim != 1:
        raise ValueError(f"object too deep for desired array\n  at {user_location()}")
    _sortable(a, "searchsorted")
    if v.dtype.kind == "c":
        raise unsupported("np.searchsorted of complex values")
    if sorter is not None:
        a = take(a, to_tracer(sorter), 0)
    return search(a, v, side)


def search(a, v, side):
    """``np.searchsorted`` in 1-D real ``a``, whose size may be known only at run time."""
    return emit("searchsorted", [a, v], {"side": side}, scalar=v.ndim == 0)


def _isin(element, test_elements, invert):
    element, test = to_tracer(element), ravel(test_elements)
    if test.shape[0] == 0:
        found = broadcast_to(np.zeros((), bool), element.shape)
    elif element.dtype.kind == "c" or test.dtype.kind == "c":
        # No order for complex values: compare every pair.
        found = np.any(reshape(element, element.shape + (1,)) == test, axis=-1)
    else:
        # Binary search in the sorted test values: O((n + m) log m), not O(n * m).
        ordered = sort(test)
        common = np.result_type(sample_of(element.atom), sample_of(ordered.atom))
        pos = search(ordered, astype(element, common), "left")
        if test.shape[0] is None:
            # Possibly empty: a padding entry keeps the gather in bounds and never counts.
            padded = concatenate([ordered, np.zeros(1, ordered.dtype)])
            found = (pos < dim_size(test, 0)) & (take(padded, pos, 0) == element)
        else:
            found = take(ordered, np.minimum(pos, test.shape[0] - 1), 0) == element
    found = Tracer(found.atom)
    return ~found if invert else found


@implements(np.isin)
def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    if kind not in (None, "sort", "table"):
        numpy_says(np.isin, np.zeros(1), np.zeros(1), kind=kind)
    return _isin(element, test_elements, invert)


@implements(np.digitize)
def digitize(x, bins, right=False):
    static_bins = None if isinstance(bins, Tracer) else np.asarray(bins)
    x, bins = to_tracer(x), to_tracer(bins)
    if x.dtype.kind == "c":
        raise TypeError(f"x may not be complex\n  at {user_location()}")
    if static_bins is not None:
        # Known bins: NumPy checks them and the direction is chosen now.
        numpy_says(np.digitize, np.zeros(1, x.dtype), static_bins, right)
        side = "left" if right else "right"
        if static_bins.size > 1 and np.all(np.diff(static_bins) <= 0) and \
                static_bins[0] != static_bins[-1]:
            out = static_bins.size - searchsorted(bins[::-1], x, side=side)
            return Tracer(out.atom, is_scalar=x.ndim == 0)
        return searchsorted(bins, x, side=side)
    if bins.ndim != 1:
        raise ValueError(f"object has too many dimensions\n  at {user_location()}")
    side = "left" if right else "right"
    n = bins.shape[0]
    rising = searchsorted(bins, x, side=side)
    # (A run-time number of bins: its size as the graph runs.)
    falling = (n if n is not None else dim_of(bins, 0)) - searchsorted(bins[::-1], x, side=side)
    if n is not None and n < 2:
        return rising
    increasing, decreasing = np.all(bins[1:] >= bins[:-1]), np.all(bins[1:] <= bins[:-1])
    out = np.where(increasing, rising, falling)
    out = emit("check", [out, increasing | decreasing],
               {"message": "bins must be monotonically increasing or decreasing",
                "error": "ValueError"})
    return Tracer(out.atom, is_scalar=x.ndim == 0)


Tracer.argsort = lambda self, axis=-1, kind=None, order=None, *, stable=None: \
    argsort(self, axis, kind, order, stable=stable)
Tracer.argpartition = lambda self, kth, axis=-1, kind="introselect", order=None: \
    argpartition(self, kth, axis, kind, order)
Tracer.searchsorted = lambda self, v, side="left", sorter=None: searchsorted(self, v, side, sorter)
