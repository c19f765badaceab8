"""What passes buy: each kernel compiled with the full pass pipeline and without the
passes named for it (``fold_constants``/``simplify_algebra``; ``bound_loop_counters``
and ``unroll_loops`` for the recurrence; ``unroll_loops`` for two recurrences in one
loop; ``merge_element_writes`` for a bubble-sort pass), timed side by side in one run.

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
from .validate import mismatch  # noqa: E402

SIMPLIFY = (passes.fold_constants, passes.simplify_algebra)
CASES = [("gelu", k.gelu, k.vector_f32, SIMPLIFY),
         ("pairwise_distances", k.pairwise_distances, k.point_clouds, SIMPLIFY),
         ("layer_norm", k.layer_norm, k.layer_norm_inputs, SIMPLIFY),
         ("relu_inplace", k.relu_inplace, k.vector_f32, SIMPLIFY),
         ("recurrence", k.recurrence, k.recurrence_inputs, (passes.bound_loop_counters,)),
         ("recurrence", k.recurrence, k.recurrence_inputs, (passes.unroll_loops,)),
         ("two_recurrences", k.two_recurrences, k.recurrence_inputs, (passes.unroll_loops,)),
         ("bubble_pass", k.bubble_pass, k.recurrence_inputs, (passes.merge_element_writes,))]


def measure(size="medium"):
    full = list(passes.PIPELINE)
    rows = []
    try:
        for name, fn, inputs, dropped in CASES:
            args = inputs(size)
            without = [p for p in full if p not in dropped]
            times = {"numpy": median_time(lambda: fn(*[a.copy() for a in args]))[0]}
            for label, pipeline in (("without", without), ("with", full)):
                passes.PIPELINE[:] = pipeline     # read when a signature is traced
                compiled = nptf.compile(fn, adaptive=False)
                wrong = mismatch(compiled(*args), fn(*[a.copy() for a in args]))
                if wrong:
                    raise AssertionError(f"{name} {label} the passes: {wrong}")
                times[label] = median_time(lambda: compiled(*args))[0]
            rows.append([name, size, ", ".join(p.__name__ for p in dropped),
                         f"{times['without'] * 1e3:.3f} ms", f"{times['with'] * 1e3:.3f} ms",
                         f"{times['without'] / times['with']:.2f}x",
                         f"{times['numpy'] * 1e3:.3f} ms"])
    finally:
        passes.PIPELINE[:] = full
    return rows


def main():
    print(table(["kernel", "size", "passes turned off", "without them", "with", "speed-up",
                 "NumPy"],
                measure(), True))


if __name__ == "__main__":
    main()
