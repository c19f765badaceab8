"""Tracer: the abstract array a user's function sees while it is traced.

It quacks like ``np.ndarray``: Python operators, properties and methods, and
NumPy's dispatch protocols (``__array_ufunc__``, ``__array_function__``) all
turn into equations of the graph under construction.
"""
from __future__ import annotations

import contextvars

import numbers
import operator
import sys
import types

import numpy as np

from ..errors import (DynamicShapeError, TracerConversionError, in_user_code, unsupported,
                      user_location, with_location)
from ..graph_ir import ArrayType
from ..graph_ir.ir import Literal
from ..graph_ir.ops import OPS
from ..graph_ir.types import broadcast_shapes, weak_type_of
from . import fp_errors
from .builder import current_builder
from .layouts import UNKNOWN, any_not_c_ordered, layout_of_argument, note_layout
from .shadow import value as shadow_value
from .sites import assume_value


# What a 0-d value is to NumPy: a 0-d array, a NumPy scalar, or a Python number of one of
# PYTHON_TYPES (its kind: KIND_PYTHON + its position there).
KIND_ARRAY, KIND_SCALAR, KIND_PYTHON = 0, 1, 2
# For one trace: a list that a traced value used as a dict key or set element (hash())
# appends to.
HASHED = contextvars.ContextVar("nptf_hashed", default=None)
PYTHON_TYPES = (bool, int, float, complex)
# A variable that holds None on some paths (``best = None``, set under an `if` on the data):
# the value is then a stand-in zero that no use may read (see ``Tracer.atom``).
KIND_NONE = -1
# A variable that no path the data took has assigned yet (``if r < p: i = j; break`` in a
# loop, with no ``i`` before it): a stand-in zero that no use may read, as Python raises
# UnboundLocalError there (see ``Tracer.atom``).
KIND_UNBOUND = -2


def python_type_of(dtype):
    """The Python type a weak value of ``dtype`` stands for."""
    return PYTHON_TYPES["bifc".index(dtype.kind)] if dtype.kind in "bifc" else float


def python_kind(value_type):
    """The kind of a Python number of ``value_type``."""
    return KIND_PYTHON + PYTHON_TYPES.index(value_type)


class RankChoice:
    """The ranks a value of one element may have as the data choose (``lo = -np.inf``
    on one path of an `if`, ``lo = beta[i].copy()`` of a column ``beta`` on the other):
    ``options``, one Tracer per type it may have, each the carried value (of the largest
    rank) reshaped. Elementwise arithmetic with an operand of at least its rank,
    ``bool()`` and writes into a part of an array of rank one or more give the same
    result for every option (``settled``); an elementwise result whose rank still
    depends on it keeps the choice (``apply_ufunc``), and every other use, which sees
    the rank (``float()`` too: NumPy converts no array of rank one), raises
    ``error(message)``: the user's line is added there."""

    __slots__ = ("options", "message", "error", "promoted")

    def __init__(self, options, message, error, promoted=False):
        self.options, self.message, self.error = tuple(options), message, error
        # Whether an option stands for a Python int as a float of the others' dtype.
        self.promoted = promoted

    def refuse(self, what="its rank"):
        raise self.error(f"{self.message}; at {user_location()} {what} decides the "
                         f"result. Give it one rank on every path (np.float64(...) or "
                         f"x.item() for one number, or an array of shape (1,)).")


def with_rank_choice(options, like):
    """A value that is one of ``options`` (Tracers of one element, one dtype, different
    ranks) as the data choose, refused where the rank matters as ``like`` (a
    ``RankChoice``) says."""
    options = tuple(options)
    largest = max(options, key=lambda t: t.carried_atom().type.ndim)
    out = Tracer(largest.carried_atom())
    out.choice = RankChoice(options, like.message, like.error, like.promoted)
    return out


def settled(value):
    """``value`` for a use that sees one element and not its rank (``bool()``, a write's
    value): of a value with a rank choice, its option of the smallest rank."""
    if isinstance(value, Tracer) and value.choice is not None:
        return min(value.choice.options, key=lambda t: t.carried_atom().type.ndim)
    return value


# ------------------------------------------------------- the NumPy area above
class NotAnArray(Exception):
    """An operand NumPy would not treat as an array (lets Python try the other side)."""


# What the Tracer's operators and NumPy's protocols call of the NumPy-area modules:
# those build on the Tracer, so they sit above this module and are handed to it
# (``connect``) by the tracer package once they have loaded.
_numpy_area = types.SimpleNamespace(impls={}, numpy_result=None, ufunc_method=None,
                                    apply_ufunc=None, array=None, full=None, copy=None,
                                    matmul=None, from_element=None, numbers_list=None,
                                    repeated_list=None)


def connect(*, impls, numpy_result, ufunc_method, apply_ufunc, array, full, copy, matmul,
            from_element, numbers_list, repeated_list):
    """Give the Tracer the NumPy-area functions it calls: ``impls``, the table of
    ``__array_function__`` (numpy_api.IMPLS) and ``numpy_result`` (what it hands back); ``ufunc_method`` for
    ``__array_ufunc__``; ``apply_ufunc`` for the Python operators; ``array`` (a list of
    traced values as an array), ``full`` (``x == None``), ``copy`` (``copy.copy(x)``),
    ``matmul`` (``@``), ``from_element`` (python_numbers: ``x.item()``) and
    ``numbers_list`` (python_lists: ``x.tolist()`` of a run-time length) and
    ``repeated_list`` (``[0] * n`` of a traced count)."""
    vars(_numpy_area).update(impls=impls, numpy_result=numpy_result, ufunc_method=ufunc_method,
                             apply_ufunc=apply_ufunc, array=array, full=full, copy=copy,
                             matmul=matmul, from_element=from_element,
                             numbers_list=numbers_list, repeated_list=repeated_list)


# Python's complex takes any float, np.float64 included (a subclass of float), in these
# operators: ``(1+2j) * np.float64(2)`` is complex's own method, a Python complex, not
# np.float64's reflected one (np.complex128).
_COMPLEX_TAKES_FLOATS = {"add", "subtract", "multiply", "divide", "power"}


def _python_complex(v):
    return type(v) is complex or (isinstance(v, Tracer) and v.choice is None and v.type.weak
                                  and v.dtype.kind == "c")


def _as_python_float(v):
    """``v`` as Python's complex reads it where it is a NumPy float64 scalar, else None."""
    if type(v) is np.float64:
        return float(v)
    if isinstance(v, Tracer) and v.is_scalar and not v.type.weak and v.dtype == np.float64:
        return _numpy_area.from_element(float, v)
    return None


def _binop(ufunc_name, reflected=False):
    def method(self, other):
        args = (other, self) if reflected else (self, other)
        if ufunc_name in _COMPLEX_TAKES_FLOATS and _python_complex(args[0]):
            right = _as_python_float(args[1])
            args = args if right is None else (args[0], right)
        try:
            return _numpy_area.apply_ufunc(getattr(np, ufunc_name), args, python_operator=True)
        except NotAnArray:
            return NotImplemented
    return method


def run_time_size_refusal(func):
    """nptf's error for NumPy's ``func`` whose implementation met a size known only at run
    time where it needs a number (rather than the Python TypeError that met it)."""
    return DynamicShapeError(
        f"np.{getattr(func, '__name__', func)} of an array whose size is known only at run "
        f"time is not supported by nptf. Give that array a size known when tracing, or "
        f"compute this outside the compiled function\n  at {user_location()}")


def run_time_sized(value, depth=0):
    """Whether ``value`` (arguments, at any depth of lists, tuples and dicts) holds an
    array with a size known only at run time."""
    if isinstance(value, Tracer):
        return None in value.type.shape
    if depth < 4 and isinstance(value, (list, tuple)):
        return any(run_time_sized(v, depth + 1) for v in value)
    if depth < 4 and isinstance(value, dict):
        return any(run_time_sized(v, depth + 1) for v in value.values())
    return False


def _repeat_or_multiply(reflected):
    """``*`` with a list or tuple: a Python number or NumPy scalar repeats the sequence (a
    traced count needs its value), as Python and NumPy's scalars do; a 0-d array
    multiplies its items, as NumPy's arrays do."""
    multiply = _binop("multiply", reflected)

    def method(self, other):
        if type(other) in (list, tuple) and self.ndim == 0 and (self.is_scalar or
                                                                 self.type.weak):
            if self.dtype.kind not in "iu":
                name = python_type_of(self.dtype).__name__ if self.type.weak else \
                    f"numpy.{self.dtype.type.__name__}"
                raise TypeError(f"can't multiply sequence by non-int of type '{name}'")
            repeated = _numpy_area.repeated_list(other, self) if type(other) is list \
                else None
            if repeated is not None:
                return repeated
            count = self._concrete(f"repeating a {type(other).__name__} (`[0] * n`) by a "
                                   f"count")
            return other * operator.index(count)
        return multiply(self, other)
    return method


def _unop(ufunc_name):
    def method(self):
        return _numpy_area.apply_ufunc(getattr(np, ufunc_name), (self,), python_operator=True)
    return method


def _pow(self, other):
    # ndarray.__pow__ computes integer/bool ``x ** 2`` with np.square (bool ** 2 -> int8).
    if type(other) in (int, float) and other == 2 and self.dtype.kind in "biu" and not self.is_scalar:
        return _numpy_area.apply_ufunc(np.square, (self,), python_operator=True)
    return _binop("power")(self, other)


def _compare_with_none(name, method):
    """``x == None`` / ``x != None`` (``method`` for any other operand): NumPy compares an
    array with None element by element (all False for ``==``); a NumPy scalar or Python
    number gives a Python bool."""
    def compare(self, other):
        if other is not None:
            return method(self, other)
        check_bound(self)
        if self.is_scalar or self.type.weak:
            return name == "ne"
        out = _numpy_area.full(self.shape, name == "ne", np.bool_)
        return Tracer(out.atom, is_scalar=False) if self.ndim else \
            Tracer(out.atom, is_scalar=True)
    return compare


def _round(self, ndigits=None):
    # Python's round() outside converted code (a lambda): converted code takes
    # control_flow's, which gives a traced Python int.
    if not self.is_scalar and not self.type.weak:
        raise TypeError("type numpy.ndarray doesn't define __round__ method")     # NumPy's
    if self.dtype.kind == "c":
        name = "complex" if self.type.weak else f"numpy.{self.dtype.name}"
        raise TypeError(f"type {name} doesn't define __round__ method")
    found = self._concrete("round() of a traced value")
    return round(found) if ndigits is None else round(found, ndigits)


def _copy(self):
    """``copy.copy(x)`` of an array: a new array, as NumPy's; a NumPy scalar or Python
    number is itself (it cannot be written)."""
    if self.is_scalar or self.type.weak:
        return self
    return _numpy_area.copy(self)


def _matmul(self, other):
    return _numpy_area.matmul(self, other)


def _rmatmul(self, other):
    return _numpy_area.matmul(other, self)


class Tracer:
    """A traced array: an IR atom plus whether NumPy would hand back a scalar.

    ``is_scalar`` mirrors NumPy's distinction between a 0-d array
    (``np.asarray(1.0)``) and a scalar (``np.float64(1.0)``, what ufuncs and
    full reductions return), so compiled outputs come back as NumPy would.
    """

    __slots__ = ("_atom", "is_scalar", "_view", "_layout", "kind_flag", "kinds", "choice",
                 "assumed")
    __array_priority__ = 1000

    def __init__(self, atom, is_scalar=False):
        self._atom = atom
        self.is_scalar = is_scalar and atom.type.ndim == 0
        self._view = None  # a views.View once this array shares memory with others
        # Its memory layout while it owns its memory: None (C order), views.UNKNOWN (what
        # NumPy's order="K" makes of non-C-ordered inputs) or strides in elements.
        self._layout = None
        # For a 0-d value an `if` on the data chose: an int8 atom saying what it is when the
        # graph runs (a KIND_*), and the set of kinds it may say; None when known now.
        self.kind_flag = None
        self.kinds = None
        # For a size-1 value an `if` on the data left of one rank or another: its
        # ``RankChoice``; None when its rank is known now.
        self.choice = None
        # ``(atom, value)``: the value the trace assumed this holds (``assumed_value``):
        # Python's (a dict key made of it, in a result) where the atom is still its own.
        self.assumed = None

    @property
    def atom(self):
        """The IR value this array holds *now*: writes through any alias re-define it.

        Of a value that is None on some paths (``maybe_none``), every use is checked when
        the graph runs: where the data took the path that left None, the call runs with
        NumPy, which does what Python does with a None there."""
        if self.choice is not None:
            self.choice.refuse()
        atom = self.carried_atom()
        if self.kinds is not None and KIND_UNBOUND in self.kinds:
            atom = _checked_bound(self, atom)
        if self.kinds is not None and KIND_NONE in self.kinds:
            return _checked_not_none(self, atom)
        return atom

    def bound_atom(self):
        """The atom as the call hands it back beside its kind flag: checked to have been
        assigned (see ``KIND_UNBOUND``), not to be other than None."""
        atom = self.carried_atom()
        if self.kinds is not None and KIND_UNBOUND in self.kinds:
            atom = _checked_bound(self, atom)
        return atom

    def carried_atom(self):
        """The atom as control flow carries it, beside its kind flag: unchecked."""
        if self._view is not None:
            atom = self._view.current(self)
            if not self._view.c_ordered:
                note_layout(atom)
            return atom
        if self._layout is not None:
            note_layout(self._atom)
        return self._atom

    @property
    def __class__(self):
        """What the user's code sees as this value's class (``isinstance(x, np.ndarray)``,
        ``isinstance(v, float)``): the class NumPy's value would have. nptf's own code (and
        NumPy's) sees the Tracer."""
        if not in_user_code(sys._getframe(1).f_code.co_filename):
            return type(self)
        return numpy_class_of(self)

    def array_value(self, dtype=None):
        """The array NumPy makes of this argument (see ``python_lists.ListTracer``), asked
        for with ``dtype`` (or None)."""
        return self

    # ---------------------------------------------------------------- shapes
    @property
    def type(self) -> ArrayType:
        if self.choice is not None:
            self.choice.refuse()
        return self.carried_atom().type

    @property
    def shape(self):
        _no_none_attribute(self, "shape")
        shape = self.type.shape
        if None in shape and _from_user_code():
            # The user's code gets NumPy's numbers: sizes known only at run time are
            # traced Python ints (nptf's own code reads None there).
            return tuple(d if d is not None else emit("dim", [self], {"axis": i})
                         for i, d in enumerate(shape))
        return shape

    @property
    def dtype(self):
        _no_none_attribute(self, "dtype")
        return self.type.dtype

    @property
    def ndim(self):
        _no_none_attribute(self, "ndim")
        return self.type.ndim

    @property
    def size(self):
        _no_none_attribute(self, "size")
        size = self.type.size
        if size is None and _from_user_code():
            size = 1
            for i, d in enumerate(self.type.shape):
                size = size * (d if d is not None else emit("dim", [self], {"axis": i}))
        return size

    @property
    def itemsize(self):
        return self.dtype.itemsize

    @property
    def nbytes(self):
        size = self.type.size
        if size is None and _from_user_code():
            size = 1
            for i, d in enumerate(self.type.shape):
                size = size * (d if d is not None else emit("dim", [self], {"axis": i}))
        return None if size is None else size * self.itemsize

    def __len__(self):
        _no_none_attribute(self, "len()", anywhere=True)
        if self.ndim == 0:
            raise TypeError("len() of unsized object")
        if self.shape[0] is None:
            # (Python's own len(), in code nptf does not convert.) The length the data of
            # the call being traced give it, which the graph checks.
            found = assumed_value(emit("dim", [self], {"axis": 0}, scalar=True), "len()")
            if found is not None:
                return int(found)
        return concrete_dim(self, 0, "len()")

    def __iter__(self):
        _no_none_attribute(self, "iteration", anywhere=True)
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(len(self)))

    def __repr__(self):
        if in_user_code(sys._getframe(1).f_code.co_filename):
            return repr(self._concrete("repr() of a traced value", _TEXT_FIX))
        return f"Tracer<{self.type}>"

    def __str__(self):
        if in_user_code(sys._getframe(1).f_code.co_filename):
            return str(self._concrete("str() of a traced value", _TEXT_FIX))
        return f"Tracer<{self.type}>"

    def __format__(self, spec):
        if in_user_code(sys._getframe(1).f_code.co_filename):
            return format(self._concrete("formatting a traced value (an f-string, format(), %)",
                                         _TEXT_FIX), spec)
        return f"Tracer<{self.type}>"

    # ------------------------------------------------- concretization errors
    def _concrete(self, what, fix=None, assume=True):
        """The value the data of the call being traced give this 0-d value, as NumPy's run
        holds it (a NumPy scalar, or a Python number where that run has one), where
        ``what`` needs it and the trace may assume it (``assumed_value``); else raises."""
        if assume:
            found = assumed_value(self, what)
            if found is not None:
                return found
        fix = fix or ("Use np.where(...) for a data-dependent choice, or make the value a static "
                      "argument with nptf.compile(..., static_argnames=[...]).")
        raise TracerConversionError(
            f"{what} needs a concrete value, but this array ({self.type}) is only known when the "
            f"compiled graph runs. {fix}\n  at {user_location()}")

    def known_value(self):
        """The value, where the trace knows it (a constant, or computed from constants:
        ``builder.known_values``), as NumPy holds it; else None. Not in a graph loop's
        body: a trace of it runs on one iteration's Python state (a list empty on the
        first), whose constants need not hold on the others."""
        builder = current_builder()
        if builder is None or getattr(self, "kind_flag", None) is not None or \
                getattr(self, "choice", None) is not None or IN_GRAPH_LOOP.get():
            return None
        # The value it holds now: a write through it or an alias re-defines a view's.
        atom = self.carried_atom()
        value = builder.known_value(atom)
        return None if value is None else np.asarray(value, dtype=atom.type.dtype)

    def __bool__(self):
        if self.choice is not None:
            return settled(self).__bool__()
        known = self.known_value()
        if known is not None:
            return bool(known)
        return bool(self._concrete("bool() of a traced array (e.g. `if x > 0:` or "
                                   "`while err > tol:`)"))

    def __int__(self):
        if self.choice is not None:
            self.choice.refuse()       # NumPy converts no array of rank 1 or more
        known = self.known_value()
        if known is not None:
            return int(known)
        return int(self._concrete("int() of a traced array"))

    def __float__(self):
        if self.choice is not None:
            self.choice.refuse()       # NumPy converts no array of rank 1 or more
        known = self.known_value()
        if known is not None:
            return float(known)
        return float(self._concrete("float() of a traced array"))

    def __complex__(self):
        if self.choice is not None:
            self.choice.refuse()       # NumPy converts no array of rank 1 or more
        known = self.known_value()
        if known is not None:
            return complex(known)
        return complex(self._concrete("complex() of a traced array"))

    def __index__(self):
        if self.choice is not None:
            self.choice.refuse()       # NumPy converts no array of rank 1 or more
        known = self.known_value()
        if known is not None:
            return operator.index(known)
        # (NumPy's TypeError of a float or bool, whatever its value.)
        return operator.index(self._concrete("using a traced array as a Python index or size",
                                             assume=self.dtype.kind in "iu"))

    def item(self, *args):
        """NumPy's ``x.item()``: the one element as a Python number, here a traced one
        (weak in promotion, as NumPy 2 takes a Python number); ``x.item(i)`` and
        ``x.item(i, j)`` pick the element first."""
        x = self = numpy_value_only(self, "`.item()`")
        if args:
            x = self.reshape(-1)[args[0]] if len(args) == 1 else self[tuple(args)]
        elif self.type.size != 1:
            raise ValueError(f"can only convert an array of size 1 to a Python scalar\n"
                             f"  at {user_location()}")
        x = x.reshape(())
        kind = x.dtype.kind
        if kind == "c":
            return emit("convert", [x], {"dtype": np.dtype(np.complex128), "weak": True},
                        scalar=True)
        if kind not in "biuf":
            self._concrete("x.item()", assume=False)
        return _numpy_area.from_element({"b": bool, "f": float}.get(kind, int), x)

    def tolist(self):
        """NumPy's ``x.tolist()``: nested Python lists of the elements as Python numbers,
        here traced ones (weak in promotion, as NumPy 2 takes a Python number). One traced
        number per element, up to 1,024 elements; a 1-d array of a length known only at run
        time (or longer) is a list built over it (python_lists.ComputedList), which loops
        and comprehensions go over. Other arrays of a size known only at run time are
        refused."""
        size = self.type.size
        if (size is None or size > 1024) and self.ndim == 1 and self.dtype.kind in "biufc":
            return _numpy_area.numbers_list(_numpy_area.copy(self))
        if size is None or size > 1024:
            self._concrete("x.tolist()", assume=False,
                           fix="Keep it an array (NumPy functions take it as one), or make the "
                               "function's result the array and call .tolist() outside the "
                               "compiled function.")
        if self.ndim == 0:
            return self.item()
        flat = self.reshape(-1)
        items = [flat.item(i) for i in range(size)]
        for n in reversed(self.type.shape[1:]):
            items = [items[i:i + n] for i in range(0, len(items), n)]
        return items

    def __array__(self, dtype=None, copy=None):
        found = self._concrete(
            "converting a traced array to a NumPy array (np.asarray/np.array or a NumPy "
            "function without array-protocol support)",
            "Call NumPy functions on the array directly (they are traced); if this came from a "
            "library that calls np.asarray, that library cannot be compiled.")
        return np.asarray(found, dtype=dtype)

    def __hash__(self):
        # A dict key or set element is a Python value (``hs[t]`` with a traced loop
        # index ``t``): a conversion error, so a loop with a known trip count unrolls.
        # Where the trace fails, it runs again with dicts keyed by traced values.
        hashed = HASHED.get()
        if hashed is not None:
            hashed.append(True)
        try:
            return hash(self._concrete("using a traced value as a dict key or set element "
                                       "(hash())", "Index an array instead, or let the loop "
                                       "run unrolled with a trip count known when tracing."))
        except TracerConversionError as e:
            e.dict_key = True
            raise

    # ------------------------------------------------------ NumPy protocols
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return _numpy_area.ufunc_method(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        impl = _numpy_area.impls.get(func)
        if impl is None:
            raise unsupported(f"np.{getattr(func, '__name__', func)}")
        try:
            out = impl(*args, **kwargs)
        except TypeError as e:
            if "NoneType" not in str(e) or not run_time_sized((args, kwargs)):
                raise
            # nptf's implementation met a size known only at run time where it needs a
            # number: its refusal, not Python's TypeError.
            raise run_time_size_refusal(func) from None
        return _numpy_area.numpy_result(func, args, kwargs, out)

    # ------------------------------------------------------ Python operators
    __add__, __radd__ = _binop("add"), _binop("add", reflected=True)
    __sub__, __rsub__ = _binop("subtract"), _binop("subtract", reflected=True)
    __mul__, __rmul__ = _repeat_or_multiply(False), _repeat_or_multiply(True)
    __truediv__, __rtruediv__ = _binop("divide"), _binop("divide", reflected=True)
    __floordiv__, __rfloordiv__ = _binop("floor_divide"), _binop("floor_divide", reflected=True)
    __mod__, __rmod__ = _binop("remainder"), _binop("remainder", reflected=True)
    __pow__, __rpow__ = _pow, _binop("power", reflected=True)
    __and__, __rand__ = _binop("bitwise_and"), _binop("bitwise_and", reflected=True)
    __or__, __ror__ = _binop("bitwise_or"), _binop("bitwise_or", reflected=True)
    __xor__, __rxor__ = _binop("bitwise_xor"), _binop("bitwise_xor", reflected=True)
    __lshift__, __rlshift__ = _binop("left_shift"), _binop("left_shift", reflected=True)
    __rshift__, __rrshift__ = _binop("right_shift"), _binop("right_shift", reflected=True)
    __divmod__, __rdivmod__ = _binop("divmod"), _binop("divmod", reflected=True)
    __matmul__, __rmatmul__ = _matmul, _rmatmul
    __lt__, __le__ = _binop("less"), _binop("less_equal")
    __gt__, __ge__ = _binop("greater"), _binop("greater_equal")
    __eq__ = _compare_with_none("eq", _binop("equal"))
    __ne__ = _compare_with_none("ne", _binop("not_equal"))
    __neg__, __pos__ = _unop("negative"), _unop("positive")
    __abs__, __invert__ = _unop("absolute"), _unop("invert")
    __round__ = _round
    __copy__ = _copy

    def __deepcopy__(self, memo):
        return _copy(self)


# The text of a value is NumPy's printing of the numbers: known only when the graph runs.
_TEXT_FIX = ("Return the value and format it outside the compiled function, or let the "
             "function run with NumPy (fallback='numpy', the default).")


def numpy_class_of(t):
    """The class of the value ``t`` stands for in NumPy's run: ``np.ndarray``, a NumPy
    scalar type, a Python number type, or ``list`` for a list argument or a list the
    function builds; refused where the data choose (a kind flag)."""
    if t.kind_flag is not None:
        raise unsupported("the class of a value that is a Python number, a NumPy scalar, an "
                          "array or None as the data choose (isinstance(), type())")
    if getattr(type(t), "NOUN", None) is not None:      # python_lists.ListTracer
        return list
    if t.type.weak:
        return python_type_of(t.dtype)
    return np.dtype(t.dtype).type if t.is_scalar else np.ndarray


def maybe_none(value):
    """Whether ``value`` is None on some paths the data may take."""
    return isinstance(value, Tracer) and value.kinds is not None and KIND_NONE in value.kinds


def _checked_not_none(t, atom):
    b = current_builder()
    (ok,) = b.emit("not_equal", [t.kind_flag, Literal(np.int8(KIND_NONE), ArrayType((), np.dtype(np.int8)))])
    (out,) = b.emit("check", [atom, ok], {
        "error": "OutsideTheGraph", "weak": atom.type.weak, "when_read": True,
        "message": f"a variable that is None on this call is used as a value at "
                   f"{user_location()} (NumPy decides what None does there)"})
    return out


def _checked_bound(t, atom, when_read=True):
    """``atom`` of ``t`` checked, when the graph runs, to have been assigned on the path
    the data took: Python's UnboundLocalError where it has not."""
    b = current_builder()
    (ok,) = b.emit("not_equal", [t.kind_flag, Literal(np.int8(KIND_UNBOUND),
                                                      ArrayType((), np.dtype(np.int8)))])
    params = {"error": "UnboundLocalError", "weak": atom.type.weak,
              "message": f"cannot access a local variable where it is not associated with a "
                         f"value (no path the data took assigns it)\n  at {user_location()}"}
    params["when_read"] = when_read
    (out,) = b.emit("check", [atom, ok], params)
    return out


def check_bound(t):
    """A use of ``t`` that reads no value (``x is None``, ``x.shape``): Python's
    UnboundLocalError, when the graph runs, where no path the data took assigned it."""
    if isinstance(t, Tracer) and t.kinds is not None and KIND_UNBOUND in t.kinds:
        _checked_bound(t, t.carried_atom(), when_read=False)


def _no_none_attribute(t, name, anywhere=False):
    """An attribute the user's code reads of a value that may be None (or its len()):
    Python raises for None, which a static shape cannot follow."""
    if t.kinds is not None and KIND_UNBOUND in t.kinds and \
            (anywhere or in_user_code(sys._getframe(2).f_code.co_filename)):
        check_bound(t)
    if t.kinds is not None and KIND_NONE in t.kinds and \
            (anywhere or in_user_code(sys._getframe(2).f_code.co_filename)):
        what = name if anywhere else f"`.{name}`"
        raise unsupported(f"{what} of a variable that is None when the data take some paths",
                          fix="Test `x is None` first, or give the variable an array on every "
                              "path.")
    if not anywhere and _maybe_python(t) and in_user_code(sys._getframe(2).f_code.co_filename):
        raise unsupported(f"`.{name}` of a variable that is a Python number when the data take "
                          f"some paths (a Python number has no `.{name}`)",
                          fix="Make it a NumPy value on every path (np.float64(0.0) rather "
                              "than 0.0).")


def _maybe_python(t):
    return t.kinds is not None and any(k >= KIND_PYTHON for k in t.kinds)


def numpy_value_only(t, what):
    """``t`` for a use only NumPy's values have (``what``: a method, ``x.T``), where an
    `if` on the data leaves it a Python number on some paths: checked when the graph runs
    to be a NumPy value; where the data made it a Python number, the call runs with NumPy
    (which raises Python's AttributeError)."""
    if not _maybe_python(t):
        return t
    b = current_builder()
    (ok,) = b.emit("less", [t.kind_flag, Literal(np.int8(KIND_PYTHON),
                                                 ArrayType((), np.dtype(np.int8)))])
    (out,) = b.emit("check", [t.atom, ok], {
        "error": "OutsideTheGraph", "message":
            f"{what} of a variable that is a Python number on this call, at {user_location()} "
            f"(a Python number has no {what})"})
    return Tracer(out, is_scalar=t.is_scalar)


def _from_user_code():
    """Whether the caller of the caller is the user's code (not nptf's, not NumPy's)."""
    return in_user_code(sys._getframe(2).f_code.co_filename)


# The most elements of an array whose value a trace assumes (``assumed_value``: text
# made of it that Python needs), which the graph checks element by element.
ASSUMED_ELEMENTS = 4096
# Set while a graph loop's body is traced: what needs a size fixed per iteration (a
# reshape to the loop index's sizes) asks for a concrete value there, so a loop whose
# trip count is known runs unrolled, each iteration with its own sizes.
IN_GRAPH_LOOP = contextvars.ContextVar("nptf_in_graph_loop", default=False)
# The graph loops whose bodies are being traced, outermost first: a token for each trace
# of a body (a dict's arrays written in place in one are not read in it again).
GRAPH_LOOPS = contextvars.ContextVar("nptf_graph_loops", default=())


def dim_of(x, axis):
    """The size of ``x``'s dimension ``axis``: an int, or a traced int when it is known
    only at run time."""
    d = x.type.shape[axis]
    return d if d is not None else emit("dim", [x], {"axis": axis}, scalar=True)


def assumed_value(x, what, arrays=False):
    """The value of the traced 0-d ``x`` (of any rank with ``arrays``, of a shape known
    when tracing) where Python needs one (``what``): the one the data of the call being
    traced give it, as NumPy's run holds it (a NumPy scalar, an array, or a Python number
    where that run has one), which the graph checks the data to give
    (``sites.assume_value``: other data run a graph traced for theirs); None where the
    trace cannot tell it or may not assume it. A float is checked with its sign (a zero's
    sign shows in its text and in ``1 / x``), NaN as NaN."""
    if (x.ndim != 0 and not (arrays and x.type.size is not None and
                             x.type.size <= ASSUMED_ELEMENTS)) or \
            x.choice is not None or getattr(x, "kind_flag", None) is not None:
        return None
    if x.assumed is not None and x.assumed[0] is x.carried_atom():
        return x.assumed[1]
    atom = x.atom
    found = shadow_value(atom)
    if found is None or found.shape != x.shape or \
            (found.dtype.kind == "c" and np.isnan(found).any()):
        return None
    where = user_location()
    site = assume_value(what, where)
    if site is None:
        return None
    same = np.equal(x, found)
    if found.dtype.kind == "f":
        same = np.logical_and(same, np.equal(np.signbit(x), np.signbit(found)))
        if np.isnan(found).any():
            same = np.logical_or(same, np.logical_and(np.isnan(x), np.isnan(found)))
    shown = found[()] if x.ndim == 0 else "the array the data of that trace gave"
    emit("check", [x, np.all(same) if x.ndim else same], {
        "error": "OutsideTheGraph", "assumption": site, "when_read": False,
        "message": f"{what} at {where}: these data give the value another Python value than "
                   f"the graph was traced for ({shown!r})"}, scalar=x.ndim == 0)
    if x.type.weak:
        found = python_type_of(found.dtype)(found[()])
    elif x.is_scalar:
        found = found[()]
    x.assumed = (x.carried_atom(), found)
    return found


def concrete_dim(x, axis, what):
    """The size of ``x``'s dimension ``axis``, which ``what`` needs as a Python int."""
    d = x.shape[axis]
    if d is None:
        raise DynamicShapeError(f"{what} needs the size of dimension {axis} of a {x.type} array, "
                                f"which is only known at run time. Give that dimension a fixed "
                                f"size, or express the code through the array itself (e.g. "
                                f"np.zeros_like(x)).\n  at {user_location()}")
    return d


# ------------------------------------------------------------------- atoms
def is_tracer(x) -> bool:
    return isinstance(x, Tracer)


def ndim_of(x) -> int:
    """``np.ndim(x)`` of a value that may be a list holding traced values (``[np.sum(d)
    for d in rows]``), whose array NumPy's own ``ndim`` would have to build."""
    if isinstance(x, Tracer):
        return x.ndim
    if isinstance(x, (list, tuple)) and contains_tracer(x):
        return 1 + (ndim_of(x[0]) if len(x) else 0)
    return np.ndim(x)


def contains_tracer(x) -> bool:
    if isinstance(x, Tracer):
        return True
    if isinstance(x, (list, tuple)):
        return any(contains_tracer(v) for v in x)
    return False


def check_dtype(dtype, where=None):
    dtype = np.dtype(dtype)
    if dtype.kind not in "biufc":
        raise unsupported(f"an array of dtype {dtype} (object, string, datetime or structured)",
                          where, fix="nptf compiles numeric and boolean arrays only: keep such "
                          "arrays outside the compiled function and pass their numeric fields in "
                          "as arrays of their own.")
    return dtype


def numpy_says(fn, *args, **kwargs):
    """Run NumPy on samples to learn a dtype or raise NumPy's own error at the user's line."""
    try:
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001
        raise with_location(e, user_location()) from None


def to_atom(x):
    """Any array-like as an IR atom: tracers unwrap, Python scalars become weak literals."""
    if isinstance(x, Tracer):
        return x.atom
    if isinstance(x, (bool, int, float, complex)) and not isinstance(x, np.generic):
        return Literal(x, weak_type_of(x))
    if isinstance(x, (list, tuple)) and contains_tracer(x):
        return _numpy_area.array(x).atom
    arr = np.asarray(x)
    check_dtype(arr.dtype)
    return Literal(arr, ArrayType(arr.shape, arr.dtype))


def to_tracer(x) -> Tracer:
    if isinstance(x, Tracer):
        return x
    scalar = isinstance(x, (numbers.Number, np.generic))
    t = Tracer(to_atom(x), is_scalar=scalar)
    if isinstance(x, np.ndarray):
        t._layout = layout_of_argument(x)
    return t


# While a statement of a `try` body is traced to learn whether the data make it raise
# (control_flow.raised_handler): (its builder, the checks it met as (params, ok atom)).
CHECKS_MET = contextvars.ContextVar("nptf_checks_met", default=None)


def emit(op_name, inputs, params=None, scalar=False, where=None):
    """Emit one equation; returns a Tracer (or a tuple of them for several outputs)."""
    atoms = [to_atom(x) for x in inputs]
    builder = current_builder()
    if builder is None:
        raise RuntimeError("nptf tracer used outside of tracing")
    met = CHECKS_MET.get()
    if op_name == "check" and met is not None and met[0] is builder:
        # Not raised: whether it would is what the trace is for.
        met[1].append((dict(params or {}), atoms[1]))
        value = Tracer(atoms[0], is_scalar=scalar)
        if value.type.weak and not (params or {}).get("weak"):
            return emit("convert", [value], {"dtype": value.dtype, "weak": False},
                        scalar=scalar)
        return value
    if len(atoms) > 1 and OPS[op_name].kind == "elementwise":
        atoms = _checked_open_broadcast(atoms)
    outs = builder.emit(op_name, atoms, params, where)
    tracers = tuple(Tracer(v, is_scalar=scalar) for v in outs)
    if any_not_c_ordered(atoms):
        # NumPy lays the result out like its inputs (order="K"): not certainly C order.
        for t in tracers:
            t._layout = UNKNOWN
    raising = fp_errors.raising()
    if raising and not _FP_CHECKING.get():
        tracers = _fp_checked(OPS[op_name], atoms, dict(params or {}), tracers, raising)
    return tracers if len(tracers) != 1 else tracers[0]


# Set while the checks of floating-point error flags are built (their own ops unchecked).
_FP_CHECKING = contextvars.ContextVar("nptf_fp_checking", default=False)
_MAY_UNDERFLOW = frozenset({"multiply", "divide", "exp", "exp2", "expm1", "power", "float_power",
                            "ldexp", "square", "reciprocal", "convert"})


def _fp_checked(op, atoms, params, tracers, raising):
    """``tracers``, each result that may set a floating-point error flag of a category
    in ``raising`` (``fp_errors``) checked: where the data set one, the call runs with
    NumPy, which raises ``FloatingPointError`` or goes on as the state says."""
    how = op.sets_fp_flags(params)
    if not how:
        return tracers
    token = _FP_CHECKING.set(True)
    try:
        ins = [Tracer(a) for a in atoms
               if isinstance(a.type, ArrayType) and a.type.dtype.kind in "fc"]
        whole = [Tracer(a) for a in atoms if isinstance(a.type, ArrayType)
                 and a.type.dtype.kind in "biufc"]
        out = []
        for t in tracers:
            flag = None if t.type.weak else \
                _fp_flag(op, how, t, ins, whole, params, raising)
            if flag is None:
                out.append(t)
                continue
            out.append(emit("check", [t, ~np.any(flag)], {
                "error": "OutsideTheGraph",
                "message": f"{op.numpy_call(params)} sets a floating-point error flag on "
                           f"these data, which {fp_errors.describe(raising)} makes NumPy "
                           f"act on (FloatingPointError); the graph cannot\n"
                           f"  at {user_location()}"}))
        return tuple(out)
    finally:
        _FP_CHECKING.reset(token)


def _parts(t):
    return [np.real(t), np.imag(t)] if t.dtype.kind == "c" else [t]


def _all_of(flags):
    out = None
    for f in flags:
        out = f if out is None else out & f
    return out


def _any_of(flags):
    out = None
    for f in flags:
        out = f if out is None else out | f
    return out


def _fp_flag(op, how, t, ins, whole, params, raising):
    """Where ``t``, a result of ``op`` on ``ins`` (its float operands; ``whole``, all
    its numeric ones), may have set a flag of a raising category; None where it
    cannot."""
    kind = t.dtype.kind
    if kind in "iu":
        if op.name == "convert" and ins:
            # NaN, an infinity or a value past int64 is NumPy's "invalid value in cast".
            return _any_of([~np.isfinite(p) | (np.abs(p) >= 2.0 ** 63) for p in _parts(ins[0])])
        if op.name in ("floor_divide", "remainder", "fmod", "divmod") and len(whole) == 2:
            a, b = whole
            flag = b == 0
            if kind == "i" and op.name in ("floor_divide", "divmod"):
                flag = flag | ((b == -1) & (a == np.iinfo(t.dtype).min))
            return flag
        return None
    if kind not in "fc":
        return None
    parts = _parts(t)
    if how == "any":
        flag = _any_of([~np.isfinite(p) for p in parts])
        if "under" in raising:
            flag = flag | _any_of([p == 0 for p in parts])
        return flag
    in_parts = [p for x in ins for p in _parts(x)]
    inf, nan = _any_of([np.isinf(p) for p in parts]), _any_of([np.isnan(p) for p in parts])
    finite_in = _all_of([np.isfinite(p) for p in in_parts])
    nan_in = _any_of([np.isnan(p) for p in in_parts])
    flag = (inf if finite_in is None else inf & finite_in) | \
        (nan if nan_in is None else nan & ~nan_in)
    if "under" in raising and op.name in _MAY_UNDERFLOW and in_parts:
        # A result below the smallest normal number from operands none of which is zero
        # (an integer or bool zero among them too): a float conversion from integers
        # cannot underflow.
        small = _any_of([np.abs(p) < np.finfo(t.dtype).tiny for p in parts])
        nonzero = _all_of([(p != 0) & np.isfinite(p) for x in whole for p in _parts(x)])
        flag = flag | (small & nonzero)
    return flag


def _checked_open_broadcast(atoms):
    """``atoms``, each operand whose size known only at run time meets a known size other
    than 1 checked to be that size or 1.

    TensorFlow's broadcast raises on such a mismatch only if the result is computed; a
    result whose shape is known and whose values nothing reads (``np.imag`` of a real
    array) would lose NumPy's error. The check is kept by itself.
    """
    shapes = [a.type.shape for a in atoms]
    if all(None not in s for s in shapes):
        return atoms
    out = broadcast_shapes(*shapes)
    checked = list(atoms)
    for i, a in enumerate(atoms):
        ok = None
        for axis, d in enumerate(a.type.shape):
            size = out[len(out) - a.type.ndim + axis]
            if d is None and size not in (None, 1):
                n = emit("dim", [Tracer(a)], {"axis": axis}, scalar=True)
                fits = (n == size) | (n == 1)
                ok = fits if ok is None else ok & fits
        if ok is not None:
            shown = " ".join("(" + ",".join("n" if d is None else str(d) for d in s)
                             + ("," if len(s) == 1 else "") + ")" for s in shapes)
            checked[i] = emit("check", [Tracer(a), ok], {
                "error": "ValueError",
                "message": f"operands could not be broadcast together with shapes {shown}, "
                           f"n known only at run time\n  at {user_location()}"}).atom
    return checked
