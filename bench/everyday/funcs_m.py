"""Everyday NumPy functions, ninth collection: scientific domain code written the way
researchers, students and blog posts write it. Bioinformatics on integer-coded
sequences (Needleman-Wunsch and Smith-Waterman score matrices, k-mer counts, GC
content in windows, Hamming distances, position weight matrix scans); astronomy and
orbits (Kepler's equation by Newton, two-body RK4, leapfrog N-body); molecular
dynamics (Lennard-Jones forces with minimum-image periodic boundaries, velocity
Verlet, a radial distribution histogram, a Berendsen thermostat); epidemiology (SIR
and SEIR by Euler and RK4, final size by fixed point); economics and Markov chains
(stationary distributions by power iteration, value iteration, compound interest and
loan amortisation tables, absorption times, IRR by bisection); control (PID loops,
discrete LQR by Riccati iteration, a 1-D Kalman filter); geoscience (haversine
distances, inverse-distance weighting, bilinear interpolation, slope and aspect);
audio (ADSR envelopes, zero-crossing rate, resampling with ``np.interp``, RMS in
frames, pre-emphasis); robotics (rotation matrices, quaternions, two-link forward
kinematics, Jacobian-transpose IK, DH chains); optimisation by hand (Nelder-Mead,
golden section, Armijo backtracking, simulated annealing, a small genetic algorithm,
coordinate-descent lasso); queueing and inventory simulations with seeded streams;
numerical PDEs (Crank-Nicolson with a Thomas solver, upwind advection, SOR for
Poisson, the wave equation); and statistics (bootstrap intervals, permutation tests,
Welch's t, OLS standard errors, Spearman by ranks, kernel density estimates). Styles
vary: index loops appending to lists, vectorised one-liners, while loops to a
tolerance, early returns, helpers at module level and nested inner functions,
``float()``/``int()``/``.item()`` of array values, in-place updates of arguments,
tuples, dicts and f-strings as results, and ``np.random.seed``/``default_rng``/
``RandomState`` inside functions. Each entry of CASES is (name, function, make_args,
opts); make_args() returns the arguments; opts {"rand": True} marks a function that
draws random numbers inside without a fixed seed (compared by type, dtype and shape
only)."""
import heapq
import itertools
import math
from collections import Counter, defaultdict

import numpy as np


# ----------------------------------------------------------------------------
# Bioinformatics (sequences coded A=0, C=1, G=2, T=3)
# ----------------------------------------------------------------------------

def needleman_wunsch(a, b, match=1, mismatch=-1, gap=-2):
    n, m = len(a), len(b)
    F = np.zeros((n + 1, m + 1), dtype=int)
    F[:, 0] = gap * np.arange(n + 1)
    F[0, :] = gap * np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            s = match if a[i - 1] == b[j - 1] else mismatch
            F[i, j] = max(F[i - 1, j - 1] + s, F[i - 1, j] + gap, F[i, j - 1] + gap)
    # traceback
    i, j = n, m
    aligned_a, aligned_b = [], []
    while i > 0 and j > 0:
        s = match if a[i - 1] == b[j - 1] else mismatch
        if F[i, j] == F[i - 1, j - 1] + s:
            aligned_a.append(int(a[i - 1])); aligned_b.append(int(b[j - 1]))
            i -= 1; j -= 1
        elif F[i, j] == F[i - 1, j] + gap:
            aligned_a.append(int(a[i - 1])); aligned_b.append(-1)
            i -= 1
        else:
            aligned_a.append(-1); aligned_b.append(int(b[j - 1]))
            j -= 1
    while i > 0:
        aligned_a.append(int(a[i - 1])); aligned_b.append(-1); i -= 1
    while j > 0:
        aligned_a.append(-1); aligned_b.append(int(b[j - 1])); j -= 1
    return F[n, m], np.array(aligned_a[::-1]), np.array(aligned_b[::-1])


def smith_waterman(seq1, seq2, match=2, mismatch=-1, gap=-1):
    H = np.zeros((len(seq1) + 1, len(seq2) + 1))
    best = 0.0
    best_pos = (0, 0)
    for i in range(1, H.shape[0]):
        for j in range(1, H.shape[1]):
            diag = H[i-1, j-1] + (match if seq1[i-1] == seq2[j-1] else mismatch)
            H[i, j] = max(0, diag, H[i-1, j] + gap, H[i, j-1] + gap)
            if H[i, j] > best:
                best = H[i, j]
                best_pos = (i, j)
    return best, best_pos, H


def kmer_counts(seq, k=3):
    # encode each k-mer as a base-4 integer
    n = len(seq) - k + 1
    codes = np.zeros(n, dtype=np.int64)
    for p in range(k):
        codes = codes * 4 + seq[p:p + n]
    counts = np.bincount(codes, minlength=4 ** k)
    top = np.argsort(counts)[::-1][:5]
    letters = "ACGT"
    names = []
    for c in top:
        s = ""
        c = int(c)
        for _ in range(k):
            s = letters[c % 4] + s
            c //= 4
        names.append(s)
    return counts, list(zip(names, counts[top].tolist()))


def gc_content_windows(seq, window=20, step=5):
    is_gc = (seq == 1) | (seq == 2)
    out = []
    for start in range(0, len(seq) - window + 1, step):
        out.append(is_gc[start:start + window].mean())
    gc = np.array(out)
    overall = float(is_gc.sum()) / len(seq)
    return gc, overall, int(np.argmax(gc)) * step


def hamming_matrix(seqs):
    # seqs: (n, L) int array
    D = (seqs[:, None, :] != seqs[None, :, :]).sum(axis=2)
    np.fill_diagonal(D, 0)
    nearest = np.where(np.eye(len(seqs), dtype=bool), D.max() + 1, D).argmin(axis=1)
    return D, nearest


def reverse_complement_palindromes(seq, k=6):
    rc = 3 - seq[::-1]
    hits = []
    for i in range(len(seq) - k + 1):
        w = seq[i:i + k]
        if np.array_equal(w, 3 - w[::-1]):
            hits.append(i)
    return rc, hits


def pwm_scan(seq, counts, pseudocount=0.5, background=None):
    if background is None:
        background = np.full(4, 0.25)
    probs = (counts + pseudocount) / (counts + pseudocount).sum(axis=1, keepdims=True)
    logodds = np.log2(probs / background)
    L = counts.shape[0]
    scores = np.empty(len(seq) - L + 1)
    for i in range(len(scores)):
        scores[i] = logodds[np.arange(L), seq[i:i + L]].sum()
    best = scores.argmax()
    return scores, int(best), f"best site at {best} score {scores[best]:.3f}"


# ----------------------------------------------------------------------------
# Astronomy and orbits
# ----------------------------------------------------------------------------

def kepler_newton(M, e, tol=1e-12, maxiter=50):
    M = np.asarray(M, dtype=float)
    E = np.where(e < 0.8, M, np.pi * np.ones_like(M))
    for it in range(maxiter):
        f = E - e * np.sin(E) - M
        fp = 1 - e * np.cos(E)
        dE = f / fp
        E -= dE
        if np.max(np.abs(dE)) < tol:
            break
    nu = 2 * np.arctan2(np.sqrt(1 + e) * np.sin(E / 2), np.sqrt(1 - e) * np.cos(E / 2))
    return E, nu, it + 1


def _solve_kepler_scalar(M, e):
    E = M if e < 0.8 else math.pi
    while True:
        d = (E - e * math.sin(E) - M) / (1 - e * math.cos(E))
        E -= d
        if abs(d) < 1e-10:
            return E


def orbit_positions(a, e, n_points=60, mu=1.0):
    T = 2 * np.pi * np.sqrt(a ** 3 / mu)
    times = np.linspace(0, T, n_points, endpoint=False)
    xs, ys = [], []
    for t in times:
        M = 2 * math.pi * t / T
        E = _solve_kepler_scalar(M, e)
        xs.append(a * (math.cos(E) - e))
        ys.append(a * math.sqrt(1 - e * e) * math.sin(E))
    xy = np.column_stack([xs, ys])
    r = np.hypot(xy[:, 0], xy[:, 1])
    return xy, r.min(), r.max(), T


def two_body_rk4(r0, v0, dt=0.01, steps=300, mu=1.0):
    def deriv(s):
        r = s[:2]
        d = np.linalg.norm(r)
        return np.concatenate([s[2:], -mu * r / d ** 3])

    state = np.concatenate([r0, v0]).astype(float)
    traj = np.zeros((steps + 1, 4))
    traj[0] = state
    for k in range(steps):
        k1 = deriv(state)
        k2 = deriv(state + 0.5 * dt * k1)
        k3 = deriv(state + 0.5 * dt * k2)
        k4 = deriv(state + dt * k3)
        state = state + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        traj[k + 1] = state
    energy = 0.5 * (traj[:, 2] ** 2 + traj[:, 3] ** 2) - mu / np.hypot(traj[:, 0], traj[:, 1])
    return traj, float(energy[-1] - energy[0])


def leapfrog_nbody(pos, vel, mass, dt=0.005, steps=100, G=1.0, soft=0.05):
    pos = pos.copy()
    vel = vel.copy()

    def accel(p):
        d = p[None, :, :] - p[:, None, :]
        r2 = (d ** 2).sum(-1) + soft ** 2
        inv = r2 ** -1.5
        np.fill_diagonal(inv, 0.0)
        return G * (d * (inv * mass[None, :])[:, :, None]).sum(axis=1)

    a = accel(pos)
    com = []
    for _ in range(steps):
        vel += 0.5 * dt * a
        pos += dt * vel
        a = accel(pos)
        vel += 0.5 * dt * a
        com.append((mass[:, None] * pos).sum(0) / mass.sum())
    ke = 0.5 * np.sum(mass * np.sum(vel ** 2, axis=1))
    return pos, vel, np.array(com), ke


def angular_separation(ra1, dec1, ra2, dec2):
    # degrees in, degrees out (Vincenty formula)
    ra1, dec1, ra2, dec2 = map(np.radians, (ra1, dec1, ra2, dec2))
    dra = ra2 - ra1
    num = np.sqrt((np.cos(dec2) * np.sin(dra)) ** 2 +
                  (np.cos(dec1) * np.sin(dec2) - np.sin(dec1) * np.cos(dec2) * np.cos(dra)) ** 2)
    den = np.sin(dec1) * np.sin(dec2) + np.cos(dec1) * np.cos(dec2) * np.cos(dra)
    sep = np.degrees(np.arctan2(num, den))
    close = sep < 1.0
    return sep, np.flatnonzero(close)


# ----------------------------------------------------------------------------
# Molecular dynamics
# ----------------------------------------------------------------------------

def lj_forces_loop(pos, box, eps=1.0, sigma=1.0, rcut=2.5):
    N = pos.shape[0]
    forces = np.zeros_like(pos)
    energy = 0.0
    rc2 = rcut * rcut
    for i in range(N - 1):
        for j in range(i + 1, N):
            rij = pos[i] - pos[j]
            rij = rij - box * np.round(rij / box)
            r2 = np.dot(rij, rij)
            if r2 < rc2:
                sr2 = sigma ** 2 / r2
                sr6 = sr2 ** 3
                energy += 4 * eps * (sr6 * sr6 - sr6)
                f = 24 * eps * (2 * sr6 * sr6 - sr6) / r2 * rij
                forces[i] += f
                forces[j] -= f
    return forces, energy


def _lj_vec(pos, box, rcut=2.5):
    d = pos[:, None, :] - pos[None, :, :]
    d -= box * np.rint(d / box)
    r2 = np.einsum("ijk,ijk->ij", d, d)
    np.fill_diagonal(r2, np.inf)
    mask = r2 < rcut ** 2
    inv6 = np.where(mask, 1.0 / r2 ** 3, 0.0)
    e = 0.5 * np.sum(4 * (inv6 ** 2 - inv6))
    fmag = np.where(mask, 24 * (2 * inv6 ** 2 - inv6) / r2, 0.0)
    F = np.sum(fmag[:, :, None] * d, axis=1)
    return F, e


def velocity_verlet_lj(pos, vel, box, dt=0.002, steps=60):
    F, U = _lj_vec(pos, box)
    energies = []
    for step in range(steps):
        vel += 0.5 * dt * F
        pos += dt * vel
        pos %= box
        F, U = _lj_vec(pos, box)
        vel += 0.5 * dt * F
        K = 0.5 * (vel ** 2).sum()
        energies.append((K, U, K + U))
    energies = np.array(energies)
    return pos, vel, energies, energies[:, 2].std() / abs(energies[:, 2].mean())


def radial_distribution(pos, box, nbins=25, rmax=None):
    N = len(pos)
    if rmax is None:
        rmax = box / 2
    d = pos[:, None, :] - pos[None, :, :]
    d = d - box * np.round(d / box)
    r = np.sqrt((d ** 2).sum(-1))[np.triu_indices(N, k=1)]
    hist, edges = np.histogram(r, bins=nbins, range=(0, rmax))
    rho = N / box ** 3
    shell = 4.0 / 3.0 * np.pi * (edges[1:] ** 3 - edges[:-1] ** 3)
    g = 2 * hist / (N * rho * shell)
    centers = 0.5 * (edges[1:] + edges[:-1])
    return centers, g


def berendsen_thermostat(vel, masses, T_target, tau=0.1, dt=0.01, steps=20):
    n_dof = vel.size - 3
    temps = []
    for _ in range(steps):
        ke = 0.5 * np.sum(masses[:, None] * vel ** 2)
        T = 2 * ke / n_dof
        lam = np.sqrt(1 + dt / tau * (T_target / T - 1))
        vel *= lam  # modifies the caller's array
        temps.append(T)
    return temps, vel.mean(axis=0)


# ----------------------------------------------------------------------------
# Epidemiology
# ----------------------------------------------------------------------------

def sir_euler(beta, gamma, S0, I0, R0=0.0, days=160, dt=0.5):
    N = S0 + I0 + R0
    n = int(days / dt)
    S = np.zeros(n + 1); I = np.zeros(n + 1); R = np.zeros(n + 1)
    S[0], I[0], R[0] = S0, I0, R0
    for t in range(n):
        new_inf = beta * S[t] * I[t] / N * dt
        new_rec = gamma * I[t] * dt
        S[t + 1] = S[t] - new_inf
        I[t + 1] = I[t] + new_inf - new_rec
        R[t + 1] = R[t] + new_rec
    peak = int(np.argmax(I))
    return {"S": S, "I": I, "R": R, "peak_day": peak * dt, "peak_I": I[peak]}


def seir_rk4(y0, t, params):
    beta, sigma, gamma = params["beta"], params["sigma"], params["gamma"]

    def f(y):
        S, E, I, R = y
        N = y.sum()
        return np.array([-beta * S * I / N,
                         beta * S * I / N - sigma * E,
                         sigma * E - gamma * I,
                         gamma * I])

    Y = np.empty((len(t), 4))
    Y[0] = y0
    for k in range(len(t) - 1):
        h = t[k + 1] - t[k]
        y = Y[k]
        k1 = f(y); k2 = f(y + h / 2 * k1); k3 = f(y + h / 2 * k2); k4 = f(y + h * k3)
        Y[k + 1] = y + h * (k1 + 2 * k2 + 2 * k3 + k4) / 6
    attack = Y[-1, 3] / Y[0].sum()
    return Y, attack


def sir_final_size(R0_values, tol=1e-10):
    out = []
    for R0 in R0_values:
        if R0 <= 1:
            out.append(0.0)
            continue
        z = 0.5
        while True:
            z_new = 1 - math.exp(-R0 * z)
            if abs(z_new - z) < tol:
                break
            z = z_new
        out.append(z_new)
    return np.array(out)


def effective_reproduction(incidence, window=7, serial=5):
    inc = incidence.astype(float)
    smoothed = np.convolve(inc, np.ones(window) / window, mode="valid")
    Rt = smoothed[serial:] / np.maximum(smoothed[:-serial], 1e-9)
    growing = Rt > 1
    first_below = np.argmax(~growing) if (~growing).any() else -1
    return Rt, int(first_below)


# ----------------------------------------------------------------------------
# Economics and Markov chains
# ----------------------------------------------------------------------------

def stationary_power_iteration(P, tol=1e-12, max_iter=500):
    n = P.shape[0]
    pi = np.ones(n) / n
    for i in range(max_iter):
        new = pi @ P
        if np.abs(new - pi).sum() < tol:
            pi = new
            break
        pi = new
    # check against the eigenvector
    w, v = np.linalg.eig(P.T)
    k = np.argmin(np.abs(w - 1))
    ev = np.real(v[:, k]); ev = ev / ev.sum()
    return pi, i, np.abs(pi - ev).max()


def value_iteration(P, R, gamma=0.9, theta=1e-8):
    # P: (A, S, S) transitions, R: (S, A) rewards
    nA, nS, _ = P.shape
    V = np.zeros(nS)
    sweeps = 0
    while True:
        Q = R + gamma * np.einsum("ast,t->sa", P, V)
        V_new = Q.max(axis=1)
        sweeps += 1
        if np.max(np.abs(V_new - V)) < theta:
            V = V_new
            break
        V = V_new
    policy = Q.argmax(axis=1)
    return V, policy, sweeps


def compound_interest_schedule(principal, rate, years, monthly_contribution=0.0, compounding=12):
    balance = float(principal)
    rows = []
    r = rate / compounding
    for year in range(1, years + 1):
        interest_year = 0.0
        for m in range(compounding):
            interest = balance * r
            interest_year += interest
            balance += interest + monthly_contribution * 12 / compounding
        rows.append([year, balance, interest_year])
    table = np.array(rows)
    total_contrib = principal + monthly_contribution * 12 * years
    return table, round(balance, 2), f"gain {balance - total_contrib:.2f}"


def loan_amortisation(principal, annual_rate, n_months, extra=0.0):
    r = annual_rate / 12
    payment = principal * r / (1 - (1 + r) ** -n_months)
    sched = np.zeros((n_months, 4))
    bal = principal
    for k in range(n_months):
        interest = bal * r
        princ = min(payment - interest + extra, bal)
        bal -= princ
        sched[k] = [payment, interest, princ, bal]
        if bal <= 1e-9:
            sched = sched[:k + 1]
            break
    return sched, payment, sched[:, 1].sum()


def markov_absorption(P, absorbing):
    transient = ~absorbing
    Q = P[np.ix_(transient, transient)]
    Rm = P[np.ix_(transient, absorbing)]
    N = np.linalg.inv(np.eye(Q.shape[0]) - Q)
    t = N.sum(axis=1)
    B = N @ Rm
    return t, B


def irr_bisection(cashflows, lo=-0.99, hi=1.0, tol=1e-10):
    periods = np.arange(len(cashflows))

    def npv(r):
        return np.sum(cashflows / (1 + r) ** periods)

    f_lo = npv(lo)
    if f_lo * npv(hi) > 0:
        return None
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        f_mid = npv(mid)
        if f_lo * f_mid <= 0:
            hi = mid
        else:
            lo, f_lo = mid, f_mid
    return 0.5 * (lo + hi)


# ----------------------------------------------------------------------------
# Control
# ----------------------------------------------------------------------------

def pid_simulate(kp, ki, kd, setpoint=1.0, steps=200, dt=0.05, tau=0.5):
    y = 0.0
    integral = 0.0
    prev_err = setpoint - y
    ys = np.zeros(steps)
    us = np.zeros(steps)
    for k in range(steps):
        err = setpoint - y
        integral += err * dt
        deriv = (err - prev_err) / dt
        u = kp * err + ki * integral + kd * deriv
        u = np.clip(u, -10, 10)
        y += dt * (-y + u) / tau
        prev_err = err
        ys[k] = y
        us[k] = u
    overshoot = max(0.0, (ys.max() - setpoint) / setpoint * 100)
    settled = np.abs(ys - setpoint) < 0.02 * abs(setpoint)
    idx = np.where(~settled)[0]
    settle_time = (idx[-1] + 1) * dt if len(idx) else 0.0
    return ys, us, overshoot, settle_time


def dlqr_riccati(A, B, Q, R, tol=1e-10, max_iter=500):
    P = Q.copy()
    for i in range(max_iter):
        BtP = B.T @ P
        K = np.linalg.solve(R + BtP @ B, BtP @ A)
        P_next = Q + A.T @ P @ A - A.T @ P @ B @ K
        if np.max(np.abs(P_next - P)) < tol:
            P = P_next
            break
        P = P_next
    K = np.linalg.solve(R + B.T @ P @ B, B.T @ P @ A)
    eig = np.linalg.eigvals(A - B @ K)
    return K, P, np.abs(eig).max()


def kalman_1d(z, q=1e-4, r=0.1, x0=0.0, p0=1.0):
    n = len(z)
    xhat = np.zeros(n)
    P = np.zeros(n)
    gains = np.zeros(n)
    x, p = x0, p0
    for k in range(n):
        # predict
        p = p + q
        # update
        K = p / (p + r)
        x = x + K * (z[k] - x)
        p = (1 - K) * p
        xhat[k], P[k], gains[k] = x, p, K
    return xhat, P, gains


def second_order_step(wn, zeta, dt=0.01, T=5.0):
    n = int(round(T / dt))
    A = np.array([[0.0, 1.0], [-wn ** 2, -2 * zeta * wn]])
    Bv = np.array([0.0, wn ** 2])
    x = np.zeros(2)
    out = []
    for _ in range(n):
        x = x + dt * (A @ x + Bv)
        out.append(x[0])
    y = np.array(out)
    rise = np.argmax(y >= 0.9) - np.argmax(y >= 0.1)
    return y, rise * dt, y.max() - 1.0


# ----------------------------------------------------------------------------
# Geoscience
# ----------------------------------------------------------------------------

EARTH_RADIUS_KM = 6371.0


def haversine(lat1, lon1, lat2, lon2):
    lat1, lon1, lat2, lon2 = np.radians(lat1), np.radians(lon1), np.radians(lat2), np.radians(lon2)
    a = np.sin((lat2 - lat1) / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_KM * np.arcsin(np.sqrt(a))


def haversine_matrix(lats, lons):
    D = haversine(lats[:, None], lons[:, None], lats[None, :], lons[None, :])
    i, j = np.unravel_index(np.argmax(D), D.shape)
    return D, (int(i), int(j)), D[np.triu_indices(len(lats), 1)].mean()


def idw_interpolate(xy, values, grid_x, grid_y, power=2.0):
    gx, gy = np.meshgrid(grid_x, grid_y)
    pts = np.column_stack([gx.ravel(), gy.ravel()])
    d = np.sqrt(((pts[:, None, :] - xy[None, :, :]) ** 2).sum(-1))
    exact = d < 1e-12
    w = 1.0 / np.where(exact, 1.0, d) ** power
    z = (w * values).sum(1) / w.sum(1)
    hit = exact.any(1)
    z[hit] = values[exact[hit].argmax(1)]
    return z.reshape(gx.shape)


def bilinear_interpolate(grid, xs, ys):
    ny, nx = grid.shape
    x0 = np.floor(xs).astype(int)
    y0 = np.floor(ys).astype(int)
    x0 = np.clip(x0, 0, nx - 2)
    y0 = np.clip(y0, 0, ny - 2)
    fx = xs - x0
    fy = ys - y0
    v = (grid[y0, x0] * (1 - fx) * (1 - fy) + grid[y0, x0 + 1] * fx * (1 - fy)
         + grid[y0 + 1, x0] * (1 - fx) * fy + grid[y0 + 1, x0 + 1] * fx * fy)
    return v


def slope_aspect(dem, cellsize=30.0):
    dzdy, dzdx = np.gradient(dem.astype(np.float64), cellsize)
    slope = np.degrees(np.arctan(np.hypot(dzdx, dzdy)))
    aspect = np.degrees(np.arctan2(-dzdx, dzdy)) % 360
    steep = slope > 30
    return slope, aspect, steep.sum().item(), float(slope[steep].mean()) if steep.any() else 0.0


# ----------------------------------------------------------------------------
# Audio
# ----------------------------------------------------------------------------

def adsr_envelope(n_samples, sr=8000, attack=0.01, decay=0.02, sustain=0.6, release=0.03):
    a = int(attack * sr); d = int(decay * sr); r = int(release * sr)
    s = max(n_samples - a - d - r, 0)
    env = np.concatenate([
        np.linspace(0, 1, a, endpoint=False),
        np.linspace(1, sustain, d, endpoint=False),
        np.full(s, sustain),
        np.linspace(sustain, 0, r),
    ]).astype(np.float32)
    env = env[:n_samples]
    t = np.arange(len(env), dtype=np.float32) / sr
    tone = env * np.sin(2 * np.pi * 440 * t).astype(np.float32)
    return env, tone


def zero_crossing_rate(x, frame_len=64, hop=32):
    signs = np.sign(x)
    signs[signs == 0] = 1
    crossings = np.abs(np.diff(signs)) > 0
    rates = []
    for start in range(0, len(x) - frame_len + 1, hop):
        rates.append(crossings[start:start + frame_len - 1].sum() / (frame_len - 1))
    return np.array(rates)


def resample_linear(x, sr_in, sr_out):
    duration = len(x) / sr_in
    n_out = int(round(duration * sr_out))
    t_in = np.arange(len(x)) / sr_in
    t_out = np.arange(n_out) / sr_out
    y = np.interp(t_out, t_in, x)
    return y, n_out


def rms_frames_db(x, frame=128, hop=64, ref=1.0):
    n_frames = 1 + (len(x) - frame) // hop
    idx = np.arange(frame)[None, :] + hop * np.arange(n_frames)[:, None]
    frames = x[idx]
    rms = np.sqrt(np.mean(frames ** 2, axis=1))
    db = 20 * np.log10(np.maximum(rms, 1e-10) / ref)
    return rms, db, db.max() - db.min()


def pre_emphasis(signal, coeff=0.97):
    emphasised = np.append(signal[0], signal[1:] - coeff * signal[:-1])
    # undo it with the recursive filter to check
    restored = np.zeros_like(emphasised)
    restored[0] = emphasised[0]
    for n in range(1, len(emphasised)):
        restored[n] = emphasised[n] + coeff * restored[n - 1]
    return emphasised, np.max(np.abs(restored - signal))


def soft_clip_compressor(x, threshold_db=-12.0, ratio=4.0, makeup=1.0):
    thr = 10 ** (threshold_db / 20)
    mag = np.abs(x)
    over = mag > thr
    out = x.copy()
    gain_db = np.zeros_like(x)
    gain_db[over] = (20 * np.log10(mag[over] / thr)) * (1 / ratio - 1)
    out *= 10 ** (gain_db / 20) * makeup
    out = np.tanh(out)
    return out, over.mean()


# ----------------------------------------------------------------------------
# Robotics
# ----------------------------------------------------------------------------

def rot_x(a):
    c, s = np.cos(a), np.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def rot_y(a):
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def rot_z(a):
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def rotation_zyx(roll, pitch, yaw):
    R = rot_z(yaw) @ rot_y(pitch) @ rot_x(roll)
    ortho_err = np.abs(R.T @ R - np.eye(3)).max()
    # recover the angles
    pitch_r = -np.arcsin(R[2, 0])
    roll_r = np.arctan2(R[2, 1], R[2, 2])
    yaw_r = np.arctan2(R[1, 0], R[0, 0])
    return R, ortho_err, (roll_r, pitch_r, yaw_r), np.linalg.det(R)


def quat_multiply(q1, q2):
    w1, x1, y1, z1 = q1
    w2, x2, y2, z2 = q2
    return np.array([
        w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
        w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
        w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
        w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
    ])


def quat_rotate_points(axis, angle, points):
    axis = axis / np.linalg.norm(axis)
    q = np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])
    q_conj = q * np.array([1, -1, -1, -1])
    out = []
    for p in points:
        v = np.concatenate([[0.0], p])
        out.append(quat_multiply(quat_multiply(q, v), q_conj)[1:])
    out = np.array(out)
    # compare with Rodrigues
    K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    R = np.eye(3) + np.sin(angle) * K + (1 - np.cos(angle)) * K @ K
    return out, np.allclose(out, points @ R.T)


def two_link_fk(theta1, theta2, l1=1.0, l2=0.7):
    x1 = l1 * np.cos(theta1)
    y1 = l1 * np.sin(theta1)
    x2 = x1 + l2 * np.cos(theta1 + theta2)
    y2 = y1 + l2 * np.sin(theta1 + theta2)
    reach = np.hypot(x2, y2)
    return np.stack([x2, y2], axis=-1), reach.max(), reach.min()


def jacobian_transpose_ik(target, l1=1.0, l2=0.8, q0=(0.3, 0.3), alpha=0.5, iters=300, tol=1e-6):
    q = np.array(q0, dtype=float)
    errs = []
    for k in range(iters):
        c1, s1 = np.cos(q[0]), np.sin(q[0])
        c12, s12 = np.cos(q.sum()), np.sin(q.sum())
        p = np.array([l1 * c1 + l2 * c12, l1 * s1 + l2 * s12])
        e = target - p
        errs.append(np.linalg.norm(e))
        if errs[-1] < tol:
            break
        J = np.array([[-l1 * s1 - l2 * s12, -l2 * s12],
                      [l1 * c1 + l2 * c12, l2 * c12]])
        q += alpha * J.T @ e
    return np.mod(q + np.pi, 2 * np.pi) - np.pi, errs[-1], len(errs)


def dh_chain(dh):
    # rows of (theta, d, a, alpha)
    T = np.eye(4)
    frames = [T[:3, 3].copy()]
    for theta, d, a, alpha in dh:
        ct, st = math.cos(theta), math.sin(theta)
        ca, sa = math.cos(alpha), math.sin(alpha)
        A = np.array([[ct, -st * ca, st * sa, a * ct],
                      [st, ct * ca, -ct * sa, a * st],
                      [0, sa, ca, d],
                      [0, 0, 0, 1]])
        T = T @ A
        frames.append(T[:3, 3].copy())
    return T, np.array(frames)


# ----------------------------------------------------------------------------
# Optimisation by hand
# ----------------------------------------------------------------------------

def rosenbrock(x, a=1.0, b=100.0):
    return (a - x[0]) ** 2 + b * (x[1] - x[0] ** 2) ** 2


def nelder_mead(x0, f=rosenbrock, step=0.5, tol=1e-8, max_iter=300):
    n = len(x0)
    simplex = [np.asarray(x0, dtype=float)]
    for i in range(n):
        x = simplex[0].copy()
        x[i] += step
        simplex.append(x)
    simplex = np.array(simplex)
    fvals = np.array([f(x) for x in simplex])
    for it in range(max_iter):
        order = np.argsort(fvals)
        simplex, fvals = simplex[order], fvals[order]
        if abs(fvals[-1] - fvals[0]) < tol:
            break
        centroid = simplex[:-1].mean(axis=0)
        xr = centroid + (centroid - simplex[-1])
        fr = f(xr)
        if fvals[0] <= fr < fvals[-2]:
            simplex[-1], fvals[-1] = xr, fr
        elif fr < fvals[0]:
            xe = centroid + 2 * (xr - centroid)
            fe = f(xe)
            if fe < fr:
                simplex[-1], fvals[-1] = xe, fe
            else:
                simplex[-1], fvals[-1] = xr, fr
        else:
            xc = centroid + 0.5 * (simplex[-1] - centroid)
            fc = f(xc)
            if fc < fvals[-1]:
                simplex[-1], fvals[-1] = xc, fc
            else:
                simplex[1:] = simplex[0] + 0.5 * (simplex[1:] - simplex[0])
                fvals[1:] = [f(x) for x in simplex[1:]]
    return simplex[0], fvals[0], it


def golden_section(a, b, tol=1e-8):
    def f(x):
        return x ** 4 - 3 * x ** 3 + 2 + np.exp(-x)

    invphi = (math.sqrt(5) - 1) / 2
    c = b - invphi * (b - a)
    d = a + invphi * (b - a)
    fc, fd = f(c), f(d)
    n = 0
    while abs(b - a) > tol:
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


def gradient_descent_armijo(A, b, x0, c=1e-4, rho=0.5, tol=1e-8, max_iter=200):
    # minimise 0.5 x'Ax - b'x
    f = lambda x: 0.5 * x @ A @ x - b @ x
    x = x0.copy()
    history = [f(x)]
    for k in range(max_iter):
        g = A @ x - b
        if np.linalg.norm(g) < tol:
            break
        t = 1.0
        while f(x - t * g) > f(x) - c * t * g @ g:
            t *= rho
        x -= t * g
        history.append(f(x))
    return x, np.array(history), np.linalg.norm(x - np.linalg.solve(A, b))


def simulated_annealing_tsp(coords, seed=0, T0=10.0, cooling=0.995, n_iter=3000):
    rng = np.random.default_rng(seed)
    n = len(coords)
    D = np.sqrt(((coords[:, None] - coords[None]) ** 2).sum(-1))

    def tour_len(t):
        return D[t, np.roll(t, -1)].sum()

    tour = np.arange(n)
    cur = tour_len(tour)
    best, best_len = tour.copy(), cur
    T = T0
    for _ in range(n_iter):
        i, j = sorted(rng.choice(n, 2, replace=False))
        cand = tour.copy()
        cand[i:j + 1] = cand[i:j + 1][::-1]
        L = tour_len(cand)
        if L < cur or rng.random() < math.exp(-(L - cur) / T):
            tour, cur = cand, L
            if cur < best_len:
                best, best_len = tour.copy(), cur
        T *= cooling
    return best, best_len


def genetic_onemax(n_bits=30, pop_size=40, generations=40, p_mut=0.02, seed=42):
    np.random.seed(seed)
    pop = np.random.randint(0, 2, size=(pop_size, n_bits))
    best_hist = []
    for g in range(generations):
        fitness = pop.sum(axis=1)
        best_hist.append(fitness.max())
        if fitness.max() == n_bits:
            break
        # tournament selection
        a = np.random.randint(0, pop_size, pop_size)
        b = np.random.randint(0, pop_size, pop_size)
        parents = pop[np.where(fitness[a] > fitness[b], a, b)]
        # one point crossover
        children = parents.copy()
        for k in range(0, pop_size - 1, 2):
            cut = np.random.randint(1, n_bits)
            children[k, cut:] = parents[k + 1, cut:]
            children[k + 1, cut:] = parents[k, cut:]
        flip = np.random.rand(pop_size, n_bits) < p_mut
        children[flip] = 1 - children[flip]
        pop = children
    return pop[pop.sum(1).argmax()], best_hist


def soft_threshold(z, gamma):
    return np.sign(z) * max(abs(z) - gamma, 0.0)


def lasso_coordinate_descent(X, y, lam=0.1, n_iter=100, tol=1e-6):
    n, p = X.shape
    beta = np.zeros(p)
    col_sq = (X ** 2).sum(axis=0) / n
    for it in range(n_iter):
        beta_old = beta.copy()
        for j in range(p):
            r_j = y - X @ beta + X[:, j] * beta[j]
            rho = X[:, j] @ r_j / n
            beta[j] = soft_threshold(rho, lam) / col_sq[j]
        if np.max(np.abs(beta - beta_old)) < tol:
            break
    return beta, np.count_nonzero(beta), it


# ----------------------------------------------------------------------------
# Queueing and inventory simulations
# ----------------------------------------------------------------------------

def mm1_lindley(lam, mu, n_customers=300, seed=1):
    rng = np.random.default_rng(seed)
    inter = rng.exponential(1 / lam, n_customers)
    service = rng.exponential(1 / mu, n_customers)
    wait = np.zeros(n_customers)
    for k in range(1, n_customers):
        wait[k] = max(0.0, wait[k - 1] + service[k - 1] - inter[k])
    rho = lam / mu
    theory = rho / (mu - lam) if rho < 1 else float("inf")
    return wait.mean(), theory, (wait > 0).mean()


def inventory_sS(s, S, days=200, mean_demand=4.0, hold=0.1, short=2.0, order_cost=10.0, seed=7):
    rs = np.random.RandomState(seed)
    demand = rs.poisson(mean_demand, days)
    stock = S
    cost = np.zeros(days)
    levels = []
    orders = 0
    for d in range(days):
        stock -= demand[d]
        if stock < 0:
            cost[d] += short * -stock
            stock = 0
        cost[d] += hold * stock
        if stock <= s:
            cost[d] += order_cost
            stock = S
            orders += 1
        levels.append(stock)
    return {"avg_cost": cost.mean(), "orders": orders, "levels": np.array(levels)}


def multi_server_queue(n_customers=150, n_servers=3, arrival_rate=2.0, service_rate=0.8, seed=3):
    rng = np.random.default_rng(seed)
    arrivals = np.cumsum(rng.exponential(1 / arrival_rate, n_customers))
    services = rng.exponential(1 / service_rate, n_customers)
    free_at = [0.0] * n_servers
    heapq.heapify(free_at)
    waits = np.empty(n_customers)
    for i in range(n_customers):
        t_free = heapq.heappop(free_at)
        start = max(arrivals[i], t_free)
        waits[i] = start - arrivals[i]
        heapq.heappush(free_at, start + services[i])
    return waits, np.percentile(waits, [50, 90, 99]), max(free_at)


def monte_carlo_pi(n=20000):
    pts = np.random.random((n, 2))
    inside = (pts ** 2).sum(axis=1) <= 1.0
    est = 4 * inside.mean()
    return est, abs(est - np.pi)


def random_walk_first_passage(n_walkers=200, n_steps=300, barrier=10):
    steps = np.random.choice([-1, 1], size=(n_walkers, n_steps))
    paths = np.cumsum(steps, axis=1)
    hit = np.abs(paths) >= barrier
    first = np.where(hit.any(axis=1), hit.argmax(axis=1), -1)
    return first, paths[:, -1].std()


# ----------------------------------------------------------------------------
# Numerical PDEs
# ----------------------------------------------------------------------------

def thomas_solve(a, b, c, d):
    """Solve a tridiagonal system; a sub, b main, c super diagonals."""
    n = len(d)
    cp = np.zeros(n)
    dp = np.zeros(n)
    cp[0] = c[0] / b[0]
    dp[0] = d[0] / b[0]
    for i in range(1, n):
        m = b[i] - a[i] * cp[i - 1]
        cp[i] = c[i] / m if i < n - 1 else 0.0
        dp[i] = (d[i] - a[i] * dp[i - 1]) / m
    x = np.zeros(n)
    x[-1] = dp[-1]
    for i in range(n - 2, -1, -1):
        x[i] = dp[i] - cp[i] * x[i + 1]
    return x


def crank_nicolson_heat(u0, alpha=1.0, dx=0.05, dt=0.001, steps=50):
    u = u0.copy()
    n = len(u) - 2  # interior, Dirichlet zero ends
    r = alpha * dt / dx ** 2
    a = np.full(n, -r / 2); b = np.full(n, 1 + r); c = np.full(n, -r / 2)
    for _ in range(steps):
        rhs = r / 2 * u[:-2] + (1 - r) * u[1:-1] + r / 2 * u[2:]
        u[1:-1] = thomas_solve(a, b, c, rhs)
        u[0] = u[-1] = 0.0
    return u, u.sum() * dx


def upwind_advection(u0, c=1.0, dx=0.02, dt=0.01, steps=100):
    cfl = c * dt / dx
    if cfl > 1:
        raise ValueError(f"CFL {cfl} too large")
    u = u0.astype(float)
    mass0 = u.sum()
    for n in range(steps):
        if c > 0:
            u[1:] = u[1:] - cfl * (u[1:] - u[:-1])
            u[0] = u[0] - cfl * (u[0] - u[-1])  # periodic (uses new u[-1])
        else:
            u[:-1] = u[:-1] - cfl * (u[1:] - u[:-1])
    return u, u.sum() - mass0, cfl


def poisson_sor(f, h=0.1, omega=1.7, tol=1e-6, max_iter=500):
    ny, nx = f.shape
    u = np.zeros_like(f)
    it = 0
    while it < max_iter:
        max_change = 0.0
        for i in range(1, ny - 1):
            for j in range(1, nx - 1):
                new = 0.25 * (u[i + 1, j] + u[i - 1, j] + u[i, j + 1] + u[i, j - 1] - h * h * f[i, j])
                change = omega * (new - u[i, j])
                u[i, j] += change
                if abs(change) > max_change:
                    max_change = abs(change)
        it += 1
        if max_change < tol:
            break
    lap = (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4 * u[1:-1, 1:-1]) / h ** 2
    resid = np.abs(lap - f[1:-1, 1:-1]).max()
    return u, it, resid


def wave_equation_1d(u0, c=1.0, dx=0.02, dt=0.01, steps=150):
    r2 = (c * dt / dx) ** 2
    u_prev = u0.copy()
    u = u0.copy()
    u[1:-1] = u0[1:-1] + 0.5 * r2 * (u0[2:] - 2 * u0[1:-1] + u0[:-2])
    snapshots = [u0.copy()]
    for n in range(steps):
        u_next = np.zeros_like(u)
        u_next[1:-1] = 2 * u[1:-1] - u_prev[1:-1] + r2 * (u[2:] - 2 * u[1:-1] + u[:-2])
        u_prev, u = u, u_next
        if n % 50 == 49:
            snapshots.append(u.copy())
    return np.array(snapshots)


# ----------------------------------------------------------------------------
# Statistics
# ----------------------------------------------------------------------------

def bootstrap_ci(x, stat=np.mean, n_boot=1000, alpha=0.05, seed=123):
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(x), size=(n_boot, len(x)))
    boots = np.array([stat(x[i]) for i in idx])
    lo, hi = np.percentile(boots, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return float(stat(x)), (lo, hi), boots.std(ddof=1)


def permutation_test(a, b, n_perm=2000, seed=0):
    rng = np.random.RandomState(seed)
    observed = a.mean() - b.mean()
    pooled = np.concatenate([a, b])
    na = len(a)
    count = 0
    for _ in range(n_perm):
        rng.shuffle(pooled)
        diff = pooled[:na].mean() - pooled[na:].mean()
        if abs(diff) >= abs(observed):
            count += 1
    p = (count + 1) / (n_perm + 1)
    return observed, p


def welch_t(a, b):
    ma, mb = np.mean(a), np.mean(b)
    va, vb = np.var(a, ddof=1), np.var(b, ddof=1)
    na, nb = len(a), len(b)
    se2 = va / na + vb / nb
    t = (ma - mb) / np.sqrt(se2)
    df = se2 ** 2 / ((va / na) ** 2 / (na - 1) + (vb / nb) ** 2 / (nb - 1))
    return t, df


def ols_with_se(X, y, add_intercept=True):
    if add_intercept:
        X = np.column_stack([np.ones(len(X)), X])
    n, k = X.shape
    XtX_inv = np.linalg.inv(X.T @ X)
    beta = XtX_inv @ X.T @ y
    resid = y - X @ beta
    sigma2 = resid @ resid / (n - k)
    se = np.sqrt(np.diag(sigma2 * XtX_inv))
    r2 = 1 - (resid ** 2).sum() / ((y - y.mean()) ** 2).sum()
    return {"coef": beta, "se": se, "t": beta / se, "r2": r2}


def _rank_average(x):
    order = np.argsort(x, kind="mergesort")
    ranks = np.empty(len(x))
    sx = x[order]
    i = 0
    while i < len(x):
        j = i
        while j + 1 < len(x) and sx[j + 1] == sx[i]:
            j += 1
        ranks[order[i:j + 1]] = 0.5 * (i + j) + 1
        i = j + 1
    return ranks


def spearman_rho(x, y):
    rx, ry = _rank_average(x), _rank_average(y)
    rx -= rx.mean()
    ry -= ry.mean()
    return (rx @ ry) / np.sqrt((rx @ rx) * (ry @ ry))


def kde_gaussian(data, grid, bandwidth=None):
    n = len(data)
    if bandwidth is None:
        sd = data.std(ddof=1)
        iqr = np.subtract(*np.percentile(data, [75, 25]))
        bandwidth = 0.9 * min(sd, iqr / 1.34) * n ** (-0.2)
    z = (grid[:, None] - data[None, :]) / bandwidth
    dens = np.exp(-0.5 * z ** 2).sum(axis=1) / (n * bandwidth * np.sqrt(2 * np.pi))
    area = np.trapezoid(dens, grid)
    return dens, bandwidth, area


def jackknife_variance(x):
    n = len(x)
    thetas = []
    for i in range(n):
        xi = np.delete(x, i)
        thetas.append(np.var(xi, ddof=1))
    thetas = np.array(thetas)
    full = np.var(x, ddof=1)
    bias = (n - 1) * (thetas.mean() - full)
    se = np.sqrt((n - 1) / n * ((thetas - thetas.mean()) ** 2).sum())
    return full - bias, se


def chi_square_contingency(table):
    table = np.asarray(table)
    row = table.sum(axis=1, keepdims=True)
    col = table.sum(axis=0, keepdims=True)
    expected = row * col / table.sum()
    chi2 = ((table - expected) ** 2 / expected).sum()
    dof = (table.shape[0] - 1) * (table.shape[1] - 1)
    cramers_v = math.sqrt(chi2 / (table.sum() * (min(table.shape) - 1)))
    return chi2, dof, cramers_v, expected


def mann_whitney_u(x, y):
    allv = np.concatenate([x, y])
    ranks = _rank_average(allv)
    r1 = ranks[:len(x)].sum()
    n1, n2 = len(x), len(y)
    u1 = r1 - n1 * (n1 + 1) / 2
    u2 = n1 * n2 - u1
    mu = n1 * n2 / 2
    sigma = math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)
    z = (min(u1, u2) - mu) / sigma
    return min(u1, u2), z


# ----------------------------------------------------------------------------
# A few more
# ----------------------------------------------------------------------------

def lj_virial_pressure(pos, box, T=1.0, rcut=2.5):
    N = len(pos)
    d = pos[:, None, :] - pos[None, :, :]
    d = d - box * np.round(d / box)
    r2 = (d * d).sum(axis=-1)
    iu = np.triu_indices(N, 1)
    r2 = r2[iu]
    r2 = r2[r2 < rcut * rcut]
    inv6 = 1.0 / r2 ** 3
    virial = np.sum(24 * (2 * inv6 ** 2 - inv6))
    V = box ** 3
    P = N * T / V + virial / (3 * V)
    return P, r2.size, pos.dtype.name


def codon_usage(seq, frame=0):
    letters = np.array(list("ACGT"))
    n = (len(seq) - frame) // 3
    codons = seq[frame:frame + 3 * n].reshape(n, 3)
    usage = Counter("".join(letters[c]) for c in codons)
    stops = sum(usage.get(s, 0) for s in ("TAA", "TAG", "TGA"))
    by_first = defaultdict(int)
    for cod, cnt in usage.items():
        by_first[cod[0]] += cnt
    return dict(usage.most_common(4)), stops, dict(sorted(by_first.items()))


def chain_binomial_sir(N=500, I0=5, beta=0.3, gamma=0.1, days=100, seed=2024):
    rng = np.random.default_rng(seed)
    S, I, R = N - I0, I0, 0
    history = [(S, I, R)]
    for day in range(days):
        p_inf = 1 - np.exp(-beta * I / N)
        new_i = rng.binomial(S, p_inf)
        new_r = rng.binomial(I, 1 - math.exp(-gamma))
        S -= new_i
        I += new_i - new_r
        R += new_r
        history.append((S, I, R))
        if I == 0:
            break
    h = np.array(history)
    return h, int(h[:, 1].argmax()), R / N


def zonal_mean(values, zones, valid):
    # values float grid, zones int labels, valid bool mask
    out = {}
    for z in np.unique(zones[valid]):
        sel = (zones == z) & valid
        out[int(z)] = (values[sel].mean().item(), int(sel.sum()))
    return out


# ----------------------------------------------------------------------------
# Cases
# ----------------------------------------------------------------------------

def _rng(seed):
    return np.random.default_rng(seed)


def _dna(seed, n):
    return _rng(seed).integers(0, 4, n)


def _lattice(n_side=3, box=5.0, jitter=0.1, seed=0):
    g = (np.arange(n_side) + 0.5) * box / n_side
    pos = np.array(list(itertools.product(g, g, g)))
    return pos + jitter * _rng(seed).normal(size=pos.shape)


def _stochastic(seed, n):
    P = _rng(seed).random((n, n)) + 0.05
    return P / P.sum(axis=1, keepdims=True)


def _mdp(seed, nA=3, nS=6):
    r = _rng(seed)
    P = r.random((nA, nS, nS))
    P /= P.sum(axis=2, keepdims=True)
    return P, r.normal(size=(nS, nA))


def _absorbing_chain():
    P = np.array([[1.0, 0, 0, 0, 0],
                  [0.5, 0, 0.5, 0, 0],
                  [0, 0.5, 0, 0.5, 0],
                  [0, 0, 0.5, 0, 0.5],
                  [0, 0, 0, 0, 1.0]])
    return P, np.array([True, False, False, False, True])


def _audio(n=800, sr=8000, seed=0):
    t = np.arange(n) / sr
    x = 0.6 * np.sin(2 * np.pi * 220 * t) * np.linspace(0.2, 1, n)
    return x + 0.05 * _rng(seed).normal(size=n)


def _spd(seed, n=5):
    M = _rng(seed).normal(size=(n, n))
    return M @ M.T + n * np.eye(n)


def _gaussian_bump(n=81):
    x = np.linspace(0, 1, n)
    return np.exp(-((x - 0.3) / 0.05) ** 2)


def _dem(seed, n=20):
    x, y = np.meshgrid(np.linspace(0, 1, n), np.linspace(0, 1, n))
    return 400 * np.exp(-((x - 0.5) ** 2 + (y - 0.4) ** 2) / 0.05) + 5 * _rng(seed).normal(size=(n, n))


CASES = [
    # bioinformatics
    ("needleman_wunsch", needleman_wunsch, lambda: (_dna(1, 24), _dna(2, 20)), {}),
    ("smith_waterman", smith_waterman, lambda: (_dna(3, 25), _dna(4, 22), 3, -1, -2), {}),
    ("kmer_counts", kmer_counts, lambda: (_dna(5, 300), 3), {}),
    ("gc_content_windows", gc_content_windows, lambda: (_dna(6, 200),), {}),
    ("hamming_matrix", hamming_matrix, lambda: (_rng(7).integers(0, 4, (10, 30)),), {}),
    ("reverse_complement_palindromes", reverse_complement_palindromes,
     lambda: (np.concatenate([_dna(8, 40), np.array([0, 1, 2, 1, 2, 3]), _dna(9, 30)]), 6), {}),
    ("pwm_scan", pwm_scan, lambda: (_dna(10, 120), _rng(11).integers(0, 12, (8, 4))), {}),
    ("codon_usage", codon_usage, lambda: (_dna(12, 301), 1), {}),
    # astronomy
    ("kepler_newton", kepler_newton, lambda: (np.linspace(0, 2 * np.pi, 50), 0.6), {}),
    ("kepler_newton_high_e", kepler_newton, lambda: (_rng(13).uniform(0, 2 * np.pi, 40), 0.95), {}),
    ("orbit_positions", orbit_positions, lambda: (1.5, 0.4, 80), {}),
    ("two_body_rk4", two_body_rk4, lambda: (np.array([1.0, 0.0]), np.array([0.0, 1.2]), 0.02, 300), {}),
    ("leapfrog_nbody", leapfrog_nbody,
     lambda: (_rng(14).normal(size=(6, 2)), 0.3 * _rng(15).normal(size=(6, 2)), _rng(16).uniform(0.5, 2, 6)), {}),
    ("angular_separation", angular_separation,
     lambda: (_rng(17).uniform(0, 360, 50), _rng(18).uniform(-60, 60, 50), 150.0, 20.0), {}),
    # molecular dynamics
    ("lj_forces_loop", lj_forces_loop, lambda: (_lattice(3, 4.5, 0.1, 19), 4.5), {}),
    ("velocity_verlet_lj", velocity_verlet_lj,
     lambda: (_lattice(3, 4.5, 0.05, 20), 0.1 * _rng(21).normal(size=(27, 3)), 4.5, 0.002, 60), {}),
    ("radial_distribution", radial_distribution, lambda: (_rng(22).random((60, 3)) * 6.0, 6.0, 20), {}),
    ("berendsen_thermostat", berendsen_thermostat,
     lambda: (_rng(23).normal(size=(20, 3)), np.ones(20), 0.5), {}),
    ("lj_virial_pressure_f32", lj_virial_pressure,
     lambda: (_lattice(3, 4.0, 0.1, 24).astype(np.float32), np.float32(4.0)), {}),
    # epidemiology
    ("sir_euler", sir_euler, lambda: (0.3, 0.1, 990.0, 10.0), {}),
    ("seir_rk4", seir_rk4,
     lambda: (np.array([9990.0, 0.0, 10.0, 0.0]), np.linspace(0, 150, 151),
              {"beta": 0.5, "sigma": 0.2, "gamma": 0.1}), {}),
    ("sir_final_size", sir_final_size, lambda: (np.array([0.8, 1.2, 1.5, 2.0, 2.5, 3.0, 5.0]),), {}),
    ("effective_reproduction", effective_reproduction,
     lambda: ((50 * np.exp(0.1 * np.arange(60) - 0.003 * np.arange(60) ** 2)).astype(int) + 1,), {}),
    ("chain_binomial_sir", chain_binomial_sir, lambda: (500, 5, 0.35, 0.1, 120), {}),
    # economics and Markov chains
    ("stationary_power_iteration", stationary_power_iteration, lambda: (_stochastic(25, 6),), {}),
    ("value_iteration", value_iteration, lambda: (*_mdp(26), 0.9), {}),
    ("compound_interest_schedule", compound_interest_schedule, lambda: (10000, 0.05, 20, 200.0), {}),
    ("loan_amortisation", loan_amortisation, lambda: (250000.0, 0.045, 360, 150.0), {}),
    ("markov_absorption", markov_absorption, _absorbing_chain, {}),
    ("irr_bisection", irr_bisection, lambda: (np.array([-1000.0, 300, 400, 400, 300]),), {}),
    # control
    ("pid_simulate", pid_simulate, lambda: (2.0, 1.0, 0.1), {}),
    ("dlqr_riccati", dlqr_riccati,
     lambda: (np.array([[1.0, 0.1], [0.0, 1.0]]), np.array([[0.005], [0.1]]), np.eye(2), np.array([[0.5]])), {}),
    ("kalman_1d", kalman_1d, lambda: (1.5 + 0.3 * _rng(27).normal(size=200), 1e-5, 0.09), {}),
    ("second_order_step", second_order_step, lambda: (4.0, 0.3), {}),
    # geoscience
    ("haversine_matrix", haversine_matrix,
     lambda: (_rng(28).uniform(-60, 60, 30), _rng(29).uniform(-180, 180, 30)), {}),
    ("idw_interpolate", idw_interpolate,
     lambda: (_rng(30).random((15, 2)) * 10, _rng(31).normal(20, 5, 15), np.linspace(0, 10, 12), np.linspace(0, 10, 10)), {}),
    ("bilinear_interpolate_f32", bilinear_interpolate,
     lambda: (_rng(32).random((12, 15)).astype(np.float32), _rng(33).uniform(0, 14, 50), _rng(34).uniform(0, 11, 50)), {}),
    ("slope_aspect", slope_aspect, lambda: (_dem(35), 30.0), {}),
    ("zonal_mean", zonal_mean,
     lambda: (_dem(36), _rng(37).integers(0, 5, (20, 20)), _rng(38).random((20, 20)) > 0.2), {}),
    # audio
    ("adsr_envelope", adsr_envelope, lambda: (800,), {}),
    ("zero_crossing_rate", zero_crossing_rate, lambda: (_audio(600, seed=39),), {}),
    ("resample_linear", resample_linear, lambda: (_audio(400, seed=40), 8000, 11025), {}),
    ("rms_frames_db_f32", rms_frames_db, lambda: (_audio(900, seed=41).astype(np.float32),), {}),
    ("pre_emphasis", pre_emphasis, lambda: (_audio(300, seed=42), 0.95), {}),
    ("soft_clip_compressor", soft_clip_compressor, lambda: (_audio(500, seed=43) * 1.5,), {}),
    # robotics
    ("rotation_zyx", rotation_zyx, lambda: (0.1, -0.4, 1.2), {}),
    ("quat_multiply", quat_multiply,
     lambda: (np.array([0.7071, 0.7071, 0.0, 0.0]), np.array([0.5, 0.5, 0.5, 0.5])), {}),
    ("quat_rotate_points", quat_rotate_points,
     lambda: (np.array([1.0, 2.0, 0.5]), 0.8, _rng(44).normal(size=(20, 3))), {}),
    ("two_link_fk", two_link_fk,
     lambda: (np.linspace(0, np.pi, 40), np.linspace(-np.pi / 2, np.pi / 2, 40), 1.0, 0.6), {}),
    ("jacobian_transpose_ik", jacobian_transpose_ik, lambda: (np.array([1.1, 0.9]),), {}),
    ("dh_chain", dh_chain,
     lambda: (np.array([[0.3, 0.4, 0.0, np.pi / 2], [-0.5, 0.0, 0.5, 0.0], [0.8, 0.0, 0.4, 0.0], [0.2, 0.1, 0.0, -np.pi / 2]]),), {}),
    # optimisation
    ("nelder_mead", nelder_mead, lambda: (np.array([-1.2, 1.0]),), {}),
    ("golden_section", golden_section, lambda: (0.5, 4.0), {}),
    ("gradient_descent_armijo", gradient_descent_armijo,
     lambda: (_spd(45), _rng(46).normal(size=5), np.zeros(5)), {}),
    ("simulated_annealing_tsp", simulated_annealing_tsp, lambda: (_rng(47).random((12, 2)), 5, 5.0, 0.995, 1500), {}),
    ("genetic_onemax", genetic_onemax, lambda: (24, 30, 30), {}),
    ("lasso_coordinate_descent", lasso_coordinate_descent,
     lambda: (_rng(48).normal(size=(50, 6)), _rng(49).normal(size=50), 0.05), {}),
    # queueing and inventory
    ("mm1_lindley", mm1_lindley, lambda: (0.8, 1.0, 300, 11), {}),
    ("inventory_sS", inventory_sS, lambda: (8, 30), {}),
    ("multi_server_queue", multi_server_queue, lambda: (150, 3), {}),
    ("monte_carlo_pi", monte_carlo_pi, lambda: (5000,), {"rand": True}),
    ("random_walk_first_passage", random_walk_first_passage, lambda: (100, 200, 8), {"rand": True}),
    # PDEs
    ("thomas_solve", thomas_solve,
     lambda: (np.r_[0.0, -np.ones(19)], np.full(20, 4.0), np.r_[-np.ones(19), 0.0], _rng(50).normal(size=20)), {}),
    ("crank_nicolson_heat", crank_nicolson_heat, lambda: (_gaussian_bump(41), 1.0, 0.025, 0.0005, 60), {}),
    ("upwind_advection", upwind_advection, lambda: (_gaussian_bump(101), 1.0, 0.01, 0.005, 120), {}),
    ("poisson_sor", poisson_sor, lambda: (np.ones((10, 10)), 0.1, 1.6, 1e-6, 200), {}),
    ("wave_equation_1d", wave_equation_1d, lambda: (_gaussian_bump(61), 1.0, 0.02, 0.01, 150), {}),
    # statistics
    ("bootstrap_ci", bootstrap_ci, lambda: (_rng(51).exponential(2.0, 40),), {}),
    ("bootstrap_ci_median", bootstrap_ci, lambda: (_rng(52).normal(5, 2, 30), np.median, 300), {}),
    ("permutation_test", permutation_test,
     lambda: (_rng(53).normal(0.0, 1, 20), _rng(54).normal(0.6, 1, 25), 800), {}),
    ("welch_t", welch_t, lambda: (_rng(55).normal(0, 1, 25), _rng(56).normal(0.5, 2, 40)), {}),
    ("ols_with_se", ols_with_se,
     lambda: (_rng(57).normal(size=(60, 3)), _rng(58).normal(size=60) + 1.0), {}),
    ("spearman_rho_ties", spearman_rho,
     lambda: (_rng(59).integers(0, 10, 40).astype(float), _rng(60).integers(0, 10, 40)), {}),
    ("kde_gaussian", kde_gaussian,
     lambda: (np.r_[_rng(61).normal(0, 1, 60), _rng(62).normal(4, 0.5, 40)], np.linspace(-4, 7, 120)), {}),
    ("jackknife_variance", jackknife_variance, lambda: (_rng(63).gamma(2.0, 1.5, 30),), {}),
    ("chi_square_contingency", chi_square_contingency,
     lambda: (_rng(64).integers(5, 40, (3, 4)),), {}),
    ("mann_whitney_u", mann_whitney_u,
     lambda: (_rng(65).integers(0, 20, 15), _rng(66).integers(3, 25, 18)), {}),
]
