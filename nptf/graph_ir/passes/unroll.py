"""Counted loops of scalar steps run several steps per iteration.

Under XLA each iteration of a ``while`` loop costs a few nanoseconds of its own
(evaluating the condition, passing the carried values), as much as a scalar
step's work: in ``a[i] = a[i - 1] * 0.5 + b[i]`` over 10,000 steps, nearly half
of the loop's time. ``unroll_loops`` runs ``UNROLL`` steps per iteration where a
loop is counted (its condition is ``counter < bound``, the body steps the counter
by a positive literal, the bound is a literal or a value the loop only reads) and
its steps are small (scalar work, element reads and writes, no loop inside):

    while i + (k - 1) * step < bound:  body; body; ...   (k copies)
    while i < bound:                   body              (the steps left over)

with ``k`` up to ``UNROLL``, as many copies as fit in ``_MAX_UNROLLED`` equations.
Loops of fewer than ``_MIN_TRIPS`` steps known when tracing stay whole.

Each copy sees exactly the state the original loop has at that step, so the
values, the run-time checks and the order of writes are the original ones; a
condition made of anything else is left alone. The copies then go through
``merge_element_writes``: a read of an element the copy before wrote is that value,
and writes to neighbouring elements become one update. Where the copies' writes do
not merge into as few updates as one step makes (a read between them that may or may
not see a write), the loop stays as it is: XLA may copy the array at each update.
"""
from __future__ import annotations

import numpy as np

from ..ir import Eqn, Literal, Var, map_subgraphs
from ..ops import OPS
from .bounds import loop_steps
from .fold import as_literal
from .rename import Renamer
from .simplify import eliminate_common_subexpressions, eliminate_dead_code
from .writes import WRITES, merge_element_writes

UNROLL = 8
_MAX_UNROLLED = 256     # equations, sub-graphs included: a bigger body has enough work per step
_SMALL = 16         # elements: a larger value is array work, which unrolling does not speed up
# Known trip counts below this stay whole: the copies make XLA's compile slower (a
# recurrence's first call 0.16 -> 0.26 s), and the few nanoseconds a step they save
# are lost in a call's fixed cost.
_MIN_TRIPS = 256


def _counted(eqn):
    """``(counter position, step, bound)`` for a while loop the pass may unroll, else None."""
    n, cond, body = eqn.params["n_carried"], eqn.params["cond"], eqn.params["body"]
    if len(cond.eqns) != 1 or cond.eqns[0].op.name != "less" or \
            cond.outputs[0] is not cond.eqns[0].outputs[0]:
        return None
    counter, bound = cond.eqns[0].inputs
    carried = cond.inputs[:n]
    if not isinstance(counter, Var) or not any(counter is v for v in carried):
        return None
    k = next(j for j, v in enumerate(carried) if v is counter)
    if isinstance(bound, Var) and not any(bound is v for v in cond.inputs[n:]):
        return None
    if bound.type.dtype != counter.type.dtype or bound.type.shape != ():
        return None
    step = loop_steps(body, n).get(k)
    if step is None or step <= 0:
        return None
    return k, step, bound


def _size(graph):
    return sum(1 + sum(_size(g) for g in _subgraphs(e)) for e in graph.eqns)


def _subgraphs(eqn):
    found = []
    map_subgraphs(eqn, lambda g: found.append(g) or g)
    return found


def _copies(body):
    """How many copies of ``body`` one iteration runs: 1 (leave the loop alone) unless its
    steps are small."""
    for e in body.eqns:
        if e.op.name == "while":
            return 1
        if e.op.name in WRITES:
            continue
        if any(v.type.size is None or v.type.size > _SMALL for v in e.outputs):
            return 1
    size, k = max(_size(body), 1), UNROLL
    while k > 1 and k * size > _MAX_UNROLLED:
        k //= 2
    return k


def _writes(graph):
    return sum(e.op.name in WRITES for e in graph.eqns)


def _tidied(body):
    """``body`` as the write-merging passes after this one leave it."""
    return eliminate_dead_code(merge_element_writes(eliminate_common_subexpressions(body)))


def _trips(start, step, bound):
    if not (isinstance(start, Literal) and isinstance(bound, Literal)):
        return None
    first, last = int(np.asarray(start.value)), int(np.asarray(bound.value))
    return max(0, -(-(last - first) // step))


def _unrolled_body(body, n, times):
    inputs = tuple(Var(v.type) for v in body.inputs)
    state, reads, eqns = list(inputs[:n]), list(inputs[n:]), []
    for _ in range(times):
        rename = Renamer(zip(body.inputs, state + reads))
        eqns.extend(rename.copy(e) for e in body.eqns)
        state = list(rename(body.outputs))
    return body.replace(inputs=inputs, eqns=tuple(eqns), outputs=tuple(state))


def _unrolled_cond(cond, k, bound, ahead):
    """``counter + ahead < bound``, written so that it cannot overflow."""
    inputs = tuple(Var(v.type) for v in cond.inputs)
    counter, less = inputs[k], cond.eqns[0]
    out = Var(less.outputs[0].type)
    limit = np.iinfo(counter.type.dtype)
    if isinstance(bound, Literal):
        eqns = [Eqn(less.op, (counter, as_literal(int(np.asarray(bound.value)) - ahead, counter)),
                    {}, (out,), less.source_info)]
        return cond.replace(inputs=inputs, eqns=tuple(eqns), outputs=(out,))
    bound = inputs[[j for j, v in enumerate(cond.inputs) if v is bound][0]]
    moved, room, fits = Var(counter.type), Var(out.type), Var(out.type)
    eqns = [Eqn(less.op, (counter, as_literal(limit.max - ahead, counter)), {}, (room,),
                less.source_info),
            Eqn(OPS["add"], (counter, as_literal(ahead, counter)), {}, (moved,), less.source_info),
            Eqn(less.op, (moved, bound), {}, (fits,), less.source_info),
            Eqn(OPS["logical_and"], (room, fits), {}, (out,), less.source_info)]
    return cond.replace(inputs=inputs, eqns=tuple(eqns), outputs=(out,))


def _unroll(graph):
    rename, eqns = Renamer(), []
    for eqn in graph.eqns:
        eqn = rename.eqn(eqn, _unroll)
        found = _counted(eqn) if eqn.op.name == "while" else None
        copies = _copies(eqn.params["body"]) if found is not None else 1
        if copies < 2:
            eqns.append(eqn)
            continue
        k, step, bound = found
        n = eqn.params["n_carried"]
        trips = _trips(eqn.inputs[k], step, bound)
        ahead = (copies - 1) * step
        if (trips is not None and trips < max(2 * copies, _MIN_TRIPS)) or \
                (isinstance(bound, Literal) and
                 int(np.asarray(bound.value)) - ahead < np.iinfo(bound.type.dtype).min):
            eqns.append(eqn)
            continue
        body = _unrolled_body(eqn.params["body"], n, copies)
        if _writes(_tidied(body)) > _writes(_tidied(eqn.params["body"])):
            # Copies whose writes do not merge (a read between them that may see either)
            # would be as many updates, each of which XLA may copy the array for.
            eqns.append(eqn)
            continue
        main = eqn.replace(
            params={**eqn.params, "body": body,
                    "cond": _unrolled_cond(eqn.params["cond"], k, bound, ahead)},
            outputs=tuple(Var(v.type) for v in eqn.outputs))
        eqns.append(main)
        if trips is not None and trips % copies == 0:
            rename.update(eqn.outputs, main.outputs)
        else:
            eqns.append(eqn.replace(inputs=main.outputs + eqn.inputs[n:]))
    return graph.replace(eqns=tuple(eqns), outputs=rename(graph.outputs))


def unroll_loops(graph):
    return _unroll(graph).replace(stage="unroll_loops")


__all__ = ["unroll_loops", "UNROLL"]
