"""``np.poly1d`` of traced coefficients (``p = np.poly1d(np.polyfit(x, y, 2))``, then
``p(t)``, ``p.deriv()``, ``p + q``).

NumPy strips a polynomial's leading zero coefficients, so its length (``coeffs``,
``order``) depends on the data. Evaluating, differentiating, integrating, adding and
multiplying do not: leading zeros change none of their values (Horner's rule starts from
zero either way), so a ``TracedPoly1d`` keeps the coefficients as given and strips them
only where the stripped array itself is asked for."""
from __future__ import annotations

import numbers

import numpy as np

from ..errors import unsupported, user_location
from . import python_numbers
from .numpy_api import astype, atleast_1d, concatenate
from .tracer import Tracer, to_tracer

__all__ = ["TracedPoly1d", "poly1d", "takes_traced"]

# NumPy's class, as imported: while a function is traced, ``np.poly1d`` is the wrapper
# that makes a ``TracedPoly1d``.
_NUMPY_POLY1D = np.poly1d


def takes_traced(args, kwargs):
    """Whether ``np.poly1d(*args, **kwargs)`` is of traced coefficients."""
    return any(isinstance(v, (Tracer, TracedPoly1d)) or (
        type(v) in (list, tuple) and any(isinstance(x, Tracer) for x in v))
        for v in list(args[:1]) + list(kwargs.values()))


def poly1d(c_or_r, r=False, variable=None):
    """``np.poly1d`` while tracing: NumPy's checks, then a ``TracedPoly1d``."""
    if isinstance(c_or_r, TracedPoly1d):
        return TracedPoly1d(c_or_r.given, variable or c_or_r.variable)
    c = np.poly(c_or_r) if r else c_or_r
    c = atleast_1d(to_tracer(c))
    if c.ndim > 1:
        raise ValueError(f"Polynomial must be 1d only.\n  at {user_location()}")
    if c.shape[0] == 0:
        c = to_tracer(np.zeros(1, c.dtype))
    if c.shape[0] is None:
        raise unsupported("np.poly1d of coefficients whose number the data choose")
    return TracedPoly1d(c, "x" if variable is None else variable)


def _is_number(value):
    """``np.isscalar`` as NumPy's run sees the value: a Python or NumPy number (a traced
    ``float(...)`` or ``x.sum()`` included), not a 0-d array."""
    if isinstance(value, Tracer):
        return value.ndim == 0 and (value.is_scalar or value.type.weak)
    return isinstance(value, (numbers.Number, np.generic))


def _given(value):
    """The coefficients of ``value`` as ``np.poly1d(value)`` makes them, unstripped."""
    if isinstance(value, TracedPoly1d):
        return value.given
    if isinstance(value, _NUMPY_POLY1D):
        return to_tracer(value.coeffs)
    return poly1d(value).given


def _as_array(value):
    """``value`` as NumPy makes an array of it (a Python number is no longer weak)."""
    if isinstance(value, Tracer) and value.type.weak:
        return astype(value, np.asarray(value.type.dtype.type(0)).dtype)
    return value


class TracedPoly1d:
    __slots__ = ("given", "variable")
    __array_priority__ = 100

    def __init__(self, given, variable="x"):
        self.given, self.variable = given, variable

    # ------------------------------------------------------ what NumPy strips
    @property
    def coeffs(self):
        c = self.given
        if c.shape[0] == 1:
            return c
        return concatenate([np.trim_zeros(c[:-1], "f"), c[-1:]])

    c = coef = coefficients = coeffs

    @property
    def order(self):
        c = self.given
        if c.shape[0] == 1:
            return 0
        leading = np.sum(np.cumprod(c[:-1] == 0))
        return python_numbers.from_element(int, c.shape[0] - 1 - leading)

    o = order

    @property
    def roots(self):
        # np.roots strips the leading zeros poly1d strips, and is real or complex as the
        # data say (an assumption the graph checks).
        return np.roots(self.given)

    r = roots

    def __len__(self):
        raise unsupported("len() of np.poly1d of traced coefficients",
                          fix="Its order depends on the data: use p.order, a traced number.")

    def __iter__(self):
        raise unsupported("iterating over np.poly1d of traced coefficients",
                          fix="Their number depends on the data: use p.coeffs.")

    def __array__(self, *args, **kwargs):
        raise unsupported("np.asarray of np.poly1d of traced coefficients",
                          fix="Use p.coeffs (or np.polyval(p, x) to evaluate it).")

    def __repr__(self):
        return f"TracedPoly1d({self.given!r})"

    def __eq__(self, other):
        raise unsupported("comparing np.poly1d of traced coefficients",
                          fix="Compare p.coeffs with np.array_equal.")

    def __ne__(self, other):
        return self.__eq__(other)

    __hash__ = None

    # ------------------------------------------------------------ values
    def __call__(self, val):
        if isinstance(val, (TracedPoly1d, _NUMPY_POLY1D)):
            raise unsupported("np.poly1d of traced coefficients called on a polynomial")
        return np.polyval(self.given, val)

    def __getitem__(self, power):
        n = self.given.shape[0]
        if power < 0:
            return 0
        if power >= n:
            return self.given.dtype.type(0)
        return self.given[n - 1 - power]

    def deriv(self, m=1):
        return TracedPoly1d(np.polyder(self.given, m=m), self.variable)

    def integ(self, m=1, k=0):
        return TracedPoly1d(np.polyint(self.given, m=m, k=k), self.variable)

    def __neg__(self):
        return TracedPoly1d(-self.given, self.variable)

    def __pos__(self):
        return self

    def __add__(self, other):
        return TracedPoly1d(np.polyadd(self.given, _as_array(_given(other))), self.variable)

    __radd__ = __add__

    def __sub__(self, other):
        return TracedPoly1d(np.polysub(self.given, _as_array(_given(other))), self.variable)

    def __rsub__(self, other):
        return TracedPoly1d(np.polysub(_as_array(_given(other)), self.given), self.variable)

    def __mul__(self, other):
        if _is_number(other):
            return TracedPoly1d(self.given * other, self.variable)
        # Leading zeros stay leading zeros of the product (np.polymul strips them first).
        return TracedPoly1d(np.convolve(self.given, _as_array(_given(other))), self.variable)

    __rmul__ = __mul__

    def __truediv__(self, other):
        if _is_number(other):
            return TracedPoly1d(self.given / other, self.variable)
        raise unsupported("dividing np.poly1d of traced coefficients by a polynomial",
                          fix="np.polydiv's quotient has a length the data choose.")

    def __pow__(self, val):
        if not isinstance(val, numbers.Number) or int(val) != val or val < 0:
            raise ValueError(f"Power to non-negative integers only.\n  at {user_location()}")
        out = to_tracer(np.array([1]))
        for _ in range(int(val)):
            out = np.convolve(self.given, out)
        return TracedPoly1d(out, self.variable)

    # ------------------------------------------- NumPy's functions of it
    def __array_function__(self, func, types, args, kwargs):
        if func not in _OF_GIVEN:
            return NotImplemented
        poly = any(isinstance(a, TracedPoly1d) for a in args)
        out = _OF_GIVEN[func](*[a.given if isinstance(a, TracedPoly1d) else a for a in args],
                              **kwargs)
        return out if func is _POLYVAL or not poly else TracedPoly1d(out)

    # ---------------------------------------------------- a tree node
    def nptf_children(self):
        return (self.coeffs,)

    def nptf_spec(self):
        return _Spec(self.variable)


class _Spec:
    """The tree node of a ``TracedPoly1d``: NumPy's ``poly1d`` once handed back."""
    __slots__ = ("variable",)
    nptf_what = "an np.poly1d"

    def __init__(self, variable):
        self.variable = variable

    def __eq__(self, other):
        return isinstance(other, _Spec) and other.variable == self.variable

    def __hash__(self):
        return hash(("poly1d", self.variable))

    def nptf_rebuilt(self, children):
        (c,) = children
        if isinstance(c, Tracer):
            return TracedPoly1d(c, self.variable)
        return _NUMPY_POLY1D(c, variable=self.variable)


# NumPy's functions that return a poly1d for a poly1d argument and whose values leading
# zeros do not change (np.polymul strips them: its product is a convolution).
_POLYVAL = np.polyval
_OF_GIVEN = {np.polyval: np.polyval, np.polyder: np.polyder, np.polyint: np.polyint,
             np.polyadd: np.polyadd, np.polysub: np.polysub,
             np.polymul: lambda a, b: np.convolve(atleast_1d(to_tracer(a)),
                                                  atleast_1d(to_tracer(b)))}
