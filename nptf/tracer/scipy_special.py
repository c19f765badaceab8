"""The ufuncs of ``scipy.special`` that NumPy code calls beside NumPy's own: ``expit``
(the logistic sigmoid of from-scratch networks), ``logit``, ``log_expit``, ``erf``,
``erfc`` and ``ndtr`` (normal CDFs), ``gammaln``, ``xlogy``, ``xlog1py`` and ``entr``
(entropies and log-likelihoods), the incomplete gamma and beta functions ``gammainc``,
``gammaincc`` and ``betainc`` and the CDFs made of them, ``chdtr``/``chdtrc`` (chi-square)
and ``stdtr`` (Student's t) of p-values, and its ``log1p``, ``expm1``, ``exp2``, ``cbrt``.

Each is NumPy's ufuncs on the inputs cast to the loop the scipy ufunc itself picks (the
dtype of its result on samples of the inputs: the ufunc is the oracle), by the formula
scipy's own kernel computes. SciPy stays optional: a ufunc is known as scipy's by
identity, only once the user's code has imported ``scipy.special``. Other ufuncs that are
not NumPy's are refused under their own name.
"""
from __future__ import annotations

import sys

import numpy as np

from ..errors import unsupported
from . import numpy_api as api
from .tracer import Tracer, emit, numpy_says, to_tracer

_SQRT1_2 = float(np.sqrt(0.5))


def _expit(x):
    return 1 / (1 + np.exp(-x))


def _logit(x):
    return np.log(x / (1 - x))


def _log_expit(x):
    # Cephes-style branches: no overflow of exp on either side.
    return np.where(x < 0, x - np.log1p(np.exp(np.minimum(x, 0))),
                    -np.log1p(np.exp(-np.maximum(x, 0))))


def _erf(x, complement=False):
    return api.astype(emit("erf", [api.astype(x, np.float64)], {"complement": complement}),
                      x.dtype)


def _ndtr(x):
    # Cephes' ndtr: erf near 0, erfc of |x| / sqrt(2) in the tails.
    z = x * _SQRT1_2
    tail = 0.5 * _erf(np.abs(z), complement=True)
    return np.where(np.abs(z) < _SQRT1_2, 0.5 + 0.5 * _erf(z), np.where(z > 0, 1 - tail, tail))


def _gammaln(x):
    return api.astype(emit("lgamma", [api.astype(x, np.float64)]), x.dtype)


def _xlogy(x, y, log=np.log):
    # 0 where x is 0 and y is not NaN, whatever log(y) is.
    return np.where((x == 0) & ~np.isnan(y), 0, x * log(y))


def _entr(x):
    return np.where(x > 0, -x * np.log(np.where(x > 0, x, 1)),
                    np.where(x == 0, 0, np.where(np.isnan(x), x, -np.inf)))


def _float64(*xs):
    return [api.astype(to_tracer(x), np.float64) for x in xs]


def _gammainc(a, x, complement=False):
    # TensorFlow's kernel inside the domain, SciPy's values on its edges: 1 (0 for the
    # complement) at a == 0 < x, 0 (1) at an infinite a and a finite x, NaN at a == x ==
    # 0, at a == x == inf and outside.
    a, x = _float64(a, x)
    v = emit("igamma", [a, x], {"complement": complement})
    v = np.where(a == 0, 0.0 if complement else 1.0, v)
    v = np.where(np.isinf(a), 1.0 if complement else 0.0, v)
    valid = (a >= 0) & (x >= 0) & ~((a == 0) & (x == 0)) & ~(np.isinf(a) & np.isinf(x))
    return np.where(valid, v, np.nan)


def _betainc(a, b, x):
    # TensorFlow's kernel inside the domain, SciPy's limits on its edges (a or b zero or
    # infinite), NaN where both are, and outside.
    a, b, x = _float64(a, b, x)
    v = emit("betainc", [a, b, x])
    v = np.where(a == 0, np.where(x > 0, 1.0, 0.0), v)
    v = np.where(b == 0, np.where(x == 1, 1.0, 0.0), v)
    v = np.where(np.isinf(b), np.where(x > 0, 1.0, 0.0), v)
    v = np.where(np.isinf(a), np.where(x == 1, 1.0, 0.0), v)
    valid = (a >= 0) & (b >= 0) & (x >= 0) & (x <= 1) & ~((a == 0) & (b == 0)) & \
        ~(np.isinf(a) & np.isinf(b))
    return np.where(valid, v, np.nan)


def _chdtr(k, x, complement=False):
    k, x = _float64(k, x)
    return _gammainc(k / 2, x / 2, complement)


def _stdtr(df, t):
    """Student's t distribution's CDF: half the incomplete beta at df / (df + t^2), on
    the side of t; the normal's where df is infinite."""
    df, t = _float64(df, t)
    tail = 0.5 * _betainc(df / 2, 0.5, df / (df + t * t))
    out = np.where(t < 0, tail, 1 - tail)
    out = np.where(np.isinf(t) & ~np.isinf(df), np.where(t > 0, 1.0, 0.0), out)
    out = np.where(np.isinf(df), _ndtr(t), out)
    return np.where(df > 0, out, np.nan)


_FORMULAS = {"expit": _expit, "logit": _logit, "log_expit": _log_expit, "erf": _erf,
             "erfc": lambda x: _erf(x, complement=True), "ndtr": _ndtr, "gammaln": _gammaln,
             "xlogy": _xlogy, "xlog1py": lambda x, y: _xlogy(x, y, np.log1p), "entr": _entr,
             "gammainc": _gammainc, "gammaincc": lambda a, x: _gammainc(a, x, True),
             "betainc": _betainc, "chdtr": _chdtr,
             "chdtrc": lambda k, x: _chdtr(k, x, True), "stdtr": _stdtr,
             # NumPy's ufuncs of the same name, in the loop scipy's picks (float32 for
             # int8, where NumPy's is float16).
             "log1p": np.log1p, "expm1": np.expm1, "exp2": np.exp2, "cbrt": np.cbrt}


def label(ufunc):
    """The name the user's code knows ``ufunc`` by: ``np.exp``, ``scipy.special.expit``."""
    name = ufunc.__name__
    if ufunc in api.NUMPY_UFUNCS:
        return f"np.{name}"
    special = sys.modules.get("scipy.special")
    if special is not None and getattr(special, name, None) is ufunc:
        return f"scipy.special.{name}"
    return f"the ufunc {name}"


def is_scipy_special(ufunc):
    special = sys.modules.get("scipy.special")
    return special is not None and getattr(special, ufunc.__name__, None) is ufunc


def call(ufunc, method, inputs, kwargs):
    """``ufunc.method(*inputs, **kwargs)`` of a ufunc of scipy.special (``__call__`` of
    one in ``_FORMULAS``, without ``out``, ``where`` or ``dtype``)."""
    name = label(ufunc)
    formula = _FORMULAS.get(ufunc.__name__)
    if method != "__call__" or formula is None:
        raise unsupported(name if method == "__call__" else f"{name}.{method}")
    given = [k for k, v in kwargs.items() if v is not None]
    if given:
        raise unsupported(f"{name}(..., {', '.join(given)}=...)")
    if len(inputs) != ufunc.nin:
        numpy_says(ufunc, *inputs)      # the ufunc's own TypeError
    tracers = [to_tracer(a) for a in inputs]
    out = numpy_says(ufunc, *[_sample(a, t) for a, t in zip(inputs, tracers)])
    dtype = np.asarray(out).dtype
    if dtype.kind not in "f" or dtype.itemsize > 8:
        raise unsupported(f"{name} of {dtype.name} values")
    result = api.astype(to_tracer(formula(*[api.astype(t, dtype) for t in tracers])), dtype)
    # A ufunc's 0-d result is a NumPy scalar.
    return Tracer(result.atom, is_scalar=True) if result.ndim == 0 else result


def _sample(value, tracer):
    """A value NumPy's rules see as ``value`` does: a Python number stays one."""
    if type(value) in (bool, int, float, complex) or \
            isinstance(value, Tracer) and value.type.weak:
        return {"b": False, "i": 0, "u": 0, "f": 0.0, "c": 0j}[tracer.dtype.kind]
    return np.zeros((1,) * min(tracer.ndim, 1), tracer.dtype)
