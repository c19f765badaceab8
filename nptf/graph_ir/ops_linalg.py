"""IR ops for ``np.linalg`` kernels on stacks of matrices (``(..., M, N)``).

The tracer casts inputs to the dtype NumPy computes in (float64 for
integers, float32 stays float32) and broadcasts batch dimensions, so every
op here sees one floating or complex dtype and equal batch shapes.
"""
from __future__ import annotations

import numpy as np

from .evaluate import EVAL_RULES
from .ops import declare, register
from .types import ArrayType


def _real(dtype):
    return np.empty(0, dtype).real.dtype


def _same(ts, params):
    return [ts[0].strong()]


for _name in ("inv", "cholesky"):
    register(_name)(_same)


@register("solve", lambda ts, p: [ts[0].dtype, ts[0].dtype])
def _solve(ts, params):
    return [ts[1].strong()]


@register("det")
def _det(ts, params):
    return [ArrayType(ts[0].shape[:-2], ts[0].dtype)]


@register("slogdet")
def _slogdet(ts, params):
    batch = ts[0].shape[:-2]
    return [ArrayType(batch, ts[0].dtype), ArrayType(batch, _real(ts[0].dtype))]


@register("eigh")
def _eigh(ts, params):
    a = ts[0]
    values = ArrayType(a.shape[:-1], _real(a.dtype))
    return [values, a.strong()] if params["vectors"] else [values]


@register("eig")
def _eig(ts, params):
    a = ts[0]
    values = ArrayType(a.shape[:-1], a.dtype)
    return [values, a.strong()] if params["vectors"] else [values]


@register("eig_real")
def _eig_real(ts, params):
    """``eig_real(a)`` of a real matrix (stack): NumPy's eigenvalues and vectors as
    complex, whether NumPy returns them real (every eigenvalue's imaginary part zero) and
    whether they are stable (``_stable``), for the tracer's checks; LAPACK's real
    algorithm orders them, not the complex one's."""
    a = ts[0]
    c = np.result_type(a.dtype, np.complex64)
    values = ArrayType(a.shape[:-1], c)
    flag = ArrayType((), np.dtype(bool))
    return [values, ArrayType(a.shape, c), flag, flag] if params["vectors"] else \
        [values, flag, flag]


def eig_real_call(vectors, a):
    """What eig_real gives: NumPy's own eig (eigvals) of the real ``a``, whether it is
    real, and whether it is stable (``_stable``)."""
    c = np.result_type(a.dtype, np.complex64)
    try:
        w, v = np.linalg.eig(a) if vectors else (np.linalg.eigvals(a), None)
        stable = _stable(a, w, v)
    except np.linalg.LinAlgError:
        # Infs or NaNs, for which the tracer's check raises NumPy's error.
        w, v = np.full(a.shape[:-1], np.nan, c), np.full(a.shape, np.nan, c)
        stable = True
    out = (w.astype(c), v.astype(c)) if vectors else (w.astype(c),)
    return out + (np.bool_(w.dtype.kind != "c"), np.bool_(stable))


# The graph computes the matrix it asks LAPACK about with other rounding than NumPy
# would: LAPACK's order of a real matrix's eigenvalues and the signs of its vectors,
# which a change of the matrix in its last bits can flip, count as NumPy's only where
# changes of this relative size (more than such rounding) flip none.
_PERTURBATION = 1e-12


def _stable(a, w, v):
    """Whether the eigenvalues (real or complex, their order) and eigenvectors (their
    signs) LAPACK gives for ``a`` stay as they are for ``a`` changed by ``_PERTURBATION``
    of its size."""
    rng = np.random.default_rng(0)
    scale = np.max(np.abs(a), axis=(-2, -1), keepdims=True)
    for _ in range(3):
        changed = a + rng.uniform(-1, 1, a.shape) * _PERTURBATION * scale
        w2, v2 = np.linalg.eig(changed) if v is not None else (np.linalg.eigvals(changed), None)
        if w2.dtype.kind != w.dtype.kind or \
                not np.allclose(w2, w, rtol=1e-7, atol=1e-7 * scale.max()):
            return False
        if v is not None and not np.allclose(v2, v, atol=1e-5):
            return False
    return True


@register("svd")
def _svd(ts, params):
    a = ts[0]
    *batch, m, n = a.shape
    k = None if m is None or n is None else min(m, n)
    s = ArrayType(tuple(batch) + (k,), _real(a.dtype))
    if not params["compute_uv"]:
        return [s]
    cols = m if params["full_matrices"] else k
    rows = n if params["full_matrices"] else k
    return [ArrayType(tuple(batch) + (m, cols), a.dtype), s,
            ArrayType(tuple(batch) + (rows, n), a.dtype)]


@register("qr")
def _qr(ts, params):
    a = ts[0]
    *batch, m, n = a.shape
    k = m if params["mode"] == "complete" else min(m, n)
    return [ArrayType(tuple(batch) + (m, k), a.dtype), ArrayType(tuple(batch) + (k, n), a.dtype)]


def _eval_eigh(p, a):
    return np.linalg.eigh(a, UPLO=p["uplo"]) if p["vectors"] else np.linalg.eigvalsh(a, UPLO=p["uplo"])


def _eval_eig(p, a):
    return tuple(np.linalg.eig(a)) if p["vectors"] else np.linalg.eigvals(a)


def _eval_svd(p, a):
    if not p["compute_uv"]:
        return np.linalg.svd(a, compute_uv=False)
    return tuple(np.linalg.svd(a, full_matrices=p["full_matrices"]))


def _eval_qr(p, a):
    return tuple(np.linalg.qr(a, mode=p["mode"]))


EVAL_RULES.update({
    "inv": lambda p, a: np.linalg.inv(a),
    "cholesky": lambda p, a: np.linalg.cholesky(a),
    "solve": lambda p, a, b: np.linalg.solve(a, b),
    "det": lambda p, a: np.linalg.det(a),
    "slogdet": lambda p, a: tuple(np.linalg.slogdet(a)),
    "eigh": _eval_eigh,
    "eig": _eval_eig,
    "eig_real": lambda p, a: eig_real_call(p["vectors"], a),
    "svd": _eval_svd,
    "qr": _eval_qr,
})


@register("lapack_regular")
def _lapack_regular(ts, params):
    """``lapack_regular(a, certain)``: for each matrix of the stack ``a``, whether NumPy's
    LAPACK finds it regular (no LU pivot exactly zero), asked only where ``certain`` (a
    bool per matrix: regular whatever the LU's rounding) does not already say so."""
    return [ArrayType(ts[0].shape[:-2], np.dtype(np.bool_))]


def regular_by_lapack(a, certain=None):
    """Whether NumPy's LU of each matrix of ``a`` meets no zero pivot (its ``inv`` and
    ``solve`` raise LinAlgError where one does), where ``certain`` does not say so."""
    a = np.asarray(a)
    out = np.zeros(a.shape[:-2], bool) if certain is None else np.array(certain, bool)
    for idx in np.ndindex(out.shape):
        if not out[idx]:
            try:
                np.linalg.inv(a[idx])
                out[idx] = True
            except np.linalg.LinAlgError:
                pass
    return out


EVAL_RULES["lapack_regular"] = lambda p, a, certain: regular_by_lapack(a, certain)
declare("lapack_regular", xla_obstacle=lambda in_types, params: True)

# XLA returns NaN for a singular matrix where NumPy raises; no XLA kernels for the rest.
declare(["inv", "solve", "det", "slogdet", "eig"], xla_obstacle=lambda in_types, params: True)
declare("eig_real", xla_obstacle=lambda in_types, params: "XLA cannot call Python (NumPy's "
        "eig of a real matrix, whose result dtype depends on the eigenvalues)")


def _signs(name):
    # Eigenvectors and singular vectors are NumPy's own, signs included, which only
    # LAPACK called through Python gives (``lowering/rules_linalg.py``); XLA cannot call
    # Python.
    return (f"the signs of the vectors of np.linalg.{name} are LAPACK's, which only NumPy, "
            f"called from the graph, gives")


declare("svd", xla_obstacle=lambda in_types, params: in_types[0].dtype.kind == "c" or (
    params.get("numpy_vectors") and _signs("svd")) or (
    in_types[0].dtype == np.float64 and
    "XLA's float64 SVD gives singular vectors good to 1e-7 only (NumPy's LAPACK, 1e-15)"))
declare("eigh", xla_obstacle=lambda in_types, params: params["vectors"] and _signs("eigh"))
# XLA's CPU decompositions run slower than TensorFlow's kernels at every size measured
# (cholesky: 0.044 against 0.021 ms at 16x16, 1.6 against 0.15 at 64x64; table in
# bench/RESULTS.md) and compile slowly; solve, inv, det and slogdet are kept off XLA
# anyway.
declare(["cholesky", "qr", "svd", "eigh", "eig", "solve", "inv", "det", "slogdet"],
        slower_under_xla=True)
