"""A dict rebound under an `if` on the data to a dict with more keys (``best = {"gain":
0.0}``, then ``best = {"gain": g, "feature": j}``): after the `if` (or a graph loop
around it) the keys some path gives are there where the data say, reads of them check
that they are, ``in`` and ``.get`` follow the data, and a returned dict holds the keys
NumPy's run gives, in Python's order."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import nptf
from harness import check_against_numpy

RNG = np.random.default_rng(7)


def best_threshold(x, y):
    best = {"gain": 0.0}
    for t in np.unique(x):
        left = y[x <= t]
        gain = abs(left.mean() - y.mean()) if len(left) else 0.0
        if gain > best["gain"]:
            best = {"gain": gain, "threshold": t, "n_left": len(left)}
    return best


def first_above(x, level):
    found = {"index": -1}
    for i in range(len(x)):
        if x[i] > level:
            found = {"index": i, "value": x[i]}
            break
    return found["index"], found.get("value", -1.0), "value" in found, found


def one_branch(x):
    stats = {"mean": x.mean()}
    if x.std() > 1:
        stats = {"mean": x.mean(), "std": x.std(), "note": 2}
    n = stats["note"] * 10 if "note" in stats else 0
    return n, stats


def merged(x):
    stats = {"mean": x.mean()}
    if x.std() > 1:
        stats = {"mean": x.mean(), "std": x.std()}
    return stats | {"n": 1}, {"n": 2} | stats, dict(stats), {**stats}, repr(len(stats))


def reads_the_key(x):
    best = {"g": 0.0}
    for i in range(len(x)):
        if x[i] > best["g"]:
            best = {"g": x[i], "at": i}
    return best["at"]


def test_a_dict_given_more_keys_on_a_path_holds_them_as_the_data_say():
    x, y = RNG.integers(0, 6, 30).astype(float), RNG.normal(size=30)
    check_against_numpy(best_threshold, x, y)
    check_against_numpy(best_threshold, x, np.ones(30))           # never replaced
    check_against_numpy(first_above, RNG.normal(size=8), 0.5)
    check_against_numpy(first_above, RNG.normal(size=8), 9.0)      # "value" absent
    check_against_numpy(one_branch, RNG.normal(size=6) * 3)
    check_against_numpy(one_branch, np.ones(6))
    check_against_numpy(merged, RNG.normal(size=6) * 3)
    f = nptf.compile(best_threshold, fallback="raise")
    got = f(x, y)
    assert list(got) == ["gain", "threshold", "n_left"] and type(got["n_left"]) is int
    assert list(f(x, np.ones(30))) == ["gain"]


def test_reading_a_key_missing_on_this_call_runs_numpy():
    x = RNG.normal(size=5)
    check_against_numpy(reads_the_key, x + 1)
    with pytest.raises(nptf.OutsideTheGraphError, match=r"\['at'\] of a dict a key of which "
                                                        r"is missing"):
        nptf.compile(reads_the_key, fallback="raise")(-np.abs(x))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(KeyError):
            nptf.compile(reads_the_key)(-np.abs(x))       # NumPy's run: Python's error
        got = nptf.compile(merged)(np.ones(6))             # "std" missing: NumPy's run
    assert got[0] == {"mean": 1.0, "n": 1} and list(got[1]) == ["n", "mean"]


def test_a_dict_whose_keys_the_data_choose_is_not_exported(tmp_path):
    with pytest.raises(nptf.UnsupportedError, match="Give every key a value before"):
        nptf.export(best_threshold, str(tmp_path / "m"), np.arange(6.0), np.ones(6))
