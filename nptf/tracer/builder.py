"""The one graph under construction, held in a ContextVar while tracing."""
from __future__ import annotations

import contextvars

import numpy as np

from ..budget import current_budget
from ..errors import user_location, with_location
from ..graph_ir import OPS, Eqn, Graph, Var
from ..graph_ir.evaluate import evaluate_eqn
from ..graph_ir.ir import Literal
from ..graph_ir.walk import acts_each_run, has_effects

CURRENT_BUILDER = contextvars.ContextVar("nptf_builder", default=None)


class GraphBuilder:
    def __init__(self, parent=None):
        self.inputs = []
        self.eqns = []
        # The builder of the enclosing graph (a branch's or loop body's is the graph
        # around it): its values are visible here, this one's are not visible there.
        self.parent = parent
        self._producers = {}
        # Facts the tracer learns while it emits, by output var: index arrays known to be
        # in bounds (a mask's coordinates), and selections ``x[mask]`` as (x, mask).
        self.in_bounds = set()
        self.masked_reads = {}
        # Values known while tracing (``known_values``), by output var.
        self.known = {}
        # Vars made by the iterations of loops on values the trace knows
        # (``control_flow._known_iterations``): the function's graph reads their values
        # as literals (``build``), not the chain of equations that made them. (A branch's
        # or loop body's graph, closed by control_flow, keeps the chain.)
        self.frozen = set()

    def sees(self, other) -> bool:
        """Whether values built by ``other`` are visible in this builder's graph."""
        b = self
        while b is not None:
            if b is other:
                return True
            b = b.parent
        return False

    def producer(self, var):
        """The equation that made ``var`` in this graph or one around it (None for inputs
        and literals)."""
        b = self
        while b is not None:
            eqn = b._producers.get(var)
            if eqn is not None:
                return eqn
            b = b.parent
        return None

    @property
    def made(self):
        """``made.get(var)``: ``producer`` as a mapping (``graph_ir.affine.same_value``)."""
        return _Made(self)

    def fact(self, table, var):
        """``var``'s entry in the fact ``table`` ("in_bounds", "masked_reads", "known") of this
        graph or one around it."""
        b = self
        while b is not None:
            facts = getattr(b, table)
            if var in facts:
                return facts[var] if isinstance(facts, dict) else True
            b = b.parent
        return None

    def known_value(self, atom):
        """``atom``'s value where it is known while tracing (a literal, or a var
        ``known_values`` computed here or in a graph around this one); else None."""
        if isinstance(atom, Literal):
            return atom.value
        return self.fact("known", atom)

    def new_input(self, type) -> Var:
        v = Var(type)
        self.inputs.append(v)
        return v

    def emit(self, op_name, inputs, params=None, where=None):
        """Append ``op_name(inputs)`` and return its output vars (types from the op's rule)."""
        op = OPS[op_name]
        params = params or {}
        where = where or user_location()
        try:
            out_types = op.type_rule([a.type for a in inputs], params)
        except Exception as e:  # noqa: BLE001  (NumPy's own errors, with the user's line added)
            raise with_location(e, where) from None
        outputs = tuple(Var(t) for t in out_types)
        eqn = Eqn(op, tuple(inputs), params, outputs, where)
        self.eqns.append(eqn)
        known = known_values(eqn, [self.known_value(a) for a in inputs])
        if known is not None:
            self.known.update(zip(outputs, known))
        for v in outputs:
            self._producers[v] = eqn
        budget = current_budget()
        if budget is not None:
            budget.tick(where)
        return outputs

    def build(self, outputs) -> Graph:
        eqns, outputs = tuple(self.eqns), tuple(outputs)
        if self.frozen:
            def literal(a):
                return Literal(self.known[a], a.type) if isinstance(a, Var) and \
                    a in self.frozen else a
            eqns = tuple(e if all(v in self.frozen for v in e.outputs) else
                         e.replace(inputs=tuple(literal(a) for a in e.inputs)) for e in eqns)
            outputs = tuple(literal(a) for a in outputs)
        return Graph(tuple(self.inputs), eqns, outputs)


# Values a trace computes with NumPy where every operand is known: small ones only.
KNOWN_MAX_SIZE = 1024
_KNOWN_MAX_OPERANDS = 1 << 20
# Ops whose value is not theirs to give at trace time: graph control flow and calls (run
# by their own rules), run-time checks and prints (acts), layout marks.
_NOT_KNOWN = frozenset({"cond", "while", "call", "check", "print", "numpy_order", "dim"})


def known_values(eqn, operands):
    """``eqn``'s output values, computed now with NumPy's own rule (the value the graph
    computes, and the one NumPy gives), where ``operands`` are all known (not None) and it
    is a pure op of a small result; None where they are not known before the graph runs.
    Values known this way answer ``bool()``, ``int()`` and indexing while tracing (``if
    kernel[i, j]:`` of a constant kernel), as NumPy would; the graph keeps its equations."""
    op = eqn.op
    if any(v is None for v in operands) or op.kind == "random" or op.name in _NOT_KNOWN or \
            has_effects(eqn) or acts_each_run(eqn):
        return None
    if any(np.size(v) > _KNOWN_MAX_OPERANDS for v in operands) or \
            any(t.size is not None and t.size > KNOWN_MAX_SIZE for t in
                (v.type for v in eqn.outputs)):
        return None
    try:
        with np.errstate(all="ignore"):
            values = evaluate_eqn(eqn, list(operands))
    except Exception:       # noqa: BLE001  (the graph raises it when it runs, as NumPy)
        return None
    known = []
    for value, var in zip(values, eqn.outputs):
        t = var.type
        arr = np.asarray(value)
        if arr.ndim != len(t.shape) or arr.size > KNOWN_MAX_SIZE or \
                any(d is not None and d != n for d, n in zip(t.shape, arr.shape)):
            return None
        arr = arr.astype(t.dtype, copy=False)
        # A Python number is known as one; a weak result of a shape (``where`` of two
        # Python numbers, before its conversion) as an array.
        known.append(arr.item() if t.weak and arr.ndim == 0 else arr)
    return known


class _Made:
    __slots__ = ("builder",)

    def __init__(self, builder):
        self.builder = builder

    def get(self, var):
        return self.builder.producer(var)


def current_builder() -> GraphBuilder | None:
    return CURRENT_BUILDER.get()


class building:
    """``with building() as b:`` makes ``b`` the builder that tracers emit into."""

    def __init__(self):
        self.builder = GraphBuilder(parent=current_builder())

    def __enter__(self):
        self._token = CURRENT_BUILDER.set(self.builder)
        return self.builder

    def __exit__(self, *exc):
        CURRENT_BUILDER.reset(self._token)


class outside_trace:
    """``with outside_trace():`` NumPy is NumPy again inside a trace (TensorFlow building a
    nested function's derivative calls NumPy itself)."""

    def __enter__(self):
        self._token = CURRENT_BUILDER.set(None)

    def __exit__(self, *exc):
        CURRENT_BUILDER.reset(self._token)


__all__ = ["GraphBuilder", "building", "current_builder", "outside_trace", "Literal"]
