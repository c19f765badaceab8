"""SciPy functions that NumPy code calls beside NumPy's own, which convert their inputs
with ``np.asarray`` (a traced array has no value to give them): ``scipy.linalg``'s
``inv``, ``solve``, ``det``, ``cholesky``, ``norm`` and ``solve_discrete_lyapunov``,
``scipy.special``'s ``logsumexp`` and ``log_softmax``, ``scipy.stats.norm``'s ``cdf``,
``sf``, ``pdf`` and ``logpdf``, and the ``cdf`` and ``sf`` of ``scipy.stats.t`` and
``scipy.stats.chi2`` (p-values).

Each runs as the NumPy functions that compute what SciPy computes, with SciPy's own
checks (``check_finite``'s ValueError, a scale that is not positive giving NaN) and
SciPy's result: its dtype, and whether it is an array, a NumPy scalar or a Python float,
are those of SciPy's function on a sample of the inputs' dtypes (SciPy is the oracle).
SciPy stays optional: a function is known as SciPy's by identity, only once the user's
code has imported its module. Options other than these run the call with NumPy.
"""
from __future__ import annotations

import functools
import math
import sys

import numpy as np

from ..errors import unsupported, user_location
from . import numpy_api as api
from .builder import outside_trace
from .python_numbers import from_element
from .tracer import Tracer, emit, numpy_says, to_tracer


def _refused(name, what):
    return unsupported(f"{name} {what}",
                       fix="Use the NumPy function (np.linalg, np.log(np.sum(np.exp(...))), "
                           "...), or let the function run with NumPy (fallback='numpy', the "
                           "default).")


def _traced(*values):
    return any(isinstance(v, Tracer) for v in values)


def _sample(x, square=False):
    """A small array of ``x``'s dtype and rank standing for it in SciPy's own run (an
    identity where ``square``: a regular matrix)."""
    x = to_tracer(x)
    shape = tuple(2 if d is None else min(d, 3) for d in x.shape)
    if square:
        shape = shape[:-2] + (shape[-1],) * 2
        return np.broadcast_to(np.eye(shape[-1], dtype=x.dtype), shape).copy()
    return np.ones(shape, dtype=x.dtype)


def _as_scipy_gives(out, example):
    """``out`` (a traced array) as SciPy gives its result, ``example`` being SciPy's
    result on samples: its dtype, and a Python float, a NumPy scalar or an array."""
    dtype = np.asarray(example).dtype
    out = api.astype(to_tracer(out), dtype)
    if type(example) in (float, int, bool):
        return from_element(type(example), api.reshape(out, ()))
    if isinstance(example, np.generic):
        return Tracer(api.reshape(out, ()).atom, is_scalar=True)
    return out


def _scipy_says(fn, *args, **kwargs):
    """SciPy's own result on samples, with NumPy as NumPy (SciPy's calls of it are not
    traced)."""
    with outside_trace():
        return numpy_says(fn, *args, **kwargs)


def _in_dtype_of(a, example, name):
    """``a`` in the dtype of SciPy's result (integers become floats, as SciPy makes
    them). Floats SciPy computes in a wider result (``det`` of float32 is float64, from
    float32 factors) have no NumPy formula that rounds as SciPy does: the call runs with
    NumPy."""
    dtype = np.asarray(example).dtype
    if "c" in (a.dtype.kind, dtype.kind):
        raise _refused(name, "of complex values")
    if a.dtype.kind == "f" and a.dtype != dtype:
        raise _refused(name, f"of {a.dtype} values, whose {dtype} result SciPy computes in "
                             f"mixed precision")
    return api.astype(a, dtype)


def _finite(name, *arrays):
    """SciPy's ``check_finite``: ValueError when the graph runs where an input holds an
    infinity or a NaN."""
    first = to_tracer(arrays[0])
    ok = functools.reduce(np.logical_and, [np.all(np.isfinite(to_tracer(a))) for a in arrays])
    return emit("check", [first, ok], {
        "error": "ValueError",
        "message": f"array must not contain infs or NaNs (raised by {name})\n"
                   f"  at {user_location()}"})


# ---------------------------------------------------------------- scipy.linalg
def _linalg(scipy_fn, numpy_fn, name, extra=()):
    def run(a, *args, overwrite_a=False, check_finite=True, **kwargs):
        kwargs = dict(kwargs)
        if args or any(k not in extra for k in kwargs) or not _traced(a):
            return scipy_fn(a, *args, overwrite_a=overwrite_a, check_finite=check_finite,
                            **kwargs)
        a = to_tracer(a)
        if a.ndim != 2:
            raise _refused(f"scipy.linalg.{name}", "of an array other than a matrix")
        if check_finite:
            a = _finite(f"scipy.linalg.{name}", a)
        example = _scipy_says(scipy_fn, _sample(a, square=True), **kwargs)
        a = _in_dtype_of(a, example, f"scipy.linalg.{name}")
        return _as_scipy_gives(numpy_fn(a, **kwargs), example)
    return run


def _upper_or_lower(a, lower=False):
    low = np.linalg.cholesky(a)
    return low if lower else np.conj(np.swapaxes(low, -1, -2))


def _solve(scipy_fn):
    def run(a, b, lower=False, overwrite_a=False, overwrite_b=False, check_finite=True,
            assume_a=None, transposed=False):
        if not _traced(a, b) or assume_a not in (None, "gen", "general") or transposed:
            return scipy_fn(a, b, lower=lower, overwrite_a=overwrite_a,
                            overwrite_b=overwrite_b, check_finite=check_finite,
                            assume_a=assume_a, transposed=transposed)
        a, b = to_tracer(a), to_tracer(b)
        if a.ndim != 2 or b.ndim not in (1, 2):
            raise _refused("scipy.linalg.solve", "of arrays other than a matrix and a vector "
                                                 "or matrix")
        if check_finite:
            a = _finite("scipy.linalg.solve", a, b)
        example = _scipy_says(scipy_fn, _sample(a, square=True), _sample(b))
        a = _in_dtype_of(a, example, "scipy.linalg.solve")
        b = _in_dtype_of(b, example, "scipy.linalg.solve")
        return _as_scipy_gives(np.linalg.solve(a, b), example)
    return run


def _lyapunov(scipy_fn):
    """``scipy.linalg.solve_discrete_lyapunov`` by its direct method (SciPy's own below 10
    rows): the Kronecker system ``(I - kron(A, conj(A))) vec(X) = vec(Q)``, solved as
    ``scipy.linalg.solve`` solves it. The bilinear method (from 10 rows on) runs with
    NumPy."""
    def run(a, q, method=None):
        if not _traced(a, q):
            return scipy_fn(a, q, method)
        a, q = to_tracer(a), to_tracer(q)
        n = a.shape[0] if a.ndim == 2 else None
        chosen = method if method is not None else "direct" if n is not None and n < 10 \
            else "bilinear"
        if n is None or a.shape != (n, n) or q.shape != (n, n) or \
                not isinstance(chosen, str) or chosen.lower() != "direct":
            raise _refused("scipy.linalg.solve_discrete_lyapunov",
                           "other than by its direct method, of square matrices of a known "
                           "size below 10 rows (or method='direct')")
        example = _scipy_says(scipy_fn, np.zeros((n, n), a.dtype), np.ones((n, n), q.dtype),
                              method)
        lhs = np.eye(n * n) - np.kron(a, np.conj(a))
        lhs, b = _finite("scipy.linalg.solve", lhs, q), api.ravel(q)
        x = _in_dtype_of(to_tracer(np.linalg.solve(lhs, b)), example,
                         "scipy.linalg.solve_discrete_lyapunov")
        return _as_scipy_gives(api.reshape(x, (n, n)), example)
    return run


def _norm(scipy_fn):
    def run(a, ord=None, axis=None, keepdims=False, check_finite=True):
        if not _traced(a):
            return scipy_fn(a, ord, axis, keepdims, check_finite)
        a = to_tracer(a)
        if check_finite:
            a = _finite("scipy.linalg.norm", a)
        example = _scipy_says(scipy_fn, _sample(a), ord, axis, keepdims)
        a = _in_dtype_of(a, example, "scipy.linalg.norm")
        return _as_scipy_gives(np.linalg.norm(a, ord, axis, keepdims), example)
    return run


# --------------------------------------------------------------- scipy.special
def _logsumexp_of(a, axis, keepdims):
    m = np.max(a, axis=axis, keepdims=True)
    # An infinite (or all -inf) maximum shifts by nothing: its own sum is the answer.
    m = np.where(np.isfinite(m), m, 0)
    out = np.log(np.sum(np.exp(a - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


def _logsumexp(scipy_fn):
    def run(a, axis=None, b=None, keepdims=False, return_sign=False):
        if not _traced(a) or b is not None or return_sign:
            return scipy_fn(a, axis=axis, b=b, keepdims=keepdims, return_sign=return_sign)
        a = to_tracer(a)
        example = _scipy_says(scipy_fn, _sample(a), axis=axis, keepdims=keepdims)
        a = _in_dtype_of(a, example, "scipy.special.logsumexp")
        return _as_scipy_gives(_logsumexp_of(a, axis, keepdims), example)
    return run


def _log_softmax(scipy_fn):
    def run(x, axis=None):
        if not _traced(x):
            return scipy_fn(x, axis=axis)
        x = to_tracer(x)
        example = _scipy_says(scipy_fn, _sample(x), axis=axis)
        x = _in_dtype_of(x, example, "scipy.special.log_softmax")
        return _as_scipy_gives(x - _logsumexp_of(x, axis, True), example)
    return run


# ------------------------------------------------- scipy.stats norm, t and chi2
_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


def _density(z):
    return np.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)


def _distributions(special):
    """{name: (shape parameters, lower end of the support, {method: formula(z, scale,
    *shapes)})} of the distributions whose methods compile: the formulas of the
    standardized value, as SciPy's own ``_cdf``/``_sf``/``_pdf``/``_logpdf`` are."""
    def positive(df):
        return df > 0
    return {
        "norm": ((), -np.inf, None, {
            "cdf": lambda z, s: special.ndtr(z), "sf": lambda z, s: special.ndtr(-z),
            "pdf": lambda z, s: _density(z) / s,
            "logpdf": lambda z, s: -0.5 * z * z - _LOG_SQRT_2PI - np.log(s)}),
        "t": (("df",), -np.inf, positive, {
            "cdf": lambda z, s, df: special.stdtr(df, z),
            "sf": lambda z, s, df: special.stdtr(df, -z)}),
        "chi2": (("df",), 0.0, positive, {
            "cdf": lambda z, s, df: special.chdtr(df, z),
            "sf": lambda z, s, df: special.chdtrc(df, z)}),
    }


def _distribution(method, name, shapes, lower, argcheck, formula):
    """``scipy.stats.<name>.<method>(x, *shapes, loc=0, scale=1)`` as SciPy's
    ``rv_continuous`` computes it: the standardized value in NumPy's promotion of the
    inputs and float64; NaN where a shape parameter or the scale is out of its domain or x
    is NaN; 0 and 1 (1 and 0 for ``sf``) below and at the top of the support."""
    names = shapes + ("loc", "scale")
    label = f"scipy.stats.{name}.{method.__name__}"

    def run(x, *args, **kwargs):
        params = dict(zip(names, args), **kwargs)
        if len(args) > len(names) or any(k not in names for k in kwargs) or \
                any(k not in params for k in shapes) or not _traced(x, *params.values()):
            return method(x, *args, **kwargs)
        values = [x] + [params[k] for k in shapes] + \
            [params.get("loc", 0.0), params.get("scale", 1.0)]
        if any(np.iscomplexobj(v) if not isinstance(v, Tracer) else v.dtype.kind == "c"
               for v in values):
            raise _refused(label, "of complex values")
        samples = [np.ones(tuple(2 if d is None else d for d in to_tracer(v).shape),
                           dtype=to_tracer(v).dtype) if _traced(v) else v for v in values]
        example = _scipy_says(method, *samples)
        x, loc, scale = values[0], values[-2], values[-1]
        z = api.astype(to_tracer((x - loc) / scale), np.float64)
        s = api.astype(to_tracer(scale), np.float64)
        shape_values = [api.astype(to_tracer(v), np.float64) for v in values[1:-2]]
        out = formula(z, s, *shape_values)
        kind = method.__name__
        if kind in ("cdf", "sf"):
            below, top = (0.0, 1.0) if kind == "cdf" else (1.0, 0.0)
            out = np.where(z <= lower, below, np.where(z == np.inf, top, out))
        ok = s > 0
        for v in shape_values:
            ok = ok & argcheck(v)
        return _as_scipy_gives(np.where(ok & ~np.isnan(z), out, np.nan), example)
    return run


def lookup(fn):
    """What a call of ``fn`` runs in converted code, where ``fn`` is one of the SciPy
    functions above; None for any other callable."""
    if "scipy" not in sys.modules:
        return None
    linalg = sys.modules.get("scipy.linalg")
    if linalg is not None:
        table = {"inv": lambda f: _linalg(f, np.linalg.inv, "inv"),
                 "det": lambda f: _linalg(f, np.linalg.det, "det"),
                 "cholesky": lambda f: _linalg(f, _upper_or_lower, "cholesky", ("lower",)),
                 "solve": _solve, "norm": _norm, "solve_discrete_lyapunov": _lyapunov}
        for name, make in table.items():
            if getattr(linalg, name, None) is fn:
                return make(fn)
    special = sys.modules.get("scipy.special")
    if special is not None:
        if getattr(special, "logsumexp", None) is fn:
            return _logsumexp(fn)
        if getattr(special, "log_softmax", None) is fn:
            return _log_softmax(fn)
    stats = sys.modules.get("scipy.stats")
    owner = getattr(fn, "__self__", None)
    if stats is None or special is None or owner is None:
        return None
    for name, (shapes, lower, argcheck, formulas) in _distributions(special).items():
        if owner is getattr(stats, name, None) and getattr(fn, "__name__", None) in formulas \
                and getattr(type(owner), fn.__name__, None) is getattr(fn, "__func__", None):
            return _distribution(fn, name, shapes, lower, argcheck or (lambda v: True),
                                 formulas[fn.__name__])
    return None
