"""Sine and cosine of arguments known to lie in [-1, 1] (or be NaN).

Under XLA, ``sin``/``cos`` are fdlibm's algorithm as vectorizable arithmetic
(``lowering/trig.py``), exact for arguments up to 1.6e6; a ``cond`` on the
whole array sends larger ones to TensorFlow's kernel. In a loop that is a
reduction and a branch every iteration: about 1 us of the 8 us each step of
``x = np.cos(x)`` on 1,000 values takes (by hand). Yet after its first step
the loop only ever takes the cosine of a cosine.

``bound_trig_arguments`` marks the ``sin``/``cos`` equations whose argument is
the output of a ``sin``, ``cos`` or ``tanh`` (finite values within [-1, 1],
NaN otherwise), or a loop-carried value that starts as one and that every
iteration replaces by one, with ``unit_argument=True``; the lowering then
skips the branch. Only these proven facts are used.
"""
from __future__ import annotations

from ..ir import Var
from ..ops import OPS
from .rewrite import PassRules, rewrite_eqns

# Ops whose real outputs lie within [-1, 1], or are NaN.
_UNIT_RANGE = frozenset(OPS[name] for name in ("sin", "cos", "tanh"))


def _noted(eqn, rw):
    if _in_unit_range(eqn):
        rw.state.update(eqn.outputs)
    return [eqn]


# ``bound_trig_arguments``'s rules; ``rw.state``: the vars known to lie in [-1, 1] or be NaN.
_TRIG = PassRules(default=_noted)


@_TRIG.register("sin", "cos")
def _marked(eqn, rw):
    if isinstance(eqn.inputs[0], Var) and eqn.inputs[0] in rw.state and \
            not eqn.params.get("unit_argument"):
        eqn = eqn.replace(params={**eqn.params, "unit_argument": True})
    return _noted(eqn, rw)


@_TRIG.register("while", subgraphs=True)
def _while(eqn, rw):
    return _noted(_bound_loop(eqn, rw.state), rw)


def bound_trig_arguments(graph, unit=frozenset()):
    """``graph`` with ``unit_argument=True`` on each ``sin``/``cos`` whose argument is known to
    lie in [-1, 1] or be NaN; ``unit``: inputs of ``graph`` known to."""
    return rewrite_eqns(graph, _TRIG, subgraphs=bound_trig_arguments,
                        state=set(unit)).replace(stage="bound_trig_arguments")


def _in_unit_range(eqn):
    return eqn.op in _UNIT_RANGE and eqn.outputs[0].type.dtype.kind == "f"


def _bound_loop(eqn, unit):
    """The loop with its body and condition marked; adds its final values known to lie in
    [-1, 1] to ``unit``. A carried value qualifies when it starts in range and the body
    returns one in range given the others that qualify (the largest such set)."""
    n = eqn.params["n_carried"]
    body, cond = eqn.params["body"], eqn.params["cond"]
    known = {i for i, a in enumerate(eqn.inputs) if isinstance(a, Var) and a in unit}
    while True:
        inside = _unit_vars(body, {body.inputs[i] for i in known})
        kept = {i for i in known if i >= n or body.outputs[i] in inside}
        if kept == known:
            break
        known = kept
    params = dict(eqn.params,
                  body=bound_trig_arguments(body, {body.inputs[i] for i in known}),
                  cond=bound_trig_arguments(cond, {cond.inputs[i] for i in known}))
    unit.update(eqn.outputs[i] for i in known if i < n)
    return eqn.replace(params=params)


def _unit_vars(graph, unit):
    """The vars of ``graph`` known to lie in [-1, 1] or be NaN, given its inputs ``unit``."""
    unit = set(unit)
    for e in graph.eqns:
        if _in_unit_range(e):
            unit.update(e.outputs)
    return unit


__all__ = ["bound_trig_arguments"]
