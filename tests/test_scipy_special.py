"""The ufuncs of scipy.special that NumPy code calls (expit, erf, gammaln, xlogy, ...):
scipy's values, dtypes and Python types, from the graph; other ufuncs that are not
NumPy's are refused under their own name, and never taken for NumPy's ufunc of the same
name. Checked against scipy itself through the public API."""
import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy

sp = pytest.importorskip("scipy.special")


def sigmoid_layer(X, W, b):
    # A from-scratch network's forward pass and log-likelihood.
    p = sp.expit(X @ W + b)
    return p, sp.logit(p), sp.log_expit(X @ W), sp.xlogy(p, p) + sp.xlog1py(1 - p, -p)


def normal_tails(x, n):
    return (sp.erf(x), sp.erfc(x.astype(np.float32)), sp.ndtr(x * 12), sp.gammaln(n),
            sp.gammaln(-np.abs(x).round()), sp.entr(np.r_[x, 0.0, np.nan]),
            sp.expit(n), sp.expit(2.0), sp.expit(x[0]), sp.log1p(n.astype(np.int8)),
            sp.exp2(n.astype(np.int16)), sp.xlogy(0, x), sp.softmax(x))


def test_scipy_special_ufuncs_match_scipy(jit):
    rng = np.random.default_rng(0)
    X, W, b = rng.normal(size=(6, 3)), rng.normal(size=(3, 2)), rng.normal(size=2)
    check_against_numpy(sigmoid_layer, X, W, b, jit=jit)
    check_against_numpy(sigmoid_layer, X.astype(np.float32), W.astype(np.float32),
                        b.astype(np.float32), jit=jit)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check_against_numpy(normal_tails, np.linspace(-3, 3, 13), np.arange(1, 14), jit=jit)


def test_other_ufuncs_are_refused_by_name():
    x = np.linspace(0.5, 2, 4)
    with pytest.raises(nptf.UnsupportedError, match=r"scipy\.special\.gamma is not supported"):
        nptf.compile(lambda x: sp.gamma(x), fallback="raise")(x)
    with pytest.raises(nptf.UnsupportedError, match=r"scipy\.special\.xlogy\.outer"):
        nptf.compile(lambda x: sp.xlogy.outer(x, x), fallback="raise")(x)


EDGES = np.array([0.0, 1e-3, 0.5, 1.0, 2.5, 10.0, 100.0, -1.0, np.inf, -np.inf, np.nan])
POINTS = np.array([0.0, 1e-3, 0.3, 1.0, 3.0, 50.0, 1e3, -1.0, np.inf, np.nan, 0.99])


def incomplete_gamma_and_beta(a, x, b, u):
    return (sp.gammainc(a, x), sp.gammaincc(a, x), sp.chdtr(a, x), sp.chdtrc(a, x),
            sp.stdtr(a, x - 2), sp.betainc(a, b, u), sp.chdtrc(3, x.astype(np.float32)))


def test_incomplete_gamma_and_beta_functions_match_scipy(jit):
    """The regularized incomplete gamma and beta functions and the chi-square and t
    distributions' CDFs made of them, on a grid of parameters and points holding
    SciPy's edges (zero, infinite, negative and NaN parameters, points outside [0, 1])."""
    a, x = np.meshgrid(EDGES, POINTS)
    b, u = np.meshgrid(EDGES[::-1], np.linspace(-0.2, 1.2, 11))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check_against_numpy(incomplete_gamma_and_beta, a, x, b, u, jit=jit)
