"""Slices with a traced start and a fixed length (``x[i:i + 4]``), read and written."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy
from loop_kernels import spread
from nptf.errors import OutsideTheGraphError
from nptf.graph_ir.passes import PIPELINE
from nptf.graph_ir.verify import verify


def _copies(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _agrees(fn, *args):
    expected = fn(*_copies(args))
    for jit in (True, False):
        compiled = nptf.compile(fn, fallback="raise", jit_compile=jit)
        got = compiled(*_copies(args))
        assert got.dtype == expected.dtype and got.shape == expected.shape
        np.testing.assert_allclose(got, expected, rtol=1e-12)
    graph = nptf.compile(fn).trace(*args, stage="traced")
    for p in PIPELINE:
        graph = p(graph)
        verify(graph)
    _same(nptf.compile(fn).interpret(*_copies(args)), expected)
    return graph


def _same(got, expected):
    got = np.asarray(got)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-12)


def _ops(graph):
    names = {e.op.name for e in graph.eqns}
    for e in graph.eqns:
        for sub in e.params.values():
            for g in sub if isinstance(sub, (list, tuple)) else [sub]:
                if hasattr(g, "eqns"):
                    names |= _ops(g)
    return names


def window_sums(x):
    out = np.empty(x.shape[0] - 2)
    for i in range(1, x.shape[0] - 1):
        out[i - 1] = x[i - 1:i + 2].sum()
    return out


def blocks(g):
    out = np.zeros_like(g)
    for i in range(1, g.shape[0] - 1):
        out[i - 1:i + 2, 1:] += g[i, :-1]
        out[i, ...] -= g[i - 1:i, :].mean()
    return out


@pytest.mark.parametrize("fn, shape, dtype", [
    (window_sums, (40,), np.float64), (window_sums, (25,), np.float32),
    (spread, (30,), np.float64), (spread, (30,), np.int32), (blocks, (14, 5), np.float64)])
def test_loops_over_fixed_length_slices_compile_without_unrolling(fn, shape, dtype):
    x = (np.random.default_rng(0).standard_normal(shape) * 10).astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")         # an unrolled loop would warn
        graph = _agrees(fn, x)
    assert "while" in _ops(graph) and "dynamic_slice" in _ops(graph)


def through_a_view(x, i):
    v = x[i:i + 3]
    v[0] = 100.0
    v += 1
    x[None, i - 1:i + 1] *= 2        # a new axis in front, a start offset from i
    return x, v.copy()


@pytest.mark.parametrize("i", [1, 2, 7, -9, -4])
def test_writes_through_a_view_of_a_traced_start_land_in_the_array(i):
    x = np.arange(10.0)
    expected = through_a_view(x.copy(), i)
    for jit in (True, False):
        got = nptf.compile(through_a_view, fallback="raise", jit_compile=jit)(x.copy(), np.int64(i))
        for g, e in zip(got, expected):
            _same(g, e)


@pytest.mark.parametrize("i", [8, 9, -2, -3, -11, 100])
def test_a_slice_past_the_ends_runs_with_numpy_or_raises(i):
    x = np.arange(10.0)
    with pytest.raises(OutsideTheGraphError, match="fewer elements"):
        nptf.compile(through_a_view, fallback="raise")(x.copy(), np.int64(i))
    f = nptf.compile(through_a_view)
    try:
        expected = through_a_view(x.copy(), i)
    except IndexError:          # v is empty: NumPy itself fails at v[0]
        with pytest.warns(RuntimeWarning, match="runs with NumPy"), pytest.raises(IndexError):
            f(x.copy(), np.int64(i))
        return
    with pytest.warns(RuntimeWarning, match="runs with NumPy for this call"):
        got = f(x.copy(), np.int64(i))
    for g, e in zip(got, expected):
        _same(g, e)
    assert f.cache_info().fallbacks == 1


def prefix_sums(x):
    out = np.zeros_like(x)
    for i in range(x.shape[0]):
        out[i] = x[:i + 1].sum()         # the length grows: not a fixed-length slice
    return out


def two_starts(x, i, j):
    return x[i:j].sum()


@pytest.mark.parametrize("i,j", [(2, 5), (5, 2), (-4, -1), (-20, 3), (3, 20), (0, 0)])
def test_slices_of_varying_length_have_run_time_sizes(i, j):
    x = np.arange(12.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)      # a graph loop, not unrolled
        _same(nptf.compile(prefix_sums, fallback="raise")(x), prefix_sums(x))
    got = nptf.compile(two_starts, fallback="raise")(x, np.int64(i), np.int64(j))
    _same(got, two_starts(x, i, j))


def write_then_unroll(x):
    out = np.zeros(x.shape[0])
    steps = {k: float(k) for k in range(x.shape[0])}
    for i in range(x.shape[0]):
        out[i] += x[i]              # written before the line that makes the loop unroll
        out[:i + 1] += steps[i]     # a dict keyed by the index needs a concrete index
    return out


def test_a_loop_retraced_unrolled_forgets_the_writes_of_its_failed_trace():
    x = np.arange(12.0)
    with pytest.warns(RuntimeWarning, match="unrolled"):
        got = nptf.compile(write_then_unroll, fallback="raise")(x)
    _same(got, write_then_unroll(x))


def stamp(x, rows):
    out = np.zeros((x.shape[0] + 2, 4), dtype=np.float32)
    for i in range(x.shape[0]):
        out[i:i + 3, 2] = x[i]          # a column of a window: cast into float32
        out[rows[i] - 3:rows[i], 0] += 1  # a start below zero reads from the end
    return out


def test_window_writes_are_one_region_update_without_a_scatter():
    graph = _agrees(spread, np.arange(30.0))
    (loop,) = [e for e in graph.eqns if e.op.name == "while"]
    body = {e.op.name for e in loop.params["body"].eqns}
    assert "dynamic_update_slice" in body and "scatter" not in body
    x = np.random.default_rng(3).standard_normal(20)
    rows = np.random.default_rng(4).integers(-8, 0, 20)    # starts -11..-4, from the end
    _agrees(stamp, x, rows)


def float_start(x, f):
    return x[f:f + 2]


def test_slice_bounds_that_are_not_integer_scalars_are_not_taken_as_fixed_lengths():
    x = np.arange(10.0)
    with pytest.raises(TypeError):
        nptf.compile(float_start, fallback="raise")(x, np.float64(2.0))
    with pytest.raises(TypeError):
        nptf.compile(float_start, fallback="raise")(x, np.array([2]))


@pytest.mark.parametrize("jit", [False, True])
def test_exported_windows_match_numpy_and_refuse_a_start_past_the_end(tmp_path, jit):
    import tensorflow as tf
    nptf.export(through_a_view, tmp_path / "m", nptf.Spec((10,), np.float64),
                nptf.Spec((), np.int64), jit_compile=jit)
    serve = tf.saved_model.load(str(tmp_path / "m")).signatures["serving_default"]
    x = np.arange(10.0)
    got = serve(x=tf.constant(x), i=tf.constant(2, tf.int64))
    for name, expected in zip(("output_0", "output_1"), through_a_view(x.copy(), 2)):
        _same(got[name].numpy(), expected)
    with pytest.raises(tf.errors.InvalidArgumentError, match="fewer elements"):
        serve(x=tf.constant(x), i=tf.constant(9, tf.int64))


def test_without_xlas_own_update_op_a_window_is_a_scatter_of_its_region(monkeypatch):
    import nptf.lowering.rules_indexing as rules
    monkeypatch.setattr(rules, "_xla_dynamic_update_slice", None)
    x = np.random.default_rng(5).standard_normal((14, 5))
    _same(nptf.compile(blocks, jit_compile=True, fallback="raise")(x), blocks(x))


def column_window(g, i, j):
    g = g.copy()
    col = g[i:i + 3, j] * 2          # a traced index beside the traced slice
    g[i - 1:i + 1, j] = -1.0
    return g, col


@pytest.mark.parametrize("i, j", [(1, 2), (3, -1), (2, -5)])
def test_a_traced_index_beside_a_traced_slice(i, j):
    g = np.arange(30.0).reshape(6, 5)
    graph = _agrees_pair(column_window, g, np.int64(i), np.int64(j))
    assert "dynamic_slice" in _ops(graph) and "dynamic_update_slice" in _ops(graph)
    with pytest.raises(IndexError, match="out of bounds"):
        nptf.compile(column_window, fallback="raise")(g, np.int64(i), np.int64(5))


def _agrees_pair(fn, *args):
    expected = fn(*_copies(args))
    for jit in (True, False):
        got = nptf.compile(fn, fallback="raise", jit_compile=jit)(*_copies(args))
        for g, e in zip(got, expected):
            _same(g, e)
    return nptf.compile(fn).trace(*args)


def strided_pieces(x, start, stop, step):
    # reads along each axis, a new axis, an integer index beside the slice
    a = x[start:stop:step]
    b = x[:, ::step]
    c = x[1, stop:start:-step]
    d = x[None, ::step, 2]
    return a.sum(axis=1), b, c, d


def strided_writes(x, start, step):
    y = x.copy()
    y[start::step] = -1.0
    y[:, ::step] += 10.0
    row = y[0, ::step]          # a view: writes through it land in y
    row[0] = 99.0
    y[1::step, 0] = np.arange(10.0, 20.0)[:len(y[1::step, 0])]
    return y, row


def sieve_of_run_time_size(x):
    n = int(x.max())
    is_prime = np.ones(n + 1, dtype=bool)
    is_prime[:2] = False
    for i in range(2, int(n ** 0.5) + 1):
        if is_prime[i]:
            is_prime[i * i::i] = False
    return np.flatnonzero(is_prime)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_slices_with_a_traced_step_read_and_write_as_numpy(jit):
    """A slice step only the data give (``x[::k]``, ``primes[i * i::i] = False`` in a
    compiled loop) follows NumPy's rules for bounds of either sign and either direction;
    it needed a Python int (the loop ran unrolled, or the call ran NumPy)."""
    x = np.arange(42.0).reshape(7, 6)
    for start, stop, step in [(0, 7, 1), (1, 6, 2), (-2, None, 1), (None, -1, 3), (6, 0, -2),
                              (None, None, -1), (-100, 100, 4), (5, -8, -1), (3, 3, 2),
                              (10, 20, 1)]:
        args = [np.int64(0 if v is None else v) for v in (start, stop, step)]
        check_against_numpy(strided_pieces, x, *args, jit=jit)
    for start, step in [(0, 1), (1, 2), (-1, -1), (2, -3), (0, 5)]:
        check_against_numpy(strided_writes, x, np.int64(start), np.int64(step), jit=jit)
    for n in (2.0, 30.0, 97.0):
        check_against_numpy(sieve_of_run_time_size, np.array([n, 1.0]), jit=jit)


def test_a_traced_step_of_zero_runs_numpy_and_raises_its_error():
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        nptf.compile(strided_pieces)(np.ones((7, 6)), np.int64(0), np.int64(3), np.int64(0))
    with pytest.raises(OutsideTheGraphError, match="step is zero"):
        nptf.compile(strided_pieces, fallback="raise")(np.ones((7, 6)), np.int64(0),
                                                        np.int64(3), np.int64(0))
