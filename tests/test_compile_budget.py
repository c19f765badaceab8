"""The compile budget: a signature whose trace or lowering would take too long, or
grow too large a graph, stops early with a message naming the unrolled loop, and the
decision is cached (NumPy runs that signature from then on)."""
import threading
import time
import warnings

import numpy as np
import pytest

import nptf
import nptf.budget
from nptf.budget import CompileBudgetError


def list_driven(x, n):
    weights = {k: float(k % 3) for k in range(n)}     # a dict keyed by the index: unrolled
    for i in range(n):
        for j in range(n):
            x[i % 7] += 1e-9 * weights[j] * x[(i + j) % 7]
    return x


def test_past_the_budget_raises_naming_the_loop():
    f = nptf.compile(list_driven, fallback="raise", compile_budget=0.5)
    start = time.perf_counter()
    with pytest.raises(CompileBudgetError, match=r"compile budget of 0.5 s.*the loop at .*"
                       r"test_compile_budget\.py:\d+ is unrolled \(400 iterations\)"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            f(np.ones(7), 400)
    assert time.perf_counter() - start < 30
    assert issubclass(CompileBudgetError, nptf.UnsupportedError)


def test_past_the_budget_runs_numpy_and_does_not_compile_again():
    f = nptf.compile(list_driven, compile_budget=0.5)
    x, x2 = np.ones(7), np.ones(7)
    with pytest.warns(RuntimeWarning, match="compile budget"):
        got = f(x, 400)
    np.testing.assert_array_equal(got, list_driven(x2, 400))
    np.testing.assert_array_equal(x, x2)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        f(np.ones(7), 400)
    assert time.perf_counter() - start < 0.5       # NumPy's run, no second trace
    assert f.cache_info().traces == 1


def test_operation_limit(monkeypatch):
    monkeypatch.setattr(nptf.budget, "MAX_OPERATIONS", 600)
    f = nptf.compile(list_driven, fallback="raise", compile_budget=None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        with pytest.raises(CompileBudgetError, match="passed 600 operations"):
            f(np.ones(7), 40)
        # Small enough: compiles and matches NumPy.
        x, x2 = np.ones(7), np.ones(7)
        np.testing.assert_allclose(f(x, 3), list_driven(x2, 3))


def test_budget_option_checked(monkeypatch):
    with pytest.raises(ValueError, match="compile_budget"):
        nptf.compile(list_driven, compile_budget=0)
    assert nptf.compile(list_driven, compile_budget=None).compile_budget is None
    monkeypatch.delenv("NPTF_COMPILE_BUDGET", raising=False)
    assert nptf.compile(list_driven).compile_budget == 10.0
    monkeypatch.setenv("NPTF_COMPILE_BUDGET", "none")
    assert nptf.compile(list_driven).compile_budget is None
    monkeypatch.setenv("NPTF_COMPILE_BUDGET", "2.5")
    assert nptf.compile(list_driven).compile_budget == 2.5
    monkeypatch.setenv("NPTF_COMPILE_BUDGET", "soon")
    with pytest.raises(ValueError, match="NPTF_COMPILE_BUDGET"):
        nptf.compile(list_driven)


# TensorFlow compiles a graph for XLA during its first call, and a compile cannot be
# stopped. These tests hold the first call back until they release it: a compile that
# runs past the budget, made deterministic.
def _held_first_calls(monkeypatch):
    from nptf.runtime import compiled
    release, real = threading.Event(), compiled.fast_caller

    def held(concrete):
        call = real(concrete)

        def run(*tensors):
            release.wait(60)
            return call(*tensors)
        return run
    monkeypatch.setattr(compiled, "fast_caller", held)
    return release


def step(x, y):
    x += y          # written into the argument: NumPy's run must be the only write
    return np.sin(x) * 2


def test_a_compile_past_the_budget_runs_numpy_until_it_ends_in_the_background(monkeypatch):
    release = _held_first_calls(monkeypatch)
    f = nptf.compile(step, compile_budget=1.5, jit_compile=True)
    x, y = np.arange(6.0), np.full(6, 0.5)
    expected_x = x.copy()
    start = time.perf_counter()
    with pytest.warns(RuntimeWarning, match=r"ran past the compile budget \(1.5 s"):
        got = f(x, y)
    assert time.perf_counter() - start < 10
    expected = step(expected_x, y)
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(x, expected_x)      # written once, by NumPy
    assert f.cache_info().fallbacks == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")                # no second warning
        got = f(x, y)                                 # still compiling: NumPy again
    expected = step(expected_x, y)
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(x, expected_x)
    assert f.cache_info().fallbacks == 2
    release.set()
    entry = f.entry_for(x, y)
    deadline = time.perf_counter() + 60
    while not entry.proven and time.perf_counter() < deadline:
        time.sleep(0.05)
    assert entry.proven
    got = f(x, y)                                     # compiled: the graph runs it
    expected = step(expected_x, y)
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    np.testing.assert_array_equal(x, expected_x)
    assert f.cache_info().fallbacks == 2 and f.cache_info().traces == 1


def test_a_compile_past_the_budget_raises_under_fallback_raise(monkeypatch):
    release = _held_first_calls(monkeypatch)
    f = nptf.compile(step, compile_budget=1.0, jit_compile=True, fallback="raise")
    x = np.arange(6.0)
    try:
        with pytest.raises(CompileBudgetError, match="compile budget") as info:
            f(x, np.ones(6))
        assert "test_compile_budget.py" in str(info.value)
        np.testing.assert_array_equal(x, np.arange(6.0))     # nothing written
    finally:
        release.set()


def test_a_first_call_within_the_budget_returns_the_graphs_result():
    f = nptf.compile(step, compile_budget=120, jit_compile=True, fallback="raise")
    x, y = np.arange(6.0), np.full(6, 0.5)
    x2 = x.copy()
    np.testing.assert_allclose(f(x, y), step(x2, y), rtol=1e-12)
    np.testing.assert_array_equal(x, x2)
    assert f.cache_info().fallbacks == 0


def test_the_plain_executors_first_call_is_the_functions_own_run(monkeypatch):
    """The plain executor compiles nothing at its first call: a first call that runs long
    (a loop of many steps on it) is the function's own time, not the budget's."""
    release = _held_first_calls(monkeypatch)
    f = nptf.compile(step, compile_budget=1.0, jit_compile=False, fallback="raise")
    x, y = np.arange(6.0), np.full(6, 0.5)
    x2 = x.copy()
    threading.Timer(2.0, release.set).start()      # the run lasts past the budget
    np.testing.assert_allclose(f(x, y), step(x2, y), rtol=1e-12)
    np.testing.assert_array_equal(x, x2)


# ------------------------------------------- small constants made once per graph
def _many_slices(x):
    y = x
    for k in range(40):
        y = np.concatenate([y[1:] * 0.5, (y[:1].reshape(1, 1) + 1.0).reshape(1)])
    return y


def test_repeated_slice_bounds_and_shapes_are_one_constant_each():
    """Each slice's begin, end and strides, each reshape's shape and each literal would be
    a Const op of its own: lowering makes each distinct value once per graph, so building
    the graph (tens of microseconds a TensorFlow op) does not grow with the repeats."""
    f = nptf.compile(_many_slices, fallback="raise", adaptive=False, jit_compile=False, unroll=40)
    x = np.arange(12.0)
    assert np.array_equal(f(x), _many_slices(x))
    graph = f.entry_for(x).concrete.graph.as_graph_def()
    nodes = [n for fn in graph.library.function for n in fn.node_def] + list(graph.node)
    constants = [n for n in nodes if n.op == "Const"]
    slices = [n for n in nodes if n.op == "StridedSlice"]
    assert len(slices) >= 40
    assert len(constants) < 20, [n.name for n in constants]


def squash_steps(a, b, x):
    for _ in [0] * 10:                  # a Python list: unrolled
        a[None] /= (1.0 + np.abs(a[None]))
        a[a > x] = np.where(b[a > x] > 1, b[a > x], 1.0 / b[a > x])
    return a


def stencil_steps(u):
    for _ in [0] * 12:
        u[1:-1] = 0.25 * (u[:-2] + u[2:]) + 0.5 * u[1:-1]
    return u


@pytest.mark.parametrize("jit", [None, True])
def test_chains_xla_would_compile_exponentially_run_without_xla(jit):
    """Each step of these unrolled chains reads a value at several positions (``a`` and
    ``a[None]`` reshaped back; ``u[:-2]``, ``u[2:]``, ``u[1:-1]``): XLA's fused kernel
    emits the first value 4**10 times and compiles for minutes, growing to many GB. They
    run on the plain executor (a warning says so where XLA was asked for)."""
    a, b = np.array([1.17, -0.89, 1.58, -0.56, -1.26, 0.59]), np.linspace(-2, 2.5, 6)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        f = nptf.compile(squash_steps, jit_compile=jit, fallback="raise", adaptive=False)
        np.testing.assert_allclose(f(a.copy(), b, 0.357), squash_steps(a.copy(), b, 0.357),
                                   rtol=1e-12)
        g = nptf.compile(stencil_steps, jit_compile=jit, fallback="raise", adaptive=False)
        u = np.linspace(0.0, 1.0, 50) ** 2
        np.testing.assert_allclose(g(u.copy()), stencil_steps(u.copy()), rtol=1e-12)
    assert f.cache_info().fallbacks == 0 and g.cache_info().fallbacks == 0
    for entry in (f.entry_for(a.copy(), b, 0.357), g.entry_for(u.copy())):
        # No XLA, and none tried later by the executor trial either.
        assert not entry.xla and "grow exponentially" in entry.xla_reason
    if jit:
        assert sum("grow exponentially" in str(w.message) for w in seen) == 2


def _doubling(x):
    while x.sum() < 100:
        x = x * 2 + np.sin(x) + 1
    return x


def test_a_budget_passed_while_a_loop_body_lowers_says_so(monkeypatch):
    # The budget's own error, not "cannot lower while ... to TensorFlow".
    import nptf.lowering.lower as lower

    class Spent:
        ticks = 0

        def tick(self, where):
            Spent.ticks += 1
            if Spent.ticks > 3:         # inside the loop's body
                raise CompileBudgetError("nptf stopped compiling _doubling: compiling it "
                                         "passed its compile budget")

    monkeypatch.setattr(lower, "current_budget", lambda: Spent())
    with pytest.raises(CompileBudgetError, match="^nptf stopped compiling"):
        nptf.compile(_doubling, fallback="raise")(np.ones(3))
