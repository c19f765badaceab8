"""Everyday NumPy functions, second collection: written the way tutorials, exercise
collections and ML-from-scratch repositories write them (loops, lists appended to,
dicts of weights, int()/float() of array values, early returns, helpers). Each entry
of CASES is (name, function, make_args, opts); make_args() returns the arguments;
opts {"rand": True} marks a function that draws random numbers inside (nptf's
streams differ from NumPy's by design: compared by type, dtype and shape only)."""
import numpy as np


# ----------------------------------------------------------------------------
# ML from scratch
# ----------------------------------------------------------------------------

def compute_cost(X, y, w, b):
    m = len(y)
    pred = X @ w + b
    return np.sum((pred - y) ** 2) / (2 * m)


def linreg_gd_history(X, y, lr=0.05, epochs=200):
    m, n = X.shape
    w = np.zeros(n)
    b = 0.0
    cost_history = []
    for i in range(epochs):
        pred = X @ w + b
        err = pred - y
        dw = (1 / m) * X.T @ err
        db = (1 / m) * np.sum(err)
        w -= lr * dw
        b -= lr * db
        if i % 20 == 0:
            cost_history.append(compute_cost(X, y, w, b))
    return w, b, np.array(cost_history)


def sigmoid(z):
    return 1 / (1 + np.exp(-z))


def logreg_until_converged(X, y, lr=0.5, tol=1e-6, max_iter=5000):
    w = np.zeros(X.shape[1])
    prev_loss = np.inf
    it = 0
    while it < max_iter:
        p = sigmoid(X @ w)
        loss = -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))
        if abs(prev_loss - loss) < tol:
            break
        grad = X.T @ (p - y) / len(y)
        w = w - lr * grad
        prev_loss = loss
        it += 1
    return w, it, float(loss)


def knn_predict(X_train, y_train, X_test, k=3):
    preds = []
    for x in X_test:
        d = np.sqrt(np.sum((X_train - x) ** 2, axis=1))
        idx = np.argsort(d)[:k]
        votes = y_train[idx]
        preds.append(np.bincount(votes).argmax())
    return np.array(preds)


def kmeans(X, k=3, n_iter=20):
    centroids = X[:k].copy()
    for _ in range(n_iter):
        dists = np.linalg.norm(X[:, None, :] - centroids[None, :, :], axis=2)
        labels = np.argmin(dists, axis=1)
        new_centroids = np.array([X[labels == j].mean(axis=0) for j in range(k)])
        if np.allclose(new_centroids, centroids):
            break
        centroids = new_centroids
    return centroids, labels


def kmeans_random_init(X, k=3, max_iter=50, seed=42):
    np.random.seed(seed)
    idx = np.random.choice(len(X), k, replace=False)
    centroids = X[idx]
    for it in range(max_iter):
        labels = np.argmin(((X[:, None] - centroids) ** 2).sum(axis=2), axis=1)
        for j in range(k):
            pts = X[labels == j]
            if len(pts) > 0:
                centroids[j] = pts.mean(axis=0)
    return centroids, labels


def pca_eigh(X, n_components=2):
    X_centered = X - np.mean(X, axis=0)
    cov = np.cov(X_centered, rowvar=False)
    eigvals, eigvecs = np.linalg.eigh(cov)
    idx = np.argsort(eigvals)[::-1]
    eigvals = eigvals[idx]
    eigvecs = eigvecs[:, idx]
    components = eigvecs[:, :n_components]
    # fix sign for determinism
    signs = np.sign(components[np.argmax(np.abs(components), axis=0), range(n_components)])
    components = components * signs
    explained = eigvals[:n_components] / np.sum(eigvals)
    return X_centered @ components, explained


def pca_svd(X, n_components=2):
    Xc = X - X.mean(axis=0)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    max_abs_cols = np.argmax(np.abs(U), axis=0)
    signs = np.sign(U[max_abs_cols, range(U.shape[1])])
    U *= signs
    Vt *= signs[:, np.newaxis]
    explained_variance = (S ** 2) / (len(X) - 1)
    ratio = explained_variance / explained_variance.sum()
    return U[:, :n_components] * S[:n_components], ratio[:n_components]


def gaussian_nb(X_train, y_train, X_test):
    classes = np.unique(y_train)
    stats = {}
    for c in classes:
        Xc = X_train[y_train == c]
        stats[c] = {
            "mean": Xc.mean(axis=0),
            "var": Xc.var(axis=0) + 1e-9,
            "prior": len(Xc) / len(X_train),
        }
    posteriors = []
    for c in classes:
        s = stats[c]
        log_lik = -0.5 * np.sum(np.log(2 * np.pi * s["var"])) \
            - 0.5 * np.sum((X_test - s["mean"]) ** 2 / s["var"], axis=1)
        posteriors.append(np.log(s["prior"]) + log_lik)
    posteriors = np.array(posteriors).T
    return classes[np.argmax(posteriors, axis=1)]


def entropy(y):
    _, counts = np.unique(y, return_counts=True)
    p = counts / len(y)
    return -np.sum(p * np.log2(p))


def information_gain(X_col, y, threshold):
    left = y[X_col <= threshold]
    right = y[X_col > threshold]
    if len(left) == 0 or len(right) == 0:
        return 0.0
    n = len(y)
    child = len(left) / n * entropy(left) + len(right) / n * entropy(right)
    return entropy(y) - child


def best_split(X, y):
    best_gain = -1
    best_feat, best_thr = None, None
    for feat in range(X.shape[1]):
        thresholds = np.unique(X[:, feat])
        for thr in thresholds:
            gain = information_gain(X[:, feat], y, thr)
            if gain > best_gain:
                best_gain = gain
                best_feat = feat
                best_thr = thr
    return best_feat, best_thr, best_gain


def gini(y):
    classes = np.unique(y)
    impurity = 1.0
    for c in classes:
        p = np.sum(y == c) / len(y)
        impurity -= p ** 2
    return impurity


def decision_stump(x, y):
    order = np.argsort(x)
    xs, ys = x[order], y[order]
    best = (np.inf, None)
    for i in range(1, len(xs)):
        if xs[i] == xs[i - 1]:
            continue
        thr = (xs[i] + xs[i - 1]) / 2
        g = (i * gini(ys[:i]) + (len(ys) - i) * gini(ys[i:])) / len(ys)
        if g < best[0]:
            best = (g, thr)
    return best


def perceptron(X, y, lr=1.0, max_epochs=100):
    w = np.zeros(X.shape[1])
    b = 0.0
    for epoch in range(max_epochs):
        errors = 0
        for i in range(len(X)):
            if y[i] * (np.dot(w, X[i]) + b) <= 0:
                w += lr * y[i] * X[i]
                b += lr * y[i]
                errors += 1
        if errors == 0:
            break
    return w, b, epoch


def relu(z):
    return np.maximum(0, z)


def softmax(z):
    e = np.exp(z - np.max(z, axis=1, keepdims=True))
    return e / np.sum(e, axis=1, keepdims=True)


def mlp_train(params, X, y, lr=0.1, epochs=30):
    n = X.shape[0]
    n_classes = params["W2"].shape[1]
    Y = np.zeros((n, n_classes))
    Y[np.arange(n), y] = 1
    losses = []
    for ep in range(epochs):
        # forward
        z1 = X @ params["W1"] + params["b1"]
        a1 = relu(z1)
        z2 = a1 @ params["W2"] + params["b2"]
        probs = softmax(z2)
        loss = -np.sum(Y * np.log(probs + 1e-9)) / n
        losses.append(loss)
        # backward
        grads = {}
        dz2 = (probs - Y) / n
        grads["W2"] = a1.T @ dz2
        grads["b2"] = dz2.sum(axis=0)
        da1 = dz2 @ params["W2"].T
        dz1 = da1 * (z1 > 0)
        grads["W1"] = X.T @ dz1
        grads["b1"] = dz1.sum(axis=0)
        for key in params:
            params[key] -= lr * grads[key]
    return params, losses


def cross_entropy_onehot(logits, labels, num_classes=4):
    one_hot = np.eye(num_classes)[labels]
    probs = softmax(logits)
    loss = -np.mean(np.sum(one_hot * np.log(probs), axis=1))
    acc = np.mean(np.argmax(probs, axis=1) == labels)
    return loss, acc


def minibatch_sgd(X, y, batch_size=16, epochs=5, lr=0.01):
    n, d = X.shape
    w = np.zeros(d)
    for epoch in range(epochs):
        for start in range(0, n, batch_size):
            end = start + batch_size
            Xb = X[start:end]
            yb = y[start:end]
            grad = 2 * Xb.T @ (Xb @ w - yb) / len(Xb)
            w = w - lr * grad
    return w


def minibatch_shuffle(X, y, batch_size=10, epochs=3, lr=0.05):
    n, d = X.shape
    w = np.zeros(d)
    for epoch in range(epochs):
        perm = np.random.permutation(n)
        X_s, y_s = X[perm], y[perm]
        for i in range(0, n, batch_size):
            Xb, yb = X_s[i:i + batch_size], y_s[i:i + batch_size]
            w -= lr * Xb.T @ (Xb @ w - yb) / batch_size
    return w


def rnn_loss(inputs, targets, hprev, Wxh, Whh, Why, bh, by):
    # Karpathy min-char-rnn style
    xs, hs, ys, ps = {}, {}, {}, {}
    hs[-1] = np.copy(hprev)
    loss = 0
    vocab_size = Wxh.shape[1]
    for t in range(len(inputs)):
        xs[t] = np.zeros((vocab_size, 1))
        xs[t][inputs[t]] = 1
        hs[t] = np.tanh(np.dot(Wxh, xs[t]) + np.dot(Whh, hs[t - 1]) + bh)
        ys[t] = np.dot(Why, hs[t]) + by
        ps[t] = np.exp(ys[t]) / np.sum(np.exp(ys[t]))
        loss += -np.log(ps[t][targets[t], 0])
    return loss, hs[len(inputs) - 1]


def rnn_sample(h, Wxh, Whh, Why, bh, by, seed_ix, n):
    x = np.zeros((Wxh.shape[1], 1))
    x[seed_ix] = 1
    ixes = []
    for t in range(n):
        h = np.tanh(np.dot(Wxh, x) + np.dot(Whh, h) + bh)
        y = np.dot(Why, h) + by
        p = np.exp(y) / np.sum(np.exp(y))
        ix = int(np.argmax(p.ravel()))  # greedy instead of random
        x = np.zeros((Wxh.shape[1], 1))
        x[ix] = 1
        ixes.append(ix)
    return ixes


def batchnorm_forward(x, gamma, beta, eps=1e-5):
    mu = np.mean(x, axis=0)
    xmu = x - mu
    var = np.mean(xmu ** 2, axis=0)
    sqrtvar = np.sqrt(var + eps)
    ivar = 1. / sqrtvar
    xhat = xmu * ivar
    out = gamma * xhat + beta
    cache = (xhat, gamma, xmu, ivar, sqrtvar, var, eps)
    return out, cache


def adam_rosenbrock(x0, lr=0.01, steps=500, beta1=0.9, beta2=0.999, eps=1e-8):
    x = x0.astype(float).copy()
    m = np.zeros_like(x)
    v = np.zeros_like(x)
    for t in range(1, steps + 1):
        g = np.array([-2 * (1 - x[0]) - 400 * x[0] * (x[1] - x[0] ** 2),
                      200 * (x[1] - x[0] ** 2)])
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g ** 2
        m_hat = m / (1 - beta1 ** t)
        v_hat = v / (1 - beta2 ** t)
        x -= lr * m_hat / (np.sqrt(v_hat) + eps)
    return x


def ridge_cv(X, y, alphas=(0.01, 0.1, 1.0, 10.0), k=5):
    n = len(y)
    folds = np.array_split(np.arange(n), k)
    best_alpha, best_err = None, np.inf
    for alpha in alphas:
        errs = []
        for f in folds:
            mask = np.ones(n, dtype=bool)
            mask[f] = False
            Xtr, ytr = X[mask], y[mask]
            w = np.linalg.solve(Xtr.T @ Xtr + alpha * np.eye(X.shape[1]), Xtr.T @ ytr)
            errs.append(np.mean((X[f] @ w - y[f]) ** 2))
        err = np.mean(errs)
        if err < best_err:
            best_err = err
            best_alpha = alpha
    return best_alpha, best_err


def confusion_matrix(y_true, y_pred, n_classes):
    cm = np.zeros((n_classes, n_classes), dtype=int)
    for t, p in zip(y_true, y_pred):
        cm[t, p] += 1
    return cm


def precision_recall_f1(y_true, y_pred):
    tp = np.sum((y_true == 1) & (y_pred == 1))
    fp = np.sum((y_true == 0) & (y_pred == 1))
    fn = np.sum((y_true == 1) & (y_pred == 0))
    precision = tp / (tp + fp) if (tp + fp) > 0 else 0.0
    recall = tp / (tp + fn) if (tp + fn) > 0 else 0.0
    if precision + recall == 0:
        return 0.0, 0.0, 0.0
    f1 = 2 * precision * recall / (precision + recall)
    return float(precision), float(recall), float(f1)


def roc_auc(y_true, scores):
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    n_pos = np.sum(y_true == 1)
    n_neg = len(y_true) - n_pos
    return (np.sum(ranks[y_true == 1]) - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def standard_scaler(X_train, X_test):
    mean = X_train.mean(axis=0)
    std = X_train.std(axis=0)
    std[std == 0] = 1.0
    return (X_train - mean) / std, (X_test - mean) / std, {"mean": mean, "std": std}


def dropout_forward(x, p=0.5, train=True):
    if train:
        mask = (np.random.rand(*x.shape) < p) / p
        return x * mask, mask
    return x, None


# ----------------------------------------------------------------------------
# Scientific snippets
# ----------------------------------------------------------------------------

def derivatives(f_vals, h):
    d1 = np.zeros_like(f_vals)
    d1[1:-1] = (f_vals[2:] - f_vals[:-2]) / (2 * h)
    d1[0] = (f_vals[1] - f_vals[0]) / h
    d1[-1] = (f_vals[-1] - f_vals[-2]) / h
    d2 = np.diff(f_vals, 2) / h ** 2
    return d1, d2, np.gradient(f_vals, h)


def rhs_oscillator(t, y, omega=2.0):
    return np.array([y[1], -omega ** 2 * y[0]])


def rk4(y0, t0, t1, n_steps):
    h = (t1 - t0) / n_steps
    t = t0
    y = np.array(y0, dtype=float)
    ts = [t]
    ys = [y.copy()]
    for _ in range(n_steps):
        k1 = rhs_oscillator(t, y)
        k2 = rhs_oscillator(t + h / 2, y + h / 2 * k1)
        k3 = rhs_oscillator(t + h / 2, y + h / 2 * k2)
        k4 = rhs_oscillator(t + h, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        t = t + h
        ts.append(t)
        ys.append(y)
    return np.array(ts), np.array(ys)


def sir_euler(beta, gamma, N=1000, I0=1, days=160, dt=1.0):
    S = np.zeros(days)
    I = np.zeros(days)
    R = np.zeros(days)
    S[0], I[0], R[0] = N - I0, I0, 0
    for t in range(days - 1):
        dS = -beta * S[t] * I[t] / N
        dI = beta * S[t] * I[t] / N - gamma * I[t]
        dR = gamma * I[t]
        S[t + 1] = S[t] + dt * dS
        I[t + 1] = I[t] + dt * dI
        R[t + 1] = R[t] + dt * dR
    peak_day = np.argmax(I)
    return S, I, R, peak_day


def monte_carlo_pi(n=10000, seed=0):
    np.random.seed(seed)
    x = np.random.uniform(-1, 1, n)
    y = np.random.uniform(-1, 1, n)
    inside = np.sum(x ** 2 + y ** 2 <= 1)
    return 4 * inside / n


def random_walk(n_steps=1000, seed=1):
    rng = np.random.default_rng(seed)
    steps = rng.choice([-1, 1], size=n_steps)
    position = np.cumsum(steps)
    max_dist = np.abs(position).max()
    first_return = np.argmax(position == 0) if np.any(position == 0) else -1
    return position, max_dist, first_return


def random_walk_2d(n=500):
    pos = np.zeros((n + 1, 2))
    for i in range(1, n + 1):
        angle = np.random.uniform(0, 2 * np.pi)
        pos[i] = pos[i - 1] + [np.cos(angle), np.sin(angle)]
    return pos, np.linalg.norm(pos[-1])


def moving_averages(x, w=5):
    conv = np.convolve(x, np.ones(w) / w, mode="valid")
    cs = np.cumsum(np.insert(x, 0, 0))
    cums = (cs[w:] - cs[:-w]) / w
    return conv, cums


def ema(x, alpha=0.3):
    out = np.empty_like(x)
    out[0] = x[0]
    for i in range(1, len(x)):
        out[i] = alpha * x[i] + (1 - alpha) * out[i - 1]
    return out


def histogram_stats(x, bins=10):
    counts, edges = np.histogram(x, bins=bins)
    centers = (edges[:-1] + edges[1:]) / 2
    mode_bin = centers[np.argmax(counts)]
    density = counts / (counts.sum() * np.diff(edges))
    return counts, edges, mode_bin, density


def manual_binning(x, n_bins=5):
    edges = np.linspace(x.min(), x.max(), n_bins + 1)
    idx = np.digitize(x, edges[1:-1])
    counts = np.bincount(idx, minlength=n_bins)
    means = np.array([x[idx == b].mean() if np.any(idx == b) else np.nan
                      for b in range(n_bins)])
    return counts, means


def linear_interp_loop(xp, fp, xq):
    out = np.empty(len(xq))
    for k, x in enumerate(xq):
        i = np.searchsorted(xp, x) - 1
        i = min(max(i, 0), len(xp) - 2)
        t = (x - xp[i]) / (xp[i + 1] - xp[i])
        out[k] = fp[i] + t * (fp[i + 1] - fp[i])
    return out, np.interp(xq, xp, fp)


def f_cubic(x):
    return x ** 3 - 2 * x - 5


def bisection(a, b, tol=1e-10, max_iter=200):
    fa = f_cubic(a)
    if fa * f_cubic(b) > 0:
        return None
    n = 0
    while (b - a) / 2 > tol and n < max_iter:
        c = (a + b) / 2
        fc = f_cubic(c)
        if fc == 0:
            return c, n
        if fa * fc < 0:
            b = c
        else:
            a = c
            fa = fc
        n += 1
    return (a + b) / 2, n


def newton_sqrt(values, tol=1e-12):
    roots = np.empty_like(values)
    for i, v in enumerate(values):
        x = v if v > 1 else 1.0
        while True:
            x_new = 0.5 * (x + v / x)
            if abs(x_new - x) < tol:
                break
            x = x_new
        roots[i] = x_new
    return roots


def gauss_elimination(A, b):
    A = A.astype(float).copy()
    b = b.astype(float).copy()
    n = len(b)
    for k in range(n - 1):
        p = np.argmax(np.abs(A[k:, k])) + k
        if A[p, k] == 0:
            raise ValueError("singular")
        if p != k:
            A[[k, p]] = A[[p, k]]
            b[[k, p]] = b[[p, k]]
        for i in range(k + 1, n):
            factor = A[i, k] / A[k, k]
            A[i, k:] -= factor * A[k, k:]
            b[i] -= factor * b[k]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - np.dot(A[i, i + 1:], x[i + 1:])) / A[i, i]
    return x


def sieve(n):
    is_prime = np.ones(n + 1, dtype=bool)
    is_prime[:2] = False
    for i in range(2, int(np.sqrt(n)) + 1):
        if is_prime[i]:
            is_prime[i * i::i] = False
    return np.nonzero(is_prime)[0]


def sieve_count(limit_arr):
    # limit passed as a 0-d array, as when it comes out of other numpy code
    n = int(limit_arr)
    primes = np.ones(n, dtype=bool)
    primes[:2] = False
    for i in range(2, int(n ** 0.5) + 1):
        if primes[i]:
            primes[i * i::i] = False
    return primes.sum()


def life_step(Z):
    # 100 numpy exercises #79
    N = (Z[0:-2, 0:-2] + Z[0:-2, 1:-1] + Z[0:-2, 2:] +
         Z[1:-1, 0:-2] + Z[1:-1, 2:] +
         Z[2:, 0:-2] + Z[2:, 1:-1] + Z[2:, 2:])
    birth = (N == 3) & (Z[1:-1, 1:-1] == 0)
    survive = ((N == 2) | (N == 3)) & (Z[1:-1, 1:-1] == 1)
    Z[...] = 0
    Z[1:-1, 1:-1][birth | survive] = 1
    return Z


def game_of_life(Z, steps=10):
    history = [Z.sum()]
    for _ in range(steps):
        Z = life_step(Z)
        history.append(Z.sum())
    return Z, history


def life_roll(grid, steps=5):
    for _ in range(steps):
        nb = sum(np.roll(np.roll(grid, i, 0), j, 1)
                 for i in (-1, 0, 1) for j in (-1, 0, 1) if (i != 0 or j != 0))
        grid = np.where((nb == 3) | ((grid == 1) & (nb == 2)), 1, 0)
    return grid


def conv2d_loops(img, kernel):
    kh, kw = kernel.shape
    H, W = img.shape
    out = np.zeros((H - kh + 1, W - kw + 1))
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = np.sum(img[i:i + kh, j:j + kw] * kernel)
    return out


def sobel_edges(img):
    gx = np.zeros_like(img)
    gy = np.zeros_like(img)
    gx[1:-1, 1:-1] = (img[:-2, 2:] + 2 * img[1:-1, 2:] + img[2:, 2:]
                      - img[:-2, :-2] - 2 * img[1:-1, :-2] - img[2:, :-2])
    gy[1:-1, 1:-1] = (img[2:, :-2] + 2 * img[2:, 1:-1] + img[2:, 2:]
                      - img[:-2, :-2] - 2 * img[:-2, 1:-1] - img[:-2, 2:])
    mag = np.hypot(gx, gy)
    mag *= 255.0 / mag.max()
    return mag, mag > 100


def box_blur_padded(img, r=1):
    padded = np.pad(img, r, mode="edge")
    out = np.zeros_like(img, dtype=float)
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            out += padded[r + dy:r + dy + img.shape[0], r + dx:r + dx + img.shape[1]]
    return out / (2 * r + 1) ** 2


def fft_lowpass(signal, dt, cutoff):
    F = np.fft.rfft(signal)
    freqs = np.fft.rfftfreq(len(signal), d=dt)
    F[freqs > cutoff] = 0
    return np.fft.irfft(F, n=len(signal))


def dominant_frequency(x, fs):
    n = len(x)
    spectrum = np.abs(np.fft.fft(x)) / n
    freqs = np.fft.fftfreq(n, 1 / fs)
    half = n // 2
    k = np.argmax(spectrum[1:half]) + 1
    return freqs[k], 2 * spectrum[k]


def pairwise_distances(X, Y):
    XX = np.sum(X ** 2, axis=1)[:, np.newaxis]
    YY = np.sum(Y ** 2, axis=1)[np.newaxis, :]
    d2 = XX - 2 * X @ Y.T + YY
    np.maximum(d2, 0, out=d2)
    D = np.sqrt(d2)
    nearest = D.argmin(axis=1)
    return D, nearest


def closest_pair(points):
    best = np.inf
    pair = (-1, -1)
    n = len(points)
    for i in range(n):
        for j in range(i + 1, n):
            d = np.linalg.norm(points[i] - points[j])
            if d < best:
                best = d
                pair = (i, j)
    return pair, best


def welford(x):
    n = 0
    mean = 0.0
    M2 = 0.0
    for v in x:
        n += 1
        delta = v - mean
        mean += delta / n
        M2 += delta * (v - mean)
    return mean, M2 / (n - 1)


def normalize_columns(X):
    mins = X.min(axis=0)
    maxs = X.max(axis=0)
    rng = np.where(maxs - mins == 0, 1, maxs - mins)
    X_mm = (X - mins) / rng
    X_z = (X - X.mean(axis=0)) / X.std(axis=0)
    X_l2 = X / np.linalg.norm(X, axis=1, keepdims=True)
    return X_mm, X_z, X_l2


def simpson(f_vals, a, b):
    n = len(f_vals) - 1
    if n % 2 == 1:
        raise ValueError("n must be even")
    h = (b - a) / n
    s = f_vals[0] + f_vals[-1]
    for i in range(1, n, 2):
        s += 4 * f_vals[i]
    for i in range(2, n - 1, 2):
        s += 2 * f_vals[i]
    return s * h / 3, np.trapezoid(f_vals, dx=h)


def power_iteration(A, tol=1e-10, max_iter=1000):
    b = np.ones(A.shape[0])
    lam_old = 0.0
    for i in range(max_iter):
        b = A @ b
        b = b / np.linalg.norm(b)
        lam = b @ A @ b
        if abs(lam - lam_old) < tol:
            return lam, b, i
        lam_old = lam
    return lam, b, max_iter


def jacobi_solve(A, b, tol=1e-8):
    x = np.zeros_like(b)
    D = np.diag(A)
    R = A - np.diagflat(D)
    n_iter = 0
    while True:
        x_new = (b - R @ x) / D
        n_iter += 1
        if np.linalg.norm(x_new - x, ord=np.inf) < tol:
            break
        x = x_new
    return x_new, n_iter


def heat_equation(u0, alpha=0.01, dx=0.1, dt=0.1, steps=200):
    u = u0.copy()
    r = alpha * dt / dx ** 2
    snapshots = []
    for n in range(steps):
        u[1:-1] = u[1:-1] + r * (u[2:] - 2 * u[1:-1] + u[:-2])
        if n % 50 == 0:
            snapshots.append(u.copy())
    return u, np.array(snapshots)


def mandelbrot(xmin=-2.0, xmax=0.5, ymin=-1.25, ymax=1.25, w=40, h=30, max_iter=50):
    x = np.linspace(xmin, xmax, w)
    y = np.linspace(ymin, ymax, h)
    C = x[np.newaxis, :] + 1j * y[:, np.newaxis]
    Z = np.zeros_like(C)
    counts = np.zeros(C.shape, dtype=int)
    for n in range(max_iter):
        mask = np.abs(Z) <= 2
        Z[mask] = Z[mask] ** 2 + C[mask]
        counts[mask] += 1
    return counts


def matrix_summary(A):
    det = np.linalg.det(A)
    inv = np.linalg.inv(A)
    cond = np.linalg.cond(A)
    sym = np.allclose(A, A.T)
    return {"det": det, "inv": inv, "trace": np.trace(A), "cond": cond,
            "symmetric": sym, "rank": np.linalg.matrix_rank(A)}


def lu_decompose(A):
    n = A.shape[0]
    L = np.eye(n)
    U = A.astype(float).copy()
    for j in range(n - 1):
        for i in range(j + 1, n):
            L[i, j] = U[i, j] / U[j, j]
            U[i, j:] = U[i, j:] - L[i, j] * U[j, j:]
    return L, U


# ----------------------------------------------------------------------------
# Data wrangling / 100-numpy-exercises style
# ----------------------------------------------------------------------------

def groupby_mean(groups, values):
    keys, inv = np.unique(groups, return_inverse=True)
    sums = np.bincount(inv, weights=values)
    counts = np.bincount(inv)
    return keys, sums / counts, counts


def most_frequent(x):
    vals, counts = np.unique(x, return_counts=True)
    i = np.argmax(counts)
    return int(vals[i]), int(counts[i])


def rank_data(x):
    order = np.argsort(x)
    ranks = np.empty_like(order)
    ranks[order] = np.arange(len(x))
    return ranks, x.argsort().argsort()


def grade(scores):
    conditions = [scores >= 90, scores >= 80, scores >= 70, scores >= 60]
    choices = [4, 3, 2, 1]
    gpa = np.select(conditions, choices, default=0)
    passed = np.where(scores >= 60, scores, np.nan)
    return gpa, np.nanmean(passed), np.clip(scores + 5, 0, 100)


def remove_outliers_iqr(x, k=1.5):
    q1, q3 = np.percentile(x, [25, 75])
    iqr = q3 - q1
    mask = (x >= q1 - k * iqr) & (x <= q3 + k * iqr)
    return x[mask], int((~mask).sum())


def age_buckets(ages):
    bins = [0, 18, 30, 45, 65, 120]
    idx = np.digitize(ages, bins) - 1
    counts = np.bincount(idx, minlength=len(bins) - 1)
    return idx, counts


def fill_nan_with_col_mean(X):
    X = X.copy()
    col_mean = np.nanmean(X, axis=0)
    inds = np.where(np.isnan(X))
    X[inds] = np.take(col_mean, inds[1])
    return X, len(inds[0])


def top_k_per_row(scores, k=3):
    idx = np.argsort(scores, axis=1)[:, -k:][:, ::-1]
    vals = np.take_along_axis(scores, idx, axis=1)
    return idx, vals


def unique_rows(X):
    uniq, counts = np.unique(X, axis=0, return_counts=True)
    return uniq, counts


def rolling_max(x, w=3):
    from numpy.lib.stride_tricks import sliding_window_view
    windows = sliding_window_view(x, w)
    return windows.max(axis=1), windows.mean(axis=1)


def pivot_table(rows, cols, vals, n_rows, n_cols):
    table = np.zeros((n_rows, n_cols))
    np.add.at(table, (rows, cols), vals)
    return table, table.sum(axis=1), table / table.sum()


def class_means(X, labels, n_classes=3):
    means = [X[labels == k].mean(axis=0) for k in range(n_classes)]
    sizes = [len(X[labels == k]) for k in range(n_classes)]
    return np.array(means), sizes


def find_nearest(Z, z):
    # 100 numpy exercises #61
    m = Z.flat[np.abs(Z - z).argmin()]
    return m


def run_lengths(x):
    # lengths of runs of ones in a 0/1 array
    bounded = np.hstack(([0], x, [0]))
    difs = np.diff(bounded)
    starts, = np.where(difs > 0)
    ends, = np.where(difs < 0)
    return ends - starts, starts


def longest_streak(x):
    best = 0
    cur = 0
    for v in x:
        if v > 0:
            cur += 1
            if cur > best:
                best = cur
        else:
            cur = 0
    return best


def replace_max(Z):
    # 100 numpy exercises #45
    Z[Z.argmax()] = 0
    return Z


def checkerboard(n=8):
    Z = np.zeros((n, n), dtype=int)
    Z[1::2, ::2] = 1
    Z[::2, 1::2] = 1
    return Z


def exercises_misc(Z):
    # a few one-liners from "100 numpy exercises"
    a = (Z - np.mean(Z)) / np.std(Z)             # normalize
    b = Z - Z.mean(axis=1, keepdims=True)         # subtract row mean
    c = Z[Z[:, 1].argsort()]                      # sort by 2nd column
    d = np.fliplr(np.eye(Z.shape[0]))             # anti-diagonal
    e = np.count_nonzero(Z > 0.5)
    f = np.unravel_index(np.argmax(Z), Z.shape)
    return a, b, c, d, e, f


def swap_and_negate(Z):
    Z = Z.copy()
    Z[[0, 1]] = Z[[1, 0]]                        # swap two rows
    Z[(Z > 3) & (Z < 8)] *= -1                   # negate between 3 and 8
    return Z


def cumulative_stats(x):
    n = np.arange(1, len(x) + 1)
    cmean = np.cumsum(x) / n
    cmax = np.maximum.accumulate(x)
    drawdown = (cmax - x) / cmax
    return cmean, cmax, drawdown.max(), int(np.argmax(drawdown))


def cumulative_with_loop(prices):
    returns = []
    peak = prices[0]
    max_dd = 0.0
    for p in prices[1:]:
        returns.append(p / peak - 1)
        if p > peak:
            peak = p
        dd = (peak - p) / peak
        max_dd = max(max_dd, dd)
    return np.array(returns), max_dd


def first_index_above(x, thresh):
    for i in range(len(x)):
        if x[i] > thresh:
            return i
    return -1


def count_above_per_threshold(x, thresholds):
    result = {}
    for t in thresholds:
        result[t] = len(x[x > t])
    return result


def bootstrap_mean_ci(x, n_boot=200, alpha=0.05, seed=0):
    rng = np.random.default_rng(seed)
    means = np.empty(n_boot)
    for i in range(n_boot):
        sample = rng.choice(x, size=len(x), replace=True)
        means[i] = sample.mean()
    lo, hi = np.percentile(means, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return lo, hi


def train_test_split(X, y, test_ratio=0.25, seed=0):
    rng = np.random.default_rng(seed)
    idx = rng.permutation(len(X))
    n_test = int(len(X) * test_ratio)
    test_idx, train_idx = idx[:n_test], idx[n_test:]
    return X[train_idx], X[test_idx], y[train_idx], y[test_idx]


def weighted_percentile_loop(values, weights, q=50):
    order = np.argsort(values)
    v, w = values[order], weights[order]
    cw = np.cumsum(w)
    cutoff = q / 100.0 * cw[-1]
    for i in range(len(v)):
        if cw[i] >= cutoff:
            return v[i]
    return v[-1]



# ----------------------------------------------------------------------------
# Batch 2: more everyday snippets
# ----------------------------------------------------------------------------

def polyfit_trend(x, y, deg=2):
    coeffs = np.polyfit(x, y, deg)
    fitted = np.polyval(coeffs, x)
    ss_res = np.sum((y - fitted) ** 2)
    ss_tot = np.sum((y - y.mean()) ** 2)
    return coeffs, 1 - ss_res / ss_tot


def autocorrelation(x, max_lag=8):
    return np.array([np.corrcoef(x[:-k], x[k:])[0, 1] for k in range(1, max_lag + 1)])


def lstsq_line(x, y):
    A = np.vstack([x, np.ones(len(x))]).T
    m, c = np.linalg.lstsq(A, y, rcond=None)[0]
    return float(m), float(c)


def gaussian_kernel(size=5, sigma=1.0):
    ax = np.arange(-(size // 2), size // 2 + 1)
    xx, yy = np.meshgrid(ax, ax)
    kernel = np.exp(-(xx ** 2 + yy ** 2) / (2 * sigma ** 2))
    return kernel / kernel.sum()


def set_ops(a, b):
    common = np.intersect1d(a, b)
    only_a = np.setdiff1d(a, b)
    n_in = np.isin(a, b).sum()
    return common, only_a, n_in, np.union1d(a, b)


def sort_students(grades, ages):
    idx = np.lexsort((ages, -grades))
    return idx, grades[idx], np.searchsorted(np.sort(grades), 75)


def qr_least_squares(A, b):
    Q, R = np.linalg.qr(A)
    x = np.linalg.solve(R, Q.T @ b)
    return x, np.linalg.norm(A @ x - b)


def einsum_ops(A, B, T):
    rowdot = np.einsum("ij,ij->i", A, B)
    batch = np.einsum("bij,bjk->bik", T, T)
    tr = np.einsum("ii", A @ B.T)
    return rowdot, batch, tr


def median_filter(x, k=2):
    out = np.empty_like(x)
    n = len(x)
    for i in range(n):
        lo = max(0, i - k)
        hi = min(n, i + k + 1)
        out[i] = np.median(x[lo:hi])
    return out


def wealth_path(returns, initial=1000.0):
    wealth = initial * np.cumprod(1 + returns)
    peak = np.maximum.accumulate(wealth)
    worst = np.min(wealth / peak - 1)
    return wealth, worst, np.ptp(wealth)


def multiplication_table(n=9):
    a = np.arange(1, n + 1)
    t = np.outer(a, a)
    pattern = np.tile(np.array([[0, 1], [1, 0]]), (2, 3))
    rep = np.repeat(a[:3], [1, 2, 3])
    return t, pattern, rep


def logsumexp(a, axis=None):
    a_max = np.max(a, axis=axis, keepdims=True)
    out = np.log(np.sum(np.exp(a - a_max), axis=axis, keepdims=True)) + a_max
    if axis is None:
        return out.item()
    return np.squeeze(out, axis=axis)


def kde(samples, grid, bandwidth=0.5):
    dens = []
    for g in grid:
        u = (g - samples) / bandwidth
        dens.append(np.mean(np.exp(-0.5 * u ** 2)) / (bandwidth * np.sqrt(2 * np.pi)))
    return np.array(dens)


def find_peaks(x):
    is_peak = (x[1:-1] > x[:-2]) & (x[1:-1] > x[2:])
    peaks = np.where(is_peak)[0] + 1
    return peaks, len(peaks), np.argwhere(x > 0.9)


def lif_neuron(I, dt=0.1, tau=10.0, v_rest=-65.0, v_th=-50.0, v_reset=-70.0):
    v = v_rest
    vs = np.zeros(len(I))
    spikes = []
    for t in range(len(I)):
        v += dt / tau * (-(v - v_rest) + I[t])
        if v >= v_th:
            spikes.append(t)
            v = v_reset
        vs[t] = v
    return vs, np.array(spikes, dtype=int)


def lif_neuron_count(I, dt=0.1, tau=10.0, v_rest=-65.0, v_th=-50.0, v_reset=-70.0):
    v = v_rest
    vs = np.zeros(len(I))
    n_spikes = 0
    for t in range(len(I)):
        v += dt / tau * (-(v - v_rest) + I[t])
        if v >= v_th:
            n_spikes += 1
            v = v_reset
        vs[t] = v
    return vs, n_spikes


def euler_maruyama(x0=1.0, mu=0.1, sigma=0.2, T=1.0, n=100, seed=3):
    rng = np.random.default_rng(seed)
    dt = T / n
    x = np.empty(n + 1)
    x[0] = x0
    for i in range(n):
        dW = rng.normal(0, np.sqrt(dt))
        x[i + 1] = x[i] + mu * x[i] * dt + sigma * x[i] * dW
    return x


def rule30(width=31, steps=15):
    row = np.zeros(width, dtype=np.uint8)
    row[width // 2] = 1
    rows = [row]
    for _ in range(steps):
        left = np.roll(row, 1)
        right = np.roll(row, -1)
        row = left ^ (row | right)
        rows.append(row)
    return np.array(rows)


def collatz_lengths(starts):
    lengths = np.zeros(len(starts), dtype=np.int64)
    for i, s in enumerate(starts):
        n = int(s)
        steps = 0
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        lengths[i] = steps
    return lengths


def horner(coeffs, x):
    result = np.zeros_like(x)
    for c in coeffs:
        result = result * x + c
    return result


def first_occurrences(x):
    vals, first_idx, counts = np.unique(x, return_index=True, return_counts=True)
    dup_mask = np.ones(len(x), dtype=bool)
    dup_mask[first_idx] = False
    return vals, first_idx, x[dup_mask], counts.max()

# ----------------------------------------------------------------------------
# Cases
# ----------------------------------------------------------------------------

def _rng(s=0):
    return np.random.default_rng(s)


def _blobs(n=60, seed=0):
    r = _rng(seed)
    centers = np.array([[0, 0], [5, 5], [0, 6]], dtype=float)
    y = np.repeat(np.arange(3), n // 3)
    X = centers[y] + r.normal(size=(n, 2))
    return X, y


def _case_linreg():
    r = _rng(1)
    X = r.normal(size=(50, 3))
    y = X @ np.array([1.5, -2.0, 0.5]) + 0.3 + 0.1 * r.normal(size=50)
    return (X, y)


def _case_logreg():
    r = _rng(2)
    X = np.hstack([np.ones((80, 1)), r.normal(size=(80, 2))])
    y = (X[:, 1] + X[:, 2] + 0.5 * r.normal(size=80) > 0).astype(float)
    return (X, y)


def _case_knn():
    X, y = _blobs()
    Xt = _rng(9).normal(size=(10, 2)) * 3 + 2
    return (X, y, Xt)


def _case_nb():
    X, y = _blobs(90, 3)
    return (X, y, _rng(4).normal(size=(12, 2)) * 3 + 2)


def _case_tree():
    r = _rng(5)
    X = np.round(r.normal(size=(30, 2)), 1)
    y = (X[:, 0] > 0.2).astype(int)
    y[:3] = 1 - y[:3]
    return (X, y)


def _case_stump():
    r = _rng(6)
    x = np.round(r.uniform(0, 10, 25), 1)
    y = (x > 4).astype(int)
    return (x, y)


def _case_perceptron():
    r = _rng(7)
    X = r.normal(size=(40, 2))
    y = np.where(X[:, 0] + 2 * X[:, 1] > 0, 1.0, -1.0)
    return (X, y)


def _case_mlp():
    r = _rng(8)
    params = {"W1": r.normal(size=(4, 8)) * 0.5, "b1": np.zeros(8),
              "W2": r.normal(size=(8, 3)) * 0.5, "b2": np.zeros(3)}
    X = r.normal(size=(30, 4))
    y = r.integers(0, 3, 30)
    return (params, X, y)


def _case_rnn():
    r = _rng(10)
    V, H = 6, 5
    inputs = [0, 3, 2, 5, 1, 4, 4, 2]
    targets = [3, 2, 5, 1, 4, 4, 2, 0]
    return (inputs, targets, np.zeros((H, 1)), r.normal(size=(H, V)) * 0.1,
            r.normal(size=(H, H)) * 0.1, r.normal(size=(V, H)) * 0.1,
            np.zeros((H, 1)), np.zeros((V, 1)))


def _case_rnn_sample():
    a = _case_rnn()
    return (np.zeros((5, 1)),) + a[3:] + (2, 10)


def _case_nan_matrix():
    X = _rng(11).normal(size=(8, 3))
    X[1, 0] = X[4, 2] = X[6, 2] = np.nan
    return (X,)


def _case_life():
    Z = np.zeros((10, 10), dtype=int)
    Z[1, 2] = Z[2, 3] = Z[3, 1] = Z[3, 2] = Z[3, 3] = 1   # glider
    Z[6, 6:9] = 1                                           # blinker
    return (Z,)


def _case_signal():
    t = np.arange(256) / 128.0
    x = np.sin(2 * np.pi * 5 * t) + 0.5 * np.sin(2 * np.pi * 30 * t)
    return x


CASES = [
    ("linreg_gd_history", linreg_gd_history, _case_linreg, {}),
    ("logreg_until_converged", logreg_until_converged, _case_logreg, {}),
    ("knn_predict", knn_predict, _case_knn, {}),
    ("kmeans", kmeans, lambda: (_blobs()[0],), {}),
    ("kmeans_random_init", kmeans_random_init, lambda: (_blobs()[0],), {"rand": True}),
    ("pca_eigh", pca_eigh, lambda: (_rng(12).normal(size=(40, 4)) @ _rng(13).normal(size=(4, 4)),), {}),
    ("pca_svd", pca_svd, lambda: (_rng(14).normal(size=(30, 5)),), {}),
    ("gaussian_nb", gaussian_nb, _case_nb, {}),
    ("best_split", best_split, _case_tree, {}),
    ("decision_stump", decision_stump, _case_stump, {}),
    ("perceptron", perceptron, _case_perceptron, {}),
    ("mlp_train", mlp_train, _case_mlp, {}),
    ("cross_entropy_onehot", cross_entropy_onehot,
     lambda: (_rng(15).normal(size=(12, 4)), _rng(16).integers(0, 4, 12)), {}),
    ("minibatch_sgd", minibatch_sgd, _case_linreg, {}),
    ("minibatch_shuffle", minibatch_shuffle, _case_linreg, {"rand": True}),
    ("rnn_loss", rnn_loss, _case_rnn, {}),
    ("rnn_sample", rnn_sample, _case_rnn_sample, {}),
    ("batchnorm_forward", batchnorm_forward,
     lambda: (_rng(17).normal(size=(16, 4)), np.ones(4), np.zeros(4)), {}),
    ("adam_rosenbrock", adam_rosenbrock, lambda: (np.array([-1.0, 1.5]),), {}),
    ("ridge_cv", ridge_cv, _case_linreg, {}),
    ("confusion_matrix", confusion_matrix,
     lambda: (_rng(18).integers(0, 3, 40), _rng(19).integers(0, 3, 40), 3), {}),
    ("precision_recall_f1", precision_recall_f1,
     lambda: (_rng(20).integers(0, 2, 50), _rng(21).integers(0, 2, 50)), {}),
    ("roc_auc", roc_auc, lambda: (_rng(22).integers(0, 2, 40), _rng(23).random(40)), {}),
    ("standard_scaler", standard_scaler,
     lambda: (np.hstack([_rng(24).normal(size=(20, 3)), np.ones((20, 1))]),
              _rng(25).normal(size=(5, 4))), {}),
    ("dropout_forward", dropout_forward, lambda: (_rng(26).normal(size=(4, 6)),), {"rand": True}),
    # scientific
    ("derivatives", derivatives, lambda: (np.sin(np.linspace(0, np.pi, 21)), np.pi / 20), {}),
    ("rk4", rk4, lambda: ([1.0, 0.0], 0.0, 5.0, 100), {}),
    ("sir_euler", sir_euler, lambda: (0.3, 0.1), {}),
    ("monte_carlo_pi", monte_carlo_pi, lambda: (), {"rand": True}),
    ("random_walk", random_walk, lambda: (), {"rand": True}),
    ("random_walk_2d", random_walk_2d, lambda: (), {"rand": True}),
    ("moving_averages", moving_averages, lambda: (_rng(27).normal(size=40).cumsum(),), {}),
    ("ema", ema, lambda: (_rng(28).normal(size=50),), {}),
    ("histogram_stats", histogram_stats, lambda: (_rng(29).normal(size=200),), {}),
    ("manual_binning", manual_binning, lambda: (_rng(30).exponential(size=60),), {}),
    ("linear_interp_loop", linear_interp_loop,
     lambda: (np.linspace(0, 10, 11), np.linspace(0, 10, 11) ** 2, np.array([0.5, 2.25, 9.9, 10.0, 3.0])), {}),
    ("bisection", bisection, lambda: (2.0, 3.0), {}),
    ("newton_sqrt", newton_sqrt, lambda: (np.array([2.0, 9.0, 0.25, 1e4, 1.0]),), {}),
    ("gauss_elimination", gauss_elimination,
     lambda: (np.array([[2, 1, -1], [-3, -1, 2], [-2, 1, 2]]), np.array([8, -11, -3])), {}),
    ("sieve", sieve, lambda: (100,), {}),
    ("sieve_count", sieve_count, lambda: (np.array(1000),), {}),
    ("game_of_life", game_of_life, _case_life, {}),
    ("life_roll", life_roll, _case_life, {}),
    ("conv2d_loops", conv2d_loops,
     lambda: (_rng(31).random((12, 12)), np.array([[1, 2, 1], [2, 4, 2], [1, 2, 1]]) / 16), {}),
    ("sobel_edges", sobel_edges, lambda: (np.add.outer(np.arange(16.0), np.zeros(16)) * (np.arange(16) > 7),), {}),
    ("box_blur_padded", box_blur_padded, lambda: (_rng(32).integers(0, 255, (8, 10)),), {}),
    ("fft_lowpass", fft_lowpass, lambda: (_case_signal(), 1 / 128.0, 10.0), {}),
    ("dominant_frequency", dominant_frequency, lambda: (_case_signal(), 128.0), {}),
    ("pairwise_distances", pairwise_distances,
     lambda: (_rng(33).normal(size=(7, 3)), _rng(34).normal(size=(5, 3))), {}),
    ("closest_pair", closest_pair, lambda: (_rng(35).random((15, 2)),), {}),
    ("welford", welford, lambda: (_rng(36).normal(5, 2, size=100),), {}),
    ("normalize_columns", normalize_columns, lambda: (_rng(37).random((10, 4)) + 0.1,), {}),
    ("simpson", simpson, lambda: (np.exp(np.linspace(0, 1, 21)), 0.0, 1.0), {}),
    ("power_iteration", power_iteration,
     lambda: (np.array([[4.0, 1, 0], [1, 3, 1], [0, 1, 2]]),), {}),
    ("jacobi_solve", jacobi_solve,
     lambda: (np.array([[10.0, -1, 2], [-1, 11, -1], [2, -1, 10]]), np.array([6.0, 25, -11])), {}),
    ("heat_equation", heat_equation,
     lambda: (np.where(np.abs(np.linspace(0, 1, 21) - 0.5) < 0.2, 1.0, 0.0),), {}),
    ("mandelbrot", mandelbrot, lambda: (), {}),
    ("matrix_summary", matrix_summary,
     lambda: (np.array([[4.0, 2, 1], [2, 5, 3], [1, 3, 6]]),), {}),
    ("lu_decompose", lu_decompose, lambda: (np.array([[2.0, 1, 1], [4, 3, 3], [8, 7, 9]]),), {}),
    # data wrangling
    ("groupby_mean", groupby_mean,
     lambda: (_rng(38).integers(0, 5, 30) * 10, _rng(39).random(30)), {}),
    ("most_frequent", most_frequent, lambda: (np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]),), {}),
    ("rank_data", rank_data, lambda: (_rng(40).permutation(10) * 1.5,), {}),
    ("grade", grade, lambda: (np.array([95, 82, 77, 64, 51, 88, 70, 59, 100, 45]),), {}),
    ("remove_outliers_iqr", remove_outliers_iqr,
     lambda: (np.append(_rng(41).normal(size=30), [8.0, -7.0]),), {}),
    ("age_buckets", age_buckets, lambda: (np.array([5, 17, 18, 25, 33, 47, 64, 65, 80, 29]),), {}),
    ("fill_nan_with_col_mean", fill_nan_with_col_mean, _case_nan_matrix, {}),
    ("top_k_per_row", top_k_per_row, lambda: (_rng(42).random((5, 8)),), {}),
    ("unique_rows", unique_rows, lambda: (_rng(43).integers(0, 2, (10, 3)),), {}),
    ("rolling_max", rolling_max, lambda: (_rng(44).normal(size=15),), {}),
    ("pivot_table", pivot_table,
     lambda: (_rng(45).integers(0, 3, 20), _rng(46).integers(0, 4, 20), _rng(47).random(20), 3, 4), {}),
    ("class_means", class_means, lambda: _blobs(), {}),
    ("find_nearest", find_nearest, lambda: (_rng(48).random((4, 4)), 0.5), {}),
    ("run_lengths", run_lengths, lambda: (np.array([0, 1, 1, 0, 1, 1, 1, 0, 0, 1]),), {}),
    ("longest_streak", longest_streak, lambda: (np.array([1, -1, 2, 3, 4, -2, 5, 6, 0, 1]),), {}),
    ("replace_max", replace_max, lambda: (_rng(49).random(10),), {}),
    ("checkerboard", checkerboard, lambda: (), {}),
    ("exercises_misc", exercises_misc, lambda: (_rng(50).random((5, 5)),), {}),
    ("swap_and_negate", swap_and_negate, lambda: (np.arange(12).reshape(4, 3),), {}),
    ("cumulative_stats", cumulative_stats, lambda: (100 + _rng(51).normal(size=30).cumsum(),), {}),
    ("cumulative_with_loop", cumulative_with_loop, lambda: (100 + _rng(52).normal(size=30).cumsum(),), {}),
    ("first_index_above", first_index_above, lambda: (_rng(53).random(20), 0.9), {}),
    ("count_above_per_threshold", count_above_per_threshold,
     lambda: (_rng(54).random(50), [0.25, 0.5, 0.75]), {}),
    ("bootstrap_mean_ci", bootstrap_mean_ci, lambda: (_rng(55).normal(size=40),), {"rand": True}),
    ("train_test_split", train_test_split,
     lambda: (np.arange(40.0).reshape(20, 2), np.arange(20)), {"rand": True}),
    ("weighted_percentile_loop", weighted_percentile_loop,
     lambda: (_rng(56).random(20), _rng(57).random(20)), {}),
    # batch 2
    ("polyfit_trend", polyfit_trend,
     lambda: (np.linspace(0, 5, 20), 0.5 * np.linspace(0, 5, 20) ** 2 - np.linspace(0, 5, 20) + _rng(60).normal(size=20) * 0.2), {}),
    ("autocorrelation", autocorrelation, lambda: (np.sin(np.arange(40) / 3.0) + _rng(61).normal(size=40) * 0.1,), {}),
    ("lstsq_line", lstsq_line, lambda: (np.arange(10.0), 2 * np.arange(10.0) + 1 + _rng(62).normal(size=10) * 0.1), {}),
    ("gaussian_kernel", gaussian_kernel, lambda: (), {}),
    ("set_ops", set_ops, lambda: (np.array([5, 1, 3, 7, 9, 3]), np.array([3, 4, 5, 6])), {}),
    ("sort_students", sort_students,
     lambda: (np.array([88, 92, 75, 92, 60, 75]), np.array([20, 19, 22, 21, 20, 18])), {}),
    ("qr_least_squares", qr_least_squares, lambda: (_rng(63).normal(size=(8, 3)), _rng(64).normal(size=8)), {}),
    ("einsum_ops", einsum_ops,
     lambda: (_rng(65).normal(size=(4, 4)), _rng(66).normal(size=(4, 4)), _rng(67).normal(size=(2, 3, 3))), {}),
    ("median_filter", median_filter, lambda: (np.array([1.0, 9, 2, 3, 8, 2, 2, 7, 1, 0]),), {}),
    ("wealth_path", wealth_path, lambda: (_rng(68).normal(0.01, 0.05, size=24),), {}),
    ("multiplication_table", multiplication_table, lambda: (), {}),
    ("logsumexp", logsumexp, lambda: (_rng(69).normal(size=(3, 5)) * 10,), {}),
    ("logsumexp_axis1", logsumexp, lambda: (_rng(69).normal(size=(3, 5)) * 10, 1), {}),
    ("kde", kde, lambda: (_rng(70).normal(size=30), np.linspace(-3, 3, 13)), {}),
    ("find_peaks", find_peaks, lambda: (np.sin(np.linspace(0, 12, 50)),), {}),
    ("lif_neuron", lif_neuron, lambda: (np.full(300, 20.0),), {}),
    ("lif_neuron_count", lif_neuron_count, lambda: (np.full(300, 20.0),), {}),
    ("euler_maruyama", euler_maruyama, lambda: (), {"rand": True}),
    ("rule30", rule30, lambda: (), {}),
    ("collatz_lengths", collatz_lengths, lambda: (np.array([1, 6, 7, 27, 97]),), {}),
    ("horner", horner, lambda: (np.array([2.0, -3.0, 0.0, 1.0]), np.linspace(-1, 1, 5)), {}),
    ("first_occurrences", first_occurrences, lambda: (np.array([4, 2, 4, 1, 2, 4, 7]),), {}),
]
