"""Slices whose length follows the loop index (``x[:i]``, ``a[i + 1:n, i]``) inside loops:
the loops stay graph loops (not unrolled), and results match NumPy's, including
NumPy's rules for negative and out-of-range bounds and writes through such slices."""
import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy


def forward_substitution(L, x, b):
    for i in range(x.shape[0]):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]


def doolittle(A):
    for i in range(A.shape[0]):
        for j in range(i):
            A[i, j] -= A[i, :j] @ A[:j, j]
            A[i, j] /= A[j, j]
        for j in range(i, A.shape[0]):
            A[i, j] -= A[i, :i] @ A[:i, j]


def back_substitution(A, y):
    x = np.zeros_like(y)
    for i in range(A.shape[0] - 1, -1, -1):
        x[i] = (y[i] - A[i, i + 1:] @ x[i + 1:]) / A[i, i]
    return x


def cholesky_rows(A):
    A[0, 0] = np.sqrt(A[0, 0])
    for i in range(1, A.shape[0]):
        for j in range(i):
            A[i, j] -= np.dot(A[i, :j], A[j, :j])
            A[i, j] /= A[j, j]
        A[i, i] -= np.dot(A[i, :i], A[i, :i])
        A[i, i] = np.sqrt(A[i, i])


def levinson(r):
    y = np.empty_like(r)
    alpha = -r[0]
    beta = 1.0
    y[0] = -r[0]
    for k in range(1, r.shape[0]):
        beta *= 1.0 - alpha * alpha
        alpha = -(r[k] + np.dot(np.flip(r[:k]), y[:k])) / beta
        y[:k] += alpha * np.flip(y[:k])
        y[k] = alpha
    return y


def upper_products(M, data):
    out = np.eye(M, dtype=data.dtype)
    for i in range(M - 1):
        out[i + 1:M, i] = out[i, i + 1:M] = data[:, i] @ data[:, i + 1:M]
    return out


def scaled_upper(M, data):
    cov = np.zeros((M, M), dtype=data.dtype)
    for i in range(M):
        cov[i:M, i] = cov[i, i:M] = data[:, i] @ data[:, i:M] / (data.shape[0] - 1.0)
    return cov


def prefix_statistics(x):
    out = np.zeros((x.shape[0], 4))
    for i in range(1, x.shape[0]):
        p = x[:i]
        out[i, 0] = p.max()
        out[i, 1] = p.mean()
        out[i, 2] = np.prod(p[-3:])
        out[i, 3] = x[-i:].sum() + x[i - 20:].sum() + x[:i - 20].size
    return out


def view_of_prefix(x):
    for i in range(x.shape[0]):
        head = x[:i]
        head += 1.0            # written through the view, no assignment back
        x[0] -= head.sum() * 0.01
    return x


rng = np.random.default_rng(3)
N = 12
CASES = [
    (forward_substitution, lambda: (np.tril(rng.random((N, N))) + N * np.eye(N), np.zeros(N),
                                    rng.random(N))),
    (doolittle, lambda: (rng.random((N, N)) + N * np.eye(N),)),
    (back_substitution, lambda: (np.triu(rng.random((N, N))) + N * np.eye(N), rng.random(N))),
    (cholesky_rows, lambda: ((lambda a: a @ a.T + N * np.eye(N))(rng.random((N, N))),)),
    (levinson, lambda: (rng.random(N) / N,)),
    (upper_products, lambda: (N, rng.random((N + 3, N)))),
    (scaled_upper, lambda: (N, rng.random((N + 3, N)))),
    (prefix_statistics, lambda: (rng.random(25),)),
    (view_of_prefix, lambda: (rng.random(N),)),
]


@pytest.mark.parametrize("fn,make", CASES, ids=[c[0].__name__ for c in CASES])
def test_triangular_loops_match_numpy(fn, make, jit):
    args = make()
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)     # no unrolling, no fallback
        warnings.filterwarnings("ignore", "nptf: .* runs without XLA", RuntimeWarning)
        check_against_numpy(fn, *args, jit=jit)


@pytest.mark.parametrize("fn,make", CASES[:5], ids=[c[0].__name__ for c in CASES[:5]])
def test_triangular_loops_stay_graph_loops(fn, make):
    graph = nptf.compile(fn).trace(*make())
    assert any(e.op.name == "while" for e in graph.eqns)
    assert len(graph.eqns) < 40      # one body, not N copies of it


def test_large_triangular_solve_compiles_quickly():
    n = 400
    L = np.tril(rng.random((n, n))) + n * np.eye(n)
    x, b = np.zeros(n), rng.random(n)
    x2 = x.copy()
    f = nptf.compile(forward_substitution, fallback="raise")
    f(L, x, b)
    forward_substitution(L, x2, b)
    np.testing.assert_allclose(x, x2, rtol=1e-12)
    assert f.cache_info().traces == 1
