"""XLA compiled for one CPU (runtime/one_core.py) as a way of the executor trial."""
from __future__ import annotations

import os
import subprocess
import sys
import threading

import numpy as np
import pytest
import tensorflow as tf

import nptf
from harness import assert_same, fake_clock
from nptf.runtime import dispatch, one_core, xla_policy
from nptf.runtime.xla_policy import ExecutorTrial

pytestmark = pytest.mark.executor_trial

needs_affinity = pytest.mark.skipif(not one_core.AVAILABLE,
                                    reason="needs per-thread CPU affinity and two CPUs")
needs_one_cpu_way = pytest.mark.skipif(not (one_core.AVAILABLE and dispatch.CPU_ONLY),
                                       reason="tried with per-thread CPU affinity, on CPU only")


@needs_affinity
def test_on_one_cpu_confines_the_call_and_frees_threads_started_in_it():
    everything = os.sched_getaffinity(0)
    seen, started, release = {}, threading.Event(), threading.Event()

    def worker():
        seen["worker"] = os.sched_getaffinity(0)
        started.set()
        release.wait()
        seen["worker after"] = os.sched_getaffinity(0)

    def run():
        seen["caller"] = os.sched_getaffinity(0)
        thread = threading.Thread(target=worker)
        thread.start()
        started.wait()
        return thread

    thread = one_core.on_one_cpu(run)
    release.set()
    thread.join()
    assert len(seen["caller"]) == 1 and seen["worker"] == seen["caller"]
    assert os.sched_getaffinity(0) == everything
    assert seen["worker after"] == everything       # inherited the confinement: given back


@needs_affinity
def test_on_one_cpu_restores_the_caller_when_the_call_raises():
    everything = os.sched_getaffinity(0)
    with pytest.raises(ZeroDivisionError):
        one_core.on_one_cpu(lambda: 1 / 0)
    assert os.sched_getaffinity(0) == everything


@needs_affinity
def test_xla_compiled_on_one_cpu_splits_no_loop():
    # What the way relies on: XLA's CPU compiler sizes its loop split by the CPUs the
    # compiling thread may use.
    f = tf.function(lambda x: tf.exp(x) * 2.0 + 1.0, jit_compile=True)
    x = tf.constant(np.ones(1 << 18, np.float32))
    usual = f.experimental_get_compiler_ir(x)(stage="optimized_hlo")
    confined = one_core.on_one_cpu(lambda: f.experimental_get_compiler_ir(x)(stage="optimized_hlo"))
    assert "outer_dimension_partitions" in usual
    assert "outer_dimension_partitions" not in confined


_TRIAL_SCRIPT = """
import time
import numpy as np, nptf
from nptf.runtime.xla_policy import ExecutorTrial
# Both XLA ways compile, however loaded the machine: no way leaves the trial for its
# times, and XLA for one CPU is tried whatever the runs take.
ExecutorTrial.FAR_BEHIND = ExecutorTrial.ONE_CPU_BELOW_S = float("inf")
f = nptf.compile(lambda y: np.exp(-y) * 2.0 + 1.0, adaptive=False)
x = np.linspace(0, 1, 1 << 18, dtype=np.float32)
start = time.perf_counter()     # the other executors compile in the background meanwhile
while isinstance(f.entry_for(x).call, ExecutorTrial) and time.perf_counter() - start < 120:
    np.testing.assert_allclose(f(x), np.exp(-x) * 2.0 + 1.0, rtol=1e-6)
assert not isinstance(f.entry_for(x).call, ExecutorTrial)
"""


@needs_one_cpu_way
def test_the_trial_compiles_xla_both_ways(tmp_path):
    # Through nptf.compile, in a fresh process: the executables XLA compiled, as dumped.
    env = dict(os.environ, XLA_FLAGS=f"--xla_dump_to={tmp_path} --xla_dump_hlo_as_text",
               TF_CPP_MIN_LOG_LEVEL="3")
    subprocess.run([sys.executable, "-c", _TRIAL_SCRIPT], env=env, check=True, timeout=300)
    dumps = [p.read_text() for p in tmp_path.glob("*inference_run_*cpu_after_optimizations.txt")]
    split = sorted("outer_dimension_partitions" in d for d in dumps)
    assert split == [False, True]       # XLA's own executable splits its loop; the other not


def test_only_graphs_with_large_ops_may_split():
    small = nptf.compile(lambda y: np.exp(-y) * 2.0).trace(np.ones(1024, np.float32))
    large = nptf.compile(lambda y: np.exp(-y) * 2.0).trace(np.ones(1 << 13, np.float32))
    assert not one_core.may_split(small.eqns) and one_core.may_split(large.eqns)


def _sig(y):
    return 1.0 / (1.0 + np.exp(-y))


@needs_one_cpu_way
@pytest.mark.parametrize("xla, one_cpu, winner", [((5, 5, 5), (1, 1, 1), "XLA one CPU"),
                                                  ((1, 1, 1), (5, 5, 5), "XLA"),
                                                  # 1% faster is a tie: XLA's own stays
                                                  ((1, 1, 1), (0.99, 0.99, 0.99), "XLA")])
def test_xla_trial_times_xla_compiled_for_one_cpu(monkeypatch, xla, one_cpu, winner):
    monkeypatch.setattr(ExecutorTrial, "TRY_ONE_THREAD", False)
    monkeypatch.setattr(ExecutorTrial, "FAR_BEHIND", float("inf"))   # every turn taken
    monkeypatch.setattr(ExecutorTrial, "MAX_TIMED_RUNS", 1)
    monkeypatch.setattr(ExecutorTrial, "MIN_SAMPLES", 3)    # decided on three calls each
    monkeypatch.setattr(xla_policy, "_faults", lambda: 0)
    # Calls in turn: plain, XLA, XLA for one CPU, plain, ...
    plain = (9, 9, 9)
    order = [t for turn in zip(plain, xla, one_cpu) for t in turn]
    monkeypatch.setattr(xla_policy, "_clock", fake_clock(order))
    confined = []
    on_one_cpu = one_core.on_one_cpu
    monkeypatch.setattr(one_core, "on_one_cpu", lambda run: confined.append(1) or on_one_cpu(run))
    f = nptf.compile(_sig)
    x = np.linspace(-3, 3, 1 << 13, dtype=np.float32)
    for _ in range(10):
        assert_same(f(x), _sig(x))
    entry = f.entry_for(x)
    assert not isinstance(entry.call, ExecutorTrial) and entry.xla
    assert confined == [1]          # its first call compiled it, confined
    assert "compiled for one CPU" in entry.xla_reason
    assert ("no loop split" in entry.xla_reason) is (winner == "XLA one CPU")
    assert entry.executor == ("xla, one CPU" if winner == "XLA one CPU" else "xla")
    assert_same(f(x), _sig(x))


@needs_one_cpu_way
def test_a_failing_way_leaves_the_trial_and_the_others_go_on(monkeypatch):
    monkeypatch.setattr(ExecutorTrial, "TRY_ONE_THREAD", False)
    monkeypatch.setattr(xla_policy, "_faults", lambda: 0)

    def broken(caller):
        def call(*tensors):
            raise RuntimeError("no")
        return call

    monkeypatch.setattr(one_core, "compiled_on_one_cpu", broken)
    f = nptf.compile(_sig)
    x = np.linspace(-3, 3, 1 << 13, dtype=np.float32)
    for _ in range(12):
        assert_same(f(x), _sig(x))
    entry = f.entry_for(x)
    assert not isinstance(entry.call, ExecutorTrial)
    assert "XLA compiled for one CPU failed to compile" in entry.xla_reason
    # The other two ways were timed: either to the end, or until XLA fell far behind
    # (a loaded machine can make XLA's first timed runs slow).
    assert ("vs the plain executor" in entry.xla_reason
            or "against the plain executor's" in entry.xla_reason), entry.xla_reason


def test_when_xla_fails_the_plain_ways_are_still_compared(monkeypatch):
    from nptf.runtime import compiled
    monkeypatch.setattr(xla_policy, "_faults", lambda: 0)
    f = nptf.compile(_sig)
    x = np.linspace(-3, 3, 1 << 13, dtype=np.float32)
    assert_same(f(x), _sig(x))                  # built on the plain executor
    concretize = compiled._concretize

    def no_xla(graph, xla):
        if xla:
            raise RuntimeError("no XLA here")
        return concretize(graph, xla)
    monkeypatch.setattr(compiled, "_concretize", no_xla)
    for _ in range(12):
        assert_same(f(x), _sig(x))
    entry = f.entry_for(x)
    assert not isinstance(entry.call, ExecutorTrial) and not entry.xla
    # Where kernels can be kept to the calling thread, that way is still timed.
    assert entry.xla_reason == "XLA failed to build: no XLA here" or (
        entry.xla_reason.startswith("measured: the plain executor")
        and "on one thread) per call; XLA failed to build: no XLA here" in entry.xla_reason)


def test_jacobi_solve_matches_numpy_whichever_way_wins():
    def jacobi(a, b):
        d = np.diag(a)
        rest = a - np.diag(d)
        x = np.zeros_like(b)
        err = 1.0
        while err > 1e-10:
            x_new = (b - rest @ x) / d
            err = np.max(np.abs(x_new - x))
            x = x_new
        return x

    rng = np.random.default_rng(0)
    a, b = rng.random((128, 128)) + 128 * np.eye(128), rng.standard_normal(128)  # converges
    f = nptf.compile(jacobi)
    for _ in range(3 * ExecutorTrial.MAX_CALLS_EACH + 1):    # three ways, up to six calls each
        np.testing.assert_allclose(f(a, b), jacobi(a, b), rtol=1e-9)
    assert not isinstance(f.entry_for(a, b).call, ExecutorTrial)
