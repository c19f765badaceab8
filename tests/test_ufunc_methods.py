"""``ufunc.accumulate`` of associative ufuncs (a running maximum for drawdowns,
cumulative ``logical_or``) and ``ufunc.reduceat`` (segment sums), against NumPy on both
executors, with NumPy's errors for a bad axis or index."""
import numpy as np
import pytest

import nptf
from harness import check_against_numpy, mismatch

X = np.array([1.0, 3.0, 2.0, np.nan, 5.0, -0.0, 0.0, 4.0, 7.0])
M = np.array([[1, 5, 2], [4, 0, 9], [3, 3, 8], [7, 1, 1]], np.int16)

ACCUMULATE = {
    "maximum": (lambda x: np.maximum.accumulate(x), X),
    "minimum": (lambda x: np.minimum.accumulate(x), X),
    "fmax": (lambda x: np.fmax.accumulate(x), X),
    "drawdown": (lambda x: x / np.maximum.accumulate(x) - 1, np.abs(X[:3])),
    "2-d": (lambda m: np.maximum.accumulate(m), M),
    "axis 1": (lambda m: np.minimum.accumulate(m, axis=1), M),
    "logical_and": (lambda m: np.logical_and.accumulate(m > 1, axis=0), M),
    "logical_or of floats": (lambda x: np.logical_or.accumulate(x), X),
    "bitwise_xor": (lambda m: np.bitwise_xor.accumulate(m, axis=-1), M),
    "bool maximum": (lambda m: np.maximum.accumulate(m > 3), M),
    # Lengths only the run knows (a mask's selection), NaN where NumPy propagates it.
    "run-time maximum": (lambda x: np.maximum.accumulate(x[~(x < 2)]), X),
    "run-time fmin": (lambda x: np.fmin.accumulate(x[x != 3]), X),
    "run-time rows": (lambda m: np.maximum.accumulate(m[m[:, 0] > 1], axis=0), M),
    "run-time logical_or": (lambda x: np.logical_or.accumulate(x[x > 0] > 4), X),
    "run-time bitwise_xor": (lambda m: np.bitwise_xor.accumulate(m[m > 2]), M),
    "run-time empty": (lambda x: np.minimum.accumulate(x[x > 100]), X),
    "0-d": (lambda x: np.maximum.accumulate(x[0]), X),                # TypeError
    "bad axis": (lambda m: np.maximum.accumulate(m, axis=2), M),      # AxisError
}


@pytest.mark.parametrize("name", list(ACCUMULATE))
def test_accumulate(name, jit):
    fn, arg = ACCUMULATE[name]
    check_against_numpy(fn, arg, jit=jit)


Y = np.arange(1.0, 9.0)
N = np.arange(24, dtype=np.int16).reshape(4, 6) % 7

REDUCEAT = {
    "add": (lambda x: np.add.reduceat(x, [0, 4, 1, 5]), Y),
    "add sorted": (lambda x: np.add.reduceat(x, [0, 3, 5]), Y),
    "add repeated": (lambda x: np.add.reduceat(x, [1, 3, 3, 6]), Y),
    "maximum": (lambda x: np.maximum.reduceat(x, [0, 3, 5]), Y),
    "minimum unsorted": (lambda x: np.minimum.reduceat(x, [4, 1, 6]), Y),
    "multiply": (lambda x: np.multiply.reduceat(x, np.array([0, 2, 7])), Y),
    "axis 1": (lambda m: np.add.reduceat(m, [0, 2, 4], axis=1), N),
    "axis 0": (lambda m: np.maximum.reduceat(m, [0, 2, 2], axis=0), N),
    "bool": (lambda m: np.add.reduceat(m > 2, [0, 2], axis=1), N),
    "past the end": (lambda x: np.add.reduceat(x, [0, 9]), Y),        # IndexError
    "negative": (lambda x: np.add.reduceat(x, [-1, 2]), Y),           # IndexError
}


@pytest.mark.parametrize("name", list(REDUCEAT))
def test_reduceat(name, jit):
    fn, arg = REDUCEAT[name]
    check_against_numpy(fn, arg, jit=jit)


def _segment_indices(n, rng):
    """Index lists for reduceat along an axis of length ``n`` (at least 12): runs of
    random lengths, repeated indices (segments of one element), one step (rows of a
    reshape), one step with a shorter last run, a start past 0, one index, none."""
    random = np.unique(np.r_[0, rng.choice(n, n // 3, replace=False)])
    return [random, np.repeat(random[::2], 2)[1:], np.arange(0, n - n % 4, 4), np.arange(2, n, 5),
            np.array([3, 5, 5, n - 1]), [n // 2], []]


def _segment_reductions(x, m, indices):
    out = []
    complex_ = x.dtype.kind == "c"      # complex maxima: one reduction per segment, up to 256
    for uf in (np.add, np.multiply) + (() if complex_ else (np.maximum, np.minimum)):
        for idx in indices[0]:
            out.append(uf.reduceat(x, idx))
        for idx in indices[1]:
            out += [uf.reduceat(m, idx, axis=1), uf.reduceat(m.T, idx, axis=0),
                    uf.reduceat(m, idx, axis=-1, dtype=m.dtype)]
    return tuple(out)


# Signed ints at both ends of their widths, floats likewise (int32 and float32 add no
# path of their own).
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int64, np.float16,
                                   np.float64, np.complex64])
def test_reduceat_with_nondecreasing_indices(dtype, jit):
    """Nondecreasing indices known when tracing are one ``reduceat`` op: runs of one length
    are rows of a reshape, others segment reductions over run numbers marked at run time,
    rather than ``ufunc.at`` of each element into its segment (a scatter from a table of
    segment numbers as long as the data: 27 ms for 1e5 segments of 1e6 floats, NumPy 2 ms)."""
    rng = np.random.default_rng(np.dtype(dtype).num)
    x = (rng.standard_normal(1000) * 3).astype(dtype)
    m = (rng.standard_normal((5, 24)) * 3).astype(dtype)
    if x.dtype.kind == "f":
        x[[10, 500, 501]] = np.nan
        m[1, 7] = m[3, 20] = np.nan
    if x.dtype.kind in "fc":
        x[rng.integers(0, 1000, 200)] = 1.5         # ties
    indices = (_segment_indices(1000, rng), _segment_indices(24, rng))

    def fn(x, m):
        return _segment_reductions(x, m, indices)
    f = nptf.compile(fn, fallback="raise", adaptive=False, jit_compile=jit)
    with np.errstate(over="ignore", invalid="ignore"):     # long products overflow
        got, expected = f(x, m), fn(x, m)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and g.shape == e.shape, (g.dtype, g.shape, e.dtype, e.shape)
        problem = mismatch(e, g)
        assert problem is None, problem
        if e.dtype.kind in "biu":
            assert np.array_equal(g, e)
    ops = [e.op.name for e in f.trace(x, m).eqns]
    assert "reduceat" in ops and "scatter" not in ops, ops
    if not jit:     # the op's NumPy meaning: the IR interpreter and the NumPy program
        with np.errstate(over="ignore", invalid="ignore"):
            for got in (f.interpret(x, m, optimized=True, verify_passes=True),
                        f.interpret(x, m, program=True)):
                for g, e in zip(got, expected):
                    assert g.dtype == e.dtype and mismatch(e, g) is None


def test_reduceat_of_float_extremes_is_exact(jit):
    """Maxima and minima (NaN first, late, alone; infinities; zeros of both signs) are
    NumPy's, through a reshape and through segment reductions; on the plain executor
    to the sign of each zero (XLA's scatters order zeros of both signs their own way)."""
    x = np.array([1.0, np.nan, 2.0, 5.0, np.nan, -0.0, 0.0, 3.0, -np.inf, np.inf, np.nan, 7.0,
                  -0.0, -0.0, 0.0, 2.0, np.inf, np.inf, -1.0, np.nan], np.float32)

    def fn(x):
        return tuple(uf.reduceat(x, idx) for uf in (np.maximum, np.minimum)
                     for idx in ([0, 3, 5, 7, 9, 10, 12, 15, 18], [0, 4, 8, 12, 16],
                                 [0, 5, 10, 15], [2, 2, 6, 19], [0]))
    for g, e in zip(nptf.compile(fn, fallback="raise", jit_compile=jit)(x), fn(x)):
        assert g.dtype == e.dtype and np.array_equal(g, e, equal_nan=True), (g, e)
        numbers = ~np.isnan(e)
        assert jit or np.array_equal(np.signbit(g[numbers]), np.signbit(e[numbers])), (g, e)


def morphology(mask):
    p = np.pad(mask, 1, mode="constant", constant_values=False)
    shifts = [p[1 + di:p.shape[0] - 1 + di, 1 + dj:p.shape[1] - 1 + dj]
              for di in (-1, 0, 1) for dj in (-1, 0, 1)]
    return (np.logical_or.reduce(shifts), np.logical_and.reduce(shifts, axis=0),
            np.maximum([mask[0], mask[1]], mask[2]), np.add.accumulate([mask[0], mask[1]]))


def counted_at_lists(x):
    a = np.zeros(5)
    np.add.at(a, (x.astype(int) % 5,), 1.0)           # a tuple index, not an array
    np.add.at(a, [x[0].astype(int) % 5, 1], [2.0, x[1]])
    return a


@pytest.mark.parametrize("jit", [False, True])
def test_ufuncs_and_their_methods_take_python_lists_of_traced_arrays(jit):
    """NumPy turns a list operand into an array before any override: nptf does it first."""
    check_against_numpy(morphology, np.random.default_rng(0).random((6, 7)) > 0.6, jit=jit)
    check_against_numpy(counted_at_lists, np.arange(7.0), jit=jit)


def forward_fill_and_clip(a, X):
    """``out=`` of an accumulation (a forward fill), of np.cumsum and of np.clip, into an
    argument."""
    idx = np.where(~np.isnan(a), np.arange(len(a)), 0)
    np.maximum.accumulate(idx, out=idx)
    total, running = np.zeros(len(a)), np.zeros(len(a))
    np.add.accumulate(idx, out=total)
    np.cumsum(idx, out=running)
    np.clip(X, 0.2, 0.8, out=X)
    return a[idx], total, running, X


def test_accumulate_and_clip_into_out():
    check_against_numpy(forward_fill_and_clip, np.array([1.0, np.nan, np.nan, 4, np.nan, 6]),
                        np.linspace(0, 1, 6).reshape(2, 3))
