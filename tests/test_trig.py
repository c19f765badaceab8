"""Sine and cosine under XLA (nptf/lowering/trig.py) against NumPy, to the ulp."""
import numpy as np
import pytest
import tensorflow as tf

import nptf
from nptf.lowering import trig


def _arguments(dtype):
    rng = np.random.default_rng(7)
    parts = [rng.standard_normal(4000) * scale for scale in (1e-300, 1e-8, 1, 30, 1e4, 1e6)]
    # Multiples of pi/2 leave the smallest reduced arguments: the reduction's hard cases.
    k = np.concatenate([np.arange(-40, 41), rng.integers(-2 ** 20, 2 ** 20, 2000)])
    parts.append(k * (np.pi / 2))
    parts.append(np.nextafter(k * (np.pi / 2), np.inf))
    parts.append([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324,
                  trig.REDUCE_LIMIT * 0.999, trig.REDUCE_LIMIT, 1e7, -3e15, 1e300])
    with np.errstate(over="ignore"):       # float32: the largest become infinities
        return np.concatenate(parts).astype(dtype)


# float64 within 1 ulp of NumPy; float32 (Cephes' polynomials, or TensorFlow's
# own kernels on the plain executor) within 2.
ULPS = {np.dtype(np.float64): 1.0, np.dtype(np.float32): 2.0}


def _ulps(got, want):
    finite = np.isfinite(want)
    spacing = np.spacing(np.abs(want[finite]).astype(want.dtype))
    return np.max(np.abs(got[finite].astype(np.float64) - want[finite]) / spacing)


def _same_specials(got, want):
    assert np.array_equal(np.isnan(got), np.isnan(want))
    zeros = want == 0
    assert np.array_equal(np.signbit(got[zeros]), np.signbit(want[zeros]))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", ["sin", "cos"])
def test_xla_form_within_an_ulp_or_two_of_numpy(name, dtype):
    x = _arguments(dtype)
    with np.errstate(invalid="ignore"):
        want = getattr(np, name)(x)
    got = tf.function(getattr(trig, name), jit_compile=True)(tf.constant(x)).numpy()
    assert got.dtype == want.dtype
    _same_specials(got, want)
    assert _ulps(got, want) <= ULPS[want.dtype]


@pytest.mark.parametrize("jit", [True, False])
def test_compiled_sin_cos_match_numpy(jit):
    def f(x, y):
        return np.sin(x), np.cos(x * 3.0), np.sin(y), np.cos(y)

    x, y = _arguments(np.float64), _arguments(np.float32)
    with np.errstate(invalid="ignore"):
        want = f(x, y)
    got = nptf.compile(f, jit_compile=jit, fallback="raise")(x, y)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        _same_specials(g, w)
        assert _ulps(g, w) <= ULPS[w.dtype]


def test_only_xla_graphs_use_the_arithmetic_form():
    def f(x):
        return np.cos(x)

    x = np.linspace(0, 1, 8)
    for jit, uses_round in ((True, True), (False, False)):
        compiled = nptf.compile(f, jit_compile=jit, fallback="raise")
        ops = {op.type for op in compiled.entry_for(x).concrete.graph.get_operations()}
        assert ("Round" in ops) is uses_round, (jit, sorted(ops))


def test_loop_of_cosines_under_xla():
    from tests.test_runtime import _cosine_fixed_point as fixed_point

    x = np.random.default_rng(0).random(300)
    compiled = nptf.compile(fixed_point, jit_compile=True, fallback="raise")
    got, want = compiled(x), fixed_point(x)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12)
    # The arithmetic form is inside the loop body too (rules see the XLA flag there).
    library = compiled.entry_for(x).concrete.graph.as_graph_def().library.function
    assert any(n.op == "Round" for f in library for n in f.node_def)


def _cosine_loop(x):
    change = 1.0
    while change > 1e-12:       # the first step is peeled off: the loop sees cos(x) only
        x_new = np.cos(x)
        change = np.max(np.abs(x_new - x))
        x = x_new
    return x


def _scaled_loop(x):
    for _ in range(3):
        x = np.sin(x) * 3e6     # leaves [-1, 1]: the next sine needs the full reduction
    return x


def _marked(graph):
    from nptf.graph_ir.walk import all_eqns
    return [bool(e.params.get("unit_argument")) for e in all_eqns(graph)
            if e.op.name in ("sin", "cos")]


def test_trig_of_a_trig_result_is_marked_and_skips_the_huge_argument_branch():
    x = np.random.default_rng(1).random(50)
    # The first cosine reads the input: unmarked; the loop's only ever reads a cosine.
    assert _marked(nptf.compile(_cosine_loop).trace(x)) == [False, True]
    assert not any(_marked(nptf.compile(_scaled_loop).trace(x)))
    assert _marked(nptf.compile(lambda y: np.sin(np.tanh(y)) + np.cos(y)).trace(x)) == \
        [True, False]
    compiled = nptf.compile(_cosine_loop, jit_compile=True, fallback="raise")
    graph = compiled.entry_for(x).concrete.graph.as_graph_def()
    nodes = [*graph.node, *(n for f in graph.library.function for n in f.node_def)]
    branches = [n.op for n in nodes if n.op in ("If", "StatelessIf")]
    assert len(branches) == 1, branches      # the first cosine's, none in the loop


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_marked_trig_matches_numpy_on_special_and_huge_inputs(dtype):
    x = _arguments(dtype)[::7]
    for fn in (_cosine_loop, lambda y: np.sin(np.cos(y)) * np.cos(np.tanh(y))):
        with np.errstate(invalid="ignore", over="ignore"):
            want = fn(x)
            got = nptf.compile(fn, jit_compile=True, fallback="raise")(x)
        assert got.dtype == want.dtype and got.shape == want.shape
        _same_specials(got, want)
        np.testing.assert_allclose(got, want, rtol=4 * np.finfo(dtype).eps,
                                   atol=4 * np.finfo(dtype).eps)


def _escaping_loop(x):
    y = np.cos(x)
    k = np.sum(x > 2.0)          # 0 for these inputs, known only at run time
    while k < 1:
        y = np.sin(y) * 3e6      # starts within [-1, 1] but leaves it
        k = k + 1
    return np.sin(y)             # of arguments up to 3e6: the full reduction


def test_a_loop_value_that_leaves_the_unit_range_is_not_marked():
    x = np.random.default_rng(3).random(2000)
    assert not any(_marked(nptf.compile(_escaping_loop).trace(x)))
    got = nptf.compile(_escaping_loop, jit_compile=True, fallback="raise")(x)
    np.testing.assert_allclose(got, _escaping_loop(x), rtol=0, atol=1e-8)


def test_exported_loop_of_cosines_matches_numpy(tmp_path):
    x = np.random.default_rng(2).random(64)
    x[:3] = [np.nan, 3e6, -np.inf]       # the first cosine's huge arguments: full reduction
    nptf.export(_cosine_loop, tmp_path / "cosines", nptf.Spec(x.shape, x.dtype),
                jit_compile=True)
    serve = tf.saved_model.load(str(tmp_path / "cosines")).signatures["serving_default"]
    (name,) = serve.structured_input_signature[1]
    (got,) = serve(**{name: tf.constant(x)}).values()
    with np.errstate(invalid="ignore"):
        want = _cosine_loop(x)
    got = got.numpy()
    assert got.dtype == want.dtype and got.shape == want.shape
    _same_specials(got, want)
    np.testing.assert_allclose(got, want, rtol=1e-12, equal_nan=True)


def _hyperbolic(x):
    return np.sinh(x), np.cosh(x)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_sinh_and_cosh_of_large_arguments_stay_within_ulps_of_numpy(dtype, jit):
    """sinh and cosh keep a few ulps of NumPy's up to their overflow (XLA's own are
    hundreds of ulps off past |x| = 10, which a cosine of sinh(32) turns into 0.07)."""
    top = 710.0 if dtype == np.float64 else 89.0
    x = np.random.default_rng(0).uniform(0, top, 4000).astype(dtype)
    x = np.concatenate([x, -x, np.array([0.0, -0.0, 1.0, -1.0, 1.0, np.inf, -np.inf, np.nan],
                                        dtype)])
    with np.errstate(all="ignore"):
        want = _hyperbolic(x)
        got = nptf.compile(_hyperbolic, jit_compile=jit, fallback="raise")(x)
    for w, g in zip(want, got):
        assert g.dtype == w.dtype
        assert np.array_equal(np.isnan(g), np.isnan(w)) and np.array_equal(np.signbit(g), np.signbit(w))
        finite = np.isfinite(w)
        assert np.array_equal(finite, np.isfinite(g))
        assert np.max(np.abs(g - w)[finite] / np.spacing(np.abs(w[finite]))) <= 4
