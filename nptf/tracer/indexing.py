"""Advanced indexing (integer arrays, boolean masks), the dispatch of ``x[key]``
(``getitem``) and writes into arrays.

Reads follow NumPy's rules exactly: index arrays broadcast together, negative
indices count from the end, out-of-bounds indices raise ``IndexError``, and
advanced indices separated by a slice move their dimensions to the front.
Writes (``a[idx] = v`` and friends) become one ``scatter`` on the written
array's buffer (see ``views``); where each element lands is computed by
indexing an array of flat positions with the very same key.
"""
from __future__ import annotations

import operator

import numpy as np

from ..errors import unsupported, user_location, with_location
from ..graph_ir.affine import same_value
from ..graph_ir.ir import Literal
from ..graph_ir.types import ArrayType, broadcast_shapes
from . import dynamic_slices
from . import numpy_api as api
from .builder import current_builder
from .dynamic_slices import expand_key, has_traced_bounds, open_region, window
from .numpy_api import basic_getitem, checked_index, is_basic_key
from .python_lists import ComputedList
from .side_effects import augmented_read
from .tracer import Tracer, dim_of, emit, to_tracer
from .views import (Step, buffer_of, check_writeable, make_view, parent_of, set_buffer,
                    traced_index_view)

_INTP = np.dtype(np.intp)
_BAD_INDEX = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer "
              "or boolean arrays are valid indices")


def _literal(arr):
    if isinstance(arr, Tracer):     # positions through a slice of a traced start
        return arr
    arr = np.asarray(arr)
    return Tracer(Literal(arr, ArrayType(arr.shape, arr.dtype)))


def _as_index(k):
    """A key entry as None/Ellipsis/slice/int, a NumPy index array, or an integer/bool Tracer."""
    k = constant_value(k)
    if k is None or k is Ellipsis or isinstance(k, slice):
        return k
    if isinstance(k, (bool, np.bool_)):
        return np.asarray(k)
    if isinstance(k, (int, np.integer)):
        return operator.index(k)
    if isinstance(k, Tracer) or (isinstance(k, (list, tuple)) and api.contains_tracer(k)):
        t = to_tracer(k)
        if t.dtype.kind not in "biu":
            raise IndexError(f"{_BAD_INDEX}\n  at {user_location()}")
        return t
    arr = np.asarray(k)
    if arr.dtype.kind not in "biu" and not (arr.size == 0 and arr.dtype.kind == "f"):
        raise IndexError(f"{_BAD_INDEX}\n  at {user_location()}")
    return arr.astype(_INTP) if arr.dtype.kind != "b" else arr


def constant_value(k):
    """A tracer that holds a constant (``np.array([...])`` in the function) as that NumPy array."""
    if isinstance(k, Tracer) and isinstance(k.atom, Literal):
        value = np.asarray(k.atom.value)
        return value if value.ndim else value[()]
    return k


def _expand(x, key):
    """Expand ``...``, insert ``None`` axes (as slices of new size-1 axes) and split boolean
    arrays into the integer arrays of their ``nonzero``."""
    key = [_as_index(k) for k in key]
    if sum(k is Ellipsis for k in key) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(1 if not _is_array(k) or k.dtype.kind != "b" else max(k.ndim, 1)
                   for k in key if k is not None and k is not Ellipsis)
    if consumed > x.ndim:
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, but "
                         f"{consumed} were indexed\n  at {user_location()}")
    ellipsis = [i for i, k in enumerate(key) if k is Ellipsis]
    if ellipsis:
        i = ellipsis[0]
        key = key[:i] + [slice(None)] * (x.ndim - consumed) + key[i + 1:]
    else:
        key = key + [slice(None)] * (x.ndim - consumed)
    if any(k is None for k in key):
        shape, it = [], iter(x.shape)
        for k in key:
            if k is None:
                shape.append(1)
            elif _is_array(k) and k.dtype.kind == "b":
                shape.extend(next(it) for _ in range(k.ndim))
            else:
                shape.append(next(it))
        x = api.reshape_to(x, tuple(shape))
        key = [slice(None) if k is None else k for k in key]
    out, axis = [], 0
    for k in key:
        if _is_array(k) and k.dtype.kind == "b":
            dims = x.shape[axis:axis + k.ndim]
            if k.ndim == 0:
                raise unsupported("a boolean scalar used as an index")
            if None in k.shape or None in dims:
                # Its coordinates alone cannot tell a mask shorter than the axis: NumPy's
                # IndexError where the run's sizes differ.
                k = _mask_checked(k, x, axis)
            for i, (a, b) in enumerate(zip(dims, k.shape)):
                if a is not None and b is not None and a != b and 0 not in k.shape:
                    raise IndexError(f"boolean index did not match indexed array along axis "
                                     f"{axis + i}; size of axis is {a} but size of corresponding "
                                     f"boolean axis is {b}\n  at {user_location()}")
            if isinstance(k, Tracer):
                coords = emit("nonzero", [k])
                columns = [getitem(coords, (slice(None), j)) for j in range(k.ndim)]
                if all(a == b for a, b in zip(dims, k.shape)):
                    # A mask's coordinates along axes of its own sizes: no bounds to check.
                    current_builder().in_bounds.update(c.atom for c in columns)
                out.extend(columns)
            else:
                out.extend(np.nonzero(k))
            axis += k.ndim
        else:
            out.append(k)
            axis += 1
    return x, out


def _mask_checked(k, x, axis):
    """The boolean index ``k`` of ``x``'s axes from ``axis``, checked when the graph runs to
    have their sizes where one of them is known only then (``pairs[both, 0]`` of a list of
    pairs the data grew)."""
    if not isinstance(k, Tracer):
        k = to_tracer(k)
    ok = None
    for i in range(k.ndim):
        a, b = x.shape[axis + i], k.shape[i]
        if a is not None and b is not None:
            continue
        same = dim_of(k, i) == dim_of(x, axis + i)
        ok = same if ok is None else np.logical_and(ok, same)
    if ok is None:
        return k
    return emit("check", [k, ok], {
        "error": "IndexError",
        "message": f"boolean index did not match indexed array along axis {axis} (sizes known "
                   f"only at run time)\n  at {user_location()}"})


def _is_array(k):
    return isinstance(k, (np.ndarray, Tracer))


def _scalar_index(k):
    """A traced integer that NumPy takes as an int index (a Python int or a NumPy integer
    scalar; a 0-d integer array is an advanced index, a copy)."""
    return isinstance(k, Tracer) and k.ndim == 0 and k.dtype.kind in "iu" and \
        (k.is_scalar or k.type.weak)


def getitem(x, key):
    """``x[key]``: basic indexing gives a view of ``x``, advanced indexing a copy."""
    x = to_tracer(x)
    augmented = augmented_read(x)
    key = tuple(api.index_array(k) for k in (key if isinstance(key, tuple) else (key,)))
    if any(isinstance(k, slice) for k in key):
        if dynamic_slices.has_traced_bounds(key):
            out = dynamic_slices.getitem(x, key)
            if out is not None:
                return out
    if not is_basic_key(key):
        out = advanced_getitem(x, key)
        if out.is_scalar and any(k is Ellipsis for k in key):
            # NumPy gives a 0-d array, not a scalar, for any index with an Ellipsis.
            out = Tracer(out.atom)
        elif not out.is_scalar and not augmented and any(_scalar_index(k) for k in key) \
                and all(_scalar_index(k) or is_basic_key((k,)) for k in key):
            # ``row = M[i]`` with ``i`` a traced int is a view of M in NumPy: it reads M
            # again after writes into M, and a write through it (``M[i][j] += 1``) is
            # written back into ``M[i]``. In ``M[i] -= v`` the value read is assigned
            # back: a copy does.
            out = traced_index_view(x, out, key, lambda t: advanced_getitem(t, key))
        return out
    out = basic_getitem(x, key)
    if out.is_scalar:
        return out
    return make_view(x, out, Step("getitem", lambda t: basic_getitem(t, key), lambda a: a[key], key),
                     lambda s: s[key])


def advanced_getitem(x, key):
    key = [_as_index(k) for k in key]
    if len(key) == 1 and isinstance(key[0], Tracer) and key[0].dtype == np.bool_ and \
            key[0].shape == x.shape and None not in x.shape and x.ndim:
        # ``x[mask]`` with a mask of x's shape: remembered, so that a write of values
        # computed elementwise from such selections needs no selection at all
        # (``_masked_elementwise_write``).
        source = x.atom
        out = _advanced_getitem(x, key)
        current_builder().masked_reads[out.atom] = (source, key[0].atom)
        return out
    return _advanced_getitem(x, key)


def _advanced_getitem(x, key):
    if len(key) == 1 and _is_array(key[0]) and key[0].dtype.kind == "b" and key[0].ndim == 0:
        # A 0-d boolean (``t[t > 0]`` of a 0-d ``t``) indexes no axis: it adds one, of
        # length 1 where it is true and 0 where false.
        return _advanced_getitem(api.basic_getitem(x, (None,)), [np.reshape(key[0], (1,))])
    masked = _single_mask_getitem(x, key)
    if masked is not None:
        return masked
    x, key = _expand(x, tuple(key))
    arrays = [i for i, k in enumerate(key) if _is_array(k) or isinstance(k, int)]
    # Slices apply first, on their own axes.
    sliced = api.basic_getitem(x, tuple(k if isinstance(k, slice) else slice(None) for k in key))
    shapes = [np.shape(key[i]) if not isinstance(key[i], Tracer) else key[i].shape for i in arrays]
    try:
        bshape = broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together with "
                         "shapes " + " ".join(str(s).replace(" ", "") for s in shapes) +
                         f"\n  at {user_location()}") from None
    idx = _broadcast_indices([checked_index(key[i], dim_of(sliced, i), i) for i in arrays],
                             bshape)
    rest = [i for i in range(len(key)) if i not in arrays]
    front = api.transpose(sliced, arrays + rest) if arrays != list(range(len(arrays))) else sliced
    stacked = api.stack(idx, axis=-1) if idx else None
    if front.size == 0:
        # Nothing to gather (TensorFlow's GatherNd rejects empty operands): the empty result.
        rest = tuple(front.shape[len(idx):])   # static: front is empty
        if None not in stacked.shape[:-1]:
            out = api.full(tuple(stacked.shape[:-1]) + rest, 0, front.dtype)
        else:
            out = api.full_like(stacked[..., 0], 0, front.dtype)
            if rest:
                out = api.reshape_to(out, out.shape + (1,) * len(rest))
                out = emit("tile", [out], {"reps": (1,) * (out.ndim - len(rest)) + rest})
    else:
        out = emit("gather_nd", [front, stacked])
    contiguous = arrays == list(range(arrays[0], arrays[0] + len(arrays)))
    if contiguous and arrays[0] > 0:
        nb = len(bshape)
        order = list(range(nb, nb + arrays[0])) + list(range(nb)) + \
            list(range(nb + arrays[0], out.ndim))
        out = api.transpose(out, order)
    return Tracer(out.atom, is_scalar=out.ndim == 0)


# ------------------------------------------------- sizes known at run time
# Ops whose result has the shape of their first operand.
def _size_origins(atom, axis, producers):
    """The (var, axis) pairs whose ops gave ``atom``'s dimension ``axis`` its size, traced back
    through elementwise ops (which take their operands' sizes) and those whose result has
    their first operand's shape (``Op.shape_of_first``)."""
    origins, seen, todo = set(), set(), [(atom, axis)]
    while todo:
        a, i = todo.pop()
        if (a, i) in seen:
            continue
        seen.add((a, i))
        eqn = producers.get(a)
        keeping = eqn is not None and eqn.op.shape_of_first and \
            eqn.inputs[0].type.ndim == a.type.ndim
        if eqn is None or not (eqn.op.kind == "elementwise" or keeping):
            origins.add((a, i))
            continue
        for b in eqn.inputs[:1] if keeping else eqn.inputs:
            j = i - (a.type.ndim - b.type.ndim)
            if j >= 0 and b.type.shape[j] != 1:   # operands of size 1 there only broadcast
                todo.append((b, j))
    return origins


def same_size(a, i, b, j):
    """Whether dimension ``i`` of ``a`` and dimension ``j`` of ``b`` surely have the same size:
    equal static sizes, or one run-time size both were computed elementwise from."""
    if a.shape[i] is not None or b.shape[j] is not None:
        return a.shape[i] == b.shape[j]
    builder = current_builder()
    producers = {v: e for e in builder.eqns for v in e.outputs} if builder else {}
    origins = _size_origins(a.atom, i, producers)
    return len(origins) == 1 and origins == _size_origins(b.atom, j, producers)


def dim_size(x, axis):
    """The size of ``x``'s dimension ``axis``: an int, or a traced intp scalar when it is only
    known at run time."""
    if x.shape[axis] is not None:
        return x.shape[axis]
    return np.sum(_ones_along(x, axis))


def positions_along(x, axis):
    """``np.arange`` of the size of ``x``'s dimension ``axis`` (which may be a run-time size)."""
    if x.shape[axis] is not None:
        return api.arange(x.shape[axis], dtype=_INTP)
    return np.cumsum(_ones_along(x, axis)) - 1


def _ones_along(x, axis):
    others = tuple(i for i in range(x.ndim) if i != axis)
    along = np.any(api.full_like(x, False, np.bool_), axis=others) if others else x
    return api.full_like(along, 1, _INTP)


def _matched_mask(x, axis, mask):
    """``mask`` (a boolean Tracer) for ``x``'s dimensions from ``axis`` on, where some size is
    known only at run time. Sizes that are surely equal need nothing. Otherwise NumPy's
    IndexError is raised after the run; until then the mask is cut or padded to the axis's
    size, so that the ``boolean_mask`` kernel never reads out of bounds."""
    if all(same_size(x, axis + i, mask, i) for i in range(mask.ndim)):
        return mask
    if mask.ndim != 1:
        raise unsupported("a multi-dimensional boolean mask whose sizes may differ from the "
                          "array's at run time")
    size = dim_size(mask, 0)
    padded = api.concatenate([mask, np.zeros(1, np.bool_)])
    safe = emit("take", [padded, np.minimum(positions_along(x, axis), size)], {"axis": 0})
    sizes = [("known only at run time" if d is None else d) for d in (x.shape[axis], mask.shape[0])]
    # NumPy takes a mask of size 0 as selecting nothing, whatever the axis's size.
    ok = (dim_size(x, axis) == size) | (size == 0)
    return emit("check", [safe, ok], {
        "error": "IndexError",
        "message": f"boolean index did not match indexed array along axis {axis}; size of axis "
                   f"is {sizes[0]} but size of corresponding boolean axis is {sizes[1]}\n"
                   f"  at {user_location()}"})


def _single_mask_getitem(x, key):
    """``x[mask]`` (or with slices around the mask) where a masked size is known only at run
    time: the ``boolean_mask`` op. None when the key (entries from ``_as_index``) is not of
    that kind."""
    arrays = [i for i, k in enumerate(key) if _is_array(k) or isinstance(k, int)]
    n_ellipsis = sum(k is Ellipsis for k in key)
    if len(arrays) != 1 or n_ellipsis > 1 or any(k is None for k in key):
        return None
    pos = arrays[0]
    mask = key[pos]
    if not _is_array(mask) or mask.dtype.kind != "b" or mask.ndim == 0:
        return None
    consumed = len(key) - n_ellipsis - 1 + mask.ndim
    if consumed > x.ndim:
        return None   # _expand raises NumPy's error
    axis = sum(x.ndim - consumed if k is Ellipsis else 1 for k in key[:pos])
    dims = x.shape[axis:axis + mask.ndim]
    if None not in dims and None not in mask.shape:
        return None
    for i, (a, b) in enumerate(zip(dims, mask.shape)):
        if a is not None and b is not None and a != b and 0 not in mask.shape:
            raise IndexError(f"boolean index did not match indexed array along axis {axis + i}; "
                             f"size of axis is {a} but size of corresponding boolean axis is {b}"
                             f"\n  at {user_location()}")
    mask = _matched_mask(x, axis, mask if isinstance(mask, Tracer) else _literal(mask))
    sliced = api.basic_getitem(x, tuple(key[:pos]) + (slice(None),) * mask.ndim +
                               tuple(key[pos + 1:]))
    masked_axes = tuple(range(axis, axis + mask.ndim))
    out = emit("boolean_mask", [api.moveaxis(sliced, masked_axes, tuple(range(mask.ndim))), mask])
    return api.moveaxis(out, 0, axis)


def _broadcast_indices(idx, bshape):
    if None not in bshape:
        return [api.broadcast_to(i, bshape) for i in idx]
    # Sizes known only at run time (from boolean masks): broadcast by arithmetic.
    like = next((i for i in idx if i.shape == bshape), None)
    if like is None:
        # No index of the result's shape (np.ix_ of masks: (n, 1) and (1, m)): the zeros
        # of all of them added take it.
        like = idx[0] * 0
        for i in idx[1:]:
            like = like + i * 0
    zero = like * 0
    return [i if i.shape == bshape else i + zero for i in idx]


# --------------------------------------------------------------------- writes
def traced_target(target, what):
    """``target`` of a write (``what``), refused where it is a NumPy array the trace did
    not make (a global, or one a library made with its own ``zeros``): its memory is
    NumPy's, which the graph's write cannot reach."""
    if isinstance(target, np.ndarray):
        raise unsupported(f"{what} into a NumPy array that is not traced (a global array, "
                          f"or one a library function made)",
                          fix="Copy the array inside the function first (a = a.copy()), or "
                              "let the function run with NumPy (fallback='numpy', the "
                              "default).")
    return target


def write(target, key, value, mode="update", what="assignment"):
    """``target[key] = value`` (or ``np.<mode>.at``) as a pure update of target's buffer."""
    target = to_tracer(traced_target(target, what))
    if key is not None:
        # A list the graph holds as an array (``idx.append(i)`` under a traced ``if``) as
        # the index array NumPy makes of it, as ``getitem`` takes it.
        key = tuple(api.index_array(k) for k in key) if isinstance(key, tuple) else \
            api.index_array(key)
    if isinstance(value, ComputedList):
        # Its values cast to the target's dtype, as NumPy casts the array it makes of
        # them (float64 where the list is empty, which no cast then reads).
        value = value.array_value(target.dtype)
    view = buffer_of(target)
    if view.parent is not None:
        return _write_through(target, view, key, value, mode, what)
    if view.stand_ins is None:
        return _write_dynamic(target, view, key, value, mode)
    check_writeable(target, what)
    if mode == "update" and _rewrites_itself(view, key, value):
        return target
    masked = _masked_scalar_write(target, key, value, mode)
    if masked is None:
        masked = _masked_elementwise_write(target, key, value, mode)
    if masked is not None:
        key, value = None, masked   # a whole-array select, no scatter needed
    if mode == "update" and key is not None and view.steps == () and _slice_write(target, view, key, value):
        return target
    if mode == "update" and (_window_write(view, key, value) or
                             _open_window_write(view, key, value)):
        return target
    positions = view.positions()
    if key is not None:
        key = tuple(constant_value(k) for k in (key if isinstance(key, tuple) else (key,)))
        if api.contains_tracer(list(key)) or has_traced_bounds(key):
            computed = _positions_of_key(view.buffer.shape, key) if view.steps == () else None
            positions = getitem(_literal(positions), key) if computed is None else computed
        else:
            try:
                positions = positions[tuple(_static_key(k) for k in key)]
            except (IndexError, ValueError, TypeError) as e:
                raise with_location(e, user_location()) from None
    if mode == "update" and isinstance(positions, np.ndarray) and \
            _region_write(view.buffer, positions, value, target.dtype):
        return target
    unique = key is None or _distinct_positions(key) or positions.size == 1
    values = _values_for(value, positions, target.dtype, mode)
    _scatter_into(view.buffer, positions, values, mode, unique)
    return target


def _write_through(target, view, key, value, mode, what):
    """A write into a view whose size is known only at run time: the view's new value is
    computed as an array of its own, then stored into the view's region of its parent."""
    check_writeable(target, what)
    step = view.steps[-1]
    if step.put_back is not None:
        region = Tracer(target.atom, target.is_scalar)
        write(region, key, value, mode, what)
        parent = parent_of(view)
        write(parent, Ellipsis, step.put_back(parent, region), "update", what)
        return target
    if step.key is None:
        raise unsupported(f"{what} through a view ({step.name}) of an array whose size is "
                          f"known only at run time",
                          fix="Write into the original array with an index instead, or make "
                              "the sizes static.")
    region = Tracer(target.atom, target.is_scalar)
    write(region, key, value, mode, what)
    write(parent_of(view), step.key, region, "update", what)
    return target


def _rewrites_itself(view, key, value):
    """``x[k] = x[k]`` with the right side a view of the same memory, as in the last step of
    ``x[k] += v`` (Python's ``t = x[k]; t += v; x[k] = t``, where ``t += v`` already wrote
    through the view): the memory already holds those values, whatever was written since."""
    other = value._view if isinstance(value, Tracer) else None
    if other is None or other.buffer is not view.buffer or \
            len(other.steps) != len(view.steps) + 1 or \
            any(a is not b for a, b in zip(other.steps, view.steps)):
        return False
    last = other.steps[-1].key
    key = key if isinstance(key, tuple) else (key,)
    return last is not None and len(last) == len(key) and all(map(_same_entry, last, key))


def _same_entry(a, b):
    if a is b:
        return True
    if isinstance(a, slice) and isinstance(b, slice):
        return all(map(_same_entry, (a.start, a.stop, a.step), (b.start, b.stop, b.step)))
    plain = (int, np.integer)
    return isinstance(a, plain) and isinstance(b, plain) and not isinstance(a, (bool, np.bool_)) \
        and not isinstance(b, (bool, np.bool_)) and a == b


def _slice_write(target, view, key, value):
    """``x[1:-1, 2] = v`` on an array's own memory: one strided-slice update, no scatter."""
    key = key if isinstance(key, tuple) else (key,)
    if not api.is_basic_key(key) or any(k is None for k in key) or has_traced_bounds(key):
        return False
    n_real = sum(1 for k in key if k is not Ellipsis)
    if n_real > target.ndim:
        return False
    if any(k is Ellipsis for k in key):
        i = next(j for j, k in enumerate(key) if k is Ellipsis)
        key = key[:i] + (slice(None),) * (target.ndim - n_real) + key[i + 1:]
    key = key + (slice(None),) * (target.ndim - len(key))
    slices, region, selected = [], [], []
    for axis, (k, dim) in enumerate(zip(key, target.shape)):
        if isinstance(k, slice):
            s = api.normalize_slice(k, dim)
            full = s == (0, dim, 1)
            slices.append(None if full else s)
            n = dim if full else len(range(s[0], -1 if s[1] is None else s[1], s[2]))
            region.append(n)
            selected.append(n)
        else:
            i = operator.index(k)
            if not -dim <= i < dim:
                raise IndexError(f"index {i} is out of bounds for axis {axis} with size {dim}\n"
                                 f"  at {user_location()}")
            i %= dim
            slices.append((i, i + 1, 1))
            region.append(1)
    values = _values_for(value, np.empty(tuple(selected), dtype=np.int8), target.dtype, "update")
    values = api.reshape_to(values, tuple(region))
    if 0 in region:
        return True   # an empty region: nothing to write
    new = emit("slice_update", [Tracer(view.buffer.atom), values], {"slices": tuple(slices)})
    set_buffer(view.buffer, new.atom)
    return True


def strided_region(positions, shape):
    """How the flat positions ``positions`` (C order) sit in an array of ``shape``, where
    they are one strided box of it, each of their axes running along one of its axes
    (forward or backward, in any order; their axes of length 1 along none): (the box's
    ``(start, stop, step)`` per axis of ``shape``, and per axis of ``positions`` the axis
    of ``shape`` it runs along and its direction, None for those of length 1); else None."""
    positions = np.asarray(positions)
    if positions.size < 2 or not shape or None in shape:
        return None
    strides = [int(np.prod(shape[a + 1:], dtype=np.int64)) for a in range(len(shape))]
    first = int(positions.flat[0])
    base = [int(i) for i in np.unravel_index(first, shape)]
    box = [(b, b + 1, 1) for b in base]
    along = []
    for k, n in enumerate(positions.shape):
        if n == 1:
            along.append(None)
            continue
        delta = int(positions[(0,) * k + (1,) + (0,) * (positions.ndim - k - 1)]) - first
        # The axis whose stride times the step is delta: the one of largest stride not
        # past |delta| (a step stays below its axis' length).
        axis = max((a for a in range(len(shape)) if shape[a] > 1 and strides[a] <= abs(delta)),
                   key=lambda a: strides[a], default=None)
        if axis is None or delta % strides[axis] or box[axis] != (base[axis], base[axis] + 1, 1):
            return None
        step = abs(delta) // strides[axis]
        lo = base[axis] if delta > 0 else base[axis] - step * (n - 1)
        if lo < 0 or lo + step * (n - 1) >= shape[axis]:
            return None
        box[axis] = (lo, lo + step * (n - 1) + 1, step)
        along.append((axis, 1 if delta > 0 else -1))
    # The box's positions, laid out as ``positions`` would be: the check that it is one.
    grid = np.arange(int(np.prod(shape, dtype=np.int64))).reshape(shape)[
        tuple(slice(*b) for b in box)]
    grid = _box_to_view(grid, along, positions.shape, np)
    return (tuple(box), tuple(along)) if np.array_equal(grid, positions) else None


def _box_to_view(box, along, view_shape, xp):
    """Values laid out as a box of the buffer, laid out as the view (``strided_region``);
    ``xp``: numpy, or the tracer's API."""
    mapped = [a for a in along if a is not None]
    order = sorted(range(len(mapped)), key=lambda i: mapped[i][0])
    kept = [axis for axis, _ in mapped]
    box = xp.reshape(box, tuple(box.shape[a] for a in sorted(kept)))
    # Axes of the box in buffer order -> in the order the view runs along them.
    box = xp.transpose(box, tuple(order.index(i) for i in range(len(mapped))))
    for i, (_, step) in enumerate(mapped):
        if step < 0:
            box = xp.flip(box, i)
    return xp.reshape(box, view_shape)


def _view_to_box(values, along, region):
    """The inverse of ``_box_to_view``, on a tracer of the view's shape."""
    mapped = [a for a in along if a is not None]
    values = api.reshape_to(values, tuple(region[axis] for axis, _ in mapped))
    for i, (_, step) in enumerate(mapped):
        if step < 0:
            values = api.flip(values, i)
    order = sorted(range(len(mapped)), key=lambda i: mapped[i][0])
    if order != list(range(len(mapped))):
        values = api.transpose(values, tuple(order))
    return api.reshape_to(values, tuple(region))


def _region_write(buffer, positions, value, dtype):
    """A write to positions that form one box of the buffer (``strided_region``: a view
    of slices, integers and transposes, ``y[1:-1] += v`` or ``np.add(a, b, out=y[:-1])``)
    as one slice update, not a scatter from a table of its positions."""
    found = strided_region(positions, buffer.shape)
    if found is None:
        return False
    box, along = found
    values = _values_for(value, np.empty(positions.shape, np.int8), dtype, "update")
    values = api.broadcast_to(values, positions.shape)
    region = tuple(len(range(*b)) for b in box)
    values = _view_to_box(values, along, region)
    slices = tuple(None if b == (0, d, 1) else b for b, d in zip(box, buffer.shape))
    new = emit("slice_update", [Tracer(buffer.atom), values], {"slices": slices})
    set_buffer(buffer, new.atom)
    return True


def _window_write(view, key, value):
    """``x[i:i + 4] = v``, or a write to all of the view ``x[i:i + 4]`` (``+=`` on it): one
    region at a traced start, which XLA updates in place where a scatter of its positions
    costs a loop of its own."""
    if key is None and len(view.steps) == 1 and view.steps[0].key is not None:
        key = view.steps[0].key                 # the view's own slice of its buffer
    elif key is None or view.steps != ():
        return False
    key = key if isinstance(key, tuple) else (key,)
    if not has_traced_bounds(key):
        return False
    found = window(view.buffer.shape, key)
    if found is None:
        return False
    begin, region = found
    values = _values_for(value, np.empty(_selected_shape(view.buffer.shape, key, region), np.int8),
                         view.buffer.atom.type.dtype, "update")
    values = api.reshape_to(values, region)
    if 0 in region:
        return True
    new = emit("dynamic_update_slice", [Tracer(view.buffer.atom), values, begin])
    set_buffer(view.buffer, new.atom)
    return True


def _open_window_write(view, key, value):
    """``x[i, :j] = v``, or ``+=`` on the view ``x[i, :j]``, where the slice's length follows
    traced bounds and ``v`` is as long as the slice only at run time: one update of a
    region of run-time size, which loop bodies then write at its longest and masked
    (``pad_bounded_slices``) instead of scattering from a table of its positions. Where
    ``v``'s length differs at run time (NumPy would broadcast a length of 1), the call
    leaves the graph."""
    if key is None and len(view.steps) == 1 and view.steps[0].key is not None:
        key = view.steps[0].key                 # the view's own slice of its buffer
    elif key is None or view.steps != ():
        return False
    key = key if isinstance(key, tuple) else (key,)
    if not has_traced_bounds(key) or not all(
            api.is_basic_key((k,)) or (isinstance(k, Tracer) and k.ndim == 0 and
                                       k.dtype.kind in "iu") for k in key):
        return False
    plan = open_region(view.buffer.shape, key)
    if plan is None:
        return False
    begin, sizes, fixed, rest = plan
    if fixed.count(None) != 1 or not all(
            (isinstance(r, slice) and r == slice(None)) or
            (not isinstance(r, slice) and r is not None and r == 0 and f == 1)
            for r, f in zip(rest, fixed)):
        return False
    selected = [f for r, f in zip(rest, fixed) if isinstance(r, slice)]
    v = to_tracer(value)
    dtype = view.buffer.atom.type.dtype
    axis = fixed.index(None)
    length = api.reshape_to(getitem(sizes, slice(axis, axis + 1)), ())
    if v.ndim <= len(selected) and None not in v.shape and all(
            a == 1 or a == b for a, b in zip(v.shape[::-1], selected[::-1])):
        # A value that broadcasts (x[:i] = 0.0): to the region's run-time size, read off
        # the region itself (a read loop bodies then take at its longest, as the write).
        region = emit("dynamic_slice", [Tracer(view.buffer.atom), begin, sizes],
                      {"sizes": fixed})
        v = api.broadcast_like(api.astype(v, dtype), api.basic_getitem(region, rest))
    elif v.ndim != len(selected) or any((a is None) != (b is None) or
                                        (b is not None and a != b)
                                        for a, b in zip(v.shape, selected)):
        return False
    if v.dtype != dtype:
        v = api.astype(v, dtype)
    shown = tuple("?" if d is None else d for d in selected)
    count = dim_of(v, selected.index(None))
    v = emit("check", [v, (count == length) | (count == 1)], {
        "error": "ValueError",
        "message": f"could not broadcast input array from shape {shown} into shape {shown} "
                   f"(? known only at run time, and different)\n  at {user_location()}"})
    v = emit("check", [v, count == length], {
        "error": "OutsideTheGraph",
        "message": f"a value whose run-time length is 1 stored into a slice of another "
                   f"run-time length: NumPy broadcasts it, the compiled graph does not\n  at "
                   f"{user_location()}"})
    v = api.reshape_to(v, tuple(fixed))
    new = emit("dynamic_update_slice", [Tracer(view.buffer.atom), v, begin])
    set_buffer(view.buffer, new.atom)
    return True


def _selected_shape(shape, key, region):
    """The shape ``x[key]`` has (integer entries drop their axis) for the region's sizes."""
    return tuple(n for k, n in zip(expand_key(key, len(shape)), region) if isinstance(k, slice))


def _masked_scalar_write(target, key, value, mode):
    """``x[mask] = scalar`` with a mask of x's shape is ``np.where(mask, scalar, x)``."""
    if mode != "update" or key is None:
        return None
    k = key[0] if isinstance(key, tuple) and len(key) == 1 else key
    if isinstance(key, tuple) and len(key) != 1:
        return None
    k = constant_value(k)
    if not isinstance(k, (Tracer, np.ndarray)) or k.dtype != np.bool_ or k.shape != target.shape:
        return None
    v = to_tracer(value)
    if v.ndim != 0:
        return None
    return api.elementwise_where(k, api.astype(v, target.dtype), target)


def _masked_elementwise_write(target, key, value, mode):
    """``x[mask] = f(y[mask], z[mask], 2.0)``, with one mask of x's shape and ``f``
    elementwise, is ``np.where(mask, f(y, z, 2.0), x)``: no selection of a size known only
    at run time, no scatter, and XLA compiles it. ``f`` then also runs on the elements the
    mask leaves out, whose results are dropped: only ops that cannot fail on any value
    qualify. None where the write is not of that kind."""
    if mode != "update" or (isinstance(key, tuple) and len(key) != 1):
        return None
    k = key[0] if isinstance(key, tuple) else key
    if not isinstance(k, Tracer) or k.dtype != np.bool_ or k.shape != target.shape or \
            None in k.shape or not isinstance(value, Tracer) or value.ndim != 1:
        return None
    full = _unmasked(value.atom, k.atom, current_builder(), {})
    if full is None or full.type.shape != target.shape:
        return None
    return api.elementwise_where(k, api.astype(Tracer(full), target.dtype), target)


def _unmasked(atom, mask, builder, done):
    """The value ``atom`` (computed elementwise from selections ``y[mask]``) has before the
    selection: the same ops on ``y`` itself; None where ``atom`` is not computed so."""
    if atom in done:
        return done[atom]
    if atom.type.ndim == 0:
        return atom
    done[atom] = None
    read = builder.fact("masked_reads", atom)
    eqn = builder.producer(atom)
    if read is not None:
        source, read_mask = read
        done[atom] = source if same_value(read_mask, mask, builder.made) else None
    elif eqn is not None and eqn.op.name == "broadcast_to" and eqn.inputs[0].type.ndim == 0 \
            and None in eqn.params["shape"]:
        # A number spread to the selection's length (a broadcast to a known length
        # stays: NumPy raises where the selection's length differs).
        done[atom] = eqn.inputs[0]
    elif eqn is not None and eqn.op.kind == "elementwise" and not (
            eqn.op.may_raise_on_ints and any(a.type.dtype.kind in "iub" for a in eqn.inputs)):
        inputs = [_unmasked(a, mask, builder, done) for a in eqn.inputs]
        if None not in inputs:
            out = builder.emit(eqn.op.name, inputs, eqn.params, eqn.source_info)
            out = out[eqn.outputs.index(atom)]
            done[atom] = out if out.type.dtype == atom.type.dtype else None
    return done[atom]


def _static_key(k):
    if isinstance(k, (list, tuple)):
        return np.asarray(k)
    if isinstance(k, float) or (isinstance(k, np.ndarray) and k.dtype.kind == "f"):
        raise IndexError(_BAD_INDEX)
    return k


def masked_value_dims(target, key, value):
    """NumPy's own rule for ``x[mask] = v`` with one boolean mask of x's shape: ``v`` has at
    most one dimension, where other keys let a ``(1, 1)`` value broadcast."""
    k = key[0] if isinstance(key, tuple) and len(key) == 1 else key
    if isinstance(key, tuple) and len(key) != 1:
        return
    if isinstance(k, list):
        k = to_tracer(k) if api.contains_tracer(k) else np.asarray(k)
    k = constant_value(k)
    if not isinstance(k, (Tracer, np.ndarray)) or k.dtype != np.bool_ or \
            k.ndim != target.ndim or \
            not all(same_size(target, i, to_tracer(k), i) for i in range(k.ndim)):
        return
    ndim = to_tracer(value).ndim if api.contains_tracer(value) else np.ndim(value)
    if ndim > 1:
        raise TypeError("NumPy boolean array indexing assignment requires a 0 or 1-dimensional "
                        f"input, input has {ndim} dimensions\n  at {user_location()}")


def _values_for(value, positions, dtype, mode):
    v = to_tracer(value)
    shape = positions.shape
    while v.ndim > len(shape) and v.shape[0] == 1:
        v = api.reshape_to(v, v.shape[1:])
    if v.ndim > len(shape) and v.shape[0] is None and None not in v.shape[1:]:
        # A leading size known only at run time (a selection stored into one place):
        # NumPy drops it when it is 1 and raises ValueError otherwise.
        shown = tuple("?" if d is None else d for d in v.shape)
        count = dim_size(v, 0)
        padded = api.concatenate([v, api.zeros((1,) + v.shape[1:], v.dtype)], axis=0)
        v = emit("take", [padded, np.zeros(1, _INTP)], {"axis": 0})
        v = emit("check", [v, count == 1], {
            "error": "ValueError",
            "message": f"could not broadcast input array from shape {shown} into shape "
                       f"{tuple(shape)} (? known only at run time)\n  at {user_location()}"})
        return _values_for(api.reshape_to(v, v.shape[1:]), positions, dtype, mode)
    if None in shape and len(v.shape) == len(shape) and all(
            a == b or b is None for a, b in zip(v.shape, shape)):
        v = _run_time_sizes(v, positions)
        return api.astype(v, dtype) if mode == "update" else v   # sizes agree only at run time
    if None in v.shape and None not in shape:
        v = _fit_value_sizes(v, tuple(shape))
    try:
        if broadcast_shapes(v.shape, shape) != tuple(shape):
            raise ValueError
    except ValueError:
        raise ValueError(f"could not broadcast input array from shape {v.shape} into shape "
                         f"{tuple(shape)}\n  at {user_location()}") from None
    if mode == "update":
        v = api.astype(v, dtype)
    if v.shape == tuple(shape):
        return v
    if None in shape:
        return api.broadcast_like(v, positions)
    return api.broadcast_to(v, tuple(shape))


def _fit_value_sizes(v, shape):
    """``v``, whose sizes known only at run time meet known sizes of the positions it is
    written to (a selection stored into fixed places): ``api.fit_run_time_sizes``."""
    shown = tuple("?" if d is None else d for d in v.shape)
    return api.fit_run_time_sizes(v, shape, (
        f"could not broadcast input array from shape {shown} into shape {shape} "
        f"(? known only at run time)\n  at {user_location()}"))


def _run_time_sizes(v, positions):
    """``v`` (of ``positions``' rank) for positions whose sizes are known only at run time
    (a mask's selection). A size 1 broadcasts. Another known size gets NumPy's ValueError
    after the run where it differs, and until then is cut or padded to the run-time size,
    so that the scatter kernel gets matching sizes."""
    shown = tuple("?" if d is None else d for d in positions.shape)
    shown_v = tuple("?" if d is None else d for d in v.shape)
    message = (f"shape mismatch: value array of shape {shown_v} could not be broadcast to "
               f"indexing result of shape {shown} (? known only at run time)\n"
               f"  at {user_location()}")
    ones = False
    for axis, (n, size) in enumerate(zip(v.shape, positions.shape)):
        if size is None and n is None:     # a selection stored into a mask's: a[m] = b[b > 0]
            v = api.fit_axis(v, axis, positions_along(positions, axis),
                             dim_size(positions, axis), message)
            continue
        if size is not None or n is None:
            continue
        if n == 1:
            ones = True
            continue
        if n == 0:
            # An empty value fits only no positions; the take reads a zero until then.
            v = api.concatenate([v, api.zeros(tuple(1 if i == axis else d for i, d in
                                                    enumerate(v.shape)), v.dtype)], axis=axis)
        index = np.minimum(positions_along(positions, axis), max(n - 1, 0))
        v = emit("take", [v, index], {"axis": axis})
        v = emit("check", [v, dim_size(positions, axis) == n],
                 {"error": "ValueError", "message": message})
    return api.broadcast_like(v, positions) if ones else v


def _distinct_positions(key):
    """Whether ``key`` selects each position at most once: basic keys do, and so do 0-d
    integer arrays, which NumPy takes as integers (``traj[i] = row`` in a loop)."""
    return all(api.is_basic_key((k,)) or
               (isinstance(k, Tracer) and k.ndim == 0 and k.dtype.kind in "iu") for k in key)


def _positions_of_key(shape, key):
    """The flat positions (C order) that ``x[key]`` selects in an array ``x`` of ``shape``,
    for a key with traced entries, computed without a table of every position: the sum
    over the axes of the axis' stride times the key applied to that axis' coordinates
    alone (an arange along it, of length 1 along the others, where the key's entries for
    the other axes become 0, zeros of their shape, or a whole slice). Each term has the
    selection's layout, so the work is in the selection's size; None for the keys this
    does not cover (boolean ones)."""
    if not shape or None in shape:
        return None
    key = expand_key(key, len(shape))
    entries = [(api.asarray(k) if api.contains_tracer(k) else np.asarray(k))
               if isinstance(k, list) else k for k in key]
    if not any(isinstance(k, (np.ndarray, Tracer)) and k.ndim for k in entries):
        # Element writes at traced scalars (a[i] = v in a loop): the passes read their
        # positions off the table's gather (bound_loop_counters, merge_element_writes).
        return None
    for k in entries:
        if isinstance(k, (bool, np.bool_)) or (isinstance(k, (np.ndarray, Tracer)) and
                                             k.dtype == np.bool_):
            return None
    strides = [int(np.prod(shape[a + 1:], dtype=np.int64)) for a in range(len(shape))]
    total = None
    for axis, dim in enumerate(shape):
        coords = api.reshape_to(api.arange(dim, dtype=_INTP),
                                tuple(dim if b == axis else 1 for b in range(len(shape))))
        sub, b = [], 0
        for k in entries:
            if k is None:
                sub.append(None)
                continue
            if b == axis:
                sub.append(k)
            elif isinstance(k, slice):
                sub.append(slice(None))
            elif isinstance(k, (np.ndarray, Tracer)) and k.ndim:
                sub.append(np.zeros(k.shape, _INTP) if isinstance(k, np.ndarray) else k * 0)
            else:
                sub.append(0)
            b += 1
        term = getitem(coords, tuple(sub))
        term = term * strides[axis] if strides[axis] != 1 else term
        total = term if total is None else total + term
    return total


def _scatter_into(buffer, positions, values, mode, unique):
    flat_values = api.ravel(values)
    if isinstance(positions, np.ndarray):
        size = int(np.prod(buffer.shape, dtype=np.int64))
        flat_pos = positions.ravel()
        if mode == "update" and flat_pos.size == size and (flat_pos == np.arange(size)).all():
            set_buffer(buffer, api.reshape_to(api.astype(flat_values, buffer.atom.type.dtype),
                                              buffer.shape).atom)
            return
        if mode == "update" and not unique:
            # NumPy: the last write to a position wins; keep only those writes.
            _, first_from_end = np.unique(flat_pos[::-1], return_index=True)
            keep = np.sort(flat_pos.size - 1 - first_from_end)
            flat_pos, flat_values = flat_pos[keep], getitem(flat_values, (keep,))
            unique = True
        positions = _literal(flat_pos.astype(_INTP))
    else:
        positions = api.ravel(positions)
    new = emit("scatter", [Tracer(buffer.atom), positions, flat_values],
               {"mode": mode, "unique": bool(unique)})
    set_buffer(buffer, new.atom)


def _flat_positions(x):
    """The flat (C order) position of each element of ``x``, whose sizes may be known only
    at run time: an int64 array of ``x``'s shape."""
    if x.ndim == 0:
        return _literal(np.zeros((), _INTP))
    pos = None
    for axis in range(x.ndim):
        along = api.basic_getitem(positions_along(x, axis), (None,) * axis + (slice(None),) +
                                  (None,) * (x.ndim - axis - 1))
        pos = along if pos is None else pos * dim_of(x, axis) + along
    return pos


def _fitted_at_run_time(value, target):
    """``value`` for a write of all of ``target``, both of one rank, where sizes known only
    at run time may differ: NumPy's ValueError unless each size of ``value`` is the
    target's or 1 (then broadcast)."""
    ok, ones = None, False
    for axis in range(target.ndim):
        if same_size(value, axis, target, axis):
            continue
        dv, dt = dim_size(value, axis), dim_size(target, axis)
        fits = (dv == dt) | (dv == 1)
        ok = fits if ok is None else ok & fits
        ones = True
    if ok is None:
        return value
    shown = lambda t: "(" + ",".join("n" if d is None else str(d) for d in t.shape) + \
        ("," if t.ndim == 1 else "") + ")"
    value = emit("check", [value, ok], {
        "error": "ValueError",
        "message": f"could not broadcast input array from shape {shown(value)} into shape "
                   f"{shown(target)}, n known only at run time\n  at {user_location()}"})
    return api.broadcast_like(value, target) if ones else value


def _write_dynamic(target, view, key, value, mode):
    """Writes into arrays of unknown size: whole-array and same-shape boolean-mask updates."""
    check_writeable(target, "assignment")
    v = to_tracer(value)
    if key is None and (v.shape == target.shape or v.ndim == 0):
        new = api.astype(v, target.dtype)
        if new.shape == target.shape:
            new = _fitted_at_run_time(new, target)
        set_buffer(view.buffer, (new if new.shape == target.shape else api.broadcast_like(new, target)).atom)
        return target
    if key is None:
        mask = True
    elif isinstance(key, Tracer) and key.dtype == np.bool_ and key.shape == target.shape:
        mask = _matched_mask(target, 0, key)
    elif view.steps == ():
        # Any other key: the positions it selects among the array's own, as for arrays
        # of known size, computed when the graph runs.
        key = tuple(constant_value(k) for k in (key if isinstance(key, tuple) else (key,)))
        positions = getitem(_flat_positions(target), key)
        unique = _distinct_positions(key) or positions.size == 1
        values = _values_for(value, positions, target.dtype, mode)
        _scatter_into(view.buffer, positions, values, mode, unique)
        return target
    else:
        raise unsupported("this assignment into a view of an array of unknown size",
                          fix="Write into the original array with an index instead.")
    if v.ndim or mode != "update":
        return _write_dynamic(target, view, (mask,), value, mode) if mask is not True else \
            _write_dynamic(target, view, (Ellipsis,), value, mode)
    new = api.elementwise_where(mask, api.astype(v, target.dtype), target)
    set_buffer(view.buffer, new.atom)
    return target


# ------------------------------------------------------- indexing functions
@api.implements(np.take)
def take(a, indices, axis=None, out=None, mode="raise"):
    api.reject("take", out=out)
    a = to_tracer(a)
    if axis is None or a.ndim == 0:     # NumPy takes from a 0-d array as from one element
        a, axis = api.ravel(a), 0 if axis is None else axis
    axis = api.axis_index(axis, a.ndim)
    idx = indices if isinstance(indices, Tracer) else np.asarray(indices)
    if mode in ("wrap", "clip"):
        n = a.shape[axis]
        idx = (idx % n) if mode == "wrap" else np.clip(idx, 0, n - 1)
    key = (slice(None),) * axis + (idx,)
    out = advanced_getitem(a, key)
    return Tracer(out.atom, is_scalar=out.ndim == 0)


@api.implements(np.nonzero)
def nonzero(a):
    a = to_tracer(a)
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar)."
                         f"nonzero() instead.\n  at {user_location()}")
    coords = emit("nonzero", [a])
    return tuple(getitem(coords, (slice(None), j)) for j in range(a.ndim))


@api.implements(np.argwhere)
def argwhere(a):
    a = to_tracer(a)
    if a.ndim == 0:
        return api.reshape_to(emit("nonzero", [api.reshape_to(a, (1,))]), (None, 0))
    return emit("nonzero", [a])


@api.implements(np.flatnonzero)
def flatnonzero(a):
    return nonzero(api.ravel(a))[0]


@api.implements(np.compress)
def compress(condition, a, axis=None, out=None):
    api.reject("compress", out=out)
    a = to_tracer(a)
    if axis is None:
        a, axis = api.ravel(a), 0
    axis = api.axis_index(axis, a.ndim)
    cond = api.ravel(api.astype(to_tracer(condition), np.bool_))
    n = a.shape[axis]
    if cond.shape[0] is not None and n is not None and cond.shape[0] > n:
        raise IndexError(f"index {n} is out of bounds for axis {axis} with size {n}\n"
                         f"  at {user_location()}")
    if cond.shape[0] != n:
        cond = api.concatenate([cond, api.zeros(n - cond.shape[0], bool)]) if cond.shape[0] < n else cond
    return advanced_getitem(a, (slice(None),) * axis + (cond,))


@api.implements(np.extract)
def extract(condition, arr):
    return advanced_getitem(api.ravel(arr), (api.ravel(api.astype(to_tracer(condition), np.bool_)),))


def where_one_argument(condition):
    return nonzero(api.asarray(condition))


def write_out(out, result, ufunc_name):
    """``ufunc(..., out=out)``: NumPy casts the result into ``out`` with the same_kind rule."""
    out = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    if not isinstance(out, Tracer):
        raise unsupported(f"np.{ufunc_name}(..., out=<an array that is not traced>)",
                          fix="Allocate the output inside the function (np.empty_like(x)).")
    result = api.check_out_cast(ufunc_name, result, out)
    write(out, None, result, what=f"np.{ufunc_name}(..., out=...)")
    return out
