"""Which of a graph's equations TensorFlow cannot differentiate.

TensorFlow gives no gradient through some ops nptf's lowering uses
(``tf.numpy_function`` for NumPy's own partitions, ops without a registered
gradient), and an IR op may read floats as integers (``ndarray.view``): where such
an op lies between a differentiated input and the output, ``tape.gradient`` would
quietly treat it as a constant. So every equation on that path is lowered alone,
once per (op, input types, params), and the TensorFlow ops it makes are looked up
in TensorFlow's gradient registry.
"""
from __future__ import annotations

import tensorflow as tf
from tensorflow.python.framework import ops as tf_ops

from ..graph_ir.ir import Graph, Var
from ..graph_ir.walk import all_eqns
from .lower import run_graph

_CACHE: dict = {}


def _inexact(t):
    return t.dtype.is_floating or t.dtype.is_complex


def _ungradable(op):
    """Whether TensorFlow has no gradient for ``op``, a function of floats to floats."""
    if not any(_inexact(t) for t in op.inputs) or not any(_inexact(t) for t in op.outputs):
        return False
    try:
        return tf_ops.get_gradient_function(op) is None
    except LookupError:
        return True


def _subgraphs(eqn):
    for v in eqn.params.values():
        for g in (v if isinstance(v, tuple) else (v,)):
            if isinstance(g, Graph):
                yield g


def _alone(eqn):
    """The TensorFlow op type without a gradient that ``eqn`` lowers to, or None."""
    try:
        key = (eqn.op.name, tuple(a.type for a in eqn.inputs), repr(sorted(eqn.params.items())))
    except TypeError:
        key = None
    if key in _CACHE:
        return _CACHE[key]
    inputs = tuple(dict.fromkeys(a for a in eqn.inputs if isinstance(a, Var)))
    mini = Graph(inputs=inputs, eqns=(eqn,), outputs=tuple(eqn.outputs))
    found = None
    with tf.Graph().as_default() as g:
        args = [tf.compat.v1.placeholder(tf.as_dtype(v.type.dtype), list(v.type.shape))
                for v in inputs]
        outs = run_graph(mini, args, [])
        for op in _differentiated(outs):
            if op.type != "Placeholder" and _ungradable(op):
                found = op.type
                break
    if key is not None:
        _CACHE[key] = found
    return found


def _differentiated(outputs):
    """The TensorFlow ops a derivative of ``outputs`` goes through: all those they are
    computed from, but past a ``tf.stop_gradient`` (a value taken as it is, such as
    NumPy's own eigenvectors beside TensorFlow's differentiated ones)."""
    seen, stack = [], [t.op for t in tf.nest.flatten(outputs) if isinstance(t, tf.Tensor)]
    ids = set()
    while stack:
        op = stack.pop()
        if id(op) in ids or op.type == "StopGradient":
            continue
        ids.add(id(op))
        seen.append(op)
        stack.extend(t.op for t in op.inputs)
    return seen


def _float(atom):
    return atom.type.dtype.kind in "fc"


def missing_gradients(graph, wrt, targets):
    """``[(eqn, why)]`` for the equations between the inputs ``wrt`` and the outputs
    ``targets`` of ``graph`` that TensorFlow cannot differentiate (``why``: the
    TensorFlow op without a gradient, or the IR op's own ``no_gradient``). Only floats
    carry a derivative; a loop's or branch's body on the path is checked whole."""
    forward = set(wrt)
    on_path = []
    for eqn in graph.eqns:
        if any(isinstance(a, Var) and a in forward for a in eqn.inputs):
            forward.update(v for v in eqn.outputs if _float(v) or eqn.op.no_gradient)
            on_path.append(eqn)
    backward = {t for t in targets if isinstance(t, Var)}
    found = []
    for eqn in reversed(on_path):
        if not backward.intersection(eqn.outputs):
            continue
        backward.update(a for a in eqn.inputs if isinstance(a, Var))
        inner = list(_subgraphs(eqn))
        for e in ([e for sub in inner for e in all_eqns(sub) if not list(_subgraphs(e))]
                  if inner else [eqn]):
            why = _why(e)
            if why:
                found.append((e, why))
    return found[::-1]


def _why(eqn):
    if eqn.op.no_gradient and any(_float(a) for a in eqn.inputs):
        return eqn.op.no_gradient
    if not any(_float(v) for v in eqn.outputs):
        return None
    tf_op = _alone(eqn)
    return tf_op and f"its lowering uses {tf_op}, which has none"
