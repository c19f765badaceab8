"""The default XLA policy (``jit_compile=None``): measured, not guessed.

Which executor runs a graph faster cannot be read off the graph. XLA fuses
elementwise chains into one kernel and runs small loop bodies a thousand times
faster than TensorFlow's plain executor, which pays a few microseconds per op
per iteration; but XLA's CPU kernels for some ops (large reductions,
single-threaded where TensorFlow's use both cores) are slower, and
the plain executor compiles in a fraction of the time. So a graph starts on
the executor that is safer to start on and, at its first calls, both are timed
and the faster is kept. A graph without loops has a third way: the plain
executor with each op's kernel kept to the calling thread (on two cores an op
of a few hundred KiB often runs faster unsplit); it is timed too. Likewise XLA
compiled to split no loop over threads (``one_core.py``), for graphs with
arrays large enough that XLA would split one.

* Graphs without loops start on the plain executor (quick to compile: the first
  call is not kept waiting for XLA); XLA is compiled at the second call.
* Graphs with loops start under XLA, since the plain executor may be a thousand
  times slower there; its trial calls are cancelled once they run four
  times longer than XLA's best (0.1 s at least), and XLA is kept (timed
  against XLA compiled for one CPU where that is tried).
* Graphs that draw random numbers stay on one executor (XLA if they loop): the
  two turn the same random bits into different floats.
* Graphs with sizes left open (relaxed or declared ``None``) serve many sizes, so
  a measurement at the first ones would not carry: XLA for loops and chains of
  two or more elementwise ops, as measured on the benchmark suite.
* Decompositions whose XLA CPU kernels are slower at every size measured (many
  times from 16x16 on) and slow to compile are never tried under XLA.
"""
from __future__ import annotations

import statistics
import sys
import threading
import time

from tensorflow.python.eager import context as _context

from ..graph_ir.walk import all_eqns
from . import one_core
from .dispatch import (CPU_ONLY, TF_ALIGN, XLA_ALIGN, numpy_view, bounded_caller, copied_tensor,
                       fast_caller, one_thread_caller)

try:
    import resource
except ImportError:     # not on Windows: every sample counts as clean there
    resource = None

_clock = time.perf_counter     # tests substitute a fake clock


def _faults():
    """Page faults of this process so far."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt if resource else 0


def choose_xla_automatically(graph):
    """(XLA to start with, the reason, whether to time the executors)."""
    eqns = list(all_eqns(graph))
    slow = sorted({e.op.name for e in eqns if e.op.slower_under_xla})
    draws_random = any(e.op.kind == "random" for e in eqns)   # seed passed in or written inside
    if slow:
        return False, f"XLA's CPU kernels for {', '.join(slow)} are slower than TensorFlow's", \
            False
    loops = any(e.op.name == "while" for e in eqns)   # in branches too
    if draws_random:
        # The executors turn the same random bits into different floats: switching
        # would make np.random.seed stop repeating a function's draws.
        return loops, (f"draws random numbers: one executor for every call, so a seed repeats "
                       f"its draws; {'loops run under XLA' if loops else 'the plain executor'}"
                       ), False
    if any(d is None for v in graph.inputs for d in v.type.shape):
        # One graph serves many sizes: what wins at the first sizes it meets (small
        # ones, often) says little about the rest. The rule measured on the suite:
        fusable = sum(1 for e in graph.eqns if e.op.kind == "elementwise")
        xla = bool(loops) or fusable >= 2
        return xla, ("sizes vary, so not measured: " + (
            "graph loops run far faster under XLA" if loops else
            f"{fusable} elementwise ops fuse into one XLA kernel" if xla else
            "too little to fuse: the plain executor starts faster")), False
    measure = ExecutorTrial.ENABLED
    if loops:
        return True, ("measuring: starts under XLA (graph loops run far faster there); the "
                      "plain executor is timed too" if measure else
                      "graph loops run far faster under XLA"), measure
    return False, ("measuring: starts on the plain executor (quick to compile); XLA is timed "
                   "too" if measure else "the plain executor is quick to compile"), measure


# The ways a trial may run a graph: the plain executor, XLA, the plain executor with
# each kernel kept to the calling thread (for graphs whose ops run there), and XLA
# compiled to split no loop over threads (one_core.py; for graphs where XLA may split one).
PLAIN, XLA, ONE_THREAD, XLA_ONE_CPU = False, True, "one thread", "XLA one CPU"
_XLA_WAYS = (XLA, XLA_ONE_CPU)


# Entry.executor for each way.
_LABEL = {PLAIN: "plain", XLA: "xla", ONE_THREAD: "plain, one thread", XLA_ONE_CPU: "xla, one CPU"}


def _name(way):
    return {PLAIN: "the plain executor", XLA: "XLA", ONE_THREAD: "the plain executor on one "
            "thread", XLA_ONE_CPU: "XLA compiled for one CPU"}[way]


def _ms(seconds):
    return f"{seconds * 1e3:.3g} ms"


class ExecutorTrial:
    """Stands in for ``entry.call`` until one way to run the entry's graph is chosen.

    Only graphs of static shapes are measured. The ways take turns, three calls each (up
    to six, see below): XLA, the plain executor and, for graphs whose ops run on the
    calling thread (no loops), the plain executor with each kernel kept to that thread
    (on two cores, splitting an op of a few hundred KiB over both often costs more than
    it saves); for graphs with an op of 32 KiB or more, XLA compiled to split no loop
    over threads (the same trade, inside XLA). A way that fails, or a plain-executor
    loop that is cancelled, leaves the trial. A call runs the graph for the caller (the
    first time, this compiles or instantiates it), once more untimed (WARM_RUNS), then
    again, timed with the outputs' conversion to NumPy (which costs more for XLA's
    outputs), outputs dropped at once: as many timed runs as fit in RUN_BUDGET_S, up to
    16 (runs of OWN_RUN_S or more: the caller's run is the sample, one a call); a
    way with fewer than MIN_SAMPLES after three calls takes more turns, up to six. One
    run each would not do for graphs of a millisecond or less: their first runs vary by
    a factor of two. The caller's own
    outputs stay alive, so the timed run's outputs land in fresh memory and may still
    pay page faults while the allocator settles (hundreds of microseconds a call on
    large arrays): those are counted; the ways keep taking turns until each has two runs
    without many, up to six calls each, and failing that the faults' share is taken out.
    The fastest median time wins (by 3% at least, to switch from the way the graph
    started on, or to XLA for one CPU from XLA's own); the entry then calls the winner
    directly and the others are dropped. Median, not best: the plain executor's small
    graphs run in two modes, now and then in a quarter of their usual time (saxpy of
    1,024 floats: best 23 µs, every call of the suite's 110 µs), and the best run picked
    it over XLA's 25 µs.
    """

    # False: a graph stays on the executor it starts on (no other way is compiled).
    ENABLED = True
    CALLS_EACH, MAX_CALLS_EACH = 3, 6   # then decided, once each way has two clean runs
    # Fewer clean runs than this for a way after CALLS_EACH calls (a graph of milliseconds,
    # one timed run a call) and the ways take turns up to MAX_CALLS_EACH: on two cores the
    # plain executor's runs of attention over 2048 rows now and then took twice their
    # usual 4.2 ms, and two such runs out of three lost it the trial to XLA's 5.3 ms.
    MIN_SAMPLES = 5
    TRY_ONE_THREAD = True
    CLEAN_FAULTS = 16
    # What a page fault costs at least (trapping, zeroing 4 KiB): about 1.2-1.5 µs
    # measured here. Fitting it per trial proved fragile (one slow call skews it);
    # taking out too little is the safe error.
    FAULT_COST = 1e-6
    BOUND_FACTOR, BOUND_MIN_S = 4.0, 0.1
    # The way a graph started on stays unless another is faster by this share: a
    # margin only keeps a near-tie from switching. At 10%, graphs that ran 13-15% faster
    # under XLA stayed on the plain executor they started on (each of the three misses
    # of a bench.policy run, bench/RESULTS.md).
    SWITCH_MARGIN = 0.03
    # A way whose timed runs so far take this many times another's leaves the trial (a
    # run may take twice its usual time now and then, not three times).
    FAR_BEHIND = 3.0
    # Timed runs a call adds, as many as fit in this many seconds (so that a call of the
    # trial takes at most about 2 ms more than the graph's own run), up to this many.
    RUN_BUDGET_S, MAX_TIMED_RUNS = 1.5e-3, 16
    # An untimed run of the way before its timed ones, its outputs dropped: the timed runs
    # then reuse its buffers, warm in the caches, as a graph called again and again does.
    # The caller's own outputs stay alive, and the way before left the caches full of its
    # own data: attention over 2048 rows ran 1.3-1.5x slower on the plain executor right
    # after XLA than alone, so XLA won the trial, then ran 1.32x slower in the suite.
    WARM_RUNS = 1
    # A run this long is its own sample: the warm-up and repeats above are for graphs of
    # milliseconds, whose runs vary by a factor of two; a graph that runs for a tenth of a
    # second is measured well enough by the caller's own run, and repeats would make each
    # call of the trial three times as long (a channel-flow solve of 0.7 s: 2.1 s a call).
    LONG_RUN_S = 0.05
    # Compiling XLA once more for one CPU saves at most about a hundred microseconds a
    # split loop: tried only for graphs whose runs take less than this. On two cores the
    # compile, in the background, slows each call beside it about twice over while it
    # lasts (hundreds of milliseconds to seconds), for a few percent of a longer run.
    ONE_CPU_BELOW_S = 1e-3
    # Past this, a run needs no warm-up run before it: the call's own run of the same
    # way just before has warmed the caches, and one more would make the call three
    # times as long as the graph's run.
    WARM_UP_BELOW_S = 5e-4
    # Runs of this long or more are timed by the caller's own run, one sample a call:
    # one more run would add a millisecond or more to each call of the trial, more than
    # the warm-up is allowed to cost (a call at most about 2 ms, or 3x, over the steady
    # time). Every way pays the same page faults for its fresh outputs, so these samples
    # count as clean.
    OWN_RUN_S = 5e-4

    TRY_ONE_CPU_XLA = True
    # Another executor is compiled (by its first run) on a thread of its own while the
    # calls go on as the graph started; False: in the call whose turn it is.
    COMPILE_IN_BACKGROUND = True

    def __init__(self, entry, build, loops, splits=False):
        self.entry = entry
        self.build = build      # xla flag -> a new concrete function of the graph
        self.first = entry.xla
        self.loops = loops
        self.concretes = {entry.xla: entry.concrete}
        self.callers = {entry.xla: entry.call}
        self.ways = [self.first, not self.first]
        one_thread = one_thread_caller(entry.call) if self.TRY_ONE_THREAD else None
        if one_thread is not None:
            self.ways.append(ONE_THREAD)
            self.concretes[ONE_THREAD], self.callers[ONE_THREAD] = entry.concrete, one_thread
        if splits and self.TRY_ONE_CPU_XLA and one_core.AVAILABLE and CPU_ONLY:
            self.ways.append(XLA_ONE_CPU)
        self.bounded = None
        self.samples = {way: [] for way in self.ways}   # way -> (seconds, page faults) of runs
        self.turns = {way: 0 for way in self.ways}      # way -> calls it ran
        self.wall = {way: [] for way in self.ways}      # way -> its timed runs' wall times
        self.calls = 0
        self.dropped = []       # why ways left the trial early
        self.building = {}      # way -> thread building and compiling it (the calls go on)
        self.warmed = {self.first}  # ways run once on this thread since their compile
        self.lock = threading.Lock()
        self.recorder = entry.stager = _ValueRecorder(entry.stager)

    def first_label(self):
        """"plain" or "xla": the executor the graph started on."""
        return "xla" if self.first in _XLA_WAYS else "plain"

    def started_on(self, *tensors):
        """Runs the graph on the executor it started on, outside the trial's turns."""
        with self.lock:
            caller = self.callers.get(self.first) if self.entry.call is self else self.entry.call
        return caller(*tensors)

    def compiling(self):
        """Whether another executor is being compiled in the background."""
        return any(job.is_alive() for job in list(self.building.values()))

    def probe_way(self):
        """The way that might run the graph clearly faster than the one it started on, for
        adaptive dispatch to time against NumPy: XLA after the plain executor, XLA for one
        CPU after XLA; None if the trial has no such way."""
        way = XLA if self.first is PLAIN else XLA_ONE_CPU
        return way if way in self.ways else None

    def compiled_way(self, way, values):
        """The caller of ``way`` once built and compiled, None while that runs in the
        background (started here, on copies of ``values``), False if it failed."""
        with self.lock:
            if self.entry.call is not self:
                return False
            if way in self.callers:
                return self.callers[way]
            error = self._built(way, lambda: [copied_tensor(v, dt) for v, dt in
                                              zip(values, self.entry.dtypes)])
            if error is not None:
                self.dropped.append(error)
                return False
            return self.callers.get(way)

    def _built(self, way, copies):
        """Builds and compiles ``way`` (by its first run, on ``copies()`` of a call's
        inputs) on a thread of its own, or in this call where COMPILE_IN_BACKGROUND is off.
        Once done, ``way`` is in ``self.callers``; returns why it failed, else None."""
        job = self.building.get(way)
        if job is None:
            job = self.building[way] = _Compile(way, self.build, copies())
            if self.COMPILE_IN_BACKGROUND:
                job.start()
                return None
            job.run()
        if job.is_alive():
            return None
        del self.building[way]
        if job.error is None:
            self.concretes[way], self.callers[way] = job.concrete, job.caller
        return job.error

    def adopt(self, way, reason):
        """Ends the trial on ``way`` (built), as adaptive dispatch measured it."""
        with self.lock:
            if self.entry.call is self and way in self.callers:
                self._decide(way, f"{_LABEL[way]}: {reason}")

    def abandon(self):
        """Ends the trial on the executor the graph started on, untimed: NumPy runs these
        shapes, so the other executors are not worth compiling."""
        with self.lock:
            if self.entry.call is self:
                self._decide(self.first, f"{_LABEL[self.first]}: adaptive dispatch runs NumPy "
                                         f"for these shapes, so the executors were not timed")

    def __call__(self, *tensors):
        with self.lock:
            if self.entry.call is not self:     # decided while this thread waited
                return self.entry.call(*tensors)
            if not _context.executing_eagerly():   # building a graph: nothing to time
                return self.callers[self.first](*tensors)
            return self._step(tensors)

    def _step(self, tensors):
        way = self.ways[self.calls % len(self.ways)]
        first_best = min(self.wall[self.first], default=0.0)
        if way == XLA_ONE_CPU and first_best >= self.ONE_CPU_BELOW_S:   # before its compile
            return self._drop(way, f"{_name(self.first)} runs it in {_ms(first_best)}: a split "
                                   f"loop's hand-off matters not at that length", tensors)
        if way not in self.callers:
            return self._while_building(way, tensors)
        slower = self._far_behind(way)
        if slower is not None:
            return self._drop(way, slower, tensors)
        if self.building:
            # A compile runs in the background on the other core: a timing now would
            # measure the contention, so the call runs untimed, the fastest way so far.
            return self._serving()(*tensors)
        best_first = min((t for t, _ in self.samples[self.first]), default=None)
        risky = way is PLAIN and self.first is not PLAIN and self.loops
        seconds = max(self.BOUND_FACTOR * (best_first or 0.0), self.BOUND_MIN_S)
        own = self._own_runs()
        try:
            start = time.perf_counter()
            sample = _clock() if own else 0.0   # else not a sample: _clock is for samples
            outputs = self._run(way, tensors, risky, seconds)
            elapsed = time.perf_counter() - start
            if outputs is None:
                runs = None
            elif own and not self.turns[way] and way not in self.warmed:
                # Its first run since the compile (which ran on copies, on another
                # thread) is its slowest: fresh memory for its outputs, cold caches (XLA
                # at 0.23 ms against its usual 0.04). Not a sample, and not a turn.
                self.warmed.add(way)
                self.calls += 1
                return outputs
            elif own:   # the caller's own run is the sample
                runs = [(_clock() - sample, 0)]
                self.wall[way].append(elapsed)
            else:
                runs = self._timed_runs(way, tensors, risky, seconds)
            if runs is None:
                return self._drop(way, f"the plain executor was cancelled after {_ms(seconds)}",
                                  tensors, f"measured: XLA {_ms(best_first)} per call; ")
        except Exception:  # noqa: BLE001  (another way raises the graph's own errors)
            if way == self.first:
                raise
            return self._drop(way, f"{_name(way)} failed at run time", tensors)
        self.samples[way].extend(runs)
        self.turns[way] += 1
        self.calls += 1
        self._maybe_decide()
        return outputs

    def _while_building(self, way, tensors):
        """``way`` is not built yet: build and compile it (by its first run, on copies of
        this call's inputs) on a thread of its own, and run this call as the graph started
        on. XLA's compile takes tens of milliseconds to seconds; no call waits for it."""
        # Copies: the stager refills the call's input buffers at the next call.
        error = self._built(way, lambda: [copied_tensor(t, t.dtype) for t in tensors])
        if error is not None:
            return self._drop(way, error, tensors)
        if way not in self.callers:     # still compiling
            return self._serving()(*tensors)
        return self._step(tensors)

    def _serving(self):
        """The caller of the way with the least median time so far (the way the graph
        started on until another is timed): it serves the calls that are no way's turn,
        so that the calls while XLA compiles run at the speed already found."""
        medians = {way: statistics.median(t for t, _ in s) for way, s in self.samples.items()
                   if s and way in self.callers}
        way = min(medians, key=medians.get) if medians else self.first
        return self.callers[way]

    def _far_behind(self, way):
        """Why ``way`` leaves the trial early, or None: its runs so far take more than
        FAR_BEHIND times another way's, which no more turns would make up for (and each
        turn would keep a call that long). Its variant leaves with it (``_drop``): XLA for
        one CPU differs from XLA by a split loop's hand-off, the plain executor on one
        thread from the plain executor by at most about twice."""
        mine = [t for t, _ in self.samples[way]]
        if way == self.first or not mine:
            return None
        others = {w: statistics.median(t for t, _ in s) for w, s in self.samples.items()
                  if w != way and s}
        if not others:
            return None
        best = min(others, key=others.get)
        if statistics.median(mine) > self.FAR_BEHIND * others[best]:
            return (f"{_name(way)} took {_ms(statistics.median(mine))} against "
                    f"{_name(best)}'s {_ms(others[best])}: not timed further")
        return None

    def _own_runs(self):
        """Whether the caller's own runs are the samples (OWN_RUN_S, LONG_RUN_S)."""
        best = min(self.wall[self.first], default=None)
        return best is not None and best >= min(self.OWN_RUN_S, self.LONG_RUN_S)

    def _long_runs(self):
        """The first way's best time where its runs take LONG_RUN_S or more, else None
        (by the wall clock: a compiled run's own time, never a first run's compile)."""
        best = min(self.wall[self.first], default=None)
        return best if best is not None and best >= self.LONG_RUN_S else None

    def _timed_runs(self, way, tensors, risky, seconds, warm=True):
        """[(seconds, page faults)] of runs converted as a call converts them; None if one
        was cancelled. ``warm=False``: one run, timed, with no warm-up run before it."""
        runs, spent = [], 0.0
        convert = self._conversion(way in _XLA_WAYS)
        best = min(self.wall[way], default=0.0)
        for _ in range(self.WARM_RUNS if warm and best < self.WARM_UP_BELOW_S else 0):
            wall = time.perf_counter()
            dropped = self._run(way, tensors, risky, seconds)
            if dropped is None:
                return None
            wall = time.perf_counter() - wall
            del dropped
            if wall >= self.LONG_RUN_S:     # long enough to be its own sample
                self.wall[way].append(wall)
                return [(wall, 0)]
            spent += wall       # the budget bounds the call's extra time, warm-up included
        while not runs or (warm and len(runs) < self.MAX_TIMED_RUNS and
                           spent < self.RUN_BUDGET_S):
            faults, start = _faults(), _clock()
            convert()
            wall = time.perf_counter()
            timed = self._run(way, tensors, risky, seconds)
            if timed is None:
                return None
            self.wall[way].append(time.perf_counter() - wall)
            for t in timed:
                numpy_view(t)
            elapsed = _clock() - start
            runs.append((elapsed, _faults() - faults))
            spent += elapsed
            del timed
        return runs

    def _conversion(self, xla):
        """This call's input conversion as it would be under ``xla``: the plain executor
        needs 64-byte aligned data and copies large inputs NumPy aligns to 16 only (as a
        rule), XLA takes them as they are; small ones are staged alike for both."""
        values = getattr(self.recorder.local, "values", None)
        if values is None:
            return lambda: None
        align, stager, dtypes = XLA_ALIGN if xla else TF_ALIGN, self.recorder.stager, \
            self.entry.dtypes
        return lambda: stager.tensors(values, dtypes, align)[0]

    def _run(self, way, tensors, risky, seconds):
        if risky:       # a plain-executor loop may run a thousand times longer than XLA's
            return self._run_bounded(tensors, seconds)
        return self.callers[way](*tensors)

    def _run_bounded(self, tensors, seconds):
        if self.bounded is None:
            self.bounded = bounded_caller(self.concretes[PLAIN])
            if self.bounded is None:    # no way to cancel: do not risk a thousand-fold call
                return None
        return self.bounded(tensors, seconds)

    def _drop(self, way, why, tensors, measured=""):
        """Leave ``way`` out of the trial (it failed or was cancelled) and run this call the
        first way; decided where no other way is left."""
        self.dropped.append(why)
        # A failing executor takes its variant along (XLA compiled for one CPU fails alone).
        gone = [way] + ([XLA_ONE_CPU] if way is XLA else [ONE_THREAD] if way is PLAIN else [])
        self.ways = [w for w in self.ways if w == self.first or w not in gone]
        for table in (self.samples, self.turns, self.callers, self.concretes):
            for w in [w for w in table if w not in self.ways]:
                del table[w]
        if len(self.ways) == 1:
            return self._decide_and_run(self.first, measured + "; ".join(self.dropped), tensors)
        return self.callers[self.first](*tensors)

    def _maybe_decide(self):
        timed, done = self.samples, min(self.turns.values())
        if done < self.CALLS_EACH:
            return
        clean = {w: [t for t, f in s if f <= self.CLEAN_FAULTS] for w, s in timed.items()}
        if all(len(c) >= 2 for c in clean.values()):
            if done < self.MAX_CALLS_EACH and min(map(len, clean.values())) < self.MIN_SAMPLES \
                    and not self._long_runs():
                return      # a slow graph, one or two runs a call: a median of three misleads
            best, note = {w: statistics.median(c) for w, c in clean.items()}, ""
        elif done < self.MAX_CALLS_EACH:
            return      # large outputs still fault on fresh memory: a few more calls
        else:
            cost = self.FAULT_COST
            best = {w: statistics.median(max(t - cost * f, 0.0) for t, f in s)
                    for w, s in timed.items()}
            note = f" once page faults ({cost * 1e6:g} µs each) are taken out"
        keep = 1 - self.SWITCH_MARGIN
        other = min((w for w in self.ways if w != self.first), key=best.__getitem__)
        if other == XLA_ONE_CPU and best[other] >= keep * best[XLA]:
            other = XLA         # XLA's own executable, unless the variant is clearly faster
        winner = other if other != self.first and best[other] < keep * best[self.first] \
            else self.first
        self._decide(winner, f"measured: {self._times(best)} per call{note}"
                             + "".join("; " + why for why in self.dropped)
                             + {ONE_THREAD: "; kernels kept to the calling thread",
                                XLA_ONE_CPU: "; XLA compiled for one CPU (no loop split "
                                "over threads)"}.get(winner, ""))

    @staticmethod
    def _times(best):
        """The executors' times, each with its variant's (a failed executor left with its
        variant, so either may be missing)."""
        times = []
        for way, variant, how in ((XLA, XLA_ONE_CPU, "compiled for one CPU"),
                                  (PLAIN, ONE_THREAD, "on one thread")):
            if way in best:
                extra = f" ({_ms(best[variant])} {how})" if variant in best else ""
                times.append(f"{_name(way)} {_ms(best[way])}{extra}")
        return " vs ".join(times)

    def _decide(self, way, reason):
        entry = self.entry
        entry.stager = self.recorder.stager
        entry.concrete, entry.xla, entry.xla_reason = self.concretes[way], way in _XLA_WAYS, \
            reason
        entry.call, entry.executor = self.callers[way], _LABEL[way]
        if way in _XLA_WAYS:  # only now: until here a plain-executor call could read the inputs
            entry.input_align = XLA_ALIGN
        self.concretes, self.callers, self.bounded = {}, {}, None

    def _decide_and_run(self, way, reason, tensors):
        caller = self.callers[way]
        self._decide(way, reason)
        return caller(*tensors)


class _Compile(threading.Thread):
    """Builds one way of running a graph and compiles it by running it once, on inputs of
    its own."""

    def __init__(self, way, build, tensors):
        # Not a daemon: Python waits for it at exit. A daemon thread still inside
        # TensorFlow when the interpreter finalizes aborts the process ("terminate called
        # after throwing an instance of ...", status 134).
        super().__init__(daemon=False, name=f"nptf-compile-{_LABEL[way]}")
        self.way, self.build, self.tensors = way, build, tensors
        self.concrete = self.caller = self.error = None

    def run(self):
        with _short_gil_turns():
            self._run()

    def _run(self):
        try:
            concrete = self.build(self.way in _XLA_WAYS)
        except Exception as e:  # noqa: BLE001  (the trial keeps the executor that works)
            self.error = f"{_name(self.way)} failed to build: {_first_line(e)}"
            return
        caller = fast_caller(concrete)
        if self.way == XLA_ONE_CPU:
            caller = one_core.compiled_on_one_cpu(caller)
        try:
            caller(*self.tensors)
        except Exception as e:  # noqa: BLE001
            self.error = f"{_name(self.way)} failed to compile: {_first_line(e)}"
        else:
            self.concrete, self.caller = concrete, caller
        finally:
            self.tensors = None


# While a compile runs on a thread of its own, the GIL changes hands at least this often
# (Python's default: every 5 ms). Building a graph is Python code that holds the GIL, so a
# call that needs the GIL back after a TensorFlow run waited up to 5 ms for it: calls of
# 50 µs took 4-5 ms while XLA compiled beside them.
GIL_TURN_S = 2.5e-4
_gil = {"compiles": 0, "saved": None}
_gil_lock = threading.Lock()


class _short_gil_turns:
    """Python's switch interval at GIL_TURN_S while any compile runs in the background,
    restored after the last one (unless the program set another meanwhile)."""

    def __enter__(self):
        with _gil_lock:
            if _gil["compiles"] == 0:
                _gil["saved"] = sys.getswitchinterval()
                if GIL_TURN_S < _gil["saved"]:
                    sys.setswitchinterval(GIL_TURN_S)
            _gil["compiles"] += 1

    def __exit__(self, *exc):
        with _gil_lock:
            _gil["compiles"] -= 1
            if _gil["compiles"] == 0 and sys.getswitchinterval() == \
                    min(GIL_TURN_S, _gil["saved"]):
                sys.setswitchinterval(_gil["saved"])


def _first_line(error):
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


class _ValueRecorder:
    """The entry's input stager while the executors are timed: also keeps, per thread,
    the values of the call being staged, for ``ExecutorTrial._conversion``."""

    def __init__(self, stager):
        self.stager, self.local = stager, threading.local()

    def tensors(self, values, dtypes, align):
        self.local.values = values
        return self.stager.tensors(values, dtypes, align)


__all__ = ["choose_xla_automatically", "ExecutorTrial"]
