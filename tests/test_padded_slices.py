"""Slices whose length follows a loop's counter (``x[:i] @ y[:i]``, ``A[i, i + 1:].sum()``,
``C[i, :i + 1] *= beta``, ``A[k + 1:, k] = 0``) are read and written at their longest and
masked inside loop bodies (``pad_bounded_slices``): the results stay NumPy's (NaN and
infinities past the slice included, NumPy's errors for lengths that differ), and the
loops compile under XLA."""
import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy
from nptf.graph_ir.walk import all_eqns
from test_triangular_loops import doolittle, levinson


def dot_prefix(x, y):
    out = np.zeros(x.shape[0], dtype=x.dtype)
    for i in range(x.shape[0]):
        out[i] = x[:i] @ y[:i]
    return out


def dot_suffix(x, y):
    out = np.zeros(x.shape[0], dtype=x.dtype)
    for i in range(x.shape[0]):
        out[i] = np.dot(x[i + 1:], y[i + 1:])
    return out


def row_times_column(A):
    out = np.zeros(A.shape[0], dtype=A.dtype)
    for i in range(A.shape[0]):
        out[i] = A[i, :i] @ A[:i, i]
    return out


def reductions(x):
    out = np.zeros((x.shape[0], 6), dtype=x.dtype)
    for i in range(1, x.shape[0]):
        out[i, 0] = x[:i].sum()
        out[i, 1] = np.prod(x[i:] * 0.5 + 1.0)
        out[i, 2] = x[:i].max()
        out[i, 3] = np.min(x[i - 1:])
        out[i, 4] = np.any(x[:i] > 0.5)
        out[i, 5] = np.all(x[i:] < 2.0)
    return out


def elementwise_chain(x, y):
    out = np.zeros(x.shape[0], dtype=x.dtype)
    for i in range(x.shape[0]):
        d = x[:i] - 2.0 * y[:i]
        out[i] = np.sum(np.exp(-d * d)) / (len(x[:i]) + 1) + x[:i].shape[0]
    return out


def integer_prefix(k):
    out = np.zeros(k.shape[0], dtype=k.dtype)
    for i in range(k.shape[0]):
        out[i] = np.sum(k[:i] // 2) + np.max(k[i:]) + np.cumsum(k[:i] * 3).sum()
    return out


def unequal_starts(x, y):
    out = np.zeros(x.shape[0] - 1, dtype=x.dtype)
    for i in range(x.shape[0] - 1):
        out[i] = x[:i] @ y[1:i + 1]
    return out


def triangular_solve(L, b):
    x = np.zeros_like(b)
    for i in range(b.shape[0]):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
    return x


def rank_updates(alpha, beta, C, A):
    for i in range(A.shape[0]):
        C[i, :i + 1] *= beta
        for k in range(A.shape[1]):
            C[i, :i + 1] += alpha * A[i, k] * A[:i + 1, k]


def prefix_writes(x, y):
    for i in range(x.shape[0]):
        x[:i] = y[:i] * 2.0 - x[:i]
        x[i:] += y[i:]
    return x


def lengths_computed_apart(x, y):
    for i in range(x.shape[0]):
        x[i + 1:] -= y[1:x.shape[0] - i] * 0.5     # equal lengths the graph does not match
    return x


def shifted_copy(x, y):
    for i in range(x.shape[0]):
        x[:i] = y[1:i + 1]
    return x


def eliminate_below(A):
    for k in range(A.shape[0] - 1):
        A[k + 1:, k] = 0.0
        A[k, k + 1:] = A[k, k + 1:] / A[k, k]
        A[:k, k] = A[k, :k]
    return A


def broadcast_into_prefix(x, y):
    for i in range(x.shape[0]):
        x[:i] = y[i]
        x[i:] = y[i:i + 1] + 1.0
    return x


def lengths_differ(x, y):
    for i in range(x.shape[0]):
        x[:i] = y[:i + 2]
    return x


def flipped_means(x):
    out = np.zeros(x.shape[0], dtype=x.dtype)
    for i in range(x.shape[0]):
        out[i] = np.mean(x[:i + 1]) + x[i:][::-1].cumsum().max() * 0.1 + np.mean(x[i // 2:i + 2])
    return out


def run_time_length_one(x, y):
    for i in range(x.shape[0]):
        x[:i] = y[:min(i, 1)]
    return x


rng = np.random.default_rng(7)
N = 9
WITH_NAN = np.array([0.3, 0.1, np.inf, 0.7, np.nan, -np.inf, 0.2, 0.9, 0.4])
CASES = [
    (dot_prefix, lambda dt: (rng.random(N).astype(dt), rng.random(N).astype(dt))),
    (dot_prefix, lambda dt: (WITH_NAN.astype(dt), WITH_NAN[::-1].astype(dt))),
    (dot_suffix, lambda dt: (WITH_NAN.astype(dt), rng.random(N).astype(dt))),
    (row_times_column, lambda dt: (rng.random((N, N)).astype(dt),)),
    (reductions, lambda dt: (rng.random(N).astype(dt),)),
    (reductions, lambda dt: (WITH_NAN.astype(dt),)),
    (elementwise_chain, lambda dt: (rng.random(N).astype(dt), rng.random(N).astype(dt))),
    (unequal_starts, lambda dt: (rng.random(N).astype(dt), rng.random(N).astype(dt))),
    (triangular_solve, lambda dt: ((np.tril(rng.random((N, N))) + N * np.eye(N)).astype(dt),
                                   rng.random(N).astype(dt))),
    (doolittle, lambda dt: ((rng.random((N, N)) + N * np.eye(N)).astype(dt),)),
    (rank_updates, lambda dt: (1.5, 1.2, rng.random((N, N)).astype(dt),
                               rng.random((N, N)).astype(dt))),
    (prefix_writes, lambda dt: (WITH_NAN.astype(dt), rng.random(N).astype(dt))),
    (levinson, lambda dt: ((rng.random(N) / N).astype(dt),)),
    (flipped_means, lambda dt: (WITH_NAN.astype(dt),)),
    (flipped_means, lambda dt: (rng.random(N).astype(dt),)),
    (lengths_computed_apart, lambda dt: (rng.random(N).astype(dt), rng.random(N).astype(dt))),
    (shifted_copy, lambda dt: (rng.random(N).astype(dt), rng.random(N + 2).astype(dt))),
    (eliminate_below, lambda dt: ((rng.random((N, N)) + N * np.eye(N)).astype(dt),)),
    (broadcast_into_prefix, lambda dt: (rng.random(N).astype(dt), rng.random(N).astype(dt))),
    (lengths_differ, lambda dt: (rng.random(N).astype(dt), rng.random(N + 2).astype(dt))),
]


# float32 for the cases whose arithmetic differs by dtype (sums, products, masks of NaN)
SINGLE = {0, 3, 4, 9, 11}
CASES_BY_DTYPE = [(fn, make, "float64") for fn, make in CASES] + \
    [(fn, make, "float32") for k, (fn, make) in enumerate(CASES) if k in SINGLE]


@pytest.mark.parametrize("fn,make,dtype", CASES_BY_DTYPE,
                         ids=[f"{c[0].__name__}-{c[2]}" for c in CASES_BY_DTYPE])
def test_padded_slices_match_numpy(fn, make, dtype, jit):
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "nptf: .* runs without XLA", RuntimeWarning)
        warnings.filterwarnings("ignore", "invalid value|overflow", RuntimeWarning)
        check_against_numpy(fn, *make(dtype), jit=jit)


@pytest.mark.parametrize("dtype", ["int64", "int32", "complex128"])
def test_padded_slices_of_other_dtypes(dtype, jit):
    if dtype.startswith("int"):
        check_against_numpy(integer_prefix, rng.integers(-50, 50, N).astype(dtype), jit=jit)
    else:
        z = (rng.random(N) + 1j * rng.random(N)).astype(dtype)
        check_against_numpy(dot_prefix, z, z[::-1].copy(), jit=jit)


@pytest.mark.parametrize("fn,args", [
    (dot_prefix, (rng.random(N), rng.random(N))),
    (dot_suffix, (rng.random(N), rng.random(N))),
    (row_times_column, (rng.random((N, N)),)),
    (reductions, (rng.random(N),)),
    (elementwise_chain, (rng.random(N), rng.random(N))),
    (triangular_solve, (np.tril(rng.random((N, N))) + N * np.eye(N), rng.random(N))),
    (doolittle, (rng.random((N, N)) + N * np.eye(N),)),
    (rank_updates, (1.5, 1.2, rng.random((N, N)), rng.random((N, N)))),
    (prefix_writes, (rng.random(N), rng.random(N))),
    (shifted_copy, (rng.random(N), rng.random(N + 2))),
    (eliminate_below, (rng.random((N, N)) + N * np.eye(N),)),
    (broadcast_into_prefix, (rng.random(N), rng.random(N))),
    (levinson, (rng.random(N) / N,)),
    (flipped_means, (rng.random(N),)),
], ids=lambda v: getattr(v, "__name__", ""))
def test_loops_with_slices_of_a_loop_length_compile_under_xla(fn, args):
    f = nptf.compile(fn, jit_compile=True, fallback="raise")
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)     # "runs without XLA" would fail
        # but for an unrolled chain XLA compiles exponentially (eliminate_below at N = 9:
        # 8 steps unrolled, 3.4 s under XLA, 4x per step): its slices are still static.
        warnings.filterwarnings("ignore", ".*grow exponentially", RuntimeWarning)
        f(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    graph = f.trace(*args)
    assert not [e for e in all_eqns(graph) if None in e.outputs[0].type.shape or
                any(None in a.type.shape for a in e.inputs)]


def test_two_writes_of_one_element_of_a_matrix_merge():
    """``A[i, j] -= ...; A[i, j] /= A[j, j]``: the read of ``A[j, j]`` between the writes
    is read through them (a select on the positions), so the loop body writes once."""
    A = rng.random((N, N)) + N * np.eye(N)
    graph = nptf.compile(doolittle).trace(A)
    outer = next(e for e in graph.eqns if e.op.name == "while")
    inner = next(e for e in outer.params["body"].eqns if e.op.name == "while")
    writes = [e for e in inner.params["body"].eqns if e.op.name in ("scatter", "dynamic_update_slice")]
    assert len(writes) == 1


def test_a_run_time_length_of_one_broadcast_leaves_the_graph():
    """NumPy broadcasts a value whose run-time length is 1 into a longer slice; the graph
    does not, and says so: NumPy runs that call by default, nptf raises under
    fallback="raise"."""
    x, y = rng.random(N), rng.random(N)
    expected = run_time_length_one(x.copy(), y)
    with pytest.warns(RuntimeWarning, match="NumPy broadcasts it"):
        got = nptf.compile(run_time_length_one)(x.copy(), y)
    np.testing.assert_array_equal(got, expected)
    with pytest.raises(nptf.OutsideTheGraphError, match="NumPy broadcasts it"):
        nptf.compile(run_time_length_one, fallback="raise")(x.copy(), y)
