"""Walking a graph's equations, those of its subgraphs (loop bodies, branches) included."""
from __future__ import annotations

from .ir import Graph, Var


def all_eqns(graph):
    """Every equation of ``graph`` and, depth first, of the graphs in its equations' params."""
    for e in graph.eqns:
        yield e
        for v in e.params.values():
            for g in (v if isinstance(v, tuple) else (v,)):
                if hasattr(g, "eqns"):
                    yield from all_eqns(g)


def has_effects(eqn):
    """Whether ``eqn`` acts whether or not its results are read: its op says so for its
    params (``Op.effects``), or an equation of its sub-graphs does."""
    effects = eqn.op.effects
    if effects is not None and effects(eqn.params):
        return True
    return any(has_effects(e) for v in eqn.params.values()
               for g in (v if isinstance(v, tuple) else (v,)) if isinstance(g, Graph)
               for e in g.eqns)


def acts_each_run(eqn):
    """Whether ``eqn``, or an equation of its sub-graphs, acts each time it runs
    (``Op.each_run``: a print), so that two equal equations are two acts."""
    if eqn.op.each_run:
        return True
    return any(acts_each_run(e) for v in eqn.params.values()
               for g in (v if isinstance(v, tuple) else (v,)) if isinstance(g, Graph)
               for e in g.eqns)


def all_graphs(graph):
    """``graph`` and, depth first, every graph in its equations' params."""
    yield graph
    for e in graph.eqns:
        for v in e.params.values():
            for g in (v if isinstance(v, tuple) else (v,)):
                if hasattr(g, "eqns"):
                    yield from all_graphs(g)


def free_vars(graph):
    """The vars ``graph`` (or a graph inside it) reads but does not define, in the order
    first read: values of an enclosing trace a nested one read (a function traced
    inside another, closing over the caller's arrays)."""
    graphs = list(all_graphs(graph))
    defined = set()
    for g in graphs:
        defined.update(g.inputs)
        for e in g.eqns:
            defined.update(e.outputs)
    free = {}
    for g in graphs:
        for a in [a for e in g.eqns for a in e.inputs] + list(g.outputs):
            if isinstance(a, Var) and a not in defined:
                free[a] = None
    return list(free)
