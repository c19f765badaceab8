"""Make NumPy's type promotion explicit: a ``convert`` before every input
whose dtype differs from the loop NumPy would run (``ufunc.resolve_dtypes``)."""
from __future__ import annotations

import numpy as np

from ..ir import Eqn, Literal, Var
from ..ops import OPS
from ..types import ArrayType
from .rewrite import PassRules, rewrite_eqns


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


def _promoted(eqn, rw):
    """The one rule, for every op: the input dtypes are the op's own (``Op.input_dtypes``)."""
    want = eqn.op.input_dtypes([a.type for a in eqn.inputs], eqn.params)
    return [eqn.replace(inputs=tuple(cast_atom(a, d, rw.add, eqn.source_info)
                                     for a, d in zip(eqn.inputs, want)))]


_PROMOTE = PassRules(default=_promoted)


def promote_dtypes(graph):
    return rewrite_eqns(graph, _PROMOTE, subgraphs=promote_dtypes).replace(stage="promote_dtypes")
