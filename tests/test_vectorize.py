"""``np.vectorize`` of a plain Python function: converted like the compiled function
(a traced ``if``, a loop, ``min``/``max`` inside it) and run per element in a compiled
loop, with NumPy's output dtypes (from the first elements as NumPy scalars, or
``otypes``), tuples of outputs, and a refusal where the dtype depends on the data."""
import math

import numpy as np
import pytest

import nptf
from harness import check_against_numpy


def step(v):
    if v > 0:
        return v * 2
    return -v


def clipped(v, lo):
    return min(max(v, lo), 1.0)


CLIP = np.vectorize(clipped)      # made outside the compiled function


def sign_as_int(v):
    return 1 if v > 0 else 0


def one_or_half(v):
    return 1 if v > 0 else 0.5


def power_sum(v):
    s = 0.0
    for k in range(3):
        s += v ** k
    return s


CASES = {
    "made inside": lambda x: np.vectorize(step)(x),
    "made outside": lambda x: CLIP(x, -0.5) + 1,
    "two arguments": lambda x: np.vectorize(lambda a, b: a * b + 1)(x, x[::-1]),
    "int results": lambda x: np.vectorize(sign_as_int)(x),
    "otypes": lambda x: np.vectorize(lambda v: v * 3, otypes=[np.float32])(x),
    "two outputs": lambda x: np.vectorize(lambda v: (v, v * 2))(x),
    "float32": lambda x: np.vectorize(lambda v: v * 2)(x.astype(np.float32)),
    "Python number": lambda x: np.vectorize(lambda v: v + 1)(3.0) + x,
    "bool results": lambda x: np.vectorize(lambda v: v > 0.5)(x),
    "loop inside": lambda x: np.vectorize(power_sum)(x),
}


@pytest.mark.parametrize("name", list(CASES))
def test_vectorize(name, jit):
    for x in (np.array([[0.5, -1.0, 2.0], [3.0, -0.25, 0.0]]), np.linspace(-1, 1, 30)):
        check_against_numpy(CASES[name], x, jit=jit)


def test_a_result_dtype_the_data_choose_is_refused():
    def f(x):
        return np.vectorize(one_or_half)(x)

    with pytest.raises(nptf.UnsupportedError, match=r"np.vectorize\(one_or_half\).*otypes"):
        nptf.compile(f, fallback="raise")(np.array([1.0, -1.0]))
    for x in ([1.0, -1.0], [-1.0, 1.0]):        # int64 and float64 in NumPy
        with pytest.warns(RuntimeWarning):
            got = nptf.compile(f)(np.array(x))
        assert got.dtype == f(np.array(x)).dtype and np.array_equal(got, f(np.array(x)))


_ERF = np.vectorize(math.erf)


def normal_cdf(x):
    # np.vectorize of a function of ``math`` itself, its first element a NumPy scalar.
    return 0.5 * (1.0 + _ERF(np.asarray(x) / math.sqrt(2.0))), \
        np.vectorize(lambda v: math.exp(-v) if v > 0 else math.cos(v))(x)


def test_vectorize_of_a_math_function():
    check_against_numpy(normal_cdf, np.linspace(-2.0, 2.0, 7))
