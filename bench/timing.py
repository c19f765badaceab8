"""Timing helpers: medians with warm-up, first calls with a deadline, copy bandwidth, a
function with NumPy and compiled side by side."""
from __future__ import annotations

import ctypes
import statistics
import threading
import time

import numpy as np

REPEAT_TARGET_S = 0.02     # each repeat runs the call enough times to last about this long
MEASURE_BUDGET_S = 1.5     # slow calls get fewer repeats so one measurement stays near this
# Every contender warms up alike, for up to this long: on large arrays the first hundred
# or so calls of a process pay page faults until the C allocator settles on reusing
# blocks, and whoever is timed first would pay for everyone.
WARMUP_S, WARMUP_CALLS = 0.5, 300
# ... and for at least this many calls: the executor trial times its ways to run a graph
# on the first calls with new shapes (up to four ways, three calls each, up to six, their
# compiles in the background), and adaptive dispatch (the default) times the graph
# against the function and its NumPy program (up to ten calls; after the trial where it
# runs).
MIN_WARMUP, MIN_WARMUP_ADAPTIVE = 26, 110
SETTLE_S, SETTLE_WINDOW, SETTLED_FAULTS = 1.5, 10, 8


def _faults():
    try:
        import resource
    except ImportError:
        return 0
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


class DeadlineExceeded(Exception):
    """A first call (trace + compile + run) took longer than the deadline."""


def median_time(call, repeat=7, min_warmup=MIN_WARMUP):
    """Median seconds per call over up to ``repeat`` repeats, after warm-up.

    Returns (median, repeats, calls per repeat). Slow calls get fewer repeats
    (at least 3) so that the suite stays within its time budget.
    """
    start = time.perf_counter()
    calls, last = 0, start
    while calls < min_warmup or (calls < WARMUP_CALLS and last - start < WARMUP_S):
        call()
        calls += 1
        one, last = time.perf_counter() - last, time.perf_counter()
    # Then until calls stop page-faulting: the C allocator takes a few hundred calls
    # to settle around TensorFlow's 64-byte aligned buffers, and whoever is timed
    # before it has would be charged for it.
    while last - start < SETTLE_S:
        faults = _faults()
        t0 = time.perf_counter()
        for _ in range(SETTLE_WINDOW):
            call()
        last = time.perf_counter()
        one = (last - t0) / SETTLE_WINDOW
        if (_faults() - faults) / SETTLE_WINDOW <= SETTLED_FAULTS:
            break
    one = max(one, 1e-7)
    number = max(1, int(REPEAT_TARGET_S / one))
    repeats = max(3, min(repeat, int(MEASURE_BUDGET_S / (one * number))))
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(number):
            call()
        samples.append((time.perf_counter() - t0) / number)
    return statistics.median(samples), repeats, number


def call_with_deadline(fn, seconds):
    """Run ``fn()`` in a worker thread; return (value, seconds taken).

    Past the deadline the worker is sent an asynchronous DeadlineExceeded, which
    stops it at its next Python bytecode (tracing is Python, so this is prompt;
    a long stretch inside TensorFlow's C++ finishes first), and DeadlineExceeded
    is raised here. Exceptions from ``fn`` are re-raised here.
    """
    box = {}

    def work():
        t0 = time.perf_counter()
        try:
            box["value"] = fn()
        except BaseException as e:  # noqa: BLE001  (handed back to the caller)
            box["error"] = e
        box["seconds"] = time.perf_counter() - t0

    worker = threading.Thread(target=work, daemon=True, name="bench-first-call")
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(worker.ident),
                                                   ctypes.py_object(DeadlineExceeded))
        worker.join(60)   # let it unwind so it stops competing for the two cores
        raise DeadlineExceeded(f"first call did not finish within {seconds:.0f} s")
    if "error" in box:
        raise box["error"]
    return box["value"], box["seconds"]


def copy_bandwidth(nbytes=2 ** 28, repeat=5):
    """Copy-bandwidth ceiling in GB/s (bytes read + bytes written per second).

    Best of a one-thread and a two-thread ``np.copyto`` (copyto releases the GIL,
    so two threads copy two halves at once).
    """
    src = np.ones(nbytes // 8)
    dst = np.empty_like(src)

    def one_thread():
        np.copyto(dst, src)

    def two_threads():
        half = src.size // 2
        other = threading.Thread(target=np.copyto, args=(dst[half:], src[half:]))
        other.start()
        np.copyto(dst[:half], src[:half])
        other.join()

    results = {}
    for name, copy in (("1 thread", one_thread), ("2 threads", two_threads)):
        copy()
        best = min(_once(copy) for _ in range(repeat))
        results[name] = 2 * src.nbytes / best / 1e9
    return results


def _once(call):
    t0 = time.perf_counter()
    call()
    return time.perf_counter() - t0


def best_time(call, repeat):
    """The fastest of ``repeat`` calls, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def side_by_side(fn, check, run=lambda f: f(), repeat=20, warmup=60, **compile_kw):
    """``fn`` with NumPy, compiled with ``adaptive=False`` (every call the graph) and with
    the defaults: the best of ``repeat`` calls each, after ``warmup`` calls of each compiled
    form, and the first call of the first. ``run(f)`` calls ``f`` (a form of ``fn``) on
    the arguments; ``check(compiled)`` makes a compiled form's first call and checks its
    result against NumPy's. Returns (NumPy, graph, default, first call), in seconds."""
    # Imported here: scripts import this module after setting TensorFlow's and XLA's
    # environment, before TensorFlow loads.
    import nptf
    numpy_t = best_time(lambda: run(fn), repeat)
    times, first = [], None
    for adaptive in (False, True):
        compiled = nptf.compile(fn, adaptive=adaptive, **compile_kw)
        start = time.perf_counter()
        check(compiled)
        if first is None:
            first = time.perf_counter() - start
        for _ in range(warmup):
            run(compiled)
        times.append(best_time(lambda: run(compiled), repeat))
    return numpy_t, times[0], times[1], first
