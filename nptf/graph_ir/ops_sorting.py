"""IR ops for sorting, searching and gathering, with their NumPy meaning.

``argsort`` is stable and orders NaN last (NumPy's order); ``sort``,
``partition``, quantiles and medians are built from it in the tracer.
``take`` and ``take_along_axis`` gather with indices that are valid by
construction (the tracer normalises or checks user indices first).
"""
from __future__ import annotations

import numpy as np

from .evaluate import EVAL_RULES
from .ops import declare, register
from .types import ArrayType, sample

_INTP = np.dtype(np.intp)


@register("argsort")
def _argsort(ts, params):
    return [ArrayType(ts[0].shape, _INTP)]


@register("numpy_order")
def _numpy_order(ts, params):
    """NumPy's own arrangement where NumPy leaves it to its implementation: ``fn`` is
    ``argsort`` (the default kind: equal elements in the order its sort happens to
    leave them), ``partition`` or ``argpartition`` (the elements off ``kth`` in the
    order its selection leaves them). ``message`` says what an exported graph, which
    cannot ask NumPy, refuses to guess."""
    x = ts[0]
    return [ArrayType(x.shape, x.dtype if params["fn"] == "partition" else _INTP)]


declare("numpy_order", xla_obstacle=lambda in_types, params: (
    f"np.{params['fn']} " + ("orders equal elements" if params["fn"] == "argsort" else
                             "places the elements off kth") +
    " as NumPy's implementation does, which only NumPy itself, called from the graph, "
    "knows (XLA cannot call it)"), numpy_name=lambda params: f"np.{params['fn']}")


@register("take", lambda ts, p: [ts[0].dtype, _INTP])
def _take(ts, params):
    x, idx, axis = ts[0], ts[1], params["axis"]
    return [ArrayType(x.shape[:axis] + idx.shape + x.shape[axis + 1:], x.dtype)]


@register("take_slices")
def _take_slices(ts, params):
    """The ``pieces`` ``(source, start, stop)`` of the inputs along ``axis``, one after
    another (the inputs alike but along the axis): a gather at a static table of
    positions with few runs of consecutive ones."""
    axis, first = params["axis"], ts[0]
    if any(t.ndim != first.ndim or t.dtype != first.dtype or
           any(a != b for i, (a, b) in enumerate(zip(t.shape, first.shape)) if i != axis)
           for t in ts[1:]):
        raise ValueError(f"take_slices: inputs {[str(t) for t in ts]} differ off axis {axis}")
    length = sum(stop - start for _, start, stop in params["pieces"])
    return [ArrayType(first.shape[:axis] + (length,) + first.shape[axis + 1:], first.dtype)]


@register("take_along_axis", lambda ts, p: [ts[0].dtype, _INTP])
def _take_along_axis(ts, params):
    x, idx, axis = ts[0], ts[1], params["axis"]
    if x.ndim != idx.ndim or any(a != b for i, (a, b) in enumerate(zip(x.shape, idx.shape))
                                 if i != axis):
        raise ValueError(f"take_along_axis: indices {idx.shape} must match {x.shape} "
                         f"except along axis {axis}")
    return [ArrayType(idx.shape, x.dtype)]


def searchsorted_dtype(a, v):
    """NumPy compares ``a`` and ``v`` in their common dtype."""
    return np.result_type(sample(a), sample(v))


@register("searchsorted", lambda ts, p: [searchsorted_dtype(*ts)] * 2)
def _searchsorted(ts, params):
    if ts[0].ndim != 1:
        raise ValueError("object too deep for desired array")
    return [ArrayType(ts[1].shape, _INTP)]


@register("segment_sum", lambda ts, p: [ts[0].dtype, _INTP])
def _segment_sum(ts, params):
    """Sum ``values`` into ``length`` bins by ``ids`` (ids outside [0, length) are dropped)."""
    return [ArrayType((params["length"],), ts[0].dtype)]


def _eval_take(p, x, idx):
    return np.take(x, idx, axis=p["axis"])


def _eval_take_slices(p, *sources):
    axis = p["axis"]
    key = lambda start, stop: (slice(None),) * axis + (slice(start, stop),)  # noqa: E731
    return np.concatenate([sources[k][key(start, stop)] for k, start, stop in p["pieces"]],
                          axis=axis)


def _eval_segment_sum(p, values, ids):
    values, ids = np.ravel(values), np.ravel(ids)
    keep = (ids >= 0) & (ids < p["length"])
    out = np.zeros(p["length"], values.dtype)
    np.add.at(out, ids[keep], values[keep])
    return out


EVAL_RULES["argsort"] = lambda p, x: np.argsort(x, axis=p["axis"], kind="stable")
EVAL_RULES["take"] = _eval_take
EVAL_RULES["numpy_order"] = lambda p, x: (
    np.argsort(x, axis=p["axis"]) if p["fn"] == "argsort" else
    getattr(np, p["fn"])(x, list(p["kth"]), axis=p["axis"]))
EVAL_RULES["take_slices"] = _eval_take_slices
EVAL_RULES["take_along_axis"] = lambda p, x, idx: np.take_along_axis(x, idx, axis=p["axis"])
EVAL_RULES["searchsorted"] = lambda p, a, v: np.searchsorted(a, v, side=p["side"])
EVAL_RULES["segment_sum"] = _eval_segment_sum
# Orders and moves values.
declare(["argsort", "numpy_order", "searchsorted", "take", "take_along_axis", "take_slices"],
        fp_flags=False)
