"""IR ops for advanced indexing and functionalised writes.

* ``gather_nd``: ``x[i0, ..., ik-1]`` for integer index arrays stacked on the
  last axis of ``indices`` (valid by construction: the tracer normalises
  negatives and checks bounds).
* ``boolean_mask``, ``nonzero``: data-dependent sizes (an unknown dimension).
* ``scatter``: a pure update of an array at flat (C-order) positions.
  ``mode="update"`` is NumPy's ``a[idx] = v`` (the last write to a position
  wins), the other modes are ``ufunc.at`` (duplicates accumulate).
  ``unique=True`` promises that no position repeats with another value, which
  allows the cheaper kernel. The array keeps its shape: XLA updates a loop-carried array in
  place only if the update is applied to it, not to a reshape of it.
"""
from __future__ import annotations

import numpy as np

from .evaluate import EVAL_RULES, slice_index
from .ops import declare, register
from .types import ArrayType

_INTP = np.dtype(np.intp)


@register("gather_nd", lambda ts, p: [ts[0].dtype, _INTP])
def _gather_nd(ts, params):
    x, idx = ts
    k = idx.shape[-1]
    return [ArrayType(idx.shape[:-1] + x.shape[k:], x.dtype)]


@register("boolean_mask", lambda ts, p: [ts[0].dtype, np.bool_])
def _boolean_mask(ts, params):
    x, mask = ts
    for i, (a, b) in enumerate(zip(x.shape, mask.shape)):
        if a is not None and b is not None and a != b:
            raise IndexError(f"boolean index did not match indexed array along axis {i}; size of "
                             f"axis is {a} but size of corresponding boolean axis is {b}")
    return [ArrayType((None,) + x.shape[mask.ndim:], x.dtype)]


@register("nonzero")
def _nonzero(ts, params):
    return [ArrayType((None, ts[0].ndim), _INTP)]


@register("scatter", lambda ts, p: [ts[0].dtype, _INTP, ts[0].dtype])
def _scatter(ts, params):
    base, positions, values = ts
    if positions.ndim != 1 or values.ndim != 1:
        raise ValueError("scatter takes flat positions and values (into an array of any shape)")
    return [base.strong()]


def _eval_scatter(p, base, positions, values):
    out = np.array(base, copy=True)
    flat = out.reshape(-1)          # a view: out is a fresh contiguous copy
    if p["mode"] == "update":
        flat[positions] = values
    else:
        getattr(np, p["mode"]).at(flat, positions, values)
    return out


EVAL_RULES["gather_nd"] = lambda p, x, idx: np.asarray(x)[tuple(np.moveaxis(idx, -1, 0))]
EVAL_RULES["boolean_mask"] = lambda p, x, mask: np.asarray(x)[mask]
EVAL_RULES["nonzero"] = lambda p, x: np.argwhere(x)
EVAL_RULES["scatter"] = _eval_scatter


@register("slice_update", lambda ts, p: [ts[0].dtype, ts[0].dtype])
def _slice_update(ts, params):
    """``base[slices] = values`` for a basic (strided) region; ``values`` has the region's shape."""
    from .ops import slice_length
    base, values = ts
    region = tuple(d if s is None else slice_length(d, *s) for d, s in zip(base.shape, params["slices"]))
    if values.shape != region:
        raise ValueError(f"slice_update values {values.shape} do not fill the region {region}")
    return [base.strong()]


def _eval_slice_update(p, base, values):
    out = np.array(base, copy=True)
    out[slice_index(p["slices"])] = values
    return out


EVAL_RULES["slice_update"] = _eval_slice_update


@register("dynamic_slice", lambda ts, p: [ts[0].dtype] + [_INTP] * (len(ts) - 1))
def _dynamic_slice(ts, params):
    """``x[b0:b0 + s0, b1:b1 + s1, ...]`` for a run-time ``begin`` vector (one entry per
    dimension, in bounds by construction: the tracer checks it) and static ``sizes``; a
    size of None is read from the optional third input, the run-time sizes (a region
    inside ``x`` by construction)."""
    x, begin = ts[:2]
    sizes = params["sizes"]
    if begin.shape != (x.ndim,) or len(sizes) != x.ndim or \
            (None in sizes and (len(ts) != 3 or ts[2].shape != (x.ndim,))):
        raise ValueError("dynamic_slice takes one begin and one size per dimension")
    return [ArrayType(tuple(sizes), x.dtype)]


def _eval_dynamic_slice(p, x, begin, size=None):
    sizes = p["sizes"] if size is None else size
    return x[tuple(slice(int(b), int(b) + int(s)) for b, s in zip(begin, sizes))]


EVAL_RULES["dynamic_slice"] = _eval_dynamic_slice


@register("dynamic_update_slice", lambda ts, p: [ts[0].dtype, ts[0].dtype, _INTP])
def _dynamic_update_slice(ts, params):
    """``base`` with ``values`` written at the run-time ``begin`` (one entry per dimension, in
    bounds by construction), a region of ``values``' shape (sizes of ``values`` known only
    at run time: a region inside ``base`` by construction)."""
    base, values, begin = ts
    if values.ndim != base.ndim or begin.shape != (base.ndim,) or any(
            b is None or (v is not None and v > b) for v, b in zip(values.shape, base.shape)):
        raise ValueError(f"dynamic_update_slice of {values.shape} into {base.shape}")
    return [base.strong()]


def _eval_dynamic_update_slice(p, base, values, begin):
    out = np.array(base, copy=True)
    out[tuple(slice(int(b), int(b) + s) for b, s in zip(begin, values.shape))] = values
    return out


EVAL_RULES["dynamic_update_slice"] = _eval_dynamic_update_slice


@register("dim")
def _dim(ts, params):
    """The size of dimension ``axis`` of an array whose size there is known only at run
    time, as NumPy's ``x.shape[axis]`` gives it: a Python int (weak)."""
    if not 0 <= params["axis"] < ts[0].ndim:
        raise ValueError(f"dim of axis {params['axis']} of a {ts[0].ndim}-d array")
    return [ArrayType((), _INTP, True)]


EVAL_RULES["dim"] = lambda p, x: int(np.shape(x)[p["axis"]])


# Sizes that depend on the data: XLA needs every size when it compiles.
declare(["boolean_mask", "nonzero"], xla_obstacle=lambda in_types, params: True)
declare("dynamic_slice", xla_obstacle=lambda in_types, params: None in params["sizes"])
declare("dynamic_update_slice", xla_obstacle=lambda in_types, params: None in in_types[1].shape)
# Reads and writes move values (``np.add.at`` and its kind compute).
declare(["boolean_mask", "nonzero", "dim", "dynamic_slice", "dynamic_update_slice", "gather_nd",
         "slice_update"], fp_flags=False)
declare("scatter", fp_flags=lambda params: params["mode"] != "update" and "any")
declare(["scatter", "slice_update", "dynamic_update_slice"], shape_of_first=True)
