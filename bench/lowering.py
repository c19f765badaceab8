"""What lowering choices buy: each kernel compiled with nptf's lowering and with
TensorFlow's plain kernel for the op in question, timed side by side in one run
(NumPy in the same run for scale).

* ``sin``/``cos`` under XLA: fdlibm's algorithm as arithmetic XLA vectorizes
  (``nptf/lowering/trig.py``) against ``tf.sin``/``tf.cos`` (a libm call per element).
* Cholesky from 512x512: block columns (``rules_linalg.py``) against TensorFlow's
  single-threaded kernel.
* Boolean masks: a gather at ``tf.where``'s positions (``rules_indexing.py``) against
  ``tf.boolean_mask``, which builds more ops: set functions, first call and steady state.
* ``sinh``/``cosh`` under XLA from ``exp`` (``tf_math.hyperbolic``, within 3 ulps of
  NumPy's) against XLA's own (hundreds of ulps off for large arguments).
* ``np.prod`` of powers under XLA as the last running product (XLA's product reduction
  of powers is wrong for negative bases) against ``tf.reduce_prod``, on positive data.

The first call (trace, lowering, TensorFlow's graph optimisation or XLA's compile, one
run) is timed apart from the steady state (median of repeated calls).

Run:  python -m bench.lowering
"""
from __future__ import annotations

import os
import sys
import time

if __package__ in (None, ""):      # run as a script: make the bench package importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "bench"
    import bench  # noqa: F401  (quiets TensorFlow's start-up log before it is imported)

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import nptf  # noqa: E402
from nptf.lowering import rules_linalg  # noqa: E402
from nptf.lowering.rules import TF_RULES  # noqa: E402

from . import kernels as k  # noqa: E402
from .report import table  # noqa: E402
from .timing import median_time  # noqa: E402
from .validate import mismatch  # noqa: E402


def sin_cos_chain(x):
    return np.sin(x) * np.cos(2.0 * x)


def _vector(dtype):
    return lambda size: (k._rng().standard_normal(2 ** 20).astype(dtype) * 3,)


def _spd(n):
    def make(size):
        m = k._rng().standard_normal((n, n))
        return (m @ m.T + n * np.eye(n),)
    return make


def _tf_trig():
    saved = TF_RULES["sin"], TF_RULES["cos"]
    TF_RULES["sin"], TF_RULES["cos"] = (lambda ctx, x, unit_argument=False: tf.sin(x)), \
        (lambda ctx, x, unit_argument=False: tf.cos(x))
    return lambda: TF_RULES.update(sin=saved[0], cos=saved[1])


def _cholesky_kernel():
    saved = rules_linalg.CHOLESKY_BLOCKED_FROM
    rules_linalg.CHOLESKY_BLOCKED_FROM = 1 << 62

    def restore():
        rules_linalg.CHOLESKY_BLOCKED_FROM = saved
    return restore


def sets(a, b):
    return np.intersect1d(a, b), np.union1d(a, b), np.setdiff1d(a, b), np.unique(a)


def _int_pairs(n):
    return lambda size: tuple(k._rng().integers(0, n, n) for _ in range(2))


def hyperbolic_chain(x):
    return np.sinh(x) + np.cosh(x)


def product_of_powers(x, e):
    return np.prod(x ** e, axis=-1)


def _positive_rows(size):
    return k._rng().uniform(0.5, 1.5, (1024, 1024)), np.float64(1.5)


def _switch(name, rule):
    def switch():
        saved = TF_RULES[name]
        TF_RULES[name] = rule
        return lambda: TF_RULES.update({name: saved})
    return switch


_tf_boolean_mask = _switch("boolean_mask", lambda ctx, x, mask: tf.boolean_mask(x, mask))


def _xla_hyperbolic():
    restore_sinh = _switch("sinh", lambda ctx, x: tf.sinh(x))()
    restore_cosh = _switch("cosh", lambda ctx, x: tf.cosh(x))()
    return lambda: (restore_sinh(), restore_cosh())


_tf_reduce_prod = _switch("reduce_prod", lambda ctx, x, axes, keepdims, dtype:
                          tf.reduce_prod(x, axis=list(axes), keepdims=keepdims))


# (name, function, inputs, size, jit_compile, what the baseline lowers with, switch to it)
CASES = [
    ("fixed_point", k.fixed_point, k.fixed_point_inputs, "medium", True, "tf.cos", _tf_trig),
    ("fixed_point", k.fixed_point, k.fixed_point_inputs, "large", True, "tf.cos", _tf_trig),
    ("sin_cos_chain f64 2^20", sin_cos_chain, _vector(np.float64), "", True, "tf.sin, tf.cos",
     _tf_trig),
    ("sin_cos_chain f32 2^20", sin_cos_chain, _vector(np.float32), "", True, "tf.sin, tf.cos",
     _tf_trig),
    ("cholesky 512", k.cholesky, _spd(512), "", None, "Cholesky kernel", _cholesky_kernel),
    ("cholesky 1024", k.cholesky, _spd(1024), "", None, "Cholesky kernel", _cholesky_kernel),
    ("set functions 10^3", sets, _int_pairs(1000), "", False, "tf.boolean_mask",
     _tf_boolean_mask),
    ("set functions 10^6", sets, _int_pairs(10 ** 6), "", False, "tf.boolean_mask",
     _tf_boolean_mask),
    ("sinh + cosh f64 2^20", hyperbolic_chain, _vector(np.float64), "", True, "XLA's sinh, cosh",
     _xla_hyperbolic),
    ("prod of powers 1024x1024", product_of_powers, _positive_rows, "", True, "tf.reduce_prod",
     _tf_reduce_prod),
]


def measure():
    rows = []
    for name, fn, inputs, size, jit, baseline, switch in CASES:
        args = inputs(size)
        expected = fn(*[a.copy() for a in args])
        times = {"numpy": median_time(lambda: fn(*args))[0]}
        first = {}
        for label in ("baseline", "nptf"):
            restore = switch() if label == "baseline" else (lambda: None)
            try:
                compiled = nptf.compile(fn, jit_compile=jit, adaptive=False)
                start = time.perf_counter()
                got = compiled(*args)                   # traced (and lowered) here
                first[label] = time.perf_counter() - start
                wrong = mismatch(got, expected)
            finally:
                restore()
            if wrong:
                raise AssertionError(f"{name} ({label}): {wrong}")
            times[label] = median_time(lambda: compiled(*args))[0]
        rows.append([f"{name} {size}".strip(), baseline, f"{times['numpy'] * 1e3:.3f} ms",
                     f"{first['baseline']:.2f} s", f"{first['nptf']:.2f} s",
                     f"{times['baseline'] * 1e3:.3f} ms", f"{times['nptf'] * 1e3:.3f} ms",
                     f"{times['baseline'] / times['nptf']:.2f}x"])
    return rows


def main():
    print(table(["kernel", "baseline lowers with", "numpy", "first call baseline",
                 "first call nptf", "baseline", "nptf", "steady speed-up"], measure(), True))


if __name__ == "__main__":
    main()
