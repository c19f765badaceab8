"""What NumPy's notion of a singular matrix costs in a compiled function, and what a
handler the graph takes saves: graph against NumPy, side by side.

``inv`` and ``solve`` in a graph check, when it runs, that the matrix is certainly
regular (its condition number, from the inverse) and ask NumPy's LAPACK, through Python,
only for a matrix near singular; a ``try``/``except LinAlgError`` around them is a branch
of the graph. Each function runs with NumPy, compiled with ``adaptive=False`` (every
call the graph) and compiled with the defaults; each is checked against NumPy, then
timed: its first call and its steady state, the best of ``--repeat`` calls after 60
warm-up calls.

Run:  OPENBLAS_NUM_THREADS=1 python -m bench.singular [--repeat 20]
"""
from __future__ import annotations

import argparse

import numpy as np

from .timing import side_by_side


def solve_3(A, b):
    return np.linalg.solve(A, b)


def solve_64(A, b):
    return np.linalg.solve(A, b)


def inv_64(A, b):
    return np.linalg.inv(A) @ b


def solve_or_lstsq(A, b):
    try:
        x = np.linalg.solve(A, b)
    except np.linalg.LinAlgError:
        x = np.linalg.lstsq(A, b, rcond=None)[0]
    return x


def rayleigh_quotient(A, b, iters=6):
    # Each step solves a system nearer singular than the last, on purpose.
    x = b / np.linalg.norm(b)
    lam = 0.0
    for _ in range(iters):
        lam = x @ A @ x
        try:
            y = np.linalg.solve(A - lam * np.eye(len(x)), x)
        except np.linalg.LinAlgError:
            break
        x = y / np.linalg.norm(y)
    return lam


def _spd(n, seed=0):
    m = np.random.default_rng(seed).normal(size=(n, n))
    return m @ m.T + n * np.eye(n)


CASES = [(solve_3, _spd(3), np.ones(3)), (solve_64, _spd(64), np.ones(64)),
         (inv_64, _spd(64), np.ones(64)), (solve_or_lstsq, _spd(8), np.ones(8)),
         (solve_or_lstsq, np.outer(np.arange(1.0, 9.0), np.ones(8)), np.ones(8)),
         (rayleigh_quotient, _spd(16), np.ones(16))]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    print("| function | matrix | NumPy | graph (adaptive=False) | ratio | default | ratio | "
          "first call, graph |")
    print("|---|---|---|---|---|---|---|---|")
    for fn, A, b in CASES:
        want = fn(A, b)
        singular = np.linalg.matrix_rank(A) < len(A)

        def check(compiled):
            if not np.allclose(compiled(A, b), want, rtol=1e-8, atol=1e-10):
                raise SystemExit(f"{fn.__name__}: differs from NumPy")
        numpy_t, graph_t, default_t, first = side_by_side(
            fn, check, lambda f: f(A, b), args.repeat, fallback="raise")
        kind = f"{len(A)}x{len(A)}{', singular' if singular else ''}"
        print(f"| {fn.__name__} | {kind} | {numpy_t * 1e6:.1f} µs | {graph_t * 1e6:.1f} µs | "
              f"{numpy_t / graph_t:.2f}x | {default_t * 1e6:.1f} µs | "
              f"{numpy_t / default_t:.2f}x | {first * 1e3:.0f} ms |")


if __name__ == "__main__":
    main()
