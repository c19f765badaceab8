"""nptf: compile plain NumPy functions to TensorFlow graphs.

    @nptf.compile
    def f(x):
        return np.tanh(x) * 2.0
"""
import importlib as _importlib
import os as _os
import sys as _sys

_USER_SET_TF_LOGGING = "TF_CPP_MIN_LOG_LEVEL" in _os.environ
_os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")


def _pool_cpu_buffers():
    """TensorFlow's pooling (BFC) allocator for CPU tensors, unless the user chose.

    With the C library's malloc, every output of 32 MiB or more is a fresh mmap:
    one page fault per 4 KiB, each call (a 2^22-element float64 result: 8,193
    faults, 11 ms of a 14 ms call). The pool hands the freed buffer back to the next
    call. The cost: memory a process once used for tensors stays reserved by it.
    ``TF_CPU_ALLOCATOR_USE_BFC=false`` keeps malloc. TensorFlow reads the setting at
    its first tensor, so it takes effect whenever nptf is imported before any runs."""
    _os.environ.setdefault("TF_CPU_ALLOCATOR_USE_BFC", "true")
    try:    # the pool's default ceiling is 64 GiB: allow all of a bigger machine's memory
        total_mb = _os.sysconf("SC_PAGE_SIZE") * _os.sysconf("SC_PHYS_PAGES") >> 20
    except (ValueError, OSError, AttributeError):
        return
    if total_mb > 1 << 16:
        _os.environ.setdefault("TF_CPU_BFC_MEM_LIMIT_IN_MB", str(total_mb))


_pool_cpu_buffers()


def _nan_propagating_xla_min_max():
    """XLA's min/max reductions keep NaN, as NumPy's do, unless the user chose.

    TensorFlow's XLA compiles them with "fast min/max", which drops NaN (the max of
    [1, nan, 2] comes out 2); the lowering then needs a second pass over the data
    to find NaN (softmax of 1024x1024 floats: 1.50 ms against 1.10). XLA reads its
    flags at its first compile: lowering.xla_flags checks, once, what XLA does."""
    flags = _os.environ.get("XLA_FLAGS", "")
    if "xla_cpu_enable_fast_min_max" not in flags:
        _os.environ["XLA_FLAGS"] = (flags + " --xla_cpu_enable_fast_min_max=false").strip()


_nan_propagating_xla_min_max()


def _import_tensorflow_quietly():
    """Imports TensorFlow without its C++ start-up lines (oneDNN, CUDA drivers, absl),
    unless the user set ``TF_CPP_MIN_LOG_LEVEL`` or imported TensorFlow first.

    TensorFlow prints them before its logging reads ``TF_CPP_MIN_LOG_LEVEL``, so only
    closing the process's stderr while it loads keeps them out; Python errors still
    come through as exceptions. Listing the devices belongs here: the CUDA probe logs
    when it first runs."""
    if _USER_SET_TF_LOGGING or "tensorflow" in _sys.modules:
        return
    try:
        saved = _os.dup(2)
    except OSError:     # no stderr to silence
        _importlib.import_module("tensorflow")
        return
    null = _os.open(_os.devnull, _os.O_WRONLY)
    try:
        _os.dup2(null, 2)
        import tensorflow as tf
        tf.config.list_physical_devices()
    finally:
        _os.dup2(saved, 2)
        _os.close(saved)
        _os.close(null)


_import_tensorflow_quietly()

from . import errors  # noqa: E402
from .errors import (ArgumentError, BackendError, ClusterTimeoutError, DistributeError,  # noqa: E402
                     DynamicShapeError, Error, NptfError, OutsideTheGraphError, PicklingError,
                     SpecError, TracerConversionError, UnsupportedAttributeError,
                     UnsupportedError)
from .budget import CompileBudgetError  # noqa: E402
from .tracer.side_effects import SideEffectError  # noqa: E402
from .runtime import (CacheInfo, Compiled, compile, compiled_of, explain, grad,  # noqa: E402
                      hessian, jacobian, value_and_grad, vmap)
from .runtime.spec import Spec  # noqa: E402
from .runtime.export import export  # noqa: E402
from . import distribute  # noqa: E402

__version__ = "0.1.0"
__all__ = ["compile", "grad", "value_and_grad", "jacobian", "hessian", "vmap", "Compiled",
           "compiled_of", "CacheInfo", "Spec", "explain", "errors", "Error",
           "NptfError", "ArgumentError", "BackendError", "CompileBudgetError", "SideEffectError",
           "UnsupportedError", "UnsupportedAttributeError", "TracerConversionError",
           "DynamicShapeError", "OutsideTheGraphError",
           "PicklingError", "SpecError", "DistributeError", "ClusterTimeoutError", "export",
           "distribute"]
