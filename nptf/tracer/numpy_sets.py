"""Set functions and counting: np.unique and the unique_* family, union1d, intersect1d,
setdiff1d, setxor1d, bincount and trim_zeros.

Their results have lengths that depend on the data. NumPy's ``unique`` is
kept at the input's size while the graph is built: a stable sort, then a mask
of where each run of equal values starts. Only compacting by a mask (the
``boolean_mask`` op) gives an array of unknown length. The set functions
then follow NumPy's code after its own ``unique`` calls step by step, so
duplicates, NaNs and mixed dtypes come out as in NumPy.

The sort order is NumPy's: NaN last, -0.0 equal to 0.0, and complex numbers
by real then imaginary part, those holding a NaN last (as ``np.sort``).
Equal values are represented by the first of them in that (stable) order;
NumPy's pick between 0.0 and -0.0, or between complex NaNs, depends on
which of its algorithms ran.
``np.unique(..., sorted=False)`` and ``np.unique_values`` return the sorted
values: NumPy leaves their order unspecified (it follows a hash table), and
the sorted order is one it allows.
"""
from __future__ import annotations

import numpy as np
from numpy.lib._arraysetops_impl import UniqueAllResult, UniqueCountsResult, UniqueInverseResult
from numpy.lib.array_utils import normalize_axis_tuple

from ..errors import unsupported, user_location
from .assumptions import assume_kind
from .numpy_api import (axis_index, arange, asarray, astype, concatenate, flip, full, full_like,
                        implements, imag, moveaxis, ravel, real, reshape_to)
from .numpy_math import any_, cumsum
from .indexing import dim_size, positions_along, same_size
from .numpy_sorting import argsort_along, isin, lexsort, search, take
from .tracer import Tracer, concrete_dim, contains_tracer, emit, numpy_says, to_tracer
from .views import derived_view

_INTP = np.dtype(np.intp)


def _as_array(a):
    """``np.asarray(a)``: Python scalars become arrays of NumPy's default dtype, not weak values."""
    a = asarray(a)
    return astype(a, a.dtype) if a.type.weak else a


def _flat(a):
    """``a`` flattened (its length may be known only at run time)."""
    return ravel(_as_array(a))


def _edge(x):
    """``np.ones(1, bool)``, or no entry at all when ``x`` turns out empty at run time."""
    if x.shape[0] is not None:
        return np.ones(1, bool)
    return full_like(x[:1], True, np.bool_)


def _compact(x, keep):
    """The entries (rows) of ``x`` where ``keep`` holds: a length known only at run time."""
    return emit("boolean_mask", [x, keep])


# ------------------------------------------------------------------- sorting
def _sort_keys(column, in_rows):
    """Real arrays ordered as NumPy sorts ``column``, least significant first (np.lexsort's way)."""
    if in_rows and column.dtype == np.float16:
        # Rows sort as structured values, whose float16 fields NumPy orders with NaN first.
        return [column, ~np.isnan(column)]
    if column.dtype.kind != "c":
        return [column]
    re, im = real(column), imag(column)
    # np.sort puts complex values in the groups R+Rj, R+nanj, nan+Rj, nan+nanj, in this order.
    group = astype(np.isnan(re), np.int8) * 2 + astype(np.isnan(im), np.int8)
    return [im, re, group]


def _stable_order(columns, in_rows=False):
    """Stable ascending order of the rows made of ``columns`` (the first most significant)."""
    keys = [k for column in reversed(columns) for k in _sort_keys(column, in_rows)]
    return argsort_along(keys[0], 0) if len(keys) == 1 else lexsort(keys)


def _run_starts(aux, equal_nan):
    """True where a run of equal entries (rows) starts in the sorted ``aux``."""
    if aux.shape[0] == 0:
        return full((0,), False, np.bool_)
    if aux.ndim == 2:
        # NumPy compares rows as structured values, field by field: rows holding NaN never match.
        differs = any_(aux[1:] != aux[:-1], axis=1)
    else:
        differs = aux[1:] != aux[:-1]
        if equal_nan and aux.dtype.kind in "fc":
            # Sorting puts every NaN last, so NaNs form one run (for complex: any NaN part).
            nan = np.isnan(aux)
            differs = differs & ~(nan[1:] & nan[:-1])
    return concatenate([_edge(aux), differs])


def _sorted_runs(x, equal_nan):
    """``x`` (1-D, or 2-D of rows) sorted stably: (order, sorted x, where runs start)."""
    n = x.shape[0]
    columns = [x] if x.ndim == 1 else [x[:, j] for j in range(x.shape[1])]
    if columns:
        perm = _stable_order(columns, in_rows=x.ndim == 2)
    else:
        perm = arange(n, dtype=_INTP)   # empty rows are all equal
    aux = take(x, perm, 0)
    return perm, aux, _run_starts(aux, equal_nan)


# -------------------------------------------------------------------- unique
def _unique(x, want_index, want_inverse, want_counts, equal_nan, inverse_shape, row_shape=()):
    """NumPy's ``_unique1d`` on 1-D ``x`` (or on the rows of 2-D ``x``, each of ``row_shape``)."""
    n = x.shape[0]
    if n == 0:
        empty = full((0,), 0, _INTP)
        out = [reshape_to(emit("copy", [x]), (0,) + row_shape)] + [empty] * want_index + \
            [full(inverse_shape, 0, _INTP)] * want_inverse + [empty] * want_counts
        return tuple(out)
    perm, aux, first = _sorted_runs(x, equal_nan)
    # Rows take their shape before compaction: then only the leading size is unknown.
    out = [_compact(reshape_to(aux, (n,) + row_shape) if x.ndim == 2 else aux, first)]
    if want_index:
        out.append(_compact(perm, first))   # the stable sort keeps first occurrences first
    run = cumsum(first) - 1   # which run (unique value) each sorted entry belongs to
    if want_inverse:
        inverse = emit("scatter", [full_like(perm, 0, _INTP), perm, run],
                       {"mode": "update", "unique": True})
        out.append(reshape_to(inverse, inverse_shape))
    if want_counts:
        run_end = search(run, run, side="right")
        out.append(_compact(run_end - positions_along(run, 0), first))
    return tuple(out)


@implements(np.unique)
def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True):
    ar = _as_array(ar)
    if axis is not None:
        axis = axis_index(axis, ar.ndim)
    flags = (bool(return_index), bool(return_inverse), bool(return_counts), bool(equal_nan))
    if return_inverse and list(ar.shape).count(None) > 1:
        # The flat inverse cannot be given back ar's shape without knowing its sizes.
        raise unsupported("np.unique(..., return_inverse=True) of an array with several "
                          "dimensions of unknown size")
    if axis is None or ar.ndim == 1:
        out = _unique(_flat(ar), *flags, ar.shape)
    else:
        for i in range(ar.ndim):
            concrete_dim(ar, i, "np.unique(..., axis=...)")
        moved = moveaxis(ar, axis, 0)
        rest = moved.shape[1:]
        rows = reshape_to(moved, (moved.shape[0], int(np.prod(rest, dtype=np.int64))))
        out = _unique(rows, *flags, (moved.shape[0],), rest)
        out = (moveaxis(out[0], 0, axis),) + out[1:]
    return out[0] if len(out) == 1 else out


@implements(np.unique_all)
def unique_all(x):
    return UniqueAllResult(*unique(x, True, True, True, equal_nan=False))


@implements(np.unique_counts)
def unique_counts(x):
    return UniqueCountsResult(*unique(x, return_counts=True, equal_nan=False))


@implements(np.unique_inverse)
def unique_inverse(x):
    return UniqueInverseResult(*unique(x, return_inverse=True, equal_nan=False))


@implements(np.unique_values)
def unique_values(x):
    return unique(x, equal_nan=False, sorted=False)


# --------------------------------------------------------------- set algebra
def _candidates(ar, assume_unique):
    """What NumPy's set functions work on: ``unique(ar)``, or ``ar`` flattened when the caller
    promises it is unique. As (values, index into ``ar``, keep): the array is ``values[keep]``
    (keep is None when every entry counts), still at ``ar``'s size."""
    x = _flat(ar)
    if assume_unique:
        return x, positions_along(x, 0), None
    perm, aux, first = _sorted_runs(x, equal_nan=True)
    return aux, perm, first


def _sorted_union(parts):
    """NumPy's ``aux = concatenate(...); aux.sort()`` of the two candidate arrays: the sorted
    values, the order (stable, as mergesort), and the sorted keep mask (None: keep all)."""
    both = concatenate([p[0] for p in parts])
    order = _stable_order([both])
    keep = None
    if parts[0][2] is not None:
        keep = take(concatenate([p[2] for p in parts]), order, 0)
    return both, order, take(both, order, 0), keep


@implements(np.union1d)
def union1d(ar1, ar2):
    return unique(concatenate((_as_array(ar1), _as_array(ar2)), axis=None))


@implements(np.intersect1d)
def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    parts = [_candidates(a, assume_unique) for a in (ar1, ar2)]
    both, order, aux, keep = _sorted_union(parts)
    if assume_unique:
        # NumPy's indices into the concatenation, ar2's shifted back by ar1's size.
        first_of_pair, second_of_pair = order[:-1], order[1:] - dim_size(parts[0][0], 0)
    else:
        origin = take(concatenate([p[1] for p in parts]), order, 0)   # indices into ar1 or ar2
        aux, origin = _compact(aux, keep), _compact(origin, keep)
        first_of_pair, second_of_pair = origin[:-1], origin[1:]
    mask = aux[1:] == aux[:-1]
    values = _compact(aux[:-1], mask)
    if not return_indices:
        return values
    return values, _compact(first_of_pair, mask), _compact(second_of_pair, mask)


@implements(np.setdiff1d)
def setdiff1d(ar1, ar2, assume_unique=False):
    if assume_unique:
        values, keep = ravel(_as_array(ar1)), None   # no sort: any length will do
    else:
        _, values, keep = _sorted_runs(_flat(ar1), equal_nan=True)
    absent = isin(values, _as_array(ar2), invert=True)
    return _compact(values, absent if keep is None else keep & absent)


@implements(np.setxor1d)
def setxor1d(ar1, ar2, assume_unique=False):
    parts = [_candidates(a, assume_unique) for a in (ar1, ar2)]
    both, _, aux, keep = _sorted_union(parts)
    if both.shape[0] == 0:
        return both
    if keep is not None:
        aux = _compact(aux, keep)
    edge = _edge(aux)
    flag = concatenate([edge, aux[1:] != aux[:-1], edge])
    return _compact(aux, flag[1:] & flag[:-1])


# ------------------------------------------------------------------ counting
@implements(np.bincount)
def bincount(x, /, weights=None, minlength=0):
    if isinstance(minlength, Tracer):
        return _bincount_traced_minlength(x, weights, minlength)
    known = x.known_value() if isinstance(x, Tracer) else None
    if known is not None or (not isinstance(x, Tracer) and not contains_tracer(x)):
        # Ids the function holds (the inverse of np.unique of static labels, ids parsed
        # from a string argument): the bins' number is known, so the counts have a size
        # known when tracing.
        known = np.asarray(x) if known is None else known
        if known.ndim == 1 and known.dtype.kind in "iub" and known.size and known.min() >= 0:
            length = max(int(known.max()) + 1, int(minlength))
            return reshape_to(_bincount(to_tracer(known), weights, length), (length,))
    return _bincount(x, weights, minlength)


def _bincount(x, weights, minlength):
    x = _as_array(x)
    # NumPy validates minlength, x's depth and dtype; a one-element sample of x's dtype shows how.
    numpy_says(np.bincount, np.zeros(tuple(min(d, 1) if d is not None else 1 for d in x.shape),
                                      x.dtype), minlength=minlength)
    minlength = int(minlength)
    if x.shape[0] == 0:
        return full((minlength,), 0, _INTP)   # NumPy ignores the weights of no values
    ids = astype(x, _INTP)   # unsigned values past the intp range wrap negative, as in NumPy
    ids = emit("check", [ids, ids >= 0], {"error": "ValueError",
                                          "message": "'list' argument must have no negative "
                                                     f"elements\n  at {user_location()}"})
    bins = None
    if minlength > 0 and x.known_value() is None:
        # Ids below ``minlength`` (the class labels of ``np.bincount(y, minlength=k)``)
        # make counts of a length known when tracing, which loops, lists and XLA keep;
        # the trace assumes so, and a call with larger ids runs a graph of run-time length.
        fits, check = assume_kind("np.bincount", (f"{minlength} long (minlength)",
                                                  f"longer than minlength={minlength}"))
        if fits:
            bins = minlength
            ids = check(ids, np.all(ids < minlength))
    params = {"minlength": minlength} if bins is None else {"minlength": minlength, "bins": bins}
    if weights is None:
        return emit("bincount", [ids], params)
    w = _as_array(weights)
    numpy_says(np.bincount, np.zeros(1, _INTP), np.zeros((1,) * w.ndim, w.dtype))
    if None not in (w.shape[0], x.shape[0]) and w.shape[0] != x.shape[0]:
        raise ValueError(f"The weights and list don't have the same length.\n  at {user_location()}")
    if w.ndim == 1 and not same_size(w, 0, x, 0):
        # Lengths known only at run time: NumPy's error where they differ (but for no
        # values, whose weights NumPy ignores).
        n = dim_size(x, 0)
        ok = (dim_size(w, 0) == n) | (n == 0)
        # Cut or padded to the values' length until the check raises: TensorFlow's kernel
        # takes weights of another length as all ones.
        w = concatenate([w, full_like(x, 0, w.dtype)])[:n]
        w = emit("check", [w, ok], {
            "error": "ValueError",
            "message": f"The weights and list don't have the same length.\n  at {user_location()}"})
    return emit("bincount", [ids, astype(w, np.float64)], params)


def _bincount_traced_minlength(x, weights, minlength):
    """``np.bincount(x, minlength=n)`` with ``n`` known only at run time (``len(classes)``,
    ``int(y.max()) + 1``): the counts of ``x``, padded with zeros to ``n`` bins."""
    if minlength.ndim != 0 or minlength.dtype.kind not in "iu":
        raise TypeError(f"'{minlength.dtype.name}' object cannot be interpreted as an integer"
                        f"\n  at {user_location()}")
    n = astype(minlength, _INTP)
    n = emit("check", [n, n >= 0], {"error": "ValueError",
                                    "message": f"'minlength' must not be negative\n"
                                               f"  at {user_location()}"})
    counts = bincount(x, weights, 0)
    padding = full((np.maximum(n - dim_size(counts, 0), 0),), 0, counts.dtype)
    return concatenate([counts, padding])


# ------------------------------------------------------------------ trimming
def _inside(nonzero_along, trim):
    """Where along one axis lies inside the trimmed range (nothing when all is zero)."""
    keep = None
    if "f" in trim:
        keep = cumsum(nonzero_along) > 0
    if "b" in trim:
        from_back = flip(cumsum(flip(nonzero_along))) > 0
        keep = from_back if keep is None else keep & from_back
    return keep


@implements(np.trim_zeros)
def trim_zeros(filt, trim="fb", axis=None):
    a = _as_array(filt)
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}\n  at {user_location()}")
    axes = tuple(range(a.ndim)) if axis is None else \
        numpy_says(normalize_axis_tuple, axis, a.ndim, argname="axis")
    if not axes:
        return filt
    nonzero = a != 0
    kept = []
    for ax in axes:
        others = tuple(i for i in range(a.ndim) if i != ax)
        along = any_(nonzero, axis=others) if others else nonzero
        kept.append(_inside(along, trim))

    def trimmed(a):
        # The extent is fixed when NumPy makes the view; later writes only change values.
        for ax, inside in zip(axes, kept):
            a = moveaxis(_compact(moveaxis(a, ax, 0), inside), 0, ax)
        return a
    return derived_view(a, trimmed(a), trimmed, "np.trim_zeros's result")
