"""``ndarray`` methods and properties of Tracer, each delegating to the table."""
from __future__ import annotations

import sys

import numpy as np

from ..errors import (UnsupportedAttributeError, in_user_code, unsupported, user_location,
                      with_location)
from ..graph_ir.types import sample
from . import numpy_api as api
from . import numpy_math as m
from . import printing
from .indexing import getitem, write
from .tracer import Tracer, check_dtype, emit, numpy_says, numpy_value_only
from .views import Step, View, buffer_of, is_c_ordered, make_view, mark_ambiguous


def _shape_args(args):
    return args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args


def _reshape(self, *shape, order="C", copy=None):
    return api.reshape(self, _shape_args(shape), order=order)


def _transpose(self, *axes):
    axes = _shape_args(axes)
    return api.transpose(self, None if axes in ((), (None,)) else axes)


def _partition_in_place(self, kth, axis=-1, kind="introselect", order=None):
    self[...] = np.partition(self, kth, axis, kind, order)


def _to_device(self, device, /, *, stream=None):
    if stream is not None:
        raise ValueError(f"The stream argument in to_device() is not supported\n  at {user_location()}")
    if device != "cpu":
        raise ValueError(f"Unsupported device: {device}. Only 'cpu' is accepted.\n  at {user_location()}")
    return self


def _view(self, dtype=None, type=None):
    if type is not None and type is not np.ndarray:
        raise unsupported(f"ndarray.view(type={type.__name__})")
    if dtype is None or np.dtype(dtype) == self.dtype:
        return self[...]        # a basic index: a view sharing this array's data, as in NumPy
    return _bitcast_view(self, check_dtype(dtype), unsupported)


def _bitcast_view(x, dtype, unsupported):
    """``x.view(dtype)`` of an integer or float dtype: the same bytes read as ``dtype``. Of
    another itemsize, the last axis holds as many more (or fewer) elements, as NumPy's
    rules say (their errors for a 0-d array or a size that does not divide are NumPy's).
    Writes through either name then run with NumPy (nptf does not reinterpret them)."""
    kinds = "iuf"
    if dtype.kind not in kinds or x.dtype.kind not in kinds:
        raise unsupported(f"ndarray.view({dtype.name}) of a {x.dtype.name} array (only integer "
                          f"and float dtypes are reinterpreted)")
    resized = dtype.itemsize != x.dtype.itemsize
    if resized:
        if None in x.type.shape or not is_c_ordered(x):
            raise unsupported(f"ndarray.view({dtype.name}) of a {x.dtype.name} array whose size "
                              f"or memory layout is known only at run time")
        numpy_says(lambda: np.empty(x.type.shape[-1:], x.dtype).view(dtype))
    out = emit("bitcast", [x], {"dtype": dtype})
    step = Step("bitcast", lambda t: emit("bitcast", [t], {"dtype": dtype}),
                lambda a: a.view(dtype))
    if resized:
        # Its elements are parts (or groups) of the array's: a view nptf re-reads after
        # writes into the array, without placing its elements one by one.
        base = buffer_of(x)
        out._view = View(base.buffer, base.steps + (step,), None, readonly=base.readonly,
                         parent=base)
        out._view.c_ordered = True      # as the array it reads (checked above)
        made = out
    else:
        made = make_view(x, out, step, lambda s: s)
    mark_ambiguous(made, "the array's bytes are also read as another dtype (.view(dtype)), "
                         "and nptf does not reinterpret writes")
    return made


def _conjugate(self):
    if self.type.weak:
        # A Python number's conjugate() is a Python number (an int for a bool).
        return api.apply_ufunc(np.conjugate, (self,), python_operator=True)
    return np.conjugate(self) if self.dtype.kind == "c" else self


_METHODS = {
    "view": _view,
    "astype": lambda self, dtype, order="K", casting="unsafe", subok=True, copy=True:
        api.astype(self, dtype, casting=casting, copy=copy),
    "reshape": _reshape,
    "transpose": _transpose,
    "ravel": lambda self, order="C": api.ravel(self, order),
    "flatten": lambda self, order="C": api.copy_(api.ravel(self, order)),
    "squeeze": lambda self, axis=None: api.squeeze(self, axis),
    "swapaxes": api.swapaxes,
    "repeat": lambda self, repeats, axis=None: api.repeat(self, repeats, axis),
    "copy": lambda self, order="C": api.copy_(self),
    "sum": m.sum_, "prod": m.prod_, "mean": m.mean, "var": m.var, "std": m.std,
    "max": m.max_, "min": m.min_, "ptp": m.ptp, "all": m.all_, "any": m.any_,
    "argmax": m.argmax, "argmin": m.argmin, "cumsum": m.cumsum, "cumprod": m.cumprod,
    "clip": m.clip, "round": m.round_, "dot": m.dot, "trace": m.trace,
    "conj": lambda self: np.conjugate(self) if self.dtype.kind == "c" else self,
    "conjugate": _conjugate,
    "__getitem__": getitem,
    "take": lambda self, indices, axis=None, out=None, mode="raise": np.take(self, indices, axis, out, mode),
    "compress": lambda self, condition, axis=None, out=None: np.compress(condition, self, axis, out),
    "nonzero": lambda self: np.nonzero(self),
    "choose": lambda self, choices, out=None, mode="raise": np.choose(self, choices, out, mode),
    "partition": _partition_in_place,
    "device": property(lambda self: "cpu"),
    "to_device": _to_device,
}

def _numpys_copy(name, fn):
    """The method, returning a copy where it returns the array itself but NumPy's does not
    (``x.round()`` of integers)."""
    def method(self, *args, **kwargs):
        return api.numpys_copy(lambda x, *a, **k: getattr(x, name)(*a, **k), (self, *args),
                               kwargs, fn(self, *args, **kwargs))
    return method


def _numpy_receiver(name, fn):
    """The method, its receiver checked to be a NumPy value where an `if` on the data
    leaves it a Python number on some paths (which has no such method)."""
    def method(self, *args, **kwargs):
        if self.kinds is not None and in_user_code(sys._getframe(1).f_code.co_filename):
            self = numpy_value_only(self, f"`.{name}()`")
        return fn(self, *args, **kwargs)
    return method


for _name, _fn in _METHODS.items():
    if callable(_fn) and _name not in ("__getitem__", "view", "partition", "to_device"):
        _fn = _numpys_copy(_name, _fn)
    if callable(_fn) and _name != "conjugate":      # a Python number's method too
        _fn = _numpy_receiver(_name, _fn)
    setattr(Tracer, _name, _fn)


Tracer.T = property(lambda self: api.transpose(numpy_value_only(self, "`.T`")))
Tracer.mT = property(lambda self: api.swapaxes(numpy_value_only(self, "`.mT`"), -1, -2))


def _part_setter(part):
    def set_part(self, value):
        """``a.real = v`` (``a.imag = v``): ``a.real[...] = v``, through the view; of a real
        array, ``a.real`` is ``a`` itself, and its ``imag`` is read-only, as in NumPy."""
        if part == "imag" and self.dtype.kind != "c":
            raise TypeError(f"array does not have imaginary part to set\n  at {user_location()}")
        write(getattr(api, part)(self), Ellipsis, value, "update", f"`.{part} = ...`")
    return set_part


Tracer.real = property(lambda self: api.real(self), _part_setter("real"))
Tracer.imag = property(lambda self: api.imag(self), _part_setter("imag"))


def _set_shape(self, shape):
    """``a.shape = s``: the array object itself becomes its reshape, sharing its memory
    (every name bound to it sees the new shape), which NumPy allows only without a copy."""
    if self.is_scalar or self.type.weak:
        kind = "numpy.generic" if self.is_scalar else type(sample(self.type)).__name__
        raise AttributeError(f"attribute 'shape' of '{kind}' objects is not writable\n"
                             f"  at {user_location()}")
    if None not in self.type.shape:
        # NumPy's own errors and warnings for the new shape, on a C-ordered sample.
        probe = np.zeros(self.type.shape, np.bool_)
        try:
            probe.shape = shape
        except Exception as e:  # noqa: BLE001
            raise with_location(e, user_location()) from None
    reshaped = api.reshape(self, shape)
    if reshaped is self:
        return
    view = buffer_of(self)
    if reshaped._view is None or reshaped._view.buffer is not view.buffer:
        raise AttributeError("Incompatible shape for in-place modification. Use `.reshape()` "
                             f"to make a copy with the desired shape.\n  at {user_location()}")
    self._atom, self._view = reshaped._atom, reshaped._view


Tracer.shape = Tracer.shape.setter(_set_shape)


class _Flat:
    """``a.flat``: ``a`` read and written as if it were 1-d, in C order. A slice of it is
    a new array, as NumPy's is."""

    def __init__(self, base):
        self._base = base

    def __getitem__(self, key):
        out = api.ravel(self._base)[key]
        return out if out.is_scalar else api.copy_(out)

    def __setitem__(self, key, value):
        line = api.reshape(self._base, (-1,))
        view = buffer_of(self._base)
        if line._view is None or line._view.buffer is not view.buffer:
            raise unsupported("writing through ndarray.flat of an array that is not C-ordered",
                              fix="Write through a.reshape(-1) of a C-ordered copy, or index "
                                  "the array itself.")
        line[key] = value

    def __iter__(self):
        return iter(api.copy_(api.ravel(self._base)))

    def __len__(self):
        return len(api.ravel(self._base))


Tracer.flat = property(lambda self: _Flat(self))
# The bytes of the values, made when the graph has run (a ``Text``: returned, printed or
# decoded, ``a.tobytes().decode("ascii")``).
Tracer.tobytes = printing.tobytes


def _missing_attribute(self, name):
    if not name.startswith("_") and hasattr(np.ndarray, name):
        raise UnsupportedAttributeError(str(unsupported(f"ndarray.{name}")))
    raise AttributeError(f"'numpy.ndarray' object has no attribute '{name}'")


Tracer.__getattr__ = _missing_attribute
