"""Control flow on traced values: converted if/while/for, compiled loops, and their errors."""
from __future__ import annotations

import collections
import itertools
import time
import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy, mismatch


def branchy(x):
    if x.sum() > 0:
        y = x * 2
    elif x.sum() < -5:
        y = x - 1
    else:
        y = -x
    z = x.max() if x.min() > -1 else x.min()
    return y, z


def early_return(x):
    if x[0] > 0:
        return x + 1
    return x - 1


def while_converge(x, tol):
    err = 1.0
    steps = 0
    while err > tol:
        x = 0.5 * (x + 2.0 / x)
        err = np.abs(x * x - 2.0).max()
        steps += 1
    return x, steps


def recurrence(a, b, alpha):
    a = a.copy()
    for i in range(1, a.shape[0]):
        a[i] = a[i - 1] * alpha + b[i]
    return a


def row_loop(m):
    out = np.zeros(m.shape[0])
    for i, row in enumerate(m):
        out[i] = row.max() - row.min()
    return out


def iterate_rows(m):
    total = np.zeros(m.shape[1])
    for row in m:
        total = total + row * row
    return total


def break_continue(x):
    total = 0.0
    n = 0
    for i in range(x.shape[0]):
        if x[i] < 0:
            continue
        if total > 10:
            break
        total = total + x[i]
        n += 1
    return total, n


def while_break(x):
    i = 0
    acc = np.zeros_like(x)
    while i < 100:
        acc = acc + x
        if acc.sum() > 50:
            break
        i += 1
    return acc, i


def nested_loops(m):
    out = m.copy()
    for i in range(1, m.shape[0]):
        for j in range(1, m.shape[1]):
            out[i, j] = out[i - 1, j] + out[i, j - 1] * 0.5
    return out


def loop_in_branch(x):
    if x.mean() > 0:
        for k in range(20):
            x = x * 0.9
    else:
        x = x * 0
    return x


def traced_trip_count(x, n):
    acc = np.zeros_like(x)
    for i in range(n.item() if False else 0, n):
        acc += x * i
    return acc


def logic(x, y):
    a = (x > 0) and (y > 0)
    b = x * 2 if not (x > 1) else x * 3   # `not` of an array gives a Python bool in NumPy
    c = 0 < x < 2
    d = x if (x > 5) or (y > 1) else y
    return a, b, c, d


def helper_with_loop(v):
    s = v[0] * 0
    k = 0
    while k < v.shape[0]:
        s = s + v[k]
        k += 1
    return s


def calls_helper(x):
    return helper_with_loop(x) * 2


def stencil_steps(u, steps):
    u = u.copy()
    for _ in range(steps):
        u[1:-1] = u[1:-1] + 0.1 * (u[:-2] - 2 * u[1:-1] + u[2:])
    return u


CASES = [
    (branchy, (np.array([1.0, 2.0, 3.0]),)), (branchy, (np.array([-4.0, -3.0, 0.5]),)),
    (branchy, (np.array([-0.5, 0.2, 0.1]),)),
    (early_return, (np.array([1.0, 2.0]),)), (early_return, (np.array([-1.0, 2.0]),)),
    (while_converge, (np.array([1.0, 3.0]), 1e-10)),
    (recurrence, (np.zeros(200), np.arange(200.0), 0.5)),
    (row_loop, (np.arange(40.0).reshape(20, 2),)), (iterate_rows, (np.arange(30.0).reshape(15, 2),)),
    (break_continue, (np.array([1.0, -2.0, 3.0, 4.0, 5.0, 6.0, -1.0, 2.0, 9.0, 1.0]),)),
    (while_break, (np.array([1.0, 2.0]),)), (nested_loops, (np.ones((12, 11)),)),
    (loop_in_branch, (np.array([1.0, 2.0]),)), (loop_in_branch, (np.array([-1.0, -2.0]),)),
    (traced_trip_count, (np.ones(3), np.int64(12))), (logic, (np.float64(0.5), np.float64(2.0))),
    (calls_helper, (np.arange(10.0),)), (stencil_steps, (np.linspace(0, 1, 30) ** 2, 100)),
]


@pytest.mark.parametrize("fn, args", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_control_flow_matches_numpy(fn, args, jit):
    check_against_numpy(fn, *args, jit=jit)


def test_loops_compile_to_graph_loops_not_unrolled():
    f = nptf.compile(recurrence, fallback="raise")
    start = time.perf_counter()
    graph = f.trace(np.zeros(100_000), np.ones(100_000), 0.5)
    elapsed = time.perf_counter() - start
    assert elapsed < 1.0, elapsed
    assert any(e.op.name == "while" for e in graph.eqns)
    # The same graph at any size (both sizes long enough for unroll_loops, with steps left over).
    smaller = f.trace(np.zeros(1_000), np.ones(1_000), 0.5)
    assert len(graph.eqns) == len(smaller.eqns)
    assert "while[" in str(graph)


def test_short_static_loops_unroll():
    f = nptf.compile(stencil_steps, fallback="raise", static_argnames=["steps"], unroll=4)
    assert not any(e.op.name == "while" for e in f.trace(np.ones(10), 3).eqns)
    assert any(e.op.name == "while" for e in f.trace(np.ones(10), 5).eqns)


def test_python_conditions_stay_python():
    def f(x, flag):
        if flag:
            return x + 1
        return x - 1

    g = nptf.compile(f, fallback="raise")
    assert not any(e.op.name == "cond" for e in g.trace(np.ones(2), True).eqns)
    np.testing.assert_array_equal(g(np.ones(2), False), np.zeros(2))


def dtype_changes(x):
    acc = 0
    for i in range(x.shape[0]):
        acc = acc + x[i]
    return acc


def test_python_number_adopts_the_dtype_computed_in_the_loop(jit):
    check_against_numpy(dtype_changes, np.arange(20, dtype=np.float32), jit=jit)


def bad_dtype(x):
    acc = np.zeros(2, dtype=np.int64)
    for i in range(np.count_nonzero(x > 0)):     # a trip count the data give
        acc = acc + x[i]
    return acc


def one_branch(x):
    if x.sum() > 0:
        y = x[x > 1]        # a size known only at run time: no stand-in for the other path
    return y


def list_in_loop(x):
    out = []
    for i in range(x.shape[0]):
        out.append(x[i] * 2)
    return out


def test_errors_name_the_variable_and_the_fix(tmp_path):
    # One graph for every trip count (a SavedModel's) cannot change acc's dtype; a graph
    # for the trip count of the call's data can (nptf.compile, below).
    with pytest.raises(TypeError, match=r"variable `acc` is int64 before the loop.*float64.*Initialise"):
        nptf.export(bad_dtype, tmp_path / "m", nptf.Spec((20,), np.float64))
    for shift in (5, 9, 15):
        check_against_numpy(bad_dtype, np.arange(20.0) - shift)
    with pytest.raises(TypeError, match=r"`y` is used, but it is only assigned on some paths"):
        nptf.compile(one_branch, fallback="raise")(np.ones(3))


def list_sliced_in_loop(x):
    out = [0.0]
    for i in range(x.shape[0]):
        out.append(float(np.sum(out[-2:])) + x[i])
    return out


def prefixes_in_loop(x):
    out = []
    for i in range(x.shape[0]):
        out.append(x[:i + 1] * 2)       # items of growing shapes: a Python list
    return len(out), float(sum(p.sum() for p in out))


def test_python_only_loop_bodies_unroll_with_a_warning():
    check_against_numpy(list_in_loop, np.arange(10.0))      # a graph loop: no warning
    with pytest.warns(RuntimeWarning, match="runs unrolled"):
        got = nptf.compile(prefixes_in_loop, fallback="raise")(np.arange(10.0))
    assert got == prefixes_in_loop(np.arange(10.0))


def test_a_list_of_a_python_float_and_numpy_scalars_comes_back_as_python_s():
    # [0.0, np.float64, ...]: a graph loop, and each item of the kind Python's has.
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # no "runs unrolled"
        got = nptf.compile(list_sliced_in_loop, fallback="raise")(np.arange(10.0))
    want = list_sliced_in_loop(np.arange(10.0))
    assert got == want and [type(v) for v in got] == [type(v) for v in want]


def test_code_without_source_still_traces_and_explains_data_dependent_flow(tmp_path):
    src = "def f(x):\n    if x.sum() > 0:\n        return x\n    return -x\n"
    namespace = {"np": np}
    exec(src, namespace)
    # The `if` stays Python's: the graph takes the path of the call's data, and checks it.
    for x in (np.ones(2), -np.ones(2), np.ones(2)):
        check_against_numpy(namespace["f"], x)
    with pytest.raises(nptf.TracerConversionError, match="bool"):
        nptf.export(namespace["f"], tmp_path / "m", nptf.Spec((2,)))


def edit_distance(a, b):
    n, m = a.shape[0], b.shape[0]
    d = np.zeros((n + 1, m + 1))
    for i in range(n + 1):
        d[i, 0] = i
    for j in range(m + 1):
        d[0, j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = 0.0 if a[i - 1] == b[j - 1] else 1.0
            d[i, j] = min(d[i - 1, j] + 1, d[i, j - 1] + 1, d[i - 1, j - 1] + cost)
    return d[n, m]


def extremes(x, y):
    return min(x[0], y[0]), min(y[0], x[0]), max(x[1], y[1], 0.5), max(y[1], x[1]), min(x[2], 3.0)


def min_with_inexact_literal(x):
    return min(x[0], 0.1)          # Python may return the double 0.1 itself


def min_of_two_dtypes(x, y):
    return min(x[0], y[0])


def test_builtin_min_and_max_of_traced_numbers():
    rng = np.random.default_rng(4)
    a, b = rng.integers(0, 4, 12), rng.integers(0, 4, 15)
    got = nptf.compile(edit_distance, fallback="raise")(a, b)
    assert type(got) is np.float64 and got == edit_distance(a, b)
    x, y = np.array([np.nan, 1.0, 5.0]), np.array([2.0, np.nan, 1.0])
    # Python's rule: the first of the smallest; a NaN first stays, a NaN later is passed over
    for got, want in zip(nptf.compile(extremes, fallback="raise")(x, y), extremes(x, y)):
        np.testing.assert_array_equal(got, want)
    x32 = np.ones(3, np.float32)
    # A result whose type the data choose (the double 0.1 itself, or the float32): Python's
    # min on the data's values, a graph for each choice.
    for fn, args in [(min_with_inexact_literal, (x32,)), (min_with_inexact_literal, (-x32,)),
                     (min_of_two_dtypes, (x32, np.ones(2))),
                     (min_of_two_dtypes, (x32, np.zeros(2)))]:
        check_against_numpy(fn, *args)


# The index of a compiled ``for`` loop is a Python int, as it is when the loop unrolls:
# weak in NumPy's promotion, so it keeps a float32 or int8 array's dtype.
def index_scales(x):
    s = x * 0
    for i in range(20):
        s = s + x * i
    return s


def index_squared(x):
    s = x[0] * 0
    for i in range(len(x)):
        s = s + x[i] * i + (i * i - 1)
    return s


def index_run_time_stop(x):
    s = x * 0
    for i in range((x > 0).sum()):
        s = s + i
    return s


def index_enumerate(x):
    for i, v in enumerate(x):
        x[i] = v * i + i
    return x


def index_into_python_int(x):
    t = 0
    for i in range(30):
        t = t + i * i
    return x * t


@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.float16, np.int64])
@pytest.mark.parametrize("fn", [index_scales, index_squared, index_run_time_stop,
                                index_enumerate, index_into_python_int])
def test_loop_index_is_a_python_int(fn, dtype, jit):
    x = (np.arange(30) % 5).astype(dtype)
    check_against_numpy(fn, x, jit=jit)


def factorial_digits(x):
    t = 1
    for i in range(1, 40):
        t = t * i
    return x * (t % 1000)


def test_loop_index_arithmetic_past_int64_runs_as_python():
    # 39! passes int64: Python's ints do not wrap, so the graph may not either.
    x = np.arange(3.0)
    got = nptf.compile(factorial_digits)(x)
    np.testing.assert_array_equal(got, factorial_digits(x))


def index_compared(x):
    c = np.zeros(x.shape, np.int64)
    for i in range(-40, 300, 7):
        c = c + (x < i) + (i >= x) + (x != i)
    return c


def index_added(x):
    for i in range(200):
        x = x + i % 3
    return x + (x > 0)


def index_added_past_dtype(x):
    s = x
    for i in range(200):
        s = x + i           # past int8 at i = 128: NumPy's OverflowError
    return s


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint32, np.uint64, np.int32])
@pytest.mark.parametrize("fn", [index_compared, index_added, index_added_past_dtype])
def test_loop_index_meets_narrow_integers_by_value(fn, dtype, jit):
    check_against_numpy(fn, (np.arange(12) * 11 % 100).astype(dtype), jit=jit)


def zero_d_or_scalar(a, c):
    if c.sum() > 0:
        r = a[..., 0]           # a 0-d array
    else:
        r = np.float64(2.5)     # a NumPy scalar
    return r


def python_number_scalar_or_array(a):
    if a.sum() > 0:
        r = a.sum()             # a NumPy scalar
    else:
        r = 0.0                 # a Python float
    s = r if a[0] > 0 else a[..., 1]     # nested: what `r` is, or a 0-d array
    return r, s, r * 2


def float_or_complex(b):
    if np.sum(b) > 0:
        t = 0.5
    else:
        t = 1 + 2j              # the imaginary part must survive the merge
    return t, t * 2


def python_float_or_int_array_element(b, k):
    t = 0.5 if np.sum(b) > 0 else k[0]     # an int32 cannot hold 0.5
    return t


def python_max_and_min(x):
    s = x.sum()
    return max(2, s), min(s, 1.5, x[0]), max(2, s) * 3     # a Python number or s


@pytest.mark.parametrize("jit", [None, False, True], ids=["auto", "graph", "xla"])
def test_an_if_on_the_data_chooses_a_scalar_or_a_zero_d_array(jit):
    """The call hands back what NumPy's path gives: a 0-d array, a NumPy scalar or a
    Python number."""
    for c in (1.0, -1.0):
        check_against_numpy(zero_d_or_scalar, np.arange(3.0).reshape(1, 3)[0], np.full(2, c),
                            jit=jit)
    for a in ([1.0, 2.0], [-1.0, -2.0], [-1.0, 0.5], [3.0, -4.0]):
        check_against_numpy(python_number_scalar_or_array, np.array(a), jit=jit)
    for x in ([1.0, 0.5], [3.0, 4.0], [-1.0, 9.0]):
        check_against_numpy(python_max_and_min, np.array(x), jit=jit)
    for b in (1.0, -1.0):
        check_against_numpy(float_or_complex, np.array([b]), jit=jit)
    # An int32 cannot hold the 0.5 of the other path: the trace assumes a path.
    for b in (np.ones(2), -np.ones(2)):
        check_against_numpy(python_float_or_int_array_element, b, np.arange(3, dtype=np.int32),
                            jit=jit)


def test_a_data_chosen_scalar_or_zero_d_array_exports_as_a_tensor(tmp_path):
    import tensorflow as tf
    nptf.export(zero_d_or_scalar, tmp_path / "model", nptf.Spec((3,)), nptf.Spec((2,)))
    run = tf.saved_model.load(str(tmp_path / "model")).signatures["serving_default"]
    for c, expected in ((-1.0, 2.5), (1.0, 4.0)):
        got = run(a=tf.constant([4.0, 5.0, 6.0], tf.float64),
                  c=tf.constant([c, c], tf.float64))["output_0"]
        assert got.shape == () and float(got) == expected


def break_in_a_short_loop(x):
    for i in range(3):
        x = x + 1
        if x.max() > 3:
            break
    return x


def break_in_a_loop_over_a_list(x):
    s = 0.0
    for w in [0.5, 1.5, 2.5, 3.5]:
        s += w
        if x.max() + s > 4:
            break
    return s


def break_in_an_unrolled_loop_inside_a_graph_loop(a, n):
    s = 0
    for i in range(16):
        a *= 2
        for ii in range(1, n):
            a[::2] += 1
            s += 1
            if np.abs(a).max() > 20:
                break
    return a, s


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_break_on_traced_data_stops_a_loop_that_runs_unrolled(jit):
    """Once a `break` depends on the data, the iterations after it run only if the data say
    so: in a short loop, one over a Python list, and one unrolled inside a graph loop
    (random program 193 of the loop family). The later iterations ran regardless."""
    for x in (np.array([0.5, 1.5]), np.array([2.5, -1.0]), np.array([5.0, 0.0])):
        check_against_numpy(break_in_a_short_loop, x, jit=jit)
        check_against_numpy(break_in_a_loop_over_a_list, x, jit=jit)
    check_against_numpy(break_in_an_unrolled_loop_inside_a_graph_loop,
                        np.array([2, 2, -4, -4, -2, -2, 0], np.int8), 4, jit=jit)


def running_max_in_a_long_loop(a):
    t = 0.0
    for i in range(16):
        t = max(t, a.min() + i * 0.1)
    return t


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_loop_variable_whose_kind_the_data_choose(jit):
    """`t = max(t, x)` keeps the Python float where it wins and takes the NumPy scalar
    where that does: past the unroll limit the loop runs unrolled (a graph loop carries
    one type), and `t` comes back as NumPy's run gives it (loop-family program 380)."""
    for a in (np.array([-5.0, -2.0]), np.array([-0.5, 1.0]), np.array([1.0, 2.0])):
        got = check_against_numpy(running_max_in_a_long_loop, a, jit=jit)
        assert type(got) is type(running_max_in_a_long_loop(a))


def pairs_from_branches(x):
    if x.sum() > 0:
        return x * 2, x.max(), [x[0], 1.0]
    return x - 1, x.min(), [x[1], 2.0]


def pair_returned_on_one_path(x):
    if x.sum() > 0:
        return x, x.sum()
    y = x * 3
    return y, y.max()


def dict_from_branches(x):
    if x[0] > 0:
        d = {"a": x, "n": 1}
    else:
        d = {"a": -x, "n": 2}
    return d["a"] * d["n"]


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_branches_giving_tuples_lists_and_dicts(jit):
    """A traced `if` whose paths return or assign containers of one structure: each
    element merges on its own (a Python number stays one)."""
    for x in ([1.0, -2.0, 3.0], [-1.0, -2.0, 0.5]):
        for fn in (pairs_from_branches, pair_returned_on_one_path, dict_from_branches):
            check_against_numpy(fn, np.array(x), jit=jit)


def negative_or_unsigned(a, c):
    if np.sum(a) > 0:
        t = -3
    else:
        t = np.clip(c, 0, 3)
    return t


def tenth_or_single(a, x):
    if np.sum(a) > 0:
        t = 0.1
    else:
        t = x.max()
    return t


def half_or_single(a, x):
    if np.sum(a) > 0:
        t = 0.5
    else:
        t = x.max()
    return t


def test_a_python_number_a_branch_dtype_cannot_hold_takes_one_path_a_graph():
    """A path's Python number comes back as itself, so the dtype the paths share must
    hold it exactly: -3 as uint32 would come back as 4294967293, 0.1 as float32 as
    0.10000000149011612. Where it cannot, the trace assumes one path and the graph checks
    it; data that take the other path run a graph traced with the other assumption."""
    for fn, other in [(negative_or_unsigned, np.array(5, np.uint32)),
                      (tenth_or_single, np.ones(3, np.float32))]:
        compiled = nptf.compile(fn, fallback="raise")
        for a in (np.array([1, 2]), np.array([-1, -2]), np.array([3, 4])):
            got = compiled(a, other)
            assert got == fn(a, other) and type(got) is type(fn(a, other))
        assert compiled.cache_info().traces == 2
    check_against_numpy(half_or_single, np.array([1, 2]), np.ones(3, np.float32))
    check_against_numpy(half_or_single, np.array([-1, -2]), np.ones(3, np.float32))


def states_in_a_dict(x):
    hs = {-1: np.zeros(3)}
    for t in range(len(x)):
        hs[t] = np.tanh(x[t] + hs[t - 1])
    return hs[len(x) - 1], len(hs)


def model_rebuilt_each_step(X, y):
    W1 = np.ones((3, 4)) * 0.1
    model = {"W1": W1, "b": np.zeros(4)}
    for i in range(12):
        h = X @ model["W1"] + model["b"]
        W1 = model["W1"] - 0.01 * X.T @ h
        model = {"W1": W1, "b": model["b"] - 0.01 * h.sum(axis=0)}
    return model["W1"], model["b"]


def update_in_place(params, grads, lr):
    for k in params:
        params[k] = params[k] - lr * grads["d" + k]
    return params


def trained_by_epochs(X, y, epochs):
    # ML from scratch: a dict of weights written item by item, a helper that writes into
    # it and returns it, a tuple of running sums
    params = {"W": np.zeros(X.shape[1]), "b": np.zeros(())}
    same = params
    stats = (0.0, 0)
    for ep in range(epochs):
        p = 1 / (1 + np.exp(-(X @ params["W"] + params["b"])))
        params["W"] = params["W"] - 0.1 * X.T @ (p - y) / len(y)
        grads = {"dW": 0.01 * params["W"], "db": np.mean(p - y)}
        params = update_in_place(params, grads, 0.1)
        stats = (stats[0] + float(np.mean((p - y) ** 2)), stats[1] + 1)
    return params, same is params, same["b"], stats


def trained_in_place(X, y, epochs):
    params = {"W": np.zeros(X.shape[1]), "b": 0.0}
    for ep in range(epochs):
        p = 1 / (1 + np.exp(-(X @ params["W"] + params["b"])))
        params["W"] -= 0.1 * X.T @ (p - y) / len(y)
        params["b"] -= 0.1 * np.mean(p - y)
    return params


def trained_by_name(X, y, epochs):
    params = {"W": np.zeros(X.shape[1]), "b": 0.0}
    for ep in range(epochs):
        p = 1 / (1 + np.exp(-(X @ params["W"] + params["b"])))
        grads = {"W": X.T @ (p - y) / len(y), "b": np.mean(p - y)}
        for name in ("W", "b"):
            params[name] = params[name] - 0.1 * grads[name]
    return params


def test_loops_over_python_containers(tmp_path):
    """A dict keyed by the loop index (a character RNN's forward pass) runs unrolled, with
    a warning, where the trip count is known. Dicts, lists and tuples of arrays the body
    rebuilds, or hands to a helper that writes into them and returns them, with their
    structure kept (a training loop's weights), are carried by a graph loop, item by
    item, also for a trip count known only at run time."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 3))
    with pytest.warns(RuntimeWarning, match="runs unrolled"):
        check_against_numpy(states_in_a_dict, X)

    def traced_trip_count(x, n):
        model = {"w": x}
        for i in range(n[0]):
            model = {"w": model["w"] * 0.5}
        return model["w"]

    y = (X[:, 0] > 0).astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # no unrolling, no fallback
        check_against_numpy(model_rebuilt_each_step, X[:5], X[:5, 0])
        check_against_numpy(traced_trip_count, np.ones(3), np.array([12]))
        check_against_numpy(traced_trip_count, np.ones(3), np.array([0]))
        check_against_numpy(trained_by_epochs, X, y, 40)
        check_against_numpy(trained_by_epochs, X, y, np.array(40))
        check_against_numpy(trained_by_epochs, X, y, np.array(0))

    def grows(x, n):
        parts = {"a": x}
        for i in range(n[0]):
            parts = {"a": parts["a"] * 2, "b": x}       # a key more than before the loop
        return len(parts)

    # A structure that changes from one iteration to the next: Python runs the loop for
    # the trip count the data give (a graph per count); one graph for every count (a
    # SavedModel's) cannot.
    for n in (12, 0, 3):
        check_against_numpy(grows, np.ones(3), np.array([n]))
    with pytest.raises(nptf.UnsupportedError, match="changes its structure"):
        nptf.export(grows, tmp_path / "grows", nptf.Spec((3,)), nptf.Spec((1,), np.int64))
    # Items assigned by a string key into a dict the body does not rebind
    # (params["b"] -= ...): the dict is carried item by item too.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_against_numpy(trained_in_place, X, y, 30)
        check_against_numpy(trained_in_place, X, y, np.array(30))
    # Items rebound at other keys: Python runs the body, unrolled where the trip count
    # is known.
    with pytest.warns(RuntimeWarning, match="runs unrolled"):
        check_against_numpy(trained_by_name, X, y, 30)
    check_against_numpy(trained_by_name, X, y, np.array(30))
    with pytest.raises(nptf.UnsupportedError, match="`params`"):
        nptf.export(trained_by_name, tmp_path / "by_name", nptf.Spec(X.shape),
                    nptf.Spec(y.shape), nptf.Spec((), np.int64))


def first_above(a):
    for i in range(20):
        if a[i] > 5:
            return a[i], i
    return a[0], -1


def first_index_above(a):
    for i in range(20):
        if a[i] > 5:
            return i
    return -1


def first_value_above(a):
    for i in range(12):
        if a[i] > 5:
            return float(a[i])
    return 0.5


def newton_sqrt(a, tol=1e-12, max_iter=50):
    x = a / 2.0
    for i in range(max_iter):
        x_new = 0.5 * (x + a / x)
        if np.all(np.abs(x_new - x) < tol):
            return x_new, i
        x = x_new
    return x, max_iter


def no_row_above(a):
    for i in range(12):
        if a[i].sum() > 5:
            return False
    return True


def row_above(a):
    for i in range(12):
        if a[i].sum() > 100:
            return a[i].sum() > 101      # a NumPy bool; the Python bool after the loop
    return False


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_return_inside_a_long_loop(jit):
    """A `return` inside a loop past the unroll limit: a tuple (Python runs the loop
    unrolled; it came back as zeros), a Python int or float (they came back as NumPy
    scalars or raised KeyError)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for x in (np.arange(20.0), np.zeros(20)):
            for fn in (first_above, first_index_above, first_value_above):
                check_against_numpy(fn, x, jit=jit)
        for x in (np.arange(36.0).reshape(12, 3), np.zeros((12, 3))):
            for fn in (no_row_above, row_above):       # Python bools stay Python bools
                check_against_numpy(fn, x, jit=jit)
        check_against_numpy(newton_sqrt, np.array([2.0, 9.0, 10.0]), jit=jit)


def all_three_positive(x):
    if x[0] > 0 and x[1] > 0 and x[2] > 0:
        return 1.0
    return 2.0


def any_of_three_positive(x):
    if x[0] > 0 or x[1] > 0 or x[2] > 0:
        return 1.0
    return 2.0


def count_leading_positive(x):
    i = 0
    while i < len(x) and x[i] > 0:
        i += 1
    return i


def guarded_read(x):
    j = int(np.argmax(x)) + 1
    if j < len(x) and x[j] > 0:
        return x[j]
    return 0.0


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_and_or_on_traced_values_short_circuit(jit):
    """``a and b and c`` weighs every operand (the third was dropped: a wrong answer),
    and an operand after a traced one runs only where Python would run it: the index
    in ``i < len(x) and x[i] > 0`` is never read past the end."""
    for x in ([1.0, 1.0, -1.0], [1.0, 1.0, 1.0], [-1.0, -1.0, 1.0], [-1.0, -1.0, -1.0],
              [0.0, 1.0, 5.0], [0.0, 5.0, 1.0]):
        for fn in (all_three_positive, any_of_three_positive, count_leading_positive,
                   guarded_read):
            check_against_numpy(fn, np.array(x), jit=jit)


def first_nonzero_or_mean(x):
    # `or`'s value is its first true operand, not a bool
    return x[0] * 2 or x.mean()


def both_positive_pairs(x):
    # value context, both operands bools: chained comparisons and `and`
    ok = 0 < x[0] < x[1]
    both = x[0] > 0 and x[2] > 0
    return ok, both, (x[1] > 0 or x[2] > 0)


def positive_sum_or_flag(x):
    return (x.sum() > 0) and x.sum()


def first_or_array(x):
    return x.sum() and x


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_and_or_value_is_an_operand(jit):
    """``a and b`` / ``a or b`` past a traced operand is one of the operands, as in
    Python (it was a bool: ``x[0] * 2 or x.mean()`` gave True). Operands of one type and
    shape compile as one graph; others (a bool or a number, a number or an array) as a
    graph per operand the data choose."""
    for x in ([1.0, 2.0, -1.0], [0.0, 1.0, 5.0], [-1.0, -2.0, 0.0], [0.0, 0.0, 0.0]):
        check_against_numpy(first_nonzero_or_mean, np.array(x), jit=jit)
        check_against_numpy(both_positive_pairs, np.array(x), jit=jit)
    for fn in (positive_sum_or_flag, first_or_array):
        for x in (np.ones(3), np.zeros(3), -np.ones(3)):
            check_against_numpy(fn, x, jit=jit)


def epochs_until_positive(x):
    for ep in range(20):
        if x[ep] > 0:
            break
    return ep


def last_of_a_long_loop(x):
    for i in range(12):
        v = x[i] * 2
    return v, i


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_variables_of_a_loop_that_surely_runs(jit):
    """A graph loop whose trip count is known and not zero defines what its body assigns
    on every path (the loop variable after a `break`): it was refused as assigned on
    some paths only."""
    for x in (np.concatenate([-np.ones(5), np.ones(15)]), -np.ones(20)):
        check_against_numpy(epochs_until_positive, x, jit=jit)
        check_against_numpy(last_of_a_long_loop, x, jit=jit)


def last_of_a_run_time_loop(x, n):
    for i in range(n):
        last = x[i] * 2
        count = i + 1
    return last, count


def centroids_until_settled(X, centroids, max_iter):
    # k-means: `labels` is first set inside a loop on traced values and read after it
    it, shift = 0, np.inf
    while it < max_iter and shift > 1e-6:
        d = ((X[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
        labels = np.argmin(d, axis=1)
        new_c = np.array([X[labels == j].mean(axis=0) for j in range(centroids.shape[0])])
        shift = np.linalg.norm(new_c - centroids)
        centroids = new_c
        it += 1
    return centroids, labels, it


def unused_after_a_run_time_loop(x, n):
    total = 0.0
    for i in range(n):
        step = x[i]
        total = total + step
    return total


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_variables_first_set_in_a_loop_of_run_time_length(jit):
    """What a loop of run-time length first sets is read after it: the value of the last
    iteration, or Python's UnboundLocalError when the loop did not run (only if read)."""
    x = np.arange(1.0, 7.0)
    for n in (np.array(3), np.array(0)):
        check_against_numpy(last_of_a_run_time_loop, x, n, jit=jit)
        check_against_numpy(unused_after_a_run_time_loop, x, n, jit=jit)
    X = np.random.default_rng(0).normal(size=(30, 2))
    for max_iter in (np.array(20), np.array(0)):
        check_against_numpy(centroids_until_settled, X, X[:3].copy(), max_iter, jit=jit)


def best_so_far(x):
    best = np.inf
    for i in range(20):
        loss = (x[i] - 0.3) ** 2
        if loss < best:
            best = loss
    return best


def never_better(x):
    best = -1.0
    for i in range(20):
        if x[i] > 100:
            best = x[i]
    return best


def power_iteration(A):
    v = np.ones(A.shape[0])
    lam = 0.0
    for _ in range(50):
        w = A @ v
        lam_new = np.linalg.norm(w)
        v = w / lam_new
        if abs(lam_new - lam) < 1e-12:
            break
        lam = lam_new
    return lam, v


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_python_number_or_numpy_scalar_as_the_data_choose_in_a_graph_loop(jit):
    """``best = np.inf`` then ``best = loss`` under a traced `if`: the graph loop carries
    which kind the variable holds, so it needs no unrolling (a 200-step training loop
    unrolled past the compile budget and fell back), and the call hands back a Python
    float where no step replaced it, a NumPy scalar where one did."""
    rng = np.random.default_rng(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)     # no "runs unrolled"
        for fn, arg in [(best_so_far, rng.random(20)), (never_better, rng.random(20)),
                        (power_iteration, np.array([[2.0, 1.0], [1.0, 3.0]]))]:
            check_against_numpy(fn, arg, jit=jit)


def tuple_temporary_in_a_long_loop(a, b):
    s = np.zeros(3)
    for i in range(12):
        res = np.divmod(a, b + i)
        s = s + res[0] + res[1]
    return s


def test_a_tuple_temporary_keeps_a_graph_loop(jit):
    """A tuple the body makes and reads within one iteration is not loop state: the loop
    stays a graph loop (it ran unrolled once returns of tuples inside loops did)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)     # no "runs unrolled"
        check_against_numpy(tuple_temporary_in_a_long_loop, np.arange(3.0) + 5, np.ones(3),
                            jit=jit)


def doubled_if_large(x):
    if np.sum(x) > 3:
        return x * 2
    return x


def test_lambdas_are_converted_like_functions():
    """A lambda wrapper (``nptf.compile(lambda x: f(x, k))``) converts its calls, and its
    own conditional expressions on traced values: it is found in its file by its line,
    parameters and code."""
    k = 0.5
    wrappers = {"call": lambda x: doubled_if_large(x) * k,
                "ifexp": lambda x: x * 2 if x.sum() > 3 else -x, "pair": (lambda x: x + 1,
                                                                    lambda y: y - 1),
                "default": lambda x, s=2.0: doubled_if_large(x) + s}
    for fn in [wrappers["call"], wrappers["ifexp"], *wrappers["pair"], wrappers["default"]]:
        for x in (np.ones(5), np.zeros(5)):
            check_against_numpy(fn, x)
    check_against_numpy(lambda x: [doubled_if_large(r) for r in x], np.eye(3) * 4)
    scaled = [lambda x, k=k: doubled_if_large(x) * k for k in (1.0, 2.0)]   # defaults of the loop
    for fn in scaled:
        check_against_numpy(fn, np.ones(5))


def first_large_total(a, limit):
    i = 0
    while i < 10:
        a = a * 1.5
        if np.abs(a).max() > limit:
            return float(a.sum())
        i += 1
    found = i > 3      # noqa: F841  (the function falls off its end: it returns None)


def first_large_index(a, limit):
    for i in range(a.shape[0]):
        if a[i] > limit:
            return i * 1.0


def largest_if_positive(x):
    if x.sum() > 0:
        return float(x.max())
    y = x * 2      # noqa: F841  (falls off its end: None)


def total_once_large(a, k):
    j = k[0] * 0
    while j < 5 and np.abs(a).max() < 50.0:     # may run no step: the function's None
        if a[-1] > 10:
            return float(a.sum())
        a = a * 2.0
        j += 1


def test_falling_off_the_end_after_a_return_inside_a_loop_returns_none(jit):
    """A return inside a loop or a traced if on some data, the implicit ``return None``
    at the end on the rest: each call gives what NumPy's run gives."""
    for limit in (2.0, 1e6):
        check_against_numpy(first_large_total, np.array([1.0, -2.0, 0.5]), limit, jit=jit)
        check_against_numpy(first_large_index, np.array([0.5, 3.0, 1.0]), limit, jit=jit)
    for x in (np.ones(3), -np.ones(3)):
        check_against_numpy(largest_if_positive, x, jit=jit)
    for a in (np.array([60.0, 1.0]), np.array([1.0, 3.0])):
        check_against_numpy(total_once_large, a, np.array([3]), jit=jit)


# ------------------------------------------- loop variables whose size changes, under XLA
def shrinks_under_an_if(x):
    y = x.copy()
    k = 0
    while k < len(x) and x[k] > 0.1:
        if x[k] > 0.5:
            y = y[:-1]
        k += 1
    return y, k


def pops_under_an_if(x):
    st = [1.0, 2.0, 3.0]
    k = 0
    while k < len(x) and x[k] > 0.1:
        if x[k] > 0.5:
            st.pop()
        k += 1
    return np.array(st), k


def descends(A, b, x):
    for _ in range(30):
        x = x - 0.01 * (A.T @ (A @ x - b))
    return x


@pytest.mark.parametrize("fn", [shrinks_under_an_if, pops_under_an_if])
def test_a_loop_variable_that_changes_size_runs_without_xla(fn):
    # XLA pads such a variable to a bound and handed the padding back as data.
    x = np.array([0.6, 0.2, 0.05, 0.9])
    with pytest.warns(RuntimeWarning, match="change size from one iteration to the next"):
        check_against_numpy(fn, x, jit=True)
    check_against_numpy(fn, np.array([0.9, 0.8, 0.7, 0.6]), jit=True)


def test_a_loop_over_open_sizes_keeps_xla():
    """Sizes known only at run time that the loop keeps stay XLA's."""
    spec = [nptf.Spec((None, None), np.float64), nptf.Spec((None,), np.float64),
            nptf.Spec((None,), np.float64)]
    f = nptf.compile(descends, jit_compile=True, adaptive=False, fallback="raise",
                     input_signature=spec)
    r = np.random.default_rng(3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # "runs without XLA" would fail here
        for n in (5, 7, 9):
            A, b = r.random((n + 2, n)), r.random(n + 2)
            np.testing.assert_allclose(f(A, b, np.zeros(n)), descends(A, b, np.zeros(n)))
    assert f.way_for(A, b, np.zeros(9)) == "the graph (xla executor)"
    assert f.cache_info().traces == 1


# ------------------------------- `return None` inside a loop, a value after it
def none_if_any_large(x):
    for i in range(len(x)):
        if x[i] > 100:
            return None
    return x * 2


def none_or_positives(x):
    for i in range(len(x)):
        if x[i] > 100:
            return None
    rows = []
    for v in x:
        if v > 0:
            rows.append(v)
    return rows, len(rows)


def none_or_selection(x):
    for i in range(len(x)):
        if x[i] > 100:
            return None
    sel = x[x > 0]
    return sel, len(sel)


@pytest.mark.parametrize("fn", [none_if_any_large, none_or_positives, none_or_selection])
def test_a_loop_that_returns_none_returns_none(fn):
    # The loop's `return None` gave the value after the loop (x * 2) where NumPy gives
    # None, or failed to build.
    x = np.array([0.5, -1.0, 2.0, -3.0, 4.0, 0.1, -0.2, 0.3, 0.9, 1.1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        for v in (x, x * 100):
            check_against_numpy(fn, v)
            check_against_numpy(fn, v, jit=True)
    assert nptf.compile(fn, fallback="raise")(x * 100) is None


def _reachable(adj, source):
    seen = np.zeros(len(adj), bool)
    seen[source] = True
    queue = [source]
    while queue:
        u = queue.pop(0)
        for v in np.nonzero(adj[u])[0]:
            if not seen[v]:
                seen[v] = True
                queue.append(v)
    return seen


def test_an_inner_loop_that_does_not_run_inside_a_graph_loop():
    # The outer loop carries the inner loop's `v` along; nothing reads it, so an inner
    # loop without neighbours must not raise UnboundLocalError.
    adj = np.zeros((6, 6), int)
    adj[0, 1] = adj[1, 2] = 1
    for source in (0, 4):
        check_against_numpy(_reachable, adj, source)
        check_against_numpy(_reachable, adj, source, jit=True)


def scaled_by_a_number_the_data_choose(x32, a):
    v = 0.5
    if a.sum() > 0:
        v = a.sum()
    return x32 * v, v * 2, np.float32(3) + v, np.maximum(x32, v), np.where(x32 > 0, x32, v)


def test_promotion_with_a_value_that_is_a_python_number_as_the_data_choose():
    # A Python float is weak in NumPy 2's promotion (float32 stays float32), a float64
    # scalar is not: the graph computes float64 and checks that the data chose the
    # scalar; where they chose the Python float, NumPy runs the call.
    x = np.ones(3, np.float32)
    check_against_numpy(scaled_by_a_number_the_data_choose, x, np.ones(2))
    with pytest.raises(nptf.OutsideTheGraphError, match="np.multiply of a value that is a "
                                                        "Python number or a NumPy scalar"):
        nptf.compile(scaled_by_a_number_the_data_choose, fallback="raise")(x, -np.ones(2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = nptf.compile(scaled_by_a_number_the_data_choose)
        for a in (np.ones(2), -np.ones(2)):
            assert mismatch(scaled_by_a_number_the_data_choose(x, a), f(x, a)) is None


def _a_number_the_data_choose(x32):
    v = 0.5
    if x32[0] > 0:
        v = x32.max()                   # a float32 scalar, or the Python float 0.5
    return v


def _best_of_a_loop(x32):
    best = 0.0
    for i in range(len(x32)):           # a graph loop: `best` is carried
        if x32[i] > best:
            best = x32[i]
    return best


@pytest.mark.parametrize("use", [
    lambda x, v: np.full(2, v), lambda x, v: np.array([v, v]), lambda x, v: np.asarray(v),
    lambda x, v: np.concatenate([x, [v]]), lambda x, v: np.append(x, v),
    lambda x, v: np.linspace(0, v, 3), lambda x, v: np.dot(x, v),
    lambda x, v: np.mean([v, x[1]]), lambda x, v: v.astype(np.float64), lambda x, v: v.item(),
    lambda x, v: (x * v, np.minimum(x, v)),
], ids=["full", "array", "asarray", "concatenate", "append", "linspace", "dot", "mean",
        "astype", "item", "ufuncs"])
@pytest.mark.parametrize("choose", [_a_number_the_data_choose, _best_of_a_loop],
                         ids=["if", "loop"])
def test_numpy_functions_of_a_value_that_is_a_python_number_as_the_data_choose(choose, use):
    # np.full(2, 0.5) is float64 but np.full(2, np.float32(2)) float32; a Python float has
    # no .item(): every NumPy function and method taking such a value is checked, and
    # where the data chose the Python number the call runs with NumPy.
    def fn(x32):
        return use(x32, choose(x32))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = nptf.compile(fn)
        for x in (np.array([2, -1, 3], np.float32), np.array([-2, -1, -3], np.float32)):
            try:
                want = fn(x.copy())
            except AttributeError:
                with pytest.raises(AttributeError):
                    f(x.copy())
                continue
            assert mismatch(want, f(x.copy())) is None


# ------------------------------------------------ variables of run-time size set in a loop
def scores_of_the_last_epoch(X, y):
    k = int(y.max()) + 1                 # a size known only at run time
    W = np.zeros((X.shape[1], k))
    for ep in range(40):                 # a graph loop that surely runs
        out = X @ W                      # first set inside, read after the loop
        W += 0.01 * X.T @ (np.eye(k)[y] - out)
    return out.argmax(axis=1), out


def scores_returned_inside(X, y, tol):
    k = int(y.max()) + 1
    W = np.zeros((X.shape[1], k))
    for ep in range(40):
        out = X @ W
        if np.abs(out).max() > tol:
            return out                   # a return value of run-time size
        W += 0.01 * X.T @ (np.eye(k)[y] - out)
    return W


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_value_of_run_time_size_first_set_in_a_loop(jit):
    """A variable (or a return value) a graph loop first sets, of a size known only at
    run time: its value before the loop referred to the body's graph, and TensorFlow
    failed to build the graph (a KeyError reached the user as a BackendError)."""
    X, y = np.random.RandomState(0).randn(12, 4), np.arange(12) % 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        check_against_numpy(scores_of_the_last_epoch, X, y, jit=jit)
        for tol in (0.5, 50.0):
            check_against_numpy(scores_returned_inside, X, y, tol, jit=jit)


# ------------------------------------------------ for/while ... else
def primes_below(n):
    out = []
    for k in range(2, n):
        for d in range(2, k):
            if k % d == 0:
                break
        else:
            out.append(k)
    return np.array(out)


def count_without_small_factors(a):
    cnt = 0
    for k in a:
        for d in range(2, 6):
            if k % d == 0 and k != d:
                break
        else:
            cnt += 1
    return cnt


def sqrt2_or_minus_one(x, tol):
    it = 0
    while it < 50:
        x = 0.5 * (x + 2.0 / x)
        it += 1
        if abs(x * x - 2.0) < tol:
            break
    else:
        it = -1
    return x, it


def doubled_sum(a):
    s = 0.0
    for v in a:
        s += v
    else:
        s *= 2
    return s


def index_above(a, t):
    for i in range(len(a)):
        if a[i] > t:
            return i
    else:
        return -1


def rows_with_a_large_entry(M, t):
    rows = 0
    for i in range(M.shape[0]):
        for j in range(M.shape[1]):
            if M[i, j] > t:
                break
        else:
            continue                     # the outer loop's continue
        rows += 1
    return rows


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_loops_with_an_else_block(jit):
    """`for ... else` / `while ... else`: the else block runs where the loop ends without
    a break or a return; a jump inside it belongs to the loop around. A break under an
    `if` in such a loop was a SyntaxError ('break' outside loop) from the conversion."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        check_against_numpy(primes_below, 20, jit=jit)
        check_against_numpy(count_without_small_factors, np.array([2, 3, 4, 5, 9, 7, 11, 25]),
                            jit=jit)
        for tol in (1e-9, -1.0):
            check_against_numpy(sqrt2_or_minus_one, 1.0, tol, jit=jit)
        check_against_numpy(doubled_sum, np.arange(4.0), jit=jit)
        for t in (2.5, 5.0):
            check_against_numpy(index_above, np.array([1.0, 3.0, 2.0]), t, jit=jit)
        check_against_numpy(rows_with_a_large_entry,
                            np.array([[1.0, 5.0], [0.0, 1.0], [9.0, 0.0]]), 2.0, jit=jit)


def roulette_centres(X, k=3):
    # k-means++ by a roulette wheel: `i` is set only where the wheel stops
    centers = [X[0]]
    for _ in range(1, k):                  # unrolled
        d2 = np.array([min([np.inner(c - x, c - x) for c in centers]) for x in X])
        cumprobs = (d2 / d2.sum()).cumsum()
        for j, p in enumerate(cumprobs):   # a graph loop
            if 0.5 < p:
                i = j
                break
        centers.append(X[i])
    return np.array(centers)


def test_a_variable_set_on_some_paths_of_a_graph_loop_follows_the_data():
    """A variable a graph loop's body sets under an `if` on the data only, with no value
    before the loop, is carried with a kind saying whether a path assigned it: read after
    the loop, it is the value the wheel stopped at."""
    X = np.random.RandomState(0).randn(8, 2)
    check_against_numpy(roulette_centres, X)


# ------------------------------------------------ dict items rebound in a loop
def logistic_in_a_dict(X, y, epochs, lr=0.1, lam=0.01):
    model = {"w": np.zeros(X.shape[1]), "b": 0.0}
    for epoch in range(epochs):
        p = 1 / (1 + np.exp(-(X @ model["w"] + model["b"])))
        model["w"] -= lr * (X.T @ (p - y) / len(y) + lam * model["w"])   # in place
        model["b"] -= lr * np.mean(p - y)                               # rebinds the item
    return model, float(np.mean((p >= 0.5) == y))


def adam_in_a_config(w, grads, n):
    config = {"lr": 1e-2, "m": np.zeros_like(w), "v": np.zeros_like(w), "t": 0}
    for k in range(n):
        dw = grads[k % len(grads)]
        config["t"] += 1
        config["m"] = 0.9 * config["m"] + 0.1 * dw
        config["v"] = 0.999 * config["v"] + 0.001 * dw ** 2
        mb = config["m"] / (1 - 0.9 ** config["t"])
        vb = config["v"] / (1 - 0.999 ** config["t"])
        w = w - config["lr"] * mb / (np.sqrt(vb) + 1e-8)
    return w, config


def test_dict_items_rebound_in_a_loop_keep_a_graph_loop():
    """``model["b"] -= ...`` rebinds an item of a dict on every epoch: the dict is carried
    item by item as a loop variable (it ran unrolled, 100 copies of the body, whose
    build under XLA ran past the compile budget)."""
    r = np.random.RandomState(1)
    X, y = r.randn(20, 2), (r.randn(20) > 0).astype(int)
    grads = r.randn(3, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no "runs unrolled"
        for jit in (False, True):
            check_against_numpy(logistic_in_a_dict, X, y, 100, jit=jit)
            check_against_numpy(adam_in_a_config, r.randn(4), grads, 30, jit=jit)
    assert len(nptf.compile(logistic_in_a_dict).trace(X, y, 100).eqns) < 40


# ------------------------------------------------ a return and a break in one loop
def doubled_above_or_zero(a, t):
    for v in a:
        if v > t:
            return v * 2
        if v < -t:
            break
    return 0.0


def index_above_until_negative(a, t):
    i = 0
    while i < len(a):
        if a[i] > t:
            return a[i]
        if a[i] < -t:
            break
        i += 1
    return np.float64(0.0)


def sum_until(a, t):
    total = 0.0
    for i in range(40):
        if a[i % len(a)] > t:
            return total
        if total > 5:
            break
        total += abs(a[i % len(a)])
    else:
        return -1.0
    return total * 2


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_return_and_a_break_in_one_loop(jit):
    """A loop that may `return` and may `break` on the data: whether it stops is either
    flag. A loop run by Python (unrolled) asked Python's `or` of the two traced flags,
    which refused (bool() of a traced value)."""
    for t in (2.5, 0.5, 10.0):
        for x in (np.array([1.0, 3.0]), np.array([1.0, -3.0, 4.0]), np.array([0.1, 0.2])):
            check_against_numpy(doubled_above_or_zero, x, t, jit=jit)
            check_against_numpy(index_above_until_negative, x, t, jit=jit)
            check_against_numpy(sum_until, x, t, jit=jit)


# ------------------------------------------------ return an array written in place
def gd_until_small_gradient(X, y, tol):
    w = np.zeros(X.shape[1])
    for ep in range(200):
        g = X.T @ (X @ w - y) / len(y)
        if np.linalg.norm(g) < tol:
            return w, ep                 # the array the loop writes in place
        w -= 0.1 * g
    return w, -1


def shifted_until_positive(x):
    for k in range(30):
        if x.min() > 0:
            return x
        x += 0.25                        # the argument, in place
    return x * 0


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_returning_an_array_the_loop_writes_in_place(jit):
    """`return w, ep` inside a loop that then writes `w -= lr * g`: the return value
    is set as the function returns, so no later write can reach it; nptf refused the
    in-place write (the return value and w might share memory as the data choose)."""
    X = np.random.RandomState(0).randn(10, 2)
    y = X @ np.array([1.0, 2.0])
    for tol in (1e-3, 1e-12):
        check_against_numpy(gd_until_small_gradient, X, y, tol, jit=jit)
    for x in (np.array([-1.0, 0.5, 2.0]), np.array([-20.0, 1.0])):
        check_against_numpy(shifted_until_positive, x, jit=jit)


# ------------------------------------ break / continue / return inside try and with
def return_in_loop_in_try(x):
    try:
        for i in range(len(x)):
            if x[i] > 2:
                return i
    except ValueError:
        pass
    return -1


def return_in_loop_in_with(x):
    with np.errstate(divide="ignore"):
        for i in range(len(x)):
            if 1.0 / x[i] < 0.5:
                return i, x[i]
    return -1, 0.0


def break_in_with_in_loop(x):
    s = 0.0
    for i in range(len(x)):
        with np.errstate(all="ignore"):
            if x[i] > 2:
                break
        s += x[i]
    return s


def break_in_try_finally(x):
    s = 0.0
    n = 0
    for i in range(len(x)):
        try:
            if x[i] > 2:
                break
            if x[i] < 0:
                continue
        finally:
            n += 1
        s += x[i]
    return s, n


def break_in_handler(A, x0, iters=5):
    # Rayleigh quotient iteration: the solve fails once the shift hits an eigenvalue.
    x = x0 / np.linalg.norm(x0)
    lams = []
    for _ in range(iters):
        lam = float(x @ A @ x)
        lams.append(lam)
        try:
            y = np.linalg.solve(A - lam * np.eye(len(x)), x)
        except np.linalg.LinAlgError:
            break
        x = y / np.linalg.norm(y)
    return np.array(lams)


def return_in_try_at_top(A):
    try:
        return np.linalg.inv(A)
    except np.linalg.LinAlgError:
        return None


def continue_skips_the_else(x):
    ok = 0
    r = 0.0
    for v in x:
        try:
            if v < 0:
                continue
            r = float(np.sqrt(v))
        except ValueError:
            continue
        else:
            ok += 1
            if ok > 2:
                break
    return ok, r


@pytest.mark.parametrize("fn", [return_in_loop_in_try, return_in_loop_in_with,
                                break_in_with_in_loop, break_in_try_finally,
                                continue_skips_the_else])
def test_jumps_inside_try_and_with_leave_the_loop(fn, jit):
    check_against_numpy(fn, np.array([1.0, -1.0, 3.0, 5.0]), jit=jit)
    check_against_numpy(fn, np.array([1.0, 0.5, -2.0]), jit=jit)


def test_break_in_an_except_handler(jit):
    A = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])
    check_against_numpy(break_in_handler, A, np.array([1.0, 0.5, 0.2]), jit=jit)
    check_against_numpy(return_in_try_at_top, A, jit=jit)


# --------------------- an array returned inside a traced if, and written on other paths
def sor_until_converged(f, h, omega=1.5, tol=1e-6, max_iter=300):
    n = f.shape[0]
    u = np.zeros_like(f)
    for it in range(max_iter):
        max_change = 0.0
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                new = 0.25 * (u[i + 1, j] + u[i - 1, j] + u[i, j + 1] + u[i, j - 1]
                              - h * h * f[i, j])
                change = abs(new - u[i, j])
                u[i, j] = u[i, j] + omega * (new - u[i, j])
                if change > max_change:
                    max_change = change
        if max_change < tol:
            return u, it + 1
    return u, max_iter


def flood_fill(img, seed, new_value):
    out = img.copy()
    h, w = out.shape
    old = out[seed]
    if old == new_value:
        return out
    stack = [seed]
    while stack:
        i, j = stack.pop()
        if i < 0 or i >= h or j < 0 or j >= w:
            continue
        if out[i, j] != old:
            continue
        out[i, j] = new_value
        stack.append((i + 1, j))
        stack.append((i - 1, j))
        stack.append((i, j + 1))
        stack.append((i, j - 1))
    return out


def zero_until_large(x):
    # The argument itself, returned at a data-chosen step and written in place before.
    for i in range(len(x)):
        if x[i] > 2:
            return x
        x[i] = 0.0
    return x[1:]


def written_in_finally(x):
    out = x.copy()
    try:
        for i in range(len(x)):
            if out[i] > 2:
                return out
            out[i] = 7.0
    finally:
        out[0] = -1.0
    return out


def test_an_array_returned_under_a_traced_if_is_written_on_the_other_paths(jit):
    check_against_numpy(sor_until_converged, np.ones((5, 5)), 0.25, jit=jit)
    check_against_numpy(sor_until_converged, np.ones((5, 5)), 0.25, 1.5, 1e-6, 3, jit=jit)
    img = np.array([[1, 1, 0, 0], [1, 0, 0, 1], [1, 1, 0, 1], [0, 1, 1, 1]])
    check_against_numpy(flood_fill, img, (0, 0), 5, jit=jit)
    check_against_numpy(flood_fill, img, (0, 0), 1, jit=jit)
    check_against_numpy(zero_until_large, np.array([1.0, 2.0, 3.0, 0.5]), jit=jit)
    check_against_numpy(zero_until_large, np.array([1.0, 2.0]), jit=jit)


def test_a_finally_block_after_a_return_is_not_converted(tmp_path):
    # Python runs the finally block after choosing the returned array, and its write
    # reaches that array: the function runs as written, its `if` on traced data taking
    # the path of the call's data (a graph for each), which one graph cannot.
    for x in ([1.0, 3.0, 5.0], [1.0, 1.5, 0.5], [4.0, 1.0, 0.0]):
        check_against_numpy(written_in_finally, np.array(x))
    with pytest.raises(nptf.Error, match="bool"):
        nptf.export(written_in_finally, tmp_path / "m", nptf.Spec((3,)))


# ------------------------------------------ a for loop with both a break and a return
def secant(x0=1.0, x1=2.0, tol=1e-10, max_iter=50):
    f = lambda x: x ** 3 - 2 * x - 5  # noqa: E731
    for i in range(max_iter):
        f0, f1 = f(x0), f(x1)
        if f1 == f0:
            break
        x2 = x1 - f1 * (x1 - x0) / (f1 - f0)
        if abs(x2 - x1) < tol:
            return x2, i + 1
        x0, x1 = x1, x2
    return x1, max_iter


def first_negative_or_stop(x, stop):
    seen = 0
    for i in range(len(x)):
        if x[i] > stop:
            break
        if x[i] < 0:
            return i, seen
        seen += 1
    return -1, seen


def test_a_for_loop_that_breaks_and_returns_on_traced_data(jit):
    check_against_numpy(secant, jit=jit)
    check_against_numpy(secant, 1.0, 2.0, 1e-10, 3, jit=jit)
    check_against_numpy(secant, 2.0, 2.0, jit=jit)
    x = np.array([1.0, 2.0, -1.0, 5.0, 0.5, 3.0, 2.0, 1.0])
    for stop in (4.0, 1.5, 9.0):
        check_against_numpy(first_negative_or_stop, x, stop, jit=jit)
        check_against_numpy(first_negative_or_stop, np.abs(x), stop, jit=jit)
        check_against_numpy(first_negative_or_stop, np.tile(x, 40), stop, jit=jit)


def _drawn_with_a_number_the_data_choose(x32):
    v = 0.5
    if x32[0] > 0:
        v = x32.max()
    return np.random.normal(0.0, v, 3).shape


def _drawn_with_a_fixed_number(x32):
    return np.random.normal(0.0, 0.5, 3).shape


def test_draws_with_a_python_number_the_data_choose_leave_numpys_state():
    # The promotion check runs NumPy's function on samples: never np.random's, whose
    # run would draw from the caller's global state (beyond the seed the graph takes).
    x = np.array([2, -1, 3], np.float32)
    after = []
    for fn in (_drawn_with_a_fixed_number, _drawn_with_a_number_the_data_choose):
        np.random.seed(7)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            nptf.compile(fn, adaptive=False)(x)
        after.append(np.random.random(4))
    np.testing.assert_array_equal(after[1], after[0])


def pivots_in_place(M):
    """A `return` inside a `while` the data never enter."""
    M = M.astype(float).copy()
    lead, rows = 0, M.shape[0]
    for r in range(rows):
        i = r
        while M[i, lead] == 0:
            i += 1
            if i == rows:
                return M
        M[[i, r]] = M[[r, i]]
        M[r] = M[r] / M[r, lead]
        lead += 1
    return M


def test_a_return_inside_a_loop_that_never_runs():
    check_against_numpy(pivots_in_place, np.array([[1, 2], [0, 3]]))


def probabilities_total(x):
    """`assert` on traced values: checked when the graph runs."""
    total = 0.0
    for i in range(len(x)):
        assert x[i] >= 0, "negative probability"
        total += x[i]
    assert abs(total - 1) < 1e-9
    return total


def test_assert_on_traced_values():
    compiled = nptf.compile(probabilities_total, fallback="raise", adaptive=False)
    assert compiled(np.array([0.25, 0.25, 0.5])) == 1.0
    with pytest.raises(AssertionError, match="negative probability"):
        compiled(np.array([0.5, -0.5, 1.0]))
    with pytest.raises(AssertionError):
        compiled(np.array([0.5, 0.6, 0.0]))


# ------------- a loop variable of a loop that never runs, behind a return under a traced if
def tail_loop_after_return(c, k):
    if c[0] > 0.5:              # traced: the rest runs under the return's flag
        return c[0]
    tot = 0.0
    for q in range(k[0]):       # a trip count of 0 leaves `q` unbound; nothing reads it
        if c[q] > 0.5:
            continue
        tot = tot + 1.0
    return tot


def tail_loop_in_a_helper(c, k):
    def helper(mm):
        if c[mm] > 0.5:
            return c[0]
        tot = 0.0
        for q in range(mm):
            if c[q] > 1.0:
                break
            tot = tot + q * 0.5
        return tot
    return helper(k[0])


@pytest.mark.parametrize("fn", [tail_loop_after_return, tail_loop_in_a_helper])
@pytest.mark.parametrize("k", [0, 2])
def test_an_unread_variable_of_a_loop_that_never_ran_after_a_traced_return(fn, k, jit):
    check_against_numpy(fn, np.array([0.1, 0.2, 2.0]), np.array([k]), jit=jit)


# ------------- NumPy's error from a path of a traced `if` the data may not take
def add_on_a_flag(a, b):
    g = False
    if 0 not in np.sign(b):     # traced
        h = a * 0.5
        g = True
    if g:
        a += h                  # float into an int array: NumPy raises, on this path only
    return a


def test_a_numpy_error_on_a_path_the_data_do_not_take(jit):
    check_against_numpy(add_on_a_flag, np.array([1, 2, 3]), np.array([0, 4, -1]), jit=jit)


def test_a_numpy_error_on_a_path_the_data_take_runs_numpy():
    a, b = np.array([1, 2, 3]), np.array([1, 4, -1])
    with pytest.warns(RuntimeWarning, match="UFuncTypeError"), \
            pytest.raises(TypeError, match="Cannot cast ufunc 'add'"):
        nptf.compile(add_on_a_flag)(a, b)
    with pytest.raises(nptf.Error, match="raises UFuncTypeError"):
        nptf.compile(add_on_a_flag, fallback="raise")(a, b)
    assert list(a) == [1, 2, 3]


# ------------------------------------------------------------ itertools.count with a break
def power_iteration_count(A, tol=1e-10):
    v = np.ones(A.shape[0]) / np.sqrt(A.shape[0])
    for it in itertools.count(1):
        w = A @ v
        w = w / np.linalg.norm(w)
        if np.abs(w - v).max() < tol:
            v = w
            break
        v = w
    return v, it


def countdown(x):
    for k in itertools.count(10, -3):
        x = np.cos(x) + k * 0.01
        if k < 0 or x.sum() > 100:
            break
    return x, k


def test_a_loop_over_itertools_count_that_the_data_end_is_a_graph_loop():
    rng = np.random.default_rng(0)
    B = rng.random((5, 5))
    A = B @ B.T + np.diag([5.0, 1, 1, 1, 1])
    check_against_numpy(power_iteration_count, A)
    check_against_numpy(countdown, np.ones(3))
    graph = str(nptf.compile(power_iteration_count, fallback="raise").trace(A))
    assert "while[" in graph


# ------------------------------------------------ views a traced `if` chooses
def row_chosen(x, j):
    b = x[0]
    if x[j % 5].sum() < b.sum():        # a view at a traced index, on one path
        b = x[j % 5]
    return b


def best_row_in_a_loop(x, j):
    best = (np.inf, x[0])
    for i in range(40):                 # a graph loop: `i` is traced
        d = x[(i + j) % 6].sum() + i
        if d < best[0]:
            best = (d, x[(i + j) % 6])
    return best


def slice_chosen(x, j):
    b = x[j % 5] if x[j % 5].sum() > 0 else x[0]
    c = x[0, :]
    if x[:, 0].sum() > 0:
        c = x[j % 3: j % 3 + 2, 1]
    return b * 2, c


def smallest_row_until(x, j):
    best = x[0]
    k = 0
    while k < j:
        cand = x[k % 6]
        if cand.sum() < best.sum():
            best = cand
        k += 1
    return best


def row_chosen_then_written(x, j):
    b = x[0]
    if x[j % 5].sum() < b.sum():
        b = x[j % 5]
    x[0] = 5.0                          # writes into `b` where it is x[0]
    return b


@pytest.mark.parametrize("fn", [row_chosen, best_row_in_a_loop, slice_chosen,
                                smallest_row_until])
@pytest.mark.parametrize("j", [3, 40])
def test_views_at_traced_positions_chosen_by_a_traced_if(fn, j, jit):
    """A path's view at a traced position (``x[j % 5]``) is the `if`'s value: the `if`
    asks what it is in that path's graph, where its position exists."""
    x = np.random.default_rng(j).normal(size=(6, 2))
    check_against_numpy(fn, x, np.int64(j), jit=jit)


def test_a_write_into_an_array_a_view_chosen_by_the_data_may_share_is_refused():
    x = np.random.default_rng(0).normal(size=(6, 2))
    with pytest.raises(nptf.UnsupportedError, match="depending on the data"):
        nptf.compile(row_chosen_then_written, fallback="raise")(x.copy(), np.int64(3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = nptf.compile(row_chosen_then_written)(x.copy(), np.int64(3))
    assert mismatch(row_chosen_then_written(x.copy(), np.int64(3)), got) is None


def break_or_assign(A, x0, iters=5):
    x = x0 / np.linalg.norm(x0)
    for _ in range(iters):
        if x.sum() > 1.8:                 # traced: `y` is unbound on the path that breaks
            break
        else:
            y = A @ x
        x = y / np.linalg.norm(y)
    return x


def continue_or_assign(A, x0):
    total = 0.0
    for k in range(6):
        if x0[k % 3] < 0:
            continue
        else:
            z = A[k % 3] * x0
        total += z.sum()
    return total


@pytest.mark.parametrize("x0", [[1.0, 0.5, 0.2], [0.1, 0.1, -0.2]])
def test_a_variable_unbound_on_the_path_that_leaves_an_unrolled_loop(x0, jit):
    """A path that breaks (or continues) leaves the variable the other path binds unbound:
    its memory is marked as the data's choice where it lives, not in the path's graph."""
    A = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])
    check_against_numpy(break_or_assign, A, np.array(x0), jit=jit)
    check_against_numpy(continue_or_assign, A, np.array(x0), jit=jit)


# ------------------------------------------------ dict items a traced `if` writes
def dict_items_on_both_paths(x):
    out = {"n": 3}
    alias = out
    if x.mean() > 0:
        out["sign"] = 1.0                 # a key new on both paths, in one order
        out["n"] = 1
    else:
        out["sign"] = -1.0
        out["n"] = 2
    out["m"] = x.sum()
    return alias, out is alias


def dict_items_by_name(groups):
    result = {}
    for name, vals in groups.items():
        mean = float(np.mean(vals))
        if mean != 0:
            result[name] = float(np.std(vals)) / mean
        else:
            result[name] = float("inf")
    return result


def dict_counts_in_a_graph_loop(x):
    stats = {"pos": 0, "neg": 0}
    for i in range(20):
        if x[i % 3] > 0:
            stats["pos"] += 1
        else:
            stats["neg"] += 1
    return stats


def dict_key_on_one_path(x):
    out = {"n": 3}
    if x.mean() > 0:
        out["sign"] = 1.0
    return out


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_dict_items_a_traced_if_writes(sign, jit):
    """``stats["sign"] = 1.0`` on the paths of an `if` on traced values: the items join
    its variables and go back into the same dict; a key only one path adds makes a graph
    per path the data take."""
    x = np.array([1.0, -2.0, 3.0]) * sign
    check_against_numpy(dict_items_on_both_paths, x, jit=jit)
    check_against_numpy(dict_items_by_name, {"a": x, "b": np.array([1.0, -1.0])}, jit=jit)
    check_against_numpy(dict_counts_in_a_graph_loop, x, jit=jit)
    check_against_numpy(dict_key_on_one_path, x, jit=jit)


def _zero_leading(grid, t, mode):
    k = 0
    if mode == 1:
        while k < 2 and grid[k] > 5:          # a loop of the function's own graph
            k += 1
    total = 0
    if grid[0] > t:
        j = 0
        while j < grid.shape[0] and grid[j] > t:    # the first loop inside a branch
            grid[j] = 0.0
            j += 1
        total += j
    return total + k, grid


def test_a_loop_first_met_in_a_branch_starts_from_its_own_trace_s_hints():
    """What traces of a loop learn (the arrays it writes in place) is kept for one trace:
    a second signature whose first loop sits in a branch does not start from the values
    of the first signature's graph (a TensorFlow KeyError otherwise)."""
    f = nptf.compile(_zero_leading, fallback="raise", static_argnames=["mode"])
    for mode in (1, 0):
        x = np.linspace(1, 0, 6)
        got = f(x.copy(), 0.3, mode)
        want = _zero_leading(x.copy(), 0.3, mode)
        assert got[0] == want[0]
        np.testing.assert_array_equal(got[1], want[1])

def _neighbours_set(grid, i, j):
    count = 0
    for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        ny, nx = i + dy, j + dx
        if 0 <= ny < grid.shape[0] and 0 <= nx < grid.shape[1] and grid[ny, nx] > 0:
            count += 1
    return count


def test_reads_a_test_guards_are_chosen_without_a_branch(jit):
    """``0 <= ny < H and ... and grid[ny, nx]``: the read runs on both paths, at positions
    clipped into the array on the path Python would not take, and ``where`` chooses; no
    ``cond`` is left (TensorFlow builds two function graphs for each)."""
    from nptf.graph_ir.walk import all_eqns
    grid = (np.arange(12).reshape(3, 4) % 3 == 0).astype(np.int64)
    f = nptf.compile(_neighbours_set, fallback="raise", jit_compile=jit)
    for i, j in [(0, 0), (2, 3), (1, 2), (0, 3)]:
        assert f(grid, np.int64(i), np.int64(j)) == _neighbours_set(grid, i, j)
    ops = [e.op.name for e in all_eqns(f.trace(grid, np.int64(0), np.int64(0)))]
    assert "cond" not in ops and "gather_nd" in ops


def _components(binary):
    H, W = binary.shape
    labels = np.zeros((H, W), dtype=np.int32)
    sizes, nxt = [], 1
    for i in range(H):
        for j in range(W):
            if binary[i, j] and not labels[i, j]:
                q = collections.deque([(i, j)])
                labels[i, j] = nxt
                size = 0
                while q:
                    y, x = q.popleft()
                    size += 1
                    for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                        ny, nx = y + dy, x + dx
                        if 0 <= ny < H and 0 <= nx < W and binary[ny, nx] and \
                                labels[ny, nx] == 0:
                            labels[ny, nx] = nxt
                            q.append((ny, nx))
                sizes.append(size)
                nxt += 1
    return labels, sizes


def test_a_short_loop_around_a_graph_loop_runs_its_other_iterations_as_one():
    """Rows of a grid, each searched by a graph loop: the first row's iteration is traced
    as Python runs it, the other rows as one graph loop, not one copy of the search per
    row."""
    from nptf.graph_ir.walk import all_eqns
    binary = np.zeros((4, 5), dtype=bool)
    binary[0:2, 1:3] = binary[3, 3:5] = binary[3, 0] = True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        check_against_numpy(_components, binary)
        f = nptf.compile(_components, fallback="raise")
        loops = sum(e.op.name == "while" for e in all_eqns(f.trace(binary)))
    assert loops <= 6, loops


def any_positive(x):
    return True if x.sum() > 0 else False


def flag_and_count(x):
    found, hits = False, 0
    for v in x:
        ok = False
        if v > 2:
            ok = found = True
        hits += ok
    return found, [found], {"ok": ok}, hits, found + 1, found * 2.5, found and 3


def test_python_bools_set_on_traced_paths_stay_python_bools(jit):
    """``found = True`` under a traced `if` (or as a branch of a conditional expression)
    gives a Python bool after it, as Python does, and Python's arithmetic on it
    (``found + 1`` is the int 2), not a NumPy bool."""
    for x in (np.array([1.0, 3.0, 0.5]), np.array([-1.0, 0.0, 2.0])):
        for fn in (any_positive, flag_and_count):
            expected = fn(x)
            got = nptf.compile(fn, fallback="raise", jit_compile=jit, adaptive=False)(x)
            assert repr(got) == repr(expected), (fn.__name__, got, expected)


def reused_name(x):
    d = x.sum(axis=0)               # a vector before the loop
    out = np.zeros(len(x))
    for t in range(len(x)):
        d = x[t].sum()              # a number in it, assigned before it is read
        out[t] = d * 2
    m = x.astype(np.int64)
    for t in range(len(x)):
        m = x[t] * 0.5              # another dtype
        out[t] += m.sum()
    return out, d, m


def reused_name_read_first(x):
    d = x.sum(axis=0)
    out = np.zeros(len(x))
    for t in range(len(x)):
        out[t] = np.sum(d)
        d = x[t].sum()
    return out, d


def test_a_name_reused_for_another_rank_or_dtype_in_a_loop(jit):
    """A loop of a known trip count that assigns a variable before it reads it, for a
    value of another rank or dtype than it had before the loop (a name reused for a
    temporary): the value before the loop is never read, so the graph loop carries the
    body's. Read before it is assigned, the first iteration reads the value before the
    loop: it runs in Python, the others as a graph loop."""
    x = np.arange(36.0).reshape(12, 3)
    check_against_numpy(reused_name, x, jit=jit)
    check_against_numpy(reused_name_read_first, x, jit=jit)


def running_max_by_sentinel(a):
    loop = []
    cur = None
    for x in a:
        if cur is None or x > cur:
            cur = x
        loop.append(cur)
    return np.array(loop), cur


def last_above(a, t):
    best = None
    for x in a:
        if x > t:
            best = x
    return best


def test_a_none_sentinel_before_a_long_loop(jit):
    """``cur = None`` before a loop of a known trip count that sets it on the first
    iteration (``if cur is None or x > cur``): the first iteration runs in Python, so the
    list the loop appends ``cur`` to holds numbers; a variable the data may leave None
    stays None where they do."""
    a = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8])
    check_against_numpy(running_max_by_sentinel, a, jit=jit)
    check_against_numpy(running_max_by_sentinel, a * 0.5, jit=jit)
    check_against_numpy(last_above, np.arange(12.0), 5.0, jit=jit)
    check_against_numpy(last_above, np.arange(12.0), 50.0, jit=jit)


def promoted_by_the_first_step(x, n):
    s = np.zeros(x.shape, np.int64)
    counts = np.zeros(3, np.int32)
    for i in range(n):
        s = 0.5 * s + x             # int64 before the loop, float64 from the first step on
        counts = counts + i         # int32, as NumPy keeps it with a Python int
    return s, counts


@pytest.mark.parametrize("n", [1, 2, 30])
def test_a_loop_whose_first_step_promotes_a_variable(n, jit):
    """A variable the first iteration gives another dtype (NumPy's promotion): that
    iteration runs in Python, the others as one graph loop of the promoted dtype."""
    check_against_numpy(promoted_by_the_first_step, np.arange(4.0), n, jit=jit)
    if n == 30:
        graph = nptf.compile(promoted_by_the_first_step, fallback="raise").trace(
            np.arange(4.0), n)
        assert any(e.op.name == "while" for e in graph.eqns)


xrange = range          # Python 2 code kept running (QuantEcon's gth_solve)


def backward_substitution(A):
    n = A.shape[0]
    for k in xrange(n - 1):
        if np.sum(A[k, k + 1:n]) <= 0:
            n = k + 1                   # a bound the data give
            break
    x = np.zeros(A.shape[0])
    x[n - 1] = 1
    for k in xrange(n - 2, -1, -1):
        x[k] = np.dot(x[k + 1:n], A[k + 1:n, k])
    return x, list(xrange(3))


def test_range_by_another_name_loops_over_traced_bounds(jit):
    """``range`` bound to another name: its bounds from the data make a graph loop, as
    ``range``'s do; with Python numbers it is Python's range."""
    A = np.array([[0.5, 0.3, 0.2], [0.1, 0.6, 0.3], [0.2, 0.2, 0.6]])
    check_against_numpy(backward_substitution, A, jit=jit)
    A[0, 1:] = 0
    check_against_numpy(backward_substitution, A, jit=jit)


def neighbours_by_another_name(g):
    n = int(np.sum(g > 0))
    return sum([k * 2 for k in xrange(n) for _ in xrange(2)])


def test_range_by_another_name_where_python_iterates(tmp_path):
    """Where Python itself iterates such a range (a comprehension of two generators), a
    traced bound is the count the call's data give (a graph for each); one graph for
    every count cannot take it, as Python's range cannot."""
    for g in ([1.0, -1.0, 2.0], [1.0, 1.0, 2.0], [-1.0, -1.0, 0.0]):
        check_against_numpy(neighbours_by_another_name, np.array(g))
    with pytest.raises(nptf.TracerConversionError):
        nptf.export(neighbours_by_another_name, tmp_path / "m", nptf.Spec((3,)))


# ------------------------------------------------ assignment expressions in lazy operands
def sphere_hit(center, radius, origin, direction):
    proj = np.dot(direction, center - origin)
    delta = radius ** 2 + proj ** 2 - np.dot(center - origin, center - origin)
    if delta > 0 and (t := proj - np.sqrt(delta)) > 0:     # t bound only where delta > 0
        point = origin + t * direction
        return True, point, (point - center) / radius
    return False, None, None


def walrus_in_a_conditional_expression(x):
    y = (m := x.max()) * 2 if x.sum() > 0 else (m := x.min())
    return y, m


def walrus_after_or(x):
    found = x.sum() > 0 or (k := int(np.argmax(x))) > 1
    return found, (k if not x.sum() > 0 else -1)


def test_a_walrus_in_an_operand_python_may_skip_binds_the_function_s_variable(jit):
    """``a and (t := f(x)) > 0``: the operands after the first run only where Python runs
    them, and ``t`` is the function's variable (the ray tracer's hit test)."""
    center, origin = np.array([6.0, 0.0, 7.0]), np.zeros(3)
    for direction in ([0.5, 0.0, 0.866], [-0.5, 0.0, 0.866]):
        check_against_numpy(sphere_hit, center, 2, origin, np.array(direction), jit=jit)
    for x in (np.arange(3.0), -np.arange(3.0)):
        check_against_numpy(walrus_in_a_conditional_expression, x, jit=jit)
    for x in (np.arange(3.0), -np.arange(4.0)[::-1], -np.arange(4.0)):
        check_against_numpy(walrus_after_or, x, jit=jit)


def done_after_doubling(c):
    for i in range(12):             # past the unroll limit: a graph loop, were it not
        c = c * 2
        if c.shape[0] > 0:          # known while tracing: Python's `if`
            return "done"
    return (c,)


def done_at(c):
    for i in range(12):
        c = c * 2
        if c.shape[0] > 0:
            return "done %d" % i
    return (c,)


def test_a_return_of_a_string_inside_a_long_loop_is_that_string(jit):
    """A graph loop cannot carry a string out of it: the code after the loop read the
    tuple of the other `return` (with zeros for its arrays). The loop runs unrolled."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_against_numpy(done_after_doubling, np.ones(3), jit=jit)
        check_against_numpy(done_at, np.ones(3), jit=jit)


# ------------------------------------- a container another name holds, chosen by an `if`
def chosen_row_appended(x):
    rows = [[0, 2], [1, 3]]
    row = rows[0] if x.sum() > 0 else rows[1]
    row.append(7)                   # reaches the row the data chose, in `rows`
    return rows


def chosen_row_then_original_changed(x):
    rows = [[0.0], [1.0]]
    if x[0] > 0:
        row = rows[0]
    else:
        row = rows[1]
    rows[0].append(5.0)             # shows in `row` where the data chose rows[0]
    return row, len(row)


def chosen_dict_written(x):
    a, b = {"w": 1.0}, {"w": 2.0}
    d = a if x.sum() > 0 else b
    d["w"] = float(x[0])
    return a, b


def chosen_rows_in_a_loop(x):
    rows = [[], []]
    for i in range(len(x)):
        row = rows[0] if x[i] > 0 else rows[1]
        row.append(i)
    return rows


def test_a_container_another_name_holds_is_the_one_the_data_choose():
    """The object itself, as in Python, not a copy of its items: a change through either
    name reaches it."""
    for fn in (chosen_row_appended, chosen_row_then_original_changed, chosen_dict_written):
        for x in ([1.0, 2.0], [-1.0, -2.0], [1.0, 2.0]):
            check_against_numpy(fn, np.array(x))
    for x in ([1.0, -2.0, 3.0], [-1.0, -2.0, 3.0], [1.0, -2.0, 3.0]):
        check_against_numpy(chosen_rows_in_a_loop, np.array(x))
