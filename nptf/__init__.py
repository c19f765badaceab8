"""nptf: compile plain NumPy functions to TensorFlow graphs.

    @nptf.compile
    def f(x):
        return np.tanh(x) * 2.0
"""
import os as _os

_os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from . import errors  # noqa: E402
from .errors import (DynamicShapeError, NptfError, SpecError, TracerConversionError,  # noqa: E402
                     UnsupportedError)
from .runtime import CacheInfo, Compiled, compile, compiled_of, explain  # noqa: E402
from .runtime.spec import Spec  # noqa: E402
from .runtime.export import export  # noqa: E402

__version__ = "0.1.0"
__all__ = ["compile", "Compiled", "compiled_of", "CacheInfo", "Spec", "explain", "errors", "NptfError",
           "UnsupportedError", "TracerConversionError", "DynamicShapeError", "SpecError", "export"]
