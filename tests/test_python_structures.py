"""Python structure around NumPy code, as other people write it: classes defined and
used inside the function (private ``__methods`` too), closures, recursion, generators,
``try``/``except`` around NumPy calls. Each compiled and checked against NumPy."""
from __future__ import annotations

import functools
import itertools
import math
import operator
import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy


# ------------------------------------------------ classes inside the function
def portfolio(r, w):
    class Portfolio:
        def __init__(self, r, w):
            self.r, self.w = r, w

        def ret(self):
            out = self.r @ self.w
            if out.mean() > 0:          # a traced condition inside a method
                out = out * 2
            return out

        def __risk(self):               # a private name: Python mangles it in the class
            return np.std(self.ret())

        def risk(self):
            return self.__risk()

    p = Portfolio(r, w)
    return p.ret(), p.risk()


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_a_class_defined_in_the_function_with_private_methods(sign, jit):
    r = np.random.default_rng(0).normal(size=(6, 3))
    check_against_numpy(portfolio, r * sign, np.array([0.2, 0.3, 0.5]), jit=jit)


# ------------------------------------------------ nested functions behind wrappers
def through_lru_cache(x):
    @functools.lru_cache(maxsize=None)
    def g(n):
        if n == 0:                      # a return inside an `if`
            return x[0]
        total = 0
        for k in range(n):
            total += g(k)
        return total
    return g(3)


def through_partial_and_wraps(x):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*a):
            return fn(*a)
        return wrapper

    def sign_of(i):
        if x[i] > 6:                    # traced
            return x[i]
        return -x[i]

    @deco
    def pick(n):
        for k in range(n, 3):
            if x[k] > 2:
                return x[k]
        return x[0] * 0

    return functools.partial(sign_of)(2), functools.partial(sign_of)(1), pick(0), pick(2)


def loops_in_nested_functions(x):
    def first_above(t):
        i = -1
        for i in range(len(x)):
            if x[i] > t:
                break
        return i

    def positive_sum():
        s = 0.0
        for v in x:
            if v < 0:
                continue
            s += v
        return s
    return first_above(1.5), first_above(100.0), positive_sum()


@pytest.mark.parametrize("fn", [through_lru_cache, through_partial_and_wraps,
                                loops_in_nested_functions])
@pytest.mark.parametrize("x", [[10.0, 30.0, 5.0], [1.0, -2.0, 8.0]])
def test_nested_functions_return_break_and_continue_as_python_does(fn, x, jit):
    """A nested function runs as converted with the function around it (a wrapper such as
    ``lru_cache`` calls it as it is): its `return` inside an `if` returns, its `break` and
    `continue` leave its own loops."""
    check_against_numpy(fn, np.array(x), jit=jit)


# ------------------------------------------------ closures that change enclosing variables
def collect_positive(x, n):
    leaves = []

    def visit(i):
        if x[i] > 0:                    # traced: the list's length follows the data
            leaves.append(x[i])
    for i in range(n):
        visit(i % len(x))
    return np.array(leaves), len(leaves)


@pytest.mark.parametrize("n", [4, 12])
@pytest.mark.parametrize("x", [[1.0, -2.0, 3.0, 4.0], [-1.0, -2.0, -3.0, 4.0]])
def test_a_closure_appends_under_a_traced_condition(x, n, jit):
    check_against_numpy(collect_positive, np.array(x), n, jit=jit)


def count_calls(x, n):
    calls = 0
    acc = np.zeros_like(x)

    def halve(w):
        nonlocal calls, acc
        calls += 1
        acc = acc + w
        return w * 0.5
    for _ in range(n):                  # a graph loop past 8 iterations
        x = halve(x)
    return x, acc, calls


@pytest.mark.parametrize("n", [5, 12])
def test_nonlocal_rebinding_in_a_loop_counts_every_iteration(n, jit):
    check_against_numpy(count_calls, np.array([1.0, 2.0, 3.0]), n, jit=jit)


def test_nonlocal_rebinding_of_a_variable_outside_the_compiled_function():
    """The compiled function's helper rebinds a variable of the function that made it: each
    call changes it as NumPy's run does (the function runs with NumPy; under
    fallback="raise" nptf refuses it)."""
    def make():
        total = 0

        def outer(x):
            def bump():
                nonlocal total
                total += 1
            for _ in range(12):
                bump()
                x = x * 0.5
            return x
        return outer, lambda: total

    outer, total = make()
    f = nptf.compile(outer)
    with pytest.warns(RuntimeWarning, match="total"):
        got = f(np.array([1.0, 2.0]))
    assert np.array_equal(got, np.array([1.0, 2.0]) * 0.5 ** 12)
    assert total() == 12
    f(np.array([1.0, 2.0]))
    assert total() == 24
    with pytest.raises(nptf.Error, match="total"):
        nptf.compile(make()[0], fallback="raise")(np.array([1.0]))


# ------------------------------------------------ methods of the user's own classes
class Scaler:
    def __init__(self, data, robust=False):
        scale = data.std()
        if scale < 1:                   # a traced condition in __init__
            scale = 1.0
        self.scale = float(scale)
        self.center = float(np.median(data)) if robust else float(np.mean(data))

    def transform(self, data):
        return self.__shifted(data) / math.sqrt(self.scale)

    def __shifted(self, data):          # private: self.__shifted is self._Scaler__shifted
        return data - self.center


class Tracker:
    """A subclass whose constructor is its parent's."""

    def __init__(self):
        self.best = -math.inf
        self.count = 0

    def update(self, v):
        self.best = max(self.best, float(v))
        self.count += 1
        return self


class CountingTracker(Tracker):
    def total(self):
        return self.count * 2


def scale_and_track(x):
    s = Scaler(x, robust=True)
    t = CountingTracker()
    for v in s.transform(x)[:5]:
        t.update(v)
    return s.transform(x), t.best, t.total()


@pytest.mark.parametrize("x", [[1.0, 2.0, 6.0, -3.0, 4.0], [0.1, 0.2, 0.3, 0.2, 0.1]])
def test_methods_and_constructors_of_module_classes_are_converted(x, jit):
    """``math.sqrt``/``float()`` of traced numbers and a traced ``if`` inside a method or
    ``__init__`` of the user's own class compile as in a plain function."""
    check_against_numpy(scale_and_track, np.array(x), jit=jit)


# ------------------------------------------------ filter, map, accumulate, reduce with the user's functions
def rows_kept_by_filter(X):
    rows = list(filter(lambda row: row.sum() > 0, X))     # traced: the data choose the rows

    def big(v):
        if v > 2:
            return True
        return False
    flat = X.ravel()
    kept = list(filter(big, flat))
    return (len(rows), np.array(rows).sum(), np.array(kept), sum(filter(lambda v: v < 0, flat)),
            list(map(lambda v: v * 2 if v > 0 else -v, flat)), sum(map(abs, flat)),
            list(filter(lambda k: k % 2 == 0, range(6))), next(filter(lambda k: k > 2, [1, 5, 7])),
            list(itertools.accumulate(flat, max)), list(itertools.accumulate(flat, func=min)),
            list(itertools.accumulate(flat[:3], lambda a, b: a * 0.5 + b if b > 0 else a,
                                      initial=1.0)),
            functools.reduce(max, flat), functools.reduce(lambda a, b: a * 2 + b, flat, 1.0),
            functools.reduce(math.gcd, (X * 4).astype(np.int64).ravel().tolist()))


@pytest.mark.parametrize("X", [[[1.0, -3.0], [2.0, 2.0], [-1.0, 0.5]], [[-1.0, -3.0], [2.5, 2.0]],
                               [[4.0, 3.0], [2.5, 2.0], [1.0, 0.5]]])
def test_filter_and_map_call_the_user_s_functions_on_traced_items(X, jit):
    check_against_numpy(rows_kept_by_filter, np.array(X), jit=jit)


# ------------------------------------------------ sorted() of array items and pairs by a key
def sorted_by_keys(x):
    pairs = sorted(zip(range(len(x)), x), key=operator.itemgetter(1))
    ranked = sorted(enumerate(x), key=lambda p: -p[1])
    return ([i for i, _ in pairs], [v for _, v in pairs], sorted(x, key=abs),
            sorted(x, key=lambda v: (v - 1.0) ** 2, reverse=True), [i for i, _ in ranked[:2]],
            sorted(map(abs, x), key=lambda v: -v))


@pytest.mark.parametrize("x", [[3.0, -1.0, 2.0, 5.0], [1.0, -1.0, 1.0, 0.0], [-2.0, 2.0, -0.0, 0.0]])
def test_sorted_takes_the_items_of_arrays_zip_and_enumerate_by_a_traced_key(x, jit):
    """Python's stable sort by traced keys: equal keys keep their order."""
    check_against_numpy(sorted_by_keys, np.array(x), jit=jit)


def arrays_from_iterators(x):
    return (np.fromiter(itertools.accumulate(x), dtype=float),
            np.fromiter((v * 2 for v in x), np.float32, count=3),
            np.fromiter(map(abs, x), dtype=np.int64), np.fromiter(range(4), int))


@pytest.mark.parametrize("x", [[3.0, -1.0, 2.0, 5.0], [0.5, 1.5, -2.5, 0.0]])
def test_fromiter_of_traced_items(x, jit):
    check_against_numpy(arrays_from_iterators, np.array(x), jit=jit)


def sum_of_picked(b, x):
    picked = []
    for i in range(4):
        if b[i] > x:                    # traced: a list the data grow
            picked.append(b[i])
    return sum(picked), sum(picked, 100)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.int64, np.float32])
def test_python_sum_of_a_grown_list_keeps_the_items_dtype(dtype, jit):
    """``0 + np.int8(3)`` is int8 in NumPy 2 (Python's int is weak): Python's sum of NumPy
    scalars keeps their dtype, and wraps as they do."""
    b = np.array([100, 7, 120, 90], dtype=dtype)
    check_against_numpy(sum_of_picked, b, 5, jit=jit)


# ------------------------------------------------ functools caches in graph loops and branches
def cached_in_a_loop(c, n):
    @functools.lru_cache(maxsize=None)
    def twice(m):
        return c[m] * 2.0
    s = 0.0
    for _ in range(12):                 # past 8 iterations: a graph loop unless unrolled
        s = s + twice(n)
    return s + twice(n)                 # the value cached in the loop's first step


def cached_in_a_branch(c, n):
    @functools.cache
    def twice(m):
        return c[m] * 2.0
    s = 0.0
    if c[0] > 0.5:                      # traced: the cache would hold one path's value
        s = twice(n)
    return s + twice(n)


@pytest.mark.filterwarnings("ignore:nptf. the loop")
def test_an_lru_cache_filled_in_a_loop_body_runs_the_loop_unrolled(jit):
    """A cached function's first call in a loop body stores a value of the body's graph:
    the loop runs unrolled, so the cache holds the first step's value as NumPy's does."""
    check_against_numpy(cached_in_a_loop, np.array([1.0, 2.0, 3.0]), 1, jit=jit)


def test_an_lru_cache_filled_under_a_traced_if_holds_the_value_of_the_path_taken():
    """The cache would hold one path's value in a graph of both: the trace assumes a path,
    which the graph checks."""
    for c in (np.array([1.0, 2.0, 3.0]), np.array([0.0, 2.0, 3.0])):
        check_against_numpy(cached_in_a_branch, c, 1)


# ------------------------------------------------ properties and operators of the user's classes
class Stats:
    def __init__(self):
        self.n, self.mean, self.m2 = 0, 0.0, 0.0

    def push(self, x):                  # Welford's update
        self.n = self.n + 1
        mean = self.mean + (x - self.mean) / self.n
        self.m2, self.mean = self.m2 + (x - self.mean) * (x - mean), mean

    @property
    def variance(self):                 # a property: Python calls it, not converted code
        return self.m2 / (self.n - 1) if self.n > 1 else 0.0

    @property
    def std(self):
        return math.sqrt(self.variance)


class Vec:
    def __init__(self, *xs):
        self.v = np.array(xs, dtype=float)

    def __add__(self, other):
        return Vec(*(self.v + other.v))

    def __rmul__(self, k):              # 2 * w
        return Vec(*(k * self.v))

    def __abs__(self):
        return float(np.sqrt(self.v @ self.v))     # float() of a traced number

    def __matmul__(self, other):
        return float(self.v @ other.v)

    def __getitem__(self, i):
        return self.v[i] if self.v[i] > 0 else 0.0  # a traced if


def running_stats(x):
    rs = Stats()
    for v in x:
        rs.push(v)
    return rs.mean, rs.variance, rs.std


def vector_ops(a, b):
    u, w = Vec(*a), Vec(*b)
    s = u + 2 * w
    return s.v, abs(u), (u @ w) / (w @ w) * w[0], u[1]


@pytest.mark.parametrize("x", [[1.0, 4.0, 2.0, 8.0], [3.0]])
def test_properties_of_the_user_s_class_run_converted(x, jit):
    check_against_numpy(running_stats, np.array(x), jit=jit)


@pytest.mark.parametrize("b", [[1.0, -2.0, 0.5], [-1.0, 2.0, 3.0]])
def test_operators_of_the_user_s_class_run_converted(b, jit):
    check_against_numpy(vector_ops, np.array([0.5, 3.0, -1.0]), np.array(b), jit=jit)


def test_the_user_s_classes_are_left_as_they_were_after_a_trace():
    members = dict(vars(Vec)), dict(vars(Stats))
    a, b = np.array([0.5, 3.0, -1.0]), np.array([1.0, -2.0, 0.5])
    nptf.compile(vector_ops, fallback="raise")(a, b)
    nptf.compile(running_stats, fallback="raise")(a)
    assert (dict(vars(Vec)), dict(vars(Stats))) == members


# ------------------------------------------------ attributes a training loop rebinds
class LogisticRegression:
    def __init__(self, lr=0.1, n_iters=1000):
        self.lr, self.n_iters = lr, n_iters
        self.weights, self.bias = None, None

    def fit(self, X, y):
        n_samples, n_features = X.shape
        self.weights = np.zeros(n_features)
        self.bias = 0                       # a Python int the first step makes a float
        for _ in range(self.n_iters):       # a graph loop carrying self.weights, self.bias
            pred = 1 / (1 + np.exp(-(X @ self.weights + self.bias)))
            self.weights -= self.lr * (X.T @ (pred - y)) / n_samples
            self.bias -= self.lr * np.sum(pred - y) / n_samples
        return self

    def predict(self, X):
        return (X @ self.weights + self.bias > 0).astype(int)


class Newton:
    def __init__(self, x0):
        self.x, self.steps = x0, 0

    def run(self, a, tol):
        while abs(self.x * self.x - a) > tol:   # a traced condition on an attribute
            self.x = 0.5 * (self.x + a / self.x)
            self.steps += 1
        return self.x


def train_logistic(X, y, n_iters):
    m = LogisticRegression(n_iters=n_iters).fit(X, y)
    return m.weights, m.bias, m.predict(X)


def newton_sqrt(a):
    solver = Newton(a[0] + 1.0)
    return solver.run(a[0], 1e-12), solver.steps


@pytest.mark.parametrize("n_iters", [1000, 3])
def test_attributes_a_training_loop_rebinds_are_loop_variables(n_iters, jit):
    """``self.weights -= ...`` in ``for _ in range(self.n_iters)``: the graph loop
    carries the attributes (a loop of 1,000 steps unrolled before, past the compile
    budget at 10,000)."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((60, 3))
    check_against_numpy(train_logistic, X, (X[:, 0] > 0).astype(float), n_iters, jit=jit,
                        static_argnames=["n_iters"])


@pytest.mark.parametrize("a", [2.0, 9.0])
def test_attributes_a_while_loop_on_the_data_rebinds(a, jit):
    check_against_numpy(newton_sqrt, np.array([a]), jit=jit)


def test_a_training_loop_of_many_steps_stays_one_graph_loop():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((40, 2))
    f = nptf.compile(train_logistic, fallback="raise", static_argnames=["n_iters"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no "runs unrolled" warning
        got = f(X, (X[:, 1] > 0).astype(float), 20000)
    want = train_logistic(X, (X[:, 1] > 0).astype(float), 20000)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-9)


class Perceptron:
    def __init__(self, lr=0.1, epochs=20):
        self.lr, self.epochs = lr, epochs

    def fit(self, X, y):
        self.w, self.b, self.errors = np.zeros(X.shape[1]), 0.0, 0
        for _ in range(self.epochs):
            for xi, yi in zip(X, y):
                if yi * (xi @ self.w + self.b) <= 0:    # a traced if rebinding attributes
                    self.w = self.w + self.lr * yi * xi
                    self.b += self.lr * yi
                    self.errors += 1
        return self


def train_perceptron(X, y):
    p = Perceptron().fit(X, y)
    return p.w, p.b, p.errors


def positive_total(x):
    class Acc:
        pass
    a = Acc()
    a.total, a.n = 0.0, 0
    for v in x:
        if v > 0:
            a.total += v
            a.n += 1
    return a.total, a.n


def test_attributes_a_traced_if_rebinds_in_nested_loops(jit):
    rng = np.random.default_rng(2)
    X = rng.standard_normal((30, 2))
    check_against_numpy(train_perceptron, X, np.where(X[:, 0] + 0.3 * X[:, 1] > 0, 1.0, -1.0),
                        jit=jit)
    check_against_numpy(positive_total, np.array([0.5, -1.0, 2.0] * 4), jit=jit)


class LinearRegressionGD:
    def __init__(self, lr=0.05, n_iters=500):
        self.lr, self.n_iters = lr, n_iters
        self.losses = []

    def fit(self, X, y):
        self.w = np.zeros(X.shape[1])
        for _ in range(self.n_iters):
            err = X @ self.w - y
            self.losses.append(np.mean(err ** 2))     # a list attribute the loop grows
            self.w -= self.lr * X.T @ err / len(y)
        return self


def train_with_history(X, y):
    m = LinearRegressionGD().fit(X, y)
    return m.w, m.losses[-1], len(m.losses), m.losses[:3]


def test_a_list_attribute_a_training_loop_appends_to_grows_in_the_graph_loop(jit):
    rng = np.random.default_rng(3)
    X = rng.standard_normal((50, 3))
    with warnings.catch_warnings():
        warnings.filterwarnings("error", ".*runs unrolled")   # one graph loop, not 500 steps
        check_against_numpy(train_with_history, X, X @ np.array([1.0, -2.0, 0.5]), jit=jit)


def _cached_in_a_retried_loop(b, c, k, n, x):
    @functools.lru_cache(maxsize=None)
    def h(mm, th=0.5):
        if b.reshape(-1)[mm % 9] < 0:
            return float(c[0])
        return th * 0.5

    bk = [[] for _ in range(3)]
    nres = 0.0
    for _ in range(16):             # a graph loop tried first, then unrolled: one miss left
        c[0] += h(0, th=0.25) * 0.1
    for i in range(k[0]):           # a trip count known only at run time
        nres += h(n % 5, 1.5)       # a miss inside the body, traced twice:
        bk[int(np.sum(b) > x) - 1].append(float(c[i % 24]))   # a table typed by its append
    return nres, [len(v) for v in bk]


def test_a_cache_a_retried_loop_body_fills_is_python_s_for_the_data_s_trip_count(tmp_path):
    # A graph loop cannot fill the cache on each iteration: Python runs the loop for the
    # trip count the call's data give (a graph for each), which one graph cannot.
    for seed, trips in ((0, 4), (1, 5), (2, 6), (0, 4)):
        rng = np.random.default_rng(seed)
        check_against_numpy(_cached_in_a_retried_loop, rng.standard_normal((3, 3)),
                            rng.random(24), np.array([trips]), 7, 0.5)
    with pytest.raises(nptf.UnsupportedError, match="cache|dict key"):
        nptf.export(_cached_in_a_retried_loop, tmp_path / "m", nptf.Spec((3, 3)),
                    nptf.Spec((24,)), nptf.Spec((1,), np.int64), 7, 0.5)


def _cached_in_nested_loops(c, n, x):
    @functools.lru_cache(maxsize=None)
    def h(mm, th=0.5):
        if np.mean(c[:mm + 1]) > x:
            return float(c[0])
        return c[1] * th

    for _ in range(n):
        c[0] += h(2) * 0.1
    for i in range(n):
        for j in range(n):
            c[j % 24] += h(2, 1.5) * 0.1
    return c


def test_a_cache_another_statement_s_snapshot_cleared_is_seen_filled_again():
    # A loop inside a loop: the inner statement's snapshot clears the cache its trace
    # filled, and the outer one's, taken when the cache had one miss, sees it filled
    # again by one miss: a change all the same (the loops then run unrolled).
    args = (np.linspace(-1, 1, 24), 9, -0.4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = nptf.compile(_cached_in_nested_loops, fallback="raise")(np.copy(args[0]),
                                                                      *args[1:])
    np.testing.assert_allclose(got, _cached_in_nested_loops(np.copy(args[0]), *args[1:]))


# ------------------------------------------------ recursion the data end
def quicksort_by_masks(a):
    if a.size <= 1:                     # a size the data choose: a traced test
        return a
    pivot = a[a.size // 2]
    return np.concatenate((quicksort_by_masks(a[a < pivot]), a[a == pivot],
                           quicksort_by_masks(a[a > pivot])))


def flood_fill(grid, r, c, new):
    grid = grid.copy()
    old = grid[r, c]

    def fill(i, j):
        if i < 0 or i >= grid.shape[0] or j < 0 or j >= grid.shape[1]:
            return
        if grid[i, j] != old:           # traced: the recursion runs until the data stop it
            return
        grid[i, j] = new
        fill(i + 1, j)
        fill(i - 1, j)

    fill(r, c)
    return grid


def halvings(x):
    if x < 1.0:
        return 0
    return 1 + halvings(x / 2)          # not a tail call: the addition follows it


@pytest.mark.parametrize("fn, name, inputs", [
    (quicksort_by_masks, "quicksort_by_masks",
     [(np.array([5, 1, 4, 1, 3, 9, 2]),), (np.array([2, 2, 8, 0, 1, 7, 3]),)]),
    (flood_fill, "fill", [(np.array([[1, 1, 0], [1, 0, 0], [1, 1, 1]]), 0, 0, 7),
                          (np.array([[1, 0, 0], [1, 1, 0], [0, 1, 1]]), 0, 0, 7)]),
    (halvings, "halvings", [(np.float64(37.0),), (np.float64(0.5),), (np.float64(37.0),)]),
], ids=["quicksort", "flood_fill", "halvings"])
def test_a_recursion_only_the_data_end_follows_the_data(fn, name, inputs, tmp_path):
    """The `if` around the recursive call takes the path the call's data take (a graph
    for each): the recursion ends where the data end it. One graph for all data would
    trace it forever: export refuses it when the call repeats (not when the compile
    budget runs out), with the user's line."""
    for args in inputs:
        check_against_numpy(fn, *args)
    specs = [nptf.Spec(np.shape(a), np.asarray(a).dtype) if isinstance(a, np.ndarray) else a
             for a in inputs[0]]
    with pytest.raises(nptf.UnsupportedError, match=f"`{name}` calls itself inside an `if`") \
            as info:
        nptf.export(fn, tmp_path / "m", *specs)
    assert __file__ in str(info.value)


def _backtrack(s, sols):
    for (x, y), v in np.ndenumerate(s):
        if v == 0:
            for p in range(1, 4):
                if p not in s[x, :]:
                    s[x, y] = p
                    _backtrack(s, sols)       # its arguments a list and an array it writes
                    s[x, y] = 0
            return
    sols.append(s.copy())


def backtracking_search(s):
    sols = []
    _backtrack(s, sols)
    return sols


def test_a_recursion_past_pythons_limit_while_tracing_is_refused():
    """A recursion whose calls the trace cannot tell apart (a list, an array it writes)
    goes past Python's recursion limit: nptf's error with the user's line, never Python's
    RecursionError; NumPy runs it by default."""
    s = np.array([[1, 0, 3], [2, 3, 1]])
    with pytest.raises(nptf.UnsupportedError, match="recursion limit") as info:
        nptf.compile(backtracking_search, fallback="raise")(s.copy())
    assert __file__ in str(info.value)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        got = nptf.compile(backtracking_search)(s.copy())
    np.testing.assert_array_equal(got, backtracking_search(s.copy()))


def bisect_root(coeffs, lo, hi, tol=1e-6):
    mid = (lo + hi) / 2
    if hi - lo < tol:
        return mid
    if np.sign(np.polyval(coeffs, lo)) == np.sign(np.polyval(coeffs, mid)):
        return bisect_root(coeffs, mid, hi, tol)
    return bisect_root(coeffs, lo, mid, tol)


def euclid(a, b):
    if b == 0:
        return a
    return euclid(b, a % b)


def gcds(x, y):
    return euclid(x[0], y[0]), euclid(int(x[1]), int(y[1]))


def binary_search(a, t):
    def search(lo, hi):
        if lo > hi:
            return -1
        mid = (lo + hi) // 2
        if a[mid] == t:
            return mid
        elif a[mid] < t:
            return search(mid + 1, hi)
        return search(lo, hi=mid - 1)
    return search(0, len(a) - 1)


def newton_cube_root(c, x=1.0, steps=0):
    x_new = x - (x ** 3 - c) / (3 * x ** 2)
    if abs(x_new - x) < 1e-12 or steps > 60:
        return x_new, steps
    return newton_cube_root(c, x_new, steps + 1)


def never_ends(x):
    if x > 1e300:
        return x
    return never_ends(x * 1.0)


def test_a_recursion_of_tail_calls_the_data_end_is_a_graph_loop(jit):
    """``return f(...)`` as the only calls of itself (bisection, Euclid, a binary search,
    Newton's method): a loop whose condition the data give, as the recursion's end; the
    arguments bind as the call binds them. Deeper than Python's recursion limit, NumPy's
    run raises RecursionError."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        check_against_numpy(bisect_root, np.array([1.0, 0.0, -2.0]), 0.0, 2.0, jit=jit)
        check_against_numpy(gcds, np.array([48, 18]), np.array([180, 75]), jit=jit)
        for t in (21, 22, -5):
            check_against_numpy(binary_search, np.arange(0, 40, 3), t, jit=jit)
        check_against_numpy(newton_cube_root, np.float64(27.0), jit=jit)
        with pytest.raises(RecursionError):
            nptf.compile(never_ends, jit_compile=jit)(np.float64(2.0))
    with pytest.raises(nptf.OutsideTheGraphError, match="recursion limit"):
        nptf.compile(never_ends, fallback="raise", jit_compile=jit)(np.float64(2.0))


def simpson_adaptive(f_vals, a, b, eps, depth):
    """A recursion with a Python depth bound under a traced test: it compiles."""
    m = (a + b) / 2
    whole = (b - a) / 6 * (f_vals(a) + 4 * f_vals(m) + f_vals(b))
    left = (m - a) / 6 * (f_vals(a) + 4 * f_vals((a + m) / 2) + f_vals(m))
    right = (b - m) / 6 * (f_vals(m) + 4 * f_vals((m + b) / 2) + f_vals(b))
    if depth == 0 or abs(left + right - whole) < 15 * eps:
        return left + right
    return (simpson_adaptive(f_vals, a, m, eps / 2, depth - 1) +
            simpson_adaptive(f_vals, m, b, eps / 2, depth - 1))


def integrate(c):
    return simpson_adaptive(lambda t: np.exp(c * t), 0.0, 1.0, 1e-9, 3)


@pytest.mark.parametrize("c", [0.5, 3.0])
def test_a_recursion_bounded_by_a_python_number_compiles(c, jit):
    check_against_numpy(integrate, np.float64(c), jit=jit)


# ------------------------------------------------ handlers the data choose
def cholesky_with_jitter(K):
    try:
        L = np.linalg.cholesky(K)
    except np.linalg.LinAlgError:         # not positive definite: a check decides
        L = np.linalg.cholesky(K + 1e-3 * np.eye(len(K)))
    return L


def ratios_or_zero(a, b):
    total = 0.0
    for k in range(len(a)):
        try:
            total += float(a[k]) / float(b[k])
        except ZeroDivisionError:
            total -= 1.0
    return total


def ratios_in_a_graph_loop(a, b):
    total = 0.0
    for k in range(20):                   # past unrolling: the `try` is in a loop body
        try:
            total += float(a[k % 4]) / float(b[k % 4])
        except ZeroDivisionError:
            total -= 1.0
    return total


def first_error_wins(a, b, i):
    r = 5.0
    try:
        s = float(a.sum())
        r = float(a[i]) / float(b[0])     # the index is checked before the division
        s = s + r
    except IndexError:
        s = -1.0
    except ZeroDivisionError:
        s = -2.0
    return r, s


def inverse_or_pinv_each(mats):
    out = []
    for M in mats:
        try:                              # the list grows on both paths, as the data choose
            out.append(np.linalg.inv(M))
        except np.linalg.LinAlgError:
            out.append(np.linalg.pinv(M))
    return out


def handler_reads_the_error(a, b):
    try:
        r = float(a[0]) / float(b[0])
    except ZeroDivisionError as e:
        r = len(str(e))
    return r


@pytest.mark.parametrize("fn, args", [
    (cholesky_with_jitter, (np.array([[2.0, 1.0], [1.0, 2.0]]),)),
    (cholesky_with_jitter, (np.array([[0.0, 0.0], [0.0, 1.0]]),)),
    (ratios_or_zero, (np.array([1.0, 2.0, 3.0]), np.array([1.0, 0.0, 2.0]))),
    (ratios_or_zero, (np.array([1.0, 2.0, 3.0]), np.array([1.0, 4.0, 2.0]))),
    (ratios_in_a_graph_loop, (np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.0, 0.0, 2.0, 1.0]))),
    (first_error_wins, (np.array([1.0, 2.0]), np.array([2.0, 3.0]), np.int64(1))),
    (first_error_wins, (np.array([1.0, 2.0]), np.array([0.0, 3.0]), np.int64(1))),
    (first_error_wins, (np.array([1.0, 2.0]), np.array([0.0, 3.0]), np.int64(5))),
    (inverse_or_pinv_each, ([np.array([[2.0, 1.0], [1.0, 3.0]]),
                             np.array([[1.0, 2.0], [2.0, 4.0]]), np.eye(2)],)),
], ids=["cholesky", "cholesky_jitter", "ratios_zero", "ratios", "graph_loop", "no_error",
        "division", "index_first", "list_grown"])
def test_a_handler_the_data_choose_is_taken_by_the_graph(fn, args, jit):
    """An error a check finds when the graph runs (a division by zero, an index out of
    bounds, a matrix not positive definite), inside a `try` whose handler catches it:
    the graph runs the handler where NumPy's run would, after the statements before the
    one that raises, and nothing of that statement."""
    check_against_numpy(fn, *args, jit=jit)


def test_a_handler_that_reads_the_error_runs_numpy():
    a, b = np.array([1.0]), np.array([0.0])
    with pytest.raises(nptf.OutsideTheGraphError, match="try/except"):
        nptf.compile(handler_reads_the_error, fallback="raise")(a, b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert nptf.compile(handler_reads_the_error)(a, b) == handler_reads_the_error(a, b)
