"""``x[mask] = f(x[mask], y[mask], 2.0)``: a write of values computed elementwise from
selections by one mask of x's shape. nptf computes ``f`` on the whole arrays and selects
with ``np.where``: no selection of a size known only at run time, no scatter, and XLA
compiles it. What differs from NumPy is only which elements ``f`` runs on, so the tests
put values past the mask that would fail or give NaN there."""
from __future__ import annotations

import numpy as np
import pytest

import nptf
from harness import check_against_numpy


def _ops(fn, *args):
    return {e.op.name for e in nptf.compile(fn, fallback="raise").trace(*args).eqns}


def soften(r):
    r[r > 0] = r[r > 0] ** (-1.5)       # the mask computed twice, as nbody writes it
    return r


def from_other_arrays(x, y):
    y[y < 0.5] = np.sqrt(x[y < 0.5]) + 1.0
    return y


def named_mask(x, y):
    m = x > 0
    x[m] = np.log(x[m]) * 2 + y[m] / x[m]     # log and division of what the mask leaves out
    return x


def chosen(x, y):
    m = np.abs(x) < 1
    x[m] = np.where(y[m] > 0, 1.0 / x[m], -y[m])
    return x


FLOAT_CASES = [soften, from_other_arrays, named_mask, chosen]


@pytest.mark.parametrize("fn", FLOAT_CASES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
@pytest.mark.parametrize("shape", [(7,), (4, 5), (2, 3, 4)])
def test_elementwise_writes_in_a_mask_match_numpy(fn, dtype, shape, jit):
    rng = np.random.default_rng(3)
    args = [(rng.standard_normal(shape) * 2).astype(dtype) for _ in range(fn.__code__.co_argcount)]
    args[0].flat[0] = 0.0                 # 0 ** -1.5, log(0), 1 / 0: past every mask
    with np.errstate(all="ignore"):
        check_against_numpy(fn, *args, jit=jit)


@pytest.mark.parametrize("fn", FLOAT_CASES, ids=lambda f: f.__name__)
def test_no_selection_no_scatter(fn):
    args = [np.linspace(-2, 2, 12).reshape(3, 4)] * fn.__code__.co_argcount
    ops = _ops(fn, *args)
    assert not ops & {"nonzero", "gather_nd", "scatter", "boolean_mask"}, ops


def test_integer_division_by_zero_past_the_mask(jit):
    # A zero divisor where the mask is False: NumPy never divides there, and an integer
    # division kernel may fail on it, so this write keeps its selection.
    def divide(a, b):
        m = b != 0
        a[m] = a[m] // b[m] + a[m] % b[m]
        return a
    a, b = np.arange(12, dtype=np.int32).reshape(3, 4), np.array([[0, 1, 2, -3]] * 3, np.int32)
    check_against_numpy(divide, a, b, jit=jit)


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint16, np.bool_])
def test_integer_and_boolean_targets(dtype, jit):
    def scale(a, b):
        m = a > 1
        a[m] = a[m] * 3 + b[m]
        b[b > 0] = np.where(b[b > 0] > 1, b[b > 0] - 1, 7)
        return a, b
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 4, (3, 5)).astype(dtype), rng.integers(0, 4, (3, 5)).astype(dtype)
    check_against_numpy(scale, a, b, jit=jit)


def test_values_are_cast_to_the_target_dtype(jit):
    def halve(a, x):
        a[a > 2] = a[a > 2] * 1.5 + x[a > 2]
        return a
    check_against_numpy(halve, np.arange(10, dtype=np.int16), np.linspace(0, 3, 10), jit=jit)


def test_a_view_as_target_writes_its_base(jit):
    def through_view(x):
        v = x[1:, ::2]
        v[v > 0] = v[v > 0] * 10
        return x
    check_against_numpy(through_view, np.linspace(-1, 1, 24).reshape(4, 6), jit=jit)


def test_selections_read_before_other_writes_keep_their_values(jit):
    def stale(x):
        m = x > 0
        s = x[m] * 2
        x[0, 0] = 100.0          # after the selection: NumPy's s is a copy from before
        x[m] = s + x[m]
        return x
    check_against_numpy(stale, np.linspace(-1, 1, 12).reshape(3, 4), jit=jit)


def test_a_mask_computed_again_after_a_write_is_another_mask(jit):
    def moved(x):
        s = x[x > 0] + 1
        x -= 0.5
        x[x > 0] = s[:np.count_nonzero(x > 0)]    # NumPy's lengths must agree
        return x
    check_against_numpy(moved, np.linspace(-1, 1, 12), jit=jit)


def test_other_masks_and_other_values_keep_numpys_checks(jit):
    def other_mask(x, y):
        x[x > 0] = y[y > 0]      # counts differ: NumPy raises ValueError
        return x
    check_against_numpy(other_mask, np.array([1.0, -1.0, 2.0]), np.array([1.0, 2.0, 3.0]), jit=jit)
    check_against_numpy(other_mask, np.array([1.0, -1.0, 2.0]), np.array([1.0, -2.0, 3.0]), jit=jit)


def test_an_empty_mask_writes_nothing(jit):
    check_against_numpy(soften, -np.ones((3, 3)), jit=jit)


def test_inside_a_long_loop_xla_compiles_it():
    def steps(pos, n):
        for _ in range(n):
            d = pos - pos.T
            r = d ** 2 + 0.01
            r[r > 0] = r[r > 0] ** (-1.5)
            pos = pos + 0.001 * (d * r).sum(axis=1, keepdims=True)
        return pos
    pos = np.random.default_rng(1).random((6, 1))
    f = nptf.compile(steps, jit_compile=True, fallback="raise")
    np.testing.assert_allclose(f(pos, 20), steps(pos, 20), rtol=1e-12)
    assert f.entry_for(pos, 20).xla


def test_random_draws_in_the_mask_are_not_moved():
    # A draw has the selection's shape: drawing for the whole array would change the
    # numbers, so this write keeps its selection.
    def noisy(x):
        rng = np.random.default_rng()      # seeded, a draw of run-time size runs NumPy
        x[x > 0] = x[x > 0] + rng.standard_normal(np.count_nonzero(x > 0))
        return x
    x = np.linspace(-1, 1, 8)
    got = nptf.compile(noisy, fallback="raise")(x.copy())
    assert got.shape == x.shape and np.array_equal(got[x <= 0], x[x <= 0])
    assert not np.array_equal(got[x > 0], x[x > 0])
    assert "scatter" in _ops(noisy, x)      # the write kept its selection


def test_a_value_of_a_fixed_length_keeps_numpys_length_check(jit):
    def fixed(x):
        x[x > 0] = x[x > 0] + np.broadcast_to(2.0, (3,))   # NumPy: 3 positives, or ValueError
        return x
    check_against_numpy(fixed, np.array([1.0, -1.0, 2.0, 3.0]), jit=jit)
    check_against_numpy(fixed, np.array([1.0, -1.0, 2.0, -3.0]), jit=jit)
