"""``np.ma`` masked arrays of traced values: ``np.ma.masked_equal(cdf, 0)``, arithmetic that
skips the masked entries, ``min``/``max``/``sum``/``mean``/``count``, ``filled`` and
``compressed`` (histogram equalisation, statistics that ignore invalid entries).

A ``TracedMasked`` holds the data, the mask and whether the mask is NumPy's ``nomask``:
``np.ma.masked_where`` shrinks a mask with nothing masked to ``nomask``, which changes what
later results hold (their ``mask``, some ``fill_value``s), so that is a fact the data give
too (a traced bool). Each operation follows ``numpy.ma.core``: the values under the mask
are the ones NumPy leaves there (the first operand's, zeros after a division). What NumPy
answers with ``np.ma.masked`` (a reduction of only masked values) runs with NumPy;
whatever else of ``np.ma`` is refused."""
from __future__ import annotations

import numbers

import numpy as np

from ..errors import unsupported, user_location
from . import numpy_api as api
from . import numpy_math as m
from .tracer import Tracer, emit, to_tracer

__all__ = ["TracedMasked", "PATCHED", "takes_traced"]

# A fill value NumPy sets from the data (``mean`` along an axis keeps the array's own
# where nothing is masked, the default elsewhere).
_UNKNOWN = object()


def _traced_bool(x):
    return isinstance(x, Tracer)


def _and(a, b):
    if a is False or b is False:
        return False
    if a is True:
        return b
    if b is True:
        return a
    return np.logical_and(a, b)


def _default_fill(dtype):
    return np.ma.default_fill_value(np.zeros(0, dtype))


def _checked_fill(value, dtype):
    """The fill value NumPy keeps for ``value`` (None: the default) set on an array of
    ``dtype``, as NumPy itself makes it."""
    probe = np.ma.MaskedArray(np.zeros(1, dtype))
    probe.fill_value = value
    return probe._fill_value


class TracedMasked:
    __slots__ = ("data", "maskarray", "nomask", "fill")
    __array_priority__ = 100

    def __init__(self, data, maskarray, nomask, fill=None):
        self.data, self.maskarray, self.nomask, self.fill = data, maskarray, nomask, fill

    # ------------------------------------------------------------ facts
    shape = property(lambda self: self.data.shape)
    ndim = property(lambda self: self.data.ndim)
    dtype = property(lambda self: self.data.dtype)
    size = property(lambda self: self.data.size)

    def __len__(self):
        return len(self.data)

    @property
    def fill_value(self):
        # NumPy keeps the default it answers with (``_fill_value``), in the dtype of the
        # array then; a fill value set or inherited stays in the dtype it had.
        if self.fill is _UNKNOWN:
            raise unsupported("the fill_value of this masked array, which NumPy sets by "
                              "whether anything is masked")
        if self.fill is None:
            self.fill = _checked_fill(None, self.dtype)
        return self.fill[()] if isinstance(self.fill, np.ndarray) else self.fill

    @property
    def mask(self):
        if self.nomask is True:
            return np.False_
        if self.nomask is False:
            return self.maskarray
        raise unsupported("the mask of a masked array np.ma.masked_where may shrink to "
                          "nomask (np.False_) as the data decide",
                          fix="Use np.ma.getmaskarray(m), an array whatever the data.")

    def __array__(self, *args, **kwargs):
        raise unsupported("a masked array of traced values as a NumPy array",
                          fix="Use m.filled(value) or m.data.")

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        raise unsupported(f"np.{ufunc.__name__} of a masked array",
                          fix="Apply it to m.filled(value) or m.compressed().")

    def __bool__(self):
        raise unsupported("the truth of a masked array")

    def __getitem__(self, key):
        raise unsupported("indexing a masked array", fix="Index m.filled(value) or m.data.")

    # ------------------------------------------------------------ arithmetic
    def _binary(self, other, ufunc, reflected=False, domain=None):
        if isinstance(other, TracedMasked):
            ob_data, ob_mask, ob_nomask = other.data, other.maskarray, other.nomask
        elif isinstance(other, (Tracer, np.ndarray, numbers.Number, np.generic, list, tuple)):
            # ``np.ma.getdata``: an array of it, so a Python number is not weak here.
            if isinstance(other, (list, tuple)):
                other = api.asarray(other)
            ob_data, ob_mask, ob_nomask = _strong(other), None, True
        else:
            return NotImplemented
        a, b = (ob_data, self.data) if reflected else (self.data, ob_data)
        ma, mb = (ob_mask, self.maskarray) if reflected else (self.maskarray, ob_mask)
        na, nb = (ob_nomask, self.nomask) if reflected else (self.nomask, ob_nomask)
        result = to_tracer(ufunc(a, b))
        if result.ndim == 0:
            raise unsupported("arithmetic of 0-d masked arrays")
        shape = result.shape
        masks = [api.broadcast_to(x, shape) for x in (ma, mb) if x is not None]
        full = masks[0] if len(masks) == 1 else np.logical_or(*masks)
        if domain is None:
            # NumPy keeps the first operand's values under the mask.
            data = np.where(full, api.astype(api.broadcast_to(to_tracer(a), shape),
                                             result.dtype), result)
            return TracedMasked(data, full, _and(na, nb), self.fill)
        full = np.logical_or(np.logical_or(full, np.logical_not(np.isfinite(result))),
                             domain(to_tracer(a), to_tracer(b)))
        data = np.where(full, np.zeros((), result.dtype), result)
        da = api.broadcast_to(to_tracer(a), shape)
        if np.can_cast(np.result_type(np.bool_, da.dtype), result.dtype, "safe"):
            data = data + full * da
        return TracedMasked(data, full, False, self.fill)

    def __add__(self, other):
        return self._binary(other, np.add)

    def __radd__(self, other):
        return self._binary(other, np.add, True)

    def __sub__(self, other):
        return self._binary(other, np.subtract)

    def __rsub__(self, other):
        return self._binary(other, np.subtract, True)

    def __mul__(self, other):
        return self._binary(other, np.multiply)

    def __rmul__(self, other):
        return self._binary(other, np.multiply, True)

    def __truediv__(self, other):
        return self._binary(other, np.true_divide, domain=_safe_divide_domain)

    def __rtruediv__(self, other):
        return self._binary(other, np.true_divide, True, _safe_divide_domain)

    def __floordiv__(self, other):
        return self._binary(other, np.floor_divide, domain=_safe_divide_domain)

    def __rfloordiv__(self, other):
        return self._binary(other, np.floor_divide, True, _safe_divide_domain)

    def _refused(self, *args, **kwargs):
        raise unsupported("this operator on a masked array (%, **, a comparison)",
                          fix="Apply it to m.filled(value) or m.data.")

    __mod__ = __rmod__ = __pow__ = __rpow__ = _refused
    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = _refused
    __hash__ = None

    def _unary(self, ufunc):
        # An ndarray ufunc of a masked array: the values everywhere, a mask array always.
        return TracedMasked(ufunc(self.data), self.maskarray, False, self.fill)

    def __neg__(self):
        return self._unary(np.negative)

    def __abs__(self):
        return self._unary(np.absolute)

    def astype(self, dtype, *args, **kwargs):
        data = self.data.astype(dtype, *args, **kwargs)
        fill = self.fill if self.fill is None or self.fill is _UNKNOWN else \
            _checked_fill(self.fill, data.dtype)
        return TracedMasked(data, self.maskarray, self.nomask, fill)

    # ------------------------------------------------------------ what it holds
    def filled(self, fill_value=None):
        if self.nomask is True:
            return self.data
        if fill_value is not None:
            value = np.asarray(fill_value, self.dtype)
        elif self.fill is None and _traced_bool(self.nomask):
            # NumPy asks (and keeps) the default only where something is masked.
            value = np.asarray(_default_fill(self.dtype), self.dtype)
            self.fill = _UNKNOWN
        else:
            value = np.asarray(self.fill_value, self.dtype)
        return np.where(self.maskarray, value, self.data)

    def compressed(self):
        return api.ravel(self.data)[api.ravel(np.logical_not(self.maskarray))]

    # ------------------------------------------------------------ reductions
    def count(self, axis=None, keepdims=False):
        if _traced_bool(self.nomask) and axis is None:
            raise unsupported("count() of a masked array np.ma.masked_where may shrink to "
                              "nomask (a Python int then, else a NumPy integer)")
        if self.nomask is True and axis is None:
            return self.size
        return m.sum_(np.logical_not(self.maskarray), axis, keepdims=keepdims)

    def _nonempty(self, value, what):
        """``value``, checked when the graph runs to come from some unmasked value."""
        if self.nomask is True:
            return value
        some = np.logical_not(m.all_(self.maskarray))
        if _traced_bool(self.nomask):
            some = np.logical_or(some, self.nomask)
        return emit("check", [value, some], {
            "error": "OutsideTheGraph",
            "message": f"{what} of a masked array whose values are all masked, which NumPy "
                       f"answers with np.ma.masked, at {user_location()}"},
                    scalar=value.is_scalar)

    def _extremum(self, reduce, fill_of, name, axis, keepdims):
        if keepdims:
            raise unsupported(f"masked array {name}(keepdims=True)")
        fill = fill_of(np.zeros(0, self.dtype))
        out = reduce(self.filled(fill), axis)
        if axis is None:
            return self._nonempty(out, f"{name}()")
        all_masked = m.all_(self.maskarray, axis)
        out = np.where(all_masked, np.asarray(_default_fill(out.dtype), out.dtype), out)
        return TracedMasked(out, all_masked, self.nomask, None)

    def min(self, axis=None, out=None, fill_value=None, keepdims=False):
        _no_out(out, fill_value)
        return self._extremum(m.min_, np.ma.minimum_fill_value, "min", axis, keepdims)

    def max(self, axis=None, out=None, fill_value=None, keepdims=False):
        _no_out(out, fill_value)
        return self._extremum(m.max_, np.ma.maximum_fill_value, "max", axis, keepdims)

    def sum(self, axis=None, dtype=None, out=None, keepdims=False):
        _no_out(out)
        if keepdims:
            raise unsupported("masked array sum(keepdims=True)")
        total = m.sum_(self.filled(0), axis, dtype=dtype)
        if axis is None:
            return self._nonempty(total, "sum()")
        return TracedMasked(total, m.all_(self.maskarray, axis), self.nomask, None)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False):
        _no_out(out)
        if keepdims or self.dtype == np.float16:
            raise unsupported("masked array mean(keepdims=True) or of float16")
        if self.nomask is True:
            result = m.mean(self.data, axis, dtype=dtype)
            return result if axis is None else TracedMasked(result, _all_false(result),
                                                            True, self.fill)
        total = self.sum(axis, dtype=dtype)
        count = m.sum_(np.logical_not(self.maskarray), axis)
        out = total * 1. / count
        if not _traced_bool(self.nomask):
            return self._nonempty(out, "mean()") if axis is None else out
        # Nothing masked (as the data say): NumPy's mean of the data, which keeps this
        # array's fill value and nomask, and may have another dtype (a float32 array's
        # mean is float32, the masked way's sum * 1. / count float64).
        plain = m.mean(self.data, axis, dtype=dtype)
        if plain.dtype != out.dtype:
            raise unsupported(f"mean() of a {self.dtype} masked array np.ma.masked_where may "
                              f"shrink to nomask: NumPy's result is {plain.dtype} where "
                              f"nothing is masked and {out.dtype} elsewhere")
        if axis is None:
            chosen = Tracer(np.where(self.nomask, plain, out).atom, is_scalar=True)
            return self._nonempty(chosen, "mean()")
        data = np.where(self.nomask, plain, out.data)
        return TracedMasked(data, out.maskarray, self.nomask,
                            None if self.fill is None else _UNKNOWN)

    # ------------------------------------------------------------ a tree node
    def nptf_children(self):
        if self.fill is _UNKNOWN:
            raise unsupported("returning a masked array whose fill_value NumPy sets by "
                              "whether anything is masked")
        return (self.data, self.maskarray, self.nomask)

    def nptf_spec(self):
        return _Spec(self.fill)


def _strong(x):
    """``x`` as ``np.array(x)`` makes it: a Python number (traced or not) takes its default
    dtype."""
    if isinstance(x, Tracer):
        return api.astype(x, np.asarray(x.dtype.type(0)).dtype) if x.type.weak else x
    return np.asarray(x)


def _all_false(x):
    return api.broadcast_to(np.zeros((), np.bool_), x.shape)


def _no_out(out, fill_value=None):
    if out is not None or fill_value is not None:
        raise unsupported("out= or fill_value= of a masked array reduction")


def _safe_divide_domain(a, b):
    """``numpy.ma.core._DomainSafeDivide``: where ``|b|`` is too small to divide by."""
    return np.greater_equal(np.absolute(a) * np.finfo(float).tiny, np.absolute(b))


class _Spec:
    """The tree node of a ``TracedMasked``: NumPy's masked array once handed back."""
    __slots__ = ("fill",)
    nptf_what = "a masked array"

    def __init__(self, fill):
        self.fill = fill

    def __eq__(self, other):
        return isinstance(other, _Spec) and repr(other.fill) == repr(self.fill)

    def __hash__(self):
        return hash(("masked", repr(self.fill)))

    def nptf_rebuilt(self, children):
        data, mask, nomask = children
        if any(isinstance(c, Tracer) for c in children):
            return TracedMasked(data, mask, nomask, self.fill)
        out = np.ma.MaskedArray(data, mask=np.ma.nomask if bool(nomask) else mask)
        # The fill value as NumPy's run keeps it (in the dtype it was set in).
        out._fill_value = self.fill
        return out


# ------------------------------------------------------------ np.ma's functions
def _plain(x):
    if isinstance(x, TracedMasked):
        raise unsupported("this np.ma function of a masked array")
    return to_tracer(x)


def masked_where(condition, a, copy=True):
    cond = to_tracer(condition)
    if isinstance(a, TracedMasked):
        cond = np.logical_or(cond, a.maskarray)
        a, fill = a.data, a.fill
    else:
        a, fill = to_tracer(a), None
    if cond.ndim and cond.shape != a.shape:
        raise IndexError(f"Inconsistent shape between the condition and the input (got "
                         f"{cond.shape} and {a.shape})\n  at {user_location()}")
    cond = api.broadcast_to(api.astype(cond, np.bool_), a.shape)
    # NumPy shrinks a mask with nothing masked to nomask. With copy=False its data is
    # ``a`` itself: later writes into ``a`` show in it.
    return TracedMasked(api.copy_(a) if copy else a, cond, np.logical_not(m.any_(cond)), fill)


def _compared(ufunc, fill_is_value=False):
    def masked(x, value, copy=True):
        x = _plain(x)
        out = masked_where(ufunc(x, value), x, copy)
        if fill_is_value:
            out.fill = _checked_fill(value, x.dtype)
        return out
    return masked


def masked_invalid(a, copy=True):
    a = _plain(a)
    out = masked_where(np.logical_not(np.isfinite(a)), a, copy)
    out.nomask = False          # NumPy keeps the full mask here
    return out


def array(data, dtype=None, copy=False, order=None, mask=np.ma.nomask, fill_value=None,
          keep_mask=True, hard_mask=False, shrink=True, subok=True, ndmin=0):
    if isinstance(data, TracedMasked) or order is not None or hard_mask or ndmin:
        raise unsupported("np.ma.array of a masked array, or with order=, hard_mask= or "
                          "ndmin=")
    data = to_tracer(data)
    if dtype is not None:
        data = api.astype(data, dtype)
    # NumPy's masked array holds the data's memory itself (copy=False, the default), and a
    # boolean mask array of its shape too: writes into either show in it later, as they
    # do in the arrays the trace holds here.
    data = api.copy_(data) if copy else data
    fill = None if fill_value is None else _checked_fill(fill_value, data.dtype)
    if mask is np.ma.nomask:
        return TracedMasked(data, _all_false(data), True, fill)
    mask = to_tracer(mask)
    if copy or mask.dtype != np.bool_ or mask.shape != data.shape:
        mask = api.broadcast_to(api.astype(mask, np.bool_), data.shape)
    return TracedMasked(data, mask, False, fill)


def masked_array(data=None, mask=np.ma.nomask, dtype=None, copy=False, subok=True, ndmin=0,
                 fill_value=None, keep_mask=True, hard_mask=None, shrink=True, order=None):
    """``np.ma.masked_array`` (NumPy's ``MaskedArray`` class), whose second argument is
    the mask."""
    return array(data, dtype, copy, order, mask, fill_value, keep_mask, bool(hard_mask),
                 shrink, subok, ndmin)


def filled(a, fill_value=None):
    if isinstance(a, TracedMasked):
        return a.filled(fill_value)
    return api.asarray(a)


def getmaskarray(arr):
    if isinstance(arr, TracedMasked):
        return arr.maskarray
    return _all_false(to_tracer(arr))


def getdata(a, subok=True):
    return a.data if isinstance(a, TracedMasked) else api.asarray(a)


def average(a, axis=None, weights=None, returned=False, *, keepdims=np._NoValue):
    """``np.ma.average`` without ``returned`` or ``keepdims``, of weights of the masked
    array's shape: the masked values weigh nothing; NumPy's np.ma.masked where all are
    (axis=None) runs the call with NumPy."""
    if returned or keepdims is not np._NoValue:
        raise unsupported("np.ma.average(..., returned=True or keepdims=)")
    a = a if isinstance(a, TracedMasked) else array(a)
    if weights is None:
        return a.mean(axis)
    w = to_tracer(weights)
    if w.shape != a.shape:
        raise unsupported("np.ma.average with weights of another shape than the array")
    if isinstance(axis, (tuple, list)):
        raise unsupported("np.ma.average over several axes")
    result = np.result_type(a.dtype, w.dtype, *(("f8",) if a.dtype.kind in "biu" else ()))
    keep = np.logical_not(a.maskarray)
    w = api.astype(w, result)
    scale = m.sum_(np.where(keep, w, 0), axis, dtype=result)
    total = m.sum_(np.where(keep, api.astype(a.data, result) * w, 0), axis, dtype=result)
    out = total / scale
    if axis is None:
        return a._nonempty(Tracer(out.atom, is_scalar=True), "average()")
    return TracedMasked(out, m.all_(a.maskarray, axis), a.nomask, None)


PATCHED = {
    "masked_where": masked_where,
    "masked_equal": _compared(np.equal, fill_is_value=True),
    "masked_not_equal": _compared(np.not_equal),
    "masked_greater": _compared(np.greater),
    "masked_greater_equal": _compared(np.greater_equal),
    "masked_less": _compared(np.less),
    "masked_less_equal": _compared(np.less_equal),
    "masked_invalid": masked_invalid,
    "array": array,
    "masked_array": masked_array,
    "average": average,
    "filled": filled,
    "getmaskarray": getmaskarray,
    "getdata": getdata,
}


def takes_traced(args, kwargs):
    """Whether a call of one of ``np.ma``'s functions is of traced values."""
    return any(isinstance(v, (Tracer, TracedMasked)) for v in list(args) + list(kwargs.values()))
