"""The compile budget: how long tracing and lowering one signature may take, and how
large its graph may grow, before nptf gives up on compiling it.

Tracing unrolls Python loops whose bodies need concrete values; a few such loops
nested can make a graph of millions of operations that takes minutes to build and
longer for TensorFlow to compile. The budget stops that early, names the loop being
unrolled, and the runtime caches the decision (NumPy runs that signature).
"""
from __future__ import annotations

import contextlib
import contextvars
import os
import time

from .errors import UnsupportedError

# Operations one signature's graph may hold, loop bodies and branches counted once each.
MAX_OPERATIONS = 200_000


class _Default:
    def __repr__(self):
        return "10.0"

    def __reduce__(self):
        return "DEFAULT_BUDGET"     # the one sentinel, in every process


DEFAULT_BUDGET = _Default()     # nptf.compile's default: NPTF_COMPILE_BUDGET, else 10 s


def default_budget():
    """Seconds from ``NPTF_COMPILE_BUDGET`` (a number, or ``none`` for no limit), else 10."""
    text = os.environ.get("NPTF_COMPILE_BUDGET", "").strip()
    if not text:
        return 10.0
    if text.lower() == "none":
        return None
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"NPTF_COMPILE_BUDGET must be a number of seconds or 'none', "
                         f"got {text!r}") from None


class CompileBudgetError(UnsupportedError):
    """Compiling one signature would pass its compile budget (``compile_budget`` seconds,
    or ``MAX_OPERATIONS`` operations in its graph).

    Example: a loop of 2,000 iterations whose body indexes a Python list, unrolled into
    the graph. Fix: write the body so it compiles as a graph loop (arrays instead of
    Python lists), raise ``nptf.compile(..., compile_budget=...)``, or let the function
    run with NumPy (the default ``fallback="numpy"`` does so, with a warning).
    """


class Budget:
    """Deadline and operation count of one compile; ``tick`` is called per operation."""

    CHECK_EVERY = 256

    def __init__(self, seconds, name):
        self.seconds, self.name = seconds, name
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.operations = 0
        self.loops = []         # the unrolled loops being traced, outermost first

    def tick(self, where=""):
        self.operations += 1
        if self.operations % self.CHECK_EVERY:
            return
        if self.operations > MAX_OPERATIONS:
            self._fail(f"its graph passed {MAX_OPERATIONS:,} operations", where)
        if self.deadline is not None and time.perf_counter() > self.deadline:
            self._fail(f"compiling it passed its compile budget of {self.seconds:g} s", where)

    def _fail(self, why, where):
        loops = "; ".join(f"the loop at {at} is unrolled ({n} iterations)"
                          for at, n in self.loops)
        raise CompileBudgetError(
            f"nptf stopped compiling {self.name}: {why}"
            + (f" ({loops})" if loops else "") + ". Fix: write loop bodies that compile as "
            "graph loops (arrays rather than Python lists or objects), raise "
            "nptf.compile(..., compile_budget=SECONDS), or let it run with NumPy."
            + (f"\n  at {where}" if where else ""))

    @contextlib.contextmanager
    def unrolling(self, where, iterations):
        self.loops.append((where, iterations))
        try:
            yield
        finally:
            self.loops.pop()


_current = contextvars.ContextVar("nptf_budget", default=None)


def current_budget() -> Budget | None:
    return _current.get()


@contextlib.contextmanager
def budget(seconds, name):
    """Run a compile under a fresh budget of ``seconds`` (None: no time limit)."""
    token = _current.set(Budget(seconds, name))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


__all__ = ["Budget", "CompileBudgetError", "DEFAULT_BUDGET", "MAX_OPERATIONS", "budget",
           "current_budget", "default_budget"]
