"""End-to-end behaviour of the public API, on real functions, against NumPy."""
from __future__ import annotations

import os
import subprocess
import sys

import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy, mismatch


def test_decorator_forms():
    @nptf.compile
    def f(x):
        return x * 2

    @nptf.compile(jit_compile=True, static_argnames=["n"])
    def g(x, n):
        return x.reshape(n, -1).sum(axis=1)

    x = np.arange(6.0)
    np.testing.assert_array_equal(f(x), x * 2)
    np.testing.assert_array_equal(g(x, 2), x.reshape(2, -1).sum(axis=1))
    np.testing.assert_array_equal(g(x, n=3), x.reshape(3, -1).sum(axis=1))
    assert g.cache_info().traces == 2


def test_inputs_of_every_kind(jit):
    import tensorflow as tf

    def f(a, b, c, d):
        return a + b + c + d

    check_against_numpy(f, np.ones(3, np.float32), 2.5, [1.0, 2.0, 3.0], np.float32(1), jit=jit)
    got = nptf.compile(f)(tf.constant([1.0, 2.0]), 1.0, [1.0, 1.0], 1.0)
    assert isinstance(got, np.ndarray) and got.dtype == np.float64  # the list is float64
    np.testing.assert_allclose(got, [4.0, 5.0])


def test_output_structure_is_kept():
    def f(x):
        return {"sum": x.sum(), "pair": (x.min(), [x.max(), x * 2])}, None, 3

    check_against_numpy(f, np.arange(5.0))


def test_scalars_come_back_as_numpy_scalars():
    def f(x):
        return np.sum(x), x[0], x.mean(keepdims=True), x.ndim, x[..., 2], x[:1].reshape(())

    got = check_against_numpy(f, np.arange(4.0))
    assert type(got[0]) is np.float64 and type(got[1]) is np.float64 and got[3] == 1
    assert type(got[4]) is np.ndarray and got[4].shape == () and type(got[5]) is np.ndarray


def test_python_float_is_a_weak_traced_input():
    f = nptf.compile(lambda x, s: x * s)
    x = np.ones(3, np.float32)
    assert f(x, 2.0).dtype == np.float32
    assert f(x, 3.0)[0] == 3.0
    assert f.cache_info().traces == 1


def test_cache_hits_and_retraces():
    f = nptf.compile(lambda x: x + 1)
    f(np.ones(3))
    f(np.zeros(3))
    assert (f.cache_info().traces, f.cache_info().hits) == (1, 1)
    f(np.ones(4))
    f(np.ones(3, np.float32))
    info = f.cache_info()
    assert (info.traces, info.misses, info.hits) == (3, 3, 1)
    f.clear_cache()
    assert f.cache_info().size == 0


def test_trace_prints_like_a_jaxpr():
    f = nptf.compile(lambda x, y: np.maximum(x @ y, 0).sum(axis=0))
    text = str(f.trace(np.ones((2, 3), np.float32), np.ones((3, 4), np.float32)))
    assert text.startswith("{ lambda a:f32[2,3] b:f32[3,4] .")
    assert "matmul a b" in text and "reduce_sum[axes=(0,)" in text
    raw = str(f.trace(np.ones((2, 3)), np.ones((3, 4)), stage="traced"))
    assert "maximum" in raw


# ------------------------------------------------------- promotion (NEP 50)
@pytest.mark.parametrize("fn, args, dtype", [
    (lambda x: x * 2.0, (np.ones(2, np.float32),), np.float32),
    (lambda x: x + 1, (np.ones(2, np.int8),), np.int8),
    (lambda x, y: x / y, (np.ones(2, np.int32), np.ones(2, np.int32)), np.float64),
    (lambda x: np.mean(x), (np.ones(2, np.int32),), np.float64),
    (lambda x: np.sum(x), (np.ones(2, bool),), np.int64),
    (lambda x: np.sum(x), (np.ones(2, np.int32),), np.int64),
    (lambda x: np.exp(x), (np.ones(2, np.int8),), np.float16),
    (lambda x, y: x + y, (np.ones(2, np.int64), np.ones(2, np.uint64)), np.float64),
    (lambda x: x + np.float64(1), (np.ones(2, np.float32),), np.float64),
    (lambda x: 1j * x, (np.ones(2, np.float32),), np.complex64),
])
def test_promotion_matches_numpy(fn, args, dtype):
    got = check_against_numpy(fn, *args)
    assert got.dtype == dtype


def test_weak_int_overflow_raises_like_numpy():
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        nptf.compile(lambda x: x + 300, fallback="raise")(np.ones(2, np.int8))


def test_guide_type_promotion_table():
    """The guide's table of promotions, for every pair of its four dtypes."""
    dtypes = [np.int32, np.int64, np.float32, np.float64]
    f = nptf.compile(lambda a, b: a + b)
    for a in dtypes:
        for b in dtypes:
            got = f(np.asarray(1, a), np.asarray(1, b))
            assert got.dtype == (np.asarray(1, a) + np.asarray(1, b)).dtype


def test_guide_broadcasting_example():
    check_against_numpy(lambda x, y, z: x + y + z, np.ones([2, 3]), np.ones([3]), np.ones([1, 2, 1]))


def test_guide_indexing_example():
    check_against_numpy(lambda x: x[1, np.newaxis, 1:3, ...], np.arange(24).reshape(2, 3, 4))


def test_guide_model(jit):
    rng = np.random.default_rng(1)

    def predict(inputs, w1, bias, w2):
        y = np.matmul(inputs, w1) + bias
        y = np.maximum(y, 0)
        return np.matmul(y, w2)

    args = (np.ones([2, 32], np.float32), rng.standard_normal((32, 64)).astype(np.float32),
            rng.standard_normal(64).astype(np.float32), rng.standard_normal((64, 2)).astype(np.float32))
    check_against_numpy(predict, *args, jit=jit)


# ------------------------------------------------------------- real code
def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return gamma * (x - mu) / np.sqrt(var + eps) + beta


def pairwise_distances(a, b):
    d2 = (a ** 2).sum(1)[:, None] + (b ** 2).sum(1)[None, :] - 2 * a @ b.T
    return np.sqrt(np.clip(d2, 0, None))


def heat_step(u, alpha=0.1):
    lap = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]
    inner = u[1:-1, 1:-1] + alpha * lap
    top, bottom = u[:1, 1:-1], u[-1:, 1:-1]
    middle = np.concatenate([top, inner, bottom], axis=0)
    return np.concatenate([u[:, :1], middle, u[:, -1:]], axis=1)


def gelu(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


def helper_zeros(n):
    return np.zeros(n)


def uses_helper(x):
    return x + helper_zeros(x.shape[0]) + np.arange(x.shape[0])


@pytest.mark.parametrize("fn, shapes", [
    (softmax, [(4, 5)]), (layer_norm, [(3, 8), (8,), (8,)]), (pairwise_distances, [(5, 3), (4, 3)]),
    (heat_step, [(6, 7)]), (gelu, [(100,)]), (uses_helper, [(5,)]),
])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_real_functions(fn, shapes, dtype, jit):
    rng = np.random.default_rng(2)
    args = [rng.standard_normal(s).astype(dtype) for s in shapes]
    # gelu's np.sqrt(2 / np.pi) is a float64 scalar: of float32 data its result is float64,
    # computed from float32 values whose last bits TensorFlow's kernels round their own way.
    mixed = fn is gelu and dtype == np.float32
    check_against_numpy(fn, *args, jit=jit, rtol_scale=20 * (2e-5 / 1e-9 if mixed else 1))


def test_nan_semantics():
    x = np.array([1.0, np.nan, 3.0])
    check_against_numpy(lambda x: (np.max(x), np.min(x), np.fmax(x, 2.0), np.maximum(x, 2.0),
                                   np.argmax(x), np.nanmax(x) if False else x.sum()), x)


def _nan_grid(dtype):
    """Rows and columns with NaN first, last, inside a vector's lanes and everywhere."""
    x = np.random.default_rng(3).standard_normal((37, 129)).astype(dtype)
    x[3, 5] = x[10, 128] = x[36, 0] = x[5, 64] = np.nan
    x[20, :] = np.nan
    x[7, 9] = np.inf
    x[8, 11] = -np.inf
    return x


def _extremes(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return (np.max(x), np.min(x, axis=0), np.amax(x, axis=1, keepdims=True), np.argmax(x, axis=1),
            np.argmin(x, axis=0), np.ptp(x, axis=1), e / np.sum(e, axis=-1, keepdims=True))


@pytest.mark.parametrize("jit", [True, False])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_max_and_min_reductions_return_nan_as_numpy_does(jit, dtype):
    check_against_numpy(_extremes, _nan_grid(dtype), jit=jit, rtol_scale=10)


def test_nan_kept_where_xla_reductions_drop_it(monkeypatch):
    """Where XLA's fast min/max is on (XLA compiled before nptf was imported, or it was
    asked for in XLA_FLAGS), the lowering finds NaN itself; exported graphs always do,
    and so do float32 reductions, which XLA's CPU reduces without NaN from 32,768
    elements whatever the flag."""
    from nptf.lowering import structural
    script = ("import numpy as np, tensorflow as tf\n"
              "tf.function(lambda a: a + 1, jit_compile=True)(tf.constant(1.0))\n"
              "import nptf\n"
              "from nptf.lowering.xla_flags import reductions_keep_nan\n"
              "f = nptf.compile(lambda x: (np.max(x), np.argmin(x)), jit_compile=True)\n"
              "top, where = f(np.array([1, np.nan, 2], np.float32))\n"
              "print(reductions_keep_nan(), np.isnan(top), where)\n")
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}   # as nptf found it
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300, env=env)
    assert done.stdout.split() == ["False", "True", "1"], done.stderr[-2000:]
    import tensorflow as tf
    from nptf.lowering import lower_graph
    for dtype in (tf.float64, tf.float32):
        graph = nptf.compile(lambda x: np.max(x, axis=0)).trace(np.ones((3, 4), dtype.name))
        for portable, separate_pass in ((False, dtype == tf.float32), (True, True)):
            monkeypatch.setattr(structural, "reductions_keep_nan", lambda: True)
            fn = tf.function(lower_graph(graph, xla=True, portable=portable), autograph=False)
            ops = {op.type for op in fn.get_concrete_function(
                tf.TensorSpec((3, 4), dtype)).graph.get_operations()}
            assert ("IsNan" in ops) is separate_pass


@pytest.mark.parametrize("jit", [True, False])
def test_exported_graphs_return_nan_as_numpy_does(tmp_path, jit):
    import tensorflow as tf
    x = _nan_grid(np.float32)
    nptf.export(_extremes, tmp_path / "extremes", nptf.Spec(x.shape, x.dtype), jit_compile=jit)
    serve = tf.saved_model.load(str(tmp_path / "extremes")).signatures["serving_default"]
    (name,) = serve.structured_input_signature[1]
    got = serve(**{name: tf.constant(x)})
    for k, expected in enumerate(_extremes(x)):
        value = got[f"output_{k}"].numpy()
        assert value.dtype == np.asarray(expected).dtype and value.shape == np.shape(expected)
        np.testing.assert_allclose(value, expected, rtol=1e-5, equal_nan=True)


def test_empty_and_zero_d():
    check_against_numpy(lambda x: (x * 2, x.sum(), x.reshape(0, 3)), np.zeros((0,)))
    check_against_numpy(lambda x: (x + 1, np.exp(x), x.sum()), np.asarray(2.0))


# ------------------------------------------------------------------ errors
def test_unsupported_function_names_function_and_line():
    def f(x):
        return np.polydiv(x, x[:2] + 1.0)  # an unsupported call

    with pytest.raises(nptf.UnsupportedError,
                       match=r"np\.polydiv.*\n  at .*test_api\.py:\d+"):
        nptf.compile(f, fallback="raise")(np.ones(3))


def test_unsupported_falls_back_to_numpy_with_a_warning():
    def f(x):
        return np.polydiv(x, x[:2] + 1.0)[0]

    g = nptf.compile(f)
    with pytest.warns(RuntimeWarning, match="np.polydiv"):
        np.testing.assert_allclose(g(np.ones(3)), f(np.ones(3)))
    g(np.ones(3))
    assert g.cache_info().fallbacks == 2 and g.cache_info().traces == 1


def counts_in_a_python_list(x, bins=6):
    lo, hi = x.min(), x.max()
    width = (hi - lo) / bins
    groups = [[] for _ in range(bins)]
    for v in x:
        k = int((v - lo) / width)
        if k == bins:
            k -= 1
        row = groups[k]
        row.append(v)           # a row held by a name, appended at a traced position
    return np.array([len(g) for g in groups]) * x.strides[0]      # not compiled


def test_a_call_that_runs_with_numpy_gives_one_warning():
    # The trace first tries the loop unrolled, which it would warn about had it compiled.
    x = np.random.default_rng(0).normal(size=30)
    g = nptf.compile(counts_in_a_python_list)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        np.testing.assert_array_equal(g(x), counts_in_a_python_list(x))
    assert [str(w.message).split(" because")[0] for w in said] == \
        ["nptf: counts_in_a_python_list runs with NumPy for this signature"]
    assert said[0].filename == __file__


def test_str_of_a_traced_value_is_a_clear_error(tmp_path):
    def f(x):
        return x * len(str(x.max()))

    # The text of the call's data, for nptf.compile; one graph for all data cannot have it.
    check_against_numpy(f, np.ones(2000))
    with pytest.raises(nptf.TracerConversionError, match=r"str\(\).*\n  at .*test_api\.py"):
        nptf.export(f, tmp_path / "m", nptf.Spec((2000,)))


def test_random_is_never_frozen():
    f = nptf.compile(lambda x: x + np.random.rand(3), fallback="raise")
    first, second = f(np.ones(3)), f(np.ones(3))
    assert not np.array_equal(first, second)  # a fresh draw per call, not a baked-in constant
    assert np.random.rand is not None and np.random.rand(2).shape == (2,)
    np.random.seed(0)
    expected = np.random.rand(2)
    np.random.seed(0)
    assert np.array_equal(np.random.rand(2), expected)  # NumPy's own stream is untouched


def test_shape_error_has_numpy_message_and_user_line():
    with pytest.raises(ValueError, match=r"could not be broadcast.*\n  at .*test_api\.py"):
        nptf.compile(lambda x, y: x + y)(np.ones(3), np.ones(4))


@pytest.mark.parametrize("bad", [np.array([object()]), np.array(["2020-01-01"], "M8[D]")])
def test_non_numeric_arguments_run_with_numpy_or_are_refused(bad):
    with pytest.warns(RuntimeWarning, match="runs with NumPy for this call because argument 'x'"):
        assert nptf.compile(lambda x: x)(bad) is bad
    with pytest.raises(nptf.ArgumentError, match="argument 'x'"):
        nptf.compile(lambda x: x, fallback="raise")(bad)


def test_arrays_of_text_are_static_arguments():
    text = np.array(["a", "bc"])
    got = nptf.compile(lambda x: x, fallback="raise")(text)
    assert got is not text and got.dtype == text.dtype and got.flags.writeable
    np.testing.assert_array_equal(got, text)


def test_wrong_arguments_give_pythons_type_error():
    f = nptf.compile(lambda x, y: x + y)
    with pytest.raises(TypeError, match="missing"):
        f(np.ones(2))
    with pytest.raises(TypeError, match="unexpected keyword"):
        f(np.ones(2), np.ones(2), z=1)


@nptf.compile
def _inner(x):
    return np.exp(x) + 1


def test_compiled_functions_inline_into_each_other():
    outer = nptf.compile(lambda x: _inner(x) * 2)
    np.testing.assert_allclose(outer(np.zeros(3)), np.full(3, 4.0))
    assert "exp" in str(outer.trace(np.zeros(3)))


def test_keyword_only_and_variadic_parameters():
    def kw(x, *, scale=2.0, axis=0):
        return (x * scale).sum(axis=axis)

    def va(*xs):
        return xs[0] + xs[1] * xs[2]

    check_against_numpy(kw, np.ones((2, 3)))
    np.testing.assert_array_equal(nptf.compile(kw)(np.ones((2, 3)), scale=3.0, axis=1), [9.0, 9.0])
    check_against_numpy(va, np.ones(2), np.full(2, 2.0), np.full(2, 3.0))


def test_methods_get_a_clear_message_about_self():
    class Model:
        w = np.ones((3, 2))

        @nptf.compile
        def predict(self, x):
            return x @ self.w

        @nptf.compile(fallback="raise")
        def strict(self, x):
            return x @ self.w

    with pytest.warns(RuntimeWarning, match="argument 'self'.*compile a function of the arrays"):
        np.testing.assert_array_equal(Model().predict(np.ones((1, 3))), np.full((1, 2), 3.0))
    with pytest.raises(nptf.ArgumentError, match="argument 'self'.*compile a function of the"):
        Model().strict(np.ones((1, 3)))


_EDITED = '''
def pad(x):
    s = 0.0
    for i in range(len(x)):
        if x[i] < 0:
            s += x[i]
    return s


def first(x):
    s = 0.0
    for i in range(len(x)):
        if x[i] > 0:
            s += x[i]
    return s


def second(x):
    return x * 2.0
'''


def test_a_source_file_edited_after_import_is_not_converted(tmp_path, monkeypatch):
    """nptf converts a function from its file: where the file changed after the import
    (pad() deleted, so first()'s lines hold second()), the function runs as written,
    never the code now at its lines."""
    import importlib
    import linecache
    (tmp_path / "edited_module.py").write_text(_EDITED)
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("edited_module")
    (tmp_path / "edited_module.py").write_text(_EDITED[_EDITED.index("def first"):])
    linecache.checkcache()
    x = np.array([1.0, -2.0, 3.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = nptf.compile(module.first)(x)
    assert mismatch(module.first(x), got) is None


def _window_sums(x, sizes, cut=slice(None)):
    return np.array([x[cut][:k].sum() for k in sizes])


def test_range_and_slice_arguments_are_static():
    f = nptf.compile(_window_sums, fallback="raise")
    x = np.arange(10.0)
    for sizes, cut in [(range(1, 4), slice(2, None)), (range(2, 9, 3), slice(None, None, 2)),
                       (range(1, 4), slice(2, None))]:
        np.testing.assert_array_equal(f(x, sizes, cut), _window_sums(x, sizes, cut))
    assert f.cache_info().misses == 2
