"""Run a user's function on tracers and collect the Graph it builds."""
from __future__ import annotations

import types
import warnings
from dataclasses import dataclass, replace

import numpy as np

from ..budget import CompileBudgetError
from ..errors import Error, UnsupportedError, in_user_code, unsupported
from ..graph_ir import ArrayType, Graph
from ..graph_ir.ir import Literal
from ..graph_ir.passes.rename import Renamer
from ..graph_ir.walk import all_eqns
from ..tree import flatten, has_nodes, node_metas
from . import numpy_vectorize
from .sites import assuming_paths, counting_sites
from .shadow import shadowing
from .builder import building
from .control_flow import UNROLL_LIMIT, recording_catches
from .convert import KEYED_DICTS, convert, converting_members, should_convert
from .globals_read import note_function, recording
from .namespace import numpy_patched, rebind
from .recursion import RecursionTracedError
from .numpy_random import end_trace as end_random
from .numpy_random import start_trace as start_random
from .numpy_random import GeneratorSpec, TracedGenerator, streams_in_graph
from .growing_lists import APPENDED, WIDENING, check_appended, reads_several_types
from .layouts import tracking_layouts
from .outputs import OutputInfo, handed_back, output_atoms, output_kinds, with_assumed_keys
from .printing import holds_text
from .python_lists import ListTracer
from .side_effects import patching_classes, watching
from .tracer import HASHED, Tracer
from .views import HELD


def without_kind_flags(traced):
    """``traced`` without the run-time kind flags of its outputs, for consumers that hand
    back tensors (a SavedModel's signature): a 0-d tensor is the same either way."""
    if holds_text(traced.out_tree):
        raise unsupported("returning text made of traced values (an f-string, str()) from an "
                          "exported function", fix="Return the values and format them outside.")
    if has_nodes(traced.out_tree):
        metas = [m for m in node_metas(traced.out_tree) if getattr(m, "nptf_what", None)]
        if metas:
            kinds = sorted({m.nptf_what for m in metas})
            fixes = sorted({getattr(m, "nptf_export_fix", None) for m in metas} - {None})
            raise unsupported(f"returning {' or '.join(kinds)} from an exported function",
                              fix=" ".join(fixes) or
                              "Return its arrays (a masked array's m.filled(v) and "
                              "np.ma.getmaskarray(m), a polynomial's p.coeffs).")
        raise unsupported("an output that is None when the data take some paths",
                          fix="Return the same structure on every path (np.nan for no result).")
    if not any(info.kind in ("by_kind", "list", "items") for info in traced.out_info):
        return traced
    outputs, infos, at = list(traced.graph.outputs), [], 0
    for info in traced.out_info:
        if info.kind in ("list", "items"):
            raise unsupported("returning a list appended to under control flow on traced "
                              "values from an exported function",
                              fix="Return np.array(x): the list's items as one array.")
        if info.kind == "by_kind":
            if info.value:
                raise unsupported("an output that is None when the data take some paths",
                                  fix="Return an array on every path (np.nan for no result).")
            del outputs[at + 1]
            info = OutputInfo("scalar" if outputs[at].type.ndim == 0 else "array")
        at += info.kind != "static"
        infos.append(info)
    return replace(traced, graph=traced.graph.replace(outputs=tuple(outputs)), out_info=infos)


@dataclass
class TracedFunction:
    graph: Graph
    out_tree: object
    out_info: list
    mutated: list = None   # graph-input indices of arguments the function writes into;
                           # their final values are the last graph outputs, in this order
    random_seed: bool = False   # the last graph input is an int64[2] seed, fresh every call
    guards: list = None         # (module globals, name, value, fingerprint) the graph assumes
                                # (globals_read)
    # The function runs code under `except` handlers: an error NumPy's run would raise
    # there, raised as the graph runs, runs the call with NumPy (whose run handles it).
    catches: bool = False
    # NumPy Generators made outside the function that it draws from: their states are the
    # graph inputs after the arguments' (GeneratorState.of each, at every call).
    captured: list = None
    # Of a trace that assumed paths and values: the places of the loops it ran in Python
    # (``sites.python_loop``); None for a trace that assumed none.
    python_loops: frozenset = None

    def __str__(self):
        return str(self.graph)


def _recursion_refused(error):
    """nptf's error for a trace that recursed past Python's limit: a recursion the data
    end (a backtracking search whose arguments the calls change), at the innermost line
    of the user's code the traceback holds."""
    where, tb = "<unknown>", error.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        # (Not code made from a string, a wrapper's: where the limit strikes in the
        # cycle of calls depends on the depth of the stack the call starts from.)
        if in_user_code(name) and not name.startswith("<"):
            where = f"{name}:{tb.tb_lineno}"
        tb = tb.tb_next
    err = RecursionTracedError(
        f"tracing went past Python's recursion limit: a function calls itself (or a loop "
        f"of calls runs) where only the data can end it, so tracing it would not end. "
        f"Fix: write the recursion as a loop over an explicit stack (a `while` the graph "
        f"can run), or let the function run with NumPy (fallback='numpy', the default).\n"
        f"  at {where}")
    err._nptf_located = True
    return err


def trace_function(fn, leaf_specs, rebuild, unroll=8, assume_paths=False,
                   python_loops=frozenset(), assume_values=False):
    """Trace ``fn`` on arguments ``rebuild(leaves) -> (args, kwargs)`` (see
    ``_traced_with_error_state``); ``assume_paths``: the caller runs a graph traced with
    other assumptions where the data fail one, so the trace may assume the path of an `if`
    whose paths cannot be one graph's (``sites.assume_path``), and with
    ``assume_values`` the Python value of a traced value Python needs
    (``sites.assume_value``) and the trip counts of the loops at the places
    ``python_loops``, which run in Python (``sites.python_loop``). Without it, nptf's error of a
    failed trace says whether it met such an `if` or value (``paths_declined``); either
    way, the loops no graph loop could run whose trip count it could have assumed
    (``loops_declined``)."""
    before = np.geterr()
    try:
        with assuming_paths(assume_paths, python_loops, assume_values) as declined:
            try:
                traced = _traced_with_error_state(fn, leaf_specs, rebuild, unroll)
            except Error as e:
                # (Not a trace past its budget, which assumed paths do not shorten, nor a
                # recursion the data end but where its `if`'s path may be the data's.)
                e.loops_declined = frozenset(w[1] for w in declined if type(w) is tuple)
                e.paths_declined = bool(declined) and not isinstance(e, CompileBudgetError) \
                    and (not isinstance(e, RecursionTracedError) or bool(e.loops_declined))
                raise
    except RecursionError as e:
        raise _recursion_refused(e) from None
    finally:
        after = np.geterr()
        if after != before:
            np.seterr(**before)
    if after != before:
        # A graph call cannot set it: NumPy's run does, as the function asks.
        changed = {k: v for k, v in after.items() if before[k] != v}
        raise unsupported(f"np.seterr({', '.join(f'{k}={v!r}' for k, v in changed.items())}) "
                          f"left NumPy's floating-point error state changed for the caller",
                          fix="Set it around the call, or use `with np.errstate(...)` in the "
                              "function.")
    return traced


def _traced_with_error_state(fn, leaf_specs, rebuild, unroll):
    """Trace ``fn`` (see ``_traced_widening``).

    Where the trace fails after it used a traced value as a dict key, it runs again with
    the function's empty dicts keyed by traced values (``convert.KEYED_DICTS``): only a
    function that fails otherwise takes them."""
    hashed = []
    token = HASHED.set(hashed)
    failed = None
    # What the first trace says (a loop that runs unrolled) is said unless it runs again.
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        try:
            traced = _traced_widening(fn, leaf_specs, rebuild, unroll)
        except Exception as e:  # noqa: BLE001  (raised below unless traced dicts may help)
            failed = e
        finally:
            HASHED.reset(token)
    if failed is None or not hashed or KEYED_DICTS.get():
        for w in said:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)
        if failed is not None:
            raise failed
        return traced
    keyed = KEYED_DICTS.set(True)
    try:
        return _traced_widening(fn, leaf_specs, rebuild, unroll)
    except Exception:  # noqa: BLE001
        # Where the dict key was not what stopped the first trace, its error says more.
        if getattr(failed, "dict_key", False):
            raise
        raise failed from None
    finally:
        KEYED_DICTS.reset(keyed)


def _traced_widening(fn, leaf_specs, rebuild, unroll):
    """Trace ``fn`` on arguments ``rebuild(leaves) -> (args, kwargs)``.

    ``leaf_specs[i]`` is ``(ArrayType, is_scalar)`` for a leaf that becomes a graph
    input (``(ArrayType, is_scalar, strides)`` for an array not in C order: its strides in
    elements; ``(ArrayType, False, None, element_type)`` for a list of numbers), or the
    static Python value itself.

    Where the function reads an item of a list a loop left holding numbers of several
    types (whose type the data would choose), it is traced again with such lists kept
    by Python (their loops unrolled where the trip count is known), as without them.
    """
    try:
        return _traced_streams(fn, leaf_specs, rebuild, unroll)
    except UnsupportedError as e:
        if not WIDENING.get() or not reads_several_types(e):
            raise
    token = WIDENING.set(False)
    try:
        return _traced_streams(fn, leaf_specs, rebuild, unroll)
    finally:
        WIDENING.reset(token)


def _traced_streams(fn, leaf_specs, rebuild, unroll):
    """``_traced``; where a draw from a legacy stream the function seeds cannot be made
    while tracing (the data decide how many are drawn), traced again with such streams'
    Mersenne Twisters in the graph (``numpy_random.streams_in_graph``)."""
    try:
        return _traced(fn, leaf_specs, rebuild, unroll)
    except UnsupportedError as e:
        if not getattr(e, "streams_in_graph", False):
            raise
    with streams_in_graph():
        return _traced(fn, leaf_specs, rebuild, unroll)


def _traced(fn, leaf_specs, rebuild, unroll):
    with numpy_patched(numpy_vectorize.PATCHES), building() as builder, tracking_layouts(), recording() as reads, \
            recording_catches() as catches, counting_sites(), shadowing(builder):
        if isinstance(fn, types.FunctionType):
            note_function(fn)
        rng_token = start_random(builder)
        leaves, inputs = [], []
        for spec in leaf_specs:
            if isinstance(spec, GeneratorSpec):
                inputs.append(Tracer(builder.new_input(spec.type)))
                leaves.append(TracedGenerator.argument(inputs[-1]))
            elif isinstance(spec, tuple) and len(spec) in (2, 3, 4) and \
                    isinstance(spec[0], ArrayType):
                var = builder.new_input(spec[0])
                if len(spec) == 4:
                    leaves.append(ListTracer(var, element=spec[3]))
                else:
                    leaves.append(Tracer(var, is_scalar=spec[1]))
                if len(spec) == 3:     # strides of a non-C-ordered array argument
                    leaves[-1]._layout = spec[2]
                inputs.append(leaves[-1])
            else:
                leaves.append(spec)
        call_args, call_kwargs = rebuild(leaves)
        # Python state the function changes (its arguments' containers, globals,
        # closures) would change once, here, not on every call: refused, and undone.
        with watching(fn, call_args, call_kwargs) as watch, patching_classes():
            target = convert(fn) if should_convert(fn) else fn
            if target is fn:
                copies = {}
                target = rebind(fn, copies)
                watch.add_copies(copies)
            for value in (*call_args, *call_kwargs.values()):
                converting_members(type(value))    # an object of the user's passed in
            token, appended = UNROLL_LIMIT.set(unroll), APPENDED.set([])
            held = HELD.set({})
            try:
                result = target(*call_args, **call_kwargs)
                check_appended(APPENDED.get())
            finally:
                UNROLL_LIMIT.reset(token)
                APPENDED.reset(appended)
                HELD.reset(held)
        _check_no_static_list_returned(leaves, result)
        out_leaves, out_tree = flatten(with_assumed_keys(result))
        atoms, info = output_atoms(out_leaves)
        random_state = end_random(rng_token)
        # NumPy Generators made outside the function: their states are inputs after the
        # arguments' (and before a seed), written back like an argument's array.
        captured = [owner for owner, _ in random_state.captured]
        inputs += [traced.gen for _, traced in random_state.captured]
        mutated = [i for i, t in enumerate(inputs) if t._view is not None and t._view.buffer.written
                   and t._view.steps == ()]
        atoms += [inputs[i]._view.buffer.atom for i in mutated]
        graph = builder.build(atoms)
        seed = random_state.seed_input
        if captured and seed is not None:
            # (made in the order the trace needed them: the seed goes last)
            graph = graph.replace(inputs=tuple(v for v in graph.inputs if v is not seed)
                                  + (seed,))
    seeded = random_state.seed_input is not None
    if seeded and not any(e.op.name == "random" for e in all_eqns(graph)):
        # Every draw is from a stream the function seeds (NumPy's numbers, the same on
        # every call): no fresh seed per call; the key the trace threaded is a constant.
        graph = _without_input(graph, random_state.seed_input)
        seeded = False
    return TracedFunction(graph, out_tree, info, mutated, seeded, reads.guards(),
                          bool(catches), captured)


def _lists_in(value, found):
    if type(value) is list:
        found.append(value)
    if type(value) in (list, tuple):
        for v in value:
            _lists_in(v, found)
    elif type(value) is dict:
        for v in value.values():
            _lists_in(v, found)
    return found


def _check_no_static_list_returned(leaves, result):
    """A list argument keyed by its numbers (the function gets a copy of it) returned, or
    a list inside it: NumPy's run hands back the caller's own list object, which a later
    change to either shows in both; the graph would give a new list."""
    static = {id(v) for leaf in leaves if type(leaf) is list for v in _lists_in(leaf, [])}
    if static and any(id(v) in static for v in _lists_in(result, [])):
        raise unsupported("returning a list argument (or a list inside it), the caller's own "
                          "list object in NumPy",
                          fix="Return a copy (list(x)) or np.array(x).")


def _without_input(graph, var):
    """``graph`` with its input ``var`` (an int64[2] key nothing draws from) a constant."""
    rename = Renamer({var: Literal(np.zeros(2, np.int64), var.type)})
    return graph.replace(inputs=tuple(v for v in graph.inputs if v is not var),
                         eqns=tuple(rename.eqn(e) for e in graph.eqns),
                         outputs=rename(graph.outputs))


__all__ = ["trace_function", "TracedFunction", "OutputInfo", "Literal", "output_kinds", "handed_back",
           "without_kind_flags"]
