"""``call``: a function nptf derives from a traced one (its derivative, its batched
form) called from inside a graph, as ``nptf.grad(loss)(w, x, y)`` in a compiled
training step.

``params["graph"]`` is the traced function's own graph, closed: the values it reads of
the calling graph are its last inputs. ``params["callee"]`` derives the result from
that graph; graph_ir never sees TensorFlow, so the callee is the runtime's object with

- ``name``: the call as the user wrote it (``nptf.grad(loss)``), for messages;
- ``out_types``: the types of the op's outputs;
- ``tensors(run, xs)``: ``(output tensors, run-time checks)`` of input tensors
  ``xs``, where ``run(*tensors)`` builds the graph: ``(its outputs, its checks)``;
- ``evaluate(graph, xs)``: the outputs for NumPy values ``xs``.
"""
from __future__ import annotations

from .evaluate import EVAL_RULES
from .ops import declare, register


@register("call")
def _call(ts, params):
    return list(params["callee"].out_types)


declare("call", numpy_name=lambda params: params["callee"].name)
EVAL_RULES["call"] = lambda p, *xs: tuple(p["callee"].evaluate(p["graph"], xs))
declare("call", fp_flags=False)     # the callee's equations are checked
