"""Per-call overhead of a compiled trivial function, layer by layer.

``x + 1`` on a one-element float64 array does no real work, so each time is
the cost of getting into and out of the runtime:

  (a) NumPy itself
  (b) a plain tf.function called with the NumPy array (tensor out)
  (c) that tf.function's concrete function called with a tensor (tensor out)
  (c') its atomic function's ``call_flat`` (TensorFlow's lowest Python layer
      short of executing the function op by hand; tensor out)
  (d) nptf's graph call on fresh tensors from ``nptf.runtime.dispatch.to_tensors``
      (NumPy in, tensor out; the compiled call reuses staged input tensors instead)
  (e) ``nptf.compile`` called normally (NumPy in, NumPy out)

Run:  python -m bench.dispatch   (or python bench/dispatch.py)

``--small`` instead times small everyday functions (``bench/dispatch_cases.py``:
elementwise chains, reductions, normalizations, a logistic regression step,
pairwise distances, short loops, argmax and masks) at several sizes under the
default settings, after warm-up (adaptive dispatch and the executor trial have
chosen), against the plain NumPy function, in alternating blocks in one process,
best of several rounds each. It reports NumPy's time over nptf's (below 1: nptf
slower) and the way chosen, and flags calls more than 1.2x slower than NumPy.

Run:  python -m bench.dispatch --small [--only std,softmax] [--sizes 16,4096]
"""
from __future__ import annotations

import os
import sys
import time

if __package__ in (None, ""):      # run as a script: make the bench package importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "bench"
    import bench  # noqa: F401  (quiets TensorFlow's start-up log before it is imported)

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import nptf  # noqa: E402
from nptf.runtime.dispatch import to_tensors  # noqa: E402

from .report import table  # noqa: E402
from .timing import median_time  # noqa: E402


def add_one(x):
    return x + 1


def measure_dispatch(repeat=15):
    """[(label, seconds per call)] for the six ways of calling ``x + 1``."""
    x = np.ones(1)
    compiled = nptf.compile(add_one, adaptive=False)   # the graph's own call
    assert compiled(x).dtype == np.float64 and compiled(x)[0] == 2.0
    entry = compiled.entry_for(x)
    plain = tf.function(add_one)
    concrete = plain.get_concrete_function(tf.TensorSpec([1], tf.float64))
    tensor = tf.constant(x)
    calls = [
        ("(a) NumPy", lambda: add_one(x)),
        ("(b) tf.function(NumPy array)", lambda: plain(x)),
        ("(c) concrete function(tensor)", lambda: concrete(tensor)),
        ("(c') atomic function call_flat(tensor)",
         lambda: concrete._inference_function.call_flat(tensor)),
        ("(d) nptf's graph call on fresh tensors: entry.call(*to_tensors)",
         lambda: entry.call(*to_tensors([x], entry.dtypes))),
        ("(e) nptf.compile(NumPy array)", lambda: compiled(x)),
    ]
    return [(label, median_time(call, repeat)[0]) for label, call in calls]


def timing_of(timings, key):
    """Seconds per call of the row labelled ``(key) ...``."""
    return next(s for label, s in timings if label.startswith(f"({key})"))


def dispatch_table(timings, markdown=False):
    numpy, lowest = timing_of(timings, "a"), timing_of(timings, "c'")
    body = [[label, f"{s * 1e6:.2f}", f"{s / numpy:.1f}x", f"{s / lowest:.2f}x"]
            for label, s in timings]
    return table(["call", "µs per call", "vs NumPy", "vs TF's call_flat (c')"], body, markdown)


# A compiled call this much slower than NumPy's is flagged (issue #27: none should be).
SLOWER_LIMIT = 1.2
# Warm-up: at least this many calls, then until adaptive dispatch and the executor trial
# have chosen (their compiles run in the background), for up to this long.
WARMUP_CALLS, WARMUP_MAX_S = 120, 10.0
# Each block of calls lasts about this long; the two ways take turns, this many rounds.
BLOCK_S, ROUNDS = 2e-3, 9


def _block(call, number):
    start = time.perf_counter()
    for _ in range(number):
        call()
    return (time.perf_counter() - start) / number


def interleaved(calls, rounds=ROUNDS, block_s=BLOCK_S):
    """Best seconds per call of each of ``calls`` (name -> callable), timed in blocks of
    equal length that take turns (the order alternates from round to round)."""
    once = {name: max(_block(call, 1), 1e-7) for name, call in calls.items()}
    number = {name: max(1, int(block_s / s)) for name, s in once.items()}
    best = dict.fromkeys(calls, float("inf"))
    names = list(calls)
    for r in range(rounds):
        for name in names if r % 2 == 0 else names[::-1]:
            best[name] = min(best[name], _block(calls[name], number[name]))
    return best


def _warm_up(f, args):
    start = time.perf_counter()
    calls = 0
    while calls < WARMUP_CALLS or (f.way_for(*args) is None and
                                   time.perf_counter() - start < WARMUP_MAX_S):
        f(*args)
        calls += 1


def measure_small_calls(names=None, sizes=None, rounds=ROUNDS):
    """[(case, size, shapes, NumPy's seconds, nptf's seconds, way chosen)] for
    ``bench/dispatch_cases.py``, each compiled afresh per size with default settings."""
    import warnings
    from .dispatch_cases import CASES, SIZES
    rows = []
    for name, (fn, make, *most) in CASES.items():
        if names and name not in names:
            continue
        for n in sizes or SIZES:
            if most and n > most[0]:
                continue
            args = make(n, np.random.default_rng(n))
            f = nptf.compile(fn)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                expected = fn(*args)
                np.testing.assert_allclose(f(*args), expected, rtol=1e-6, atol=1e-9)
                _warm_up(f, args)
                for _ in range(20):     # NumPy warms up alike
                    fn(*args)
                best = interleaved({"numpy": lambda: fn(*args), "nptf": lambda: f(*args)},
                                   rounds)
                way = f.way_for(*args) or "still measuring"
            shapes = " ".join("x".join(map(str, a.shape)) or "()" for a in args
                              if isinstance(a, np.ndarray))
            rows.append((name, n, shapes, best["numpy"], best["nptf"], way))
    return rows


_WAYS = {"the NumPy function": "numpy", "the graph as NumPy calls": "numpy program"}


def small_calls_table(rows, markdown=False):
    body = []
    for name, n, shapes, numpy, compiled, way in rows:
        ratio = numpy / compiled
        flag = "SLOWER" if compiled > SLOWER_LIMIT * numpy else ""
        body.append([name, str(n), shapes, f"{numpy * 1e6:.2f}", f"{compiled * 1e6:.2f}",
                     f"{ratio:.2f}", _WAYS.get(way, way.replace("the graph ", "graph ")), flag])
    return table(["function", "n", "shapes", "NumPy µs", "nptf µs", "NumPy/nptf", "way",
                  f">{SLOWER_LIMIT}x slower"], body, markdown)


def small_calls_summary(rows):
    slower = [(name, n) for name, n, _, numpy, compiled, _ in rows
              if compiled > SLOWER_LIMIT * numpy]
    ratios = sorted(numpy / compiled for _, _, _, numpy, compiled, _ in rows)
    text = (f"{len(rows)} cases; NumPy/nptf: worst {ratios[0]:.2f}, median "
            f"{ratios[len(ratios) // 2]:.2f}; more than {SLOWER_LIMIT}x slower than NumPy: "
            f"{len(slower)}")
    if slower:
        text += " (" + ", ".join(f"{name} n={n}" for name, n in slower) + ")"
    return text


def main(argv=None):
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--small", action="store_true",
                        help="small everyday functions at several sizes, default settings")
    parser.add_argument("--only", help="with --small: comma-separated case names")
    parser.add_argument("--sizes", help="with --small: comma-separated sizes")
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args(argv)
    if args.small:
        rows = measure_small_calls(args.only.split(",") if args.only else None,
                                   [int(s) for s in args.sizes.split(",")] if args.sizes
                                   else None, args.rounds)
        print(small_calls_table(rows, args.markdown))
        print("\n" + small_calls_summary(rows))
        return
    timings = measure_dispatch(args.repeat)
    print(dispatch_table(timings, args.markdown))
    ratio = timing_of(timings, "e") / timing_of(timings, "c'")
    print(f"\nnptf.compile call / TensorFlow's call_flat: {ratio:.2f}x (target <= 1.5x)")


if __name__ == "__main__":
    main()
