"""maximum/minimum against a constant (lowering/tf_math.py: TensorFlow's own Maximum where
that is exact, else a comparison and a select) match NumPy: NaN kept from either side,
the sign of a zero tie, infinities, float16's own tie rule."""
import numpy as np
import pytest

import nptf

SPECIALS = [np.nan, -np.inf, -1.5, -0.0, 0.0, 0.5, 2.0, np.inf]

KERNELS = {
    "relu": lambda x: np.maximum(x, 0.0),
    "relu_reversed": lambda x: np.maximum(0.0, x),
    "clip_above": lambda x: np.minimum(x, -0.0),
    "clip_at_one": lambda x: np.minimum(x, 1.0),
    "floor_at_minus_zero": lambda x: np.maximum(x, -0.0),
    "clip_above_reversed": lambda x: np.minimum(-0.0, x),
    "max_with_inf": lambda x: np.maximum(x, -np.inf),
    "min_int_literal": lambda x: np.minimum(2, x),
    "max_with_nan": lambda x: np.maximum(x, np.nan),           # the general form
    "max_array_scalar": lambda x: np.maximum(x, np.float32(-0.0)),
    "relu_chain": lambda x: np.maximum(x * 2.0, 0) - 1.0,
}


def _specials(dtype):
    """Every special value, with zeros also in the last three of 27 elements: TensorFlow's
    kernels take the scalar code path there (past the last full vector), whose zero
    ties differ from the vector path's."""
    return np.array(SPECIALS * 3 + [-0.0, 0.0, -0.0], dtype).reshape(3, 9)


def _same_bits(got, want):
    """Equal values, NaN where NumPy has NaN, and the same sign on every zero (a NaN's
    sign bit is not a value: relu may clear it)."""
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got, want, equal_nan=True)
    numbers = ~np.isnan(want)
    assert np.array_equal(np.signbit(got[numbers]), np.signbit(want[numbers]))


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_extremum_with_a_constant_matches_numpy_bits(name, dtype, jit):
    fn = KERNELS[name]
    x = _specials(dtype)
    _same_bits(nptf.compile(fn, jit_compile=jit, fallback="raise")(x), fn(x))


@pytest.mark.parametrize("jit, selects", [(False, 0), (True, 1)])
def test_relu_lowering(jit, selects):
    # The plain executor: Maximum and Abs (a select costs it three times a maximum);
    # XLA: a comparison and a select, fused with the rest.
    f = nptf.compile(KERNELS["relu"], jit_compile=jit)
    x = np.ones((8, 8), np.float32)
    f(x)
    graph = f.entry_for(x).concrete.graph.as_graph_def()
    ops = [n.op for n in graph.node] + [n.op for fn in graph.library.function for n in fn.node_def]
    assert "IsNan" not in ops and ops.count("SelectV2") == selects, ops


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("take_max", [True, False])
def test_extremum_of_two_arrays_matches_numpy_bits(take_max, dtype, jit):
    # Every pair of special values, either way round (zero ties of both signs among them).
    fn = (lambda a, b: np.maximum(a, b)) if take_max else (lambda a, b: np.minimum(a, b))
    a, b = (v.ravel().astype(dtype) for v in np.meshgrid(SPECIALS, SPECIALS))
    a, b = np.concatenate([a, a[-3:]]), np.concatenate([b, b[-3:]])    # a tail past the vectors
    _same_bits(nptf.compile(fn, jit_compile=jit, fallback="raise")(a, b), fn(a, b))


def _all_kernels(x):
    return tuple(KERNELS[name](x) for name in sorted(KERNELS))


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_exported_extrema_match_numpy_bits(tmp_path, dtype, jit):
    # A SavedModel runs in whichever process loads it: the plain form relies on
    # TensorFlow's own Maximum/Minimum kernels there, the XLA form on the select.
    import tensorflow as tf
    x = _specials(dtype)
    nptf.export(_all_kernels, tmp_path / "extrema", nptf.Spec(x.shape, x.dtype), jit_compile=jit)
    serve = tf.saved_model.load(str(tmp_path / "extrema")).signatures["serving_default"]
    (name,) = serve.structured_input_signature[1]
    got = serve(**{name: tf.constant(x)})
    for k, want in enumerate(_all_kernels(x)):
        _same_bits(got[f"output_{k}"].numpy(), want)


def _extrema_of(a):
    return (np.max(a), np.min(a), np.max(a, axis=0), np.min(a, axis=-1, keepdims=True),
            np.ptp(a), np.argmax(a), np.argmin(a, axis=0), np.nanmax(a), a.max(initial=-1.0))


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("shape", [(32_768,), (200, 200), (64, 1024), (1000, 3)])
def test_float32_extrema_of_many_elements_keep_nan(shape, jit):
    """XLA's CPU reduces float32 arrays of 32,768 elements or more with code that drops
    NaN even with fast min/max turned off (float64 and float16 keep it): np.max of such
    an array with a NaN came out a number."""
    x = np.random.default_rng(2).standard_normal(shape).astype(np.float32)
    x[tuple(d // 2 for d in shape)] = np.nan
    x[(shape[0] - 1,) + (0,) * (len(shape) - 1)] = np.nan
    got, expected = nptf.compile(_extrema_of, fallback="raise", jit_compile=jit)(x), _extrema_of(x)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and np.shape(g) == np.shape(e)
        assert np.array_equal(g, e, equal_nan=True), (g, e)


# --------------------------------------------------------------------- argmax/argmin
def _arg_cases(dtype, rng):
    """Arrays of ``dtype`` whose first extreme is easy to miss: ties of few values, all
    equal, zeros of both signs, NaNs (several, late in long arrays, in some rows only)
    and infinities, along axes long enough for TensorFlow to split them among threads."""
    def cast(v):
        v = np.asarray(v)
        if dtype == np.bool_:
            return v > 0
        if np.dtype(dtype).kind == "u":
            v = np.abs(v)
        return v.astype(dtype) if np.dtype(dtype).kind == "f" else \
            np.nan_to_num(v, posinf=100, neginf=-100).astype(dtype)
    ties = cast(rng.integers(-2, 3, 100_003))
    cases = [ties, cast(np.zeros(70_001)), cast(rng.standard_normal((7, 6)) * 50),
             cast(rng.integers(-1, 2, (40, 30, 5))), cast(np.ones(1)), cast(np.ones((0, 4)))]
    if np.dtype(dtype).kind == "f":
        late = ties.copy()
        late[[90_000, 99_000]] = np.nan
        rows = cast(rng.integers(-2, 3, (300, 200)))
        rows[5, 7] = rows[5, 3] = rows[200, 150] = rows[250, 0] = np.nan
        signs = cast(np.where(rng.random((50, 40)) < 0.5, -0.0, 0.0))
        ends = cast(np.array([-np.inf, np.inf, 1.0, np.inf, -np.inf, np.nan, -np.inf]))
        both = cast(np.array([1.0, np.inf, -np.inf, 2.0]))        # a NaN sum without NaNs
        cases += [late, rows, signs, ends, both, cast(np.full((3, 4), np.nan))]
    return cases


def _every_arg_extreme(*arrays):
    out = []
    for a in arrays:
        for pick in (np.argmax, np.argmin):
            if a.size:
                out += [pick(a), pick(a, keepdims=True)]
            out += [pick(a, axis=i, keepdims=k) for i in range(-1, a.ndim) for k in (False, True)
                    if a.shape[i]]
    return tuple(out)


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.uint8,
                                   np.int32, np.uint64, np.int64, np.bool_])
def test_argmax_argmin_give_the_first_index_as_numpy(dtype, jit):
    """The plain executor runs TensorFlow's ArgMax/ArgMin (the first of equal values) and
    looks for the first NaN only where the sum is NaN, rather than searching for the
    extreme by mask (an index table broadcast over the data and a minimum: 4.4 ms on
    1e6 floats, NumPy 0.13 ms)."""
    arrays = _arg_cases(dtype, np.random.default_rng(5))
    f = nptf.compile(_every_arg_extreme, fallback="raise", adaptive=False, jit_compile=jit)
    got, expected = f(*arrays), _every_arg_extreme(*arrays)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert type(g) is type(e) and g.dtype == e.dtype and np.shape(g) == np.shape(e)
        assert np.array_equal(g, e), (g, e)
    if not jit:
        graph = f.entry_for(*arrays).concrete.graph.as_graph_def()
        ops = [n.op for n in graph.node]
        assert "ArgMax" in ops and "ArgMin" in ops and "Range" not in ops, ops


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("fn", [np.argmax, lambda a: np.argmin(a, axis=0),
                                lambda a: np.argmax(a.T, axis=1, keepdims=True)])
def test_argmax_of_an_empty_axis_raises_as_numpy(fn, jit):
    a = np.zeros((0, 3))
    with pytest.raises(ValueError):
        fn(a)
    with pytest.raises(ValueError):
        nptf.compile(fn, fallback="raise", adaptive=False, jit_compile=jit)(a)


def test_argmax_of_a_selection_sized_at_run_time():
    """An axis whose size the graph learns at run time (XLA compiles no selection)."""
    def selected(a, rows):
        return (np.argmax(a[a > -1]), np.argmin(a[a > -1]), np.argmax(rows[rows[:, 0] > 0], axis=0),
                np.argmin(rows[rows[:, 0] > 0], axis=0, keepdims=True))
    rng = np.random.default_rng(8)
    a = rng.integers(-1, 3, 50_000).astype(np.float32)
    rows = rng.integers(-1, 3, (40, 6)).astype(np.float64)
    f = nptf.compile(selected, fallback="raise", adaptive=False, jit_compile=False)
    for nan_at in (None, 30_000):
        if nan_at is not None:
            a[nan_at] = rows[7, 3] = np.nan
            rows[7, 0] = 1.0
        for g, e in zip(f(a, rows), selected(a, rows)):
            assert g.dtype == e.dtype and np.shape(g) == np.shape(e), (g, e)
            assert np.array_equal(g, e), (g, e)
