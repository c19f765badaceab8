"""Python values the function's own code needs of traced values: a dict key made of
``int(u)``, a comparison inside ``heapq``, text that is compared or hashed, a list of
objects read where ``np.argmin`` points, a `while` whose body only Python can run. The
trace takes the value the data of the call being traced give (the graph built so far run
with NumPy's rules), the graph checks that the data give it, and a call whose data give
another runs a graph traced for those (up to four per signature, then NumPy)."""
import heapq
import warnings
from collections import Counter, defaultdict

import numpy as np
import pytest

import nptf
from harness import mismatch


def _calls(fn, inputs, **options):
    """One compiled ``fn`` called on each of ``inputs`` in turn, against NumPy each time."""
    compiled = nptf.compile(fn, fallback="raise", **options)
    for args in inputs:
        problem = mismatch(fn(*args), compiled(*args))
        assert problem is None, problem
    return compiled


RNG = np.random.default_rng(7)
EDGES = [RNG.integers(0, 6, size=(8, 2)) for _ in range(2)]


def degrees(n, edges):
    graph = defaultdict(set)
    for u, v in edges:
        graph[int(u)].add(int(v))
        graph[int(v)].add(int(u))
    return np.array([len(graph[i]) for i in range(n)]), {k: sorted(s) for k, s in graph.items()}


def dijkstra(W, src):
    n = len(W)
    dist = [np.inf] * n
    dist[src] = 0.0
    heap = [(0.0, src)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v in range(n):
            w = W[u, v]
            if w > 0 and d + w < dist[v]:       # heappush under a traced `if`
                dist[v] = d + w
                heapq.heappush(heap, (dist[v], v))
    return np.array(dist)


def test_dict_keys_and_heap_orders_follow_the_data(jit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # "runs unrolled"
        _calls(degrees, [(6, EDGES[0]), (6, EDGES[1]), (6, EDGES[0])], jit_compile=jit)
        W = [RNG.random((5, 5)) * (RNG.random((5, 5)) > 0.4) for _ in range(2)]
        compiled = _calls(dijkstra, [(W[0], 0), (W[1], 0), (W[0], 0), (W[1], 0)],
                          jit_compile=jit)
    # One graph per pattern of the data, kept beside the first.
    assert compiled.cache_info().fallbacks == 0


def formatted(x):
    return f"{x.mean():.3f}", str(x.max()), repr(x.min()), f"{x.argmax()}"


def grades(scores):
    counts = {}
    for s in scores:
        key = f"{'A' if s > 90 else 'B' if s > 80 else 'C'}"
        counts[key] = counts.get(key, 0) + 1
    return counts, sorted(counts), len(f"{scores.max()}")


def test_text_made_of_traced_values_is_the_data_s_text():
    x = np.array([0.25, -1.5, 2.0])
    _calls(formatted, [(x,), (x + 1,), (-x,), (x,)])
    # A zero's sign shows in its text: -0.0 and 0.0 are other values.
    _calls(lambda x: str(x.min()), [(np.array([0.0, 1.0]),), (np.array([-0.0, 1.0]),)])
    _calls(lambda x: f"{x.max()}", [(np.array([np.nan, 1.0]),), (np.array([2.0, 1.0]),),
                                   (np.array([np.nan, 1.0]),)])
    _calls(grades, [(RNG.integers(70, 100, 8),) for _ in range(3)])


def collatz_steps(x):
    n = x.sum()
    steps = []
    while n != 1:                       # a list of strings: only Python can grow it
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps.append(f"step{len(steps)}")
    return steps


def reached_by(adj, source):
    paths = ["-"] * len(adj)
    paths[source] = "s"
    queue = [source]
    while queue:
        u = queue.pop(0)
        for v in np.nonzero(adj[u])[0]:     # a run-time length, writing strings
            if paths[v] == "-":
                paths[v] = f"{paths[u]}>{v}"
                queue.append(v)
    return paths


def test_loops_only_python_can_run_take_the_data_s_trip_count(jit):
    _calls(collatz_steps, [(np.array([3, 4]),), (np.array([5, 6]),), (np.array([3, 4]),)],
           jit_compile=jit)
    graphs = [(RNG.random((7, 7)) > 0.6).astype(int) for _ in range(2)]
    _calls(reached_by, [(a | a.T, 0) for a in graphs], jit_compile=jit)


class Sphere:
    def __init__(self, center, radius):
        self.center, self.radius = center, radius


def nearest(centers, radii, p):
    objects = [Sphere(c, r) for c, r in zip(centers, radii)]
    k = np.argmin([np.linalg.norm(o.center - p) - o.radius for o in objects])
    best = objects[k]                   # a list of objects, read where the data point
    return best.center * 2, best.radius


def topological(n, edges):
    indeg = [0] * n
    succ = defaultdict(list)
    for u, v in edges:
        succ[int(u)].append(int(v))
        indeg[int(v)] += 1
    ready = [v for v in range(n) if indeg[v] == 0]      # filtered on traced counts
    heapq.heapify(ready)
    order = []
    while ready:
        v = heapq.heappop(ready)
        order.append(v)
        for w in succ[v]:
            indeg[w] -= 1
            if indeg[w] == 0:
                heapq.heappush(ready, w)
    return order


def labels(x):
    big = x[x > 0.5]
    return [f"{v:.2f}" for v in big], sorted(str(v) for v in big)


def test_python_containers_the_data_index_or_grow(jit):
    C, R = RNG.random((4, 3)), RNG.random(4) * 0.1
    _calls(nearest, [(C, R, np.zeros(3)), (C, R, np.ones(3))], jit_compile=jit)
    dag = [np.array([[0, 1], [1, 2], [0, 3], [3, 2], [4, 0]]),
           np.array([[1, 0], [1, 2], [0, 3], [3, 2], [4, 1]])]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # "runs unrolled"
        _calls(topological, [(5, e) for e in dag], jit_compile=jit)
    _calls(labels, [(RNG.random(6),) for _ in range(3)], jit_compile=jit)


def keys_returned(x):
    d, s = {}, set()
    for v in x:
        d[v] = 1 if v > 2 else 1.5
        s.add(int(v))
    return d, s


def test_dicts_and_sets_of_assumed_keys_are_returned_with_the_data_s_keys():
    compiled = nptf.compile(keys_returned, fallback="raise")
    for x in (np.array([3, 1, 2, 5]), np.array([4, 2, 3, 6, 6]), np.array([3, 1, 2, 5])):
        (d, s), (want_d, want_s) = compiled(x), keys_returned(x)
        assert repr(d) == repr(want_d) and s == want_s


def heap_order(x):
    h = list(x)
    heapq.heapify(h)                    # comparisons of traced numbers
    return [heapq.heappop(h) for _ in range(len(x))]


def test_data_that_need_more_graphs_than_a_signature_keeps_run_numpy():
    orders = [np.random.default_rng(k).permutation(6).astype(float) for k in range(8)]
    compiled = nptf.compile(heap_order)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for x in orders:
            assert mismatch(heap_order(x), compiled(x)) is None
    assert any("runs with NumPy" in str(w.message) for w in caught)
    strict = nptf.compile(heap_order, fallback="raise")
    for x in orders[:4]:
        assert mismatch(heap_order(x), strict(x)) is None
    with pytest.raises(nptf.OutsideTheGraphError, match="another Python value"):
        strict(orders[4])


def test_export_and_transformations_assume_no_value(tmp_path):
    with pytest.raises(nptf.UnsupportedError, match="bool"):
        nptf.export(heap_order, tmp_path / "m", nptf.Spec((6,), np.float64))
    with pytest.raises(nptf.UnsupportedError, match="bool"):
        nptf.grad(lambda x: heap_order(x)[0])(np.arange(6.0))


def near_ones(grid):
    result = {}
    for r, c in np.argwhere(grid == 1):
        block = grid[max(r - 1, 0):r + 2, max(c - 1, 0):c + 2]
        result[(int(r), int(c))] = int(block.sum()) - 1     # tuple keys of traced ints
    return result


def ordered_after_a_draw(x):
    noise = np.random.default_rng().normal(size=3)      # fresh numbers on every call
    h = list(x)
    heapq.heapify(h)        # values that do not come from the draw: the data's own
    return [heapq.heappop(h) for _ in range(len(x))], noise.shape


def test_tuple_keys_and_values_traced_after_a_draw():
    grids = [(np.random.default_rng(s).random((5, 5)) > 0.6).astype(int) for s in (0, 1, 0)]
    compiled = nptf.compile(near_ones, fallback="raise")
    for g in grids:
        assert compiled(g) == near_ones(g)
    _calls(ordered_after_a_draw, [(np.array([3.0, 1.0, 2.0]),), (np.array([1.0, 3.0, 2.0]),)])


def bigram_counts(tokens):
    toks = tokens[tokens >= 0].tolist()         # a list of a length the data give
    counts = Counter(tuple(toks[i:i + 2]) for i in range(len(toks) - 1))
    return sorted(counts.items()), max(t for t in toks)     # Python iterates it


def test_python_iterates_a_list_of_a_length_the_data_give():
    _calls(bigram_counts, [(np.array([1, 2, -1, 1, 2, 3]),), (np.array([4, -2, 4, 4]),),
                           (np.array([1, 2, -1, 1, 2, 3]),)])
