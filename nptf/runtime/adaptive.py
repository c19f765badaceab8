"""Adaptive dispatch: per set of argument shapes, the graph, the function, or its NumPy program.

``nptf.compile(adaptive=True)`` times the first calls for each set of shapes
and keeps the fastest way (``Compiled._run_adaptive``); the NumPy program is
the optimized graph's equations as straight-line NumPy calls
(``graph_ir.numpy_program``), which returns what the function returns.
"""
from __future__ import annotations

import numpy as np

from ..graph_ir.numpy_program import numpy_program, unsupported_reason
from ..tracer import handed_back, output_kinds
from ..tree import unflatten

# Adaptive dispatch's ways to run a call: the graph, the user's function, and the graph's
# equations as a NumPy program (graph_ir.numpy_program), where one can be generated.
GRAPH, NUMPY, NUMPY_PROGRAM = "graph", "numpy", "numpy program"


class AdaptiveState:
    """Adaptive dispatch for one set of argument shapes: timings, then the choice.

    First the graph against the function; where the function wins and the graph has a
    NumPy program, then the function against the program. Both back to back in both
    orders: a NumPy call right after a TensorFlow call runs on cold caches (a 16x16
    solve: 13-25 us instead of 5.5), so taking turns would time the function cold every
    time (once the graph kept a 1,024-float sigmoid, 8.6x NumPy's time) and favour
    whichever of two NumPy ways came second."""
    __slots__ = ("choice", "timings", "schedule", "program")

    def __init__(self, program, samples):
        self.choice = None              # GRAPH, NUMPY or NUMPY_PROGRAM once measured
        self.program = program          # whether the graph has a NumPy program
        self.timings = {GRAPH: [], NUMPY: []}
        # The paths the next calls time: each way also right after itself.
        self.schedule = [GRAPH, NUMPY, NUMPY, GRAPH] * -(-samples // 2)

    # The function against its program: pairs in both orders until each has this many
    # samples and they took this long together (microsecond calls need many to tell),
    # or until each has the most samples.
    PAIRED, PAIRED_S, PAIRED_MAX = 4, 2e-4, 32

    def decide(self):
        """Called when the schedule runs out: decide, or schedule more calls."""
        t = self.timings
        if self.choice is not None:     # another thread decided
            return
        # The best of each: the first calls pay one-off costs.
        if NUMPY_PROGRAM in t:
            n = len(t[NUMPY])
            if n < self.PAIRED_MAX and (n < self.PAIRED or
                                        sum(t[NUMPY]) + sum(t[NUMPY_PROGRAM]) < self.PAIRED_S):
                self.schedule = [NUMPY, NUMPY_PROGRAM, NUMPY_PROGRAM, NUMPY]
            else:
                self.choice = NUMPY_PROGRAM if min(t[NUMPY_PROGRAM]) < min(t[NUMPY]) else NUMPY
        elif min(t[GRAPH]) <= min(t[NUMPY]):
            self.choice = GRAPH
        elif not self.program:
            self.choice = NUMPY
        else:
            t[NUMPY], t[NUMPY_PROGRAM] = [], []
            self.schedule = [NUMPY, NUMPY_PROGRAM, NUMPY_PROGRAM, NUMPY]


NOT_YET = object()       # an entry whose program is not built yet


def numpy_program_of(entry):
    """``entry``'s graph as a NumPy program: ``(*graph inputs) -> what the function
    returns``, or None where none is generated (it draws random numbers, writes into its
    arguments, has loops, ...). Built on first use."""
    if entry._program is NOT_YET:
        entry._program = _make_program(entry)
    return entry._program


def _make_program(entry):
    traced = entry.traced
    if traced is None or no_program_reason(traced, entry.graph) is not None:
        return None
    infos = traced.out_info
    if traced.out_tree.kind == "leaf" and len(infos) == 1 and infos[0].kind == "array":
        return numpy_program(entry.graph, single=True)
    program = numpy_program(entry.graph)
    if program is None:
        return None
    tree = traced.out_tree

    def run(*values):
        return unflatten(tree, [value if kind == "static" else handed_back(value, kind)
                                for value, kind in output_kinds(infos, program(*values))])
    return run


def no_program_reason(traced, graph):
    """Why ``graph`` (of ``traced``) gets no NumPy program, or None."""
    if traced.mutated:
        return "the function writes into its arguments"
    if traced.random_seed:
        return "the function draws random numbers"
    if traced.catches:
        return "the function handles errors with try/except"
    return unsupported_reason(graph)


def plain_values(values):
    """Whether a NumPy program may run these graph inputs (exact NumPy types: a subclass's
    own arithmetic would differ from the program's)."""
    return all(type(v) in _PLAIN_TYPES or isinstance(v, np.generic) for v in values)


_PLAIN_TYPES = {np.ndarray, bool, int, float, complex}
