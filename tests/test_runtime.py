"""Signature cache, shape relaxation, dispatch and fallback rules (counted via cache_info)."""
from __future__ import annotations

import functools
import gc
import inspect
import itertools
import os
import threading
import warnings

import numpy as np
import pytest
import tensorflow as tf

import nptf
from harness import assert_same, fake_clock
from nptf.runtime import dispatch, xla_policy
from nptf.runtime.xla_policy import ExecutorTrial


def errors_in_threads(work, args):
    """Run ``work(a)`` for each ``a`` in its own thread, all at once; the exceptions raised."""
    errors = []

    def guarded(a):
        try:
            work(a)
        except Exception as e:  # noqa: BLE001  (reported to the test)
            errors.append(e)

    threads = [threading.Thread(target=guarded, args=(a,)) for a in args]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def test_static_argnums_and_unhashable_static():
    f = nptf.compile(lambda x, shape: x.reshape(shape), static_argnums=1)
    assert f(np.arange(6), (2, 3)).shape == (2, 3)
    assert f(np.arange(6), (3, 2)).shape == (3, 2)
    assert f.cache_info().traces == 2
    # A list of numbers is keyed by its numbers (the function gets a copy of it).
    assert f(np.arange(6), [2, 3]).shape == (2, 3)
    assert f(np.arange(6), [2, 3]).shape == (2, 3)
    assert f.cache_info().traces == 3
    g = nptf.compile(lambda x, opts: x * len(opts), static_argnums=1)
    with pytest.warns(RuntimeWarning, match="static argument 'opts' must be hashable"):
        assert g(np.arange(6), {"a": 1}).shape == (6,)      # NumPy runs it
    strict = nptf.compile(lambda x, opts: x * len(opts), static_argnums=1, fallback="raise")
    with pytest.raises(nptf.ArgumentError, match="static argument 'opts' must be hashable"):
        strict(np.arange(6), {"a": 1})


def test_python_ints_are_static_and_floats_are_not():
    f = nptf.compile(lambda x, n, s: x[:n] * s)
    f(np.arange(5.0), 2, 1.5)
    f(np.arange(5.0), 2, 2.5)
    assert f.cache_info().traces == 1
    np.testing.assert_array_equal(f(np.arange(5.0), 3, 2.0), [0.0, 2.0, 4.0])
    assert f.cache_info().traces == 2


def test_numpy_functions_compile_directly():
    """A ufunc refuses some of its own defaults passed explicitly (dtype with signature):
    defaults go back to the function as its own."""
    x = np.linspace(-2, 2, 7, dtype=np.float32)
    cases = [(np.exp, (x,), {}), (np.add, (x, 3), {}), (np.add, (x, 3), {"dtype": np.float64}),
             (np.sum, (x.reshape(7, 1),), {"axis": 1}), (np.exp, (np.float32(2),), {}),
             (np.clip, (x, -1, 1), {}), (np.add.reduce, (x,), {})]
    for fn, args, kwargs in cases:
        got, want = nptf.compile(fn)(*args, **kwargs), fn(*args, **kwargs)
        assert type(got) is type(want) and got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-6)


def _positional_only_defaults(x, scale=None, shift=None, /):
    return x * (1.0 if scale is None else scale) + (0.0 if shift is None else shift)


def test_a_default_passed_explicitly_keeps_later_arguments_in_place():
    x = np.arange(3.0)
    g = nptf.compile(_positional_only_defaults)
    for args in [(), (2.0,), (None, 3.0), (None, None)]:
        got, want = g(x, *args), _positional_only_defaults(x, *args)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def test_star_args_and_kwargs_may_be_left_empty():
    def f(x, *args, **kwargs):
        return x + 1 + sum(args) + sum(kwargs.values())

    g = nptf.compile(f)
    x = np.zeros(3)
    for args, kwargs in [((), {}), ((2.0,), {}), ((), {"y": 3.0}), ((np.ones(3),), {"y": 2})]:
        np.testing.assert_array_equal(g(x, *args, **kwargs), f(x, *args, **kwargs))
    assert g.cache_info().traces == 4 and g.cache_info().fallbacks == 0


def test_lru_bound():
    f = nptf.compile(lambda x: x + 1, max_cache_size=2, relax=False)
    for n in (1, 2, 3):
        f(np.ones(n))
    assert f.cache_info().size == 2
    f(np.ones(1))  # evicted: traced again
    assert f.cache_info().traces == 4


def test_threads_trace_each_signature_once():
    f = nptf.compile(lambda x: np.tanh(x) * 2, relax=False)
    xs = [np.ones(n) for n in (3, 4)]
    results = []

    def work(i):
        for _ in range(20):
            results.append(f(xs[i % 2]).shape)

    assert not errors_in_threads(work, range(8))
    assert f.cache_info().traces == 2
    assert sorted(set(results)) == [(3,), (4,)]


def test_input_signature_compiles_once_for_all_sizes():
    f = nptf.compile(lambda x: (x * 2).sum(axis=-1), input_signature=[nptf.Spec((None, 3), np.float32)])
    for n in (1, 5, 17):
        x = np.ones((n, 3), np.float32)
        np.testing.assert_array_equal(f(x), (x * 2).sum(axis=-1))
    assert f.cache_info().traces == 1
    with pytest.raises(TypeError, match="input_signature says float32"):
        f(np.ones((2, 3)))
    with pytest.raises(TypeError, match="input_signature"):
        f(np.ones((2, 4), np.float32))


def test_dynamic_dimension_ops():
    def g(x):
        return x[1:-1].sum(0), x[::-1], x[-1], np.zeros_like(x), x.reshape(-1), x[:, None].squeeze(1)

    f = nptf.compile(g, input_signature=[nptf.Spec((None, 2), np.float64)])
    for n in (3, 6):
        x = np.arange(n * 2.0).reshape(n, 2)
        for got, want in zip(f(x), g(x)):
            np.testing.assert_array_equal(got, want)
            assert got.dtype == want.dtype
    assert f.cache_info().traces == 1


def as_long_python_list(x):
    # A Python list as long as the array needs its size as a Python int.
    return x + np.array(list(range(len(x))), float)


def test_a_numpy_fallback_under_a_spec_serves_every_size():
    f = nptf.compile(as_long_python_list, input_signature=[nptf.Spec((None,))])
    with pytest.warns(RuntimeWarning, match="runs with NumPy"):
        np.testing.assert_array_equal(f(np.ones(3)), 1 + np.arange(3))
    np.testing.assert_array_equal(f(np.ones(4)), 1 + np.arange(4))
    assert f.cache_info().traces == 1 and f.cache_info().fallbacks == 2


def test_code_that_needs_a_concrete_size_is_a_clear_error_under_a_spec():
    f = nptf.compile(as_long_python_list, input_signature=[nptf.Spec((None,))],
                     fallback="raise")
    with pytest.raises(nptf.UnsupportedError, match=r"Python index or size"):
        f(np.ones(3))


def test_automatic_relaxation_after_two_sizes():
    f = nptf.compile(lambda x: np.exp(x) + 1.0)
    for n in (3, 4, 5, 6, 7):
        np.testing.assert_allclose(f(np.ones(n)), np.exp(np.ones(n)) + 1.0)
    info = f.cache_info()
    assert (info.traces, info.relaxations) == (2, 1)
    assert f.entry_for(np.ones(9)).shapes == [(None,)]


def test_relaxation_falls_back_to_exact_shapes_when_code_needs_them():
    f = nptf.compile(as_long_python_list)
    for n in (3, 4, 5):
        np.testing.assert_array_equal(f(np.ones(n)), np.ones(n) + np.arange(n))
    info = f.cache_info()
    assert info.relaxations == 0 and info.fallbacks == 0


def test_retracing_warning_names_the_argument_and_dimension():
    f = nptf.compile(lambda x: x + 1, relax=False, retrace_warning=3)
    with pytest.warns(RuntimeWarning, match=r"traced 4 times.*argument #0 dimension 0.*Spec"):
        for n in range(1, 6):
            f(np.ones(n))


def test_output_tensor_mode():
    f = nptf.compile(lambda x: x * 2, output="tensor")
    out = f(np.ones(3, np.float32))
    assert isinstance(out, tf.Tensor) and out.dtype == tf.float32
    chained = f(out)
    assert isinstance(chained, tf.Tensor)
    np.testing.assert_array_equal(chained.numpy(), [4.0, 4.0, 4.0])


def test_output_tensor_inside_tf_function_checks_as_the_graph_runs():
    # Inside a tf.function the results are symbolic: the run-time checks (an index in
    # bounds) become the outer graph's assertions.
    step = tf.function(nptf.compile(lambda x, i: x[i], output="tensor"))
    assert float(step(tf.constant([1.0, 2.0, 3.0]), tf.constant(1))) == 2.0
    with pytest.raises(tf.errors.InvalidArgumentError, match="IndexError: index out of bounds"):
        step(tf.constant([1.0, 2.0, 3.0]), tf.constant(5))


def test_outputs_never_alias_inputs_constants_or_each_other():
    f = nptf.compile(lambda x: (x.copy(), x.reshape(-1), x, np.zeros(3), x + 1))
    x = np.arange(6.0)
    for _ in range(2):
        a, b, c, z, y = f(x)
        a[0] = b[1] = c[2] = z[0] = y[3] = 100
    np.testing.assert_array_equal(x, np.arange(6.0))
    np.testing.assert_array_equal(f(x)[3], np.zeros(3))
    assert all(out.flags.writeable for out in f(x))


@pytest.mark.parametrize("jit", [None, True, False])
@pytest.mark.parametrize("n", [32, 1 << 17])       # staged; too large to stage
def test_unaligned_and_strided_inputs(n, jit):
    f = nptf.compile(lambda x: x * 2, jit_compile=jit)
    base = np.arange(2 * n + 8, dtype=np.float32)
    for x in (base[1:n + 1], base[::2], np.asfortranarray(base[:n].reshape(-1, 8)),
              base[3:n + 3].reshape(-1, 8), base[:n].astype(np.float64)[:n]):
        for _ in range(3):
            assert_same(f(x), x * 2)


@pytest.mark.parametrize("jit", [None, True, False])
def test_large_copied_inputs_reuse_a_buffer_that_outputs_never_share(jit):
    # Misaligned (plain executor) or strided (both) inputs over 256 KiB are copied into
    # one buffer per argument, reused every call: an output TensorFlow forwards from
    # it (a reshape) must not change when the next call fills the buffer.
    f = nptf.compile(lambda x: (x.reshape(-1), x * 2), jit_compile=jit)
    n = 1 << 16

    def sixteen_past_64(values):
        raw = np.empty(n * 8 + 128, np.uint8)
        start = (16 - raw.ctypes.data) % 64
        out = raw[start:start + n * 8].view(np.float64)
        out[...] = values
        return out

    first, other = sixteen_past_64(np.arange(n)), sixteen_past_64(np.arange(n) + 0.25)
    assert other.ctypes.data % 64 == 16
    strided = (np.arange(2 * n, dtype=np.float64) + 0.5)[::2]
    for x in (first, strided, other):
        for _ in range(12):       # the executor trial included
            flat, twice = f(x)
            assert_same(flat, x.reshape(-1))
            assert_same(twice, x * 2)
    for x, y in ((first, other), (strided, (np.arange(2 * n, dtype=np.float64) + 7.0)[::2])):
        kept = f(x)
        f(y)
        assert_same(kept[0], x.reshape(-1))
        assert_same(kept[1], x * 2)


def test_reused_input_buffers_are_held_to_a_total(monkeypatch):
    gc.collect()        # buffers of graphs other tests dropped are released now, not below
    before = dispatch._restaged["bytes"]
    monkeypatch.setattr(dispatch, "_RESTAGE_TOTAL_BYTES", before + (3 << 20))
    n = 1 << 17                                    # 1 MiB of float64, strided: copied
    xs = [(np.arange(2 * n, dtype=np.float64) + k)[::2] for k in range(5)]
    assert not any(x.flags.c_contiguous for x in xs)
    f = nptf.compile(lambda *a: sum(a), jit_compile=False)
    for _ in range(3):
        assert_same(f(*xs), sum(xs))
    # three of the five buffers fit; the other two arguments are copied afresh each call
    assert dispatch._restaged["bytes"] - before == 3 << 20
    del f
    gc.collect()
    assert dispatch._restaged["bytes"] == before


def test_fallback_modes_and_explain():
    def f(x):
        return np.polydiv(x, x[:2] + 1.0)

    with pytest.raises(nptf.UnsupportedError):
        nptf.compile(f, fallback="raise")(np.ones(2))
    g = nptf.compile(f)
    with pytest.warns(RuntimeWarning):
        report = nptf.explain(g, np.ones(2))
    assert not report.compiled and "np.polydiv" in str(report)
    assert g.entry_for(np.ones(2)).executor is None
    assert nptf.compile(lambda x: x + 1.0, jit_compile=False).entry_for(np.ones(2)).executor \
        == "plain"
    ok = nptf.explain(lambda x: np.exp(-x) * 2.0 + 1.0, np.ones(4, np.float32))
    text = str(ok)
    assert ok.compiled and "XLA" in text and "TensorFlow ops" in text and "exp" in text


def _recurrence(b):
    a = b.copy()
    for i in range(1, a.shape[0]):
        a[i] = a[i - 1] * 0.5 + b[i]
    return a


def _loop_in_a_branch(x):
    if x[0] > 0:
        while np.max(np.abs(np.cos(x) - x)) > 1e-9:
            x = np.cos(x)
    return x


@pytest.mark.executor_trial
def test_xla_policy_starting_points():
    def sig(y):
        return 1.0 / (1.0 + np.exp(-y))

    entry = nptf.compile(sig).entry_for(np.ones(3, np.float32))
    assert not entry.xla and "measuring" in entry.xla_reason   # quick to compile first
    entry = nptf.compile(_recurrence).entry_for(np.ones(50))  # past unrolling
    assert entry.xla and "measuring" in entry.xla_reason       # loops: XLA first
    in_branch = nptf.compile(_loop_in_a_branch).entry_for(np.linspace(0.1, 1, 8))
    assert in_branch.xla and "loops" in in_branch.xla_reason   # a loop inside an if: XLA first
    masked = nptf.compile(lambda y: np.exp(y[y > 0]) * 2.0 + 1.0).entry_for(np.ones(3))
    assert not masked.xla and "nonzero" in masked.xla_reason
    assert not isinstance(masked.call, ExecutorTrial)
    chol = nptf.compile(np.linalg.cholesky).entry_for(np.eye(64))
    assert not chol.xla and "cholesky" in chol.xla_reason and not isinstance(chol.call, ExecutorTrial)
    # Tiny matrices too: TensorFlow's kernels, called on the calling thread, win there.
    tiny = nptf.compile(np.linalg.cholesky).entry_for(np.eye(4))
    assert not tiny.xla and not isinstance(tiny.call, ExecutorTrial)
    stacked = nptf.compile(lambda a: np.linalg.qr(a)[1] +
                           np.linalg.svd(a, compute_uv=False)[..., None])
    assert "qr, svd" in stacked.entry_for(np.ones((3, 8, 8), np.float32)).xla_reason
    # The user's singular vectors are LAPACK's own, which XLA cannot ask for.
    vectors = nptf.compile(lambda a: np.linalg.svd(a)[0])
    assert "LAPACK" in vectors.entry_for(np.ones((3, 8, 8), np.float32)).xla_reason
    # A float64 SVD: XLA's is not accurate enough (docs/performance.md), whatever the speed.
    assert "SVD" in stacked.entry_for(np.ones((3, 8, 8))).xla_reason
    for forced in (True, False):
        entry = nptf.compile(sig, jit_compile=forced).entry_for(np.ones(2))
        assert entry.xla is forced and not isinstance(entry.call, ExecutorTrial)


@pytest.mark.executor_trial
@pytest.mark.parametrize("plain, xla, winner", [((5, 5, 5), (1, 1, 1), True),
                                                 ((1, 2, 9), (5, 2.5, 2.2), False),
                                                 # the typical run counts, not a rare fast one
                                                 ((0.2, 1, 1), (0.5, 0.5, 0.5), True),
                                                 # 5% faster switches; 1% is a tie
                                                 ((1, 1, 1), (0.95, 0.95, 0.95), True),
                                                 ((1, 1, 1), (0.99, 0.99, 0.99), False)])
def test_xla_trial_keeps_the_faster_executor(monkeypatch, plain, xla, winner):
    def sig(y):
        return 1.0 / (1.0 + np.exp(-y))

    monkeypatch.setattr(ExecutorTrial, "TRY_ONE_THREAD", False)    # two ways here
    monkeypatch.setattr(ExecutorTrial, "MIN_SAMPLES", 3)    # decided on three calls each
    monkeypatch.setattr(ExecutorTrial, "FAR_BEHIND", float("inf"))  # every turn taken
    # Calls in turn: plain, XLA (compiles it), plain, XLA, ...; each timed on a second run.
    order = [t for pair in zip(plain, xla) for t in pair]
    monkeypatch.setattr(xla_policy, "_clock", fake_clock(order))
    monkeypatch.setattr(xla_policy, "_faults", lambda: 0)
    f = nptf.compile(sig)
    x = np.linspace(-3, 3, 7, dtype=np.float32)
    for _ in range(8):
        assert_same(f(x), sig(x))
    entry = f.entry_for(x)
    assert entry.xla is winner and entry.xla_reason.startswith("measured")
    assert not isinstance(entry.call, ExecutorTrial)
    assert_same(f(x), sig(x))


@pytest.mark.executor_trial
def test_a_way_far_behind_leaves_the_trial_after_its_first_turn(monkeypatch):
    # Plain runs take 1, XLA's 5: at its second turn XLA leaves (its turns would keep
    # calls five times as long), and the trial ends on the plain executor.
    def sig(y):
        return 1.0 / (1.0 + np.exp(-y))

    monkeypatch.setattr(ExecutorTrial, "TRY_ONE_THREAD", False)
    monkeypatch.setattr(ExecutorTrial, "MAX_TIMED_RUNS", 1)
    monkeypatch.setattr(xla_policy, "_clock", fake_clock([1, 5, 1]))
    monkeypatch.setattr(xla_policy, "_faults", lambda: 0)
    f = nptf.compile(sig, adaptive=False)
    x = np.linspace(-3, 3, 7, dtype=np.float32)
    for _ in range(4):
        assert_same(f(x), sig(x))
    entry = f.entry_for(x)
    assert not isinstance(entry.call, ExecutorTrial) and not entry.xla
    assert "XLA took 5e+03 ms against the plain executor's 1e+03 ms" in entry.xla_reason


@pytest.mark.parametrize("plain, winner", [
    # a slow graph times one run a call: two slow runs in the first three do not decide
    ((4, 8, 8, 4, 4), False),
    ((8, 4, 8, 8, 4), True),
])
@pytest.mark.executor_trial
def test_xla_trial_times_slow_graphs_until_five_runs_each(monkeypatch, plain, winner):
    def sig(y):
        return 1.0 / (1.0 + np.exp(-y))

    xla = (6,) * 5
    monkeypatch.setattr(ExecutorTrial, "TRY_ONE_THREAD", False)
    monkeypatch.setattr(ExecutorTrial, "MAX_TIMED_RUNS", 1)
    monkeypatch.setattr(xla_policy, "_clock", fake_clock([t for p in zip(plain, xla) for t in p]))
    monkeypatch.setattr(xla_policy, "_faults", lambda: 0)
    runs = []
    run = ExecutorTrial._run
    monkeypatch.setattr(ExecutorTrial, "_run", lambda self, *a: runs.append(a[0]) or run(self, *a))
    f = nptf.compile(sig)
    x = np.linspace(-3, 3, 7, dtype=np.float32)
    for _ in range(12):
        assert_same(f(x), sig(x))
    entry = f.entry_for(x)
    assert not isinstance(entry.call, ExecutorTrial) and entry.xla is winner
    # five trial calls each way, each the caller's run, an untimed run and the timed run
    assert runs == [way for _ in range(5) for way in (False, True) for _ in range(3)]


@pytest.mark.executor_trial
def test_xla_trial_takes_page_faults_out_of_the_times(monkeypatch):
    # Plain: 1.5 s clean; XLA: 0.8 s, but its calls fault more (1 µs a fault). The
    # raw best (1.5 vs 1.8) favours plain, the times without faults favour XLA.
    # Plain has one clean run only: the executors take turns six times each, then the
    # faults' share is taken out.
    plain = iter([(1.5, 0)] + [(2.5, 10 ** 6)] * 5)
    xla = iter([(1.8, 10 ** 6), (2.8, 2 * 10 ** 6)] + [(1.8, 10 ** 6)] * 4)
    turns = [sample for pair in zip(plain, xla) for sample in pair]
    monkeypatch.setattr(xla_policy, "_clock", fake_clock([t for t, _ in turns]))
    faults = iter([n for _, f in turns for n in (0, f)])
    monkeypatch.setattr(xla_policy, "_faults", lambda: next(faults))
    monkeypatch.setattr(ExecutorTrial, "TRY_ONE_THREAD", False)
    f = nptf.compile(lambda y: np.exp(-y) * 2.0 + 1.0)
    x = np.ones(4)
    for _ in range(14):
        assert_same(f(x), np.exp(-x) * 2.0 + 1.0)
    entry = f.entry_for(x)
    assert entry.xla and "XLA 800 ms" in entry.xla_reason and "page faults" in entry.xla_reason


@pytest.mark.executor_trial
def test_xla_trial_cancels_a_plain_loop_that_runs_too_long(monkeypatch):
    monkeypatch.setattr(ExecutorTrial, "BOUND_MIN_S", 0.002)
    f = nptf.compile(_recurrence)
    b = np.random.default_rng(0).random(20_000)
    expected = _recurrence(b)
    for _ in range(2 + 2 * ExecutorTrial.MAX_CALLS_EACH):   # XLA for one CPU is timed too
        np.testing.assert_allclose(f(b), expected)
    entry = f.entry_for(b)
    assert entry.xla and "cancelled" in entry.xla_reason
    assert not isinstance(entry.call, ExecutorTrial)


def test_graphs_serving_many_sizes_are_not_measured():
    # A measurement at the first sizes would not carry to the others.
    chain = nptf.compile(lambda y: np.exp(-y) * 2.0 + 1.0, input_signature=[nptf.Spec((None,))])
    small = nptf.compile(lambda y: y + 1.0, input_signature=[nptf.Spec((None,))])
    for n in range(1, 9):
        x = np.linspace(0, 1, n)
        assert_same(chain(x), np.exp(-x) * 2.0 + 1.0)
        assert_same(small(x), x + 1.0)
    entry = chain.entry_for(np.ones(3))
    assert entry.xla and "sizes vary" in entry.xla_reason and not isinstance(entry.call, ExecutorTrial)
    entry = small.entry_for(np.ones(3))
    assert not entry.xla and "sizes vary" in entry.xla_reason


@pytest.mark.executor_trial
def test_threads_during_the_xla_trial_get_their_own_results():
    f = nptf.compile(lambda y: np.sin(y) * 2.0 + y)
    inputs = [np.full(16, float(i)) for i in range(8)]

    def work(x):
        for _ in range(4):
            np.testing.assert_allclose(f(x), np.sin(x) * 2.0 + x)

    assert not errors_in_threads(work, inputs)
    assert f.entry_for(inputs[0]).xla_reason.startswith("measured")


def _cosine_fixed_point(x):
    while np.max(np.abs(np.cos(x) - x)) > 1e-9:
        x = np.cos(x)
    return x


def test_plain_graphs_without_control_flow_run_on_the_calling_thread(monkeypatch):
    from nptf.runtime import dispatch
    from nptf.runtime.dispatch import runs_inline
    built = []      # the executor each compiled graph's caller was built for
    direct = dispatch._direct_executor
    monkeypatch.setattr(dispatch, "_direct_executor",
                        lambda atomic, cancelable=False, inline=False, in_caller=False, **kw:
                        built.append(inline) or direct(atomic, cancelable, inline, in_caller,
                                                       **kw))

    def chain(y):
        return np.tanh(y) * 2.0 + np.exp(-y)

    x = np.linspace(-1, 1, 64)
    plain, xla = nptf.compile(chain, jit_compile=False), nptf.compile(chain, jit_compile=True)
    assert_same(plain(x), chain(x))
    assert built == [True]
    assert_same(xla(x), chain(x))
    loop = nptf.compile(_cosine_fixed_point, jit_compile=False)
    b = np.linspace(0, 1, 16)
    assert_same(loop(b), _cosine_fixed_point(b))
    assert built == [True, False, False]
    assert runs_inline(plain.entry_for(x).concrete)
    assert not runs_inline(xla.entry_for(x).concrete)          # one XLA op: nothing to gain
    loop_graph = loop.entry_for(b).concrete.graph.as_graph_def()
    assert any(n.op in ("While", "StatelessWhile") for n in loop_graph.node)
    assert not runs_inline(loop.entry_for(b).concrete)          # the inline executor refuses loops

    inputs = [np.full(256, i / 8.0) for i in range(8)]

    def work(y):     # one graph, many threads at once: each gets its own results
        for _ in range(20):
            np.testing.assert_allclose(plain(y), chain(y), rtol=1e-12)

    assert not errors_in_threads(work, inputs)


@pytest.mark.skipif(bool(tf.config.list_physical_devices("GPU")),
                    reason="with a GPU, TensorFlow's function call places and runs the graph")
def test_plain_graphs_run_on_the_calling_thread():
    # TensorFlow runs a function call on a thread of its pool; waking it costs tens of
    # microseconds a call on a virtual machine. The call op runs it where it is called.
    from nptf.runtime.dispatch import fast_caller
    threads = []

    def record(x):
        threads.append(threading.get_ident())
        return x

    graph = tf.function(lambda x: tf.py_function(record, [x], tf.float64) * 2.0)
    call = fast_caller(graph.get_concrete_function(tf.TensorSpec([3], tf.float64)))
    (out,) = call(tf.constant([1.0, 2.0, 3.0], tf.float64))
    np.testing.assert_array_equal(out.numpy(), [2.0, 4.0, 6.0])
    assert threads == [threading.get_ident()]


# Whether graphs can run with their kernels kept to the calling thread here (TensorFlow's
# per-thread cap found, graphs called on the calling thread: not with a GPU).
ONE_THREAD_WAY = dispatch.one_thread_caller(dispatch.fast_caller(
    tf.function(tf.identity).get_concrete_function(tf.TensorSpec([2])))) is not None
needs_one_thread_way = pytest.mark.skipif(
    not ONE_THREAD_WAY, reason="no per-thread parallelism cap here, or not on the calling thread")


@needs_one_thread_way
def test_one_thread_caller_caps_the_kernels_of_the_call_and_restores_the_cap():
    caps = []
    set_cap, get_cap = dispatch._PARALLELISM

    def record(x):
        caps.append(get_cap())
        return x

    graph = tf.function(lambda x: tf.py_function(record, [x], tf.float64) * 2.0)
    call = dispatch.fast_caller(graph.get_concrete_function(tf.TensorSpec([3], tf.float64)))
    capped = dispatch.one_thread_caller(call)
    before = get_cap()
    x = tf.constant([1.0, 2.0, 3.0], tf.float64)
    (out,) = capped(x)
    call(x)
    np.testing.assert_array_equal(out.numpy(), [2.0, 4.0, 6.0])
    assert caps == [1, before] and get_cap() == before and before > 1


@needs_one_thread_way
@pytest.mark.parametrize("plain, xla, one, winner", [
    ((5, 5, 5), (4, 4, 4), (1, 1, 1), "one thread"),
    ((5, 5, 5), (1, 1, 1), (2, 2, 2), True),
    ((1, 1, 1), (5, 5, 5), (0.99, 0.99, 0.99), False),      # a tie stays where it started
])
@pytest.mark.executor_trial
def test_xla_trial_also_times_kernels_kept_to_the_calling_thread(monkeypatch, plain, xla, one,
                                                                 winner):
    def sig(y):
        return 1.0 / (1.0 + np.exp(-y))

    f = nptf.compile(sig)
    x = np.linspace(-3, 3, 7, dtype=np.float32)
    # Calls in turn: plain, XLA (compiles it), one thread, plain, ...
    order = [t for turn in zip(plain, xla, one) for t in turn]
    monkeypatch.setattr(xla_policy, "_clock", fake_clock(order))
    monkeypatch.setattr(xla_policy, "_faults", lambda: 0)
    monkeypatch.setattr(ExecutorTrial, "MAX_TIMED_RUNS", 1)
    monkeypatch.setattr(ExecutorTrial, "MIN_SAMPLES", 3)
    for _ in range(10):
        assert_same(f(x), sig(x))
    entry = f.entry_for(x)
    assert not isinstance(entry.call, ExecutorTrial)
    assert entry.xla is (winner is True)
    assert ("kept to the calling thread" in entry.xla_reason) is (winner == "one thread")
    assert entry.executor == {True: "xla", False: "plain", "one thread": "plain, one thread"}[winner]
    assert "on one thread" in entry.xla_reason
    assert_same(f(x), sig(x))


@pytest.mark.parametrize("in_caller", [True, False])
def test_a_graph_the_single_threaded_executor_refuses_runs_on_the_default_one(monkeypatch,
                                                                               in_caller):
    # Grappler may leave what the single-threaded executor refuses (a loop here, forced
    # onto it; a reference-typed accumulator for a large sum of slices on the function
    # path): it refuses before any op runs, and the call is made again on the default one.
    from nptf.runtime import dispatch
    monkeypatch.setattr(dispatch, "runs_inline", lambda concrete: True)
    monkeypatch.setattr(dispatch, "_CALLER_THREAD_OK", in_caller)
    built = []
    direct = dispatch._direct_executor
    monkeypatch.setattr(dispatch, "_direct_executor",
                        lambda atomic, cancelable=False, inline=False, in_caller=False, **kw:
                        built.append((inline, in_caller)) or
                        direct(atomic, cancelable, inline, in_caller, **kw))
    b = np.linspace(0, 1, 16)
    f = nptf.compile(_cosine_fixed_point, jit_compile=False)
    for _ in range(2):
        assert_same(f(b), _cosine_fixed_point(b))
    # refused once, then the default executor for good
    assert built == [(True, in_caller), (False, in_caller)]


_SMALL_MATMUL_AT_NUMPYS_ALIGNMENT = """
import numpy as np, nptf
def past(shape):
    # data 16 bytes past a 64-byte boundary, where NumPy puts large arrays
    n = int(np.prod(shape))
    buf = np.zeros(n + 32, np.float32)
    start = (-buf.ctypes.data) % 64 // 4 + 4
    x = buf[start:start + n].reshape(shape)
    x[...] = np.random.default_rng(0).random(shape, dtype=np.float32)
    assert x.ctypes.data % 64 == 16
    return x
a, w, b = past((8, 3)), past((3, 30000)), past((30000,))
for options in ({"jit_compile": True}, {}):
    f = nptf.compile(lambda a, w, b: np.maximum(a @ w + b, 0), **options)
    for _ in range(40):
        np.testing.assert_allclose(f(a, w, b), np.maximum(a @ w + b, 0), rtol=1e-5)
"""


def test_xla_gets_its_inputs_aligned_as_it_assumes():
    """XLA's kernel for a small matmul loads its parameters with aligned vector moves: on
    a large NumPy array (16 bytes past a 64-byte boundary) passed as it is, the process
    died (SIGSEGV; NPBench's mlp now and then). In a process of its own."""
    import subprocess
    import sys
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    done = subprocess.run([sys.executable, "-c", _SMALL_MATMUL_AT_NUMPYS_ALIGNMENT], env=env,
                          timeout=300, capture_output=True, text=True)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])


@pytest.mark.executor_trial
def test_xla_trial_times_small_graphs_many_times_a_call(monkeypatch):
    seen = []
    decide = ExecutorTrial._maybe_decide

    def spy(self):
        seen.append((self.calls, {x: len(s) for x, s in self.samples.items()}, list(self.ways)))
        return decide(self)

    monkeypatch.setattr(ExecutorTrial, "_maybe_decide", spy)
    monkeypatch.setattr(ExecutorTrial, "RUN_BUDGET_S", 60.0)   # never the limit here
    monkeypatch.setattr(xla_policy, "_faults", lambda: 0)
    f = nptf.compile(lambda y: np.exp(-y) * 2.0 + 1.0)
    x = np.ones(8)
    for _ in range(10):
        assert_same(f(x), np.exp(-x) * 2.0 + 1.0)
    calls, runs, ways = seen[-1]
    each = ExecutorTrial.CALLS_EACH * ExecutorTrial.MAX_TIMED_RUNS
    assert calls == ExecutorTrial.CALLS_EACH * len(ways)
    assert runs == {way: each for way in ways}
    assert f.entry_for(x).xla_reason.startswith("measured")


# Adaptive dispatch's NumPy side: the function itself, or the graph as a NumPy program.
NUMPY_SIDE = ("numpy", "numpy program")


def _until_decided(f, *args, check=lambda result: None):
    """Call ``f`` until adaptive dispatch has chosen a way for these arguments."""
    for _ in range(200):
        check(f(*args))
        if f.adaptive_choice(*args) is not None:
            return f.adaptive_choice(*args)
    raise AssertionError("adaptive dispatch did not decide in 200 calls")


def test_adaptive_dispatch_keeps_numpy_results_exact():
    def sig(y):
        return 1.0 / (1.0 + np.exp(-y))

    f = nptf.compile(sig, adaptive=True)
    x = np.linspace(-2, 2, 5, dtype=np.float32)
    def check(got):
        assert got.dtype == np.float32 and got.shape == (5,)
        np.testing.assert_allclose(got, sig(x), rtol=1e-6)
    # Calls choose the graph's executor, then compare it with NumPy.
    assert _until_decided(f, x, check=check) in ("graph", *NUMPY_SIDE)
    check(f(x))
    big = np.linspace(-2, 2, 1 << 16, dtype=np.float32)
    # Decided per shape, even where one relaxed graph serves both sizes.
    assert _until_decided(f, big, check=lambda got: np.testing.assert_allclose(
        got, sig(big), rtol=1e-6)) in ("graph", *NUMPY_SIDE)


def test_adaptive_numpy_shortcut_only_takes_the_shapes_it_measured():
    f = nptf.compile(lambda y: y * 2 + 1, adaptive=True)
    x = np.ones(1)
    # NumPy's microsecond beats any graph call on one element.
    assert _until_decided(f, x) in NUMPY_SIDE
    for other in (np.ones(1, np.float32), np.ones(2), np.ones((1, 1)), np.ones(3), np.ones(1, np.int8)):
        expected = np.asarray(other) * 2 + 1
        got = f(other)
        assert got.dtype == expected.dtype and got.shape == expected.shape
    assert f.cache_info().traces >= 4     # the other signatures went through the cache
    np.testing.assert_array_equal(f(y=x), x * 2 + 1)
    f.clear_cache()
    assert f(x).dtype == np.float64 and f.cache_info().traces == 1


def test_the_way_chosen_is_readable_for_calls_with_python_numbers_and_keywords():
    f = nptf.compile(lambda y, scale, shift=0.0: y * scale + shift, adaptive=True)
    x = np.ones(1)
    # NumPy's microsecond beats any graph call on one element.
    assert _until_decided(f, x, 2) in NUMPY_SIDE
    assert f.way_for(x, 2) in ("the NumPy function", "the graph as NumPy calls")
    assert f.adaptive_choice(x, 3) is None and f.way_for(x, 3) is None     # another signature
    for _ in range(200):
        f(x, 2, shift=1.0)
        if f.adaptive_choice(x, 2, shift=1.0) is not None:
            break
    assert f.adaptive_choice(x, 2, shift=1.0) in NUMPY_SIDE


def test_adaptive_dispatch_may_run_the_graph_as_a_numpy_program(monkeypatch):
    from nptf.runtime import compiled as compiled_module
    # Counts the runs of the function's own code (traced, or called). An iterator's
    # position is state nptf does not compare across a trace; a list appended to
    # would be, and would send the function to NumPy for good.
    calls = itertools.count()

    def axpb(x, y):
        next(calls)
        return np.maximum(2.5 * x + y, 0)

    # A clock on which the NumPy program is the fastest way (each way's cost per call).
    cost, now = {"graph": 5e-6, "numpy": 3e-6, "numpy program": 1e-6}, [0.0]
    run_path = compiled_module.Compiled._run_path

    def timed(self, path, *rest, **options):
        result = run_path(self, path, *rest, **options)
        now[0] += cost[path]
        return result
    monkeypatch.setattr(compiled_module.Compiled, "_run_path", timed)
    monkeypatch.setattr(compiled_module.time, "perf_counter", lambda: now[0])
    f = nptf.compile(axpb, adaptive=True)
    x, y = np.linspace(-1, 1, 8, dtype=np.float32), np.ones(8, np.float32)
    def close(x, y):    # the graph (XLA may fuse into an FMA) while the ways are timed
        return lambda got: np.testing.assert_allclose(got, np.maximum(2.5 * x + y, 0),
                                                      rtol=1e-6, atol=1e-6)
    assert _until_decided(f, x, y, check=close(x, y)) == "numpy program"
    ran = next(calls)
    first, second = f(x, y), f(x, y)          # the entry point's shortcut
    assert next(calls) == ran + 1              # the program ran, not the function
    assert first.dtype == np.float32 and first is not second and first.flags.writeable
    np.testing.assert_array_equal(first, np.maximum(2.5 * x + y, 0))
    assert not np.shares_memory(first, x) and not np.shares_memory(first, y)
    got = f(x, np.ones(8))                     # other dtypes: through the cache
    assert got.dtype == np.float64
    # Other lengths share one shape-relaxed graph, whose program reads the sizes at run time.
    for n in (5, 9, 31):
        x, y = np.linspace(-1, 1, n, dtype=np.float32), np.ones(n, np.float32)
        assert _until_decided(f, x, y, check=close(x, y)) == "numpy program"
        got = f(x, y)          # the program: NumPy's own operations, to the bit
        assert got.dtype == np.float32 and got.shape == (n,)
        np.testing.assert_array_equal(got, np.maximum(2.5 * x + y, 0))
    assert f.cache_info().relaxations >= 1
    assert None in f.entry_for(x, y).shapes[0]


def test_adaptive_dispatch_times_numpy_warm_too(monkeypatch):
    # A NumPy call right after a TensorFlow call runs on cold caches. On this clock the
    # function costs 3 then and 1 after itself, the graph 2: taking turns would only
    # ever time the function cold, and keep the graph.
    from nptf.runtime import compiled as compiled_module
    now, last = [0.0], [None]
    run_path = compiled_module.Compiled._run_path

    def timed(self, path, *rest, **options):
        result = run_path(self, path, *rest, **options)
        now[0] += 2.0 if path == "graph" else 3.0 if last[0] == "graph" else 1.0
        last[0] = path
        return result
    monkeypatch.setattr(compiled_module.Compiled, "_run_path", timed)
    monkeypatch.setattr(compiled_module.time, "perf_counter", lambda: now[0])
    f = nptf.compile(lambda x: x * 2.0 + 1.0, adaptive=True)
    x = np.arange(8.0)
    assert _until_decided(f, x) in NUMPY_SIDE


@pytest.mark.executor_trial
def test_adaptive_dispatch_is_the_default_and_decides_by_the_tenth_call(monkeypatch):
    """By default a function whose graph call costs more than NumPy's own runs NumPy from
    the tenth call with those shapes (the first runs the graph, eight time the function,
    the short ones beside its NumPy program, one the graph); the graph's other executors
    are then never compiled."""
    monkeypatch.delenv("NPTF_ADAPTIVE", raising=False)
    f = nptf.compile(lambda y: y * 2 + 1)
    assert f.adaptive
    x = np.ones(8)
    assert_same(f(x), x * 2 + 1)
    assert f.way_for(x) is None                   # still timing
    for _ in range(8):
        assert_same(f(x), x * 2 + 1)
    assert f.adaptive_choice(x) is None           # the graph's turn comes next
    assert_same(f(x), x * 2 + 1)
    assert f.adaptive_choice(x) in NUMPY_SIDE     # NumPy's microsecond beats any graph call
    assert f.way_for(x) in ("the NumPy function", "the graph as NumPy calls")
    assert not isinstance(f.entry_for(x).call, ExecutorTrial)
    assert "adaptive dispatch runs NumPy" in f.entry_for(x).xla_reason
    assert_same(f(x), x * 2 + 1)
    # Tensors out cannot come from NumPy: no adaptive dispatch there.
    assert not nptf.compile(lambda y: y, output="tensor").adaptive
    with pytest.raises(ValueError, match="output='numpy'"):
        nptf.compile(lambda y: y, adaptive=True, output="tensor")
    monkeypatch.setenv("NPTF_ADAPTIVE", "0")
    assert not nptf.compile(lambda y: y).adaptive
    monkeypatch.setenv("NPTF_ADAPTIVE", "maybe")
    with pytest.raises(ValueError, match="NPTF_ADAPTIVE"):
        nptf.compile(lambda y: y)


def test_adaptive_dispatch_decides_after_a_turn_that_raised(monkeypatch):
    """The graph's timed turn raised (NumPy's LinAlgError for a singular matrix): the next
    call times it again; it ran the graph for good before, never deciding."""
    f = nptf.compile(np.linalg.inv, adaptive=True)
    good, singular = np.eye(2) * 2.0, np.ones((2, 2))
    for _ in range(9):      # the graph's first call, then the function's turns
        assert_same(f(good), np.linalg.inv(good))
    with pytest.raises(np.linalg.LinAlgError):
        f(singular)                     # the graph's turn
    assert f.adaptive_choice(good) is None
    assert_same(f(good), np.linalg.inv(good))
    assert f.adaptive_choice(good) is not None


def noise(x):
    return x + np.random.standard_normal(x.shape)


def test_adaptive_dispatch_keeps_the_graph_for_functions_that_draw_random_numbers(monkeypatch):
    # NumPy's draws are other numbers than the graph's: a switch would change them. (A
    # function that seeds its own stream draws NumPy's numbers: either may run it.)
    monkeypatch.delenv("NPTF_ADAPTIVE", raising=False)
    f = nptf.compile(noise)
    x = np.ones(4)
    np.random.seed(0)
    first = f(x)
    for _ in range(8):
        np.random.seed(0)
        np.testing.assert_array_equal(f(x), first)
    assert f.adaptive_choice(x) == "graph"


_EXIT_WHILE_COMPILING = """
import numpy as np, nptf
from nptf.runtime.xla_policy import ExecutorTrial
def f(x):
    return np.sqrt(np.abs(np.sin(x) * np.cos(x) + 1.0)).sum()
c = nptf.compile(f, adaptive=False)
x = np.random.default_rng(0).random(100_000)
for _ in range(3):
    c(x)
trial = c.entry_for(x).call
assert isinstance(trial, ExecutorTrial) and trial.compiling()
"""


def test_a_process_that_ends_while_xla_compiles_in_the_background_exits_cleanly():
    # The process aborted (status 134) when its compile thread was a daemon thread.
    import subprocess
    import sys
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    done = subprocess.run([sys.executable, "-c", _EXIT_WHILE_COMPILING], env=env, timeout=300,
                          capture_output=True, text=True)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])


@pytest.mark.executor_trial
def test_no_call_waits_for_another_executors_compile(monkeypatch):
    """The executor trial compiles XLA on a thread of its own (here a compile that takes a
    second): the calls meanwhile run on the executor the graph started on."""
    import time
    monkeypatch.setattr(ExecutorTrial, "COMPILE_IN_BACKGROUND", True)
    monkeypatch.setattr(ExecutorTrial, "TRY_ONE_THREAD", False)
    monkeypatch.setattr(ExecutorTrial, "TRY_ONE_CPU_XLA", False)
    run = xla_policy._Compile.run

    def slow(self):
        time.sleep(1.0)
        run(self)
    monkeypatch.setattr(xla_policy._Compile, "run", slow)

    def sig(y):
        return 1.0 / (1.0 + np.exp(-y))
    f = nptf.compile(sig, adaptive=False)
    x = np.linspace(-3, 3, 64)
    assert_same(f(x), sig(x))
    assert isinstance(f.entry_for(x).call, ExecutorTrial)
    durations, start = [], time.perf_counter()
    while isinstance(f.entry_for(x).call, ExecutorTrial) and time.perf_counter() - start < 60:
        t = time.perf_counter()
        assert_same(f(x), sig(x))
        durations.append(time.perf_counter() - t)
    assert not isinstance(f.entry_for(x).call, ExecutorTrial)
    assert "measured" in f.entry_for(x).xla_reason and "XLA" in f.entry_for(x).xla_reason
    assert max(durations) < 0.5 and time.perf_counter() - start > 1.0


def _clocked(monkeypatch, cost):
    """Adaptive dispatch on a fake clock: each way's call costs ``cost(path, options,
    calls so far)`` seconds."""
    from nptf.runtime import compiled as compiled_module
    now, calls = [0.0], [0]
    run_path = compiled_module.Compiled._run_path

    def timed(self, path, *rest, **options):
        result = run_path(self, path, *rest, **options)
        now[0] += cost(path, options, calls[0])
        calls[0] += 1
        return result
    monkeypatch.setattr(compiled_module.Compiled, "_run_path", timed)
    monkeypatch.setattr(compiled_module.time, "perf_counter", lambda: now[0])


@pytest.mark.executor_trial
@pytest.mark.parametrize("xla_cost, kept", [(1e-3, "graph"), (5e-3, "numpy")])
def test_numpy_serves_the_calls_while_an_executor_that_might_beat_it_compiles(
        monkeypatch, xla_cost, kept):
    """NumPy (4 ms) beats the plain executor (8 ms) but not what XLA might do: NumPy
    serves the calls while XLA compiles, then one call times the graph under XLA, and
    the faster of the two is kept; the other executors are not timed."""
    def cost(path, options, n):
        if path != "graph":
            return 4e-3
        return xla_cost if options.get("caller") is not None else 8e-3
    _clocked(monkeypatch, cost)

    def chain(y):
        return np.sqrt(np.abs(np.sin(y) * np.cos(y) + 1.0))
    f = nptf.compile(chain, adaptive=True)
    x = np.linspace(-1, 1, 64)
    for _ in range(4):
        assert_same(f(x), chain(x))
    assert f.adaptive_choice(x) == "numpy" and f.way_for(x) is None    # XLA not timed yet
    for _ in range(2):
        assert_same(f(x), chain(x))
    assert f.adaptive_choice(x) == kept
    entry = f.entry_for(x)
    assert not isinstance(entry.call, ExecutorTrial)
    if kept == "graph":
        assert entry.executor == "xla" and "adaptive dispatch timed it" in entry.xla_reason
        assert f.way_for(x) == "the graph (xla executor)"
    else:
        assert entry.executor == "plain" and "were not timed" in entry.xla_reason
        assert f.way_for(x) == "the NumPy function"


def _held_background_compiles(monkeypatch):
    """Executor trials compile in the background, each compile held until the returned
    event is set."""
    monkeypatch.setattr(ExecutorTrial, "COMPILE_IN_BACKGROUND", True)
    compile_run, release = xla_policy._Compile.run, threading.Event()

    def held(self):
        release.wait(30)
        compile_run(self)
    monkeypatch.setattr(xla_policy._Compile, "run", held)
    return release


@pytest.mark.executor_trial
def test_numpy_calls_beside_a_compile_are_not_what_the_probe_beats(monkeypatch):
    """As above, with XLA (6 ms) slower than NumPy (4 ms), whose calls while XLA compiles
    in the background take 12 ms (the compile shares the cores): those are not timed, and
    NumPy is timed once more after the compile, so NumPy is kept."""
    compiling = [False]         # NumPy's first timings: apart from any compile

    def cost(path, options, n):
        if path != "graph":
            return 12e-3 if compiling[0] else 4e-3
        return 6e-3 if options.get("caller") is not None else 8e-3
    _clocked(monkeypatch, cost)
    release = _held_background_compiles(monkeypatch)

    def chain(y):
        return np.sqrt(np.abs(np.sin(y) * np.cos(y) + 1.0))
    f = nptf.compile(chain, adaptive=True, fallback="raise")
    x = np.linspace(-1, 1, 64)
    try:
        for _ in range(4):
            assert_same(f(x), chain(x))
        compiling[0] = True
        for _ in range(3):
            assert_same(f(x), chain(x))
        assert isinstance(f.entry_for(x).call, ExecutorTrial)
    finally:
        release.set()
        _join_compiles()
    compiling[0] = False
    for _ in range(2):
        assert_same(f(x), chain(x))
    assert f.adaptive_choice(x) == "numpy" and f.way_for(x) == "the NumPy function"
    assert "were not timed" in f.entry_for(x).xla_reason


def test_long_calls_run_the_other_way_again_once_the_allocator_settles(monkeypatch):
    """The function's first calls on large arrays pay page faults (3 ms), the graph's do
    not (2 ms): the graph is kept, but sixteen calls later NumPy runs once more, now in
    1 ms, and serves the calls from then on."""
    def cost(path, options, n):
        if path == "graph":
            return 2e-3
        return 3e-3 if n < 10 else 1e-3
    _clocked(monkeypatch, cost)
    f = nptf.compile(lambda y: y * 2.0 + 1.0, jit_compile=False, adaptive=True)
    x = np.ones(64)
    for _ in range(5):
        f(x)
    assert f.adaptive_choice(x) == "graph"
    for _ in range(20):
        assert_same(f(x), x * 2.0 + 1.0)
    assert f.adaptive_choice(x) == "numpy"


@pytest.mark.executor_trial
def test_a_recheck_waits_while_another_executor_compiles(monkeypatch):
    """As above, but XLA compiles in the background when the 16th call comes: NumPy's run
    then would be slowed by the compile (and stall the call), so the recheck waits until
    the compile is done."""
    def cost(path, options, n):
        if path == "graph":
            return 2e-3
        return 3e-3 if n < 10 else 1e-3
    _clocked(monkeypatch, cost)
    release = _held_background_compiles(monkeypatch)
    numpy_calls = []

    def affine(y):
        if type(y) is np.ndarray:   # not while traced
            numpy_calls.append(1)
        return y * 2.0 + 1.0
    f = nptf.compile(affine, adaptive=True)
    x = np.ones(64)
    try:
        for _ in range(5):
            f(x)
        assert f.adaptive_choice(x) == "graph"
        trial = f.entry_for(x).call
        assert isinstance(trial, ExecutorTrial)
        before = len(numpy_calls)
        for _ in range(20):
            assert_same(f(x), x * 2.0 + 1.0)
        assert trial.compiling() and len(numpy_calls) == before
    finally:
        release.set()
        _join_compiles()
    for _ in range(5):
        assert_same(f(x), x * 2.0 + 1.0)
    assert len(numpy_calls) > before and f.adaptive_choice(x) == "numpy"


def test_no_numpy_program_where_it_would_change_what_the_function_does():
    def writes(x):
        x[0] = 1.0
        return x * 2

    def draws(x):
        return x + np.random.standard_normal(x.shape)

    def loops(x):
        while x.sum() < 10:
            x = x * 2
        return x

    for fn, why in ((writes, "writes into its arguments"), (draws, "random"),
                    (loops, "sub-graphs")):
        with pytest.raises(nptf.UnsupportedError, match=why):
            nptf.compile(fn).interpret(np.ones(3), program=True)
        f = nptf.compile(fn, adaptive=True)
        assert _until_decided(f, np.ones(3)) in ("graph", "numpy")


def test_adaptive_numpy_shortcut_checks_every_argument():
    def axpy(x, y):
        return 2.5 * x + y

    for f in (nptf.compile(axpy, adaptive=True), nptf.compile(lambda *xy: axpy(*xy), adaptive=True)):
        x, y = np.ones(4, np.float32), np.ones(4, np.float32)
        assert _until_decided(f, x, y) in NUMPY_SIDE
        for other in ((x, np.ones(4)), (x, np.ones((2, 4), np.float32)), (x, [1.0] * 4),
                      (np.ones(4), y), (x, np.float32(2.0))):
            expected = axpy(*[np.asarray(o) for o in other])
            got = f(*other)
            assert got.dtype == expected.dtype and got.shape == expected.shape
            np.testing.assert_allclose(got, expected)
        np.testing.assert_array_equal(f(x, y=y) if f.__name__ == "axpy" else f(x, y), 2.5 * x + y)


@pytest.mark.parametrize("options", [{}, {"adaptive": True}, {"jit_compile": True},
                                     {"output": "tensor"}])
def test_a_call_leaves_no_reference_cycles(options):
    # Garbage in a cycle waits for the cyclic collector, and with it the call's outputs
    # (or inputs): the allocator then hands every call fresh, cold memory.
    cases = [(lambda x: x * 2, (np.ones(3),)),
             (lambda x: (x * 2, {"s": x.sum()}, [x, x + 1]), (np.ones(3),)),
             (lambda t, d: t[0] + d["k"], ((np.ones(3), np.ones(3)), {"k": np.ones(3)})),
             (lambda x: np.sum(x), ([1.0, 2.0],))]
    for fn, args in cases:
        f = nptf.compile(fn, **options)
        for _ in range(150):     # past the executor trial and adaptive dispatch's timing
            f(*args)
        gc.collect()
        gc.disable()
        try:
            del_result = f(*args)
            del del_result
            assert gc.collect() == 0
        finally:
            gc.enable()


def test_compile_returns_a_plain_function_carrying_the_cache():
    def scale(x, factor=2.0):
        """Doubles."""
        return x * factor

    f = nptf.compile(scale, static_argnames="factor")
    assert type(f) is type(scale) and f.__name__ == "scale" and f.__doc__ == "Doubles."
    assert inspect.signature(f) == inspect.signature(scale)
    assert nptf.compiled_of(f) is f.compiled and isinstance(f.compiled, nptf.Compiled)
    assert f.static_argnames == {"factor"} and nptf.compiled_of(scale) is None
    np.testing.assert_array_equal(f(np.ones(2)), [2.0, 2.0])
    np.testing.assert_array_equal(f(x=np.ones(2), factor=3.0), [3.0, 3.0])
    assert f.cache_info().traces == 2 and nptf.explain(f, np.ones(2)).compiled
    assert nptf.compile(lambda: np.arange(3))().tolist() == [0, 1, 2]
    with pytest.raises(TypeError, match="scale"):
        f()
    exact = nptf.compile(lambda x, y: x - y)       # an entry point with the same parameters
    np.testing.assert_array_equal(exact(y=np.ones(2), x=np.zeros(2)), [-1.0, -1.0])
    shadows = nptf.compile(lambda x, len: x * len, adaptive=True)    # a builtin's name
    for _ in range(16):
        np.testing.assert_array_equal(shadows(np.ones(2), np.full(2, 3.0)), [3.0, 3.0])
    with pytest.raises(TypeError, match="positional"):
        exact(np.ones(2), np.ones(2), np.ones(2))

    class Shift:                    # callable objects and partials compile too
        def __call__(self, x):
            return x + 1

    np.testing.assert_array_equal(nptf.compile(Shift())(np.ones(2)), [2.0, 2.0])
    np.testing.assert_array_equal(nptf.compile(functools.partial(scale, factor=3.0))(np.ones(2)),
                                  [3.0, 3.0])

    class Model:
        @nptf.compile
        def shift(self, x):
            return x + 1

    with pytest.warns(RuntimeWarning, match="argument 'self'"):
        # Binds as a method, then says self cannot be traced: NumPy runs it.
        np.testing.assert_array_equal(Model().shift(np.ones(2)), [2.0, 2.0])


def test_special_values_and_empty_inputs():
    f = nptf.compile(lambda x: (x * 2, x.sum(), np.isnan(x)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = f(np.array([np.nan, np.inf, -np.inf, 1.0]))
    np.testing.assert_array_equal(out[0], [np.nan, np.inf, -np.inf, 2.0])
    assert np.isnan(out[1])
    empty = f(np.zeros((0, 3)))
    assert empty[0].shape == (0, 3) and empty[1] == 0.0


def test_bad_arguments_name_the_argument():
    f = nptf.compile(lambda x, y: x, fallback="raise")
    with pytest.raises(nptf.ArgumentError, match="argument 'y'"):
        f(np.ones(2), np.array([object()]))
    with pytest.raises(TypeError, match="argument 'y'.*not supported"):
        f(np.ones(2), object())
    with pytest.warns(RuntimeWarning, match="argument 'y'.*not supported") as record:
        assert nptf.compile(lambda x, y: x)(np.ones(2), object()).shape == (2,)
    assert record[0].filename == __file__           # the warning points at the call


@pytest.mark.parametrize("fn", [lambda x: x, lambda x: x.reshape(2, 2), lambda x: x[::-1],
                                lambda x: (x + 1, x.T)])
def test_results_never_share_memory_with_a_later_call(fn):
    # Small inputs reach the graph through buffers reused from call to call.
    f = nptf.compile(fn)
    a, b = np.arange(4.0), np.arange(4.0) * 10
    first = f(a)
    expected = tuple(np.copy(r) for r in first) if isinstance(first, tuple) else np.copy(first)
    f(b)
    a[:] = -1
    for got, want in zip(first if isinstance(first, tuple) else (first,),
                         expected if isinstance(expected, tuple) else (expected,)):
        np.testing.assert_array_equal(got, want)


def test_threads_calling_one_function_get_their_own_results():
    f = nptf.compile(lambda x: x * 2 + 1)
    f(np.zeros(8))

    def work(k):
        x = np.full(8, float(k))
        for _ in range(200):
            assert np.array_equal(f(x), x * 2 + 1), k

    assert not errors_in_threads(work, range(4))


def test_a_graph_serving_many_sizes_keeps_one_staging_buffer_per_argument():
    f = nptf.compile(lambda x, y: x * y, input_signature=[nptf.Spec((None,)), nptf.Spec(())])
    for n in range(1, 40):
        x = np.arange(float(n))
        np.testing.assert_array_equal(f(x, np.float64(3.0)), x * 3.0)
    (entry,) = {id(e): e for e in f.compiled._cache.values()}.values()
    assert len(entry.stager._local.slots) == 2


def _sixteen_past_64(n):
    """A float32 array of n elements whose data is 16 bytes past a 64-byte boundary,
    where NumPy puts large arrays (too large to stage: the direct path)."""
    buf = np.zeros(n + 32, np.float32)
    start = (-buf.ctypes.data) % 64 // 4 + 4
    x = buf[start:start + n]
    x[:] = np.linspace(-1, 1, n, dtype=np.float32)
    assert x.ctypes.data % 64 == 16
    return x


@pytest.mark.parametrize("jit", [None, True, False])
def test_large_inputs_at_numpys_alignment(jit):
    # TensorFlow's kernels would abort the process on them, XLA's crash: both get a copy.
    x = _sixteen_past_64(1 << 17)
    f = nptf.compile(lambda a: a * 2.0 + 1.0, jit_compile=jit)
    same = nptf.compile(lambda a: a, jit_compile=jit)
    for _ in range(8):
        assert_same(f(x), x * 2.0 + 1.0)
        out = same(x)
        assert_same(out, x)
        assert not np.may_share_memory(out, x)
    assert f.entry_for(x).input_align == 64


@pytest.mark.skipif(os.environ.get("TF_CPU_ALLOCATOR_USE_BFC") != "true",
                    reason="TensorFlow's pool is off")
def test_large_outputs_reuse_their_buffer_from_call_to_call():
    resource = pytest.importorskip("resource")
    # With malloc, a 32 MiB result is a fresh mmap each call: 8,193 page faults.
    f = nptf.compile(lambda x: x * 2.0 + 1.0)
    x = np.ones(1 << 22)
    for _ in range(30):        # steady state: the executor trial's own runs allocate too
        f(x)
        if not isinstance(f.entry_for(x).call, ExecutorTrial):
            break
    for _ in range(4):
        f(x)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(4):
        assert f(x)[-1] == 3.0
    assert resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before < 4 * 1000


@pytest.mark.executor_trial
def test_while_another_executor_compiles_the_calls_run_the_fastest_way_timed(monkeypatch):
    """XLA is timed faster than the plain executor; while the next way (XLA for one CPU)
    compiles in the background, the calls run XLA, not the executor the graph started on."""
    import time
    monkeypatch.setattr(ExecutorTrial, "COMPILE_IN_BACKGROUND", True)
    monkeypatch.setattr(ExecutorTrial, "TRY_ONE_THREAD", False)
    monkeypatch.setattr(ExecutorTrial, "FAR_BEHIND", float("inf"))
    monkeypatch.setattr(ExecutorTrial, "TRY_ONE_CPU_XLA", True)
    monkeypatch.setattr(xla_policy, "CPU_ONLY", True)
    monkeypatch.setattr(xla_policy.one_core, "AVAILABLE", True)
    monkeypatch.setattr(xla_policy, "_faults", lambda: 0)
    # Timed runs: the plain executor's take 9 units, XLA's 1.
    monkeypatch.setattr(xla_policy, "_clock", fake_clock([9, 1] * 200))
    served = []
    real_fast_caller = xla_policy.fast_caller

    def labelled(concrete):
        caller = real_fast_caller(concrete)
        xla = concrete.function_def.attr["_XlaMustCompile"].b

        def call(*tensors):
            served.append("xla" if xla else "plain")
            return caller(*tensors)
        return call
    monkeypatch.setattr(xla_policy, "fast_caller", labelled)
    compile_run = xla_policy._Compile.run
    release = threading.Event()

    def held_for_one_cpu(self):
        if self.way == xla_policy.XLA_ONE_CPU:
            release.wait(30)
        compile_run(self)
    monkeypatch.setattr(xla_policy._Compile, "run", held_for_one_cpu)

    def sig(y):
        return 1.0 / (1.0 + np.exp(-y))
    f = nptf.compile(sig, adaptive=False)
    x = np.linspace(-3, 3, 1 << 13)     # 64 KiB: XLA for one CPU is tried
    trial = None
    try:
        for _ in range(200):
            assert_same(f(x), sig(x))
            trial = f.entry_for(x).call
            if isinstance(trial, ExecutorTrial) and xla_policy.XLA_ONE_CPU in trial.building \
                    and trial.samples[xla_policy.XLA]:
                break
            time.sleep(0.01)
        assert isinstance(trial, ExecutorTrial) and trial.samples[xla_policy.XLA], "not reached"
        served.clear()
        for _ in range(5):
            assert_same(f(x), sig(x))
        assert served == ["xla"] * 5, served
    finally:
        release.set()
        _join_compiles()


def _join_compiles():
    for thread in threading.enumerate():
        if thread.name.startswith("nptf-compile-"):
            thread.join(60)


@pytest.mark.executor_trial
def test_a_compile_in_the_background_hands_the_gil_over_often(monkeypatch):
    """While a compile runs on a thread of its own, Python's switch interval is short (a
    call waiting for the GIL waits less), and afterwards it is what it was."""
    import sys
    import time
    monkeypatch.setattr(ExecutorTrial, "COMPILE_IN_BACKGROUND", True)
    monkeypatch.setattr(ExecutorTrial, "TRY_ONE_THREAD", False)
    monkeypatch.setattr(ExecutorTrial, "TRY_ONE_CPU_XLA", False)
    compile_run = xla_policy._Compile._run
    during, release = [], threading.Event()

    def watched(self):
        during.append(sys.getswitchinterval())
        release.wait(30)
        compile_run(self)
    monkeypatch.setattr(xla_policy._Compile, "_run", watched)
    _join_compiles()        # the earlier tests' compiles
    before = sys.getswitchinterval()

    def sig(y):
        return 1.0 / (1.0 + np.exp(-y))
    f = nptf.compile(sig, adaptive=False)
    x = np.linspace(-3, 3, 64)
    try:
        for _ in range(20):
            assert_same(f(x), sig(x))
            if during:
                break
        assert during and during[0] == xla_policy.GIL_TURN_S < before
    finally:
        release.set()
    start = time.perf_counter()
    while isinstance(f.entry_for(x).call, ExecutorTrial) and time.perf_counter() - start < 60:
        assert_same(f(x), sig(x))
    assert not isinstance(f.entry_for(x).call, ExecutorTrial)
    _join_compiles()
    assert sys.getswitchinterval() == before


@pytest.mark.executor_trial
def test_the_executor_trial_times_runs_of_half_a_millisecond_by_the_callers_own(monkeypatch):
    """Graphs whose runs take 0.5 ms or more: each call of the trial runs the graph once,
    the caller's run being the sample (an extra run would add a millisecond or more to
    each call). Here every run counts as that long."""
    monkeypatch.setattr(ExecutorTrial, "OWN_RUN_S", 0.0)
    monkeypatch.setattr(ExecutorTrial, "FAR_BEHIND", float("inf"))   # every turn taken
    runs = []
    real = xla_policy.ExecutorTrial._run
    monkeypatch.setattr(xla_policy.ExecutorTrial, "_run",
                        lambda self, way, *a: runs.append(way) or real(self, way, *a))
    f = nptf.compile(lambda y: np.sin(y) * 2.0 + y, adaptive=False)
    x = np.linspace(0, 1, 256)
    per_call = []
    while isinstance(f.entry_for(x).call, ExecutorTrial) and len(per_call) < 60:
        before = len(runs)
        assert_same(f(x), np.sin(x) * 2.0 + x)
        per_call.append(len(runs) - before)
    assert f.entry_for(x).xla_reason.startswith("measured"), f.entry_for(x).xla_reason
    # The first call times the way the graph started on as usual (nothing known yet).
    assert per_call[0] > 1 and set(per_call[1:]) == {1}, per_call


@pytest.mark.executor_trial
def test_the_executor_trial_of_a_graph_that_runs_long_times_the_callers_own_runs(monkeypatch):
    """Runs of a tenth of a second and more need no warm-up run and no repeats: the trial
    times the caller's own runs, and leaves out XLA compiled for one CPU (seconds of
    compile to save microseconds). Here every run counts as long."""
    from nptf.runtime import xla_policy
    monkeypatch.setattr(xla_policy.ExecutorTrial, "LONG_RUN_S", 0.0)
    monkeypatch.setattr(xla_policy.ExecutorTrial, "ONE_CPU_BELOW_S", 0.0)
    runs = []
    real = xla_policy.ExecutorTrial._run
    monkeypatch.setattr(xla_policy.ExecutorTrial, "_run",
                        lambda self, way, *a: runs.append(way) or real(self, way, *a))
    one_cpu = []
    monkeypatch.setattr(xla_policy.one_core, "compiled_on_one_cpu",
                        lambda caller: one_cpu.append(caller) or caller)
    f = nptf.compile(lambda y: np.sin(y) * 2.0 + y)
    x = np.linspace(0, 1, 1 << 15)      # 256 KiB: XLA for one CPU would be tried
    per_call = []
    while not f.entry_for(x).xla_reason.startswith("measured") and len(per_call) < 20:
        before = len(runs)
        assert_same(f(x), np.sin(x) * 2.0 + x)
        per_call.append(len(runs) - before)
    reason = f.entry_for(x).xla_reason
    assert reason.startswith("measured"), reason
    assert "a split loop's hand-off matters not" in reason
    # Once the first call has timed the first way as usual: a way's first call runs twice
    # (the first run compiles it), its later calls once.
    assert max(per_call[1:]) <= 2 and per_call.count(2) <= len(set(runs)), per_call
    assert not one_cpu      # never compiled



def _costs_by_way(monkeypatch, cost):
    """Adaptive dispatch on a fake clock: a call by a way costs ``cost(way, its calls so
    far)`` seconds. Returns the runners the NumPy program was timed through."""
    counts, runners = {}, []

    def each(path, options, n):
        if options.get("runner") is not None:
            runners.append(options["runner"][0])
        counts[path] = counts.get(path, 0) + 1
        return cost(path, counts[path] - 1)
    _clocked(monkeypatch, each)
    return runners


def test_the_function_and_its_program_are_timed_alike(monkeypatch):
    """The function's first calls in a process are its slowest (20 us, then 10 us); its
    NumPy program takes 11 us a run. Timed over the same number of calls, side by side,
    the function wins: one warm call of it against the program's best run would keep the
    program, which is slower in the steady state."""
    def cost(way, n):
        return {"graph": 50e-6, "numpy program": 11e-6}.get(way, 20e-6 if n < 3 else 10e-6)
    _costs_by_way(monkeypatch, cost)

    def standardize(x):
        return (x - x.mean()) / (x.std() + 1e-12)
    f = nptf.compile(standardize, adaptive=True)
    x = np.linspace(-1, 1, 16)
    assert _until_decided(f, x, check=lambda got: np.testing.assert_allclose(
        got, standardize(x))) == "numpy"
    # Where the program is clearly faster alike, it is kept.
    def cost(way, n):
        return {"graph": 50e-6, "numpy program": 5e-6}.get(way, 20e-6 if n < 3 else 10e-6)
    _costs_by_way(monkeypatch, cost)
    g = nptf.compile(standardize, adaptive=True)
    assert _until_decided(g, x) == "numpy program"


def test_the_program_is_timed_as_the_calls_run_it(monkeypatch):
    """The NumPy program of a function that reads a module global is timed through what
    the calls then run from the entry point (which checks the global first), not bare;
    rebinding the global makes the next call trace again."""
    global SCALE
    runners = _costs_by_way(monkeypatch, lambda way, n: {"graph": 5e-6, "numpy": 3e-6,
                                                         "numpy program": 1e-6}[way])
    calls = itertools.count()

    def scaled(x):
        next(calls)
        return np.maximum(x * SCALE, 0.0)
    f = nptf.compile(scaled, adaptive=True)
    x = np.linspace(-1, 1, 8)
    saved = SCALE
    try:
        assert _until_decided(f, x) == "numpy program"
        ran = next(calls)
        assert_same(f(x), np.maximum(x * 2.0, 0.0))
        assert next(calls) == ran + 1               # the program ran, not the function
        hot = f.compiled._numpy_hot
        assert hot is not None and runners and set(runners) == {hot[-1]}
        SCALE = 3.0
        assert_same(f(x), np.maximum(x * 3.0, 0.0))
        assert f.cache_info().traces == 2
    finally:
        SCALE = saved


@pytest.mark.parametrize("kept", ["numpy", "numpy program"])
def test_calls_with_scalars_reach_numpy_from_the_entry_point(monkeypatch, kept):
    """A function of arrays and Python numbers (a learning rate, a count) that NumPy serves
    runs from the entry point, without binding its arguments to a cache key: any float
    value, the same int (static: another one is another graph)."""
    fast = {"numpy": ("numpy", 1e-6), "numpy program": ("numpy program", 1e-6)}[kept]
    _costs_by_way(monkeypatch, lambda way, n: 1e-6 if way == fast[0] else 9e-6)

    def step(w, g, lr, k):
        return w - lr * g * k
    f = nptf.compile(step, adaptive=True)
    w, g = np.linspace(-1, 1, 8), np.ones(8)
    assert _until_decided(f, w, g, 0.5, 2) == kept
    slow_calls = []
    call = nptf.runtime.compiled.Compiled.__call__

    def counted(self, *args, **kwargs):
        slow_calls.append(args)
        return call(self, *args, **kwargs)
    monkeypatch.setattr(nptf.runtime.compiled.Compiled, "__call__", counted)
    f(w, g, 0.5, 2)         # sets the entry point's shortcut
    del slow_calls[:]
    for lr in (0.25, 0.125, 3.0):
        assert_same(f(w, g, lr, 2), w - lr * g * 2)
    assert not slow_calls
    assert_same(f(w, g, 0.5, 3), w - 0.5 * g * 3)    # another k: through the cache
    assert_same(f(w, g, 0.5, 2.0), w - 0.5 * g * 2.0)
    assert len(slow_calls) == 2


def test_short_calls_time_the_function_more_and_pair_it_with_the_program():
    """The decision logic alone: after the function's warm call, a short one earns
    ``SHORT_CALLS`` more timed calls, which run the program beside them by turns; a long
    one goes straight to the graph's turn."""
    from nptf.runtime.adaptive import GRAPH, NUMPY, NUMPY_PROGRAM, AdaptiveState
    short = AdaptiveState(program=True)
    short.schedule.pop(0)                       # the first call: the graph, untimed
    order = []
    for seconds in (50e-6, 20e-6) + (10e-6,) * AdaptiveState.SHORT_CALLS:
        assert short.schedule.pop(0) == NUMPY
        order.append(short.pairs_program())
        short.timed_function(seconds, program=True)
        if order[-1] is not None:
            short.timings[NUMPY_PROGRAM].append(11e-6)
    assert short.schedule == [GRAPH]
    assert order[:2] == [None, None] and set(order[2:]) == {True, False}
    assert order[2:].count(True) == AdaptiveState.SHORT_CALLS // 2
    short.timings[GRAPH] += [40e-6, 40e-6]
    short.decide()
    assert short.choice == NUMPY                # 11 us against the function's 10
    long = AdaptiveState(program=True)
    long.schedule.pop(0)
    for seconds in (3e-3, 2e-3):
        long.schedule.pop(0)
        assert long.pairs_program() is None
        long.timed_function(seconds, program=True)
    assert long.schedule == [GRAPH]


SCALE = 2.0
OFFSETS = np.ones(3)


def _scaled(x):
    return x * SCALE


def reads_globals(x):
    if x.sum() > 0:                 # converted control flow
        return _scaled(x) + OFFSETS
    return x


def test_a_rebound_global_is_read_again(jit):
    """A graph holds the globals its code read as constants: rebinding one traces again,
    as NumPy would read the new value; a new compile of the function reads it too."""
    global SCALE, OFFSETS
    f = nptf.compile(reads_globals, jit_compile=jit, fallback="raise")
    g = nptf.compile(lambda x: x * SCALE, jit_compile=jit, fallback="raise")
    x = np.ones(3)
    saved = SCALE, OFFSETS
    try:
        np.testing.assert_array_equal(f(x), [3.0, 3.0, 3.0])
        np.testing.assert_array_equal(g(x), [2.0, 2.0, 2.0])
        SCALE, OFFSETS = 5.0, np.zeros(3)
        np.testing.assert_array_equal(f(x), reads_globals(x))
        np.testing.assert_array_equal(g(x), [5.0, 5.0, 5.0])
        assert f.cache_info().traces == 2
        np.testing.assert_array_equal(nptf.compile(reads_globals, jit_compile=jit)(x), [5.0] * 3)
        f(x)
        assert f.cache_info().traces == 2       # unchanged globals: the graph is reused
    finally:
        SCALE, OFFSETS = saved


TABLE = np.arange(4.0)
PARAMS = {"W": np.ones(4), "b": 0, "layers": [np.zeros(2)], "sizes": [1, 2]}


def reads_global_arrays(x):
    return x * TABLE + PARAMS["W"] * PARAMS["b"] + PARAMS["layers"][0].sum() + \
        PARAMS["sizes"][0]


def test_globals_written_in_place_are_read_again(jit):
    """A write into a global array, or into the arrays and numbers a global dict or list
    holds, traces again; a function whose globals change call after call runs with NumPy
    from the third change on (and says so)."""
    saved = TABLE.copy(), {k: (v.copy() if isinstance(v, np.ndarray) else v)
                           for k, v in PARAMS.items()}
    x = np.arange(4, dtype=np.int64)
    try:
        f = nptf.compile(reads_global_arrays, jit_compile=jit, fallback="raise")
        np.testing.assert_array_equal(f(x), reads_global_arrays(x))
        TABLE[0] = 100.0
        np.testing.assert_array_equal(f(x), reads_global_arrays(x))
        PARAMS["W"] -= 0.5
        PARAMS["b"] = 2.5               # an int item that is now a float
        np.testing.assert_array_equal(f(x), reads_global_arrays(x))
        f(x)
        assert f.cache_info().traces == 3       # unchanged: the graph is reused
        g = nptf.compile(reads_global_arrays, jit_compile=jit)
        g(x)
        with pytest.warns(RuntimeWarning, match="runs with NumPy from now on"):
            for step in range(4):
                PARAMS["layers"][0][1] = step
                PARAMS["sizes"][0] = step
                np.testing.assert_array_equal(g(x), reads_global_arrays(x))
        assert g.cache_info().traces == 3
    finally:
        TABLE[:] = saved[0]
        PARAMS.clear()
        PARAMS.update(saved[1])
        PARAMS["layers"] = [np.zeros(2)]


def _with_default(x, scale=1.0):
    return x.strides[0]


@pytest.mark.parametrize("fn", [lambda x: x.strides[0], _with_default], ids=["exact", "generic"])
def test_fallback_warnings_point_at_the_call(fn):
    # Whatever way the call came through nptf (either entry point, a fallback found when
    # tracing, XLA refused): the line shown is the user's call.
    with pytest.warns(RuntimeWarning, match="runs with NumPy for this signature") as record:
        nptf.compile(fn)(np.ones(2))
    assert {w.filename for w in record} == {__file__}
    with pytest.warns(RuntimeWarning, match="runs without XLA") as record:
        nptf.compile(lambda x: np.linalg.det(x), jit_compile=True)(np.eye(2))
    assert {w.filename for w in record} == {__file__}
