"""TF_RULES for random numbers: stateless draws (``tf.random.stateless_*``) and NumPy's
legacy stream itself (``mt19937``)."""
from __future__ import annotations

import numpy as np
import tensorflow as tf

from ..errors import UnsupportedError
from ..graph_ir.ops_random import generator_call
from . import mt19937
from .rules import rule


# One TensorFlow function per sampler and size, made once and called by every draw of
# it: a draw's loops and conds would otherwise be built anew at each draw of a graph
# (a tenth of a second each).
_SAMPLERS = {}


def _sampler(dist, n, low, rng):
    key = (dist, n, low, rng)
    fn = _SAMPLERS.get(key)
    if fn is None:
        draw = {"double": mt19937.doubles, "gauss": mt19937.gauss,
                "permutation": mt19937.permutation,
                "bounded": lambda state, n: mt19937.bounded(state, n, low, rng)}[dist]
        state = tf.TensorSpec([mt19937.STATE], tf.int64)
        if n is None:
            fn = tf.function(draw, input_signature=[state, tf.TensorSpec([], tf.int64)],
                             autograph=False, reduce_retracing=False)
        else:
            fn = tf.function(lambda state: draw(state, n), input_signature=[state],
                             autograph=False)
        _SAMPLERS[key] = fn
    return fn


@rule("mt_draw")
def _mt_draw(ctx, state, *dims, dist, shape, low=0, rng=0, sizes=0):
    if sizes:
        known = iter(tf.cast(n, tf.int64) for n in dims)
        shape = tf.stack([next(known) if d is None else tf.constant(d, tf.int64)
                          for d in shape])
        values, state = _sampler(dist, None, low, rng)(state, tf.reduce_prod(shape))
    else:
        values, state = _sampler(dist, int(np.prod(shape, dtype=np.int64)), low, rng)(state)
        shape = list(shape)
    return state, tf.reshape(values, shape)


@rule("generator_draw")
def _generator_draw(ctx, state, *arrays, **params):
    """NumPy's Generator itself, called from the graph (a SavedModel cannot call Python)."""
    if ctx.portable:
        raise UnsupportedError(
            f"np.random.Generator.{params['method']}: draws from a generator seeded inside "
            f"the function, where the data decide them, run NumPy's generator through "
            f"Python. Draw the numbers before the branch or loop, or pass them in as an "
            f"argument.")
    out = tf.numpy_function(lambda *xs: generator_call(params, *xs), [state, *arrays],
                            [tf.int64, tf.as_dtype(np.dtype(params["dtype"])), tf.bool],
                            stateful=False)
    for t, shape in zip(out, (state.shape, params["shape"], ())):
        t.set_shape(shape)
    return tuple(out)


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
