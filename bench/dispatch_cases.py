"""Small everyday functions for ``bench.dispatch --small``: each as NumPy code would
write it, with the arguments it takes at a size (the element count of its main
array; 2-d inputs get about that many elements)."""
from __future__ import annotations

import math

import numpy as np


# ------------------------------------------------------------------ elementwise
def affine(x):
    return 2.0 * x + 1.0


def chain(x):
    return np.sqrt(np.abs(np.sin(x) * np.cos(x)) + 1.0)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def relu(x):
    return np.maximum(x, 0.0)


def leaky_relu(x):
    return np.where(x > 0, x, 0.01 * x)


def clip(x):
    return np.clip(x, -1.0, 1.0)


def huber(x):
    r = np.abs(x)
    return np.where(r < 1.0, 0.5 * r * r, r - 0.5).mean()


# ------------------------------------------------------------------ reductions
def total(x):
    return x.sum()


def mean_abs(x):
    return np.mean(np.abs(x))


def value_range(x):
    return x.max() - x.min()


def l2norm(x):
    return np.sqrt(np.dot(x, x))


# ------------------------------------------------------------------ normalization
def std(x):
    return (x - x.mean()) / (x.std() + 1e-12)


def minmax_scale(x):
    return (x - x.min()) / (x.max() - x.min() + 1e-12)


def softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum()


def logsumexp(x):
    m = x.max()
    return m + np.log(np.sum(np.exp(x - m)))


def clip_by_norm(g):
    return g * min(1.0, 5.0 / (np.linalg.norm(g) + 1e-6))


def row_normalize(X):
    return X / (np.linalg.norm(X, axis=1, keepdims=True) + 1e-12)


# ------------------------------------------------------------------ models, geometry
def logreg_step(w, X, y, lr):
    p = 1.0 / (1.0 + np.exp(-(X @ w)))
    grad = X.T @ (p - y) / y.shape[0]
    return w - lr * grad


def pairwise_dist(A):
    d = A[:, None, :] - A[None, :, :]
    return np.sqrt((d * d).sum(axis=-1))


def matmul(A, B):
    return A @ B


# ------------------------------------------------------------------ loops, scans
def horner(x):
    acc = np.zeros_like(x)
    for c in (0.5, -0.25, 0.125, -0.0625, 1.0):
        acc = acc * x + c
    return acc


def running_max(x):
    out = np.empty_like(x)
    m = -np.inf
    for i in range(x.shape[0]):
        m = max(m, x[i])
        out[i] = m
    return out


def moving_average(x):
    c = np.cumsum(x)
    c[3:] = c[3:] - c[:-3]
    return c[2:] / 3.0


# ------------------------------------------------------------------ argmax, masks
def one_hot_argmax(x):
    out = np.zeros_like(x)
    out[np.argmax(x)] = 1.0
    return out


def row_argmax(X):
    return np.argmax(X, axis=1)


def positive_sum(x):
    return x[x > 0].sum()


def fraction_above(x):
    return (x > 0.5).mean()


def zero_negatives(x):
    y = x.copy()
    y[y < 0] = 0.0
    return y


def _vector(n, rng):
    return rng.standard_normal(n)


def _rows(n, rng, width=4):
    return rng.standard_normal((max(1, n // width), width))


def _points(n, rng):
    return rng.standard_normal((max(1, math.isqrt(n)), 3))


def _square(n, rng):
    k = max(1, math.isqrt(n))
    return rng.standard_normal((k, k))


def _logreg(n, rng):
    X = rng.standard_normal((max(1, n // 8), 8))
    return rng.standard_normal(8), X, (rng.random(X.shape[0]) > 0.5).astype(float), 0.1


# name -> (function, (n, random generator) -> arguments[, largest size])
CASES = {
    "affine": (affine, lambda n, r: (_vector(n, r),)),
    "chain": (chain, lambda n, r: (_vector(n, r),)),
    "sigmoid": (sigmoid, lambda n, r: (_vector(n, r),)),
    "relu": (relu, lambda n, r: (_vector(n, r),)),
    "leaky_relu": (leaky_relu, lambda n, r: (_vector(n, r),)),
    "clip": (clip, lambda n, r: (_vector(n, r),)),
    "huber": (huber, lambda n, r: (_vector(n, r),)),
    "total": (total, lambda n, r: (_vector(n, r),)),
    "mean_abs": (mean_abs, lambda n, r: (_vector(n, r),)),
    "value_range": (value_range, lambda n, r: (_vector(n, r),)),
    "l2norm": (l2norm, lambda n, r: (_vector(n, r),)),
    "std": (std, lambda n, r: (_vector(n, r),)),
    "minmax_scale": (minmax_scale, lambda n, r: (_vector(n, r),)),
    "softmax": (softmax, lambda n, r: (_vector(n, r),)),
    "logsumexp": (logsumexp, lambda n, r: (_vector(n, r),)),
    "clip_by_norm": (clip_by_norm, lambda n, r: (_vector(n, r),)),
    "row_normalize": (row_normalize, lambda n, r: (_rows(n, r),)),
    "logreg_step": (logreg_step, _logreg),
    "pairwise_dist": (pairwise_dist, lambda n, r: (_points(n, r),)),
    "matmul": (matmul, lambda n, r: (_square(n, r), _square(n, r))),
    "horner": (horner, lambda n, r: (_vector(n, r),)),
    # NumPy runs its loop in Python: tens of milliseconds a call past this size.
    "running_max": (running_max, lambda n, r: (_vector(n, r),), 4096),
    "moving_average": (moving_average, lambda n, r: (_vector(n, r),)),
    "one_hot_argmax": (one_hot_argmax, lambda n, r: (_vector(n, r),)),
    "row_argmax": (row_argmax, lambda n, r: (_rows(n, r),)),
    "positive_sum": (positive_sum, lambda n, r: (_vector(n, r),)),
    "fraction_above": (fraction_above, lambda n, r: (_vector(n, r),)),
    "zero_negatives": (zero_negatives, lambda n, r: (_vector(n, r),)),
}

SIZES = (1, 16, 1000, 4096, 65536)
