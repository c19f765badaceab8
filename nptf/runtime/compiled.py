"""``nptf.compile``: trace once per input signature, run the TensorFlow graph after."""
from __future__ import annotations

import contextvars
import functools
import inspect
import linecache
import re
import threading
import time
import types
import uuid
import warnings
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
import tensorflow as tf

from ..budget import DEFAULT_BUDGET, CompileBudgetError, budget, default_budget
from ..errors import (ArgumentError, AssumptionError, BackendError, Error, OutsideTheGraphError,
                      UnsupportedError, warn_user)
from ..graph_ir.ops_checks import (assumption_site, assumptions_read, check_error, error_label,
                                   hands_over)
from ..graph_ir.walk import all_eqns
from ..graph_ir.passes import PIPELINE
from ..lowering import lower_graph, xla_obstacles
from ..tracer import handed_back, output_kinds, trace_function
from ..tracer.sites import FAILED_RUN, flipping, is_value_site
from ..tracer.builder import current_builder
from ..tracer import fp_errors
from ..tracer.convert import converted
from ..tracer.printing import holding
from ..tracer.shadow import call_values
from ..tracer.globals_read import still_bound
from ..tree import unflatten
from .adaptive import (DYNAMIC_SLOT, FIRST, GRAPH, NOT_YET, NUMPY, NUMPY_PROGRAM, STATIC_SLOT,
                       AdaptiveState, default_adaptive, no_program_reason, numpy_program_of,
                       plain_values, served_program)
from . import per_size
from .dispatch import (LOOP_REWRITES_OFF, TF_ALIGN, XLA_ALIGN, InputStager, fast_caller,
                       guard_rewrites, to_numpy, to_tensors, unexpected_output)
from .one_core import may_split
from .pickling import by_value_pickler_running, check_picklable
from .signature import GeneratorState, Static, number_list, signature_of
from .spec import Spec
from .xla_policy import ExecutorTrial, choose_xla_automatically


_NO_DEFAULT = object()

# Scalars a call may pass and still be sent to NumPy straight from the entry point: floats
# and complexes are graph inputs (any value), the others static (one value).
_STATIC_SCALARS = {int, bool, str, type(None)}
_HOT_SCALARS = {float, complex} | _STATIC_SCALARS
# Graphs traced for the values of Python floats that decide a size (per signature,
# ``Entry.floats_decide``) and of arrays of text (per function), before new values run
# with NumPy.
_VALUE_KEYED_GRAPHS = 16
# True while a call keyed with its floats' values is traced (``Compiled._floats_static``).
_FLOATS_KEYED = contextvars.ContextVar("nptf_floats_keyed", default=False)
# Traces of a call that run in Python more loops than the one before found no graph loop
# could run (``Compiled._trace_assuming_paths``).
_PYTHON_LOOP_TRACES = 3
# While another graph of a signature is traced for other data (``Compiled._variant``):
# the loops the signature's first trace ran in Python, where that trace assumed values
# (its trace without them, which fails, is not repeated); else None.
_ASSUMING_LOOPS = contextvars.ContextVar("nptf_assuming_loops", default=None)
# Graphs per signature traced with other assumptions of the kind of a result
# (``Compiled._run_assuming``), before a call whose data need yet another runs NumPy.
_ASSUMED_GRAPHS = 4


# Lists of at most this many numbers may be keyed by their numbers (``_decides``): sizes
# and parameters, where a longer one is data.
_VALUE_KEYED_LIST = 32


def _decides(value):
    """Whether ``value``, an argument traced as a graph input, may be one whose value
    decides a size or a Python decision: a Python float, or a short list of numbers (a
    network's ``layer_dims = [2, 5, 3, 1]``). Where tracing fails with it traced, calls
    are keyed by its value (``Entry.floats_decide``)."""
    return type(value) is float or (number_list(value) and
                                    np.size(value) <= _VALUE_KEYED_LIST)


class _StillCompiling(CompileBudgetError):
    """A call of a signature whose first call, past the compile budget, still compiles."""


class _FirstCall:
    """A graph's first call, run on a thread of its own. Not a daemon thread: one still
    inside TensorFlow when the interpreter finalizes aborts the process, so Python waits
    for it at exit."""

    def __init__(self, run, seconds):
        self.outs = self.error = self.late = None
        self.deadline = time.perf_counter() + seconds     # when its caller stops waiting
        self.finished = threading.Event()

        def target():
            try:
                self.outs = run()
            except BaseException as e:  # noqa: BLE001  (handed to the caller that waits)
                self.error = e
            finally:
                self.finished.set()
        threading.Thread(target=target, name="nptf first call", daemon=False).start()


@dataclass
class CacheInfo:
    hits: int = 0
    misses: int = 0
    traces: int = 0
    relaxations: int = 0
    fallbacks: int = 0
    size: int = 0


class Entry:
    """One input signature: its graph and concrete function, or the reason it falls back."""

    def __init__(self, traced=None, graph=None, concrete=None, fallback_reason=None, xla=False,
                 xla_reason="", shapes=None, checks=None):
        self.traced, self.graph, self.concrete = traced, graph, concrete
        self.fallback_reason = fallback_reason
        # Said once NumPy has run a call: where NumPy raises too, the error is the user's,
        # raised as tracing raised it (``trace_error``, with the user's line).
        self.fallback_warning = self.trace_error = None
        self.xla, self.xla_reason = xla, xla_reason
        # "xla" or "plain"; the executor trial may pick "xla, one CPU" or "plain, one thread".
        # None where NumPy runs the calls (fallback).
        self.executor = None if concrete is None else "xla" if xla else "plain"
        self.shapes = shapes            # per array leaf, with None for relaxed dimensions
        self.call = fast_caller(concrete) if concrete is not None else None
        self.dtypes = [tf.as_dtype(v.type.dtype) for v in graph.inputs] if graph is not None else []
        self.fresh = _fresh_outputs(graph) if graph is not None else []
        self.mutated = traced.mutated if traced is not None else []
        # A call runs the graph once where a second run would act twice: it writes into
        # its arguments, or prints (timings then take one run).
        self.once = bool(self.mutated) or (graph is not None and any(
            e.op.each_run for e in all_eqns(graph)))
        self.checks = checks or []        # (error, message) per run-time check output flag
        # Its print equations' calls, held back while it runs where a check may hand the
        # call to another run (``printing.holding``), one call at a time.
        self.held_writes = _held_writes(graph, self.checks)
        self.hold_lock = threading.Lock() if self.held_writes else None
        self.open_broadcasts = _open_broadcasts(graph) if graph is not None else []
        self.stager = InputStager(self.dtypes) if self.call is not None else None
        self._program = NOT_YET         # its NumPy program (adaptive.numpy_program_of)
        self.served = {}                # that program as the entry point calls it, per layout
        # Whether a call of the graph has succeeded: TensorFlow compiles at the first call,
        # so a failure before that is the graph's, after it the data's.
        self.proven = False
        # Seconds of the compile budget left for the first call, where TensorFlow compiles
        # (None: no limit), and that call while it runs on a thread of its own.
        self.compile_left = None
        self.first_call = None
        # Only a graph known to run under XLA may read less than 64-byte aligned inputs.
        self.input_align = XLA_ALIGN if xla else TF_ALIGN
        # The trace's error where the call passes Python floats, traced, which may decide a
        # size (a kernel's radius from ``sigma``): calls of this signature are keyed with
        # their floats' values instead (``Compiled._floats_static``).
        self.floats_decide = None
        self.float_values = 0
        self.floats_keyed = False       # traced with those floats' values
        # The assumption sites flipped in its trace (``tracer.sites``); the entry of
        # the signature's first trace (``root``), which holds the graphs traced with other
        # assumptions (``variants``, by flipped sites) and the one the last call ran
        # (``preferred``).
        self.assumed = frozenset()
        self.root = self
        self.variants = None
        self.preferred = None
        self.assumptions_read = None    # ``assumptions_read`` of its graph, once asked
        # Set once a call's data needed more graphs than ``_ASSUMED_GRAPHS``: a call whose
        # data fail the graph it runs first then runs NumPy, rather than each graph in turn
        # (data whose paths change call by call would pay for them all).
        self.exhausted = False


def _held_writes(graph, checks):
    if graph is None or not any(hands_over(error) for error, _ in checks):
        return []
    return [e.params["write"] for e in all_eqns(graph) if e.op.name == "print"]


def _with_seed(entry, values):
    """Functions that draw random numbers get a fresh key on every call, taken from NumPy's
    global random state (so ``np.random.seed`` before the call makes them reproducible)."""
    if entry.traced.random_seed:
        return list(values) + [np.random.randint(0, 2 ** 62, size=2, dtype=np.int64)]
    return values


def _with_captured(generators, values):
    """The graph's inputs of a call of a function that draws from NumPy Generators made
    outside it (``TracedFunction.captured``): after the arguments', each one's state. A
    Generator that is also an argument of the call would be two streams in the graph, as
    would one passed twice: such a call runs with NumPy."""
    values = list(values) + [GeneratorState.of(g) for g in generators]
    owners = [v.generator for v in values if isinstance(v, GeneratorState)]
    if len({id(g) for g in owners}) != len(owners):
        raise OutsideTheGraphError("the function draws from one NumPy Generator through two "
                                   "names (an argument and a global, or two arguments)")
    return values


def _raise_failed_checks(flags, checks):
    # Every call pays this test: bytes against bytes, not ndarray.all(), whose
    # reduction machinery costs 10-15 us right after a graph has run (cold caches).
    if flags.tobytes() == b"\x01" * len(checks):
        return
    flags = flags.tolist()
    failed = [(error, message) for ok, (error, message) in zip(flags, checks) if not ok]
    # A failed assumption first: the graph computed the rest (a NumPy error a check found
    # on a path these data do not take) under it.
    assumed = [(error, message) for error, message in failed
               if assumption_site(error) is not None]
    error, message = (assumed or failed)[0]
    e = check_error(error, message)
    if isinstance(e, AssumptionError):
        # Each assumption's check reads the data alone: one run finds all that fail.
        e.sites = frozenset(assumption_site(err) for err, _ in assumed)
    raise e


def _assumes(entry):
    """Whether ``entry``'s graph checks assumptions (``tracer.sites``) of the data."""
    if entry.assumptions_read is None:
        entry.assumptions_read = assumptions_read(entry.graph)
    return bool(entry.assumptions_read)


def _flips(entry, error):
    """The assumption sites a failed run of ``entry``'s graph (``error``) flips: the first
    that failed, and each other failed one whose check reads none of the failed ones
    (``assumptions_read``): one retrace for several independent places."""
    if entry.assumptions_read is None:
        entry.assumptions_read = assumptions_read(entry.graph)
    every = frozenset(error.sites)
    return frozenset({error.site}) | {s for s in every if s in entry.assumptions_read and
                                      not entry.assumptions_read[s] & every}


def _checked_in_graph(outs, flags, checks):
    """The outputs of a graph called inside another one (a ``tf.function``, a
    ``strategy.run`` step), which give no values to check until the outer graph runs: the
    checks become its assertions, which the outputs wait for. A failed one raises
    TensorFlow's InvalidArgumentError with the error's name and message."""
    asserts = [tf.debugging.Assert(flags[i], [f"{error_label(error)}: {message}"])
               for i, (error, message) in enumerate(checks)]
    with tf.control_dependencies(asserts):
        return [tf.identity(o) for o in outs]


def _open_broadcasts(graph):
    """The file:line of each op of ``graph`` that broadcasts a size known only at run time
    (after a boolean mask, np.unique, ...): TensorFlow checks those as they run."""
    from ..graph_ir.ir import Var
    found = []
    for e in all_eqns(graph):
        shapes = {a.type.shape for a in e.inputs if isinstance(a, Var) and a.type.ndim}
        if e.op.name == "broadcast_to":
            shapes.add(e.outputs[0].type.shape)
        if len(shapes) > 1 and any(None in s for s in shapes) and str(e.source_info) not in found:
            found.append(str(e.source_info))
    return found


_INCOMPATIBLE = re.compile(r"Incompatible shapes: \[([\d,]*)\] vs. \[([\d,]*)\]")
# What a select (np.where, a masked store) says of operands that do not broadcast.
_NOT_BROADCASTABLE = re.compile(r"condition \[([\d,]*)\], then \[([\d,]*)\], and else "
                                r"\[([\d,]*)\] must be broadcastable")


def _numpy_error(entry, error):
    """NumPy's exception for a TensorFlow error raised while ``entry``'s graph ran, or None."""
    if not isinstance(error, tf.errors.InvalidArgumentError):
        return None
    message = error.message or ""
    shapes = _INCOMPATIBLE.search(message) or _NOT_BROADCASTABLE.search(message)
    if shapes and entry.open_broadcasts:
        shapes = " ".join(f"({s}{',' if s.count(',') == 0 and s else ''})" for s in shapes.groups())
        return ValueError(f"operands could not be broadcast together with shapes {shapes} "
                          f"(sizes known only at run time)\n  at "
                          + "\n  or ".join(entry.open_broadcasts))
    return None


def _refuse_shared_memory(values, mutated):
    """The graph holds each argument as a value of its own: where the function writes into
    one that shares memory with another (``f(x, x)``, ``f(x[:4], x[2:])``), NumPy's run
    sees the write through the other, so such a call runs with NumPy."""
    for i in mutated:
        a = values[i] if i < len(values) else None     # (not a Generator made outside)
        if not isinstance(a, np.ndarray):
            continue
        for j, b in enumerate(values):
            if j != i and isinstance(b, np.ndarray) and np.may_share_memory(a, b):
                raise OutsideTheGraphError(
                    f"the function writes into an argument that shares memory with another "
                    f"(array arguments {min(i, j)} and {max(i, j)}, in the order the function "
                    f"takes them), which NumPy's run reads through the write")


def _check_writable(values, mutated):
    for i in mutated:
        if i < len(values) and isinstance(values[i], np.ndarray) and \
                not values[i].flags.writeable:
            raise ValueError("assignment destination is read-only: the function writes into "
                             "its argument, which is a read-only array")


def _fresh_outputs(graph):
    """Per graph output: computed from the inputs (not an input itself, not a constant)."""
    from ..graph_ir.ir import Var
    derived = set()
    inputs = set(graph.inputs)
    for eqn in graph.eqns:
        if any(a in inputs or a in derived for a in eqn.inputs if isinstance(a, Var)):
            derived.update(eqn.outputs)
    return [isinstance(a, Var) and a in derived for a in graph.outputs]


def _plain_numpy_arguments(args, kwargs):
    """Whether the original function sees what the graph sees. Lists and tensors are
    arrays to the graph but not to NumPy code (``[1.0] * 2`` repeats the list), so
    adaptive dispatch does not measure calls that pass them."""
    return not any(isinstance(a, (list, tf.Tensor)) for a in (*args, *kwargs.values()))


def _generic(key):
    """The key with array shapes reduced to their rank: signatures that may share a relaxed graph."""
    treedef, leaves = key
    return treedef, tuple(("a", len(k[1]), k[2]) if k[0] == "a" else k for k in leaves)


class Compiled:
    """A NumPy function compiled to TensorFlow graphs, one per input signature."""

    def __init__(self, fn, jit_compile=None, static_argnames=(), static_argnums=(),
                 fallback="numpy", max_cache_size=64, output="numpy", input_signature=None,
                 relax=None, retrace_warning=8, adaptive=None, unroll=8,
                 compile_budget=DEFAULT_BUDGET):
        # What rebuilds it in another process (``__reduce__``): the graphs do not travel.
        self._identity = uuid.uuid4().hex
        self._pickles_by_value = False      # cloudpickle took fn once: not checked again
        self._options = dict(jit_compile=jit_compile, static_argnames=static_argnames,
                             static_argnums=static_argnums, fallback=fallback,
                             max_cache_size=max_cache_size, output=output,
                             input_signature=input_signature, relax=relax,
                             retrace_warning=retrace_warning, adaptive=adaptive, unroll=unroll,
                             compile_budget=compile_budget)
        if fallback not in ("numpy", "raise"):
            raise ValueError(f"fallback must be 'numpy' or 'raise', got {fallback!r}")
        if output not in ("numpy", "tensor"):
            raise ValueError(f"output must be 'numpy' or 'tensor', got {output!r}")
        self.fn = fn
        # Callable objects have no __name__: their class names them in messages.
        self.name = getattr(fn, "__name__", type(fn).__name__)
        self.jit_compile = jit_compile
        self.fallback = fallback
        self.output = output
        self.max_cache_size = max_cache_size
        self.relax = (jit_compile is not True) if relax is None else bool(relax)
        self.retrace_warning = retrace_warning
        if adaptive is None:
            # Tensors out cannot come from NumPy's run.
            adaptive = output == "numpy" and default_adaptive()
        elif adaptive and output == "tensor":
            raise ValueError("adaptive=True needs output='numpy': a call that NumPy runs "
                             "returns NumPy arrays")
        self.adaptive = bool(adaptive)
        self.unroll = unroll
        if compile_budget is DEFAULT_BUDGET:
            compile_budget = default_budget()
        if compile_budget is not None and not compile_budget > 0:
            raise ValueError(f"compile_budget must be a positive number of seconds or None, "
                             f"got {compile_budget!r}")
        self.compile_budget = compile_budget
        self._signature = inspect.signature(fn)
        self._var_params = {k for k, p in self._signature.parameters.items()
                            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
        # The parameters' names where every one may be passed by position (None otherwise).
        self._positional = [k for k, p in self._signature.parameters.items()
                            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if len(self._positional) != len(self._signature.parameters):
            self._positional = None
        params = list(self._signature.parameters)
        names = {static_argnames} if isinstance(static_argnames, str) else set(static_argnames)
        nums = {static_argnums} if isinstance(static_argnums, int) else set(static_argnums)
        names |= {params[i] for i in nums}
        unknown = names - set(params)
        if unknown:
            raise ValueError(f"static_argnames {sorted(unknown)} are not parameters of "
                             f"{fn.__name__}{self._signature}")
        self.static_argnames = frozenset(names)
        self.input_signature = None if input_signature is None else \
            [Spec.of(s) for s in input_signature]
        self._cache = OrderedDict()     # exact key -> Entry
        self._text_values = 0           # graphs traced for values of arrays of text
        self._fast = {}                 # tuple of (shape, dtype) of all-ndarray calls -> Entry
        self._relaxed = {}              # generic key -> Entry with None dimensions
        self._first_shapes = {}         # generic key -> array shapes first seen
        self._static_only = set()       # generic keys whose code needs concrete sizes
        self._trace_counts = {}
        self._adaptive = {}             # shapes key -> AdaptiveState
        self._numpy_hot = None          # (shape, dtype, strides, ..., run): what adaptive sends to NumPy
        self._guards = None             # module globals the graphs hold as constants (globals_read)
        self._globals_changes = 0
        self._globals_changing = None   # why every call runs NumPy: globals change each call
        self._fp_token = fp_errors.state_token()    # NumPy's error state the graphs were made in
        self._fp_raising = fp_errors.raising()
        self._lock = threading.RLock()
        self._info = CacheInfo()
        functools.update_wrapper(self, fn, updated=())   # its own attributes stay

    # -------------------------------------------------------------- calling
    def __call__(self, *args, **kwargs):
        if self._guards is not None and not still_bound(self._guards):
            self._globals_changed()
        if self._globals_changing is not None:
            self._info.fallbacks += 1
            return self.fn(*args, **kwargs)
        if fp_errors.state_token() is not self._fp_token:
            self._error_state_changed()
        hot = self._numpy_hot
        if hot is not None and not kwargs and 3 * len(args) + 1 == len(hot):
            # Adaptive dispatch sends these arguments to NumPy, whose own call may take
            # a microsecond or two: compare without building a key (no tuples, no hashing).
            # Strides count for the graph run as a NumPy program, which is built for one
            # layout (None: not compared).
            for i, a in enumerate(args):
                if not (a.__class__ is np.ndarray and a.dtype is hot[3 * i + 1] and
                        a.shape == hot[3 * i] and (hot[3 * i + 2] is None or
                                                   a.strides == hot[3 * i + 2]) or
                        a.__class__ is hot[3 * i + 1] and
                        (hot[3 * i] is DYNAMIC_SLOT or a == hot[3 * i + 2])):
                    break
            else:
                return hot[-1](*args)
        if current_builder() is not None:
            # Called while another compiled function is traced: inline it.
            return converted(self.fn)(*args, **kwargs)
        fast_key = None
        if not kwargs:
            try:
                fast_key = tuple([(type(a), a.shape, a.dtype, a.strides) for a in args])
            except AttributeError:
                pass
            entry = self._fast.get(fast_key)
            if entry is not None:
                if self.adaptive:
                    state = self._adaptive.get(fast_key)
                    if state is not None and state.choice in (NUMPY, NUMPY_PROGRAM) and \
                            not state.rechecks and state.probe is None:
                        # measured: NumPy is faster for these shapes. The graph's inputs
                        # are these arguments (an entry in _fast takes arrays only).
                        return self._serve_numpy(state, entry, args, args, {})
                self._info.hits += 1
                return self._run(entry, args, args, {}, fast_key)
        bound, items = self._bind(args, kwargs)
        try:
            key, values, specs, treedefs = signature_of(items)
        except ArgumentError as e:
            if self.fallback == "raise":
                raise
            self._info.fallbacks += 1
            warn_user(f"nptf: {self.name} runs with NumPy for this call because {e}")
            return self.fn(*args, **kwargs)
        entry = self._lookup(key, values, bound, specs, treedefs)
        if entry.floats_decide is not None:
            got = self._floats_static(entry, key, args, kwargs)
            if got is None:
                return self.fn(*args, **kwargs)
            entry, values, key = got
        if fast_key is not None and len(values) == len(args) and \
                all(type(a) is np.ndarray for a in args):
            self._fast[fast_key] = entry
            key = fast_key      # adaptive dispatch's state, as the next calls look it up
        return self._run(entry, values, args, kwargs, key)

    def _floats_static(self, redirect, key, args, kwargs):
        """``(entry, graph inputs, key)`` of the call keyed with the values of its Python floats
        (``Entry.floats_decide``); None where NumPy runs the call. Where that trace fails
        too, the floats were not the cause: the signature runs with NumPy, as it would
        have without this second trace."""
        bound, items = self._bind(args, kwargs)
        items = [(k, Static(v) if _decides(v) else v) for k, v in items]
        static_key, values, specs, treedefs = signature_of(items)
        if static_key == key:
            # Nothing of this call is keyed anew (a parameter left at its default, a tuple
            # of floats, is static already): the trace failed for another reason.
            error = redirect.floats_decide
            if self.fallback == "raise":
                raise error
            entry = Entry(fallback_reason=str(error))
            entry.fallback_warning = f"nptf: {self.name} runs with NumPy for this " \
                                     f"signature because {error}"
            with self._lock:
                self._cache[key] = entry
            return entry, values, key
        if static_key not in self._cache:
            redirect.float_values += 1
            if redirect.float_values > _VALUE_KEYED_GRAPHS and self.fallback != "raise":
                if redirect.float_values == _VALUE_KEYED_GRAPHS + 1:
                    warn_user(f"nptf: {self.name} runs with NumPy for new values of its float "
                              f"or list arguments: {_VALUE_KEYED_GRAPHS} graphs were traced for "
                              f"as many values, which decide a size. Pass such a value as an "
                              f"int or a tuple of ints, or mark it static_argnames=[...]")
                self._info.fallbacks += 1
                return None
        token = _FLOATS_KEYED.set(True)
        try:
            entry = self._lookup(static_key, values, bound, specs, treedefs)
        except UnsupportedError:
            if self.fallback != "raise":    # (under "raise", every such call raises)
                with self._lock:
                    self._cache[key] = Entry(fallback_reason=str(redirect.floats_decide))
            raise
        finally:
            _FLOATS_KEYED.reset(token)
        if entry.fallback_reason is not None and redirect.float_values == 1:
            with self._lock:
                self._cache[key] = Entry(fallback_reason=str(redirect.floats_decide))
        return entry, values, static_key

    def _run(self, entry, values, args, kwargs, shapes_key=None):
        if entry.preferred is not None:
            entry = entry.preferred
        if entry.fallback_reason is not None:
            self._info.fallbacks += 1
            if entry.fallback_warning is None:
                return self.fn(*args, **kwargs)
            try:
                out = self.fn(*args, **kwargs)
            except Exception as e:  # noqa: BLE001
                if type(e) is type(entry.trace_error):
                    # NumPy's error, which tracing raised too, with the user's line added.
                    raise entry.trace_error.with_traceback(None) from None
                raise
            warning, entry.fallback_warning = entry.fallback_warning, None
            warn_user(warning)
            return out
        try:
            if entry.mutated:
                _refuse_shared_memory(values, entry.mutated)
            if self.adaptive and _plain_numpy_arguments(args, kwargs):
                state = self._adaptive.get(shapes_key)
                if state is None:
                    # Not the NumPy program where an error flag raises: it computes both sides of
                    # a branch, which NumPy's function never does.
                    state = AdaptiveState(numpy_program_of(entry) is not None and
                                          not self._fp_raising)
                    if entry.traced is not None and entry.traced.random_seed:
                        # NumPy's draws are other numbers: switching would change them
                        # from one call to the next.
                        state.choice = GRAPH
                    state = self._adaptive.setdefault(shapes_key, state)
                if state.choice != GRAPH or state.rechecks:
                    return self._run_adaptive(state, entry, values, args, kwargs)
            if entry.mutated:
                _check_writable(values, entry.mutated)
            return self._call_graph(entry, values)
        except (OutsideTheGraphError, BackendError, CompileBudgetError) as e:
            # Raised before any input is written back: NumPy starts from the same arguments.
            if isinstance(e, AssumptionError):
                try:
                    return self._run_assuming(entry, e, values, args, kwargs)
                except (OutsideTheGraphError, BackendError, CompileBudgetError) as other:
                    e = other
            if self.fallback == "raise":
                raise e
            self._info.fallbacks += 1
            if not isinstance(e, _StillCompiling):
                warn_user(f"nptf: {self.name} runs with NumPy for this call because {e}")
            return self.fn(*args, **kwargs)

    def _run_assuming(self, entry, error, values, args, kwargs):
        """The outputs of the graph whose assumptions hold for these data, where ``entry``'s
        graph failed the check of one (``error``, an ``AssumptionError``): each failed check
        flips its site's assumption, and the graph traced with those (the signature's
        ``variants``) runs, until one holds; where no graph has those assumptions yet, the
        graphs traced for other calls are tried first (the paths of `if`s the data of a
        call chose, ``sites.assume_path``, are not flips of one another's). Raises
        where the data need an assumption that was tried already in this call (a loop whose
        eigenvalues are real in one iteration and complex in another) or more graphs than
        ``_ASSUMED_GRAPHS``."""
        root = entry.root
        if root.exhausted:
            raise OutsideTheGraphError(f"{error} (the data of calls before needed more graphs "
                                       f"than the {_ASSUMED_GRAPHS} traced for this signature)")
        tried, traced_here = {entry.assumed}, False
        while True:
            flips = _flips(entry, error)
            flipped = entry.assumed ^ flips
            if any(is_value_site(s) for s in flips):
                if traced_here:
                    raise OutsideTheGraphError(f"{error}, in the graph traced for these "
                                               f"very data (its values differ from NumPy's)")
                # A value the trace took from the data, not the other of two: the graph
                # for these data is traced on them (after those of other calls are tried).
                flipped = (entry.assumed ^ {s for s in flips if not is_value_site(s)}) | \
                    {("traced for the data of call", len(root.variants or ()))}
            if flipped in tried:
                raise OutsideTheGraphError(f"{error}, and a graph with the other kind fails "
                                           f"too: these data need both kinds in one call (in "
                                           f"iterations of a loop)")
            if flipped not in (root.variants or {}):
                for label, other in list((root.variants or {}).items()):
                    if label not in tried and other.fallback_reason is None:
                        tried.add(label)
                        out = self._run_variant(other, values)
                        if out is not None:
                            return out
            tried.add(flipped)
            with call_values(values):
                entry = self._variant(root, flipped, error, args, kwargs)
            traced_here = True
            if entry.fallback_reason is not None:
                raise OutsideTheGraphError(f"{error}, and the trace with the other assumption "
                                           f"gives no graph: {entry.fallback_reason}")
            try:
                if entry.mutated:
                    _refuse_shared_memory(values, entry.mutated)
                    _check_writable(values, entry.mutated)
                out = self._call_graph(entry, values)
            except AssumptionError as e:
                error = e
                continue
            root.preferred = None if entry is root else entry
            return out

    def _run_variant(self, entry, values):
        """The outputs of ``entry``'s graph (one of a signature's ``variants``) for these
        data, or None where its assumptions fail them."""
        try:
            if entry.mutated:
                _refuse_shared_memory(values, entry.mutated)
                _check_writable(values, entry.mutated)
            out = self._call_graph(entry, values)
        except AssumptionError:
            return None
        entry.root.preferred = None if entry is entry.root else entry
        return out

    def _variant(self, root, flipped, error, args, kwargs):
        """The entry of ``root``'s signature traced with the assumptions at ``flipped``."""
        with self._lock:
            if root.variants is None:
                root.variants = {root.assumed: root}
            entry = root.variants.get(flipped)
            if entry is not None:
                return entry
            if len(root.variants) >= _ASSUMED_GRAPHS:
                root.exhausted = True
                raise OutsideTheGraphError(f"{error} ({_ASSUMED_GRAPHS} graphs were traced "
                                           f"for as many assumptions of this signature)")
            bound, items = self._bind(args, kwargs)
            if root.floats_keyed:
                items = [(k, Static(v) if _decides(v) else v) for k, v in items]
            _, _, specs, treedefs = signature_of(items)
            if root.shapes is not None:
                specs = _with_shapes(specs, root.shapes)
            token = _FLOATS_KEYED.set(root.floats_keyed)
            assuming = _ASSUMING_LOOPS.set(None if root.traced is None else
                                           root.traced.python_loops)
            try:
                with flipping(flipped):
                    entry = self._build(bound, specs, treedefs)
            finally:
                _FLOATS_KEYED.reset(token)
                _ASSUMING_LOOPS.reset(assuming)
            if entry.call is None and entry.fallback_reason is None:
                entry = Entry(fallback_reason=str(entry.floats_decide))
            entry.assumed, entry.root = flipped, root
            root.variants[flipped] = entry
            return entry

    def _call_graph(self, entry, values, started_on=False, caller=None):
        if entry.traced is not None and entry.traced.captured:
            values = _with_captured(entry.traced.captured, values)
        if entry.held_writes:
            with entry.hold_lock, holding(entry.held_writes) as held:
                try:
                    out = self._checked_call(entry, values, started_on, caller)
                except (OutsideTheGraphError, BackendError, CompileBudgetError):
                    raise           # another run answers the call, and makes its calls
                except Exception:
                    for call in held:   # NumPy's run makes them before it raises
                        call()
                    raise
            for call in held:
                call()
            return out
        return self._checked_call(entry, values, started_on, caller)

    def _checked_call(self, entry, values, started_on=False, caller=None):
        try:
            return self._run_graph(entry, values, started_on, caller)
        except Exception as e:
            if entry.traced is not None and entry.traced.catches and not isinstance(e, Error):
                # NumPy's run would take the function's own `except` handler here.
                raise OutsideTheGraphError(
                    f"the graph raised {type(e).__name__} ({str(e).splitlines()[0]}), and "
                    f"the function handles errors with try/except, which only NumPy's run "
                    f"can take") from e
            raise

    def _run_graph(self, entry, values, started_on=False, caller=None):
        if not entry.proven and (entry.first_call is not None or entry.compile_left is not None) \
                and tf.executing_eagerly():
            outs = self._bounded_first_call(entry, values)
            if outs is not None:
                return self._outputs(entry, outs, values)
            if entry.fallback_reason is not None:   # that first call found the graph broken
                raise BackendError(entry.fallback_reason)
        if self.output == "tensor":     # results may still be computing: nothing is reused
            tensors, staged = to_tensors(_with_seed(entry, values), entry.dtypes), ()
        else:
            tensors, staged = entry.stager.tensors(_with_seed(entry, values), entry.dtypes,
                                                   entry.input_align)
        return self._outputs(entry, self._graph_outputs(entry, tensors, started_on, caller),
                             values, staged)

    def _bounded_first_call(self, entry, values):
        """The raw outputs of the first call of ``entry``'s graph, within the compile budget.

        TensorFlow compiles a graph for XLA during its first call, and nothing stops a
        compile once started. So that call runs on a thread of its own, on copies of the
        inputs (the function may write its arguments while it runs in the background), and
        the caller waits only as long as the budget has left. Past that, this call and the
        next ones raise ``CompileBudgetError`` (the caller runs NumPy) until the background
        call ends; then the graph, compiled, runs the calls that follow (None: run it)."""
        with self._lock:
            job = entry.first_call
            if job is None:
                copies = [np.array(v) if isinstance(v, np.ndarray) else v
                          for v in _with_seed(entry, values)]
                tensors = to_tensors(copies, entry.dtypes)
                wait, entry.compile_left = entry.compile_left, None
                job = entry.first_call = _FirstCall(lambda: self._graph_outputs(entry, tensors),
                                                    wait)
                started = True
            else:           # another thread's first call: wait as long as it does
                wait, started = max(job.deadline - time.perf_counter(), 0.0), False
        if not job.finished.wait(wait):
            if started:
                job.late = CompileBudgetError(
                    f"TensorFlow's compile of the graph nptf built for {self.name} ran past the "
                    f"compile budget ({self.compile_budget:g} s, {wait:.3g} s of it left after "
                    f"tracing); NumPy runs the calls of this signature until it finishes in the "
                    f"background (TensorFlow cannot stop a compile). Fix: raise "
                    f"nptf.compile(..., compile_budget=SECONDS) (None: no limit) if the function "
                    f"runs long rather than compiles long; otherwise let it run with NumPy.\n  "
                    f"at {_defined_at(self.fn)}")
                raise job.late
            raise _StillCompiling(str(job.late or f"TensorFlow still compiles {self.name}"))
        if not started:     # another call's first call: this one runs the compiled graph
            return None
        entry.first_call = None
        if job.error is not None:
            raise job.error
        return job.outs

    def _graph_outputs(self, entry, tensors, started_on=False, caller=None):
        call = entry.call if caller is None else caller
        if started_on and isinstance(call, ExecutorTrial):
            call = call.started_on
        elif started_on and isinstance(call, per_size.SizeChooser):
            call = call.usual       # XLA's usual executable, without the per-size timing
        try:
            outs = call(*tensors)
        except tf.errors.OpError as e:
            if entry.graph is not None and _assumes(entry):
                # A graph that assumed the paths or values of other data may fail on
                # these (a slice of an array those data left longer): traced again for
                # these, as where its checks fail.
                raise AssumptionError(f"TensorFlow failed to run the graph traced for other "
                                      f"data ({_first_line(e)})", FAILED_RUN) from None
            error = _numpy_error(entry, e)
            if error is not None:
                raise error from None
            outs = self._recover(entry, tensors, e)
        else:
            wrong = unexpected_output(entry.concrete, outs, always=not entry.proven)
            if wrong is not None:
                outs = self._recover(entry, tensors, TensorFlowDefect(wrong))
        if not entry.proven:
            entry.proven = True
        return outs

    def _recover(self, entry, tensors, error):
        """The outputs of a graph that TensorFlow failed to compile or run, from the plain
        executor where XLA failed before any call succeeded; else a BackendError (the
        caller runs NumPy, or raises it under fallback="raise")."""
        first_call = not entry.proven
        if first_call and entry.executor != "plain" and entry.graph is not None:
            try:
                concrete, _ = _concretize(entry.graph, False)
                outs = fast_caller(concrete)(*tensors)
                wrong = unexpected_output(concrete, outs, always=True)
                if wrong is not None:
                    raise TensorFlowDefect(wrong)
            except Exception as e:  # noqa: BLE001  (the graph fails on both executors)
                error = e
            else:
                entry.concrete, entry.call, entry.xla, entry.executor = \
                    concrete, fast_caller(concrete), False, "plain"
                entry.input_align = TF_ALIGN
                entry.xla_reason = f"XLA failed to compile it ({_first_line(error)})"
                return outs
        what = f"ran the graph nptf built for {self.name} wrongly" \
            if isinstance(error, TensorFlowDefect) else \
            f"failed to {'compile' if first_call else 'run'} the graph nptf built for {self.name}"
        failure = BackendError(
            f"TensorFlow {what}: {type(error).__name__}: {_first_line(error)}. Fix: "
            f"restructure that code, or let it fall back (fallback='numpy').\n  at "
            f"{_defined_at(self.fn)}")
        if first_call and self.fallback != "raise":
            # The same graph fails the same way: NumPy for this signature (under
            # fallback="raise" each call runs the graph, and says so where it fails).
            entry.fallback_reason = str(failure)
        raise failure from None

    def _run_adaptive(self, state, entry, values, args, kwargs):
        """Time the ways on the first calls with these shapes; keep the fastest
        (``AdaptiveState``).

        Decided per exact shapes, not per graph: a shape-relaxed graph serves sizes
        where NumPy wins and sizes where the graph wins."""
        trial = entry.call if isinstance(entry.call, ExecutorTrial) else None
        if state.choice is not None:
            if state.probe is not None:
                if trial is not None:
                    return self._run_probed(state, trial, entry, values, args, kwargs)
                state.probe = None
            if not state.rechecks:
                if state.choice == GRAPH:
                    return self._run_path(GRAPH, entry, values, args, kwargs)
                return self._serve_numpy(state, entry, values, args, kwargs)
            return self._run_rechecked(state, entry, values, args, kwargs, trial)
        try:
            path = state.schedule.pop(0)
        except IndexError:
            # Another thread took the last turn (it decides), or the last turn raised (the
            # function's or the graph's own error for those values): time what is missing.
            missing = state.untimed()
            if not missing:
                return self._call_graph(entry, values)
            state.schedule = missing
            path = state.schedule.pop(0)
        untried = trial is not None or isinstance(entry.call, per_size.SizeChooser)
        if path == FIRST:
            result = self._run_path(GRAPH, entry, values, args, kwargs, untried=untried)
        else:
            if path == GRAPH and not entry.once and \
                    min(state.timings[NUMPY], default=0.0) < 1e-3:
                # A run more, timed too: the first warms the caches the function's calls
                # just used, and one run alone may be a slow one. (Calls of milliseconds
                # take one: two would make the call twice as long as needed.)
                start = time.perf_counter()
                self._run_path(GRAPH, entry, values, args, kwargs, untried=untried)
                state.timings[path].append(time.perf_counter() - start)
            if path == NUMPY:
                result = self._timed_function(state, entry, values, args, kwargs)
            else:
                start = time.perf_counter()
                result = self._run_path(path, entry, values, args, kwargs, untried=untried)
                state.timings[path].append(time.perf_counter() - start)
        if not state.schedule and state.untimed():
            # A way raised at its turns (the function's own error for these values): time
            # it again at the next calls.
            state.schedule = state.untimed()
        elif not state.schedule:
            if trial is None:
                state.decide()
            else:
                state.decide(trial.first_label(), trial.probe_way())
            if state.choice in (NUMPY, NUMPY_PROGRAM) and trial is not None and \
                    state.probe is None:
                trial.abandon()         # the graph does not run these shapes
        return result

    def _run_probed(self, state, trial, entry, values, args, kwargs):
        """NumPy's way while another executor compiles in the background; once it is
        compiled, one call runs NumPy's way timed, the next the graph on it (twice, the
        best counts), and the faster of the two ways is kept. NumPy's calls beside the
        compile are not timed."""
        caller = trial.compiled_way(state.probe, values)
        if caller is False:         # it failed to compile: NumPy it is
            trial.abandon()
            state.probe = None
            return self._run_path(state.choice, entry, values, args, kwargs)
        if caller is None:
            # Not timed: the compile beside it slows a call using both cores about twice
            # over, which would hand the probe a slow NumPy to beat.
            return self._run_path(state.choice, entry, values, args, kwargs)
        if not state.recent:
            # NumPy's way once more, timed now that nothing compiles beside it, before the
            # graph's turn: its first timings may be cold ones (page faults on fresh memory).
            start = time.perf_counter()
            result = self._run_path(state.choice, entry, values, args, kwargs)
            state.recent.append(time.perf_counter() - start)
            return result
        took = []
        for _ in range(1 if entry.once else 2):
            # Twice where a run acts on nothing (see ``Entry.once``): a graph's first runs after its
            # compile are its slowest (fresh memory for its outputs faults page by page).
            start = time.perf_counter()
            result = self._run_path(GRAPH, entry, values, args, kwargs, caller=caller)
            took.append(time.perf_counter() - start)
        took = min(took)
        numpy_best = min(min(state.recent), state.numpy_side()[1])
        if took < numpy_best:
            trial.adopt(state.probe, f"adaptive dispatch timed it against NumPy's "
                                     f"{numpy_best * 1e3:.3g} ms: {took * 1e3:.3g} ms")
            state.choice, state.recent = GRAPH, []
        else:
            trial.abandon()
        state.probe = None
        return result

    def _run_rechecked(self, state, entry, values, args, kwargs, trial):
        """A call by the way chosen, timed; at ``state.rechecks`` counts of them, by the other
        way, which is kept where it is clearly faster (``AdaptiveState.RECHECK_AT``).
        (Calls that are the executor trial's turns are not the graph's usual time.)"""
        state.served += 1
        # Not while another executor compiles in the background: on two cores that
        # compile slows the other way's run several times over (NumPy's standardize of
        # 1e6 floats: 40 ms instead of 4), which would time it wrongly and stall the call.
        if state.served >= state.rechecks[0] and not (trial is not None and trial.compiling()):
            state.rechecks.pop(0)
            other = state.other_way()
            start = time.perf_counter()
            result = self._run_path(other, entry, values, args, kwargs)
            took = time.perf_counter() - start
            if took < state.RECHECK_SWITCH * state.reference():
                state.choice, state.recent = other, []
                if trial is not None and other != GRAPH:
                    trial.abandon()     # the graph no longer runs these shapes
            return result
        start = time.perf_counter()
        result = self._run_path(state.choice, entry, values, args, kwargs)
        if trial is None or state.choice != GRAPH:
            state.recent.append(time.perf_counter() - start)
            del state.recent[:-8]
        return result

    def _timed_function(self, state, entry, values, args, kwargs):
        """A call of the function, timed; at the turns that pair it with the NumPy program
        (``AdaptiveState.pairs_program``), a run of the program too, before or after it,
        timed through what later calls would run (its outputs are dropped: it is pure)."""
        first = state.pairs_program()
        runner = None if first is None else self._program_runner(entry, values, args, kwargs)
        if first:
            self._time_program(state, entry, values, runner)
        start = time.perf_counter()
        result = self._run_path(NUMPY, entry, values, args, kwargs)
        state.timed_function(time.perf_counter() - start, program=plain_values(values))
        if first is False:
            self._time_program(state, entry, values, runner)
        return result

    def _time_program(self, state, entry, values, runner):
        start = time.perf_counter()
        self._run_path(NUMPY_PROGRAM, entry, values, (), {}, runner=runner)
        state.timings[NUMPY_PROGRAM].append(time.perf_counter() - start)

    def _program_runner(self, entry, values, args, kwargs):
        """``(callable, its arguments)``: how a call with these arguments runs the NumPy
        program once it is chosen (from the entry point where the arguments allow it)."""
        layout = self._hot_layout(args, kwargs, strides=True)
        if layout is None:
            return numpy_program_of(entry), values
        return self._served_program(entry, layout), args

    def _served_program(self, entry, layout):
        """The NumPy program as the entry point calls it: with the call's positional
        arguments (static ones dropped), after checking the globals its trace read."""
        statics = tuple(i for i in range(0, len(layout), 3) if layout[i] is STATIC_SLOT)
        key = (statics, len(layout))
        served = entry.served.get(key)
        if served is None:
            served = entry.served[key] = served_program(
                numpy_program_of(entry), len(layout) // 3, [i // 3 for i in statics],
                entry.traced.guards or (), self)
        return served

    def _hot_layout(self, args, kwargs, strides):
        """What the entry point compares a call's arguments with to send it to NumPy at
        once (``_numpy_hot`` without its last item), or None where it cannot: per
        positional argument, an array's (shape, dtype, strides or None), a float's or
        complex's (``DYNAMIC_SLOT``, type, None), a static scalar's (``STATIC_SLOT``,
        type, value)."""
        if kwargs:
            return None
        layout = []
        for i, a in enumerate(args):
            cls = a.__class__
            if cls is np.ndarray:
                layout += (a.shape, a.dtype, a.strides if strides else None)
                continue
            # A scalar is known by its parameter only where every parameter is a plain
            # one and the call passes them all (no defaults, no *args).
            if cls not in _HOT_SCALARS or self._positional is None or \
                    len(args) != len(self._positional):
                return None
            if cls in _STATIC_SCALARS or self._positional[i] in self.static_argnames:
                layout += (STATIC_SLOT, cls, a)
            else:
                layout += (DYNAMIC_SLOT, cls, None)
        return tuple(layout)

    def _serve_numpy(self, state, entry, values, args, kwargs):
        """A call by the NumPy way chosen (``state.choice``), which later calls with such
        arguments take from the entry point at once where they can."""
        program = state.choice == NUMPY_PROGRAM
        layout = self._hot_layout(args, kwargs, strides=program)
        if program:
            if layout is None or not plain_values(values):
                return self._run_path(NUMPY_PROGRAM, entry, values, args, kwargs)
            run = self._served_program(entry, layout)
        else:
            run = self.fn
        if layout is not None:
            # One tuple, set at once: a thread that read it runs the function that goes
            # with its arguments.
            self._numpy_hot = (*layout, run)
        return run(*args, **kwargs)

    def _run_path(self, path, entry, values, args, kwargs, untried=False, caller=None,
                  runner=None):
        """One call by ``path``. ``untried``: the graph on the executor it started on,
        past its executor trial (which the calls join once the graph is kept); ``caller``:
        the graph on that one; ``runner``: the NumPy program as ``(callable, arguments)``
        (``_program_runner``)."""
        if path == GRAPH:
            return self._call_graph(entry, values, started_on=untried, caller=caller)
        if runner is not None:
            return runner[0](*runner[1])
        if path == NUMPY_PROGRAM and plain_values(values):
            return numpy_program_of(entry)(*values)
        return self.fn(*args, **kwargs)

    def _bind(self, args, kwargs):
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{self.name}(): {e}") from None
        passed = set(bound.arguments)
        bound.apply_defaults()
        # Defaults the caller did not override are part of the function, hence static
        # (an empty *args or **kwargs is an empty tree, not a default). A default that
        # cannot be part of a key (a list, a dict) is an argument as if passed: the
        # function may change it, and the next call sees the change, as in Python.
        passed.update(self._var_params)
        items = [(k, Static(v) if k in self.static_argnames or
                  (k not in passed and not isinstance(v, (np.ndarray, float, complex)) and
                   _hashable(v)) else v)
                 for k, v in bound.arguments.items()]
        return bound, items

    def _rebuild(self, bound, treedefs):
        names = list(bound.arguments)
        defaults = {k: p.default for k, p in self._signature.parameters.items()
                    if p.default is not inspect.Parameter.empty}
        kinds = {k: p.kind for k, p in self._signature.parameters.items()}

        def rebuild(leaves):
            it = iter(leaves)
            values = {}
            for name, td in zip(names, treedefs):
                values[name] = unflatten(td, [next(it) for _ in range(_count_leaves(td))])
            # Defaults go back as the function's own: some callables (ufuncs) refuse
            # certain defaults when they are passed explicitly. A positional one only
            # from the end, or the arguments after it would lose their places.
            for k in reversed(list(values)):
                if values[k] is defaults.get(k, _NO_DEFAULT):
                    del values[k]
                elif kinds[k] not in (inspect.Parameter.KEYWORD_ONLY,
                                      inspect.Parameter.VAR_KEYWORD):
                    break
            ba = inspect.BoundArguments(self._signature, OrderedDict(values))
            return ba.args, ba.kwargs
        return rebuild

    def _outputs(self, entry, outs, inputs=(), staged=(), evaluated=False):
        outs = list(outs or ())
        if entry.checks and not evaluated:
            flags = outs.pop()
            try:
                flags = flags._numpy()
            except AttributeError:      # symbolic: called inside a tf.function
                outs = _checked_in_graph(outs, flags, entry.checks)
            else:
                _raise_failed_checks(flags, entry.checks)
        written = ()
        if entry.mutated:
            outs, written = outs[:len(outs) - len(entry.mutated)], outs[len(outs) - len(entry.mutated):]
        # The results are taken before the arguments are written back: a result may be
        # the argument's own buffer as it came in (np.copy(a) is TensorFlow's identity of
        # the input, which shares the caller's memory), and must keep the values it had.
        if evaluated:
            outs = [np.asarray(o) for o in outs]
            if written:
                outs = [np.array(o) if any(isinstance(x, np.ndarray) and np.may_share_memory(o, x)
                                           for x in inputs) else o for o in outs]
        elif self.output == "numpy":
            outs = to_numpy(outs, entry.fresh, [*inputs, *staged])
        elif written:
            outs = [_detached(o, inputs) for o in outs]
        for i, value in zip(entry.mutated, written):
            value = np.asarray(value) if evaluated else value.numpy()
            if isinstance(inputs[i], GeneratorState):
                inputs[i].write_back(value)
            elif isinstance(inputs[i], np.ndarray):
                np.copyto(inputs[i], value)
        leaves = []
        for value, kind in output_kinds(entry.traced.out_info, outs):
            if kind == "static" or (self.output == "tensor" and not evaluated):
                leaves.append(value)
            else:
                leaves.append(handed_back(value, kind))
        return unflatten(entry.traced.out_tree, leaves)

    # ----------------------------------------------------------------- cache
    def _lookup(self, key, values, bound, specs, treedefs):
        entry = self._cache.get(key)
        if entry is not None:
            self._info.hits += 1
            return entry
        with self._lock:
            entry = self._cache.get(key)
            if entry is None:
                with call_values(values):
                    entry = self._resolve(key, bound, specs, treedefs)
                self._cache[key] = entry
                while len(self._cache) > self.max_cache_size:
                    self._cache.popitem(last=False)
                    self._fast.clear()
            else:
                self._info.hits += 1
            return entry

    def _resolve(self, key, bound, specs, treedefs):
        """A cache miss: reuse or make a shape-relaxed graph, or trace this exact signature."""
        if any(isinstance(k, tuple) and k[:1] == ("text",) for k in key[1]):
            # Arrays of text are keyed by their contents: a graph per value, up to a point.
            self._text_values += 1
            if self._text_values > _VALUE_KEYED_GRAPHS and self.fallback != "raise":
                if self._text_values == _VALUE_KEYED_GRAPHS + 1:
                    warn_user(f"nptf: {self.name} runs with NumPy for new values of its "
                              f"arrays of text: {_VALUE_KEYED_GRAPHS} graphs were traced for as "
                              f"many, and each value of such an array has a graph of its own")
                return Entry(fallback_reason="it was traced for as many values of its arrays "
                                             "of text as nptf traces")
        generic = _generic(key)
        shapes = [s[0].shape for s in specs if _is_array_spec(s)]
        if self.input_signature is not None:
            self._signature_shapes(shapes, specs)
        entry = self._relaxed.get(generic)
        if entry is not None and _fits(entry.shapes, shapes):
            self._info.hits += 1
            return entry
        self._info.misses += 1
        if self.input_signature is not None:
            relaxed = [s.shape for s in self.input_signature]
        else:
            relaxed = self._relaxed_shapes(generic, shapes)
        if relaxed is not None:
            try:
                entry = self._build(bound, _with_shapes(specs, relaxed), treedefs, relaxed=True)
            except Exception:  # noqa: BLE001  (relaxing is an optimisation: any failure -> exact shapes)
                if self.input_signature is not None:
                    raise
                self._static_only.add(generic)
            else:
                self._info.relaxations += 1
                self._relaxed[generic] = entry
                return entry
        return self._build(bound, specs, treedefs)

    def _signature_shapes(self, shapes, specs):
        arrays = [s for s in specs if _is_array_spec(s)]
        if len(arrays) != len(self.input_signature):
            raise TypeError(f"{self.name} was compiled for {len(self.input_signature)} "
                            f"array arguments (input_signature), got {len(arrays)}")
        for i, (spec, (t, _)) in enumerate(zip(self.input_signature, arrays)):
            if not spec.matches(t.shape, t.dtype):
                raise TypeError(f"argument {spec.name or i} of {self.name}: got "
                                f"{t.dtype.name}{list(t.shape)}, the input_signature says {spec}")
        return [s.shape for s in self.input_signature]

    def _relaxed_shapes(self, generic, shapes):
        first = self._first_shapes.setdefault(generic, shapes)
        self._trace_counts[generic] = self._trace_counts.get(generic, 0) + 1
        if self._trace_counts[generic] == self.retrace_warning + 1:
            self._warn_retracing(first, shapes)
        if not self.relax or generic in self._static_only or first is shapes:
            return None
        old = self._relaxed.get(generic)
        base = old.shapes if old is not None else first
        relaxed = [tuple(None if a is None or a != b else a for a, b in zip(s0, s1))
                   for s0, s1 in zip(base, shapes)]
        return relaxed if relaxed != shapes else None

    def _warn_retracing(self, first, shapes):
        varying = [f"argument #{i} dimension {d}" for i, (a, b) in enumerate(zip(first, shapes))
                   for d, (x, y) in enumerate(zip(a, b)) if x != y]
        warn_user(f"nptf: {self.name} has been traced {self.retrace_warning + 1} times "
                      f"for inputs that differ in {', '.join(varying) or 'their static arguments'}. "
                      f"Declare varying sizes with input_signature=[nptf.Spec((None, ...), dtype)] "
                      f"or relax=True, and pass varying Python numbers as arrays.")

    def _build(self, bound, specs, treedefs, relaxed=False):
        # What nptf says while tracing (a loop that runs unrolled) is said once the trace
        # gives a graph: where the call runs with NumPy instead, its one warning says why.
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            try:
                entry = self._build_traced(bound, specs, treedefs, relaxed)
            except BaseException:
                _say_again(said, nptf_too=False)
                raise
        _say_again(said, nptf_too=entry.fallback_reason is None and entry.floats_decide is None)
        if entry.fallback_reason is not None and entry.fallback_warning is None:
            warn_user(f"nptf: {self.name} runs with NumPy for this signature because "
                      f"{entry.fallback_reason}")
        return entry

    def _build_traced(self, bound, specs, treedefs, relaxed=False):
        try:
            self._info.traces += 1
            with budget(self.compile_budget, self.name) as spent:
                traced = self._trace_assuming_paths(bound, specs, treedefs)
                self._guard(traced.guards)
                graph = optimize(traced.graph)
                xla, reason, measure = self._choose_xla(graph)
                concrete, checks, reason = self._concretize(graph, xla, reason)
            if measure and spent.deadline is not None and \
                    spent.deadline - time.perf_counter() < 0.75 * spent.seconds:
                # A graph this slow to build is not built a second time to time the other
                # executor: XLA's compile of it would cost more than the trial could win.
                measure = False
            if reason == _XLA_BUILD_FAILED:
                xla = measure = False
        except UnsupportedError as e:
            if relaxed and self.input_signature is None:
                raise
            if self.input_signature is None and not isinstance(e, ArgumentError) and \
                    not _FLOATS_KEYED.get() and any(_decides(v)
                                                    for v in bound.arguments.values()):
                entry = Entry()
                entry.floats_decide = e
                return entry
            return self._fallback_entry(e)
        except Error:
            raise
        except Exception as e:  # noqa: BLE001  (what tracing the user's code may raise)
            # NumPy decides: the call runs the function itself, which raises the same error
            # where it is the user's (a shape NumPy rejects), and returns NumPy's answer
            # where tracing failed in nptf.
            if self.fallback == "raise" or (relaxed and self.input_signature is None):
                raise
            reason = f"tracing it raised {type(e).__name__}: {_first_line(e)}"
            entry = Entry(fallback_reason=reason)
            entry.fallback_warning = f"nptf: {self.name} runs with NumPy for this signature " \
                                     f"because {reason}"
            entry.trace_error = e
            return entry
        shapes = [s[0].shape for s in specs if _is_array_spec(s)]
        entry = Entry(traced, graph, concrete, xla=xla, xla_reason=reason, shapes=shapes,
                      checks=checks)
        entry.floats_keyed = _FLOATS_KEYED.get()
        if spent.deadline is not None and xla:
            # XLA's compile may take minutes (fusion of a large graph); the plain executor's
            # first call only instantiates the graph, and the run that follows is the
            # function's own (a triangular solve's plain-executor loop may run for seconds).
            entry.compile_left = max(spent.deadline - time.perf_counter(), 0.0)
        eqns = list(all_eqns(graph))
        open_sizes = any(d is None for s in shapes for d in s)
        if self.jit_compile is None and entry.call is not None and per_size.applies(
                open_sizes, xla, any(e.op.kind == "random" for e in eqns)):
            entry.call = per_size.SizeChooser(entry.call, lambda: _concretize(graph, True)[0])
            entry.xla_reason += ("; per size, XLA's usual executable or one compiled for one "
                                 "CPU, whichever runs faster at that size's first calls")
        if measure and entry.call is not None:
            loops = any(e.op.name == "while" for e in eqns)
            entry.input_align = TF_ALIGN    # the plain executor is timed too
            entry.call = ExecutorTrial(entry, lambda x: _concretize(graph, x)[0], loops,
                                       splits=may_split(eqns))
        return entry

    def _concretize(self, graph, xla, reason):
        """(concrete function, checks, XLA reason): the plain executor where XLA fails to
        build; a BackendError where TensorFlow cannot build the graph at all."""
        try:
            return (*_concretize(graph, xla), reason)
        except UnsupportedError:
            raise
        except Exception as e:  # noqa: BLE001  (TensorFlow's errors take many types)
            if xla:
                try:
                    return (*_concretize(graph, False), _XLA_BUILD_FAILED)
                except Exception:  # noqa: BLE001
                    pass
            raise BackendError(
                f"TensorFlow failed to build the graph nptf made of {self.name}: "
                f"{type(e).__name__}: {_first_line(e)}. Fix: restructure that code, or let it "
                f"fall back (fallback='numpy').\n  at {_defined_at(self.fn)}") from e

    def _fallback_entry(self, e):
        if self.fallback == "raise":
            raise e
        return Entry(fallback_reason=str(e))     # ``_build`` says why

    def _choose_xla(self, graph):
        """(XLA to start with, why, whether to time the executors on the first calls)."""
        if self.jit_compile is False:
            return False, "jit_compile=False", False
        obstacles = xla_obstacles(graph)
        if obstacles:
            if self.jit_compile:
                warn_user(f"nptf: {self.name} runs without XLA: {'; '.join(obstacles)}")
            return False, "; ".join(obstacles), False
        if self.jit_compile:
            return True, "jit_compile=True", False
        return choose_xla_automatically(graph)

    # ------------------------------------------------- for function transforms
    def signature_for(self, args, kwargs):
        """``(key, graph input values, leaf specs, treedefs, bound arguments)`` of a call."""
        bound, items = self._bind(args, kwargs)
        key, values, specs, treedefs = signature_of(items)
        return key, values, specs, treedefs, bound

    def signature_specs(self, key, specs):
        """``(key, specs)`` of a call as its input_signature admits it: the key shared by
        every call it admits and the specs with its shapes (``None`` dimensions); without
        one, as they are. A call the signature does not admit raises TypeError."""
        if self.input_signature is None:
            return key, specs
        shapes = [s[0].shape for s in specs if _is_array_spec(s)]
        return _generic(key), _with_shapes(specs, self._signature_shapes(shapes, specs))

    def _trace_assuming_paths(self, bound, specs, treedefs):
        """The trace of a call. Where it fails at an `if` whose paths cannot be one graph's,
        or where Python needs the value of a traced value (a dict key, a comparison in
        ``heapq``, a loop only Python can run), it runs again assuming the path of such
        `if`s and, where the sizes are the call's own, the values the call's data give (a
        call whose data fail those assumptions runs a graph traced for them,
        ``_run_assuming``): last, after the traces that hold for all data (one keyed by
        the values of the Python floats that decide, ``Entry.floats_decide``, comes
        first)."""
        # Values only where every size is the call's own: a graph for sizes a signature
        # leaves open (or relaxed to) that holds for one size only would serve no other.
        values = self.input_signature is None and not any(
            None in s[0].shape for s in specs if _is_array_spec(s))
        loops = _ASSUMING_LOOPS.get()
        if loops is None:
            try:
                return trace_function(self.fn, specs, self._rebuild(bound, treedefs),
                                      self.unroll, assume_values=values)
            except UnsupportedError as e:
                if not getattr(e, "paths_declined", False) or (
                        self.input_signature is None and not _FLOATS_KEYED.get() and
                        any(_decides(v) for v in bound.arguments.values())):
                    raise
                loops = e.loops_declined
        # (Else another graph of a signature whose first trace assumed: as that one did.)
        # Each trace may find more loops no graph loop can run, which the next runs in
        # Python (``sites.python_loop``): a loop the trace before did not reach.
        for attempt in range(_PYTHON_LOOP_TRACES + 1):
            try:
                traced = trace_function(self.fn, specs, self._rebuild(bound, treedefs),
                                        self.unroll, assume_paths=True, python_loops=loops,
                                        assume_values=values)
            except UnsupportedError as e:
                more = getattr(e, "loops_declined", frozenset())
                if more <= loops or attempt == _PYTHON_LOOP_TRACES:
                    raise
                loops |= more
            else:
                traced.python_loops = loops
                return traced

    def trace_for(self, bound, specs, treedefs):
        """The traced function for a call's ``signature_for``."""
        traced = trace_function(self.fn, specs, self._rebuild(bound, treedefs), self.unroll)
        if traced.captured:
            raise UnsupportedError(
                f"{self.name} draws from a NumPy Generator made outside it (a module's global "
                f"or a static argument), which nptf carries only through its own calls, not "
                f"through a transformation (nptf.grad, nptf.vmap). Fix: pass the Generator's "
                f"draws in as an argument.")
        return traced

    def results(self, entry, outs, inputs):
        """A graph run's outputs (``outs``: its tensors, the checks' flags last) as the
        function's results; the arguments it writes into are written."""
        return self._outputs(entry, outs, inputs)

    # ------------------------------------------------------------ inspection
    def _traced(self, args, kwargs):
        bound, items = self._bind(args, kwargs)
        _, values, specs, treedefs = signature_of(items)
        return trace_function(self.fn, specs, self._rebuild(bound, treedefs), self.unroll), values

    def trace(self, *args, stage="optimized", **kwargs):
        """The IR for these arguments: ``stage="traced"`` before the passes."""
        traced, _ = self._traced(args, kwargs)
        return traced.graph if stage == "traced" else optimize(traced.graph)

    def interpret(self, *args, optimized=True, verify_passes=False, program=False, **kwargs):
        """Run the traced IR with the NumPy reference interpreter (no TensorFlow);
        ``program=True``: run the optimized graph as the NumPy program adaptive dispatch
        may run instead of the function (``UnsupportedError`` where there is none). Where
        the data fail an assumption of the trace, the trace with it flipped runs, as
        calls do."""
        tried, flipped = set(), frozenset()
        while True:
            try:
                with flipping(flipped):
                    return self._interpret(args, kwargs, optimized, verify_passes, program)
            except AssumptionError as e:
                tried.add(flipped)
                flipped = flipped ^ {e.site}
                if flipped in tried:
                    raise

    def _interpret(self, args, kwargs, optimized, verify_passes, program):
        from ..graph_ir import evaluate, verify
        traced, values = self._traced(args, kwargs)
        graph = traced.graph
        if verify_passes:
            verify(graph)
        if optimized:
            for p in PIPELINE:
                graph = p(graph)
                if verify_passes:
                    verify(graph)
            if verify_passes:
                verify(graph, strict=True)
        if program:
            run = numpy_program_of(Entry(traced, graph))
            if run is None:
                raise UnsupportedError(
                    f"{self.name}: no NumPy program for this graph ("
                    f"{no_program_reason(traced, graph)}); interpret(*args) without "
                    "program=True runs the graph with the reference interpreter")
            return run(*values)
        if traced.random_seed:
            values = list(values) + [np.random.randint(0, 2 ** 62, size=2, dtype=np.int64)]
        outs = evaluate(graph, *[np.asarray(v) for v in values])
        return self._outputs(Entry(traced, graph), outs, values, evaluated=True)

    def entry_for(self, *args, **kwargs) -> Entry:
        """The cache entry a call with these arguments uses (built if needed)."""
        bound, items = self._bind(args, kwargs)
        key, values, specs, treedefs = signature_of(items)
        entry = self._lookup(key, values, bound, specs, treedefs)
        if entry.floats_decide is not None:
            got = self._floats_static(entry, key, args, kwargs)
            return Entry(fallback_reason=str(entry.floats_decide)) if got is None else got[0]
        return entry

    def way_for(self, *args, **kwargs):
        """How the calls with these arguments run once adaptive dispatch and the executor
        trial have chosen ("the NumPy function", "the graph as NumPy calls", "the graph
        (xla executor)", "NumPy (fallback)", ...), or None while they still measure."""
        entry = self.entry_for(*args, **kwargs)
        if entry.fallback_reason:
            return "NumPy (fallback)"
        if self.adaptive and _plain_numpy_arguments(args, kwargs):
            state = self._adaptive.get(self._dispatch_key(args, kwargs))
            if state is None or state.choice is None or state.probe is not None:
                return None
            if state.choice != GRAPH:
                return {NUMPY: "the NumPy function", NUMPY_PROGRAM: "the graph as NumPy calls"
                        }[state.choice]
        if isinstance(entry.call, ExecutorTrial):
            return None
        return f"the graph ({entry.executor} executor)"

    def adaptive_choice(self, *args, **kwargs):
        """With adaptive dispatch, for arguments like these: "graph", "numpy" (the function
        itself) or "numpy program" (the graph's equations run by NumPy); None: not decided yet."""
        state = self._adaptive.get(self._dispatch_key(args, kwargs))
        return None if state is None else state.choice

    def _dispatch_key(self, args, kwargs):
        """The key adaptive dispatch keeps its state under for such a call (as ``__call__``
        computes it: shapes and strides for arrays alone, the signature otherwise)."""
        if not kwargs and all(type(a) is np.ndarray for a in args):
            return tuple([(type(a), a.shape, a.dtype, a.strides) for a in args])
        _, items = self._bind(args, kwargs)
        return signature_of(items)[0]

    def cache_info(self) -> CacheInfo:
        with self._lock:
            info = CacheInfo(**vars(self._info))
            info.size = len(self._cache)
            return info

    def clear_cache(self):
        with self._lock:
            self._forget_graphs()
            self._trace_counts.clear()
            self._info = CacheInfo()

    # Traces again before the function settles on NumPy while the globals its graphs
    # hold keep changing between calls (a compile each call costs more than it saves).
    GLOBALS_CHANGES_TRACED = 3

    def _globals_changed(self):
        """A module global the graphs hold as a constant was rebound or written in place:
        they are traced again, but for a function whose globals change call after call,
        which runs with NumPy from then on (by default; traced again each time under
        ``fallback="raise"``)."""
        self._forget_graphs()
        self._globals_changes += 1
        if self._globals_changes == self.GLOBALS_CHANGES_TRACED:
            if self.fallback == "raise":
                warn_user(f"nptf: {self.name} is traced again at each call because module "
                          f"globals its graphs hold (arrays written in place, names rebound) "
                          f"change between calls; pass them as arguments to compile it once")
            else:
                self._globals_changing = (
                    f"module globals its graphs hold (arrays written in place, names "
                    f"rebound) changed between {self.GLOBALS_CHANGES_TRACED} calls")
                warn_user(f"nptf: {self.name} runs with NumPy from now on because "
                          f"{self._globals_changing}; pass them as arguments to compile it")

    def _error_state_changed(self):
        """NumPy's floating-point error state changed since the graphs were made: where
        the categories that raise differ, the graphs (checked for other flags, or not at
        all) are dropped and traced again under the new state (``tracer.fp_errors``)."""
        with self._lock:
            self._fp_token = fp_errors.state_token()
            raising = fp_errors.raising()
            if raising != self._fp_raising:
                self._fp_raising = raising
                self._forget_graphs()

    def _forget_graphs(self):
        """Drop every graph and what was decided from them (a global they read was rebound)."""
        with self._lock:
            self._cache.clear()
            self._fast.clear()
            self._relaxed.clear()
            self._first_shapes.clear()
            self._static_only.clear()
            self._adaptive.clear()
            self._numpy_hot = None
            self._guards = None

    def _guard(self, guards):
        if guards:
            known = {(id(g[0]), g[1]) for g in self._guards or ()}
            self._guards = (self._guards or []) + [g for g in guards if (id(g[0]), g[1]) not in known]

    def __repr__(self):
        return f"<nptf.compile of {self.fn.__qualname__}>"

    def __reduce__(self):
        """Pickled as the function and the options: another process (a Dask worker) traces
        and compiles its own graphs on first use; caches and locks stay here. Every copy
        unpickled in one process is the same instance there, so a worker traces each
        signature once however many tasks bring the function.

        Under cloudpickle, ``fn`` goes by value, with what it refers to; what cannot
        be pickled (a lock, an open file) is named here, with the fix, before the
        pickler fails on it."""
        if not self._pickles_by_value and by_value_pickler_running():
            self._pickles_by_value = bool(check_picklable(
                self.fn, getattr(self.fn, "__qualname__", self.name)))
        return _rebuilt, (self.fn, self._options, self._identity, _source_of(self.fn))

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return functools.partial(self.__call__, obj)


_REBUILT: dict = {}     # identity -> the Compiled unpickled in this process
_REBUILT_LOCK = threading.Lock()


def _rebuilt(fn, options, identity, source=None):
    with _REBUILT_LOCK:
        compiled = _REBUILT.get(identity)
        if compiled is None:
            if source is not None:
                _restore_source(fn, *source)
            compiled = _REBUILT[identity] = Compiled(fn, **options)
            compiled._identity = identity
        return compiled


def _source_of(fn):
    """``(file name, its lines)`` of ``fn``'s source, which nptf converts: a function
    pickled by value (cloudpickle, as Dask ships a script's or notebook's functions)
    arrives with its code's file name replaced by "<dynamic-code>"."""
    code = getattr(fn, "__code__", None)
    if code is None or code.co_filename.startswith("<"):
        return None
    lines = linecache.getlines(code.co_filename)
    return (code.co_filename, lines) if lines else None


def _restore_source(fn, filename, lines):
    """Gives ``fn`` (and the functions of its module that came with it) its file name back,
    with the file's lines where this machine has no such file."""
    if not linecache.getlines(filename):
        linecache.cache[filename] = (sum(map(len, lines)), None, list(lines), filename)
    module = getattr(fn, "__module__", None)
    for f in [fn] + [v for v in getattr(fn, "__globals__", {}).values()
                     if isinstance(v, types.FunctionType)]:
        if f.__code__.co_filename != filename and f.__code__.co_filename.startswith("<") and \
                getattr(f, "__module__", None) == module:
            f.__code__ = _with_file_name(f.__code__, filename)


def _with_file_name(code, filename):
    consts = tuple(_with_file_name(c, filename) if isinstance(c, types.CodeType) else c
                   for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


def _is_array_spec(s):
    from ..graph_ir import ArrayType
    return isinstance(s, tuple) and len(s) in (2, 3, 4) and isinstance(s[0], ArrayType)


def _with_shapes(specs, shapes):
    it = iter(shapes)
    return [(s[0].with_shape(next(it)),) + s[1:] if _is_array_spec(s) else s for s in specs]


def _fits(pattern, shapes):
    if pattern is None:     # a NumPy fallback for an input_signature: every size it admits
        return True
    return len(pattern) == len(shapes) and all(
        len(p) == len(s) and all(a is None or a == b for a, b in zip(p, s))
        for p, s in zip(pattern, shapes))


def optimize(graph):
    for p in PIPELINE:
        graph = p(graph)
    return graph


def _concretize(graph, xla):
    run = lower_graph(graph, xla)
    input_signature = [tf.TensorSpec(v.type.shape, tf.as_dtype(v.type.dtype)) for v in graph.inputs]
    fn = tf.function(run, input_signature=input_signature, jit_compile=xla, autograph=False,
                     reduce_retracing=False)
    concrete = fn.get_concrete_function()
    if any(e.op.name == "while" for e in all_eqns(graph)):
        guard_rewrites(concrete, LOOP_REWRITES_OFF)
    return concrete, run.checks


_XLA_BUILD_FAILED = "XLA failed to build it"


class TensorFlowDefect(RuntimeError):
    """TensorFlow ran the graph but returned what it does not compute."""


def _say_again(said, nptf_too):
    """Issues again, once each, the warnings ``said`` recorded; nptf's own only where
    ``nptf_too``."""
    seen = set()
    for w in said:
        key = (str(w.message), w.category, w.filename, w.lineno)
        if key in seen or (not nptf_too and key[0].startswith("nptf: ")):
            continue
        seen.add(key)
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)


def _first_line(error):
    """TensorFlow's reason, without its function-node and op-name decorations."""
    text = getattr(error, "message", None) or str(error)
    text = re.sub(r"\{\{function_node [^}]*\}\}\s*|\s*\[Op:[^\]]*\]", "", text)
    return (text.strip().splitlines() or [""])[0]


def _defined_at(fn):
    """``file:line`` of ``fn``'s definition (a graph's failure belongs to the whole function)."""
    code = getattr(inspect.unwrap(fn), "__code__", None)
    return f"{code.co_filename}:{code.co_firstlineno}" if code is not None else "<unknown>"


def _count_leaves(treedef):
    if treedef.kind == "leaf":
        return 1
    return sum(_count_leaves(c) for c in treedef.children)


def _detached(tensor, inputs):
    """``tensor``, or a copy of it where its buffer is an input array's memory."""
    view = getattr(tensor, "_numpy", None)
    arr = view() if view is not None else None
    if isinstance(arr, np.ndarray) and any(isinstance(x, np.ndarray) and
                                           np.may_share_memory(arr, x) for x in inputs):
        return tf.constant(np.array(arr))
    return tensor


__all__ = ["Compiled", "CacheInfo", "Entry"]


def _hashable(value):
    try:
        hash(value)
    except TypeError:
        return False
    return True
