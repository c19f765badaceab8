"""Make NumPy's type promotion explicit: a ``convert`` before every input
whose dtype differs from the loop NumPy would run (``ufunc.resolve_dtypes``)."""
from __future__ import annotations

import numpy as np

from ..ir import Eqn, Literal, Var, map_subgraphs
from ..ops import OPS
from ..types import ArrayType


def cast_atom(atom, dtype, emit, source_info=""):
    """``atom`` as ``dtype``: literals are cast now, vars through a ``convert`` equation."""
    dtype = np.dtype(dtype)
    if atom.type.dtype == dtype and not atom.type.weak:
        return atom
    if isinstance(atom, Literal):
        with np.errstate(all="ignore"):
            value = np.asarray(atom.value).astype(dtype)
        return Literal(value, ArrayType(value.shape, dtype))
    if atom.type.dtype == dtype:
        return atom
    out = Var(ArrayType(atom.type.shape, dtype))
    emit(Eqn(OPS["convert"], (atom,), {"dtype": dtype}, (out,), source_info))
    return out


def promote_dtypes(graph):
    eqns = []
    for eqn in graph.eqns:
        eqn = map_subgraphs(eqn, promote_dtypes)
        in_types = [a.type for a in eqn.inputs]
        want = eqn.op.input_dtypes(in_types, eqn.params)
        inputs = tuple(cast_atom(a, d, eqns.append, eqn.source_info) for a, d in zip(eqn.inputs, want))
        eqns.append(eqn.replace(inputs=inputs))
    return graph.replace(eqns=tuple(eqns), stage="promote_dtypes")
