"""NumPy's imperative API: assignment, in-place operators, ``out=``, ``ufunc.at`` and friends.

Each writes through ``indexing.write``, so views, casting and duplicate
indices behave as in NumPy while the IR stays pure.
"""
from __future__ import annotations

import warnings

import numpy as np

from ..errors import unsupported, user_location
from . import numpy_api as api
from .indexing import getitem, masked_value_dims, traced_target, write
from .numpy_api import implements
from .numpy_math import cumsum
from .numpy_math import where as np_where
from .tracer import Tracer, ndim_of, numpy_says, settled, to_tracer

AT_MODES = {"add", "subtract", "multiply", "maximum", "minimum"}


def _numpy_converts(dtype, value, basic_index=True):
    """``value`` as NumPy stores it into an array of ``dtype``: a constant that NumPy
    refuses (a complex number into floats, NaN or 300 into int8) raises NumPy's error
    here; a Python float that is an argument is checked when the graph runs."""
    if isinstance(value, (bool, int, float, complex, np.generic)):
        numpy_says(np.zeros(1, dtype).__setitem__, 0, value)
    elif isinstance(value, (list, tuple)) and not _holds_tracers(value):
        numpy_says(np.zeros(np.shape(value), dtype).__setitem__, Ellipsis, value)
    elif isinstance(value, Tracer) and value.ndim == 0 and \
            (value.type.weak or (value.is_scalar and basic_index)):
        # A Python number, or a NumPy scalar stored through a basic index (NumPy casts a
        # 0-d array, or anything stored through an index array or a mask, unchecked).
        kind = np.dtype(dtype).kind
        if value.type.weak and value.dtype.kind == "c" and kind not in "cb":
            numpy_says(np.zeros(1, dtype).__setitem__, 0, 1j)
        # NumPy checks some of these stores (as int() would) and wraps others (a NumPy
        # scalar into an unsigned array): it says which for an extreme value of the dtype.
        if value.dtype.kind == "f" and kind in "iu" and \
                (value.type.weak or _numpy_refuses(dtype, value.dtype.type(np.inf))):
            return _checked_float_to_int(value, np.dtype(dtype))
        if value.dtype.kind in "iu" and kind in "iu" and not value.type.weak and \
                not np.can_cast(value.dtype, dtype) and \
                any(_numpy_refuses(dtype, end) for end in _ends(value.dtype)):
            return _checked_int_range(value, np.dtype(dtype))
    return value


def _ends(dtype):
    limits = np.iinfo(dtype)
    return dtype.type(limits.min), dtype.type(limits.max)


def _numpy_refuses(dtype, sample):
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.zeros(1, dtype)[0] = sample
    except (OverflowError, ValueError):
        return True
    return False


def _checked_int_range(value, dtype):
    limits = np.iinfo(dtype)
    wide = api.astype(value, np.float64) if value.dtype == np.uint64 or dtype == np.uint64 \
        else value
    ok = (wide >= limits.min) & ((wide <= limits.max) if wide is value else
                                 (wide < float(limits.max) + 1))   # 2**63 - 1 rounds up
    return api.emit("check", [value, ok], {"message": f"Python integer out of bounds for {dtype}"
                                           f"\n  at {user_location()}", "error": "OverflowError"},
                    scalar=True)


def _checked_float_to_int(value, dtype):
    whole = np.trunc(value)
    limits = np.iinfo(dtype)
    at = f"\n  at {user_location()}"
    for ok, error, message in [
            (~np.isnan(value), "ValueError", "cannot convert float NaN to integer"),
            (~np.isinf(value), "OverflowError", "cannot convert float infinity to integer"),
            ((whole >= float(limits.min)) & (whole < float(limits.max) + 1), "OverflowError",
             f"Python integer out of bounds for {dtype}")]:
        value = api.emit("check", [value, ok], {"message": message + at, "error": error},
                         scalar=True)
    return value


def _holds_tracers(value):
    if isinstance(value, (list, tuple)):
        return any(_holds_tracers(v) for v in value)
    return isinstance(value, Tracer)


def _advanced(key):
    """Whether NumPy indexes with ``key`` by arrays (a boolean, even a scalar one, is a mask)."""
    parts = key if isinstance(key, tuple) else (key,)
    return any(isinstance(k, (list, bool, np.bool_)) or
               (isinstance(k, (np.ndarray, Tracer)) and (k.ndim > 0 or k.dtype == np.bool_))
               for k in parts)


def _one_element(x, key):
    """Whether ``x[key]`` names one element by integers (NumPy's integer, or 0-d, indices)."""
    parts = key if isinstance(key, tuple) else (key,)
    return len(parts) == x.ndim and all(
        isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_)) or
        (isinstance(k, (np.ndarray, Tracer)) and k.ndim == 0 and k.dtype.kind in "iu")
        for k in parts)


def _rank_settled(x, key, value):
    """A value of one element whose rank the data choose (``RankChoice``), written into
    ``x[key]``: NumPy writes every rank alike into a part of rank 1 or more (leading
    axes of length 1 dropped), and refuses an array into one element; only a basic index
    of ints and slices is read here, the rest refuse."""
    parts = key if isinstance(key, tuple) else (key,)
    basic = all(isinstance(k, (int, np.integer, slice)) and not isinstance(k, (bool, np.bool_))
                or k is None for k in parts)
    ints = sum(isinstance(k, (int, np.integer)) for k in parts)
    if not basic or len(parts) - parts.count(None) > x.ndim or \
            x.ndim - ints + parts.count(None) < 1:
        value.choice.refuse()
    return settled(value)


def _numpy_stores_into_one_element(dtype, value):
    """NumPy's answer for an array ``value`` stored into one element of a ``dtype`` array:
    2.4 refuses even one element (ValueError), earlier versions unpack it."""
    ndim = ndim_of(value)
    if ndim == 0:
        return
    target = np.zeros(1, dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        numpy_says(target.__setitem__, 0, np.zeros((1,) * ndim, dtype))


def setitem(self, key, value):
    if isinstance(value, Tracer) and value.choice is not None:
        value = _rank_settled(self, key, value)
    if isinstance(key, Tracer) or isinstance(value, Tracer):    # a list argument: its array
        key = api.index_array(key)
        # (a list's values as NumPy casts them into this array: of its dtype, whatever
        # the array NumPy makes of an empty list would be)
        value = value.array_value(self.dtype) if isinstance(value, Tracer) else value
    if _one_element(self, key):
        _numpy_stores_into_one_element(self.dtype, value)
    value = _numpy_converts(self.dtype, value, basic_index=not _advanced(key))
    masked_value_dims(self, key, value)
    write(self, key, value, what="x[...] = v")


def inplace(ufunc):
    def method(self, other):
        if self.is_scalar or self.type.weak:
            # NumPy scalars and Python numbers are immutable: ``s += 1`` rebinds ``s``.
            return api.apply_ufunc(ufunc, (self, other), python_operator=True)
        result = api.inplace_result(ufunc, self, other)
        write(self, None, result, what=f"{ufunc.__name__} in place")
        return self
    return method


def ufunc_at(ufunc, a, indices, b=None):
    name = ufunc.__name__
    if name not in AT_MODES:
        raise unsupported(f"np.{name}.at")
    if not isinstance(a, Tracer):
        raise unsupported(f"np.{name}.at on an array that is not traced")
    if name in ("maximum", "minimum") and a.dtype.kind == "c":
        raise unsupported(f"np.{name}.at on a complex array (no scatter kernel orders them)")
    b = 1 if b is None else b
    numpy_says(ufunc.at, np.zeros(1, a.dtype), [0], api.sample_of(to_tracer(b).atom))
    values = api.astype(to_tracer(b), a.dtype)
    write(a, indices if isinstance(indices, tuple) else (indices,), values, mode=name,
          what=f"np.{name}.at")


@implements(np.copyto)
def copyto(dst, src, casting="same_kind", where=True):
    traced_target(dst, "np.copyto")
    src = to_tracer(src)
    # NumPy's own verdict on the dtypes (a Python float into int8 fails same_kind too).
    numpy_says(np.copyto, np.zeros(1, dst.dtype), api.sample_of(src.atom), casting=casting)
    while src.ndim > dst.ndim and src.shape[0] == 1:
        src = api.reshape_to(src, src.shape[1:])    # NumPy drops a source's leading unit axes
    value = api.broadcast_to(api.astype(src, dst.dtype), dst.shape) if where is True else \
        np_where(where, api.astype(src, dst.dtype), dst)
    write(dst, None, value, what="np.copyto")


def fill(self, value):
    value = _numpy_converts(self.dtype, value)
    write(self, None, api.broadcast_to(api.astype(to_tracer(value), self.dtype), self.shape),
          what="x.fill")


@implements(np.put)
def put(a, ind, v, mode="raise"):
    traced_target(a, "np.put")
    flat_ind = np.asarray(ind) if not isinstance(ind, Tracer) else ind
    v = api.ravel(to_tracer(v))
    n = flat_ind.size if not isinstance(flat_ind, Tracer) else flat_ind.size
    if v.size == 0 or n == 0:
        return None
    if mode != "raise":
        size = a.size
        flat_ind = flat_ind % size if mode == "wrap" else np.clip(flat_ind, 0, size - 1)
    values = getitem(v, (np.arange(n) % v.size,)) if v.size != n else v
    write(api.ravel(a), (api.ravel(to_tracer(flat_ind)) if isinstance(flat_ind, Tracer)
                         else np.ravel(flat_ind),), values, what="np.put")


@implements(np.putmask)
def putmask(a, mask, values):
    traced_target(a, "np.putmask")
    values = api.ravel(to_tracer(values))
    if values.size == 0:
        return None
    cycled = api.reshape_to(getitem(values, (np.arange(a.size) % values.size,)), a.shape)
    write(a, None, np_where(mask, api.astype(cycled, a.dtype), a), what="np.putmask")


@implements(np.place)
def place(arr, mask, vals):
    traced_target(arr, "np.place")
    mask = api.astype(to_tracer(mask), np.bool_)
    vals = api.ravel(to_tracer(vals))
    flat_mask = api.ravel(mask)
    if isinstance(flat_mask.atom, type(None)):
        return None
    rank = cumsum(api.astype(flat_mask, np.intp)) - 1
    if vals.size == 0:
        raise ValueError(f"Cannot insert from an empty array!\n  at {user_location()}")
    chosen = getitem(vals, (rank % vals.size,))
    new = np_where(flat_mask, api.astype(chosen, arr.dtype), api.ravel(arr))
    write(arr, None, api.reshape_to(new, arr.shape), what="np.place")


def sort_inplace(self, axis=-1, kind=None, order=None, *, stable=None):
    write(self, None, np.sort(self, axis=axis, kind=kind), what="x.sort()")


Tracer.__setitem__ = setitem
Tracer.fill = fill
Tracer.sort = sort_inplace
Tracer.put = lambda self, ind, v, mode="raise": put(self, ind, v, mode)
for _dunder, _uf in [("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "divide"),
                     ("floordiv", "floor_divide"), ("mod", "remainder"), ("pow", "power"),
                     ("and", "bitwise_and"), ("or", "bitwise_or"), ("xor", "bitwise_xor"),
                     ("lshift", "left_shift"), ("rshift", "right_shift")]:
    setattr(Tracer, f"__i{_dunder}__", inplace(getattr(np, _uf)))
