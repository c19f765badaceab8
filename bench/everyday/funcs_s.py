"""Everyday NumPy functions, fifteenth collection: research and engineering scripts,
the kind found in physics course repositories, lab analysis notebooks, signal-processing
blog posts, quant-finance tutorials, remote-sensing and image-processing utilities and
small control/embedded prototypes written in Python before being ported to C. Physics
simulations (an N-body leapfrog after Philip Mocz's ``nbody-python`` with column-vector
masses and energy histories, velocity Verlet with nested force loops, a 2-d
Lennard-Jones fluid with minimum-image periodic boundaries, Ising models by single-spin
Metropolis with ``np.random.seed`` and by checkerboard updates with a ``RandomState``,
1-d and 2-d wave equations and 2-d diffusion with slices, Gray-Scott reaction-diffusion
with ``np.roll``, a damped pendulum by RK4 with ``math.sin``, Lorenz by Euler and RK4,
cloud-in-cell charge deposition with ``np.add.at`` and an FFT Poisson solve, seeded and
unseeded random walks, projectiles with drag in a ``while True`` loop, normal modes of a
mass-spring chain, a radioactive decay chain kept in a dict of arrays); signal
processing (direct-form FIR and IIR filters with double loops, windowed-sinc design,
RBJ biquads, float32 one-pole smoothing, windowed FFT amplitude spectra with parabolic
peak interpolation, periodograms and Welch averages by hand, autocorrelation by lags and
by ``np.correlate``, FFT analytic-signal envelopes, envelope followers, interpolated zero
crossings, peak finding with a distance rule, ``np.interp`` resampling, boxcar
decimation, median filters, spectrograms, Goertzel and DTMF decoding); statistics
without pandas (group-by with ``np.unique(return_inverse=True)`` and ``bincount``,
weighted and inverse-variance means, histograms checked with ``np.digitize``, bootstrap
intervals, permutation tests, regression by ``lstsq`` and ``polyfit`` with standard
errors, sigma clipping, moving statistics, IQR and MAD outliers, NaN-aware z-scores,
quantile summaries, correlation pairs, ECDFs and a two-sample KS test, binned means,
Gaussian KDE, chi-square tables, Welford running statistics as a class); finance
(simple/log returns, Sharpe and Sortino ratios, drawdowns by loop and by
``np.maximum.accumulate``, rolling volatility, EMA/MACD by loop, Wilder's RSI, Bollinger
bands with ``np.select``, Black-Scholes with ``math.erf``, implied volatility by Newton
with a bisection fallback, Monte-Carlo European, Asian and barrier options, amortisation
schedules, IRR by Newton, bisection and ``np.roots``, minimum-variance portfolios);
image and geo processing (Otsu thresholds, connected components by BFS with a
``deque``, flood fill with a stack, small-object removal, binary erosion/dilation by
loops, grey erosion by shifted slices, bilinear resize by loops and vectorised, separable
Gaussian blur and unsharp masks on uint8 images, Sobel edges, gamma lookup tables,
haversine tracks and distance matrices, nearest stations from a dict, grid clustering
with ``np.unique(axis=0)``, slope/aspect and hillshade by ``np.gradient``, NDVI classes);
and engineering utilities (unit conversions with dicts, thermocouple tables by
``np.interp`` and by linear search, 2-d map lookups with ``searchsorted``, tariffs with
``np.select``/``np.piecewise`` and progressive taxes, hysteresis thermostats and a
machine state machine, a PID class with anti-windup, 1-d and 2-d Kalman filters, M/M/1
and multi-server queues with ``heapq``, Colebrook friction factors, beam deflections,
checksums and CRC-8 on uint8 data, tank levels and sensor calibration). Styles vary on
purpose: Python loops over array elements, ``while`` loops with tolerances and
``break``, lists appended then converted, dicts of arrays, tuples and f-strings in
results, in-place updates of arguments, early returns, nested helper functions, small
classes, ``math`` functions and ``int()``/``float()``/``.item()`` of array values.
Each entry of CASES is (name, function, make_args, opts); make_args() returns the
arguments; opts {"rand": True} marks a function that draws random numbers without a
seed (compared by type, dtype and shape only)."""
import heapq
import math
from collections import deque

import numpy as np


# ---------------------------------------------------------------------------
# Physics simulations
# ---------------------------------------------------------------------------

def _nbody_acc(pos, mass, G, softening):
    # positions r = [x, y, z] for all particles
    x = pos[:, 0:1]
    y = pos[:, 1:2]
    z = pos[:, 2:3]

    # matrix that stores all pairwise particle separations: r_j - r_i
    dx = x.T - x
    dy = y.T - y
    dz = z.T - z

    # matrix that stores 1/r^3 for all particle pairwise particle separations
    inv_r3 = (dx ** 2 + dy ** 2 + dz ** 2 + softening ** 2)
    inv_r3[inv_r3 > 0] = inv_r3[inv_r3 > 0] ** (-1.5)

    ax = G * (dx * inv_r3) @ mass
    ay = G * (dy * inv_r3) @ mass
    az = G * (dz * inv_r3) @ mass

    a = np.hstack((ax, ay, az))
    return a


def _nbody_energy(pos, vel, mass, G):
    KE = 0.5 * np.sum(np.sum(mass * vel ** 2))

    x = pos[:, 0:1]
    y = pos[:, 1:2]
    z = pos[:, 2:3]
    dx = x.T - x
    dy = y.T - y
    dz = z.T - z

    inv_r = np.sqrt(dx ** 2 + dy ** 2 + dz ** 2)
    inv_r[inv_r > 0] = 1.0 / inv_r[inv_r > 0]

    # sum over upper triangle, to count each interaction only once
    PE = G * np.sum(np.sum(np.triu(-(mass * mass.T) * inv_r, 1)))
    return KE, PE


def nbody_leapfrog(pos, vel, mass, dt=0.01, Nt=40, G=1.0, softening=0.1):
    # convert to Center-of-Mass frame (modifies the caller's velocities)
    vel -= np.mean(mass * vel, 0) / np.mean(mass)

    acc = _nbody_acc(pos, mass, G, softening)
    KE, PE = _nbody_energy(pos, vel, mass, G)
    KE_save = [KE]
    PE_save = [PE]
    t = 0.0

    # Simulation Main Loop
    for i in range(Nt):
        # (1/2) kick
        vel += acc * dt / 2.0
        # drift
        pos += vel * dt
        # update accelerations
        acc = _nbody_acc(pos, mass, G, softening)
        # (1/2) kick
        vel += acc * dt / 2.0
        t += dt
        KE, PE = _nbody_energy(pos, vel, mass, G)
        KE_save.append(KE)
        PE_save.append(PE)

    E = np.array(KE_save) + np.array(PE_save)
    drift = abs((E[-1] - E[0]) / E[0])
    return pos, vel, E, float(drift), t


def nbody_verlet_loops(pos, vel, m, dt=0.005, nsteps=60, G=1.0, eps=0.05):
    n = len(m)

    def accel(p):
        a = np.zeros_like(p)
        for i in range(n):
            for j in range(n):
                if i == j:
                    continue
                r = p[j] - p[i]
                d = np.linalg.norm(r)
                a[i] += G * m[j] * r / (d ** 2 + eps ** 2) ** 1.5
        return a

    a = accel(pos)
    traj = [pos.copy()]
    for step in range(nsteps):
        pos = pos + vel * dt + 0.5 * a * dt ** 2
        a_new = accel(pos)
        vel = vel + 0.5 * (a + a_new) * dt
        a = a_new
        if step % 10 == 9:
            traj.append(pos.copy())
    com = (m[:, None] * pos).sum(axis=0) / m.sum()
    return np.array(traj), vel, com


def lj_forces(pos, L, rc=2.5):
    n = pos.shape[0]
    f = np.zeros_like(pos)
    epot = 0.0
    ecut = 4.0 * (rc ** -12 - rc ** -6)
    for i in range(n - 1):
        for j in range(i + 1, n):
            d = pos[i] - pos[j]
            d -= L * np.round(d / L)    # minimum image convention
            r2 = np.dot(d, d)
            if r2 < rc * rc:
                ir2 = 1.0 / r2
                ir6 = ir2 ** 3
                ff = 48.0 * ir2 * ir6 * (ir6 - 0.5)
                f[i] += ff * d
                f[j] -= ff * d
                epot += 4.0 * ir6 * (ir6 - 1.0) - ecut
    return f, epot


def md_lennard_jones(n_side=4, density=0.7, T0=1.0, dt=0.004, nsteps=15, seed=42):
    N = n_side * n_side
    L = math.sqrt(N / density)
    a = L / n_side
    pos = np.array([[(i + 0.5) * a, (j + 0.5) * a] for i in range(n_side) for j in range(n_side)])
    rs = np.random.RandomState(seed)
    vel = rs.normal(0.0, math.sqrt(T0), size=(N, 2))
    vel -= vel.mean(axis=0)
    f, epot = lj_forces(pos, L)
    energies = []
    temps = []
    for step in range(nsteps):
        vel += 0.5 * dt * f
        pos += dt * vel
        pos %= L
        f, epot = lj_forces(pos, L)
        vel += 0.5 * dt * f
        ekin = 0.5 * np.sum(vel ** 2)
        energies.append((epot, ekin, epot + ekin))
        temps.append(ekin / N)    # 2-d: kT = Ekin / N
    return pos, np.array(energies), np.array(temps), L


def ising_metropolis(L=10, beta=0.4, nsweeps=20, seed=1):
    np.random.seed(seed)
    spins = 2 * np.random.randint(2, size=(L, L)) - 1
    mags = []
    for sweep in range(nsweeps):
        for k in range(L * L):
            i = np.random.randint(0, L)
            j = np.random.randint(0, L)
            s = spins[i, j]
            nb = spins[(i + 1) % L, j] + spins[i, (j + 1) % L] + spins[(i - 1) % L, j] + spins[i, (j - 1) % L]
            cost = 2 * s * nb
            if cost < 0:
                s *= -1
            elif np.random.rand() < np.exp(-cost * beta):
                s *= -1
            spins[i, j] = s
        mags.append(np.mean(spins))
    energy = 0
    for i in range(L):
        for j in range(L):
            energy += -spins[i, j] * (spins[(i + 1) % L, j] + spins[i, (j + 1) % L])
    return spins, np.array(mags), energy / (L * L)


def ising_checkerboard(L=16, temps=(1.5, 2.27, 3.5), nsweeps=30, seed=7):
    rs = np.random.RandomState(seed)
    ii, jj = np.indices((L, L))
    masks = [((ii + jj) % 2 == 0), ((ii + jj) % 2 == 1)]
    results = {}
    for T in temps:
        S = rs.choice([-1, 1], size=(L, L))
        m_hist = np.zeros(nsweeps)
        for sweep in range(nsweeps):
            for mask in masks:
                nb = np.roll(S, 1, 0) + np.roll(S, -1, 0) + np.roll(S, 1, 1) + np.roll(S, -1, 1)
                dE = 2 * S * nb
                accept = (dE <= 0) | (rs.rand(L, L) < np.exp(-dE / T))
                S[mask & accept] *= -1
            m_hist[sweep] = abs(S.mean())
        results[f"T={T:.2f}"] = (float(m_hist[nsweeps // 2:].mean()), S.copy())
    return results


def wave_1d(u0, c=1.0, dx=0.01, dt=0.005, nsteps=100, save_every=25):
    C2 = (c * dt / dx) ** 2
    if C2 > 1.0:
        raise ValueError("CFL condition violated")
    u_prev = u0.copy()
    u = u0.copy()
    # first step with zero initial velocity
    u[1:-1] = u_prev[1:-1] + 0.5 * C2 * (u_prev[2:] - 2 * u_prev[1:-1] + u_prev[:-2])
    snaps = [u0.copy()]
    for n in range(1, nsteps):
        u_next = np.zeros_like(u)
        u_next[1:-1] = 2 * u[1:-1] - u_prev[1:-1] + C2 * (u[2:] - 2 * u[1:-1] + u[:-2])
        u_prev, u = u, u_next
        if (n + 1) % save_every == 0:
            snaps.append(u.copy())
    return np.array(snaps)


def wave_2d_membrane(n=40, nsteps=60, c=1.0, h=1.0, dt=0.5):
    r2 = (c * dt / h) ** 2
    u = np.zeros((n, n))
    x = np.arange(n)
    X, Y = np.meshgrid(x, x)
    u = np.exp(-((X - n / 3) ** 2 + (Y - n / 2) ** 2) / 8.0)
    u[0, :] = u[-1, :] = u[:, 0] = u[:, -1] = 0.0
    u_old = u.copy()
    energy = []
    for t in range(nsteps):
        u_new = np.zeros_like(u)
        u_new[1:-1, 1:-1] = (2 * u[1:-1, 1:-1] - u_old[1:-1, 1:-1]
                             + r2 * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2]
                                     - 4 * u[1:-1, 1:-1]))
        u_old = u
        u = u_new
        energy.append(np.sum(u ** 2))
    center = np.unravel_index(np.argmax(np.abs(u)), u.shape)
    return u, np.array(energy), center


def diffusion_2d(u0, D=1.0, dx=1.0, dt=0.2, nsteps=50):
    u = u0.copy()
    alpha = D * dt / dx ** 2
    total = []
    for n in range(nsteps):
        un = u.copy()
        u[1:-1, 1:-1] = un[1:-1, 1:-1] + alpha * (
            un[2:, 1:-1] - 2 * un[1:-1, 1:-1] + un[:-2, 1:-1]
            + un[1:-1, 2:] - 2 * un[1:-1, 1:-1] + un[1:-1, :-2])
        # zero-flux boundaries
        u[0, :] = u[1, :]
        u[-1, :] = u[-2, :]
        u[:, 0] = u[:, 1]
        u[:, -1] = u[:, -2]
        total.append(u.sum())
    return u, np.array(total)


def gray_scott(n=32, steps=60, Du=0.16, Dv=0.08, F=0.035, k=0.065, seed=0):
    def laplacian(Z):
        return (np.roll(Z, 1, 0) + np.roll(Z, -1, 0) + np.roll(Z, 1, 1) + np.roll(Z, -1, 1) - 4 * Z)

    U = np.ones((n, n))
    V = np.zeros((n, n))
    r = n // 8
    U[n // 2 - r:n // 2 + r, n // 2 - r:n // 2 + r] = 0.50
    V[n // 2 - r:n // 2 + r, n // 2 - r:n // 2 + r] = 0.25
    rng = np.random.RandomState(seed)
    U += 0.02 * rng.random_sample((n, n))
    V += 0.02 * rng.random_sample((n, n))
    for i in range(steps):
        uvv = U * V * V
        U += Du * laplacian(U) - uvv + F * (1 - U)
        V += Dv * laplacian(V) + uvv - (F + k) * V
    return U, V, float(V.mean())


def pendulum_rk4(theta0, omega0=0.0, g=9.81, length=1.0, damping=0.0, dt=0.01, nsteps=500):
    def f(th, om):
        return om, -(g / length) * math.sin(th) - damping * om

    th, om = theta0, omega0
    ts, ths, oms = [0.0], [th], [om]
    for i in range(nsteps):
        k1 = f(th, om)
        k2 = f(th + 0.5 * dt * k1[0], om + 0.5 * dt * k1[1])
        k3 = f(th + 0.5 * dt * k2[0], om + 0.5 * dt * k2[1])
        k4 = f(th + dt * k3[0], om + dt * k3[1])
        th += dt / 6.0 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
        om += dt / 6.0 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
        ts.append((i + 1) * dt)
        ths.append(th)
        oms.append(om)
    theta = np.array(ths)
    # period estimate from upward zero crossings
    sign = np.sign(theta)
    crossings = np.where((sign[:-1] < 0) & (sign[1:] >= 0))[0]
    period = float(np.mean(np.diff(crossings)) * dt) if len(crossings) > 1 else float("nan")
    return np.array(ts), theta, np.array(oms), period


def lorenz(state, sigma=10.0, rho=28.0, beta=8.0 / 3.0):
    x, y, z = state
    return np.array([sigma * (y - x), x * (rho - z) - y, x * y - beta * z])


def lorenz_integrate(x0, dt=0.01, nsteps=300, method="rk4"):
    xs = np.empty((nsteps + 1, 3))
    xs[0] = x0
    for i in range(nsteps):
        s = xs[i]
        if method == "euler":
            xs[i + 1] = s + dt * lorenz(s)
        elif method == "rk4":
            k1 = lorenz(s)
            k2 = lorenz(s + dt / 2 * k1)
            k3 = lorenz(s + dt / 2 * k2)
            k4 = lorenz(s + dt * k3)
            xs[i + 1] = s + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        else:
            raise ValueError(f"unknown method {method}")
    return xs, xs.max(axis=0), xs.min(axis=0)


def pic_deposit_field(x, L=1.0, ng=32, q=-1.0):
    dx = L / ng
    xs = x / dx
    j = np.floor(xs).astype(int)
    frac = xs - j
    rho = np.zeros(ng)
    # cloud-in-cell weights
    np.add.at(rho, j % ng, q * (1 - frac))
    np.add.at(rho, (j + 1) % ng, q * frac)
    rho /= dx
    rho -= rho.mean()    # neutralising ion background
    k = 2 * np.pi * np.fft.fftfreq(ng, d=dx)
    rho_k = np.fft.fft(rho)
    phi_k = np.zeros_like(rho_k)
    phi_k[1:] = rho_k[1:] / k[1:] ** 2
    phi = np.real(np.fft.ifft(phi_k))
    E = -np.gradient(phi, dx)
    E[0] = -(phi[1] - phi[-1]) / (2 * dx)
    E[-1] = -(phi[0] - phi[-2]) / (2 * dx)
    # gather back to the particles
    Ep = E[j % ng] * (1 - frac) + E[(j + 1) % ng] * frac
    return rho, phi, E, Ep


def random_walk_2d(nsteps=500, nwalkers=20, seed=3):
    np.random.seed(seed)
    steps = np.array([[1, 0], [-1, 0], [0, 1], [0, -1]])
    choice = np.random.randint(0, 4, size=(nwalkers, nsteps))
    paths = np.cumsum(steps[choice], axis=1)
    r2 = (paths ** 2).sum(axis=2)
    msd = r2.mean(axis=0)
    # first return time to the origin, -1 if never
    first_return = []
    for w in range(nwalkers):
        hits = np.where(r2[w] == 0)[0]
        first_return.append(int(hits[0]) + 1 if hits.size else -1)
    D = np.polyfit(np.arange(1, nsteps + 1), msd, 1)[0] / 4.0
    return msd, first_return, D


def random_walk_1d(n=1000):
    steps = np.where(np.random.random(n) < 0.5, -1, 1)
    walk = np.concatenate([[0], np.cumsum(steps)])
    return walk, int(walk.max()), int(walk.min())


def projectile_range(v0, angle_deg, k=0.0, dt=0.005, g=9.81):
    theta = math.radians(angle_deg)
    x, y = 0.0, 0.0
    vx, vy = v0 * math.cos(theta), v0 * math.sin(theta)
    xs, ys = [x], [y]
    while True:
        v = math.hypot(vx, vy)
        ax = -k * v * vx
        ay = -g - k * v * vy
        vx += ax * dt
        vy += ay * dt
        x_new = x + vx * dt
        y_new = y + vy * dt
        if y_new < 0:
            # linear interpolation for the landing point
            r = y / (y - y_new)
            x_land = x + r * (x_new - x)
            break
        x, y = x_new, y_new
        xs.append(x)
        ys.append(y)
    return x_land, max(ys), np.array(xs), np.array(ys)


def best_launch_angle(v0, k, angles=None):
    if angles is None:
        angles = np.arange(20, 71, 5)
    ranges = []
    for a in angles:
        r, h, _, _ = projectile_range(v0, float(a), k, dt=0.01)
        ranges.append(r)
    ranges = np.array(ranges)
    best = int(np.argmax(ranges))
    return angles[best], ranges


def chain_normal_modes(masses, k=1.0, fixed_ends=True):
    n = len(masses)
    K = np.zeros((n, n))
    for i in range(n):
        K[i, i] = 2 * k
        if i > 0:
            K[i, i - 1] = -k
        if i < n - 1:
            K[i, i + 1] = -k
    if not fixed_ends:
        K[0, 0] = K[-1, -1] = k
    Minv_sqrt = np.diag(1 / np.sqrt(masses))
    D = Minv_sqrt @ K @ Minv_sqrt
    w2, vecs = np.linalg.eigh(D)
    w = np.sqrt(np.clip(w2, 0, None))
    modes = Minv_sqrt @ vecs
    # sign convention: first non-negligible component positive
    for j in range(n):
        idx = np.flatnonzero(np.abs(modes[:, j]) > 1e-8)[0]
        if modes[idx, j] < 0:
            modes[:, j] *= -1
    return w, modes


def decay_chain(N0, half_lives, dt=0.1, nsteps=200):
    names = list(half_lives)
    lambdas = {name: math.log(2) / hl for name, hl in half_lives.items()}
    N = {name: np.zeros(nsteps + 1) for name in names}
    for name in names:
        N[name][0] = N0.get(name, 0.0)
    for i in range(nsteps):
        inflow = 0.0
        for name in names:
            decayed = lambdas[name] * N[name][i] * dt
            N[name][i + 1] = N[name][i] - decayed + inflow
            inflow = decayed
    total = sum(N[name] for name in names)
    return N, total


# ---------------------------------------------------------------------------
# Signal processing
# ---------------------------------------------------------------------------

def fir_lowpass_design(numtaps, cutoff, fs, window="hamming"):
    fc = cutoff / fs
    n = np.arange(numtaps) - (numtaps - 1) / 2
    h = np.sinc(2 * fc * n) * 2 * fc
    if window == "hamming":
        w = np.hamming(numtaps)
    elif window == "blackman":
        w = np.blackman(numtaps)
    else:
        w = np.ones(numtaps)
    h *= w
    h /= np.sum(h)
    # frequency response on a grid, one frequency at a time
    w_f = np.linspace(0, np.pi, 128)
    H = np.array([np.sum(h * np.exp(-1j * wf * np.arange(numtaps))) for wf in w_f])
    return h, np.abs(H)


def fir_filter(b, x):
    M = len(b)
    N = len(x)
    y = np.zeros(N)
    for n in range(N):
        acc = 0.0
        for k in range(M):
            if n - k >= 0:
                acc += b[k] * x[n - k]
        y[n] = acc
    ref = np.convolve(x, b)[:N]
    return y, float(np.max(np.abs(y - ref)))


def iir_filter_df1(b, a, x):
    b = np.asarray(b, dtype=float) / a[0]
    a = np.asarray(a, dtype=float) / a[0]
    y = np.zeros(len(x))
    for n in range(len(x)):
        acc = 0.0
        for k in range(len(b)):
            if n - k < 0:
                break
            acc += b[k] * x[n - k]
        for k in range(1, len(a)):
            if n - k < 0:
                break
            acc -= a[k] * y[n - k]
        y[n] = acc
    return y


def biquad_coeffs(kind, f0, fs, Q=0.7071):
    # Robert Bristow-Johnson's audio EQ cookbook
    w0 = 2 * math.pi * f0 / fs
    alpha = math.sin(w0) / (2 * Q)
    cw = math.cos(w0)
    if kind == "lowpass":
        b = [(1 - cw) / 2, 1 - cw, (1 - cw) / 2]
    elif kind == "highpass":
        b = [(1 + cw) / 2, -(1 + cw), (1 + cw) / 2]
    elif kind == "bandpass":
        b = [alpha, 0.0, -alpha]
    else:
        raise ValueError("unknown filter type: " + kind)
    a = [1 + alpha, -2 * cw, 1 - alpha]
    return np.array(b), np.array(a)


def biquad_filter_signal(x, kind, f0, fs, Q=0.7071):
    b, a = biquad_coeffs(kind, f0, fs, Q)
    y = iir_filter_df1(b, a, x)
    z = np.exp(1j * 2 * math.pi * f0 / fs)
    H = (b[0] + b[1] / z + b[2] / z ** 2) / (a[0] + a[1] / z + a[2] / z ** 2)
    rms_out = float(np.sqrt(np.mean(y[len(y) // 2:] ** 2)))
    return y, abs(H), rms_out


def one_pole_smooth_f32(x, alpha=0.1):
    x = np.asarray(x, dtype=np.float32)
    y = np.empty_like(x)
    y[0] = x[0]
    for n in range(1, len(x)):
        y[n] = y[n - 1] + alpha * (x[n] - y[n - 1])
    return y


def windowed_spectrum(x, fs, window="hann"):
    N = len(x)
    if window == "hann":
        w = np.hanning(N)
    elif window == "hamming":
        w = np.hamming(N)
    elif window == "blackman":
        w = np.blackman(N)
    else:
        w = np.ones(N)
    X = np.fft.rfft(x * w)
    freqs = np.fft.rfftfreq(N, d=1.0 / fs)
    amp = 2.0 * np.abs(X) / np.sum(w)
    amp[0] /= 2
    if N % 2 == 0:
        amp[-1] /= 2
    k = int(np.argmax(amp[1:])) + 1
    # parabolic interpolation of the log-magnitude peak
    if 0 < k < len(amp) - 1:
        a, b, c = np.log(amp[k - 1:k + 2] + 1e-20)
        p = 0.5 * (a - c) / (a - 2 * b + c)
    else:
        p = 0.0
    f_peak = (k + p) * fs / N
    return freqs, amp, f_peak


def periodogram(x, fs=1.0, detrend=True):
    x = np.asarray(x, dtype=float)
    if detrend:
        x = x - x.mean()
    N = len(x)
    X = np.fft.rfft(x)
    P = (np.abs(X) ** 2) / (fs * N)
    if N % 2 == 0:
        P[1:-1] *= 2
    else:
        P[1:] *= 2
    f = np.fft.rfftfreq(N, 1 / fs)
    # Parseval: the integral of the PSD equals the variance
    return f, P, float(np.sum(P) * fs / N), float(np.var(x))


def welch_psd(x, fs=1.0, nperseg=64, noverlap=None):
    if noverlap is None:
        noverlap = nperseg // 2
    step = nperseg - noverlap
    win = np.hanning(nperseg)
    scale = 1.0 / (fs * (win ** 2).sum())
    segs = []
    start = 0
    while start + nperseg <= len(x):
        seg = x[start:start + nperseg]
        seg = seg - seg.mean()
        X = np.fft.rfft(seg * win)
        P = np.abs(X) ** 2 * scale
        P[1:-1] *= 2
        segs.append(P)
        start += step
    Pxx = np.mean(segs, axis=0)
    f = np.fft.rfftfreq(nperseg, 1.0 / fs)
    return f, Pxx, len(segs)


def autocorrelation(x, maxlag=None):
    x = np.asarray(x, dtype=float)
    n = len(x)
    if maxlag is None:
        maxlag = n // 4
    xm = x - x.mean()
    c0 = np.dot(xm, xm) / n
    acf = [1.0]
    for lag in range(1, maxlag + 1):
        acf.append(np.dot(xm[:-lag], xm[lag:]) / n / c0)
    acf = np.array(acf)
    full = np.correlate(xm, xm, mode="full")[n - 1:n + maxlag] / (n * c0)
    # first lag where the acf drops below 1/e
    below = np.where(acf < 1 / np.e)[0]
    decorr = int(below[0]) if below.size else maxlag
    ci = 1.96 / math.sqrt(n)
    return acf, full, decorr, ci


def analytic_envelope(x):
    N = len(x)
    Xf = np.fft.fft(x)
    h = np.zeros(N)
    if N % 2 == 0:
        h[0] = h[N // 2] = 1
        h[1:N // 2] = 2
    else:
        h[0] = 1
        h[1:(N + 1) // 2] = 2
    z = np.fft.ifft(Xf * h)
    env = np.abs(z)
    phase = np.unwrap(np.angle(z))
    inst_f = np.diff(phase) / (2 * np.pi)
    return env, inst_f


def envelope_follower(x, attack=0.3, release=0.02):
    env = np.zeros(len(x))
    level = 0.0
    for i, s in enumerate(np.abs(x)):
        if s > level:
            level += attack * (s - level)
        else:
            level += release * (s - level)
        env[i] = level
    return env


def zero_crossings(x, t):
    s = np.signbit(x)
    idx = np.where(np.diff(s))[0]
    times = []
    for i in idx:
        x0, x1 = float(x[i]), float(x[i + 1])
        t0, t1 = t[i], t[i + 1]
        times.append(t0 - x0 * (t1 - t0) / (x1 - x0))
    times = np.array(times)
    rate = len(idx) / (t[-1] - t[0])
    return idx, times, rate


def find_peaks_simple(x, height=None, distance=1):
    peaks = []
    for i in range(1, len(x) - 1):
        if x[i] > x[i - 1] and x[i] >= x[i + 1]:
            if height is None or x[i] >= height:
                peaks.append(i)
    peaks = np.array(peaks, dtype=int)
    if distance > 1 and peaks.size:
        order = np.argsort(x[peaks], kind="stable")[::-1]
        keep = np.ones(peaks.size, dtype=bool)
        for k in order:
            if not keep[k]:
                continue
            j = k - 1
            while j >= 0 and peaks[k] - peaks[j] < distance:
                keep[j] = False
                j -= 1
            j = k + 1
            while j < peaks.size and peaks[j] - peaks[k] < distance:
                keep[j] = False
                j += 1
        peaks = peaks[keep]
    return peaks, x[peaks]


def resample_interp(t, x, fs_new):
    t_new = np.arange(t[0], t[-1], 1.0 / fs_new)
    x_new = np.interp(t_new, t, x)
    return t_new, x_new


def decimate_boxcar(x, q):
    kernel = np.ones(q) / q
    y = np.convolve(x, kernel, mode="same")
    return y[::q], y


def median_filter_1d(x, k=5):
    half = k // 2
    padded = np.pad(x, half, mode="edge")
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = np.median(padded[i:i + k])
    return out


def spectrogram(x, fs, nfft=64, hop=16):
    win = np.hanning(nfft)
    frames = []
    for start in range(0, len(x) - nfft + 1, hop):
        frames.append(np.abs(np.fft.rfft(win * x[start:start + nfft])) ** 2)
    S = np.array(frames).T
    S_db = 10 * np.log10(S + 1e-12)
    times = (np.arange(S.shape[1]) * hop + nfft / 2) / fs
    freqs = np.fft.rfftfreq(nfft, 1 / fs)
    dominant = freqs[np.argmax(S, axis=0)]
    return S_db, times, dominant


def goertzel(x, fs, freqs):
    N = len(x)
    out = {}
    for f in freqs:
        k = int(0.5 + N * f / fs)
        w = 2 * math.pi * k / N
        coeff = 2 * math.cos(w)
        s_prev = 0.0
        s_prev2 = 0.0
        for sample in x:
            s = sample + coeff * s_prev - s_prev2
            s_prev2 = s_prev
            s_prev = s
        power = s_prev2 ** 2 + s_prev ** 2 - coeff * s_prev * s_prev2
        out[f] = power
    return out


DTMF_ROWS = [697, 770, 852, 941]
DTMF_COLS = [1209, 1336, 1477, 1633]
DTMF_KEYS = ["123A", "456B", "789C", "*0#D"]


def dtmf_decode(x, fs=8000, block=205):
    keys = []
    energies = []
    for start in range(0, len(x) - block + 1, block):
        seg = x[start:start + block]
        p = goertzel(seg, fs, DTMF_ROWS + DTMF_COLS)
        row_p = np.array([p[f] for f in DTMF_ROWS])
        col_p = np.array([p[f] for f in DTMF_COLS])
        r = int(np.argmax(row_p))
        c = int(np.argmax(col_p))
        # reject blocks where the tone is not clearly dominant
        if row_p[r] < 4 * np.sort(row_p)[-2] or col_p[c] < 4 * np.sort(col_p)[-2]:
            keys.append("?")
        else:
            keys.append(DTMF_KEYS[r][c])
        energies.append(row_p[r] + col_p[c])
    return "".join(keys), np.array(energies)


# ---------------------------------------------------------------------------
# Statistics and data analysis without pandas
# ---------------------------------------------------------------------------

def groupby_stats(keys, values):
    uniq, inv = np.unique(keys, return_inverse=True)
    n = np.bincount(inv)
    s = np.bincount(inv, weights=values)
    ss = np.bincount(inv, weights=values ** 2)
    mean = s / n
    var = ss / n - mean ** 2
    out = {}
    for g, key in enumerate(uniq):
        vals = values[inv == g]
        out[key.item()] = {
            "n": int(n[g]),
            "mean": mean[g],
            "std": math.sqrt(max(var[g], 0.0)),
            "median": float(np.median(vals)),
        }
    return out


def weighted_stats(x, w, kind="reliability"):
    x = np.asarray(x, dtype=float)
    w = np.asarray(w, dtype=float)
    mean = np.average(x, weights=w)
    V1 = w.sum()
    V2 = (w ** 2).sum()
    biased = np.average((x - mean) ** 2, weights=w)
    if kind == "reliability":
        var = biased * V1 ** 2 / (V1 ** 2 - V2)
    elif kind == "frequency":
        var = np.sum(w * (x - mean) ** 2) / (V1 - 1)
    else:
        var = biased
    sem = math.sqrt(var * V2) / V1
    n_eff = V1 ** 2 / V2
    return mean, var, sem, n_eff


def inverse_variance_mean(values, sigmas):
    values = np.asarray(values, dtype=float)
    w = 1.0 / np.asarray(sigmas, dtype=float) ** 2
    mean = np.sum(w * values) / np.sum(w)
    err = 1.0 / math.sqrt(np.sum(w))
    chi2 = np.sum(w * (values - mean) ** 2)
    dof = len(values) - 1
    # inflate the error when the points scatter more than their error bars say
    scale = math.sqrt(chi2 / dof) if chi2 > dof else 1.0
    return f"{mean:.4f} +/- {err * scale:.4f}", mean, err * scale, chi2 / dof


def histogram_summary(x, bins=10):
    counts, edges = np.histogram(x, bins=bins)
    centers = 0.5 * (edges[:-1] + edges[1:])
    dens, _ = np.histogram(x, bins=edges, density=True)
    idx = np.digitize(x, edges[1:-1])
    counts2 = np.bincount(idx, minlength=len(counts))
    mode = centers[np.argmax(counts)]
    cum = np.cumsum(counts) / counts.sum()
    median_bin = int(np.searchsorted(cum, 0.5))
    return counts, centers, dens, bool(np.array_equal(counts, counts2)), mode, median_bin


def bootstrap_ci(data, stat="mean", n_boot=300, alpha=0.05, seed=12345):
    rs = np.random.RandomState(seed)
    func = {"mean": np.mean, "median": np.median, "std": np.std}[stat]
    n = len(data)
    boot = np.empty(n_boot)
    for i in range(n_boot):
        sample = data[rs.randint(0, n, n)]
        boot[i] = func(sample)
    lo, hi = np.percentile(boot, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return func(data), (lo, hi), boot.std(ddof=1)


def permutation_test(a, b, n_perm=500, seed=0):
    rng = np.random.default_rng(seed)
    observed = a.mean() - b.mean()
    pooled = np.concatenate([a, b])
    na = len(a)
    count = 0
    diffs = []
    for _ in range(n_perm):
        rng.shuffle(pooled)
        d = pooled[:na].mean() - pooled[na:].mean()
        diffs.append(d)
        if abs(d) >= abs(observed):
            count += 1
    p = (count + 1) / (n_perm + 1)
    return observed, p, np.array(diffs)


def linear_regression(x, y):
    X = np.column_stack([np.ones_like(x), x])
    beta, res, rank, sv = np.linalg.lstsq(X, y, rcond=None)
    yhat = X @ beta
    resid = y - yhat
    n, p = X.shape
    sigma2 = resid @ resid / (n - p)
    cov = sigma2 * np.linalg.inv(X.T @ X)
    se = np.sqrt(np.diag(cov))
    r2 = 1 - np.sum(resid ** 2) / np.sum((y - y.mean()) ** 2)
    pf = np.polyfit(x, y, 1)
    return {"intercept": beta[0], "slope": beta[1], "se": se, "r2": r2,
            "t": beta / se, "polyfit": pf, "rank": int(rank)}


def multiple_regression(X, y, names):
    n, k = X.shape
    A = np.hstack([np.ones((n, 1)), X])
    coef, *_ = np.linalg.lstsq(A, y, rcond=None)
    resid = y - A @ coef
    ss_res = float(resid @ resid)
    ss_tot = float(((y - y.mean()) ** 2).sum())
    r2 = 1 - ss_res / ss_tot
    adj = 1 - (1 - r2) * (n - 1) / (n - k - 1)
    table = {"const": coef[0]}
    for name, c in zip(names, coef[1:]):
        table[name] = c
    return table, r2, adj


def sigma_clip_polyfit(x, y, deg=2, nsigma=3.0, max_iter=10):
    mask = np.ones(len(x), dtype=bool)
    it = 0
    for it in range(max_iter):
        coef = np.polyfit(x[mask], y[mask], deg)
        resid = y - np.polyval(coef, x)
        std = resid[mask].std()
        new_mask = np.abs(resid) < nsigma * std
        if np.array_equal(new_mask, mask):
            break
        mask = new_mask
    return coef, mask, it


def moving_stats(x, window):
    means, stds, mins, maxs = [], [], [], []
    for i in range(len(x) - window + 1):
        w = x[i:i + window]
        means.append(w.mean())
        stds.append(w.std(ddof=1))
        mins.append(w.min())
        maxs.append(w.max())
    return np.array(means), np.array(stds), np.array(mins), np.array(maxs)


def remove_outliers_iqr(x, k=1.5):
    q1, q3 = np.percentile(x, [25, 75])
    iqr = q3 - q1
    lo, hi = q1 - k * iqr, q3 + k * iqr
    mask = (x >= lo) & (x <= hi)
    return x[mask], np.flatnonzero(~mask), (lo, hi)


def outliers_mad(x, thresh=3.5):
    med = np.median(x)
    mad = np.median(np.abs(x - med))
    if mad == 0:
        return np.zeros(len(x), dtype=bool), np.zeros(len(x))
    modified_z = 0.6745 * (x - med) / mad
    return np.abs(modified_z) > thresh, modified_z


def zscore_columns(X, ddof=0):
    mu = np.nanmean(X, axis=0)
    sd = np.nanstd(X, axis=0, ddof=ddof)
    sd[sd == 0] = 1.0
    Z = (X - mu) / sd
    return Z, np.isnan(Z).sum(axis=0)


def quantile_summary(x):
    qs = [0.05, 0.25, 0.5, 0.75, 0.95]
    out = {f"p{int(round(q * 100))}": float(np.quantile(x, q)) for q in qs}
    out["p50_lower"] = np.quantile(x, 0.5, method="lower")
    out["p90_nearest"] = np.percentile(x, 90, method="nearest")
    out["iqr"] = out["p75"] - out["p25"]
    out["n"] = len(x)
    return out


def correlated_pairs(X, names, threshold=0.5):
    C = np.corrcoef(X, rowvar=False)
    Xc = X - X.mean(axis=0)
    ss = (Xc ** 2).sum(axis=0)
    manual = (Xc.T @ Xc) / np.sqrt(np.outer(ss, ss))
    pairs = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            if abs(C[i, j]) >= threshold:
                pairs.append((names[i], names[j], float(C[i, j])))
    pairs.sort(key=lambda p: -abs(p[2]))
    return C, pairs, bool(np.allclose(C, manual))


def ecdf(x):
    xs = np.sort(x)
    ys = np.arange(1, len(xs) + 1) / len(xs)
    return xs, ys


def ecdf_eval(sample, points):
    xs = np.sort(sample)
    return np.searchsorted(xs, points, side="right") / len(xs)


def ks_two_sample(a, b):
    grid = np.concatenate([a, b])
    D = np.max(np.abs(ecdf_eval(a, grid) - ecdf_eval(b, grid)))
    n, m = len(a), len(b)
    en = math.sqrt(n * m / (n + m))
    lam = (en + 0.12 + 0.11 / en) * D
    # asymptotic Kolmogorov distribution
    p = 0.0
    for j in range(1, 101):
        term = 2 * (-1) ** (j - 1) * math.exp(-2 * j * j * lam * lam)
        p += term
        if abs(term) < 1e-10:
            break
    return D, min(max(p, 0.0), 1.0)


def binned_means(x, y, edges):
    idx = np.digitize(x, edges) - 1
    nb = len(edges) - 1
    means = np.full(nb, np.nan)
    counts = np.zeros(nb, dtype=int)
    for b in range(nb):
        sel = idx == b
        counts[b] = sel.sum()
        if counts[b] > 0:
            means[b] = y[sel].mean()
    return means, counts


def gaussian_kde_manual(data, grid, bw=None):
    n = len(data)
    if bw is None:
        # Silverman's rule of thumb
        sd = np.std(data, ddof=1)
        iqr = np.subtract(*np.percentile(data, [75, 25]))
        bw = 0.9 * min(sd, iqr / 1.34) * n ** (-0.2)
    u = (grid[:, None] - data[None, :]) / bw
    dens = np.exp(-0.5 * u ** 2).sum(axis=1) / (n * bw * math.sqrt(2 * math.pi))
    integral = np.trapezoid(dens, grid)
    return dens, bw, integral


def chi2_contingency_manual(table):
    table = np.asarray(table, dtype=float)
    row = table.sum(axis=1, keepdims=True)
    col = table.sum(axis=0, keepdims=True)
    expected = row @ col / table.sum()
    chi2 = ((table - expected) ** 2 / expected).sum()
    dof = (table.shape[0] - 1) * (table.shape[1] - 1)
    cramers_v = math.sqrt(chi2 / (table.sum() * (min(table.shape) - 1)))
    return chi2, dof, expected, cramers_v


class RunningStats:
    """Welford's online mean and variance."""

    def __init__(self):
        self.n = 0
        self.mean = 0.0
        self.M2 = 0.0
        self.min = math.inf
        self.max = -math.inf

    def push(self, x):
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self.M2 += delta * (x - self.mean)
        self.min = min(self.min, x)
        self.max = max(self.max, x)

    @property
    def variance(self):
        return self.M2 / (self.n - 1) if self.n > 1 else 0.0


def running_stats_stream(x):
    rs = RunningStats()
    history = []
    for v in x:
        rs.push(float(v))
        history.append((rs.mean, rs.variance))
    return rs.n, rs.mean, rs.variance, (rs.min, rs.max), np.array(history), np.var(x, ddof=1)


# ---------------------------------------------------------------------------
# Finance
# ---------------------------------------------------------------------------

def return_stats(prices, periods_per_year=252, rf=0.0):
    prices = np.asarray(prices, dtype=float)
    simple = prices[1:] / prices[:-1] - 1
    logret = np.diff(np.log(prices))
    cum = np.cumprod(1 + simple) - 1
    ann_ret = (1 + cum[-1]) ** (periods_per_year / len(simple)) - 1
    ann_vol = simple.std(ddof=1) * math.sqrt(periods_per_year)
    excess = simple - rf / periods_per_year
    sharpe = excess.mean() / simple.std(ddof=1) * math.sqrt(periods_per_year)
    downside = np.sqrt(np.mean(np.minimum(excess, 0) ** 2))
    sortino = excess.mean() / downside * math.sqrt(periods_per_year) if downside > 0 else np.inf
    return {"simple": simple, "log": logret, "cumulative": cum, "ann_return": ann_ret,
            "ann_vol": ann_vol, "sharpe": sharpe, "sortino": sortino}


def max_drawdown(prices):
    peak = prices[0]
    peak_i = 0
    mdd = 0.0
    start = end = 0
    for i in range(1, len(prices)):
        if prices[i] > peak:
            peak = prices[i]
            peak_i = i
        dd = (prices[i] - peak) / peak
        if dd < mdd:
            mdd = dd
            start, end = peak_i, i
    running_max = np.maximum.accumulate(prices)
    dd_series = prices / running_max - 1
    return mdd, start, end, dd_series, bool(np.isclose(mdd, dd_series.min()))


def rolling_volatility(returns, window=20, annualise=252):
    n = len(returns)
    vol = np.full(n, np.nan)
    for i in range(window - 1, n):
        vol[i] = np.std(returns[i - window + 1:i + 1], ddof=1) * np.sqrt(annualise)
    return vol


def ema(x, span):
    alpha = 2.0 / (span + 1)
    out = np.empty(len(x))
    out[0] = x[0]
    for i in range(1, len(x)):
        out[i] = alpha * x[i] + (1 - alpha) * out[i - 1]
    return out


def macd(prices, fast=12, slow=26, signal=9):
    line = ema(prices, fast) - ema(prices, slow)
    sig = ema(line, signal)
    hist = line - sig
    cross_up = np.where((hist[:-1] < 0) & (hist[1:] >= 0))[0] + 1
    cross_down = np.where((hist[:-1] > 0) & (hist[1:] <= 0))[0] + 1
    return line, sig, hist, cross_up, cross_down


def rsi_wilder(prices, n=14):
    deltas = np.diff(prices)
    seed = deltas[:n + 1]
    up = seed[seed >= 0].sum() / n
    down = -seed[seed < 0].sum() / n
    rs = up / down
    rsi = np.zeros_like(prices)
    rsi[:n] = 100. - 100. / (1. + rs)

    for i in range(n, len(prices)):
        delta = deltas[i - 1]
        if delta > 0:
            upval = delta
            downval = 0.
        else:
            upval = 0.
            downval = -delta
        up = (up * (n - 1) + upval) / n
        down = (down * (n - 1) + downval) / n
        rs = up / down
        rsi[i] = 100. - 100. / (1. + rs)
    return rsi


def bollinger(prices, n=20, k=2.0):
    mid = np.convolve(prices, np.ones(n) / n, mode="valid")
    std = np.array([prices[i:i + n].std() for i in range(len(prices) - n + 1)])
    upper = mid + k * std
    lower = mid - k * std
    p = prices[n - 1:]
    signal = np.select([p > upper, p < lower], [-1, 1], default=0)
    pct_b = (p - lower) / (upper - lower)
    return mid, upper, lower, signal, pct_b


def norm_cdf(x):
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def norm_pdf(x):
    return math.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)


def black_scholes(S, K, T, r, sigma, kind="call"):
    d1 = (math.log(S / K) + (r + 0.5 * sigma ** 2) * T) / (sigma * math.sqrt(T))
    d2 = d1 - sigma * math.sqrt(T)
    if kind == "call":
        price = S * norm_cdf(d1) - K * math.exp(-r * T) * norm_cdf(d2)
        delta = norm_cdf(d1)
    else:
        price = K * math.exp(-r * T) * norm_cdf(-d2) - S * norm_cdf(-d1)
        delta = norm_cdf(d1) - 1
    gamma = norm_pdf(d1) / (S * sigma * math.sqrt(T))
    vega = S * norm_pdf(d1) * math.sqrt(T)
    return price, delta, gamma, vega


def option_chain(S, strikes, T, r, sigma):
    rows = []
    for K in strikes:
        c = black_scholes(S, float(K), T, r, sigma, "call")
        p = black_scholes(S, float(K), T, r, sigma, "put")
        parity = c[0] - p[0] - (S - K * math.exp(-r * T))
        rows.append([K, c[0], p[0], c[1], p[1], c[2], c[3], parity])
    return np.array(rows)


def implied_vol(price, S, K, T, r, kind="call", tol=1e-8, max_iter=100):
    sigma = 0.2
    for i in range(max_iter):
        p, _, _, vega = black_scholes(S, K, T, r, sigma, kind)
        diff = p - price
        if abs(diff) < tol:
            return sigma, i
        if vega < 1e-8:
            break
        sigma -= diff / vega
        if sigma <= 0:
            break
    # fall back to bisection
    lo, hi = 1e-4, 5.0
    n = 0
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        if black_scholes(S, K, T, r, mid, kind)[0] > price:
            hi = mid
        else:
            lo = mid
        n += 1
    return 0.5 * (lo + hi), max_iter + n


def mc_option_price(S0, K, T, r, sigma, n_paths=2000, n_steps=50, seed=2024):
    np.random.seed(seed)
    dt = T / n_steps
    Z = np.random.standard_normal((n_paths, n_steps))
    increments = (r - 0.5 * sigma ** 2) * dt + sigma * np.sqrt(dt) * Z
    log_paths = np.log(S0) + np.cumsum(increments, axis=1)
    S = np.exp(log_paths)
    euro = np.maximum(S[:, -1] - K, 0)
    asian = np.maximum(S.mean(axis=1) - K, 0)
    disc = math.exp(-r * T)
    price_e = disc * euro.mean()
    se_e = disc * euro.std(ddof=1) / math.sqrt(n_paths)
    price_a = disc * asian.mean()
    return {"european": (price_e, se_e), "asian": price_a,
            "bs": black_scholes(S0, K, T, r, sigma)[0]}


def mc_barrier_option(S0, K, B, T, r, sigma, n_paths=500, n_steps=60, seed=99):
    rs = np.random.RandomState(seed)
    dt = T / n_steps
    drift = (r - 0.5 * sigma * sigma) * dt
    vol = sigma * math.sqrt(dt)
    payoffs = np.zeros(n_paths)
    knocked = 0
    for p in range(0, n_paths, 2):
        z = rs.standard_normal(n_steps)
        for sgn in (1.0, -1.0):    # antithetic pair
            s = S0
            alive = True
            for k in range(n_steps):
                s *= math.exp(drift + vol * sgn * z[k])
                if s >= B:
                    alive = False
                    break
            idx = p if sgn > 0 else p + 1
            if alive:
                payoffs[idx] = max(s - K, 0.0)
            else:
                knocked += 1
    price = math.exp(-r * T) * payoffs.mean()
    return price, knocked / n_paths


def mc_var_historical(returns, n_sims=1000, horizon=10, alpha=0.05):
    sims = np.random.choice(returns, size=(n_sims, horizon), replace=True)
    total = np.prod(1 + sims, axis=1) - 1
    var = -np.percentile(total, 100 * alpha)
    cvar = -total[total <= -var].mean()
    return var, cvar, total


def amortization_schedule(principal, annual_rate, years, extra=0.0):
    r = annual_rate / 12
    n = years * 12
    payment = principal * r / (1 - (1 + r) ** -n) if r > 0 else principal / n
    balance = principal
    rows = []
    month = 0
    while balance > 0.005 and month < n:
        month += 1
        interest = balance * r
        princ = min(payment + extra - interest, balance)
        balance -= princ
        rows.append((month, payment, interest, princ, balance))
    sched = np.array(rows)
    return round(payment, 2), sched, sched[:, 2].sum(), month


def npv(rate, cashflows):
    t = np.arange(len(cashflows))
    return np.sum(cashflows / (1 + rate) ** t)


def irr_newton(cashflows, guess=0.1, tol=1e-10, max_iter=100):
    cf = np.asarray(cashflows, dtype=float)
    t = np.arange(len(cf))
    rate = guess
    for i in range(max_iter):
        f = np.sum(cf / (1 + rate) ** t)
        df = np.sum(-t * cf / (1 + rate) ** (t + 1))
        if df == 0:
            break
        new = rate - f / df
        if abs(new - rate) < tol:
            return new, i + 1
        rate = new
    return rate, max_iter


def irr_bisection(cashflows, lo=-0.99, hi=1.0, tol=1e-9):
    cf = np.asarray(cashflows, dtype=float)
    f_lo = npv(lo, cf)
    f_hi = npv(hi, cf)
    if f_lo * f_hi > 0:
        return None, 0
    n = 0
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        f_mid = npv(mid, cf)
        if f_lo * f_mid <= 0:
            hi = mid
        else:
            lo, f_lo = mid, f_mid
        n += 1
    return 0.5 * (lo + hi), n


def irr_compare(cashflows):
    r_newton, it_newton = irr_newton(cashflows)
    r_bis, it_bis = irr_bisection(cashflows)
    # polynomial in x = 1 / (1 + r): sum cf_t x^t = 0
    roots = np.roots(np.asarray(cashflows, dtype=float)[::-1])
    real = roots[np.abs(roots.imag) < 1e-9].real
    real = real[real > 0]
    rates = np.sort(1.0 / real - 1.0)
    return {"newton": (r_newton, it_newton), "bisection": (r_bis, it_bis), "roots": rates,
            "npv_at_irr": npv(r_newton, np.asarray(cashflows, dtype=float))}


def min_variance_portfolio(returns):
    cov = np.cov(returns, rowvar=False)
    ones = np.ones(cov.shape[0])
    w = np.linalg.solve(cov, ones)
    w /= w.sum()
    mu = returns.mean(axis=0)
    port_vol = math.sqrt(w @ cov @ w)
    wt = np.linalg.solve(cov, mu)
    wt /= wt.sum()
    return w, port_vol, wt, float(mu @ wt)


# ---------------------------------------------------------------------------
# Image and geo processing
# ---------------------------------------------------------------------------

def otsu_threshold(img):
    hist = np.bincount(img.ravel(), minlength=256).astype(float)
    total = img.size
    sum_total = np.dot(np.arange(256), hist)
    sumB = 0.0
    wB = 0.0
    best = 0.0
    thresh = 0
    for t in range(256):
        wB += hist[t]
        if wB == 0:
            continue
        wF = total - wB
        if wF == 0:
            break
        sumB += t * hist[t]
        mB = sumB / wB
        mF = (sum_total - sumB) / wF
        between = wB * wF * (mB - mF) ** 2
        if between > best:
            best = between
            thresh = t
    binary = (img > thresh).astype(np.uint8) * 255
    return thresh, binary


def label_components(binary, connectivity=4):
    h, w = binary.shape
    labels = np.zeros((h, w), dtype=np.int32)
    if connectivity == 4:
        offsets = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    else:
        offsets = [(di, dj) for di in (-1, 0, 1) for dj in (-1, 0, 1) if (di, dj) != (0, 0)]
    current = 0
    sizes = []
    for i in range(h):
        for j in range(w):
            if binary[i, j] and labels[i, j] == 0:
                current += 1
                labels[i, j] = current
                q = deque([(i, j)])
                size = 0
                while q:
                    y, x = q.popleft()
                    size += 1
                    for dy, dx in offsets:
                        ny, nx = y + dy, x + dx
                        if 0 <= ny < h and 0 <= nx < w and binary[ny, nx] and labels[ny, nx] == 0:
                            labels[ny, nx] = current
                            q.append((ny, nx))
                sizes.append(size)
    return labels, current, sizes


def remove_small_objects(binary, min_size=5, connectivity=8):
    labels, n, sizes = label_components(binary, connectivity)
    keep = np.r_[False, np.array(sizes, dtype=int) >= min_size]
    cleaned = keep[labels]
    centroids = []
    for lab in range(1, n + 1):
        if keep[lab]:
            ys, xs = np.nonzero(labels == lab)
            centroids.append((ys.mean(), xs.mean()))
    return cleaned, np.array(centroids).reshape(-1, 2)


def flood_fill(img, seed, new_value, tol=0):
    img = img.copy()
    h, w = img.shape
    sy, sx = seed
    target = int(img[sy, sx])
    if target == new_value:
        return img, 0
    visited = np.zeros((h, w), dtype=bool)
    stack = [(sy, sx)]
    filled = 0
    while stack:
        y, x = stack.pop()
        if y < 0 or y >= h or x < 0 or x >= w:
            continue
        if visited[y, x]:
            continue
        if abs(int(img[y, x]) - target) > tol:
            continue
        visited[y, x] = True
        img[y, x] = new_value
        filled += 1
        stack.extend([(y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)])
    return img, filled


def binary_erode(img, se=None):
    if se is None:
        se = np.ones((3, 3), dtype=bool)
    h, w = img.shape
    kh, kw = se.shape
    ph, pw = kh // 2, kw // 2
    padded = np.pad(img, ((ph, ph), (pw, pw)), mode="constant", constant_values=0)
    out = np.zeros_like(img)
    for i in range(h):
        for j in range(w):
            window = padded[i:i + kh, j:j + kw]
            out[i, j] = np.all(window[se])
    return out


def binary_dilate(img, se=None):
    if se is None:
        se = np.ones((3, 3), dtype=bool)
    h, w = img.shape
    kh, kw = se.shape
    ph, pw = kh // 2, kw // 2
    padded = np.pad(img, ((ph, ph), (pw, pw)), mode="constant", constant_values=0)
    out = np.zeros_like(img)
    for i in range(h):
        for j in range(w):
            window = padded[i:i + kh, j:j + kw]
            out[i, j] = np.any(window[se])
    return out


def morph_open_close(img, se=None):
    opened = binary_dilate(binary_erode(img, se), se)
    closed = binary_erode(binary_dilate(img, se), se)
    boundary = img.astype(bool) & ~binary_erode(img, se).astype(bool)
    return opened, closed, boundary


def grey_erode_shift(img, k=3):
    r = k // 2
    padded = np.pad(img, r, mode="edge")
    h, w = img.shape
    shifted = [padded[dy:dy + h, dx:dx + w] for dy in range(k) for dx in range(k)]
    eroded = np.minimum.reduce(shifted)
    dilated = np.maximum.reduce(shifted)
    gradient = dilated.astype(np.int16) - eroded.astype(np.int16)
    return eroded, dilated, gradient


def bilinear_resize(img, new_h, new_w):
    h, w = img.shape[:2]
    out = np.zeros((new_h, new_w) + img.shape[2:], dtype=np.float64)
    x_ratio = (w - 1) / (new_w - 1) if new_w > 1 else 0
    y_ratio = (h - 1) / (new_h - 1) if new_h > 1 else 0
    for i in range(new_h):
        for j in range(new_w):
            x = x_ratio * j
            y = y_ratio * i
            x_l, y_l = math.floor(x), math.floor(y)
            x_h, y_h = min(x_l + 1, w - 1), min(y_l + 1, h - 1)
            xw = x - x_l
            yw = y - y_l
            a = img[y_l, x_l]
            b = img[y_l, x_h]
            c = img[y_h, x_l]
            d = img[y_h, x_h]
            out[i, j] = a * (1 - xw) * (1 - yw) + b * xw * (1 - yw) + c * (1 - xw) * yw + d * xw * yw
    if img.dtype == np.uint8:
        return np.clip(np.round(out), 0, 255).astype(np.uint8)
    return out.astype(img.dtype)


def bilinear_resize_vec(img, new_h, new_w):
    h, w = img.shape
    ys = np.linspace(0, h - 1, new_h)
    xs = np.linspace(0, w - 1, new_w)
    y0 = np.floor(ys).astype(int)
    x0 = np.floor(xs).astype(int)
    y1 = np.minimum(y0 + 1, h - 1)
    x1 = np.minimum(x0 + 1, w - 1)
    wy = (ys - y0)[:, None]
    wx = (xs - x0)[None, :]
    top = img[y0][:, x0] * (1 - wx) + img[y0][:, x1] * wx
    bot = img[y1][:, x0] * (1 - wx) + img[y1][:, x1] * wx
    return top * (1 - wy) + bot * wy


def gaussian_kernel1d(sigma, radius=None):
    if radius is None:
        radius = int(math.ceil(3 * sigma))
    x = np.arange(-radius, radius + 1)
    k = np.exp(-x ** 2 / (2 * sigma ** 2))
    return k / k.sum()


def gaussian_blur(img, sigma=1.0):
    k = gaussian_kernel1d(sigma)
    r = len(k) // 2
    padded = np.pad(img.astype(float), r, mode="reflect")
    tmp = np.empty((padded.shape[0], img.shape[1]))
    for i in range(padded.shape[0]):
        tmp[i] = np.convolve(padded[i], k, mode="valid")
    out = np.empty(img.shape)
    for j in range(img.shape[1]):
        out[:, j] = np.convolve(tmp[:, j], k, mode="valid")
    return out


def unsharp_mask(img, sigma=1.0, amount=1.5, threshold=0):
    blurred = gaussian_blur(img, sigma)
    diff = img.astype(float) - blurred
    sharp = img.astype(float) + amount * diff
    if threshold > 0:
        low_contrast = np.abs(diff) < threshold
        sharp[low_contrast] = img[low_contrast]
    return np.clip(sharp, 0, 255).round().astype(np.uint8)


def sobel_edges(img):
    f = img.astype(float)
    gx = (f[:-2, 2:] + 2 * f[1:-1, 2:] + f[2:, 2:]) - (f[:-2, :-2] + 2 * f[1:-1, :-2] + f[2:, :-2])
    gy = (f[2:, :-2] + 2 * f[2:, 1:-1] + f[2:, 2:]) - (f[:-2, :-2] + 2 * f[:-2, 1:-1] + f[:-2, 2:])
    mag = np.hypot(gx, gy)
    ang = np.degrees(np.arctan2(gy, gx)) % 180
    edges = mag > mag.mean() + mag.std()
    return mag, ang, edges


def gamma_lut(img, gamma=2.2):
    inv = 1.0 / gamma
    lut = np.array([((i / 255.0) ** inv) * 255 for i in range(256)]).astype(np.uint8)
    out = lut[img]
    return out, lut


R_EARTH_KM = 6371.0088


def haversine(lat1, lon1, lat2, lon2):
    lat1, lon1, lat2, lon2 = map(np.radians, [lat1, lon1, lat2, lon2])
    dlat = lat2 - lat1
    dlon = lon2 - lon1
    a = np.sin(dlat / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin(dlon / 2) ** 2
    return 2 * R_EARTH_KM * np.arcsin(np.sqrt(a))


def track_stats(lat, lon, t_seconds):
    d = haversine(lat[:-1], lon[:-1], lat[1:], lon[1:])
    speed_kmh = d / (np.diff(t_seconds) / 3600.0)
    phi1 = np.radians(lat[:-1])
    phi2 = np.radians(lat[1:])
    dl = np.radians(lon[1:] - lon[:-1])
    y = np.sin(dl) * np.cos(phi2)
    x = np.cos(phi1) * np.sin(phi2) - np.sin(phi1) * np.cos(phi2) * np.cos(dl)
    bearing = (np.degrees(np.arctan2(y, x)) + 360) % 360
    stops = np.flatnonzero(speed_kmh < 1.0)
    return {"total_km": d.sum(), "max_speed": speed_kmh.max(), "bearing": bearing,
            "stops": stops, "segments": d}


def distance_matrix_km(lat, lon):
    D = haversine(lat[:, None], lon[:, None], lat[None, :], lon[None, :])
    nearest = np.argsort(D, axis=1)[:, 1]
    return D, nearest


def closest_station(lat, lon, stations):
    best_name = None
    best_d = math.inf
    for name, (slat, slon) in stations.items():
        p1, p2 = math.radians(lat), math.radians(slat)
        dphi = p2 - p1
        dlmb = math.radians(slon - lon)
        a = math.sin(dphi / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dlmb / 2) ** 2
        d = 2 * R_EARTH_KM * math.asin(math.sqrt(a))
        if d < best_d:
            best_name, best_d = name, d
    return best_name, round(best_d, 3)


def closest_stations_many(points, stations):
    out = []
    for lat, lon in points:
        out.append(closest_station(float(lat), float(lon), stations))
    names = [o[0] for o in out]
    counts = {name: names.count(name) for name in stations}
    return out, counts


def grid_cluster(points, cell=0.5):
    ij = np.floor(points / cell).astype(np.int64)
    cells, inv, counts = np.unique(ij, axis=0, return_inverse=True, return_counts=True)
    inv = inv.ravel()
    cent = np.zeros((len(cells), 2))
    np.add.at(cent, inv, points)
    cent /= counts[:, None]
    return cells, cent, counts, inv


def slope_aspect(dem, cellsize=30.0):
    dzdy, dzdx = np.gradient(dem, cellsize)
    slope = np.degrees(np.arctan(np.hypot(dzdx, dzdy)))
    aspect = np.degrees(np.arctan2(dzdy, -dzdx))
    aspect = np.where(aspect < 0, 90.0 - aspect,
                      np.where(aspect > 90.0, 360.0 - aspect + 90.0, 90.0 - aspect))
    classes = np.digitize(slope, [5, 15, 30])
    return slope, aspect, classes


def hillshade(dem, azimuth=315.0, angle_altitude=45.0):
    x, y = np.gradient(dem)
    slope = np.pi / 2. - np.arctan(np.sqrt(x * x + y * y))
    aspect = np.arctan2(-x, y)
    azimuthrad = azimuth * np.pi / 180.
    altituderad = angle_altitude * np.pi / 180.
    shaded = np.sin(altituderad) * np.sin(slope) \
        + np.cos(altituderad) * np.cos(slope) * np.cos(azimuthrad - aspect)
    return 255 * (shaded + 1) / 2


def ndvi_classes(nir, red):
    nir = nir.astype(np.float32)
    red = red.astype(np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        ndvi = (nir - red) / (nir + red)
    ndvi[~np.isfinite(ndvi)] = 0
    classes = np.select([ndvi < 0, ndvi < 0.2, ndvi < 0.5], [0, 1, 2], default=3).astype(np.uint8)
    frac = {name: float(np.mean(classes == k)) for k, name in enumerate(["water", "bare", "sparse", "dense"])}
    return ndvi, classes, frac


# ---------------------------------------------------------------------------
# Engineering utilities
# ---------------------------------------------------------------------------

LENGTH = {"m": 1.0, "km": 1000.0, "cm": 0.01, "mm": 0.001, "in": 0.0254, "ft": 0.3048, "mi": 1609.344}
PRESSURE = {"Pa": 1.0, "kPa": 1e3, "MPa": 1e6, "bar": 1e5, "psi": 6894.757293168, "atm": 101325.0}
FLOW = {"m3/s": 1.0, "l/s": 1e-3, "l/min": 1e-3 / 60, "gpm": 6.30901964e-5}
UNITS = {"length": LENGTH, "pressure": PRESSURE, "flow": FLOW}


def convert(values, from_unit, to_unit):
    values = np.asarray(values, dtype=float)
    temps = ("C", "F", "K")
    if from_unit in temps or to_unit in temps:
        if from_unit == "F":
            c = (values - 32) * 5 / 9
        elif from_unit == "K":
            c = values - 273.15
        else:
            c = values
        if to_unit == "F":
            return c * 9 / 5 + 32
        if to_unit == "K":
            return c + 273.15
        return c
    for quantity, table in UNITS.items():
        if from_unit in table and to_unit in table:
            return values * (table[from_unit] / table[to_unit])
    raise ValueError(f"cannot convert {from_unit} to {to_unit}")


def convert_record(record, units_in, units_out):
    out = {}
    for key, arr in record.items():
        out[key] = convert(arr, units_in[key], units_out.get(key, units_in[key]))
    summary = {key: (float(v.min()), float(v.max())) for key, v in out.items()}
    return out, summary


TC_TYPE_K_C = np.array([0.0, 100.0, 200.0, 300.0, 400.0, 500.0, 600.0, 700.0, 800.0, 900.0, 1000.0])
TC_TYPE_K_MV = np.array([0.0, 4.096, 8.138, 12.209, 16.397, 20.644, 24.905, 29.129, 33.275, 37.326, 41.276])


def thermocouple_temp(mv, table_mv=TC_TYPE_K_MV, table_c=TC_TYPE_K_C):
    t_interp = np.interp(mv, table_mv, table_c)
    # the same thing the way the firmware does it: linear search then interpolate
    out = []
    for v in np.atleast_1d(mv):
        if v <= table_mv[0]:
            out.append(table_c[0])
            continue
        if v >= table_mv[-1]:
            out.append(table_c[-1])
            continue
        k = 0
        while table_mv[k + 1] < v:
            k += 1
        frac = (v - table_mv[k]) / (table_mv[k + 1] - table_mv[k])
        out.append(table_c[k] + frac * (table_c[k + 1] - table_c[k]))
    return t_interp, np.array(out)


def table2d_lookup(xs, ys, table, qx, qy):
    out = np.empty(len(qx))
    for n in range(len(qx)):
        x = min(max(float(qx[n]), xs[0]), xs[-1])
        y = min(max(float(qy[n]), ys[0]), ys[-1])
        i = int(np.searchsorted(xs, x, side="right")) - 1
        j = int(np.searchsorted(ys, y, side="right")) - 1
        i = min(i, len(xs) - 2)
        j = min(j, len(ys) - 2)
        tx = (x - xs[i]) / (xs[i + 1] - xs[i])
        ty = (y - ys[j]) / (ys[j + 1] - ys[j])
        out[n] = (table[i, j] * (1 - tx) * (1 - ty) + table[i + 1, j] * tx * (1 - ty)
                  + table[i, j + 1] * (1 - tx) * ty + table[i + 1, j + 1] * tx * ty)
    return out


def energy_tariff(kwh):
    kwh = np.asarray(kwh, dtype=float)
    conds = [kwh <= 100, kwh <= 300, kwh > 300]
    choices = [kwh * 0.10, 10 + (kwh - 100) * 0.15, 40 + (kwh - 300) * 0.25]
    cost_select = np.select(conds, choices)
    cost_pw = np.piecewise(kwh, [kwh <= 100, (kwh > 100) & (kwh <= 300), kwh > 300],
                           [lambda k: k * 0.10, lambda k: 10 + (k - 100) * 0.15,
                            lambda k: 40 + (k - 300) * 0.25])
    return cost_select, cost_pw, bool(np.allclose(cost_select, cost_pw))


def progressive_tax(incomes, brackets=((10000, 0.0), (40000, 0.2), (100000, 0.4), (math.inf, 0.45))):
    taxes = []
    for income in incomes:
        tax = 0.0
        lower = 0.0
        for upper, rate in brackets:
            if income <= lower:
                break
            tax += (min(income, upper) - lower) * rate
            lower = upper
        taxes.append(tax)
    taxes = np.array(taxes)
    effective = np.divide(taxes, incomes, out=np.zeros_like(taxes), where=np.asarray(incomes) > 0)
    return taxes, effective


def thermostat(temps, setpoint=20.0, band=1.0):
    heater = np.zeros(len(temps), dtype=bool)
    state = False
    switches = 0
    for i, T in enumerate(temps):
        if state and T > setpoint + band:
            state = False
            switches += 1
        elif not state and T < setpoint - band:
            state = True
            switches += 1
        heater[i] = state
    return heater, switches, heater.mean()


def thermostat_sim(T_out, T0=15.0, setpoint=20.0, band=0.5, k_loss=0.05, heat=1.5, dt=1.0):
    n = len(T_out)
    T = np.empty(n + 1)
    T[0] = T0
    on = np.zeros(n, dtype=np.int8)
    state = 0
    for i in range(n):
        if T[i] < setpoint - band:
            state = 1
        elif T[i] > setpoint + band:
            state = 0
        on[i] = state
        T[i + 1] = T[i] + dt * (-k_loss * (T[i] - T_out[i]) + heat * state)
    energy = heat * on.sum() * dt
    return T, on, energy


MACHINE_STATES = {"idle": 0, "running": 1, "overload": 2, "fault": 3}


def machine_states(current, run_level=1.0, overload_level=5.0, fault_count=3):
    codes = np.zeros(len(current), dtype=np.int8)
    events = []
    state = "idle"
    over = 0
    for i, c in enumerate(current):
        prev = state
        if state == "fault":
            if c < 0.1:
                state = "idle"
        elif c >= overload_level:
            over += 1
            state = "fault" if over >= fault_count else "overload"
        else:
            over = 0
            state = "running" if c >= run_level else "idle"
        if state != prev:
            events.append((i, prev, state))
        codes[i] = MACHINE_STATES[state]
    return codes, events


class PID:
    def __init__(self, kp, ki, kd, dt, out_min=-math.inf, out_max=math.inf):
        self.kp, self.ki, self.kd = kp, ki, kd
        self.dt = dt
        self.out_min, self.out_max = out_min, out_max
        self.integral = 0.0
        self.prev_error = 0.0

    def update(self, setpoint, measurement):
        error = setpoint - measurement
        self.integral += error * self.dt
        derivative = (error - self.prev_error) / self.dt
        out = self.kp * error + self.ki * self.integral + self.kd * derivative
        if out > self.out_max:
            out = self.out_max
            self.integral -= error * self.dt    # anti-windup: undo the integration
        elif out < self.out_min:
            out = self.out_min
            self.integral -= error * self.dt
        self.prev_error = error
        return out


def pid_first_order(kp, ki, kd, setpoint=1.0, tau=0.5, gain=1.0, dt=0.01, n=400, u_max=math.inf):
    pid = PID(kp, ki, kd, dt, -u_max, u_max)
    y = 0.0
    ys = np.zeros(n)
    us = np.zeros(n)
    for k in range(n):
        u = pid.update(setpoint, y)
        y += dt * (-y + gain * u) / tau
        ys[k] = y
        us[k] = u
    overshoot = max(0.0, ys.max() - setpoint) / setpoint
    outside = np.where(np.abs(ys - setpoint) > 0.02 * abs(setpoint))[0]
    settle = (outside[-1] + 1) * dt if outside.size else 0.0
    return ys, us, overshoot, settle


def kalman_1d(z, q=1e-5, r=0.01, x0=0.0, p0=1.0):
    n = len(z)
    xhat = np.zeros(n)
    P = np.zeros(n)
    K = np.zeros(n)
    xhat[0] = x0
    P[0] = p0
    for k in range(1, n):
        # time update
        xhatminus = xhat[k - 1]
        Pminus = P[k - 1] + q
        # measurement update
        K[k] = Pminus / (Pminus + r)
        xhat[k] = xhatminus + K[k] * (z[k] - xhatminus)
        P[k] = (1 - K[k]) * Pminus
    return xhat, P, K


def kalman_cv(measurements, dt=1.0, q=0.01, r=1.0):
    F = np.array([[1, dt], [0, 1]])
    H = np.array([[1.0, 0.0]])
    Q = q * np.array([[dt ** 4 / 4, dt ** 3 / 2], [dt ** 3 / 2, dt ** 2]])
    R = np.array([[r]])
    x = np.array([[measurements[0]], [0.0]])
    P = np.eye(2) * 500.0
    xs, Ps = [], []
    for z in measurements:
        x = F @ x
        P = F @ P @ F.T + Q
        y = z - H @ x
        S = H @ P @ H.T + R
        K = P @ H.T @ np.linalg.inv(S)
        x = x + K @ y
        P = (np.eye(2) - K @ H) @ P
        xs.append(x.ravel().copy())
        Ps.append(np.diag(P).copy())
    return np.array(xs), np.array(Ps)


def kalman_track_2d(zs, dt=0.1, sigma_a=0.5, sigma_z=0.3):
    F = np.eye(4)
    F[0, 2] = F[1, 3] = dt
    G = np.array([[0.5 * dt ** 2, 0], [0, 0.5 * dt ** 2], [dt, 0], [0, dt]])
    Q = G @ G.T * sigma_a ** 2
    H = np.zeros((2, 4))
    H[0, 0] = H[1, 1] = 1.0
    R = np.eye(2) * sigma_z ** 2
    x = np.zeros(4)
    x[:2] = zs[0]
    P = np.diag([sigma_z ** 2, sigma_z ** 2, 10.0, 10.0])
    est = np.zeros((len(zs), 4))
    nis = np.zeros(len(zs))
    for k, z in enumerate(zs):
        x = F @ x
        P = F @ P @ F.T + Q
        innov = z - H @ x
        S = H @ P @ H.T + R
        K = np.linalg.solve(S, H @ P).T    # P H^T S^-1, S symmetric
        x = x + K @ innov
        I_KH = np.eye(4) - K @ H
        P = I_KH @ P @ I_KH.T + K @ R @ K.T    # Joseph form
        est[k] = x
        nis[k] = innov @ np.linalg.solve(S, innov)
    return est, nis, np.sqrt(np.diag(P))


def mm1_queue(lam, mu, n_customers=300, seed=None):
    rs = np.random.RandomState(seed) if seed is not None else np.random
    inter = rs.exponential(1 / lam, n_customers)
    service = rs.exponential(1 / mu, n_customers)
    arrival = np.cumsum(inter)
    start = np.zeros(n_customers)
    finish = np.zeros(n_customers)
    for i in range(n_customers):
        start[i] = arrival[i] if i == 0 else max(arrival[i], finish[i - 1])
        finish[i] = start[i] + service[i]
    wait = start - arrival
    rho = lam / mu
    theory_wq = rho / (mu - lam)
    return wait.mean(), (finish - arrival).mean(), theory_wq, np.percentile(wait, 95)


def bank_tellers(arrivals, services, c=2):
    free_at = [(0.0, k) for k in range(c)]
    heapq.heapify(free_at)
    waits = np.zeros(len(arrivals))
    teller = np.zeros(len(arrivals), dtype=np.int32)
    busy = np.zeros(c)
    for i, (a, s) in enumerate(zip(arrivals, services)):
        t_free, k = heapq.heappop(free_at)
        begin = max(a, t_free)
        waits[i] = begin - a
        teller[i] = k
        busy[k] += s
        heapq.heappush(free_at, (begin + s, k))
    makespan = max(t for t, _ in free_at)
    return waits, teller, busy / makespan


def colebrook_friction(Re, rel_rough, tol=1e-10, max_iter=50):
    out = np.empty(len(Re))
    iters = np.empty(len(Re), dtype=np.int32)
    for i, re in enumerate(Re):
        if re < 2300:
            out[i] = 64.0 / re    # laminar
            iters[i] = 0
            continue
        # Swamee-Jain as the initial guess
        f = 0.25 / math.log10(rel_rough / 3.7 + 5.74 / re ** 0.9) ** 2
        f_new = f
        for it in range(max_iter):
            rhs = -2.0 * math.log10(rel_rough / 3.7 + 2.51 / (re * math.sqrt(f)))
            f_new = 1.0 / rhs ** 2
            if abs(f_new - f) < tol:
                break
            f = f_new
        out[i] = f_new
        iters[i] = it + 1
    return out, iters


def beam_point_load(L, a, P, E, I, n=51):
    x = np.linspace(0, L, n)
    b = L - a
    defl = np.where(x <= a,
                    P * b * x * (L ** 2 - b ** 2 - x ** 2) / (6 * L * E * I),
                    P * a * (L - x) * (2 * L * x - x ** 2 - a ** 2) / (6 * L * E * I))
    moment = np.where(x <= a, P * b * x / L, P * a * (L - x) / L)
    shear = np.where(x < a, P * b / L, -P * a / L)
    imax = int(np.argmax(defl))
    return x, defl, moment, shear, (x[imax], defl[imax])


def packet_checksums(payload):
    data = np.asarray(payload, dtype=np.uint8)
    s8 = np.uint8(data.sum() % 256)
    xor = np.bitwise_xor.reduce(data)
    # Fletcher-16
    sum1 = 0
    sum2 = 0
    for byte in data:
        sum1 = (sum1 + int(byte)) % 255
        sum2 = (sum2 + sum1) % 255
    fletcher = (sum2 << 8) | sum1
    twos = (256 - int(data.sum()) % 256) % 256
    return int(s8), int(xor), fletcher, twos


def crc8_table(poly=0x07):
    table = np.zeros(256, dtype=np.uint8)
    for i in range(256):
        crc = i
        for _ in range(8):
            if crc & 0x80:
                crc = ((crc << 1) ^ poly) & 0xFF
            else:
                crc = (crc << 1) & 0xFF
        table[i] = crc
    return table


def crc8(data, poly=0x07):
    table = crc8_table(poly)
    crc = 0
    for byte in np.asarray(data, dtype=np.uint8):
        crc = int(table[crc ^ int(byte)])
    return crc, f"0x{crc:02X}"


def tank_level(inflow, outflow_coeff=0.3, area=2.0, h0=0.0, h_max=2.0, dt=1.0):
    h = np.empty(len(inflow) + 1)
    h[0] = h0
    overflow = 0.0
    for k, qin in enumerate(inflow):
        qout = outflow_coeff * math.sqrt(max(h[k], 0.0))
        new = h[k] + (qin - qout) / area * dt
        if new > h_max:
            overflow += (new - h_max) * area
            new = h_max
        h[k + 1] = max(new, 0.0)
    return h, overflow


def calibrate_sensor(raw_counts, reference, deg=2, vref=3.3, bits=12):
    volts = raw_counts.astype(np.float32) * np.float32(vref / (2 ** bits - 1))
    coef = np.polyfit(volts, reference, deg)
    fitted = np.polyval(coef, volts)
    resid = reference - fitted
    rmse = float(np.sqrt(np.mean(resid ** 2)))
    worst = int(np.argmax(np.abs(resid)))
    return volts, coef, rmse, worst


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------

def _rng(seed):
    return np.random.default_rng(seed)


def _tones(seed, n=256, fs=1000.0, freqs=(50.0, 120.0), amps=(1.0, 0.5), noise=0.2):
    t = np.arange(n) / fs
    x = np.zeros(n)
    for f, a in zip(freqs, amps):
        x += a * np.sin(2 * np.pi * f * t)
    return x + noise * _rng(seed).normal(size=n)


def _ar1(seed, n=200, phi=0.8):
    e = _rng(seed).normal(size=n)
    x = np.zeros(n)
    for i in range(1, n):
        x[i] = phi * x[i - 1] + e[i]
    return x


def _am_signal(n=256, fc=40.0, fm=3.0, depth=0.5):
    t = np.arange(n) / n
    return (1 + depth * np.sin(2 * np.pi * fm * t)) * np.sin(2 * np.pi * fc * t)


def _dtmf(keys, fs=8000, block=205, noise=0.0, seed=0):
    t = np.arange(block) / fs
    parts = []
    for key in keys:
        for r, row in enumerate(DTMF_KEYS):
            if key in row:
                c = row.index(key)
                parts.append(np.sin(2 * np.pi * DTMF_ROWS[r] * t) + np.sin(2 * np.pi * DTMF_COLS[c] * t))
    x = np.concatenate(parts)
    return x + noise * _rng(seed).normal(size=x.size)


def _prices(seed, n=120, mu=0.0005, sigma=0.015, s0=100.0):
    r = _rng(seed).normal(mu, sigma, n - 1)
    return s0 * np.exp(np.concatenate([[0.0], np.cumsum(r)]))


def _lj_lattice(n_side, density, seed):
    N = n_side * n_side
    L = math.sqrt(N / density)
    a = L / n_side
    g = (np.arange(n_side) + 0.5) * a
    X, Y = np.meshgrid(g, g)
    pos = np.column_stack([X.ravel(), Y.ravel()]) + 0.05 * _rng(seed).normal(size=(N, 2))
    return pos, L


def _shapes(seed, n=20, count=6):
    r = _rng(seed)
    yy, xx = np.mgrid[0:n, 0:n]
    img = np.zeros((n, n), dtype=bool)
    for _ in range(count):
        cy, cx = r.integers(0, n, 2)
        rad = r.uniform(0.8, 3.5)
        img |= (yy - cy) ** 2 + (xx - cx) ** 2 <= rad ** 2
    img[r.integers(0, n, 4), r.integers(0, n, 4)] = True    # isolated specks
    return img


def _bimodal_uint8(seed, n=24):
    r = _rng(seed)
    yy, xx = np.mgrid[0:n, 0:n]
    fg = (yy - n / 2) ** 2 + (xx - n / 3) ** 2 < (n / 4) ** 2
    img = np.where(fg, r.normal(180, 20, (n, n)), r.normal(60, 15, (n, n)))
    return np.clip(img, 0, 255).astype(np.uint8)


def _dem(seed, n=20):
    y, x = np.mgrid[0:n, 0:n].astype(float)
    z = (120 * np.exp(-((x - 6) ** 2 + (y - 8) ** 2) / 30.0)
         + 80 * np.exp(-((x - 14) ** 2 + (y - 13) ** 2) / 18.0) + 2.0 * x)
    return z + _rng(seed).normal(0, 0.5, (n, n))


def _track(seed, n=40):
    r = _rng(seed)
    lat = 52.0 + np.cumsum(r.normal(0.0005, 0.0004, n))
    lon = 4.3 + np.cumsum(r.normal(0.0008, 0.0004, n))
    t = np.cumsum(r.integers(10, 40, n)).astype(float)
    lat[20:23] = lat[19]    # standing still for a while
    lon[20:23] = lon[19]
    return lat, lon, t


_STATIONS = {
    "Amsterdam": (52.3676, 4.9041),
    "Rotterdam": (51.9244, 4.4777),
    "Utrecht": (52.0907, 5.1214),
    "Den Haag": (52.0705, 4.3007),
    "Eindhoven": (51.4416, 5.4697),
}


def _kalman_walk(seed, n=60, dt=0.1):
    r = _rng(seed)
    acc = r.normal(0, 0.5, (n, 2))
    vel = np.cumsum(acc * dt, axis=0) + np.array([1.0, 0.5])
    pos = np.cumsum(vel * dt, axis=0)
    return pos + r.normal(0, 0.3, (n, 2))


def _groups_str(seed, n=40):
    names = np.array(["north", "south", "east", "west", "centre"])
    return names[_rng(seed).integers(0, 5, n)]


def _outlier_line(seed, n=40):
    r = _rng(seed)
    x = np.linspace(0, 10, n)
    y = 0.5 * x ** 2 - 2 * x + 3 + r.normal(0, 1.0, n)
    y[[5, 17, 30]] += np.array([25.0, -30.0, 40.0])
    return x, y


def _nbody_f32(seed, n):
    pos = _rng(seed).normal(size=(n, 3)).astype(np.float32)
    vel = 0.3 * _rng(seed + 1).normal(size=(n, 3)).astype(np.float32)
    mass = (1.0 + _rng(seed + 2).random((n, 1))).astype(np.float32)
    return pos, vel, mass


def _multi_reg(seed, n=40):
    X = _rng(seed).normal(size=(n, 3))
    y = X @ np.array([1.5, -2.0, 0.0]) + 4 + _rng(seed + 1).normal(0, 0.3, n)
    return X, y


def _sensor_columns(seed, n=30):
    t = np.arange(float(n))
    load = 2 * t + _rng(seed).normal(0, 5, n)
    noise = _rng(seed + 1).normal(size=n)
    margin = -t + _rng(seed + 2).normal(0, 10, n)
    return np.column_stack([t, load, noise, margin])


def _asset_returns(seed, n=120):
    mix = np.array([[1.0, 0.3, 0.1, 0.0], [0.0, 1.0, 0.2, 0.1], [0.0, 0.0, 1.0, 0.4], [0.0, 0.0, 0.0, 1.0]])
    return _rng(seed).normal(0.001, 0.02, (n, 4)) @ mix + np.array([0.0005, 0.0002, 0.0008, 0.0001])


def _bands(seed, n=12):
    nir = _rng(seed).integers(0, 4000, (n, n)).astype(np.uint16)
    nir[_rng(seed + 1).random((n, n)) < 0.05] = 0    # no-data pixels
    red = _rng(seed + 2).integers(0, 3000, (n, n)).astype(np.uint16)
    red[nir == 0] = 0
    return nir, red


def _field_record():
    record = {"depth": np.array([10.0, 25.5, 40.0]), "pressure": np.array([14.7, 30.0, 45.2]),
              "temp": np.array([68.0, 55.4, 50.0]), "flow": np.array([12.0, 8.5, 3.0])}
    units_in = {"depth": "ft", "pressure": "psi", "temp": "F", "flow": "gpm"}
    units_out = {"depth": "m", "pressure": "kPa", "temp": "C", "flow": "l/s"}
    return record, units_in, units_out


def _engine_map():
    rpm = np.array([1000.0, 2000.0, 3000.0, 4000.0, 5000.0])
    load = np.array([0.0, 25.0, 50.0, 75.0, 100.0])
    eff = np.outer(np.array([0.6, 0.8, 1.0, 0.9, 0.7]), np.array([0.2, 0.5, 0.8, 0.95, 1.0])) * 40.0
    return rpm, load, eff


def _calibration(seed, n=25):
    raw = np.linspace(200, 3900, n).astype(np.uint16)
    v = raw * 3.3 / 4095
    ref = v * 50 * 0.02 + 1.5 * v ** 2 + _rng(seed).normal(0, 0.1, n)
    return raw, ref


CASES = [
    # physics simulations
    ("nbody_leapfrog", nbody_leapfrog, lambda: (_rng(1).normal(size=(8, 3)), _rng(2).normal(size=(8, 3)), 20.0 * np.ones((8, 1)) / 8, 0.01, 40), {}),
    ("nbody_leapfrog_f32", nbody_leapfrog, lambda: (*_nbody_f32(3, 6), 0.005, 30), {}),
    ("nbody_verlet_loops", nbody_verlet_loops, lambda: (_rng(6).normal(size=(5, 2)), 0.2 * _rng(7).normal(size=(5, 2)), 0.5 + _rng(8).random(5)), {}),
    ("md_lennard_jones", md_lennard_jones, lambda: (), {}),
    ("ising_metropolis_cold", ising_metropolis, lambda: (10, 0.6, 20, 1), {}),
    ("ising_checkerboard", ising_checkerboard, lambda: (), {}),
    ("wave_1d_string_f32", wave_1d, lambda: (np.minimum(np.linspace(0, 1, 81), 1 - np.linspace(0, 1, 81)).astype(np.float32), 1.0, 0.0125, 0.01, 80, 20), {}),
    ("wave_2d_membrane", wave_2d_membrane, lambda: (30, 40), {}),
    ("diffusion_2d_hot_square", diffusion_2d, lambda: (np.pad(np.full((4, 4), 100.0), 8),), {}),
    ("diffusion_2d_f32", diffusion_2d, lambda: (_rng(10).random((16, 16)).astype(np.float32), 0.5, 1.0, 0.4, 30), {}),
    ("gray_scott", gray_scott, lambda: (32, 60), {}),
    ("pendulum_large_damped", pendulum_rk4, lambda: (2.5, 0.0, 9.81, 1.0, 0.3, 0.01, 500), {}),
    ("lorenz_rk4", lorenz_integrate, lambda: ([0.1, 0.0, 20.0], 0.01, 200), {}),
    ("pic_deposit_perturbed", pic_deposit_field, lambda: (((np.arange(200) + 0.5) / 200 + 0.01 * np.sin(2 * np.pi * (np.arange(200) + 0.5) / 200)) % 1.0,), {}),
    ("random_walk_2d", random_walk_2d, lambda: (300, 15, 3), {}),
    ("random_walk_1d_unseeded", random_walk_1d, lambda: (500,), {"rand": True}),
    ("projectile_drag", projectile_range, lambda: (30.0, 35.0, 0.02), {}),
    ("best_launch_angle", best_launch_angle, lambda: (25.0, 0.01), {}),
    ("chain_modes_free", chain_normal_modes, lambda: (np.array([1.0, 2.0, 1.0, 3.0, 1.0]), 2.0, False), {}),
    ("decay_chain", decay_chain, lambda: ({"A": 1000.0}, {"A": 2.0, "B": 5.0, "C": math.inf}), {}),
    # signal processing
    ("fir_filter_designed", fir_filter, lambda: (fir_lowpass_design(21, 50.0, 500.0)[0], _tones(12, 200, 500.0, (20.0, 150.0))), {}),
    ("fir_filter_int_signal", fir_filter, lambda: (np.ones(5) / 5, _rng(13).integers(0, 100, 120)), {}),
    ("iir_df1_first_order", iir_filter_df1, lambda: ([0.1], [1.0, -0.9], np.ones(100)), {}),
    ("biquad_lowpass", biquad_filter_signal, lambda: (_tones(14, 300), "lowpass", 50.0, 1000.0), {}),
    ("one_pole_smooth_f32", one_pole_smooth_f32, lambda: (np.r_[np.zeros(30), np.ones(70)] + 0.1 * _rng(17).normal(size=100), 0.1), {}),
    ("windowed_spectrum_hann", windowed_spectrum, lambda: (_tones(18, 256, 1000.0, (62.0, 180.0)), 1000.0), {}),
    ("windowed_spectrum_blackman_odd", windowed_spectrum, lambda: (_tones(19, 255, 1000.0, (97.0,)), 1000.0, "blackman"), {}),
    ("periodogram_even", periodogram, lambda: (_tones(20, 128, 100.0, (10.0,)), 100.0), {}),
    ("welch_psd", welch_psd, lambda: (_tones(22, 512, 256.0, (32.0, 64.0), noise=1.0), 256.0, 64), {}),
    ("autocorr_ar1", autocorrelation, lambda: (_ar1(24, 200, 0.8), 30), {}),
    ("envelope_am", analytic_envelope, lambda: (_am_signal(),), {}),
    ("envelope_follower", envelope_follower, lambda: (_am_signal(300, 30.0, 2.0),), {}),
    ("zero_crossings_sine", zero_crossings, lambda: (np.sin(2 * np.pi * 5 * np.linspace(0, 1, 200) + 0.3) + 0.05 * _rng(25).normal(size=200), np.linspace(0, 1, 200)), {}),
    ("zero_crossings_int16", zero_crossings, lambda: (np.round(1000 * np.sin(2 * np.pi * 3 * np.arange(150) / 150 + 0.1)).astype(np.int16), np.arange(150) / 150.0), {}),
    ("find_peaks_height_distance", find_peaks_simple, lambda: (_tones(27, 200, 200.0, (7.0,), noise=0.3), 0.5, 10), {}),
    ("resample_interp", resample_interp, lambda: (np.sort(_rng(28).uniform(0, 2, 80)), np.sin(2 * np.pi * np.sort(_rng(28).uniform(0, 2, 80))), 25.0), {}),
    ("decimate_boxcar", decimate_boxcar, lambda: (_tones(29, 240, 240.0, (5.0, 90.0)), 4), {}),
    ("median_filter_spikes_int", median_filter_1d, lambda: (np.where(_rng(30).random(80) < 0.1, 500, 0) + np.arange(80), 5), {}),
    ("spectrogram_chirp", spectrogram, lambda: (np.sin(2 * np.pi * (20 * np.arange(512) / 512 + 100 * (np.arange(512) / 512) ** 2)), 512.0), {}),
    ("dtmf_decode_sequence", dtmf_decode, lambda: (_dtmf("2024#"),), {}),
    # statistics and data analysis
    ("groupby_stats_int", groupby_stats, lambda: (_rng(34).integers(0, 4, 50), _rng(35).normal(10, 3, 50)), {}),
    ("groupby_stats_str", groupby_stats, lambda: (_groups_str(36), _rng(37).gamma(2.0, 2.0, 40)), {}),
    ("weighted_stats_reliability", weighted_stats, lambda: (_rng(38).normal(5, 1, 30), _rng(39).random(30)), {}),
    ("inverse_variance_mean", inverse_variance_mean, lambda: ([9.81, 9.79, 9.83, 9.75, 9.86], [0.02, 0.03, 0.02, 0.05, 0.04]), {}),
    ("histogram_summary_normal", histogram_summary, lambda: (_rng(40).normal(size=200), 12), {}),
    ("histogram_summary_int_edges", histogram_summary, lambda: (_rng(41).integers(0, 10, 150), np.arange(-0.5, 10.5)), {}),
    ("bootstrap_ci_mean", bootstrap_ci, lambda: (_rng(42).exponential(2.0, 40),), {}),
    ("permutation_test_shift", permutation_test, lambda: (_rng(44).normal(0.8, 1, 20), _rng(45).normal(0, 1, 25)), {}),
    ("linear_regression", linear_regression, lambda: (np.linspace(0, 10, 30), 2.5 * np.linspace(0, 10, 30) - 1 + _rng(48).normal(0, 1, 30)), {}),
    ("linear_regression_f32", linear_regression, lambda: (np.arange(20, dtype=np.float32), (0.3 * np.arange(20) + _rng(49).normal(0, 0.5, 20)).astype(np.float32)), {}),
    ("multiple_regression", multiple_regression, lambda: (*_multi_reg(50), ["temp", "pressure", "noise"]), {}),
    ("sigma_clip_polyfit", sigma_clip_polyfit, lambda: _outlier_line(52), {}),
    ("moving_stats", moving_stats, lambda: (_ar1(53, 80), 7), {}),
    ("remove_outliers_iqr", remove_outliers_iqr, lambda: (np.r_[_rng(54).normal(50, 5, 60), [120.0, -10.0, 95.0]],), {}),
    ("outliers_mad", outliers_mad, lambda: (np.r_[_rng(55).normal(0, 1, 40), [8.0, -6.5]],), {}),
    ("outliers_mad_constant", outliers_mad, lambda: (np.array([5.0] * 10 + [7.0]),), {}),
    ("zscore_columns_nan", zscore_columns, lambda: (np.where(_rng(56).random((12, 4)) < 0.15, np.nan, _rng(57).normal(size=(12, 4))), 1), {}),
    ("quantile_summary", quantile_summary, lambda: (_rng(58).lognormal(0, 0.5, 75),), {}),
    ("correlated_pairs", correlated_pairs, lambda: (_sensor_columns(59), ["t", "load", "noise", "margin"]), {}),
    ("ks_shifted", ks_two_sample, lambda: (_rng(65).normal(size=60), _rng(66).normal(0.8, 1, 40)), {}),
    ("binned_means", binned_means, lambda: (_rng(67).uniform(0, 10, 100), _rng(68).normal(size=100) + np.sin(_rng(67).uniform(0, 10, 100)), np.array([0.0, 2, 4, 6, 8, 9.5, 12])), {}),
    ("gaussian_kde", gaussian_kde_manual, lambda: (np.r_[_rng(69).normal(-2, 0.5, 30), _rng(70).normal(1, 1, 50)], np.linspace(-5, 5, 101)), {}),
    ("chi2_contingency", chi2_contingency_manual, lambda: ([[20, 15, 5], [10, 25, 15]],), {}),
    ("running_stats_stream", running_stats_stream, lambda: (_rng(71).normal(3, 2, 60),), {}),
    # finance
    ("return_stats", return_stats, lambda: (_prices(72),), {}),
    ("max_drawdown", max_drawdown, lambda: (_prices(74, 150, 0.0, 0.02),), {}),
    ("max_drawdown_int_cents", max_drawdown, lambda: (np.round(_prices(75, 80) * 100).astype(np.int64),), {}),
    ("rolling_volatility", rolling_volatility, lambda: (np.diff(np.log(_prices(76, 100))), 20), {}),
    ("macd", macd, lambda: (_prices(77, 120),), {}),
    ("rsi_wilder", rsi_wilder, lambda: (_prices(78, 80),), {}),
    ("bollinger", bollinger, lambda: (_prices(79, 100, 0.0, 0.02), 20, 2.0), {}),
    ("option_chain", option_chain, lambda: (100.0, np.arange(80.0, 125.0, 5.0), 0.5, 0.03, 0.25), {}),
    ("implied_vol_newton", implied_vol, lambda: (black_scholes(100.0, 110.0, 0.5, 0.01, 0.3)[0], 100.0, 110.0, 0.5, 0.01), {}),
    ("implied_vol_fallback_put", implied_vol, lambda: (black_scholes(100.0, 40.0, 0.25, 0.01, 1.2, "put")[0], 100.0, 40.0, 0.25, 0.01, "put"), {}),
    ("mc_option_price", mc_option_price, lambda: (100.0, 105.0, 1.0, 0.02, 0.2), {}),
    ("mc_barrier_option", mc_barrier_option, lambda: (100.0, 100.0, 125.0, 0.5, 0.01, 0.25, 200, 50), {}),
    ("mc_var_unseeded", mc_var_historical, lambda: (np.diff(np.log(_prices(80, 200))), 500, 10), {"rand": True}),
    ("amortization_30y_extra", amortization_schedule, lambda: (250000.0, 0.045, 30, 200.0), {}),
    ("amortization_zero_rate", amortization_schedule, lambda: (12000.0, 0.0, 2), {}),
    ("irr_compare_project", irr_compare, lambda: ([-1000.0, 300.0, 400.0, 400.0, 250.0],), {}),
    ("irr_bisection_no_root", irr_bisection, lambda: ([100.0, 50.0, 20.0],), {}),
    ("min_variance_portfolio", min_variance_portfolio, lambda: (_asset_returns(81),), {}),
    # image and geo processing
    ("otsu_bimodal", otsu_threshold, lambda: (_bimodal_uint8(82),), {}),
    ("label_components_4", label_components, lambda: (_shapes(83),), {}),
    ("label_components_8_uint8", label_components, lambda: (_shapes(84).astype(np.uint8), 8), {}),
    ("remove_small_objects", remove_small_objects, lambda: (_shapes(85), 6), {}),
    ("flood_fill_uint8", flood_fill, lambda: ((_shapes(86) * 200).astype(np.uint8), (0, 0), 90), {}),
    ("morph_open_close_bool", morph_open_close, lambda: (_shapes(88, 16),), {}),
    ("morph_open_close_cross_uint8", morph_open_close, lambda: (_shapes(89, 14).astype(np.uint8), np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool)), {}),
    ("grey_erode_shift", grey_erode_shift, lambda: (_bimodal_uint8(90, 16),), {}),
    ("bilinear_resize_rgb_uint8", bilinear_resize, lambda: (_rng(92).integers(0, 256, (6, 6, 3), dtype=np.uint8), 10, 12), {}),
    ("bilinear_resize_vec", bilinear_resize_vec, lambda: (_rng(93).random((8, 10)), 15, 20), {}),
    ("gaussian_blur_uint8", gaussian_blur, lambda: (_bimodal_uint8(95, 20), 1.5), {}),
    ("unsharp_mask", unsharp_mask, lambda: (_bimodal_uint8(96, 20), 1.0, 1.5, 5), {}),
    ("sobel_edges", sobel_edges, lambda: (_bimodal_uint8(97, 20),), {}),
    ("gamma_lut", gamma_lut, lambda: (_rng(98).integers(0, 256, (10, 10), dtype=np.uint8), 2.2), {}),
    ("track_stats", track_stats, lambda: _track(99), {}),
    ("distance_matrix_km", distance_matrix_km, lambda: (np.array([s[0] for s in _STATIONS.values()]), np.array([s[1] for s in _STATIONS.values()])), {}),
    ("closest_stations_many", closest_stations_many, lambda: (np.column_stack([_rng(100).uniform(51.4, 52.4, 12), _rng(101).uniform(4.2, 5.5, 12)]), _STATIONS), {}),
    ("grid_cluster", grid_cluster, lambda: (_rng(102).uniform(0, 2, (60, 2)), 0.5), {}),
    ("slope_aspect", slope_aspect, lambda: (_dem(103), 30.0), {}),
    ("hillshade", hillshade, lambda: (_dem(104), 315.0, 45.0), {}),
    ("ndvi_classes", ndvi_classes, lambda: _bands(105), {}),
    # engineering utilities
    ("convert_record", convert_record, lambda: _field_record(), {}),
    ("thermocouple_temp", thermocouple_temp, lambda: (np.array([-0.5, 0.0, 1.2, 8.138, 15.0, 27.3, 41.276, 45.0]),), {}),
    ("table2d_lookup", table2d_lookup, lambda: (*_engine_map(), _rng(108).uniform(500, 5500, 20), _rng(109).uniform(-10, 110, 20)), {}),
    ("energy_tariff", energy_tariff, lambda: (np.array([0, 50, 100, 150, 300, 301, 450, 1000]),), {}),
    ("progressive_tax", progressive_tax, lambda: (np.array([0.0, 8000.0, 25000.0, 40000.0, 75000.0, 150000.0]),), {}),
    ("thermostat_series", thermostat, lambda: (20 + 2.5 * np.sin(np.linspace(0, 6 * np.pi, 120)) + 0.3 * _rng(110).normal(size=120),), {}),
    ("thermostat_sim", thermostat_sim, lambda: (5.0 + 3.0 * np.sin(np.linspace(0, 2 * np.pi, 200)),), {}),
    ("machine_states", machine_states, lambda: (np.r_[np.zeros(5), np.full(10, 2.0), [6.0, 6.5, 2.0, 7.0, 7.0, 7.2, 3.0], np.zeros(3), np.full(6, 1.5), 0.0],), {}),
    ("pid_saturated", pid_first_order, lambda: (5.0, 10.0, 0.05, 2.0, 0.8, 1.0, 0.01, 400, 3.0), {}),
    ("kalman_1d", kalman_1d, lambda: (-0.37727 + _rng(111).normal(0, 0.1, 50), 1e-5, 0.01), {}),
    ("kalman_cv", kalman_cv, lambda: (np.arange(40) * 1.5 + _rng(112).normal(0, 1.0, 40),), {}),
    ("kalman_track_2d", kalman_track_2d, lambda: (_kalman_walk(113),), {}),
    ("mm1_queue_seeded", mm1_queue, lambda: (0.8, 1.0, 300, 42), {}),
    ("mm1_queue_unseeded", mm1_queue, lambda: (0.5, 1.0, 200), {"rand": True}),
    ("bank_tellers", bank_tellers, lambda: (np.cumsum(_rng(114).exponential(1.0, 50)), _rng(115).exponential(1.6, 50), 2), {}),
    ("colebrook_friction", colebrook_friction, lambda: (np.array([800.0, 2000.0, 4000.0, 1e4, 1e5, 1e6, 1e7]), 1e-4), {}),
    ("beam_point_load", beam_point_load, lambda: (4.0, 1.5, 10e3, 200e9, 8.0e-6), {}),
    ("packet_checksums", packet_checksums, lambda: (_rng(116).integers(0, 256, 64),), {}),
    ("crc8", crc8, lambda: (np.frombuffer(b"123456789", dtype=np.uint8),), {}),
    ("tank_level", tank_level, lambda: (np.r_[np.full(40, 0.8), np.zeros(30), np.full(30, 1.5)],), {}),
    ("calibrate_sensor", calibrate_sensor, lambda: _calibration(117), {}),
]
