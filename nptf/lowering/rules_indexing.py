"""TF_RULES for gathers, masks and functionalised writes."""
from __future__ import annotations

import numpy as np
import tensorflow as tf

from . import tf_math as m
from .rules import rule

try:   # TensorFlow's binding of XLA's own op (not in tf.raw_ops)
    from tensorflow.compiler.tf2xla.python import xla as _tf2xla
    _xla_dynamic_update_slice = _tf2xla.dynamic_update_slice
except (ImportError, AttributeError):  # another TensorFlow layout: a scatter of the region
    _xla_dynamic_update_slice = None


@rule("gather_nd")
def _gather_nd(ctx, x, indices):
    if indices.shape.rank == 1 and indices.shape[0] is not None:
        # One element or row: a slice (XLA's dynamic-slice), whose gradient TensorFlow
        # has; its gradient of gather_nd fails on 1-d indices.
        k, rank = indices.shape[0], x.shape.rank
        begin = tf.concat([indices, tf.zeros([rank - k], indices.dtype)], 0) if k < rank \
            else indices
        size = tf.concat([tf.ones([k], tf.int32), tf.shape(x)[k:]], 0)
        return tf.reshape(tf.slice(x, begin, tf.cast(size, indices.dtype)), tf.shape(x)[k:])
    return tf.gather_nd(x, indices)


@rule("dynamic_slice")
def _dynamic_slice(ctx, x, begin, size=None, *, sizes):
    return tf.slice(x, begin, sizes if size is None else size)


@rule("dynamic_update_slice")
def _dynamic_update_slice(ctx, base, values, begin):
    if ctx.xla:
        # XLA updates a loop-carried array in place; its TensorStridedSliceUpdate needs a
        # begin known when it compiles.
        if _xla_dynamic_update_slice is not None:
            return _xla_dynamic_update_slice(base, values, begin)
        grid = tf.meshgrid(*[tf.range(n, dtype=begin.dtype) for n in values.shape], indexing="ij")
        return tf.tensor_scatter_nd_update(base, begin + tf.stack(grid, axis=-1), values)
    return tf.raw_ops.TensorStridedSliceUpdate(input=base, begin=begin,
                                               end=begin + tf.shape(values, out_type=begin.dtype),
                                               strides=tf.ones_like(begin), value=values)


@rule("boolean_mask")
def _boolean_mask(ctx, x, mask):
    # A gather at the mask's true positions. tf.boolean_mask builds the same from 30 ops
    # of shape arithmetic; a set function that masks six times paid for them in every
    # graph it built.
    k = mask.shape.rank
    if k is None or x.shape.rank is None:
        return tf.boolean_mask(x, mask)
    if k != 1:
        rest = x.shape.as_list()[k:]
        if None in rest:
            return tf.boolean_mask(x, mask)
        x = tf.reshape(x, [-1] + rest)
        mask = tf.reshape(mask, [-1])
    return tf.gather(x, tf.reshape(tf.where(mask), [-1]))


@rule("nonzero")
def _nonzero(ctx, x):
    return tf.where(m.to_bool(x))


def _segment_dtype(x):
    """unsorted_segment_* kernels lack bool (and some small ints): compute in a wider dtype."""
    kind = m.kind(x)
    if kind == "b":
        return tf.int32
    if kind in "iu" and m.np_dtype(x).itemsize < 4:
        return tf.int32
    if kind == "u":
        return tf.int64
    return x.dtype


@rule("scatter")
def _scatter(ctx, base, positions, values, mode, unique):
    shape = base.shape.as_list() if base.shape.rank is not None else None
    if shape and None not in shape and mode == "update" and positions.shape.as_list() == [1]:
        # One element: on the array itself, at its n-d index. Written through a reshape,
        # XLA copied a loop-carried array every iteration (a[i, 0] = ... in a 10,000-step
        # loop: 461 ms instead of 0.3). Several elements stay one update: written one
        # after another, XLA copied the array between them (an in-place reversal of
        # 16,000 numbers: 48 ms instead of 1.1).
        strides = [int(np.prod(shape[k + 1:], dtype=np.int64)) for k in range(len(shape))]
        index = positions[:, None] if len(shape) == 1 else \
            tf.stack([(positions // s) % d for s, d in zip(strides, shape)], axis=1)
        return tf.tensor_scatter_nd_update(base, index, values)
    if shape is not None and len(shape) == 1:
        return _scatter_flat(base, positions, values, mode, unique, ctx.xla)
    # Rows and columns measured faster flat.
    flat = _scatter_flat(tf.reshape(base, m.index_constant([-1])), positions, values, mode, unique,
                         ctx.xla)
    return tf.reshape(flat, tf.shape(base))


def _scatter_flat(base, positions, values, mode, unique, xla=False):
    n = tf.shape(base, out_type=tf.int64)[0]
    idx = positions[:, None]
    if mode == "update" and unique:
        return tf.tensor_scatter_nd_update(base, idx, values)
    if mode == "update" and not xla:
        return _scatter_last_wins(base, positions, values)
    if mode == "update":
        # XLA fuses these passes over the array, and its sort is slow to compile and
        # to run: per position of the array, the last update's order, then the writes.
        order = tf.range(tf.shape(positions, out_type=tf.int64)[0])
        last = tf.math.unsorted_segment_max(order, positions, n)
        keep = tf.equal(tf.gather(last, positions), order)
        wide = _segment_dtype(values)
        picked = tf.where(keep, tf.cast(values, wide), tf.zeros_like(values, wide))
        written = tf.math.unsorted_segment_sum(picked, positions, n)
        hit = last >= 0
        return tf.where(hit, tf.cast(written, base.dtype), base)
    wide = _segment_dtype(base)
    b, v = tf.cast(base, wide), tf.cast(values, wide)
    if mode == "add":
        out = tf.tensor_scatter_nd_add(b, idx, v)
    elif mode == "subtract":
        out = tf.tensor_scatter_nd_sub(b, idx, v)
    elif mode == "maximum":
        out = tf.tensor_scatter_nd_max(b, idx, v)
    elif mode == "minimum":
        out = tf.tensor_scatter_nd_min(b, idx, v)
    elif mode == "multiply":
        out = b * tf.math.unsorted_segment_prod(v, positions, n)
    else:
        raise NotImplementedError(f"scatter mode {mode!r}")
    if m.kind(base) == "b":
        return tf.not_equal(out, 0)
    return tf.cast(out, base.dtype)




def _scatter_last_wins(base, positions, values):
    """NumPy's ``x[positions] = values`` where positions may repeat, on the plain executor:
    the last write to a position wins. Each write takes the value of the last write to
    its position (found by a stable sort of the positions, so the work is in the number
    of writes, not the array's size), and repeated writes of one value leave the kernel
    no choice."""
    k = tf.shape(positions, out_type=tf.int64)[0]
    # As many values as positions, as the other scatter kernels check (sizes known only
    # at run time, a selection stored into a mask's: NumPy's ValueError where they
    # differ, by way of the kernel's error).
    values = tf.reshape(values, tf.shape(positions))
    perm = tf.argsort(positions, stable=True)
    ordered = tf.gather(positions, perm)
    starts = tf.not_equal(ordered, tf.concat([[-1], ordered[:-1]], 0))   # positions are >= 0
    group = tf.cumsum(tf.cast(starts, tf.int64)) - 1
    last = tf.math.unsorted_segment_max(tf.range(k), group, k)
    source = tf.gather(perm, tf.gather(last, group))
    return tf.tensor_scatter_nd_update(base, ordered[:, None], tf.gather(values, source))


rule("dim")(lambda ctx, x, axis: tf.shape(x, out_type=tf.int64)[axis])
