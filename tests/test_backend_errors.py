"""TensorFlow's own failures never reach the user: the plain executor takes over where XLA
fails, NumPy runs where TensorFlow fails altogether (fallback="numpy"), and
fallback="raise" raises nptf's BackendError naming the function and its file:line."""
import warnings

import numpy as np
import pytest
import tensorflow as tf

import nptf
from nptf.lowering.rules import TF_RULES
from nptf.tracer.control_flow import ControlFlowError
from harness import check_against_numpy


def growing(x, n):
    part = x[:1]
    for i in range(1, n):
        part = np.concatenate([part, x[i:i + 1] * 2])
    return part


@pytest.mark.parametrize("jit", [None, False, True], ids=["auto", "graph", "xla"])
def test_array_growing_in_a_graph_loop(jit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check_against_numpy(growing, np.arange(12.0), 12, jit=jit)
    f = nptf.compile(growing, jit_compile=jit, fallback="raise")
    np.testing.assert_array_equal(f(np.arange(12.0), 12), growing(np.arange(12.0), 12))
    if jit is not False:
        # XLA cannot compile a loop whose arrays change shape: the plain executor runs it.
        assert nptf.compiled_of(f).entry_for(np.arange(12.0), 12).executor == "plain"


@pytest.fixture
def failing_sin(monkeypatch):
    """``np.sin`` lowered to an op that fails when it runs, on both executors."""
    def rule(ctx, x, **params):
        # XLA drops the assertion, but has no string kernels: it fails to compile.
        with tf.control_dependencies([tf.debugging.Assert(tf.reduce_all(x > 5), ["boom"])]):
            y = tf.identity(tf.math.sin(x))
        return y + 0 * tf.cast(tf.strings.length(tf.strings.as_string(x)), x.dtype)
    monkeypatch.setitem(TF_RULES, "sin", rule)


def _sin(x):
    return np.sin(x) * 2


@pytest.mark.parametrize("jit", [None, False, True], ids=["auto", "graph", "xla"])
def test_failing_graph_runs_with_numpy_once_decided(failing_sin, jit):
    f = nptf.compile(_sin, jit_compile=jit)
    x = np.linspace(0, 1, 5)
    with pytest.warns(RuntimeWarning, match=r"(?s)TensorFlow failed to compile .*_sin: InvalidArgumentError: assertion failed: \[boom\].*test_backend_errors"):
        np.testing.assert_array_equal(f(x), _sin(x))
    with warnings.catch_warnings():
        warnings.simplefilter("error")        # decided: no second warning, no second try
        np.testing.assert_array_equal(f(x), _sin(x))
    assert f.cache_info().fallbacks == 2


def test_failing_graph_raises_backend_error(failing_sin):
    f = nptf.compile(_sin, fallback="raise")
    with pytest.raises(nptf.BackendError, match=r"_sin: InvalidArgumentError.*\n  at .*test_backend_errors\.py:\d+") as info:
        f(np.linspace(0, 1, 5))
    assert isinstance(info.value, nptf.Error) and isinstance(info.value, nptf.UnsupportedError)


def test_nptf_errors_share_one_base():
    for cls in (nptf.UnsupportedError, nptf.TracerConversionError, nptf.DynamicShapeError,
                nptf.OutsideTheGraphError, nptf.SpecError, nptf.BackendError, ControlFlowError,
                nptf.CompileBudgetError, nptf.SideEffectError):
        assert issubclass(cls, nptf.Error)
    # Everything fallback="numpy" can run with NumPy instead is an UnsupportedError.
    for cls in (nptf.TracerConversionError, nptf.DynamicShapeError, ControlFlowError,
                nptf.BackendError, nptf.CompileBudgetError, nptf.SideEffectError):
        assert issubclass(cls, nptf.UnsupportedError)
    assert nptf.NptfError is nptf.Error


def test_control_flow_refusal_falls_back():
    def f(x):
        s = (x > 0).astype(np.int64)
        while s.sum() < 30:
            s = s + x     # int64 before the loop, float64 after one iteration
        return s

    x = np.ones(3)
    # One graph for the signature (a loop's trip count the data give is no use to it).
    with pytest.warns(RuntimeWarning, match="runs with NumPy"):
        np.testing.assert_array_equal(
            nptf.compile(f, input_signature=[nptf.Spec((3,))])(x), f(x))


def test_an_error_tracing_raises_where_numpy_does_not_runs_numpy(monkeypatch):
    # A defect of nptf's (here a NumPy function's tracer raising KeyError) must not reach
    # the user: by default the call runs the function with NumPy; fallback="raise" shows it.
    from nptf.tracer.numpy_api import IMPLS

    def broken(*args, **kwargs):
        raise KeyError("a defect")
    monkeypatch.setitem(IMPLS, np.cumsum, broken)

    def f(x):
        return np.cumsum(x) * 2
    x = np.arange(5.0)
    with pytest.warns(RuntimeWarning, match=r"runs with NumPy .*tracing it raised KeyError"):
        np.testing.assert_array_equal(nptf.compile(f)(x), f(x))
    with pytest.raises(KeyError):
        nptf.compile(f, fallback="raise")(x)


def test_the_users_own_error_while_tracing_is_numpys():
    def f(x):
        return x + np.ones(4)             # NumPy's ValueError for these shapes
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # and no warning of nptf's before it
        with pytest.raises(ValueError, match="could not be broadcast"):
            nptf.compile(f)(np.ones(3))
    with pytest.raises(ValueError, match="could not be broadcast"):
        nptf.compile(f, fallback="raise")(np.ones(3))
