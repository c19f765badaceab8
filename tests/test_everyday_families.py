"""Families of constructs from everyday NumPy code, each checked against NumPy through
the public API: errors raised under an `if` on traced values, `return None` on one
path, `np.gradient` with a traced spacing, `ndarray.flat`, `np.ndenumerate` and
`np.nditer`, and NumPy functions given a Python list of traced values."""
from __future__ import annotations

import math
import warnings
from unittest import mock

import numpy as np
import pytest
import tensorflow as tf

import nptf
from harness import check_against_numpy, mismatch


# ------------------------------------------------ raise under a traced condition
def eliminate(A, b):
    # Gaussian elimination with partial pivoting, as exercise collections write it
    A = A.astype(float).copy()
    b = b.astype(float).copy()
    n = len(b)
    for k in range(n - 1):
        p = np.argmax(np.abs(A[k:, k])) + k
        if A[p, k] == 0:
            raise ValueError("matrix is singular")
        if p != k:
            A[[k, p]] = A[[p, k]]
            b[[k, p]] = b[[p, k]]
        for i in range(k + 1, n):
            factor = A[i, k] / A[k, k]
            A[i, k:] -= factor * A[k, k:]
            b[i] -= factor * b[k]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - np.dot(A[i, i + 1:], x[i + 1:])) / A[i, i]
    return x


def checked_steps(x):
    for i in range(12):                # a graph loop
        if x[i] < 0:
            raise ArithmeticError("negative step")
        x = x * 1.5
    return x


class TooLarge(Exception):
    pass


def own_error(x):
    if x.sum() > 10:
        raise TooLarge("sum past 10")
    return x * 2


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_an_error_raised_under_a_traced_condition_is_raised_when_the_data_take_it(jit):
    A = np.array([[2.0, 1, 1], [4, 3, 3], [8, 7, 9]])
    check_against_numpy(eliminate, A, np.array([1.0, 2, 3]), jit=jit)
    check_against_numpy(eliminate, np.zeros((3, 3)), np.ones(3), jit=jit)      # ValueError
    check_against_numpy(checked_steps, np.ones(12), jit=jit)
    check_against_numpy(checked_steps, np.r_[np.ones(5), -1.0, np.ones(6)], jit=jit)


def test_an_error_of_the_users_own_class_runs_numpy():
    f = nptf.compile(own_error)
    assert np.array_equal(f(np.ones(3)), 2 * np.ones(3))
    with pytest.warns(RuntimeWarning, match="runs with NumPy"), pytest.raises(TooLarge):
        f(np.ones(30))
    with pytest.raises(nptf.OutsideTheGraphError, match="raises TooLarge"):
        nptf.compile(own_error, fallback="raise")(np.ones(30))


def checked_sqrt(x, lo=0.0):
    if x.min() < lo:
        raise ValueError("value %g below %g" % (x.min(), lo))
    return np.sqrt(x)


def test_an_error_whose_message_formats_traced_values():
    # The message needs the data's values: where the data take that path, NumPy's run
    # raises the error with its message.
    check_against_numpy(checked_sqrt, np.ones(3))
    with pytest.raises(nptf.OutsideTheGraphError, match="raises ValueError"):
        nptf.compile(checked_sqrt, fallback="raise")(-np.ones(3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match="value -1 below 0"):
            nptf.compile(checked_sqrt)(-np.ones(3))


# ------------------------------------------------ return None on one path
def root_or_none(a):
    if a.sum() > 0:
        return None
    return a * 2


def pair_or_none(a):
    if a.sum() > 0:
        return None
    return a * 2, a.sum()


def list_or_none(a):
    if a.sum() > 0:
        return None
    if a[0] > -5:
        return [a * 2, a * 3]
    return a, a


def test_a_return_of_none_under_a_traced_condition():
    for a in (np.ones(2), -np.ones(2)):
        check_against_numpy(root_or_none, a)
        check_against_numpy(pair_or_none, a)
    # None on one path, a list or a tuple on the others: a graph per path the data take.
    compiled = nptf.compile(list_or_none, fallback="raise")
    for a in (np.ones(2), -np.ones(2), np.array([-9.0, 1.0]), np.ones(2)):
        assert mismatch(list_or_none(a), compiled(a)) is None
    assert compiled.cache_info().traces <= 3
    with pytest.raises(nptf.Error, match="test_everyday_families"):
        nptf.export(list_or_none, "unused", nptf.Spec((2,)))


# ------------------------------------------------ np.gradient, ndarray.flat
def derivatives(f, h):
    return np.gradient(f, h), np.gradient(f, h, edge_order=2)


def nearest_and_flat_writes(Z, z):
    # 100 NumPy exercises #61: the value nearest to z
    nearest = Z.flat[np.abs(Z - z).argmin()]
    W = Z.copy()
    W.flat[[0, 2]] = -1.0
    return nearest, Z.flat[1:4], W, np.array([v * 2 for v in Z[0].flat]), len(Z.flat)


def ctypes_of(Z):
    return Z.ctypes


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_gradient_with_a_traced_spacing_and_flat(jit):
    f = np.arange(6.0) ** 2
    for h in (0.3, np.float64(0.5), np.array(2.0)):
        check_against_numpy(derivatives, f, h, jit=jit)
    check_against_numpy(nearest_and_flat_writes, np.arange(6.0).reshape(2, 3), 2.2, jit=jit)


def test_an_ndarray_attribute_nptf_does_not_trace_is_an_nptf_error():
    with pytest.raises(nptf.UnsupportedAttributeError, match="ndarray.ctypes") as caught:
        nptf.compile(ctypes_of, fallback="raise")(np.ones(2))
    assert isinstance(caught.value, AttributeError)     # hasattr() sees it as missing
    assert type(caught.value).__module__ == "nptf.errors"


def structured_mean_weight(ages, weights):
    data = np.zeros(len(ages), dtype={"names": ("age", "weight"), "formats": ("i4", "f8")})
    data["age"] = ages
    data["weight"] = weights
    return data["weight"][data["age"] < 30].mean()


def label_of_max(x):
    return np.array(["low", "mid", "high"])[x.argmax()]


@pytest.mark.parametrize("fn, args", [(structured_mean_weight, ([25, 45, 19], [55.0, 85.5, 61.5]))])
def test_arrays_of_structured_dtypes_made_inside_run_numpy(fn, args):
    with pytest.raises(nptf.UnsupportedError, match="dtype .* is not supported by nptf"):
        nptf.compile(fn, fallback="raise")(*args)
    with pytest.warns(RuntimeWarning, match="runs with NumPy"):
        assert nptf.compile(fn)(*args) == fn(*args)


def test_a_label_of_text_read_where_the_data_say():
    check_against_numpy(label_of_max, np.array([1.0, 3.0, 2.0]))


# ------------------------------------------------ generators defined inside
def from_generators(x, n):
    def generate():
        for k in range(n):
            yield k
    def pairs(v):
        i = 0
        while i < n:
            if i % 2 == 0:
                yield v[i], v[i + 1]
            i += 1
    total = 0.0
    for a, b in pairs(x):
        total += a * b
    return np.fromiter(generate(), dtype=float, count=-1), total, list(pairs(x))


def from_a_generator_on_the_data(x):
    def positives():
        for v in x:
            if v > 0:
                yield v
    return sum(positives())


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_generators_defined_inside_run_as_python_iterates_them(jit, tmp_path):
    check_against_numpy(from_generators, np.arange(6.0), 4, jit=jit)
    # A generator whose items the data choose: the items the call's data give (a graph
    # for each choice), which one graph for all data cannot take.
    for x in ([1.0, -2.0], [-1.0, 2.0], [3.0, 2.0]):
        check_against_numpy(from_a_generator_on_the_data, np.array(x), jit=jit)
    with pytest.raises(nptf.TracerConversionError):
        nptf.export(from_a_generator_on_the_data, tmp_path / "m", nptf.Spec((2,)))


# ------------------------------------------------ np.repeat with traced counts
def repeated_by_counts(C, X):
    return (np.repeat(np.arange(len(C)), C), np.repeat(X, C, axis=0), X.repeat(C[:3] > 0, axis=1),
            np.repeat(X, C[:1]))


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_repeat_with_counts_known_only_at_run_time(jit):
    X = np.arange(12.0).reshape(4, 3)
    for C in ([0, 2, 1, 3], [0, 0, 0, 0], [1, -1, 2, 0]):
        check_against_numpy(repeated_by_counts, np.array(C), X, jit=jit)
    check_against_numpy(repeated_by_counts, np.array([1, 2, 3, 0], np.uint8), X, jit=jit)
    check_against_numpy(repeated_by_counts, np.array([1.0, 2.0, 3.0, 0.0]), X, jit=jit)


# ------------------------------------------------ np.ndenumerate
def enumerated(Z, v):
    total = 0
    for index, value in np.ndenumerate(Z):
        total += index[0] * value
    cells = 0
    for index in np.ndindex(Z.shape):
        if Z[index] > 0.5:
            cells += 1
    return total, cells, list(np.ndenumerate(v)), list(np.ndenumerate(v.sum()))


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_ndenumerate_of_traced_arrays(jit):
    check_against_numpy(enumerated, np.arange(6.0).reshape(2, 3) / 5, np.array([1, 2]), jit=jit)


# ------------------------------------------------ np.nditer
def numerical_gradient(x, df, h=1e-5):
    # a course assignment's gradient check: an iterator over the argument it perturbs
    grad = np.zeros_like(x)
    it = np.nditer(x, flags=["multi_index"], op_flags=["readwrite"])
    while not it.finished:
        ix = it.multi_index
        old = x[ix]
        x[ix] = old + h
        pos = (np.tanh(x) * x).copy()
        x[ix] = old - h
        neg = (np.tanh(x) * x).copy()
        x[ix] = old
        grad[ix] = np.sum((pos - neg) * df) / (2 * h)
        it.iternext()
    return grad


def iterated(a, b):
    out = a.copy()
    for x in np.nditer(out, op_flags=["readwrite"]):
        x[...] = 2 * x + 1
    products = [u * v for u, v in np.nditer([a, b])]     # broadcast operands
    it = np.nditer(a, flags=["c_index"])
    flat = [it.index for _ in it]
    with np.nditer(a.T, flags=["multi_index", "f_index"]) as walk:    # memory order
        order = [(walk.multi_index, walk.index) for _ in walk]
    return out, products, flat, order


def iterator_writes_a_read_only_operand(a):
    for x in np.nditer(a):
        x[...] = 0
    return a


def test_nditer_over_traced_arrays():
    # The iterator is walked while tracing: what it emits is ordinary indexing, the same
    # for both executors.
    check_against_numpy(numerical_gradient, np.arange(4.0).reshape(2, 2) / 7, np.ones((2, 2)))
    check_against_numpy(iterated, np.arange(6.0).reshape(2, 3), np.array([1.0, 2.0, 3.0]))
    check_against_numpy(iterator_writes_a_read_only_operand, np.ones(3))
    with pytest.raises(nptf.Error, match="external_loop"):
        nptf.compile(lambda a: [x.sum() for x in np.nditer(a, flags=["external_loop"])],
                     fallback="raise")(np.ones(3))


# ------------------------------------------------ max/min with key=
def best_by_key(x, X):
    d = {i: x[i] * 2 for i in range(len(x))}
    rows = [X[0], X[1], X[2]]
    return (max(range(len(x)), key=lambda i: x[i]), max(d, key=d.get), min(d, key=d.get),
            max([1, 2.5, x[0]], key=lambda v: v * x[1]), max(rows, key=lambda r: r.sum()),
            min([3, 1, 2], key=lambda v: -v), max([], key=len, default=-1))


def best_label(x):
    scores = {"a": x[0], "b": x[1]}
    return max(scores, key=scores.get)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_max_and_min_with_a_key_of_traced_values(jit):
    """The first item of the largest (smallest) key, as Python's builtins choose it."""
    X = np.arange(6.0).reshape(3, 2)[::-1]
    for x in ([0.5, 1.0, 0.5], [5.0, -1.0, 2.0], [np.nan, 1.0, 3.0], [2.0, np.nan, 2.0]):
        check_against_numpy(best_by_key, np.array(x), X, jit=jit)
    with pytest.raises(nptf.UnsupportedError, match="not numbers of one dtype"):
        nptf.compile(best_label, fallback="raise")(np.array([1.0, 2.0]))


# ------------------------------------------------ lists of traced values
def cross_validated(X, y, alphas):
    best_alpha, best_err = 0.0, np.inf
    for alpha in alphas:
        errs = []
        for k in range(3):
            test = np.arange(len(y)) % 3 == k
            w = np.linalg.solve(X[~test].T @ X[~test] + alpha * np.eye(X.shape[1]),
                                X[~test].T @ y[~test])
            errs.append(np.mean((X[test] @ w - y[test]) ** 2))
        err = np.mean(errs)
        if err < best_err:
            best_err, best_alpha = err, alpha
    return best_alpha, best_err, np.std(errs), np.max(errs), np.argmin([best_err, err])


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_numpy_functions_take_python_lists_of_traced_values(jit):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(30, 3))
    y = X @ np.array([1.0, -2.0, 0.5]) + 0.1 * rng.normal(size=30)
    check_against_numpy(cross_validated, X, y, (0.01, 1.0, 10.0), jit=jit)


# ------------------------------------------------ return of a tuple inside a long loop
def power_iteration(A, max_iter, tol):
    b = np.ones(A.shape[0])
    lam_old = 0.0
    for i in range(max_iter):
        b = A @ b
        b = b / np.linalg.norm(b)
        lam = b @ A @ b
        if abs(lam - lam_old) < tol:
            return lam, b, i
        lam_old = lam
    return lam, b, max_iter


def first_negative(x):
    for i in range(len(x)):
        if x[i] < 0:
            return i, x[i], [x[:2] * 2, 1.5]
    return -1, 0.0, [x[:2], 0.5]


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_tuple_returned_inside_a_long_loop_keeps_a_graph_loop(jit):
    A = np.array([[2.0, 1.0], [1.0, 3.0]])
    f = nptf.compile(power_iteration, jit_compile=jit, fallback="raise")
    for tol in (1e-10, -1.0):           # returns inside the loop; runs to the end
        check_against_numpy(power_iteration, A, 1000, tol, jit=jit)
    assert "while" in str(f.trace(A, 1000, 1e-10))      # one graph loop, not 1,000 copies
    check_against_numpy(first_negative, np.r_[1.0, 2.0, -3.0, np.arange(9.0)], jit=jit)
    check_against_numpy(first_negative, np.arange(12.0), jit=jit)


# ------------------------------------------------ the last, shorter minibatch
def minibatch_descent(X, y, epochs, batch=16, lr=0.1):
    w = np.zeros(X.shape[1])
    n = len(y)
    for epoch in range(epochs):
        for start in range(0, n, batch):
            Xb, yb = X[start:start + batch], y[start:start + batch]
            w -= lr * Xb.T @ (Xb @ w - yb) / len(yb)
    return w


def window_sums(x):
    out = np.zeros(20)
    for i in range(20):
        out[i] = x[i:i + 4].sum()
    return out


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_slices_a_loop_takes_past_the_end_have_numpys_length(jit):
    """``X[i:i + batch]`` in a graph loop over ``range(0, n, batch)``: the last batch is
    shorter, as in NumPy (it stopped the graph with OutsideTheGraphError)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 3))
    y = X @ np.array([1.0, -1.0, 2.0])
    for epochs in (3, 20):       # the inner loop a graph loop, then the outer one
        check_against_numpy(minibatch_descent, X, y, epochs, jit=jit)
    for n in (30, 22):           # the windows stay inside; the last ones reach past
        check_against_numpy(window_sums, np.arange(float(n)), jit=jit)


# ------------------------------------------------ an int sentinel, float gains
def information_gain(x, t):
    m = x > t
    if m.all() or not m.any():
        return 0.0
    return np.var(x) - np.var(x[m])


def best_split(x):
    best_gain, best_thr = -1, 0.0
    for thr in np.unique(x):
        g = information_gain(x, thr)
        if g > best_gain:
            best_gain, best_thr = g, thr
    return best_gain, best_thr


def big_or_float(x, n):
    v = int(n[0])                     # a Python int known only at run time
    if x.sum() > 0:
        v = x.sum()
    return v


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_python_int_known_at_run_time_meets_a_float_on_the_other_path(jit):
    """A Python int known only at run time on one path of an `if` and a float64 on the
    other: float64 holds it exactly (checked when the graph runs), so the call hands back
    the path's own type; an int float64 does not hold runs NumPy."""
    check_against_numpy(best_split, np.array([1.0, 3, 2, 5, 4, 4, 9]), jit=jit)
    check_against_numpy(best_split, np.array([2.0, 2.0]), jit=jit)     # stays -1
    check_against_numpy(big_or_float, -np.ones(3), np.array([5]), jit=jit)
    f = nptf.compile(big_or_float, jit_compile=jit)
    with pytest.warns(RuntimeWarning, match="does not hold exactly"):
        got = f(-np.ones(3), np.array([2 ** 60 + 1]))
    assert got == 2 ** 60 + 1 and type(got) is int


# ------------------------------------------------ writes in nested loops with continue
def damped_updates(a, b, c, n):
    # the loop-program family: a `continue` on the graph loop's index, an inner loop
    # writing one argument through a subscript and another in place
    for i in range(14):
        if i % 4 == 1:
            continue
        a[::2] -= 0.1 * a[::2]
        a[i % 6] += np.where(a.sum() * 0.01 > 0, n, c[i])
        for ii in range(3):
            b[...] = b / (1.0 + np.abs(n))
            if ii % 3 == 0:
                a[...] = (a / (1.0 + np.abs(a)) + b[::-1])
            else:
                a -= 0.1 * (np.cos(a) * np.roll(b, 1))
    return a


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_writes_under_continue_around_an_inner_loop(jit):
    rng = np.random.default_rng(5)
    check_against_numpy(damped_updates, rng.normal(size=6), np.arange(6, dtype=np.int32),
                        rng.normal(size=24).astype(np.float32), -0.681, jit=jit)


# ------------------------------------------------ quantiles at traced q
def bootstrap_interval(x, alpha):
    means = np.array([x[i:i + 5].mean() for i in range(6)])
    lo, hi = np.percentile(means, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return (lo, hi, np.quantile(x, alpha),
            np.percentile(x.astype(np.float32), [alpha * 100, 50.0]),
            np.nanpercentile(x, alpha * 100, method="lower"))


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_quantiles_at_q_known_only_at_run_time(jit):
    x = np.linspace(0, 3, 12) ** 2
    for alpha in (0.1, 0.5, 1.5, -0.1):     # the last two: NumPy's ValueErrors
        check_against_numpy(bootstrap_interval, x, alpha, jit=jit)


# ------------------------------------------------ rows read at a traced index
def write_through_rows(M):
    for i in range(12):               # a graph loop: i is traced
        row = M[i]
        row[0] = i * 10.0             # writes into M in NumPy
    return M


def write_through_selected_rows(M):
    S = M[M[:, 1] > 0]
    for r in S:
        r[0] = -1.0
    return S


def row_read_before_a_write(M):
    total = 0.0
    for i in range(12):
        row = M[i]
        M[i, 0] = -7.0                # the row sees it, as a view does
        total = total + row[0]
    return total


def augmented_rows(M):
    for i in range(12):
        M[i] -= 0.5 * M[i].mean()
        M[i, ...] *= 2.0
    return M


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_rows_read_at_a_traced_index_are_views(jit):
    """``row = M[i]`` is a view of M in NumPy. Reads see later writes into M; writes
    through the row land in M (they were lost once: a silent wrong answer); ``M[i] -= v``
    assigns the value back."""
    M = np.arange(36.0).reshape(12, 3)
    check_against_numpy(row_read_before_a_write, M, jit=jit)
    check_against_numpy(augmented_rows, M, jit=jit)
    check_against_numpy(write_through_rows, M, jit=jit)
    check_against_numpy(write_through_selected_rows, M - 10.0, jit=jit)


def confusion_by_rows(y_true, y_pred, n):
    cm = np.zeros((n, n), dtype=int)
    for i in range(len(y_true)):
        cm[y_true[i]][y_pred[i]] += 1         # cm[t] is a view; += writes through it
    return cm


def svm_columns(X, y, n_classes):
    dW = np.zeros((X.shape[1], n_classes))
    for i in range(X.shape[0]):
        dW[:, y[i]] -= X[i]                   # the key reads y: a view at a traced int
        dW[:, (y[i] + 1) % n_classes] += X[i]
    return dW


def rows_changed_in_place(M, idx):
    for i in idx:
        M[i].sort()
        np.multiply(M[i], 2.0, out=M[i])
        row = M[i]
        row[row > 5] = 0.0
        sub = row[1:3]
        sub[:] = sub * -1.0
        M[:, i][0] = 100.0 + i
    for i in idx:
        np.copyto(M[i - 3], np.arange(4.0))   # negative ints wrap
        M[i].fill(i)
    return M


def depth_three(T, idx):
    for n in range(len(idx)):
        T[idx[n]][idx[n - 1]][1] += 1.0
    return T


def row_past_the_end(M, idx):
    for i in idx:
        M[i + 3][1] = 1.0
    return M


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_writes_through_parts_read_at_a_traced_int(jit):
    """``cm[t][p] += 1``, ``dW[:, y[i]] -= x``, ``M[i].sort()``, ``np.copyto(M[i], v)``:
    the part read at a traced int is NumPy's view, and a write through it (or through a
    view of it) lands in the array; an int past the end raises NumPy's IndexError."""
    y_true, y_pred = np.array([0, 1, 2, 2, 1, 0, 2]), np.array([0, 2, 2, 1, 1, 0, 0])
    check_against_numpy(confusion_by_rows, y_true, y_pred, 3, jit=jit)
    X = np.arange(28.0).reshape(7, 4) / 7
    check_against_numpy(svm_columns, X, y_true, 3, jit=jit)
    M = np.array([[3.0, -1.0, 8.0, 2.0], [0.5, 7.0, -2.0, 1.0], [4.0, 4.0, 9.0, -3.0]])
    check_against_numpy(rows_changed_in_place, M, np.array([2, 0, 2]), jit=jit)
    check_against_numpy(depth_three, np.zeros((3, 3, 2)), np.array([0, 2, 1, 2]), jit=jit)
    check_against_numpy(row_past_the_end, M, np.array([1, 0]), jit=jit)


# ------------------------------------------------ isinstance, type, try/except
def doubled_if_array(x):
    if isinstance(x, np.ndarray):
        return x * 2
    return x


def kinds_seen(x):
    s = x.sum()
    f = float(s)
    return (isinstance(s, np.floating), isinstance(f, float), type(x) is np.ndarray,
            type(s) is np.float64, isinstance(f, (int, np.ndarray)))


def inverse_or_none(A):
    try:
        return np.linalg.inv(A)
    except np.linalg.LinAlgError:
        return None


def ratio_or_zero(a, b):
    try:
        return a / b
    except ZeroDivisionError:
        return 0.0


def first_or_default(x, i):
    try:
        v = x[i]
    except IndexError:
        v = -1.0
    return v * 2


def labelled_or_fallback(x):
    # An array's strides cannot be traced: that is nptf's refusal (an AttributeError too),
    # not an error of the user's code for the `except` to handle.
    try:
        return "total " * x.strides[0]
    except Exception:
        return "none"


def test_isinstance_and_type_see_numpy_s_classes():
    check_against_numpy(doubled_if_array, np.ones(3))
    check_against_numpy(kinds_seen, np.ones(3))


def ratio_or_zero_printed(a, b):
    try:
        print("ratio", a / b)
        r = a / b
    except ZeroDivisionError:
        r = 0.0
    return r


@pytest.mark.parametrize("adaptive", [False, True])
def test_errors_the_function_handles_run_numpy_where_the_data_raise_them(adaptive):
    """The handler an error the data raise reaches runs in the graph where a check finds
    the error (a singular matrix, a division by zero, an index out of bounds); where the
    statement that raises does more than the graph can trace twice (it prints), the call
    runs with NumPy, which takes the handler."""
    for fn, args in [(inverse_or_none, (np.eye(2),)), (inverse_or_none, (np.zeros((2, 2)),)),
                     (ratio_or_zero, (1.0, 2.0)), (ratio_or_zero, (1.0, 0.0)),
                     (first_or_default, (np.arange(3.0), 1)),
                     (first_or_default, (np.arange(3.0), 7))]:
        check_against_numpy(fn, *args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for fn, args in [(ratio_or_zero_printed, (1.0, 0.0))]:
            compiled, want = nptf.compile(fn, adaptive=adaptive), fn(*args)
            for _ in range(3):
                got = compiled(*args)
                assert type(got) is type(want) and got == want
            with pytest.raises(nptf.OutsideTheGraphError, match="try/except"):
                nptf.compile(fn, fallback="raise")(*args)


def test_a_broad_except_does_not_take_nptf_s_refusals_for_the_user_s_errors():
    x = np.arange(3.0)
    with pytest.raises(nptf.UnsupportedAttributeError, match="strides"):
        nptf.compile(labelled_or_fallback, fallback="raise")(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert nptf.compile(labelled_or_fallback)(x) == labelled_or_fallback(x)


def as_lists(X):
    rows = X.tolist()
    return [max(r) for r in rows], rows, float(sum(X[0].tolist())), X[0, 0].tolist()


def test_tolist_gives_python_numbers():
    check_against_numpy(as_lists, np.arange(6.0).reshape(2, 3))
    check_against_numpy(as_lists, np.arange(6, dtype=np.int32).reshape(2, 3))


# ------------------------------------------------ argsort of data with ties
def ranks(x):
    return x.argsort().argsort() + 1


def top_k(x, k=7):
    return np.argpartition(x, -k)[-k:], np.partition(x, [2, 40], axis=-1)


@pytest.mark.parametrize("jit", [False, True])
def test_argsort_of_ties_and_partitions_give_numpy_s_own_arrangement(jit):
    """NumPy's default-kind argsort of equal elements and its partitions' elements off kth
    are its implementation's arrangement: at these sizes not the stable sort's."""
    rng = np.random.default_rng(0)
    with_ties = rng.integers(0, 5, 1000)
    assert not np.array_equal(np.argsort(with_ties), np.argsort(with_ties, kind="stable"))
    floats = rng.standard_normal((3, 500))
    assert not np.array_equal(np.partition(floats, 2), np.sort(floats))
    for x in (with_ties, with_ties[:18], rng.permutation(18), with_ties.astype(np.float32),
              np.where(with_ties == 2, np.nan, with_ties)):
        check_against_numpy(ranks, x, jit=jit)
        check_against_numpy(lambda x: np.argsort(x, kind="stable"), x, jit=jit)
    for x in (floats, with_ties.reshape(10, 100), floats.astype(np.float16)):
        check_against_numpy(top_k, x, jit=jit)


def test_an_exported_argsort_refuses_ties_it_cannot_order_as_numpy(tmp_path):
    nptf.export(ranks, tmp_path / "model", nptf.Spec((None,), np.int64))
    serve = tf.saved_model.load(str(tmp_path / "model")).signatures["serving_default"]
    distinct = np.random.default_rng(1).permutation(50)
    np.testing.assert_array_equal(serve(x=tf.constant(distinct))["output_0"], ranks(distinct))
    with pytest.raises(tf.errors.InvalidArgumentError, match="ties"):
        serve(x=tf.constant(np.arange(50) % 7))


# ------------------------------------------------ sorted() of traced values
def top_three(x):
    return sorted(x)[-3:]


def upper_median(x):
    s = sorted(x, reverse=True)
    return s[len(s) // 2]


def sorted_positives(x):
    return np.array(sorted([v for v in x if v > 0]))


def test_sorted_of_traced_values():
    x = np.random.default_rng(0).normal(size=9)
    for fn in (top_three, upper_median, sorted_positives):
        check_against_numpy(fn, x)
    check_against_numpy(top_three, np.array([3, 1, 2, 2]))
    with_nan = np.array([1.0, np.nan, 0.5, 2.0])
    with pytest.raises(nptf.OutsideTheGraphError, match="NaN"):
        nptf.compile(top_three, fallback="raise")(with_nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert str(nptf.compile(top_three)(with_nan)) == str(top_three(with_nan))


def sorted_by_keys(d, e):
    order = sorted(range(len(d)), key=lambda i: d[i])
    pairs = [(d[i], e[i]) for i in range(len(d))]
    by_second = sorted(pairs, key=lambda p: p[1], reverse=True)
    pairs.sort(key=lambda p: p[0])
    return order, by_second, pairs


def extremes_of_arrays(x, y):
    return (max(x), min(x), max(y), min(y), max(x[x > 0]), max(x.astype(np.int32)),
            min(x > 2), max(np.abs(x)) / 2)


def test_max_and_min_of_a_traced_array_compare_its_elements_as_python_does(jit):
    """Python's max()/min() of a 1-d array: its elements in order, the first of the largest
    (-0.0 and 0.0 in their order), a NaN first kept and a NaN later passed over; Python's
    ValueError where the array is empty."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # NaN to int32
        for x in (np.array([3.0, -1.0, 5.0, 5.0, 0.0]), np.array([np.nan, 2.0, 1.0]),
                  np.array([2.0, np.nan, 7.0, -0.0, 0.0])):
            check_against_numpy(extremes_of_arrays, x, np.array([-0.0, 0.0]), jit=jit)
    with pytest.raises(ValueError, match="empty"):
        nptf.compile(lambda x: max(x[x > 100]), fallback="raise", jit_compile=jit)(np.ones(3))


def bits_to_rule(grid, rule):
    new = np.zeros(grid.shape[0], bool)
    for row in range(1, grid.shape[0] - 1):
        new[row] = rule[int("".join(map(lambda b: str(int(b)), grid[row - 1:row + 2])), 2)]
    return new


def test_int_of_text_made_of_traced_values_with_a_base_is_the_data_s_number(tmp_path):
    # The number the call's data's text says (a graph for each); one graph cannot have it.
    rule = [bool(i % 3) for i in range(8)]
    for grid in ([0, 1, 1, 1, 0], [1, 0, 1, 0, 0], [0, 1, 1, 1, 0]):
        check_against_numpy(bits_to_rule, np.array(grid, bool), rule)
    with pytest.raises(nptf.TracerConversionError, match=r"int\(\.\.\., base\) of text"):
        nptf.export(bits_to_rule, tmp_path / "m", nptf.Spec((5,), np.bool_), rule)


def test_sorted_by_traced_keys_is_stable_as_python_s_sort():
    """sorted(..., key=...) and list.sort(key=...) of Python lists by traced keys: Python's
    order, equal keys (-0.0 and 0.0 too) in their order, with reverse=True as well; a NaN
    key, whose place depends on where Python's sort starts, runs NumPy."""
    f = nptf.compile(sorted_by_keys, fallback="raise")
    d = np.array([3.0, 1.0, 4.0, 1.0, 5.0, -0.0, 0.0, 3.0])
    for e in (d[::-1] * 2, np.array([2, 0, 1, 0, 2, 1, 1, 2.0])):
        assert repr(f(d, e)) == repr(sorted_by_keys(d, e))
    d[4] = np.nan
    with pytest.raises(nptf.OutsideTheGraphError, match="NaN"):
        f(d, e)


def principal_axes(X):
    # The eigenpairs sorted by eigenvalue, as PCA and LDA tutorials write it.
    eigen_vals, eigen_vecs = np.linalg.eigh(np.cov(X.T))
    eigen_pairs = [(np.abs(eigen_vals[i]), eigen_vecs[:, i]) for i in range(len(eigen_vals))]
    eigen_pairs.sort(key=lambda k: k[0], reverse=True)
    w = np.hstack((eigen_pairs[0][1][:, np.newaxis], eigen_pairs[1][1][:, np.newaxis]))
    ranked = sorted([(v, vec, i) for i, (v, vec) in enumerate(eigen_pairs)],
                    key=lambda p: -p[0])
    return X.dot(w), eigen_pairs, ranked


def written_after_sorting(vals, vecs):
    pairs = [(vals[i], vecs[:, i]) for i in range(len(vals))]
    pairs.sort(key=lambda k: k[0])
    vecs[0, 0] = 100.0      # shows in pairs[...][1], a view of vecs, in NumPy's run
    return pairs


def test_tuples_holding_arrays_sorted_by_traced_keys():
    """Tuples of numbers and arrays (eigenvalue, eigenvector) sorted by traced keys: each
    place reordered at once. A write into an array that list holds, which would show in
    the other name in NumPy's run, is refused."""
    X = np.random.default_rng(0).normal(size=(30, 4)) @ np.diag([3.0, 1.0, 2.0, 0.5])
    check_against_numpy(principal_axes, X)
    with pytest.raises(nptf.UnsupportedError, match="ordered by traced keys"):
        nptf.compile(written_after_sorting, fallback="raise")(np.array([3.0, 1.0]), np.eye(2))


def sorted_tuples(d, e):
    records = list(zip(range(len(d)), d, e))
    by_age_then_score = sorted(records, key=lambda r: (r[2], -r[1]))
    named = [("b", 1), ("a", 2), ("b", 0)]
    by_name = sorted(range(3), key=lambda k: (named[k][0], d[named[k][1]]))
    return (sorted(zip(e, d)), sorted(zip(e, d), reverse=True),
            [r[0] for r in by_age_then_score], [i for i, _ in sorted(
                enumerate(d), key=lambda p: (-p[1], p[0]))], by_name,
            sorted([(int(v > 1), v) for v in d])[::3])


def extremes_of_tuples(d, e):
    nearest = min(zip(d, e))
    best = max((s, i) for i, s in enumerate(d))
    heaviest = max(zip(d, e), key=lambda t: t[1])
    return nearest, best, heaviest, min((abs(v - 2.0), i) for i, v in enumerate(d)), \
        max((e[0], d[0]), (e[1], d[1]), (e[2], d[2]))


def test_sorted_min_and_max_of_tuples_compare_as_python_s_tuples():
    """Tuples of traced numbers (items or keys) in Python's order: by their first unequal
    place, equal keys in their order (the first of the smallest or largest for min and
    max); Python strings as their places in Python's order; a NaN key runs NumPy."""
    d = np.array([3.0, 1.0, 4.0, 1.0, 5.0, -0.0, 0.0, 3.0])
    for e in (np.array([2, 0, 1, 0, 2, 1, 1, 2]), np.array([7, 7, 7, 7, 7, 7, 7, 7])):
        for fn in (sorted_tuples, extremes_of_tuples):
            check_against_numpy(fn, d, e)
    d[4] = np.nan
    for fn in (sorted_tuples, extremes_of_tuples):
        with pytest.raises(nptf.OutsideTheGraphError, match="NaN"):
            nptf.compile(fn, fallback="raise")(d, e)


# ------------------------------------------------ Python builtins on traced values
def compared_with_none(x):
    return x == None, x != None, x.sum() == None, x[0:1].reshape(()) == None   # noqa: E711


def rounded(x):
    s = x.sum()
    return (round(s), round(s, 1), round(float(x.mean())), round(int(x.argmax())),
            [round(v, 1) for v in x])


def copied(x):
    import copy
    y = copy.deepcopy(x)
    y[0] = 5.0
    return x, y, copy.copy(x) * 2, copy.copy(x.sum())


def test_python_builtins_on_traced_values_give_numpy_s_answers():
    x = np.array([1.25, 2.5, 3.75])
    for fn in (compared_with_none, rounded, copied):
        check_against_numpy(fn, x)
    for v in (x, x * 100):
        check_against_numpy(round_of_a_chosen_kind, v)
    with pytest.raises(TypeError, match="__round__"):       # NumPy's own error for arrays
        nptf.compile(round_array, fallback="raise")(x)
    with pytest.raises(TypeError, match="numpy.bool doesn't define __round__"):
        nptf.compile(round_numpy_bool, fallback="raise")(x)


def round_array(v):
    return round(v)


def round_numpy_bool(v):
    return round(v.sum() > 0)


def round_of_a_chosen_kind(x):
    best = 2.675                  # a Python float, or a NumPy scalar as the data choose
    if x.sum() > 100:
        best = x[0]
    return round(best, 2)


def round_python_floats(x):
    to_2, to_tens = np.zeros(len(x)), np.zeros(len(x))
    for i in range(len(x)):                 # a graph loop
        to_2[i] = round(float(x[i]), 2)
        to_tens[i] = round(float(x[i]), -1)
    return (to_2, to_tens, round(float(x[0]), 0), round(float(x[0]) * 1e12, 2),
            round(float(x[0]), 400), round(float(x[0]), -400), round(int(x[1]), -1),
            round(int(x[2]), -1), round(int(x[3]), -2), round(bool(x[4] > 0), -1))


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_round_of_a_python_float_rounds_its_exact_decimal_value(jit):
    """Python's round(float, n) rounds the float's exact decimal value half to even (2.675
    is below it in binary: 2.67, where NumPy's scaling gives 2.68), keeps the sign of a
    zero and NaN and infinities as they are; round(int, -n) is exact past float64's
    integers. Past 2**52 once scaled, a float not already rounded is refused."""
    r = np.random.default_rng(0)
    x = np.concatenate([[2.675, 25.0, 35.0, 2.0 ** 60 + 2.0 ** 10 * 150, 1.0, 1.005, 0.125,
                         -0.4, 1234.5, -2.5, -0.0, np.inf, np.nan, 1e300, 1e-300, 1e15 + 0.25],
                        r.integers(-10 ** 6, 10 ** 6, 100) / 1000 + 0.0005,
                        r.normal(size=100) * 10.0 ** r.integers(-6, 9, 100)])
    f = nptf.compile(round_python_floats, fallback="raise", jit_compile=jit)
    expected, got = round_python_floats(x), f(x)
    for e, g in zip(expected[:2], got[:2]):
        np.testing.assert_array_equal(g, e)
        assert np.array_equal(np.signbit(g), np.signbit(e))
    assert [(type(v), v) for v in got[2:]] == [(type(v), v) for v in expected[2:]]
    x[0] = 1e15 + 0.125
    with pytest.raises(nptf.OutsideTheGraphError, match="2\\*\\*52"):
        f(x)


# ------------------------------------------------ sum, min, max of generators that may be empty
def sums_of_generators(x, t):
    n = int(x[0])
    s = sum(x[i] for i in range(len(x)) if x[i] > t)      # the int 0 when none is
    return (s, s * 2, s + 1.5, sum(float(v) for v in x if v > t),
            sum((x[i] for i in range(n)), 0.0), sum(x[i] * x[i] for i in range(n)),
            min((v for v in x if v > t), default=-1), any(v > 5 for v in x if v > t),
            all(v > 5 for v in x if v > t))


def extremes_of_generators(x, t):
    return (min(x[i] for i in range(len(x)) if not x[i] >= t), max(v for v in x if not v >= t),
            min(int(v) for v in x if v < t), max(float(v) for v in x if v < t))


def test_sum_min_max_of_a_generator_that_may_be_empty():
    """Python's sum of no items is the int 0 (or its start), of NumPy scalars a NumPy
    scalar: a value whose kind the data choose. min/max keep the first of the smallest
    (a NaN first wins, a NaN later is passed over) and raise Python's ValueError on no
    items, unless given a default."""
    x = np.array([3.0, 1.0, 4.0, 1.5, 5.0, 9.0, 2.0])
    for t in (2.5, 100.0):
        check_against_numpy(sums_of_generators, x, t)
    check_against_numpy(sums_of_generators, np.array([0.0, 1.0]), 0.5)
    f = nptf.compile(extremes_of_generators, fallback="raise")
    for x in ([3.0, np.nan, 1.0, -0.0, 0.0, 1.0, 9.0], [np.nan, 2.0, 1.0], [0.0, -0.0, 7.0],
              [-0.0, 0.0, 1.0]):
        x = np.array(x)
        assert repr(f(x, 5.0)) == repr(extremes_of_generators(x, 5.0))
    with pytest.raises(ValueError, match="min\\(\\) arg is an empty sequence"):
        f(np.array([9.0, 8.0, 7.0]), 5.0)


# ------------------------------------------------ arrays of scalars
def arrays_of_scalars(a):
    return (np.asarray(np.sum(a)), np.array(a[0]), np.asarray(float(a.sum())),
            np.asarray(int(a[1])), np.array(np.sum(a), dtype=np.float32),
            np.asarray(round(np.sum(a), 1)))


def test_an_array_of_a_numpy_scalar_or_python_number_is_a_0d_array():
    for a in (np.arange(4, dtype=np.int32), np.arange(4.0)):
        check_against_numpy(arrays_of_scalars, a)


def test_dtypes_and_scalar_types_come_back_as_they_are(jit):
    def describe(x):
        return x * 2, x.dtype, x.dtype.type, np.float32, x.dtype.name, x.shape, None
    x = np.ones(3, np.float32)
    got = nptf.compile(describe, jit_compile=jit, fallback="raise")(x)
    expected = describe(x)
    np.testing.assert_array_equal(got[0], expected[0])
    assert got[1:] == expected[1:] and got[2] is np.float32


def _fit_kept_rows(X, y):
    keep = X[:, 0] > 0
    return np.linalg.lstsq(X[keep], y[keep], rcond=None)[0], np.polyfit(X[keep, 1], y[keep], 1)


def test_least_squares_of_rows_found_in_the_data():
    # The rows' number is known only when the graph runs (docs/compiling.md).
    rng = np.random.default_rng(0)
    check_against_numpy(_fit_kept_rows, rng.normal(size=(12, 2)), np.arange(12.0))


# ------------------------------------------------ a traced number `in` a set or a dict
HOLES = {5, 7, 11, 12}


def walk_the_grid(moves, holes=frozenset({5, 7, 11}), rewards={15: 1.0, 3: 0.5}):
    s, total, fell = 0, 0.0, 0
    for m in moves:
        s = int(np.clip(s + m, 0, 15))
        if s in holes or s in HOLES:                # a set of Python ints
            fell += 1
        if s in rewards:                            # a dict's keys
            total += 1.0 if s == 15 else 0.5
        if s not in rewards.values() and s in {1: "a", "b": 2}:
            total -= 0.25
    return s, total, fell


def test_a_traced_number_in_a_set_or_a_dict_is_a_traced_bool():
    """``state in holes`` for a set of Python ints, a dict's keys or values: each
    number of the container compared in the graph (strings and tuples never equal a
    number). It raised "a traced value as a dict key or set element"."""
    for moves in ([1, 4, 1, 4, 1, 4], [3, 4, 4, 4, -9, 1], [2, 2, 2, 2, 2, 2, 2, 2]):
        check_against_numpy(walk_the_grid, np.array(moves))


# ------------------------------------------------ reversed(range(n)), n traced
def discounted_returns(rewards, gamma=0.9):
    kept = rewards[rewards != 0]                    # a length known only at run time
    G = np.zeros(len(kept))
    running = 0.0
    for t in reversed(range(len(kept))):
        running = running * gamma + kept[t]
        G[t] = running
    evens = [int(kept[i] > 0) for i in reversed(range(0, len(kept), 2))]
    return G, running, sum(evens)


def test_reversed_range_of_a_run_time_length_is_a_graph_loop(jit):
    """``for t in reversed(range(len(x)))`` over a length the data give (an RL return's
    backward pass): the range backwards, of traced bounds. It raised "using a traced
    array as a Python index or size"."""
    for r in (np.array([0.0, 1.0, 0.0, -1.0, 2.0, 0.5]), np.array([0.0, 0.0, -2.0]),
              np.array([1.0, 3.0])):
        check_against_numpy(discounted_returns, r, jit=jit)


# ------------------------------------------------ a Python float that decides a size
def blur(img, sigma=1.0):
    r = int(3 * sigma)                              # the kernel's radius from a float
    x = np.arange(-r, r + 1)
    k = np.exp(-x ** 2 / (2 * sigma ** 2))
    k /= k.sum()
    p = np.pad(img, r, mode="reflect")
    return np.array([np.convolve(row, k, mode="valid") for row in p[r:-r]])


def test_python_floats_that_decide_a_size_key_the_graph_by_their_value():
    """A Python float argument is traced (one graph serves every value); where tracing
    with it traced fails (here it decides a pad width), calls are keyed by the float's
    value instead: a graph per value, up to 16 values (3 here), then NumPy for new ones,
    with one warning."""
    img = np.random.default_rng(0).random((9, 8))
    f = nptf.compile(blur, fallback="raise")
    for sigma in (1.0, 0.5, 1.5, 1.0):
        np.testing.assert_allclose(f(img, sigma), blur(img, sigma), rtol=1e-12)
    assert f.cache_info().traces == 4       # the traced float's, then one per value
    check_against_numpy(blur, img)
    g = nptf.compile(blur)
    with warnings.catch_warnings(record=True) as said, \
            mock.patch("nptf.runtime.compiled._VALUE_KEYED_GRAPHS", 3):
        warnings.simplefilter("always")
        for sigma in np.linspace(0.5, 2.5, 5):
            np.testing.assert_allclose(g(img, float(sigma)), blur(img, float(sigma)),
                                       rtol=1e-12)
    assert [str(w.message) for w in said if "new values of its float" in str(w.message)]
    assert g.cache_info().fallbacks >= 1


def init_and_forward(X, layer_dims, scales):
    """A network's layer sizes in a list (``layer_dims = [2, 5, 3, 1]``), and a list of
    floats deciding a size: traced, they would be sizes only the graph knows."""
    np.random.seed(1)
    A = X
    for l in range(1, len(layer_dims)):
        W = np.random.randn(layer_dims[l], layer_dims[l - 1]) / np.sqrt(layer_dims[l - 1])
        b = np.zeros((layer_dims[l], 1))
        A = np.maximum(W @ A + b, 0)
    cost = np.squeeze(A.sum(axis=1, keepdims=True).T @ np.ones((layer_dims[-1], 1)))
    width = int(2 * scales[0])
    return cost, np.convolve(X[0], np.ones(width) / width, "same") * scales[1]


def per_axis_blur(img, sigma):
    """A tuple of floats, one per axis, that decides which axes and how wide."""
    out = img
    for axis, s in enumerate(sigma):
        if s > 1e-15:
            r = int(3 * s)
            k = np.exp(-np.arange(-r, r + 1) ** 2 / (2 * s * s))
            k /= k.sum()
            out = sum(np.roll(out, j, axis=axis) * k[j + r] for j in range(-r, r + 1))
    return out


def reverses_its_sizes(X, layer_dims):
    k = int(layer_dims[0])
    layer_dims.reverse()
    return X[:k] * 2


def test_lists_of_numbers_that_decide_a_size_key_the_graph_by_their_numbers():
    """A list of numbers is traced as an array; where tracing fails with it traced (its
    numbers are sizes), calls are keyed by its numbers, each of its type, as floats are."""
    X = np.random.default_rng(1).random((2, 7))
    f = nptf.compile(init_and_forward, fallback="raise")
    for dims, scales in [([2, 5, 3, 1], [1.5, 2.0]), ([2, 4, 1], [1.5, 2.0]),
                         ([2, 5, 3, 1], [1.5, 2.0]), ([2, 5, 3, 1], [2.0, 2.0])]:
        got, want = f(X, dims, scales), init_and_forward(X, dims, scales)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-12)
    # The traced lists' per list length (2), then one per value (3).
    assert f.cache_info().traces == 5
    check_against_numpy(init_and_forward, X, [2, 3, 1], [1.0, 0.5])
    img = np.random.default_rng(2).random((9, 8))
    for sigma in [(2.0, 1.0), (0.0, 1.5), (1.0, 0.0)]:
        check_against_numpy(per_axis_blur, img, sigma)
    # A function that changes the list runs with NumPy (the caller's list changes once).
    dims = [1, 2]
    g = nptf.compile(reverses_its_sizes)
    with pytest.warns(RuntimeWarning, match="changing the list `layer_dims`"):
        np.testing.assert_array_equal(g(X, dims), X[:1] * 2)
    assert dims == [2, 1]
    with pytest.raises(nptf.UnsupportedError, match="layer_dims"):
        nptf.compile(reverses_its_sizes, fallback="raise")(X, [1, 2])


def keys_of_two_kinds(x, lr=0.1, lrs=(0.1, 0.2)):
    d = {int(x[0]): 1.0}
    d["a"] = 2.0        # a str key beside a traced one: a key the call's data give
    return x * lr * lrs[0] * d["a"] * x.strides[0]      # refused, whatever the numbers


@pytest.mark.parametrize("call", [lambda f, x: f(x), lambda f, x: f(x, 0.5, [0.1, 0.3])])
def test_a_refusal_that_keying_by_value_does_not_lift_stays_one(call):
    """Parameters left at their defaults (a tuple of floats is static already) or passed
    and keyed by value: where the trace fails all the same, every call under
    fallback="raise" raises, and by default NumPy runs it, with one warning."""
    x = np.arange(3.0)
    strict = nptf.compile(keys_of_two_kinds, fallback="raise")
    for _ in range(2):
        with pytest.raises(nptf.UnsupportedError):
            call(strict, x)
    f = nptf.compile(keys_of_two_kinds)
    with pytest.warns(RuntimeWarning, match="runs with NumPy"):
        np.testing.assert_array_equal(call(f, x), call(keys_of_two_kinds, x))
    np.testing.assert_array_equal(call(f, x), call(keys_of_two_kinds, x))


# ------------------------------------------------ tuples and lists of traced numbers ==
def search_grid(grid, start, goal):
    # a BFS written with tuples, as exercise collections write it
    rows, cols = grid.shape
    dist = np.full(grid.shape, -1)
    dist[start] = 0
    frontier = [start]
    steps = 0
    found = False
    while frontier and steps < 40:
        r, c = frontier.pop(0)
        steps += 1
        if (r, c) == goal:
            found = True
            break
        for dr, dc in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and grid[nr, nc] == 0 and \
                    dist[nr, nc] < 0 and [nr, nc] != [r, c]:
                dist[nr, nc] = dist[r, c] + 1
                frontier.append((nr, nc))
    return dist, found, steps


def sequences_compared(x):
    a, b = int(x[0]), int(x[1])
    return ((a, b) == (1, 2), [a, b] != [1, 2], (a, (b, 3)) == (1, (2, 3)),
            (a, "s") == (1, "s"), (a, b) == (a, b, 0), (a, b) == [a, b],
            sorted(x.tolist()) == [0.0, 1.0, 2.0], (x[0], None) == (1.0, 0))


def test_tuples_and_lists_of_traced_numbers_compare_as_python_does():
    """``(r, c) == goal`` where ``r``, ``c`` are traced: Python's item-by-item test, one
    traced bool (a tuple against a list, or of another length, is never equal; a number
    never equals a string or None). It raised "bool() of a traced array"."""
    grid = np.zeros((4, 5), int)
    grid[1, :3] = 1
    check_against_numpy(search_grid, grid, (0, 0), (3, 4))
    check_against_numpy(search_grid, grid, (0, 0), (9, 9))
    for x in (np.array([1.0, 2.0, 0.0]), np.array([2.0, 1.0, 0.0]), np.array([1.0, 5.0, 2.0])):
        check_against_numpy(sequences_compared, x)


# ------------------------------------------------ a helper's loop before and inside a loop
def verlet(pos, vel, m, dt=0.005, nsteps=12):
    n = len(m)

    def accel(p):
        a = np.zeros_like(p)                # a new array each call, written in a loop
        for i in range(n):
            for j in range(n):
                if i != j:
                    a[i] += m[j] * (p[j] - p[i])
        return a

    a = accel(pos)
    for step in range(nsteps):
        pos = pos + vel * dt + 0.5 * a * dt ** 2
        a_new = accel(pos)
        vel = vel + 0.5 * (a + a_new) * dt
        a = a_new
    return pos, vel


def test_a_helper_called_before_and_inside_a_loop_keeps_the_loop_a_graph_loop():
    """A helper whose loop writes a new array, called once before a time-stepping loop and
    again in its body: the call inside took the array of the call before the loop for one
    its loop wrote, and the outer loop ran unrolled (60 steps passed the compile
    budget)."""
    rng = np.random.default_rng(6)
    args = (rng.normal(size=(5, 2)), 0.2 * rng.normal(size=(5, 2)), 0.5 + rng.random(5))
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # "runs unrolled"
        check_against_numpy(verlet, *args)
    f = nptf.compile(verlet, fallback="raise")
    assert sum(e.op.name == "while" for e in f.trace(*args).eqns) >= 1


# ------------------------------------------------ attributes carried by a loop with break
class EarlyStopping:
    def __init__(self, lr=0.1, n_iters=300, tol=1e-4):
        self.lr, self.n_iters, self.tol = lr, n_iters, tol
        self.weights = self.bias = None

    def fit(self, X, y):
        self.weights = np.zeros(X.shape[1])
        self.bias = 0                               # a Python int, then a float
        self.losses = []
        for i in range(self.n_iters):
            p = 1 / (1 + np.exp(-(X @ self.weights + self.bias)))
            self.weights -= self.lr * X.T @ (p - y) / len(y)
            self.bias -= self.lr * np.sum(p - y) / len(y)
            loss = -np.mean(y * np.log(p + 1e-15) + (1 - y) * np.log(1 - p + 1e-15))
            if self.losses and abs(self.losses[-1] - loss) < self.tol:
                break                               # the data decide when
            self.losses.append(loss)
        self.n_iter_ = i + 1
        return self


def fit_early_stopping(X, y, n_iters=300, tol=1e-4):
    m = EarlyStopping(n_iters=n_iters, tol=tol).fit(X, y)
    best = [0.0]
    for k in range(40):                             # a list's item, and a break
        best[0] = best[0] + m.weights[0] / (k + 1)
        if best[0] > 0.5:
            break
    return m.weights, float(m.bias), m.n_iter_, np.array(m.losses), best


def test_attributes_and_list_items_a_loop_with_break_writes_are_carried():
    """``self.bias -= ...`` and ``self.losses.append(loss)`` in a training loop that stops
    early (``break`` on the data), and a list item written in a loop with ``break``: the
    graph loop carries them. The loop's stop test was handed the carried attributes too
    and failed, so the loop ran unrolled (300 iterations passed the compile budget)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = (X[:, 0] - X[:, 1] > 0).astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # "runs unrolled"
        for n_iters, tol in ((300, 1e-4), (5, 1e-4), (300, 0.0)):
            check_against_numpy(fit_early_stopping, X, y, n_iters, tol)


# ------------------------------------------------ text: arguments and constants
def group_sums(keys, values):
    uniq, inv = np.unique(keys, return_inverse=True)
    sums = np.bincount(inv, weights=values)
    top = uniq[np.argmax(sums)]
    return dict(zip(uniq.tolist(), sums.tolist())), uniq, top, keys == "b", \
        values[keys != "a"].sum(), top == "b", "c" != top, top == "e"


def edit_distance(s, t):
    tt = np.array(list(t))                  # text from the function's own constants
    prev = np.arange(len(t) + 1)
    for ch in s:
        cand = np.empty(len(t) + 1, dtype=int)
        cand[0] = prev[0] + 1
        cand[1:] = np.minimum(prev[1:] + 1, prev[:-1] + (tt != ch))
        prev = np.minimum.accumulate(cand - np.arange(len(t) + 1)) + np.arange(len(t) + 1)
    return int(prev[-1]), tt


def test_arrays_of_text_are_static_and_numpy_s_own_while_tracing():
    """An array of strings as an argument is static, keyed by its contents: the function
    runs NumPy's own functions on it while tracing (``np.unique`` of group labels, a
    comparison with a label) and computes with the numbers in the graph; the label the
    data pick (``uniq[np.argmax(sums)]``) is made when the graph has run, and compares
    with a string as one traced bool. So is text made from constants
    (``np.array(list(word))``). Both were refused ("nptf compiles numeric and boolean
    arrays only")."""
    rng = np.random.default_rng(0)
    keys = np.array(["a", "b", "c", "d"])[rng.integers(0, 4, 20)]
    values = rng.integers(1, 9, 20).astype(float)
    check_against_numpy(group_sums, keys, values)
    check_against_numpy(group_sums, keys[::-1].copy(), values)
    f = nptf.compile(group_sums, fallback="raise")
    first = f(keys, values)
    first[1][0] = "z"                       # the caller's own array: a new one each call
    np.testing.assert_array_equal(f(keys, values)[1], np.unique(keys))
    assert f.cache_info().traces == 1
    check_against_numpy(edit_distance, "kitten", "sitting")
    check_against_numpy(edit_distance, "rosettacode", "raisethysword")


def relabel(keys, x):
    uniq = np.unique(keys)                  # NumPy's own array while tracing
    if x[0] > 0:
        uniq[0] = "z"                       # a write into text under a traced `if`
    return keys, uniq


def resort(keys, x):
    uniq = keys[::-1].copy()
    if x[0] > 0:
        uniq.sort()                         # so too, by a method
    return uniq


def test_text_keyed_by_value_up_to_a_point_and_never_written():
    rng = np.random.default_rng(1)
    g = nptf.compile(group_sums)
    with warnings.catch_warnings(record=True) as said, \
            mock.patch("nptf.runtime.compiled._VALUE_KEYED_GRAPHS", 3):
        warnings.simplefilter("always")
        for _ in range(5):
            keys = np.array(["a", "b", "c", "d"])[rng.integers(0, 4, 12)]
            got, want = g(keys, np.ones(12)), group_sums(keys, np.ones(12))
            assert got[0] == want[0]
    assert [w for w in said if "new values of its arrays of text" in str(w.message)]
    keys = np.array(["a", "b", "a"])
    with pytest.raises(nptf.UnsupportedError, match="writing into an array of text"):
        nptf.compile(relabel, fallback="raise")(keys, -np.ones(1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # "runs with NumPy"
        for x in (np.ones(1), -np.ones(1)):
            for got, want in zip(nptf.compile(relabel)(keys, x), relabel(keys, x)):
                np.testing.assert_array_equal(got, want)
            np.testing.assert_array_equal(nptf.compile(resort)(keys, x), resort(keys, x))
    with pytest.raises(nptf.UnsupportedError, match="writing into an array of text"):
        nptf.compile(resort, fallback="raise")(keys, -np.ones(1))


# ------------------------------------------------ a name or None chosen by the data
STATIONS = {"north": (52.1, 4.3), "south": (51.5, 4.9), "east": (51.9, 5.2)}


def closest_station(lat, lon):
    best_name = None
    best_d = math.inf
    for name, (slat, slon) in STATIONS.items():
        d = (lat - slat) ** 2 + (lon - slon) ** 2
        if d < best_d:
            best_name, best_d = name, d
    label = "far" if best_d > 0.5 else "near"
    return (best_name, best_name is not None, best_name == "south", label, label == "far",
            f"{best_name}!")


def name_or_none(x):
    who = None
    if x[0] > 0:
        who = "pos"
    elif x[0] < -1:
        who = "very negative"
    return who, who is None, who == "pos", "neg" != who, who == None  # noqa: E711


def test_a_string_or_none_an_if_on_the_data_chooses():
    """``best_name = None``, then ``best_name = name`` under a traced `if` (nested ifs
    too): the name (or None) of the path the data take, made when the graph has run, and
    compared with a string or None as a traced bool. It raised "variable `best_name`
    holds a NoneType"."""
    for point in ((52.0, 4.3), (51.5, 5.0), (0.0, 0.0)):
        check_against_numpy(closest_station, *point)
    for x in (1.0, -0.5, -3.0):
        check_against_numpy(name_or_none, np.array([x]))
