"""Everyday NumPy functions, fourth collection: scientific-Python lecture notes,
numerical-methods textbook exercises, Rosetta Code numeric tasks and
Project-Euler-style puzzles, written the way such notes and answers write them
(index loops, while loops to a tolerance, lists appended and turned into arrays,
float()/int()/.item(), early returns, in-place slice updates, np.copy then
modify, tuples and dicts returned, np.random.seed inside). Each entry of CASES is
(name, function, make_args, opts); make_args() returns the arguments; opts
{"rand": True} marks a function that draws random numbers inside (compared by
type, dtype and shape only)."""
import numpy as np


# ----------------------------------------------------------------------------
# Partial differential equations by finite differences
# ----------------------------------------------------------------------------

def advection_upwind(u0, c=1.0, dx=0.1, dt=0.05, steps=20):
    u = u0.copy()
    nx = len(u)
    for n in range(steps):
        un = u.copy()
        for i in range(1, nx):
            u[i] = un[i] - c * dt / dx * (un[i] - un[i - 1])
    return u


def advection_lax_wendroff(u0, c=1.0, dx=0.1, dt=0.05, steps=20):
    u = np.copy(u0)
    C = c * dt / dx
    for n in range(steps):
        un = u.copy()
        u[1:-1] = (un[1:-1] - 0.5 * C * (un[2:] - un[:-2])
                   + 0.5 * C ** 2 * (un[2:] - 2 * un[1:-1] + un[:-2]))
        u[0] = u[-2]
        u[-1] = u[1]
    return u


def burgers_inviscid(nx=41, steps=30, dt=0.01):
    dx = 2.0 / (nx - 1)
    u = np.ones(nx)
    u[int(0.5 / dx):int(1 / dx + 1)] = 2.0
    for n in range(steps):
        un = u.copy()
        for i in range(1, nx):
            u[i] = un[i] - un[i] * dt / dx * (un[i] - un[i - 1])
    return u


def diffusion_2d_loops(nx=8, ny=8, nu=0.05, steps=10):
    dx = 2.0 / (nx - 1)
    dy = 2.0 / (ny - 1)
    sigma = 0.25
    dt = sigma * dx * dy / nu
    u = np.ones((ny, nx))
    u[int(0.5 / dy):int(1 / dy + 1), int(0.5 / dx):int(1 / dx + 1)] = 2
    for n in range(steps):
        un = u.copy()
        for j in range(1, ny - 1):
            for i in range(1, nx - 1):
                u[j, i] = (un[j, i]
                           + nu * dt / dx ** 2 * (un[j, i + 1] - 2 * un[j, i] + un[j, i - 1])
                           + nu * dt / dy ** 2 * (un[j + 1, i] - 2 * un[j, i] + un[j - 1, i]))
        u[0, :] = 1
        u[-1, :] = 1
        u[:, 0] = 1
        u[:, -1] = 1
    return u


def wave_2d(n=9, steps=15, c=1.0, dt=0.05, dx=0.2):
    u = np.zeros((n, n))
    u[n // 2, n // 2] = 1.0
    u_prev = u.copy()
    r2 = (c * dt / dx) ** 2
    for _ in range(steps):
        lap = (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4 * u[1:-1, 1:-1])
        u_next = np.zeros_like(u)
        u_next[1:-1, 1:-1] = 2 * u[1:-1, 1:-1] - u_prev[1:-1, 1:-1] + r2 * lap
        u_prev, u = u, u_next
    return u, float(np.abs(u).max())


def poisson_sor(f, h, omega=1.5, tol=1e-6, max_iter=2000):
    n = f.shape[0]
    u = np.zeros_like(f)
    for it in range(max_iter):
        max_change = 0.0
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                new = 0.25 * (u[i + 1, j] + u[i - 1, j] + u[i, j + 1] + u[i, j - 1] - h * h * f[i, j])
                change = abs(new - u[i, j])
                u[i, j] = u[i, j] + omega * (new - u[i, j])
                if change > max_change:
                    max_change = change
        if max_change < tol:
            return u, it + 1
    return u, max_iter


def heat_dirichlet_history(L=1.0, nx=11, alpha=0.01, t_end=2.0):
    dx = L / (nx - 1)
    dt = 0.4 * dx ** 2 / alpha
    x = np.linspace(0, L, nx)
    u = np.sin(np.pi * x)
    t = 0.0
    history = [u.copy()]
    while t < t_end:
        u[1:-1] = u[1:-1] + alpha * dt / dx ** 2 * (u[2:] - 2 * u[1:-1] + u[:-2])
        t += dt
        history.append(u.copy())
    return np.array(history), t


def laplace_relax_until(n=10, tol=1e-4):
    phi = np.zeros((n, n))
    phi[0, :] = 1.0
    delta = 1.0
    iterations = 0
    while delta > tol:
        new = phi.copy()
        new[1:-1, 1:-1] = 0.25 * (phi[2:, 1:-1] + phi[:-2, 1:-1] + phi[1:-1, 2:] + phi[1:-1, :-2])
        delta = np.max(np.abs(new - phi))
        phi = new
        iterations += 1
    return phi, iterations


# ----------------------------------------------------------------------------
# Ordinary differential equations
# ----------------------------------------------------------------------------

def euler_decay_error(k=0.5, y0=1.0, t_end=4.0, n=40):
    h = t_end / n
    t = np.linspace(0, t_end, n + 1)
    y = np.zeros(n + 1)
    y[0] = y0
    for i in range(n):
        y[i + 1] = y[i] - h * k * y[i]
    exact = y0 * np.exp(-k * t)
    err = np.abs(y - exact)
    return t, y, err.max()


def heun_logistic(r=1.0, K=10.0, y0=0.5, h=0.1, n=50):
    ys = [y0]
    y = y0
    for i in range(n):
        f1 = r * y * (1 - y / K)
        yp = y + h * f1
        f2 = r * yp * (1 - yp / K)
        y = y + h / 2 * (f1 + f2)
        ys.append(y)
    return np.array(ys)


def lorenz(x):
    sigma, rho, beta = 10.0, 28.0, 8.0 / 3.0
    return np.array([sigma * (x[1] - x[0]), x[0] * (rho - x[2]) - x[1], x[0] * x[1] - beta * x[2]])


def rk4_lorenz(x0, h=0.01, n=100):
    traj = np.zeros((n + 1, 3))
    traj[0] = x0
    x = x0.copy()
    for i in range(n):
        k1 = lorenz(x)
        k2 = lorenz(x + h / 2 * k1)
        k3 = lorenz(x + h / 2 * k2)
        k4 = lorenz(x + h * k3)
        x = x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        traj[i + 1] = x
    return traj


def kepler_velocity_verlet(dt=0.01, steps=300):
    r = np.array([1.0, 0.0])
    v = np.array([0.0, 1.0])
    a = -r / np.linalg.norm(r) ** 3
    energies = []
    for _ in range(steps):
        r = r + v * dt + 0.5 * a * dt ** 2
        a_new = -r / np.linalg.norm(r) ** 3
        v = v + 0.5 * (a + a_new) * dt
        a = a_new
        energies.append(0.5 * np.dot(v, v) - 1.0 / np.linalg.norm(r))
    energies = np.array(energies)
    return r, v, energies.max() - energies.min()


def adaptive_rk12(y0=1.0, t_end=2.0, tol=1e-4):
    t = 0.0
    y = y0
    h = 0.1
    ts = [t]
    ys = [y]
    while t < t_end:
        if t + h > t_end:
            h = t_end - t
        k1 = -2.0 * t * y
        k2 = -2.0 * (t + h) * (y + h * k1)
        y_euler = y + h * k1
        y_heun = y + h / 2 * (k1 + k2)
        err = abs(y_heun - y_euler)
        if err < tol:
            t = t + h
            y = y_heun
            ts.append(t)
            ys.append(y)
        h = 0.9 * h * (tol / max(err, 1e-12)) ** 0.5
    return np.array(ts), np.array(ys)


def symplectic_euler_oscillator(x0=1.0, p0=0.0, dt=0.1, n=100):
    x = np.zeros(n)
    p = np.zeros(n)
    x[0], p[0] = x0, p0
    for i in range(n - 1):
        p[i + 1] = p[i] - dt * x[i]
        x[i + 1] = x[i] + dt * p[i + 1]
    H = 0.5 * (x ** 2 + p ** 2)
    return x, p, H


def predator_prey_rk4(z0, t_end=5.0, n=100):
    def f(z):
        x, y = z[0], z[1]
        return np.array([1.1 * x - 0.4 * x * y, 0.1 * x * y - 0.4 * y])
    h = t_end / n
    z = np.array(z0, dtype=float)
    out = [z]
    for _ in range(n):
        k1 = f(z)
        k2 = f(z + 0.5 * h * k1)
        k3 = f(z + 0.5 * h * k2)
        k4 = f(z + h * k3)
        z = z + (h / 6.0) * (k1 + 2 * k2 + 2 * k3 + k4)
        out.append(z)
    return np.array(out)


def shooting_projectile(target=10.0, v=12.0, g=9.81, tol=1e-8):
    def landing(theta):
        vx, vy = v * np.cos(theta), v * np.sin(theta)
        x, y, dt = 0.0, 0.0, 0.001
        while y >= 0.0:
            x += vx * dt
            vy -= g * dt
            y += vy * dt
        return x
    lo, hi = 0.05, np.pi / 4
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        if landing(mid) < target:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


# ----------------------------------------------------------------------------
# Monte Carlo and random processes
# ----------------------------------------------------------------------------

def buffon_needle(n=2000, L=1.0, d=2.0):
    np.random.seed(7)
    hits = 0
    for i in range(n):
        x = np.random.rand() * d / 2
        theta = np.random.rand() * np.pi / 2
        if x <= L / 2 * np.sin(theta):
            hits += 1
    if hits == 0:
        return None
    return 2 * L * n / (d * hits)


def birthday_simulation(n_people=23, trials=500):
    np.random.seed(1)
    shared = 0
    for t in range(trials):
        days = np.random.randint(0, 365, n_people)
        if len(np.unique(days)) < n_people:
            shared += 1
    return shared / trials


def gamblers_ruin(start=5, goal=10, p=0.5, trials=200):
    np.random.seed(3)
    wins = 0
    lengths = []
    for _ in range(trials):
        money = start
        steps = 0
        while 0 < money < goal:
            if np.random.rand() < p:
                money += 1
            else:
                money -= 1
            steps += 1
        if money == goal:
            wins += 1
        lengths.append(steps)
    return wins / trials, np.mean(lengths)


def msd_random_walks(n_walkers=50, n_steps=100):
    np.random.seed(0)
    steps = np.random.choice([-1, 1], size=(n_walkers, n_steps))
    positions = np.cumsum(steps, axis=1)
    msd = np.mean(positions ** 2, axis=0)
    slope = np.polyfit(np.arange(1, n_steps + 1), msd, 1)[0]
    return msd, slope


def dice_sum_distribution(n_rolls=3000):
    np.random.seed(11)
    rolls = np.random.randint(1, 7, size=(n_rolls, 2))
    sums = rolls.sum(axis=1)
    counts = np.zeros(13, dtype=int)
    for s in sums:
        counts[s] += 1
    probs = counts[2:] / n_rolls
    return probs, int(np.argmax(counts))


def mc_integral_error(n_list=(10, 100, 1000)):
    np.random.seed(5)
    errors = []
    for n in n_list:
        x = np.random.uniform(0, 1, n)
        est = np.mean(np.exp(-x ** 2))
        errors.append(abs(est - 0.746824132812427))
    return np.array(errors)


def ising_energy_magnetization(L=6, T=2.0, sweeps=20):
    np.random.seed(2)
    spins = np.random.choice([-1, 1], size=(L, L))
    for sweep in range(sweeps):
        for k in range(L * L):
            i = np.random.randint(0, L)
            j = np.random.randint(0, L)
            nb = spins[(i + 1) % L, j] + spins[i - 1, j] + spins[i, (j + 1) % L] + spins[i, j - 1]
            dE = 2 * spins[i, j] * nb
            if dE <= 0 or np.random.rand() < np.exp(-dE / T):
                spins[i, j] *= -1
    E = -np.sum(spins * (np.roll(spins, 1, axis=0) + np.roll(spins, 1, axis=1)))
    M = abs(spins.sum()) / (L * L)
    return E, M


def ising_1d_exact_energy(spins, J=1.0, h=0.0):
    N = len(spins)
    E = 0.0
    for i in range(N):
        E -= J * spins[i] * spins[(i + 1) % N]
        E -= h * spins[i]
    return E


def self_avoiding_walk(n_steps=30):
    np.random.seed(4)
    pos = (0, 0)
    visited = {pos}
    path = [pos]
    moves = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    for _ in range(n_steps):
        options = [(pos[0] + dx, pos[1] + dy) for dx, dy in moves
                   if (pos[0] + dx, pos[1] + dy) not in visited]
        if not options:
            break
        pos = options[np.random.randint(len(options))]
        visited.add(pos)
        path.append(pos)
    return np.array(path)


def percolation_fraction(n=8, p=0.6, trials=20):
    np.random.seed(9)
    spanning = 0
    for _ in range(trials):
        open_ = np.random.rand(n, n) < p
        reached = np.zeros((n, n), dtype=bool)
        stack = [(0, j) for j in range(n) if open_[0, j]]
        for (i, j) in stack:
            reached[i, j] = True
        while stack:
            i, j = stack.pop()
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                a, b = i + di, j + dj
                if 0 <= a < n and 0 <= b < n and open_[a, b] and not reached[a, b]:
                    reached[a, b] = True
                    stack.append((a, b))
        if reached[-1].any():
            spanning += 1
    return spanning / trials


# ----------------------------------------------------------------------------
# Root finding, integration, interpolation
# ----------------------------------------------------------------------------

def secant_method(x0=1.0, x1=2.0, tol=1e-10, max_iter=50):
    f = lambda x: x ** 3 - 2 * x - 5  # noqa: E731
    for i in range(max_iter):
        f0, f1 = f(x0), f(x1)
        if f1 == f0:
            break
        x2 = x1 - f1 * (x1 - x0) / (f1 - f0)
        if abs(x2 - x1) < tol:
            return x2, i + 1
        x0, x1 = x1, x2
    return x1, max_iter


def regula_falsi(a, b, tol=1e-9, max_iter=100):
    f = lambda x: np.cos(x) - x  # noqa: E731
    fa, fb = f(a), f(b)
    if fa * fb > 0:
        raise ValueError("no sign change")
    c = a
    for _ in range(max_iter):
        c = b - fb * (b - a) / (fb - fa)
        fc = f(c)
        if abs(fc) < tol:
            break
        if fa * fc < 0:
            b, fb = c, fc
        else:
            a, fa = c, fc
    return c


def fixed_point_iteration(x0=0.5, tol=1e-10):
    x = x0
    history = [x]
    while True:
        x_new = np.exp(-x)
        history.append(x_new)
        if abs(x_new - x) < tol:
            break
        x = x_new
    return x_new, len(history)


def newton_system_2d(x0, tol=1e-12, max_iter=30):
    x = np.array(x0, dtype=float)
    for k in range(max_iter):
        F = np.array([x[0] ** 2 + x[1] ** 2 - 4, np.exp(x[0]) + x[1] - 1])
        J = np.array([[2 * x[0], 2 * x[1]], [np.exp(x[0]), 1.0]])
        dx = np.linalg.solve(J, -F)
        x += dx
        if np.linalg.norm(dx) < tol:
            break
    return x, k


def newton_many_roots(coeffs, starts, tol=1e-12):
    p = np.poly1d(coeffs)
    dp = p.deriv()
    roots = []
    for x in starts:
        for _ in range(100):
            step = p(x) / dp(x)
            x = x - step
            if abs(step) < tol:
                break
        if not any(abs(x - r) < 1e-6 for r in roots):
            roots.append(x)
    return np.sort(np.array(roots))


def trapezoid_convergence(a=0.0, b=np.pi):
    results = []
    for n in [4, 8, 16, 32, 64]:
        x = np.linspace(a, b, n + 1)
        y = np.sin(x)
        h = (b - a) / n
        s = h * (0.5 * y[0] + y[1:-1].sum() + 0.5 * y[-1])
        results.append((n, s, abs(s - 2.0)))
    return np.array(results)


def romberg(a=0.0, b=1.0, levels=5):
    f = lambda x: 4.0 / (1.0 + x ** 2)  # noqa: E731
    R = np.zeros((levels, levels))
    h = b - a
    R[0, 0] = 0.5 * h * (f(a) + f(b))
    for i in range(1, levels):
        h /= 2
        s = 0.0
        for k in range(1, 2 ** i, 2):
            s += f(a + k * h)
        R[i, 0] = 0.5 * R[i - 1, 0] + h * s
        for j in range(1, i + 1):
            R[i, j] = R[i, j - 1] + (R[i, j - 1] - R[i - 1, j - 1]) / (4 ** j - 1)
    return R[levels - 1, levels - 1], R


def simpson_38(f_vals, h):
    n = len(f_vals) - 1
    total = f_vals[0] + f_vals[n]
    for i in range(1, n):
        if i % 3 == 0:
            total += 2 * f_vals[i]
        else:
            total += 3 * f_vals[i]
    return 3 * h / 8 * total


def gauss_legendre_quad(n=5):
    nodes, weights = np.polynomial.legendre.leggauss(n)
    a, b = 0.0, 2.0
    x = 0.5 * (b - a) * nodes + 0.5 * (b + a)
    return 0.5 * (b - a) * np.sum(weights * x ** 2 * np.exp(-x))


def lagrange_interp(xp, yp, x):
    n = len(xp)
    result = np.zeros_like(x)
    for i in range(n):
        L = np.ones_like(x)
        for j in range(n):
            if i != j:
                L *= (x - xp[j]) / (xp[i] - xp[j])
        result += yp[i] * L
    return result


def divided_differences(xp, yp, x):
    n = len(xp)
    coef = np.array(yp, dtype=float)
    for j in range(1, n):
        for i in range(n - 1, j - 1, -1):
            coef[i] = (coef[i] - coef[i - 1]) / (xp[i] - xp[i - j])
    p = coef[n - 1]
    for k in range(n - 2, -1, -1):
        p = coef[k] + (x - xp[k]) * p
    return coef, p


def natural_cubic_spline(x, y, xq):
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
    b = np.zeros(n)
    d = np.zeros(n)
    for i in range(n):
        b[i] = (y[i + 1] - y[i]) / h[i] - h[i] * (2 * c[i] + c[i + 1]) / 3
        d[i] = (c[i + 1] - c[i]) / (3 * h[i])
    out = np.empty(len(xq))
    for k, xv in enumerate(xq):
        i = np.searchsorted(x, xv) - 1
        i = min(max(i, 0), n - 1)
        dx = xv - x[i]
        out[k] = y[i] + b[i] * dx + c[i] * dx ** 2 + d[i] * dx ** 3
    return out


def chebyshev_vs_uniform(n=9):
    f = lambda x: 1.0 / (1 + 25 * x ** 2)  # noqa: E731
    xx = np.linspace(-1, 1, 201)
    errs = {}
    for name in ["uniform", "chebyshev"]:
        if name == "uniform":
            nodes = np.linspace(-1, 1, n)
        else:
            k = np.arange(n)
            nodes = np.cos((2 * k + 1) * np.pi / (2 * n))
        c = np.polyfit(nodes, f(nodes), n - 1)
        errs[name] = np.max(np.abs(np.polyval(c, xx) - f(xx)))
    return errs


# ----------------------------------------------------------------------------
# Linear algebra
# ----------------------------------------------------------------------------

def gauss_partial_pivot(A, b):
    A = A.astype(float)
    b = b.astype(float)
    n = len(b)
    for k in range(n - 1):
        p = np.argmax(np.abs(A[k:, k])) + k
        if A[p, k] == 0:
            raise ValueError("singular")
        if p != k:
            A[[k, p]] = A[[p, k]]
            b[[k, p]] = b[[p, k]]
        for i in range(k + 1, n):
            m = A[i, k] / A[k, k]
            A[i, k:] = A[i, k:] - m * A[k, k:]
            b[i] = b[i] - m * b[k]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - np.dot(A[i, i + 1:], x[i + 1:])) / A[i, i]
    return x


def thomas_tridiagonal(a, b, c, d):
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


def gauss_seidel(A, b, tol=1e-10, max_iter=500):
    n = len(b)
    x = np.zeros(n)
    for k in range(max_iter):
        x_old = x.copy()
        for i in range(n):
            s1 = np.dot(A[i, :i], x[:i])
            s2 = np.dot(A[i, i + 1:], x_old[i + 1:])
            x[i] = (b[i] - s1 - s2) / A[i, i]
        if np.linalg.norm(x - x_old, ord=np.inf) < tol:
            return x, k + 1
    return x, max_iter


def inverse_power_shift(A, mu, tol=1e-10, max_iter=200):
    n = A.shape[0]
    x = np.ones(n)
    x = x / np.linalg.norm(x)
    M = A - mu * np.eye(n)
    lam_old = 0.0
    for i in range(max_iter):
        y = np.linalg.solve(M, x)
        x = y / np.linalg.norm(y)
        lam = x @ A @ x
        if abs(lam - lam_old) < tol:
            break
        lam_old = lam
    return lam, x


def rayleigh_quotient_iteration(A, x0, iters=6):
    x = x0 / np.linalg.norm(x0)
    lams = []
    for _ in range(iters):
        lam = float(x @ A @ x)
        lams.append(lam)
        try:
            y = np.linalg.solve(A - lam * np.eye(len(x)), x)
        except np.linalg.LinAlgError:
            break
        x = y / np.linalg.norm(y)
    return np.array(lams)


def qr_algorithm_eigs(A, iters=100):
    Ak = A.copy()
    for _ in range(iters):
        Q, R = np.linalg.qr(Ak)
        Ak = R @ Q
    return np.sort(np.diag(Ak))


def back_substitution(U, b):
    n = U.shape[0]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        s = b[i]
        for j in range(i + 1, n):
            s -= U[i, j] * x[j]
        x[i] = s / U[i, i]
    return x


def cholesky_loops(A):
    n = A.shape[0]
    L = np.zeros_like(A)
    for i in range(n):
        for j in range(i + 1):
            s = sum(L[i, k] * L[j, k] for k in range(j))
            if i == j:
                L[i, j] = np.sqrt(A[i, i] - s)
            else:
                L[i, j] = (A[i, j] - s) / L[j, j]
    return L


def hilbert_condition(n_max=6):
    conds = []
    for n in range(2, n_max + 1):
        H = np.array([[1.0 / (i + j + 1) for j in range(n)] for i in range(n)])
        conds.append(np.linalg.cond(H))
    return np.array(conds)


def matrix_power_fib(n=30):
    M = np.array([[1, 1], [1, 0]], dtype=np.int64)
    result = np.eye(2, dtype=np.int64)
    while n > 0:
        if n % 2 == 1:
            result = result @ M
        M = M @ M
        n //= 2
    return result[0, 1]


# ----------------------------------------------------------------------------
# Signal processing
# ----------------------------------------------------------------------------

def fft_convolve(a, b):
    n = len(a) + len(b) - 1
    N = 1
    while N < n:
        N *= 2
    A = np.fft.fft(a, N)
    B = np.fft.fft(b, N)
    return np.real(np.fft.ifft(A * B))[:n]


def spectral_derivative(n=32):
    L = 2 * np.pi
    x = np.arange(n) * L / n
    f = np.sin(3 * x) + np.cos(x)
    k = np.fft.fftfreq(n, d=L / n) * 2 * np.pi
    df = np.real(np.fft.ifft(1j * k * np.fft.fft(f)))
    exact = 3 * np.cos(3 * x) - np.sin(x)
    return df, np.max(np.abs(df - exact))


def rfft_peaks(x, fs, n_peaks=2):
    X = np.abs(np.fft.rfft(x)) / len(x)
    freqs = np.fft.rfftfreq(len(x), 1 / fs)
    peaks = []
    for i in range(1, len(X) - 1):
        if X[i] > X[i - 1] and X[i] > X[i + 1]:
            peaks.append((X[i], freqs[i]))
    peaks.sort(reverse=True)
    return [f for _, f in peaks[:n_peaks]]


def weighted_moving_average(x, weights):
    w = np.asarray(weights, dtype=float)
    w = w / w.sum()
    k = len(w)
    out = []
    for i in range(len(x) - k + 1):
        out.append(np.sum(x[i:i + k] * w))
    return np.array(out)


def holt_linear(y, alpha=0.5, beta=0.3):
    level = y[0]
    trend = y[1] - y[0]
    fitted = [level]
    for t in range(1, len(y)):
        prev_level = level
        level = alpha * y[t] + (1 - alpha) * (level + trend)
        trend = beta * (level - prev_level) + (1 - beta) * trend
        fitted.append(level + trend)
    return np.array(fitted), level + 3 * trend


def savgol_by_polyfit(y, window=5, order=2):
    half = window // 2
    out = np.copy(y)
    for i in range(half, len(y) - half):
        xs = np.arange(-half, half + 1)
        c = np.polyfit(xs, y[i - half:i + half + 1], order)
        out[i] = np.polyval(c, 0)
    return out


def median_filter_1d_loop(x, k=3):
    half = k // 2
    padded = np.pad(x, half, mode="edge")
    y = np.empty_like(x)
    for i in range(len(x)):
        y[i] = np.median(padded[i:i + k])
    return y


def goertzel_power(x, k):
    N = len(x)
    w = 2 * np.pi * k / N
    coeff = 2 * np.cos(w)
    s_prev = 0.0
    s_prev2 = 0.0
    for n in range(N):
        s = x[n] + coeff * s_prev - s_prev2
        s_prev2 = s_prev
        s_prev = s
    return s_prev2 ** 2 + s_prev ** 2 - coeff * s_prev * s_prev2


def windowed_spectrum(x):
    n = len(x)
    w = np.hanning(n)
    X = np.fft.fft(x * w)
    mag = 2 * np.abs(X[: n // 2]) / w.sum()
    return mag, int(np.argmax(mag))


# ----------------------------------------------------------------------------
# Image processing
# ----------------------------------------------------------------------------

def conv2d_padded_loops(img, kernel):
    kh, kw = kernel.shape
    ph, pw = kh // 2, kw // 2
    padded = np.pad(img, ((ph, ph), (pw, pw)), mode="constant")
    out = np.zeros_like(img, dtype=float)
    k = np.flipud(np.fliplr(kernel))
    for i in range(img.shape[0]):
        for j in range(img.shape[1]):
            out[i, j] = np.sum(padded[i:i + kh, j:j + kw] * k)
    return out


def histogram_equalize_loops(img):
    hist = np.zeros(256, dtype=int)
    for v in img.ravel():
        hist[v] += 1
    cdf = hist.cumsum()
    cdf_min = cdf[cdf > 0].min()
    total = img.size
    lut = np.round((cdf - cdf_min) / (total - cdf_min) * 255).astype(np.uint8)
    out = np.zeros_like(img)
    for i in range(img.shape[0]):
        for j in range(img.shape[1]):
            out[i, j] = lut[img[i, j]]
    return out


def adaptive_threshold(img, block=3, C=0.02):
    h, w = img.shape
    r = block // 2
    out = np.zeros((h, w), dtype=np.uint8)
    for i in range(h):
        for j in range(w):
            i0, i1 = max(0, i - r), min(h, i + r + 1)
            j0, j1 = max(0, j - r), min(w, j + r + 1)
            local = img[i0:i1, j0:j1].mean()
            if img[i, j] > local - C:
                out[i, j] = 255
    return out


def flood_fill(img, seed, new_value):
    out = img.copy()
    h, w = out.shape
    old = out[seed]
    if old == new_value:
        return out
    stack = [seed]
    while stack:
        i, j = stack.pop()
        if i < 0 or i >= h or j < 0 or j >= w:
            continue
        if out[i, j] != old:
            continue
        out[i, j] = new_value
        stack.append((i + 1, j))
        stack.append((i - 1, j))
        stack.append((i, j + 1))
        stack.append((i, j - 1))
    return out


def erode_loops(mask):
    h, w = mask.shape
    out = np.zeros_like(mask)
    for i in range(1, h - 1):
        for j in range(1, w - 1):
            out[i, j] = mask[i - 1:i + 2, j - 1:j + 2].all()
    return out


def gradient_magnitude(img):
    gy, gx = np.gradient(img.astype(float))
    mag = np.hypot(gx, gy)
    angle = np.degrees(np.arctan2(gy, gx)) % 180
    return mag, angle


def rotate90_loops(img):
    h, w = img.shape
    out = np.zeros((w, h), dtype=img.dtype)
    for i in range(h):
        for j in range(w):
            out[w - 1 - j, i] = img[i, j]
    return out, np.array_equal(out, np.rot90(img))


def label_count_by_area(binary, min_area=2):
    h, w = binary.shape
    labels = np.zeros((h, w), dtype=int)
    current = 0
    areas = []
    for i in range(h):
        for j in range(w):
            if binary[i, j] and labels[i, j] == 0:
                current += 1
                stack = [(i, j)]
                labels[i, j] = current
                area = 0
                while stack:
                    a, b = stack.pop()
                    area += 1
                    for da, db in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                        na, nb = a + da, b + db
                        if 0 <= na < h and 0 <= nb < w and binary[na, nb] and labels[na, nb] == 0:
                            labels[na, nb] = current
                            stack.append((na, nb))
                areas.append(area)
    big = sum(1 for a in areas if a >= min_area)
    return labels, current, big


def contrast_stretch(img, lo_pct=2, hi_pct=98):
    lo, hi = np.percentile(img, (lo_pct, hi_pct))
    out = (img.astype(float) - lo) / (hi - lo)
    out = np.clip(out, 0, 1)
    return (out * 255).astype(np.uint8)


# ----------------------------------------------------------------------------
# Statistics
# ----------------------------------------------------------------------------

def bootstrap_median_se(x, n_boot=100):
    np.random.seed(42)
    meds = np.empty(n_boot)
    for b in range(n_boot):
        sample = x[np.random.randint(0, len(x), len(x))]
        meds[b] = np.median(sample)
    return meds.std(ddof=1), np.percentile(meds, [2.5, 97.5])


def jackknife_mean_var(x):
    n = len(x)
    estimates = np.zeros(n)
    for i in range(n):
        estimates[i] = np.delete(x, i).var()
    bias = (n - 1) * (estimates.mean() - x.var())
    se = np.sqrt((n - 1) / n * np.sum((estimates - estimates.mean()) ** 2))
    return bias, se


def pearson_loops(x, y):
    n = len(x)
    mx = sum(x) / n
    my = sum(y) / n
    sxy = 0.0
    sxx = 0.0
    syy = 0.0
    for i in range(n):
        dx = x[i] - mx
        dy = y[i] - my
        sxy += dx * dy
        sxx += dx * dx
        syy += dy * dy
    return sxy / (sxx * syy) ** 0.5


def skew_kurtosis(x):
    m = x.mean()
    s = x.std()
    z = (x - m) / s
    return {"skew": np.mean(z ** 3), "kurtosis": np.mean(z ** 4) - 3.0}


def manual_histogram(x, bins=6):
    lo, hi = x.min(), x.max()
    width = (hi - lo) / bins
    counts = [0] * bins
    for v in x:
        k = int((v - lo) / width)
        if k == bins:
            k -= 1
        counts[k] += 1
    edges = lo + width * np.arange(bins + 1)
    return np.array(counts), edges


def percentile_by_sorting(x, q):
    s = sorted(x)
    n = len(s)
    pos = (n - 1) * q / 100.0
    lo = int(np.floor(pos))
    hi = int(np.ceil(pos))
    frac = pos - lo
    return s[lo] + (s[hi] - s[lo]) * frac


def correlation_matrix_loops(X):
    n, p = X.shape
    R = np.eye(p)
    for i in range(p):
        for j in range(i + 1, p):
            r = np.corrcoef(X[:, i], X[:, j])[0, 1]
            R[i, j] = R[j, i] = r
    return R


def running_stats(x):
    n = 0
    mean = 0.0
    M2 = 0.0
    means = []
    stds = []
    for v in x:
        n += 1
        delta = v - mean
        mean += delta / n
        M2 += delta * (v - mean)
        means.append(mean)
        stds.append(np.sqrt(M2 / n))
    return np.array(means), np.array(stds)


def linear_regression_normal_eq(x, y):
    X = np.column_stack([np.ones_like(x), x])
    beta = np.linalg.inv(X.T @ X) @ X.T @ y
    resid = y - X @ beta
    sigma2 = resid @ resid / (len(y) - 2)
    cov = sigma2 * np.linalg.inv(X.T @ X)
    return beta, np.sqrt(np.diag(cov))


# ----------------------------------------------------------------------------
# Finance
# ----------------------------------------------------------------------------

def binomial_american_put(S0, K, T, r, sigma, N=50):
    dt = T / N
    u = np.exp(sigma * np.sqrt(dt))
    d = 1 / u
    p = (np.exp(r * dt) - d) / (u - d)
    disc = np.exp(-r * dt)
    S = S0 * d ** np.arange(N, -1, -1) * u ** np.arange(0, N + 1)
    V = np.maximum(K - S, 0)
    for i in range(N - 1, -1, -1):
        S = S0 * d ** np.arange(i, -1, -1) * u ** np.arange(0, i + 1)
        V[:i + 1] = disc * (p * V[1:i + 2] + (1 - p) * V[0:i + 1])
        V = V[:-1]
        V = np.maximum(V, K - S)
    return V[0]


def binomial_european_call_loops(S0=100.0, K=100.0, T=1.0, r=0.05, sigma=0.2, N=20):
    dt = T / N
    u = np.exp(sigma * np.sqrt(dt))
    d = 1.0 / u
    q = (np.exp(r * dt) - d) / (u - d)
    C = np.zeros(N + 1)
    for j in range(N + 1):
        C[j] = max(S0 * u ** j * d ** (N - j) - K, 0.0)
    for i in range(N, 0, -1):
        for j in range(i):
            C[j] = np.exp(-r * dt) * (q * C[j + 1] + (1 - q) * C[j])
    return C[0]


def mc_option_price(S0=100.0, K=105.0, T=1.0, r=0.03, sigma=0.25, n=5000):
    np.random.seed(123)
    Z = np.random.standard_normal(n)
    ST = S0 * np.exp((r - 0.5 * sigma ** 2) * T + sigma * np.sqrt(T) * Z)
    payoff = np.maximum(ST - K, 0)
    price = np.exp(-r * T) * payoff.mean()
    se = np.exp(-r * T) * payoff.std(ddof=1) / np.sqrt(n)
    return price, se


def portfolio_stats(returns, weights):
    w = np.array(weights)
    mu = returns.mean(axis=0)
    cov = np.cov(returns, rowvar=False)
    port_ret = float(w @ mu)
    port_var = float(w.T @ cov @ w)
    return {"return": port_ret, "vol": np.sqrt(port_var), "sharpe": port_ret / np.sqrt(port_var)}


def drawdown_series(prices):
    peak = prices[0]
    dd = np.zeros(len(prices))
    max_dd = 0.0
    for i in range(len(prices)):
        if prices[i] > peak:
            peak = prices[i]
        dd[i] = (prices[i] - peak) / peak
        if dd[i] < max_dd:
            max_dd = dd[i]
    return dd, max_dd


def historical_var(returns, alpha=0.05):
    sorted_r = np.sort(returns)
    idx = int(alpha * len(sorted_r))
    var = -sorted_r[idx]
    cvar = -sorted_r[:idx + 1].mean()
    return var, cvar


def capm_beta(stock, market):
    rs = np.diff(stock) / stock[:-1]
    rm = np.diff(market) / market[:-1]
    cov = np.cov(rs, rm)
    beta = cov[0, 1] / cov[1, 1]
    alpha = rs.mean() - beta * rm.mean()
    return beta, alpha


def loan_payoff_months(balance=5000.0, rate=0.18, payment=200.0):
    months = 0
    total_interest = 0.0
    while balance > 0:
        interest = balance * rate / 12
        total_interest += interest
        balance = balance + interest - payment
        months += 1
        if months > 600:
            return -1, total_interest
    return months, round(total_interest, 2)


def log_returns_annualized(prices, periods=252):
    lr = np.log(prices[1:] / prices[:-1])
    ann_ret = lr.mean() * periods
    ann_vol = lr.std(ddof=1) * np.sqrt(periods)
    cum = np.exp(np.cumsum(lr))
    return ann_ret, ann_vol, cum[-1]


# ----------------------------------------------------------------------------
# Project-Euler-style puzzles and Rosetta Code tasks
# ----------------------------------------------------------------------------

def euler1_multiples(n=1000):
    x = np.arange(n)
    return int(x[(x % 3 == 0) | (x % 5 == 0)].sum())


def euler2_even_fib(limit=4000000):
    a, b = 1, 2
    total = 0
    while b <= limit:
        if b % 2 == 0:
            total += b
        a, b = b, a + b
    return total


def euler6_sum_square_diff(n=100):
    x = np.arange(1, n + 1)
    return int(x.sum() ** 2 - (x ** 2).sum())


def euler9_triplet(s=120):
    for a in range(1, s // 3):
        for b in range(a + 1, s // 2):
            c = s - a - b
            if a * a + b * b == c * c:
                return a, b, c, a * b * c
    return None


def euler14_longest_collatz(limit=300):
    lengths = np.zeros(limit, dtype=int)
    lengths[1] = 1
    for start in range(2, limit):
        n = start
        steps = 0
        while n >= start:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        lengths[start] = steps + lengths[n]
    best = int(np.argmax(lengths))
    return best, int(lengths[best])


def amicable_numbers(limit=300):
    d = np.zeros(limit, dtype=int)
    for i in range(1, limit):
        d[2 * i::i] += i
    pairs = []
    for a in range(2, limit):
        b = d[a]
        if b < limit and b != a and d[b] == a:
            pairs.append(a)
    return pairs


def hundred_doors(n=100):
    doors = np.zeros(n + 1, dtype=bool)
    for step in range(1, n + 1):
        doors[step::step] = ~doors[step::step]
    return np.nonzero(doors)[0]


def leibniz_pi(terms=1000):
    k = np.arange(terms)
    series = (-1.0) ** k / (2 * k + 1)
    partial = 4 * np.cumsum(series)
    return partial[-1], abs(partial[-1] - np.pi)


def catalan_numbers(n=15):
    c = np.zeros(n, dtype=np.int64)
    c[0] = 1
    for i in range(1, n):
        c[i] = c[i - 1] * 2 * (2 * i - 1) // (i + 1)
    return c


def zigzag_matrix(n=5):
    M = np.zeros((n, n), dtype=int)
    i = j = 0
    for k in range(n * n):
        M[i, j] = k
        if (i + j) % 2 == 0:
            if j == n - 1:
                i += 1
            elif i == 0:
                j += 1
            else:
                i -= 1
                j += 1
        else:
            if i == n - 1:
                j += 1
            elif j == 0:
                i += 1
            else:
                i += 1
                j -= 1
    return M


def spiral_matrix(n=5):
    M = np.zeros((n, n), dtype=int)
    top, bottom, left, right = 0, n - 1, 0, n - 1
    k = 0
    while top <= bottom and left <= right:
        for j in range(left, right + 1):
            M[top, j] = k
            k += 1
        top += 1
        for i in range(top, bottom + 1):
            M[i, right] = k
            k += 1
        right -= 1
        if top <= bottom:
            for j in range(right, left - 1, -1):
                M[bottom, j] = k
                k += 1
            bottom -= 1
        if left <= right:
            for i in range(bottom, top - 1, -1):
                M[i, left] = k
                k += 1
            left += 1
    return M


def agm(a=1.0, g=1 / np.sqrt(2), tol=1e-15):
    while abs(a - g) > tol:
        a, g = (a + g) / 2, np.sqrt(a * g)
    return a


def luhn_valid(digits):
    d = np.array(digits)[::-1]
    doubled = d[1::2] * 2
    doubled[doubled > 9] -= 9
    total = d[::2].sum() + doubled.sum()
    return bool(total % 10 == 0)


def perfect_numbers(limit=10000):
    found = []
    for n in range(2, limit):
        divs = np.arange(1, int(np.sqrt(n)) + 1)
        divs = divs[n % divs == 0]
        s = divs.sum() + (n // divs[1:]).sum() if len(divs) > 1 else 1
        if np.sqrt(n) == int(np.sqrt(n)):
            s -= int(np.sqrt(n))
        if s == n:
            found.append(n)
    return found


def insertion_sort(a):
    arr = a.copy()
    for i in range(1, len(arr)):
        key = arr[i]
        j = i - 1
        while j >= 0 and arr[j] > key:
            arr[j + 1] = arr[j]
            j -= 1
        arr[j + 1] = key
    return arr


def quickselect(a, k):
    arr = list(a)
    lo, hi = 0, len(arr) - 1
    while True:
        pivot = arr[hi]
        i = lo
        for j in range(lo, hi):
            if arr[j] < pivot:
                arr[i], arr[j] = arr[j], arr[i]
                i += 1
        arr[i], arr[hi] = arr[hi], arr[i]
        if i == k:
            return arr[i]
        elif i < k:
            lo = i + 1
        else:
            hi = i - 1


def forward_differences(x, order=3):
    rows = [np.asarray(x)]
    for k in range(order):
        rows.append(np.diff(rows[-1]))
    return [r.tolist() for r in rows]


def n_queens_count(n=6):
    board = np.zeros((n, n), dtype=int)

    def safe(r, c):
        if board[:r, c].any():
            return False
        for i in range(1, r + 1):
            if c - i >= 0 and board[r - i, c - i]:
                return False
            if c + i < n and board[r - i, c + i]:
                return False
        return True

    def place(r):
        if r == n:
            return 1
        total = 0
        for c in range(n):
            if safe(r, c):
                board[r, c] = 1
                total += place(r + 1)
                board[r, c] = 0
        return total

    return place(0)


def kronecker_loops(A, B):
    m, n = A.shape
    p, q = B.shape
    K = np.zeros((m * p, n * q))
    for i in range(m):
        for j in range(n):
            K[i * p:(i + 1) * p, j * q:(j + 1) * q] = A[i, j] * B
    return K, np.allclose(K, np.kron(A, B))


# ----------------------------------------------------------------------------
# Simulations on grids
# ----------------------------------------------------------------------------

def life_padded_loops(Z, steps=4):
    Z = Z.copy()
    n, m = Z.shape
    for _ in range(steps):
        P = np.pad(Z, 1)
        N = np.zeros_like(Z)
        for i in range(n):
            for j in range(m):
                N[i, j] = P[i:i + 3, j:j + 3].sum() - P[i + 1, j + 1]
        Z = ((N == 3) | ((Z == 1) & (N == 2))).astype(int)
    return Z, int(Z.sum())


def burning_ship(w=12, h=10, max_iter=30):
    xs = np.linspace(-2.0, 1.0, w)
    ys = np.linspace(-2.0, 1.0, h)
    out = np.zeros((h, w), dtype=int)
    for i in range(h):
        for j in range(w):
            zx, zy = 0.0, 0.0
            cx, cy = xs[j], ys[i]
            n = 0
            while zx * zx + zy * zy < 4.0 and n < max_iter:
                zx, zy = zx * zx - zy * zy + cx, 2 * abs(zx * zy) + cy
                n += 1
            out[i, j] = n
    return out


def forest_fire(n=10, steps=8, p=0.05, f=0.01):
    np.random.seed(8)
    grid = (np.random.rand(n, n) < 0.5).astype(int)
    for _ in range(steps):
        new = grid.copy()
        for i in range(n):
            for j in range(n):
                if grid[i, j] == 2:
                    new[i, j] = 0
                elif grid[i, j] == 1:
                    burning = False
                    for di in (-1, 0, 1):
                        for dj in (-1, 0, 1):
                            a, b = i + di, j + dj
                            if 0 <= a < n and 0 <= b < n and grid[a, b] == 2:
                                burning = True
                    if burning or np.random.rand() < f:
                        new[i, j] = 2
                elif np.random.rand() < p:
                    new[i, j] = 1
        grid = new
    return grid


def nbody_energy(pos, vel, mass, dt=0.01, steps=40, G=1.0, eps=0.05):
    pos = pos.copy()
    vel = vel.copy()
    n = len(mass)

    def acc(p):
        a = np.zeros_like(p)
        for i in range(n):
            for j in range(n):
                if i != j:
                    d = p[j] - p[i]
                    r = np.sqrt(np.sum(d ** 2) + eps ** 2)
                    a[i] += G * mass[j] * d / r ** 3
        return a

    def energy(p, v):
        ke = 0.5 * np.sum(mass * np.sum(v ** 2, axis=1))
        pe = 0.0
        for i in range(n):
            for j in range(i + 1, n):
                r = np.sqrt(np.sum((p[i] - p[j]) ** 2) + eps ** 2)
                pe -= G * mass[i] * mass[j] / r
        return ke + pe

    E0 = energy(pos, vel)
    a = acc(pos)
    for _ in range(steps):
        vel += 0.5 * dt * a
        pos += dt * vel
        a = acc(pos)
        vel += 0.5 * dt * a
    return pos, abs(energy(pos, vel) - E0) / abs(E0)


def schelling_step_counts(n=8, thresh=0.5):
    np.random.seed(6)
    grid = np.random.choice([0, 1, 2], size=(n, n), p=[0.2, 0.4, 0.4])
    unhappy = 0
    for i in range(n):
        for j in range(n):
            if grid[i, j] == 0:
                continue
            same = 0
            total = 0
            for di in (-1, 0, 1):
                for dj in (-1, 0, 1):
                    if di == 0 and dj == 0:
                        continue
                    a, b = (i + di) % n, (j + dj) % n
                    if grid[a, b] != 0:
                        total += 1
                        if grid[a, b] == grid[i, j]:
                            same += 1
            if total > 0 and same / total < thresh:
                unhappy += 1
    return unhappy, np.bincount(grid.ravel(), minlength=3)


# ----------------------------------------------------------------------------
# Cases
# ----------------------------------------------------------------------------

def _rng(s=0):
    return np.random.default_rng(s)


def _prices(n=30, seed=70):
    return 100 * np.exp(np.cumsum(_rng(seed).normal(0.0005, 0.015, n)))


def _spd(n=4, seed=71):
    M = _rng(seed).normal(size=(n, n))
    return M @ M.T + n * np.eye(n)


def _dd(n=5, seed=72):
    M = _rng(seed).normal(size=(n, n))
    return M + np.diag(np.abs(M).sum(axis=1) + 1)


CASES = [
    # PDEs
    ("advection_upwind", advection_upwind,
     lambda: (np.where((np.linspace(0, 2, 21) > 0.5) & (np.linspace(0, 2, 21) < 1.0), 2.0, 1.0),), {}),
    ("advection_lax_wendroff", advection_lax_wendroff,
     lambda: (np.exp(-((np.linspace(0, 2, 21) - 0.6) / 0.2) ** 2),), {}),
    ("burgers_inviscid", burgers_inviscid, lambda: (), {}),
    ("diffusion_2d_loops", diffusion_2d_loops, lambda: (), {}),
    ("wave_2d", wave_2d, lambda: (), {}),
    ("poisson_sor", poisson_sor, lambda: (np.ones((7, 7)), 1.0 / 6), {}),
    ("heat_dirichlet_history", heat_dirichlet_history, lambda: (), {}),
    ("laplace_relax_until", laplace_relax_until, lambda: (), {}),
    # ODEs
    ("euler_decay_error", euler_decay_error, lambda: (), {}),
    ("heun_logistic", heun_logistic, lambda: (), {}),
    ("rk4_lorenz", rk4_lorenz, lambda: (np.array([1.0, 1.0, 1.0]),), {}),
    ("kepler_velocity_verlet", kepler_velocity_verlet, lambda: (), {}),
    ("adaptive_rk12", adaptive_rk12, lambda: (), {}),
    ("symplectic_euler_oscillator", symplectic_euler_oscillator, lambda: (), {}),
    ("predator_prey_rk4", predator_prey_rk4, lambda: ([10.0, 10.0],), {}),
    ("shooting_projectile", shooting_projectile, lambda: (), {}),
    # Monte Carlo
    ("buffon_needle", buffon_needle, lambda: (), {"rand": True}),
    ("birthday_simulation", birthday_simulation, lambda: (), {"rand": True}),
    ("gamblers_ruin", gamblers_ruin, lambda: (), {"rand": True}),
    ("msd_random_walks", msd_random_walks, lambda: (), {"rand": True}),
    ("dice_sum_distribution", dice_sum_distribution, lambda: (), {"rand": True}),
    ("mc_integral_error", mc_integral_error, lambda: (), {"rand": True}),
    ("ising_energy_magnetization", ising_energy_magnetization, lambda: (), {"rand": True}),
    ("ising_1d_exact_energy", ising_1d_exact_energy,
     lambda: (np.array([1, -1, -1, 1, 1, 1, -1, 1]), 1.0, 0.5), {}),
    ("self_avoiding_walk", self_avoiding_walk, lambda: (), {"rand": True}),
    ("percolation_fraction", percolation_fraction, lambda: (), {"rand": True}),
    # roots, quadrature, interpolation
    ("secant_method", secant_method, lambda: (), {}),
    ("regula_falsi", regula_falsi, lambda: (0.0, 1.0), {}),
    ("fixed_point_iteration", fixed_point_iteration, lambda: (), {}),
    ("newton_system_2d", newton_system_2d, lambda: ([1.0, -1.0],), {}),
    ("newton_many_roots", newton_many_roots,
     lambda: (np.array([1.0, -6.0, 11.0, -6.0]), np.array([0.0, 1.6, 2.4, 5.0])), {}),
    ("trapezoid_convergence", trapezoid_convergence, lambda: (), {}),
    ("romberg", romberg, lambda: (), {}),
    ("simpson_38", simpson_38, lambda: (np.exp(np.linspace(0, 1, 10)), 1.0 / 9), {}),
    ("gauss_legendre_quad", gauss_legendre_quad, lambda: (), {}),
    ("lagrange_interp", lagrange_interp,
     lambda: (np.array([0.0, 1.0, 2.0, 3.0]), np.array([1.0, 2.0, 0.0, 5.0]), np.linspace(0, 3, 7)), {}),
    ("divided_differences", divided_differences,
     lambda: (np.array([1.0, 2.0, 4.0, 7.0]), np.array([1.0, 8.0, 64.0, 343.0]), 3.0), {}),
    ("natural_cubic_spline", natural_cubic_spline,
     lambda: (np.linspace(0, 4, 6), np.sin(np.linspace(0, 4, 6)), np.array([0.1, 1.3, 2.2, 3.9])), {}),
    ("chebyshev_vs_uniform", chebyshev_vs_uniform, lambda: (), {}),
    # linear algebra
    ("gauss_partial_pivot", gauss_partial_pivot,
     lambda: (np.array([[0.0, 2, 1], [1, -2, -3], [-1, 1, 2]]), np.array([-8.0, 0, 3])), {}),
    ("gauss_partial_pivot_int", gauss_partial_pivot,
     lambda: (np.array([[2, 1, -1], [-3, -1, 2], [-2, 1, 2]]), np.array([8, -11, -3])), {}),
    ("thomas_tridiagonal", thomas_tridiagonal,
     lambda: (np.full(5, -1.0), np.full(6, 4.0), np.full(5, -1.0), np.arange(1.0, 7.0)), {}),
    ("gauss_seidel", gauss_seidel, lambda: (_dd(), np.arange(5.0)), {}),
    ("inverse_power_shift", inverse_power_shift, lambda: (_spd(), 4.5), {}),
    ("rayleigh_quotient_iteration", rayleigh_quotient_iteration,
     lambda: (_spd(4, 73), np.array([1.0, 0.5, 0.2, 0.1])), {}),
    ("qr_algorithm_eigs", qr_algorithm_eigs, lambda: (_spd(4, 74),), {}),
    ("back_substitution", back_substitution, lambda: (np.triu(_spd(5, 75)), np.ones(5)), {}),
    ("cholesky_loops", cholesky_loops, lambda: (_spd(4, 76),), {}),
    ("hilbert_condition", hilbert_condition, lambda: (), {}),
    ("matrix_power_fib", matrix_power_fib, lambda: (), {}),
    # signals
    ("fft_convolve", fft_convolve, lambda: (np.array([1.0, 2.0, 3.0, 4.0]), np.array([0.5, 0.25, 0.25])), {}),
    ("spectral_derivative", spectral_derivative, lambda: (), {}),
    ("rfft_peaks", rfft_peaks,
     lambda: (np.sin(2 * np.pi * 5 * np.arange(64) / 64) + 0.5 * np.sin(2 * np.pi * 12 * np.arange(64) / 64), 64.0), {}),
    ("weighted_moving_average", weighted_moving_average, lambda: (_prices(12), [1, 2, 3]), {}),
    ("holt_linear", holt_linear, lambda: (_prices(15, 77),), {}),
    ("savgol_by_polyfit", savgol_by_polyfit, lambda: (np.sin(np.linspace(0, 3, 12)) + _rng(78).normal(0, 0.1, 12),), {}),
    ("median_filter_1d_loop", median_filter_1d_loop, lambda: (np.array([1.0, 9.0, 2.0, 3.0, 8.0, 2.0, 2.0, 7.0]),), {}),
    ("goertzel_power", goertzel_power, lambda: (np.sin(2 * np.pi * 4 * np.arange(32) / 32), 4), {}),
    ("windowed_spectrum", windowed_spectrum, lambda: (np.sin(2 * np.pi * 6 * np.arange(48) / 48),), {}),
    # images
    ("conv2d_padded_loops", conv2d_padded_loops,
     lambda: (_rng(79).integers(0, 10, (5, 6)), np.array([[0, 1, 0], [1, -4, 1], [0, 1, 0]])), {}),
    ("histogram_equalize_loops", histogram_equalize_loops,
     lambda: (_rng(80).integers(50, 120, (5, 6)).astype(np.uint8),), {}),
    ("adaptive_threshold", adaptive_threshold, lambda: (_rng(81).random((5, 6)),), {}),
    ("flood_fill", flood_fill,
     lambda: (np.array([[1, 1, 0, 0], [1, 0, 0, 1], [1, 1, 0, 1], [0, 1, 1, 1]]), (0, 0), 5), {}),
    ("erode_loops", erode_loops, lambda: (_rng(82).random((6, 7)) > 0.2,), {}),
    ("gradient_magnitude", gradient_magnitude, lambda: (_rng(83).integers(0, 255, (5, 6)).astype(np.uint8),), {}),
    ("rotate90_loops", rotate90_loops, lambda: (np.arange(12).reshape(3, 4),), {}),
    ("label_count_by_area", label_count_by_area, lambda: (_rng(84).random((6, 7)) > 0.6,), {}),
    ("contrast_stretch", contrast_stretch, lambda: (_rng(85).integers(60, 140, (6, 6)).astype(np.uint8),), {}),
    # statistics
    ("bootstrap_median_se", bootstrap_median_se, lambda: (_rng(86).normal(size=20),), {"rand": True}),
    ("jackknife_mean_var", jackknife_mean_var, lambda: (_rng(87).normal(size=12),), {}),
    ("pearson_loops", pearson_loops, lambda: (_rng(88).normal(size=10), _rng(89).normal(size=10)), {}),
    ("skew_kurtosis", skew_kurtosis, lambda: (_rng(90).exponential(size=25),), {}),
    ("manual_histogram", manual_histogram, lambda: (_rng(91).normal(size=30),), {}),
    ("percentile_by_sorting", percentile_by_sorting, lambda: (_rng(92).normal(size=11), 30), {}),
    ("correlation_matrix_loops", correlation_matrix_loops, lambda: (_rng(93).normal(size=(10, 3)),), {}),
    ("running_stats", running_stats, lambda: (_rng(94).normal(size=9),), {}),
    ("linear_regression_normal_eq", linear_regression_normal_eq,
     lambda: (np.arange(10.0), 2.0 * np.arange(10.0) + 1 + _rng(95).normal(size=10)), {}),
    # finance
    ("binomial_american_put", binomial_american_put, lambda: (100.0, 100.0, 1.0, 0.05, 0.2, 30), {}),
    ("binomial_european_call_loops", binomial_european_call_loops, lambda: (), {}),
    ("mc_option_price", mc_option_price, lambda: (), {"rand": True}),
    ("portfolio_stats", portfolio_stats, lambda: (_rng(96).normal(0.001, 0.02, (20, 3)), [0.5, 0.3, 0.2]), {}),
    ("drawdown_series", drawdown_series, lambda: (_prices(),), {}),
    ("historical_var", historical_var, lambda: (_rng(97).normal(0, 0.02, 40),), {}),
    ("capm_beta", capm_beta, lambda: (_prices(25, 98), _prices(25, 99)), {}),
    ("loan_payoff_months", loan_payoff_months, lambda: (), {}),
    ("log_returns_annualized", log_returns_annualized, lambda: (_prices(),), {}),
    # puzzles / Rosetta
    ("euler1_multiples", euler1_multiples, lambda: (), {}),
    ("euler2_even_fib", euler2_even_fib, lambda: (), {}),
    ("euler6_sum_square_diff", euler6_sum_square_diff, lambda: (), {}),
    ("euler9_triplet", euler9_triplet, lambda: (), {}),
    ("euler14_longest_collatz", euler14_longest_collatz, lambda: (), {}),
    ("amicable_numbers", amicable_numbers, lambda: (), {}),
    ("hundred_doors", hundred_doors, lambda: (), {}),
    ("leibniz_pi", leibniz_pi, lambda: (), {}),
    ("catalan_numbers", catalan_numbers, lambda: (), {}),
    ("zigzag_matrix", zigzag_matrix, lambda: (), {}),
    ("spiral_matrix", spiral_matrix, lambda: (), {}),
    ("agm", agm, lambda: (), {}),
    ("luhn_valid", luhn_valid, lambda: ([4, 9, 9, 2, 7, 3, 9, 8, 7, 1, 6],), {}),
    ("perfect_numbers", perfect_numbers, lambda: (500,), {}),
    ("insertion_sort", insertion_sort, lambda: (np.array([5, 2, 9, 1, 5, 6, 0, 3]),), {}),
    ("quickselect", quickselect, lambda: (np.array([7.0, 2.0, 9.0, 4.0, 1.0, 8.0, 3.0]), 3), {}),
    ("forward_differences", forward_differences, lambda: (np.array([90, 47, 58, 29, 22, 32, 55, 5, 55, 73]),), {}),
    ("n_queens_count", n_queens_count, lambda: (5,), {}),
    ("kronecker_loops", kronecker_loops, lambda: (np.array([[1.0, 2], [3, 4]]), np.array([[0.0, 5], [6, 7]])), {}),
    # grids
    ("life_padded_loops", life_padded_loops,
     lambda: (np.array([[0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [1, 1, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]),), {}),
    ("burning_ship", burning_ship, lambda: (), {}),
    ("forest_fire", forest_fire, lambda: (), {"rand": True}),
    ("nbody_energy", nbody_energy,
     lambda: (_rng(100).normal(size=(4, 2)), _rng(101).normal(0, 0.3, (4, 2)), np.array([1.0, 0.5, 0.8, 1.2])), {}),
    ("schelling_step_counts", schelling_step_counts, lambda: (), {"rand": True}),
]
