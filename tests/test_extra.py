"""The smaller NumPy functions beyond the op records: writes into arguments
(put_along_axis, fill_diagonal, ndarray.partition), results of data-dependent size,
the gufunc implementations, read-only windows, and the argument forms nptf refuses."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy, mismatch

NOT_TRACED = np.zeros((3, 3))
DTYPES = [np.bool_, np.int8, np.uint16, np.int64, np.float32, np.float64, np.complex64]


def _data(dtype, shape=(3, 4), seed=0):
    return (np.random.default_rng(seed).standard_normal(shape) * 4).astype(dtype)


# ------------------------------------------------------------ writes into arguments
def put_rows(a, idx, v):
    np.put_along_axis(a, idx, v, axis=1)


def put_flat(a, idx, v):
    np.put_along_axis(a, idx, v, axis=None)


def fill_wrapped(a, v):
    np.fill_diagonal(a, v, wrap=True)


def partition_in_place(a):
    a.partition(1, axis=0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_put_along_axis_writes_into_the_argument(dtype, jit):
    idx = np.array([[0, 3], [1, 1], [-1, 2]])
    check_against_numpy(put_rows, _data(dtype), idx, _data(dtype, (3, 2), seed=1), jit=jit)
    check_against_numpy(put_flat, _data(dtype), np.array([0, -1, 7, 7]), _data(dtype, (4,)), jit=jit)


@pytest.mark.parametrize("dtype", DTYPES)
def test_fill_diagonal_writes_into_the_argument(dtype, jit):
    check_against_numpy(fill_wrapped, _data(dtype, (7, 3)), _data(dtype, (2,), seed=2), jit=jit)
    check_against_numpy(lambda a: np.fill_diagonal(a, 3), _data(dtype, (3, 3, 3)), jit=jit)


def test_writes_through_a_view_argument_reach_the_caller(jit):
    a = np.zeros((4, 4))
    f = nptf.compile(lambda a: np.fill_diagonal(a[1:, 1:], 7.0), jit_compile=jit, fallback="raise")
    assert f(a) is None
    expected = np.zeros((4, 4))
    np.fill_diagonal(expected[1:, 1:], 7.0)
    np.testing.assert_array_equal(a, expected)
    check_against_numpy(put_rows, np.zeros((3, 4)), np.array([[3], [0], [1]]), 5.0, jit=jit)


def test_partition_method_writes_into_the_argument(jit):
    x = _data(np.float64, (5, 3))
    y = x.copy()
    nptf.compile(partition_in_place, jit_compile=jit, fallback="raise")(y)
    np.testing.assert_array_equal(y[1], np.sort(x, axis=0)[1])
    assert np.all(y[:1] <= y[1]) and np.all(y[2:] >= y[1])


def test_put_along_axis_with_traced_indices(jit):
    x = np.arange(12.0).reshape(3, 4)
    check_against_numpy(put_rows, x.copy(), np.array([[3], [0], [2]]), np.array([[1.0], [2.0], [3.0]]), jit=jit)
    f = nptf.compile(put_rows, jit_compile=jit, fallback="raise")
    with pytest.raises(IndexError):
        f(x.copy(), np.array([[4], [0], [2]]), 1.0)
    with pytest.raises(IndexError):
        nptf.compile(put_flat, jit_compile=jit, fallback="raise")(x.copy(), np.array([12]), 1.0)


def test_put_along_axis_flat_into_a_non_contiguous_array_is_read_only():
    def f(a):
        np.put_along_axis(a.T, np.array([0, 5]), 7.0, axis=None)

    check_against_numpy(f, np.zeros((3, 4)))


# ------------------------------------------------------------ data-dependent sizes
@pytest.mark.parametrize("fn", [
    lambda x: np.ix_(x[:, 0] > 0, [1, 3]), lambda x: np.ix_(x[0] > 0, x[1] > 0),
    lambda x: x.compress(x.ravel() > 0), lambda x: (x > 0).nonzero(), lambda x: x.ravel().nonzero(),
])
def test_data_dependent_sizes(fn, jit):
    check_against_numpy(fn, _data(np.float64), jit=jit)


# ------------------------------------------------------------ gufunc implementations
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.int64, np.float32, np.complex128])
def test_matvec_and_vecmat_match_numpy(dtype, jit):
    a, v = _data(dtype, (2, 3, 4)), _data(dtype, (4,), seed=1)
    w = _data(dtype, (2, 3), seed=2)
    got = nptf.compile(lambda a, v, w: (np.matvec(a, v), np.vecmat(w, a), np.vecdot(a, v),
                                        np.vecdot(w, w, axis=0)),
                       jit_compile=jit, fallback="raise")(a, v, w)
    assert mismatch((np.matvec(a, v), np.vecmat(w, a), np.vecdot(a, v), np.vecdot(w, w, axis=0)),
                    got) is None
    with pytest.raises(ValueError):
        nptf.compile(lambda a, w: np.matvec(a, w), fallback="raise").trace(a, w)
    with pytest.raises(nptf.UnsupportedError, match="keepdims"):
        nptf.compile(lambda a, v: np.vecdot(a, v, keepdims=True), fallback="raise").trace(a, v)


# --------------------------------------------------------------------- read-only
def test_sliding_windows_are_read_only():
    def f(x):
        w = np.lib.stride_tricks.sliding_window_view(x, 3)
        w[0, 0] = 1.0
        return w

    with pytest.raises(ValueError, match="read-only"):
        nptf.compile(f, fallback="raise")(np.arange(6.0))


swv = np.lib.stride_tricks.sliding_window_view


def windows_then_written(x):
    w, long = swv(x, 3), swv(x[1:], 12)
    x[0] = 100.0
    x[5:] *= 2
    return w.sum(axis=1), long.max(axis=1), w


def test_sliding_windows_see_later_writes_into_their_array(jit):
    """NumPy's windows are views: a write into the array afterwards shows in them."""
    check_against_numpy(windows_then_written, np.arange(16.0), jit=jit)


def windows_1d(x):
    return (swv(x, 1), swv(x, 3), swv(x, 10).max(axis=1), swv(x, 64).sum(axis=-1),
            swv(x, 65)[::9], swv(x, 0))


def windows_2d(m):
    return (swv(m, (2, 3)), swv(m, 2, axis=0), swv(m, (2, 2), axis=(1, 1)),
            swv(m, (1, 2, 3), axis=(0, 1, 0)), swv(m, (3, 3)).sum(axis=(2, 3)), swv(m, m.shape))


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.float32, np.complex128])
def test_sliding_windows_are_stacked_slices(dtype, jit):
    """sliding_window_view of windows of up to 64 elements in all is a stack of shifted
    slices, one per window position (longer windows gather through NumPy's windows of
    the positions); windows of one axis taken again and again compose. It gathered
    through a [n - w + 1, w] table of positions: 7 s to compile for 1e6 floats, w = 10."""
    x = (np.arange(70) * 7 % 11).astype(dtype)
    check_against_numpy(windows_1d, x, jit=jit, adaptive=False)
    check_against_numpy(windows_2d, (np.arange(30) % 7).reshape(5, 6).astype(dtype), jit=jit,
                        adaptive=False)
    check_against_numpy(lambda t: swv(t, (2, 2)), np.arange(24.0).reshape(2, 3, 4), jit=jit,
                        adaptive=False)
    from nptf.graph_ir.ir import Literal
    for fn, args in ((lambda t: swv(t, 10).max(axis=1), (np.arange(10_000.0),)),
                     (lambda m: swv(m, (3, 3)).sum(axis=(2, 3)), (np.ones((100, 100)),))):
        graph = nptf.compile(fn, fallback="raise", adaptive=False).trace(*args)
        assert "take" not in [e.op.name for e in graph.eqns]
        assert all(np.size(a.value) < 100 for e in graph.eqns for a in e.inputs
                   if isinstance(a, Literal))


# ----------------------------------------------------------------- refused forms
@pytest.mark.parametrize("fn, args", [
    (lambda x, i: np.insert(x, i, 0.0), (np.arange(4.0), np.array([1]))),
    (lambda x: np.repeat(x[x > 0], [1, 2]), (np.array([1.0, -1.0, 2.0]),)),
    (lambda x: np.lib.stride_tricks.sliding_window_view(x, 2, writeable=True), (np.arange(4.0),)),
    (lambda x: np.min_scalar_type(x[0]), (np.arange(4.0),)),
    (lambda x: np.unwrap(x, period=x[0]), (np.arange(4.0),)),
    (lambda x: np.put_along_axis(NOT_TRACED, np.array([[0]]), x[0], axis=1), (np.arange(4.0),)),
])
def test_refused_argument_forms(fn, args):
    with pytest.raises(nptf.UnsupportedError):
        nptf.compile(fn, fallback="raise").trace(*args)


def filter_denominator(poles):
    return np.poly(poles), np.poly(np.concatenate([poles, poles.conj()]))


def test_poly_of_complex_roots_is_real_where_they_come_in_conjugate_pairs():
    """NumPy's coefficients are real where the roots are a set of conjugate pairs (a
    filter's poles), complex elsewhere (a graph traced for that kind)."""
    pairs = np.array([-0.5 + 0.8j, -0.5 - 0.8j, -1.0 + 0j, -0.2 - 0.3j, -0.2 + 0.3j])
    check_against_numpy(lambda p: np.poly(p), pairs)
    check_against_numpy(lambda p: np.poly(p), pairs.astype(np.complex64))
    check_against_numpy(filter_denominator, pairs[:2])
    check_against_numpy(filter_denominator, pairs[:1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = nptf.compile(filter_denominator)(pairs[:1])
    np.testing.assert_array_equal(got[0], np.poly(pairs[:1]))
    assert got[0].dtype == np.complex128


def jackknife_variances(x):
    n = len(x)
    est = np.zeros(n)
    for i in range(n):
        est[i] = np.delete(x, i).var()
    return est


def leave_one_row_out(X):
    out = []
    for i in range(X.shape[0]):
        out.append(np.delete(X, i, axis=0).mean(axis=0))
    return np.array(out)


def delete_at(x, k):
    return np.delete(x, k), np.delete(x.reshape(2, -1), k, axis=1), \
        np.delete(x.reshape(2, -1), k), np.delete(x.astype(np.int32), k)


def test_delete_at_one_position_known_when_the_graph_runs(jit):
    # Leave-one-out loops: the loop's index picks the position.
    check_against_numpy(jackknife_variances, np.arange(6.0) ** 2, jit=jit)
    check_against_numpy(leave_one_row_out, np.arange(24.0).reshape(8, 3), jit=jit)
    check_against_numpy(leave_one_row_out, np.arange(960.0).reshape(320, 3), jit=jit)
    for k in (np.int64(-1), np.int64(0), np.int64(2), np.int32(-3), np.uint8(5)):
        check_against_numpy(delete_at, np.arange(6.0), k, jit=jit)
    f = nptf.compile(delete_at, fallback="raise", jit_compile=jit)
    for k in (np.int64(6), np.int64(-7)):
        with pytest.raises(IndexError):
            f(np.arange(6.0), k)


def test_polymul_of_a_leading_zero_runs_numpy(jit):
    # NumPy strips the zero, so the data choose the product's length.
    f = nptf.compile(np.polymul, jit_compile=jit, fallback="raise")
    np.testing.assert_allclose(f(np.array([2.0, 1.0]), np.array([1.0, -3.0, 2.0])),
                               np.polymul([2.0, 1.0], [1.0, -3.0, 2.0]))
    with pytest.raises(nptf.OutsideTheGraphError, match="leading zero"):
        f(np.array([0.0, 1.0]), np.array([1.0, 2.0]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = nptf.compile(np.polymul, jit_compile=jit)(np.array([0.0, 1.0]), np.array([1.0, 2.0]))
    np.testing.assert_array_equal(got, np.polymul([0.0, 1.0], [1.0, 2.0]))


def fitted_curve(x, y, t):
    p = np.poly1d(np.polyfit(x, y, 2))
    slope = p.deriv()
    return p(t), slope(t), p.integ()(1.0) - p.integ()(0.0), p.order, p.coeffs, p


def poly1d_arithmetic(c, t):
    p, q = np.poly1d(c), np.poly1d([1.0, -2.0])
    return (p + q)(t), (p * q)(t), (p - 1.5)(t), (2.5 * p)(t), (p ** 2)(t), (p / 2)(t), \
        np.polyder(p)(t), p.c, p.order, p[2], p[7]


def test_poly1d_of_traced_coefficients(jit):
    """``np.poly1d(np.polyfit(...))``: evaluated, differentiated, integrated, combined and
    returned; leading zeros, which NumPy strips, change none of the values, and the
    stripped coefficients and order follow the data."""
    x = np.linspace(0, 2, 9)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        check_against_numpy(fitted_curve, x, x ** 2 - x, x[:4], jit=jit)
        for c in ([0.0, 0.0, 3.0, 1.0], [2.0, 0.0, 3.0, 1.0], [0.0, 0.0, 0.0]):
            check_against_numpy(poly1d_arithmetic, np.array(c), x[:3], jit=jit)
        check_against_numpy(poly1d_arithmetic, np.array([1, 0, 2], np.int32), np.arange(3),
                            jit=jit)
    # Its roots are np.roots': real or complex as the data say, a leading zero stripped
    # by NumPy's run.
    roots = nptf.compile(lambda c: (np.poly1d(c).roots, np.poly1d(c).deriv().r),
                         fallback="raise", jit_compile=jit)
    for c in ([1.0, -3.0, 2.0], [1.0, 1.0, 2.5], [2.0, -1.0, 3.0, 1.0]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")             # "runs without XLA"
            got, want = roots(np.array(c)), (np.poly1d(c).roots, np.poly1d(c).deriv().r)
        for g, w in zip(got, want):
            assert g.dtype == w.dtype
            np.testing.assert_allclose(g, w)
    with pytest.raises(nptf.OutsideTheGraphError, match="leading or trailing"):
        roots(np.array([0.0, 1.0, 2.0]))
    # What has no graph value (its length) is refused with the line, or runs NumPy.
    fn = lambda c: len(np.poly1d(c))  # noqa: E731
    with pytest.raises(nptf.UnsupportedError, match="poly1d of traced coefficients"):
        nptf.compile(fn, fallback="raise", jit_compile=jit)(np.array([0.0, 1.0, 2.0]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert nptf.compile(fn, jit_compile=jit)(np.array([0.0, 1.0, 2.0])) == 1


def test_choose_out_of_range_raises_when_it_runs(jit):
    f = nptf.compile(lambda a, c: np.choose(a, c), jit_compile=jit, fallback="raise")
    c = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(f(np.array([0, 1, 0]), c), np.choose([0, 1, 0], c))
    with pytest.raises(ValueError, match="invalid entry"):
        f(np.array([0, 2, 0]), c)


def test_spacing_of_float16_edges():
    h = np.array([-1, 1, -65504, 65504, 0, -0.0, 2**-14, -2**-14, 2**-24, -2**-24, 3, -3, np.inf,
                  -np.inf, np.nan, -2**-15, 6e-5, -6e-5], np.float16)
    for jit in (False, True):
        check_against_numpy(lambda x: np.spacing(x), h, jit=jit)
    check_against_numpy(lambda x: np.spacing(x), h.astype(np.float32))
    check_against_numpy(lambda x: np.spacing(x), h.astype(np.float64))


def test_gcd_lcm_extremes(jit):
    for dtype in (np.int8, np.int64, np.uint8, np.uint64):
        info = np.iinfo(dtype)
        x = np.array([info.min, info.max, 0, 12, info.max, 1], dtype)
        y = np.array([0, info.max, 0, 18, 3, info.min], dtype)
        check_against_numpy(lambda a, b: (np.gcd(a, b), np.lcm(a, b)), x, y, jit=jit)


def test_polymul_trims_constant_leading_zeros(jit):
    check_against_numpy(lambda p: (np.polymul(np.array([0.0, 0.0, 2.0, 1.0]), p),
                                   np.polymul(p, np.array([0.0, 0.0]))), np.array([1.0, 3.0]), jit=jit)


_X = np.linspace(0, 1, 9) ** 2
_F2 = np.outer(np.arange(5.0), np.arange(6.0) ** 1.5)
GRADIENT_COORDINATES = {
    "coordinates": (lambda f, t: np.gradient(f, t), (np.sin(_X * 3), _X)),
    "second order": (lambda f, t: np.gradient(f, t, edge_order=2), (np.sin(_X * 3), _X)),
    "int coordinates": (lambda f, t: np.gradient(f, t), (np.sin(_X * 3), np.arange(9) ** 2)),
    "even coordinates": (lambda f, t: np.gradient(f, np.linspace(0, 1, 9)), (np.sin(_X), _X)),
    "made inside": (lambda f, t: np.gradient(f, np.linspace(0, 1, len(f)) ** 2), (_X, _X)),
    "2-d": (lambda f, t: np.gradient(f, t[:5], 0.5), (_F2, _X)),
    "axis": (lambda f, t: np.gradient(f, t[:6], axis=1, edge_order=2), (_F2, _X)),
    "float32": (lambda f, t: np.gradient(f.astype(np.float32), t), (np.sin(_X), _X)),
    "wrong length": (lambda f, t: np.gradient(f, t[:4]), (np.sin(_X), _X)),   # ValueError
}


@pytest.mark.parametrize("name", list(GRADIENT_COORDINATES))
def test_gradient_with_coordinate_arrays(name, jit):
    fn, args = GRADIENT_COORDINATES[name]
    check_against_numpy(fn, *args, jit=jit)


_BITS = np.array([1.5, -2.0, 3.25, 0.0, -0.0, np.inf])
VIEWS = {
    "low byte": lambda x: x.view(np.int64) & 0xFF,
    "sign bit": lambda x: (x.view(np.uint64) >> 63).astype(bool),
    "float32": lambda x: x.astype(np.float32).view(np.int32),
    "next float": lambda x: (x.view(np.int64) + 1).view(np.float64),
    "0-d": lambda x: np.float64(2.0).view(np.int64) + x.view(np.int64)[0],
    # Of another itemsize: the last axis holds the bytes in elements of the new size.
    "bytes": lambda x: x.view(np.uint8),
    "top bytes": lambda x: x.reshape(2, 3).view(np.uint8).reshape(2, 3, 8)[:, :, 7],
    "halves": lambda x: x.view(np.uint32),
    "and back": lambda x: x.view(np.uint8).view(np.float64) * 2,
    "pairs": lambda x: x.astype(np.float32).view(np.float64),
    "packed": lambda x: np.abs(x[:4]).astype(np.uint8).reshape(-1, 2).view(np.uint16),
    "not dividing": lambda x: x[:5].astype(np.float32).view(np.float64),     # ValueError
    "0-d resized": lambda x: np.asarray(x[0]).view(np.int32),              # ValueError
}


@pytest.mark.parametrize("name", list(VIEWS))
def test_view_as_another_dtype(name, jit):
    check_against_numpy(VIEWS[name], _BITS, jit=jit)


def test_writes_beside_a_dtype_view_run_with_numpy():
    def write_through(x):
        y = x.view(np.int64)
        y[0] = 5
        return x

    with pytest.raises(nptf.UnsupportedError, match=r"\.view\(dtype\)"):
        nptf.compile(write_through, fallback="raise")(_BITS.copy())
    with pytest.warns(RuntimeWarning):
        got = nptf.compile(write_through)(_BITS.copy())
    assert np.array_equal(got, write_through(_BITS.copy()))


# ------------------------------------------------- gathers without data-sized tables
def _graph_ops(f, *args):
    graph = f.entry_for(*args).concrete.graph.as_graph_def()
    return [n.op for n in graph.node] + [n.op for fn in graph.library.function for n in fn.node_def]


def _exactly_as_numpy(fn, *args, jit):
    """``fn`` compiled gives NumPy's values bit for bit, dtype and shape, or raises NumPy's
    error type; returns the compiled function."""
    f = nptf.compile(fn, fallback="raise", adaptive=False, jit_compile=jit)
    try:
        expected = fn(*args)
    except Exception as e:  # noqa: BLE001
        with pytest.raises(type(e)):
            f(*args)
        return f
    got = f(*args)
    for g, e in zip(got if isinstance(got, tuple) else (got,),
                    expected if isinstance(expected, tuple) else (expected,)):
        assert g.dtype == e.dtype and g.shape == e.shape, (g.dtype, g.shape, e.dtype, e.shape)
        assert np.array_equal(g, e, equal_nan=e.dtype.kind in "fc"), (g, e)
    return f


def _repeats(n, rng):
    skew = np.ones(n, np.int64)
    skew[n // 3:n // 3 + 1] = 40
    zeros_at_ends = rng.integers(0, 3, n)
    zeros_at_ends[:2] = zeros_at_ends[-2:] = 0
    return [rng.integers(0, 5, n), skew, zeros_at_ends, np.zeros(n, np.int64), np.full(n, 2)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 5, 300])
def test_repeat_with_a_count_per_element(dtype, n, jit):
    """Per-element counts gather at positions summed up from marks where each run ends:
    tf.repeat builds a mask of n by max(counts) and tiles the data to it (one count of
    2,000 among 10,000 ones: 9 ms, NumPy 0.02 ms; XLA compiles it for seconds)."""
    counts = _repeats(n, np.random.default_rng(n))
    x = _data(dtype, (n,), seed=n)
    m = _data(dtype, (3, n), seed=n + 1)

    def repeated(x, m):
        return tuple(r for c in counts for r in (
            np.repeat(x, c), np.repeat(m, c, axis=1), np.repeat(m, c, axis=-1),
            np.repeat(m.T, c, axis=0), m.T.repeat(c, 0))) + (np.repeat(m, [1, 0, 2], axis=0),)

    f = _exactly_as_numpy(repeated, x, m, jit=jit)
    ops = _graph_ops(f, x, m)
    assert "Where" not in ops, ops                  # tf.repeat's boolean mask


@pytest.mark.parametrize("counts", [[1, -1, 2], [1, 2], [[1, 2, 3]], -1],
                         ids=["negative", "too few", "2-d", "negative scalar"])
def test_repeat_counts_numpy_refuses(counts, jit):
    _exactly_as_numpy(lambda x: np.repeat(x, counts), np.arange(3.0), jit=jit)


_DELETE_INSERT_OBJECTS = [1, -1, [0, 2], [2, 1, 1], [], slice(None, None, 2), slice(1, None, 3),
                          [-3, 2], [0, 1, 2]]


_EVEN_ROWS = {n: np.arange(n) % 2 == 0 for n in (3, 5, 6)}


def _deleted_and_inserted(x, v):
    out = []
    for obj in _DELETE_INSERT_OBJECTS:
        for axis in (None, 0, 1, -1):
            out += [np.delete(x, obj, axis=axis), np.insert(x, obj, 7, axis=axis)]
            if not isinstance(obj, int):
                out.append(np.insert(x, obj, v[:1], axis=axis))
    rows = _EVEN_ROWS[x.shape[0]]
    return tuple(out) + (np.delete(x, rows, axis=0), np.insert(x, rows, 5, axis=0),
                         np.delete(x, list(range(0, x.size, 5))),
                         np.insert(x, [0, 3, 3, -1], v[:4], axis=1),
                         np.insert(x, [4, 4], v[:2], axis=1))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(3, 4), (5, 6)])
def test_delete_and_insert_take_slices(dtype, shape, jit):
    """np.delete and np.insert keep a few runs of positions: those are slices of the data
    (and of the inserted values), concatenated, not a gather at a table of every position
    (np.delete of two elements from 1e6 floats: 5.7 ms, NumPy 0.8 ms)."""
    x, v = _data(dtype, shape), _data(dtype, (6,), seed=1)
    f = _exactly_as_numpy(_deleted_and_inserted, x, v, jit=jit)
    ops = [e.op.name for e in f.trace(x, v).eqns]
    assert "take_slices" in ops and "take" not in ops, ops     # at most 31 runs each
    if not jit:     # the op's NumPy meaning: the IR interpreter and the NumPy program
        expected = _deleted_and_inserted(x, v)
        for got in (f.interpret(x, v, optimized=True, verify_passes=True),
                    f.interpret(x, v, program=True)):
            assert all(g.dtype == e.dtype and np.array_equal(g, e) for g, e in zip(got, expected))


@pytest.mark.parametrize("n", [0, 1, 7, 300])
def test_delete_and_insert_of_many_runs(n, jit):
    """Past 64 runs a table of positions stays (an evenly spaced one is a strided slice);
    the errors of out-of-range positions are NumPy's."""
    x = np.arange(n, dtype=np.float32) * 1.5

    def edit(a):
        return (np.delete(a, slice(0, None, 2)), np.delete(a, list(range(0, n, 3))),
                np.delete(a, slice(1, None, 3)), np.insert(a, list(range(0, n, 2)), -1.0),
                np.delete(a, [0, n // 2, n - 1] if n else []), np.insert(a, [n], 9.0))
    _exactly_as_numpy(edit, x, jit=jit)
    for bad in (lambda a: np.delete(a, n), lambda a: np.insert(a, [n + 1], 0.0),
                lambda a: np.delete(a, [-n - 1, 0])):
        _exactly_as_numpy(bad, x, jit=jit)          # IndexError


def test_delete_result_is_a_new_array(jit):
    def edit(a):
        kept, grown = np.delete(a, [1]), np.resize(a, 3)
        kept[0], grown[0] = 99.0, -1.0
        return a, kept, grown
    _exactly_as_numpy(edit, np.arange(5.0), jit=jit)


@pytest.mark.parametrize("dtype", DTYPES)
def test_resize_tiles_and_cuts(dtype, jit):
    """np.resize is the data tiled and cut at the new size, not a gather at a table of
    every position (2e6 positions: 9.5 ms, NumPy 2 ms)."""
    def resized(a, e):
        return tuple(np.resize(a, s) for s in ((2, 5), 3, (0,), (2, 2, 2), 12, 25, (4, 6), 1)) + \
            (np.resize(e, 3), np.resize(a, (0, 3)))
    a, e = _data(dtype, (3, 4)), _data(dtype, (0,))
    f = _exactly_as_numpy(resized, a, e, jit=jit)
    ops = [eq.op.name for eq in f.trace(a, e).eqns]
    assert "take" not in ops, ops
    _exactly_as_numpy(lambda q: np.resize(q, (-1, 2)), a, jit=jit)      # ValueError


def rule_index(triplet):
    left, centre, right = triplet
    index = 7 - (4 * left + 2 * centre + right)
    return int(index)


def clipped_norm(v):
    n = np.sqrt(np.sum(v * v))
    if n > 1.0:
        return v / n
    return v


def elementary_automaton(state, steps, rule_number):
    rule = np.array([int(bit) for bit in np.binary_repr(rule_number, 8)])
    run = np.zeros((steps, len(state)))
    run[0, :] = state
    for step in range(1, steps):
        triplets = np.stack([np.roll(run[step - 1], 1), run[step - 1],
                             np.roll(run[step - 1], -1)])
        run[step, :] = rule[np.apply_along_axis(rule_index, 0, triplets)]
    return run, np.apply_along_axis(clipped_norm, 1, triplets.T)


def test_apply_along_axis_runs_the_function_as_converted_code(jit):
    """The function np.apply_along_axis applies runs as the user's converted code does:
    ``int()`` of a traced value (a Python int: an int64 result), an `if` on one."""
    state = np.zeros(11)
    state[5] = 1
    check_against_numpy(elementary_automaton, state, 6, 30, jit=jit)
