"""``nptf.explain(f, *args)``: what a call compiles to, and why."""
from __future__ import annotations

from dataclasses import dataclass



@dataclass
class Explanation:
    function: str
    compiled: bool
    reason: str            # why it falls back to NumPy, or how it is compiled
    xla: bool
    xla_reason: str
    traced: object         # Graph before the passes (None on fallback)
    optimized: object      # Graph after the passes
    tf_ops: int            # op count of the TensorFlow graph

    def __str__(self):
        lines = [f"nptf.explain: {self.function}"]
        if not self.compiled:
            lines.append(f"  falls back to NumPy: {self.reason}")
            return "\n".join(lines)
        lines.append(f"  compiled: {len(self.optimized.eqns)} IR equations, "
                     f"{self.tf_ops} TensorFlow ops")
        lines.append(f"  XLA: {'on' if self.xla else 'off'} ({self.xla_reason})")
        lines.append("  traced IR:\n    " + str(self.traced).replace("\n", "\n    "))
        lines.append("  after the passes:\n    " + str(self.optimized).replace("\n", "\n    "))
        return "\n".join(lines)


def explain(f, *args, **kwargs) -> Explanation:
    """Report how ``f`` (a plain function or an ``nptf.compile``d one) handles these arguments."""
    from .compiled import Compiled
    from .entry import compiled_of
    compiled = compiled_of(f) or Compiled(f)
    entry = compiled.entry_for(*args, **kwargs)
    name = getattr(compiled.fn, "__qualname__", repr(compiled.fn))
    if entry.fallback_reason is not None:
        return Explanation(name, False, entry.fallback_reason, False, "", None, None, 0)
    graph_def = entry.concrete.graph.as_graph_def()
    n_ops = len(graph_def.node) + sum(len(fn.node_def) for fn in graph_def.library.function)
    return Explanation(name, True, "compiled", entry.xla, entry.xla_reason, entry.traced.graph,
                       entry.graph, n_ops)


__all__ = ["explain", "Explanation"]
