"""NumPy Generators made outside the compiled function (an argument, a module's global, a
static argument): the graph draws NumPy's own numbers from the Generator's state and
leaves the Generator where NumPy's draws leave it."""
from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy

ALPHA_0, ALPHA_1, BETA = 1e-5, 0.1, 0.9


def garch(rng, n):
    s2 = 0
    r = np.zeros(n)
    for t in range(n - 1):
        xi = rng.standard_normal()
        s2 = ALPHA_0 + s2 * (ALPHA_1 * xi ** 2 + BETA)
        r[t] = np.sqrt(s2) * rng.standard_normal()
    return r


def call_price(mu, h0, n, rho, nu, m, rng):
    s = np.full(m, np.log(100.0))
    h = np.full(m, h0)      # int64 when h0 is an int: float64 after the first step
    for _ in range(n):
        z = rng.standard_normal((2, m))
        s = s + mu + np.exp(h) * z[0, :]
        h = rho * h + nu * z[1, :]
    return np.mean(np.maximum(np.exp(s) - 100.0, 0))


def barrier(n, paths, rng):
    total = 0.0
    for _ in range(paths):
        s = 0.0
        hit = False
        for _ in range(n):
            s = s + 0.1 * rng.standard_normal()
            if s > 0.3:
                hit = True
                break
        if not hit:
            total += max(s, 0.0)
    return total / paths


def bootstrap(x, rng, k):
    idx = rng.integers(0, len(x), size=(k, len(x)))
    return (x[idx].mean(axis=1), rng.choice(x, 3), rng.permutation(x), rng.random(),
            rng.integers(5), rng.normal(x, 1.0), rng.multivariate_normal(x[:2], np.eye(2)))


def accept_reject(x, rng):
    out = []
    while len(out) < 5:
        u = rng.random()
        if u < x[0]:
            out.append(u)
    return np.array(out)


@pytest.mark.parametrize("fn, args", [
    (garch, (np.random.default_rng(12), 40)),
    (call_price, (1e-4, 0, 10, 0.1, 1e-3, 50, np.random.default_rng(1))),
    (barrier, (10, 12, np.random.default_rng(2))),
    (bootstrap, (np.arange(6.0), np.random.default_rng(3), 4)),
    (accept_reject, (np.array([0.5]), np.random.default_rng(4))),
])
def test_a_generator_argument_draws_numpy_s_numbers(fn, args, jit):
    """Draws in graph loops (of known and run-time trip counts, with `break`), under traced
    branches and at the top, of every kind (Python floats, sizes, arrays of parameters,
    `choice`/`permutation` of an array): NumPy's numbers, and the Generator left in
    NumPy's state."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        check_against_numpy(fn, *args, jit=jit)


def test_each_call_continues_the_generator_s_stream():
    """One graph for every call; each call starts where the last left the Generator."""
    f = nptf.compile(garch, fallback="raise")
    mine, numpy_s = np.random.default_rng(7), np.random.default_rng(7)
    for _ in range(3):
        np.testing.assert_array_equal(f(mine, 20), garch(numpy_s, 20))
    assert mine.random() == numpy_s.random()
    assert f.cache_info().traces == 1


RNG = np.random.default_rng(0)


def noisy(x):
    return x + RNG.normal(size=x.shape), RNG.integers(0, 10, size=2)


def test_a_module_s_generator_draws_numpy_s_numbers():
    """``RNG = np.random.default_rng(0)`` at module level, drawn from in the function: its
    state is read at every call and written back after it; a new Generator bound to the
    name is traced anew."""
    global RNG
    f = nptf.compile(noisy, fallback="raise")
    x = np.zeros(3)
    for seed in (0, 5):
        RNG = np.random.default_rng(seed)
        reference = copy.deepcopy(RNG)
        for _ in range(2):
            got = f(x)
            RNG, mine = reference, RNG
            expected = noisy(x)
            RNG, reference = mine, RNG
            for g, e in zip(got, expected):
                np.testing.assert_array_equal(g, e)
        assert RNG.random() == reference.random()
    assert f.cache_info().traces == 2


def draws_from(x, rng):
    return x + rng.normal(size=x.shape)


def test_a_static_generator_is_drawn_from_at_every_call():
    """A Generator marked static is the same object at every call, whose draws move on."""
    f = nptf.compile(draws_from, static_argnames=["rng"], fallback="raise")
    mine, numpy_s = np.random.default_rng(3), np.random.default_rng(3)
    x = np.zeros(4)
    first = f(x, mine)
    np.testing.assert_array_equal(first, draws_from(x, numpy_s))
    np.testing.assert_array_equal(f(x, mine), draws_from(x, numpy_s))
    assert mine.random() == numpy_s.random()


LEGACY = np.random.RandomState(0)


def legacy_noise(x):
    return x + LEGACY.normal(size=x.shape)


def test_generators_nptf_does_not_draw_from_run_with_numpy():
    """A Generator on another bit generator, a RandomState argument or global: nptf's
    error under fallback="raise", NumPy's run by default (NumPy's numbers either way)."""
    x = np.zeros(3)
    mt = np.random.Generator(np.random.MT19937(0))
    with pytest.raises(nptf.ArgumentError, match="MT19937.*PCG64"):
        nptf.compile(draws_from, fallback="raise")(x, mt)
    with pytest.raises(nptf.ArgumentError, match="RandomState.*default_rng"):
        nptf.compile(draws_from, fallback="raise")(x, np.random.RandomState(0))
    with pytest.raises(nptf.UnsupportedError, match="RandomState.normal.*outside"):
        nptf.compile(legacy_noise, fallback="raise")(x)
    with pytest.warns(RuntimeWarning, match="runs with NumPy"):
        got = nptf.compile(legacy_noise)(x)
    np.testing.assert_array_equal(got, x + np.random.RandomState(0).normal(size=3))


def argument_and_global(x, rng):
    return rng.random() + RNG.random() + x


def test_one_generator_through_two_names_runs_with_numpy():
    """The same Generator as an argument and as the global the function reads: NumPy's
    run (the graph would draw twice from one state)."""
    global RNG
    RNG = np.random.default_rng(9)
    f = nptf.compile(argument_and_global, fallback="raise")
    assert f(0.0, np.random.default_rng(1)) == pytest.approx(
        np.random.default_rng(1).random() + np.random.default_rng(9).random())
    with pytest.raises(nptf.OutsideTheGraphError, match="two names"):
        f(0.0, RNG)
    g = nptf.compile(argument_and_global)
    RNG, reference = np.random.default_rng(9), np.random.default_rng(9)
    with pytest.warns(RuntimeWarning, match="two names"):
        got = g(0.0, RNG)
    assert got == reference.random() + reference.random()


def test_a_module_s_generator_is_not_exported_nor_transformed(tmp_path):
    """A SavedModel cannot call NumPy's Generator, and nptf.grad carries no Generator
    state it did not get as an argument: both say so."""
    global RNG
    RNG = np.random.default_rng(0)
    with pytest.raises(nptf.UnsupportedError, match="Generator made outside"):
        nptf.export(noisy, str(tmp_path / "m"), nptf.Spec((3,), np.float64))
    with pytest.raises(nptf.UnsupportedError, match="Generator made outside"):
        nptf.grad(lambda x: np.sum(noisy(x)[0]))(np.zeros(3))
    with pytest.raises(nptf.SpecError, match="Generator is not an example array"):
        nptf.export(draws_from, str(tmp_path / "g"), nptf.Spec((3,), np.float64),
                    np.random.default_rng(0))
    with pytest.raises(nptf.UnsupportedError, match="Generator made outside"):
        nptf.export(draws_from, str(tmp_path / "s"), nptf.Spec((3,), np.float64),
                    static_args={"rng": np.random.default_rng(0)})
