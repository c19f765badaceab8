"""One small graph each way TensorFlow can run it, called back to back and with pauses.

The sigmoid of 1,024 float32 values, compiled by nptf without XLA, run on the same
input tensor (graph call only, no conversions): as an eager function call, which
TensorFlow hands to a thread of its inter-op pool while the caller waits, on its
default executor (which hands ops to the pool again) and on its single-threaded
executor (one thread runs the ops); through the ``StatefulPartitionedCall`` op,
whose kernel runs the graph on the calling thread (what nptf does for plain graphs
without loops); and, for comparison, the same graph under XLA. Each is timed with the
calls back to back and with a 0.2 ms pause (sleep) between calls, as when the caller
does other work in between.

Then larger suite kernels, compiled without XLA, graph call only, each way in turn
(30 calls each, alternating): the single-threaded executor gives up running
independent ops side by side.

Run:  python -m bench.executors [--markdown]
"""
from __future__ import annotations

import os
import sys

if __package__ in (None, ""):      # run as a script: make the bench package importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "bench"
    import bench  # noqa: F401  (quiets TensorFlow's start-up log before it is imported)

import time  # noqa: E402

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import nptf  # noqa: E402
from nptf.runtime.dispatch import _direct_executor  # noqa: E402

from .kernels import BY_NAME, sigmoid  # noqa: E402
from .report import table  # noqa: E402

PAUSE_S = 2e-4
WAYS = [("function call, default executor", False, False),          # (name, inline, in_caller)
        ("function call, single-threaded executor", True, False),
        ("call op on the calling thread, single-threaded executor (nptf)", True, True)]
LARGE = [("standardize_rows", "large"), ("softmax", "large"), ("layer_norm", "large"),
         ("attention", "medium"), ("heat_step", "medium"), ("pairwise_distances", "medium")]


def _median_call(call, tensors, calls, pause):
    for _ in range(20):
        call(tensors)
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        call(tensors)
        times.append(time.perf_counter() - start)
        if pause:
            time.sleep(pause)
    return float(np.median(times))


def measure(calls=2000):
    y = np.random.default_rng(0).standard_normal(1024).astype(np.float32)
    plain = nptf.compile(sigmoid, jit_compile=False, adaptive=False)
    xla = nptf.compile(sigmoid, jit_compile=True, adaptive=False)
    for f in (plain, xla):
        np.testing.assert_allclose(f(y), sigmoid(y), rtol=1e-6)
    atomic = plain.entry_for(y).concrete._inference_function
    tensors = [tf.constant(y)]
    xla_call = xla.entry_for(y).call
    ways = {name: _direct_executor(atomic, inline=inline, in_caller=in_caller)
            for name, inline, in_caller in WAYS}
    ways["XLA"] = lambda ts: xla_call(*ts)
    rows = []
    for name, call in ways.items():
        np.testing.assert_allclose(call(tensors)[0].numpy(), sigmoid(y), rtol=1e-6)
        rows.append((name, _median_call(call, tensors, calls, 0.0),
                     _median_call(call, tensors, calls, PAUSE_S)))
    return rows


def measure_large(turns=30):
    """[(kernel, size, seconds per way of WAYS...)], medians."""
    rows = []
    for name, size in LARGE:
        kernel = BY_NAME[name]
        args = kernel.make_inputs(size)
        plain = nptf.compile(kernel.fn, jit_compile=False, adaptive=False)
        np.testing.assert_allclose(plain(*args), kernel.fn(*args), rtol=1e-5, atol=1e-6)
        atomic = plain.entry_for(*args).concrete._inference_function
        tensors = [tf.constant(a) for a in args]
        calls = [_direct_executor(atomic, inline=inline, in_caller=in_caller)
                 for _, inline, in_caller in WAYS]
        times = [[] for _ in calls]
        for turn in range(turns + 2):
            for i, call in enumerate(calls):
                start = time.perf_counter()
                call(tensors)
                if turn >= 2:       # the first two instantiate and warm up
                    times[i].append(time.perf_counter() - start)
        rows.append((name, size, *(float(np.median(t)) for t in times)))
    return rows


def main(argv=None):
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    rows = measure(args.calls)
    print(table(["graph call (sigmoid, 1,024 float32)", "back to back",
                 f"{PAUSE_S * 1e3:g} ms pause between calls"],
                [[n, f"{a * 1e6:.1f} µs", f"{b * 1e6:.1f} µs"] for n, a, b in rows],
                args.markdown))
    print()
    print(table(["graph call, no XLA", "size"] + [w[0] for w in WAYS] + ["nptf / first"],
                [[n, s] + [f"{t * 1e3:.2f} ms" for t in ts] + [f"{ts[-1] / ts[0]:.2f}x"]
                 for n, s, *ts in measure_large()], args.markdown))


if __name__ == "__main__":
    main()
