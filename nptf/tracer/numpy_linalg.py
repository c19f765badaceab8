"""``np.linalg``: kernels as IR ops, the rest (pinv, norm, cond, lstsq, ranks,
powers, multi_dot) composed from them the way NumPy composes them.

Argument errors (non-square, too few dimensions, float16) come from NumPy run
on a small sample of the same dtype. Errors that depend on the values surface
when the graph runs: a non positive-definite ``cholesky`` by a check, singular
input to ``inv``/``solve`` as TensorFlow's ``InvalidArgumentError`` where its LU
meets a zero pivot, and, for a matrix only LAPACK can call singular or not, by a
check that asks NumPy's LAPACK (``_regular_as_lapack_finds``).
"""
from __future__ import annotations

import operator

import numpy as np

from ..errors import unsupported, unsupported_size, user_location
from . import numpy_math as m
from .numpy_api import (NoValue, arange, axes_of, astype, broadcast_to, implements, moveaxis,
                        reshape, swapaxes, zeros)
from .assumptions import assume_kind
from .numpy_misc import vander
from .tracer import Tracer, dim_of, emit, numpy_says, to_tracer

la = np.linalg


def _sample(a):
    """A well-conditioned matrix (stack) with ``a``'s dtype and core shape, for asking NumPy."""
    if a.ndim < 2:
        return np.zeros(a.shape, a.dtype)
    return np.eye(a.shape[-2], a.shape[-1], dtype=a.dtype).reshape((1,) * (a.ndim - 2) +
                                                                 a.shape[-2:])


def _prepare(a, fn, *args, run_time_sizes=False, **kwargs):
    """``a`` cast to the dtype NumPy's ``fn`` computes in (its errors raised now).
    ``run_time_sizes``: square matrices of sizes known only at run time are taken (a
    submatrix ``P[np.ix_(keep, keep)]`` of a selection), checked then to be square."""
    a = to_tracer(a)
    if None in a.shape:
        if not run_time_sizes or None in a.shape[:-2] or a.ndim < 2:
            raise unsupported(f"np.linalg.{fn.__name__} of an array with a dimension of "
                              f"unknown size")
        result = numpy_says(fn, np.eye(2, dtype=a.dtype), *args, **kwargs)
        rows, cols = dim_of(a, a.ndim - 2), dim_of(a, a.ndim - 1)
        a = emit("check", [a, rows == cols], {
            "error": "LinAlgError",
            "message": f"Last 2 dimensions of the array must be square\n  at "
                       f"{user_location()}"})
        # Square whatever the data: the graph runs on past a failed check, to report it.
        k = np.minimum(rows, cols)
        a = a[..., :k, :k]
        return astype(a, a.dtype if a.dtype.kind in "fc" else np.float64), result
    result = numpy_says(fn, _sample(a), *args, **kwargs)
    # NumPy's linalg keeps float32/float64/complex and computes everything else in float64.
    return astype(a, a.dtype if a.dtype.kind in "fc" else np.float64), result


def _known_sizes(what, *arrays):
    """The SVD these solve with takes arrays of sizes known when tracing."""
    if any(None in t.shape for t in arrays):
        raise unsupported_size(f"{what} of an array with a dimension of unknown size")


def _python_int(t):
    """A traced integer that comes back as a Python ``int`` (what NumPy returns here)."""
    return emit("add", [t, 0], {"weak": True})


def _scalar(t):
    return Tracer(t.atom, is_scalar=t.ndim == 0)


def _adjoint(a):
    a = swapaxes(a, -1, -2)
    return np.conjugate(a) if a.dtype.kind == "c" else a


def _kernel_safe(a):
    """``(a, refused)``: ``a`` with the identity in place of each matrix TensorFlow's LU
    kernels refuse (an exactly zero or NaN pivot: their ``slogdet``, the same LU, gives
    -inf or NaN), and a bool per matrix saying which. The graph then runs whatever the
    data, and ``_regular_as_lapack_finds`` decides what NumPy does with them."""
    n = a.shape[-1]
    _, logabs = emit("slogdet", [a])
    refused = np.logical_not(logabs > -np.inf)
    if n is None:
        # A size known only at run time (``_prepare``): the identity of that size.
        k = arange(dim_of(a, a.ndim - 1))
        return np.where(refused[..., None, None], astype(k[:, None] == k[None, :], a.dtype),
                        a), refused
    eye = broadcast_to(astype(np.eye(n), a.dtype), a.shape)
    return np.where(refused[..., None, None], eye, a), refused


def _regular_as_lapack_finds(a, inverse, x, refused, what):
    """``x`` (a result computed with ``inverse``, ``a``'s inverse where ``refused`` is
    false) checked, when the graph runs, to come from matrices NumPy's LAPACK finds
    regular: NumPy raises LinAlgError where an LU pivot of LAPACK's is exactly zero, which
    TensorFlow's LU (another order of operations) need not meet
    (``np.arange(1., 10.).reshape(3, 3)``), nor the other way round. Both are backward
    stable, so they can disagree only on a matrix within about ``n**2 * eps`` (relative)
    of a singular one: below a condition number of ``1 / (100 n**2 eps)`` the matrix is
    certainly regular; nearer singular (or NaN), LAPACK itself is asked
    (``lapack_regular``). A matrix LAPACK finds regular and TensorFlow's LU does not
    has a result only NumPy gives: the call runs with NumPy."""
    if a.shape[-1] == 0:
        return x
    regular = _lapack_regular(a, inverse, refused)
    x = emit("check", [x, np.all(regular)], {
        "error": "LinAlgError",
        "message": f"Singular matrix (raised by {what})\n  at {user_location()}"})
    return _only_where_tensorflow_inverts(x, regular, refused, what)


def _lapack_regular(a, inverse, refused):
    """Which matrices of ``a`` NumPy's LAPACK finds regular (``_regular_as_lapack_finds``),
    a traced bool per matrix."""
    n = a.shape[-1]
    if n is None:
        n = dim_of(a, a.ndim - 1)
    eps = np.finfo(a.dtype).eps
    # (norms of no columns are 0: a 0 x 0 matrix, of a size known only at run time)
    norm_a = np.max(np.sum(np.abs(a), axis=-2), axis=-1, initial=0.0)
    norm_inverse = np.max(np.sum(np.abs(inverse), axis=-2), axis=-1, initial=0.0)
    certain = np.logical_and(norm_a * norm_inverse * (100.0 * n * n * eps) < 1.0,
                             np.logical_not(refused))
    return emit("lapack_regular", [a, certain])


def _only_where_tensorflow_inverts(x, regular, refused, what):
    """``x``, checked when the graph runs to need no matrix LAPACK finds regular and
    TensorFlow's LU does not invert: NumPy alone has that result."""
    return emit("check", [x, np.logical_not(np.any(np.logical_and(refused, regular)))], {
        "error": "OutsideTheGraph",
        "message": f"{what} of a matrix NumPy's LAPACK finds regular, on which TensorFlow's "
                   f"LU meets a zero pivot\n  at {user_location()}"})


@implements(la.inv)
def inv(a):
    a, _ = _prepare(a, la.inv, run_time_sizes=True)
    safe, refused = _kernel_safe(a)
    x = emit("inv", [safe])
    return _regular_as_lapack_finds(a, x, x, refused, "np.linalg.inv")


@implements(la.solve)
def solve(a, b):
    a, _ = _prepare(a, la.inv, run_time_sizes=True)
    b = to_tracer(b)
    if None in a.shape + b.shape:
        return _solve_of_run_time_sizes(a, b)
    dtype = numpy_says(la.solve, _sample(a), np.zeros(b.shape[-2:] if b.ndim > 1 else b.shape,
                                                         b.dtype)).dtype
    a, b = astype(a, dtype), astype(b, dtype)
    vector = b.ndim == 1
    if vector:
        b = reshape(b, b.shape + (1,))
    batch = numpy_says(np.broadcast_shapes, a.shape[:-2], b.shape[:-2])
    a, b = broadcast_to(a, batch + a.shape[-2:]), broadcast_to(b, batch + b.shape[-2:])
    safe, refused = _kernel_safe(a)
    x = _regular_as_lapack_finds(a, emit("inv", [safe]), emit("solve", [safe, b]), refused,
                                 "np.linalg.solve")
    return reshape(x, x.shape[:-1]) if vector else x


def _solve_of_run_time_sizes(a, b):
    """``solve`` of a matrix ``a`` (checked square) and ``b`` (a vector or a matrix, no
    batch) whose sizes only the run knows: NumPy's ValueError where ``b``'s rows are not
    ``a``'s columns."""
    if a.ndim != 2 or b.ndim not in (1, 2):
        raise unsupported("np.linalg.solve of stacks of matrices of sizes known only at run "
                          "time")
    sample_b = np.zeros((2,) + tuple(2 if d is None else d for d in b.shape[1:]), b.dtype)
    dtype = numpy_says(la.solve, np.eye(2, dtype=a.dtype), sample_b).dtype
    a, b = astype(a, dtype), astype(b, dtype)
    b = emit("check", [b, dim_of(b, 0) == dim_of(a, 1)], {
        "error": "ValueError",
        "message": f"solve: Input operand 1 has a mismatch in its core dimension 0, with "
                   f"gufunc signature (m,m),(m,n)->(m,n) (size {b.shape[0]} is different "
                   f"from {a.shape[-1]}; sizes known only at run time)\n  at "
                   f"{user_location()}"})
    vector = b.ndim == 1
    if vector:
        b = b[:, None]
    # ``a``'s rows whatever the data: the graph runs on past a failed check, to report it.
    n = dim_of(a, 0)
    b = np.concatenate([b, zeros((n,) + b.shape[1:], b.dtype)])[:n]
    safe, refused = _kernel_safe(a)
    x = _regular_as_lapack_finds(a, emit("inv", [safe]), emit("solve", [safe, b]), refused,
                                 "np.linalg.solve")
    return x[:, 0] if vector else x


@implements(la.det)
def det(a):
    a, _ = _prepare(a, la.det, run_time_sizes=True)
    return _scalar(emit("det", [a]))


@implements(la.slogdet)
def slogdet(a):
    a, _ = _prepare(a, la.slogdet, run_time_sizes=True)
    sign, logabs = emit("slogdet", [a])
    return la._linalg.SlogdetResult(_scalar(sign), _scalar(logabs))


@implements(la.cholesky)
def cholesky(a, /, *, upper=False):
    a, _ = _prepare(a, la.cholesky, run_time_sizes=True)
    low = emit("cholesky", [a])
    # TensorFlow (and XLA) fill the factor with NaN where LAPACK reports a failure.
    diag = np.diagonal(low, 0, -2, -1)
    ok = np.isfinite(diag) | ~np.isfinite(np.diagonal(a, 0, -2, -1))
    low = emit("check", [low, ok], {"message": "Matrix is not positive definite\n"
                                               f"  at {user_location()}", "error": "LinAlgError"})
    return _adjoint(low) if upper else low


@implements(la.eigh)
def eigh(a, UPLO="L"):
    a, _ = _prepare(a, la.eigh, UPLO)
    w, v = emit("eigh", [a], {"uplo": UPLO.upper(), "vectors": True})
    return la._linalg.EighResult(w, v)


@implements(la.eigvalsh)
def eigvalsh(a, UPLO="L"):
    a, _ = _prepare(a, la.eigvalsh, UPLO)
    return emit("eigh", [a], {"uplo": UPLO.upper(), "vectors": False})


def _real_eig(a, name, vectors, real=True):
    """NumPy's eig (eigvals) of a real matrix, whose result is real where every
    eigenvalue is (PCA's covariance, a reversible chain's transitions), complex otherwise:
    the graph gives the real result where the trace assumes so (``real`` unless the
    runtime flipped this ``assume`` site), else the complex one; a call whose eigenvalues
    are of the other kind fails the check of that assumption, and the runtime runs a
    graph traced with the other."""
    a = emit("check", [a, np.all(np.isfinite(a))], {
        "error": "LinAlgError", "message": f"Array must not contain infs or NaNs\n  at "
                                           f"{user_location()}"})
    real, check = assume_kind(name, ("real", "complex"), usual=real)
    outs = emit("eig_real", [a], {"vectors": vectors})
    *outs, all_real, stable = outs
    outs[0] = check(outs[0], all_real)
    outs[0] = emit("check", [outs[0], stable], {
        "error": "OutsideTheGraph",
        "message": f"{name} at {user_location()}: LAPACK's order of the eigenvalues or signs "
                   f"of the eigenvectors of this matrix change with its last bits, where the "
                   f"graph's rounding differs from NumPy's"})
    return [astype(np.real(o), a.dtype) for o in outs] if real else outs


@implements(np.roots)
def roots(p):
    """NumPy's companion matrix and its eigenvalues. Leading and trailing zero
    coefficients, which NumPy strips (the data would choose the result's length), run
    with NumPy; real coefficients give complex roots, or real ones where all are
    (``_real_eig``'s assumption)."""
    p = to_tracer(p)
    if p.ndim == 0:
        p = reshape(p, (1,))
    if p.ndim != 1:
        raise ValueError(f"Input must be a rank-1 array.\n  at {user_location()}")
    n = p.shape[0]
    if n is None:
        raise unsupported("np.roots of coefficients of a length known only at run time")
    if p.dtype.kind not in "fc":
        p = astype(p, np.float64)
    if n == 0:
        return np.zeros(0)
    p = emit("check", [p, np.logical_and(p[0] != 0, p[-1] != 0)], {
        "error": "OutsideTheGraph",
        "message": f"np.roots at {user_location()} of coefficients with a leading or trailing "
                   f"zero, which NumPy strips: the data choose the length of its result"})
    if n == 1:
        return astype(p[:0], np.float64 if p.dtype.kind == "f" else p.dtype)
    companion = np.concatenate([(-p[1:] / p[0])[None, :], np.eye(n - 2, n - 1, dtype=p.dtype)])
    if p.dtype.kind == "c":
        return emit("eig", [companion], {"vectors": False})
    return _real_eig(companion, "np.roots", False, real=False)[0]


@implements(la.eig)
def eig(a):
    a, _ = _prepare(a, la.eig)
    if a.dtype.kind != "c":
        return la._linalg.EigResult(*_real_eig(a, "np.linalg.eig", True))
    w, v = emit("eig", [a], {"vectors": True})
    return la._linalg.EigResult(w, v)


@implements(la.eigvals)
def eigvals(a):
    a, _ = _prepare(a, la.eigvals)
    if a.dtype.kind != "c":
        return _real_eig(a, "np.linalg.eigvals", False)[0]
    return emit("eig", [a], {"vectors": False})


@implements(la.svd)
def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    a, _ = _prepare(a, la.svd, full_matrices, compute_uv)
    if not compute_uv:
        return _svd(a, {"full_matrices": False, "compute_uv": False})
    # The user's own singular vectors: NumPy's signs (``numpy_vectors``).
    u, s, vh = _svd(a, {"full_matrices": bool(full_matrices), "compute_uv": True,
                        "numpy_vectors": True})
    return la._linalg.SVDResult(u, s, vh)


@implements(la.svdvals)
def svdvals(x, /):
    return svd(x, compute_uv=False)


@implements(la.qr)
def qr(a, mode="reduced"):
    if mode not in ("reduced", "complete", "r"):
        numpy_says(la.qr, np.eye(2), mode)
        raise unsupported(f"np.linalg.qr(..., mode={mode!r})")
    a, _ = _prepare(a, la.qr)
    q, r = emit("qr", [a], {"mode": "reduced" if mode == "r" else mode})
    return r if mode == "r" else la._linalg.QRResult(q, r)


@implements(la.pinv)
def pinv(a, rcond=None, hermitian=False, *, rtol=NoValue):
    a, _ = _prepare(a, la.pinv)
    if rcond is None:
        rcond = 1e-15 if rtol is NoValue else (
            max(a.shape[-2:]) * np.finfo(a.dtype).eps if rtol is None else rtol)
    elif rtol is not NoValue:
        raise ValueError(f"`rtol` and `rcond` can't be both set.\n  at {user_location()}")
    u, s, vh = _svd(np.conjugate(a) if a.dtype.kind == "c" else a,
                    {"full_matrices": False, "compute_uv": True})
    cutoff = np.asarray(rcond)[..., None] * m.max_(s, axis=-1, keepdims=True)
    large = s > cutoff
    s_inv = np.where(large, 1 / np.where(large, s, np.ones((), s.dtype)), np.zeros((), s.dtype))
    return m.matmul(swapaxes(vh, -1, -2), s_inv[..., :, None] * swapaxes(u, -1, -2))


def _svd(a, params):
    """The ``svd`` op of ``a``; where ``a`` holds a NaN or an infinity, LAPACK's SVD does
    not converge and NumPy raises LinAlgError (or handles it): such data run with NumPy."""
    finite = m.all_(np.isfinite(a))
    a = emit("check", [a, finite], {
        "error": "OutsideTheGraph",
        "message": f"an SVD of a matrix holding NaN or an infinity, on which NumPy's LAPACK "
                   f"raises LinAlgError ('SVD did not converge')\n  at {user_location()}"})
    return emit("svd", [a], params)


def _svd_values(a):
    return _svd(a, {"full_matrices": False, "compute_uv": False})


@implements(la.matrix_rank)
def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    A = to_tracer(A)
    if A.ndim < 2:
        return _python_int(astype(m.any_(A != 0), np.int64))
    A, _ = _prepare(A, la.matrix_rank)
    S = _svd_values(A)
    if tol is None:
        eps = np.finfo(S.dtype).eps
        rtol = max(A.shape[-2:]) * eps if rtol is None else rtol
        tol = m.max_(S, axis=-1, keepdims=True) * rtol
    else:
        tol = np.asarray(tol)[..., None]
    return _scalar(m.sum_(astype(S > tol, np.int64), axis=-1))


@implements(la.cond)
def cond(x, p=None):
    x, _ = _prepare(x, la.cond, p)
    if p in (None, 2, -2):
        s = _svd_values(x)
        r = s[..., 0] / s[..., -1] if p != -2 else s[..., -1] / s[..., 0]
    else:
        # NumPy's: the norms of the matrix and of its inverse, NaN (then inf) where LAPACK
        # finds the matrix singular.
        if x.shape[-1] is None or x.shape[-1] == 0:
            raise unsupported(f"np.linalg.cond(..., p={p!r}) of matrices of a size known "
                              f"only at run time, or empty ones")
        safe, refused = _kernel_safe(x)
        inverse = emit("inv", [safe])
        regular = _lapack_regular(x, inverse, refused)
        r = norm(x, p, axis=(-2, -1)) * norm(inverse, p, axis=(-2, -1))
        r = _only_where_tensorflow_inverts(np.where(regular, r, np.nan), regular, refused,
                                           "np.linalg.cond")
        if p == "nuc":
            # The SVD of NumPy's inverse of a singular matrix (NaN) does not converge.
            r = emit("check", [r, np.all(regular)], {
                "error": "LinAlgError",
                "message": f"SVD did not converge (np.linalg.cond)\n  at {user_location()}"})
    # NumPy reports a singular matrix (0 / 0) as infinitely ill-conditioned, unless x holds NaN.
    singular = np.isnan(r) & ~m.any_(np.isnan(x), axis=(-2, -1))
    return _scalar(np.where(singular, np.full((), np.inf, r.dtype), r))


@implements(la.matrix_power)
def matrix_power(a, n):
    a = to_tracer(a)
    numpy_says(la.matrix_power, _sample(a) if a.ndim >= 2 else np.zeros(a.shape, a.dtype), 0)
    n = operator.index(n)
    if n == 0:
        eye = np.eye(a.shape[-1], dtype=a.dtype)
        return broadcast_to(eye, a.shape)
    if n < 0:
        a, n = inv(a), -n
    result, square = None, a
    while n:
        if n & 1:
            result = square if result is None else m.matmul(result, square)
        n >>= 1
        if n:
            square = m.matmul(square, square)
    return result


@implements(la.multi_dot)
def multi_dot(arrays, *, out=None):
    if out is not None:
        raise unsupported("np.linalg.multi_dot(..., out=...)")
    arrays = [to_tracer(a) for a in arrays]
    if len(arrays) < 2:
        raise ValueError(f"Expecting at least two arrays.\n  at {user_location()}")
    result = arrays[0]
    for b in arrays[1:]:
        result = m.dot(result, b)
    return _scalar(result)


def _least_squares(a, b, rcond):
    """The minimum-norm solution through the SVD, as LAPACK's gelsd computes it."""
    u, s, vh = _svd(a, {"full_matrices": False, "compute_uv": True})
    large = s > rcond * m.max_(s)
    s_inv = np.where(large, 1 / np.where(large, s, np.ones((), s.dtype)), np.zeros((), s.dtype))
    return m.matmul(_adjoint(vh), s_inv[:, None] * m.matmul(_adjoint(u), b)), s, large


@implements(la.lstsq)
def lstsq(a, b, rcond=None):
    a, b = to_tracer(a), to_tracer(b)
    rows = a.type.shape[0] if a.ndim == 2 else 0
    if rows is None and b.ndim in (1, 2) and b.type.shape[0] is None:
        # Rows the data choose (a fit on the rows a mask or a fold keeps), as many in
        # ``b``; the columns known.
        if None in a.type.shape[1:] + b.type.shape[1:]:
            _known_sizes("np.linalg.lstsq", a, b)
        cols = a.type.shape[1]
        sample = (np.eye(cols + 1, cols, dtype=a.dtype),
                  np.zeros((cols + 1,) + b.type.shape[1:], b.dtype))
        n_rows = emit("dim", [a], {"axis": 0})
        same = n_rows == emit("dim", [b], {"axis": 0})
        a = emit("check", [a, same], {
            "error": "OutsideTheGraph",
            "message": "np.linalg.lstsq of arrays whose numbers of rows differ"})
    else:
        _known_sizes("np.linalg.lstsq", a, b)
        rows, cols = a.shape
        n_rows, sample = rows, (_sample(a), np.zeros(b.shape, b.dtype))
    dtype = numpy_says(la.lstsq, *sample, None if isinstance(rcond, Tracer) else rcond)[0].dtype
    a, b = astype(a, dtype), astype(b, dtype)
    vector = b.ndim == 1
    b2 = reshape(b, (-1, 1)) if vector else b
    if rcond is None:
        rcond = np.finfo(dtype).eps * (max(rows, cols) if rows is not None else
                                       np.maximum(n_rows, cols))
    x, s, large = _least_squares(a, b2, rcond)
    rank = astype(m.sum_(astype(large, np.int64)), np.int32)
    real = s.dtype
    if rows is None:
        # NumPy's residuals are empty where the rows are too few or ``a`` is rank
        # deficient: a shape the data choose, which NumPy's run gives.
        err = b2 - m.matmul(a, x)
        residuals = m.sum_(astype(np.abs(err), real) ** 2, axis=0)
        residuals = emit("check", [residuals, (rank == cols) & (n_rows > cols)], {
            "error": "OutsideTheGraph",
            "message": "np.linalg.lstsq of fewer rows than columns, or of a rank-deficient "
                       "matrix, has empty residuals, a shape nptf cannot know before the "
                       f"graph runs, at {user_location()}"})
        residuals = reshape(residuals, (1,)) if vector else residuals
    elif rows > cols:
        # NumPy's residuals are empty for rank-deficient ``a``: a shape only known at run time.
        err = b2 - m.matmul(a, x)
        residuals = m.sum_(astype(np.abs(err), real) ** 2, axis=0)
        residuals = emit("check", [residuals, rank == cols],
                         {"message": "np.linalg.lstsq of a rank-deficient matrix has empty "
                                     "residuals, a shape nptf cannot know before the graph "
                                     f"runs, at {user_location()}",
                          "error": "OutsideTheGraph"})
        residuals = reshape(residuals, (1,)) if vector else residuals
    else:
        residuals = broadcast_to(np.zeros((), real), (0,))
    x = reshape(x, (cols,)) if vector else x
    return x, residuals, _scalar(rank), s


# ------------------------------------------------------------------ norms
def _vector_norm(x, ord, axis, keepdims):
    absx = np.abs(x)
    if ord == np.inf:
        # NumPy's maximum starts at 0 (the norm of no values).
        return m.max_(absx, axis, keepdims=keepdims, initial=0)
    if ord == -np.inf:
        return m.min_(absx, axis, keepdims=keepdims)
    if ord == 0:
        return m.sum_(astype(x != 0, absx.dtype), axis, keepdims=keepdims)
    if ord == 1:
        return m.sum_(absx, axis, keepdims=keepdims)
    if ord is None or ord == 2:
        return np.sqrt(m.sum_(np.real(np.conjugate(x) * x) if x.dtype.kind == "c" else x * x,
                              axis, keepdims=keepdims))
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors\n  at {user_location()}")
    total = m.sum_(absx ** ord, axis, keepdims=keepdims)
    return total ** np.reciprocal(ord, dtype=total.dtype)


def _matrix_norm(x, ord, axes, keepdims):
    row, col = axes
    if ord in (2, -2, "nuc"):
        s = _svd_values(moveaxis(x, (row, col), (-2, -1)))
        r = m.max_(s, -1) if ord == 2 else m.min_(s, -1) if ord == -2 else m.sum_(s, -1)
    elif ord in (1, -1):
        sums = m.sum_(np.abs(x), row)
        axis = col - 1 if col > row else col
        r = m.max_(sums, axis, initial=0) if ord == 1 else m.min_(sums, axis)
    elif ord in (np.inf, -np.inf):
        sums = m.sum_(np.abs(x), col)
        axis = row - 1 if row > col else row
        r = m.max_(sums, axis, initial=0) if ord == np.inf else m.min_(sums, axis)
    elif ord in (None, "fro", "f"):
        r = np.sqrt(m.sum_(np.real(np.conjugate(x) * x) if x.dtype.kind == "c" else x * x, axes))
    else:
        raise ValueError(f"Invalid norm order for matrices.\n  at {user_location()}")
    if keepdims:
        r = reshape(r, tuple(1 if i in axes else d for i, d in enumerate(x.shape)))
    return r


@implements(la.norm)
def norm(x, ord=None, axis=None, keepdims=False):
    x = to_tracer(x)
    if x.dtype.kind not in "fc":
        x = astype(x, np.float64)
    if axis is None and (ord is None or (ord in ("f", "fro") and x.ndim == 2) or
                         (ord == 2 and x.ndim == 1)):
        flat = reshape(x, (-1,))
        r = _vector_norm(flat, None, 0, False)
        return reshape(r, (1,) * x.ndim) if keepdims else _scalar(r)
    axes = axes_of(tuple(range(x.ndim)) if axis is None else axis, x.ndim)
    if len(axes) == 1:
        return _scalar(_vector_norm(x, ord, axes[0], keepdims))
    if len(axes) == 2:
        if axes[0] == axes[1]:
            raise ValueError(f"Duplicate axes given.\n  at {user_location()}")
        return _scalar(_matrix_norm(x, ord, axes, keepdims))
    raise ValueError(f"Improper number of dimensions to norm.\n  at {user_location()}")


@implements(np.linalg.matrix_norm)
def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    return norm(x, ord, (-2, -1), keepdims)


@implements(np.linalg.vector_norm)
def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    x = to_tracer(x)
    if x.dtype.kind not in "fc":
        x = astype(x, np.float64)
    if axis is None:
        r = _vector_norm(reshape(x, (-1,)), ord, 0, False)
        return reshape(r, (1,) * x.ndim) if keepdims else _scalar(r)
    axes = axes_of(axis, x.ndim)
    if len(axes) > 1:
        kept = [i for i in range(x.ndim) if i not in axes]
        flat = reshape(np.transpose(x, kept + list(axes)), tuple(x.shape[i] for i in kept) + (-1,))
        r = _vector_norm(flat, ord, -1, False)
        return reshape(r, tuple(1 if i in axes else d for i, d in enumerate(x.shape))) \
            if keepdims else _scalar(r)
    return _scalar(_vector_norm(x, ord, axes[0], keepdims))


@implements(np.polyfit)
def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    x, y = to_tracer(x) + 0.0, to_tracer(y) + 0.0
    if None in x.type.shape[1:] + y.type.shape[1:]:
        _known_sizes("np.polyfit", x, y)
    order = operator.index(deg) + 1
    samples = (np.arange(max(order, 1), dtype=x.dtype),
               np.zeros((max(order, 1),) + y.shape[1:], y.dtype))
    if w is not None:
        w = to_tracer(w) + 0.0
        # NumPy's errors for the weights' rank and length, on samples of the points'.
        length = samples[0].shape[0] + (w.ndim == 1 and None not in (w.shape[0], y.shape[0])
                                        and w.shape[0] != y.shape[0])
        numpy_says(np.polyfit, *samples, deg, w=np.ones((length,) + w.shape[1:], w.dtype))
    numpy_says(np.polyfit, *samples, deg)
    n = x.shape[0]
    if n is None or y.shape[0] is None or (w is not None and w.shape[0] is None):
        # Points the data choose (``np.polyfit(t[m], v[m], 1)``): NumPy's errors for
        # their number, when the graph runs.
        n = emit("dim", [x], {"axis": 0})
        fine = (n == emit("dim", [y], {"axis": 0})) & (n > 0)
        x = emit("check", [x, fine], {
            "error": "TypeError",
            "message": f"expected x and y to have same length, and a non-empty vector for x"
                       f"\n  at {user_location()}"})
        if w is not None:
            w = emit("check", [w, emit("dim", [w], {"axis": 0}) == n], {
                "error": "TypeError",
                "message": f"expected w and y to have the same length\n  at {user_location()}"})
    elif n != y.shape[0]:
        raise TypeError(f"expected x and y to have same length\n  at {user_location()}")
    rcond = n * np.finfo(x.dtype).eps if rcond is None else rcond
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        lhs = lhs * w[:, None]
        rhs = rhs * (w[:, None] if rhs.ndim == 2 else w)
    scale = np.sqrt(m.sum_(lhs * lhs, axis=0))
    lhs = lhs / scale
    dtype = np.result_type(lhs.dtype, rhs.dtype)
    lhs, rhs = astype(lhs, dtype), astype(rhs, dtype)
    if full or (cov and cov != "unscaled"):
        c, resids, rank, s = lstsq(lhs, rhs, rcond)
        c = c / (reshape(scale, (-1, 1)) if c.ndim == 2 else scale)
        if full:
            return c, resids, rank, s, rcond
    else:
        c, _, _ = _least_squares(lhs, reshape(rhs, (-1, max(1, int(np.prod(
            rhs.shape[1:], dtype=np.int64))))), rcond)
        c = reshape(c / reshape(scale, (-1, 1)), (order,) + y.shape[1:])
    if not cov:
        return c
    # NumPy's covariance of the coefficients: of the weighted, scaled Vandermonde matrix,
    # scaled by the residuals per degree of freedom unless ``cov="unscaled"``.
    base = inv(m.matmul(np.transpose(lhs), lhs)) / (scale[:, None] * scale[None, :])
    if cov == "unscaled":
        return c, base if y.ndim == 1 else base[:, :, None]
    if isinstance(n, Tracer):
        resids = emit("check", [resids, n > order], {
            "error": "ValueError",
            "message": f"the number of data points must exceed order to scale the covariance "
                       f"matrix\n  at {user_location()}"})
    elif n <= order:
        raise ValueError(f"the number of data points must exceed order to scale the "
                         f"covariance matrix\n  at {user_location()}")
    fac = resids / (n - order)
    return c, base * fac if y.ndim == 1 else base[:, :, None] * fac
