"""Everyday NumPy functions, twelfth collection: data-science and analysis scripts
written without pandas, the way they appear in Kaggle notebooks, blog posts, course
assignments and small GitHub utility repos. Time series (rolling mean and standard
deviation by ``cumsum`` and by loops, exponentially weighted means, lag features,
differencing and undifferencing, autocorrelation and partial autocorrelation by
hand, seasonal decomposition by ``reshape``, resampling by reshape and mean,
forward and backward fill of NaN, outlier clipping by a rolling MAD, Holt's linear
trend); finance (simple and log returns, cumulative returns, drawdowns and the
longest drawdown, Sharpe and Sortino, rolling beta, minimum-variance and tangency
portfolios in closed form, Black-Scholes with ``math.erf`` through ``np.vectorize``
and with a polynomial normal CDF, binomial trees, Monte Carlo pricing with a seeded
``default_rng``, VaR and CVaR by percentiles, amortisation schedules); ML evaluation
(ROC and AUC by sorting and trapezoids, precision-recall and average precision,
per-class F1 from a confusion matrix, log loss with clipping, Brier score and
calibration bins, k-fold and stratified splits, bootstrap of a metric, MCC, KS);
feature engineering (one-hot by ``np.eye`` and by loops, label encoding with
``np.unique(return_inverse=True)``, quantile and equal-width binning with
``np.digitize``/``np.searchsorted``, polynomial features with
``itertools.combinations_with_replacement``, standard, min-max and robust scalers as
classes with ``fit``/``transform``, imputation by column means and medians,
interaction terms, smoothed target encoding); recommenders and text on integer token
arrays (matrix factorisation by SGD, user-based cosine similarity, top-k by
``argsort``/``argpartition``, n-gram counts with ``Counter`` keyed by int tuples,
TF-IDF, BM25, Jaccard of sets, NDCG, co-occurrence windows, MinHash); and A/B
test statistics (z-test for proportions, Welch's t, chi-square of a contingency
table, bootstrap and permutation differences of means, Mann-Whitney U, sample
sizes). Styles vary on purpose: loops appending to lists then ``np.array``,
vectorised one-liners, small classes, nested helpers, keyword defaults,
``float()``/``int()``/``.item()``/``.tolist()``, in-place updates of arguments,
``out=``/``where=``, ``np.errstate`` blocks, dicts, tuples and f-strings in results,
early returns and ``ValueError`` validation. Each entry of CASES is
(name, function, make_args, opts); make_args() returns the arguments; opts
{"rand": True} marks a function that draws random numbers inside (compared by
type, dtype and shape only)."""
import functools
import heapq
import itertools
import math
import statistics
from collections import Counter, defaultdict

import numpy as np


# ----------------------------------------------------------------------------
# Time series
# ----------------------------------------------------------------------------

def rolling_mean_cumsum(x, window=5):
    """Rolling mean via the cumsum trick, padded with NaN at the front."""
    x = np.asarray(x, dtype=float)
    if window < 1 or window > len(x):
        raise ValueError("bad window")
    c = np.cumsum(np.insert(x, 0, 0.0))
    out = np.full(x.shape, np.nan)
    out[window - 1:] = (c[window:] - c[:-window]) / window
    return out


def rolling_std_loop(x, window=4, ddof=1):
    res = []
    for i in range(len(x)):
        if i < window - 1:
            res.append(np.nan)
            continue
        chunk = x[i - window + 1:i + 1]
        m = sum(chunk) / window
        ss = sum((v - m) ** 2 for v in chunk)
        res.append(math.sqrt(ss / (window - ddof)))
    return np.array(res)


def ewma_adjusted(x, alpha=0.3, adjust=True):
    """pandas-style ewm().mean() for both adjust modes, NaN-free input."""
    x = np.asarray(x, dtype=np.float64)
    n = x.shape[0]
    out = np.empty(n)
    if adjust:
        w = (1 - alpha) ** np.arange(n)[::-1]
        for t in range(n):
            ww = w[n - t - 1:]
            out[t] = np.dot(ww, x[:t + 1]) / ww.sum()
    else:
        out[0] = x[0]
        for t in range(1, n):
            out[t] = alpha * x[t] + (1 - alpha) * out[t - 1]
    return out


def lag_feature_matrix(series, lags=(1, 2, 3), drop_na=True):
    series = np.asarray(series, dtype=float)
    cols = [series]
    for L in lags:
        shifted = np.empty_like(series)
        shifted[:L] = np.nan
        shifted[L:] = series[:-L]
        cols.append(shifted)
    M = np.column_stack(cols)
    if drop_na:
        M = M[~np.isnan(M).any(axis=1)]
    return M[:, 1:], M[:, 0]


def difference_roundtrip(x, order=2):
    x = np.array(x, dtype=float)
    heads = []
    d = x
    for _ in range(order):
        heads.append(d[0])
        d = np.diff(d)
    rec = d.copy()
    for h in reversed(heads):
        rec = np.concatenate([[h], h + np.cumsum(rec)])
    return {"diffed": d, "restored": rec, "ok": bool(np.allclose(rec, x))}


def autocorrelation_by_hand(x, nlags=10):
    x = np.asarray(x, dtype=float)
    xm = x - x.mean()
    denom = np.dot(xm, xm)
    acf = [1.0]
    for k in range(1, nlags + 1):
        acf.append(float(np.dot(xm[:-k], xm[k:]) / denom))
    acf = np.array(acf)
    bound = 1.96 / np.sqrt(len(x))
    significant = np.nonzero(np.abs(acf[1:]) > bound)[0] + 1
    return acf, significant.tolist()


def pacf_durbin_levinson(x, nlags=6):
    x = np.asarray(x, dtype=np.float64)
    n = len(x)
    xm = x - x.mean()
    r = np.array([np.sum(xm[:n - k] * xm[k:]) for k in range(nlags + 1)]) / np.sum(xm ** 2)
    pacf = np.zeros(nlags + 1)
    pacf[0] = 1.0
    phi = np.zeros((nlags + 1, nlags + 1))
    phi[1, 1] = r[1]
    pacf[1] = r[1]
    for k in range(2, nlags + 1):
        num = r[k] - np.sum(phi[k - 1, 1:k] * r[1:k][::-1])
        den = 1.0 - np.sum(phi[k - 1, 1:k] * r[1:k])
        phi[k, k] = num / den
        for j in range(1, k):
            phi[k, j] = phi[k - 1, j] - phi[k, k] * phi[k - 1, k - j]
        pacf[k] = phi[k, k]
    return pacf


def seasonal_decompose_reshape(y, period=12):
    y = np.asarray(y, dtype=float)
    n_full = (len(y) // period) * period
    y = y[:n_full]
    # centred moving average trend
    if period % 2 == 0:
        w = np.r_[0.5, np.ones(period - 1), 0.5] / period
    else:
        w = np.ones(period) / period
    trend = np.convolve(y, w, mode="same")
    half = len(w) // 2
    trend[:half] = np.nan
    trend[-half:] = np.nan
    detr = y - trend
    seasonal_idx = np.nanmean(detr.reshape(-1, period), axis=0)
    seasonal_idx -= seasonal_idx.mean()
    seasonal = np.tile(seasonal_idx, n_full // period)
    resid = y - trend - seasonal
    return trend, seasonal, resid


def resample_reshape_mean(values, factor=4, how="mean"):
    values = np.asarray(values)
    n = len(values) - len(values) % factor
    blocks = values[:n].reshape(-1, factor)
    if how == "mean":
        return blocks.mean(axis=1)
    elif how == "sum":
        return blocks.sum(axis=1)
    elif how == "last":
        return blocks[:, -1]
    elif how == "ohlc":
        return np.stack([blocks[:, 0], blocks.max(1), blocks.min(1), blocks[:, -1]], axis=1)
    raise ValueError(f"unknown how={how!r}")


def resample_all_modes(values, factor=5):
    return {h: resample_reshape_mean(values, factor, h) for h in ("mean", "sum", "last", "ohlc")}


def ffill_bfill(arr):
    arr = np.asarray(arr, dtype=float)
    mask = np.isnan(arr)
    idx = np.where(~mask, np.arange(len(arr)), 0)
    np.maximum.accumulate(idx, out=idx)
    ff = arr[idx]
    # backward fill by reversing
    rev = arr[::-1]
    rmask = np.isnan(rev)
    ridx = np.where(~rmask, np.arange(len(rev)), 0)
    np.maximum.accumulate(ridx, out=ridx)
    bf = rev[ridx][::-1]
    # leading NaNs of ff stay NaN
    first = np.argmax(~mask)
    ff[:first] = np.nan
    last_valid = len(arr) - 1 - np.argmax(~rmask)
    bf[last_valid + 1:] = np.nan
    both = np.where(np.isnan(ff), bf, ff)
    return ff, bf, both


def ffill_loop_limit(x, limit=2):
    out = list(x)
    last = None
    run = 0
    for i, v in enumerate(out):
        if v != v:  # NaN check
            run += 1
            if last is not None and run <= limit:
                out[i] = last
        else:
            last = v
            run = 0
    return np.array(out, dtype=float)


def rolling_mad_clip(x, window=7, k=3.0):
    x = np.asarray(x, dtype=float).copy()
    half = window // 2
    n = len(x)
    flagged = []
    med = np.empty(n)
    mad = np.empty(n)
    for i in range(n):
        lo, hi = max(0, i - half), min(n, i + half + 1)
        w = x[lo:hi]
        med[i] = np.median(w)
        mad[i] = 1.4826 * np.median(np.abs(w - med[i]))
    upper = med + k * mad
    lower = med - k * mad
    for i in range(n):
        if x[i] > upper[i] or x[i] < lower[i]:
            flagged.append(i)
    np.clip(x, lower, upper, out=x)
    return x, flagged


def holt_linear_forecast(y, alpha=0.5, beta=0.3, horizon=5):
    level, trend = float(y[0]), float(y[1] - y[0])
    fitted = [level]
    for t in range(1, len(y)):
        prev_level = level
        level = alpha * y[t] + (1 - alpha) * (level + trend)
        trend = beta * (level - prev_level) + (1 - beta) * trend
        fitted.append(level)
    fc = level + trend * np.arange(1, horizon + 1)
    sse = float(np.sum((np.asarray(y) - np.array(fitted)) ** 2))
    return np.array(fitted), fc, sse


def rolling_zscore_sliding(x, window=10, thresh=2.0):
    from numpy.lib.stride_tricks import sliding_window_view
    x = np.asarray(x, dtype=np.float32)
    win = sliding_window_view(x, window)[:-1]
    mu = win.mean(axis=1)
    sd = win.std(axis=1, ddof=1)
    z = np.zeros_like(x)
    with np.errstate(divide="ignore", invalid="ignore"):
        np.divide(x[window:] - mu, sd, out=z[window:], where=sd > 0)
    return z, np.flatnonzero(np.abs(z) > thresh)


# ----------------------------------------------------------------------------
# Finance
# ----------------------------------------------------------------------------

def returns_simple_and_log(prices):
    prices = np.asarray(prices, dtype=float)
    simple = prices[1:] / prices[:-1] - 1
    logr = np.diff(np.log(prices), axis=0)
    total_simple = np.prod(1 + simple, axis=0) - 1
    total_log = np.exp(logr.sum(axis=0)) - 1
    return simple, logr, total_simple, bool(np.allclose(total_simple, total_log))


def cumulative_returns_report(returns, names=None):
    returns = np.asarray(returns)
    if names is None:
        names = [f"asset_{i}" for i in range(returns.shape[1])]
    cum = np.cumprod(1 + returns, axis=0) - 1
    report = {}
    for j, name in enumerate(names):
        report[name] = {
            "final": round(float(cum[-1, j]), 6),
            "best_day": int(np.argmax(returns[:, j])),
            "worst_day": int(np.argmin(returns[:, j])),
            "pct_positive": float((returns[:, j] > 0).mean()),
        }
    return cum, report


def drawdown_stats(prices):
    p = np.asarray(prices, dtype=float)
    peak = np.maximum.accumulate(p)
    dd = p / peak - 1.0
    max_dd = dd.min()
    trough = int(np.argmin(dd))
    peak_idx = int(np.argmax(p[:trough + 1])) if trough > 0 else 0
    # longest run underwater
    longest = cur = 0
    start = best_start = 0
    for i, v in enumerate(dd < 0):
        if v:
            if cur == 0:
                start = i
            cur += 1
            if cur > longest:
                longest, best_start = cur, start
        else:
            cur = 0
    return {"max_drawdown": float(max_dd), "peak": peak_idx, "trough": trough,
            "longest_duration": longest, "longest_start": best_start, "series": dd}


def sharpe_sortino(returns, rf=0.0, periods=252):
    r = np.asarray(returns, dtype=np.float64)
    excess = r - rf / periods
    mu = excess.mean()
    sd = excess.std(ddof=1)
    downside = np.minimum(excess, 0.0)
    dd = np.sqrt(np.mean(downside ** 2))
    sharpe = mu / sd * np.sqrt(periods) if sd > 0 else float("nan")
    sortino = mu / dd * np.sqrt(periods) if dd > 0 else float("inf")
    calmar_like = mu * periods / abs(np.min(np.cumsum(excess)) or 1.0)
    return f"Sharpe={sharpe:.3f} Sortino={sortino:.3f}", (float(sharpe), float(sortino), float(calmar_like))


def rolling_beta(asset, market, window=20):
    asset = np.asarray(asset, dtype=float)
    market = np.asarray(market, dtype=float)
    if asset.shape != market.shape:
        raise ValueError("shape mismatch")
    betas = np.full(len(asset), np.nan)
    for end in range(window, len(asset) + 1):
        a = asset[end - window:end]
        m = market[end - window:end]
        cov = np.cov(a, m)
        betas[end - 1] = cov[0, 1] / cov[1, 1]
    return betas


def min_variance_portfolio(returns):
    cov = np.cov(returns, rowvar=False)
    inv = np.linalg.inv(cov)
    ones = np.ones(cov.shape[0])
    w = inv @ ones / (ones @ inv @ ones)
    vol = math.sqrt(w @ cov @ w)
    return w, vol, w.sum().item()


def tangency_portfolio(mu, cov, rf=0.01):
    mu = np.asarray(mu, dtype=float)
    excess = mu - rf
    z = np.linalg.solve(cov, excess)
    w = z / z.sum()
    ret = float(w @ mu)
    vol = float(np.sqrt(w @ cov @ w))
    # efficient frontier points by two-fund theorem
    ones = np.ones_like(mu)
    A = ones @ np.linalg.solve(cov, ones)
    B = ones @ np.linalg.solve(cov, mu)
    C = mu @ np.linalg.solve(cov, mu)
    D = A * C - B * B
    targets = np.linspace(mu.min(), mu.max(), 7)
    frontier_vol = np.sqrt((A * targets ** 2 - 2 * B * targets + C) / D)
    return {"weights": w, "ret": ret, "vol": vol, "sharpe": (ret - rf) / vol,
            "frontier": np.column_stack([targets, frontier_vol])}


_vec_erf = np.vectorize(math.erf)


def _norm_cdf(x):
    return 0.5 * (1.0 + _vec_erf(np.asarray(x) / math.sqrt(2.0)))


def black_scholes_vectorized(S, K, T, r, sigma, kind="call"):
    S, K, T = np.broadcast_arrays(np.asarray(S, float), np.asarray(K, float), np.asarray(T, float))
    d1 = (np.log(S / K) + (r + 0.5 * sigma ** 2) * T) / (sigma * np.sqrt(T))
    d2 = d1 - sigma * np.sqrt(T)
    if kind == "call":
        price = S * _norm_cdf(d1) - K * np.exp(-r * T) * _norm_cdf(d2)
    elif kind == "put":
        price = K * np.exp(-r * T) * _norm_cdf(-d2) - S * _norm_cdf(-d1)
    else:
        raise ValueError("kind must be call or put")
    return price


def black_scholes_greeks_poly(S, K, T, r, sigma):
    """Greeks with the Abramowitz-Stegun 26.2.17 normal CDF (no scipy)."""
    def ncdf(x):
        x = np.asarray(x, dtype=float)
        t = 1.0 / (1.0 + 0.2316419 * np.abs(x))
        poly = t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))))
        pdf = np.exp(-0.5 * x * x) / np.sqrt(2 * np.pi)
        c = 1.0 - pdf * poly
        return np.where(x >= 0, c, 1.0 - c)

    def npdf(x):
        return np.exp(-0.5 * x ** 2) / math.sqrt(2 * math.pi)

    sqT = np.sqrt(T)
    d1 = (np.log(S / K) + (r + sigma ** 2 / 2) * T) / (sigma * sqT)
    d2 = d1 - sigma * sqT
    call = S * ncdf(d1) - K * np.exp(-r * T) * ncdf(d2)
    put = call - S + K * np.exp(-r * T)
    greeks = dict(delta=ncdf(d1), gamma=npdf(d1) / (S * sigma * sqT), vega=S * npdf(d1) * sqT,
                  theta=-S * npdf(d1) * sigma / (2 * sqT) - r * K * np.exp(-r * T) * ncdf(d2))
    return call, put, greeks


def implied_vol_bisection(price, S, K, T, r, lo=1e-4, hi=3.0, tol=1e-8):
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        p = float(black_scholes_vectorized(S, K, T, r, mid))
        if abs(p - price) < tol:
            break
        if p > price:
            hi = mid
        else:
            lo = mid
    return mid


def binomial_tree_american(S, K, T, r, sigma, steps=50, put=True):
    dt = T / steps
    u = math.exp(sigma * math.sqrt(dt))
    d = 1 / u
    p = (math.exp(r * dt) - d) / (u - d)
    disc = math.exp(-r * dt)
    j = np.arange(steps + 1)
    ST = S * u ** (steps - j) * d ** j
    V = np.maximum(K - ST, 0) if put else np.maximum(ST - K, 0)
    early = 0
    for i in range(steps - 1, -1, -1):
        ST = S * u ** (i - np.arange(i + 1)) * d ** np.arange(i + 1)
        cont = disc * (p * V[:-1] + (1 - p) * V[1:])
        ex = (K - ST) if put else (ST - K)
        early += int(np.sum(ex > cont))
        V = np.maximum(cont, ex)
    return float(V[0]), early


def binomial_tree_european_loops(S, K, T, r, sigma, n=30):
    dt = T / n
    u = math.exp(sigma * math.sqrt(dt))
    d = 1.0 / u
    q = (math.exp(r * dt) - d) / (u - d)
    values = [max(S * u ** (n - i) * d ** i - K, 0.0) for i in range(n + 1)]
    for step in range(n, 0, -1):
        values = [math.exp(-r * dt) * (q * values[i] + (1 - q) * values[i + 1]) for i in range(step)]
    return values[0]


def monte_carlo_asian_seeded(S0, K, T, r, sigma, n_paths=400, n_steps=50, seed=42):
    rng = np.random.default_rng(seed)
    dt = T / n_steps
    Z = rng.standard_normal((n_paths // 2, n_steps))
    Z = np.vstack([Z, -Z])  # antithetic
    increments = (r - 0.5 * sigma ** 2) * dt + sigma * np.sqrt(dt) * Z
    paths = S0 * np.exp(np.cumsum(increments, axis=1))
    avg = paths.mean(axis=1)
    payoff = np.maximum(avg - K, 0.0)
    disc = np.exp(-r * T) * payoff
    est = disc.mean()
    se = disc.std(ddof=1) / np.sqrt(len(disc))
    return {"price": float(est), "stderr": float(se), "ci95": (float(est - 1.96 * se), float(est + 1.96 * se))}


def monte_carlo_euro_unseeded(S0=100.0, K=105.0, T=1.0, r=0.02, sigma=0.25, n=500):
    z = np.random.normal(size=n)
    ST = S0 * np.exp((r - sigma ** 2 / 2) * T + sigma * np.sqrt(T) * z)
    payoffs = np.maximum(ST - K, 0)
    return np.exp(-r * T) * payoffs.mean(), ST


def var_cvar_percentile(returns, alphas=(0.95, 0.99), value=1_000_000):
    r = np.sort(np.asarray(returns, dtype=float))
    rows = []
    for a in alphas:
        q = np.percentile(r, 100 * (1 - a))
        tail = r[r <= q]
        cvar = tail.mean() if tail.size else q
        mu, sd = r.mean(), r.std(ddof=1)
        z = statistics.NormalDist().inv_cdf(1 - a)
        param_var = -(mu + z * sd)
        rows.append((a, -q * value, -cvar * value, param_var * value))
    return np.array(rows)


def amortization_schedule(principal, annual_rate, years, extra=0.0):
    n = int(years * 12)
    i = annual_rate / 12
    if i == 0:
        payment = principal / n
    else:
        payment = principal * i / (1 - (1 + i) ** -n)
    balance = principal
    rows = []
    for month in range(1, n + 1):
        interest = balance * i
        princ = min(payment - interest + extra, balance)
        balance -= princ
        rows.append([month, interest, princ, balance])
        if balance <= 1e-9:
            break
    sched = np.array(rows)
    return round(payment, 2), sched, float(sched[:, 1].sum())


def fifo_cost_basis(buys_qty, buys_px, sells_qty, sell_px):
    lots = [[q, p] for q, p in zip(buys_qty.tolist(), buys_px.tolist())]
    realized = []
    for q, px in zip(sells_qty, sell_px):
        remaining = q
        pnl = 0.0
        while remaining > 0 and lots:
            lot = lots[0]
            take = min(lot[0], remaining)
            pnl += take * (px - lot[1])
            lot[0] -= take
            remaining -= take
            if lot[0] == 0:
                lots.pop(0)
        realized.append(pnl)
    return np.array(realized), sum(l[0] for l in lots)


# ----------------------------------------------------------------------------
# ML evaluation
# ----------------------------------------------------------------------------

def roc_auc_sorted(y_true, scores):
    y_true = np.asarray(y_true).astype(bool)
    order = np.argsort(-scores, kind="mergesort")
    s = scores[order]
    y = y_true[order]
    distinct = np.where(np.diff(s))[0]
    thr_idx = np.r_[distinct, y.size - 1]
    tps = np.cumsum(y)[thr_idx]
    fps = 1 + thr_idx - tps
    tpr = np.r_[0, tps] / tps[-1]
    fpr = np.r_[0, fps] / fps[-1]
    auc = np.trapezoid(tpr, fpr)
    # rank-based check (Mann-Whitney)
    ranks = np.empty(len(scores))
    ranks[np.argsort(scores)] = np.arange(1, len(scores) + 1)
    n1 = y_true.sum()
    n0 = len(y_true) - n1
    auc_rank = (ranks[y_true].sum() - n1 * (n1 + 1) / 2) / (n1 * n0)
    return fpr, tpr, float(auc), float(auc_rank)


def precision_recall_ap(y_true, y_score):
    desc = np.argsort(y_score)[::-1]
    y = np.asarray(y_true)[desc]
    tp = np.cumsum(y == 1)
    fp = np.cumsum(y == 0)
    precision = tp / (tp + fp)
    recall = tp / max(int(tp[-1]), 1)
    ap = 0.0
    prev_r = 0.0
    for p, r in zip(precision, recall):
        ap += p * (r - prev_r)
        prev_r = r
    f1 = np.zeros_like(precision)
    denom = precision + recall
    np.divide(2 * precision * recall, denom, out=f1, where=denom > 0)
    best = int(np.argmax(f1))
    return precision, recall, ap, {"best_threshold": float(y_score[desc][best]), "best_f1": float(f1[best])}


def f1_per_class(y_true, y_pred, n_classes=None):
    if n_classes is None:
        n_classes = int(max(y_true.max(), y_pred.max())) + 1
    cm = np.zeros((n_classes, n_classes), dtype=np.int64)
    np.add.at(cm, (y_true, y_pred), 1)
    tp = np.diag(cm).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(cm.sum(0) > 0, tp / cm.sum(0), 0.0)
        recall = np.where(cm.sum(1) > 0, tp / cm.sum(1), 0.0)
        f1 = np.nan_to_num(2 * precision * recall / (precision + recall))
    support = cm.sum(1)
    return {
        "confusion": cm,
        "f1": f1,
        "macro_f1": f1.mean(),
        "weighted_f1": np.average(f1, weights=support),
        "micro_f1": tp.sum() / cm.sum(),
        "report": [f"class {k}: p={precision[k]:.2f} r={recall[k]:.2f} f1={f1[k]:.2f} n={support[k]}"
                   for k in range(n_classes)],
    }


def log_loss_clipped(y_true, proba, eps=1e-15):
    proba = np.asarray(proba, dtype=np.float64)
    if proba.ndim == 1:
        proba = np.column_stack([1 - proba, proba])
    np.clip(proba, eps, 1 - eps, out=proba)
    proba /= proba.sum(axis=1, keepdims=True)
    y = np.asarray(y_true, dtype=np.int64)
    ll = -np.mean(np.log(proba[np.arange(len(y)), y]))
    return ll


def log_loss_both(y_bin, p_bin, y_multi, p_multi):
    return log_loss_clipped(y_bin, p_bin), log_loss_clipped(y_multi, p_multi), p_bin


def brier_calibration(y_true, p, n_bins=10):
    y_true = np.asarray(y_true, dtype=float)
    brier = np.mean((p - y_true) ** 2)
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    which = np.clip(np.digitize(p, edges[1:-1]), 0, n_bins - 1)
    counts = np.bincount(which, minlength=n_bins)
    sum_p = np.bincount(which, weights=p, minlength=n_bins)
    sum_y = np.bincount(which, weights=y_true, minlength=n_bins)
    nz = counts > 0
    mean_p = np.divide(sum_p, counts, out=np.full(n_bins, np.nan), where=nz)
    frac_pos = np.divide(sum_y, counts, out=np.full(n_bins, np.nan), where=nz)
    ece = np.nansum(counts / counts.sum() * np.abs(frac_pos - mean_p))
    base = y_true.mean()
    skill = 1 - brier / (base * (1 - base))
    return brier, mean_p, frac_pos, float(ece), skill


def kfold_indices(n, k=5, shuffle=True, seed=0):
    idx = np.arange(n)
    if shuffle:
        np.random.default_rng(seed).shuffle(idx)
    sizes = np.full(k, n // k, dtype=int)
    sizes[: n % k] += 1
    folds = []
    current = 0
    for s in sizes:
        test = idx[current:current + s]
        train = np.concatenate([idx[:current], idx[current + s:]])
        folds.append((np.sort(train), np.sort(test)))
        current += s
    return folds


def kfold_ridge_cv(X, y, alphas=(0.01, 0.1, 1.0, 10.0), k=5):
    folds = kfold_indices(len(y), k=k, seed=7)
    scores = {}
    for a in alphas:
        errs = []
        for tr, te in folds:
            Xtr, ytr = X[tr], y[tr]
            mu, sd = Xtr.mean(0), Xtr.std(0)
            A = (Xtr - mu) / sd
            w = np.linalg.solve(A.T @ A + a * np.eye(A.shape[1]), A.T @ (ytr - ytr.mean()))
            pred = ((X[te] - mu) / sd) @ w + ytr.mean()
            errs.append(np.mean((pred - y[te]) ** 2))
        scores[a] = (float(np.mean(errs)), float(np.std(errs)))
    best = min(scores, key=lambda a: scores[a][0])
    return best, scores


def stratified_kfold(y, k=3, seed=123):
    rng = np.random.default_rng(seed)
    y = np.asarray(y)
    fold_of = np.empty(len(y), dtype=int)
    for cls in np.unique(y):
        members = np.flatnonzero(y == cls)
        rng.shuffle(members)
        fold_of[members] = np.arange(len(members)) % k
    out = []
    for f in range(k):
        test = np.flatnonzero(fold_of == f)
        train = np.flatnonzero(fold_of != f)
        dist = np.bincount(y[test], minlength=y.max() + 1) / len(test)
        out.append({"train": train, "test": test, "class_dist": dist.round(3).tolist()})
    return out


def bootstrap_metric_ci(y_true, y_pred, metric="accuracy", n_boot=200, seed=2024, ci=95):
    def acc(a, b):
        return np.mean(a == b)

    def bal_acc(a, b):
        return np.mean([np.mean(b[a == c] == c) for c in np.unique(a)])

    fn = {"accuracy": acc, "balanced_accuracy": bal_acc}.get(metric)
    if fn is None:
        raise ValueError(f"unknown metric {metric}")
    rng = np.random.default_rng(seed)
    n = len(y_true)
    stats = []
    for _ in range(n_boot):
        ix = rng.integers(0, n, n)
        stats.append(fn(y_true[ix], y_pred[ix]))
    stats = np.array(stats)
    lo, hi = np.percentile(stats, [(100 - ci) / 2, 100 - (100 - ci) / 2])
    return fn(y_true, y_pred), (lo, hi), stats.std()


def bootstrap_auc_unseeded(y, s, n_boot=100):
    aucs = []
    n = len(y)
    for _ in range(n_boot):
        ix = np.random.choice(n, n, replace=True)
        yy, ss = y[ix], s[ix]
        if yy.min() == yy.max():
            continue
        pos = ss[yy == 1]
        neg = ss[yy == 0]
        aucs.append(np.mean(pos[:, None] > neg[None, :]) + 0.5 * np.mean(pos[:, None] == neg[None, :]))
    return np.array(aucs)


def matthews_and_kappa(y_true, y_pred):
    labels = np.union1d(y_true, y_pred)
    k = len(labels)
    t = np.searchsorted(labels, y_true)
    p = np.searchsorted(labels, y_pred)
    C = np.bincount(t * k + p, minlength=k * k).reshape(k, k).astype(np.float64)
    n = C.sum()
    tk = C.sum(1)
    pk = C.sum(0)
    c = np.trace(C)
    mcc = (c * n - tk @ pk) / math.sqrt((n ** 2 - pk @ pk) * (n ** 2 - tk @ tk))
    po = c / n
    pe = (tk @ pk) / n ** 2
    kappa = (po - pe) / (1 - pe)
    return mcc, kappa


def ks_statistic_two_sample(a, b):
    a = np.sort(a)
    b = np.sort(b)
    allv = np.concatenate([a, b])
    cdf_a = np.searchsorted(a, allv, side="right") / len(a)
    cdf_b = np.searchsorted(b, allv, side="right") / len(b)
    d = np.max(np.abs(cdf_a - cdf_b))
    n_eff = len(a) * len(b) / (len(a) + len(b))
    lam = (math.sqrt(n_eff) + 0.12 + 0.11 / math.sqrt(n_eff)) * d
    p = 2 * sum((-1) ** (j - 1) * math.exp(-2 * j * j * lam * lam) for j in range(1, 101))
    return d, min(max(p, 0.0), 1.0)


def gain_lift_table(y, score, n_groups=10):
    order = np.argsort(-score)
    y_sorted = np.asarray(y)[order]
    groups = np.array_split(y_sorted, n_groups)
    total = y_sorted.sum()
    base = total / len(y_sorted)
    table = []
    cum = 0
    for g, chunk in enumerate(groups, 1):
        cum += chunk.sum()
        table.append((g, len(chunk), int(chunk.sum()), cum / total, chunk.mean() / base))
    return np.array(table)


# ----------------------------------------------------------------------------
# Feature engineering
# ----------------------------------------------------------------------------

def one_hot_eye(labels, n_classes=None):
    labels = np.asarray(labels, dtype=np.int64)
    if n_classes is None:
        n_classes = labels.max() + 1
    oh = np.eye(n_classes, dtype=np.float32)[labels]
    back = oh.argmax(axis=1)
    return oh, bool((back == labels).all())


def one_hot_loop_categories(rows):
    cats = sorted(set(rows))
    index = {c: i for i, c in enumerate(cats)}
    out = []
    for r in rows:
        vec = [0] * len(cats)
        vec[index[r]] = 1
        out.append(vec)
    return np.array(out, dtype=np.int8), cats


def label_encode_unique(col, min_count=2):
    uniq, inv, counts = np.unique(col, return_inverse=True, return_counts=True)
    rare = counts < min_count
    # map rare categories to a shared "other" code = len(uniq kept)
    keep_codes = np.cumsum(~rare) - 1
    other = int((~rare).sum())
    codes = np.where(rare[inv], other, keep_codes[inv])
    mapping = {int(u): int(c) for u, c, r in zip(uniq, keep_codes, rare) if not r}
    return codes, mapping, other


def quantile_bin_digitize(x, n_bins=4):
    x = np.asarray(x, dtype=float)
    qs = np.nanquantile(x, np.linspace(0, 1, n_bins + 1))
    edges = np.unique(qs)
    bins = np.digitize(x, edges[1:-1], right=True)
    bins = np.where(np.isnan(x), -1, bins)
    counts = np.bincount(bins[bins >= 0], minlength=len(edges) - 1)
    labels = [f"({edges[i]:.2f}, {edges[i + 1]:.2f}]" for i in range(len(edges) - 1)]
    return bins, counts, labels


def equal_width_searchsorted(x, n_bins=5):
    lo, hi = float(np.min(x)), float(np.max(x))
    edges = np.linspace(lo, hi, n_bins + 1)
    idx = np.searchsorted(edges, x, side="right") - 1
    idx[idx == n_bins] = n_bins - 1
    means = [x[idx == b].mean() if np.any(idx == b) else np.nan for b in range(n_bins)]
    return idx, edges, np.array(means)


def polynomial_features(X, degree=2, include_bias=True, interaction_only=False):
    X = np.asarray(X, dtype=float)
    n, d = X.shape
    combos = []
    for deg in range(0 if include_bias else 1, degree + 1):
        it = (itertools.combinations(range(d), deg) if interaction_only
              else itertools.combinations_with_replacement(range(d), deg))
        combos.extend(it)
    out = np.empty((n, len(combos)), dtype=X.dtype)
    names = []
    for j, c in enumerate(combos):
        out[:, j] = np.prod(X[:, c], axis=1) if c else 1.0
        names.append("*".join(f"x{i}" for i in c) or "1")
    return out, names


class StandardScaler:
    def __init__(self, with_mean=True, with_std=True):
        self.with_mean = with_mean
        self.with_std = with_std

    def fit(self, X):
        X = np.asarray(X, dtype=float)
        self.mean_ = np.nanmean(X, axis=0) if self.with_mean else np.zeros(X.shape[1])
        sd = np.nanstd(X, axis=0)
        sd[sd == 0] = 1.0
        self.scale_ = sd if self.with_std else np.ones(X.shape[1])
        return self

    def transform(self, X):
        return (np.asarray(X, dtype=float) - self.mean_) / self.scale_

    def fit_transform(self, X):
        return self.fit(X).transform(X)

    def inverse_transform(self, Z):
        return Z * self.scale_ + self.mean_


def standard_scaler_train_test(X_train, X_test):
    sc = StandardScaler()
    Ztr = sc.fit_transform(X_train)
    Zte = sc.transform(X_test)
    back = sc.inverse_transform(Zte)
    return Ztr, Zte, np.allclose(back, X_test), sc.mean_.round(4).tolist()


class MinMaxScaler:
    def __init__(self, feature_range=(0, 1), clip=False):
        self.feature_range = feature_range
        self.clip = clip

    def fit(self, X):
        self.data_min_ = X.min(axis=0)
        self.data_max_ = X.max(axis=0)
        rng = self.data_max_ - self.data_min_
        rng = np.where(rng == 0, 1, rng)
        lo, hi = self.feature_range
        self.scale_ = (hi - lo) / rng
        self.min_ = lo - self.data_min_ * self.scale_
        return self

    def transform(self, X):
        Z = X * self.scale_ + self.min_
        if self.clip:
            np.clip(Z, *self.feature_range, out=Z)
        return Z


def minmax_scaler_clip(X_train, X_test):
    a = MinMaxScaler().fit(X_train).transform(X_test)
    b = MinMaxScaler(feature_range=(-1, 1), clip=True).fit(X_train).transform(X_test)
    return a, b


class RobustScaler:
    def __init__(self, quantile_range=(25.0, 75.0)):
        self.quantile_range = quantile_range

    def fit(self, X):
        self.center_ = np.nanmedian(X, axis=0)
        q1, q3 = np.nanpercentile(X, self.quantile_range, axis=0)
        iqr = q3 - q1
        iqr[iqr == 0.0] = 1.0
        self.scale_ = iqr
        return self

    def transform(self, X):
        X = X.copy()
        X -= self.center_
        X /= self.scale_
        return X


def robust_scale_with_outliers(X):
    rs = RobustScaler().fit(X)
    Z = rs.transform(X)
    outliers = np.argwhere(np.abs(Z) > 2.0)
    return Z, [tuple(o) for o in outliers.tolist()]


def impute_column_stats(X, strategy="mean"):
    """Fills NaN in place (the caller's array is modified) and returns fill values."""
    if strategy == "mean":
        fill = np.nanmean(X, axis=0)
    elif strategy == "median":
        fill = np.nanmedian(X, axis=0)
    elif strategy == "most_frequent":
        fill = []
        for j in range(X.shape[1]):
            col = X[:, j]
            col = col[~np.isnan(col)]
            vals, cnt = np.unique(col, return_counts=True)
            fill.append(vals[np.argmax(cnt)])
        fill = np.array(fill)
    else:
        raise ValueError(strategy)
    rows, cols = np.where(np.isnan(X))
    X[rows, cols] = np.take(fill, cols)
    return fill, len(rows)


def impute_three_ways(X):
    out = {}
    for s in ("mean", "median", "most_frequent"):
        Xc = X.copy()
        fill, n = impute_column_stats(Xc, s)
        out[s] = (Xc, fill, n)
    return out


def impute_group_median_loop(values, groups):
    values = values.copy()
    med = {}
    for g in np.unique(groups):
        v = values[groups == g]
        v = v[~np.isnan(v)]
        med[int(g)] = float(np.median(v)) if v.size else float("nan")
    for i in range(len(values)):
        if np.isnan(values[i]):
            values[i] = med[int(groups[i])]
    return values, med


def interaction_terms(X, names):
    pairs = list(itertools.combinations(range(X.shape[1]), 2))
    inter = np.stack([X[:, i] * X[:, j] for i, j in pairs], axis=1)
    inter_names = [f"{names[i]}:{names[j]}" for i, j in pairs]
    ratio = np.empty_like(inter)
    for k, (i, j) in enumerate(pairs):
        np.divide(X[:, i], X[:, j], out=ratio[:, k], where=X[:, j] != 0)
        ratio[X[:, j] == 0, k] = 0.0
    return np.hstack([X, inter, ratio]), list(names) + inter_names + [n.replace(":", "/") for n in inter_names]


def target_encode_smoothed(cats, y, m=5.0):
    prior = y.mean()
    uniq, inv = np.unique(cats, return_inverse=True)
    cnt = np.bincount(inv)
    s = np.bincount(inv, weights=y)
    enc = (s + m * prior) / (cnt + m)
    # leave-one-out version for training rows
    loo = (s[inv] - y + m * prior) / (cnt[inv] - 1 + m)
    return enc[inv], loo, dict(zip(uniq.tolist(), enc.round(4).tolist()))


def date_parts_from_ordinal(days):
    """Day index since 2024-01-01 (Monday) -> weekday, week-of-year, cyclical encodings."""
    days = np.asarray(days, dtype=np.int64)
    weekday = (days + 0) % 7
    is_weekend = weekday >= 5
    week = days // 7
    sin_w = np.sin(2 * np.pi * weekday / 7)
    cos_w = np.cos(2 * np.pi * weekday / 7)
    month_len = np.array([31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
    month_start = np.concatenate([[0], np.cumsum(month_len)])
    month = np.searchsorted(month_start, days, side="right") - 1
    dom = days - month_start[month] + 1
    return np.column_stack([weekday, is_weekend, week, month + 1, dom]), np.column_stack([sin_w, cos_w])


# ----------------------------------------------------------------------------
# Recommenders and text on integer tokens
# ----------------------------------------------------------------------------

class MatrixFactorization:
    def __init__(self, n_factors=3, lr=0.02, reg=0.05, epochs=20, seed=0):
        self.k, self.lr, self.reg, self.epochs, self.seed = n_factors, lr, reg, epochs, seed

    def fit(self, R):
        rng = np.random.default_rng(self.seed)
        n_u, n_i = R.shape
        self.P = rng.normal(0, 0.1, (n_u, self.k))
        self.Q = rng.normal(0, 0.1, (n_i, self.k))
        self.bu = np.zeros(n_u)
        self.bi = np.zeros(n_i)
        users, items = np.nonzero(R)
        self.mu = R[users, items].mean()
        self.history = []
        for ep in range(self.epochs):
            order = rng.permutation(len(users))
            for idx in order:
                u, i = users[idx], items[idx]
                err = R[u, i] - (self.mu + self.bu[u] + self.bi[i] + self.P[u] @ self.Q[i])
                self.bu[u] += self.lr * (err - self.reg * self.bu[u])
                self.bi[i] += self.lr * (err - self.reg * self.bi[i])
                pu = self.P[u].copy()
                self.P[u] += self.lr * (err * self.Q[i] - self.reg * self.P[u])
                self.Q[i] += self.lr * (err * pu - self.reg * self.Q[i])
            pred = self.predict_all()
            self.history.append(np.sqrt(np.mean((R[users, items] - pred[users, items]) ** 2)))
        return self

    def predict_all(self):
        return self.mu + self.bu[:, None] + self.bi[None, :] + self.P @ self.Q.T


def mf_sgd_recommend(R, top_n=2):
    model = MatrixFactorization().fit(R)
    pred = model.predict_all()
    pred[R > 0] = -np.inf
    recs = np.argsort(-pred, axis=1)[:, :top_n]
    return recs, np.array(model.history)


def user_cosine_predict(R, k=3):
    R = R.astype(float)
    mask = R > 0
    counts = mask.sum(1)
    means = np.divide(R.sum(1), counts, out=np.zeros(R.shape[0]), where=counts > 0)
    C = np.where(mask, R - means[:, None], 0.0)
    norms = np.linalg.norm(C, axis=1)
    norms[norms == 0] = 1e-9
    S = (C @ C.T) / np.outer(norms, norms)
    np.fill_diagonal(S, 0.0)
    pred = np.zeros_like(R)
    for u in range(R.shape[0]):
        nbrs = np.argsort(-S[u])[:k]
        w = S[u, nbrs]
        denom = np.abs(w) @ mask[nbrs]
        num = w @ C[nbrs]
        pred[u] = means[u] + np.divide(num, denom, out=np.zeros(R.shape[1]), where=denom > 0)
    return S, pred


def top_k_argpartition(scores, k=5, exclude=None):
    scores = np.array(scores, dtype=np.float32)
    if exclude is not None:
        scores[exclude] = -np.inf
    if k >= scores.shape[-1]:
        return np.argsort(-scores, axis=-1)
    part = np.argpartition(-scores, k, axis=-1)[..., :k]
    vals = np.take_along_axis(scores, part, axis=-1)
    order = np.argsort(-vals, axis=-1, kind="stable")
    return np.take_along_axis(part, order, axis=-1)


def item_item_recommend(R, user, n=3):
    R = np.asarray(R, dtype=float)
    norms = np.sqrt((R ** 2).sum(axis=0))
    sim = R.T @ R / (np.outer(norms, norms) + 1e-12)
    np.fill_diagonal(sim, 0)
    seen = R[user] > 0
    scores = sim[:, seen] @ R[user, seen] / (np.abs(sim[:, seen]).sum(1) + 1e-12)
    scores[seen] = -1
    heap = [(-s, i) for i, s in enumerate(scores.tolist()) if not seen[i]]
    heapq.heapify(heap)
    recs = [heapq.heappop(heap) for _ in range(min(n, len(heap)))]
    return [(i, round(-s, 4)) for s, i in recs]


def ngram_counts(tokens, n_max=3, top=5):
    toks = list(np.asarray(tokens).tolist())
    res = {}
    for n in range(1, n_max + 1):
        c = Counter(tuple(toks[i:i + n]) for i in range(len(toks) - n + 1))
        res[n] = c.most_common(top)
    # bigram conditional probability table for the vocabulary
    vocab = sorted(set(toks))
    vi = {t: i for i, t in enumerate(vocab)}
    M = np.zeros((len(vocab), len(vocab)))
    for a, b in zip(toks, toks[1:]):
        M[vi[a], vi[b]] += 1
    rows = M.sum(1, keepdims=True)
    P = np.divide(M, rows, out=np.zeros_like(M), where=rows > 0)
    return res, P


def tfidf_matrix(docs, vocab_size, smooth=True, sublinear=False, norm="l2"):
    n = len(docs)
    tf = np.zeros((n, vocab_size))
    for d, doc in enumerate(docs):
        np.add.at(tf[d], doc, 1)
    if sublinear:
        with np.errstate(divide="ignore"):
            tf = np.where(tf > 0, 1 + np.log(tf), 0.0)
    df = (tf > 0).sum(axis=0)
    if smooth:
        idf = np.log((1 + n) / (1 + df)) + 1
    else:
        idf = np.zeros(vocab_size)
        seen = df > 0
        idf[seen] = np.log(n / df[seen]) + 1
    X = tf * idf
    if norm == "l2":
        nrm = np.linalg.norm(X, axis=1, keepdims=True)
        X = X / np.where(nrm == 0, 1, nrm)
    sim = X @ X.T
    return X, idf, sim


def bm25_scores(docs, query, k1=1.5, b=0.75):
    N = len(docs)
    lengths = np.array([len(d) for d in docs], dtype=float)
    avgdl = lengths.mean()
    df = defaultdict(int)
    for d in docs:
        for t in set(d.tolist()):
            df[t] += 1
    scores = np.zeros(N)
    for t in set(query):
        n_t = df.get(t, 0)
        if n_t == 0:
            continue
        idf = math.log((N - n_t + 0.5) / (n_t + 0.5) + 1)
        f = np.array([np.count_nonzero(d == t) for d in docs], dtype=float)
        scores += idf * f * (k1 + 1) / (f + k1 * (1 - b + b * lengths / avgdl))
    ranking = np.argsort(-scores, kind="stable")
    return scores, ranking.tolist()


def jaccard_sets(docs, shingle=2):
    sets = []
    for d in docs:
        d = d.tolist()
        sets.append({tuple(d[i:i + shingle]) for i in range(len(d) - shingle + 1)})
    n = len(sets)
    J = np.eye(n)
    for i, j in itertools.combinations(range(n), 2):
        inter = len(sets[i] & sets[j])
        union = len(sets[i] | sets[j])
        J[i, j] = J[j, i] = inter / union if union else 0.0
    # boolean-matrix version over the token vocabulary
    V = max(int(d.max()) for d in docs) + 1
    B = np.zeros((n, V), dtype=bool)
    for i, d in enumerate(docs):
        B[i, d] = True
    inter = B.astype(np.int32) @ B.T.astype(np.int32)
    sizes = B.sum(1)
    Jtok = inter / (sizes[:, None] + sizes[None, :] - inter)
    return J, Jtok


def minhash_signatures(docs, n_hash=20, seed=11, prime=2_147_483_647):
    rng = np.random.default_rng(seed)
    a = rng.integers(1, prime, n_hash, dtype=np.int64)
    b = rng.integers(0, prime, n_hash, dtype=np.int64)
    sig = np.full((len(docs), n_hash), np.iinfo(np.int64).max, dtype=np.int64)
    for i, d in enumerate(docs):
        toks = np.unique(d).astype(np.int64)
        h = (a[:, None] * toks[None, :] + b[:, None]) % prime
        sig[i] = h.min(axis=1)
    est = (sig[:, None, :] == sig[None, :, :]).mean(axis=2)
    return sig, est


def ndcg_at_k(relevance_true, scores, k=5):
    def dcg(rel):
        rel = np.asarray(rel, dtype=float)[:k]
        return np.sum((2 ** rel - 1) / np.log2(np.arange(2, rel.size + 2)))

    out = []
    for rel, s in zip(relevance_true, scores):
        order = np.argsort(s)[::-1]
        ideal = dcg(np.sort(rel)[::-1])
        out.append(dcg(rel[order]) / ideal if ideal > 0 else 0.0)
    prec = [np.mean(rel[np.argsort(-s)[:k]] > 0) for rel, s in zip(relevance_true, scores)]
    return np.array(out), float(np.mean(out)), float(np.mean(prec))


def cooccurrence_ppmi(tokens, vocab_size, window=2):
    C = np.zeros((vocab_size, vocab_size), dtype=np.float64)
    toks = np.asarray(tokens)
    for i, w in enumerate(toks):
        lo, hi = max(0, i - window), min(len(toks), i + window + 1)
        for j in range(lo, hi):
            if j != i:
                C[w, toks[j]] += 1.0 / abs(i - j)
    total = C.sum()
    row = C.sum(1, keepdims=True)
    col = C.sum(0, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        pmi = np.log(C * total / (row * col))
    ppmi = np.maximum(pmi, 0)
    ppmi[~np.isfinite(ppmi)] = 0.0
    return ppmi


def word_vectors_svd(tokens, vocab_size=12, dim=3):
    M = cooccurrence_ppmi(tokens, vocab_size)
    U, S, Vt = np.linalg.svd(M)
    emb = U[:, :dim] * S[:dim]
    nrm = np.linalg.norm(emb, axis=1, keepdims=True)
    emb_n = emb / np.maximum(nrm, 1e-12)
    sims = emb_n @ emb_n.T
    nearest = [int(np.argsort(-sims[i])[1]) for i in range(vocab_size)]
    return np.abs(emb), nearest


def bag_of_words_naive_bayes(docs, labels, vocab_size, test_docs, alpha=1.0):
    classes = np.unique(labels)
    counts = np.zeros((len(classes), vocab_size))
    for d, y in zip(docs, labels):
        counts[np.searchsorted(classes, y)] += np.bincount(d, minlength=vocab_size)
    log_prior = np.log(np.bincount(np.searchsorted(classes, labels)) / len(labels))
    log_lik = np.log((counts + alpha) / (counts.sum(1, keepdims=True) + alpha * vocab_size))
    preds = []
    for d in test_docs:
        x = np.bincount(d, minlength=vocab_size)
        preds.append(classes[np.argmax(log_prior + log_lik @ x)])
    return np.array(preds), log_lik


# ----------------------------------------------------------------------------
# A/B test statistics
# ----------------------------------------------------------------------------

def _phi(z):
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def z_test_proportions(conv_a, n_a, conv_b, n_b, alternative="two-sided"):
    if min(n_a, n_b) <= 0:
        raise ValueError("need positive sample sizes")
    p_a, p_b = conv_a / n_a, conv_b / n_b
    pooled = (conv_a + conv_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    z = (p_b - p_a) / se
    if alternative == "two-sided":
        p = 2 * (1 - _phi(abs(z)))
    elif alternative == "larger":
        p = 1 - _phi(z)
    else:
        p = _phi(z)
    se_unpooled = math.sqrt(p_a * (1 - p_a) / n_a + p_b * (1 - p_b) / n_b)
    ci = (p_b - p_a - 1.96 * se_unpooled, p_b - p_a + 1.96 * se_unpooled)
    return {"z": z, "p_value": p, "lift": (p_b - p_a) / p_a, "ci": ci,
            "summary": f"A={p_a:.2%} B={p_b:.2%} z={z:.2f} p={p:.4f}"}


def z_test_from_arrays(a, b):
    a = np.asarray(a, dtype=bool)
    b = np.asarray(b, dtype=bool)
    return z_test_proportions(int(a.sum()), a.size, int(b.sum()), b.size, alternative="larger")


def _student_t_sf(t, df, n=400):
    """Survival function of Student t by Simpson integration of the density."""
    x = np.linspace(0.0, abs(t), n + 1)
    c = math.gamma((df + 1) / 2) / (math.sqrt(df * math.pi) * math.gamma(df / 2))
    f = c * (1 + x ** 2 / df) ** (-(df + 1) / 2)
    h = x[1] - x[0]
    integral = h / 3 * (f[0] + f[-1] + 4 * f[1:-1:2].sum() + 2 * f[2:-1:2].sum())
    return 0.5 - integral


def welch_t_test(a, b):
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    a = a[~np.isnan(a)]
    b = b[~np.isnan(b)]
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    t = (a.mean() - b.mean()) / np.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (a.size - 1) + vb ** 2 / (b.size - 1))
    p = 2 * _student_t_sf(float(t), float(df))
    pooled_sd = math.sqrt(((a.size - 1) * a.var(ddof=1) + (b.size - 1) * b.var(ddof=1)) / (a.size + b.size - 2))
    d = (a.mean() - b.mean()) / pooled_sd
    return float(t), float(df), p, d


def chi_square_contingency(table, yates=None):
    O = np.asarray(table, dtype=float)
    if O.ndim != 2 or (O < 0).any():
        raise ValueError("table must be 2-D and non-negative")
    row = O.sum(axis=1, keepdims=True)
    col = O.sum(axis=0, keepdims=True)
    E = row @ col / O.sum()
    dof = (O.shape[0] - 1) * (O.shape[1] - 1)
    if yates is None:
        yates = dof == 1
    diff = np.abs(O - E)
    if yates:
        diff = np.maximum(diff - 0.5, 0)
    chi2 = float(np.sum(diff ** 2 / E))
    # chi-square survival function via the regularised incomplete gamma series
    k2, x2 = dof / 2.0, chi2 / 2.0
    term = total = 1.0 / k2
    for n in range(1, 300):
        term *= x2 / (k2 + n)
        total += term
        if term < total * 1e-15:
            break
    lower = math.exp(-x2 + k2 * math.log(x2) - math.lgamma(k2)) * total if x2 > 0 else 0.0
    p = 1.0 - lower
    cramers_v = math.sqrt(chi2 / (O.sum() * (min(O.shape) - 1)))
    return chi2, dof, p, E, cramers_v


def bootstrap_diff_means(a, b, n_boot=500, seed=7, ci=0.95):
    rng = np.random.default_rng(seed)
    diffs = np.empty(n_boot)
    for i in range(n_boot):
        diffs[i] = rng.choice(b, b.size).mean() - rng.choice(a, a.size).mean()
    lo, hi = np.quantile(diffs, [(1 - ci) / 2, 1 - (1 - ci) / 2])
    p_gt = (diffs > 0).mean()
    return float(np.mean(b) - np.mean(a)), (float(lo), float(hi)), p_gt


def permutation_test_unseeded(a, b, n_perm=300):
    pooled = np.concatenate([a, b])
    obs = b.mean() - a.mean()
    count = 0
    null = []
    for _ in range(n_perm):
        np.random.shuffle(pooled)
        d = pooled[len(a):].mean() - pooled[:len(a)].mean()
        null.append(d)
        if abs(d) >= abs(obs):
            count += 1
    return obs, (count + 1) / (n_perm + 1), np.array(null)


def mann_whitney_u(x, y):
    x = np.asarray(x)
    y = np.asarray(y)
    allv = np.concatenate([x, y])
    order = allv.argsort(kind="mergesort")
    ranks = np.empty(len(allv), dtype=float)
    sorted_v = allv[order]
    i = 0
    tie_term = 0.0
    while i < len(sorted_v):
        j = i
        while j + 1 < len(sorted_v) and sorted_v[j + 1] == sorted_v[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2.0 + 1
        t = j - i + 1
        tie_term += t ** 3 - t
        i = j + 1
    n1, n2 = len(x), len(y)
    R1 = ranks[:n1].sum()
    U1 = R1 - n1 * (n1 + 1) / 2
    U2 = n1 * n2 - U1
    mu = n1 * n2 / 2
    N = n1 + n2
    sigma = math.sqrt(n1 * n2 / 12 * ((N + 1) - tie_term / (N * (N - 1))))
    z = (U1 - mu) / sigma
    return U1, U2, z, 2 * (1 - _phi(abs(z)))


def sample_size_two_proportions(p_base, mdes, alpha=0.05, power=0.8, ratio=1.0):
    nd = statistics.NormalDist()
    z_a = nd.inv_cdf(1 - alpha / 2)
    z_b = nd.inv_cdf(power)
    out = []
    for m in np.atleast_1d(mdes):
        p1 = p_base
        p2 = p_base * (1 + m)
        pbar = (p1 + ratio * p2) / (1 + ratio)
        num = (z_a * math.sqrt((1 + 1 / ratio) * pbar * (1 - pbar))
               + z_b * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2) / ratio)) ** 2
        n1 = math.ceil(num / (p2 - p1) ** 2)
        out.append((float(m), n1, math.ceil(n1 * ratio)))
    return out


def cumulative_lift_daily(conv_a, n_a, conv_b, n_b):
    ca, na = np.cumsum(conv_a), np.cumsum(n_a)
    cb, nb = np.cumsum(conv_b), np.cumsum(n_b)
    pa, pb = ca / na, cb / nb
    lift = pb / pa - 1
    se = np.sqrt(pa * (1 - pa) / na + pb * (1 - pb) / nb)
    z = (pb - pa) / se
    first_sig = next((int(i) for i in np.flatnonzero(np.abs(z) > 1.96)), None)
    return np.vstack([pa, pb, lift, z]), first_sig


def srm_check(observed, expected_ratio=(0.5, 0.5)):
    observed = np.asarray(observed, dtype=np.int64)
    exp = np.asarray(expected_ratio) * observed.sum()
    chi2 = float(((observed - exp) ** 2 / exp).sum())
    mismatch = chi2 > 3.841 if len(observed) == 2 else None
    return chi2, mismatch


# ----------------------------------------------------------------------------
# Cases
# ----------------------------------------------------------------------------

def _rng(seed):
    return np.random.default_rng(seed)


def _series(seed=0, n=60, period=12):
    r = _rng(seed)
    t = np.arange(n)
    return 10 + 0.1 * t + 2 * np.sin(2 * np.pi * t / period) + r.normal(0, 0.5, n)


def _prices(seed=0, n=60, k=3):
    r = _rng(seed)
    return 100 * np.exp(np.cumsum(r.normal(0.0005, 0.015, (n, k)), axis=0))


def _with_nan(seed, n=20, frac=0.25, lead=True):
    r = _rng(seed)
    x = r.normal(5, 2, n)
    x[r.random(n) < frac] = np.nan
    if lead:
        x[0] = np.nan
    return x


def _binary_scores(seed=0, n=80):
    r = _rng(seed)
    y = r.integers(0, 2, n)
    s = np.clip(0.3 * y + r.normal(0.35, 0.2, n), 0.0, 1.0)
    return y, s


def _ratings(seed=0, nu=8, ni=10, density=0.5):
    r = _rng(seed)
    R = r.integers(1, 6, (nu, ni)).astype(float)
    R[r.random((nu, ni)) > density] = 0.0
    R[:, 0] = np.where(R[:, 0] == 0, 3.0, R[:, 0])
    return R


def _docs(seed=0, n=6, vocab=15, lo=5, hi=14):
    r = _rng(seed)
    return [r.integers(0, vocab, r.integers(lo, hi)) for _ in range(n)]


def _regression(seed=0, n=40, d=4):
    r = _rng(seed)
    X = r.normal(size=(n, d))
    return X, X @ r.normal(size=d) + 0.3 * r.normal(size=n)


CASES = [
    # time series
    ("rolling_mean_cumsum", rolling_mean_cumsum, lambda: (_series(1), 7), {}),
    ("rolling_std_loop", rolling_std_loop, lambda: (_series(2, 40).tolist(),), {}),
    ("ewma_adjusted", ewma_adjusted, lambda: (_series(3, 50).astype(np.float32), 0.2), {}),
    ("ewma_unadjusted", ewma_adjusted, lambda: (_series(4, 50), 0.4, False), {}),
    ("lag_feature_matrix", lag_feature_matrix, lambda: (_series(5, 30), (1, 2, 7)), {}),
    ("difference_roundtrip", difference_roundtrip, lambda: (np.cumsum(np.cumsum(_rng(6).integers(-3, 4, 25))), 2), {}),
    ("autocorrelation_by_hand", autocorrelation_by_hand, lambda: (_series(7, 96), 14), {}),
    ("pacf_durbin_levinson", pacf_durbin_levinson,
     lambda: (np.array(functools.reduce(lambda acc, e: acc + [0.6 * acc[-1] - 0.2 * acc[-2] + e],
                                        _rng(8).normal(size=120).tolist(), [0.0, 0.0])), 8), {}),
    ("seasonal_decompose_reshape", seasonal_decompose_reshape, lambda: (_series(9, 50, 12), 12), {}),
    ("seasonal_decompose_odd", seasonal_decompose_reshape, lambda: (_series(10, 35, 7), 7), {}),
    ("resample_all_modes", resample_all_modes, lambda: (_series(11, 63).astype(np.float32), 5), {}),
    ("ffill_bfill", ffill_bfill, lambda: (_with_nan(12, 25),), {}),
    ("ffill_loop_limit", ffill_loop_limit, lambda: (_with_nan(13, 25, 0.4).tolist(), 1), {}),
    ("rolling_mad_clip", rolling_mad_clip,
     lambda: (np.where(np.arange(50) % 13 == 5, 25.0, _series(14, 50)), 7, 3.0), {}),
    ("holt_linear_forecast", holt_linear_forecast, lambda: (_series(15, 40), 0.4, 0.2, 6), {}),
    ("rolling_zscore_sliding", rolling_zscore_sliding,
     lambda: (np.r_[_rng(16).normal(0, 1, 40), 6.0, _rng(17).normal(0, 1, 20)], 10, 2.5), {}),
    # finance
    ("returns_simple_and_log", returns_simple_and_log, lambda: (_prices(20, 40, 3),), {}),
    ("cumulative_returns_report", cumulative_returns_report,
     lambda: (_rng(21).normal(0.001, 0.02, (30, 3)), ["SPY", "TLT", "GLD"]), {}),
    ("drawdown_stats", drawdown_stats, lambda: (_prices(22, 120, 1)[:, 0],), {}),
    ("sharpe_sortino", sharpe_sortino, lambda: (_rng(23).normal(0.0008, 0.012, 250), 0.03), {}),
    ("rolling_beta", rolling_beta,
     lambda: ((lambda m: (1.3 * m + _rng(25).normal(0, 0.005, 80), m))(_rng(24).normal(0, 0.01, 80)) + (20,)), {}),
    ("min_variance_portfolio", min_variance_portfolio, lambda: (_rng(26).normal(0.001, 0.02, (100, 5)),), {}),
    ("tangency_portfolio", tangency_portfolio,
     lambda: ([0.08, 0.12, 0.10, 0.05], (lambda A: A @ A.T / 4 + 0.01 * np.eye(4))(_rng(27).normal(0, 0.2, (4, 4))), 0.02), {}),
    ("black_scholes_vectorized", black_scholes_vectorized,
     lambda: (100.0, np.linspace(80, 120, 9), np.array([[0.25], [0.5], [1.0]]), 0.03, 0.2, "put"), {}),
    ("black_scholes_greeks_poly", black_scholes_greeks_poly,
     lambda: (np.linspace(70, 130, 13), 100.0, 0.75, 0.02, np.float32(0.3)), {}),
    ("implied_vol_bisection", implied_vol_bisection, lambda: (10.45, 100.0, 100.0, 1.0, 0.05), {}),
    ("binomial_tree_american", binomial_tree_american, lambda: (100.0, 110.0, 1.0, 0.05, 0.25, 60), {}),
    ("binomial_tree_european_loops", binomial_tree_european_loops, lambda: (100, 95, 0.5, 0.01, 0.3, 40), {}),
    ("monte_carlo_asian_seeded", monte_carlo_asian_seeded, lambda: (100.0, 100.0, 1.0, 0.03, 0.2), {}),
    ("monte_carlo_euro_unseeded", monte_carlo_euro_unseeded, lambda: (), {"rand": True}),
    ("var_cvar_percentile", var_cvar_percentile, lambda: (_rng(28).standard_t(4, 300) * 0.01,), {}),
    ("amortization_schedule", amortization_schedule, lambda: (250_000, 0.06, 15, 500.0), {}),
    ("fifo_cost_basis", fifo_cost_basis,
     lambda: (np.array([10, 5, 20], dtype=np.int32), np.array([100.0, 102.5, 98.0]), [8, 12, 10], [105.0, 97.0, 101.0]), {}),
    # ML evaluation
    ("roc_auc_sorted", roc_auc_sorted, lambda: (*_binary_scores(30, 100),), {}),
    ("precision_recall_ap", precision_recall_ap, lambda: (*_binary_scores(31, 80),), {}),
    ("f1_per_class", f1_per_class,
     lambda: (lambda y: (y, np.where(_rng(33).random(60) < 0.7, y, _rng(34).integers(0, 4, 60))))(_rng(32).integers(0, 4, 60)), {}),
    ("log_loss_both", log_loss_both,
     lambda: (_rng(35).integers(0, 2, 50), _rng(36).random(50).tolist(),
              _rng(37).integers(0, 3, 40).astype(np.int32), _rng(38).dirichlet(np.ones(3), 40)), {}),
    ("brier_calibration", brier_calibration,
     lambda: (lambda p: ((_rng(40).random(200) < p), p, 10))(_rng(39).beta(2, 3, 200)), {}),
    ("kfold_ridge_cv", kfold_ridge_cv, lambda: (*_regression(41, 47, 4),), {}),
    ("stratified_kfold", stratified_kfold, lambda: (np.r_[np.zeros(20, int), np.ones(9, int), np.full(6, 2)],), {}),
    ("bootstrap_metric_ci", bootstrap_metric_ci,
     lambda: (lambda y: (y, np.where(_rng(43).random(80) < 0.75, y, 1 - y), "balanced_accuracy"))(_rng(42).integers(0, 2, 80)), {}),
    ("bootstrap_auc_unseeded", bootstrap_auc_unseeded, lambda: (*_binary_scores(44, 60),), {"rand": True}),
    ("matthews_and_kappa", matthews_and_kappa,
     lambda: (np.array([1, 2, 3, 1, 2, 3, 1, 2, 3, 3, 2, 1]), np.array([1, 2, 2, 1, 3, 3, 1, 2, 3, 1, 2, 1])), {}),
    ("ks_statistic_two_sample", ks_statistic_two_sample,
     lambda: (_rng(45).normal(0, 1, 70), _rng(46).normal(0.4, 1.2, 90)), {}),
    ("gain_lift_table", gain_lift_table, lambda: (*_binary_scores(47, 100), 10), {}),
    # feature engineering
    ("one_hot_eye", one_hot_eye, lambda: (_rng(50).integers(0, 5, 20).astype(np.int32),), {}),
    ("one_hot_loop_categories", one_hot_loop_categories, lambda: (_rng(51).integers(10, 15, 18).tolist(),), {}),
    ("label_encode_unique", label_encode_unique, lambda: (np.array([7, 3, 3, 9, 7, 7, 12, 3, 40, 9, 5]), 2), {}),
    ("quantile_bin_digitize", quantile_bin_digitize, lambda: (_with_nan(52, 40, 0.1, False), 4), {}),
    ("equal_width_searchsorted", equal_width_searchsorted, lambda: (_rng(53).exponential(2.0, 50), 6), {}),
    ("polynomial_features", polynomial_features, lambda: (_rng(54).normal(size=(8, 3)), 3), {}),
    ("polynomial_interaction_only", polynomial_features,
     lambda: (_rng(55).integers(0, 4, (6, 4)).astype(np.float32), 2, False, True), {}),
    ("standard_scaler_train_test", standard_scaler_train_test,
     lambda: (_rng(56).normal(5, 3, (30, 4)), _rng(57).normal(5, 3, (10, 4))), {}),
    ("minmax_scaler_clip", minmax_scaler_clip,
     lambda: (_rng(58).uniform(-2, 8, (25, 3)), _rng(59).uniform(-4, 10, (8, 3))), {}),
    ("robust_scale_with_outliers", robust_scale_with_outliers,
     lambda: (np.vstack([_rng(60).normal(0, 1, (20, 3)), [[9.0, -7.0, 0.0]]]),), {}),
    ("impute_three_ways", impute_three_ways,
     lambda: (np.where(_rng(61).random((12, 4)) < 0.2, np.nan, _rng(62).integers(0, 5, (12, 4)).astype(float)),), {}),
    ("impute_group_median_loop", impute_group_median_loop,
     lambda: (_with_nan(63, 24, 0.3), np.repeat(np.arange(3), 8)), {}),
    ("interaction_terms", interaction_terms,
     lambda: (_rng(64).integers(0, 4, (10, 3)).astype(float), ("age", "income", "visits")), {}),
    ("target_encode_smoothed", target_encode_smoothed,
     lambda: (_rng(65).integers(0, 5, 40), (_rng(66).random(40) < 0.3).astype(float), 3.0), {}),
    ("date_parts_from_ordinal", date_parts_from_ordinal, lambda: (np.sort(_rng(67).integers(0, 366, 20)),), {}),
    # recommenders and text
    ("mf_sgd_recommend", mf_sgd_recommend, lambda: (_ratings(70, 6, 8), 2), {}),
    ("user_cosine_predict", user_cosine_predict, lambda: (_ratings(71, 10, 12).astype(np.int64), 3), {}),
    ("top_k_argpartition", top_k_argpartition, lambda: (_rng(72).random((5, 20)), 4, (slice(None), [0, 3])), {}),
    ("item_item_recommend", item_item_recommend, lambda: (_ratings(73, 9, 10), 1, 3), {}),
    ("ngram_counts", ngram_counts, lambda: (_rng(74).integers(0, 6, 80), 3, 4), {}),
    ("tfidf_matrix", tfidf_matrix, lambda: (_docs(75), 15), {}),
    ("tfidf_sublinear_raw", tfidf_matrix, lambda: (_docs(76, 5, 12), 14, False, True, None), {}),
    ("bm25_scores", bm25_scores, lambda: (_docs(77, 8, 20), [3, 7, 11, 19]), {}),
    ("jaccard_sets", jaccard_sets, lambda: (_docs(78, 5, 8), 2), {}),
    ("minhash_signatures", minhash_signatures, lambda: (_docs(79, 6, 12),), {}),
    ("ndcg_at_k", ndcg_at_k,
     lambda: (_rng(80).integers(0, 4, (6, 10)), _rng(81).random((6, 10)), 5), {}),
    ("word_vectors_svd", word_vectors_svd, lambda: (_rng(82).integers(0, 12, 150),), {}),
    ("bag_of_words_naive_bayes", bag_of_words_naive_bayes,
     lambda: (_docs(83, 10, 10), np.array([0, 1] * 5), 10, _docs(84, 4, 10)), {}),
    # A/B tests
    ("z_test_proportions", z_test_proportions, lambda: (120, 1000, 150, 1010), {}),
    ("z_test_from_arrays", z_test_from_arrays,
     lambda: (_rng(85).random(300) < 0.1, (_rng(86).random(280) < 0.14).tolist()), {}),
    ("welch_t_test", welch_t_test,
     lambda: (np.r_[_rng(87).normal(10, 2, 30), np.nan], _rng(88).normal(11, 3.5, 25).astype(np.float32)), {}),
    ("chi_square_contingency", chi_square_contingency, lambda: ([[30, 10, 15], [20, 25, 12]],), {}),
    ("chi_square_2x2_yates", chi_square_contingency, lambda: (np.array([[45, 955], [62, 938]], dtype=np.int32),), {}),
    ("bootstrap_diff_means", bootstrap_diff_means,
     lambda: (_rng(89).exponential(20, 60), _rng(90).exponential(24, 55)), {}),
    ("permutation_test_unseeded", permutation_test_unseeded,
     lambda: (_rng(91).normal(0, 1, 30), _rng(92).normal(0.5, 1, 30)), {"rand": True}),
    ("mann_whitney_u", mann_whitney_u, lambda: (_rng(93).integers(0, 10, 25), _rng(94).integers(2, 12, 20)), {}),
    ("sample_size_two_proportions", sample_size_two_proportions, lambda: (0.1, [0.05, 0.1, 0.2], 0.05, 0.8, 1.0), {}),
    ("cumulative_lift_daily", cumulative_lift_daily,
     lambda: (_rng(95).binomial(200, 0.1, 14), np.full(14, 200), _rng(96).binomial(210, 0.125, 14), np.full(14, 210)), {}),
    ("srm_check", srm_check, lambda: ([5050, 4890],), {}),
]
