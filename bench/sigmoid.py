"""The TensorFlow NumPy guide's benchmark: sigmoid over float32 vectors of 2^0 ... 2^20.

Contenders: NumPy; nptf (the graph on every call, adaptive=False, and the default,
adaptive dispatch); the guide's hand-written tf.function over tf.experimental.numpy,
without and with XLA. Every contender takes a NumPy array and returns a NumPy array,
and every result is checked against NumPy before it is timed.

Run:  python -m bench.sigmoid [--plot bench/sigmoid.png] [--markdown]
"""
from __future__ import annotations

import os
import sys

if __package__ in (None, ""):      # run as a script: make the bench package importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "bench"
    import bench  # noqa: F401  (quiets TensorFlow's start-up log before it is imported)

import argparse  # noqa: E402

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import nptf  # noqa: E402

from . import tf_baselines  # noqa: E402
from .kernels import sigmoid  # noqa: E402
from .report import format_seconds, have_matplotlib, table  # noqa: E402
from .timing import MIN_WARMUP, MIN_WARMUP_ADAPTIVE, median_time  # noqa: E402
from .validate import mismatch  # noqa: E402

EXPONENTS = sorted({*range(0, 21, 2), 5})   # 32 too: the adaptive target names sizes 1 and 32


def contenders():
    tnp_graph = tf.function(tf_baselines.sigmoid)
    tnp_xla = tf.function(tf_baselines.sigmoid, jit_compile=True)
    return {
        "numpy": sigmoid,
        "nptf": nptf.compile(sigmoid, adaptive=False),
        "nptf adaptive": nptf.compile(sigmoid, adaptive=True),
        "tnp tf.function": lambda y: tnp_graph(y).numpy(),
        "tnp tf.function xla": lambda y: tnp_xla(y).numpy(),
    }


def run(repeat):
    """{contender: [seconds or None per size]} and the sizes."""
    fns = contenders()
    sizes = [2 ** e for e in EXPONENTS]
    times = {name: [] for name in fns}
    rng = np.random.default_rng(0)
    for n in sizes:
        y = rng.standard_normal(n).astype(np.float32)
        expected = sigmoid(y)
        for name, fn in fns.items():
            wrong = mismatch(fn(y), expected)
            if wrong:
                print(f"WRONG {name} at n={n}: {wrong}", file=sys.stderr)
                times[name].append(None)
                continue
            warmup = MIN_WARMUP_ADAPTIVE if name == "nptf adaptive" else MIN_WARMUP
            times[name].append(median_time(lambda: fn(y), repeat, warmup)[0])
        print(f"\r  n = 2^{int(np.log2(n))} done", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return sizes, times


def sigmoid_table(sizes, times, markdown=False):
    names = list(times)
    body = []
    for i, n in enumerate(sizes):
        base = times["numpy"][i]
        row = [str(n)]
        for name in names:
            t = times[name][i]
            row.append("WRONG" if t is None else format_seconds(t) if name == "numpy"
                       else f"{format_seconds(t)} ({base / t:.2f}x)")
        body.append(row)
    return table(["n"] + names, body, markdown)


def plot(sizes, times, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 5))
    for name, ts in times.items():
        pts = [(n, t * 1e6) for n, t in zip(sizes, ts) if t is not None]
        ax.plot(*zip(*pts), marker="o", label=name)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("size (float32 elements)")
    ax.set_ylabel("time per call (µs)")
    ax.set_title("sigmoid: 1 / (1 + exp(-y))")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--plot", default=os.path.join(os.path.dirname(__file__), "sigmoid.png"))
    args = parser.parse_args(argv)
    sizes, times = run(args.repeat)
    print("sigmoid, float32, median time per call (speed-up over NumPy)\n")
    print(sigmoid_table(sizes, times, args.markdown))
    if have_matplotlib():
        plot(sizes, times, args.plot)
        print(f"\nWrote {args.plot}")
    else:
        print("\nmatplotlib is not installed: no plot.")


if __name__ == "__main__":
    main()
