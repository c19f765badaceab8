"""``np.ma`` masked arrays of traced values, against NumPy's: the values under the mask, the
mask (an array, or ``nomask`` where ``masked_where`` found nothing to mask), dtypes and
fill values; a reduction of only masked values runs NumPy; the rest is refused."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy, mismatch


def same(want, got):
    """What differs between NumPy's result and nptf's, masked arrays included."""
    want = want if isinstance(want, tuple) else (want,)
    got = got if isinstance(got, tuple) else (got,)
    problems = []
    for i, (w, g) in enumerate(zip(want, got)):
        if type(w) is not type(g):
            problems.append(f"{i}: {type(g).__name__} != {type(w).__name__}")
        elif isinstance(w, np.ma.MaskedArray):
            if w.dtype != g.dtype or not np.array_equal(w.data, g.data, equal_nan=True) or \
                    repr(w.mask) != repr(g.mask) or repr(w.fill_value) != repr(g.fill_value):
                problems.append(f"{i}: {g!r} != {w!r}")
        else:
            m = mismatch(w, g)
            if m:
                problems.append(f"{i}: {m}")
    return problems


def check(fn, *args, jit=False, fallback="raise"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = fn(*args)
        got = nptf.compile(fn, fallback=fallback, jit_compile=jit)(*args)
    assert not same(want, got), same(want, got)


def equalize(img):
    hist, _ = np.histogram(img.flatten(), 256, [0, 256])
    cdf = hist.cumsum()
    cdf_m = np.ma.masked_equal(cdf, 0)
    cdf_m = (cdf_m - cdf_m.min()) * 255 / (cdf_m.max() - cdf_m.min())
    cdf = np.ma.filled(cdf_m, 0).astype("uint8")
    return cdf[img]


def test_histogram_equalisation_with_a_masked_cdf(jit):
    rng = np.random.default_rng(0)
    check(equalize, rng.integers(0, 256, (16, 16)).astype(np.uint8), jit=jit)
    check(equalize, rng.integers(60, 120, (16, 16)).astype(np.uint8), jit=jit)


def arithmetic(a, b):
    m = np.ma.masked_equal(a, 0)
    return m + 1, -m, abs(m), m * 2.5, 3 - m, m / b, m // 2, b / m, m - m, m.astype(np.float32), \
        m * [1, 2, 3]


def reductions(a):
    m = np.ma.masked_less(a, 2)
    return (m.min(axis=1), m.max(axis=0), m.sum(axis=0), m.mean(axis=1), m.compressed(),
            m.count(axis=0), m.filled(-1), m.min(), m.sum(), m.mean())


def invalid(a):
    m = np.ma.masked_invalid(a)
    return m.mean(), m.sum(), m.max(), m.filled(0.0), m.mask, m.count(), m, m.fill_value


def given_mask(a):
    m = np.ma.array(a, mask=a % 3 == 0, fill_value=-7)
    return m, m.mean(), m.mean(axis=0), m * 2, m.filled()


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.float32, np.float64])
def test_masked_arithmetic_and_reductions_as_numpy(dtype, jit):
    """With and without masked values (a mask NumPy shrinks to nomask or not)."""
    a = np.array([[0, 3, 0], [5, 2, 7]], dtype)
    for x in (a, a + 1):
        check(arithmetic, x, np.array([1, 0, 2], dtype), jit=jit)
        # A float32 mean's dtype depends on whether anything is masked (below): NumPy.
        check(reductions, x, jit=jit, fallback="numpy" if dtype == np.float32 else "raise")
        check(given_mask, x, jit=jit)
    check(invalid, np.array([1.0, np.nan, 3.0, np.inf], dtype if dtype in (np.float32, np.float64)
                            else np.float64), jit=jit)


def mean_where_nothing_may_be_masked(a):
    m = np.ma.masked_less(a, 0)
    return m.mean(), m.mean(axis=0).filled(-1.0), m.sum()


def test_a_mean_is_numpy_s_whether_or_not_anything_is_masked(jit):
    """``masked_where`` shrinks an empty mask to nomask, and NumPy's mean is then the
    data's own: same values, and for float32 another dtype, which the graph cannot give
    for both (the call runs NumPy)."""
    for a in (np.array([[1, 2], [4, 3]]), np.array([[-1, 2], [4, 3]]),
              np.array([[1.0, 2.0], [4.0, 3.0]]), np.array([[1.0, -2.0], [4.0, 3.0]])):
        check(mean_where_nothing_may_be_masked, a, jit=jit)
    a = np.array([[1.0, 2.0], [4.0, 3.0]], np.float32)
    with pytest.raises(nptf.UnsupportedError, match="float32 where nothing is masked"):
        nptf.compile(mean_where_nothing_may_be_masked, fallback="raise", jit_compile=jit)(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = nptf.compile(mean_where_nothing_may_be_masked, jit_compile=jit)(a)
    assert not same(mean_where_nothing_may_be_masked(a), got)


def all_masked_mean(a):
    return np.ma.masked_less(a, 10).mean()


def remainder(a):
    return np.ma.masked_equal(a, 0) % 2


def test_what_numpy_answers_with_masked_or_does_otherwise_runs_numpy():
    a = np.array([1.0, 2.0, 3.0])
    # NumPy's np.ma.masked, where every value is masked.
    with pytest.raises(nptf.OutsideTheGraphError, match="all masked"):
        nptf.compile(all_masked_mean, fallback="raise")(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert nptf.compile(all_masked_mean)(a) is np.ma.masked
        np.testing.assert_array_equal(nptf.compile(remainder)(np.array([0, 3, 4])),
                                      remainder(np.array([0, 3, 4])))
    for fn in (remainder, lambda a: np.ma.masked_equal(a, 0) > 1,
               lambda a: np.sqrt(np.ma.masked_equal(a, 0))):
        with pytest.raises(nptf.UnsupportedError, match="masked array"):
            nptf.compile(fn, fallback="raise")(np.array([0, 3, 4]))
    # A fill value NumPy keeps only where something is masked: not returned from the graph.
    with pytest.raises(nptf.UnsupportedError, match="fill_value"):
        nptf.compile(lambda a: np.ma.masked_equal(a, 0).mean(axis=0),
                     fallback="raise")(np.array([[0, 1], [2, 3]]))


def test_a_masked_array_or_a_polynomial_cannot_leave_an_exported_function(tmp_path):
    with pytest.raises(nptf.UnsupportedError, match="returning a masked array from an export"):
        nptf.export(lambda a: np.ma.masked_less(a, 0.0) * 2, str(tmp_path / "m"),
                    nptf.Spec((3,), np.float64))
    with pytest.raises(nptf.UnsupportedError, match="returning an np.poly1d from an export"):
        nptf.export(lambda c: np.poly1d(c), str(tmp_path / "p"), nptf.Spec((3,), np.float64))


def weighted_average(data, weights):
    masked = np.ma.masked_array(data, np.isnan(data))
    rows = np.ma.masked_array(data.reshape(2, 3), np.isnan(data.reshape(2, 3)))
    return (np.ma.average(masked, weights=weights), np.ma.average(masked),
            np.ma.average(rows, axis=1, weights=weights.reshape(2, 3)).filled(-1.0))


def shares_its_arrays(x):
    mask = x < 0
    m = np.ma.array(x, mask=mask)       # NumPy's holds x and mask themselves
    mask[0] = True
    x[1] = 7.0
    m2 = np.ma.masked_where(x > 2, x, copy=False)
    x[0] = 9.0
    m3 = np.ma.masked_array(x, x > 5)
    x[2] = -1.0
    return m.sum(), m2.sum(), m3.sum(), m.mean()


def test_masked_arrays_of_an_array_and_weighted_averages(jit):
    """``np.ma.masked_array(data, mask)`` (the mask second), ``np.ma.average`` with
    weights, and NumPy's sharing: an ``np.ma.array`` (or ``masked_where(copy=False)``)
    holds the data and the mask arrays themselves, so later writes into them show."""
    data = np.array([1.0, np.nan, 3.0, 4.0, np.nan, 2.0])
    check_against_numpy(weighted_average, data, np.arange(1.0, 7.0), jit=jit)
    check_against_numpy(weighted_average, data.astype(np.float32), np.arange(1, 7), jit=jit)
    check_against_numpy(shares_its_arrays, np.array([1.0, -2.0, 3.0]), jit=jit)
    with pytest.raises(nptf.OutsideTheGraphError, match="all masked"):
        nptf.compile(weighted_average, fallback="raise", jit_compile=jit)(
            np.full(6, np.nan), np.arange(1.0, 7.0))
