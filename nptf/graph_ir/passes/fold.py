"""Constant folding and algebraic simplification.

``fold_constants`` computes, with NumPy itself, every small elementwise or
``convert`` equation whose inputs are all literals, so the graph carries the
value instead of the work (``convert 0:i64`` from ``y[mask] = 0`` becomes
``0.0:f32``).

``simplify_algebra`` rewrites a few patterns into cheaper equal ones, where
"equal" means what NumPy itself would compute or within one rounding of it:

* ``power(x, 2)`` is ``multiply(x, x)`` (NumPy's own fast path for ``x**2``;
  bit-identical) and ``power(x, 3)`` is ``x*x*x`` (one extra rounding): a
  general ``pow`` kernel costs several times a multiply.

Float arithmetic is never regrouped: ``(x * 1e200) * 1e-200`` is inf where
``x * (1e200 * 1e-200)`` is x, and ``(x - 1e17) + 1.0`` differs from
``x + (1.0 - 1e17)`` by a whole unit.
"""
from __future__ import annotations

import numpy as np

from ..evaluate import evaluate_eqn
from ..ir import Eqn, Literal, Var
from ..ops import OPS
from ..types import ArrayType
from .rewrite import PassRules, rewrite_eqns

_FOLD_MAX_SIZE = 64          # bigger results stay computed: no large constants in graphs


def is_foldable(eqn):
    """Whether ``eqn`` is an elementwise op (``convert`` included) of literals only, with
    a small result of known shape."""
    if eqn.op.kind != "elementwise":
        return False
    if not eqn.inputs or not all(isinstance(a, Literal) for a in eqn.inputs):
        return False
    return all(v.type.shape.count(None) == 0 and int(np.prod(v.type.shape)) <= _FOLD_MAX_SIZE
               for v in eqn.outputs)


def as_literal(value, var):
    arr = np.asarray(value).astype(var.type.dtype, copy=False)
    if arr.shape != tuple(var.type.shape):
        return None
    return Literal(arr.item() if var.type.weak else arr, var.type)


def folded(eqn, rw):
    """The rule that computes a foldable equation with NumPy: its outputs read as
    literals from here on (None: it stays)."""
    if not is_foldable(eqn):
        return None
    with np.errstate(all="ignore"):
        values = evaluate_eqn(eqn, [a.value for a in eqn.inputs])
    literals = [as_literal(v, var) for v, var in zip(values, eqn.outputs)]
    if any(f is None for f in literals):
        return None
    rw.rename(eqn.outputs, literals)
    return []


_FOLD = PassRules(default=folded)


def fold_constants(graph):
    return rewrite_eqns(graph, _FOLD, subgraphs=fold_constants).replace(stage="fold_constants")


def _scalar_literal(atom):
    if isinstance(atom, Literal) and atom.type.shape == ():
        return np.asarray(atom.value).item()
    return None


# ``simplify_algebra``'s rules; ``rw.state``: {arange output: its equation}.
_SIMPLIFY = PassRules()


@_SIMPLIFY.register("power")
def _power_as_products(eqn, rw):
    x, exponent = eqn.inputs
    k = _scalar_literal(exponent)
    if k not in (2, 3) or not isinstance(x, Var) or x.type.dtype.kind not in "iuf":
        return None
    out = eqn.outputs[0]
    if k == 2:
        return [Eqn(OPS["multiply"], (x, x), {}, (out,), eqn.source_info)]
    square = Var(out.type)
    return [Eqn(OPS["multiply"], (x, x), {}, (square,), eqn.source_info),
            Eqn(OPS["multiply"], (square, x), {}, (out,), eqn.source_info)]


@_SIMPLIFY.register("arange")
def _note_arange(eqn, rw):
    if len(eqn.outputs[0].type.shape) == 1:
        rw.state[eqn.outputs[0]] = eqn
    return None


@_SIMPLIFY.register("gather_nd")
def _gather_from_arange(eqn, rw):
    """``arange(n)[idx]`` (a gather_nd from an integer arange) is ``start + step * idx``:
    the index is in bounds by construction (the tracer checks it), so the arange, often
    as large as an array (positions of a write at traced indices), is never built."""
    source, idx = eqn.inputs
    made = rw.state.get(source)
    out = eqn.outputs[0]
    if made is None or idx.type.shape[-1:] != (1,) or out.type.dtype != idx.type.dtype or \
            made.params["dtype"] != out.type.dtype:
        return None
    start, step = made.params["start"], made.params["step"]
    if not all(isinstance(v, (int, np.integer)) for v in (start, step)):
        return None
    dtype = out.type.dtype
    steps = [(OPS["reshape"], {"shape": out.type.shape}, None)]
    if step != 1:
        steps.append((OPS["multiply"], {}, Literal(np.asarray(step, dtype), ArrayType((), dtype))))
    if start != 0:
        steps.append((OPS["add"], {}, Literal(np.asarray(start, dtype), ArrayType((), dtype))))
    eqns, value = [], idx
    for i, (op, params, literal) in enumerate(steps):
        result = out if i == len(steps) - 1 else Var(ArrayType(out.type.shape, dtype))
        inputs = (value,) if literal is None else (value, literal)
        eqns.append(Eqn(op, inputs, params, (result,), eqn.source_info))
        value = result
    return eqns


def simplify_algebra(graph):
    return rewrite_eqns(graph, _SIMPLIFY, subgraphs=simplify_algebra,
                        state={}).replace(stage="simplify_algebra")
