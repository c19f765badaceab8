"""The graph passes: what each one rewrites, and that the result still equals NumPy."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import nptf
from loop_kernels import recurrence as _recurrence
from nptf.graph_ir.passes import fold_constants, promote_dtypes, simplify_algebra
from nptf.graph_ir.verify import verify


def _ops(graph):
    return [e.op.name for e in graph.eqns]


def _stage(fn, *args, passes):
    graph = nptf.compile(fn).trace(*args, stage="traced")
    for p in passes:
        graph = p(graph)
        verify(graph)
    return graph


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64, np.float32, np.float64])
def test_small_integer_powers_become_products(dtype):
    def f(x):
        return x ** 2, x ** 3, x ** 4

    x = (np.arange(-4, 5) % 7).astype(dtype)
    graph = _stage(f, x, passes=[promote_dtypes, simplify_algebra])
    assert _ops(graph).count("power") == 1          # only x**4 keeps the general kernel
    got = nptf.compile(f, fallback="raise")(x)
    for g, e in zip(got, f(x)):
        assert g.dtype == e.dtype
        np.testing.assert_allclose(g, e, rtol=1e-6)


def test_square_is_bit_identical_to_numpy_on_special_values():
    x = np.array([np.nan, np.inf, -np.inf, -0.0, 1e200, -3.5, 1e-200])
    with np.errstate(over="ignore", under="ignore"):
        expected = x ** 2
    got = nptf.compile(lambda x: x ** 2)(x)
    assert np.array_equal(got, expected, equal_nan=True)
    assert np.array_equal(np.signbit(got), np.signbit(expected))


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_float_arithmetic_is_never_regrouped(jit):
    # Regrouped, (x * 1e200) * 1e-200 would be x (NumPy: inf), (x - 1e17) + 1.0 would be 0
    # (NumPy: 1), and float32's (raw - 32768) + 0.37 would round differently: nptf's passes,
    # Grappler's constant push-down and XLA's simplifier all regroup such chains.
    def f(x, y, raw):
        return ((x * 1e200) * 1e-200, (y - 1e17) + 1.0, (y + (-y)) + 1.0, 1.0 - (y - y),
                (raw - 32768.0) + 0.37, 0.1 * (raw * raw), (y * 3.0) / 7.0 * 1.1)

    x, y = np.array([1e200, 2.0]), np.array([1e17, 3.0])
    raw = np.array([32770.0, 1.7, 3.3], np.float32)
    graph = _stage(f, x, y, raw, passes=[promote_dtypes, simplify_algebra])
    assert _ops(graph).count("multiply") >= 5
    with np.errstate(over="ignore"):
        expected = f(x, y, raw)
        got = nptf.compile(f, jit_compile=jit, fallback="raise")(x, y, raw)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and np.array_equal(g, e), (g, e)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_complex_arithmetic_is_never_regrouped(jit):
    # XLA computes complex values by their parts and looked through the barrier that
    # keeps (b + 1e17) - 1e17 as written: b where NumPy gives 0 (its real part).
    def f(b, c):
        return (b + 1e17) - 1e17, (c * 1e200) * 1e-200, (b - 1e17) + 1.0

    b = np.array([[2.27 + 1j, -1.19 - 2j]])
    c = np.array([1e200 + 1j, 2.0 - 3j], np.complex128)
    with np.errstate(over="ignore", invalid="ignore"):
        expected = f(b, c)
        got = nptf.compile(f, jit_compile=jit, fallback="raise")(b, c)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and np.array_equal(g, e, equal_nan=True), (g, e)


def test_integer_scales_are_left_alone():
    # (x * a) * b with integers could overflow differently once a*b is folded.
    def f(x):
        return (x * 100) * 100

    x = np.array([1, 2, 3], np.int8)
    graph = _stage(f, x, passes=[promote_dtypes, simplify_algebra])
    assert _ops(graph) == ["multiply", "multiply"]
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(nptf.compile(f)(x), f(x))


def test_constants_fold_with_numpys_dtypes():
    def f(x):
        y = x.copy()
        y[y < 0] = 0                      # the 0 becomes 0.0 in x's dtype
        return y, np.sqrt(np.float32(2)) + x

    x = np.array([-1.0, 2.0], np.float32)
    graph = _stage(f, x, passes=[promote_dtypes, fold_constants])
    assert "convert" not in _ops(graph) and "sqrt" not in _ops(graph)
    for g, e in zip(nptf.compile(f)(x), f(x)):
        assert g.dtype == e.dtype
        np.testing.assert_allclose(g, e, rtol=1e-6)


def test_folding_keeps_large_constants_computed():
    from nptf.graph_ir.ir import Eqn, Graph, Var, literal
    from nptf.graph_ir.ops import OPS
    small, large = literal(np.arange(4.0)), literal(np.arange(1000.0))
    outs = (Var(small.type), Var(large.type))
    graph = Graph((), tuple(Eqn(OPS["negative"], (c,), {}, (o,)) for c, o in zip((small, large), outs)),
                  outs)
    folded = fold_constants(graph)
    verify(folded)
    assert _ops(folded) == ["negative"]           # only the 4-element result became a literal
    np.testing.assert_array_equal(folded.outputs[0].value, -np.arange(4.0))
    assert folded.outputs[1] is outs[1]


def test_loop_values_nothing_reads_are_no_longer_carried():
    def fixed_point(x):
        change = 1.0
        while change > 1e-12:
            x_new = np.cos(x)
            change = np.max(np.abs(x_new - x))
            x = x_new
        return x

    x = np.linspace(0, 1, 50)
    graph = nptf.compile(fixed_point).trace(x)
    (loop,) = [e for e in graph.eqns if e.op.name == "while"]
    assert loop.params["n_carried"] == 2            # change and x; the stale copy is gone
    verify(graph)
    np.testing.assert_allclose(nptf.compile(fixed_point)(x), fixed_point(x), rtol=1e-12)


def test_a_carried_value_only_an_inner_loop_reads_stays_carried():
    """An inner loop whose result nothing uses still runs (it may not end), so the values
    it reads stay carried by the loop around it."""
    def f(x, n):
        s = t = 0.0
        for i in range(n):
            t = t + x[0]
            j = 0.0
            while j < t:
                j = j + 1.0
            s = s + x[1]
        return s

    x, n = np.array([0.5, 2.0]), np.int64(5)
    assert nptf.compile(f, fallback="raise")(x, n) == f(x, n)


def _unrolled(x, i):
    k = 0
    while k < x.shape[0]:
        unused = x[i]           # out of bounds: NumPy raises IndexError  # noqa: F841
        k += 1
    return x * 2


def _graph_loop(x, i):
    total = 0.0
    for k in range(x.shape[0]):  # longer than the unroll limit: one graph loop
        unused = x[i]            # noqa: F841
        total = total + x[k]
    return x * 2


@pytest.mark.parametrize("f", [_unrolled, _graph_loop])
def test_checks_still_run_when_their_results_are_unused(f):
    x = np.arange(20.0)
    with pytest.raises(IndexError):
        f(x, np.int64(70))
    g = nptf.compile(f)
    np.testing.assert_array_equal(g(x, np.int64(1)), x * 2)
    with pytest.raises(IndexError):
        g(x, np.int64(70))


def _backwards(b):
    a = b.copy()
    for i in range(b.shape[0] - 1, 0, -1):
        a[i - 1] = a[i - 1] + 0.25 * a[i]
    return a


def _body_ops(graph):
    """Ops of the loops' bodies (a loop of small steps is unrolled, then runs as written
    for the steps left over)."""
    loops = [e for e in graph.eqns if e.op.name == "while"]
    assert 1 <= len(loops) <= 2
    return set().union(*(_ops(loop.params["body"]) for loop in loops))


@pytest.mark.parametrize("f", [_recurrence, _backwards])
def test_loop_counters_bound_their_index_checks_away(f):
    from nptf.graph_ir.passes import PIPELINE, bound_loop_counters
    b = np.random.default_rng(0).standard_normal(40)
    before = PIPELINE.index(bound_loop_counters)
    graph = _stage(f, b, passes=PIPELINE[:before])
    assert "check" in _body_ops(graph)           # as traced: NumPy's wrap and bounds check
    graph = _stage(f, b, passes=PIPELINE)          # verified after each pass
    assert "check" not in _body_ops(graph) and "where" not in _body_ops(graph)
    got = nptf.compile(f, fallback="raise")(b)
    assert got.dtype == f(b).dtype and got.shape == b.shape
    np.testing.assert_allclose(got, f(b), rtol=1e-12)


def _one_past_the_end(b):
    a = np.zeros(b.shape[0])
    for i in range(1, b.shape[0] + 1):      # i == n indexes past the end
        a[i] = b[i - 1]
    return a


def _wraps_around(b):
    a = b.copy()
    for i in range(b.shape[0]):             # i - 1 == -1 at first: NumPy's last element
        a[i] = a[i - 1] + 1.0
    return a


def _bound_grows(b):
    a = b.copy()
    i, limit = 0, b.shape[0]         # both start as literals; the limit is carried
    while i < limit and b[0] < 1e9:
        a[i] = 1.0                  # i == 40 once the limit has grown: IndexError
        i += 1
        limit = np.minimum(limit + 1, b.shape[0] + 1)
    return a


def test_indices_the_counter_does_not_bound_keep_their_checks():
    b = np.arange(40.0)
    with pytest.raises(IndexError):
        _bound_grows(b)
    graph = nptf.compile(_bound_grows).trace(b)
    assert "check" in _body_ops(graph)           # a carried bound proves nothing
    with pytest.raises(IndexError):
        nptf.compile(_bound_grows, fallback="raise")(b)
    graph = nptf.compile(_one_past_the_end).trace(b)
    assert "check" in _body_ops(graph)
    with pytest.raises(IndexError):
        _one_past_the_end(b)
    with pytest.raises(IndexError):
        nptf.compile(_one_past_the_end, fallback="raise")(b)
    graph = nptf.compile(_wraps_around).trace(b)
    assert "where" in _body_ops(graph)           # the negative index still wraps
    got = nptf.compile(_wraps_around, fallback="raise")(b)
    assert got.dtype == np.float64 and got.shape == b.shape
    np.testing.assert_array_equal(got, _wraps_around(b))


def _breaks_early(b):
    a = b.copy()
    for i in range(1, b.shape[0]):
        if a[i - 1] > 30.0:
            break
        a[i] = a[i - 1] + b[i]
    return a


def test_a_loop_with_break_is_still_bounded_by_its_range():
    b = np.ones(40)
    graph = nptf.compile(_breaks_early).trace(b)
    assert "check" not in str(graph)
    got = nptf.compile(_breaks_early, fallback="raise")(b)
    assert got.dtype == np.float64 and got.shape == b.shape
    np.testing.assert_array_equal(got, _breaks_early(b))


def _pick_from_arange(i):
    return np.arange(3, 300, 7)[i], np.arange(1000)[i]


@pytest.mark.parametrize("jit", [False, True])
def test_an_arange_indexed_at_traced_positions_is_arithmetic(jit):
    """np.arange(...)[i] is start + step * i: the arange is never built."""
    f = nptf.compile(_pick_from_arange, fallback="raise", adaptive=False, jit_compile=jit)
    i = np.array([0, 5, -1, 41, 3])
    for got, expected in zip(f(i), _pick_from_arange(i)):
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)
    assert "arange" not in [e.op.name for e in f.trace(i).eqns]
    with pytest.raises(IndexError):
        f(np.array([0, 43]))


def _small_branches(x):
    s = 0.0
    for i in range(4):
        if x[i] > 0:
            s = s + np.sqrt(x[i])
        else:
            s = s - x[i]
    return s


def _small_quiet_branches(x):
    s = 0.0
    for i in range(4):
        if x[i] > 0:
            s = s + x[i] * 2
        else:
            s = max(s, x[i]) - 1.0
    return s


def test_small_branches_become_one_where():
    x = np.array([4.0, -1.0, 9.0, -2.0])
    f = nptf.compile(_small_quiet_branches, fallback="raise")
    for jit in (False, True):
        assert nptf.compile(_small_quiet_branches, fallback="raise", jit_compile=jit)(x) == \
            _small_quiet_branches(x)
    names = [e.op.name for e in f.trace(x).eqns]
    assert "cond" not in names and "where" in names


def test_branches_numpy_would_warn_on_stay_conditionals():
    # Both paths computed, NumPy's run of the graph (adaptive dispatch's NumPy program)
    # would print "invalid value encountered in sqrt" for the path not taken.
    x = np.array([4.0, -1.0, 9.0, -2.0])
    f = nptf.compile(_small_branches, fallback="raise")
    assert "cond" in [e.op.name for e in f.trace(x).eqns]
    g = nptf.compile(_small_branches)
    expected = _small_branches(x)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(30):         # past adaptive dispatch's choice
            assert g(x) == expected


def test_checks_of_a_branch_not_taken_raise_nothing():
    def pick(x, i):
        vals = [1.0, 2.0, 3.0]
        out = [0.0]
        if i < 3:
            out[0] = vals[i]            # an IndexError where i >= 3, on the path not taken
        return out[0] + x.sum()

    x = np.ones(3)
    for jit in (False, True):
        f = nptf.compile(pick, fallback="raise", jit_compile=jit)
        for i in (np.int64(1), np.int64(7)):
            assert f(x, i) == pick(x, i)


def test_gradients_through_small_branches_stay_finite():
    # With the branches one `where`, the derivative of sqrt at the negative entries (the
    # path not taken) would be NaN times zero: differentiated graphs keep the `cond`.
    x = np.array([4.0, -1.0, 9.0, -2.0])
    np.testing.assert_allclose(nptf.grad(_small_branches)(x), [0.25, -1.0, 1.0 / 6.0, -1.0])


def test_branches_of_other_shapes_stay_conditionals():
    # `where` would broadcast a path's (1, 2) rows to the other's (2, 2).
    def rows(x, n):
        out = []
        for i in range(n):
            if x[i] > 0:
                out.append((i, float(x[i])))
        return np.array(out).reshape(-1, 2)

    for x in (np.array([1.0, -1.0, 2.0]), np.array([-1.0, -1.0, 2.0])):
        got = nptf.compile(rows, fallback="raise")(x, 3)
        np.testing.assert_array_equal(got, rows(x, 3))


def test_a_pass_rule_is_registered_by_op_and_sees_every_sub_graph():
    """A pass's rule for an op is one registration; the walk reaches the op inside
    branches too, and reads what the rule replaced through its renaming."""
    from nptf.graph_ir.evaluate import evaluate
    from nptf.graph_ir.ir import literal
    from nptf.graph_ir.passes.rewrite import PassRules, rewrite_eqns
    from nptf.graph_ir.walk import all_eqns

    def f(x, p):
        if p > 0:
            y = np.negative(x) + 1.0
        else:
            y = np.negative(x) * 2.0
        return np.negative(x) - y

    rules = PassRules()

    @rules.register("negative")
    def _as_product(eqn, rw):
        rw.rename(eqn.outputs, rw.emit("multiply", (eqn.inputs[0], literal(np.float64(-1))), {}))
        return []

    def multiply_negatives(graph):
        return rewrite_eqns(graph, rules, subgraphs=multiply_negatives)

    x = np.arange(3.0)
    graph = _stage(f, x, 1.0, passes=[multiply_negatives])
    ops = [e.op.name for e in all_eqns(graph)]
    assert "cond" in ops and "negative" not in ops
    for p in (1.0, -1.0):
        np.testing.assert_array_equal(evaluate(graph, x, p)[0], f(x, p))
    with pytest.raises(KeyError):
        rules.register("negate")(_as_product)
