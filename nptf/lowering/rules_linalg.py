"""TF_RULES for ``np.linalg`` kernels (ops in ``graph_ir.ops_linalg``).

On the plain executor TensorFlow's ``MatrixInverse``/``MatrixSolve`` kernels
fail with ``InvalidArgumentError`` on exactly singular input, where NumPy
raises ``LinAlgError``. XLA would return NaN instead, so
``lower.XLA_OBSTACLES`` keeps those two ops off XLA. ``cholesky`` returns NaN
for a matrix that is not positive definite; the tracer adds a ``check``.
"""
from __future__ import annotations

import tensorflow as tf

from .rules import rule

rule("inv")(lambda ctx, a: tf.linalg.inv(a))
rule("solve")(lambda ctx, a, b: tf.linalg.solve(a, b))
rule("cholesky")(lambda ctx, a: tf.linalg.cholesky(a))
rule("det")(lambda ctx, a: tf.linalg.det(a))


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
    a = _hermitian_from(a, uplo)
    # TensorFlow returns complex eigenvalues for complex input; they are real.
    if vectors:
        w, v = tf.linalg.eigh(a)
        return tf.math.real(w), v
    return tf.math.real(tf.linalg.eigvalsh(a))


@rule("eig")
def _eig(ctx, a, vectors):
    return tf.linalg.eig(a) if vectors else tf.linalg.eigvals(a)


@rule("svd")
def _svd(ctx, a, full_matrices, compute_uv):
    if not compute_uv:
        return tf.math.real(tf.linalg.svd(a, compute_uv=False))
    s, u, v = tf.linalg.svd(a, full_matrices=full_matrices)
    return u, tf.math.real(s), tf.linalg.adjoint(v)


@rule("qr")
def _qr(ctx, a, mode):
    q, r = tf.linalg.qr(a, full_matrices=mode == "complete")
    return q, r
