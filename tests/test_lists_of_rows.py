"""A Python list made from, or extended by, an array whose length is known only at run
time (``list(np.flatnonzero(m))``, ``out.extend(idx[k:])``, ``out += list(x[m])``): a
list the data grow, as long as the data make it, in straight-line code, branches and
loops of either kind of trip count. Checked against NumPy through the public API, with
the cases that must stay NumPy's (a list another name holds, later writes into the
array whose rows a list holds)."""
from __future__ import annotations

import numpy as np
import pytest

import nptf
from harness import check_against_numpy


def neighbours(x):
    nb = list(np.where(x > 0.5)[0])
    return len(nb), np.array(nb)


def listed_then_appended(x):
    nb = list(np.where(x > 0.5)[0])
    nb.append(7)
    nb.append(np.int64(3))
    return np.array(nb), len(nb)


def extended_after_a_number(x):
    nb = [0]
    nb.extend(np.where(x > 0.5)[0])
    return np.array(nb)


def added_in_place(x):
    nb = [0]
    nb += list(np.where(x > 0.5)[0])
    nb += list(np.flatnonzero(x < 0.2))
    return np.array(nb), len(nb)


def array_added_in_place(x):
    # Python hands `list += array` to the array: NumPy's elementwise sum, not an extend.
    nb = list(np.flatnonzero(x > 0.5))
    nb.append(np.int64(1))
    nb += np.ones(len(nb), dtype=np.int64)
    return nb


def joined(x):
    nb = [1, 2] + list(np.where(x > 0.5)[0])
    return np.array(nb)


def extended_by_values(x):
    out = []
    out.extend(x[x > 0.3])
    out.extend(x[x < 0.1].tolist())
    out.extend([v * 2 for v in x[x > 0.8]])
    scalars = []
    scalars.extend(x[x > 0.6])
    return np.array(out), len(out), sum(scalars)


def stratified_split(y, test_frac=0.3):
    train, test = [], []
    for c in np.unique(y):
        idx = np.where(y == c)[0]
        n_test = int(round(len(idx) * test_frac))
        test.extend(idx[:n_test])
        train.extend(idx[n_test:])
    return np.array(sorted(train)), np.array(sorted(test))


def over_known_classes(y):
    train = []
    for c in [0, 1, 2]:
        idx = np.where(y == c)[0]
        train += list(idx[1:])
    return np.array(train)


def under_a_branch(x):
    out = [-1]
    if x.sum() > 6:
        out.extend(np.flatnonzero(x > 0.5))
    return np.array(out)


def rows_of_a_matrix(X):
    rows = []
    rows.extend(X[X[:, 0] > 0.5] * 2)
    rows.append(np.zeros(2))
    return np.array(rows), len(rows)


def returned(x):
    out = list(np.flatnonzero(x > 0.5))
    out.extend(np.flatnonzero(x < 0.1))
    return out


def sorted_positions(x):
    out = []
    out += list(np.flatnonzero(x > 0.7))
    out += list(np.flatnonzero(x < 0.3))
    out.sort()
    return np.array(out), out[0]


def grown_then_added(x):
    out = []
    for v in x:
        if v > 0.5:
            out.append(v)
    out += np.full(len(out), 2.0)
    return out


Y = np.array([0, 1, 2, 1, 0, 2, 2, 1, 0, 0, 1])


@pytest.mark.parametrize("fn", [neighbours, listed_then_appended, extended_after_a_number,
                                added_in_place, joined, extended_by_values, under_a_branch,
                                returned, sorted_positions, array_added_in_place,
                                grown_then_added])
@pytest.mark.parametrize("seed", [0, 1])
def test_lists_of_runtime_rows_match_numpy(fn, seed):
    x = np.random.default_rng(seed).random(16)
    if fn is under_a_branch and seed == 1:
        x = x * 0.5
    check_against_numpy(fn, x)


def test_a_loop_over_the_classes_extends_lists():
    check_against_numpy(stratified_split, Y)
    check_against_numpy(stratified_split, np.array([3, 3, 1, 1, 1, 2, 5, 5, 5, 5, 5, 3]))
    check_against_numpy(over_known_classes, Y)


def test_rows_of_a_matrix_are_items():
    X = np.random.default_rng(2).random((9, 2))
    check_against_numpy(rows_of_a_matrix, X)


def test_the_list_is_as_long_as_the_data_make_it():
    f = nptf.compile(added_in_place, fallback="raise")
    for n in (5, 8, 30):
        x = np.random.default_rng(n).random(n)
        got, expected = f(x), added_in_place(x)
        assert np.array_equal(got[0], expected[0]) and got[1] == expected[1]


def aliased(x):
    out = []
    also = out
    out.extend(np.flatnonzero(x > 0.5))
    return len(also)


def written_after(X):
    # The rows are views of X in NumPy: the write shows in the list.
    k = int(np.sum(X[:, 0] > 0.5))
    rows = list(X[:k])
    X[0, 0] = 9.0
    return np.array(rows)


def written_after_through_a_view(X):
    Y = X * 1.0
    rows = list(Y[1:])
    Y[1:][0, 0] = 5.0
    return np.array(rows), Y


@pytest.mark.parametrize("fn", [aliased, written_after])
def test_what_nptf_cannot_follow_runs_with_numpy(fn):
    X = np.random.default_rng(3).random((8, 2))
    arg = X[:, 0] if fn is aliased else X
    with pytest.raises(nptf.NptfError):
        nptf.compile(fn, fallback="raise")(arg.copy())
    with pytest.warns(RuntimeWarning):
        got = nptf.compile(fn)(arg.copy())
    expected = fn(arg.copy())
    assert np.array_equal(np.asarray(got), np.asarray(expected))


def test_rows_of_a_known_length_stay_views():
    # A list of the rows of an array of a length known when tracing is Python's own list
    # of views: a later write into the array shows in it, as in NumPy.
    check_against_numpy(written_after_through_a_view, np.random.default_rng(4).random((4, 2)))
