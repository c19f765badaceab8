"""Everyday NumPy functions, batch D: misc algorithms."""
import numpy as np


# 66. Floyd-Warshall with nested loops and in-place min
def floyd_warshall(D):
    n = D.shape[0]
    dist = D.copy()
    for k in range(n):
        for i in range(n):
            for j in range(n):
                if dist[i, k] + dist[k, j] < dist[i, j]:
                    dist[i, j] = dist[i, k] + dist[k, j]
    return dist


# 67. in-place prefix sum on the argument
def prefix_sum_inplace(x):
    for i in range(1, len(x)):
        x[i] += x[i - 1]
    return x


# 68. histogram equalization of uint8 image
def hist_equalize(img):
    hist = np.bincount(img.ravel(), minlength=256)
    cdf = hist.cumsum()
    cdf_min = cdf[cdf > 0].min()
    lut = np.round((cdf - cdf_min) / (img.size - cdf_min) * 255).astype(np.uint8)
    return lut[img]


# 69. logistic map trajectory
def logistic_map(r, x0=0.5, n=30):
    xs = np.empty(n)
    x = x0
    for i in range(n):
        x = r * x * (1 - x)
        xs[i] = x
    return xs


# 70. training loop with early stopping / patience / best copy
def train_early_stop(X, y, lr=0.05, max_epochs=200, patience=5):
    w = np.zeros(X.shape[1])
    best_loss = np.inf
    best_w = w.copy()
    wait = 0
    for epoch in range(max_epochs):
        grad = X.T @ (X @ w - y) / len(y)
        w = w - lr * grad
        loss = np.mean((X @ w - y) ** 2)
        if loss < best_loss - 1e-4:
            best_loss = loss
            best_w = w.copy()
            wait = 0
        else:
            wait += 1
            if wait >= patience:
                break
    return best_w, best_loss, epoch


# 71. power iteration with while and tolerance
def power_iteration(A, tol=1e-10, max_iter=1000):
    b = np.ones(A.shape[0])
    lam = 0.0
    for _ in range(max_iter):
        b_new = A @ b
        b_new = b_new / np.linalg.norm(b_new)
        lam_new = b_new @ A @ b_new
        if abs(lam_new - lam) < tol:
            break
        b, lam = b_new, lam_new
    return lam_new, b_new


# 72. Gram-Schmidt with list of vectors
def gram_schmidt(V):
    basis = []
    for v in V.T:
        w = v - sum(np.dot(v, b) * b for b in basis)
        if np.linalg.norm(w) > 1e-10:
            basis.append(w / np.linalg.norm(w))
    return np.array(basis).T


# 73. Doolittle LU decomposition
def lu_decompose(A):
    n = A.shape[0]
    L = np.eye(n)
    U = np.zeros((n, n))
    for i in range(n):
        for k in range(i, n):
            U[i, k] = A[i, k] - sum(L[i, j] * U[j, k] for j in range(i))
        for k in range(i + 1, n):
            L[k, i] = (A[k, i] - sum(L[k, j] * U[j, i] for j in range(i))) / U[i, i]
    return L, U


# 74. Simpson's rule with strided slices
def simpson(f_vals, h):
    return h / 3 * (f_vals[0] + 4 * f_vals[1:-1:2].sum() + 2 * f_vals[2:-1:2].sum() + f_vals[-1])


# 75. first index where cumulative sum exceeds a threshold (loop with early return)
def first_exceed(x, thresh):
    total = 0.0
    for i in range(len(x)):
        total += x[i]
        if total > thresh:
            return i
    return -1


# 76. linear search while-loop with `and` guard
def count_leading_positive(x):
    i = 0
    while i < len(x) and x[i] > 0:
        i += 1
    return i


# 77. replace outliers in-place on argument with median, int() counts
def winsorize_inplace(x, k=2.0):
    med = np.median(x)
    mad = np.median(np.abs(x - med))
    bad = np.abs(x - med) > k * mad
    n_bad = int(bad.sum())
    x[bad] = med
    return n_bad, float(x.mean())


# 78. gradient descent on Rosenbrock with while + tolerance + tuple state
def rosenbrock_gd(p0, lr=1e-3, tol=1e-6, max_iter=2000):
    x, y = p0[0], p0[1]
    it = 0
    gnorm = 1.0
    while gnorm > tol and it < max_iter:
        gx = -2 * (1 - x) - 400 * x * (y - x ** 2)
        gy = 200 * (y - x ** 2)
        x, y = x - lr * gx, y - lr * gy
        gnorm = np.sqrt(gx ** 2 + gy ** 2)
        it += 1
    return np.array([x, y]), it
