"""Does the default XLA policy (``jit_compile=None``) pick the faster executor?

Every suite kernel at every size, compiled three ways: by default, with
``jit_compile=True`` and with ``jit_compile=False``; each result checked against
NumPy. Then the three are timed in alternation: rounds in which each takes its
turn (in every order alike), so that the machine's drift between one column and
the next, which in the suite's sequential columns reaches 1.5-2x for a single
cell, hits all three alike. A forced setting slower than 0.25 s per call is
timed three times only (it is not a near tie).

Run:  python -m bench.policy [--sizes small,medium] [--kernels a,b] [--rounds 9]
"""
from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time

if __package__ in (None, ""):      # run as a script: make the bench package importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "bench"
    import bench  # noqa: F401  (quiets TensorFlow's start-up log before it is imported)

import nptf  # noqa: E402
from nptf.runtime.xla_policy import ExecutorTrial  # noqa: E402

from . import kernels as k  # noqa: E402
from .report import table  # noqa: E402
from .validate import mismatch  # noqa: E402

SETTINGS = {"default": None, "xla": True, "plain": False}
WARMUP_S, WARMUP_CALLS = 0.3, 24     # the default's executor trial takes 6-18 calls
BLOCK_S = 0.01                       # one turn: about this long
SLOW_S = 0.25                        # slower per call: timed three times only
TOLERANCE = 1.10


def _copies(args):
    return [a.copy() for a in args]


def _warm(fn, args):
    """Calls until warm; seconds of the last call."""
    start, calls, last = time.perf_counter(), 0, 0.0
    while calls < 8 or (calls < WARMUP_CALLS and time.perf_counter() - start < WARMUP_S):
        t0 = time.perf_counter()
        fn(*args)
        last = time.perf_counter() - t0
        calls += 1
        if last > SLOW_S and calls >= 2:
            break
    return last


def measure_one(kernel, size, rounds):
    args = kernel.make_inputs(size)
    expected = kernel.fn(*_copies(args))
    fns = {name: nptf.compile(kernel.fn, jit_compile=jit, adaptive=False)
           for name, jit in SETTINGS.items()}
    one = {}
    for name, fn in fns.items():
        wrong = mismatch(fn(*_copies(args)), expected, kernel.rtol, kernel.atol)
        if wrong:
            raise AssertionError(f"{kernel.name} {size} ({name}): {wrong}")
        one[name] = _warm(fn, args)
    # Slow graphs leave the warm-up early: the default must still finish its executor
    # trial (up to 12 calls), or its turns would time trial calls.
    deciding = 0
    while isinstance(fns["default"].entry_for(*args).call, ExecutorTrial) and deciding < 40:
        t0 = time.perf_counter()
        fns["default"](*args)
        one["default"] = time.perf_counter() - t0
        deciding += 1
    # Its calls per turn come from a steady call, not a trial call (which also times
    # the other executor): too few calls a turn and a turn's first, cache-cold call
    # weighs more than in the forced settings' turns.
    one["default"] = _warm(fns["default"], args)
    # The same input arrays for every call, as in the suite (in-place kernels write
    # into them; every setting alike).
    number = {name: max(1, int(BLOCK_S / max(t, 1e-6))) for name, t in one.items()}
    samples = {name: [] for name in fns}
    # Every order in turn: each setting follows each other one equally often (a turn
    # after the plain executor's thread pool starts from colder caches).
    orders = itertools.cycle(itertools.permutations(fns))
    for _ in range(rounds):
        for name in next(orders):
            if one[name] > SLOW_S and len(samples[name]) >= 3:
                continue
            fn, n = fns[name], number[name]
            t0 = time.perf_counter()
            for _ in range(n):
                fn(*args)
            samples[name].append((time.perf_counter() - t0) / n)
    times = {name: statistics.median(s) for name, s in samples.items()}
    entry = fns["default"].entry_for(*args)
    executor = "fallback" if entry.fallback_reason else entry.executor
    return times, executor


def _verdict(times, executor):
    faster = min(("xla", "plain"), key=times.get)
    gap = max(times["xla"], times["plain"]) / min(times["xla"], times["plain"])
    ratio = times["default"] / times[faster]
    # A way neither forced setting takes (kernels kept to the calling thread, XLA
    # compiled for one CPU) is right when it is as fast as the faster forced setting.
    right = executor == faster or gap <= TOLERANCE or \
        (executor in ("plain, one thread", "xla, one CPU") and ratio <= TOLERANCE)
    return faster, gap, ratio, right


def _ms(s):
    return f"{s * 1e3:.3f} ms"


def measure(kernels, sizes, rounds, progress=None):
    rows, misses, slow_default = [], [], []
    for kernel in kernels:
        for size in sizes:
            if progress:
                progress(f"{kernel.name} {size}")
            times, executor = measure_one(kernel, size, rounds)
            faster, gap, ratio, right = _verdict(times, executor)
            if not right:
                misses.append(f"{kernel.name} {size}")
            if ratio > TOLERANCE:
                slow_default.append(f"{kernel.name} {size} ({ratio:.2f}x)")
            rows.append([kernel.name, size, f"{_ms(times['default'])} ({executor})",
                         _ms(times["xla"]), _ms(times["plain"]), f"{faster} by {gap:.2f}x",
                         f"{ratio:.2f}", "yes" if right else "NO"])
    return rows, misses, slow_default


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.policy", description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default=",".join(k.SIZES))
    parser.add_argument("--kernels", default=None, help="comma-separated names (default: all)")
    parser.add_argument("--rounds", type=int, default=12, help="a multiple of 6 (every order)")
    opts = parser.parse_args(argv)
    kernels = ([k.BY_NAME[n] for n in opts.kernels.split(",")] if opts.kernels else k.KERNELS)
    sizes = opts.sizes.split(",")
    rows, misses, slow = measure(kernels, sizes, opts.rounds,
                                 progress=lambda s: print(f"  {s}", file=sys.stderr, flush=True))
    print(table(["kernel", "size", "default (its executor)", "forced XLA", "forced plain",
                 "faster forced", "default / faster", "right or within 10%"], rows, True))
    n = len(rows)
    print(f"\nExecutor: {n - len(misses)} of {n} kernel-sizes run on the faster forced "
          f"setting's executor or one within 10%" + (f"; not: {', '.join(misses)}" if misses else "")
          + ".")
    print(f"Time: the default within 10% of the faster forced setting in {n - len(slow)} of {n}"
          + (f"; slower: {', '.join(slow)}" if slow else "") + ".")


if __name__ == "__main__":
    main()
