"""The ``math`` module's functions of traced numbers (``math.sqrt(var)``,
``math.exp(-d / T)``, ``math.atan2(y, x)``), as Python computes them.

``math`` converts its arguments with ``float()`` and returns Python floats (ints for
``floor``/``ceil``/``trunc``, bools for ``isnan``/``isinf``/``isfinite``/``isclose``): here
the argument becomes a traced Python float (``float(x)`` of one element), NumPy's
function of it gives the value (the C library's, as NumPy's is), and the result is a
traced Python number again. Where ``math`` raises and NumPy gives NaN or an infinity
(``math.sqrt(-1.0)``, ``math.log(0.0)``, ``math.exp(1000.0)``), a check raises Python's
error, ``ValueError("math domain error")`` or ``OverflowError("math range error")``,
after the graph runs. The other functions of ``math`` take traced numbers as Python does
(``float()`` of a traced value, a conversion error).
"""
from __future__ import annotations

import functools
import math

import numpy as np

from ..errors import user_location
from . import numpy_api as api
from . import python_numbers
from .tracer import Tracer, emit

_DOMAIN, _RANGE = "math domain error", "math range error"

# name: (NumPy's function, what an infinite result of finite arguments raises: None where
# math returns it, "ValueError" at a pole, "OverflowError" past the float range)
_FLOAT_FUNCTIONS = {
    "sqrt": (np.sqrt, None), "exp": (np.exp, "OverflowError"),
    "expm1": (np.expm1, "OverflowError"), "log2": (np.log2, "ValueError"),
    "log10": (np.log10, "ValueError"), "log1p": (np.log1p, "ValueError"),
    "sin": (np.sin, None), "cos": (np.cos, None), "tan": (np.tan, None),
    "asin": (np.arcsin, None), "acos": (np.arccos, None), "atan": (np.arctan, None),
    "sinh": (np.sinh, "OverflowError"), "cosh": (np.cosh, "OverflowError"),
    "tanh": (np.tanh, None), "asinh": (np.arcsinh, None), "acosh": (np.arccosh, None),
    "atanh": (np.arctanh, "ValueError"), "fabs": (np.abs, None),
    "degrees": (np.degrees, None), "radians": (np.radians, None),
    "atan2": (np.arctan2, None), "hypot": (np.hypot, None),
    "copysign": (np.copysign, None), "fmod": (np.fmod, None),
}
_ARITY = {"atan2": 2, "hypot": 2, "copysign": 2, "fmod": 2}


def math_function(fn):
    """The traced version of ``fn`` where it is one of ``math``'s functions nptf computes
    in the graph; None otherwise."""
    name = getattr(fn, "__name__", None)
    if getattr(fn, "__module__", None) != "math" or getattr(math, name or "", None) is not fn:
        return None
    if name in _FLOAT_FUNCTIONS or name in ("log", "pow", "floor", "ceil", "trunc", "isnan",
                                             "isinf", "isfinite", "isclose", "erf", "erfc", "gamma",
                                             "lgamma",
                                             "gcd", "lcm", "isqrt"):
        return lambda *args, **kwargs: _call(fn, name, args, kwargs)
    return None


def _traced(x):
    return isinstance(x, Tracer)


def _python_number(fn, x):
    """``float(x)`` or ``int(x)``: of one traced element, a traced Python number."""
    if not isinstance(x, Tracer) or x.dtype.kind not in "biuf" or x.size != 1:
        return fn(x)
    return python_numbers.from_element(fn, api.reshape_to(x, ()))


def _as_float(x):
    """``float(x)`` as ``math`` takes it: a traced Python float, kept strong (float64) for
    NumPy's functions."""
    value = _python_number(float, x)
    if not isinstance(value, Tracer):
        return np.float64(value)
    return emit("convert", [value], {"dtype": np.dtype(np.float64)}, scalar=True)


def _python_float(x):
    return emit("convert", [x], {"dtype": np.dtype(np.float64), "weak": True}, scalar=True)


def _python_bool(x):
    return emit("convert", [x], {"dtype": np.dtype(np.bool_), "weak": True}, scalar=True)


def _raising(value, ok, error, message):
    return emit("check", [value, ok], {"error": error,
                                      "message": f"{message}\n  at {user_location()}"},
                scalar=True)


def _numbers(args):
    """Whether ``args`` are numbers ``math`` takes and one at least is a traced one of one
    element of a real kind."""
    return any(_traced(a) for a in args) and all(
        (isinstance(a, Tracer) and a.dtype.kind in "biuf" and a.size == 1) or
        (not isinstance(a, Tracer) and isinstance(a, (int, float, np.integer, np.floating)))
        for a in args)


_FACTORIALS = np.array([float(math.factorial(k)) for k in range(23)])


def _gamma(name, x):
    """``math.gamma``/``math.lgamma`` of a traced float: Python's ValueError at a pole
    (zero and the negative integers) and at -inf, OverflowError past the float range."""
    log_abs = emit("lgamma", [x], scalar=True)
    pole = (x == np.floor(x)) & (x <= 0) | (x == -np.inf)
    log_abs = _raising(log_abs, np.logical_not(pole), "ValueError", _DOMAIN)
    if name == "lgamma":
        return _python_float(log_abs)
    # Γ is negative between -2k-1 and -2k (k >= 0).
    negative = (x < 0) & (np.floor(x) % 2 != 0)
    out = np.where(negative, -np.exp(log_abs), np.exp(log_abs))
    # Python's Γ of 1 .. 23 is the exact factorial (a table, as CPython's).
    whole = (x == np.floor(x)) & (x >= 1) & (x <= len(_FACTORIALS))
    at = api.astype(np.where(whole, x, 1.0), np.int64) - 1
    out = np.where(whole, api.asarray(_FACTORIALS)[at], out)
    out = np.where(np.isnan(x), x, np.where(x == np.inf, np.inf, out))
    past = np.isinf(out) & np.isfinite(x)
    return _python_float(_raising(out, np.logical_not(past), "OverflowError", _RANGE))


def _call(fn, name, args, kwargs):
    if name == "isclose":
        return _isclose(fn, args, kwargs)
    if name in ("gcd", "lcm", "isqrt"):
        return _integer_function(fn, name, args, kwargs)
    if name in ("gamma", "lgamma"):
        if kwargs or len(args) != 1 or not _numbers(args):
            return fn(*args, **kwargs)
        return _gamma(name, _as_float(args[0]))
    if name in ("erf", "erfc"):
        if kwargs or len(args) != 1 or not _numbers(args):
            return fn(*args, **kwargs)
        return _python_float(emit("erf", [_as_float(args[0])], {"complement": name == "erfc"},
                                  scalar=True))
    if name == "hypot" and len(args) != 2:
        if kwargs or not _numbers(args):
            return fn(*args, **kwargs)
        return _hypot(args)
    counts = (1, 2) if name == "log" else (2,) if name == "pow" else (_ARITY.get(name, 1),)
    if kwargs or len(args) not in counts or not _numbers(args):
        return fn(*args, **kwargs)
    if name in ("floor", "ceil", "trunc"):
        return _to_int(name, args[0])
    xs = [_as_float(a) for a in args]
    if name in ("isnan", "isinf", "isfinite"):
        return _python_bool(getattr(np, name)(xs[0]))
    if name == "log":
        return _log(xs)
    if name == "pow":
        numpy_fn, at_infinity = np.power, None
    else:
        numpy_fn, at_infinity = _FLOAT_FUNCTIONS[name]
    out = numpy_fn(*xs)
    finite_in = functools.reduce(np.logical_and, [np.isfinite(x) for x in xs])
    any_nan_in = functools.reduce(np.logical_or, [np.isnan(x) for x in xs])
    if name == "pow":
        # Python's pow: 1 ** y and x ** 0 are 1 even for NaN, as NumPy's; a NaN of
        # numbers that are not NaN is a negative number to a fractional power.
        out = _raising(out, np.logical_not(np.isnan(out)) | any_nan_in, "ValueError", _DOMAIN)
        pole = np.isinf(out) & finite_in & (xs[0] == 0)
        out = _raising(out, np.logical_not(pole), "ValueError", _DOMAIN)
        past = np.isinf(out) & finite_in & (xs[0] != 0)
        return _python_float(_raising(out, np.logical_not(past), "OverflowError", _RANGE))
    out = _raising(out, np.logical_not(np.isnan(out)) | any_nan_in, "ValueError", _DOMAIN)
    if at_infinity is not None:
        wrong = np.isinf(out) & finite_in
        out = _raising(out, np.logical_not(wrong), at_infinity,
                       _DOMAIN if at_infinity == "ValueError" else _RANGE)
    return _python_float(out)


def _hypot(args):
    """``math.hypot(*coordinates)`` of any number of them (``math.hypot(*x)`` of an array of
    a known length): the length of the vector, as np.hypot folds it pair by pair (no
    overflow or underflow of the squares); an infinite coordinate gives inf even beside a
    NaN, as in Python."""
    xs = [np.abs(_as_float(a)) for a in args]
    out = functools.reduce(np.hypot, xs)
    infinite = functools.reduce(np.logical_or, [np.isinf(x) for x in xs])
    return _python_float(np.where(infinite, np.inf, out))


def _log(xs):
    """``math.log(x)`` and ``math.log(x, base)``: Python divides the two logs, so a base of
    1 divides by zero."""
    logs = []
    for x in xs:
        out = np.log(x)
        out = _raising(out, np.logical_not(np.isnan(out)) | np.isnan(x), "ValueError", _DOMAIN)
        out = _raising(out, np.logical_not(np.isinf(out) & np.isfinite(x)), "ValueError",
                       _DOMAIN)
        logs.append(out)
    if len(logs) == 1:
        return _python_float(logs[0])
    den = _raising(logs[1], logs[1] != 0, "ZeroDivisionError", "float division by zero")
    return _python_float(logs[0] / den)


def _to_int(name, x):
    """``math.floor``/``ceil``/``trunc``: an int of an int, else of the float rounded so,
    with ``int()``'s errors for NaN and infinities."""
    if x.dtype.kind in "biu":
        return _python_number(int, x)
    rounded = {"floor": np.floor, "ceil": np.ceil, "trunc": np.trunc}[name](_as_float(x))
    return _python_number(int, rounded)


def _integer_function(fn, name, args, kwargs):
    """``math.gcd``/``math.lcm`` of any number of ints and ``math.isqrt`` of one, of traced
    integers: Python ints; ``isqrt`` of a negative number raises Python's ValueError."""
    if kwargs or not args or not any(_traced(a) for a in args) or not all(
            (isinstance(a, Tracer) and a.dtype.kind in "biu" and a.size == 1) or
            (not isinstance(a, Tracer) and isinstance(a, (int, np.integer))) for a in args) \
            or (name == "isqrt" and len(args) != 1):
        return fn(*args, **kwargs)
    xs = [_python_number(int, a) if _traced(a) else int(a) for a in args]
    if name == "isqrt":
        n = np.int64(0) + xs[0]
        n = _raising(n, n >= 0, "ValueError", "isqrt() argument must be nonnegative")
        root = np.floor(np.sqrt(n.astype(np.float64))).astype(np.int64)
        # The float square root may be one off past 2**52: Python's is exact.
        root = root - (root * root > n)
        root = root + ((root + 1) * (root + 1) <= n)
        return _python_number(int, root)
    if name == "gcd":
        return _python_number(int, functools.reduce(np.gcd, xs))
    out = xs[0]
    for x in xs[1:]:
        # Python's lcm has no bounds; past int64 the call is Python's to make.
        factor = np.abs(out // np.where(np.gcd(out, x) == 0, 1, np.gcd(out, x)))
        fits = factor * np.abs(np.float64(0) + x) < 2.0 ** 62
        out = python_numbers.outside_the_graph(
            np.lcm(out, x), fits, "this Python int lcm may pass int64, and Python's ints "
            "have no bounds", "compute it with np.lcm of np.int64 for NumPy's wrapping")
    return _python_number(int, out)


def _isclose(fn, args, kwargs):
    """``math.isclose(a, b, rel_tol=1e-09, abs_tol=0.0)`` of traced numbers: equal, or
    both finite and within the larger tolerance, as Python's."""
    tolerances = [kwargs.get("rel_tol", 1e-09), kwargs.get("abs_tol", 0.0)]
    if len(args) != 2 or not set(kwargs) <= {"rel_tol", "abs_tol"} or \
            not _numbers(list(args) + [t for t in tolerances if _traced(t)]):
        return fn(*args, **kwargs)
    if not any(_traced(t) for t in tolerances) and min(tolerances) < 0:
        return fn(*args, **kwargs)      # Python's ValueError
    a, b = (_as_float(v) for v in args)
    rel_tol, abs_tol = (_as_float(t) if _traced(t) else float(t) for t in tolerances)
    diff = np.abs(b - a)
    within = (diff <= np.abs(rel_tol * b)) | (diff <= np.abs(rel_tol * a)) | (diff <= abs_tol)
    close = (a == b) | (np.isfinite(a) & np.isfinite(b) & within)
    if any(_traced(t) for t in tolerances):
        close = _raising(close, (rel_tol >= 0) & (abs_tol >= 0), "ValueError",
                         "tolerances must be non-negative")
    return _python_bool(close)
