"""Arrays whose length is only known at run time (boolean masks, nonzero, unique) fed to
sorting, set functions, further masks and reshapes: NumPy's values, dtypes, shapes and
errors, from the TensorFlow graph and from the reference interpreter, with one trace."""
from __future__ import annotations

import numpy as np
import pytest

import nptf
from harness import mismatch, run_numpy

# Same shapes, different data: selections of several lengths, empty ones included.
MIXED = [np.array([3.0, -1.0, 0.0, 2.0, 7.0, -4.0, 5.0, 3.0]),
         np.array([-3.0, -1.0, 0.0, -2.0, -5.0, -4.0, -7.0, 0.0]),   # nothing selected
         np.array([1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]),         # everything, all equal
         np.array([6.0, -1.0, np.nan, 4.0, 0.0, 9.0, -2.0, 4.0])]


def _copies(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def check(fn, *cases):
    """``fn`` compiled once and run on every case (a tuple of arguments), by TensorFlow and by
    the interpreter: NumPy's result or NumPy's exception type, without tracing again."""
    f = nptf.compile(fn, fallback="raise")
    interpret = lambda *a: f.interpret(*a, optimized=True, verify_passes=True)  # noqa: E731
    for args in cases:
        expected, err = run_numpy(fn, *_copies(args))
        for run in (f, interpret):
            if err is not None:
                with pytest.raises(type(err)):
                    run(*_copies(args))
                continue
            m = mismatch(expected, run(*_copies(args)))
            assert m is None, f"{'graph' if run is f else 'interpreter'} on {args}: {m}"
    assert f.cache_info().traces == 1


def cases(dtype=np.float64, data=MIXED):
    return [(x.astype(dtype),) for x in data]


INT_DATA = [x for x in MIXED[:3]] + [np.array([6, -1, 2, 4, 0, 9, -2, 4])]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.int64, np.int8,
                                   np.uint16])
def test_sort_of_a_selection(dtype):
    data = INT_DATA if np.dtype(dtype).kind in "iu" else MIXED
    check(lambda x: np.sort(x[x > 0]), *cases(dtype, data))
    check(lambda x: np.argsort(x[x > 0], kind="stable"), *cases(dtype, data))


def test_sort_keeps_nan_last_and_sorts_in_place():
    check(lambda x: np.sort(x[x != 0]), *cases())

    def sort_in_place(x):
        y = x[x != 0]
        y.sort()
        return y

    check(sort_in_place, *cases())


def test_sort_rows_of_a_selection():
    def f(x):
        rows = x.reshape(4, 2)
        picked = rows[rows[:, 0] > 0]
        return np.sort(picked, axis=0), np.sort(picked, axis=None), \
            np.argsort(picked, axis=0, kind="stable")

    check(f, *cases())


def test_lexsort_of_keys_from_one_selection():
    def f(x):
        y = x[x > 0]
        return np.lexsort((-y, np.floor(y / 2)))

    check(f, *cases())


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.uint8])
def test_unique_of_a_selection(dtype):
    data = INT_DATA if np.dtype(dtype).kind in "iu" else MIXED
    check(lambda x: np.unique(x[x > 0], return_counts=True), *cases(dtype, data))
    check(lambda x: np.unique(x[x != 0], True, True, True), *cases(dtype, data))


def test_set_functions_of_selections():
    check(lambda x: np.intersect1d(x[x > 0], x[x < 4], return_indices=True), *cases())
    check(lambda x: np.setdiff1d(x[x > 0], x[x > 3]), *cases())
    check(lambda x: np.setxor1d(x[x > 0], x[x < 4]), *cases())
    check(lambda x: np.union1d(x[x > 0], x[x < 4]), *cases())
    check(lambda x: np.isin(x, x[x > 2]), *cases())


def test_elementwise_with_a_scalar():
    check(lambda x: np.flatnonzero(x) - 1, *cases())
    check(lambda x: x[x > 0] * 2.5 + np.float32(1), *cases())


def test_reshape_of_a_selection():
    check(lambda x: x[x > 0].reshape(-1, 1), *cases())
    check(lambda x: x[x > 0].reshape(1, -1, 1), *cases())
    check(lambda x: x[x > 0][None, :, None].reshape(-1), *cases())
    # Static sizes that need a count the data choose: NumPy's ValueError for the others.
    check(lambda x: x[x > 0].reshape(2, 2), *cases())
    check(lambda x: x[x > 0].reshape(-1, 2), *cases())
    check(lambda x: np.nonzero(x)[0].reshape(3, -1, 2).sum(axis=1), *cases())


def test_interpreter_reshape_with_several_unknown_sizes():
    def f(x):
        y = x[x > 0]
        return (y[:, None] * y[None, :])[..., None]

    g = nptf.compile(f, fallback="raise")
    for (x,) in cases() + [(np.array([2.0, -1.0, -2.0, 0.0, -3.0, -1.0, -2.0, 0.0]),)]:
        m = mismatch(f(x), g.interpret(x, optimized=True, verify_passes=True))
        assert m is None, m


def test_mask_of_a_selection():
    def masks(x):
        y = x[x > 0]
        v = np.unique(x)
        return y[y < 5], v[v > 1], y[~np.isnan(y) & (y != 3)]

    check(masks, *cases())


def test_mask_of_a_selection_with_slices():
    def f(x):
        rows = x.reshape(4, 2)
        picked = rows[rows[:, 0] > 0]
        return picked[picked[:, 1] > 0], picked[:, 1][picked[:, 0] > 1], picked[..., picked[0] > 0]

    check(f, (MIXED[0],), (MIXED[2],))


def test_masks_of_other_lengths_raise_index_error():
    def other(x):
        return x[x > 0][x[x < 0] < 0]   # the same length only by chance

    def static_mask(x):
        return x[x > 0][np.array([True, False, True])]

    def onto_static(x):
        return x[x[x > 0] > 1]

    same_length = (np.array([1.0, -1.0, 2.0, -2.0, 0.0, 0.0, 0.0, 0.0]),)
    three = (np.array([1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 0.0, -1.0]),)
    all_positive = (np.arange(1.0, 9.0),)
    check(other, *cases(), same_length)
    check(static_mask, *cases(), three)
    check(onto_static, *cases(), all_positive)


def test_empty_mask_selects_nothing():
    # NumPy accepts a boolean index of size 0 whatever the axis's size.
    check(lambda x: x[x > 0][x[x > 100] > 0], *cases())


def test_write_through_a_mask_of_a_selection():
    def same(x):
        y = x[x > 0]
        y[y < 5] = 0
        return y

    def other(x):
        y = x[x > 0]
        y[x[x < 0] < -1] = 0
        return y

    check(same, *cases())
    check(other, *cases(), (np.array([1.0, -1.0, 2.0, -2.0, 0.0, 0.0, 0.0, 0.0]),))


def test_one_trace_for_every_selection_length():
    f = nptf.compile(lambda x: np.unique(x[x > 0], return_counts=True), fallback="raise")
    rng = np.random.default_rng(0)
    for k in range(6):
        x = rng.normal(size=20).round(1) - 0.3 * k
        m = mismatch(np.unique(x[x > 0], return_counts=True), f(x))
        assert m is None, m
    assert f.cache_info().traces == 1


def test_still_refused():
    with pytest.raises(nptf.UnsupportedError, match="np.partition"):
        nptf.compile(lambda x: np.partition(x[x > 0], 1), fallback="raise")(MIXED[0])
    # Two selections of the same array: their lengths may differ.
    with pytest.raises(nptf.UnsupportedError, match="np.lexsort"):
        nptf.compile(lambda x: np.lexsort((x[x > 0], x[x > 1])), fallback="raise")(MIXED[0])


def test_squeezing_a_selection_needs_its_size():
    # The rank of x[x > 0].squeeze() depends on how many elements are selected.
    f = nptf.compile(lambda x: x[x > 0].squeeze(), fallback="raise")
    with pytest.raises(nptf.DynamicShapeError, match="np.squeeze"):
        f(np.array([1.0, -1.0]))
    g = nptf.compile(lambda x: np.squeeze(x[None, :, None]), fallback="raise")
    assert g(np.arange(3.0)).shape == (3,)


def test_an_outer_product_of_a_selection():
    def f(x):
        y = x[x > 0]
        return y[:, None] * y[None, :], y[:, None] + 1.0

    x = np.array([1.0, -2.0, 3.0, 4.0])
    for got, expected in zip(nptf.compile(f, fallback="raise")(x), f(x)):
        np.testing.assert_array_equal(got, expected)


def test_covariance_of_a_selection():
    """Per-class scatter matrices (LDA, QDA, Gaussian naive Bayes): np.cov and np.corrcoef
    of the rows a mask selects, none, one or several of them."""
    def scatter(X, y):
        return ([np.cov(X[y == k].T) for k in range(3)], np.cov(X[y == 1], rowvar=False),
                np.corrcoef(X[y == 2].T), np.cov(X[y == 2][:, 0], X[y == 2][:, 1], bias=True))

    X = np.random.RandomState(1).randn(9, 3)
    check(scatter, *[(X, y) for y in (np.array([0, 1, 2] * 3), np.array([0, 0, 1, 0, 2, 2, 0, 0, 0]),
                                      np.array([0] * 8 + [1]), np.zeros(9, dtype=np.int64))])
