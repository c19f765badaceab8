"""Simplifications that never change a result: dead code and repeated work."""
from __future__ import annotations

import numpy as np

from ..ir import Literal, Var, map_subgraphs
from ..walk import acts_each_run, has_effects
from .rename import Renamer


def eliminate_dead_code(graph):
    live = {a for a in graph.outputs if isinstance(a, Var)}
    kept = []
    for eqn in reversed(graph.eqns):
        if eqn.op.name == "while":    # kept whole: its checks must run, and it may not end
            eqn = _prune_loop_carries(eqn, live)
        elif eqn.op.name == "cond":
            eqn = _prune_branch_outputs(eqn, live)
        # An equation with effects (a check) stays though nobody reads its value.
        if any(v in live for v in eqn.outputs) or eqn.op.name == "while" or has_effects(eqn):
            eqn = map_subgraphs(eqn, eliminate_dead_code)
            kept.append(eqn)
            live.update(a for a in eqn.inputs if isinstance(a, Var))
    return graph.replace(eqns=tuple(reversed(kept)), stage="eliminate_dead_code")


def _reads(graph, roots):
    """Every var that ``roots`` and the graph's effectful equations depend on."""
    needed = {a for a in roots if isinstance(a, Var)}
    for eqn in reversed(graph.eqns):
        # An inner loop stays whatever it gives (``eliminate_dead_code`` keeps every
        # loop), so what it reads is read.
        if has_effects(eqn) or eqn.op.name == "while" or any(v in needed for v in eqn.outputs):
            if eqn.op.name == "while":
                # An inner loop reads only the values it carries for what is needed:
                # ``for v in nbrs`` inside a ``while`` carries ``v`` in and out, and
                # nothing may read it.
                eqn = _prune_loop_carries(eqn, needed)
            needed.update(a for a in eqn.inputs if isinstance(a, Var))
    return needed


def _prune_loop_carries(eqn, live):
    """Drop carried values that nothing reads: not the code after the loop, not the loop's
    condition, effects or other carried values (``x_new`` and ``x`` in ``x = x_new``
    loops are often both carried, and one of them is dead)."""
    n, cond, body = eqn.params["n_carried"], eqn.params["cond"], eqn.params["body"]
    needed = {k for k in range(n) if eqn.outputs[k] in live}
    cond_reads = _reads(cond, cond.outputs)
    needed |= {k for k in range(n) if cond.inputs[k] in cond_reads}
    while True:
        reads = _reads(body, [body.outputs[k] for k in needed])
        grown = needed | {k for k in range(n) if body.inputs[k] in reads}
        if grown == needed:
            break
        needed = grown
    if len(needed) == n or not needed:
        return eqn
    keep = sorted(needed)
    pick = lambda seq: [seq[k] for k in keep] + list(seq[n:])  # noqa: E731
    body = body.replace(inputs=tuple(pick(body.inputs)),
                        outputs=tuple(body.outputs[k] for k in keep))
    cond = cond.replace(inputs=tuple(pick(cond.inputs)))
    return eqn.replace(inputs=tuple(pick(eqn.inputs)), outputs=tuple(eqn.outputs[k] for k in keep),
                       params={**eqn.params, "cond": cond, "body": body, "n_carried": len(keep)})


def _prune_branch_outputs(eqn, live):
    """Drop results of a ``cond`` that nothing reads. A branch's value may be a check
    that raises only when read (a variable only a loop that runs sets, returned by the
    branch that holds the loop): kept as a result, it would raise though the code after
    the ``if`` never reads it."""
    keep = [j for j, v in enumerate(eqn.outputs) if v in live]
    if len(keep) == len(eqn.outputs) or (not keep and not has_effects(eqn)):
        return eqn
    keep = keep or [0]   # a cond kept for its effects alone keeps one result
    branches = tuple(g.replace(outputs=tuple(g.outputs[j] for j in keep))
                     for g in eqn.params["branches"])
    return eqn.replace(outputs=tuple(eqn.outputs[j] for j in keep),
                       params={**eqn.params, "branches": branches})


def _key_of_atom(atom, rename):
    if isinstance(atom, Literal):
        v = np.asarray(atom.value)
        if v.size > 16:
            return ("lit-id", id(atom))
        return ("lit", v.dtype.str, v.shape, v.tobytes(), atom.type.weak)
    return ("var", id(rename.get(atom, atom)))


def _freeze(v):
    if isinstance(v, (list, tuple)):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _freeze(x)) for k, x in v.items()))
    return v if not isinstance(v, np.ndarray) else ("arr", v.tobytes(), v.shape, v.dtype.str)


def eliminate_common_subexpressions(graph):
    seen, rename, eqns = {}, Renamer(), []
    for eqn in graph.eqns:
        eqn = rename.eqn(eqn, eliminate_common_subexpressions)
        if acts_each_run(eqn):      # two prints of the same values print twice
            eqns.append(eqn)
            continue
        try:
            key = (eqn.op.name, tuple(_key_of_atom(a, rename.atoms) for a in eqn.inputs),
                   _freeze(eqn.params))
            hash(key)
        except TypeError:
            key = None
        if key is not None and key in seen:
            rename.update(eqn.outputs, seen[key].outputs)
            continue
        if key is not None:
            seen[key] = eqn
        eqns.append(eqn)
    return graph.replace(eqns=tuple(eqns), outputs=rename(graph.outputs),
                         stage="eliminate_common_subexpressions")
