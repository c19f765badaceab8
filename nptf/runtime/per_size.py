"""XLA for graphs that serve many sizes: per size, XLA's usual executable or one
compiled for one CPU, whichever runs faster at that size.

A graph whose sizes are left open (relaxed, or declared ``None``) runs under XLA,
which compiles it again for each size it meets. Whether XLA's split of a loop over
the cores pays depends on the size (``one_core.py``): at 65,536 floats sigmoid
takes 60 µs split against 37 unsplit, at 2^20 417 against 534 (by hand,
``bench/RESULTS.md``). The executor trial cannot tell, since it times one size for
all. So for each of the first sizes such a graph meets, both executables run at that
size's first calls in turn (the first of each compiles it, untimed), and the faster
one, by 3% for the one-CPU executable, serves that size from then on. Sizes whose
inputs come to less than ``one_core.SPLIT_BYTES`` skip the timing; so do sizes after
the first ``MAX_SIZES`` timed ones (a graph fed ever new sizes would otherwise compile
each twice).
"""
from __future__ import annotations

import statistics
import threading
import time

from tensorflow.python.eager import context as _context

from . import one_core
from .dispatch import CPU_ONLY, fast_caller
from .xla_policy import ExecutorTrial

_clock = time.perf_counter     # tests substitute a fake clock

USUAL, ONE_CPU = "xla", "xla, one CPU"


def applies(graph_has_open_sizes, xla, draws_random):
    """Whether an entry should choose per size: an XLA graph with open sizes on the CPU,
    drawing no random numbers (one executable's draws for every call)."""
    return graph_has_open_sizes and xla and not draws_random and one_core.AVAILABLE \
        and CPU_ONLY


class SizeChooser:
    """Stands in for ``entry.call`` of an XLA graph with open sizes (see the module)."""

    TIMED_EACH = 3      # timed calls of each executable per size, after its compiling call
    MAX_SIZES = 8
    MARGIN = ExecutorTrial.SWITCH_MARGIN    # as the executor trial's, for the same reason

    def __init__(self, usual, build):
        self.usual = usual          # caller of XLA's usual function
        self.build = build          # () -> a new concrete XLA function of the same graph
        self.one_cpu = None         # caller of that function, each size compiled on one CPU
        self.chosen = {}            # sizes -> caller
        self.ways = {}              # sizes -> USUAL or ONE_CPU, once chosen
        self.trials = {}            # sizes -> {way: [seconds]} (first, compiling calls: None)
        self.timed_sizes = 0
        self.lock = threading.Lock()

    def way_for(self, shapes):
        """USUAL or ONE_CPU for these input shapes once chosen; None before."""
        return self.ways.get(tuple(tuple(s) for s in shapes))

    def __call__(self, *tensors):
        key = tuple(tuple(t.shape) for t in tensors)
        caller = self.chosen.get(key)
        if caller is not None:
            return caller(*tensors)
        with self.lock:
            caller = self.chosen.get(key)
            if caller is not None:
                return caller(*tensors)
            if not _context.executing_eagerly():    # building a graph: nothing to time
                return self.usual(*tensors)
            return self._step(key, tensors)

    def _step(self, key, tensors):
        samples = self.trials.get(key)
        if samples is None:
            nbytes = sum(t.shape.num_elements() * t.dtype.size for t in tensors)
            if nbytes < one_core.SPLIT_BYTES or self.timed_sizes >= self.MAX_SIZES \
                    or not self._one_cpu_built():
                self._decide(key, USUAL)
                return self.usual(*tensors)
            self.timed_sizes += 1
            samples = self.trials[key] = {USUAL: [], ONE_CPU: []}
        way = USUAL if len(samples[USUAL]) <= len(samples[ONE_CPU]) else ONE_CPU
        if way == ONE_CPU and not samples[ONE_CPU]:     # compiles XLA for this size
            run = lambda: one_core.on_one_cpu(lambda: self.one_cpu(*tensors))  # noqa: E731
        else:
            run = lambda: (self.usual if way == USUAL else self.one_cpu)(*tensors)  # noqa: E731
        try:
            start = _clock()
            outputs = run()
            elapsed = _clock() - start
        except Exception:  # noqa: BLE001  (the usual executable raises the graph's own errors)
            if way == USUAL:
                raise
            self._decide(key, USUAL)
            return self.usual(*tensors)
        samples[way].append(None if not samples[way] else elapsed)
        if min(len(s) for s in samples.values()) > self.TIMED_EACH:
            best = {w: statistics.median(s[1:]) for w, s in samples.items()}
            self._decide(key, ONE_CPU if best[ONE_CPU] < (1 - self.MARGIN) * best[USUAL]
                         else USUAL)
        return outputs

    def _one_cpu_built(self):
        if self.one_cpu is None:
            try:
                self.one_cpu = fast_caller(self.build())
            except Exception:  # noqa: BLE001  (keep the usual executable)
                self.one_cpu = False
        return bool(self.one_cpu)

    def _decide(self, key, way):
        self.trials.pop(key, None)
        self.ways[key] = way
        self.chosen[key] = self.usual if way == USUAL else self.one_cpu


__all__ = ["SizeChooser", "applies", "USUAL", "ONE_CPU"]
