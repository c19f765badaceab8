"""Everyday NumPy functions, fourteenth collection: exercise, tutorial and
numerical-methods course code, the kind that is copied from the "100 numpy exercises"
solutions (with their alternative solutions), the official NumPy quickstart and blog
tutorials, Rosetta Code tasks, Project Euler write-ups, scipy-lectures and "Python for
scientists" exercises, popular Stack Overflow answers and university numerical-methods
notebooks. Exercises and answers (checkerboards, nearest value by ``argmin`` and by
``searchsorted``, most frequent value by ``bincount`` and ``np.unique(return_counts=True)``,
moving averages by ``cumsum`` and ``sliding_window_view``, ranks by double ``argsort``
and average ranks for ties, group-by sums with ``np.add.at``/``bincount`` and group
maxima with ``np.lexsort`` and ``reduceat``, duplicate rows by ``np.unique(axis=0)`` and by a
void view, pairwise distances, cartesian products by ``np.indices``, row normalisation with
``out=``/``where=``, NaN imputation by column means, running maxima, run-length encoding,
block sums, bootstrap intervals); numerical methods written with loops, tolerances and
``break`` (bisection, Newton with real and complex roots, secant, fixed-point iteration,
Euler and RK4 for ODE systems, trapezoid/Simpson/Romberg/Gauss-Legendre quadrature,
Gaussian elimination with partial pivoting, Doolittle LU, Cholesky, Householder and
Gram-Schmidt QR, Jacobi/Gauss-Seidel/SOR, power and inverse iteration, Lagrange and Newton
interpolation, natural cubic splines, least squares, the Thomas algorithm for a 1-d BVP,
explicit and theta-scheme heat equations, Laplace relaxation, a recursive radix-2 FFT
checked against ``np.fft``); and puzzles and classics (Game of Life, Mandelbrot escape
counts, sieves, Collatz, Pascal's triangle, matrix powers by squaring, Fibonacci with
object arrays, Project Euler problems, magic squares, N-queens, edit distance, LCS,
knapsack, Floyd-Warshall, Dijkstra, BFS mazes, convex hulls, point-in-polygon, shoelace
areas, reduced row echelon form, and uint8 image rotation, histogram equalisation and
integer convolution). Styles vary on purpose: terse fancy-indexing one-liners,
``while`` loops with tolerances, recursion, generators, ``itertools``,
``functools.reduce``, ``math`` functions, small classes, dicts, tuples and f-strings in
results, in-place updates of arguments, ``np.errstate`` blocks, ``.item()``/``int()`` of
array values used as indices, and ``ValueError`` validation. Each entry of CASES is
(name, function, make_args, opts); make_args() returns the arguments; opts
{"rand": True} marks a function that draws random numbers inside (compared by type,
dtype and shape only)."""
import functools
import heapq
import itertools
import math
from collections import Counter, deque

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


# ---------------------------------------------------------------------------
# 100 numpy exercises and Stack Overflow answers
# ---------------------------------------------------------------------------

def checkerboard(n=8):
    # exercise 19 (slicing) and exercise 21 (np.tile)
    Z = np.zeros((n, n), dtype=int)
    Z[1::2, ::2] = 1
    Z[::2, 1::2] = 1
    T = np.tile(np.array([[0, 1], [1, 0]]), (n // 2 + 1, n // 2 + 1))[:n, :n]
    return Z, bool((Z == T).all())


def find_nearest(array, value):
    array = np.asarray(array)
    idx = (np.abs(array - value)).argmin()
    return array.flat[idx]


def find_nearest_sorted(array, values):
    # vectorised version from SO: searchsorted then compare left/right neighbours
    array = np.sort(array)
    values = np.asarray(values)
    idx = np.searchsorted(array, values, side="left")
    idx = np.clip(idx, 1, len(array) - 1)
    left = array[idx - 1]
    right = array[idx]
    idx -= values - left < right - values
    return idx, array[idx]


def most_frequent_value(a):
    a = np.asarray(a)
    by_bincount = int(np.bincount(a).argmax())
    vals, counts = np.unique(a, return_counts=True)
    by_unique = vals[counts.argmax()].item()
    top3 = Counter(a.tolist()).most_common(3)
    return by_bincount, by_unique, top3


def moving_average(a, n=3):
    ret = np.cumsum(a, dtype=float)
    ret[n:] = ret[n:] - ret[:-n]
    return ret[n - 1:] / n


def sliding_window_stats(x, w=4):
    v = np.lib.stride_tricks.sliding_window_view(x, w)
    return {
        "mean": v.mean(axis=-1),
        "max": v.max(axis=-1),
        "min": v.min(axis=-1),
        "ptp": np.ptp(v, axis=-1),
        "median": np.median(v, axis=-1),
    }


def rank_items(a):
    a = np.asarray(a)
    order = a.argsort(kind="stable")
    ranks = np.empty_like(order)
    ranks[order] = np.arange(len(a))
    # average ranks for ties (1-based, like scipy.stats.rankdata)
    vals, inv, counts = np.unique(a, return_inverse=True, return_counts=True)
    csum = np.cumsum(counts)
    avg = csum - (counts - 1) / 2.0
    return ranks, a.argsort(kind="stable").argsort(kind="stable"), avg[inv]


def group_by_sum(keys, values):
    uniq, inv = np.unique(keys, return_inverse=True)
    sums = np.zeros(len(uniq), dtype=np.result_type(values, float))
    np.add.at(sums, inv, values)
    sums2 = np.bincount(inv, weights=values)
    counts = np.bincount(inv)
    means = sums / counts
    return dict(zip(uniq.tolist(), sums.tolist())), bool(np.allclose(sums, sums2)), means


def group_by_max_sorted(keys, values):
    order = np.lexsort((values, keys))   # last key is the primary one
    k = keys[order]
    v = values[order]
    starts = np.flatnonzero(np.r_[True, k[1:] != k[:-1]])
    return k[starts], np.maximum.reduceat(v, starts), np.add.reduceat(v, starts)


def remove_duplicate_rows(a):
    a = np.ascontiguousarray(a)
    u1 = np.unique(a, axis=0)
    void_dt = np.dtype((np.void, a.dtype.itemsize * a.shape[1]))
    _, idx = np.unique(a.view(void_dt).ravel(), return_index=True)
    u2 = a[np.sort(idx)]   # keeps the order of first appearance
    return u1, u2


def pairwise_distances(X, Y=None):
    if Y is None:
        Y = X
    D1 = np.sqrt(((X[:, None, :] - Y[None, :, :]) ** 2).sum(-1))
    XX = np.einsum("ij,ij->i", X, X)[:, None]
    YY = np.einsum("ij,ij->i", Y, Y)[None, :]
    D2 = XX + YY - 2 * X @ Y.T
    np.maximum(D2, 0, out=D2)
    D2 = np.sqrt(D2)
    return D1, float(np.abs(D1 - D2).max())


def cartesian_product(arrays):
    arrays = [np.asarray(a) for a in arrays]
    shape = tuple(len(x) for x in arrays)
    ix = np.indices(shape, dtype=int).reshape(len(arrays), -1).T
    out = np.empty(ix.shape, dtype=np.result_type(*arrays))
    for n, arr in enumerate(arrays):
        out[:, n] = arr[ix[:, n]]
    via_product = np.array(list(itertools.product(*arrays)))
    via_mesh = np.stack(np.meshgrid(*arrays, indexing="ij"), -1).reshape(-1, len(arrays))
    return out, bool(np.array_equal(out, via_product) and np.array_equal(out, via_mesh))


def normalize_rows(X, norm="l2"):
    X = np.asarray(X)
    if not np.issubdtype(X.dtype, np.floating):
        X = X.astype(float)
    if norm == "l2":
        n = np.linalg.norm(X, axis=1, keepdims=True)
    elif norm == "l1":
        n = np.abs(X).sum(axis=1, keepdims=True)
    elif norm == "max":
        n = np.abs(X).max(axis=1, keepdims=True)
    else:
        raise ValueError(f"unknown norm {norm!r}")
    out = np.zeros_like(X)
    np.divide(X, n, out=out, where=n != 0)
    return out


def replace_nan_col_mean(X):
    col_mean = np.nanmean(X, axis=0)
    inds = np.where(np.isnan(X))
    X[inds] = np.take(col_mean, inds[1])
    return X


def running_max(a):
    out = np.maximum.accumulate(a)
    loop = []
    cur = None
    for x in a:
        if cur is None or x > cur:
            cur = x
        loop.append(cur)
    return out, np.array(loop), np.minimum.accumulate(a)


def n_largest(Z, n=5):
    Z = np.asarray(Z)
    a = Z[np.argsort(Z)[-n:]]
    b = Z[np.argpartition(-Z, n)[:n]]
    return a, np.sort(b)


def unique_triangle_edges(faces):
    # exercise 73: the set of unique line segments composing 10 triangles
    F = np.roll(faces.repeat(2, axis=1), -1, axis=1)
    F = F.reshape(len(F) * 3, 2)
    F = np.sort(F, axis=1)
    G = F.view(dtype=[("p0", F.dtype), ("p1", F.dtype)])
    G = np.unique(G)
    return np.array(G.tolist(), dtype=F.dtype)


def extract_subpart(Z, shape, fill, position):
    # exercise 81, padded with `fill` where the window leaves the array
    R = np.ones(shape, dtype=Z.dtype) * fill
    P = np.array(list(position)).astype(int)
    Rs = np.array(list(R.shape)).astype(int)
    Zs = np.array(list(Z.shape)).astype(int)
    R_start = np.zeros((len(shape),)).astype(int)
    R_stop = np.array(list(shape)).astype(int)
    Z_start = (P - Rs // 2)
    Z_stop = (P + Rs // 2) + Rs % 2
    R_start = (R_start - np.minimum(Z_start, 0)).tolist()
    Z_start = (np.maximum(Z_start, 0)).tolist()
    R_stop = np.maximum(R_start, (R_stop - np.maximum(Z_stop - Zs, 0))).tolist()
    Z_stop = (np.minimum(Z_stop, Zs)).tolist()
    r = tuple(slice(start, stop) for start, stop in zip(R_start, R_stop))
    z = tuple(slice(start, stop) for start, stop in zip(Z_start, Z_stop))
    R[r] = Z[z]
    return R


def block_sum(Z, k=4):
    S = np.add.reduceat(np.add.reduceat(Z, np.arange(0, Z.shape[0], k), axis=0),
                        np.arange(0, Z.shape[1], k), axis=1)
    S2 = Z.reshape(Z.shape[0] // k, k, Z.shape[1] // k, k).sum(axis=(1, 3))
    return S, bool((S == S2).all())


def rows_containing(A, B):
    # exercise 90: rows of A that contain elements of each row of B
    C = (A[..., np.newaxis, np.newaxis] == B)
    rows = np.where(C.any((3, 1)).all(1))[0]
    return rows


def bootstrap_mean_ci(X, N=500, seed=0):
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, X.size, (N, X.size))
    means = X[idx].mean(axis=1)
    return np.percentile(means, [2.5, 97.5])


def run_length_encode(a):
    a = np.asarray(a)
    n = len(a)
    if n == 0:
        return np.array([], dtype=int), np.array([], dtype=int), a
    change = np.flatnonzero(a[1:] != a[:-1]) + 1
    starts = np.r_[0, change]
    lengths = np.diff(np.r_[starts, n])
    return starts, lengths, a[starts]


def random_placement(n=10, p=3):
    # exercise 56, unseeded on purpose
    Z = np.zeros((n, n))
    np.put(Z, np.random.choice(range(n * n), p, replace=False), 1)
    return Z


def monte_carlo_pi(n=20000):
    xy = np.random.random((n, 2))
    inside = np.count_nonzero((xy ** 2).sum(axis=1) <= 1.0)
    return 4.0 * inside / n


def unique_colors(img):
    I24 = ((img[..., 0].astype(np.uint32) << 16) | (img[..., 1].astype(np.uint32) << 8)
           | img[..., 2])
    vals, counts = np.unique(I24, return_counts=True)
    n2 = len(np.unique(img.reshape(-1, 3), axis=0))
    table = {f"#{int(v):06x}": int(c) for v, c in zip(vals, counts)}
    return len(vals), n2, table


# ---------------------------------------------------------------------------
# numerical methods course code
# ---------------------------------------------------------------------------

_F = {
    "sin": np.sin,
    "exp": np.exp,
    "runge": lambda x: 1.0 / (1.0 + 25.0 * x ** 2),
    "cubic": lambda x: x ** 3 - 2 * x - 5,
    "gauss": lambda x: np.exp(-x ** 2),
}

_G = {
    "cos": math.cos,
    "babylon2": lambda x: 0.5 * (x + 2.0 / x),
    "expneg": lambda x: math.exp(-x),
}


def bisection(coeffs, a, b, tol=1e-10, maxiter=200):
    fa = np.polyval(coeffs, a)
    fb = np.polyval(coeffs, b)
    if fa * fb > 0:
        raise ValueError("f(a) and f(b) must have opposite signs")
    it = 0
    while (b - a) / 2 > tol and it < maxiter:
        c = (a + b) / 2
        fc = np.polyval(coeffs, c)
        if fc == 0:
            a = b = c
            break
        if fa * fc < 0:
            b, fb = c, fc
        else:
            a, fa = c, fc
        it += 1
    return float((a + b) / 2), it


def newton_poly(coeffs, x0, tol=1e-12, maxiter=50):
    p = np.poly1d(coeffs)
    dp = p.deriv()
    x = x0
    history = [x]
    for k in range(maxiter):
        d = dp(x)
        if d == 0:
            raise ValueError("zero derivative, choose another starting point")
        x_new = x - p(x) / d
        history.append(x_new)
        if abs(x_new - x) < tol:
            x = x_new
            break
        x = x_new
    return x, np.array(history), k + 1


def secant(name, x0, x1, tol=1e-12, maxiter=100):
    f = _F[name]
    f0, f1 = f(x0), f(x1)
    for i in range(maxiter):
        if f1 == f0:
            break
        x2 = x1 - f1 * (x1 - x0) / (f1 - f0)
        x0, f0 = x1, f1
        x1, f1 = x2, f(x2)
        if abs(x1 - x0) < tol:
            break
    return x1, i + 1


def fixed_point(name, x0, tol=1e-10, maxiter=1000):
    g = _G[name]
    x = x0
    for i in range(1, maxiter + 1):
        x_new = g(x)
        if abs(x_new - x) < tol:
            return x_new, i
        x = x_new
    raise ValueError(f"fixed point iteration did not converge after {maxiter} steps")


def euler_lotka_volterra(y0, t_end=15.0, n=1500, params=(1.0, 0.1, 1.5, 0.075)):
    a, b, c, d = params
    t = np.linspace(0, t_end, n + 1)
    h = t[1] - t[0]
    Y = np.zeros((n + 1, 2))
    Y[0] = y0
    for i in range(n):
        x, y = Y[i]
        Y[i + 1] = Y[i] + h * np.array([a * x - b * x * y, -c * y + d * x * y])
    return t, Y


class RK4Solver:
    def __init__(self, f):
        self.f = f

    def step(self, t, y, h):
        k1 = self.f(t, y)
        k2 = self.f(t + h / 2, y + h / 2 * k1)
        k3 = self.f(t + h / 2, y + h / 2 * k2)
        k4 = self.f(t + h, y + h * k3)
        return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)

    def solve(self, y0, t):
        y = np.zeros((len(t), len(y0)))
        y[0] = y0
        for i in range(len(t) - 1):
            y[i + 1] = self.step(t[i], y[i], t[i + 1] - t[i])
        return y


def rk4_pendulum(theta0, omega0, t_end=10.0, n=400, damping=0.0, g_over_l=9.81):
    def rhs(t, y):
        theta, omega = y
        return np.array([omega, -damping * omega - g_over_l * math.sin(theta)])

    t = np.linspace(0.0, t_end, n + 1)
    sol = RK4Solver(rhs).solve([theta0, omega0], t)
    energy = 0.5 * sol[:, 1] ** 2 + g_over_l * (1 - np.cos(sol[:, 0]))
    return t, sol, float(energy.max() - energy.min())


def trapz_simpson(name, a, b, n):
    if n % 2:
        raise ValueError("n must be even for Simpson's rule")
    f = _F[name]
    x = np.linspace(a, b, n + 1)
    y = f(x)
    h = (b - a) / n
    trap = h * (y[0] / 2 + y[1:-1].sum() + y[-1] / 2)
    simp = h / 3 * (y[0] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum() + y[-1])
    return trap, simp, np.trapezoid(y, x)


def romberg(name, a, b, depth=6):
    f = _F[name]
    R = np.zeros((depth, depth))
    h = b - a
    R[0, 0] = h / 2 * (f(a) + f(b))
    for i in range(1, depth):
        h /= 2
        k = np.arange(1, 2 ** i, 2)
        R[i, 0] = R[i - 1, 0] / 2 + h * f(a + k * h).sum()
        for j in range(1, i + 1):
            R[i, j] = R[i, j - 1] + (R[i, j - 1] - R[i - 1, j - 1]) / (4 ** j - 1)
    return R[depth - 1, depth - 1], R


def gauss_legendre(name, a, b, orders=(2, 3, 5, 8)):
    f = _F[name]
    results = {}
    for n in orders:
        x, w = np.polynomial.legendre.leggauss(n)
        t = 0.5 * (b - a) * x + 0.5 * (b + a)
        lib = 0.5 * (b - a) * np.dot(w, f(t))
        # Golub-Welsch: nodes are eigenvalues of the Jacobi matrix
        k = np.arange(1, n)
        beta = k / np.sqrt(4.0 * k ** 2 - 1)
        J = np.diag(beta, 1) + np.diag(beta, -1)
        nodes, vecs = np.linalg.eigh(J)
        weights = 2 * vecs[0] ** 2
        hand = 0.5 * (b - a) * np.sum(weights * f(0.5 * (b - a) * nodes + 0.5 * (b + a)))
        results[n] = (float(lib), float(hand))
    return results


def gauss_elim_pivot(A, b):
    A = np.array(A, dtype=float)
    b = np.array(b, dtype=float)
    n = len(b)
    for k in range(n - 1):
        p = np.argmax(np.abs(A[k:, k])) + k
        if A[p, k] == 0:
            raise ValueError("matrix is singular")
        if p != k:
            A[[k, p]] = A[[p, k]]
            b[[k, p]] = b[[p, k]]
        for i in range(k + 1, n):
            m = A[i, k] / A[k, k]
            A[i, k:] -= m * A[k, k:]
            b[i] -= m * b[k]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - A[i, i + 1:] @ x[i + 1:]) / A[i, i]
    return x


def lu_doolittle(A):
    n = len(A)
    L = np.eye(n)
    U = np.zeros((n, n))
    for i in range(n):
        for k in range(i, n):
            s = sum(L[i][j] * U[j][k] for j in range(i))
            U[i][k] = A[i][k] - s
        for k in range(i + 1, n):
            s = sum(L[k][j] * U[j][i] for j in range(i))
            L[k][i] = (A[k][i] - s) / U[i][i]
    return L, U


def cholesky_loops(A):
    A = np.asarray(A, dtype=float)
    n = A.shape[0]
    L = np.zeros_like(A)
    for i in range(n):
        for j in range(i + 1):
            s = np.dot(L[i, :j], L[j, :j])
            if i == j:
                d = A[i, i] - s
                if d <= 0:
                    raise ValueError("matrix is not positive definite")
                L[i, j] = math.sqrt(d)
            else:
                L[i, j] = (A[i, j] - s) / L[j, j]
    return L, float(np.abs(L @ L.T - A).max())


def qr_householder(A):
    A = np.array(A, dtype=float)
    m, n = A.shape
    Q = np.eye(m)
    R = A.copy()
    for j in range(min(m - 1, n)):
        x = R[j:, j]
        normx = np.linalg.norm(x)
        if normx == 0:
            continue
        s = -1.0 if x[0] >= 0 else 1.0
        u1 = x[0] - s * normx
        w = x / u1
        w[0] = 1.0
        tau = -s * u1 / normx
        R[j:, :] -= tau * np.outer(w, w @ R[j:, :])
        Q[:, j:] -= np.outer(Q[:, j:] @ w, tau * w)
    return Q, R, float(np.abs(Q @ R - A).max())


def qr_gram_schmidt(A, modified=True):
    A = np.asarray(A, dtype=float)
    m, n = A.shape
    Q = np.zeros((m, n))
    R = np.zeros((n, n))
    V = A.copy()
    for j in range(n):
        if modified:
            R[j, j] = np.linalg.norm(V[:, j])
            Q[:, j] = V[:, j] / R[j, j]
            for k in range(j + 1, n):
                R[j, k] = Q[:, j] @ V[:, k]
                V[:, k] -= R[j, k] * Q[:, j]
        else:
            v = A[:, j].copy()
            for i in range(j):
                R[i, j] = Q[:, i] @ A[:, j]
                v -= R[i, j] * Q[:, i]
            R[j, j] = np.linalg.norm(v)
            Q[:, j] = v / R[j, j]
    return Q, R, float(np.linalg.norm(Q.T @ Q - np.eye(n)))


def jacobi(A, b, tol=1e-10, maxiter=500):
    D = np.diag(A)
    R = A - np.diagflat(D)
    x = np.zeros_like(b, dtype=float)
    for it in range(maxiter):
        x_new = (b - R @ x) / D
        if np.linalg.norm(x_new - x, np.inf) < tol:
            return x_new, it + 1
        x = x_new
    return x, maxiter


def gauss_seidel(A, b, x, tol=1e-10, maxiter=500):
    # updates x in place, like the lecture notes do
    n = len(b)
    for it in range(1, maxiter + 1):
        x_old = x.copy()
        for i in range(n):
            s1 = A[i, :i] @ x[:i]
            s2 = A[i, i + 1:] @ x_old[i + 1:]
            x[i] = (b[i] - s1 - s2) / A[i, i]
        if np.allclose(x, x_old, atol=tol, rtol=0):
            break
    return x, it


def sor_sweep(A, b, omegas=(1.0, 1.1, 1.25, 1.5), tol=1e-8, maxiter=500):
    res = {}
    n = len(b)
    for w in omegas:
        x = np.zeros(n)
        for it in range(1, maxiter + 1):
            diff = 0.0
            for i in range(n):
                sigma = A[i] @ x - A[i, i] * x[i]
                new = (1 - w) * x[i] + w * (b[i] - sigma) / A[i, i]
                diff = max(diff, abs(new - x[i]))
                x[i] = new
            if diff < tol:
                break
        res[f"omega={w:.2f}"] = (it, x)
    return res


def power_iteration(A, num_iter=500, tol=1e-12):
    b = np.ones(A.shape[1])
    lam = 0.0
    for i in range(num_iter):
        Ab = A @ b
        b_new = Ab / np.linalg.norm(Ab)
        lam_new = b_new @ A @ b_new
        if abs(lam_new - lam) < tol:
            break
        b, lam = b_new, lam_new
    return lam_new, b_new, i + 1


def inverse_iteration(A, mu, tol=1e-12, maxiter=100):
    n = len(A)
    x = np.ones(n) / math.sqrt(n)
    M = A - mu * np.eye(n)
    lam = mu
    for k in range(maxiter):
        y = np.linalg.solve(M, x)
        x = y / np.linalg.norm(y)
        lam_new = x @ A @ x
        if abs(lam_new - lam) < tol:
            break
        lam = lam_new
    if x[np.argmax(np.abs(x))] < 0:
        x = -x
    return lam_new, x, k + 1


def lagrange_interp(xp, yp, x):
    x = np.asarray(x, dtype=float)
    total = np.zeros_like(x)
    n = len(xp)
    for i in range(n):
        L = np.ones_like(x)
        for j in range(n):
            if i != j:
                L *= (x - xp[j]) / (xp[i] - xp[j])
        total += yp[i] * L
    return total


def newton_divided_diff(xp, yp, x):
    xp = np.asarray(xp, dtype=float)
    n = len(xp)
    coef = np.array(yp, dtype=float)
    for j in range(1, n):
        coef[j:] = (coef[j:] - coef[j - 1:-1]) / (xp[j:] - xp[:-j])
    p = coef[-1] * np.ones_like(x, dtype=float)
    for k in range(n - 2, -1, -1):
        p = coef[k] + (x - xp[k]) * p
    return coef, p


def natural_cubic_spline(x, y, xq):
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    n = len(x) - 1
    h = np.diff(x)
    A = np.zeros((n + 1, n + 1))
    r = np.zeros(n + 1)
    A[0, 0] = A[n, n] = 1.0
    for i in range(1, n):
        A[i, i - 1] = h[i - 1]
        A[i, i] = 2 * (h[i - 1] + h[i])
        A[i, i + 1] = h[i]
        r[i] = 3 * ((y[i + 1] - y[i]) / h[i] - (y[i] - y[i - 1]) / h[i - 1])
    c = np.linalg.solve(A, r)
    b = (y[1:] - y[:-1]) / h - h * (2 * c[:-1] + c[1:]) / 3
    d = (c[1:] - c[:-1]) / (3 * h)
    idx = np.clip(np.searchsorted(x, xq) - 1, 0, n - 1)
    dx = xq - x[idx]
    return y[idx] + b[idx] * dx + c[idx] * dx ** 2 + d[idx] * dx ** 3


def lsq_polyfit(x, y, deg=2):
    V = np.vander(x, deg + 1)
    coef_normal = np.linalg.solve(V.T @ V, V.T @ y)
    coef_lstsq, res, rank, sv = np.linalg.lstsq(V, y, rcond=None)
    coef_np = np.polyfit(x, y, deg)
    r2 = 1 - ((y - V @ coef_np) ** 2).sum() / ((y - y.mean()) ** 2).sum()
    return coef_normal, coef_lstsq, coef_np, float(r2), int(rank)


def thomas_solve(a, b, c, d):
    """a: sub-diagonal (n-1), b: diagonal (n), c: super-diagonal (n-1)."""
    n = len(d)
    cp = np.zeros(n - 1)
    dp = np.zeros(n)
    cp[0] = c[0] / b[0]
    dp[0] = d[0] / b[0]
    for i in range(1, n):
        denom = b[i] - a[i - 1] * cp[i - 1]
        if i < n - 1:
            cp[i] = c[i] / denom
        dp[i] = (d[i] - a[i - 1] * dp[i - 1]) / denom
    x = np.zeros(n)
    x[-1] = dp[-1]
    for i in range(n - 2, -1, -1):
        x[i] = dp[i] - cp[i] * x[i + 1]
    return x


def thomas_check(a, b, c, d):
    x = thomas_solve(a, b, c, d)
    M = np.diag(b) + np.diag(a, -1) + np.diag(c, 1)
    return x, float(np.abs(M @ x - d).max())


def bvp_poisson(n=40):
    # -u'' = pi^2 sin(pi x), u(0) = u(1) = 0, exact u = sin(pi x)
    h = 1.0 / (n + 1)
    x = np.linspace(h, 1 - h, n)
    a = -np.ones(n - 1)
    b = 2 * np.ones(n)
    c = -np.ones(n - 1)
    d = h ** 2 * np.pi ** 2 * np.sin(np.pi * x)
    u = thomas_solve(a, b, c, d)
    return x, u, float(np.abs(u - np.sin(np.pi * x)).max())


def heat_explicit(nx=21, nt=200, alpha=1.0, L=1.0, T=0.1):
    dx = L / (nx - 1)
    dt = T / nt
    r = alpha * dt / dx ** 2
    if r > 0.5:
        raise ValueError(f"unstable: r = {r:.3f} > 0.5")
    x = np.linspace(0, L, nx)
    u = np.sin(np.pi * x)
    lap = np.empty(nx - 2)
    for _ in range(nt):
        np.subtract(u[2:] + u[:-2], 2 * u[1:-1], out=lap)
        u[1:-1] += r * lap
    exact = np.exp(-np.pi ** 2 * alpha * T) * np.sin(np.pi * x)
    return u, float(np.abs(u - exact).max()), r


def heat_implicit(u0, nt, r, theta=1.0):
    """theta = 1: backward Euler, theta = 0.5: Crank-Nicolson; Dirichlet ends kept."""
    u = np.array(u0, dtype=float)
    m = len(u) - 2
    a = np.full(m - 1, -theta * r)
    b = np.full(m, 1 + 2 * theta * r)
    c = np.full(m - 1, -theta * r)
    for _ in range(nt):
        rhs = u[1:-1] + (1 - theta) * r * (u[2:] - 2 * u[1:-1] + u[:-2])
        rhs[0] += theta * r * u[0]
        rhs[-1] += theta * r * u[-1]
        u[1:-1] = thomas_solve(a, b, c, rhs)
    return u


def laplace_relaxation(n=16, top=100.0, tol=1e-3, maxiter=3000, omega=None):
    u = np.zeros((n, n))
    u[0, :] = top
    u[:, 0] = top / 2
    for it in range(1, maxiter + 1):
        if omega is None:
            u_old = u.copy()
            u[1:-1, 1:-1] = 0.25 * (u_old[:-2, 1:-1] + u_old[2:, 1:-1]
                                    + u_old[1:-1, :-2] + u_old[1:-1, 2:])
            err = np.abs(u - u_old).max()
        else:
            err = 0.0
            for i in range(1, n - 1):
                for j in range(1, n - 1):
                    new = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
                    delta = omega * (new - u[i, j])
                    u[i, j] += delta
                    err = max(err, abs(delta))
        if err < tol:
            break
    return u, it


def fft_recursive(x):
    x = np.asarray(x, dtype=complex)
    N = x.shape[0]
    if N == 1:
        return x
    if N % 2 > 0:
        raise ValueError("size of x must be a power of 2")
    even = fft_recursive(x[::2])
    odd = fft_recursive(x[1::2])
    factor = np.exp(-2j * np.pi * np.arange(N // 2) / N)
    return np.concatenate([even + factor * odd, even - factor * odd])


def fft_recursive_check(x):
    X = fft_recursive(x)
    n = np.arange(len(x))
    M = np.exp(-2j * np.pi * n[:, None] * n[None, :] / len(x))
    slow = M @ x
    return X, bool(np.allclose(X, np.fft.fft(x))), float(np.abs(slow - X).max())


# ---------------------------------------------------------------------------
# Rosetta Code, Project Euler and other classics
# ---------------------------------------------------------------------------

def _life_step(Z):
    N = (Z[0:-2, 0:-2] + Z[0:-2, 1:-1] + Z[0:-2, 2:]
         + Z[1:-1, 0:-2] + Z[1:-1, 2:]
         + Z[2:, 0:-2] + Z[2:, 1:-1] + Z[2:, 2:])
    birth = (N == 3) & (Z[1:-1, 1:-1] == 0)
    survive = ((N == 2) | (N == 3)) & (Z[1:-1, 1:-1] == 1)
    Z[...] = 0
    Z[1:-1, 1:-1][birth | survive] = 1
    return Z


def game_of_life(Z, steps=8):
    for _ in range(steps):
        _life_step(Z)
    return Z, int(Z.sum())


def life_torus(board, generations=6):
    board = np.array(board, dtype=np.uint8)
    history = []
    for _ in range(generations):
        n = sum(np.roll(np.roll(board, i, 0), j, 1)
                for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0))
        board = ((n == 3) | ((board == 1) & (n == 2))).astype(np.uint8)
        history.append(int(board.sum()))
    return board, history


def mandelbrot_escape(h, w, maxit=20, r=2):
    # from the NumPy quickstart
    x = np.linspace(-2.5, 1.5, 4 * h + 1)
    y = np.linspace(-1.5, 1.5, 3 * w + 1)
    A, B = np.meshgrid(x, y)
    C = A + B * 1j
    z = np.zeros_like(C)
    divtime = maxit + np.zeros(z.shape, dtype=int)
    for i in range(maxit):
        z = z ** 2 + C
        diverge = abs(z) > r
        div_now = diverge & (divtime == maxit)
        divtime[div_now] = i
        z[diverge] = r
    return divtime


def mandelbrot_ascii(w=40, h=15, maxit=20):
    chars = " .:-=+*#%@"
    rows = []
    for y in np.linspace(-1.2, 1.2, h):
        line = ""
        for x in np.linspace(-2.1, 0.6, w):
            c = complex(x, y)
            z = 0j
            n = 0
            while abs(z) <= 2 and n < maxit:
                z = z * z + c
                n += 1
            line += chars[n * (len(chars) - 1) // maxit]
        rows.append(line)
    return "\n".join(rows)


def sieve(n):
    is_prime = np.ones(n + 1, dtype=bool)
    is_prime[:2] = False
    for i in range(2, int(n ** 0.5) + 1):
        if is_prime[i]:
            is_prime[i * i::i] = False
    primes = np.flatnonzero(is_prime)
    return primes, int(primes.sum()), len(primes)


def primesfrom2to(n):
    """Input n >= 6, returns an array of primes, 2 <= p < n (the famous SO answer)."""
    sv = np.ones(n // 3 + (n % 6 == 2), dtype=bool)
    for i in range(1, int(n ** 0.5) // 3 + 1):
        if sv[i]:
            k = 3 * i + 1 | 1
            sv[k * k // 3::2 * k] = False
            sv[k * (k - 2 * (i & 1) + 4) // 3::2 * k] = False
    return np.r_[2, 3, ((3 * np.nonzero(sv)[0][1:] + 1) | 1)]


def collatz_lengths(limit):
    cache = {1: 1}

    def length(n):
        stack = []
        while n not in cache:
            stack.append(n)
            n = n // 2 if n % 2 == 0 else 3 * n + 1
        L = cache[n]
        while stack:
            L += 1
            cache[stack.pop()] = L
        return L

    lens = np.array([length(i) for i in range(1, limit + 1)])
    best = int(lens.argmax()) + 1
    return lens, best, int(lens.max())


def collatz_vectorized(n_max):
    n = np.arange(1, n_max + 1, dtype=np.int64)
    steps = np.zeros_like(n)
    active = n > 1
    while active.any():
        x = n[active]
        n[active] = np.where(x % 2 == 0, x // 2, 3 * x + 1)
        steps[active] += 1
        active = n > 1
    return steps


def _pascal_rows():
    row = np.array([1], dtype=np.int64)
    while True:
        yield row
        row = np.r_[row, 0] + np.r_[0, row]


def pascal_triangle(n):
    rows = [[1]]
    for _ in range(n - 1):
        rows.append(np.convolve(rows[-1], [1, 1]).tolist())
    P = np.zeros((n, n), dtype=np.int64)
    P[:, 0] = 1
    for i in range(1, n):
        P[i, 1:i + 1] = P[i - 1, :i] + P[i - 1, 1:i + 1]
    gen_ok = all(np.array_equal(r, rows[i])
                 for i, r in enumerate(itertools.islice(_pascal_rows(), n)))
    return rows, P, gen_ok


def mat_pow_mod(M, e, mod=None):
    if e < 0:
        raise ValueError("negative exponent")
    result = np.eye(len(M), dtype=np.int64)
    base = np.array(M, dtype=np.int64)
    while e:
        if e & 1:
            result = result @ base
            if mod:
                result %= mod
        base = base @ base
        if mod:
            base %= mod
        e >>= 1
    return result


def mat_pow_check(M, e):
    return mat_pow_mod(M, e), bool((mat_pow_mod(M, e) == np.linalg.matrix_power(M, e)).all())


def fib_matrix(ns):
    F = np.array([[1, 1], [1, 0]], dtype=object)
    exact = [np.linalg.matrix_power(F, n)[0, 1] for n in ns]
    phi = (1 + math.sqrt(5)) / 2
    binet = [int(round(phi ** n / math.sqrt(5))) if n <= 70 else None for n in ns]
    return exact, binet


def euler_small(limit=1000, fib_limit=4_000_000, n=20, perimeter=1000):
    a = np.arange(limit)
    p1 = int(a[(a % 3 == 0) | (a % 5 == 0)].sum())
    fib = [1, 2]
    while fib[-1] + fib[-2] <= fib_limit:
        fib.append(fib[-1] + fib[-2])
    f = np.array(fib)
    p2 = int(f[f % 2 == 0].sum())
    p5 = functools.reduce(lambda x, y: x * y // math.gcd(x, y), range(1, n + 1))
    r = np.arange(1, 101)
    p6 = int(r.sum() ** 2 - (r ** 2).sum())
    A, B = np.meshgrid(np.arange(1, perimeter // 2), np.arange(1, perimeter // 2),
                       indexing="ij")
    C = perimeter - A - B
    mask = (A < B) & (B < C) & (A * A + B * B == C * C)
    trip = [(int(x), int(y), int(z)) for x, y, z in zip(A[mask], B[mask], C[mask])]
    p9 = trip[0][0] * trip[0][1] * trip[0][2] if trip else None
    return {"p1": p1, "p2": p2, "p5": p5, "p6": p6, "p9": p9, "triplets": trip}


def grid_max_product(G, k=4):
    G = np.asarray(G, dtype=np.int64)
    n = G.shape[0]
    best = {}
    best["right"] = sliding_window_view(G, k, axis=1).prod(-1).max()
    best["down"] = sliding_window_view(G, k, axis=0).prod(-1).max()
    diag = []
    anti = []
    F = np.fliplr(G)
    for off in range(-(n - k), n - k + 1):
        diag.append(sliding_window_view(np.diagonal(G, off), k).prod(-1).max())
        anti.append(sliding_window_view(np.diagonal(F, off), k).prod(-1).max())
    best["diag"] = max(diag)
    best["anti"] = max(anti)
    best = {key: int(v) for key, v in best.items()}
    return max(best.values()), best


def max_path_triangle(rows):
    best = np.array(rows[-1], dtype=np.int64)
    choice = []
    for row in reversed(rows[:-1]):
        pick = best[1:] > best[:-1]
        choice.append(pick)
        best = np.array(row) + np.maximum(best[:-1], best[1:])
    # walk back down the triangle
    path, j = [rows[0][0]], 0
    for depth, pick in enumerate(reversed(choice), start=1):
        j += int(pick[j])
        path.append(rows[depth][j])
    return int(best[0]), path


def digit_sums_big(power=1000, fact=100):
    s16 = sum(map(int, str(2 ** power)))
    s20 = sum(int(c) for c in str(math.factorial(fact)))
    digits = np.zeros(4 * fact + 10, dtype=np.int64)   # little-endian decimal digits
    digits[0] = 1
    for k in range(2, fact + 1):
        digits *= k
        while (digits >= 10).any():
            carry = digits // 10
            digits %= 10
            digits[1:] += carry[:-1]
    nd = int(np.flatnonzero(digits).max()) + 1
    return {"pe16": s16, "pe20": s20, "numpy_pe20": int(digits.sum()), "ndigits": nd}


def _magic_odd(n):
    M = np.zeros((n, n), dtype=int)
    i, j = 0, n // 2
    for k in range(1, n * n + 1):
        M[i, j] = k
        ni, nj = (i - 1) % n, (j + 1) % n
        if M[ni, nj]:
            ni, nj = (i + 1) % n, j
        i, j = ni, nj
    return M


def _is_magic(M):
    n = len(M)
    s = n * (n * n + 1) // 2
    sums = np.r_[M.sum(0), M.sum(1), np.trace(M), np.trace(M[::-1])]
    return bool(np.logical_and.reduce(sums == s)) and sorted(M.ravel().tolist()) == list(
        range(1, n * n + 1))


def magic_square(n):
    if n < 3:
        raise ValueError("no magic square of order < 3")
    if n % 2 == 1:
        M = _magic_odd(n)
    elif n % 4 == 0:
        I, J = np.indices((n, n))
        M = np.arange(1, n * n + 1).reshape(n, n)
        mask = (I % 4 == J % 4) | ((I % 4 + J % 4) == 3)
        M[mask] = n * n + 1 - M[mask]
    else:
        half = n // 2
        sub = _magic_odd(half)
        q = half * half
        M = np.block([[sub, sub + 2 * q], [sub + 3 * q, sub + q]])
        k = (n - 2) // 4
        cols = list(range(k)) + list(range(n - k + 1, n))
        for i in range(half):
            for j in cols:
                M[i, j], M[i + half, j] = M[i + half, j], M[i, j]
        for j in (0, k):
            M[k, j], M[k + half, j] = M[k + half, j], M[k, j]
    return M, _is_magic(M), n * (n * n + 1) // 2


def n_queens(n):
    count = 0
    first = []
    cols = np.zeros(n, dtype=bool)
    d1 = np.zeros(2 * n - 1, dtype=bool)
    d2 = np.zeros(2 * n - 1, dtype=bool)
    placed = [0] * n

    def place(r):
        nonlocal count
        if r == n:
            count += 1
            if not first:
                first.extend(placed)
            return
        for c in range(n):
            if not (cols[c] or d1[r + c] or d2[r - c + n - 1]):
                cols[c] = d1[r + c] = d2[r - c + n - 1] = True
                placed[r] = c
                place(r + 1)
                cols[c] = d1[r + c] = d2[r - c + n - 1] = False

    place(0)
    # Rosetta Code one-liner with permutations
    rng = range(n)
    perm_count = sum(1 for vec in itertools.permutations(rng)
                     if n == len(set(vec[i] + i for i in rng)) == len(set(vec[i] - i for i in rng)))
    board = np.zeros((n, n), dtype=np.int8)
    if first:
        board[np.arange(n), first] = 1
    return count, perm_count, board


def levenshtein(s, t):
    m, n = len(s), len(t)
    D = np.zeros((m + 1, n + 1), dtype=np.int32)
    D[:, 0] = np.arange(m + 1)
    D[0, :] = np.arange(n + 1)
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            cost = 0 if s[i - 1] == t[j - 1] else 1
            D[i, j] = min(D[i - 1, j] + 1, D[i, j - 1] + 1, D[i - 1, j - 1] + cost)
    # row-vectorised version: insertions handled with minimum.accumulate
    tt = np.array(list(t))
    prev = np.arange(n + 1)
    ar = np.arange(n + 1)
    for ch in s:
        cand = np.empty(n + 1, dtype=int)
        cand[0] = prev[0] + 1
        cand[1:] = np.minimum(prev[1:] + 1, prev[:-1] + (tt != ch))
        prev = np.minimum.accumulate(cand - ar) + ar
    return int(D[m, n]), int(prev[-1]), D


def lcs(a, b):
    L = np.zeros((len(a) + 1, len(b) + 1), dtype=int)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            if x == y:
                L[i + 1, j + 1] = L[i, j] + 1
            else:
                L[i + 1, j + 1] = max(L[i + 1, j], L[i, j + 1])
    res = []
    i, j = len(a), len(b)
    while i and j:
        if a[i - 1] == b[j - 1]:
            res.append(a[i - 1])
            i -= 1
            j -= 1
        elif L[i - 1, j] >= L[i, j - 1]:
            i -= 1
        else:
            j -= 1
    return "".join(reversed(res)), int(L[-1, -1])


def knapsack(weights, values, capacity):
    n = len(weights)
    dp = np.zeros((n + 1, capacity + 1), dtype=np.int64)
    for i in range(1, n + 1):
        w, v = int(weights[i - 1]), int(values[i - 1])
        dp[i] = dp[i - 1]
        if w <= capacity:
            dp[i, w:] = np.maximum(dp[i - 1, w:], dp[i - 1, :capacity + 1 - w] + v)
    chosen = []
    c = capacity
    for i in range(n, 0, -1):
        if dp[i, c] != dp[i - 1, c]:
            chosen.append(i - 1)
            c -= int(weights[i - 1])
    return int(dp[n, capacity]), sorted(chosen)


def floyd_warshall(W):
    D = np.array(W, dtype=float)
    n = len(D)
    nxt = np.where(np.isfinite(D), np.arange(n)[None, :], -1)
    np.fill_diagonal(D, 0.0)
    for k in range(n):
        via = D[:, [k]] + D[[k], :]
        better = via < D
        D[better] = via[better]
        nxt[better] = np.broadcast_to(nxt[:, [k]], (n, n))[better]
    path = []
    if nxt[0, n - 1] >= 0:
        u = 0
        path = [0]
        while u != n - 1:
            u = int(nxt[u, n - 1])
            path.append(u)
    return D, path


def dijkstra_dense(adj, source=0):
    adj = np.asarray(adj, dtype=float)
    n = len(adj)
    dist = np.full(n, np.inf)
    dist[source] = 0.0
    prev = -np.ones(n, dtype=int)
    visited = np.zeros(n, dtype=bool)
    for _ in range(n):
        d = np.where(visited, np.inf, dist)
        u = int(np.argmin(d))
        if np.isinf(d[u]):
            break
        visited[u] = True
        nbr = np.flatnonzero((adj[u] > 0) & ~visited)
        alt = dist[u] + adj[u, nbr]
        better = alt < dist[nbr]
        dist[nbr[better]] = alt[better]
        prev[nbr[better]] = u
    # same thing with heapq
    hd = {source: 0.0}
    heap = [(0.0, source)]
    done = set()
    while heap:
        du, u = heapq.heappop(heap)
        if u in done:
            continue
        done.add(u)
        for v in np.flatnonzero(adj[u]).tolist():
            nd = du + adj[u, v]
            if nd < hd.get(v, math.inf):
                hd[v] = nd
                heapq.heappush(heap, (nd, v))
    heap_dist = np.array([hd.get(i, math.inf) for i in range(n)])
    path = []
    node = n - 1
    while node != -1 and np.isfinite(dist[n - 1]):
        path.append(node)
        node = int(prev[node])
    return dist, prev, path[::-1], bool(np.allclose(dist, heap_dist))


def bfs_maze(grid, start, goal):
    grid = np.asarray(grid)
    rows, cols = grid.shape
    dist = np.full(grid.shape, -1, dtype=np.int32)
    dist[start] = 0
    q = deque([start])
    while q:
        r, c = q.popleft()
        if (r, c) == goal:
            break
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and grid[nr, nc] == 0 and dist[nr, nc] < 0:
                dist[nr, nc] = dist[r, c] + 1
                q.append((nr, nc))
    path = []
    if dist[goal] >= 0:
        cur = goal
        path.append(cur)
        while cur != start:
            r, c = cur
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                nr, nc = r + dr, c + dc
                if 0 <= nr < rows and 0 <= nc < cols and dist[nr, nc] == dist[r, c] - 1:
                    cur = (nr, nc)
                    break
            path.append(cur)
        path.reverse()
    return int(dist[goal]), path, dist


def convex_hull(points):
    pts = sorted(set(map(tuple, np.asarray(points).tolist())))
    if len(pts) <= 2:
        return np.array(pts), 0.0

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    hull = np.array(lower[:-1] + upper[:-1])
    x, y = hull[:, 0], hull[:, 1]
    area = 0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))
    return hull, float(area)


def points_in_polygon(points, poly):
    points = np.asarray(points, dtype=float)
    poly = np.asarray(poly, dtype=float)
    x, y = points[:, 0], points[:, 1]
    px, py = poly[:, 0], poly[:, 1]
    inside = np.zeros(len(points), dtype=bool)
    j = len(poly) - 1
    for i in range(len(poly)):
        cond = (py[i] > y) != (py[j] > y)
        with np.errstate(divide="ignore", invalid="ignore"):
            xint = (px[j] - px[i]) * (y - py[i]) / (py[j] - py[i]) + px[i]
        inside ^= cond & (x < xint)
        j = i
    return inside


def polygon_area_centroid(x, y):
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    xs, ys = np.roll(x, -1), np.roll(y, -1)
    cross = x * ys - xs * y
    signed = 0.5 * cross.sum()
    cx = ((x + xs) * cross).sum() / (6 * signed)
    cy = ((y + ys) * cross).sum() / (6 * signed)
    orientation = "ccw" if signed > 0 else "cw"
    return abs(signed), (float(cx), float(cy)), orientation


def image_transforms(img):
    return {
        "rot90": np.rot90(img),
        "rot270": np.rot90(img, 3),
        "flipud": img[::-1],
        "fliplr": img[:, ::-1],
        "crop": img[2:-2, 3:-3],
        "transpose": img.T,
        "negative": 255 - img,
        "threshold": np.where(img > 127, 255, 0).astype(np.uint8),
    }


def rotate_nearest(img, angle_deg):
    h, w = img.shape
    cy, cx = (h - 1) / 2, (w - 1) / 2
    th = math.radians(angle_deg)
    yy, xx = np.indices((h, w))
    xs = math.cos(th) * (xx - cx) + math.sin(th) * (yy - cy) + cx
    ys = -math.sin(th) * (xx - cx) + math.cos(th) * (yy - cy) + cy
    xi = np.rint(xs).astype(int)
    yi = np.rint(ys).astype(int)
    valid = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
    out = np.zeros_like(img)
    out[valid] = img[yi[valid], xi[valid]]
    return out


def hist_equalize(img):
    # the OpenCV tutorial version with a masked array
    hist, bins = np.histogram(img.flatten(), 256, [0, 256])
    cdf = hist.cumsum()
    cdf_m = np.ma.masked_equal(cdf, 0)
    cdf_m = (cdf_m - cdf_m.min()) * 255 / (cdf_m.max() - cdf_m.min())
    cdf = np.ma.filled(cdf_m, 0).astype(np.uint8)
    out = cdf[img]
    return out, np.bincount(out.ravel(), minlength=256)


def convolve2d_int(img, kernel):
    kh, kw = kernel.shape
    pad = np.pad(img.astype(np.int32), ((kh // 2, kh // 2), (kw // 2, kw // 2)), mode="edge")
    win = sliding_window_view(pad, (kh, kw))
    out = np.einsum("ijkl,kl->ij", win, kernel[::-1, ::-1].astype(np.int32))
    # naive loops for comparison
    loop = np.zeros(img.shape, dtype=np.int32)
    flipped = kernel[::-1, ::-1]
    for i in range(img.shape[0]):
        for j in range(img.shape[1]):
            loop[i, j] = int((pad[i:i + kh, j:j + kw] * flipped).sum())
    return out, np.clip(out, 0, 255).astype(np.uint8), bool((out == loop).all())


def rref(M, tol=1e-12):
    A = np.array(M, dtype=float)
    rows, cols = A.shape
    lead = 0
    pivots = []
    for r in range(rows):
        if lead >= cols:
            break
        i = r
        while abs(A[i, lead]) < tol:
            i += 1
            if i == rows:
                i = r
                lead += 1
                if lead == cols:
                    A[np.abs(A) < tol] = 0.0
                    return A, tuple(pivots)
        A[[i, r]] = A[[r, i]]
        A[r] /= A[r, lead]
        for i in range(rows):
            if i != r:
                A[i] -= A[i, lead] * A[r]
        pivots.append(lead)
        lead += 1
    A[np.abs(A) < tol] = 0.0
    return A, tuple(pivots)


# ---------------------------------------------------------------------------
# cases
# ---------------------------------------------------------------------------

def _rng(seed):
    return np.random.default_rng(seed)


def _dd_matrix(seed, n=6):
    A = _rng(seed).random((n, n))
    A += np.diag(A.sum(axis=1) + 1.0)
    return A


def _spd(seed, n=5):
    M = _rng(seed).normal(size=(n, n))
    return M @ M.T + n * np.eye(n)


def _glider(n=10):
    Z = np.zeros((n, n), dtype=np.uint8)
    Z[1, 2] = Z[2, 3] = Z[3, 1] = Z[3, 2] = Z[3, 3] = 1
    return Z


def _nan_matrix(seed, shape=(8, 4), frac=0.2):
    X = _rng(seed).random(shape)
    X[1:][_rng(seed + 1000).random((shape[0] - 1, shape[1])) < frac] = np.nan
    return X


def _graph(seed, n=7, p=0.45):
    r = _rng(seed)
    W = np.where(r.random((n, n)) < p, r.integers(1, 10, (n, n)), 0).astype(float)
    np.fill_diagonal(W, 0)
    return W


def _maze(seed, n=10, p=0.25):
    g = (_rng(seed).random((n, n)) < p).astype(np.uint8)
    g[0, 0] = g[-1, -1] = 0
    return g


def _triangle(seed, depth=10):
    r = _rng(seed)
    return [r.integers(1, 100, k).tolist() for k in range(1, depth + 1)]


_STAR = np.array([[0, 3], [1, 1], [3, 1], [1.5, -0.5], [2, -3], [0, -1.5], [-2, -3],
                  [-1.5, -0.5], [-3, 1], [-1, 1]])

CASES = [
    # 100 numpy exercises / Stack Overflow
    ("checkerboard", checkerboard, lambda: (8,), {}),
    ("checkerboard_odd", checkerboard, lambda: (7,), {}),
    ("find_nearest", find_nearest, lambda: (_rng(1).random(20), 0.5), {}),
    ("find_nearest_2d", find_nearest, lambda: (_rng(2).integers(0, 100, (4, 5)), 37), {}),
    ("find_nearest_sorted", find_nearest_sorted, lambda: (_rng(3).random(15) * 10, np.array([-1.0, 2.2, 5.0, 7.7, 11.0])), {}),
    ("most_frequent_value", most_frequent_value, lambda: (_rng(4).integers(0, 8, 50),), {}),
    ("moving_average", moving_average, lambda: (np.arange(20, dtype=np.float32), 4), {}),
    ("moving_average_int", moving_average, lambda: (_rng(5).integers(0, 10, 15), 3), {}),
    ("sliding_window_stats", sliding_window_stats, lambda: (_rng(6).normal(size=25), 5), {}),
    ("rank_items_int8", rank_items, lambda: (_rng(7).integers(-5, 5, 12, dtype=np.int8),), {}),
    ("group_by_sum_int", group_by_sum, lambda: (_rng(8).integers(0, 5, 30), _rng(9).random(30)), {}),
    ("group_by_sum_str", group_by_sum, lambda: (np.array(["a", "b", "c", "d"])[_rng(10).integers(0, 4, 20)], _rng(11).integers(1, 9, 20)), {}),
    ("group_by_max_sorted", group_by_max_sorted, lambda: (_rng(12).integers(0, 4, 18), _rng(13).integers(0, 50, 18)), {}),
    ("remove_duplicate_rows", remove_duplicate_rows, lambda: (_rng(14).integers(0, 2, (12, 3)),), {}),
    ("pairwise_distances", pairwise_distances, lambda: (_rng(15).random((6, 3)), _rng(16).random((4, 3))), {}),
    ("pairwise_distances_self_f32", pairwise_distances, lambda: (_rng(17).random((5, 2)).astype(np.float32),), {}),
    ("cartesian_product", cartesian_product, lambda: (([1, 2, 3], [4, 5], [6, 7]),), {}),
    ("normalize_rows_l2", normalize_rows, lambda: (np.vstack([_rng(18).normal(size=(4, 3)), np.zeros((1, 3))]),), {}),
    ("normalize_rows_l1_int", normalize_rows, lambda: (_rng(19).integers(-3, 4, (5, 4)), "l1"), {}),
    ("normalize_rows_max_f32", normalize_rows, lambda: (_rng(20).random((3, 4)).astype(np.float32), "max"), {}),
    ("replace_nan_col_mean", replace_nan_col_mean, lambda: (_nan_matrix(21),), {}),
    ("running_max", running_max, lambda: (_rng(22).integers(0, 100, 15),), {}),
    ("running_max_float", running_max, lambda: (_rng(23).normal(size=12),), {}),
    ("n_largest", n_largest, lambda: (_rng(24).random(30), 5), {}),
    ("unique_triangle_edges", unique_triangle_edges, lambda: (_rng(25).integers(0, 20, (10, 3)),), {}),
    ("extract_subpart", extract_subpart, lambda: (_rng(26).integers(0, 10, (5, 5)), (5, 5), 0, (1, 1)), {}),
    ("block_sum", block_sum, lambda: (np.arange(64).reshape(8, 8), 4), {}),
    ("rows_containing", rows_containing, lambda: (_rng(27).integers(0, 5, (8, 3)), _rng(28).integers(0, 5, (2, 2))), {}),
    ("bootstrap_mean_ci", bootstrap_mean_ci, lambda: (_rng(29).normal(5, 2, 50),), {}),
    ("run_length_encode_int8", run_length_encode, lambda: (np.repeat(_rng(30).integers(0, 3, 10), _rng(31).integers(1, 4, 10)).astype(np.int8),), {}),
    ("run_length_encode_bool", run_length_encode, lambda: (_rng(32).random(25) < 0.5,), {}),
    ("random_placement", random_placement, lambda: (10, 3), {"rand": True}),
    ("monte_carlo_pi", monte_carlo_pi, lambda: (5000,), {"rand": True}),
    ("unique_colors", unique_colors, lambda: ((_rng(33).integers(0, 3, (8, 8, 3)) * 100).astype(np.uint8),), {}),
    # numerical methods
    ("bisection_sqrt2", bisection, lambda: ([1, 0, -2], 0.0, 2.0), {}),
    ("bisection_wallis", bisection, lambda: ([1, 0, -2, -5], 2.0, 3.0, 1e-8), {}),
    ("newton_poly", newton_poly, lambda: ([1, 0, -2, -5], 2.0), {}),
    ("newton_poly_complex", newton_poly, lambda: ([1, 0, 1], 1.0 + 1.0j), {}),
    ("secant", secant, lambda: ("cubic", 2.0, 3.0), {}),
    ("fixed_point_cos", fixed_point, lambda: ("cos", 1.0), {}),
    ("fixed_point_babylon", fixed_point, lambda: ("babylon2", 1.0), {}),
    ("euler_lotka_volterra", euler_lotka_volterra, lambda: (np.array([10.0, 5.0]),), {}),
    ("rk4_pendulum", rk4_pendulum, lambda: (0.5, 0.0), {}),
    ("rk4_pendulum_damped", rk4_pendulum, lambda: (2.0, 1.0, 5.0, 200, 0.3), {}),
    ("trapz_simpson_sin", trapz_simpson, lambda: ("sin", 0.0, math.pi, 20), {}),
    ("trapz_simpson_runge", trapz_simpson, lambda: ("runge", -1.0, 1.0, 50), {}),
    ("romberg_exp", romberg, lambda: ("exp", 0.0, 1.0, 6), {}),
    ("gauss_legendre", gauss_legendre, lambda: ("gauss", -2.0, 2.0), {}),
    ("gauss_elim_pivot", gauss_elim_pivot, lambda: (_rng(40).normal(size=(5, 5)), _rng(41).normal(size=5)), {}),
    ("gauss_elim_pivot_zero", gauss_elim_pivot, lambda: ([[0, 2, 1], [1, 1, 1], [2, 1, 0]], [3, 3, 3]), {}),
    ("lu_doolittle", lu_doolittle, lambda: (_dd_matrix(42, 4).tolist(),), {}),
    ("cholesky_loops", cholesky_loops, lambda: (_spd(43),), {}),
    ("qr_householder", qr_householder, lambda: (_rng(44).normal(size=(6, 4)),), {}),
    ("qr_gram_schmidt_mgs", qr_gram_schmidt, lambda: (_rng(45).normal(size=(6, 4)),), {}),
    ("qr_gram_schmidt_cgs", qr_gram_schmidt, lambda: (_rng(46).normal(size=(6, 4)), False), {}),
    ("jacobi", jacobi, lambda: (_dd_matrix(47), _rng(48).random(6)), {}),
    ("gauss_seidel", gauss_seidel, lambda: (_dd_matrix(49), _rng(50).random(6), np.zeros(6)), {}),
    ("sor_sweep", sor_sweep, lambda: (_dd_matrix(51, 5), _rng(52).random(5)), {}),
    ("power_iteration", power_iteration, lambda: (_spd(53, 5),), {}),
    ("inverse_iteration", inverse_iteration, lambda: (_spd(54, 5), 4.0), {}),
    ("lagrange_interp", lagrange_interp, lambda: (np.linspace(-1, 1, 7), _F["runge"](np.linspace(-1, 1, 7)), np.linspace(-1, 1, 25)), {}),
    ("newton_divided_diff", newton_divided_diff, lambda: (np.linspace(0, 3, 6).astype(np.float32), np.sin(np.linspace(0, 3, 6)), np.linspace(0, 3, 13)), {}),
    ("natural_cubic_spline", natural_cubic_spline, lambda: (np.arange(8.0), np.cos(np.arange(8.0)), np.linspace(0, 7, 30)), {}),
    ("lsq_polyfit", lsq_polyfit, lambda: (np.linspace(0, 1, 30), 1 + 2 * np.linspace(0, 1, 30) - 3 * np.linspace(0, 1, 30) ** 2 + _rng(55).normal(0, 0.05, 30), 2), {}),
    ("thomas_check", thomas_check, lambda: (_rng(56).random(7), 3 + _rng(57).random(8), _rng(58).random(7), _rng(59).random(8)), {}),
    ("bvp_poisson", bvp_poisson, lambda: (40,), {}),
    ("heat_explicit", heat_explicit, lambda: (), {}),
    ("heat_implicit_be", heat_implicit, lambda: (np.sin(np.pi * np.linspace(0, 1, 31)), 50, 2.0), {}),
    ("heat_implicit_cn", heat_implicit, lambda: (np.r_[1.0, np.zeros(19), 0.0], 40, 1.0, 0.5), {}),
    ("laplace_jacobi", laplace_relaxation, lambda: (14,), {}),
    ("laplace_sor", laplace_relaxation, lambda: (10, 100.0, 1e-4, 500, 1.5), {}),
    ("fft_recursive_real", fft_recursive_check, lambda: (_rng(60).normal(size=64),), {}),
    ("fft_recursive_complex", fft_recursive_check, lambda: (_rng(61).normal(size=32) + 1j * _rng(62).normal(size=32),), {}),
    # classics
    ("game_of_life_glider", game_of_life, lambda: (_glider(),), {}),
    ("life_torus", life_torus, lambda: ((_rng(63).random((12, 12)) < 0.35).astype(int).tolist(),), {}),
    ("mandelbrot_escape", mandelbrot_escape, lambda: (10, 10, 20), {}),
    ("mandelbrot_ascii", mandelbrot_ascii, lambda: (), {}),
    ("sieve", sieve, lambda: (200,), {}),
    ("primesfrom2to", primesfrom2to, lambda: (1000,), {}),
    ("collatz_lengths", collatz_lengths, lambda: (300,), {}),
    ("collatz_vectorized", collatz_vectorized, lambda: (200,), {}),
    ("pascal_triangle", pascal_triangle, lambda: (10,), {}),
    ("mat_pow_mod", mat_pow_mod, lambda: ([[1, 1, 0], [1, 0, 1], [0, 1, 1]], 1000, 10 ** 9 + 7), {}),
    ("mat_pow_check", mat_pow_check, lambda: (np.array([[2, 1], [1, 1]]), 12), {}),
    ("fib_matrix", fib_matrix, lambda: ([10, 50, 70, 100, 200],), {}),
    ("euler_small", euler_small, lambda: (), {}),
    ("grid_max_product", grid_max_product, lambda: (_rng(64).integers(0, 100, (10, 10)),), {}),
    ("max_path_triangle", max_path_triangle, lambda: (_triangle(65),), {}),
    ("digit_sums_big", digit_sums_big, lambda: (), {}),
    ("magic_square_odd", magic_square, lambda: (5,), {}),
    ("magic_square_doubly_even", magic_square, lambda: (8,), {}),
    ("magic_square_singly_even", magic_square, lambda: (10,), {}),
    ("n_queens_6", n_queens, lambda: (6,), {}),
    ("n_queens_7", n_queens, lambda: (7,), {}),
    ("levenshtein", levenshtein, lambda: ("kitten", "sitting"), {}),
    ("levenshtein_rosetta", levenshtein, lambda: ("rosettacode", "raisethysword"), {}),
    ("lcs", lcs, lambda: ("thisisatest", "testing123testing"), {}),
    ("knapsack", knapsack, lambda: (_rng(66).integers(1, 15, 12), _rng(67).integers(1, 50, 12), 40), {}),
    ("floyd_warshall", floyd_warshall, lambda: (np.where(_graph(68) > 0, _graph(68), np.inf),), {}),
    ("dijkstra_dense", dijkstra_dense, lambda: (_graph(69, 8),), {}),
    ("bfs_maze", bfs_maze, lambda: (_maze(70), (0, 0), (9, 9)), {}),
    ("convex_hull", convex_hull, lambda: (_rng(71).integers(0, 20, (30, 2)),), {}),
    ("points_in_polygon", points_in_polygon, lambda: (_rng(72).uniform(-3, 3, (40, 2)), _STAR), {}),
    ("polygon_area_centroid", polygon_area_centroid, lambda: (_STAR[:, 0], _STAR[:, 1]), {}),
    ("polygon_area_cw_square", polygon_area_centroid, lambda: ([0, 0, 2, 2], [0, 2, 2, 0]), {}),
    ("image_transforms", image_transforms, lambda: (_rng(73).integers(0, 256, (10, 12), dtype=np.uint8),), {}),
    ("rotate_nearest", rotate_nearest, lambda: (_rng(74).integers(0, 256, (11, 11), dtype=np.uint8), 30.0), {}),
    ("hist_equalize", hist_equalize, lambda: (_rng(75).integers(60, 140, (16, 16), dtype=np.uint8),), {}),
    ("convolve2d_laplacian", convolve2d_int, lambda: (_rng(76).integers(0, 256, (10, 10), dtype=np.uint8), np.array([[0, 1, 0], [1, -4, 1], [0, 1, 0]], dtype=np.int8)), {}),
    ("convolve2d_sobel", convolve2d_int, lambda: (_rng(77).integers(0, 256, (9, 11), dtype=np.uint8), np.array([[1, 0, -1], [2, 0, -2], [1, 0, -1]])), {}),
    ("rref", rref, lambda: ([[1, 2, -1, -4], [2, 3, -1, -11], [-2, 0, -3, 22]],), {}),
    ("rref_rank_deficient", rref, lambda: ([[1, 2, 3], [2, 4, 6], [1, 0, 1], [0, 2, 2]],), {}),
]
