"""A Python list the function appends to where the data decide how often (under an `if`
on traced values, or in a loop whose trip count is known only at run time), held in
a variable or as an item of a dict (``history["loss"]``), is one array of its items, as
long as the data make it: checked against NumPy through the public API, with the cases
one array cannot hold (aliases, arguments, mixed items, an empty list NumPy would make
float64), which are Python's lists of the call's data or run with NumPy."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy


def lif_neuron(I, dt=0.1, tau=10.0, v_rest=-65.0, v_th=-50.0, v_reset=-70.0):
    v = v_rest
    vs = np.zeros(len(I))
    spikes = []
    for t in range(len(I)):
        v += dt / tau * (-(v - v_rest) + I[t])
        if v >= v_th:
            spikes.append(t)
            v = v_reset
        vs[t] = v
    return vs, np.array(spikes, dtype=int)


def peaks(x):
    idx = []
    for i in range(1, len(x) - 1):
        if x[i] > x[i - 1] and x[i] > x[i + 1]:
            idx.append(i)
    return np.array(idx), len(idx)


def positive_rows(X):
    out = []
    for r in X:
        if r.sum() > 0:
            out.append(r * 2)
    return np.vstack(out) if out else np.zeros((0, X.shape[1]))


def first_and_last(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    return out[0], out[-1], len(out)


def then_summed(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    s = 0.0
    for v in out:
        s += v * v
    return s, np.mean(out)


def until_large(x):
    out, i = [], 0
    while i < len(x) and x[i] < 5:      # a trip count only the data know
        out.append(x[i] * 2)
        i += 1
    return np.array(out), i


def over_selection(x):
    out = []
    for v in x[x > 0.1]:
        out.append(float(v))
    return np.array(out)


def kept(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    return out


def largest_or_default(x):
    out = [0.5]
    for v in x:
        if v > 1:
            out.append(float(v))
    if out:
        return np.max(out), out
    return -1.0, out


def aliased(x):
    out = []
    keep = {"o": out}
    for v in x:
        if v > 0:
            out.append(v)
    return np.array(keep["o"])


def into_argument(x, acc):
    for v in x:
        if v > 0:
            acc.append(v)
    return np.array(acc)


def mixed_dtypes(x):
    out = []
    for i in range(len(x)):
        if x[i] > 0:
            out.append(i)
        else:
            out.append(float(x[i]))
    return np.array(out)


def drawdown_periods(prices):
    """Appends under an `if` inside another `if`, tuples of Python ints."""
    peak, start, in_dd, periods = prices[0], 0, False, []
    for i in range(1, len(prices)):
        if prices[i] >= peak:
            if in_dd:
                periods.append((start, i))
                in_dd = False
            peak = prices[i]
        elif not in_dd:
            in_dd = True
            start = i - 1
    if in_dd:
        periods.append((start, len(prices) - 1))
    return periods


def rises(x):
    """Tuples of a Python int, a Python float and a NumPy scalar, read back in a loop."""
    out = []
    for i in range(1, len(x)):
        if x[i] > x[i - 1]:
            out.append((i, float(x[i]), x[i] - x[i - 1]))
    total = 0.0
    for i, v, step in out:
        total += i * v + step
    return out, total, len(out)


def rises_as_array(x):
    out = []
    for i in range(1, len(x)):
        if x[i] > x[i - 1]:
            out.append((i, x[i]))
    return np.array(out), out[0] if len(x) > 1 and x[1] > x[0] else (0, x[0])


RNG = np.random.default_rng(7)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_tuples_of_numbers_appended_under_traced_ifs(jit):
    prices = np.cumsum(RNG.normal(size=40))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        for x in (prices, np.arange(12.0), np.arange(12.0)[::-1].copy(),
                  prices.astype(np.float32)):
            check_against_numpy(drawdown_periods, x, jit=jit)
            check_against_numpy(rises, x, jit=jit)
        check_against_numpy(rises_as_array, prices, jit=jit)
        check_against_numpy(rises_as_array, np.arange(9, dtype=np.int32), jit=jit)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_list_appended_to_under_a_traced_if_grows_as_the_data_say(jit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        check_against_numpy(lif_neuron, RNG.uniform(0, 40, 300), jit=jit)
        check_against_numpy(lif_neuron, np.zeros(40), jit=jit)        # no spike: empty
        check_against_numpy(peaks, RNG.normal(size=30), jit=jit)
        check_against_numpy(positive_rows, RNG.normal(size=(12, 3)), jit=jit)
        check_against_numpy(positive_rows, -np.ones((12, 3)), jit=jit)
        check_against_numpy(first_and_last, RNG.normal(size=20), jit=jit)
        check_against_numpy(first_and_last, -np.ones(20), jit=jit)    # IndexError
        check_against_numpy(then_summed, RNG.normal(size=20), jit=jit)
        check_against_numpy(kept, RNG.normal(size=20), jit=jit)
        check_against_numpy(largest_or_default, RNG.normal(size=20), jit=jit)


def test_a_list_appended_to_in_a_loop_of_run_time_length():
    check_against_numpy(until_large, np.arange(10.0))
    check_against_numpy(until_large, np.arange(10.0) + 10)           # no step: empty
    check_against_numpy(over_selection, RNG.normal(size=30))
    check_against_numpy(over_selection, -np.ones(30))


def history_until_small(w, lr=0.3):
    # a training loop that records its history in a dict of lists, until it converges
    history = {"loss": [], "step": [0], "w": w.copy()}
    it = 0
    while np.abs(history["w"]).max() > 1e-2 and it < 50:
        history["w"] = history["w"] - lr * history["w"]
        history["loss"].append(np.sum(history["w"] ** 2))
        it += 1
        history["step"].append(it)
    return {k: np.array(v) for k, v in history.items()}, history["step"][-1]


def history_aliased(w):
    history = {"loss": []}
    seen = history
    while np.abs(w).max() > 1e-2:
        w = w * 0.5
        history["loss"].append(w.sum())
    return np.array(seen["loss"])


def history_with_break(w):
    log = {"total": [], "first": []}
    for i in range(20):
        w = w * 2
        log["total"].append(w.sum())
        log["first"].append(w[0])
        if w.sum() > 100:
            break
    return {k: np.array(v) for k, v in log.items()}


def history_of_two_loops(c, x):
    hist = {"w": [x]}
    j = 0
    while c[j] < 0.5:                   # the list grows as the data say
        hist["w"].append(c[j] * 2)
        j += 1
    for i in range(12):                 # and then on every step of a graph loop
        hist["w"].append(c[i])
    return np.array(hist["w"])


def test_lists_a_dict_holds_appended_to_in_a_loop_of_run_time_length(tmp_path):
    check_against_numpy(history_until_small, np.array([1.0, -2.0]))
    check_against_numpy(history_until_small, np.array([0.001]))     # no step: one item
    check_against_numpy(history_with_break, np.array([1.0, 2.0]))
    check_against_numpy(history_of_two_loops, np.linspace(0, 1, 16), 0.25)
    # Another name reaches the dict: the appends must show there, which only Python does.
    # Python runs the loop for the trip count the call's data give (a graph for each; no
    # step leaves the list empty), which a SavedModel's one graph cannot.
    for w in (1.0, 0.001, 40.0, 1.0):
        check_against_numpy(history_aliased, np.array([w]))
    with pytest.raises(nptf.UnsupportedError, match="changes the Python list"):
        nptf.export(history_aliased, tmp_path / "m", nptf.Spec((1,), np.float64))


def test_a_returned_list_comes_back_as_numpy_s_list():
    x = RNG.normal(size=20)
    got = nptf.compile(kept, fallback="raise")(x)
    assert type(got) is list and all(type(v) is np.float64 for v in got)
    _, items = nptf.compile(largest_or_default, fallback="raise")(x + 1)
    assert type(items) is list and all(type(v) is float for v in items)


def test_what_cannot_be_one_array_runs_numpy():
    x = RNG.normal(size=20)
    # An empty list is a float64 array of shape (0,) to NumPy, whatever the items would be.
    with pytest.raises(nptf.OutsideTheGraphError, match="empty on this call"):
        nptf.compile(peaks, fallback="raise")(np.arange(10.0))
    with pytest.raises(nptf.UnsupportedError, match="`acc`"):
        nptf.compile(into_argument, fallback="raise")(x, [])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_array_equal(nptf.compile(peaks)(np.arange(10.0))[0],
                                      peaks(np.arange(10.0))[0])
        acc = []
        np.testing.assert_array_equal(nptf.compile(into_argument)(x, acc), into_argument(x, []))
        assert len(acc) == int(np.sum(x > 0))


def test_a_list_one_array_cannot_hold_takes_the_path_of_each_item():
    """A list another name reaches, or of items of other dtypes on the two paths: the
    trace assumes each `if`'s path where the loop runs in Python, and the graph checks
    them; other data run a graph traced with the paths they take."""
    for fn in (aliased, mixed_dtypes):
        for x in (RNG.normal(size=6), RNG.normal(size=6)):
            check_against_numpy(fn, x)


def test_a_list_that_may_be_returned_cannot_be_exported(tmp_path):
    with pytest.raises(nptf.UnsupportedError, match="exported function"):
        nptf.export(kept, str(tmp_path / "m"), nptf.Spec((None,), np.float64))


# ------------------------------------------- comprehensions and generators with filters
def positives_squared(x):
    return np.array([v * v for v in x if v > 0])


def indices_above(x, t):
    return [i for i in range(len(x)) if x[i] > t and i % 2 == 0]


def count_and_total(x):
    n = sum(1 for v in x if v > 0)
    total = sum(v for v in x if v > 0.5)
    return n, total


def any_and_all(x):
    return any(v > 1.5 for v in x), all(v > -3 for v in x), any([x[0] > 0, x[1] > 0])


def log_of_positives(x):
    # np.log runs only where the filter holds, as in Python.
    return np.array([np.log(v) for v in x[x > -1] if v > 0])


def best_of_windows(x):
    means = [np.mean(x[k:k + 3]) for k in range(4)]
    return max(means), min(means)


def close_pairs(P, r):
    d = np.sqrt(((P[:, None] - P[None]) ** 2).sum(-1))
    pairs = [(i, j) for i in range(len(P)) for j in range(i + 1, len(P)) if d[i, j] < r]
    return pairs, len(pairs)


def structuring_offsets(se, img):
    """A morphology kernel's offsets where the element is set (several generators, a
    filter on the data), and the neighbours they select."""
    r0, r1 = se.shape[0] // 2, se.shape[1] // 2
    offs = [(di - r0, dj - r1) for di in range(se.shape[0]) for dj in range(se.shape[1])
            if se[di, dj] if di != r0 or dj != r1]
    return offs, np.array([img[2 + a, 2 + b] for a, b in offs])


def python_offsets(img):
    """Every condition Python's: the comprehension is Python's, its items Python ints."""
    offs = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)]
    return offs, [img[1 + a, 1 + b] for a, b in offs]


def seeded_pairs(x):
    rng = np.random.default_rng(1)
    return [(i, j) for i in range(3) for j in range(3) if rng.random() < x[0]]


def test_a_comprehension_of_several_generators_drawing_in_its_condition_is_pythons():
    """A condition that calls (a draw from a seeded stream) runs once per binding, as in
    Python: such a comprehension is not listed and decided in two passes."""
    for p in (0.3, 0.5, 0.9):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            got = nptf.compile(seeded_pairs)(np.array([p]))
        assert got == seeded_pairs(np.array([p]))


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_comprehensions_of_several_generators_with_filters_on_the_data(jit):
    """``[(i, j) for i in range(n) for j in range(i + 1, n) if d[i, j] < r]``: the
    bindings Python's loops make, filtered as the data choose (it raised bool() of a
    traced array)."""
    P = RNG.random((6, 2))
    for r in (0.0, 0.4, 2.0):
        got = check_against_numpy(close_pairs, P, r, jit=jit)
        assert all(type(v) is int for p in got[0] for v in p)
    img = np.arange(25.0).reshape(5, 5)
    for se in ([[0, 1, 0], [1, 1, 1], [0, 1, 0]], [[1, 1, 1]] * 3, [[0] * 3] * 3):
        check_against_numpy(structuring_offsets, np.array(se, bool), img, jit=jit)
    got = check_against_numpy(python_offsets, img, jit=jit)
    assert len(got[0]) == 8 and type(got[0][0][0]) is int


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_filters_in_comprehensions_and_generators_follow_the_data(jit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = RNG.normal(size=12)
        for v in (x, np.abs(x) + 1, -np.abs(x) - 1):
            check_against_numpy(positives_squared, v, jit=jit)
            check_against_numpy(indices_above, v, 0.2, jit=jit)
            check_against_numpy(any_and_all, v, jit=jit)
            check_against_numpy(log_of_positives, v, jit=jit)
        check_against_numpy(count_and_total, x, jit=jit)
        check_against_numpy(best_of_windows, x, jit=jit)
        # sum() of an empty list of floats is Python's int 0.
        neg = -np.abs(x) - 1
        got = nptf.compile(count_and_total, fallback="raise", jit_compile=jit)(neg)
        assert got == (0, 0) and type(got[1]) is int


def training_history(w, steps=60):
    """Appends on every iteration of a long loop of a known trip count: one graph loop,
    and the list is a Python list again after it."""
    losses, norms = [], []
    for step in range(steps):
        w = w - 0.1 * (w - 1.0)
        losses.append(float(np.sum((w - 1.0) ** 2)))
        norms.append(np.linalg.norm(w))
    last = losses[-5:]
    return np.array(losses), norms, sum(last) / len(last), max(losses), losses.index(losses[0])


def test_appends_on_every_iteration_of_a_long_loop_compile_one_loop(jit):
    check_against_numpy(training_history, np.zeros(3), jit=jit)
    trace = nptf.compile(training_history).trace(np.zeros(3))
    assert any(e.op.name == "while" for e in trace.eqns)
    unrolled = nptf.compile(training_history, unroll=100).trace(np.zeros(3))
    assert not any(e.op.name == "while" for e in unrolled.eqns)
    assert len(trace.eqns) < len(unrolled.eqns)     # not 60 copies of the body


def moving_window(x):
    """The body slices the list it appends to: Python runs that loop (unrolled)."""
    h = [0.0]
    for i in range(12):
        h.append(float(np.mean(h[-3:])) + x[i])
    return np.array(h)


def test_a_loop_body_slicing_its_list_still_compiles():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs unrolled"
        check_against_numpy(moving_window, np.arange(12.0))


# ------------------------------------- numbers of one dtype, Python's or NumPy's as it comes
def mixed_kinds(x):
    """A Python float, then NumPy scalars: np.array of it is NumPy's array either way."""
    out = [0.0]
    for v in x:
        if v > 0:
            out.append(v)
        else:
            out.append(float(v))
    return np.array(out), len(out)


def roc_points(y_true, scores):
    thresholds = np.sort(np.unique(scores))[::-1]
    tpr, fpr = [0.0], [0.0]
    P, N = np.sum(y_true == 1), np.sum(y_true == 0)
    for t in thresholds:
        pred = scores >= t
        tpr.append(np.sum(pred & (y_true == 1)) / P)
        fpr.append(np.sum(pred & (y_true == 0)) / N)
    return np.array(fpr), np.array(tpr), np.trapezoid(tpr, fpr)


def prime_factors(n):
    """Python ints (the divisor) and a NumPy integer (what is left of ``n``)."""
    factors = []
    d = 2
    while d * d <= n:
        while n % d == 0:
            factors.append(d)
            n //= d
        d += 1
    if n > 1:
        factors.append(n)
    return np.array(factors)


def mixed_kinds_read_back(x):
    out = [0.0]
    for v in x:
        if v > 0:
            out.append(v)
    return out[-1]


def mixed_kinds_returned(x):
    out = [0.0]
    for v in x:
        if v > 0:
            out.append(v)
    return out


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_python_numbers_and_numpy_scalars_of_one_dtype_make_one_array(jit, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        check_against_numpy(mixed_kinds, RNG.normal(size=20), jit=jit)
        check_against_numpy(roc_points, RNG.integers(0, 2, 30), RNG.random(30), jit=jit)
        for n in (9240, 97, 2 ** 10):
            check_against_numpy(prime_factors, np.int64(n), jit=jit)
        # No factor: NumPy's float64 array of shape (0,), from NumPy's run.
        got = nptf.compile(prime_factors, jit_compile=jit)(np.int64(1))
        assert got.dtype == np.float64 and got.shape == (0,)
    # Which kind one item is, only the data know: reading it back runs NumPy.
    fn = mixed_kinds_read_back
    with pytest.raises(nptf.UnsupportedError, match="Python numbers or NumPy scalars"):
        nptf.compile(fn, fallback="raise")(RNG.normal(size=20))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = RNG.normal(size=20)
        assert_same_kind(nptf.compile(fn)(x), fn(x))
    # The list handed back is Python's, with the kinds the call's data give (a graph for
    # each; check_against_numpy compares each item's kind), which one graph cannot be.
    x, other = RNG.normal(size=20), RNG.normal(size=20)
    for v in (x, -np.ones(20), other, x):
        check_against_numpy(mixed_kinds_returned, v, jit=jit)
    with pytest.raises(nptf.UnsupportedError, match="Python numbers or NumPy scalars"):
        nptf.export(mixed_kinds_returned, tmp_path / "m", nptf.Spec((20,), np.float64))


def assert_same_kind(got, want):
    assert type(got) is type(want)
    if isinstance(want, list):
        assert [type(v) for v in got] == [type(v) for v in want]
    np.testing.assert_array_equal(got, want)


# ------------------------------------------------ worklists: pop, extend, insert, + of lists
def depth_first_order(adj, start):
    """A stack of node numbers: pop, then push the unvisited neighbours."""
    n = adj.shape[0]
    seen = np.zeros(n, dtype=bool)
    order = []
    stack = [start]
    while stack:
        u = stack.pop()
        if seen[u]:
            continue
        seen[u] = True
        order.append(u)
        for v in range(n - 1, -1, -1):
            if adj[u, v] and not seen[v]:
                stack.append(v)
    return np.array(order), seen


def breadth_first_levels(adj, start):
    """A queue: pop(0), append; a distance array written at the popped node."""
    n = adj.shape[0]
    dist = np.full(n, -1)
    dist[start] = 0
    queue = [start]
    while queue:
        u = queue.pop(0)
        for v in range(n):
            if adj[u, v] and dist[v] < 0:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist


def flood_fill(grid, i, j):
    """Tuples of coordinates on a stack, extended by four neighbours at a time."""
    h, w = grid.shape
    out = np.zeros((h, w), dtype=int)
    stack = [(i, j)]
    while stack:
        y, x = stack.pop()
        if y < 0 or y >= h or x < 0 or x >= w:
            continue
        if not grid[y, x] or out[y, x]:
            continue
        out[y, x] = 1
        stack.extend([(y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)])
    return out


def monotone_chain(points):
    """Rows of an array pushed and popped (Andrew's convex hull), and `+` of two lists."""
    pts = points[np.lexsort((points[:, 1], points[:, 0]))]

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper = []
    for p in pts[::-1]:
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return np.array(lower[:-1] + upper[:-1])


def running_minima(x):
    """A monotone stack of numbers; insert at the front; reverse; clear."""
    stack, firsts = [], []
    for v in x:
        while stack and stack[-1] > v:
            stack.pop()
        stack.append(v)
        if v > 0.5:
            firsts.insert(0, v)
    firsts.reverse()
    kept = np.array(stack)
    stack.clear()
    return kept, np.array(firsts), len(stack)


def drained(x):
    """Pops past the end on some data: Python's IndexError."""
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    return out.pop(), out.pop(0)


def every_row(X):
    """Rows (views) appended on every iteration of a long loop, then given back."""
    out = []
    for r in X:
        out.append(r)
    return np.array(out)


def _graph(n, p, seed):
    r = np.random.default_rng(seed)
    a = r.random((n, n)) < p
    return a | a.T


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_worklists_pop_and_extend_as_the_data_say(jit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        for seed in (1, 2):
            adj = _graph(10, 0.25, seed)
            check_against_numpy(depth_first_order, adj, 0, jit=jit)
            check_against_numpy(breadth_first_levels, adj, 3, jit=jit)
        grid = RNG.random((9, 10)) > 0.4
        check_against_numpy(flood_fill, grid, 4, 4, jit=jit)
        check_against_numpy(flood_fill, np.zeros((9, 10), dtype=bool), 0, 0, jit=jit)
        check_against_numpy(monotone_chain, RNG.random((15, 2)), jit=jit)
        check_against_numpy(running_minima, RNG.random(20), jit=jit)
        check_against_numpy(drained, RNG.normal(size=12), jit=jit)
        check_against_numpy(drained, np.r_[1.0, -np.ones(11)], jit=jit)     # IndexError
        check_against_numpy(every_row, RNG.random((12, 2)), jit=jit)


def pop_at_traced_position(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    k = np.argmax(x) % 2
    return out.pop(k)


def test_list_methods_the_graph_cannot_follow_run_numpy():
    x = RNG.normal(size=12)
    with pytest.raises(nptf.UnsupportedError, match="pop.. at a position known only"):
        nptf.compile(pop_at_traced_position, fallback="raise")(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert nptf.compile(pop_at_traced_position)(x) == pop_at_traced_position(x)


def replaced_under_an_if(x):
    best = [0.0, 0]
    for i in range(len(x)):
        if x[i] > best[0]:
            best[0] = x[i]
    return best


@pytest.mark.filterwarnings("ignore:nptf. the loop")
def test_items_replaced_under_a_traced_if_compile():
    # The list keeps its length: the items a path writes are variables of the `if`; the
    # item is a Python float where no element was larger, a NumPy scalar elsewhere.
    for x in (RNG.normal(size=12), -np.ones(12)):
        check_against_numpy(replaced_under_an_if, x)


def list_methods_at_positions(x):
    """pop and insert at inner positions, extend by an array's items and by another such
    list, a Python list + such a list, and tuples popped back."""
    out, pairs, more = [], [], []
    for i in range(len(x)):
        if x[i] > 0:
            out.append(x[i])
            pairs.append((i, float(x[i])))
        else:
            more.append(x[i] * 2)
    out.extend(x[:3])                   # NumPy scalars, as iterating the array gives
    out.extend(more)
    none_left = not more
    out.insert(2, x[0])
    middle = out.pop(1)
    last_pair = pairs.pop()
    joined = [x[0], x[1]] + out
    joined += (x[2],)
    return np.array(joined), middle, last_pair, len(pairs), np.array(out[-2:]), none_left


def extends_by_other_items(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    out.extend([1, 2])                  # Python ints among float64 scalars
    return np.array(out)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_list_methods_at_inner_positions(jit, tmp_path):
    x = RNG.normal(size=14)
    x[:2] = [0.5, 1.5]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        check_against_numpy(list_methods_at_positions, x, jit=jit)
        check_against_numpy(list_methods_at_positions, np.abs(x) + 0.1, jit=jit)
        # Items of another dtype than the list's array: Python's list of the items the
        # call's data keep (a graph for each), which a SavedModel's one graph cannot be.
        for v in (x, -np.abs(x), np.abs(x) + 0.1, x):
            check_against_numpy(extends_by_other_items, v, jit=jit)
    with pytest.raises(nptf.UnsupportedError, match="extend"):
        nptf.export(extends_by_other_items, tmp_path / "m", nptf.Spec((14,), np.float64))


def topological_order(A):
    n = A.shape[0]
    indeg = A.sum(axis=0).astype(int)
    order = []
    ready = [i for i in range(n) if indeg[i] == 0]
    while ready:
        u = ready.pop(0)
        order.append(u)
        for v in range(n):
            if A[u, v]:
                indeg[v] -= 1
                if indeg[v] == 0:
                    ready.append(v)
    if len(order) != n:
        return None         # a cycle
    return order


def positives_or_none(x):
    out = []
    for i in range(len(x)):
        if x[i] > 0:
            out.append(float(x[i]))
    if len(out) < 2:
        return None
    return out


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_list_or_none_returned_as_the_data_say(jit):
    dag = np.triu(np.ones((6, 6), int), 1)
    cyclic = dag.copy()
    cyclic[5, 0] = 1
    for A in (dag, cyclic):
        check_against_numpy(topological_order, A, jit=jit)
    for x in (RNG.normal(size=12), -np.ones(12)):
        check_against_numpy(positives_or_none, x, jit=jit)


def peaks_sorted(x):
    found = []
    for i in range(1, len(x) - 1):
        if x[i] > x[i - 1] and x[i] > x[i + 1]:
            found.append((x[i], i))
    found.sort(key=lambda t: -t[1])
    return found


def positives_copied(x):
    vals = []
    for v in x:
        if v > 0:
            vals.append(v)
    return vals.copy()


def positives_counted(x):
    vals = []
    for v in x:
        if v > 0:
            vals.append(float(v))
    return vals.count(1.0)


@pytest.mark.parametrize("fn, method", [(peaks_sorted, "sort"), (positives_copied, "copy"),
                                        (positives_counted, "count")])
def test_list_methods_the_array_of_items_does_not_run_are_python_s(fn, method, tmp_path):
    # The array that holds the items has methods of these names (an array's sort sorts
    # each tuple's numbers): the list's own ones run on Python's list of the items the
    # call's data keep (a graph for each), which a SavedModel refuses by the method's name.
    x = np.array([0.0, 3.0, 1.0, 2.0, 0.5, 4.0, 1.0, 9.0, 0.0])
    for v in (x, np.array([1.0, 0.0, 2.0, 1.0, 3.0, -1.0, 5.0, 4.0, 6.0]), -np.ones(9), x):
        check_against_numpy(fn, v)
    with pytest.raises(nptf.UnsupportedError, match=rf"list\.{method}\(\) .*on a list appended"):
        nptf.export(fn, tmp_path / "m", nptf.Spec((9,), np.float64))


def positives_sorted(x, reverse):
    vals = []
    for v in x:
        if not v <= 0:
            vals.append(v)
    vals.sort(reverse=reverse)
    return vals


def residues_sorted(x):
    idx = [3]
    for i in range(len(x)):
        if x[i] > 0:
            idx.append(i * 7 % 5)
    idx.sort()
    return idx


def test_a_list_of_numbers_sorts_as_python_sorts(jit):
    x = np.array([0.0, 3.0, 1.0, 2.0, -0.0, 4.0, 1.0, 9.0, 0.0, 3.0, 0.5])
    for reverse in (False, True):
        check_against_numpy(positives_sorted, x, reverse, jit=jit)
        check_against_numpy(positives_sorted, -x, reverse, jit=jit)        # empty
        check_against_numpy(positives_sorted, np.tile(x, 30), reverse, jit=jit)
    check_against_numpy(residues_sorted, x, jit=jit)
    # NaN: Python's order depends on where it stands; NumPy runs the call.
    with pytest.raises(nptf.OutsideTheGraphError, match="NaN"):
        nptf.compile(positives_sorted, fallback="raise", jit_compile=jit)(
            np.r_[x, np.nan], False)


def peaks_by_height(x, reverse):
    found = []
    for i in range(1, len(x) - 1):
        if x[i] > x[i - 1]:
            found.append((x[i], i))
    found.sort(reverse=reverse)
    return found


def test_a_list_of_tuples_sorts_as_python_sorts(jit):
    # Ties in the first number are decided by the second, as Python compares tuples.
    x = np.array([0.0, 3.0, 1.0, 2.0, 0.5, 4.0, 1.0, 9.0, 0.0, 3.0, 2.0, 2.0, 5.0])
    for reverse in (False, True):
        check_against_numpy(peaks_by_height, x, reverse, jit=jit)
        check_against_numpy(peaks_by_height, np.tile(x, 25), reverse, jit=jit)


def peaks_apart(x, min_distance=3):
    """`peaks and peaks[-1]` under the `if` that appends: the list is empty until then."""
    peaks = []
    for i in range(1, len(x) - 1):
        if x[i] > x[i - 1] and x[i] >= x[i + 1]:
            if peaks and i - peaks[-1] < min_distance:
                continue
            peaks.append(i)
    return np.array(peaks, dtype=int)


def test_a_list_read_only_once_it_has_items():
    check_against_numpy(peaks_apart, np.sin(np.arange(40.0)))


def adaptive_times(x):
    """Appends a number that is a Python float before the loop's first step and a NumPy
    float64 after it: the list's array is NumPy's either way."""
    t, h = 0.0, 0.1
    ts = [t]
    k = 0
    while k < len(x):
        if x[k] > 0:
            t += h
            ts.append(t)
        h = h * min(max(np.abs(x[k]), 0.5), 2.0)
        k += 1
    return np.array(ts)


def test_a_list_of_numbers_of_a_kind_the_data_choose_as_an_array():
    check_against_numpy(adaptive_times, np.array([-1.0, 2, -3, 4, 5, -6, 7]))


def heap_of_a_filtered_list(scores):
    import heapq
    heap = [(-s, i) for i, s in enumerate(scores.tolist()) if s > 0]
    heapq.heapify(heap)
    return [heapq.heappop(heap) for _ in range(min(2, len(heap)))]


def test_heapq_of_a_list_the_data_grow_is_python_s(tmp_path):
    # heapq compares the items in Python: the heap is Python's list of the items the
    # call's data keep (a graph for each), which a SavedModel's one graph cannot be.
    for scores in ([0.5, -1.0, 2.0], [-0.5, -1.0, -2.0], [3.0, 1.0, 2.0], [0.5, -1.0, 2.0]):
        check_against_numpy(heap_of_a_filtered_list, np.array(scores))
    with pytest.raises(nptf.UnsupportedError, match="heapq.heapify"):
        nptf.export(heap_of_a_filtered_list, tmp_path / "m", nptf.Spec((3,), np.float64))


def kept_columns(x):
    """Columns the data keep, stacked every way NumPy stacks a list."""
    cols = []
    for i in range(x.shape[1]):
        if x[0, i] > 0:
            cols.append(x[:, i])
    return np.column_stack(cols), np.dstack(cols), np.hstack(cols), np.vstack(cols)


def polynomial_columns(x, degree):
    cols = [np.ones(len(x))]
    d = 1
    while d <= degree:
        cols.append(x ** d)
        d += 1
    return np.column_stack(cols), np.dstack(cols)


def kept_numbers_and_blocks(x):
    vals, blocks = [], []
    for i in range(3):
        if x[i, 0] > 0:
            vals.append(x[i, 1])
            blocks.append(x[i:i + 2, :2])
    return (np.column_stack(vals), np.dstack(vals), np.column_stack(blocks),
            np.dstack(blocks))


def test_column_stack_and_dstack_of_a_list_the_data_grow(jit):
    """``np.column_stack(cols)`` and ``np.dstack`` of a list appended to under a traced
    `if` or in a loop of run-time trip count take the list as its array of items, as
    hstack and vstack do; of no items, NumPy's ValueError."""
    check_against_numpy(kept_columns, np.array([[1.0, -1, 2], [3, 4, 5]]), jit=jit)
    check_against_numpy(polynomial_columns, np.arange(4.0), 3, jit=jit)
    x = np.arange(12.0).reshape(4, 3) - 4
    check_against_numpy(kept_numbers_and_blocks, x, jit=jit)
    with pytest.raises((ValueError, nptf.Error)):
        nptf.compile(kept_numbers_and_blocks, fallback="raise")(-np.ones((4, 3)))


def extremes_of_views(x):
    power = {f: x[f] * 2 for f in (0, 2, 3)}
    best = {"a": x.max(), "b": x.min() * 3}
    return (max(power, key=power.get), max(power.values()), min(best.values()),
            max(v for v in x[:3]), min(map(abs, [x[0], x[1]])), max(reversed(list(x[:2]))))


def test_min_and_max_of_dict_views_and_generators(jit):
    """``max(d.values())``, ``min(v for v in ...)``, of map or reversed: Python's items
    in Python's order, the first of the largest as the builtins keep it."""
    check_against_numpy(extremes_of_views, np.array([3.0, 1.0, 4.0, 1.0, 5.0]), jit=jit)
    check_against_numpy(extremes_of_views, np.array([2.0, 2.0, -4.0, 7.0, 0.0]), jit=jit)


def _history_of_lists(X, y, lr=0.1, tol=1e-6):
    w = np.zeros(X.shape[1])
    history = []
    it, err = 0, np.inf
    while err > tol and it < 500:
        g = X.T @ (X @ w - y) / len(y)
        w -= lr * g
        err = float(np.linalg.norm(g))
        history.append([it, err])
        it += 1
    total = 0.0
    for k, e in history:
        total += k * e
    last = history[-1]
    return w, np.array(history), history[:3], total, type(last) is list, last


def _appended_row_kept_elsewhere(x):
    h, keep = [], [0, 0.0]
    v = 1.0
    for k in range(40):
        v = v * 0.5 + x[k % 3]
        row = [k, v]
        h.append(row)
        keep = row
    keep[0] = -1                    # changes h[-1] too, in Python
    return np.array(h)


def _appended_row_changed_after(x, tol):
    h, v, k = [], 1.0, 0
    while v > tol:
        v = v * 0.5 + x[0] * 0
        row = [k, v]
        h.append(row)
        row[0] = -k                 # changes the item just appended, in Python
        k += 1
    return np.array(h)


def test_lists_of_numbers_appended_in_a_loop_of_run_time_length():
    # ``history.append([it, err])`` in a `while`: rows of one array, handed back and read
    # as the lists of numbers they are.
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = check_against_numpy(_history_of_lists, X, X @ np.array([1.0, 2.0, 3.0]))
    assert type(got[2][0]) is list and type(got[2][0][0]) is int


def test_a_list_appended_and_changed_or_kept_elsewhere_is_python_s(tmp_path):
    x = np.array([0.5, 1.0, 2.0])
    check_against_numpy(_appended_row_kept_elsewhere, x)      # runs unrolled
    # A row changed after it is appended: Python runs the loop for the trip count the
    # call's data give (a graph for each; no step: NumPy's empty float64 array). One
    # graph for all data cannot: under an input_signature NumPy runs it; export refuses it.
    for tol in (1e-3, 0.3, 2.0, 1e-3):
        check_against_numpy(_appended_row_changed_after, x, tol)
    signature = [nptf.Spec((3,)), nptf.Spec(())]
    with pytest.warns(RuntimeWarning, match="runs with NumPy"):
        got = nptf.compile(_appended_row_changed_after, input_signature=signature)(x, 1e-3)
    np.testing.assert_array_equal(got, _appended_row_changed_after(x, 1e-3))
    with pytest.raises(nptf.UnsupportedError, match="changing a list after appending it"):
        nptf.export(_appended_row_changed_after, tmp_path / "m", nptf.Spec((3,)), 1e-3)


class _Tracker:
    def __init__(self, start):
        self.total = start * 0.0
        self.log = []

    def step(self, v, limit):
        if np.sum(v) > limit:
            self.total = self.total + 1.0
        else:
            self.total = self.total * 0.5
        self.log.append(self.total)
        return self.total


def tracked_in_two_loops(a, b, n, limit):
    tracker = _Tracker(a[0, 0])
    for _ in range(9):          # a graph loop: the log becomes a list the data grow
        tracker.step(a, limit)
    for i in range(n):          # appended to again, a loop of run-time length
        tracker.step(b[i % 4], limit)
    for _ in range(3):
        tracker.step(a[:2], limit)
    return np.array(tracker.log), tracker.total


def recorded_by_a_helper(x, n):
    hist = []

    def record(v):
        hist.append(v)
    for i in range(9):
        if x[i] > 0:
            record(x[i])
    for i in range(n):
        record(x[i % 9] * 2)
    return np.array(hist)


def test_a_list_grown_by_one_loop_and_appended_to_by_the_next(jit):
    """A method appends to ``self.log`` (a nested helper to its enclosing function's
    ``hist``) in a graph loop, which makes it a list the data grow; a later loop
    appending to it again carries it too (the graph read the first loop body's values
    after the loop: TensorFlow could not build it)."""
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=(4, 4)), rng.normal(size=(4, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # "runs without XLA"
        for n, limit in ((np.int64(5), 0.0), (np.int64(0), 1.0), (np.int64(11), -0.5)):
            check_against_numpy(tracked_in_two_loops, a, b, n, limit, jit=jit)
            check_against_numpy(recorded_by_a_helper, rng.normal(size=9), n, jit=jit)


def partition_order(A, n):
    order = []
    for i in range(n):
        if A[i, i] > 0.5:
            order.insert(0, i)          # constant states first (QuantEcon's lss)
        else:
            order.append(i)
    P = np.zeros((n, n))
    P[range(n), order] = 1
    return P, A[order], A[order, 0], A[:, order]


def selected_rows_written(A):
    rows = []
    for i in range(A.shape[0]):
        if A[i, 0] > 0.5:
            rows.append(i)
    B = A.copy()
    B[rows] = 0
    B[rows, 1] += 1
    np.add.at(B, (rows, 2), 5.0)
    return B


@pytest.mark.parametrize("n", [3, 12])
def test_a_list_the_data_grow_indexes_writes(n, jit):
    """A list of positions appended to (or inserted into) under a traced `if` indexes a
    write as the array NumPy makes of it, as it indexes a read."""
    A = np.random.default_rng(n).random((n, n))
    check_against_numpy(partition_order, A, n, jit=jit)
    check_against_numpy(selected_rows_written, A, jit=jit)
    check_against_numpy(selected_rows_written, np.zeros((n, 3)), jit=jit)


def compared_with_empty(x):
    out = []
    for i in range(len(x)):
        if x[i] > 1:
            out.append(i)
    big = [v for v in x[x > 2]]
    return out == [], out != [], big == [], big != [], out == ()


@pytest.mark.parametrize("x", [np.array([0.0, 2.0, 3.0]), np.array([0.0, 0.5]),
                               np.arange(12.0)])
def test_a_list_compared_with_an_empty_list(x):
    """``out == []`` of a list the data grow (or build): whether it is empty; a list is
    never equal to a tuple."""
    check_against_numpy(compared_with_empty, x)
