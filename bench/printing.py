"""What a print costs in a compiled function: graph against NumPy, side by side.

Each function runs with NumPy, compiled with ``adaptive=False`` (every call the graph)
and compiled with the defaults (adaptive dispatch may keep NumPy). Each is checked
against NumPy (the printed text and the result), then timed: its first call (trace and
compile included) and its steady state, the best of ``--repeat`` calls after 60 warm-up
calls, what it prints going to a buffer.

Run:  OPENBLAS_NUM_THREADS=1 python -m bench.printing [--repeat 20]
"""
from __future__ import annotations

import argparse
import contextlib
import io

import numpy as np

from .timing import side_by_side


def descent(x, n=2000):
    w = 0.0
    for i in range(n):
        w = w + 0.01 * np.mean(x - w)
    return w


def descent_printing(x, n=2000):
    w = 0.0
    for i in range(n):
        w = w + 0.01 * np.mean(x - w)
        if i % 200 == 0:
            print(f"step {i}: w {w:.4f}")
    return w


def descent_print_each(x, n=2000):
    w = 0.0
    for i in range(n):
        w = w + 0.01 * np.mean(x - w)
        print(f"{w:.6f}")
    return w


def standardize(x):
    return (x - x.mean()) / (x.std() + 1e-12)


def standardize_printing(x):
    print("standardize", x.shape)
    return (x - x.mean()) / (x.std() + 1e-12)


CASES = [(descent, np.linspace(0, 3, 1000)), (descent_printing, np.linspace(0, 3, 1000)),
         (descent_print_each, np.linspace(0, 3, 1000)), (standardize, np.arange(16.0)),
         (standardize_printing, np.arange(16.0))]


def _quiet(fn, *args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = fn(*args)
    return out.getvalue(), result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    print("| function | NumPy | graph (adaptive=False) | ratio | default | ratio | "
          "first call, graph |")
    print("|---|---|---|---|---|---|---|")
    for fn, x in CASES:
        want_text, want = _quiet(fn, x)

        def check(compiled):
            text, got = _quiet(compiled, x)
            if text != want_text or not np.allclose(got, want):
                raise SystemExit(f"{fn.__name__}: differs from NumPy")
        numpy_t, graph_t, default_t, first = side_by_side(
            fn, check, lambda f: _quiet(f, x), args.repeat)
        name = fn.__name__
        print(f"| {name} | {numpy_t * 1e6:.1f} µs | {graph_t * 1e6:.1f} µs | "
              f"{numpy_t / graph_t:.2f}x | {default_t * 1e6:.1f} µs | {numpy_t / default_t:.2f}x "
              f"| {first * 1e3:.0f} ms |")


if __name__ == "__main__":
    main()
