"""Make broadcasting explicit: elementwise inputs get a ``broadcast_to`` to
the output shape, so the strict verifier sees equal shapes everywhere."""
from __future__ import annotations

from ..ir import Eqn, Var, map_subgraphs
from ..types import ArrayType
from .rewrite import PassRules, rewrite_eqns


def _broadcast(eqn, rw):
    """The one rule, for every elementwise op: each input has the output's shape."""
    if eqn.op.kind != "elementwise" or not eqn.outputs:
        return None
    shape = eqn.outputs[0].type.shape
    inputs = []
    for a in eqn.inputs:
        if a.type.shape != shape:
            (a,) = rw.emit("broadcast_to", (a,), {"shape": shape},
                           (Var(ArrayType(shape, a.type.dtype)),))
        inputs.append(a)
    return [eqn.replace(inputs=tuple(inputs))]


_BROADCAST = PassRules(default=_broadcast)


def broadcast_operands(graph):
    return rewrite_eqns(graph, _BROADCAST,
                        subgraphs=broadcast_operands).replace(stage="broadcast_operands")


def implicit_broadcasts(graph):
    """Broadcasts left to the elementwise ops that read them, for lowering: a lowering
    whose elementwise kernels broadcast with NumPy's rules (TensorFlow's) need not build
    the full-size array ``broadcast_operands`` asked for.

    A ``broadcast_to`` whose every reader broadcasts implicitly gets ``implicit=True``:
    its value is its operand as it is (an operand of its own ``broadcast_to``, followed
    back to the first). Where a broadcast is also read as an array (by another op, as an
    output), it stays, and the elementwise ops read its operand instead. An elementwise
    op all of whose operands are broadcasts reads its first one in full, since nothing
    else gives the output's shape; where that shape has unknown sizes, the first operand
    broadcasts to the shape of all of them together (``broadcast_to`` with the other
    operands after its own, which lowering alone writes).

    The graph holds elementwise ops of operands of unequal shapes: it is for lowering
    only (``verify(strict=True)`` rejects it)."""
    if graph.stage == "implicit_broadcasts":
        return graph
    eqns = [map_subgraphs(e, implicit_broadcasts) for e in graph.eqns]
    defining, source = {}, {}   # broadcast var -> its equation; the operand it broadcasts
    for e in eqns:
        if e.op.name == "broadcast_to":
            a, var = e.inputs[0], e.outputs[0]
            defining[var], source[var] = e, source.get(a, a)
    if not source:
        return graph.replace(eqns=tuple(eqns), stage="implicit_broadcasts")

    def all_broadcasts(e):
        return e.op.kind == "elementwise" and e.inputs and all(a in source for a in e.inputs)

    # Broadcasts some reader needs in full, and how often each is read.
    full, reads = set(), {}
    for e in eqns:
        for a in e.inputs:
            if a in source:
                reads[a] = reads.get(a, 0) + 1
        if e.op.name == "broadcast_to" or e.op.kind == "elementwise":
            if all_broadcasts(e) and None not in defining[e.inputs[0]].params["shape"]:
                full.add(e.inputs[0])
            continue
        full.update(a for a in e.inputs if a in source)
    full.update(a for a in graph.outputs if a in source)
    # Broadcasts of unknown sizes that only an op of broadcasts alone reads, as its first
    # operand: they move to that op, widened to the shape of all its operands.
    moved = {e.inputs[0] for e in eqns if all_broadcasts(e) and reads[e.inputs[0]] == 1 and
             e.inputs[0] not in full and None in defining[e.inputs[0]].params["shape"]}

    def implicit(a):
        """Operand ``a`` as an op that broadcasts it itself reads it."""
        return source[a] if a in full else a

    out = []
    for e in eqns:
        if e.op.name == "broadcast_to":
            var = e.outputs[0]
            if var not in moved:
                a = e.inputs[0]
                params = e.params if var in full else {**e.params, "implicit": True}
                out.append(e.replace(inputs=(implicit(a) if a in source else a,), params=params))
            continue
        if e.op.kind != "elementwise" or not any(a in source for a in e.inputs):
            out.append(e)
            continue
        inputs = [implicit(a) if a in source else a for a in e.inputs]
        first = e.inputs[0]
        if all_broadcasts(e):
            if None not in defining[first].params["shape"]:
                inputs[0] = first
            else:
                # The sizes known only when the graph runs come from the operands.
                d = defining[first]
                own = source[first] if first in moved else implicit(first)
                widened = Eqn(d.op, (own, *inputs[1:]), {"shape": d.params["shape"]},
                              (first if first in moved else Var(first.type),), d.source_info)
                out.append(widened)
                inputs[0] = widened.outputs[0]
        out.append(e.replace(inputs=tuple(inputs)))
    return graph.replace(eqns=tuple(out), stage="implicit_broadcasts")
