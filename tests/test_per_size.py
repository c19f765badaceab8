"""Graphs with open sizes under XLA: per size, the usual executable or one for one CPU."""
from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

import nptf
from harness import fake_clock
from nptf.runtime import dispatch, one_core, per_size
from nptf.runtime.per_size import ONE_CPU, USUAL, SizeChooser

needs_one_cpu_way = pytest.mark.skipif(not (one_core.AVAILABLE and dispatch.CPU_ONLY),
                                       reason="needs CPU affinity and no GPU")


def sigmoid(y):
    return 1.0 / (1.0 + np.exp(-y))


def _chooser(monkeypatch, durations, one_cpu_fails=False):
    """A SizeChooser over fake executables: (chooser, the calls each one ran)."""
    ran = {USUAL: 0, ONE_CPU: 0, "confined": 0}

    def usual(*tensors):
        ran[USUAL] += 1
        return [USUAL]

    def one_cpu(*tensors):
        ran[ONE_CPU] += 1
        return [ONE_CPU]

    def build():
        if one_cpu_fails:
            raise RuntimeError("no XLA today")
        return one_cpu

    def on_one_cpu(run):
        ran["confined"] += 1
        return run()

    monkeypatch.setattr(per_size, "fast_caller", lambda f: f)
    monkeypatch.setattr(one_core, "on_one_cpu", on_one_cpu)
    monkeypatch.setattr(per_size, "_clock", fake_clock(durations))
    return SizeChooser(usual, build), ran


def _calls(chooser, n, size):
    x = tf.zeros([size], tf.float32)
    return [chooser(x)[0] for _ in range(n)]


def test_each_size_keeps_the_faster_executable(monkeypatch):
    # Calls alternate usual / one CPU; the first of each compiles (its time is ignored).
    fast_one_cpu = [9.0, 9.0] + [1.0, 0.5] * 3
    slow_one_cpu = [9.0, 9.0] + [1.0, 0.99] * 3     # within the 3% margin
    chooser, ran = _chooser(monkeypatch, fast_one_cpu + slow_one_cpu)
    big, other = 1 << 16, 1 << 17
    assert _calls(chooser, 8, big) == [USUAL, ONE_CPU] * 4
    assert chooser.way_for([(big,)]) == ONE_CPU
    assert _calls(chooser, 3, big) == [ONE_CPU] * 3
    assert chooser.way_for([(other,)]) is None
    _calls(chooser, 8, other)
    assert chooser.way_for([(other,)]) == USUAL
    assert _calls(chooser, 2, other) == [USUAL] * 2
    assert ran["confined"] == 2         # one compile on one CPU per timed size


def test_small_sizes_and_sizes_past_the_limit_are_not_timed(monkeypatch):
    monkeypatch.setattr(SizeChooser, "MAX_SIZES", 1)
    chooser, ran = _chooser(monkeypatch, [9.0, 9.0] + [1.0, 0.5] * 3)
    small = one_core.SPLIT_BYTES // 4 - 1          # float32: just under the bytes XLA splits
    assert _calls(chooser, 3, small) == [USUAL] * 3
    assert chooser.way_for([(small,)]) == USUAL
    _calls(chooser, 8, 1 << 16)
    assert _calls(chooser, 3, 1 << 17) == [USUAL] * 3     # the one timed size is spent
    assert ran["confined"] == 1


def test_a_one_cpu_build_that_fails_leaves_the_usual_executable(monkeypatch):
    chooser, ran = _chooser(monkeypatch, [], one_cpu_fails=True)
    assert _calls(chooser, 4, 1 << 16) == [USUAL] * 4
    assert chooser.way_for([(1 << 16,)]) == USUAL and ran[ONE_CPU] == 0


@needs_one_cpu_way
def test_relaxed_graph_chooses_per_size_and_matches_numpy(monkeypatch):
    confined = []
    real = one_core.on_one_cpu
    monkeypatch.setattr(one_core, "on_one_cpu", lambda run: confined.append(1) or real(run))
    f = nptf.compile(sigmoid)
    rng = np.random.default_rng(0)
    sizes = [16, 1 << 12, 1 << 15, 1 << 16]
    for n in sizes:
        x = rng.standard_normal(n).astype(np.float32)
        for _ in range(10):
            got = f(x)
            expected = sigmoid(x)
            assert got.dtype == expected.dtype and got.shape == expected.shape
            np.testing.assert_allclose(got, expected, rtol=1e-6)
    x = np.zeros(1 << 16, np.float32)
    chooser = f.entry_for(x).call
    assert isinstance(chooser, SizeChooser) and f.cache_info().relaxations == 1
    assert "per size" in f.entry_for(x).xla_reason
    assert chooser.way_for([(1 << 12,)]) == USUAL                 # 16 KiB: XLA does not split
    assert chooser.way_for([(1 << 15,)]) in (USUAL, ONE_CPU)      # timed
    assert chooser.way_for([(1 << 16,)]) in (USUAL, ONE_CPU)
    assert len(confined) == 2               # each timed size compiled once on one CPU


def test_fixed_sizes_forced_xla_and_random_draws_do_not_choose_per_size():
    x = np.ones(1 << 16, np.float32)
    for f in (nptf.compile(sigmoid, relax=False),
              nptf.compile(sigmoid, jit_compile=True, relax=True)):
        for n in (1 << 15, 1 << 16, 1 << 14):
            f(np.ones(n, np.float32))
        assert not isinstance(f.entry_for(x).call, SizeChooser)
    assert f.cache_info().relaxations == 1      # forced XLA on a relaxed graph: one executable
    # Graphs that draw random numbers keep one executable for every call (a seed repeats
    # its draws); those seen so far do not relax at all, so the rule is checked directly.
    assert not per_size.applies(True, True, draws_random=True)
    assert per_size.applies(True, True, draws_random=False) == (one_core.AVAILABLE and
                                                                 dispatch.CPU_ONLY)
