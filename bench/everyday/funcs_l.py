"""Everyday NumPy functions, eighth collection: the Python around the NumPy, written
the way other people write it. Recursion on arrays (a Cooley-Tukey FFT on even and
odd slices, merge sort and quicksort that return new arrays, a determinant by
cofactor expansion, Strassen on halves, a recursive flood fill, Karatsuba on digit
arrays, adaptive Simpson, Tarjan's strongly connected components, a closest pair by
divide and conquer, minimax on a tic-tac-toe board); generators and ``yield``
helpers consumed in the function, ``functools.reduce``/``partial``/``lru_cache``,
``map``/``filter``/``zip``/``sum()`` over rows and edges, ``itertools`` (accumulate, product,
combinations, groupby, pairwise, count) and the ``operator`` module; small
classes instantiated in the function (a Kalman filter with ``predict``/``update``,
layers with ``__call__``, a dataclass of particles, a vector class with operators,
sklearn-style ``fit(...).predict(...)`` chains, properties), closures with
``nonlocal`` state, lambdas with defaults, namedtuple results; ``try/except``
(``LinAlgError`` falling back to ``lstsq``, ``ZeroDivisionError``), ``assert`` on
shapes, ``while True``/``break``, ``for``/``else``; results as dicts of arrays and
floats, lists of tuples and f-strings of computed values; and NumPy's breadth
(``einsum``, ``apply_along_axis``, ``vectorize``, ``piecewise``/``select``,
``sliding_window_view``, ``np.pad`` modes, ``np.fft``, ``np.linalg``, ``nan*``
functions, ``np.add.at``, ``out=``, uint8 images, ``np.frombuffer`` of bytes) in
cookbook recipes, numerical recipes, image and audio processing by hand (Canny's steps, components by BFS with a
``deque``, autocorrelation pitch), finance,
graphs with ``heapq``, geometry, puzzles, ML from scratch and text as integer
arrays. Each entry of CASES is (name, function, make_args, opts); make_args()
returns the arguments; opts {"rand": True} marks a function that draws random
numbers inside (compared by type, dtype and shape only)."""
import dataclasses
import functools
import heapq
import itertools
import math
import operator
from collections import Counter, deque, namedtuple

import numpy as np


# ----------------------------------------------------------------------------
# Recursion on arrays
# ----------------------------------------------------------------------------

def fft_recursive(x):
    x = np.asarray(x, dtype=complex)
    N = x.shape[0]
    if N <= 1:
        return x
    even = fft_recursive(x[::2])
    odd = fft_recursive(x[1::2])
    factor = np.exp(-2j * np.pi * np.arange(N // 2) / N)
    return np.concatenate([even + factor * odd, even - factor * odd])


def fft_recursive_check(x):
    X = fft_recursive(x)
    return X, np.allclose(X, np.fft.fft(x)), np.abs(X[: len(x) // 2]).argmax()


def merge_sort_recursive(arr):
    if len(arr) <= 1:
        return arr
    mid = len(arr) // 2
    left = merge_sort_recursive(arr[:mid])
    right = merge_sort_recursive(arr[mid:])
    merged = np.empty(len(arr), dtype=arr.dtype)
    i = j = k = 0
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:
            merged[k] = left[i]
            i += 1
        else:
            merged[k] = right[j]
            j += 1
        k += 1
    while i < len(left):
        merged[k] = left[i]
        i += 1
        k += 1
    while j < len(right):
        merged[k] = right[j]
        j += 1
        k += 1
    return merged


def quicksort_masks(a):
    if a.size <= 1:
        return a
    pivot = a[a.size // 2]
    less = a[a < pivot]
    equal = a[a == pivot]
    greater = a[a > pivot]
    return np.concatenate((quicksort_masks(less), equal, quicksort_masks(greater)))


def det_cofactor(M):
    n = M.shape[0]
    if n == 1:
        return M[0, 0]
    if n == 2:
        return M[0, 0] * M[1, 1] - M[0, 1] * M[1, 0]
    total = 0.0
    for j in range(n):
        minor = np.delete(np.delete(M, 0, axis=0), j, axis=1)
        total += (-1) ** j * M[0, j] * det_cofactor(minor)
    return total


def strassen(A, B):
    n = A.shape[0]
    if n == 1:
        return A * B
    h = n // 2
    a11, a12, a21, a22 = A[:h, :h], A[:h, h:], A[h:, :h], A[h:, h:]
    b11, b12, b21, b22 = B[:h, :h], B[:h, h:], B[h:, :h], B[h:, h:]
    m1 = strassen(a11 + a22, b11 + b22)
    m2 = strassen(a21 + a22, b11)
    m3 = strassen(a11, b12 - b22)
    m4 = strassen(a22, b21 - b11)
    m5 = strassen(a11 + a12, b22)
    m6 = strassen(a21 - a11, b11 + b12)
    m7 = strassen(a12 - a22, b21 + b22)
    top = np.hstack([m1 + m4 - m5 + m7, m3 + m5])
    bottom = np.hstack([m2 + m4, m1 - m2 + m3 + m6])
    return np.vstack([top, bottom])


def strassen_check(A, B):
    C = strassen(A, B)
    return C, np.abs(C - A @ B).max()


def flood_fill_recursive(grid, r, c, new):
    grid = grid.copy()
    old = grid[r, c]
    rows, cols = grid.shape

    def fill(i, j):
        if i < 0 or i >= rows or j < 0 or j >= cols:
            return
        if grid[i, j] != old:
            return
        grid[i, j] = new
        fill(i + 1, j)
        fill(i - 1, j)
        fill(i, j + 1)
        fill(i, j - 1)

    if old != new:
        fill(r, c)
    return grid, int((grid == new).sum())


def _carry(digits):
    out = []
    carry = 0
    for d in digits[::-1]:
        carry, rem = divmod(int(d) + carry, 10)
        out.append(rem)
    while carry:
        carry, rem = divmod(carry, 10)
        out.append(rem)
    out = out[::-1]
    while len(out) > 1 and out[0] == 0:
        out.pop(0)
    return np.array(out, dtype=np.int64)


def karatsuba_digits(x, y):
    def to_int(d):
        return int("".join(str(int(v)) for v in d))

    def kara(a, b):
        if a < 10 or b < 10:
            return a * b
        m = max(len(str(a)), len(str(b))) // 2
        hi_a, lo_a = divmod(a, 10 ** m)
        hi_b, lo_b = divmod(b, 10 ** m)
        z0 = kara(lo_a, lo_b)
        z2 = kara(hi_a, hi_b)
        z1 = kara(lo_a + hi_a, lo_b + hi_b) - z2 - z0
        return z2 * 10 ** (2 * m) + z1 * 10 ** m + z0

    product = kara(to_int(x), to_int(y))
    by_convolution = _carry(np.convolve(x, y))
    return np.array([int(c) for c in str(product)]), by_convolution


def adaptive_simpson(a, b, eps=1e-8):
    f = lambda t: np.exp(-t * t) * np.cos(3 * t)  # noqa: E731

    def simpson(lo, hi, flo, fhi):
        mid = 0.5 * (lo + hi)
        fm = f(mid)
        return mid, fm, (hi - lo) / 6 * (flo + 4 * fm + fhi)

    def recurse(lo, hi, flo, fhi, whole, mid, fm, eps, depth):
        lm, flm, left = simpson(lo, mid, flo, fm)
        rm, frm, right = simpson(mid, hi, fm, fhi)
        delta = left + right - whole
        if depth <= 0 or abs(delta) <= 15 * eps:
            return left + right + delta / 15
        return (recurse(lo, mid, flo, fm, left, lm, flm, eps / 2, depth - 1)
                + recurse(mid, hi, fm, fhi, right, rm, frm, eps / 2, depth - 1))

    fa, fb = f(a), f(b)
    m, fm, whole = simpson(a, b, fa, fb)
    return recurse(a, b, fa, fb, whole, m, fm, eps, 6)


def bisect_recursive(coeffs, lo, hi, tol=1e-6):
    mid = (lo + hi) / 2
    fmid = np.polyval(coeffs, mid)
    if hi - lo < tol or fmid == 0:
        return mid
    if np.sign(np.polyval(coeffs, lo)) == np.sign(fmid):
        return bisect_recursive(coeffs, mid, hi, tol)
    return bisect_recursive(coeffs, lo, mid, tol)


def subset_sums_recursive(values, target):
    found = []

    def search(i, chosen, total):
        if total == target:
            found.append(tuple(chosen))
            return
        if i == len(values) or total > target:
            return
        search(i + 1, chosen + [int(values[i])], total + values[i])
        search(i + 1, chosen, total)

    search(0, [], 0)
    return found


def quadtree_leaves(img, tol=0.02, min_size=2):
    out = np.empty_like(img)
    leaves = []

    def split(r0, r1, c0, c1):
        block = img[r0:r1, c0:c1]
        if block.var() <= tol or (r1 - r0) <= min_size:
            out[r0:r1, c0:c1] = block.mean()
            leaves.append((r0, c0, r1 - r0))
            return
        rm, cm = (r0 + r1) // 2, (c0 + c1) // 2
        split(r0, rm, c0, cm)
        split(r0, rm, cm, c1)
        split(rm, r1, c0, cm)
        split(rm, r1, cm, c1)

    split(0, img.shape[0], 0, img.shape[1])
    return out, len(leaves)


def matrix_chain_lru(dims):
    @functools.lru_cache(maxsize=None)
    def cost(i, j):
        if i == j:
            return 0
        return min(cost(i, k) + cost(k + 1, j) + dims[i - 1] * dims[k] * dims[j]
                   for k in range(i, j))

    return cost(1, len(dims) - 1)


def tarjan_scc(A):
    n = A.shape[0]
    index = [None] * n
    low = [0] * n
    on_stack = [False] * n
    stack = []
    comps = []
    counter = [0]

    def strongconnect(v):
        index[v] = counter[0]
        low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack[v] = True
        for w in np.flatnonzero(A[v]):
            if index[w] is None:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif on_stack[w]:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack[w] = False
                comp.append(int(w))
                if w == v:
                    break
            comps.append(sorted(comp))

    for v in range(n):
        if index[v] is None:
            strongconnect(v)
    return sorted(comps)


def closest_pair_dc(P):
    def brute(pts):
        best = (np.inf, None)
        for i in range(len(pts)):
            for j in range(i + 1, len(pts)):
                d = np.hypot(*(pts[i] - pts[j]))
                if d < best[0]:
                    best = (d, (pts[i], pts[j]))
        return best

    def rec(px):
        if len(px) <= 3:
            return brute(px)
        mid = len(px) // 2
        xm = px[mid, 0]
        dl = rec(px[:mid])
        dr = rec(px[mid:])
        best = dl if dl[0] <= dr[0] else dr
        strip = px[np.abs(px[:, 0] - xm) < best[0]]
        strip = strip[np.argsort(strip[:, 1])]
        for i in range(len(strip)):
            for j in range(i + 1, min(i + 7, len(strip))):
                d = np.hypot(*(strip[i] - strip[j]))
                if d < best[0]:
                    best = (d, (strip[i], strip[j]))
        return best

    d, (p, q) = rec(P[np.argsort(P[:, 0])])
    return d, np.vstack([p, q])


def tictactoe_minimax(board):
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]

    def winner(b):
        for i, j, k in lines:
            if b[i] != 0 and b[i] == b[j] == b[k]:
                return b[i]
        return 0

    def minimax(b, player):
        w = winner(b)
        if w != 0:
            return w, -1
        empty = np.flatnonzero(b == 0)
        if len(empty) == 0:
            return 0, -1
        best_score, best_move = -2 * player, -1
        for m in empty:
            b[m] = player
            score, _ = minimax(b, -player)
            b[m] = 0
            if (player == 1 and score > best_score) or (player == -1 and score < best_score):
                best_score, best_move = score, m
        return best_score, best_move

    b = board.ravel().copy()
    score, move = minimax(b, 1)
    return score, move


# ----------------------------------------------------------------------------
# Generators, functools, itertools, operator
# ----------------------------------------------------------------------------

def windows_generator_means(x, size=4, step=2):
    def windows(arr):
        for start in range(0, len(arr) - size + 1, step):
            yield start, arr[start:start + size]

    starts, means, spreads = [], [], []
    for start, w in windows(x):
        starts.append(start)
        means.append(w.mean())
        spreads.append(w.max() - w.min())
    return np.array(starts), np.array(means), np.array(spreads)


def reduce_matrix_chain(mats):
    product = functools.reduce(np.dot, mats)
    trace_each = list(map(np.trace, mats))
    largest = functools.reduce(lambda acc, m: np.maximum(acc, np.abs(m)), mats, np.zeros_like(mats[0]))
    return product, trace_each, largest


def gcd_lcm_reduce(values):
    ints = [int(v) for v in values]
    g = functools.reduce(math.gcd, ints)
    lcm = functools.reduce(lambda a, b: a * b // math.gcd(a, b), ints)
    return g, lcm, np.gcd.reduce(values), np.lcm.reduce(values)


def map_filter_rows(X):
    norms = list(map(np.linalg.norm, X))
    positive_rows = list(filter(lambda row: row.sum() > 0, X))
    scaled = np.array([row / n for row, n in zip(X, norms)])
    return np.array(norms), len(positive_rows), np.vstack(positive_rows), scaled


def accumulate_running(x):
    running_max = np.array(list(itertools.accumulate(x, max)))
    running_sum = np.fromiter(itertools.accumulate(x), dtype=float)
    running_prod = list(itertools.accumulate(x, operator.mul))
    return running_max, running_sum, running_prod[-1]


def product_grid_search(X, y):
    best = None
    results = []
    for lam, deg in itertools.product([0.0, 0.1, 1.0], [1, 2, 3]):
        V = np.vander(X, deg + 1)
        coef = np.linalg.solve(V.T @ V + lam * np.eye(deg + 1), V.T @ y)
        err = np.mean((V @ coef - y) ** 2)
        results.append((lam, deg, err))
        if best is None or err < best[2]:
            best = (lam, deg, err)
    return best, np.array([r[2] for r in results])


def groupby_sorted_runs(labels, values):
    order = np.argsort(labels, kind="stable")
    pairs = zip(labels[order], values[order])
    out = {}
    for key, group in itertools.groupby(pairs, key=operator.itemgetter(0)):
        vals = np.array([v for _, v in group])
        out[int(key)] = (len(vals), vals.mean())
    return out


def itemgetter_sort_records(scores, ages):
    records = list(zip(range(len(scores)), scores, ages))
    by_score = sorted(records, key=operator.itemgetter(1), reverse=True)
    by_age_then_score = sorted(records, key=lambda r: (r[2], -r[1]))
    top3 = [r[0] for r in by_score[:3]]
    return top3, [r[0] for r in by_age_then_score]


def pairwise_segments(path):
    lengths = [np.linalg.norm(b - a) for a, b in itertools.pairwise(path)]
    turns = []
    for a, b, c in zip(path, path[1:], path[2:]):
        u, v = b - a, c - b
        turns.append(np.degrees(np.arctan2(u[0] * v[1] - u[1] * v[0], u @ v)))
    return sum(lengths), np.array(turns)


def newton_iterates_generator(c, x0=1.0, tol=1e-12):
    def iterates(x):
        while True:
            x_new = x - (x ** 3 - c) / (3 * x ** 2)
            yield x_new
            x = x_new

    history = []
    for x in iterates(x0):
        history.append(x)
        if abs(x ** 3 - c) < tol or len(history) > 50:
            break
    return history[-1], len(history)


def partial_percentiles(x):
    q = functools.partial(np.percentile, x, method="linear")
    quartiles = [q(p) for p in (25, 50, 75)]
    clip = functools.partial(np.clip, a_min=quartiles[0], a_max=quartiles[2])
    return quartiles, clip(x)


def dict_dispatch_stats(x):
    ops = {"mean": np.mean, "median": np.median, "max": np.max, "ptp": np.ptp,
           "std": lambda a: np.std(a, ddof=1)}
    out = {name: f(x) for name, f in ops.items()}
    out["range_ratio"] = out["ptp"] / out["std"]
    return out


# ----------------------------------------------------------------------------
# Classes, closures, dataclasses, namedtuples
# ----------------------------------------------------------------------------

class _Kalman1D:
    def __init__(self, q, r, x0=0.0, p0=1.0):
        self.q, self.r = q, r
        self.x, self.p = x0, p0

    def predict(self):
        self.p = self.p + self.q
        return self.x

    def update(self, z):
        k = self.p / (self.p + self.r)
        self.x = self.x + k * (z - self.x)
        self.p = (1 - k) * self.p
        return self.x


def kalman_class(z, q=1e-4, r=0.05):
    kf = _Kalman1D(q, r, x0=z[0])
    estimates = []
    for measurement in z:
        kf.predict()
        estimates.append(kf.update(measurement))
    return np.array(estimates), kf.p


class _RunningStats:
    def __init__(self):
        self.n = 0
        self.mean = 0.0
        self.m2 = 0.0

    def push(self, x):
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (x - self.mean)

    @property
    def variance(self):
        return self.m2 / (self.n - 1) if self.n > 1 else 0.0

    @property
    def std(self):
        return math.sqrt(self.variance)


def running_stats_class(x):
    rs = _RunningStats()
    for v in x:
        rs.push(v)
    return rs.mean, rs.variance, rs.std, np.var(x, ddof=1)


@dataclasses.dataclass
class _Particles:
    pos: np.ndarray
    vel: np.ndarray
    mass: float = 1.0

    def kinetic(self):
        return 0.5 * self.mass * np.sum(self.vel ** 2)

    def step(self, dt, g=-9.81):
        self.vel = self.vel + dt * np.array([0.0, g])
        self.pos = self.pos + dt * self.vel
        below = self.pos[:, 1] < 0
        self.pos[below, 1] *= -1
        self.vel[below, 1] *= -0.8


def dataclass_particles(pos, vel, steps=12, dt=0.05):
    p = _Particles(pos.copy(), vel.copy(), mass=2.0)
    energies = []
    for _ in range(steps):
        p.step(dt)
        energies.append(p.kinetic())
    return p.pos, np.array(energies), dataclasses.asdict(p)["mass"]


LineFit = namedtuple("LineFit", ["slope", "intercept", "r2"])


def namedtuple_linefit(x, y):
    A = np.vstack([x, np.ones_like(x)]).T
    (m, c), *_ = np.linalg.lstsq(A, y, rcond=None)
    resid = y - (m * x + c)
    r2 = 1 - resid @ resid / np.sum((y - y.mean()) ** 2)
    fit = LineFit(m, c, r2)
    return fit, fit.slope * 2, fit._asdict()["r2"]


def closure_momentum(grad_scale, steps=25):
    def make_optimizer(lr, beta):
        velocity = None

        def step(params, grad):
            nonlocal velocity
            if velocity is None:
                velocity = np.zeros_like(params)
            velocity = beta * velocity + grad
            return params - lr * velocity

        return step

    A = np.diag(grad_scale)
    opt = make_optimizer(0.05, 0.9)
    w = np.ones(len(grad_scale))
    losses = []
    for _ in range(steps):
        w = opt(w, A @ w)
        losses.append(0.5 * w @ A @ w)
    return w, losses[-1], int(np.argmin(losses))


def lambdas_with_defaults(x):
    powers = [lambda v, k=k: v ** k for k in range(4)]
    basis = np.column_stack([p(x) for p in powers])
    shifts = {name: (lambda v, s=s: v - s) for name, s in [("min", x.min()), ("mean", x.mean())]}
    return basis, {k: f(x) for k, f in shifts.items()}


class _Dense:
    def __init__(self, W, b, activation=None):
        self.W, self.b = W, b
        self.activation = activation or (lambda z: z)

    def __call__(self, x):
        return self.activation(x @ self.W + self.b)


class _Sequential:
    def __init__(self, *layers):
        self.layers = list(layers)

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def n_params(self):
        return sum(layer.W.size + layer.b.size for layer in self.layers)


def callable_layers(X, W1, W2):
    relu = lambda z: np.maximum(z, 0)  # noqa: E731
    softmax = lambda z: np.exp(z - z.max(1, keepdims=True)) / np.exp(z - z.max(1, keepdims=True)).sum(1, keepdims=True)  # noqa: E731
    model = _Sequential(_Dense(W1, np.zeros(W1.shape[1]), relu),
                        _Dense(W2, np.full(W2.shape[1], 0.1), softmax))
    probs = model(X)
    return probs, probs.argmax(axis=1), model.n_params()


class _Shape:
    def area(self):
        raise NotImplementedError

    def describe(self):
        return f"{type(self).__name__[1:]} area={self.area():.3f}"


class _Polygon(_Shape):
    def __init__(self, pts):
        self.pts = pts

    def area(self):
        x, y = self.pts[:, 0], self.pts[:, 1]
        return 0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))


class _Circle(_Shape):
    def __init__(self, center, radius):
        self.center, self.radius = center, radius

    def area(self):
        return np.pi * self.radius ** 2


def shapes_inheritance(pts, radius):
    shapes = [_Polygon(pts), _Circle(pts.mean(axis=0), radius), _Polygon(pts[:3])]
    areas = np.array([s.area() for s in shapes])
    return areas, [s.describe() for s in shapes], max(shapes, key=lambda s: s.area()).describe()


class _Vec:
    def __init__(self, *xs):
        self.v = np.array(xs, dtype=float)

    def __add__(self, other):
        return _Vec(*(self.v + other.v))

    def __sub__(self, other):
        return _Vec(*(self.v - other.v))

    def __mul__(self, k):
        return _Vec(*(self.v * k))

    __rmul__ = __mul__

    def __abs__(self):
        return float(np.sqrt(self.v @ self.v))

    def __matmul__(self, other):
        return float(self.v @ other.v)


def vector_class_ops(a, b):
    u, w = _Vec(*a), _Vec(*b)
    s = u + 2 * w - w * 0.5
    proj = (u @ w) / (w @ w) * w
    return s.v, abs(u - w), proj.v


class _LinearRegression:
    def __init__(self, fit_intercept=True):
        self.fit_intercept = fit_intercept
        self.coef_ = None
        self.intercept_ = 0.0

    def _design(self, X):
        return np.c_[np.ones(len(X)), X] if self.fit_intercept else X

    def fit(self, X, y):
        beta = np.linalg.pinv(self._design(X)) @ y
        if self.fit_intercept:
            self.intercept_, self.coef_ = beta[0], beta[1:]
        else:
            self.coef_ = beta
        return self

    def predict(self, X):
        return X @ self.coef_ + self.intercept_

    def score(self, X, y):
        resid = y - self.predict(X)
        return 1 - (resid ** 2).sum() / ((y - y.mean()) ** 2).sum()


def sklearn_style_chain(X, y):
    pred = _LinearRegression().fit(X, y).predict(X[:3])
    model = _LinearRegression(fit_intercept=False).fit(X, y)
    return pred, model.coef_, model.score(X, y)


# ----------------------------------------------------------------------------
# try/except, assert, early exits, for/else
# ----------------------------------------------------------------------------

def solve_or_lstsq(A, b):
    try:
        x = np.linalg.solve(A, b)
        method = "solve"
    except np.linalg.LinAlgError:
        x = np.linalg.lstsq(A, b, rcond=None)[0]
        method = "lstsq"
    return x, method, np.linalg.norm(A @ x - b)


def inverse_or_pinv_each(mats):
    out = []
    for M in mats:
        try:
            out.append(np.linalg.inv(M))
        except np.linalg.LinAlgError:
            out.append(np.linalg.pinv(M))
    return out


def assert_shapes_ols(X, y):
    assert X.ndim == 2, "X must be 2-D"
    assert y.shape == (X.shape[0],), f"y has shape {y.shape}"
    n, d = X.shape
    assert n > d, "need more rows than columns"
    beta = np.linalg.solve(X.T @ X, X.T @ y)
    sigma2 = np.sum((y - X @ beta) ** 2) / (n - d)
    se = np.sqrt(np.diag(sigma2 * np.linalg.inv(X.T @ X)))
    return beta, se, beta / se


def two_sum_early_return(x, target):
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            if x[i] + x[j] == target:
                return i, j
    return None


def first_prime_each_for_else(values):
    out = []
    for v in values:
        v = int(v)
        if v < 2:
            out.append(False)
            continue
        for d in range(2, int(math.isqrt(v)) + 1):
            if v % d == 0:
                out.append(False)
                break
        else:
            out.append(True)
    flags = np.array(out)
    return flags, values[flags]


def while_true_secant(c):
    f = lambda t: np.cos(t) - c * t  # noqa: E731
    x0, x1 = 0.0, 1.0
    it = 0
    while True:
        f0, f1 = f(x0), f(x1)
        x2 = x1 - f1 * (x1 - x0) / (f1 - f0)
        it += 1
        if abs(x2 - x1) < 1e-12 or it >= 60:
            break
        x0, x1 = x1, x2
    return x2, it


def coefficient_of_variation_try(groups):
    result = {}
    for name, vals in groups.items():
        mean = float(np.mean(vals))
        try:
            result[name] = float(np.std(vals)) / mean
        except ZeroDivisionError:
            result[name] = float("inf")
    return result


def validate_then_normalize(X, axis=0):
    if not isinstance(X, np.ndarray):
        raise TypeError("expected an array")
    if X.ndim != 2:
        raise ValueError(f"expected 2-D input, got {X.ndim}-D")
    if np.isnan(X).any():
        raise ValueError("input contains NaN")
    mu = X.mean(axis=axis, keepdims=True)
    sd = X.std(axis=axis, keepdims=True)
    sd[sd == 0] = 1.0
    return (X - mu) / sd


# ----------------------------------------------------------------------------
# Mixed results: strings, dicts, lists of tuples
# ----------------------------------------------------------------------------

def fstring_report(x):
    mean, sd = x.mean(), x.std()
    lo, hi = np.percentile(x, [5, 95])
    lines = [f"n={x.size}", f"mean={mean:.3f} sd={sd:.3f}", f"90% in [{lo:.2f}, {hi:.2f}]",
             f"argmax at {x.argmax()} ({x.max():+.2e})"]
    return "\n".join(lines)


def describe_mixed(X):
    return {
        "shape": X.shape,
        "col_means": X.mean(axis=0),
        "total": float(X.sum()),
        "n_negative": int((X < 0).sum()),
        "corr": np.corrcoef(X, rowvar=False),
        "label": "wide" if X.shape[1] > X.shape[0] else "tall",
    }


def top_k_tuples(scores, names_idx, k=4):
    order = np.argsort(-scores, kind="stable")[:k]
    return [(int(names_idx[i]), round(float(scores[i]), 3)) for i in order]


# ----------------------------------------------------------------------------
# NumPy breadth
# ----------------------------------------------------------------------------

def einsum_tensordot_mix(A, B, v):
    bilinear = np.einsum("i,ij,j->", v, A, v)
    batch = np.einsum("bij,bjk->bik", np.stack([A, A.T]), np.stack([B, B]))
    outer_trace = np.einsum("ii", np.outer(v, v))
    td = np.tensordot(A, B, axes=([1], [0]))
    td0 = np.tensordot(v, v, axes=0)
    return bilinear, batch, outer_trace, td, td0


def apply_along_axis_custom(X):
    def trimmed_mean(row, cut=1):
        s = np.sort(row)
        return s[cut:-cut].mean()

    tm = np.apply_along_axis(trimmed_mean, 1, X)
    ranks = np.apply_along_axis(lambda c: np.argsort(np.argsort(c)), 0, X)
    return tm, ranks


def vectorize_piecewise_fn(x):
    def tax(income):
        if income <= 10:
            return 0.0
        elif income <= 40:
            return 0.2 * (income - 10)
        return 6.0 + 0.4 * (income - 40)

    vtax = np.vectorize(tax, otypes=[float])
    pw = np.piecewise(x, [x <= 10, (x > 10) & (x <= 40), x > 40],
                      [0.0, lambda t: 0.2 * (t - 10), lambda t: 6.0 + 0.4 * (t - 40)])
    sel = np.select([x <= 10, x <= 40], [0.0, 0.2 * (x - 10)], default=6.0 + 0.4 * (x - 40))
    return vtax(x), pw, sel


def histogram_digitize_bincount(x, w):
    counts, edges = np.histogram(x, bins=5)
    dens, _ = np.histogram(x, bins=edges, density=True)
    bins = np.digitize(x, edges[1:-1])
    sums = np.bincount(bins, weights=w, minlength=5)
    right = np.digitize(x, edges, right=True)
    return counts, edges, dens, bins, sums, right


def sliding_window_local_max(img, k=3):
    padded = np.pad(img, k // 2, mode="edge")
    win = np.lib.stride_tricks.sliding_window_view(padded, (k, k))
    local_max = win.max(axis=(-2, -1))
    peaks = np.argwhere((img == local_max) & (img > img.mean()))
    return local_max, peaks


def pad_modes(x):
    return {mode: np.pad(x, 2, mode=mode) for mode in ("reflect", "symmetric", "edge", "wrap")} | {
        "constant": np.pad(x, (1, 3), mode="constant", constant_values=(-1, 9)),
        "linear_ramp": np.pad(x, 2, mode="linear_ramp", end_values=0),
        "mean": np.pad(x, 1, mode="mean"),
    }


def roll_meshgrid_ogrid(n=6):
    X, Y = np.meshgrid(np.arange(n), np.linspace(0, 1, n - 1))
    yy, xx = np.mgrid[0:n, 0:n]
    oy, ox = np.ogrid[0:n, 0:n]
    circle = (ox - n / 2) ** 2 + (oy - n / 2) ** 2 < (n / 3) ** 2
    shifted = np.roll(circle, (1, -2), axis=(0, 1))
    return X + Y, (yy * xx).sum(), circle.sum(), shifted.astype(np.uint8)


def linalg_suite(A):
    S = A @ A.T + np.eye(len(A))
    Q, R = np.linalg.qr(A)
    s = np.linalg.svd(A, compute_uv=False)
    w, V = np.linalg.eigh(S)
    sign, logdet = np.linalg.slogdet(S)
    return (np.abs(np.diag(R)), s, w, np.abs(V[:, -1]), np.linalg.norm(A, "fro"), np.linalg.norm(A, 2),
            np.linalg.norm(A, 1), np.linalg.norm(A, np.inf), np.linalg.pinv(A) @ A,
            np.linalg.matrix_power(A, 3), np.linalg.det(A), sign * logdet, np.linalg.cond(S),
            np.linalg.matrix_rank(A))


def fft_suite(x, fs=32.0):
    X = np.fft.rfft(x)
    f = np.fft.rfftfreq(len(x), d=1 / fs)
    back = np.fft.irfft(X, n=len(x))
    full = np.fft.fftshift(np.fft.fft(x))
    freqs = np.fft.fftshift(np.fft.fftfreq(len(x), d=1 / fs))
    peak = f[np.argmax(np.abs(X[1:])) + 1]
    return np.abs(X), back, np.abs(full), freqs, peak


def polyfit_interp_eval(x, y, xq):
    c2 = np.polyfit(x, y, 2)
    c3, cov = np.polyfit(x, y, 3, cov=True)
    lin = np.interp(xq, x, y)
    clamp = np.interp(xq, x, y, left=-1.0, right=-2.0)
    return np.polyval(c2, xq), c3, np.sqrt(np.diag(cov)), lin, clamp, np.poly1d(c2)(0.5)


def cumprod_diff_prepend(r):
    growth = np.cumprod(1 + r)
    d0 = np.diff(growth, prepend=1.0)
    d2 = np.diff(growth, n=2, append=growth[-1])
    sign_changes = np.count_nonzero(np.diff(np.sign(r)))
    return growth, d0, d2, sign_changes


def unique_inverse_counts(a):
    vals, inv, counts = np.unique(a, return_inverse=True, return_counts=True)
    first = np.unique(a, return_index=True)[1]
    freq = counts[inv]
    rows, rcounts = np.unique(a.reshape(-1, 2), axis=0, return_counts=True)
    return vals, inv, counts, first, freq, rows, rcounts


def stable_sort_lexsort_search(keys, vals):
    order = np.argsort(keys, kind="stable")
    lex = np.lexsort((-vals, keys))
    sk = keys[order]
    left = np.searchsorted(sk, [2, 5, 9], side="left")
    right = np.searchsorted(sk, [2, 5, 9], side="right")
    return order, lex, left, right, vals[lex][:3]


def isclose_allclose(a, b):
    close = np.isclose(a, b, rtol=1e-3, atol=1e-6)
    nan_eq = np.isclose(a, b, equal_nan=True)
    return close, nan_eq, np.allclose(a[close], b[close]), np.array_equal(a, a), np.array_equiv(a[:1], a[:1])


def nan_functions(X):
    return (np.nanmean(X, axis=0), np.nanstd(X, axis=1), np.nanmedian(X), np.nanpercentile(X, 75, axis=0),
            np.nanargmax(X, axis=1), np.nancumsum(X, axis=1), np.nansum(X), np.nanmin(X, axis=0),
            np.nanprod(X, axis=1), np.nanvar(X, ddof=1), np.count_nonzero(np.isnan(X), axis=0))


def clip_round_decimals(x):
    c = np.clip(x, -1.0, 1.0)
    r2 = np.round(x, 2)
    rneg = np.round(x * 1000, -2)
    half = np.round(np.array([0.5, 1.5, 2.5, -0.5, -1.5]))
    fl = np.floor(x * 10) / 10
    return c, r2, rneg, half, fl, np.around(x.sum(), 3)


def uint8_image_ops(img, other):
    wrapped = img + other
    saturated = np.clip(img.astype(np.int16) + other, 0, 255).astype(np.uint8)
    inverted = 255 - img
    halved = img // 2
    blend = (0.3 * img + 0.7 * other).astype(np.uint8)
    diff = np.abs(img.astype(int) - other.astype(int)).astype(np.uint8)
    return wrapped, saturated, inverted, halved, blend, diff, img.mean(), np.bitwise_and(img, 0xF0)


def ix_fancy_repeats(M):
    rows, cols = [0, 2, 2, 4], [1, 3]
    sub = M[np.ix_(rows, cols)]
    rep = M[[1, 1, 3], [0, 2, 2]]
    N = M.copy()
    N[np.ix_([0, 4], [0, 4])] = -1
    N[[2, 2], [1, 1]] += 10
    return sub, rep, N, M[::2, ::-2], M[M[:, 0].argsort()][:, [0, -1]]


def add_at_out_args(idx, w, n=6):
    acc = np.zeros(n)
    np.add.at(acc, idx, w)
    mx = np.full(n, -np.inf)
    np.maximum.at(mx, idx, w)
    out = np.empty_like(w)
    np.multiply(w, 2.0, out=out)
    np.cumsum(w, out=w)
    cnt = np.zeros(n, dtype=np.int32)
    np.add.at(cnt, idx, 1)
    return acc, mx, out, w, cnt


def integer_dtypes_counters(x):
    counts = np.zeros(8, dtype=np.int32)
    for v in x:
        counts[v % 8] += 1
    small = x.astype(np.int8)
    wrap = (small * np.int8(20)).astype(np.int16)
    return counts, counts.dtype, wrap, np.iinfo(np.int16).max - x.max(), (x.astype(np.uint16) << 3)


# ----------------------------------------------------------------------------
# Cookbook and numerical recipes
# ----------------------------------------------------------------------------

def kalman_matrix_cv(z, dt=1.0, q=0.01, r=0.5):
    F = np.array([[1, dt], [0, 1]])
    H = np.array([[1.0, 0.0]])
    Q = q * np.array([[dt ** 4 / 4, dt ** 3 / 2], [dt ** 3 / 2, dt ** 2]])
    R = np.array([[r]])
    x = np.array([[z[0]], [0.0]])
    P = np.eye(2)
    xs = []
    for zk in z:
        x = F @ x
        P = F @ P @ F.T + Q
        S = H @ P @ H.T + R
        K = P @ H.T @ np.linalg.inv(S)
        x = x + K @ (np.array([[zk]]) - H @ x)
        P = (np.eye(2) - K @ H) @ P
        xs.append(x.ravel())
    return np.array(xs), P


def ransac_line(x, y, n_iter=30, thresh=0.3, seed=0):
    rng = np.random.default_rng(seed)
    best_inliers = np.zeros(len(x), dtype=bool)
    best_model = None
    for _ in range(n_iter):
        i, j = rng.choice(len(x), size=2, replace=False)
        if x[i] == x[j]:
            continue
        m = (y[j] - y[i]) / (x[j] - x[i])
        c = y[i] - m * x[i]
        inliers = np.abs(y - (m * x + c)) < thresh
        if inliers.sum() > best_inliers.sum():
            best_inliers, best_model = inliers, (m, c)
    m, c = np.polyfit(x[best_inliers], y[best_inliers], 1)
    return m, c, best_inliers.sum()


def dormand_prince(y0, t_end=5.0, rtol=1e-6, atol=1e-9):
    def f(t, y):
        return np.array([y[1], -y[0] - 0.1 * y[1]])

    c = np.array([0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1, 1])
    A = [[], [1 / 5], [3 / 40, 9 / 40], [44 / 45, -56 / 15, 32 / 9],
         [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729],
         [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656],
         [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84]]
    b5 = np.array([35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0])
    b4 = np.array([5179 / 57600, 0, 7571 / 16695, 393 / 640, -92097 / 339200, 187 / 2100, 1 / 40])
    t, y, h = 0.0, np.asarray(y0, dtype=float), 0.1
    ts, ys, rejected = [t], [y], 0
    while t < t_end:
        h = min(h, t_end - t)
        k = []
        for i in range(7):
            yi = y + h * sum(a * kj for a, kj in zip(A[i], k))
            k.append(f(t + c[i] * h, yi))
        K = np.array(k)
        y5 = y + h * b5 @ K
        y4 = y + h * b4 @ K
        err = np.max(np.abs(y5 - y4) / (atol + rtol * np.maximum(np.abs(y), np.abs(y5))))
        if err <= 1:
            t, y = t + h, y5
            ts.append(t)
            ys.append(y)
        else:
            rejected += 1
        h *= min(5.0, max(0.2, 0.9 * err ** -0.2)) if err > 0 else 5.0
    return np.array(ts), np.array(ys), rejected


def cg_with_callback(A, b, tol=1e-10):
    residuals = []

    def callback(r):
        residuals.append(np.linalg.norm(r))

    x = np.zeros_like(b)
    r = b - A @ x
    p = r.copy()
    rs = r @ r
    for _ in range(len(b) * 2):
        Ap = A @ p
        alpha = rs / (p @ Ap)
        x += alpha * p
        r -= alpha * Ap
        callback(r)
        rs_new = r @ r
        if math.sqrt(rs_new) < tol:
            break
        p = r + (rs_new / rs) * p
        rs = rs_new
    return x, np.array(residuals)


# ----------------------------------------------------------------------------
# Image processing by hand
# ----------------------------------------------------------------------------

def canny_steps(img, low=0.1, high=0.3):
    Kx = np.array([[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]], dtype=float)
    Ky = Kx.T
    p = np.pad(img, 1, mode="edge")
    win = np.lib.stride_tricks.sliding_window_view(p, (3, 3))
    gx = np.einsum("ijkl,kl->ij", win, Kx)
    gy = np.einsum("ijkl,kl->ij", win, Ky)
    mag = np.hypot(gx, gy)
    mag /= mag.max()
    angle = (np.rad2deg(np.arctan2(gy, gx)) + 180) % 180
    nms = np.zeros_like(mag)
    H, W = img.shape
    for i in range(1, H - 1):
        for j in range(1, W - 1):
            a = angle[i, j]
            if a < 22.5 or a >= 157.5:
                q, r = mag[i, j + 1], mag[i, j - 1]
            elif a < 67.5:
                q, r = mag[i + 1, j - 1], mag[i - 1, j + 1]
            elif a < 112.5:
                q, r = mag[i + 1, j], mag[i - 1, j]
            else:
                q, r = mag[i - 1, j - 1], mag[i + 1, j + 1]
            if mag[i, j] >= q and mag[i, j] >= r:
                nms[i, j] = mag[i, j]
    strong = nms >= high
    weak = (nms >= low) & ~strong
    edges = strong.copy()
    stack = list(zip(*np.nonzero(strong)))
    while stack:
        i, j = stack.pop()
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                ni, nj = i + di, j + dj
                if 0 <= ni < H and 0 <= nj < W and weak[ni, nj] and not edges[ni, nj]:
                    edges[ni, nj] = True
                    stack.append((ni, nj))
    return edges.astype(np.uint8), int(strong.sum()), int(weak.sum())


def components_bfs_deque(binary):
    H, W = binary.shape
    labels = np.zeros((H, W), dtype=np.int32)
    sizes = []
    nxt = 1
    for i in range(H):
        for j in range(W):
            if binary[i, j] and not labels[i, j]:
                q = deque([(i, j)])
                labels[i, j] = nxt
                size = 0
                while q:
                    y, x = q.popleft()
                    size += 1
                    for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)):
                        ny, nx = y + dy, x + dx
                        if 0 <= ny < H and 0 <= nx < W and binary[ny, nx] and labels[ny, nx] == 0:
                            labels[ny, nx] = nxt
                            q.append((ny, nx))
                sizes.append(size)
                nxt += 1
    return labels, sizes


# ----------------------------------------------------------------------------
# Audio
# ----------------------------------------------------------------------------

def autocorr_pitch(x, fs=800.0, fmin=50.0, fmax=300.0):
    x = x - x.mean()
    ac = np.correlate(x, x, mode="full")[len(x) - 1:]
    lo, hi = int(fs / fmax), int(fs / fmin)
    lag = lo + int(np.argmax(ac[lo:hi]))
    return fs / lag, ac[:hi] / ac[0]


# ----------------------------------------------------------------------------
# Finance
# ----------------------------------------------------------------------------

def black_scholes_mc(S0=100.0, K=105.0, r=0.02, sigma=0.25, T=1.0, n=4000, seed=42):
    rng = np.random.default_rng(seed)
    Z = rng.standard_normal(n)
    ST = S0 * np.exp((r - 0.5 * sigma ** 2) * T + sigma * np.sqrt(T) * Z)
    payoff = np.maximum(ST - K, 0.0)
    price = math.exp(-r * T) * payoff.mean()
    stderr = math.exp(-r * T) * payoff.std(ddof=1) / math.sqrt(n)
    d1 = (math.log(S0 / K) + (r + sigma ** 2 / 2) * T) / (sigma * math.sqrt(T))
    d2 = d1 - sigma * math.sqrt(T)
    N = lambda v: 0.5 * (1 + math.erf(v / math.sqrt(2)))  # noqa: E731
    exact = S0 * N(d1) - K * math.exp(-r * T) * N(d2)
    return {"mc": price, "stderr": stderr, "exact": exact, "z": (price - exact) / stderr}


def portfolio_class_metrics(prices, weights):
    class Portfolio:
        def __init__(self, prices, weights):
            self.returns = np.diff(np.log(prices), axis=0)
            self.weights = np.asarray(weights) / np.sum(weights)

        @property
        def series(self):
            return self.returns @ self.weights

        def sharpe(self, periods=252):
            s = self.series
            return np.sqrt(periods) * s.mean() / s.std(ddof=1)

        def max_drawdown(self):
            wealth = np.exp(np.cumsum(self.series))
            peak = np.maximum.accumulate(wealth)
            return np.min(wealth / peak - 1)

        def ewma_vol(self, lam=0.94):
            var = self.series[0] ** 2
            for r in self.series[1:]:
                var = lam * var + (1 - lam) * r ** 2
            return math.sqrt(var)

    p = Portfolio(prices, weights)
    return p.sharpe(), p.max_drawdown(), p.ewma_vol()


# ----------------------------------------------------------------------------
# Graphs
# ----------------------------------------------------------------------------

def dijkstra_heapq(W, src=0):
    n = len(W)
    dist = [math.inf] * n
    prev = [-1] * n
    dist[src] = 0.0
    heap = [(0.0, src)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v in range(n):
            w = W[u, v]
            if w > 0 and d + w < dist[v]:
                dist[v] = d + w
                prev[v] = u
                heapq.heappush(heap, (dist[v], v))
    return np.array(dist), prev


def kruskal_union_find(W):
    n = len(W)
    edges = sorted((W[i, j], i, j) for i in range(n) for j in range(i + 1, n) if W[i, j] > 0)
    parent = list(range(n))
    rank = [0] * n

    def find(x):
        if parent[x] != x:
            parent[x] = find(parent[x])
        return parent[x]

    def union(a, b):
        ra, rb = find(a), find(b)
        if ra == rb:
            return False
        if rank[ra] < rank[rb]:
            ra, rb = rb, ra
        parent[rb] = ra
        if rank[ra] == rank[rb]:
            rank[ra] += 1
        return True

    mst = [(i, j) for w, i, j in edges if union(i, j)]
    return mst, sum(W[i, j] for i, j in mst)


def dfs_count_paths(A, src, dst):
    memo = {}

    def count(u):
        if u == dst:
            return 1
        if u in memo:
            return memo[u]
        memo[u] = sum(count(v) for v in np.flatnonzero(A[u]))
        return memo[u]

    return count(src)


def pagerank_power_dict(A, d=0.85, tol=1e-9):
    n = len(A)
    out_deg = A.sum(axis=1)
    M = np.where(out_deg[:, None] > 0, A / np.maximum(out_deg[:, None], 1), 1.0 / n).T
    rank = np.full(n, 1.0 / n)
    for it in itertools.count(1):
        new = (1 - d) / n + d * M @ rank
        if np.abs(new - rank).sum() < tol:
            rank = new
            break
        rank = new
    return {node: round(float(score), 6) for node, score in enumerate(rank)}, it


# ----------------------------------------------------------------------------
# Geometry
# ----------------------------------------------------------------------------

def gift_wrapping_hull(P):
    n = len(P)
    start = int(np.argmin(P[:, 0]))
    hull = []
    p = start
    while True:
        hull.append(p)
        q = (p + 1) % n
        for r in range(n):
            cross = (P[q, 0] - P[p, 0]) * (P[r, 1] - P[p, 1]) - (P[q, 1] - P[p, 1]) * (P[r, 0] - P[p, 0])
            if cross < 0:
                q = r
        p = q
        if p == start:
            break
    return hull, P[hull]


def polygon_metrics_zip(P):
    edges = list(zip(P, np.roll(P, -1, axis=0)))
    perimeter = sum(np.linalg.norm(b - a) for a, b in edges)
    area2 = sum(a[0] * b[1] - b[0] * a[1] for a, b in edges)
    cx = sum((a[0] + b[0]) * (a[0] * b[1] - b[0] * a[1]) for a, b in edges) / (3 * area2)
    cy = sum((a[1] + b[1]) * (a[0] * b[1] - b[0] * a[1]) for a, b in edges) / (3 * area2)
    return perimeter, abs(area2) / 2, (cx, cy), "ccw" if area2 > 0 else "cw"


def point_in_polygon_winding(P, pts):
    def is_left(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])

    result = []
    for q in pts:
        wn = 0
        for a, b in zip(P, np.roll(P, -1, axis=0)):
            if a[1] <= q[1]:
                if b[1] > q[1] and is_left(a, b, q) > 0:
                    wn += 1
            elif b[1] <= q[1] and is_left(a, b, q) < 0:
                wn -= 1
        result.append(wn != 0)
    return np.array(result)


def segment_intersections(S):
    def orient(p, q, r):
        v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
        return 0 if abs(v) < 1e-12 else (1 if v > 0 else -1)

    hits = []
    for (i, s), (j, t) in itertools.combinations(enumerate(S), 2):
        p1, p2, q1, q2 = s[:2], s[2:], t[:2], t[2:]
        if orient(p1, p2, q1) != orient(p1, p2, q2) and orient(q1, q2, p1) != orient(q1, q2, p2):
            hits.append((i, j))
    return hits


# ----------------------------------------------------------------------------
# Games and puzzles
# ----------------------------------------------------------------------------

class _Life:
    def __init__(self, board):
        self.board = board.astype(bool)
        self.generation = 0

    def neighbours(self):
        b = self.board.astype(np.int8)
        return sum(np.roll(np.roll(b, dy, 0), dx, 1)
                   for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0))

    def step(self):
        n = self.neighbours()
        self.board = (n == 3) | (self.board & (n == 2))
        self.generation += 1
        return self

    def __len__(self):
        return int(self.board.sum())


def life_class_until_stable(board, max_gen=20):
    game = _Life(board)
    seen = {game.board.tobytes(): 0}
    populations = [len(game)]
    while game.generation < max_gen:
        game.step()
        populations.append(len(game))
        key = game.board.tobytes()
        if key in seen:
            return game.generation, seen[key], populations
        seen[key] = game.generation
    return game.generation, None, populations


def sudoku4_backtrack(grid):
    g = grid.copy()

    def ok(r, c, v):
        br, bc = 2 * (r // 2), 2 * (c // 2)
        return v not in g[r] and v not in g[:, c] and v not in g[br:br + 2, bc:bc + 2]

    def solve():
        empties = np.argwhere(g == 0)
        if len(empties) == 0:
            return True
        r, c = empties[0]
        for v in range(1, 5):
            if ok(r, c, v):
                g[r, c] = v
                if solve():
                    return True
                g[r, c] = 0
        return False

    solved = solve()
    return solved, g


# ----------------------------------------------------------------------------
# ML from scratch
# ----------------------------------------------------------------------------

def gmm_em_steps(x, k=2, n_iter=15):
    mu = np.quantile(x, np.linspace(0.25, 0.75, k))
    var = np.full(k, x.var())
    pi = np.full(k, 1.0 / k)
    loglik = []
    for _ in range(n_iter):
        dens = pi * np.exp(-(x[:, None] - mu) ** 2 / (2 * var)) / np.sqrt(2 * np.pi * var)
        total = dens.sum(axis=1, keepdims=True)
        loglik.append(np.log(total).sum())
        resp = dens / total
        nk = resp.sum(axis=0)
        mu = (resp * x[:, None]).sum(axis=0) / nk
        var = (resp * (x[:, None] - mu) ** 2).sum(axis=0) / nk
        pi = nk / len(x)
    return mu, var, pi, np.array(loglik)


class _Perceptron:
    def __init__(self, lr=0.1, epochs=10):
        self.lr, self.epochs = lr, epochs

    def fit(self, X, y):
        self.w = np.zeros(X.shape[1] + 1)
        self.errors_ = []
        for _ in range(self.epochs):
            errors = 0
            for xi, target in zip(X, y):
                update = self.lr * (target - self.predict(xi))
                self.w[1:] += update * xi
                self.w[0] += update
                errors += int(update != 0.0)
            self.errors_.append(errors)
            if errors == 0:
                break
        return self

    def net_input(self, X):
        return np.dot(X, self.w[1:]) + self.w[0]

    def predict(self, X):
        return np.where(self.net_input(X) >= 0.0, 1, -1)


def perceptron_class_epochs(X, y):
    p = _Perceptron(lr=0.05, epochs=12).fit(X, y)
    return p.w, p.errors_, p.predict(X)


def softmax_regression_early_stop(X, y, k=3, lr=0.5, max_epochs=300, patience=5):
    n, d = X.shape
    W = np.zeros((d, k))
    Y = np.eye(k)[y]
    best_loss, best_W, wait = np.inf, W.copy(), 0
    for epoch in range(max_epochs):
        Z = X @ W
        Z -= Z.max(axis=1, keepdims=True)
        P = np.exp(Z) / np.exp(Z).sum(axis=1, keepdims=True)
        loss = -np.mean(np.sum(Y * np.log(P + 1e-12), axis=1)) + 1e-3 * np.sum(W * W)
        if loss < best_loss - 1e-6:
            best_loss, best_W, wait = loss, W.copy(), 0
        else:
            wait += 1
            if wait >= patience:
                break
        W -= lr * (X.T @ (P - Y) / n + 2e-3 * W)
    return best_W, best_loss, epoch


class _PCA:
    def __init__(self, n_components):
        self.n_components = n_components

    def fit(self, X):
        self.mean_ = X.mean(axis=0)
        U, S, Vt = np.linalg.svd(X - self.mean_, full_matrices=False)
        self.components_ = Vt[: self.n_components]
        self.explained_variance_ = S[: self.n_components] ** 2 / (len(X) - 1)
        self.ratio_ = S[: self.n_components] ** 2 / np.sum(S ** 2)
        return self

    def transform(self, X):
        return (X - self.mean_) @ self.components_.T

    def inverse_transform(self, Z):
        return Z @ self.components_ + self.mean_


def pca_class_roundtrip(X):
    pca = _PCA(2).fit(X)
    Z = pca.transform(X)
    err = np.mean((X - pca.inverse_transform(Z)) ** 2)
    return np.abs(Z), pca.ratio_, err


def decision_tree_dict_recursive(X, y, depth=0, max_depth=2):
    if depth == max_depth or len(np.unique(y)) == 1:
        values, counts = np.unique(y, return_counts=True)
        return {"leaf": int(values[np.argmax(counts)])}
    best = None
    for f in range(X.shape[1]):
        for t in np.unique(X[:, f])[:-1]:
            left = X[:, f] <= t
            p_l = np.bincount(y[left], minlength=3) / left.sum()
            p_r = np.bincount(y[~left], minlength=3) / (~left).sum()
            g = left.mean() * (1 - p_l @ p_l) + (~left).mean() * (1 - p_r @ p_r)
            if best is None or g < best[0]:
                best = (g, f, t)
    _, f, t = best
    left = X[:, f] <= t
    return {"feature": f, "threshold": float(t),
            "left": decision_tree_dict_recursive(X[left], y[left], depth + 1, max_depth),
            "right": decision_tree_dict_recursive(X[~left], y[~left], depth + 1, max_depth)}


# ----------------------------------------------------------------------------
# Text as arrays
# ----------------------------------------------------------------------------

def char_histogram_bytes(text_codes):
    data = np.frombuffer(bytes(text_codes.tolist()), dtype=np.uint8)
    letters = data[(data >= ord("a")) & (data <= ord("z"))]
    vals, counts = np.unique(letters, return_counts=True)
    top = vals[np.argsort(-counts, kind="stable")[:3]]
    return "".join(chr(v) for v in top), dict(zip(map(chr, vals), counts.tolist()))


def bag_of_words_tokens(docs, vocab_size=8):
    counts = np.zeros((len(docs), vocab_size), dtype=np.int32)
    for i, doc in enumerate(docs):
        np.add.at(counts[i], doc, 1)
    df = (counts > 0).sum(axis=0)
    idf = np.log((1 + len(docs)) / (1 + df)) + 1
    tfidf = counts * idf
    tfidf /= np.linalg.norm(tfidf, axis=1, keepdims=True)
    sim = tfidf @ tfidf.T
    return counts, sim


def bigram_counts_dict(tokens):
    bigrams = Counter(zip(tokens[:-1].tolist(), tokens[1:].tolist()))
    most = bigrams.most_common(2)
    n_types = len(set(tokens.tolist()))
    return most, n_types, len(bigrams)


def caesar_uint8(codes, shift=3):
    arr = np.asarray(codes, dtype=np.uint8)
    upper = (arr >= 65) & (arr <= 90)
    lower = (arr >= 97) & (arr <= 122)
    out = arr.copy()
    out[upper] = (arr[upper] - 65 + shift) % 26 + 65
    out[lower] = (arr[lower] - 97 + shift) % 26 + 97
    return out, out.tobytes().decode("ascii")


def run_length_encode_string(codes):
    change = np.flatnonzero(np.diff(codes)) + 1
    starts = np.r_[0, change]
    lengths = np.diff(np.r_[starts, len(codes)])
    encoded = "".join(f"{n}{chr(codes[s])}" for s, n in zip(starts, lengths))
    return encoded, lengths.max()


# ----------------------------------------------------------------------------
# Arguments
# ----------------------------------------------------------------------------

def _rng(seed):
    return np.random.default_rng(seed)


def _blobs(seed=0, n=5):
    r = _rng(seed)
    X = np.vstack([r.normal(0, 0.5, (n, 2)), r.normal((3, 0), 0.5, (n, 2)), r.normal((0, 3), 0.5, (n, 2))])
    return X, np.repeat(np.arange(3), n)


def _graph(seed=0, n=7):
    r = _rng(seed)
    W = np.round(r.uniform(1, 9, (n, n)), 1) * (r.random((n, n)) < 0.45)
    W = np.triu(W, 1)
    W = W + W.T
    return W


def _dag():
    A = np.zeros((7, 7), dtype=int)
    for u, v in [(0, 1), (0, 2), (1, 3), (2, 3), (3, 4), (2, 5), (5, 4), (4, 6), (1, 6)]:
        A[u, v] = 1
    return A


def _digraph():
    A = np.zeros((8, 8), dtype=int)
    for u, v in [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5), (5, 3), (6, 5), (6, 7), (7, 6)]:
        A[u, v] = 1
    return A


def _img(seed=0, h=8, w=8):
    r = _rng(seed)
    yy, xx = np.mgrid[0:h, 0:w]
    return np.clip(((xx > 3) & (yy > 2)).astype(float) * 0.8 + 0.1 * r.random((h, w)), 0, 1)


def _signal(n=64, fs=32.0):
    t = np.arange(n) / fs
    return np.sin(2 * np.pi * 4 * t) + 0.5 * np.cos(2 * np.pi * 10 * t)


def _prices(seed=0, n=30, k=3):
    r = _rng(seed)
    return 100 * np.exp(np.cumsum(r.normal(0.001, 0.02, (n, k)), axis=0))


def _text(s):
    return np.frombuffer(s.encode("ascii"), dtype=np.uint8).copy()


def _mask(seed=0):
    m = np.zeros((8, 9), dtype=bool)
    m[1:4, 1:5] = True
    m[5:7, 6:8] = True
    m[6, 1] = True
    m[2, 7] = True
    return m


CASES = [
    # recursion
    ("fft_recursive_check", fft_recursive_check, lambda: (_signal(16, 8.0),), {}),
    ("merge_sort_recursive", merge_sort_recursive, lambda: (_rng(1).normal(size=13),), {}),
    ("quicksort_masks", quicksort_masks, lambda: (_rng(2).integers(0, 20, 14),), {}),
    ("det_cofactor", det_cofactor, lambda: (_rng(3).normal(size=(4, 4)),), {}),
    ("strassen_check", strassen_check, lambda: (_rng(4).normal(size=(4, 4)), _rng(5).normal(size=(4, 4))), {}),
    ("flood_fill_recursive", flood_fill_recursive,
     lambda: ((_rng(6).random((6, 6)) > 0.35).astype(int), 2, 2, 7), {}),
    ("karatsuba_digits", karatsuba_digits,
     lambda: (np.array([3, 1, 4, 1, 5, 9, 2]), np.array([2, 7, 1, 8, 2, 8])), {}),
    ("adaptive_simpson", adaptive_simpson, lambda: (0.0, 2.0), {}),
    ("bisect_recursive", bisect_recursive, lambda: (np.array([1.0, 0.0, -2.0, -1.0]), 1.0, 2.0), {}),
    ("subset_sums_recursive", subset_sums_recursive, lambda: (np.array([3, 5, 6, 7, 2]), 12), {}),
    ("quadtree_leaves", quadtree_leaves, lambda: (_img(7),), {}),
    ("matrix_chain_lru", matrix_chain_lru, lambda: (np.array([10, 30, 5, 60, 8, 12]),), {}),
    ("tarjan_scc", tarjan_scc, lambda: (_digraph(),), {}),
    ("closest_pair_dc", closest_pair_dc, lambda: (_rng(8).random((11, 2)) * 10,), {}),
    ("tictactoe_minimax", tictactoe_minimax,
     lambda: (np.array([[1, -1, 0], [0, 1, 0], [-1, 0, 0]]),), {}),
    # generators, functools, itertools, operator
    ("windows_generator_means", windows_generator_means, lambda: (_rng(9).normal(size=14),), {}),
    ("reduce_matrix_chain", reduce_matrix_chain,
     lambda: ([_rng(10 + i).normal(size=(3, 3)) for i in range(4)],), {}),
    ("gcd_lcm_reduce", gcd_lcm_reduce, lambda: (np.array([12, 18, 30, 42]),), {}),
    ("map_filter_rows", map_filter_rows, lambda: (_rng(14).normal(size=(6, 3)),), {}),
    ("accumulate_running", accumulate_running, lambda: (_rng(17).uniform(0.5, 1.5, 10),), {}),
    ("product_grid_search", product_grid_search,
     lambda: (np.linspace(-1, 1, 12), np.linspace(-1, 1, 12) ** 2 + 0.05 * _rng(18).normal(size=12)), {}),
    ("groupby_sorted_runs", groupby_sorted_runs,
     lambda: (np.array([2, 0, 1, 2, 0, 2, 1, 1, 0]), _rng(20).normal(size=9)), {}),
    ("itemgetter_sort_records", itemgetter_sort_records,
     lambda: (np.array([71.5, 88.0, 64.0, 88.0, 93.5, 55.0]), np.array([21, 19, 21, 20, 19, 22])), {}),
    ("pairwise_segments", pairwise_segments, lambda: (np.cumsum(_rng(21).normal(size=(7, 2)), axis=0),), {}),
    ("newton_iterates_generator", newton_iterates_generator, lambda: (np.float64(10.0),), {}),
    ("partial_percentiles", partial_percentiles, lambda: (_rng(22).normal(size=15),), {}),
    ("dict_dispatch_stats", dict_dispatch_stats, lambda: (_rng(23).normal(size=11),), {}),
    # classes, closures, dataclasses
    ("kalman_class", kalman_class, lambda: (1.0 + 0.2 * _rng(24).normal(size=15),), {}),
    ("running_stats_class", running_stats_class, lambda: (_rng(25).normal(3.0, 2.0, 12),), {}),
    ("dataclass_particles", dataclass_particles,
     lambda: (_rng(26).random((4, 2)), _rng(27).normal(size=(4, 2))), {}),
    ("namedtuple_linefit", namedtuple_linefit,
     lambda: (np.arange(8.0), 2.0 * np.arange(8.0) - 1 + 0.3 * _rng(28).normal(size=8)), {}),
    ("closure_momentum", closure_momentum, lambda: (np.array([1.0, 4.0, 0.5]),), {}),
    ("lambdas_with_defaults", lambdas_with_defaults, lambda: (_rng(29).normal(size=6),), {}),
    ("callable_layers", callable_layers,
     lambda: (_rng(30).normal(size=(5, 3)), _rng(31).normal(size=(3, 4)), _rng(32).normal(size=(4, 3))), {}),
    ("shapes_inheritance", shapes_inheritance,
     lambda: (np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 3.0], [1.0, 4.0]]), 1.5), {}),
    ("vector_class_ops", vector_class_ops, lambda: (np.array([1.0, 2.0, 2.0]), np.array([0.5, -1.0, 3.0])), {}),
    ("sklearn_style_chain", sklearn_style_chain,
     lambda: (_rng(33).normal(size=(10, 2)), _rng(34).normal(size=10)), {}),
    # try/except, assert, early exits
    ("solve_or_lstsq", solve_or_lstsq,
     lambda: (np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]]), np.array([1.0, 2.0, 3.0])), {}),
    ("solve_or_lstsq_regular", solve_or_lstsq,
     lambda: (np.array([[3.0, 2.0, 0.0], [1.0, 4.0, 1.0], [0.0, 1.0, 5.0]]), np.array([1.0, 2.0, 3.0])), {}),
    ("inverse_or_pinv_each", inverse_or_pinv_each,
     lambda: ([np.array([[2.0, 1.0], [1.0, 3.0]]), np.array([[1.0, 2.0], [2.0, 4.0]])],), {}),
    ("assert_shapes_ols", assert_shapes_ols,
     lambda: (np.c_[np.ones(9), _rng(35).normal(size=(9, 2))], _rng(36).normal(size=9)), {}),
    ("two_sum_early_return", two_sum_early_return, lambda: (np.array([4, 9, 1, 7, 3, 8, 2]), 10), {}),
    ("first_prime_each_for_else", first_prime_each_for_else,
     lambda: (np.array([1, 2, 9, 11, 15, 17, 21, 23, 29]),), {}),
    ("while_true_secant", while_true_secant, lambda: (0.7,), {}),
    ("coefficient_of_variation_try", coefficient_of_variation_try,
     lambda: ({"a": np.array([1.0, 2.0, 3.0]), "b": np.array([-1.0, 1.0]), "c": np.array([5.0, 5.5, 4.5])},), {}),
    ("validate_then_normalize", validate_then_normalize,
     lambda: (np.c_[_rng(37).normal(size=(6, 2)), np.ones(6)],), {}),
    # mixed results
    ("fstring_report", fstring_report, lambda: (_rng(38).normal(10.0, 3.0, 20),), {}),
    ("describe_mixed", describe_mixed, lambda: (_rng(39).normal(size=(5, 3)),), {}),
    ("top_k_tuples", top_k_tuples, lambda: (_rng(40).random(8), np.arange(100, 108)), {}),
    # NumPy breadth
    ("einsum_tensordot_mix", einsum_tensordot_mix,
     lambda: (_rng(41).normal(size=(3, 3)), _rng(42).normal(size=(3, 3)), _rng(43).normal(size=3)), {}),
    ("apply_along_axis_custom", apply_along_axis_custom, lambda: (_rng(44).normal(size=(4, 6)),), {}),
    ("vectorize_piecewise_fn", vectorize_piecewise_fn, lambda: (np.array([0.0, 5.0, 10.0, 25.0, 40.0, 55.0, 90.0]),), {}),
    ("histogram_digitize_bincount", histogram_digitize_bincount,
     lambda: (_rng(46).normal(size=20), _rng(47).random(20)), {}),
    ("sliding_window_local_max", sliding_window_local_max, lambda: (_rng(48).random((6, 7)),), {}),
    ("pad_modes", pad_modes, lambda: (np.array([1.0, 2.0, 4.0, 7.0]),), {}),
    ("roll_meshgrid_ogrid", roll_meshgrid_ogrid, lambda: (6,), {}),
    ("linalg_suite", linalg_suite, lambda: (_rng(49).normal(size=(4, 4)),), {}),
    ("fft_suite", fft_suite, lambda: (_signal(32),), {}),
    ("polyfit_interp_eval", polyfit_interp_eval,
     lambda: (np.linspace(0, 3, 10), np.exp(-np.linspace(0, 3, 10)), np.array([-0.5, 0.25, 1.7, 3.5])), {}),
    ("cumprod_diff_prepend", cumprod_diff_prepend, lambda: (_rng(50).normal(0.01, 0.05, 10),), {}),
    ("unique_inverse_counts", unique_inverse_counts, lambda: (np.array([3, 1, 3, 2, 1, 3, 2, 2, 3, 1, 1, 3]),), {}),
    ("stable_sort_lexsort_search", stable_sort_lexsort_search,
     lambda: (np.array([5, 2, 9, 2, 5, 1, 9, 5]), np.array([0.3, 0.1, 0.9, 0.4, 0.2, 0.8, 0.5, 0.7])), {}),
    ("isclose_allclose", isclose_allclose,
     lambda: (np.array([1.0, 2.0, np.nan, 4.0, 5.0]), np.array([1.0005, 2.1, np.nan, 4.0, 5.0 + 1e-9])), {}),
    ("nan_functions", nan_functions,
     lambda: (np.array([[1.0, np.nan, 3.0, 2.0], [4.0, 5.0, np.nan, 1.0], [7.0, 8.0, 9.0, np.nan]]),), {}),
    ("clip_round_decimals", clip_round_decimals, lambda: (_rng(51).normal(0, 1.5, 8),), {}),
    ("uint8_image_ops", uint8_image_ops,
     lambda: (_rng(52).integers(0, 256, (4, 4), dtype=np.uint8), _rng(53).integers(0, 256, (4, 4), dtype=np.uint8)), {}),
    ("ix_fancy_repeats", ix_fancy_repeats, lambda: (_rng(54).integers(0, 50, (5, 5)),), {}),
    ("add_at_out_args", add_at_out_args, lambda: (np.array([0, 2, 2, 5, 1, 0, 2]), _rng(55).random(7)), {}),
    ("integer_dtypes_counters", integer_dtypes_counters, lambda: (_rng(56).integers(0, 40, 15),), {}),
    # cookbook and numerical recipes
    ("kalman_matrix_cv", kalman_matrix_cv, lambda: (np.arange(12.0) * 0.5 + 0.3 * _rng(59).normal(size=12),), {}),
    ("ransac_line", ransac_line,
     lambda: (np.linspace(0, 5, 15), np.r_[np.linspace(0, 5, 12) * 1.5 + 0.1, [9.0, -3.0, 12.0]]), {"rand": True}),
    ("dormand_prince", dormand_prince, lambda: (np.array([1.0, 0.0]),), {}),
    ("cg_with_callback", cg_with_callback,
     lambda: (np.array([[4.0, 1, 0, 0], [1, 3, 1, 0], [0, 1, 5, 2], [0, 0, 2, 6]]), np.array([1.0, 2.0, 0.0, 1.0])), {}),
    # images
    ("canny_steps", canny_steps, lambda: (_img(60),), {}),
    ("components_bfs_deque", components_bfs_deque, lambda: (_mask(),), {}),
    # audio
    ("autocorr_pitch", autocorr_pitch, lambda: (np.sin(2 * np.pi * 120 * np.arange(64) / 800.0),), {}),
    # finance
    ("black_scholes_mc", black_scholes_mc, lambda: (), {"rand": True}),
    ("portfolio_class_metrics", portfolio_class_metrics, lambda: (_prices(66), [0.5, 0.3, 0.2]), {}),
    # graphs
    ("dijkstra_heapq", dijkstra_heapq, lambda: (_graph(68),), {}),
    ("kruskal_union_find", kruskal_union_find, lambda: (_graph(69),), {}),
    ("dfs_count_paths", dfs_count_paths, lambda: (_dag(), 0, 6), {}),
    ("pagerank_power_dict", pagerank_power_dict, lambda: ((_graph(70) > 0).astype(float) * np.tri(7, k=1),), {}),
    # geometry
    ("gift_wrapping_hull", gift_wrapping_hull, lambda: (_rng(71).random((10, 2)),), {}),
    ("polygon_metrics_zip", polygon_metrics_zip,
     lambda: (np.array([[0.0, 0.0], [4.0, 0.0], [5.0, 2.0], [2.0, 4.0], [-1.0, 2.0]]),), {}),
    ("point_in_polygon_winding", point_in_polygon_winding,
     lambda: (np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [2.0, 1.5], [0.0, 4.0]]),
              np.array([[1.0, 1.0], [2.0, 3.0], [3.5, 3.0], [5.0, 1.0], [0.5, 3.5]])), {}),
    ("segment_intersections", segment_intersections, lambda: (_rng(72).random((6, 4)),), {}),
    # games and puzzles
    ("life_class_until_stable", life_class_until_stable,
     lambda: (np.pad(np.array([[0, 1, 0], [0, 1, 0], [0, 1, 0]]), 2),), {}),
    ("sudoku4_backtrack", sudoku4_backtrack,
     lambda: (np.array([[1, 0, 0, 4], [0, 0, 1, 0], [0, 1, 0, 0], [4, 0, 0, 1]]),), {}),
    # ML from scratch
    ("gmm_em_steps", gmm_em_steps, lambda: (np.r_[_rng(76).normal(0, 1, 12), _rng(77).normal(5, 1, 10)],), {}),
    ("perceptron_class_epochs", perceptron_class_epochs,
     lambda: (np.array([[2.0, 1.0], [1.0, 3.0], [-1.0, -2.0], [-2.0, -1.0], [1.5, 0.5], [-0.5, -1.5]]),
              np.array([1, 1, -1, -1, 1, -1])), {}),
    ("softmax_regression_early_stop", softmax_regression_early_stop, lambda: (*_blobs(79),), {}),
    ("pca_class_roundtrip", pca_class_roundtrip,
     lambda: (_rng(80).normal(size=(10, 4)) @ np.diag([3.0, 1.5, 0.5, 0.1]),), {}),
    ("decision_tree_dict_recursive", decision_tree_dict_recursive, lambda: (*_blobs(83, 4),), {}),
    # text
    ("char_histogram_bytes", char_histogram_bytes, lambda: (_text("the quick brown fox jumps over the lazy dog, the end"),), {}),
    ("bag_of_words_tokens", bag_of_words_tokens,
     lambda: ([np.array([0, 1, 2, 1]), np.array([2, 3, 3, 4, 0]), np.array([5, 6, 7, 1, 1, 2])],), {}),
    ("bigram_counts_dict", bigram_counts_dict, lambda: (np.array([1, 2, 3, 1, 2, 4, 1, 2, 3, 3]),), {}),
    ("caesar_uint8", caesar_uint8, lambda: (_text("Hello, World xyz"),), {}),
    ("run_length_encode_string", run_length_encode_string, lambda: (_text("aaabccddddde"),), {}),
]
