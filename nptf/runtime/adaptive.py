"""Adaptive dispatch: per set of argument shapes, the graph, the function, or its NumPy program.

``nptf.compile`` (by default; ``adaptive=False`` turns it off) times the first calls
for each set of shapes and keeps the fastest way (``Compiled._run_adaptive``); the NumPy program is
the optimized graph's equations as straight-line NumPy calls
(``graph_ir.numpy_program``), which returns what the function returns.
"""
from __future__ import annotations

import os

import numpy as np

from ..graph_ir.numpy_program import numpy_program, unsupported_reason
from ..tracer import handed_back, output_kinds
from ..tracer.globals_read import unchanged
from ..tree import unflatten

# Adaptive dispatch's ways to run a call: the graph, the user's function, and the graph's
# equations as a NumPy program (graph_ir.numpy_program), where one can be generated.
GRAPH, NUMPY, NUMPY_PROGRAM = "graph", "numpy", "numpy program"
FIRST = "first"      # adaptive dispatch's first call: the graph, not timed


class AdaptiveState:
    """Adaptive dispatch for one set of argument shapes: timings, then the choice.

    The first call runs the graph (its first run sets it up: not a sample). Two calls run
    the function: the first after a TensorFlow call runs on cold caches (a 16x16 solve:
    13-25 us instead of 5.5), the second is timed warm. Where that call is short, a few
    more calls run the function, timed (``SHORT_CALLS``): its first runs in a process are
    its slowest (Python specializes its bytecode, NumPy fills its caches), and one warm
    call alone may take twice the steady state. Each of them also runs the graph's NumPy
    program, where there is one, through the callable later calls would run it by, timed
    beside the function (before it and after it, by turns), so that both ways are timed
    as the caller pays for them, in the same state of the caches. The next call runs the
    graph, twice where it writes into no argument and the call is short (the first run
    warms the caches), and times it. Then each call runs the way chosen (one call later
    where the graph came close). Where the graph's executor is still being chosen
    (``ExecutorTrial``), the graph is timed on the executor it started on: if NumPy is
    faster than that by more than another executor could win back (``MAYBE``), NumPy is
    kept at once and the other executors are never compiled; if the graph wins, the trial
    goes on. Otherwise NumPy serves the calls while the executor that might beat it
    compiles in the background (those calls are not timed: the compile slows them), then
    one call times NumPy's way again and the next runs the graph on it twice, timed: the
    faster of the two ways is kept."""
    __slots__ = ("choice", "timings", "schedule", "program", "probe", "again", "served",
                 "recent", "rechecks", "paired")

    def __init__(self, program):
        self.choice = None              # GRAPH, NUMPY or NUMPY_PROGRAM once measured
        self.program = program          # whether the graph has a NumPy program
        self.timings = {GRAPH: [], NUMPY: [], NUMPY_PROGRAM: []}
        self.schedule = [FIRST, NUMPY, NUMPY, GRAPH]
        self.probe = None               # another executor to time once it is compiled
        self.again = True               # a close call may time the graph once more
        self.served = 0                 # calls since the choice (where rechecked)
        self.recent = []                # their times
        self.rechecks = []              # at these counts of calls, the other way runs once
        self.paired = 0                 # the function's timed calls that also ran the program

    # Where the function's warm call takes less than this, this many more calls run it,
    # timed (calls of a millisecond or more are rechecked later instead: RECHECK_AT) ...
    SHORT_S, SHORT_CALLS = 1e-3, 6
    # ... each beside a timed run of the NumPy program where it takes less than this: the
    # program saves what each NumPy call costs past its work (a microsecond or so). On
    # large arrays its elementwise ops can take far longer than one library call of the
    # function (a moving average by np.convolve: 1.9 ms, as the graph's 30 ops: 28, 200
    # the first time).
    PROGRAM_UP_TO_S = 2e-4
    # The program replaces the user's own function (its prints, its rounding) only where it
    # is clearly faster: by this share of the function's time, timed alike.
    PROGRAM_MARGIN = 0.9
    # How much faster another executor may run a graph than the one it started on, where
    # that one is the plain executor (XLA fuses elementwise chains: up to about 4x on
    # large arrays) or XLA (its variants differ by a few percent).
    MAYBE = {"plain": 4.0, "xla": 1.25}
    # A graph this much slower than NumPy at its first timed runs is timed once more.
    CLOSE = 1.5
    # Calls of this long or more run the way not chosen again at these counts of calls
    # after the choice, and switch to it where it takes less than this share of the
    # chosen way's typical time (one run against several: a clear margin). On large
    # arrays the first calls of a process pay page faults on fresh memory until the
    # allocator settles, NumPy's more than the graph's (whose buffers TensorFlow keeps),
    # so the first timings may favour the graph. Three calls in a row each time: NumPy's
    # multi-threaded BLAS calls right after graph calls may run far slower than in a row
    # of NumPy calls (on two loaded cores, a dot product over 65536 floats: 5-8 ms
    # instead of 4 us).
    RECHECK_FROM_S, RECHECK_AT, RECHECK_SWITCH = 1e-3, (16, 17, 18, 64, 65, 66), 0.8

    # What any executor's graph call costs at least here (staging the inputs, running one
    # function op, handing back the outputs): about 20 us on the plain executor, 8-13 for
    # jax.jit's calls. Only the rest of a call's time is work another executor may do
    # faster.
    CALL_FLOOR_S = 10e-6

    def best_possible(self, graph_best, started_on):
        """The least time another executor could take for a graph call that takes
        ``graph_best`` on the executor it started on."""
        floor = self.CALL_FLOOR_S
        return min(graph_best, floor) + max(graph_best - floor, 0.0) / self.MAYBE[started_on]

    def numpy_side(self):
        """The faster NumPy way and its best time."""
        t = self.timings
        best = min(t[NUMPY])    # the steadiest call's, unless a hiccup slowed them all
        if t[NUMPY_PROGRAM] and min(t[NUMPY_PROGRAM]) < self.PROGRAM_MARGIN * best:
            return NUMPY_PROGRAM, min(t[NUMPY_PROGRAM])
        return NUMPY, best

    def timed_function(self, seconds, program=False):
        """Notes a timed call of the function; after its warm call (the second), where
        that is short, schedules ``SHORT_CALLS`` more of them before the graph's turn.
        ``program``: the NumPy program can run beside them."""
        self.timings[NUMPY].append(seconds)
        if len(self.timings[NUMPY]) == 2 and min(self.timings[NUMPY]) < self.SHORT_S:
            self.schedule[:0] = [NUMPY] * self.SHORT_CALLS
            if program and self.program and min(self.timings[NUMPY]) < self.PROGRAM_UP_TO_S:
                self.paired = self.SHORT_CALLS

    def pairs_program(self):
        """Whether this turn of the function runs the program beside it, and first (by
        turns, so that neither way always finds the caches as the other left them)."""
        if self.paired <= 0 or len(self.timings[NUMPY]) < 2:
            return None
        self.paired -= 1
        return self.paired % 2 == 0

    def decide(self, trial_first=None, probe=None):
        """Called when the schedule runs out. ``trial_first``: the executor the graph
        started on while its executor trial is undecided (else None); ``probe``: the
        trial's way that might run the graph faster than that (or None)."""
        if self.choice is not None:     # another thread decided
            return
        way, numpy_best = self.numpy_side()
        graph_best = min(self.timings[GRAPH])
        if self.again and numpy_best < graph_best < self.CLOSE * numpy_best:
            # A graph's first runs after its compile are its slowest (fresh memory for its
            # outputs faults page by page): time it once more before NumPy is kept.
            self.again = False
            self.schedule = [GRAPH]
            return
        if self.again and graph_best < numpy_best < self.CLOSE * graph_best and \
                numpy_best >= self.RECHECK_FROM_S:
            # Likewise the function's first calls on large arrays: once more before the
            # graph is kept.
            self.again = False
            self.schedule = [NUMPY]
            return
        if graph_best <= numpy_best:
            self.choice = GRAPH
        else:
            self.choice = way
            if trial_first is not None and probe is not None and \
                    numpy_best >= self.best_possible(graph_best, trial_first):
                self.probe = probe      # another executor might still beat NumPy
        if self.choice != NUMPY_PROGRAM and numpy_best >= self.RECHECK_FROM_S:
            self.rechecks = list(self.RECHECK_AT)

    def untimed(self):
        """The ways the schedule timed that have no timing (their calls raised)."""
        return [way for way in (NUMPY, GRAPH) if not self.timings[way]]

    def reference(self):
        """The chosen way's typical time: its recent calls', else its first timings'."""
        recent = sorted(self.recent[-5:])
        if recent:
            return recent[len(recent) // 2]
        return min(self.timings[GRAPH]) if self.choice == GRAPH else self.numpy_side()[1]

    def other_way(self):
        """The way a recheck runs: the graph against NumPy's function, or back."""
        return NUMPY if self.choice == GRAPH else GRAPH


def default_adaptive():
    """``nptf.compile``'s default for ``adaptive``: on, unless ``NPTF_ADAPTIVE`` is ``0``
    (or ``off``/``false``), which makes every call run the graph."""
    text = os.environ.get("NPTF_ADAPTIVE", "").strip().lower()
    if text in ("", "1", "on", "true"):
        return True
    if text in ("0", "off", "false"):
        return False
    raise ValueError(f"NPTF_ADAPTIVE must be 1 or 0, got {text!r}")


NOT_YET = object()       # an entry whose program is not built yet

# In ``Compiled._numpy_hot``, in place of an array's shape: a scalar argument of any value
# (a float or complex, which the graph takes as an input), or of one value (static).
DYNAMIC_SLOT, STATIC_SLOT = object(), object()


def served_program(program, count, statics, guards, compiled):
    """``program`` (of the graph inputs) as a function of a call's ``count`` positional
    arguments, the ``statics`` among them dropped. Where the trace read module globals
    (``guards``: ``(namespace, name, value, fingerprint)``), it first checks that they
    still hold those values, with those contents; where one does not, ``compiled`` runs
    the call (and traces again)."""
    if not guards and not statics:
        return program
    params = [f"a{i}" for i in range(count)]
    inputs = [p for i, p in enumerate(params) if i not in statics]
    namespace = {"_program": program, "_compiled": compiled, "_missing": object(),
                 "_unchanged": unchanged}
    lines = [f"def served({', '.join(params)}):"]
    if guards:
        checks = []
        for j, (globals_, name, value, fingerprint) in enumerate(guards):
            namespace[f"_g{j}"], namespace[f"_n{j}"], namespace[f"_v{j}"] = globals_, name, value
            checks.append(f"_g{j}.get(_n{j}, _missing) is _v{j}")
            if fingerprint is not None:
                namespace[f"_f{j}"] = fingerprint
                checks.append(f"_unchanged(_v{j}, _f{j})")
        lines += [f"    if not ({' and '.join(checks)}):",
                  f"        return _compiled({', '.join(params)})"]
    lines.append(f"    return _program({', '.join(inputs)})")
    exec(compile("\n".join(lines) + "\n", "<nptf NumPy program call>", "exec"), namespace)
    return namespace["served"]


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
