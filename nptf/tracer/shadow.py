"""The values of the call being traced, where the trace asks for them.

The runtime traces a function on a call whose arguments it holds. Where the trace must
assume something the data decide (which path an `if` whose paths cannot be one graph's
takes, ``sites.assume_path``), the best guess is what this call's data say: the
graph of the first call then holds for it, and the graph's checks still decide every call.
``value_of`` computes a value of the function's graph with NumPy's rules
(``graph_ir.evaluate``), from the call's arguments, running the equations emitted since
it last ran; a value it cannot compute that way (from a print or a draw, which act when
the graph runs, a failed check, an input it was not given) has none here, and a graph
that takes longer than ``SHADOW_SECONDS`` in all (a long loop, a large product: the
guess must not cost more than the trace) gives no more values for the rest of the trace.
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
# What the trace asked for inside a branch or loop body (``wanted_inside``).
_WANTED = contextvars.ContextVar("nptf_wanted_inside", default=None)
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
                # (The inputs past the call's arguments, a seed or a Generator's state the
                # trace added, have no value here.)
                self.env = {v: np.asarray(x) for v, x in zip(self.builder.inputs, self.values)}
            with np.errstate(all="ignore"):
                while self.done < len(self.builder.eqns):
                    eqn = self.builder.eqns[self.done]
                    self.done += 1
                    # Acts (a print, a draw) happen when the graph runs, not here: what
                    # they give, and all that is computed from it, has no value here.
                    if _acts(eqn) or any(type(a) is not Literal and a not in self.env
                                         for a in eqn.inputs):
                        continue
                    self.before_eqn(eqn)
                    try:
                        self.write(eqn.outputs, self.run_eqn(eqn, self.read_inputs(eqn)))
                    except _Stop:
                        raise
                    except Exception:   # noqa: BLE001  (a failed check, a rule NumPy
                        continue        # cannot run: no value)
            return self.read(atom) if type(atom) is Literal or atom in self.env else None
        except _Stop:       # past the time it may take: no more guesses
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
def wanted_inside():
    """Yields a list that holds a value for each time the trace in it asked for a value
    (``value``) inside a branch or loop body, where none is given: run in the function's
    own graph, on the path the data take, the trace could have it."""
    wanted, outer = [], _WANTED.get()
    token = _WANTED.set(wanted)
    try:
        yield wanted
    finally:
        _WANTED.reset(token)
        if outer is not None:
            outer.extend(wanted)        # asked inside the branches around too


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


def value(atom):
    """The NumPy value of ``atom`` (a traced value's) on the call being traced, where the
    function's own graph (not a branch's or a loop body's) computes it from the call's
    arguments; else None (noted for ``wanted_inside``)."""
    shadow = _SHADOW.get()
    if shadow is None:
        return None
    if current_builder() is not shadow.builder:
        wanted = _WANTED.get()
        if wanted is not None:
            wanted.append(atom)
        return None
    found = shadow.value_of(atom)
    return None if found is None else np.asarray(found, dtype=atom.type.dtype)


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
