"""A Python list the function appends to where the data decide how often (under an `if`
on traced values, or in a loop whose trip count is known only at run time) is one
array of its items, as long as the data make it: checked against NumPy through the
public API, with the cases that must stay NumPy's (aliases, arguments, mixed items,
an empty list NumPy would make float64)."""
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


def mixed_items(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
        else:
            out.append(float(v))
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
    for fn, args, match in [
            (aliased, (x,), "changes the Python list `out`"),
            (into_argument, (x, []), "`acc`"),
            (mixed_items, (x,), "not numbers or arrays of one shape and dtype")]:
        with pytest.raises(nptf.UnsupportedError, match=match):
            nptf.compile(fn, fallback="raise")(*args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_array_equal(nptf.compile(peaks)(np.arange(10.0))[0],
                                      peaks(np.arange(10.0))[0])
        for fn, args in [(aliased, (x,)), (into_argument, (x, [])), (mixed_items, (x,))]:
            copies = [list(a) if isinstance(a, list) else a for a in args]
            np.testing.assert_array_equal(nptf.compile(fn)(*copies), fn(*args))


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
        # sum() of an empty list of floats is Python's int 0: NumPy runs that call.
        neg = -np.abs(x) - 1
        with pytest.raises(nptf.OutsideTheGraphError, match="sum"):
            nptf.compile(count_and_total, fallback="raise", jit_compile=jit)(neg)
        got = nptf.compile(count_and_total, jit_compile=jit)(neg)
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
