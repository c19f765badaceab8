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

from .evaluate import EVAL_RULES, evaluate
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


def _eval_cond(p, pred, *operands):
    outs = evaluate(p["branches"][int(bool(pred))], *operands)
    return tuple(np.asarray(o) for o in outs)


def _eval_while(p, *inputs):
    n = p["n_carried"]
    carried, read = list(inputs[:n]), list(inputs[n:])
    while bool(evaluate(p["cond"], *carried, *read)[0]):
        carried = [np.asarray(o) for o in evaluate(p["body"], *carried, *read)]
    return tuple(carried)


EVAL_RULES["cond"] = _eval_cond
EVAL_RULES["while"] = _eval_while


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
