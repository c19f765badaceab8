"""TF_RULES for ``np.linalg`` kernels (ops in ``graph_ir.ops_linalg``).

TensorFlow's ``MatrixInverse``/``MatrixSolve`` kernels fail on a matrix their LU
finds singular; the tracer gives them the identity in its place and checks NumPy's
own answer (``lapack_regular``), so they never do. XLA would return NaN (or garbage)
instead, and their ``xla_obstacle`` (``graph_ir/ops_linalg.py``) keeps them off XLA.
``cholesky`` returns NaN for a matrix that is not positive definite; the tracer adds a
``check``.
"""
from __future__ import annotations

import numpy as np
import tensorflow as tf

from ..errors import UnsupportedError
from ..graph_ir.ops_linalg import eig_real_call, regular_by_lapack
from .rules import VECTORIZED, rule

rule("inv")(lambda ctx, a: tf.linalg.inv(a))
rule("solve")(lambda ctx, a, b: tf.linalg.solve(a, b))


@rule("cholesky")
def _cholesky(ctx, a):
    n = a.shape[-1]
    if ctx.xla or n is None or n < CHOLESKY_BLOCKED_FROM:
        return tf.linalg.cholesky(a)
    return _blocked_cholesky(a, n // 4)


# TensorFlow's Cholesky kernel (Eigen's LLT) runs in one thread and about 1.5x
# slower than LAPACK; its matrix products use every core. So large factors are
# computed a block column at a time (right-looking): the kernel factors each
# diagonal block, a triangular solve gives the panel below it, and one matrix
# product updates the rest, where most of the arithmetic is. Four block
# columns measured best from 512 (1.7x faster there, 1.5x at 1024); at 384 and
# below the extra ops cost more than they save.
CHOLESKY_BLOCKED_FROM = 512


def _blocked_cholesky(a, block):
    n = a.shape[-1]
    rest = a
    columns = []
    for start in range(0, n, block):
        width = min(block, n - start)
        diagonal = tf.linalg.cholesky(rest[..., :width, :width])
        if start + width < n:
            # panel = below * diagonal^-H, from diagonal * panel^H = below^H
            panel = tf.linalg.adjoint(tf.linalg.triangular_solve(
                diagonal, tf.linalg.adjoint(rest[..., width:, :width]), lower=True))
            rest = rest[..., width:, width:] - tf.matmul(panel, panel, adjoint_b=True)
            column = tf.concat([diagonal, panel], axis=-2)
        else:
            column = diagonal
        # NaN from a failed block spreads to every later block: the tracer's check sees it.
        columns.append(tf.pad(column, [[0, 0]] * (len(a.shape) - 2) + [[start, 0], [0, 0]]))
    return tf.concat(columns, axis=-1)
rule("det")(lambda ctx, a: tf.linalg.det(a))


@rule("lapack_regular")
def _lapack_regular(ctx, a, certain):
    """NumPy's LAPACK asked (through Python) only where a matrix is near singular; a
    SavedModel, which runs without Python, calls such a matrix singular."""
    if ctx.portable:
        return certain

    def ask():
        out = tf.numpy_function(regular_by_lapack, [a, certain], tf.bool, stateful=False)
        out.set_shape(certain.shape)
        return out
    if VECTORIZED.get():
        return ask()            # a Python call per row (regular_by_lapack skips the certain)
    return tf.cond(tf.reduce_all(certain), lambda: certain, ask)


@rule("slogdet")
def _slogdet(ctx, a):
    sign, logabs = tf.linalg.slogdet(a)
    return sign, tf.math.real(logabs)


def _hermitian_from(a, uplo):
    """The Hermitian matrix NumPy reads from one triangle of ``a`` (TensorFlow reads the lower)."""
    lower = tf.linalg.band_part(a, -1, 0)
    if uplo == "U":
        lower = tf.linalg.adjoint(tf.linalg.band_part(a, 0, -1))
    diagonal = tf.linalg.diag_part(lower)
    if diagonal.dtype.is_complex:  # LAPACK reads only the real part of the diagonal
        lower = tf.linalg.set_diag(lower, tf.complex(tf.math.real(diagonal),
                                                     tf.zeros_like(tf.math.real(diagonal))))
    strict = lower - tf.linalg.band_part(lower, 0, 0)
    return lower + tf.linalg.adjoint(strict)


@rule("eigh")
def _eigh(ctx, a, uplo, vectors):
    h = _hermitian_from(a, uplo)
    # TensorFlow returns complex eigenvalues for complex input; they are real.
    if vectors:
        w, v = tf.linalg.eigh(h)
        if ctx.xla or ctx.portable:
            return tf.math.real(w), v
        (v_np,) = _numpy_call(lambda x: np.linalg.eigh(x, UPLO=uplo)[1], [a], [v])
        return tf.math.real(w), _turned(v, v_np)
    return tf.math.real(tf.linalg.eigvalsh(h))


# Eigenvectors and singular vectors are unique only up to a sign (a phase, for complex
# ones), which each implementation picks its own way: TensorFlow's kernels pick
# otherwise than LAPACK for most matrices. A graph run in this process gives NumPy's
# own vectors, from LAPACK through Python, with the derivative of TensorFlow's vectors
# turned to them; an exported graph and XLA keep TensorFlow's (docs/differences-from-
# numpy.md).


def _numpy_call(call, xs, like):
    """``call(*xs)`` run by NumPy from the graph, of the dtypes and shapes of ``like``."""
    outs = tf.numpy_function(call, list(xs), [t.dtype for t in like], stateful=False)
    for out, t in zip(outs, like):
        out.set_shape(t.shape)
    return outs


def _turned(v, v_np, axis=-2):
    """NumPy's vectors ``v_np`` (along ``axis``), with the derivative of TensorFlow's
    ``v``, each turned by the sign (or phase) that makes it NumPy's; where a vector of
    NumPy's is not one of TensorFlow's turned (an eigenvalue of several vectors), its
    derivative is TensorFlow's for its own vectors."""
    phase = _phase(v, v_np, axis)
    turned = v * phase
    return turned + tf.stop_gradient(v_np - turned)


def _phase(v, v_np, axis):
    d = tf.stop_gradient(tf.reduce_sum(tf.math.conj(v) * v_np, axis=axis, keepdims=True))
    size = tf.abs(d)
    one = tf.ones_like(d)
    if d.dtype.is_complex:
        return tf.where(size > 0, d / tf.cast(tf.maximum(size, 1e-300), d.dtype), one)
    return tf.where(d < 0, -one, one)


@rule("eig")
def _eig(ctx, a, vectors):
    out = tf.linalg.eig(a) if vectors else tf.linalg.eigvals(a)
    if ctx.xla or ctx.portable:
        return out
    # LAPACK's order of the eigenvalues, and its phase of each vector (unit length, the
    # largest component real), which TensorFlow's kernel does not keep.
    if vectors:
        return tuple(_numpy_call(lambda x: tuple(np.linalg.eig(x)), [a], out))
    (values,) = _numpy_call(lambda x: np.linalg.eigvals(x), [a], [out])
    return values


@rule("eig_real")
def _eig_real(ctx, a, vectors):
    """NumPy's own eig of a real matrix, called from the graph: only LAPACK's real
    algorithm says which eigenvalues NumPy returns real (a SavedModel cannot call it)."""
    if ctx.portable:
        raise UnsupportedError(
            "np.linalg.eig of a real matrix: whether NumPy returns real or complex "
            "eigenvalues depends on the matrix, which only NumPy, called through Python, "
            "says. Cast the matrix to complex (or use np.linalg.eigh for a symmetric one).")
    c = tf.complex64 if a.dtype == tf.float32 else tf.complex128
    shapes = [a.shape[:-1], a.shape, (), ()] if vectors else [a.shape[:-1], (), ()]
    dtypes = [c, c, tf.bool, tf.bool] if vectors else [c, tf.bool, tf.bool]
    outs = tf.numpy_function(lambda x: eig_real_call(vectors, x), [a], dtypes, stateful=False)
    for out, shape in zip(outs, shapes):
        out.set_shape(shape)
    return tuple(outs)


@rule("svd")
def _svd(ctx, a, full_matrices, compute_uv, numpy_vectors=False):
    if not compute_uv:
        return tf.math.real(tf.linalg.svd(a, compute_uv=False))
    s, u, v = tf.linalg.svd(a, full_matrices=full_matrices)
    vt = tf.linalg.adjoint(v)
    if ctx.xla or ctx.portable or not numpy_vectors:
        return u, tf.math.real(s), vt
    u_np, vt_np = _numpy_call(
        lambda x: tuple(np.linalg.svd(x, full_matrices=full_matrices)[::2]), [a], [u, vt])
    # The vectors of each singular value turn together: u by a phase, v's row by its
    # conjugate, so that u * s * vt stays the matrix.
    k = min(a.shape[-2], a.shape[-1]) if None not in a.shape[-2:] else None
    if k is None:
        return u_np, tf.math.real(s), vt_np
    phase = _phase(u[..., :k], u_np[..., :k], -2)
    u_turned = tf.concat([u[..., :k] * phase, u[..., k:]], axis=-1)
    vt_turned = tf.concat([vt[..., :k, :] * tf.linalg.adjoint(phase), vt[..., k:, :]], axis=-2)
    return (u_turned + tf.stop_gradient(u_np - u_turned), tf.math.real(s),
            vt_turned + tf.stop_gradient(vt_np - vt_turned))


@rule("qr")
def _qr(ctx, a, mode):
    q, r = tf.linalg.qr(a, full_matrices=mode == "complete")
    return q, r
