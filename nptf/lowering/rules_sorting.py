"""TF_RULES for sorting, searching and gathering (ops in ``graph_ir.ops_sorting``).

TensorFlow's sort is ``top_k`` (stable: equal keys keep their index order,
also under XLA) and has no total order for floats. Every dtype is therefore
mapped to an integer key with NumPy's order: -0.0 equals 0.0 and NaN sorts
after +inf.
"""
from __future__ import annotations

import numpy as np
import tensorflow as tf

from . import tf_math as m
from .rules import rule

_KEY_INT = {2: tf.int16, 4: tf.int32, 8: tf.int64}


def order_key(x):
    """An integer tensor whose order is NumPy's sort order of ``x``."""
    dtype = m.np_dtype(x)
    if dtype.kind == "b":
        return tf.cast(x, tf.int32)
    if dtype.kind == "i":
        return x if dtype.itemsize >= 4 else tf.cast(x, tf.int32)
    if dtype.kind == "u":
        if dtype.itemsize < 4:
            return tf.cast(x, tf.int32)
        if dtype.itemsize == 4:
            return tf.cast(x, tf.int64)
        # uint64: flipping the top bit maps unsigned order onto signed order.
        return tf.bitwise.bitwise_xor(tf.bitcast(x, tf.int64), tf.constant(-2**63, tf.int64))
    if dtype.kind == "f":
        canonical = tf.where(tf.math.is_nan(x), tf.constant(np.nan, x.dtype),
                             tf.where(tf.equal(x, 0), tf.zeros_like(x), x))
        int_type = _KEY_INT[dtype.itemsize]
        bits = tf.bitcast(canonical, int_type)
        width = dtype.itemsize * 8
        magnitude = tf.constant(2 ** (width - 1) - 1, int_type)
        # Negative floats order backwards in their bit pattern: flip all but the sign bit.
        key = tf.bitwise.bitwise_xor(bits, tf.bitwise.bitwise_and(
            tf.bitwise.right_shift(bits, tf.constant(width - 1, int_type)), magnitude))
        return key if width >= 32 else tf.cast(key, tf.int32)
    raise NotImplementedError(f"no sort order for dtype {dtype}")


def _move_last(x, axis):
    ndim = len(x.shape)
    perm = [i for i in range(ndim) if i != axis] + [axis]
    return _transpose(x, perm), perm


def _move_back(x, perm):
    return _transpose(x, np.argsort(perm).tolist())


def _transpose(x, perm):
    # Sorting along the last axis (the common case) needs no transpose op at all.
    return x if perm == sorted(perm) else tf.transpose(x, perm)


@rule("argsort")
def _argsort(ctx, x, axis):
    n = ctx.in_types[0].shape[axis]
    if n == 0:
        return tf.zeros(tf.shape(x), tf.int64)
    key, perm = _move_last(order_key(x), axis)
    if n is None:
        n = tf.shape(key)[-1]   # a length known only at run time (e.g. after a boolean mask)
    # top_k sorts descending; bitwise inversion reverses the order without overflow.
    idx = tf.math.top_k(tf.bitwise.invert(key), k=n, sorted=True).indices
    return _move_back(tf.cast(idx, tf.int64), perm)


@rule("numpy_order")
def _numpy_order(ctx, x, fn, axis, kth, message):
    """NumPy's own call, from the graph (``tf.numpy_function``). The default-kind
    argsort asks NumPy only where the data have ties: elsewhere every sort gives the
    stable order. A graph exported to run without this process cannot call NumPy: its
    argsort fails where there are ties (``message``), and its partitions are sorted."""
    dtype = m.np_dtype(x)
    if ctx.xla:
        raise NotImplementedError("XLA cannot call NumPy")   # an XLA obstacle: never reached
    if fn == "argsort":
        stable = _argsort(ctx, x, axis)
        ties = _has_ties(x, stable, axis)
        if ctx.portable:
            ctx.checks.append((tf.logical_not(ties), "OutsideTheGraph", message))
            return stable
        return tf.cond(ties, lambda: _host(lambda a: np.argsort(a, axis=axis), x, tf.int64),
                       lambda: stable)
    if ctx.portable:
        if dtype.kind == "c":
            raise NotImplementedError(f"np.{fn} of complex values in an exported graph")
        order = _argsort(ctx, x, axis)
        return order if fn == "argpartition" else \
            _take_along_axis(ctx, x, order, axis)
    out = tf.int64 if fn == "argpartition" else x.dtype
    return _host(lambda a: getattr(np, fn)(a, list(kth), axis=axis), x, out)


def _has_ties(x, order, axis):
    """Whether two elements of ``x`` along ``axis`` are equal (two NaNs are)."""
    s = _take_along_axis(None, x, order, axis)
    n = tf.shape(s)[axis]
    upper = tf.gather(s, tf.range(1, n), axis=axis)
    lower = tf.gather(s, tf.range(0, n - 1), axis=axis)
    tie = tf.equal(upper, lower)
    if m.np_dtype(x).kind == "f":
        tie |= tf.math.is_nan(upper) & tf.math.is_nan(lower)
    return tf.reduce_any(tie)


def _host(call, x, dtype):
    out = tf.numpy_function(call, [x], dtype, stateful=False)
    out.set_shape(x.shape)
    return out


rule("take")(lambda ctx, x, idx, axis: tf.gather(x, idx, axis=axis))


@rule("take_slices")
def _take_slices(ctx, *sources, axis, pieces):
    """The plain executor copies each piece once into the concatenation (np.delete of
    two elements from 1e6: 3.3 ms, a gather at a table of the positions 6 ms). XLA
    gathers at the table of positions faster than it concatenates (2.1 ms against 2.4;
    columns of a 1000x1000 matrix: 1.8 ms against 2.9)."""
    def along(start, stop):
        return (slice(None),) * axis + (slice(start, stop),)
    if not ctx.xla:
        return tf.concat([sources[k][along(start, stop)] for k, start, stop in pieces], axis)
    offsets = np.cumsum([0] + [ctx.in_types[k].shape[axis] for k in range(len(sources))])
    table = np.concatenate([np.arange(start, stop) + offsets[k] for k, start, stop in pieces])
    whole = sources[0] if len(sources) == 1 else tf.concat(sources, axis)
    index = tf.int32 if offsets[-1] < 2 ** 31 else tf.int64
    return tf.gather(whole, tf.constant(table, index), axis=axis)


@rule("take_along_axis")
def _take_along_axis(ctx, x, idx, axis):
    x_last, perm = _move_last(x, axis)
    idx_last, _ = _move_last(idx, axis)
    out = tf.gather(x_last, idx_last, batch_dims=len(x.shape) - 1)
    return _move_back(out, perm)


@rule("searchsorted")
def _searchsorted(ctx, a, v, side):
    keys_a = tf.reshape(order_key(a), m.index_constant([1, -1]))
    keys_v = tf.reshape(order_key(v), m.index_constant([1, -1]))
    # The kernel itself: tf.searchsorted's wrapper adds a dozen reshapes and constants.
    search = tf.raw_ops.LowerBound if side == "left" else tf.raw_ops.UpperBound
    out = search(sorted_inputs=keys_a, values=keys_v, out_type=tf.int64)
    return tf.reshape(out, tf.shape(v))


@rule("segment_sum")
def _segment_sum(ctx, values, ids, length):
    ids = tf.reshape(ids, [-1])
    values = tf.reshape(values, [-1])
    inside = (ids >= 0) & (ids < length)
    ids = tf.where(inside, ids, -tf.ones_like(ids))  # negative ids are dropped
    if m.kind(values) == "b" or m.np_dtype(values).itemsize < 4 and m.kind(values) in "iu":
        wide = tf.math.unsorted_segment_sum(tf.cast(values, tf.int64), ids, length)
        return tf.cast(wide, values.dtype) if m.kind(values) != "b" else wide > 0
    return tf.math.unsorted_segment_sum(values, ids, length)
