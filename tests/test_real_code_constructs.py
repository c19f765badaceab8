"""Constructs found in real NumPy code (NPBench kernels and everyday code), each compiled
and checked against NumPy: arrays made by ``np.ndarray(shape)``, grids from ``np.mgrid``
and ``np.ogrid``, ``np.r_``/``np.c_`` with traced parts, ``a.shape = ...``, NumPy arrays
the function holds read with traced indices, and ``np.add(a, b, out)``-style calls on
the ``np`` module inside loops.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import nptf
from numpy import ndarray
from harness import check_against_numpy

TABLE = np.array([0.5, 1.5, 2.5, 3.5, 4.5])


# ------------------------------------------------ np.ndarray(shape, dtype)
def energies_into_ndarray(x, steps):
    # nbody: KE = np.ndarray(Nt + 1, dtype=np.float64); KE[0], PE[0] = ...
    ke = np.ndarray(steps + 1, dtype=np.float64)
    pe = np.ndarray(steps + 1, dtype=np.float64)
    ke[0], pe[0] = x.sum(), (x * x).sum()
    for i in range(steps):
        x = x * 0.5
        ke[i + 1], pe[i + 1] = x.sum(), (x * x).sum()
    return ke, pe


def columns_into_ndarray(a):
    # vadv: ccol = np.ndarray((I, J, K), dtype=...); ccol[:, :, k] = ...
    i, j, k = a.shape
    col = np.ndarray((i, j, k), dtype=a.dtype)
    plain = ndarray((i, j))            # the default dtype, float64
    for m in range(k):
        col[:, :, m] = a[:, :, m] * (m + 1)
    plain[...] = col.sum(axis=2)
    return col, plain


def test_ndarray_constructor_makes_traced_memory(jit):
    x = np.linspace(0.0, 1.0, 6)
    check_against_numpy(energies_into_ndarray, x, 3, jit=jit)
    check_against_numpy(energies_into_ndarray, x, 12, jit=jit)    # a graph loop
    check_against_numpy(columns_into_ndarray, np.arange(24, dtype=np.float32).reshape(2, 3, 4),
                        jit=jit)


def test_ndarray_over_a_buffer():
    def view_of_table(x):
        return x + np.ndarray((2, 2), dtype=np.float64, buffer=TABLE)
    check_against_numpy(view_of_table, np.ones((2, 2)))

    def view_of_traced(x):
        return np.ndarray((2,), dtype=x.dtype, buffer=x)
    with pytest.raises(nptf.UnsupportedError, match=r"np.ndarray\(shape, buffer=...\)"):
        nptf.compile(view_of_traced, fallback="raise")(np.ones(4))
    with pytest.warns(RuntimeWarning, match="runs with NumPy"):
        got = nptf.compile(view_of_traced)(np.ones(4))
    assert np.array_equal(got, np.ones(2))


# --------------------------------------------------------- mgrid, ogrid
def escape_counts(x, threshold):
    # mandelbrot2: Xi, Yi = np.mgrid[0:xn, 0:yn]; N_[Xi[I], Yi[I]] = i + 1
    n, m = x.shape
    xi, yi = np.mgrid[0:n, 0:m]
    counts = np.zeros((n, m), dtype=np.int64)
    big = x > threshold
    counts[xi[big], yi[big]] = 7
    return counts, xi[big], yi.T


def float_grids(x):
    gx, gy = np.mgrid[0:1:4j, -1:1:3j]
    ox, oy = np.ogrid[0:4, 0:3]
    line = np.mgrid[0:2:0.5]
    return x * gx + gy, ox * x + oy, line


def test_mgrid_and_ogrid_are_graph_values(jit):
    x = np.random.default_rng(0).random((4, 3))
    check_against_numpy(escape_counts, x, 0.5, jit=jit)
    check_against_numpy(float_grids, x, jit=jit)


def cartesian(a, b):
    # numpy-100's cartesian product: an index grid, reshaped, transposed, written into
    ix = np.indices((len(a), len(b)), dtype=int).reshape(2, -1).T
    ix[:, 0] = a[ix[:, 0]]
    ix[:, 1] = b[ix[:, 1]]
    G = np.mgrid[0:2, 0:3].reshape(2, -1).T
    G[:, 1] += 1
    X, Y = np.meshgrid(a, b)       # copies NumPy's own, writable
    X[0, 0] = 9
    Z = X.reshape(-1, 2).T
    Z[0, 1] = 7
    return ix, G, X, Y, Z


def test_grids_are_new_c_ordered_writable_arrays(jit):
    check_against_numpy(cartesian, np.array([5, 6, 7]), np.array([1, 2]), jit=jit)


# ------------------------------------------------------------ np.r_, np.c_
def run_lengths(a):
    # run-length encoding: the starts of runs, a part of run-time size
    n = len(a)
    starts = np.r_[0, np.flatnonzero(np.diff(a)) + 1]
    lengths = np.diff(np.r_[starts, n])
    return a[starts], lengths


def joined(x, s):
    return (np.r_[x, 1.5, s, 0:3, x[:2]], np.r_[x.sum(), 2], np.c_[x, x * 2],
            np.r_["0,2", x, x], np.r_["-1,2,0", x, x], np.c_[x[:, None], x],
            np.r_[np.float32(1), x.astype(np.float32)], np.r_[x.astype(np.float32), 2.5],
            np.r_[-1:1:5j, x], np.r_["1,3,1", x[:3], x[:3]], np.r_[x[x > 1], 7])


def test_r_and_c_with_traced_parts(jit):
    check_against_numpy(run_lengths, np.array([1, 1, 2, 2, 2, 3, 1, 1]), jit=jit)
    check_against_numpy(run_lengths, np.array([4.0]), jit=jit)
    check_against_numpy(joined, np.arange(4.0), 3, jit=jit)
    check_against_numpy(joined, np.arange(5, dtype=np.float32), 2, jit=jit)


def test_r_with_a_matrix_directive_is_refused():
    def as_matrix(x):
        return np.r_["r", x, x]
    with pytest.raises(nptf.UnsupportedError, match=r"np.r_\['r', ...\]"):
        nptf.compile(as_matrix, fallback="raise")(np.ones(3))


# ---------------------------------------------------------------- a.shape = s
def flatten_in_place(x):
    # mandelbrot2: Xi.shape = Yi.shape = C.shape = xn * yn
    y = x * 2
    z = y
    first_row = y[0]
    y.shape = y.size
    w = z
    w.shape = (y.size // 2, 2)         # the same object: y and z change shape too
    y[1, 0] = -1.0                     # a view taken before the change sees the write
    grid_x, grid_y = np.mgrid[0:2, 0:3]
    grid_x.shape = grid_y.shape = 6
    return y, z.shape, first_row, grid_x + grid_y


def test_setting_shape_reshapes_the_array_object(jit):
    check_against_numpy(flatten_in_place, np.arange(6.0).reshape(2, 3), jit=jit)


@pytest.mark.parametrize("fn, error", [
    (lambda x: setattr(x.T, "shape", x.size), AttributeError),   # a copy would be needed
    (lambda x: setattr(x + 1, "shape", 7), ValueError),           # the wrong size
    (lambda x: setattr(x.sum(), "shape", (1,)), AttributeError),  # a NumPy scalar
])
def test_setting_shape_fails_where_numpy_fails(fn, error):
    check_against_numpy(fn, np.arange(6.0).reshape(2, 3))
    with pytest.raises(error):
        nptf.compile(fn, fallback="raise")(np.arange(6.0).reshape(2, 3))


# ------------------------------------------------- held arrays, traced reads
def lookup(i, x):
    # A module-level table read at traced positions, by an index array, a mask and a slice.
    return TABLE[i], TABLE[x > 2.0], TABLE[i[0]:i[0] + 2], TABLE[..., i[1]]


def test_a_numpy_array_the_function_holds_reads_at_traced_indices(jit):
    check_against_numpy(lookup, np.array([1, 3]), TABLE, jit=jit)
    check_against_numpy(lookup, np.array([-3, 0]), TABLE * 0.5, jit=jit)


def test_a_write_through_a_traced_view_of_a_held_array_is_refused():
    def write_into_table(i):
        view = TABLE[i:i + 2]
        view[0] = 0.0
        return view

    with pytest.raises(ValueError, match="read-only"):
        nptf.compile(write_into_table, fallback="raise")(np.int64(1))
    assert TABLE[1] == 1.5


# ---------------------------------------------- np.add(a, b, out) in loops
def iterate_in_place(z, c, n):
    # mandelbrot2: np.multiply(Z, Z, Z); np.add(Z, C, Z) in a loop; `add` is also a set's
    # method, and the module `np` is not loop state.
    for _ in range(n):
        np.multiply(z, z, z)
        np.add(z, c, z)
        if n > 100:
            z = np.append(z, c)
    return z


def test_module_functions_named_like_container_methods_in_loops(jit):
    z = np.full(4, 0.1 + 0.1j)
    c = np.linspace(-0.5, 0.5, 4) + 0.2j
    check_against_numpy(iterate_in_place, z, c, 3, jit=jit)
    check_against_numpy(iterate_in_place, z, c, 20, jit=jit)


def test_an_index_with_an_ellipsis_gives_a_0d_array(jit):
    # NumPy: x[..., i] of a 1-d x is a 0-d array, x[i] a scalar, for a traced i too.
    fn = lambda x, i: (x[..., i[1]], x[i[1]], x[..., 1])  # noqa: E731
    check_against_numpy(fn, np.arange(5.0), np.array([1, 3]), jit=jit)


# ------------------------------------- Python numbers taken from arrays
def numbers_from_arrays(X, labels):
    total = float(np.sum(X))
    k = int(np.argmax(labels))              # naive Bayes, k-means: the chosen class
    done = bool(labels[k] > 0)
    scaled = total / 3 + k                  # Python arithmetic on the numbers
    if done:                                # a condition
        scaled = scaled * 2
    steps = 0
    for _ in range(int(labels[1]) + 2):     # a loop bound
        steps += 1
    return total, k, done, scaled, X[int(labels[0])], steps, int(X[0, 0] * -3.7), float(k)


@pytest.mark.parametrize("x00", [0.0, 1.5, -2.5, np.nan, np.inf, 1e30],
                         ids=["zero", "positive", "negative", "nan", "inf", "past_int64"])
def test_python_numbers_taken_from_arrays(x00, jit):
    """float(), int() and bool() of one element are Python numbers to the code after them:
    int() truncates, raises Python's errors for NaN and infinities, and an int past int64
    (Python's own) runs the call with NumPy."""
    X = np.arange(6.0).reshape(3, 2)
    X[0, 0] = x00
    labels = np.array([1, 0, 2])
    if x00 == 1e30:
        with pytest.warns(RuntimeWarning, match="past int64"):
            got = nptf.compile(numbers_from_arrays, jit_compile=jit)(X, labels)
        assert got[6] == numbers_from_arrays(X, labels)[6]
        return
    got = check_against_numpy(numbers_from_arrays, X, labels, jit=jit)
    if got is not None:
        assert [type(v) for v in got] == [float, int, bool, float, np.ndarray, int, int, float]


# ------------------------------------------------ `in` on arrays and lists of traced numbers
def top_k_hits(probs, y, k=2):
    topk = np.argsort(probs, axis=1)[:, -k:]
    hits = 0
    for i in range(len(y)):
        if y[i] in topk[i]:                 # (topk[i] == y[i]).any()
            hits += 1
    return hits / len(y)


def first_unplayed_arm(counts):
    if 0 in counts:
        return int(np.where(counts == 0)[0][0])
    return -1


def kept_if_not_in(a, b):
    out = []
    for v in a:
        if v not in b:
            out.append(v)
    return np.array(out)


def class_codes(y):
    n = 0
    for v in y:
        if v in (1, 3):
            n += 1
        elif v in [2.0, np.float64(7.5)]:
            n += 10
    return n


def membership_values(a, x):
    pair = [a[0], a[1] * 2]
    return x in a, x not in a, x in pair, a[2] in pair, 5 in pair, "w" in {"w": a}


def row_in_matrix(M, r):
    return r in M


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_in_on_arrays(jit):
    """``x in a`` with ``a`` an array is NumPy's ``(a == x).any()`` and ``x in [...]``
    Python's test of each item: a bool the data decide. It was refused (bool() of a
    traced value) at every ``if y[i] in topk[i]:``."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        check_against_numpy(top_k_hits, np.random.RandomState(0).rand(6, 4),
                            np.array([0, 1, 3, 2, 0, 1]), jit=jit)
        check_against_numpy(first_unplayed_arm, np.array([1.0, 0.0, 2.0]), jit=jit)
        check_against_numpy(first_unplayed_arm, np.array([1.0, 3.0]), jit=jit)
        check_against_numpy(kept_if_not_in, np.array([1, 2, 3, 4]), np.array([2, 4]), jit=jit)
    check_against_numpy(class_codes, np.array([1, 2, 3, 7, 0]), jit=jit)
    check_against_numpy(class_codes, np.array([1.0, 2.0, 7.5, 7.0]), jit=jit)
    for x in (2, 4.0, 9):
        check_against_numpy(membership_values, np.array([1.0, 2.0, 4.0]), x, jit=jit)
    check_against_numpy(row_in_matrix, np.arange(6).reshape(2, 3), np.array([3, 9, 9]), jit=jit)
    check_against_numpy(row_in_matrix, np.arange(6).reshape(2, 3), np.array([3, 9]), jit=jit)


def nearest_label(sample, X_train, y_train, k=3):
    """np.argsort of a Python list of traced numbers."""
    idx = np.argsort([np.linalg.norm(sample - x) for x in X_train])[:k]
    return np.bincount(np.array([y_train[j] for j in idx])).argmax()


def test_argsort_of_a_list_of_traced_numbers():
    rng = np.random.default_rng(5)
    check_against_numpy(nearest_label, rng.normal(size=2), rng.normal(size=(6, 2)),
                        np.array([0, 1, 1, 0, 2, 1]))


def morphology(mask, se=None):
    """A structuring element made inside the function picks the offsets in Python."""
    if se is None:
        se = np.ones((3, 3), dtype=bool)
    r0, r1 = se.shape[0] // 2, se.shape[1] // 2
    offsets = [(di - r0, dj - r1) for di in range(se.shape[0])
               for dj in range(se.shape[1]) if se[di, dj]]
    p = np.pad(mask, ((r0, r0), (r1, r1)))
    out = np.zeros_like(mask)
    for di, dj in offsets:
        out |= p[r0 + di:r0 + di + mask.shape[0], r1 + dj:r1 + dj + mask.shape[1]]
    return out, int(se.sum())


def stencil_from_constants(u):
    """Python decisions on values computed from constants: a kernel's nonzero weights, a
    count, a tolerance, a DP table filled in Python, an index read from a constant."""
    k = np.array([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]])
    out = np.zeros((u.shape[0] - 2, u.shape[1] - 2))
    for i in range(3):
        for j in range(3):
            if k[i, j] != 0:
                out += k[i, j] * u[i:i + out.shape[0], j:j + out.shape[1]]
    ways = np.zeros(8, dtype=np.int64)
    ways[0] = 1
    for coin in np.array([1, 2, 5]):
        for a in range(int(coin), 8):
            ways[a] += ways[a - coin]
    steps = int(np.ceil(np.log2(ways[7])))
    tol = float(np.finfo(np.float64).eps * k.size)
    for _ in range(steps):
        out = out * 0.5
    return out, ways, steps, out[int(np.argmax(k[1]))] * tol if tol > 0 else out


def test_values_known_while_tracing_answer_python(jit):
    """Arrays the function builds from constants (a structuring element, a kernel, a DP
    table over static sizes) are known while tracing: ``if se[i, j]:``, ``int(...)`` and
    an index read from them are Python decisions, as NumPy makes them, where they were a
    conversion error. The graph keeps the equations."""
    rng = np.random.default_rng(3)
    mask = rng.random((6, 7)) > 0.6
    check_against_numpy(morphology, mask, jit=jit)
    check_against_numpy(stencil_from_constants, rng.random((6, 5)), jit=jit)


def test_values_of_arguments_stay_traced(jit):
    """An argument's values are not known while tracing: the offsets a structuring element
    passed in selects are a list the data grow, not a Python decision."""
    mask = np.random.default_rng(3).random((6, 7)) > 0.6
    for se in (np.eye(3, dtype=bool), np.zeros((3, 3), bool), np.ones((1, 3), bool)):
        check_against_numpy(morphology, mask, se, jit=jit)


class DecisionStump:
    def __init__(self):
        self.polarity = 1
        self.feature_idx = None
        self.threshold = None
        self.alpha = None


def adaboost(X, y, n_clf=3):
    """ML-from-scratch AdaBoost: a new stump object per round, attributes None until
    a traced `if` finds the least error, the error summed by Python's sum() over the
    misclassified weights (a length only the data know)."""
    n_samples, n_features = X.shape
    w = np.full(n_samples, 1 / n_samples)
    clfs = []
    for _ in range(n_clf):
        clf = DecisionStump()
        min_error = float("inf")
        for feature_i in range(n_features):
            X_column = X[:, feature_i]
            for threshold in np.unique(X_column):
                p = 1
                predictions = np.ones(n_samples)
                predictions[X_column < threshold] = -1
                error = sum(w[y != predictions])
                if error > 0.5:
                    error = 1 - error
                    p = -1
                if error < min_error:
                    clf.polarity = p
                    clf.threshold = threshold
                    clf.feature_idx = feature_i
                    min_error = error
        clf.alpha = 0.5 * np.log((1.0 - min_error + 1e-10) / (min_error + 1e-10))
        predictions = np.ones(n_samples)
        negative = clf.polarity * X[:, clf.feature_idx] < clf.polarity * clf.threshold
        predictions[negative] = -1
        w *= np.exp(-clf.alpha * y * predictions)
        w /= np.sum(w)
        clfs.append(clf)
    return [(c.polarity, c.threshold, c.feature_idx, c.alpha) for c in clfs], w


def never_better(X):
    clf = DecisionStump()
    for t in np.unique(X[:, 0]):
        if t > 1e9:
            clf.threshold = t
    return clf.threshold, clf.polarity


def sums_of_selections(w, y):
    return sum(w[y > 0]), sum(w[y > 0], 10), sum(y[y > 1]), sum((y > 1)[y > 0])


def test_stumps_found_by_traced_comparisons(jit):
    """Attributes that are None before a traced `if` (or a graph loop) and numbers after
    it join its variables; a new object per iteration of a loop of a known trip count runs
    that loop in Python; Python's sum() of an array of run-time length adds its items."""
    rng = np.random.default_rng(4)
    X = rng.normal(size=(10, 2))
    y = np.where(X[:, 1] > 0.1, 1, -1)
    check_against_numpy(adaboost, X, y, jit=jit)
    check_against_numpy(never_better, X, jit=jit)
    check_against_numpy(sums_of_selections, np.linspace(0.0, 1.0, 6),
                        np.array([0, 1, 2, 3, 2, 1]), jit=jit)
    check_against_numpy(sums_of_selections, np.linspace(0.0, 1.0, 6), np.zeros(6, int),
                        jit=jit)


def first_significant(z, x, t):
    """The first item a generator gives, or a default: the data pick it."""
    return (next((int(i) for i in np.flatnonzero(np.abs(z) > 1.96)), None),
            next((i for i, v in enumerate(x) if v > t), -1),
            next((v for v in x[x > t]), 0.0),
            next((v * 2 for v in [1.0, 2.0, 3.0] if v > 1.5), 0.0))


def test_next_of_a_generator_the_data_filter(jit):
    """``next((... for ... if ...), default)``, the first match or a default, over an
    array of run-time length or with a filter on traced values."""
    x = np.array([1.0, 5.0, 2.0])
    check_against_numpy(first_significant, np.array([0.5, 2.5, -3.0]), x, 1.5, jit=jit)
    check_against_numpy(first_significant, np.array([0.5, 0.1]), x, 9.0, jit=jit)


def _jacobi_solve(A, b, tol=1e-10, maxiter=300):
    x = np.zeros(len(b))
    D = np.diag(A)
    for it in range(1, maxiter + 1):
        x_old = x.copy()
        x = (b - (A - np.diag(D)) @ x) / D
        if np.linalg.norm(x - x_old, np.inf) < tol * max(1.0, np.linalg.norm(x, np.inf)):
            return x, it, True
    return x, maxiter, False


@pytest.mark.parametrize("maxiter", [300, 5])
def test_python_bools_returned_inside_and_after_a_long_loop_keep_it_a_graph_loop(maxiter):
    # ``True`` on convergence, ``False`` after the loop: both Python bools, so the loop
    # stays one graph loop (no unrolling of its iterations, no warning).
    rng = np.random.default_rng(3)
    A, b = rng.random((6, 6)) + 6 * np.eye(6), rng.random(6)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = check_against_numpy(_jacobi_solve, A, b, 1e-10, maxiter)
    assert type(got[2]) is bool


def _newton_polyval(coeffs, x0, tol=1e-12, max_iter=60):
    dcoeffs = np.polyder(coeffs)
    x = x0
    for i in range(max_iter):
        fx = np.polyval(coeffs, x)
        if abs(fx) < tol:
            return x, i
        x = x - fx / np.polyval(dcoeffs, x)
    return x, max_iter


@pytest.mark.parametrize("x0, max_iter", [(2.0, 60), (2.0945514815423265, 60), (2.0, 2)])
def test_a_number_of_either_kind_returned_inside_a_long_loop(x0, max_iter):
    # ``x`` is the Python float x0 until the first step makes it a NumPy float64: which
    # one the call returns, the data choose, in one graph loop.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = check_against_numpy(_newton_polyval, np.array([1.0, 0.0, -2.0, -5.0]), x0,
                                  1e-12, max_iter)
    assert type(got[0]) is type(_newton_polyval(np.array([1.0, 0.0, -2.0, -5.0]), x0,
                                                1e-12, max_iter)[0])


class _Dense:
    def __init__(self, n_in, n_out, rng):
        self.weights = 0.1 * rng.standard_normal((n_in, n_out))
        self.biases = np.zeros((1, n_out))

    def forward(self, inputs):
        self.inputs = inputs
        self.output = inputs @ self.weights + self.biases

    def backward(self, dvalues):
        self.dweights = self.inputs.T @ dvalues
        self.dbiases = dvalues.sum(axis=0, keepdims=True)
        self.dinputs = dvalues @ self.weights.T


class _Momentum:
    def __init__(self, lr=0.1, momentum=0.9):
        self.lr, self.momentum, self.iterations = lr, momentum, 0

    def update(self, layer):
        if not hasattr(layer, "weight_momentums"):      # made on first use
            layer.weight_momentums = np.zeros_like(layer.weights)
        layer.weight_momentums = self.momentum * layer.weight_momentums - \
            self.lr * layer.dweights
        layer.weights += layer.weight_momentums
        layer.biases -= self.lr * layer.dbiases
        self.iterations += 1


def _train_objects(X, y, epochs=60):
    layer, opt = _Dense(X.shape[1], 1, np.random.default_rng(0)), _Momentum()
    losses = []
    for epoch in range(epochs):
        layer.forward(X)
        err = layer.output - y
        losses.append(float(np.mean(err ** 2)))
        layer.backward(2 * err / len(y))
        opt.update(layer)
    return layer.weights, np.array(losses), opt.iterations


def test_objects_whose_attributes_the_first_epoch_makes_train_in_one_graph_loop():
    # ``layer.output`` and the optimizer's momentum exist after the first epoch: it runs
    # in Python, the other epochs as one graph loop (no unrolling, no warning).
    rng = np.random.default_rng(1)
    X = rng.standard_normal((20, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_against_numpy(_train_objects, X, X @ np.array([[1.0], [-2.0], [0.5]]))


def smoothed(x, sigma=1.0):
    sigmas = [sigma] * x.ndim if np.isscalar(sigma) else list(sigma)
    return [np.isscalar(v) for v in (sigma, x.sum(), x[0], x[:1], np.asarray(sigma))], \
        sum(s * 2 for s in sigmas)


def test_isscalar_of_traced_numbers_is_numpys():
    """A float argument, ``x.sum()`` and an element are scalars to ``np.isscalar``; arrays,
    0-d ones included, are not."""
    check_against_numpy(smoothed, np.arange(3.0))
    check_against_numpy(smoothed, np.ones((2, 2)), 0.5)
    check_against_numpy(smoothed, np.ones((2, 2)), (0.5, 2.0))


def fit_trend_ends(y, k):
    idx = np.flatnonzero(np.isfinite(y))
    A = np.c_[idx[:k], np.ones(k)]
    B = np.r_['0,2', y[idx], y[idx]]
    return np.linalg.lstsq(A, y[idx[:k]], rcond=None)[0], B.shape


def test_c_and_r_of_arrays_of_run_time_size():
    y = np.array([np.nan, 1.0, 2.5, np.nan, 4.0, 5.5])
    check_against_numpy(fit_trend_ends, y, 3)


def above_a_rising_bar(c, x):
    total, n = 0.0, 0

    def above(v):
        return v > x

    for i in range(len(c)):
        if above(c[i]):
            total += c[i]
        x = x + 0.1
    while n < 20 and above(c[n] + 1.0):
        x = x + 0.05
        n += 1
    return total, n, x


def test_a_nested_function_reads_the_value_a_loop_rebinds():
    """``above`` reads ``x`` from its closure while the loop around its call rebinds ``x``
    (a graph loop, traced once, and a `while` whose test calls it): each call sees the
    loop's current value, as in Python."""
    c = np.linspace(-1.0, 2.0, 24)
    check_against_numpy(above_a_rising_bar, c, 0.0)
    check_against_numpy(above_a_rising_bar, c[:5], -0.5)
    check_against_numpy(above_a_rising_bar, np.linspace(0.0, 4.0, 24), -1.0)


def confusion_by_label_index(y_true, y_pred):
    labels = np.union1d(y_true, y_pred)
    index = {int(v): i for i, v in enumerate(labels)}
    t = np.array([index.get(int(v), -1) for v in y_true])
    p = np.array([index.get(int(v), -1) for v in y_pred])
    cm = np.zeros((labels.size, labels.size), dtype=np.int64)
    np.add.at(cm, (t, p), 1)

    def share(k):
        return cm[k, k] / max(1, len(index))
    return cm, share(0)


def test_a_dict_the_comprehensions_read_stays_the_functions_own():
    """A dict keyed by traced labels, read by comprehensions and a nested function: the
    converted code's own slots for it are not other holders of it."""
    check_against_numpy(confusion_by_label_index, np.array([0, 2, 1, 2, 0]),
                        np.array([0, 1, 1, 2, 2]))
