"""Counted loops of small steps run several steps per iteration (``unroll_loops``); loops of
fewer than MIN_TRIPS known steps stay whole."""
import numpy as np
import pytest

import nptf
from harness import check_against_numpy, mismatch
from loop_kernels import recurrence, spread, two_recurrences
from nptf.graph_ir.passes import PIPELINE
from nptf.graph_ir.passes.unroll import _MIN_TRIPS as MIN_TRIPS, UNROLL
from nptf.graph_ir.verify import verify


def every_third(x):
    out = np.zeros_like(x)
    for i in range(2, x.shape[0], 3):
        out[i] = x[i] - x[i - 2]
    return out


def gather_by_index(x, idx):
    out = np.zeros(idx.shape[0], dtype=x.dtype)
    for i in range(idx.shape[0]):
        out[i] = x[idx[i]] * 2
    return out


def count_near_the_top(n):
    s = 0
    for i in range(n - 20, n):      # i + 7 would overflow int64 near the end
        s = s + (i - n)
    return s


def _loops(graph):
    return [e for e in graph.eqns if e.op.name == "while"]


def _writes(graph):
    return [e.op.name for e in graph.eqns if e.op.name in ("scatter", "dynamic_update_slice")]


def _same(got, expected):
    m = mismatch(expected, got)
    assert m is None, m


def _agrees(fn, *args):
    """Both executors and the reference interpreter (verified after every pass) against
    NumPy: dtype, shape, scalar-ness and values."""
    for jit in (True, False):
        check_against_numpy(fn, *args, jit=jit)
    _same(nptf.compile(fn).interpret(*args, verify_passes=True), fn(*args))


def test_a_recurrence_runs_unrolled_steps_then_the_rest_with_one_update_a_step():
    b = np.random.default_rng(0).standard_normal(300)
    graph = nptf.compile(recurrence).trace(b)
    main, rest = _loops(graph)
    # One update of UNROLL neighbours per iteration: the copies' reads of what the copy
    # before wrote are the written values, so their writes merge.
    assert _writes(main.params["body"]) == ["dynamic_update_slice"]
    assert _writes(rest.params["body"]) == ["scatter"]
    (update,) = [e for e in main.params["body"].eqns if e.op.name == "dynamic_update_slice"]
    assert update.inputs[1].type.shape == (UNROLL,)
    verify(graph)


@pytest.mark.parametrize("n", [1, 2, 3, MIN_TRIPS, MIN_TRIPS + 1, MIN_TRIPS + 2, MIN_TRIPS + UNROLL,
                               MIN_TRIPS + UNROLL + 1, 3 * MIN_TRIPS + 2 + 3 * UNROLL])
def test_unrolled_loops_agree_with_numpy_at_every_trip_count(n):
    b = np.random.default_rng(n).standard_normal(n)
    _agrees(recurrence, b)
    _agrees(every_third, b)
    if n > 1:
        _agrees(two_recurrences, b)


@pytest.mark.parametrize("n, unrolled, rest", [(MIN_TRIPS, False, False),
                                               (MIN_TRIPS + 2, True, True),
                                               (MIN_TRIPS + 1, True, False)])
def test_short_loops_stay_whole_and_exact_multiples_need_no_rest(n, unrolled, rest):
    b = np.random.default_rng(1).standard_normal(n)     # n - 1 steps
    loops = _loops(nptf.compile(recurrence).trace(b))
    assert len(loops) == 1 + (unrolled and rest)
    assert _writes(loops[0].params["body"]) == ["dynamic_update_slice" if unrolled else "scatter"]


def test_the_second_array_is_not_read_in_its_old_state_after_the_first_is_updated():
    """The values written into ``b`` come from a read of ``a``; once ``a`` is updated, a
    read of its old state would make XLA copy it every iteration."""
    x = np.random.default_rng(2).standard_normal(300)
    main = _loops(nptf.compile(two_recurrences).trace(x))[0].params["body"]
    assert _writes(main) == ["dynamic_update_slice", "dynamic_update_slice"]
    first = next(e for e in main.eqns if e.op.name == "dynamic_update_slice")
    after = main.eqns[main.eqns.index(first) + 1:]
    assert not [e for e in after if e.op.name == "gather_nd" and e.inputs[0] is first.inputs[0]]


def prefix_sum(x, n):
    s = 0.0
    for i in range(n):             # n is traced: the bound is only known at run time
        s = s + x[i] * x[i]
    return s


def test_a_bound_known_only_at_run_time_unrolls_and_agrees():
    x = np.random.default_rng(5).standard_normal(64)
    f = nptf.compile(prefix_sum, fallback="raise")
    for n in (1, 7, 8, 9, 37, 64):
        _same(f(x, np.int64(n)), prefix_sum(x, np.int64(n)))
        _same(nptf.compile(prefix_sum).interpret(x, np.int64(n)), prefix_sum(x, np.int64(n)))
    # No step at all: the Python 0.0 it started from, as NumPy's run returns it.
    got = f(x, np.int64(0))
    assert type(got) is float and got == prefix_sum(x, np.int64(0)) == 0.0
    assert f.cache_info().traces == 1
    assert len(_loops(f.trace(x, np.int64(3)))) == 2
    with pytest.raises(IndexError):
        f(x, np.int64(65))


def test_the_unrolled_condition_does_not_overflow_near_the_top_of_int64():
    n = np.int64(np.iinfo(np.int64).max)
    assert len(_loops(nptf.compile(count_near_the_top).trace(n))) == 2     # unrolled
    _same(nptf.compile(count_near_the_top, fallback="raise")(n), count_near_the_top(n))
    _same(nptf.compile(count_near_the_top, fallback="raise")(np.int64(50)),
          count_near_the_top(np.int64(50)))


def test_checks_in_unrolled_steps_still_raise_numpys_error():
    x = np.arange(10.0)
    idx = np.arange(300) % 10
    _agrees(gather_by_index, x, idx)
    assert len(_loops(nptf.compile(gather_by_index).trace(x, idx))) == 2
    idx[133] = 10
    with pytest.raises(IndexError, match="out of bounds"):
        nptf.compile(gather_by_index, fallback="raise")(x, idx)


def test_steps_whose_writes_would_not_merge_stay_as_written():
    """Windows written and read back in every step: unrolled, they would be as many
    updates per iteration, each a possible copy of the array."""
    x = np.random.default_rng(3).standard_normal(300)
    (loop,) = _loops(nptf.compile(spread).trace(x))
    assert _writes(loop.params["body"]) == ["dynamic_update_slice"]
    _agrees(spread, x)


def test_every_pass_output_verifies_for_unrolled_loops():
    b = np.random.default_rng(4).standard_normal(300)
    graph = nptf.compile(two_recurrences).trace(b, stage="traced")
    for p in PIPELINE:
        graph = p(graph)
        verify(graph)
        for loop in _loops(graph):
            verify(loop.params["body"])
            verify(loop.params["cond"])


@pytest.mark.parametrize("jit", [False, True])
def test_exported_unrolled_loops_match_numpy(tmp_path, jit):
    import tensorflow as tf
    x = np.random.default_rng(8).standard_normal(MIN_TRIPS + 5)
    path = tmp_path / f"recurrence_{jit}"
    nptf.export(recurrence, path, nptf.Spec(x.shape, x.dtype), jit_compile=jit)
    serve = tf.saved_model.load(str(path)).signatures["serving_default"]
    (name,) = serve.structured_input_signature[1]
    _same(serve(**{name: tf.constant(x)})["output_0"].numpy(), recurrence(x))


def bootstrap_means(x, idx):
    # A comprehension over the rows of a 1000-row array: one graph loop, as the ``for``
    # loop that appends would be, not a copy of the element's code per row.
    boots = np.array([np.mean(x[i]) for i in idx])
    pairs = [(float(b), int(b > x.mean())) for b in boots[:20]]
    return boots, sum(v * v for v in x[idx[0]]), pairs, [x[:k].sum() for k in range(12)]


def test_long_comprehensions_are_graph_loops():
    from nptf.graph_ir.walk import all_eqns
    rng = np.random.default_rng(3)
    x, idx = rng.random(40), rng.integers(0, 40, (1000, 40))
    check_against_numpy(bootstrap_means, x, idx)
    graph = nptf.compile(bootstrap_means, fallback="raise").trace(x, idx)
    assert len(list(all_eqns(graph))) < 600
