"""What lowering choices buy: each kernel compiled with nptf's lowering and with
TensorFlow's plain kernel for the op in question, timed side by side in one run
(NumPy in the same run for scale).

* ``sin``/``cos`` under XLA: fdlibm's algorithm as arithmetic XLA vectorizes
  (``nptf/lowering/trig.py``) against ``tf.sin``/``tf.cos`` (a libm call per element).
* Cholesky from 512x512: block columns (``rules_linalg.py``) against TensorFlow's
  single-threaded kernel.

Run:  python -m bench.lowering
"""
from __future__ import annotations

import os
import sys

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
    TF_RULES["sin"], TF_RULES["cos"] = (lambda ctx, x: tf.sin(x)), (lambda ctx, x: tf.cos(x))
    return lambda: TF_RULES.update(sin=saved[0], cos=saved[1])


def _cholesky_kernel():
    saved = rules_linalg.CHOLESKY_BLOCKED_FROM
    rules_linalg.CHOLESKY_BLOCKED_FROM = 1 << 62

    def restore():
        rules_linalg.CHOLESKY_BLOCKED_FROM = saved
    return restore


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
]


def measure():
    rows = []
    for name, fn, inputs, size, jit, baseline, switch in CASES:
        args = inputs(size)
        expected = fn(*[a.copy() for a in args])
        times = {"numpy": median_time(lambda: fn(*args))[0]}
        for label in ("baseline", "nptf"):
            restore = switch() if label == "baseline" else (lambda: None)
            try:
                compiled = nptf.compile(fn, jit_compile=jit)
                wrong = mismatch(compiled(*args), expected)      # traced (and lowered) here
            finally:
                restore()
            if wrong:
                raise AssertionError(f"{name} ({label}): {wrong}")
            times[label] = median_time(lambda: compiled(*args))[0]
        rows.append([f"{name} {size}".strip(), baseline, f"{times['numpy'] * 1e3:.3f} ms",
                     f"{times['baseline'] * 1e3:.3f} ms", f"{times['nptf'] * 1e3:.3f} ms",
                     f"{times['baseline'] / times['nptf']:.2f}x"])
    return rows


def main():
    print(table(["kernel", "baseline lowers with", "numpy", "baseline", "nptf", "speed-up"],
                measure(), True))


if __name__ == "__main__":
    main()
