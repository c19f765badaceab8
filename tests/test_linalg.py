"""np.linalg decompositions with sign or order freedom, checked by their invariants,
and NumPy's value-dependent errors (singular matrices) at run time."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
import tensorflow as tf

import nptf
from harness import check_against_numpy

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
TOL = {np.float32: 1e-4, np.float64: 1e-10, np.complex64: 1e-4, np.complex128: 1e-10}


def _matrix(rng, shape, dtype):
    x = rng.normal(size=shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.normal(size=shape)
    return x.astype(dtype)


def _compile(fn, jit):
    return nptf.compile(fn, jit_compile=jit, fallback="raise")


def _same_types(got, expected):
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and g.shape == e.shape, (g.dtype, g.shape, e.dtype, e.shape)


# XLA's iterative (Jacobi) svd/eigh stop near 1e-7 relative even in double precision.
XLA_TOL = 1e-6
_xla = [False]


def _close(a, b, dtype):
    tol = max(TOL[dtype] * 10, XLA_TOL if _xla[0] else 0)
    np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


@pytest.fixture(autouse=True)
def _note_xla(request):
    _xla[0] = bool(request.node.callspec.params.get("jit")) if hasattr(request.node, "callspec") else False
    yield


def _adj(x):
    return np.conj(np.swapaxes(x, -1, -2))


@pytest.mark.parametrize("dtype", DTYPES)
def test_qr(dtype, jit, rng):
    a = _matrix(rng, (2, 5, 3), dtype)
    fn = lambda a: (tuple(np.linalg.qr(a)), tuple(np.linalg.qr(a, mode="complete")), np.linalg.qr(a, mode="r"))  # noqa: E731
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        (q, r), (qc, rc), r_only = _compile(fn, jit)(a)
    (eq, er), (eqc, erc), er_only = fn(a)
    _same_types([q, r, qc, rc, r_only], [eq, er, eqc, erc, er_only])
    for qq, rr in ((q, r), (qc, rc)):
        _close(qq @ rr, a, dtype)
        _close(_adj(qq) @ qq, np.broadcast_to(np.eye(qq.shape[-1]), qq.shape[:-2] + (qq.shape[-1],) * 2), dtype)
        assert np.allclose(np.tril(rr, -1), 0)
    _close(np.abs(r_only), np.abs(er_only), dtype)  # unique up to the signs of rows


@pytest.mark.parametrize("dtype", DTYPES)
def test_svd(dtype, jit, rng):
    a = _matrix(rng, (2, 4, 3), dtype)
    fn = lambda a: (tuple(np.linalg.svd(a)), tuple(np.linalg.svd(a, full_matrices=False)),  # noqa: E731
                    np.linalg.svd(a, compute_uv=False))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        (u, s, vh), (ur, sr, vhr), s_only = _compile(fn, jit)(a)
    (eu, es, evh), (eur, esr, evhr), es_only = fn(a)
    _same_types([u, s, vh, ur, sr, vhr, s_only], [eu, es, evh, eur, esr, evhr, es_only])
    _close(s, es, dtype)
    _close(s_only, es_only, dtype)
    _close((ur * sr[..., None, :]) @ vhr, a, dtype)
    _close(_adj(u) @ u, np.broadcast_to(np.eye(4), (2, 4, 4)), dtype)
    _close(vh @ _adj(vh), np.broadcast_to(np.eye(3), (2, 3, 3)), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_eigh(dtype, jit, rng):
    a = _matrix(rng, (2, 4, 4), dtype)
    for uplo in ("L", "U"):
        fn = lambda a: tuple(np.linalg.eigh(a, UPLO=uplo))  # noqa: E731
        w, v = _compile(fn, jit)(a)
        ew, ev = fn(a)
        _same_types([w, v], [ew, ev])
        _close(w, ew, dtype)
        assert np.all(np.diff(w, axis=-1) >= 0)  # ascending, as NumPy returns them
        tri = np.tril(a) if uplo == "L" else np.triu(a)
        herm = tri + _adj(tri) - np.real(np.diagonal(tri, 0, -2, -1))[..., None] * np.eye(4)
        _close(herm @ v, v * w[..., None, :], dtype)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_eig_complex(dtype, jit, rng):
    a = _matrix(rng, (3, 3), dtype)
    fn = lambda a: (tuple(np.linalg.eig(a)), np.linalg.eigvals(a))  # noqa: E731
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        (w, v), w2 = _compile(fn, jit)(a)
    (ew, ev), ew2 = fn(a)
    _same_types([w, v, w2], [ew, ev, ew2])
    _close(np.sort_complex(w), np.sort_complex(ew), dtype)
    _close(a @ v, v * w[None, :], dtype)


def real_eig(a):
    w, v = np.linalg.eig(a)
    order = np.argsort(w)
    return w, v, w[order], v[:, order] @ np.diag(w[order]), np.linalg.eigvals(a)


def test_eig_of_a_real_matrix_with_real_eigenvalues_is_numpy_s(jit, rng):
    """A real matrix's eig: NumPy's real result where every eigenvalue is real (a
    covariance for PCA, a chain's transitions), its complex result where one is complex
    (a graph traced for that kind; tests/test_assumptions.py)."""
    from harness import check_against_numpy
    x = rng.normal(size=(12, 4))
    cov = np.cov(x, rowvar=False)
    chain = np.array([[0.9, 0.1, 0.0], [0.2, 0.7, 0.1], [0.1, 0.2, 0.7]])
    rotation = np.array([[0.1, -1.0, 0.2], [1.0, 0.1, 0.3], [0.2, 0.1, 0.5]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # "runs without XLA"
        for a in (cov, cov.astype(np.float32), chain, np.arange(4).reshape(2, 2), rotation):
            check_against_numpy(real_eig, a, jit=jit)


def test_export_of_a_real_eig_says_why_it_cannot(tmp_path):
    with pytest.raises(nptf.UnsupportedError, match="cannot export.*eig of a real matrix"):
        nptf.export(real_eig, str(tmp_path / "m"), nptf.Spec((3, 3), np.float64))


@pytest.mark.parametrize("name", ["inv", "solve", "batched", "in_a_loop", "matrix_power"])
@pytest.mark.parametrize("singular", [[[1.0, 2.0], [2.0, 4.0]],
                                      np.arange(1.0, 10.0).reshape(3, 3).tolist()],
                         ids=["exact", "rounded"])
def test_singular_is_what_lapack_finds_singular(name, singular, jit):
    """Singular matrices raise NumPy's LinAlgError from the graph, naming the call: one
    TensorFlow's LU finds singular too, and one on which it meets no zero pivot (rounding
    otherwise than LAPACK's), which gave a huge inverse. A matrix as near singular that
    LAPACK finds regular has a result."""
    fn = {"inv": lambda a: np.linalg.inv(a),
          "solve": lambda a: np.linalg.solve(a, np.ones(len(a))),
          "batched": lambda a: np.linalg.solve(np.stack([np.eye(len(a)), a]),
                                               np.ones((2, len(a), 1))),
          "in_a_loop": _solve_in_a_loop_of(len(singular)),
          "matrix_power": lambda a: np.linalg.matrix_power(a, -2)}[name]
    singular = np.array(singular)
    near = singular + np.diag([0.0] * (len(singular) - 1) + [1e-13])   # condition ~1e15
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        fn(singular)
    fn(near)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        compiled = _compile(fn, jit)
        with pytest.raises(np.linalg.LinAlgError, match="Singular matrix") as raised:
            compiled(singular)
        assert "np.linalg." in str(raised.value) and "test_linalg.py:" in str(raised.value)
        assert np.all(np.isfinite(compiled(near)))
        regular = np.eye(len(singular)) * 2 + np.eye(len(singular), k=1)
        _close(compiled(regular), fn(regular), np.float64)


def _solve_in_a_loop_of(n):
    def solve_in_a_loop(a):
        x = np.ones(n)
        for _ in range(12):     # past unrolling: the solve sits in a loop body
            x = np.linalg.solve(a + 0.0 * x[0], x) * 0.5
        return x
    return solve_in_a_loop


def _determinants_in_a_loop(a):
    total = 0.0
    for i in range(12):     # past unrolling: det sits in a loop body
        total = total + np.linalg.det(a * (i + 1))
    return total


def test_forced_xla_runs_without_it_when_a_loop_body_holds_what_xla_cannot_compile():
    # XLA has no determinant kernel: found in the loop body, the graph runs on the plain
    # executor with a warning (it used to fail to compile inside TensorFlow).
    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    compiled = nptf.compile(_determinants_in_a_loop, jit_compile=True, fallback="raise")
    with pytest.warns(RuntimeWarning, match="XLA cannot compile det"):
        got = compiled(a)
    np.testing.assert_allclose(got, _determinants_in_a_loop(a), rtol=1e-12)
    assert not compiled.entry_for(a).xla


def test_cholesky_of_indefinite_matrix_raises_linalg_error(jit):
    with pytest.raises(np.linalg.LinAlgError, match="positive definite"):
        _compile(lambda a: np.linalg.cholesky(a), jit)(-np.eye(2))


def test_shape_errors_raise_numpys_error_at_trace_time():
    with pytest.raises(np.linalg.LinAlgError):
        _compile(lambda a: np.linalg.inv(a), False).trace(np.ones((2, 3)))
    with pytest.raises(TypeError):
        _compile(lambda a: np.linalg.inv(a), False).trace(np.eye(2, dtype=np.float16))


def test_data_dependent_numpy_errors_raise_at_run_time(jit):
    nan_row = np.array([[np.nan, np.nan], [1.0, 2.0]])
    with pytest.raises(ValueError, match="All-NaN slice"):
        _compile(lambda x: np.nanargmax(x, axis=1), jit)(nan_row)
    with pytest.raises(ValueError, match="monotonically"):
        _compile(lambda x, b: np.digitize(x, b), jit)(np.ones(3), np.array([0.0, 2.0, 1.0]))
    with pytest.raises(ZeroDivisionError):
        _compile(lambda x, w: np.average(x, weights=w), jit)(np.ones(2), np.array([1.0, -1.0]))


def _spd(rng, n, dtype, batch=()):
    m = _matrix(rng, batch + (n, n), dtype)
    return (m @ np.conj(np.swapaxes(m, -1, -2)) + n * np.eye(n)).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_large_cholesky_computed_by_blocks_matches_numpy(dtype):
    from nptf.lowering.rules_linalg import CHOLESKY_BLOCKED_FROM
    rng = np.random.default_rng(3)
    n = CHOLESKY_BLOCKED_FROM + 18          # n // 4 does not divide n: a narrow last block
    a = _spd(rng, n, dtype)
    a_with_upper_noise = a + np.triu(_matrix(rng, (n, n), dtype), 1)   # only the lower half is read
    f = _compile(lambda x: (np.linalg.cholesky(x), np.linalg.cholesky(x, upper=True)), False)
    got, expected = f(a_with_upper_noise), (np.linalg.cholesky(a), np.linalg.cholesky(a, upper=True))
    _same_types(got, expected)
    for g, e in zip(got, expected):
        _close(g, e, dtype)
    ops = [op.type for op in f.entry_for(a).concrete.graph.get_operations()]
    assert ops.count("Cholesky") == 5 and ("MatMul" in ops or "BatchMatMulV2" in ops), ops


def test_large_batched_cholesky_matches_numpy():
    a = _spd(np.random.default_rng(4), 512, np.float64, batch=(2,))
    got = _compile(np.linalg.cholesky, False)(a)
    _close(got, np.linalg.cholesky(a), np.float64)


def test_large_cholesky_failing_in_a_later_block_raises_linalg_error():
    a = _spd(np.random.default_rng(5), 600, np.float64)
    a[-1, -1] = -1.0
    with pytest.raises(np.linalg.LinAlgError, match="positive definite"):
        _compile(np.linalg.cholesky, False)(a)


def quadratic_fit(t, y):
    return np.polyfit(t, y, 2)


def rebuilt_from_svd(t, y):
    A = np.vander(t, 3)
    U, S, Vt = np.linalg.svd(A, full_matrices=False)
    return (U * S) @ Vt, np.linalg.pinv(A), np.linalg.lstsq(A, y, rcond=None)[0]


def test_float64_svd_keeps_its_accuracy_under_xla():
    """XLA's float64 SVD gives singular vectors good to 1e-7 only: graphs with one run
    on the plain executor (with a warning), as NumPy's 1e-15 asks."""
    t = np.arange(8.0)
    y = 0.5 * t ** 2 - t + np.sin(t)
    for fn in (quadratic_fit, rebuilt_from_svd):
        with pytest.warns(RuntimeWarning, match="SVD"):
            check_against_numpy(fn, t, y, jit=True)


def lowest_states(n):
    dx = 1.0 / (n + 1)
    x = np.linspace(dx, 1 - dx, n)
    H = np.diag(1.0 / dx ** 2 + 50 * (x - 0.5) ** 2) + np.diag(np.full(n - 1, -0.5 / dx ** 2), 1)
    E, psi = np.linalg.eigh(H + np.triu(H, 1).T)
    return E[:3], np.abs(psi[:, :3]) / np.sqrt(np.sum(psi[:, :3] ** 2, axis=0) * dx)


def test_float64_eigh_keeps_its_accuracy_under_xla():
    """XLA's double-precision eigh gives eigenvectors good to 1e-7 only: graphs with
    one run on the plain executor (with a warning)."""
    with pytest.warns(RuntimeWarning, match="eigh"):
        check_against_numpy(lowest_states, 40, jit=True)


# ------------------------------------------------ fits on the rows the data choose
def fit_on_kept_rows(t, v):
    m = v > 0.2
    c1 = np.polyfit(t[m], v[m], 1)
    c2 = np.polyfit(t[m], v[m], 2)
    X = np.stack([np.ones(m.sum()), t[m]], axis=1)
    coef, res, rank, sv = np.linalg.lstsq(X, v[m], rcond=None)
    coef2 = np.linalg.lstsq(X, np.stack([v[m], 2 * v[m]], axis=1))[0]
    return c1, c2, coef, res, rank, sv, coef2, np.vander(t[m], 3)


def kfold_errors(X, y, k=4):
    n = len(X)
    idx = np.arange(n)
    sizes = np.full(k, n // k, dtype=int)
    sizes[:n % k] += 1
    current, scores = 0, []
    for fs in sizes:
        test = idx[current:current + fs]
        train = np.concatenate([idx[:current], idx[current + fs:]])
        coef, *_ = np.linalg.lstsq(X[train], y[train], rcond=None)
        scores.append(np.mean((X[test] @ coef - y[test]) ** 2))
        current += fs
    return np.array(scores)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_least_squares_on_rows_the_data_choose(jit):
    r = np.random.default_rng(5)
    t = np.linspace(0, 1, 30)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        check_against_numpy(fit_on_kept_rows, t, r.random(30), jit=jit)
        check_against_numpy(fit_on_kept_rows, t.astype(np.float32),
                            r.random(30).astype(np.float32), jit=jit)
        check_against_numpy(kfold_errors, r.normal(size=(22, 3)), r.normal(size=22), jit=jit)


def test_least_squares_with_too_few_kept_rows_runs_numpy():
    # One row kept for two columns: NumPy's residuals are empty, a shape the data chose;
    # no row kept: np.polyfit's TypeError.
    t, v = np.linspace(0, 1, 30), np.full(30, 0.1)
    v[3] = 0.5
    with pytest.raises(nptf.OutsideTheGraphError, match="residuals"):
        nptf.compile(fit_on_kept_rows, fallback="raise")(t, v)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for a, b in zip(nptf.compile(fit_on_kept_rows)(t, v), fit_on_kept_rows(t, v)):
            np.testing.assert_allclose(a, b)
        with pytest.raises(TypeError):
            nptf.compile(fit_on_kept_rows)(t, np.zeros(30))


def least_squares_fit(a, b):
    return np.linalg.lstsq(a, b, rcond=None)


def test_least_squares_of_a_rank_deficient_matrix_runs_numpy():
    """NumPy's residuals are empty for a rank-deficient matrix (a shape the data choose):
    the call runs with NumPy by default, and raises nptf's error under
    ``fallback="raise"``, never an error NumPy does not raise."""
    a = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0], [1.0, 2.0]])
    b = np.arange(4.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = nptf.compile(least_squares_fit)(a, b)
    want = least_squares_fit(a, b)
    assert got[1].shape == want[1].shape == (0,)
    np.testing.assert_allclose(got[0], want[0])
    with pytest.raises(nptf.OutsideTheGraphError, match=r"rank-deficient.*test_linalg.py"):
        nptf.compile(least_squares_fit, fallback="raise")(a, b)


def fit_or_zeros(a, b):
    try:
        x = np.linalg.lstsq(a, b, rcond=None)[0]
    except np.linalg.LinAlgError:
        x = np.zeros(a.shape[1])
    return x, np.polyfit(np.arange(len(b)), b, 1)


def pinv_of(a):
    return np.linalg.pinv(a)


def test_svds_of_nan_run_with_numpy():
    """LAPACK's SVD does not converge on NaN or infinities and NumPy raises LinAlgError
    (lstsq, svd, pinv, matrix_rank, polyfit of one point): such data run with NumPy,
    whose run raises or takes the handler."""
    a, b = np.array([[1.0, 2], [3, 4], [5, 7.]]), np.array([1.0, 2, 3])
    nan_a = np.where(a > 4, np.nan, a)
    for args in ((a, b), (nan_a, b)):
        expected = fit_or_zeros(*args)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = nptf.compile(fit_or_zeros, adaptive=False)(*args)
        np.testing.assert_allclose(got[0], expected[0], rtol=1e-9)
        np.testing.assert_allclose(got[1], expected[1], rtol=1e-9)
    with pytest.raises(nptf.OutsideTheGraphError, match="SVD"):
        nptf.compile(pinv_of, fallback="raise", adaptive=False)(nan_a)


def norms_that_may_be_empty(x, t):
    y = x[x > t]
    rows = x.reshape(4, 2)[x[::2] > t]
    return (np.linalg.norm(y, np.inf), np.linalg.norm(rows, np.inf), np.linalg.norm(rows, 1),
            np.linalg.norm(np.zeros((0, 3)), np.inf), np.linalg.norm(np.zeros(0), np.inf))


@pytest.mark.parametrize("t", [10.0, 4.5, 0.0])
def test_max_norms_of_no_values_are_zero(t):
    """NumPy's inf- and 1-norms start their maximum at 0: of no values, 0.0."""
    check_against_numpy(norms_that_may_be_empty, np.array([3.0, -1, 4, 1, -5, 9, 2, 6]), t,
                        adaptive=False)


# ------------------------------------------------ vectors with LAPACK's signs
def principal_axes(X, k=2):
    """PCA as tutorials write it: the projection's signs are the eigenvectors'."""
    Xc = X - X.mean(axis=0)
    w, v = np.linalg.eigh(np.cov(Xc.T))
    order = np.argsort(w)[::-1]
    return Xc @ v[:, order[:k]], w[order]


def svd_factors(a):
    u, s, vt = np.linalg.svd(a)
    u2, s2, vt2 = np.linalg.svd(a, full_matrices=False)
    return u, s, vt, u2, vt2, vt.T.dot(np.linalg.pinv(np.diag(s2))).dot(u2.T[:len(s2)])


def complex_eig(a):
    w, v = np.linalg.eig(a)
    return w, v, np.linalg.eigvals(a)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_eigenvectors_and_singular_vectors_are_numpys(dtype, jit):
    """Eigenvectors and singular vectors are unique up to a sign (a phase), which
    TensorFlow's kernels pick otherwise than LAPACK for most matrices: the values are
    NumPy's own, so a projection onto them is NumPy's too."""
    rng = np.random.default_rng(11)
    tol = {"rtol_scale": 1e3} if dtype == np.float32 else {}
    for n in (3, 5, 8):
        X = rng.normal(size=(4 * n, n)).astype(dtype)
        if dtype != np.complex128:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")         # "runs without XLA"
                check_against_numpy(principal_axes, X, jit=jit, **tol)
        a = rng.normal(size=(n, n + 2)).astype(dtype)
        if dtype == np.complex128:
            a = a + 1j * rng.normal(size=a.shape)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_against_numpy(svd_factors, a, jit=jit, **tol)
            check_against_numpy(svd_factors, a.T.copy(), jit=jit, **tol)
            if dtype == np.complex128:
                check_against_numpy(complex_eig, a[:, :n].copy(), jit=jit)


def test_gradients_pass_through_numpys_vectors():
    """The vectors are NumPy's, and their derivative is TensorFlow's vectors' turned to
    them: central differences agree."""
    def loss(a):
        w, v = np.linalg.eigh(a + a.T)
        u, s, vt = np.linalg.svd(a)
        return np.sum(v[:, 0] ** 3) + np.sum(u[:, 0] * np.arange(3.0)) + np.sum(vt[0] ** 3)

    a = np.random.default_rng(2).normal(size=(3, 3))
    got = nptf.grad(loss)(a)
    expected = np.zeros_like(a)
    for i in range(3):
        for j in range(3):
            d = np.zeros_like(a)
            d[i, j] = 1e-6
            expected[i, j] = (loss(a + d) - loss(a - d)) / 2e-6
    np.testing.assert_allclose(got, expected, atol=1e-6)


def roots_and_real_roots(p):
    r = np.roots(p)
    return r, r[np.isreal(r)].real


@pytest.mark.parametrize("p", [[-100.0, 30.0, 40.0, 50.0, 20.0],
                               np.array([1.0, 0.0, 1.0], np.float32), [1, 2, 3j], [2.0],
                               [1, -3, 2], [0.0, 1.0, -3.0, 2.0], [1.0, 2.0, 0.0]],
                         ids=["irr", "f32", "complex", "constant", "real-only-ints",
                              "leading-zero", "trailing-zero"])
def test_roots_are_numpy_s(p, jit):
    """np.roots: NumPy's companion matrix and its eigenvalues, real where all are (a
    graph traced for that kind). Coefficients with a leading or trailing zero (stripped:
    the data choose the length) run with NumPy."""
    from harness import check_against_numpy
    p = np.asarray(p)
    handed_over = p.dtype.kind != "c" and (p[0] == 0 or p[-1] == 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # "runs without XLA"
        if not handed_over:
            check_against_numpy(roots_and_real_roots, p, jit=jit)
            return
        with pytest.raises(nptf.OutsideTheGraphError, match="np.roots"):
            _compile(roots_and_real_roots, jit)(p)
        got, want = nptf.compile(roots_and_real_roots)(p), roots_and_real_roots(p)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        np.testing.assert_allclose(g, w)


def lda_directions(X, y):
    # Fisher's LDA as tutorials write it: eig of inv(SW) @ SB, a rank-deficient matrix
    # the graph computes with other rounding than NumPy
    m = X.mean(0)
    SW, SB = np.zeros((4, 4)), np.zeros((4, 4))
    for c in range(3):
        Xc = X[y == c]
        mc = Xc.mean(0)
        SW += (Xc - mc).T @ (Xc - mc)
        d = (mc - m)[:, None]
        SB += len(Xc) * d @ d.T
    w, v = np.linalg.eig(np.linalg.inv(SW) @ SB)
    order = np.argsort(np.abs(w))[::-1]
    return w[order][:2], X @ v[:, order[:2]]


def test_eigenvectors_whose_signs_rounding_flips_are_never_silently_other():
    """LAPACK's signs of a real matrix's eigenvectors (and order of its eigenvalues) can
    flip with the matrix's last bits, which the graph rounds otherwise than NumPy: where
    changes of that size flip them, the call runs with NumPy (a sign-flipped projection
    came back)."""
    rng = np.random.default_rng(2)
    for _ in range(6):
        y = np.arange(30) % 3
        X = rng.normal(size=(30, 4)) + y[:, None] * rng.normal(size=4)
        want = lda_directions(X, y)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            got = nptf.compile(lda_directions)(X, y)
            try:
                strict = nptf.compile(lda_directions, fallback="raise")(X, y)
            except nptf.OutsideTheGraphError as e:
                assert "np.linalg.eig at" in str(e)
                strict = want
        for g, s, w in zip(got, strict, want):
            np.testing.assert_allclose(g, w, rtol=1e-7, atol=1e-9)
            np.testing.assert_allclose(s, w, rtol=1e-7, atol=1e-9)


def absorbing_chain(P, absorbing):
    """Expected steps to absorption and absorption probabilities: the transient block of
    a Markov chain, selected by a mask the data give."""
    transient = ~absorbing
    Q = P[np.ix_(transient, transient)]
    N = np.linalg.inv(np.eye(Q.shape[0]) - Q)
    return N.sum(axis=1), N @ P[np.ix_(transient, absorbing)], np.linalg.det(N)


def conditional_gaussian(mu, S, x, observed):
    """The mean of the unobserved entries given the observed ones, and the observed
    block's log-determinant and Cholesky factor."""
    o, m = observed, ~observed
    Soo = S[np.ix_(o, o)]
    w = np.linalg.solve(Soo, x[o] - mu[o])
    return mu[m] + S[np.ix_(m, o)] @ w, np.linalg.slogdet(Soo)[1], np.linalg.cholesky(Soo)


def block_of_the_data(A, rows, cols, b):
    return np.linalg.inv(A[np.ix_(rows, cols)])


def solve_of_a_selection(A, rows, cols, b):
    return np.linalg.solve(A[np.ix_(rows, rows)], b[cols])


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_linalg_of_matrices_whose_sizes_only_the_run_knows(jit):
    """``inv``/``solve``/``det``/``slogdet``/``cholesky`` of a block a mask selects
    (``P[np.ix_(t, t)]``): checked square when the graph runs (NumPy's LinAlgError, and
    its ValueError for a right-hand side of other rows), as NumPy's (it was refused)."""
    P = np.array([[1, 0, 0, 0], [0.3, 0.2, 0.5, 0], [0, 0.4, 0.2, 0.4], [0, 0, 0, 1.0]])
    for absorbing in ([1, 0, 0, 1], [1, 1, 0, 1], [1, 1, 1, 1]):
        check_against_numpy(absorbing_chain, P, np.array(absorbing, bool), jit=jit)
    rng = np.random.RandomState(0)
    B = rng.rand(5, 5)
    S, mu, x = B @ B.T + np.eye(5), rng.rand(5), rng.rand(5)
    for observed in ([1, 0, 1, 1, 0], [1, 1, 1, 1, 0]):
        check_against_numpy(conditional_gaussian, mu, S, x, np.array(observed, bool), jit=jit)
    rows = np.array([1, 1, 0, 0, 0], bool)
    for cols in ([1, 0, 0, 1, 0], [1, 0, 0, 0, 0], [1, 1, 1, 0, 0]):
        check_against_numpy(block_of_the_data, S, rows, np.array(cols, bool), x, jit=jit)
        check_against_numpy(solve_of_a_selection, S, rows, np.array(cols, bool), x, jit=jit)


def condition_numbers(A):
    return (np.linalg.cond(A, np.inf), np.linalg.cond(A, 1), np.linalg.cond(A, -np.inf),
            np.linalg.cond(A, "fro"), np.linalg.cond(A, -1))


def nuclear_condition(A):
    return np.linalg.cond(A, "nuc")


@pytest.mark.parametrize("A", [np.random.default_rng(0).random((3, 3)),
                               np.random.default_rng(1).random((2, 3, 3)).astype(np.float32),
                               np.eye(3, dtype=int), np.array([[1.0, 2.0], [2.0, 4.0]]),
                               np.zeros((2, 2))])
def test_condition_numbers_in_norms_other_than_2(A):
    # The norms of the matrix and its inverse; inf for a singular matrix, and for the
    # nuclear norm NumPy's LinAlgError (the SVD of its NaN inverse).
    check_against_numpy(condition_numbers, A)
    check_against_numpy(nuclear_condition, A)
