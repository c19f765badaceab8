"""The compile budget: a signature whose trace or lowering would take too long, or
grow too large a graph, stops early with a message naming the unrolled loop, and the
decision is cached (NumPy runs that signature from then on)."""
import time
import warnings

import numpy as np
import pytest

import nptf
import nptf.budget
from nptf.budget import CompileBudgetError


def list_driven(x, n):
    weights = [float(k % 3) for k in range(n)]     # a Python list: the loop must unroll
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
