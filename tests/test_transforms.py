"""nptf.grad, value_and_grad, jacobian, hessian and vmap of plain NumPy functions:
gradients against central finite differences in float64 (and jax.grad of the same
code where JAX is installed), vmap against NumPy's loop, errors where TensorFlow has
no gradient."""
from __future__ import annotations

import types
import warnings

import numpy as np
import pytest

import nptf

RNG = np.random.default_rng(0)


def finite_difference(fn, args, argnum=0, eps=1e-6):
    x = np.asarray(args[argnum], dtype=np.float64)
    out = np.zeros(np.shape(np.asarray(fn(*args), dtype=float)) + x.shape)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        a = list(args)
        a[argnum] = up if x.ndim else float(up)
        f_up = np.asarray(fn(*a), dtype=float)
        a[argnum] = down if x.ndim else float(down)
        f_down = np.asarray(fn(*a), dtype=float)
        out[(...,) + i] = (f_up - f_down) / (2 * eps)
    return out


def check_gradient(fn, *args, argnum=0, rtol=1e-5, atol=1e-6):
    g = nptf.grad(fn, argnums=argnum)(*args)
    x = args[argnum]
    assert type(g) is type(x) and np.shape(g) == np.shape(x), (type(g), np.shape(g))
    if isinstance(x, np.ndarray):
        assert g.dtype == x.dtype
    np.testing.assert_allclose(g, finite_difference(fn, args, argnum), rtol=rtol, atol=atol)
    return g


def x_of(*shape):
    return RNG.uniform(0.5, 1.5, shape)


# An op record per differentiable construct: (name, scalar function, arguments).
CASES = [
    ("arithmetic", lambda x, y: np.sum(x * y + x / y - x ** 2 + 3.0), (x_of(3, 4), x_of(4))),
    ("broadcast_0d", lambda x, y: np.sum(x * y), (x_of(3), x_of())),
    ("python_float", lambda x, s: np.sum(np.sin(x) * s), (x_of(5), 0.7)),
    ("transcendental", lambda x: np.sum(np.exp(x) + np.log(x) + np.tanh(x) + np.sqrt(x)
                                        + np.arctan(x) + np.log1p(x) + np.cosh(x)),
     (x_of(2, 3),)),
    ("power_abs", lambda x: np.sum(np.abs(x - 1.0) ** 1.5 + np.hypot(x, 2.0)), (x_of(6),)),
    ("maximum_where", lambda x: np.sum(np.maximum(x, 1.0) + np.where(x > 1, x ** 2, -x)),
     (x_of(7),)),
    ("reductions", lambda x: np.mean(x) * np.max(x) + np.prod(x[0]) + np.std(x) + np.var(x, 1)[1]
     + np.linalg.norm(x), (x_of(3, 4),)),
    ("cumsum_diff", lambda x: np.sum(np.cumsum(x) ** 2) + np.sum(np.diff(x) ** 3), (x_of(6),)),
    ("matmul_einsum", lambda a, b: np.sum(np.tanh(a @ b)) + np.einsum("ij,jk->", a, b),
     (x_of(3, 4), x_of(4, 2))),
    ("softmax", lambda x: np.sum(np.exp(x - x.max(1, keepdims=True))
                                 / np.exp(x - x.max(1, keepdims=True)).sum(1, keepdims=True)
                                 * np.arange(4.0)), (x_of(2, 4),)),
    ("basic_index", lambda x: np.sum(x[1:, ::2] ** 2) + x[0, -1] * x[2, 1], (x_of(3, 4),)),
    ("fancy_index", lambda x: np.sum(x[[0, 2, 2]] * np.arange(4.0)), (x_of(3, 4),)),
    ("mask_index", lambda x: np.sum(x[x > 1.0] ** 2), (x_of(12),)),
    ("inplace_writes", "_written", (x_of(8),)),
    ("ufunc_at", "_scattered", (x_of(5),)),
    ("stack_concat", lambda x: np.sum(np.concatenate([x, x ** 2]) * np.stack([x, x]).sum(0)[0]),
     (x_of(4),)),
    ("sort_median", lambda x: np.sum(np.sort(x) * np.arange(6.0)) + np.median(x), (x_of(6),)),
    ("solve_inv_det", lambda a: np.sum(np.linalg.solve(a, np.ones(3))) + np.linalg.det(a)
     + np.sum(np.linalg.inv(a)), (x_of(3, 3) + 3 * np.eye(3),)),
    ("slogdet_cholesky", lambda a: np.linalg.slogdet(a @ a.T + np.eye(3))[1]
     + np.sum(np.linalg.cholesky(a @ a.T + np.eye(3))), (x_of(3, 3),)),
    ("svd_qr_lstsq", lambda a, b: np.sum(np.linalg.svd(a, compute_uv=False) * np.arange(1, 4.0))
     + np.sum(np.linalg.qr(a)[1] ** 2) + np.sum(np.linalg.lstsq(a, b, rcond=None)[0] ** 2),
     (x_of(5, 3), x_of(5))),
    ("eigh", lambda a: np.sum(np.linalg.eigh(a + a.T)[0] * np.arange(3.0)),
     (x_of(3, 3),)),
    ("for_loop", "_looped", (x_of(4),)),
    ("while_loop", "_converged", (x_of(3),)),
    ("traced_if", "_branched", (x_of(5),)),
    ("fft", lambda x: np.sum(np.abs(np.fft.rfft(x)) ** 2), (x_of(8),)),
]


def _written(x):
    y = np.zeros(10)
    y[1:9] = x * 2
    y[::3] += x[:4] ** 2
    y[y > 2.5] *= 3.0
    return np.sum(y ** 2)


def _scattered(x):
    y = np.zeros(3)
    np.add.at(y, [0, 2, 0, 1, 2], x)
    return np.sum(y ** 3)


def _looped(x):
    s = x.copy()
    for i in range(12):     # a graph loop (more than the unroll limit)
        s = np.sin(s) + x * 0.1 * i
    return np.sum(s)


def _converged(a):
    x = a.copy()
    i = 0
    while np.max(np.abs(x * x - a)) > 1e-12 and i < 100:
        x = 0.5 * (x + a / x)
        i += 1
    return np.sum(x)


def _branched(x):
    if np.sum(x) > 3:
        y = x ** 2
    else:
        y = np.exp(x)
    return np.sum(y)


@pytest.mark.parametrize("name, fn, args", CASES, ids=[c[0] for c in CASES])
def test_gradients_match_finite_differences(name, fn, args):
    fn = globals()[fn] if isinstance(fn, str) else fn    # a function with control flow
    for argnum in range(len(args)):
        check_gradient(fn, *args, argnum=argnum)


def _with_jax_numpy(fn):
    jnp = pytest.importorskip("jax.numpy")
    return types.FunctionType(fn.__code__, {**fn.__globals__, "np": jnp})


@pytest.mark.parametrize("name", ["arithmetic", "transcendental", "matmul_einsum",
                                  "softmax", "reductions"])
def test_gradients_match_jax_grad_of_the_same_code(name):
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    fn, args = next((f, a) for n, f, a in CASES if n == name)
    expected = jax.grad(_with_jax_numpy(fn))(*args)
    np.testing.assert_allclose(nptf.grad(fn)(*args), np.asarray(expected), rtol=1e-10)


# ------------------------------------------------------------- real functions
def trained_loss(w, X, y, lr=0.1, epochs=12):
    """A logistic regression trained by a Python loop of hand-written gradient steps: the
    gradient of its final loss with respect to the initial weights."""
    for _ in range(epochs):
        p = 1 / (1 + np.exp(-(X @ w)))
        w = w - lr * X.T @ (p - y) / len(y)
    p = 1 / (1 + np.exp(-(X @ w)))
    return -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))


def heat_energy(u, alpha):
    """An explicit heat-equation step written with in-place slice updates."""
    u = u.copy()
    for _ in range(10):
        lap = np.zeros_like(u)
        lap[1:-1] = u[2:] - 2 * u[1:-1] + u[:-2]
        u[1:-1] += alpha * lap[1:-1]
    return np.sum(u ** 2)


def pairwise_energy(P):
    d = P[:, None, :] - P[None, :, :]
    r2 = np.sum(d ** 2, axis=-1) + np.eye(len(P))
    return np.sum(np.triu(1.0 / r2, 1))


def test_gradients_of_real_functions():
    X, y = RNG.standard_normal((30, 3)), (RNG.random(30) > 0.5).astype(float)
    check_gradient(trained_loss, RNG.standard_normal(3), X, y)
    u = np.sin(np.linspace(0, 3, 16))
    check_gradient(heat_energy, u, 0.2)
    check_gradient(heat_energy, u, 0.2, argnum=1)
    check_gradient(pairwise_energy, RNG.standard_normal((5, 2)), rtol=1e-4)
    check_gradient(_converged, x_of(4))


def scaled_in_place(x):
    x *= 2.0
    return np.sum(x ** 2)


def test_an_argument_the_function_writes_into_is_written():
    x = np.arange(3.0)
    np.testing.assert_array_equal(nptf.grad(scaled_in_place)(x), [0.0, 8.0, 16.0])
    np.testing.assert_array_equal(x, [0.0, 2.0, 4.0])


def test_value_and_grad_jacobian_hessian():
    X, y = RNG.standard_normal((30, 3)), (RNG.random(30) > 0.5).astype(float)
    w = RNG.standard_normal(3)
    value, g = nptf.value_and_grad(trained_loss)(w, X, y)
    assert type(value) is np.float64 and value == pytest.approx(trained_loss(w, X, y), rel=1e-12)
    np.testing.assert_allclose(g, nptf.grad(trained_loss)(w, X, y))
    jac = nptf.jacobian(lambda x: np.cumsum(x ** 2))(np.arange(3.0))
    np.testing.assert_array_equal(jac, [[0, 0, 0], [0, 2, 0], [0, 2, 4]])
    hess = nptf.hessian(lambda x: np.sum(x ** 3) + x[0] * x[1])(np.array([1.0, 2.0]))
    np.testing.assert_allclose(hess, [[6, 1], [1, 12]])
    assert hess.shape == (2, 2)


def loss_with_aux(params, x):
    W, b = params["W"], params["b"]
    out = np.tanh(x @ W + b)
    return np.sum(out ** 2), out


def test_argnums_pytrees_aux_and_float32():
    params = {"W": RNG.standard_normal((3, 2)), "b": RNG.standard_normal(2)}
    x = RNG.standard_normal((4, 3))
    (g, aux) = nptf.grad(loss_with_aux, has_aux=True)(params, x)
    assert set(g) == {"W", "b"} and g["W"].shape == (3, 2) and g["b"].shape == (2,)
    np.testing.assert_allclose(aux, loss_with_aux(params, x)[1])
    np.testing.assert_allclose(
        g["b"], finite_difference(lambda b: loss_with_aux({**params, "b": b}, x)[0],
                                  [params["b"]]), rtol=1e-5)
    gx, gw = nptf.grad(lambda x, w: np.sum(np.sin(x @ w)), argnums=(0, 1))(x, params["W"])
    assert gx.shape == x.shape and gw.shape == (3, 2)
    g32 = nptf.grad(lambda x: np.sum(x ** 2))(np.arange(3, dtype=np.float32))
    assert g32.dtype == np.float32
    np.testing.assert_array_equal(g32, [0, 2, 4])
    g = nptf.grad(lambda s: s ** 2)(3.0)
    assert g == 6.0 and type(g) is float


def viewed(x):
    return np.sum(x.view(np.int64).astype(float))


def partitioned(x):
    return np.sum(np.partition(x, 2)[:3] ** 2)


def test_what_tensorflow_cannot_differentiate_is_refused_with_the_line():
    """Never a silent zero: an op on the path without a gradient names itself and the
    user's line."""
    for fn, what in [(viewed, "ndarray.view"), (partitioned, "np.partition")]:
        with pytest.raises(nptf.UnsupportedError, match=what) as info:
            nptf.grad(fn)(np.arange(1.0, 41.0))
        assert f"{__file__}:" in str(info.value)


def noisy_sum(x):
    return np.sum(x * np.random.rand(*x.shape))


def doubled_in_place(x):
    x *= 2
    return x


@pytest.mark.parametrize("call, error, message", [
    (lambda: nptf.grad(lambda x: x * 2)(np.ones(3)), TypeError, "must return a scalar"),
    (lambda: nptf.grad(lambda n: n * 2.0)(np.arange(3)), nptf.ArgumentError,
     "real floating-point inputs"),
    (lambda: nptf.grad(lambda x: np.sum(x), argnums=3)(np.ones(2)), ValueError, "out of range"),
    (lambda: nptf.grad(lambda x: (x * 2).astype(int).sum())(np.ones(2)), TypeError,
     "real floating-point output"),
    (lambda: nptf.grad(nptf.vmap(lambda x: np.sum(x ** 3)))(np.ones((2, 3))),
     TypeError, "must return a scalar"),
    (lambda: nptf.compile(lambda x: nptf.grad(noisy_sum)(x), fallback="raise")(np.ones(3)),
     nptf.UnsupportedError, r"nptf.grad\(noisy_sum\) inside a compiled function: it draws"),
    (lambda: nptf.compile(lambda x: nptf.vmap(doubled_in_place)(x), fallback="raise")(
        np.ones((2, 3))), nptf.UnsupportedError, "writes into its arguments"),
])
def test_bad_uses_say_what_to_do(call, error, message):
    with pytest.raises(error, match=message):
        call()


# ------------------------------------------------------------------------ vmap
def step(x, w):
    h = np.tanh(x @ w)
    if h.sum() > 0:
        h = h * 2
    return h, h.sum(), 3


def recurrence(x):
    out = x.copy()
    for i in range(1, len(x)):
        out[i] = out[i - 1] * 0.5 + x[i]
    return out


def noisy(x):
    return x + np.random.default_rng().standard_normal(x.shape)


def indexed_by_data(x):
    return x[int(x[0])]


def numpy_loop(fn, xs, *rest, axis=0):
    results = [fn(x, *rest) for x in np.moveaxis(xs, axis, 0)]
    if isinstance(results[0], tuple):
        return tuple(np.stack(r) for r in zip(*results))
    return np.stack(results)


def test_vmap_is_numpy_s_loop_stacked():
    xs, w = RNG.standard_normal((5, 3)), RNG.standard_normal((3, 2))
    got, expected = nptf.vmap(step, in_axes=(0, None))(xs, w), numpy_loop(step, xs, w)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and g.shape == e.shape
        np.testing.assert_allclose(g, e, rtol=1e-12)
    ys = RNG.standard_normal((4, 20))
    np.testing.assert_allclose(nptf.vmap(recurrence)(ys), numpy_loop(recurrence, ys))
    np.testing.assert_allclose(nptf.vmap(recurrence, in_axes=1, out_axes=1)(ys.T),
                               numpy_loop(recurrence, ys).T)


def test_vmap_draws_anew_for_each_example_and_keeps_numpy_s_errors():
    draws = nptf.vmap(noisy)(np.zeros((3, 4)))
    assert len({tuple(row) for row in draws}) == 3
    np.testing.assert_array_equal(nptf.vmap(indexed_by_data)(np.array([[0.0, 5], [1, 7]])),
                                  [0.0, 7.0])
    with pytest.raises(IndexError):
        nptf.vmap(indexed_by_data)(np.array([[3.0, 5], [1, 7]]))
    with pytest.raises(ValueError, match="inconsistent sizes"):
        nptf.vmap(step)(np.ones((3, 2)), np.ones((4, 2, 2)))


def solved(a, b):
    return np.linalg.solve(a, b), np.linalg.inv(a)


def test_vmap_and_grad_of_inv_and_solve_keep_numpy_s_singular_matrices():
    """A matrix near singular asks NumPy's LAPACK, through Python, one example at a
    time under vmap; a singular one raises NumPy's LinAlgError."""
    A = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
    singular = np.arange(1.0, 10.0).reshape(3, 3)
    near = singular + np.diag([0.0, 0.0, 1e-13])
    b = np.ones(3)
    mapped = nptf.vmap(solved, in_axes=(0, None))
    for mats in (np.stack([A, 2 * A]), np.stack([A, near])):
        got, expected = mapped(mats, b), numpy_loop(solved, mats, b)
        np.testing.assert_allclose(got[0][0], expected[0][0], rtol=1e-12)
        assert np.all(np.isfinite(got[1]))
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        mapped(np.stack([A, singular]), b)
    loss = nptf.grad(lambda a: np.sum(np.linalg.solve(a, b) ** 2))
    h = 1e-6
    numeric = [(np.sum(np.linalg.solve(A + h * e, b) ** 2) -
                np.sum(np.linalg.solve(A - h * e, b) ** 2)) / (2 * h)
               for e in np.eye(9).reshape(9, 3, 3)]
    np.testing.assert_allclose(loss(A).ravel(), numeric, rtol=1e-6)


def text_length(x):
    return np.float64(len(str(x.sum())))


def test_vmap_of_what_nptf_cannot_trace_runs_numpy_s_loop():
    xs = RNG.standard_normal((3, 4))
    with pytest.raises(nptf.UnsupportedError):
        nptf.vmap(text_length, fallback="raise")(xs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_array_equal(nptf.vmap(text_length)(xs), numpy_loop(text_length, xs))


def example_loss(w, x, y):
    p = 1 / (1 + np.exp(-(x @ w)))
    return -(y * np.log(p) + (1 - y) * np.log(1 - p))


def test_vmap_of_a_derivative_gives_per_example_gradients():
    X, y = RNG.standard_normal((6, 3)), (RNG.random(6) > 0.5).astype(float)
    w = RNG.standard_normal(3)
    per_example = nptf.vmap(nptf.grad(example_loss), in_axes=(None, 0, 0))(w, X, y)
    expected = np.stack([nptf.grad(example_loss)(w, x, t) for x, t in zip(X, y)])
    assert per_example.shape == (6, 3)
    np.testing.assert_allclose(per_example, expected, rtol=1e-12)
    np.testing.assert_allclose(per_example.mean(0), nptf.grad(
        lambda w: np.mean(example_loss(w, X, y)))(w), rtol=1e-12)
    values, grads = nptf.vmap(nptf.value_and_grad(example_loss), in_axes=(None, 0, 0))(w, X, y)
    np.testing.assert_allclose(values, example_loss(w, X, y), rtol=1e-12)
    np.testing.assert_allclose(grads, expected, rtol=1e-12)
    jac = nptf.vmap(nptf.jacobian(lambda x: np.cumsum(x ** 2)))(np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(jac[1], [[6, 0, 0], [6, 8, 0], [6, 8, 10]])


@nptf.compile(static_argnames=["n"])
def compiled_power_sum(x, n):
    return np.sum(x ** n)


def test_transforms_take_a_compiled_function_with_its_static_arguments():
    x = np.arange(3.0)
    np.testing.assert_allclose(nptf.grad(compiled_power_sum)(x, n=3), 3 * x ** 2)
    np.testing.assert_allclose(
        nptf.vmap(compiled_power_sum, in_axes=(0, None))(np.arange(6.0).reshape(2, 3), 2),
        [5.0, 50.0])


def writes_its_argument(x):
    x[0] = 1.0
    return x * 2


def positives(x):
    out = []
    for v in x:
        if v > 2:
            out.append(v)
    return out


def pair(x):
    return [x[0], x[1] * 2], {"sum": x.sum()}


@pytest.mark.parametrize("fn", [writes_its_argument, positives])
def test_vmap_refuses_writes_into_arguments_and_lists_the_data_grow(fn):
    xs = np.arange(6.0).reshape(2, 3)
    with pytest.raises(nptf.UnsupportedError):
        nptf.vmap(fn, fallback="raise")(xs.copy())


def test_vmap_stacks_containers_leaf_by_leaf():
    xs = np.arange(6.0).reshape(2, 3)
    (first, second), sums = nptf.vmap(pair)(xs)
    np.testing.assert_array_equal(first, xs[:, 0])
    np.testing.assert_array_equal(second, xs[:, 1] * 2)
    np.testing.assert_array_equal(sums["sum"], xs.sum(1))


# --------------------------------------------------------------- composition
def same_array(got, expected, rtol=1e-7, atol=0.0):
    """An ndarray of ``expected``'s dtype and shape, with its values (as NumPy's result)."""
    expected = np.asarray(expected)
    assert type(got) is np.ndarray, type(got)
    assert got.dtype == expected.dtype and got.shape == expected.shape, \
        (got.dtype, got.shape, expected.dtype, expected.shape)
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol)

def logistic_loss(w, X, y):
    p = 1 / (1 + np.exp(-(X @ w)))
    return -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))


def test_a_gradient_inside_a_compiled_training_loop():
    """The gradient is one op of the compiled graph; the lambda reads the caller's X, y."""
    @nptf.compile(fallback="raise")
    def train(w, X, y, epochs):
        for _ in range(epochs):
            w = w - 0.5 * nptf.grad(lambda v: logistic_loss(v, X, y))(w)
        return w

    X, y = RNG.normal(size=(20, 3)), (RNG.random(20) > 0.5).astype(float)
    w = np.zeros(3)
    expected = w.copy()
    for _ in range(30):
        expected = expected - 0.5 * finite_difference(logistic_loss, (expected, X, y))
    same_array(train(w, X, y, 30), expected, rtol=1e-6, atol=1e-8)
    assert train.cache_info().fallbacks == 0


def test_newton_steps_with_value_and_grad_and_hessian_inside_compile():
    @nptf.compile(fallback="raise")
    def newton(x):
        for _ in range(5):
            v, g = nptf.value_and_grad(lambda z: np.sum(np.cosh(z) + z ** 2))(x)
            x = x - np.linalg.solve(nptf.hessian(lambda z: np.sum(np.cosh(z) + z ** 2))(x), g)
        return x, v

    x, v = newton(np.array([1.0, -2.0]))
    same_array(x, np.zeros(2), atol=1e-12)
    assert type(v) is np.float64 and v == 2.0


@pytest.mark.parametrize("name", ["grad_of_grad", "jacobian_of_grad", "grad_of_vmap",
                                  "grad_of_a_sum_of_gradients"])
def test_second_derivatives_by_composition(name):
    x = np.array([0.5, 1.5, -0.3])
    if name == "grad_of_grad":
        d2 = nptf.grad(nptf.grad(lambda t: t ** 3 * np.sin(t)))(2.0)
        assert type(d2) is float
        assert abs(d2 - (6 * 2 * np.sin(2) + 6 * 4 * np.cos(2) - 8 * np.sin(2))) < 1e-12
        return
    if name == "jacobian_of_grad":
        f = lambda z: np.sum(np.sin(z) * z ** 3)   # noqa: E731
        same_array(nptf.jacobian(nptf.grad(f))(x), nptf.hessian(f)(x),
                                   rtol=1e-12)
        return
    if name == "grad_of_vmap":
        xs = RNG.normal(size=(4, 3))
        outer = lambda a: np.sum(nptf.vmap(lambda r: np.sum(np.sin(r) ** 2))(a) ** 2)  # noqa: E731
        plain = lambda a: np.sum(np.sum(np.sin(a) ** 2, axis=1) ** 2)   # noqa: E731
        same_array(nptf.grad(outer)(xs), finite_difference(plain, (xs,)),
                                   rtol=1e-6, atol=1e-8)
        return
    inner = lambda z: np.sum(np.sin(z) * z ** 3)   # noqa: E731
    outer = lambda z: np.sum(nptf.grad(inner)(z) ** 2)   # noqa: E731
    plain = lambda z: np.sum((np.cos(z) * z ** 3 + 3 * z ** 2 * np.sin(z)) ** 2)   # noqa: E731
    same_array(nptf.grad(outer)(x), finite_difference(plain, (x,)),
                               rtol=1e-6)


def test_vmap_of_vmap_and_vmap_inside_compile():
    X, Y = RNG.normal(size=(4, 5, 3)), RNG.normal(size=3)
    f = lambda x, y: np.sum(np.tanh(x) * y) + np.max(x)   # noqa: E731
    twice = nptf.vmap(nptf.vmap(f, in_axes=(0, None)), in_axes=(0, None), fallback="raise")
    expected = np.array([[f(X[i, j], Y) for j in range(5)] for i in range(4)])
    same_array(twice(X, Y), expected, rtol=1e-12)
    moved = nptf.vmap(nptf.vmap(lambda a: a * 2, out_axes=1), fallback="raise")(
        np.arange(24.0).reshape(2, 3, 4))
    same_array(moved, np.arange(24.0).reshape(2, 3, 4).transpose(0, 2, 1) * 2)

    @nptf.compile(fallback="raise")
    def pairwise(A, B):
        return nptf.vmap(lambda a: nptf.vmap(lambda b: np.sqrt(np.sum((a - b) ** 2)))(B))(A)

    A, B = RNG.normal(size=(5, 2)), RNG.normal(size=(6, 2))
    same_array(pairwise(A, B),
                               np.sqrt(((A[:, None] - B[None]) ** 2).sum(-1)), rtol=1e-12)

    @nptf.compile(fallback="raise")
    def per_example(w, X, y):
        return nptf.vmap(nptf.grad(lambda w, x, t: (x @ w - t) ** 2), in_axes=(None, 0, 0))(
            w, X, y)

    w, Xs, ys = RNG.normal(size=3), RNG.normal(size=(7, 3)), RNG.normal(size=7)
    same_array(per_example(w, Xs, ys), 2 * (Xs @ w - ys)[:, None] * Xs,
                               rtol=1e-12)


def test_compile_of_a_transform_runs_the_transform():
    f = lambda x: np.sum(np.sin(x) ** 2)   # noqa: E731
    x = np.linspace(0, 1, 4)
    same_array(nptf.compile(nptf.grad(f), fallback="raise")(x),
                               np.sin(2 * x), rtol=1e-12)
    same_array(nptf.compile(nptf.vmap(f), fallback="raise")(np.ones((3, 4))),
                               np.sum(np.sin(np.ones((3, 4))) ** 2, axis=1), rtol=1e-12)


def element_squared(x, i):
    return x[i] ** 2 + np.sum(x)


def test_gradients_through_a_traced_index_keep_its_check():
    """x[i] with i an argument: a gradient of the gather, and NumPy's IndexError when i is
    out of bounds, directly and inside a compiled function."""
    x = np.arange(3.0)
    expected = np.array([1.0, 3.0, 1.0])
    same_array(nptf.grad(element_squared)(x, np.int64(1)), expected)

    @nptf.compile(fallback="raise")
    def doubled(x, i):
        return nptf.grad(element_squared)(x, i) * 2

    same_array(doubled(x, np.int64(1)), expected * 2)
    pair_at = lambda x, i: np.sum(x[np.array([0, 1]) + i] ** 2)   # noqa: E731
    for call in (lambda: nptf.grad(element_squared)(x, np.int64(5)),
                 lambda: doubled(x, np.int64(5)),
                 lambda: nptf.grad(pair_at)(x, np.int64(5))):
        with pytest.raises(IndexError, match="out of bounds"):
            call()


def products_and_summaries(x, y):
    return x * y, {"s": np.sum(x ** 2), "c": np.cumsum(y)}


def test_jacobian_of_a_function_returning_a_tuple_and_a_dict():
    """One Jacobian per value, in the structure the function returns (as jax.jacobian)."""
    x, y = np.array([1.0, 2.0]), np.array([3.0, 4.0])
    prod, summary = nptf.jacobian(products_and_summaries)(x, y)
    same_array(prod, np.diag(y))
    same_array(summary["s"], 2 * x)
    same_array(summary["c"], np.zeros((2, 2)))
    (_, prod_y), summary = nptf.jacobian(products_and_summaries, argnums=(0, 1))(x, y)
    same_array(prod_y, np.diag(x))
    same_array(summary["c"][1], np.tril(np.ones((2, 2))))
    batched = nptf.vmap(nptf.jacobian(products_and_summaries))(np.ones((3, 2)), np.ones((3, 2)))
    assert batched[1]["s"].shape == (3, 2) and batched[0].shape == (3, 2, 2)


def mean_squared_error(w, X, y):
    return np.mean((X @ w - y) ** 2)


def test_an_input_signature_gives_one_derivative_for_every_size_it_admits():
    spec = [nptf.Spec((3,), np.float64), nptf.Spec((None, 3), np.float64),
            nptf.Spec((None,), np.float64)]
    for g in (nptf.grad(mean_squared_error, input_signature=spec),
              nptf.grad(nptf.compile(mean_squared_error, input_signature=spec))):
        w = RNG.normal(size=3)
        for n in (5, 9, 17):
            X, y = RNG.normal(size=(n, 3)), RNG.normal(size=n)
            same_array(g(w, X, y), 2 * X.T @ (X @ w - y) / n, rtol=1e-12)
        assert len(g._cache) == 1
        with pytest.raises(TypeError, match="input_signature says float64\\[3\\]"):
            g(np.ones(4), X, y)


def test_a_compiled_step_that_takes_a_gradient_exports(tmp_path):
    tf = pytest.importorskip("tensorflow")

    @nptf.compile(fallback="raise")
    def descent_step(w, X, y):
        return w - 0.1 * nptf.grad(mean_squared_error)(w, X, y)

    w, X, y = RNG.normal(size=3), RNG.normal(size=(8, 3)), RNG.normal(size=8)
    nptf.export(descent_step, tmp_path / "step", w, X, y)
    served = tf.saved_model.load(str(tmp_path / "step")).signatures["serving_default"]
    (out,) = served(w=tf.constant(w), X=tf.constant(X), y=tf.constant(y)).values()
    same_array(out.numpy(), w - 0.2 * X.T @ (X @ w - y) / 8, rtol=1e-12)


def test_derivatives_flow_through_the_arrays_an_inner_function_reads():
    """d/dc of sum(d/dx f(x, c)): the inner gradient reads c from the outer function."""
    x = np.array([0.3, -1.2, 2.0])
    inner = lambda z, c: np.sum(np.sin(c * z))   # noqa: E731
    outer = lambda c: np.sum(nptf.grad(lambda z: inner(z, c))(x))   # noqa: E731
    plain = lambda c: np.sum(c * np.cos(c * x))   # noqa: E731
    assert abs(nptf.grad(outer)(1.7) - finite_difference(plain, (1.7,))) < 1e-7
