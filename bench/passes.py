"""What the simplifying passes buy: each kernel compiled with the full pass pipeline
and without ``fold_constants``/``simplify_algebra``, timed side by side in one run.

Run:  python -m bench.passes
"""
from __future__ import annotations

import os
import sys

if __package__ in (None, ""):      # run as a script: make the bench package importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "bench"
    import bench  # noqa: F401  (quiets TensorFlow's start-up log before it is imported)

import nptf  # noqa: E402
from nptf.graph_ir import passes  # noqa: E402

from . import kernels as k  # noqa: E402
from .report import table  # noqa: E402
from .timing import median_time  # noqa: E402

CASES = [("gelu", k.gelu, k.vector_f32), ("pairwise_distances", k.pairwise_distances, k.point_clouds),
         ("layer_norm", k.layer_norm, k.layer_norm_inputs), ("relu_inplace", k.relu_inplace, k.vector_f32)]


def measure(size="medium"):
    full = list(passes.PIPELINE)
    without = [p for p in full if p not in (passes.fold_constants, passes.simplify_algebra)]
    rows = []
    try:
        for name, fn, inputs in CASES:
            args = inputs(size)
            times = {}
            for label, pipeline in (("without", without), ("with", full)):
                passes.PIPELINE[:] = pipeline     # read when a signature is traced
                compiled = nptf.compile(fn)
                compiled(*args)
                times[label] = median_time(lambda: compiled(*args))[0]
            rows.append([name, size, f"{times['without'] * 1e3:.3f} ms", f"{times['with'] * 1e3:.3f} ms",
                         f"{times['without'] / times['with']:.2f}x"])
    finally:
        passes.PIPELINE[:] = full
    return rows


def main():
    print(table(["kernel", "size", "without the passes", "with", "speed-up"], measure(), True))


if __name__ == "__main__":
    main()
