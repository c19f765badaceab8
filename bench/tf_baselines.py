"""Hand-written baselines: each kernel over ``tf.experimental.numpy``, as the
TensorFlow NumPy guide writes them, to be wrapped in ``tf.function``.

The guide also calls ``tnp.experimental_enable_numpy_behavior()``; that flips
global TensorFlow behaviour (operators, type promotion) for the whole process,
nptf included, so these are written without it: ``tnp.transpose(k)`` instead of
``k.T``, tnp functions instead of NumPy methods.

Kernels that need item assignment inside a Python loop have no reasonable tnp
spelling (tensors are immutable; it would be a different algorithm written in
``tf.scan``/``TensorArray``): they map to ``None`` and are reported as n/a.
"""
from __future__ import annotations

import math

import tensorflow as tf
import tensorflow.experimental.numpy as tnp

from . import kernels as k


def sigmoid(y):
    return 1.0 / (1.0 + tnp.exp(-y))


def gelu(x):
    return 0.5 * x * (1.0 + tnp.tanh(k.GELU_C * (x + 0.044715 * x ** 3)))


def saxpy(x, y):
    return 2.5 * x + y


def softmax(x):
    e = tnp.exp(x - tnp.max(x, axis=-1, keepdims=True))
    return e / tnp.sum(e, axis=-1, keepdims=True)


def logsumexp(x):
    m = tnp.max(x, axis=-1, keepdims=True)
    return m[..., 0] + tnp.log(tnp.sum(tnp.exp(x - m), axis=-1))


def layer_norm(x, gamma, beta):
    mean = tnp.mean(x, axis=-1, keepdims=True)
    var = tnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) / tnp.sqrt(var + 1e-5) * gamma + beta


def standardize_rows(x):
    return (x - tnp.mean(x, axis=1, keepdims=True)) / tnp.std(x, axis=1, keepdims=True)


def pairwise_distances(a, b):
    return tnp.sqrt(tnp.sum((a[:, None, :] - b[None, :, :]) ** 2, axis=-1))


def attention(q, k_, v):
    scores = tnp.matmul(q, tnp.transpose(k_)) / math.sqrt(q.shape[-1])
    return tnp.matmul(softmax(scores), v)


def _heat_interior(u):
    return u[1:-1, 1:-1] + k.HEAT_ALPHA * (
        u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4.0 * u[1:-1, 1:-1])


def heat_step(u):
    # No slice assignment on tensors: pad the new interior with the old border.
    inner = tnp.concatenate([u[1:-1, :1], _heat_interior(u), u[1:-1, -1:]], axis=1)
    return tnp.concatenate([u[:1], inner, u[-1:]], axis=0)


def heat_1000_steps(u):
    # tf.range makes autograph build one graph loop instead of 1,000 copies.
    for _ in tf.range(1000):
        u = heat_step(u)
    return u


def jacobi(a, b):
    d = tnp.diag(a)
    rest = a - tnp.diag(d)
    x = tnp.zeros_like(b)
    err = tf.constant(1.0, b.dtype)
    while err > k.JACOBI_TOL:     # autograph: a tf.while_loop
        x_new = (b - tnp.matmul(rest, x)) / d
        err = tnp.max(tnp.abs(x_new - x))
        x = x_new
    return x


def nbody(pos, vel, mass):
    for _ in range(k.NBODY_STEPS):   # a Python range: unrolled, as in the NumPy code
        d = pos[None, :, :] - pos[:, None, :]
        r2 = tnp.sum(d * d, axis=-1) + k.NBODY_SOFTENING
        weight = mass[None, :] * r2 ** -1.5
        acc = tnp.sum(d * weight[:, :, None], axis=1)
        vel = vel + k.NBODY_DT * acc
        pos = pos + k.NBODY_DT * vel
    return pos, vel


def relu_inplace(x):
    return tnp.where(x < 0, tnp.zeros_like(x), x)


def smooth_interior(x):
    inner = (x[:-2] + x[1:-1] + x[2:]) / 3.0
    return tnp.concatenate([x[:1], inner, x[-1:]])


def matmul_chain(a, b, c):
    return tnp.matmul(tnp.maximum(tnp.matmul(a, b), 0), c)


def solve(a, b):
    return tf.linalg.solve(a, b[:, None])[:, 0]     # tnp has no linalg; tf.linalg it is


def cholesky(a):
    return tf.linalg.cholesky(a)


def fft_lowpass(x):
    n = x.shape[0]
    spectrum = tf.signal.rfft(x)                     # tnp has no fft; rfft wants float32
    keep = tnp.arange(spectrum.shape[0]) < n // 8
    spectrum = tnp.where(keep, spectrum, tnp.zeros_like(spectrum))
    return tf.signal.irfft(spectrum, fft_length=[n])


BASELINES = {
    "sigmoid": sigmoid, "gelu": gelu, "saxpy": saxpy, "softmax": softmax,
    "logsumexp": logsumexp, "layer_norm": layer_norm, "standardize_rows": standardize_rows,
    "pairwise_distances": pairwise_distances, "attention": attention,
    "heat_step": heat_step, "heat_1000_steps": heat_1000_steps,
    "recurrence": None,      # item assignment in a Python loop: no reasonable tnp form
    "jacobi": jacobi, "nbody": nbody, "relu_inplace": relu_inplace,
    "smooth_interior": smooth_interior, "matmul_chain": matmul_chain,
    "solve": solve, "cholesky": cholesky, "fft_lowpass": fft_lowpass,
}
