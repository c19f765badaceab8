"""``best = None`` before a loop or an `if` on the data, replaced when the data say so: the
value is carried with its kind (None or not), handed back as None where NumPy's run
leaves None, ``is None`` follows the data, and any other use of a None runs NumPy."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy


def best_of(x):
    best = None
    for v in x:
        if best is None or v > best:
            best = v
    return best


def best_split(X, y):
    best_gain = -1
    best_feat, best_thr = None, None
    for feat in range(X.shape[1]):
        for thr in np.unique(X[:, feat]):
            above = X[:, feat] > thr
            gain = np.mean(y[above]) if np.any(above) else 0.0
            if gain > best_gain:
                best_gain = gain
                best_feat = feat
                best_thr = thr
    return best_feat, best_thr, best_gain


def pick_alpha(x, alphas=(0.1, 1.0, 10.0)):
    best_a, best_e = None, np.inf
    for a in alphas:
        e = np.sum((x - a) ** 2)
        if e < best_e:
            best_e, best_a = e, a
    return best_a, best_e


def stump(x):
    best = (np.inf, None)
    for i in range(1, len(x)):
        if x[i] == x[i - 1]:
            continue
        g = abs(x[i] - 0.5)
        if g < best[0]:
            best = (g, i)
    return best


def predict_with_best(X, ws):
    best_w, best_err = None, np.inf
    for w in ws:
        err = np.sum((X @ w) ** 2)
        if err < best_err:
            best_err, best_w = err, w
    return X @ best_w


def found_or_not(x, target):
    where = None
    for i in range(len(x)):
        if x[i] == target:
            where = i
            break
    if where is None:
        return -1, False
    return where, where is not None


def first_positive_row(A):
    row = None
    for r in A:
        if r.sum() > 0:
            row = r
    return row


def halved_when_set(a, b, k, x):
    # An inner loop's body tests the outer one's sentinel on its first trace too.
    best = None
    for i in range(k[0]):
        if np.mean(b) < x:
            a = a - i
        else:
            best = float(np.sum(a))
        for _ in range(20):
            if best is not None:
                best = best * 0.5
    return best


def f_cubic(x):
    return x ** 3 - x - 2


def bisect(a, b, tol=1e-10, max_iter=200):
    fa = f_cubic(a)
    if fa * f_cubic(b) > 0:
        return None                      # no sign change: no root
    n = 0
    while (b - a) / 2 > tol and n < max_iter:
        c = (a + b) / 2
        fc = f_cubic(c)
        if fc == 0:
            return c
        if fa * fc < 0:
            b = c
        else:
            a = c
            fa = fc
        n += 1
    return (a + b) / 2


def find(x, t):
    for i in range(len(x)):
        if x[i] == t:
            return i
    return None


def solve_or_none(A, b):
    if abs(np.linalg.det(A)) < 1e-12:
        return None
    return np.linalg.solve(A, b)


def bisect_with_steps(a, b, tol=1e-10, max_iter=200):
    fa = f_cubic(a)
    if fa * f_cubic(b) > 0:
        return None
    n = 0
    while (b - a) / 2 > tol and n < max_iter:
        c = (a + b) / 2
        fc = f_cubic(c)
        if fc == 0:
            return c, n
        if fa * fc < 0:
            b = c
        else:
            a = c
            fa = fc
        n += 1
    return (a + b) / 2, n


def root_or_minus_one(a, b):
    res = bisect_with_steps(a, b)
    if res is None:
        return -1.0
    r, n = res
    return r * 2


def unpacked_without_a_test(a, b):
    r, n = bisect_with_steps(a, b)       # TypeError in Python where it is None
    return r


def pair_summing_to(x, t):
    y = x[x > 0]
    for i in range(len(y)):
        for j in range(i + 1, len(y)):
            if y[i] + y[j] == t:
                return i, j
    return None


def stats_or_none(x):
    if x.sum() < 0:
        return None
    return {"mean": x.mean(), "max": x.max()}


def compare_with_none_unchecked(x):
    best = None
    for v in x:
        if v > best:             # TypeError in Python on the first step
            best = v
    return best


RNG = np.random.default_rng(3)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_none_sentinel_replaced_under_a_traced_if_follows_the_data(jit):
    check_against_numpy(best_of, RNG.normal(size=10), jit=jit)
    check_against_numpy(best_of, np.zeros(0), jit=jit)                     # None back
    X = RNG.integers(0, 4, (20, 3)).astype(float)
    check_against_numpy(best_split, X, RNG.normal(size=20), jit=jit)
    check_against_numpy(best_split, X, np.full(20, -5.0), jit=jit)        # never replaced
    check_against_numpy(pick_alpha, RNG.normal(size=5), jit=jit)
    check_against_numpy(pick_alpha, np.array([np.nan]), jit=jit)
    check_against_numpy(stump, RNG.random(10), jit=jit)
    check_against_numpy(stump, np.ones(5), jit=jit)
    check_against_numpy(found_or_not, np.arange(6.0), 3.0, jit=jit)
    check_against_numpy(found_or_not, np.arange(6.0), 9.0, jit=jit)
    check_against_numpy(first_positive_row, RNG.normal(size=(6, 3)), jit=jit)
    check_against_numpy(first_positive_row, -np.ones((6, 3)), jit=jit)
    for x in (2.0, 0.5):
        check_against_numpy(halved_when_set, np.arange(6.0), np.ones(6, np.float32),
                            np.array([3, 1]), x, jit=jit)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_return_none_on_one_path(jit):
    check_against_numpy(bisect, np.float64(1.0), np.float64(2.0), jit=jit)
    check_against_numpy(bisect, np.float64(3.0), np.float64(4.0), jit=jit)   # None
    check_against_numpy(bisect, 1.0, 2.0, jit=jit)                           # a float
    check_against_numpy(find, np.arange(10.0), 3.0, jit=jit)
    check_against_numpy(find, np.arange(10.0), 30.0, jit=jit)
    check_against_numpy(solve_or_none, np.eye(3), np.ones(3), jit=jit)
    check_against_numpy(solve_or_none, np.zeros((3, 3)), np.ones(3), jit=jit)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_return_none_on_one_path_and_a_container_on_others(jit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        for a, b in [(1.0, 2.0), (3.0, 4.0)]:
            a, b = np.float64(a), np.float64(b)
            check_against_numpy(bisect_with_steps, a, b, jit=jit)
            check_against_numpy(root_or_minus_one, a, b, jit=jit)
        check_against_numpy(pair_summing_to, np.arange(-3.0, 6.0), 7.0, jit=jit)
        check_against_numpy(pair_summing_to, np.arange(-3.0, 6.0), 70.0, jit=jit)
        check_against_numpy(stats_or_none, np.ones(3), jit=jit)
        check_against_numpy(stats_or_none, -np.ones(3), jit=jit)


def test_unpacking_a_return_value_that_is_none_runs_numpy():
    a, b = np.float64(3.0), np.float64(4.0)
    with pytest.raises(nptf.OutsideTheGraphError, match="unpacking a value that is None"):
        nptf.compile(unpacked_without_a_test, fallback="raise")(a, b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(TypeError, match="cannot unpack"):
            nptf.compile(unpacked_without_a_test)(a, b)
    assert nptf.compile(unpacked_without_a_test, fallback="raise")(np.float64(1.0), b) == \
        unpacked_without_a_test(np.float64(1.0), b)


def test_a_python_number_replacing_none_comes_back_as_that_python_number():
    X = RNG.integers(0, 4, (20, 3)).astype(float)
    feat, thr, gain = nptf.compile(best_split, fallback="raise")(X, RNG.normal(size=20))
    assert type(feat) is int and isinstance(thr, np.float64)
    assert type(nptf.compile(pick_alpha, fallback="raise")(RNG.normal(size=5))[0]) is float


def test_using_a_value_that_is_none_on_this_call_runs_numpy():
    X, ws = RNG.normal(size=(4, 3)), RNG.normal(size=(5, 3))
    f = nptf.compile(predict_with_best)
    np.testing.assert_allclose(f(X, ws), predict_with_best(X, ws))
    bad = np.full((4, 3), np.nan)              # no error below inf: best_w stays None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match="matmul"):
            f(bad, ws)                         # NumPy's own error, from NumPy's run
    with pytest.raises(nptf.Error, match="None on this call"):
        nptf.compile(predict_with_best, fallback="raise")(bad, ws)
    adaptive = nptf.compile(predict_with_best, adaptive=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(12):       # through the calls that time the graph and NumPy
            with pytest.raises(ValueError, match="matmul"):
                adaptive(bad, ws)
    with pytest.raises(TypeError):
        nptf.compile(compare_with_none_unchecked)(np.ones(3))


def test_reading_the_shape_of_a_value_that_may_be_none_is_refused():
    def shape_of_best(A):
        row = None
        for r in A:
            if r.sum() > 0:
                row = r
        return row.shape

    with pytest.raises(nptf.UnsupportedError, match=r"`\.shape` of a variable that is None"):
        nptf.compile(shape_of_best, fallback="raise")(np.ones((3, 2)))


def test_an_output_that_may_be_none_cannot_be_exported(tmp_path):
    with pytest.raises(nptf.UnsupportedError, match="None when the data take some paths"):
        nptf.export(best_of, str(tmp_path / "m"), nptf.Spec((None,), np.float64))
    with pytest.raises(nptf.UnsupportedError, match="None when the data take some paths"):
        nptf.export(stats_or_none, str(tmp_path / "m2"), nptf.Spec((3,), np.float64))


# ------------------------------------------------ None, then a tuple, list or dict
def best_threshold(X):
    best_err, best = np.inf, None
    for j in range(X.shape[1]):
        for thr in X[:, j]:
            pred = np.where(X[:, j] < thr, -1.0, 1.0)
            err = np.abs(pred.sum())
            if err < best_err:
                best_err, best = err, (j, thr, pred.copy())
    j, thr, pred = best
    return j, thr, pred


def first_above_pair(x, t):
    best = None
    for j in range(x.shape[0]):
        if x[j] > t:
            best = (j, x[j])
    if best is None:
        return -1, 0.0
    return best


def closest_or_none(x):
    best = None
    for j in range(x.shape[0]):
        score = (x[j] - 0.2) ** 2
        if best is None or score < best[0]:
            best = (score, j)
    return best


def last_above_as(x, t):
    as_list, as_dict = None, None
    i = 0
    while i < len(x) and x[i] < 10:
        if x[i] > t:
            as_list = [i, x[i] * 2, x[:2] * x[i]]
            as_dict = {"idx": i, "val": x[i]}
        i += 1
    return as_list, as_dict


def extremes_if_positive(x):
    best = None
    if x.sum() > 0:
        best = (x.max(), x.min())
    return best


def unpacked_sentinel(x, t):
    best = None
    for j in range(x.shape[0]):
        if x[j] > t:
            best = (j, x[j])
    j, v = best
    return j + 1


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_none_sentinel_replaced_by_a_container(jit):
    """``best = None``, then ``best = (j, thr, pred)`` (or a list, a dict) under an `if`
    on the data: carried as a container that may be None, as a return value is. It was
    refused (a NoneType cannot change inside compiled control flow)."""
    x = np.array([0.1, 0.5, -0.3, 0.9, 0.2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        check_against_numpy(best_threshold, RNG.normal(size=(6, 2)), jit=jit)
        for t in (0.4, 5.0):
            check_against_numpy(first_above_pair, x, t, jit=jit)
            check_against_numpy(last_above_as, x, t, jit=jit)
        check_against_numpy(closest_or_none, x, jit=jit)
        check_against_numpy(extremes_if_positive, x, jit=jit)
        check_against_numpy(extremes_if_positive, -x, jit=jit)
        check_against_numpy(unpacked_sentinel, x, 0.4, jit=jit)
    with pytest.raises(nptf.OutsideTheGraphError, match="unpacking a value that is None"):
        nptf.compile(unpacked_sentinel, fallback="raise", jit_compile=jit)(x, 5.0)
    assert nptf.compile(first_above_pair, fallback="raise", jit_compile=jit)(x, 0.4) == \
        first_above_pair(x, 0.4)


def best_split_at_run_time(X, y):
    best = None
    for f in range(X.shape[1]):
        for t in np.unique(X[:, f])[:-1]:          # a graph loop: its trip count is data
            left = X[:, f] <= t
            g = np.abs(y[left].mean() - y[~left].mean())
            if best is None or g > best[0]:
                best = (g, f, t)
    g, f, t = best
    return g, f, t


def closest_pair_holding_none(P):
    best = (np.inf, None)
    for i in range(len(P)):
        for j in range(i + 1, len(P)):
            d = np.hypot(*(P[i] - P[j]))
            if d < best[0]:
                best = (d, (P[i], P[j]))
    d, (p, q) = best
    return d, np.vstack([p, q])


def nearest_pair_or_none(x, t):
    best = (np.inf, None)
    for j in range(len(x) - 1):
        if abs(x[j] - x[j + 1]) < t:
            best = (abs(x[j] - x[j + 1]), (x[j], j))
    return best[0] if best[1] is None else best[1][0] * best[1][1]


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_sentinel_is_none_at_any_depth_or_before_a_loop_of_data_trips(jit):
    """``best = None`` before a loop whose trip count the data choose, replaced by a tuple
    once Python's first test says so (``best is None or g > best[0]``), and a tuple that
    holds None until the data replace it (``(np.inf, None)``, then ``(d, (p, q))``)."""
    rng = np.random.default_rng(3)
    X = rng.integers(0, 4, (12, 3)).astype(float)
    y = rng.normal(size=12)
    x = np.array([0.1, 0.5, -0.3, 0.9, 0.2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        check_against_numpy(best_split_at_run_time, X, y, jit=jit)
        check_against_numpy(closest_pair_holding_none, rng.normal(size=(6, 2)), jit=jit)
        for t in (0.5, 0.01):
            check_against_numpy(nearest_pair_or_none, x, t, jit=jit)
    # No threshold to split at: Python unpacks None, so the call runs NumPy's error.
    with pytest.raises(nptf.OutsideTheGraphError, match="unpacking a value that is None"):
        nptf.compile(best_split_at_run_time, fallback="raise", jit_compile=jit)(
            np.ones((5, 2)), y[:5])
    with pytest.raises(TypeError, match="cannot unpack non-iterable NoneType"):
        nptf.compile(best_split_at_run_time, jit_compile=jit)(np.ones((5, 2)), y[:5])


# ------------------------------------------- a variable assigned on some paths of a loop
def trigger_windows(ratio, fs, on=0.6, off=0.3):
    """An STA/LTA trigger: ``t_on`` assigned on one path of an iteration and read under
    the `elif` of a later one, and after the loop."""
    triggers = []
    active = False
    for k in range(len(ratio)):
        if not active and ratio[k] > on:
            active = True
            t_on = k
        elif active and ratio[k] < off:
            triggers.append((t_on / fs, k / fs))
            active = False
    if active:
        triggers.append((t_on / fs, (len(ratio) - 1) / fs))
    return triggers


def trigger_indices(ratio, on=0.6, off=0.3):
    triggers = []
    active = False
    for k in range(len(ratio)):
        if not active and ratio[k] > on:
            active = True
            t_on = k
        elif active and ratio[k] < off:
            triggers.append((t_on, k))
            active = False
    return triggers


def copied_before_assigned(r, on=0.5):
    last = None
    for k in range(len(r)):
        if r[k] > on:
            t = r[k] * 2
        last = t
    return last


def falling_segments(Q, min_len=2):
    """Runs of falling values found with a None sentinel: ``start`` is None or an int as
    the data choose, appended (as a tuple) only where it is not None."""
    falling = np.diff(Q) < 0
    segs = []
    start = None
    for i, f in enumerate(falling):
        if f and start is None:
            start = i
        elif not f and start is not None:
            if i - start >= min_len:
                segs.append((start, i))
            start = None
    if start is not None and len(falling) - start >= min_len:
        segs.append((start, len(falling)))
    return segs


def running_best_or_none(x):
    out = []
    best = None
    for v in x:
        if v > 0.5:
            best = v
        out.append(best)        # None until a value passes
    return out


def roulette(cum, r):
    for j, p in enumerate(cum):            # a graph loop
        if r < p:
            i = j
            break
    return i, cum[i] * 2


def roulette_or_last(cum, r):
    for j, p in enumerate(cum):
        if r < p:
            i = j
            break
    else:
        i = len(cum) - 1
    return i


def first_above(x, t):
    k = 0
    while k < len(x):
        if x[k] > t:
            found = x[k]
            break
        k += 1
    return found is None, found.shape, found


def last_positive(x):
    for i in range(3):
        if x[i] > 0:
            last = x[i]
    return last * 2


def index_of_first_negative(x):
    found = False
    for i in range(len(x)):
        if x[i] < 0:
            found = True
            idx = i
            break
    return idx if found else -1


def scaled_where_chosen(x):
    if x[0] > 0:
        m = 1.5
    elif x[1] > 0:
        m = 2.5
    c = x.sum() > 0
    if c:
        y = x * m
    z = x + 1
    if c:
        return y + z
    return z


def best_candidate(x):
    current = np.inf
    for g in (0.1, 1.0, 10.0):
        v = np.sum((x - g) ** 2)
        if v * 1e-3 < 1:            # a well-conditioned candidate
            if v < current:         # ... and the best so far
                best = g
                current = v
    if current == np.inf:
        raise ValueError("no candidate")
    return best * 2


def nested_one_path(x):
    if x[0] > 0:
        if x[1] > 0:
            k = x[0] * 2
    if x[2] > 0:
        return k
    return -1.0


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_variable_one_path_of_an_if_assigns_follows_the_data(jit):
    """A variable with no value before an `if` on the data that one path assigns: read
    only where it is assigned (``idx if found else -1``), it compiles; read where no path
    the data took assigned it, Python's UnboundLocalError when the graph runs."""
    for x in (np.array([1.0, -2, 3]), np.array([-1.0, -2, -3])):
        check_against_numpy(last_positive, x, jit=jit)
    for x in (np.array([1.0, -2, 3]), np.array([1.0, 2, 3])):
        check_against_numpy(index_of_first_negative, x, jit=jit)
    for x in (np.array([1.0, 2]), np.array([-1.0, 2]), np.array([-1.0, -2])):
        check_against_numpy(scaled_where_chosen, x, jit=jit)
    # One path of an `if` inside one path of another (a search's best candidate).
    for x in (np.array([1.0, 2.0]), np.array([np.nan, 1.0]), np.array([1e5, 1.0])):
        check_against_numpy(best_candidate, x, jit=jit)
    for x in ([1.0, 1, 1], [1.0, -1, -1], [-1.0, 1, 1], [1.0, -1, 1]):
        check_against_numpy(nested_one_path, np.array(x), jit=jit)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_variable_read_before_any_path_assigned_it_raises_as_python(jit):
    """A variable with no value before a loop that one path of its body assigns: read
    under the `elif` of a later iteration (a trigger's start), it compiles; copied to
    another name (``last = t``) before any iteration assigned it, Python's
    UnboundLocalError, not the value a later iteration gives."""
    ratio = np.array([0.1, 0.7, 0.8, 0.2, 0.1, 0.9, 0.5, 0.65, 0.1, 0.7])
    check_against_numpy(trigger_windows, ratio, 2.0, jit=jit)
    check_against_numpy(trigger_windows, ratio[:8], 2.0, jit=jit)
    got = check_against_numpy(trigger_indices, ratio, jit=jit)
    assert got == [(1, 3), (5, 8)] and all(type(v) is int for t in got for v in t)
    check_against_numpy(copied_before_assigned, np.array([0.7, 0.2, 0.9]), jit=jit)
    check_against_numpy(copied_before_assigned, np.array([0.2, 0.7, 0.9]), jit=jit)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_value_that_may_be_none_appended_to_a_list_the_data_grow(jit):
    """A variable that is None or an int as the data choose, appended where it is not None
    (``segs.append((start, i))``): the list's rows hold it, checked when the graph runs;
    where the data append the None, the call runs NumPy, which appends it."""
    Q = np.array([5, 4, 3, 3.5, 3, 2, 1, 1.5, 1.2, 1.0, 0.9, 1.0])
    got = check_against_numpy(falling_segments, Q, jit=jit)
    assert got == [(0, 2), (3, 6), (7, 10)] and all(type(v) is int for t in got for v in t)
    check_against_numpy(falling_segments, Q[::-1].copy(), jit=jit)
    x = np.array([0.7, 0.1, 0.2, 0.9, 0.1, 0.1, 0.3, 0.2, 0.8, 0.1, 0.0, 0.6])
    check_against_numpy(running_best_or_none, x, jit=jit)
    x[0] = 0.1
    with pytest.raises(nptf.OutsideTheGraphError):
        nptf.compile(running_best_or_none, fallback="raise", jit_compile=jit)(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert nptf.compile(running_best_or_none)(x) == running_best_or_none(x)


def test_a_variable_assigned_on_some_paths_of_a_loop_follows_the_data():
    """``i`` assigned only where the data take a path of the loop body (and no value
    before the loop): carried with a kind that says unassigned until a path assigns it;
    a read of it while unassigned raises Python's UnboundLocalError when the graph runs,
    and an ``else`` that assigns it leaves it assigned on every path."""
    cum = np.cumsum(np.full(10, 0.1))
    for r in (0.35, 1.5):
        check_against_numpy(roulette, cum, r)
        check_against_numpy(roulette_or_last, cum, r)
        check_against_numpy(first_above, cum, r)


def halved_entropies(x):
    # Plotting-prep code: None where p is 0, and a truth test that skips the Nones.
    ent = [np.log2(p) if p != 0 else None for p in x]
    first = ent[0] * 2 if ent[0] else -1.0
    return [e * 0.5 if e else None for e in ent], first, [not e for e in ent]


def test_the_truth_of_a_value_that_may_be_none_reads_no_none(jit):
    """``if e:`` of a value None on some paths: False for None, the value's own truth
    otherwise; the branch that reads it runs only where it is not None."""
    for x in (np.arange(0.0, 1.0, 0.25), np.arange(1.0, 2.0, 0.25)):
        check_against_numpy(halved_entropies, x, jit=jit)
