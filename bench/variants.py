"""The contenders: how each one turns a kernel into a callable (NumPy in, NumPy out).

A builder returns a fresh callable each time, so its first call measures the
whole trace + compile + run. It raises ``NotAvailable`` where the contender
has no version of the kernel (reported as n/a).
"""
from __future__ import annotations

import importlib.util
import types

import numpy as np
import tensorflow as tf

import nptf

from .tf_baselines import BASELINES


class NotAvailable(Exception):
    pass


def _tensors_to_numpy(value):
    if isinstance(value, (tuple, list)):
        return type(value)(_tensors_to_numpy(v) for v in value)
    return value.numpy() if hasattr(value, "numpy") else np.asarray(value)


def numpy_version(kernel):
    return kernel.fn


def nptf_default(kernel):
    return nptf.compile(kernel.fn)


def nptf_xla(kernel):
    return nptf.compile(kernel.fn, jit_compile=True, adaptive=False)


def nptf_graph(kernel):
    return nptf.compile(kernel.fn, jit_compile=False, adaptive=False)


def nptf_adaptive(kernel):
    return nptf.compile(kernel.fn, adaptive=True)


def tnp_function(kernel, jit_compile=False):
    """The guide's approach: tf.function over a hand-written tnp version."""
    body = BASELINES.get(kernel.name)
    if body is None:
        raise NotAvailable("no reasonable tf.experimental.numpy form")
    graph = tf.function(body, jit_compile=jit_compile)
    # NumPy in, NumPy out, like the other contenders: the .numpy() is part of the cost.
    return lambda *args: _tensors_to_numpy(graph(*args))


def jax_jit(kernel):
    """jax.jit of the kernel's own code with ``np`` rebound to ``jax.numpy``, or of its
    hand-written JAX form where it assigns into arrays or loops (``jax_baselines``)."""
    import jax
    import jax.numpy as jnp
    jax.config.update("jax_enable_x64", True)   # float64 kernels stay float64, as in NumPy
    from .jax_baselines import JAX_BASELINES
    body = JAX_BASELINES.get(kernel.name) or _with_numpy_module(kernel.fn, jnp)
    jitted = jax.jit(body)
    return lambda *args: _tensors_to_numpy(_block(jitted(*args)))


def numba_njit(kernel):
    import numba
    return numba.njit(kernel.fn)


def _block(value):
    if isinstance(value, (tuple, list)):
        return type(value)(_block(v) for v in value)
    return value.block_until_ready()


def _with_numpy_module(fn, module):
    """A copy of ``fn`` (and of the kernels it calls) whose global ``np`` is ``module``."""
    namespace = dict(fn.__globals__)
    namespace["np"] = module
    for name, value in list(namespace.items()):
        if isinstance(value, types.FunctionType) and value.__module__ == fn.__module__:
            namespace[name] = types.FunctionType(value.__code__, namespace, value.__name__,
                                                 value.__defaults__, value.__closure__)
    return namespace[fn.__name__]


def _installed(module):
    return importlib.util.find_spec(module) is not None


# (column name, builder, is nptf). Order matters: the default nptf goes first so
# a kernel too slow to compile can spare the other nptf variants the same wait.
VARIANTS = [
    ("nptf", nptf_default, True),
    ("nptf xla", nptf_xla, True),
    ("nptf graph", nptf_graph, True),
    ("nptf adaptive", nptf_adaptive, True),
    ("tnp tf.function", tnp_function, False),
]
if _installed("jax"):
    VARIANTS.append(("jax.jit", jax_jit, False))
if _installed("numba"):
    VARIANTS.append(("numba", numba_njit, False))

VARIANT_NAMES = ["numpy"] + [name for name, _, _ in VARIANTS]
