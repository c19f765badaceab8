"""SciPy functions NumPy code calls, which convert their inputs with np.asarray:
scipy.linalg's inv, solve, det, cholesky and norm, scipy.special's logsumexp and
log_softmax, scipy.stats.norm's cdf, sf, pdf and logpdf. Checked against SciPy itself
through the public API: values, dtypes, scalar kinds and SciPy's errors."""
from __future__ import annotations

import numpy as np
import pytest

import nptf
from harness import check_against_numpy

sl = pytest.importorskip("scipy.linalg")
sp = pytest.importorskip("scipy.special")
stats = pytest.importorskip("scipy.stats")
norm = stats.norm


def black_scholes(S, K, T, r, sigma):
    d1 = (np.log(S / K) + (r + 0.5 * sigma ** 2) * T) / (sigma * np.sqrt(T))
    d2 = d1 - sigma * np.sqrt(T)
    return S * norm.cdf(d1) - K * np.exp(-r * T) * norm.cdf(d2)


def normal_functions(x, loc, scale):
    return (norm.cdf(x), norm.sf(x, loc), norm.pdf(x, loc, scale), norm.logpdf(x, scale=scale),
            norm.cdf(x, loc=loc, scale=scale))


def kalman_update(P, H, R, x, z):
    S = H @ P @ H.T + R
    K = P @ H.T @ sl.inv(S)
    return x + K @ (z - H @ x), (np.eye(len(x)) - K @ H) @ P


def linalg_functions(A, b):
    S = A @ A.T + np.eye(len(A))
    return (sl.det(S), sl.solve(S, b), sl.solve(S, np.stack([b, 2 * b], 1)),
            sl.cholesky(S), sl.cholesky(S, lower=True), sl.norm(S), sl.norm(b),
            sl.norm(S, axis=0), sl.norm(S, "fro"))


def log_sums(X):
    return (sp.logsumexp(X), sp.logsumexp(X, axis=1), sp.logsumexp(X, axis=0, keepdims=True),
            sp.log_softmax(X, axis=1), sp.log_softmax(X))


def inverse(A):
    return sl.inv(A)


RNG = np.random.default_rng(0)


@pytest.mark.parametrize("args", [
    (np.linspace(80, 120, 7), 100.0, 1.0, 0.05, 0.2), (100.0, 95.0, 0.5, 0.01, 0.3),
    (np.float32(100.0), 95.0, 0.5, 0.01, 0.3)])
def test_black_scholes_with_the_normal_cdf(args):
    check_against_numpy(black_scholes, *args)


@pytest.mark.parametrize("x, loc, scale", [
    (RNG.normal(size=6), 0.5, 2.0), (1.25, -1.0, 0.5),
    (RNG.normal(size=6).astype(np.float32), 0.0, 1.0),
    (np.arange(5), np.linspace(0, 1, 5), np.array([1.0, 2.0, -1.0, 0.0, 3.0])),
    (np.array([np.nan, 0.0, np.inf, -np.inf]), 0.0, 1.0)])
def test_the_normal_distribution(x, loc, scale):
    check_against_numpy(normal_functions, x, loc, scale)


def test_scipy_linalg():
    P, H, R = np.eye(3) * 2 + 0.1, RNG.random((2, 3)), np.eye(2) * 0.5
    check_against_numpy(kalman_update, P, H, R, RNG.random(3), RNG.random(2))
    check_against_numpy(linalg_functions, RNG.random((4, 4)), RNG.random(4))
    check_against_numpy(linalg_functions, RNG.integers(0, 5, (3, 3)), np.arange(3))


@pytest.mark.parametrize("X", [RNG.random((4, 5)), RNG.random((4, 5)).astype(np.float32),
                               np.arange(20).reshape(4, 5),
                               np.array([[-np.inf, -np.inf], [np.inf, 0.0]])])
def test_log_sums(X):
    check_against_numpy(log_sums, X)


@pytest.mark.parametrize("A", [np.array([[np.nan, 1.0], [1.0, 2.0]]),
                               np.array([[1.0, 2.0], [2.0, 4.0]]),
                               np.array([[2.0, 1.0], [1.0, 3.0]])])
def test_scipy_errors(A):
    # check_finite's ValueError, and the LinAlgError of a singular matrix.
    check_against_numpy(inverse, A)


def det32(A):
    return sl.det(A)


def test_float32_determinant_runs_with_numpy():
    # SciPy's float64 determinant of float32 factors has no NumPy formula.
    A = RNG.random((3, 3)).astype(np.float32)
    with pytest.raises(nptf.NptfError, match="scipy.linalg.det"):
        nptf.compile(det32, fallback="raise")(A)
    with pytest.warns(RuntimeWarning):
        assert nptf.compile(det32)(A) == sl.det(A)


def complex_cdf(z):
    return norm.cdf(z), sp.logsumexp(z)


def test_complex_values_run_with_numpy():
    # SciPy's complex loops are not the real formulas: NumPy (and SciPy) run the call.
    z = np.array([0.5 + 1j, -1.0 + 0.25j])
    with pytest.raises(nptf.NptfError, match="of complex values"):
        nptf.compile(complex_cdf, fallback="raise")(z)
    with pytest.warns(RuntimeWarning):
        got = nptf.compile(complex_cdf)(z)
    expected = complex_cdf(z)
    np.testing.assert_allclose(got[0], expected[0])
    np.testing.assert_allclose(got[1], expected[1])


def p_values(t_stats, df, chi, k):
    # A t-test's two-sided p-value per statistic (a loop, as stats code writes it), a
    # chi-square test's, and the distributions' other forms.
    two_sided = np.array([2 * (1 - stats.t.cdf(abs(t), df)) for t in t_stats])
    return (two_sided, stats.t.sf(t_stats, df), stats.t.cdf(t_stats, df=df, loc=1.0,
                                                            scale=2.0),
            stats.chi2.sf(chi, k), stats.chi2.cdf(chi, k), stats.chi2.sf(chi[0], k),
            stats.t.cdf(t_stats, np.inf))


@pytest.mark.parametrize("df, k", [(7, 3), (2.5, 1), (-1, 0)])
def test_p_values_of_the_t_and_chi_square_distributions(df, k):
    """scipy.stats.t and scipy.stats.chi2 cdf and sf: SciPy's values, including its
    NaN for parameters outside their domain, its 0 and 1 outside the support, and its
    Python floats and NumPy scalars."""
    t_stats = np.array([-3.0, -0.5, 0.0, 0.7, 2.5, np.inf, np.nan])
    chi = np.array([0.0, 0.5, 3.0, 12.0, -1.0, np.inf])
    check_against_numpy(p_values, t_stats, df, chi, k)
    check_against_numpy(p_values, t_stats.astype(np.float32), df, chi.astype(np.float32), k)


def discounted_quadratic_sum(A, C, H, beta, x0):
    # QuantEcon's var_quadratic_sum: the value of sum_t beta^t x_t' H x_t.
    Q = sl.solve_discrete_lyapunov(np.sqrt(beta) * A.T, H)
    cq = C.T @ Q @ C
    v = np.trace(cq) * beta / (1 - beta)
    return x0 @ Q @ x0 + v, Q


def test_a_discrete_lyapunov_equation():
    """scipy.linalg.solve_discrete_lyapunov by SciPy's direct method (below 10 rows);
    the bilinear one runs with NumPy."""
    A = np.array([[0.8, 0.1], [-0.2, 0.7]])
    C, H = np.array([[0.3], [0.1]]), np.array([[1.0, 0.2], [0.2, 2.0]])
    check_against_numpy(discounted_quadratic_sum, A, C, H, 0.95, np.array([1.0, -1.0]))
    check_against_numpy(lambda a, q: sl.solve_discrete_lyapunov(a, q, "direct"),
                        RNG.random((3, 3)) * 0.3, RNG.random((3, 3)).astype(np.float32))
    big = RNG.random((12, 12)) * 0.05
    with pytest.raises(nptf.UnsupportedError, match="solve_discrete_lyapunov"):
        nptf.compile(lambda a: sl.solve_discrete_lyapunov(a, np.eye(12)),
                     fallback="raise")(big)
