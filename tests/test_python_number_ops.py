"""Python operators on Python numbers in compiled code: Python's values and types.

A Python float or complex argument is traced as a weak scalar, and Python
operators on weak values give weak values (Python numbers) again. Every such
operation has to lower to TensorFlow and come back with the value and type
the plain function gives.
"""
from __future__ import annotations

import operator

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
