"""Element writes that follow each other, read back and merged.

``a[i], a[i + 1] = a[i + 1], a[i]`` in a loop body traces as two one-element
``scatter`` updates, the second applied to the first's result. XLA updates an
array in place only when nothing reads the old value after the write; with two
writes in a row its fusion recomputes reads of the array after the first write
and then copies the whole array every iteration (a 10,000-step swap loop: 41 ms
under XLA against 3.7 ms for NumPy's own Python loop). One update of several
positions has no such ordering, and a read of a just-written position needs no
read at all.

``merge_element_writes`` works on positions it can compare: each is
``root * scale + offset`` for one integer root (a loop counter, say) and
literals, seen through reshapes, index checks, additions, multiplications and the flat
position tables of n-d arrays. Two positions with the same root and scale are
equal when their offsets are, and distinct otherwise. Then

* ``gather_nd(scatter(m, p, v), q)``, where a later update writes into the
  scatter's result, is ``v`` where ``q == p`` and ``gather_nd(m, q)`` where
  ``q != p`` (also through a reshape of the scatter);
* ``scatter(scatter(m, p1, v1), p2, v2)`` whose inner result nothing else reads
  is one ``scatter(m, [p1, p2], [v1, v2])`` where ``p2 != p1`` (one
  ``dynamic_update_slice`` where the positions are neighbours in a 1-d array),
  ``scatter(m, p2, v2)`` where ``p2 == p1`` (the second write wins), and
  ``scatter(m, [p1, p2], [where(p1 == p2, v2, v1), v2])`` where it cannot tell
  (``a[i], a[n - 1 - i] = a[n - 1 - i], a[i]``, which meet when ``n`` is odd).

Reads it cannot place stay as traced; ``eliminate_dead_code`` removes what
the rewrites leave unread.
"""
from __future__ import annotations

import numpy as np

from ..affine import affine as _affine, compare as _compare, flat_position as _flat, same_root
from ..ir import Eqn, Literal, Var, map_subgraphs
from ..ops import OPS
from ..types import ArrayType
from ..walk import has_effects
from .rename import substitute

_INTP = np.dtype(np.intp)
WRITES = ("scatter", "dynamic_update_slice")    # ops that write into an array


def _written(var, made):
    """``(scatter eqn, its flat position key)`` for a one-position update ``var`` is the
    result of (seen through one reshape), else None."""
    e = made.get(var)
    if e is not None and e.op.name == "reshape" and isinstance(e.inputs[0], Var):
        e = made.get(e.inputs[0])
    if e is None or e.op.name != "scatter" or e.params["mode"] != "update" \
            or e.inputs[1].type.shape != (1,):
        return None
    return e, _affine(e.inputs[1], made)


def _unreshaped(var, made, shape):
    """``var`` itself, or what it is a reshape of when that has ``shape``."""
    e = made.get(var)
    if e is not None and e.op.name == "reshape" and isinstance(e.inputs[0], Var) and \
            e.inputs[0].type.shape == shape:
        return e.inputs[0]
    return var


def _rewritten(graph):
    """Arrays a later update writes into (seen through one reshape)."""
    made = {v: e for e in graph.eqns for v in e.outputs}
    bases = set()
    for e in graph.eqns:
        if e.op.name == "scatter" and isinstance(e.inputs[0], Var):
            bases.add(e.inputs[0])
            inner = made.get(e.inputs[0])
            if inner is not None and inner.op.name == "reshape" and isinstance(inner.inputs[0], Var):
                bases.add(inner.inputs[0])
    return bases


def _forwarder(rewritten):
    """Reads of a written array's final state stay reads: the written value may depend on
    reads of the array before the write, and XLA, recomputing them where the value is
    used, would copy the array to keep its old state. Reads between two writes are
    forwarded: that is what lets the writes merge."""
    def forward(eqn, made, emit):
        if eqn.op.name == "gather_nd" and eqn.inputs[0] in rewritten:
            return _forward(eqn, made, emit)
        return None
    return forward


def _forward(eqn, made, emit):
    """A replacement for a one-element ``gather_nd`` from a written array: an atom, or None.

    A write whose position may or may not be the read's (``A[i, j]`` written, ``A[j, j]``
    read) is read through with a select on the two positions, for up to two such writes:
    the read then no longer holds the array between the writes, and they merge."""
    if eqn.op.name != "gather_nd" or not isinstance(eqn.inputs[0], Var):
        return None
    array, index = eqn.inputs
    out = eqn.outputs[0]
    if out.type.shape != () or None in array.type.shape:
        return None
    key = _flat(index, array.type.shape, made)
    source, maybe, hit = array, [], None
    while (found := _written(source, made)) is not None:
        scatter, written = found
        same = _compare(written, key)
        if scatter.inputs[2].type.dtype != out.type.dtype or (same is None and len(maybe) == 2):
            break
        if same:
            hit = scatter
            break
        if same is None:
            maybe.append(scatter)
        source = _unreshaped(scatter.inputs[0], made, array.type.shape)
    if hit is not None:
        value = emit("reshape", (hit.inputs[2],), {"shape": ()}, out.type)
    elif source is array:
        return None
    else:
        if source.type.shape != array.type.shape:
            source = emit("reshape", (source,), {"shape": array.type.shape},
                          ArrayType(array.type.shape, source.type.dtype))
        value = emit("gather_nd", (source, index), eqn.params, out.type)
    if maybe:
        position = _flat_index(index, array.type.shape, emit)
        for scatter in reversed(maybe):
            written = emit("reshape", (scatter.inputs[1],), {"shape": ()}, ArrayType((), _INTP))
            same = emit("equal", (written, position), {}, ArrayType((), np.dtype(bool)))
            new = emit("reshape", (scatter.inputs[2],), {"shape": ()}, out.type)
            value = emit("where", (same, new, value), {}, out.type)
    return value


def _flat_index(index, shape, emit):
    """The C-order flat position of the n-d ``index`` (an int vector) into ``shape``."""
    strides = np.cumprod((1,) + tuple(shape[:0:-1]))[::-1].astype(_INTP)
    if index.type.dtype != _INTP:
        index = emit("convert", (index,), {"dtype": _INTP}, ArrayType(index.type.shape, _INTP))
    scaled = emit("multiply", (index, Literal(strides, ArrayType(strides.shape, _INTP))), {},
                  ArrayType(index.type.shape, _INTP))
    return emit("reduce_sum", (scaled,), {"axes": (0,), "keepdims": False, "dtype": _INTP},
                ArrayType((), _INTP))


def _rewrite(graph, transform, inner=None):
    made, rename, eqns = {}, {}, []
    current = None

    def emit(op, inputs, params, type):
        var = Var(type)
        eqn = Eqn(OPS[op], tuple(inputs), params, (var,), current.source_info)
        eqns.append(eqn)
        made[var] = eqn
        return var

    for eqn in graph.eqns:
        eqn = eqn.replace(inputs=substitute(eqn.inputs, rename))
        current = map_subgraphs(eqn, inner) if inner is not None else eqn
        new = transform(current, made, emit)
        if new is not None:
            rename[current.outputs[0]] = new
            continue
        eqns.append(current)
        for v in current.outputs:
            made[v] = current
    return graph.replace(eqns=tuple(eqns), outputs=substitute(graph.outputs, rename))


def _uses(graph):
    counts = {}
    for a in [a for e in graph.eqns for a in e.inputs] + list(graph.outputs):
        if isinstance(a, Var):
            counts[a] = counts.get(a, 0) + 1
    return counts


def _later_wins(emit, p, q, value_q, value_p):
    """The value an earlier write at ``p`` carries into a merged update with a later write
    at ``q``: its own, or the later one where the positions turn out equal (then the update
    writes that position twice with one value, and the order of the two does not matter)."""
    same = emit("equal", (p, q), {}, OPS["equal"].type_rule([p.type, q.type], {})[0])
    types = [same.type, value_q.type, value_p.type]
    return emit("where", (same, value_q, value_p), {}, OPS["where"].type_rule(types, {})[0])


def _neighbours(writes, base):
    """The writes in order of position when they fill a run of neighbouring elements of a
    1-d array (``a[i], a[i + 1] = ...``), else None. Such a run is one dynamic-update-slice,
    which XLA updates in place: its scatter of several positions is a loop of its own
    (neighbours swapped along 10,000 numbers: 1.4 -> 0.84 ms)."""
    keys = [w[0] for w in writes]
    if base.type.ndim != 1 or None in base.type.shape or any(k is None for k in keys):
        return None
    root, scale = keys[0][0], keys[0][1]
    if any(not same_root(k[0], root) or k[1] != scale for k in keys) or \
            (root is not None and scale != 1):
        return None
    order = sorted(range(len(writes)), key=lambda j: keys[j][2])
    offsets = [keys[j][2] for j in order]
    if offsets != list(range(offsets[0], offsets[0] + len(offsets))):
        return None
    return [writes[j] for j in order]


def _merger(uses):
    merged = {}   # scatter result -> (its base, [(key, position, value)], reads of it)

    def earlier_writes(base, made):
        """The merged writes ``base`` is the result of, seen through a reshape there and
        back that nothing else reads, or None."""
        var = base
        e = made.get(var)
        if e is not None and e.op.name == "reshape" and uses.get(var) == 1:
            inner = _unreshaped(e.inputs[0], made, base.type.shape)
            if inner is not e.inputs[0] and uses.get(e.inputs[0]) == 1:
                var = inner
        found = merged.get(var)
        return found if found is not None and found[2] == 1 else None

    def merge(eqn, made, emit):
        if eqn.op.name != "scatter" or eqn.params["mode"] != "update" or \
                eqn.inputs[1].type.shape != (1,) or eqn.inputs[2].type.shape != (1,):
            return None
        base, position, value = eqn.inputs
        key = _affine(position, made)
        writes = [(key, position, value)]
        earlier = earlier_writes(base, made) if key is not None else None
        if earlier is not None:
            kept = []
            for (k, p, v), same in zip(earlier[1], [_compare(k, key) for k, _, _ in earlier[1]]):
                if same is None:
                    v = _later_wins(emit, p, position, value, v)
                if same is not True:          # a write to the same position replaces it
                    kept.append((k, p, v))
            base, writes = earlier[0], kept + writes
        reads = uses.get(eqn.outputs[0], 0)
        if base is eqn.inputs[0]:
            merged[eqn.outputs[0]] = (base, writes, reads)
            return None
        run = _neighbours(writes, base)
        if len(writes) == 1:
            out = emit("scatter", (base, position, value), eqn.params, eqn.outputs[0].type)
        elif run is not None:
            values = emit("concatenate", [w[2] for w in run], {"axis": 0},
                          ArrayType((len(run),), value.type.dtype))
            out = emit("dynamic_update_slice", (base, values, run[0][1]), {}, eqn.outputs[0].type)
        else:
            n = len(writes)
            positions = emit("concatenate", [w[1] for w in writes], {"axis": 0},
                             ArrayType((n,), _INTP))
            values = emit("concatenate", [w[2] for w in writes], {"axis": 0},
                          ArrayType((n,), value.type.dtype))
            out = emit("scatter", (base, positions, values), {"mode": "update", "unique": True},
                       eqn.outputs[0].type)
        merged[out] = (base, writes, reads)
        return out
    return merge


def _reread_after_writes(graph):
    """Uses of an element read from an array, after a write elsewhere in that array, read
    the written array instead: the same value, but XLA, recomputing a cheap read where
    each use is, would otherwise read the old array after its in-place update and copy
    it to keep it (``t = a[i - 1]; a[i] = t + x; b[i] = t / 2``: a copy of ``a`` every
    iteration). A write of neighbouring elements (one ``dynamic_update_slice``) counts
    as a write of each of them."""
    made, eqns, written, reread = {}, [], {}, {}
    rewritten, uses = _rewritten(graph), _uses(graph)
    for eqn in graph.eqns:
        inputs = list(eqn.inputs)
        for k, a in enumerate(inputs):
            read = made.get(a) if isinstance(a, Var) else None
            if read is None or read.op.name != "gather_nd" or a.type.shape != () or \
                    read.inputs[0] not in written:
                continue
            new_array, key, length = written[read.inputs[0]]
            index_key = _flat(read.inputs[1], read.inputs[0].type.shape, made)
            if not _outside(key, length, index_key):
                continue
            if (a, new_array) not in reread:
                var = Var(a.type)
                fresh = Eqn(read.op, (new_array, read.inputs[1]), read.params, (var,),
                            read.source_info)
                eqns.append(fresh)
                made[var] = fresh
                reread[(a, new_array)] = var
            inputs[k] = reread[(a, new_array)]
        eqn = eqn.replace(inputs=tuple(inputs))
        if eqn.outputs and eqn.outputs[0] not in rewritten and uses.get(eqn.outputs[0]):
            # (a merged write left unread is not the new array)
            if eqn.op.name == "scatter" and eqn.params["mode"] == "update" and \
                    eqn.inputs[1].type.shape == (1,):
                written[eqn.inputs[0]] = (eqn.outputs[0], _affine(eqn.inputs[1], made), 1)
            elif eqn.op.name == "dynamic_update_slice" and eqn.inputs[0].type.ndim == 1 and \
                    eqn.inputs[2].type.shape == (1,) and None not in eqn.inputs[1].type.shape:
                written[eqn.inputs[0]] = (eqn.outputs[0], _affine(eqn.inputs[2], made),
                                          eqn.inputs[1].type.shape[0])
        eqns.append(eqn)
        for v in eqn.outputs:
            made[v] = eqn
    return graph.replace(eqns=tuple(eqns))


def _writes_first(graph):
    """The same equations with each write as early as its inputs allow, the rest in their
    order: uses of a read that come after a write can then read the written array
    (``_reread_after_writes``). After unrolling, the values for a second array's write
    were all computed before the first array's write, from reads of the first array's
    old state: XLA copied that array every iteration (two recurrences: 28x slower)."""
    eqns = graph.eqns
    if any(has_effects(e) for e in eqns):      # checks report in their order
        return graph
    index = {v: i for i, e in enumerate(eqns) for v in e.outputs}
    placed, order, uses = [False] * len(eqns), [], _uses(graph)
    writes = [i for i, e in enumerate(eqns) if e.op.name in WRITES and uses.get(e.outputs[0])]
    for first in writes + list(range(len(eqns))):     # (merged writes left unread: not first)
        pending = [first]
        while pending:
            i = pending[-1]
            if placed[i]:
                pending.pop()
                continue
            needed = [index[a] for a in eqns[i].inputs
                      if isinstance(a, Var) and a in index and not placed[index[a]]]
            if needed:
                pending.extend(needed)
                continue
            placed[i] = True
            order.append(eqns[i])
            pending.pop()
    return graph.replace(eqns=tuple(order))


def _outside(start, length, position):
    """Whether ``position`` is surely outside the ``length`` elements written from ``start``."""
    if length == 1:
        return _compare(start, position) is False
    if start is None or position is None or not same_root(start[0], position[0]) or \
            start[1] != position[1]:
        return False        # (the same root and scale: the offsets tell)
    return position[2] < start[2] or position[2] >= start[2] + length


def merge_element_writes(graph):
    graph = _rewrite(graph, _forwarder(_rewritten(graph)), inner=merge_element_writes)
    graph = _rewrite(graph, _merger(_uses(graph)))
    graph = _reread_after_writes(_writes_first(graph))
    return graph.replace(stage="merge_element_writes")


__all__ = ["merge_element_writes"]
