"""The interpreter base every graph interpreter shares (after torch.fx's Interpreter).

An interpreter runs a graph's equations in order over an environment that maps each
var to its value: ``run`` binds the inputs, hands each equation with the values of its
inputs to ``run_eqn`` and binds the results to the equation's outputs. What a value
is belongs to the subclass: a NumPy array (``evaluate``), a TensorFlow tensor
(lowering). Subclasses override the hooks:

* ``run_eqn(eqn, xs)``: the outputs of one equation, as a tuple; by default
  ``apply(rule(eqn), eqn, xs)``, its errors passed through ``located``;
* ``rule(eqn)``: the function for an equation, by default ``rules[eqn.op]``
  (an equation no rule covers raises here, outside ``located``);
* ``apply(fn, eqn, xs)``: calls a rule, by default ``fn(eqn.params, *xs)``;
* ``read_inputs(eqn)``: the values ``run_eqn`` takes, by default ``read`` of each input;
* ``literal(atom)``: the value of a constant operand;
* ``value(var, stored)``: what a read of a var gives (``stored`` is its binding);
* ``before_eqn(eqn)``: called ahead of each equation (a budget ticks here);
* ``located(eqn, error)``: the exception to raise for ``error`` out of ``apply``,
  carrying the equation's ``source_info``, or None to let ``error`` through.

``run_subgraph`` runs a cond branch, a loop body or a called graph on its own
environment with the same interpreter; the enclosing graph's stays as it was.
"""
from __future__ import annotations

from .ir import Literal


class Interpreter:
    """Runs graphs equation by equation; see the module docstring for the hooks."""

    # Op -> rule (an ``OpTable``); each subclass names its own table.
    rules: dict = {}

    def __init__(self):
        self.env = {}

    # ------------------------------------------------------------- driving
    def run(self, graph, *args):
        """The values of ``graph``'s outputs for input values ``args``, as a list."""
        outer, self.env = self.env, dict(zip(graph.inputs, args))
        try:
            for eqn in graph.eqns:
                self.before_eqn(eqn)
                self.write(eqn.outputs, self.run_eqn(eqn, self.read_inputs(eqn)))
            return [self.read_output(a) for a in graph.outputs]
        finally:
            self.env = outer

    def run_subgraph(self, graph, args):
        """``run`` on a sub-graph (a branch, a loop body, a called graph)."""
        return self.run(graph, *args)

    # ------------------------------------------------------------- environment
    def read(self, atom):
        if isinstance(atom, Literal):
            return self.literal(atom)
        return self.value(atom, self.env[atom])

    def read_inputs(self, eqn):
        """The values of ``eqn``'s inputs, as ``run_eqn`` takes them."""
        return [self.read(a) for a in eqn.inputs]

    def read_output(self, atom):
        """The value of one of the graph's outputs."""
        return self.read(atom)

    def write(self, outputs, values):
        for var, value in zip(outputs, values):
            self.env[var] = value

    # ------------------------------------------------------------- hooks
    def literal(self, atom):
        return atom.value

    def value(self, var, stored):
        return stored

    def before_eqn(self, eqn):
        pass

    def rule(self, eqn):
        return self.rules[eqn.op]

    def run_eqn(self, eqn, xs):
        fn = self.rule(eqn)
        try:
            outs = self.apply(fn, eqn, xs)
        except Exception as e:
            located = self.located(eqn, e)
            if located is None:
                raise
            raise located from e
        return outs if isinstance(outs, tuple) else (outs,)

    def apply(self, fn, eqn, xs):
        return fn(eqn.params, *xs)

    def located(self, eqn, error):
        return None


__all__ = ["Interpreter"]
