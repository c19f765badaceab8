"""Passes as per-op rules: the one walk over a graph's equations that they share.

A pass that rewrites equations one at a time keeps its rules in a ``PassRules`` table
keyed by op (an ``OpTable``: a name no op has fails when its rule registers), each
registered explicitly beside the rule, and runs them with ``rewrite_eqns``. For each
equation in order, the walk

* reads its inputs through the renaming that earlier rules asked for;
* rewrites its sub-graphs (cond branches, loop bodies, called graphs) with
  ``subgraphs`` (usually the pass itself), unless the op's rule was registered with
  ``subgraphs=True`` and rewrites them itself (a loop body, knowing the loop);
* hands it to its op's rule, or to the table's ``default`` rule for ops without one:
  ``rule(eqn, rw)`` returns None to keep the equation, or the equations that take its
  place (they define its outputs, or the rule called ``rw.rename`` for them first).

Adding an op's rule to a pass is one registration in that pass's module; the walk,
the renaming and the sub-graphs are the same for every pass.
"""
from __future__ import annotations

from ..ir import Eqn, Var, map_subgraphs
from ..ops import OPS, OpTable
from .rename import Renamer


class PassRules(OpTable):
    """A pass's rules by op, and the ``default`` rule for the ops without one."""

    def __init__(self, default=None):
        super().__init__()
        self.default = default
        self.own_subgraphs = set()

    def register(self, *names, subgraphs=False):
        """Decorator: the rule of the ops ``names``; ``subgraphs``: it rewrites the
        equation's sub-graphs itself."""
        def wrap(fn):
            for name in names:
                self[name] = fn
                if subgraphs:
                    self.own_subgraphs.add(OPS[name])
            return fn
        return wrap


class Rewrite:
    """The graph a pass is writing, as its rules see it: the equations so far, who made
    each var (``made``), the renaming, and the pass's own ``state``."""

    def __init__(self, state=None):
        self.eqns = []
        self.made = {}
        self.renamer = Renamer()
        self.state = state
        self.eqn = None         # the equation a rule is rewriting

    def add(self, eqn):
        self.eqns.append(eqn)
        made = self.made
        for v in eqn.outputs:
            made[v] = eqn

    def emit(self, op, inputs, params, outputs=None):
        """Adds ``op(inputs)`` at the current equation's source line; its outputs (new
        vars of the op's result types unless given), as a tuple."""
        op = op if not isinstance(op, str) else OPS[op]
        if outputs is None:
            outputs = tuple(Var(t) for t in op.type_rule([a.type for a in inputs], params))
        self.add(Eqn(op, tuple(inputs), params, tuple(outputs), self.eqn.source_info))
        return tuple(outputs)

    def rename(self, old, new):
        """``old`` vars read as the atoms ``new`` from here on."""
        self.renamer.update(old, new)


def rewrite_eqns(graph, rules, subgraphs=None, state=None):
    """``graph`` with ``rules`` (a ``PassRules``) applied to each equation, in order (see
    the module docstring); ``state`` is the pass's, as ``rw.state``."""
    rw = Rewrite(state)
    renamed, eqns, made = rw.renamer.atoms, rw.eqns, rw.made
    own, default, rule_of = rules.own_subgraphs, rules.default, dict.get
    for eqn in graph.eqns:
        # (an equation that reads nothing renamed is itself: most are, and copies cost)
        if renamed and any(a in renamed for a in eqn.inputs if isinstance(a, Var)):
            eqn = rw.renamer.eqn(eqn)
        if subgraphs is not None and eqn.op not in own:
            eqn = map_subgraphs(eqn, subgraphs)
        rw.eqn = eqn
        rule = rule_of(rules, eqn.op, default)
        new = rule(eqn, rw) if rule is not None else None
        if new is None:
            eqns.append(eqn)
            for v in eqn.outputs:
                made[v] = eqn
        else:
            for e in new:
                rw.add(e)
    return graph.replace(eqns=tuple(rw.eqns), outputs=rw.renamer(graph.outputs))


__all__ = ["PassRules", "Rewrite", "rewrite_eqns"]
