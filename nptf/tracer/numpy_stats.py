"""Order statistics, NaN-ignoring reductions and weighted statistics.

Quantiles sort along the reduced axes and gather the two neighbours of each
virtual index; the NaN-ignoring variants do the same with a per-slice count
of valid values (NaN sorts last). Result dtypes come from NumPy run on a
one-element sample with the user's own ``q``, ``dtype`` and ``ddof``.
"""
from __future__ import annotations

import builtins
import operator

import numpy as np

from ..errors import unsupported, unsupported_size, user_location
from . import numpy_math as m
from .numpy_api import (axes_of, NoValue, reject, asarray, astype, broadcast_to, concatenate,
                        full_like, gather_axes_last, implements, linspace, ravel, reshape,
                        reshape_to, transpose)
from .numpy_sorting import searchsorted, sort, take_along
from .indexing import dim_size, same_size
from .tracer import Tracer, contains_tracer, dim_of, emit, numpy_says, to_tracer

_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")
# Hyndman and Fan's methods as NumPy computes them: the continuous ones by (alpha, beta)
# of their virtual index, the discrete ones by their rule at a whole index.
_CONTINUOUS = {"interpolated_inverted_cdf": (0.0, 1.0), "hazen": (0.5, 0.5),
               "weibull": (0.0, 0.0), "median_unbiased": (1 / 3.0, 1 / 3.0),
               "normal_unbiased": (3 / 8.0, 3 / 8.0), "averaged_inverted_cdf": None}
_DISCRETE = ("inverted_cdf", "closest_observation")


def _sample(a, dtype=None):
    return np.zeros((1,), a.dtype if dtype is None else dtype)


def _as_scalar(t):
    return Tracer(t.atom, is_scalar=t.ndim == 0)


# ------------------------------------------------------------------ quantiles
def _quantile(a, q, axis, keepdims, method, ignore_nan, name, probe):
    """Shared by quantile/percentile/median and their nan-variants; ``q`` in [0, 1]."""
    a = to_tracer(a)
    if isinstance(q, Tracer):
        if None in q.shape:
            raise unsupported(f"np.{name} with q of a size known only at run time")
        kind, top = ("Percentiles", 100) if "percentile" in name else ("Quantiles", 1)
        inside = (q >= 0) & (q <= 1)
        q = emit("check", [q, np.all(inside)], {
            "error": "ValueError",
            "message": f"{kind} must be in the range [0, {top}]\n  at {user_location()}"})
        q = np.where(inside, q, 0.0)       # gathers stay in bounds until the check raises
    if method not in _METHODS + ("median",) + tuple(_CONTINUOUS) + _DISCRETE:
        numpy_says(probe, _sample(a), method=method)  # NumPy's error for an unknown method
        raise unsupported(f"np.{name}(..., method={method!r})")
    reduced = axes_of(axis, a.ndim, reduce_like=False)
    if any(d is None for i, d in enumerate(a.shape) if i not in reduced) or \
            (len(reduced) > 1 and any(a.shape[i] is None for i in reduced)):
        raise unsupported_size(f"np.{name} of an array with a dimension of unknown size "
                               f"kept, or merged with others")
    out_dtype = np.dtype(numpy_says(probe, method=method).dtype)
    q = q if isinstance(q, Tracer) else np.asarray(q, dtype=np.float64)
    flat, axes, kept_shape = gather_axes_last(a, axis)
    n = flat.shape[-1]
    if n == 0:
        raise unsupported(f"np.{name} of an empty slice")
    if n is None:
        # A length known only at run time (np.median(x[x > 0])): NumPy's answer for an
        # empty one is NaN for the median and the nan-variants, IndexError for a quantile
        # (after the run).
        n = dim_of(flat, flat.ndim - 1)
        if ignore_nan and np.ndim(q) > 0:
            # NumPy answers no values with one NaN (np.nanmean's), whatever q's shape: a
            # shape the data choose.
            n = emit("check", [n, n > 0], {
                "error": "OutsideTheGraph",
                "message": f"np.{name} of no values, which NumPy answers with one NaN "
                           f"whatever the shape of q\n  at {user_location()}"})
        if method != "median" and not ignore_nan:
            n = emit("check", [n, n > 0], {"error": "IndexError", "message":
                                           f"index -1 is out of bounds for axis 0 with size 0"
                                           f"\n  at {user_location()}"})
        empty = n == 0
        n = np.maximum(n, 1)
    else:
        empty = None
    ordered = sort(flat, axis=-1)
    if empty is not None:
        # One more element past the sorted ones, which only an empty input reads (NaN
        # where the dtype has it, so the nan-variants do not count it).
        pad = np.full(kept_shape + (1,), np.nan if flat.dtype.kind in "fc" else 0, flat.dtype)
        ordered = concatenate([ordered, pad], axis=-1)
    qs = q.ravel()
    if ignore_nan and a.dtype.kind in "fc":
        valid = m.sum_(astype(~np.isnan(ordered), np.intp), axis=-1, keepdims=True)
        last = np.maximum(valid - 1, 0)
        virtual = astype(last, np.float64) * qs
    else:
        valid, last = None, n - 1
        virtual = broadcast_to(qs * (n - 1), kept_shape + (qs.size,))
    if method in _CONTINUOUS or method in _DISCRETE:
        count = astype(valid, np.float64) if valid is not None else \
            astype(n, np.float64) if isinstance(n, Tracer) else float(n)
        res = _hyndman_fan(method, ordered, qs, count, last, kept_shape, out_dtype, a.dtype)
    else:
        res = _interpolated(method, ordered, qs, virtual, last, kept_shape, out_dtype, a.dtype)
    if a.dtype.kind in "fc" and ignore_nan:
        res = np.where(valid == 0, np.full((), np.nan, out_dtype), res)
    elif a.dtype.kind in "fc":
        # A NaN anywhere sorts last, and NumPy answers with that element (a complex NaN
        # keeps its other part).
        last_value = ordered[..., -1:] if empty is None else \
            take_along(ordered, astype(np.full(kept_shape + (1,), 0) + (n - 1), np.intp), -1)
        last_value = astype(last_value, out_dtype)
        res = np.where(np.isnan(last_value), last_value, res)
    if empty is not None:
        res = np.where(empty, np.full((), np.nan, out_dtype), res)
    res = astype(res, out_dtype)
    res = transpose(res, [res.ndim - 1] + list(range(res.ndim - 1)))  # q's axis first
    if keepdims:
        kept_shape = tuple(1 if i in axes else d for i, d in enumerate(a.shape))
    res = reshape(res, q.shape + kept_shape)
    # With keepdims NumPy hands back an array, a 0-d one for a 0-d input.
    return _as_scalar(res) if res.ndim == 0 and not keepdims else res

def _interpolated(method, ordered, qs, virtual, last, kept_shape, out_dtype, dtype):
    """The quantiles of NumPy's own methods (linear, lower, higher, midpoint, nearest,
    and the median) at the virtual indices ``virtual`` into ``ordered``."""
    below = np.floor(virtual)
    if method == "nearest":
        # NumPy rounds the virtual index half to even.
        below = np.round(virtual)
    gamma = astype(virtual - below, out_dtype)
    lo = astype(below, np.intp)
    hi = np.minimum(lo + 1, last)
    lo_val = astype(take_along(ordered, broadcast_to(lo, kept_shape + (qs.size,)), -1), out_dtype)
    hi_val = astype(take_along(ordered, broadcast_to(hi, kept_shape + (qs.size,)), -1), out_dtype)
    if method == "median":
        # NumPy's median is the mean of the middle one or two values, not an interpolation.
        wide = np.float32 if out_dtype == np.float16 else out_dtype
        mid = astype((astype(lo_val, wide) + astype(hi_val, wide)) * 0.5, out_dtype)
        res = np.where(gamma == 0, lo_val, mid)
    elif method in ("lower", "nearest"):
        res = lo_val
    elif method == "higher":
        res = astype(take_along(ordered, broadcast_to(np.minimum(astype(np.ceil(virtual), np.intp),
                                                                 last), kept_shape + (qs.size,)),
                                -1), out_dtype)
    else:
        if method == "midpoint":
            gamma = np.where(virtual == below, np.zeros((), out_dtype), np.full((), 0.5, out_dtype))
        if dtype.kind == "f":
            # NumPy's _lerp subtracts in the array's own dtype before scaling by gamma.
            lo_val = take_along(ordered, broadcast_to(lo, kept_shape + (qs.size,)), -1)
            hi_val = take_along(ordered, broadcast_to(hi, kept_shape + (qs.size,)), -1)
        diff = hi_val - lo_val
        res = np.where(gamma >= 0.5, hi_val - diff * (1 - gamma), lo_val + diff * gamma)
    return res


def _hyndman_fan(method, ordered, qs, count, last, kept_shape, out_dtype, dtype):
    """The quantiles of Hyndman and Fan's methods, as NumPy's ``_quantile`` finds them:
    ``count`` values (a float) sorted first along the last axis of ``ordered``; ``last``
    the index of the last of them."""
    shape = kept_shape + (qs.size,)
    # The discrete choices read the rounded product count * q only through floor() and
    # comparisons: a sum after it would let XLA fuse the two into one FMA, which rounds
    # once and moves a whole index where the product is a whole or half number.
    p = count * qs
    whole = np.floor(p)
    if method == "inverted_cdf":
        # NumPy's index p - 1, its floor where that is a whole number, else the next one.
        pos = np.where(p == whole, whole - 1, whole)
    elif method == "closest_observation":
        # Index p - 1.5: at a whole number, the nearest odd one; else the next one.
        below = whole + astype(p >= whole + 0.5, np.float64) - 2
        at = (p == whole + 0.5) & (below % 2 == 1)
        pos = np.where(at, below, below + 1)
    if method in _DISCRETE:
        pos = np.maximum(astype(pos, np.intp), 0)
        return astype(take_along(ordered, broadcast_to(pos, shape), -1), out_dtype)
    if method == "averaged_inverted_cdf":
        # Index p - 1: gamma 0.5 where it is a whole number, else 1 (the next value).
        above, under = p >= count, p < 1
        lo = np.where(above, last, np.where(under, 0, astype(whole - 1, np.intp)))
        hi = np.where(above, last, np.where(under, 0, astype(whole, np.intp)))
        gamma = np.where((p == whole) & ~above & ~under, 0.5, 1.0)
        return _lerp(ordered, lo, hi, gamma, shape, out_dtype, dtype)
    alpha, beta = _CONTINUOUS[method]
    virtual = count * qs + (alpha + qs * (1 - alpha - beta)) - 1
    virtual = broadcast_to(virtual, shape)
    below = np.floor(virtual)
    above, under = virtual >= count - 1, virtual < 0
    lo = np.where(above, last, np.where(under, 0, astype(below, np.intp)))
    hi = np.where(above, last, np.where(under, 0, astype(below + 1, np.intp)))
    # NumPy's previous index is -1 (the last) above the values and 0 below them.
    gamma = virtual - np.where(above, -1.0, np.where(under, 0.0, below))
    return _lerp(ordered, lo, hi, gamma, shape, out_dtype, dtype)


def _lerp(ordered, lo, hi, gamma, shape, out_dtype, dtype):
    """NumPy's ``_lerp`` of the values at ``lo`` and ``hi`` by ``gamma``."""
    gamma = astype(gamma, out_dtype)
    lo_val = take_along(ordered, broadcast_to(astype(lo, np.intp), shape), -1)
    hi_val = take_along(ordered, broadcast_to(astype(hi, np.intp), shape), -1)
    if dtype.kind != "f":
        lo_val, hi_val = astype(lo_val, out_dtype), astype(hi_val, out_dtype)
    diff = hi_val - lo_val
    return np.where(gamma >= 0.5, hi_val - diff * (1 - gamma), lo_val + diff * gamma)


def _quantile_impl(name, ignore_nan, scale):
    fn = getattr(np, name)

    def impl(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False,
             *, weights=None, interpolation=None):
        reject(name, out=out, weights=weights, interpolation=interpolation)
        a = to_tracer(a)
        if isinstance(q, (list, tuple)) and contains_tracer(q):
            q = to_tracer(q)
        if isinstance(q, Tracer):
            # q known only at run time: NumPy validates a stand-in of its kind now and the
            # range when the graph runs (_quantile).
            shown = 0.5 * scale if q.type.weak and q.ndim == 0 else np.full(q.shape, 0.5 * scale)
            probe = lambda **kw: fn(_sample(a), shown, **kw)  # noqa: E731
            q = astype(q, np.float64) / float(scale)
        else:
            probe = lambda q=q, **kw: fn(_sample(a), q, **kw)  # noqa: E731  (validates q like NumPy)
            q = np.asarray(q, np.float64) / scale
        return _quantile(a, q, axis, keepdims, method, ignore_nan, name, probe)
    return impl


for _name, _nan, _scale in [("quantile", False, 1), ("percentile", False, 100),
                            ("nanquantile", True, 1), ("nanpercentile", True, 100)]:
    implements(getattr(np, _name))(_quantile_impl(_name, _nan, _scale))


def _median_impl(name, ignore_nan):
    fn = getattr(np, name)

    def impl(a, axis=None, out=None, overwrite_input=False, keepdims=False):
        reject(name, out=out)
        a = to_tracer(a)
        return _quantile(a, 0.5, axis, keepdims, "median", ignore_nan, name,
                         lambda **kw: fn(_sample(a)))
    return impl


implements(np.median)(_median_impl("median", False))
implements(np.nanmedian)(_median_impl("nanmedian", True))


# ------------------------------------------------------- NaN-ignoring reductions
def _has_nans(a):
    return a.dtype.kind in "fc"


def _replace_nan(a, value):
    a = to_tracer(a)
    if not _has_nans(a):
        return a
    return np.where(np.isnan(a), np.full((), value, a.dtype), a)


@implements(np.nansum)
def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=NoValue, where=NoValue):
    reject("nansum", out=out)
    return m.sum_(_replace_nan(a, 0), axis, dtype, keepdims=keepdims, initial=initial,
                  where=where)


@implements(np.nanprod)
def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=NoValue, where=NoValue):
    reject("nanprod", out=out)
    return m.prod_(_replace_nan(a, 1), axis, dtype, keepdims=keepdims, initial=initial,
                   where=where)


@implements(np.nancumsum)
def nancumsum(a, axis=None, dtype=None, out=None):
    reject("nancumsum", out=out)
    return m.cumsum(_replace_nan(a, 0), axis, dtype)


@implements(np.nancumprod)
def nancumprod(a, axis=None, dtype=None, out=None):
    reject("nancumprod", out=out)
    return m.cumprod(_replace_nan(a, 1), axis, dtype)


def _valid_count(a, axis, keepdims):
    a = to_tracer(a)
    return m.sum_(astype(~np.isnan(a), np.intp), axis, keepdims=keepdims)


@implements(np.nanmean)
def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=NoValue):
    reject("nanmean", out=out, where=where)
    a = to_tracer(a)
    if not _has_nans(a):
        return m.mean(a, axis, dtype, keepdims=keepdims)
    out_dtype = np.dtype(numpy_says(np.nanmean, _sample(a), dtype=dtype).dtype)
    total = m.sum_(_replace_nan(a, 0), axis, dtype, keepdims=keepdims)
    count = _valid_count(a, axis, keepdims)
    # NumPy divides in the sum's dtype (``true_divide(..., casting="unsafe")``).
    return astype(total / astype(count, total.dtype), out_dtype)


def _nanvar(a, axis, dtype, ddof, keepdims, name):
    a = to_tracer(a)
    if not _has_nans(a):
        return getattr(m, name[3:])(a, axis, dtype, ddof=ddof, keepdims=keepdims)
    out_dtype = np.dtype(numpy_says(getattr(np, name), _sample(a), dtype=dtype, ddof=ddof).dtype)
    count = _valid_count(a, axis, True)
    total = m.sum_(_replace_nan(a, 0), axis, dtype, keepdims=True)
    centered = a - total / astype(count, total.dtype)
    centered = np.where(np.isnan(a), np.zeros((), centered.dtype), centered)
    if centered.dtype.kind == "c":
        squares = np.real(centered) ** 2 + np.imag(centered) ** 2
    else:
        squares = centered * centered
    dof = _valid_count(a, axis, keepdims) - ddof
    sq = m.sum_(squares, axis, keepdims=keepdims)
    var = sq / astype(dof, sq.dtype)
    var = np.where(dof <= 0, np.full((), np.nan, var.dtype), var)
    res = np.sqrt(var) if name == "nanstd" else var
    return _as_scalar(astype(res, out_dtype))


@implements(np.nanvar)
def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=NoValue,
           mean=NoValue, correction=NoValue):
    reject("nanvar", out=out, where=where, mean=mean)
    return _nanvar(a, axis, dtype, ddof if correction is NoValue else correction, keepdims, "nanvar")


@implements(np.nanstd)
def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=NoValue,
           mean=NoValue, correction=NoValue):
    reject("nanstd", out=out, where=where, mean=mean)
    return _nanvar(a, axis, dtype, ddof if correction is NoValue else correction, keepdims, "nanstd")


def _nan_extremum(name, reduce, fill):
    def impl(a, axis=None, out=None, keepdims=False, initial=NoValue, where=NoValue):
        reject(name, out=out, initial=initial, where=where)
        a = to_tracer(a)
        if a.dtype.kind not in "fc":
            return reduce(a, axis, keepdims=keepdims)
        if a.dtype.kind == "c":
            # NumPy's fmax.reduce: an element with a NaN part never wins, and a slice of
            # such elements gives its first one. The fill sorts below (above) every
            # complex number, infinite parts included.
            res = reduce(_replace_nan(a, complex(fill, fill)), axis, keepdims=keepdims)
            axes = axes_of(axis, a.ndim)
            nan = a[tuple(slice(0, 1) if d in axes else slice(None) for d in range(a.ndim))]
            if not keepdims:
                nan = nan.reshape(res.shape)
        else:
            res = reduce(_replace_nan(a, fill), axis, keepdims=keepdims)
            nan = np.full((), np.nan, a.dtype)
        all_nan = m.all_(np.isnan(a), axis, keepdims=keepdims)
        return _as_scalar(np.where(all_nan, nan, res))
    return impl


implements(np.nanmax)(_nan_extremum("nanmax", m.max_, -np.inf))
implements(np.nanmin)(_nan_extremum("nanmin", m.min_, np.inf))


def _nan_arg_extremum(name, reduce, fill):
    def impl(a, axis=None, out=None, *, keepdims=False):
        reject(name, out=out)
        a = to_tracer(a)
        if a.dtype.kind not in "fc":
            return reduce(a, axis, keepdims=keepdims)
        # NumPy itself replaces NaN (an element with a NaN part) by -inf (+inf) and
        # refuses all-NaN slices.
        res = reduce(_replace_nan(a, fill), axis, keepdims=keepdims)
        ok = ~m.all_(np.isnan(a), axis, keepdims=keepdims)
        out_ = emit("check", [res, ok], {"message": "All-NaN slice encountered", "error": "ValueError"})
        return Tracer(out_.atom, is_scalar=res.is_scalar)
    return impl


implements(np.nanargmax)(_nan_arg_extremum("nanargmax", m.argmax, -np.inf))
implements(np.nanargmin)(_nan_arg_extremum("nanargmin", m.argmin, np.inf))


@implements(np.count_nonzero)
def count_nonzero(a, axis=None, *, keepdims=False):
    a = to_tracer(a)
    return m.sum_(astype(a, np.bool_), axis, dtype=np.intp, keepdims=keepdims)


# ------------------------------------------------------- weighted statistics
@implements(np.average)
def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    a = to_tracer(a)
    if weights is None:
        avg = m.mean(a, axis, keepdims=keepdims)
        if not returned:
            return avg
        if a.size is not None and avg.size is not None:
            count = (a.size // avg.size) if avg.size else 0
            scl = broadcast_to(np.asarray(count).astype(avg.dtype)[()], avg.shape)
        else:       # sizes known only at run time: count the elements averaged
            ones = np.logical_not(np.zeros_like(a, dtype=np.bool_))
            scl = astype(count_nonzero(ones, axis, keepdims=keepdims), avg.dtype)
        return avg, (_as_scalar(scl) if avg.is_scalar else scl)
    w = to_tracer(weights)
    if axis is not None:
        axes_of(axis, a.ndim, reduce_like=False)      # NumPy checks it first: 0-d, AxisError
    if a.dtype.kind in "biu":
        dtype = np.result_type(a.dtype, w.dtype, "f8")
    else:
        dtype = np.result_type(a.dtype, w.dtype)
    if a.shape == w.shape and None in a.shape and \
            not all(same_size(a, i, w, i) for i in range(a.ndim)):
        # Sizes known only at run time: NumPy's error where the shapes differ.
        same = None
        for i in range(a.ndim):
            eq = dim_size(a, i) == dim_size(w, i)
            same = eq if same is None else same & eq
        if a.ndim != 1:
            raise unsupported("np.average with weights of run-time sizes in more than one "
                              "dimension")
        # Cut or padded to a's length until the check raises (the product needs one).
        n = dim_size(a, 0)
        w = concatenate([w, np.zeros_like(a, dtype=w.dtype)])[:n]
        w = emit("check", [w, same], {
            "error": "TypeError" if axis is None else "ValueError",
            "message": ("Axis must be specified when shapes of a and weights differ."
                        if axis is None else "Shape of weights must be consistent with shape "
                        "of a along specified axis.") + f"\n  at {user_location()}"})
    if a.shape != w.shape:
        if axis is None:
            raise TypeError(f"Axis must be specified when shapes of a and weights differ.\n"
                            f"  at {user_location()}")
        axes = axes_of(axis, a.ndim)
        if w.shape != tuple(a.shape[i] for i in axes):
            raise ValueError(f"Shape of weights must be consistent with shape of a along "
                             f"specified axis.\n  at {user_location()}")
        shape = [1] * a.ndim
        for i in axes:
            shape[i] = a.shape[i]
        w = reshape(w, tuple(shape)) if sorted(axes) == list(axes) else None
        if w is None:
            raise unsupported("np.average with weights over unsorted axes")
        w = broadcast_to(w, a.shape)
    scl = m.sum_(w, axis, dtype=dtype, keepdims=keepdims)
    scl = emit("check", [scl, ~m.any_(scl == 0)],
               {"message": "Weights sum to zero, can't be normalized", "error": "ZeroDivisionError"})
    avg = m.sum_(np.multiply(a, w, dtype=dtype), axis, keepdims=keepdims) / scl
    avg = _as_scalar(avg)
    if returned:
        return avg, _as_scalar(broadcast_to(scl, avg.shape))
    return avg


@implements(np.cov)
def cov(m_, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    if fweights is not None or aweights is not None:
        raise unsupported("np.cov(..., fweights=/aweights=)")
    x = to_tracer(m_)
    if x.ndim > 2:
        raise ValueError(f"m has more than 2 dimensions\n  at {user_location()}")
    dtype = np.result_type(x.dtype, np.float64) if dtype is None else np.dtype(dtype)
    if y is not None:
        y = to_tracer(y)
        if y.ndim > 2:
            raise ValueError(f"y has more than 2 dimensions\n  at {user_location()}")
        dtype = np.result_type(dtype, y.dtype)
    X = _observations(x, rowvar, dtype, _COV_TRANSPOSES_BY_NDIM)
    if X.shape[0] == 0:
        return reshape_to(asarray(np.array([])), (0, 0))
    if y is not None:
        X = concatenate_rows(X, _observations(y, rowvar, dtype, False))
    ddof = (1 if not bias else 0) if ddof is None else ddof
    fact = dim_size(X, 1) - ddof
    X = X - m.mean(X, axis=1, keepdims=True)
    c = m.matmul(X, np.conjugate(transpose(X)) if X.dtype.kind == "c" else transpose(X))
    # NumPy's ``c *= np.true_divide(1, fact)``: a float64 factor, in c's dtype.
    if isinstance(fact, Tracer):
        factor = np.where(fact > 0, 1.0 / np.maximum(fact, 1), np.inf)
    else:
        factor = np.float64(1.0 / fact if fact > 0 else np.inf)
    c = astype(c * factor, c.dtype)
    if c.shape[0] is None:
        c = _not_one(c, dim_size(c, 0), "variable")
    return reshape_to(c, tuple(d for d in c.shape if d != 1))


# Whether NumPy's np.cov(m, rowvar=False) transposes a 2-D ``m`` of one row (it decides
# by ``m.ndim``, where it once did by the number of rows, as it still does for ``y``).
_COV_TRANSPOSES_BY_NDIM = np.cov(np.array([[0.0, 1.0, 3.0]]), rowvar=False,
                                 bias=True).shape == (3, 3)


def _observations(x, rowvar, dtype, by_ndim):
    """``np.cov``'s 2-D array of variables (rows) by observations of ``x``."""
    X = astype(reshape_to(x, (1,) * (2 - x.ndim) + x.shape), dtype)
    if not rowvar and by_ndim:
        return transpose(X) if x.ndim != 1 else X
    if not rowvar and X.shape[0] != 1:
        if X.shape[0] is None:
            # NumPy transposes unless there is one row: the other shape, which NumPy's
            # run gives.
            X = _not_one(X, dim_size(X, 0), "observation")
        X = transpose(X)
    return X


def _not_one(x, n, what):
    return emit("check", [x, n != 1], {
        "error": "OutsideTheGraph",
        "message": f"np.cov at {user_location()}: these data have one {what}, for which "
                   f"NumPy's result has another shape than the graph's"})


def concatenate_rows(x, y):
    return concatenate([x, y], 0)


@implements(np.corrcoef)
def corrcoef(x, y=None, rowvar=True, bias=np._NoValue, ddof=np._NoValue, *, dtype=None):
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    d = np.real(np.diagonal(c))
    std = np.sqrt(d)
    c = c / std[:, None] / std[None, :]
    if c.dtype.kind == "c":
        return np.clip(np.real(c), -1, 1) + np.clip(np.imag(c), -1, 1) * 1j
    return np.clip(c, -1, 1)


# ----------------------------------------------------------------- histograms
def _sample_columns(sample):
    """``histogramdd``'s sample as NumPy reads it: an (N, D) array, or D arrays of N."""
    if isinstance(sample, (tuple, list)):
        return [ravel(to_tracer(c)) for c in sample]
    sample = to_tracer(sample)
    if sample.ndim == 2:
        return [sample[:, i] for i in builtins.range(sample.shape[1])]
    return [ravel(sample)]


def _outer_edges(col, span, n, edge_dtype):
    """``n + 1`` equal bins over ``span`` or over the column's range (NumPy's
    ``_get_outer_edges``: an empty or one-valued range widened by 0.5 each side)."""
    if span is not None:
        lo, hi = span
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        return to_tracer(np.linspace(lo, hi, n + 1).astype(edge_dtype))
    if col.shape[0] == 0:
        lo, hi = np.zeros((), edge_dtype), np.ones((), edge_dtype)
    else:
        lo, hi = m.min_(col), m.max_(col)
        lo = emit("check", [lo, np.isfinite(lo) & np.isfinite(hi)], {
            "message": f"autodetected range of the data is not finite\n  at {user_location()}",
            "error": "ValueError"})
        same = lo == hi
        lo, hi = np.where(same, lo - 0.5, lo), np.where(same, hi + 0.5, hi)
    return astype(linspace(lo, hi, n + 1), edge_dtype)


@implements(np.histogramdd)
def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    cols = _sample_columns(sample)
    dims = len(cols)
    if isinstance(range, Tracer) or (range is not None and any(
            isinstance(r, Tracer) or (isinstance(r, (tuple, list)) and contains_tracer(r))
            for r in range)):
        raise unsupported("np.histogramdd with a traced range")
    if None in [c.shape[0] for c in cols]:
        raise unsupported("np.histogramdd of a sample whose size the data choose")
    many = isinstance(bins, (tuple, list)) or (isinstance(bins, (np.ndarray, Tracer)) and
                                               bins.ndim > 0)
    per_dim = list(bins) if many else [bins] * dims
    sampled = [np.arange(b.shape[0], dtype=b.dtype) if isinstance(b, Tracer) else b
               for b in per_dim] if many else bins
    w = None if weights is None else to_tracer(weights)
    probe = numpy_says(np.histogramdd, np.zeros((1, dims), np.result_type(*[
        c.dtype for c in cols])) if not isinstance(sample, (tuple, list)) else
        [np.zeros(1, c.dtype) for c in cols], sampled, range, density,
        None if w is None else np.ones(1, w.dtype))
    hist_dtype = probe[0].dtype
    spans = [None] * dims if range is None else list(range)
    edges, counts = [], []
    for i, (col, b) in enumerate(zip(cols, per_dim)):
        edge_dtype = probe[1][i].dtype
        if np.ndim(b) == 0 and not isinstance(b, Tracer):
            e = _outer_edges(col, spans[i], operator.index(b), edge_dtype)
        else:
            e = to_tracer(b)
            if isinstance(b, Tracer):
                e = emit("check", [e, m.all_(e[1:] >= e[:-1])], {
                    "message": f"`bins[{i}]` must be monotonically increasing, when an array"
                               f"\n  at {user_location()}", "error": "ValueError"})
            e = astype(e, edge_dtype)
        edges.append(e)
        counts.append(e.shape[0] - 1)
    total = int(np.prod(counts))
    flat, inside = None, None
    for col, e, n in zip(cols, edges, counts):
        index = searchsorted(e, col, side="right") - 1
        index = np.where(col == e[-1], n - 1, index)      # the last bin is closed
        ok = (index >= 0) & (index < n)
        flat = index if flat is None else flat * n + index
        inside = ok if inside is None else inside & ok
    flat = np.where(inside, flat, total)                  # outliers: one bin, dropped
    values = astype(inside, hist_dtype) if w is None else \
        np.where(inside, astype(ravel(w), hist_dtype), np.zeros((), hist_dtype))
    hist = emit("segment_sum", [values, flat], {"length": total + 1})[:total]
    hist = reshape(hist, tuple(counts))
    if density:
        s = m.sum_(hist)
        for i, e in enumerate(edges):
            shape = [1] * dims
            shape[i] = counts[i]
            hist = hist / reshape(e[1:] - e[:-1], tuple(shape))
        hist = hist / s
    return astype(hist, hist_dtype), [astype(e, probe[1][i].dtype) for i, e in enumerate(edges)]


@implements(np.histogram2d)
def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n not in (1, 2):
        bins = [bins, bins]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


def _range_sample(range):
    """A stand-in for ``(lo, hi)`` holding traced values that NumPy accepts (ordered,
    finite), of their types."""
    lo, hi = range
    fixed = [v for v in (lo, hi) if not isinstance(v, Tracer)]
    base = float(fixed[0]) if fixed else 0.0

    def like(v, value):
        if not isinstance(v, Tracer):
            return v
        if v.type.weak:     # a Python number
            return {"b": bool, "i": int, "u": int, "f": float, "c": complex}[v.dtype.kind](value)
        return np.asarray(value).astype(v.dtype)[()]
    return like(lo, base - 1 if isinstance(lo, Tracer) else base), \
        like(hi, base + 1 if isinstance(hi, Tracer) else base)


def _edges_of_traced_range(range, n, edge_dtype):
    """NumPy's ``n + 1`` equal bins over ``range``, whose ends are known at run time:
    its errors for a reversed or not finite range, and a range of one value widened by
    0.5 each way."""
    lo, hi = (to_tracer(v) for v in range)
    lo = emit("check", [lo, lo <= hi], {
        "error": "ValueError",
        "message": f"max must be larger than min in range parameter.\n  at {user_location()}"})
    lo = emit("check", [lo, np.isfinite(lo) & np.isfinite(hi)], {
        "error": "ValueError",
        "message": f"supplied range of np.histogram is not finite\n  at {user_location()}"})
    same = lo == hi
    lo, hi = np.where(same, lo - 0.5, lo), np.where(same, hi + 0.5, hi)
    return astype(linspace(lo, hi, n + 1, endpoint=True, dtype=edge_dtype), edge_dtype)


@implements(np.histogram)
def histogram(a, bins=10, range=None, density=None, weights=None):
    a = ravel(a)
    if isinstance(bins, str) or isinstance(range, Tracer):
        raise unsupported("np.histogram with string bins or a traced range")
    traced_range = range is not None and contains_tracer(range) and \
        isinstance(bins, (int, np.integer))
    w = None if weights is None else ravel(weights)
    sample_bins = bins if not isinstance(bins, Tracer) else np.arange(bins.shape[0], dtype=bins.dtype)
    probe = numpy_says(np.histogram, np.zeros(1, a.dtype), sample_bins,
                        _range_sample(range) if traced_range else range, density,
                        None if w is None else np.ones(1, w.dtype))
    hist_dtype, edge_dtype = probe[0].dtype, probe[1].dtype
    if isinstance(bins, (int, np.integer)):
        n = int(bins)
        if traced_range:
            edges = _edges_of_traced_range(range, n, edge_dtype)
        elif range is not None:
            edges = to_tracer(np.histogram_bin_edges(np.zeros(0, a.dtype), n, range))
        else:
            if a.shape[0] == 0:
                lo, hi = np.zeros((), edge_dtype), np.ones((), edge_dtype)
            else:
                if a.shape[0] is None:
                    # A length known only at run time: no values take NumPy's range (0, 1).
                    big = np.inf if a.dtype.kind == "f" else np.iinfo(a.dtype).max
                    small = -np.inf if a.dtype.kind == "f" else np.iinfo(a.dtype).min
                    empty = dim_size(a, 0) == 0
                    lo = np.where(empty, 0, m.min_(a, initial=big))
                    hi = np.where(empty, 1, m.max_(a, initial=small))
                else:
                    lo, hi = m.min_(a), m.max_(a)
                finite = np.isfinite(lo) & np.isfinite(hi)
                lo = emit("check", [lo, finite], {"message": "autodetected range of the data is "
                                                             "not finite", "error": "ValueError"})
                same = lo == hi
                lo, hi = np.where(same, lo - 0.5, lo), np.where(same, hi + 0.5, hi)
            edges = astype(linspace(lo, hi, n + 1, endpoint=True, dtype=edge_dtype), edge_dtype)
    else:
        edges = to_tracer(bins)
        n = edges.shape[0] - 1
        if isinstance(bins, Tracer):
            steps = edges[1:] - edges[:-1]
            edges = emit("check", [edges, m.all_(steps >= 0)],
                         {"message": "`bins` must increase monotonically, when an array",
                          "error": "ValueError"})
    index = searchsorted(edges, a, side="right") - 1
    index = np.where(a == edges[-1], n - 1, index)  # the last bin is closed
    values = full_like(a, 1, hist_dtype) if w is None else astype(w, hist_dtype)
    if density:
        values = full_like(a, 1, np.intp) if w is None else w
    counts = emit("segment_sum", [values, index], {"length": n})
    if density:
        widths = edges[1:] - edges[:-1]
        counts = astype(counts / widths / m.sum_(counts), hist_dtype)
    return counts, astype(edges, edge_dtype)
