"""One XLA flag, two settings, side by side: kernels timed under XLA in alternating processes.

XLA reads ``XLA_FLAGS`` at its first compile, so each setting runs in processes of its
own, and the processes alternate (A, B, A, B, ...) so that the machine's drift over
the run hits both alike. Each process checks every kernel against NumPy, then times
its first call (trace and XLA's compile included) and its steady state under XLA
(``jit_compile=True``, ``adaptive=False``: the flag touches only XLA's code) with the suite's
``median_time``. Reported: the median over each setting's processes.

Run:  python -m bench.xla_flags --flag xla_cpu_use_fusion_emitters --values true,false
      [--sizes small,medium] [--kernels a,b] [--rounds 3]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

if __package__ in (None, ""):      # run as a script: make the bench package importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "bench"

# XLA code only, compute-heavy and memory-bound, with and without loops.
DEFAULT_KERNELS = ("sigmoid", "gelu", "saxpy", "softmax", "logsumexp", "layer_norm",
                   "pairwise_distances", "heat_step", "heat_1000_steps", "recurrence", "jacobi",
                   "fixed_point", "nbody", "relu_inplace", "smooth_interior")


def _child(names, sizes):
    """Runs in a process of one setting: {"kernel size": [first call, steady state]} in
    seconds, or raises on a wrong result."""
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
            fn = nptf.compile(kernel.fn, jit_compile=True, compile_budget=None, adaptive=False)
            started = time.perf_counter()
            got = fn(*[a.copy() for a in args])
            first = time.perf_counter() - started
            wrong = mismatch(got, expected, kernel.rtol, kernel.atol)
            if wrong:
                raise AssertionError(f"{name} {size}: {wrong}")
            times[f"{name} {size}"] = [first, median_time(lambda: fn(*args))[0]]
    return times


def run_setting(flag, value, names, sizes):
    """The child's times in a process whose XLA_FLAGS set ``--flag=value``."""
    flags = " ".join(f for f in os.environ.get("XLA_FLAGS", "").split() if flag not in f)
    env = dict(os.environ, XLA_FLAGS=f"{flags} --{flag}={value}".strip())
    done = subprocess.run([sys.executable, "-m", "bench.xla_flags", "--child",
                           "--kernels", ",".join(names), "--sizes", ",".join(sizes)],
                          capture_output=True, text=True, env=env,
                          cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if done.returncode:
        raise RuntimeError(f"--{flag}={value}: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def compare(flag, values, names, sizes, rounds, markdown=False, out=sys.stdout):
    """Alternating runs of each setting; prints the table and the geometric means."""
    from .report import table
    a, b = values
    runs = {v: [] for v in values}
    for r in range(rounds):
        for value in values:
            print(f"round {r + 1}/{rounds}: --{flag}={value}", file=sys.stderr, flush=True)
            runs[value].append(run_setting(flag, value, names, sizes))
    rows, steady, first = [], [], []
    for key in runs[a][0]:
        t = {v: [statistics.median(run[key][i] for run in runs[v]) for i in (0, 1)]
             for v in values}
        steady.append(t[b][1] / t[a][1])
        first.append(t[b][0] / t[a][0])
        rows.append([key, f"{t[a][1] * 1e3:.3f} ms", f"{t[b][1] * 1e3:.3f} ms",
                     f"{steady[-1]:.2f}", f"{t[a][0]:.2f} s", f"{t[b][0]:.2f} s",
                     f"{first[-1]:.2f}"])
    print(table(["kernel", f"steady {a}", f"steady {b}", f"{b} / {a}", f"first call {a}",
                 f"first call {b}", f"{b} / {a}"], rows, markdown=markdown), file=out)
    print(f"\n--{flag}: geometric mean of {b} / {a}: steady state "
          f"{statistics.geometric_mean(steady):.3f}, first call "
          f"{statistics.geometric_mean(first):.3f}, over {len(steady)} kernel-sizes; "
          f"{rounds} processes per setting, alternating.", file=out)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.xla_flags",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--flag", default="xla_cpu_use_fusion_emitters",
                        help="an XLA flag, without the leading --")
    parser.add_argument("--values", default="true,false", help="its two settings")
    parser.add_argument("--sizes", default="medium")
    parser.add_argument("--kernels", default=",".join(DEFAULT_KERNELS))
    parser.add_argument("--rounds", type=int, default=3, help="processes per setting")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    opts = parser.parse_args(argv)
    names, sizes = opts.kernels.split(","), opts.sizes.split(",")
    if opts.child:
        print(json.dumps(_child(names, sizes)))
        return 0
    values = opts.values.split(",")
    if len(values) != 2:
        parser.error("--values takes two settings, comma-separated")
    compare(opts.flag, values, names, sizes, opts.rounds, opts.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
