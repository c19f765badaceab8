"""The benchmark suite: every kernel, NumPy against nptf and the hand-written baselines.

Run:  python -m bench [--sizes small,medium,large] [--kernels a,b] [--repeat N]
                      [--device cpu|gpu] [--out bench/results.json] [--markdown]
                      [--plot bench/results.png] [--all-variants]
"""
from __future__ import annotations

import os
import sys

if __package__ in (None, ""):      # python bench/run.py: make the bench package importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "bench"
    import bench  # noqa: F401  (quiets TensorFlow's start-up log before it is imported)

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402

import tensorflow as tf  # noqa: E402

from . import report  # noqa: E402
from .compile_budget import budget_table, measure_all  # noqa: E402
from .dispatch import dispatch_table, measure_dispatch  # noqa: E402
from .kernels import BY_NAME, KERNELS, SIZES  # noqa: E402
from .suite import count_steps, run_suite  # noqa: E402
from .targets import check_targets, targets_table  # noqa: E402
from .timing import copy_bandwidth  # noqa: E402
from .variants import VARIANT_NAMES  # noqa: E402


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(SIZES),
                        help="comma-separated subset of small,medium,large")
    parser.add_argument("--kernels", default="", help="comma-separated kernel names (default all)")
    parser.add_argument("--repeat", type=int, default=7, help="timed repeats (slow calls get fewer)")
    parser.add_argument("--device", choices=("cpu", "gpu"), default="cpu")
    parser.add_argument("--out", help="write all results as JSON to this path")
    parser.add_argument("--markdown", action="store_true", help="print markdown tables")
    parser.add_argument("--plot", help="save a PNG of the speed-ups (needs matplotlib)")
    parser.add_argument("--all-variants", action="store_true",
                        help="also run the xla/graph variants of kernels that compile slowly")
    parser.add_argument("--list", action="store_true", help="list the kernels and exit")
    args = parser.parse_args(argv)
    args.sizes = [s for s in args.sizes.split(",") if s]
    bad = [s for s in args.sizes if s not in SIZES]
    if bad:
        parser.error(f"unknown sizes {bad}; choose from {list(SIZES)}")
    args.sizes = [s for s in SIZES if s in args.sizes]     # smallest first
    names = [n for n in args.kernels.split(",") if n]
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        parser.error(f"unknown kernels {unknown}; see --list")
    args.kernels = [BY_NAME[n] for n in names] if names else KERNELS
    return args


def choose_device(requested):
    if requested == "gpu":
        if tf.config.list_physical_devices("GPU"):
            return "gpu"
        print("GPU requested but TensorFlow sees none: running on the CPU.", file=sys.stderr)
    return "cpu"


def main(argv=None):
    args = parse_args(argv)
    if args.list:
        for k in KERNELS:
            print(f"{k.name:20s} {k.family:13s} {k.fn.__doc__.splitlines()[0]}")
        return
    if args.plot and not report.have_matplotlib():
        print(f"matplotlib is not installed: skipping the plot {args.plot}.", file=sys.stderr)
        args.plot = None
    device = choose_device(args.device)
    machine = report.machine_info()
    started = time.perf_counter()

    copy = copy_bandwidth()
    ceiling = max(copy.values())
    progress = report.ProgressBar(count_steps(args.kernels, args.sizes) + 2)
    results = run_suite(args.kernels, args.sizes, args.repeat, device, progress,
                        all_variants=args.all_variants, copy_ceiling=ceiling)
    progress.step("dispatch overhead")
    dispatch = measure_dispatch()
    progress.step("trace + passes + lowering")
    budget = measure_all(args.kernels, args.sizes)
    progress.close()
    elapsed = time.perf_counter() - started

    print(f"Machine: {machine['cpu']}, {machine['cores']} cores, {machine['memory']}; "
          f"TensorFlow {machine['tensorflow']}, NumPy {machine['numpy']}; device {device}; "
          f"{machine['date']}")
    print("Copy ceiling (np.copyto, bytes read + written): " +
          ", ".join(f"{k} {v:.1f} GB/s" for k, v in copy.items()))
    print(f"Contenders: {', '.join(VARIANT_NAMES)} (jax.jit and numba only when installed)\n")
    for title, text in report.results_tables(results, args.markdown):
        print(f"{title}\n\n{text}\n")
    print(f"Per-call overhead of x + 1 on a 1-element float64 array\n\n"
          f"{dispatch_table(dispatch, args.markdown)}\n")
    print("Trace, passes and lowering of each kernel (TensorFlow's compile excluded)\n\n"
          f"{budget_table(budget, args.markdown)}\n")
    checks = check_targets(results, dispatch, budget)
    print(f"Targets\n\n{targets_table(checks, args.markdown)}\n")
    lines = report.notes(results)
    if lines:
        print("Notes (WRONG results, failures, fallbacks, skips, warnings)\n")
        print("\n".join(("- " if args.markdown else "  ") + ln for ln in lines))
    print(f"\nTotal time {elapsed:.0f} s")

    if args.out:
        with open(args.out, "w") as f:
            json.dump({"machine": machine, "device": device, "copy_gbps": copy,
                       "results": results, "dispatch": dict(dispatch),
                       "compile_budget": budget,
                       "targets": [{"target": t, "measured": m, "met": ok} for t, m, ok in checks],
                       "seconds": elapsed}, f, indent=1)
        print(f"Wrote {args.out}")
    if args.plot:
        report.plot_speedups(results, args.plot)
        print(f"Wrote {args.plot}")


if __name__ == "__main__":
    main()
