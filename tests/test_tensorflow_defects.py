"""Graphs TensorFlow would run wrongly: nptf keeps Grappler's arithmetic optimizer away
from loops (it turns ``l - (c + (b + b))`` in a while loop into empty float32 outputs), and
checks what comes back against the graph's declared outputs, so a broken graph never
hands a wrong-shaped result to the user."""
import warnings

import numpy as np
import pytest
import tensorflow as tf

import nptf
import nptf.runtime.compiled as compiled_module
from harness import check_against_numpy


def sum_in_loop(l, b, k):
    for _ in range(11):
        l = l - (k[1] + (b + b))
    return l


def sum_in_loop_in_place(a, b, k):
    for _ in range(11):
        a -= ((k[1] * k[1]) % 7 + (b + b))
        a[::2][a[::2] > 0] *= -1
    return a.sum()


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
@pytest.mark.parametrize("fn", [sum_in_loop, sum_in_loop_in_place])
def test_loops_grappler_breaks_run_right(fn, dtype, jit):
    a = np.arange(5).astype(dtype)
    check_against_numpy(fn, a, a.copy(), np.arange(2).astype(dtype), jit=jit)


def test_wrong_outputs_are_caught(monkeypatch):
    """Without the guard, TensorFlow's broken outputs are detected, never returned."""
    monkeypatch.setattr(compiled_module, "LOOP_REWRITES_OFF", ())
    a = np.arange(5.0)
    args = (a, a.copy(), np.arange(2.0))
    if tf.__version__.startswith("2.21."):     # the TensorFlow known to have the defect
        with pytest.raises(nptf.BackendError, match="came back as"):
            nptf.compile(sum_in_loop, jit_compile=False, fallback="raise")(*args)
    else:
        try:
            got = nptf.compile(sum_in_loop, jit_compile=False, fallback="raise")(*args)
        except nptf.BackendError as e:
            assert "came back as" in str(e)
        else:   # a TensorFlow without the defect
            np.testing.assert_allclose(got, sum_in_loop(*args))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = nptf.compile(sum_in_loop, jit_compile=False)(*args)
    np.testing.assert_allclose(got, sum_in_loop(*args))


def powers_of_two_summed(b, e):
    # float16 results (NumPy's loop for bool and int8 operands), reduced along an axis.
    return (np.sum(np.ldexp(b, b), axis=0, keepdims=True),
            np.sum(np.ldexp(np.float16(1.5), e), axis=0),
            np.sum(np.exp2(e), axis=1), np.sum(np.float16(2) ** b, axis=0))


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_float16_powers_in_a_reduction(jit):
    """XLA on CPU sums ``pow(2, x)`` of float16 ``x`` made from booleans as if each term
    were 1; nptf computes float16 powers in float32, as NumPy's float16 loops do."""
    b = np.array([[1, 1, 1, 0], [0, 1, 1, 0], [1, 0, 1, 1]], bool)
    check_against_numpy(powers_of_two_summed, b, b.astype(np.int8) * 3, jit=jit)


def negative_floats_through_unsigned(a):
    t = np.floor_divide(a, 7).astype(np.uint32)
    return (t, t.astype(np.float16), a.astype(np.uint64).astype(np.float32),
            a.astype(np.uint8).astype(np.float64), a.astype(np.float32).astype(np.uint64) * 1.0)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_negative_floats_cast_to_unsigned_and_back(jit):
    """NumPy wraps a negative float cast to an unsigned type (through int64, as C on
    x86 does); XLA on CPU gave the negative value back when the unsigned result was
    converted to a float in the same computation."""
    a = np.array([-7.93, 7.04, -2.02, 0.31, 300.0], np.float16)
    check_against_numpy(negative_floats_through_unsigned, a, jit=jit)


def _square_uses(a):
    s = a * a
    return (np.abs(s), s < 0, s // 3, np.where(s >= 0, a, -a), np.square(a) % 7,
            (a ** 3) // 2)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_squares_of_signed_ints_wrap_around_under_xla(dtype):
    """XLA takes a signed ``x * x`` to be at least 0 and simplifies what follows by it;
    NumPy's square wraps around (int8: -116 * -116 is -112)."""
    info = np.iinfo(dtype)
    a = np.linspace(info.min, info.max, 301, dtype=np.float64)
    a = np.clip(np.round(a), info.min, info.max).astype(dtype)
    with np.errstate(over="ignore"):
        check_against_numpy(_square_uses, a, jit=True)
        check_against_numpy(_square_uses, a, jit=False)
