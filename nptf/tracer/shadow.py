"""The values of the call being traced, where the trace asks for them.

The runtime traces a function on a call whose arguments it holds. Where the trace must
assume something the data decide (which path an `if` whose paths cannot be one graph's
takes, ``assumptions.assume_path``), the best guess is what this call's data say: the
graph of the first call then holds for it, and the graph's checks still decide every call.
``value_of`` computes a value of the function's graph with NumPy's rules
(``graph_ir.evaluate``), from the call's arguments, running the equations emitted since
it last ran; a graph it cannot run that way (a print, a draw, a failed check, an input it
was not given), or one that takes longer than ``SHADOW_SECONDS`` in all (a long loop, a
large product: the guess must not cost more than the trace), gives no more values for
the rest of the trace.
"""
from __future__ import annotations

import contextlib
import contextvars
import time

import numpy as np

from ..graph_ir.evaluate import Evaluator
from ..graph_ir.ir import Graph, Literal
from .builder import current_builder

# The values of the graph inputs of the call being traced, in the order of the trace's
# inputs (``call_values``); the trace's shadow of them (``shadowing``).
_VALUES = contextvars.ContextVar("nptf_call_values", default=None)
_SHADOW = contextvars.ContextVar("nptf_shadow", default=None)
# Seconds a trace's shadow may spend running equations, over all its guesses.
SHADOW_SECONDS = 0.5


class _Stop(Exception):
    """An equation the shadow does not run."""


class _Shadow(Evaluator):
    """The function's graph run with NumPy as far as it is built."""

    def __init__(self, builder, values):
        super().__init__()
        self.builder, self.values, self.done, self.broken = builder, values, 0, False
        self.spent, self.deadline, self.ran = 0.0, None, 0

    def before_eqn(self, eqn):
        # Each equation, a loop body's on every iteration too.
        self.ran += 1
        if self.ran % 64 == 0 and time.perf_counter() > self.deadline:
            raise _Stop

    def value_of(self, atom):
        if isinstance(atom, Literal):
            return atom.value
        if self.broken or self.spent >= SHADOW_SECONDS:
            self.broken = True
            return None
        start = time.perf_counter()
        self.deadline = start + SHADOW_SECONDS - self.spent
        try:
            if not self.env:
                if len(self.values) < len(self.builder.inputs):
                    raise _Stop
                self.env = {v: np.asarray(x) for v, x in zip(self.builder.inputs, self.values)}
            with np.errstate(all="ignore"):
                while self.done < len(self.builder.eqns):
                    eqn = self.builder.eqns[self.done]
                    self.done += 1
                    # Acts (a print, a run-time check of NumPy's errors, a draw) happen
                    # when the graph runs, not here.
                    if _acts(eqn):
                        raise _Stop
                    self.before_eqn(eqn)
                    self.write(eqn.outputs, self.run_eqn(eqn, self.read_inputs(eqn)))
            return self.read(atom)
        except Exception:   # noqa: BLE001  (a failed check, a rule NumPy cannot run: no guess)
            self.broken = True
            return None
        finally:
            self.spent += time.perf_counter() - start


def _acts(eqn):
    """Whether ``eqn``, or one of its sub-graphs' equations, prints, draws or otherwise
    acts beyond raising NumPy's errors (``check``)."""
    effects = eqn.op.effects
    if eqn.op.kind == "random" or eqn.op.each_run or (
            eqn.op.name != "check" and effects is not None and effects(eqn.params)):
        return True
    return any(_acts(e) for v in eqn.params.values()
               for g in (v if isinstance(v, tuple) else (v,)) if isinstance(g, Graph)
               for e in g.eqns)


@contextlib.contextmanager
def call_values(values):
    """Traces in it are of a call whose graph inputs take ``values``."""
    token = _VALUES.set(list(values))
    try:
        yield
    finally:
        _VALUES.reset(token)


@contextlib.contextmanager
def shadowing(builder):
    """The trace whose graph ``builder`` builds may ask ``guess`` (where the runtime gave
    the call's values)."""
    values = _VALUES.get()
    token = _SHADOW.set(None if values is None else _Shadow(builder, values))
    try:
        yield
    finally:
        _SHADOW.reset(token)


def guess(tracer):
    """The Python bool of the traced 0-d ``tracer`` on the call being traced, where the
    function's own graph (not a branch's or a loop body's) computes it from the call's
    arguments; else None."""
    shadow = _SHADOW.get()
    if shadow is None or current_builder() is not shadow.builder:
        return None
    value = shadow.value_of(tracer.atom)
    if value is None or np.size(value) != 1:
        return None
    return bool(np.asarray(value).reshape(()))
