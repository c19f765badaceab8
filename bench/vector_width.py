"""XLA's vector width: 512-bit registers (nptf's default on AVX-512 CPUs) against 256.

The width is a process-wide XLA flag (``--xla_cpu_prefer_vector_width``) that XLA
reads at its first compile, so each setting runs in processes of its own, and the
processes alternate (256, 512, 256, 512, ...) so that the machine's drift over the
run hits both alike. Each process checks every kernel against NumPy, then times it
under XLA (``jit_compile=True``: the flag touches only XLA's code) with the suite's
``median_time``. Reported: the median over each setting's processes.

Run:  python -m bench.vector_width [--sizes medium] [--kernels a,b] [--rounds 3]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

if __package__ in (None, ""):      # run as a script: make the bench package importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "bench"

WIDTHS = (256, 512)
# XLA code only, compute-heavy and memory-bound, with and without loops.
DEFAULT_KERNELS = ("sigmoid", "gelu", "saxpy", "softmax", "logsumexp", "layer_norm",
                   "pairwise_distances", "heat_step", "heat_1000_steps", "recurrence", "jacobi",
                   "fixed_point", "nbody", "relu_inplace", "smooth_interior")


def _child(names, sizes):
    """Runs in a process of one width: {"kernel size": seconds}, or raises on a wrong result."""
    import bench  # noqa: F401  (quiets TensorFlow's start-up log before it is imported)
    import nptf

    from . import kernels as k
    from .timing import median_time
    from .validate import mismatch

    times = {}
    for name in names:
        kernel = k.BY_NAME[name]
        for size in sizes:
            args = kernel.make_inputs(size)
            expected = kernel.fn(*[a.copy() for a in args])
            fn = nptf.compile(kernel.fn, jit_compile=True)
            wrong = mismatch(fn(*[a.copy() for a in args]), expected, kernel.rtol, kernel.atol)
            if wrong:
                raise AssertionError(f"{name} {size}: {wrong}")
            times[f"{name} {size}"] = median_time(lambda: fn(*args))[0]
    return times


def _run_width(width, names, sizes):
    flags = " ".join(f for f in os.environ.get("XLA_FLAGS", "").split()
                     if "xla_cpu_prefer_vector_width" not in f)
    env = dict(os.environ, XLA_FLAGS=f"{flags} --xla_cpu_prefer_vector_width={width}".strip())
    done = subprocess.run([sys.executable, "-m", "bench.vector_width", "--child",
                           "--kernels", ",".join(names), "--sizes", ",".join(sizes)],
                          capture_output=True, text=True, env=env,
                          cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if done.returncode:
        raise RuntimeError(f"width {width}: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.vector_width",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="medium")
    parser.add_argument("--kernels", default=",".join(DEFAULT_KERNELS))
    parser.add_argument("--rounds", type=int, default=3, help="processes per width")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    opts = parser.parse_args(argv)
    names, sizes = opts.kernels.split(","), opts.sizes.split(",")
    if opts.child:
        print(json.dumps(_child(names, sizes)))
        return 0
    from .report import table
    runs = {w: [] for w in WIDTHS}
    for r in range(opts.rounds):
        for width in WIDTHS:
            print(f"round {r + 1}/{opts.rounds}: width {width}", file=sys.stderr, flush=True)
            runs[width].append(_run_width(width, names, sizes))
    rows, ratios = [], []
    for key in runs[WIDTHS[0]][0]:
        t = {w: statistics.median(run[key] for run in runs[w]) for w in WIDTHS}
        ratios.append(t[512] / t[256])
        rows.append([key, f"{t[256] * 1e3:.3f} ms", f"{t[512] * 1e3:.3f} ms",
                     f"{t[512] / t[256]:.2f}"])
    print(table(["kernel", "256-bit", "512-bit", "512 / 256"], rows, markdown=opts.markdown))
    print(f"\nGeometric mean of 512 / 256: {statistics.geometric_mean(ratios):.3f} over "
          f"{len(ratios)} kernel-sizes; {opts.rounds} processes per width, alternating.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
