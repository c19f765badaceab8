"""Array manipulation built from existing ops: pad, roll, rot90, diff, gradient,
cross, kron, triangles and diagonals, stacking helpers, grids and index arrays.

``np.roll`` concatenates the two parts of each rolled axis. The copying modes of
``np.pad`` take NumPy's own pad of the positions (``np.pad`` of ``arange``), so its
reflection rules hold for any pad width, and copy the runs of positions it finds there
as slices.
"""
from __future__ import annotations

import operator
import warnings

import numpy as np

from ..errors import unsupported, unsupported_size, user_location
from ..graph_ir.types import sample
from .indexing import constant_value
from .numpy_api import (axes_of, axis_index, arange, astype, atleast_2d, basic_getitem,
                        broadcast_arrays, broadcast_to, concatenate, concatenate_rows,
                        expand_dims, flip, full, implements, linspace, moveaxis, ravel,
                        reshape, rows_of, sample_of, stack, swapaxes, transpose)
from .numpy_sorting import take
from .views import mark_readonly
from .tracer import Tracer, dim_of, emit, numpy_says, to_tracer


def _static_shape(a, name):
    if None in a.shape:
        raise unsupported_size(f"np.{name} of an array with a dimension of unknown size")


def _sample(a, limit=2):
    """A small zero array that NumPy validates arguments against like ``a``."""
    return np.zeros(tuple(min(d, limit) for d in a.shape), a.dtype)


def _holds_traced(value):
    return isinstance(value, Tracer) or (isinstance(value, (tuple, list)) and
                                         any(_holds_traced(v) for v in value))


def _sampled(value):
    """``value`` with a sample of each traced array in it, for asking NumPy."""
    if isinstance(value, Tracer):
        return sample(value.type)
    if isinstance(value, (tuple, list)):
        return type(value)(_sampled(v) for v in value)
    return value


def _along(x, axis, start, stop, step=None):
    """``x[..., start:stop:step, ...]`` with the slice on ``axis``."""
    return basic_getitem(x, (slice(None),) * axis + (slice(start, stop, step),))


# ------------------------------------------------------------------ padding
_COPY_MODES = ("edge", "reflect", "symmetric", "wrap")


@implements(np.pad)
def pad(array, pad_width, mode="constant", **kwargs):
    a = to_tracer(array)
    if mode == "constant" and (None in a.shape or _holds_traced(pad_width) or
                               _holds_traced(kwargs.get("constant_values"))):
        return _padded_with_traced(a, pad_width, kwargs)
    _static_shape(a, "pad")
    if callable(mode) or _holds_traced(pad_width):
        raise unsupported("np.pad with a function mode or traced pad widths")
    if _holds_traced(kwargs.get("stat_length")):
        raise unsupported("np.pad with a traced stat_length")
    numpy_says(np.pad, _sample(a), pad_width, mode,
               **{k: _sampled(v) for k, v in kwargs.items()})
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.intp), (a.ndim, 2))
    if mode in ("constant", "empty"):
        values = kwargs.get("constant_values", 0)
        if isinstance(values, Tracer):
            raise unsupported("np.pad with traced constant_values")
        values = np.broadcast_to(np.asarray(values), (a.ndim, 2))
        out = a
        for axis, ((before, after), (v_before, v_after)) in enumerate(zip(widths, values)):
            parts = []
            for width, value in ((before, v_before), (after, v_after)):
                shape = out.shape[:axis] + (int(width),) + out.shape[axis + 1:]
                parts.append(full(shape, np.asarray(value).astype(a.dtype)) if width else None)
            pieces = [p for p in (parts[0], out, parts[1]) if p is not None]
            out = concatenate(pieces, axis) if len(pieces) > 1 else out
        return out
    if mode == "linear_ramp":
        ends = kwargs.get("end_values", 0)
        if _holds_traced(ends):
            ends = broadcast_to(to_tracer(np.stack(np.broadcast_arrays(*ends)) if isinstance(
                ends, (tuple, list)) else ends), (a.ndim, 2))
            ends = [[basic_getitem(ends, (i, j)) for j in range(2)] for i in range(a.ndim)]
        else:
            ends = np.broadcast_to(np.asarray(ends), (a.ndim, 2))
        out = a
        for axis, (widths_at, ends_at) in enumerate(zip(widths, ends)):
            out = _padded_with_ramps(out, axis, widths_at, ends_at, a.dtype)
        return out
    if mode in _STAT_MODES:
        lengths = kwargs.get("stat_length")
        lengths = [(None, None)] * a.ndim if lengths is None else np.broadcast_to(
            np.round(np.asarray(lengths)).astype(np.intp), (a.ndim, 2)).tolist()
        out = a
        for axis, (widths_at, lengths_at) in enumerate(zip(widths, lengths)):
            out = _padded_with_stats(out, axis, widths_at, lengths_at, mode, a.dtype)
        return out
    if mode not in _COPY_MODES or kwargs.get("reflect_type", "even") != "even":
        raise unsupported(f"np.pad(..., mode={mode!r}) with {kwargs or 'these arguments'}")
    out = a
    for axis, (before, after) in enumerate(widths):
        if before or after:
            out = _padded_with_copies(out, axis, int(before), int(after), mode, kwargs)
    return out


def _padded_with_traced(a, pad_width, kwargs):
    """``np.pad(a, pad_width, constant_values=...)`` where the widths, the values or
    sizes of ``a`` are known only at run time (``np.pad(seq, (0, maxlen - len(seq)))``,
    ``np.pad(img, 2, constant_values=background)``): the pieces of each side joined
    axis by axis, each a fill of its value, cast to ``a``'s dtype as NumPy casts it."""
    if set(kwargs) - {"constant_values"}:
        raise unsupported(f"np.pad with {sorted(set(kwargs) - {'constant_values'})} and "
                          f"widths, values or sizes known only at run time")
    numpy_says(np.pad, np.zeros((1,) * a.ndim, a.dtype), _sampled(pad_width),
               constant_values=_sampled(kwargs.get("constant_values", 0)))
    widths = _pairs(pad_width, a.ndim, np.intp)
    values = _pairs(kwargs.get("constant_values", 0), a.ndim, None)
    out = a
    for axis in range(a.ndim):
        pieces = [out]
        for side in (0, 1):
            width, value = widths[axis][side], values[axis][side]
            if not isinstance(width, Tracer) and not width:
                continue
            if isinstance(width, Tracer):
                width = emit("check", [width, width >= 0], {
                    "error": "ValueError", "message": "index can't contain negative values"
                                                      f"\n  at {user_location()}"})
            shape = tuple(width if k == axis else dim_of(out, k) for k in range(a.ndim))
            fill = astype(to_tracer(value), a.dtype) if isinstance(value, Tracer) else \
                np.asarray(value).astype(a.dtype)
            piece = full(shape, fill, a.dtype)
            pieces.insert(0 if side == 0 else len(pieces), piece)
        out = concatenate(pieces, axis) if len(pieces) > 1 else out
    return out


def _pairs(value, ndim, dtype):
    """A pad's widths or values as NumPy broadcasts them to ``(ndim, 2)``: a list of
    pairs, each item a Python number or a traced one."""
    if isinstance(value, Tracer):
        if value.ndim == 0:
            return [[value, value]] * ndim
        value = broadcast_to(value, (ndim, 2))
        return [[basic_getitem(value, (i, j)) for j in range(2)] for i in range(ndim)]
    if not _holds_traced(value):
        arr = np.broadcast_to(np.asarray(value, dtype=dtype), (ndim, 2))
        return [[arr[i, j].item() for j in range(2)] for i in range(ndim)]
    # A tuple holding traced numbers: pairs per axis, or one pair, or one number.
    items = list(value)
    if len(items) == 1:
        items = items * ndim if isinstance(items[0], (tuple, list)) else [items * 2] * ndim
    elif not any(isinstance(v, (tuple, list)) for v in items):
        items = [items] * ndim
    return [list(pair) * (2 if len(pair) == 1 else 1) if isinstance(pair, (tuple, list))
            else [pair, pair] for pair in items]


_STAT_MODES = {"maximum": np.max, "minimum": np.min, "mean": np.mean, "median": np.median}


def _padded_with_stats(x, axis, widths, lengths, mode, dtype):
    """``x`` padded along ``axis`` with a statistic of the first or last ``stat_length``
    elements there, rounded for integers as NumPy's ``pad`` rounds it."""
    n = x.shape[axis]
    pieces = [x]
    for side, (width, length) in enumerate(zip(widths, lengths)):
        if not width:
            continue
        length = n if length is None else min(int(length), n)
        if length == 0 and mode in ("mean", "median"):
            raise unsupported(f"np.pad(..., mode={mode!r}) of an empty stat_length")
        chunk = _along(x, axis, 0, length) if side == 0 else _along(x, axis, n - length, n)
        stat = _STAT_MODES[mode](chunk, axis=axis, keepdims=True)
        if np.issubdtype(dtype, np.integer):
            stat = np.round(stat)
        stat = astype(stat, dtype)
        pad = broadcast_to(stat, x.shape[:axis] + (int(width),) + x.shape[axis + 1:])
        pieces.insert(0 if side == 0 else len(pieces), pad)
    return concatenate(pieces, axis) if len(pieces) > 1 else x


def _padded_with_ramps(x, axis, widths, ends, dtype):
    """``x`` padded along ``axis`` in NumPy's ``linear_ramp`` mode: from each end value to
    the edge, as ``np.linspace`` of the edge (without it) in ``x``'s dtype."""
    n = x.shape[axis]
    pieces = [x]
    for side, (width, end) in enumerate(zip(widths, ends)):
        if not width:
            continue
        edge = reshape(_along(x, axis, 0, 1) if side == 0 else _along(x, axis, n - 1, n),
                       x.shape[:axis] + x.shape[axis + 1:])
        ramp = linspace(end, edge, int(width), endpoint=False, dtype=dtype, axis=axis)
        pieces.insert(0 if side == 0 else len(pieces),
                      ramp if side == 0 else _along(ramp, axis, None, None, -1))
    return concatenate(pieces, axis) if len(pieces) > 1 else x


# Pads of more runs than this (widths many times the axis's length) gather the axis
# through its map of positions instead of concatenating that many pieces.
_RUNS_UP_TO = 16


def _padded_with_copies(x, axis, before, after, mode, kwargs):
    """``x`` padded along ``axis`` in a copying mode. NumPy's own pad of the positions
    ``0 .. n-1`` says which element each new one copies; the pads are runs of consecutive,
    reversed or repeated positions: slices, reversed slices and broadcasts of ``x``."""
    n = x.shape[axis]
    source = np.pad(np.arange(n), (before, after), mode, **kwargs)
    head = _runs(source[:before], _RUNS_UP_TO)
    tail = _runs(source[before + n:], _RUNS_UP_TO - len(head)) if head is not None else None
    if tail is None or not np.array_equal(source[before:before + n], np.arange(n)):
        return take(x, source, axis)
    pieces = [_copied_run(x, axis, run) for run in head] + [x] + \
        [_copied_run(x, axis, run) for run in tail]
    return concatenate(pieces, axis)


def _runs(positions, limit):
    """``positions`` as runs ``(first, length, step)`` of steps +1, -1 or 0 (a single
    position is a run of step +1), or None where more than ``limit`` runs are needed."""
    steps = np.diff(positions)
    runs, i = [], 0
    while i < len(positions):
        if len(runs) == limit:
            return None
        step = int(steps[i]) if i < len(steps) and abs(steps[i]) <= 1 else 1
        other = np.flatnonzero(steps[i:] != step)
        end = i + 1 + (int(other[0]) if other.size else len(steps) - i)
        runs.append((int(positions[i]), end - i, step))
        i = end
    return runs


def _copied_run(x, axis, run):
    first, length, step = run
    if step == 1:
        return _along(x, axis, first, first + length)
    if step == -1:
        last = first - length
        return _along(x, axis, first, last if last >= 0 else None, -1)
    one = _along(x, axis, first, first + 1)
    return broadcast_to(one, one.shape[:axis] + (length,) + one.shape[axis + 1:])


# ------------------------------------------------------------ rolling, flipping
@implements(np.roll)
def roll(a, shift, axis=None):
    a = to_tracer(a)
    if axis is None:
        if None in a.shape:
            return reshape(roll(ravel(a), shift, 0), tuple(dim_of(a, i) for i in range(a.ndim)))
        return reshape(roll(ravel(a), shift, 0), a.shape)
    if isinstance(shift, Tracer) and shift.ndim == 0 and np.ndim(axis) == 0:
        return _rolled_in_graph(a, shift, axis_index(operator.index(axis), a.ndim))
    if isinstance(shift, Tracer) or (isinstance(shift, (tuple, list)) and
                                     any(isinstance(s, Tracer) for s in shift)):
        return _rolled_by_traced_shifts(a, shift, axis)
    # NumPy's checks, and its shift per axis: the sum of the shifts given for it, each
    # truncated to an int.
    numpy_says(np.roll, np.zeros((1,) * a.ndim, a.dtype), shift, axis)
    shifts = dict.fromkeys(range(a.ndim), 0)
    with warnings.catch_warnings():     # NumPy's own call above warned of complex shifts
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        for s, ax in np.broadcast(np.asarray(shift), np.asarray(axis)):
            shifts[axis_index(int(ax), a.ndim)] += int(s)
    out = a
    for ax, s in shifts.items():
        out = _rolled(out, s, ax)
    return Tracer(a.atom) if out is a else out


def _rolled_by_traced_shifts(a, shift, axis):
    """``np.roll(a, shift, axis)`` with shifts for several axes, some traced (``tuple(
    np.array(o) - 1)`` of an offset): NumPy pairs the shifts with the axes as its
    broadcasting does and rolls each axis by the sum of its shifts; rolls add, so one roll
    per pair gives that."""
    if isinstance(shift, Tracer) and shift.ndim == 0:
        shift = [shift]
    elif isinstance(shift, Tracer):
        if shift.ndim != 1 or shift.shape[0] is None:
            raise unsupported("np.roll with traced shifts of a count known only at run time")
        shift = [shift[i] for i in range(shift.shape[0])]
    shifts = list(shift)
    axes = list(axis) if isinstance(axis, (tuple, list)) else [axis]
    # NumPy's own checks of the pairing (its error for lengths that do not broadcast).
    numpy_says(np.roll, np.zeros((1,) * a.ndim, a.dtype), [0] * len(shifts),
               tuple(axes) if isinstance(axis, (tuple, list)) else axis)
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    if len(axes) == 1:
        axes = axes * len(shifts)
    out = a
    for s, ax in zip(shifts, axes):
        ax = axis_index(operator.index(ax), a.ndim)
        out = _rolled_in_graph(out, s, ax) if isinstance(s, Tracer) else _rolled(out, int(s), ax)
    return out


def _rolled(x, shift, axis):
    """``x`` rolled by the int ``shift`` along ``axis``: its last ``shift`` elements there
    (modulo the length) moved to the front, as NumPy copies the two parts."""
    n = x.shape[axis]
    if n is None:
        return _rolled_in_graph(x, shift, axis)
    offset = shift % (n or 1)
    if not offset:
        return x
    return concatenate([_along(x, axis, n - offset, n), _along(x, axis, 0, n - offset)], axis)


def _rolled_in_graph(x, shift, axis):
    """``x`` rolled along ``axis`` by a shift or a length known only when the graph runs:
    the window of ``x`` twice over (one after the other) that starts ``shift`` elements
    (modulo the length) before the end of the first copy."""
    n = dim_of(x, axis)
    begin = [n - _offset(shift, n) if i == axis else 0 for i in range(x.ndim)]
    inputs = [concatenate([x, x], axis), stack([astype(to_tracer(b), np.intp) for b in begin])]
    if None in x.shape:
        inputs.append(stack([astype(to_tracer(dim_of(x, i)), np.intp) for i in range(x.ndim)]))
    return emit("dynamic_slice", inputs, {"sizes": x.shape})


def _offset(shift, n):
    """NumPy's ``int(shift) % (n or 1)`` where the shift or the length ``n`` is traced."""
    n = np.maximum(n, 1)
    if not isinstance(shift, Tracer):
        return np.mod(shift, n)
    kind = shift.dtype.kind
    if kind == "u":     # in uint64: a shift past int64's range keeps its value modulo n
        return astype(np.mod(astype(shift, np.uint64), astype(n, np.uint64)), np.intp)
    if kind in "fc":
        # int() truncates (a complex number to its real part); in float64 the remainder
        # of any finite value is exact.
        where = user_location()
        shift = astype(np.real(shift), np.float64)
        safe = np.where(np.isfinite(shift), shift, 0.0)     # the checks raise NumPy's error
        safe = emit("check", [safe, ~np.isnan(shift)], {
            "error": "ValueError", "message": f"cannot convert float NaN to integer\n  at {where}"})
        safe = emit("check", [safe, ~np.isinf(shift)], {
            "error": "OverflowError",
            "message": f"cannot convert float infinity to integer\n  at {where}"})
        return astype(np.mod(np.trunc(safe), astype(n, np.float64)), np.intp)
    return np.mod(astype(shift, np.intp), n)


@implements(np.rot90)
def rot90(m, k=1, axes=(0, 1)):
    m = to_tracer(m)
    numpy_says(np.rot90, _sample(m, 1), k, axes)
    axes = tuple(axes)
    k %= 4
    if k == 0:
        return m
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    perm = list(range(m.ndim))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    return transpose(flip(m, axes[1]), perm) if k == 1 else flip(transpose(m, perm), axes[1])


# ------------------------------------------------------------ differences
@implements(np.diff)
def diff(a, n=1, axis=-1, prepend=np._NoValue, append=np._NoValue):
    a = to_tracer(a)
    if n == 0:
        return a
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n!r}\n  at {user_location()}")
    if a.ndim == 0:
        raise ValueError(f"diff requires input that is at least one dimensional\n"
                         f"  at {user_location()}")
    axis = axis_index(axis, a.ndim)
    parts = []
    for extra in (prepend, append):
        if extra is np._NoValue:
            parts.append(None)
            continue
        extra = to_tracer(extra)
        if extra.ndim == 0:
            extra = broadcast_to(extra, a.shape[:axis] + (1,) + a.shape[axis + 1:])
        parts.append(extra)
    if parts[0] is not None or parts[1] is not None:
        a = concatenate([p for p in (parts[0], a, parts[1]) if p is not None], axis)
    lead = (slice(None),) * axis
    for _ in range(n):
        later, earlier = a[lead + (slice(1, None),)], a[lead + (slice(None, -1),)]
        a = np.not_equal(later, earlier) if a.dtype == np.bool_ else np.subtract(later, earlier)
    return Tracer(a.atom)


@implements(np.ediff1d)
def ediff1d(ary, to_end=None, to_begin=None):
    a = ravel(ary)
    numpy_says(np.ediff1d, np.zeros(2, a.dtype), to_end=to_end if not isinstance(
        to_end, Tracer) else None, to_begin=to_begin if not isinstance(to_begin, Tracer) else None)
    pieces = [a[1:] - a[:-1]]
    if to_begin is not None:
        pieces.insert(0, astype(ravel(to_begin), a.dtype))
    if to_end is not None:
        pieces.append(astype(ravel(to_end), a.dtype))
    return concatenate(pieces) if len(pieces) > 1 else Tracer(pieces[0].atom)


@implements(np.gradient)
def gradient(f, *varargs, axis=None, edge_order=1):
    f = to_tracer(f)
    _static_shape(f, "gradient")
    axes = axes_of(axis, f.ndim)
    # A traced 0-d spacing (``np.gradient(f, h)`` with ``h`` an argument) is a number.
    coordinates = [v.ndim > 0 if isinstance(v, Tracer) else np.ndim(v) for v in varargs]
    if any(coordinates):
        # NumPy's checks of the coordinates (a 1-d array as long as its axis), on stand-ins.
        numpy_says(np.gradient, np.zeros(f.shape), *[
            np.arange(to_tracer(v).shape[0] if to_tracer(v).ndim else 1, dtype=np.float64)
            if c else v for v, c in zip(varargs, coordinates)], axis=axis, edge_order=edge_order)
    else:
        numpy_says(np.gradient, _sample(f, 3), *[1.0 if isinstance(v, Tracer) else v
                                                   for v in varargs],
                    axis=axis, edge_order=edge_order)
    spacings = list(varargs) * len(axes) if len(varargs) == 1 else list(varargs) or [1.0] * len(axes)
    if f.dtype.kind in "iu":
        f = astype(f, np.float64)
    out_dtype = f.dtype
    results = []
    for ax, dx in zip(axes, spacings):
        def part(start, stop):
            key = [slice(None)] * f.ndim
            key[ax] = slice(start, stop)
            return f[tuple(key)]
        dx = _spacing(dx)
        if isinstance(dx, Tracer) and dx.ndim:
            first, inner, last = _uneven_gradient(f, part, ax, dx, edge_order)
        else:
            inner = (part(2, None) - part(None, -2)) / (2.0 * dx)
            if edge_order == 1:
                first = (part(1, 2) - part(0, 1)) / dx
                last = (part(-1, None) - part(-2, -1)) / dx
            else:  # NumPy's second-order one-sided coefficients
                first = -1.5 / dx * part(0, 1) + 2.0 / dx * part(1, 2) - 0.5 / dx * part(2, 3)
                last = 0.5 / dx * part(-3, -2) - 2.0 / dx * part(-2, -1) + 1.5 / dx * part(-1, None)
        grad = concatenate([astype(p, out_dtype) for p in (first, inner, last)], ax)
        results.append(grad)
    return results[0] if len(results) == 1 else tuple(results)


def _spacing(v):
    """A spacing as NumPy's gradient takes it: a number, or the differences of a 1-d
    coordinate array (integers as float64), a number again where they are all equal
    (known only for coordinates known when tracing)."""
    if not np.ndim(v):
        return v
    known = constant_value(v)
    if not isinstance(known, Tracer):
        known = np.asarray(known)
        known = known.astype(np.float64) if known.dtype.kind in "iub" else known
        diffs = np.diff(known)
        return diffs[0] if (diffs == diffs[0]).all() else to_tracer(diffs)
    v = to_tracer(v)
    v = astype(v, np.float64) if v.dtype.kind in "iub" else v
    return v[1:] - v[:-1]


def _uneven_gradient(f, part, ax, dx, edge_order):
    """NumPy's gradient for uneven spacings ``dx`` along axis ``ax``: its interior and
    one-sided edge coefficients."""
    along = (1,) * ax + (-1,) + (1,) * (f.ndim - ax - 1)
    dx1, dx2 = dx[:-1], dx[1:]
    a = reshape(-dx2 / (dx1 * (dx1 + dx2)), along)
    b = reshape((dx2 - dx1) / (dx1 * dx2), along)
    c = reshape(dx1 / (dx2 * (dx1 + dx2)), along)
    inner = a * part(None, -2) + b * part(1, -1) + c * part(2, None)
    if edge_order == 1:
        return (part(1, 2) - part(0, 1)) / dx[0], inner, (part(-1, None) - part(-2, -1)) / dx[-1]
    d1, d2 = dx[0], dx[1]
    first = -(2.0 * d1 + d2) / (d1 * (d1 + d2)) * part(0, 1) + \
        (d1 + d2) / (d1 * d2) * part(1, 2) - d1 / (d2 * (d1 + d2)) * part(2, 3)
    d1, d2 = dx[-2], dx[-1]
    last = d2 / (d1 * (d1 + d2)) * part(-3, -2) - (d2 + d1) / (d1 * d2) * part(-2, -1) + \
        (2.0 * d2 + d1) / (d2 * (d1 + d2)) * part(-1, None)
    return first, inner, last


# ------------------------------------------------------------ products
@implements(np.cross)
def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    a, b = to_tracer(a), to_tracer(b)
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = moveaxis(a, axis_index(axisa, a.ndim), -1), moveaxis(b, axis_index(axisb, b.ndim), -1)
    numpy_says(np.cross, np.zeros((1, a.shape[-1]), a.dtype), np.zeros((1, b.shape[-1]), b.dtype))
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        # (Deprecated in NumPy 2, which still computes it:) the z component, an array of
        # the vectors' broadcast shape, 0-d for two vectors.
        out = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
        return Tracer(out.atom) if out.ndim == 0 else out
    # A 2-element vector is one whose z component is 0.
    a0, a1, a2 = (a[..., i] if i < a.shape[-1] else None for i in range(3))
    b0, b1, b2 = (b[..., i] if i < b.shape[-1] else None for i in range(3))
    if a2 is None:
        parts = [a1 * b2, -(a0 * b2), a0 * b1 - a1 * b0]
    elif b2 is None:
        parts = [-(a2 * b1), a2 * b0, a0 * b1 - a1 * b0]
    else:
        parts = [a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0]
    out = stack(broadcast_arrays(*parts), axis=-1)
    return moveaxis(out, -1, axis_index(axisc, out.ndim))


@implements(np.kron)
def kron(a, b):
    a, b = to_tracer(a), to_tracer(b)
    ndim = max(a.ndim, b.ndim)
    a = reshape(a, (1,) * (ndim - a.ndim) + a.shape)
    b = reshape(b, (1,) * (ndim - b.ndim) + b.shape)
    a_wide = reshape(a, sum(((d, 1) for d in a.shape), ()))
    b_wide = reshape(b, sum(((1, d) for d in b.shape), ()))
    out = a_wide * b_wide
    return reshape(out, tuple(x * y for x, y in zip(a.shape, b.shape)))


# ------------------------------------------------------- triangles, diagonals
def _tri_mask(n, m, k):
    rows = reshape(arange(n), (n, 1))
    return arange(m) - rows <= k


def _matrix_dims(m):
    """NumPy's ``tri(*m.shape[-2:])``: a 1-D array acts as its own square."""
    if m.ndim == 0:
        raise TypeError(f"tri() missing 1 required positional argument: 'N'\n  at {user_location()}")
    return (m.shape[0], m.shape[0]) if m.ndim == 1 else m.shape[-2:]


@implements(np.tril)
def tril(m, k=0):
    m = to_tracer(m)
    mask = _tri_mask(*_matrix_dims(m), operator.index(k))
    return np.where(mask, m, np.zeros((), m.dtype))


@implements(np.triu)
def triu(m, k=0):
    m = to_tracer(m)
    mask = _tri_mask(*_matrix_dims(m), operator.index(k) - 1)
    return np.where(mask, np.zeros((), m.dtype), m)


def tri(N, M=None, k=0, dtype=float, *, like=None):
    m = N if M is None else M
    return astype(_tri_mask(operator.index(N), operator.index(m), operator.index(k)), dtype)


@implements(np.diagonal)
def diagonal(a, offset=0, axis1=0, axis2=1):
    a = to_tracer(a)
    if a.ndim < 2:
        raise ValueError(f"diag requires an array of at least two dimensions\n  at {user_location()}")
    a = moveaxis(a, (axis_index(axis1, a.ndim), axis_index(axis2, a.ndim)), (-2, -1))
    k = operator.index(offset)
    if None in a.shape[-2:]:
        return _run_time_diagonal(a, k)
    _static_shape(a, "diagonal")
    n, m = a.shape[-2:]
    length = max(0, min(n, m - k) if k >= 0 else min(n + k, m))
    start = k if k >= 0 else -k * m
    flat = reshape(a, a.shape[:-2] + (n * m,))
    stop = start + (length - 1) * (m + 1) + 1 if length else start
    return flat[..., start:stop:m + 1]


def _run_time_diagonal(a, k):
    """The diagonal ``k`` of the last two axes of ``a``, whose sizes are known at run
    time (a confusion matrix over np.unique's labels): the elements read by index arrays,
    read-only as NumPy's view is."""
    if None in a.shape[:-2]:
        _static_shape(a, "diagonal")
    n, m = dim_of(a, a.ndim - 2), dim_of(a, a.ndim - 1)
    length = np.minimum(n, m - k) if k >= 0 else np.minimum(n + k, m)
    i = arange(np.maximum(length, 0))
    out = a[..., i + max(-k, 0), i + max(k, 0)]
    return mark_readonly(out)


@implements(np.diag)
def diag(v, k=0):
    v = to_tracer(v)
    k = operator.index(k)
    if v.ndim == 2:
        return diagonal(v, k)
    if v.ndim != 1:
        raise ValueError(f"Input must be 1- or 2-d.\n  at {user_location()}")
    n = v.shape[0] + abs(k)
    zeros = full((abs(k),), np.zeros((), v.dtype))
    rows = concatenate([v, zeros] if k >= 0 else [zeros, v]) if k else v
    mask = emit("eye", [], {"n": n, "m": n, "k": k, "dtype": np.dtype(np.bool_)})
    return np.where(mask, reshape(rows, (n, 1)), np.zeros((), v.dtype))


@implements(np.diagflat)
def diagflat(v, k=0):
    return diag(ravel(v), k)


def _index_pairs(fn, *args):
    return tuple(to_tracer(i) for i in fn(*args))


def tril_indices(n, k=0, m=None):
    return _index_pairs(np.tril_indices, n, k, m)


def triu_indices(n, k=0, m=None):
    return _index_pairs(np.triu_indices, n, k, m)


@implements(np.tril_indices_from)
def tril_indices_from(arr, k=0):
    arr = to_tracer(arr)
    return _index_pairs(np.tril_indices_from, np.broadcast_to(np.zeros((), bool), arr.shape), k)


@implements(np.triu_indices_from)
def triu_indices_from(arr, k=0):
    arr = to_tracer(arr)
    return _index_pairs(np.triu_indices_from, np.broadcast_to(np.zeros((), bool), arr.shape), k)


# ------------------------------------------------------------ stacking
@implements(np.atleast_3d)
def atleast_3d(*arys):
    res = []
    for a in arys:
        a = to_tracer(a)
        shape = {0: (1, 1, 1), 1: (1,) + a.shape + (1,), 2: a.shape + (1,)}.get(a.ndim, a.shape)
        res.append(reshape(a, shape))
    return res[0] if len(res) == 1 else tuple(res)


@implements(np.column_stack)
def column_stack(tup):
    rows = rows_of(tup)
    if rows is not None:
        # A list of a length known only at run time (``cols.append(x ** d)`` in a loop):
        # its items are the columns (numbers: one row of them).
        return expand_dims(rows, 0) if rows.ndim == 1 else transpose(rows) \
            if rows.ndim == 2 else concatenate_rows(rows, 1, None)
    cols = [to_tracer(t) for t in tup]
    return concatenate([transpose(atleast_2d(c)) if c.ndim < 2 else c for c in cols], 1)


@implements(np.dstack)
def dstack(tup):
    rows = rows_of(tup)
    if rows is not None:
        if rows.ndim == 1:
            return reshape(rows, (1, 1, -1))
        if rows.ndim == 2:
            return expand_dims(transpose(rows), 0)
        return moveaxis(rows, 0, -1) if rows.ndim == 3 else concatenate_rows(rows, 2, None)
    return concatenate([atleast_3d(t) for t in tup], 2)


@implements(np.block)
def block(arrays):
    def depth(x):
        return 1 + depth(x[0]) if isinstance(x, list) and x else (1 if isinstance(x, list) else 0)

    levels = depth(arrays)

    def assemble(x, level):
        if not isinstance(x, list):
            return to_tracer(x)
        if not x:
            raise ValueError(f"List at arrays cannot be empty\n  at {user_location()}")
        parts = [assemble(p, level + 1) for p in x]
        ndim = max(levels, *[p.ndim for p in parts])
        parts = [reshape(p, (1,) * (ndim - p.ndim) + p.shape) for p in parts]
        return concatenate(parts, axis=-(levels - level))
    out = assemble(arrays, 0)
    return reshape(out, (1,) * (levels - out.ndim) + out.shape) if out.ndim < levels else out


# ------------------------------------------------- np.r_ and np.c_
def _traced_part(item):
    if isinstance(item, slice):
        return any(isinstance(b, Tracer) for b in (item.start, item.stop, item.step))
    return isinstance(item, Tracer) or (isinstance(item, (list, tuple)) and
                                        any(_traced_part(i) for i in item))


def index_concatenate(original, key):
    """``np.r_[...]`` / ``np.c_[...]`` with traced parts, by NumPy's own rule
    (``AxisConcatenator.__getitem__``): slices become ``arange``/``linspace``, scalars
    take part in the result dtype as NumPy 2 scalars do (a Python number is weak), every
    part becomes an array of at least ``ndmin`` dimensions (1-d parts placed by
    ``trans1d``) and the parts are concatenated along ``axis``."""
    parts = key if isinstance(key, tuple) else (key,)
    if not any(_traced_part(item) for item in parts):
        return to_tracer(original[key])
    axis, ndmin, trans1d = original.axis, original.ndmin, original.trans1d
    name = "np.c_" if isinstance(original, type(np.c_)) else "np.r_"
    objs, dtype_of = [], []
    for k, item in enumerate(parts):
        if isinstance(item, str):
            if k != 0:
                raise ValueError(f"special directives must be the first entry.\n"
                                 f"  at {user_location()}")
            if item in ("r", "c"):
                raise unsupported(f"{name}[{item!r}, ...] (a matrix)",
                                  fix="Build the array without the 'r'/'c' directive "
                                      "(np.matrix is not compiled).")
            try:
                numbers = [int(x) for x in item.split(",")]
            except ValueError:
                raise ValueError(f"unknown special directive {item!r}\n  at {user_location()}") \
                    from None
            if len(numbers) > 3:
                raise ValueError(f"unknown special directive {item!r}\n  at {user_location()}")
            axis = numbers[0]
            if len(numbers) > 1:
                ndmin = numbers[1]
            if len(numbers) > 2:
                trans1d = numbers[2]
            continue
        if isinstance(item, slice):
            start = 0 if item.start is None else item.start
            step = 1 if item.step is None else item.step
            if isinstance(step, (complex, np.complexfloating)):
                obj = linspace(start, item.stop, num=int(abs(step)))
            else:
                obj = arange(start, item.stop, step)
            if ndmin > 1:
                # Leading axes (a size known only at run time stays one).
                obj = expand_dims(obj, tuple(range(ndmin - 1)))
                if trans1d != -1:
                    obj = swapaxes(obj, -1, trans1d)
            dtype_of.append(obj.dtype)
        elif isinstance(item, (bool, int, float, complex, np.generic)) or \
                (isinstance(item, Tracer) and item.is_scalar):
            obj = to_tracer(item)
            # A Python number (or a traced one) is weak in the result dtype; a NumPy
            # scalar, traced or not, is strong.
            dtype_of.append(_numpy_weak_sample(item))
            obj = reshape(obj, (1,) * ndmin) if ndmin else obj
        else:
            obj = to_tracer(item)
            item_ndim = obj.ndim
            if ndmin > item_ndim:
                obj = expand_dims(obj, tuple(range(ndmin - item_ndim)))
                if trans1d != -1:
                    k2, k1 = ndmin - item_ndim, trans1d
                    if k1 < 0:
                        k1 += k2 + 1
                    order = list(range(ndmin))
                    obj = transpose(obj, order[:k1] + order[k2:] + order[k1:k2])
            dtype_of.append(obj.dtype)
        objs.append(obj)
    if not objs:
        return to_tracer(original[()])
    final = numpy_says(np.result_type, *dtype_of)
    return concatenate([astype(o, final) for o in objs], axis=axis)


def _numpy_weak_sample(item):
    if isinstance(item, Tracer):
        return sample_of(item.atom) if item.type.weak else item.dtype
    return item


# ------------------------------------------------------------ grids
@implements(np.meshgrid)
def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Valid values for `indexing` are 'xy' and 'ij'.\n  at {user_location()}")
    xs = [ravel(x) for x in xi]
    ndim = len(xs)
    grids = [reshape(x, (1,) * i + (x.shape[0],) + (1,) * (ndim - i - 1)) for i, x in enumerate(xs)]
    if indexing == "xy" and ndim > 1:
        # Cartesian indexing swaps the first two axes of every grid.
        grids[0] = reshape(grids[0], (1, xs[0].shape[0]) + (1,) * (ndim - 2))
        grids[1] = reshape(grids[1], (xs[1].shape[0], 1) + (1,) * (ndim - 2))
    if not sparse and grids:
        shape = np.broadcast_shapes(*[g.shape for g in grids])
        grids = [broadcast_to(g, shape) for g in grids]
        if copy:
            # NumPy copies the broadcast grids: new, writable arrays in C order.
            grids = [new_c_ordered(emit("copy", [g])) for g in grids]
    return tuple(grids)


def new_c_ordered(t):
    """``t``, the value of an array NumPy allocates itself, in C order, whatever the
    layout of the arrays it was computed from (``np.indices``, ``np.mgrid``)."""
    t._layout = None
    return t


def indices(dimensions, dtype=int, sparse=False):
    dimensions = tuple(operator.index(d) for d in dimensions)
    n = len(dimensions)
    parts = []
    for i, d in enumerate(dimensions):
        shape = [1] * n
        shape[i] = d
        parts.append(reshape(arange(d, dtype=dtype), tuple(shape)))
    if sparse:
        return tuple(parts)
    if not parts:
        return to_tracer(np.indices((), dtype))
    return new_c_ordered(stack([broadcast_to(p, dimensions) for p in parts]))


Tracer.diagonal = lambda self, offset=0, axis1=0, axis2=1: diagonal(self, offset, axis1, axis2)
