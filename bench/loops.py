"""Loop bodies that write arrays element by element or row by row, compiled by nptf and
run by NumPy as written, side by side in one run. They are not in the suite: each stands
for a write pattern that once made XLA copy the whole array every iteration (two writes
and a read: ``bubble_pass``; two writes that may meet: ``reverse_in_place``; a row at a
traced index: ``trajectory``; a read used after a write into the same array:
``two_recurrences``; one element of a 2-d array: ``running_rows``; a write in each
branch of an if/elif/else: ``clip_square``), or that once made the
loop run unrolled (a window at a traced start: ``deposit_windows``; ``edit_distance``
needs the builtin ``min`` of traced numbers).

Run:  python -m bench.loops
"""
from __future__ import annotations

import os
import sys

if __package__ in (None, ""):      # run as a script: make the bench package importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "bench"
    import bench  # noqa: F401  (quiets TensorFlow's start-up log before it is imported)

import numpy as np  # noqa: E402

import nptf  # noqa: E402

from . import kernels as k  # noqa: E402
from .report import table  # noqa: E402
from .timing import median_time  # noqa: E402
from .validate import mismatch  # noqa: E402

CASES = [("bubble_pass", k.bubble_pass, lambda: k.recurrence_inputs("medium"), "10,000 float64"),
         ("reverse_in_place", k.reverse_in_place, lambda: k.recurrence_inputs("medium"),
          "10,000 float64"),
         ("deposit_windows", k.deposit_windows, lambda: k.recurrence_inputs("medium"),
          "10,000 float64"),
         ("clip_square", k.clip_square, lambda: k.recurrence_inputs("medium"),
          "10,000 float64"),
         ("trajectory", k.trajectory, lambda: (np.random.default_rng(0).random(64),),
          "2,000 rows of 64"),
         ("two_recurrences", k.two_recurrences, lambda: k.recurrence_inputs("medium"),
          "10,000 float64"),
         ("running_rows", k.running_rows, lambda: (np.random.default_rng(0).random((100, 100)),),
          "100x100 cells"),
         ("edit_distance", k.edit_distance,
          lambda: tuple(np.random.default_rng(0).integers(0, 4, n) for n in (80, 90)),
          "80x90 cells")]


def measure():
    rows = []
    for name, fn, inputs, size in CASES:
        args = inputs()
        compiled = nptf.compile(fn, adaptive=False)
        wrong = mismatch(compiled(*args), fn(*[a.copy() for a in args]))
        if wrong:
            raise AssertionError(f"{name}: {wrong}")
        numpy = median_time(lambda: fn(*[a.copy() for a in args]))[0]
        ours = median_time(lambda: compiled(*args))[0]
        rows.append([name, size, f"{numpy * 1e3:.3f} ms", f"{ours * 1e3:.3f} ms",
                     f"{numpy / ours:.1f}x"])
    return rows


def main():
    print(table(["kernel", "size", "NumPy (Python loop)", "nptf", "speed-up"], measure(), True))


if __name__ == "__main__":
    main()
