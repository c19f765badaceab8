"""NPBench (``../shared/npbench``): its 54 kernels, unmodified, through nptf.

    python -m bench.npbench                      # preset S, strict and default settings
    python -m bench.npbench -p M -k lu,cholesky  # a preset and a subset
    python -m bench.npbench --modes strict       # only what really compiles
    python -m bench.npbench --modes strict,default,numba   # and numba.njit of the same code
    python -m bench.npbench --modes strict,strict_all_rewrites -k lu   # the loop-rewrite guard's cost

Runs NPBench's own runner (each kernel in its own process, results and mutated
arguments checked against NumPy) once per mode and prints one markdown table:
per kernel the status in each mode, the first call (tracing and compiling
included) and the steady-state times of NumPy and of nptf with their ratio.

Modes: ``strict`` is ``nptf.compile(f, fallback="raise")``, so a kernel counts only
if nptf compiles it; ``default`` is ``nptf.compile(f)``, where a kernel nptf cannot
compile runs with NumPy; ``numba`` is ``numba.njit(f)`` of the same code, to compare
with (``pip install -e ".[bench]"``). A kernel that is wrong, fails or times out says so in its
row and gets no time.
"""
from __future__ import annotations

import argparse
import contextlib
import csv
import datetime
import math
import os
import pathlib
import platform
import shutil
import subprocess
import sys
import tempfile

import nptf

ROOT = pathlib.Path(__file__).resolve().parents[1]
NPBENCH = pathlib.Path(os.environ.get("NPBENCH_ROOT", ROOT.parent / "shared" / "npbench"))


def strict(fn):
    """Only what nptf compiles counts."""
    return nptf.compile(fn, fallback="raise")


def default(fn):
    """nptf's default settings: NumPy runs what nptf cannot compile."""
    return nptf.compile(fn)


def strict_all_rewrites(fn):
    """``strict`` with every Grappler rewrite on in graphs with loops: what turning the
    arithmetic optimizer off there (TensorFlow 2.21 runs some loop bodies wrongly with
    it) costs. Not for use: it may return TensorFlow's wrong answers."""
    from nptf.runtime import compiled
    compiled.LOOP_REWRITES_OFF = ()
    return strict(fn)


def numba_njit(fn):
    """``numba.njit`` of the same NumPy code (the ``bench`` extra), to compare with."""
    import numba
    return numba.njit(fn)


MODES = {"strict": "bench.npbench:strict", "default": "bench.npbench:default",
         "strict_all_rewrites": "bench.npbench:strict_all_rewrites",
         "numba": "bench.npbench:numba_njit"}


@contextlib.contextmanager
def snapshot():
    """A directory holding a copy of ``nptf`` and ``bench`` (their Python files) as they are
    now, for the kernels' processes to import. Each process imports them when it starts,
    minutes into a run: from the working tree, a merge or an edit landing meanwhile can
    hand a process half the new files (``ImportError``: exit status 1, the row
    ``Crash(rc=1)``)."""
    with tempfile.TemporaryDirectory(prefix="nptf-snapshot-") as tmp:
        for package in ("nptf", "bench"):
            shutil.copytree(ROOT / package, os.path.join(tmp, package),
                            ignore=lambda folder, names: [
                                n for n in names if n == "__pycache__" or
                                (not n.endswith(".py") and
                                 not os.path.isdir(os.path.join(folder, n)))])
        yield tmp


def child_env(tree):
    """The environment of a kernel's process: ``tree`` (a ``snapshot``) first on its path."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join(
        [tree] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))


def run_mode(mode, preset, kernels, repeat, warmup, timeout, tree):
    """Rows of NPBench's detailed CSV for one mode, the kernels importing ``tree``."""
    with tempfile.TemporaryDirectory() as tmp:
        details = os.path.join(tmp, "details.csv")
        command = [sys.executable, str(NPBENCH / "run.py"), "--compile", MODES[mode],
                   "-p", preset, "--repeat", str(repeat), "--warmup", str(warmup),
                   "--timeout", str(timeout),
                   "--details", details]
        if kernels:
            command += ["-k", kernels]
        env = child_env(tree)
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        if not os.path.exists(details):
            raise SystemExit(f"NPBench's runner failed:\n{done.stdout}\n{done.stderr}")
        with open(details) as f:
            return {row["name"]: row for row in csv.DictReader(f)}


def _ms(text):
    return f"{float(text):.1f}" if text else ""


def _status(row):
    if row is None:
        return ""
    return row["status"] if row["status"] == "ok" else f"{row['status']} ({row['error_type']})"


def table(results, modes):
    """One row per kernel: its status in each mode, NumPy's time, then per mode the first
    call (tracing and compiling included), the steady-state time and the speed-up."""
    names = sorted(set().union(*(r.keys() for r in results.values())))
    head = ["kernel"] + [f"{m}" for m in modes] + ["NumPy ms"]
    for m in modes:
        head += [f"first call ms ({m})", f"nptf ms ({m})", f"speed-up ({m})"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    ok = {m: 0 for m in modes}
    for name in names:
        rows = {m: results[m].get(name) for m in modes}
        cells = [name] + [_status(rows[m]) for m in modes]
        numpy_ms = next((r["numpy_ms"] for r in rows.values() if r and r["numpy_ms"]), "")
        cells.append(_ms(numpy_ms))
        for m in modes:
            row = rows[m]
            good = row is not None and row["status"] == "ok"
            ok[m] += good
            cells += [_ms(row["first_call_ms"]) if good else "",
                      _ms(row["compiled_ms"]) if good else "",
                      f"{float(row['speedup']):.2f}x" if good and row["speedup"] else ""]
        lines.append("| " + " | ".join(cells) + " |")
    summary = ", ".join(f"{m}: {ok[m]}/{len(names)} ok" for m in modes)
    means = []
    for m in modes:
        ups = [float(r["speedup"]) for r in results[m].values()
               if r["status"] == "ok" and r["speedup"]]
        if ups:
            means.append(f"{m} {math.exp(sum(map(math.log, ups)) / len(ups)):.2f}x "
                         f"({len(ups)} kernels)")
    summary += "\n\nGeometric mean speed-up over NumPy: " + ", ".join(means)
    return "\n".join(lines) + f"\n\n{summary}\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-p", "--preset", default="S", choices=["S", "M", "L", "paper"])
    parser.add_argument("-k", "--kernels", default="", help="comma separated subset")
    parser.add_argument("--modes", default="strict,default")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=20,
                        help="untimed calls after the first, so the executor trial is over")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per kernel")
    args = parser.parse_args(argv)
    modes = [m for m in args.modes.split(",") if m]
    unknown = set(modes) - set(MODES)
    if unknown:
        parser.error(f"unknown modes {sorted(unknown)}; choose from {sorted(MODES)}")
    with snapshot() as tree:
        results = {m: run_mode(m, args.preset, args.kernels, args.repeat, args.warmup,
                               args.timeout, tree)
                   for m in modes}
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print(f"NPBench preset {args.preset}, {now}, {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores, OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}, "
          f"median of {args.repeat} calls after {args.warmup} warm-up calls; first call includes "
          f"tracing and compiling\n")
    print(table(results, modes))


if __name__ == "__main__":
    main()
