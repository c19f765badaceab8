"""The interpreter base (graph_ir.interpret): evaluation and lowering run on it and agree,
and a subclass sees every equation, those of branches and loop bodies included."""
from __future__ import annotations

import collections

import numpy as np
import pytest
import tensorflow as tf

import nptf
from nptf.errors import UnsupportedError
from nptf.graph_ir.evaluate import Evaluator, evaluate
from nptf.graph_ir.interpret import Interpreter
from nptf.graph_ir.ir import Eqn, Graph, Var, literal
from nptf.graph_ir.numpy_program import numpy_program
from nptf.graph_ir.ops import OPS, OpTable
from nptf.graph_ir.passes import DIFFERENTIABLE_PIPELINE, implicit_broadcasts
from nptf.graph_ir.types import ArrayType
from nptf.graph_ir.walk import all_eqns
from nptf.lowering.lower import run_graph


def _branchy(x, y):
    s = x * 2.0 + y[None, :]
    if s.sum() > 0:
        s = s - 1.0
    else:
        s = s + 1.0
    while np.abs(s).max() > 0.5:
        s = s * 0.5 + np.tanh(s) * 0.1
    return np.maximum(s, 0.0).sum(axis=0)


def _graph_and_args():
    r = np.random.default_rng(0)
    x, y = r.standard_normal((4, 3)), r.standard_normal(3)
    graph = nptf.compile(_branchy).trace(x, y, stage="traced")
    for p in DIFFERENTIABLE_PIPELINE:      # all but select_small_branches: the cond stays
        graph = p(graph)
    return graph, (x, y)


def _lowered(graph, args):
    def run(*tensors):
        return run_graph(graph, tensors, [])
    return [t.numpy() for t in tf.function(run)(*args)]


class _Counting(Evaluator):
    def __init__(self):
        super().__init__()
        self.seen = collections.Counter()

    def run_eqn(self, eqn, xs):
        self.seen[eqn.op.name] += 1
        return super().run_eqn(eqn, xs)


def test_a_subclass_sees_the_equations_of_branches_and_loop_bodies():
    graph, args = _graph_and_args()
    names = {e.op.name for e in all_eqns(graph)}
    assert {"cond", "while"} <= names
    counting = _Counting()
    (result,) = counting.run(graph, *args)
    np.testing.assert_allclose(result, _branchy(*args))
    assert {"cond", "while", "tanh"} <= set(counting.seen) <= names     # tanh: the body's
    # The body runs at least once; the loop's condition once more than the body.
    assert counting.seen["reduce_max"] > counting.seen["tanh"] >= 1
    assert counting.env == {}


def test_evaluation_and_lowering_agree_on_branches_and_loops():
    graph, args = _graph_and_args()
    want = _branchy(*args)
    np.testing.assert_allclose(evaluate(graph, *args)[0], want)
    np.testing.assert_allclose(_lowered(graph, args)[0], want)


def test_the_three_interpreters_agree_on_straight_line_code():
    def f(x, y):
        return np.exp(-x) / (1.0 + x[:, None] * y) - y.mean()

    r = np.random.default_rng(1)
    args = (r.standard_normal(5), r.standard_normal((5, 5)))
    graph = nptf.compile(f).trace(*args)
    program = numpy_program(graph)
    results = [evaluate(graph, *args)[0], _lowered(graph, args)[0], program(*args)[0]]
    for got in results:
        np.testing.assert_allclose(got, f(*args), rtol=1e-12)


class _Doubling(Interpreter):
    """An interpreter of its own rule table: every op doubles its first operand."""
    rules = collections.defaultdict(lambda: lambda p, x, *rest: 2 * x)


def test_run_binds_inputs_reads_literals_and_restores_the_environment():
    t = ArrayType((), np.dtype(np.float64))
    a, b, c = Var(t), Var(t), Var(t)
    graph = Graph((a,), (Eqn(OPS["negative"], (a,), {}, (b,)),
                         Eqn(OPS["add"], (literal(np.float64(3.0)), b), {}, (c,))), (c, b))
    interp = _Doubling()
    assert interp.run(graph, 1.0) == [6.0, 2.0]
    assert interp.env == {}


def _refuse(p, x):
    raise ValueError("no")


class _Plain(Interpreter):
    rules = OpTable({"negative": _refuse})


class _Failing(_Plain):
    def located(self, eqn, error):
        return UnsupportedError(f"{eqn.op.name} failed at {eqn.source_info}: {error}")


def test_errors_of_a_rule_carry_the_equations_source():
    t = ArrayType((), np.dtype(np.float64))
    a, b = Var(t), Var(t)
    graph = Graph((a,), (Eqn(OPS["negative"], (a,), {}, (b,), "user.py:7"),), (b,))
    with pytest.raises(UnsupportedError, match="negative failed at user.py:7: no"):
        _Failing().run(graph, 1.0)
    with pytest.raises(ValueError, match="^no$"):     # located() by default: None
        _Plain().run(graph, 1.0)


def test_implicit_broadcasts_leave_the_broadcasts_to_the_ops_that_read_them():
    def f(x, y):
        return np.sin(x[:, None] * y[None, :]) + (x[:, None] * 2.0).sum()

    r = np.random.default_rng(2)
    args = (r.standard_normal(3), r.standard_normal(4))
    graph = nptf.compile(f).trace(*args)
    lowered = implicit_broadcasts(graph)
    assert lowered.stage == "implicit_broadcasts"
    assert implicit_broadcasts(lowered) is lowered
    broadcasts = [e for e in lowered.eqns if e.op.name == "broadcast_to"]
    assert broadcasts and any(e.params.get("implicit") for e in broadcasts)
    # The rewritten graph means what the graph did.
    np.testing.assert_allclose(evaluate(lowered, *args)[0], evaluate(graph, *args)[0])
    np.testing.assert_allclose(_lowered(graph, args)[0], f(*args))
