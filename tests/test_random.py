"""np.random inside compiled functions: NumPy's shapes and dtypes, right distributions,
a new draw on every call (and every loop iteration), reproducible with a seed."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import nptf

N = 20_000


def legacy_draws(x):
    return (np.random.rand(3, 2), np.random.randn(4), np.random.random((2, 2)),
            np.random.randint(0, 10, size=5), np.random.randint(7), np.random.uniform(-1, 1, 3),
            np.random.normal(2.0, 3.0, size=(2,)), np.random.rand(), np.random.permutation(6),
            np.random.choice(5, size=3, replace=False), np.random.exponential(2.0, 4),
            x + np.random.random(x.shape), np.random.choice(5), np.random.choice(x))


def generator_draws(x):
    rng = np.random.default_rng()
    return (rng.random(3), rng.random((2,), dtype=np.float32), rng.normal(size=(2, 2)),
            rng.integers(0, 5, size=4), rng.integers(3), rng.standard_normal(3),
            rng.exponential(size=2), rng.choice(np.arange(10.0), size=2), rng.permutation(x),
            rng.binomial(10, 0.5, size=3), rng.poisson(3.0, size=3), rng.uniform(0, 2),
            rng.choice(5), rng.choice(np.int32(5)), rng.choice(x))


def random_state_draws(x):
    rs = np.random.RandomState(3)
    return (rs.rand(3, 2), rs.randn(4), rs.random_sample((2, 2)), rs.randint(0, 10, size=5),
            rs.randint(7), rs.uniform(-1, 1, 3), rs.normal(2.0, 3.0, size=(2,)), rs.rand(),
            rs.permutation(6), rs.choice(5, size=3, replace=False), rs.exponential(2.0, 4),
            x + rs.random_sample(x.shape))


@pytest.mark.parametrize("fn", [legacy_draws, generator_draws, random_state_draws])
def test_shapes_dtypes_and_kinds_match_numpy(fn, jit):
    x = np.arange(4.0)
    expected = fn(x)
    got = nptf.compile(fn, jit_compile=jit, fallback="raise")(x)
    for e, g in zip(expected, got):
        assert type(g) is type(e), (type(g), type(e))
        assert np.shape(g) == np.shape(e)
        if isinstance(e, np.ndarray):
            assert g.dtype == e.dtype


def sized_by_the_data(x):
    n = np.count_nonzero(x > 0)
    rng = np.random.default_rng()
    noise = x[x > 0] + rng.standard_normal(n)          # one draw per selected element
    return (noise, rng.random((n, 2)), rng.integers(0, 5, size=n), rng.uniform(-1, 1, n),
            rng.normal(2.0, 3.0, size=(2, int(np.sum(x > 1)))), np.random.rand(n),
            np.random.randn(n, 3), rng.exponential(2.0, n), rng.choice(x, size=n))


@pytest.mark.parametrize("x", [np.array([-1.0, 2.0, 0.5, 3.0]), -np.ones(3)],
                         ids=["some", "none"])
def test_draws_of_sizes_known_only_at_run_time(x):
    expected = sized_by_the_data(x)
    got = nptf.compile(sized_by_the_data, fallback="raise")(x)
    for e, g in zip(expected, got):
        assert g.dtype == e.dtype and g.shape == e.shape, (g, e)
    assert np.all((got[1] >= 0) & (got[1] < 1)) and np.all((got[2] >= 0) & (got[2] < 5))


def seeded_then_sized_by_the_data(x, seeding):
    rng = seeding()
    w = rng.normal(size=3)                      # NumPy's own numbers, drawn while tracing
    return w, rng.standard_normal(np.count_nonzero(x > 0))


def test_a_seeded_stream_never_gives_other_numbers_than_numpy():
    """After a seed inside the function NumPy's numbers are fixed; a Generator's draw
    nptf cannot make as NumPy does (here of a size known only at run time) is not
    compiled: by default the call runs with NumPy."""
    x = np.array([-1.0, 2.0, 0.5, 3.0])
    seeding = lambda: np.random.default_rng(0)  # noqa: E731
    with pytest.raises(nptf.UnsupportedError, match="size known only at run time"):
        nptf.compile(seeded_then_sized_by_the_data, fallback="raise",
                     static_argnames=("seeding",))(x, seeding)
    expected = seeded_then_sized_by_the_data(x, seeding)
    with pytest.warns(RuntimeWarning, match="runs with NumPy"):
        got = nptf.compile(seeded_then_sized_by_the_data,
                           static_argnames=("seeding",))(x, seeding)
    for e, g in zip(expected, got):
        np.testing.assert_array_equal(g, e)


@pytest.mark.parametrize("seeding", [lambda: np.random.RandomState(0),
                                     lambda: (np.random.seed(0), np.random)[1]],
                         ids=["RandomState", "seed"])
def test_a_seeded_legacy_stream_draws_sizes_from_the_data_as_numpy(seeding):
    """The same draws from a legacy stream (RandomState, np.random.seed) compile: its
    Mersenne Twister runs in the graph from the seed on."""
    x = np.array([-1.0, 2.0, 0.5, 3.0])
    got = nptf.compile(seeded_then_sized_by_the_data, fallback="raise",
                       static_argnames=("seeding",))(x, seeding)
    for e, g in zip(seeded_then_sized_by_the_data(x, seeding), got):
        np.testing.assert_allclose(g, e, rtol=1e-12)


@pytest.mark.parametrize("draw", [lambda rng, n: rng.binomial(5, 0.5, size=n),
                                  lambda rng, n: rng.poisson(2.0, n),
                                  lambda rng, n: rng.choice(9, size=n, replace=False)],
                         ids=["binomial", "poisson", "choice"])
def test_draws_of_run_time_sizes_nptf_does_not_compile_run_numpy(draw):
    def f(x):
        return draw(np.random.default_rng(0), np.count_nonzero(x > 0))
    x = np.array([1.0, -2.0, 3.0])
    with pytest.raises(nptf.UnsupportedError, match="size known only at run time"):
        nptf.compile(f, fallback="raise")(x)
    with pytest.warns(RuntimeWarning, match="runs with NumPy"):
        assert nptf.compile(f)(x).shape == (2,)


def test_every_call_draws_anew_and_seeding_reproduces():
    f = nptf.compile(lambda x: x + np.random.rand(5), fallback="raise")
    x = np.zeros(5)
    assert not np.array_equal(f(x), f(x))
    np.random.seed(7)
    a = f(x)
    np.random.seed(7)
    assert np.array_equal(a, f(x))


def test_a_seed_inside_the_function_repeats_like_numpy():
    def g(x):
        rng = np.random.default_rng(42)
        return x + rng.random(3)

    f = nptf.compile(g, fallback="raise")
    first = f(np.zeros(3))
    for _ in range(8):      # past the calls that choose the executor: the draws stay put
        assert np.array_equal(f(np.zeros(3)), first)


def test_a_random_state_inside_the_function_repeats_like_numpy():
    def seeded(x):
        rs = np.random.RandomState(42)
        first = rs.rand(3)
        rs.seed(42)
        return x + first, x + rs.rand(3), rs.rand(3)

    def unseeded(x):
        return x + np.random.RandomState().rand(3)

    f = nptf.compile(seeded, fallback="raise")
    a = f(np.zeros(3))
    assert np.array_equal(a[0], a[1]) and not np.array_equal(a[1], a[2])
    for _ in range(8):
        assert all(np.array_equal(u, v) for u, v in zip(f(np.zeros(3)), a))
    g = nptf.compile(unseeded, fallback="raise")
    assert not np.array_equal(g(np.zeros(3)), g(np.zeros(3)))


def seeded_legacy_draws(x):
    np.random.seed(42)
    return (legacy_draws(x), np.random.standard_normal((2, 2)), np.random.sample(2),
            np.random.binomial(10, 0.3, 3), np.random.poisson(2.0, 3))


def seeded_generator_draws(x):
    rng = np.random.default_rng(7)
    out = (rng.random(3), rng.normal(size=(2, 3)), rng.integers(0, 5, 4), rng.permutation(x),
           rng.choice(x, 2), rng.choice(5, 3, replace=False), rng.uniform(0, 2),
           rng.choice(5, 2, p=[0.1, 0.2, 0.3, 0.2, 0.2]))
    rng.shuffle(x)
    return out


def seeded_random_state_draws(x):
    rs = np.random.RandomState(3)
    m = x.reshape(2, 2).copy()
    rs.shuffle(m)
    return random_state_draws(x) + (rs.randn(2), m, rs.choice(x, 3, replace=False))


def xor_net(epochs, lr=0.5):
    # a network trained from weights drawn after a seed inside the function
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    y = np.array([[0], [1], [1], [0]])
    np.random.seed(1)
    W1, b1 = np.random.uniform(size=(2, 3)), np.random.uniform(size=(1, 3))
    W2, b2 = np.random.uniform(size=(3, 1)), np.random.uniform(size=(1, 1))
    for _ in range(epochs):
        hidden = 1 / (1 + np.exp(-(X @ W1 + b1)))
        out = 1 / (1 + np.exp(-(hidden @ W2 + b2)))
        d_out = (y - out) * out * (1 - out)
        d_hidden = d_out @ W2.T * hidden * (1 - hidden)
        W2 += hidden.T @ d_out * lr
        b2 += d_out.sum(axis=0, keepdims=True) * lr
        W1 += X.T @ d_hidden * lr
        b1 += d_hidden.sum(axis=0, keepdims=True) * lr
    return out


def draws_then_loop_draws(x, n):
    np.random.seed(0)
    w = np.random.randn(3)
    for _ in range(n):                         # a graph loop of a known trip count
        w = w + 0.01 * np.random.randn(3) * x.mean()
    return w, np.random.rand(2)


def nested_loop_draws(x):
    rs = np.random.RandomState(3)
    acc = x.copy()
    for i in range(10):
        for j in range(12):                    # both graph loops
            acc = acc + rs.randn(3) * j + rs.randint(0, 4)
        acc = acc * rs.uniform(0.5, 1.5)       # a Python float each iteration
    return acc, rs.randint(0, 100)


def bootstrap_means(x, n_boot=40, seed=1):
    rng = np.random.default_rng(seed)
    means = np.empty(n_boot)
    for b in range(n_boot):
        means[b] = rng.choice(x, size=len(x), replace=True).mean()
    return np.percentile(means, [2.5, 97.5]), rng.random()


def permutation_test(a, n_perm=30, seed=0):
    rng = np.random.default_rng(seed)
    pooled = np.concatenate([a, a[::-1] + 0.5])
    observed = abs(a.mean() - pooled[len(a):].mean())
    count = 0
    for _ in range(n_perm):
        rng.shuffle(pooled)
        if abs(pooled[:len(a)].mean() - pooled[len(a):].mean()) >= observed:
            count += 1
    return count / n_perm, rng.permutation(len(a))


def markov_walk(x, steps=25):
    P = np.outer(np.ones(4), x) / x.sum()      # probabilities from the data
    np.random.seed(4)
    state, path = 0, []
    for _ in range(steps):
        state = np.random.choice(len(P), p=P[state])
        path.append(state)
    return path, np.random.choice(x, p=P[0])


def euler_maruyama(x, mu=0.1, sigma=0.2, T=1.0, n=30):
    rng = np.random.default_rng(3)
    dt = T / n                                 # traced: T is a float argument
    out = np.empty((n + 1, x.size))
    out[0] = x
    for i in range(n):
        dW = rng.normal(0, np.sqrt(dt), size=x.size)
        out[i + 1] = out[i] + mu * out[i] * dt + sigma * out[i] * dW
    return out, rng.normal(x, sigma), rng.uniform(x, x + T), rng.exponential(sigma)


@pytest.mark.parametrize("fn", [draws_then_loop_draws, nested_loop_draws, bootstrap_means,
                                permutation_test, markov_walk, euler_maruyama])
def test_draws_in_loops_of_known_trip_counts_are_numpy_s(fn, jit):
    """After a seed inside the function, the draws of a graph loop over a Python range
    (nested too) are NumPy's numbers, every iteration's, drawn once the loop is traced;
    draws with traced parameters (normal(0, sqrt(dt)), choice(n, p=P[state])) are
    NumPy's standard draws transformed in the graph. They were refused."""
    from harness import check_against_numpy
    args = (np.arange(1.0, 5.0), 30) if fn is draws_then_loop_draws else (np.arange(1.0, 5.0),)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        check_against_numpy(fn, *args, jit=jit)


def test_a_loop_s_draws_stay_in_a_graph_loop():
    f = nptf.compile(draws_then_loop_draws, fallback="raise")
    assert any(e.op.name == "while" for e in f.trace(np.zeros(3), 30).eqns)


def scale_from_data(x):
    rng = np.random.default_rng(1)
    return rng.normal(0.0, x)


def test_a_traced_parameter_numpy_refuses_raises_numpy_s_error():
    f = nptf.compile(scale_from_data, fallback="raise")
    np.testing.assert_array_equal(f(np.arange(3.0)), scale_from_data(np.arange(3.0)))
    with pytest.raises(ValueError, match="scale < 0"):
        f(np.array([1.0, -1.0, 2.0]))


def draws_in_a_branch(x):
    rng = np.random.default_rng(0)
    for i in range(20):
        if x[i % 3] > 1.5:                     # how many draws: the data's to say
            x = x + rng.random()
    return x


def draws_after_or(x):
    rng = np.random.default_rng(0)
    for i in range(20):
        if x[0] > 2 or rng.random() < 0.5:     # drawn only where x[0] <= 2
            x = x + 1.0
    return x


def draws_until(x):
    rng = np.random.default_rng(0)
    while x[0] < 3:
        x = x + rng.random()
    return x


def draws_until_break(x):
    rng = np.random.default_rng(0)
    for _ in range(20):
        x = x + rng.random()
        if x[0] > 3:
            break
    return x


def too_many_draws(x):
    rng = np.random.default_rng(0)
    for _ in range(1000):
        x = x + rng.random(10_000)
    return x


def test_draws_past_the_numbers_a_graph_holds_run_numpy():
    """A loop's draws from a Generator seeded inside the function, past the numbers a
    graph holds as constants: not compiled; by default the call runs with NumPy."""
    x = np.array([1.0, 2.0, 2.5] + [0.0] * 9_997)
    with pytest.raises(nptf.UnsupportedError, match="seed set inside the function"):
        nptf.compile(too_many_draws, fallback="raise")(x.copy())
    expected = too_many_draws(x.copy())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs with NumPy"
        got = nptf.compile(too_many_draws)(x.copy())
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("fn", [draws_in_a_branch, draws_after_or, draws_until,
                                draws_until_break])
def test_generator_draws_the_data_decide_are_numpy_s(fn, jit):
    """A draw from a Generator seeded inside the function whose count the data decide
    (under a traced ``if`` or ``or``, in a ``while`` or a loop with ``break``): the
    Generator's state goes through the graph to NumPy's own Generator. They were
    refused."""
    from harness import check_against_numpy
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        check_against_numpy(fn, np.array([1.0, 2.0, 2.5]), jit=jit)


def random_walk(steps):
    pos = np.zeros(steps + 1)
    for i in range(steps):
        pos[i + 1] = pos[i] + np.random.standard_normal()
    return pos


def test_loop_iterations_draw_different_numbers():
    f = nptf.compile(random_walk, fallback="raise", static_argnames=["steps"])
    walk = f(200)
    assert any(e.op.name == "while" for e in f.trace(200).eqns)
    increments = np.diff(walk)
    assert len(np.unique(increments)) == 200
    assert abs(increments.mean()) < 0.3 and 0.8 < increments.std() < 1.2


@pytest.mark.parametrize("draw, mean, std", [
    (lambda: np.random.rand(N), 0.5, np.sqrt(1 / 12)),
    (lambda: np.random.normal(3.0, 2.0, N), 3.0, 2.0),
    (lambda: np.random.exponential(2.0, N), 2.0, 2.0),
    (lambda: np.random.randint(0, 10, N).astype(float), 4.5, np.sqrt(99 / 12)),
    (lambda: np.random.default_rng().poisson(4.0, N).astype(float), 4.0, 2.0),
    (lambda: np.random.default_rng().binomial(20, 0.3, N).astype(float), 6.0, np.sqrt(4.2)),
    (lambda: np.random.RandomState(5).randn(N), 0.0, 1.0),
    (lambda: np.random.RandomState(5).uniform(2.0, 4.0, N), 3.0, np.sqrt(4 / 12)),
])
def test_distributions(draw, mean, std):
    sample = nptf.compile(lambda: draw(), fallback="raise")()
    assert abs(sample.mean() - mean) < 5 * std / np.sqrt(N)
    assert abs(sample.std() - std) < 0.05 * std


def markov_walk(P, steps=60):
    rng = np.random.default_rng()
    state, visits = 0, np.zeros(len(P), dtype=int)
    for _ in range(steps):
        state = rng.choice(len(P), p=P[state])
        visits[state] += 1
    return visits, state, rng.choice(np.array([10, 20, 30]), size=(N,), p=P[1]), \
        np.random.choice(3, 2, p=P[2])


def test_a_choice_with_probabilities_draws_them():
    P = np.array([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5], [0.0, 0.1, 0.9]])
    expected = markov_walk(P)
    got = nptf.compile(markov_walk, fallback="raise")(P)
    for e, g in zip(expected, got):
        assert type(g) is type(e) and np.shape(g) == np.shape(e)
        assert np.asarray(g).dtype == np.asarray(e).dtype
    visits, state, sample, legacy = got
    assert visits.sum() == 60 and np.isin(legacy, [1, 2]).all()
    for value, p in zip((10, 20, 30), P[1]):
        assert abs(np.mean(sample == value) - p) < 5 * np.sqrt(p * (1 - p) / N)


@pytest.mark.parametrize("p, message", [
    ([0.5, 0.6, -0.1], "not non-negative"), ([0.2, 0.2, 0.2], "do not sum to 1"),
    ([np.nan, 0.5, 0.5], "contain NaN")])
def test_a_choice_with_wrong_probabilities_raises_numpy_s_error(p, message):
    def draw(p):
        return np.random.default_rng().choice(3, p=p)
    with pytest.raises(ValueError, match=message):
        draw(np.array(p))
    with pytest.raises(ValueError, match=message):
        nptf.compile(draw, fallback="raise")(np.array(p))


def test_permutation_and_shuffle_are_permutations():
    def f(x):
        y = x.copy()
        np.random.shuffle(y)
        return np.random.permutation(10), y

    p, y = nptf.compile(f, fallback="raise")(np.arange(8.0))
    assert sorted(p) == list(range(10)) and sorted(y) == list(range(8))


def test_export_of_a_random_function_takes_a_seed_input(tmp_path):
    import tensorflow as tf

    def noisy(x):
        return x + np.random.normal(0.0, 1.0, x.shape)

    nptf.export(noisy, tmp_path / "model", nptf.Spec((5,), np.float64))
    serve = tf.saved_model.load(str(tmp_path / "model")).signatures["serving_default"]
    seed = tf.constant([1, 2], tf.int64)
    a = serve(x=tf.zeros([5], tf.float64), rng_seed=seed)["output_0"].numpy()
    b = serve(x=tf.zeros([5], tf.float64), rng_seed=seed)["output_0"].numpy()
    c = serve(x=tf.zeros([5], tf.float64), rng_seed=tf.constant([3, 4], tf.int64))["output_0"].numpy()
    assert a.shape == (5,) and np.array_equal(a, b) and not np.array_equal(a, c)


# Draws whose count the data decide, from legacy streams the function seeds: the
# stream's Mersenne Twister runs in the graph, word for word as NumPy's.
def metropolis(x, sweeps=3):
    np.random.seed(1)
    spins = np.random.choice([-1, 1], size=(4, 4))
    for _ in range(sweeps):
        for _ in range(16):
            i, j = np.random.randint(0, 4, size=2)
            nb = spins[(i + 1) % 4, j] + spins[(i - 1) % 4, j] + spins[i, (j + 1) % 4]
            dE = 2 * spins[i, j] * nb
            if dE <= 0 or np.random.rand() < np.exp(-x[0] * dE):
                spins[i, j] *= -1
    return spins, np.random.rand()


def walk_until(x):
    rs = np.random.RandomState(7)
    pos, steps = 0.0, 0
    while abs(pos) < x[0]:                       # a run-time count of draws
        pos += rs.normal(0.0, x[1])
        steps += 1
    return pos, steps, rs.randn(3), rs.randint(0, 10)


def branchy_draws(x):
    np.random.seed(3)
    out = x.copy()
    for i in range(12):
        if out[i % 3] > 0.5:
            out = out + np.random.randn(3)          # pairs of normals split across draws
        elif out[i % 3] > -0.5:
            out = np.where(np.arange(3) == i % 3, np.random.uniform(-1, out[1] + 2.0), out)
        else:
            out = out[np.random.permutation(3)] + np.random.exponential(0.5)
        if np.random.random_sample() < 0.3:
            order = np.arange(3)
            np.random.shuffle(order)
            out = out[order]
    return out, np.random.choice(5, 2, p=[0.1, 0.2, 0.3, 0.2, 0.2]), np.random.choice(7, 3,
                                                                                      replace=False)


def legacy_sized_by_the_data(x):
    rs = np.random.RandomState(11)
    n = int(np.sum(x > 0))                      # a size known when the call runs
    w = rs.randn(n, 2)
    big = rs.rand(700 + n)                      # past one block of 624 words
    if x[0] > 0:
        w = w + rs.randint(0, 3, size=(n, 2))
    return w, big, rs.rand()


def every_sampler(x):
    # Each legacy sampler from a stream in the graph (the draw under ``if`` puts it
    # there), at positions across the Twister's blocks of 624 words.
    np.random.seed(5)
    first = -1.0
    if x[0] > 0:
        first = np.random.rand()                    # two words, or none
    return (first, np.random.rand(311),             # to word 622 of the first block
            np.random.randn(3),                  # across a block; one normal cached
            np.random.randn(),                   # the cached one
            np.random.randint(0, 7, size=700),   # masked rejection, many tries
            np.random.permutation(9),
            np.random.rand(1500),                # three blocks in one draw
            np.random.randint(-5, 2 ** 31, size=5),
            np.random.randint(0, 2 ** 32, size=3),   # every word kept
            np.random.randint(3, 4, size=4),     # one value: no word drawn
            np.random.exponential(2.0, 4), np.random.uniform(-2, 5, (2, 2)),
            np.random.normal(1.0, 3.0), np.random.choice(x, 6),
            np.random.choice(7, 4, replace=False), np.random.rand())


@pytest.mark.parametrize("fn, args", [
    (every_sampler, (np.array([1.0, 2.0, 3.0]),)),
    (every_sampler, (np.array([-1.0, 2.0, 3.0]),)),
    (metropolis, (np.array([0.6]),)),
    (walk_until, (np.array([3.0, 0.7]),)),
    (branchy_draws, (np.array([0.9, -0.2, -1.5]),)),
    (branchy_draws, (np.array([-0.9, 0.2, 1.5]),)),
    (legacy_sized_by_the_data, (np.array([1.0, -2.0, 3.0, 4.0]),)),
    (legacy_sized_by_the_data, (np.array([-1.0, -2.0]),)),
])
def test_legacy_draws_the_data_decide_are_numpy_s(fn, args, jit):
    """np.random.seed(s) or RandomState(s) inside the function, then draws under a traced
    if (``or`` too), in a while loop, or of a size from the data: the stream's Mersenne
    Twister and NumPy's legacy samplers (two words a double, polar normals with the
    cached second one, masked integers, the shuffle's intervals) run in the graph. They
    were refused."""
    from harness import check_against_numpy
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        check_against_numpy(fn, *args, jit=jit)


def test_a_stream_in_the_graph_repeats_numpy_s_numbers_on_every_call():
    f = nptf.compile(walk_until, fallback="raise")
    for x in (np.array([3.0, 0.7]), np.array([1.0, 0.3]), np.array([3.0, 0.7])):
        for got, want in zip(f(x), walk_until(x)):
            np.testing.assert_allclose(got, want, rtol=1e-12)
    assert any(e.op.name == "mt_draw" for e in f.trace(np.array([3.0, 0.7])).eqns)


def float32_probabilities(c):
    rng = np.random.default_rng(4)
    p = np.abs(c) / np.abs(c).sum()             # float32: its sum is 1 to float32's rounding
    return rng.choice(3, size=5, p=p), np.random.choice(3, p=p)


def test_float32_probabilities_sum_to_one_within_their_own_rounding():
    """NumPy's choice allows p of float32 a sum off 1 by sqrt(float32's eps); nptf held it
    to float64's and raised "Probabilities do not sum to 1" where NumPy drew."""
    c = np.array([0.1, 0.2, 0.3], np.float32)
    assert abs(float(np.sum(np.abs(c) / np.abs(c).sum(), dtype=np.float64)) - 1) > 1.5e-8
    got, want = nptf.compile(float32_probabilities, fallback="raise")(c), float32_probabilities(c)
    assert got[0].dtype == want[0].dtype and got[0].shape == want[0].shape
    np.testing.assert_array_equal(got[0], want[0])          # a stream it seeds: NumPy's numbers
    assert type(got[1]) is type(want[1]) and 0 <= got[1] < 3    # the global stream: its own


def reseeded_from_the_os(x):
    np.random.seed(1)
    first = 0.0
    if x[0] > 0:
        first = np.random.rand()                # the stream is NumPy's, in the graph
    np.random.seed()                            # from here on, new numbers every call
    return first, np.random.rand(3)


def test_a_seed_of_none_after_a_stream_in_the_graph_draws_anew():
    f = nptf.compile(reseeded_from_the_os, fallback="raise")
    x = np.ones(2)
    (a1, b1), (a2, b2) = f(x), f(x)
    assert a1 == a2 == reseeded_from_the_os(x)[0]
    assert not np.array_equal(b1, b2)


def test_a_function_drawing_only_from_its_own_seeds_takes_no_seed_input(tmp_path):
    """Its numbers are NumPy's, the same on every call: the exported model has no
    rng_seed input (it had one, unused), and it gives NumPy's numbers."""
    import tensorflow as tf
    nptf.export(walk_until, str(tmp_path / "m"), nptf.Spec((2,), "float64"))
    model = tf.saved_model.load(str(tmp_path / "m"))
    serve = model.signatures["serving_default"]
    assert "rng_seed" not in serve.structured_input_signature[1]
    x = np.array([3.0, 0.7])
    out = serve(x=tf.constant(x))
    want = walk_until(x)
    np.testing.assert_allclose(out["output_0"].numpy(), want[0], rtol=1e-12)
    np.testing.assert_allclose(out["output_2"].numpy(), want[2], rtol=1e-12)


def permuted_count(x):
    return np.random.default_rng(0).permutation(len(x[x > 0]))


def test_a_permutation_of_a_run_time_count_is_numpys():
    from harness import check_against_numpy
    check_against_numpy(permuted_count, np.array([1.0, -1.0, 2.0]))


def epsilon_greedy(true_means, steps=60, epsilon=0.2, seed=0):
    rng = np.random.default_rng(seed)
    k = len(true_means)
    Q, N = np.zeros(k), np.zeros(k)
    total = 0.0
    for t in range(steps):
        if rng.random() < epsilon:                  # explore: the data decide the draws
            a = int(rng.integers(k))
        else:
            a = int(np.argmax(Q))
        r = rng.normal(true_means[a], 1.0)
        N[a] += 1
        Q[a] += (r - Q[a]) / N[a]
        total += r
    return Q, N, total


def gillespie(rates, t_end):
    rng = np.random.default_rng(3)
    t, n, events = 0.0, 10, 0
    while t < t_end and n > 0:                      # a run-time count of draws
        total = rates[0] * n + rates[1]
        t += rng.exponential(1.0 / total)
        if rng.choice(2, p=np.array([rates[0] * n, rates[1]]) / total) == 0:
            n -= 1
        else:
            n += 1
        events += 1
    return t, n, events, rng.beta(2.0, 3.0, size=2), rng.integers(5)


def shuffled_in_a_branch(x):
    rng = np.random.default_rng(5)
    if x.sum() > 0:
        x = rng.permutation(x)
        rng.shuffle(x)
        y = rng.choice(x, size=2)
    else:
        y = rng.choice(x[:3], size=2, replace=False)
    return x, y, rng.gamma(2.0), rng.choice(x)


@pytest.mark.parametrize("fn, args", [
    (epsilon_greedy, (np.array([0.2, 1.0, -0.5]),)),
    (gillespie, (np.array([0.8, 0.5]), 3.0)),
    (shuffled_in_a_branch, (np.array([1.0, 2.0, -0.5, 4.0]),)),
    (shuffled_in_a_branch, (np.array([-1.0, 2.0, -0.5, -4.0]),)),
])
def test_generator_methods_where_the_data_decide_the_draws(fn, args, jit):
    """Epsilon-greedy exploration, a Gillespie simulation and draws under a traced `if`
    from a ``default_rng(seed)`` Generator: every method is NumPy's own (``integers``,
    ``normal`` of a traced mean, ``exponential``, ``choice`` with traced ``p`` or of an
    array, ``permutation``, ``shuffle``, ``beta``, ``gamma``), with NumPy's Python types
    (a Python float, a NumPy int64)."""
    from harness import check_against_numpy
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs without XLA"
        check_against_numpy(fn, *args, jit=jit)


def negative_scale(x):
    rng = np.random.default_rng(0)
    if x[0] > 0:
        return rng.normal(0.0, x[1])
    return 0.0


def test_a_generator_draw_numpy_refuses_raises_numpy_s_error(tmp_path):
    """NumPy's ValueError for a bad parameter, raised when the graph runs; a SavedModel
    cannot call NumPy's Generator: the export says so."""
    f = nptf.compile(negative_scale, fallback="raise")
    assert f(np.array([1.0, 2.0])) == negative_scale(np.array([1.0, 2.0]))
    with pytest.raises(ValueError, match="Generator.normal"):
        f(np.array([1.0, -2.0]))
    with pytest.raises(nptf.UnsupportedError, match="cannot export.*through Python"):
        nptf.export(negative_scale, str(tmp_path / "m"), nptf.Spec((2,), np.float64))


def shuffles_a_list(x):
    rng = np.random.default_rng(1)
    order = [0, 1, 2, 3]
    if x[0] > 0:
        x = x + rng.random()                        # the stream is in the graph
    rng.shuffle(order)                              # NumPy shuffles the list itself
    return x, order


def draws_into_out(x):
    rng = np.random.default_rng(1)
    o = np.zeros(3)
    if x[0] > 0:
        x = x + rng.random()
    rng.random(out=o)                               # NumPy writes into o
    return x, o


def test_a_generator_in_the_graph_never_shuffles_a_copy_of_a_list():
    x = np.array([1.0, 2.0])
    with pytest.raises(nptf.UnsupportedError, match="shuffling"):
        nptf.compile(shuffles_a_list, fallback="raise")(x)
    with pytest.raises(nptf.UnsupportedError, match="out="):
        nptf.compile(draws_into_out, fallback="raise")(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")             # "runs with NumPy"
        got, want = nptf.compile(shuffles_a_list)(x), shuffles_a_list(x)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1] == want[1]


def _permuted_kept(x, seed=1):
    rng = np.random.default_rng(seed)
    keep = x[x > 0]
    return keep[rng.permutation(len(keep))], rng.permutation(keep), rng.random(3)


def _stratified_folds(y, k=3, seed=0):
    rng = np.random.default_rng(seed)
    folds = [[] for _ in range(k)]
    for c in np.unique(y):
        idx = np.flatnonzero(y == c)
        rng.shuffle(idx)
        for j, i in enumerate(idx):
            folds[j % k].append(i)
    return [np.sort(np.array(f)) for f in folds]


def _legacy_permuted_kept(x):
    rs = np.random.RandomState(3)
    keep = x[x > 0]
    first = keep[rs.permutation(len(keep))]
    np.random.seed(4)
    idx = np.random.permutation(keep.shape[0])
    np.random.shuffle(keep)
    return first, rs.rand(2), idx, keep


def test_seeded_permutations_of_counts_known_only_at_run_time():
    # NumPy's own numbers: the seeded streams run in the graph.
    from harness import check_against_numpy
    x = np.random.default_rng(0).normal(size=10)
    check_against_numpy(_permuted_kept, x)
    check_against_numpy(_legacy_permuted_kept, x)
    check_against_numpy(_stratified_folds, np.array([0, 1, 0, 2, 1, 0, 2, 2, 1, 0]))


def _permuted_counts(x, shift):
    n = int(np.sum(x > 0)) - shift          # below zero: NumPy permutes arange(n), none
    seeded = np.random.RandomState(0).permutation(n), np.random.default_rng(0).permutation(n)
    return seeded, np.sort(np.random.permutation(n))


@pytest.mark.parametrize("shift", [0, 5])
def test_permutations_of_run_time_counts_below_one_are_empty(shift):
    from harness import check_against_numpy
    check_against_numpy(_permuted_counts, np.ones(3), shift)
