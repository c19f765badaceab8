"""np.unique, the set functions, bincount and trim_zeros beyond the op records: run-time
errors, data-dependent lengths across calls, and use inside larger functions."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy, mismatch

NAN = np.nan


def _compiled(fn, jit=False):
    return nptf.compile(fn, jit_compile=jit, fallback="raise")


def _run_quietly(f, *args):
    """Call ``f``, ignoring the warning that XLA cannot compile data-dependent lengths."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return f(*args)


def test_bincount_of_negative_values_raises_at_run_time(jit):
    f = _compiled(lambda x: np.bincount(x), jit)
    np.testing.assert_array_equal(_run_quietly(f, np.array([0, 3, 3])), [1, 0, 0, 2])
    with pytest.raises(ValueError, match="must have no negative elements"):
        _run_quietly(f, np.array([0, -3, 3]))
    with pytest.raises(ValueError, match="must have no negative elements"):
        f.interpret(np.array([1, -1]))
    # uint64 values past int64's range wrap negative in NumPy too.
    with pytest.raises(ValueError, match="must have no negative elements"):
        _run_quietly(f, np.array([2**63, 1], np.uint64))


def test_output_lengths_change_between_calls_without_retracing(jit):
    def summary(x):
        values, counts = np.unique(x, return_counts=True)
        return values, counts, np.bincount(x), np.trim_zeros(x)

    f = _compiled(summary, jit)
    for x in (np.array([3, 1, 3, 0, 0, 2]), np.array([0, 0, 0, 0, 0, 0]), np.array([5, 4, 4, 9, 1, 0])):
        m = mismatch(summary(x), _run_quietly(f, x))
        assert m is None, m
    assert f.cache_info().traces == 1


def test_inside_a_larger_function(jit):
    def class_means(labels, values):
        """Mean of ``values`` per label that occurs, and how often each label occurs."""
        classes, inverse, counts = np.unique(labels, return_inverse=True, return_counts=True)
        sums = np.bincount(inverse, weights=values)
        return classes, sums / counts, counts.max(), np.setdiff1d(np.arange(6), labels)

    labels = np.array([4, 1, 4, 4, 0, 1, 5])
    values = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check_against_numpy(class_means, labels, values, jit=jit)


def test_xla_falls_back_to_the_plain_executor_with_a_warning():
    f = nptf.compile(lambda x: np.unique(x), jit_compile=True, fallback="raise")
    with pytest.warns(RuntimeWarning, match="runs without XLA"):
        np.testing.assert_array_equal(f(np.array([2.0, 1.0, 2.0])), [1.0, 2.0])


def test_unknown_input_sizes():
    spec = [nptf.Spec((None,), np.int64)]
    counts = nptf.compile(lambda x: np.bincount(x, minlength=3), input_signature=spec, fallback="raise")
    np.testing.assert_array_equal(counts(np.array([1, 1, 4])), [0, 2, 0, 0, 1])
    np.testing.assert_array_equal(counts(np.array([], np.int64)), [0, 0, 0])
    trimmed = nptf.compile(lambda x: np.trim_zeros(x, "b"), input_signature=spec, fallback="raise")
    np.testing.assert_array_equal(trimmed(np.array([0, 2, 0, 3, 0, 0])), [0, 2, 0, 3])
    # Sorting reads the size at run time.
    sorts = nptf.compile(lambda x: np.unique(x), input_signature=spec, fallback="raise")
    np.testing.assert_array_equal(sorts(np.array([2, 1, 2])), [1, 2])
    np.testing.assert_array_equal(sorts(np.array([], np.int64)), np.array([], np.int64))


def test_set_functions_of_unique_results():
    def f(a, b):
        u = np.unique(a)
        return np.setdiff1d(u, b, assume_unique=True), np.isin(u, b), u[::-1]

    check_against_numpy(f, np.array([3, 1, 3, 7, 1]), np.array([1, 2]))


@pytest.mark.parametrize("dtype", [np.int8, np.uint32, np.float16, np.float64, np.complex64, bool])
def test_unique_values_are_numpys_values_sorted(dtype):
    # NumPy orders unique_values (and unique(sorted=False)) by a hash table; nptf sorts them.
    x = np.array([3, 0, 1, 3, 1, 2, 0, 5]).astype(dtype)
    f = _compiled(lambda x: (np.unique_values(x), np.unique(x, sorted=False)))
    values, unsorted = f(x)
    expected = np.sort(np.unique_values(x))
    assert mismatch(expected, values) is None
    assert mismatch(expected, unsorted) is None


def test_complex_nans_sort_last_in_numpys_groups():
    x = np.array([complex(NAN, 1), 2 + 0j, complex(1, NAN), complex(NAN, NAN), 1 + 0j,
                  complex(1, NAN), 2 + 0j, complex(NAN, -1)])
    for fn in (lambda x: np.unique(x, return_index=True, return_inverse=True, return_counts=True),
               lambda x: np.unique(x, return_counts=True, equal_nan=False),
               lambda x: np.unique_all(x)):
        check_against_numpy(fn, x)


def test_nan_handling_matches_numpy():
    a = np.array([NAN, 1.0, NAN, -0.0, 0.0, 2.0])
    b = np.array([NAN, 0.0, 3.0])
    for fn in (lambda a, b: np.unique(a, return_counts=True),
               lambda a, b: np.unique(a, return_counts=True, equal_nan=False),
               lambda a, b: (np.intersect1d(a, b), np.union1d(a, b), np.setdiff1d(a, b),
                             np.setxor1d(a, b), np.setxor1d(a, b, assume_unique=True))):
        check_against_numpy(fn, a, b)


def test_argument_errors_are_numpys():
    x = np.array([1, 2])
    for fn, error in [(lambda x: np.bincount(x, minlength=-1), ValueError),
                      (lambda x: np.bincount(x, minlength=None), TypeError),
                      (lambda x: np.bincount(x * 1.0), TypeError),
                      (lambda x: np.bincount(x, weights=x[:1]), ValueError),
                      (lambda x: np.bincount(x, weights=x * 1j), TypeError),
                      (lambda x: np.unique(x, axis=1), np.exceptions.AxisError),
                      (lambda x: np.trim_zeros(x, "x"), ValueError),
                      (lambda x: np.trim_zeros(x, axis=1), np.exceptions.AxisError)]:
        with pytest.raises(error):
            fn(x)
        with pytest.raises(error):
            _compiled(fn)(x)


def test_traced_minlength_pads_the_counts():
    f = _compiled(lambda x, n: np.bincount(x, minlength=n))
    for n in (np.array(4), np.array(1)):
        got, expected = f(np.array([1, 2]), n), np.bincount(np.array([1, 2]), minlength=n)
        assert got.dtype == expected.dtype and np.array_equal(got, expected)
    with pytest.raises(TypeError):      # NumPy's: a float is no integer
        f(np.array([1, 2]), np.array(4.0))


def test_writes_into_trimmed_arrays_raise_instead_of_diverging():
    # NumPy's trim_zeros returns a view: writing through it changes the argument, which
    # nptf cannot place, so it says so (and runs NumPy by default).
    def f(x):
        t = np.trim_zeros(x)
        t[...] = 1
        return x

    with pytest.raises(nptf.UnsupportedError, match="view of its argument"):
        _compiled(f)(np.array([0.0, 2.0, 0.0]))
