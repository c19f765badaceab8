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


def sudoku_candidates(board, r, c):
    box = set(board[3 * (r // 3):3 * (r // 3) + 3, 3 * (c // 3):3 * (c // 3) + 3].flatten())
    return sorted(set(range(1, 10)) - set(board[r]) - set(board[:, c]) - box)


def set_algebra(x, y):
    a, b = set(x.tolist()), set(y.tolist())
    return (sorted(a | b), sorted(a & b), sorted(a ^ b), len(b - a), sorted({1, 2} | a),
            sorted(set() | a), len(a - set()), sorted(set() - a), sorted({7, 8} - b))


@pytest.mark.parametrize("jit", [False, True])
def test_set_operators_of_traced_integers(jit):
    """`-`, `|`, `&`, `^` of sets of traced integers (and Python sets of ints) keep the
    members Python keeps, of their Python types."""
    board = np.zeros((9, 9), dtype=int)
    board[0, :4], board[1, 0], board[2, 1:3], board[4, 2] = [5, 3, 0, 7], 6, [9, 8], 4
    check_against_numpy(sudoku_candidates, board, 1, 2, jit=jit)
    check_against_numpy(set_algebra, np.array([1, 2, 3, 3]), np.array([3, 4, 4, 7]), jit=jit)


def float_difference(x):
    return len(set(x) - {1.0})


def mixed_union(x):
    return sorted(set(x) | {1, 2})


def iterated(x):
    return [v for v in set(x)]


def sorted_floats(x):
    return np.array(sorted(set(x)))


def member(x):
    return 2 in set(x)


@pytest.mark.parametrize("fn", [iterated, sorted_floats, member, float_difference,
                                mixed_union])
def test_what_a_set_of_traced_numbers_cannot_say_runs_numpy(fn):
    """A set's own order is its hash order; sorted floats place NaN and signed zeros as
    Python does: refused, and NumPy runs the call under the default."""
    x = np.array([3.0, 1.0, 2.0]) if fn is not mixed_union else np.array([3, 1, 2])
    with pytest.raises(nptf.UnsupportedError, match="set of traced numbers"):
        nptf.compile(fn, fallback="raise")(x)
    with pytest.warns(RuntimeWarning, match="set of traced numbers"):
        got = nptf.compile(fn)(x)
    assert repr(got) == repr(fn(x))
