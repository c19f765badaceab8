"""Graph -> a Python function of TensorFlow tensors, for ``tf.function`` to trace.

Broadcasts that feed elementwise ops stay implicit (``implicit_broadcasts``):
TensorFlow's elementwise kernels broadcast with NumPy's rules, and materialising
``broadcast_to`` would cost a full-size copy outside XLA.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import tensorflow as tf

from ..budget import CompileBudgetError, current_budget
from ..errors import UnsupportedError, with_location
from ..graph_ir.interpret import Interpreter
from ..graph_ir.ir import Literal
from ..graph_ir.passes import implicit_broadcasts
from ..graph_ir.walk import all_eqns, all_graphs
from . import tf_math as m
from .rules import TF_RULES


@dataclass
class RuleContext:
    in_types: list
    out_types: list
    # Run-time conditions NumPy would raise on: (all_ok tensor, error type name, message).
    # They leave the graph as one extra boolean output, which works under XLA too.
    checks: list = None
    # Lowering for XLA: some ops have forms XLA's CPU backend compiles better.
    xla: bool = False
    # For a SavedModel: compiled by whichever process loads it, not by this one.
    portable: bool = False
    # The interpreter lowering the equation, for rules that lower sub-graphs.
    interpreter: object = None

    def run_subgraph(self, graph, args, checks):
        """``graph``'s output tensors on ``args`` (a branch, a loop body), its run-time
        checks appended to ``checks``."""
        return self.interpreter.run_subgraph(graph, args, checks)


# Params that only decide an op's result type: ``weak`` (the result is a Python
# number, NEP 50) is already in ``ctx.out_types``, and a TensorFlow tensor has
# no weakness, so rules never see them.
TYPE_ONLY_PARAMS = frozenset({"weak"})


def rule_params(params):
    """The params a TensorFlow rule takes: all but the type-only ones."""
    if TYPE_ONLY_PARAMS.isdisjoint(params):
        return params
    return {k: v for k, v in params.items() if k not in TYPE_ONLY_PARAMS}


def xla_obstacles(graph):
    """Why XLA does not run ``graph``: what it cannot compile, or compiles unlike NumPy
    (an empty list when nothing)."""
    reasons = []
    for eqn in all_eqns(graph):        # loop bodies and branches too
        check = eqn.op.xla_obstacle
        why = check and check([a.type for a in eqn.inputs], eqn.params)
        if why:
            what = f"{eqn.op.name} on {eqn.inputs[0].type}" if eqn.inputs else eqn.op.name
            reason = (why.format(op=what) if isinstance(why, str) else
                      f"XLA cannot compile {what}") + f" at {eqn.source_info}"
            if reason not in reasons:       # once each (a loop unrolled repeats them)
                reasons.append(reason)
    expanding = _expanding_fusion(graph)
    if expanding is not None:
        reasons.append(f"XLA's compile would grow exponentially with the chain of reshapes, "
                       f"slices or reversals whose values are read at many positions, from "
                       f"{expanding.source_info} (an unrolled loop of such steps)")
    return reasons


# XLA fuses elementwise ops with the reshapes, slices and broadcasts between them into
# one kernel, and emits a value once per position expression it is read at: a value
# read at several positions in each step of an unrolled chain (``a`` and ``a[None]``
# reshaped back, ``u[:-2]``, ``u[2:]`` and ``u[1:-1]`` of a stencil) is emitted
# exponentially often, and XLA's compile runs for minutes and many GB (the reshape
# chain at 8, 9, 10 steps: 4**8 positions, 5.5 s; 22 s; 90 s; a stencil at 12 steps,
# 20 s). A value read at more than this many positions makes a graph run without XLA
# (a stencil unrolled 8 times, 4**8 positions, compiles in 0.2 s and keeps it).
_FUSED_POSITIONS = 1 << 17
_INDEX_CHANGING = frozenset({"reshape", "slice", "broadcast_to", "transpose", "concatenate",
                             "slice_update", "tile"})
_INDEX_KEEPING = frozenset({"check", "copy", "real", "imag"})


def _expanding_fusion(graph):
    """The first equation of ``graph`` (or of a graph inside it) whose inputs a fused
    XLA kernel would read at more than ``_FUSED_POSITIONS`` position expressions, or
    None. Each value gets the set of index paths (the index-changing equations between
    it and a value that is stored, as a hash) it is read through; a value read by
    anything but elementwise ops, reshapes, slices and broadcasts is stored, and starts
    afresh."""
    for g in all_graphs(graph):
        paths = {v: {0} for v in g.outputs if not isinstance(v, Literal)}
        for eqn in reversed(g.eqns):
            name = eqn.op.name
            fused = eqn.op.kind == "elementwise" or name in _INDEX_CHANGING or \
                name in _INDEX_KEEPING
            out = paths.get(eqn.outputs[0], {0}) if fused and len(eqn.outputs) == 1 else {0}
            for k, a in enumerate(eqn.inputs):
                if isinstance(a, Literal):
                    continue
                if not fused:
                    reads = {0}
                elif (name in _INDEX_CHANGING and not (name == "slice_update" and k == 0)) \
                        or a.type.shape != eqn.outputs[0].type.shape:
                    # A slice update reads the array it writes into where it writes.
                    reads = {hash((p, id(eqn), k)) for p in out}
                else:
                    reads = out
                mine = paths.setdefault(a, set())
                mine |= reads
                if len(mine) > _FUSED_POSITIONS:
                    return eqn
    return None



def literal_tensor(lit: Literal):
    return m.constant(lit.value, lit.type.dtype)


class Lowerer(Interpreter):
    """Values are TensorFlow tensors, built inside a tf.function being traced. A graph
    runs as ``implicit_broadcasts`` leaves it."""

    rules = TF_RULES

    def __init__(self, checks, xla=False, portable=False):
        super().__init__()
        self.checks, self.xla, self.portable = checks, xla, portable
        self.budget = current_budget()

    def literal(self, atom):
        return literal_tensor(atom)

    def before_eqn(self, eqn):
        if self.budget is not None:
            self.budget.tick(eqn.source_info)

    def rule(self, eqn):
        fn = TF_RULES.get(eqn.op)
        if fn is None:
            raise with_location(UnsupportedError(
                f"no TensorFlow lowering for IR op {eqn.op.name!r}"), eqn.source_info)
        return fn

    def apply(self, fn, eqn, xs):
        ctx = RuleContext([a.type for a in eqn.inputs], [v.type for v in eqn.outputs],
                          self.checks, self.xla, self.portable, self)
        return fn(ctx, *xs, **rule_params(eqn.params))

    def located(self, eqn, error):
        # The compile budget, passed while a loop body lowers, says what happened itself.
        if not isinstance(error, (TypeError, ValueError, NotImplementedError)) or \
                isinstance(error, CompileBudgetError):
            return None
        return with_location(UnsupportedError(
            f"cannot lower {eqn.op.name} on {[str(a.type) for a in eqn.inputs]} to TensorFlow: "
            f"{error}"), eqn.source_info)

    def run(self, graph, *args):
        return super().run(implicit_broadcasts(graph), *args)

    def run_subgraph(self, graph, args, checks=None):
        """``graph``'s output tensors on ``args``; its run-time checks go to ``checks``
        (a list of the caller's) instead of the enclosing graph's."""
        if checks is None:
            return self.run(graph, *args)
        return Lowerer(checks, self.xla, self.portable).run(graph, *args)


def run_graph(graph, args, checks, xla=False, portable=False):
    """Build ``graph``'s TensorFlow ops on ``args`` (inside a tf.function being traced)."""
    with m.shared_constants():
        return Lowerer(checks, xla, portable).run(graph, *args)


def lower_graph(graph, xla=False, portable=False):
    """A function ``(*tensors) -> list of tensors`` computing ``graph`` with TensorFlow
    (for ``tf.function(jit_compile=xla)``; ``portable`` for a graph exported to run
    in other processes).

    When the graph holds run-time checks, a last boolean vector output says which
    held; ``run.checks`` lists their (error type, message) after tracing."""

    def run(*args):
        checks = []
        outputs = run_graph(graph, args, checks, xla, portable)
        if checks:
            outputs.append(tf.stack([ok for ok, _, _ in checks]))
        run.checks = [(error, message) for _, error, message in checks]
        return outputs

    run.checks = []
    return run


def checked_runner(graph, xla=False, portable=False):
    """A function ``(*tensors) -> (outputs, checks)`` building ``graph``'s TensorFlow ops,
    ``checks`` the run-time checks it built, ``(ok, error type, message)`` each: for a
    caller that places them itself (a derivative of the graph, a batch of its runs)."""
    def run(*args):
        checks = []
        return run_graph(graph, list(args), checks, xla, portable), checks
    return run
