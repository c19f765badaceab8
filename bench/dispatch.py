"""Per-call overhead of a compiled trivial function, layer by layer.

``x + 1`` on a one-element float64 array does no real work, so each time is
the cost of getting into and out of the runtime:

  (a) NumPy itself
  (b) a plain tf.function called with the NumPy array (tensor out)
  (c) that tf.function's concrete function called with a tensor (tensor out)
  (c') its atomic function's ``call_flat`` (TensorFlow's lowest Python layer
      short of executing the function op by hand; tensor out)
  (d) nptf's graph call on fresh tensors from ``nptf.runtime.dispatch.to_tensors``
      (NumPy in, tensor out; the compiled call reuses staged input tensors instead)
  (e) ``nptf.compile`` called normally (NumPy in, NumPy out)

Run:  python -m bench.dispatch   (or python bench/dispatch.py)
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
from nptf.runtime.dispatch import to_tensors  # noqa: E402

from .report import table  # noqa: E402
from .timing import median_time  # noqa: E402


def add_one(x):
    return x + 1


def measure_dispatch(repeat=15):
    """[(label, seconds per call)] for the six ways of calling ``x + 1``."""
    x = np.ones(1)
    compiled = nptf.compile(add_one, adaptive=False)   # the graph's own call
    assert compiled(x).dtype == np.float64 and compiled(x)[0] == 2.0
    entry = compiled.entry_for(x)
    plain = tf.function(add_one)
    concrete = plain.get_concrete_function(tf.TensorSpec([1], tf.float64))
    tensor = tf.constant(x)
    calls = [
        ("(a) NumPy", lambda: add_one(x)),
        ("(b) tf.function(NumPy array)", lambda: plain(x)),
        ("(c) concrete function(tensor)", lambda: concrete(tensor)),
        ("(c') atomic function call_flat(tensor)",
         lambda: concrete._inference_function.call_flat(tensor)),
        ("(d) nptf's graph call on fresh tensors: entry.call(*to_tensors)",
         lambda: entry.call(*to_tensors([x], entry.dtypes))),
        ("(e) nptf.compile(NumPy array)", lambda: compiled(x)),
    ]
    return [(label, median_time(call, repeat)[0]) for label, call in calls]


def timing_of(timings, key):
    """Seconds per call of the row labelled ``(key) ...``."""
    return next(s for label, s in timings if label.startswith(f"({key})"))


def dispatch_table(timings, markdown=False):
    numpy, lowest = timing_of(timings, "a"), timing_of(timings, "c'")
    body = [[label, f"{s * 1e6:.2f}", f"{s / numpy:.1f}x", f"{s / lowest:.2f}x"]
            for label, s in timings]
    return table(["call", "µs per call", "vs NumPy", "vs TF's call_flat (c')"], body, markdown)


def main(argv=None):
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    timings = measure_dispatch(args.repeat)
    print(dispatch_table(timings, args.markdown))
    ratio = timing_of(timings, "e") / timing_of(timings, "c'")
    print(f"\nnptf.compile call / TensorFlow's call_flat: {ratio:.2f}x (target <= 1.5x)")


if __name__ == "__main__":
    main()
