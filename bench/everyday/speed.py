"""``python -m bench.everyday.speed [--no-adaptive] name ...``: steady-state time of
everyday functions against NumPy, side by side in one run: 40 warm-up calls of each
compiled function, then the median of 15 calls each way (arguments copied for every
call, outside the timing). Columns: NumPy, ``nptf.compile(fn, fallback="raise")``
(``adaptive=False`` with ``--no-adaptive``), and the defaults."""
from __future__ import annotations

import argparse
import copy
import statistics
import time
import warnings

import nptf

from .cases import cases


def _median_time(fn, args, reps):
    times = []
    for _ in range(reps):
        a = copy.deepcopy(args)
        start = time.perf_counter()
        fn(*a)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="+")
    parser.add_argument("--no-adaptive", action="store_true")
    args = parser.parse_args(argv)
    table = cases()
    print(f"| function | NumPy ms | nptf ms ({'adaptive=False' if args.no_adaptive else 'fallback=raise'}) "
          f"| nptf ms (default) | NumPy/nptf | NumPy/nptf (default) |\n|---|---|---|---|---|---|")
    warnings.simplefilter("ignore")
    for name in args.names:
        fn, fn_args, _, _ = table[name]
        options = {"adaptive": False} if args.no_adaptive else {}
        raised, default = nptf.compile(fn, fallback="raise", **options), nptf.compile(fn)
        for _ in range(40):
            raised(*copy.deepcopy(fn_args))
            default(*copy.deepcopy(fn_args))
        tn, tr, td = (_median_time(f, fn_args, 15) for f in (fn, raised, default))
        print(f"| {name} | {tn * 1e3:.3f} | {tr * 1e3:.3f} | {td * 1e3:.3f} | {tn / tr:.2f}x "
              f"| {tn / td:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
