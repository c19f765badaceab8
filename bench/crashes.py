"""NPBench kernels through nptf in many fresh processes, counting how each process ended.

    python -m bench.crashes -k mlp --runs 20                 # default settings, one at a time
    python -m bench.crashes -k mlp,nbody --runs 20 --jobs 2  # two processes at once (load)
    python -m bench.crashes -k mlp --mode strict --runs 10

Each run is one process of NPBench's own runner for one kernel (``run.py --child``: the
reference, the first call, then ``--warmup`` + ``--repeat`` calls on fresh copies of the
inputs), with ``faulthandler`` on, so that a process killed by a signal leaves the Python
stack of every thread in its stderr. A crash that shows once in tens of runs, and only
beside other work, needs this many processes to be seen at all. Prints one line per run
and a summary per kernel: runs, rows ok, and each other way a process ended (its exit
status, or the signal that killed it), with the first lines of the fatal error: which
thread crashed, and the frames faulthandler printed.
"""
from __future__ import annotations

import argparse
import collections
import concurrent.futures
import os
import signal
import subprocess
import sys
import time

from .npbench import MODES, NPBENCH, child_env, snapshot


def run_once(kernel, mode, preset, warmup, repeat, timeout, tree):
    """(how the process ended, the row's status or None, the fatal error's first lines), the
    process importing ``tree`` (a ``snapshot``)."""
    command = [sys.executable, "-X", "faulthandler", str(NPBENCH / "run.py"),
               "--compile", MODES[mode], "-p", preset, "--warmup", str(warmup),
               "--repeat", str(repeat), "--child", kernel]
    try:
        done = subprocess.run(command, env=child_env(tree), capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", None, ""
    status = next((line.split('"status": "')[1].split('"')[0]
                   for line in done.stdout.splitlines()
                   if line.startswith("@@ROW@@") and '"status": "' in line), None)
    code = done.returncode
    ended = "exit 0" if code == 0 else f"exit {code}" if code > 0 else \
        signal.Signals(-code).name
    fatal = [line for line in done.stderr.splitlines()
             if line.startswith(("Fatal Python error", "Traceback", "terminate called",
                                 "Current thread", "Thread 0x", "  File"))][:12]
    if fatal and fatal[0].startswith("Traceback"):     # and the exception itself
        fatal.append(done.stderr.strip().splitlines()[-1])
    return ended, status, "\n".join(fatal)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", "--kernels", default="mlp", help="comma separated")
    parser.add_argument("--mode", default="default", choices=sorted(MODES))
    parser.add_argument("-p", "--preset", default="S", choices=["S", "M", "L", "paper"])
    parser.add_argument("--runs", type=int, default=10, help="processes per kernel")
    parser.add_argument("--jobs", type=int, default=1, help="processes at once")
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--timeout", type=int, default=600, help="seconds per process")
    args = parser.parse_args(argv)
    kernels = [k for k in args.kernels.split(",") if k]
    ended = {k: collections.Counter() for k in kernels}
    with snapshot() as tree, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        jobs = {pool.submit(run_once, k, args.mode, args.preset, args.warmup, args.repeat,
                            args.timeout, tree): k for k in kernels for _ in range(args.runs)}
        for job in concurrent.futures.as_completed(jobs):
            kernel = jobs[job]
            how, status, fatal = job.result()
            ended[kernel][how if how != "exit 0" else f"exit 0, {status}"] += 1
            print(f"{time.strftime('%H:%M:%S')} {kernel}: {how}, row {status}", flush=True)
            if fatal:
                print("    " + fatal.replace("\n", "\n    "), flush=True)
    print(f"\n{args.mode} settings, preset {args.preset}, {args.jobs} at once, "
          f"{os.cpu_count()} cores")
    for kernel in kernels:
        counts = ", ".join(f"{n} {how}" for how, n in sorted(ended[kernel].items()))
        print(f"{kernel}: {args.runs} runs: {counts}")


if __name__ == "__main__":
    main()
