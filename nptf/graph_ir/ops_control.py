"""Structured control flow: ``cond`` and ``while`` equations holding sub-graphs.

* ``cond``: inputs ``(pred, *operands)``; ``params["branches"] = (false_graph,
  true_graph)``, each taking the operands and returning the outputs.
* ``while``: inputs are the initial carried values followed by values the
  loop only reads; ``params["cond"]`` maps (carried, read) to a boolean
  scalar, ``params["body"]`` maps (carried, read) to the next carried values.

Sub-graphs are closed: every outer value they use is an explicit input.
"""
from __future__ import annotations

import numpy as np

from .evaluate import subgraph_rule
from .ops import declare, register
from .types import ArrayType


@register("cond", lambda ts, p: [np.bool_] + [t.dtype for t in ts[1:]])
def _cond(ts, params):
    false_graph, true_graph = params["branches"]
    f, t = [v.type for v in false_graph.outputs], [v.type for v in true_graph.outputs]
    if [(a.ndim, a.dtype) for a in f] != [(a.ndim, a.dtype) for a in t]:
        raise TypeError(f"cond branches return different types: {[str(a) for a in f]} vs "
                        f"{[str(a) for a in t]}")
    # A size the branches disagree on is known only at run time.
    return [a if a.weak and b.weak else
            ArrayType(tuple(x if x == y else None for x, y in zip(a.shape, b.shape)), a.dtype)
            for a, b in zip(t, f)]


@register("while")
def _while(ts, params):
    n = params["n_carried"]
    return [v.type for v in params["body"].outputs[:n]]


@subgraph_rule("cond")
def _eval_cond(run, p, pred, *operands):
    outs = run(p["branches"][int(bool(pred))], operands)
    return tuple(np.asarray(o) for o in outs)


@subgraph_rule("while")
def _eval_while(run, p, *inputs):
    n = p["n_carried"]
    carried, read = list(inputs[:n]), list(inputs[n:])
    while bool(run(p["cond"], [*carried, *read])[0]):
        carried = [np.asarray(o) for o in run(p["body"], [*carried, *read])]
    return tuple(carried)


def count_checks(graph) -> int:
    """Run-time checks a graph reports (sub-graphs included), in lowering order."""
    n = 0
    for eqn in graph.eqns:
        if eqn.op.name == "check":
            n += 1
        elif eqn.op.name == "cond":
            n += sum(count_checks(g) for g in eqn.params["branches"])
        elif eqn.op.name == "while":
            n += count_checks(eqn.params["body"]) + count_checks(eqn.params["cond"])
        elif eqn.op.name == "call":
            n += count_checks(eqn.params["graph"])
    return n


# Branches whose results differ in shape: XLA needs one shape per result.
declare("cond", xla_obstacle=lambda in_types, params: any(
    a.type.shape != b.type.shape for a, b in zip(*(g.outputs for g in params["branches"]))))




def _dims(graph, inputs, same):
    """Run-time sizes of ``graph``'s values as symbols: for each var, per axis, its static
    size or a label; ``inputs`` gives the graph's inputs' (by position). Sizes nothing
    relates to others get labels of their own. An elementwise op's operands have equal
    sizes on each axis, as NumPy requires (``same``: a union-find of labels it records),
    unless one of them is 1 when the graph runs and broadcasts."""
    known = {v: tuple(dims) for v, dims in zip(graph.inputs, inputs)}

    def of(atom):
        if atom not in known:
            known[atom] = tuple(object() if d is None else d for d in atom.type.shape)
        return known[atom]

    def put(out, dims):
        shape = out.type.shape
        if len(dims) == len(shape):
            known[out] = tuple(s if s is not None else d if d is not None else object()
                               for s, d in zip(shape, dims))

    for eqn in graph.eqns:
        name, ins = eqn.op.name, eqn.inputs
        if name == "cond":
            branches = eqn.params["branches"]
            per = [_dims(g, [of(a) for a in ins[1:]], same) for g in branches]
            for j, out in enumerate(eqn.outputs):
                sides = [p.get(g.outputs[j], tuple(g.outputs[j].type.shape))
                         for p, g in zip(per, branches)]
                put(out, [d[0] if d[0] is not None and _find(same, d[0]) == _find(same, d[1])
                          else None for d in zip(*sides)])
            continue
        if name == "while":
            n = eqn.params["n_carried"]
            changing = _changing_sizes(eqn.params)
            for j, out in enumerate(eqn.outputs):
                if j < n and j not in changing:
                    put(out, of(ins[j]))
            continue
        if len(eqn.outputs) != 1:
            continue
        out = eqn.outputs[0]
        rank = len(out.type.shape)
        if eqn.op.kind == "elementwise":
            dims = []
            for axis in range(rank):
                labels = [d[axis - rank + len(d)] for d in map(of, ins)
                          if axis - rank + len(d) >= 0 and d[axis - rank + len(d)] != 1]
                for label in labels[1:]:
                    _union(same, labels[0], label)
                dims.append(labels[0] if labels else None)
            put(out, dims)
        elif eqn.op.shape_of_first and len(of(ins[0])) == rank:
            put(out, of(ins[0]))
        elif name == "transpose":
            d = of(ins[0])
            put(out, [d[k] for k in eqn.params["perm"]])
        elif name == "matmul" and all(len(of(a)) >= 1 for a in ins[:2]):
            a, b = of(ins[0]), of(ins[1])
            _union(same, a[-1], b[-2] if len(b) >= 2 else b[-1])
            dims = list(a[:-2] if len(a) >= len(b) else b[:-2]) if max(len(a), len(b)) > 2 \
                else []
            put(out, dims + ([a[-2]] if len(a) >= 2 else []) + ([b[-1]] if len(b) >= 2 else []))
        elif name == "slice":
            d, slices = of(ins[0]), eqn.params["slices"]
            put(out, [d[k] if k >= len(slices) or slices[k] is None else None
                      for k in range(len(d))])
        elif name == "reshape":
            # Axes of size 1 put in or taken out: the other sizes, in order.
            kept = [x for x in of(ins[0]) if x != 1]
            if len(kept) == sum(s != 1 for s in out.type.shape):
                it = iter(kept)
                put(out, [1 if s == 1 else next(it) for s in out.type.shape])
        elif name == "broadcast_to":
            # Sizes of the operand's axes (aligned at the end) where they are not 1; the
            # rest, the elementwise op that reads the result relates.
            d = of(ins[0])
            put(out, [None] * (rank - len(d)) + [x if x != 1 else None for x in d])
    return known


def _find(same, label):
    while label in same:
        label = same[label]
    return label


def _union(same, a, b):
    a, b = _find(same, a), _find(same, b)
    if a != b:
        # A static size stays the name of its class: the class is of that size.
        if isinstance(a, int):
            a, b = b, a
        same[a] = b


def _changing_sizes(params):
    """The carried values of a ``while`` that may change their run-time size from one
    iteration to the next (by position): their types have a dimension of unknown size,
    and the body does not provably hand back values of the sizes they took."""
    body, n = params["body"], params["n_carried"]
    outs = [(j, out) for j, out in enumerate(body.outputs[:n]) if None in out.type.shape]
    if not outs:
        return set()
    labels = [tuple(("carried" if k < n else "read", k, a) if d is None else d
                    for a, d in enumerate(v.type.shape))
              for k, v in enumerate(body.inputs)]
    same = {}
    dims = _dims(body, labels, same)
    changing = set()
    for j, out in outs:
        got = dims.get(out)
        if got is None or any(_find(same, d) != _find(same, ("carried", j, a))
                              for a, (d, s) in enumerate(zip(got, out.type.shape))
                              if s is None):
            changing.add(j)
    return changing


# A loop variable whose size changes across iterations (a list the loop pops from, ``y =
# y[:-1]``): XLA pads it to a bound and can hand the padding back as data, so the plain
# executor runs such a loop.
declare("while", xla_obstacle=lambda in_types, params: bool(_changing_sizes(params)) and
        "XLA cannot run a loop whose variables change size from one iteration to the next")
# The results of bodies whose own equations are checked.
declare(["cond", "while"], fp_flags=False)
