"""Python dicts keyed by values only the data know: per-class statistics, counts, label
encodings, compared with NumPy's run down to the keys' Python types and order."""
from __future__ import annotations

import warnings
from collections import Counter, defaultdict

import numpy as np
import pytest

import nptf
from harness import check_against_numpy, mismatch


def class_stats(X, y, X_test):
    classes = np.unique(y)
    stats = {}
    for c in classes:
        Xc = X[y == c]
        stats[c] = {"mean": Xc.mean(axis=0), "prior": len(Xc) / len(X)}
    scores = []
    for c in classes:
        s = stats[c]
        scores.append(np.log(s["prior"]) - np.sum((X_test - s["mean"]) ** 2, axis=1))
    means = np.array([stats[c]["mean"] for c in classes])
    return classes[np.argmax(np.array(scores), axis=0)], stats, means, sorted(stats)


def counts_get(a):
    counts, shares = {}, {}
    for v in a:
        counts[v] = counts.get(v, 0) + 1
        shares[v] = shares.get(v, 0.0) + 1.0
    for k in shares:
        shares[k] = shares[k] / len(a)
    return counts, max(counts, key=counts.get), sorted(counts.items()), len(counts), shares, \
        isinstance(shares, dict) and type(shares) is dict


def counts_in(a):
    counts, by_default = {}, defaultdict(int)
    for v in a:
        if v in counts:
            counts[v] += 1
        else:
            counts[v] = 1
        by_default[v] += 1
    return counts, list(counts.values()), sorted(counts), sum(counts.values()), by_default


def encode(y):
    mapping = {v: i for i, v in enumerate(np.unique(y))}
    return np.array([mapping[v] for v in y]), mapping


def encode_first_seen(values):
    mapping = {}
    encoded = []
    for v in values:
        if v not in mapping:
            mapping[v] = len(mapping)
        encoded.append(mapping[v])
    return np.array(encoded), mapping


def share_per_sample(X, y):
    share = {}
    for c in np.unique(y):
        share[c] = len(X[y == c]) / len(X)
    total = 0.0
    for k, v in share.items():
        total = total + k * v
    return np.array([share[y[i]] for i in range(len(y))]), total, bool(share)


def count_above(x, thresholds):
    result = {}
    for t in thresholds:
        result[t] = len(x[x > t])
    return result


def default_sums(X, y):
    sums = defaultdict(float)       # Python floats, then float64 scalars: as the data say
    for i in range(len(y)):
        sums[y[i]] += X[i].sum()
    return sums, sums[y[0]]


def grown_while_iterated(a):
    d = {}
    for v in a:
        d[v] = 1
    for k in d:
        d[k + 100] = 2
    return d


def assert_like_numpy(fn, *args):
    expected = fn(*args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = nptf.compile(fn, fallback="raise", jit_compile=False)(*args)
    assert mismatch(expected, got) is None, mismatch(expected, got)
    dicts = [(e, g) for e, g in zip(expected, got) if isinstance(e, dict)] \
        if isinstance(expected, tuple) else [(expected, got)]
    for e, g in dicts:
        # The keys in their order and of their Python types (np.int64, float, ...).
        assert [(type(k), k) for k in g] == [(type(k), k) for k in e]
        assert type(g) is type(e) and getattr(g, "default_factory", 0) == \
            getattr(e, "default_factory", 0)
    return got


rng = np.random.default_rng(3)
Xs, ys = rng.normal(size=(9, 2)), rng.integers(0, 3, 9)
INTS = np.array([3, 1, 3, 3, 2, 1, 5, 5, 5, 5])


@pytest.mark.parametrize("fn, args", [
    (class_stats, (Xs, ys, rng.normal(size=(5, 2)))),
    (counts_get, (INTS,)),
    (counts_get, (np.array([0.5, -0.0, 0.0, 2.5, 0.5]),)),     # 0.0 finds -0.0, kept first
    (counts_in, (INTS,)),
    (counts_in, (np.array([True, False, True]),)),
    (encode, (INTS,)),
    (encode_first_seen, (np.array([3, 7, 3, 7]),)),        # unrolled
    (share_per_sample, (Xs, ys)),
    (count_above, (rng.random(10), [0.25, 0.5, 0.75])),      # Python float keys
    (default_sums, (Xs, ys)),
], ids=lambda v: getattr(v, "__name__", ""))
def test_dicts_keyed_by_traced_values_are_python_s(fn, args):
    assert_like_numpy(fn, *args)


def changed_by_methods(a, b):
    d = {}
    for v in a:
        d.setdefault(v, 0)
        d[v] += 1
    found, missing = d.get(a[0]), d.get(b[-1])      # None where the key is missing
    popped, kept = d.pop(a[1]), d.pop(b[-1], -1)
    del d[a[2]]
    last = d.popitem()
    votes = Counter(b)
    d.update(votes)
    return d, found, missing is None, popped, kept, last, len(d) + d.setdefault(b[0], 0), \
        votes, votes.most_common(1), votes[-5], type(votes) is Counter


def moved_to_the_end(a):
    # ``d[k] = d.pop(k, 0) + 1``: Python evaluates the value, which takes the key out,
    # before it assigns: the key comes back last.
    d = {}
    for v in a:
        d[v] = d.pop(v, 0) + 1
    return d


def sums_in_place(X, y):
    sums = {c: np.zeros(X.shape[1], dtype=np.float32) for c in np.unique(y)}
    for i in range(len(y)):
        sums[y[i]] += X[i]                  # float32 arrays stay float32
        sums[y[i]][i % X.shape[1]] -= 1.0
    return sums


def train(X, y, epochs):
    params = {"W": np.zeros(X.shape[1]), "b": 0.0}
    for _ in range(epochs):
        pred = X @ params["W"] + params["b"]
        grads = {"W": X.T @ (pred - y) / len(y), "b": np.mean(pred - y)}
        for k in params:
            params[k] = params[k] - 0.1 * grads[k]
    return params


def counted_from_a_generator(codes, x):
    c = Counter(int(v) for v in codes)
    rounded = Counter(float(v) for v in np.round(x))
    return c.most_common(3), sum(c.values()), len(c), c[int(codes[0])], sorted(c), rounded, \
        Counter(v for v in np.round(x))


@pytest.mark.parametrize("fn, args", [
    (changed_by_methods, (INTS, np.array([5, 8, 9, 8]))),
    (counted_from_a_generator, (np.array([3, 1, 3, 0, 5, 1, 3, 2, 0, 5, 5, 3]),
                                np.array([0.2, -1.4, 0.6, 1.7, -0.2, 0.9, 2.4]))),
    (sums_in_place, (Xs, ys)),
    (moved_to_the_end, (INTS,)),
], ids=lambda v: getattr(v, "__name__", ""))
def test_dicts_the_methods_and_in_place_writes_change(fn, args):
    assert_like_numpy(fn, *args)


def test_a_dict_of_parameters_is_carried_by_a_graph_loop():
    """``params[k] = ...`` in ``for k in params`` rebinds the items of a dict the loop
    carries: one graph loop, not one copy of the body per epoch."""
    args = (Xs, ys.astype(float), 30)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        f = nptf.compile(train, fallback="raise", jit_compile=True)
        got = f(*args)
    assert mismatch(train(*args), got) is None
    assert "while" in str(f.trace(*args))


def read_then_added(X, y):
    d = {}
    for c in np.unique(y):
        d[c] = np.zeros(2)
    last = None
    for i in range(len(y)):
        d[y[i]] += X[i]
        last = d[y[i]]      # a later iteration's += shows in it, in Python
    return last


def none_used(a, b):
    d = {}
    for v in a:
        d[v] = 1.5
    return d.get(b[0]) * 2


def nan_counts(a):
    counts = {}
    for v in a:
        counts[v] = counts.get(v, 0) + 1
    return counts


def missing_key(a, b):
    d = {}
    for v in a:
        d[v] = 1.0
    return d[b[0]]


def aliased(a):
    d = {}
    e = d
    for v in a:
        d[v] = 1
    return e


def items_rewritten(a):
    d = {}
    for v in a:
        d[v] = 1
    out = []
    for k, v in d.items():
        d[k] = 5            # Python's items view reads each value as it is then
        out.append(v)
    return out


def value_written(X, y):
    d = {}
    for c in np.unique(y):
        d[c] = X[y == c].mean(axis=0)
    m = d[y[0]]
    m += 1
    return d


def stored_then_written(X, y):
    d = {}
    w = np.zeros(2)
    for c in np.unique(y):
        d[c] = w            # in Python every key holds this one array
        w += 1
    return d


def added_in_place(X, y):
    d = {}
    for c in np.unique(y):
        d[c] = X[y == c].sum(axis=0)
    m = d[y[0]]
    d[y[0]] += 1            # in Python m shows the addition
    return m, d


def kinds_as_the_data_choose(a):
    d = {}
    for v in a:
        if v > 2:
            d[v] = 1
        else:
            d[v] = 1.5
    return d


@pytest.mark.parametrize("fn, args, error", [
    # Python finds a NaN key only as the object inserted: each NaN is a key of its own.
    (nan_counts, (np.array([1.0, np.nan, 1.0]),), nptf.OutsideTheGraphError),
    (missing_key, (INTS, np.array([4])), nptf.OutsideTheGraphError),
    (grown_while_iterated, (INTS,), RuntimeError),
    (none_used, (INTS, np.array([4])), nptf.OutsideTheGraphError),
], ids=lambda v: getattr(v, "__name__", ""))
def test_what_a_traced_dict_cannot_follow_is_refused(fn, args, error):
    """Refused when tracing, or checked when the graph runs: where NumPy's run raises
    (a missing key), so does the default fallback."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(error):
            nptf.compile(fn, fallback="raise", jit_compile=False)(*args)
        # By default NumPy runs the call: its answer, or its KeyError.
        try:
            expected = fn(*args)
        except (KeyError, RuntimeError, TypeError) as e:
            with pytest.raises(type(e)):
                nptf.compile(fn)(*args)
            return
        assert repr(nptf.compile(fn)(*args)) == repr(expected)     # NaN keys are not ==


INTS_2 = np.array([4, 2, 4, 7, 2, 2])
Xs_2, ys_2 = rng.normal(size=(7, 2)), rng.integers(0, 4, 7)


@pytest.mark.parametrize("fn, args", [
    (aliased, [(INTS,), (INTS_2,)]),
    (value_written, [(Xs, ys), (Xs_2, ys_2)]),
    (kinds_as_the_data_choose, [(INTS,), (INTS_2,)]),
    (stored_then_written, [(Xs, ys), (Xs_2, ys_2)]),
    (items_rewritten, [(INTS,), (INTS_2,)]),
    (added_in_place, [(Xs, ys), (Xs_2, ys_2)]),
    (read_then_added, [(Xs, ys), (Xs_2, ys_2)]),
], ids=lambda v: getattr(v, "__name__", ""))
def test_what_a_traced_dict_cannot_follow_keeps_python_s_dict_of_the_data_s_keys(fn, args,
                                                                               tmp_path):
    """A dict keyed by traced values that Python's own dict must hold (another name for
    it, arrays written after they were stored, values of kinds the data choose): the
    keys the call's data give, a graph for each set of them; a SavedModel refuses it."""
    compiled = nptf.compile(fn, fallback="raise", jit_compile=False)
    for a in args + args[:1]:
        assert repr(compiled(*a)) == repr(fn(*a))
    with pytest.raises(nptf.UnsupportedError):
        nptf.export(fn, tmp_path / "m", *[nptf.Spec(np.shape(v), np.asarray(v).dtype)
                                           for v in args[0]])


def value_counts(x):
    vals, counts = np.unique(x, return_counts=True)
    return vals[np.argmax(counts)], dict(zip(vals.tolist(), counts.tolist()))


def grouped_sums(keys, values):
    uniq, inv = np.unique(keys, return_inverse=True)
    sums = np.bincount(inv, weights=values)
    return dict(zip(uniq, sums)), {k: v for k, v in zip(uniq.tolist(), sums.tolist())}, \
        dict(enumerate(sums.tolist())), len(uniq)


def pairs_with_repeats(keys, values):
    """Python's dict of repeated keys: the first place, the last value."""
    return dict(zip(keys[keys > 0].tolist(), values[keys > 0].tolist()))


def test_dicts_of_pairs_the_data_choose(jit):
    """``dict(zip(keys, values))`` of arrays whose length only the data know (the value
    counts idiom), and a dict comprehension beside other results: Python's dict, keys in
    their first place and each key's last value."""
    x = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5])
    check_against_numpy(value_counts, x, jit=jit)
    check_against_numpy(grouped_sums, x, np.linspace(0.0, 1.0, x.size), jit=jit)
    check_against_numpy(pairs_with_repeats, np.array([2, -1, 3, 2, 5, 3]),
                        np.arange(6.0), jit=jit)


def majority_of_a_selection(y, x):
    votes = Counter(y[x > 0.3].tolist())
    rounded = Counter(np.round(x[x > 0.3] * 4).tolist())
    return votes.most_common(1)[0][0], len(votes), votes[2], sorted(rounded.items())


@pytest.mark.parametrize("seed", [0, 1])
def test_counter_of_the_numbers_of_a_selection(seed):
    # Counter(x.tolist()) of an array of run-time length: Python numbers as keys.
    rng = np.random.default_rng(seed)
    check_against_numpy(majority_of_a_selection, rng.integers(0, 4, 12), rng.random(12))


def means_by_key(keys, vals):
    cnt, tot = {}, {}
    for k, v in zip(keys, vals):
        (cnt[k], tot[k]) = (cnt.get(k, 0) + 1, tot.get(k, 0.0) + v)
    return {k: tot[k] / cnt[k] for k in cnt}


def test_items_assigned_by_a_tuple_target():
    """``(cnt[k], tot[k]) = (..., ...)`` into dicts keyed by traced values: the values
    first, then each item assignment, as Python makes them."""
    check_against_numpy(means_by_key, np.array([3, 1, 3, 2, 1]),
                        np.array([1.0, 2.0, 3.0, 4.0, 5.0]))
