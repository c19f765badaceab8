"""Python lists of lists of numbers written at traced positions in loops (dynamic
programming tables, grids): a graph loop carries the table as one 2-D array, with the
kind of each number, and the function gets back the Python lists (or what it makes of
them: ``dp[n][m]``, ``np.array(dp)``). Aliased rows (``[[0] * m] * n``), a row another
variable holds and rows of other lengths stay Python's lists. Checked against NumPy
through the public API."""
from __future__ import annotations

import numpy as np
import pytest

import nptf
from harness import check_against_numpy


def edit_distance(a, b):
    n, m = len(a), len(b)
    dp = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        dp[i][0] = i
    for j in range(m + 1):
        dp[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            dp[i][j] = min(dp[i - 1][j] + 1, dp[i][j - 1] + 1, dp[i - 1][j - 1] + cost)
    return dp[n][m], dp[-1][-2]


def longest_common_subsequence(a, b):
    n, m = len(a), len(b)
    dp = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            if a[i - 1] == b[j - 1]:
                dp[i][j] = dp[i - 1][j - 1] + 1
            else:
                dp[i][j] = max(dp[i - 1][j], dp[i][j - 1])
    return dp[n][m]


def knapsack(w, v, cap):
    n = len(w)
    dp = [[0.0] * (cap + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        for c in range(cap + 1):
            dp[i][c] = dp[i - 1][c]
            if w[i - 1] <= c:
                dp[i][c] = max(dp[i][c], dp[i - 1][c - w[i - 1]] + v[i - 1])
    return np.array(dp), max(dp[n])


def pascal_rows(n):
    rows = [[0] * n for _ in range(n)]
    for i in range(n):
        rows[i][0] = 1
        for j in range(1, i + 1):
            rows[i][j] = rows[i - 1][j - 1] + rows[i - 1][j]
    return rows


def pascal_rows_from(x):
    # Pascal's rule from the data's first column: a table the data fill.
    n = x.shape[0]
    rows = [[0.0] * n for _ in range(n)]
    for i in range(n):
        rows[i][0] = float(x[i])
        for j in range(1, i + 1):
            rows[i][j] = rows[i - 1][j - 1] + rows[i - 1][j]
    return rows


def kinds_per_number(x, n=4):
    # Python floats where nothing is written, NumPy float64 scalars where the data write.
    t = [[0.0] * 3 for _ in range(n)]
    for i in range(len(x)):
        if x[i] > 0:
            t[i % n][i % 3] = x[i] * 2
    return t, t[1][2]


def from_the_end(x):
    t = [[0] * 5 for _ in range(5)]
    for i in range(len(x)):
        t[-1 - i % 5][-(i % 3) - 1] += 1
    return t


def past_the_end(x):
    t = [[0] * 5 for _ in range(5)]
    for i in range(len(x)):
        t[i % 5][i] = 1
    return t


def row_read_then_written(x):
    t = [[0] * 5 for _ in range(5)]
    for i in range(len(x)):
        r = t[i % 5]
        t[i % 5][i % 4] += 1
        r[0] += r[i % 4]
    return t


def in_a_while_loop(x):
    t = [[0.0] * 2 for _ in range(3)]
    i = 0
    while i < len(x) and x[i] > -1.5:
        t[i % 3][i % 2] += x[i]
        i += 1
    return t


def aliased_rows(x):
    t = [[0] * 5] * 5           # one list, five times
    for i in range(len(x)):
        t[i % 5][i % 3] += 1
    return t


def row_held_elsewhere(x):
    t = [[0] * 5 for _ in range(5)]
    r = t[2]
    for i in range(len(x)):
        t[i % 5][i % 3] += 1
    return r


def rows_of_other_lengths(x):
    t = [[0] * (k + 1) for k in range(5)]
    for i in range(len(x)):
        t[i % 5][0] += 1
    return t


rng = np.random.default_rng(3)

CASES = [
    (edit_distance, lambda: (rng.integers(0, 3, 14), rng.integers(0, 3, 11))),
    (longest_common_subsequence, lambda: (rng.integers(0, 3, 12), rng.integers(0, 3, 10))),
    (knapsack, lambda: (np.array([2, 3, 4, 5, 1, 7, 3, 2, 6, 4]), rng.random(10), 12)),
    (pascal_rows, lambda: (12,)),
    (pascal_rows_from, lambda: (rng.standard_normal(12),)),
    (kinds_per_number, lambda: (rng.standard_normal(20),)),
    # Past 64 numbers the table comes back from one array, each number of its own kind.
    (kinds_per_number, lambda: (rng.standard_normal(40), 30)),
    (from_the_end, lambda: (np.zeros(20),)),
    (past_the_end, lambda: (np.zeros(4),)),
    (past_the_end, lambda: (np.zeros(20),)),
    (row_read_then_written, lambda: (np.zeros(20),)),
    (in_a_while_loop, lambda: (rng.standard_normal(20),)),
    (aliased_rows, lambda: (np.zeros(20),)),
    (row_held_elsewhere, lambda: (np.zeros(20),)),
    (rows_of_other_lengths, lambda: (np.zeros(20),)),
]


@pytest.mark.filterwarnings("ignore:nptf")
@pytest.mark.parametrize("fn,make", CASES, ids=[f"{f.__name__}-{k}" for k, (f, _) in
                                                 enumerate(CASES)])
def test_tables_match_numpy(fn, make):
    check_against_numpy(fn, *make())


def test_a_table_matches_numpy_with_xla():
    check_against_numpy(longest_common_subsequence, rng.integers(0, 3, 12),
                        rng.integers(0, 3, 10), jit=True)


@pytest.mark.parametrize("fn,args", [
    (edit_distance, (np.arange(30) % 3, np.arange(25) % 4)),
    (pascal_rows_from, (np.ones(20),)),
    (in_a_while_loop, (np.zeros(10),)),
])
def test_tables_written_in_loops_are_carried_by_graph_loops(fn, args):
    # Unrolled, the edit distance of 30 by 25 items alone is 750 bodies.
    graph = str(nptf.compile(fn, fallback="raise").trace(*args))
    assert "while" in graph
