"""``np.emath`` (``numpy.lib.scimath``) and ``np.real_if_close``: functions whose result
is real or complex as the data say.

``np.emath.sqrt(x)`` of a real ``x`` is NumPy's real ``np.sqrt(x)`` where no element is
negative, the complex square root of ``x`` as complex otherwise; ``np.real_if_close``
drops imaginary parts only where all are within its tolerance. The trace assumes the
usual kind (``assumptions.assume``: real results, an FFT's or an eigensolver's noise
dropped) and checks it when the graph runs; data of the other kind run a graph traced
with the other assumption.
"""
from __future__ import annotations

import numpy as np

from .assumptions import assume_kind
from .numpy_api import asarray, astype, implements


def _assumed(holds_usually, value_if, name, kinds):
    """The result the trace assumes (``assume_kind``): ``value_if(True)``, of the usual
    kind (``kinds[0]``), or ``value_if(False)``; checked that the data are of that kind
    (``holds_usually``, traced: whether they are of the usual)."""
    usual, check = assume_kind(name, kinds)
    return check(value_if(usual), holds_usually)


def _to_complex(x):
    # scimath's _tocomplex: single precision (and the small integers) to complex64.
    small = x.dtype.type in (np.single, np.byte, np.short, np.ubyte, np.ushort, np.csingle)
    return astype(x, np.complex64 if small else np.complex128)


def _unary(ufunc, leaves_the_reals, name):
    def impl(x):
        x = asarray(x)
        if x.dtype.kind == "c":
            return ufunc(_to_complex(x))
        return _assumed(np.logical_not(np.any(leaves_the_reals(x))),
                        lambda real: ufunc(x) if real else ufunc(_to_complex(x)), name,
                        ("real", "complex"))
    return impl


def _negative(x):
    return x < 0


def _past_one(x):
    return np.abs(x) > 1


for _name, _ufunc, _domain in (("sqrt", np.sqrt, _negative), ("log", np.log, _negative),
                               ("log10", np.log10, _negative), ("log2", np.log2, _negative),
                               ("arccos", np.arccos, _past_one),
                               ("arcsin", np.arcsin, _past_one),
                               ("arctanh", np.arctanh, _past_one)):
    implements(getattr(np.emath, _name))(_unary(_ufunc, _domain, f"np.emath.{_name}"))


@implements(np.emath.logn)
def logn(n, x):
    return np.emath.log(x) / np.emath.log(n)


@implements(np.emath.power)
def power(x, p):
    x = asarray(x)
    p = asarray(p)
    if x.dtype.kind != "c":
        x = _assumed(np.logical_not(np.any(x < 0)),
                     lambda real: x if real else _to_complex(x), "np.emath.power",
                     ("real", "complex"))
    if p.dtype.kind in "iu":
        # scimath's _fix_int_lt_zero: integer powers with a negative one are taken as
        # floats (NumPy's integer power refuses them).
        p = _assumed(np.logical_not(np.any(p < 0)), lambda ints: p if ints else p * 1.0,
                     "np.emath.power", ("integer", "floating"))
    return np.power(x, p)


@implements(np.real_if_close)
def real_if_close(a, tol=100):
    a = asarray(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = np.finfo(a.dtype).eps * tol
    return _assumed(np.all(np.abs(a.imag) < tol), lambda real: a.real if real else a,
                    "np.real_if_close", ("real", "complex"))
