"""``np.vectorize`` of the user's own Python function: its body, converted like the
function being compiled, runs on one element at a time in a compiled loop over the
broadcast inputs.

As in NumPy, the output dtypes come from a first call on the first elements as NumPy
scalars (unless ``otypes`` says), and every element then reaches the function as a
Python number (``float``, ``int``, ``bool``, ``complex``: weak in promotion), its
result cast into the output.
"""
from __future__ import annotations

import numpy as np

from ..errors import unsupported, user_location
from ..graph_ir.types import broadcast_shapes
from . import numpy_api as api
from . import python_numbers
from .control_flow import for_stmt, range_
from .convert import converted
from .indexing import getitem, write
from .namespace import wrap
from .python_math import math_function
from .tracer import KIND_PYTHON, PYTHON_TYPES, Tracer, emit, python_type_of, to_tracer


def traced_vectorize(vec):
    """What calling the ``np.vectorize`` object ``vec`` runs while tracing."""
    def call(*args, **kwargs):
        if not any(isinstance(a, Tracer) or (isinstance(a, (list, tuple)) and
                                             api.contains_tracer(a)) for a in args) \
                and not any(isinstance(v, Tracer) for v in kwargs.values()):
            return vec(*args, **kwargs)
        return _vectorized_call(vec, args, kwargs)
    return call


def _vectorized_call(vec, args, kwargs):
    name = f"np.vectorize({getattr(vec.pyfunc, '__name__', 'function')})"
    if kwargs or vec.signature is not None or vec.excluded:
        raise unsupported(f"{name} with keyword arguments, excluded arguments or a signature")
    # A function of ``math`` itself (np.vectorize(math.erf)): its traced version, as the
    # converted code of a function calling it takes.
    fn = math_function(vec.pyfunc) or converted(vec.pyfunc)
    arrays = [to_tracer(a) for a in args]
    shape = broadcast_shapes(*(a.shape for a in arrays))
    if None in shape:
        raise unsupported(f"{name} of arrays whose size is known only at run time")
    n = int(np.prod(shape, dtype=np.int64))
    # A Python number is the array NumPy makes of it (np.asanyarray): strong.
    arrays = [emit("convert", [a], {"dtype": a.dtype}) if a.type.weak else a for a in arrays]
    flats = [api.reshape_to(api.broadcast_to(a, shape), (n,)) for a in arrays]
    if vec.otypes:
        otypes = [np.dtype(t) for t in vec.otypes]
    elif n == 0:
        raise ValueError(f"cannot call `vectorize` on size 0 inputs unless `otypes` is set\n"
                         f"  at {user_location()}")
    else:
        # NumPy's rule: the first elements, as NumPy scalars, decide the output dtypes.
        first = fn(*[_numpy_scalar(getitem(f, 0)) for f in flats])
        otypes = [_dtype_of(v, name) for v in (first if isinstance(first, tuple) else (first,))]
    outs = tuple(api.zeros(n, t) for t in otypes)

    def body(i, *outs):
        values = fn(*[_python_number(getitem(f, i)) for f in flats])
        values = values if isinstance(values, tuple) else (values,)
        if len(values) != len(outs):
            raise ValueError(f"{name} gave {len(values)} results for one element and "
                             f"{len(outs)} for the first\n  at {user_location()}")
        for out, v in zip(outs, values):
            write(out, (i,), v)
        return outs

    outs = for_stmt(range_(n), body, outs, tuple(f"<{name} output {k}>" for k in
                                                 range(len(outs))), user_location())
    outs = tuple(api.reshape_to(o, shape) for o in outs)
    return outs[0] if len(outs) == 1 else outs


def _numpy_scalar(x):
    """An element as NumPy's ``arr.flat[0]`` gives it: a NumPy scalar."""
    return Tracer(x.atom, is_scalar=True)


def _python_number(x):
    """An element as the Python number NumPy's vectorize hands the function."""
    kind = x.dtype.kind
    if kind == "c":
        return x.item()
    return python_numbers.from_element({"b": bool, "f": float}.get(kind, int), x)


def _dtype_of(value, name):
    if isinstance(value, Tracer):
        if value.ndim:
            raise ValueError(f"setting an array element with a sequence: {name} returned an "
                             f"array of shape {value.shape}\n  at {user_location()}")
        if value.kind_flag is not None:
            # A Python number or a NumPy scalar, as the data choose: the dtype NumPy
            # makes of it must be the same either way.
            dtypes = {value.dtype if k < KIND_PYTHON else
                      np.asarray(PYTHON_TYPES[k - KIND_PYTHON](0)).dtype for k in value.kinds}
            if len(dtypes) > 1:
                raise unsupported(f"{name} of a function whose result dtype depends on the "
                                  f"data (NumPy takes it from the first element)",
                                  fix="Give the output dtype with np.vectorize(f, otypes=[...]).")
            return dtypes.pop()
        if value.type.weak:        # a Python number: the dtype NumPy makes of it
            return np.asarray(python_type_of(value.dtype)(0)).dtype
        return value.dtype
    if isinstance(value, (bool, int, float, complex, np.generic, np.ndarray)):
        return np.asarray(value).dtype
    raise unsupported(f"{name} of a function returning {type(value).__name__}")


def _vectorize_call(self, *args, **kwargs):
    return traced_vectorize(self)(*args, **kwargs)


# Calling an np.vectorize object (made inside the function or before it) with traced
# arrays runs its Python function per element in the graph: a patch for the trace's
# ``numpy_patched``.
PATCHES = [(np.vectorize, "__call__", wrap(np.vectorize.__call__, _vectorize_call))]
