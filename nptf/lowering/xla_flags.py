"""What the XLA of this process does with NaN in min/max reductions.

``nptf/__init__`` asks XLA to keep NaN (``--xla_cpu_enable_fast_min_max=false``),
but XLA reads its flags once, at its first compile: if that came before nptf was
imported, or XLA_FLAGS turns fast min/max on, reductions drop NaN. One tiny
compile, the first time a lowering needs to know, tells which.
"""
from __future__ import annotations

import functools

import numpy as np
import tensorflow as tf


@functools.cache
def reductions_keep_nan() -> bool:
    """Whether XLA's max reduction of [1, nan, 2] is NaN in this process, on the CPU
    and on a GPU if there is one (each backend has its own flag)."""
    devices = ["/CPU:0"] + [d.name for d in tf.config.list_logical_devices("GPU")[:1]]
    with tf.init_scope():     # run eagerly, also while a graph is being traced
        for device in devices:
            with tf.device(device):
                probe = tf.function(tf.reduce_max, jit_compile=True, autograph=False)
                value = probe(tf.constant([1.0, np.nan, 2.0], tf.float32))
            if not np.isnan(value.numpy()):
                return False
    return True
