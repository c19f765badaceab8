"""Random NumPy programs, compiled and compared with NumPy.

Each program takes three arrays of random dtypes and broadcast-compatible shapes
(floats with zeros of both signs, infinities and NaN in half of them),
builds a few temporaries from operators, ufuncs, reductions, ``where``, casts,
indexing and reshaping calls (some under an ``if`` on a traced value or in a ``for``
loop), may write into its first argument, and returns its temporaries.
NumPy runs it as written; nptf must return the same dtype, shape and kind of result
with values within the tolerance of the narrowest float type the program touches,
write the same into the argument, or raise the same exception.

A program whose NumPy result moves when its float inputs move by a few ulps (a
comparison or a rounding on a computed value) is ill-conditioned: nptf's kernels
round differently from NumPy's, so it is skipped rather than compared.

By hand: ``python tests/random_programs.py --seed 0 --count 500`` prints every
mismatch with the program's source.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import random
import sys
import tempfile
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from harness import mismatch, run_numpy, tolerance  # noqa: E402

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
SCALARS = ["2", "-3", "0.5", "1e-3", "3.0", "True", "(1+2j)", "7", "255", "np.float32(2.5)",
           "np.int8(3)", "np.float64(0.1)", "np.uint8(200)", "-1.5"]
# Statements besides plain assignments: writes into an argument (through an index, an
# in-place operator or a mask), and Python control flow on traced values.
WRITES = ["a[...] = {e}", "a[0] += 1", "a += {e}", "a *= {e}", "a[1:] -= {e}", "a[::2] = {e}",
          "a[a > 0] = {e}", "a[..., -1] = {e}", "a[[0, -1]] = {e}", "np.copyto(a, {e})"]
INDEXING = ["({})[1:]", "({})[::2]", "({})[..., ::-1]", "({})[[0, -1]]", "({})[None]",
            "({})[..., 0]", "({})[({}) > 0]", "({}).T", "({}).reshape(-1)", "({})[-1]"]
CALLS = ["np.stack([{0}, {0}])", "np.repeat({0}, 2)", "np.outer({0}, {0})", "np.take({0}, [0, -1])",
         "np.sort({0}, axis=-1)", "np.argsort({0})", "np.cumsum({0}, axis=-1)",
         "np.linalg.norm({0})", "np.sum({0}, dtype=np.int8)", "np.mean({0}, dtype=np.float32)",
         "np.expand_dims({0}, 0)", "np.squeeze({0})", "np.broadcast_to({0}, (2, 3, 4))",
         "np.where({0})[0]", "np.nonzero({0})[0]", "np.flatnonzero({0})", "np.abs({0}).max()",
         "({0}).sum(axis=-1)", "({0}).astype(np.float32).mean()", "np.matmul({0}, np.ones((4, 2)))",
         "np.einsum('...i->...', {0})", "np.minimum.reduce({0}, axis=0)", "np.add.accumulate({0})",
         "np.isin({0}, [0, 1, 2])", "np.searchsorted(np.sort(np.ravel({0})), 0.5)"]
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
    if k < 0.96:
        return f"np.clip({sub()}, -2, 3)"
    inner = sub()
    form = r.random()
    if form < 0.4:
        return r.choice(RESHAPING).format(inner, inner)
    if form < 0.7:
        return r.choice(INDEXING).format(inner, inner)
    return r.choice(CALLS).format(inner)


def program_source(seed, name="f"):
    r = random.Random(seed)
    lines = [f"def {name}(a, b, c):"]
    names = ["a", "b", "c"]
    for j in range(r.randint(1, 4)):
        t, shape = f"t{j}", r.random()
        if shape < 0.1 and j:           # a branch on a traced value
            lines += [f"    if np.sum({r.choice(names)}) > 0:",
                      f"        {t} = {_expression(r, 2, names)}",
                      "    else:", f"        {t} = {_expression(r, 2, names)}"]
        elif shape < 0.2 and j:         # a loop that carries a value
            other = r.choice(names[3:])
            lines += [f"    {t} = {other} * 1", f"    for i in range({r.randint(1, 4)}):",
                      f"        {t} = {t} * 0.5 + {_expression(r, 1, names + ['i'])}"]
        else:
            lines.append(f"    {t} = {_expression(r, 3, names)}")
        names.append(t)
    if r.random() < 0.3:
        lines.append("    " + r.choice(WRITES).format(e=_expression(r, 2, names)))
    # Every temporary is returned: NumPy raises for a line whose value nobody uses, where
    # a graph drops the line.
    lines.append(f"    return ({', '.join(names[3:])},)")
    return "\n".join(lines)


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


def load_programs(seeds, directory):
    """The functions for ``seeds``, written to a module in ``directory`` (nptf reads their source)."""
    path = os.path.join(directory, f"random_programs_{seeds[0]}_{len(seeds)}.py")
    with open(path, "w") as f:
        f.write("import numpy as np\n\n\n")
        f.write("\n\n\n".join(program_source(s, f"program_{s}") for s in seeds) + "\n")
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
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
    """``values`` with every float moved by ``ulps`` units in the last place, up or down."""
    out = []
    for v in values:
        v = np.asarray(v)
        if v.dtype.kind in "fc":
            step = np.finfo(v.dtype).eps * ulps * rng.choice([-1.0, 1.0], size=v.shape)
            with np.errstate(all="ignore"):
                v = np.array(v * (1 + step), dtype=v.dtype)
        out.append(np.array(v))
    return out


def _run(fn, args):
    try:
        return fn(*args), None
    except Exception as e:  # noqa: BLE001
        return None, e


def compare(fn, values, jit, source="", seed=0):
    """None when nptf agrees with NumPy (or the program is ill-conditioned), else a description."""
    written = [np.copy(v) for v in values]
    with warnings.catch_warnings(record=True) as caught, np.errstate(all="warn"):
        warnings.simplefilter("always")
        expected, err = _run(fn, written)
    if any("invalid value encountered in cast" in str(w.message) for w in caught):
        return None     # NaN or out of range to an integer: C leaves the value undefined
    if _complex_power_of_infinities(values, source):
        return None     # a difference the README names
    tol = _tolerance(values, source)
    if err is None:
        rng = np.random.default_rng(seed)
        for _ in range(2):          # ill-conditioned: NumPy disagrees with itself
            moved, _ = run_numpy(fn, *_perturbed(values, rng))
            if moved is None or _mismatch(expected, moved, tol) is not None:
                return None
    args = [np.copy(v) for v in values]
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            got = nptf.compile(fn, jit_compile=jit, fallback="raise")(*args)
    except nptf.errors.NptfError:
        return None     # what nptf cannot compile (branches of different dtypes), said so
    except Exception as e:  # noqa: BLE001
        # Both raise. Which error comes first may differ: nptf raises what it finds while
        # tracing (a dtype a ufunc refuses) before what depends on the data (a shape).
        # And it traces both branches of an `if`, where NumPy runs one.
        if err is not None or "    if " in source:
            return None
        return f"raised {type(e).__name__}: {str(e).splitlines()[0]}"
    if err is not None:
        return f"returned where NumPy raised {type(err).__name__}: {err}"
    branches = "    if " in source
    problem = _mismatch(expected, got, tol, branches)
    if problem is None:
        problem = _mismatch(tuple(written), tuple(args), tol)
        problem = problem and "arguments after the call: " + problem
    return problem


def _complex_power_of_infinities(values, source):
    complex_ = "complex" in source or any(np.asarray(v).dtype.kind == "c" for v in values)
    infinite = any(np.asarray(v).dtype.kind in "fc" and not np.all(np.isfinite(v)) for v in values)
    return complex_ and infinite and ("**" in source or "power" in source)


def _mismatch(expected, got, tol, branches=False):
    """``harness.mismatch`` of each returned value, floats within ``tol`` at the least.
    ``branches``: a Python number on one path of an ``if`` and a NumPy scalar on the other
    comes back as the NumPy scalar (README, control flow)."""
    if isinstance(expected, tuple) and isinstance(got, tuple) and len(expected) == len(got):
        for i, (e, g) in enumerate(zip(expected, got)):
            problem = _mismatch(e, g, tol, branches)
            if problem:
                return f"value {i}: {problem}"
        return None
    if branches and isinstance(expected, (bool, int, float, complex)) and \
            isinstance(got, np.generic):
        expected = np.asarray(expected, got.dtype)[()]
    own = tolerance(np.asarray(expected).dtype) if isinstance(expected, (np.ndarray, np.generic)) \
        else 0
    return mismatch(expected, got, max(tol / own, 1.0) if own else 1.0)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=200)
    args = parser.parse_args(argv)
    seeds = list(range(args.seed, args.seed + args.count))
    with tempfile.TemporaryDirectory() as directory:
        programs = load_programs(seeds, directory)
        failures = 0
        for seed, fn in zip(seeds, programs):
            values = program_inputs(seed)
            for jit in (False, True):
                problem = compare(fn, values, jit, program_source(seed), seed)
                if problem:
                    failures += 1
                    print(f"seed {seed} jit_compile={jit}: {problem}\n"
                          f"  inputs {[(v.dtype.name, v.shape) for v in values]}\n"
                          f"{program_source(seed)}\n")
    print(f"{failures} mismatches in {len(seeds)} programs")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
