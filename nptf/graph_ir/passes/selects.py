"""Small ``cond`` equations computed on both paths and chosen with ``where``.

An `if` on a traced value in an unrolled loop (a dynamic-programming table of Python
lists, a count per class) traces as one ``cond`` per iteration, each with a few scalar
operations per branch. TensorFlow builds two function graphs for every ``cond`` (about
30 ms each) and calls one per run; computing both branches and choosing costs a few
elementwise operations instead:

    o = cond(p, a){ f(a) | g(a) }   ->   x = f(a);  y = g(a);  o = where(p, y, x)

Only branches that cannot fail, warn or act where NumPy would not run them are merged:
elementwise operations that do none of that (sums, products, comparisons, minimum and
maximum, not divisions or logarithms), reshapes, static slices and reductions of static
shapes, reads at traced positions (at positions clipped into the array where their
branch is not taken), and checks, which then pass wherever their branch is not taken. Sizes are bounded so that the work
of the branch not taken stays small. Derivatives keep the ``cond``: the gradient of a
``where`` multiplies the branch not taken by zero, and a non-finite derivative there
(``np.sqrt`` of a negative number) would make the result NaN.
"""
from __future__ import annotations

import math

import numpy as np

from ..ir import Eqn, Literal, Var
from ..ops import OPS, OpTable
from ..types import ArrayType
from .rename import Renamer
from .rewrite import PassRules, rewrite_eqns

# Elements the branches of one ``cond`` may compute in all (the work of the path not
# taken is at most this).
_MAX_ELEMENTS = 1024

_STRUCTURAL = frozenset({"broadcast_to", "reshape", "slice", "transpose", "copy", "real",
                         "imag", "concatenate", "full", "full_like", "reduce_sum",
                         "reduce_prod", "reduce_all", "reduce_any"})

_BOOL = ArrayType((), np.dtype(np.bool_))


_SELECT = PassRules()


def select_small_branches(graph):
    return rewrite_eqns(graph, _SELECT, subgraphs=select_small_branches)


# Elementwise operations that neither fail nor warn on operands a path not taken would
# give them: NumPy's run of the graph (adaptive dispatch's NumPy program) computes both
# paths, and ``np.log`` of the other path's negative number would print NumPy's
# "invalid value" warning where the function's own run prints none.
_QUIET = frozenset({"add", "subtract", "multiply", "negative", "positive", "absolute",
                    "minimum", "maximum", "fmin", "fmax", "sign", "copysign", "floor",
                    "ceil", "rint", "trunc", "equal", "not_equal", "less", "less_equal",
                    "greater", "greater_equal", "logical_and", "logical_or", "logical_not",
                    "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "invert",
                    "isnan", "isinf", "isfinite", "signbit", "where", "square"})


# Op -> whether an equation of it may run on the path not taken (no entry: never).
_SAFE = OpTable()


def _quiet(eqn):
    return not (eqn.op.may_raise_on_ints and any(a.type.dtype.kind in "iub" for a in eqn.inputs))


_SAFE.update({name: _quiet for name in _QUIET})
_SAFE.update({name: lambda eqn: True for name in _STRUCTURAL})
# A check's condition is or-ed with the branch's not being taken: one bool.
_SAFE["check"] = lambda eqn: eqn.inputs[1].type.shape == ()
# Not a float's NaN or infinity to an integer (NumPy warns of the cast).
_SAFE["convert"] = lambda eqn: eqn.inputs[0].type.dtype.kind in "biu" or \
    eqn.outputs[0].type.dtype.kind in "fc"
# A read at traced positions of an array of known shape (``grid[ny, nx]`` after
# ``0 <= ny < H and ...``): the tracer checks the positions wherever the read runs, so on
# the path not taken it reads at the positions clipped into the array instead.
_SAFE["gather_nd"] = lambda eqn: None not in eqn.inputs[0].type.shape and \
    None not in eqn.inputs[1].type.shape and eqn.inputs[1].type.dtype.kind in "iu" and \
    0 not in eqn.inputs[0].type.shape[:eqn.inputs[1].type.shape[-1]]


def _safe(eqn):
    rule = _SAFE.get(eqn.op)
    return rule is not None and rule(eqn)


def _selectable(eqn):
    if eqn.op.name != "cond" or len(eqn.params["branches"]) != 2 or \
            eqn.inputs[0].type.dtype != np.bool_ or eqn.inputs[0].type.shape != ():
        return False
    if any(None in v.type.shape for v in eqn.outputs):
        return False
    for branch in eqn.params["branches"]:
        # ``where`` broadcasts: each path must give exactly the result's shape.
        if any(tuple(a.type.shape) != tuple(v.type.shape)
               for a, v in zip(branch.outputs, eqn.outputs)):
            return False
    elements = 0
    for branch in eqn.params["branches"]:
        for e in branch.eqns:
            if not _safe(e):
                return False
            for v in e.outputs:
                if None in v.type.shape:
                    return False
                elements += math.prod(v.type.shape)
    return elements <= _MAX_ELEMENTS


def _inlined(branch, operands, skipped, eqns):
    """``branch``'s equations on ``operands``, appended to ``eqns``; its checks pass where
    ``skipped`` (the branch is not taken). Returns its outputs."""
    rename = Renamer(zip(branch.inputs, operands))
    for e in branch.eqns:
        inputs = rename(e.inputs)
        if e.op.name == "gather_nd":
            inputs = (inputs[0], _clipped(inputs[1], inputs[0].type.shape, e, eqns))
        if e.op.name == "check":
            ok = Var(ArrayType(inputs[1].type.shape, np.dtype(np.bool_)))
            eqns.append(Eqn(OPS["logical_or"], (inputs[1], skipped), {}, (ok,), e.source_info))
            inputs = (inputs[0], ok) + inputs[2:]
        eqns.append(rename.copy(e, inputs))
    return rename(branch.outputs)


def _clipped(index, shape, eqn, eqns):
    """``index`` (positions along the first axes of ``shape``) clipped into them."""
    k = index.type.shape[-1]
    top = np.array([d - 1 for d in shape[:k]], index.type.dtype)
    low = Var(index.type)
    high = Var(index.type)
    eqns.append(Eqn(OPS["maximum"], (index, Literal(np.zeros((), index.type.dtype), ArrayType(
        (), index.type.dtype))), {}, (low,), eqn.source_info))
    eqns.append(Eqn(OPS["minimum"], (low, Literal(top, ArrayType((k,), index.type.dtype))), {},
                    (high,), eqn.source_info))
    return high


@_SELECT.register("cond")
def _select(eqn, rw):
    return _selected(eqn) if _selectable(eqn) else None


def _selected(eqn):
    pred, operands = eqn.inputs[0], eqn.inputs[1:]
    on_false, on_true = eqn.params["branches"]
    not_pred = Var(_BOOL)
    eqns = [Eqn(OPS["logical_not"], (pred,), {}, (not_pred,), eqn.source_info)]
    false_outs = _inlined(on_false, operands, pred, eqns)
    true_outs = _inlined(on_true, operands, not_pred, eqns)
    for out, t, f in zip(eqn.outputs, true_outs, false_outs):
        eqns.append(Eqn(OPS["where"], (pred, t, f), {}, (out,), eqn.source_info))
    return eqns
