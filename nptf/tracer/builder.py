"""The one graph under construction, held in a ContextVar while tracing."""
from __future__ import annotations

import contextvars

from ..budget import current_budget
from ..errors import user_location, with_location
from ..graph_ir import OPS, Eqn, Graph, Var
from ..graph_ir.ir import Literal

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
        """``var``'s entry in the fact ``table`` ("in_bounds", "masked_reads") of this
        graph or one around it."""
        b = self
        while b is not None:
            facts = getattr(b, table)
            if var in facts:
                return facts[var] if isinstance(facts, dict) else True
            b = b.parent
        return None

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
        for v in outputs:
            self._producers[v] = eqn
        budget = current_budget()
        if budget is not None:
            budget.tick(where)
        return outputs

    def build(self, outputs) -> Graph:
        return Graph(tuple(self.inputs), tuple(self.eqns), tuple(outputs))


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
