"""Graph checks: SSA form, types agree with each op's type rule.

``strict=True`` is the contract after the passes: every op sees exactly the
dtypes NumPy's loop would use and elementwise ops see equal shapes, so each
lowering rule can be a one-liner with no implicit promotion or broadcasting.
"""
from __future__ import annotations

from .ir import Literal, Var


class VerifyError(AssertionError):
    pass


def verify(graph, strict: bool = False):
    defined = set()
    for v in graph.inputs:
        _check_var(v, defined, "input")
        defined.add(v)
    for i, eqn in enumerate(graph.eqns):
        where = f"equation {i} ({eqn.op.name}, {eqn.source_info})"
        for a in eqn.inputs:
            if isinstance(a, Var) and a not in defined:
                raise VerifyError(f"{where}: uses a var before it is defined")
            if not isinstance(a, (Var, Literal)):
                raise VerifyError(f"{where}: input {a!r} is not an atom")
        in_types = [a.type for a in eqn.inputs]
        try:
            expected = eqn.op.type_rule(in_types, eqn.params)
        except Exception as e:  # noqa: BLE001  (report any rule failure as a verify failure)
            raise VerifyError(f"{where}: type rule failed: {e}") from e
        got = [v.type for v in eqn.outputs]
        if [(t.shape, t.dtype) for t in expected] != [(t.shape, t.dtype) for t in got]:
            raise VerifyError(f"{where}: outputs {[str(t) for t in got]} but the rule says "
                              f"{[str(t) for t in expected]}")
        if strict:
            _check_strict(eqn, in_types, where)
        for v in eqn.outputs:
            _check_var(v, defined, where)
            defined.add(v)
    for a in graph.outputs:
        if isinstance(a, Var) and a not in defined:
            raise VerifyError("graph output is not defined")
    return graph


def _check_var(v, defined, where):
    if not isinstance(v, Var):
        raise VerifyError(f"{where}: defines {v!r}, which is not a Var")
    if v in defined:
        raise VerifyError(f"{where}: defines {v!r} twice")


def _check_strict(eqn, in_types, where):
    want = eqn.op.input_dtypes(in_types, eqn.params)
    got = [t.dtype for t in in_types]
    if want != got:
        raise VerifyError(f"{where}: inputs have dtypes {got}, the op computes in {want}")
    if eqn.op.kind == "elementwise":
        shape = eqn.outputs[0].type.shape
        if any(t.shape != shape for t in in_types):
            raise VerifyError(f"{where}: elementwise inputs {[t.shape for t in in_types]} "
                              f"differ from the output shape {shape}")
