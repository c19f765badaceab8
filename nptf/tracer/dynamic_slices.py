"""Slices with a traced start and a fixed length: ``x[i:i + 4]``, ``g[i - 1:i + 2, j]``.

How long NumPy's ``x[i:j]`` is depends on ``i`` and ``j``, and near the ends of the
axis also on where they fall (``x[8:12]`` of ten elements has two). A graph needs the
length when it is built. Where the stop is the start plus a constant, seen through
the graph's additions and multiplications (``affine``), the slice has that length
whenever it lies inside the axis. Where it would not (NumPy would return fewer
elements), a run-time check stops the graph, and that call runs with NumPy
(``fallback="numpy"``) or raises ``OutsideTheGraphError``.
A read is one ``dynamic_slice``; the result is a view, and writes through it, or
into ``x[i:i + 4]`` directly, land in the array at the positions the same slice
picks out of its position table.
"""
from __future__ import annotations

import contextlib
import contextvars
import operator

import numpy as np

from ..errors import user_location
from ..graph_ir.affine import affine, same_root, same_value
from . import numpy_api as api
from .builder import current_builder
from .numpy_api import checked_index
from .tracer import Tracer, dim_of, emit, to_tracer
from .views import Step, make_view

_INTP = np.dtype(np.intp)


def has_traced_bounds(key):
    """Whether ``key`` has a slice with a traced start, stop or step."""
    return any(isinstance(k, slice) and (isinstance(k.start, Tracer) or isinstance(k.stop, Tracer)
                                         or isinstance(k.step, Tracer))
               for k in key)


def _strided(k):
    """A slice whose positions only the graph knows and which is no contiguous window: a
    traced step, or traced bounds with a step other than 1."""
    if not isinstance(k, slice):
        return False
    if isinstance(k.step, Tracer):
        return True
    return (isinstance(k.start, Tracer) or isinstance(k.stop, Tracer)) and \
        k.step is not None and operator.index(k.step) != 1


def getitem(x, key):
    """``x[key]`` for a basic key with slices of traced bounds, or None for other keys.
    A slice of fixed length keeps its length; one whose length follows the traced values
    (``x[:i]``, ``a[i + 1:n, i]``) has that length only at run time."""
    x = to_tracer(x)
    if any(_strided(k) for k in key):
        return _strided_getitem(x, key)
    plan = _plan(x.shape, key)
    if plan is None:
        return _open_getitem(x, key)
    begins, sizes, rest, like = plan
    begin = api.stack([api.astype(to_tracer(b), _INTP) for b in begins])
    out = emit("dynamic_slice", [x, begin], {"sizes": tuple(sizes)})
    out = api.basic_getitem(out, rest)
    if out.is_scalar:
        return out
    # Positions come out of the same traced slice, so writes through the view (its
    # "numpy" step runs on the position table) land where NumPy's would.
    return make_view(x, out, Step("getitem", lambda t: getitem(t, key), lambda a: getitem(a, key),
                                  key),
                     lambda s: s[like])


def _strided_getitem(x, key):
    """``x[::k]``, ``x[i:j:2]``: the key without those slices picks a view, then each such
    axis takes the slice's positions, computed in the graph by NumPy's rules. The result
    has its length at run time; writes through it land in ``x`` at the same positions
    (the write path indexes ``x``'s position table with the same key)."""
    full = expand_key(key, x.ndim)
    if any(not isinstance(k, slice) and k is not None and
           (isinstance(k, Tracer) and k.ndim != 0 or
            not isinstance(k, Tracer) and not isinstance(k, (int, np.integer)))
           for k in full):
        return None     # with index arrays, NumPy's advanced indexing: not covered here
    basic, taken, axis, out_axis = [], [], 0, 0
    for k in full:
        if k is None:
            basic.append(None)
            out_axis += 1
            continue
        if _strided(k):
            taken.append((out_axis, _slice_positions(k, dim_of(x, axis))))
            basic.append(slice(None))
        else:
            basic.append(k)
        if isinstance(k, slice):
            out_axis += 1
        axis += 1
    # The Tracer's own ``x[key]``: the whole dispatch of a key (``indexing.getitem``,
    # which builds on this module), for the traced ints and slices left in it.
    out = Tracer.__getitem__(x, tuple(basic))
    for ax, positions in taken:
        out = np.take(out, positions, axis=ax)
    return make_view(x, out, Step("getitem", lambda t: getitem(t, key), None, key),
                     lambda s: None)


def _slice_positions(k, dim):
    """The positions ``range(dim)[k]`` as a run-time-length intp array, by NumPy's rules for
    a slice's bounds and step (a zero step raises NumPy's error, by running NumPy)."""
    where = user_location()
    step = 1 if k.step is None else k.step
    step = api.astype(to_tracer(step), _INTP) if isinstance(step, Tracer) else \
        to_tracer(np.intp(operator.index(step)))
    step = emit("check", [step, step != 0], {
        "error": "OutsideTheGraph",
        "message": f"a slice's traced step is zero, where NumPy raises ValueError\n  at {where}"})
    up = step > 0

    def bound(b, default_up, default_down):
        if b is None:
            return np.where(up, default_up, default_down)
        b = api.astype(to_tracer(b), _INTP) if isinstance(b, Tracer) else \
            to_tracer(np.intp(operator.index(b)))
        b = np.where(b < 0, b + dim, b)
        return np.where(up, np.clip(b, 0, dim), np.clip(b, -1, dim - 1))

    start = bound(k.start, 0, dim - 1)
    stop = bound(k.stop, dim, -1)
    span = np.where(up, stop - start + step - 1, stop - start + step + 1)
    n = np.maximum(span // step, 0)
    return start + step * api.arange(n, dtype=_INTP)


def open_region(shape, key, x=None):
    """``(begin, sizes, static sizes, rest)`` of the box ``x[key]`` reads when a slice's
    length follows traced bounds (``x[:i]``, ``a[i + 1:n, i]``): the begin and run-time
    sizes as int vectors, the sizes where fixed (None where they follow the bounds), and
    the key that picks ``x[key]`` out of the box. None for keys it does not cover. With
    the array ``x``, axes of sizes known only at run time are covered too."""
    plan = _open_plan(shape, key, x)
    if plan is None:
        return None
    begins, sizes, static_sizes, rest = plan
    stack = lambda vs: api.stack([api.astype(to_tracer(v), _INTP) for v in vs])  # noqa: E731
    return stack(begins), stack(sizes), static_sizes, rest


def _open_getitem(x, key):
    plan = open_region(x.shape, key, x)
    if plan is None:
        return None
    begin, sizes, static_sizes, rest = plan
    out = emit("dynamic_slice", [x, begin, sizes], {"sizes": static_sizes})
    out = api.basic_getitem(out, rest)
    if out.is_scalar:
        return out
    return make_view(x, out, Step("getitem", lambda t: getitem(t, key), None, key),
                     lambda s: None)


def _open_plan(shape, key, x=None):
    """Like ``_plan``, for slices whose length follows traced bounds: per dimension the
    begin, the run-time size and the size if fixed (None where it follows the bounds),
    then the rest of the key. Bounds follow NumPy's rules: negatives count from the end,
    and both clip to the axis. None for keys it does not cover (a slice step other than
    1, an axis of unknown size, bounds that are not integers)."""
    begins, sizes, fixed, rest, axis = [], [], [], [], 0
    for k in expand_key(key, len(shape)):
        if k is None:
            rest.append(None)
            continue
        dim = shape[axis]
        if dim is None:
            if x is None:
                return None
            dim = dim_of(x, axis)       # its size, traced
        if isinstance(k, slice) and (isinstance(k.start, Tracer) or isinstance(k.stop, Tracer)):
            if k.step is not None and (isinstance(k.step, Tracer) or operator.index(k.step) != 1):
                return None
            if any(isinstance(b, Tracer) and (b.ndim != 0 or b.dtype.kind not in "iu")
                   for b in (k.start, k.stop)):
                return None
            start, stop = _clipped_bound(k.start, 0, dim), _clipped_bound(k.stop, dim, dim)
            begins.append(start)
            sizes.append(np.maximum(stop - start, 0))
            fixed.append(None)
            rest.append(slice(None))
        elif isinstance(k, Tracer):
            if k.ndim != 0 or k.dtype.kind not in "iu":
                return None
            begins.append(checked_index(k, dim, axis))
            sizes.append(1)
            fixed.append(1)
            rest.append(0)
        else:
            begins.append(0)
            sizes.append(dim)
            fixed.append(None if isinstance(dim, Tracer) else dim)
            rest.append(k)
        axis += 1
    return begins, sizes, tuple(fixed), tuple(rest)


def _clipped_bound(b, default, dim):
    """A slice bound as NumPy resolves it for a step of 1: from the end if negative, then
    clipped to ``[0, dim]``."""
    if b is None:
        return default
    if not isinstance(b, Tracer) and not isinstance(dim, Tracer):
        return min(max(operator.index(b) + dim if operator.index(b) < 0 else operator.index(b),
                       0), dim)
    b = api.astype(to_tracer(b), _INTP)
    return np.clip(np.where(b < 0, b + dim, b), 0, dim)


def window(shape, key):
    """``(begin, region)`` for writing ``key`` of an array of ``shape`` as one region: its
    traced begin vector and the region's shape, or None (a new axis, a static slice of
    another step, a slice of varying length: the caller writes position by position)."""
    if any(k is None or _strided(k) for k in key):
        return None
    plan = _plan(shape, key)
    if plan is None:
        return None
    begins, sizes, rest, _ = plan
    for axis, (k, dim) in enumerate(zip(rest, shape)):
        if isinstance(begins[axis], Tracer):
            continue                  # a traced slice or index, placed by _plan
        if isinstance(k, slice):
            if k == slice(None):
                continue
            start, stop, step = k.indices(dim)
            if step != 1 or stop <= start:
                return None
            begins[axis], sizes[axis] = start, stop - start
        else:
            i = operator.index(k)
            if not -dim <= i < dim:
                return None           # the position-by-position write raises NumPy's error
            begins[axis], sizes[axis] = i % dim, 1
    begin = api.stack([api.astype(to_tracer(b), _INTP) for b in begins])
    return begin, tuple(sizes)


def expand_key(key, ndim):
    """``key`` with ``...`` expanded and trailing ``slice(None)``s, one entry per axis plus
    the ``None``s (entries compared by identity: they may be traced)."""
    dots = [n for n, k in enumerate(key) if k is Ellipsis]
    if len(dots) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis)
    if n_real > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, but "
                         f"{n_real} were indexed\n  at {user_location()}")
    if dots:
        return key[:dots[0]] + (slice(None),) * (ndim - n_real) + key[dots[0] + 1:]
    return key + (slice(None),) * (ndim - n_real)


def _plan(shape, key):
    """Per dimension of an array of ``shape``: the traced or constant begin and the size
    of the dynamic slice (a traced integer index is one of size 1); then the rest of the
    key for its result (the other entries, with ``slice(None)`` where the slice was and
    ``0`` where the traced index was) and an equivalent static key (the slice moved to
    the start). None unless every slice with a traced bound has a fixed length."""
    begins, sizes, rest, like, axis = [], [], [], [], 0
    for k in expand_key(key, len(shape)):
        if k is None:
            rest.append(None)
            like.append(None)
            continue
        dim = shape[axis]
        if dim is None:
            return None
        if isinstance(k, slice) and (isinstance(k.start, Tracer) or isinstance(k.stop, Tracer)):
            found = _start_and_length(k, dim, axis)
            if found is None:
                return None
            begin, size = found
            begins.append(begin)
            sizes.append(size)
            rest.append(slice(None))
            like.append(slice(0, size))
        elif isinstance(k, Tracer):
            if k.ndim != 0 or k.dtype.kind not in "iu":
                return None       # index arrays: NumPy's advanced indexing, not a region
            begins.append(checked_index(k, dim, axis))
            sizes.append(1)
            rest.append(0)
            like.append(0)
        else:
            begins.append(0)
            sizes.append(dim)
            rest.append(k)
            like.append(k)
        axis += 1
    return begins, sizes, tuple(rest), tuple(like)


def _start_and_length(k, dim, axis):
    """(begin, length) for the slice ``k`` along an axis of ``dim``, or None where its length
    is not fixed: the caller then goes on as for any traced bound (which needs a concrete
    value, so a loop around it runs unrolled)."""
    where = user_location()
    step = 1 if k.step is None else k.step
    if dim is None or isinstance(step, Tracer) or operator.index(step) != 1 or \
            k.start is None or k.stop is None:
        return None
    if any(isinstance(b, Tracer) and (b.ndim != 0 or b.dtype.kind not in "iu")
           for b in (k.start, k.stop)):
        return None     # NumPy's own rules (TypeError for floats) apply on the general path
    start, stop = (to_tracer(b) if isinstance(b, Tracer) else operator.index(b)
                   for b in (k.start, k.stop))
    length = _difference(stop, start)
    if length is None or length > dim:
        return None
    if length <= 0:                # empty wherever the start falls
        return 0, 0
    span = _span(start)
    if span is not None and (span[0] < -dim or span[1] > dim - length or
                             (span[0] < 0 and span[1] >= -length)):
        # A loop of known range takes the start past the ends (the last, shorter batch
        # of ``X[i:i + batch]`` for ``i`` in ``range(0, n, batch)``): the slice has
        # NumPy's length, known at run time.
        return None
    if not isinstance(start, Tracer):
        start = to_tracer(np.intp(start))
    start = api.astype(start, _INTP)
    inside = (start >= 0) & (start <= dim - length)
    from_end = (start >= -dim) & (start < -length)
    ok = inside | from_end
    safe = np.where(ok, np.where(start < 0, start + dim, start), 0)
    return emit("check", [safe, ok], {
        "error": "OutsideTheGraph",
        "message": f"a slice of {length} elements from a traced start reaches past the ends "
                   f"of axis {axis} (size {dim}), where NumPy returns fewer elements; the "
                   f"graph keeps {length}. Starts from 0 to {dim - length} (or {-dim} to "
                   f"{-length - 1}) stay in the graph\n  at {where}"}), length


_LOOP_RANGES = contextvars.ContextVar("nptf_loop_ranges", default={})


@contextlib.contextmanager
def loop_counter(atom, values):
    """While a graph loop's body is traced: its counter ``atom`` takes the values of the
    Python range ``values``."""
    token = _LOOP_RANGES.set({**_LOOP_RANGES.get(), atom: values})
    try:
        yield
    finally:
        _LOOP_RANGES.reset(token)


def _span(value):
    """(lowest, highest) of a traced integer that is ``counter * scale + offset`` of a
    graph loop's counter whose range is known; else None."""
    if not isinstance(value, Tracer):
        return None
    ranges = _LOOP_RANGES.get()
    if not ranges:
        return None
    builder = current_builder()
    made = {v: e for e in builder.eqns for v in e.outputs} if builder else {}
    form = affine(value.atom, made)
    if form is None or form[0] not in ranges or not len(ranges[form[0]]):
        return None
    values = ranges[form[0]]
    ends = [values[0] * form[1] + form[2], values[-1] * form[1] + form[2]]
    return min(ends), max(ends)


def _difference(stop, start):
    """``stop - start`` when it is the same whatever the traced values, else None."""
    if not isinstance(stop, Tracer) and not isinstance(start, Tracer):
        return stop - start
    builder = current_builder()
    made = {v: e for e in builder.eqns for v in e.outputs} if builder else {}
    a, b = (affine(t.atom, made) if isinstance(t, Tracer) else (None, 0, t) for t in (stop, start))
    if a is None or b is None or a[1] != b[1] or \
            not (same_root(a[0], b[0]) or same_value(a[0], b[0], made)):
        return None
    return a[2] - b[2]


__all__ = ["has_traced_bounds", "getitem", "window", "open_region", "expand_key",
           "loop_counter"]
