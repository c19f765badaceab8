"""``ufunc.accumulate`` of associative ufuncs (a running maximum for drawdowns,
cumulative ``logical_or``) and ``ufunc.reduceat`` (segment sums), against NumPy on both
executors, with NumPy's errors for a bad axis or index."""
import numpy as np
import pytest

from harness import check_against_numpy

X = np.array([1.0, 3.0, 2.0, np.nan, 5.0, -0.0, 0.0, 4.0, 7.0])
M = np.array([[1, 5, 2], [4, 0, 9], [3, 3, 8], [7, 1, 1]], np.int16)

ACCUMULATE = {
    "maximum": (lambda x: np.maximum.accumulate(x), X),
    "minimum": (lambda x: np.minimum.accumulate(x), X),
    "fmax": (lambda x: np.fmax.accumulate(x), X),
    "drawdown": (lambda x: x / np.maximum.accumulate(x) - 1, np.abs(X[:3])),
    "2-d": (lambda m: np.maximum.accumulate(m), M),
    "axis 1": (lambda m: np.minimum.accumulate(m, axis=1), M),
    "logical_and": (lambda m: np.logical_and.accumulate(m > 1, axis=0), M),
    "logical_or of floats": (lambda x: np.logical_or.accumulate(x), X),
    "bitwise_xor": (lambda m: np.bitwise_xor.accumulate(m, axis=-1), M),
    "bool maximum": (lambda m: np.maximum.accumulate(m > 3), M),
    "0-d": (lambda x: np.maximum.accumulate(x[0]), X),                # TypeError
    "bad axis": (lambda m: np.maximum.accumulate(m, axis=2), M),      # AxisError
}


@pytest.mark.parametrize("name", list(ACCUMULATE))
def test_accumulate(name, jit):
    fn, arg = ACCUMULATE[name]
    check_against_numpy(fn, arg, jit=jit)


Y = np.arange(1.0, 9.0)
N = np.arange(24, dtype=np.int16).reshape(4, 6) % 7

REDUCEAT = {
    "add": (lambda x: np.add.reduceat(x, [0, 4, 1, 5]), Y),
    "add sorted": (lambda x: np.add.reduceat(x, [0, 3, 5]), Y),
    "add repeated": (lambda x: np.add.reduceat(x, [1, 3, 3, 6]), Y),
    "maximum": (lambda x: np.maximum.reduceat(x, [0, 3, 5]), Y),
    "minimum unsorted": (lambda x: np.minimum.reduceat(x, [4, 1, 6]), Y),
    "multiply": (lambda x: np.multiply.reduceat(x, np.array([0, 2, 7])), Y),
    "axis 1": (lambda m: np.add.reduceat(m, [0, 2, 4], axis=1), N),
    "axis 0": (lambda m: np.maximum.reduceat(m, [0, 2, 2], axis=0), N),
    "bool": (lambda m: np.add.reduceat(m > 2, [0, 2], axis=1), N),
    "past the end": (lambda x: np.add.reduceat(x, [0, 9]), Y),        # IndexError
    "negative": (lambda x: np.add.reduceat(x, [-1, 2]), Y),           # IndexError
}


@pytest.mark.parametrize("name", list(REDUCEAT))
def test_reduceat(name, jit):
    fn, arg = REDUCEAT[name]
    check_against_numpy(fn, arg, jit=jit)
