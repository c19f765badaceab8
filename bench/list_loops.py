"""Loops that write Python lists (dynamic-programming tables, a search's distances, a
recurrence kept in a list): the first call of a fresh compile and the steady state of
the graph (``adaptive=False``; the median of calls 2-31, while the executor trial
runs, apart), each against NumPy's run of the same function.

A loop whose body writes a list at its index runs as one graph loop that carries the
list as an array; an `if` on traced data in a loop that runs unrolled becomes a
``where`` where its branches are small. The first call is what those change. A loop that computes only values the trace knows
(a table written element by element) runs in Python while tracing, its table a constant
of the graph.

Run:  python -m bench.list_loops [--markdown]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
import warnings

if __package__ in (None, ""):      # run as a script: make the bench package importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "bench"
    import bench  # noqa: F401  (quiets TensorFlow's start-up log before it is imported)

import numpy as np  # noqa: E402

import nptf  # noqa: E402

from .everyday.funcs_f import bfs_distances  # noqa: E402
from .report import machine_line, table  # noqa: E402


def longest_increasing_subsequence(a):
    n = len(a)
    dp = [1] * n
    for i in range(n):
        for j in range(i):
            if a[j] < a[i] and dp[j] + 1 > dp[i]:
                dp[i] = dp[j] + 1
    return max(dp)


def coin_change(coins, amount):
    dp = [amount + 1] * (amount + 1)
    dp[0] = 0
    for a in range(1, amount + 1):
        for c in coins:
            if c <= a:
                dp[a] = min(dp[a], dp[a - c] + 1)
    return dp[amount] if dp[amount] <= amount else -1


def recurrence(x):
    out = [0.0] * len(x)
    out[0] = x[0]
    for i in range(1, len(x)):
        out[i] = 0.5 * out[i - 1] + x[i]
    return np.array(out)


def edit_distance(a, b):
    n, m = len(a), len(b)
    d = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        d[i][0] = i
    for j in range(m + 1):
        d[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            if a[i - 1] == b[j - 1]:
                d[i][j] = d[i - 1][j - 1]
            else:
                d[i][j] = 1 + min(d[i - 1][j], d[i][j - 1], d[i - 1][j - 1])
    return d[n][m]


def sine_table(x):
    # A loop on values the trace knows: the graph holds the table as a constant.
    tbl = np.zeros(1000)
    for i in range(1000):
        tbl[i] = np.sin(i * 0.01)
    return x + tbl


def _cases():
    r = np.random.default_rng(0)
    adj = (r.random((60, 60)) < 0.05).astype(int)
    return [("longest increasing subsequence", longest_increasing_subsequence,
             (r.integers(0, 100, 40),)),
            ("coin change", coin_change, (np.array([1, 5, 7, 11]), 60)),
            ("recurrence in a list", recurrence, (r.standard_normal(500),)),
            ("BFS distances", bfs_distances, (adj, 0)),
            ("edit distance (list of lists)", edit_distance,
             (r.integers(0, 4, 10), r.integers(0, 4, 10))),
            ("sine table written by a loop on known values", sine_table,
             (r.standard_normal(1000),))]


def _median(fn, args, repeat=30):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def _settle(compiled, args, calls=60, seconds=30.0):
    """Call ``compiled`` until the executor trial has chosen (at least ``calls`` times)."""
    start = time.perf_counter()
    for k in range(100_000):
        if k >= calls and (compiled.way_for(*args) is not None or
                           time.perf_counter() - start > seconds):
            return
        compiled(*args)


def measure():
    rows = []
    for name, fn, args in _cases():
        expected = fn(*args)
        compiled = nptf.compile(fn, fallback="raise", adaptive=False)
        t0 = time.perf_counter()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                got = compiled(*args)
        except nptf.Error as e:
            rows.append((name, f"refused: {type(e).__name__}", "", "", "", ""))
            continue
        first = time.perf_counter() - t0
        if not np.array_equal(np.asarray(got), np.asarray(expected)):
            rows.append((name, "WRONG RESULT", "", "", "", ""))
            continue
        # Calls 2-31 (the executor trial's), then the steady state once it has chosen.
        warm_s = _median(compiled, args)
        _settle(compiled, args)
        numpy_s, graph_s = _median(fn, args), _median(compiled, args)
        rows.append((name, f"{first:.2f}", f"{warm_s * 1e3:.3f}", f"{graph_s * 1e3:.3f}",
                     f"{numpy_s * 1e3:.3f}", f"{numpy_s / graph_s:.2f}x"))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.list_loops",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    print(machine_line())
    print(table(["function", "first call (s)", "calls 2-31 (ms)", "graph (ms)", "NumPy (ms)",
                 "speed-up"],
                measure(), args.markdown))


if __name__ == "__main__":
    main()
