"""What the transforms share when called inside another function's trace: the traced
function's graph closed over the caller's arrays, and the eager run of a ``call`` op's
callee (graph_ir/ops_calls.py)."""
from __future__ import annotations

import tensorflow as tf

from ..graph_ir.ops_checks import check_error
from ..graph_ir.passes import DIFFERENTIABLE_PIPELINE
from ..graph_ir.walk import free_vars
from ..lowering import checked_runner


def closed_graph(traced):
    """``(graph, captured)``: ``traced``'s graph optimized, with the calling trace's arrays
    it reads (``captured``, none outside a trace) as its last inputs."""
    graph = traced.graph
    captured = free_vars(graph)
    graph = graph.replace(inputs=graph.inputs + tuple(captured))
    for p in DIFFERENTIABLE_PIPELINE:
        graph = p(graph)
    return graph, captured


def evaluate_callee(callee, graph, values):
    """A ``call`` op's outputs for NumPy ``values``, run eagerly; a failed run-time check
    raises NumPy's error."""
    outs, checks = callee.tensors(checked_runner(graph),
                                  [tf.convert_to_tensor(v) for v in values])
    for ok, error, message in checks:
        if not bool(ok):
            raise check_error(error, message)
    return [t.numpy() for t in outs]
