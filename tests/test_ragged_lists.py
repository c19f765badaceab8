"""A Python list of arrays whose lengths the data choose, appended to in a compiled loop
(``parts.append(X[y == c])`` over ``np.unique(y)``) or under an `if` on traced values:
a ragged list, joined by np.concatenate / np.vstack / np.hstack, stacked by np.stack and
np.array, read by len, its truth, an item and a loop over its items, and returned, as
NumPy does. Checked
against NumPy through the public API, with NumPy's errors (no items to join, items of
different lengths to stack) and the cases that run with NumPy."""
from __future__ import annotations

import numpy as np
import pytest

import nptf
from harness import check_against_numpy


def centred_groups(x, y):
    parts = []
    for c in np.unique(y):
        parts.append(x[y == c] - x[y == c].mean())
    return np.concatenate(parts), len(parts)


def reversed_rows(X, y):
    parts = []
    for c in np.unique(y):
        parts.append(X[y == c][::-1])
    return np.vstack(parts), parts[0], parts[-1]


def joined_and_returned(x, y):
    parts = []
    for c in np.unique(y):
        parts.append(x[y == c])
    return np.hstack(parts), bool(parts), parts


def after_a_first_item(x, y):
    parts = [x[:2]]
    for c in np.unique(y):
        parts.append(x[y == c] * 2)
    return np.concatenate(parts), np.concatenate(parts, axis=None)


def stacked(x, y):
    parts = []
    for c in np.unique(y):
        parts.append(x[y == c])
    return np.stack(parts), np.array(parts)


def groups_past_one(x, y):
    parts = []
    for c in np.unique(y):
        pts = x[y == c]
        if len(pts) > 3:
            parts.append(pts)
    return np.concatenate(parts) if parts else np.zeros(0)


def no_groups(x, y):
    parts = []
    for c in np.unique(y[y > 10]):
        parts.append(x[y == c])
    return np.concatenate(parts)


def positions_by_label(y):
    parts = []
    for c in np.unique(y):
        parts.append(np.flatnonzero(y == c))
    k = int(np.argmax(np.bincount(y)))
    return np.concatenate(parts), parts[k], len(parts[k])


def while_converging(x):
    found = []
    t = x.max()
    while t > 0.2:
        found.append(x[x > t])
        t -= 0.25
    return np.concatenate(found), len(found)


def under_a_branch(x):
    parts = [x[:1]]
    if x.sum() > 5:
        parts.append(x[x > 0.5])
    return np.concatenate(parts), len(parts)


Y = np.array([0, 1, 2, 1, 0, 2, 2, 1, 0, 0, 1, 2])
X = np.random.default_rng(1).random((12, 2))
x = np.random.default_rng(0).random(12)


@pytest.mark.parametrize("fn, args", [
    (centred_groups, (x, Y)), (reversed_rows, (X, Y)), (joined_and_returned, (x, Y)),
    (after_a_first_item, (x, Y)), (groups_past_one, (x, Y)),
    (groups_past_one, (x, np.array([0, 1, 2, 1, 0, 2, 2, 1, 0, 3, 1, 3]))),
    (no_groups, (x, Y)), (positions_by_label, (Y,)),
    (positions_by_label, (np.array([4, 4, 1, 1, 1, 4, 4]),)),
    (stacked, (x, Y)), (stacked, (x, np.array([0, 1, 2, 1, 0, 2, 2, 1, 0, 0, 1, 1]))),
    (while_converging, (x,)), (under_a_branch, (x,)), (under_a_branch, (x * 0.1,)),
])
def test_ragged_lists_match_numpy(fn, args):
    check_against_numpy(fn, *args)


def test_the_list_follows_the_data_on_every_call():
    f = nptf.compile(centred_groups, fallback="raise")
    for labels in ([0, 0, 1], [3, 1, 1, 2, 2, 2, 0], [5] * 9):
        y = np.array(labels)
        v = np.arange(len(y), dtype=float) ** 1.5
        got, expected = f(v, y), centred_groups(v, y)
        assert got[1] == expected[1]
        np.testing.assert_allclose(got[0], expected[0], rtol=1e-12, atol=1e-12)


def appended_then_written(x, y):
    parts = []
    for c in np.unique(y):
        part = x[y == c]
        parts.append(part)
        part[0] = -1.0
    return np.concatenate(parts)


def iterated(x, y):
    parts = []
    for c in np.unique(y):
        parts.append(x[y == c])
    sizes = np.zeros(len(parts), dtype=np.int64)
    for k, p in enumerate(parts):
        sizes[k] = len(p)
    return sum(p.sum() for p in parts), [p.max() for p in parts], sizes


def test_a_loop_over_the_items():
    check_against_numpy(iterated, x, Y)
    check_against_numpy(iterated, x, np.array([0, 1, 2, 1, 0, 2, 2, 1, 0, 3, 1, 3]))


def item_written(x, y):
    parts = []
    for c in np.unique(y):
        parts.append(x[y == c] * 2)
    for p in parts:
        p[0] = 0.0
    return np.concatenate(parts)


def test_an_item_written_after_it_was_appended_is_python_s_list_for_the_data_s_groups():
    # The groups of the call's data, a Python list of them (a graph for each count).
    check_against_numpy(appended_then_written, x.copy(), Y)
    check_against_numpy(appended_then_written, x.copy(), Y % 2)
    check_against_numpy(appended_then_written, x.copy(), Y)


@pytest.mark.parametrize("fn", [item_written])
def test_what_nptf_cannot_follow_runs_with_numpy(fn):
    with pytest.raises(nptf.NptfError):
        nptf.compile(fn, fallback="raise")(x.copy(), Y)
    with pytest.warns(RuntimeWarning):
        got = nptf.compile(fn)(x.copy(), Y)
    np.testing.assert_allclose(got, fn(x.copy(), Y))


def stacked_groups(x, y):
    parts = []
    for c in np.unique(y[y > 0]):
        parts.append(x[y == c])
    return np.stack(parts)


def array_of_groups(x, y):
    parts = []
    for c in np.unique(y[y > 0]):
        parts.append(x[y == c])
    return np.array(parts)


@pytest.mark.parametrize("fn", [stacked_groups, array_of_groups])
def test_stacking_no_items(fn):
    # No items: np.stack raises NumPy's ValueError; np.array of an empty list is NumPy's
    # float64 array of shape (0,), which only NumPy's run gives.
    y = np.zeros(12, dtype=np.int64)
    if fn is stacked_groups:
        check_against_numpy(fn, x, y)
    else:
        with pytest.raises(nptf.NptfError):
            nptf.compile(fn, fallback="raise")(x, y)
        with pytest.warns(RuntimeWarning):
            got = nptf.compile(fn)(x, y)
        assert got.shape == (0,) and got.dtype == np.float64
