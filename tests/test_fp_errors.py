"""NumPy's floating-point error state where it raises (``np.errstate``, ``np.seterr``):
the graph checks the results that may set a flag of a raising category, and data that
set one run the call with NumPy (default) or raise nptf's error (``fallback="raise"``)."""
import warnings

import numpy as np
import pytest

import nptf


def log_or_default(x):
    # The safe_call idiom: NumPy's FloatingPointError caught, a default returned.
    with np.errstate(all="raise"):
        try:
            return np.log(x - x.max())
        except FloatingPointError:
            return -1.0


def divide_under_raise(x, y):
    with np.errstate(divide="raise"):
        return x / y


def floor_divide_ints(a, b):
    with np.errstate(divide="raise"):
        return a // b


def cast_under_invalid(x):
    with np.errstate(invalid="raise"):
        return (x * 2).astype(np.int64)


def sum_under_over(x):
    with np.errstate(over="raise"):
        return np.sum(x * 1.0) + 1


def exp_under_under(x):
    with np.errstate(under="raise"):
        return np.exp(x)


def zeros_from_integers(a, x):
    # Zeros made from integers, or a product with an integer zero: no underflow.
    with np.errstate(all="raise"):
        return a.astype(float) * x + a * x - np.float64(0) * a


def exp_twice(x):
    return np.exp(x) * 2


def numpy_says(fn, *args):
    """NumPy's result, or its exception type."""
    try:
        return fn(*args), None
    except FloatingPointError as e:
        return None, type(e)


def run_default(fn, *args):
    """The default compile (adaptive off: the graph runs these small calls)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nptf.compile(fn, adaptive=False)(*args)


def assert_like_numpy(fn, *args):
    expected, err = numpy_says(fn, *args)
    if err is not None:
        with pytest.raises(err):
            run_default(fn, *args)
        return
    got = run_default(fn, *args)
    np.testing.assert_array_equal(got, expected)
    assert np.asarray(got).dtype == np.asarray(expected).dtype


CASES = [
    (log_or_default, (np.array([1.0, 2.0, 3.0]),)),
    (divide_under_raise, (np.array([1.0, 2.0]), np.array([4.0, 0.0]))),
    (divide_under_raise, (np.array([1.0, 2.0]), np.array([4.0, 8.0]))),
    (divide_under_raise, (np.array([np.inf, np.nan]), np.array([4.0, 8.0]))),
    (floor_divide_ints, (np.array([7, 8]), np.array([2, 0]))),
    (floor_divide_ints, (np.array([7, 8]), np.array([2, 3]))),
    (cast_under_invalid, (np.array([1.5, np.nan]),)),
    (cast_under_invalid, (np.array([1.5, -2.5]),)),
    (sum_under_over, (np.array([1e308, 1e308]),)),
    (sum_under_over, (np.array([1.0, 2.0]),)),
    (exp_under_under, (np.array([-1000.0, 1.0]),)),
    (exp_under_under, (np.array([-1.0, 1.0]),)),
    (zeros_from_integers, (np.array([0, 2, 0]), np.array([1e-300, 1.5, 0.0]))),
]


@pytest.mark.parametrize("fn,args", CASES,
                         ids=[f"{c[0].__name__}-{i}" for i, c in enumerate(CASES)])
def test_a_raising_state_in_the_function(fn, args):
    assert_like_numpy(fn, *args)


def test_data_without_errors_stay_in_the_graph():
    g = nptf.compile(zeros_from_integers, fallback="raise", adaptive=False)
    np.testing.assert_array_equal(g(np.array([0, 2, 0]), np.array([1e-300, 1.5, 0.0])),
                                  zeros_from_integers(np.array([0, 2, 0]),
                                                      np.array([1e-300, 1.5, 0.0])))
    f = nptf.compile(divide_under_raise, fallback="raise", adaptive=False)
    np.testing.assert_array_equal(f(np.array([1.0, 2.0]), np.array([4.0, 8.0])), [0.25, 0.25])
    with pytest.raises(nptf.Error, match="np.divide.*floating-point error"):
        f(np.array([1.0, 2.0]), np.array([4.0, 0.0]))
    assert f.cache_info().traces == 1


def test_the_callers_state_is_read_at_each_call():
    f = nptf.compile(exp_twice, adaptive=False)
    x = np.array([1.0, 1000.0])
    with np.errstate(all="ignore"):
        assert np.isinf(f(x)[1])
    with np.errstate(over="raise"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(FloatingPointError):
            f(x)
        np.testing.assert_array_equal(f(np.array([0.0])), [2.0])
    with np.errstate(all="ignore"):
        assert np.isinf(f(x)[1])


def seterr_left_changed(x):
    np.seterr(divide="raise")
    return x + 1


def seterr_restored(x):
    old = np.seterr(divide="raise")
    y = x / 2
    np.seterr(**old)
    return y


def test_seterr_in_the_function():
    before = np.geterr()
    try:
        with pytest.raises(nptf.Error, match="np.seterr"):
            nptf.compile(seterr_left_changed, fallback="raise")(np.ones(2))
        assert np.geterr() == before
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.testing.assert_array_equal(nptf.compile(seterr_left_changed)(np.ones(2)), [2, 2])
        assert np.geterr()["divide"] == "raise"      # as NumPy's run leaves it
    finally:
        np.seterr(**before)
    f = nptf.compile(seterr_restored, fallback="raise")
    np.testing.assert_array_equal(f(np.ones(2)), [0.5, 0.5])
    assert np.geterr() == before
