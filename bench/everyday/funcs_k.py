"""Everyday NumPy functions, seventh collection: course-assignment layers written
the way their skeletons are (a numerical gradient over ``np.nditer``, layer
parameters in dicts keyed by f-strings, a convolution's backward pass, batch
normalisation that writes its running statistics back into its ``bn_param`` dict,
``verbose`` training loops that print), numpy-100 answers (cartesian products from
a list of arrays, rows holding the elements of other rows, sliding-window views
with a step, sorting by a column), sorting algorithms as Rosetta Code writes them
(Shell, cocktail-shaker, heap sort with an inner sift-down, bottom-up merge sort),
``bisect`` on Python lists (patience sorting, a running median kept with
``insort``), ``itertools.permutations`` for a permanent, Jacobi eigenvalue
rotations, Newton's method on ``np.polyval``/``np.polyder``, Tukey's five
numbers, Kahan summation, great-circle distances, simulations that stop early
and return dicts, and state-machine scans that collect ``(start, end)`` tuples.
Each entry of CASES is (name, function, make_args, opts); make_args() returns the
arguments; opts {"rand": True} marks a function that draws random numbers inside
(compared by type, dtype and shape only)."""
import bisect
import itertools
import math

import numpy as np


# ----------------------------------------------------------------------------
# Course assignments: layers, losses, gradient checks
# ----------------------------------------------------------------------------

def svm_loss_half_vectorized(W, X, y, reg=1e-3):
    num_train = X.shape[0]
    loss = 0.0
    dW = np.zeros_like(W)
    for i in range(num_train):
        scores = X[i].dot(W)
        margins = np.maximum(0, scores - scores[y[i]] + 1.0)
        margins[y[i]] = 0
        loss += np.sum(margins)
        positive = margins > 0
        dW += np.outer(X[i], positive)
        dW[:, y[i]] -= np.sum(positive) * X[i]
    loss = loss / num_train + 0.5 * reg * np.sum(W ** 2)
    dW = dW / num_train + reg * W
    return loss, dW


def eval_numerical_gradient_array(x, df, h=1e-5):
    def f(z):
        return np.tanh(z) * 2.0 + z ** 2

    grad = np.zeros_like(x)
    it = np.nditer(x, flags=["multi_index"], op_flags=["readwrite"])
    while not it.finished:
        ix = it.multi_index
        oldval = x[ix]
        x[ix] = oldval + h
        pos = f(x).copy()
        x[ix] = oldval - h
        neg = f(x).copy()
        x[ix] = oldval
        grad[ix] = np.sum((pos - neg) * df) / (2 * h)
        it.iternext()
    return grad


def fc_net_loss(X, y, params, num_layers, reg=0.0):
    caches = []
    out = X
    for i in range(1, num_layers):
        W, b = params[f"W{i}"], params[f"b{i}"]
        a = out.dot(W) + b
        out = np.maximum(0, a)
        caches.append((a, W))
    scores = out.dot(params[f"W{num_layers}"]) + params[f"b{num_layers}"]
    shifted = scores - np.max(scores, axis=1, keepdims=True)
    log_probs = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    N = X.shape[0]
    loss = -np.sum(log_probs[np.arange(N), y]) / N
    dscores = np.exp(log_probs)
    dscores[np.arange(N), y] -= 1
    dscores /= N
    grads = {}
    hidden = [X] + [np.maximum(0, a) for a, _ in caches]
    grads[f"W{num_layers}"] = hidden[-1].T.dot(dscores)
    grads[f"b{num_layers}"] = np.sum(dscores, axis=0)
    dout = dscores.dot(params[f"W{num_layers}"].T)
    for i in reversed(range(1, num_layers)):
        a, W = caches[i - 1]
        da = dout * (a > 0)
        grads[f"W{i}"] = hidden[i - 1].T.dot(da)
        grads[f"b{i}"] = da.sum(axis=0)
        dout = da.dot(W.T)
    for i in range(1, num_layers + 1):
        loss += 0.5 * reg * np.sum(params[f"W{i}"] ** 2)
        grads[f"W{i}"] += reg * params[f"W{i}"]
    return loss, grads


def conv_backward_naive(dout, x, w, conv_param):
    stride, pad = conv_param["stride"], conv_param["pad"]
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    _, _, H_out, W_out = dout.shape
    x_pad = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)), mode="constant")
    dx_pad = np.zeros_like(x_pad)
    dw = np.zeros_like(w)
    db = np.zeros(F)
    for n in range(N):
        for f in range(F):
            db[f] += dout[n, f].sum()
            for i in range(H_out):
                for j in range(W_out):
                    window = x_pad[n, :, i * stride:i * stride + HH, j * stride:j * stride + WW]
                    dw[f] += window * dout[n, f, i, j]
                    dx_pad[n, :, i * stride:i * stride + HH, j * stride:j * stride + WW] += w[f] * dout[n, f, i, j]
    dx = dx_pad[:, :, pad:pad + H, pad:pad + W]
    return dx, dw, db


def batchnorm_forward_param(x, gamma, beta, bn_param):
    mode = bn_param["mode"]
    eps = bn_param.get("eps", 1e-5)
    momentum = bn_param.get("momentum", 0.9)
    N, D = x.shape
    running_mean = bn_param.get("running_mean", np.zeros(D, dtype=x.dtype))
    running_var = bn_param.get("running_var", np.zeros(D, dtype=x.dtype))
    out, cache = None, None
    if mode == "train":
        sample_mean = x.mean(axis=0)
        sample_var = x.var(axis=0)
        x_hat = (x - sample_mean) / np.sqrt(sample_var + eps)
        out = gamma * x_hat + beta
        cache = (x, x_hat, sample_mean, sample_var, gamma, eps)
        running_mean = momentum * running_mean + (1 - momentum) * sample_mean
        running_var = momentum * running_var + (1 - momentum) * sample_var
    elif mode == "test":
        out = gamma * (x - running_mean) / np.sqrt(running_var + eps) + beta
    else:
        raise ValueError('Invalid forward batchnorm mode "%s"' % mode)
    bn_param["running_mean"] = running_mean
    bn_param["running_var"] = running_var
    return out, cache


def batchnorm_backward_alt(dout, cache):
    x, x_hat, mu, var, gamma, eps = cache
    N = dout.shape[0]
    dbeta = dout.sum(axis=0)
    dgamma = np.sum(dout * x_hat, axis=0)
    dx_hat = dout * gamma
    inv_std = 1.0 / np.sqrt(var + eps)
    dx = inv_std / N * (N * dx_hat - dx_hat.sum(axis=0) - x_hat * np.sum(dx_hat * x_hat, axis=0))
    return dx, dgamma, dbeta


def batchnorm_roundtrip(x, gamma, beta, dout):
    bn_param = {"mode": "train"}
    out, cache = batchnorm_forward_param(x, gamma, beta, bn_param)
    dx, dgamma, dbeta = batchnorm_backward_alt(dout, cache)
    bn_param["mode"] = "test"
    out_test, _ = batchnorm_forward_param(x, gamma, beta, bn_param)
    return out, dx, dgamma, dbeta, out_test, bn_param["running_mean"]


def dropout_forward_param(x, dropout_param):
    p, mode = dropout_param["p"], dropout_param["mode"]
    if "seed" in dropout_param:
        np.random.seed(dropout_param["seed"])
    mask = None
    if mode == "train":
        mask = (np.random.rand(*x.shape) < p) / p
        out = x * mask
    elif mode == "test":
        out = x
    out = out.astype(x.dtype, copy=False)
    return out, mask


def spiral_net_train(X, y, h=8, step_size=1.0, reg=1e-3, num_iters=40, verbose=False):
    rng = np.random.RandomState(0)
    D = X.shape[1]
    K = int(np.max(y)) + 1
    W = 0.01 * rng.randn(D, h)
    b = np.zeros((1, h))
    W2 = 0.01 * rng.randn(h, K)
    b2 = np.zeros((1, K))
    num_examples = X.shape[0]
    for i in range(num_iters):
        hidden_layer = np.maximum(0, np.dot(X, W) + b)
        scores = np.dot(hidden_layer, W2) + b2
        exp_scores = np.exp(scores)
        probs = exp_scores / np.sum(exp_scores, axis=1, keepdims=True)
        correct_logprobs = -np.log(probs[range(num_examples), y])
        data_loss = np.sum(correct_logprobs) / num_examples
        reg_loss = 0.5 * reg * np.sum(W * W) + 0.5 * reg * np.sum(W2 * W2)
        loss = data_loss + reg_loss
        if verbose and i % 10 == 0:
            print("iteration %d: loss %f" % (i, loss))
        dscores = probs
        dscores[range(num_examples), y] -= 1
        dscores /= num_examples
        dW2 = np.dot(hidden_layer.T, dscores)
        db2 = np.sum(dscores, axis=0, keepdims=True)
        dhidden = np.dot(dscores, W2.T)
        dhidden[hidden_layer <= 0] = 0
        dW = np.dot(X.T, dhidden)
        db = np.sum(dhidden, axis=0, keepdims=True)
        dW2 += reg * W2
        dW += reg * W
        W += -step_size * dW
        b += -step_size * db
        W2 += -step_size * dW2
        b2 += -step_size * db2
    predicted_class = np.argmax(np.dot(np.maximum(0, np.dot(X, W) + b), W2) + b2, axis=1)
    return loss, np.mean(predicted_class == y)


# ----------------------------------------------------------------------------
# numpy-100 answers
# ----------------------------------------------------------------------------

def n100_small_matrix_ops(Z):
    Zn = (Z - np.mean(Z)) / (np.std(Z))
    Y = Z - Z.mean(axis=1, keepdims=True)
    by_col = Z[Z[:, 1].argsort()]
    has_null_cols = (~Z.astype(bool).any(axis=0)).any()
    A = Z.copy()
    A[[0, 1]] = A[[1, 0]]
    r, c = np.nonzero(Z > 0.5)
    return Zn, Y, by_col, has_null_cols, A, (r.min(), r.max(), c.min(), c.max())


def n100_rank_unique_frequent(Z, x):
    U, S, V = np.linalg.svd(Z)
    rank = np.sum(S > 1e-10)
    uZ = np.unique(Z.round(), axis=0)
    most = np.bincount(x).argmax()
    return rank, uZ, most


def n100_cartesian(arrays):
    arrays = [np.asarray(a) for a in arrays]
    shape = (len(x) for x in arrays)
    ix = np.indices(shape, dtype=int)
    ix = ix.reshape(len(arrays), -1).T
    for n, arr in enumerate(arrays):
        ix[:, n] = arrays[n][ix[:, n]]
    return ix


def n100_rows_containing(A, B):
    C = (A[..., np.newaxis, np.newaxis] == B)
    rows = np.where(C.any((3, 1)).all(1))[0]
    return rows


def n100_window_steps(x, w=4, step=2):
    V = np.lib.stride_tricks.sliding_window_view(x, w)[::step]
    return V.max(axis=1), V.min(axis=1), V.mean(axis=-1)


def find_nearest_sorted(array, value):
    idx = np.searchsorted(array, value, side="left")
    if idx > 0 and (idx == len(array) or math.fabs(value - array[idx - 1]) < math.fabs(value - array[idx])):
        return array[idx - 1]
    else:
        return array[idx]


def primesfrom2to(n):
    sieve = np.ones(n // 2, dtype=bool)
    for i in range(3, int(n ** 0.5) + 1, 2):
        if sieve[i // 2]:
            sieve[i * i // 2::i] = False
    return 2 * np.nonzero(sieve)[0][1::] + 1


# ----------------------------------------------------------------------------
# Rosetta Code: sorting, numeric tasks
# ----------------------------------------------------------------------------

def shell_sort(seq):
    a = np.array(seq, copy=True)
    inc = len(a) // 2
    while inc:
        for i in range(inc, len(a)):
            el = a[i]
            j = i
            while j >= inc and a[j - inc] > el:
                a[j] = a[j - inc]
                j -= inc
            a[j] = el
        inc = 1 if inc == 2 else inc * 5 // 11
    return a


def cocktail_shaker_sort(a):
    a = a.copy()
    n = len(a)
    swapped = True
    start, end = 0, n - 1
    while swapped:
        swapped = False
        for i in range(start, end):
            if a[i] > a[i + 1]:
                a[i], a[i + 1] = a[i + 1], a[i]
                swapped = True
        if not swapped:
            break
        swapped = False
        end -= 1
        for i in range(end - 1, start - 1, -1):
            if a[i] > a[i + 1]:
                a[i], a[i + 1] = a[i + 1], a[i]
                swapped = True
        start += 1
    return a


def heap_sort(x):
    a = np.copy(x)

    def sift_down(start, end):
        root = start
        while 2 * root + 1 <= end:
            child = 2 * root + 1
            if child + 1 <= end and a[child] < a[child + 1]:
                child += 1
            if a[root] < a[child]:
                a[root], a[child] = a[child], a[root]
                root = child
            else:
                return

    count = len(a)
    for start in range((count - 2) // 2, -1, -1):
        sift_down(start, count - 1)
    for end in range(count - 1, 0, -1):
        a[end], a[0] = a[0], a[end]
        sift_down(0, end - 1)
    return a


def merge_sort_bottom_up(x):
    a = x.copy()
    n = len(a)
    tmp = np.empty_like(a)
    width = 1
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i, j, k = lo, mid, lo
            while i < mid and j < hi:
                if a[i] <= a[j]:
                    tmp[k] = a[i]
                    i += 1
                else:
                    tmp[k] = a[j]
                    j += 1
                k += 1
            tmp[k:k + mid - i] = a[i:mid]
            k += mid - i
            tmp[k:k + hi - j] = a[j:hi]
        a, tmp = tmp, a
        width *= 2
    return a


def equilibrium_indices(a):
    left, right = 0, np.sum(a)
    result = []
    for i, x in enumerate(a):
        right -= x
        if left == right:
            result.append(i)
        left += x
    return result


def max_triangle_path(tri):
    t = tri.copy()
    n = t.shape[0]
    for r in range(n - 2, -1, -1):
        for c in range(r + 1):
            t[r, c] += max(t[r + 1, c], t[r + 1, c + 1])
    return t[0, 0]


def fivenum(x):
    x = np.sort(x)
    n = len(x)
    n4 = math.floor((n + 3) / 2) / 2
    d = np.array([1, n4, (n + 1) / 2, n + 1 - n4, n])
    return 0.5 * (x[np.floor(d - 1).astype(int)] + x[np.ceil(d - 1).astype(int)])


def kahan_sum(values):
    total = 0.0
    c = 0.0
    for v in values:
        y = v - c
        t = total + y
        c = (t - total) - y
        total = t
    return total, total - float(np.sum(values))


def newton_polyval(coeffs, x0, tol=1e-12, max_iter=50):
    dcoeffs = np.polyder(coeffs)
    x = x0
    for i in range(max_iter):
        fx = np.polyval(coeffs, x)
        if abs(fx) < tol:
            return x, i
        dfx = np.polyval(dcoeffs, x)
        if dfx == 0:
            raise ZeroDivisionError("zero derivative at x = %g" % x)
        x = x - fx / dfx
    return x, max_iter


def permanent_and_det(M):
    n = M.shape[0]
    perm, det = 0.0, 0.0
    for sigma in itertools.permutations(range(n)):
        term = np.prod(M[range(n), sigma])
        inversions = sum(1 for i in range(n) for j in range(i + 1, n) if sigma[i] > sigma[j])
        perm += term
        det += (-1) ** inversions * term
    return perm, det


def jacobi_eigenvalues(A, tol=1e-10, max_rotations=200):
    A = A.astype(float).copy()
    n = A.shape[0]
    V = np.eye(n)
    for rotation in range(max_rotations):
        off = np.abs(np.triu(A, 1))
        p, q = np.unravel_index(np.argmax(off), off.shape)
        if off[p, q] < tol:
            break
        theta = 0.5 * np.arctan2(2 * A[p, q], A[q, q] - A[p, p])
        c, s = np.cos(theta), np.sin(theta)
        J = np.eye(n)
        J[p, p] = J[q, q] = c
        J[p, q] = s
        J[q, p] = -s
        A = J.T @ A @ J
        V = V @ J
    return np.sort(np.diag(A)), rotation


def lu_solve_no_pivot(A, b):
    n = A.shape[0]
    L = np.eye(n)
    U = A.astype(float).copy()
    for k in range(n - 1):
        if U[k, k] == 0:
            raise ValueError("zero pivot")
        for i in range(k + 1, n):
            L[i, k] = U[i, k] / U[k, k]
            U[i, k:] -= L[i, k] * U[k, k:]
    y = np.zeros(n)
    for i in range(n):
        y[i] = b[i] - L[i, :i] @ y[:i]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (y[i] - U[i, i + 1:] @ x[i + 1:]) / U[i, i]
    return x, L, U


def levenshtein_two_rows(s, t):
    m, n = len(s), len(t)
    prev = np.arange(n + 1)
    cur = np.zeros(n + 1, dtype=prev.dtype)
    for i in range(1, m + 1):
        cur[0] = i
        for j in range(1, n + 1):
            sub = prev[j - 1] + (s[i - 1] != t[j - 1])
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, sub)
        prev, cur = cur, prev
    return int(prev[n])


def lis_patience(seq):
    tails = []
    for x in seq:
        k = bisect.bisect_left(tails, x)
        if k == len(tails):
            tails.append(x)
        else:
            tails[k] = x
    return len(tails)


def running_median_insort(x, w=5):
    window = sorted(x[:w].tolist())
    medians = [window[w // 2]]
    for i in range(w, len(x)):
        window.remove(x[i - w])
        bisect.insort(window, x[i])
        medians.append(window[w // 2])
    return np.array(medians)


def hundred_prisoners(n=10, trials=50, seed=1):
    rng = np.random.default_rng(seed)
    wins = 0
    for _ in range(trials):
        drawers = rng.permutation(n)
        ok = True
        for prisoner in range(n):
            card = drawers[prisoner]
            for _ in range(n // 2 - 1):
                if card == prisoner:
                    break
                card = drawers[card]
            if card != prisoner:
                ok = False
                break
        wins += ok
    return wins / trials


# ----------------------------------------------------------------------------
# Science and signals
# ----------------------------------------------------------------------------

def haversine_matrix(lat, lon, radius=6371.0):
    lat, lon = np.radians(lat), np.radians(lon)
    dlat = lat[:, None] - lat[None, :]
    dlon = lon[:, None] - lon[None, :]
    a = np.sin(dlat / 2) ** 2 + np.cos(lat[:, None]) * np.cos(lat[None, :]) * np.sin(dlon / 2) ** 2
    return 2 * radius * np.arcsin(np.sqrt(a))


def sir_rk4_until(beta, gamma, N=1000.0, I0=1.0, dt=0.5, t_max=200.0):
    def deriv(y):
        S, I, R = y
        return np.array([-beta * S * I / N, beta * S * I / N - gamma * I, gamma * I])

    y = np.array([N - I0, I0, 0.0])
    t = 0.0
    history = {"t": [t], "S": [y[0]], "I": [y[1]], "R": [y[2]]}
    while t < t_max:
        k1 = deriv(y)
        k2 = deriv(y + dt / 2 * k1)
        k3 = deriv(y + dt / 2 * k2)
        k4 = deriv(y + dt * k3)
        y = y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        t += dt
        history["t"].append(t)
        for key, value in zip("SIR", y):
            history[key].append(value)
        if y[1] < 1.0:
            break
    return {k: np.array(v) for k, v in history.items()}


def hysteresis_events(x, high=1.0, low=0.2):
    events = []
    active = False
    start = 0
    i = 0
    while i < len(x):
        if not active and x[i] > high:
            active = True
            start = i
        elif active and x[i] < low:
            active = False
            events.append((start, i))
        i += 1
    if active:
        events.append((start, len(x)))
    return events


def histogram_match(source, template):
    s_values, bin_idx, s_counts = np.unique(source.ravel(), return_inverse=True, return_counts=True)
    t_values, t_counts = np.unique(template.ravel(), return_counts=True)
    s_quantiles = np.cumsum(s_counts).astype(np.float64)
    s_quantiles /= s_quantiles[-1]
    t_quantiles = np.cumsum(t_counts).astype(np.float64)
    t_quantiles /= t_quantiles[-1]
    interp_t_values = np.interp(s_quantiles, t_quantiles, t_values)
    return interp_t_values[bin_idx].reshape(source.shape)


def savgol_vander(y, window=7, order=2):
    if window % 2 != 1 or window < order + 2:
        raise TypeError("window must be odd and larger than order + 1")
    half = (window - 1) // 2
    b = np.vander(np.arange(-half, half + 1), order + 1, increasing=True)
    m = np.linalg.pinv(b)[0]
    firstvals = y[0] - np.abs(y[1:half + 1][::-1] - y[0])
    lastvals = y[-1] + np.abs(y[-half - 1:-1][::-1] - y[-1])
    y = np.concatenate((firstvals, y, lastvals))
    return np.convolve(m[::-1], y, mode="valid")


def lattice_walk_seeded(n_steps=100, seed=3):
    rng = np.random.default_rng(seed)
    moves = np.array([(0, 1), (0, -1), (1, 0), (-1, 0)])
    steps = moves[rng.integers(0, 4, size=n_steps)]
    path = np.vstack([np.zeros((1, 2), dtype=int), np.cumsum(steps, axis=0)])
    dist = np.abs(path).sum(axis=1)
    return path, dist.max(), int(np.argmax(dist))


# ----------------------------------------------------------------------------
# Arguments
# ----------------------------------------------------------------------------

def _rng(seed):
    return np.random.default_rng(seed)


def _cls(n=12, d=4, k=3, seed=0):
    r = _rng(seed)
    return r.normal(size=(d, k)) * 0.1, r.normal(size=(n, d)), r.integers(0, k, n)


def _fc_params():
    r = _rng(5)
    dims = [4, 6, 5, 3]
    p = {}
    for i in range(1, 4):
        p[f"W{i}"] = r.normal(size=(dims[i - 1], dims[i])) * 0.3
        p[f"b{i}"] = r.normal(size=dims[i]) * 0.1
    return p


def _spiral(n=20, k=3, seed=0):
    r = np.random.RandomState(seed)
    X = np.zeros((n * k, 2))
    y = np.zeros(n * k, dtype="uint8")
    for j in range(k):
        ix = range(n * j, n * (j + 1))
        rad = np.linspace(0.0, 1, n)
        t = np.linspace(j * 4, (j + 1) * 4, n) + r.randn(n) * 0.2
        X[ix] = np.c_[rad * np.sin(t), rad * np.cos(t)]
        y[ix] = j
    return X, y


def _conv():
    r = _rng(6)
    x = r.normal(size=(2, 2, 5, 5))
    w = r.normal(size=(3, 2, 3, 3))
    return r.normal(size=(2, 3, 5, 5)), x, w, {"stride": 1, "pad": 1}


def _bn():
    r = _rng(7)
    return r.normal(2.0, 3.0, size=(8, 3)), r.normal(size=3), r.normal(size=3), r.normal(size=(8, 3))


CASES = [
    # course assignments
    ("svm_loss_half_vectorized", svm_loss_half_vectorized, lambda: _cls(), {}),
    ("eval_numerical_gradient_array", eval_numerical_gradient_array,
     lambda: (_rng(1).normal(size=(3, 4)), _rng(2).normal(size=(3, 4))), {}),
    ("fc_net_loss", fc_net_loss,
     lambda: (_rng(3).normal(size=(7, 4)), np.array([0, 2, 1, 1, 0, 2, 1]), _fc_params(), 3, 0.1), {}),
    ("conv_backward_naive", conv_backward_naive, _conv, {}),
    ("batchnorm_roundtrip", batchnorm_roundtrip, _bn, {}),
    ("dropout_forward_param", dropout_forward_param,
     lambda: (_rng(8).normal(size=(4, 5)), {"p": 0.7, "mode": "train", "seed": 123}), {"rand": True}),
    ("spiral_net_train", spiral_net_train, lambda: (*_spiral(),), {}),
    # numpy-100
    ("n100_small_matrix_ops", n100_small_matrix_ops, lambda: (_rng(9).random((5, 5)),), {}),
    ("n100_rank_unique_frequent", n100_rank_unique_frequent,
     lambda: (np.array([[1.0, 2, 3], [2, 4, 6], [1, 0, 1], [1, 2, 3]]), np.array([1, 3, 3, 0, 7, 3, 1])), {}),
    ("n100_cartesian", n100_cartesian, lambda: ([np.array([1, 2, 3]), np.array([4, 5]), np.array([6, 7])],), {}),
    ("n100_rows_containing", n100_rows_containing,
     lambda: (_rng(10).integers(0, 5, (8, 3)), _rng(11).integers(0, 5, (2, 2))), {}),
    ("n100_window_steps", n100_window_steps, lambda: (_rng(12).normal(size=15),), {}),
    ("find_nearest_sorted", find_nearest_sorted, lambda: (np.array([0.5, 1.5, 2.0, 4.0, 7.5]), 3.1), {}),
    ("primesfrom2to", primesfrom2to, lambda: (60,), {}),
    # Rosetta Code
    ("shell_sort", shell_sort, lambda: (_rng(13).integers(0, 100, 13),), {}),
    ("cocktail_shaker_sort", cocktail_shaker_sort, lambda: (_rng(14).normal(size=10),), {}),
    ("heap_sort", heap_sort, lambda: (_rng(15).integers(-20, 20, 11),), {}),
    ("merge_sort_bottom_up", merge_sort_bottom_up, lambda: (_rng(16).normal(size=11),), {}),
    ("equilibrium_indices", equilibrium_indices, lambda: (np.array([-7, 1, 5, 2, -4, 3, 0]),), {}),
    ("max_triangle_path", max_triangle_path,
     lambda: (np.tril(_rng(17).integers(1, 10, (6, 6))),), {}),
    ("fivenum", fivenum, lambda: (np.array([0.14082834, 0.09748790, 1.73131507, 0.87636009, -1.95059594,
                                            0.73438555, -0.03035726, 1.46675970, -0.74621349, -0.72588772,
                                            0.63905160, 0.61501527, -0.98983780, -1.00447874, -0.62759469]),), {}),
    ("kahan_sum", kahan_sum, lambda: (np.array([1.0, 1e-16, 1e-16, 1e-16, -1.0, 1e-16] * 3),), {}),
    ("newton_polyval", newton_polyval, lambda: (np.array([1.0, 0.0, -2.0, -5.0]), 2.0), {}),
    ("permanent_and_det", permanent_and_det, lambda: (_rng(18).normal(size=(4, 4)),), {}),
    ("jacobi_eigenvalues", jacobi_eigenvalues,
     lambda: (np.array([[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]]),), {}),
    ("lu_solve_no_pivot", lu_solve_no_pivot,
     lambda: (np.array([[4.0, 3.0, 2.0], [2.0, 1.0, 3.0], [3.0, 2.0, 1.0]]), np.array([1.0, 2.0, 3.0])), {}),
    ("levenshtein_two_rows", levenshtein_two_rows,
     lambda: (np.array([1, 2, 3, 4, 5, 6]), np.array([1, 3, 4, 7, 5])), {}),
    ("lis_patience", lis_patience, lambda: (_rng(19).integers(0, 30, 14),), {}),
    ("running_median_insort", running_median_insort, lambda: (_rng(20).normal(size=12),), {}),
    ("hundred_prisoners", hundred_prisoners, lambda: (), {"rand": True}),
    # science and signals
    ("haversine_matrix", haversine_matrix,
     lambda: (np.array([52.5, 48.9, 40.7, -33.9]), np.array([13.4, 2.35, -74.0, 151.2])), {}),
    ("sir_rk4_until", sir_rk4_until, lambda: (0.3, 0.1), {}),
    ("hysteresis_events", hysteresis_events,
     lambda: (np.array([0.0, 1.2, 1.5, 0.8, 0.1, 0.0, 2.0, 0.5, 0.3, 1.1, 0.1, 1.4]),), {}),
    ("histogram_match", histogram_match,
     lambda: (_rng(21).integers(0, 8, (4, 5)), _rng(22).integers(2, 12, (5, 4))), {}),
    ("savgol_vander", savgol_vander, lambda: (np.sin(np.linspace(0, 3, 20)) + 0.1 * _rng(23).normal(size=20),), {}),
    ("lattice_walk_seeded", lattice_walk_seeded, lambda: (), {"rand": True}),
]
