"""Everyday constructs whose lowering once built an index table as large as the data:
the graph (``adaptive=False``: the graph on every call) against NumPy at about 1e6
elements, first call and steady state, both executors.

Each row checks the result against NumPy before it is timed; a wrong result prints
"WRONG", never a time.

Run:  python -m bench.index_tables [--markdown] [--only NAME,...]
"""
from __future__ import annotations

import argparse
import os
import sys
import time

if __package__ in (None, ""):      # run as a script: make the bench package importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "bench"
    import bench  # noqa: F401  (quiets TensorFlow's start-up log before it is imported)

import numpy as np  # noqa: E402

import nptf  # noqa: E402

from .report import machine_line, table  # noqa: E402

N = 1_000_000


def add_into_interior(y, v):
    y = y.copy()
    y[1:-1] += v
    return y


def multiply_out_into_a_slice(a, b, y):
    y = y.copy()
    np.multiply(a, b, out=y[:-1])
    return y


def scale_columns(m):
    m = m.copy()
    m[:, 1:] *= 2
    return m


def store_every_other(y, v):
    y = y.copy()
    y[::2] = v
    return y


def store_at_indices(y, idx, v):
    y = y.copy()
    y[idx] = v
    return y


def add_at_indices(y, idx, v):
    y = y.copy()
    np.add.at(y, idx, v)
    return y


def zero_rows(m, rows):
    m = m.copy()
    m[rows] = 0.0
    return m


def roll(x):
    return np.roll(x, 3)


def pad_reflect(x):
    return np.pad(x, 5, mode="reflect")


def pad_edge(x):
    return np.pad(x, (2, 7), mode="edge")


def convolve_long(x, k):
    return np.convolve(x, k, "valid")


def window_max(x):
    return np.lib.stride_tricks.sliding_window_view(x, 10).max(axis=1)


# Counts and starts as constants of the code, as such code has them (an argument would
# be known only at run time: another path).
_COUNTS = np.random.default_rng(1).integers(0, 3, 10_000)
_COUNTS[7] = 2000
_STARTS = np.arange(0, N, 10)


def repeat_uneven(x):
    return np.repeat(x, _COUNTS)


def argmax(x):
    return np.argmax(x)


def reduceat(x):
    return np.add.reduceat(x, _STARTS)


def delete_few(x):
    return np.delete(x, [3, 500, 70_000])


def cases():
    rng = np.random.default_rng(0)
    x = rng.random(N)
    return [
        (add_into_interior, (x, rng.random(N - 2))),
        (multiply_out_into_a_slice, (rng.random(N - 1), rng.random(N - 1), x)),
        (scale_columns, (rng.random((1000, 1000)),)),
        (store_every_other, (x, rng.random(N // 2))),
        (store_at_indices, (x, rng.integers(0, N, 1000), rng.random(1000))),
        (add_at_indices, (x, rng.integers(0, N, 1000), rng.random(1000))),
        (zero_rows, (rng.random((1000, 1000)), rng.integers(0, 1000, 100))),
        (roll, (x,)), (pad_reflect, (x,)), (pad_edge, (x,)),
        (convolve_long, (x, rng.random(65))),
        (window_max, (x,)),
        (repeat_uneven, (rng.random(10_000),)),
        (argmax, (x,)),
        (reduceat, (x,)),
        (delete_few, (x,)),
    ]


def _median_time(run, calls=10):
    times = []
    for _ in range(calls):
        t = time.perf_counter()
        run()
        times.append(time.perf_counter() - t)
    return float(np.median(times))


def measure(fn, args, jit):
    f = nptf.compile(fn, adaptive=False, jit_compile=jit)
    start = time.perf_counter()
    got = f(*args)
    first = time.perf_counter() - start
    expected = fn(*args)
    ok = np.asarray(got).shape == np.asarray(expected).shape and \
        np.asarray(got).dtype == np.asarray(expected).dtype and \
        np.allclose(got, expected, rtol=1e-9, atol=1e-9)
    if not ok:
        return None
    for _ in range(5):
        f(*args)
        fn(*args)
    return dict(first=first, nptf=_median_time(lambda: f(*args)),
                numpy=_median_time(lambda: fn(*args)))


def _ms(seconds):
    return f"{seconds * 1e3:.2f}" if seconds < 1 else f"{seconds * 1e3:.0f}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--only", default="", help="comma-separated function names")
    args = parser.parse_args(argv)
    only = set(filter(None, args.only.split(",")))
    rows = []
    for fn, call_args in cases():
        if only and fn.__name__ not in only:
            continue
        row = [fn.__name__]
        for jit in (False, True):
            r = measure(fn, call_args, jit)
            if r is None:
                row += ["WRONG", "-", "-", "-"]
                continue
            row += [_ms(r["numpy"]), _ms(r["nptf"]), f"{r['numpy'] / r['nptf']:.2f}x",
                    _ms(r["first"])]
        rows.append(row)
        print(" | ".join(row), file=sys.stderr, flush=True)
    print(machine_line())
    print(table(["construct", "NumPy ms", "plain ms", "speed-up", "first call ms",
                 "NumPy ms", "XLA ms", "speed-up", "first call ms"], rows,
                markdown=args.markdown))


if __name__ == "__main__":
    main()
