"""The IR: ``Var``, ``Literal``, ``Eqn``, ``Graph`` (after JAX's jaxprs).

A graph is a list of equations in SSA form. Each equation applies one ``Op``
to input atoms (vars or literals) with static ``params`` and defines fresh
output vars. ``source_info`` is the user's ``file:line`` that produced it.
A graph prints as jaxpr-like text (``format_graph``).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from .types import ArrayType, short_dtype

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


def _names():
    letters = "abcdefghijklmnopqrstuvwxyz"
    n = 0
    while True:
        q, r = divmod(n, 26)
        yield letters[r] + ("" if q == 0 else str(q))
        n += 1


class _Printer:
    def __init__(self, show_source):
        self.names, self.fresh, self.show_source = {}, _names(), show_source

    def name(self, atom, with_type=False):
        if isinstance(atom, Literal):
            v = atom.value
            if np.ndim(v) == 0:
                return f"{np.asarray(v).item()!r}:{atom.type}"
            return f"const:{atom.type}"
        if atom not in self.names:
            self.names[atom] = next(self.fresh)
        return f"{self.names[atom]}:{atom.type}" if with_type else self.names[atom]

    def param(self, v, indent):
        if isinstance(v, Graph):
            return "\n" + self.graph(v, indent + 8)
        if isinstance(v, tuple) and v and all(isinstance(g, Graph) for g in v):
            return "(" + ",".join("\n" + self.graph(g, indent + 8) for g in v) + ")"
        if isinstance(v, (np.dtype, type)):
            return short_dtype(v)
        return repr(v)

    def graph(self, graph, indent=0):
        pad = " " * indent
        head = " ".join(self.name(v, True) for v in graph.inputs)
        lines = []
        for eqn in graph.eqns:
            outs = " ".join(self.name(v, True) for v in eqn.outputs)
            params = ", ".join(f"{k}={self.param(v, indent)}" for k, v in eqn.params.items())
            args = " ".join(self.name(a) for a in eqn.inputs)
            line = f"{outs} = {eqn.op.name}{'[' + params + ']' if params else ''} {args}".rstrip()
            if self.show_source and eqn.source_info:
                line += f"    # {eqn.source_info}"
            lines.append(line)
        outs = ", ".join(self.name(a) for a in graph.outputs)
        if not lines:
            return f"{pad}{{ lambda {head} . ({outs}) }}"
        body = f"\n{pad}      ".join(lines)
        return f"{pad}{{ lambda {head} .\n{pad}  let {body}\n{pad}  in ({outs}) }}"


def format_graph(graph, show_source=False) -> str:
    """jaxpr-like text for a Graph: one equation a line, every var with its type.

    Sub-graphs (cond branches, loop bodies) print nested under their equation,
    sharing the variable names of the enclosing graph."""
    return _Printer(show_source).graph(graph)
