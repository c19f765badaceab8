"""Worklists and groups of everyday graph and sequence code: deques, visited sets,
distance lists, per-group results."""
from __future__ import annotations

import collections
import warnings
from collections import deque

import numpy as np
import pytest

import nptf
from harness import check_against_numpy


def _graph(n, p, seed):
    a = np.random.default_rng(seed).random((n, n)) < p
    return a | a.T


def bfs_levels(adj, s):
    """Distances in a Python list written at traced positions, a deque made empty."""
    n = len(adj)
    dist = [-1] * n
    dist[s] = 0
    q = collections.deque()
    q.append(s)
    while len(q) > 0:
        v = q.popleft()
        for u in np.flatnonzero(adj[v]):
            if dist[u] < 0:
                dist[u] = dist[v] + 1
                q.append(u)
    return np.array(dist)


def deque_returned(x):
    q = deque()
    for v in x:
        if v > 0:
            q.append(v)
    return q


def test_a_deque_used_otherwise_is_refused_and_runs_numpy():
    """A deque returned (or rotated, or looped over) stays a deque: refused by name under
    fallback="raise", NumPy's under the default."""
    x = np.array([1.0, -2.0, 3.0])
    with pytest.raises(nptf.UnsupportedError, match="deque"):
        nptf.compile(deque_returned, fallback="raise")(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert nptf.compile(deque_returned)(x) == deque_returned(x)


def reachable(adj, s):
    """A visited set grown with traced members (`{s}`, `int(u) not in seen`, `add`) and
    a deque as a stack at its left end (`appendleft`, `popleft`)."""
    seen = {s}
    q = deque([s])
    order = []
    while q:
        v = q.popleft()
        order.append(v)
        for u in np.nonzero(adj[v])[0]:
            if int(u) not in seen:
                seen.add(int(u))
                q.appendleft(int(u))
    return len(seen), sorted(seen), order


def first_occurrences(x):
    """`set()` as seen-before, and `discard`: the items kept, once each, in order."""
    seen = set()
    out = []
    for v in x:
        if v < 0:
            seen.discard(-v)
        elif v not in seen:
            seen.add(v)
            out.append(v)
    return np.array(out), len(seen), 2 in seen


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_deques_and_sets_of_searches_compile(jit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        # Two graphs each, one compiled function: the answer follows the data.
        for seed in (1, 3):
            check_against_numpy(bfs_levels, _graph(8, 0.3, seed), 2, jit=jit)
            check_against_numpy(reachable, _graph(8, 0.25, seed + 1), 1, jit=jit)
        check_against_numpy(first_occurrences, np.array([3, 2, 3, -3, 3, 1, 2, 1, 4, -2]),
                            jit=jit)


def set_returned(x):
    s = set()
    for v in x:
        if v > 2:
            s.add(int(v))
    return s


def set_made_of_its_own_size(x):
    s = {0}
    for v in x:
        if v > 0:
            s.add(int(v))
    s = {len(s), 7}
    return sorted(s)


@pytest.mark.parametrize("fn", [set_returned, set_made_of_its_own_size])
def test_a_set_used_otherwise_is_python_s_set_of_the_data_s_members(fn, tmp_path):
    """A set returned (or iterated, in its hash order), or made of members that read the
    set it replaces, is Python's own set of the members the call's data give (a graph for
    each set of them), which a SavedModel refuses."""
    compiled = nptf.compile(fn, fallback="raise")
    for x in (np.arange(6), np.arange(8) % 5, np.arange(6)):
        assert compiled(x) == fn(x)
    with pytest.raises(nptf.UnsupportedError, match="set element"):
        nptf.export(fn, tmp_path / "m", nptf.Spec((6,), np.int64))


def group_sums(keys, vals):
    """A dict comprehension over the groups, returned as it is."""
    return {int(k): float(vals[keys == k].sum()) for k in np.unique(keys)}


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_returned_dict_comprehension_over_run_time_groups_compiles(jit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        got = check_against_numpy(group_sums, np.array([4, 1, 4, 2, 1]), np.arange(5.0),
                                  jit=jit)
    assert [type(k) for k in got] == [int] * 3


def pairs_of_positives(x):
    """Tuples made over a run-time length: Python's list of tuples of Python ints."""
    return [(int(v), i) for i, v in enumerate(x[x > 0])]


def rows_of_positives(x):
    return [[v, 2 * v] for v in x[x > 0]]


def above_pairs(xs, ys):
    """tolist() of run-time lengths, iterated by enumerate(zip(...)), sorted and
    returned."""
    m = xs > 0
    out = []
    for i, (a, b) in enumerate(zip(xs[m].tolist(), ys[m].tolist())):
        if a > b:
            out.append(i)
    return out, ys[m].tolist(), sorted(xs[m].tolist())


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_python_lists_of_run_time_lengths_compile(jit, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        got = check_against_numpy(pairs_of_positives, np.array([3, -1, 2, 5]), jit=jit)
        assert [type(v) for v in got[0]] == [int, int]
        got = check_against_numpy(above_pairs, np.array([1.0, -2, 3, 0.5, 2]),
                                  np.array([0.0, 1, 4, 0, 1]), jit=jit)
        assert {type(v) for v in got[1] + got[2]} == {float}
    # Lists as items: Python's list of the call's data's length (a graph for each).
    for x in ([1, -1], [2, 3, -4], [1, -1]):
        check_against_numpy(rows_of_positives, np.array(x), jit=jit)
    with pytest.raises(nptf.UnsupportedError, match="comprehension of list items"):
        nptf.export(rows_of_positives, tmp_path / "m", nptf.Spec((2,), np.int64))


def run_lengths(x):
    """Run-length encoding by np.split at the changes: pieces only the data count, in a
    comprehension and a loop."""
    runs = np.split(x, np.flatnonzero(np.diff(x)) + 1)
    best = 0
    for run in np.split(x, np.where(np.diff(x) != 0)[0] + 1):
        if len(run) > best:
            best = len(run)
    return [(int(r[0]), len(r)) for r in runs], len(runs), runs[-1].sum(), best


def split_returned(x):
    return np.split(x, np.flatnonzero(np.diff(x)) + 1)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_pieces_np_split_makes_at_positions_from_the_data(jit):
    """A loop or comprehension over the pieces, len and a piece read compile."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        check_against_numpy(run_lengths, np.array([1, 1, 2, 2, 2, 3, 1, 1]), jit=jit)


def test_the_list_of_pieces_itself_is_refused_and_runs_numpy():
    """The list of a length only the data know, returned, is refused by name, and NumPy's
    under the default."""
    x = np.array([1, 1, 2, 2, 2, 3, 1, 1])
    with pytest.raises(nptf.UnsupportedError, match="pieces np.split makes"):
        nptf.compile(split_returned, fallback="raise")(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = nptf.compile(split_returned)(x)
    assert [r.tolist() for r in got] == [r.tolist() for r in split_returned(x)]


# ------------------------------------------------ list(zip(...)) of run-time lengths
def hysteresis(strong, weak):
    """Canny's edge tracking: a stack of the strong pixels' positions, grown by their
    weak neighbours."""
    edges = strong.copy()
    stack = list(zip(*np.nonzero(strong)))
    while stack:
        i, j = stack.pop()
        for ni, nj in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):     # 4 neighbours
            inside = 0 <= ni < strong.shape[0] and 0 <= nj < strong.shape[1]
            if inside and weak[ni, nj] and not edges[ni, nj]:
                edges[ni, nj] = True
                stack.append((ni, nj))
    return edges, len(list(enumerate(np.flatnonzero(edges))))


def pairs_of(x, y):
    return list(zip(x, y)), list(enumerate(x * 2))


@pytest.mark.parametrize("seed", [0, 3])
def test_list_of_zip_and_enumerate_over_run_time_lengths(seed, jit):
    img = np.random.default_rng(seed).random((7, 7))
    check_against_numpy(hysteresis, img > 0.85, img > 0.4, jit=jit)
    check_against_numpy(pairs_of, img[0], img[1], jit=jit)
