"""Everyday NumPy functions, batch C: statistics, cleaning, sorting, exercises."""
import numpy as np


# 39. z-scores and outlier mask
def zscore_outliers(x, thresh=2.0):
    z = (x - x.mean()) / x.std()
    outliers = np.abs(z) > thresh
    return z, np.where(outliers)[0], int(outliers.sum())


# 40. histogram with np.histogram and density
def hist_stats(data, bins=5):
    counts, edges = np.histogram(data, bins=bins)
    centers = (edges[:-1] + edges[1:]) / 2
    mode_bin = centers[np.argmax(counts)]
    dens, _ = np.histogram(data, bins=bins, density=True)
    return counts, edges, mode_bin, dens


# 41. bincount histogram of integer labels with weights
def class_weights(labels, n_classes):
    counts = np.bincount(labels, minlength=n_classes)
    weights = len(labels) / (n_classes * np.maximum(counts, 1))
    sample_w = weights[labels]
    return counts, weights, sample_w


# 42. percentiles, IQR outlier filtering
def iqr_filter(x):
    q1, q3 = np.percentile(x, [25, 75])
    iqr = q3 - q1
    lo, hi = q1 - 1.5 * iqr, q3 + 1.5 * iqr
    kept = x[(x >= lo) & (x <= hi)]
    return kept, np.median(kept), (q1, q3)


# 43. NaN handling: fill column means (data cleaning)
def fill_nan_with_col_mean(X):
    col_mean = np.nanmean(X, axis=0)
    inds = np.where(np.isnan(X))
    X[inds] = np.take(col_mean, inds[1])
    return X


# 44. drop rows with any NaN, count per column
def drop_nan_rows(X):
    mask = ~np.isnan(X).any(axis=1)
    n_missing = np.isnan(X).sum(axis=0)
    return X[mask], n_missing


# 45. clean sensor data: clip, replace negatives, interpolate NaN
def clean_sensor(t, v):
    v = v.copy()
    v[v < 0] = np.nan
    bad = np.isnan(v)
    v[bad] = np.interp(t[bad], t[~bad], v[~bad])
    return np.clip(v, 0, 10)


# 46. rank via argsort of argsort
def ranks(x):
    order = x.argsort()
    r = order.argsort()
    return r + 1


# 47. rank with average ties by loop
def rank_avg_ties(x):
    n = len(x)
    idx = np.argsort(x, kind="stable")
    r = np.empty(n)
    i = 0
    while i < n:
        j = i
        while j + 1 < n and x[idx[j + 1]] == x[idx[i]]:
            j += 1
        avg = (i + j) / 2.0 + 1
        for k in range(i, j + 1):
            r[idx[k]] = avg
        i = j + 1
    return r


# 48. distance matrix with broadcasting, nearest neighbour
def distance_matrix(A, B):
    D = np.sqrt(((A[:, np.newaxis, :] - B[np.newaxis, :, :]) ** 2).sum(-1))
    nearest = D.argmin(axis=1)
    return D, nearest


# 49. pairwise distances via dot trick, fill diagonal inf
def pairwise_sq(X):
    sq = np.sum(X ** 2, axis=1)
    D = sq[:, None] + sq[None, :] - 2 * X @ X.T
    D = np.maximum(D, 0)
    np.fill_diagonal(D, np.inf)
    return D, D.min(axis=1)


# 50. cumulative ops: running max drawdown
def max_drawdown(prices):
    running_max = np.maximum.accumulate(prices)
    drawdown = (prices - running_max) / running_max
    i = np.argmin(drawdown)
    j = np.argmax(prices[:i + 1]) if i > 0 else 0
    return drawdown.min(), int(j), int(i)


# 51. diff / searchsorted / digitize: bucketing
def bucketize(x, edges):
    b1 = np.digitize(x, edges)
    b2 = np.searchsorted(edges, x, side="right")
    gaps = np.diff(np.sort(x))
    return b1, b2, gaps, np.diff(x, n=2)


# 52. run-length encoding with diff
def run_lengths(a):
    n = len(a)
    starts = np.r_[0, np.flatnonzero(np.diff(a)) + 1]
    lengths = np.diff(np.r_[starts, n])
    return a[starts], lengths


# 53. 100 numpy exercises: checkerboard, normalise 5x5 random, etc.
def exercises_misc(Z):
    check = np.zeros((8, 8), dtype=int)
    check[1::2, ::2] = 1
    check[::2, 1::2] = 1
    Zn = (Z - np.min(Z)) / (np.max(Z) - np.min(Z))
    border = np.ones((5, 5))
    border[1:-1, 1:-1] = 0
    Z2 = np.arange(11)
    Z2[(3 < Z2) & (Z2 < 8)] *= -1
    nz = np.nonzero([1, 2, 0, 0, 4, 0])
    return check, Zn, border, Z2, nz


# 54. 100 numpy exercises: closest value, swap rows, subtract row mean
def exercises_more(Z, v):
    closest = Z[(np.abs(Z - v)).argmin()]
    A = np.arange(25).reshape(5, 5)
    A[[0, 1]] = A[[1, 0]]
    M = np.arange(12, dtype=float).reshape(3, 4)
    Y = M - M.mean(axis=1, keepdims=True)
    n_largest = Z[np.argsort(Z)[-3:]]
    return closest, A, Y, n_largest


# 55. sliding windows and rolling std
def rolling_std(x, w=4):
    win = np.lib.stride_tricks.sliding_window_view(x, w)
    return win.std(axis=1), win.mean(axis=-1)


# 56. bootstrap CI of the mean (seeded generator) - shapes only
def bootstrap_ci(x, n_boot=200, seed=1):
    rng = np.random.default_rng(seed)
    means = np.empty(n_boot)
    for b in range(n_boot):
        sample = rng.choice(x, size=len(x), replace=True)
        means[b] = sample.mean()
    return np.percentile(means, [2.5, 97.5])


# 57. correlation matrix, top correlated pair
def top_corr_pair(X):
    C = np.corrcoef(X, rowvar=False)
    C_off = C - np.eye(C.shape[0])
    i, j = np.unravel_index(np.argmax(np.abs(C_off)), C_off.shape)
    return C, (int(i), int(j))


# 58. group-by mean with unique/return_inverse
def groupby_mean(keys, vals):
    uk, inv = np.unique(keys, return_inverse=True)
    sums = np.zeros(len(uk))
    np.add.at(sums, inv, vals)
    cnt = np.bincount(inv)
    return uk, sums / cnt


# 59. polynomial fit and evaluation, residuals
def polyfit_resid(x, y, deg=2):
    coefs = np.polyfit(x, y, deg)
    fitted = np.polyval(coefs, x)
    resid = y - fitted
    r2 = 1 - np.sum(resid ** 2) / np.sum((y - y.mean()) ** 2)
    return coefs, r2


# 60. min-max scaling per column with list comprehension + column_stack
def minmax_cols(X):
    cols = [(X[:, j] - X[:, j].min()) / (X[:, j].max() - X[:, j].min())
            for j in range(X.shape[1])]
    return np.column_stack(cols)


# 61. cumulative returns and stats dict
def returns_summary(prices):
    r = np.diff(prices) / prices[:-1]
    cum = np.cumprod(1 + r) - 1
    stats = {"mean": r.mean(), "vol": r.std(ddof=1),
             "sharpe": r.mean() / r.std(ddof=1) * np.sqrt(252),
             "best": float(r.max()), "worst_day": int(np.argmin(r))}
    return cum, stats


# 62. bubble sort in place with swaps
def bubble_sort(a):
    n = len(a)
    for i in range(n):
        swapped = False
        for j in range(0, n - i - 1):
            if a[j] > a[j + 1]:
                a[j], a[j + 1] = a[j + 1], a[j]
                swapped = True
        if not swapped:
            break
    return a


# 63. binary search with while loop over sorted array
def binary_search(arr, target):
    lo, hi = 0, len(arr) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if arr[mid] == target:
            return mid
        elif arr[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


# 64. sieve of Eratosthenes with boolean array
def sieve(n=50):
    is_prime = np.ones(n + 1, dtype=bool)
    is_prime[:2] = False
    for i in range(2, int(np.sqrt(n)) + 1):
        if is_prime[i]:
            is_prime[i * i::i] = False
    return np.nonzero(is_prime)[0]


# 65. weighted average with nan mask, masked stats
def nan_weighted_avg(x, w):
    m = ~np.isnan(x)
    avg = np.average(x[m], weights=w[m])
    return avg, np.nanstd(x), np.nanmax(x), np.count_nonzero(m)
