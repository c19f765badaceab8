"""XLA executables that never split a loop over threads, for the executor trial.

XLA's CPU compiler splits an elementwise loop that reads and writes 512 KiB or
more (a memory-bound one; compute-bound ones from less) into tasks for several cores,
run on a thread pool. On a virtual machine, handing a task to a sleeping
thread and waiting for it costs tens to a hundred microseconds a time: a
256x256 Jacobi solve spent about 0.12 ms of its 0.30 ms that way in its set-up
(three split loops): 0.18 ms compiled without (by hand). XLA has no flag for this; it
sizes the split by the CPUs the *compiling thread* may run on (its CPU
affinity), and TensorFlow compiles an XLA function on the thread of its first
call. So that call runs with the thread confined to one CPU. Threads that
TensorFlow starts during it (its pools, on a process's first XLA call) would
inherit the confinement for good: they get the full set back at once.
"""
from __future__ import annotations

import os

# Below this many bytes in an op's operands and result no loop is split, so the
# executable would be XLA's usual one (a split needs 512 KiB for a memory-bound
# loop; 32 KiB keeps compute-heavy fusions in).
SPLIT_BYTES = 32 << 10


def _threads():
    return {int(t) for t in os.listdir("/proc/self/task")}


def _available():
    try:
        return len(os.sched_getaffinity(0)) > 1 and bool(_threads())
    except (AttributeError, OSError):   # no affinity (macOS, Windows) or no /proc
        return False


AVAILABLE = _available()


def on_one_cpu(run):
    """``run()`` with the calling thread confined to one of its CPUs; afterwards the
    thread and every thread started meanwhile (which inherited the confinement) may
    use all of them again."""
    cpus = os.sched_getaffinity(0)
    one = {min(cpus)}
    before = _threads()
    os.sched_setaffinity(0, one)
    try:
        return run()
    finally:
        os.sched_setaffinity(0, cpus)
        for tid in _threads() - before:
            try:
                if os.sched_getaffinity(tid) == one:
                    os.sched_setaffinity(tid, cpus)
            except OSError:     # the thread has ended
                pass


def compiled_on_one_cpu(caller):
    """``caller`` (of an XLA function not yet run) whose first call, which compiles it,
    runs ``on_one_cpu``."""
    first = [True]

    def call(*tensors):
        if first:
            first.clear()
            return on_one_cpu(lambda: caller(*tensors))
        return caller(*tensors)
    return call


def may_split(eqns):
    """Whether XLA may split a loop of these equations (one with operands and result
    large enough): otherwise the one-CPU executable would be the usual one."""
    return any(sum((v.type.size or 0) * v.type.dtype.itemsize for v in (*e.inputs, *e.outputs))
               >= SPLIT_BYTES for e in eqns)
