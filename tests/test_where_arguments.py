"""``where=`` and ``initial=`` of ufuncs and reductions: the safe division
``np.divide(a, b, out=np.zeros_like(a), where=b != 0)``, masked sums, means and
extrema, against NumPy on both executors (NumPy's errors for a mask that is not
boolean or does not broadcast, and for a masked maximum without ``initial``)."""
import numpy as np
import pytest

from harness import check_against_numpy

A = np.array([[1.0, -2.0, 3.0, 0.5], [0.0, 4.0, -1.0, 2.0], [5.0, 6.0, 7.0, -8.0]])
B = np.array([[0.0, 2.0, 0.0, 1.0], [1.0, 0.0, 3.0, 2.0], [1.0, 1.0, 0.0, 4.0]])


def safe_divide(a, b):
    return np.divide(a, b, out=np.zeros_like(a), where=b != 0)


def log_of_positives(a, b):
    out = np.full(a.shape, -1.0)
    np.log(a, out=out, where=a > 0)
    return out


def masked_columns(a, b):
    out = np.ones((3, 4))
    np.add(a, b[0], out=out, where=np.array([True, False, True, False]))
    return out


def divmod_where(a, b):
    q, r = np.zeros_like(a), np.zeros_like(a)
    np.divmod(a, b, out=(q, r), where=b != 0)
    return q, r


def doubled_in_place(a, b):
    np.multiply(a, 2, out=a, where=b > 0)
    return a


def without_out(a, b):
    # Where the mask is False NumPy leaves memory uninitialised: only the rest is read.
    r = np.sqrt(a, where=a >= 0)
    return np.where(a >= 0, r, 0)


def into_int_out(a, b):
    return np.add(a, b, out=np.zeros(a.shape, np.int64), where=b > 0)   # UFuncTypeError


def non_boolean_mask(a, b):
    return np.add(a, b, out=np.zeros_like(a), where=a)                  # TypeError


UFUNCS = [safe_divide, log_of_positives, masked_columns, divmod_where, doubled_in_place,
          without_out, into_int_out, non_boolean_mask]


@pytest.mark.parametrize("fn", UFUNCS, ids=[f.__name__ for f in UFUNCS])
def test_ufunc_where(fn, jit):
    check_against_numpy(fn, A, B, jit=jit)


REDUCTIONS = {
    "sum": lambda a: np.sum(a, where=a > 0),
    "sum axis": lambda a: np.sum(a, axis=1, where=a > 0),
    "sum row mask": lambda a: np.sum(a, axis=0, where=np.array([True, False, True, True])),
    "sum initial": lambda a: np.sum(a, initial=10),
    "bool sum initial": lambda a: np.sum(a > 0, initial=3, axis=0),
    "method": lambda a: a.sum(where=a > 0),
    "add.reduce": lambda a: np.add.reduce(a, axis=0, where=a > 0),
    "prod": lambda a: np.prod(a, where=a > 0),
    "nansum": lambda a: np.nansum(a, where=a > 0),
    "nanprod initial": lambda a: np.nanprod(a, where=a > 0, initial=2.0),
    "mean": lambda a: np.mean(a, where=a > 0),
    "mean axis": lambda a: np.mean(a, axis=0, where=a > 0),
    "mean int": lambda a: np.mean(a.astype(np.int32), axis=1, where=a > 0),
    "mean float32": lambda a: np.mean(a.astype(np.float32), where=a > 0),
    "mean of nothing": lambda a: np.mean(a, where=a > 100),
    "std ddof": lambda a: np.std(a, axis=0, ddof=1, where=a > -5),
    "var axis": lambda a: np.var(a, axis=1, where=a > 0),
    "var complex": lambda a: np.var(a + 1j * a[::-1], where=a > 0),
    "max initial": lambda a: np.max(a, where=a > 0, initial=-1.0),
    "min axis": lambda a: np.min(a, axis=1, where=a < 3, initial=100.0),
    "min keepdims": lambda a: np.min(a, axis=0, keepdims=True, where=a > 0, initial=9.0),
    "max of an empty selection": lambda a: np.max(a[a > 100], initial=0.0),
    "max of a selection": lambda a: np.max(a[a > 1], initial=0.0),
    "any": lambda a: np.any(a > 2, where=a > 0),
    "all": lambda a: np.all(a > 0, axis=1, where=a > 1),
    "max without initial": lambda a: np.max(a, where=a > 0),              # ValueError
    "non-boolean mask": lambda a: np.sum(a, where=a),                     # TypeError
    "mask too large": lambda a: np.sum(a, where=np.ones((2, 3, 4), bool)),  # ValueError
}


@pytest.mark.parametrize("name", list(REDUCTIONS))
def test_reduction_where_and_initial(name, jit):
    check_against_numpy(REDUCTIONS[name], A, jit=jit)
