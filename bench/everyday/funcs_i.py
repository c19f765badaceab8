"""Everyday NumPy functions, fifth collection: "100 numpy exercises" answers, Python
Data Science Handbook snippets, finance and time-series notebooks, image and signal
processing written by hand (the MFCC-tutorial and OpenCV-tutorial styles), Monte
Carlo with np.random.seed inside, graph algorithms on adjacency matrices, numerical
methods with inner functions and lambdas, games and automata, and descriptive
statistics, written the way such answers and notebooks write them (one-liners with
ufunc methods and stride tricks, out= arguments, tuple swaps of array elements,
generator sums, Python lists and sets as work lists, dicts of results). Each entry of
CASES is (name, function, make_args, opts); make_args() returns the arguments; opts
{"rand": True} marks a function that draws random numbers inside (compared by type,
dtype and shape only)."""
import functools
import operator
from collections import Counter

import numpy as np


# ----------------------------------------------------------------------------
# 100 numpy exercises
# ----------------------------------------------------------------------------

def n100_checkerboard(n=8):
    Z = np.zeros((n, n), dtype=int)
    Z[1::2, ::2] = 1
    Z[::2, 1::2] = 1
    return Z


def n100_unravel_100th():
    return np.unravel_index(99, (6, 7, 8))


def n100_bincount_accumulate(X, I):
    F = np.bincount(I, X)
    return F


def n100_unique_colors(I):
    colors = np.unique(I.reshape(-1, 3), axis=0)
    n = len(colors)
    I24 = I.astype(np.uint32)
    F = I24[..., 0] * (256 * 256) + I24[..., 1] * 256 + I24[..., 2]
    return n, len(np.unique(F))


def n100_sum_last_two_axes(A):
    sum1 = A.sum(axis=(-2, -1))
    sum2 = A.reshape(A.shape[:-2] + (-1,)).sum(axis=-1)
    return sum1, sum2


def n100_subset_means(D, S):
    D_sums = np.bincount(S, weights=D)
    D_counts = np.bincount(S)
    D_means = D_sums / D_counts
    return D_means


def n100_diag_of_dot(A, B):
    slow = np.diag(np.dot(A, B))
    fast = np.sum(A * B.T, axis=1)
    fastest = np.einsum("ij,ji->i", A, B)
    return slow, fast, fastest


def n100_interleave_zeros(Z, nz=3):
    Z0 = np.zeros(len(Z) + (len(Z) - 1) * (nz))
    Z0[::nz + 1] = Z
    return Z0


def n100_repeat_from_bincount(C):
    A = np.repeat(np.arange(len(C)), C)
    return A


def n100_rolling_as_strided(a, window=3):
    shape = (a.size - window + 1, window)
    strides = (a.strides[0], a.strides[0])
    return np.lib.stride_tricks.as_strided(a, shape=shape, strides=strides)


def n100_negate_inplace(Z, B):
    np.logical_not(B, out=B)
    np.negative(Z, out=Z)
    return Z, B


def n100_n_largest(Z, n=5):
    slow = Z[np.argsort(Z)[-n:]]
    fast = Z[np.argpartition(-Z, n)[:n]]
    return slow, np.sort(fast)


def n100_rows_unequal(Z):
    E = np.all(Z[:, 1:] == Z[:, :-1], axis=1)
    U = Z[~E]
    return U


def n100_int_to_binary(I):
    B = ((I.reshape(-1, 1) & (2 ** np.arange(8))) != 0).astype(int)
    B2 = np.unpackbits(I[:, np.newaxis].astype(np.uint8), axis=1)
    return B[:, ::-1], B2


def n100_einsum_family(A, B):
    return (np.einsum("i->", A), np.einsum("i,i->i", A, B),
            np.einsum("i,i", A, B), np.einsum("i,j->ij", A, B))


def n100_equidistant_path(n=40):
    phi = np.arange(0, 10 * np.pi, 0.5)
    a = 1
    x = a * phi * np.cos(phi)
    y = a * phi * np.sin(phi)
    dr = (np.diff(x) ** 2 + np.diff(y) ** 2) ** .5
    r = np.zeros_like(x)
    r[1:] = np.cumsum(dr)
    r_int = np.linspace(0, r.max(), n)
    x_int = np.interp(r_int, r, x)
    y_int = np.interp(r_int, r, y)
    return x_int, y_int


def n100_multinomial_rows(X, n=4):
    M = np.logical_and.reduce(np.mod(X, 1) == 0, axis=-1)
    M &= (X.sum(axis=-1) == n)
    return X[M]


def n100_bootstrap_confint(X, N=1000):
    np.random.seed(1)
    idx = np.random.randint(0, X.size, (N, X.size))
    means = X[idx].mean(axis=1)
    confint = np.percentile(means, [2.5, 97.5])
    return confint


def n100_point_distances(Z):
    X, Y = np.atleast_2d(Z[:, 0], Z[:, 1])
    D = np.sqrt((X - X.T) ** 2 + (Y - Y.T) ** 2)
    return D


def n100_fromfunction():
    Z = np.fromfunction(lambda i, j: i + j, (5, 5), dtype=int)
    W = np.fromfunction(lambda i, j: (i == j).astype(float) * (i + 1), (4, 4))
    return Z, W


def n100_fromiter():
    def generate():
        for x in range(10):
            yield x
    Z = np.fromiter(generate(), dtype=float, count=-1)
    return Z


def n100_reduceat(Z):
    k = 2
    by_rows = np.add.reduceat(Z, np.arange(0, Z.shape[0], k), axis=0)
    S = np.add.reduceat(by_rows, np.arange(0, Z.shape[1], k), axis=1)
    return S, np.add.reduceat(np.arange(8), [0, 4, 1, 5])


def n100_put_random(n=6, p=4):
    np.random.seed(3)
    Z = np.zeros((n, n))
    np.put(Z, np.random.choice(range(n * n), p, replace=False), 1)
    return Z


def n100_cauchy(X, Y):
    C = 1.0 / np.subtract.outer(X, Y)
    return np.linalg.det(C)


def n100_type_limits():
    out = []
    for dtype in [np.int8, np.int32, np.int64]:
        out.append((np.iinfo(dtype).min, np.iinfo(dtype).max))
    for dtype in [np.float32, np.float64]:
        out.append((np.finfo(dtype).min, np.finfo(dtype).max, np.finfo(dtype).eps))
    return out


def n100_ndenumerate(Z):
    total = 0
    for index, value in np.ndenumerate(Z):
        total += index[0] * value
    cells = 0
    for index in np.ndindex(Z.shape):
        if Z[index] > 0.5:
            cells += 1
    return total, cells


def n100_symmetric(Z):
    return Z + Z.T - np.diag(Z.diagonal())


def n100_tensordot(M, V):
    S = np.tensordot(M, V, axes=[[0, 2], [0, 1]])
    return S


def n100_sliding_3x3(Z):
    C = np.lib.stride_tricks.sliding_window_view(Z, window_shape=(3, 3))
    return C.sum(axis=(-2, -1)), C.shape


def n100_float_view_inplace(Z):
    Z = Z.astype(np.float32)
    Y = Z.view(np.int32)
    Y[:] = Z
    return Y


def pdsh_histogram_add_at(x):
    bins = np.linspace(-5, 5, 20)
    counts = np.zeros_like(bins)
    i = np.searchsorted(bins, x)
    np.add.at(counts, i, 1)
    same = np.histogram(x, bins)[0]
    return counts, same


def pdsh_selection_sort(x):
    for i in range(len(x)):
        swap = i + np.argmin(x[i:])
        (x[i], x[swap]) = (x[swap], x[i])
    return x


def pdsh_knn_argpartition(X, K=2):
    dist_sq = np.sum((X[:, np.newaxis, :] - X[np.newaxis, :, :]) ** 2, axis=-1)
    nearest = np.argsort(dist_sq, axis=1)
    nearest_partition = np.argpartition(dist_sq, K + 1, axis=1)
    return nearest[:, 1:K + 1], np.sort(nearest_partition[:, :K + 1], axis=1)


def pdsh_rainfall(inches):
    rainy = (inches > 0)
    days = np.arange(len(inches))
    summer = (days > 172) & (days < 262)
    return {"median_rainy": np.median(inches[rainy]),
            "median_summer": np.median(inches[summer]),
            "max_summer": np.max(inches[summer]),
            "median_non_summer_rainy": np.median(inches[rainy & ~summer]),
            "dry_days": np.sum(inches == 0),
            "between": np.sum((inches > 0.5) & (inches < 1))}


def pdsh_ufunc_out():
    x = np.arange(5)
    y = np.empty(5)
    np.multiply(x, 10, out=y)
    z = np.zeros(10)
    np.power(2, x, out=z[::2])
    return y, z, np.add.accumulate(x), np.multiply.outer(x, x), np.add.reduce(x)


def pdsh_fancy_combined(X):
    row = np.array([0, 1, 2])
    mask = np.array([1, 0, 1, 0], dtype=bool)
    return X[2, [2, 0, 1]], X[1:, [2, 0, 1]], X[row[:, np.newaxis], mask]


def pdsh_president_heights(heights):
    print("Mean height:       ", heights.mean())
    return (heights.mean(), heights.std(), heights.min(), heights.max(),
            np.percentile(heights, 25), np.median(heights), np.percentile(heights, 75))


def pdsh_binning_manual(x):
    bins = np.linspace(-3, 3, 11)
    counts = np.zeros(len(bins), dtype=int)
    for xi in x:
        counts[np.searchsorted(bins, xi)] += 1
    return counts


def pdsh_sorting_axes(X):
    return np.sort(X, axis=0), np.sort(X, axis=1), np.partition(X[0], 2)[:2]


def pdsh_structured(ages, weights):
    data = np.zeros(len(ages), dtype={"names": ("age", "weight"), "formats": ("i4", "f8")})
    data["age"] = ages
    data["weight"] = weights
    return data["weight"][data["age"] < 30].mean()


# ----------------------------------------------------------------------------
# Finance and time series
# ----------------------------------------------------------------------------

def ewma_span_loop(x, span=5):
    alpha = 2 / (span + 1)
    out = [x[0]]
    for value in x[1:]:
        out.append(alpha * value + (1 - alpha) * out[-1])
    return np.array(out)


def rolling_sharpe_cumsum(returns, window=5):
    c1 = np.cumsum(np.insert(returns, 0, 0.0))
    c2 = np.cumsum(np.insert(returns ** 2, 0, 0.0))
    s1 = c1[window:] - c1[:-window]
    s2 = c2[window:] - c2[:-window]
    mean = s1 / window
    var = (s2 - window * mean ** 2) / (window - 1)
    return np.sqrt(252) * mean / np.sqrt(var)


def var_cvar(returns, alpha=0.05):
    var = -np.percentile(returns, 100 * alpha)
    cvar = -returns[returns <= -var].mean()
    return var, cvar


def drawdown_duration(prices):
    peak = prices[0]
    duration = 0
    longest = 0
    for p in prices:
        if p >= peak:
            peak = p
            duration = 0
        else:
            duration += 1
            longest = max(longest, duration)
    return longest


def cagr_vol(prices, periods_per_year=252):
    years = (len(prices) - 1) / periods_per_year
    cagr = (prices[-1] / prices[0]) ** (1 / years) - 1
    rets = prices[1:] / prices[:-1] - 1
    vol = rets.std(ddof=1) * np.sqrt(periods_per_year)
    return round(float(cagr), 6), float(vol)


def pct_change_padded(prices):
    r = np.diff(prices) / prices[:-1]
    r = np.insert(r, 0, np.nan)
    return r, np.nanmean(r), np.nancumsum(r)


def average_true_range(high, low, close, n=3):
    prev_close = np.roll(close, 1)
    prev_close[0] = close[0]
    tr = np.maximum.reduce([high - low, np.abs(high - prev_close), np.abs(low - prev_close)])
    atr = np.zeros_like(tr)
    atr[n - 1] = tr[:n].mean()
    for i in range(n, len(tr)):
        atr[i] = (atr[i - 1] * (n - 1) + tr[i]) / n
    return atr


def rebalance_shares(prices, target_weights, cash=10000.0):
    n_assets = prices.shape[1]
    shares = np.zeros(n_assets, dtype=int)
    values = []
    for t in range(prices.shape[0]):
        p = prices[t]
        total = cash + np.dot(shares, p)
        target = np.floor(total * target_weights / p).astype(int)
        cash = total - np.dot(target, p)
        shares = target
        values.append(total)
    return np.array(values), shares, cash


def stochastic_oscillator(close, k=5):
    windows = np.lib.stride_tricks.sliding_window_view(close, k)
    lo = windows.min(axis=1)
    hi = windows.max(axis=1)
    pct_k = 100 * (close[k - 1:] - lo) / (hi - lo)
    return pct_k


# ----------------------------------------------------------------------------
# Image processing by hand
# ----------------------------------------------------------------------------

def hist_equalize_masked(img):
    hist, bins = np.histogram(img.flatten(), 256, [0, 256])
    cdf = hist.cumsum()
    cdf_m = np.ma.masked_equal(cdf, 0)
    cdf_m = (cdf_m - cdf_m.min()) * 255 / (cdf_m.max() - cdf_m.min())
    cdf = np.ma.filled(cdf_m, 0).astype("uint8")
    return cdf[img]


def sobel_loops(img):
    Kx = np.array([[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]])
    Ky = np.array([[1, 2, 1], [0, 0, 0], [-1, -2, -1]])
    h, w = img.shape
    G = np.zeros((h, w))
    for i in range(1, h - 1):
        for j in range(1, w - 1):
            gx = np.sum(Kx * img[i - 1:i + 2, j - 1:j + 2])
            gy = np.sum(Ky * img[i - 1:i + 2, j - 1:j + 2])
            G[i, j] = np.sqrt(gx ** 2 + gy ** 2)
    return G / G.max() * 255


def box_blur_integral(img, r=1):
    padded = np.pad(img.astype(float), ((r + 1, r), (r + 1, r)), mode="edge")
    ii = padded.cumsum(axis=0).cumsum(axis=1)
    k = 2 * r + 1
    s = ii[k:, k:] - ii[:-k, k:] - ii[k:, :-k] + ii[:-k, :-k]
    return s / (k * k)


def median_filter_pad_loops(img, k=3):
    pad = k // 2
    padded = np.pad(img, pad, mode="edge")
    out = np.zeros_like(img)
    for i in range(img.shape[0]):
        for j in range(img.shape[1]):
            out[i, j] = np.median(padded[i:i + k, j:j + k])
    return out


def otsu_loop(img):
    pixel_number = img.shape[0] * img.shape[1]
    mean_weight = 1.0 / pixel_number
    his, bins = np.histogram(img, np.arange(0, 257))
    final_thresh = -1
    final_value = -1
    intensity_arr = np.arange(256)
    for t in bins[1:-1]:
        pcb = np.sum(his[:t])
        pcf = np.sum(his[t:])
        Wb = pcb * mean_weight
        Wf = pcf * mean_weight
        if pcb == 0 or pcf == 0:
            continue
        mub = np.sum(intensity_arr[:t] * his[:t]) / float(pcb)
        muf = np.sum(intensity_arr[t:] * his[t:]) / float(pcf)
        value = Wb * Wf * (mub - muf) ** 2
        if value > final_value:
            final_thresh = t
            final_value = value
    final_img = img.copy()
    final_img[img > final_thresh] = 255
    final_img[img < final_thresh] = 0
    return final_thresh, final_img


def rgb_to_gray_dot(rgb):
    gray = np.dot(rgb[..., :3], [0.2989, 0.5870, 0.1140])
    return gray.astype(np.uint8), np.clip(gray * 1.5, 0, 255).astype(np.uint8)


def nearest_resize(img, new_h, new_w):
    h, w = img.shape[:2]
    row_idx = (np.arange(new_h) * h / new_h).astype(int)
    col_idx = (np.arange(new_w) * w / new_w).astype(int)
    return img[row_idx[:, None], col_idx]


def gaussian_blur_kernel_loops(img, size=3, sigma=1.0):
    ax = np.linspace(-(size - 1) / 2., (size - 1) / 2., size)
    xx, yy = np.meshgrid(ax, ax)
    kernel = np.exp(-0.5 * (np.square(xx) + np.square(yy)) / np.square(sigma))
    kernel = kernel / np.sum(kernel)
    h, w = img.shape
    p = size // 2
    padded = np.zeros((h + 2 * p, w + 2 * p), dtype=img.dtype)
    padded[p:-p, p:-p] = img
    out = np.zeros((h, w), dtype=np.float32)
    for y in range(h):
        for x in range(w):
            out[y, x] = (kernel * padded[y:y + size, x:x + size]).sum()
    return out


def threshold_invert_uint8(img, t=128):
    binary = np.where(img > t, 0, 255).astype(np.uint8)
    frac = np.count_nonzero(binary) / binary.size
    return binary, frac


def flips_and_rotations(img):
    return img[::-1, :, ::-1], np.rot90(img, k=3), np.transpose(img, (1, 0, 2)), np.flipud(img)[0, 0]


# ----------------------------------------------------------------------------
# Signal processing
# ----------------------------------------------------------------------------

def windowed_fft_peak(x, fs=100.0):
    w = np.hanning(len(x))
    X = np.fft.rfft(x * w)
    freqs = np.fft.rfftfreq(len(x), 1 / fs)
    peak = freqs[np.argmax(np.abs(X))]
    return peak, np.abs(X) / np.sum(w)


def fir_filter_loop(x, h):
    y = np.zeros(len(x))
    for n in range(len(x)):
        for k in range(len(h)):
            if n - k >= 0:
                y[n] += h[k] * x[n - k]
    return y


def zero_crossings_sign(x):
    idx = np.where(np.diff(np.sign(x)))[0]
    zc2 = np.nonzero(np.diff(np.signbit(x)))[0]
    return idx, zc2, len(idx)


def autocorr_correlate(x):
    x = x - np.mean(x)
    result = np.correlate(x, x, mode="full")
    result = result[result.size // 2:]
    return result / result[0]


def mfcc_framing(signal, sample_rate=800, NFFT=64):
    pre_emphasis = 0.97
    emphasized_signal = np.append(signal[0], signal[1:] - pre_emphasis * signal[:-1])
    frame_size, frame_stride = 0.025 * 2, 0.01 * 2
    frame_length, frame_step = frame_size * sample_rate, frame_stride * sample_rate
    signal_length = len(emphasized_signal)
    frame_length = int(round(frame_length))
    frame_step = int(round(frame_step))
    num_frames = int(np.ceil(float(np.abs(signal_length - frame_length)) / frame_step))
    pad_signal_length = num_frames * frame_step + frame_length
    z = np.zeros((pad_signal_length - signal_length))
    pad_signal = np.append(emphasized_signal, z)
    indices = (np.tile(np.arange(0, frame_length), (num_frames, 1))
               + np.tile(np.arange(0, num_frames * frame_step, frame_step), (frame_length, 1)).T)
    frames = pad_signal[indices.astype(np.int32, copy=False)]
    frames *= np.hamming(frame_length)
    mag_frames = np.absolute(np.fft.rfft(frames, NFFT))
    pow_frames = ((1.0 / NFFT) * ((mag_frames) ** 2))
    return pow_frames


def dft_double_loop(x):
    N = len(x)
    X = np.zeros(N, dtype=complex)
    for k in range(N):
        for n in range(N):
            X[k] += x[n] * np.exp(-2j * np.pi * k * n / N)
    return X


def frame_rms_list(x, frame=8, hop=4):
    frames = [x[i:i + frame] for i in range(0, len(x) - frame + 1, hop)]
    rms = np.array([np.sqrt(np.mean(f ** 2)) for f in frames])
    return rms, 20 * np.log10(rms + 1e-12)


def resample_interp(x, factor=2.5):
    n_out = int(len(x) * factor)
    t_in = np.arange(len(x))
    t_out = np.linspace(0, len(x) - 1, n_out)
    return np.interp(t_out, t_in, x)


# ----------------------------------------------------------------------------
# Monte Carlo
# ----------------------------------------------------------------------------

def walk_first_passage(n=500, level=10):
    np.random.seed(42)
    steps = np.random.choice([-1, 1], size=n)
    position = np.cumsum(steps)
    first_hit = np.argmax(np.abs(position) >= level)
    return position.min(), position.max(), first_hit


def bootstrap_list_percentile(data, n_boot=200):
    np.random.seed(0)
    boot_means = []
    for _ in range(n_boot):
        sample = np.random.choice(data, size=len(data), replace=True)
        boot_means.append(np.mean(sample))
    return np.percentile(boot_means, [2.5, 97.5])


def ising_sweeps(N=6, T=2.0, sweeps=5):
    np.random.seed(1)
    s = 2 * np.random.randint(2, size=(N, N)) - 1
    for sweep in range(sweeps):
        for i in range(N):
            for j in range(N):
                nb = s[(i + 1) % N, j] + s[i, (j + 1) % N] + s[(i - 1) % N, j] + s[i, (j - 1) % N]
                dE = 2 * s[i, j] * nb
                if dE < 0 or np.random.rand() < np.exp(-dE / T):
                    s[i, j] *= -1
    return s, s.sum() / N ** 2


def mc_pi_scalar_loop(n=300):
    np.random.seed(7)
    inside = 0
    for _ in range(n):
        x, y = np.random.random(2)
        if x * x + y * y <= 1:
            inside += 1
    return 4 * inside / n


def coupon_collector(n=10, trials=20):
    np.random.seed(5)
    draws = []
    for _ in range(trials):
        seen = set()
        count = 0
        while len(seen) < n:
            seen.add(np.random.randint(n))
            count += 1
        draws.append(count)
    return np.mean(draws), max(draws)


def poisson_arrivals(rate=2.0, T=5.0):
    np.random.seed(11)
    t = 0.0
    arrivals = []
    while True:
        t += np.random.exponential(1 / rate)
        if t > T:
            break
        arrivals.append(t)
    return np.array(arrivals), len(arrivals)


def markov_weather(P, n=30):
    np.random.seed(2)
    state = 0
    states = [state]
    for _ in range(n):
        state = np.random.choice(3, p=P[state])
        states.append(state)
    return np.bincount(states, minlength=3) / len(states)


def random_walk_2d_angles(n=100):
    np.random.seed(4)
    angles = np.random.uniform(0, 2 * np.pi, n)
    x = np.cumsum(np.cos(angles))
    y = np.cumsum(np.sin(angles))
    return np.hypot(x[-1], y[-1]), np.sqrt(x ** 2 + y ** 2).max()


# ----------------------------------------------------------------------------
# Graphs on adjacency matrices
# ----------------------------------------------------------------------------

def floyd_warshall_broadcast(W):
    D = W.copy()
    n = D.shape[0]
    for k in range(n):
        D = np.minimum(D, D[:, k, None] + D[None, k, :])
    return D


def pagerank_dangling(A, d=0.85, tol=1e-10):
    n = A.shape[0]
    out_deg = A.sum(axis=1)
    M = np.zeros((n, n))
    for i in range(n):
        if out_deg[i] == 0:
            M[:, i] = 1.0 / n
        else:
            M[:, i] = A[i] / out_deg[i]
    r = np.ones(n) / n
    iterations = 0
    while True:
        r_new = (1 - d) / n + d * M @ r
        iterations += 1
        if np.abs(r_new - r).sum() < tol:
            break
        r = r_new
    return r_new, iterations


def dijkstra_argmin(W, src=0):
    n = W.shape[0]
    dist = np.full(n, np.inf)
    dist[src] = 0
    visited = np.zeros(n, dtype=bool)
    prev = -np.ones(n, dtype=int)
    for _ in range(n):
        u = np.argmin(np.where(visited, np.inf, dist))
        if np.isinf(dist[u]):
            break
        visited[u] = True
        for v in range(n):
            if W[u, v] > 0 and not visited[v] and dist[u] + W[u, v] < dist[v]:
                dist[v] = dist[u] + W[u, v]
                prev[v] = u
    return dist, prev


def bfs_queue(A, s=0):
    n = len(A)
    dist = [-1] * n
    dist[s] = 0
    queue = [s]
    order = []
    while queue:
        u = queue.pop(0)
        order.append(u)
        for v in np.nonzero(A[u])[0]:
            if dist[v] == -1:
                dist[v] = dist[u] + 1
                queue.append(v)
    return order, dist


def degree_stats_dict(A):
    deg = A.sum(axis=0)
    centrality = {i: deg[i] / (len(A) - 1) for i in range(len(A))}
    hub = max(centrality, key=centrality.get)
    return centrality, hub


def triangle_count(A):
    A3 = np.linalg.matrix_power(A, 3)
    return np.trace(A3) // 6, np.diag(A3) // 2


def bellman_ford(edges, n, src=0):
    dist = np.full(n, np.inf)
    dist[src] = 0.0
    for _ in range(n - 1):
        for u, v, w in edges:
            if dist[u] + w < dist[v]:
                dist[v] = dist[u] + w
    for u, v, w in edges:
        if dist[u] + w < dist[v]:
            return None
    return dist


def union_find_components(A):
    n = A.shape[0]
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i in range(n):
        for j in range(i + 1, n):
            if A[i, j]:
                ri, rj = find(i), find(j)
                if ri != rj:
                    parent[ri] = rj
    roots = [find(i) for i in range(n)]
    return len(set(roots)), roots


def warshall_bool(A):
    reach = A.astype(bool) | np.eye(len(A), dtype=bool)
    for k in range(len(A)):
        reach = reach | (reach[:, k:k + 1] & reach[k:k + 1, :])
    return reach


# ----------------------------------------------------------------------------
# Numerical methods
# ----------------------------------------------------------------------------

def bisection_lambda(a=1.0, b=2.0, tol=1e-8):
    f = lambda x: x ** 3 - x - 2  # noqa: E731
    if f(a) * f(b) >= 0:
        return None
    n = 0
    while (b - a) / 2 > tol:
        c = (a + b) / 2
        if f(c) == 0:
            break
        if f(a) * f(c) < 0:
            b = c
        else:
            a = c
        n += 1
    return (a + b) / 2, n


def rk4_inner_def(y0, t_end=5.0, h=0.1):
    def f(t, y):
        return np.array([y[1], -y[0] - 0.1 * y[1]])
    t = 0.0
    y = np.array(y0, dtype=float)
    ts = [t]
    ys = [y]
    while t < t_end - 1e-12:
        k1 = f(t, y)
        k2 = f(t + h / 2, y + h / 2 * k1)
        k3 = f(t + h / 2, y + h / 2 * k2)
        k4 = f(t + h, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        t = t + h
        ts.append(t)
        ys.append(y)
    return np.array(ts), np.array(ys)


def simpson_builtin_sum(a=0.0, b=np.pi, n=10):
    f = np.sin
    h = (b - a) / n
    x = np.linspace(a, b, n + 1)
    S = f(x[0]) + f(x[-1]) + 4 * sum(f(x[1:-1:2])) + 2 * sum(f(x[2:-1:2]))
    return S * h / 3


def power_iteration_norm(A, tol=1e-10, max_iter=500):
    b = np.ones(A.shape[1])
    lam = 0.0
    for it in range(max_iter):
        b_new = A @ b
        b_new = b_new / np.linalg.norm(b_new)
        lam_new = b_new @ A @ b_new
        if abs(lam_new - lam) < tol:
            return lam_new, b_new, it
        b, lam = b_new, lam_new
    return lam, b, max_iter


def jacobi_allclose(A, b, max_iter=200):
    x = np.zeros_like(b)
    D = np.diag(A)
    R = A - np.diagflat(D)
    for i in range(max_iter):
        x_new = (b - np.dot(R, x)) / D
        if np.allclose(x, x_new, rtol=1e-10):
            break
        x = x_new
    return x_new, i


def golden_section(a=0.0, b=3.0, tol=1e-6):
    f = lambda x: (x - 1.3) ** 2 + 0.5  # noqa: E731
    gr = (np.sqrt(5) + 1) / 2
    c = b - (b - a) / gr
    d = a + (b - a) / gr
    while abs(b - a) > tol:
        if f(c) < f(d):
            b = d
        else:
            a = c
        c = b - (b - a) / gr
        d = a + (b - a) / gr
    return (b + a) / 2


def trapezoid_vs_exact(n_list=[4, 8, 16, 32]):
    errors = []
    for n in n_list:
        x = np.linspace(0, 1, n + 1)
        approx = np.trapezoid(np.exp(x), x)
        errors.append(abs(approx - (np.e - 1)))
    errors = np.array(errors)
    return errors, np.log2(errors[:-1] / errors[1:])


def finite_difference_jacobian(x, eps=1e-6):
    def F(v):
        return np.array([v[0] ** 2 + v[1], np.sin(v[0]) * v[1], v[0] * v[1] * v[2]])
    f0 = F(x)
    J = np.zeros((len(f0), len(x)))
    for j in range(len(x)):
        e = np.zeros(len(x))
        e[j] = eps
        J[:, j] = (F(x + e) - f0) / eps
    return J


def euler_lists(y0=1.0, h=0.1, n=20):
    ts, ys = [0.0], [y0]
    for i in range(n):
        ys.append(ys[-1] + h * (-2 * ys[-1] + ts[-1]))
        ts.append(ts[-1] + h)
    return ts, ys


# ----------------------------------------------------------------------------
# Games and automata
# ----------------------------------------------------------------------------

def life_generator_sum(Z, steps=4):
    for _ in range(steps):
        N = sum(np.roll(np.roll(Z, i, 0), j, 1)
                for i in (-1, 0, 1) for j in (-1, 0, 1) if (i != 0 or j != 0))
        Z = ((N == 3) | ((Z == 1) & (N == 2))).astype(int)
    return Z


def langton_tuple_dirs(n=11, steps=60):
    grid = np.zeros((n, n), dtype=int)
    dirs = [(-1, 0), (0, 1), (1, 0), (0, -1)]
    r, c, d = n // 2, n // 2, 0
    for _ in range(steps):
        if grid[r, c] == 0:
            d = (d + 1) % 4
            grid[r, c] = 1
        else:
            d = (d - 1) % 4
            grid[r, c] = 0
        dr, dc = dirs[d]
        r, c = (r + dr) % n, (c + dc) % n
    return grid, (r, c)


def rule_automaton_bits(rule=110, width=21, steps=10):
    rule_bits = (rule >> np.arange(8)) & 1
    row = np.zeros(width, dtype=np.uint8)
    row[width // 2] = 1
    history = [row]
    for _ in range(steps):
        left = np.roll(row, 1)
        right = np.roll(row, -1)
        idx = 4 * left + 2 * row + right
        row = rule_bits[idx].astype(np.uint8)
        history.append(row)
    return np.array(history)


def nim_xor(piles):
    x = functools.reduce(operator.xor, piles)
    if x == 0:
        return None
    for i, p in enumerate(piles):
        if p ^ x < p:
            return i, p - (p ^ x)


def mastermind_score(secret, guess, colors=6):
    black = int(np.sum(secret == guess))
    white = sum(min(np.sum(secret == c), np.sum(guess == c)) for c in range(colors)) - black
    return black, white


def sudoku_candidates(board, r, c):
    row = set(board[r])
    col = set(board[:, c])
    br, bc = 3 * (r // 3), 3 * (c // 3)
    box = set(board[br:br + 3, bc:bc + 3].flatten())
    return sorted(set(range(1, 10)) - row - col - box)


def wireworld_step(G, steps=3):
    # 0 empty, 1 head, 2 tail, 3 conductor
    for _ in range(steps):
        heads = (G == 1).astype(int)
        n = np.zeros_like(G)
        P = np.pad(heads, 1)
        for di in range(3):
            for dj in range(3):
                if di == 1 and dj == 1:
                    continue
                n += P[di:di + G.shape[0], dj:dj + G.shape[1]]
        new = G.copy()
        new[G == 1] = 2
        new[G == 2] = 3
        new[(G == 3) & ((n == 1) | (n == 2))] = 1
        G = new
    return G


def snake_board(n=5, moves="RRDDLLUR"):
    board = np.zeros((n, n), dtype=int)
    r, c = 0, 0
    delta = {"R": (0, 1), "L": (0, -1), "U": (-1, 0), "D": (1, 0)}
    for k, m in enumerate(moves, start=1):
        dr, dc = delta[m]
        r, c = max(0, min(n - 1, r + dr)), max(0, min(n - 1, c + dc))
        board[r, c] = k
    return board


# ----------------------------------------------------------------------------
# Statistics
# ----------------------------------------------------------------------------

def zscore_ddof(x):
    return (x - x.mean()) / x.std(ddof=1)


def welford_history(data):
    n = 0
    mean = 0.0
    M2 = 0.0
    means, variances = [], []
    for x in data:
        n += 1
        delta = x - mean
        mean += delta / n
        M2 += delta * (x - mean)
        means.append(mean)
        variances.append(M2 / n if n > 1 else 0.0)
    return np.array(means), np.array(variances)


def weighted_percentile_interp(values, weights, q=50):
    sorter = np.argsort(values)
    values = values[sorter]
    weights = weights[sorter]
    cum = np.cumsum(weights) - 0.5 * weights
    cum /= np.sum(weights)
    return np.interp(q / 100.0, cum, values)


def rank_min_searchsorted(a):
    s = np.sort(a)
    rmin = np.searchsorted(s, a, side="left") + 1
    rmax = np.searchsorted(s, a, side="right")
    return rmin, (rmin + rmax) / 2


def mode_unique_counts(x):
    vals, counts = np.unique(x, return_counts=True)
    return vals[np.argmax(counts)], dict(zip(vals.tolist(), counts.tolist()))


def covariance_manual(X):
    n = X.shape[0]
    Xc = X - X.mean(axis=0)
    C = Xc.T @ Xc / (n - 1)
    return C, np.allclose(C, np.cov(X, rowvar=False)), np.corrcoef(X, rowvar=False)


def kendall_tau_loops(x, y):
    n = len(x)
    concordant = discordant = 0
    for i in range(n):
        for j in range(i + 1, n):
            s = np.sign(x[i] - x[j]) * np.sign(y[i] - y[j])
            if s > 0:
                concordant += 1
            elif s < 0:
                discordant += 1
    return (concordant - discordant) / (n * (n - 1) / 2)


def chi2_goodness(observed, expected=None):
    observed = np.asarray(observed, dtype=float)
    if expected is None:
        expected = np.full(len(observed), observed.sum() / len(observed))
    chi2 = np.sum((observed - expected) ** 2 / expected)
    return chi2, len(observed) - 1


def quantile_bins(x, q=4):
    edges = np.quantile(x, np.linspace(0, 1, q + 1))
    labels = np.digitize(x, edges[1:-1])
    return labels, np.bincount(labels, minlength=q)


def describe_dict(x):
    return {"count": x.size, "mean": x.mean(), "std": x.std(ddof=1), "min": x.min(),
            "25%": np.percentile(x, 25), "50%": np.median(x),
            "75%": np.percentile(x, 75), "max": x.max()}


def moving_zscore_anomalies(x, window=5, thresh=1.5):
    anomalies = []
    for i in range(window, len(x)):
        w = x[i - window:i]
        z = (x[i] - w.mean()) / (w.std() + 1e-9)
        if abs(z) > thresh:
            anomalies.append(i)
    return anomalies


def float32_standardize_clip(X):
    mu = X.mean(axis=0, keepdims=True)
    sigma = X.std(axis=0, keepdims=True)
    Z = (X - mu) / (sigma + np.float32(1e-6))
    return np.clip(Z, -3, 3), Z.dtype.name


# ----------------------------------------------------------------------------
# Dicts and counters
# ----------------------------------------------------------------------------

def knn_vote_counter(X_train, y_train, x, k=5):
    d = np.sqrt(((X_train - x) ** 2).sum(axis=1))
    nearest = y_train[np.argsort(d)[:k]]
    votes = Counter(nearest)
    label, n = votes.most_common(1)[0]
    return label, n / k, len(votes)


def centroids_in_place(X, y):
    sums = {c: np.zeros(X.shape[1]) for c in np.unique(y)}
    counts = {}
    for i in range(len(y)):
        sums[y[i]] += X[i]
        counts[y[i]] = counts.get(y[i], 0) + 1
    return {c: sums[c] / counts[c] for c in sums}


def drop_rare_labels(y, min_count=2):
    counts = Counter(y)
    for label in list(counts):
        if counts[label] < min_count:
            del counts[label]
    keep = np.array([v in counts for v in y])
    return y[keep], counts


def sparse_accumulate(idx, vals, probe):
    acc = {}
    for i, v in zip(idx, vals):
        acc.setdefault(i, 0.0)
        acc[i] += v
    hit = acc.get(probe)
    found = hit is not None
    removed = acc.pop(probe, 0.0)
    return acc, found, removed, max(acc, key=acc.get)


def train_params_dict(X, y, epochs=60, lr=0.1):
    params = {"W": np.zeros(X.shape[1]), "b": 0.0}
    for epoch in range(epochs):
        z = X @ params["W"] + params["b"]
        p = 1.0 / (1.0 + np.exp(-z))
        grads = {"W": X.T @ (p - y) / len(y), "b": np.mean(p - y)}
        for k in params:
            params[k] = params[k] - lr * grads[k]
    return params


# ----------------------------------------------------------------------------
# Cases
# ----------------------------------------------------------------------------

def bucket_sort_lists(x, n_buckets=4):
    buckets = [[] for _ in range(n_buckets)]
    lo, hi = x.min(), x.max()
    for v in x:
        j = int((v - lo) / (hi - lo + 1e-12) * n_buckets)
        buckets[min(j, n_buckets - 1)].append(float(v))
    out = np.concatenate([np.sort(np.array(b, dtype=float)) for b in buckets])
    return out, [len(b) for b in buckets]


def adjacency_degrees(edges, n=5):
    adj = [[] for _ in range(n)]
    for e in range(len(edges)):
        u, v = edges[e]
        adj[u].append(v)
        adj[v].append(u)
    degree = np.array([len(a) for a in adj])
    neighbour_max = [max(a) if a else -1 for a in adj]
    return degree, neighbour_max, adj


def label_groups_mean(X, y, n_classes=3):
    groups = [[] for _ in range(n_classes)]
    for i, label in enumerate(y):
        groups[label].append(X[i])
    return np.array([np.mean(g, axis=0) if g else np.zeros(X.shape[1]) for g in groups])


def _rng(s=0):
    return np.random.default_rng(s)


def _prices(n=20, seed=80):
    return 100 * np.exp(np.cumsum(_rng(seed).normal(0.001, 0.02, n)))


def _graph(n=6, seed=81):
    A = (_rng(seed).random((n, n)) < 0.4).astype(int)
    np.fill_diagonal(A, 0)
    return A


def _undirected(n=7, seed=82):
    A = np.triu((_rng(seed).random((n, n)) < 0.3).astype(int), 1)
    return A + A.T


def _weighted(n=5, seed=83):
    W = np.round(_rng(seed).uniform(1, 9, (n, n))) * (_rng(seed + 1).random((n, n)) < 0.6)
    np.fill_diagonal(W, 0)
    return W


def _fw(n=5, seed=84):
    W = _weighted(n, seed)
    D = np.where(W > 0, W, np.inf)
    np.fill_diagonal(D, 0)
    return D


def _dd(n=4, seed=85):
    M = _rng(seed).normal(size=(n, n))
    return M + np.diag(np.abs(M).sum(axis=1) + 1)


def _img(h=8, w=7, seed=86):
    return (_rng(seed).random((h, w)) * 255).astype(np.uint8)


def _sig(n=64, seed=87):
    t = np.arange(n) / 100.0
    return np.sin(2 * np.pi * 12 * t) + 0.3 * _rng(seed).normal(size=n)


def _life():
    Z = np.zeros((8, 8), dtype=int)
    Z[1, 2] = Z[2, 3] = Z[3, 1] = Z[3, 2] = Z[3, 3] = 1
    return Z


def _wire():
    G = np.zeros((5, 8), dtype=int)
    G[2, :] = 3
    G[2, 1] = 2
    G[2, 2] = 1
    return G


def _sudoku():
    b = np.zeros((9, 9), dtype=int)
    b[0, :4] = [5, 3, 0, 7]
    b[1, 0] = 6
    b[2, 1:3] = [9, 8]
    b[4, 2] = 4
    return b


CASES = [
    # 100 numpy exercises
    ("n100_checkerboard", n100_checkerboard, lambda: (), {}),
    ("n100_unravel_100th", n100_unravel_100th, lambda: (), {}),
    ("n100_bincount_accumulate", n100_bincount_accumulate,
     lambda: (np.array([1.0, 2, 3, 4, 5, 6]), np.array([1, 3, 9, 3, 4, 1])), {}),
    ("n100_unique_colors", n100_unique_colors,
     lambda: (_rng(1).integers(0, 2, (6, 6, 3)).astype(np.ubyte),), {}),
    ("n100_sum_last_two_axes", n100_sum_last_two_axes, lambda: (_rng(2).integers(0, 10, (3, 4, 3, 4)),), {}),
    ("n100_subset_means", n100_subset_means,
     lambda: (_rng(3).uniform(0, 1, 20), _rng(4).integers(0, 5, 20)), {}),
    ("n100_diag_of_dot", n100_diag_of_dot,
     lambda: (_rng(5).uniform(0, 1, (4, 4)), _rng(6).uniform(0, 1, (4, 4))), {}),
    ("n100_interleave_zeros", n100_interleave_zeros, lambda: (np.array([1, 2, 3, 4, 5]),), {}),
    ("n100_repeat_from_bincount", n100_repeat_from_bincount,
     lambda: (np.bincount([1, 1, 2, 3, 4, 4, 6]),), {}),
    ("n100_rolling_as_strided", n100_rolling_as_strided, lambda: (np.arange(10),), {}),
    ("n100_negate_inplace", n100_negate_inplace,
     lambda: (_rng(7).uniform(-1.0, 1.0, 6), _rng(8).integers(0, 2, 6).astype(bool)), {}),
    ("n100_n_largest", n100_n_largest, lambda: (_rng(9).permutation(20).astype(float),), {}),
    ("n100_rows_unequal", n100_rows_unequal, lambda: (_rng(10).integers(0, 2, (8, 3)),), {}),
    ("n100_int_to_binary", n100_int_to_binary, lambda: (np.array([0, 1, 2, 3, 15, 16, 32, 64, 128]),), {}),
    ("n100_einsum_family", n100_einsum_family,
     lambda: (_rng(11).uniform(0, 1, 5), _rng(12).uniform(0, 1, 5)), {}),
    ("n100_equidistant_path", n100_equidistant_path, lambda: (), {}),
    ("n100_multinomial_rows", n100_multinomial_rows, lambda: (np.asarray(_rng(13).integers(0, 5, (12, 3))),), {}),
    ("n100_bootstrap_confint", n100_bootstrap_confint, lambda: (_rng(14).normal(size=20),), {"rand": True}),
    ("n100_point_distances", n100_point_distances, lambda: (_rng(15).random((6, 2)),), {}),
    ("n100_fromfunction", n100_fromfunction, lambda: (), {}),
    ("n100_fromiter", n100_fromiter, lambda: (), {}),
    ("n100_reduceat", n100_reduceat, lambda: (_rng(16).integers(0, 2, (6, 6)),), {}),
    ("n100_put_random", n100_put_random, lambda: (), {"rand": True}),
    ("n100_cauchy", n100_cauchy, lambda: (np.arange(4), np.arange(4) + 0.5), {}),
    ("n100_type_limits", n100_type_limits, lambda: (), {}),
    ("n100_ndenumerate", n100_ndenumerate, lambda: (_rng(17).random((3, 3)),), {}),
    ("n100_symmetric", n100_symmetric, lambda: (_rng(18).integers(0, 10, (4, 4)),), {}),
    ("n100_tensordot", n100_tensordot,
     lambda: (np.ones((3, 4, 4)), np.ones((3, 4, 1))), {}),
    ("n100_sliding_3x3", n100_sliding_3x3, lambda: (_rng(19).integers(0, 5, (6, 6)),), {}),
    ("n100_float_view_inplace", n100_float_view_inplace, lambda: (_rng(20).random(6) * 100,), {}),
    # Python Data Science Handbook
    ("pdsh_histogram_add_at", pdsh_histogram_add_at, lambda: (_rng(21).normal(size=40),), {}),
    ("pdsh_selection_sort", pdsh_selection_sort, lambda: (np.array([2, 1, 4, 3, 5]),), {}),
    ("pdsh_knn_argpartition", pdsh_knn_argpartition, lambda: (_rng(22).random((7, 2)),), {}),
    ("pdsh_rainfall", pdsh_rainfall,
     lambda: (np.where(_rng(23).random(365) < 0.6, 0.0, _rng(24).exponential(0.4, 365)),), {}),
    ("pdsh_ufunc_out", pdsh_ufunc_out, lambda: (), {}),
    ("pdsh_fancy_combined", pdsh_fancy_combined, lambda: (np.arange(12).reshape((3, 4)),), {}),
    ("pdsh_president_heights", pdsh_president_heights,
     lambda: (np.array([189, 170, 189, 163, 183, 171, 185, 168, 173, 183, 173, 173, 175, 178, 183]),), {}),
    ("pdsh_binning_manual", pdsh_binning_manual, lambda: (_rng(25).normal(size=25),), {}),
    ("pdsh_sorting_axes", pdsh_sorting_axes, lambda: (_rng(26).integers(0, 10, (4, 6)),), {}),
    ("pdsh_structured", pdsh_structured,
     lambda: ([25, 45, 37, 19], [55.0, 85.5, 68.0, 61.5]), {}),
    # finance
    ("ewma_span_loop", ewma_span_loop, lambda: (_prices(),), {}),
    ("rolling_sharpe_cumsum", rolling_sharpe_cumsum, lambda: (np.diff(np.log(_prices())),), {}),
    ("var_cvar", var_cvar, lambda: (np.diff(_prices(40)) / _prices(40)[:-1],), {}),
    ("drawdown_duration", drawdown_duration, lambda: (_prices(),), {}),
    ("cagr_vol", cagr_vol, lambda: (_prices(),), {}),
    ("pct_change_padded", pct_change_padded, lambda: (_prices(10),), {}),
    ("average_true_range", average_true_range,
     lambda: (_prices(12) + 1, _prices(12) - 1, _prices(12)), {}),
    ("rebalance_shares", rebalance_shares,
     lambda: (np.stack([_prices(6, 90), _prices(6, 91)], axis=1), np.array([0.6, 0.4])), {}),
    ("stochastic_oscillator", stochastic_oscillator, lambda: (_prices(15),), {}),
    # images
    ("hist_equalize_masked", hist_equalize_masked, lambda: (_img(),), {}),
    ("sobel_loops", sobel_loops, lambda: (_img().astype(float),), {}),
    ("box_blur_integral", box_blur_integral, lambda: (_img(),), {}),
    ("median_filter_pad_loops", median_filter_pad_loops, lambda: (_img(6, 6),), {}),
    ("otsu_loop", otsu_loop, lambda: (_img(),), {}),
    ("rgb_to_gray_dot", rgb_to_gray_dot, lambda: ((_rng(27).random((4, 5, 3)) * 255).astype(np.uint8),), {}),
    ("nearest_resize", nearest_resize, lambda: (_img(4, 5), 7, 9), {}),
    ("gaussian_blur_kernel_loops", gaussian_blur_kernel_loops, lambda: (_img(6, 6).astype(np.float32),), {}),
    ("threshold_invert_uint8", threshold_invert_uint8, lambda: (_img(),), {}),
    ("flips_and_rotations", flips_and_rotations,
     lambda: ((_rng(28).random((3, 4, 3)) * 255).astype(np.uint8),), {}),
    # signals
    ("windowed_fft_peak", windowed_fft_peak, lambda: (_sig(),), {}),
    ("fir_filter_loop", fir_filter_loop, lambda: (_sig(24), np.array([0.25, 0.5, 0.25])), {}),
    ("zero_crossings_sign", zero_crossings_sign, lambda: (_sig(30),), {}),
    ("autocorr_correlate", autocorr_correlate, lambda: (_sig(32),), {}),
    ("mfcc_framing", mfcc_framing, lambda: (_sig(200),), {}),
    ("dft_double_loop", dft_double_loop, lambda: (_sig(8),), {}),
    ("frame_rms_list", frame_rms_list, lambda: (_sig(32),), {}),
    ("resample_interp", resample_interp, lambda: (_sig(10),), {}),
    # Monte Carlo
    ("walk_first_passage", walk_first_passage, lambda: (), {"rand": True}),
    ("bootstrap_list_percentile", bootstrap_list_percentile, lambda: (_rng(29).normal(size=15),), {"rand": True}),
    ("ising_sweeps", ising_sweeps, lambda: (), {"rand": True}),
    ("mc_pi_scalar_loop", mc_pi_scalar_loop, lambda: (), {"rand": True}),
    ("coupon_collector", coupon_collector, lambda: (), {"rand": True}),
    ("poisson_arrivals", poisson_arrivals, lambda: (), {"rand": True}),
    ("markov_weather", markov_weather,
     lambda: (np.array([[0.7, 0.2, 0.1], [0.3, 0.4, 0.3], [0.2, 0.3, 0.5]]),), {"rand": True}),
    ("random_walk_2d_angles", random_walk_2d_angles, lambda: (), {"rand": True}),
    # graphs
    ("floyd_warshall_broadcast", floyd_warshall_broadcast, lambda: (_fw(),), {}),
    ("pagerank_dangling", pagerank_dangling, lambda: (_graph(),), {}),
    ("dijkstra_argmin", dijkstra_argmin, lambda: (_weighted(),), {}),
    ("bfs_queue", bfs_queue, lambda: (_undirected(),), {}),
    ("degree_stats_dict", degree_stats_dict, lambda: (_undirected(),), {}),
    ("triangle_count", triangle_count, lambda: (_undirected(6, 88),), {}),
    ("bellman_ford", bellman_ford,
     lambda: ([(0, 1, 4.0), (0, 2, 5.0), (1, 2, -2.0), (2, 3, 3.0), (3, 1, 1.0)], 4), {}),
    ("union_find_components", union_find_components, lambda: (_undirected(8, 89),), {}),
    ("warshall_bool", warshall_bool, lambda: (_graph(5, 90),), {}),
    # numerical methods
    ("bisection_lambda", bisection_lambda, lambda: (), {}),
    ("rk4_inner_def", rk4_inner_def, lambda: ([1.0, 0.0],), {}),
    ("simpson_builtin_sum", simpson_builtin_sum, lambda: (), {}),
    ("power_iteration_norm", power_iteration_norm,
     lambda: (np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]]),), {}),
    ("jacobi_allclose", jacobi_allclose, lambda: (_dd(), np.array([1.0, 2.0, 3.0, 4.0])), {}),
    ("golden_section", golden_section, lambda: (), {}),
    ("trapezoid_vs_exact", trapezoid_vs_exact, lambda: (), {}),
    ("finite_difference_jacobian", finite_difference_jacobian, lambda: (np.array([1.0, 2.0, 0.5]),), {}),
    ("euler_lists", euler_lists, lambda: (), {}),
    # games and automata
    ("life_generator_sum", life_generator_sum, lambda: (_life(),), {}),
    ("langton_tuple_dirs", langton_tuple_dirs, lambda: (), {}),
    ("rule_automaton_bits", rule_automaton_bits, lambda: (), {}),
    ("nim_xor", nim_xor, lambda: ([3, 4, 5],), {}),
    ("mastermind_score", mastermind_score, lambda: (np.array([1, 2, 3, 4]), np.array([2, 2, 4, 1])), {}),
    ("sudoku_candidates", sudoku_candidates, lambda: (_sudoku(), 1, 2), {}),
    ("wireworld_step", wireworld_step, lambda: (_wire(),), {}),
    ("snake_board", snake_board, lambda: (), {}),
    # statistics
    ("zscore_ddof", zscore_ddof, lambda: (_rng(30).normal(size=12).astype(np.float32),), {}),
    ("welford_history", welford_history, lambda: (_rng(31).normal(size=10),), {}),
    ("weighted_percentile_interp", weighted_percentile_interp,
     lambda: (_rng(32).normal(size=9), _rng(33).random(9)), {}),
    ("rank_min_searchsorted", rank_min_searchsorted, lambda: (np.array([3, 1, 4, 1, 5, 9, 2, 6, 5]),), {}),
    ("mode_unique_counts", mode_unique_counts, lambda: (np.array([1, 3, 2, 3, 1, 3, 5]),), {}),
    ("covariance_manual", covariance_manual, lambda: (_rng(34).normal(size=(10, 3)),), {}),
    ("kendall_tau_loops", kendall_tau_loops,
     lambda: (np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), np.array([2.0, 1.0, 4.0, 3.0, 6.0, 5.0])), {}),
    ("chi2_goodness", chi2_goodness, lambda: ([18, 22, 21, 19, 25, 15],), {}),
    ("quantile_bins", quantile_bins, lambda: (_rng(35).normal(size=17),), {}),
    ("describe_dict", describe_dict, lambda: (_rng(36).normal(size=13),), {}),
    ("moving_zscore_anomalies", moving_zscore_anomalies, lambda: (_sig(30),), {}),
    ("float32_standardize_clip", float32_standardize_clip,
     lambda: (_rng(37).normal(size=(8, 3)).astype(np.float32),), {}),
    ("bucket_sort_lists", bucket_sort_lists, lambda: (_rng(38).random(14),), {}),
    ("adjacency_degrees", adjacency_degrees,
     lambda: (np.array([[0, 1], [1, 2], [2, 0], [0, 3], [1, 3], [2, 1], [3, 3], [1, 0],
                        [2, 3], [0, 2]]),), {}),
    ("label_groups_mean", label_groups_mean,
     lambda: (_rng(39).normal(size=(11, 2)), np.array([0, 2, 2, 0, 2, 0, 0, 2, 2, 0, 0])), {}),
    # dicts and counters
    ("knn_vote_counter", knn_vote_counter,
     lambda: (_rng(38).normal(size=(20, 2)), _rng(39).integers(0, 3, 20), np.zeros(2)), {}),
    ("centroids_in_place", centroids_in_place,
     lambda: (_rng(40).normal(size=(15, 3)), _rng(41).integers(0, 4, 15)), {}),
    ("drop_rare_labels", drop_rare_labels, lambda: (np.array([4, 1, 4, 2, 4, 1, 7]),), {}),
    ("sparse_accumulate", sparse_accumulate,
     lambda: (np.array([3, 0, 3, 5, 0]), _rng(42).normal(size=5).tolist(), 5), {}),
    ("train_params_dict", train_params_dict,
     lambda: (_rng(43).normal(size=(12, 2)), (_rng(44).random(12) > 0.5).astype(float)), {}),
]
