"""Walking a graph's equations, those of its subgraphs (loop bodies, branches) included."""
from __future__ import annotations


def all_eqns(graph):
    """Every equation of ``graph`` and, depth first, of the graphs in its equations' params."""
    for e in graph.eqns:
        yield e
        for v in e.params.values():
            for g in (v if isinstance(v, tuple) else (v,)):
                if hasattr(g, "eqns"):
                    yield from all_eqns(g)
