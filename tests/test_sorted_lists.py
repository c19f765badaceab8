"""Sorted Python lists of traced numbers: ``bisect``, ``insort``, ``sorted(x.tolist())``,
``list.remove`` and ``list.insert`` at positions the data give."""
from __future__ import annotations

import bisect
import math

import numpy as np
import pytest

import nptf
from harness import check_against_numpy


def longest_non_decreasing(seq):
    """Patience sorting: the tails of the runs found so far, a list grown in the loop,
    searched (ties to the right) and written at the position the search gives."""
    tails = []
    for v in seq:
        at = bisect.bisect_right(tails, v)
        if at < len(tails):
            tails[at] = v
        else:
            tails.append(v)
    return len(tails), np.array(tails)


def window_counts(a, xs):
    s = sorted(a.tolist())
    return [bisect.bisect_right(s, x) - bisect.bisect_left(s, x - 1.0) for x in xs]


def bins_with_a_traced_edge(a, cut):
    edges = [0.5, 1.5, cut, 4.0]
    return [bisect.bisect(edges, v) for v in a], bisect.bisect_left(edges, cut, 1, 3)


def unsorted_search(a, x):
    # Not sorted: the answer is where Python's binary search ends.
    return bisect.bisect_left(a.tolist(), x), bisect.bisect_right([3.0, 1.0, 2.0, x], 2.0)


def kept_sorted(seq):
    kept = []
    for x in seq:
        bisect.insort(kept, x * 2.0)            # into a list the loop grows
    return kept


def remove_and_insert(a, v):
    items = a.tolist()
    items.remove(v)                             # the first equal item
    items.insert(int(np.argmax(a)), v * 10.0)
    bisect.insort_left(items, v)
    return items


@pytest.mark.parametrize("fn, args", [
    (longest_non_decreasing, (np.array([3., 1., 4., 1., 5., 9., 2., 6., 5., 3., 5., 8., 9.]),)),
    (longest_non_decreasing, (np.array([5., 4., 3., 3., 1., 0., -1., -2., -3.]),)),
    (window_counts, (np.array([3., 1., 4., 1., 5., 9., 2., 6.]), np.array([1., 4., 8., 0.]))),
    (bins_with_a_traced_edge, (np.array([0.1, 1.0, 2.0, 3.0, 4.5, 1.5]), 2.5)),
    (unsorted_search, (np.array([5., 1., 4., 2., 3.]), 3.5)),
    (kept_sorted, (np.array([3., 1., 4., 1., 5., 9., 2., 6., 5.]),)),
    (remove_and_insert, (np.array([2., 7., 1., 7., 3.]), 7.0)),
])
def test_sorted_lists_match_python(fn, args, jit):
    """They raised "bool() of a traced array": bisect's comparisons ran in Python."""
    check_against_numpy(fn, *args, jit=jit)


def remove_an_item_itself(a):
    items = a.tolist()
    items.remove(items[2])          # the item itself: found even where it is NaN
    return items


def test_list_remove_finds_the_item_itself_as_python_does(jit):
    """Python's remove tests identity before equality: a NaN of the list is removed
    (nptf compared values only and raised ValueError)."""
    check_against_numpy(remove_an_item_itself, np.array([1.0, np.nan, np.nan, 2.0]), jit=jit)
    check_against_numpy(remove_an_item_itself, np.array([3.0, 1.0, 3.0, 2.0]), jit=jit)


def test_python_s_errors_of_list_positions():
    f = nptf.compile(remove_and_insert, fallback="raise")
    with pytest.raises(ValueError, match="not in list"):
        f(np.array([2., 7., 1.]), 4.0)


def write_into_empty(a):
    out = []
    if a[0] > 0:
        out[int(a[1])] = 1.0                     # out of range whatever the position
    return len(out)


def test_a_write_into_an_empty_list_at_a_traced_position_raises_where_it_runs():
    f = nptf.compile(write_into_empty, fallback="raise")
    assert f(np.array([-1.0, 0.0])) == 0
    with pytest.raises(IndexError, match="out of range"):
        f(np.array([1.0, 0.0]))


def signed_zeros(a):
    return sorted(a.tolist()), sorted(a.tolist(), reverse=True), sorted(a), \
        sorted(a, reverse=True)


def test_sorted_keeps_python_s_order_of_equal_numbers():
    z = np.array([0.0, -0.0, 1.0, -0.0, 0.0])
    got = nptf.compile(signed_zeros, fallback="raise")(z)
    for g, e in zip(got, signed_zeros(z)):
        assert [math.copysign(1, v) for v in g] == [math.copysign(1, v) for v in e]
