"""The benchmark kernels: plain NumPy functions, each with an input maker per size.

Every kernel is an ordinary module-level NumPy function, exactly what a user
would hand to ``nptf.compile``. Constants are Python floats on purpose: under
NEP 50 a NumPy scalar such as ``np.sqrt(2 / np.pi)`` is strongly typed and
would promote a float32 array to float64, which is not what these kernels mean.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

SIZES = ("small", "medium", "large")

GELU_C = math.sqrt(2.0 / math.pi)
HEAT_ALPHA = 0.1          # explicit Euler is stable for alpha <= 0.25
RECURRENCE_ALPHA = 0.5
JACOBI_TOL = 1e-10
NBODY_DT = 0.01
NBODY_SOFTENING = 0.01
NBODY_STEPS = 10


# --------------------------------------------------------------- elementwise
def sigmoid(y):
    """The TensorFlow NumPy guide's benchmark: logistic sigmoid of a vector."""
    return 1.0 / (1.0 + np.exp(-y))


def gelu(x):
    """GELU, tanh approximation: a longer elementwise chain."""
    return 0.5 * x * (1.0 + np.tanh(GELU_C * (x + 0.044715 * x ** 3)))


def saxpy(x, y):
    """a*x + y: reads two arrays, writes one; pure memory traffic."""
    return 2.5 * x + y


def softmax(x):
    """Row softmax, shifted by the row maximum for stability."""
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def logsumexp(x):
    """Row log-sum-exp, shifted by the row maximum for stability."""
    m = np.max(x, axis=-1, keepdims=True)
    return m[..., 0] + np.log(np.sum(np.exp(x - m), axis=-1))


# ---------------------------------------------------- reductions, normalising
def layer_norm(x, gamma, beta):
    """Layer normalisation over the last axis with a learned scale and shift."""
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * gamma + beta


def standardize_rows(x):
    """Each row to zero mean and unit standard deviation."""
    return (x - x.mean(axis=1, keepdims=True)) / x.std(axis=1, keepdims=True)


# ------------------------------------------------------------- broadcasting
def pairwise_distances(a, b):
    """Euclidean distance between every row of a and every row of b."""
    return np.sqrt(np.sum((a[:, None, :] - b[None, :, :]) ** 2, axis=-1))


def attention(q, k, v):
    """Scaled dot-product attention: softmax(q @ k.T / sqrt(d)) @ v."""
    scores = q @ k.T / math.sqrt(q.shape[-1])   # math.sqrt: keep float32 (NEP 50)
    return softmax(scores) @ v


# ------------------------------------------------------------------ stencils
def heat_step(u):
    """One explicit step of the 2-D heat equation; the boundary is held fixed."""
    out = u.copy()
    out[1:-1, 1:-1] = u[1:-1, 1:-1] + HEAT_ALPHA * (
        u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4.0 * u[1:-1, 1:-1])
    return out


def heat_1000_steps(u):
    """1,000 heat-equation steps in a Python for loop (loop body: heat_step)."""
    for _ in range(1000):
        u = heat_step(u)
    return u


# ---------------------------------------------------------------- hot loops
def recurrence(b):
    """a[i] = a[i-1]*alpha + b[i], a Python loop with item assignment."""
    a = np.empty_like(b)
    a[0] = b[0]
    for i in range(1, b.shape[0]):
        a[i] = a[i - 1] * RECURRENCE_ALPHA + b[i]
    return a


def bubble_pass(b):
    """One pass of bubble sort: neighbours swapped in place where out of order (not in the
    suite; ``bench.passes`` measures the pass that merges the swap's two writes)."""
    a = b.copy()
    for i in range(a.shape[0] - 1):
        if a[i] > a[i + 1]:
            a[i], a[i + 1] = a[i + 1], a[i]
    return a


def reverse_in_place(b):
    """An in-place reversal by swaps from both ends (not in the suite; ``bench.loops``): the
    two positions meet in the middle of an odd length, so the swap's writes cannot be
    proven apart."""
    a = b.copy()
    n = a.shape[0]
    for i in range(n // 2):
        a[i], a[n - 1 - i] = a[n - 1 - i], a[i]
    return a


def deposit_windows(x):
    """Each sample spread over the four cells from its index on, with weights (a
    particle-in-cell style deposit; not in the suite, ``bench.loops``): a window written at a
    traced start every step."""
    out = np.zeros(x.shape[0] + 4)
    weights = np.array([0.125, 0.375, 0.375, 0.125])
    for i in range(x.shape[0]):
        out[i:i + 4] += x[i] * weights
    return out


def clip_square(x):
    """Each value clipped to -1 or 1 beyond them, squared between (not in the suite;
    ``bench.loops``): an if/elif/else on each element, each branch writing it."""
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        v = x[i]
        if v < -1:
            out[i] = -1.0
        elif v > 1:
            out[i] = 1.0
        else:
            out[i] = v * v
    return out


def trajectory(x0):
    """2,000 explicit steps of a diffusion on a ring, each state stored as a row."""
    traj = np.zeros((2000, x0.shape[0]))
    traj[0] = x0
    for i in range(1, traj.shape[0]):
        x = traj[i - 1]
        traj[i] = x + 0.01 * (np.roll(x, 1) - x)
    return traj


def two_recurrences(x):
    """Two recurrences fed by one read of the previous state (a running sum and a smoothed
    copy of it, written into two arrays)."""
    a = np.zeros_like(x)
    b = np.zeros_like(x)
    for i in range(1, x.shape[0]):
        t = a[i - 1]
        a[i] = t + x[i]
        b[i] = 0.5 * (b[i - 1] + t)
    return a, b


def edit_distance(a, b):
    """Levenshtein distance between two integer sequences by dynamic programming: a
    table filled cell by cell with ``min`` of three neighbours."""
    n, m = a.shape[0], b.shape[0]
    d = np.zeros((n + 1, m + 1))
    for i in range(n + 1):
        d[i, 0] = i
    for j in range(m + 1):
        d[0, j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = 0.0 if a[i - 1] == b[j - 1] else 1.0
            d[i, j] = min(d[i - 1, j] + 1, d[i, j - 1] + 1, d[i - 1, j - 1] + cost)
    return d[n, m]


def running_rows(a):
    """Running sums along rows, one element at a time in a nested loop (a table filled
    cell by cell, as dynamic programming does)."""
    out = np.zeros_like(a)
    for i in range(a.shape[0]):
        for j in range(1, a.shape[1]):
            out[i, j] = out[i, j - 1] + a[i, j]
    return out


def jacobi(a, b):
    """Jacobi iteration for a x = b until the update is below a tolerance."""
    d = np.diag(a)
    rest = a - np.diag(d)
    x = np.zeros_like(b)
    err = 1.0
    while err > JACOBI_TOL:
        x_new = (b - rest @ x) / d
        err = np.max(np.abs(x_new - x))
        x = x_new
    return x


def fixed_point(x):
    """Fixed-point iteration x <- cos(x) on a vector until no element moves by more than 1e-12."""
    change = 1.0
    while change > 1e-12:
        x_new = np.cos(x)
        change = np.max(np.abs(x_new - x))
        x = x_new
    return x


def nbody_step(pos, vel, mass):
    """One symplectic-Euler step of softened gravity between all pairs."""
    d = pos[None, :, :] - pos[:, None, :]
    r2 = np.sum(d * d, axis=-1) + NBODY_SOFTENING
    weight = mass[None, :] * r2 ** -1.5
    acc = np.sum(d * weight[:, :, None], axis=1)
    vel = vel + NBODY_DT * acc
    return pos + NBODY_DT * vel, vel


def nbody(pos, vel, mass):
    """Ten n-body steps in a Python for loop (loop body: nbody_step)."""
    for _ in range(NBODY_STEPS):
        pos, vel = nbody_step(pos, vel, mass)
    return pos, vel


# ---------------------------------------------------------- in-place writes
def relu_inplace(x):
    """Zero the negative entries of a copy by boolean-mask assignment."""
    y = x.copy()
    y[y < 0] = 0
    return y


def smooth_interior(x):
    """Three-point moving average written into out[1:-1]; the ends are kept."""
    out = x.copy()
    out[1:-1] = (x[:-2] + x[1:-1] + x[2:]) / 3.0
    return out


# ------------------------------------------------------- matmul, linalg, fft
def matmul_chain(a, b, c):
    """relu(a @ b) @ c: two matrix products around an elementwise op."""
    return np.maximum(a @ b, 0) @ c


def solve(a, b):
    """Dense linear solve of a symmetric positive definite system."""
    return np.linalg.solve(a, b)


def cholesky(a):
    """Cholesky factor of a symmetric positive definite matrix."""
    return np.linalg.cholesky(a)


def fft_lowpass(x):
    """Low-pass filter: zero the top 7/8 of the real FFT and transform back."""
    spectrum = np.fft.rfft(x)
    spectrum[x.shape[0] // 8:] = 0
    return np.fft.irfft(spectrum, n=x.shape[0])


# ================================================================== inputs
def _rng():
    return np.random.default_rng(0)


def _pick(size, small, medium, large):
    return {"small": small, "medium": medium, "large": large}[size]


def vector_f32(size):
    return (_rng().standard_normal(_pick(size, 2 ** 10, 2 ** 20, 2 ** 22)).astype(np.float32),)


def two_vectors_f32(size):
    n = _pick(size, 2 ** 10, 2 ** 20, 2 ** 22)
    rng = _rng()
    return rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)


def vector_f64(size):
    return (_rng().standard_normal(_pick(size, 2 ** 10, 2 ** 20, 2 ** 22)),)


def rows_f32(size):
    shape = _pick(size, (8, 128), (1024, 1024), (2048, 2048))
    return (_rng().standard_normal(shape).astype(np.float32),)


def layer_norm_inputs(size):
    (x,) = rows_f32(size)
    rng = _rng()
    n = x.shape[-1]
    return x, rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)


def point_clouds(size):
    n = _pick(size, 64, 1024, 2048)
    rng = _rng()
    return rng.standard_normal((n, 3)), rng.standard_normal((n, 3))


def attention_inputs(size):
    n, d = _pick(size, (16, 32), (512, 64), (2048, 64))
    rng = _rng()
    return tuple(rng.standard_normal((n, d)).astype(np.float32) for _ in range(3))


def grid(size):
    n = _pick(size, 32, 512, 2048)
    return (_rng().random((n, n)),)


def small_grid(size):
    # 1,000 steps: the NumPy loop takes 1,000x one step, so the grids stay modest.
    n = _pick(size, 32, 128, 256)
    return (_rng().random((n, n)),)


def recurrence_inputs(size):
    return (_rng().standard_normal(_pick(size, 100, 10_000, 100_000)),)


def fixed_point_inputs(size):
    return (_rng().random(_pick(size, 100, 1_000, 100_000)),)


def diagonally_dominant_system(size):
    n = _pick(size, 16, 256, 1024)
    rng = _rng()
    a = rng.random((n, n)) + n * np.eye(n)   # strictly dominant: Jacobi converges
    return a, rng.standard_normal(n)


def spd_system(size):
    n = _pick(size, 16, 256, 1024)
    rng = _rng()
    m = rng.standard_normal((n, n))
    return m @ m.T + n * np.eye(n), rng.standard_normal(n)


def spd_matrix(size):
    return spd_system(size)[:1]


def bodies(size):
    n = _pick(size, 16, 256, 1024)
    rng = _rng()
    return rng.standard_normal((n, 3)), 0.1 * rng.standard_normal((n, 3)), rng.random(n) + 0.5


def square_matrices_f32(size):
    n = _pick(size, 16, 256, 1024)
    rng = _rng()
    return tuple((rng.standard_normal((n, n)) / math.sqrt(n)).astype(np.float32) for _ in range(3))


# ================================================================= registry
@dataclass(frozen=True)
class Kernel:
    fn: Callable
    make_inputs: Callable           # size name -> tuple of arrays
    family: str
    memory_bound: bool = False      # report GB/s against the copy ceiling
    loop_body: Callable | None = None
    rtol: float | None = None       # None: by dtype (see bench.validate)
    atol: float | None = None

    @property
    def name(self):
        return self.fn.__name__


KERNELS = [
    Kernel(sigmoid, vector_f32, "elementwise", memory_bound=True),
    Kernel(gelu, vector_f32, "elementwise", memory_bound=True),
    Kernel(saxpy, two_vectors_f32, "elementwise", memory_bound=True),
    Kernel(softmax, rows_f32, "elementwise"),
    Kernel(logsumexp, rows_f32, "elementwise"),
    Kernel(layer_norm, layer_norm_inputs, "reduction"),
    Kernel(standardize_rows, rows_f32, "reduction"),
    Kernel(pairwise_distances, point_clouds, "broadcasting"),
    Kernel(attention, attention_inputs, "broadcasting"),
    Kernel(heat_step, grid, "stencil"),
    Kernel(heat_1000_steps, small_grid, "stencil", loop_body=heat_step, rtol=1e-6),
    Kernel(recurrence, recurrence_inputs, "hot loop"),
    Kernel(jacobi, diagonally_dominant_system, "hot loop", rtol=1e-6, atol=1e-8),
    Kernel(fixed_point, fixed_point_inputs, "hot loop", rtol=1e-9, atol=1e-12),
    Kernel(nbody, bodies, "hot loop", loop_body=nbody_step, rtol=1e-6),
    Kernel(relu_inplace, vector_f32, "in-place", memory_bound=True),
    Kernel(smooth_interior, vector_f64, "in-place", memory_bound=True),
    Kernel(matmul_chain, square_matrices_f32, "matmul", rtol=1e-3, atol=1e-4),
    Kernel(solve, spd_system, "linalg"),
    Kernel(cholesky, spd_matrix, "linalg"),
    Kernel(fft_lowpass, vector_f64, "fft"),
]

BY_NAME = {k.name: k for k in KERNELS}
