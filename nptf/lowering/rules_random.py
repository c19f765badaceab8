"""TF_RULES for stateless random numbers (``tf.random.stateless_*``)."""
from __future__ import annotations

import numpy as np
import tensorflow as tf

from .rules import rule


@rule("rng_split")
def _rng_split(ctx, key):
    keys = tf.random.experimental.stateless_split(key, 2)
    return keys[0], keys[1]


@rule("random")
def _random(ctx, key, *args, dist, shape, dtype, sizes=0):
    dtype = np.dtype(dtype)
    tf_dtype = tf.as_dtype(dtype)
    if sizes:
        known = iter(tf.cast(n, tf.int64) for n in args[len(args) - sizes:])
        shape = tf.stack([next(known) if d is None else tf.constant(d, tf.int64) for d in shape])
        args = args[:-sizes]
    else:
        shape = list(shape)
    if dist == "uniform":
        # Generated in float64 then cast: float32 draws stay in [0, 1) like NumPy's.
        return tf.cast(tf.random.stateless_uniform(shape, seed=key, dtype=tf.float64), tf_dtype)
    if dist == "normal":
        return tf.cast(tf.random.stateless_normal(shape, seed=key, dtype=tf.float64), tf_dtype)
    if dist == "integers":
        low, high = (tf.cast(a, tf.int64) for a in args)
        return tf.cast(tf.random.stateless_uniform(shape, seed=key, minval=low, maxval=high,
                                                   dtype=tf.int64), tf_dtype)
    if dist == "binomial":
        return tf.cast(tf.random.stateless_binomial(shape, seed=key, counts=tf.cast(args[0], tf.float64),
                                                    probs=tf.cast(args[1], tf.float64),
                                                    output_dtype=tf.float64), tf_dtype)
    return tf.cast(tf.random.stateless_poisson(shape, seed=key, lam=tf.cast(args[0], tf.float64),
                                               dtype=tf.float64), tf_dtype)
