"""Python lists whose items the function writes (``dp[i] = dp[j] + 1``, ``dist[v] = d``,
``flags[i] = True``) under `if`s on traced values and in loops: the written items become
variables of the `if` (merged like any other), and a loop carries the list as the rows
of one array, so dynamic-programming tables, searches and counts kept in Python lists
compile as graph loops. Checked against NumPy through the public API, with the cases
that stay as they were (lists of mixed kinds, aliases) and run-time errors."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy, mismatch


def longest_increasing_subsequence(a):
    n = len(a)
    dp = [1] * n
    for i in range(n):
        for j in range(i):
            if a[j] < a[i] and dp[j] + 1 > dp[i]:
                dp[i] = dp[j] + 1
    return max(dp)


def coin_change(coins, amount):
    dp = [amount + 1] * (amount + 1)
    dp[0] = 0
    for a in range(1, amount + 1):
        for c in coins:
            if c <= a:
                dp[a] = min(dp[a], dp[a - c] + 1)
    return dp[amount] if dp[amount] <= amount else -1


def bfs_distances(adj, source):
    n = len(adj)
    dist = [-1] * n
    dist[source] = 0
    queue = [source]
    while queue:
        u = queue.pop(0)
        for v in np.nonzero(adj[u])[0]:
            if dist[v] == -1:
                dist[v] = dist[u] + 1
                queue.append(v)
    return np.array(dist)


def counts_by_bin(x):
    c = [0, 0, 0]
    for v in x:
        if v < -0.5:
            c[0] += 1
        elif v < 0.5:
            c[1] += 1
        else:
            c[2] += 1
    return c


def positive_sums(x):
    acc = [0.0, 0.0]
    for i in range(len(x)):
        if x[i] > 0:
            if x[i] > 1:
                acc[0] += x[i]
            else:
                acc[1] -= x[i]
    return acc, sum(acc)


def flags_above(x, threshold):
    flags = [False] * len(x)
    for i in range(len(x)):
        if x[i] > threshold:
            flags[i] = True
    return flags


def seen_digits(x):
    seen = [False] * 10
    for v in x:
        seen[int(v) % 10] = True
    return seen, sum(seen)


def histogram_counts(x):
    c = [0] * 5
    for i in range(len(x)):
        c[int(x[i]) % 5] += 1
    return c


def sieve_masked(mask):
    n = len(mask)
    is_prime = [True] * n
    for i in range(2, n):
        for j in range(2 * i, n, i):
            is_prime[j] = False
    return np.nonzero(np.array(is_prime) & (mask > 0))[0]


def best_per_slot(x):
    best = [(0, 0.0)] * 10
    for i in range(len(x)):
        if x[i] > best[i % 10][1]:
            best[i % 10] = (i, float(x[i]))
    return best


def row_sums_per_slot(X):
    rows = [np.zeros(3) for _ in range(10)]
    for i in range(X.shape[0]):
        rows[i % 10] = rows[i % 10] + X[i]
    return np.stack(rows)


def from_the_end(x):
    c = [0] * 10
    for i in range(len(x)):
        c[-1 - (i % 10)] = i
    return c


def one_past_the_end(x):
    c = [0] * 10
    for i in range(len(x)):
        c[i] = 1
    return c


def long_table(x):
    out = [0] * 100
    for i in range(len(x)):
        out[i] = out[i - 1] + 1 if i else 1
    return out, np.array(out).sum()


def written_again_after(x):
    c = [0] * 20
    for i in range(len(x)):
        c[i % 20] += 1
    c[3] = 100
    c.append(7)
    return c


def long_table_then_appended(x):
    out = [0] * 80
    for i in range(len(x)):
        out[i % 80] = out[(i + 79) % 80] + 1
    out.append(-1)
    out.sort()
    return out


def kinds_per_item(x):
    out = [0.0] * 3
    for i in range(3):
        if x[i] > 0:
            out[i] = x[i] * 2
    return out


def aliased(x):
    dp = [0] * 12
    other = dp
    for i in range(len(x)):
        if x[i] > 0:
            dp[i % 12] = 1
    return other


def sum_read_in_body(x):
    acc = [0] * 12
    for i in range(len(x)):
        acc[i % 12] = acc[i % 12] + 1
        if sum(acc) > 5:
            acc[0] = 0
    return acc


def numpy_scalars_into_floats(x):
    out = [0.0] * 20
    for i in range(len(x)):
        out[i % 20] = x[i] * 2
    return out


def some_items_written(x, size=12):
    out = [0.0] * size
    for i in range(len(x)):
        if x[i] > 0:
            out[i % size] = x[i] * 2
    return out


def recurrence_in_a_list(x):
    out = [0.0] * len(x)
    out[0] = x[0]
    for i in range(1, len(x)):
        out[i] = 0.5 * out[i - 1] + x[i]
    return np.array(out), out[-1]


def float32_items(x32):
    out = [0.0] * 10
    for i in range(len(x32)):
        out[i % 10] = x32[i]
    return out


def items_read_back_in_promotion(x):
    out = [0.0] * 12
    for i in range(12):
        out[i] = x[i] * 2 if i % 2 else out[i]
    y = np.zeros(3, np.float32)
    return out[3], out[4], y + out[3], y + out[4], sum(out)


def traced_python_number_before(x):
    # out[0] is a Python float the graph computes: it stays one where the loop does not
    # write it.
    out = [0.0] * 10
    out[0] = float(x[0])
    for i in range(len(x)):
        if x[i] > 0:
            out[i % 10] = x[i] * 2
    return out


def float_into_ints(x, size=12):
    # Each item keeps its type: ints where nothing is written, NumPy floats where the
    # data write.
    vals = [0] * size
    for i in range(len(x)):
        if x[i] > 0:
            vals[i % size] = x[i] / 2
    return vals


def int_into_bools(x):
    flags = [False] * 12
    for i in range(len(x)):
        if x[i] > 0:
            flags[i % 12] = 1
    return flags


def python_floats_into_ints(x):
    vals = [0] * 12
    for i in range(len(x)):
        vals[i % 12] = float(x[i])
    return vals


def ints_into_floats(x, start=0):
    vals = [0.5] * 12
    i = 0
    while i < len(x) and x[i] > -1.5:
        vals[i % 12] = start + i
        i += 1
    return vals


def as_an_array(x):
    vals = [0] * 12
    for i in range(len(x)):
        if x[i] > 0:
            vals[i % 12] = x[i] / 2
    return np.array(vals)


def float_into_a_table(x):
    t = [[0] * 3 for _ in range(4)]
    for i in range(len(x)):
        if x[i] > 0:
            t[i % 4][i % 3] = x[i] / 2
    return t


def read_after_the_loop(x):
    # Items whose type the data choose, read after the loop: Python keeps the list (the
    # function is traced again, its loop unrolled).
    vals = [0] * 12
    t = [[0] * 3 for _ in range(4)]
    for i in range(len(x)):
        if x[i] > 0:
            vals[i % 12] = x[i] / 2
            t[i % 4][i % 3] = x[i] / 2
    return sum(vals), vals[1], t[1][1] + 1


def written_in_branch_read_after(x):
    info = ["name", 0]
    if x.max() > 0:
        info[1] = int(np.argmax(x))
    return info


rng = np.random.default_rng(7)


def _graph(n, p):
    return (rng.random((n, n)) < p).astype(int)


CASES = [
    (longest_increasing_subsequence, lambda: (rng.integers(0, 50, 30),)),
    (coin_change, lambda: (np.array([1, 5, 7]), 40)),
    (bfs_distances, lambda: (_graph(12, 0.2), 0)),
    (bfs_distances, lambda: (_graph(12, 0.1), 4)),
    (counts_by_bin, lambda: (rng.standard_normal(12),)),
    (positive_sums, lambda: (rng.standard_normal(10) * 2,)),
    (flags_above, lambda: (rng.standard_normal(12), 0.1)),
    (seen_digits, lambda: (rng.integers(0, 30, 20).astype(float),)),
    (histogram_counts, lambda: (np.arange(40.0),)),
    (sieve_masked, lambda: (np.ones(40),)),
    (best_per_slot, lambda: (rng.standard_normal(25),)),
    (row_sums_per_slot, lambda: (rng.standard_normal((25, 3)),)),
    (from_the_end, lambda: (np.zeros(25),)),
    (one_past_the_end, lambda: (np.zeros(10),)),
    (one_past_the_end, lambda: (np.zeros(11),)),
    (long_table, lambda: (np.zeros(100),)),
    (long_table, lambda: (np.zeros(40),)),
    (written_again_after, lambda: (np.zeros(33),)),
    (long_table_then_appended, lambda: (np.zeros(100),)),
    (kinds_per_item, lambda: (rng.standard_normal(3),)),
    (aliased, lambda: (rng.standard_normal(25),)),
    (sum_read_in_body, lambda: (np.zeros(30),)),
    (numpy_scalars_into_floats, lambda: (rng.standard_normal(25),)),
    (some_items_written, lambda: (rng.standard_normal(20),)),
    (some_items_written, lambda: (-np.ones(20),)),
    # Past 64 items the list comes back from one array, each item of its own kind.
    (some_items_written, lambda: (rng.standard_normal(100), 80)),
    (recurrence_in_a_list, lambda: (rng.standard_normal(30),)),
    (float32_items, lambda: (rng.standard_normal(25).astype(np.float32),)),
    (traced_python_number_before, lambda: (-np.ones(20),)),
    (written_in_branch_read_after, lambda: (rng.standard_normal(4),)),
    (written_in_branch_read_after, lambda: (-np.ones(4),)),
]


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("fn,make", CASES, ids=[f.__name__ for f, _ in CASES])
def test_item_writes_match_numpy(fn, make, jit):
    for _ in range(2):          # other data, same compiled function
        check_against_numpy(fn, *make(), jit=jit)


# Numbers of another type written into a list: each item keeps its own.
SEVERAL_TYPES = [
    (float_into_ints, lambda: (rng.standard_normal(20),)),
    (float_into_ints, lambda: (-np.ones(20),)),
    (float_into_ints, lambda: (rng.standard_normal(100), 80)),
    (int_into_bools, lambda: (rng.standard_normal(20),)),
    (python_floats_into_ints, lambda: (rng.standard_normal(20),)),
    (ints_into_floats, lambda: (rng.standard_normal(30),)),
    (as_an_array, lambda: (rng.standard_normal(20) + 1,)),
    (float_into_a_table, lambda: (rng.standard_normal(20),)),
    (read_after_the_loop, lambda: (rng.standard_normal(20),)),
]


@pytest.mark.parametrize("fn,make", SEVERAL_TYPES, ids=[f.__name__ for f, _ in SEVERAL_TYPES])
def test_writes_of_other_types_match_numpy(fn, make):
    check_against_numpy(fn, *make())


@pytest.mark.parametrize("fn,args", [
    (longest_increasing_subsequence, (np.arange(30),)),
    (bfs_distances, (np.eye(12, k=1, dtype=int), 0)),
    (histogram_counts, (np.arange(40.0),)),
    (recurrence_in_a_list, (np.arange(40.0),)),
    (float_into_ints, (np.arange(40.0),)),
    (int_into_bools, (np.arange(40.0),)),
])
def test_lists_written_in_loops_are_carried_by_graph_loops(fn, args):
    # Unrolled, LIS of 30 items alone is 435 conditionals.
    graph = str(nptf.compile(fn, fallback="raise").trace(*args))
    assert "while[" in graph or "while " in graph


def test_items_of_mixed_kinds_in_promotion():
    # out[4] stays the Python float 0.0 (weak: y + out[4] is float32), out[3] is a
    # float64 scalar: the graph cannot give both dtypes, so NumPy runs such calls.
    x = rng.standard_normal(12)
    with pytest.raises(nptf.OutsideTheGraphError, match="Python number or a NumPy scalar"):
        nptf.compile(items_read_back_in_promotion, fallback="raise")(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = nptf.compile(items_read_back_in_promotion)(x)
    assert mismatch(items_read_back_in_promotion(x), got) is None


# ------------------------------------------- writes at traced positions outside loops
def lomuto_partition(a):
    arr = list(a)
    hi = len(arr) - 1
    i = 0
    for j in range(hi):                     # unrolled: `i` is traced after the first `if`
        if arr[j] < arr[hi]:
            arr[i], arr[j] = arr[j], arr[i]
            i += 1
    arr[i], arr[hi] = arr[hi], arr[i]       # at a traced position, outside any loop
    return arr, i


def swapped_python_floats(a, t):
    arr = [float(v) for v in a]
    same = arr
    i, j = int(np.argmax(a > t)), int(np.argmin(a))
    arr[i], arr[j] = arr[j], arr[i]
    arr[i - 1] += 1.0
    return same, arr[i]


def written_past_the_end(a):
    arr = list(a)
    arr[int(np.argmax(a)) + len(a)] = a[0]
    return arr


def test_swaps_at_traced_positions_outside_loops():
    """A Python list written at a position known only when the graph runs, outside any
    loop (a partition's last swap): every item becomes the written value where the
    position is its own, in place (a second name for the list sees it); past the end,
    Python's IndexError."""
    for a in (rng.standard_normal(6), np.array([3.0, 1.0, 4.0, 1.0, 5.0, 2.0])):
        check_against_numpy(lomuto_partition, a)
        check_against_numpy(swapped_python_floats, a, 0.5)
    check_against_numpy(written_past_the_end, rng.standard_normal(5))


@pytest.mark.parametrize("fn,args,match", [
    # No float on this call: NumPy makes an int64 array of the list, the graph float64.
    (as_an_array, (-np.ones(20),), "none is of the type"),
    # A Python int past 2**53 in a list that holds floats too: float64 rounds it.
    (ints_into_floats, (np.zeros(20), 2 ** 60), "does not hold them exactly"),
])
def test_numbers_of_several_types_that_the_graph_cannot_hold(fn, args, match):
    with pytest.raises(nptf.OutsideTheGraphError, match=match):
        nptf.compile(fn, fallback="raise")(*args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = nptf.compile(fn)(*args)
    assert mismatch(fn(*args), got) is None


class _UnionFind:
    def __init__(self, n):
        self.parent = list(range(n))
        self.size = [1] * n

    def find(self, x):
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        if self.size[ra] < self.size[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.size[ra] += self.size[rb]
        return True


def components(edges, n):
    uf = _UnionFind(n)
    merges = 0
    for u, v in edges:
        merges += uf.union(int(u), int(v))
    return [uf.find(i) for i in range(n)], merges, uf.size


def written_through_an_attribute(x, n):
    uf = _UnionFind(n)
    if x[1] > 0:
        uf.parent[int(x[0])] = 7
    return uf.parent


def test_items_of_a_list_held_by_an_object_written_under_a_traced_if():
    """``self.parent[rb] = ra`` on a path: the items are the path's where the data take it
    (the list, the same object before and after, is not also a variable of the `if`)."""
    edges = np.array([[0, 1], [2, 3], [1, 2], [4, 5], [3, 0], [6, 7], [5, 6]])
    check_against_numpy(components, edges, 9)
    check_against_numpy(written_through_an_attribute, np.array([3.0, 1.0]), 5)
    check_against_numpy(written_through_an_attribute, np.array([3.0, -1.0]), 5)


def roots_by_a_closure(edges, n):
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    merges = 0
    for u, v in edges:
        ru, rv = find(int(u)), find(int(v))
        if ru != rv:
            parent[rv] = ru
            merges += 1
    return [find(i) for i in range(n)], merges


def test_a_list_a_closure_writes_inside_a_comprehension_longer_than_unrolled():
    """``[find(i) for i in range(n)]`` where ``find`` writes the list its closure holds:
    the comprehension sees the list change (it runs unrolled), so no value of its body's
    graph is left in the list."""
    edges = np.array([[0, 1], [2, 3], [1, 2], [4, 5], [3, 0], [6, 7], [5, 6]])
    check_against_numpy(roots_by_a_closure, edges[:4], 9)


def components_of_adjacency(A):
    n = A.shape[0]
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i in range(n):
        for j in range(i + 1, n):
            if A[i, j]:
                ri, rj = find(i), find(j)
                if ri != rj:
                    parent[ri] = rj
    return [find(i) for i in range(n)]


def test_a_search_loop_inside_loops_too_long_to_unroll_writes_the_list_they_carry():
    """``find``'s `while` (its trip count the data's) writes the list the loops around it
    would carry as an array: the loops of known trip count run unrolled instead of the
    function being refused."""
    A = (np.random.default_rng(1).random((5, 5)) > 0.6).astype(int)
    check_against_numpy(components_of_adjacency, A | A.T)
