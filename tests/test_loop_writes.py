"""Arrays written in place inside compiled loops and branches: the caller's arguments,
views of them and every other name of the same memory see NumPy's writes.

Loops of 12 iterations run as graph loops (the unroll limit is 8); where the trip
count comes from an array the loop is a graph loop whatever its length."""
import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy, mismatch


def _life_step(Z):
    N = (Z[0:-2, 0:-2] + Z[0:-2, 1:-1] + Z[0:-2, 2:] + Z[1:-1, 0:-2] + Z[1:-1, 2:] +
         Z[2:, 0:-2] + Z[2:, 1:-1] + Z[2:, 2:])
    birth = (N == 3) & (Z[1:-1, 1:-1] == 0)
    survive = ((N == 2) | (N == 3)) & (Z[1:-1, 1:-1] == 1)
    Z[...] = 0
    Z[1:-1, 1:-1][birth | survive] = 1
    return Z


def life(Z, steps):
    for _ in range(steps):
        Z = _life_step(Z)
    return Z.sum()


def augmented(U, n):
    for _ in range(n):
        U += 1.0
    return U.sum()


def through_view(U, n):
    u = U[1:-1]
    for _ in range(n):
        u += 1.0


def gray_scott(U, V, n):
    u, v = U[1:-1, 1:-1], V[1:-1, 1:-1]
    for _ in range(n):
        Lu = U[0:-2, 1:-1] + U[1:-1, 0:-2] - 4 * u + U[1:-1, 2:] + U[2:, 1:-1]
        Lv = V[0:-2, 1:-1] + V[1:-1, 0:-2] - 4 * v + V[1:-1, 2:] + V[2:, 1:-1]
        uvv = u * v * v
        u += 0.16 * Lu - uvv + 0.06 * (1 - u)
        v += 0.08 * Lv + uvv - 0.122 * v


def scatter_matrix(X, w, S):
    for i in range(X.shape[0]):
        S += w[i] * np.outer(X[i], X[i])
    return S


def other_name_reads(U, n):
    V = U[0:2]
    s = 0.0
    for _ in range(n):
        U += 1
        s += V.sum()
    return s


def until_large(U, limit):
    while U.sum() < limit:
        U *= 2.0
    return U.sum()


def masked_in_loop(Z, n):
    for _ in range(n):
        Z[Z > 0.5] -= 0.1


def helper_returns_none(U, n):
    for _ in range(n):
        _bump(U)


def _bump(U):
    U[1:] += U[:-1]


def branch_in_loop(U, n):
    for i in range(n):
        if U[0] > 5:
            U -= 3.0
        else:
            U += 1.0
    return U


def traced_if_then_write(U, c):
    if c.sum() > 0:
        U += 1
    U += 1


rng = np.random.default_rng(7)
CASES = [
    (life, lambda: ((rng.random((12, 12)) > 0.6).astype(np.int64), 10)),
    (augmented, lambda: (np.zeros(4), 12)),
    (through_view, lambda: (np.zeros(6), 12)),
    (gray_scott, lambda: (np.ones((8, 8)), rng.random((8, 8)) * 0.2, 12)),
    (scatter_matrix, lambda: (rng.random((12, 3)), np.arange(12.0), np.zeros((3, 3)))),
    (other_name_reads, lambda: (np.zeros(4), 12)),
    (until_large, lambda: (np.ones(3), 1000.0)),
    (masked_in_loop, lambda: (rng.random(5), 12)),
    (helper_returns_none, lambda: (np.arange(5.0), 12)),
    (branch_in_loop, lambda: (np.arange(3.0), 12)),
    (traced_if_then_write, lambda: (np.zeros(3), np.ones(2))),
]


@pytest.mark.parametrize("fn,make", CASES, ids=[c[0].__name__ for c in CASES])
def test_writes_in_graph_loops_reach_the_caller(fn, make, jit):
    check_against_numpy(fn, *make(), jit=jit)


@pytest.mark.parametrize("n", [3, 12])
def test_in_place_then_rebound_runs_unrolled(n):
    def f(U, n):
        for _ in range(n):
            U += 1.0
            U = U * 2
        return U

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # the 12-step loop runs unrolled
        check_against_numpy(f, np.ones(3), n)


def test_in_place_then_rebound_with_unknown_trip_count_runs_the_data_s_steps(tmp_path):
    """A graph loop cannot write into the caller's array and then rebind the name: Python
    runs the loop for the trip count the call's data give (a graph for each). One graph
    for all data cannot: under an input_signature NumPy runs it, and export refuses it."""
    def f(U, limit):
        while U.sum() < limit:
            U += 1.0
            U = U * 2
        return U

    for U, limit in ((np.ones(3), 100.0), (np.ones(3), 1.0), (np.array([50.0, 0, 0]), 100.0),
                     (np.ones(3), 100.0)):
        check_against_numpy(f, U, limit)
    signature = [nptf.Spec((3,)), nptf.Spec(())]
    U, U2 = np.ones(3), np.ones(3)
    with pytest.warns(RuntimeWarning, match="runs with NumPy"):
        got = nptf.compile(f, input_signature=signature)(U, 100.0)
    np.testing.assert_array_equal(got, f(U2, 100.0))
    np.testing.assert_array_equal(U, U2)
    with pytest.raises(nptf.UnsupportedError, match="binds `U` to a new array"):
        nptf.export(f, tmp_path / "m", nptf.Spec((3,)), 100.0)


@pytest.mark.parametrize("c", [1.0, -1.0])
def test_name_that_may_or_may_not_alias_falls_back(c):
    def f(U, c):
        if c.sum() > 0:
            U = U + 1
        else:
            U += 1
        U += 1
        return U

    with pytest.raises(nptf.UnsupportedError, match="depending on the data"):
        nptf.compile(f, fallback="raise")(np.zeros(3), np.full(2, c))
    U, U2 = np.zeros(3), np.zeros(3)
    with pytest.warns(RuntimeWarning, match="runs with NumPy"):
        got = nptf.compile(f)(U, np.full(2, c))
    np.testing.assert_array_equal(got, f(U2, np.full(2, c)))
    np.testing.assert_array_equal(U, U2)


def test_rebinding_without_later_writes_still_compiles():
    def f(U, c):
        if c.sum() > 0:
            U = U * 2
        return U + 1

    check_against_numpy(f, np.arange(3.0), np.ones(2))
    check_against_numpy(f, np.arange(3.0), -np.ones(2))


def nested_short_loops(out, G, w):
    for k in range(G.shape[0]):
        for e in range(G.shape[1]):
            for q in range(w.shape[0]):
                for j in range(w.shape[1]):
                    if e - q >= 0:
                        out[k, e] += G[k, e - q] @ w[q, j] * 0.5


def test_nested_short_loops_become_graph_loops_past_the_unroll_limit(jit):
    rng = np.random.default_rng(5)
    args = (np.zeros((3, 4)), rng.random((3, 4, 2)), rng.random((3, 3, 2)))
    check_against_numpy(nested_short_loops, *args, jit=jit)
    graph = nptf.compile(nested_short_loops).trace(*args)
    # 3 x 4 copies pass the unroll limit of 8: the inner loops are graph loops.
    assert sum(e.op.name == "while" for e in graph.eqns) >= 1
    assert len(graph.eqns) < 100


def test_nested_short_loops_within_the_limit_unroll():
    def f(x):
        for a in range(2):
            for b in range(4):
                x[a, b] += a * b
        return x

    graph = nptf.compile(f).trace(np.zeros((2, 4)))
    assert not any(e.op.name == "while" for e in graph.eqns)
    check_against_numpy(f, np.zeros((2, 4)))


def written_through_another_name_then_rebound(a, n):
    u0 = a[None]
    for _ in range(n):
        u0[...] = u0 - 0.5        # writes the array `a` holds on the first iteration only
        a = 0.9 * a
    return a


def test_array_written_through_another_name_then_rebound(jit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)      # runs unrolled
        check_against_numpy(written_through_another_name_then_rebound, np.arange(6.0), 12,
                            jit=jit)


def reweight(lik, thr):
    """A particle filter's weights: written in place, reset to a new array on
    resampling."""
    n = lik.shape[1]
    w = np.ones(n) / n
    hist = []
    for row in lik:
        w *= row
        w /= w.sum()
        neff = 1.0 / np.sum(w ** 2)
        hist.append(neff)
        if neff < thr:
            w = np.ones(n) / n
    return w, np.array(hist)


def reset_then_scale(x, c):
    w = x * 1.0
    if c.sum() > 0:
        w = np.zeros(3)
    w *= 2
    return w


def reweight_kept(lik, thr):
    n = lik.shape[1]
    w = np.ones(n) / n
    w0 = w                      # sees the writes until the first reset
    for row in lik:
        w *= row
        w /= w.sum()
        if 1.0 / np.sum(w ** 2) < thr:
            w = np.ones(n) / n
    return w, w0


def reweight_argument(w, lik, thr):
    for row in lik:
        w *= row                # the caller's array, until the first reset
        w /= w.sum()
        if 1.0 / np.sum(w ** 2) < thr:
            w = np.ones(len(w)) / len(w)
    return w


def reweight_previous(lik, thr):
    n = lik.shape[1]
    w = np.ones(n) / n
    prev = w
    for row in lik:
        prev = w                # the same array as `w` where no reset followed
        w *= row
        w /= w.sum()
        if 1.0 / np.sum(w ** 2) < thr:
            w = np.ones(n) / n
    return w, prev


def reset_then_scale_kept(x, c):
    w = x * 1.0
    v = w
    if c.sum() > 0:
        w = np.zeros(3)
    w += 2
    return w, v


_LIK = np.random.RandomState(0).rand(12, 5) + 0.05


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_an_array_written_in_place_and_rebound_that_no_other_name_reaches(jit):
    """``w *= lik`` and, as the data choose, ``w = np.ones(n) / n``: where no other name,
    container or caller reaches ``w``'s array, its writes are its new values, and the
    loop is one graph loop (it ran unrolled, or the call ran NumPy)."""
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        for thr in (1.5, 3.5, 6.0):
            check_against_numpy(reweight, _LIK, thr, jit=jit)
        for c in ([1, 0], [-1, 0]):
            check_against_numpy(reset_then_scale, np.arange(3.0), np.array(c), jit=jit)
    assert not [w for w in said if "unrolled" in str(w.message)]


@pytest.mark.parametrize("fn, args", [
    (reweight_kept, (_LIK, 3.5)), (reweight_argument, (np.ones(5) / 5, _LIK, 3.5)),
    (reweight_previous, (_LIK, 3.5)), (reset_then_scale_kept, (np.arange(3.0), np.ones(2)))])
def test_an_array_written_in_place_and_rebound_that_another_name_reaches(fn, args):
    """The same where another name (or the caller) holds the array: the writes show there
    until the data choose the new array, which the graph cannot follow; the call runs
    NumPy (refused with ``fallback="raise"``)."""
    with pytest.raises(nptf.UnsupportedError, match="memory nptf cannot place"):
        nptf.compile(fn, fallback="raise")(*[np.copy(a) for a in args])
    expected_args, got_args = [np.copy(a) for a in args], [np.copy(a) for a in args]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = nptf.compile(fn)(*got_args)
    assert mismatch((fn(*expected_args), expected_args), (got, got_args)) is None


def flood_values(Z, start, goal):
    # Value iteration over a maze as a NumPy book writes it: the first steps run while
    # the trace knows the values, then a graph loop; views bound afresh on each step.
    G = np.zeros(Z.shape)
    G[start] = 1
    G_gamma = np.empty_like(G)
    while G[goal] == 0.0:
        np.multiply(G, 0.99, out=G_gamma)
        N = G_gamma[0:-2, 1:-1]
        C = G[1:-1, 1:-1]
        S = G_gamma[2:, 1:-1]
        G[1:-1, 1:-1] = Z[1:-1, 1:-1] * np.maximum(N, np.maximum(C, S))
    return G


def test_views_a_loop_body_binds_before_reading_them_are_not_carried(jit):
    """A variable the body binds before it reads it (a view of an array the body writes)
    never reads its value from before an iteration: the graph loop need not carry it."""
    Z = np.ones((8, 3))
    Z[:, 0] = Z[:, -1] = 0
    check_against_numpy(flood_values, Z, (1, 1), (6, 1), jit=jit)


def kept_on_continue(G0, n):
    G = G0 * 1.0
    C = G[1:3]
    k = 0
    while k < n:
        k += 1
        if k % 2 == 0:
            continue            # keeps C from before the iteration: a view NumPy updates
        C = G[1:3]
        G[1:3] = G[1:3] + 1
    return C.sum(), G


def rebound_after_a_handled_error(G0, n):
    G = G0 * 1.0
    C = G[1:3]
    k = 0
    while k < n:
        k += 1
        try:                    # leaves the body on no path: C is rebound on every pass
            G[0] = G[0] + 1
        except ValueError:
            pass
        C = G[1:3]
        G[1:3] = G[1:3] + 1
    return C.sum(), G


def test_a_view_a_continue_may_keep_is_python_s_and_a_try_does_not_keep_one(jit, tmp_path):
    """Where a `continue` may keep a view from before the pass (which NumPy's writes
    update), no graph loop can run the loop: Python runs it for the trip count the
    call's data give (a graph for each), which export refuses; a `try` that leaves the
    body on no path keeps nothing, and the loop compiles."""
    for n in (2, 0, 5, 2):
        check_against_numpy(kept_on_continue, np.arange(4.0), np.int64(n), jit=jit)
    with pytest.raises(nptf.UnsupportedError, match="binds `C` to a new array"):
        nptf.export(kept_on_continue, tmp_path / "m", nptf.Spec((4,)), nptf.Spec((), np.int64))
    for n in (0, 3):
        check_against_numpy(rebound_after_a_handled_error, np.arange(4.0), np.int64(n),
                            jit=jit)
