"""Everyday NumPy functions, third collection: statistics, finance, physics, signal
and image processing, graphs on adjacency matrices, dynamic programming, games and
cellular automata, geometry, linear algebra and exercise-book snippets, written as
answers, notebooks and course solutions write them. Each entry of CASES is
(name, function, make_args, opts); make_args() returns the arguments; opts
{"rand": True} marks a function that draws random numbers inside (compared by type,
dtype and shape only)."""
import numpy as np


# ----------------------------------------------------------------------------
# Statistics
# ----------------------------------------------------------------------------

def spearman_rho(x, y):
    rx = np.argsort(np.argsort(x))
    ry = np.argsort(np.argsort(y))
    n = len(x)
    d = rx - ry
    return 1 - 6 * np.sum(d ** 2) / (n * (n ** 2 - 1))


def welch_t_test(a, b):
    n1, n2 = len(a), len(b)
    m1, m2 = a.mean(), b.mean()
    v1, v2 = a.var(ddof=1), b.var(ddof=1)
    se = np.sqrt(v1 / n1 + v2 / n2)
    t = (m1 - m2) / se
    df = (v1 / n1 + v2 / n2) ** 2 / ((v1 / n1) ** 2 / (n1 - 1) + (v2 / n2) ** 2 / (n2 - 1))
    return t, df


def chi_square_independence(table):
    table = np.asarray(table, dtype=float)
    row_tot = table.sum(axis=1)
    col_tot = table.sum(axis=0)
    total = table.sum()
    expected = np.outer(row_tot, col_tot) / total
    chi2 = ((table - expected) ** 2 / expected).sum()
    dof = (table.shape[0] - 1) * (table.shape[1] - 1)
    return chi2, dof, expected


def weighted_median(values, weights):
    order = np.argsort(values)
    v = values[order]
    w = weights[order]
    cw = np.cumsum(w)
    cutoff = w.sum() / 2.0
    return v[np.searchsorted(cw, cutoff)]


def mode_smallest(a):
    vals, counts = np.unique(a, return_counts=True)
    m = counts.max()
    return vals[counts == m][0], int(m)


def percentile_summary(x):
    qs = [5, 25, 50, 75, 95]
    out = {}
    for q in qs:
        out["p%d" % q] = np.percentile(x, q)
    out["iqr"] = out["p75"] - out["p25"]
    return out


def mad_outliers(x, thresh=3.5):
    med = np.median(x)
    mad = np.median(np.abs(x - med))
    modified_z = 0.6745 * (x - med) / mad
    return np.where(np.abs(modified_z) > thresh)[0]


def ecdf(x):
    xs = np.sort(x)
    ys = np.arange(1, len(xs) + 1) / len(xs)
    return xs, ys


def covariance_loops(X):
    n, p = X.shape
    means = [X[:, j].mean() for j in range(p)]
    C = np.zeros((p, p))
    for i in range(p):
        for j in range(i, p):
            s = 0.0
            for k in range(n):
                s += (X[k, i] - means[i]) * (X[k, j] - means[j])
            C[i, j] = s / (n - 1)
            C[j, i] = C[i, j]
    return C


def simple_regression_stats(x, y):
    n = len(x)
    xm, ym = x.mean(), y.mean()
    sxy = np.sum((x - xm) * (y - ym))
    sxx = np.sum((x - xm) ** 2)
    slope = sxy / sxx
    intercept = ym - slope * xm
    resid = y - (intercept + slope * x)
    ss_res = np.sum(resid ** 2)
    ss_tot = np.sum((y - ym) ** 2)
    r2 = 1 - ss_res / ss_tot
    se_slope = np.sqrt(ss_res / (n - 2) / sxx)
    return {"slope": slope, "intercept": intercept, "r2": r2, "se": se_slope}


def binned_means(x, y, nbins=5):
    edges = np.linspace(x.min(), x.max(), nbins + 1)
    idx = np.digitize(x, edges[1:-1])
    sums = np.bincount(idx, weights=y, minlength=nbins)
    counts = np.bincount(idx, minlength=nbins)
    means = np.full(nbins, np.nan)
    nz = counts > 0
    means[nz] = sums[nz] / counts[nz]
    return edges, means, counts


def density_histogram(x, bins=8):
    hist, edges = np.histogram(x, bins=bins, density=True)
    centers = (edges[:-1] + edges[1:]) / 2
    area = np.sum(hist * np.diff(edges))
    return hist, centers, area


def permutation_test(a, b, n_perm=200, seed=0):
    rng = np.random.default_rng(seed)
    observed = abs(a.mean() - b.mean())
    pooled = np.concatenate([a, b])
    count = 0
    for _ in range(n_perm):
        rng.shuffle(pooled)
        diff = abs(pooled[:len(a)].mean() - pooled[len(a):].mean())
        if diff >= observed:
            count += 1
    return count / n_perm


# ----------------------------------------------------------------------------
# Finance and economics
# ----------------------------------------------------------------------------

def npv(rate, cashflows):
    total = 0.0
    for t, cf in enumerate(cashflows):
        total += cf / (1 + rate) ** t
    return total


def irr_bisection(cashflows, lo=-0.99, hi=1.0, tol=1e-8):
    f_lo = npv(lo, cashflows)
    while hi - lo > tol:
        mid = (lo + hi) / 2
        f_mid = npv(mid, cashflows)
        if f_mid * f_lo > 0:
            lo, f_lo = mid, f_mid
        else:
            hi = mid
    return (lo + hi) / 2


def amortization_schedule(principal, annual_rate, years):
    r = annual_rate / 12
    n = years * 12
    payment = principal * r / (1 - (1 + r) ** -n)
    balance = principal
    rows = []
    for month in range(1, n + 1):
        interest = balance * r
        princ = payment - interest
        balance -= princ
        rows.append([month, payment, interest, princ, max(balance, 0.0)])
    return np.array(rows)


def sharpe_sortino(prices, rf=0.0):
    rets = np.diff(prices) / prices[:-1]
    excess = rets - rf / 252
    sharpe = np.sqrt(252) * excess.mean() / excess.std(ddof=1)
    downside = excess[excess < 0]
    sortino = np.sqrt(252) * excess.mean() / np.sqrt(np.mean(downside ** 2))
    return sharpe, sortino


def bollinger_bands(prices, window=5, k=2.0):
    mid = np.full(len(prices), np.nan)
    upper = np.full(len(prices), np.nan)
    lower = np.full(len(prices), np.nan)
    for i in range(window - 1, len(prices)):
        w = prices[i - window + 1:i + 1]
        m = w.mean()
        s = w.std()
        mid[i] = m
        upper[i] = m + k * s
        lower[i] = m - k * s
    return mid, upper, lower


def rsi(prices, period=6):
    deltas = np.diff(prices)
    seed = deltas[:period]
    up = seed[seed >= 0].sum() / period
    down = -seed[seed < 0].sum() / period
    rs = up / down
    out = np.zeros_like(prices)
    out[:period] = 100.0 - 100.0 / (1.0 + rs)
    for i in range(period, len(prices)):
        delta = deltas[i - 1]
        if delta > 0:
            upval, downval = delta, 0.0
        else:
            upval, downval = 0.0, -delta
        up = (up * (period - 1) + upval) / period
        down = (down * (period - 1) + downval) / period
        rs = up / down
        out[i] = 100.0 - 100.0 / (1.0 + rs)
    return out


def _ema(x, span):
    alpha = 2 / (span + 1)
    out = np.empty_like(x)
    out[0] = x[0]
    for i in range(1, len(x)):
        out[i] = alpha * x[i] + (1 - alpha) * out[i - 1]
    return out


def macd(prices, fast=4, slow=9, signal=3):
    macd_line = _ema(prices, fast) - _ema(prices, slow)
    signal_line = _ema(macd_line, signal)
    hist = macd_line - signal_line
    crossings = np.where(np.diff(np.sign(hist)) != 0)[0] + 1
    return macd_line, signal_line, crossings


def min_variance_portfolio(returns):
    cov = np.cov(returns.T)
    ones = np.ones(cov.shape[0])
    w = np.linalg.solve(cov, ones)
    w = w / w.sum()
    port_var = w @ cov @ w
    return w, np.sqrt(port_var)


def norm_cdf(x):
    # Abramowitz and Stegun 26.2.17
    a1, a2, a3, a4, a5 = 0.319381530, -0.356563782, 1.781477937, -1.821255978, 1.330274429
    L = np.abs(x)
    k = 1.0 / (1.0 + 0.2316419 * L)
    w = 1.0 - 1.0 / np.sqrt(2 * np.pi) * np.exp(-L * L / 2.) * \
        (a1 * k + a2 * k ** 2 + a3 * k ** 3 + a4 * k ** 4 + a5 * k ** 5)
    return np.where(x < 0, 1.0 - w, w)


def black_scholes(S, K, T, r, sigma):
    d1 = (np.log(S / K) + (r + sigma ** 2 / 2) * T) / (sigma * np.sqrt(T))
    d2 = d1 - sigma * np.sqrt(T)
    call = S * norm_cdf(d1) - K * np.exp(-r * T) * norm_cdf(d2)
    put = K * np.exp(-r * T) * norm_cdf(-d2) - S * norm_cdf(-d1)
    return call, put


def drawdown_periods(prices):
    peak = prices[0]
    start = 0
    periods = []
    in_dd = False
    for i in range(1, len(prices)):
        if prices[i] >= peak:
            if in_dd:
                periods.append((start, i))
                in_dd = False
            peak = prices[i]
        elif not in_dd:
            in_dd = True
            start = i - 1
    if in_dd:
        periods.append((start, len(prices) - 1))
    return periods


def gbm_paths(S0=100.0, mu=0.05, sigma=0.2, T=1.0, steps=50, n_paths=20):
    np.random.seed(42)
    dt = T / steps
    Z = np.random.standard_normal((n_paths, steps))
    increments = (mu - 0.5 * sigma ** 2) * dt + sigma * np.sqrt(dt) * Z
    log_paths = np.cumsum(increments, axis=1)
    paths = S0 * np.exp(np.hstack([np.zeros((n_paths, 1)), log_paths]))
    return paths, paths[:, -1].mean()


def cobweb_market(p0, a=10.0, b=1.0, c=1.0, d=0.9, periods=20):
    prices = [p0]
    quantities = []
    p = p0
    for _ in range(periods):
        q = c + d * p          # supply decided from last price
        p = (a - q) / b        # price clears demand
        quantities.append(q)
        prices.append(p)
    return np.array(prices), np.array(quantities)


def gini_coefficient(incomes):
    x = np.sort(incomes)
    n = len(x)
    cum = np.cumsum(x)
    return (n + 1 - 2 * np.sum(cum) / cum[-1]) / n


# ----------------------------------------------------------------------------
# Physics simulations
# ----------------------------------------------------------------------------

def projectile_drag(v0, angle_deg, k=0.05, dt=0.01, g=9.81):
    theta = np.radians(angle_deg)
    pos = np.array([0.0, 0.0])
    vel = np.array([v0 * np.cos(theta), v0 * np.sin(theta)])
    xs, ys = [pos[0]], [pos[1]]
    while pos[1] >= 0:
        speed = np.linalg.norm(vel)
        acc = np.array([0.0, -g]) - k * speed * vel
        vel = vel + acc * dt
        pos = pos + vel * dt
        xs.append(pos[0])
        ys.append(pos[1])
    return np.array(xs), np.array(ys), len(xs)


def leapfrog_nbody(pos, vel, mass, dt=0.01, steps=50, G=1.0, soft=0.1):
    pos = pos.copy()
    vel = vel.copy()

    def accel(p):
        dx = p[None, :, :] - p[:, None, :]
        r2 = (dx ** 2).sum(axis=2) + soft ** 2
        inv_r3 = r2 ** -1.5
        np.fill_diagonal(inv_r3, 0.0)
        return G * (dx * (inv_r3 * mass[None, :])[:, :, None]).sum(axis=1)

    a = accel(pos)
    for _ in range(steps):
        vel += 0.5 * dt * a
        pos += dt * vel
        a = accel(pos)
        vel += 0.5 * dt * a
    ke = 0.5 * np.sum(mass * np.sum(vel ** 2, axis=1))
    return pos, vel, ke


def pendulum_verlet(theta0, omega0=0.0, L=1.0, g=9.81, dt=0.01, steps=300):
    theta = np.zeros(steps)
    omega = np.zeros(steps)
    theta[0], omega[0] = theta0, omega0
    for i in range(steps - 1):
        a = -g / L * np.sin(theta[i])
        theta[i + 1] = theta[i] + omega[i] * dt + 0.5 * a * dt ** 2
        a_new = -g / L * np.sin(theta[i + 1])
        omega[i + 1] = omega[i] + 0.5 * (a + a_new) * dt
    energy = 0.5 * L ** 2 * omega ** 2 + g * L * (1 - np.cos(theta))
    return theta, energy.max() - energy.min()


def ising_metropolis(n=8, beta=0.6, sweeps=5, seed=1):
    np.random.seed(seed)
    spins = np.random.choice([-1, 1], size=(n, n))
    for _ in range(sweeps):
        for _ in range(n * n):
            i, j = np.random.randint(0, n, size=2)
            nb = spins[(i + 1) % n, j] + spins[(i - 1) % n, j] + \
                spins[i, (j + 1) % n] + spins[i, (j - 1) % n]
            dE = 2 * spins[i, j] * nb
            if dE <= 0 or np.random.rand() < np.exp(-beta * dE):
                spins[i, j] *= -1
    return spins, spins.mean()


def spring_chain_modes(n=6, k=1.0, m=1.0):
    K = np.zeros((n, n))
    for i in range(n):
        K[i, i] = 2 * k
        if i > 0:
            K[i, i - 1] = -k
        if i < n - 1:
            K[i, i + 1] = -k
    w2, modes = np.linalg.eigh(K / m)
    freqs = np.sqrt(w2)
    modes = modes * np.sign(modes[0])
    return freqs, modes


def heat_implicit(u0, alpha=0.5, steps=10):
    n = len(u0)
    A = np.eye(n) * (1 + 2 * alpha)
    A -= alpha * np.eye(n, k=1)
    A -= alpha * np.eye(n, k=-1)
    A[0, :] = 0
    A[-1, :] = 0
    A[0, 0] = A[-1, -1] = 1.0
    u = u0.copy()
    for _ in range(steps):
        u = np.linalg.solve(A, u)
    return u


def lotka_volterra(x0, y0, a=1.0, b=0.1, c=1.5, d=0.075, dt=0.01, steps=400):
    x, y = x0, y0
    traj = np.empty((steps, 2))
    for i in range(steps):
        dx = a * x - b * x * y
        dy = d * x * y - c * y
        x += dx * dt
        y += dy * dt
        traj[i] = x, y
    return traj


def particle_in_box(n=40, L=1.0):
    x = np.linspace(0, L, n + 2)[1:-1]
    dx = x[1] - x[0]
    main = np.full(n, 2.0)
    off = np.full(n - 1, -1.0)
    H = (np.diag(main) + np.diag(off, 1) + np.diag(off, -1)) / (2 * dx ** 2)
    E, psi = np.linalg.eigh(H)
    exact = (np.arange(1, 4) * np.pi / L) ** 2 / 2
    return E[:3], exact, np.abs(E[:3] - exact) / exact


def radioactive_chain(N0, lambdas, dt=0.1, steps=100):
    N = np.array(N0, dtype=float)
    history = [N.copy()]
    lam = np.asarray(lambdas)
    for _ in range(steps):
        decays = lam * N * dt
        N -= decays
        N[1:] += decays[:-1]
        history.append(N.copy())
    return np.array(history)


def electric_field_grid(charges, qs, n=9):
    xs = np.linspace(-2, 2, n)
    X, Y = np.meshgrid(xs, xs)
    Ex = np.zeros_like(X)
    Ey = np.zeros_like(Y)
    for (cx, cy), q in zip(charges, qs):
        dx = X - cx
        dy = Y - cy
        r3 = (dx ** 2 + dy ** 2 + 0.01) ** 1.5
        Ex += q * dx / r3
        Ey += q * dy / r3
    return Ex, Ey, np.hypot(Ex, Ey).max()


def bouncing_ball(h0=10.0, e=0.8, dt=0.01, t_max=5.0, g=9.81):
    y, v, t = h0, 0.0, 0.0
    bounces = 0
    while t < t_max:
        v -= g * dt
        y += v * dt
        if y < 0:
            y = -y
            v = -v * e
            bounces += 1
        t += dt
    return y, bounces


# ----------------------------------------------------------------------------
# Signal processing
# ----------------------------------------------------------------------------

def zero_crossing_rate(x):
    s = np.sign(x)
    s[s == 0] = 1
    crossings = np.where(np.diff(s))[0]
    return crossings, len(crossings) / len(x)


def dft_matrix(x):
    N = len(x)
    n = np.arange(N)
    k = n.reshape((N, 1))
    M = np.exp(-2j * np.pi * k * n / N)
    X = M @ x
    return X, np.allclose(X, np.fft.fft(x))


def power_spectrum(x, fs):
    X = np.fft.rfft(x * np.hanning(len(x)))
    f = np.fft.rfftfreq(len(x), d=1 / fs)
    P = np.abs(X) ** 2 / len(x)
    top = np.argsort(P)[-3:][::-1]
    return f[top], P[top]


def stft_frames(x, frame=16, hop=8):
    win = np.hanning(frame)
    frames = []
    for start in range(0, len(x) - frame + 1, hop):
        seg = x[start:start + frame] * win
        frames.append(np.abs(np.fft.rfft(seg)))
    return np.array(frames).T


def xcorr_lag(a, b):
    c = np.correlate(a - a.mean(), b - b.mean(), mode="full")
    lag = np.argmax(c) - (len(b) - 1)
    return lag, c.max() / (np.std(a) * np.std(b) * len(a))


def iir_lowpass(x, alpha=0.2):
    y = np.zeros_like(x)
    y[0] = alpha * x[0]
    for n in range(1, len(x)):
        y[n] = alpha * x[n] + (1 - alpha) * y[n - 1]
    return y


def hilbert_envelope(x):
    N = len(x)
    Xf = np.fft.fft(x)
    h = np.zeros(N)
    h[0] = 1
    if N % 2 == 0:
        h[N // 2] = 1
        h[1:N // 2] = 2
    else:
        h[1:(N + 1) // 2] = 2
    analytic = np.fft.ifft(Xf * h)
    return np.abs(analytic), np.unwrap(np.angle(analytic))


def decimate_mean(x, factor=4):
    n = len(x) // factor * factor
    return x[:n].reshape(-1, factor).mean(axis=1)


def quantize_int16(x):
    scaled = np.round(x / np.max(np.abs(x)) * 32767)
    q = np.clip(scaled, -32768, 32767).astype(np.int16)
    back = q.astype(np.float32) / 32767
    return q, back, np.abs(back - x / np.max(np.abs(x))).max()


def adc_to_volts(raw, vref=5.0):
    # 16-bit ADC counts as float32: remove mid-scale and the measured DC offset
    centered = (raw - 32768.0) + 0.37
    volts = centered * (vref / 32768.0)
    return volts, volts.mean()


def fir_design_apply(x, numtaps=9, cutoff=0.2):
    n = np.arange(numtaps) - (numtaps - 1) / 2
    h = 2 * cutoff * np.sinc(2 * cutoff * n)
    h *= np.hamming(numtaps)
    h /= h.sum()
    return np.convolve(x, h, mode="same"), h


# ----------------------------------------------------------------------------
# Image processing
# ----------------------------------------------------------------------------

def bilinear_resize(img, new_h, new_w):
    h, w = img.shape
    out = np.zeros((new_h, new_w))
    for i in range(new_h):
        for j in range(new_w):
            y = i * (h - 1) / (new_h - 1)
            x = j * (w - 1) / (new_w - 1)
            y0, x0 = int(np.floor(y)), int(np.floor(x))
            y1, x1 = min(y0 + 1, h - 1), min(x0 + 1, w - 1)
            dy, dx = y - y0, x - x0
            out[i, j] = (img[y0, x0] * (1 - dx) * (1 - dy) + img[y0, x1] * dx * (1 - dy)
                         + img[y1, x0] * (1 - dx) * dy + img[y1, x1] * dx * dy)
    return out


def integral_image_boxes(img, boxes):
    ii = np.pad(img.cumsum(axis=0).cumsum(axis=1), ((1, 0), (1, 0)))
    sums = []
    for r0, c0, r1, c1 in boxes:
        sums.append(ii[r1, c1] - ii[r0, c1] - ii[r1, c0] + ii[r0, c0])
    return np.array(sums)


def otsu_threshold(img):
    hist, _ = np.histogram(img.ravel(), bins=256, range=(0, 256))
    total = img.size
    sum_total = np.dot(np.arange(256), hist)
    sum_b, w_b = 0.0, 0
    best, thresh = 0.0, 0
    for t in range(256):
        w_b += hist[t]
        if w_b == 0:
            continue
        w_f = total - w_b
        if w_f == 0:
            break
        sum_b += t * hist[t]
        m_b = sum_b / w_b
        m_f = (sum_total - sum_b) / w_f
        between = w_b * w_f * (m_b - m_f) ** 2
        if between > best:
            best = between
            thresh = t
    return thresh, (img > thresh).astype(np.uint8)


def connected_components(binary):
    h, w = binary.shape
    labels = np.zeros((h, w), dtype=int)
    current = 0
    for i in range(h):
        for j in range(w):
            if binary[i, j] and labels[i, j] == 0:
                current += 1
                stack = [(i, j)]
                while stack:
                    y, x = stack.pop()
                    if y < 0 or y >= h or x < 0 or x >= w:
                        continue
                    if not binary[y, x] or labels[y, x] != 0:
                        continue
                    labels[y, x] = current
                    stack.extend([(y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)])
    return labels, current


def max_pool_2x2(x):
    h, w = x.shape
    return x[:h // 2 * 2, :w // 2 * 2].reshape(h // 2, 2, w // 2, 2).max(axis=(1, 3))


def median_filter_2d(img, k=3):
    p = k // 2
    padded = np.pad(img, p, mode="edge")
    out = np.empty_like(img)
    for i in range(img.shape[0]):
        for j in range(img.shape[1]):
            out[i, j] = np.median(padded[i:i + k, j:j + k])
    return out


def gamma_lut(img, gamma=2.2):
    lut = np.array([((i / 255.0) ** (1.0 / gamma)) * 255 for i in range(256)]).astype("uint8")
    return lut[img]


def binary_morphology(mask):
    p = np.pad(mask, 1, mode="constant", constant_values=False)
    shifts = [p[1 + di:p.shape[0] - 1 + di, 1 + dj:p.shape[1] - 1 + dj]
              for di in (-1, 0, 1) for dj in (-1, 0, 1)]
    dilated = np.logical_or.reduce(shifts)
    eroded = np.logical_and.reduce(shifts)
    return dilated, eroded, dilated & ~eroded


def rgb_to_hsv(rgb):
    rgb = rgb.astype(float) / 255.0
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    mx = rgb.max(axis=-1)
    mn = rgb.min(axis=-1)
    diff = mx - mn
    h = np.zeros_like(mx)
    safe = np.where(diff == 0, 1, diff)
    h = np.where(mx == r, (g - b) / safe % 6, h)
    h = np.where(mx == g, (b - r) / safe + 2, h)
    h = np.where(mx == b, (r - g) / safe + 4, h)
    h = np.where(diff == 0, 0, h) * 60
    s = np.where(mx == 0, 0, diff / np.where(mx == 0, 1, mx))
    return np.stack([h, s, mx], axis=-1)


def image_moments(img):
    ys, xs = np.mgrid[:img.shape[0], :img.shape[1]]
    m00 = img.sum()
    cx = (xs * img).sum() / m00
    cy = (ys * img).sum() / m00
    mu20 = ((xs - cx) ** 2 * img).sum() / m00
    mu02 = ((ys - cy) ** 2 * img).sum() / m00
    mu11 = ((xs - cx) * (ys - cy) * img).sum() / m00
    angle = 0.5 * np.arctan2(2 * mu11, mu20 - mu02)
    return (cx, cy), np.degrees(angle)


# ----------------------------------------------------------------------------
# Graphs on adjacency matrices
# ----------------------------------------------------------------------------

def bfs_distances(adj, source):
    n = len(adj)
    dist = [-1] * n
    dist[source] = 0
    queue = [source]
    while queue:
        u = queue.pop(0)
        for v in np.nonzero(adj[u])[0]:
            if dist[v] == -1:
                dist[v] = dist[u] + 1
                queue.append(v)
    return np.array(dist)


def dijkstra_dense(W, source):
    n = W.shape[0]
    dist = np.full(n, np.inf)
    dist[source] = 0
    visited = np.zeros(n, dtype=bool)
    prev = -np.ones(n, dtype=int)
    for _ in range(n):
        d = np.where(visited, np.inf, dist)
        u = np.argmin(d)
        if np.isinf(d[u]):
            break
        visited[u] = True
        for v in range(n):
            if W[u, v] > 0 and not visited[v]:
                alt = dist[u] + W[u, v]
                if alt < dist[v]:
                    dist[v] = alt
                    prev[v] = u
    return dist, prev


def pagerank(A, d=0.85, tol=1e-10, max_iter=200):
    n = A.shape[0]
    out_deg = A.sum(axis=1)
    M = np.zeros((n, n))
    for i in range(n):
        if out_deg[i] == 0:
            M[:, i] = 1.0 / n
        else:
            M[:, i] = A[i] / out_deg[i]
    r = np.ones(n) / n
    for it in range(max_iter):
        r_new = (1 - d) / n + d * M @ r
        if np.abs(r_new - r).sum() < tol:
            return r_new, it
        r = r_new
    return r, max_iter


def graph_summary(A):
    deg = A.sum(axis=1)
    triangles = int(np.trace(A @ A @ A) // 6)
    density = A.sum() / (len(A) * (len(A) - 1))
    isolated = np.flatnonzero(deg == 0)
    return {"degrees": deg, "triangles": triangles, "density": density, "isolated": isolated}


def prim_mst(W):
    n = W.shape[0]
    in_tree = np.zeros(n, dtype=bool)
    in_tree[0] = True
    edges = []
    total = 0.0
    while in_tree.sum() < n:
        best = (np.inf, -1, -1)
        for i in np.where(in_tree)[0]:
            for j in np.where(~in_tree)[0]:
                if 0 < W[i, j] < best[0]:
                    best = (W[i, j], i, j)
        w, i, j = best
        if j == -1:
            break
        in_tree[j] = True
        edges.append((int(i), int(j)))
        total += w
    return total, edges


def transitive_closure(A):
    reach = A.astype(bool) | np.eye(len(A), dtype=bool)
    for k in range(len(A)):
        reach = reach | (reach[:, k:k + 1] & reach[k:k + 1, :])
    return reach


def spectral_components(A):
    D = np.diag(A.sum(axis=1))
    L = D - A
    w, v = np.linalg.eigh(L)
    n_comp = int(np.sum(w < 1e-9))
    fiedler = v[:, 1] if len(w) > 1 else None
    return n_comp, np.round(w, 8), np.sign(fiedler * np.sign(fiedler[0]))


def topo_sort(A):
    n = A.shape[0]
    indeg = A.sum(axis=0).astype(int)
    order = []
    ready = [i for i in range(n) if indeg[i] == 0]
    while ready:
        u = ready.pop(0)
        order.append(u)
        for v in range(n):
            if A[u, v]:
                indeg[v] -= 1
                if indeg[v] == 0:
                    ready.append(v)
    if len(order) != n:
        return None
    return order


# ----------------------------------------------------------------------------
# Dynamic programming over arrays
# ----------------------------------------------------------------------------

def edit_distance_seq(a, b):
    n, m = len(a), len(b)
    D = np.zeros((n + 1, m + 1), dtype=int)
    D[:, 0] = np.arange(n + 1)
    D[0, :] = np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            D[i, j] = min(D[i - 1, j] + 1, D[i, j - 1] + 1, D[i - 1, j - 1] + cost)
    return D[n, m]


def lis_length(x):
    n = len(x)
    dp = np.ones(n, dtype=int)
    for i in range(1, n):
        for j in range(i):
            if x[j] < x[i] and dp[j] + 1 > dp[i]:
                dp[i] = dp[j] + 1
    return dp.max(), dp


def knapsack(weights, values, capacity):
    dp = np.zeros(capacity + 1)
    for i in range(len(weights)):
        w = weights[i]
        for c in range(capacity, w - 1, -1):
            dp[c] = max(dp[c], dp[c - w] + values[i])
    return dp[capacity]


def coin_change_ways(coins, amount):
    ways = np.zeros(amount + 1, dtype=np.int64)
    ways[0] = 1
    for c in coins:
        for a in range(c, amount + 1):
            ways[a] += ways[a - c]
    return ways[amount]


def kadane(x):
    best = cur = x[0]
    start = best_start = best_end = 0
    for i in range(1, len(x)):
        if cur + x[i] < x[i]:
            cur = x[i]
            start = i
        else:
            cur += x[i]
        if cur > best:
            best = cur
            best_start, best_end = start, i
    return best, x[best_start:best_end + 1]


def lcs_length(a, b):
    L = np.zeros((len(a) + 1, len(b) + 1), dtype=np.int32)
    for i in range(len(a)):
        for j in range(len(b)):
            if a[i] == b[j]:
                L[i + 1, j + 1] = L[i, j] + 1
            else:
                L[i + 1, j + 1] = max(L[i, j + 1], L[i + 1, j])
    return L[-1, -1]


def min_path_sum(grid):
    g = grid.astype(float).copy()
    rows, cols = g.shape
    g[0, :] = np.cumsum(g[0, :])
    g[:, 0] = np.cumsum(g[:, 0])
    for i in range(1, rows):
        for j in range(1, cols):
            g[i, j] += min(g[i - 1, j], g[i, j - 1])
    return g[-1, -1]


def rod_cutting(prices, n):
    r = np.zeros(n + 1)
    cut = np.zeros(n + 1, dtype=int)
    for j in range(1, n + 1):
        q = -np.inf
        for i in range(1, j + 1):
            if prices[i - 1] + r[j - i] > q:
                q = prices[i - 1] + r[j - i]
                cut[j] = i
        r[j] = q
    pieces = []
    while n > 0:
        pieces.append(int(cut[n]))
        n -= cut[n]
    return r, pieces


# ----------------------------------------------------------------------------
# Games and cellular automata
# ----------------------------------------------------------------------------

def langtons_ant(n=11, steps=200):
    grid = np.zeros((n, n), dtype=np.int8)
    y, x = n // 2, n // 2
    dy, dx = -1, 0
    for _ in range(steps):
        if grid[y, x] == 0:
            dy, dx = dx, -dy      # turn right
        else:
            dy, dx = -dx, dy      # turn left
        grid[y, x] ^= 1
        y = (y + dy) % n
        x = (x + dx) % n
    return grid, (y, x)


def sandpile(grid):
    g = grid.copy()
    topples = 0
    while np.any(g >= 4):
        over = g >= 4
        topples += int(over.sum())
        g[over] -= 4
        g[1:, :] += over[:-1, :]
        g[:-1, :] += over[1:, :]
        g[:, 1:] += over[:, :-1]
        g[:, :-1] += over[:, 1:]
    return g, topples


def tictactoe_winner(board):
    lines = list(board) + list(board.T) + [np.diag(board), np.diag(np.fliplr(board))]
    for line in lines:
        s = line.sum()
        if s == 3:
            return 1
        if s == -3:
            return -1
    if np.all(board != 0):
        return 0
    return None


def elementary_ca(rule, width=31, steps=15):
    bits = np.array([(rule >> i) & 1 for i in range(8)], dtype=np.uint8)
    row = np.zeros(width, dtype=np.uint8)
    row[width // 2] = 1
    rows = [row]
    for _ in range(steps):
        left = np.roll(row, 1)
        right = np.roll(row, -1)
        idx = 4 * left + 2 * row + right
        row = bits[idx]
        rows.append(row)
    return np.array(rows)


def move_2048_left(board):
    new = np.zeros_like(board)
    score = 0
    for r in range(board.shape[0]):
        tiles = [v for v in board[r] if v != 0]
        merged = []
        i = 0
        while i < len(tiles):
            if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
                merged.append(tiles[i] * 2)
                score += tiles[i] * 2
                i += 2
            else:
                merged.append(tiles[i])
                i += 1
        new[r, :len(merged)] = merged
    return new, score


def minesweeper_counts(mines):
    m = mines.astype(int)
    p = np.pad(m, 1)
    counts = sum(p[1 + di:1 + di + m.shape[0], 1 + dj:1 + dj + m.shape[1]]
                 for di in (-1, 0, 1) for dj in (-1, 0, 1) if (di, dj) != (0, 0))
    counts[mines.astype(bool)] = -1
    return counts


def sudoku_valid(grid):
    for i in range(9):
        row = grid[i, :]
        col = grid[:, i]
        if len(np.unique(row)) != 9 or len(np.unique(col)) != 9:
            return False
    for bi in range(0, 9, 3):
        for bj in range(0, 9, 3):
            if len(set(grid[bi:bi + 3, bj:bj + 3].ravel().tolist())) != 9:
                return False
    return True


def connect_four_winner(board):
    rows, cols = board.shape
    for player in (1, 2):
        b = board == player
        # horizontal, vertical, two diagonals
        if np.any(b[:, :-3] & b[:, 1:-2] & b[:, 2:-1] & b[:, 3:]):
            return player
        if np.any(b[:-3, :] & b[1:-2, :] & b[2:-1, :] & b[3:, :]):
            return player
        if np.any(b[:-3, :-3] & b[1:-2, 1:-2] & b[2:-1, 2:-1] & b[3:, 3:]):
            return player
        if np.any(b[3:, :-3] & b[2:-1, 1:-2] & b[1:-2, 2:-1] & b[:-3, 3:]):
            return player
    return 0


def brians_brain(state, steps=6):
    # 0 off, 1 on, 2 dying
    s = state.copy()
    for _ in range(steps):
        on = (s == 1).astype(int)
        nbrs = sum(np.roll(np.roll(on, i, 0), j, 1)
                   for i in (-1, 0, 1) for j in (-1, 0, 1) if i or j)
        new = np.zeros_like(s)
        new[(s == 0) & (nbrs == 2)] = 1
        new[s == 1] = 2
        s = new
    return s


# ----------------------------------------------------------------------------
# Geometry
# ----------------------------------------------------------------------------

def polygon_area_centroid(pts):
    x, y = pts[:, 0], pts[:, 1]
    x1, y1 = np.roll(x, -1), np.roll(y, -1)
    cross = x * y1 - x1 * y
    A = 0.5 * cross.sum()
    cx = ((x + x1) * cross).sum() / (6 * A)
    cy = ((y + y1) * cross).sum() / (6 * A)
    return abs(A), np.array([cx, cy])


def point_in_polygon(point, poly):
    x, y = point
    n = len(poly)
    inside = False
    j = n - 1
    for i in range(n):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def convex_hull(points):
    pts = points[np.lexsort((points[:, 1], points[:, 0]))]

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper = []
    for p in pts[::-1]:
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return np.array(lower[:-1] + upper[:-1])


def rodrigues_rotate(v, axis, angle):
    k = axis / np.linalg.norm(axis)
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    R = np.eye(3) + np.sin(angle) * K + (1 - np.cos(angle)) * K @ K
    return v @ R.T, np.linalg.det(R)


def point_segment_distance(P, A, B):
    AB = B - A
    t = np.clip(((P - A) @ AB) / (AB @ AB), 0, 1)
    closest = A + t[:, None] * AB
    return np.linalg.norm(P - closest, axis=1), t


def mesh_triangle_areas(vertices, faces):
    v0 = vertices[faces[:, 0]]
    v1 = vertices[faces[:, 1]]
    v2 = vertices[faces[:, 2]]
    normals = np.cross(v1 - v0, v2 - v0)
    areas = 0.5 * np.linalg.norm(normals, axis=1)
    unit = normals / areas[:, None] / 2
    return areas, unit, areas.sum()


def angles_between(U, V):
    cos = np.einsum("ij,ij->i", U, V) / (np.linalg.norm(U, axis=1) * np.linalg.norm(V, axis=1))
    return np.degrees(np.arccos(np.clip(cos, -1.0, 1.0)))


def box_iou(boxes_a, boxes_b):
    x1 = np.maximum(boxes_a[:, None, 0], boxes_b[None, :, 0])
    y1 = np.maximum(boxes_a[:, None, 1], boxes_b[None, :, 1])
    x2 = np.minimum(boxes_a[:, None, 2], boxes_b[None, :, 2])
    y2 = np.minimum(boxes_a[:, None, 3], boxes_b[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area_a = (boxes_a[:, 2] - boxes_a[:, 0]) * (boxes_a[:, 3] - boxes_a[:, 1])
    area_b = (boxes_b[:, 2] - boxes_b[:, 0]) * (boxes_b[:, 3] - boxes_b[:, 1])
    return inter / (area_a[:, None] + area_b[None, :] - inter)


def non_max_suppression(boxes, scores, iou_thresh=0.5):
    x1, y1, x2, y2 = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    areas = (x2 - x1) * (y2 - y1)
    order = scores.argsort()[::-1]
    keep = []
    while order.size > 0:
        i = order[0]
        keep.append(i)
        xx1 = np.maximum(x1[i], x1[order[1:]])
        yy1 = np.maximum(y1[i], y1[order[1:]])
        xx2 = np.minimum(x2[i], x2[order[1:]])
        yy2 = np.minimum(y2[i], y2[order[1:]])
        w = np.maximum(0.0, xx2 - xx1)
        h = np.maximum(0.0, yy2 - yy1)
        inter = w * h
        ovr = inter / (areas[i] + areas[order[1:]] - inter)
        inds = np.where(ovr <= iou_thresh)[0]
        order = order[inds + 1]
    return keep


def kabsch(P, Q):
    Pc = P - P.mean(axis=0)
    Qc = Q - Q.mean(axis=0)
    H = Pc.T @ Qc
    U, S, Vt = np.linalg.svd(H)
    d = np.sign(np.linalg.det(Vt.T @ U.T))
    D = np.diag([1.0, 1.0, d])
    R = Vt.T @ D @ U.T
    rmsd = np.sqrt(np.mean(np.sum((Pc @ R.T - Qc) ** 2, axis=1)))
    return R, rmsd


# ----------------------------------------------------------------------------
# Linear algebra
# ----------------------------------------------------------------------------

def cholesky_solve(A, b):
    n = A.shape[0]
    L = np.zeros_like(A)
    for i in range(n):
        for j in range(i + 1):
            s = np.dot(L[i, :j], L[j, :j])
            if i == j:
                L[i, j] = np.sqrt(A[i, i] - s)
            else:
                L[i, j] = (A[i, j] - s) / L[j, j]
    y = np.zeros(n)
    for i in range(n):
        y[i] = (b[i] - L[i, :i] @ y[:i]) / L[i, i]
    x = np.zeros(n)
    for i in reversed(range(n)):
        x[i] = (y[i] - L[i + 1:, i] @ x[i + 1:]) / L[i, i]
    return x, L


def expm_taylor(A, terms=20):
    norm = np.linalg.norm(A, 1)
    s = max(0, int(np.ceil(np.log2(norm))) + 1) if norm > 0 else 0
    As = A / 2 ** s
    E = np.eye(len(A))
    term = np.eye(len(A))
    for k in range(1, terms):
        term = term @ As / k
        E = E + term
    for _ in range(s):
        E = E @ E
    return E


def conjugate_gradient(A, b, tol=1e-10):
    x = np.zeros_like(b)
    r = b - A @ x
    p = r.copy()
    rs_old = r @ r
    k = 0
    while np.sqrt(rs_old) > tol and k < len(b) * 10:
        Ap = A @ p
        alpha = rs_old / (p @ Ap)
        x += alpha * p
        r -= alpha * Ap
        rs_new = r @ r
        p = r + (rs_new / rs_old) * p
        rs_old = rs_new
        k += 1
    return x, k


def det_row_reduction(M):
    A = M.astype(float).copy()
    n = A.shape[0]
    det = 1.0
    for i in range(n):
        p = np.argmax(np.abs(A[i:, i])) + i
        if A[p, i] == 0:
            return 0.0
        if p != i:
            A[[i, p]] = A[[p, i]]
            det = -det
        det *= A[i, i]
        A[i + 1:] -= np.outer(A[i + 1:, i] / A[i, i], A[i])
    return det


def householder_qr(A):
    m, n = A.shape
    Q = np.eye(m)
    R = A.astype(float).copy()
    for j in range(n):
        x = R[j:, j]
        e = np.zeros_like(x)
        e[0] = np.linalg.norm(x) * (-1 if x[0] < 0 else 1)
        v = x + e
        v = v / np.linalg.norm(v)
        R[j:, :] -= 2.0 * np.outer(v, v @ R[j:, :])
        Q[:, j:] -= 2.0 * np.outer(Q[:, j:] @ v, v)
    return Q, R


def poly_roots_companion(coeffs):
    roots = np.roots(coeffs)
    roots = roots[np.argsort(roots.real)]
    return roots, np.polyval(coeffs, roots)


def rlc_impedance(R, L, C, freqs):
    w = 2 * np.pi * freqs
    Z = R + 1j * w * L + 1 / (1j * w * C)
    mag = np.abs(Z)
    phase = np.degrees(np.angle(Z))
    f0 = 1 / (2 * np.pi * np.sqrt(L * C))
    return mag, phase, f0, freqs[np.argmin(mag)]


def markov_stationary(P):
    n = P.shape[0]
    A = np.vstack([P.T - np.eye(n), np.ones(n)])
    b = np.zeros(n + 1)
    b[-1] = 1.0
    pi, *_ = np.linalg.lstsq(A, b, rcond=None)
    return pi


def inverse_check(A):
    Ainv = np.linalg.inv(A)
    cond = np.linalg.norm(A) * np.linalg.norm(Ainv)
    err = np.linalg.norm(A @ Ainv - np.eye(len(A)))
    return Ainv, cond, err < 1e-10


# ----------------------------------------------------------------------------
# Machine learning from scratch
# ----------------------------------------------------------------------------

def softmax_regression(X, y, n_classes, lr=0.5, epochs=100):
    n, d = X.shape
    W = np.zeros((d, n_classes))
    b = np.zeros(n_classes)
    Y = np.eye(n_classes)[y]
    for _ in range(epochs):
        logits = X @ W + b
        logits -= logits.max(axis=1, keepdims=True)
        P = np.exp(logits)
        P /= P.sum(axis=1, keepdims=True)
        W -= lr * X.T @ (P - Y) / n
        b -= lr * (P - Y).mean(axis=0)
    acc = (np.argmax(X @ W + b, axis=1) == y).mean()
    return W, b, acc


def linear_svm_sgd(X, y, lam=0.01, epochs=20, lr=0.1):
    w = np.zeros(X.shape[1])
    b = 0.0
    for epoch in range(epochs):
        for i, x in enumerate(X):
            if y[i] * (np.dot(x, w) + b) < 1:
                w = w - lr * (2 * lam * w - y[i] * x)
                b = b + lr * y[i]
            else:
                w = w - lr * 2 * lam * w
    margins = y * (X @ w + b)
    return w, b, np.sum(margins < 1)


def fisher_lda(X, y):
    X0, X1 = X[y == 0], X[y == 1]
    m0, m1 = X0.mean(axis=0), X1.mean(axis=0)
    Sw = (X0 - m0).T @ (X0 - m0) + (X1 - m1).T @ (X1 - m1)
    w = np.linalg.inv(Sw) @ (m1 - m0)
    w /= np.linalg.norm(w)
    threshold = (m0 + m1) @ w / 2
    pred = (X @ w > threshold).astype(int)
    return w, (pred == y).mean()


def knn_regress_weighted(X_train, y_train, X_test, k=4):
    out = np.zeros(len(X_test))
    for i in range(len(X_test)):
        d = np.linalg.norm(X_train - X_test[i], axis=1)
        nn = np.argsort(d)[:k]
        w = 1.0 / (d[nn] + 1e-8)
        out[i] = np.sum(w * y_train[nn]) / np.sum(w)
    return out


def tfidf(counts):
    tf = counts / counts.sum(axis=1, keepdims=True)
    df = np.count_nonzero(counts, axis=0)
    idf = np.log((1 + counts.shape[0]) / (1 + df)) + 1
    X = tf * idf
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    return X


def recommend_top_k(R, user, k=2):
    norms = np.linalg.norm(R, axis=1)
    sim = R @ R[user] / (norms * norms[user] + 1e-9)
    sim[user] = -1
    neighbours = np.argsort(sim)[::-1][:k]
    scores = sim[neighbours] @ R[neighbours]
    scores[R[user] > 0] = -np.inf
    return np.argsort(-scores)[:2], neighbours


def matrix_factorization(R, k=2, steps=30, lr=0.01, reg=0.02):
    np.random.seed(0)
    n_u, n_i = R.shape
    P = np.random.rand(n_u, k)
    Q = np.random.rand(n_i, k)
    users, items = R.nonzero()
    for _ in range(steps):
        for u, i in zip(users, items):
            e = R[u, i] - P[u] @ Q[i]
            P[u] += lr * (e * Q[i] - reg * P[u])
            Q[i] += lr * (e * P[u] - reg * Q[i])
    return P @ Q.T


def rmsprop_quadratic(A, b, lr=0.05, steps=200, rho=0.9, eps=1e-8):
    x = np.zeros(len(b))
    cache = np.zeros(len(b))
    losses = []
    for _ in range(steps):
        g = A @ x - b
        cache = rho * cache + (1 - rho) * g ** 2
        x -= lr * g / (np.sqrt(cache) + eps)
        losses.append(0.5 * x @ A @ x - b @ x)
    return x, losses[-1]


def label_encode_onehot(labels):
    classes, encoded = np.unique(labels, return_inverse=True)
    onehot = np.zeros((labels.size, classes.size), dtype=np.uint8)
    onehot[np.arange(labels.size), encoded] = 1
    return classes, encoded, onehot


def polynomial_features(X, degree=2):
    n, d = X.shape
    cols = [np.ones(n)]
    for i in range(d):
        cols.append(X[:, i])
    if degree >= 2:
        for i in range(d):
            for j in range(i, d):
                cols.append(X[:, i] * X[:, j])
    return np.column_stack(cols)


def kfold_scores(X, y, k=4):
    n = len(X)
    idx = np.arange(n)
    fold_sizes = np.full(k, n // k, dtype=int)
    fold_sizes[:n % k] += 1
    current = 0
    scores = []
    for fs in fold_sizes:
        test = idx[current:current + fs]
        train = np.concatenate([idx[:current], idx[current + fs:]])
        coef, *_ = np.linalg.lstsq(X[train], y[train], rcond=None)
        pred = X[test] @ coef
        scores.append(np.mean((pred - y[test]) ** 2))
        current += fs
    return np.array(scores), float(np.mean(scores))


def roc_curve_auc(y_true, scores):
    thresholds = np.sort(np.unique(scores))[::-1]
    tpr, fpr = [0.0], [0.0]
    P = np.sum(y_true == 1)
    N = np.sum(y_true == 0)
    for t in thresholds:
        pred = scores >= t
        tpr.append(np.sum(pred & (y_true == 1)) / P)
        fpr.append(np.sum(pred & (y_true == 0)) / N)
    return np.array(fpr), np.array(tpr), np.trapezoid(tpr, fpr)


def mlp_forward_float32(X, W1, b1, W2, b2):
    h = np.maximum(X @ W1 + b1, 0)
    out = h @ W2 + b2
    e = np.exp(out - out.max(axis=1, keepdims=True))
    probs = e / e.sum(axis=1, keepdims=True)
    return probs, probs.dtype


# ----------------------------------------------------------------------------
# Rosetta Code and number puzzles
# ----------------------------------------------------------------------------

def pascal_matrix(n):
    P = np.zeros((n, n), dtype=np.int64)
    P[:, 0] = 1
    for i in range(1, n):
        P[i, 1:] = P[i - 1, 1:] + P[i - 1, :-1]
    return P


def prime_factors(n):
    factors = []
    d = 2
    while d * d <= n:
        while n % d == 0:
            factors.append(d)
            n //= d
        d += 1
    if n > 1:
        factors.append(n)
    return np.array(factors)


def vector_gcd(a, b):
    a = a.copy()
    b = b.copy()
    while np.any(b != 0):
        nz = b != 0
        r = np.zeros_like(a)
        r[nz] = a[nz] % b[nz]
        a[nz] = b[nz]
        b[nz] = r[nz]
    return a


def digit_sums(nums):
    out = []
    for n in nums:
        n = int(n)
        s = 0
        while n > 0:
            s += n % 10
            n //= 10
        out.append(s)
    return np.array(out)


def magic_square_odd(n):
    M = np.zeros((n, n), dtype=int)
    i, j = 0, n // 2
    for k in range(1, n * n + 1):
        M[i, j] = k
        ni, nj = (i - 1) % n, (j + 1) % n
        if M[ni, nj]:
            ni, nj = (i + 1) % n, j
        i, j = ni, nj
    ok = (len(set(M.sum(axis=0))) == 1 and len(set(M.sum(axis=1))) == 1
          and np.trace(M) == np.trace(np.fliplr(M)) == M.sum(axis=0)[0])
    return M, ok


def happy_numbers(limit=50):
    happy = []
    for n in range(1, limit + 1):
        seen = set()
        x = n
        while x != 1 and x not in seen:
            seen.add(x)
            s = 0
            while x > 0:
                x, d = divmod(x, 10)
                s += d * d
            x = s
        if x == 1:
            happy.append(n)
    return np.array(happy)


def julia_set(c=-0.8 + 0.156j, n=24, max_iter=30):
    x = np.linspace(-1.5, 1.5, n)
    y = np.linspace(-1.0, 1.0, n)
    Z = x[None, :] + 1j * y[:, None]
    counts = np.zeros(Z.shape, dtype=int)
    alive = np.ones(Z.shape, dtype=bool)
    for i in range(max_iter):
        Z[alive] = Z[alive] ** 2 + c
        escaped = np.abs(Z) > 2
        counts[alive & escaped] = i
        alive &= ~escaped
    counts[alive] = max_iter
    return counts


def newton_fractal(n=16, iters=20):
    roots = np.array([1, -0.5 + np.sqrt(3) / 2 * 1j, -0.5 - np.sqrt(3) / 2 * 1j])
    xs = np.linspace(-1.5, 1.5, n)
    Z = xs[None, :] + 1j * xs[:, None]
    Z = Z + 1e-3  # keep away from the origin
    for _ in range(iters):
        Z = Z - (Z ** 3 - 1) / (3 * Z ** 2)
    which = np.argmin(np.abs(Z[..., None] - roots), axis=-1)
    return which


def markov_chain_walk(P, start=0, steps=60, seed=3):
    rng = np.random.default_rng(seed)
    state = start
    visits = np.zeros(len(P), dtype=int)
    path = [state]
    for _ in range(steps):
        state = rng.choice(len(P), p=P[state])
        visits[state] += 1
        path.append(state)
    return np.array(path), visits / steps


def mc_integrate(n=500):
    np.random.seed(7)
    x = np.random.uniform(0, np.pi, n)
    vals = np.sin(x)
    est = np.pi * vals.mean()
    err = np.pi * vals.std(ddof=1) / np.sqrt(n)
    return est, err


def add_at_histogram(idx, weights, n):
    h = np.zeros(n)
    np.add.at(h, idx, weights)
    counts = np.bincount(idx, minlength=n)
    return h, counts, h / np.maximum(counts, 1)


def uint8_arithmetic(a, b):
    wrapped = a + b
    widened = a.astype(np.int16) + b
    saturated = np.clip(widened, 0, 255).astype(np.uint8)
    diff = np.abs(a.astype(int) - b.astype(int))
    total = a.sum()
    return wrapped, saturated, diff, total, total.dtype


def int_small_types(x):
    y = x.astype(np.int8)
    s = y.sum()
    m = y * 3
    c = np.cumsum(y)
    return s, m, c, y.mean(), s.dtype, c.dtype


def scalar_edge_cases(x0, empty):
    v = x0.item()
    f = float(x0) * 2
    e_sum = empty.sum()
    e_max = np.max(empty, initial=-np.inf)
    e_len = len(empty)
    zero_d = np.asarray(x0) + 1
    return v, f, e_sum, e_max, e_len, zero_d, zero_d.ndim


def numpy100_set(Z):
    out = {}
    out["nonzero"] = np.nonzero(np.array([1, 2, 0, 0, 4, 0]))[0]
    out["row_centered"] = Z - Z.mean(axis=1, keepdims=True)
    S = Z.copy()
    S[[0, 1]] = S[[1, 0]]
    out["swapped"] = S
    out["int_parts"] = (np.floor(Z * 10), np.trunc(Z * 10), (Z * 10).astype(int))
    out["argmax_2d"] = np.unravel_index(np.argmax(Z), Z.shape)
    out["diag_below"] = np.diag(1 + np.arange(4), k=-1)
    out["sorted_by_col"] = Z[Z[:, 1].argsort()]
    out["any_nan_col"] = (~Z.any(axis=0)).any()
    out["clipped_neg"] = np.where(Z > 0.5, Z, -Z)
    return out


def numpy100_more(Z, v):
    out = []
    out.append(Z[np.abs(Z - v).argmin()])
    A = np.arange(25).reshape(5, 5)
    A[[0, 1]] = A[[1, 0]]
    out.append(A)
    out.append(np.add.reduce(np.arange(10)))
    out.append(np.bincount(np.array([1, 1, 2, 3, 4, 4, 6])).argmax())
    X = np.ones((5, 5))
    X[1:-1, 1:-1] = 0
    out.append(X)
    out.append(np.tile(np.array([[0, 1], [1, 0]]), (2, 2)))
    out.append(np.cumsum(np.arange(6)).reshape(2, 3).T)
    out.append(np.diff(np.sort(Z))[-3:])
    return tuple(out)


def sliding_window_stats(x, w=4):
    windows = np.lib.stride_tricks.sliding_window_view(x, w)
    return windows.mean(axis=1), windows.max(axis=1) - windows.min(axis=1)


def meshgrid_gaussian_fit(n=15):
    x = np.linspace(-3, 3, n)
    X, Y = np.meshgrid(x, x, indexing="ij")
    Z = np.exp(-((X - 0.5) ** 2 + (Y + 1.0) ** 2) / 2)
    total = Z.sum()
    mx = (X * Z).sum() / total
    my = (Y * Z).sum() / total
    i, j = np.unravel_index(Z.argmax(), Z.shape)
    return mx, my, (x[i], x[j])


def complex_phasors(amps, phases_deg):
    z = amps * np.exp(1j * np.radians(phases_deg))
    total = z.sum()
    return total, abs(total), np.degrees(np.angle(total)), np.conj(z) * z


def float32_normalize(X):
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    Z = (X - mu) / sd
    Z[:, sd < 1e-3] = 0
    return Z, Z.dtype, np.float32(1.5) * Z[0]


def tensor_contractions(A, B, v):
    bilinear = np.einsum("i,ij,j->", v, A, v)
    batched = np.einsum("bij,bjk->bik", B, B)
    trace_each = np.einsum("bii->b", B)
    outer_sum = np.einsum("i,j->ij", v, v).sum()
    return bilinear, batched, trace_each, outer_sum


def empty_safe_stats(x):
    pos = x[x > 0]
    if pos.size == 0:
        return 0.0, 0, np.array([])
    return pos.mean(), pos.size, np.sort(pos)[::-1]


# ----------------------------------------------------------------------------
# Cases
# ----------------------------------------------------------------------------

def _rng(s=0):
    return np.random.default_rng(s)


def _prices(n=40, seed=0):
    return 100 * np.exp(np.cumsum(_rng(seed).normal(0.001, 0.02, n)))


def _graph(seed=5, n=7, p=0.4):
    r = _rng(seed)
    A = (r.random((n, n)) < p).astype(int)
    A = np.triu(A, 1)
    A = A + A.T
    return A


def _weighted_graph():
    r = _rng(6)
    W = np.round(r.uniform(1, 9, (6, 6)), 1) * (r.random((6, 6)) < 0.6)
    W = np.triu(W, 1)
    return W + W.T


def _dag():
    A = np.zeros((6, 6), dtype=int)
    for u, v in [(0, 2), (1, 2), (2, 3), (3, 4), (1, 4), (5, 0)]:
        A[u, v] = 1
    return A


def _boxes():
    boxes = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30],
                      [21, 19, 29, 31], [5, 5, 15, 15], [50, 50, 60, 55]], dtype=float)
    scores = np.array([0.9, 0.8, 0.75, 0.95, 0.3, 0.6])
    return boxes, scores


def _sudoku():
    base = 3
    side = base * base
    pattern = lambda r, c: (base * (r % base) + r // base + c) % side  # noqa: E731
    return np.array([[pattern(r, c) + 1 for c in range(side)] for r in range(side)])


def _mlp32():
    r = _rng(40)
    f = np.float32
    return (r.normal(size=(6, 4)).astype(f), r.normal(size=(4, 5)).astype(f),
            np.zeros(5, f), r.normal(size=(5, 3)).astype(f), np.zeros(3, f))


def _blobs2(n=30, seed=41):
    r = _rng(seed)
    y = np.repeat([0, 1], n // 2)
    X = r.normal(size=(n, 2)) + np.where(y[:, None] == 1, 2.0, -1.0)
    return X, y


def _nbody():
    r = _rng(42)
    return (r.normal(size=(4, 2)), r.normal(size=(4, 2)) * 0.1, r.uniform(0.5, 1.5, 4))


def _spd(n=5, seed=43):
    M = _rng(seed).normal(size=(n, n))
    return M @ M.T + n * np.eye(n)


def _signal(n=64):
    t = np.arange(n) / 64.0
    return np.sin(2 * np.pi * 4 * t) + 0.4 * np.sin(2 * np.pi * 13 * t) + 0.1 * _rng(44).normal(size=n)


CASES = [
    # statistics
    ("spearman_rho", spearman_rho, lambda: (_rng(1).normal(size=20), _rng(2).normal(size=20)), {}),
    ("welch_t_test", welch_t_test, lambda: (_rng(3).normal(0, 1, 15), _rng(4).normal(0.5, 2, 22)), {}),
    ("chi_square_independence", chi_square_independence,
     lambda: ([[20, 15, 30], [25, 10, 40]],), {}),
    ("weighted_median", weighted_median, lambda: (_rng(5).normal(size=15), _rng(6).uniform(0.1, 2, 15)), {}),
    ("mode_smallest", mode_smallest, lambda: (np.array([4, 1, 2, 2, 4, 7, 1, 4, 2]),), {}),
    ("percentile_summary", percentile_summary, lambda: (_rng(7).exponential(size=50),), {}),
    ("mad_outliers", mad_outliers, lambda: (np.r_[_rng(8).normal(size=30), 9.0, -7.5],), {}),
    ("ecdf", ecdf, lambda: (_rng(9).normal(size=12),), {}),
    ("covariance_loops", covariance_loops, lambda: (_rng(10).normal(size=(12, 3)),), {}),
    ("simple_regression_stats", simple_regression_stats,
     lambda: (np.arange(15.0), 3 * np.arange(15.0) - 2 + _rng(11).normal(size=15)), {}),
    ("binned_means", binned_means, lambda: (_rng(12).uniform(0, 10, 40), _rng(13).normal(size=40)), {}),
    ("density_histogram", density_histogram, lambda: (_rng(14).normal(size=60),), {}),
    ("permutation_test", permutation_test,
     lambda: (_rng(15).normal(0, 1, 12), _rng(16).normal(0.8, 1, 12)), {"rand": True}),
    # finance
    ("npv", npv, lambda: (0.08, np.array([-1000.0, 300, 400, 500, 200])), {}),
    ("irr_bisection", irr_bisection, lambda: (np.array([-1000.0, 300, 400, 500, 200]),), {}),
    ("amortization_schedule", amortization_schedule, lambda: (10000.0, 0.06, 2), {}),
    ("sharpe_sortino", sharpe_sortino, lambda: (_prices(),), {}),
    ("bollinger_bands", bollinger_bands, lambda: (_prices(20, 1),), {}),
    ("rsi", rsi, lambda: (_prices(30, 2),), {}),
    ("macd", macd, lambda: (_prices(40, 3),), {}),
    ("min_variance_portfolio", min_variance_portfolio, lambda: (_rng(17).normal(0.001, 0.02, (60, 4)),), {}),
    ("black_scholes", black_scholes,
     lambda: (np.array([90.0, 100.0, 110.0]), 100.0, 0.5, 0.03, 0.25), {}),
    ("drawdown_periods", drawdown_periods, lambda: (np.array([10, 11, 9, 8, 12, 12, 10, 13, 11.0]),), {}),
    ("gbm_paths", gbm_paths, lambda: (), {"rand": True}),
    ("cobweb_market", cobweb_market, lambda: (3.0,), {}),
    ("gini_coefficient", gini_coefficient, lambda: (_rng(18).lognormal(size=25),), {}),
    # physics
    ("projectile_drag", projectile_drag, lambda: (20.0, 45.0), {}),
    ("leapfrog_nbody", leapfrog_nbody, _nbody, {}),
    ("pendulum_verlet", pendulum_verlet, lambda: (0.5,), {}),
    ("ising_metropolis", ising_metropolis, lambda: (), {"rand": True}),
    ("spring_chain_modes", spring_chain_modes, lambda: (), {}),
    ("heat_implicit", heat_implicit, lambda: (np.sin(np.linspace(0, np.pi, 12)) ** 2,), {}),
    ("lotka_volterra", lotka_volterra, lambda: (10.0, 5.0), {}),
    ("particle_in_box", particle_in_box, lambda: (), {}),
    ("radioactive_chain", radioactive_chain, lambda: ([1000.0, 0.0, 0.0], [0.3, 0.1, 0.0]), {}),
    ("electric_field_grid", electric_field_grid,
     lambda: ([(-0.5, 0.0), (0.5, 0.0)], [1.0, -1.0]), {}),
    ("bouncing_ball", bouncing_ball, lambda: (), {}),
    # signal
    ("zero_crossing_rate", zero_crossing_rate, lambda: (np.r_[_signal(40), 0.0, 0.0],), {}),
    ("dft_matrix", dft_matrix, lambda: (_signal(16),), {}),
    ("power_spectrum", power_spectrum, lambda: (_signal(), 64.0), {}),
    ("stft_frames", stft_frames, lambda: (_signal(),), {}),
    ("xcorr_lag", xcorr_lag, lambda: (_signal(32), np.roll(_signal(32), 3)), {}),
    ("iir_lowpass", iir_lowpass, lambda: (_signal(50),), {}),
    ("hilbert_envelope", hilbert_envelope, lambda: (np.sin(np.linspace(0, 8 * np.pi, 33)) * np.linspace(1, 2, 33),), {}),
    ("decimate_mean", decimate_mean, lambda: (_signal(30),), {}),
    ("quantize_int16", quantize_int16, lambda: (_signal(20),), {}),
    ("adc_to_volts", adc_to_volts,
     lambda: (np.array([32770, 32768, 40000, 1000, 65535, 32700], dtype=np.float32),), {}),
    ("fir_design_apply", fir_design_apply, lambda: (_signal(40),), {}),
    # image
    ("bilinear_resize", bilinear_resize, lambda: (_rng(19).random((4, 5)), 7, 6), {}),
    ("integral_image_boxes", integral_image_boxes,
     lambda: (_rng(20).integers(0, 10, (6, 7)), [(0, 0, 3, 3), (1, 2, 6, 7), (2, 2, 2, 5)]), {}),
    ("otsu_threshold", otsu_threshold,
     lambda: (np.clip(np.r_[_rng(21).normal(60, 10, 50), _rng(22).normal(180, 15, 50)], 0, 255).astype(np.uint8).reshape(10, 10),), {}),
    ("connected_components", connected_components,
     lambda: (_rng(23).random((7, 8)) > 0.55,), {}),
    ("max_pool_2x2", max_pool_2x2, lambda: (_rng(24).normal(size=(7, 6)),), {}),
    ("median_filter_2d", median_filter_2d, lambda: (_rng(25).integers(0, 255, (6, 6)).astype(np.uint8),), {}),
    ("gamma_lut", gamma_lut, lambda: (_rng(26).integers(0, 256, (5, 5)).astype(np.uint8),), {}),
    ("binary_morphology", binary_morphology, lambda: (_rng(27).random((6, 7)) > 0.6,), {}),
    ("rgb_to_hsv", rgb_to_hsv,
     lambda: (np.r_[_rng(28).integers(0, 256, (11, 3)), [[0, 0, 0], [255, 255, 255], [10, 10, 200]]].reshape(2, 7, 3).astype(np.uint8),), {}),
    ("image_moments", image_moments,
     lambda: (np.exp(-((np.arange(9)[:, None] - 3.0) ** 2 + (np.arange(11)[None, :] - 6.0) ** 2 / 3) / 4),), {}),
    # graphs
    ("bfs_distances", bfs_distances, lambda: (_graph(), 0), {}),
    ("dijkstra_dense", dijkstra_dense, lambda: (_weighted_graph(), 0), {}),
    ("pagerank", pagerank, lambda: ((_rng(29).random((6, 6)) < 0.4).astype(float) * (1 - np.eye(6)),), {}),
    ("graph_summary", graph_summary, lambda: (_graph(7, 8, 0.35),), {}),
    ("prim_mst", prim_mst, lambda: (_weighted_graph(),), {}),
    ("transitive_closure", transitive_closure, lambda: (_dag(),), {}),
    ("spectral_components", spectral_components,
     lambda: (np.maximum(_graph(8, 8, 0.3), np.roll(np.eye(8), 1, 1) + np.roll(np.eye(8), -1, 1)),), {}),
    ("topo_sort", topo_sort, lambda: (_dag(),), {}),
    # dynamic programming
    ("edit_distance_seq", edit_distance_seq,
     lambda: (np.array([1, 2, 3, 4, 5, 6]), np.array([1, 3, 4, 7, 5, 6, 8])), {}),
    ("lis_length", lis_length, lambda: (np.array([10, 9, 2, 5, 3, 7, 101, 18, 4, 20]),), {}),
    ("knapsack", knapsack, lambda: (np.array([1, 3, 4, 5]), np.array([1.0, 4.0, 5.0, 7.0]), 7), {}),
    ("coin_change_ways", coin_change_ways, lambda: ([1, 2, 5], 11), {}),
    ("kadane", kadane, lambda: (np.array([-2, 1, -3, 4, -1, 2, 1, -5, 4]),), {}),
    ("lcs_length", lcs_length, lambda: (np.array([1, 3, 4, 1, 2, 1, 3]), np.array([3, 4, 1, 2, 1, 3, 1])), {}),
    ("min_path_sum", min_path_sum, lambda: (_rng(30).integers(1, 9, (5, 6)),), {}),
    ("rod_cutting", rod_cutting, lambda: (np.array([1.0, 5, 8, 9, 10, 17, 17, 20]), 8), {}),
    # games / automata
    ("langtons_ant", langtons_ant, lambda: (), {}),
    ("sandpile", sandpile, lambda: (np.pad(np.array([[12]]), 3),), {}),
    ("tictactoe_winner", tictactoe_winner, lambda: (np.array([[1, -1, 0], [-1, 1, 0], [0, -1, 1]]),), {}),
    ("tictactoe_draw", tictactoe_winner, lambda: (np.array([[1, -1, 1], [1, -1, -1], [-1, 1, 1]]),), {}),
    ("elementary_ca", elementary_ca, lambda: (110,), {}),
    ("move_2048_left", move_2048_left,
     lambda: (np.array([[2, 2, 4, 4], [0, 2, 0, 2], [4, 0, 0, 4], [2, 4, 8, 16]]),), {}),
    ("minesweeper_counts", minesweeper_counts, lambda: (_rng(31).random((5, 6)) < 0.25,), {}),
    ("sudoku_valid", sudoku_valid, lambda: (_sudoku(),), {}),
    ("sudoku_invalid", sudoku_valid, lambda: (np.where(_sudoku() == 5, 6, _sudoku()),), {}),
    ("connect_four_winner", connect_four_winner,
     lambda: (np.array([[0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 2, 0, 0, 0],
                        [0, 0, 2, 1, 0, 0, 0], [0, 2, 1, 1, 0, 0, 0], [2, 1, 1, 2, 1, 0, 0]]),), {}),
    ("brians_brain", brians_brain, lambda: ((_rng(32).random((8, 8)) < 0.3).astype(int),), {}),
    # geometry
    ("polygon_area_centroid", polygon_area_centroid,
     lambda: (np.array([[0.0, 0], [4, 0], [4, 3], [2, 5], [0, 3]]),), {}),
    ("point_in_polygon", point_in_polygon,
     lambda: ((2.0, 2.0), np.array([[0.0, 0], [4, 0], [4, 3], [2, 5], [0, 3]])), {}),
    ("convex_hull", convex_hull, lambda: (_rng(33).random((15, 2)),), {}),
    ("rodrigues_rotate", rodrigues_rotate,
     lambda: (_rng(34).normal(size=(5, 3)), np.array([1.0, 1.0, 0.0]), np.pi / 3), {}),
    ("point_segment_distance", point_segment_distance,
     lambda: (_rng(35).normal(size=(6, 2)) * 2, np.array([0.0, 0.0]), np.array([1.0, 1.0])), {}),
    ("mesh_triangle_areas", mesh_triangle_areas,
     lambda: (np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]),
              np.array([[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]])), {}),
    ("angles_between", angles_between, lambda: (_rng(36).normal(size=(5, 3)), _rng(37).normal(size=(5, 3))), {}),
    ("box_iou", box_iou, lambda: (_boxes()[0][:3], _boxes()[0]), {}),
    ("non_max_suppression", non_max_suppression, _boxes, {}),
    ("kabsch", kabsch, lambda: (_rng(38).normal(size=(6, 3)), _rng(38).normal(size=(6, 3)) @ np.array(
        [[0.0, -1, 0], [1, 0, 0], [0, 0, 1]]).T + 0.5), {}),
    # linear algebra
    ("cholesky_solve", cholesky_solve, lambda: (_spd(), np.arange(5.0)), {}),
    ("expm_taylor", expm_taylor, lambda: (np.array([[0.0, 1.0], [-2.0, -3.0]]) * 1.5,), {}),
    ("conjugate_gradient", conjugate_gradient, lambda: (_spd(6, 44), np.ones(6)), {}),
    ("det_row_reduction", det_row_reduction, lambda: (np.array([[0, 2, 1], [3, 1, 4], [1, 5, 9]]),), {}),
    ("householder_qr", householder_qr, lambda: (_rng(45).normal(size=(5, 3)),), {}),
    ("poly_roots_companion", poly_roots_companion, lambda: (np.array([1.0, -6.0, 11.0, -6.0]),), {}),
    ("rlc_impedance", rlc_impedance, lambda: (10.0, 0.1, 1e-5, np.linspace(50, 300, 26)), {}),
    ("markov_stationary", markov_stationary,
     lambda: (np.array([[0.9, 0.075, 0.025], [0.15, 0.8, 0.05], [0.25, 0.25, 0.5]]),), {}),
    ("inverse_check", inverse_check, lambda: (_spd(4, 46),), {}),
    # machine learning
    ("softmax_regression", softmax_regression, lambda: (_blobs2(36)[0], np.arange(36) % 3, 3), {}),
    ("linear_svm_sgd", linear_svm_sgd, lambda: (_blobs2()[0], np.where(_blobs2()[1] == 1, 1.0, -1.0)), {}),
    ("fisher_lda", fisher_lda, _blobs2, {}),
    ("knn_regress_weighted", knn_regress_weighted,
     lambda: (_rng(47).random((20, 2)), _rng(48).random(20), _rng(49).random((5, 2))), {}),
    ("tfidf", tfidf, lambda: (_rng(50).integers(0, 4, (5, 8)) + np.eye(5, 8, dtype=int),), {}),
    ("recommend_top_k", recommend_top_k,
     lambda: (np.array([[5, 3, 0, 1, 0], [4, 0, 0, 1, 2], [1, 1, 0, 5, 4], [0, 1, 5, 4, 0], [5, 4, 1, 0, 0.0]]), 0), {}),
    ("matrix_factorization", matrix_factorization,
     lambda: (np.array([[5, 3, 0, 1], [4, 0, 0, 1], [1, 1, 0, 5], [0, 1, 5, 4.0]]),), {"rand": True}),
    ("rmsprop_quadratic", rmsprop_quadratic, lambda: (_spd(3, 51), np.array([1.0, -2.0, 0.5])), {}),
    ("label_encode_onehot", label_encode_onehot, lambda: (np.array([30, 10, 20, 10, 30, 30, 40]),), {}),
    ("polynomial_features", polynomial_features, lambda: (_rng(52).normal(size=(6, 3)),), {}),
    ("kfold_scores", kfold_scores,
     lambda: (np.c_[np.ones(18), _rng(53).normal(size=(18, 2))], _rng(54).normal(size=18)), {}),
    ("roc_curve_auc", roc_curve_auc,
     lambda: (np.array([0, 1, 1, 0, 1, 0, 1, 1, 0, 0]), np.array([0.1, 0.8, 0.65, 0.3, 0.9, 0.65, 0.2, 0.7, 0.4, 0.05])), {}),
    ("mlp_forward_float32", mlp_forward_float32, _mlp32, {}),
    # Rosetta / puzzles / exercises
    ("pascal_matrix", pascal_matrix, lambda: (8,), {}),
    ("prime_factors", prime_factors, lambda: (360360,), {}),
    ("prime_factors_arg", prime_factors, lambda: (np.int64(9240),), {}),
    ("vector_gcd", vector_gcd, lambda: (np.array([12, 18, 7, 100, 0]), np.array([8, 27, 5, 75, 3])), {}),
    ("digit_sums", digit_sums, lambda: (np.array([0, 7, 19, 1234, 99999]),), {}),
    ("magic_square_odd", magic_square_odd, lambda: (5,), {}),
    ("happy_numbers", happy_numbers, lambda: (), {}),
    ("julia_set", julia_set, lambda: (), {}),
    ("newton_fractal", newton_fractal, lambda: (), {}),
    ("markov_chain_walk", markov_chain_walk,
     lambda: (np.array([[0.5, 0.3, 0.2], [0.1, 0.6, 0.3], [0.3, 0.3, 0.4]]),), {"rand": True}),
    ("mc_integrate", mc_integrate, lambda: (), {"rand": True}),
    ("add_at_histogram", add_at_histogram,
     lambda: (np.array([0, 2, 2, 5, 1, 2, 0]), np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]), 7), {}),
    ("uint8_arithmetic", uint8_arithmetic,
     lambda: (np.array([10, 200, 255, 0, 128], dtype=np.uint8), np.array([250, 100, 1, 0, 128], dtype=np.uint8)), {}),
    ("int_small_types", int_small_types, lambda: (np.array([100, 50, 27, -128, 1, 3]),), {}),
    ("scalar_edge_cases", scalar_edge_cases, lambda: (np.array(2.5), np.zeros(0)), {}),
    ("numpy100_set", numpy100_set, lambda: (_rng(55).random((5, 5)),), {}),
    ("numpy100_more", numpy100_more, lambda: (_rng(56).random(10), 0.5), {}),
    ("sliding_window_stats", sliding_window_stats, lambda: (_rng(57).normal(size=12),), {}),
    ("meshgrid_gaussian_fit", meshgrid_gaussian_fit, lambda: (), {}),
    ("complex_phasors", complex_phasors, lambda: (np.array([1.0, 2.0, 0.5]), np.array([0.0, 120.0, 240.0])), {}),
    ("float32_normalize", float32_normalize,
     lambda: (np.c_[_rng(58).normal(size=(8, 2)), np.ones(8)].astype(np.float32),), {}),
    ("tensor_contractions", tensor_contractions,
     lambda: (_rng(59).normal(size=(3, 3)), _rng(60).normal(size=(2, 3, 3)), np.array([1.0, -1.0, 2.0])), {}),
    ("empty_safe_stats", empty_safe_stats, lambda: (np.array([-1.0, 3.0, 0.5, -2.0, 4.0]),), {}),
    ("empty_safe_stats_none", empty_safe_stats, lambda: (np.array([-1.0, -3.0]),), {}),
]
