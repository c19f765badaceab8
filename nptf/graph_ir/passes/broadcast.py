"""Make broadcasting explicit: elementwise inputs get a ``broadcast_to`` to
the output shape, so the strict verifier sees equal shapes everywhere."""
from __future__ import annotations

from ..ir import Eqn, Var, map_subgraphs
from ..ops import OPS
from ..types import ArrayType


def broadcast_operands(graph):
    eqns = []
    for eqn in graph.eqns:
        eqn = map_subgraphs(eqn, broadcast_operands)
        if eqn.op.kind == "elementwise" and eqn.outputs:
            shape = eqn.outputs[0].type.shape
            inputs = []
            for a in eqn.inputs:
                if a.type.shape != shape:
                    out = Var(ArrayType(shape, a.type.dtype))
                    eqns.append(Eqn(OPS["broadcast_to"], (a,), {"shape": shape}, (out,),
                                    eqn.source_info))
                    a = out
                inputs.append(a)
            eqn = eqn.replace(inputs=tuple(inputs))
        eqns.append(eqn)
    return graph.replace(eqns=tuple(eqns), stage="broadcast_operands")
