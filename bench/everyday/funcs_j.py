"""Everyday NumPy functions, sixth collection: "ML from scratch" repositories written
with helper functions and keyword defaults (utilities that normalise, shuffle with a
seed, split on a feature, build polynomial features), Rosetta Code numeric tasks,
scientific snippets (integrators that keep lists of states, adaptive steps,
finite-volume updates, seeded Monte Carlo), signal processing written with
np.convolve and difference-equation loops, and data wrangling with np.unique's
inverse, np.bincount weights, np.searchsorted, np.lexsort and forward fills. The
functions check their arguments (``isinstance``, ``None`` defaults), return tuples,
update arguments in place and leave loops early. Each entry of CASES is (name,
function, make_args, opts); make_args() returns the arguments; opts {"rand": True}
marks a function that draws random numbers inside (compared by type, dtype and shape
only)."""
import itertools
import math

import numpy as np


# ----------------------------------------------------------------------------
# ML from scratch: utilities and models
# ----------------------------------------------------------------------------

def normalize(X, axis=-1, order=2):
    l2 = np.atleast_1d(np.linalg.norm(X, order, axis))
    l2[l2 == 0] = 1
    return X / np.expand_dims(l2, axis)


def standardize(X):
    X_std = X.copy()
    mean = X.mean(axis=0)
    std = X.std(axis=0)
    for col in range(np.shape(X)[1]):
        if std[col]:
            X_std[:, col] = (X_std[:, col] - mean[col]) / std[col]
    return X_std


def shuffle_data(X, y, seed=None):
    if seed:
        np.random.seed(seed)
    idx = np.arange(X.shape[0])
    np.random.shuffle(idx)
    return X[idx], y[idx]


def train_test_split_mlfs(X, y, test_size=0.5, shuffle=True, seed=None):
    if shuffle:
        X, y = shuffle_data(X, y, seed)
    split_i = len(y) - int(len(y) // (1 / test_size))
    X_train, X_test = X[:split_i], X[split_i:]
    y_train, y_test = y[:split_i], y[split_i:]
    return X_train, X_test, y_train, y_test


def to_categorical(x, n_col=None):
    if not n_col:
        n_col = np.amax(x) + 1
    one_hot = np.zeros((x.shape[0], n_col))
    one_hot[np.arange(x.shape[0]), x] = 1
    return one_hot


def polynomial_features(X, degree):
    n_samples, n_features = np.shape(X)

    def index_combinations():
        combs = [itertools.combinations_with_replacement(range(n_features), i) for i in range(0, degree + 1)]
        flat_combs = [item for sublist in combs for item in sublist]
        return flat_combs

    combinations = index_combinations()
    n_output_features = len(combinations)
    X_new = np.empty((n_samples, n_output_features))
    for i, index_combs in enumerate(combinations):
        X_new[:, i] = np.prod(X[:, index_combs], axis=1)
    return X_new


def calculate_entropy(y):
    log2 = lambda x: math.log(x) / math.log(2)
    unique_labels = np.unique(y)
    entropy = 0
    for label in unique_labels:
        count = len(y[y == label])
        p = count / len(y)
        entropy += -p * log2(p)
    return entropy


def divide_on_feature(X, feature_i, threshold):
    split_func = None
    if isinstance(threshold, int) or isinstance(threshold, float):
        split_func = lambda sample: sample[feature_i] >= threshold
    else:
        split_func = lambda sample: sample[feature_i] == threshold
    X_1 = np.array([sample for sample in X if split_func(sample)])
    X_2 = np.array([sample for sample in X if not split_func(sample)])
    return X_1, X_2


def best_threshold_info_gain(X, y):
    best = (0.0, None, None)
    n_features = X.shape[1]
    h = calculate_entropy(y)
    for feature_i in range(n_features):
        for threshold in np.unique(X[:, feature_i]):
            left = y[X[:, feature_i] >= threshold]
            right = y[X[:, feature_i] < threshold]
            if len(left) > 0 and len(right) > 0:
                p = len(left) / len(y)
                gain = h - p * calculate_entropy(left) - (1 - p) * calculate_entropy(right)
                if gain > best[0]:
                    best = (gain, feature_i, threshold)
    return best


def calculate_covariance_matrix(X, Y=None):
    if Y is None:
        Y = X
    n_samples = np.shape(X)[0]
    covariance_matrix = (1 / (n_samples - 1)) * (X - X.mean(axis=0)).T.dot(Y - Y.mean(axis=0))
    return np.array(covariance_matrix, dtype=float)


def calculate_correlation_matrix(X, Y=None):
    if Y is None:
        Y = X
    n_samples = np.shape(X)[0]
    covariance = (1 / n_samples) * (X - X.mean(0)).T.dot(Y - Y.mean(0))
    std_dev_X = np.expand_dims(np.std(X, axis=0), 1)
    std_dev_y = np.expand_dims(np.std(Y, axis=0), 1)
    correlation_matrix = np.divide(covariance, std_dev_X.dot(std_dev_y.T))
    return np.array(correlation_matrix, dtype=float)


def pca_transform(X, n_components):
    covariance_matrix = calculate_covariance_matrix(X)
    eigenvalues, eigenvectors = np.linalg.eig(covariance_matrix)
    idx = eigenvalues.argsort()[::-1]
    eigenvalues = eigenvalues[idx][:n_components]
    eigenvectors = np.atleast_1d(eigenvectors[:, idx])[:, :n_components]
    X_transformed = X.dot(eigenvectors)
    return np.abs(X_transformed)


def naive_bayes_mlfs(X, y, X_test):
    classes = np.unique(y)
    parameters = []
    for i, c in enumerate(classes):
        X_where_c = X[np.where(y == c)]
        parameters.append([])
        for col in X_where_c.T:
            parameters[i].append({"mean": col.mean(), "var": col.var()})
    y_pred = []
    for sample in X_test:
        posteriors = []
        for i, c in enumerate(classes):
            posterior = np.mean(y == c)
            for feature_value, params in zip(sample, parameters[i]):
                eps = 1e-4
                coeff = 1.0 / math.sqrt(2.0 * math.pi * params["var"] + eps)
                exponent = math.exp(-(math.pow(feature_value - params["mean"], 2) / (2 * params["var"] + eps)))
                posterior *= coeff * exponent
            posteriors.append(posterior)
        y_pred.append(classes[np.argmax(posteriors)])
    return np.array(y_pred)


def perceptron_mlfs(X, y, n_iterations=20, learning_rate=0.01):
    n_samples, n_features = np.shape(X)
    y = to_categorical(y)
    n_outputs = y.shape[1]
    limit = 1 / math.sqrt(n_features)
    rs = np.random.RandomState(1)
    W = rs.uniform(-limit, limit, (n_features, n_outputs))
    w0 = np.zeros((1, n_outputs))
    for i in range(n_iterations):
        linear_output = X.dot(W) + w0
        y_pred = 1 / (1 + np.exp(-linear_output))
        error_gradient = -(y - y_pred) * (y_pred * (1 - y_pred))
        grad_wrt_w = X.T.dot(error_gradient)
        grad_wrt_w0 = np.sum(error_gradient, axis=0, keepdims=True)
        W -= learning_rate * grad_wrt_w
        w0 -= learning_rate * grad_wrt_w0
    return W, w0


def l2_regularized_regression(X, y, reg_factor=0.1, n_iterations=100, learning_rate=0.01):
    X = np.insert(X, 0, 1, axis=1)
    training_errors = []
    w = np.zeros(X.shape[1])
    for i in range(n_iterations):
        y_pred = X.dot(w)
        mse = np.mean(0.5 * (y - y_pred) ** 2 + reg_factor * 0.5 * w.T.dot(w))
        training_errors.append(mse)
        grad_w = -(y - y_pred).dot(X) + reg_factor * w
        w -= learning_rate * grad_w
    return w, np.array(training_errors)


def logistic_regression_early_stop(X, y, lr=0.1, max_iter=500, tol=1e-6):
    w = np.zeros(X.shape[1])
    b = 0.0
    prev_loss = np.inf
    losses = []
    for it in range(max_iter):
        z = X @ w + b
        p = 1.0 / (1.0 + np.exp(-z))
        loss = -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))
        losses.append(loss)
        if abs(prev_loss - loss) < tol:
            break
        prev_loss = loss
        w -= lr * X.T @ (p - y) / len(y)
        b -= lr * np.mean(p - y)
    return w, b, len(losses)


def knn_mlfs(X_test, X_train, y_train, k=3):
    y_pred = np.empty(X_test.shape[0])
    for i, test_sample in enumerate(X_test):
        idx = np.argsort([np.linalg.norm(test_sample - x) for x in X_train])[:k]
        k_nearest_neighbors = np.array([y_train[i] for i in idx])
        y_pred[i] = np.bincount(k_nearest_neighbors.astype("int")).argmax()
    return y_pred


def kmeans_mlfs(X, k=2, max_iterations=20):
    n_samples, n_features = np.shape(X)
    centroids = np.zeros((k, n_features))
    for i in range(k):
        centroids[i] = X[i * (n_samples // k)]
    for _ in range(max_iterations):
        clusters = [[] for _ in range(k)]
        for sample_i, sample in enumerate(X):
            distances = [np.sqrt(np.sum((sample - c) ** 2)) for c in centroids]
            clusters[int(np.argmin(distances))].append(sample_i)
        prev_centroids = centroids
        centroids = np.zeros((k, n_features))
        for i, cluster in enumerate(clusters):
            centroids[i] = np.mean(X[cluster], axis=0)
        diff = centroids - prev_centroids
        if not diff.any():
            break
    y_pred = np.zeros(n_samples)
    for cluster_i, cluster in enumerate(clusters):
        for sample_i in cluster:
            y_pred[sample_i] = cluster_i
    return y_pred, centroids


def softmax_ce_backward(logits, y):
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    probs = exp / exp.sum(axis=1, keepdims=True)
    n = logits.shape[0]
    loss = -np.log(probs[np.arange(n), y]).mean()
    dlogits = probs.copy()
    dlogits[np.arange(n), y] -= 1
    dlogits /= n
    return loss, dlogits


def batchnorm_train_eval(x, gamma, beta, running_mean=None, running_var=None, momentum=0.9, eps=1e-5):
    if running_mean is None:
        running_mean = np.zeros(x.shape[1])
    if running_var is None:
        running_var = np.ones(x.shape[1])
    outs = []
    for step in range(3):
        xb = x[step::3]
        mu = xb.mean(axis=0)
        var = xb.var(axis=0)
        xhat = (xb - mu) / np.sqrt(var + eps)
        outs.append(gamma * xhat + beta)
        running_mean = momentum * running_mean + (1 - momentum) * mu
        running_var = momentum * running_var + (1 - momentum) * var
    test_out = gamma * (x - running_mean) / np.sqrt(running_var + eps) + beta
    return np.concatenate(outs), test_out, running_mean, running_var


def dropout_randomstate(x, p=0.5, seed=0, train=True):
    if not train:
        return x
    rs = np.random.RandomState(seed)
    mask = (rs.rand(*x.shape) < p) / p
    return x * mask, mask


def conv2d_stride_pad(x, w, b, stride=1, pad=1):
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    H_out = 1 + (H + 2 * pad - HH) // stride
    W_out = 1 + (W + 2 * pad - WW) // stride
    out = np.zeros((N, F, H_out, W_out))
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)), mode="constant")
    for n in range(N):
        for f in range(F):
            for i in range(H_out):
                for j in range(W_out):
                    window = xp[n, :, i * stride:i * stride + HH, j * stride:j * stride + WW]
                    out[n, f, i, j] = np.sum(window * w[f]) + b[f]
    return out


def maxpool_argmax_mask(x, size=2):
    H, W = x.shape
    out = np.zeros((H // size, W // size))
    mask = np.zeros_like(x, dtype=bool)
    for i in range(0, H - size + 1, size):
        for j in range(0, W - size + 1, size):
            patch = x[i:i + size, j:j + size]
            out[i // size, j // size] = patch.max()
            r, c = np.unravel_index(np.argmax(patch), patch.shape)
            mask[i + r, j + c] = True
    return out, mask


def rnn_forward_steps(x_seq, h0, Wx, Wh, b):
    h = h0
    hs = []
    for t in range(x_seq.shape[0]):
        h = np.tanh(x_seq[t] @ Wx + h @ Wh + b)
        hs.append(h)
    return np.stack(hs), h


def lstm_forward_steps(xs, Wx, Wh, b, h=None, c=None):
    H = Wh.shape[0]
    if h is None:
        h = np.zeros(H)
    if c is None:
        c = np.zeros(H)
    sig = lambda z: 1.0 / (1.0 + np.exp(-z))
    hs, cs = [], []
    for x in xs:
        a = x @ Wx + h @ Wh + b
        i, f, o, g = np.split(a, 4)
        i, f, o, g = sig(i), sig(f), sig(o), np.tanh(g)
        c = f * c + i * g
        h = o * np.tanh(c)
        hs.append(h)
        cs.append(c)
    return np.array(hs), np.array(cs)


def gd_with_patience(X, y, lr=0.05, patience=5, max_epochs=200):
    w = np.zeros(X.shape[1])
    best_loss = float("inf")
    best_w = w.copy()
    wait = 0
    n_val = len(y) // 4
    Xv, yv = X[:n_val], y[:n_val]
    Xt, yt = X[n_val:], y[n_val:]
    epoch = 0
    for epoch in range(max_epochs):
        grad = 2 * Xt.T @ (Xt @ w - yt) / len(yt)
        w = w - lr * grad
        val_loss = np.mean((Xv @ w - yv) ** 2)
        if val_loss < best_loss - 1e-9:
            best_loss = val_loss
            best_w = w.copy()
            wait = 0
        else:
            wait += 1
            if wait >= patience:
                break
    return best_w, best_loss, epoch


def decision_tree_predict_arrays(X, feature, threshold, left, right, value):
    out = np.empty(X.shape[0])
    for i in range(X.shape[0]):
        node = 0
        while left[node] != -1:
            if X[i, feature[node]] <= threshold[node]:
                node = left[node]
            else:
                node = right[node]
        out[i] = value[node]
    return out


# ----------------------------------------------------------------------------
# Rosetta Code numeric tasks
# ----------------------------------------------------------------------------

def rc_cholesky(A):
    L = np.zeros_like(A, dtype=float)
    n = A.shape[0]
    for i in range(n):
        for k in range(i + 1):
            tmp_sum = sum(L[i][j] * L[k][j] for j in range(k))
            if i == k:
                L[i][k] = math.sqrt(A[i][i] - tmp_sum)
            else:
                L[i][k] = 1.0 / L[k][k] * (A[i][k] - tmp_sum)
    return L


def rc_rref(M):
    M = M.astype(float).copy()
    lead = 0
    rows, cols = M.shape
    for r in range(rows):
        if lead >= cols:
            return M
        i = r
        while M[i, lead] == 0:
            i += 1
            if i == rows:
                i = r
                lead += 1
                if cols == lead:
                    return M
        M[[i, r]] = M[[r, i]]
        lv = M[r, lead]
        M[r] = M[r] / lv
        for i in range(rows):
            if i != r:
                lv = M[i, lead]
                M[i] = M[i] - lv * M[r]
        lead += 1
    return M


def rc_cramer(A, b):
    D = np.linalg.det(A)
    x = []
    for i in range(A.shape[1]):
        Ai = A.copy()
        Ai[:, i] = b
        x.append(np.linalg.det(Ai) / D)
    return np.array(x)


def rc_pythagorean_means(x):
    a = np.mean(x)
    g = np.exp(np.mean(np.log(x)))
    h = len(x) / np.sum(1.0 / x)
    assert a >= g >= h
    return a, g, h


def rc_mean_angle(deg):
    return math.degrees(math.atan2(np.mean(np.sin(np.radians(deg))), np.mean(np.cos(np.radians(deg)))))


def rc_cumulative_std(xs):
    n = 0
    s = 0.0
    s2 = 0.0
    out = []
    for x in xs:
        n += 1
        s += x
        s2 += x * x
        out.append(math.sqrt(s2 / n - (s / n) ** 2))
    return out


def rc_nth_root(a, n, tol=1e-12):
    x = a / n
    while True:
        x_new = ((n - 1) * x + a / x ** (n - 1)) / n
        if abs(x_new - x) < tol:
            return x_new
        x = x_new


def rc_totients(n=30):
    phi = np.arange(n + 1)
    for p in range(2, n + 1):
        if phi[p] == p:
            phi[p::p] -= phi[p::p] // p
    return phi


def rc_van_der_corput(n=10, base=2):
    out = np.zeros(n)
    for i in range(n):
        q, denom, v = i, 1, 0.0
        while q:
            denom *= base
            q, rem = divmod(q, base)
            v += rem / denom
        out[i] = v
    return out


def rc_kaprekar(limit=1000):
    res = []
    for n in range(1, limit):
        sq = n * n
        p = 10
        while p < sq * 10:
            a, b = divmod(sq, p)
            if b and a + b == n:
                res.append(n)
                break
            p *= 10
        if n == 1:
            res.append(1)
    return np.array(res)


def rc_harshad(count=20):
    out = []
    n = 1
    while len(out) < count:
        s = sum(int(d) for d in str(n))
        if n % s == 0:
            out.append(n)
        n += 1
    return np.array(out)


def rc_abundant_classify(n=40):
    divsum = np.zeros(n + 1, dtype=int)
    for i in range(1, n // 2 + 1):
        divsum[2 * i::i] += i
    k = np.arange(1, n + 1)
    deficient = np.sum(divsum[1:] < k)
    perfect = np.sum(divsum[1:] == k)
    abundant = np.sum(divsum[1:] > k)
    return deficient, perfect, abundant


def rc_floyd_triangle(rows=5):
    out = np.zeros((rows, rows), dtype=int)
    n = 1
    for r in range(rows):
        for c in range(r + 1):
            out[r, c] = n
            n += 1
    return out


def rc_pascal_lists(n=7):
    rows = [[1]]
    for _ in range(n - 1):
        prev = rows[-1]
        rows.append([1] + [prev[i] + prev[i + 1] for i in range(len(prev) - 1)] + [1])
    return np.array(rows[-1]), sum(len(r) for r in rows)


def rc_josephus(n=41, k=3):
    people = list(range(n))
    i = 0
    order = []
    while people:
        i = (i + k - 1) % len(people)
        order.append(people.pop(i))
    return order[-1], np.array(order[:5])


def rc_bresenham(x0, y0, x1, y1, shape=(8, 8)):
    img = np.zeros(shape, dtype=np.uint8)
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx = 1 if x0 < x1 else -1
    sy = 1 if y0 < y1 else -1
    err = dx + dy
    while True:
        img[y0, x0] = 1
        if x0 == x1 and y0 == y1:
            break
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy
    return img


def rc_numerical_integration(f_values, a, b):
    n = len(f_values) - 1
    h = (b - a) / n
    left = h * np.sum(f_values[:-1])
    right = h * np.sum(f_values[1:])
    trap = h * (f_values[0] / 2 + np.sum(f_values[1:-1]) + f_values[-1] / 2)
    simp = h / 3 * (f_values[0] + 4 * np.sum(f_values[1:-1:2]) + 2 * np.sum(f_values[2:-1:2]) + f_values[-1])
    return left, right, trap, simp


def rc_polynomial_long_division(N, D):
    N = list(N)
    D = list(D)
    dD = len(D) - 1
    dN = len(N) - 1
    q = [0.0] * (dN - dD + 1)
    while dN >= dD:
        mult = N[dN] / D[dD]
        q[dN - dD] = mult
        d = [0.0] * (dN - dD) + [c * mult for c in D]
        N = [a - b for a, b in zip(N, d)]
        while N and N[-1] == 0:
            N.pop()
        dN = len(N) - 1
    return np.array(q), np.array(N)


def rc_machin_pi(terms=10):
    def arctan_series(x):
        s = 0.0
        for k in range(terms):
            s += (-1) ** k * x ** (2 * k + 1) / (2 * k + 1)
        return s
    return 4 * (4 * arctan_series(1 / 5) - arctan_series(1 / 239))


def rc_matrix_exp_by_squaring(M, p):
    result = np.eye(M.shape[0], dtype=M.dtype)
    base = M.copy()
    while p > 0:
        if p & 1:
            result = result @ base
        base = base @ base
        p >>= 1
    return result


# ----------------------------------------------------------------------------
# Scientific snippets
# ----------------------------------------------------------------------------

def rk4_lists(y0, t_end=2.0, h=0.1):
    def f(t, y):
        return np.array([y[1], -y[0] - 0.1 * y[1]])
    ts = [0.0]
    ys = [np.asarray(y0, dtype=float)]
    while ts[-1] < t_end - 1e-12:
        t, y = ts[-1], ys[-1]
        k1 = f(t, y)
        k2 = f(t + h / 2, y + h / 2 * k1)
        k3 = f(t + h / 2, y + h / 2 * k2)
        k4 = f(t + h, y + h * k3)
        ys.append(y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4))
        ts.append(t + h)
    return np.array(ts), np.array(ys)


def euler_vs_exact(k=0.5, y0=1.0, h=0.1, n=20):
    t = np.linspace(0, n * h, n + 1)
    y = np.empty(n + 1)
    y[0] = y0
    for i in range(n):
        y[i + 1] = y[i] - h * k * y[i]
    exact = y0 * np.exp(-k * t)
    return y, np.max(np.abs(y - exact))


def rkf45_adaptive(y0, t_end=3.0, tol=1e-6, h=0.1):
    def f(t, y):
        return -2.0 * t * y
    t, y = 0.0, y0
    ts, ys = [t], [y]
    n_rejected = 0
    while t < t_end:
        if t + h > t_end:
            h = t_end - t
        k1 = h * f(t, y)
        k2 = h * f(t + h / 4, y + k1 / 4)
        k3 = h * f(t + 3 * h / 8, y + 3 * k1 / 32 + 9 * k2 / 32)
        k4 = h * f(t + 12 * h / 13, y + 1932 * k1 / 2197 - 7200 * k2 / 2197 + 7296 * k3 / 2197)
        k5 = h * f(t + h, y + 439 * k1 / 216 - 8 * k2 + 3680 * k3 / 513 - 845 * k4 / 4104)
        k6 = h * f(t + h / 2, y - 8 * k1 / 27 + 2 * k2 - 3544 * k3 / 2565 + 1859 * k4 / 4104 - 11 * k5 / 40)
        y4 = y + 25 * k1 / 216 + 1408 * k3 / 2565 + 2197 * k4 / 4104 - k5 / 5
        y5 = y + 16 * k1 / 135 + 6656 * k3 / 12825 + 28561 * k4 / 56430 - 9 * k5 / 50 + 2 * k6 / 55
        err = abs(y5 - y4)
        if err <= tol:
            t += h
            y = y4
            ts.append(t)
            ys.append(y)
        else:
            n_rejected += 1
        s = 0.84 * (tol / max(err, 1e-16)) ** 0.25
        h = h * min(max(s, 0.1), 4.0)
    return np.array(ts), np.array(ys), n_rejected


def lotka_volterra_euler(x0=10.0, y0=5.0, a=1.1, b=0.4, c=0.4, d=0.1, dt=0.01, steps=300):
    x = np.empty(steps + 1)
    y = np.empty(steps + 1)
    x[0], y[0] = x0, y0
    for i in range(steps):
        x[i + 1] = x[i] + dt * (a * x[i] - b * x[i] * y[i])
        y[i + 1] = y[i] + dt * (d * x[i] * y[i] - c * y[i])
    peaks = [i for i in range(1, steps) if x[i] > x[i - 1] and x[i] > x[i + 1]]
    return x, y, peaks


def finite_volume_upwind(u, c=1.0, dx=0.1, cfl=0.5, n_steps=20):
    u = u.copy()
    dt = cfl * dx / abs(c)
    for _ in range(n_steps):
        flux = c * u
        u[1:] -= dt / dx * (flux[1:] - flux[:-1])
        u[0] = u[-1]
    return u, dt * n_steps


def godunov_burgers(u, dx=0.1, dt=0.02, steps=15):
    u = np.asarray(u, dtype=float).copy()
    for _ in range(steps):
        ul = u[:-1]
        ur = u[1:]
        s = 0.5 * (ul + ur)
        flux = np.where(ul > ur,
                        np.where(s > 0, 0.5 * ul ** 2, 0.5 * ur ** 2),
                        np.where(ul > 0, 0.5 * ul ** 2, np.where(ur < 0, 0.5 * ur ** 2, 0.0)))
        u[1:-1] = u[1:-1] - dt / dx * (flux[1:] - flux[:-1])
    return u


def crank_nicolson_heat(u0, alpha=0.5, steps=10):
    n = len(u0)
    A = np.eye(n) * (1 + alpha) - np.eye(n, k=1) * alpha / 2 - np.eye(n, k=-1) * alpha / 2
    B = np.eye(n) * (1 - alpha) + np.eye(n, k=1) * alpha / 2 + np.eye(n, k=-1) * alpha / 2
    u = u0.copy()
    history = [u.copy()]
    for _ in range(steps):
        u = np.linalg.solve(A, B @ u)
        history.append(u)
    return np.vstack(history)


def schrodinger_box_eigs(n=40, L=1.0, k=4):
    dx = L / (n + 1)
    x = np.linspace(dx, L - dx, n)
    V = 50 * (x - 0.5) ** 2
    main = 1.0 / dx ** 2 + V
    off = -0.5 / dx ** 2 * np.ones(n - 1)
    H = np.diag(main) + np.diag(off, 1) + np.diag(off, -1)
    E, psi = np.linalg.eigh(H)
    psi = psi[:, :k]
    psi = psi / np.sqrt(np.sum(psi ** 2, axis=0) * dx)
    return E[:k], np.abs(psi)


def mc_integration_randomstate(n=2000, seed=42):
    rs = np.random.RandomState(seed)
    x = rs.uniform(0, 1, n)
    fx = np.exp(-x ** 2)
    est = fx.mean()
    err = fx.std(ddof=1) / np.sqrt(n)
    return est, err


def random_walk_first_return(n_walks=20, max_steps=100, seed=3):
    rs = np.random.RandomState(seed)
    returns = []
    for _ in range(n_walks):
        pos = 0
        for step in range(1, max_steps + 1):
            pos += 1 if rs.rand() < 0.5 else -1
            if pos == 0:
                returns.append(step)
                break
    return np.array(returns)


def ising_sweep_randomstate(L=6, T=2.0, sweeps=5, seed=7):
    rs = np.random.RandomState(seed)
    s = rs.choice([-1, 1], size=(L, L))
    mags = []
    for _ in range(sweeps):
        for _ in range(L * L):
            i, j = rs.randint(0, L), rs.randint(0, L)
            nb = s[(i + 1) % L, j] + s[(i - 1) % L, j] + s[i, (j + 1) % L] + s[i, (j - 1) % L]
            dE = 2 * s[i, j] * nb
            if dE <= 0 or rs.rand() < np.exp(-dE / T):
                s[i, j] *= -1
        mags.append(abs(s.sum()) / (L * L))
    return s, np.array(mags)


def sir_with_lists(beta=0.3, gamma=0.1, N=1000, I0=5, days=60):
    S, I, R = [N - I0], [I0], [0]
    for _ in range(days):
        s, i, r = S[-1], I[-1], R[-1]
        new_inf = beta * s * i / N
        new_rec = gamma * i
        S.append(s - new_inf)
        I.append(i + new_inf - new_rec)
        R.append(r + new_rec)
    I = np.array(I)
    return int(np.argmax(I)), I.max(), np.array(S)[-1]


def projectile_until_ground(v0=20.0, angle=45.0, dt=0.01, drag=0.0):
    th = np.radians(angle)
    pos = np.array([0.0, 0.0])
    vel = v0 * np.array([np.cos(th), np.sin(th)])
    path = [pos.copy()]
    while pos[1] >= 0:
        acc = np.array([0.0, -9.81]) - drag * vel * np.linalg.norm(vel)
        vel = vel + acc * dt
        pos = pos + vel * dt
        path.append(pos.copy())
    path = np.array(path)
    return path[-1, 0], len(path)


def brownian_msd(n_particles=10, steps=50, seed=5):
    rng = np.random.default_rng(seed)
    disp = rng.normal(0, 1, (n_particles, steps, 2))
    paths = np.cumsum(disp, axis=1)
    msd = np.mean(np.sum(paths ** 2, axis=2), axis=0)
    slope = np.polyfit(np.arange(1, steps + 1), msd, 1)[0]
    return msd, slope


def velocity_verlet_spring(x0=1.0, v0=0.0, k=1.0, m=1.0, dt=0.05, steps=100):
    x, v = x0, v0
    a = -k / m * x
    energies = np.zeros(steps)
    for i in range(steps):
        x = x + v * dt + 0.5 * a * dt ** 2
        a_new = -k / m * x
        v = v + 0.5 * (a + a_new) * dt
        a = a_new
        energies[i] = 0.5 * m * v ** 2 + 0.5 * k * x ** 2
    return x, v, energies.max() - energies.min()


def logistic_bifurcation(r_values, n_transient=100, n_keep=8):
    out = np.zeros((len(r_values), n_keep))
    for k, r in enumerate(r_values):
        x = 0.5
        for _ in range(n_transient):
            x = r * x * (1 - x)
        for j in range(n_keep):
            x = r * x * (1 - x)
            out[k, j] = x
    return out


# ----------------------------------------------------------------------------
# Signal processing
# ----------------------------------------------------------------------------

def lfilter_loop(b, a, x):
    b = np.asarray(b, dtype=float) / a[0]
    a = np.asarray(a, dtype=float) / a[0]
    y = np.zeros(len(x))
    for n in range(len(x)):
        acc = 0.0
        for k in range(len(b)):
            if n - k >= 0:
                acc += b[k] * x[n - k]
        for k in range(1, len(a)):
            if n - k >= 0:
                acc -= a[k] * y[n - k]
        y[n] = acc
    return y


def fir_convolve_modes(x, taps=None):
    if taps is None:
        taps = np.ones(5) / 5
    full = np.convolve(x, taps)
    same = np.convolve(x, taps, mode="same")
    valid = np.convolve(x, taps, mode="valid")
    return full, same, valid


def windowed_sinc_lowpass(x, fc=0.1, N=21):
    n = np.arange(N)
    h = np.sinc(2 * fc * (n - (N - 1) / 2))
    h *= np.blackman(N)
    h /= np.sum(h)
    return np.convolve(x, h, mode="same"), h


def fft_bandpass(x, fs, lo, hi):
    X = np.fft.rfft(x)
    freqs = np.fft.rfftfreq(len(x), d=1.0 / fs)
    X[(freqs < lo) | (freqs > hi)] = 0
    return np.fft.irfft(X, n=len(x))


def autocorr_normalized(x, max_lag=10):
    x = x - np.mean(x)
    result = np.correlate(x, x, mode="full")
    result = result[result.size // 2:]
    result = result / result[0]
    return result[:max_lag + 1]


def find_peaks_prominence(x, min_height=None, min_distance=1):
    peaks = []
    for i in range(1, len(x) - 1):
        if x[i] > x[i - 1] and x[i] >= x[i + 1]:
            if min_height is not None and x[i] < min_height:
                continue
            if peaks and i - peaks[-1] < min_distance:
                if x[i] > x[peaks[-1]]:
                    peaks[-1] = i
                continue
            peaks.append(i)
    peaks = np.array(peaks, dtype=int)
    prominences = np.zeros(len(peaks))
    for k, p in enumerate(peaks):
        left_min = x[:p + 1].min()
        right_min = x[p:].min()
        prominences[k] = x[p] - max(left_min, right_min)
    return peaks, prominences


def filtfilt_ma(x, n=3):
    b = np.ones(n) / n
    y = np.convolve(x, b, mode="full")[:len(x)]
    y = y[::-1]
    y = np.convolve(y, b, mode="full")[:len(x)]
    return y[::-1]


def welch_psd(x, nperseg=16, fs=1.0):
    step = nperseg // 2
    win = np.hanning(nperseg)
    scale = 1.0 / (fs * (win ** 2).sum())
    segs = []
    for start in range(0, len(x) - nperseg + 1, step):
        seg = x[start:start + nperseg]
        seg = (seg - seg.mean()) * win
        P = np.abs(np.fft.rfft(seg)) ** 2 * scale
        P[1:-1] *= 2
        segs.append(P)
    return np.fft.rfftfreq(nperseg, 1 / fs), np.mean(segs, axis=0)


def envelope_rectify_smooth(x, n=5):
    rect = np.abs(x)
    kernel = np.ones(n) / n
    env = np.convolve(rect, kernel, mode="same")
    above = env > env.mean()
    edges = np.flatnonzero(np.diff(above.astype(int)))
    return env, edges


def pre_emphasis_frames(x, alpha=0.97, frame_len=16, hop=8):
    y = np.append(x[0], x[1:] - alpha * x[:-1])
    n_frames = 1 + (len(y) - frame_len) // hop
    idx = np.tile(np.arange(frame_len), (n_frames, 1)) + np.tile(np.arange(0, n_frames * hop, hop), (frame_len, 1)).T
    frames = y[idx] * np.hamming(frame_len)
    energy = np.sum(frames ** 2, axis=1)
    return frames, energy


def cross_correlation_delay(a, b):
    c = np.correlate(a - a.mean(), b - b.mean(), mode="full")
    lag = np.argmax(c) - (len(b) - 1)
    return lag, c.max()


def goertzel_bins(x, bins):
    N = len(x)
    out = []
    for k in bins:
        w = 2 * np.pi * k / N
        coeff = 2 * np.cos(w)
        s_prev = s_prev2 = 0.0
        for sample in x:
            s = sample + coeff * s_prev - s_prev2
            s_prev2, s_prev = s_prev, s
        out.append(s_prev2 ** 2 + s_prev ** 2 - coeff * s_prev * s_prev2)
    return np.array(out)


def detrend_linear(x):
    n = np.arange(len(x))
    A = np.vstack([n, np.ones(len(x))]).T
    coef, *_ = np.linalg.lstsq(A, x, rcond=None)
    return x - A @ coef, coef


def zero_pad_fft_interp(x, factor=2):
    N = len(x)
    X = np.fft.fft(x)
    Xp = np.zeros(N * factor, dtype=complex)
    half = N // 2
    Xp[:half] = X[:half]
    Xp[-half:] = X[-half:]
    return np.real(np.fft.ifft(Xp)) * factor


# ----------------------------------------------------------------------------
# Data wrangling
# ----------------------------------------------------------------------------

def groupby_unique_inverse(keys, values):
    uniq, inv = np.unique(keys, return_inverse=True)
    sums = np.bincount(inv, weights=values)
    counts = np.bincount(inv)
    means = sums / counts
    maxes = np.full(len(uniq), -np.inf)
    np.maximum.at(maxes, inv, values)
    return uniq, means, maxes, counts


def groupby_loop_dict(keys, values):
    out = {}
    for k in np.unique(keys):
        sel = values[keys == k]
        out[int(k)] = (sel.sum(), sel.min(), len(sel))
    return out


def searchsorted_binning(x, edges):
    idx = np.searchsorted(edges, x, side="right") - 1
    idx = np.clip(idx, 0, len(edges) - 2)
    counts = np.bincount(idx, minlength=len(edges) - 1)
    sums = np.bincount(idx, weights=x, minlength=len(edges) - 1)
    return idx, counts, sums


def lexsort_two_keys(last, first, score):
    order = np.lexsort((score, last, first))
    return first[order], last[order], score[order]


def ranks_with_ties(x, method="average"):
    sorter = np.argsort(x, kind="mergesort")
    inv = np.empty(sorter.size, dtype=np.intp)
    inv[sorter] = np.arange(sorter.size, dtype=np.intp)
    xs = x[sorter]
    obs = np.r_[True, xs[1:] != xs[:-1]]
    dense = obs.cumsum()[inv]
    if method == "dense":
        return dense
    count = np.r_[np.nonzero(obs)[0], len(obs)]
    if method == "max":
        return count[dense]
    if method == "min":
        return count[dense - 1] + 1
    return 0.5 * (count[dense] + count[dense - 1] + 1)


def forward_fill_nan(a):
    mask = np.isnan(a)
    idx = np.where(~mask, np.arange(len(a)), 0)
    np.maximum.accumulate(idx, out=idx)
    return a[idx]


def forward_fill_2d(arr):
    mask = np.isnan(arr)
    idx = np.where(~mask, np.arange(mask.shape[1]), 0)
    np.maximum.accumulate(idx, axis=1, out=idx)
    out = arr[np.arange(idx.shape[0])[:, None], idx]
    return out


def sessionize(timestamps, gap=30):
    ts = np.sort(timestamps)
    new_session = np.r_[True, np.diff(ts) > gap]
    session_id = np.cumsum(new_session) - 1
    starts = ts[new_session]
    ends = np.r_[ts[np.flatnonzero(new_session)[1:] - 1], ts[-1]]
    return session_id, ends - starts


def top_n_per_group(groups, scores, n=2):
    order = np.lexsort((-scores, groups))
    g = groups[order]
    first = np.r_[0, np.flatnonzero(np.diff(g)) + 1]
    pos = np.arange(len(g)) - np.repeat(first, np.diff(np.r_[first, len(g)]))
    keep = order[pos < n]
    return np.sort(keep)


def pivot_add_at(rows, cols, vals, shape=None):
    if shape is None:
        shape = (rows.max() + 1, cols.max() + 1)
    table = np.zeros(shape)
    np.add.at(table, (rows, cols), vals)
    return table, table.sum(axis=0), table.sum(axis=1)


def dedupe_keep_last(ids, vals):
    rev_ids = ids[::-1]
    _, idx = np.unique(rev_ids, return_index=True)
    keep = len(ids) - 1 - idx
    keep.sort()
    return ids[keep], vals[keep]


def merge_asof(left_t, right_t, right_v):
    idx = np.searchsorted(right_t, left_t, side="right") - 1
    out = np.where(idx >= 0, right_v[np.maximum(idx, 0)], np.nan)
    return out


def inner_join_sorted(a_keys, a_vals, b_keys, b_vals):
    common, ia, ib = np.intersect1d(a_keys, b_keys, return_indices=True)
    return common, a_vals[ia], b_vals[ib]


def percent_rank(x):
    order = x.argsort()
    ranks = np.empty_like(order)
    ranks[order] = np.arange(len(x))
    return ranks / (len(x) - 1)


def group_zscore(groups, x):
    _, inv, counts = np.unique(groups, return_inverse=True, return_counts=True)
    mean = np.bincount(inv, x) / counts
    sq = np.bincount(inv, x ** 2) / counts
    std = np.sqrt(sq - mean ** 2)
    std[std == 0] = 1.0
    return (x - mean[inv]) / std[inv]


def cumulative_ops_pipeline(x):
    cs = np.cumsum(x)
    cp = np.cumprod(1 + x / 100)
    runmax = np.maximum.accumulate(x)
    runmin = np.minimum.accumulate(x)
    new_high = np.flatnonzero(np.diff(runmax) > 0) + 1
    return cs, cp, runmax - runmin, new_high


def diff_where_events(x, thresh=0.5):
    d = np.diff(x, prepend=x[0])
    up = np.where(d > thresh)[0]
    down = np.where(d < -thresh)[0]
    state = np.zeros(len(x), dtype=int)
    state[up] = 1
    state[down] = -1
    return up, down, np.cumsum(state)


def digitize_labels(ages, bins=(0, 18, 35, 60, 120)):
    bins = np.asarray(bins)
    cat = np.digitize(ages, bins) - 1
    counts = np.bincount(cat, minlength=len(bins) - 1)
    share = counts / counts.sum()
    return cat, counts, np.round(share, 3)


def histogram_with_weights(x, w, bins=5):
    counts, edges = np.histogram(x, bins=bins)
    wsum, _ = np.histogram(x, bins=edges, weights=w)
    centers = 0.5 * (edges[1:] + edges[:-1])
    mean_w = np.divide(wsum, counts, out=np.zeros_like(wsum), where=counts > 0)
    return counts, centers, mean_w


def split_by_group_lists(keys, values):
    order = np.argsort(keys, kind="stable")
    sk = keys[order]
    sv = values[order]
    boundaries = np.flatnonzero(np.diff(sk)) + 1
    parts = np.split(sv, boundaries)
    return [p.sum() for p in parts], [len(p) for p in parts]


def value_counts_sorted(x):
    vals, counts = np.unique(x, return_counts=True)
    order = np.argsort(-counts, kind="stable")
    return vals[order], counts[order]


def crosstab(a, b):
    ua, ia = np.unique(a, return_inverse=True)
    ub, ib = np.unique(b, return_inverse=True)
    table = np.zeros((len(ua), len(ub)), dtype=int)
    for i, j in zip(ia, ib):
        table[i, j] += 1
    return ua, ub, table


def rolling_window_view(x, w=3):
    windows = np.lib.stride_tricks.sliding_window_view(x, w)
    return windows.mean(axis=1), windows.max(axis=1), windows.std(axis=1)


def interp_missing(t, y):
    y = y.copy()
    bad = np.isnan(y)
    y[bad] = np.interp(t[bad], t[~bad], y[~bad])
    return y, int(bad.sum())


def cumcount_per_group(groups):
    order = np.argsort(groups, kind="stable")
    g = groups[order]
    start = np.r_[True, g[1:] != g[:-1]]
    idx = np.arange(len(g))
    first = np.maximum.accumulate(np.where(start, idx, 0))
    out = np.empty(len(g), dtype=int)
    out[order] = idx - first
    return out


def lag_by_group(groups, values):
    out = np.full(len(values), np.nan)
    last = {}
    for i in range(len(values)):
        g = groups[i]
        if g in last:
            out[i] = values[last[g]]
        last[g] = i
    return out


def clip_and_scale_inplace(X, lo=None, hi=None):
    if lo is None:
        lo = np.percentile(X, 5, axis=0)
    if hi is None:
        hi = np.percentile(X, 95, axis=0)
    np.clip(X, lo, hi, out=X)
    X -= lo
    X /= (hi - lo)
    return X


def resample_sum(t, v, period=10):
    bucket = (t // period).astype(int)
    bucket -= bucket.min()
    sums = np.bincount(bucket, weights=v)
    present = np.bincount(bucket) > 0
    return np.flatnonzero(present) * period, sums[present]


# ----------------------------------------------------------------------------
# More: in-place argument updates, seeded shuffles, tolerance loops
# ----------------------------------------------------------------------------

def sgd_epochs_randomstate(X, y, w=None, lr=0.05, epochs=5, seed=0):
    rs = np.random.RandomState(seed)
    if w is None:
        w = np.zeros(X.shape[1])
    for epoch in range(epochs):
        order = rs.permutation(len(y))
        for i in order:
            err = X[i] @ w - y[i]
            w -= lr * err * X[i]
    return w


def normalize_rows_inplace(A, eps=1e-12):
    norms = np.sqrt((A ** 2).sum(axis=1))
    for i in range(A.shape[0]):
        if norms[i] > eps:
            A[i] /= norms[i]
    return None


def bisect_root_math(a, b, tol=1e-10, max_iter=100):
    f = lambda x: math.cos(x) - x
    fa = f(a)
    for _ in range(max_iter):
        m = 0.5 * (a + b)
        fm = f(m)
        if abs(fm) < tol or (b - a) / 2 < tol:
            return m
        if math.copysign(1, fm) == math.copysign(1, fa):
            a, fa = m, fm
        else:
            b = m
    return 0.5 * (a + b)


def softmax_temperature(logits, T=1.0, axis=-1):
    if T <= 0:
        raise ValueError("temperature must be positive")
    z = np.asarray(logits, dtype=float) / T
    z = z - np.max(z, axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)


def histogram_loop_math(x, n_bins=5):
    lo, hi = float(np.min(x)), float(np.max(x))
    width = (hi - lo) / n_bins
    counts = [0] * n_bins
    for v in x:
        k = min(int(math.floor((v - lo) / width)), n_bins - 1)
        counts[k] += 1
    return counts


def running_median_lists(x, w=3):
    out = []
    for i in range(len(x)):
        window = sorted(x[max(0, i - w + 1):i + 1])
        out.append(window[len(window) // 2])
    return np.array(out)


def ecdf_searchsorted(sample, points):
    s = np.sort(sample)
    return np.searchsorted(s, points, side="right") / len(s)


def gini_impurity_splits(x, y):
    order = np.argsort(x)
    xs, ys = x[order], y[order]
    best_g, best_t = 1.0, None
    for i in range(1, len(xs)):
        if xs[i] == xs[i - 1]:
            continue
        left, right = ys[:i], ys[i:]
        gl = 1 - np.sum((np.bincount(left, minlength=2) / len(left)) ** 2)
        gr = 1 - np.sum((np.bincount(right, minlength=2) / len(right)) ** 2)
        g = (len(left) * gl + len(right) * gr) / len(ys)
        if g < best_g:
            best_g, best_t = g, 0.5 * (xs[i] + xs[i - 1])
    return best_g, best_t


def power_method_tol(A, tol=1e-10, max_iter=500):
    v = np.ones(A.shape[0])
    lam = 0.0
    for k in range(max_iter):
        w = A @ v
        new_lam = np.linalg.norm(w)
        v = w / new_lam
        if math.isclose(new_lam, lam, rel_tol=tol):
            break
        lam = new_lam
    return new_lam, v, k


def cumulative_returns_inplace(r, out=None):
    if out is None:
        out = np.empty_like(r)
    np.cumprod(1 + r, out=out)
    out -= 1
    return out


# ----------------------------------------------------------------------------
# Helpers and cases
# ----------------------------------------------------------------------------

def _rng(s=0):
    return np.random.default_rng(s)


def _cls(n=12, seed=100):
    r = _rng(seed)
    X = np.vstack([r.normal(0, 1, (n // 2, 2)), r.normal(2.5, 1, (n // 2, 2))])
    y = np.r_[np.zeros(n // 2, dtype=int), np.ones(n // 2, dtype=int)]
    return X, y


def _sig(n=64, seed=101):
    t = np.arange(n) / 32.0
    return np.sin(2 * np.pi * 3 * t) + 0.4 * _rng(seed).normal(size=n)


def _tree():
    feature = np.array([0, 1, 0, 0, 0])
    threshold = np.array([0.5, 1.0, 0.0, 0.0, 0.0])
    left = np.array([1, 3, -1, -1, -1])
    right = np.array([2, 4, -1, -1, -1])
    value = np.array([0.0, 0.0, 3.0, 1.0, 2.0])
    return feature, threshold, left, right, value


def _lstm(H=3, D=2, seed=102):
    r = _rng(seed)
    return r.normal(size=(5, D)), r.normal(size=(D, 4 * H)) * 0.5, r.normal(size=(H, 4 * H)) * 0.5, np.zeros(4 * H)


CASES = [
    # ML from scratch
    ("normalize", normalize, lambda: (_rng(1).normal(size=(5, 3)),), {}),
    ("standardize", standardize, lambda: (np.c_[_rng(2).normal(size=(6, 2)), np.ones(6)],), {}),
    ("train_test_split_mlfs", train_test_split_mlfs, lambda: (*_cls(), 0.25, True, 7), {"rand": True}),
    ("to_categorical", to_categorical, lambda: (np.array([0, 2, 1, 2, 0]),), {}),
    ("polynomial_features", polynomial_features, lambda: (_rng(3).normal(size=(5, 2)), 3), {}),
    ("calculate_entropy", calculate_entropy, lambda: (np.array([0, 1, 1, 2, 2, 2]),), {}),
    ("divide_on_feature", divide_on_feature, lambda: (_rng(4).normal(size=(8, 3)), 1, 0.0), {}),
    ("best_threshold_info_gain", best_threshold_info_gain, lambda: _cls(10), {}),
    ("calculate_correlation_matrix", calculate_correlation_matrix, lambda: (_rng(5).normal(size=(9, 3)),), {}),
    ("pca_transform", pca_transform, lambda: (_rng(6).normal(size=(10, 3)) @ np.diag([3.0, 1.0, 0.2]), 2), {}),
    ("naive_bayes_mlfs", naive_bayes_mlfs, lambda: (*_cls(), _rng(7).normal(1.2, 1.5, (4, 2))), {}),
    ("perceptron_mlfs", perceptron_mlfs, lambda: _cls(), {"rand": True}),
    ("l2_regularized_regression", l2_regularized_regression,
     lambda: (_rng(8).normal(size=(10, 2)), _rng(9).normal(size=10)), {}),
    ("logistic_regression_early_stop", logistic_regression_early_stop, lambda: (_cls()[0], _cls()[1].astype(float)), {}),
    ("knn_mlfs", knn_mlfs, lambda: (_rng(10).normal(1.2, 1.5, (4, 2)), *_cls()), {}),
    ("kmeans_mlfs", kmeans_mlfs, lambda: (_cls()[0],), {}),
    ("softmax_ce_backward", softmax_ce_backward, lambda: (_rng(11).normal(size=(5, 4)), np.array([0, 3, 1, 2, 3])), {}),
    ("batchnorm_train_eval", batchnorm_train_eval,
     lambda: (_rng(12).normal(size=(9, 3)), np.ones(3), np.zeros(3)), {}),
    ("dropout_randomstate", dropout_randomstate, lambda: (np.ones((3, 4)),), {}),
    ("conv2d_stride_pad", conv2d_stride_pad,
     lambda: (_rng(13).normal(size=(1, 2, 5, 5)), _rng(14).normal(size=(2, 2, 3, 3)), np.array([0.1, -0.1])), {}),
    ("maxpool_argmax_mask", maxpool_argmax_mask, lambda: (_rng(15).normal(size=(4, 6)),), {}),
    ("rnn_forward_steps", rnn_forward_steps,
     lambda: (_rng(16).normal(size=(6, 2)), np.zeros(3), _rng(17).normal(size=(2, 3)), _rng(18).normal(size=(3, 3)) * 0.5, np.zeros(3)), {}),
    ("lstm_forward_steps", lstm_forward_steps, lambda: _lstm(), {}),
    ("gd_with_patience", gd_with_patience,
     lambda: (_rng(19).normal(size=(16, 3)), _rng(20).normal(size=16)), {}),
    ("decision_tree_predict_arrays", decision_tree_predict_arrays,
     lambda: (_rng(21).normal(0.5, 1, (6, 2)), *_tree()), {}),
    # Rosetta Code
    ("rc_cholesky", rc_cholesky, lambda: (np.array([[25.0, 15, -5], [15, 18, 0], [-5, 0, 11]]),), {}),
    ("rc_rref", rc_rref, lambda: (np.array([[1, 2, -1, -4], [2, 3, -1, -11], [-2, 0, -3, 22]]),), {}),
    ("rc_cramer", rc_cramer,
     lambda: (np.array([[2.0, -1, 5, 1], [3, 2, 2, -6], [1, 3, 3, -1], [5, -2, -3, 3]]), np.array([-3.0, -32, -47, 49])), {}),
    ("rc_pythagorean_means", rc_pythagorean_means, lambda: (np.arange(1.0, 11.0),), {}),
    ("rc_mean_angle", rc_mean_angle, lambda: (np.array([350.0, 10.0, 20.0]),), {}),
    ("rc_cumulative_std", rc_cumulative_std, lambda: (np.array([2.0, 4, 4, 4, 5, 5, 7, 9]),), {}),
    ("rc_nth_root", rc_nth_root, lambda: (np.float64(34.0), 5), {}),
    ("rc_totients", rc_totients, lambda: (), {}),
    ("rc_van_der_corput", rc_van_der_corput, lambda: (), {}),
    ("rc_kaprekar", rc_kaprekar, lambda: (), {}),
    ("rc_harshad", rc_harshad, lambda: (), {}),
    ("rc_abundant_classify", rc_abundant_classify, lambda: (), {}),
    ("rc_floyd_triangle", rc_floyd_triangle, lambda: (), {}),
    ("rc_pascal_lists", rc_pascal_lists, lambda: (), {}),
    ("rc_josephus", rc_josephus, lambda: (), {}),
    ("rc_bresenham", rc_bresenham, lambda: (1, 1, 6, 4), {}),
    ("rc_numerical_integration", rc_numerical_integration, lambda: (np.linspace(0, 1, 11) ** 3, 0.0, 1.0), {}),
    ("rc_polynomial_long_division", rc_polynomial_long_division,
     lambda: (np.array([-42.0, 0, -12, 1]), np.array([-3.0, 1])), {}),
    ("rc_machin_pi", rc_machin_pi, lambda: (), {}),
    ("rc_matrix_exp_by_squaring", rc_matrix_exp_by_squaring, lambda: (np.array([[1, 1], [1, 0]]), 10), {}),
    # scientific
    ("rk4_lists", rk4_lists, lambda: (np.array([1.0, 0.0]),), {}),
    ("euler_vs_exact", euler_vs_exact, lambda: (), {}),
    ("rkf45_adaptive", rkf45_adaptive, lambda: (np.float64(1.0),), {}),
    ("lotka_volterra_euler", lotka_volterra_euler, lambda: (), {}),
    ("finite_volume_upwind", finite_volume_upwind, lambda: (np.exp(-((np.arange(20) - 5.0) ** 2) / 4),), {}),
    ("godunov_burgers", godunov_burgers, lambda: (np.where(np.arange(16) < 8, 1.0, 0.0),), {}),
    ("crank_nicolson_heat", crank_nicolson_heat, lambda: (np.sin(np.linspace(0, np.pi, 8)),), {}),
    ("schrodinger_box_eigs", schrodinger_box_eigs, lambda: (), {}),
    ("mc_integration_randomstate", mc_integration_randomstate, lambda: (), {"rand": True}),
    ("random_walk_first_return", random_walk_first_return, lambda: (), {"rand": True}),
    ("ising_sweep_randomstate", ising_sweep_randomstate, lambda: (), {"rand": True}),
    ("sir_with_lists", sir_with_lists, lambda: (), {}),
    ("projectile_until_ground", projectile_until_ground, lambda: (), {}),
    ("brownian_msd", brownian_msd, lambda: (), {"rand": True}),
    ("velocity_verlet_spring", velocity_verlet_spring, lambda: (), {}),
    ("logistic_bifurcation", logistic_bifurcation, lambda: (np.linspace(2.8, 3.9, 5),), {}),
    # signal processing
    ("lfilter_loop", lfilter_loop, lambda: (np.array([0.2, 0.2]), np.array([1.0, -0.6]), _sig(20)), {}),
    ("fir_convolve_modes", fir_convolve_modes, lambda: (_sig(20),), {}),
    ("windowed_sinc_lowpass", windowed_sinc_lowpass, lambda: (_sig(),), {}),
    ("fft_bandpass", fft_bandpass, lambda: (_sig(), 32.0, 2.0, 4.0), {}),
    ("autocorr_normalized", autocorr_normalized, lambda: (_sig(),), {}),
    ("find_peaks_prominence", find_peaks_prominence, lambda: (_sig(40), 0.2, 3), {}),
    ("filtfilt_ma", filtfilt_ma, lambda: (_sig(20),), {}),
    ("welch_psd", welch_psd, lambda: (_sig(),), {}),
    ("envelope_rectify_smooth", envelope_rectify_smooth, lambda: (_sig(),), {}),
    ("pre_emphasis_frames", pre_emphasis_frames, lambda: (_sig(),), {}),
    ("cross_correlation_delay", cross_correlation_delay, lambda: (_sig(30), np.roll(_sig(30), 4)), {}),
    ("goertzel_bins", goertzel_bins, lambda: (_sig(32), [1, 3, 5]), {}),
    ("detrend_linear", detrend_linear, lambda: (_sig(20) + 0.1 * np.arange(20),), {}),
    ("zero_pad_fft_interp", zero_pad_fft_interp, lambda: (np.sin(np.linspace(0, 2 * np.pi, 8, endpoint=False)),), {}),
    # data wrangling
    ("groupby_unique_inverse", groupby_unique_inverse,
     lambda: (np.array([3, 1, 3, 2, 1, 3, 7]), np.array([1.0, 2, 3, 4, 5, 6, 7])), {}),
    ("groupby_loop_dict", groupby_loop_dict,
     lambda: (np.array([3, 1, 3, 2, 1, 3, 7]), np.array([1.0, 2, 3, 4, 5, 6, 7])), {}),
    ("searchsorted_binning", searchsorted_binning,
     lambda: (_rng(30).uniform(0, 10, 15), np.array([0.0, 2.5, 5.0, 7.5, 10.0])), {}),
    ("lexsort_two_keys", lexsort_two_keys,
     lambda: (np.array([3, 1, 2, 1, 3, 2]), np.array([1, 1, 0, 0, 1, 0]), np.array([9.0, 2, 5, 5, 1, 4])), {}),
    ("ranks_with_ties", ranks_with_ties, lambda: (np.array([3.0, 1, 4, 1, 5, 9, 2, 6, 5, 3]),), {}),
    ("forward_fill_nan", forward_fill_nan, lambda: (np.array([1.0, np.nan, np.nan, 4, np.nan, 6]),), {}),
    ("forward_fill_2d", forward_fill_2d,
     lambda: (np.array([[1.0, np.nan, 3, np.nan], [np.nan, 2, np.nan, np.nan], [5, 6, np.nan, 8]]),), {}),
    ("sessionize", sessionize, lambda: (np.array([5, 100, 12, 40, 300, 310, 95, 500]),), {}),
    ("top_n_per_group", top_n_per_group,
     lambda: (np.array([1, 2, 1, 1, 2, 3, 2, 1]), np.array([5.0, 3, 9, 1, 8, 2, 4, 7])), {}),
    ("pivot_add_at", pivot_add_at,
     lambda: (np.array([0, 1, 0, 2, 1, 0]), np.array([1, 0, 1, 2, 2, 0]), np.array([1.0, 2, 3, 4, 5, 6])), {}),
    ("dedupe_keep_last", dedupe_keep_last,
     lambda: (np.array([4, 2, 4, 1, 2, 4]), np.array([10.0, 20, 30, 40, 50, 60])), {}),
    ("merge_asof", merge_asof,
     lambda: (np.array([1.0, 3.5, 7.0, 0.5]), np.array([1.0, 2.0, 5.0]), np.array([10.0, 20.0, 50.0])), {}),
    ("inner_join_sorted", inner_join_sorted,
     lambda: (np.array([1, 3, 5, 7]), np.array([1.0, 3, 5, 7]), np.array([7, 2, 3]), np.array([70.0, 20, 30])), {}),
    ("percent_rank", percent_rank, lambda: (_rng(31).normal(size=7),), {}),
    ("group_zscore", group_zscore,
     lambda: (np.array([1, 2, 1, 2, 1, 3]), np.array([1.0, 5, 3, 7, 2, 4])), {}),
    ("cumulative_ops_pipeline", cumulative_ops_pipeline, lambda: (_rng(32).normal(size=12),), {}),
    ("diff_where_events", diff_where_events, lambda: (np.array([0.0, 0, 1, 1, 1, 0, 0, 1, 0]),), {}),
    ("digitize_labels", digitize_labels, lambda: (np.array([5, 17, 18, 30, 45, 70, 61, 34]),), {}),
    ("histogram_with_weights", histogram_with_weights,
     lambda: (_rng(33).normal(size=20), _rng(34).uniform(0, 1, 20)), {}),
    ("split_by_group_lists", split_by_group_lists,
     lambda: (np.array([2, 1, 2, 3, 1, 2]), np.array([1.0, 2, 3, 4, 5, 6])), {}),
    ("value_counts_sorted", value_counts_sorted, lambda: (np.array([3, 1, 3, 2, 1, 3, 5]),), {}),
    ("crosstab", crosstab, lambda: (np.array([0, 1, 0, 1, 2, 0]), np.array([5, 5, 6, 6, 5, 6])), {}),
    ("rolling_window_view", rolling_window_view, lambda: (np.array([1.0, 3, 2, 5, 4, 6, 8]),), {}),
    ("interp_missing", interp_missing,
     lambda: (np.arange(7.0), np.array([1.0, np.nan, 3, np.nan, np.nan, 6, 7])), {}),
    ("cumcount_per_group", cumcount_per_group, lambda: (np.array([2, 1, 2, 2, 1, 3]),), {}),
    ("lag_by_group", lag_by_group, lambda: (np.array([2, 1, 2, 2, 1, 3]), np.array([1.0, 2, 3, 4, 5, 6])), {}),
    ("clip_and_scale_inplace", clip_and_scale_inplace, lambda: (_rng(35).normal(size=(10, 2)),), {}),
    ("resample_sum", resample_sum,
     lambda: (np.array([3.0, 7, 12, 15, 38, 41, 44]), np.array([1.0, 2, 3, 4, 5, 6, 7])), {}),
    # more
    ("sgd_epochs_randomstate", sgd_epochs_randomstate,
     lambda: (_rng(40).normal(size=(8, 2)), _rng(41).normal(size=8)), {"rand": True}),
    ("normalize_rows_inplace", normalize_rows_inplace, lambda: (np.array([[3.0, 4.0], [0.0, 0.0], [1.0, 1.0]]),), {}),
    ("bisect_root_math", bisect_root_math, lambda: (0.0, 1.0), {}),
    ("softmax_temperature", softmax_temperature, lambda: (_rng(42).normal(size=(3, 4)), 0.5), {}),
    ("histogram_loop_math", histogram_loop_math, lambda: (_rng(43).normal(size=20),), {}),
    ("running_median_lists", running_median_lists, lambda: (_rng(44).normal(size=9),), {}),
    ("ecdf_searchsorted", ecdf_searchsorted, lambda: (_rng(45).normal(size=15), np.linspace(-2, 2, 5)), {}),
    ("gini_impurity_splits", gini_impurity_splits,
     lambda: (_rng(46).normal(size=10), np.array([0, 1, 0, 1, 1, 0, 1, 1, 0, 1])), {}),
    ("power_method_tol", power_method_tol, lambda: (np.array([[2.0, 1.0], [1.0, 3.0]]),), {}),
    ("cumulative_returns_inplace", cumulative_returns_inplace, lambda: (_rng(47).normal(0, 0.01, 10),), {}),
]
