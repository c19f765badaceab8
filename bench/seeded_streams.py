"""``python -m bench.seeded_streams``: functions whose draws from a stream they seed run
NumPy's Mersenne Twister in the graph (draws the data decide): the first call (trace,
lowering, TensorFlow's graph building) and the steady state (median of 20 calls after
it), beside NumPy's own time, ``adaptive=False`` so that the graph itself is timed."""
from __future__ import annotations

import statistics
import time
import warnings

import numpy as np

import nptf
from nptf.graph_ir.walk import all_eqns


def branchy_unrolled(x):
    # A write in place and a rebinding in the body: the loop runs unrolled, 12 copies of
    # its draws, each under a traced ``if``.
    np.random.seed(3)
    out = x.copy()
    for i in range(12):
        if out[i % 3] > 0.5:
            out = out + np.random.randn(3)
        elif out[i % 3] > -0.5:
            out[i % 3] = np.random.uniform(-1, out[1] + 2.0)
        else:
            out = out[np.random.permutation(3)] + np.random.exponential(0.5)
        if np.random.random_sample() < 0.3:
            np.random.shuffle(out)
    return out


def walk_until(x):
    # One scalar draw per step of a ``while``.
    np.random.seed(7)
    pos, steps = 0.0, 0
    while abs(pos) < x[0]:
        pos += np.random.normal(0.0, x[1])
        steps += 1
    return pos, steps


CASES = [(branchy_unrolled, np.array([0.9, -0.2, -1.5])), (walk_until, np.array([6.0, 0.7]))]


def _median(fn, x, reps=20):
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn(x.copy())
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    warnings.simplefilter("ignore")
    print("| function | draws in the graph | first call s | steady ms | NumPy ms | NumPy/nptf |")
    print("|---|---|---|---|---|---|")
    for fn, x in CASES:
        f = nptf.compile(fn, fallback="raise", adaptive=False, compile_budget=600)
        start = time.perf_counter()
        f(x.copy())
        first = time.perf_counter() - start
        draws = sum(e.op.name == "mt_draw" for e in all_eqns(f.trace(x)))
        steady, numpy = _median(f, x), _median(fn, x)
        print(f"| {fn.__name__} | {draws} | {first:.2f} | {steady * 1e3:.2f} | "
              f"{numpy * 1e3:.3f} | {numpy / steady:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
