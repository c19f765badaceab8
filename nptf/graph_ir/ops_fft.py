"""The IR op for one-dimensional discrete Fourier transforms along the last axis.

``kind`` is NumPy's name (fft, ifft, rfft, irfft); ``length`` the transform
length. The tracer resizes the input to that length, moves the axis last and
applies the ``norm`` scaling, so the op itself is TensorFlow's convention:
forward transforms unscaled, inverse transforms divided by ``length``.
"""
from __future__ import annotations

import numpy as np

from .evaluate import EVAL_RULES
from .ops import register
from .types import ArrayType

_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64),
               np.dtype(np.float64): np.dtype(np.complex128)}


@register("fft")
def _fft(ts, params):
    x, kind, n = ts[0], params["kind"], params["length"]
    if kind in ("fft", "ifft"):
        return [x.strong()]
    if kind == "rfft":
        return [ArrayType(x.shape[:-1] + (n // 2 + 1,), _COMPLEX_OF[x.dtype])]
    return [ArrayType(x.shape[:-1] + (n,), np.empty(0, x.dtype).real.dtype)]


def _eval_fft(p, x):
    out = getattr(np.fft, p["kind"])(x, n=p["length"], axis=-1)
    dtype = _fft([ArrayType(np.shape(x), np.asarray(x).dtype)], p)[0].dtype
    return out.astype(dtype)


EVAL_RULES["fft"] = _eval_fft
