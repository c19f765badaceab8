"""Long float sums as accurate as NumPy's pairwise ones, on every executor.

XLA's CPU reductions add each accumulator's share in sequence: a float32 sum of
10^6 values of 0.1 came out 6e-4 off under XLA, where NumPy is 6e-8 off."""
from __future__ import annotations

import numpy as np
import pytest

import nptf

RTOL = {np.float32: 2e-6, np.complex64: 2e-6, np.float16: 2e-3}


def _close(got, expected, dtype):
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=RTOL[dtype], atol=0)


CASES = [
    ("sum", lambda a: np.sum(a), (1_000_000,)),
    ("mean", lambda a: np.mean(a), (1 << 20,)),
    ("sum of rows, keepdims", lambda a: np.sum(a, axis=-1, keepdims=True), (4, 70_001)),
    ("mean over the two last axes", lambda a: np.mean(a, axis=(1, 2)), (3, 300, 300)),
    ("var", lambda a: np.var(a), (1 << 20,)),
    ("std of rows", lambda a: np.std(a, axis=-1), (2, 1 << 19)),
]


@pytest.mark.parametrize("jit", [True, False, None])
@pytest.mark.parametrize("name,fn,shape", CASES, ids=[c[0] for c in CASES])
def test_long_float32_sums_match_numpy(jit, name, fn, shape):
    # Same-sign values of similar size: where adding in sequence goes furthest astray.
    x = (0.1 + np.random.default_rng(0).random(shape) * 1e-3).astype(np.float32)
    _close(nptf.compile(fn, jit_compile=jit)(x), fn(x), np.float32)


@pytest.mark.parametrize("dtype", [np.complex64, np.float16])
def test_long_sums_of_other_narrow_types_under_xla(dtype):
    x = np.full(1 << 18, 0.1, dtype) + (1j if dtype is np.complex64 else 0) * np.float32(0.2)
    x = x.astype(dtype)
    f = nptf.compile(lambda a: np.sum(a, axis=-1), jit_compile=True)
    _close(f(x), np.sum(x, axis=-1), dtype)


def test_long_sums_in_graphs_with_open_sizes():
    f = nptf.compile(lambda a: np.sum(a), jit_compile=True, relax=True)
    for n in (1 << 18, 1 << 19, 300_001):
        x = np.full(n, 0.1, np.float32)
        _close(f(x), np.sum(x), np.float32)
    assert f.cache_info().relaxations == 1


def test_sums_along_leading_axes_and_short_sums_are_left_to_xla():
    """NumPy adds along a leading axis row after row, as XLA does; short sums are exact
    enough either way: neither goes in blocks (the graph keeps one reduction)."""
    import tensorflow as tf
    from nptf.lowering import lower_graph

    for fn, shape in ((lambda a: np.sum(a, axis=0), (70_000, 4)),
                      (lambda a: np.sum(a, axis=-1), (64, 1024))):
        graph = nptf.compile(fn).trace(np.ones(shape, np.float32))
        run = tf.function(lower_graph(graph, xla=True), autograph=False)
        ops = [op.type for op in run.get_concrete_function(
            tf.TensorSpec(shape, tf.float32)).graph.get_operations()]
        assert ops.count("Sum") == 1, ops


@pytest.mark.parametrize("jit", [True, False, None])
@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_long_dot_products_are_no_less_accurate_than_numpy(jit, dtype):
    """NumPy's BLAS dot product of 10^6 float32 values is 1.5e-4 off here; XLA's product
    was 9.6e-3 off, TensorFlow's own 3.5e-3."""
    n = 1_000_000
    x = np.full(n, 0.1 + (0.2j if dtype is np.complex64 else 0), dtype)
    y = (1 + np.random.default_rng(0).random(n) * 1e-3).astype(dtype)
    wide = np.complex128 if dtype is np.complex64 else np.float64
    exact = np.dot(x.astype(wide), y.astype(wide))
    for fn in (lambda a, b: np.dot(a, b), lambda a, b: a @ b, np.inner, np.vecdot,
               lambda a, b: np.vdot(a.conj(), b), lambda a, b: np.tensordot(a, b, axes=1),
               lambda a, b: np.einsum("i,i", a, b)):
        got, expected = nptf.compile(fn, jit_compile=jit)(x, y), fn(x, y)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        assert abs(got - exact) <= max(abs(expected - exact), 2e-6 * abs(exact))


def test_long_float16_dot_products_keep_their_dtype():
    x = np.full(8192, 0.01, np.float16)
    for jit in (True, False):
        got, expected = nptf.compile(lambda a, b: a @ b, jit_compile=jit)(x, x), x @ x
        assert got.dtype == expected.dtype == np.float16 and got.shape == expected.shape
        np.testing.assert_allclose(got, expected, rtol=2e-3)


def test_float64_sums_are_left_to_xla():
    import tensorflow as tf
    from nptf.lowering import lower_graph

    graph = nptf.compile(np.sum).trace(np.ones(1 << 16))
    run = tf.function(lower_graph(graph, xla=True), autograph=False)
    ops = [op.type for op in run.get_concrete_function(
        tf.TensorSpec((1 << 16,), tf.float64)).graph.get_operations()]
    assert ops.count("Sum") == 1, ops



@pytest.mark.parametrize("jit", [True, False, None])
def test_dot_products_of_lengths_known_only_at_run_time(jit):
    """A declared open length runs on the plain executor by default: it goes blocked too
    (TensorFlow's product of 10^6 values there: 3.5e-3 off)."""
    f = nptf.compile(lambda a, b: a @ b, jit_compile=jit,
                     input_signature=[nptf.Spec((None,), np.float32)] * 2)
    for n in (5000, 1_000_000):
        x = np.full(n, 0.1, np.float32)
        exact = n * float(np.float32(0.1)) ** 2
        got, expected = f(x, x), x @ x
        assert got.dtype == expected.dtype and got.shape == expected.shape
        assert abs(got - exact) <= max(abs(expected - exact), 2e-6 * exact)
