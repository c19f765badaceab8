"""Edge cases where NumPy raises or answers in its own way, found by random programs
(``tests/test_random_programs.py``): each is checked against NumPy on both executors."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import nptf

from harness import check_against_numpy, dtype_and_executor

AXIS_FUNCTIONS = {
    "sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min, "any": np.any,
    "all": np.all, "ptp": np.ptp, "count_nonzero": np.count_nonzero, "nansum": np.nansum,
    "nanmax": np.nanmax, "mean": np.mean, "var": np.var, "std": np.std,
    "nanmean": np.nanmean, "nanstd": np.nanstd, "average": np.average,
    "median": np.median, "quantile": lambda x, axis: np.quantile(x, 0.5, axis=axis),
    "percentile": lambda x, axis: np.percentile(x, 50, axis=axis),
    "argmax": np.argmax, "argmin": np.argmin, "cumsum": np.cumsum, "cumprod": np.cumprod,
    "nancumsum": np.nancumsum, "argsort": np.argsort, "flip": np.flip, "sort": np.sort,
}


@pytest.mark.parametrize("axis", [0, -1, (0,), 1], ids=["0", "-1", "(0,)", "1"])
@pytest.mark.parametrize("name", list(AXIS_FUNCTIONS))
def test_axis_of_a_0d_array(name, axis, jit):
    # A ufunc's reduce (np.sum, np.max, ...) reads axis 0 or -1 of a 0-d array as no axis;
    # np.mean, np.median, np.flip and the like raise AxisError; np.argmax, np.cumsum and
    # np.argsort read the array as one element; a tuple is refused by all of them.
    fn = AXIS_FUNCTIONS[name]
    check_against_numpy(lambda x: fn(x, axis=axis), np.array(2.5), jit=jit)
    check_against_numpy(lambda x: fn(np.sum(x), axis=axis), np.arange(3.0), jit=jit)


@pytest.mark.parametrize("fn", [
    lambda x: np.average(x, axis=0, weights=np.array(2.0)),     # AxisError
    lambda x: np.average(x, axis=-1, weights=x),
    lambda x: np.take(x, 0, axis=0),                            # as from one element
    lambda x: np.take(x, [0, 0], axis=-1),
    lambda x: np.take(x, 0, axis=1),                            # AxisError
    lambda x: np.take(x, 1, axis=0),                            # IndexError
], ids=["average 0", "average -1", "take 0", "take list", "take 1", "take past"])
def test_axis_of_a_0d_array_elsewhere(fn, jit):
    check_against_numpy(fn, np.array(2.5), jit=jit)


def _power(a, b):
    return np.power(a, b)


def _pow_operator(a, b):
    return a ** b


def _pow_in_place(a, b):
    a **= b
    return a


@pytest.mark.parametrize("fn", [_power, _pow_operator, _pow_in_place])
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64])
def test_negative_integer_exponent_raises_as_numpy_does(fn, dtype, jit):
    base = np.arange(1, 5, dtype=dtype)
    check_against_numpy(fn, base, np.array([1, -1, 2, 0], dtype=dtype), jit=jit)
    check_against_numpy(fn, base, np.array([1, 3, 2, 0], dtype=dtype), jit=jit)
    check_against_numpy(fn, dtype(3), dtype(-2), jit=jit)


def test_negative_integer_exponent_in_an_empty_result(jit):
    # The exponents NumPy never uses are not checked.
    exponents = np.array([-1, 1, 2])
    check_against_numpy(lambda a, b: a ** b, np.zeros((0, 3), np.int64), exponents, jit=jit)
    check_against_numpy(lambda a, b: a ** b, np.zeros((2, 3), np.int64), exponents, jit=jit)
    check_against_numpy(lambda a, b: a[a > 5] ** b[0], np.arange(4), exponents, jit=jit)


def test_negative_integer_exponents_elsewhere(jit):
    ints = np.arange(4)
    check_against_numpy(lambda a: a ** np.array([1, -1, 2, 0]), ints, jit=jit)   # a constant
    check_against_numpy(lambda a: a ** -1, ints, jit=jit)                        # at trace time
    check_against_numpy(lambda a, b: a ** b, np.arange(4.0), np.array([1, -1, 2, 0]), jit=jit)
    check_against_numpy(lambda a, b: a ** b, np.arange(4, dtype=np.uint8),
                        np.array([1, 7, 2, 0], dtype=np.uint8), jit=jit)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8, np.uint32, np.uint64])
def test_integer_power_wraps_around_for_large_exponents(dtype, jit):
    # XLA's own integer power reads the exponent's low six bits (2 ** 64 came out 1).
    signed = np.dtype(dtype).kind == "i"
    base = np.array([2, 3, -3 if signed else 5, 1, 7, 2], dtype=dtype)
    exponent = np.array([64, 64, 65, 100, 127, 63], dtype=dtype)
    check_against_numpy(lambda a, b: a ** b, base, exponent, jit=jit)
    check_against_numpy(lambda a: a ** 100, base, jit=jit)
    if not signed:      # exponents past the signed range (2**63 and up for uint64)
        top = np.iinfo(dtype).max
        check_against_numpy(lambda a, b: a ** b, base, np.array([top, top - 1, top // 2 + 1,
                                                                 top, 2, 0], dtype), jit=jit)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_division_by_zero(dtype, jit):
    # TensorFlow's kernel gave nan+nanj where NumPy gives (re/0, im/0).
    x = np.array([1 + 2j, -3 + 0j, 0j, 2 - 1j, 1e-30 + 1e30j], dtype=dtype)
    y = np.array([0j, 0j, complex(-0.0, -0.0), 1 + 1j, 1e30 - 1e-30j], dtype=dtype)
    check_against_numpy(lambda a, b: a / b, x, y, jit=jit)
    check_against_numpy(lambda a, b: a / b, x, np.array(0.0), jit=jit)
    check_against_numpy(lambda a, b: a / b, x, np.array(-0.0), jit=jit)
    check_against_numpy(lambda a, b: a / np.rint(b), x, np.array([-0.2, 0.2, -0.3, 1, 2]), jit=jit)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_division_with_infinite_or_nan_parts(dtype, jit):
    # NumPy's Smith's method: 1 / (inf-infj) is nan+nanj (XLA's division, as C99: 0j).
    inf, nan = np.inf, np.nan
    x = np.array([1, 0j, 2 - 1j, complex(inf, 0), complex(inf, inf), complex(nan, 1), 3j,
                  complex(-inf, 2)], dtype=dtype)
    y = np.array([complex(inf, -inf), complex(-inf, nan), complex(2, inf), 1.5 + 0.5j,
                  complex(inf, 1), 1 + 1j, complex(nan, 0), complex(0, -inf)], dtype=dtype)
    check_against_numpy(lambda a, b: a / b, x, y, jit=jit)
    check_against_numpy(lambda a, b: np.true_divide(a, b), x[:, None], y, jit=jit)


def _store(a, v):
    a[1] = v
    return a


def _store_all(a, v):
    a[...] = v
    return a


def _fill(a, v):
    a.fill(v)
    return a


@pytest.mark.parametrize("store", [_store, _store_all, _fill])
@pytest.mark.parametrize("dtype, jit", dtype_and_executor(
    [np.int8, np.uint8, np.int64, np.uint64, np.float32, np.bool_], [np.uint8, np.float32]))
@pytest.mark.parametrize("value", [1 + 2j, float("nan"), float("inf"), -float("inf"), 127.9, 128.0,
                                   -128.9, -129.0, 1e300, 2.5, 300, -1, True])
def test_storing_a_python_number_argument(store, dtype, value, jit):
    # NumPy converts the number as int()/float() would: NaN -> ValueError, infinity or
    # out of range -> OverflowError, complex into a real array -> TypeError.
    check_against_numpy(store, np.zeros(3, dtype), value, jit=jit)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.float32])
@pytest.mark.parametrize("source", [
    "a[1] = 1 + 2j", "a[...] = float('nan')", "a[1] = np.inf", "a.fill(np.nan)", "a[0] = 300",
    "a[0] = -1", "a[:2] = [300, 1]", "a[:2] = [1 + 2j, 0]", "a[0] = np.float64(np.nan)",
    "a[0] = np.int64(300)", "a[0] = 2.5"])
def test_storing_a_constant(dtype, source, jit, tmp_path):
    path = tmp_path / "store_constant.py"
    path.write_text(f"import numpy as np\n\n\ndef f(a):\n    {source}\n    return a\n")
    namespace = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    check_against_numpy(namespace["f"], np.zeros(3, dtype), jit=jit)


@pytest.mark.parametrize("fn", [lambda a, b: a ** b, np.float_power], ids=["power", "float_power"])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_power_at_zero(fn, dtype, jit):
    # exp(y log x) gives NaN or infinities here; NumPy: x ** 0 is 1, 0 ** y is 0 for
    # y.real > 0, NaN otherwise.
    x = np.array([0, 0, 0, 0, 2, -1, 0, 0, np.nan, -0.0], dtype=dtype)
    y = np.array([1 + 1j, 2, 0, -1, 0.5, 0.5, 1j, -1 + 1j, 0, 3], dtype=dtype)
    check_against_numpy(fn, x, y, jit=jit)


@pytest.mark.parametrize("op", ["<", "<=", ">", ">=", "==", "!="])
def test_complex_order_with_nan_parts(op, jit):
    # NumPy: a NaN imaginary part makes <, <=, >, >= false even where the real parts decide.
    nan = np.nan
    x = np.array([1 + nan * 1j, 1 + 0j, 1 + 0j, complex(1, nan), complex(nan, 0), 1 + 1j, 1 + 0j])
    y = np.array([2 + 0j, complex(2, nan), complex(1, nan), complex(1, nan), 1 + 0j, 1 + 1j, 2 + 0j])
    fn = eval(f"lambda a, b: a {op} b")
    check_against_numpy(fn, x, y, jit=jit)
    check_against_numpy(fn, x.astype(np.complex64), y.astype(np.complex64), jit=jit)


EDGE_FLOATS = [-0.0, 0.0, -np.inf, np.inf, np.nan, -1.5, 2.25, 1000.0, -800.0, 800.0]


@pytest.mark.parametrize("fn", [lambda x: np.log(np.exp(x) * 1.0),
                                lambda x: np.log(np.exp(x).reshape(-1, 1)),
                                lambda x: np.log(np.power(x, 1.5) * 1.0),
                                lambda x: np.log10(np.exp(x)[::-1] / 1.0)],
                         ids=["times one", "reshaped", "power times one", "reversed"])
@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_log_of_exp_through_other_ops(fn, dtype, jit):
    # XLA's simplifier looks through a product by one or a reshape to reach log(exp(a)).
    x = np.array([1000, 4, -2.5, 0], dtype=dtype)    # log(exp(1000.0)) is inf, not 1000
    if dtype == np.complex128:                        # log(exp(4j)) is -2.28j, not 4j
        x = x[1:] + 4j
    with np.errstate(all="ignore"):
        check_against_numpy(fn, x, jit=jit)


@pytest.mark.parametrize("name, fn", [
    ("log(exp)", lambda x: np.log(np.exp(x))),            # XLA: log(exp(a)) -> a
    ("log2(exp)", lambda x: np.log2(np.exp(x))),
    ("log(pow)", lambda x: np.log(x ** 0.75)),            # XLA: log(a ** b) -> b log|a|
    ("log10(pow)", lambda x: np.log10(np.power(x, 1.5))),
    ("pow 0.5", lambda x: x ** 0.5),                      # NumPy: sqrt; XLA's pow: C's
    ("power 0.5", lambda x: np.power(x, 0.5)),
    ("pow -0.5", lambda x: x ** -0.5),                    # NumPy: C's pow; Grappler: rsqrt
    ("power -0.5", lambda x: np.power(x, -0.5)),
    ("pow -1", lambda x: x ** -1),
    ("pow 0", lambda x: x ** 0),
])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rewrites_that_would_change_edge_values(name, fn, dtype, jit):
    x = np.array(EDGE_FLOATS, dtype=dtype)
    with np.errstate(all="ignore"):
        expected, got = fn(x), nptf.compile(fn, jit_compile=jit)(x)
    check_against_numpy(fn, x, jit=jit)
    # check_against_numpy compares values; the sign of a zero matters here too
    zero = expected == 0
    np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(expected[zero]))


def _pow_in_place_half(x, e):
    x **= e
    return x


HALF_POWERS = {
    "array ** 0.5": lambda x, e: x ** 0.5,                      # sqrt, float16 too
    "power(array, 0.5)": lambda x, e: np.power(x, 0.5),         # sqrt, but float16's loop: pow
    "array ** e": lambda x, e: x ** e,                          # e known at run time
    "power(array, e)": lambda x, e: np.power(x, e),
    "scalar ** 0.5": lambda x, e: x[0] ** 0.5,                  # NumPy's scalar math: pow
    "scalar ** float64(0.5)": lambda x, e: x[2] ** np.float64(0.5),
    "power(scalar, 0.5)": lambda x, e: np.power(x[2], 0.5),     # the ufunc: sqrt
    "array ** full(0.5)": lambda x, e: x ** np.full(x.shape, 0.5),    # one exponent each: pow
    "array **= e": _pow_in_place_half,
}


@pytest.mark.parametrize("form", list(HALF_POWERS))
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_half_powers_as_numpy_takes_them(form, dtype, jit):
    # NumPy computes x ** 0.5 as sqrt in some calls and as C's pow in others: they differ
    # at -0.0 (sqrt keeps the sign) and -inf (sqrt: NaN, pow: inf).
    fn = HALF_POWERS[form]
    x = np.array([-0.0, 4.0, -np.inf, 0.0, np.inf, 2.25], dtype=dtype)
    for e in (np.array(0.5), np.array(0.25)):
        with np.errstate(all="ignore"):
            expected = fn(x.copy(), e)
            got = check_against_numpy(fn, x, e, jit=jit)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(expected))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_reciprocal_as_numpy_computes_it(dtype, jit):
    # NumPy's own loop: 1 / 0j is nan+nanj (XLA's reciprocal: inf+nanj).
    x = np.array([0j, 1 + 1j, -2j, -3 + 0.5j, np.inf, 1e-30 + 1e30j, complex(np.nan, 1)],
                 dtype=dtype)
    with np.errstate(all="ignore"):
        got = check_against_numpy(np.reciprocal, x, jit=jit)
        expected = np.reciprocal(x)
    for part in (np.real, np.imag):
        np.testing.assert_array_equal(np.signbit(part(got)), np.signbit(part(expected)))


@pytest.mark.parametrize("name", ["log10", "log2", "log1p", "exp2"])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_logs_and_exp2_part_by_part(name, dtype, jit):
    # NumPy scales log(z) by log10(e) part by part (log10(0j) is -inf+0j; a complex division
    # by ln(10) gave -inf+nanj), takes log1p(z) as log(|z+1|) + 1j*angle(z+1) (log1p(-1+0j)
    # is -inf+0j; XLA's log1p gave 0j) and exp2(z) as exp(z*ln(2)) part by part.
    inf, nan = np.inf, np.nan
    x = np.array([0j, complex(-0.0, 0), complex(0, -0.0), complex(-1, 0), complex(-1, -0.0),
                  complex(inf, 0), complex(-inf, 1), complex(0, inf), complex(nan, 0),
                  1 + 2j, -0.5 + 0.25j], dtype=dtype)
    fn = getattr(np, name)
    with np.errstate(all="ignore"):
        got = check_against_numpy(lambda v: fn(v), x, jit=jit)
        expected = fn(x)
    if name != "exp2":      # XLA's exp drops the sign of a zero imaginary part
        zero = expected.imag == 0
        np.testing.assert_array_equal(np.signbit(got.imag[zero]),
                                      np.signbit(expected.imag[zero]))


@pytest.mark.parametrize("name", ["absolute", "log", "log10", "log1p"])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_abs_and_log_of_an_infinite_part_next_to_nan(name, dtype, jit):
    # C's hypot is inf where either part is infinite: |inf+nanj| is inf, log(inf+nanj)
    # inf+nanj in NumPy (XLA: nan, nan+nanj).
    inf, nan = np.inf, np.nan
    x = np.array([complex(inf, nan), complex(nan, -inf), complex(-inf, nan), complex(nan, 1),
                  complex(inf, 2), 3 - 4j], dtype=dtype)
    fn = getattr(np, name)
    with np.errstate(all="ignore"):
        check_against_numpy(lambda v: fn(v), x, jit=jit)


def _store_max(a, b):
    a[0] = np.max(b)        # a NumPy scalar: NumPy converts it as int() would
    return a


@pytest.mark.parametrize("target, values", [
    (np.int8, [1.0, np.inf]), (np.int8, [1.0, np.nan]), (np.int8, [1.0, 200.0]),
    (np.int8, [1.0, 100.7]), (np.int8, [1, 300]), (np.int8, [1, 100]), (np.uint8, [1, -1]),
    (np.int64, [1, 2 ** 40]), (np.uint64, [1, -5]), (np.float32, [1, 300])])
def test_storing_a_numpy_scalar(target, values, jit):
    check_against_numpy(_store_max, np.zeros(3, target), np.array(values), jit=jit)
    check_against_numpy(_store_max, np.zeros(3, np.int64), np.array([1, 2 ** 63], np.uint64),
                        jit=jit)


@pytest.mark.parametrize("value", [3.0, 3, 2.5, np.float64(2.0), np.array([1.5, 2, 3])])
@pytest.mark.parametrize("target", [np.int8, np.float32])
def test_copyto_casting_as_numpy(value, target, jit):
    # np.copyto's same_kind rule refuses a Python float into an integer array too.
    def fn(a, v):
        np.copyto(a, v)
        return a
    check_against_numpy(fn, np.zeros(3, target), value, jit=jit)


@pytest.mark.parametrize("scale", [1.0, 1000.0])
@pytest.mark.parametrize("fn", [np.var, lambda a: np.std(a, axis=-1, ddof=1),
                                lambda a: np.var(a, axis=0, keepdims=True)])
def test_float16_variance_as_numpy_computes_it(fn, scale, jit):
    # NumPy squares float16 deviations in float16: a spread past 256 gives inf.
    x = (np.random.default_rng(0).standard_normal((3, 50)) * scale).astype(np.float16)
    check_against_numpy(fn, x, jit=jit, rtol_scale=1.0)


@pytest.mark.parametrize("spread, centre", [(0.01, 0.5), (0.1, 3.0)])
def test_float16_variance_past_the_float16_count(spread, centre, jit):
    # 70,000 items: the count is inf in float16 (the variance came out 0); NumPy divides by
    # the integer count. A float16 sum that overflows makes the variance inf there.
    x = (np.random.default_rng(0).standard_normal(70_000) * spread + centre).astype(np.float16)
    check_against_numpy(lambda a: (np.var(a), np.std(a)), x, jit=jit, rtol_scale=1.0)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64])
@pytest.mark.parametrize("ddof", [4, 5, 6, 1.5])
def test_variance_with_ddof_at_or_past_the_count(dtype, ddof, jit):
    # NumPy divides by max(n - ddof, 0): inf (or NaN) past the count, never negative.
    x = np.array([[1, 2, 3, 4, 5], [2, 2, 2, 2, 2]], dtype=dtype)
    with np.errstate(all="ignore"):
        check_against_numpy(lambda a: (np.var(a, axis=1, ddof=ddof), np.std(a, ddof=ddof * 2)),
                            x, jit=jit)


def test_astype_of_a_numpy_scalar_stays_a_scalar(jit):
    # A NumPy scalar's astype returns a NumPy scalar, also to its own dtype.
    fn = lambda c: (np.sum(c).astype(np.float32), np.remainder(c[0], 2).astype(c.dtype),  # noqa: E731
                    np.sum(c).astype(np.float64), c.astype(c.dtype))
    check_against_numpy(fn, np.arange(3, dtype=np.float32), jit=jit)


def test_complex_to_real_astype_keeps_tensorflows_cast_warning_quiet(jit):
    # NumPy drops the imaginary part; TensorFlow's logger would warn of that cast on
    # every compile of the graph.
    import logging
    import tensorflow as tf
    records = []
    handler = logging.Handler()
    handler.emit = records.append
    tf.get_logger().addHandler(handler)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            check_against_numpy(lambda c: (c.astype(np.float32) * 2, c.astype(np.int16)),
                                np.array([1.5 + 2j, -3 - 1j], np.complex64), jit=jit)
    finally:
        tf.get_logger().removeHandler(handler)
    assert not [r for r in records if "imaginary part" in r.getMessage()]


def test_real_and_imag_of_python_numbers_are_python_numbers(jit):
    # A Python complex argument's real part is a Python float, weak in what follows.
    def fn(v, x):
        return np.real(v), np.imag(v), v.real, x + v.real, x * np.imag(v), np.real(2 + 3j)
    got = check_against_numpy(fn, 2 + 3j, np.ones(2, np.float32), jit=jit)
    assert [type(g) for g in got] == [type(e) for e in fn(2 + 3j, np.ones(2, np.float32))]


def test_real_and_imag_of_a_scalar_are_scalars(jit):
    fn = lambda c: (np.real(np.negative(c)), np.imag(c[()] * 2), np.real(c))  # noqa: E731
    check_against_numpy(fn, np.array(1 + 2j), jit=jit)


@pytest.mark.parametrize("op", ["<", "<=", ">", ">=", "==", "!="])
@pytest.mark.parametrize("dtype, jit", dtype_and_executor(
    [np.uint8, np.int8, np.uint32, np.int64, np.uint64], [np.uint8, np.int64]))
def test_comparison_with_a_python_int_out_of_range(op, dtype, jit):
    # NumPy 2 compares by value (uint8_array >= -3 is all True); a cast would wrap -3 to 253.
    x = np.array([0, 1, 5, np.iinfo(dtype).max], dtype=dtype)
    for value in (-3, 300, -200, 2 ** 40, 2 ** 64, 5):
        check_against_numpy(eval(f"lambda a: a {op} {value}"), x, jit=jit)
        check_against_numpy(eval(f"lambda a: {value} {op} a"), x, jit=jit)
    check_against_numpy(lambda a: np.greater_equal(a, -3), x, jit=jit)
    check_against_numpy(eval(f"lambda a: a[0] {op} -3"), x, jit=jit)


@pytest.mark.parametrize("dtype", [bool, np.int8, np.float64])
def test_comparison_with_a_dtype(dtype, jit):
    # dtype=bool names the result: the operands are compared as they are; any other dtype
    # has no comparison loop in NumPy (TypeError).
    check_against_numpy(lambda a: (np.less(a, 3, dtype=dtype), np.greater_equal(a, -3.5,
                                                                               dtype=dtype)),
                        np.array([2, 5, 0], np.uint8), jit=jit)


def _where_of_selections(a, b):
    return np.where(a[a > 0] > 0, b[b > 0], 0.0)


def _store_a_selection(a, b):
    a[a > 0] = b[b > 0]
    return a


@pytest.mark.parametrize("fn", [_where_of_selections, _store_a_selection])
def test_selections_that_do_not_broadcast_raise_valueerror(fn, jit):
    # Sizes known only at run time: TensorFlow's select refuses them as it runs.
    check_against_numpy(fn, np.array([1.0, 2, -1]), np.array([1.0, 2, 3]), jit=jit)
    check_against_numpy(fn, np.array([1.0, 2, -1]), np.array([1.0, -2, 3]), jit=jit)


def _store_max_masked(a, b):
    a[a > 0] = np.max(b)    # through a mask NumPy casts unchecked
    return a


def _store_max_listed(a, b):
    a[[0, 2]] = np.max(b)
    return a


def _store_max_sliced(a, b):
    a[1:] = np.max(b)
    return a


@pytest.mark.parametrize("store", [_store_max, _store_max_masked, _store_max_listed,
                                   _store_max_sliced])
@pytest.mark.parametrize("target", [np.int8, np.uint8, np.int64, np.uint64])
@pytest.mark.parametrize("values", [[-5], [300], [2.5], [np.nan], [-300.0]])
def test_numpy_scalar_stores_check_as_numpy_does(store, target, values, jit):
    # NumPy checks a NumPy scalar stored through a basic index into a signed array (as
    # int() would) and casts it unchecked into an unsigned one or through an index array.
    for dtype in (np.int16, np.int64, np.float64):
        b = np.array(values).astype(dtype) if np.isfinite(values[0]) or dtype == np.float64 \
            else np.array(values)
        with np.errstate(invalid="raise"):
            try:
                store(np.ones(3, target), b)
            except FloatingPointError:
                continue    # NaN into an integer through a cast: C leaves it undefined
            except (OverflowError, ValueError):
                pass        # NumPy refuses it: nptf must too
        check_against_numpy(store, np.ones(3, target), b, jit=jit)


def _store_through_true(a, b):
    a[True] = b[0]
    return a


def _store_through_numpy_true(a, b):
    a[..., np.True_] = b[0]
    return a


def _store_through_false(a, b):
    a[False] = b[0]
    return a


@pytest.mark.parametrize("store", [_store_through_true, _store_through_numpy_true,
                                   _store_through_false])
@pytest.mark.parametrize("values", [[300], [np.nan], [2.5]])
def test_numpy_scalar_stores_through_a_boolean_scalar(store, values, jit):
    # A boolean index is a mask, even a scalar one: NumPy casts the value unchecked.
    check_against_numpy(store, np.zeros(3, np.int8), np.array(values), jit=jit)


def _store_empty_index(a, b):
    a[0] = b[()]            # a 0-d array's b[()] is a NumPy scalar: checked as int() would
    return a


@pytest.mark.parametrize("value", [300, np.nan, 2.5, -5])
def test_the_empty_index_of_a_0d_array_is_a_numpy_scalar(value, jit):
    check_against_numpy(_store_empty_index, np.zeros(3, np.int8), np.array(value), jit=jit)
    check_against_numpy(lambda b: (b[()], b[()] + 1, np.ones(2)[()]), np.array(value), jit=jit)


def _store_huge_ints(a):
    a[0], a[1], a[2] = 2 ** 63, -2 ** 70, 2 ** 64 + 5
    return a


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64])
def test_python_ints_past_int64_stored_into_inexact_arrays(dtype, jit):
    # NumPy converts the int itself (2**63 came out -9.2e18, wrapped through int64).
    with np.errstate(over="ignore"):
        check_against_numpy(_store_huge_ints, np.zeros(3, dtype), jit=jit)
    check_against_numpy(_store_one, np.zeros(2, dtype), 2 ** 63, jit=jit)


def _store_one(a, v):
    a[0] = v
    return a


@pytest.mark.parametrize("store", [
    lambda a, b: a.__setitem__(1, b[0:1]),                  # NumPy 2.4: ValueError
    lambda a, b: a.__setitem__((1,), b[None, 0]),
    lambda a, b: a.__setitem__(b.astype(np.int64)[0], b[1:]),
    lambda a, b: a.__setitem__(1, b[0]),                    # an element: stored
    lambda a, b: a.__setitem__(slice(1, 2), b[0:1]),        # a slice: stored
    lambda a, b: a.__setitem__([1], b[0:1]),                # an index array: stored
], ids=["int", "tuple", "0-d int", "element", "slice", "list"])
def test_a_one_element_array_into_one_element(store, jit):
    def fn(a, b):
        store(a, b)
        return a
    check_against_numpy(fn, np.zeros(3), np.array([1.0, 2.0]), jit=jit)


def test_accumulate_of_a_scalar_raises_as_numpy_does(jit):
    check_against_numpy(lambda x: np.add.accumulate(np.min(x)), np.arange(3), jit=jit)
    check_against_numpy(lambda x: np.multiply.accumulate(x[0]), np.arange(3.0), jit=jit)


@pytest.mark.parametrize("exponent", [1, 2, 3, 4, -1])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_power_of_large_values(exponent, dtype, jit):
    # NumPy multiplies x itself for exponents 1-3 ((1e200+0j) ** 2 is inf+0j; starting
    # from 1 * x gave inf+nanj) and keeps the sign of a zero part.
    big = np.finfo(dtype).max / 10
    x = np.array([big, -big, 3, complex(-1, -0.0), complex(-0.0, 2)], dtype=dtype)
    y = np.array(exponent, dtype=dtype)
    check_against_numpy(lambda a, b: a ** b, x, y, jit=jit)
    with np.errstate(all="ignore"):
        expected = x ** y
    got = nptf.compile(lambda a, b: a ** b, jit_compile=jit)(x, y)
    for part in (np.real, np.imag):
        # Under XLA, x + 0.0 in the reciprocal keeps -0.0 (docs/differences-from-numpy.md).
        if not jit or exponent > 0:
            np.testing.assert_array_equal(np.signbit(part(got)), np.signbit(part(expected)))
    # (1e200+1e200j) ** 2: real part NaN; under XLA an FMA gives -inf. Past 2, the product
    # of (nan+infj) and x is TensorFlow's, which recovers infinities as C99 does.
    if not jit and exponent <= 2:
        both = np.array([big * (1 + 1j)], dtype=dtype)
        np.testing.assert_array_equal(
            nptf.compile(lambda a, b: a ** b, jit_compile=False)(both, y), both ** y)


@pytest.mark.parametrize("exponent", [1, 2, 3, 7, 99, -1, -3, 100, 0.5, 1 + 1j])
def test_complex_power_with_a_whole_exponent(exponent, jit):
    # NumPy multiplies for whole exponents below 100 in size: 3 ** (1+0j) is exactly 3
    # (exp(y log x) gave 3.0000000000000004, so a comparison with 3 came out True).
    x = np.array([3, 1 + 1j, -2 - 0.5j, 0.3 + 0.7j, 2], dtype=np.complex128)
    y = np.full(x.shape, exponent, dtype=np.complex128)
    check_against_numpy(lambda a, b: a ** b, x, y, jit=jit)
    if not jit:     # XLA contracts the products into FMAs: close, not identical
        check_against_numpy(lambda a, b: (a ** b) == a ** np.real(b), x, y, jit=jit)
        np.testing.assert_array_equal(nptf.compile(lambda a, b: a ** b, jit_compile=False)(x, y),
                                      x ** y)


@pytest.mark.parametrize("reduce", [np.max, np.min, np.ptp, np.argmax, np.argmin,
                                    np.minimum.reduce, np.nanmax, np.nanargmin],
                         ids=lambda f: f.__name__)
def test_extremum_of_a_selection_empty_at_run_time(reduce, jit):
    # A mask's selection has its size only at run time; when it is empty NumPy raises
    # (max: "zero-size array to reduction operation maximum", argmax: "attempt to get argmax
    # of an empty sequence") where the graph gave the reduction's fill (int64 min, inf).
    for x in (np.arange(5), np.array([0.5, np.nan, 4.0]), np.arange(2.0)):
        check_against_numpy(lambda a: reduce(a[a > 2]), x, jit=jit)
    rows = np.arange(12.0).reshape(4, 3)
    for limit in (2, 99):
        check_against_numpy(lambda a: reduce(a[a[:, 0] > limit], axis=0), rows, jit=jit)
        check_against_numpy(lambda a: reduce(a[a[:, 0] > limit], axis=1), rows, jit=jit)


def _store_through_mask(a, v):
    a[a > 5] = v
    return a


def _store_through_listed_mask(a, v):
    a[[True, False, True, False]] = v
    return a


def _store_through_row_mask(a, v):
    a[a[:, 0] > 3] = v
    return a


def _store_through_mask_and_ellipsis(a, v):
    a[a > 5, ...] = v
    return a


@pytest.mark.parametrize("store", [_store_through_mask, _store_through_listed_mask,
                                   _store_through_row_mask, _store_through_mask_and_ellipsis])
@pytest.mark.parametrize("shape", [(), (1,), (2,), (6,), (1, 1), (1, 4), (2, 4), (3, 4),
                                   (1, 1, 1)], ids=str)
def test_store_through_a_mask_checks_the_value_as_numpy_does(store, shape, jit):
    # One mask of the array's shape takes a value of at most one dimension (a[a > 5] =
    # np.ones((1, 1)) is a TypeError; the graph stored 1 where a > 5) and of size 1 or the
    # number selected (ValueError); a mask of rows takes what broadcasts to the selection
    # (np.ones((1, 4)) into 2 rows: the graph's scatter failed on 4 values for 8 places).
    a = np.arange(12).reshape(3, 4) if store is not _store_through_listed_mask else np.arange(4.0)
    for target in (a, a * 0):
        check_against_numpy(store, target, np.arange(float(np.prod(shape))).reshape(shape),
                            jit=jit)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_cbrt_within_two_ulps_and_exact_on_cubes(dtype, jit):
    # |x| ** (1/3) missed by the rounding of 1/3: 13 ulps in float32, 101 in float64, a whole
    # ulp in float16 (cbrt(-uint8 4) gave 6.312 for 6.316, and cosh of it 275.8 for 276.8);
    # cbrt(64.0) was 3.9999999999999996 and cbrt(-0.0) 0.0. (NumPy's own float32 cbrt is up
    # to 1.9 ulps from the rounded value.)
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(4000) * 10.0 ** rng.integers(-30, 30, 4000)).astype(dtype)
    x = np.concatenate([x[np.isfinite(x)], np.arange(-20, 21, dtype=dtype) ** 3,
                        np.array([0.0, -0.0, np.inf, -np.inf, np.nan], dtype)])
    got = nptf.compile(np.cbrt, jit_compile=jit, fallback="raise")(x)
    expected = np.cbrt(x)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(np.signbit(got), np.signbit(expected))
    np.testing.assert_array_equal(got[-46:-5], np.arange(-20, 21))
    np.testing.assert_array_equal(got[-5:], expected[-5:])
    finite = np.isfinite(expected) & (expected != 0)
    ulps = np.abs(got[finite] - expected[finite].astype(np.float64)) / np.spacing(
        np.abs(expected[finite])).astype(np.float64)
    assert ulps.max() <= 2
    check_against_numpy(lambda b: np.cosh(np.cbrt(np.negative(b))),
                        np.array([[4, 1, 2]], np.uint8), jit=jit)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_expm1_overflows_as_numpy_does(dtype, jit):
    # NumPy's expm1(x+yj) is expm1(x) cos(y) - 2 sin(y/2)^2 + exp(x) sin(y) j. TensorFlow's
    # kernel gave NaN for the real part where exp(x) overflows (expm1(2386+1732j): NumPy
    # -inf-infj) and, under XLA, 0.0 for expm1(710j)'s real part (NumPy -1.8e-09 in complex64).
    parts = [0.0, -0.0, 1.0, -1.0, 1e-10, 2.5, -30.0, 88.0, 710.0, 2386.0, 1732.0, np.inf,
             -np.inf, np.nan]
    z = np.array([complex(a, b) for a in parts for b in parts], dtype)
    check_against_numpy(np.expm1, z, jit=jit)


@pytest.mark.parametrize("value", [3, -3, 2.5, 0.0], ids=repr)
def test_a_0d_boolean_index_adds_an_axis_of_length_one_or_zero(value, jit):
    """``t[t > 0]`` of a 0-d ``t`` indexes no axis: NumPy adds one, of length 1 or 0."""
    def masked(t, x):
        return t[t > 0], x[t > 0], x[np.True_], t[np.False_]

    check_against_numpy(masked, np.array(value), np.arange(6.0).reshape(2, 3), jit=jit)


def test_np_average_of_an_array_whose_size_is_known_at_run_time(jit):
    """np.average of np.unique's or a mask's result: its count (``returned=True``) is
    counted when the graph runs."""
    def averages(x, m):
        u = np.unique(x)
        rows = m[m[:, 0] > 0]
        return (np.average(u), np.average(u, returned=True), np.average(x[x > 1], returned=True),
                np.average(rows, axis=0, returned=True))

    m = np.array([[1.0, 2.0], [-1.0, 5.0], [3.0, 4.0]])
    check_against_numpy(averages, np.array([1.0, 2.0, 4.0, 2.0]), m, jit=jit)


_PARTS = [0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan]
COMPLEX_SPECIALS = np.array([complex(a, b) for a in _PARTS for b in _PARTS])


@pytest.mark.parametrize("name", ["exp", "exp2", "sin", "cos", "tan", "sinh", "cosh", "tanh",
                                  "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh"])
def test_complex_functions_at_infinities_and_nan_under_jit_compile(name):
    """XLA's complex forms give NaN where NumPy's give infinities or zeros (sin(infj) is
    infj): a forced XLA graph with them runs on the plain executor, which agrees."""
    fn = getattr(np, name)
    with np.errstate(all="ignore"):
        expected = fn(COMPLEX_SPECIALS)
    with pytest.warns(RuntimeWarning, match="differs from NumPy's at infinities"):
        got = nptf.compile(lambda z: fn(z), jit_compile=True, fallback="raise")(COMPLEX_SPECIALS)
    assert got.dtype == expected.dtype
    # Part by part: a complex NaN test would take nan+infj for nan+nanj.
    np.testing.assert_array_equal(got.real, expected.real)
    np.testing.assert_array_equal(got.imag, expected.imag)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
@pytest.mark.parametrize("name", ["log2", "log10", "exp2", "exp", "power", "arctan2", "hypot",
                                  "logaddexp2", "rint", "remainder", "fmod", "floor_divide"])
def test_float16_functions_round_as_numpy_computes_them(name, jit):
    """NumPy computes float16 functions in float32 and rounds: the same float16 numbers,
    but where float32 results a float32 ulp apart round apart (TensorFlow's own float16
    log2 missed by an ulp for 114 of these 255 numbers, XLA's exp2(1.0) gave 1.0)."""
    fn = getattr(np, name)
    x = np.arange(1, 256).astype(np.float16)
    args = (x,) if fn.nin == 1 else (x / 64, np.linspace(-3, 3, 255).astype(np.float16))
    with np.errstate(all="ignore"):
        expected = fn(*args)
    got = nptf.compile(lambda *a: fn(*a), jit_compile=jit, fallback="raise")(*args)
    assert got.dtype == np.float16
    finite = np.isfinite(expected)
    np.testing.assert_array_equal(np.isfinite(got), finite)
    ulps = np.abs(got[finite].astype(np.float32) - expected[finite]) / np.spacing(expected[finite])
    assert ulps.max() <= 1 and np.count_nonzero(ulps) <= 1, ulps


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_complex_sign_and_whole_powers_at_infinities_and_nan(jit):
    """sign(infj) is 1j, as NumPy's; (infj) ** -1 is 1 / (1 * infj) with NumPy's product
    (nan+infj), not 1 / infj."""
    base, exponent = (a.ravel() for a in np.meshgrid(COMPLEX_SPECIALS, [-3, -1, 2, 5, 0.5]))
    for fn, args in ((np.sign, (COMPLEX_SPECIALS,)), (np.power, (base, exponent + 0j))):
        with np.errstate(all="ignore"):
            expected = fn(*args)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)    # power keeps off XLA
            got = nptf.compile(lambda *a: fn(*a), jit_compile=jit, fallback="raise")(*args)
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got.real, expected.real)
        np.testing.assert_array_equal(got.imag, expected.imag)


def index_past_the_end(x, i):
    y = x * 2
    if y.sum() > 100:       # converted code: its reads become nptf's own calls
        y = y + 1
    return y[i]             # the line the error names


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_run_time_index_error_names_the_line_of_the_index(jit):
    import inspect
    lines, first = inspect.getsourcelines(index_past_the_end)
    line = first + next(k for k, text in enumerate(lines) if "y[i]" in text)
    f = nptf.compile(index_past_the_end, jit_compile=jit, fallback="raise")
    with pytest.raises(IndexError) as info:
        f(np.arange(4.0), np.array([1, 7]))
    assert f"{__file__}:{line}" in str(info.value), str(info.value)


def angle_of_a_false_comparison(a, y, x):
    # XLA proves a < a False and folds atan2(0.0, 0.0): it must still be C's 0.0.
    return np.angle(a < a), np.arctan2(0.0, (a < a).astype(float)), np.arctan2(y, x)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_arctan2_of_zeros_keeps_the_signs(jit):
    y, x = (a.ravel() for a in np.meshgrid([0.0, -0.0, 1.0, -np.inf], [0.0, -0.0, -1.0, np.nan]))
    expected = angle_of_a_false_comparison(np.zeros((2, 3), bool), y, x)
    got = nptf.compile(angle_of_a_false_comparison, jit_compile=jit, fallback="raise")(
        np.zeros((2, 3), bool), y, x)
    for e, g in zip(expected, got):
        np.testing.assert_array_equal(g, e)
        np.testing.assert_array_equal(np.signbit(g), np.signbit(e))


def medians(z, x):
    return np.median(z), np.median(z * (1 + 2j)), np.median(x, axis=-1)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_median_of_complex_numbers_with_nan(jit):
    """NumPy's median answers a NaN anywhere with the element that sorts last: a complex
    NaN keeps its other part."""
    nan = np.nan
    for z in ([1 + 2j, 3 + 0j, complex(nan, 1), 2 - 1j], [1 + 2j, complex(1, nan), 0j],
              [1 + 2j, 3 + 1j, 2j]):
        check_against_numpy(medians, np.array(z), np.array([[1.0, nan, 2.0], [3.0, 1.0, 2.0]]),
                            jit=jit)


def complex_nan_reductions(z):
    return (np.nanmax(z), np.nanmin(z), np.nanmax(z, axis=0), np.nanmin(z, axis=1, keepdims=True),
            np.nanargmax(z, axis=1), np.nanargmin(z), np.nanmedian(z, axis=0), np.nanmedian(z))


def complex_nan_extrema(z):
    return np.nanmax(z), np.nanmin(z, axis=0), np.nanmedian(z, axis=1), np.nanargmax(z[1:])


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_nan_reductions_of_complex_numbers_skip_elements_with_a_nan_part(jit):
    """An element with a NaN in either part is NaN for np.nanmax, nanargmax and
    nanmedian; a slice of nothing else gives its first element (nanmax), NaN (nanmedian)
    or ValueError (nanargmax)."""
    nan, inf = np.nan, np.inf
    z = np.array([[complex(nan, 1), 2 + 1j, complex(-inf, -2)],
                  [complex(1, nan), complex(nan, 5), -1j],
                  [3 - 1j, complex(inf, nan), 3 - 2j]])
    check_against_numpy(complex_nan_reductions, z, jit=jit)
    check_against_numpy(complex_nan_reductions, z.astype(np.complex64), jit=jit)
    all_nan = np.where(np.isnan(z), z, complex(nan, 2))
    all_nan[0] = np.array([complex(nan, 7), 1j, complex(2, nan)])
    check_against_numpy(complex_nan_extrema, all_nan, jit=jit)


def complex_running_products(z, keep):
    return np.cumprod(z, axis=-1), np.cumprod(z, axis=0), np.cumprod(z), np.cumprod(z[keep])


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_complex_running_products_start_from_the_first_element(jit):
    """np.cumprod multiplies from the first element, as NumPy's loop: starting from 1,
    1 * (inf+0j) would be inf+nanj and every product after it would differ."""
    nan, inf = np.nan, np.inf
    z = np.array([[complex(inf, 0), 2 + 1j, complex(nan, 0)],
                  [1j, complex(0, -inf), 3 - 1j],
                  [complex(-inf, 1), 1 + 1j, 2j]])
    keep = np.array([[True, False, True], [True, True, False], [False, True, True]])
    check_against_numpy(complex_running_products, z, keep, jit=jit)
    check_against_numpy(complex_running_products, np.array([[1 + 2j, 3j], [2, 1 - 1j]]),
                        np.ones((2, 2), bool), jit=jit)


def reduced_powers(x, e):
    return np.prod(x ** e), np.prod(np.float_power(x * 1.0, e), axis=0), np.sum(x ** e)


def powers(x, e):
    return x ** e, np.float_power(x, e)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_product_of_powers_of_negative_numbers_is_nan(dtype, jit):
    """C's pow of a negative finite base and a non-integer exponent is NaN, and so is a
    product of such powers (under XLA, a product of powers was taken for the power of
    the product)."""
    x = np.array([1.0, -2.6, -0.2, 0.5, -np.inf, -0.0, np.nan, -1.0], dtype)
    for e in (1.68, 2.0, -0.5, np.inf, 0.5):
        check_against_numpy(reduced_powers, x, dtype(e), jit=jit)
        check_against_numpy(reduced_powers, x[:4], dtype(e), jit=jit)
        check_against_numpy(powers, x, dtype(e), jit=jit)
    check_against_numpy(reduced_powers, np.abs(x[:4]), dtype(1.68), jit=jit)


def negated_comparisons(a, b):
    return np.logical_not(a >= b), ~(a < b), np.invert(a <= b), np.logical_not(a > b)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_negated_comparison_with_nan_is_true(jit):
    """not (nan >= x) is True; Grappler rewrote it into nan < x, which is False."""
    a = np.array([np.nan, 1.0, -3.0, 2.0, np.nan])
    b = np.array([-1.6, 2.0, -4.0, np.nan, np.nan], np.float32)
    check_against_numpy(negated_comparisons, a, b, jit=jit)


def divisions_by_constants(x, n):
    return (np.floor(x / 0.1).astype(np.int64), x // 0.1, x % 0.3, np.divmod(x, 0.7), x / 3,
            x / (x.shape[0] - 1), x / n, np.float32(7.0) / np.float32(0.3) * x.astype(np.float32),
            (x[:3] * 0 + [7.0, 0.0, 0.0]).mean(), (x[:3] * 0 + [7.0, 0.0, 0.0]).var(),
            (x[:3] * 0 + [7.0, 0.0, 0.0]).std(ddof=1))


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_division_by_a_constant_is_correctly_rounded(jit):
    """NumPy divides; TensorFlow's constant folding and XLA multiply by the reciprocal, one
    ulp off for most divisors, which moves np.floor(x / 0.1) into the next bin."""
    x = np.linspace(0, 1, 1001)
    expected = divisions_by_constants(x, 3)
    got = nptf.compile(divisions_by_constants, jit_compile=jit, fallback="raise")(x, 3)
    for e, g in zip(expected, got):
        for a, b in (zip(e, g) if isinstance(e, tuple) else [(e, g)]):
            assert np.asarray(a).dtype == np.asarray(b).dtype
            np.testing.assert_array_equal(b, a)


def extremes_of_monotonic_functions(x, a):
    return (np.max(np.sqrt(x)), np.max(np.log(a)), np.fmin(np.max(np.log(a)), a),
            np.min(-np.sqrt(x)), np.max(np.log1p(x), axis=0), np.argmax(np.floor(x)))


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_the_extreme_of_a_monotonic_function_keeps_its_nan(jit):
    """Grappler rewrites max(sqrt(x)) into sqrt(max(x)), which loses the NaN that sqrt
    makes of a negative x; NumPy's max returns it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check_against_numpy(extremes_of_monotonic_functions, np.array([1.2, 1.5, -3.0, 0.5]),
                            np.array([[5], [-5], [0]]), jit=jit)


def complex_products(z, x):
    return z * 1, z * 0.5, (z * 1) * 0.5, z * np.float32(0.5), z * x, 2 * z, z * z


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_complex_products_with_infinities_as_numpys_loop(jit):
    """NumPy multiplies part by part, (ac - bd) + (ad + bc)j: (-inf+0j) * 1 is -inf+nanj.
    TensorFlow's kernel recovers infinities as C99 does and XLA takes z * 1 for z."""
    z = np.array([complex(-np.inf, 0), complex(-np.inf, np.nan), complex(np.inf, 1),
                  complex(0, np.inf), 1 + 2j], np.complex64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = complex_products(z, np.ones(5, np.float32))
        got = nptf.compile(complex_products, jit_compile=jit, fallback="raise")(
            z, np.ones(5, np.float32))
    for e, g in zip(expected, got):
        assert e.dtype == g.dtype
        np.testing.assert_array_equal(g.real, e.real)
        np.testing.assert_array_equal(g.imag, e.imag)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_fmin_and_fmax_of_two_nans_give_the_first(jit):
    """NumPy's fmin/fmax answer x when y is NaN, so x when both are: nan+0j against
    nan+nanj keeps the real NaN's zero imaginary part."""
    nan = np.nan
    x = np.array([complex(nan, 0), complex(1, nan), 2 + 1j, complex(nan, 3)])
    y = np.array([complex(nan, nan), complex(nan, 2), complex(nan, 0), 1 + 1j])

    def extremes(x, y):
        return np.fmin(x, y), np.fmax(x, y), np.fmin(y, x), np.fmax(x.real, y.imag)
    expected = extremes(x, y)
    got = nptf.compile(extremes, jit_compile=jit, fallback="raise")(x, y)
    for e, g in zip(expected, got):
        np.testing.assert_array_equal(np.real(g), np.real(e))
        np.testing.assert_array_equal(np.imag(g), np.imag(e))


def copies_with_leading_unit_axes(a, b):
    np.copyto(a, np.maximum(b, np.float32(2.5))[None])
    a[1:] = b[None, None] * 2
    return a


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_copyto_drops_the_sources_leading_unit_axes(jit):
    """np.copyto, like assignment, takes a source with more dimensions when the extra
    leading ones have size 1 (random program 171454)."""
    check_against_numpy(copies_with_leading_unit_axes, np.zeros(5), np.array([3], np.uint8),
                        jit=jit)


def scaled_by_powers_of_two(x, e):
    return np.ldexp(x, e)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_ldexp_of_any_exponent(jit):
    """Exponents far past the float range (a wrapped unsigned difference, an int64) give
    0 or infinity as in NumPy, and zeros, infinities and NaN keep their value."""
    x = np.array([0.0, 1e-300, 1e308, 1.0, -0.0, 3.0, np.inf, np.nan])
    for e in ([3000, 2000, -3000, 1030, 5000, -1070, -9000, 4],
              np.array([2, 0, 1, 5, 1, 0, 2, 1], np.uint32) - np.uint32(2)):
        check_against_numpy(scaled_by_powers_of_two, x, np.array(e), jit=jit)
        check_against_numpy(scaled_by_powers_of_two, x.astype(np.float32), np.array(e), jit=jit)
    check_against_numpy(scaled_by_powers_of_two, np.array([1.0, 2.0, 0.5, 0.0], np.float16),
                        np.array([-25, 16, 3, 100], np.int8), jit=jit)


def complex_square_roots(z):
    return np.sqrt(z), np.sqrt(z) > 0


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_complex_sqrt_as_c99(dtype, jit):
    """The real part of the root of a negative real is 0 exactly (a comparison of it
    with 0 depends on that), zero imaginary parts keep their sign, and infinities and
    NaN give C99's ``csqrt`` values."""
    v = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e30, -1e30, 3.5, -4.0, -2.5e-7]
    z = np.array([complex(a, b) for a in v for b in v], dtype)
    check_against_numpy(complex_square_roots, z, jit=jit)


KEEPDIMS_FUNCTIONS = {
    "sum": np.sum, "max": np.max, "ptp": np.ptp, "count_nonzero": np.count_nonzero,
    "nanmax": np.nanmax, "mean": np.mean, "std": np.std, "average": np.average,
    "median": np.median, "nanmedian": np.nanmedian, "argmax": np.argmax,
    "quantile": lambda x, **k: np.quantile(x, 0.3, **k),
    "percentile": lambda x, **k: np.percentile(x, [30, 60], **k),
    "nanquantile": lambda x, **k: np.nanquantile(x, 0.3, **k),
}


@pytest.mark.parametrize("name", list(KEEPDIMS_FUNCTIONS))
def test_keepdims_of_a_0d_array(name, jit):
    # NumPy gives a 0-d array for some (np.median, np.quantile), a NumPy scalar for others
    # (np.mean, np.sum).
    fn = KEEPDIMS_FUNCTIONS[name]
    for kw in ({"keepdims": True}, {"axis": None, "keepdims": True}, {}):
        check_against_numpy(lambda x: fn(x, **kw), np.array(2.5), jit=jit)
        check_against_numpy(lambda x: fn(x, **kw), np.array(3, np.uint32), jit=jit)


def signed_against_unsigned(a, b):
    return a < b, a <= b, a > b, a >= b, a == b, a != b, b < a, b == a


@pytest.mark.parametrize("dtype", [np.int64, np.int8])
def test_comparisons_of_signed_and_uint64_by_value(dtype, jit):
    """NumPy compares int64 (or a narrower signed int) with uint64 by value: -1 is less
    than every uint64 and equal to none; TensorFlow has no such kernel."""
    a = np.array([-1, 0, 5, 100, -128], dtype)
    b = np.array([2**64 - 1, 0, 5, 100, 3], np.uint64)
    check_against_numpy(signed_against_unsigned, a, b, jit=jit)


_Z = np.array([[1 + 2j, 3 - 1j, 3 + 0j, -1j], [np.nan + 1j, 2 + 2j, 2 + 5j, 0j],
               [1j, 1j, -0.0 + 1j, 1 + np.nan * 1j]])
COMPLEX_EXTREMA = {
    "max": lambda z: np.max(z), "min": lambda z: np.min(z), "max axis 0": lambda z: np.max(z, axis=0),
    "min keepdims": lambda z: np.min(z, axis=1, keepdims=True),
    "max of axes": lambda z: z.max(axis=(0, 1)), "argmax": lambda z: np.argmax(z),
    "argmin axis 0": lambda z: np.argmin(z, axis=0),
    "argmax keepdims": lambda z: np.argmax(z, axis=1, keepdims=True),
    "ptp": lambda z: np.ptp(z, axis=1), "max without NaN": lambda z: np.max(z[:1]),
    "argmin without NaN": lambda z: np.argmin(z[:1], axis=1),
    "complex64": lambda z: np.max(z.astype(np.complex64), axis=1),
    "empty": lambda z: np.max(z[:0]),                                   # ValueError
}


@pytest.mark.parametrize("name", list(COMPLEX_EXTREMA))
def test_extrema_of_complex_arrays(name, jit):
    """NumPy orders complex numbers by real part, then imaginary part; the first of equal
    ones and the first NaN win."""
    check_against_numpy(COMPLEX_EXTREMA[name], _Z, jit=jit)


def ratio_to_itself(z):
    q = z / z
    return q, np.argmin(q), np.argmax(q)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_division_rounds_as_numpy(dtype):
    """Smith's method, as NumPy's loop computes it, rounding for rounding on the plain
    executor: ``z / z`` has NumPy's exact parts, so argmin among its equal values picks
    NumPy's element. (Under XLA, products and sums fuse into FMAs: results agree to
    rounding only, docs/differences-from-numpy.md.)"""
    rng = np.random.default_rng(7)
    z = (rng.normal(size=12) + 1j * rng.normal(size=12)).astype(dtype)
    check_against_numpy(ratio_to_itself, z, jit=False)


@pytest.mark.parametrize("axis", [0, -1, None, 1], ids=["0", "-1", "None", "1"])
def test_extrema_of_a_0d_complex_array(axis, jit):
    """NumPy's reduce reads axis 0 or -1 of a 0-d array as no axis (1 is AxisError)."""
    for fn in (lambda z: np.min(z, axis=axis), lambda z: np.max(z, axis=axis, keepdims=True)):
        check_against_numpy(fn, np.array(1.5 - 2j), jit=jit)


def moving_average(x):
    return np.convolve(x, np.ones(10) / 10, "valid")


def largest_constant_and_ops(fn, *args):
    """The size of the largest constant the graph of ``fn`` reads, and the ops it has."""
    from nptf.graph_ir.ir import Literal
    from nptf.graph_ir.walk import all_eqns
    eqns = list(all_eqns(nptf.compile(fn, fallback="raise", adaptive=False).trace(*args)))
    largest = max((np.size(a.value) for e in eqns for a in e.inputs if isinstance(a, Literal)),
                  default=0)
    return largest, {e.op.name for e in eqns}


def test_a_short_kernel_builds_no_table_of_windows():
    """np.convolve / np.correlate with a short kernel is a sum of shifted copies of the
    data: it built a take of every window (a [n + 9, 10] int64 constant for 1e6 floats,
    whose compile took seconds)."""
    x = np.random.default_rng(0).random(100_000)
    largest, _ = largest_constant_and_ops(moving_average, x)
    assert largest <= 10
    check_against_numpy(moving_average, x)


def correlations(a, v):
    return (np.convolve(a, v), np.convolve(a, v, "same"), np.convolve(a, v, "valid"),
            np.correlate(a, v), np.correlate(a, v, "full"), np.correlate(a, v, "same"))


def _operands(dtype, n, k, rng):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(n) > 0.7, rng.random(k) > 0.8
    if dtype.kind in "iu":
        return (rng.integers(0, 100, n).astype(dtype), rng.integers(0, 100, k).astype(dtype))
    if dtype.kind == "c":
        return tuple((rng.standard_normal(m) + 1j * rng.standard_normal(m)).astype(dtype)
                     for m in (n, k))
    return rng.random(n).astype(dtype), rng.standard_normal(k).astype(dtype)


@pytest.mark.parametrize("dtype, jit", dtype_and_executor(
    [np.float64, np.float32, np.complex128, np.int64, np.int8, np.uint16, np.bool_],
    [np.float32, np.complex128, np.int8]))
def test_a_long_kernel_multiplies_blocks_of_the_data(dtype, jit):
    """np.convolve / np.correlate with a kernel of more than 64 weights: blocks of the data
    times Toeplitz matrices of the kernel, in every mode and operand order, with NumPy's
    result dtype. It gathered every window (a [n + k - 1, k] int64 constant: 57 s to
    compile for 1e6 floats and k = 65)."""
    rng = np.random.default_rng(1)
    # every dtype at the shortest kernel and one of several blocks; float64 at all sizes
    sizes = [(65, 65), (700, 257)] + ([(100, 65), (1200, 513)] if dtype == np.float64 else [])
    for n, k in sizes:
        a, v = _operands(dtype, n, k, rng)
        check_against_numpy(correlations, a, v, jit=jit, adaptive=False)
        check_against_numpy(correlations, v, a, jit=jit, adaptive=False)
    a, v = _operands(dtype, 100_000, 200, rng)
    largest, ops = largest_constant_and_ops(correlations, a, v)
    assert largest < 200 and "take" not in ops, (largest, ops)


def test_a_long_integer_kernel_sums_exactly(jit):
    """Integer correlations stay in their integer dtype, wrapping as NumPy's do: a float
    product would round values past 2**53."""
    rng = np.random.default_rng(2)
    big = rng.integers(2 ** 60, 2 ** 62, 500)
    check_against_numpy(correlations, big, rng.integers(-3, 4, 100), jit=jit, adaptive=False)
    check_against_numpy(correlations, big, rng.integers(-2 ** 40, 2 ** 40, 100), jit=jit,
                        adaptive=False)


def rolls(x):
    return (np.roll(x, 3), np.roll(x, -7, axis=0), np.roll(x, 10 ** 12 + 1), np.roll(x, 2.7),
            np.roll(x, (1, 2), axis=(0, 0)), np.fft.fftshift(x), np.fft.ifftshift(x))


def rolls_2d(m):
    return (np.roll(m, 5), np.roll(m, (1, -2), axis=(0, 1)), np.roll(m, 3, axis=-1),
            np.roll(m, (1, 1), axis=(1, 1)), np.fft.fftshift(m), np.fft.ifftshift(m, axes=1))


def rolls_by(x, k):
    return np.roll(x, k), np.roll(x, -k, axis=0)


@pytest.mark.parametrize("dtype", [np.float64, np.int16, np.bool_, np.complex64])
def test_roll_concatenates_two_slices(dtype, jit):
    """np.roll and np.fft.fftshift / ifftshift copy the two parts of each rolled axis (a
    shift known only when the graph runs picks the window of the array twice over): they
    gathered through a table of positions as large as the array, 30x NumPy's time."""
    for n in (1, 2, 7, 100):
        x = (np.arange(n) % 5).astype(dtype)
        check_against_numpy(rolls, x, jit=jit, adaptive=False)
        # every kind of shift on one length, a shift past the length on the others
        shifts = (0, 3, -11, np.int8(-5), np.uint64(2 ** 64 - 1), 2.5, -2.5, np.nan, True) \
            if n == 7 else (3, -11)
        for k in shifts:
            check_against_numpy(rolls_by, x, k, jit=jit, adaptive=False)
    for shape in ((3, 4), (2, 0), (5, 1)):
        check_against_numpy(rolls_2d, np.arange(np.prod(shape)).reshape(shape).astype(dtype),
                            jit=jit, adaptive=False)
    x = np.arange(10_000).astype(dtype)
    for fn, args in ((rolls, (x,)), (rolls_2d, (x.reshape(100, 100),)), (rolls_by, (x, 3))):
        largest, ops = largest_constant_and_ops(fn, *args)
        assert largest < 100 and "take" not in ops, (fn.__name__, largest, ops)


PAD_WIDTHS = (0, 1, 3, (0, 4), (5, 2), 6, 9, 15, 40)


def pads(mode):
    def pad(x):
        return tuple(np.pad(x, w, mode=mode) for w in PAD_WIDTHS)
    return pad


def pads_nd(mode):
    def pad(x):
        return (np.pad(x, 2, mode=mode), np.pad(x, ((1, 2), (3, 0)), mode=mode),
                np.pad(x, ((7, 1), (0, 11)), mode=mode))
    return pad


@pytest.mark.parametrize("mode", ["reflect", "symmetric", "wrap", "edge"])
def test_pad_copies_slices_of_the_array(mode, jit):
    """np.pad's copying modes concatenate slices, reversed slices and broadcasts of the
    array, NumPy's pad of the positions saying which; widths many times the axis's length
    (where NumPy reflects or wraps again and again) gather through those positions. Each
    padded axis gathered through a table as large as the result, 20-40x NumPy's time."""
    for n, dtype in ((1, np.bool_), (2, np.int8), (5, np.complex128), (8, np.float64),
                     (13, np.uint32)):
        check_against_numpy(pads(mode), (np.arange(n) * 3 % 7).astype(dtype), jit=jit,
                            adaptive=False)
    for shape in ((3, 4), (4, 1), (2, 3, 4)):
        x = (np.arange(np.prod(shape)) ** 2).reshape(shape).astype(np.float32)
        check_against_numpy(pads_nd(mode) if x.ndim == 2 else pads(mode), x, jit=jit,
                            adaptive=False)
    largest, ops = largest_constant_and_ops(lambda x: np.pad(x, (5, 3), mode=mode),
                                            np.arange(10_000.0))
    assert largest < 100 and "take" not in ops, (largest, ops)


def power_of_exp(x, b):
    return np.power(np.exp(x), b), np.float_power(np.exp(x), b)


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_a_zero_exponent_gives_one_whatever_the_base(jit, dtype):
    """XLA rewrites pow(exp(a), b) into exp(a * b): NaN for a = inf or NaN and b = 0,
    where NumPy's (C's) pow gives 1."""
    x = np.array([np.nan, np.inf, -np.inf, 0.0, 1.0, -2.0])
    b = np.array([0, 0, 0, 0, 2, 3], dtype)
    with np.errstate(all="ignore"):
        check_against_numpy(power_of_exp, x, b, jit=jit)


def products_of_exps(x, y):
    return (np.exp(x) * np.exp(-x), np.exp(x) / np.exp(x), np.exp(x) * np.exp(y),
            np.exp(x) * (np.exp(-x) * 1.0))


def test_products_of_exps_overflow_as_numpys(jit):
    """XLA rewrites exp(a) * exp(b) into exp(a + b): 1 where NumPy's inf * 0 is NaN."""
    x = np.array([1000.0, -1000.0, 1.0, np.inf, np.nan, 0.0])
    y = np.array([-1000.0, 1000.0, 2.0, -np.inf, 0.0, 0.0])
    with np.errstate(all="ignore"):
        check_against_numpy(products_of_exps, x, y, jit=jit)


def _store_selection_into_mask(a, b):
    a = a.copy()
    a[a > 0] = b[b > 0]
    return a


@pytest.mark.parametrize("a, b", [([1.0, 2, -1], [1.0, 2, -3]), ([1.0, 2, -1], [-1.0, 5, -3]),
                                  ([-1.0, -2], [-1.0, -3]), ([1.0, 2, 3], [4.0, 5, 6]),
                                  ([1.0, 2, -1], [1.0, 2, 3]), ([1.0, 2, -1], [-1.0, -2, -3])])
def test_a_selection_stored_into_a_mask_fits_as_numpy_says(a, b, jit):
    """Both sizes known only at run time: equal sizes store, one value broadcasts, other
    sizes raise NumPy's ValueError (checked by nptf, not left to a kernel)."""
    check_against_numpy(_store_selection_into_mask, np.array(a), np.array(b), jit=jit)


def _short_pieces_around_a_long_one(x):
    return (np.pad(x, 5, mode="reflect"), np.pad(x, (2, 7), mode="edge"), np.roll(x, 3),
            x[5:0:-1], np.concatenate([x[:3], x, -x[:1]]), np.concatenate([x, x * 2]))


def test_short_pieces_around_a_long_array_under_xla_match_numpy():
    """XLA's concatenation of short pieces with a long one is chosen by position (two long
    ones stay a concatenation): NumPy's values, -0.0 kept."""
    x = np.linspace(-1.0, 1.0, 40_001)
    x[7], x[-3] = -0.0, np.nan
    f = nptf.compile(_short_pieces_around_a_long_one, fallback="raise", adaptive=False,
                     jit_compile=True)
    for got, expected in zip(f(x), _short_pieces_around_a_long_one(x)):
        assert got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)
        assert (np.signbit(got) == np.signbit(expected)).all()


def clip_of_a_numpy_scalar_into_0d_out(a):
    o = np.zeros(())
    s = np.clip(a[0] * 2.0, -1.0, 2.0, out=o)     # a NumPy scalar: its method's result
    o[...] = 5.0                                  # the scalar stays what it was
    return s, o, np.clip(a[0] * 1.0, 0.0, 1.0, out=np.zeros(1)), np.clip(a, 0, 1, out=np.zeros(3))


def test_clip_of_a_numpy_scalar_into_a_0d_out_gives_a_scalar(jit):
    """NumPy calls a scalar's own clip, which hands a 0-d ``out`` back as a NumPy scalar;
    nptf gave the 0-d array (found by the expression generator, seed 420763)."""
    from harness import check_against_numpy
    got = check_against_numpy(clip_of_a_numpy_scalar_into_0d_out, np.array([0.7, -2.0, 3.0]),
                              jit=jit)
    assert type(got[0]) is np.float64 and isinstance(got[1], np.ndarray)


def _expanded_positions(lines, factor):
    sky = np.array([[ch == "#" for ch in line] for line in lines])
    return np.cumsum(np.where(~sky.any(axis=1), factor, 1)) - 1, \
        np.where(sky.any(axis=0), 0.5, factor) * 2


@pytest.mark.parametrize("factor", [2, 1000000, 2.5])
def test_where_of_python_numbers_on_a_condition_known_when_tracing(factor):
    # The condition is made of constants, so the choice between two Python numbers is
    # known while tracing: an array of NumPy's dtype, not a Python number.
    check_against_numpy(_expanded_positions, ["#..", "...", ".#."], factor)


def _neighbour_counts(grid, dims=2):
    offsets = [o for o in np.ndindex(*(3,) * dims) if o != (1,) * dims]
    n = np.zeros(grid.shape, dtype=np.int8)
    for o in offsets:
        n += np.roll(grid, tuple(np.array(o) - 1), axis=tuple(range(dims)))
    return n


def _rolled_by_array(x, s):
    return np.roll(x, s, axis=(0, 1)), np.roll(x, (s[0], 2), axis=(1, 0)), \
        np.roll(x, s[1], axis=(0, 1))


@pytest.mark.parametrize("jit", [False, True])
def test_roll_by_traced_shifts_of_several_axes(jit):
    grid = np.random.default_rng(5).random((6, 7)) > 0.6
    check_against_numpy(_neighbour_counts, grid, jit=jit)
    check_against_numpy(_neighbour_counts, grid.reshape(2, 3, 7), 3, jit=jit)
    check_against_numpy(_rolled_by_array, np.arange(20.0).reshape(4, 5), np.array([-3, 7]),
                        jit=jit)


def _lanternfish(ages, days):
    counts = np.bincount(np.array(ages.split(","), dtype=int), minlength=9).astype(np.int64)
    for _ in range(days):
        counts = np.roll(counts, -1)
        counts[6] += counts[8]
    return int(counts.sum()), counts


def test_bincount_of_ids_known_while_tracing_has_a_known_length():
    # The ids come from a string argument (static): their counts have nine bins when
    # tracing, so the writes into them are writes into an array of a known size.
    check_against_numpy(_lanternfish, "3,4,3,1,2", 80)
