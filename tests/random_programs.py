"""Random NumPy programs, compiled and compared with NumPy.

Each program takes three arrays of random dtypes and broadcast-compatible shapes
(floats with zeros of both signs, infinities and NaN in half of them),
builds a few temporaries from operators, ufuncs, reductions, ``where``, casts,
indexing and reshaping calls (some under an ``if`` on a traced value or in a ``for``
loop), may write into its first argument, and returns its temporaries.
NumPy runs it as written; nptf must return the same dtype, shape and kind of result
with values within the tolerance of the narrowest float type the program touches,
write the same into the argument, or raise the same exception.

A program whose NumPy result moves when its float inputs move by a few ulps, or when its
approximate ufuncs (tanh, exp, ...) move by one ulp and its sums by their rounding error
in another order (a comparison, a rounding or a cast to an integer of a computed value,
a cancellation, an overflow that hangs on the order), is ill-conditioned: nptf's kernels round differently from NumPy's (and NumPy's from one
machine to another), so it is skipped rather than compared. So is one whose
result hangs on the sign NumPy gives ``fmax(0.0, -0.0)``, which IEEE 754 leaves open and
NumPy picks by the element's place in the array.

A second family (``loop_program_source``, ``--family loops``) writes loops: graph loops
past the unroll limit and ``while`` loops on traced counters that write into their
arguments in place, through views, masks, the loop index and helpers (see its docstring).
A third (``nested_program_source``, ``--family nested``) is the loop family's programs with
functions and a class defined inside them: closures, ``nonlocal``, wrappers of
``functools``. A fourth (``effects_program_source``, ``--family effects``) writes Python
state.

By hand: ``python tests/random_programs.py --seed 0 --count 500`` prints every
mismatch with the program's source, and how many programs nptf refused to compile, by
reason (``--family loops`` for the loop family, ``--family nested`` for loop programs that
define functions and a class inside).
"""
from __future__ import annotations

import argparse
import bisect
import collections
import contextlib
import copy
import functools
import heapq
import io
import itertools
import importlib.util
import math
import os
import random
import zlib
import re
import signal
import sys
import tempfile
import types
import warnings

import numpy as np
import scipy.linalg
import scipy.special
import scipy.stats

sys.path.insert(0, os.path.dirname(__file__))
from harness import mismatch, tolerance  # noqa: E402

import nptf  # noqa: E402

DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint32", "float16", "float32",
          "float64", "complex64", "complex128"]
OPERATORS = ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<", "<=", "==", "!=", ">", ">="]
# Not signbit or copysign: they read the sign of a NaN, which is the kernel's (x86's
# default NaN is negative, TensorFlow's arcsin of 2 positive).
BINARY = ["maximum", "minimum", "fmax", "fmin", "arctan2", "hypot", "logaddexp",
          "heaviside", "floor_divide", "remainder", "fmod", "power", "true_divide", "left_shift",
          "right_shift", "gcd", "lcm", "ldexp", "float_power"]
UNARY = ["abs", "negative", "exp", "log", "sqrt", "square", "sin", "cos", "tanh", "floor", "ceil",
         "rint", "sign", "isnan", "isfinite", "logical_not", "invert", "reciprocal", "expm1",
         "log1p", "cbrt", "trunc", "positive", "conj", "real", "imag", "angle", "exp2",
         "log2", "log10", "arcsin", "arctan", "sinh", "cosh", "deg2rad", "fabs"]
REDUCTIONS = ["sum", "prod", "mean", "max", "min", "any", "all", "std", "var", "argmax", "argmin",
              "cumsum", "cumprod", "ptp", "median", "count_nonzero", "nansum", "nanmax", "average"]
AXES = ["", ", axis=0", ", axis=-1", ", keepdims=True", ", axis=0, keepdims=True"]
# Large ones too: a sum or product regrouped around them ((x - 1e17) + 1.0, (x * 1e200)
# * 1e-200) is a whole unit or an overflow off NumPy's answer.
SCALARS = ["2", "-3", "0.5", "1e-3", "3.0", "True", "(1+2j)", "7", "255", "np.float32(2.5)",
           "np.int8(3)", "np.float64(0.1)", "np.uint8(200)", "-1.5", "1e17", "-1e200"]
# Statements besides plain assignments: writes into an argument (through an index, an
# in-place operator or a mask), and Python control flow on traced values.
WRITES = ["a[...] = {e}", "a[0] += 1", "a += {e}", "a *= {e}", "a[1:] -= {e}", "a[::2] = {e}",
          "a[a > 0] = {e}", "a[..., -1] = {e}", "a[[0, -1]] = {e}", "np.copyto(a, {e})",
          "a[::int(np.argmax(a)) % 2 + 1] = {e}",
          # A selection into a mask's selection: sizes known only at run time, which
          # NumPy stores, broadcasts (one value) or refuses.
          "a[a > 0] = np.ravel({e})[np.ravel({e}) > 0]"]
INDEXING = ["({})[1:]", "({})[::2]", "({})[..., ::-1]", "({})[[0, -1]]", "({})[None]",
            "({})[..., 0]", "({})[({}) > 0]", "({}).T", "({}).reshape(-1)", "({})[-1]"]
CALLS = ["np.stack([{0}, {0}])", "np.repeat({0}, 2)", "np.outer({0}, {0})", "np.take({0}, [0, -1])",
         "np.sort({0}, axis=-1)", "np.argsort({0})", "({0}) * len(set(np.ravel({0})))",
         "np.maximum.reduce([{0}, ({0}) * 2])", "np.add([np.ravel({0})[0], 1.0], 0.5)",
         "np.partition({0}, 1, axis=-1)",
         "np.argpartition(np.ravel({0}), -2)", "np.cumsum({0}, axis=-1)",
         "np.linalg.norm({0})", "np.sum({0}, dtype=np.int8)", "np.mean({0}, dtype=np.float32)",
         "np.expand_dims({0}, 0)", "np.squeeze({0})", "np.broadcast_to({0}, (2, 3, 4))",
         "np.where({0})[0]", "np.nonzero({0})[0]", "np.flatnonzero({0})", "np.abs({0}).max()",
         "({0}).sum(axis=-1)", "({0}).astype(np.float32).mean()", "np.matmul({0}, np.ones((4, 2)))",
         "np.einsum('...i->...', {0})", "np.minimum.reduce({0}, axis=0)", "np.add.accumulate({0})",
         "np.isin({0}, [0, 1, 2])", "np.searchsorted(np.sort(np.ravel({0})), 0.5)",
         "np.maximum.accumulate({0}, axis=-1)", "np.logical_or.accumulate({0} > 0)",
         "np.sum({0}, where={0} > 0)", "np.mean({0}, axis=-1, where={0} > 0)",
         "np.max({0}, initial=0.5)", "np.add.reduceat(np.ravel({0}), [0, 2, 1])",
         "np.divide(1, {0}, out=np.ones(np.shape({0})), where={0} != 0)",
         "np.zeros(np.sum(np.ravel({0}) > 0))", "np.eye(np.sum(np.ravel({0}) > 0))",
         "np.tile(np.ravel({0})[:2], np.sum(np.ravel({0}) > 0))",
         "np.linspace(0, 1, np.sum(np.ravel({0}) > 0))",
         "np.repeat(np.ravel({0})[:3], np.sum(np.ravel({0}) > 1))",
         "np.ravel({0}).reshape(np.sum(np.ravel({0}) > 1e9) + 1, -1)",
         "np.r_[np.ravel({0})[np.ravel({0}) > 0], 1.5, np.ravel({0})[:1]]",
         "np.c_[np.ravel({0}), np.ravel({0})]", "np.r_[0, np.flatnonzero({0}) + 1]",
         "np.array([np.sum(np.ravel({0}) == v) for v in np.unique(np.ravel({0}))])",
         "np.stack([np.ravel({0})[:2] * v for v in np.ravel({0})[np.ravel({0}) > 0]])",
         "np.asarray([float(np.mean({0} > v)) for v in np.ravel({0})[np.ravel({0}) < 1]])",
         "np.add.reduceat(np.ravel({0}), np.r_[0, np.flatnonzero(np.diff(np.ravel({0}) > 0)) + 1])",
         "np.roll(np.ravel({0})[np.ravel({0}) > 0], 2)"]
# Sums and products NumPy evaluates left to right: regrouped around the constants, they
# are whole units or an overflow off.
REGROUPED = ["(({0}) + 1e17) - 1e17", "(({0}) * 1e200) * 1e-200", "1.0 - (({0}) - ({0}))",
             "(({0}) - 3.0) + 0.37", "0.1 * (({0}) * ({0}))", "(({0}) / 3.0) * 7.0"]
# Python's view of traced values: their bytes, builtins on them, lists the data grow.
PYTHON_VIEWS = ["np.ravel({0}).view(np.uint8)", "np.asarray(sorted(np.ravel({0})))",
                "np.asarray(np.ravel({0})[:4].tolist())", "(np.ravel({0})[:3] == None)",
                "np.asarray(round(np.sum({0}), 1))",
                "np.array([v * 2 for v in np.ravel({0}) if v > 0])",
                "np.asarray(np.ravel({0})[0] and np.ravel({0})[-1])",
                "np.asarray(np.ravel({0})[0] - 1 or np.sum({0}))",
                "(np.ravel({0})[:1] > 0 and np.ravel({0})[-1:] < 1)",
                "np.asarray(0 < np.ravel({0})[0] < np.ravel({0})[-1])",
                "np.ravel({0})[::int(np.argmax(np.ravel({0}))) + 1]",
                "np.ravel({0})[-1:0:-(int(np.argmin(np.ravel({0}))) % 3 + 1)]",
                "np.convolve(np.ravel({0}), np.ones(3) / 3, 'valid')",
                # SciPy functions that take arrays through np.asarray.
                "scipy.special.logsumexp({0}, axis=-1)", "scipy.special.log_softmax({0})",
                "scipy.stats.norm.cdf({0}, 0.5, 2.0)", "scipy.linalg.norm({0})",
                "np.delete(np.ravel({0}), np.where(np.ravel({0}) > 0.5))",
                "np.linalg.cond(np.ravel({0})[:4].reshape(2, 2) + np.eye(2), np.inf)",
                "np.linalg.cond(np.ravel({0})[:4].reshape(2, 2), 'fro')",
                "np.asarray(sorted(collections.Counter(np.round(np.ravel({0})[np.ravel({0}) > 0]"
                ").tolist()).values()))",
                "np.correlate(np.ravel({0}), np.arange(4.0), 'same')",
                "(np.exp({0}) * np.exp(-{0}))", "(np.exp({0}) ** np.round(np.ravel({0})[0]))",
                # The math module of traced numbers (its errors where NumPy gives NaN or
                # an infinity), out= of clip and accumulate, counts of np.repeat along a
                # run-time axis.
                "np.asarray(math.atan2(np.ravel({0})[0], np.ravel({0})[-1]))",
                "np.asarray(math.log(np.ravel({0})[-1]))", "np.asarray(math.floor(np.ravel({0})[0]))",
                "np.asarray(math.exp(np.ravel({0})[-1]) + 1)",
                "np.asarray(math.isclose(np.ravel({0})[0], 1.0))",
                "np.asarray(math.hypot(*np.ravel({0})[:3]))",
                "np.maximum.accumulate(np.ravel({0}), out=np.ravel({0}).copy())",
                "np.clip({0}, -1, 2, out=np.zeros(np.shape({0})))",
                "np.repeat(np.ravel({0})[np.ravel({0}) > 0], np.flatnonzero(np.ravel({0}) > 0) % 3)",
                # Results real or complex as the data say.
                "np.emath.sqrt({0})", "np.emath.log(np.ravel({0})[:3])",
                "np.emath.power({0}, 0.5)", "np.emath.arcsin(np.ravel({0}) / 2)",
                "np.real_if_close(np.fft.ifft(np.fft.fft(np.ravel({0}))))",
                "np.sort_complex(np.linalg.eigvals(np.resize(np.ravel({0}), (2, 2)) + 0.0))",
                # Counts as long as minlength where the data allow; Python's max of an
                # array; complex() of traced numbers; a covariance of a selection.
                "np.bincount((np.abs(np.ravel({0})) * 3).astype(np.int64) % 6, minlength=4)",
                "np.asarray(max(np.ravel({0})))", "np.asarray(min(np.ravel({0}) < 0.5))",
                "np.asarray(complex(np.ravel({0})[0], np.ravel({0})[-1]))",
                "np.cov(np.resize(np.ravel({0}), (2, 4))[:, np.resize(np.ravel({0}), 4) > -0.5])",
                # p-values: the t and chi-square distributions, incomplete gamma and beta.
                "scipy.stats.t.sf(np.abs({0}), 3)", "scipy.stats.chi2.cdf({0} ** 2, 2.5)",
                "scipy.special.gammaincc(np.abs({0}) + 0.5, np.abs({0}))",
                "scipy.special.betainc(2.0, 3.0, np.clip({0}, 0, 1))",
                "scipy.linalg.solve_discrete_lyapunov(np.resize({0}, (2, 2)) * 0.4, "
                "np.eye(2))",
                # A Python function applied along an axis, converted (int() of a traced
                # value, an `if` in a conditional expression).
                "np.apply_along_axis(lambda v: int(v[0] > v[-1]) + 1 if np.sum(v) > 0 else "
                "-1, -1, np.atleast_2d({0}))",
                # Lists of a length the data give, empty at times (NumPy's float64 array
                # of an empty list).
                "np.asarray([1] * int(np.sum(np.ravel({0}) > 0.5)))",
                "np.array(np.ravel({0})[np.ravel({0}) > 50].astype(np.int64).tolist())"]
RESHAPING = ["np.ravel({})[::-1]", "np.transpose({})", "np.sort(np.ravel({}))", "np.roll({}, 1)",
             "np.ravel({})[np.ravel({}) > 0]", "np.cumsum({})", "np.diff(np.ravel({}))",
             "np.concatenate([np.ravel({}), np.ravel({})])", "np.ravel({})[1:]",
             "np.unique(np.ravel({}))", "np.dot(np.ravel({}), np.ravel({}))", "np.round({}, 1)",
             "np.nan_to_num({})", "np.isclose({}, 1)", "np.atleast_2d({}).T", "np.tile({}, 2)"]
SHAPES = [((3, 4), (3, 4), (4,)), ((5,), (1,), ()), ((2, 3), (1, 3), (2, 1)), ((4,), (4,), (4,)),
          ((3, 1), (1, 4), (4,))]


def _expression(r, depth, names):
    if depth == 0 or r.random() < 0.25:
        return r.choice(names) if r.random() < 0.85 else r.choice(SCALARS)
    sub = lambda: _expression(r, depth - 1, names)  # noqa: E731
    k = r.random()
    if k < 0.04:
        return r.choice(REGROUPED).format(sub())
    if k < 0.35:
        return f"({sub()} {r.choice(OPERATORS)} {sub()})"
    if k < 0.5:
        return f"np.{r.choice(BINARY)}({sub()}, {sub()})"
    if k < 0.7:
        return f"np.{r.choice(UNARY)}({sub()})"
    if k < 0.82:
        return f"np.{r.choice(REDUCTIONS)}({sub()}{r.choice(AXES)})"
    if k < 0.88:
        return f"np.where({sub()} > 0, {sub()}, {sub()})"
    if k < 0.94:
        return f"({sub()}).astype(np.{r.choice(DTYPES)})"
    if k < 0.95:
        return f"np.clip({sub()}, -2, 3)"
    if k < 0.97:
        return r.choice(PYTHON_VIEWS).format(sub())
    inner = sub()
    form = r.random()
    if form < 0.4:
        return r.choice(RESHAPING).format(inner, inner)
    if form < 0.7:
        return r.choice(INDEXING).format(inner, inner)
    return r.choice(CALLS).format(inner)


_EXPRESSION_SOURCES = {}


def program_source(seed, name="f"):
    """An expression program: ``def f(a, b, c)`` (``program_inputs``) making one to four
    temporaries, now and then under a branch or in a short loop, perhaps writing into an
    argument, and returning them all.

    Most lines are drawn again (up to three times) while NumPy raises on them, so that
    most programs reach values rather than stop at a dtype or a shape NumPy refuses; one
    program in five keeps its first draws, which tests that nptf raises where NumPy does.
    """
    key = (seed, name)
    if key not in _EXPRESSION_SOURCES:
        r = random.Random(seed)
        inputs = program_inputs(seed) if r.random() < 0.8 else None
        lines = [f"def {name}(a, b, c):"]
        names = ["a", "b", "c"]
        for j in range(r.randint(1, 4)):
            for attempt in range(4):
                t, shape = f"t{j}", r.random()
                if shape < 0.1 and j:           # a branch on a traced value
                    more = [f"    if np.sum({r.choice(names)}) > 0:",
                            f"        {t} = {_expression(r, 2, names)}",
                            "    else:", f"        {t} = {_expression(r, 2, names)}"]
                elif shape < 0.2 and j:         # a loop that carries a value
                    other = r.choice(names[3:])
                    more = [f"    {t} = {other} * 1", f"    for i in range({r.randint(1, 4)}):",
                            f"        {t} = {t} * 0.5 + {_expression(r, 1, names + ['i'])}"]
                else:
                    more = [f"    {t} = {_expression(r, 3, names)}"]
                if inputs is None or _numpy_runs(lines + more, names + [t], name, inputs):
                    break
            lines += more
            names.append(t)
        if r.random() < 0.3:
            for attempt in range(4):
                more = ["    " + r.choice(WRITES).format(e=_expression(r, 2, names))]
                if inputs is None or _numpy_runs(lines + more, names, name, inputs):
                    break
            lines += more
        # Every temporary is returned: NumPy raises for a line whose value nobody uses,
        # where a graph drops the line.
        lines.append(f"    return ({', '.join(names[3:])},)")
        _EXPRESSION_SOURCES[key] = "\n".join(lines)
    return _EXPRESSION_SOURCES[key]


def _numpy_runs(lines, names, name, inputs):
    """Whether NumPy runs the program's first ``lines`` without an error."""
    source = "\n".join(lines + [f"    return ({', '.join(names[3:])},)"])
    ns = {"np": np, "math": math, "scipy": scipy, "collections": collections}
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(source, ns)  # noqa: S102
            ns[name](*[np.copy(v) for v in inputs])
        except Exception:  # noqa: BLE001
            return False
    return True


def program_inputs(seed):
    r = random.Random(seed + 1)
    values = []
    for shape in r.choice(SHAPES):
        dtype = np.dtype(r.choice(DTYPES))
        rng = np.random.default_rng(r.randrange(1 << 30))
        x = rng.standard_normal(shape) * 3
        if dtype.kind == "c":
            x = x + 1j * rng.standard_normal(shape)
        elif dtype.kind in "iu":
            x = np.abs(np.round(x)) if dtype.kind == "u" else np.round(x)
        x = np.asarray(x > 0) if dtype.kind == "b" else np.asarray(x).astype(dtype)
        if dtype.kind in "fc" and r.random() < 0.5:     # where kernels differ most
            flat = x.reshape(-1)
            for k in range(flat.size):
                if r.random() < 0.3:
                    flat[k] = r.choice([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0])
        values.append(x)
    return values


# The loop family. ---------------------------------------------------------------------

# Narrow integers meet the loop index (a Python int) by value: int8 + i past int8 raises.
LOOP_DTYPES = ("float64", "float32", "int64", "int32", "int8")
LOOP_ARGUMENTS = "a, b, c, k, n, x"
_C_LENGTH = 24          # longer than any loop's trip count: c[i] and c[i:i + 1] stay inside
# Views made before a loop, as templates on an array name: (view, same-shape neighbours).
_VIEWS_1D = [("{}[1:-1]", ["{}[:-2]", "{}[2:]"]), ("{}[::2]", []), ("{}[::-1]", []),
             ("{}[2:]", ["{}[:-2]"]), ("{}[None]", [])]
_VIEWS_2D = [("{}[1:, :]", ["{}[:-1, :]"]),
             ("{}[1:-1, 1:-1]", ["{}[:-2, 1:-1]", "{}[2:, 1:-1]", "{}[1:-1, :-2]", "{}[1:-1, 2:]"]),
             ("{}[:, ::2]", []), ("{}.T", []), ("{}.reshape(-1)", []), ("{}[0]", ["{}[-1]"]),
             ("{}[:, 1]", ["{}[:, 0]"]), ("{}.T[::-1]", []), ("{}.T.reshape(-1)", [])]


def _loop_layout(seed):
    """Shapes, dtypes and Python arguments of the loop program ``seed``."""
    r = random.Random(1_000_003 * seed + 7)
    if r.random() < 0.45:
        shape = (r.randint(5, 9),)
    else:
        rows = r.randint(3, 5)
        shape = (rows, rows if r.random() < 0.5 else r.randint(3, 5))
    a = r.choices(LOOP_DTYPES, weights=[5, 3, 2, 1, 1])[0]
    return {"shape": shape, "a": a, "b": a if r.random() < 0.6 else r.choice(LOOP_DTYPES),
            "c": r.choice(["float64", "float32"]),
            "fortran": len(shape) == 2 and r.random() < 0.2,
            "n": r.randint(9, 20) if r.random() < 0.8 else r.randint(2, 8),
            "k": [r.randint(9, 16), r.randint(1, 5)], "x": round(r.uniform(-1.5, 1.5), 3),
            "data": r.randrange(1 << 30)}


def loop_program_inputs(seed):
    """``a``, ``b`` (arrays of one shape), ``c`` (a float vector), ``k`` (two int64
    trip counts), ``n`` (a Python int) and ``x`` (a Python float) of loop program ``seed``."""
    lay = _loop_layout(seed)
    rng = np.random.default_rng(lay["data"])

    def array(dtype, shape):
        if np.dtype(dtype).kind == "i":
            return rng.integers(-4, 5, shape).astype(dtype)
        return (rng.standard_normal(shape) * 1.5).astype(dtype)

    a = array(lay["a"], lay["shape"])
    if lay["fortran"]:
        a = np.asfortranarray(a)
    b = array(lay["b"], lay["shape"])
    if lay["a"] == lay["b"] and random.Random(7919 * seed + 3).random() < 0.15:
        b = a       # one array passed as both: writes into a show in b (shared memory)
    return [a, b, array(lay["c"], (_C_LENGTH,)), np.array(lay["k"], np.int64), lay["n"],
            lay["x"]]


# Tables a loop builds from what the trace knows (``kt``): Python's decisions on their
# values, a recursive helper, then the data from some iteration on, a ``break`` on the
# data or on the table, ``continue``.
_KNOWN_TABLES = [
    "kt = np.linspace(-1.0, 1.0, 12)\n"
    "for j in range(12):\n"
    "    if kt[j] > 0.25 or j % 4 == 0:\n"
    "        kt[j] = np.cos(kt[j]) + kt[j - 1]\n"
    "    else:\n"
    "        kt[j] = j / 12",
    "kt = np.ones(11)\n"
    "for j in range(11):\n"
    "    if j < 4:\n"
    "        kt[j] = j * 0.5\n"
    "    else:\n"
    "        kt[j] = kt[j - 1] * 0.5 + x",
    "kt = np.arange(12.0)\n"
    "for j in range(12):\n"
    "    kt[j] = kt[j] ** 2 % 7\n"
    "    if kt[j] > 5 + x:\n"
    "        break",
    "kt = np.zeros(10)\n"
    "for j in range(10):\n"
    "    kt[j] = (j * 7) % 5\n"
    "    if kt[:j + 1].sum() > 12:\n"
    "        break",
    "kt, acc = [0.0] * 10, 0\n"
    "for j in range(10):\n"
    "    acc += j if j % 2 else -1\n"
    "    kt[j] = acc * 0.5\n"
    "kt = np.array(kt) * x",
    "kt = np.zeros(9)\n"
    "for j, v in enumerate(np.linspace(0.0, 2.0, 9)):\n"
    "    if v < 0.5:\n"
    "        continue\n"
    "    kt[j] = v * v + c[j]",
    # Python's decision on an array the trace knew before a write into it (or into a
    # view of it) put the data there.
    "kt = np.zeros(1)\n"
    "kt[0] = c[0] > 0\n"
    "if kt:\n"
    "    kt = kt * 3.0 + 1.0",
    "kt = np.zeros(1)\n"
    "kv = kt[:]\n"
    "kv[0] = c[1] > x\n"
    "if kt:\n"
    "    kt = kt - 2.0",
    "_kb = lambda i, d: (1.0 if i % 3 else 0.5) if d == 0 else \\\n"
    "    _kb(i, d - 1) * 0.5 + _kb(i + 1, d - 1)\n"
    "kt = np.array([[_kb(i, 2) + j for i in range(10)] for j in np.arange(3.0)])",
]


class _LoopWriter:
    """Writes one loop program, running every statement it writes on the program's own
    inputs as it goes, so that the dtypes and shapes it picks for a statement are those
    the statement meets (an int64 array is only added ints to, a view only written with
    what broadcasts to it, a name rebound in a loop keeps its dtype)."""

    def __init__(self, r, name, inputs, extra=None, buckets=None, dicts=None, work=None,
                 history=None, seeded=None, sorted_lists=None, nested=None, ordered=None,
                 known_tables=None, extends=None, outside=None, paths=None, values=None):
        self.r, self.name = r, name
        # Python's order of tuples holding traced numbers (sorted, min, max), read at the
        # end, from its own stream.
        self.ordered = ordered or random.Random(0)
        # Random draws from a stream the program seeds itself (``rng``, ``rs`` or
        # ``np.random``), from their own stream.
        self.seeded = seeded or random.Random(0)
        self.draw_with = None
        # A dict of lists the loops append to (``hist["v"].append(v)``) draws from its own
        # stream too.
        self.history = history or random.Random(0)
        # Choices added later draw from ``extra`` (and ``buckets``, and the dict keyed by
        # the data from ``dicts``), so that the programs of seeds written before stay as
        # they were.
        self.extra = extra or random.Random(0)
        self.buckets = buckets or random.Random(0)
        self.bk_item = "int"
        self.dicts = dicts or random.Random(0)
        self.dict_kind = None
        # Worklists (a deque, a visited set) and np.split's pieces, from ``work``.
        self.work = work or random.Random(0)
        self.work_kinds = ()
        # Tables built before the loops from what the trace knows, from their own stream.
        self.known_tables = known_tables or random.Random(0)
        self.tab_other_type = False
        self.ns = {"np": np, "collections": collections, "bisect": bisect,
                   "functools": functools, "itertools": itertools, "heapq": heapq}
        # Functions and a class defined inside the program (the ``nested`` family), from
        # their own stream; None for the loop family's programs.
        self.nested_on = nested is not None
        self.nested = nested or random.Random(0)
        self.nested_kinds = ()
        self.nested_helpers, self.nested_out = [], []     # (name, kind, wrapper, premade)
        self.nested_called = set()
        # Sorted Python lists searched with bisect, and a list kept sorted by insort,
        # from their own stream.
        self.sorted_lists = sorted_lists or random.Random(0)
        self.srt = False
        # A list made from, and extended by, arrays of a length the data choose
        # (``list(np.flatnonzero(m))``, ``ext.extend(c[c > x])``), from its own stream: the
        # kind of its items ("int" positions or "float" values of c), or None.
        self.extends = extends or random.Random(0)
        self.ext = None
        # Whether ``rng`` is a Generator of the program's module, and whether a name one
        # path of an `if` assigns is under a second `if`, from their own stream.
        self.outside = outside or random.Random(0)
        # `if`s whose paths give values of other kinds, from their own stream.
        self.paths = paths or random.Random(0)
        # Python values of traced values that only Python can use (a dict key, a heap's
        # order, text compared or hashed, a list of objects read where the data point, a
        # `while` growing a list of strings, a list another name holds chosen by a traced
        # test), from their own stream.
        self.values = values or random.Random(0)
        for key, value in zip(LOOP_ARGUMENTS.split(", "), inputs):
            self.ns[key] = np.copy(value) if isinstance(value, np.ndarray) else value
        self.views = []           # (name, view template, neighbour templates)
        self.scalars = ["x", "0.5", "1.5", "n", "k[1]", "np.mean(b)", "a.sum() * 0.01"]
        self.helpers, self.made = [], set()
        self.idx = None           # the loop index as the body spells it (None outside loops)
        self.in_while = False
        self.known = True
        self.masks = 0            # masks named so far (m0, m1, ...)
        self.one_path = 0         # names one path of an `if` assigns (hv0, hv1, ...)

    # -- running what is written ---------------------------------------------------------

    def _eval(self, text):
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                return eval(text, self.ns), True  # noqa: S307
            except Exception:  # noqa: BLE001
                return None, False

    def _runs(self, lines):
        """Runs ``lines`` (one statement) on the namespace; False, with the names bound as
        before, if it raised, warned of a bad cast, changed the shape of ``a`` or the dtype
        of an array or NumPy number (a loop variable changing dtype is refused:
        docs/control-flow.md)."""
        saved = dict(self.ns)

        def kinds():
            return {k: v.dtype for k, v in self.ns.items()
                    if isinstance(v, (np.ndarray, np.generic))}
        before, shape = kinds(), self.ns["a"].shape
        with np.errstate(all="ignore"), warnings.catch_warnings(record=True) as caught, \
                contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("always")
            # In a loop of one step, so that break and continue are statements; a return
            # evaluates its value (a module has nothing to return from).
            body = [re.sub(r"^(\s*)return\b ?(.*)$",
                           lambda m: f"{m.group(1)}_ = ({m.group(2) or 'None'})", x)
                    for x in lines]
            try:
                exec(compile("for _ in range(1):\n" + "\n".join("    " + x for x in body),
                             "<statement>", "exec"), self.ns)  # noqa: S102
                ok = True
            except Exception:  # noqa: BLE001
                ok = False
        after = kinds()
        ok = ok and bool(lines) and isinstance(self.ns["a"], np.ndarray) and \
            self.ns["a"].shape == shape and \
            all(after.get(k, d) == d for k, d in before.items()) and \
            not any("invalid value encountered in cast" in str(w.message) for w in caught)
        if not ok:
            self.ns.clear()
            self.ns.update(saved)
        return ok

    def _integer(self, text):
        value, ok = self._eval(text)
        return ok and np.asarray(value).dtype.kind in "iub"

    # -- expressions ---------------------------------------------------------------------

    def _scalar_leaves(self, integer):
        leaves = list(self.scalars) + ([self.idx] if self.idx else [])
        if self.idx and not self.in_while:
            i = self.idx
            leaves += [f"c[{i}]", f"{i} * 0.1",
                       # an element and a row of a 2-d array at traced indices
                       f"c.reshape(4, 6)[{i} % 4, ({i} * 5) % 6]",
                       f"np.sum(c.reshape(4, 6)[{i} % 4] * c[:6]) * 0.1"] + 3 * [
                # slices as long as the loop index (pad_bounded_slices)
                f"np.sum(c[:{i}]) * 0.1", f"(c[{i}:] @ c[{i}:]) * 0.01",
                f"np.max(c[:{i} + 1])", f"np.min(np.abs(c[{i} + 1:] - 0.5))",
                f"np.dot(c[:{i}], c[1:{i} + 1]) * 0.01", f"np.mean(c[{i} // 2:{i} + 2])"]
        return [t for t in leaves if not integer or self._integer(t)] or ["2"]

    def expr(self, frame, depth=2, integer=False):
        """An expression broadcasting to the arrays in ``frame`` (texts of arrays of one
        shape; empty for a scalar), small whatever the loop does with it."""
        r = self.r
        arrays = [t for t in frame if not integer or self._integer(t)]
        if depth == 0 or r.random() < 0.3:
            if arrays and r.random() < 0.6:
                return r.choice(arrays)
            return r.choice(self._scalar_leaves(integer))
        sub = lambda: self.expr(frame, depth - 1, integer)  # noqa: E731
        k = r.random()
        if integer:
            if k < 0.5:
                return f"({sub()} {r.choice(['+', '-'])} {sub()})"
            if k < 0.65:
                return f"({sub()} * {sub()}) % 7"
            if k < 0.75:
                return f"np.abs({sub()})"
            if k < 0.85:
                return f"np.maximum({sub()}, 0)"
            if k < 0.9:
                return f"({sub()}) // 2"
            cond = r.choice(frame) if frame else r.choice(self._scalar_leaves(False))
            return f"np.where({cond} > 0, {sub()}, {sub()})"
        if k < 0.35:
            return f"({sub()} {r.choice(['+', '-', '*'])} {sub()})"
        if k < 0.45:
            return f"{sub()} / (1.0 + np.abs({sub()}))"
        if k < 0.7:
            return r.choice(["np.tanh({})", "np.sin({})", "np.cos({})", "np.sqrt(np.abs({}))",
                             "np.maximum({}, 0)", "np.clip({}, -2, 2)", "0.5 * {}"]).format(sub())
        if k < 0.8:
            cond = r.choice(frame) if frame else r.choice(self._scalar_leaves(False))
            return f"np.where({cond} > 0, {sub()}, {sub()})"
        if k < 0.9 and frame:
            return f"np.roll({r.choice(frame)}, 1)" if r.random() < 0.5 else \
                f"{r.choice(frame)}[::-1]"
        return sub()

    # -- targets: what a statement writes into -------------------------------------------

    def _target(self, views=True):
        """(lvalue text, frame) of an array to write into: ``a``, a view made before the
        loop, or a slice of ``a`` written directly."""
        r = self.r
        k = r.random()
        if views and k < 0.08:
            return "b", ["b", "a"]
        if k < 0.35 or (not views and k < 0.6):
            return "a", ["a", "b"]
        if views and self.views and k < 0.75:
            name, view, near = r.choice(self.views)
            return name, [name, view.format("b")] + [t.format(x) for t in near for x in "ab"]
        view, near = self._view_template()
        return view.format("a"), [view.format(x) for x in "ab"] + \
            [t.format(x) for t in near for x in "ab"]

    def _view_template(self):
        options = _VIEWS_1D if self.ns["a"].ndim == 1 else _VIEWS_2D
        return self.r.choice(options)

    # -- statements ----------------------------------------------------------------------

    def _write(self, views=True):
        """One statement writing into an array in place."""
        r = self.r
        target, frame = self._target(views)
        integer = self._integer(target)
        # a.reshape(-1) += 1 is not Python, and a.T += 1 sets a.T, which NumPy refuses:
        # such targets are written through [...].
        whole = target + "[...]" if target.endswith((")", ".T")) else target
        kind = r.random()
        if kind < 0.3:                                      # augmented assignment
            ops = ["+=", "-=", "*=", "%="] if integer else ["+=", "-=", "*=", "/="]
            op = r.choice(ops)
            if op == "*=":
                e = r.choice(["-1", "2"]) if integer else \
                    r.choice(["0.9", "1.05", f"(1 + 0.05 * np.tanh({self.expr(frame, 1)}))"])
            elif op == "/=":
                e = r.choice(["1.1", f"(1.0 + np.abs({self.expr(frame, 1)}))"])
            elif op == "%=":
                e = r.choice(["5", "3"])
            else:
                e = self.expr(frame, 2, integer)
                e = e if integer else f"0.1 * {e}" if r.random() < 0.7 else e
            return [f"{whole} {op} {e}"]
        if kind < 0.4:                                      # assignment through [...]
            return [f"{target}[...] = {self.expr(frame, 2)}"]
        if kind < 0.55:                                     # masked
            cond = f"{r.choice(frame)} > {r.choice(['0', 'x', '0.5', '1'])}"
            op = r.choice(["=", "-=", "+=", "*="])
            if op == "*=":
                e = "-1" if integer else r.choice(["0.5", "-1"])
            elif r.random() < 0.3 and op == "=":
                other = r.choice(frame)
                e = f"{other}[{cond}] * {'2' if integer else '0.5'}"
            elif r.random() < 0.3 and op == "=":
                # Elementwise in selections by the same mask (nptf computes it on the
                # whole arrays and selects after): ops that fail on the elements left
                # out (a zero divisor, the log of a negative number) included.
                a, b = r.choice(frame), r.choice(frame)
                e = r.choice([f"{a}[{cond}] // ({b}[{cond}] - 1) + {a}[{cond}] % 3",
                              f"np.where({a}[{cond}] > 1, {b}[{cond}] * 3, -{a}[{cond}])"]
                             if integer else
                             [f"np.log({a}[{cond}]) + {b}[{cond}] ** 2",
                              f"np.sqrt({a}[{cond}] - 0.5) / ({b}[{cond}] - 1.0)",
                              f"np.where({a}[{cond}] > 1, {b}[{cond}], 1.0 / {a}[{cond}])"])
            else:
                e = self.expr([], 1, integer)
            if r.random() < 0.3:
                # A name of its own: one name for masks of different shapes in one loop
                # is a variable changing shape, which nptf refuses (docs/control-flow.md).
                mask = f"m{self.masks}"
                self.masks += 1
                return [f"{mask} = {cond}", f"{target}[{mask}] {op} {e.replace(cond, mask)}"]
            return [f"{target}[{cond}] {op} {e}"]
        if kind < 0.7 and self.idx:                         # at the loop index
            return self._index_write(target, frame, integer)
        if kind < 0.75 and self.idx:                        # a recurrence along c
            i = self.idx
            return [f"c[{i}] = c[{i} - 1] * 0.5 + {self.expr([], 2)}"]
        if kind < 0.85:                                     # a stencil of neighbours
            near = [t for t in frame[2:] if not t.endswith("b") and "b[" not in t and
                    not t.startswith("b")]
            if len(near) >= 1:
                p = r.sample(near, min(2, len(near)))
                coef = r.choice(["0.1", "coef"]) if "coef" in self.scalars else "0.1"
                if integer:
                    return [f"{whole} += ({' + '.join(p)}) % 3"]
                return [f"{whole} += {coef} * ({' + '.join(p)} - {len(p)} * {target})"]
        if kind < 0.9:                                      # overlapping read and write
            shift = "[1:]", "[:-1]"
            e = f"{target}{shift[1]}" if integer else f"0.5 * {target}{shift[1]}"
            return [f"{target}{shift[0]} {r.choice(['+=', '-='])} {e}"]
        e = self.expr(frame, 2, integer) if integer else "0.1 * " + self.expr(frame, 2)
        return [f"{whole} {r.choice(['+=', '-='])} {e}"]

    def _index_write(self, target, frame, integer):
        r, i = self.r, self.idx
        shape = self._eval(target)[0].shape
        op = r.choice(["=", "+=", "-="])
        if len(shape) == 1:
            (length,) = shape
            k = r.random()
            if k < 0.5:
                return [f"{target}[{i} % {length}] {op} {self.expr([], 2, integer)}"]
            if k < 0.75:
                return [f"{target}[({i} * 3 + 1) % {length}] {op} "
                        f"{r.choice(frame)}[({i} + 1) % {length}]" +
                        ("" if integer else " * 0.5")]
            return [f"{target}[:{i} % {length}] {op} {self.expr([], 1, integer)}"]
        rows, cols = shape
        k = r.random()
        if k < 0.3:
            row = [f"{t}[({i} + 1) % {rows}]" for t in frame]
            return [f"{target}[{i} % {rows}] {op} {self.expr(row, 1, integer)}"]
        if k < 0.5:
            col = [f"{t}[:, {i} % {cols}]" for t in frame]
            return [f"{target}[:, {i} % {cols}] {op} {self.expr(col, 1, integer)}"]
        if k < 0.7:
            return [f"{target}[{i} % {rows}, {i} % {cols}] {op} {self.expr([], 2, integer)}"]
        if k < 0.85:                                        # triangular: a row's first i
            return [f"{target}[{i} % {rows}, :{i} % {cols}] {op} {self.expr([], 1, integer)}"]
        return [f"{target}[{i} % {rows}:, :{i} % {cols} + 1] {op} {self.expr([], 1, integer)}"]

    def _helper(self):
        """A function of this module that writes into its first argument, returning it
        (``a = step(a, ...)``) or None (``step(a, ...)``)."""
        r = self.r
        hname = f"{self.name}_step{len(self.helpers)}"
        target, frame = ("a", ["a", "b"]) if r.random() < 0.6 or not self.views else \
            (lambda v: (v[0], [v[0], v[1].format("b")]))(r.choice(self.views))
        saved = self.idx, self.scalars
        self.idx = None
        self.scalars = ["x", "0.5", "1.5", "n", "k[1]", "np.mean(b)", "a.sum() * 0.01"]
        body = []
        for _ in range(r.randint(1, 2)):
            body += self._write(views=False)
        if r.random() < 0.15:                               # rebinds its parameter too
            body.append("a = a * 0.5" if not self._integer("a") else "a = a // 2")
        self.idx, self.scalars = saved
        returns = r.random() < 0.5
        # The helper's parameters are named as the caller's arrays, so its body is
        # written (and run) as if it were the caller's.
        source = [f"def {hname}(a, b, x, n, k, coef):", *("    " + x for x in body)]
        if returns:
            source.append("    return a")
        try:
            exec("\n".join(source), self.ns)  # noqa: S102
        except SyntaxError:
            return None
        self.helpers.append("\n".join(source))
        other = "b" if target == "a" else frame[1]
        call = f"{hname}({target}, {other}, x, n, k, {'coef' if 'coef' in self.scalars else '0.1'})"
        if returns and target == "a":
            return [f"a = {call}"]
        return [call]

    def _rebind(self):
        r = self.r
        if self._integer("a"):
            return [f"a = (a * 3 + {self.expr(['a', 'b'], 1, True)}) % 11"]
        e = self.expr(["a", "b"], 1)
        return [r.choice([f"a = a * 0.5 + 0.1 * {e}", f"a = np.tanh(a) + 0.1 * {e}",
                          f"a = 0.9 * a - 0.05 * {e}"])]

    def _scalar(self):
        r = self.r
        options = []
        if "s" in self.made:
            options += ["s = s * 0.9 + 1.5", "s += x", "s = s + coef" if "coef" in self.scalars
                        else "s -= 0.25", "s += x * 0.5 - 0.1"]
            if self.idx and not self.in_while:
                options.append(f"s += {self.idx} * 0.5")
                # A Python tuple or list read at the loop's index (traced in a graph loop).
                options.append(r.choice([f"s += (0.5, 1.5, 2.5)[{self.idx} % 3]",
                                         f"s += [1, -2][{self.idx} % 2] * x",
                                         f"s += [(1, 2.5), (3, 0.5)][{self.idx} % 2][1]"]))
        if "cnt" in self.made:
            options += ["cnt += 1", "cnt = cnt + n % 3",
                        # Filters on traced values: lists the data grow.
                        "cnt += sum(1 for v in c[:6] if v > x)"]
        if "best" in self.made:
            # A None sentinel the data replace (docs/control-flow.md).
            options += ["if best is None or float(np.sum(a)) > best:\n"
                        "    best = float(np.sum(a))",
                        "if np.mean(b) > x:\n    best = float(a.max())",
                        "if best is not None and best > 1.0:\n    best = best * 0.5",
                        "if a.min() > x and best is None:\n    best = float(np.mean(b))"]
            if "t" in self.made:
                options.append("if best is not None:\n    t += best * 0.01")
        if "t" in self.made:
            options += ["t = t + np.sum(a) * 0.01", "t += np.mean(b)", "t = t * 0.5 + a.max()",
                        # A Python float or a NumPy scalar as the data choose: weak or not
                        # in the promotion of the arrays it meets later.
                        "if a.max() > x:\n    t = a.max()",
                        "t = max(t, a.min())" if not self._integer("a") else "t += a.min()",
                        # ... and in NumPy functions that are not ufuncs.
                        "t = np.concatenate([c[:2], [t]])[-1] * 0.5",
                        "t = np.array([t, x]).mean()"]
            if self.views:
                options.append(f"t += np.mean({r.choice(self.views)[0]})")
            options += ["t += float(np.sum([v * 0.5 for v in c[:8] if v > x]))",
                        # Fits on the points the data keep (a size known only at run time).
                        "t += float(np.polyfit(c[c > x], c[c > x] * 2 + 1, 1)[1])",
                        "t += float(np.linalg.lstsq(np.stack([np.ones(np.sum(c > x)), "
                        "c[c > x]], axis=1), c[c > x] ** 2, rcond=None)[0][0])",
                        "if any(v > 1.5 for v in c[:5]):\n    t += 1.0",
                        # Python's view of the values, and handlers the data may take.
                        "if isinstance(c, np.ndarray) and type(t) is not int:\n    t += 0.5",
                        "try:\n    t += float(np.linalg.inv(np.round(c[:4].reshape(2, 2))).sum())"
                        "\nexcept np.linalg.LinAlgError:\n    t -= 1.0"]
        if not options:
            return None
        lines = r.choice(options).split("\n")
        acc = next((v for v in ("t", "s") if v in self.made), None)
        if acc and self.idx and self.ordered.random() < 0.5:
            # A view at the loop's index (traced in a graph loop) that a traced `if` chooses.
            i = self.idx
            lines += self.ordered.choice([
                ["rv = c[:2]", f"if c[{i} % 5] > x:", f"    rv = c[{i} % 5:{i} % 5 + 2]",
                 f"{acc} += float(rv[-1])"],
                [f"rv = c[{i} % 4] if np.mean(b) > x else c[-1]", f"{acc} += float(rv) * 0.5"],
                ["rv = b.reshape(-1)[:2]", f"if b.reshape(-1)[{i} % 3] < x:",
                 f"    rv = b.reshape(-1)[{i} % 3:{i} % 3 + 2]",
                 f"{acc} += float(np.sum(rv)) * 0.1"]])
        if acc and self.ordered.random() < 0.15:
            # One element whose rank the data choose (a Python number on one path, a
            # slice of length 1 on the other), met by arrays that settle it or not.
            lines += self.ordered.choice([
                ["rk = x", "if c[1] > x:", "    rk = c[2:3].copy()",
                 f"{acc} += float(np.sum(c[:4] + rk)) * 0.1"],
                ["rk = 0", "for rq in range(4):", "    if c[rq] > x:", "        rk = 0",
                 "    rk = rk * 0.5 + c[rq:rq + 1]", f"{acc} += float(np.sum(rk * c[:2]))"],
                ["rk = -np.inf", "if np.mean(b) > x:", "    rk = c[:1] * 2.0",
                 "if rk == -np.inf or rk > 1.0:", f"    {acc} += 0.5",
                 f"{acc} += float(np.max(c[:3] * 0.0 + rk)) if rk > 0 else 0.0"],
                ["rk = 1.0", "if c[0] < x:", "    rk = c[3:4] + 1.0",
                 f"{acc} += float(np.sum(np.atleast_1d(rk)))"]])
        if acc and self.ordered.random() < 0.3:
            # Errors the data raise, handled: the graph takes the handler.
            lines += self.ordered.choice([
                ["try:", f"    {acc} += float(c[0]) / float(np.round(c[1]))",
                 "except ZeroDivisionError:", f"    {acc} -= 0.5"],
                ["try:", f"    {acc} += float(c[int(np.argmax(c[:6])) * 5])",
                 "except IndexError:", f"    {acc} += 0.25"],
                ["try:", "    rl = np.linalg.cholesky(np.outer(c[:3], c[:3]) + x * np.eye(3))",
                 f"    {acc} += float(rl[-1, -1])", "except np.linalg.LinAlgError:",
                 f"    {acc} -= 1.0"],
                ["try:", "    rs = np.linalg.solve(np.round(c[:4].reshape(2, 2)), c[4:6])",
                 "except np.linalg.LinAlgError:", "    rs = c[4:6] * 0.0",
                 f"{acc} += float(rs.sum())"]])
        return lines

    def _grow(self):
        r = self.r
        if "rows" in self.made and self.rows == "a * 0.5" and self.extends.random() < 0.35:
            # The array itself as an item: NumPy's list holds it, and shows later writes.
            return ["rows.append(a)"]
        options = []
        if "part" in self.made and self.idx:
            i = self.idx
            options += [f"part = np.concatenate([part, c[{i}:{i} + 1] * 2])",
                        f"part = np.concatenate([part, a.reshape(-1)[:1]])",
                        "part = np.append(part, x)"]
        if "rows" in self.made:
            options.append(f"rows.append({self.rows})")
            # Worklists: Python's list methods on a list whose length the data choose.
            options += [f"rows.extend([{self.rows}, {self.rows}])", f"rows += [{self.rows}]",
                        f"rows.insert(0, {self.rows})",
                        "if rows:\n    rows.pop()",
                        "while len(rows) > 3:\n    rows.pop(0)",
                        "if len(rows) > 1 and np.sum(a) > 0:\n    rows.pop(-2)"]
        if "tab" in self.made:
            options += self._table_writes()
        if "grid" in self.made:
            options += self._grid_writes()
        if "bk" in self.made:
            options += self._bucket_appends()
        if "ext" in self.made:
            options += self._extends()
        if "rag" in self.made:
            i, s = self.idx or "0", self.extends.choice(self.scalars)
            options += [f"rag.append(c[c > {s}])", f"rag.append(c[{i} % 5:][c[{i} % 5:] < x] * 2)",
                        f"if np.sum(c > {s}) > 2:\n    rag.append(c[c > {s}] - x)"]
        return r.choice(options).split("\n") if options else None

    def _extends(self):
        """Extensions of the list ``ext`` by arrays of a length the data choose."""
        i = self.idx or "0"
        s = self.extends.choice(self.scalars)
        if self.ext == "int" and self.outside.random() < 0.3:
            # Writes at the positions it holds (as many options: the program's own
            # choices stay as they were).
            return [f"c[ext] = c[ext] * 0.5", "np.add.at(c, ext, 1.0)",
                    f"c[ext] += c[{i} % 5]"]
        if self.ext == "int":
            return [f"ext.extend(np.flatnonzero(c > {s}))",
                    f"ext += list(np.flatnonzero(c[{i} % 5:] < x))",
                    f"ext.extend(np.where(c[:{i} % 7 + 3] > 0)[0])"]
        return [f"ext.extend(c[c > {s}])", f"ext += list(c[{i} % 5:][c[{i} % 5:] < x] * 2)",
                "ext.extend(c[c < 0].tolist())" if self.extends.random() < 0.2 else
                "ext.extend(c[:3][c[:3] < 0])"]

    def _bucket_appends(self):
        """Appends to the rows of the Python list of lists ``bk`` at positions the data
        choose (k-means assignment, grouping by label): carried as one array of items and
        the row of each (docs/control-flow.md)."""
        i = self.idx or "0"
        item = {"int": f"int({i})", "float": f"float(c[{i} % 24])",
                "array": "c[:3] * 0.5"}[self.bk_item]
        return [f"bk[int(np.argmax(c[{i} % 5:{i} % 5 + 3]))].append({item})",
                f"bk[int(c[{i} % 24] > 0)].append({item})",
                f"bk[{i} % 3].append({item})",
                f"bk[int(np.sum(a) > x) - 1].append({item})",
                # A row read before (and where) it is appended to: a capacity per row.
                f"if len(bk[int(c[{i} % 24] > 0)]) < 3:\n"
                f"    bk[int(c[{i} % 24] > 0)].append({item})"]

    def _grid_writes(self):
        """Writes into the Python list of lists ``grid`` at the loop's index or where the
        data say (a dynamic-programming table): carried as one 2-D array by a graph loop."""
        i = self.idx or "0"
        step = "+ 1" if self.grid_kind == "int" else "* 0.5 + 1.0"
        return [f"grid[{i} % 3][({i} + 1) % 4] = grid[({i} + 2) % 3][{i} % 4] {step}",
                "grid[int(np.argmax(c)) % 3][-1] += 1",
                f"grid[-1][{i} % 4] = max(grid[-1][{i} % 4], grid[0][-{i} % 4 - 1])",
                f"grid[{i} % 3][0] = min(grid[{i} % 3])",
                f"grid[({i} + 1) % 3][{i} % 4] = {'int(a.sum())' if self.grid_kind == 'int' else 'a.sum()'}"]

    def _table_writes(self):
        """Writes into the Python list ``tab`` at the loop's index or where the data say
        (a dynamic-programming table, counts, flags): carried as an array by a graph
        loop, its items variables of a traced ``if`` (docs/control-flow.md)."""
        i = self.idx or "0"
        kind = self.tab_kind
        if kind == "bool":
            return [f"tab[{i} % 6] = True", "tab[int(np.argmax(c)) % 6] = not tab[0]",
                    f"tab[-1] = tab[{i} % 6] or tab[1]"]
        new = {"int": f"tab[({i} + 5) % 6] + 1", "float": f"tab[({i} + 5) % 6] * 0.5 + 1.0",
               "numpy": f"tab[({i} + 5) % 6] * 0.5 + a.sum()"}[kind]
        out = [f"tab[{i} % 6] = {new}", f"tab[int(np.argmax(c)) % 6] += 1",
               f"tab[-1] = max(tab[-1], tab[{i} % 6])"]
        if kind != "numpy":
            # NumPy scalars into a list of Python numbers: items of mixed kinds.
            out.append(f"tab[{i} % 6] = {'int(a.sum())' if kind == 'int' else 'a.sum()'}")
        if self.tab_other_type and kind == "int":
            # A float into a list of ints: each item keeps its type.
            out += [f"tab[{i} % 6] = x / 2", f"tab[-1 - {i} % 6] = a.sum() * 0.5"]
        return out

    def _branch(self):
        """A traced ``if`` that writes in place on one path."""
        r = self.r
        conds = ["np.sum(a) > 0", "a.max() > x", "np.mean(b) < x", "b.reshape(-1)[0] > 0",
                 "np.abs(a).max() > 2", "np.sum(a) > 0 and a.max() > x and np.mean(b) < 1",
                 "a.min() > x or np.mean(b) > 0 or b.reshape(-1)[-1] < 0",
                 # Python evaluates the index only where the guard holds.
                 "k[1] * 3 < a.size and a.reshape(-1)[k[1] * 3] > 0",
                 # ``in`` of an array: NumPy's (a == v).any()
                 "np.round(x) in np.round(a)", "0 not in np.sign(b)", "k[0] in (1, 2, 5)"]
        if "t" in self.made:
            conds.append("t > 1.0")
        if self.idx:
            conds.append(f"{self.idx} % 3 == 0")
        if self.extra.random() < 0.12:
            return self._assigned_on_one_path(conds)
        if "tab" in self.made and r.random() < 0.3:
            # Items of a Python list written on one path.
            return [f"if {r.choice(conds)}:", f"    {r.choice(self._table_writes())}"]
        if "grid" in self.made and r.random() < 0.3:
            return [f"if {r.choice(conds)}:", f"    {r.choice(self._grid_writes())}"]
        if "bk" in self.made and self.buckets.random() < 0.3:
            return [f"if {r.choice(conds)}:", f"    {self.buckets.choice(self._bucket_appends())}"]
        if "rows" in self.made and r.random() < 0.3:
            # How long the list grows, the data decide (docs/control-flow.md).
            if r.random() < 0.3:        # under two ifs
                return [f"if {r.choice(conds)}:", f"    if {r.choice(conds)}:",
                        f"        rows.append({self.rows})"]
            return [f"if {r.choice(conds)}:", f"    rows.append({self.rows})"]
        lines = [f"if {r.choice(conds)}:"] + ["    " + x for x in self._write()]
        if r.random() < 0.5:
            other = self._scalar() if r.random() < 0.4 else None
            lines += ["else:"] + ["    " + x for x in (other or self._write())]
        return lines

    def _assigned_on_one_path(self, conds):
        """A name with no value before a traced ``if`` that one path assigns, read where a
        flag says it was assigned (``v if g else 0``) or read as it is: Python's
        UnboundLocalError where no path the data took assigned it."""
        e = self.extra
        h, g = f"hv{self.one_path}", f"gv{self.one_path}"
        self.one_path += 1
        value = e.choice(["a.sum() * 0.5", "x + 1.0", "np.mean(b)", "a * 0.5", "k[0] + 1",
                          "b.reshape(-1)[0]"] + ([self.idx] if self.idx else []))
        if self.idx and e.random() < 0.25:
            # Assigned on one path of an iteration, read under the `elif` of a later one
            # (a trigger's start time): Python's UnboundLocalError where no iteration
            # before assigned it.
            return [f"if {e.choice(conds)}:", f"    {h} = {value}",
                    f"elif {e.choice(conds)}:", f"    a += {h}"]
        read = e.choice([[f"if {g}:", f"    a += {h}"], [f"a += {h} if {g} else 0"],
                         [f"c[0] = c[1] + ({h} if {g} else -1)"], [f"a += {h}"],
                         # a copy reads it too
                         [f"cp{h} = {h}", f"a += cp{h} if {g} else 0"]])
        if self.outside.random() < 0.3:
            # On one path of an `if` inside one path of another.
            return [f"{g} = False", f"if {e.choice(conds)}:", f"    if {e.choice(conds)}:",
                    f"        {h} = {value}", f"        {g} = True"] + read
        return [f"{g} = False", f"if {e.choice(conds)}:", f"    {h} = {value}",
                f"    {g} = True"] + read

    def _dict_statement(self):
        """A statement on ``dct``, a dict keyed by values of the data (docs/control-flow.md):
        counts, sums or arrays per key, with ``get``, ``setdefault``, ``pop``, ``del``,
        ``in`` and ``+=`` into its arrays."""
        dr, i = self.dicts, self.idx or "0"
        if self.dict_key == "int":
            key = dr.choice([f"int({i}) % 4", "int(np.argmax(c)) % 3", "int(np.sum(a > 0)) % 5"])
        else:
            key = dr.choice([f"(k[1] * 0 + {i}) % 4", "k[1] % 3", "np.argmax(c) % 4",
                             "np.sum(a > 0) % 5"])
        first = f"key = {key}"
        if self.dict_kind == "count":
            options = [f"dct[key] = dct.get(key, 0) + 1",
                       "dct.setdefault(key, 0)\ndct[key] += 1",
                       "if key in dct:\n    dct[key] += 2\nelse:\n    dct[key] = 1",
                       "if key in dct and dct[key] > 2:\n    del dct[key]",
                       "got = dct.get(key)\nif got is not None:\n    dct[key] = got * 2",
                       "dct[key] = dct.pop(key, 0) + 3"]
            if "cnt" in self.made:
                options.append("cnt += dct.pop(key, 0)")
        elif self.dict_kind == "sum":
            options = ["dct[key] = dct.get(key, 0.0) + float(a.sum())",
                       "dct.setdefault(key, 0.5)\ndct[key] = dct[key] * 0.5 + x",
                       "got = dct.get(key)\nif got is None:\n    dct[key] = x\n"
                       "else:\n    dct[key] = got + 1.0"]
            if "s" in self.made:
                options.append("s = s + dct.get(key, 0.0)")
        else:
            options = ["if key in dct:\n    dct[key] += c[:3]\nelse:\n    dct[key] = c[:3] * 1.0",
                       "if key in dct:\n    dct[key][0] = x\nelse:\n    dct[key] = c[3:6] + x",
                       "dct[key] = c[3:6] * 0.5",
                       "if key in dct:\n    dct[key] *= 0.5"]
        return [first] + dr.choice(options).split("\n")

    def _work_statement(self):
        """A statement on ``wq``, a deque used as a queue or stack, and ``seen``, a set of
        Python ints, grown at keys from the data (docs/control-flow.md)."""
        wr, i = self.work, self.idx or "0"
        key = wr.choice([f"int({i}) % 6", "int(np.argmax(c)) % 5", "int(np.sum(a > 0)) % 7"])
        options = []
        if "wq" in self.work_kinds and "seen" in self.work_kinds:
            options += ["if wk not in seen:\n    seen.add(wk)\n    wq.append(wk)"] * 3
        if "seen" in self.work_kinds:
            options += ["seen.add(wk)", "seen.discard(wk)", "if wk in seen:\n    wsum += wk",
                        "wsum += len(seen)"]
        if "wq" in self.work_kinds:
            options += ["wq.append(wk)", "wq.appendleft(wk)", "if wq:\n    wsum += wq.popleft()",
                        "if len(wq) > 2:\n    wsum -= wq.pop()",
                        "while len(wq) > 3:\n    wsum += wq.popleft()"]
        return [f"wk = {key}"] + wr.choice(options).split("\n")

    def _draw_statement(self):
        """A draw from the stream the program seeded, used in ``c`` or ``x``: NumPy's own
        numbers, as nptf draws them in loops of known trip counts (docs/compiling.md)."""
        sr, g, i = self.seeded, self.draw_with, self.idx or "0"
        p = "np.abs(c[:3]) / np.abs(c[:3]).sum()"
        if g == "rng":
            draws = ["rng.random()", "rng.random(3)", "rng.normal(0, abs(x) + 0.1, size=3)",
                     "rng.normal(c[:3], 0.5)", "rng.integers(0, 5)", "rng.integers(0, 5, 3)",
                     "rng.choice(c, 3)", "rng.permutation(3)", "rng.uniform(x, x + 1.0)",
                     "rng.exponential(abs(x) + 0.5)", f"rng.choice(3, p={p})",
                     f"rng.standard_normal(3) * {i}"]
        else:
            draws = [f"{g}.rand()", f"{g}.rand(3)", f"{g}.randn(3)", f"{g}.normal(c[:3], 0.5)",
                     f"{g}.randint(0, 5)", f"{g}.randint(1, 4, size=3)", f"{g}.choice(c, 3)",
                     f"{g}.permutation(3)", f"{g}.uniform(x, x + 1.0)",
                     f"{g}.exponential(abs(x) + 0.5)", f"{g}.choice(3, p={p})",
                     f"{g}.random_sample(3) * {i}"]
        if sr.random() < 0.1:
            return [f"{g}.shuffle(c[:6])"]
        if sr.random() < 0.1:
            # A permutation of a count the data choose, and a shuffle of such an array.
            return [f"rd = c[:8][{g}.permutation(int(np.sum(c[:8] > x)))]",
                    f"{g}.shuffle(rd)", "x = x + float(np.sum(rd[:2])) * 0.01"]
        use = sr.choice(["c[:3] += rd * 0.1", "x = x + float(np.sum(rd)) * 0.01",
                         f"c[{i} % 24] = np.sum(rd)"])
        return [f"rd = {sr.choice(draws)}", use]

    def _sorted_statement(self):
        """A search of ``srt`` (a sorted Python list of numbers) with bisect, or an
        insort into ``ins`` (a list the loops grow): docs/compiling.md."""
        sr, i = self.sorted_lists, self.idx or "0"
        return sr.choice([
            [f"sk = bisect.bisect_left(srt, float(c[{i} % 24]))", "c[0] += sk * 0.5"],
            ["sk = bisect.bisect_right(srt, x)", f"c[{i} % 24] -= sk"],
            [f"bisect.insort(ins, float(c[{i} % 24]))"],
            ["bisect.insort_left(ins, x * 0.5)", "c[1] += ins[0]"],
            [f"srt.insert(int(np.argmax(c[:3])), float(c[{i} % 24]))",
             "srt.remove(max(srt))"],
        ])

    # -- functions and a class defined inside the program --------------------------------

    def _nested_definitions(self):
        """Lines defining, inside the program, what ``_nested_statement`` calls (the kinds
        in ``nested_kinds``): ``helpers``, one or two functions ``nh0``, ``nh1`` reading the
        program's arrays, each with a ``return`` inside an ``if`` (on a Python int or on the
        data) and a ``for`` loop with ``break`` or ``continue``, called as they are, through
        ``functools.partial``, ``functools.lru_cache`` (Python int arguments only) or a
        decorator using ``functools.wraps``, their results added into ``nres``; ``collect``,
        a closure ``pick`` appending to the program's list ``picked`` where the data say;
        ``counter``, ``bump`` rebinding the program's counter ``ncnt`` and array ``nacc``
        (``nonlocal``); ``class``, a class ``Nc`` with ``__init__``, a private ``__helper``
        and a method branching on the data. The definitions run on the writer's namespace
        as they are written (``nonlocal`` as ``global`` there), so that the statements
        calling them are run as the others are."""
        nr = self.nested
        size = self.ns["a"].size
        out = []
        if "helpers" in self.nested_kinds:
            out.append(nr.choice(["nres = 0.0", "nres = 0.0", "nres = c[0] * 0.0"]))
            self.nested_out.append("nres")
            for j in range(nr.randint(1, 2)):
                wrap = nr.choice(["direct", "partial", "lru_cache", "wraps"])
                kind = "int" if wrap == "lru_cache" or nr.random() < 0.6 else "array"
                if wrap == "wraps" and not any(h[2] == "wraps" for h in self.nested_helpers):
                    out += ["def deco(fn):", "    @functools.wraps(fn)",
                            "    def wrapper(*args, **kwargs):"] + nr.choice([
                        ["        return fn(*args, **kwargs)"],
                        ["        got = fn(*args, **kwargs)", "        return got"]]) + \
                        ["    return wrapper"]
                out += {"lru_cache": ["@functools.lru_cache(maxsize=None)"],
                        "wraps": ["@deco"]}.get(wrap, [])
                out += self._nested_helper(f"nh{j}", kind, size)
                premade = wrap == "partial" and nr.random() < 0.5
                if premade:
                    out.append(f"pnh{j} = functools.partial(nh{j}, th={nr.choice(['x', '0.25'])})")
                self.nested_helpers.append((f"nh{j}", kind, wrap, premade))
        if "collect" in self.nested_kinds:
            body = nr.choice([["if vv > x:", "    picked.append(vv)"],
                              ["if vv > 0.5 and len(picked) < 4:", "    picked.append(vv * 2)"],
                              ["if vv < x or vv > 1.0:", "    picked.append(float(vv))"],
                              ["if vv < x:", "    return", "picked.append(vv)"]])
            out += ["picked = []", "def pick(vv):"] + ["    " + x for x in body]
            self.pick_arg = nr.choice(["c[{i} % 24]", "np.sum(a) * 0.1",
                                       f"b.reshape(-1)[{{i}} % {size}]",
                                       "c[{i} % 24] - np.mean(a) * 0.1"])
            reads = ["np.array(picked)", "len(picked)", "sum(picked)"]
            self.nested_out += nr.sample(reads, nr.randint(1, 2))
        if "counter" in self.nested_kinds:
            count = nr.choice([["ncnt += 1"], ["ncnt = ncnt + 2"],
                               ["if np.sum(wv) > x:", "    ncnt += 1"]])
            acc = nr.choice(["nacc = nacc + wv[:3] * 0.5", "nacc += wv[:3] * 0.1",
                             "nacc = np.maximum(nacc, wv[:3])"])
            self.bump_returns = nr.random() < 0.3
            out += ["ncnt = 0", nr.choice(["nacc = np.zeros(3)", "nacc = c[:3] * 0.0",
                                           "nacc = np.zeros_like(c[:3])"]),
                    "def bump(wv):", "    nonlocal ncnt, nacc"] + \
                ["    " + x for x in count + [acc]] + \
                (["    return ncnt", ] if self.bump_returns else [])
            if self.bump_returns:
                out.insert(out.index("def bump(wv):"), "nlast = 0")
                self.nested_out.append("nlast")
            self.nested_out += nr.sample(["ncnt", "nacc"], nr.randint(1, 2))
        if "class" in self.nested_kinds:
            cond = nr.choice(["np.sum(vv) > x", "vv.max() > 1.0", "np.mean(vv) < self.scale"])
            out += ["class Nc:", "    def __init__(self, scale):", "        self.scale = scale",
                    f"        self.total = {nr.choice(['0.0', 'c[0] * 0.0'])}",
                    "        self.hits = 0", "",
                    "    def __helper(self, vv):",
                    f"        return {nr.choice(['vv * self.scale', 'np.tanh(vv) * self.scale'])}",
                    "", "    def step(self, vv):", f"        if {cond}:"]
            # A local value on each path, then the object's attributes; or the attributes
            # on one path, which nptf refuses (docs/compiling.md).
            local = ["            gain = self.__helper(np.sum(vv) * 0.1)", "        else:",
                     "            gain = -self.total * 0.5",
                     "        self.total = self.total + gain", "        self.hits += 1"]
            on_one_path = ["            self.total = self.total + self.__helper(np.sum(vv) * 0.1)",
                           "            self.hits += 1", "        else:",
                           "            self.total = self.total * 0.5"]
            out += nr.choice([local] * 3 + [on_one_path]) + ["        return self.total"]
            value = nr.random() < 0.4
            if value:       # a return inside an if on what the data made of the object
                out += ["", "    def value(self):", "        if self.hits > 2:",
                        "            return self.total", "        return -self.total"]
            # A property and operators Python calls itself (a traced if and float() in
            # them), drawn from a stream of their own: nr's programs stay as they were.
            cm = random.Random(zlib.crc32("\n".join(out).encode()))
            members = cm.random() < 0.5
            if members:
                out += ["", "    @property", "    def level(self):",
                        "        if self.total > 0:",
                        "            return float(self.total) * 0.5",
                        "        return 0.0", "",
                        "    def __add__(self, other):", "        return self.total + other", "",
                        "    def __abs__(self):", "        return float(abs(self.total))"]
            out.append(f"nobj = Nc({nr.choice(['0.5', 'x', '0.1 * n'])})")
            self.nested_out.append(nr.choice(["nobj.total", "nobj.hits"] +
                                             (["nobj.value()"] * 2 if value else [])))
            if members:
                self.nested_out.append(cm.choice(["nobj.level", "nobj + 1.0", "abs(nobj)"]))
            if cm.random() < 0.4:
                # A list attribute the step appends to (a loss history), read after.
                out.insert(out.index("        self.hits = 0") + 1, "        self.log = []")
                out.insert(out.index("        return self.total"),
                           "        self.log.append(self.total)")
                self.nested_out.append(cm.choice(["len(nobj.log)", "np.array(nobj.log)"]))
                if cm.random() < 0.4:
                    # Appended to on one path of the step's `if` on the data.
                    out.remove("        self.log.append(self.total)")
                    at = next(i for i, line in enumerate(out) if line.startswith("        if "))
                    out.insert(at + 1, "            self.log.append(self.total * 1.0)")
            pr = random.Random(zlib.crc32(("marks\n" + "\n".join(out)).encode()))
            if pr.random() < 0.4:
                # Items of a list attribute written at a position the data choose, on one
                # path of the step's `if` (a union-find's parent links).
                out.insert(out.index("        self.hits = 0") + 1,
                           "        self.marks = list(range(4))")
                at = next(i for i, line in enumerate(out) if line.startswith("        if "))
                out.insert(at + 1, pr.choice([
                    "            self.marks[int(np.argmax(vv)) % 4] = self.marks[0] + 1",
                    "            self.marks[self.marks[int(vv.size) % 4]] = 3"]))
                self.nested_out.append(pr.choice(["nobj.marks", "sum(nobj.marks)"]))
        # Positions the data choose as a Python list of tuples (a worklist), from a stream
        # of its own.
        zr = random.Random(zlib.crc32(("zip\n" + "\n".join(out)).encode()))
        if zr.random() < 0.3:
            cond = zr.choice(["c > x", "np.abs(c) > 1.0", "c < c.mean()"])
            out += [f"npts = list(zip(*np.nonzero({cond}), c[{cond}]))",
                    "nsum = 0.0", "for ni, nv in npts:", "    nsum = nsum + nv * (ni % 3)"]
            self.nested_out.append(zr.choice(["len(npts)", "nsum", "np.array(npts)"]))
        # A list a nested function appends to (a callback) under an `if` on the data, from
        # a stream of its own.
        hr = random.Random(zlib.crc32(("note\n" + "\n".join(out)).encode()))
        if hr.random() < 0.25:
            out += ["nhist = []", "def note(v):",
                    f"    nhist.append({hr.choice(['np.sum(v) * 0.5', 'float(v.max())', 'v[0]'])})",
                    f"for nk in range({hr.choice(['4', '3', 'len(c)'])}):",
                    f"    if {hr.choice(['c[nk] > x', 'c[nk] < c.mean()', 'np.abs(c[nk]) > 0.5'])}:",
                    "        note(c[:3] * (nk + 1))"]
            if hr.random() < 0.5:
                out += ["    if c[nk] > 2.0:", "        break"]
            self.nested_out.append(hr.choice(["len(nhist)", "np.array(nhist)", "sum(nhist)"]))
        exec("\n".join(out).replace("nonlocal ", "global "), self.ns)  # noqa: S102
        return out

    def _nested_helper(self, name, kind, size):
        """A helper reading the program's arrays: a ``return`` inside an ``if``, then a
        ``for`` loop with ``break`` or ``continue`` (of an int ``mm`` or an array ``vv``)."""
        nr = self.nested
        if kind == "int":
            early = nr.choice(["mm <= 0", "mm % 3 == 2", "mm > 6", "mm == 1 or mm > 4",
                               "c[mm % 24] > th", "np.sum(a) > th * mm",
                               f"b.reshape(-1)[mm % {size}] < 0", "np.mean(c[:mm + 1]) > x"])
            value = nr.choice(["c[mm % 24] * 0.5", "th * 2.0", "np.mean(a) * 0.1",
                               "float(c[0])", "x"])
            cond = nr.choice(["c[q % 24] < th", "c[q % 24] > 1.0", "q > mm", "q % 2 == 1",
                              "c[q % 24] * th > x", "tot > 2.0"])
            body = [f"if {early}:", f"    return {value}",
                    f"tot = {nr.choice(['0.0', 'c[0] * 0.0', 'th'])}",
                    f"for q in range({nr.choice(['3', '6', '12', 'mm', 'mm + 2', 'len(c)'])}):",
                    f"    if {cond}:", f"        {nr.choice(['break', 'continue'])}",
                    "    tot = tot + " + nr.choice(["c[q % 24] * 0.5", "c[(q + mm) % 24] * 0.25",
                                                   "np.mean(a) * 0.1 + q", "c[q % 24] * th",
                                                   "q * 0.5"])]
            if nr.random() < 0.3:
                body += [f"    if {nr.choice(['tot > 3.0', 'q == mm'])}:",
                         f"        {nr.choice(['break', 'continue'])}"]
            body.append(f"return tot{nr.choice(['', ' * 0.5', ' + th'])}")
            return [f"def {name}(mm, th=0.5):"] + ["    " + x for x in body]
        early = nr.choice(["np.sum(ww) > th", "ww.max() > x", "np.mean(ww) < 0", "th > 1.0",
                           "ww.size > 8"])
        cond = nr.choice(["np.sum(ww) > 10.0", "ww.reshape(-1)[q % ww.size] > th", "q == 1",
                          "np.abs(ww).max() > 3.0"])
        body = ["ww = vv * 1.0", f"if {early}:",
                f"    return {nr.choice(['ww * 0.5', 'np.tanh(ww)', 'ww - th'])}",
                f"for q in range({nr.choice(['2', '3', '5', '12'])}):",
                f"    if {cond}:", f"        {nr.choice(['break', 'continue'])}",
                "    ww = " + nr.choice(["ww * 0.9 + 0.1 * th", "np.roll(ww, 1) * 0.5 + ww * 0.5",
                                        "np.tanh(ww) + 0.01 * q"]),
                f"return ww{nr.choice(['', ' * 0.5', ' - 0.1'])}"]
        return [f"def {name}(vv, th=0.5):"] + ["    " + x for x in body]

    def _nested_call(self, helper):
        """A call of ``helper`` (``nested_helpers``), through its wrapper."""
        nr, i = self.nested, self.idx or "0"
        name, kind, wrap, premade = helper
        if kind == "int":
            args = ["0", "1", "2", "3", "5", "n % 5", "n % 7 + 1"]
            if wrap != "lru_cache":        # lru_cache: Python ints only
                args += [f"{i} % 5", f"{i} % 5", "int(np.argmax(c)) % 4", "k[1] % 4"]
        else:
            args = ["a", "b", "c[:6]", f"c[{i} % 4:][:5]"]
        arg = nr.choice(args)
        th = nr.choice(["", ", x", ", th=0.25", ", 1.5"])
        if wrap == "partial":
            if premade:
                return f"p{name}({arg})"
            return nr.choice([f"functools.partial({name}, {arg}{th})()",
                              f"functools.partial({name}, th={nr.choice(['x', '0.25'])})({arg})"])
        return f"{name}({arg}{th})"

    def _nested_statement(self, kind=None):
        """A statement calling what ``_nested_definitions`` made (``kind`` of it)."""
        lines = self._nested_call_statement(kind or self.nested.choice(self.nested_kinds))
        # Outside loops, at index 0: c[0] rather than c[0 % 24].
        return lines if self.idx else [re.sub(r"\b0 % \d+\b", "0", x) for x in lines]

    def _nested_call_statement(self, kind):
        nr, i = self.nested, self.idx or "0"
        if kind == "helpers":
            helper = nr.choice(self.nested_helpers)
            call = self._nested_call(helper)
            if helper[1] == "int":
                return [nr.choice([f"nres = nres + {call}", f"nres += {call}",
                                   f"c[{i} % 24] += {call} * 0.1"])]
            options = [f"nres = nres + float(np.sum({call})) * 0.1",
                       f"nres += np.sum({call}) * 0.1"]
            if "(c[:6]" in call:
                options.append(f"c[:6] = {call}")
            if "(a" in call and not self._integer("a"):
                options.append(f"a[...] = {call}")
            return [nr.choice(options)]
        if kind == "collect":
            return [f"pick({self.pick_arg.format(i=i)})"]
        if kind == "counter":
            wv = nr.choice(["c", f"c[{i} % 4:]", "a.reshape(-1)", "b.reshape(-1) * 0.5"])
            return [f"nlast = bump({wv})" if self.bump_returns and nr.random() < 0.5
                    else f"bump({wv})"]
        vv = nr.choice(["c[:4]", "a", "b", f"c[{i} % 4:][:4]"])
        if "nres" in self.nested_out and nr.random() < 0.4:
            return [f"nres = nres + nobj.step({vv})"]
        return [f"nobj.step({vv})"]

    def _nested_loop(self, kinds=None):
        """``for _ in range(N)`` (N below and past the unroll limit) calling what
        ``_nested_definitions`` made (each of ``kinds``, else of a random few)."""
        nr = self.nested
        saved, self.idx = self.idx, None
        body = []
        kinds = kinds or [k for k in self.nested_kinds if nr.random() < 0.7] or \
            [nr.choice(self.nested_kinds)]
        for kind in kinds:
            for attempt in range(5):
                lines = self._nested_statement(kind)
                if self._runs(lines):
                    body += lines
                    self.nested_called.add(kind)
                    break
        self.idx = saved
        if not body:
            return []
        return [f"for _ in range({nr.choice(['3', '5', '8', '9', '12', '16', 'n'])}):"] + \
            ["    " + x for x in body]

    def _statement(self, in_loop):
        r = self.r
        if in_loop and self.srt and self.sorted_lists.random() < 0.3:
            lines = self._sorted_statement()
            if self._runs(lines):
                return lines
        if in_loop and self.draw_with and self.seeded.random() < 0.3:
            lines = self._draw_statement()
            if self._runs(lines):
                return lines
        if in_loop and self.dict_kind and self.dicts.random() < 0.35:
            lines = self._dict_statement()
            if self._runs(lines):
                return lines
        if in_loop and self.work_kinds and self.work.random() < 0.4:
            lines = self._work_statement()
            if self._runs(lines):
                return lines
        if self.nested_kinds and self.nested.random() < 0.35:
            kind = self.nested.choice(self.nested_kinds)
            lines = self._nested_statement(kind)
            if self._runs(lines):
                self.nested_called.add(kind)
                return lines
        for _ in range(30):
            k = r.random()
            if not in_loop:
                lines = self._write() if k < 0.8 else self._helper()
            elif k < 0.42:
                lines = self._write()
            elif k < 0.52:
                lines = self._helper()
            elif k < 0.6:
                # Rebinding a name written in place in a loop of a trip count known only
                # at run time is refused (docs/control-flow.md); now and then, to see it still is.
                lines = self._rebind() if self.known or r.random() < 0.25 else None
            elif k < 0.74:
                lines = self._scalar()
            elif k < 0.84:
                lines = self._grow()
            elif k < 0.95:
                lines = self._branch()
            elif k < 0.965 and self.idx and not self.in_while:
                # A row read at the loop's index is a view: writes through it reach c, and
                # it sees writes into c.
                lines = [f"row = c.reshape(4, 6)[{self.idx} % 4]",
                         r.choice(["row[0] += 1.5", "row[...] = row * 0.5", "row *= 0.9",
                                   "c[0] = row.sum() * 0.01"])]
            elif k < 0.98:
                # Returns the data take often (b's last value) or seldom (a blown up).
                lines = [r.choice(["if np.abs(a).max() > 20:", "if b.reshape(-1)[-1] > x:"]),
                         r.choice(
                    ["    break", "    return a.sum(), 1.5", "    return float(a.sum())",
                     # A Python bool beside a value (converged, ``return x, it, True``).
                     f"    return a, {self.idx if self.idx and not self.in_while else 7}, True",
                     # A number a Python float or a NumPy float64 as the data choose.
                     "    return t, 1" if "t" in self.made else "    return a.sum(), 2.5",
                     # The array the loop writes in place, returned as it is at that step.
                     "    return a", "    return a, cnt" if "cnt" in self.made else "    return c",
                     "    return None", "    return False", "    return bool(a.sum() > 0)",
                     f"    return {self.idx if self.idx and not self.in_while else 7}"])]
                if lines[1] != "    break" and r.random() < 0.3:
                    # A loop that both breaks and returns on the data.
                    lines = ["if a.min() < x - 3:", "    break"] + lines
            elif not self.in_while and self.idx == "i":
                lines = ["if i % 4 == 1:", "    continue"]
            else:
                lines = None
            if lines and any(x.strip() in ("break", "continue") or x.strip().startswith("return")
                             for x in lines) and r.random() < 0.4:
                # The jump inside a block: ``with np.errstate(...)`` around a division,
                # ``try``/``finally`` around code that may fail.
                lines = r.choice([
                    ['with np.errstate(all="ignore"):'] + ["    " + x for x in lines],
                    ["try:"] + ["    " + x for x in lines] + ["finally:", "    pass"],
                    ["try:"] + ["    " + x for x in lines] +
                    ["except FloatingPointError:", "    pass"] +
                    # The `else` runs only where the body did not jump.
                    (["else:", "    cnt += 1"] if "cnt" in self.made else [])])
            if lines and self._runs(lines):
                return lines
        return []

    # -- the program ---------------------------------------------------------------------

    def _loop_header(self):
        """The loop statement, what comes before it, its index and its last statement."""
        r = self.r
        k = r.random()
        if k < 0.25:
            trips = r.randint(9, 20) if r.random() < 0.85 else r.randint(2, 8)
            return [], f"for i in range({trips}):", "i", None
        if k < 0.39:
            return [], "for i in range(n):", "i", None
        if k < 0.42:            # a trip count known only at run time: a size from the data
            return ["m = c[c > x]"], "for i in range(len(m)):", "i", None
        if k < 0.45:            # a loop over an array of run-time length
            return [], r.choice(["for i, v in enumerate(np.unique(np.round(c))):",
                                 "for i, v in zip(np.flatnonzero(c > x), c[c > x]):"]), "i", None
        if k < 0.52:
            return [], "for i in range(1, n):", "i", None
        if k < 0.6:
            return [], "for i in range(k[0]):", "i", None
        if k < 0.66:
            return [], "for i, ci in enumerate(c):", "i", None
        if k < 0.78:
            return ["j = k[0] * 0"], "while j < k[0]:", "j", "j += 1"
        if k < 0.88:
            return ["w = np.zeros(1, dtype=np.int64)"], "while w[0] < n:", "w[0]", "w += 1"
        if k < 0.94:
            return ["j = k[0] * 0"], "while j < 15 and np.abs(a).max() < 50.0:", "j", "j += 1"
        return ["j = 0"], "while j < n:", "j", "j += 1"

    def _insertion_point(self, stream, body):
        """Where in ``body`` (lines) to insert a statement: anywhere in the loop family's
        programs (inside a block of the body too, and between an ``if`` and its ``else``,
        which Python then refuses and the program is written again: the seeds keep their
        programs), between two statements of the body in the nested family's."""
        if not self.nested_on:
            return stream.randint(0, len(body))
        return stream.choice([at for at in range(len(body) + 1) if at == len(body) or
                              not body[at].startswith((" ", "else", "elif", "except", "finally"))])

    def _loop(self, depth=0):
        r = self.r
        before, header, idx, step = self._loop_header()
        if depth:       # an inner loop: its own index
            before = [x.replace("j", "jj") for x in before]
            header, step = header.replace("j", "jj").replace("i,", "ii,").replace(
                "for i ", "for ii "), step and step.replace("j", "jj")
            idx = {"i": "ii", "j": "jj", "w[0]": "w[0]"}[idx]
            if "w[0]" in header:
                before, header, idx, step = [], "for ii in range(3):", "ii", None
        lines = []
        for x in before:
            assert self._runs([x])
            lines.append(x)
        saved = self.idx, self.in_while, self.known
        self.idx, self.in_while = idx, header.startswith("while")
        # Whether the trip count is known when tracing (a static range, a Python while).
        self.known = self.known and "k[0]" not in header and "len(m)" not in header and \
            "unique" not in header and (
                not self.in_while or before == ["j = 0"] or before == ["jj = 0"])
        # Run the body as its first step (the index at 1 in a for loop).
        if header.startswith("for"):
            self.ns[idx] = 1
            if "enumerate(c)" in header:
                self.ns["ci"] = self.ns["c"][1]
                self.scalars.append("ci")
            elif "unique" in header:
                self.ns["v"] = np.unique(np.round(self.ns["c"]))[0]
                self.scalars.append("v")
            elif "len(m)" in header:
                self.scalars.append("m[i]")
        body = []
        for _ in range(r.randint(1, 4)):
            body += self._statement(in_loop=True)
        if not depth and r.random() < 0.1:
            body += self._loop(depth + 1)
        if "bk" in self.made and self.buckets.random() < 0.7:
            # A list of lists appended to where the data say, in most loops of the programs
            # that make one (its own stream: the other programs stay as they were).
            append = self.buckets.choice(self._bucket_appends()).split("\n")
            if self._runs(append):
                at = self._insertion_point(self.buckets, body)
                body = body[:at] + append + body[at:]
        if "hist" in self.made and self.history.random() < 0.7:
            i = idx if not header.startswith("for i, v in") else "0"
            append = [self.history.choice([f'hist["v"].append(a.sum() * 0.5)',
                                           f'hist["v"].append(b[0] + {i})',
                                           f'hist["w"].append(x + {i})',
                                           f'hist["w"].append(float(c[{i} % 24]))'])]
            if self._runs(append):
                at = self._insertion_point(self.history, body)
                body = body[:at] + append + body[at:]
        pr = random.Random(zlib.crc32(("print\n" + header + "\n".join(body)).encode()))
        if self.nested_on and pr.random() < 0.3:
            # A print of what the step made (a stream of its own: the family's other
            # programs stay as they were); the comparison reads the printed text too.
            show = pr.choice([f'print("step", {idx}, int(np.sum(a > 0)))',
                              f'print(f"{{{idx}}}: {{int(np.argmax(c))}}", c[0] > x)',
                              f'print("big" if np.abs(a).max() > 10 else "small", {idx})',
                              f'if c[0] > x:\n    print("over", {idx}, sep="=")'])
            lines_ = show.split("\n")
            if self._runs(lines_):
                at = self._insertion_point(pr, body)
                body = body[:at] + lines_ + body[at:]
        if step:
            self._runs([step])
            body = [step] + body if r.random() < 0.3 and self.in_while and \
                not any("continue" in x for x in body) else body + [step]
        for name in ("ci", "v", "m[i]"):
            if name in self.scalars:
                self.scalars.remove(name)
        self.idx, self.in_while, self.known = saved
        orelse = []
        if r.random() < 0.15:
            # An else block: it runs where the loop ends without a break or return; in
            # an inner loop a break or continue in it belongs to the outer loop.
            for _ in range(r.randint(1, 2)):
                orelse += self._statement(in_loop=bool(depth))
        if self.nested_on and not depth and header == "for i in range(n):" and random.Random(
                zlib.crc32(("count\n" + "\n".join(body)).encode())).random() < 0.6:
            # The same loop over itertools.count with a break on its index (a stream of
            # its own: the nested family's other programs stay as they were).
            header, body = "for i in itertools.count():", ["if i >= n:", "    break"] + body
        return lines + [header] + ["    " + x for x in (body or ["pass"])] + \
            (["else:"] + ["    " + x for x in orelse] if orelse else [])

    def program(self):
        r = self.r
        pre, views_text = [], []
        for var, line in [("s", r.choice(["s = 0.0", "s = 0", "s = x"])), ("cnt", "cnt = 0"),
                          ("t", r.choice(["t = 0.0", "t = np.float64(0)"])),
                          ("part", r.choice(["part = c[:0] * 1", "part = np.zeros(0)",
                                             "part = c[:2].copy()",
                                             "part = np.zeros(len(c[c > x]))",
                                             "part = np.arange(np.sum(c > 0)) * 0.5"])),
                          ("rows", r.choice(["rows = []", "rows = []", "rows = [0.0]"])),
                          ("best", "best = None"),
                          ("tab", r.choice(["tab = [0] * 6", "tab = [0.0] * 6",
                                            "tab = [False] * 6", "tab = [a.sum()] * 6"]))]:
            if r.random() < (0.35 if var != "tab" else 0.2):
                pre.append(line)
                self.made.add(var)
        self.tab_kind = "bool" if "False" in " ".join(pre) else "numpy" if "a.sum()] * 6" in \
            " ".join(pre) else "float" if "0.0] * 6" in " ".join(pre) else "int"
        extra = self.extra
        self.tab_other_type = extra.random() < 0.3
        self.grid_kind = extra.choice(["int", "float"])
        if extra.random() < 0.25:
            pre.append(f"grid = [[{'0' if self.grid_kind == 'int' else '0.0'}] * 4 "
                       f"for _ in range(3)]")
            self.made.add("grid")
        if self.buckets.random() < 0.3:
            pre.append("bk = [[] for _ in range(3)]" if self.buckets.random() < 0.8 else
                       "bk = [[], [0.5], []]")
            self.bk_item = "float" if "0.5" in pre[-1] else \
                self.buckets.choice(["int", "float", "array"])
            self.made.add("bk")
        if self.history.random() < 0.25:
            # A training loop's history: a dict of lists, one empty, one not.
            pre.append('hist = {"v": [], "w": [x]}')
            self.made.add("hist")
        dr = self.dicts
        if dr.random() < 0.3:
            self.dict_kind = dr.choice(["count", "sum", "array"])
            self.dict_key = dr.choice(["int", "numpy"])
            pre.append("dct = {}")
        wr = self.work
        if wr.random() < 0.15:
            self.work_kinds = wr.choice([("wq",), ("seen",), ("wq", "seen")])
            pre.append("wsum = 0")
            if "wq" in self.work_kinds:
                pre.append(wr.choice(["wq = collections.deque()", "wq = collections.deque([1])"]))
            if "seen" in self.work_kinds:
                pre.append(wr.choice(["seen = set()", "seen = {0}"]))
        if self.sorted_lists.random() < 0.15:
            self.srt = True
            pre.append(self.sorted_lists.choice(["srt = sorted(c[:5].tolist())",
                                                 "srt = sorted([0.5, x, 1.5])"]))
            pre.append("ins = []")
            self.made.add("ins")
        xr = self.extends
        if xr.random() < 0.15:
            self.ext = xr.choice(["int", "float"])
            pre.append(xr.choice(["ext = []", "ext = list(np.flatnonzero(c > x))"
                                  if self.ext == "int" else "ext = list(c[c > x])"]))
            self.made.add("ext")
        if xr.random() < 0.12:
            # A list of arrays of lengths the data choose (a ragged list), joined at the end.
            pre.append(xr.choice(["rag = []", "rag = [c[:2] * 1]"]))
            self.made.add("rag")
        kr = self.known_tables
        if kr.random() < 0.2:
            # A table built by a loop past the unroll limit over values the trace knows,
            # Python's decisions on them, and then now and then the data (or a ``break``
            # on them).
            pre.append(kr.choice(_KNOWN_TABLES))
            self.made.add("kt")
        sr = self.seeded
        if sr.random() < 0.2:
            self.draw_with = sr.choice(["rng", "np.random", "rs"])
            pre.append({"rng": "rng = np.random.default_rng({})", "np.random":
                        "np.random.seed({})", "rs": "rs = np.random.RandomState({})"}[
                self.draw_with].format(sr.randrange(100)))
            if self.draw_with == "rng" and self.outside.random() < 0.5:
                # A Generator the program's module makes (``RNG_<seed>``, set back to its
                # seed before each run), drawn from through a local name.
                gen = f"RNG_{self.outside.randrange(100)}"
                self.ns[gen] = np.random.default_rng(int(gen[4:]))
                self.helpers.append(f"{gen} = np.random.default_rng({gen[4:]})")
                pre[-1] = f"rng = {gen}"
        if r.random() < 0.4:
            pre.append(r.choice(["coef = x * 0.1 / n", "dt, dx = 0.05, 1.0 + n * 0.1\n"
                                 "coef = x * dt / dx", "coef = 0.5 * x / (n + 1)"]))
        self.rows = r.choice(["a * 0.5", "a.sum()", "b[0] + x", "(b[0], x)",
                              "(float(a.sum()), 2, a.max())",
                              # A list of numbers as an item (``[it, loss]``).
                              "[float(a.sum()), 2, a.max()]", "[n, x]"] +
                             (["s"] if "s" in self.made else []))
        if "s" in self.made:
            self.scalars.append("s")
        if "t" in self.made:
            self.scalars.append("t")
        for _ in range(r.choice([0, 1, 1, 2])):
            view, near = self._view_template()
            name = f"u{len(self.views)}"
            views_text.append(f"{name} = {view.format('a')}")
            self.views.append((name, view, near))
        if self.outside.random() < 0.15:
            # A masked array of ``a`` (NumPy's holds a's memory: the loops' writes into a
            # show in it), read at the end.
            views_text.append("mk = np.ma.array(a, mask=np.abs(a) > 1.5)")
            self.made.add("mk")
        for line in pre + views_text:
            assert self._runs(line.split("\n")), line
        if "coef" in "".join(pre):
            self.scalars.append("coef")
        lines = [x for line in pre + views_text for x in line.split("\n")]
        nr = self.nested
        if self.nested_on:
            # Helpers more often: they hold most of the constructs.
            self.nested_kinds = tuple(k for k, p in [("helpers", 0.6), ("collect", 0.4),
                                                     ("counter", 0.4), ("class", 0.35)]
                                      if nr.random() < p) or (nr.choice(["collect", "counter",
                                                                         "class"]),)
            lines += self._nested_definitions()
            if nr.random() < 0.4:
                lines += self._nested_loop()
        if r.random() < 0.3:
            lines += self._statement(in_loop=False)
        for _ in range(1 if r.random() < 0.7 else 2):
            lines += self._loop()
        if self.nested_kinds and nr.random() < 0.7:
            lines += self._nested_loop()
        uncalled = [k for k in self.nested_kinds if k not in self.nested_called]
        if uncalled:        # every kind defined is called
            lines += self._nested_loop(uncalled)
        if r.random() < 0.3:
            lines += self._statement(in_loop=False)
        out = [v for v in ("s", "cnt", "t", "part", "best", "tab", "ins", "kt")
               if v in self.made]
        if "grid" in self.made:
            out.append(self.extra.choice(["grid", "np.array(grid)", "grid[-1][-1]"]))
        if "bk" in self.made:
            reads = ["bk", "[len(g) for g in bk]", "len(bk[1]) + len(bk[-1])",
                     "[np.mean(g, axis=0) if len(g) > 0 else 0.0 for g in bk]",
                     "np.sum([np.sum(g) for g in bk if g])"]
            if self.bk_item != "array":
                reads += ["[sum(g) for g in bk]", "[max(g) if g else -1 for g in bk]",
                          "[np.array(g, dtype=float) for g in bk]",
                          "[c[[v % 24 for v in g]] for g in bk]" if self.bk_item == "int"
                          else "[v * 2 for v in bk[0]]"]
            out.append(self.buckets.choice(reads))
        if self.dict_kind:
            out.append(self.dicts.choice(["dct", "dct", "len(dct)", "sorted(dct)"]))
        if self.work_kinds:
            wr = self.work
            if wr.random() < 0.4:
                # Pieces np.split makes where the data change: a loop or comprehension.
                cut = wr.choice(["np.flatnonzero(np.diff(np.round(c))) + 1",
                                 "np.flatnonzero(c > x)"])
                lines += wr.choice([[f"for pc in np.split(c, {cut}):", "    wsum += len(pc)"],
                                    [f"runs = [(int(pc[0]), len(pc)) for pc in "
                                     f"np.split(np.round(c), {cut})]", "wsum += len(runs)"]])
            out.append("wsum")
            if "wq" in self.work_kinds:
                out.append(wr.choice(["len(wq)", "wq[0] if wq else -1"]))
            if "seen" in self.work_kinds:
                out.append(wr.choice(["len(seen)", "sorted(seen)"]))
        if "hist" in self.made:
            out.append(self.history.choice(['np.array(hist["v"])', 'len(hist["w"])', "hist",
                                            '{k: np.array(v) for k, v in hist.items()}']))
        if "best" in self.made and r.random() < 0.5:
            lines.append(r.choice(["best = -1.0 if best is None else best * 2",
                                   "found = best is not None"]))
            out.append("found" if "found" in lines[-1] else "best")
        if "ext" in self.made:
            out.append(self.extends.choice(["np.array(ext)", "len(ext)", "np.sort(ext)",
                                            "np.sum(ext)"]))
        if "mk" in self.made:
            out.append("mk.filled(0).sum()")
        if "rows" in self.made and self.outside.random() < 0.3:
            out.append("rows == []")
        if "rag" in self.made:
            out.append(self.extends.choice(["np.concatenate(rag) if rag else c[:0]", "len(rag)",
                                            "np.hstack(rag) if rag else c[:0]", "rag",
                                            "rag[-1] if rag else c[:0]"]))
        if "rows" in self.made:
            lines.append(r.choice(["stacked = np.stack(rows) if rows else np.zeros(0)",
                                   "stacked = np.array(rows) if rows else np.zeros(0)"]))
            out.append("stacked")
            if r.random() < 0.3:
                out.append("rows")
        k = r.random()
        if k < 0.4 and self.nested_out:
            # What the nested functions and the class made, always returned.
            lines.append(f"return ({', '.join(self.nested_out + ['a'])},)")
        elif k < 0.2:
            pass                                            # returns None
        elif k < 0.4:
            lines.append("return a")
        else:
            extra = r.choice(["a", "a.sum()", "b", "c", self.views[0][0] if self.views else "a"])
            if self.ordered.random() < 0.35:
                # An error the data may raise, handled (the graph takes the handler).
                lines += self.ordered.choice([
                    ["try:", "    te = float(a.reshape(-1)[0]) / float(np.round(c[2]))",
                     "except ZeroDivisionError:", "    te = -1.0"],
                    ["te = 0.0", "try:", "    te = float(np.linalg.inv(np.round(c[:4].reshape("
                     "2, 2))).sum())", "    te += 1.0", "except np.linalg.LinAlgError:",
                     "    te -= 2.0"],
                    ["try:", "    te = np.linalg.cholesky(np.outer(c[:3], c[:3]) + x * np.eye(3))"
                     "[-1, -1]", "except np.linalg.LinAlgError:", "    te = np.float64(0.0)"]])
                out.append("te")
            if self.ordered.random() < 0.25:
                # Recursion under a traced test: bounded by a Python number (it compiles),
                # or now and then ended only by the data (the test takes the data's path).
                lines += self.ordered.choice([
                    ["def rsum(lo, hi, depth):", "    if depth == 0 or hi - lo <= 1:",
                     "        return float(np.sum(c[lo:hi]))", "    mid = (lo + hi) // 2",
                     "    if c[lo] > x:", "        return rsum(lo, mid, depth - 1) + 1.0",
                     "    return rsum(mid, hi, depth - 1)", "rres = rsum(0, len(c), 3)"],
                    ["def rsum(lo, hi, depth):", "    if depth == 0 or hi - lo <= 1:",
                     "        return float(np.sum(c[lo:hi]))", "    mid = (lo + hi) // 2",
                     "    return rsum(lo, mid, depth - 1) * 0.5 + rsum(mid, hi, depth - 1)",
                     "rres = rsum(0, len(c), 2) if np.mean(c) > x else -1.0"],
                    ["def rhalf(v):", "    if np.max(v) < 0.1:", "        return v",
                     "    return rhalf(v * 0.5)", "rres = rhalf(np.abs(c[:4]))"]])
                out.append("rres")
            if self.ordered.random() < 0.3:
                # Items of a dict made before a traced `if` that its paths write.
                lines += ["stt = {'n': 0}", "if np.mean(b) > x:",
                          "    stt['hi'] = float(np.max(a))", "    stt['n'] = 1", "else:",
                          "    stt['hi'] = -1.0", "    stt['n'] += 2"]
                out.append("stt")
            if self.paths.random() < 0.3:
                # An `if` whose paths give values no one graph holds (dicts of other keys
                # with a string, tuples with names appended on one path of each unrolled
                # step, keys added on one path, an early return of a number where the
                # program returns a tuple): the trace takes the data's path. And a walrus in
                # an operand of `and` or of a conditional expression.
                lines += self.paths.choice([
                    ["if np.mean(c) > x:", "    pinfo = {'status': 'high', 'v': float(np.max(a))}",
                     "else:", "    pinfo = {'status': 'low'}"],
                    ["pinfo = []", "for pj in range(5):", "    if c[pj] > x:",
                     "        pinfo.append(('c%d' % pj, float(c[pj])))",
                     "pinfo.sort(key=lambda p: -p[1])"],
                    ["pinfo = {}", "for pj in range(4):", "    if c[pj] * c[pj + 1] > x:",
                     "        pinfo[(pj, pj + 1)] = round(float(c[pj] - c[pj + 1]), 6)"],
                    ["if np.sum(np.round(c[:3])) == 0:", "    return 1.0", "pinfo = None"],
                    ["pinfo = ['low', 'mid', 'high']", "for pj in range(3):",
                     "    if c[pj] < x:", "        pinfo[pj] = pj * 1.5"],
                    # A return of a string inside a loop past the unroll limit, under a
                    # traced test or one the trace knows.
                    ["for pj in range(12):", "    if c[pj] > x * 3:",
                     "        return 'high at %d' % pj", "pinfo = 0"],
                    ["for pj in range(12):", "    c = c * 0.5", "    if c.shape[0] > pj:",
                     "        return 'halved %d' % pj", "pinfo = 0"],
                    # An assignment expression in an operand Python may skip.
                    ["if np.mean(c) > x and (pw := float(np.max(c))) > 0:",
                     "    pinfo = (pw * 2, pw)", "else:",
                     "    pinfo = (-1.0, (pw := x) if np.min(c) < x else 0.0)"]])
                out.append("pinfo")
            if self.values.random() < 0.3:
                # Values only Python can use: the trace takes the call's own and the graph
                # checks them.
                lines += self.values.choice([
                    ["vd = collections.defaultdict(list)", "for v in c[:8]:",
                     "    vd[int(np.round(v * 3))].append(float(v))",
                     "vout = sorted((vk, len(vv)) for vk, vv in vd.items())"],
                    ["vh = [(float(v), j) for j, v in enumerate(c[:6])]", "heapq.heapify(vh)",
                     "vout = [heapq.heappop(vh)[1] for _ in range(3)]"],
                    ["vd = {}", "for v in c[:6]:", "    vt = f'{v:.1f}'",
                     "    vd[vt] = vd.get(vt, 0) + 1", "vout = sorted(vd.items())"],
                    ["vw, vout = float(np.sum(np.abs(c[:4]))) + 1.0, []", "while vw > 0.5:",
                     "    vw = vw * 0.5", "    vout.append('h%d' % len(vout))"],
                    ["vobj = [{'v': float(v), 'j': j} for j, v in enumerate(c[:5])]",
                     "vout = vobj[int(np.argmin(c[:5]))]['j'] + vobj[np.argmax(c[:5])]['v']"],
                    ["vout = [0] * 6", "for vj in np.nonzero(c[:6] > x)[0]:",
                     "    vout[vj] = 'on %d' % vj"],
                    ["vs = {int(v) for v in np.round(c[:7] * 2)}",
                     "vout = (sorted(vs), len(vs), str(np.max(c)) == str(c.max()))"],
                    # A list another name holds, chosen by a traced test, then changed.
                    ["vout = [[0.5], [1.5]]", "vrow = vout[0] if np.mean(c) > x else vout[1]",
                     "vrow.append(float(c[0]))"],
                    # Python iterating a list of a length the data give.
                    ["vt = c[c > x].tolist()",
                     "vout = sorted(collections.Counter(int(np.round(t)) for t in vt).items())"]])
                out.append("vout")
            if self.ordered.random() < 0.35:
                out.append(self.ordered.choice([
                    "sorted(zip(np.round(c[:6]), range(6)))",
                    "sorted(zip(np.round(c[:5]), c[5:10]), reverse=True)",
                    "min((abs(v - x), j) for j, v in enumerate(c[:5]))",
                    "max(zip(np.round(c[:5]), c[5:10]), key=lambda t: t[0])",
                    "[j for j, _ in sorted(enumerate(np.round(c[:7])), "
                    "key=lambda p: (-p[1], p[0]))]",
                    "sorted(((int(v > x), v) for v in c[:6]), reverse=True)",
                    "max(zip(k, c[:2]))", "min([(float(c[0]), 1), (x, 0), (float(c[2]), 2)])"]))
            if self.ordered.random() < 0.3:
                # A tuple that is None (or holds None) until the data replace it, in a loop
                # whose trip count the data choose, or at any depth of the tuple.
                lines += self.ordered.choice([
                    ["bp = None", "for j, v in enumerate(c[c > x]):",
                     "    if bp is None or abs(v - 0.5) < bp[0]:", "        bp = (abs(v - 0.5), j)",
                     "bpo = -1.0 if bp is None else bp[0] + bp[1]"],
                    ["bp = (np.inf, None)", "for j in range(len(c) - 1):",
                     "    if abs(c[j] - c[j + 1]) < bp[0]:",
                     "        bp = (abs(c[j] - c[j + 1]), (c[j], j))",
                     "bpo = bp[0] if bp[1] is None else bp[1][0] * bp[1][1]"],
                    ["bp = None", "for v in c[c > x]:", "    if bp is None or v > bp[0]:",
                     "        bp = [v, v * 2]", "bpo = bp"]])
                out.append("bpo")
            if self.ordered.random() < 0.25:
                # Recursion by tail calls only, ended by the data: a graph loop.
                lines += self.ordered.choice([
                    ["def rtail(lo, hi, k=0):", "    mid = (lo + hi) / 2",
                     "    if hi - lo < 1e-3 or k > 40:", "        return mid, k",
                     "    if np.sum(c[:3]) * mid > x:", "        return rtail(lo, mid, k + 1)",
                     "    return rtail(mid, hi, k=k + 1)", "rtv = rtail(-1.0, 2.0)"],
                    ["def rtail(p, q):", "    if q == 0:", "        return p",
                     "    return rtail(q, p % q)",
                     "rtv = rtail(int(np.sum(np.round(np.abs(c[:4])) * 7)) + 3, 12)"],
                    ["def rtail(i):", "    if i >= len(c):", "        return -1",
                     "    if c[i] > x:", "        return i", "    return rtail(i + 1)",
                     "rtv = rtail(0)"]])
                out.append("rtv")
            if self.ordered.random() < 0.25:
                # np.ma: masked arithmetic and reductions, filled before they leave.
                lines += self.ordered.choice([
                    ["mm = np.ma.masked_less(c[:6], x)",
                     "mo = np.ma.filled((mm - x) * 2.0 / (c[:6] + 3.0), -1.0)"],
                    ["mm = np.ma.masked_equal(np.round(c[:6]), 0.0)",
                     "mo = np.ma.filled(1.0 / mm, 0.0).sum() + np.ma.getmaskarray(mm).sum()"],
                    ["mm = np.ma.masked_greater(c[:8].reshape(2, 4), x)",
                     "mo = mm.sum(axis=1).filled(0.0) + mm.min(axis=0).filled(-1.0).sum()"],
                    ["mm = np.ma.masked_invalid(np.log(np.abs(c[:5]) - 0.3))",
                     "mo = (mm - mm.mean()).filled(0.0)"]])
                out.append("mo")
            if self.ordered.random() < 0.3:
                # Short loops (unrolled): a break the data take, or a graph loop inside
                # (the other iterations then run as one graph loop).
                lines += self.ordered.choice([
                    ["bs = 0.0", "for pi in range(5):", "    bs += c[pi]", "    if bs > x:",
                     "        break"],
                    ["bs = 0", "for pi in range(4):", "    pj = 0",
                     "    while pj < 5 and c[pi + pj] > x:", "        pj += 1", "    bs += pj"],
                    ["bs = np.zeros(4)", "for pi in range(6):", "    pj = pi",
                     "    while pj < len(c) and c[pj] < x:", "        pj += 2",
                     "    bs[pi % 4] += pj", "    if pi > 3 and bs[0] > 7:", "        break"]])
                out.append("bs")
            if self.ordered.random() < 0.3:
                # NumPy's error state raising in the function (checked results, NumPy's
                # run where the data set a flag), comprehensions over more items than a
                # loop unrolls, text read at traced positions, sizes compared at run time.
                lines += self.ordered.choice([
                    ["with np.errstate(divide='raise', invalid='raise'):", "    try:",
                     "        ef = float(np.log(np.abs(c[:5]) - x).sum())",
                     "    except FloatingPointError:", "        ef = -1.0"],
                    ["ef = 0.0", "for ei in range(3):", "    with np.errstate(all='raise'):",
                     "        try:",
                     "            ef += float(np.sum(1.0 / np.round(c[ei:ei + 3])))",
                     "        except FloatingPointError:", "            ef -= 1.0"],
                    ["ef = np.array([np.mean(c[j:j + 3]) * x for j in range(12)])"],
                    ["ef = sum([float(v) * j for j, v in enumerate(c) if j < 11])"],
                    ["ef = ''.join('abcdef'[int(v) % 6] for v in np.round(np.abs(c[:5]) * 3))"],
                    ["ef = (np.array_equal(c[c > x], c[c > x]), np.array_equal(c[c > x], c[:4]),"
                     " np.size(c[c < x]))"],
                    # Python bools the data set: Python bools after the `if`.
                    ["ef = False", "for ei in range(4):", "    if c[ei] > x:", "        ef = True",
                     "ef = (ef, ef + 1, True if np.sum(c) > x else False, [ef])"],
                    # A dict of pairs the data choose; columns a branch appends; the
                    # largest of a dict's values.
                    ["eu, ec = np.unique(np.round(c[:9]), return_counts=True)",
                     "ed = dict(zip(eu.tolist(), ec.tolist()))",
                     "ef = (ed, eu[np.argmax(ec)], max(ed.values()))"],
                    ["ecols = [c[:4]]", "for ei in range(3):", "    if c[ei] > x:",
                     "        ecols.append(c[ei:ei + 4] * 2)",
                     "ef = (np.column_stack(ecols), np.dstack(ecols))"],
                    # Python decisions on a constant kernel; a name reused in a loop for
                    # a value of another rank.
                    ["ek = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]])", "ef = 0.0",
                     "for ei in range(3):", "    for ej in range(3):",
                     "        if ek[ei, ej] and int(ek.sum()) > 4:",
                     "            ef += c[ei + ej] * float(ek[ei].sum())"],
                    ["ed = c[:3] * 2", "eo = np.zeros(12)", "for ei in range(12):",
                     "    ed = c[ei] * x", "    eo[ei] = ed + 1", "ef = (eo, ed)"],
                    # A None sentinel before a long loop; the first match or a default;
                    # sum() of a selection the data size.
                    ["ecur = None", "eout = []", "for ei in range(12):",
                     "    if ecur is None or c[ei] > ecur:", "        ecur = c[ei]",
                     "    eout.append(ecur)",
                     "ef = (np.array(eout), next((int(i) for i in np.flatnonzero(c > x)), None),"
                     " sum(c[c > x]))"],
                    # Runs found with a None sentinel, appended as (start, end) where it is
                    # set; a start an earlier iteration set, read under `elif`.
                    ["es = None", "eseg = []", "for ei in range(12):",
                     "    if c[ei] > x and es is None:", "        es = ei",
                     "    elif c[ei] <= x and es is not None:", "        eseg.append((es, ei))",
                     "        es = None", "ef = eseg"],
                    ["eseg = []", "for ei in range(12):", "    if c[ei] > x:", "        es = ei",
                     "    elif c[ei] < -x:", "        eseg.append((es, ei * 0.5))",
                     "ef = eseg"],
                    # Comprehensions of several generators, filtered by the data and by
                    # Python.
                    ["ef = [(ei, ej) for ei in range(4) for ej in range(ei, 5) "
                     "if c[ei] + c[ej] > x]"],
                    ["ef = [c[ei * 3 + ej] for ei in range(3) if ei != 1 for ej in range(3) "
                     "if ej != ei if c[ei * 3 + ej] > x]", "ef = (len(ef), sum(ef))"],
                    # Sizes only the run knows: a mask beside an index, a determinant of
                    # such a block, writes into such places, lists of such lengths joined.
                    ["eq = c[:6].reshape(3, 2)[c[:3] > x]",
                     "ef = (eq[eq[:, 0] > 0, 1], "
                     "np.linalg.det(np.eye(len(eq)) + np.outer(eq[:, 0], eq[:, 0])))"],
                    ["ey = np.zeros(len(c[c > x]) + 4)", "for ei in range(3):",
                     "    ey[ei:ei + 4] += c[:4]", "ef = ey"],
                    ["ef = [v * 2 for v in c[c > x]] + [v for v in c[c < -x]]",
                     "ef = (len(ef), np.array(ef))"],
                    # Running extremes and ORs of a mask's selection; np.isscalar of traced
                    # numbers; np.c_ of run-time sizes; np.poly of conjugate pairs.
                    ["ef = (np.maximum.accumulate(c[c > x]), np.fmin.accumulate(c[c < x]),"
                     " np.logical_or.accumulate(c[c != x] > 0.5), np.isscalar(x),"
                     " np.isscalar(c[0]), np.isscalar(c[:1]), np.c_[c[c > x], c[c > x] * 2])"],
                    ["ep = c[:2] + 1j * c[2:4]",
                     "ef = np.poly(np.concatenate([ep, np.conjugate(ep), c[4:5] + 0j]))"],
                    # Sizes a long loop's index gives to a solve: the loop runs unrolled.
                    ["ef = 0.0", "for ei in range(1, 10):",
                     "    ef += np.linalg.lstsq(np.c_[np.ones(12 - ei), c[ei:12]], c[:12 - ei],"
                     " rcond=None)[0][1]"],
                    # A dict rebound to one with more keys where the data say: read, tested
                    # with `in` and `.get`, returned.
                    ["eb = {'g': -1.0}", "for ei, ev in enumerate(np.unique(c[c > x])):",
                     "    if ev * ev > eb['g']:", "        eb = {'g': ev * ev, 'at': ei, 'v': ev}",
                     "ef = (eb, 'at' in eb, eb.get('at', -1), eb.get('v', 0.5))"],
                    ["eb = {'n': 0}", "for ei in range(9):", "    if c[ei] > x:",
                     "        eb = {'n': eb['n'] + 1, 'last': c[ei]}",
                     "ef = (eb['n'], eb['last'] if 'last' in eb else x, len(eb) > 1 or x > 0)"],
                    # Draws from a seeded Generator the data decide (NumPy's own numbers).
                    ["erng = np.random.default_rng(3)", "ef, ek = 0.0, 0",
                     "while ef < abs(x) + 1.0 and ek < 30:", "    if erng.random() < 0.5:",
                     "        ef += erng.exponential(0.5)", "    else:",
                     "        ef += abs(float(erng.choice(c[:4])))", "    ek += 1",
                     "ef = (ef, ek, erng.integers(5), erng.normal(c[:2], 1.0))"],
                    # A traced number in a set, a tuple compared, a range run backwards.
                    ["eh = {1, 3, 5}", "ef = 0", "for ei in reversed(range(len(c[c > x]))):",
                     "    ev = int(abs(c[ei]) * 3) % 7",
                     "    if ev in eh or (ev, ei % 2) == (2, 0):", "        ef += ei"],
                    # A real matrix's eigenvalues (NumPy's real result), text read where
                    # the data say.
                    ["ea = np.outer(c[:3], c[:3]) + np.eye(3) * (abs(x) + 1.0)",
                     "ef = (np.sort(np.linalg.eigvals(ea)), np.abs(np.linalg.eig(ea)[1]).sum())"],
                    # Results real or complex as the data say: eigenvalues of a matrix
                    # that is not symmetric, roots, a characteristic polynomial.
                    ["ea = np.array([[c[0], c[1]], [-c[2], c[3] + x]])",
                     "ew = np.linalg.eigvals(ea)",
                     "ef = (np.sort_complex(ew), np.abs(ew).max(), np.roots(c[4:7] + 0.5), "
                     "np.poly(ea), np.poly(ew))"],
                    # Writes through the real part of complex numbers; pairs holding
                    # arrays sorted by traced keys.
                    ["ez = c[:3] + 1j * x", "ep = ez.real", "ep /= abs(ep).sum() + 5.0",
                     "ez.imag = c[3:6]", "ef = (ez, ep)"],
                    ["ep = [(c[ei], c[ei:ei + 2]) for ei in range(3)]",
                     "ep.sort(key=lambda t: t[0], reverse=True)",
                     "ef = (ep[0][1], [t[0] for t in ep], ep[-1][1].sum())"],
                    # A name (or None) an `if` on the data chooses, compared.
                    ["ename = None", "for ek, ev in (('a', 0), ('b', 2), ('c', 4)):",
                     "    if c[ev] > x:", "        ename = ek",
                     "ef = (ename, ename is None, ename == 'b', 'lo' if x > 0 else 'hi')"],
                    ["et = np.array(list('abcab'))",
                     "ef = (et[int(abs(c[0]) * 7) % 5] == 'a', (et == 'b').sum() * x, "
                     "et[int(abs(c[1]) * 5) % 5])"]])
                out.append("ef")
            lines.append(f"return ({', '.join(out + self.nested_out + [extra])},)")
        return "\n\n\n".join(self.helpers + [f"def {self.name}({LOOP_ARGUMENTS}):\n" +
                                             "\n".join("    " + x for x in lines)])


class _TooLong(Exception):
    pass


def _raise_too_long(*_):
    raise _TooLong


def _runs_cleanly(source, name, inputs, seconds=10):
    """Whether NumPy runs the program without an error, a bad cast or a non-finite float,
    within ``seconds`` (a ``while`` whose step a statement inserted into its body put out of
    reach runs forever)."""
    ns = {"np": np, "collections": collections, "bisect": bisect, "functools": functools,
          "itertools": itertools}
    args = [np.copy(v) if isinstance(v, np.ndarray) else v for v in inputs]
    try:
        previous, armed = signal.signal(signal.SIGALRM, _raise_too_long), True
    except (ValueError, AttributeError):       # not the main thread, or no SIGALRM
        previous, armed = None, False
    with np.errstate(all="ignore"), warnings.catch_warnings(record=True) as caught, \
            contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("always")
        try:
            if armed:
                signal.alarm(seconds)
            exec(source, ns)  # noqa: S102
            result = ns[name](*args)
        except Exception:  # noqa: BLE001
            return False
        finally:
            if armed:
                signal.alarm(0)
                signal.signal(signal.SIGALRM, previous)
    if any("invalid value encountered in cast" in str(w.message) for w in caught):
        return False

    def finite(v):
        if isinstance(v, (tuple, list)):
            return all(finite(x) for x in v)
        v = np.asarray(v)
        return v.dtype.kind not in "fc" or bool(np.all(np.isfinite(v)))
    return finite(result) and finite(args)


_LOOP_SOURCES = {}


def loop_program_source(seed, name="f", nested=False):
    """A loop program: ``def f(a, b, c, k, n, x)`` (``loop_program_inputs``).

    One or two loops, most past the unroll limit: ``for i in range(12)``, ``range(n)``,
    ``range(k[0])`` (a traced bound), ``enumerate(c)``, loops whose trip count is a size
    from the data (``range(len(m))`` of ``m = c[c > x]``, reading ``m[i]``; ``enumerate``
    of ``np.unique(...)``), ``while`` loops on a traced
    counter (``j = k[0] * 0``, ``w = np.zeros(1, int64)``; some also stop on the data) and
    on a Python one; now and then a loop inside. Their bodies write into the arguments:
    augmented assignment on the whole array, writes through views made before the loop
    (slices, ``.T``, ``.reshape``, ``[None]``), masked writes, writes at the loop index
    (``a[i % 5]``, rows, columns, triangles ``a[i % 4, :i % 4]``), stencils and overlapping
    ``a[1:] += a[:-1]``; call helpers of the same module that write into their argument
    and return it or None; rebind ``a`` between writes; carry Python numbers
    (``s = s * 0.9 + 1.5``, ``s += x``, ``cnt += 1``, ``coef = x * dt / dx``) and traced
    ones; grow arrays (``np.concatenate``, a list then ``np.stack``, a dict of lists
    ``hist["v"].append(v)``); branch on traced
    values (``x in a`` among them) writing on one path; ``break``, ``continue`` and ``return`` (a tuple, a Python
    float, the index) inside the loop; now and then an ``else`` block after the loop
    (with the outer loop's ``break`` or ``continue`` in an inner one's). Writes may come before and
    after the loops. The function returns None, ``a`` or a tuple of what it made, now and
    then with tuples of traced numbers in Python's order (``sorted(zip(...))``, ``min`` and
    ``max`` of tuples, a tuple ``key=``) and ``try``/``except`` blocks whose handlers catch
    errors the data raise (a division by zero, an index out of bounds, a singular matrix,
    one not positive definite), in the loops too, items of a dict a traced ``if``
    writes, and recursion under a traced test (bounded by a Python number, or ended only
    by the data), and random draws in the loops from a stream the program seeds or from a
    Generator its module makes (``rng = RNG_<seed>``).

    With ``nested`` (the ``nested`` family, ``nested_program_source``), the program also
    defines functions and a class inside (``_LoopWriter._nested_definitions``, a stream of
    their own) and calls them before, in and after its loops: helpers reading the arrays
    with a ``return`` inside an ``if`` and a loop with ``break``/``continue``, called
    directly, through ``functools.partial``, ``functools.lru_cache`` or a
    ``functools.wraps`` decorator; a closure appending to a list of the program under a
    traced ``if``; ``nonlocal`` counters and accumulators a helper rebinds in the loops and
    in ``for _ in range(N)`` below and past the unroll limit; a class with a private
    ``__helper`` and a method branching on the data.

    Every statement is run on the inputs as it is written, so that int64 arrays get
    integer writes and a rebound name keeps its dtype; a program NumPy cannot run
    without an error, a bad cast or a non-finite float is written again.
    """
    key = (seed, name, nested)
    if key not in _LOOP_SOURCES:
        inputs = loop_program_inputs(seed)
        for attempt in range(20):
            r = random.Random(f"loops {seed} {attempt}")
            writer = _LoopWriter(r, name, inputs,
                                 random.Random(f"loop tables {seed} {attempt}"),
                                 random.Random(f"loop buckets {seed} {attempt}"),
                                 random.Random(f"loop dicts {seed} {attempt}"),
                                 random.Random(f"loop work {seed} {attempt}"),
                                 random.Random(f"loop history {seed} {attempt}"),
                                 random.Random(f"loop seeded {seed} {attempt}"),
                                 random.Random(f"loop sorted {seed} {attempt}"),
                                 random.Random(f"loop nested {seed} {attempt}") if nested
                                 else None,
                                 random.Random(f"loop ordered {seed} {attempt}"),
                                 random.Random(f"loop known {seed} {attempt}"),
                                 random.Random(f"loop extends {seed} {attempt}"),
                                 random.Random(f"loop outside {seed} {attempt}"),
                                 random.Random(f"loop paths {seed} {attempt}"),
                                 random.Random(f"loop values {seed} {attempt}"))
            source = writer.program()
            if _runs_cleanly(source, name, inputs):
                break
        _LOOP_SOURCES[key] = source
    return _LOOP_SOURCES[key]


def nested_program_source(seed, name="f"):
    """A loop program (``loop_program_source``, on ``loop_program_inputs``) that defines
    functions and a class inside and calls them: nested helpers with a ``return`` inside an
    ``if`` and ``break``/``continue`` in a loop, called directly, through
    ``functools.partial``, ``functools.lru_cache`` and a ``functools.wraps`` decorator; a
    closure appending to the program's list under a traced ``if``; ``nonlocal`` counters and
    accumulators; a class with a private method and, now and then, a property and
    operators (``nobj + 1.0``, ``abs(nobj)``) with a traced ``if`` and ``float()`` in them
    and a list attribute its step appends to (``self.log.append(self.total)``), now and
    then on one path of the step's ``if``; a list of the positions and values the data
    choose (``list(zip(*np.nonzero(c > x), ...))``); a nested function appending to a list
    of the program's (a callback, ``note(v)``) under a traced ``if`` in a loop that may
    ``break``; now and then ``for i in itertools.count():`` with a ``break`` in place of
    ``for i in range(n):``; prints of what a loop step made (the text is compared too).
    A family of its own, so that the loop family's programs stay as they were for their
    seeds."""
    return loop_program_source(seed, name, nested=True)


# The Python-effects family. ----------------------------------------------------------

def effects_program_inputs(seed):
    """``a``, ``b`` (float arrays of one shape), ``box`` (a dict holding an array, a count,
    a list, a list of numbers and a list of arrays) and ``n`` (a Python int)."""
    r = random.Random(seed + 5)
    shape = r.choice([(4,), (3, 4), (6,)])
    dtype = r.choice(["float64", "float32"])
    rng = np.random.default_rng(r.randrange(1 << 30))
    a, b, k = (rng.standard_normal(shape).astype(dtype) for _ in range(3))
    coef = r.choice([[0.5, 1.5], [2.0], [0.25, -1.0, 3.0]])
    return [a, b, {"k": k, "n": 0, "log": [], "coef": coef, "arrs": [k * 2, k[..., :1] + 1]},
            r.choice([2, 3, 12])]


# Writes into Python state, each on a temporary ``{t}``: the argument's containers, a
# module global's items and attributes, and the dict again through a helper.
_EFFECTS = ['box["k"] = {t}', 'box["n"] += 1', 'box["log"].append({t})',
            "OBJ_{seed}.v = {t}", "OBJ_{seed}.count = OBJ_{seed}.count + 1",
            'STATE_{seed}["last"] = {t}', "_keep_{seed}(box, {t})", 'box.setdefault("m", {t})',
            'box["log"] += [{t}]', 'box["coef"][0] = 2.0', 'box["coef"].append(1.0)',
            'box["coef"] += [0.5]', 'box["coef"] = (box["coef"] * 2)[:4]',
            'box["arrs"][0][...] += {t}', 'box["arrs"][1][...] = np.max({t})']
# Reads of that state, Python's list operations on a list of numbers (an array to
# NumPy functions, a list to Python), and Python numbers taken from the arrays.
_READS = ['box["k"]', "OBJ_{seed}.v", 'box["n"]', "OBJ_{seed}.count", 'len(box["log"])',
          'box["coef"][0]', 'box["coef"][-1]', 'sum(box["coef"])', 'len(box["coef"] * 2)',
          'np.mean(box["coef"])', 'len(box["coef"] + [1.0])', 'max(box["coef"])',
          'np.sum(np.asarray(box["coef"]) * 2)', 'float(np.sum(a))', 'int(np.argmax(b))',
          'bool(np.all(a > 0))', 'b[int(np.argmin(a))]', 'SCALE_{seed} * a',
          'sum(np.sum(w) for w in box["arrs"])', 'np.sum(a).item()', 'a.item(0)',
          'np.vectorize(_bend_{seed})(a)']


def effects_program_source(seed, name="f"):
    """A program ``def f(a, b, box, n)`` (``effects_program_inputs``) that reads and writes
    Python state: items of the ``box`` dict and its list, a module global dict
    ``STATE_<seed>``, attributes of a module global object ``OBJ_<seed>`` and, through a
    helper, the dict again and the arrays of its list; some read the global
    ``SCALE_<seed>``, which the comparison rebinds between the two calls. The writes stand
    at the top level, under an ``if`` on a traced value, in a loop of known trip count
    (below and past the unroll limit), beside a dict keyed by the loop index or rebuilt
    on every iteration, in
    ``for i in range(n)`` and in a ``while`` on a traced counter; some programs only read.
    Some are nested in a function whose list and dict they change (``seen.append(t)``).
    NumPy runs them twice on one set of arguments, so a write done once, at trace time,
    shows as a difference."""
    r = random.Random(f"effects {seed}")
    # Its own stream, so that the other programs stay as they were for their seeds.
    rc = random.Random(f"effects closure {seed}")
    closure = rc.random() < 0.3
    lines = ["import types", "", f"STATE_{seed} = {{}}", f"SCALE_{seed} = 1.0",
             f"OBJ_{seed} = types.SimpleNamespace(v=0.0, count=0)", "", "",
             f"def _keep_{seed}(d, v):", '    d["h"] = v', "    return v", "", "",
             f"def _bend_{seed}(v):", "    if v > 0:", "        return v * 2.0",
             "    return -v * 0.5", "", "",
             f"def {name}(a, b, box, n):"]
    names = ["a", "b"]
    writes = r.random() < 0.8
    for j in range(r.randint(1, 3)):
        t = f"t{j}"
        operand = r.choice(_READS).format(seed=seed) if r.random() < 0.4 else \
            _expression(r, 1, names)
        lines.append(f"    {t} = {_expression(r, 1, names)} * 0.5 + {operand}")
        names.append(t)
        if not writes or r.random() < 0.3:
            continue
        effect = r.choice(_EFFECTS).format(t=r.choice(names[2:]), seed=seed)
        if closure and rc.random() < 0.6:
            effect = rc.choice(_CLOSURE_EFFECTS).format(t=r.choice(names[2:]))
        place = r.random()
        if place < 0.2:
            lines.append(f"    {effect}")
        elif place < 0.45:
            lines += [f"    if np.sum({r.choice(names)}) > 0:", f"        {effect}",
                      f"        {t} = {t} + 1.0"]
            if r.random() < 0.5:
                lines += ["    else:", f"        {t} = {t} - 1.0"]
        elif place < 0.65:
            bound = r.choice(["3", "12", "n"])
            lines += [f"    for i in range({bound}):", f"        {t} = {t} * 0.9 + i",
                      f"        {effect}"]
        elif place < 0.75:
            # Python containers as loop state: a dict keyed by the loop index, a dict
            # rebuilt on every iteration.
            bound = r.choice(["3", "12", "n"])
            if r.random() < 0.5:
                lines += ["    hs = {-1: 0.0}", f"    for i in range({bound}):",
                          f"        hs[i] = hs[i - 1] * 0.5 + np.sum({t})",
                          f"    {t} = {t} + hs[len(hs) - 2]"]
            else:
                lines += [f'    model = {{"w": {t}, "k": 0}}', f"    for i in range({bound}):",
                          '        model = {"w": model["w"] * 0.9 + i, "k": model["k"] + 1}',
                          f'    {t} = model["w"] + model["k"]']
        else:
            # A traced counter from 0 (argmax of all False), whatever NaN the data hold.
            lines += [f"    j = np.argmax({t} > np.inf)", "    while j < 10:",
                      f"        {t} = {t} * 0.9", f"        {effect}", "        j += 1"]
    lines.append(f"    return ({', '.join(names[2:])},)")
    if closure:
        # The function nested in another, whose list and dict it changes (in place: the
        # comparison resets SEEN_<seed> and STATE_<seed>, the same objects).
        start = lines.index(f"def {name}(a, b, box, n):")
        lines = lines[:start] + [f"SEEN_{seed} = []", "", "", f"def _make_{seed}():",
                                 f"    seen = SEEN_{seed}", f"    state = STATE_{seed}", ""] + \
            ["    " + line for line in lines[start:]] + \
            [f"    return {name}", "", "", f"{name} = _make_{seed}()"]
    return "\n".join(lines)


# Writes into the enclosing function's list and dict, for the nested programs.
_CLOSURE_EFFECTS = ["seen.append({t})", "seen.extend([{t}, 1.0])", 'state["c"] = {t}',
                    'state.setdefault("seen", []).append(1)', "seen.append(len(seen))"]


def _state(v):
    """What a value holds, for comparing Python state: an object as its attributes."""
    if isinstance(v, types.SimpleNamespace):
        return {k: _state(x) for k, x in vars(v).items()}
    if isinstance(v, dict):
        return {k: _state(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_state(x) for x in v]
    if isinstance(v, np.random.Generator):
        return repr(v.bit_generator.state)
    return v


def load_programs(seeds, directory, source=None):
    """The functions for ``seeds``, written to a module in ``directory`` (nptf reads their
    source); ``source`` is the family's source function (``program_source`` unless given)."""
    source = source or program_source
    family = "" if source is program_source else f"{source.__name__}_"
    path = os.path.join(directory, f"random_programs_{family}{seeds[0]}_{len(seeds)}.py")
    with open(path, "w") as f:
        f.write("import bisect\nimport collections\nimport functools\nimport heapq\n"
                "import itertools\nimport math\n\n"
                "import numpy as np\nimport scipy.linalg\nimport scipy.special\n"
                "import scipy.stats\n\n\n")
        f.write("\n\n\n".join(source(s, f"program_{s}") for s in seeds) + "\n")
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    with warnings.catch_warnings():
        # Python's compile-time warning of `(7)[None]`, which the program then raises
        # at, as NumPy does.
        warnings.simplefilter("ignore", SyntaxWarning)
        spec.loader.exec_module(module)
    return [getattr(module, f"program_{s}") for s in seeds]


# Where NumPy computes in float16 or float32 on the way (np.sqrt of int8 is float16, of
# int16 float32), results carry that precision whatever the final dtype.
_HALF = ("bool", "int8", "uint8", "float16")
_SINGLE = ("int16", "uint16", "float32", "complex64")


def _tolerance(values, source):
    names = [np.asarray(v).dtype.name for v in values]
    if any(n in names or n in source for n in _HALF):
        return 2e-3
    if any(n in names or n in source for n in _SINGLE):
        return 2e-5
    return 1e-9


def _perturbed(values, rng, ulps=4):
    """``values`` with every float moved by ``ulps`` units in the last place, up or down
    (a Python float stays a Python float, a Python int stays as it is)."""
    out = []
    for v in values:
        if isinstance(v, dict):
            out.append(dict(zip(v, _perturbed(list(v.values()), rng, ulps))))
            continue
        if isinstance(v, list):
            out.append(_perturbed(v, rng, ulps))
            continue
        if isinstance(v, bool | int):
            out.append(v)
            continue
        if isinstance(v, float):
            out.append(float(v * (1 + np.finfo(np.float64).eps * ulps * rng.choice([-1.0, 1.0]))))
            continue
        v = np.asarray(v)
        if v.dtype.kind in "fc":
            step = np.finfo(v.dtype).eps * ulps * rng.choice([-1.0, 1.0], size=v.shape)
            with np.errstate(all="ignore"):
                v = np.array(v * (1 + step), dtype=v.dtype)
        out.append(np.array(v))
    return out


def _run(fn, args, calls=1, rebind=None):
    """``fn(*args)`` ``calls`` times on the same arguments, ``rebind(i)`` before each call
    after the first: the last result, or the error."""
    try:
        for i in range(calls):
            if i and rebind is not None:
                rebind(i)
            result = fn(*args)
        return result, None
    except Exception as e:  # noqa: BLE001
        return None, e


def _copy(v):
    if isinstance(v, np.ndarray):
        return np.copy(v)
    return copy.deepcopy(v) if isinstance(v, (dict, list)) else v


def _copies(values):
    """Copies of ``values``; an argument passed twice (``f(a, a, ...)``) is one copy passed
    twice, so that writes through one name show through the other, as in the original."""
    out = []
    for i, v in enumerate(values):
        same = next((j for j in range(i) if values[j] is v), None)
        out.append(out[same] if same is not None else _copy(v))
    return out


def _fresh_globals(fn, source):
    """Sets the module globals a program writes (``STATE_<seed>``, ``OBJ_<seed>``, the
    Generator ``RNG_<seed>``) as the program's module sets them; returns a function that
    reads what they hold."""
    for name in set(re.findall(r"\bSCALE_\d+\b", source)):
        fn.__globals__[name] = 1.0
    for name in set(re.findall(r"\bRNG_\d+\b", source)):
        # In place: the compiled function draws from the module's Generator object.
        fn.__globals__[name].bit_generator.state = \
            np.random.default_rng(int(name[4:])).bit_generator.state
    names = sorted(set(re.findall(r"\b(?:STATE|OBJ|SEEN|RNG)_\d+\b", source)))
    for name in names:
        # Reset in place: the program's module keeps these objects, as a user's would.
        state = fn.__globals__[name]
        if name.startswith(("STATE", "SEEN")):
            state.clear()
        elif name.startswith("OBJ"):
            vars(state).clear()
            vars(state).update(v=0.0, count=0)
    return lambda: {name: _state(copy.deepcopy(fn.__globals__[name])) for name in names}


def _rebinder(fn, source):
    """Rebinds the module globals ``SCALE_<seed>`` the program reads (a setting changed
    between calls): the second call must read the new value."""
    names = set(re.findall(r"\bSCALE_\d+\b", source))

    def rebind(i):
        for name in names:
            fn.__globals__[name] = 1.0 + 0.5 * i
    return rebind if names else None


def compare(fn, values, jit, source="", seed=0, outcomes=None):
    """None when nptf agrees with NumPy (or the program is ill-conditioned), else a description.

    ``outcomes`` (a ``collections.Counter``) counts how each comparison ended: ``agreed``,
    ``skipped: ...`` (a program whose result is not defined closely enough to compare),
    ``both raised``, ``refused: <error type>: <reason>`` (nptf said it cannot compile it:
    not a wrong answer, but code nptf does not cover) and ``mismatch``."""
    count = outcomes.update if outcomes is not None else (lambda _: None)
    problem = _compare(fn, values, jit, source, seed, lambda what: count([what]))
    if problem:
        count(["mismatch"])
    return problem


def refusal_reason(error):
    """The kind of an nptf refusal: its type and first line, with the names, numbers and
    places of the one program left out."""
    text = str(error).splitlines()[0] if str(error) else ""
    text = re.sub(r"\S*\.py:\d+|<[^>]*>:\d+", "<line>", text)
    # Names left out, but np (a module taken for a variable is a reason of its own).
    text = re.sub(r"`([^`]*)`", lambda n: n.group(0) if n.group(1) == "np" else "`_`", text)
    text = re.sub(r"'[^']*'", "'_'", text)
    text = re.sub(r"Var\([^)]*\)", "Var(_)", text)
    text = re.sub(r"\b\d+\b", "N", text)
    text = re.sub(r"\bprogram_\w+", "program", text)
    return f"{type(error).__name__}: {text[:200]}"


# The compile budget programs compile within (None: nptf's default); the test command
# sets a shorter one, refusing the few programs that would take longer there.
COMPILE_BUDGET = None


def _compare(fn, values, jit, source, seed, count):
    with contextlib.redirect_stdout(io.StringIO()):     # the extra runs' prints
        expected = _numpy_side(fn, values, source, seed, count)
    if expected is None:
        return None
    return _nptf_side(fn, values, jit, source, count, *expected)


def _numpy_side(fn, values, source, seed, count):
    """NumPy's result, what it wrote and the globals it left, or None (counted) for a
    program not defined closely enough to compare."""
    # A program that writes Python state runs twice: a write done once, at trace time,
    # shows in the second call.
    calls = 2 if "STATE_" in source else 1
    written = _copies(values)
    numpy_globals = _fresh_globals(fn, source)
    printed = io.StringIO()
    with warnings.catch_warnings(record=True) as caught, np.errstate(all="warn"), \
            contextlib.redirect_stdout(printed):
        warnings.simplefilter("always")
        expected, err = _run(fn, written, calls, _rebinder(fn, source))
    numpy_globals = numpy_globals()
    if any("invalid value encountered in cast" in str(w.message) for w in caught):
        count("skipped: a cast of NaN or out of range")
        return None     # NaN or out of range to an integer: C leaves the value undefined
    if _complex_power_of_infinities(values, source, caught):
        count("skipped: complex power or BLAS product of infinities")
        return None     # a difference docs/differences-from-numpy.md names
    tol = _tolerance(values, source)
    if err is None and _unspecified_zero_sign(fn, values, source, calls, tol):
        count("skipped: sign of a zero fmax/fmin chooses")
        return None
    if err is None:
        rng = np.random.default_rng(seed)
        for _ in range(2):          # ill-conditioned: NumPy disagrees with itself
            moved_args = _perturbed(values, rng)
            _fresh_globals(fn, source)
            with warnings.catch_warnings(), np.errstate(all="ignore"), \
                    contextlib.redirect_stdout(io.StringIO()):
                warnings.simplefilter("ignore")
                moved, moved_err = _run(fn, moved_args, calls, _rebinder(fn, source))
            # What the program writes into its arguments counts as much as what it returns
            # (a program may return None).
            if moved_err is not None or _mismatch(expected, moved, tol) is not None or \
                    _mismatch(tuple(_state(v) for v in written),
                              tuple(_state(v) for v in moved_args), tol) is not None:
                count("skipped: ill-conditioned")
                return None
        if _moved_by_last_bits(fn, values, source, calls, tol, seed, expected, written):
            count("skipped: ill-conditioned")
            return None
    return expected, err, written, numpy_globals, calls, tol, printed.getvalue()


def _nptf_side(fn, values, jit, source, count, expected, err, written, numpy_globals, calls,
               tol, numpy_printed):
    """The compiled function's result against NumPy's: None, or the difference."""
    args = _copies(values)
    nptf_globals = _fresh_globals(fn, source)
    printed = io.StringIO()
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"), \
                contextlib.redirect_stdout(printed):
            warnings.simplefilter("ignore")
            # adaptive=False: every call runs the graph (the second call of a stateful
            # program would run NumPy by default).
            compiled = nptf.compile(fn, jit_compile=jit, fallback="raise", adaptive=False,
                                    **({"compile_budget": COMPILE_BUDGET} if COMPILE_BUDGET
                                       else {}))
            got, e = _run(compiled, args, calls, _rebinder(fn, source))
            if e is not None:
                raise e
    except nptf.errors.NptfError as e:
        count("refused: " + refusal_reason(e))
        return None     # what nptf cannot compile (branches of different dtypes), said so
    except Exception as e:  # noqa: BLE001
        # Both raise. Which error comes first may differ: nptf raises what it finds while
        # tracing (a dtype a ufunc refuses) before what depends on the data (a shape).
        # And it traces both branches of an `if`, where NumPy runs one.
        # The untaken branch may raise what NumPy's data would (a shape, a dtype); a
        # NameError (an unbound local) never: the generated programs bind every name
        # before any branch, so it would be the converter's.
        if err is not None or ("    if " in source and not isinstance(e, NameError)):
            count("both raised" if err is not None else
                  "raised in a program with an if: " + refusal_reason(e))
            return None
        return f"raised {type(e).__name__}: {str(e).splitlines()[0]}"
    if err is not None:
        return f"returned where NumPy raised {type(err).__name__}: {err}"
    # A `while` on traced values may run no step (docs/control-flow.md: the body's type
    # all the same).
    branches = "    while " in source
    problem = _mismatch(expected, got, tol, branches)
    if problem is None:
        problem = _mismatch(tuple(_state(v) for v in written), tuple(_state(v) for v in args),
                            tol)
        problem = problem and "arguments after the call: " + problem
    if problem is None:
        problem = _mismatch(numpy_globals, nptf_globals(), tol)
        problem = problem and "module globals after the call: " + problem
    if problem is None and printed.getvalue() != numpy_printed:
        problem = (f"printed {printed.getvalue()[:300]!r} where NumPy printed "
                   f"{numpy_printed[:300]!r}")
    if problem is None:
        count("agreed")
    return problem


def _run_as(numpy, fn, values, source, calls):
    """``fn`` run on copies of ``values`` with ``numpy`` as its ``np``: the result, the
    error and the arguments after the call."""
    args = _copies(values)
    saved = fn.__globals__["np"]
    fn.__globals__["np"] = numpy
    _fresh_globals(fn, source)
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            result, error = _run(fn, args, calls, _rebinder(fn, source))
    finally:
        fn.__globals__["np"] = saved
    return result, error, args


class _TiesTo:
    """``np`` but for ``fmax`` and ``fmin``, whose tie between zeros of both signs gives
    ``zero`` (``+0.0`` or ``-0.0``)."""

    def __init__(self, zero):
        self._zero = zero

    def __getattr__(self, name):
        if name not in ("fmax", "fmin"):
            return getattr(np, name)
        ufunc, zero = getattr(np, name), self._zero

        def tie(x, y, *args, **kwargs):
            out = ufunc(x, y, *args, **kwargs)
            with np.errstate(all="ignore"):
                both = (np.asarray(x) == 0) & (np.asarray(y) == 0) & \
                    (np.signbit(x) != np.signbit(y))
            if not np.any(both):
                return out
            out = np.array(out)
            out[np.broadcast_to(both, out.shape)] = zero
            return out if out.ndim else out[()]
        return tie


def _unspecified_zero_sign(fn, values, source, calls, tol):
    """Whether the program's result hangs on the sign of ``fmax(0.0, -0.0)`` or ``fmin``'s
    (a 1 divided by it, say). IEEE 754 leaves that sign open and NumPy's answer depends on
    the element's place in the array (its vector loop gives the second operand, its
    scalar loop the first), so no compiler can match it."""
    if "np.fmax" not in source and "np.fmin" not in source:
        return False
    results = []
    for zero in (0.0, -0.0):
        result, error, args = _run_as(_TiesTo(zero), fn, values, source, calls)
        if error is not None:
            return False
        results.append((result, tuple(_state(v) for v in args)))
    return _mismatch(results[0], results[1], tol) is not None


# Ufuncs NumPy computes with a libm (or SIMD) approximation: another correct kernel may
# round them the other way (XLA's tanh of a large number is one ulp below 1.0).
_APPROXIMATE_UFUNCS = frozenset(
    "exp exp2 expm1 log log2 log10 log1p sin cos tan arcsin arccos arctan sinh cosh tanh "
    "arcsinh arccosh arctanh arctan2 hypot logaddexp logaddexp2 power float_power cbrt".split())
# Sums in an order of NumPy's choosing (pairwise, SIMD lanes): another order moves the
# result by up to about eps times the sum of the magnitudes, an overflow included.
_SUMS = frozenset("sum nansum mean nanmean cumsum nancumsum".split())


def _toward(out, true, chosen, ulps=None):
    """``out`` moved where ``chosen`` and not exact: one ulp toward ``true`` (the other
    float that brackets the exact value, which a faithfully rounding kernel may return),
    or, with ``ulps`` (signed, per element), that many ulps (XLA's sinh, expm1 and tanh
    are up to 4-6 ulps from the exact value)."""
    if out.dtype.kind == "c":
        return _toward(out.real, true.real, chosen, ulps) + \
            1j * _toward(out.imag, true.imag, chosen, ulps)
    with np.errstate(all="ignore"):
        if ulps is None:
            step = np.where(true > out, 1, -1)
        else:
            step = ulps
        moved = out + step * np.spacing(np.abs(out))
        moved = np.where(true != out, moved, out)
    return np.where(chosen & np.isfinite(out), moved, out).astype(out.dtype)


def _wide(v):
    """``v`` in extended precision, for the exact value of a float function."""
    a = np.asarray(v)
    if a.dtype.kind in "biuf":
        return a.astype(np.longdouble)
    return a.astype(np.clongdouble) if a.dtype.kind == "c" else v


class _Nudged:
    """``np`` whose inexact functions return what another correctly working kernel may
    return: approximate ufuncs the other float that brackets the exact value (computed
    in extended precision) where ``everywhere``, else 4 ulps (float16: 1) up or down in a
    random half of the elements; sums moved by eps times the sum of the magnitudes unless every
    order adds exactly (integers below 2**mantissa bits). Exact values (cosh(0)) and
    exact operations stay as they are."""

    def __init__(self, rng, everywhere):
        self._rng, self._everywhere = rng, everywhere

    def _chosen(self, shape):
        return np.full(shape, True) if self._everywhere else self._rng.random(shape) < 0.5

    def approximate(self, ufunc):
        def nudged(*args, **kwargs):
            out = ufunc(*args, **kwargs)
            if "out" in kwargs or not isinstance(out, (np.ndarray, np.inexact)) or \
                    out.dtype.kind not in "fc" or np.finfo(np.longdouble).nmant <= 52:
                return out
            rest = {k: v for k, v in kwargs.items() if k not in ("dtype", "casting", "signature")}
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                try:
                    true = np.asarray(ufunc(*map(_wide, args), **rest))
                except TypeError:
                    return out
                shape = np.shape(out)
                # float16 functions run in float32 on every executor: one rounding apart.
                far = 1 if out.dtype == np.float16 else 4
                ulps = None if self._everywhere else self._rng.choice([-far, far], size=shape)
                moved = _toward(np.asarray(out), true, self._chosen(shape), ulps)
            return moved if isinstance(out, np.ndarray) else moved[()]
        return nudged

    def summed(self, call):
        def nudged(x, *args, **kwargs):
            out = call(x, *args, **kwargs)
            if "out" in kwargs or not isinstance(out, (np.ndarray, np.inexact)) or \
                    out.dtype.kind not in "fc":
                return out
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                terms = np.asarray(x)
                magnitude = np.asarray(call(np.abs(terms), *args, **kwargs)).real
                exact = terms.dtype.kind in "biu" or np.all(np.isfinite(terms) & (
                    np.round(terms) == terms))
                bits = np.finfo(out.dtype).nmant + 1
                if exact and np.all(np.abs(magnitude) < 2.0 ** bits):
                    return out
                step = np.finfo(out.dtype).eps * magnitude * np.where(
                    self._rng.random(np.shape(out)) < 0.5, -1.0, 1.0)
                step = np.where(self._chosen(np.shape(out)), step, 0.0)
                moved = np.where(np.isfinite(out), np.asarray(out) + step, out).astype(out.dtype)
            return moved if isinstance(out, np.ndarray) else moved[()]
        return nudged

    def __getattr__(self, name):
        attr = getattr(np, name)
        if isinstance(attr, np.ufunc) and (name in _APPROXIMATE_UFUNCS or name == "add"):
            return _NudgedUfunc(attr, self)
        if name in _SUMS:
            return self.summed(attr)
        return attr


class _NudgedUfunc:
    def __init__(self, ufunc, nudged):
        self._ufunc, self._nudged = ufunc, nudged

    def __call__(self, *args, **kwargs):
        if self._ufunc.__name__ == "add":
            return self._ufunc(*args, **kwargs)
        return self._nudged.approximate(self._ufunc)(*args, **kwargs)

    def __getattr__(self, name):
        attr = getattr(self._ufunc, name)
        if self._ufunc.__name__ == "add" and name in ("reduce", "accumulate"):
            return self._nudged.summed(attr)
        return attr


def _moved_by_last_bits(fn, values, source, calls, tol, seed, expected, written):
    """Whether NumPy's own result (returned or written into the arguments) moves when
    its inexact calls round as another correct kernel may (``_Nudged``), tried twice."""
    rng = np.random.default_rng(seed + 1)
    for everywhere in (True, False):
        moved, error, args = _run_as(_Nudged(rng, everywhere), fn, values, source, calls)
        if error is not None or _mismatch(expected, moved, tol) is not None or \
                _mismatch(tuple(_state(v) for v in written),
                          tuple(_state(v) for v in args), tol) is not None:
            return True
    return False


def _complex_power_of_infinities(values, source, caught=()):
    """Complex powers, and complex products summed by BLAS (np.dot, matmul, einsum's
    BLAS path), of infinities (in the inputs, or made on the way: NumPy's warnings
    ``caught`` say so): NumPy itself disagrees there (with z = [inf + 0j], np.dot(z, z)
    is nan+nanj where np.sum(z * z) is inf+nanj)."""
    complex_ = "complex" in source or any(np.asarray(v).dtype.kind == "c" for v in values)
    infinite = any(np.asarray(v).dtype.kind in "fc" and not np.all(np.isfinite(v))
                   for v in values) or any("divide by zero" in str(w.message) or
                                           "overflow" in str(w.message) for w in caught)
    return complex_ and infinite and any(
        word in source for word in ("**", "power", "np.dot", "matmul", "@"))


def _mismatch(expected, got, tol, branches=False):
    """``harness.mismatch`` of each returned value, floats within ``tol`` at the least.
    ``branches``: a Python number before a traced loop that runs no step comes back as
    the body's NumPy scalar (docs/control-flow.md)."""
    if isinstance(expected, tuple) and isinstance(got, tuple) and len(expected) == len(got):
        for i, (e, g) in enumerate(zip(expected, got)):
            problem = _mismatch(e, g, tol, branches)
            if problem:
                return f"value {i}: {problem}"
        return None
    if branches and isinstance(expected, (bool, int, float, complex)) and \
            isinstance(got, np.generic):
        expected = np.asarray(expected, got.dtype)[()]
    if branches and type(expected) in (bool, int) and type(got) in (float, complex) and \
            expected == got:
        expected = got
    own = tolerance(np.asarray(expected).dtype) if isinstance(expected, (np.ndarray, np.generic)) \
        else 0
    return mismatch(expected, got, max(tol / own, 1.0) if own else 1.0)


FAMILIES = {"expressions": (program_source, program_inputs),
            "loops": (loop_program_source, loop_program_inputs),
            "nested": (nested_program_source, loop_program_inputs),
            "effects": (effects_program_source, effects_program_inputs)}


def _describe_inputs(values):
    return [(v.dtype.name, v.shape) if isinstance(v, np.ndarray) else v for v in values]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--family", choices=sorted(FAMILIES), default="expressions")
    args = parser.parse_args(argv)
    source, inputs = FAMILIES[args.family]
    seeds = list(range(args.seed, args.seed + args.count))
    outcomes = {False: collections.Counter(), True: collections.Counter()}
    with tempfile.TemporaryDirectory() as directory:
        programs = load_programs(seeds, directory, source)
        failures = 0
        for seed, fn in zip(seeds, programs):
            values = inputs(seed)
            for jit in (False, True):
                before = outcomes[jit].copy()
                problem = compare(fn, values, jit, source(seed, f"program_{seed}"), seed,
                                  outcomes[jit])
                for what in outcomes[jit] - before:
                    if what.startswith(("refused", "raised")):    # which seeds, to look into
                        print(f"({what.split(':')[0]} seed {seed} jit_compile={jit}: "
                              f"{what.split(': ', 1)[1]})", flush=True)
                if problem:
                    failures += 1
                    print(f"seed {seed} jit_compile={jit}: {problem}\n"
                          f"  inputs {_describe_inputs(values)}\n"
                          f"{source(seed, f'program_{seed}')}\n", flush=True)
    for jit in (False, True):
        print(f"jit_compile={jit}:")
        for what, k in sorted(outcomes[jit].items(), key=lambda item: (-item[1], item[0])):
            print(f"  {k:6d}  {what}")
    print(f"{failures} mismatches in {len(seeds)} programs ({args.family}, seeds {seeds[0]}-"
          f"{seeds[-1]})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
