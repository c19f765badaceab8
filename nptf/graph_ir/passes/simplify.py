"""Simplifications that never change a result: dead code and repeated work."""
from __future__ import annotations

import numpy as np

from ..ir import Literal, Var, map_subgraphs


def eliminate_dead_code(graph):
    live = {a for a in graph.outputs if isinstance(a, Var)}
    kept = []
    for eqn in reversed(graph.eqns):
        if any(v in live for v in eqn.outputs) or eqn.op.name == "while":
            eqn = map_subgraphs(eqn, eliminate_dead_code)
            kept.append(eqn)
            live.update(a for a in eqn.inputs if isinstance(a, Var))
    return graph.replace(eqns=tuple(reversed(kept)), stage="eliminate_dead_code")


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
    seen, rename, eqns = {}, {}, []
    for eqn in graph.eqns:
        inputs = tuple(rename.get(a, a) if isinstance(a, Var) else a for a in eqn.inputs)
        eqn = map_subgraphs(eqn.replace(inputs=inputs), eliminate_common_subexpressions)
        try:
            key = (eqn.op.name, tuple(_key_of_atom(a, rename) for a in inputs), _freeze(eqn.params))
            hash(key)
        except TypeError:
            key = None
        if key is not None and key in seen:
            for old, new in zip(eqn.outputs, seen[key].outputs):
                rename[old] = new
            continue
        if key is not None:
            seen[key] = eqn
        eqns.append(eqn)
    outputs = tuple(rename.get(a, a) if isinstance(a, Var) else a for a in graph.outputs)
    return graph.replace(eqns=tuple(eqns), outputs=outputs, stage="eliminate_common_subexpressions")
