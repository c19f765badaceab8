"""One element whose rank the data choose: ``lo = -np.inf`` on one path of an `if` and
``lo = beta[i].copy()`` of a column on the other (t-SNE's binary search), or a running
sum that starts as ``0`` and meets a column's rows. Elementwise arithmetic with an array
of at least its rank, ``bool()`` and writes into arrays are the same for every rank and
compile; a use that sees the rank runs NumPy (or raises under ``fallback="raise"``)."""
from __future__ import annotations

import numpy as np
import pytest

import nptf
from harness import check_against_numpy


def perplexity_search(D, target):
    beta = np.ones((D.shape[0], 1))
    tries_of = np.zeros(D.shape[0])
    for i in range(D.shape[0]):
        betamin, betamax = -np.inf, np.inf
        tries = 0
        H = np.sum(np.exp(-D[i] * beta[i]))
        while np.abs(H - target) > 1e-6 and tries < 50:
            if H > target:
                betamin = beta[i].copy()
                if betamax == np.inf or betamax == -np.inf:
                    beta[i] = beta[i] * 2.
                else:
                    beta[i] = (beta[i] + betamax) / 2.
            else:
                betamax = beta[i].copy()
                if betamin == np.inf or betamin == -np.inf:
                    beta[i] = beta[i] / 2.
                else:
                    beta[i] = (beta[i] + betamin) / 2.
            H = np.sum(np.exp(-D[i] * beta[i]))
            tries += 1
        tries_of[i] = tries
    return beta, tries_of


def discount_rewards(r, gamma=0.99):
    discounted = np.zeros_like(r)
    running_add = 0
    for t in reversed(range(0, r.size)):
        if r[t] != 0:
            running_add = 0
        running_add = running_add * gamma + r[t]
        discounted[t] = running_add
    return discounted


def _lower_bound(x):
    lo = -np.inf
    if x.sum() > 0:
        lo = x[1:2].copy()
    return lo


def shifted(x):
    return x * 0.5 + _lower_bound(x)


def decided_by(x):
    lo = _lower_bound(x)
    if lo == -np.inf or lo > 2.5:
        return x * 2
    return x - lo


def written(x, out):
    lo = _lower_bound(x)
    out[1:] = lo * 2
    out[:1] = lo
    return out


def on_a_matrix(x):
    return _lower_bound(x) + np.zeros((2, 3))


def run_last(r):
    running = 0
    for t in range(r.shape[0]):
        running = running * 0.5 + r[t]
    return running


def _accumulated(col):
    acc = 1.0
    k = 0
    while k < col.shape[0] and col[k, 0] > 0:
        acc = acc * 0.5 + col[k]
        k += 1
    return acc


def until_small(col):
    return col * _accumulated(col)


def returned(x):
    return _lower_bound(x)


def summed(x):
    return np.sum(_lower_bound(x)) + x


def indexed(x):
    return x + _lower_bound(x)[0]


def as_float(x):
    return x + float(_lower_bound(x))


def in_where(x):
    return np.where(x > 0, _lower_bound(x), x)


def floor_of_int_path(x):
    v = 0
    if x.sum() > 0:
        v = x[:1] * 1.5
    return x + v // 2


def stopped_loop(col):
    return _accumulated(col)


POSITIVE, NEGATIVE = np.array([1.0, 2.0, 3.0]), np.array([-1.0, 2.0, -3.0])


def test_perplexity_binary_search_compiles():
    D = np.abs(np.random.default_rng(0).normal(size=(5, 7)))
    check_against_numpy(perplexity_search, D, 3.0)


@pytest.mark.parametrize("r", [
    np.where(np.random.default_rng(1).random((300, 1)) < 0.05, 1.0, 0.0),
    np.array([[0.0], [0.0], [1.0], [0.0], [-1.0], [0.0]]),
    np.where(np.random.default_rng(2).random(200) < 0.05, -1.0, 0.0)])
def test_discounted_rewards_of_a_column(r):
    check_against_numpy(discount_rewards, r)


@pytest.mark.parametrize("fn", [shifted, decided_by, on_a_matrix])
@pytest.mark.parametrize("x", [POSITIVE, NEGATIVE], ids=["array", "number"])
def test_uses_every_rank_gives_alike(fn, x):
    check_against_numpy(fn, x)


@pytest.mark.parametrize("x", [POSITIVE, NEGATIVE], ids=["array", "number"])
def test_writes_into_parts_of_rank_one(x):
    check_against_numpy(written, x, np.zeros(3))


def test_loop_known_to_run_gives_the_bodys_rank():
    check_against_numpy(run_last, np.random.default_rng(3).normal(size=(300, 1)))


@pytest.mark.parametrize("col", [np.full((40, 1), 0.5), -np.ones((3, 1))])
def test_loop_that_may_not_run_settled_by_a_column(col):
    check_against_numpy(until_small, col)


@pytest.mark.parametrize("fn, x", [
    (returned, POSITIVE), (summed, POSITIVE), (indexed, POSITIVE), (as_float, NEGATIVE),
    (in_where, POSITIVE), (floor_of_int_path, NEGATIVE), (stopped_loop, np.full((4, 1), 0.5))])
def test_uses_that_see_the_rank_are_refused(fn, x):
    with pytest.raises(nptf.Error, match="as the data choose"):
        nptf.compile(fn, fallback="raise")(x)
    with pytest.warns(RuntimeWarning, match="as the data choose"):
        got = nptf.compile(fn)(x)
    expected = fn(x)
    assert type(got) is type(expected) and np.shape(got) == np.shape(expected)
    np.testing.assert_array_equal(got, expected)
