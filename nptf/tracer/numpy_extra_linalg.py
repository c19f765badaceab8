"""The array-API names of core functions in ``np.linalg`` (matmul, outer, tensordot,
trace, diagonal, cross, matrix_transpose) and the vector products of the
``vecdot``/``matvec``/``vecmat`` gufuncs, each one matrix product per broadcast
pair so dtypes (bool included) follow ``np.matmul``; tensorsolve/tensorinv as
reshapes around ``solve``/``inv``.
"""
from __future__ import annotations

import math

import numpy as np

from ..errors import unsupported, user_location, with_location
from .numpy_api import axis_index, astype, broadcast_to, implements, moveaxis, swapaxes
from .numpy_extra import shaped_sample
from .tracer import Tracer, numpy_says, to_tracer


def _scalar_if_0d(t):
    return Tracer(t.atom, is_scalar=t.ndim == 0)


@implements(np.matrix_transpose, np.linalg.matrix_transpose)
def matrix_transpose(x, /):
    x = to_tracer(x)
    if x.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {x.ndim}\n"
                         f"  at {user_location()}")
    return swapaxes(x, -1, -2)


@implements(np.linalg.matmul)
def linalg_matmul(x1, x2, /):
    return np.matmul(x1, x2)


@implements(np.linalg.outer)
def linalg_outer(x1, x2, /):
    x1, x2 = to_tracer(x1), to_tracer(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"Input arrays must be one-dimensional, but they are x1.ndim={x1.ndim} "
                         f"and x2.ndim={x2.ndim}.\n  at {user_location()}")
    return np.outer(x1, x2)


@implements(np.linalg.tensordot)
def linalg_tensordot(x1, x2, /, *, axes=2):
    return np.tensordot(x1, x2, axes=axes)


@implements(np.linalg.trace)
def linalg_trace(x, /, *, offset=0, dtype=None):
    return np.trace(x, offset, axis1=-2, axis2=-1, dtype=dtype)


@implements(np.linalg.diagonal)
def linalg_diagonal(x, /, *, offset=0):
    return np.diagonal(x, offset, axis1=-2, axis2=-1)


@implements(np.linalg.cross)
def linalg_cross(x1, x2, /, *, axis=-1):
    x1, x2 = to_tracer(x1), to_tracer(x2)
    n1, n2 = (x.shape[axis_index(axis, x.ndim)] for x in (x1, x2))
    if n1 != 3 or n2 != 3:
        raise ValueError(f"Both input arrays must be (arrays of) 3-dimensional vectors, but they "
                         f"are {n1} and {n2} dimensional instead.\n  at {user_location()}")
    return np.cross(x1, x2, axis=axis)


def _matmul_cast(a, b, dtype):
    out = np.matmul(astype(a, dtype), astype(b, dtype))
    return astype(out, dtype)


@implements(np.linalg.vecdot, np.vecdot)
def vecdot(x1, x2, /, *, axis=-1, **ufunc_kwargs):
    """``sum(conj(x1) * x2, axis)``, as one matrix product per broadcast pair of vectors."""
    if ufunc_kwargs:
        raise unsupported(f"np.vecdot(..., {', '.join(ufunc_kwargs)}=...)")
    a, b = to_tracer(x1), to_tracer(x2)
    probe = numpy_says(np.vecdot, shaped_sample(a), shaped_sample(b), axis=axis)
    a, b = moveaxis(a, axis, -1), moveaxis(b, axis, -1)
    if a.dtype.kind == "c":
        a = np.conjugate(a)
    out = _matmul_cast(a[..., None, :], b[..., :, None], probe.dtype)[..., 0, 0]
    return _scalar_if_0d(broadcast_to(out, probe.shape))


# The np.vecdot/np.matvec/np.vecmat gufuncs reach nptf through __array_ufunc__, which hands
# IMPLS entries their call with the ufunc's keywords.
@implements(np.matvec)
def matvec(x1, x2, /, **ufunc_kwargs):
    if ufunc_kwargs:
        raise unsupported(f"np.matvec(..., {', '.join(ufunc_kwargs)}=...)")
    a, b = to_tracer(x1), to_tracer(x2)
    probe = numpy_says(np.matvec, shaped_sample(a), shaped_sample(b))
    return _matmul_cast(a, b[..., :, None], probe.dtype)[..., 0]


@implements(np.vecmat)
def vecmat(x1, x2, /, **ufunc_kwargs):
    if ufunc_kwargs:
        raise unsupported(f"np.vecmat(..., {', '.join(ufunc_kwargs)}=...)")
    a, b = to_tracer(x1), to_tracer(x2)
    probe = numpy_says(np.vecmat, shaped_sample(a), shaped_sample(b))
    if a.dtype.kind == "c":
        a = np.conjugate(a)
    return _matmul_cast(a[..., None, :], b, probe.dtype)[..., 0, :]


@implements(np.linalg.tensorsolve)
def tensorsolve(a, b, axes=None):
    a, b = to_tracer(a), to_tracer(b)
    an = a.ndim
    if axes is not None:
        order = list(range(an))
        for k in axes:
            order.remove(k)
            order.insert(an, k)
        a = np.transpose(a, order)
    old_shape = a.shape[-(an - b.ndim):]
    size = math.prod(old_shape)
    if math.prod(a.shape) != size ** 2:
        raise with_location(np.linalg.LinAlgError(
            "Input arrays must satisfy the requirement prod(a.shape[b.ndim:]) == "
            "prod(a.shape[:b.ndim])"), user_location())
    return np.reshape(np.linalg.solve(np.reshape(a, (size, size)), np.ravel(b)), old_shape)


@implements(np.linalg.tensorinv)
def tensorinv(a, ind=2):
    a = to_tracer(a)
    if ind <= 0:
        raise ValueError(f"Invalid ind argument.\n  at {user_location()}")
    inverse_shape = a.shape[ind:] + a.shape[:ind]
    inverse = np.linalg.inv(np.reshape(a, (math.prod(a.shape[ind:]), -1)))
    return np.reshape(inverse, inverse_shape)
