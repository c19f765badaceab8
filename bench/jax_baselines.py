"""Hand-written ``jax.numpy`` forms of the kernels JAX cannot take as written.

JAX arrays are immutable and ``jax.jit`` unrolls Python loops, so kernels that
assign into arrays or loop are written the way a JAX user would: ``.at[].set``,
``lax.fori_loop`` and ``lax.while_loop``. The other kernels run as written,
with ``np`` rebound to ``jax.numpy`` (``variants.jax_jit``). Imported only when
JAX is installed.
"""
from __future__ import annotations

import jax.numpy as jnp
from jax import lax

from . import kernels as k


def _heat(u):
    interior = u[1:-1, 1:-1] + k.HEAT_ALPHA * (
        u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4.0 * u[1:-1, 1:-1])
    return u.at[1:-1, 1:-1].set(interior)


def heat_1000_steps(u):
    return lax.fori_loop(0, 1000, lambda _, u: _heat(u), u)


def recurrence(b):
    a = jnp.empty_like(b).at[0].set(b[0])
    return lax.fori_loop(1, b.shape[0], lambda i, a: a.at[i].set(a[i - 1] * k.RECURRENCE_ALPHA + b[i]), a)


def jacobi(a, b):
    d = jnp.diag(a)
    rest = a - jnp.diag(d)

    def step(state):
        x, _ = state
        x_new = (b - rest @ x) / d
        return x_new, jnp.max(jnp.abs(x_new - x))

    x, _ = lax.while_loop(lambda s: s[1] > k.JACOBI_TOL, step, (jnp.zeros_like(b), jnp.asarray(1.0)))
    return x


def fixed_point(x):
    def step(state):
        x, _ = state
        x_new = jnp.cos(x)
        return x_new, jnp.max(jnp.abs(x_new - x))

    x, _ = lax.while_loop(lambda s: s[1] > 1e-12, step, (x, jnp.asarray(1.0, x.dtype)))
    return x


def relu_inplace(x):
    return jnp.where(x < 0, 0, x).astype(x.dtype)


def smooth_interior(x):
    return x.at[1:-1].set((x[:-2] + x[1:-1] + x[2:]) / 3.0)


def fft_lowpass(x):
    spectrum = jnp.fft.rfft(x)
    spectrum = spectrum.at[x.shape[0] // 8:].set(0)
    return jnp.fft.irfft(spectrum, n=x.shape[0])


JAX_BASELINES = {
    "heat_step": _heat,
    "heat_1000_steps": heat_1000_steps,
    "recurrence": recurrence,
    "jacobi": jacobi,
    "fixed_point": fixed_point,
    "relu_inplace": relu_inplace,
    "smooth_interior": smooth_interior,
    "fft_lowpass": fft_lowpass,
}
