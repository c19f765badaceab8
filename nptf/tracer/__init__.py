"""Tracing a plain NumPy function into a Graph."""
# The modules that give the Tracer its ndarray methods and register nptf's versions of
# NumPy's functions (``implements``) as they load: the one list of them, loaded with the
# package.
from . import methods           # ndarray methods of Tracer
from . import numpy_math        # reductions, elementwise math
from . import numpy_sorting     # sorting, searching
from . import numpy_stats       # statistics, nan-reductions
from . import numpy_manip       # array manipulation
from . import numpy_misc        # interpolation, polynomials, comparisons
from . import numpy_linalg      # np.linalg
from . import numpy_fft         # np.fft
from . import numpy_mutation    # assignment, in-place ops, ufunc.at
from . import indexing          # advanced indexing, np.take, np.nonzero
from . import numpy_extra       # append/insert/delete, splits, windows
from . import numpy_extra_linalg    # np.linalg aliases, vecdot
from . import numpy_extra_math  # fix, i0, sinc, polynomials, ...
from . import numpy_sets        # np.unique, set functions, bincount
from . import numpy_scimath     # np.emath, np.real_if_close: real or complex by the data
from . import numpy_api
from . import python_lists
from . import python_numbers
from . import ufunc_methods
from .trace import TracedFunction, handed_back, output_kinds, trace_function, without_kind_flags
from .tracer import Tracer, connect

NUMPY_MODULES = (methods, numpy_math, numpy_sorting, numpy_stats, numpy_manip, numpy_misc,
                 numpy_linalg, numpy_fft, numpy_mutation, indexing, numpy_extra, numpy_extra_linalg,
                 numpy_extra_math, numpy_sets, numpy_scimath)

# The NumPy-area functions the Tracer's operators and NumPy's protocols call: defined
# above tracer.py, which they build on, and handed to it here.
connect(impls=numpy_api.IMPLS, numpy_result=numpy_api.numpy_result,
        ufunc_method=ufunc_methods.ufunc_method, apply_ufunc=numpy_api.apply_ufunc,
        array=numpy_api.array, full=numpy_api.full, copy=numpy_api.copy_,
        matmul=numpy_math.matmul, from_element=python_numbers.from_element,
        numbers_list=python_lists.numbers_list, repeated_list=numpy_api.repeated_list)

__all__ = ["Tracer", "TracedFunction", "handed_back", "output_kinds", "trace_function",
           "without_kind_flags"]
