"""Everyday NumPy constructs, by family, compiled with ``fallback="raise"``.

    python -m bench.families           # prints a markdown table

Each example is a small function written the way such code is usually written
(k-means and naive Bayes steps, one-hot encodings, a character RNN's forward pass,
a training loop over a dict of weights, a drawdown, a safe division, ...). It is
compiled with ``fallback="raise"`` on both executors, so only what really compiles
counts, and compared with NumPy (values, dtypes and shapes; random draws by shape
and dtype only). A row says ``ok``, ``WRONG`` (a mismatch), the refusal, or ``ERROR``
(an exception that is not nptf's).
"""
from __future__ import annotations

import sys
import warnings

import numpy as np

import nptf

_rng = np.random.default_rng(0)
X = _rng.normal(size=(20, 3))
Y = _rng.integers(0, 3, 20)
V = _rng.normal(size=10)
IDX = np.array([0, 3, 1, 1, 2, 4, 0])


# ---------------------------------------------------- sizes that come from data
def kmeans_counts(X, labels):
    return np.array([len(X[labels == k]) for k in range(3)])


def kmeans_centers(X, labels):
    centers = np.zeros((3, X.shape[1]))
    for k in range(3):
        members = X[labels == k]
        centers[k] = members.sum(axis=0) / max(len(members), 1)
    return centers


def entropy(y):
    s = 0.0
    for c in np.unique(y):
        p = len(y[y == c]) / len(y)
        s -= p * np.log2(p)
    return s


def naive_bayes_priors(X, y):
    classes = np.unique(y)
    priors = np.zeros(len(classes))
    for i, c in enumerate(classes):
        priors[i] = len(X[y == c]) / len(X)
    return priors


def one_hot(idx):
    out = np.zeros((len(idx), idx.max() + 1))
    out[np.arange(len(idx)), idx] = 1
    return out


def positive_ramp(x):
    n = int(np.sum(x > 0))
    return np.arange(n) * 0.5, np.full(n, x.max())


def sum_of_selected(x):
    m = x[x > 0]
    s = 0.0
    for i in range(len(m)):
        s += m[i] ** 2
    return s


# ------------------------------------------------- Python numbers from arrays
def normalise_by_total(x):
    return x / float(np.sum(np.abs(x)))


def best_index(x):
    i = int(np.argmax(x))
    return x[i] * 2 + i


def item_condition(x):
    if x.sum().item() > 0:
        return x * 2
    return -x


def stats_vector(x):
    return np.asarray([x.mean(), x.std(), x.max()])


# ------------------------------------------------------- containers in loops
def rnn_forward(x):
    hs = {-1: np.zeros(3)}
    for t in range(len(x)):
        hs[t] = np.tanh(x[t] + 0.5 * hs[t - 1])
    return hs[len(x) - 1]


def train_dict_of_weights(X, y):
    model = {"W": np.full((3, 1), 0.1), "b": np.zeros(1)}
    for _ in range(15):
        err = X @ model["W"] + model["b"] - y[:, None]
        model = {"W": model["W"] - 0.01 * X.T @ err, "b": model["b"] - 0.01 * err.sum(0)}
    return model["W"], model["b"]


def discounted_returns(r):
    running = 0
    out = np.zeros_like(r)
    for t in reversed(range(len(r))):
        running = running * 0.9 + r[t]
        out[t] = running
    return out


def pairs_from_branches(x):
    if x.sum() > 0:
        return x * 2, x.max()
    return x - 1, x.min()


# ------------------------------------------------- NumPy functions and arguments
def drawdown(x):
    wealth = np.cumprod(1 + 0.01 * x)
    return wealth / np.maximum.accumulate(wealth) - 1


def segment_sums(x):
    return np.add.reduceat(x, [0, 3, 5])


def safe_divide(x):
    d = x.copy()
    d[::2] = 0
    return np.divide(x, d, out=np.zeros_like(x), where=d != 0)


def masked_mean(x):
    return np.mean(x, where=x > 0), np.max(x[x > 5], initial=0.0)


def uneven_gradient(x):
    t = np.linspace(0, 1, len(x)) ** 2
    return np.gradient(x, t)


def low_bits(x):
    return x.view(np.int64) & 0xFF


def random_legacy_seeded(x):
    np.random.seed(0)
    return x + np.random.normal(size=x.shape)


def random_state_seeded(x):
    rs = np.random.RandomState(1)
    return x + rs.uniform(size=x.shape)


def _bend(v):
    if v > 0:
        return v * 2
    return -v


def vectorized_python(x):
    return np.vectorize(_bend)(x)


# ------------------------------------------------------ added with the second round
def class_means(X, y):
    # Gaussian naive Bayes: a comprehension over the classes present in the data
    return np.array([X[y == c].mean(axis=0) for c in np.unique(y)])


def run_length_encode(a):
    starts = np.r_[0, np.flatnonzero(np.diff(a)) + 1]
    return a[starts], np.diff(np.r_[starts, len(a)])


def fill_gaps(v):
    t = np.arange(len(v), dtype=float)
    v = v.copy()
    bad = v < 0
    v[bad] = np.interp(t[bad], t[~bad], v[~bad])
    return v


def first_above(v):
    return np.where(v > 0.5)[0][0], v[v > 0.5][-1]


def kmeans_until_settled(X, centroids, max_iter=np.array(50)):
    it, shift = 0, np.inf
    while it < max_iter and shift > 1e-8:
        d = ((X[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
        labels = np.argmin(d, axis=1)
        new_c = np.array([X[labels == j].mean(axis=0) for j in range(centroids.shape[0])])
        shift = np.linalg.norm(new_c - centroids)
        centroids = new_c
        it += 1
    return centroids, labels


def train_1000_epochs(X, y):
    params = {"W": np.zeros(X.shape[1]), "b": 0.0}
    for epoch in range(1000):
        p = 1 / (1 + np.exp(-(X @ params["W"] + params["b"])))
        params = {"W": params["W"] - 0.1 * X.T @ (p - y) / len(y),
                  "b": params["b"] - 0.1 * np.mean(p - y)}
    return params["W"], params["b"]


def power_iteration(A):
    b, lam_old = np.ones(A.shape[0]), 0.0
    for i in range(1000):
        b = A @ b
        b = b / np.linalg.norm(b)
        lam = b @ A @ b
        if abs(lam - lam_old) < 1e-12:
            return lam, b
        lam_old = lam
    return lam, b


def minibatches(X, y):
    w = np.zeros(X.shape[1])
    for epoch in range(20):
        for start in range(0, len(y), 8):
            Xb, yb = X[start:start + 8], y[start:start + 8]
            w -= 0.05 * Xb.T @ (Xb @ w - yb) / len(yb)
    return w


def best_threshold(v):
    best_gain, best_thr = -1, 0.0
    for thr in np.unique(v):
        m = v > thr
        gain = 0.0 if m.all() or not m.any() else np.var(v) - np.var(v[m])
        if gain > best_gain:
            best_gain, best_thr = gain, thr
    return best_gain, best_thr


def eliminate(A, b):
    A, b = A.copy(), b.copy()
    n = len(b)
    for k in range(n - 1):
        p = np.argmax(np.abs(A[k:, k])) + k
        if A[p, k] == 0:
            raise ValueError("singular matrix")
        A[[k, p]], b[[k, p]] = A[[p, k]], b[[p, k]]
        for i in range(k + 1, n):
            f = A[i, k] / A[k, k]
            A[i, k:] -= f * A[k, k:]
            b[i] -= f * b[k]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - A[i, i + 1:] @ x[i + 1:]) / A[i, i]
    return x


def derivative_with_spacing(v, h=np.float64(0.1)):
    return np.gradient(v, h)


def nearest_value(Z, z=np.float64(0.3)):
    return Z.flat[np.abs(Z - z).argmin()]


def mean_of_fold_errors(X, y):
    errs = []
    for k in range(3):
        test = np.arange(len(y)) % 3 == k
        errs.append(np.mean((X[test].sum(axis=1) - y[test]) ** 2))
    return np.mean(errs), np.std(errs)


A3 = np.array([[2.0, 1, 1], [4, 3, 3], [8, 7, 9]])
RUNS = np.array([1, 1, 2, 2, 2, 3, 1, 1])
GAPS = np.array([1.0, -1, 3, -1, -1, 6, 7])


# ------------------------------------------ None sentinels and lists the data grow
def best_feature(X, y):
    best_gain, best_feat, best_thr = -1, None, None
    for feat in range(X.shape[1]):
        for thr in np.unique(np.round(X[:, feat])):
            above = X[:, feat] > thr
            gain = np.mean(y[above]) if np.any(above) else 0.0
            if gain > best_gain:
                best_gain, best_feat, best_thr = gain, feat, thr
    return best_feat, best_thr, best_gain


def best_of_alphas(v, alphas=(0.01, 0.1, 1.0)):
    best_alpha, best_err = None, np.inf
    for alpha in alphas:
        err = np.sum((v - alpha * v.mean()) ** 2)
        if err < best_err:
            best_err, best_alpha = err, alpha
    return best_alpha, best_err


def root_by_bisection(v):
    a, b = v.min(), v.max()
    f = lambda t: t ** 3 - t - 1       # noqa: E731
    if f(a) * f(b) > 0:
        return None
    n = 0
    while b - a > 1e-9 and n < 100:
        c = (a + b) / 2
        if f(a) * f(c) <= 0:
            b = c
        else:
            a = c
        n += 1
    return (a + b) / 2, n


def spike_times(v):
    u, spikes = 0.0, []
    for t in range(len(v)):
        u = 0.9 * u + v[t]
        if u > 1.0:
            spikes.append(t)
            u = 0.0
    return np.array(spikes, dtype=int)


def local_maxima(v):
    idx = []
    for i in range(1, len(v) - 1):
        if v[i] > v[i - 1] and v[i] > v[i + 1]:
            idx.append(i)
    return idx


def collect_until_large(v):
    out, total = [], 0.0
    for x in v[v > 0]:
        total += x
        out.append(total)
    return np.array(out)


EXAMPLES = {
    "sizes from data": [(kmeans_counts, (X, Y)), (kmeans_centers, (X, Y)), (entropy, (Y,)),
                        (naive_bayes_priors, (X, Y)), (one_hot, (IDX,)),
                        (positive_ramp, (V,)), (sum_of_selected, (V,)),
                        (class_means, (X, Y)), (run_length_encode, (RUNS,)), (fill_gaps, (GAPS,)),
                        (first_above, (V,))],
    "Python numbers from arrays": [(normalise_by_total, (V,)), (best_index, (V,)),
                                   (item_condition, (V,)), (stats_vector, (V,))],
    "containers and types in loops": [(rnn_forward, (X,)), (train_dict_of_weights, (X, X[:, 0])),
                                      (discounted_returns, (V,)), (pairs_from_branches, (V,)),
                                      (kmeans_until_settled, (X, X[:3].copy())),
                                      (train_1000_epochs, (X, (X[:, 0] > 0).astype(float))),
                                      (power_iteration, (A3 @ A3.T,)), (minibatches, (X, X[:, 1])),
                                      (best_threshold, (V,))],
    "NumPy functions and arguments": [(drawdown, (V,)), (segment_sums, (V,)), (safe_divide, (V,)),
                                      (masked_mean, (V,)), (uneven_gradient, (V,)),
                                      (low_bits, (V,)), (random_legacy_seeded, (V,)),
                                      (random_state_seeded, (V,)), (vectorized_python, (V,)),
                                      (eliminate, (A3, np.array([1.0, 2, 3]))),
                                      (derivative_with_spacing, (V,)), (nearest_value, (X,)),
                                      (mean_of_fold_errors, (X, X[:, 2]))],
    "None sentinels, lists the data grow": [(best_feature, (X, X[:, 0])),
                                            (best_of_alphas, (V,)),
                                            (root_by_bisection, (V,)),
                                            (root_by_bisection, (V + 10,)),
                                            (spike_times, (V,)), (local_maxima, (V,)),
                                            (collect_until_large, (V,))],
}


def _same(expected, got, random):
    if expected is None or got is None:
        return expected is got
    if isinstance(expected, list):
        return isinstance(got, list) and len(got) == len(expected) and \
            all(type(e) is type(g) and _same(e, g, random) for e, g in zip(expected, got))
    if isinstance(expected, tuple):
        return isinstance(got, tuple) and len(got) == len(expected) and \
            all(_same(e, g, random) for e, g in zip(expected, got))
    e, g = np.asarray(expected), np.asarray(got)
    if e.shape != g.shape or e.dtype != g.dtype:
        return False
    return random or np.allclose(e, g, rtol=1e-9, atol=1e-12, equal_nan=True)


def run_example(fn, args, jit):
    """``ok``, ``WRONG`` or the refusal's type and first line."""
    copies = lambda: [a.copy() for a in args]  # noqa: E731
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        expected = fn(*copies())
        try:
            got = nptf.compile(fn, fallback="raise", jit_compile=jit)(*copies())
        except nptf.Error as e:
            return f"{type(e).__name__}: {str(e).splitlines()[0][:90]}"
        except Exception as e:  # noqa: BLE001  (an error that is not nptf's own: a defect)
            return f"ERROR {type(e).__name__}: {str(e).splitlines()[0][:90]}"
    return "ok" if _same(expected, got, "random" in fn.__name__) else "WRONG"


def main():
    print("| family | example | plain executor | XLA |")
    print("|---|---|---|---|")
    total = good = 0
    for family, examples in EXAMPLES.items():
        for fn, args in examples:
            results = [run_example(fn, args, jit) for jit in (False, True)]
            total += 2
            good += sum(r == "ok" for r in results)
            print(f"| {family} | `{fn.__name__}` | {results[0]} | {results[1]} |")
    print(f"\n{good} of {total} compile and match NumPy.")
    return 0 if good == total else 1


if __name__ == "__main__":
    sys.exit(main())
