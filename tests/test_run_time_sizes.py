"""Arrays whose size becomes known only at run time inside compiled control flow: a
branch whose paths give different sizes, a loop that shrinks an array until it is empty,
``len()`` of such arrays, and NumPy arrays the function holds carried through loops."""
import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy, mismatch

TABLE = np.arange(4.0)


def shrink_until_empty(z, n):
    for i in range(n):
        if not len(z):
            break
        z = z[z > 0.1] * 0.9
    return z


def shrink_on_a_traced_condition(z, c):
    if c.sum() > 0:
        z = z[z > 0.5]
    return z * 2, len(z) + 1


def table_through_a_loop(x, n):
    t = TABLE
    for i in range(n):
        t = t * 0.5 + x
    return t


@pytest.mark.parametrize("jit", [None, False, True], ids=["auto", "graph", "xla"])
def test_sizes_known_at_run_time(jit):
    check_against_numpy(shrink_until_empty, np.linspace(0, 1, 50), 20, jit=jit)
    check_against_numpy(shrink_until_empty, np.linspace(0, 1, 50), 3, jit=jit)
    for c in (1.0, -1.0):
        check_against_numpy(shrink_on_a_traced_condition, np.linspace(0, 1, 5), np.full(2, c),
                            jit=jit)
    check_against_numpy(table_through_a_loop, np.ones(4), 12, jit=jit)


def imag_of_an_unread_broadcast(c):
    # The broadcast's values are never read: np.imag of a real array is zeros of its shape.
    return np.imag(np.logaddexp(c * c, c[c > 0]))


def where_of_a_masked_operand(c, x):
    return np.where(x > 0, c[c > 0], 0.0).shape


@pytest.mark.parametrize("jit", [None, False, True], ids=["auto", "graph", "xla"])
def test_broadcast_of_a_run_time_size_against_a_known_size(jit):
    """NumPy raises when a run-time size meets a known size other than 1, even where the
    result's values are never computed."""
    for c in ([1, -2, 3, 4], [1, 2, 3, 4], [-1, -2, 3, -4], [-1, -2, -3, -4]):
        c = np.array(c, np.int16)
        check_against_numpy(imag_of_an_unread_broadcast, c, jit=jit)
        check_against_numpy(where_of_a_masked_operand, c, np.ones(4), jit=jit)


def add_a_selection_in_place(a, c):
    a += np.arctan(np.flatnonzero(c > 1))       # (3, 1) += (n,): fits where n is 1
    return a


def multiply_into_out(c):
    b = np.zeros(3)
    np.multiply(b + 1, c[c > 2], out=b)         # (3,) out of a (n,) result: n is 1 or 3
    return b


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_in_place_operands_of_run_time_size_into_known_shapes(jit):
    """``a += v`` and ``ufunc(..., out=o)`` where ``v`` (a selection) has a size only the
    run knows: NumPy's rule (1 or the output's size, else ValueError) holds at run time;
    the trace raised a TypeError past the fallback."""
    for c in ([0, 2, 3, 4], [2, 3, 0, 0], [0, 0, 0, 0], [0, 1, 3, 0], [3, 3, 3, 0]):
        check_against_numpy(add_a_selection_in_place, np.ones((3, 1)), np.array(c), jit=jit)
        check_against_numpy(multiply_into_out, np.array(c), jit=jit)


def overlap_add(frames, rate, hop=2):
    """A phase vocoder's resynthesis: ``y``'s length follows ``rate`` (a Python float, so
    a value of the run), and each frame is added into a window of it."""
    steps = np.arange(0, 3, rate)
    y = np.zeros(frames.shape[1] + hop * (len(steps) - 1))
    for t in range(len(steps)):
        y[t * hop:t * hop + frames.shape[1]] += frames[t % len(frames)]
    return y


def scaled_into_a_selection(a, c):
    out = a[c > 0]              # (n, 3): n rows, as the data choose
    out *= np.arange(3.0)       # (3,) broadcasts
    out[:2] += np.ones((2, 3))  # (2, 3) into min(n, 2) rows: NumPy's ValueError where n < 2
    return out


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_in_place_into_places_of_run_time_size(jit):
    """``y[s:s + n] += v`` and ``out *= v`` where the written place has a size only the run
    knows and ``v`` a known one: NumPy's rule (the place's size is ``v``'s, or ``v``'s is
    1) holds at run time; the trace raised NumPy's ValueError on every call."""
    frames = np.arange(12.0).reshape(3, 4)
    for rate in (0.8, 1.0, 2.5):
        check_against_numpy(overlap_add, frames, rate, jit=jit)
    a = np.arange(12.0).reshape(4, 3)
    for c in ([1, 0, 1, 1], [0, 0, 1, 0], [1, 1, 1, 1]):
        check_against_numpy(scaled_into_a_selection, a, np.array(c), jit=jit)


def mask_beside_an_index(x, c):
    """Masks whose sizes only the run knows, beside an int or a slice (the aligned pairs
    of an alignment: ``pairs[both, 0]``)."""
    p = x[c > 0]
    both = p[:, 0] > 0.5
    return p[both, 0], p[both, 1].sum(), x[c > 0][p[:, 1] > 0.2, :]


def mask_of_another_size(x, c):
    return x[c > 0][c[c > 1] > 0, 0]


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_masks_of_run_time_size_beside_other_indices(jit):
    """``p[mask, 0]`` where the mask's size, or the axis', is known only at run time: the
    mask's coordinates, with NumPy's IndexError when the run's sizes differ (it was
    refused)."""
    x = np.random.RandomState(0).rand(6, 2)
    for c in ([1, 0, 1, 1, 0, 1], [0] * 6, [1] * 6):
        check_against_numpy(mask_beside_an_index, x, np.array(c), jit=jit)
    for c in ([2, 2, 1, 0, 0, 0], [2, 2, 0, 0, 0, 0]):
        check_against_numpy(mask_of_another_size, x, np.array(c), jit=jit)


def selection_into_fixed_places(a, c):
    a[[0, -1]] = np.where(c)[0]
    a[::2] = np.ravel(c[c > 1])
    return a


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_selection_written_into_places_of_known_size(jit):
    """A value whose size is known only at run time, written into places of a known size:
    one element broadcasts, as many as the places fill them, any other count is NumPy's
    ValueError (after the run)."""
    for c in ([0, 0, 2, 0], [3, 0, 2, 0], [0, 5, 0, 0], [0, 0, 0, 0], [1, 1, 4, 2]):
        check_against_numpy(selection_into_fixed_places, np.zeros((3, 1)),
                            np.array(c, np.int64), jit=jit)


# ------------------------------------------ sizes taken from data, used as numbers
def entropy_of_labels(y):
    s = 0.0
    for c in np.unique(y):                 # a loop over an array of run-time length
        p = len(y[y == c]) / len(y)
        s -= p * np.log(p)
    return s


def sum_of_squares_by_index(x):
    m = x[x > 0]
    s = 0.0
    for i in range(len(m)):
        s += m[i] ** 2 + m[-1 - i]
    return s


def ranges_of_run_time_length(x, lo):
    n = int(np.sum(x > 0))
    k = x[x > 0.5]
    return (np.arange(n), np.arange(n) * 0.5, np.arange(lo[0], n, 2), np.arange(0.5, len(k)),
            np.arange(n, lo[0], -1), np.arange(lo[1], dtype=np.float32))


def creation_of_run_time_size(x):
    m = x[x > 0]
    n = len(m)
    return (np.zeros(n), np.ones((2, n), np.int32), np.full(n, 3.0) + m, np.empty((n, 0)),
            np.full((n, 2), m.max()), np.zeros_like(m, shape=(n + 1,)).shape)


def one_hot(idx):
    k = idx.max() + 1
    out = np.zeros((len(idx), k))
    out[np.arange(len(idx)), idx] = 1
    return out


def scatter_into_run_time_size(x, idx):
    m = x[x > 0]
    m[0] = -1.0
    m[1:3] += 10.0
    np.add.at(m, idx, 1.0)
    return m


def index_past_a_run_time_size(x, i):
    m = x[x > 0]
    return m[i[0]]


def negative_size(x):
    return np.zeros(np.sum(x > 0) - 3)


def zero_step(x, s):
    return np.arange(0, len(x[x > 0]), s[0])


@pytest.mark.parametrize("jit", [None, False, True], ids=["auto", "graph", "xla"])
def test_sizes_from_data_are_numbers(jit):
    """``len()``, ``.shape`` and values of run-time sized arrays as loop bounds, in
    ``np.arange`` and as creation sizes, and writes into arrays of such sizes."""
    for y in ([0, 1, 1, 2, 2, 2, 5], [3, 3, 3]):
        check_against_numpy(entropy_of_labels, np.array(y), jit=jit)
    x = np.array([0.3, -1.0, 2.0, 0.7, -0.2, 1.5, 0.1])
    check_against_numpy(sum_of_squares_by_index, x, jit=jit)
    check_against_numpy(sum_of_squares_by_index, -x, jit=jit)
    check_against_numpy(ranges_of_run_time_length, x, np.array([1, 3]), jit=jit)
    check_against_numpy(creation_of_run_time_size, x, jit=jit)
    check_against_numpy(one_hot, np.array([0, 3, 1, 1, 2]), jit=jit)
    check_against_numpy(scatter_into_run_time_size, x, np.array([0, 0, -1]), jit=jit)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_bad_run_time_sizes_raise_numpys_errors(jit):
    x = np.array([0.3, -1.0, 2.0, 0.7])
    check_against_numpy(index_past_a_run_time_size, x, np.array([2]), jit=jit)
    check_against_numpy(index_past_a_run_time_size, x, np.array([-3]), jit=jit)
    check_against_numpy(index_past_a_run_time_size, x, np.array([3]), jit=jit)      # IndexError
    check_against_numpy(index_past_a_run_time_size, x, np.array([-4]), jit=jit)     # IndexError
    check_against_numpy(scatter_into_run_time_size, x, np.array([5]), jit=jit)      # IndexError
    check_against_numpy(negative_size, x, jit=jit)                                  # ValueError
    check_against_numpy(negative_size, np.ones(4), jit=jit)
    check_against_numpy(zero_step, x, np.array([0]), jit=jit)              # ZeroDivisionError
    check_against_numpy(zero_step, x, np.array([2]), jit=jit)


def zero_python_step(x, s):
    return np.arange(0, len(x[x > 0]), int(s[0]))


def non_finite_bound(x):
    return np.arange(0.0, x.max())


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_bad_arange_bounds_raise_numpys_errors(jit):
    x = np.array([0.3, -1.0, 2.0, 0.7])
    check_against_numpy(zero_python_step, x, np.array([0]), jit=jit)      # ZeroDivisionError
    check_against_numpy(zero_python_step, x, np.array([-1]), jit=jit)
    check_against_numpy(non_finite_bound, np.array([1.0, np.inf]), jit=jit)     # ValueError
    check_against_numpy(non_finite_bound, np.array([1.0, np.nan]), jit=jit)     # ValueError
    check_against_numpy(non_finite_bound, np.array([1.0, 2.5]), jit=jit)


def counts_from_data(x):
    n = int(np.sum(x > 0))
    m = x[x > 0]
    return (x.reshape(int(np.sum(x > 10)) + 2, -1), m.reshape(len(m), 1),
            np.linspace(0, 1, n), np.linspace(-1.0, 2.0, n, endpoint=False),
            np.eye(n), np.eye(n, 3, k=1, dtype=int), np.identity(n),
            np.repeat(x[:3], n), np.repeat(x.reshape(2, 4), n, axis=1),
            np.tile(x[:2], n), np.tile(x[:2], (n, 2)))


def counts_that_fail(x, which):
    n = int(np.sum(x > 0))
    if which == 0:
        return x.reshape(n, 3)              # ValueError: sizes do not multiply
    if which == 1:
        return np.repeat(x, n - 9)          # ValueError: negative
    return np.linspace(0, 1, n - 9)         # ValueError: negative


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_counts_known_only_at_run_time(jit):
    """Sizes and counts from the data in reshape, linspace, eye, identity, repeat and
    tile, with NumPy's errors where they do not fit."""
    for x in ([0.3, -1.0, 2.0, 0.7, -0.2, 1.5, 0.1, 4.0], [-0.3, -1.0, 2.0, -0.7, -0.2, -1.5,
                                                              0.1, -4.0]):
        check_against_numpy(counts_from_data, np.array(x), jit=jit)
    for which in range(3):
        check_against_numpy(counts_that_fail, np.array([0.3, -1.0, 2.0, 0.7, -0.2, 1.5, 0.1, 4.0]),
                            which, static_argnames=["which"], jit=jit)


def stride_permutations(y, R, K):
    for i in range(K):
        yv = np.reshape(y, (R ** i, R, R ** (K - i - 1)))
        y[:] = np.reshape(np.transpose(yv, axes=(1, 0, 2)), (R ** K,)) * 0.5
    return y


def test_a_reshape_to_sizes_of_the_loop_index_unrolls():
    """A reshape to sizes that follow the loop index (a Stockham FFT's stride
    permutation), then a write into the reshaped array: the loop runs unrolled, each
    iteration with its own static sizes (a graph loop would leave the write's memory
    unknown)."""
    with pytest.warns(RuntimeWarning, match="runs unrolled"):
        check_against_numpy(stride_permutations, np.arange(1024.0), 2, 10)


def robust_statistics(x):
    m = x[x > 0]
    q1, q3 = np.percentile(m, [25, 75])
    return np.median(m), q1, q3, np.nanmedian(x[x > -5]), np.quantile(m, 0.3, method="lower")


def median_of_nothing(x):
    return np.median(x[x > 10]), np.nanmedian(x[x > 10])


def quantile_of_nothing(x):
    return np.quantile(x[x > 10], 0.5)       # IndexError


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_quantiles_of_a_run_time_length(jit):
    """np.median, percentile, quantile and their nan forms of a selection (an IQR
    filter): NumPy's values, NaN for the median of nothing, IndexError for a quantile."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for x in ([0.3, -1.0, 2.0, 0.7, 5.0, 1.5, np.nan, 4.0], [0.3, -1.0, 2.0, 0.7]):
            check_against_numpy(robust_statistics, np.array(x), jit=jit)
        check_against_numpy(median_of_nothing, np.ones(3), jit=jit)
        check_against_numpy(quantile_of_nothing, np.ones(3), jit=jit)


def _selection_into_one_place(a, c, k):
    a[..., -1] = np.ravel(c)[np.ravel(c) > k]
    return a


def _selection_into_a_row(a, c, k):
    a[1] = c[c > k]
    return a


@pytest.mark.parametrize("k", [0, 5])
@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_a_selection_of_run_time_size_stored_into_fewer_dimensions(k, jit):
    """A value whose leading size is known only at run time, written where NumPy drops
    a leading 1: it is 1 (stored), or NumPy's ValueError after the run (0 selected)."""
    check_against_numpy(_selection_into_one_place, np.arange(5), np.array(3, np.int16), k,
                        jit=jit)
    check_against_numpy(_selection_into_a_row, np.zeros((3, 2)), np.array([[1.0, 7.0]]), k,
                        jit=jit)


# ------------------------------------------ comprehensions of run-time length
def class_statistics(X, y, X_test):
    # Gaussian naive Bayes: one row of statistics per class present in the data
    classes = np.unique(y)
    means = np.array([X[y == c].mean(axis=0) for c in classes])
    vars_ = np.array([X[y == c].var(axis=0) for c in classes]) + 1e-9
    priors = np.array([np.mean(y == c) for c in classes])
    log_lik = -0.5 * np.sum(np.log(2 * np.pi * vars_)[None, :, :]
                            + (X_test[:, None, :] - means[None]) ** 2 / vars_[None], axis=2)
    return classes[np.argmax(log_lik + np.log(priors), axis=1)], means


def comprehension_kinds(y, w):
    classes = np.unique(y)
    counts = [len(y[y == c]) for c in classes]             # Python ints
    pairs = [(c, i) for i, c in enumerate(classes)]        # tuples become rows
    squares = [i * i for i in range(len(classes))]         # a range of run-time length
    total = w[0]
    for k in counts:                                        # weak: w's float32 stays
        total = total + k
    scaled = np.asarray([float(np.sum(y == c)) for c in classes], dtype=np.float32)
    rows = [np.array([c, c + 1.5]) for c in classes]
    return (np.array(counts), np.stack(pairs), total, np.array(squares), scaled,
            len(counts), counts[0] * w[0], np.sum(counts), np.stack(rows, axis=1),
            np.concatenate(rows), np.concatenate(rows, axis=None), np.vstack(rows),
            np.hstack(rows), np.vstack(counts), np.hstack(scaled), np.mean(rows, axis=0),
            rows[-1])


def ragged_comprehension(y):
    return np.concatenate([y[y == c] for c in np.unique(y)])


def returned_comprehension(y):
    return [c * 2 for c in np.unique(y)]


def returned_rows(y):
    return [np.array([c, float(c) + 1]) for c in np.unique(y)], [float(c) for c in np.unique(y)]


def test_comprehensions_over_run_time_lengths(jit=None):
    rng = np.random.default_rng(3)
    X, X_test = rng.normal(size=(40, 3)), rng.normal(size=(7, 3))
    for y in (rng.integers(0, 3, 40), np.repeat([5, 1], 20)):
        check_against_numpy(class_statistics, X, y, X_test, jit=jit)
    check_against_numpy(comprehension_kinds, np.array([2, 7, 7, 2, 9]),
                        np.array([0.5], np.float32), jit=jit)
    for y in (np.array([1, 2, 2, 3]), np.array([0.5, 0.5]), np.zeros(0)):
        check_against_numpy(returned_comprehension, y, jit=jit)    # a list of NumPy scalars
        check_against_numpy(returned_rows, y, jit=jit)


def joined_comprehensions(D):
    """Neighbour joining's bookkeeping: the nodes kept, joined with the new one."""
    nodes = list(range(len(D)))
    pairs = []
    for new_id in range(len(D), 2 * len(D) - 2):
        n = len(D)
        i, j = np.unravel_index(np.argmin(D + np.eye(n) * 1e9), D.shape)
        keep = [k for k in range(n) if k != i and k != j]
        pairs.append((nodes[i], nodes[j]))
        nodes = [nodes[k] for k in keep] + [new_id]
        D = np.zeros((n - 1, n - 1)) + np.arange(n - 1.0) * (new_id % 3)
    both = [c * 2 for c in np.unique(D)] + [c for c in np.unique(D)[::-1]]
    return pairs, nodes, both, [] + both + [], len(both)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_lists_of_run_time_length_joined_with_plus(jit):
    """``[nodes[k] for k in keep] + [new_id]`` and the sum of two such lists: a list of the
    rows of both (it was refused)."""
    D = np.random.RandomState(0).rand(6, 6)
    check_against_numpy(joined_comprehensions, D + D.T, jit=jit)


def test_comprehensions_that_cannot_compile_say_why():
    y = np.array([1, 2, 2, 3])
    for fn, what in [(ragged_comprehension, "ragged list")]:
        with pytest.raises(nptf.UnsupportedError, match=what):
            nptf.compile(fn, fallback="raise")(y)
        with pytest.warns(RuntimeWarning, match="runs with NumPy"):
            got = nptf.compile(fn)(y)
        assert np.array_equal(np.concatenate([np.atleast_1d(g) for g in got]),
                              np.concatenate([np.atleast_1d(g) for g in fn(y)]))


def test_an_empty_comprehension_runs_with_numpy():
    def means(X, y):
        return np.array([X[y == c].mean(axis=0) for c in np.unique(y[y > 100])])
    X, y = np.ones((4, 2)), np.arange(4)
    with pytest.raises(nptf.OutsideTheGraphError, match="list comprehension .* is empty"):
        nptf.compile(means, fallback="raise")(X, y)
    got = nptf.compile(means)(X, y)
    assert got.shape == (0,) and got.dtype == np.float64


# ------------------------------------------ ints and sample points of run-time size
def first_and_last_above(x, t):
    idx = np.where(x > t)[0]
    grid = x.reshape(2, -1)
    rows = grid[grid[:, 0] > t]
    return idx[0], x[x > t][-1], rows[0, 1], rows[-1]


def fill_gaps(t, v):
    # sensor cleaning: interpolate the bad readings from the good ones
    v = v.copy()
    v[v < 0] = np.nan
    bad = np.isnan(v)
    v[bad] = np.interp(t[bad], t[~bad], v[~bad])
    return np.clip(v, 0, 10)


def interp_on_selected_points(x, xp, fp, k):
    m = xp > k
    return (np.interp(x, xp[m], fp[m]), np.interp(x, xp[m], fp[m], left=-1.0,
                                                  right=np.float32(9)),
            np.interp(2.5, xp[m], fp[m]), np.searchsorted(xp[m], x),
            np.searchsorted(xp[m], x, side="right"))


def interp_of_unequal_lengths(x, xp, fp):
    return np.interp(x, xp[xp > 1], fp[fp > 0])


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_ints_index_run_time_sizes_as_numpy_does(jit):
    x = np.array([0.5, 3.0, -1.0, 4.0, 2.0, 0.0])
    for t in (1.0, 3.5, 10.0):      # the last: nothing selected, IndexError
        check_against_numpy(first_and_last_above, x, t, jit=jit)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_interp_on_sample_points_of_run_time_size(jit):
    rng = np.random.default_rng(1)
    t = np.linspace(0, 1, 30)
    check_against_numpy(fill_gaps, t, rng.normal(size=30) + 1, jit=jit)
    x, xp = np.linspace(-1, 6, 15), np.arange(5.0)
    fp = np.array([1.0, 3.0, -2.0, 4.0, np.inf])
    for k in (-1, 2.5, 3.5, 10):    # 10: no points, ValueError
        check_against_numpy(interp_on_selected_points, x, xp, fp, k, jit=jit)
    check_against_numpy(interp_of_unequal_lengths, x, xp, fp, jit=jit)   # ValueError


def rolled_selections(x, k):
    m = x[x > 0]
    rows = x.reshape(2, -1)[x.reshape(2, -1)[:, 0] > -100]
    return (np.roll(m, 1), np.roll(m, -2), np.roll(m, k), np.roll(rows, 1),
            np.roll(rows, 1, axis=0), np.roll(rows, (1, 2), axis=(0, 1)))


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_roll_of_run_time_sizes(jit):
    for x in ([1.0, -2, 3, 4, -5, 6], [-1.0] * 6, [1.0, -1, -1, -1, -1, -1]):
        check_against_numpy(rolled_selections, np.array(x), 3, jit=jit)


def sums_by_group(keys, v):
    # group-by on sorted keys: segment starts found in the data
    starts = np.r_[0, np.flatnonzero(np.diff(keys)) + 1]
    return (np.add.reduceat(v, starts), np.maximum.reduceat(v, starts),
            np.multiply.reduceat(v, starts), np.add.reduceat(np.c_[v, v * 2], starts, axis=0),
            np.minimum.reduceat(v.astype(np.int32), starts))


def reduce_at(v, idx):
    return np.add.reduceat(v, idx), np.maximum.reduceat(v, idx)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_reduceat_at_indices_found_in_the_data(jit):
    v = np.arange(8.0) - 3
    check_against_numpy(sums_by_group, np.array([1, 1, 2, 2, 2, 5, 7, 7]), v, jit=jit)
    check_against_numpy(sums_by_group, np.zeros(8, int), v, jit=jit)
    for idx in ([0, 2, 2, 5], [1, 3, 4], [0, 9]):       # the last: IndexError
        check_against_numpy(reduce_at, v, np.array(idx), jit=jit)


def test_slices_with_traced_bounds_of_run_time_sizes(jit):
    # The selection's length and the bounds are both known only when the graph runs.
    def cut(x, n):
        s = x[x > 0] + 1
        return s[:n], s[n:], s[-n:], s[1:n + 1], s[:np.count_nonzero(x > 0.5)]

    def rows(x, n):
        s = x[x[:, 0] > 0]
        return s[:n, 1:], s[n - 1], s[1:, n]

    x = np.linspace(-1, 1, 12)
    for n in (0, 2, -3, 40):
        check_against_numpy(cut, x, n, jit=jit)
    X = np.arange(24.0).reshape(8, 3) - 10
    for n in (1, 2):
        check_against_numpy(rows, X, n, jit=jit)
    check_against_numpy(rows, X, 9, jit=jit)        # IndexError past the end, as NumPy


def factorize(R, P, Q, steps=5, lr=0.01, reg=0.02):
    users, items = R.nonzero()
    for _ in range(steps):
        for u, i in zip(users, items):
            e = R[u, i] - P[u] @ Q[i]
            P[u] += lr * (e * Q[i] - reg * P[u])
            Q[i] += lr * (e * P[u] - reg * Q[i])
    return P @ Q.T


def zipped(a, b):
    s = 0.0
    for x, y in zip(a, b):
        s += x * y
    return (s, [x * y for x, y in zip(a[a > 0], b)], sum(x for x, y in zip(a, b) if y > 0),
            [x - y for x, y in zip(a, b[b > 0])])


def zipped_with_a_list(a):
    out = 0.0
    for x, w in zip(a, [1.0, 2.0, 3.0]):
        out += x * w
    return out


def test_zip_over_arrays_of_run_time_length_is_a_graph_loop(jit=None):
    rng = np.random.default_rng(5)
    R = np.where(rng.random((6, 5)) < 0.5, rng.integers(1, 6, (6, 5)), 0).astype(float)
    check_against_numpy(factorize, R, rng.random((6, 2)), rng.random((5, 2)), jit=jit)
    a, b = rng.standard_normal(20), rng.standard_normal(20)
    check_against_numpy(zipped, a, b, jit=jit)
    check_against_numpy(zipped, a[:7], b, jit=jit)          # the shorter decides
    check_against_numpy(zipped_with_a_list, a[:5], jit=jit)
    assert any(e.op.name == "while" for e in nptf.compile(factorize).trace(
        R, rng.random((6, 2)), rng.random((5, 2))).eqns)


def empty_value_into_a_mask(a):
    a[a > 0] = np.ravel(-3)[np.ravel(-3) > 0]      # a value of no elements
    return a


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_an_empty_value_written_into_a_mask(jit):
    """No elements fit a mask's selection only where it selects none; elsewhere it is
    NumPy's ValueError, never TensorFlow's error about the empty array."""
    for a in ([1.0, -2.0, 3.0], [-1.0, -2.0, -3.0]):
        check_against_numpy(empty_value_into_a_mask, np.array(a), jit=jit)


def top_two_per_group(groups, scores):
    """np.repeat with counts per element along an axis only the data size."""
    order = np.lexsort((-scores, groups))
    g = groups[order]
    first = np.r_[0, np.flatnonzero(np.diff(g)) + 1]
    pos = np.arange(len(g)) - np.repeat(first, np.diff(np.r_[first, len(g)]))
    return np.sort(order[pos < 2])


def test_repeat_counts_along_a_run_time_axis():
    check_against_numpy(top_two_per_group, np.array([1, 2, 1, 1, 2, 3, 2, 1]),
                        np.array([5.0, 3, 9, 1, 8, 2, 4, 7]))


def round_trip_equal(arr):
    # Run-length encoding and back (np.repeat of run-time counts), compared as sizes
    # and values.
    i = np.append(np.where(arr[1:] != arr[:-1]), arr.size - 1)
    lengths = np.diff(np.append(-1, i))
    decoded = np.repeat(arr[i], lengths)
    return np.array_equal(decoded, arr), np.array_equiv(decoded, arr)


def masked_equal(x):
    d, e = x[x > 2], x[x > 1]
    return (np.array_equal(d, e), np.array_equal(d[:, None], e[None]),
            np.array_equal(d, d, equal_nan=True), np.size(d), np.size(d, -1), np.shape(d))


def test_array_equal_of_run_time_sizes():
    check_against_numpy(round_trip_equal, np.repeat([1, 3, 2, 3], [2, 1, 3, 2]))
    for x in (np.arange(1.0, 6), np.array([3.0, 4.0]), np.array([3.0, np.nan])):
        check_against_numpy(masked_equal, x)


def cross_of_masks(x, m):
    # np.ix_ of boolean masks: index arrays of run-time sizes, (n, 1) and (1, k).
    return (x[np.ix_(m, m)], x[np.ix_(m, [0, 2])], x[np.ix_([1, 0], m[:3])].sum(axis=0),
            x[np.nonzero(m)[0][:, None], np.nonzero(m[:3])[0]])


def test_outer_indices_of_run_time_sizes():
    x = np.arange(25.0).reshape(5, 5)
    for m in ([False, True, False, False, True], [True] * 5, [False] * 5):
        check_against_numpy(cross_of_masks, x, np.array(m))


def pivot(rows, cols, values, fill):
    # A table sized by the data (np.unique), filled by np.add.at, its empty cells masked
    # by a 2-d mask of the same run-time sizes.
    r_labels, r_idx = np.unique(rows, return_inverse=True)
    c_labels, c_idx = np.unique(cols, return_inverse=True)
    table = np.zeros((r_labels.size, c_labels.size))
    counts = np.zeros_like(table)
    np.add.at(table, (r_idx, c_idx), values)
    np.add.at(counts, (r_idx, c_idx), 1)
    table = table / np.maximum(counts, 1)
    table[counts == 0] = fill
    return table, np.cumsum(table, axis=1)[counts.astype(bool)]


def test_two_dimensional_masks_of_run_time_sizes():
    rows, cols = np.array([3, 1, 3, 2, 1, 3]), np.array([0, 5, 5, 0, 0, 7])
    check_against_numpy(pivot, rows, cols, np.arange(6.0), np.nan)
    check_against_numpy(pivot, rows[:1], cols[:1], np.ones(1), -1.0)


def blur_by_sigma(x, sigma):
    r = int(3 * sigma)              # a radius the data give: a kernel of run-time length
    k = np.exp(-np.arange(-r, r + 1) ** 2 / (2 * sigma ** 2))
    return np.convolve(x, k / k.sum(), mode="same")


def test_a_kernel_of_run_time_length_is_refused():
    with pytest.raises(nptf.UnsupportedError, match="np.convolve of an array whose length"):
        nptf.compile(blur_by_sigma, fallback="raise")(np.arange(10.0), np.float64(1.0))
    # A Python float keys the graph by its value instead (docs/shapes-and-caching.md).
    check_against_numpy(blur_by_sigma, np.arange(10.0), 1.0)


def confusion_diagonals(y, p):
    # A confusion matrix over np.unique's labels: its diagonals and trace at run-time sizes.
    labels = np.unique(np.concatenate([y, p]))
    cm = np.zeros((len(labels), len(labels)), dtype=int)
    np.add.at(cm, (np.searchsorted(labels, y), np.searchsorted(labels, p)), 1)
    return (np.diag(cm).astype(float), np.trace(cm), np.diagonal(cm, 1), np.diagonal(cm, -1),
            np.diag(cm, 2), np.trace(cm, -1), cm.trace())


def test_diagonals_of_run_time_sizes():
    y, p = np.array([0, 1, 2, 2, 1, 0, 3]), np.array([0, 2, 2, 1, 1, 0, 3])
    check_against_numpy(confusion_diagonals, y, p)
    check_against_numpy(confusion_diagonals, y[:1], p[:1])


def quantile_bins(x):
    # Edges np.unique leaves (a run-time number of them), increasing or reversed.
    edges = np.unique(np.nanquantile(x, np.linspace(0, 1, 5)))
    return (np.digitize(x, edges[1:-1], right=True), np.digitize(x, edges[::-1]),
            np.digitize(x, edges[:1]), np.digitize(x, edges[:0]))


def test_digitize_with_a_run_time_number_of_bins():
    check_against_numpy(quantile_bins, np.array([0.1, 0.5, np.nan, 0.9, 0.3, 0.3, 0.7]))
    check_against_numpy(quantile_bins, np.array([1.0, 1.0, 1.0]))


def mismatched_lengths(x, t):
    # Two arrays of run-time lengths that the data make equal or not: NumPy's errors where
    # they differ (a write, bincount's weights, average's weights), its results otherwise.
    y, z = x[x > t], x[x <= t]
    w = y.copy()
    np.copyto(w, z)
    return w, np.bincount(z.astype(np.int64), weights=y), np.average(y, weights=z)


def fitted_writes(x, t):
    y = x[x > t]
    w = y.copy()
    w[...] = y[:1] * 2                  # one element broadcast over a run-time length
    return w, np.bincount(y.astype(np.int64), weights=y * 2), np.average(y, weights=y + 1)


@pytest.mark.parametrize("t", [10.0, 8.0, 5.5, 3.5, 0.0])
def test_run_time_lengths_that_differ_raise_numpy_s_errors(t):
    x = np.array([3.0, 1, 4, 1, 5, 9, 2, 6])
    # adaptive=False: every call runs the graph (adaptive dispatch may serve NumPy).
    check_against_numpy(mismatched_lengths, x, t, adaptive=False)
    check_against_numpy(fitted_writes, x, t, adaptive=False)


REFUSED_AT_RUN_TIME_SIZES = [
    lambda y: np.rot90(np.outer(y, y)), lambda y: np.split(y, 2), lambda y: np.inner(y, y),
    lambda y: np.fft.fftshift(y), lambda y: np.vander(y), lambda y: np.kron(y, [1, 2]),
    lambda y: np.take(y, [0], mode="clip"), lambda y: np.select([y > 2], [y], -1)]


@pytest.mark.parametrize("k", range(len(REFUSED_AT_RUN_TIME_SIZES)))
def test_functions_that_need_a_run_time_size_say_so(k):
    """Where nptf's implementation needs a size known only at run time as a number, its
    DynamicShapeError names the function (not Python's TypeError about None)."""
    g = REFUSED_AT_RUN_TIME_SIZES[k]

    def masked(x):
        return g(x[x > 2])
    with pytest.raises(nptf.DynamicShapeError, match="known only at run time"):
        nptf.compile(masked, fallback="raise")(np.array([3.0, 1, 4, 1, 5, 9, 2, 6]))


def nbytes_of_masked(x):
    return x[x > 2].nbytes, x[x > 2].reshape(-1, 1).nbytes


def test_nbytes_of_a_run_time_size():
    check_against_numpy(nbytes_of_masked, np.array([3.0, 1, 4, 1, 5, 9, 2, 6]))


def nan_quantiles_of_masked(x, t):
    y = x[x > t]
    return (np.nanquantile(y, 0.3), np.nanpercentile(y, 40), np.nanmedian(y),
            np.nanquantile(y, 0.5, method="hazen"))


def nan_percentiles_of_masked(x, t):
    return np.nanpercentile(x[x > t], [40, 90])


@pytest.mark.parametrize("t", [10.0, 8.0, 3.0])
def test_nan_quantiles_of_a_run_time_length_that_may_be_empty(t):
    x = np.array([3.0, np.nan, 4, 1, 5, 9, 2, 6])
    check_against_numpy(nan_quantiles_of_masked, x, t, adaptive=False)
    if t < 10:
        check_against_numpy(nan_percentiles_of_masked, x, t, adaptive=False)
        return
    # No values: NumPy answers one NaN whatever q's shape, a shape the data choose.
    with pytest.raises(nptf.OutsideTheGraphError, match="no values"):
        nptf.compile(nan_percentiles_of_masked, fallback="raise", adaptive=False)(x, t)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = nptf.compile(nan_percentiles_of_masked, adaptive=False)(x, t)
    assert np.shape(got) == () and np.isnan(got)


def histograms_of_masked(x, t):
    y = x[x > t]
    return (np.histogram(y, bins=2, weights=y), np.histogram(y, bins=3),
            np.histogram(y.astype(np.int64), 2), np.histogram(y, 4, density=True))


@pytest.mark.parametrize("t", [10.0, 8.0, 4.5])
def test_histograms_of_a_run_time_length(t):
    check_against_numpy(histograms_of_masked, np.array([3.0, -1, 4, 1, -5, 9, 2, 6]), t,
                        adaptive=False)


def _confusion_by_bincount(y, p):
    k = int(max(y.max(), p.max())) + 1
    return np.bincount(y * k + p, minlength=k * k).reshape(k, k)


def _bincounts_padded(x, n):
    return np.bincount(x, minlength=len(x[x > n])), \
        np.bincount(x, weights=x * 0.5, minlength=n + 3), np.bincount(x[x > 100], minlength=n)


@pytest.mark.parametrize("n", [1, 20])
def test_bincount_with_a_minlength_known_only_at_run_time(n):
    y, p = np.array([0, 1, 2, 1, 0]), np.array([0, 2, 2, 1, 1])
    check_against_numpy(_confusion_by_bincount, y, p)
    check_against_numpy(_bincounts_padded, np.array([1, 3, 3, 7, 2]), n)
    check_against_numpy(_bincounts_padded, np.array([1, 3, 3, 7, 2]), -5)   # ValueError


def _padded_to_length(x, maxlen):
    seq = x[x > 0]
    return np.pad(seq, (0, maxlen - len(seq))), \
        np.pad(seq, ((1, 2),), constant_values=-1.5)


def _framed(img, v):
    rows = img[img.sum(axis=1) > 1.5]
    return np.pad(img, 2, constant_values=v), \
        np.pad(img > 0.5, ((1, 0), (0, 2)), constant_values=(v > 1, False)), \
        np.pad(rows, ((1, 1), (0, 0)), constant_values=7)


@pytest.mark.parametrize("maxlen", [10, 2])     # 2: NumPy's ValueError for a negative width
def test_pad_with_widths_and_sizes_known_only_at_run_time(maxlen):
    check_against_numpy(_padded_to_length, np.random.default_rng(0).normal(size=12), maxlen)


@pytest.mark.parametrize("v", [3.5, 0.25])
def test_pad_with_traced_constant_values(v):
    check_against_numpy(_framed, np.random.default_rng(1).random((4, 3)), v)


def partial_autocorrelations(x, nlags=10):
    lags = np.column_stack([np.ones(len(x) - nlags)] +
                           [x[nlags - j:len(x) - j] for j in range(1, nlags + 1)])
    y = x[nlags:]
    out = [1.0]
    for k in range(1, nlags + 1):
        params = np.linalg.lstsq(lags[k:, :k + 1], y[k:], rcond=None)[0]
        out.append(params[-1])
    return np.array(out), np.fft.rfft(x[:nlags + 3]).real


def test_a_loop_whose_index_sizes_what_it_solves_runs_unrolled():
    """``lstsq(lags[k:, :k + 1], y[k:])`` for k past the unroll limit: the sizes follow the
    loop's index, which the solve needs known, so the loop runs unrolled (with a warning)
    rather than being refused."""
    x = np.random.default_rng(5).normal(size=60).cumsum()
    with pytest.warns(RuntimeWarning, match="runs unrolled"):
        check_against_numpy(partial_autocorrelations, x)


def deleted_where(x):
    return np.delete(x, np.where(x > 0.5)), np.delete(x, x < 0.2)


def deleted_rows(X):
    return (np.delete(X, np.flatnonzero(X[:, 0] > 0.5), axis=0),
            np.delete(X, np.flatnonzero(X[0] > 0.5) - 3, axis=1),
            np.delete(X, np.flatnonzero(X[:, 0] > 0.2)))


def deleted_past_the_end(x):
    return np.delete(x, np.flatnonzero(x > 0.5) + 5)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_delete_at_positions_the_data_give(seed):
    # Indices (negative ones too) or a mask known only at run time; NumPy's IndexError
    # for a position past the axis.
    rng = np.random.default_rng(seed)
    check_against_numpy(deleted_where, rng.random(8))
    check_against_numpy(deleted_rows, rng.random((5, 3)))
    check_against_numpy(deleted_past_the_end, rng.random(8))
    # Positions passed in as an argument.
    check_against_numpy(lambda v, i: np.delete(v, i), rng.random(8), np.array([1, -2, 1]))
    # From arrays of a length the data give (a Markov chain's visited states).
    check_against_numpy(unvisited_states_cut, rng.integers(0, 5, 12))


def unvisited_states_cut(index_series):
    n = max(index_series) + 1
    counts = np.zeros((n, n), dtype=int)
    for a, b in zip(index_series[:-1], index_series[1:]):
        counts[a, b] += 1
    zero = np.where(np.sum(counts, axis=0) == 0)
    counts = np.delete(np.delete(counts, zero, axis=0), zero, axis=1)
    return counts, np.delete(np.arange(n), zero)


def broadcast_to_counts(x):
    n = np.count_nonzero(x > 0)
    return np.broadcast_to(x[:2], (n, 2)) * 2, np.broadcast_to(x.sum(), (n,)), \
        np.broadcast_to(x[:1], (3, n))


def broadcast_to_then_write(x):
    v = x[:2].copy()
    b = np.broadcast_to(v, (np.count_nonzero(x > 0), 2))
    v[0] = 100.0                     # NumPy's b is a view: it shows the write
    return b.sum()


def test_broadcast_to_a_shape_the_data_give(jit):
    """``np.broadcast_to`` of sizes known only at run time: NumPy's values and its
    ValueError where the shapes do not broadcast; a write into the array afterwards, which
    NumPy's view would show, is refused (NumPy runs by default)."""
    for x in (np.array([1.0, -2.0, 3.0]), np.array([-1.0, -2.0, -3.0]),
              np.array([1.0, 2.0, -3.0])):
        check_against_numpy(broadcast_to_counts, x, jit=jit)
    bad = lambda x: np.broadcast_to(x[:3], (2, np.count_nonzero(x > 0)))  # noqa: E731
    check_against_numpy(bad, np.array([1.0, 2.0, 3.0]), jit=jit)
    check_against_numpy(bad, np.array([1.0, 2.0, -3.0]), jit=jit)
    with pytest.raises(nptf.UnsupportedError, match="broadcast_to"):
        nptf.compile(broadcast_to_then_write, fallback="raise")(np.array([1.0, 2.0]))
    with pytest.warns(RuntimeWarning, match="runs with NumPy"):
        assert nptf.compile(broadcast_to_then_write)(np.array([1.0, 2.0])) == 204.0


def repeated_by_counts(x):
    n = int(np.sum(x > 0))
    zeros, pairs = [0] * n, [1.5, 2.5] * n
    P = np.zeros((8, 2))
    P[:n, 0] = [7] * n
    rows = np.zeros((6, 2), dtype=int)
    k = 0
    for i in range(3):                  # a pair list filled block by block
        m = np.count_nonzero(x > i)
        rows[k:k + m, 0] = [i] * m
        k += m
    return np.array(zeros), len(pairs), np.sum(pairs), P, rows, [True] * n, [x[0]] * -n


def empty_int_list(x):
    return np.array(x[x > 5].astype(int).tolist()), np.sum([1] * int(np.sum(x > 5)))


def test_a_list_repeated_by_a_count_the_data_give(jit):
    """``[v] * n`` of numbers and a count known only at run time: a list of that length
    (none for a negative count), which NumPy functions and writes take as an array. An
    empty one of ints is NumPy's float64 array of shape (0,): the call runs NumPy."""
    check_against_numpy(repeated_by_counts, np.array([1.0, -1.0, 2.0]), jit=jit)
    check_against_numpy(empty_int_list, np.array([6.0, 7.0]), jit=jit)
    for fn, x in ((repeated_by_counts, np.array([-1.0, -2.0, -3.0])),
                  (empty_int_list, np.array([1.0, 2.0]))):
        with pytest.raises(nptf.OutsideTheGraphError, match="is empty"):
            nptf.compile(fn, fallback="raise", jit_compile=jit)(x)
        with pytest.warns(RuntimeWarning, match="runs with NumPy"):
            assert mismatch(fn(x.copy()), nptf.compile(fn, jit_compile=jit)(x.copy())) is None
