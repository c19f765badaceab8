"""Python operators on Python numbers in compiled code: Python's values and types.

A Python float or complex argument is traced as a weak scalar, and Python
operators on weak values give weak values (Python numbers) again. Every such
operation has to lower to TensorFlow and come back with the value and type
the plain function gives.
"""
from __future__ import annotations

import math
import operator
import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy

BINARY = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
          "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "divmod": divmod,
          "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
          ">": operator.gt, ">=": operator.ge}
UNARY = {"-x": operator.neg, "+x": operator.pos, "abs": abs}
INTEGER = {"&": operator.and_, "|": operator.or_, "^": operator.xor, "<<": operator.lshift,
           ">>": operator.rshift}
REAL_ONLY = {"//", "%", "divmod", "<", "<=", ">", ">="}


def _pairs():
    for op in BINARY:
        yield op, 1.5, 0.75
        yield op, 1.5, 2           # a Python int literal beside a traced float
        if op not in REAL_ONLY:
            yield op, 1.5 - 2j, 0.75
            yield op, 0.5, 2 + 1j


@pytest.mark.parametrize("op, a, b", list(_pairs()))
def test_binary_operators_on_python_numbers(op, a, b, jit):
    fn = BINARY[op]
    if isinstance(b, int):      # a literal: Python ints are static arguments
        got = check_against_numpy(lambda x: (fn(x, b), fn(b, x)), a, jit=jit)
    else:
        got = check_against_numpy(lambda x, y: (fn(x, y), fn(y, x)), a, b, jit=jit)
    assert [type(g) for g in got] == [type(fn(a, b)), type(fn(b, a))]


@pytest.mark.parametrize("op", list(UNARY))
@pytest.mark.parametrize("a", [-1.5, 2 - 3j])
def test_unary_operators_on_python_numbers(op, a, jit):
    fn = UNARY[op]
    assert type(check_against_numpy(lambda x: fn(x * 2), a, jit=jit)) is type(fn(a))


@pytest.mark.parametrize("op", list(INTEGER) + ["~"])
def test_integer_operators_on_python_ints_computed_from_python_floats(op, jit):
    # (x < y) + 5 is a Python int computed in the graph from traced Python floats.
    if op == "~":
        fn = lambda x, y: ~((x < y) + 5)  # noqa: E731
    else:
        fn = lambda x, y: INTEGER[op]((x < y) + 5, (y < x) + 1)  # noqa: E731
    for args in [(1.5, 2.5), (2.5, 1.5)]:
        assert type(check_against_numpy(fn, *args, jit=jit)) is int


def test_python_results_of_numpy_functions_and_not(jit):
    def fn(x, y, a):
        return (not (x < y), np.array_equal(a, a * x), np.linalg.matrix_rank(a[0] * y) + 0,
                x / y * 2.0)
    got = check_against_numpy(fn, 1.5, 0.5, np.eye(3), jit=jit)
    assert [type(g) for g in got] == [bool, bool, int, float]


def test_complex_of_traced_numbers(jit):
    """``complex(re, im)`` of NumPy scalars (a pure-Python Mandelbrot's inner loop): a
    Python complex, with CPython's parts for complex arguments and signed zeros."""
    def parts(r, i, z):
        return (complex(r, i), complex(r), complex(imag=r), complex(z), complex(z, r),
                complex(r, z), complex(r, -0.0), complex(r, i) * 2, abs(complex(r, i)),
                complex(r * np.inf, i), complex(True))

    got = check_against_numpy(parts, np.float64(1.5), np.float32(-2.0), np.complex128(1 + 2j),
                              jit=jit)
    assert all(type(g) is complex for g in got[:8])

    def escape_times(r1, r2):
        def escape(c):
            z = c
            for n in range(20):
                if abs(z) > 2:
                    return n
                z = z * z + c
            return 20
        return [escape(complex(r, i)) for r in r1 for i in r2]

    check_against_numpy(escape_times, np.linspace(-2, 0.5, 4), np.linspace(-1.2, 1.2, 3),
                        jit=jit)


# ------------------------------------------- where Python and NumPy differ
@pytest.mark.parametrize("a, b", [(1.5, 2.5), (2.5, 1.5)])
def test_bools_are_ints_in_python_arithmetic(a, b, jit):
    # x < y is a Python bool; Python computes True + True as 2 and ~True as -2 (NumPy:
    # True and False) and takes -True as -1 (NumPy refuses bool negative).
    def fn(x, y):
        t, f = x < y, y < x
        return (t + t, t - f, t * f, -t, +t, abs(t), ~t, t ** 2, t << 3, t // 1, t % 2,
                t / (t + f), t & f, t | True, t.real, t.imag, t.conjugate(), np.real(t),
                x + True, x * False, x == True, True - t)  # noqa: E712
    got = check_against_numpy(fn, a, b, jit=jit)
    assert [type(g) for g in got] == [type(e) for e in fn(a, b)]


def test_python_refuses_complex_ordering_when_tracing():
    f = nptf.compile(lambda x, z: x < z, fallback="raise")
    with pytest.raises(TypeError, match="'<' not supported between instances of 'float' and "
                                        "'complex'") as info:
        f(1.5, 2j)
    assert f"{__file__}:" in str(info.value)
    with pytest.raises(TypeError, match="unsupported operand type"):
        nptf.compile(lambda z: z // 2.0, fallback="raise")(1 + 2j)


@pytest.mark.parametrize("op", ["/", "//", "%", "divmod"])
@pytest.mark.parametrize("a, b", [(1.5, 0.0), (1.5, -0.0), (1 + 2j, 0.0), (1.5, 0j)])
def test_division_of_python_numbers_by_zero_raises_pythons_error(op, a, b, jit):
    fn = BINARY[op]
    if op != "/" and (isinstance(a, complex) or isinstance(b, complex)):
        return      # Python refuses complex //, % and divmod by type: tested above
    with pytest.raises(ZeroDivisionError) as python:
        fn(a, b)
    f = nptf.compile(lambda x, y: fn(x, y), jit_compile=jit, fallback="raise")
    with pytest.raises(ZeroDivisionError) as info:
        f(a, b)
    assert str(python.value) in str(info.value) and f"{__file__}:" in str(info.value)
    assert f(a, 2.0) == fn(a, 2.0)


def test_division_of_python_ints_by_zero(jit):
    fn = lambda x, y: ((x < y) + 1) // (y < x)  # noqa: E731
    f = nptf.compile(fn, jit_compile=jit, fallback="raise")
    with pytest.raises(ZeroDivisionError, match="integer division or modulo by zero"):
        f(1.5, 2.5)
    assert f(2.5, 1.5) == 1
    with pytest.raises(ZeroDivisionError, match="float division by zero"):
        nptf.compile(lambda x: x / 0, jit_compile=jit, fallback="raise")(1.5)


def test_negative_shift_count_raises_pythons_error(jit):
    fn = lambda x, y: 8 << (x < y) - 1  # noqa: E731
    f = nptf.compile(fn, jit_compile=jit, fallback="raise")
    with pytest.raises(ValueError, match="negative shift count"):
        f(2.5, 1.5)
    assert f(1.5, 2.5) == fn(1.5, 2.5)


@pytest.mark.parametrize("a, b, error", [(0.0, -1.0, ZeroDivisionError),
                                         (0.0, -2, ZeroDivisionError),
                                         (10.0, 400.0, OverflowError),
                                         (0j, -1.0, ZeroDivisionError)])
def test_python_power_errors(a, b, error, jit):
    with pytest.raises(error) as python:
        a ** b
    f = nptf.compile(lambda x: x ** b, jit_compile=jit, fallback="raise")
    with pytest.raises(error) as info:
        f(a)
    assert str(python.value) in str(info.value)
    assert f(1.0) == 1.0 ** b


@pytest.mark.parametrize("fn, args", [
    (lambda x, y: x ** y, (-2.0, 0.5)),                       # complex in Python
    (lambda x, y: ((x < y) + 1) ** -((y < x) + 1), (1.5, 0.5)),   # 2 ** -2: a float
    (lambda x, y: ((x < y) + 2 ** 62) * 4, (1.5, 2.5)),       # past int64
    (lambda x, y: -((y < x) - 2 ** 62 - 2 ** 62), (1.5, 2.5)),    # -(-2**63): past int64
    (lambda x, z: (z * x) ** 2.5, (1e200, 1 + 1j)),           # Python: OverflowError
])
def test_what_python_returns_and_the_graph_cannot_falls_back(fn, args, jit):
    f = nptf.compile(fn, jit_compile=jit, fallback="raise")
    with pytest.raises(nptf.OutsideTheGraphError, match="Fix: ") as info:
        f(*args)
    assert f"{__file__}:" in str(info.value)
    try:
        want = fn(*args)
    except OverflowError:
        with pytest.warns(RuntimeWarning, match="runs with NumPy"), \
                pytest.raises(OverflowError):
            nptf.compile(fn, jit_compile=jit)(*args)
        return
    with pytest.warns(RuntimeWarning, match="runs with NumPy"):
        got = nptf.compile(fn, jit_compile=jit)(*args)
    assert type(got) is type(want) and got == want


def test_python_int_to_a_constant_negative_power_is_a_float(jit):
    fn = lambda x, y: (((x < y) + 1) ** -2, ((y < x) + 3) ** -1)  # noqa: E731
    got = check_against_numpy(fn, 1.5, 2.5, jit=jit)
    assert [type(g) for g in got] == [float, float]


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "float16", "float32", "complex64"])
@pytest.mark.parametrize("pair", [(0.5, -1.5), (1, 2), (True, False), (1.5, 2)],
                         ids=["floats", "ints", "bools", "mixed"])
def test_np_where_of_two_python_numbers_is_an_array_in_later_promotion(dtype, pair, jit):
    """np.where(c, 0.5, -1.5) is a float64 array: later arithmetic with a narrow array
    promotes to float64, as with any array (not as with a Python number)."""
    x, y = pair

    def chosen_minus(cond, other):
        return np.where(cond > 0, x, y) - other, np.where(cond[0] > 0, x, y) * other

    cond = np.array([1.0, -1.0, 2.0])
    other = np.array([3, 4, 5]).astype(dtype)
    check_against_numpy(chosen_minus, cond, other, jit=jit)


_EXPONENTS = [2, 3, 0, -1, -2, 0.5, -0.5, 2.0, 1e300, float("inf"), float("-inf"),
              float("nan"), True]


@pytest.mark.parametrize("exponent", _EXPONENTS, ids=repr)
def test_python_floats_to_powers_written_as_numbers(exponent):
    """x ** 2, dt ** 0.5: an exponent written as a number decides most of Python's checks
    when tracing; the values and errors stay Python's for every base."""
    def power(x):
        return x ** exponent

    f = nptf.compile(power)
    for base in (2.0, 0.0, -0.0, -8.0, 1e200, -1e200, 0.5, float("inf"), float("-inf"),
                 float("nan")):
        try:
            want = power(base)
        except (ZeroDivisionError, OverflowError) as e:
            with pytest.raises(type(e)):
                f(base)
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)     # complex: runs with NumPy
            got = f(base)
        assert type(got) is type(want), (base, got, want)
        assert got == want or (got != got and want != want) or \
            abs(got - want) <= 1e-15 * abs(want), (base, got, want)


@pytest.mark.parametrize("exponent, checks", [(2, 1), (0.5, 2), (-1, 2), (-0.5, 3),
                                              (float("nan"), 0)], ids=repr)
def test_a_power_written_as_a_number_checks_only_what_it_can_raise(exponent, checks):
    """x ** 2 can only overflow; x ** 0.5 also be complex; x ** -1 divide by zero."""
    from nptf.graph_ir.ops_control import count_checks
    f = nptf.compile(lambda x: x ** exponent)
    assert count_checks(f.trace(1.5, stage="traced")) == checks


def scaled_by_item(x, i):
    total = x.sum().item()
    k = i.max().item()
    flag = (x > 0).any().item()
    z = (x[0] + 1j).item()
    if total > 0 and flag:
        return x[k] / total + z.real, x.item(k) * 2, x.reshape(2, 2).item(1, 0)
    return (x * k).sum() + z.imag, x.item(-1), 2 * total


def weak_item(x):
    return np.float32(2) * x.sum().item() * x


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_item_is_a_traced_python_number(jit):
    """``x.item()`` is the element as a Python number: weak in promotion (a float32
    times it stays float32), a condition, an index, and ``x.item(i)`` picks first."""
    for x in ([0.5, -1.0, 2.0, 0.25], [-0.5, -1.0, -2.0, -0.25]):
        check_against_numpy(scaled_by_item, np.array(x, np.float32), np.array([1, 3]), jit=jit)
    check_against_numpy(scaled_by_item, np.array([0.5, -1.0, 2.0, 0.25]), np.array([1, 7]),
                        jit=jit)   # IndexError
    check_against_numpy(weak_item, np.ones(3, np.float32), jit=jit)
    check_against_numpy(lambda x: x.item(), np.ones(3), jit=jit)   # ValueError: not one element


def _round_sum(x):
    return round(x.sum())


def _round_sum_1(x):
    return round(x.sum(), 1)


def _round_python_number(x):
    return round(x.sum().item(), 1) if x.dtype.kind != "c" else round(x.sum().item())


@pytest.mark.parametrize("fn", [_round_sum, _round_sum_1, _round_python_number])
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float16", "float32",
                                   "float64", "complex64", "complex128"])
def test_round_of_a_scalar_as_python_gives_it(fn, dtype):
    """round() of a NumPy scalar or Python number: Python's value and type, or its error
    (a complex number has no round)."""
    x = np.arange(1, 4).astype(dtype) * (1.26 if dtype[0] in "fc" else 1)
    try:
        expected, error = fn(x), None
    except TypeError as e:
        expected, error = None, e
    f = nptf.compile(fn, fallback="raise", adaptive=False)
    if error is not None:
        with pytest.raises(TypeError, match="doesn't define __round__"):
            f(x)
        return
    try:
        got = f(x)
    except nptf.UnsupportedError:       # refused (a Python float to decimals): said so
        return
    assert type(got) is type(expected) and got == expected


@pytest.mark.parametrize("op", ["+", "-", "*", "/", "**"])
def test_a_python_complex_takes_a_numpy_float64_as_its_own_float(op, jit):
    """np.float64 is a subclass of float, so Python's complex operators take it first:
    ``(1+2j) * np.float64(2)`` is a Python complex, not NumPy's complex128; other NumPy
    scalars (float32), and np.float64 on the left, stay NumPy's."""
    fn = BINARY[op]

    def f(x, c):
        s = x.sum()
        return (fn((1 + 2j) * 0.5, s), fn(c, s), fn(c, np.float64(2.0)), fn(s, 1 + 2j),
                fn(c, x.astype(np.float32).sum()))
    x = np.arange(3.0) / 2
    expected = f(x, 1.5 - 0.5j)
    got = nptf.compile(f, fallback="raise", jit_compile=jit, adaptive=False)(x, 1.5 - 0.5j)
    for e, g in zip(expected, got):
        assert type(g) is type(e) and np.isclose(g, e), (e, g)


def entropy_and_angles(y, x):
    """``math``'s functions of traced numbers: Python floats, ints and bools."""
    h = 0.0
    for label in np.unique(y):
        p = len(y[y == label]) / len(y)
        h -= p * math.log(p) / math.log(2)
    return (h, math.sqrt(x[0]), math.atan2(x[1], x[0]), math.floor(x[2] * 3),
            math.isclose(x[0], x[0] + 1e-12), math.isclose(x[0], x[1], rel_tol=x[2]),
            math.pow(x[0], 2.5), math.log(x[0], 10))


def roots_and_growth(x):
    return math.sqrt(x), math.exp(x)


def test_math_functions_of_traced_numbers():
    check_against_numpy(entropy_and_angles, np.array([0, 1, 1, 2, 2, 2]), np.array([2.5, -1.5, 0.7]))
    compiled = nptf.compile(roots_and_growth, fallback="raise", adaptive=False)
    assert compiled(2.0) == roots_and_growth(2.0)
    with pytest.raises(ValueError, match="math domain error"):
        compiled(-1.0)
    with pytest.raises(OverflowError, match="math range error"):
        compiled(1000.0)


def vector_lengths(x):
    """``math.hypot`` of any number of traced coordinates (``math.hypot(*x)``, the norm of
    a power iteration's vector), and of none."""
    return math.hypot(*x), math.hypot(x[0]), math.hypot(*x[:3]) / 2, math.hypot() + x[1]


@pytest.mark.parametrize("x", [[3.0, 4.0, 12.0, 1e300, -2.0], [3.0, np.nan, np.inf, 1.0],
                               [-3.0, 4.0, 0.0, 1e-300], [np.nan, 1.0, 2.0, 3.0]])
def test_hypot_of_any_number_of_traced_coordinates(x, jit):
    check_against_numpy(vector_lengths, np.array(x), jit=jit)


def normal_cdf_and_divisors(a, x):
    """``math.erf``/``erfc`` (the normal CDF of Black-Scholes code), ``math.gcd``/``lcm``
    of several ints and ``math.isqrt`` of traced numbers, as Python gives them."""
    cdf = 0.5 * (1 + math.erf(float(x[0]) / math.sqrt(2)))
    return (cdf, math.erfc(x[1]), math.erf(x[2]), math.gcd(int(a[0]), int(a[1])),
            math.gcd(a[0], 8, a[1]), math.lcm(int(a[0]), int(a[1]), 4),
            math.isqrt(int(a[0]) * 7), math.isqrt(a[1]))


@pytest.mark.parametrize("a, x", [([12, 18], [0.3, -1.2, 6.0]), ([0, 5], [3.0, 40.0, -0.0]),
                                  ([2 ** 40 + 3, 6], [np.nan, -np.inf, 1e-300]),
                                  ([-4, 9], [0.0, 0.5, 1.0])])
def test_erf_gcd_lcm_and_isqrt_of_traced_numbers(a, x, jit):
    check_against_numpy(normal_cdf_and_divisors, np.array(a), np.array(x), jit=jit)


def gamma_of_traced(x):
    """``math.gamma``/``math.lgamma`` (Student's t and beta functions written by hand):
    exact factorials at whole numbers, Python's errors at the poles and past the range."""
    v = float(x[0])
    return math.gamma(v), math.lgamma(v), math.gamma(x[1] + 1), math.lgamma(abs(x[1]) + 0.5)


@pytest.mark.parametrize("x", [[0.5, 4.0], [5.0, 22.0], [-1.5, -0.25], [10.25, 170.5],
                               [0.0, 1.0], [-3.0, 2.0], [200.0, 3.0], [np.inf, np.nan],
                               [-np.inf, 1.0]])
def test_gamma_and_lgamma_of_traced_numbers(x):
    check_against_numpy(gamma_of_traced, np.array(x), rtol_scale=10)


def test_an_lcm_past_int64_is_python_s():
    """Python's lcm has no bounds: past int64 the call runs with NumPy (Python's int), or
    nptf refuses it under fallback="raise"."""
    a, x = np.array([2 ** 40 + 3, 2 ** 62 - 1]), np.array([0.1, 0.2, 0.3])
    expected = normal_cdf_and_divisors(a, x)
    with pytest.warns(RuntimeWarning, match="lcm"):
        got = nptf.compile(normal_cdf_and_divisors)(a, x)
    assert got == expected and got[5] > 2 ** 63
    with pytest.raises(nptf.OutsideTheGraphError, match="lcm"):
        nptf.compile(normal_cdf_and_divisors, fallback="raise")(a, x)


def repeated_by_a_count(x):
    n = len(x[x > 0])               # a Python int the data choose
    return [0] * n


def tuple_repeated_by_a_count(x):
    return (0,) * len(x[x > 0])


def multiplied_by_zero_d(x):
    # A 0-d array multiplies the items (NumPy's array); a NumPy scalar repeats them.
    k = np.asarray(x.sum() > 0, dtype=np.int64)
    return [1, 2] * k, (1.5,) * np.int64(2), [3] * int(x.size)


def repeated_by_a_float(x):
    return [1, 2] * float(x[0])


def test_a_list_times_a_traced_number(tmp_path):
    """``[0] * n`` repeats the list (of a count known only at run time, a list of that
    length; a tuple so needs the value, the count of the call's data, which the graph
    checks, rather than NumPy's elementwise product); ``list * 0-d array`` multiplies."""
    x = np.array([1.0, -2.0, 3.0])
    check_against_numpy(repeated_by_a_count, x)
    check_against_numpy(repeated_by_a_count, -x * x)
    for data in (x, -x * x, x + 1):
        check_against_numpy(tuple_repeated_by_a_count, data)
    with pytest.raises(nptf.TracerConversionError, match="repeating a tuple"):
        nptf.export(tuple_repeated_by_a_count, tmp_path / "m", nptf.Spec((3,)))
    check_against_numpy(multiplied_by_zero_d, x)
    check_against_numpy(repeated_by_a_float, x)
