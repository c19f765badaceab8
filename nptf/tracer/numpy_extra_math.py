"""Math functions NumPy writes in Python on top of ufuncs (fix, i0, sinc, unwrap, the
is*-predicates, cumulative_sum/prod, sort_complex, histogram_bin_edges, the
Hermitian FFTs) and the polynomial helpers, each replaying NumPy's own algorithm
on traced values so rounding and dtypes come out the same.
"""
from __future__ import annotations

import operator

import numpy as np
from numpy.lib import _function_base_impl as _numpy_function_base

from ..errors import unsupported, user_location
from . import numpy_api as api
from .assumptions import assume_kind
from . import numpy_math as m
from .numpy_api import axis_index, reject, sample_of, astype, concatenate, implements, reshape_to
from .indexing import constant_value
from .numpy_stats import histogram
from .tracer import Tracer, emit, numpy_says, to_tracer

# NumPy's Chebyshev coefficients for I0 on [0, 8] and (8, inf).
_I0_SMALL = tuple(_numpy_function_base._i0A)
_I0_LARGE = tuple(_numpy_function_base._i0B)


def _scalar_if_0d(t):
    return Tracer(t.atom, is_scalar=t.ndim == 0)


# ---------------------------------------------------------------- elementwise
@implements(np.fix)
def fix(x, out=None):
    reject("fix", out=out)
    x = to_tracer(x)
    return _scalar_if_0d(np.where(x >= 0, np.floor(x), np.ceil(x)))


def _chebyshev(x, coefficients):
    """NumPy's ``_chbevl``: Clenshaw's recurrence, in the same order of operations."""
    b0, b1, b2 = coefficients[0], 0.0, 0.0
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = x * b1 - b2 + c
    return 0.5 * (b0 - b2)


@implements(np.i0)
def i0(x):
    x = to_tracer(x)
    if x.dtype.kind == "c":
        raise TypeError(f"i0 not supported for complex values\n  at {user_location()}")
    if x.dtype.kind != "f":
        x = astype(x, np.float64)
    x = np.abs(x)
    small = np.exp(x) * _chebyshev(x / 2.0 - 2, _I0_SMALL)
    large = np.exp(x) * _chebyshev(32.0 / x - 2.0, _I0_LARGE) / np.sqrt(x)
    # np.piecewise fills an array of x's dtype: a 0-d input stays a 0-d array.
    return Tracer(astype(np.where(x <= 8.0, small, large), x.dtype).atom)


@implements(np.sinc)
def sinc(x):
    x = np.pi * to_tracer(x)
    # NumPy's stand-in for 0: one ulp of 1 in x's own float dtype (1e-20 underflows in float16).
    eps = np.finfo(x.dtype).eps if x.dtype.kind == "f" else 1e-20
    y = np.where(x != 0, x, eps)
    return np.sin(y) / y


@implements(np.iscomplex)
def iscomplex(x):
    x = to_tracer(x)
    if x.dtype.kind == "c":
        return np.imag(x) != 0
    return _scalar_if_0d(api.zeros_like(x, dtype=np.bool_))


@implements(np.isreal)
def isreal(x):
    return np.imag(to_tracer(x)) == 0


@implements(np.iscomplexobj)
def iscomplexobj(x):
    return to_tracer(x).dtype.kind == "c"


@implements(np.isrealobj)
def isrealobj(x):
    return not iscomplexobj(x)


def _signed_infinity(x, out, negative):
    x = to_tracer(x)
    reject("isneginf" if negative else "isposinf", out=out)
    if x.dtype.kind == "c":
        raise TypeError(f"This operation is not supported for {x.dtype} values because it would "
                        f"be ambiguous.\n  at {user_location()}")
    sign = np.signbit(x)
    return np.logical_and(np.isinf(x), sign if negative else ~sign)


@implements(np.isneginf)
def isneginf(x, out=None):
    return _signed_infinity(x, out, negative=True)


@implements(np.isposinf)
def isposinf(x, out=None):
    return _signed_infinity(x, out, negative=False)


# ------------------------------------------------------------------ sequences
def _cumulative(name, scan, identity):
    def impl(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
        reject(name, out=out)
        x = api.atleast_1d(x)
        if axis is None:
            if x.ndim >= 2:
                raise ValueError(f"For arrays which have more than one dimension ``axis`` argument "
                                 f"is required.\n  at {user_location()}")
            axis = 0
        axis = axis_index(axis, x.ndim)
        result_dtype = numpy_says(getattr(np, name), np.zeros((1,) * x.ndim, x.dtype), axis=axis,
                                   dtype=dtype).dtype
        result = astype(scan(x, axis=axis, dtype=dtype), result_dtype)
        if include_initial:
            first = x.shape[:axis] + (1,) + x.shape[axis + 1:]
            result = concatenate([api.full(first, identity, result_dtype), result], axis)
        return result
    return impl


cumulative_sum = implements(np.cumulative_sum)(_cumulative("cumulative_sum", m.cumsum, 0))
cumulative_prod = implements(np.cumulative_prod)(_cumulative("cumulative_prod", m.cumprod, 1))


@implements(np.unwrap)
def unwrap(p, discont=None, axis=-1, *, period=2 * np.pi):
    if isinstance(period, Tracer):
        raise unsupported("np.unwrap(..., period=<traced value>)")
    p = to_tracer(p)
    dd = np.diff(p, axis=axis)
    axis = axis_index(axis, p.ndim)
    if discont is None:
        discont = period / 2
    dtype = np.result_type(sample_of(dd.atom), period)
    if dtype.kind in "iu":
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = np.mod(dd - interval_low, period) + interval_low
    if boundary_ambiguous:
        # A jump of exactly period/2 keeps its sign, as NumPy's copyto(..., where=) does.
        high = astype(to_tracer(interval_high), ddmod.dtype)
        ddmod = np.where((ddmod == interval_low) & (dd > 0), high, ddmod)
    ph_correct = ddmod - dd
    ph_correct = np.where(np.abs(dd) < discont, astype(to_tracer(0), ph_correct.dtype), ph_correct)
    head = tuple(slice(0, 1) if i == axis else slice(None) for i in range(p.ndim))
    tail = tuple(slice(1, None) if i == axis else slice(None) for i in range(p.ndim))
    corrected = p[tail] + np.cumsum(ph_correct, axis=axis)
    return concatenate([astype(p[head], dtype), astype(corrected, dtype)], axis)


@implements(np.sort_complex)
def sort_complex(a):
    a = to_tracer(a)
    if a.dtype.kind != "c":
        target = "F" if a.dtype.char in "bhBH" else "G" if a.dtype.char == "g" else "D"
        return astype(np.sort(a), target)
    axis_index(-1, a.ndim)   # NumPy's error for sorting a 0-d array
    # NumPy's complex order: lexicographic on (real, imag); then R+nanj, nan+Rj, nan+nanj.
    re, im = np.real(a), np.imag(a)
    nan_class = astype(np.isnan(re), np.int8) * 2 + astype(np.isnan(im), np.int8)
    order = np.lexsort((im, re, nan_class), axis=-1)
    return np.take_along_axis(a, order, -1)


@implements(np.histogram_bin_edges)
def histogram_bin_edges(a, bins=10, range=None, weights=None):
    a = to_tracer(a)
    if weights is not None and to_tracer(weights).shape != a.shape:
        raise ValueError(f"weights should have the same shape as a.\n  at {user_location()}")
    return histogram(a, bins, range, weights=weights)[1]


# ---------------------------------------------------------------- polynomials
def _coefficients(p):
    p = to_tracer(p)
    return reshape_to(p, (1,)) if p.ndim == 0 else p


def _pad_front(p, count):
    return concatenate([api.zeros((count,), p.dtype), p]) if count else p


def _combine(a1, a2, op):
    a1, a2 = _coefficients(a1), _coefficients(a2)
    diff = len(a2) - len(a1)
    if diff > 0:
        a1 = _pad_front(a1, diff)
    elif diff < 0:
        a2 = _pad_front(a2, -diff)
    return op(a1, a2)


@implements(np.polyadd)
def polyadd(a1, a2):
    return _combine(a1, a2, operator.add)


@implements(np.polysub)
def polysub(a1, a2):
    return _combine(a1, a2, operator.sub)


@implements(np.polyder)
def polyder(p, m=1):
    m = int(m)
    if m < 0:
        raise ValueError(f"Order of derivative must be positive (see polyint)\n  at {user_location()}")
    p = to_tracer(p)
    if m == 0:
        return p
    n = len(p) - 1
    return polyder(p[:-1] * to_tracer(np.arange(n, 0, -1)), m - 1)


@implements(np.polyint)
def polyint(p, m=1, k=None):
    m = int(m)
    if m < 0:
        raise ValueError(f"Order of integral must be positive (see polyder)\n  at {user_location()}")
    k = to_tracer(np.zeros(m, float) if k is None else (k if isinstance(k, Tracer) else np.asarray(k)))
    k = reshape_to(k, (1,)) if k.ndim == 0 else k
    if len(k) == 1 and m > 1:
        k = k[0] * to_tracer(np.ones(m, float))
    if len(k) < m:
        raise ValueError(f"k must be a scalar or a rank-1 array of length 1 or >m.\n  at {user_location()}")
    p = to_tracer(p)
    if m == 0:
        return p
    y = concatenate((p / to_tracer(np.arange(len(p), 0, -1)), reshape_to(k[0], (1,))))
    return polyint(y, m - 1, k=k[1:])


def _leading_nonzero(p, name):
    """np.poly1d strips leading zero coefficients: constants are trimmed now, and traced
    inputs with a leading zero (the result's length would depend on the data) are refused
    when the graph runs."""
    known = constant_value(p)
    if not isinstance(known, Tracer):
        trimmed = np.trim_zeros(np.atleast_1d(known), "f")
        return to_tracer(trimmed if trimmed.size else np.zeros(1, trimmed.dtype))
    if len(p) < 2:
        return p
    return emit("check", [p, p[0] != 0], {
        "error": "OutsideTheGraph",
        "message": f"np.{name} of a polynomial with a leading zero coefficient, which NumPy "
                   f"strips, so the data choose the length of the result, at "
                   f"{user_location()}"})


@implements(np.polymul)
def polymul(a1, a2):
    a1, a2 = _coefficients(a1), _coefficients(a2)
    for p in (a1, a2):
        if p.ndim > 1:
            raise ValueError(f"Polynomial must be 1d only.\n  at {user_location()}")
    return np.convolve(_leading_nonzero(a1, "polymul"), _leading_nonzero(a2, "polymul"))


@implements(np.poly)
def poly(seq_of_zeros):
    zeros = _coefficients(seq_of_zeros)
    if zeros.ndim == 2 and zeros.shape[0] == zeros.shape[1] and zeros.shape[0] not in (0, None):
        # The characteristic polynomial: of the eigenvalues, real or complex as the data say
        # (the trace's assumption, as np.linalg.eigvals makes it).
        zeros = np.linalg.eigvals(zeros)
    elif zeros.ndim != 1:
        raise ValueError(f"input must be 1d or non-empty square 2d array.\n  at {user_location()}")
    else:
        zeros = astype(zeros, np.mintypecode(zeros.dtype.char))
    if zeros.shape[0] is None:
        raise unsupported("np.poly of roots whose number the data choose")
    if len(zeros) == 0:
        return 1.0
    a = api.ones((1,), zeros.dtype)
    for i in range(len(zeros)):
        # Convolution with [1, -zero]: one multiply-add per coefficient, as np.convolve does.
        a = concatenate([a, api.zeros((1,), a.dtype)]) - zeros[i] * concatenate([api.zeros((1,), a.dtype), a])
    if zeros.dtype.kind == "c":
        # NumPy's coefficients are real where the roots come in conjugate pairs (a filter's
        # poles), complex otherwise: the graph gives the kind the trace assumes, and a call
        # whose roots are of the other runs a graph traced with the other assumption.
        paired = np.all(np.sort(zeros) == np.sort(np.conjugate(zeros)))
        real, check = assume_kind("np.poly", ("real", "complex"))
        a = check(np.real(a) if real else a, paired)
    return a


def _polyval(x, c, tensor=True):
    """``numpy.polynomial.polynomial.polyval`` (increasing powers), in its Horner order."""
    c = to_tracer(c)
    c = reshape_to(c, (1,)) if c.ndim == 0 else c
    if c.dtype.kind in "biu":
        c = c + 0.0
    x = to_tracer(x)
    if tensor and not x.is_scalar:
        c = reshape_to(c, c.shape + (1,) * x.ndim)
    c0 = c[-1] + x * 0
    for i in range(2, len(c) + 1):
        c0 = c[-i] + c0 * x
    return c0


def _as_ordinates(*args):
    """NumPy's ``_valnd``: the ordinates become arrays of one common shape."""
    args = [Tracer(to_tracer(a).atom) for a in args]
    if any(a.shape != args[0].shape for a in args[1:]):
        raise ValueError(f"x, y are incompatible\n  at {user_location()}")
    return args


@implements(np.polynomial.polynomial.polyval2d)
def polyval2d(x, y, c):
    x, y = _as_ordinates(x, y)
    return _polyval(y, _polyval(x, c), tensor=False)


@implements(np.polynomial.polynomial.polygrid2d)
def polygrid2d(x, y, c):
    return _polyval(y, _polyval(x, c))


# ------------------------------------------------------------------ Hermitian FFT
_SWAPPED_NORM = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


@implements(np.fft.hfft)
def hfft(a, n=None, axis=-1, norm=None, out=None):
    reject("fft.hfft", out=out)
    numpy_says(np.fft.hfft, np.zeros(2), norm=norm)   # NumPy's error for an unknown norm
    a = to_tracer(a)
    if n is None:
        n = (a.shape[axis_index(axis, a.ndim)] - 1) * 2
    return np.fft.irfft(np.conjugate(a), n, axis, norm=_SWAPPED_NORM[norm])


@implements(np.fft.ihfft)
def ihfft(a, n=None, axis=-1, norm=None, out=None):
    reject("fft.ihfft", out=out)
    numpy_says(np.fft.ihfft, np.zeros(2), norm=norm)
    return np.conjugate(np.fft.rfft(a, n, axis, norm=_SWAPPED_NORM[norm]))
