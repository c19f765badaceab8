"""The op table: every IR op has its rules, and its facts are declared on it."""
from __future__ import annotations

import numpy as np
import pytest

import nptf
from nptf.graph_ir.evaluate import EVAL_RULES
from nptf.graph_ir.ops import OPS, declare
from nptf.lowering.rules import TF_RULES


def test_every_op_has_a_type_rule_an_evaluation_rule_and_a_tensorflow_rule():
    missing = {name: [what for what, has in (
        ("type rule", callable(op.type_rule)),
        ("NumPy evaluation rule", name in EVAL_RULES or
         (op.kind == "elementwise" and op.ufunc is not None)),
        ("TensorFlow rule", name in TF_RULES)) if not has] for name, op in OPS.items()}
    assert not {k: v for k, v in missing.items() if v}
    # Both tables are keyed by the record.
    assert set(EVAL_RULES) <= set(OPS.values()) and set(TF_RULES) <= set(OPS.values())
    assert all(TF_RULES.get(op) is not None for op in OPS.values())


def test_a_tensorflow_rule_for_an_op_that_does_not_exist_fails():
    with pytest.raises(KeyError):
        TF_RULES["solv"] = lambda ctx, a, b: a
    assert "solv" not in TF_RULES and TF_RULES["solve"] is TF_RULES[OPS["solve"]]


def test_a_fact_declared_for_an_op_that_does_not_exist_fails():
    with pytest.raises(KeyError):
        declare("solv", singular="np.linalg.solve")
    with pytest.raises(TypeError):
        declare("solve", singluar="np.linalg.solve")


def _solve(a, b):
    return np.linalg.solve(a, b)


def _factor(a):
    return np.linalg.cholesky(a), np.linalg.qr(a)[1]


def test_the_facts_reach_the_runtime():
    """What the op records say is what the runtime does: solve is kept off XLA and its
    singular matrices raise NumPy's error naming it; cholesky and qr are not tried
    under XLA (slower there)."""
    f = nptf.compile(_solve, fallback="raise", adaptive=False)
    a, b = np.eye(3) * 2.0, np.ones(3)
    np.testing.assert_allclose(f(a, b), _solve(a, b))
    entry = f.entry_for(a, b)
    assert not entry.xla and "XLA cannot compile solve" in entry.xla_reason
    with pytest.raises(np.linalg.LinAlgError, match="np.linalg.solve"):
        f(np.zeros((3, 3)), b)
    g = nptf.compile(_factor, fallback="raise", adaptive=False)
    for got, expected in zip(g(a), _factor(a)):
        np.testing.assert_allclose(got, expected)
    entry = g.entry_for(a)
    assert not entry.xla and "cholesky, qr are slower" in entry.xla_reason


def _op_names_in_source():
    """``[(file:line, name)]`` of every op named by a string in nptf's code: the first
    argument of an ``emit(...)`` call, and what an ``.op`` or ``.op.name`` is compared with
    (``eqn.op == "check"``, ``e.op.name in ("cond", "while")``)."""
    import ast
    import os
    root = os.path.dirname(nptf.__file__)
    found = []
    for directory, _, files in os.walk(root):
        for f in files:
            if not f.endswith(".py"):
                continue
            path = os.path.join(directory, f)
            for node in ast.walk(ast.parse(open(path).read(), path)):
                strings = []
                if isinstance(node, ast.Call) and node.args and (
                        getattr(node.func, "attr", None) == "emit" or
                        getattr(node.func, "id", None) == "emit"):
                    strings = [node.args[0]]
                elif isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute) and (
                        node.left.attr == "op" or node.left.attr == "name" and
                        getattr(node.left.value, "attr", None) == "op"):
                    for c in node.comparators:
                        strings += c.elts if isinstance(c, (ast.Tuple, ast.Set, ast.List)) else [c]
                found += [(f"{os.path.relpath(path, root)}:{node.lineno}", s.value)
                          for s in strings
                          if isinstance(s, ast.Constant) and isinstance(s.value, str)]
    return found


def test_every_op_named_in_the_code_exists():
    """A misspelt op name fails here, not only when the path that emits it runs."""
    named = _op_names_in_source()
    assert len(named) > 200
    assert [(where, name) for where, name in named if name not in OPS] == []
