"""A Python list or tuple the function holds, read at a position known only when the
graph runs (``coeffs[i % 4]`` in a graph loop, ``edges[k]`` in a loop to convergence,
``Ws[int(np.argmax(v))]``): its items are the rows of one array and the read is a row of
it, of the kind the item has. Checked against NumPy through the public API."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy


def weighted(x):
    coeffs = [1, 3, 3, 1]                 # Python ints: weak in NumPy 2's promotion
    w = (0.5, 0.25)
    total = 0.0
    for i in range(len(x)):
        total += coeffs[i % 4] * x[i] + w[i % 2] + coeffs[-1 - i % 4]
    return total


def along_edges(x):
    edges = [(0, 1), (1, 2), (2, 0), (1, 3)]
    acc = np.zeros(4, dtype=x.dtype)
    k = 0
    while k < len(x) and x[k] > 0.05:       # a trip count the data choose
        u, v = edges[k % 4]
        acc[u] += x[k]
        acc[v] -= x[k] * 0.5
        k += 1
    return acc, k


def chosen_matrices(x):
    Ws = [np.eye(2), np.ones((2, 2)), np.array([[0.0, 1.0], [1.0, 0.0]])]
    v = x[:2].copy()
    for i in range(10):
        v = Ws[int(np.argmax(v * (i + 1))) % 3] @ v * 0.5
    return v


def scalars_of_numpy(x):
    levels = [np.float32(0.5), np.float32(1.5), np.float32(2.5)]
    out = np.zeros(len(x), dtype=np.float32)
    for i in range(len(x)):
        out[i] = levels[int(x[i] * 3) % 3] * x[i]
    return out, levels[int(x[0] > 0.5)]


def past_the_end(x):
    coeffs = [1.0, 2.0, 4.0]
    s = 0.0
    for i in range(len(x)):
        s += coeffs[int(x[i] * 4)]
    return s


def written_through(x):
    Ws = [np.zeros(2), np.ones(2)]
    for i in range(10):
        w = Ws[int(x[i] > 0.5)]
        w += 1.0                        # NumPy: the list's own array
    return Ws[0], Ws[1]


RNG = np.random.default_rng(11)


@pytest.mark.parametrize("jit", [False, True], ids=["graph", "xla"])
def test_lists_and_tuples_read_at_traced_positions(jit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        for x in (RNG.random(11), RNG.random(11).astype(np.float32), np.full(11, 0.01)):
            check_against_numpy(weighted, x, jit=jit)
            check_against_numpy(along_edges, x, jit=jit)
            check_against_numpy(scalars_of_numpy, x, jit=jit)
        check_against_numpy(chosen_matrices, RNG.random(3), jit=jit)
        check_against_numpy(past_the_end, RNG.random(11) * 0.7, jit=jit)
        check_against_numpy(past_the_end, np.r_[0.1, 0.95, 0.2], jit=jit)   # IndexError


def test_reads_compile_as_one_graph_loop():
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no "runs unrolled"
        x = RNG.random(11)
        assert nptf.compile(weighted, fallback="raise")(x) == pytest.approx(weighted(x))
    trace = nptf.compile(weighted).trace(RNG.random(11))
    assert any(e.op.name == "while" for e in trace.eqns)


def test_a_write_into_an_array_read_that_way_runs_numpy():
    x = RNG.random(10)
    with pytest.raises(nptf.UnsupportedError):
        nptf.compile(written_through, fallback="raise")(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = nptf.compile(written_through)(x)
    for a, b in zip(got, written_through(x)):
        np.testing.assert_array_equal(a, b)
