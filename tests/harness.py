"""Compare compiled functions with NumPy: exact dtype, shape and scalar-ness, close values."""
from __future__ import annotations

import collections
import copy
import warnings

import numpy as np

import nptf

TOL = {np.float16: 2e-3, np.float32: 2e-5, np.float64: 1e-9}


def tolerance(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        dtype = np.empty(0, dtype).real.dtype
    return TOL.get(dtype.type, 0)


def run_numpy(fn, *args):
    """NumPy's result, or the exception it raises."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(*args), None
        except Exception as e:  # noqa: BLE001
            return None, e


def describe(x):
    if isinstance(x, (tuple, list)):
        return type(x).__name__ + "(" + ", ".join(describe(v) for v in x) + ")"
    if isinstance(x, np.ndarray):
        return f"ndarray[{x.dtype}{list(x.shape)}]"
    if isinstance(x, np.generic):
        return f"{type(x).__name__}"
    return type(x).__name__


def mismatch(expected, got, rtol_scale=1.0):
    """None when ``got`` matches NumPy's ``expected``; otherwise a description."""
    if isinstance(expected, dict):
        if not isinstance(got, dict) or list(got) != list(expected):
            return f"structure {describe(got)} != {describe(expected)}"
        return mismatch(tuple(expected.values()), tuple(got.values()), rtol_scale)
    if isinstance(expected, (tuple, list)):
        if type(got) is not type(expected) or len(got) != len(expected):
            return f"structure {describe(got)} != {describe(expected)}"
        for e, g in zip(expected, got):
            m = mismatch(e, g, rtol_scale)
            if m:
                return m
        return None
    if isinstance(expected, np.ndarray) != isinstance(got, np.ndarray) or \
            isinstance(expected, np.generic) != isinstance(got, np.generic):
        return f"kind {describe(got)} != {describe(expected)}"
    if isinstance(expected, np.random.Generator):
        # A Generator argument: left in the state NumPy's draws leave it.
        if not isinstance(got, np.random.Generator) or \
                repr(got.bit_generator.state) != repr(expected.bit_generator.state):
            return "a Generator's state differs after the call"
        return None
    if not isinstance(expected, (np.ndarray, np.generic)):
        if type(expected) is not type(got):
            return f"type {type(got).__name__} != {type(expected).__name__}"
        if expected is None or isinstance(expected, (str, bytes)):
            return None if expected == got else f"value {got!r} != {expected!r}"
        if type(expected) is not type(got):
            return f"type {type(got).__name__} != {type(expected).__name__}"
        return None if np.allclose(expected, got, equal_nan=True) else f"value {got} != {expected}"
    if got.dtype != expected.dtype:
        return f"dtype {got.dtype} != {expected.dtype}"
    if np.shape(got) != np.shape(expected):
        return f"shape {np.shape(got)} != {np.shape(expected)}"
    tol = tolerance(expected.dtype) * rtol_scale
    if expected.dtype.kind == "c":
        return mismatch(np.real(expected), np.real(got), rtol_scale) or \
            mismatch(np.imag(expected), np.imag(got), rtol_scale)
    try:
        if tol == 0:
            np.testing.assert_array_equal(got, expected)
        else:
            np.testing.assert_allclose(got, expected, rtol=tol, atol=tol, equal_nan=True)
    except AssertionError as e:
        return "values differ:" + str(e)[:600]
    return None


def copy_like(a):
    """A copy of ``a`` with its strides (a Fortran-ordered or strided argument stays one:
    which reshapes are views, and so which writes reach it, depends on them)."""
    if a.flags.c_contiguous or a.flags.f_contiguous:
        return np.copy(a, order="K")
    ends = [(n - 1) * s for n, s in zip(a.shape, a.strides)]
    low = sum(min(0, e) for e in ends)
    size = sum(max(0, e) for e in ends) - low + a.itemsize
    out = np.ndarray(a.shape, a.dtype, buffer=np.zeros(size, np.uint8), offset=-low,
                     strides=a.strides)
    out[...] = a
    return out


def _copies(args):
    return [_copy(a) for a in args]


def _copy(a):
    """A copy of an argument down to its arrays (in their layout), so each run writes its own."""
    if isinstance(a, np.ndarray):
        return copy_like(a)
    if type(a) in (list, tuple):
        return type(a)(_copy(v) for v in a)
    if type(a) is dict:
        return {k: _copy(v) for k, v in a.items()}
    if isinstance(a, np.random.Generator):
        # Each run draws from a Generator of its own, in the same state.
        return copy.deepcopy(a)
    return a


# The compiled functions of the last functions checked: parametrized tests check one
# function with many arguments, and arguments of a signature seen before (a Python
# float's value, an array's values) reuse its graph, as a user's repeated calls do,
# instead of building it again. Bounded: a test's lambdas are new every time.
_COMPILED = collections.OrderedDict()
_COMPILED_MAX = 16


def compiled_for_check(fn, jit=False, **compile_kw):
    """``nptf.compile(fn, jit_compile=jit, fallback="raise", **compile_kw)``, reused while
    it is among the last functions checked."""
    key = (fn, jit, tuple(sorted(compile_kw.items())))
    try:
        compiled = _COMPILED.pop(key)
    except (KeyError, TypeError):     # TypeError: an option that cannot be hashed
        # Each new shape traced for itself, as a fresh compile's first call: a graph
        # relaxed to the shapes of earlier checks is tested where a test asks for it.
        compile_kw = {"relax": False, **compile_kw}
        compiled = nptf.compile(fn, jit_compile=jit, fallback="raise", **compile_kw)
    try:
        _COMPILED[key] = compiled
    except TypeError:
        return compiled
    while len(_COMPILED) > _COMPILED_MAX:
        _COMPILED.popitem(last=False)
    return compiled


def check_against_numpy(fn, *args, jit=False, rtol_scale=1.0, **compile_kw):
    """Assert ``nptf.compile(fn)(*args)`` equals ``fn(*args)`` (or raises the same type),
    including what the function writes into its array arguments."""
    numpy_args, nptf_args = _copies(args), _copies(args)
    expected, err = run_numpy(fn, *numpy_args)
    compiled = compiled_for_check(fn, jit, **compile_kw)
    args = nptf_args
    if err is not None:
        try:
            compiled(*args)
        except type(err):
            return
        except Exception as e:  # noqa: BLE001
            raise AssertionError(f"NumPy raised {type(err).__name__}: {err}; nptf raised "
                                 f"{type(e).__name__}: {e}") from e
        raise AssertionError(f"NumPy raised {type(err).__name__}: {err}; nptf did not")
    got = compiled(*args)
    m = mismatch(expected, got, rtol_scale)
    assert m is None, m
    m = mismatch(tuple(numpy_args), tuple(nptf_args), rtol_scale)
    assert m is None, "arguments after the call: " + m
    return got


def assert_same(actual, expected):
    """Same dtype and shape, values within 1e-6 relative."""
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    np.testing.assert_allclose(actual, expected, rtol=1e-6)


def fake_clock(durations):
    """perf_counter stand-in: the n-th timed call lasts durations[n]."""
    readings = iter([t for d in durations for t in (0.0, d)])
    return lambda: next(readings)


def dtype_and_executor(dtypes, under_xla):
    """``(dtype, jit)`` cases: every dtype on the plain executor, ``under_xla`` of them
    under XLA too. For sweeps whose dtypes take one lowering each way (what they sweep is
    NumPy's semantics, decided while tracing): each XLA compile costs about a second."""
    return [(d, False) for d in dtypes] + [(d, True) for d in dtypes if d in under_xla]
