"""The IR: ``Var``, ``Literal``, ``Eqn``, ``Graph`` (after JAX's jaxprs).

A graph is a list of equations in SSA form. Each equation applies one ``Op``
to input atoms (vars or literals) with static ``params`` and defines fresh
output vars. ``source_info`` is the user's ``file:line`` that produced it.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from .types import ArrayType

_ids = itertools.count()


class Var:
    """A value defined exactly once in a graph."""

    __slots__ = ("type", "id")

    def __init__(self, type: ArrayType):
        self.type = type
        self.id = next(_ids)

    def __repr__(self):
        return f"Var({self.id}:{self.type})"


@dataclass(frozen=True, eq=False)
class Literal:
    """A constant operand: a Python scalar (weak) or a NumPy array/scalar."""

    value: object
    type: ArrayType

    def __repr__(self):
        return f"Literal({self.value!r}:{self.type})"


Atom = Var | Literal


@dataclass(frozen=True, eq=False)
class Eqn:
    op: "Op"  # noqa: F821  (graph_ir.ops.Op)
    inputs: tuple
    params: dict
    outputs: tuple
    source_info: str = ""

    def replace(self, **changes) -> "Eqn":
        fields = dict(op=self.op, inputs=self.inputs, params=self.params,
                      outputs=self.outputs, source_info=self.source_info)
        fields.update(changes)
        return Eqn(**fields)


@dataclass(frozen=True, eq=False)
class Graph:
    inputs: tuple
    eqns: tuple
    outputs: tuple
    stage: str = "traced"
    meta: dict = field(default_factory=dict)

    def replace(self, **changes) -> "Graph":
        fields = dict(inputs=self.inputs, eqns=self.eqns, outputs=self.outputs,
                      stage=self.stage, meta=self.meta)
        fields.update(changes)
        return Graph(**fields)

    def __str__(self):
        from .printer import format_graph
        return format_graph(self)

    __repr__ = __str__


def literal(value, type: ArrayType | None = None) -> Literal:
    if type is None:
        arr = np.asarray(value)
        type = ArrayType(arr.shape, arr.dtype)
        value = arr
    return Literal(value, type)


def map_subgraphs(eqn: Eqn, fn) -> Eqn:
    """``eqn`` with ``fn`` applied to every sub-graph in its params (cond branches, loop bodies)."""
    changed = {}
    for k, v in eqn.params.items():
        if isinstance(v, Graph):
            changed[k] = fn(v)
        elif isinstance(v, tuple) and v and all(isinstance(g, Graph) for g in v):
            changed[k] = tuple(fn(g) for g in v)
    return eqn.replace(params={**eqn.params, **changed}) if changed else eqn
