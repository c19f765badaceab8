"""TF_RULES for ``cond`` and ``while``: ``tf.cond`` and ``tf.while_loop`` over lowered sub-graphs.

Run-time checks inside a branch or a loop body cannot leave their TensorFlow
control-flow context as they are; they come out as extra boolean outputs
(a branch reports True for checks of the other branch; a loop carries the
conjunction of its checks across iterations).
"""
from __future__ import annotations

import tensorflow as tf

from ..graph_ir.ops_control import count_checks
from .rules import rule


def _flags(checks, total, offset):
    oks = [ok for ok, _, _ in checks]
    return [tf.constant(True)] * offset + oks + [tf.constant(True)] * (total - offset - len(oks))


@rule("cond")
def _cond(ctx, pred, *operands, branches):
    counts = [count_checks(g) for g in branches]
    total = sum(counts)

    def branch(i):
        def fn():
            checks = []
            outs = ctx.run_subgraph(branches[i], operands, checks)
            meta[i] = [(e, msg) for _, e, msg in checks]
            return outs + _flags(checks, total, 0 if i == 0 else counts[0])
        return fn

    meta = {}
    results = tf.cond(tf.cast(pred, tf.bool), branch(1), branch(0))
    results = list(results) if isinstance(results, (list, tuple)) else [results]
    n_out = len(results) - total
    labels = meta.get(0, []) + meta.get(1, [])
    for ok, (error, message) in zip(results[n_out:], labels):
        ctx.checks.append((ok, error, message))
    return tuple(results[:n_out])


@rule("while")
def _while(ctx, *inputs, cond, body, n_carried):
    carried, read = list(inputs[:n_carried]), list(inputs[n_carried:])
    n_checks = count_checks(body) + count_checks(cond)
    meta = []

    def keep_going(*state):
        checks = []
        go = ctx.run_subgraph(cond, list(state[:n_carried]) + read, checks)[0]
        return tf.logical_and(tf.cast(go, tf.bool), tf.reduce_all(state[n_carried]) if n_checks
                              else tf.constant(True))

    def step(*state):
        checks = []
        outs = ctx.run_subgraph(body, list(state[:n_carried]) + read, checks)
        if not n_checks:
            return outs
        cond_checks = []
        ctx.run_subgraph(cond, outs + read, cond_checks)
        meta[:] = [(e, m) for _, e, m in checks + cond_checks]
        oks = tf.stack([ok for ok, _, _ in checks + cond_checks])
        return outs + [tf.logical_and(state[n_carried], oks)]

    loop_vars = carried + ([tf.ones([n_checks], tf.bool)] if n_checks else [])
    invariants = [tf.TensorShape([None if d is None else d for d in v.type.shape])
                  for v in body.outputs[:n_carried]] + ([tf.TensorShape([n_checks])] if n_checks else [])
    results = tf.while_loop(keep_going, step, loop_vars, shape_invariants=invariants,
                            maximum_iterations=None)
    results = list(results) if isinstance(results, (list, tuple)) else [results]
    if n_checks:
        flags = results.pop()
        for i, (error, message) in enumerate(meta):
            ctx.checks.append((flags[i], error, message))
    return tuple(results)
