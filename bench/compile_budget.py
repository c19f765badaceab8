"""nptf's own share of a first call: tracing, passes and lowering, TensorFlow's compile excluded.

    python -m bench.compile_budget [--sizes small,medium,large] [--kernels a,b] [--markdown]

For every kernel and size: the trace of the NumPy function into the IR, the
passes, and the lowering of the optimized graph into a TensorFlow concrete
function, once for XLA and once for TensorFlow's own executor (the executor
trial builds both). Grappler and XLA compile later, at the graph's first run,
and are not counted here; the suite's first-call table has the whole cost.
Each step is timed on a fresh compiled object, so caches of earlier sizes do
not help. The budget is one second per kernel and size for all four steps.
"""
from __future__ import annotations

import os
import sys

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "bench"
    import bench  # noqa: F401

import argparse  # noqa: E402
import time  # noqa: E402

import nptf  # noqa: E402
from nptf.runtime.compiled import _concretize, optimize  # noqa: E402

from .kernels import BY_NAME, KERNELS, SIZES  # noqa: E402

BUDGET_S = 1.0
STEPS = ("trace", "passes", "lower xla", "lower plain")


def measure(kernel, size):
    """Seconds of each step for one kernel and size: {step: seconds}."""
    args = kernel.make_inputs(size)
    compiled = nptf.compile(kernel.fn)
    seconds = {}
    t0 = time.perf_counter()
    traced = compiled.trace(*args, stage="traced")
    seconds["trace"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    graph = optimize(traced)
    seconds["passes"] = time.perf_counter() - t0
    for xla in (True, False):
        t0 = time.perf_counter()
        _concretize(graph, xla)     # nptf's own lowering; builds the graph, compiles nothing
        seconds["lower xla" if xla else "lower plain"] = time.perf_counter() - t0
    return seconds


def measure_all(kernels=KERNELS, sizes=SIZES):
    """One row per kernel and size: {"kernel", "size", step: seconds..., "total"}."""
    rows = []
    for kernel in kernels:
        for size in sizes:
            row = {"kernel": kernel.name, "size": size, **measure(kernel, size)}
            row["total"] = sum(row[s] for s in STEPS)
            rows.append(row)
    return rows


def budget_table(rows, markdown=False):
    from .report import table
    body = [[r["kernel"], r["size"], *(f"{r[s] * 1e3:.1f}" for s in (*STEPS, "total"))]
            for r in rows]
    return table(["kernel", "size", *(f"{s} (ms)" for s in STEPS), "total (ms)"], body, markdown)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.compile_budget",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(SIZES))
    parser.add_argument("--kernels", default="")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    sizes = [s for s in SIZES if s in args.sizes.split(",")]
    names = [n for n in args.kernels.split(",") if n]
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        parser.error(f"unknown kernels {unknown}; see python -m bench --list")
    kernels = [BY_NAME[n] for n in names] if names else KERNELS
    rows = measure_all(kernels, sizes)
    print(budget_table(rows, args.markdown))
    from .targets import compile_budget
    target, measured, met = compile_budget(rows)
    print(f"\n{target}: {measured}: {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
