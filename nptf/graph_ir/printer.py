"""jaxpr-like text for a Graph: one equation a line, every var with its type.

Sub-graphs (cond branches, loop bodies) print nested under their equation,
sharing the variable names of the enclosing graph.
"""
from __future__ import annotations

import numpy as np

from .ir import Graph, Literal
from .types import short_dtype


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
    return _Printer(show_source).graph(graph)
