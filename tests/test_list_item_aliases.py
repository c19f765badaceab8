"""A Python list (or dict) of arrays holds the arrays themselves in NumPy: a write into
one after it is appended shows in the list. nptf keeps such a list as one array of
copies, so a write into an array a list holds (or into memory it shares) is refused
and the call runs with NumPy: on the same iteration, on later iterations of a compiled
loop (the array carried in a variable or written in place), and after the loop.
Appending new arrays, or arrays nothing writes afterwards, still compiles. A dict keyed
by traced values is Python's own dict of the keys the call's data give, which holds the
arrays themselves."""
from __future__ import annotations

import numpy as np
import pytest

import nptf
from harness import check_against_numpy


def same_array_each_time(x):
    out = []
    v = np.zeros(3)
    for t in x[x > 0.01]:
        if t > 0.5:
            v[1] = t
            out.append(v)
    return np.array(out)


def argument_written_after(x):
    out = []
    for t in x[x > 0.01]:
        if t > 0.5:
            out.append(x)
    x[0] = 100.0
    return np.array(out)


def last_item_written_after_the_loop(x):
    out = []
    v = np.zeros(3)
    for t in x[x > 0.01]:
        v = v + t
        if t > 0.5:
            out.append(v)
    v[0] = -1.0
    return np.array(out)


def view_written(x):
    out = []
    v = np.zeros(3)
    for t in x[x > 0.01]:
        w = v[1:]
        w[0] = t
        if t > 0.5:
            out.append(w)
    return np.array(out)


def dict_value_written(x):
    d = {}
    v = np.zeros(3)
    for t in x[x > 0.01]:
        if t > 0.5:
            d[int(t * 10)] = v
        v[1] = t
    return [d[k] for k in sorted(d)]


def rows_written_after(X):
    out = []
    for r in X:
        if r.sum() > 1.0:
            out.append(r)
    X[0, 0] = 50.0
    return np.array(out)


@pytest.mark.parametrize("fn", [same_array_each_time, argument_written_after,
                                last_item_written_after_the_loop, view_written,
                                rows_written_after])
def test_a_write_into_an_array_a_list_holds_runs_with_numpy(fn):
    arg = np.random.default_rng(0).random((6, 3) if fn is rows_written_after else 8)
    with pytest.raises(nptf.NptfError, match="item of a Python list or dict"):
        nptf.compile(fn, fallback="raise")(arg.copy())
    with pytest.warns(RuntimeWarning):
        got = nptf.compile(fn)(arg.copy())
    expected = fn(arg.copy())
    assert len(got) == len(expected)
    assert all(np.array_equal(g, e) for g, e in zip(got, expected))


def test_a_write_into_an_array_a_dict_of_the_data_s_keys_holds_shows_in_it(tmp_path):
    """The dict's keys come from the data: it is Python's dict of the keys the call's
    data give (a graph for each set of them), and holds the array itself, so a write
    after it is stored shows in every value, as in NumPy. A SavedModel's one graph holds
    a copy, so export refuses the write."""
    rng = np.random.default_rng(0)
    first = rng.random(8)
    for x in (first, rng.random(8), rng.random(8) * 0.4, first):    # * 0.4: no key
        check_against_numpy(dict_value_written, x)
    with pytest.raises(nptf.UnsupportedError, match="item of a Python list or dict"):
        nptf.export(dict_value_written, tmp_path / "m", nptf.Spec((8,), np.float64))


def new_arrays(x):
    out = []
    for t in x[x > 0.01]:
        row = np.full(3, t)
        if t > 0.5:
            out.append(row)
    return np.array(out)


def copies_of_a_written_array(x):
    history = []
    w = np.zeros(3)
    for t in x[x > 0.01]:
        w[0] += t
        if t > 0.3:
            history.append(w.copy())
    return np.array(history), w


def rows_of_a_mask_then_written(X):
    out = []
    for r in X[X[:, 0] > 0.01]:
        if r.sum() > 1.0:
            out.append(r)
    X[0, 0] = 50.0
    return np.array(out), X


@pytest.mark.parametrize("fn", [new_arrays, copies_of_a_written_array])
def test_new_arrays_as_items_compile(fn):
    check_against_numpy(fn, np.random.default_rng(1).random(9))


def test_rows_of_a_copy_are_not_the_arguments():
    # X[mask] is a new array: a write into X does not reach the list.
    check_against_numpy(rows_of_a_mask_then_written, np.random.default_rng(2).random((6, 3)))
