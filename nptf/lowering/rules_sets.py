"""TF_RULE for ``bincount`` (op in ``graph_ir.ops_sets``)."""
from __future__ import annotations

import tensorflow as tf

from .rules import rule


@rule("bincount")
def _bincount(ctx, ids, *weights, minlength):
    ids = tf.cast(ids, tf.int64)
    # An empty reduce_max is the smallest int64, so empty ids give minlength bins.
    length = tf.maximum(tf.reduce_max(ids) + 1, tf.constant(max(minlength, 0), tf.int64))
    values = weights[0] if weights else tf.ones_like(ids)
    # unsorted_segment_sum drops negative ids: NumPy raises on them, through a check.
    return tf.math.unsorted_segment_sum(values, ids, length)
