"""Python sets of traced numbers: their size and, for integers, their sorted values."""
from __future__ import annotations

import numpy as np
import pytest

import nptf
from harness import check_against_numpy


def distinct(x):
    return len(set(x)), len(set(x.tolist())), len(set(x.tolist())) == len(x)


def distinct_literals(x):
    return len({x[0], x[1], 2.0}), len({v for v in x if v > 0}), len({1, 2, 1.0})


def magic_sums_equal(M):
    return len(set(M.sum(axis=0))) == 1 and len(set(M.sum(axis=1))) == 1


def class_shares(y):
    return [float(np.mean(y == c)) for c in sorted(set(y.tolist()))]


def classes_descending(y):
    return np.array(sorted(set(y), reverse=True))


def rows_without_repeats(grid):
    for i in range(grid.shape[0]):
        if len(set(grid[i].tolist())) != grid.shape[1]:
            return False
    return True


rng = np.random.default_rng(0)
VALUES = [rng.integers(0, 5, 20), rng.permutation(7), np.array([True, False, True]),
          np.array([np.nan, 1.0, np.nan, -0.0, 0.0]), rng.integers(0, 3, 9).astype(np.float32),
          np.array([1 + 1j, 1 + 1j, np.nan * 1j])]


@pytest.mark.parametrize("x", VALUES, ids=lambda x: str(x.dtype))
def test_the_size_of_a_set_counts_python_s_members(x):
    """Equal numbers are one member (0.0 and -0.0 too); each NaN is one of its own."""
    check_against_numpy(distinct, x)
    check_against_numpy(distinct_literals, x[:4] if len(x) >= 4 else np.resize(x, 4))


@pytest.mark.parametrize("jit", [False, True])
def test_sets_in_real_code(jit):
    magic = np.array([[8, 1, 6], [3, 5, 7], [4, 9, 2]])
    for M in (magic, np.arange(9).reshape(3, 3)):
        check_against_numpy(magic_sums_equal, M, jit=jit)
    y = rng.integers(0, 4, 30)
    check_against_numpy(class_shares, y, jit=jit)
    check_against_numpy(classes_descending, y, jit=jit)
    for grid in (np.arange(120).reshape(12, 10), np.arange(120).reshape(12, 10) % 9):
        check_against_numpy(rows_without_repeats, grid, jit=jit)


def iterated(x):
    return [v for v in set(x)]


def sorted_floats(x):
    return np.array(sorted(set(x)))


def member(x):
    return 2 in set(x)


@pytest.mark.parametrize("fn", [iterated, sorted_floats, member])
def test_what_a_set_of_traced_numbers_cannot_say_runs_numpy(fn):
    """A set's own order is its hash order; sorted floats place NaN and signed zeros as
    Python does: refused, and NumPy runs the call under the default."""
    x = np.array([3.0, 1.0, 2.0])
    with pytest.raises(nptf.UnsupportedError, match="set of traced numbers"):
        nptf.compile(fn, fallback="raise")(x)
    with pytest.warns(RuntimeWarning, match="set of traced numbers"):
        got = nptf.compile(fn)(x)
    assert repr(got) == repr(fn(x))
