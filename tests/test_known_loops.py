"""Loops over values the trace knows run in Python while they compute only such values
(docs/control-flow.md, "Loops on values the trace knows"): a constant table built by a
long loop, a recursion deciding on a constant table's values, a search over a board of a
known size. From the first iteration that reads the data, the rest is a loop as any other.
"""
import numpy as np
import pytest

import nptf
from harness import check_against_numpy


def basis(i, k, t, knots):
    """Cox-de Boor recursion: Python's `if` on values of a constant table."""
    if k == 0:
        if knots[i] <= t < knots[i + 1]:
            return 1.0
        if t == knots[-1] and knots[i] < t <= knots[i + 1]:
            return 1.0
        return 0.0
    left = 0.0
    den = knots[i + k] - knots[i]
    if den > 0:
        left = (t - knots[i]) / den * basis(i, k - 1, t, knots)
    right = 0.0
    den = knots[i + k + 1] - knots[i + 1]
    if den > 0:
        right = (knots[i + k + 1] - t) / den * basis(i + 1, k - 1, t, knots)
    return left + right


def bspline_curve(ctrl, degree=3, n=30):
    m = len(ctrl)
    inner = np.linspace(0, 1, m - degree + 1)
    knots = np.concatenate((np.zeros(degree), inner, np.ones(degree)))
    ts = np.linspace(0, 1, n)
    B = np.array([[basis(i, degree, t, knots) for i in range(m)] for t in ts])
    return B @ ctrl, B.sum(axis=1)


def n_queens(n):
    count = 0
    first = []
    cols = np.zeros(n, dtype=bool)
    d1 = np.zeros(2 * n - 1, dtype=bool)
    d2 = np.zeros(2 * n - 1, dtype=bool)
    placed = [0] * n

    def place(r):
        nonlocal count
        if r == n:
            count += 1
            if not first:
                first.extend(placed)
            return
        for c in range(n):
            if not (cols[c] or d1[r + c] or d2[r - c + n - 1]):
                cols[c] = d1[r + c] = d2[r - c + n - 1] = True
                placed[r] = c
                place(r + 1)
                cols[c] = d1[r + c] = d2[r - c + n - 1] = False

    place(0)
    board = np.zeros((n, n), dtype=np.int8)
    board[np.arange(n), first] = 1
    return count, board


def cosine_table(x):
    n = x.shape[0]
    M = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if (i + j) % 3 == 0:
                M[i, j] = np.cos(np.pi * i * j / n)
    return M @ x


def known_then_data(x):
    kt = np.ones(11)
    for j in range(11):
        if j < 4:
            kt[j] = j * 0.5
        else:
            kt[j] = kt[j - 1] * 0.5 + x[j % x.shape[0]]
    return kt


def break_on_the_data(x):
    kt = np.arange(12.0)
    for j in range(12):
        kt[j] = kt[j] ** 2 % 7
        if kt[j] > 5 + x[0]:
            break
    return kt, j


def break_on_the_table(x):
    kt = np.zeros(10)
    for j in range(10):
        kt[j] = (j * 7) % 5
        if kt[:j + 1].sum() > 12:
            break
    return kt * x[0], j


def items_of_a_constant(x):
    tbl = np.arange(5.0) * 0.5
    first = tbl[3]
    picked = [v for v in np.linspace(0.0, 2.0, 12) if v > 1.0]
    return first, type(first).__name__, len(picked), x * first


def python_sum_past_the_cap(x):
    s = 0
    for i in range(40_000):
        s += i % 7
    return x + s


def reads_the_data(x):
    acc = 0.0
    for i in range(200):
        acc = acc * 0.5 + x[i % x.shape[0]]
    return acc


CASES = [
    (bspline_curve, lambda r: (r.normal(size=(10, 2)),)),
    (n_queens, lambda r: (6,)),
    (cosine_table, lambda r: (r.normal(size=12),)),
    (known_then_data, lambda r: (r.normal(size=5),)),
    (break_on_the_data, lambda r: (np.array([-2.0]),)),
    (break_on_the_data, lambda r: (np.array([9.0]),)),
    (break_on_the_table, lambda r: (r.normal(size=3),)),
    (items_of_a_constant, lambda r: (r.normal(size=4),)),
    (python_sum_past_the_cap, lambda r: (r.normal(size=3),)),
]


@pytest.mark.parametrize("fn,make", CASES, ids=[f"{c[0].__name__}-{i}" for i, c in
                                                enumerate(CASES)])
def test_loops_on_known_values_match_numpy(fn, make, jit):
    check_against_numpy(fn, *make(np.random.default_rng(5)), jit=jit)


def sine_table(x):
    tbl = np.zeros(1000)
    for i in range(1000):
        tbl[i] = np.sin(i * 0.01)
    return x + tbl


def test_a_table_a_long_loop_builds_from_constants_is_a_constant():
    """The graph holds the table's values, not the writes that made them (a thousand
    writes would be some 16,000 TensorFlow operations to build)."""
    graph = nptf.compile(cosine_table, fallback="raise").trace(np.ones(12))
    assert not any(e.op.name == "while" for e in graph.eqns) and len(graph.eqns) <= 3
    graph = nptf.compile(sine_table, fallback="raise").trace(np.ones(1000))
    assert len(graph.eqns) <= 2
    check_against_numpy(sine_table, np.ones(1000))


def test_a_loop_reading_the_data_stays_one_graph_loop():
    graph = nptf.compile(reads_the_data, fallback="raise").trace(np.ones(5))
    assert any(e.op.name == "while" for e in graph.eqns)
    assert len(graph.eqns) < 40      # one body, not a copy of it before the loop


def test_an_exported_model_holds_the_table(tmp_path):
    import tensorflow as tf
    path = str(tmp_path / "model")
    nptf.export(cosine_table, path, nptf.Spec((12,), np.float64))
    x = np.random.default_rng(7).normal(size=12)
    (out,) = tf.saved_model.load(path).signatures["serving_default"](tf.constant(x)).values()
    assert out.dtype == tf.float64 and tuple(out.shape) == (12,)
    np.testing.assert_allclose(out.numpy(), cosine_table(x), rtol=1e-12)


def wave_table(x):
    tbl = np.zeros(60)
    for i in range(60):
        tbl[i] = np.sum(np.sin(np.arange(4.0) * i * 0.01) ** 2 + np.cos(i * 0.02))
    return x + tbl


def test_past_the_cap_of_operations_the_rest_is_a_graph_loop(monkeypatch):
    """A loop on known values runs in Python up to KNOWN_EQUATIONS operations; the
    iterations left are one graph loop, and the result is NumPy's either way."""
    from nptf.tracer import control_flow
    graph = nptf.compile(wave_table, fallback="raise").trace(np.ones(60))
    assert not any(e.op.name == "while" for e in graph.eqns)
    monkeypatch.setattr(control_flow, "KNOWN_EQUATIONS", 100)
    graph = nptf.compile(wave_table, fallback="raise").trace(np.ones(60))
    assert any(e.op.name == "while" for e in graph.eqns)
    check_against_numpy(wave_table, np.ones(60))
