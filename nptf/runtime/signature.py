"""Cache keys: what about the arguments decides which compiled graph runs.

Arrays contribute (shape, dtype); Python floats and complexes are traced as
weak scalars (a new value does not retrace); everything else (ints, bools,
strings, tuples of them, ``static_argnames``, arrays of text) is static: part of
the key.
"""
from __future__ import annotations

import enum
import numbers

import numpy as np

from ..errors import ArgumentError
from ..graph_ir import ArrayType
from ..graph_ir.ops_random import generator_state_of, set_generator_state
from ..tracer import Tracer
from ..tracer.numpy_random import GeneratorSpec
from ..tracer.python_lists import element_type, element_types
from ..tracer.layouts import layout_of_argument
from ..tree import flatten

try:
    import tensorflow as _tf
    _TENSOR = _tf.Tensor
except ImportError:  # pragma: no cover
    _TENSOR = ()


# NumPy's own classes (while a function is traced, ``np.random``'s names are nptf's).
_GENERATOR, _PCG64 = np.random.Generator, np.random.PCG64
_RANDOM_STATE = np.random.RandomState


class GeneratorState(np.ndarray):
    """The graph input of a Generator argument: its PCG64 state (``generator_state_of``),
    with the Generator itself, which ``write_back`` leaves in the state after the draws."""

    generator = None

    @classmethod
    def of(cls, g):
        state = generator_state_of(g).view(cls)
        state.generator = g
        return state

    def write_back(self, state):
        set_generator_state(self.generator, state)


def _generator_leaf(x, name):
    if type(x.bit_generator) is not _PCG64:
        raise ArgumentError(
            f"argument {name!r} is a Generator on {type(x.bit_generator).__name__}; nptf "
            f"draws from a Generator argument on PCG64 only (np.random.default_rng(seed)). "
            f"Pass one made so, or draw the numbers with NumPy and pass them in.")
    return ("g", "PCG64"), GeneratorState.of(x), GeneratorSpec()


class Static:
    """Marks a value that is part of the cache key instead of a graph input."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def number_list(x):
    """Whether ``x`` is a list or tuple of Python numbers (or NumPy scalars), or of lists of
    them, that NumPy makes an array of (a tuple of ints is a static value already)."""
    return (type(x) is list or (type(x) is tuple and not _static_tuple(x))) and \
        _number_list(x) and not _ragged(x)


def frozen_numbers(x):
    """A key of a list of numbers (``number_list``): each number by its type and value, a
    float by its bits (``-0.0`` is not ``0.0``)."""
    if type(x) in (list, tuple):
        return (type(x).__name__,) + tuple(frozen_numbers(e) for e in x)
    if isinstance(x, np.generic):
        return (x.dtype.str, x.tobytes())
    if type(x) is float:
        return (float, x.hex())
    if type(x) is complex:
        return (complex, x.real.hex(), x.imag.hex())
    return (type(x), x)


def _copied(x):
    return [_copied(e) for e in x] if type(x) is list else \
        tuple(_copied(e) for e in x) if type(x) is tuple else x


def _static_tuple(x):
    return type(x) is tuple and all(isinstance(e, (int, str, type(None))) and
                                    not isinstance(e, float) for e in x)


def _is_leaf(x):
    # A list of numbers is an array-like, as in NumPy; a list holding arrays (or anything
    # else), like tuples and dicts, holds several arguments: the function gets the list
    # with each array in it, and writes into them reach the caller's arrays.
    return isinstance(x, Static) or _static_tuple(x) or (type(x) is list and _number_list(x)
                                                         and not _ragged(x))


def _ragged(x):
    """Whether ``x``, a list of numbers and lists of them, has rows of several lengths (a
    triangle of numbers): NumPy makes no array of it, so it holds several arguments, a
    list of numbers per row."""
    if not any(type(e) is list for e in x):
        return False
    try:
        np.asarray(x)
    except ValueError:
        return True
    return False


def _number_list(x):
    for t in set(map(type, x)):
        if t is list:
            if not all(_number_list(e) for e in x if type(e) is list):
                return False
        elif not (t in (bool, int, float, complex) or issubclass(t, np.generic)):
            return False
    return True


def _check_numeric(dtype, name):
    if np.dtype(dtype).kind not in "biufc":
        raise ArgumentError(f"argument {name!r} has dtype {np.dtype(dtype)}; nptf compiles numeric and "
                            f"boolean arrays only. Convert it (e.g. x.astype(np.float64)) or mark the "
                            f"argument static with static_argnames=[{name!r}].")


def _hashable(x):
    try:
        hash(x)
    except TypeError:
        return False
    return True


def describe_leaf(x, name):
    """(key part, graph input value or None, ArrayType/is_scalar spec or static value)."""
    if isinstance(x, Static):
        v = x.value
        if number_list(v):
            # A list (or tuple) keyed by its numbers (``Compiled._floats_static``): the
            # function gets a copy, so that a trace that changes it (refused) leaves the
            # caller's list.
            return ("s", list, frozen_numbers(v)), None, _copied(v)
        try:
            hash(v)
        except TypeError:
            raise ArgumentError(f"static argument {name!r} must be hashable to be part of the cache "
                                f"key, got {type(v).__name__}. Pass a tuple instead of a list, or "
                                f"make it an array argument.") from None
        if type(v) is float:
            # -0.0 == 0.0, and NaN equals nothing: the float's bits are its key.
            return ("s", float, v.hex()), None, v
        return ("s", type(v), v), None, v
    if isinstance(x, Tracer):            # a call inside another function's trace
        t = x.atom.type
        return ("t", t.shape, t.dtype.str, t.weak), x, (t, x.is_scalar)
    if isinstance(x, np.ndarray) and x.dtype.kind in "US":
        # Text: static, keyed by its contents (a graph computes with numbers only); the
        # function gets a read-only copy, and NumPy's own functions run on it while tracing.
        text = x.copy()
        text.flags.writeable = False
        return ("text", x.dtype.str, x.shape, x.tobytes()), None, text
    if isinstance(x, np.ndarray):
        _check_numeric(x.dtype, name)
        layout = layout_of_argument(x)
        if layout is not None:
            # Which reshapes of it are views (and so which writes reach it) depends on it.
            return ("a", x.shape, x.dtype.str, layout), x, \
                (ArrayType(x.shape, x.dtype), False, layout)
        return ("a", x.shape, x.dtype.str), x, (ArrayType(x.shape, x.dtype), False)
    if isinstance(x, _TENSOR):
        dtype = np.dtype(x.dtype.as_numpy_dtype)
        shape = tuple(x.shape)
        return ("a", shape, dtype.str), x, (ArrayType(shape, dtype), False)
    if isinstance(x, np.generic):
        _check_numeric(x.dtype, name)
        return ("n", x.dtype.str), np.asarray(x), (ArrayType((), x.dtype), True)
    if isinstance(x, (float, complex)) and not isinstance(x, bool):
        t = ArrayType((), np.float64 if isinstance(x, float) else np.complex128, weak=True)
        return ("w", t.dtype.str), np.asarray(x, t.dtype), (t, True)
    if isinstance(x, _GENERATOR):
        # Its draws are NumPy's own, called from the graph on the state it passes in.
        return _generator_leaf(x, name)
    if isinstance(x, (_RANDOM_STATE, np.random.BitGenerator)):
        raise ArgumentError(f"argument {name!r} is a {type(x).__name__}; nptf draws from a "
                            f"Generator argument on PCG64 only. Pass np.random.default_rng(seed)"
                            f", or draw the numbers with NumPy and pass them in.")
    if type(x) is list:
        try:
            arr = np.asarray(x)
        except ValueError:
            raise ArgumentError(f"argument {name!r} is a ragged list, which is not an array. Pass a "
                                f"rectangular list or an array, or a tuple to pass several arrays.") from None
        _check_numeric(arr.dtype, name)
        # Python's list operations differ from an array's: the graph input is a list's
        # (python_lists.ListTracer), with its elements' type when it reads them one by one.
        element = element_type(x) or element_types(x)
        return ("l", arr.shape, arr.dtype.str, element), arr, \
            (ArrayType(arr.shape, arr.dtype), False, None, element)
    if x is None or isinstance(x, (bool, numbers.Integral, str, np.dtype, type, enum.Enum,
                                   range)) or \
            _static_tuple(x) or (callable(x) and _hashable(x)):
        return ("s", type(x), x), None, x
    if type(x) is slice and _hashable((x.start, x.stop, x.step)):
        # A slice of Python numbers (``exclude=slice(0, 2)``): static, as the ints are.
        return ("s", slice, (x.start, x.stop, x.step)), None, x
    hint = ""
    if name in ("self", "cls"):
        hint = (" For a method, compile a function of the arrays it uses (def predict(w, x)) and "
                "call it with self.w: a static self would freeze its arrays into the graph.")
    raise ArgumentError(f"argument {name!r} of type {type(x).__name__} is not supported: pass NumPy "
                        f"arrays, numbers, strings, or tuples/lists/dicts of them, or mark it static "
                        f"with static_argnames=[{name!r}] (then it must be hashable).{hint}")


def signature_of(items):
    """Flatten bound arguments ``[(name, value)]`` into (key, dynamic values, leaf specs, treedef)."""
    keys, values, specs, treedefs = [], [], [], []
    for name, value in items:
        leaves, treedef = flatten(value, is_leaf=_is_leaf)
        treedefs.append(treedef)
        for j, leaf in enumerate(leaves):
            key, dyn, spec = describe_leaf(leaf, name if len(leaves) == 1 else f"{name}[{j}]")
            keys.append(key)
            specs.append(spec)
            if dyn is not None:
                values.append(dyn)
    treedef = tuple(treedefs)
    return (treedef, tuple(keys)), values, specs, treedef
