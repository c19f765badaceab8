"""Default settings on everyday functions: the first call, the calls until the way to run
them is chosen (the warm-up), and the steady state, each against NumPy.

The steady state is the median of interleaved samples of NumPy and of the compiled
function (so a slow moment of the machine hits both alike); the warm-up is every call
after the first until adaptive dispatch has chosen and the executor trial (if the graph
was kept) has ended, each timed alone.

Run:  python -m bench.warmup [--markdown]
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


def add_one(x):
    return x + 1


def standardize(x):
    return (x - x.mean()) / (x.std() + 1e-12)


def logistic(X, w):
    return 1 / (1 + np.exp(-(X @ w)))


def clip_by_norm(g):
    n = np.linalg.norm(g)
    return g * min(1.0, 5.0 / (n + 1e-12))


def softmax_rows(z):
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def pairwise_distances(X):
    d = X[:, None, :] - X[None, :, :]
    return np.sqrt((d * d).sum(axis=-1))


def moving_average(x):
    return np.convolve(x, np.ones(10) / 10, "valid")


def counts(idx):
    return np.bincount(idx, minlength=64)


def cumsum_average(x):
    c = np.cumsum(x)
    return (c[10:] - c[:-10]) / 10


def elementwise_chain(x):
    return np.sqrt(np.abs(np.sin(x) * np.cos(x) + 1.0)).sum()


def cases():
    rng = np.random.default_rng(0)
    return [
        (add_one, (rng.random(1),)), (add_one, (rng.random(1000),)),
        (standardize, (rng.random(16),)), (standardize, (rng.random(4096),)),
        (standardize, (rng.random(1_000_000),)),
        (logistic, (rng.random((256, 4)), rng.random(4))), (clip_by_norm, (rng.random(1000),)),
        (softmax_rows, (rng.random((64, 10)),)), (pairwise_distances, (rng.random((100, 3)),)),
        (moving_average, (rng.random(1_000_000),)), (counts, (rng.integers(0, 64, 1_000_000),)),
        (cumsum_average, (rng.random(1_000_000),)), (elementwise_chain, (rng.random(1_000_000),)),
    ]


def measure(fn, args, max_warm_up_s=20.0, samples=15):
    f = nptf.compile(fn)
    start = time.perf_counter()
    f(*args)
    first = time.perf_counter() - start
    warm, start = [], time.perf_counter()
    chosen = f.way_for(*args)
    while chosen is None and time.perf_counter() - start < max_warm_up_s:
        t = time.perf_counter()
        f(*args)
        warm.append(time.perf_counter() - t)
        chosen = f.way_for(*args)
    for _ in range(20):     # the allocator settles on NumPy's side too
        fn(*args)
        f(*args)
    times = ([], [])
    for _ in range(samples):
        for side, run in enumerate((lambda: fn(*args), lambda: f(*args))):
            number = max(1, int(2e-3 / max(_once(run), 1e-7)))
            t = time.perf_counter()
            for _ in range(number):
                run()
            times[side].append((time.perf_counter() - t) / number)
    numpy_t, nptf_t = (float(np.median(t)) for t in times)
    return dict(first=first, warm=warm, chosen=chosen or "still measuring", numpy=numpy_t,
                nptf=nptf_t)


def _once(run):
    t = time.perf_counter()
    run()
    return time.perf_counter() - t


def _us(seconds):
    return f"{seconds * 1e6:.1f}" if seconds < 1e-3 else f"{seconds * 1e3:.2f} ms"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    for fn, call_args in cases():
        size = "x".join(map(str, call_args[0].shape))
        r = measure(fn, call_args)
        steady = r["nptf"]
        warm = r["warm"]
        slowest = max(warm, default=0.0)
        rows.append([f"{fn.__name__} {size}", _us(r["numpy"]), _us(steady),
                     f"{r['numpy'] / steady:.2f}x", f"{r['first'] * 1e3:.0f} ms",
                     str(len(warm)), _us(slowest) if warm else "-",
                     f"{slowest / steady:.1f}x" if warm else "-", r["chosen"]])
        print(" | ".join(rows[-1]), file=sys.stderr, flush=True)
    print(machine_line())
    print(table(["function, size", "NumPy us", "nptf us", "speed-up", "first call",
                 "warm-up calls", "slowest warm-up", "/ steady", "way chosen"], rows,
                markdown=args.markdown))


if __name__ == "__main__":
    main()
