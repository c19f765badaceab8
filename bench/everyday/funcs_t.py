"""Everyday NumPy functions, sixteenth collection: numerical code ported from MATLAB and
Octave, SciPy routines rewritten by hand, Advent-of-Code puzzles solved with NumPy, and
operations-research and economics exercises. MATLAB and Octave ports keep their origin
visible: column vectors of shape (n, 1), ``np.dot`` and ``.T`` everywhere, arrays grown
with ``np.hstack``/``np.vstack`` inside loops, ``np.tile`` standing in for ``repmat``,
1-based index arithmetic such as ``x[i-1]``, ``np.size(x, 0)``, ``np.linalg.inv``,
``np.max(abs(x))``, ``np.finfo(float).eps``, ``np.fix``/``np.mod``/``np.floor`` and
``while`` loops to a tolerance with an iteration counter (Newton for systems, Gaussian
elimination, the machine-learning course's regression exercises, Euler and RK4 with
column-vector states, ``conv``/``filter``/``interp1``/``polyfit``/``magic`` ports,
Julian day numbers, Cholesky with an error path, Thomas' algorithm, Crank-Nicolson,
Moler's PageRank, k-means, fixed-point tables, a DFT matrix). SciPy replacements: root
finders (bisection, Brent's ``brentq``, secant, Newton with a derivative callback and a
dispatcher taking ``method=``), golden-section and Brent minimisation, BFGS with an
Armijo backtracking search, Nelder-Mead with a sorted simplex, Levenberg-Marquardt curve
fits, momentum descent on Rosenbrock, natural cubic splines evaluated with
``np.searchsorted``, Lagrange and Newton divided-difference interpolation, Romberg and
Gauss-Legendre quadrature (``np.polynomial.legendre.leggauss``), Dormand-Prince RK45
with step control, implicit Euler with Newton iterations, CSR matrices kept as (data,
indices, indptr) arrays, conjugate gradients, Jacobi/Gauss-Seidel/SOR, power and inverse
iteration, Gram-Schmidt and Householder QR, the QR algorithm, LU with partial pivoting
returning P, L, U, Savitzky-Golay coefficients and a finite-difference ``fsolve``.
Puzzles: grids parsed from lists of strings, low points and basins by flood fill with a
stack, flashing octopuses, Dijkstra with ``heapq`` on risk grids, BFS with a ``deque``
on height maps, seating and 3-d/4-d Conway cubes as Game-of-Life variants, tree
visibility, vents, bingo, lanternfish counts with ``np.roll``, crab fuel, binary
diagnostics with bit masks, paper folding with ``np.flip``, tile orientations with
``np.rot90`` and border codes, spin cycles repeated until a state seen before (keyed by
``tobytes()``), memory banks keyed by tuples, sea cucumbers, expanding galaxies with
``np.argwhere`` and cumulative sums, fuel cells by summed-area tables, rope knots,
register traces, lagoon areas by the shoelace formula, light grids, image enhancement
with 9-bit indices and knot hashes. Operations research and economics: value iteration
for a growth model on a grid, a Tauchen-discretised stochastic growth model, policy and
value iteration for MDPs, a gridworld with a dict of moves, a simplex tableau, Markov
chain stationary distributions and absorbing chains, (s, S) inventory and queue
simulations with a seeded ``RandomState``, newsvendor problems, Gale-Shapley matching,
greedy and Hungarian assignment, knapsack tables, Dijkstra and Bellman-Ford on cost
matrices, critical path scheduling, Wagner-Whitin lot sizing, Solow paths, McCall job
search, Gini coefficients, Leontief input-output models and Cournot best responses.
Each entry of CASES is (name, function, make_args, opts); make_args() returns the
arguments; opts {"rand": True} marks a function that draws random numbers without a
seed (compared by type, dtype and shape only)."""
import heapq
import math
from collections import deque

import numpy as np


# ---------------------------------------------------------------------------
# Ported from MATLAB / Octave
# ---------------------------------------------------------------------------

def F_circle_exp(x):
    F = np.zeros((2, 1))
    F[0] = x[0] ** 2 + x[1] ** 2 - 4
    F[1] = np.exp(x[0]) + x[1] - 1
    return F


def J_circle_exp(x):
    J = np.zeros((2, 2))
    J[0, 0] = 2 * x[0, 0]
    J[0, 1] = 2 * x[1, 0]
    J[1, 0] = np.exp(x[0, 0])
    J[1, 1] = 1
    return J


def F_three(x):
    return np.array([[3 * x[0, 0] - np.cos(x[1, 0] * x[2, 0]) - 0.5],
                     [x[0, 0] ** 2 - 81 * (x[1, 0] + 0.1) ** 2 + np.sin(x[2, 0]) + 1.06],
                     [np.exp(-x[0, 0] * x[1, 0]) + 20 * x[2, 0] + (10 * np.pi - 3) / 3]])


def J_three(x):
    x1, x2, x3 = x[0, 0], x[1, 0], x[2, 0]
    return np.array([[3, x3 * np.sin(x2 * x3), x2 * np.sin(x2 * x3)],
                     [2 * x1, -162 * (x2 + 0.1), np.cos(x3)],
                     [-x2 * np.exp(-x1 * x2), -x1 * np.exp(-x1 * x2), 20]])


def newton_sys(F, J, x0, tol=1e-10, maxit=50):
    """% Newton's method for nonlinear systems
    %   x = x0(:); dx = -(J(x) mldivide F(x))
    """
    x = np.reshape(np.array(x0, dtype=float), (-1, 1))
    it = 0
    err = np.inf
    while err > tol and it < maxit:
        dx = -np.linalg.solve(J(x), F(x))
        x = x + dx
        err = np.max(abs(dx))
        it = it + 1
    if it == maxit:
        print('Warning: maximum number of iterations reached')
    return x, it, err


def gauss_elim(A, b):
    """Gaussian elimination with partial pivoting (after an Octave lab sheet)."""
    n = np.size(A, 0)
    Ab = np.hstack((A.astype(float), np.reshape(b, (n, 1))))
    for k in range(1, n):
        p = np.argmax(abs(Ab[k - 1:n, k - 1])) + k
        if p != k:
            Ab[[k - 1, p - 1], :] = Ab[[p - 1, k - 1], :]
        for i in range(k + 1, n + 1):
            m = Ab[i - 1, k - 1] / Ab[k - 1, k - 1]
            Ab[i - 1, :] = Ab[i - 1, :] - m * Ab[k - 1, :]
    x = np.zeros((n, 1))
    x[n - 1] = Ab[n - 1, n] / Ab[n - 1, n - 1]
    for i in range(n - 1, 0, -1):
        x[i - 1] = (Ab[i - 1, n] - np.dot(Ab[i - 1, i:n], x[i:n])) / Ab[i - 1, i - 1]
    return x


def computeCost(X, y, theta):
    m = np.size(y, 0)
    J = 1 / (2 * m) * np.sum(np.square(np.dot(X, theta) - y))
    return J


def gradientDescentMulti(X, y, theta, alpha, num_iters):
    m = np.size(y, 0)
    J_history = np.zeros((num_iters, 1))
    for iter in range(num_iters):
        theta = theta - alpha / m * np.dot(X.T, np.dot(X, theta) - y)
        J_history[iter] = computeCost(X, y, theta)
    return theta, J_history


def ex1_multi(data, alpha=0.01, num_iters=400):
    X = data[:, 0:2]
    y = data[:, 2:3]
    m = np.size(y, 0)
    mu = np.mean(X, 0)
    sigma = np.std(X, 0, ddof=1)
    X_norm = (X - np.tile(mu, (m, 1))) / np.tile(sigma, (m, 1))
    X_norm = np.hstack((np.ones((m, 1)), X_norm))
    theta = np.zeros((3, 1))
    theta, J_history = gradientDescentMulti(X_norm, y, theta, alpha, num_iters)
    x_house = np.array([[1, (1650 - mu[0]) / sigma[0], (3 - mu[1]) / sigma[1]]])
    price = np.dot(x_house, theta)
    # normal equations on the raw features
    Xr = np.hstack((np.ones((m, 1)), X))
    theta_ne = np.dot(np.dot(np.linalg.pinv(np.dot(Xr.T, Xr)), Xr.T), y)
    price_ne = np.dot(np.array([[1, 1650, 3]]), theta_ne)
    return theta, J_history[-1], price, theta_ne, price_ne


def sigmoid(z):
    g = 1.0 / (1.0 + np.exp(-z))
    return g


def mapFeature(X1, X2, degree=6):
    out = np.ones((np.size(X1, 0), 1))
    for i in range(1, degree + 1):
        for j in range(0, i + 1):
            out = np.hstack((out, np.reshape(X1 ** (i - j) * X2 ** j, (-1, 1))))
    return out


def costFunctionReg(theta, X, y, lam):
    m = len(y)
    h = sigmoid(np.dot(X, theta))
    J = (1 / m) * (np.dot(-y.T, np.log(h)) - np.dot((1 - y).T, np.log(1 - h))) \
        + lam / (2 * m) * np.sum(theta[1:] ** 2)
    grad = (1 / m) * np.dot(X.T, h - y)
    grad[1:] = grad[1:] + lam / m * theta[1:]
    return J, grad


def ex2_reg(X1, X2, y, lam=1.0, alpha=1.0, num_iters=200):
    X = mapFeature(X1, X2)
    y = np.reshape(y, (-1, 1)).astype(float)
    initial_theta = np.zeros((np.size(X, 1), 1))
    cost0, grad0 = costFunctionReg(initial_theta, X, y, lam)
    theta = initial_theta
    for i in range(num_iters):
        J, grad = costFunctionReg(theta, X, y, lam)
        theta = theta - alpha * grad
    p = sigmoid(np.dot(X, theta)) >= 0.5
    acc = np.mean(np.double(p == y)) * 100
    return cost0[0, 0], J[0, 0], theta, acc


def vdp_rhs(t, y, mu=1.0):
    return np.vstack((y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]))


def lotka_rhs(t, y):
    a, b, c, d = 1.0, 0.1, 1.5, 0.075
    return np.array([[a * y[0, 0] - b * y[0, 0] * y[1, 0]],
                     [-c * y[1, 0] + d * y[0, 0] * y[1, 0]]])


def euler_ode(f, tspan, y0, h):
    t = tspan[0]
    y = np.reshape(np.array(y0, dtype=float), (-1, 1))
    T = np.array([t])
    Y = y
    while t < tspan[1] - h / 2:
        y = y + h * f(t, y)
        t = t + h
        T = np.hstack((T, t))
        Y = np.hstack((Y, y))
    return T, Y


def rk4_sys(f, a, b, y0, N):
    h = (b - a) / N
    m = np.size(y0)
    t = np.zeros((1, N + 1))
    Y = np.zeros((m, N + 1))
    t[0, 0] = a
    Y[:, 0:1] = np.reshape(y0, (m, 1))
    for i in range(1, N + 1):
        yi = Y[:, i - 1:i]
        k1 = h * f(t[0, i - 1], yi)
        k2 = h * f(t[0, i - 1] + h / 2, yi + k1 / 2)
        k3 = h * f(t[0, i - 1] + h / 2, yi + k2 / 2)
        k4 = h * f(t[0, i - 1] + h, yi + k3)
        Y[:, i:i + 1] = yi + (k1 + 2 * k2 + 2 * k3 + k4) / 6
        t[0, i] = a + i * h
    return t, Y


def polyval_horner(p, x):
    """% MATLAB ordering: p(1) is the highest power; returns p(x) and p'(x)"""
    n = np.size(p)
    y = p[0] * np.ones(np.shape(x))
    dy = np.zeros(np.shape(x))
    for i in range(2, n + 1):
        dy = dy * x + y
        y = y * x + p[i - 1]
    return y, dy


def conv_matlab(u, v):
    m = np.size(u)
    n = np.size(v)
    w = np.zeros(m + n - 1)
    for k in range(1, m + n):
        for j in range(max(1, k + 1 - n), min(k, m) + 1):
            w[k - 1] = w[k - 1] + u[j - 1] * v[k - j]
    return w


def filter_matlab(b, a, x):
    b = np.array(b, dtype=float) / a[0]
    a = np.array(a, dtype=float) / a[0]
    nb = len(b)
    na = len(a)
    N = np.size(x, 0)
    y = np.zeros(np.shape(x))
    for n in range(1, N + 1):
        for k in range(1, nb + 1):
            if n - k + 1 >= 1:
                y[n - 1] = y[n - 1] + b[k - 1] * x[n - k]
        for k in range(2, na + 1):
            if n - k + 1 >= 1:
                y[n - 1] = y[n - 1] - a[k - 1] * y[n - k]
    return y


def interp1_linear(x, y, xi):
    yi = np.zeros(np.shape(xi))
    yi[:] = np.nan
    n = np.size(x)
    for k in range(1, np.size(xi) + 1):
        idx = np.nonzero(x <= xi[k - 1])[0]
        if np.size(idx) == 0 or xi[k - 1] > x[n - 1]:
            continue
        j = idx[-1] + 1
        if j == n:
            yi[k - 1] = y[n - 1]
            continue
        t = (xi[k - 1] - x[j - 1]) / (x[j] - x[j - 1])
        yi[k - 1] = (1 - t) * y[j - 1] + t * y[j]
    return yi


def polyfit_normal(x, y, n):
    x = np.reshape(x, (-1, 1))
    y = np.reshape(y, (-1, 1))
    A = np.ones((np.size(x, 0), 1))
    for k in range(1, n + 1):
        A = np.hstack((x ** k, A))
    p = np.linalg.solve(np.dot(A.T, A), np.dot(A.T, y))
    r = y - np.dot(A, p)
    normr = np.sqrt(np.dot(r.T, r))
    return p.T, normr


def magic_odd(n):
    """Siamese method; M(1, (n+1)/2) = 1 and move up-right."""
    M = np.zeros((n, n), dtype=int)
    i = 1
    j = (n + 1) // 2
    for k in range(1, n * n + 1):
        M[i - 1, j - 1] = k
        i2 = np.mod(i - 2, n) + 1
        j2 = np.mod(j, n) + 1
        if M[i2 - 1, j2 - 1] != 0:
            i2 = np.mod(i, n) + 1
            j2 = j
        i = i2
        j = j2
    return M, np.sum(M, 0), np.sum(M, 1), np.trace(M), np.trace(np.fliplr(M))


def magic_formula(n):
    J, I = np.meshgrid(np.arange(1, n + 1), np.arange(1, n + 1))
    A = np.mod(I + J - (n + 3) / 2, n)
    B = np.mod(I + 2 * J - 2, n)
    M = n * A + B + 1
    return M


def julian_day(Y, M, D):
    a = np.fix((14 - M) / 12)
    y = Y + 4800 - a
    m = M + 12 * a - 3
    JDN = D + np.fix((153 * m + 2) / 5) + 365 * y + np.floor(y / 4) - np.floor(y / 100) \
        + np.floor(y / 400) - 32045
    return JDN


def calendar_info(dates):
    dates = np.array(dates)
    jd = julian_day(dates[:, 0], dates[:, 1], dates[:, 2])
    names = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']
    dow = np.mod(jd, 7)
    weekday = [names[int(d)] for d in dow]
    gaps = np.diff(jd)
    return jd, weekday, gaps


def sec2hms(t):
    t = np.asarray(t, dtype=float)
    s = np.sign(t)
    t = abs(t)
    h = np.fix(t / 3600)
    m = np.fix(np.mod(t, 3600) / 60)
    sec = np.mod(t, 60)
    return s * h, m, np.round(sec, 3)


def chol_lower(A):
    n = np.size(A, 0)
    L = np.zeros((n, n))
    for j in range(1, n + 1):
        s = A[j - 1, j - 1] - np.dot(L[j - 1, 0:j - 1], L[j - 1, 0:j - 1])
        if s <= 0:
            raise ValueError('Matrix must be positive definite')
        L[j - 1, j - 1] = np.sqrt(s)
        for i in range(j + 1, n + 1):
            L[i - 1, j - 1] = (A[i - 1, j - 1] - np.dot(L[i - 1, 0:j - 1], L[j - 1, 0:j - 1])) \
                / L[j - 1, j - 1]
    return L


def chol_solve(A, b):
    try:
        L = chol_lower(A)
    except ValueError:
        x = np.linalg.lstsq(A, b, rcond=None)[0]
        return x, False
    y = np.linalg.solve(L, b)
    x = np.linalg.solve(L.T, y)
    return x, True


def thomas(a, b, c, d):
    """% a: sub-diagonal (a(1) unused), b: diagonal, c: super-diagonal (c(n) unused)"""
    n = np.size(d)
    cp = np.zeros(n)
    dp = np.zeros(n)
    cp[0] = c[0] / b[0]
    dp[0] = d[0] / b[0]
    for i in range(2, n + 1):
        den = b[i - 1] - a[i - 1] * cp[i - 2]
        cp[i - 1] = c[i - 1] / den
        dp[i - 1] = (d[i - 1] - a[i - 1] * dp[i - 2]) / den
    x = np.zeros(n)
    x[n - 1] = dp[n - 1]
    for i in range(n - 1, 0, -1):
        x[i - 1] = dp[i - 1] - cp[i - 1] * x[i]
    return x


def heat_cn(L, T, nx, nt, alpha):
    dx = L / (nx - 1)
    dt = T / nt
    r = alpha * dt / dx ** 2
    x = np.reshape(np.linspace(0, L, nx), (nx, 1))
    u = np.sin(np.pi * x / L)
    A = np.diag((1 + r) * np.ones(nx - 2)) + np.diag(-r / 2 * np.ones(nx - 3), 1) \
        + np.diag(-r / 2 * np.ones(nx - 3), -1)
    B = np.diag((1 - r) * np.ones(nx - 2)) + np.diag(r / 2 * np.ones(nx - 3), 1) \
        + np.diag(r / 2 * np.ones(nx - 3), -1)
    Ainv = np.linalg.inv(A)
    U = u
    for n in range(1, nt + 1):
        u = np.vstack(([[0.0]], np.dot(Ainv, np.dot(B, u[1:nx - 1])), [[0.0]]))
        if np.mod(n, 10) == 0:
            U = np.hstack((U, u))
    exact = np.exp(-alpha * (np.pi / L) ** 2 * T) * np.sin(np.pi * x / L)
    err = np.max(abs(u - exact))
    return U, err


def pagerank_moler(G, p=0.85, method='power'):
    n = np.size(G, 0)
    c = np.sum(G, 0)
    k = np.nonzero(c != 0)[0]
    D = np.zeros((n, n))
    D[k, k] = 1.0 / c[k]
    e = np.ones((n, 1))
    if method == 'power':
        z = ((1 - p) * (c != 0) + (c == 0)) / n
        A = p * np.dot(G, D) + np.dot(e, np.reshape(z, (1, n)))
        x = e / n
        oldx = np.zeros((n, 1))
        cnt = 0
        while np.max(abs(x - oldx)) > 0.0001:
            oldx = x
            x = np.dot(A, x)
            cnt = cnt + 1
    else:
        x = np.linalg.solve(np.eye(n) - p * np.dot(G, D), e)
        cnt = 0
    x = x / np.sum(x)
    return x, cnt


def findClosestCentroids(X, centroids):
    K = np.size(centroids, 0)
    idx = np.zeros((np.size(X, 0), 1), dtype=int)
    for i in range(1, np.size(X, 0) + 1):
        d = np.sum((np.tile(X[i - 1, :], (K, 1)) - centroids) ** 2, 1)
        idx[i - 1] = np.argmin(d) + 1
    return idx


def computeCentroids(X, idx, K):
    m, n = np.shape(X)
    centroids = np.zeros((K, n))
    for k in range(1, K + 1):
        sel = np.nonzero(idx[:, 0] == k)[0]
        centroids[k - 1, :] = np.mean(X[sel, :], 0)
    return centroids


def runkMeans(X, initial_centroids, max_iters):
    K = np.size(initial_centroids, 0)
    centroids = initial_centroids
    previous_centroids = centroids
    for i in range(1, max_iters + 1):
        idx = findClosestCentroids(X, centroids)
        centroids = computeCentroids(X, idx, K)
        if np.max(abs(centroids - previous_centroids)) < np.finfo(float).eps:
            break
        previous_centroids = centroids
    return centroids, idx, i


def logistic32(x):
    return 3.2 * x * (1 - x)


def fixed_point(g, x0, tol=1e-8, maxit=100):
    x = x0
    it = 0
    err = 1
    tab = np.array([[0, x0, np.nan]])
    while err > tol and it < maxit:
        xnew = g(x)
        err = abs(xnew - x)
        x = xnew
        it = it + 1
        tab = np.vstack((tab, [it, x, err]))
    flag = err <= tol
    return x, it, flag, tab


def dft_matrix(xn):
    N = np.size(xn)
    n = np.reshape(np.arange(0, N), (1, N))
    k = n.T
    WN = np.exp(-1j * 2 * np.pi / N)
    nk = np.dot(k, n)
    WNnk = WN ** nk
    Xk = np.dot(np.reshape(xn, (1, N)), WNnk)
    mag = abs(Xk)
    ph = np.angle(Xk)
    ph[mag < 1e-9] = 0
    xr = np.real(np.dot(Xk, np.conj(WNnk)) / N)
    return Xk, mag, ph, xr


# ---------------------------------------------------------------------------
# SciPy routines written out by hand
# ---------------------------------------------------------------------------

def cubic(x):
    return x ** 3 - 2 * x - 5


def cubic_prime(x):
    return 3 * x ** 2 - 2


def kepler(E, M=1.2, e=0.3):
    return E - e * math.sin(E) - M


def kepler_prime(E, M=1.2, e=0.3):
    return 1 - e * math.cos(E)


def cycling_poly(x):
    return x ** 3 - 2 * x + 2


def cycling_poly_prime(x):
    return 3 * x ** 2 - 2


def bisect(f, a, b, xtol=2e-12, rtol=8.881784197001252e-16, maxiter=100):
    fa = f(a)
    fb = f(b)
    if fa * fb > 0:
        raise ValueError("f(a) and f(b) must have different signs")
    for i in range(1, maxiter + 1):
        m = a + (b - a) / 2
        fm = f(m)
        if fm == 0 or (b - a) / 2 < xtol + rtol * abs(m):
            return m, i, True
        if np.sign(fm) == np.sign(fa):
            a, fa = m, fm
        else:
            b, fb = m, fm
    return m, maxiter, False


def brentq(f, xa, xb, xtol=2e-12, rtol=4 * np.finfo(float).eps, maxiter=100, args=()):
    """Port of scipy's brentq.c."""
    xpre, xcur = xa, xb
    xblk = fblk = spre = scur = 0.0
    fpre = f(xpre, *args)
    fcur = f(xcur, *args)
    funcalls = 2
    if fpre * fcur > 0:
        raise ValueError("f(a) and f(b) must have different signs")
    if fpre == 0:
        return xpre, 0, funcalls
    if fcur == 0:
        return xcur, 0, funcalls
    iterations = 0
    for i in range(maxiter):
        iterations += 1
        if fpre != 0 and fcur != 0 and (np.signbit(fpre) != np.signbit(fcur)):
            xblk = xpre
            fblk = fpre
            spre = scur = xcur - xpre
        if abs(fblk) < abs(fcur):
            xpre = xcur
            xcur = xblk
            xblk = xpre
            fpre = fcur
            fcur = fblk
            fblk = fpre
        delta = (xtol + rtol * abs(xcur)) / 2
        sbis = (xblk - xcur) / 2
        if fcur == 0 or abs(sbis) < delta:
            return xcur, iterations, funcalls
        if abs(spre) > delta and abs(fcur) < abs(fpre):
            if xpre == xblk:
                stry = -fcur * (xcur - xpre) / (fcur - fpre)
            else:
                dpre = (fpre - fcur) / (xpre - xcur)
                dblk = (fblk - fcur) / (xblk - xcur)
                stry = -fcur * (fblk * dblk - fpre * dpre) / (dblk * dpre * (fblk - fpre))
            if 2 * abs(stry) < min(abs(spre), 3 * abs(sbis) - delta):
                spre = scur
                scur = stry
            else:
                spre = sbis
                scur = sbis
        else:
            spre = sbis
            scur = sbis
        xpre = xcur
        fpre = fcur
        if abs(scur) > delta:
            xcur += scur
        else:
            xcur += delta if sbis > 0 else -delta
        fcur = f(xcur, *args)
        funcalls += 1
    return xcur, iterations, funcalls


def secant(f, x0, x1, tol=1e-12, maxiter=50):
    f0, f1 = f(x0), f(x1)
    for k in range(1, maxiter + 1):
        if f1 == f0:
            return x1, k, False
        x2 = x1 - f1 * (x1 - x0) / (f1 - f0)
        if abs(x2 - x1) < tol * (1 + abs(x2)):
            return x2, k, True
        x0, f0 = x1, f1
        x1, f1 = x2, f(x2)
    return x1, maxiter, False


def newton(f, x0, fprime=None, tol=1.48e-8, maxiter=50):
    if fprime is None:
        # fall back to the secant method like scipy.optimize.newton
        eps = 1e-4
        x1 = x0 * (1 + eps) + (eps if x0 >= 0 else -eps)
        return secant(f, x0, x1, tol, maxiter)
    x = x0
    for k in range(1, maxiter + 1):
        fx = f(x)
        d = fprime(x)
        if d == 0:
            return x, k, False
        step = fx / d
        x = x - step
        if abs(step) < tol:
            return x, k, True
    return x, maxiter, False


def find_root(f, a, b=None, method="brentq", fprime=None, **kw):
    if method == "bisect":
        root, it, ok = bisect(f, a, b, **kw)
        calls = it + 2
    elif method == "brentq":
        root, it, calls = brentq(f, a, b, **kw)
        ok = True
    elif method == "secant":
        root, it, ok = secant(f, a, b, **kw)
        calls = it + 2
    elif method == "newton":
        root, it, ok = newton(f, a, fprime=fprime, **kw)
        calls = 2 * it if fprime is not None else it + 2
    else:
        raise ValueError("unknown method %r" % method)
    return {"root": root, "iterations": it, "function_calls": calls, "converged": bool(ok),
            "method": method, "residual": abs(f(root))}


def bracket_root(f, x0, step=0.5, grow=1.6, max_expand=20):
    a, b = x0 - step, x0 + step
    for k in range(max_expand):
        try:
            root, it, calls = brentq(f, a, b)
            return root, (a, b), k
        except ValueError:
            a, b = a - step * grow ** k, b + step * grow ** k
    return None, (a, b), max_expand


def no_real_root(x):
    return x * x + 1.0


def golden_section(f, a, b, tol=1e-8, maxiter=200):
    invphi = (math.sqrt(5) - 1) / 2
    c = b - invphi * (b - a)
    d = a + invphi * (b - a)
    fc, fd = f(c), f(d)
    n = 0
    while abs(b - a) > tol * (abs(c) + abs(d)) and n < maxiter:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - invphi * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + invphi * (b - a)
            fd = f(d)
        n += 1
    xmin = (a + b) / 2
    return xmin, f(xmin), n


def brent_min(f, ax, bx, cx, tol=1.48e-8, maxiter=500):
    """Brent's method with parabolic steps, after Numerical Recipes' brent()."""
    CGOLD = 0.3819660
    ZEPS = 1.0e-11
    a = min(ax, cx)
    b = max(ax, cx)
    x = w = v = bx
    fw = fv = fx = f(x)
    d = e = 0.0
    for it in range(1, maxiter + 1):
        xm = 0.5 * (a + b)
        tol1 = tol * abs(x) + ZEPS
        tol2 = 2.0 * tol1
        if abs(x - xm) <= (tol2 - 0.5 * (b - a)):
            return x, fx, it
        if abs(e) > tol1:
            r = (x - w) * (fx - fv)
            q = (x - v) * (fx - fw)
            p = (x - v) * q - (x - w) * r
            q = 2.0 * (q - r)
            if q > 0.0:
                p = -p
            q = abs(q)
            etemp = e
            e = d
            if abs(p) >= abs(0.5 * q * etemp) or p <= q * (a - x) or p >= q * (b - x):
                e = (a - x) if x >= xm else (b - x)
                d = CGOLD * e
            else:
                d = p / q
                u = x + d
                if u - a < tol2 or b - u < tol2:
                    d = math.copysign(tol1, xm - x)
        else:
            e = (a - x) if x >= xm else (b - x)
            d = CGOLD * e
        u = x + d if abs(d) >= tol1 else x + math.copysign(tol1, d)
        fu = f(u)
        if fu <= fx:
            if u >= x:
                a = x
            else:
                b = x
            v, w, x = w, x, u
            fv, fw, fx = fw, fx, fu
        else:
            if u < x:
                a = u
            else:
                b = u
            if fu <= fw or w == x:
                v, w = w, u
                fv, fw = fw, fu
            elif fu <= fv or v == x or v == w:
                v = u
                fv = fu
    return x, fx, maxiter


def bumpy(x):
    return math.sin(3 * x) + (x - 0.7) ** 2


def rosen(x):
    return np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


def rosen_der(x):
    xm = x[1:-1]
    xm_m1 = x[:-2]
    xm_p1 = x[2:]
    der = np.zeros_like(x)
    der[1:-1] = 200 * (xm - xm_m1 ** 2) - 400 * (xm_p1 - xm ** 2) * xm - 2 * (1 - xm)
    der[0] = -400 * x[0] * (x[1] - x[0] ** 2) - 2 * (1 - x[0])
    der[-1] = 200 * (x[-1] - x[-2] ** 2)
    return der


def himmelblau(p):
    x, y = p
    return (x ** 2 + y - 11) ** 2 + (x + y ** 2 - 7) ** 2


def himmelblau_grad(p):
    x, y = p
    return np.array([4 * x * (x ** 2 + y - 11) + 2 * (x + y ** 2 - 7),
                     2 * (x ** 2 + y - 11) + 4 * y * (x + y ** 2 - 7)])


def bfgs(f, grad, x0, gtol=1e-6, maxiter=200, c1=1e-4, shrink=0.5):
    x = np.asarray(x0, dtype=float)
    n = len(x)
    I = np.eye(n)
    H = I.copy()
    g = grad(x)
    fx = f(x)
    history = [fx]
    k = 0
    while np.linalg.norm(g) > gtol and k < maxiter:
        p = -H @ g
        alpha = 1.0
        # backtracking until the Armijo condition holds
        while f(x + alpha * p) > fx + c1 * alpha * (g @ p):
            alpha *= shrink
            if alpha < 1e-10:
                break
        s = alpha * p
        x_new = x + s
        g_new = grad(x_new)
        y = g_new - g
        sy = y @ s
        if sy > 1e-12:
            rho = 1.0 / sy
            H = (I - rho * np.outer(s, y)) @ H @ (I - rho * np.outer(y, s)) + rho * np.outer(s, s)
        x, g = x_new, g_new
        fx = f(x)
        history.append(fx)
        k += 1
    return {"x": x, "fun": fx, "jac": g, "hess_inv": H, "nit": k,
            "success": bool(np.linalg.norm(g) <= gtol), "history": np.array(history)}


def nelder_mead(f, x0, xatol=1e-8, fatol=1e-8, maxiter=None, adaptive=False):
    x0 = np.asarray(x0, dtype=float)
    n = len(x0)
    if maxiter is None:
        maxiter = 200 * n
    if adaptive:
        rho, chi, psi, sigma = 1, 1 + 2 / n, 0.75 - 1 / (2 * n), 1 - 1 / n
    else:
        rho, chi, psi, sigma = 1, 2, 0.5, 0.5
    sim = np.empty((n + 1, n))
    sim[0] = x0
    for k in range(n):
        y = np.array(x0, copy=True)
        y[k] = (1 + 0.05) * y[k] if y[k] != 0 else 0.00025
        sim[k + 1] = y
    fsim = np.array([f(s) for s in sim])
    iterations = 0
    nfev = n + 1
    while iterations < maxiter:
        order = np.argsort(fsim)
        sim = sim[order]
        fsim = fsim[order]
        if (np.max(np.abs(sim[1:] - sim[0])) <= xatol
                and np.max(np.abs(fsim[0] - fsim[1:])) <= fatol):
            break
        xbar = np.mean(sim[:-1], axis=0)
        xr = (1 + rho) * xbar - rho * sim[-1]
        fxr = f(xr)
        nfev += 1
        shrink = False
        if fxr < fsim[0]:
            xe = (1 + rho * chi) * xbar - rho * chi * sim[-1]
            fxe = f(xe)
            nfev += 1
            if fxe < fxr:
                sim[-1], fsim[-1] = xe, fxe
            else:
                sim[-1], fsim[-1] = xr, fxr
        elif fxr < fsim[-2]:
            sim[-1], fsim[-1] = xr, fxr
        else:
            if fxr < fsim[-1]:
                xc = (1 + psi * rho) * xbar - psi * rho * sim[-1]
                fxc = f(xc)
                nfev += 1
                if fxc <= fxr:
                    sim[-1], fsim[-1] = xc, fxc
                else:
                    shrink = True
            else:
                xcc = (1 - psi) * xbar + psi * sim[-1]
                fxcc = f(xcc)
                nfev += 1
                if fxcc < fsim[-1]:
                    sim[-1], fsim[-1] = xcc, fxcc
                else:
                    shrink = True
            if shrink:
                for j in range(1, n + 1):
                    sim[j] = sim[0] + sigma * (sim[j] - sim[0])
                    fsim[j] = f(sim[j])
                    nfev += 1
        iterations += 1
    return sim[0], fsim[0], iterations, nfev


def nelder_mead_restarts(f, lower, upper, n_starts=5):
    lower = np.asarray(lower, dtype=float)
    upper = np.asarray(upper, dtype=float)
    best_x, best_f = None, np.inf
    for _ in range(n_starts):
        x0 = lower + (upper - lower) * np.random.rand(len(lower))
        x, fx, _, _ = nelder_mead(f, x0, maxiter=300)
        if fx < best_f:
            best_x, best_f = x, fx
    return best_x, best_f


def exp_decay(x, p):
    return p[0] * np.exp(-p[1] * x) + p[2]


def exp_decay_jac(x, p):
    e = np.exp(-p[1] * x)
    return np.column_stack([e, -p[0] * x * e, np.ones_like(x)])


def gauss_peak(x, p):
    return p[0] * np.exp(-0.5 * ((x - p[1]) / p[2]) ** 2)


def gauss_peak_jac(x, p):
    z = (x - p[1]) / p[2]
    g = np.exp(-0.5 * z ** 2)
    return np.column_stack([g, p[0] * g * z / p[2], p[0] * g * z ** 2 / p[2]])


def levenberg_marquardt(model, jac, p0, x, y, lam=1e-2, tol=1e-10, maxiter=100):
    p = np.array(p0, dtype=float)
    r = y - model(x, p)
    cost = r @ r
    for it in range(1, maxiter + 1):
        J = jac(x, p)
        A = J.T @ J
        g = J.T @ r
        dp = np.linalg.solve(A + lam * np.diag(np.diag(A)), g)
        p_new = p + dp
        r_new = y - model(x, p_new)
        cost_new = r_new @ r_new
        if cost_new < cost:
            done = (cost - cost_new) < tol * cost
            p, r, cost = p_new, r_new, cost_new
            lam = lam / 10
            if done:
                break
        else:
            lam = lam * 10
    J = jac(x, p)
    dof = len(y) - len(p)
    cov = np.linalg.inv(J.T @ J) * cost / dof
    return p, np.sqrt(np.diag(cov)), cost, it


def momentum_descent(grad, x0, lr=1e-3, beta=0.9, n_iter=2000, nesterov=False):
    x = np.array(x0, dtype=float)
    v = np.zeros_like(x)
    path = [x.copy()]
    for i in range(n_iter):
        if nesterov:
            g = grad(x + beta * v)
        else:
            g = grad(x)
        v = beta * v - lr * g
        x = x + v
        path.append(x.copy())
    path = np.array(path)
    return x, path[::100], np.linalg.norm(grad(x))


def natural_cubic_spline(x, y):
    n = len(x) - 1
    h = np.diff(x)
    A = np.zeros((n + 1, n + 1))
    rhs = np.zeros(n + 1)
    A[0, 0] = 1.0
    A[n, n] = 1.0
    for i in range(1, n):
        A[i, i - 1] = h[i - 1]
        A[i, i] = 2 * (h[i - 1] + h[i])
        A[i, i + 1] = h[i]
        rhs[i] = 3 * ((y[i + 1] - y[i]) / h[i] - (y[i] - y[i - 1]) / h[i - 1])
    c = np.linalg.solve(A, rhs)
    b = (y[1:] - y[:-1]) / h - h * (2 * c[:-1] + c[1:]) / 3
    d = (c[1:] - c[:-1]) / (3 * h)
    return y[:-1], b, c[:-1], d


def spline_eval(x, coeffs, xq):
    a, b, c, d = coeffs
    i = np.searchsorted(x, xq, side="right") - 1
    i = np.clip(i, 0, len(x) - 2)
    dx = xq - x[i]
    return a[i] + dx * (b[i] + dx * (c[i] + dx * d[i]))


def spline_interpolate(x, y, xq):
    coeffs = natural_cubic_spline(x, y)
    yq = spline_eval(x, coeffs, xq)
    return yq, np.vstack(coeffs).T


def lagrange_interp(xk, yk, xq):
    xq = np.atleast_1d(np.asarray(xq, dtype=float))
    result = np.zeros_like(xq)
    n = len(xk)
    for j in range(n):
        Lj = np.ones_like(xq)
        for m in range(n):
            if m != j:
                Lj *= (xq - xk[m]) / (xk[j] - xk[m])
        result += yk[j] * Lj
    return result


def runge_nodes(n, kind="equispaced"):
    if kind == "chebyshev":
        x = np.cos((2 * np.arange(n) + 1) * np.pi / (2 * n))
    else:
        x = np.linspace(-1, 1, n)
    y = 1 / (1 + 25 * x ** 2)
    xq = np.linspace(-1, 1, 41)
    err = np.max(np.abs(lagrange_interp(x, y, xq) - 1 / (1 + 25 * xq ** 2)))
    return x, err


def divided_differences(x, y):
    n = len(x)
    coef = np.array(y, dtype=float)
    for j in range(1, n):
        coef[j:n] = (coef[j:n] - coef[j - 1:n - 1]) / (x[j:n] - x[0:n - j])
    return coef


def newton_interp(x, y, xq):
    coef = divided_differences(x, y)
    n = len(coef) - 1
    p = coef[n]
    for k in range(1, n + 1):
        p = coef[n - k] + (xq - x[n - k]) * p
    return coef, p


def gauss_bell(x):
    return np.exp(-x ** 2)


def romberg(f, a, b, tol=1e-10, max_levels=20):
    R = np.zeros((max_levels, max_levels))
    h = b - a
    R[0, 0] = 0.5 * h * (f(a) + f(b))
    for i in range(1, max_levels):
        h /= 2
        k = np.arange(1, 2 ** i, 2)
        R[i, 0] = 0.5 * R[i - 1, 0] + h * np.sum(f(a + k * h))
        for j in range(1, i + 1):
            R[i, j] = R[i, j - 1] + (R[i, j - 1] - R[i - 1, j - 1]) / (4 ** j - 1)
        if abs(R[i, i] - R[i - 1, i - 1]) < tol:
            return R[i, i], i + 1, R[:i + 1, :i + 1]
    return R[-1, -1], max_levels, R


def gauss_legendre(f, a, b, n=5, panels=1):
    xg, wg = np.polynomial.legendre.leggauss(n)
    edges = np.linspace(a, b, panels + 1)
    total = 0.0
    for lo, hi in zip(edges[:-1], edges[1:]):
        mid, half = (hi + lo) / 2, (hi - lo) / 2
        total += half * np.sum(wg * f(mid + half * xg))
    return total


def gauss_legendre_2d(f, ax, bx, ay, by, n=8):
    x, w = np.polynomial.legendre.leggauss(n)
    X = 0.5 * (bx - ax) * x + 0.5 * (bx + ax)
    Y = 0.5 * (by - ay) * x + 0.5 * (by + ay)
    XX, YY = np.meshgrid(X, Y, indexing="ij")
    W = np.outer(w, w) * 0.25 * (bx - ax) * (by - ay)
    return np.sum(W * f(XX, YY))


def peaks2d(x, y):
    return np.exp(-x * y) * np.cos(np.pi * x) ** 2 + y


def quadrature_table(f, a, b, exact, orders=(2, 4, 8, 16)):
    rows = []
    for n in orders:
        q = gauss_legendre(f, a, b, n)
        rows.append((n, q, abs(q - exact)))
    r, levels, _ = romberg(f, a, b, tol=1e-12)
    rows.append(("romberg", r, abs(r - exact)))
    return rows


def osc_rhs(t, y):
    return np.array([y[1], -y[0]])


def lotka_volterra(t, z, a=1.5, b=1.0, c=3.0, d=1.0):
    x, y = z
    return np.array([a * x - b * x * y, -c * y + d * x * y])


def vdp(t, y, mu=1.0):
    return np.array([y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]])


DP_C = np.array([0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1, 1])
DP_A = [[],
        [1 / 5],
        [3 / 40, 9 / 40],
        [44 / 45, -56 / 15, 32 / 9],
        [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729],
        [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656],
        [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84]]
DP_B5 = np.array([35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0])
DP_B4 = np.array([5179 / 57600, 0, 7571 / 16695, 393 / 640, -92097 / 339200, 187 / 2100,
                  1 / 40])


def rk45(f, t_span, y0, rtol=1e-6, atol=1e-9, h0=None, max_steps=5000):
    t, t_end = t_span
    y = np.array(y0, dtype=float)
    h = h0 if h0 is not None else 0.01 * (t_end - t)
    ts, ys = [t], [y.copy()]
    n_rejected = 0
    steps = 0
    K = np.zeros((7, len(y)))
    while t < t_end and steps < max_steps:
        h = min(h, t_end - t)
        for i in range(7):
            K[i] = f(t + DP_C[i] * h, y + h * np.dot(DP_A[i], K[:i]))
        y5 = y + h * (DP_B5 @ K)
        y4 = y + h * (DP_B4 @ K)
        scale = atol + rtol * np.maximum(np.abs(y), np.abs(y5))
        err = np.sqrt(np.mean(((y5 - y4) / scale) ** 2))
        if err <= 1.0:
            t = t + h
            y = y5
            ts.append(t)
            ys.append(y.copy())
        else:
            n_rejected += 1
        factor = 5.0 if err == 0 else min(5.0, max(0.2, 0.9 * err ** -0.2))
        h = h * factor
        steps += 1
    return np.array(ts), np.array(ys), n_rejected


def robertson(t, y):
    return np.array([-0.04 * y[0] + 1e4 * y[1] * y[2],
                     0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] ** 2,
                     3e7 * y[1] ** 2])


def robertson_jac(t, y):
    return np.array([[-0.04, 1e4 * y[2], 1e4 * y[1]],
                     [0.04, -1e4 * y[2] - 6e7 * y[1], -1e4 * y[1]],
                     [0.0, 6e7 * y[1], 0.0]])


def vdp_stiff(t, y):
    return np.array([y[1], 100.0 * (1 - y[0] ** 2) * y[1] - y[0]])


def vdp_stiff_jac(t, y):
    return np.array([[0.0, 1.0], [-200.0 * y[0] * y[1] - 1.0, 100.0 * (1 - y[0] ** 2)]])


def implicit_euler(f, jac, y0, t0, t1, n, tol=1e-10, max_newton=20):
    h = (t1 - t0) / n
    y = np.array(y0, dtype=float)
    m = len(y)
    I = np.eye(m)
    Y = np.zeros((n + 1, m))
    Y[0] = y
    newton_its = np.zeros(n, dtype=int)
    for k in range(n):
        t = t0 + (k + 1) * h
        z = y.copy()
        for it in range(max_newton):
            G = z - y - h * f(t, z)
            dz = np.linalg.solve(I - h * jac(t, z), -G)
            z = z + dz
            if np.linalg.norm(dz) < tol * (1 + np.linalg.norm(z)):
                break
        newton_its[k] = it + 1
        y = z
        Y[k + 1] = y
    return Y, newton_its


def dense_to_csr(A, tol=0.0):
    data, indices, indptr = [], [], [0]
    for row in A:
        for j, v in enumerate(row):
            if abs(v) > tol:
                data.append(v)
                indices.append(j)
        indptr.append(len(data))
    return np.array(data, dtype=A.dtype), np.array(indices, dtype=np.int32), \
        np.array(indptr, dtype=np.int32)


def csr_matvec(data, indices, indptr, x):
    n = len(indptr) - 1
    y = np.zeros(n, dtype=np.result_type(data, x))
    for i in range(n):
        s = 0
        for k in range(indptr[i], indptr[i + 1]):
            s += data[k] * x[indices[k]]
        y[i] = s
    return y


def csr_matvec_fast(data, indices, indptr, x):
    n = len(indptr) - 1
    rows = np.repeat(np.arange(n), np.diff(indptr))
    return np.bincount(rows, weights=data * x[indices], minlength=n)


def csr_roundtrip(A, x):
    data, indices, indptr = dense_to_csr(A)
    y1 = csr_matvec(data, indices, indptr, x)
    y2 = csr_matvec_fast(data, indices, indptr, x)
    return y1, y2, A @ x, len(data) / A.size


def poisson2d_csr(n):
    """5-point Laplacian on an n x n grid, Dirichlet boundary, as CSR arrays."""
    N = n * n
    data, indices, indptr = [], [], [0]
    for i in range(n):
        for j in range(n):
            row = i * n + j
            for di, dj, v in ((-1, 0, -1.0), (0, -1, -1.0), (0, 0, 4.0), (0, 1, -1.0),
                              (1, 0, -1.0)):
                ii, jj = i + di, j + dj
                if 0 <= ii < n and 0 <= jj < n:
                    data.append(v)
                    indices.append(ii * n + jj)
            indptr.append(len(data))
    return np.array(data), np.array(indices), np.array(indptr), N


def conjugate_gradient(A, b, x0=None, tol=1e-10, maxiter=None):
    matvec = A if callable(A) else (lambda v: A @ v)
    b = np.asarray(b, dtype=float)
    x = np.zeros_like(b) if x0 is None else np.array(x0, dtype=float)
    if maxiter is None:
        maxiter = 10 * len(b)
    r = b - matvec(x)
    p = r.copy()
    rs = r @ r
    history = [math.sqrt(rs)]
    k = 0
    while k < maxiter and math.sqrt(rs) > tol * np.linalg.norm(b):
        Ap = matvec(p)
        alpha = rs / (p @ Ap)
        x += alpha * p
        r -= alpha * Ap
        rs_new = r @ r
        p = r + (rs_new / rs) * p
        rs = rs_new
        history.append(math.sqrt(rs))
        k += 1
    return x, k, history


def poisson_cg(n, maxiter=None):
    data, indices, indptr, N = poisson2d_csr(n)
    b = np.ones(N) / (n + 1) ** 2
    x, k, hist = conjugate_gradient(lambda v: csr_matvec_fast(data, indices, indptr, v), b,
                                    maxiter=maxiter)
    return x.reshape(n, n), k, hist[-1]


def stationary_solve(A, b, method="jacobi", omega=1.0, tol=1e-8, maxiter=500):
    A = np.asarray(A, dtype=float)
    b = np.asarray(b, dtype=float)
    n = len(b)
    x = np.zeros(n)
    D = np.diag(A)
    R = A - np.diagflat(D)
    for it in range(1, maxiter + 1):
        x_old = x.copy()
        if method == "jacobi":
            x = (b - R @ x) / D
        elif method in ("gauss-seidel", "sor"):
            w = 1.0 if method == "gauss-seidel" else omega
            for i in range(n):
                s = b[i] - A[i, :i] @ x[:i] - A[i, i + 1:] @ x[i + 1:]
                x[i] = (1 - w) * x[i] + w * s / A[i, i]
        else:
            raise ValueError(method)
        if np.linalg.norm(x - x_old, np.inf) < tol * max(1.0, np.linalg.norm(x, np.inf)):
            return x, it, True
    return x, maxiter, False


def power_iteration(A, tol=1e-10, maxiter=1000):
    n = A.shape[0]
    v = np.ones(n) / np.sqrt(n)
    lam = v @ A @ v
    for k in range(1, maxiter + 1):
        w = A @ v
        v = w / np.linalg.norm(w)
        lam_new = v @ A @ v
        if abs(lam_new - lam) < tol * abs(lam_new):
            return lam_new, v, k
        lam = lam_new
    return lam, v, maxiter


def inverse_iteration(A, mu, tol=1e-12, maxiter=100):
    n = A.shape[0]
    v = np.ones(n) / np.sqrt(n)
    M = A - mu * np.eye(n)
    lam = mu
    for k in range(1, maxiter + 1):
        try:
            w = np.linalg.solve(M, v)
        except np.linalg.LinAlgError:
            # shift is an eigenvalue: nudge it
            M = A - (mu + 1e3 * np.finfo(float).eps * max(1.0, abs(mu))) * np.eye(n)
            w = np.linalg.solve(M, v)
        v_new = w / np.linalg.norm(w)
        if v_new @ v < 0:
            v_new = -v_new
        lam = v_new @ A @ v_new
        if np.linalg.norm(v_new - v) < tol:
            return lam, v_new, k
        v = v_new
    return lam, v, maxiter


def gram_schmidt_qr(A, modified=True):
    m, n = A.shape
    Q = np.zeros((m, n))
    R = np.zeros((n, n))
    V = A.astype(float).copy()
    for j in range(n):
        if modified:
            v = V[:, j]
        else:
            v = A[:, j].astype(float)
            for i in range(j):
                R[i, j] = Q[:, i] @ A[:, j]
                v = v - R[i, j] * Q[:, i]
        R[j, j] = np.linalg.norm(v)
        Q[:, j] = v / R[j, j]
        if modified:
            for k in range(j + 1, n):
                R[j, k] = Q[:, j] @ V[:, k]
                V[:, k] = V[:, k] - R[j, k] * Q[:, j]
    return Q, R, np.linalg.norm(Q.T @ Q - np.eye(n))


def qr_algorithm(A, tol=1e-10, maxiter=500):
    Ak = np.array(A, dtype=float)
    n = Ak.shape[0]
    for k in range(1, maxiter + 1):
        Q, R, _ = gram_schmidt_qr(Ak)
        Ak = R @ Q
        if np.max(np.abs(np.tril(Ak, -1))) < tol:
            break
    return np.sort(np.diag(Ak))[::-1], k


def householder_qr(A):
    A = np.array(A, dtype=float)
    m, n = A.shape
    Q = np.eye(m)
    R = A.copy()
    for k in range(min(m - 1, n)):
        x = R[k:, k]
        e1 = np.zeros_like(x)
        e1[0] = 1.0
        alpha = -np.sign(x[0]) * np.linalg.norm(x) if x[0] != 0 else -np.linalg.norm(x)
        v = x - alpha * e1
        nv = np.linalg.norm(v)
        if nv == 0:
            continue
        v = v / nv
        R[k:, :] -= 2.0 * np.outer(v, v @ R[k:, :])
        Q[:, k:] -= 2.0 * np.outer(Q[:, k:] @ v, v)
    return Q, R


def householder_lstsq(A, b):
    Q, R = householder_qr(A)
    n = A.shape[1]
    x = np.linalg.solve(R[:n, :n], (Q.T @ b)[:n])
    return x, np.linalg.norm(A @ x - b)


def lu_partial_pivot(A):
    """Returns P, L, U with A = P @ L @ U (scipy.linalg.lu convention)."""
    U = np.array(A, dtype=float)
    n = U.shape[0]
    L = np.eye(n)
    perm = np.arange(n)
    for k in range(n - 1):
        p = k + np.argmax(np.abs(U[k:, k]))
        if p != k:
            U[[k, p], :] = U[[p, k], :]
            L[[k, p], :k] = L[[p, k], :k]
            perm[[k, p]] = perm[[p, k]]
        if U[k, k] == 0:
            continue
        for i in range(k + 1, n):
            L[i, k] = U[i, k] / U[k, k]
            U[i, k:] -= L[i, k] * U[k, k:]
    P = np.eye(n)[perm].T
    return P, L, U


def lu_det_solve(A, b):
    P, L, U = lu_partial_pivot(A)
    sign = round(np.linalg.det(P))
    det = sign * np.prod(np.diag(U))
    if det == 0:
        return P, L, U, det, None
    y = np.linalg.solve(L, P.T @ b)
    x = np.linalg.solve(U, y)
    return P, L, U, det, x


def savgol_coeffs(window, order, deriv=0):
    half = window // 2
    k = np.arange(-half, half + 1)
    A = np.vander(k, order + 1, increasing=True)
    return np.linalg.pinv(A)[deriv] * math.factorial(deriv)


def savgol_smooth(y, window=7, order=2):
    c = savgol_coeffs(window, order)
    half = window // 2
    ypad = np.concatenate((np.full(half, y[0]), y, np.full(half, y[-1])))
    return np.convolve(ypad, c[::-1], mode="valid")


def chem_equilibrium(x):
    return np.array([x[0] + 0.5 * (x[0] - x[1]) ** 3 - 1.0,
                     0.5 * (x[1] - x[0]) ** 3 + x[1]])


def fsolve_fd(F, x0, tol=1e-10, maxiter=50):
    x = np.array(x0, dtype=float)
    n = len(x)
    nfev = 0
    for it in range(maxiter):
        Fx = F(x)
        nfev += 1
        if np.linalg.norm(Fx) < tol:
            return x, it, nfev, True
        J = np.empty((n, n))
        for j in range(n):
            h = np.sqrt(np.finfo(float).eps) * max(1.0, abs(x[j]))
            xp = x.copy()
            xp[j] += h
            J[:, j] = (F(xp) - Fx) / h
            nfev += 1
        x = x - np.linalg.solve(J, Fx)
    return x, maxiter, nfev, False

# ---------------------------------------------------------------------------
# Advent-of-Code style puzzles
# ---------------------------------------------------------------------------

def low_points(lines):
    grid = np.array([list(map(int, row)) for row in lines])
    padded = np.pad(grid, 1, constant_values=10)
    c = padded[1:-1, 1:-1]
    mask = (c < padded[:-2, 1:-1]) & (c < padded[2:, 1:-1]) \
        & (c < padded[1:-1, :-2]) & (c < padded[1:-1, 2:])
    return int(np.sum(grid[mask] + 1)), np.argwhere(mask)


def basins(lines):
    grid = np.array([list(map(int, row)) for row in lines])
    h, w = grid.shape
    seen = np.zeros_like(grid, dtype=bool)
    sizes = []
    for r, c in np.argwhere(grid < 9):
        if seen[r, c]:
            continue
        stack = [(r, c)]
        seen[r, c] = True
        size = 0
        while stack:
            y, x = stack.pop()
            size += 1
            for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                ny, nx = y + dy, x + dx
                if 0 <= ny < h and 0 <= nx < w and not seen[ny, nx] and grid[ny, nx] != 9:
                    seen[ny, nx] = True
                    stack.append((ny, nx))
        sizes.append(size)
    sizes.sort(reverse=True)
    return sizes[0] * sizes[1] * sizes[2], len(sizes)


def octopus_step(E):
    E += 1
    flashed = np.zeros(E.shape, dtype=bool)
    while True:
        new = (E > 9) & ~flashed
        if not new.any():
            break
        flashed |= new
        p = np.pad(new, 1).astype(int)
        E += (p[:-2, :-2] + p[:-2, 1:-1] + p[:-2, 2:] + p[1:-1, :-2] + p[1:-1, 2:]
              + p[2:, :-2] + p[2:, 1:-1] + p[2:, 2:])
    E[flashed] = 0
    return flashed.sum()


def octopus(lines, steps=100):
    E = np.array([[int(ch) for ch in line] for line in lines])
    total = 0
    step = 0
    first_sync = None
    while step < steps or first_sync is None:
        step += 1
        n = octopus_step(E)
        if step <= steps:
            total += n
        if n == E.size and first_sync is None:
            first_sync = step
        if step > 1000:
            break
    return total, first_sync


def chiton(lines, tiles=1):
    risk = np.array([list(map(int, line)) for line in lines])
    if tiles > 1:
        big = np.tile(risk, (tiles, tiles))
        add = np.add.outer(np.arange(tiles), np.arange(tiles))
        big += np.kron(add, np.ones_like(risk))
        risk = (big - 1) % 9 + 1
    h, w = risk.shape
    dist = np.full((h, w), np.iinfo(np.int64).max)
    dist[0, 0] = 0
    pq = [(0, 0, 0)]
    while pq:
        d, r, c = heapq.heappop(pq)
        if (r, c) == (h - 1, w - 1):
            return d
        if d > dist[r, c]:
            continue
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < h and 0 <= nc < w:
                nd = d + risk[nr, nc]
                if nd < dist[nr, nc]:
                    dist[nr, nc] = nd
                    heapq.heappush(pq, (nd, nr, nc))
    return -1


def hill_climb(lines, any_start=False):
    grid = np.array([[ord(ch) for ch in line] for line in lines])
    start = tuple(np.argwhere(grid == ord("S"))[0])
    end = tuple(np.argwhere(grid == ord("E"))[0])
    grid[start] = ord("a")
    grid[end] = ord("z")
    # search backwards from E so that part two is the same BFS
    q = deque([end])
    dist = -np.ones(grid.shape, dtype=int)
    dist[end] = 0
    while q:
        r, c = q.popleft()
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < grid.shape[0] and 0 <= nc < grid.shape[1] and dist[nr, nc] < 0:
                if grid[r, c] - grid[nr, nc] <= 1:
                    dist[nr, nc] = dist[r, c] + 1
                    q.append((nr, nc))
    if any_start:
        d = dist[(grid == ord("a")) & (dist >= 0)]
        return int(d.min())
    return int(dist[start])


def seating(lines, sight=False):
    floor = np.array([[ch == "." for ch in line] for line in lines])
    occ = np.array([[ch == "#" for ch in line] for line in lines])
    h, w = floor.shape
    dirs = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
    if sight:
        neighbours = {}
        for r in range(h):
            for c in range(w):
                if floor[r, c]:
                    continue
                lst = []
                for dr, dc in dirs:
                    rr, cc = r + dr, c + dc
                    while 0 <= rr < h and 0 <= cc < w and floor[rr, cc]:
                        rr, cc = rr + dr, cc + dc
                    if 0 <= rr < h and 0 <= cc < w:
                        lst.append((rr, cc))
                neighbours[(r, c)] = lst
        limit = 5
    else:
        limit = 4
    rounds = 0
    while True:
        if sight:
            counts = np.zeros((h, w), dtype=int)
            for (r, c), lst in neighbours.items():
                counts[r, c] = sum(occ[p] for p in lst)
        else:
            p = np.pad(occ, 1).astype(int)
            counts = sum(p[1 + dr:h + 1 + dr, 1 + dc:w + 1 + dc] for dr, dc in dirs)
        new = occ.copy()
        new[(~occ) & (~floor) & (counts == 0)] = True
        new[occ & (counts >= limit)] = False
        if np.array_equal(new, occ):
            break
        occ = new
        rounds += 1
    return int(np.count_nonzero(occ)), rounds


def conway_cubes(lines, cycles=6, dims=3):
    plane = np.array([[ch == "#" for ch in line] for line in lines])
    grid = plane.reshape((1,) * (dims - 2) + plane.shape)
    offsets = [o for o in np.ndindex(*(3,) * dims) if o != (1,) * dims]
    for _ in range(cycles):
        grid = np.pad(grid, 1)
        n = np.zeros(grid.shape, dtype=np.int8)
        for o in offsets:
            n += np.roll(grid, tuple(np.array(o) - 1), axis=tuple(range(dims)))
        grid = (grid & ((n == 2) | (n == 3))) | (~grid & (n == 3))
    return int(np.count_nonzero(grid))


def tree_house(lines):
    g = np.array([list(map(int, line)) for line in lines])
    h, w = g.shape
    visible = np.zeros_like(g, dtype=bool)
    for k in range(4):
        r = np.rot90(g, k)
        v = np.zeros_like(r, dtype=bool)
        v[:, 0] = True
        v[:, 1:] = r[:, 1:] > np.maximum.accumulate(r, axis=1)[:, :-1]
        visible |= np.rot90(v, -k)
    best = 0
    for i in range(1, h - 1):
        for j in range(1, w - 1):
            score = 1
            for line in (g[i, :j][::-1], g[i, j + 1:], g[:i, j][::-1], g[i + 1:, j]):
                blocked = np.nonzero(line >= g[i, j])[0]
                score *= blocked[0] + 1 if blocked.size else line.size
            best = max(best, score)
    return int(visible.sum()), int(best)


def vents(lines, diagonals=False):
    segs = []
    for line in lines:
        a, b = line.split(" -> ")
        segs.append(list(map(int, a.split(","))) + list(map(int, b.split(","))))
    segs = np.array(segs)
    size = segs.max() + 1
    board = np.zeros((size, size), dtype=int)
    for x1, y1, x2, y2 in segs:
        if x1 != x2 and y1 != y2 and not diagonals:
            continue
        n = max(abs(x2 - x1), abs(y2 - y1))
        xs = x1 + np.sign(x2 - x1) * np.arange(n + 1)
        ys = y1 + np.sign(y2 - y1) * np.arange(n + 1)
        board[ys, xs] += 1
    return np.count_nonzero(board >= 2)


def bingo(numbers, board_lines):
    draws = [int(v) for v in numbers.split(",")]
    rows = [list(map(int, line.split())) for line in board_lines if line.strip()]
    boards = np.array(rows).reshape(-1, 5, 5)
    marked = np.zeros(boards.shape, dtype=bool)
    won = np.zeros(len(boards), dtype=bool)
    scores = []
    for n in draws:
        marked |= boards == n
        wins = marked.all(axis=1).any(axis=1) | marked.all(axis=2).any(axis=1)
        for b in np.nonzero(wins & ~won)[0]:
            scores.append(int(boards[b][~marked[b]].sum()) * n)
        won |= wins
        if won.all():
            break
    return scores[0], scores[-1]


def lanternfish(ages, days):
    counts = np.bincount(np.array(ages.split(","), dtype=int), minlength=9).astype(np.int64)
    for _ in range(days):
        counts = np.roll(counts, -1)
        counts[6] += counts[8]
    return int(counts.sum())


def crab_fuel(positions):
    pos = np.array([int(p) for p in positions.split(",")])
    target = int(np.median(pos))
    part1 = np.abs(pos - target).sum()
    cand = np.arange(pos.min(), pos.max() + 1)
    d = np.abs(pos[None, :] - cand[:, None])
    cost = (d * (d + 1) // 2).sum(axis=1)
    return int(part1), int(cost.min()), int(cand[np.argmin(cost)])


def diagnostic(lines):
    bits = np.array([[int(c) for c in line] for line in lines], dtype=np.uint8)
    n, w = bits.shape
    weights = 1 << np.arange(w - 1, -1, -1)
    gamma_bits = (bits.sum(axis=0) * 2 >= n).astype(int)
    gamma = int(gamma_bits @ weights)
    epsilon = ~gamma & ((1 << w) - 1)

    def rating(most_common):
        rows = bits
        for col in range(w):
            if len(rows) == 1:
                break
            ones = rows[:, col].sum()
            keep = int(ones * 2 >= len(rows)) if most_common else int(ones * 2 < len(rows))
            rows = rows[rows[:, col] == keep]
        return int(rows[0].astype(int) @ weights)

    return gamma * epsilon, rating(True) * rating(False)


def sonar(depths):
    d = np.asarray(depths)
    windows = np.convolve(d, np.ones(3, dtype=int), mode="valid")
    return int(np.count_nonzero(np.diff(d) > 0)), int(np.count_nonzero(np.diff(windows) > 0))


def fold_paper(dots, folds):
    pts = np.array([list(map(int, d.split(","))) for d in dots])
    paper = np.zeros((pts[:, 1].max() + 1, pts[:, 0].max() + 1), dtype=bool)
    paper[pts[:, 1], pts[:, 0]] = True
    counts = []
    for f in folds:
        axis, val = f.split()[-1].split("=")
        val = int(val)
        if axis == "y":
            top, bottom = paper[:val], np.flip(paper[val + 1:], axis=0)
            if bottom.shape[0] < top.shape[0]:
                bottom = np.pad(bottom, ((top.shape[0] - bottom.shape[0], 0), (0, 0)))
            paper = top | bottom
        else:
            left, right = paper[:, :val], np.flip(paper[:, val + 1:], axis=1)
            if right.shape[1] < left.shape[1]:
                right = np.pad(right, ((0, 0), (left.shape[1] - right.shape[1], 0)))
            paper = left | right
        counts.append(int(paper.sum()))
    return counts, paper


def edge_code(edge):
    v = 0
    for b in edge:
        v = (v << 1) | int(b)
    return v


def tile_orientations(tile):
    out = []
    t = tile
    for k in range(4):
        out.append(np.rot90(t, k))
        out.append(np.flip(np.rot90(t, k), axis=1))
    return np.array(out)


def tile_corners(tiles):
    """tiles: {id: list of '#'/'.' strings}. Returns the product of the corner ids."""
    edges = {}
    arrays = {tid: np.array([[c == "#" for c in row] for row in rows])
              for tid, rows in tiles.items()}
    for tid, t in arrays.items():
        for e in (t[0], t[-1], t[:, 0], t[:, -1]):
            key = min(edge_code(e), edge_code(e[::-1]))
            edges.setdefault(key, []).append(tid)
    unmatched = {tid: 0 for tid in arrays}
    for key, owners in edges.items():
        if len(owners) == 1:
            unmatched[owners[0]] += 1
    corners = sorted(tid for tid, k in unmatched.items() if k == 2)
    first = arrays[corners[0]]
    orient = tile_orientations(first)
    prod = 1
    for c in corners:
        prod *= c
    return prod, corners, orient.shape, [edge_code(o[0]) for o in orient]


def spin_cycle(lines, cycles=1000000000):
    g = np.array([list(line) for line in lines])

    def tilt_north(g):
        g = g.copy()
        for c in range(g.shape[1]):
            free = 0
            for r in range(g.shape[0]):
                if g[r, c] == "#":
                    free = r + 1
                elif g[r, c] == "O":
                    g[r, c] = "."
                    g[free, c] = "O"
                    free += 1
        return g

    def load(g):
        rows = np.arange(g.shape[0], 0, -1)
        return int(((g == "O").sum(axis=1) * rows).sum())

    part1 = load(tilt_north(g))
    seen = {}
    i = 0
    while i < cycles:
        key = g.tobytes()
        if key in seen:
            period = i - seen[key]
            remaining = (cycles - i) % period
            for _ in range(remaining):
                for _ in range(4):
                    g = np.rot90(tilt_north(g), -1)
            break
        seen[key] = i
        for _ in range(4):
            g = np.rot90(tilt_north(g), -1)
        i += 1
    return part1, load(g), len(seen)


def memory_banks(banks):
    banks = np.array(banks)
    n = len(banks)
    seen = {}
    steps = 0
    while tuple(banks) not in seen:
        seen[tuple(banks)] = steps
        i = np.argmax(banks)
        blocks = banks[i]
        banks[i] = 0
        for k in range(1, blocks + 1):
            banks[(i + k) % n] += 1
        steps += 1
    return steps, steps - seen[tuple(banks)]


def sea_cucumbers(lines, limit=1000):
    g = np.array([list(line) for line in lines])
    step = 0
    while step < limit:
        step += 1
        moved = False
        for ch, axis in ((">", 1), ("v", 0)):
            herd = g == ch
            free = np.roll(g == ".", -1, axis=axis)
            can = herd & free
            if can.any():
                moved = True
                g[can] = "."
                g[np.roll(can, 1, axis=axis)] = ch
        if not moved:
            break
    return step


def galaxies(lines, factor=2):
    sky = np.array([[c == "#" for c in line] for line in lines])
    empty_rows = ~sky.any(axis=1)
    empty_cols = ~sky.any(axis=0)
    row_pos = np.cumsum(np.where(empty_rows, factor, 1)) - 1
    col_pos = np.cumsum(np.where(empty_cols, factor, 1)) - 1
    pts = np.argwhere(sky)
    r = row_pos[pts[:, 0]]
    c = col_pos[pts[:, 1]]
    total = 0
    for i in range(len(pts)):
        total += np.sum(np.abs(r[i + 1:] - r[i]) + np.abs(c[i + 1:] - c[i]))
    return int(total)


def fuel_cells(serial, size=300, squares=(3,)):
    x = np.arange(1, size + 1)
    rack = x[None, :] + 10
    power = (rack * x[:, None] + serial) * rack
    power = (power // 100) % 10 - 5
    S = np.zeros((size + 1, size + 1), dtype=np.int64)
    S[1:, 1:] = power.cumsum(0).cumsum(1)
    best = (-10 ** 9, 0, 0, 0)
    for k in squares:
        tot = S[k:, k:] - S[:-k, k:] - S[k:, :-k] + S[:-k, :-k]
        iy, ix = np.unravel_index(np.argmax(tot), tot.shape)
        if tot[iy, ix] > best[0]:
            best = (int(tot[iy, ix]), int(ix + 1), int(iy + 1), k)
    return best


def rope(moves, knots=2):
    step = {"R": (1, 0), "L": (-1, 0), "U": (0, 1), "D": (0, -1)}
    rope = np.zeros((knots, 2), dtype=int)
    visited = {(0, 0)}
    for line in moves:
        d, n = line.split()
        for _ in range(int(n)):
            rope[0] += step[d]
            for k in range(1, knots):
                diff = rope[k - 1] - rope[k]
                if np.abs(diff).max() > 1:
                    rope[k] += np.sign(diff)
            visited.add(tuple(rope[-1]))
    return len(visited)


def crt(program):
    X = 1
    xs = []
    for ins in program:
        if ins == "noop":
            xs.append(X)
        else:
            xs += [X, X]
            X += int(ins.split()[1])
    xs = np.array(xs[:240])
    cycles = np.arange(1, len(xs) + 1)
    strength = int(sum(c * xs[c - 1] for c in range(20, len(xs) + 1, 40)))
    col = (cycles - 1) % 40
    lit = np.abs(col - xs) <= 1
    screen = np.zeros(240, dtype=bool)
    screen[:len(lit)] = lit
    return strength, screen.reshape(6, 40)


def lagoon(plan, hex_mode=False):
    dirs = {"R": (0, 1), "D": (1, 0), "L": (0, -1), "U": (-1, 0)}
    steps = []
    for line in plan:
        d, n, color = line.split()
        if hex_mode:
            n = int(color[2:7], 16)
            d = "RDLU"[int(color[7])]
        steps.append(np.array(dirs[d], dtype=np.int64) * int(n))
    steps = np.array(steps)
    pts = np.cumsum(steps, axis=0)
    y, x = pts[:, 0], pts[:, 1]
    area2 = abs(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
    perimeter = np.abs(steps).sum()
    return int(area2 // 2 + perimeter // 2 + 1)


def light_grid(instructions, size=1000):
    on = np.zeros((size, size), dtype=bool)
    bright = np.zeros((size, size), dtype=int)
    for ins in instructions:
        words = ins.split()
        x1, y1 = map(int, words[-3].split(","))
        x2, y2 = map(int, words[-1].split(","))
        sl = (slice(x1, x2 + 1), slice(y1, y2 + 1))
        if ins.startswith("toggle"):
            on[sl] = ~on[sl]
            bright[sl] += 2
        elif ins.startswith("turn on"):
            on[sl] = True
            bright[sl] += 1
        else:
            on[sl] = False
            bright[sl] = np.maximum(bright[sl] - 1, 0)
    return int(on.sum()), int(bright.sum())


def enhance(algorithm, lines, steps=2):
    algo = np.array([c == "#" for c in algorithm])
    img = np.array([[c == "#" for c in line] for line in lines])
    background = False
    w = 2 ** np.arange(8, -1, -1)
    for _ in range(steps):
        img = np.pad(img, 2, constant_values=background)
        h, wd = img.shape
        idx = np.zeros((h - 2, wd - 2), dtype=int)
        k = 0
        for dy in range(3):
            for dx in range(3):
                idx += img[dy:dy + h - 2, dx:dx + wd - 2] * w[k]
                k += 1
        img = algo[idx]
        background = algo[511] if background else algo[0]
    return int(img.sum()), img.shape


def knot_round(lst, lengths, pos, skip):
    n = len(lst)
    for L in lengths:
        lst = np.roll(lst, -pos)
        lst[:L] = lst[:L][::-1]
        lst = np.roll(lst, pos)
        pos = (pos + L + skip) % n
        skip += 1
    return lst, pos, skip


def knot_product(lengths, size=256):
    lst = np.arange(size)
    lst, _, _ = knot_round(lst, [int(v) for v in lengths.split(",")], 0, 0)
    return int(lst[0] * lst[1])


def knot_hash(text):
    lengths = [ord(c) for c in text] + [17, 31, 73, 47, 23]
    lst = np.arange(256)
    pos = skip = 0
    for _ in range(64):
        lst, pos, skip = knot_round(lst, lengths, pos, skip)
    dense = np.bitwise_xor.reduce(lst.reshape(16, 16), axis=1)
    return "".join("%02x" % v for v in dense)


def knot_hashes(texts):
    return [knot_hash(t) for t in texts]


def range_queries(values, queries):
    prefix = np.concatenate(([0], np.cumsum(values)))
    out = []
    for lo, hi in queries:
        out.append(prefix[hi + 1] - prefix[lo])
    return np.array(out)

# ---------------------------------------------------------------------------
# Operations research and economics
# ---------------------------------------------------------------------------

def growth_vfi(alpha=0.3, beta=0.95, n_grid=120, tol=1e-6, max_iter=1000):
    """Deterministic growth, log utility, full depreciation: k' = alpha*beta*k**alpha."""
    k_ss = (alpha * beta) ** (1 / (1 - alpha))
    k = np.linspace(0.2 * k_ss, 2 * k_ss, n_grid)
    c = k[:, None] ** alpha - k[None, :]
    U = np.full(c.shape, -np.inf)
    U[c > 0] = np.log(c[c > 0])
    V = np.zeros(n_grid)
    for it in range(1, max_iter + 1):
        V_new = np.max(U + beta * V[None, :], axis=1)
        diff = np.max(np.abs(V_new - V))
        V = V_new
        if diff < tol:
            break
    policy = k[np.argmax(U + beta * V[None, :], axis=1)]
    exact = alpha * beta * k ** alpha
    return V, policy, it, np.max(np.abs(policy - exact))


def norm_cdf(x):
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def tauchen(n, rho, sigma, m=3):
    std_y = sigma / math.sqrt(1 - rho ** 2)
    y = np.linspace(-m * std_y, m * std_y, n)
    step = y[1] - y[0]
    P = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if j == 0:
                P[i, j] = norm_cdf((y[0] - rho * y[i] + step / 2) / sigma)
            elif j == n - 1:
                P[i, j] = 1 - norm_cdf((y[n - 1] - rho * y[i] - step / 2) / sigma)
            else:
                z = y[j] - rho * y[i]
                P[i, j] = norm_cdf((z + step / 2) / sigma) - norm_cdf((z - step / 2) / sigma)
    return y, P


def stochastic_growth(nk=60, nz=5, alpha=0.36, beta=0.95, delta=0.1, gamma=2.0,
                      rho=0.9, sigma=0.02, tol=1e-6):
    logz, P = tauchen(nz, rho, sigma)
    z = np.exp(logz)
    kss = ((1 / beta - 1 + delta) / alpha) ** (1 / (alpha - 1))
    k = np.linspace(0.5 * kss, 1.5 * kss, nk)
    y = z[None, :] * k[:, None] ** alpha + (1 - delta) * k[:, None]
    c = y[:, :, None] - k[None, None, :]      # (k, z, k')
    with np.errstate(invalid="ignore", divide="ignore"):
        u = np.where(c > 0, c ** (1 - gamma) / (1 - gamma), -1e10)
    V = np.zeros((nk, nz))
    for it in range(1000):
        EV = V @ P.T                            # EV[k', z]
        obj = u + beta * EV.T[None, :, :]
        V_new = obj.max(axis=2)
        if np.max(np.abs(V_new - V)) < tol:
            V = V_new
            break
        V = V_new
    g = k[obj.argmax(axis=2)]
    return V, g, it, P


def policy_iteration(P, R, gamma=0.9, max_iter=100):
    """P[a, s, s'] transition probabilities, R[s, a] rewards."""
    nA, nS, _ = P.shape
    policy = np.zeros(nS, dtype=int)
    for it in range(1, max_iter + 1):
        P_pi = P[policy, np.arange(nS), :]
        R_pi = R[np.arange(nS), policy]
        V = np.linalg.solve(np.eye(nS) - gamma * P_pi, R_pi)
        Q = R + gamma * np.einsum("ast,t->sa", P, V)
        new_policy = np.argmax(Q, axis=1)
        if np.array_equal(new_policy, policy):
            break
        policy = new_policy
    return policy, V, it


def value_iteration_mdp(P, R, gamma=0.9, eps=1e-8, max_iter=10000):
    nA, nS, _ = P.shape
    V = np.zeros(nS)
    for it in range(1, max_iter + 1):
        Q = R + gamma * (P @ V).T
        V_new = Q.max(axis=1)
        span = np.max(V_new - V) - np.min(V_new - V)
        V = V_new
        if span < eps * (1 - gamma) / gamma:
            break
    return Q.argmax(axis=1), V, it


def gridworld(layout, rewards, gamma=0.9, slip=0.2, living=-0.04, tol=1e-6):
    moves = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
    sideways = {"N": "EW", "S": "EW", "E": "NS", "W": "NS"}
    grid = np.array([list(row) for row in layout])
    h, w = grid.shape
    V = np.zeros((h, w))
    terminal = {pos: r for pos, r in rewards.items()}

    def step(r, c, a):
        dr, dc = moves[a]
        nr, nc = r + dr, c + dc
        if 0 <= nr < h and 0 <= nc < w and grid[nr, nc] != "#":
            return nr, nc
        return r, c

    it = 0
    while True:
        it += 1
        delta = 0.0
        V_new = V.copy()
        for r in range(h):
            for c in range(w):
                if grid[r, c] == "#":
                    continue
                if (r, c) in terminal:
                    V_new[r, c] = terminal[(r, c)]
                    continue
                best = -np.inf
                for a in moves:
                    val = (1 - slip) * V[step(r, c, a)]
                    for s in sideways[a]:
                        val += slip / 2 * V[step(r, c, s)]
                    best = max(best, val)
                V_new[r, c] = living + gamma * best
                delta = max(delta, abs(V_new[r, c] - V[r, c]))
        V = V_new
        if delta < tol:
            break
    policy = np.full((h, w), ".", dtype="<U1")
    for r in range(h):
        for c in range(w):
            if grid[r, c] == "#" or (r, c) in terminal:
                policy[r, c] = grid[r, c] if grid[r, c] == "#" else "*"
                continue
            vals = {a: V[step(r, c, a)] for a in moves}
            policy[r, c] = max(vals, key=vals.get)
    return V, policy, it


def simplex_max(c, A, b, max_iter=50):
    A = np.array(A, dtype=float)
    b = np.array(b, dtype=float)
    c = np.array(c, dtype=float)
    m, n = A.shape
    T = np.zeros((m + 1, n + m + 1))
    T[:m, :n] = A
    T[:m, n:n + m] = np.eye(m)
    T[:m, -1] = b
    T[-1, :n] = -c
    basis = list(range(n, n + m))
    for it in range(max_iter):
        col = int(np.argmin(T[-1, :-1]))
        if T[-1, col] >= -1e-12:
            break
        ratios = np.full(m, np.inf)
        pos = T[:m, col] > 1e-12
        ratios[pos] = T[:m, -1][pos] / T[:m, col][pos]
        if np.all(np.isinf(ratios)):
            return {"status": "unbounded", "iterations": it, "entering": col}
        row = int(np.argmin(ratios))
        T[row] = T[row] / T[row, col]
        for r in range(m + 1):
            if r != row:
                T[r] = T[r] - T[r, col] * T[row]
        basis[row] = col
    x = np.zeros(n + m)
    x[basis] = T[:m, -1]
    return {"status": "optimal", "x": x[:n], "slack": x[n:], "objective": T[-1, -1],
            "iterations": it, "basis": basis, "duals": T[-1, n:n + m].copy()}


def stationary_distribution(P, method="eig", tol=1e-12, max_iter=10000):
    P = np.asarray(P, dtype=float)
    n = P.shape[0]
    if method == "eig":
        w, v = np.linalg.eig(P.T)
        i = np.argmin(np.abs(w - 1))
        pi = np.real(v[:, i])
        pi = pi / pi.sum()
        return pi, 0
    elif method == "power":
        pi = np.zeros(n)
        pi[0] = 1.0
        for it in range(1, max_iter + 1):
            new = pi @ P
            if np.abs(new - pi).sum() < tol:
                return new, it
            pi = new
        return pi, -1
    elif method == "solve":
        A = P.T - np.eye(n)
        A[-1, :] = 1.0
        rhs = np.zeros(n)
        rhs[-1] = 1.0
        return np.linalg.solve(A, rhs), 0
    raise ValueError(method)


def gamblers_ruin(target=6, p=0.4):
    n = target + 1
    P = np.zeros((n, n))
    P[0, 0] = P[target, target] = 1.0
    for i in range(1, target):
        P[i, i + 1] = p
        P[i, i - 1] = 1 - p
    return P


def absorbing_chain(P, absorbing):
    absorbing = list(absorbing)
    transient = [i for i in range(P.shape[0]) if i not in absorbing]
    Q = P[np.ix_(transient, transient)]
    R = P[np.ix_(transient, absorbing)]
    N = np.linalg.inv(np.eye(len(transient)) - Q)
    t = N @ np.ones(len(transient))
    B = N @ R
    return {"fundamental": N, "expected_steps": t, "absorption": B, "transient": transient}


def inventory_sS(s, S, T=365, demand_mean=4.0, lead_time=2, h=1.0, p=10.0, K=40.0, seed=0):
    rs = np.random.RandomState(seed)
    demand = rs.poisson(demand_mean, T)
    on_hand = S
    pipeline = np.zeros(T + lead_time + 1, dtype=int)
    level = np.zeros(T, dtype=int)
    lost = 0
    orders = 0
    cost = 0.0
    for t in range(T):
        on_hand += pipeline[t]
        sold = min(on_hand, demand[t])
        lost += demand[t] - sold
        on_hand -= sold
        position = on_hand + pipeline[t + 1:].sum()
        if position <= s:
            q = S - position
            pipeline[t + lead_time] += q
            orders += 1
            cost += K
        cost += h * on_hand + p * (demand[t] - sold)
        level[t] = on_hand
    return {"cost": cost, "avg_cost": cost / T, "fill_rate": 1 - lost / demand.sum(),
            "orders": orders, "level": level}


def best_sS(s_values, S_values, seed=0, T=200):
    table = np.full((len(s_values), len(S_values)), np.nan)
    for i, s in enumerate(s_values):
        for j, S in enumerate(S_values):
            if S > s:
                table[i, j] = inventory_sS(s, S, T=T, seed=seed)["avg_cost"]
    i, j = np.unravel_index(np.nanargmin(table), table.shape)
    return s_values[i], S_values[j], table


def queue_lindley(lam, mu, n=500, seed=None):
    rs = np.random.RandomState(seed)
    inter = rs.exponential(1 / lam, n)
    service = rs.exponential(1 / mu, n)
    wait = np.zeros(n)
    for i in range(1, n):
        wait[i] = max(0.0, wait[i - 1] + service[i - 1] - inter[i])
    arrivals = np.cumsum(inter)
    depart = arrivals + wait + service
    busy = service.sum() / depart[-1]
    return wait.mean(), (wait > 0).mean(), busy, np.percentile(wait, [50, 90, 99])


def tandem_queue(arrivals, service):
    """service[i, j]: time of customer i at station j; FIFO, infinite buffers."""
    n, m = service.shape
    D = np.zeros((n, m))
    for i in range(n):
        for j in range(m):
            ready = arrivals[i] if j == 0 else D[i, j - 1]
            free = D[i - 1, j] if i > 0 else 0.0
            D[i, j] = max(ready, free) + service[i, j]
    sojourn = D[:, -1] - arrivals
    return D, sojourn.mean(), sojourn.max()


def newsvendor(price, cost, salvage, demand, q_grid=None):
    demand = np.asarray(demand)
    cu = price - cost
    co = cost - salvage
    cr = cu / (cu + co)
    q_quant = np.quantile(demand, cr)
    if q_grid is None:
        q_grid = np.arange(demand.min(), demand.max() + 1)
    q = np.asarray(q_grid)[:, None]
    sales = np.minimum(q, demand[None, :])
    leftover = np.maximum(q - demand[None, :], 0)
    profit = price * sales + salvage * leftover - cost * q
    expected = profit.mean(axis=1)
    best = int(np.argmax(expected))
    return {"critical_ratio": cr, "q_quantile": q_quant, "q_best": q_grid[best],
            "expected_profit": expected[best], "curve": expected}


def newsvendor_normal(mu, sigma, price, cost, salvage=0.0):
    cr = (price - cost) / (price - salvage)
    lo, hi = -10.0, 10.0
    while hi - lo > 1e-12:
        mid = 0.5 * (lo + hi)
        if norm_cdf(mid) < cr:
            lo = mid
        else:
            hi = mid
    z = 0.5 * (lo + hi)
    Q = mu + z * sigma
    pdf = math.exp(-z * z / 2) / math.sqrt(2 * math.pi)
    loss = pdf - z * (1 - norm_cdf(z))
    expected_sales = mu - sigma * loss
    profit = price * expected_sales + salvage * (Q - expected_sales) - cost * Q
    return Q, z, profit


def gale_shapley(men_pref, women_pref):
    men_pref = np.asarray(men_pref)
    women_pref = np.asarray(women_pref)
    n = men_pref.shape[0]
    rank = np.empty_like(women_pref)
    for w in range(n):
        rank[w, women_pref[w]] = np.arange(n)
    wife = -np.ones(n, dtype=int)
    husband = -np.ones(n, dtype=int)
    next_choice = np.zeros(n, dtype=int)
    free = deque(range(n))
    proposals = 0
    while free:
        m = free.popleft()
        w = men_pref[m, next_choice[m]]
        next_choice[m] += 1
        proposals += 1
        if husband[w] == -1:
            husband[w] = m
            wife[m] = w
        elif rank[w, m] < rank[w, husband[w]]:
            old = husband[w]
            wife[old] = -1
            free.append(old)
            husband[w] = m
            wife[m] = w
        else:
            free.append(m)
    return wife, proposals


def is_stable(wife, men_pref, women_pref):
    n = len(wife)
    husband = np.empty(n, dtype=int)
    husband[wife] = np.arange(n)
    for m in range(n):
        for w in men_pref[m]:
            if w == wife[m]:
                break
            wp = list(women_pref[w])
            if wp.index(m) < wp.index(husband[w]):
                return False
    return True


def stable_marriage(men_pref, women_pref):
    wife, proposals = gale_shapley(men_pref, women_pref)
    return wife, proposals, is_stable(wife, np.asarray(men_pref), np.asarray(women_pref))


def greedy_assignment(cost):
    C = np.array(cost, dtype=float)
    n = C.shape[0]
    assign = -np.ones(n, dtype=int)
    for _ in range(n):
        i, j = np.unravel_index(np.argmin(C), C.shape)
        assign[i] = j
        C[i, :] = np.inf
        C[:, j] = np.inf
    return assign


def hungarian(cost):
    """O(n^3) Hungarian algorithm with potentials (rows are 1-based internally)."""
    a = np.asarray(cost)
    n, m = a.shape
    INF = float("inf")
    u = np.zeros(n + 1)
    v = np.zeros(m + 1)
    p = np.zeros(m + 1, dtype=int)
    way = np.zeros(m + 1, dtype=int)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = np.full(m + 1, INF)
        used = np.zeros(m + 1, dtype=bool)
        while True:
            used[j0] = True
            i0 = p[j0]
            delta = INF
            j1 = 0
            for j in range(1, m + 1):
                if not used[j]:
                    cur = a[i0 - 1, j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(m + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    assign = np.zeros(n, dtype=int)
    for j in range(1, m + 1):
        if p[j] != 0:
            assign[p[j] - 1] = j - 1
    return assign


def compare_assignment(cost):
    cost = np.asarray(cost)
    g = greedy_assignment(cost)
    h = hungarian(cost)
    rows = np.arange(len(cost))
    return g, cost[rows, g].sum(), h, cost[rows, h].sum()


def knapsack(values, weights, capacity):
    n = len(values)
    K = np.zeros((n + 1, capacity + 1))
    for i in range(1, n + 1):
        w = weights[i - 1]
        for c in range(capacity + 1):
            K[i, c] = K[i - 1, c]
            if w <= c and K[i - 1, c - w] + values[i - 1] > K[i, c]:
                K[i, c] = K[i - 1, c - w] + values[i - 1]
    chosen = []
    c = capacity
    for i in range(n, 0, -1):
        if K[i, c] != K[i - 1, c]:
            chosen.append(i - 1)
            c -= weights[i - 1]
    chosen.reverse()
    return K[n, capacity], chosen


def dijkstra_matrix(cost, source=0, target=None):
    C = np.asarray(cost, dtype=float)
    n = C.shape[0]
    dist = np.full(n, np.inf)
    prev = -np.ones(n, dtype=int)
    done = np.zeros(n, dtype=bool)
    dist[source] = 0.0
    for _ in range(n):
        d = np.where(done, np.inf, dist)
        u = int(np.argmin(d))
        if np.isinf(d[u]):
            break
        done[u] = True
        nbr = np.isfinite(C[u]) & ~done & (np.arange(n) != u)
        alt = dist[u] + C[u]
        better = nbr & (alt < dist)
        dist[better] = alt[better]
        prev[better] = u
    if target is None:
        return dist, prev
    path = []
    if np.isfinite(dist[target]):
        v = target
        while v != -1:
            path.append(v)
            v = prev[v]
        path = path[::-1]
    return dist[target], path


def bellman_ford(edges, n, source=0):
    dist = np.full(n, np.inf)
    dist[source] = 0
    pred = -np.ones(n, dtype=int)
    for _ in range(n - 1):
        changed = False
        for u, v, w in edges:
            if dist[u] + w < dist[v]:
                dist[v] = dist[u] + w
                pred[v] = u
                changed = True
        if not changed:
            break
    for u, v, w in edges:
        if dist[u] + w < dist[v]:
            return None, pred, True
    return dist, pred, False


def critical_path(tasks):
    """tasks: {name: (duration, [predecessors])}"""
    names = list(tasks)
    idx = {name: i for i, name in enumerate(names)}
    n = len(names)
    dur = np.array([tasks[t][0] for t in names], dtype=float)
    succ = {t: [] for t in names}
    indeg = np.zeros(n, dtype=int)
    for t in names:
        for p in tasks[t][1]:
            succ[p].append(t)
            indeg[idx[t]] += 1
    order = []
    q = deque([t for t in names if indeg[idx[t]] == 0])
    while q:
        t = q.popleft()
        order.append(t)
        for s in succ[t]:
            indeg[idx[s]] -= 1
            if indeg[idx[s]] == 0:
                q.append(s)
    ES = np.zeros(n)
    for t in order:
        preds = tasks[t][1]
        if preds:
            ES[idx[t]] = max(ES[idx[p]] + dur[idx[p]] for p in preds)
    EF = ES + dur
    project = EF.max()
    LF = np.full(n, project)
    for t in reversed(order):
        if succ[t]:
            LF[idx[t]] = min(LF[idx[s]] - dur[idx[s]] for s in succ[t])
    LS = LF - dur
    slack = LS - ES
    critical = [t for t in order if abs(slack[idx[t]]) < 1e-9]
    return project, ES, LF, slack, critical


def wagner_whitin(demand, setup, holding):
    d = np.asarray(demand, dtype=float)
    T = len(d)
    F = np.zeros(T + 1)
    last = np.zeros(T + 1, dtype=int)
    for t in range(1, T + 1):
        best = np.inf
        for j in range(1, t + 1):
            # order in period j covers j..t
            hold = sum(holding * (k - j) * d[k - 1] for k in range(j, t + 1))
            c = F[j - 1] + setup + hold
            if c < best:
                best = c
                last[t] = j
        F[t] = best
    plan = np.zeros(T)
    t = T
    while t > 0:
        j = last[t]
        plan[j - 1] = d[j - 1:t].sum()
        t = j - 1
    return F[T], plan


def solow(k0, s=0.25, n=0.01, g=0.02, delta=0.05, alpha=0.33, T=200):
    k = np.empty(T + 1)
    k[0] = k0
    for t in range(T):
        k[t + 1] = (s * k[t] ** alpha + (1 - delta) * k[t]) / ((1 + n) * (1 + g))
    k_star = (s / ((1 + n) * (1 + g) - 1 + delta)) ** (1 / (1 - alpha))
    gap = np.abs(k - k_star) / abs(k0 - k_star)
    half_life = int(np.argmax(gap <= 0.5))
    y = k ** alpha
    c = (1 - s) * y
    return k, y, c, k_star, half_life


def mccall(w_vals, probs, beta=0.99, c=25.0, tol=1e-8, max_iter=5000):
    v = w_vals / (1 - beta)
    for i in range(max_iter):
        accept = w_vals / (1 - beta)
        reject = c + beta * np.sum(v * probs)
        v_new = np.maximum(accept, reject)
        if np.max(np.abs(v_new - v)) < tol:
            v = v_new
            break
        v = v_new
    reservation = (1 - beta) * (c + beta * np.sum(v * probs))
    return reservation, i + 1


def beta_binomial(n, a, b):
    k = np.arange(n + 1)
    logp = np.array([math.lgamma(n + 1) - math.lgamma(j + 1) - math.lgamma(n - j + 1)
                     + math.lgamma(j + a) + math.lgamma(n - j + b) - math.lgamma(n + a + b)
                     + math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) for j in k])
    return np.exp(logp)


def mccall_sweep(c_values, n=50, a=200, b=100):
    w_vals = np.linspace(10, 60, n + 1)
    probs = beta_binomial(n, a, b)
    return np.array([mccall(w_vals, probs, c=c)[0] for c in c_values])


def lorenz_gini(income):
    x = np.sort(np.asarray(income, dtype=float))
    n = len(x)
    cum = np.cumsum(x)
    lorenz = np.insert(cum / cum[-1], 0, 0.0)
    gini = 1 - 2 * np.trapezoid(lorenz, dx=1 / n) if hasattr(np, "trapezoid") \
        else 1 - 2 * np.trapz(lorenz, dx=1 / n)
    gini_mad = np.abs(x[:, None] - x[None, :]).sum() / (2 * n * n * x.mean())
    shares = [cum[int(q * n) - 1] / cum[-1] for q in (0.2, 0.5, 0.8)]
    return lorenz, gini, gini_mad, shares


def leontief(A, final_demand, labor=None):
    A = np.asarray(A, dtype=float)
    L = np.linalg.inv(np.eye(A.shape[0]) - A)
    x = L @ final_demand
    result = {"L": L, "output": x, "multipliers": L.sum(axis=0)}
    if labor is not None:
        result["employment"] = labor * x
    return result


def cournot(a, b, costs, tol=1e-10, max_iter=1000, damping=0.5):
    costs = np.asarray(costs, dtype=float)
    q = np.zeros(len(costs))
    for it in range(1, max_iter + 1):
        Q_others = q.sum() - q
        br = np.maximum((a - costs - b * Q_others) / (2 * b), 0.0)
        q_new = damping * q + (1 - damping) * br
        if np.max(np.abs(q_new - q)) < tol:
            q = q_new
            break
        q = q_new
    price = a - b * q.sum()
    profit = (price - costs) * q
    return q, price, profit, it


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------

def _rng(seed):
    return np.random.default_rng(seed)


def _housing(seed, m=47):
    r = _rng(seed)
    size = np.round(r.uniform(850, 4500, m))
    beds = r.integers(1, 6, m).astype(float)
    price = 140 * size + 9000 * beds + 50000 + r.normal(0, 40000, m)
    return np.column_stack([size, beds, np.round(price)])


def _microchips(seed, m=60):
    r = _rng(seed)
    X1 = r.uniform(-1, 1.1, m)
    X2 = r.uniform(-0.8, 1.1, m)
    y = (X1 ** 2 + 1.3 * X2 ** 2 + 0.15 * r.normal(size=m) < 0.6).astype(int)
    return X1, X2, y


def _spd(seed, n=6):
    B = _rng(seed).normal(size=(n, n))
    return B @ B.T + n * np.eye(n)


def _moler_graph():
    # Moler's six-node "tiny web", G(i, j) = 1 if j links to i
    links = [(2, 1), (6, 1), (3, 2), (4, 2), (4, 3), (5, 3), (6, 3), (1, 4), (6, 5), (1, 6)]
    G = np.zeros((6, 6), dtype=bool)
    for j, i in links:
        G[i - 1, j - 1] = True
    return G


def _blobs(seed):
    r = _rng(seed)
    centers = np.array([[2.0, 5.0], [6.0, 3.0], [8.0, 7.0]])
    return np.vstack([c + 0.7 * r.normal(size=(10, 2)) for c in centers])


def _decay_data(seed):
    x = np.linspace(0, 4, 40)
    return x, 2.5 * np.exp(-1.3 * x) + 0.5 + 0.03 * _rng(seed).normal(size=40)


def _peak_data(seed):
    x = np.linspace(0, 10, 60)
    return x, 3.0 * np.exp(-0.5 * ((x - 5.2) / 0.8) ** 2) + 0.05 * _rng(seed).normal(size=60)


def _sparse(seed, n=8, density=0.3, integer=False):
    r = _rng(seed)
    A = np.where(r.random((n, n)) < density, r.normal(size=(n, n)), 0.0)
    if integer:
        A = np.round(A * 5).astype(np.int64)
        A[3, :] = 0
    return A


def _diag_dominant(seed, n=6):
    r = _rng(seed)
    A = r.uniform(-1, 1, (n, n))
    A += np.diag(np.abs(A).sum(axis=1) + 1)
    return A, r.uniform(-5, 5, n)


def _sym4():
    return np.array([[4.0, 1.0, 0.0, 0.5], [1.0, 3.0, 1.0, 0.0],
                     [0.0, 1.0, 2.0, 1.0], [0.5, 0.0, 1.0, 1.0]])


def _hilbert(m, n):
    i, j = np.indices((m, n))
    return 1.0 / (i + j + 1)


def _tiles(seed, n=3, size=12):
    r = _rng(seed)
    step = size - 1
    big = r.random((n * step + 1, n * step + 1)) < 0.5
    ids = r.choice(np.arange(1000, 4000), n * n, replace=False)
    tiles = {}
    for k in range(n * n):
        i, j = divmod(k, n)
        t = big[i * step:i * step + size, j * step:j * step + size]
        t = np.rot90(t, r.integers(4))
        if r.random() < 0.5:
            t = np.flip(t, axis=1)
        tiles[int(ids[k])] = ["".join("#" if v else "." for v in row) for row in t]
    return tiles


def _crt_program(seed, n=150):
    r = _rng(seed)
    prog = []
    for _ in range(n):
        if r.random() < 0.35:
            prog.append("noop")
        else:
            prog.append("addx %d" % r.integers(-9, 10))
    return prog


def _light_instructions(seed, n=30, size=50):
    r = _rng(seed)
    out = []
    for _ in range(n):
        x1, x2 = np.sort(r.integers(0, size, 2))
        y1, y2 = np.sort(r.integers(0, size, 2))
        verb = ["turn on", "turn off", "toggle"][r.integers(3)]
        out.append("%s %d,%d through %d,%d" % (verb, x1, y1, x2, y2))
    return out


def _enhance_algorithm(seed):
    bits = _rng(seed).random(512) < 0.5
    bits[0], bits[511] = True, False
    return "".join("#" if b else "." for b in bits)


def _machine_mdp():
    # states: machine condition 0 (new) .. 4 (broken); actions: 0 keep, 1 replace
    nS = 5
    P = np.zeros((2, nS, nS))
    for s in range(nS - 1):
        P[0, s, s] = 0.6
        P[0, s, s + 1] = 0.4
    P[0, nS - 1, nS - 1] = 1.0
    P[1, :, 0] = 1.0
    R = np.zeros((nS, 2))
    R[:, 0] = [10.0, 8.0, 5.0, 1.0, -10.0]
    R[:, 1] = 10.0 - 25.0
    return P, R


def _random_mdp(seed, nS=12, nA=3):
    r = _rng(seed)
    P = r.random((nA, nS, nS)) ** 3
    P /= P.sum(axis=2, keepdims=True)
    return P, r.normal(size=(nS, nA))


def _prefs(seed, n=8):
    r = _rng(seed)
    return np.argsort(r.random((n, n)), axis=1), np.argsort(r.random((n, n)), axis=1)


def _graph_matrix(seed, n=7):
    r = _rng(seed)
    C = np.where(r.random((n, n)) < 0.45, r.integers(1, 10, (n, n)).astype(float), np.inf)
    np.fill_diagonal(C, 0.0)
    return C


_EX_BASIN = ["2199943210", "3987894921", "9856789892", "8767896789", "9899965678"]
_EX_OCTO = ["5483143223", "2745854711", "5264556173", "6141336146", "6357385478",
            "4167524645", "2176841721", "6882881134", "4846848554", "5283751526"]
_EX_CHITON = ["1163751742", "1381373672", "2136511328", "3694931569", "7463417111",
              "1319128137", "1359912421", "3125421639", "1293138521", "2311944581"]
_EX_HILL = ["Sabqponm", "abcryxxl", "accszExk", "acctuvwj", "abdefghi"]
_EX_SEATS = ["L.LL.LL.LL", "LLLLLLL.LL", "L.L.L..L..", "LLLL.LL.LL", "L.LL.LL.LL",
             "L.LLLLL.LL", "..L.L.....", "LLLLLLLLLL", "L.LLLLLL.L", "L.LLLLL.LL"]
_EX_CUBES = [".#.", "..#", "###"]
_EX_TREES = ["30373", "25512", "65332", "33549", "35390"]
_EX_VENTS = ["0,9 -> 5,9", "8,0 -> 0,8", "9,4 -> 3,4", "2,2 -> 2,1", "7,0 -> 7,4",
             "6,4 -> 2,0", "0,9 -> 2,9", "3,4 -> 1,4", "0,0 -> 8,8", "5,5 -> 8,2"]
_EX_BINGO_NUMBERS = "7,4,9,5,11,17,23,2,0,14,21,24,10,16,13,6,15,25,12,22,18,20,8,19,3,26,1"
_EX_BINGO_BOARDS = ["22 13 17 11  0", " 8  2 23  4 24", "21  9 14 16  7", " 6 10  3 18  5",
                    " 1 12 20 15 19", "", " 3 15  0  2 22", " 9 18 13 17  5", "19  8  7 25 23",
                    "20 11 10 24  4", "14 21 16 12  6", "", "14 21 17 24  4", "10 16 15  9 19",
                    "18  8 23 26 20", "22 11 13  6  5", " 2  0 12  3  7"]
_EX_DIAG = ["00100", "11110", "10110", "10111", "10101", "01111", "00111", "11100", "10000",
            "11001", "00010", "01010"]
_EX_DOTS = ["6,10", "0,14", "9,10", "0,3", "10,4", "4,11", "6,0", "6,12", "4,1", "0,13",
            "10,12", "3,4", "3,0", "8,4", "1,10", "2,14", "8,10", "9,0"]
_EX_FOLDS = ["fold along y=7", "fold along x=5"]
_EX_DISH = ["O....#....", "O.OO#....#", ".....##...", "OO.#O....O", ".O.....O#.",
            "O.#..O.#.#", "..O..#O..O", ".......O..", "#....###..", "#OO..#...."]
_EX_CUCUMBERS = ["v...>>.vv>", ".vv>>.vv..", ">>.>v>...v", ">>v>>.>.v.", "v>v.vv.v..",
                 ">.>>..v...", ".vv..>.>v.", "v.v..>>v.v", "....v..v.>"]
_EX_GALAXY = ["...#......", ".......#..", "#.........", "..........", "......#...",
              ".#........", ".........#", "..........", ".......#..", "#...#....."]
_EX_ROPE = ["R 5", "U 8", "L 8", "D 3", "R 17", "D 10", "L 25", "U 20"]
_EX_LAGOON = ["R 6 (#70c710)", "D 5 (#0dc571)", "L 2 (#5713f0)", "D 2 (#d2c081)",
              "R 2 (#59c680)", "D 2 (#411b91)", "L 5 (#8ceee2)", "U 2 (#caa173)",
              "L 1 (#1b58a2)", "U 2 (#caa171)", "R 2 (#7807d2)", "U 3 (#a77fa3)",
              "L 2 (#015232)", "U 2 (#7a21e3)"]
_EX_IMAGE = ["#..#.", "#....", "##..#", "..#..", "..###"]
_PROJECT = {"A": (3, []), "B": (2, ["A"]), "C": (4, ["A"]), "D": (6, ["B", "C"]),
            "E": (2, ["C"]), "F": (3, ["D", "E"]), "G": (1, ["E"]), "H": (2, ["F", "G"])}
_IO_A = np.array([[0.15, 0.25, 0.05], [0.20, 0.05, 0.40], [0.30, 0.25, 0.05]])


CASES = [
    # ported from MATLAB / Octave
    ("newton_sys_circle_exp", newton_sys, lambda: (F_circle_exp, J_circle_exp, [1.0, -1.7]), {}),
    ("newton_sys_three", newton_sys, lambda: (F_three, J_three, np.array([0.1, 0.1, -0.1])), {}),
    ("gauss_elim_int", gauss_elim, lambda: (np.array([[2, 1, -1], [-3, -1, 2], [-2, 1, 2]]), [8, -11, -3]), {}),
    ("ex1_multi", ex1_multi, lambda: (_housing(1),), {}),
    ("ex2_reg", ex2_reg, lambda: (*_microchips(2), 1.0, 5.0, 100), {}),
    ("euler_vdp", euler_ode, lambda: (vdp_rhs, (0.0, 5.0), [2.0, 0.0], 0.05), {}),
    ("rk4_lotka", rk4_sys, lambda: (lotka_rhs, 0.0, 15.0, np.array([10.0, 5.0]), 300), {}),
    ("polyval_horner", polyval_horner, lambda: ([1, -6, 11, -6], np.linspace(0, 4, 9)), {}),
    ("conv_matlab", conv_matlab, lambda: (np.array([1, -1]), np.arange(1, 6)), {}),
    ("filter_matlab_iir_column", filter_matlab, lambda: ([0.2], [1, -0.8], np.ones((12, 1))), {}),
    ("interp1_linear", interp1_linear, lambda: (np.array([0.0, 1, 2, 4, 7]), np.sin(np.array([0.0, 1, 2, 4, 7])), np.array([-1.0, 0, 0.5, 3, 7, 8])), {}),
    ("polyfit_normal", polyfit_normal, lambda: (np.linspace(-1, 2, 15), np.linspace(-1, 2, 15) ** 3 - np.linspace(-1, 2, 15) + 0.05 * _rng(3).normal(size=15), 3), {}),
    ("magic_odd_7", magic_odd, lambda: (7,), {}),
    ("magic_formula_5", magic_formula, lambda: (5,), {}),
    ("calendar_info", calendar_info, lambda: ([[2000, 1, 1], [2024, 2, 29], [1969, 7, 20], [2038, 1, 19]],), {}),
    ("sec2hms", sec2hms, lambda: (np.array([3725.5, -3725.5, 59.999, 2 * 86400 + 1.25]),), {}),
    ("chol_solve_spd", chol_solve, lambda: (_spd(4), _rng(5).normal(size=6)), {}),
    ("chol_solve_indefinite", chol_solve, lambda: (np.array([[1.0, 2.0], [2.0, 1.0]]), np.array([1.0, 1.0])), {}),
    ("thomas", thomas, lambda: (np.r_[0.0, -np.ones(9)], 2.5 * np.ones(10), np.r_[-np.ones(9), 0.0], np.arange(10.0)), {}),
    ("heat_cn", heat_cn, lambda: (1.0, 0.1, 21, 50, 1.0), {}),
    ("pagerank_power_bool", pagerank_moler, lambda: (_moler_graph(),), {}),
    ("pagerank_direct_dangling", pagerank_moler, lambda: (np.array([[0, 1, 1, 0], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]), 0.85, "direct"), {}),
    ("kmeans_ex7", runkMeans, lambda: (_blobs(6), np.array([[3.0, 3.0], [6.0, 2.0], [8.0, 5.0]]), 10), {}),
    ("fixed_point_cos", fixed_point, lambda: (math.cos, 1.0), {}),
    ("fixed_point_logistic_maxit", fixed_point, lambda: (logistic32, 0.3, 1e-10, 40), {}),
    ("dft_matrix", dft_matrix, lambda: (np.array([1.0, 2.0, 3.0, 4.0, 0.0, 0.0, 0.0, 0.0]),), {}),
    # SciPy routines by hand
    ("root_brentq_cubic", find_root, lambda: (cubic, 2.0, 3.0), {}),
    ("root_bisect_cubic", find_root, lambda: (cubic, 2.0, 3.0, "bisect"), {}),
    ("root_secant_kepler", find_root, lambda: (kepler, 1.0, 1.5, "secant"), {}),
    ("root_newton_fprime", find_root, lambda: (kepler, 1.0, None, "newton", kepler_prime), {}),
    ("root_newton_cycles", find_root, lambda: (cycling_poly, 0.0, None, "newton", cycling_poly_prime), {}),
    ("bracket_root_found", bracket_root, lambda: (cubic, 0.0), {}),
    ("bracket_root_none", bracket_root, lambda: (no_real_root, 0.0, 0.5, 1.6, 8), {}),
    ("golden_section", golden_section, lambda: (bumpy, 0.5, 2.5), {}),
    ("brent_min", brent_min, lambda: (bumpy, 0.5, 1.5, 2.5), {}),
    ("bfgs_rosen", bfgs, lambda: (rosen, rosen_der, np.array([-1.2, 1.0])), {}),
    ("bfgs_himmelblau_maxiter", bfgs, lambda: (himmelblau, himmelblau_grad, [0.0, 0.0], 1e-6, 5), {}),
    ("nelder_mead_rosen", nelder_mead, lambda: (rosen, [-1.2, 1.0]), {}),
    ("nelder_mead_restarts", nelder_mead_restarts, lambda: (himmelblau, [-5.0, -5.0], [5.0, 5.0], 3), {"rand": True}),
    ("lm_exp_decay", levenberg_marquardt, lambda: (exp_decay, exp_decay_jac, [1.0, 1.0, 0.0], *_decay_data(7)), {}),
    ("lm_gauss_peak", levenberg_marquardt, lambda: (gauss_peak, gauss_peak_jac, np.array([1.0, 4.5, 1.5]), *_peak_data(8)), {}),
    ("momentum_rosen", momentum_descent, lambda: (rosen_der, np.array([-1.5, 2.0]), 5e-4, 0.9, 3000), {}),
    ("spline_uneven", spline_interpolate, lambda: (np.array([0.0, 0.5, 1.5, 2.0, 4.0, 5.0]), np.array([0.0, 0.8, 1.0, 0.6, -0.4, 0.1]), np.linspace(-0.5, 5.5, 25)), {}),
    ("lagrange_scalar", lagrange_interp, lambda: (np.array([1, 2, 4, 5]), np.array([1, 4, 16, 25]), 3.0), {}),
    ("runge_chebyshev", runge_nodes, lambda: (11, "chebyshev"), {}),
    ("newton_interp", newton_interp, lambda: (np.array([0, 1, 3, 4]), np.array([1.0, 3.0, 49.0, 129.0]), np.linspace(0, 4, 5)), {}),
    ("romberg_sqrt_limit", romberg, lambda: (np.sqrt, 0.0, 1.0, 1e-12, 6), {}),
    ("quadrature_table", quadrature_table, lambda: (gauss_bell, 0.0, 2.0, math.sqrt(math.pi) / 2 * math.erf(2.0)), {}),
    ("gauss_legendre_2d", gauss_legendre_2d, lambda: (peaks2d, 0.0, 1.0, 0.0, 2.0, 8), {}),
    ("rk45_lotka", rk45, lambda: (lotka_volterra, (0.0, 15.0), np.array([10.0, 5.0]), 1e-8, 1e-10), {}),
    ("rk45_vdp_max_steps", rk45, lambda: (vdp, [0.0, 20.0], [2.0, 0.0], 1e-6, 1e-9, None, 40), {}),
    ("implicit_euler_robertson", implicit_euler, lambda: (robertson, robertson_jac, [1.0, 0.0, 0.0], 0.0, 40.0, 40), {}),
    ("csr_roundtrip_int", csr_roundtrip, lambda: (_sparse(9, integer=True), np.arange(8) - 3), {}),
    ("poisson_cg", poisson_cg, lambda: (8,), {}),
    ("cg_dense_maxiter", conjugate_gradient, lambda: (_hilbert(8, 8), np.ones(8), None, 1e-12, 4), {}),
    ("gauss_seidel", stationary_solve, lambda: (*_diag_dominant(10), "gauss-seidel"), {}),
    ("jacobi_diverges", stationary_solve, lambda: ([[1, 2], [3, 1]], [1, 1], "jacobi", 1.0, 1e-8, 30), {}),
    ("power_iteration", power_iteration, lambda: (_sym4(),), {}),
    ("inverse_iteration_exact_shift", inverse_iteration, lambda: (np.array([[2.0, 1.0, 0.0], [1.0, 2.0, 0.0], [0.0, 0.0, 5.0]]), 3.0), {}),
    ("gram_schmidt_classical", gram_schmidt_qr, lambda: (_hilbert(8, 6), False), {}),
    ("qr_algorithm", qr_algorithm, lambda: (_sym4(),), {}),
    ("householder_lstsq", householder_lstsq, lambda: (np.vander(np.linspace(0, 1, 8), 3), np.exp(np.linspace(0, 1, 8))), {}),
    ("lu_det_solve", lu_det_solve, lambda: (np.array([[1, 3, 5, 2], [2, 4, 7, 1], [1, 1, 0, 3], [4, 2, 1, 1]]), np.array([1.0, 2.0, 3.0, 4.0])), {}),
    ("lu_det_solve_singular", lu_det_solve, lambda: (np.array([[1.0, 2.0], [2.0, 4.0]]), np.array([1.0, 2.0])), {}),
    ("savgol_smooth", savgol_smooth, lambda: (np.sin(np.linspace(0, 3, 50)) + 0.1 * _rng(12).normal(size=50), 9, 3), {}),
    ("fsolve_fd", fsolve_fd, lambda: (chem_equilibrium, [0.0, 0.0]), {}),
    # Advent-of-Code style puzzles
    ("aoc_low_points", low_points, lambda: (_EX_BASIN,), {}),
    ("aoc_basins", basins, lambda: (_EX_BASIN,), {}),
    ("aoc_octopus", octopus, lambda: (_EX_OCTO, 100), {}),
    ("aoc_chiton_tiled", chiton, lambda: (_EX_CHITON, 5), {}),
    ("aoc_hill_any_start", hill_climb, lambda: (_EX_HILL, True), {}),
    ("aoc_seating", seating, lambda: (_EX_SEATS,), {}),
    ("aoc_seating_sight", seating, lambda: (_EX_SEATS, True), {}),
    ("aoc_cubes_3d", conway_cubes, lambda: (_EX_CUBES, 6), {}),
    ("aoc_cubes_4d", conway_cubes, lambda: (_EX_CUBES, 4, 4), {}),
    ("aoc_tree_house", tree_house, lambda: (_EX_TREES,), {}),
    ("aoc_vents_diagonal", vents, lambda: (_EX_VENTS, True), {}),
    ("aoc_bingo", bingo, lambda: (_EX_BINGO_NUMBERS, _EX_BINGO_BOARDS), {}),
    ("aoc_lanternfish_256", lanternfish, lambda: ("3,4,3,1,2", 256), {}),
    ("aoc_crab_fuel", crab_fuel, lambda: ("16,1,2,0,4,2,7,1,2,14",), {}),
    ("aoc_diagnostic", diagnostic, lambda: (_EX_DIAG,), {}),
    ("aoc_sonar", sonar, lambda: ([199, 200, 208, 210, 200, 207, 240, 269, 260, 263],), {}),
    ("aoc_fold_paper", fold_paper, lambda: (_EX_DOTS, _EX_FOLDS), {}),
    ("aoc_tile_corners", tile_corners, lambda: (_tiles(13),), {}),
    ("aoc_spin_cycle", spin_cycle, lambda: (_EX_DISH,), {}),
    ("aoc_memory_banks", memory_banks, lambda: (list(_rng(14).integers(0, 10, 8)),), {}),
    ("aoc_sea_cucumbers", sea_cucumbers, lambda: (_EX_CUCUMBERS,), {}),
    ("aoc_galaxies_million", galaxies, lambda: (_EX_GALAXY, 1000000), {}),
    ("aoc_fuel_cells_sizes", fuel_cells, lambda: (42, 300, range(1, 20)), {}),
    ("aoc_rope_10", rope, lambda: (_EX_ROPE, 10), {}),
    ("aoc_crt", crt, lambda: (_crt_program(15),), {}),
    ("aoc_lagoon_hex", lagoon, lambda: (_EX_LAGOON, True), {}),
    ("aoc_light_grid", light_grid, lambda: (_light_instructions(16), 50), {}),
    ("aoc_enhance", enhance, lambda: (_enhance_algorithm(17), _EX_IMAGE, 4), {}),
    ("aoc_knot_product", knot_product, lambda: ("3,4,1,5", 5), {}),
    ("aoc_knot_hashes", knot_hashes, lambda: (["", "AoC 2017"],), {}),
    ("aoc_range_queries", range_queries, lambda: (_rng(18).integers(-20, 50, 40), [(0, 39), (5, 5), (10, 20), (30, 35)]), {}),
    # operations research and economics
    ("growth_vfi", growth_vfi, lambda: (), {}),
    ("stochastic_growth", stochastic_growth, lambda: (), {}),
    ("policy_iteration_machine", policy_iteration, lambda: (*_machine_mdp(), 0.9), {}),
    ("value_iteration_random_mdp", value_iteration_mdp, lambda: (*_random_mdp(19), 0.95), {}),
    ("gridworld", gridworld, lambda: (["...T", ".#.T", "...."], {(0, 3): 1.0, (1, 3): -1.0}), {}),
    ("simplex_wyndor", simplex_max, lambda: ([3, 5], [[1, 0], [0, 2], [3, 2]], [4, 12, 18]), {}),
    ("simplex_unbounded", simplex_max, lambda: (np.array([1.0, 1.0]), np.array([[1.0, -1.0], [-1.0, 1.0]]), np.array([2.0, 3.0])), {}),
    ("stationary_eig", stationary_distribution, lambda: ([[0.9, 0.075, 0.025], [0.15, 0.8, 0.05], [0.25, 0.25, 0.5]],), {}),
    ("stationary_power_periodic", stationary_distribution, lambda: (np.array([[0.0, 1.0], [1.0, 0.0]]), "power", 1e-12, 50), {}),
    ("stationary_solve", stationary_distribution, lambda: (_random_mdp(20, 6, 1)[0][0], "solve"), {}),
    ("absorbing_gamblers_ruin", absorbing_chain, lambda: (gamblers_ruin(6, 0.4), [0, 6]), {}),
    ("inventory_sS", inventory_sS, lambda: (15, 45, 365, 4.0, 2, 1.0, 10.0, 40.0, 1), {}),
    ("best_sS", best_sS, lambda: ([5, 10, 15], [25, 40, 60], 3, 120), {}),
    ("queue_lindley_seeded", queue_lindley, lambda: (0.9, 1.0, 500, 7), {}),
    ("queue_lindley_unseeded", queue_lindley, lambda: (0.5, 1.0, 300), {"rand": True}),
    ("tandem_queue", tandem_queue, lambda: (np.cumsum(_rng(21).exponential(1.0, 40)), _rng(22).exponential(0.8, (40, 3))), {}),
    ("newsvendor_empirical", newsvendor, lambda: (12.0, 5.0, 1.0, _rng(23).poisson(80, 200)), {}),
    ("newsvendor_normal", newsvendor_normal, lambda: (100.0, 20.0, 12.0, 5.0, 1.0), {}),
    ("stable_marriage", stable_marriage, lambda: _prefs(24), {}),
    ("assignment_float", compare_assignment, lambda: (_rng(25).uniform(1, 10, (6, 6)),), {}),
    ("assignment_int_greedy_trap", compare_assignment, lambda: ([[1, 2, 9], [2, 9, 9], [9, 9, 1]],), {}),
    ("knapsack", knapsack, lambda: ([60.0, 100.0, 120.0, 30.0, 75.0], [10, 20, 30, 5, 15], 50), {}),
    ("knapsack_zero_capacity", knapsack, lambda: ([5, 4], [1, 2], 0), {}),
    ("dijkstra_path", dijkstra_matrix, lambda: (_graph_matrix(26), 0, 6), {}),
    ("dijkstra_unreachable", dijkstra_matrix, lambda: (np.array([[0.0, 2.0, np.inf], [2.0, 0.0, np.inf], [np.inf, np.inf, 0.0]]), 0, 2), {}),
    ("bellman_ford_negative_cycle", bellman_ford, lambda: ([(0, 1, 1.0), (1, 2, -2.0), (2, 1, 1.0), (2, 3, 3.0)], 4), {}),
    ("critical_path", critical_path, lambda: (_PROJECT,), {}),
    ("wagner_whitin", wagner_whitin, lambda: ([20, 50, 10, 50, 50, 10, 20, 40], 100.0, 1.0), {}),
    ("solow", solow, lambda: (1.0,), {}),
    ("mccall_sweep", mccall_sweep, lambda: (np.array([10.0, 25.0, 40.0]),), {}),
    ("lorenz_gini", lorenz_gini, lambda: (_rng(27).lognormal(10, 0.8, 50),), {}),
    ("leontief", leontief, lambda: (_IO_A, np.array([100.0, 50.0, 80.0]), np.array([0.2, 0.5, 0.3])), {}),
    ("cournot", cournot, lambda: (100.0, 1.0, [10.0, 12.0, 20.0]), {}),
]
