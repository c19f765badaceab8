"""Interpolation, convolution, polynomials, comparisons, selection, index arithmetic
and log-spaced sequences, each following NumPy's own algorithm on traced values.
"""
from __future__ import annotations

import operator

import numpy as np

from ..errors import unsupported, user_location
from . import numpy_math as m
from .numpy_api import (sample_of, arange, astype, broadcast_to, concatenate, implements, linspace,
                        moveaxis, ones_like, reshape, stack, transpose)
from .indexing import dim_size
from .numpy_sorting import searchsorted, take
from .tracer import Tracer, emit, numpy_says, to_tracer


def _scalar_if_0d(t):
    return Tracer(t.atom, is_scalar=t.ndim == 0)


def _python_bool(t):
    """A traced bool that comes back as a Python ``bool`` (what NumPy returns here)."""
    return emit("logical_and", [t, True], {"weak": True})


# ------------------------------------------------------------ interpolation
@implements(np.interp)
def interp(x, xp, fp, left=None, right=None, period=None):
    if period is not None:
        raise unsupported("np.interp(..., period=...)")
    x, xp, fp = to_tracer(x), to_tracer(xp), to_tracer(fp)
    dtype = np.dtype(numpy_says(np.interp, np.zeros(1, x.dtype), np.zeros(1, xp.dtype),
                                 np.zeros(1, fp.dtype)).dtype)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError(f"object too deep for desired array\n  at {user_location()}")
    run_time = None in (xp.shape[0], fp.shape[0])
    if not run_time and xp.shape[0] != fp.shape[0]:
        raise ValueError(f"fp and xp are not of the same length.\n  at {user_location()}")
    if xp.shape[0] == 0:
        raise ValueError(f"array of sample points is empty\n  at {user_location()}")
    x, xp = astype(x, np.float64), astype(xp, np.float64)
    fp = astype(fp, dtype)
    n = xp.shape[0]
    if run_time:
        # Sample points of run-time length (a selection): NumPy's checks run with the graph.
        n, count = dim_size(xp, 0), dim_size(fp, 0)
        where = user_location()
        n = emit("check", [n, n == count], {"message": f"fp and xp are not of the same length.\n"
                                                    f"  at {where}", "error": "ValueError"},
                 scalar=True)
        n = emit("check", [n, n > 0], {"message": f"array of sample points is empty\n"
                                                  f"  at {where}", "error": "ValueError"},
                 scalar=True)
    left = fp[0] if left is None else astype(left, dtype)
    right = fp[-1] if right is None else astype(right, dtype)
    if not run_time and n == 1:
        res = np.where(x < xp[0], left, np.where(x > xp[0], right, fp[0]))
    else:
        # With one sample point (possible when n is a run-time size) both ends are that
        # point and every x is below, above or at it: the selections below decide.
        j = np.clip(searchsorted(xp, x, side="right") - 1, 0, np.maximum(n - 2, 0))
        j1 = np.minimum(j + 1, np.maximum(n - 1, 0))
        px, pf = xp, fp
        if run_time:    # gathers stay in bounds until the check raises for no points
            px = concatenate([xp, np.zeros(1, xp.dtype)])
            pf = concatenate([fp, np.zeros(1, fp.dtype)])
        x0, x1, y0, y1 = take(px, j, 0), take(px, j1, 0), take(pf, j, 0), take(pf, j1, 0)
        slope = (y1 - y0) / (x1 - x0)
        res = slope * (x - x0) + y0
        # NumPy's fallbacks when the formula gives NaN (infinite slopes or values).
        retry = slope * (x - x1) + y1
        retry = np.where(np.isnan(retry) & (y0 == y1), y0, retry)
        res = np.where(np.isnan(res), retry, res)
        res = np.where(x == x0, y0, res)
        res = np.where(x < xp[0], left, np.where(x > xp[-1], right,
                                                 np.where(x == xp[-1], fp[-1], res)))
    res = np.where(np.isnan(x), np.full((), np.nan, dtype), res)
    return _scalar_if_0d(astype(res, dtype))


# ------------------------------------------------------------ convolution
# Kernels up to this long are a sum of shifted copies of the data, one per weight: an
# elementwise chain (which XLA fuses into one loop). Longer ones multiply blocks of the
# data by Toeplitz matrices of the kernel, for blocks of b = min(k, _BLOCK_UP_TO)
# outputs: the matrices hold about (k + b) * b elements, growing only linearly with k.
SHIFTED_UP_TO = 64
_BLOCK_UP_TO = 256


def _correlate_full(a, v):
    """c[k] = sum_j a[j + k] v[j] for k = -(len(v) - 1) .. len(a) - 1 (``len(a) >= len(v)``),
    for kernels of up to ``SHIFTED_UP_TO`` elements."""
    n, k = a.shape[0], v.shape[0]
    zeros = broadcast_to(np.zeros((), a.dtype), (k - 1,))
    padded = concatenate([zeros, a, zeros]) if k > 1 else a
    # In the order of j, as NumPy's dot of each window sums.
    out = padded[0:n + k - 1] * v[0]
    for j in range(1, k):
        out = out + padded[j:j + n + k - 1] * v[j]
    return out


def _correlate_mode(a, v, mode):
    """The part ``mode`` of the correlation of ``a`` with ``v`` (``len(a) >= len(v)``)."""
    n, k = a.shape[0], v.shape[0]
    if k <= SHIFTED_UP_TO:
        return _trim(_correlate_full(a, v), n, k, mode)
    # The outputs of the full correlation to skip, and how many to compute.
    skip, length = {"full": (0, n + k - 1), "same": (k - 1 - k // 2, n),
                    "valid": (k - 1, n - k + 1)}[mode]
    return _correlate_blocks(a, v, k - 1 - skip, length)


def _correlate_blocks(a, v, lead, length):
    """``length`` outputs of c[t] = sum_j d[t + j] v[j], where ``d`` is ``a`` after ``lead``
    zeros and before enough zeros. Outputs come in blocks of ``b``: rows of ``d`` cut
    into ``b`` columns; block ``t`` of outputs is ``sum_i rows[t + i] @ T_i``, with
    ``T_i[p, r] = v[i * b + p - r]``, for the ``count`` rows a block of outputs reads."""
    n, k = a.shape[0], v.shape[0]
    b = min(k, _BLOCK_UP_TO)
    count = -(-(b + k - 1) // b)
    blocks = -(-length // b)
    rows = blocks + count - 1
    pieces = [_zeros(lead, a.dtype), a, _zeros(rows * b - lead - n, a.dtype)]
    data = reshape(concatenate([p for p in pieces if p.shape[0]]), (rows, b))
    kernel = _toeplitz_blocks(v, b, count)
    out = m.matmul(data[0:blocks], kernel[0:b])
    for i in range(1, count):
        out = out + m.matmul(data[i:i + blocks], kernel[i * b:(i + 1) * b])
    return reshape(out, (blocks * b,))[:length]


def _toeplitz_blocks(v, b, count):
    """The ``(count * b, b)`` matrix ``T[p, r] = v[p - r]`` (zero where ``p - r`` falls
    outside ``v``), built from ``v`` alone: ``b`` copies of ``v`` and zeros laid end to end
    and cut into rows one element shorter, so that row ``r`` starts ``r`` elements before
    its copy of ``v``, on the zeros that end the copy before."""
    k = v.shape[0]
    width = count * b + b - 1
    copies = broadcast_to(concatenate([v, _zeros(width - k, v.dtype)]), (b, width))
    sheared = reshape(reshape(copies, (b * width,))[:b * (width - 1)], (b, width - 1))
    return transpose(sheared[:, :count * b])


def _zeros(count, dtype):
    return broadcast_to(np.zeros((), dtype), (count,))


def _trim(full, n, k, mode):
    if mode == "full":
        return full
    if mode == "same":
        start = k - 1 - k // 2
        return full[start:start + n]
    return full[k - 1:n]


def _run_time_lengths(a, v, name):
    if (a.ndim == 1 and a.shape[0] is None) or (v.ndim == 1 and v.shape[0] is None):
        raise unsupported(f"np.{name} of an array whose length is known only at run time "
                          f"(a kernel sized by the data)",
                          fix="Give the kernel a length known when tracing (a Python int "
                              "radius, a static argument).")


def _correlate(a, v, mode, conjugate, name):
    a, v = to_tracer(a), to_tracer(v)
    _run_time_lengths(a, v, name)
    dtype = np.dtype(numpy_says(getattr(np, name), np.ones(max(a.shape[0], 1) if a.ndim == 1
                                                            else a.shape, a.dtype),
                                 np.ones(v.shape, v.dtype), mode=mode).dtype)
    mode = {0: "valid", 1: "same", 2: "full"}.get(mode, mode)
    a, v = astype(a, dtype), astype(v, dtype)
    conj = np.conjugate if conjugate and dtype.kind == "c" else (lambda t: t)
    if a.shape[0] >= v.shape[0]:
        return _correlate_mode(a, conj(v), mode)
    # NumPy swaps the operands and reverses (and conjugates) the result.
    return conj(_correlate_mode(v, conj(a), mode)[::-1])


@implements(np.correlate)
def correlate(a, v, mode="valid"):
    return _correlate(a, v, mode, True, "correlate")


@implements(np.convolve)
def convolve(a, v, mode="full"):
    a, v = to_tracer(a), to_tracer(v)
    _run_time_lengths(a, v, "convolve")
    if v.ndim == 1 and a.ndim == 1 and v.shape[0] > a.shape[0]:
        a, v = v, a
    return _correlate(a, v[::-1] if v.ndim == 1 else v, mode, False, "convolve")


# -------------------------------------------------------------- polynomials
@implements(np.polyval)
def polyval(p, x):
    p, x = to_tracer(p), to_tracer(x)
    y = np.zeros_like(x)
    for i in range(p.shape[0]):
        y = y * x + p[i]  # Horner's rule, as NumPy evaluates it
    return y


@implements(np.vander)
def vander(x, N=None, increasing=False):
    x = to_tracer(x)
    if x.ndim != 1:
        raise ValueError(f"x must be a one-dimensional array or sequence.\n  at {user_location()}")
    n = x.shape[0] if N is None else operator.index(N)
    dtype = np.promote_types(x.dtype, int)
    if n == 0:
        return broadcast_to(np.zeros((), dtype), (x.shape[0], 0))
    column = reshape(astype(x, dtype), (-1, 1))
    ones = ones_like(column)        # as many rows as x, known when tracing or not
    powers = m.cumprod(concatenate([ones] + [column] * (n - 1), 1), axis=1) if n > 1 else ones
    return powers if increasing else powers[:, ::-1]


@implements(np.trapezoid)
def trapezoid(y, x=None, dx=1.0, axis=-1):
    y = to_tracer(y)
    y = moveaxis(y, axis, -1)
    if x is None:
        width = dx
    else:
        x = to_tracer(x)
        width = x[1:] - x[:-1] if x.ndim == 1 else moveaxis(x, axis, -1)[..., 1:] - \
            moveaxis(x, axis, -1)[..., :-1]
    return m.sum_(width * (y[..., 1:] + y[..., :-1]) / 2.0, axis=-1)


# -------------------------------------------------------------- comparisons
@implements(np.isclose)
def isclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    x, y = (v if isinstance(v, (int, float, complex)) else to_tracer(v) for v in (a, b))
    if isinstance(y, Tracer):
        y = astype(y, np.result_type(sample_of(y.atom), 1.0))
    elif isinstance(y, int):
        y = float(y)
    result = (np.less_equal(np.abs(x - y), atol + rtol * np.abs(y)) & np.isfinite(y)) | (x == y)
    if equal_nan:
        result = result | (np.isnan(x) & np.isnan(y))
    return _scalar_if_0d(to_tracer(result))


@implements(np.allclose)
def allclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    return _python_bool(m.all_(isclose(a, b, rtol, atol, equal_nan)))


@implements(np.array_equal)
def array_equal(a1, a2, equal_nan=False):
    a1, a2 = to_tracer(a1), to_tracer(a2)
    if a1.ndim != a2.ndim or any(d1 is not None and d2 is not None and d1 != d2
                                 for d1, d2 in zip(a1.shape, a2.shape)):
        return False
    shaped = None
    if None in a1.shape or None in a2.shape:
        # Sizes known only at run time: equal sizes, and the values compared over the
        # shorter of the two (all of both where the sizes are equal).
        for axis in range(a1.ndim):
            if a1.shape[axis] is None or a2.shape[axis] is None:
                same_size = dim_size(a1, axis) == dim_size(a2, axis)
                shaped = same_size if shaped is None else shaped & same_size
        a1, a2 = a1.reshape(-1), a2.reshape(-1)
        n = np.minimum(dim_size(a1, 0), dim_size(a2, 0))
        a1, a2 = a1[:n], a2[:n]
    same = a1 == a2
    if equal_nan and a1.dtype.kind in "fc" and a2.dtype.kind in "fc":
        same = same | (np.isnan(a1) & np.isnan(a2))
    same = m.all_(same)
    return _python_bool(same if shaped is None else shaped & same)


@implements(np.array_equiv)
def array_equiv(a1, a2):
    a1, a2 = to_tracer(a1), to_tracer(a2)
    if None in a1.shape or None in a2.shape:
        if a1.ndim == a2.ndim and not any(1 in (d1, d2) for d1, d2 in zip(a1.shape, a2.shape)):
            # No size 1 known: broadcastable only where every size is the other's.
            return array_equal(a1, a2)
        raise unsupported("np.array_equiv of arrays whose sizes are known only at run time, "
                          "one of which may broadcast",
                          fix="Compare with np.array_equal, or broadcast the arrays first.")
    try:
        np.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return _python_bool(m.all_(a1 == a2))


@implements(np.nan_to_num)
def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    given = x
    x = to_tracer(x)
    if x.dtype.kind not in "fc":
        return x
    if not copy and isinstance(given, Tracer) and not x.is_scalar and not x.type.weak:
        # NumPy replaces the values in the array itself and returns it.
        given[...] = nan_to_num(x, True, nan, posinf, neginf)
        return given
    if x.dtype.kind == "c":
        re, im = (astype(nan_to_num(part, nan=nan, posinf=posinf, neginf=neginf), x.dtype)
                  for part in (np.real(x), np.imag(x)))
        return Tracer((re + im * 1j).atom, is_scalar=x.is_scalar)
    info = np.finfo(x.dtype)
    big = info.max if posinf is None else posinf
    small = info.min if neginf is None else neginf
    values = [np.asarray(v).astype(x.dtype) for v in (nan, big, small)]
    out = np.where(np.isnan(x), values[0], x)
    out = np.where(out == np.inf, values[1], out)
    out = np.where(out == -np.inf, values[2], out)
    return Tracer(out.atom, is_scalar=x.is_scalar)


# ---------------------------------------------------------------- selection
@implements(np.select)
def select(condlist, choicelist, default=0):
    if len(condlist) != len(choicelist):
        raise ValueError(f"list of cases must be same length as list of conditions\n"
                         f"  at {user_location()}")
    if not condlist:
        raise ValueError(f"select with an empty condition list is not possible\n"
                         f"  at {user_location()}")
    choices = [to_tracer(c) for c in choicelist] + [to_tracer(default)]
    conds = [to_tracer(c) for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype != np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray\n"
                            f"  at {user_location()}")
    dtype = np.result_type(*[sample_of(c.atom) for c in choices])
    result = astype(choices[-1], dtype)
    for cond, choice in zip(conds[::-1], choices[-2::-1]):
        result = np.where(cond, astype(choice, dtype), result)
    shape = np.broadcast_shapes(*[t.shape for t in conds + choices])
    return broadcast_to(result, shape)


@implements(np.piecewise)
def piecewise(x, condlist, funclist, *args, **kw):
    x = to_tracer(x)
    conds = [to_tracer(c) for c in condlist] if isinstance(condlist, (list, tuple)) \
        else [to_tracer(condlist)]
    conds = [astype(c, np.bool_) for c in conds]
    if len(conds) == len(funclist) - 1:
        otherwise = ~m.any_(stack([broadcast_to(c, x.shape) for c in conds]), axis=0)
        conds.append(otherwise)
    elif len(conds) != len(funclist):
        raise ValueError(f"with {len(conds)} condition(s), either {len(conds)} or {len(conds) + 1} "
                         f"functions are expected\n  at {user_location()}")
    y = np.zeros_like(x)
    for cond, func in zip(conds, funclist):
        # Every function sees the whole array; where() keeps the entries its condition selects.
        value = func(x, *args, **kw) if callable(func) else func
        y = np.where(cond, astype(to_tracer(value), x.dtype), y)
    return y


# ------------------------------------------------------------ index arithmetic
def _strides(dims, order):
    dims = list(dims)
    if order == "F":
        return [int(np.prod(dims[:i])) for i in range(len(dims))]
    return [int(np.prod(dims[i + 1:])) for i in range(len(dims))]


@implements(np.ravel_multi_index)
def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    dims = tuple(operator.index(d) for d in dims)
    coords = [to_tracer(c) for c in multi_index]
    if len(coords) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}\n"
                         f"  at {user_location()}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    total = None
    ok = None
    for c, d, md, stride in zip(coords, dims, modes, _strides(dims, order)):
        if c.dtype.kind not in "iu":
            raise TypeError(f"only int indices permitted\n  at {user_location()}")
        c = astype(c, np.intp)
        if md == "wrap":
            c = np.mod(c, d)
        elif md == "clip":
            c = np.clip(c, 0, d - 1)
        elif md == "raise":
            inside = (c >= 0) & (c < d)
            ok = inside if ok is None else ok & inside
        else:
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap'\n"
                             f"  at {user_location()}")
        total = c * stride if total is None else total + c * stride
    if ok is not None:
        total = emit("check", [total, ok], {"message": "invalid entry in coordinates array",
                                            "error": "ValueError"})
    return _scalar_if_0d(total)


@implements(np.unravel_index)
def unravel_index(indices, shape, order="C"):
    shape = (operator.index(shape),) if isinstance(shape, (int, np.integer)) else \
        tuple(operator.index(d) for d in shape)
    idx = to_tracer(indices)
    if idx.dtype.kind not in "iu":
        raise TypeError(f"only int indices permitted\n  at {user_location()}")
    idx = astype(idx, np.intp)
    size = int(np.prod(shape))
    idx = emit("check", [idx, (idx >= 0) & (idx < size)],
               {"message": f"index out of bounds for array with size {size}", "error": "ValueError"})
    return tuple(_scalar_if_0d(np.mod(idx // stride, d) if d else idx)
                 for d, stride in zip(shape, _strides(shape, order)))


# ---------------------------------------------------------------- sequences
def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    if not isinstance(base, (float, int)) and np.ndim(base):
        raise unsupported("np.logspace with an array base")
    y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    out = np.power(base, y)
    return out if dtype is None else astype(out, dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    static = [None if isinstance(v, Tracer) else np.asanyarray(v) for v in (start, stop)]
    start, stop = (to_tracer(v if s is None else s) for v, s in zip((start, stop), static))
    dt = np.result_type(sample_of(start.atom), sample_of(stop.atom), float(num),
                        np.zeros((), dtype))
    if any(s is not None and np.any(s == 0) for s in static):
        raise ValueError(f"Geometric sequence cannot include zero\n  at {user_location()}")
    start, stop = astype(start, dt), astype(stop, dt)
    sign = np.sign(start)
    start, stop = start / sign, stop / sign
    result = logspace(np.log10(start), np.log10(stop), num=num, endpoint=endpoint, base=10.0,
                      dtype=dt)
    # NumPy pins the end points to the exact inputs (exp(log(x)) may differ from x).
    if num > 0:
        index = reshape(arange(num), (num,) + (1,) * (result.ndim - 1))
        result = np.where(index == 0, start, result)
        if num > 1 and endpoint:
            result = np.where(index == num - 1, stop, result)
    result = result * sign
    if static[0] is None or static[1] is None:
        nonzero = ~(m.any_(start == 0) | m.any_(stop == 0))
        result = emit("check", [result, nonzero], {"message": "Geometric sequence cannot include "
                                                              "zero", "error": "ValueError"})
    if axis != 0:
        result = moveaxis(result, 0, axis)
    return astype(result, dt if dtype is None else dtype)


@implements(np.angle)
def angle(z, deg=False):
    z = to_tracer(z)
    if z.dtype.kind == "c":
        a = np.arctan2(np.imag(z), np.real(z))
    else:
        a = np.arctan2(0, z)
    return a * (180 / np.pi) if deg else a
