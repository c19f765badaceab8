"""``np.fft``: one-dimensional transforms as the ``fft`` op, n-dimensional ones as
NumPy builds them (one axis at a time), plus the frequency helpers.

Result dtypes come from NumPy run on a sample (NumPy 2 keeps single
precision: float32 -> complex64); argument errors too.
"""
from __future__ import annotations

import operator

import numpy as np

from ..errors import unsupported, unsupported_size, user_location
from .numpy_api import axis_index, astype, broadcast_to, concatenate, implements, moveaxis
from .numpy_manip import roll
from .tracer import emit, numpy_says, to_tracer

_NORMS = (None, "backward", "ortho", "forward")


def _resized(x, n):
    """``x`` cut or zero-padded to length ``n`` along its last axis (NumPy's ``n=``)."""
    m = x.shape[-1]
    if n < m:
        return x[..., :n]
    if n > m:
        zeros = broadcast_to(np.zeros((), x.dtype), x.shape[:-1] + (n - m,))
        return concatenate([x, zeros], -1)
    return x


def _fft1(a, n, axis, norm, kind):
    x = to_tracer(a)
    if None in x.shape:
        raise unsupported_size(f"np.fft.{kind} of an array with a dimension of unknown size")
    fn = getattr(np.fft, kind)
    out_dtype = np.dtype(numpy_says(fn, np.zeros(4, x.dtype), None, -1, norm).dtype)
    axis = axis_index(axis, x.ndim)
    m = x.shape[axis]
    if n is None:
        n = 2 * (m - 1) if kind == "irfft" else m
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.\n  at {user_location()}")
    compute = out_dtype if kind != "rfft" else np.empty(0, out_dtype).real.dtype
    if kind == "irfft":
        compute = np.result_type(out_dtype, np.complex64)
    x = moveaxis(astype(x, compute), axis, -1)
    x = _resized(x, n // 2 + 1 if kind == "irfft" else n)
    y = emit("fft", [x], {"kind": kind, "length": n})
    norm = "backward" if norm is None else norm
    inverse = kind in ("ifft", "irfft")
    if norm == "ortho":
        y = y * (np.sqrt(n) if inverse else 1 / np.sqrt(n))
    elif norm == "forward":
        y = y * (float(n) if inverse else 1 / n)
    return moveaxis(astype(y, out_dtype), -1, axis)


def _one_dim(kind):
    def impl(a, n=None, axis=-1, norm=None, out=None):
        if out is not None:
            raise unsupported(f"np.fft.{kind}(..., out=...)")
        return _fft1(a, n, axis, norm, kind)
    return implements(getattr(np.fft, kind))(impl)


fft, ifft, rfft, irfft = (_one_dim(k) for k in ("fft", "ifft", "rfft", "irfft"))


def _shape_axes(x, s, axes, kind):
    """NumPy's ``_cook_nd_args``: the lengths and axes of an n-dimensional transform."""
    if s is None:
        axes = list(range(-len(x.shape), 0)) if axes is None else list(axes)
        s = [x.shape[a] for a in axes]
        if kind.startswith("irfft") and axes:
            s[-1] = (x.shape[axes[-1]] - 1) * 2
    else:
        s = list(s)
        if axes is None:
            axes = list(range(-len(s), 0))
        if len(s) != len(axes):
            raise ValueError(f"Shape and axes have different lengths.\n  at {user_location()}")
    if any(d is None for d in s):
        raise unsupported_size(f"np.fft.{kind} of an array with a dimension of unknown size")
    return [operator.index(d) for d in s], [axis_index(a, x.ndim) for a in axes]


def _n_dim(kind, one_dim, default_axes=None):
    fn = getattr(np.fft, kind)

    def impl(a, s=None, axes=default_axes, norm=None, out=None):
        if out is not None:
            raise unsupported(f"np.fft.{kind}(..., out=...)")
        x = to_tracer(a)
        sample = np.zeros((4,) * max(x.ndim, 1), x.dtype).reshape((4,) * x.ndim) if x.ndim else \
            np.zeros((), x.dtype)
        numpy_says(fn, sample, None, axes, norm)
        lengths, axes_ = _shape_axes(x, s, axes, kind)
        if not axes_:
            return astype(x, np.dtype(numpy_says(fn, sample, None, axes, norm).dtype))
        if one_dim == "rfft":
            x = _fft1(x, lengths[-1], axes_[-1], norm, "rfft")
            for n, ax in zip(lengths[-2::-1], axes_[-2::-1]):
                x = _fft1(x, n, ax, norm, "fft")
            return x
        if one_dim == "irfft":
            for n, ax in zip(lengths[:-1], axes_[:-1]):
                x = _fft1(x, n, ax, norm, "ifft")
            return _fft1(x, lengths[-1], axes_[-1], norm, "irfft")
        for n, ax in zip(lengths[::-1], axes_[::-1]):
            x = _fft1(x, n, ax, norm, one_dim)
        return x
    return implements(fn)(impl)


for _kind, _one in [("fftn", "fft"), ("ifftn", "ifft"), ("rfftn", "rfft"), ("irfftn", "irfft")]:
    _n_dim(_kind, _one)
for _kind, _one in [("fft2", "fft"), ("ifft2", "ifft"), ("rfft2", "rfft"), ("irfft2", "irfft")]:
    _n_dim(_kind, _one, (-2, -1))


@implements(np.fft.fftfreq)
def fftfreq(n, d=1.0, device=None):
    n = operator.index(n)
    ints = np.concatenate([np.arange(0, (n - 1) // 2 + 1), np.arange(-(n // 2), 0)])
    return ints * (1.0 / (n * to_tracer(d)))


@implements(np.fft.rfftfreq)
def rfftfreq(n, d=1.0, device=None):
    n = operator.index(n)
    return np.arange(0, n // 2 + 1) * (1.0 / (n * to_tracer(d)))


def _shift(x, axes, sign):
    x = to_tracer(x)
    axes = tuple(range(x.ndim)) if axes is None else \
        ((axes,) if isinstance(axes, (int, np.integer)) else tuple(axes))
    shifts = [sign * (x.shape[axis_index(a, x.ndim)] // 2) for a in axes]
    return roll(x, shifts, axes) if axes else x


@implements(np.fft.fftshift)
def fftshift(x, axes=None):
    return _shift(x, axes, 1)


@implements(np.fft.ifftshift)
def ifftshift(x, axes=None):
    return _shift(x, axes, -1)

