"""Reductions, linear algebra and composite elementwise functions.

Registered into the same table as ``numpy_api`` (``IMPLS``). Result dtypes are
learned from NumPy run on one-element samples of the input dtype.
"""
from __future__ import annotations

import builtins
import functools
import operator

import numpy as np

from ..errors import unsupported, user_location
from ..graph_ir.types import broadcast_shapes
from .numpy_api import (axes_of, axis_index, reject,
                        sample_of, apply_ufunc, astype, broadcast_to, concatenate,
                        elementwise_where, full, gather_axes_last, implements, moveaxis, ravel,
                        reshape, reshape_to, transpose, NoValue)
from .indexing import dim_size, where_one_argument, write_out
from .numpy_sorting import take_along_axis
from .tracer import Tracer, dim_of, emit, numpy_says, to_tracer


def _probe(fn, x, **kwargs):
    """The dtype NumPy's ``fn`` returns for one element of ``x``'s dtype."""
    return np.dtype(numpy_says(fn, np.zeros((1,), x.dtype), **kwargs).dtype)


def _reduce(op, fn, a, axis, dtype, keepdims, extra=None):
    a = to_tracer(a)
    if a.ndim == 0 and axis is not None and fn is not None:
        numpy_says(fn, np.zeros((), a.dtype), axis=axis)   # np.mean refuses what np.sum allows
    axes = axes_of(axis, a.ndim)
    params = {"axes": axes, "keepdims": bool(keepdims)}
    if dtype is not None or op in ("reduce_sum", "reduce_prod", "mean", "var", "std"):
        kw = {"dtype": dtype} if dtype is not None else {}
        params["dtype"] = _probe(fn, a, **kw)
    params.update(extra or {})
    return emit(op, [a], params, scalar=True)  # NumPy returns a scalar for any 0-d result


def _no_identity(a, axes, name):
    """``a``, refused where a reduced axis is empty: at once for a known size, after the run
    for one known only then (``a[a > 9]``)."""
    return _nonempty(a, axes, f"zero-size array to reduction operation {name} which has no "
                              f"identity\n  at {user_location()}")


def _nonempty(a, axes, message):
    if any(a.shape[i] == 0 for i in axes):
        raise ValueError(message)
    unknown = [i for i in axes if a.shape[i] is None]
    if not unknown:
        return a
    ok = functools.reduce(operator.and_, (dim_size(a, i) > 0 for i in unknown))
    return emit("check", [a, ok], {"message": message, "error": "ValueError"},
                scalar=a.is_scalar)


def _given(v):
    return v is not NoValue and not (v is True and not isinstance(v, Tracer))


def _masked(fn, a, where, initial, fill, **kwargs):
    """``a`` with the elements ``where`` leaves out replaced by ``fill`` (the reduction's
    identity, or ``initial``), after NumPy's checks of the mask and of ``initial``."""
    a = to_tracer(a)
    if not _given(where):
        return a
    mask = to_tracer(where)
    sample = {"where": np.zeros((1,), mask.dtype)}
    if _given(initial):
        sample["initial"] = initial
    numpy_says(fn, np.zeros((1,), a.dtype), **sample, **kwargs)
    try:
        if broadcast_shapes(a.shape, mask.shape) != a.shape:
            raise ValueError
    except ValueError:
        raise ValueError(f"operands could not be broadcast together: the where mask of shape "
                         f"{mask.shape} against the array of shape {a.shape}\n"
                         f"  at {user_location()}") from None
    return _choose(astype(mask, np.bool_), a, np.asarray(fill, a.dtype))


def _with_initial(ufunc, result, initial):
    """``ufunc(result, initial)`` in the result's dtype: the reduction started at ``initial``."""
    if not _given(initial):
        return result
    out = astype(apply_ufunc(ufunc, (result, astype(to_tracer(initial), result.dtype))),
                 result.dtype)
    return Tracer(out.atom, is_scalar=out.ndim == 0)


@implements(np.sum)
def sum_(a, axis=None, dtype=None, out=None, keepdims=False, initial=NoValue, where=NoValue):
    reject("sum", out=out)
    if _given(initial):
        numpy_says(np.sum, np.zeros((1,), to_tracer(a).dtype), dtype=dtype, initial=initial)
    a = _masked(np.sum, a, where, initial, 0, dtype=dtype)
    return _with_initial(np.add, _reduce("reduce_sum", np.sum, a, axis, dtype, keepdims), initial)


@implements(np.prod)
def prod_(a, axis=None, dtype=None, out=None, keepdims=False, initial=NoValue, where=NoValue):
    reject("prod", out=out)
    if _given(initial):
        numpy_says(np.prod, np.zeros((1,), to_tracer(a).dtype), dtype=dtype, initial=initial)
    a = _masked(np.prod, a, where, initial, 1, dtype=dtype)
    return _with_initial(np.multiply, _reduce("reduce_prod", np.prod, a, axis, dtype, keepdims),
                         initial)


def _count(a, axis, where, keepdims):
    """How many elements ``where`` selects along ``axis``, as NumPy's mean divides by."""
    ones = _choose(astype(to_tracer(where), np.bool_), np.ones((), np.intp), np.zeros((), np.intp))
    ones = ones + np.zeros(to_tracer(a).shape, np.intp) if None not in to_tracer(a).shape \
        else ones + astype(to_tracer(a), np.intp) * 0
    return _reduce("reduce_sum", np.sum, ones, axis, None, keepdims)


@implements(np.mean)
def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=NoValue):
    reject("mean", out=out)
    if not _given(where):
        return _reduce("mean", np.mean, a, axis, dtype, keepdims)
    a = to_tracer(a)
    out_dtype = np.dtype(numpy_says(np.mean, np.zeros((1,), a.dtype), dtype=dtype,
                                     where=np.zeros((1,), to_tracer(where).dtype)).dtype)
    # NumPy sums integers and booleans in float64, float16 in float32, then divides.
    wide = np.float64 if a.dtype.kind in "biu" and dtype is None else \
        np.float32 if a.dtype == np.float16 and dtype is None else dtype
    total = sum_(a, axis, wide, keepdims=keepdims, where=where)
    count = _count(a, axis, where, keepdims)
    return astype(total / astype(count, total.dtype), out_dtype)


def _masked_var(a, axis, dtype, ddof, keepdims, where):
    a = to_tracer(a)
    numpy_says(np.var, np.zeros((1,), a.dtype), dtype=dtype,
                where=np.zeros((1,), to_tracer(where).dtype))
    center = mean(a, axis, dtype, keepdims=True, where=where)
    d = a - center
    sq = (d * np.conj(d)).real if a.dtype.kind == "c" else d * d
    total = sum_(sq, axis, None if dtype is None or np.dtype(dtype).kind != "f" else dtype,
                 keepdims=keepdims, where=where)
    count = np.maximum(_count(a, axis, where, keepdims) - ddof, 0)
    out_dtype = np.dtype(numpy_says(np.var, np.zeros((1,), a.dtype), dtype=dtype).dtype)
    return astype(total / astype(count, total.dtype), out_dtype)


@implements(np.var)
def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=NoValue,
        mean=NoValue, correction=NoValue):
    reject("var", out=out, mean=mean)
    ddof = ddof if correction is NoValue else correction
    if _given(where):
        return _masked_var(a, axis, dtype, ddof, keepdims, where)
    return _reduce("var", np.var, a, axis, dtype, keepdims, {"ddof": ddof})


@implements(np.std)
def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=NoValue,
        mean=NoValue, correction=NoValue):
    reject("std", out=out, mean=mean)
    ddof = ddof if correction is NoValue else correction
    if _given(where):
        return np.sqrt(_masked_var(a, axis, dtype, ddof, keepdims, where))
    return _reduce("std", np.std, a, axis, dtype, keepdims, {"ddof": ddof})


def _extremum(op, name):
    fn = np.max if op == "reduce_max" else np.min

    def impl(a, axis=None, out=None, keepdims=False, initial=NoValue, where=NoValue):
        reject(name, out=out)
        a = to_tracer(a)
        if a.dtype.kind == "c":
            if _given(where) or _given(initial):
                raise unsupported(f"np.{name}(..., where=..., initial=...) of complex arrays")
            if a.ndim == 0:
                # One element: NumPy's reduce reads axis 0 or -1 of a 0-d array as no
                # axis, and says what it refuses.
                kind = numpy_says(fn, np.zeros((), a.dtype), axis=axis, keepdims=keepdims)
                return Tracer(a.atom, is_scalar=isinstance(kind, np.generic))
            a = _no_identity(a, axes_of(axis, a.ndim),
                             "maximum" if op == "reduce_max" else "minimum")
            return _complex_extreme(a, axis, keepdims, op == "reduce_max", index=False)
        if _given(where) and not _given(initial):
            # NumPy: maximum has no identity, so a mask needs ``initial``.
            numpy_says(fn, np.zeros((1,), a.dtype), where=np.zeros((1,), bool))
        if not _given(initial):
            a = _no_identity(a, axes_of(axis, a.ndim),
                             "maximum" if op == "reduce_max" else "minimum")
            return _reduce(op, None, a, axis, None, keepdims)
        numpy_says(fn, np.zeros((1,), a.dtype), initial=initial)
        start = np.asarray(initial).astype(a.dtype) if not isinstance(initial, Tracer) else 0
        a = _masked(fn, a, where, initial, start)
        # One more element, ``initial``, along a reduced axis: never an empty reduction.
        axes = axes_of(axis, a.ndim)
        if a.ndim == 0:
            a = reshape_to(a, (1,))
            axes, axis = (0,), None
        pad = full(tuple(1 if i == axes[0] else dim_of(a, i) for i in range(a.ndim)),
                   reshape_to(astype(to_tracer(initial), a.dtype), ()), a.dtype)
        a = concatenate([a, pad], axis=axes[0])
        return _reduce(op, None, a, axis, None, keepdims)
    return impl


max_ = implements(np.max, np.amax)(_extremum("reduce_max", "max"))
min_ = implements(np.min, np.amin)(_extremum("reduce_min", "min"))


@implements(np.ptp)
def ptp(a, axis=None, out=None, keepdims=False):
    return max_(a, axis, keepdims=keepdims) - min_(a, axis, keepdims=keepdims)


@implements(np.all)
def all_(a, axis=None, out=None, keepdims=False, *, where=NoValue):
    reject("all", out=out)
    if _given(where):
        a = _masked(np.all, astype(to_tracer(a), np.bool_), where, NoValue, True)
    return _reduce("reduce_all", None, a, axis, None, keepdims)


@implements(np.any)
def any_(a, axis=None, out=None, keepdims=False, *, where=NoValue):
    reject("any", out=out)
    if _given(where):
        a = _masked(np.any, astype(to_tracer(a), np.bool_), where, NoValue, False)
    return _reduce("reduce_any", None, a, axis, None, keepdims)


def _arg_extremum(op, name):
    def impl(a, axis=None, out=None, *, keepdims=False):
        reject(name, out=out)
        a = to_tracer(a)
        if axis is None:
            if keepdims:
                return reshape_to(impl(a), (1,) * a.ndim)
            a, axis = ravel(a), 0
        elif a.ndim == 0 and not isinstance(axis, tuple) and axis in (0, -1):     # NumPy reads a 0-d array as one element
            return impl(a)
        axis = axis_index(axis, a.ndim)
        a = _nonempty(a, (axis,), f"attempt to get {name} of an empty sequence\n"
                                  f"  at {user_location()}")
        if a.dtype.kind == "c":
            return _complex_extreme(a, axis, keepdims, op == "argmax", index=True)
        return emit(op, [a], {"axes": (axis,), "keepdims": bool(keepdims)},
                    scalar=not keepdims and a.ndim == 1)
    return impl


def _complex_extreme(a, axis, keepdims, largest, index):
    """NumPy's maximum/minimum (or their arg) of complex values: by real part, then
    imaginary part; the first of equal ones; the first NaN wherever there is one."""
    flat, axes, kept_shape = gather_axes_last(a, axis)
    nan = np.isnan(flat)
    worst = np.asarray(-np.inf if largest else np.inf, flat.real.dtype)
    pick = max_ if largest else min_
    re = where(nan, worst, flat.real)
    best_re = pick(re, axis=-1, keepdims=True)
    near = (re == best_re) & ~nan
    im = where(near, flat.imag, worst)
    best_im = pick(im, axis=-1, keepdims=True)
    first = argmax(near & (im == best_im), axis=-1)
    position = where(any_(nan, axis=-1), argmax(nan, axis=-1), first)
    if index:
        out = position
        if keepdims:
            out = reshape_to(out, tuple(1 if i == axis else d for i, d in enumerate(a.shape)))
        return Tracer(out.atom, is_scalar=out.ndim == 0)
    out = reshape_to(take_along_axis(flat, reshape_to(position, kept_shape + (1,)), -1),
                     kept_shape)
    if keepdims:
        out = reshape_to(out, tuple(1 if i in axes else d for i, d in enumerate(a.shape)))
    return Tracer(out.atom, is_scalar=out.ndim == 0)


argmax = implements(np.argmax)(_arg_extremum("argmax", "argmax"))
argmin = implements(np.argmin)(_arg_extremum("argmin", "argmin"))


def _scan(op, fn):
    def impl(a, axis=None, dtype=None, out=None):
        if out is not None:
            return _scan_into(impl, fn.__name__, a, axis, dtype, out)
        a = to_tracer(a)
        if axis is None or (a.ndim == 0 and not isinstance(axis, tuple) and axis in (0, -1)):   # 0-d: as one element
            a, axis = ravel(a), 0
        axis = axis_index(axis, a.ndim)
        kw = {"dtype": dtype} if dtype is not None else {}
        return emit(op, [a], {"axis": axis, "dtype": _probe(fn, a, **kw)})
    return impl


def _scan_into(impl, name, a, axis, dtype, out):
    """``np.cumsum(a, out=out)``: NumPy accumulates in ``out``'s dtype, which gives the
    same numbers as the scan's own dtype where that casts safely into it."""
    result = impl(a, axis, dtype)
    if not isinstance(out, Tracer) or dtype is not None or \
            not np.can_cast(result.dtype, out.dtype, "safe"):
        raise unsupported(f"np.{name}(..., out=...) into an array of a dtype the sums do not "
                          f"cast into safely ({result.dtype}), or one that is not traced",
                          fix=f"Assign the result instead (c = np.{name}(a)).")
    if out.dtype != result.dtype:
        result = impl(a, axis, out.dtype)
    return write_out(out, result, "add" if name == "cumsum" else "multiply")


cumsum = implements(np.cumsum)(_scan("cumsum", np.cumsum))
cumprod = implements(np.cumprod)(_scan("cumprod", np.cumprod))


# ------------------------------------------------------------ elementwise+
def _choose(condition, x, y):
    """``np.where(condition, x, y)``, for functions whose ``where`` is a parameter."""
    return where(condition, x, y)


@implements(np.where)
def where(condition, x=None, y=None):
    if x is None and y is None:
        return where_one_argument(condition)
    # The promotion of a value the data leave a Python number is checked by the
    # dispatch (numpy_api.numpy_result), as for every function.
    return elementwise_where(condition, x, y)


@implements(np.clip)
def clip(a, a_min=NoValue, a_max=NoValue, out=None, *, min=NoValue, max=NoValue, **kwargs):
    if out is not None:
        # NumPy's clip is a ufunc: the result is cast into ``out`` as a ufunc's. Of a NumPy
        # scalar, NumPy calls the scalar's method, which gives a 0-d ``out`` back as a
        # scalar (its value now).
        got = write_out(out, clip(a, a_min, a_max, min=min, max=max, **kwargs), "clip")
        numpy_scalar = isinstance(a, np.generic) or (isinstance(a, Tracer) and a.is_scalar
                                                     and not a.type.weak)
        return Tracer(got.atom, is_scalar=True) if numpy_scalar and got.ndim == 0 else got
    lo = a_min if a_min is not NoValue else (None if min is NoValue else min)
    hi = a_max if a_max is not NoValue else (None if max is NoValue else max)
    res = to_tracer(a)
    if lo is not None and hi is not None and res.dtype.kind in "iu":
        info = np.iinfo(res.dtype)
        lo, hi = (builtins.min(builtins.max(b, info.min), info.max) if type(b) is int else b
                  for b in (lo, hi))
    numpy_says(np.clip, sample_of(res.atom),
                None if lo is None else sample_of(to_tracer(lo).atom),
                None if hi is None else sample_of(to_tracer(hi).atom))
    if lo is not None:
        res = apply_ufunc(np.maximum, (res, lo))
    if hi is not None:
        res = apply_ufunc(np.minimum, (res, hi))
    return res


@implements(np.round, np.around)
def round_(a, decimals=0, out=None):
    reject("round", out=out)
    a = to_tracer(a)
    numpy_says(np.round, np.zeros(1, a.dtype), decimals)
    if a.dtype.kind in "biu":
        if decimals >= 0:
            return a
        scale = 10 ** -decimals
        return astype(apply_ufunc(np.rint, (a / scale,)) * scale, a.dtype)
    if decimals == 0:
        return apply_ufunc(np.rint, (a,))
    scale = 10.0 ** decimals
    return apply_ufunc(np.rint, (a * scale,)) / scale if decimals > 0 else \
        apply_ufunc(np.rint, (a / 10.0 ** -decimals,)) * 10.0 ** -decimals


# ---------------------------------------------------------- linear algebra
@implements(np.matmul)
def matmul(x1, x2, /, out=None, **kwargs):
    reject("matmul", out=out)
    a, b = to_tracer(x1), to_tracer(x2)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(f"matmul: Input operand {0 if a.ndim == 0 else 1} does not have enough "
                         f"dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) "
                         f"requires 1)\n  at {user_location()}")
    a2 = reshape_to(a, (1,) + a.shape) if a.ndim == 1 else a
    b2 = reshape_to(b, b.shape + (1,)) if b.ndim == 1 else b
    out = emit("matmul", [a2, b2])
    shape = out.shape
    if a.ndim == 1:
        shape = shape[:-2] + shape[-1:]
    if b.ndim == 1:
        shape = shape[:-1]
    res = reshape_to(out, shape)
    if res.ndim == 0:
        res = Tracer(res.atom, is_scalar=True)
    return res


@implements(np.dot)
def dot(a, b, out=None):
    reject("dot", out=out)
    a, b = to_tracer(a), to_tracer(b)
    if a.ndim == 0 or b.ndim == 0:
        return apply_ufunc(np.multiply, (a, b))
    if b.ndim <= 2:
        return matmul(a, b)
    return tensordot(a, b, ([a.ndim - 1], [b.ndim - 2]))


@implements(np.vdot)
def vdot(a, b):
    a = to_tracer(a)
    a = apply_ufunc(np.conjugate, (a,)) if a.dtype.kind == "c" else a
    return _as_scalar(dot(ravel(a), ravel(b)))


def _as_scalar(t):
    return Tracer(t.atom, is_scalar=True) if t.ndim == 0 else t


@implements(np.inner)
def inner(a, b):
    a, b = to_tracer(a), to_tracer(b)
    if a.ndim == 0 or b.ndim == 0:
        return apply_ufunc(np.multiply, (a, b))
    return _as_scalar(tensordot(a, b, ([a.ndim - 1], [b.ndim - 1])))


@implements(np.outer)
def outer(a, b, out=None):
    reject("outer", out=out)
    return apply_ufunc(np.multiply, (reshape(ravel(a), (-1, 1)), ravel(b)))


@implements(np.tensordot)
def tensordot(a, b, axes=2):
    a, b = to_tracer(a), to_tracer(b)
    if isinstance(axes, (int, np.integer)):
        ax_a, ax_b = list(range(a.ndim - axes, a.ndim)), list(range(axes))
    else:
        ax_a, ax_b = axes
        ax_a = [ax_a] if isinstance(ax_a, (int, np.integer)) else list(ax_a)
        ax_b = [ax_b] if isinstance(ax_b, (int, np.integer)) else list(ax_b)
    ax_a = [axis_index(i, a.ndim) for i in ax_a]
    ax_b = [axis_index(i, b.ndim) for i in ax_b]
    if len(ax_a) != len(ax_b) or any(a.shape[i] != b.shape[j] for i, j in zip(ax_a, ax_b)):
        raise ValueError(f"shape-mismatch for sum\n  at {user_location()}")
    free_a = [i for i in range(a.ndim) if i not in ax_a]
    free_b = [j for j in range(b.ndim) if j not in ax_b]
    k = int(np.prod([a.shape[i] for i in ax_a]))
    a2 = reshape(transpose(a, free_a + ax_a), (-1, k) if a.size else
                 (int(np.prod([a.shape[i] for i in free_a])), k))
    b2 = reshape(transpose(b, ax_b + free_b), (k, -1) if b.size else
                 (k, int(np.prod([b.shape[j] for j in free_b]))))
    out = emit("matmul", [a2, b2])
    return reshape_to(out, tuple(a.shape[i] for i in free_a) + tuple(b.shape[j] for j in free_b))


@implements(np.einsum)
def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    reject("einsum", out=out)
    if not isinstance(operands[0], str):
        raise unsupported("np.einsum in its sublist form", fix="Use a subscripts string.")
    subscripts, arrays = operands[0], [to_tracer(o) for o in operands[1:]]
    if dtype is not None:
        arrays = [astype(t, dtype) for t in arrays]
    res = emit("einsum", arrays, {"subscripts": subscripts})
    if res.ndim == 0:
        res = Tracer(res.atom, is_scalar=True)
    return res


@implements(np.trace)
def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    reject("trace", out=out)
    a = to_tracer(a)
    a = moveaxis(a, (axis_index(axis1, a.ndim), axis_index(axis2, a.ndim)), (-2, -1))
    n, m = a.shape[-2:]
    if n is None or m is None:
        # Sizes known only at run time: the sum of the diagonal's elements.
        return sum_(np.diagonal(a, offset, -2, -1), axis=-1, dtype=dtype)
    mask = emit("eye", [], {"n": n, "m": m, "k": int(offset), "dtype": np.dtype(np.bool_)})
    zero = broadcast_to(np.zeros((), a.dtype), a.shape)
    return sum_(where(mask, a, zero), axis=(-2, -1), dtype=dtype)
