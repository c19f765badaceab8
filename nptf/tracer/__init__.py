"""Tracing a plain NumPy function into a Graph."""
from . import methods as _methods  # noqa: F401  (attaches ndarray methods to Tracer)
from . import numpy_math as _numpy_math  # noqa: F401  (registers reductions, linalg)
from . import numpy_sorting as _numpy_sorting  # noqa: F401  (sorting, searching)
from . import numpy_stats as _numpy_stats  # noqa: F401  (statistics, nan-reductions)
from . import numpy_manip as _numpy_manip  # noqa: F401  (array manipulation)
from . import numpy_misc as _numpy_misc  # noqa: F401  (interpolation, polynomials, comparisons)
from . import numpy_linalg as _numpy_linalg  # noqa: F401  (np.linalg)
from . import numpy_fft as _numpy_fft  # noqa: F401  (np.fft)
from . import numpy_mutation as _numpy_mutation  # noqa: F401  (assignment, in-place ops, ufunc.at)
from . import indexing as _indexing  # noqa: F401  (advanced indexing, np.take, np.nonzero)
from . import numpy_extra as _numpy_extra  # noqa: F401  (append/insert/delete, splits, windows, small math)
from . import numpy_sets as _numpy_sets  # noqa: F401  (np.unique, set functions, bincount)
from .trace import TracedFunction, handed_back, output_kinds, trace_function, without_kind_flags
from .tracer import Tracer

__all__ = ["Tracer", "TracedFunction", "handed_back", "output_kinds", "trace_function",
           "without_kind_flags"]
