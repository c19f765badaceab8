"""The methods of NumPy's ufuncs on traced arrays: ``ufunc(..., out=, where=)``, ``.at``,
``.reduce``, ``.accumulate``, ``.reduceat``, ``.outer`` (what ``Tracer.__array_ufunc__``
calls). The ufunc call itself is ``numpy_api.apply_ufunc``; these build on the modules
that implement the reductions, scans and writes.
"""
from __future__ import annotations

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from ..errors import unsupported, user_location
from ..graph_ir.ops import ELEMENTWISE_UFUNCS
from ..graph_ir.types import broadcast_shapes
from . import numpy_math as m
from . import scipy_special
from .indexing import constant_value, dim_size, getitem
from .numpy_api import (IMPLS, NUMPY_UFUNCS, apply_ufunc, arange, astype, check_out_cast,
                        concatenate, elementwise_where, full, moveaxis, numpy_says, reject,
                        reshape, reshape_to, sample_of, stack)
from .numpy_math import cumprod, cumsum, matmul
from .numpy_math import where as np_where
from .indexing import write_out
from .numpy_mutation import AT_MODES, ufunc_at, write
from .numpy_sorting import search
from .tracer import Tracer, contains_tracer, emit, ndim_of, to_tracer


def ufunc_method(ufunc, method, inputs, kwargs):
    if ufunc not in NUMPY_UFUNCS:
        if scipy_special.is_scipy_special(ufunc):
            return scipy_special.call(ufunc, method, inputs, kwargs)
        raise unsupported(scipy_special.label(ufunc))
    if method == "__call__" and kwargs.get("where", True) is not True:
        return _ufunc_where(ufunc, inputs, kwargs)
    out = kwargs.pop("out", None)
    if out is not None and not all(o is None for o in (out if isinstance(out, tuple) else (out,))):
        if method == "accumulate" and ufunc.nout == 1:
            return _accumulated_into(ufunc, inputs, kwargs, out)
        if method != "__call__" or ufunc.nout != 1:
            raise unsupported(f"np.{ufunc.__name__}.{method}(..., out=...)")
        return write_out(out, ufunc_method(ufunc, method, inputs, kwargs), ufunc.__name__)
    if method == "at":
        return ufunc_at(ufunc, *inputs)
    if ufunc is np.matmul and method == "__call__":
        return matmul(*inputs, **kwargs)
    if method == "__call__" and ufunc in IMPLS:     # gufuncs such as np.vecdot, np.matvec
        return IMPLS[ufunc](*inputs, **kwargs)
    if method == "__call__":
        reject(ufunc.__name__, where=kwargs.pop("where", None))
        dtype = kwargs.pop("dtype", None)
        kwargs.pop("casting", None), kwargs.pop("order", None), kwargs.pop("subok", None)
        if kwargs:
            raise unsupported(f"np.{ufunc.__name__}(..., {', '.join(kwargs)}=...)")
        return apply_ufunc(ufunc, inputs, dtype=dtype)
    reductions = _ufunc_reductions()
    if method == "reduce" and ufunc.__name__ in reductions:
        axis = kwargs.pop("axis", 0)
        return reductions[ufunc.__name__](inputs[0], axis=axis, **kwargs)
    if method == "reduce" and ufunc.__name__ in _ORDERLESS + _IN_ORDER:
        return _folded(ufunc, inputs[0], **kwargs)
    if method == "accumulate" and ufunc.__name__ in ("add", "multiply"):
        if ndim_of(inputs[0]) == 0:     # NumPy: "cannot accumulate on a scalar"
            numpy_says(ufunc.accumulate, np.zeros((), to_tracer(inputs[0]).dtype))
        fn = cumsum if ufunc.__name__ == "add" else cumprod
        return fn(inputs[0], axis=kwargs.pop("axis", 0), dtype=kwargs.pop("dtype", None))
    if method == "accumulate" and ufunc.__name__ in _SCANNED:
        return _accumulate(ufunc, inputs[0], **kwargs)
    if method == "reduceat" and ufunc.__name__ in _REDUCEAT:
        return _reduceat(ufunc, *inputs, **kwargs)
    if method == "outer":
        a, b = (to_tracer(x) for x in inputs)
        return apply_ufunc(ufunc, (reshape_to(a, a.shape + (1,) * b.ndim), b))
    raise unsupported(f"np.{ufunc.__name__}.{method}")


_CAST_FIRST = ("add", "multiply", "maximum", "minimum")


def _accumulated_into(ufunc, inputs, kwargs, out):
    """``ufunc.accumulate(a, out=out)`` (``np.maximum.accumulate(idx, out=idx)``, a forward
    fill): NumPy runs the loop in ``out``'s dtype, so only an ``out`` of the dtype the
    accumulation has anyway takes the result as it is."""
    target = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    result = ufunc_method(ufunc, "accumulate", inputs, dict(kwargs))
    if isinstance(target, Tracer) and target.dtype != result.dtype and \
            kwargs.get("dtype") is None and ufunc.__name__ in _CAST_FIRST and \
            np.can_cast(result.dtype, target.dtype, "safe"):
        # A wider ``out`` (ints into floats): NumPy's loop of that dtype, on the items cast.
        result = ufunc_method(ufunc, "accumulate", (astype(to_tracer(inputs[0]), target.dtype),)
                              + tuple(inputs[1:]), dict(kwargs))
    if not isinstance(target, Tracer) or target.dtype != result.dtype:
        raise unsupported(f"np.{ufunc.__name__}.accumulate(..., out=...) into an array of "
                          f"another dtype than the accumulation's ({result.dtype}), or one "
                          f"that is not traced",
                          fix="Assign the result instead (a = np.maximum.accumulate(a)).")
    return write_out(target, result, ufunc.__name__)


# Associative ufuncs: their accumulate is a parallel prefix scan. For maximum and
# minimum a tie keeps the later operand in both orders, as NumPy's loop does.
_SCANNED = ("maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or", "logical_xor",
            "bitwise_and", "bitwise_or", "bitwise_xor")


def _accumulate(ufunc, a, axis=0, dtype=None, out=None):
    """``ufunc.accumulate(a, axis)`` as ``ceil(log2(n))`` rounds of ``ufunc`` on shifted
    slices (Hillis and Steele), each element combined with the earlier ones in order."""
    reject(f"{ufunc.__name__}.accumulate", out=out)
    a = to_tracer(a)
    sample = np.zeros((1,) * max(a.ndim, 1), a.dtype)
    # NumPy's own checks: a 0-d array, the axis, the dtype.
    out_dtype = numpy_says(ufunc.accumulate, sample if a.ndim else np.zeros((), a.dtype),
                            axis=axis, dtype=dtype).dtype
    axis = normalize_axis_index(axis, a.ndim)
    n = a.shape[axis]
    y = astype(a, out_dtype)
    if n is None:
        # A length only the run knows: the same rounds, in a graph loop.
        return emit("accumulate", [y], {"ufunc": ufunc.__name__, "axis": axis})
    shift = 1
    while shift < n:
        head = getitem(y, (slice(None),) * axis + (slice(None, shift),))
        earlier = getitem(y, (slice(None),) * axis + (slice(None, n - shift),))
        later = getitem(y, (slice(None),) * axis + (slice(shift, None),))
        combined = astype(apply_ufunc(ufunc, (earlier, later)), out_dtype)
        y = concatenate([head, combined], axis=axis)
        shift *= 2
    return y


# Reductions NumPy runs as a loop of the ufunc along the axis: in rounds of pairs where
# the result does not depend on the order (gcd, bitwise operations, fmax and fmin), in
# NumPy's own order where it does (lcm wraps around on overflow), up to this many items.
_ORDERLESS = ("gcd", "bitwise_and", "bitwise_or", "bitwise_xor", "logical_xor", "fmax", "fmin")
_IN_ORDER = ("lcm",)
_IN_ORDER_MAX = 256


def _folded(ufunc, a, axis=0, dtype=None, out=None, keepdims=False, initial=np._NoValue,
            where=True):
    name = f"{ufunc.__name__}.reduce"
    reject(name, out=out, initial=None if initial is np._NoValue else initial,
           where=None if where is True else where)
    a = to_tracer(a)
    if None in a.shape:
        raise unsupported(f"np.{name} of an array whose shape is known only at run time")
    if isinstance(axis, tuple) and len(axis) == 1:
        axis = axis[0]
    # NumPy's own checks (the axis, the dtype, an empty reduction without an identity) and
    # its result dtype, on a sample as empty as the array.
    sample = np.zeros(tuple(0 if d == 0 else 1 for d in a.shape), a.dtype)
    made = numpy_says(ufunc.reduce, sample, axis=axis, dtype=dtype, keepdims=keepdims)
    out_dtype = np.asarray(made).dtype
    if isinstance(axis, tuple):
        raise unsupported(f"np.{name} over several axes")
    shape = a.shape
    if axis is None or a.ndim == 0:     # NumPy reduces a 0-d array to its item
        a, axis = reshape_to(a, (a.size,)), 0
    axis = normalize_axis_index(axis, a.ndim)
    y = astype(a, out_dtype)
    n = y.shape[axis]

    def part(start, stop):
        return getitem(y, (slice(None),) * axis + (slice(start, stop),))

    def combined(u, v):
        return astype(apply_ufunc(ufunc, (u, v)), out_dtype)

    if n == 0:
        kept = y.shape[:axis] + (1,) + y.shape[axis + 1:]
        y = full(kept, ufunc.identity, out_dtype)
    elif ufunc.__name__ in _ORDERLESS:
        while n > 1:
            half = n // 2
            pairs = combined(part(0, half), part(half, 2 * half))
            y = pairs if n % 2 == 0 else concatenate([pairs, part(2 * half, n)], axis=axis)
            n = (n + 1) // 2
    else:
        if n > _IN_ORDER_MAX:
            raise unsupported(f"np.{name} of more than {_IN_ORDER_MAX} items along the axis",
                              fix="Reduce it in a loop, or let the function run with NumPy.")
        acc = part(0, 1)
        for i in range(1, n):
            acc = combined(acc, part(i, i + 1))
        y = acc
    # ``y`` keeps the reduced axis, of length 1 (of the flattened array for axis=None).
    if keepdims:
        result = y if len(shape) == y.ndim else reshape_to(y, (1,) * len(shape))
    else:
        result = reshape_to(y, y.shape[:axis] + y.shape[axis + 1:])
    if result.ndim == 0:
        return emit("convert", [result], {"dtype": out_dtype}, scalar=True)
    return result


_REDUCEAT = ("add", "multiply", "maximum", "minimum")


def ufunc_method_compiles(name, method):
    """Whether ``np.<name>.<method>`` compiles: the cases ``ufunc_method`` takes."""
    return {"reduce": name in _ufunc_reductions() or name in _ORDERLESS + _IN_ORDER,
            "accumulate": name in ("add", "multiply") + _SCANNED,
            "reduceat": name in _REDUCEAT,
            "outer": name in ELEMENTWISE_UFUNCS,
            "at": name in AT_MODES}[method]


def _reduceat(ufunc, a, indices, axis=0, dtype=None, out=None):
    """``ufunc.reduceat(a, indices, axis)`` for indices known when tracing: segment ``i``
    reduces ``a[indices[i]:indices[i + 1]]`` (to the end for the last), or is
    ``a[indices[i]]`` where the next index is not larger. Nondecreasing indices are one
    ``reduceat`` op (segment reductions); others, one reduction each."""
    name = f"np.{ufunc.__name__}.reduceat"
    reject(name[3:], out=out)
    a = to_tracer(a)
    idx = constant_value(indices)
    if isinstance(idx, Tracer) or (isinstance(idx, (list, tuple)) and contains_tracer(idx)):
        return _reduceat_traced(ufunc, a, to_tracer(idx), axis, dtype, name)
    # An empty list is no indices for NumPy; an empty float array fails its cast.
    idx = np.asarray(idx, np.intp if isinstance(idx, (list, tuple)) and not len(idx) else None)
    if a.ndim == 0:
        numpy_says(ufunc.reduceat, np.zeros((), a.dtype), idx, axis=axis, dtype=dtype)
    axis = normalize_axis_index(axis, a.ndim)
    n = a.shape[axis]
    if n is None:
        raise unsupported(f"{name} along an axis of unknown size")
    # NumPy's checks (index bounds and type, axis) and dtype, on a stand-in of the length.
    stand_in = np.zeros(tuple(n if i == axis else 1 for i in range(a.ndim)), a.dtype)
    out_dtype = numpy_says(ufunc.reduceat, stand_in, idx, axis=axis, dtype=dtype).dtype
    idx = idx.astype(np.intp).ravel()
    x = moveaxis(astype(a, out_dtype), axis, 0)
    # Complex maxima have no segment kernel: one reduction per segment there.
    segments = not (ufunc.__name__ in ("maximum", "minimum") and out_dtype.kind == "c")
    if not idx.size or (np.all(np.diff(idx) >= 0) and segments):
        res = emit("reduceat", [x], {"ufunc": ufunc.__name__,
                                     "indices": tuple(int(i) for i in idx)})
    else:
        if idx.size > 256:
            raise unsupported(f"{name} with {idx.size} indices that are not nondecreasing")
        ends = np.append(idx[1:], n)
        firsts = getitem(x, (idx,))
        reduce = _ufunc_reductions()[ufunc.__name__]
        res = stack([astype(reduce(getitem(x, (slice(int(i), int(e)),)), axis=0), out_dtype)
                     if i < e else getitem(firsts, (k,))
                     for k, (i, e) in enumerate(zip(idx, ends))])
    return moveaxis(res, 0, axis)


def _reduceat_traced(ufunc, a, idx, axis, dtype, name):
    """``ufunc.reduceat`` at indices known only at run time (group starts found in the
    data: ``np.r_[0, np.flatnonzero(np.diff(keys)) + 1]``), as for nondecreasing known
    ones: each element goes into the segment of the last index at or before it. Indices
    out of bounds raise NumPy's IndexError after the run; decreasing ones run NumPy."""
    if idx.ndim != 1 or idx.dtype.kind not in "iu" or a.ndim == 0:
        raise unsupported(f"{name} with indices known only at run time that are not a 1-d "
                          f"integer array")
    axis = normalize_axis_index(axis, a.ndim)
    scatter = not (ufunc.__name__ in ("maximum", "minimum") and a.dtype.kind == "c")
    if ufunc.__name__ not in ("add", "multiply", "maximum", "minimum") or not scatter:
        raise unsupported(f"{name} with indices known only at run time")
    stand_in = np.zeros(tuple(2 if i == axis else 1 for i in range(a.ndim)), a.dtype)
    out_dtype = numpy_says(ufunc.reduceat, stand_in, np.array([0, 1]), axis=axis,
                            dtype=dtype).dtype
    x = moveaxis(astype(a, out_dtype), axis, 0)
    n, k = dim_size(x, 0), dim_size(idx, 0)
    where = user_location()
    idx = astype(idx, np.intp)
    inside = (idx >= 0) & (idx < n)
    idx = emit("check", [idx, np.all(inside)], {
        "error": "IndexError", "message": f"index out-of-bounds in {ufunc.__name__}.reduceat "
                                          f"(0 to the length of axis {axis})\n  at {where}"})
    rising = np.all(idx[1:] >= idx[:-1])
    idx = emit("check", [idx, rising], {
        "error": "OutsideTheGraph", "message": f"{name} with decreasing indices known only at "
                                               f"run time\n  at {where}"})
    idx = _select(inside, idx, np.zeros((), np.intp))      # in bounds until a check raises
    ends = concatenate([idx[1:], reshape_to(astype(to_tracer(n), np.intp), (1,))])
    valid = idx < ends
    firsts = getitem(x, (idx,))
    identity = {"add": 0, "multiply": 1}.get(ufunc.__name__)
    shape = (-1,) + (1,) * (x.ndim - 1)
    if identity is None:
        res = firsts
    else:
        res = _select(reshape(valid, shape), np.asarray(identity, out_dtype), firsts)
    # One more row, the segment of the elements before the first index: dropped after.
    res = concatenate([astype(res, out_dtype), getitem(firsts, (slice(0, 1),))], 0)
    ids = search(idx, arange(n, dtype=np.intp), "right") - 1
    ids = _select(ids < 0, reshape_to(astype(to_tracer(k), np.intp), ()), ids)
    ufunc_at(ufunc, res, (ids,), x)
    return moveaxis(getitem(res, (slice(0, -1),)), 0, axis)


def _select(condition, x, y):
    return elementwise_where(condition, x, y)


def _ufunc_where(ufunc, inputs, kwargs):
    """``ufunc(..., where=mask)``: the result where ``mask`` is True; elsewhere ``out``
    keeps what it held, and a new result (no ``out``) holds zeros where NumPy leaves the
    memory it allocated uninitialised."""
    mask = kwargs.pop("where")
    out = kwargs.pop("out", None)
    outs = (None,) * ufunc.nout if out is None else out if isinstance(out, tuple) else (out,)
    if len(outs) != ufunc.nout:
        numpy_says(ufunc, *[sample_of(to_tracer(x).atom) for x in inputs], out=out)
    for o in outs:
        if o is not None and not isinstance(o, Tracer):
            raise unsupported(f"np.{ufunc.__name__}(..., out=<an array that is not traced>)",
                              fix="Allocate the output inside the function (np.empty_like(x)).")
    mask = to_tracer(mask)
    # NumPy's own verdict on the mask (it must be boolean) and the operands.
    numpy_says(ufunc, *[sample_of(to_tracer(x).atom) for x in inputs],
                out=None if ufunc.nout == 1 else (None,) * ufunc.nout,
                where=sample_of(mask.atom), **{k: v for k, v in kwargs.items() if k == "dtype"})
    results = ufunc_method(ufunc, "__call__", inputs, kwargs)
    results = results if isinstance(results, tuple) else (results,)
    made = []
    for r, o in zip(results, outs):
        if o is None:
            made.append(np_where(mask, r, np.zeros((), r.dtype)))
            continue
        r = check_out_cast(ufunc.__name__, r, o)
        try:
            if broadcast_shapes(mask.shape, o.shape) != o.shape:
                raise ValueError
        except ValueError:
            raise ValueError(f"non-broadcastable where mask with shape {mask.shape} for the "
                             f"output of shape {o.shape}\n  at {user_location()}") from None
        write(o, None, np_where(mask, astype(r, o.dtype), o),
              what=f"np.{ufunc.__name__}(..., out=..., where=...)")
        made.append(o)
    return made[0] if len(made) == 1 else tuple(made)


def _ufunc_reductions():
    return {"add": m.sum_, "multiply": m.prod_, "maximum": m.max_, "minimum": m.min_,
            "logical_and": m.all_, "logical_or": m.any_}
